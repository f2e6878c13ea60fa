"""A game reviewed decision by decision: what one seat did, what the advisor would have done, the value lost.

The log is replayed once, as the reviewed seat saw it (the other seats' dealt and drawn tiles
hidden, :func:`~app.core.table.decide.seat_sees`), so every judgement reads only what the seat
knew, exactly as ``/act`` would at that point.  At each of the seat's decision points with more
than one legal action (its draws: discard, riichi with its discard, kan, self-draw win, nine
terminals; after its own chi or pon: the discard; another seat's discard or kan it may claim:
call, ron or pass),
:func:`~app.core.table.decide.decide` ranks every legal action with the advisor's value in points
and its reasons, and the review finds the action the log took:

* on its own turn, the seat's next event (a ``reach`` with the ``dahai`` that declares it);
* on another seat's discard, its ``hora`` or call among the events answering the discard, else a
  pass.  A pass is no decision of the seat's when another seat's claim took the tile first
  (a pon over its chi, a ron over its call): the log cannot say what the seat wanted, and the
  point is left out (counted in :attr:`Review.preempted`).

The loss is the pick's value less the taken action's, both from the same ranking.  An action the
ranking gives no figure (a pass beside a win, a far hand's linear score beside a points value)
has no loss: the review says why rather than invent one.  A riichi declared with another tile
than the ranking's is valued as the ranking values its own
(:func:`~app.core.table.decide.riichi_with`: the same discard's figure dama, plus what riichi
adds over it).  When the advisor folds against a riichi, folding is worth 0 by the
model (the hand is given up: it neither wins nor deals in), so the pick is valued 0 and every
discard as safe as it (the same chance of dealing in) is folding too; the other discards keep
their push value, each at most 0 (else the advisor would have pushed).

The pick is the advisor's own action (``/act``'s), unless the ranking values another action more:
the advisor takes some calls and kans by a rule of thumb (a call that wins more often with a yaku
in sight), and orders discards by the search alone against the wall while the ranking gives each
its contested value.  Then the most valued action is the pick and ``note`` names the advisor's,
so that the loss is never below 0 and always in the ranking's own terms.

The seat's choice of the declaring discard after its own ``reach`` is not a decision of its own:
it was reviewed at the draw, as the riichi with that tile.  On the 54 Tenhou games of the shared
test data (every seat: 32,463 decisions) the review took 0.25 CPU-s a seat and game here.

>>> from app.core.shape.rules import rule_profile
>>> hands = [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "S", "N"]] + [["?"] * 13] * 3
>>> events = [{"type": "start_game"}, {"type": "start_kyoku", "bakaze": "E", "dora_marker": "1p",
...     "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0, "scores": [25000] * 4, "tehais": hands},
...     {"type": "tsumo", "actor": 0, "pai": "S"}, {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": False}]
>>> from app.core.families.registry import family_of
>>> report = review(events, 0, rule_profile("riichi"), family=family_of("riichi"))
>>> [(d.index, d.taken["type"], d.pick["type"]) for d in report.decisions]
[(2, 'dahai', 'reach')]
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from app.core.errors import TenpaiError
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import NUM_TILE_KINDS, counted, format_mpsz
from app.core.table.decide import (
    Decision,
    IllegalEvent,
    NotADecisionPoint,
    RankedAction,
    decide,
    riichi_with,
    seat_sees,
)
from app.core.table.family import Family
from app.core.table.machine import Foul, TableMachine
from app.core.table.mjai import (
    FIRST_RED,
    RED_FIVES,
    UNKNOWN,
    Event,
    MalformedEvent,
    action_object,
    kind_of,
    read_event,
    tile_name,
)
from app.core.table.players import Advisor
from app.core.table.seats import SeatState

#: How many events are read or replayed between two looks at the stop signal (as the referee does).
STOP_CHECK_EVERY: Final = 64
#: How many of the largest losses the summary lists.
WORST_LOSSES: Final = 5
#: How much more (points) another action must be worth to replace the advisor's as the review's pick:
#: values are rounded to 1e-6, and equal ones keep the advisor's order.
PICK_MARGIN: Final = 1e-6

#: Events that come between a discard and the answers to it, and answer nothing.
_BETWEEN_ANSWERS: Final = frozenset({"reach_accepted", "dora"})
#: The ranking's words for an action the advisor did not take (decide._claim, decide._turn).
_ADVISOR_VERDICTS: Final = frozenset({"not called", "not declared", "not chosen"})
#: What a seat may do on its own turn.
_TURN_ACTIONS: Final = frozenset({"dahai", "reach", "ankan", "kakan", "hora", "ryukyoku", "kita", "flower"})
#: Phases in which every seat chooses at once (Sichuan's 换三张 and 定缺), and their events.
_TOGETHER: Final = frozenset({"exchange", "void"})
_TOGETHER_ACTIONS: Final = frozenset({"exchange_out", "void_suit"})
#: Which claims come first: a win, then a pon or open kan, then a chi.
_CLAIM_PRIORITY: Final = {"hora": 3, "pon": 2, "daiminkan": 2, "chi": 1}


class ReviewOutOfRange(TenpaiError):
    """A review's seat or hand that the log does not have."""

    code = "out_of_range"


