"""Whole hanchans in libriichi's arena: a bot process in one seat, the mjai package's bots in the others.

A test tool, run by the Python of the mjai virtual environment (``scripts/mjai_venv.sh``).
The PyPI package ``mjai`` 0.2.1 carries the arena mjai.app judges bots with,
``mjai.mlibriichi.arena.Match``; it runs in-process here, without mjai.app's Docker
containers and HTTP shim.  ``Match(log_dir=DIR).py_match(a0, a1, a2, a3, seed_start=(seed,
key))`` plays one Tenhou-rules hanchan, seat i played by agent i, and writes its full mjai log
to ``DIR/{seed}_{key}_a.json.gz``.  An agent is a Python object with ``engine_type =
"mjai-log"``, ``name``, ``set_player_ids(ids)``, ``start_game(i)``, ``end_kyoku(i)``,
``end_game(i, scores)`` and ``react_batch(game_states) -> [action_json]``, each game state
holding the seat's libriichi ``state`` and the hand's full ``events_json`` so far; the arena
asks a seat exactly where its state can act (as ``libriichi_oracle.py`` finds the points).

``Seat`` is that agent, and speaks to its bot the way mjai.app's ``DockerMjaiLogEngine`` and
``MjaiPlayerClient`` do: one line per message, a JSON array of the events since the last
one, the other hands and draws hidden (``?``); ``[start_game]`` (with ``id``: the seat),
``[end_kyoku]`` and ``[end_game]`` on their own; a hand's ``hora`` or ``ryukyoku`` is never
sent (mjai.app does not either).  Every message wants exactly one JSON line back, within
2 s (10 s for a message that begins with ``start_game`` or ``start_kyoku``), as mjai.app
allows.

The arena ends a game early, logging ``{"type":"ryukyoku","reason":"error",...}``, when a
reply does not parse or libriichi's ``validate_reaction`` refuses it, or when the bot fails
to answer; mjai.app's client also refuses ``none`` where the seat must discard.  That is
``rejected`` (or ``malformed``, ``timeouts``, ``crashes``) below.  ``validate_reaction`` is
lenient (it lets a kuikae discard, a riichi discard that spoils the hand, or a tedashi flag
on the drawn tile pass), so after each game every decision of every seat is also checked
against libriichi's legal set at that point, computed by ``libriichi_oracle.py`` from the
game's log: ``not_legal`` counts the replies that are not one of those actions.

    .venv-mjai/bin/python tests/tools/arena.py --games 4 --seed 1 \\
        --bot-cmd "/work/main/.venv/bin/python -m app.mjai" --out /tmp/arena

The command is started in the project root with the seat appended (or put in place of
``{seat}``).  One hanchan per game: game g seats the bot in ``--seats``\\[g mod n] on wall
``seed + g // n`` (so ``--seats 0,1,2,3`` plays each wall from all four seats).  DIR gets,
per game, ``game-NNN.mjai.jsonl`` (the arena's log: the oracle's input as it is),
``game-NNN.replies.jsonl`` (every message to the bot, its reply, seconds, verdicts),
``game-NNN.stderr.txt`` (the bot's), ``game-NNN.arena.txt`` (what the arena printed: its
error), with ``--legal`` ``game-NNN.legal.jsonl`` (libriichi's legal actions at every point
of the game, for comparing ``/act``), and ``summary.json``, which is also printed.

The summary's ``statistics`` block is the bot's record over the completed games
(``arena_stats.py`` says how each figure and its 95% interval is made): average rank, rank
points per game (``--rank-points``, places 1-4; default 90,45,0,-135, Tenhou-like uma, as the
project's self-play report), place rates and final score, with intervals over walls (the
four games of a duplicate set are one unit); win, deal-in, self-draw, riichi and call rates
per hand and points per hand, win and deal-in, with intervals clustered by wall; the
decisions' reply times (median, p95, p99, max; and again without each game's first
decision, where the bot process may still be warming up); and the faulty replies of every game.
``--workers N`` plays N games at once, each in a process of its own (``spawn``); the games
and the summary are the same whatever N (the reply times aside, which a busier machine
lengthens).
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import arena_stats
import libriichi_oracle as oracle
from line_bot import Bot, BotFault, LineProcess, bot_argv, parse_reply
from loguru import logger
from mjai.bot.riichibot import RiichiBot
from mjai.bot.rulebase import RulebaseBot
from mjai.mlibriichi.arena import Match

ROOT = Path(__file__).resolve().parents[2]
#: mjai.app's limit on a reply; its client allows more for a message that starts a game or hand.
REPLY_TIMEOUT = 2.0
START_TIMEOUT = 10.0
STARTS = frozenset({"start_game", "start_kyoku"})
#: The second half of the arena's seed, as ``mjai.Simulator`` sets it by default.
SEED_KEY = 2000
PACKAGE_BOTS = {"rulebase": RulebaseBot, "riichibot": RiichiBot}
#: Examples of each kind of fault kept in the summary.
EXAMPLES = 5

Record = dict[str, Any]


class PackageBot:
    """One of the mjai package's bots, in this process."""

    def __init__(self, kind: str, seat: int) -> None:
        self.bot = PACKAGE_BOTS[kind](seat)

    def ask(self, line: str, timeout: float) -> str:
        reply: str = self.bot.react(line)
        return reply

    def close(self) -> int | None:
        return 0


