"""One outside mjai bot against three of tenpai's strategies, dealt by tenpai's own dealer: duplicate games from any hand.

libriichi's arena (``arena.py``) plays whole hanchans from East 1. Issue #36 measures tenpai
against akochan in short games started at South 1 with 25,000 each; this tool deals them with
the table's :class:`~app.core.table.game.Dealer` (Tenhou's rules, red fives, the same claim
priority and flow between hands as self-play and hosted tables), the outside bot in one seat and
``--strategy`` (tenpai's advisor by default, or any self-play strategy) in the other three.

    .venv/bin/python tests/tools/versus.py --walls 5 --start S1 --points 25000 \\
        --bot-cmd "env LD_LIBRARY_PATH=. ./system.exe pipe setup_mjai.json {seat}" \\
        --bot-cwd /path/to/akochan --protocol pipe --strategy advisor --out /tmp/versus

The command is started in ``--bot-cwd`` (default the project root) with the seat appended, or
put in place of ``{seat}``. Game g seats the bot in ``--seats``\\[g mod n] on wall ``g // n``
(``--seats 0,1,2,3``: each wall from all four seats); wall w is shuffled from the seed
``versus/{seed}/{w}``, one shuffle a hand, so every game of a wall deals the same hands in
order as long as the games last as long. Two runs with the same ``--seed`` and two strategies
play the same walls: a duplicate comparison of the strategies against the bot.

**What the bot sees**: the events as its seat sees them (the other hands and draws ``?``,
:func:`~app.core.table.decide.seat_sees`, the rule ``/act`` and hosted tables use), with
``start_game`` carrying ``id`` (the seat), ``aka_flag`` (red fives) and ``kyoku_first`` (0 for
a hanchan, 4 for a tonpuu: akochan reads both), and the hands' ``hora`` and ``ryukyoku``. Two
protocols:

* ``mjai-app``: as mjai.app and ``arena.py`` speak to a bot: where the dealer asks the seat, one
  line with a JSON array of the events since the last, answered by one line with one action.
* ``pipe``: akochan's ``pipe`` mode: one event a line; the bot answers, with a JSON array of
  actions, only its own draw and another seat's discard or added kan, and an event it may not
  act on is sent with ``"can_act": false``. The first action answers now; the rest (the discard
  after its riichi or call) answer the seat's next asks, which have no event to answer.

A reply that does not parse, is not legal at that point (:meth:`TableMachine.legal_actions`),
comes after ``--timeout`` seconds, or never comes ends the game there, as the arena ends one: it
is counted in ``faults`` and left out of the statistics. ``OUT`` gets each game's full log
(``game-NNN.mjai.jsonl``), the bot's exchanges (``game-NNN.replies.jsonl``) and its standard
error, and ``summary.json``, also printed: the bot's statistics as ``arena_stats.py`` makes
them (intervals over walls) and, for the three tenpai seats together, win, deal-in and points
per seat-hand with the same intervals.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script: the project is importable from its root
    sys.path.insert(0, str(ROOT))

import arena_stats  # noqa: E402
from line_bot import Bot, BotFault, LineProcess, bot_argv  # noqa: E402

from app.core.advice.discard import DEFAULT_WEIGHTS  # noqa: E402
from app.core.families.registry import TABLES  # noqa: E402
from app.core.table.decide import decide, seat_sees  # noqa: E402
from app.core.table.flow import RoundWind, TableState  # noqa: E402
from app.core.table.game import Dealer, RandomWalls, table_rules  # noqa: E402
from app.core.table.machine import TableMachine  # noqa: E402
from app.core.table.mjai import Event, MalformedEvent, choice_key, read_event  # noqa: E402
from app.core.table.players import make_player  # noqa: E402

PROTOCOLS = ("mjai-app", "pipe")
#: The time a reply may take; akochan thinks up to about 10 s on this 2-core machine.
REPLY_TIMEOUT = 60.0
FIRST_KYOKU = {"hanchan": 0, "tonpuu": 4}

Record = dict[str, Any]


def start_state(start: str, points: int, seats: int) -> TableState:
    """The first hand of ``start`` (``E1``, ``S1``, ...): no honba, no sticks, every seat at ``points``.

    >>> start_state("S1", 25000, 4)
    TableState(bakaze=<RoundWind.SOUTH: 'S'>, kyoku=1, honba=0, kyotaku=0, oya=0, scores=(25000, 25000, 25000, 25000))
    >>> start_state("S5", 25000, 4)
    Traceback (most recent call last):
    ...
    ValueError: --start is a round wind and a hand number 1-4 (E1, S1, ...), not 'S5'
    """
    wind, number = start[:1], start[1:]
    if wind not in {w.value for w in RoundWind} or not number.isdigit() or not 1 <= int(number) <= seats:
        raise ValueError(f"--start is a round wind and a hand number 1-{seats} (E1, S1, ...), not {start!r}")
    kyoku = int(number)
    return TableState(RoundWind(wind), kyoku, 0, 0, kyoku - 1, (points,) * seats)


def may_act_on(event: Record, seat: int) -> bool:
    """Whether the pipe protocol's bot answers ``event``: its own draw, another seat's discard or added kan.

    >>> may_act_on({"type": "tsumo", "actor": 1, "pai": "5m"}, 1), may_act_on({"type": "tsumo", "actor": 2, "pai": "?"}, 1)
    (True, False)
    >>> may_act_on({"type": "dahai", "actor": 2, "pai": "5m"}, 1), may_act_on({"type": "reach", "actor": 2}, 1)
    (True, False)
    """
    actor = event.get("actor")
    kind = event.get("type")
    if actor == seat:
        return kind == "tsumo"
    return actor is not None and kind in ("dahai", "kakan")


class OutsideSeat:
    """The outside bot's seat: the events it may see, told in its protocol, and its answers checked."""

    def __init__(self, seat: int, bot: Bot, protocol: str, timeout: float, start_fields: Record) -> None:
        self.seat = seat
        self.bot = bot
        self.protocol = protocol
        self.timeout = timeout
        self.start_fields = start_fields
        self.sent = 0
        self.queued: list[object] = []
        self.exchanges: list[Record] = []

    def answer(self, events: Sequence[Record], machine: TableMachine) -> Event:
        """The bot's legal action now, or :class:`BotFault` (``malformed``, ``not_legal``, ``timeout``, ``crash``)."""
        new = [dict(event) for event in seat_sees(events[self.sent :], self.seat)]  # type: ignore[call-overload]
        self.sent = len(events)
        for event in new:
            if event.get("type") == "start_game":
                event.update(self.start_fields, id=self.seat)
        wanted = self._mjai_app(new) if self.protocol == "mjai-app" else self._pipe(new)
        legal = machine.legal_actions(self.seat) or [Event("none")]
        if not isinstance(wanted, dict):
            raise BotFault("malformed", f"not an mjai action: {wanted!r}")
        try:
            action = read_event(wanted, 0, machine.seats)
        except MalformedEvent as error:
            raise BotFault("malformed", f"{wanted!r}: {error}") from None
        for candidate in legal:
            if choice_key(candidate) == choice_key(action):
                return candidate
        # A bot may leave out or misstate a discard's tsumogiri flag: the tile is the choice.
        loose = [
            c for c in legal if choice_key(c._replace(tsumogiri=None)) == choice_key(action._replace(tsumogiri=None))
        ]
        if loose:
            return loose[0]
        raise BotFault("not_legal", f"{wanted!r} is not among the {len(legal)} legal actions")

    def _exchange(self, line: str) -> str:
        started = time.perf_counter()
        reply = self.bot.ask(line, self.timeout)
        self.exchanges.append({"sent": line, "reply": reply, "seconds": round(time.perf_counter() - started, 4)})
        return reply

    def _mjai_app(self, new: list[Record]) -> object:
        reply = self._exchange(json.dumps(new, separators=(",", ":")))
        try:
            return json.loads(reply)
        except ValueError:
            raise BotFault("malformed", f"not JSON: {reply[:200]!r}") from None

    def _pipe(self, new: list[Record]) -> object:
        reply: str | None = None
        for index, event in enumerate(new):
            if not may_act_on(event, self.seat):
                self.bot.tell(json.dumps(event, separators=(",", ":")))
            elif index < len(new) - 1:  # the seat was not asked there
                self.bot.tell(json.dumps(event | {"can_act": False}, separators=(",", ":")))
            else:
                reply = self._exchange(json.dumps(event, separators=(",", ":")))
        if reply is not None:
            try:
                actions = json.loads(reply)
            except ValueError:
                raise BotFault("malformed", f"not JSON: {reply[:200]!r}") from None
            if not isinstance(actions, list) or not actions:
                raise BotFault("malformed", f"not a list of actions: {reply[:200]!r}")
            self.queued = actions
        if not self.queued:
            raise BotFault("malformed", "asked with nothing to answer and no action left from the last reply")
        return self.queued.pop(0)


