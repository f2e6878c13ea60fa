"""The versus tool (tests/tools/versus.py): an outside bot process against tenpai's strategies, from any hand.

Its two protocols are tried with real processes: tenpai's own mjai bot (``python -m
app.mjai``) through mjai.app's, and a small bot written here through akochan's ``pipe`` one
(akochan itself may not be kept in the project: its licence forbids it).  A bot with a flaw
put in shows that a bad reply ends the game and is counted, never played.  Every log the tool
deals is refereed clean.
"""

from __future__ import annotations

import dataclasses
import doctest
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from app.core.families.registry import TABLES
from app.core.table.decide import decide
from app.core.table.flow import GameLength, RoundWind, TableState
from app.core.table.game import Dealer, InvalidGameConfig, RandomWalls, table_rules
from app.core.table.players import make_player
from app.core.table.referee import judge

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tests" / "tools" / "versus.py"

#: akochan's ``pipe`` protocol, spoken plainly: throw what was drawn, never call.  ``--flaw``
#: breaks its ``--at``-th answer (counting from 1): ``garbage`` (not JSON), ``other_seat`` (a
#: discard for the next seat: never legal), ``empty`` (an empty list).  It fails loudly if it
#: is asked to answer an event it was told it cannot act on.
PIPE_BOT = """
import json, sys
seat, flaw, at = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
answers = 0
for line in sys.stdin:
    event = json.loads(line)
    actor, kind = event.get("actor"), event.get("type")
    mine = actor == seat and kind == "tsumo"
    theirs = actor is not None and actor != seat and kind in ("dahai", "kakan")
    if event.get("can_act") is False:
        assert mine or theirs, event  # only what the bot would answer is marked
        continue
    if not (mine or theirs):
        continue
    answers += 1
    if answers == at and flaw == "garbage":
        print("not json", flush=True)
        continue
    if answers == at and flaw == "empty":
        print("[]", flush=True)
        continue
    if mine:
        actor = (seat + 1) % 4 if answers == at and flaw == "other_seat" else seat
        reply = [{"type": "dahai", "actor": actor, "pai": event["pai"], "tsumogiri": True}]
    else:
        reply = [{"type": "none"}]
    print(json.dumps(reply), flush=True)
"""


def _load() -> ModuleType:
    neighbours = ("arena_stats", "line_bot")  # versus.py imports them from its folder
    before = {name: sys.modules.get(name) for name in neighbours}
    sys.path.insert(0, str(TOOL.parent))
    try:
        spec = importlib.util.spec_from_file_location("versus", TOOL)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(TOOL.parent))
        # Leave no tool module behind under its plain name: test_arena_stats loads its own copy
        # of arena_stats, and doctest counts an example only where sys.modules names its module.
        for name, old in before.items():
            if old is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = old
    return module


versus = _load()


def run(tmp_path: Path, *args: str, expect: int = 0) -> Any:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--out", str(tmp_path), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == expect, done.stderr[-3000:]
    return json.loads(done.stdout)


def pipe_bot(tmp_path: Path, flaw: str = "none", at: int = 0) -> str:
    script = tmp_path / "pipe_bot.py"
    script.write_text(PIPE_BOT)
    return f"{sys.executable} {script} {{seat}} {flaw} {at}"


def against_pipe_bot(tmp_path: Path, *, seat: int, start: str, flaw: str = "none", at: int = 0, expect: int = 0) -> Any:
    """One game of the pipe bot in ``seat`` against three ``greedy`` seats from ``start``."""
    command = pipe_bot(tmp_path, flaw, at)
    options = ("--protocol", "pipe", "--strategy", "greedy", "--walls", "1", "--seats", str(seat), "--start", start)
    return run(tmp_path, "--bot-cmd", command, *options, expect=expect)


def log_of(tmp_path: Path, game: int) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (tmp_path / f"game-{game:03d}.mjai.jsonl").read_text().splitlines()]


def refereed_clean(events: list[dict[str, Any]], length: GameLength | None) -> None:
    rules = TABLES["riichi"].preset_rules("riichi", {})
    report = judge(events, rules, family=TABLES["riichi"], length=length)
    assert report.problems == [], report.problems[:3]


def test_the_modules_examples_hold() -> None:
    result = doctest.testmod(versus)
    assert result.attempted >= 4 and result.failed == 0


def test_tenpais_own_bot_plays_from_east_4_through_mjai_apps_protocol(tmp_path: Path) -> None:
    summary = run(
        tmp_path,
        "--bot-cmd",
        f"{sys.executable} -m app.mjai --strategy near",
        "--protocol",
        "mjai-app",
        "--strategy",
        "near",
        "--walls",
        "1",
        "--seats",
        "0,2",
        "--start",
        "E4",
        "--length",
        "tonpuu",
    )
    assert summary["games"] == summary["completed"] == 2 and summary["faults"] == []
    for number, game in enumerate(summary["per_game"]):
        events = log_of(tmp_path, number)
        first = next(e for e in events if e["type"] == "start_kyoku")
        assert (first["bakaze"], first["kyoku"], first["oya"]) == ("E", 4, 3)
        assert first["scores"] == [25000] * 4
        assert sum(game["final_scores"]) == 100_000
        assert game["rank"] in (1, 2, 3, 4) and game["exit_code"] == 0
        # The flow from East 4 on is the table's; the referee checks every hand.
        refereed_clean(events, None)
        replies = [
            json.loads(line) for line in (tmp_path / f"game-{number:03d}.replies.jsonl").read_text().splitlines()
        ]
        sent = [event for r in replies for event in json.loads(r["sent"])]
        seat = game["seat"]
        assert sent[0] == {
            "type": "start_game",
            "names": game["players"],
            "id": seat,
            "aka_flag": True,
            "kyoku_first": 4,
        }
        assert all(e["pai"] == "?" for e in sent if e["type"] == "tsumo" and e["actor"] != seat)
        hidden = [e["tehais"][(seat + 1) % 4] for e in sent if e["type"] == "start_kyoku"]
        assert hidden and all(set(hand) == {"?"} for hand in hidden)
    # The same wall from two seats deals the same first hand: the games are duplicates.
    first_hands = [next(e for e in log_of(tmp_path, g) if e["type"] == "start_kyoku")["tehais"] for g in (0, 1)]
    assert first_hands[0] == first_hands[1]
    bot = summary["bot"]
    assert bot["games"] == 2 and bot["hands"] == sum(g["tally"]["hands"] for g in summary["per_game"])
    assert summary["tenpai_seats"]["seat_hands"] == 3 * bot["hands"]