class Seat:
    """The arena's agent for one seat: mjai.app's protocol to the seat's bot, every exchange recorded."""

    engine_type = "mjai-log"

    def __init__(self, seat: int, bot: Bot, name: str, timeout: float) -> None:
        self.seat = seat
        self.bot = bot
        self.name = name
        self.timeout = timeout
        self.exchanges: list[Record] = []
        self.final_scores: list[int] | None = None
        self._sent = 0  # how many of the hand's events the bot has been sent

    # The agent interface the arena calls.

    def set_player_ids(self, player_ids: list[int]) -> None:
        pass  # one game, seat i played by agent i: the seat is known already

    def start_game(self, index: int) -> None:
        self._exchange([{"type": "start_game", "names": ["0", "1", "2", "3"], "id": self.seat}])

    def end_kyoku(self, index: int) -> None:
        self._exchange([{"type": "end_kyoku"}])
        self._sent = 0

    def end_game(self, index: int, scores: list[int]) -> None:
        self.final_scores = list(scores)
        self._exchange([{"type": "end_game"}])

    def react_batch(self, game_states: list[Any]) -> list[str]:
        replies = []
        for game_state in game_states:
            events = json.loads(game_state.events_json)
            new = [oracle.seat_view(event, self.seat) for event in events[self._sent :]]
            self._sent = len(events)
            replies.append(self._exchange(new, game_state.state))
        return replies

    def _exchange(self, events: list[Record], state: Any = None) -> str:
        """Send one message, time and judge the reply; ``state`` is given where the seat decides."""
        line = json.dumps(events, separators=(",", ":"))
        timeout = max(self.timeout, START_TIMEOUT) if events[0]["type"] in STARTS else self.timeout
        record: Record = {"n": len(self.exchanges), "decision": state is not None, "sent": events}
        self.exchanges.append(record)
        started = time.perf_counter()
        try:
            reply = self.bot.ask(line, timeout)
        except BotFault as fault:
            record.update(seconds=round(time.perf_counter() - started, 4), fault=fault.kind, detail=fault.detail)
            raise
        record.update(seconds=round(time.perf_counter() - started, 4), reply=reply)
        action = parse_reply(reply)
        if action is None:
            record["fault"] = "malformed"
        elif state is None:
            if action != {"type": "none"}:
                record["idle_reply"] = True  # mjai.app ignores it; the contract asks for none
        elif action["type"] == "none" and state.last_cans.can_discard:
            # mjai.app's client refuses this outright (the arena itself would let it through).
            record["fault"] = "rejected"
            record["detail"] = "none where the seat must discard"
            raise BotFault("rejected", record["detail"])
        else:
            try:
                state.validate_reaction(json.dumps(action))
            except Exception as refusal:  # libriichi raises a plain exception with its reason
                record["fault"] = "rejected"
                record["detail"] = str(refusal).splitlines()[0]
        # A malformed or refused reply goes to the arena as it is: the arena's own verdict ends the game.
        return reply


