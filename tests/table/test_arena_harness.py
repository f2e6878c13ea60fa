"""The arena harness (tests/tools/arena.py) plays a clean bot clean and catches every kind of fault.

The bot under test here is one the mjai package ships (its RulebaseBot), run as a process
behind mjai.app's stdin/stdout protocol by tests/tools/mjai_pkg_bot.py: through the pipe it
must finish a hanchan with no fault at all.  The same bot with a flaw put in on purpose
shows that each counter counts: a discard libriichi's arena lets through but that is not a
legal action, a reply that is not JSON, a process that exits, a reply too late.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

#: The ``run_tool`` fixture (tests/table/conftest.py): a script of tests/tools/ under the mjai venv.
RunTool = Callable[..., subprocess.CompletedProcess[str]]
FAULTS = ("malformed", "rejected", "timeouts", "crashes", "not_legal")


def play(run_tool: RunTool, mjai_python: Path, out: Path, *bot_args: str, arena_args: tuple[str, ...] = ()) -> Any:
    command = f"{mjai_python} tests/tools/mjai_pkg_bot.py {' '.join(bot_args)} {{seat}}"
    done = run_tool("arena", "--games", "1", "--seed", "1", "--bot-cmd", command, "--out", str(out), *arena_args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_package_bot_through_the_pipe_plays_a_hanchan_without_a_fault(
    run_tool: RunTool, mjai_python: Path, tmp_path: Path
) -> None:
    summary = play(run_tool, mjai_python, tmp_path, arena_args=("--seats", "2", "--legal"))
    game = summary["per_game"][0]
    assert summary["completed"] == 1, game["arena_error"]
    assert game["seat"] == 2 and game["players"][2] == "bot"
    assert game["hands"] >= 4  # at least the East round
    assert len(game["final_scores"]) == 4 and sum(game["final_scores"]) == 100_000
    assert game["rank"] in (1, 2, 3, 4)
    bot = game["bot"]
    assert bot["decisions"] > 0 and bot["messages"] > bot["decisions"]  # start_game, end_kyoku, ... too
    assert {key: bot[key] for key in FAULTS} == dict.fromkeys(FAULTS, 0), bot["examples"]
    assert bot["exit_code"] == 0
    assert bot["slowest_s"] is not None and bot["over_2s"] == 0
    assert {key: game["package_bots"][key] for key in FAULTS} == dict.fromkeys(FAULTS, 0)
    # Every decision of every seat was matched to a point of the oracle on the log.
    assert game["point_count_mismatch"] == []
    log = [json.loads(line) for line in (tmp_path / "game-000.mjai.jsonl").read_text().splitlines()]
    assert log[0]["type"] == "start_game" and log[-1]["type"] == "end_game"
    assert not any(e.get("reason") == "error" for e in log)
    legal = (tmp_path / "game-000.legal.jsonl").read_text().splitlines()
    assert len(legal) == bot["decisions"] + game["package_bots"]["decisions"]
    replies = [json.loads(line) for line in (tmp_path / "game-000.replies.jsonl").read_text().splitlines()]
    assert len(replies) == bot["messages"]
    assert all(r["legal"] for r in replies if r["decision"])
    # mjai.app's protocol: the bot sees its own hand and draws only.
    sent = [event for r in replies for event in r["sent"]]
    assert all(e["pai"] == "?" for e in sent if e["type"] == "tsumo" and e["actor"] != 2)
    assert all(
        hand == ["?"] * 13 for e in sent if e["type"] == "start_kyoku" for i, hand in enumerate(e["tehais"]) if i != 2
    )


def test_a_discard_the_arena_lets_through_is_still_not_legal(
    run_tool: RunTool, mjai_python: Path, tmp_path: Path
) -> None:
    # tsumogiri: false on the drawn tile: validate_reaction accepts it, the legal set has true.
    summary = play(run_tool, mjai_python, tmp_path, "--flaw", "tedashi")
    bot = summary["per_game"][0]["bot"]
    assert summary["completed"] == 1
    assert bot["not_legal"] > 0
    assert bot["rejected"] == bot["malformed"] == 0
    example = bot["examples"][0]
    assert json.loads(example["reply"])["tsumogiri"] is False
    assert {**json.loads(example["reply"]), "tsumogiri": True} in example["legal_actions"]


@pytest.mark.parametrize(
    ("flaw", "counter"),
    [("garbage", "malformed"), ("exit", "crashes"), ("sleep", "timeouts")],
)
def test_a_broken_reply_ends_the_game_and_is_counted(
    run_tool: RunTool, mjai_python: Path, tmp_path: Path, flaw: str, counter: str
) -> None:
    summary = play(
        run_tool, mjai_python, tmp_path, "--flaw", flaw, "--at", "3", "--sleep", "3", arena_args=("--timeout", "1")
    )
    game = summary["per_game"][0]
    assert summary["completed"] == 0
    assert game["bot"][counter] == 1
    assert sum(game["bot"][key] for key in FAULTS) == 1
    assert game["bot"]["decisions"] == 3
    log = (tmp_path / "game-000.mjai.jsonl").read_text()
    assert '"reason":"error"' in log  # the arena's own record of the aborted hand