@dataclass(frozen=True, slots=True)
class ReviewedDecision:
    """One decision of the reviewed seat: the action taken beside the advisor's pick."""

    #: The index of the event after which the seat decided (its draw, its call, another's discard).
    index: int
    #: Which hand of the log (0-based), and its round wind, number and honba.
    hand: int
    bakaze: str
    kyoku: int
    honba: int
    #: The seat's turn: its discards so far, plus one.
    turn: int
    #: The concealed tiles (mpsz, a red five as 0; the drawn tile included) and the melds.
    tiles: str
    melds: tuple[str, ...]
    #: The action taken (an mjai object; a riichi with its declaring discard's ``pai``).
    taken: dict[str, Any]
    taken_value: float | None
    taken_reasons: tuple[str, ...]
    #: The advisor's pick, its value and reasons.
    pick: dict[str, Any]
    pick_value: float | None
    pick_reasons: tuple[str, ...]
    #: pick_value - taken_value (>= 0), None where either has no value (``note`` says why).
    loss: float | None
    agree: bool
    #: How many actions were legal.
    options: int
    note: str | None = None


@dataclass(frozen=True, slots=True)
class ReviewedHand:
    """One hand of the log: how it ended, the deltas the log gives, the seat's decisions in it."""

    hand: int
    bakaze: str
    kyoku: int
    honba: int
    #: ``hora`` (with the winners) or the kind of draw.
    result: str
    winners: tuple[int, ...]
    #: The log's deltas for the whole hand (None when the log carries none).
    deltas: tuple[int, ...] | None
    decisions: int
    agreements: int
    loss: float


@dataclass(slots=True)
class Review:
    """The review of one seat over a log (or one hand of it)."""

    seat: int
    decisions: list[ReviewedDecision] = field(default_factory=list)
    hands: list[ReviewedHand] = field(default_factory=list)
    #: Claim points where another seat's claim took the tile first (no decision of the seat's).
    preempted: int = 0
    #: False when ``stop`` ended the review early: ``decisions`` holds those finished before.
    complete: bool = True
    #: The index of the last event the review reached (the whole log when complete).
    reached: int = -1

    @property
    def agreements(self) -> int:
        return sum(decision.agree for decision in self.decisions)

    @property
    def valued(self) -> int:
        """Decisions whose loss has a figure."""
        return sum(decision.loss is not None for decision in self.decisions)

    @property
    def total_loss(self) -> float:
        return round(sum(decision.loss or 0.0 for decision in self.decisions), 6)

    def worst(self, count: int = WORST_LOSSES) -> list[ReviewedDecision]:
        """The ``count`` largest losses (each > 0), largest first, earlier first among equals."""
        lost = [decision for decision in self.decisions if decision.loss is not None and decision.loss > 0]
        return sorted(lost, key=lambda decision: (-(decision.loss or 0.0), decision.index))[:count]