@contextlib.contextmanager
def stdout_to(path: Path) -> Iterator[None]:
    """Send file descriptor 1 to ``path``: the arena prints its errors there from Rust."""
    sys.stdout.flush()
    saved = os.dup(1)
    with path.open("wb") as f:
        os.dup2(f.fileno(), 1)
        try:
            yield
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def judge_decisions(seats: list[Seat], events: list[Record]) -> dict[str, Any]:
    """Check every decision's reply against libriichi's legal set at that point of the log.

    The arena asks a seat exactly at the points where its state can act, in order, so the
    k-th decision of a seat is the k-th point of that seat in ``decision_points``.
    """
    points = list(oracle.decision_points(events))
    mismatched = []
    for seat in seats:
        decisions = [r for r in seat.exchanges if r["decision"]]
        mine = [p for p in points if p["seat"] == seat.seat]
        if len(mine) != len(decisions):
            mismatched.append({"seat": seat.seat, "decisions": len(decisions), "points": len(mine)})
        for record, point in zip(decisions, mine, strict=False):
            record["index"] = point["index"]
            action = parse_reply(record.get("reply", ""))
            if action is None:
                record["legal"] = False
                continue
            action.pop("meta", None)  # bots may explain themselves; the action is the rest
            record["legal"] = oracle.canonical(action) in {oracle.canonical(a) for a in point["legal"]}
            if not record["legal"]:
                record["legal_actions"] = point["legal"]
    return {"points": points, "mismatched": mismatched}


def tally(records: list[Record]) -> dict[str, Any]:
    """The counts over one seat's (or several seats') exchanges."""
    decisions = [r for r in records if r["decision"]]
    timed = [r for r in records if "seconds" in r]
    slowest = max(timed, key=lambda r: r["seconds"], default=None)
    faults = {
        kind: [r for r in records if r.get("fault") == kind] for kind in ("malformed", "rejected", "timeout", "crash")
    }
    not_legal = [r for r in decisions if r.get("legal") is False and "fault" not in r]
    return {
        "decisions": len(decisions),
        "messages": len(records),
        "malformed": len(faults["malformed"]),
        "rejected": len(faults["rejected"]),
        "timeouts": len(faults["timeout"]),
        "crashes": len(faults["crash"]),
        "not_legal": len(not_legal),
        "idle_replies_not_none": sum(1 for r in records if r.get("idle_reply")),
        "slowest_s": slowest["seconds"] if slowest else None,
        "slowest_after": slowest["sent"][-1]["type"] if slowest else None,
        # Late: over mjai.app's limit for the message (2 s; 10 s for one that starts a game or hand).
        "late": sum(1 for r in timed if r["seconds"] > limit_of(r["sent"])),
        "slowest_decision_s": max((r["seconds"] for r in timed if r["decision"]), default=None),
        "examples": [
            {key: r.get(key) for key in ("n", "index", "fault", "detail", "reply", "legal_actions") if key in r}
            for r in (*faults["malformed"], *faults["rejected"], *faults["timeout"], *faults["crash"], *not_legal)
        ][:EXAMPLES],
    }


def limit_of(events: list[Record]) -> float:
    """mjai.app's time for a reply to ``events``: more for a message that starts a game or hand."""
    return START_TIMEOUT if events and events[0].get("type") in STARTS else REPLY_TIMEOUT


def rank_of(scores: list[int], seat: int) -> int:
    """1..4; equal scores go to the seat nearer the first dealer, as Tenhou ranks them."""
    order = sorted(range(4), key=lambda s: (-scores[s], s))
    return order.index(seat) + 1


