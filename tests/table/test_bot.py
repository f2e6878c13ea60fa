"""The bot process: every answer legal, whatever it is fed; mjai.app's line protocol end to end."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from real_games import events_of, four_player_games

from app.core.families.registry import family_of
from app.core.shape.rules import rule_profile
from app.core.table.decide import seat_sees
from app.core.table.machine import TableMachine
from app.core.table.mjai import action_key, read_event
from app.mjai.bot import Bot, run

ROOT = Path(__file__).resolve().parents[2]


def test_the_bot_answers_a_real_game_legally_at_every_point() -> None:
    path = four_player_games()[0]
    events = events_of(path)
    for seat in (0, 3):
        bot = Bot(seat, log=io.StringIO())
        judge = TableMachine(rule_profile("riichi"), family_of(rule_profile("riichi")))
        decisions = 0
        for index, event in enumerate(seat_sees(events, seat)):
            sent = {**event, "id": seat} if event["type"] == "start_game" else event
            answer = json.loads(bot.react(json.dumps([sent])))
            judge.apply_object(events[index], index)
            legal = {action_key(action) for action in judge.legal_actions(seat)}
            if not legal:
                assert answer == {"type": "none"}
                continue
            decisions += 1
            assert action_key(read_event(answer, index)) in legal, (index, answer)
        assert decisions > 100


def test_the_bot_never_crashes_and_falls_back_on_a_legal_action() -> None:
    log = io.StringIO()
    bot = Bot(0, log=log)
    assert bot.react("this is not json") == '{"type":"none"}'
    assert bot.react('[{"type":"start_game","id":0}]') == '{"type":"none"}'
    hands = [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "S", "N"]] + [["?"] * 13] * 3
    start = {
        "type": "start_kyoku",
        "bakaze": "E",
        "dora_marker": "1p",
        "kyoku": 1,
        "honba": 0,
        "kyotaku": 0,
        "oya": 0,
        "scores": [25000] * 4,
        "tehais": hands,
    }
    answer = json.loads(bot.react(json.dumps([start, {"type": "tsumo", "actor": 0, "pai": "C"}])))
    assert answer["type"] in ("dahai", "reach")
    # A strategy that fails inside: the bot logs it and throws the tile it drew.
    bot2 = Bot(0, log=log)
    bot2.react('[{"type":"start_game","id":0}]')
    bot2.strategy = None  # type: ignore[assignment]
    thrown = json.loads(bot2.react(json.dumps([start, {"type": "tsumo", "actor": 0, "pai": "C"}])))
    assert thrown == {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": True}
    assert "cannot answer" in log.getvalue()


def test_run_answers_one_line_per_message() -> None:
    lines = io.StringIO('[{"type":"start_game","id":2}]\n\n{"type":"end_game"}\n')
    out = io.StringIO()
    run(2, stdin=lines, stdout=out)
    assert out.getvalue().splitlines() == ['{"type":"none"}', '{"type":"none"}']


def test_python_m_app_mjai_speaks_the_protocol() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.mjai", "1"],
        input='[{"type":"start_game","id":1,"names":["a","b","c","d"]}]\n',
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == '{"type":"none"}\n'