def play_game(
    number: int,
    wall: int,
    seat: int,
    options: argparse.Namespace,
) -> Record:
    """One game: the bot in ``seat`` on wall ``wall``, ``options.strategy`` elsewhere; its record."""
    preset = TABLES["riichi"]
    rules = preset.preset_rules("riichi", {})
    names = tuple("bot" if s == seat else options.strategy for s in range(rules.seats))
    dealer = Dealer(
        rules,
        preset,
        table_rules(rules, options.length),
        RandomWalls(random.Random(f"versus/{options.seed}/{wall}")),
        names=names,
        game=number,
        start=start_state(options.start, options.points, rules.seats),
    )
    strategies = {
        s: make_player(options.strategy, DEFAULT_WEIGHTS, random.Random(f"versus/{options.seed}/{wall}/{s}"))
        for s in range(rules.seats)
        if s != seat
    }
    stem = Path(options.out) / f"game-{number:03d}"
    process = LineProcess(bot_argv(options.bot_cmd, seat), Path(options.bot_cwd), stem.with_suffix(".stderr.txt"))
    start_fields = {"aka_flag": rules.red_fives, "kyoku_first": FIRST_KYOKU[options.length]}
    outside = OutsideSeat(seat, process, options.protocol, options.timeout, start_fields)
    fault: Record | None = None
    record = None
    started = time.perf_counter()
    run = dealer.run()
    try:
        ask = next(run)
        while True:
            answers = {}
            for s in ask.seats:
                if s == seat:
                    answers[s] = outside.answer(dealer.record.events, dealer.machine)
                else:
                    answers[s] = decide(dealer.machine, s, strategies[s], rank=False).action
            ask = run.send(answers)
    except StopIteration as finished:
        record = finished.value
    except BotFault as error:
        fault = {"kind": error.kind, "detail": error.detail, "event": len(dealer.record.events)}
    finally:
        exit_code = process.close()
    events = dealer.record.events
    stem.with_suffix(".mjai.jsonl").write_text("".join(json.dumps(e, separators=(",", ":")) + "\n" for e in events))
    with stem.with_suffix(".replies.jsonl").open("w") as f:
        for exchange in outside.exchanges:
            f.write(json.dumps(exchange, separators=(",", ":")) + "\n")
    others = [s for s in range(rules.seats) if s != seat]
    return {
        "game": number,
        "wall": wall,
        "seat": seat,
        "players": list(names),
        "completed": record is not None,
        "fault": fault,
        "exit_code": exit_code,
        "final_scores": list(record.scores) if record else None,
        "rank": record.ranks[seat] if record else None,
        "final_score": record.scores[seat] if record else None,
        "tally": arena_stats.game_tally(arena_stats.seat_hands(events, seat)),
        "tenpai_tally": arena_stats.game_tally([h for s in others for h in arena_stats.seat_hands(events, s)]),
        "decision_seconds": [e["seconds"] for e in outside.exchanges],
        "seconds": round(time.perf_counter() - started, 3),
    }