def test_a_pipe_bot_is_told_every_event_and_answers_only_where_it_is_asked(tmp_path: Path) -> None:
    summary = against_pipe_bot(tmp_path, seat=1, start="S4")
    assert summary["completed"] == 1 and summary["faults"] == []
    events = log_of(tmp_path, 0)
    refereed_clean(events, None)
    replies = [json.loads(line) for line in (tmp_path / "game-000.replies.jsonl").read_text().splitlines()]
    draws = sum(1 for e in events if e["type"] == "tsumo" and e["actor"] == 1)
    # Each own draw is answered; another seat's discard only where the bot could claim it.
    own = [r for r in replies if json.loads(r["sent"]).get("actor") == 1]
    assert len(own) == draws
    discards = [e for e in events if e["type"] == "dahai" and e["actor"] == 1]
    assert all(d["tsumogiri"] for d in discards)  # it threw what it drew, as it answered
    assert summary["bot"]["call_rate"]["value"] == 0


@pytest.mark.parametrize(
    ("flaw", "kind"), [("garbage", "malformed"), ("other_seat", "not_legal"), ("empty", "malformed")]
)
def test_a_bad_reply_ends_the_game_is_counted_and_left_out(tmp_path: Path, flaw: str, kind: str) -> None:
    summary = against_pipe_bot(tmp_path, seat=0, start="S1", flaw=flaw, at=3, expect=1)
    assert summary["completed"] == 0 and summary["bot"]["games"] == 0
    (fault,) = summary["faults"]
    assert fault["kind"] == kind and fault["game"] == 0
    # Nothing the bad reply asked for was played: the log stops at the point it was asked.
    events = log_of(tmp_path, 0)
    assert len(events) == fault["event"]
    assert events[-1]["type"] in ("tsumo", "dahai", "kakan")


def test_a_start_that_is_no_hand_is_refused_with_its_option_named(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--out", str(tmp_path), "--bot-cmd", "true", "--start", "X9"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--start" in done.stderr


def test_the_dealer_starts_at_the_hand_it_is_given_and_plays_on_by_the_rules() -> None:
    rules = TABLES["riichi"].preset_rules("riichi", {})
    start = TableState(RoundWind.SOUTH, 3, 0, 0, 2, (31000, 24000, 20000, 25000))
    dealer = Dealer(
        rules,
        TABLES["riichi"],
        table_rules(rules, "hanchan"),
        RandomWalls(random.Random(3)),
        names=("a", "b", "c", "d"),
        start=start,
    )
    strategies = [make_player("greedy", rng=random.Random(seat)) for seat in range(4)]
    run = dealer.run()
    ask = next(run)
    with pytest.raises(StopIteration) as finished:
        while True:
            ask = run.send({s: decide(dealer.machine, s, strategies[s], rank=False).action for s in ask.seats})
    record = finished.value.value
    first = next(e for e in record.events if e["type"] == "start_kyoku")
    assert (first["bakaze"], first["kyoku"], first["oya"], first["scores"]) == ("S", 3, 2, list(start.scores))
    assert sum(record.scores) == sum(start.scores)
    refereed_clean(record.events, None)
    with pytest.raises(InvalidGameConfig):
        Dealer(
            rules,
            TABLES["riichi"],
            table_rules(rules, "hanchan"),
            RandomWalls(random.Random(3)),
            names=("a",) * 4,
            start=dataclasses.replace(start, scores=(25000,) * 3),
        )


def test_a_rerun_of_one_game_plays_it_as_the_whole_run_did(tmp_path: Path) -> None:
    command = pipe_bot(tmp_path)
    options = ("--protocol", "pipe", "--strategy", "greedy", "--walls", "2", "--seats", "0,2", "--start", "S4")
    whole = run(tmp_path / "whole", "--bot-cmd", command, *options)
    rerun = run(tmp_path / "rerun", "--bot-cmd", command, *options, "--only", "2")
    assert [g["game"] for g in whole["per_game"]] == [0, 1, 2, 3]
    (game,) = rerun["per_game"]
    assert (game["game"], game["wall"], game["seat"]) == (2, 1, 0)
    # The same deals and, every player being a function of its seed, the same game event for event.
    assert log_of(tmp_path / "rerun", 2) == log_of(tmp_path / "whole", 2)
    assert log_of(tmp_path / "whole", 2) != log_of(tmp_path / "whole", 0)  # another wall
