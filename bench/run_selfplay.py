"""Time self-play on one core: hands per rules preset and lineup, riichienv beside them, and
whole hanchans of four ``linear`` advisors.

Run from the repository root, in the bench environment (see bench/README.md)::

    bench/.venv/bin/python bench/run_selfplay.py [--games N] [--repeat R] [--seed S] [--hanchans H] [--json out.json]

A "game" is one hand, from the deal to a win or a draw: ours is
``app.core.table.game.play_game(config, game, TABLES)`` with ``length="kyoku"``; riichienv's is one kyoku of
``RiichiEnv(game_mode=YON_IKKYOKU)`` driven from Python with ``step()`` until
``done()``.  Each row plays games ``0 .. N-1`` of a fixed seed, so every pass
plays the same hands (the script checks that it does); rows are warmed up, then
their passes are interleaved so that a slow moment of the machine hits them all.
The garbage collector stays on: this is end-to-end throughput, as a self-play
run sees it.  The table shows the best and the median pass.

Whole games: ``--hanchans H`` riichi hanchans (Tenhou's rules: honba, sticks, renchan,
the end of the game) of four ``linear`` advisors, seated as self-play seats them, in this
process, best and median of ``--repeat`` passes, in hanchans and hands per second.

One optional row times ``app.selfplay.runner.run_games`` with a process pool
against the same call with one worker (skipped with a message if that module
is missing or fails).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any, Final, Protocol

import riichienv
from riichienv import Action, ActionType, GameType, Observation, RiichiEnv
from riichienv.agents import RandomAgent
from timing import cpu_model

from app.core.families.registry import TABLES
from app.core.shape.rules import DEFAULT_SEATS as SEATS
from app.core.shape.tables import tables
from app.core.table.game import GameConfig, play_game

RULES: Final = ("riichi", "chinese", "qiqihar")
LINEUPS: Final = (
    ("advisor",) * SEATS,
    ("reader",) * SEATS,
    ("advisor", "advisor", "greedy", "random"),
    ("greedy",) * SEATS,
    ("random",) * SEATS,
)
TARGET_GAMES_PER_SECOND: Final = 20.0
"""The issue's target: at least this many hands per second on one core with advisor players."""
WARMUP_GAMES: Final = 3
CHECK_GAMES: Final = 20
"""riichienv hands replayed with its MJAI log on, to check that one game is one kyoku."""

OURS: Final = "tenpai"
RIICHIENV: Final = f"riichienv {version('riichienv')}"
RIICHIENV_RANDOM: Final = "random (uniform legal action)"
RIICHIENV_GREEDY: Final = "shanten-greedy"


# --- our hands -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tally:
    """What one timed pass played: its wall time and what the hands added up to."""

    ns: int
    discards: int
    wins: int
    steps: int = 0  # riichienv only: env.step() calls


def lineup_label(players: Sequence[str]) -> str:
    """``advisor x4`` for a uniform lineup, else the seats in order."""
    return f"{players[0]} x{len(players)}" if len(set(players)) == 1 else ",".join(players)


def ours_pass(config: GameConfig, games: int) -> Tally:
    discards = wins = 0
    start = time.perf_counter_ns()
    for game in range(games):
        # Seated as self-play seats game g (app.selfplay.runner): lineup position g % seats deals.
        record = play_game(config._replace(rotation=game % len(config.players)), game, TABLES)
        discards += sum(hand.turns for hand in record.hands)
        wins += sum(hand.winner is not None for hand in record.hands)
    return Tally(time.perf_counter_ns() - start, discards, wins)


# --- riichienv's hands ----------------------------------------------------------


class Agent(Protocol):
    def act(self, obs: Observation) -> Action: ...


