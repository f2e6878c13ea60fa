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
    assert bot["slowest_s"] is not None and bot["late"] == 0
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
    # The seat's hands as the log tells them, and the statistics over the one game.
    tally = game["tally"]
    assert tally["hands"] == game["hands"] == sum(1 for e in log if e["type"] == "start_kyoku")
    assert tally["wins"] == len({i for i, e in enumerate(log) if e["type"] == "hora" and e["actor"] == 2})
    assert tally["riichi"] == sum(1 for e in log if e["type"] == "reach_accepted" and e["actor"] == 2)
    assert tally["calls"] == sum(1 for e in log if e["type"] in ("chi", "pon", "daiminkan") and e["actor"] == 2)
    # The hands' points add up to the final score, but for deposits the top seat collects at the end.
    left_on_table = game["final_scores"][2] - 25_000 - tally["points"]
    assert left_on_table == 0 or (game["rank"] == 1 and left_on_table % 1000 == 0), left_on_table
    statistics = summary["statistics"]
    assert (statistics["games"], statistics["walls"], statistics["hands"]) == (1, 1, game["hands"])
    assert statistics["average_rank"] == {"value": game["rank"], "ci95": None, "n": 1, "interval": None}
    points = statistics["rank_points"][game["rank"] - 1]
    assert statistics["rank_points"] == [90, 45, 0, -135] and statistics["rank_points_per_game"]["value"] == points
    assert statistics["average_final_score"]["value"] == game["final_scores"][2]
    assert [rate["value"] for rate in statistics["place_rates"]] == [float(p == game["rank"]) for p in (1, 2, 3, 4)]
    for rate, count in [("win_rate", "wins"), ("deal_in_rate", "deal_ins"), ("riichi_rate", "riichi")]:
        assert statistics[rate]["value"] == round(tally[count] / tally["hands"], 4)
        assert statistics[rate]["interval"] == f"wilson over {tally['hands']} hands"
    times = statistics["reply_time"]
    assert times["decisions"] == bot["decisions"]
    assert 0 < times["median_s"] <= times["p95_s"] <= times["p99_s"] <= times["max_s"] <= bot["slowest_s"]
    assert statistics["reply_time_after_first"]["decisions"] == bot["decisions"] - 1
    assert statistics["faulty_replies"] == dict.fromkeys(
        ("malformed", "rejected", "not_legal", "timeouts", "crashes"), 0
    )
    assert statistics["games_not_completed"] == 0


def test_games_in_worker_processes_come_back_in_order_and_the_same(
    run_tool: RunTool, mjai_python: Path, tmp_path: Path
) -> None:
    command = f"{mjai_python} tests/tools/mjai_pkg_bot.py {{seat}}"
    runs = []
    for workers in ("1", "2"):
        out = tmp_path / workers
        arena = (
            "--games",
            "3",
            "--seed",
            "5",
            "--bot-cmd",
            command,
            "--out",
            str(out),
            "--seats",
            "0,1",
            "--workers",
            workers,
        )
        done = run_tool("arena", *arena, "--rank-points", "50,10,-10,-50")
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    timing = ("seconds", "slowest_s", "slowest_after", "slowest_decision_s")

    def untimed(game: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in game.items() if key not in (*timing, "bot", "package_bots")} | {
            side: {key: value for key, value in game[side].items() if key not in timing}
            for side in ("bot", "package_bots")
        }

    assert [game["game"] for game in runs[1]["per_game"]] == [0, 1, 2]
    assert [untimed(game) for game in runs[0]["per_game"]] == [untimed(game) for game in runs[1]["per_game"]]
    one, two = ({key: v for key, v in run["statistics"].items() if not key.startswith("reply_time")} for run in runs)
    assert one == two and one["rank_points"] == [50, 10, -10, -50]
    # Wall 5 from seats 0 and 1, wall 6 from seat 0 only: uneven, so the game figures are over games.
    assert (one["walls"], one["seats_per_wall"], one["average_rank"]["interval"]) == (2, [1, 2], "t over 3 games")


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