def review(
    objects: Sequence[object],
    seat: int,
    rules: RuleProfile,
    *,
    family: Family,
    hand: int | None = None,
    stop: Callable[[], bool] | None = None,
    strategy: Advisor | None = None,
) -> Review:
    """Review ``seat``'s decisions over ``objects`` (mjai events), or over the ``hand``-th hand only (0-based).

    Raises :class:`ReviewOutOfRange` for a seat the rules do not seat or a hand the log does not
    have, :class:`~app.core.table.mjai.MalformedEvent` for an event that is not mjai and
    :class:`~app.core.table.decide.IllegalEvent` for one the table does not allow.  When ``stop``
    says so, the review ends early with the decisions finished so far (``complete`` False).
    """
    if not 0 <= seat < rules.seats:
        raise ReviewOutOfRange(f"seat must be 0..{rules.seats - 1}, got {seat}", field="seat")
    out = Review(seat)
    events = _read_all(objects, rules.seats, stop)
    if events is None:
        out.complete = False
        return out
    starts = [index for index, event in enumerate(events) if event.kind == "start_kyoku"]
    if hand is not None and not 0 <= hand < len(starts):
        raise ReviewOutOfRange(
            f"hand must be 0..{len(starts) - 1} (the log has {counted(len(starts), 'hand')}), got {hand}"
            if starts
            else f"the log has no hand (no start_kyoku), so hand {hand} cannot be reviewed",
            field="kyoku",
        )
    seen = _read_all(seat_sees(objects, seat), rules.seats, stop)
    if seen is None:
        out.complete = False
        return out
    advisor = strategy or Advisor(rng=random.Random(0))
    machine = TableMachine(rules, family)
    hand_index = -1
    for index, event in enumerate(seen):
        if stop is not None and index % STOP_CHECK_EVERY == 0 and stop():
            out.complete = False
            break
        if event.kind == "start_kyoku":
            hand_index += 1
        hands_before = len(machine.results)
        _apply(machine, event, index)
        if len(machine.results) > hands_before and (hand is None or hand == hand_index):
            out.hands.append(_hand_of(machine, hand_index, out.decisions))
        if hand is not None and hand_index != hand:
            if hand_index > hand:
                break
            out.reached = index
            continue
        # After its own reach the seat picks the declaring discard: that choice was reviewed at
        # its draw, as the riichi with that tile.
        declared = event.kind == "reach" and event.actor == seat
        # A choice every seat makes at once stays open while the others make theirs: it was
        # reviewed where it opened (the previous event left the seat in the same phase).
        still_open = machine.phase in _TOGETHER and event.kind in _TOGETHER_ACTIONS and event.actor != seat
        if machine.hand_open and not declared and not still_open and _decides_here(machine, seat):
            reviewed = _review_point(machine, events, index, seat, hand_index, advisor, stop, out)
            if stop is not None and stop():  # the search was cut short: its ranking is not the advisor's
                out.complete = False
                break
            if reviewed is not None:
                out.decisions.append(reviewed)
        out.reached = index
    return out


def _read_all(objects: Sequence[object], seats: int, stop: Callable[[], bool] | None) -> list[Event] | None:
    """Every event read (a malformed one refused at its index), or None when ``stop`` says so first."""
    events = []
    for index, obj in enumerate(objects):
        if stop is not None and index % STOP_CHECK_EVERY == 0 and stop():
            return None
        events.append(read_event(obj, index, seats))
    return events


def _apply(machine: TableMachine, event: Event, index: int) -> None:
    try:
        machine.apply(event)
    except MalformedEvent as error:
        raise error.of_event(index) from None
    except Foul as foul:
        raise IllegalEvent(f"events[{index}]: {foul.message} ({foul.code})", field=f"events[{index}]") from None


def _decides_here(machine: TableMachine, seat: int) -> bool:
    """Whether ``seat`` has a choice now: more than one legal action, its own tiles known."""
    player = machine.players[seat]
    if player.counts[UNKNOWN]:
        return False
    return len(machine.legal_actions(seat)) > 1


def _review_point(
    machine: TableMachine,
    events: Sequence[Event],
    index: int,
    seat: int,
    hand_index: int,
    advisor: Advisor,
    stop: Callable[[], bool] | None,
    out: Review,
) -> ReviewedDecision | None:
    legal = machine.legal_actions(seat)
    claim = legal[-1].kind == "none"
    taken: tuple[Event, Event | None] | None
    if machine.phase in _TOGETHER:
        taken = _together_taken(events, index, seat)
    else:
        taken = _claim_taken(events, index, seat, legal) if claim else _turn_taken(events, index, seat)
    if taken is None:
        out.preempted += 1
        return None
    decision = decide(machine, seat, advisor, stop=stop)
    player = machine.players[seat]

    def riichi_figure(declaring: Event, dama_figure: float) -> tuple[float, tuple[str, ...]] | None:
        return riichi_with(advisor, machine, seat, declaring, dama_figure, stop)

    return _judged(machine, index, hand_index, decision, taken, len(legal), player, riichi_figure)