class ShantenGreedyAgent:
    """Shanten only, with the calls of our ``greedy`` strategy (app.core.table.players.ShantenCaller).

    Takes every win offered (riichienv offers one only with a yaku), declares
    riichi whenever offered, a closed or added kong that does not raise the
    shanten, a pon or chi that lowers it, an open kong that keeps it; else it
    discards a tile that leaves the lowest shanten (ties at random) or passes.
    Shanten is ``riichienv.calculate_shanten`` on 136-ids; melds need not be
    passed (it counts the missing tiles as melds).  Never takes the nine-terminals
    abortive draw (ours declare it whenever offered: ``app/core/table/decide.py``).
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, obs: Observation) -> Action:
        actions = obs.legal_actions()
        if len(actions) == 1:
            return actions[0]
        hand = obs.hand
        shanten = riichienv.calculate_shanten
        before: int | None = None  # the hand's own shanten, computed only if a kong or call needs it
        discards: dict[int, Action] = {}  # one per tile kind: red fives and copies give the same shanten
        kong: Action | None = None
        riichi: Action | None = None
        best_call: tuple[int, Action] | None = None
        passing: Action | None = None
        for action in actions:
            kind = action.action_type
            if kind == ActionType.TSUMO or kind == ActionType.RON:
                return action
            if kind == ActionType.DISCARD:
                discards.setdefault(action.tile // 4, action)
            elif kind == ActionType.RIICHI:
                riichi = action  # offered only when a discard keeps the hand ready
            elif kind == ActionType.PASS:
                passing = action
            elif kind == ActionType.ANKAN or kind == ActionType.KAKAN:
                before = shanten(hand) if before is None else before
                used = action.consume_tiles if kind == ActionType.ANKAN else [action.tile]
                if kong is None and shanten(_without(hand, used)) <= max(before, 0):
                    kong = action
            elif kind == ActionType.CHI or kind == ActionType.PON or kind == ActionType.DAIMINKAN:
                before = shanten(hand) if before is None else before
                after = shanten(_without(hand, action.consume_tiles))
                helps = after <= before if kind == ActionType.DAIMINKAN else after < before
                if helps and (best_call is None or after < best_call[0]):
                    best_call = (after, action)
        if kong is not None:
            return kong
        if riichi is not None:
            return riichi
        if discards:
            scored = [(shanten(_without(hand, (action.tile,))), action) for action in discards.values()]
            lowest = min(after for after, _ in scored)
            return self.rng.choice([action for after, action in scored if after == lowest])
        if best_call is not None:
            return best_call[1]
        return passing if passing is not None else actions[0]


def _without(hand: list[int], tiles: Sequence[int]) -> list[int]:
    rest = list(hand)
    for tile in tiles:
        rest.remove(tile)
    return rest


AGENTS: Final[dict[str, Callable[[random.Random], Agent]]] = {
    # riichienv's own RandomAgent: random.choice(obs.legal_actions()).
    RIICHIENV_RANDOM: lambda rng: RandomAgent(rng.getrandbits(64)),
    RIICHIENV_GREEDY: ShantenGreedyAgent,
}


def riichienv_seed(seed: int, game: int) -> int:
    """A u64 wall seed per (run seed, game), so each game is a function of both, as ours is."""
    return (seed * 1_000_003 + game) % 2**63


def play_riichienv_hand(agent_kind: str, seed: int, game: int, *, log: bool = False) -> tuple[RiichiEnv, int, int]:
    """One kyoku; returns the env, the discards the agents chose and the step() calls."""
    env = RiichiEnv(game_mode=GameType.YON_IKKYOKU, seed=riichienv_seed(seed, game), skip_mjai_logging=not log)
    agent = AGENTS[agent_kind](random.Random(f"riichienv/{seed}/{game}"))
    observations = env.reset(oya=game % SEATS)  # rotate the dealer as our table does
    discards = steps = 0
    while not env.done():
        actions = {}
        # In seat order: the dict's order varies between runs, and one agent's random source serves all seats.
        for seat, obs in sorted(observations.items()):
            action = agent.act(obs)
            if action.action_type == ActionType.DISCARD:
                discards += 1
            actions[seat] = action
        observations = env.step(actions)
        steps += 1
    return env, discards, steps


def riichienv_pass(agent_kind: str, seed: int, games: int) -> Tally:
    discards = wins = steps = 0
    start = time.perf_counter_ns()
    for game in range(games):
        env, hand_discards, hand_steps = play_riichienv_hand(agent_kind, seed, game)
        discards += hand_discards
        steps += hand_steps
        wins += bool(env.win_results)
    return Tally(time.perf_counter_ns() - start, discards, wins, steps)


def check_riichienv_hands(agent_kind: str, seed: int, games: int) -> list[str]:
    """Replay ``games`` hands with the MJAI log on; list what contradicts "one game = one kyoku"."""
    problems = []
    for game in range(games):
        quiet, quiet_discards, _ = play_riichienv_hand(agent_kind, seed, game)
        env, discards, _ = play_riichienv_hand(agent_kind, seed, game, log=True)
        kinds = [event["type"] for event in env.mjai_log]
        ends = kinds.count("hora") + kinds.count("ryukyoku")
        if kinds.count("start_kyoku") != 1 or ends != 1 or kinds[-1] != "end_game":
            problems.append(f"game {game}: {kinds.count('start_kyoku')} kyoku, {ends} endings, last {kinds[-1]!r}")
        if kinds.count("dahai") != discards or quiet_discards != discards:
            problems.append(
                f"game {game}: {kinds.count('dahai')} dahai logged, agents chose {discards} "
                f"({quiet_discards} without the log)"
            )
        if ("hora" in kinds) != bool(quiet.win_results):
            problems.append(f"game {game}: win_results disagrees with the log")
    return problems


# --- timing and bookkeeping ----------------------------------------------------


@dataclass
class Row:
    engine: str
    rules: str
    players: str
    games: int
    passes: list[Tally] = field(default_factory=list)

    @property
    def best_ns(self) -> int:
        return min(p.ns for p in self.passes)

    @property
    def median_ns(self) -> float:
        return statistics.median(p.ns for p in self.passes)

    @property
    def best_games_per_second(self) -> float:
        return self.games / (self.best_ns / 1e9)

    @property
    def median_games_per_second(self) -> float:
        return self.games / (self.median_ns / 1e9)

    @property
    def discards_per_game(self) -> float:
        return self.passes[0].discards / self.games

    @property
    def steps_per_game(self) -> float | None:
        return self.passes[0].steps / self.games if self.passes[0].steps else None

    @property
    def win_rate(self) -> float:
        return self.passes[0].wins / self.games

    @property
    def best_us_per_discard(self) -> float:
        return self.best_ns / 1000 / self.passes[0].discards

    @property
    def deterministic(self) -> bool:
        first = self.passes[0]
        return all((p.discards, p.wins, p.steps) == (first.discards, first.wins, first.steps) for p in self.passes)

    def summary(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "rules": self.rules,
            "players": self.players,
            "games": self.games,
            "best_games_per_second": self.best_games_per_second,
            "median_games_per_second": self.median_games_per_second,
            "best_ms_per_game": self.best_ns / 1e6 / self.games,
            "median_ms_per_game": self.median_ns / 1e6 / self.games,
            "discards_per_game": self.discards_per_game,
            "steps_per_game": self.steps_per_game,
            "win_rate": self.win_rate,
            "best_us_per_discard": self.best_us_per_discard,
            "deterministic": self.deterministic,
            "passes": [asdict(p) for p in self.passes],
        }


Workload = tuple[Row, Callable[[int], Tally]]  # (row, play that many games and tally them)


def time_rows(workloads: Sequence[Workload], repeat: int) -> None:
    for _row, play in workloads:
        play(WARMUP_GAMES)
    for index in range(repeat):
        for row, play in workloads:
            tally = play(row.games)
            row.passes.append(tally)
            print(
                f"  pass {index + 1}/{repeat}  {row.engine:<16} {row.rules:<8} {row.players:<30} "
                f"{row.games / (tally.ns / 1e9):8.1f} games/s",
                file=sys.stderr,
                flush=True,
            )


# --- whole hanchans -------------------------------------------------------------

HANCHAN_PLAYERS: Final = ("linear",) * SEATS


def hanchan_pass(config: GameConfig, games: int) -> tuple[int, int, list[tuple[int, ...]]]:
    """(ns, hands, final scores) of hanchans ``0 .. games - 1``, each seated as self-play seats it."""
    hands = 0
    scores = []
    start = time.perf_counter_ns()
    for game in range(games):
        record = play_game(config._replace(rotation=game % SEATS), game, TABLES)
        hands += len(record.hands)
        scores.append(record.scores)
    return time.perf_counter_ns() - start, hands, scores


def hanchan_section(seed: int, games: int, repeat: int) -> dict[str, Any]:
    """Hanchans per second of four ``linear`` advisors, in this process."""
    config = GameConfig("riichi", HANCHAN_PLAYERS, seed, length="hanchan", record_events=False)
    hanchan_pass(config, 1)  # warm-up: the first game pays for the caches the others share
    passes: list[int] = []
    reference: tuple[int, list[tuple[int, ...]]] | None = None
    deterministic = True
    for index in range(repeat):
        ns, hands, scores = hanchan_pass(config, games)
        passes.append(ns)
        deterministic = deterministic and (reference is None or reference == (hands, scores))
        reference = reference or (hands, scores)
        print(
            f"  pass {index + 1}/{repeat}  hanchans riichi {lineup_label(HANCHAN_PLAYERS):<12} "
            f"{games / (ns / 1e9):8.2f} hanchans/s",
            file=sys.stderr,
            flush=True,
        )
    assert reference is not None
    hands = reference[0]
    return {
        "rules": "riichi",
        "players": lineup_label(HANCHAN_PLAYERS),
        "hanchans": games,
        "hands": hands,
        "hands_per_hanchan": hands / games,
        "passes_ns": passes,
        "best_hanchans_per_second": games / (min(passes) / 1e9),
        "median_hanchans_per_second": games / (statistics.median(passes) / 1e9),
        "best_hands_per_second": hands / (min(passes) / 1e9),
        "deterministic": deterministic,
    }


# --- the process pool ----------------------------------------------------------


def pool_section(seed: int, games: int, workers: int, repeat: int) -> dict[str, Any]:
    """``run_games(config, games, workers=W)`` against ``workers=1``, wall time per call."""
    rules, players = "qiqihar", ("advisor",) * SEATS
    base: dict[str, Any] = {"rules": rules, "players": lineup_label(players), "games": games, "workers": workers}
    try:
        from app.selfplay.runner import available_cores, run_games
    except ImportError as error:
        return {**base, "skipped": f"app.selfplay.runner is not importable ({error})"}
    config = GameConfig(rules, players, seed, record_events=False)
    single: list[int] = []
    pooled: list[int] = []
    try:
        for index in range(repeat):
            for count, samples in ((1, single), (workers, pooled)):
                start = time.perf_counter_ns()
                results = run_games(config, games, workers=count)
                samples.append(time.perf_counter_ns() - start)
                if count == 1:
                    reference = results
                elif results != reference:
                    return {**base, "skipped": f"workers={workers} gave other results than workers=1"}
                print(
                    f"  pass {index + 1}/{repeat}  run_games workers={count:<2} {rules} {lineup_label(players)}"
                    f"  {games / (samples[-1] / 1e9):8.1f} games/s",
                    file=sys.stderr,
                    flush=True,
                )
        # What a pooled call costs before its games: spawning, importing, building the tables
        # (estimated by a call of one game per worker, less one game's share of the single-worker time).
        start = time.perf_counter_ns()
        run_games(config, workers, workers=workers)
        startup = time.perf_counter_ns() - start - min(single) // games
    except Exception as error:  # another engineer's module, in progress: report, don't crash the bench
        return {**base, "skipped": f"run_games failed: {type(error).__name__}: {error}"}
    return {
        **base,
        "cores": available_cores(),
        "single_ns": single,
        "pooled_ns": pooled,
        "startup_ns": startup,
        "single_games_per_second": games / (min(single) / 1e9),
        "pooled_games_per_second": games / (min(pooled) / 1e9),
        "speedup": min(single) / min(pooled),
        "median_speedup": statistics.median(single) / statistics.median(pooled),
        "speedup_without_startup": min(single) / max(1, min(pooled) - startup),
    }


# --- report --------------------------------------------------------------------


def environment() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "tenpai": version("tenpai"),
        "numpy": version("numpy"),
        "riichienv": version("riichienv"),
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpus": str(os.cpu_count()),
        "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def find(rows: Sequence[Row], engine: str, rules: str, players: str) -> Row:
    return next(r for r in rows if r.engine == engine and r.rules == rules and r.players == players)


def ratios(rows: Sequence[Row]) -> list[dict[str, Any]]:
    """Ours over riichienv on riichi rules, per hand and per discard (above 1: ours is faster)."""
    pairs = (
        (lineup_label(("greedy",) * SEATS), RIICHIENV_GREEDY),
        (lineup_label(("random",) * SEATS), RIICHIENV_RANDOM),
    )
    found = []
    for ours_players, peer_players in pairs:
        ours = find(rows, OURS, "riichi", ours_players)
        peer = find(rows, RIICHIENV, "riichi", peer_players)
        found.append(
            {
                "ours": f"{ours_players} (riichi)",
                "peer": f"riichienv {peer_players}",
                "per_game": ours.best_games_per_second / peer.best_games_per_second,
                "per_discard": peer.best_us_per_discard / ours.best_us_per_discard,
                # Each pass of the two rows ran back to back: the median of those ratios shrugs off drift.
                "per_game_median_of_passes": statistics.median(
                    (peer_pass.ns / peer.games) / (ours_pass.ns / ours.games)
                    for ours_pass, peer_pass in zip(ours.passes, peer.passes, strict=True)
                ),
            }
        )
    return found


def print_report(
    rows: Sequence[Row],
    found: list[dict[str, Any]],
    hanchans: dict[str, Any] | None,
    pool: dict[str, Any] | None,
    checks: dict[str, list[str]],
    env: dict[str, str],
    args: argparse.Namespace,
) -> None:
    print(
        f"python {env['python']} ({env['implementation']}), tenpai {env['tenpai']}, numpy {env['numpy']}, "
        f"riichienv {env['riichienv']}"
    )
    print(f"{env['cpu']}, {env['cpus']} cpus, load {env['load_average']}, {env['platform']}")
    print(
        f"one process; {args.games} games (hands) per row, seed {args.seed}, best / median of {args.repeat} passes, "
        "gc on"
    )
    print()
    print(
        "| engine | rules | players | games/s best | games/s median | ms/game best | ms/game median "
        "| discards/hand | µs/discard best | wins |"
    )
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        steps = f" ({row.steps_per_game:.0f} steps)" if row.steps_per_game else ""
        flag = "" if row.deterministic else " (passes differ!)"
        print(
            f"| {row.engine} | {row.rules} | {row.players}{flag} | {row.best_games_per_second:.1f} | "
            f"{row.median_games_per_second:.1f} | {row.best_ns / 1e6 / row.games:.2f} | "
            f"{row.median_ns / 1e6 / row.games:.2f} | {row.discards_per_game:.1f}{steps} | "
            f"{row.best_us_per_discard:.0f} | {row.win_rate:.0%} |"
        )
    print()
    print("same-run ratios, ours / riichienv (above 1: ours is faster):")
    for ratio in found:
        print(
            f"  {ratio['ours']:<18} vs {ratio['peer']:<40} best passes {ratio['per_game']:5.2f}x per hand, "
            f"{ratio['per_discard']:5.2f}x per discard; median of per-pass ratios "
            f"{ratio['per_game_median_of_passes']:5.2f}x per hand"
        )
    print()
    print(f"target: >= {TARGET_GAMES_PER_SECOND:.0f} games/s on one core with advisor players (best pass):")
    for row in rows:
        if row.engine == OURS and row.players == lineup_label(("advisor",) * SEATS):
            met = "MET" if row.best_games_per_second >= TARGET_GAMES_PER_SECOND else "MISSED"
            print(f"  {row.rules:<8} {row.players:<12} {row.best_games_per_second:7.1f} games/s  {met}")
    print()
    if hanchans is None:
        print("hanchans: not run (--hanchans 0)")
    else:
        flag = "" if hanchans["deterministic"] else " (passes differ!)"
        print(
            f"whole games: {hanchans['hanchans']} riichi hanchans of {hanchans['players']} (Tenhou's rules), "
            f"in this process, best / median of {len(hanchans['passes_ns'])} passes{flag}"
        )
        print(
            f"  {hanchans['best_hanchans_per_second']:.2f} / {hanchans['median_hanchans_per_second']:.2f} hanchans/s, "
            f"{hanchans['best_hands_per_second']:.1f} hands/s best, {hanchans['hands_per_hanchan']:.1f} hands a hanchan"
        )
    print()
    if pool is None:
        print("process pool: not run (--pool-games 0)")
    elif "skipped" in pool:
        print(f"process pool: skipped, {pool['skipped']}")
    else:
        print(
            f"process pool: app.selfplay.runner.run_games, {pool['rules']} {pool['players']}, {pool['games']} games, "
            f"{pool['cores']} cores available, best of {len(pool['single_ns'])} (wall time per call, "
            "spawning the pool included)"
        )
        print(f"  workers=1  {min(pool['single_ns']) / 1e9:6.2f} s  {pool['single_games_per_second']:6.1f} games/s")
        print(
            f"  workers={pool['workers']}  {min(pool['pooled_ns']) / 1e9:6.2f} s  "
            f"{pool['pooled_games_per_second']:6.1f} games/s  speed-up {pool['speedup']:.2f}x "
            "(same results as workers=1)"
        )
        print(
            f"  pool start-up about {pool['startup_ns'] / 1e9:.2f} s (a call of one game per worker); "
            f"without it the speed-up would be about {pool['speedup_without_startup']:.2f}x"
        )
    print()
    for agent_kind, problems in checks.items():
        state = "ok" if not problems else f"{len(problems)} problems: " + "; ".join(problems[:3])
        print(
            f"check, riichienv {agent_kind}: first {min(CHECK_GAMES, args.games)} hands replayed with the MJAI log "
            f"(one kyoku per game, logged dahai = counted discards, wins agree): {state}"
        )


# --- main ----------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games (hands) per row and pass (default 200)")
    parser.add_argument("--repeat", type=int, default=3, help="timed passes per row (default 3)")
    parser.add_argument("--seed", type=int, default=2026, help="run seed of every row (default 2026)")
    parser.add_argument(
        "--hanchans", type=int, default=20, help="hanchans of four linear advisors per pass; 0 skips them (default 20)"
    )
    parser.add_argument(
        "--pool-games", type=int, default=400, help="games of the process-pool row; 0 skips it (default 400)"
    )
    parser.add_argument("--pool-workers", type=int, default=2, help="workers of the pooled call (default 2)")
    parser.add_argument("--pool-repeat", type=int, default=1, help="passes of the process-pool row (default 1)")
    parser.add_argument("--json", type=Path, help="also write environment, every pass and the ratios as JSON")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    started = time.perf_counter()
    tables()  # built once per process; not part of any timing
    env = environment()

    workloads: list[Workload] = []
    for rules in RULES:
        for players in LINEUPS:
            config = GameConfig(rules, players, args.seed, record_events=False)
            row = Row(OURS, rules, lineup_label(players), args.games)
            workloads.append((row, lambda games, config=config: ours_pass(config, games)))
        if rules == "riichi":  # right after our riichi rows, so each pass of a compared pair runs close in time
            for agent_kind in AGENTS:
                row = Row(RIICHIENV, "riichi", agent_kind, args.games)
                workloads.append((row, lambda games, kind=agent_kind: riichienv_pass(kind, args.seed, games)))

    print(f"timing {len(workloads)} rows x {args.repeat} passes of {args.games} games (progress):", file=sys.stderr)
    time_rows(workloads, args.repeat)
    rows = [row for row, _ in workloads]
    checks = {kind: check_riichienv_hands(kind, args.seed, min(CHECK_GAMES, args.games)) for kind in AGENTS}
    hanchans = hanchan_section(args.seed, args.hanchans, args.repeat) if args.hanchans > 0 else None
    pool = None
    if args.pool_games > 0:
        pool = pool_section(args.seed, args.pool_games, args.pool_workers, args.pool_repeat)
    found = ratios(rows)

    print_report(rows, found, hanchans, pool, checks, env, args)
    elapsed = time.perf_counter() - started
    print(f"\nwall time {elapsed:.1f} s")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "environment": env,
            "config": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
            "target_games_per_second": TARGET_GAMES_PER_SECOND,
            "rows": [row.summary() for row in rows],
            "ratios": found,
            "hanchans": hanchans,
            "pool": pool,
            "riichienv_checks": checks,
            "wall_seconds": elapsed,
        }
        args.json.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
