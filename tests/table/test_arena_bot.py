"""tenpai's bot in libriichi's arena (mjai.app's referee), against the mjai package's bots.

Hanchans with ``python -m app.mjai SEAT`` in every seat: no reply malformed, rejected, not
one of libriichi's legal actions, late (mjai.app allows 2 s) or missing (a crash).  Then the
table machine's legal actions, which ``/act`` answers, are compared with libriichi's at every
decision point of those games.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

from app.core.families.registry import family_of
from app.core.shape.rules import rule_profile
from app.core.table.machine import TableMachine
from app.core.table.mjai import action_key, action_object, read_event

RunTool = Callable[..., subprocess.CompletedProcess[str]]
FAULTS = ("malformed", "rejected", "timeouts", "crashes", "not_legal", "late")
GAMES = 4  # one per seat


def test_the_bot_plays_hanchans_in_every_seat_without_a_fault_and_act_agrees_with_libriichi(
    run_tool: RunTool, tmp_path: Path
) -> None:
    command = f"{sys.executable} -m app.mjai {{seat}}"
    done = run_tool(
        "arena",
        "--games",
        str(GAMES),
        "--seed",
        "22",
        "--bot-cmd",
        command,
        "--out",
        str(tmp_path),
        "--legal",
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout)
    assert summary["completed"] == GAMES, [game["arena_error"] for game in summary["per_game"]]
    assert sorted(game["seat"] for game in summary["per_game"]) == [0, 1, 2, 3]
    assert summary["bot"]["decisions"] > 200
    assert {fault: summary["bot"][fault] for fault in FAULTS} == dict.fromkeys(FAULTS, 0)
    assert summary["bot"]["slowest_s"] < 10.0  # a start_game (the bot's warm-up) may take longer than a decision
    assert max(game["bot"]["slowest_decision_s"] for game in summary["per_game"]) < 2.0
    compared = 0
    for log in sorted(tmp_path.glob("game-*.mjai.jsonl")):
        points = defaultdict(list)
        for line in log.with_name(log.name.replace(".mjai.jsonl", ".legal.jsonl")).read_text().splitlines():
            point = json.loads(line)
            points[point["index"]].append(point)
        machine = TableMachine(rule_profile("riichi"), family_of(rule_profile("riichi")))
        for index, line in enumerate(log.read_text().splitlines()):
            machine.apply_object(json.loads(line), index)
            for point in points.get(index, []):
                compared += 1
                # Both sides in mjai form: a declared draw (nine terminals) is written without its
                # actor (action_object, as libriichi writes it).
                ours = {
                    action_key(read_event(action_object(action), 0)) for action in machine.legal_actions(point["seat"])
                }
                theirs = {action_key(read_event(action, 0)) for action in point["legal"]}
                assert ours == theirs, (log.name, index)
    assert compared > 1000
