"""The mjai bot: one seat of a game, over standard input and output, as mjai.app runs bots.

Each input line is one message: a JSON array of the events since the bot's last answer
(or a single event object).  Each gets exactly one line back: a JSON action, ``{"type":
"none"}`` when the seat has nothing to decide.  The events go through the same table
machine as the referee and ``/act`` (:mod:`app.core.table.machine`), and the action is
:func:`~app.core.table.decide.decide`'s pick among the seat's legal actions.

mjai.app hides ``hora`` and ``ryukyoku`` from the bots: an ``end_kyoku`` may come in the
middle of a hand, which the bot then leaves (the next ``start_kyoku`` has the scores).

The bot never crashes and never answers an illegal action.  When something goes wrong
inside (an event the table refuses, a strategy that fails, a line that is not JSON), it
logs the trouble to standard error and answers a legal default: throwing the tile it
drew (or its first legal discard), or passing.

A decision is bounded in time (``decision_seconds``, 1.2 s by default, under mjai.app's
2 s): the advisor's expected-score search stops there and the discard is ranked with what
the search reached.

>>> bot = Bot(0)
>>> bot.react('[{"type":"start_game","id":0,"names":["a","b","c","d"]}]')
'{"type":"none"}'
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any, Final, TextIO

from app.core.errors import TenpaiError
from app.core.families.registry import family_of
from app.core.shape.rules import rule_profile
from app.core.table.decide import decide
from app.core.table.machine import Foul, TableMachine
from app.core.table.mjai import Event, action_object, read_event
from app.core.table.players import Strategy, make_player

#: Time a decision may take before the search stops (mjai.app allows 2 s a reply).
DECISION_SECONDS: Final = 1.2


class Bot:
    """One seat's bot: feed it message lines with :meth:`react`."""

    def __init__(
        self,
        seat: int,
        *,
        strategy: str = "advisor",
        decision_seconds: float = DECISION_SECONDS,
        log: TextIO | None = None,
    ) -> None:
        self.seat = seat
        self.strategy_name = strategy
        self.strategy: Strategy = make_player(strategy, rng=random.Random(seat))
        self.decision_seconds = decision_seconds
        self.log = log if log is not None else sys.stderr
        self.machine: TableMachine | None = None
        self.pending: list[Event] = []
        self.warmed = False

    def _warm_up(self) -> None:
        """Build the tables every decision reads (shape, safety, the kernel's) at ``start_game``,
        which mjai.app gives 10 s, so that the first real decision is as fast as the others.

        A scratch table is dealt a hand and the strategy decides its first discard, a call on a
        discard and a riichi; the answers are thrown away.
        """
        self.warmed = True
        hands = [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "E", "E", "S", "N", "C"]] + [["?"] * 13] * 3
        events: list[dict[str, Any]] = [
            {
                "type": "start_kyoku",
                "bakaze": "E",
                "dora_marker": "1p",
                "kyoku": 1,
                "honba": 0,
                "kyotaku": 0,
                "oya": 0,
                "scores": [25000] * 4,
                "tehais": hands,
            },
            {"type": "tsumo", "actor": 0, "pai": "9s"},
        ]
        try:
            machine = TableMachine(rule_profile("riichi"), family_of("riichi"))
            machine.game_started = True
            for index, obj in enumerate(events):
                machine.apply(read_event(obj, index, machine.seats))
            decide(machine, 0, self.strategy, rank=False)
            for index, obj in enumerate(
                [
                    {"type": "dahai", "actor": 0, "pai": "C", "tsumogiri": False},
                    {"type": "tsumo", "actor": 1, "pai": "?"},
                    {"type": "dahai", "actor": 1, "pai": "E", "tsumogiri": False},
                ],
                start=len(events),
            ):
                machine.apply(read_event(obj, index, machine.seats))
            decide(machine, 0, self.strategy, rank=False)
        except Exception as error:  # a warm-up that fails costs only time: the game goes on
            self._complain(f"warm-up failed: {type(error).__name__}: {error}")

    def react(self, line: str) -> str:
        """The answer to one message line (a JSON action, compact)."""
        try:
            messages = json.loads(line)
            events = messages if isinstance(messages, list) else [messages]
            for event in events:
                self._see(event)
            return _dump(self._answer())
        except Exception as error:  # the bot must answer whatever happens inside
            self._complain(f"cannot answer {line.strip()[:200]!r}: {type(error).__name__}: {error}")
            return _dump(self._fallback())

    def _see(self, obj: Any) -> None:
        if not isinstance(obj, dict):
            raise TenpaiError(f"an event is a JSON object, got {obj!r}")
        kind = obj.get("type")
        if kind == "start_game":
            seat = obj.get("id")
            if type(seat) is int:
                self.seat = seat
            self.machine = None
            if not self.warmed:
                self._warm_up()
            return
        if kind == "start_kyoku" and self.machine is None:
            scores = obj.get("scores")
            seats = len(scores) if isinstance(scores, list) else 4
            rules = rule_profile("sanma" if seats == 3 else "riichi")
            self.machine = TableMachine(rules, family_of(rules))
            self.machine.game_started = True
        if self.machine is None:
            return
        machine = self.machine
        if kind == "end_kyoku" and machine.phase != "won":
            machine.abandon_hand()  # mjai.app does not show bots how a hand ended
            return
        event = read_event(obj, machine.events_applied, machine.seats)
        try:
            machine.apply(event)
        except Foul as foul:
            # The server is the referee: follow its events even where this table disagrees.
            self._complain(f"event {obj} is a foul here ({foul.code}: {foul.message}); following it anyway")
            machine.lenient = True
            try:
                machine.apply(event)
            finally:
                machine.lenient = False

    def _answer(self) -> dict[str, Any]:
        machine = self.machine
        if machine is None or not machine.legal_actions(self.seat):
            return {"type": "none"}
        stop_at = time.monotonic() + self.decision_seconds
        stop: Callable[[], bool] = lambda: time.monotonic() >= stop_at  # noqa: E731
        decision = decide(machine, self.seat, self.strategy, stop=stop, rank=False)
        return action_object(decision.action)

    def _fallback(self) -> dict[str, Any]:
        """A legal answer that needs no strategy: throw the drawn tile, or pass."""
        try:
            machine = self.machine
            legal = machine.legal_actions(self.seat) if machine is not None else []
        except Exception as error:
            self._complain(f"no legal actions either: {type(error).__name__}: {error}")
            return {"type": "none"}
        discards = [action for action in legal if action.kind == "dahai"]
        if discards:
            drawn = [action for action in discards if action.tsumogiri]
            return action_object((drawn or discards)[0])
        if any(action.kind == "none" for action in legal):
            return {"type": "none"}
        return action_object(legal[0]) if legal else {"type": "none"}

    def _complain(self, message: str) -> None:
        print(f"tenpai bot seat {self.seat}: {message}", file=self.log, flush=True)


def _dump(action: dict[str, Any]) -> str:
    return json.dumps(action, separators=(",", ":"))


def run(seat: int, *, strategy: str = "advisor", stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Answer every line of ``stdin`` on ``stdout`` until it closes."""
    source = stdin if stdin is not None else sys.stdin
    sink = stdout if stdout is not None else sys.stdout
    bot = Bot(seat, strategy=strategy)
    for line in source:
        if not line.strip():
            continue
        sink.write(bot.react(line) + "\n")
        sink.flush()