def _together_taken(events: Sequence[Event], index: int, seat: int) -> tuple[Event, None]:
    """The seat's own choice in a phase where every seat chooses at once (Sichuan's exchange and
    void suit): its event among the run of that phase's events after ``index``, in any order."""
    for event in events[index + 1 :]:
        if event.kind not in _TOGETHER_ACTIONS:
            break
        if event.actor == seat:
            return event, None
    raise NotADecisionPoint(
        f"events[{index}]: seat {seat} chooses here with the others, but their choices that follow hold none of its own",
        field=f"events[{index + 1}]",
    )


def _turn_taken(events: Sequence[Event], index: int, seat: int) -> tuple[Event, Event | None] | None:
    """The seat's next event after ``index`` (a riichi with its declaring discard)."""
    following = [event for event in events[index + 1 : index + 5] if event.kind not in _BETWEEN_ANSWERS][:2]
    if not following or following[0].actor not in (seat, None) or following[0].kind not in _TURN_ACTIONS:
        raise NotADecisionPoint(
            f"events[{index}]: seat {seat} has a decision here but the next event is not its own",
            field=f"events[{index + 1}]",
        )
    first = following[0]
    if first.kind == "ryukyoku":  # nine terminals: mjai writes the declared draw without its actor
        return first, None
    if first.kind == "reach":
        declaring = following[1] if len(following) > 1 and following[1].kind == "dahai" else None
        return first, declaring
    return first, None


def _claim_taken(events: Sequence[Event], index: int, seat: int, legal: Sequence[Event]) -> tuple[Event, None] | None:
    """The seat's answer to the discard or kan at ``index``: its win or call, a pass, or None when
    another seat's claim came first and the log cannot tell what the seat wanted."""
    ours = max(_CLAIM_PRIORITY.get(action.kind, 0) for action in legal)
    other: Event | None = None
    for event in events[index + 1 :]:
        if event.kind in _BETWEEN_ANSWERS:
            continue
        if event.actor == seat and event.kind in _CLAIM_PRIORITY:
            return event, None
        if event.kind == "hora":  # another winner: a double ron may follow with this seat's
            other = other or event
            continue
        if event.kind in _CLAIM_PRIORITY and other is None:
            other = event
        break
    if other is not None and _CLAIM_PRIORITY[other.kind] > ours:
        return None
    return Event("none"), None


def _tiles(counts: Sequence[int]) -> str:
    """The concealed tiles in mpsz, a red five as ``0``."""
    reds = [five for red, five in enumerate(RED_FIVES, start=FIRST_RED) for _ in range(counts[red])]
    plain = [kind for kind in range(NUM_TILE_KINDS) for _ in range(counts[kind])]
    return format_mpsz(plain + reds, red=reds)