def summarize(games: Sequence[Record], rank_points: Sequence[float]) -> Record:
    """The bot's statistics over the completed games, the tenpai seats' rates beside them, the faults."""
    completed = [g for g in games if g["completed"]]
    walls: dict[int, list[Record]] = {}
    for g in completed:
        walls.setdefault(g["wall"], []).append(g)

    def tenpai_rate(key: str, of: str = "hands", proportion: bool = True) -> Record:
        clusters = [
            (sum(g["tenpai_tally"][key] for g in of_wall), sum(g["tenpai_tally"][of] for g in of_wall))
            for of_wall in walls.values()
        ]
        return arena_stats.clustered_ratio(clusters, proportion=proportion)

    return {
        "games": len(games),
        "completed": len(completed),
        "faults": [g["fault"] | {"game": g["game"]} for g in games if g["fault"]],
        "bot": arena_stats.bot_statistics(completed, [g["decision_seconds"] for g in completed], rank_points),
        "tenpai_seats": {
            "seat_hands": sum(g["tenpai_tally"]["hands"] for g in completed),
            "win_rate": tenpai_rate("wins"),
            "deal_in_rate": tenpai_rate("deal_ins"),
            "riichi_rate": tenpai_rate("riichi"),
            "call_rate": tenpai_rate("called_hands"),
            "points_per_hand": tenpai_rate("points", proportion=False),
        },
        "per_game": [{key: value for key, value in g.items() if key != "decision_seconds"} for g in games],
    }


