"""``python -m app.selfplay`` end to end: files written, same seed same bytes, whole games with their
mjai logs (which the referee accepts), duplicate runs, bad options exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import rule_profile
from app.core.table.flow import GameLength
from app.core.table.game import GameConfig, play_game
from app.core.table.referee import judge
from app.selfplay.cli import main

ROOT = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
RUN = ["--rules", "qiqihar", "--games", "8", "--seed", "42", "--players", "advisor,advisor,greedy,random"]


def test_module_end_to_end(tmp_path):
    out, plot = tmp_path / "report.json", tmp_path / "report.png"
    completed = subprocess.run(
        [sys.executable, "-m", "app.selfplay", *RUN, "--workers", "1", "--out", str(out), "--plot", str(plot)],
        cwd=ROOT,
        check=False,  # the exit status is asserted, with standard error shown
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert "seat  strategy  win rate (95% CI)" in completed.stdout
    assert "3     random" in completed.stdout
    # Standard error: progress lines (not a terminal here) and the throughput; standard output has neither.
    assert "[##########] 8/8 games" in completed.stderr
    assert "played 8 games (8 hands) in" in completed.stderr and "games/s" not in completed.stdout
    report = json.loads(out.read_text())
    assert (report["rules"], report["seed"], report["games"]) == ("qiqihar", 42, 8)
    assert [player["strategy"] for player in report["players"]] == ["advisor", "advisor", "greedy", "random"]
    assert plot.read_bytes().startswith(PNG_SIGNATURE)


def test_same_seed_same_file_whatever_the_workers(tmp_path, capsys):
    first, second, other = tmp_path / "first.json", tmp_path / "second.json", tmp_path / "other.json"
    assert main([*RUN, "--workers", "1", "--quiet", "--out", str(first)]) == 0
    assert main([*RUN, "--workers", "2", "--quiet", "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    assert main([*RUN[:-4], "--seed", "43", *RUN[-2:], "--workers", "1", "--quiet", "--out", str(other)]) == 0
    assert other.read_bytes() != first.read_bytes()
    assert capsys.readouterr().err == ""  # --quiet: nothing on standard error


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--rules", "mahjongg"], "unknown rules 'mahjongg'; rules are riichi, chinese, qiqihar"),
        (["--players", "advisor,expert,greedy,random"], "unknown strategy 'expert'; strategies are advisor, greedy"),
        (["--players", "advisor,greedy,random"], "a riichi table seats exactly 4 players, got 3"),
        (
            ["--rules", "sanma", "--players", "advisor,greedy,advisor,random"],
            "a sanma table seats exactly 3 players, got 4",
        ),
        (["--games", "0"], "argument --games: 0 is less than 1"),
        (["--games", "many"], "argument --games: 'many' is not a whole number"),
        (["--workers", "0"], "argument --workers: 0 is less than 1"),
        (["--weights", "safety=inf"], "weight safety is inf; weights are finite numbers"),
        (["--weights", "courage=2"], "unknown weight 'courage'"),
        (["--weights", "safety=high"], "weight safety is 'high', not a number"),
        (["--sweep", "safetyWeight"], "is not name=value,value,..."),
        (["--sweep", "safetyWeight=1,2", "--weights", "safety=3"], "--weights and --sweep both set safetyWeight"),
        (["--sweep", "safetyWeight=1", "--players", "greedy,greedy,random,random"], "has no advisor"),
        (["--rules", "mcr", "--sweep", "safetyWeight=1,2"], "which the mcr fan planner does not use"),
        (["--out", "/no/such/folder/report.json"], "folder /no/such/folder does not exist"),
        (["--backend", "dask"], "invalid choice: 'dask'"),
        (["--length", "marathon"], "argument --length: invalid choice: 'marathon'"),
        (["--rules", "qiqihar", "--length", "hanchan"], "qiqihar is played one hand at a time here (length kyoku)"),
        (["--sweep", "safetyWeight=1,2", "--log", "/tmp/tenpai-logs"], "--log writes the games of one run"),
        (["--log", "/no/such/folder/logs"], "--log /no/such/folder/logs: folder /no/such/folder does not exist"),
        (["--rank-points", "90,0,-135"], "--rank-points gives one number per place: 4 at this table, got 3"),
        (["--rank-points", "90,x,0,-90"], "rank points are numbers; got 'x'"),
        (["--rank-points=nan,0,0,0"], "rank points are finite numbers; got 'nan'"),
    ],
)
def test_bad_options_exit_2_and_say_why(arguments, message, capsys):
    with pytest.raises(SystemExit) as exited:
        main(arguments)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("usage: python -m app.selfplay")


def test_plot_without_matplotlib_exits_2_before_playing(monkeypatch, tmp_path, capsys):
    for module in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg", "matplotlib.patches"):
        monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(SystemExit) as exited:
        main([*RUN, "--workers", "1", "--plot", str(tmp_path / "report.png")])
    assert exited.value.code == 2
    captured = capsys.readouterr()
    assert "pip install 'tenpai[plot]'" in captured.err and "played" not in captured.err
    assert captured.out == ""


def test_sweep_plays_each_value_on_the_same_deals(tmp_path, capsys):
    out, plot = tmp_path / "sweep.json", tmp_path / "sweep.png"
    sweep = ["--games", "4", "--seed", "7", "--rules", "riichi", "--players", "advisor,greedy,advisor,random"]
    assert (
        main([*sweep, "--workers", "1", "--sweep", "safetyWeight=0.5,2", "--out", str(out), "--plot", str(plot)]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "safetyWeight sweep: 4 games per value, advisors at seats 0, 2"
    assert lines[2].split("  ")[0] == "safetyWeight" and "advisor win rate (95% CI)" in lines[2]
    assert [line.split()[0] for line in lines[4:6]] == ["0.5", "2"]
    assert lines[7] == "changes from safetyWeight=0.5, paired by game (same walls), 95% CI:"
    assert lines[8].startswith("  safetyWeight=2: deal-in ")
    document = json.loads(out.read_text())["sweep"]
    assert (document["parameter"], document["values"]) == ("safetyWeight", [0.5, 2.0])
    (change,) = document["paired_changes"]
    assert change["value"] == 2.0 and change["deal_in_rate_change"]["n"] == 4
    assert [report["weights"]["safety"] for report in document["reports"]] == [0.5, 2.0]
    for value in ("0.5", "2"):
        assert (tmp_path / f"sweep-safetyWeight-{value}.png").read_bytes().startswith(PNG_SIGNATURE)
    # Common random numbers: a sweep's row is the plain run with that weight.
    single = tmp_path / "single.json"
    assert main([*sweep, "--workers", "1", "--quiet", "--weights", "safetyWeight=2", "--out", str(single)]) == 0
    assert json.loads(single.read_text()) == document["reports"][1]


SANMA = ["--rules", "sanma", "--games", "6", "--seed", "42", "--players", "advisor,greedy,advisor"]


def test_sanma_seats_three_and_gives_the_same_bytes_whatever_the_workers(tmp_path, capsys):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert main([*SANMA, "--workers", "1", "--quiet", "--out", str(first)]) == 0
    summary = capsys.readouterr().out
    assert main([*SANMA, "--workers", "2", "--quiet", "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    report = json.loads(first.read_text())
    assert report["rules"] == "sanma" and [p["seat"] for p in report["players"]] == [0, 1, 2]
    assert report["by_strategy"]["advisor"]["seats"] == [0, 2]
    (comparison,) = report["comparisons"]
    assert comparison["payment_difference"]["n"] == 6
    assert "2     advisor" in summary and "advisor - greedy" in summary


def test_without_players_the_seats_take_the_first_default_strategies(tmp_path):
    out = tmp_path / "report.json"
    assert main(["--rules", "sanma", "--games", "2", "--workers", "1", "--quiet", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["strategies"] == ["advisor", "greedy", "heuristic"]


MCR = ["--rules", "mcr", "--games", "6", "--seed", "42", "--players", "advisor,greedy,advisor,greedy"]


def test_mcr_runs_report_fans_and_paired_wins_whatever_the_workers(tmp_path, capsys):
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert main([*MCR, "--workers", "1", "--quiet", "--out", str(first)]) == 0
    summary = capsys.readouterr().out
    assert main([*MCR, "--workers", "2", "--quiet", "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    report = json.loads(first.read_text())
    assert report["rules"] == "mcr"
    (comparison,) = report["comparisons"]
    assert comparison["paired_win_difference"]["n"] == 6
    won = [player["average_fan"] for player in report["players"] if player["average_fan"]["n"]]
    assert all(fan["value"] >= 8 for fan in won)
    assert "hands won per seat, differences paired by game" in summary
    assert ("avg fan" in summary) == bool(won)


HANCHANS = ["--rules", "riichi", "--length", "hanchan", "--games", "3", "--seed", "4"]
HANCHAN_PLAYERS = ("linear", "heuristic", "greedy", "random")


def test_hanchans_write_mjai_logs_the_referee_accepts(tmp_path):
    logs, out = tmp_path / "logs", tmp_path / "report.json"
    arguments = [*HANCHANS, "--players", ",".join(HANCHAN_PLAYERS), "--workers", "1", "--quiet"]
    assert main([*arguments, "--log", str(logs), "--out", str(out)]) == 0
    assert sorted(path.name for path in logs.iterdir()) == ["game-00000.jsonl", "game-00001.jsonl", "game-00002.jsonl"]
    report = json.loads(out.read_text())
    assert (report["length"], report["games"], report["hands"] > 3) == ("hanchan", 3, True)
    config = GameConfig("riichi", HANCHAN_PLAYERS, seed=4, length="hanchan")
    for game, placement in enumerate(report["placements"]):
        lines = (logs / f"game-{game:05d}.jsonl").read_text(encoding="utf-8").splitlines()
        events = [json.loads(line) for line in lines]
        # Exactly the game's events, one JSON object a line.
        assert events == play_game(config._replace(rotation=game), game, TABLES).events
        assert events[0]["type"] == "start_game" and events[-1]["type"] == "end_game"
        verdict = judge(
            events, rule_profile("riichi"), length=GameLength.HANCHAN, family=family_of(rule_profile("riichi"))
        )
        assert verdict.valid and verdict.problems == []
        assert sum(event["type"] == "start_kyoku" for event in events) == placement["hands"]
        # The report's final scores, by lineup position, are the referee's, by seat.
        seats = [(position - game) % 4 for position in range(4)]
        assert placement["scores"] == [verdict.scores[seat] for seat in seats]
    # The logs change nothing in the report.
    plain = tmp_path / "plain.json"
    assert main([*arguments, "--out", str(plain)]) == 0
    assert plain.read_bytes() == out.read_bytes()


def test_duplicate_sanma_tonpuu_plays_each_game_in_every_rotation(tmp_path):
    logs, first, second = tmp_path / "logs", tmp_path / "first.json", tmp_path / "second.json"
    duplicate = ["--rules", "sanma", "--length", "tonpuu", "--games", "2", "--players", "linear,greedy,linear"]
    assert main([*duplicate, "--duplicate", "--workers", "1", "--quiet", "--log", str(logs), "--out", str(first)]) == 0
    assert main([*duplicate, "--duplicate", "--workers", "2", "--quiet", "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    report = json.loads(first.read_text())
    assert (report["games"], report["games_played"], report["duplicate"]) == (2, 6, True)
    assert [(entry["game"], entry["rotation"]) for entry in report["placements"]] == [
        (game, rotation) for game in range(2) for rotation in range(3)
    ]
    assert report["rank_points"] == [90, 0, -135]
    names = sorted(path.name for path in logs.iterdir())
    assert names == [f"game-{game:05d}-rotation-{rotation}.jsonl" for game in range(2) for rotation in range(3)]
    for path in logs.iterdir():
        events = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        verdict = judge(
            events, rule_profile("sanma"), length=GameLength.TONPUU, family=family_of(rule_profile("sanma"))
        )
        assert verdict.valid, (path.name, verdict.problems[:3])


def test_the_default_length_is_one_hand_a_game_and_the_summary_shows_places(tmp_path, capsys):
    out = tmp_path / "report.json"
    riichi = ["--rules", "riichi", "--games", "4", "--players", "linear,greedy,heuristic,random", "--workers", "1"]
    assert main([*riichi, "--quiet", "--rank-points", "50,10,-10,-50", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert (report["length"], report["games"], report["hands"]) == ("kyoku", 4, 4)
    assert report["rank_points"] == [50, 10, -10, -50]
    summary = capsys.readouterr().out
    assert summary.splitlines()[0].startswith("riichi: 4 games, kyoku, 4 hands, seed 0")
    assert "rank points [50, 10, -10, -50] (95% CI)" in summary
    assert "rank points differences, paired by game (95% CI)" in summary


def test_mcr_logs_carry_the_flowers_and_the_referee_accepts_them(tmp_path):
    logs = tmp_path / "logs"
    mcr = ["--rules", "mcr", "--games", "4", "--seed", "3", "--players", "advisor,greedy,heuristic,random"]
    assert main([*mcr, "--workers", "1", "--quiet", "--log", str(logs)]) == 0
    flowers = 0
    for game in range(4):
        events = [json.loads(line) for line in (logs / f"game-{game:05d}.jsonl").read_text().splitlines()]
        flowers += sum(event["type"] == "flower" for event in events)
        verdict = judge(events, rule_profile("mcr"), length=GameLength.KYOKU, family=family_of(rule_profile("mcr")))
        assert verdict.valid and verdict.problems == []
    assert flowers  # eight flowers in a 144-tile wall: four hands draw some