def _judged(
    machine: TableMachine,
    index: int,
    hand_index: int,
    decision: Decision,
    taken: tuple[Event, Event | None],
    options: int,
    player: SeatState,
    riichi_figure: Callable[[Event, float], tuple[float, tuple[str, ...]] | None],
) -> ReviewedDecision:
    """One decision judged: the review's pick against the action ``taken``, in the ranking's
    terms (``riichi_figure`` values a riichi declared with another tile than the ranking's)."""
    action, declaring = taken
    ranked = list(decision.ranked)
    advised = ranked[0]
    # The discard the ranking's riichi is valued with (decide._turn); the pick's where it has none.
    riichi_tile = _riichi_discard(ranked, decision.riichi_tile) or decision.action
    folded = _folding(advised)

    def valued(item: RankedAction) -> tuple[float | None, tuple[str, ...]]:
        if folded and item.action.kind == "dahai" and item.value is not None and _as_safe(item, advised):
            why = (
                "folding is worth 0: the hand neither wins nor deals in"
                if item is advised
                else "as safe as the fold: folding too, worth 0"
            )
            return 0.0, (*item.reasons, why)
        return item.value, item.reasons

    # The review's pick: the advisor's, unless the ranking values another action more (the advisor
    # follows a rule of thumb for some calls and kans, and orders discards by the uncontested search).
    pick_item = advised
    pick_value, pick_reasons = valued(advised)
    advisor_note: str | None = None
    if pick_value is not None and not _linear(pick_reasons):
        for item in ranked[1:]:
            value, reasons = valued(item)
            if value is not None and not _linear(reasons) and value > pick_value + PICK_MARGIN:
                pick_item, pick_value, pick_reasons = item, value, reasons
        if pick_item is not advised:
            advisor_note = (
                f"the advisor plays {_described(decision.action, riichi_tile)} "
                f"({advised.reasons[-1] if advised.reasons else 'its rule'}); the ranking values this higher"
            )
    pick_event = pick_item.action
    pick_discard = riichi_tile if pick_event.kind == "reach" else None
    pick_object = action_object(pick_event)
    if pick_discard is not None:
        pick_object["pai"] = tile_name(pick_discard.pai or 0)
    taken_object = action_object(action) if action.kind != "none" else {"type": "none"}
    if declaring is not None:
        taken_object["pai"] = tile_name(declaring.pai or 0)
    agree = _same_choice(pick_event, pick_discard, action, declaring)
    note: str | None = None
    if agree:
        taken_value, taken_reasons = pick_value, pick_reasons
    else:
        match = _matching(ranked, action, declaring, riichi_tile)
        declared = _declared_elsewhere(ranked, action, declaring, riichi_figure) if match is None else None
        if declared is not None:
            taken_value, taken_reasons = declared
        elif match is None:
            taken_value, taken_reasons = None, ()
            note = _unvalued(action, declaring)
        else:
            taken_value, taken_reasons = valued(match)
            # The ranking's verdict words are about the advisor's choice, not the log's.
            taken_reasons = tuple(reason for reason in taken_reasons if reason not in _ADVISOR_VERDICTS)
    loss: float | None = None
    if _linear(pick_reasons) or _linear(taken_reasons):
        # A hand far from ready is ranked by the linear model: its scores order the discards but are not points.
        note = "ranked by the linear model (the hand is far from ready): its scores are not points, no loss is given"
    elif agree:
        loss = 0.0 if pick_value is not None else None
    elif pick_value is None or taken_value is None:
        note = note or "the advisor gives no figure to " + ("its pick" if pick_value is None else "the action taken")
    else:
        loss = round(max(pick_value - taken_value, 0.0), 6)
    return ReviewedDecision(
        index=index,
        hand=hand_index,
        bakaze=tile_name(machine.bakaze),
        kyoku=machine.kyoku,
        honba=machine.honba,
        turn=len(player.river) + 1,
        tiles=_tiles(player.counts),
        melds=tuple(format_mpsz(kind_of(tile) for tile in meld.tiles) for meld in player.melds),
        taken=taken_object,
        taken_value=taken_value,
        taken_reasons=tuple(taken_reasons),
        pick=pick_object,
        pick_value=pick_value,
        pick_reasons=tuple(pick_reasons),
        loss=loss,
        agree=agree,
        options=options,
        note="; ".join(text for text in (advisor_note, note) if text) or None,
    )


def _described(action: Event, riichi_tile: Event | None) -> str:
    shown = action_object(action)
    if action.kind == "reach" and riichi_tile is not None:
        return f"riichi with {tile_name(riichi_tile.pai or 0)}"
    if action.kind == "none":
        return "a pass"
    tiles = shown.get("pai") or "+".join(shown.get("consumed", []))
    return f"{action.kind} {tiles}".strip()


def _linear(reasons: Sequence[str]) -> bool:
    """Whether a ranked action's value is the linear model's score (decide._discard_value), not points."""
    return bool(reasons) and reasons[0] == "linear score"


def _riichi_discard(ranked: Sequence[RankedAction], kind: int | None) -> Event | None:
    """The discard of ``kind`` the ranking's riichi is valued with (its first, as the ranking
    orders them), or None."""
    return next((item.action for item in ranked if item.action.kind == "dahai" and _kind(item.action) == kind), None)