def play_game(
    number: int,
    wall: int,
    seat: int,
    opponents: list[str],
    command: str,
    out: Path,
    timeout: float,
    write_legal: bool,
    cwd: Path,
) -> dict[str, Any]:
    """One hanchan: the bot process in ``seat``, the package's bots elsewhere; its summary."""
    stem = out / f"game-{number:03d}"
    names = []
    seats: list[Seat] = []
    others = iter(opponents * 3)
    process = None
    try:
        for s in range(4):
            if s == seat:
                process = LineProcess(bot_argv(command, s), cwd, stem.with_suffix(".stderr.txt"))
                seats.append(Seat(s, process, "bot", timeout))
            else:
                kind = next(others)
                seats.append(Seat(s, PackageBot(kind, s), kind, timeout))
            names.append(seats[-1].name)
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as logs, stdout_to(stem.with_suffix(".arena.txt")):
            arena_exception = None
            try:
                Match(log_dir=logs).py_match(*seats, seed_start=(wall, SEED_KEY))
            except Exception as error:  # the arena refused to start or went wrong outside a hand
                arena_exception = f"{type(error).__name__}: {error}"
            seconds = time.perf_counter() - started
            logged = sorted(Path(logs).glob("*.json.gz"))
            lines = gzip.open(logged[0], "rt").read().splitlines() if logged else []
    finally:
        exit_code = process.close() if process is not None else None
    events = [json.loads(line) for line in lines]
    (stem.with_suffix(".mjai.jsonl")).write_text("".join(f"{line}\n" for line in lines))
    judged = judge_decisions(seats, events) if events else {"points": [], "mismatched": []}
    if write_legal:
        with stem.with_suffix(".legal.jsonl").open("w") as f:
            for point in judged["points"]:
                f.write(json.dumps(point, separators=(",", ":")) + "\n")
    with stem.with_suffix(".replies.jsonl").open("w") as f:
        for record in seats[seat].exchanges:
            f.write(json.dumps(record, separators=(",", ":")) + "\n")
    error = next((e for e in events if e["type"] == "ryukyoku" and e.get("reason") == "error"), None)
    final = seats[seat].final_scores
    decisions = [r for r in seats[seat].exchanges if r["decision"] and "seconds" in r]
    return {
        "game": number,
        "seed": [wall, SEED_KEY],
        "seat": seat,
        "players": names,
        "hands": sum(1 for e in events if e["type"] == "start_kyoku"),
        "completed": error is None and arena_exception is None and final is not None,
        "arena_error": stem.with_suffix(".arena.txt").read_text().strip()[:2000] or arena_exception,
        "final_scores": final,
        "rank": rank_of(final, seat) if final else None,
        "tally": arena_stats.game_tally(arena_stats.seat_hands(events, seat)),
        "decision_seconds": [r["seconds"] for r in decisions],
        "seconds": round(seconds, 3),
        "bot": {**tally(seats[seat].exchanges), "exit_code": exit_code},
        "package_bots": tally([r for s in seats if s.seat != seat for r in s.exchanges]),
        "point_count_mismatch": judged["mismatched"],
    }


def bot_statistics(games: list[dict[str, Any]], rank_points: list[float]) -> dict[str, Any]:
    """``arena_stats.bot_statistics`` over the completed games, the reply times of every game's decisions.

    A game the arena ended early has no rank, so its hands are left out with it; its replies
    are not (a timeout is a reply time too), nor its faults, counted beside the statistics.
    """
    completed = [
        {"wall": g["seed"][0], "seat": g["seat"], "rank": g["rank"], "final_score": g["final_scores"][g["seat"]]}
        | {"tally": g["tally"]}
        for g in games
        if g["completed"]
    ]
    seconds = [g["decision_seconds"] for g in games]
    statistics = arena_stats.bot_statistics(completed, seconds, rank_points)
    statistics["games_not_completed"] = len(games) - len(completed)
    statistics["faulty_replies"] = {
        key: sum(g["bot"][key] for g in games) for key in ("malformed", "rejected", "not_legal", "timeouts", "crashes")
    }
    return statistics