def play_games(options: argparse.Namespace, on_game: Callable[[Record], None] | None = None) -> list[Record]:
    seats = [int(s) for s in options.seats.split(",")]
    tasks = [(g, g // len(seats), seats[g % len(seats)]) for g in range(options.walls * len(seats))]
    if options.only:
        chosen = {int(g) for g in options.only.split(",")}
        tasks = [task for task in tasks if task[0] in chosen]
    if options.workers <= 1:
        games = []
        for task in tasks:
            games.append(play_game(*task, options))
            if on_game is not None:
                on_game(games[-1])
        return games
    with ProcessPoolExecutor(options.workers) as pool:
        futures = [pool.submit(play_game, *task, options) for task in tasks]
        games = []
        for future in futures:
            games.append(future.result())
            if on_game is not None:
                on_game(games[-1])
        return games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot-cmd", required=True, help="the bot's command; the seat is appended or put for {seat}")
    parser.add_argument("--bot-cwd", default=str(ROOT), help="where the bot's command starts (default: the project)")
    parser.add_argument("--protocol", choices=PROTOCOLS, default="mjai-app")
    parser.add_argument("--strategy", default="advisor", help="tenpai's strategy in the other three seats")
    parser.add_argument("--walls", type=int, default=5)
    parser.add_argument("--seats", default="0,1,2,3", help="the seats the bot takes in turn on each wall")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", default="E1", help="the first hand: E1 (a whole game), S1, ...")
    parser.add_argument("--points", type=int, default=25000, help="every seat's score at the first hand")
    parser.add_argument("--length", choices=tuple(FIRST_KYOKU), default="hanchan")
    parser.add_argument("--timeout", type=float, default=REPLY_TIMEOUT, help="seconds a reply may take")
    parser.add_argument("--rank-points", default="90,45,0,-135", help="places 1-4")
    parser.add_argument("--workers", type=int, default=1, help="games played at once, each in its own process")
    parser.add_argument(
        "--only", default="", help="play only these game numbers (a rerun of games a fault ended: the same deals)"
    )
    parser.add_argument("--out", required=True, help="the folder for logs, replies and summary.json")
    options = parser.parse_args(argv)
    try:
        start_state(options.start, options.points, 4)
    except ValueError as error:
        parser.error(str(error))
    Path(options.out).mkdir(parents=True, exist_ok=True)

    def progress(game: Record) -> None:
        done = "completed" if game["completed"] else f"fault {game['fault']}"
        print(
            f"game {game['game']}: wall {game['wall']}, seat {game['seat']}, rank {game['rank']}, {done}",
            file=sys.stderr,
        )

    games = play_games(options, progress)
    summary = summarize(games, [float(x) for x in options.rank_points.split(",")])
    text = json.dumps(summary, indent=1)
    (Path(options.out) / "summary.json").write_text(text + "\n")
    print(text)
    return 0 if summary["completed"] == summary["games"] else 1


if __name__ == "__main__":
    sys.exit(main())