def _folding(pick: RankedAction) -> bool:
    """Whether the advisor's pick is a fold against a riichi (no discard worth more than folding)."""
    return (
        pick.action.kind == "dahai"
        and pick.value is not None
        and pick.value <= 0
        and any(reason.startswith("against the riichi") for reason in pick.reasons)
    )


def _as_safe(item: RankedAction, pick: RankedAction) -> bool:
    """Whether ``item``'s chance of dealing in now (as its reasons give it) is the fold's."""
    return _danger_text(item) is not None and _danger_text(item) == _danger_text(pick)


def _danger_text(item: RankedAction) -> str | None:
    for reason in item.reasons:
        if reason.startswith("against the riichi: deals in "):
            return reason.removeprefix("against the riichi: deals in ").split(" ", 1)[0]
    return None


def _same_choice(pick: Event, pick_discard: Event | None, taken: Event, declaring: Event | None) -> bool:
    """The same decision: the same kind of action on the same kinds of tiles (a red five or a
    tsumogiri of the same kind is the same choice)."""
    if pick.kind != taken.kind:
        return False
    if pick.kind == "void_suit":
        return pick.suit == taken.suit
    if pick.kind == "reach":
        return pick_discard is not None and declaring is not None and _kind(pick_discard) == _kind(declaring)
    if pick.kind in ("dahai", "kakan"):
        return _kind(pick) == _kind(taken)
    return sorted(kind_of(tile) for tile in pick.consumed) == sorted(kind_of(tile) for tile in taken.consumed)


def _kind(event: Event) -> int | None:
    return None if event.pai is None else kind_of(event.pai)


def _matching(
    ranked: Sequence[RankedAction], taken: Event, declaring: Event | None, riichi_tile: Event | None
) -> RankedAction | None:
    """The ranked entry of the action taken (a riichi only when declared with the tile the
    ranking valued it with), or None."""
    for item in ranked:
        if _same_choice(item.action, riichi_tile, taken, declaring) and (
            taken.kind not in ("dahai", "kakan") or item.value is not None
        ):
            return item
    if taken.kind in ("dahai", "kakan"):  # the kind ranked without a value
        return next(
            (item for item in ranked if item.action.kind == taken.kind and _kind(item.action) == _kind(taken)), None
        )
    return None


def _declared_elsewhere(
    ranked: Sequence[RankedAction],
    taken: Event,
    declaring: Event | None,
    riichi_figure: Callable[[Event, float], tuple[float, tuple[str, ...]] | None],
) -> tuple[float, tuple[str, ...]] | None:
    """A riichi the ranking did not value (declared with another tile than its own), valued as
    the ranking values its own: on the figure of the same discard dama.  None for any other
    action, or where that discard has no figure in points."""
    if taken.kind != "reach" or declaring is None:
        return None
    dama = next(
        (
            item
            for item in ranked
            if item.action.kind == "dahai" and _kind(item.action) == _kind(declaring) and item.value is not None
        ),
        None,
    )
    if dama is None or dama.value is None or _linear(dama.reasons):
        return None
    return riichi_figure(declaring, dama.value)


def _unvalued(taken: Event, declaring: Event | None) -> str:
    if taken.kind == "reach":
        tile = "" if declaring is None else f" with {tile_name(declaring.pai or 0)}"
        return f"riichi{tile}: the advisor valued riichi only with its own discard"
    return f"the ranking has no {taken.kind} like the one taken"


def _hand_of(machine: TableMachine, hand_index: int, decisions: Sequence[ReviewedDecision]) -> ReviewedHand:
    result = machine.results[-1]
    mine = [decision for decision in decisions if decision.hand == hand_index]
    return ReviewedHand(
        hand=hand_index,
        bakaze=tile_name(result.bakaze),
        kyoku=result.kyoku,
        honba=result.honba,
        result=result.kind,
        winners=tuple(result.winners),
        deltas=None if result.logged_deltas is None else tuple(result.logged_deltas),
        decisions=len(mine),
        agreements=sum(decision.agree for decision in mine),
        loss=round(sum(decision.loss or 0.0 for decision in mine), 6),
    )