def summarize(games: list[dict[str, Any]], rank_points: list[float]) -> dict[str, Any]:
    """The run's summary: the counts, the bot's statistics, and each game's record (reply times aside)."""
    counts = ("decisions", "malformed", "rejected", "timeouts", "crashes", "not_legal", "late")
    slowest = [g["bot"]["slowest_s"] for g in games if g["bot"]["slowest_s"] is not None]
    return {
        "games": len(games),
        "completed": sum(g["completed"] for g in games),
        "statistics": bot_statistics(games, rank_points),
        "bot": {key: sum(g["bot"][key] for g in games) for key in counts}
        | {"slowest_s": max(slowest, default=None), "nonzero_exits": sum(1 for g in games if g["bot"]["exit_code"])},
        "package_bots": {key: sum(g["package_bots"][key] for g in games) for key in counts},
        "point_count_mismatches": sum(len(g["point_count_mismatch"]) for g in games),
        "ranks": [g["rank"] for g in games],
        "seconds": round(sum(g["seconds"] for g in games), 3),
        "per_game": [{key: value for key, value in g.items() if key != "decision_seconds"} for g in games],
    }


def quiet_worker() -> None:
    """A worker process: the package's bots log every discard."""
    logger.remove()


def play_games(tasks: list[tuple[Any, ...]], workers: int) -> list[dict[str, Any]]:
    """``play_game(*task)`` for every task, in ``workers`` processes (one game a task); in task order."""
    if workers <= 1:
        return [play_game(*task) for task in tasks]
    # spawn, not fork: each worker starts clean rather than copying a process that holds libriichi.
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=quiet_worker) as pool:
        return pool.starmap(play_game, tasks, chunksize=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1, help="hanchans to play")
    parser.add_argument("--seed", type=int, default=1, help="the first wall's seed")
    parser.add_argument("--bot-cmd", required=True, help="the bot's command; the seat is appended or put for {seat}")
    parser.add_argument("--out", type=Path, required=True, help="the folder for logs, replies and summary.json")
    parser.add_argument("--seats", default="0,1,2,3", help="the seats the bot takes in turn (default: all four)")
    parser.add_argument(
        "--opponents", default="rulebase", help=f"package bots for the other seats, in turn: {', '.join(PACKAGE_BOTS)}"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=REPLY_TIMEOUT,
        help="seconds a reply may take (mjai.app: 2; a message that starts a game or hand gets 10)",
    )
    parser.add_argument("--legal", action="store_true", help="also write libriichi's legal actions of every game")
    parser.add_argument("--cwd", type=Path, default=ROOT, help="where the bot starts (default: the project root)")
    parser.add_argument(
        "--rank-points",
        default=",".join(str(p) for p in arena_stats.RANK_POINTS),
        help="points for places 1-4 (default: Tenhou-like uma, as the project's self-play report)",
    )
    parser.add_argument("--workers", type=int, default=1, help="games played at once, each in a process of its own")
    args = parser.parse_args(argv)
    try:
        rank_points = [float(p) for p in args.rank_points.split(",")]
    except ValueError:
        parser.error(f"--rank-points wants four numbers, not {args.rank_points!r}")
    if len(rank_points) != 4:
        parser.error(f"--rank-points wants four numbers, one per place, not {args.rank_points!r}")
    seats = [int(s) for s in args.seats.split(",")]
    opponents = args.opponents.split(",")
    unknown = sorted(set(opponents) - set(PACKAGE_BOTS)) + [str(s) for s in seats if s not in range(4)]
    if unknown:
        parser.error(f"unknown opponents or seats: {unknown}")
    logger.remove()  # the package's bots log every discard
    args.out.mkdir(parents=True, exist_ok=True)
    tasks = [
        (number, args.seed + number // len(seats), seats[number % len(seats)], opponents, args.bot_cmd)
        + (args.out, args.timeout, args.legal, args.cwd)
        for number in range(args.games)
    ]
    summary = summarize(play_games(tasks, args.workers), rank_points)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
