"""The command line: play a self-play run, or a sweep of one advisor weight, and report it.

::

    python -m app.selfplay --rules riichi --games 2000 --seed 42 --players advisor,heuristic,advisor,linear
    python -m app.selfplay --rules riichi --length hanchan --games 200 --players linear,greedy,linear,greedy \\
        --duplicate --log logs/ --out report.json
    python -m app.selfplay --rules sanma --games 2000 --seed 42 --players advisor,greedy,advisor
    python -m app.selfplay --rules qiqihar --games 1000 --seed 42 \\
        --players advisor,advisor,greedy,random --out report.json --plot report.png
    python -m app.selfplay --rules mcr --games 2000 --seed 42 --players advisor,greedy,advisor,greedy

A table seats as many players as its rules (``sanma``: three), so ``--players``
names one strategy per seat; without it the seats take the first strategies
of :data:`DEFAULT_PLAYERS`.

A game is one hand (``--length kyoku``, the default), an East round (``tonpuu``) or a
hanchan, played on the table machine (:mod:`app.core.table.game`): riichi and sanma by
Tenhou's rules at every length, the other presets one hand a game
(:data:`app.selfplay.runner.ONE_HAND_PRESETS`).  Game ``g`` seats the lineup rotated by ``g``, so every
position deals first equally often; ``--duplicate`` plays each game once per rotation on
the same walls, and the report's comparisons pair the rotations of each game.  ``--log DIR``
writes each game's mjai log, ``game-00000.jsonl`` (with ``--duplicate``,
``game-00000-rotation-1.jsonl`` and so on): one JSON object a line, the events as the table
machine applied them, which :func:`app.core.table.referee.judge` accepts.  The placement
figures count ``--rank-points`` per place (default :data:`app.selfplay.report.RANK_POINTS`).

Under ``riichi`` the advisor ranks hands near tenpai by expected score (the
``/discard`` default; see :class:`app.core.table.players.Advisor`), and ``linear`` is the
advisor as it was before, seed 000's linear score at every step; a riichi hand with
advisors costs about ten times one without.  A sweep changes the weights of both
(its table reads the ``advisor`` seats, whose weights under riichi rank only hands
two or more from tenpai).

Under ``mcr`` a win needs 8 fans: the advisor is the fan planner (it has no
weights, so ``--sweep`` is refused), and the table shows the average fans of a
win in place of han.  Every comparison between two strategies also reports the
difference in hands won per seat paired by game, the interval to read when
asking whether one strategy wins more than another at the same tables.

Standard output gets the summary table; standard error the progress bar and the
throughput (``--quiet`` leaves standard error to errors).  Options are checked
before any game is played: a bad one exits with status 2 and says why.  Ctrl-C (SIGINT)
exits with status 130 and SIGTERM with 143, after ending the run's workers or cancelling
its Ray tasks; a run killed outright (SIGKILL) still takes its pool workers with it
(:mod:`app.selfplay.runner`).

A sweep (``--sweep safetyWeight=0.5,1.2,2.0``) plays the full run once per
value with the same seed, so every value meets the same walls (common random
numbers: differences between rows come from the weight, not from the deal).
With ``--plot PATH`` a sweep draws one picture per value, named after the
value: ``report.png`` becomes ``report-safetyWeight-0.5.png`` and so on.

>>> parse_weights("safety=2.0,advanceWeight=1")
{'safety': 2.0, 'ukeire': 1.0}
>>> parse_sweep("safetyWeight=0.5,1.2")
Sweep(parameter='safetyWeight', field='safety', values=(0.5, 1.2))
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import FrameType, MappingProxyType
from typing import Any, Final, NamedTuple

from app.core.advice.discard import DEFAULT_WEIGHTS, InvalidWeight, Weights
from app.core.errors import TenpaiError
from app.core.families.registry import TABLES, rules_of
from app.core.table.flow import GameLength
from app.core.table.game import GameConfig, GameRecord, validate_config
from app.core.table.players import PLAYER_KINDS
from app.core.value.scoring import MINIMUM_FANS
from app.selfplay.errors import MissingExtra
from app.selfplay.plot import import_matplotlib, write_plot
from app.selfplay.progress import ProgressBar
from app.selfplay.report import RANK_POINTS, build_report, paired_changes
from app.selfplay.runner import (
    ONE_HAND_PRESETS,
    PLAYABLE_PRESETS,
    Backend,
    OnGame,
    available_cores,
    import_ray,
    run_games,
)
from app.selfplay.summary import ADVISOR, format_summary, format_sweep

PROGRAM: Final = "python -m app.selfplay"
DEFAULT_RULES: Final = "riichi"
DEFAULT_PLAYERS: Final = ("advisor", "greedy", "heuristic", "random")
"""The lineup without ``--players``: its first ``rules.seats`` strategies."""
DEFAULT_GAMES: Final = 1000
DEFAULT_SEED: Final = 0

#: Seed 000's parameter names (its table in section 4.4) -> fields of :class:`~app.core.advice.discard.Weights`.
SEED_PARAMETER_FIELDS: Final = MappingProxyType(
    {
        "syantenWeight": "shanten",
        "advanceWeight": "ukeire",
        "safetyWeight": "safety",
        "doraWeight": "dora",
        "honorsWeight": "honors",
    }
)
SEED_PARAMETER_NAMES: Final = MappingProxyType({field: name for name, field in SEED_PARAMETER_FIELDS.items()})
#: Rules self-play plays.
TABLE_RULES: Final = PLAYABLE_PRESETS


class Sweep(NamedTuple):
    """One advisor weight and the values a sweep gives it."""

    #: Seed 000's name of the weight (``safetyWeight``).
    parameter: str
    #: The :class:`~app.core.advice.discard.Weights` field (``safety``).
    field: str
    values: tuple[float, ...]


def weight_field(name: str) -> str:
    """The ``Weights`` field named ``name``, by its field name or its seed 000 name.

    >>> weight_field("safetyWeight"), weight_field("ukeire")
    ('safety', 'ukeire')
    """
    if name in Weights._fields:
        return name
    if name in SEED_PARAMETER_FIELDS:
        return SEED_PARAMETER_FIELDS[name]
    known = ", ".join([*SEED_PARAMETER_FIELDS, *Weights._fields])
    raise argparse.ArgumentTypeError(f"unknown weight {name!r}; weights are {known}")


def parse_option(text: str) -> tuple[str, object]:
    """A rule option ``NAME=VALUE``: the value read as JSON (true, 4, "fan"), else as text.

    >>> parse_option("bloody_river=true"), parse_option("self_draw_bonus=fan")
    (('bloody_river', True), ('self_draw_bonus', 'fan'))
    """
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"a rule option is NAME=VALUE, got {text!r}")
    try:
        value: object = json.loads(raw)
    except ValueError:
        value = raw
    return name, value


def parse_rules(text: str) -> str:
    """A rules preset the table can seat."""
    if text not in TABLE_RULES:
        raise argparse.ArgumentTypeError(f"unknown rules {text!r}; rules are {', '.join(TABLE_RULES)}")
    return text


def parse_players(text: str) -> tuple[str, ...]:
    """Comma-separated strategy names, in seat order (their number is checked against the
    rules' seats once every option is read).

    >>> parse_players("advisor, advisor,greedy,random")
    ('advisor', 'advisor', 'greedy', 'random')
    """
    names = tuple(name.strip() for name in text.split(","))
    for name in names:
        if name not in PLAYER_KINDS:
            raise argparse.ArgumentTypeError(f"unknown strategy {name!r}; strategies are {', '.join(PLAYER_KINDS)}")
    return names


def parse_weights(text: str) -> dict[str, float]:
    """``name=value`` pairs, comma-separated, keyed by ``Weights`` field."""
    weights: dict[str, float] = {}
    for pair in text.split(","):
        name, equals, value = pair.partition("=")
        if not equals:
            raise argparse.ArgumentTypeError(f"{pair.strip()!r} is not name=value (e.g. safety=2.0)")
        field = weight_field(name.strip())
        if field in weights:
            raise argparse.ArgumentTypeError(f"weight {name.strip()!r} is given twice")
        weights[field] = _weight_value(name.strip(), value)
    return weights


def parse_sweep(text: str) -> Sweep:
    """``name=v1,v2,...``: one weight and its values."""
    name, equals, values = text.partition("=")
    if not equals or not values.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is not name=value,value,... (e.g. safetyWeight=0.5,1.2,2.0)")
    field = weight_field(name.strip())
    return Sweep(
        SEED_PARAMETER_NAMES[field], field, tuple(_weight_value(name.strip(), value) for value in values.split(","))
    )


def parse_rank_points(text: str) -> tuple[float, ...]:
    """Comma-separated numbers, one per place, first place first (their number is checked against
    the rules' seats once every option is read).

    >>> parse_rank_points("50, 10,-10,-50"), parse_rank_points("1.5,0,-1.5")
    ((50, 10, -10, -50), (1.5, 0, -1.5))
    """
    points: list[float] = []
    for value in text.split(","):
        try:
            number = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"rank points are numbers; got {value.strip()!r}") from None
        if not math.isfinite(number):
            raise argparse.ArgumentTypeError(f"rank points are finite numbers; got {value.strip()!r}")
        # Whole numbers stay ints, so the report says 90, not 90.0.
        points.append(int(number) if number.is_integer() else number)
    return tuple(points)


def log_name(record: GameRecord, *, duplicate: bool) -> str:
    """The file of one game's mjai log.

    >>> log_name(GameRecord(7, ()), duplicate=False), log_name(GameRecord(7, (), rotation=2), duplicate=True)
    ('game-00007.jsonl', 'game-00007-rotation-2.jsonl')
    """
    rotation = f"-rotation-{record.rotation}" if duplicate else ""
    return f"game-{record.game:05d}{rotation}.jsonl"


def log_writer(directory: Path, *, duplicate: bool) -> OnGame:
    """A run's ``on_game``: write each game's mjai log into ``directory``, keep the game without it."""

    def write(record: GameRecord) -> GameRecord:
        with (directory / log_name(record, duplicate=duplicate)).open("w", encoding="utf-8") as log:
            for event in record.events:
                log.write(json.dumps(event, separators=(",", ":")) + "\n")
        return dataclasses.replace(record, events=[])

    return write


def parse_positive_int(text: str) -> int:
    """A whole number of at least 1."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{number} is less than 1")
    return number


def _weight_value(name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"weight {name} is {text.strip()!r}, not a number") from None
    try:
        DEFAULT_WEIGHTS._replace(**{weight_field(name): value}).validated()
    except InvalidWeight as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return value


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser (options typed and checked as they are read)."""
    cores = available_cores()
    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description=(
            "Play seeded games between strategies (four players; three under sanma) and report, per strategy, "
            "win, deal-in and self-draw rates, tenpai speed, payments and shanten by turn over every hand, and "
            "places and rank points over every game, each with a 95% interval. "
            "The same options give the same report, byte for byte, whatever the workers or backend."
        ),
        epilog=(
            "weights: the advisor's score weights, by field or by seed 000's name: "
            + ", ".join(
                f"{field} ({name}, default {getattr(DEFAULT_WEIGHTS, field):g})"
                for name, field in SEED_PARAMETER_FIELDS.items()
            )
            + ".  example: %(prog)s --rules qiqihar --games 1000 --seed 42 "
            "--players advisor,advisor,greedy,random --out report.json --plot report.png"
        ),
    )
    parser.add_argument(
        "--rules",
        type=parse_rules,
        metavar="NAME",
        default=DEFAULT_RULES,
        help=f"rules preset: {', '.join(TABLE_RULES)} (default: %(default)s)",
    )
    parser.add_argument(
        "--games",
        type=parse_positive_int,
        metavar="N",
        default=DEFAULT_GAMES,
        help="games to play (per sweep value; with --duplicate each is played once per rotation; default: %(default)s)",
    )
    parser.add_argument(
        "--length",
        choices=[length.value for length in GameLength],
        default=GameLength.KYOKU.value,
        help="a game is one hand (kyoku), an East round (tonpuu) or East and South (hanchan), by Tenhou's "
        f"rules; {', '.join(ONE_HAND_PRESETS)} play kyoku only (default: %(default)s)",
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play each game once per rotation of the lineup on the same walls (4 games a game index; "
        "sanma 3); comparisons are then paired over the rotations of each game",
    )
    parser.add_argument(
        "--log",
        type=Path,
        metavar="DIR",
        help="write each game's mjai log here, one JSON event a line: game-00000.jsonl, ... "
        "(with --duplicate game-00000-rotation-0.jsonl, ...); made if missing",
    )
    parser.add_argument(
        "--rank-points",
        type=parse_rank_points,
        metavar="P1,P2,...",
        help="points per place, first place first, for the placement figures (default: "
        + "; ".join(f"{seats} seats {','.join(f'{p:g}' for p in points)}" for seats, points in RANK_POINTS.items())
        + "); write --rank-points=-1,0,1 when the first is negative",
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help="run seed: game i is dealt from (seed, i) (default: %(default)s)"
    )
    parser.add_argument(
        "--players",
        type=parse_players,
        metavar="S0,S1,...",
        help=f"one strategy per seat (4, or 3 under sanma), in lineup order: game g seats them rotated by g, "
        f"players[g %% seats] dealing first; strategies: "
        f"{', '.join(PLAYER_KINDS)} (default: the first seats of {','.join(DEFAULT_PLAYERS)})",
    )
    parser.add_argument(
        "--weights",
        type=parse_weights,
        default={},
        metavar="NAME=VALUE,...",
        help="advisor weights to change, e.g. safety=2.0,ukeire=1.0 (see below)",
    )
    parser.add_argument(
        "--sweep",
        type=parse_sweep,
        metavar="NAME=V1,V2,...",
        help="play the run once per value of one advisor weight, same seed each time, "
        "e.g. safetyWeight=0.5,1.2,2.0; prints seed 000's tuning table",
    )
    parser.add_argument(
        "--option",
        type=parse_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option over the preset, as GET /rules lists them (repeatable), "
        "e.g. --rules sichuan --option bloody_river=true",
    )
    parser.add_argument("--out", type=Path, metavar="PATH", help="write the JSON report here")
    parser.add_argument(
        "--plot",
        type=Path,
        metavar="PATH",
        help="draw shanten by turn and tenpai turns as a PNG here (needs tenpai[plot]); "
        "a sweep draws one per value, PATH's name suffixed with the value",
    )
    parser.add_argument(
        "--workers",
        type=parse_positive_int,
        metavar="N",
        default=cores,
        help=f"processes playing games; 1 plays in this process (default: all {cores} cores)",
    )
    parser.add_argument(
        "--backend",
        choices=[backend.value for backend in Backend],
        default=Backend.LOCAL.value,
        help="local: a process pool; ray: Ray tasks (needs tenpai[ray]); either only with --workers > 1 "
        "(default: %(default)s)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar or throughput on standard error")
    return parser


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the run is, so that its clean-up runs as after Ctrl-C.

    A KeyboardInterrupt: no ``except Exception`` on the way swallows it, and Ray, which
    turns other exceptions raised in a signal handler during a wait into a SystemError,
    passes it on (as a plain KeyboardInterrupt: :class:`_Signals` remembers which it was).
    """


class _Signals:
    """Which stopping signal arrived while the run was on."""

    def __init__(self) -> None:
        self.terminated = False


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    config = _checked_config(parser, args)
    signals = _Signals()
    try:
        with _terminate_as_exception(signals):
            if args.sweep is None:
                _run_once(config, args)
            else:
                _run_sweep(config, args.sweep, args)
    except KeyboardInterrupt as stopped:
        if isinstance(stopped, Terminated) or signals.terminated:
            print("terminated", file=sys.stderr)
            return 128 + signal.SIGTERM
        print("interrupted", file=sys.stderr)
        return 128 + signal.SIGINT
    return 0


@contextmanager
def _terminate_as_exception(signals: _Signals) -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated` (Python's default would end the process
    at once: no pool shut down, no Ray task cancelled).  Signals are only for the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: FrameType | None) -> None:
        signals.terminated = True
        raise Terminated

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _checked_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> GameConfig:
    """The run's configuration, once every option has been checked together (exit 2 if not)."""
    sweep: Sweep | None = args.sweep
    if args.players is None:
        args.players = DEFAULT_PLAYERS[: rules_of(args.rules).seats]
    if sweep is not None:
        if sweep.field in args.weights:
            parser.error(f"--weights and --sweep both set {sweep.parameter}; give it in one of them")
        if ADVISOR not in args.players:
            parser.error(
                f"--sweep changes the advisor's weights, and --players {','.join(args.players)} has no advisor"
            )
        if MINIMUM_FANS.get(args.rules):
            parser.error(f"--sweep changes the advisor's weights, which the {args.rules} fan planner does not use")
        if args.log is not None:
            parser.error("--log writes the games of one run; with --sweep, play each value as a run of its own")
    for option, path in (("--out", args.out), ("--plot", args.plot), ("--log", args.log)):
        if path is not None and not path.parent.is_dir():
            parser.error(f"{option} {path}: folder {path.parent} does not exist")
    if args.log is not None and args.log.exists() and not args.log.is_dir():
        parser.error(f"--log {args.log}: not a folder")
    seats = len(args.players)
    if args.rank_points is not None and len(args.rank_points) != seats:
        parser.error(f"--rank-points gives one number per place: {seats} at this table, got {len(args.rank_points)}")
    try:
        if args.plot is not None:
            import_matplotlib()
        if args.backend == Backend.RAY and args.workers > 1:
            import_ray()
    except MissingExtra as error:
        parser.error(str(error))
    config = GameConfig(
        args.rules,
        args.players,
        args.seed,
        weights=DEFAULT_WEIGHTS._replace(**args.weights),
        length=args.length,
        record_events=args.log is not None,
        options=tuple(args.option),
    )
    try:
        validate_config(config, TABLES)
    except TenpaiError as error:
        parser.error(str(error))
    if args.log is not None:
        args.log.mkdir(exist_ok=True)
    return config


def _report(config: GameConfig, records: list[GameRecord], args: argparse.Namespace) -> dict[str, Any]:
    return build_report(config, records, duplicate=args.duplicate, rank_points=args.rank_points)


def _run_once(config: GameConfig, args: argparse.Namespace) -> None:
    report = _report(config, _played(config, args, label=""), args)
    print(format_summary(report))
    if args.out is not None:
        _write_json(args.out, report, args)
    if args.plot is not None:
        _write_plot(args.plot, report, args)


def _run_sweep(config: GameConfig, sweep: Sweep, args: argparse.Namespace) -> None:
    reports, runs = [], []
    for value in sweep.values:
        valued = config._replace(weights=config.weights._replace(**{sweep.field: value}))
        results = _played(valued, args, label=f"{sweep.parameter}={value:g} ")
        runs.append(results)
        reports.append(_report(valued, results, args))
    # Every value met the same walls: changes from the first value, paired by game.
    advisors = [position for position, name in enumerate(config.players) if name == ADVISOR]
    paired = [
        {"value": value, **paired_changes(advisors, runs[0], results)}
        for value, results in zip(sweep.values[1:], runs[1:], strict=True)
    ]
    print(format_sweep(sweep.parameter, sweep.values, reports, paired))
    if args.out is not None:
        document = {
            "sweep": {
                "parameter": sweep.parameter,
                "values": list(sweep.values),
                "reports": reports,
                "paired_changes": paired,
            }
        }
        _write_json(args.out, document, args)
    if args.plot is not None:
        for value, report in zip(sweep.values, reports, strict=True):
            _write_plot(sweep_plot_path(args.plot, sweep.parameter, value), report, args)


def sweep_plot_path(path: Path, parameter: str, value: float) -> Path:
    """Where a sweep draws the picture of one value.

    >>> sweep_plot_path(Path("out/report.png"), "safetyWeight", 0.5).as_posix()
    'out/report-safetyWeight-0.5.png'
    """
    return path.with_name(f"{path.stem}-{parameter}-{value:g}{path.suffix}")


def _played(config: GameConfig, args: argparse.Namespace, *, label: str) -> list[GameRecord]:
    bar = None if args.quiet else ProgressBar(sys.stderr, label=label)
    started = time.perf_counter()
    try:
        records = run_games(
            config,
            args.games,
            duplicate=args.duplicate,
            workers=args.workers,
            backend=args.backend,
            progress=bar,
            on_game=None if args.log is None else log_writer(args.log, duplicate=args.duplicate),
        )
    finally:
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - started
    if not args.quiet:
        where = "in this process" if args.workers == 1 else f"{args.workers} workers, {args.backend} backend"
        hands = sum(len(record.hands) for record in records)
        print(
            f"{label}played {len(records)} games ({hands} hands) in {elapsed:.1f} s: "
            f"{len(records) / elapsed:.1f} games/s, {hands / elapsed:.1f} hands/s ({where})",
            file=sys.stderr,
        )
        if args.log is not None:
            print(f"{label}wrote {len(records)} mjai logs to {args.log}", file=sys.stderr)
    return records


def _write_json(path: Path, document: dict[str, Any], args: argparse.Namespace) -> None:
    # sort_keys and a fixed indent: one seed gives one file, byte for byte.
    path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if not args.quiet:
        print(f"wrote {path}", file=sys.stderr)


def _write_plot(path: Path, report: dict[str, Any], args: argparse.Namespace) -> None:
    write_plot(report, path)
    if not args.quiet:
        print(f"wrote {path}", file=sys.stderr)
