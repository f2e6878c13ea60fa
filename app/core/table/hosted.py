"""A hosted game in memory: the dealer paused where seats must decide, rebuilt from its answers.

A hosted table (:mod:`app.hosting.tables`) keeps no process state: its store holds the seed,
the events and the *answers*, every decision the dealer asked for, in order.  The game in play
is a function of the three: :meth:`HostedGame.replay` deals the same walls from the seed and
sends the same answers, so any process rebuilds the same dealer at the same point, and a
process that holds it already applies only the answers that are new (:meth:`HostedGame.catch_up`).

The dealer is :class:`~app.core.table.game.Dealer`, the one self-play runs: the rules of
dealing, drawing, showing dora and settling claims by priority live there once.  Here it is
paused at each :class:`~app.core.table.game.Ask`: the seats it asks, each with its legal actions
(:meth:`legal`), answered together once every asked seat has chosen (:meth:`answer`).

An answer is stored as ``[[seat, action object, ...], ...]``, the mjai objects of the actions in
the order the seats were asked (a hosted table adds who chose each: the client, a bot, the clock).

>>> from app.core.shape.rules import rule_profile
>>> from app.core.table.game import RandomWalls
>>> import random
>>> rules = rule_profile("riichi")
>>> from app.core.families.registry import family_of
>>> game = HostedGame(rules, family_of(rules), "kyoku", RandomWalls(random.Random(1)), names=("a", "b", "c", "d"))
>>> game.asked, [event["type"] for event in game.events]
((0,), ['start_game', 'start_kyoku', 'tsumo'])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from app.core.advice.discard import DEFAULT_WEIGHTS
from app.core.errors import TenpaiError
from app.core.shape.rules import RuleProfile
from app.core.table.decide import decide, seat_sees
from app.core.table.family import Family
from app.core.table.game import Answers, Ask, Dealer, GameRecord, GameRun, WallSource, table_rules
from app.core.table.mjai import Event, MalformedEvent, action_object, choice_key, read_event
from app.core.table.players import make_player
from app.core.table.wall import SeedWalls, tenhou_tile_order

#: The strategy that plays bot seats and seats whose clock ran out: /act's advisor.
BOT_STRATEGY: Final = "advisor"

#: Actions whose mjai object names no actor (:func:`~app.core.table.mjai.action_object`): a pass,
#: and a declared draw (nine terminals) as libriichi writes it; the asked seat is the actor.

#: One stored answer: each asked seat and the mjai object of its action (and what the host adds),
#: in the order asked.
StoredAnswer = list[list[Any]]


class IllegalAction(TenpaiError):
    """An action the rules do not allow the seat now (or a seat that is not asked)."""

    code = "illegal_action"

    def __init__(self, message: str, *, legal: Sequence[Mapping[str, Any]] = (), field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.legal = [dict(action) for action in legal]


class ReplayMismatch(TenpaiError):
    """Stored answers that do not fit the game their seed deals: the store was altered."""

    code = "replay_mismatch"


class SeedWallSource:
    """A hosted table's walls: the set's tiles in Tenhou's id order, shuffled by the seed's
    derivation for each hand (:class:`~app.core.table.wall.SeedWalls`; docs/hosted-tables.md)."""

    def __init__(self, seed: str) -> None:
        self.walls = SeedWalls(seed)

    def wall(self, hand: int, tiles: Sequence[int]) -> list[int]:
        return self.walls.shuffle(hand, tenhou_tile_order(tiles))

    def direction(self, hand: int, seats: int) -> int:
        return self.walls.direction(hand, seats)


class HostedGame:
    """One hosted game in play, paused at the seats it asks (none once it is over)."""

    def __init__(
        self,
        rules: RuleProfile,
        family: Family,
        length: str,
        walls: WallSource,
        *,
        names: Sequence[str],
        audit: bool = False,
    ) -> None:
        """``audit``: the dealer checks after every event that no tile was created or lost (tests)."""
        self.rules = rules
        self.dealer = Dealer(rules, family, table_rules(rules, length), walls, names=names, audit=audit)
        self._run: GameRun = self.dealer.run()
        self.answer_count = 0
        self.result: GameRecord | None = None
        self.ask: Ask | None = None
        self._step(lambda: next(self._run))

    @classmethod
    def replay(
        cls,
        rules: RuleProfile,
        family: Family,
        length: str,
        walls: WallSource,
        *,
        names: Sequence[str],
        answers: Iterable[StoredAnswer],
        stop: Callable[[], bool] | None = None,
    ) -> HostedGame:
        """The game after ``answers`` (the stored ones, in order)."""
        game = cls(rules, family, length, walls, names=names)
        game.catch_up(answers, stop=stop)
        return game

    def catch_up(self, answers: Iterable[StoredAnswer], *, stop: Callable[[], bool] | None = None) -> None:
        """Apply stored ``answers`` that follow the ones applied (each checked as a new one is)."""
        for stored in answers:
            if stop is not None and stop():
                raise TimeoutError("the replay of a hosted game was stopped")
            chosen: dict[int, Event] = {}
            for pair in stored:
                if not (isinstance(pair, list) and len(pair) >= 2 and isinstance(pair[0], int)):
                    raise ReplayMismatch(f"stored answer {self.answer_count} is not a list of [seat, action, ...]")
                seat, obj = pair[0], pair[1]
                try:
                    chosen[seat] = self.legal_action(seat, obj)
                except (IllegalAction, MalformedEvent) as error:
                    raise ReplayMismatch(f"stored answer {self.answer_count} does not fit the game: {error}") from None
            self.answer(chosen)

    # -- what the dealer asks ------------------------------------------------

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def asked(self) -> tuple[int, ...]:
        """The seats the dealer waits for now, in the order it asked them."""
        return () if self.ask is None else self.ask.seats

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every event so far, every tile shown (the record; never shown to a seat as is)."""
        return self.dealer.record.events

    def legal_events(self, seat: int) -> list[Event]:
        """What ``seat`` may do now; empty when it is not asked."""
        if seat not in self.asked:
            return []
        return self.dealer.machine.legal_actions(seat) or [Event("none")]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        """``legal_events`` as mjai objects, as ``/act`` lists them."""
        return [action_object(action) for action in self.legal_events(seat)]

    def legal_action(self, seat: int, obj: object) -> Event:
        """The legal action of ``seat`` that ``obj`` spells, or :class:`IllegalAction`
        (:class:`~app.core.table.mjai.MalformedEvent` when ``obj`` is no mjai action)."""
        legal = self.legal_events(seat)
        if not legal:
            raise IllegalAction(f"seat {seat} is not asked to act now", field="action")
        wanted = read_event(obj, 0, self.rules.seats)
        for action in legal:
            if choice_key(action) == choice_key(wanted):
                return action
        raise IllegalAction(
            f"seat {seat} may not {wanted.kind} here: the rules allow {len(legal)} other action(s)",
            legal=[action_object(action) for action in legal],
            field="action",
        )

    def answer(self, answers: Answers) -> list[dict[str, Any]]:
        """Send the asked seats' actions (each one of its :meth:`legal_events`); the events the
        dealer emits until it next asks or the game ends."""
        if self.ask is None or set(answers) != set(self.ask.seats):
            raise ValueError(f"the dealer asks seats {self.asked}, answered {sorted(answers)}")
        ordered = {seat: answers[seat] for seat in self.ask.seats}
        before = len(self.events)
        self.answer_count += 1
        self._step(lambda: self._run.send(ordered))
        return self.events[before:]

    def stored_answer(self, answers: Answers) -> StoredAnswer:
        """``answers`` in the stored form, in the order the seats were asked."""
        return [[seat, action_object(answers[seat])] for seat in self.asked]

    def _step(self, advance: Callable[[], Ask]) -> None:
        try:
            self.ask = advance()
            while not self.ask.seats:  # a discard nobody may claim: the dealer goes on at once
                self.ask = self._run.send({})
        except StopIteration as finished:
            self.ask = None
            self.result = finished.value

    # -- bots --------------------------------------------------------------

    def bot_action(self, seat: int, *, rng: random.Random, stop: Callable[[], bool] | None = None) -> Event:
        """What the advisor does for ``seat`` now: a bot seat, or a seat whose clock ran out.

        The same :func:`~app.core.table.decide.decide` as ``/act``; the advisor reads the seat's
        own view of the table (:class:`~app.core.table.players.SeatView`), never the wall."""
        strategy = make_player(BOT_STRATEGY, DEFAULT_WEIGHTS, rng)
        return decide(self.dealer.machine, seat, strategy, stop=stop, rank=False).action


def seat_events(events: Sequence[Mapping[str, Any]], seat: int) -> list[dict[str, Any]]:
    """``events`` as ``seat`` may see them (as mjai.app shows a bot): another seat's dealt and
    drawn tiles, and the tiles it passes in an exchange, are ``?``.  Built anew for each seat
    from the table's own events (:func:`~app.core.table.decide.seat_sees`, the rule ``/act`` uses)."""
    return [dict(event) for event in seat_sees(events, seat) if isinstance(event, Mapping)]
