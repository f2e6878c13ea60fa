"""A seat's decision at the table: one of the machine's legal actions, picked by a strategy.

The table machine says what a seat may do (:meth:`TableMachine.legal_actions
<app.core.table.machine.TableMachine.legal_actions>`); a strategy of
:mod:`app.core.table.players` says what it would like to do.  :func:`decide` joins the
two, so that ``/act``, the bot process and the self-play simulator all answer with an
action the rules allow, chosen the same way:

* a win (hora) is taken, but the advisor passes a win on a discard that would end the game
  with it last when the same hand could win otherwise and not be last (:func:`declined_win`);
* nine terminals are declared (the hand is far from anything), but the advisor plays on
  for thirteen orphans from :data:`THIRTEEN_ORPHANS_KINDS` kinds;
* sanma's kita, a kan, a call: as the strategy says (the advisor values calls against
  passing by the expected-score search);
* otherwise the strategy's discard; riichi when the strategy declares with it and the discard
  keeps the hand ready.  The advisor weighs riichi with every discard that keeps the hand ready
  (each on that discard's figure dama plus what riichi adds over it) against its best discard
  dama, declares with the one worth most where that is worth more, and throws it once declared.

Every ranked action carries the value the strategy gives it, in points (expected points at
the end of the hand for discards, calls, passing and riichi; the win's points for a win),
and the reasons.

Where the strategy's wish is not legal (a discard kuikae forbids, a riichi discard that
breaks the wait), the best legal discard by the strategy's own ranking is taken, or the
first legal one.

>>> from app.core.shape.rules import rule_profile
>>> hands = [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "S", "N"]] + [["?"] * 13] * 3
>>> events = [{"type": "start_game"}, {"type": "start_kyoku", "bakaze": "E", "dora_marker": "1p",
...     "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0, "scores": [25000] * 4, "tehais": hands},
...     {"type": "tsumo", "actor": 0, "pai": "S"}]
>>> from app.core.families.registry import family_of
>>> answer = act(events, 0, rule_profile("riichi"), family=family_of("riichi"))
>>> answer.action
{'type': 'reach', 'actor': 0}
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, NamedTuple

from app.core.advice.actions import CallValues, RiichiChoice
from app.core.advice.discard import Candidate, others_seen
from app.core.advice.expected_score import supports
from app.core.advice.placement import hands_after, placement_points, uma_for
from app.core.advice.reads import OpponentRead, read_opponents
from app.core.advice.safety import Opponent
from app.core.advice.sichuan import exchange_cost, void_cost
from app.core.errors import TenpaiError
from app.core.shape.hand import Meld
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import (
    DRAGONS,
    EAST,
    NORTH,
    NUM_TILE_KINDS,
    ORPHANS,
    counted,
    dora_from_indicator,
    format_tile,
)
from app.core.shape.void_suit import SUIT_NAMES
from app.core.table.family import Family
from app.core.table.flow import GameEnd, GameLength, RoundWind, TableRules, scheduled_after
from app.core.table.machine import TableMachine
from app.core.table.mjai import (
    MJAI_NAMES,
    UNKNOWN,
    Event,
    MalformedEvent,
    action_key,
    action_object,
    is_red,
    kind_of,
    read_event,
)
from app.core.table.players import Advisor, SeatView, Strategy, standing_of
from app.core.table.resume import MachineShelf, PrefixKey, machine_size, prefix_digests
from app.core.table.seats import SeatState
from app.core.value.scoring import MINIMUM_FANS


class NotADecisionPoint(TenpaiError):
    """The seat cannot be answered at this point of the events (its own tiles are hidden)."""

    code = "not_a_decision_point"


class IllegalEvent(TenpaiError):
    """An event of the game so far that the table does not allow."""

    code = "illegal_event"


class RankedAction(NamedTuple):
    """A legal action with the value the strategy gives it (None: no figure) and why."""

    action: Event
    value: float | None
    reasons: tuple[str, ...]
    #: Its value in expected placement points at the game's end (:func:`win_placement`,
    #: :func:`discard_placements`, :meth:`Advisor.line_placements`); None where the table plays
    #: for no placement or the action has no such figure.
    placement: float | None = None


class Decision(NamedTuple):
    """The action taken and every legal action, best first."""

    action: Event
    ranked: tuple[RankedAction, ...]
    #: The kind the ranking's riichi is valued with (declared with, where riichi is the action);
    #: None where the ranking values no riichi.
    riichi_tile: int | None = None


class ActAnswer(NamedTuple):
    """``/act``'s answer in mjai objects."""

    action: dict[str, Any]
    legal: list[dict[str, Any]]
    #: Each legal action, best first: (action, value, reasons, placement value).
    ranked: list[tuple[dict[str, Any], float | None, tuple[str, ...], float | None]]
    #: The other seats as this one reads them, in seat order (riichi scoring; else empty).
    opponents: tuple[OpponentRead, ...] = ()


def seat_view(machine: TableMachine, seat: int, stop: Callable[[], bool] | None = None) -> SeatView:
    """What ``seat`` knows, in the form the strategies read."""
    player = machine.players[seat]
    n = machine.seats
    opponents = [_opponent(machine, (seat + offset) % n) for offset in range(1, n)]
    visible = None
    norths = sum(p.kita for p in machine.players)
    if norths:
        counts = bytearray(NUM_TILE_KINDS)
        counts[NORTH] = norths
        visible = bytes(counts)
    seat_wind = machine.seat_wind(seat)
    drawn = player.drawn
    return SeatView(
        seat,
        player.hand(),
        None if drawn is None else kind_of(drawn),
        len(player.river) + 1,
        tuple(opponents),
        tuple(kind_of(marker) for marker in machine.dora_markers),
        machine.live_left,
        machine.rules,
        machine.checker if player.void is None else machine.checker.bound(player.void),
        machine.family.advisor.needs_yaku,
        DRAGONS + tuple(sorted({seat_wind, machine.bakaze})),
        visible,
        player.kita,
        seat_wind,
        machine.bakaze,
        MINIMUM_FANS.get(machine.rules.name, 0),
        stop,
        player.void,
        bool(player.riichi),
        *_standing(machine),
        machine.table.noten_payment,
    )


def _standing(machine: TableMachine) -> tuple[tuple[int, ...], float, tuple[int, ...] | None]:
    """The scores, the hands expected after this one and the uma, where the family plays for
    placement (else no scores: the advisor values points)."""
    if not machine.family.advisor.plays_for_placement:
        return (), 0.0, None
    table = machine.table
    return tuple(machine.scores), _hands_after(table, machine.bakaze - EAST, machine.kyoku), table.uma


def _hands_after(table: TableRules, round_index: int, kyoku: int) -> float:
    """Hands expected after hand ``kyoku`` of round ``round_index`` (0 East) at ``table``
    (:func:`~app.core.advice.placement.hands_after`)."""
    return hands_after(scheduled_after(round_index, kyoku, table), table.length is not GameLength.KYOKU)


def opponent_reads(machine: TableMachine, seat: int) -> tuple[OpponentRead, ...]:
    """Each other seat's tenpai chance and each held kind's deal-in chance, in seat order,
    from ``seat``'s view alone (:mod:`app.core.advice.reads`).  Only ``/act`` asks: the bot and
    self-play decide without them."""
    view = seat_view(machine, seat)
    # Unseen copies as the advisor counts them: a called discard is counted once, in its meld.
    seen = others_seen(view.hand, view.visible, view.dora_indicators, view.opponents, view.rules)
    unseen = view.checker.remaining(view.hand, seen)
    others = [(other, opponent_as_read(machine, other)) for other in range(machine.seats) if other != seat]
    absent = view.rules.absent_tiles
    return read_opponents(
        (kind for kind, count in enumerate(view.hand.counts) if count),
        others,
        own_discards=tuple(kind_of(tile) for tile in machine.players[seat].river),
        unseen=unseen,
        rules=view.rules,
        dora=frozenset(dora_from_indicator(marker, absent_tiles=absent) for marker in view.dora_indicators),
        # The silent closed hands' published rate is by the four-seat wall's turns left.
        turns_left=machine.live_left // 4 if machine.seats == 4 else None,
    )


def opponent_as_read(machine: TableMachine, seat: int) -> Opponent:
    """``seat`` with every tile it discarded, the called ones too: furiten counts them all, and
    the published rates are by the discards a player made (the advisor's :func:`_opponent` keeps
    the river as it lies).  Its value winds are its seat wind and the round's; what it discarded
    from the hand since its last call, which of its discards were the tile just drawn and where
    it called count (the open-hand tenpai read reads them)."""
    other = machine.players[seat]
    declared = other.riichi == 2
    return Opponent(
        river=tuple(kind_of(tile) for tile in other.river),
        riichi=declared,
        riichi_turn=other.riichi_turn if declared else None,
        melds=tuple(meld.as_meld() for meld in other.melds),
        value_winds=frozenset((machine.seat_wind(seat), machine.bakaze)),
        hand_discards_after_call=max(other.hand_discards_after_call or 0, 0),
        passed_since_discard=_passed_kinds(other),
        tsumogiri=None if None in other.drawn_discards else tuple(map(bool, other.drawn_discards)),
        calls_at=tuple(other.calls_at),
    )


def _passed_kinds(player: SeatState) -> frozenset[int]:
    """The kinds the other seats discarded since ``player``'s last discard, as every seat sees them."""
    return frozenset(kind for kind in player.passed_since_discard if kind != UNKNOWN)


def _opponent(machine: TableMachine, seat: int) -> Opponent:
    """What every other seat sees of ``seat``; read again only once it has changed (see
    :attr:`~app.core.table.machine.SeatState.opponent_cache`).  Its value winds are its seat
    wind and the round's; the kinds that passed it since its last discard are as the table
    keeps them (same-turn furiten)."""
    other = machine.players[seat]
    opponent = _lying_opponent(machine, seat)
    passed = _passed_kinds(other)
    if passed == opponent.passed_since_discard:
        return opponent
    return replace(opponent, passed_since_discard=passed)


def _lying_opponent(machine: TableMachine, seat: int) -> Opponent:
    """:func:`_opponent` but for the kinds that passed it, remembered in its ``opponent_cache``."""
    other = machine.players[seat]
    river = len(other.river)
    state = (len(other.called_away), other.riichi, other.riichi_turn, len(other.melds), machine.kans)
    cached = other.opponent_cache
    if cached is not None:
        seen_river, seen_state, opponent = cached
        if seen_state == state and seen_river == river:
            return opponent
        if seen_state == state and seen_river + 1 == river:
            # One discard more and nothing else: it lies in the river (a called one is counted
            # in called_away), and the declaration's place among the earlier tiles stands.
            opponent = Opponent(
                river=(*opponent.river, kind_of(other.river[-1])),
                riichi=opponent.riichi,
                riichi_turn=opponent.riichi_turn,
                melds=opponent.melds,
                value_winds=opponent.value_winds,
            )
            other.opponent_cache = (river, state, opponent)
            return opponent
    # The river as it lies: a called discard sits in the caller's meld instead.
    lying = [i for i in range(len(other.river)) if i not in other.called_away]
    declared = other.riichi_turn
    riichi_turn = None
    if other.riichi == 2 and declared is not None and declared - 1 not in other.called_away:
        riichi_turn = sum(1 for i in lying if i < declared)
    opponent = Opponent(
        river=tuple(kind_of(other.river[i]) for i in lying),
        riichi=other.riichi == 2,
        riichi_turn=riichi_turn,
        melds=tuple(meld.as_meld() for meld in other.melds),
        value_winds=frozenset((machine.seat_wind(seat), machine.bakaze)),
    )
    other.opponent_cache = (river, state, opponent)
    return opponent


def decide(
    machine: TableMachine,
    seat: int,
    strategy: Strategy,
    *,
    stop: Callable[[], bool] | None = None,
    rank: bool = True,
) -> Decision:
    """The strategy's pick among ``seat``'s legal actions, and all of them ranked.

    Without ``rank`` the pick alone (``ranked`` is empty): the same action, for a caller that
    only plays it (self-play), spared the values and reasons of the others.
    """
    legal = machine.legal_actions(seat)
    if not legal:
        none = Event("none")
        return Decision(none, (RankedAction(none, None, ("nothing to decide",)),) if rank else ())
    view = seat_view(machine, seat, stop)
    if legal[0].kind in ("exchange_out", "void_suit"):
        return _before_play(strategy, view, legal, rank)
    if legal[-1].kind == "none":  # a claim: ``none`` comes last (legal_actions)
        return _claim(machine, seat, strategy, view, legal, rank)
    return _turn(machine, seat, strategy, view, legal, rank)


def _before_play(strategy: Strategy, view: SeatView, legal: list[Event], rank: bool) -> Decision:
    """Sichuan's choices before the first draw: the three tiles to pass (换三张), the void suit (定缺).

    The strategy chooses; the others are ranked after it by the advisor's measure
    (:mod:`app.core.advice.sichuan`): the draws the hand would still need, then its tie-breaks.
    """
    counts = view.hand.counts
    cost: Callable[[Event], tuple[int, ...]]
    if legal[0].kind == "void_suit":
        suit = strategy.void_suit(view)
        chosen = next((action for action in legal if action.suit == suit), legal[0])
        melds = len(view.hand.melds)

        def cost(action: Event) -> tuple[int, ...]:
            return void_cost(counts, action.suit or 0, melds=melds)

        def reason(action: Event, draws: int) -> str:
            return f"void suit {SUIT_NAMES[action.suit or 0]}: {counted(draws, 'draw')} from a complete hand without it"
    else:
        options = {tuple(kind_of(tile) for tile in action.consumed): action for action in legal}
        wanted = strategy.exchange(view, list(options))
        chosen = options.get(tuple(wanted), legal[0])

        def cost(action: Event) -> tuple[int, ...]:
            return exchange_cost(counts, [kind_of(tile) for tile in action.consumed])

        def reason(action: Event, draws: int) -> str:
            return f"passing these leaves the hand {counted(draws, 'draw')} from complete with its best void suit"

    if not rank:
        return Decision(chosen, ())
    # Each choice's cost once: an exchange has up to a few hundred, each a search of the hand.
    costs = [(cost(action), action) for action in legal]
    others = sorted(
        ((measured, action) for measured, action in costs if action is not chosen), key=lambda item: item[0]
    )
    first = next(measured for measured, action in costs if action is chosen)
    ranked = [
        RankedAction(action, None, (reason(action, measured[0]),)) for measured, action in ((first, chosen), *others)
    ]
    return Decision(chosen, tuple(ranked))


def _claim(
    machine: TableMachine, seat: int, strategy: Strategy, view: SeatView, legal: list[Event], rank: bool
) -> Decision:
    ranked: list[RankedAction] = []
    wins = [a for a in legal if a.kind == "hora"]
    calls = [a for a in legal if a.kind in ("chi", "pon", "daiminkan")]
    none = next(a for a in legal if a.kind == "none")
    chosen = none
    declined: str | None = None
    if wins:
        declined = declined_win(machine, seat, wins[0]) if _plays_for_placement(strategy) else None
        if declined is None:
            chosen = wins[0]
            if not rank:
                return Decision(chosen, ())
        if rank:
            reason = declined or "a win is taken"
            placed = win_placement(machine, seat, wins[0], view) if isinstance(strategy, Advisor) else None
            ranked.append(RankedAction(wins[0], float(machine.win_value(seat, wins[0])), (reason,), placed))
    options: dict[Meld, Event] = {}
    appraisal: CallValues | None = None
    if calls and not wins:
        tile = kind_of(machine.claim_tile)
        options = _call_melds(calls, tile)
        wanted, appraisal = strategy_call(strategy, view, tile, list(options))
        if wanted is not None:
            chosen = options[wanted]
    if not rank:
        return Decision(chosen, ())
    if appraisal is None and isinstance(strategy, Advisor):
        appraisal = strategy.appraise_calls(view, kind_of(machine.claim_tile), list(options))
    valued = {} if appraisal is None else {value.meld: value for value in appraisal.calls}
    placed_calls, placed_passing = _call_placements(strategy, view, appraisal)
    before = view.checker.shanten_number(view.hand)
    for call in calls:
        meld = Meld.of(_MELD_OF_CALL[call.kind], [*(kind_of(t) for t in call.consumed), kind_of(machine.claim_tile)])
        value = valued.get(meld)
        taken = "the call is taken" if call is chosen else "not called"
        if call is chosen and appraisal is not None and appraisal.verdict:
            taken = appraisal.verdict
        if value is not None:
            ranked.append(
                RankedAction(
                    call,
                    round(value.value, 6),
                    ("expected score after the call", *value.reasons, taken),
                    placed_calls.get(meld),
                )
            )
        else:
            ranked.append(RankedAction(call, None, (f"shanten {before} before the call", taken)))
    if appraisal is not None:
        passing: tuple[str, ...] = (f"expected score if passed (win {appraisal.passing_win_probability:.1%})",)
        if chosen is none and appraisal.verdict:
            passing = (*passing, appraisal.verdict)
        ranked.append(RankedAction(none, round(appraisal.passing, 6), passing, placed_passing))
    else:
        ranked.append(RankedAction(none, None, ("pass",) if declined is None else ("pass", declined)))
    ranked.sort(key=lambda item: (item.action is not chosen, -(item.value if item.value is not None else -1e18)))
    return Decision(chosen, tuple(ranked))


#: Kinds of terminals and honours from which the advisor plays on for thirteen orphans
#: rather than declare nine terminals (three-shanten at worst for the thirteen orphans).
THIRTEEN_ORPHANS_KINDS: Final = 10

_MELD_OF_CALL: Final = {"chi": "chi", "pon": "pon", "daiminkan": "open_kan"}


def strategy_call(
    strategy: Strategy, view: SeatView, tile: int, options: list[Meld]
) -> tuple[Meld | None, CallValues | None]:
    """The strategy's call among ``options`` and, where it values them, the values."""
    with_values = getattr(strategy, "call_with_values", None)
    if with_values is not None:
        answer: tuple[Meld | None, CallValues | None] = with_values(view, tile, options)
        return answer
    return strategy.call(view, tile, options), None


def _plays_for_placement(strategy: Strategy) -> bool:
    return bool(getattr(strategy, "values_every_decision", False)) and isinstance(strategy, Advisor)


def declined_win(machine: TableMachine, seat: int, win: Event) -> str | None:
    """Why ``seat`` should pass on the ron ``win``, or None to take it.

    At all-last (a hand after which the game may end), a win on a discard that ends the game
    with the seat last is passed when the same hand could win otherwise and not be last: by
    self-draw on any of its waits, or on a discard of another seat (not in riichi: after a
    pass, a riichi hand is furiten for discards).  Self-draws are always taken (the hand is
    worth the same later), as is every win before all-last.
    """
    if win.target is None or win.target == seat or not machine.family.advisor.plays_for_placement:
        return None
    outcome = machine.standing_after_win(seat, win.target, kind_of(win.pai or 0))
    if outcome is None or outcome != machine.seats - 1:
        return None
    if machine.live_left <= 0:
        return None
    player = machine.players[seat]
    others = [s for s in range(machine.seats) if s not in (seat, win.target)] if not player.riichi else []
    for wait in sorted(machine.waits_of(seat)):
        for target in (seat, *others):
            place = machine.standing_after_win(seat, target, wait)
            if place is not None and place < machine.seats - 1:
                how = "a self-draw" if target == seat else f"a win on seat {target}'s discard"
                return (
                    f"this win ends the game with seat {seat} last; {how} on {format_tile(wait)} would not: "
                    "the win is passed"
                )
    return None


def _call_melds(calls: Sequence[Event], tile: int) -> dict[Meld, Event]:
    """The calls as melds of kinds (a red five is its five), the first event of each meld kept."""
    out: dict[Meld, Event] = {}
    for call in sorted(calls, key=lambda c: sum(is_red(t) for t in c.consumed)):
        meld = Meld.of(_MELD_OF_CALL[call.kind], [*(kind_of(t) for t in call.consumed), tile])
        out.setdefault(meld, call)
    return out


def _turn(
    machine: TableMachine, seat: int, strategy: Strategy, view: SeatView, legal: list[Event], rank: bool
) -> Decision:
    by_kind: dict[str, list[Event]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    ranked: list[RankedAction] = []
    chosen: Event | None = None
    if "flower" in by_kind:  # a drawn flower goes aside before anything else
        flower = by_kind["flower"][0]
        return Decision(flower, (RankedAction(flower, None, ("a flower is set aside and replaced",)),) if rank else ())
    if "hora" in by_kind:
        win = by_kind["hora"][0]
        chosen = win
        if not rank:
            return Decision(chosen, ())
        placed = win_placement(machine, seat, win, view) if isinstance(strategy, Advisor) else None
        ranked.append(RankedAction(win, float(machine.win_value(seat, win)), ("a win is taken",), placed))
    if chosen is None and "ryukyoku" in by_kind:
        kinds = sum(1 for tile in ORPHANS if view.hand.counts[tile])
        if _plays_for_placement(strategy) and kinds >= THIRTEEN_ORPHANS_KINDS:
            reason = f"{kinds} kinds of terminals and honours: thirteen orphans is near, the hand plays on"
            ranked.append(RankedAction(by_kind["ryukyoku"][0], None, (reason,)))
        else:
            chosen = by_kind["ryukyoku"][0]
            reason = f"{kinds} kinds of terminals and honours: the hand is declared a draw"
            ranked.append(RankedAction(chosen, None, (reason,)))
    if chosen is None and "kita" in by_kind:
        kita = by_kind["kita"][0]
        if strategy.kita(view, NORTH):
            chosen = kita
            ranked.append(RankedAction(kita, None, ("a north set aside is a dora and a draw",)))
    discards = by_kind.get("dahai", [])
    advised = _advised(strategy, view, discards)  # ranked once: the kans' lines read it too
    kans = by_kind.get("ankan", []) + by_kind.get("kakan", [])
    kan_lines: dict[int, tuple[float, float]] = {}  # each valued kan's (value, chance of winning)
    candidates = _ranked_discards(advised, discards)
    reach = by_kind.get("reach")
    declaring = machine.players[seat].riichi == 1  # declared: its discard is the one to choose
    # The discards' figures in placement points, for a strategy that decides by them (else None).
    by_placement = _placed_scale(strategy, view, candidates) if chosen is None and (reach or declaring) else None
    # Riichi with each discard that leaves the hand ready, figured once: a kan and the discards
    # are both weighed against them.
    riichis = (
        _riichi_options(strategy, view, machine, seat, discards, candidates, by_placement)
        if chosen is None and (reach or declaring)
        else {}
    )
    if chosen is None and kans:
        options = {_kan_meld(kan): kan for kan in kans}
        wanted = strategy.kan(view, list(options))
        riichi_first = wanted is not None and _riichi_beats_kan(
            strategy, view, wanted, riichis, candidates, advised, by_placement
        )
        if wanted is not None and not riichi_first:
            chosen = options[wanted]
        if rank:
            for meld, kan in options.items():
                line = strategy.kan_line(view, meld, advised) if isinstance(strategy, Advisor) else None
                if riichi_first and meld == wanted:
                    verdict = "riichi is worth more than the kan"
                elif kan is not chosen:
                    verdict = "not declared"
                elif line is None:
                    verdict = "the kan keeps the hand as near ready"
                else:
                    verdict = "worth more than the best discard"
                if line is None:
                    ranked.append(RankedAction(kan, None, (verdict,)))
                else:
                    kan_lines[id(kan)] = line.value, line.win_probability
                    ranked.append(RankedAction(kan, round(line.value, 6), (*line.reasons, verdict)))
    dama: tuple[int, RiichiChoice] | None = None  # the riichi discard and its choice, where valued
    if chosen is None and discards:
        pick = _pick_discard(strategy, view, discards, candidates)
        chosen = pick
        picked = kind_of(pick.pai or 0)
        dama_figure = None
        if reach and riichis:
            dama_figure = (
                by_placement.get(picked)
                if by_placement is not None
                else _discard_figure(strategy, view, candidates, picked)
            )
        if declaring and riichis:  # the riichi is made: with the discard it is worth most with
            thrown = max(riichis.values(), key=lambda option: option.figure).thrown
            chosen = _physical_discard(discards, [kind_of(d.pai or 0) for d in discards], thrown)
        elif reach and riichis and dama_figure is not None:
            declared_with = _riichi_to_declare(riichis, picked, dama_figure)
            # The ranking shows the riichi declared, else riichi with the pick where it is ready,
            # else the riichi worth most.
            shown = declared_with or riichis.get(picked) or max(riichis.values(), key=lambda option: option.figure)
            if declared_with is not None:
                chosen = reach[0]
            dama = (shown.thrown, shown.choice)
            ranked.append(RankedAction(reach[0], round(shown.choice.riichi_value, 6), _riichi_reasons(*dama)))
        elif reach and machine.ready_after(seat, pick.pai):
            thrown = kind_of(pick.pai or 0)
            choice = strategy.riichi_choice(view, thrown) if isinstance(strategy, Advisor) else None
            declare = choice.riichi if choice is not None else strategy.declare_riichi(view, thrown)
            if declare:
                chosen = reach[0]
            if choice is not None:
                dama = (thrown, choice)
                ranked.append(RankedAction(reach[0], round(choice.riichi_value, 6), _riichi_reasons(thrown, choice)))
            elif declare:
                ranked.append(RankedAction(chosen, None, (f"riichi with {format_tile(thrown)}",)))
    assert chosen is not None  # a turn always offers a discard or a win
    if not rank:
        return Decision(chosen, ())
    # A strategy deciding in placement figured them already where riichi was weighed.
    placements = by_placement if by_placement is not None else discard_placements(strategy, view, candidates)
    ranked = _beside_discards(strategy, view, ranked, candidates, placements, kan_lines, dama)
    riichi_tile = dama[0] if dama is not None else None
    for discard in _discard_order(discards, candidates, riichi_tile if chosen.kind == "reach" else None):
        value, reasons = _discard_value(discard, candidates, strategy, view)
        if dama is not None and kind_of(discard.pai or 0) == dama[0]:
            # The same discard without the declaration: dama, with the riichi formula's terms.
            reasons = ("dama", *dama[1].reasons[2:], *reasons)
        ranked.append(RankedAction(discard, value, reasons, placements.get(kind_of(discard.pai or 0))))
    listed = {id(item.action) for item in ranked}
    for action in legal:
        if id(action) not in listed:
            ranked.append(RankedAction(action, None, ("not chosen",)))
    chosen_key = action_key(chosen)
    ranked.sort(key=lambda item: item.action is not chosen and action_key(item.action) != chosen_key)
    return Decision(chosen, tuple(ranked), riichi_tile)


def _kan_meld(kan: Event) -> Meld:
    kind = kind_of(kan.consumed[0])
    return Meld.of("closed_kan" if kan.kind == "ankan" else "added_kan", [kind] * 4)


def _advised(strategy: Strategy, view: SeatView, discards: Sequence[Event]) -> list[Candidate] | None:
    """The advisor's ranking of every distinct discard (:meth:`Advisor.rank`); None without
    discards, for another strategy or where a win needs fans (the fan planner decides)."""
    if not discards or not isinstance(strategy, Advisor) or view.minimum_fan:
        return None
    return strategy.rank(view)


class _RiichiOption(NamedTuple):
    """Riichi declared with one discard, as the strategy weighs it."""

    thrown: int
    choice: RiichiChoice
    #: The discard's figure dama plus what riichi adds over it (:func:`_over_dama`); in expected
    #: placement points for a strategy that decides in them (:func:`_placed_scale`).
    figure: float
    #: Whether riichi is worth more than the same discard dama, on that scale.
    declares: bool


def _placed_scale(
    strategy: Strategy, view: SeatView, candidates: Sequence[Candidate] | None
) -> dict[int, float] | None:
    """Each searched discard's figure in expected placement points, by kind, for an advisor that
    decides in them (:attr:`~app.core.table.players.Advisor.decides_in_placement`) at a table
    that plays for placement; None for one that decides in points."""
    if not isinstance(strategy, Advisor) or not strategy.decides_in_placement:
        return None
    return discard_placements(strategy, view, candidates) or None


def _riichi_options(
    strategy: Strategy,
    view: SeatView,
    machine: TableMachine,
    seat: int,
    discards: Sequence[Event],
    candidates: Sequence[Candidate] | None,
    placed: Mapping[int, float] | None,
) -> dict[int, _RiichiOption]:
    """Riichi with each discard of ``candidates`` (in their order) that leaves the hand ready, by
    its kind, where the advisor gives that discard a figure and riichi a value (else none).  With
    ``placed`` (the discards' placement figures), each is figured in placement points: that
    discard's, moved by the riichi line's over the dama line's
    (:meth:`~app.core.table.players.Advisor.line_placements`)."""
    if not isinstance(strategy, Advisor) or not strategy.riichi_with_any_ready_discard or not candidates:
        return {}
    options: dict[int, _RiichiOption] = {}
    for candidate in candidates:
        discard = next((d for d in discards if kind_of(d.pai or 0) == candidate.tile), None)
        if discard is None or not machine.ready_after(seat, discard.pai):
            continue
        figure = strategy.discard_value(view, candidate)
        choice = strategy.riichi_choice(view, candidate.tile) if figure is not None else None
        if figure is None or choice is None:
            continue
        if placed is None:
            figure_now = figure[0] + _over_dama(choice)[0]
            options[candidate.tile] = _RiichiOption(candidate.tile, choice, figure_now, choice.riichi)
            continue
        lines = [(choice.riichi_value, choice.riichi_win_probability), (choice.dama_value, choice.win_probability)]
        moved = strategy.line_placements(view, lines)
        if moved is not None and candidate.tile in placed:
            riichi, dama = moved
            options[candidate.tile] = _RiichiOption(
                candidate.tile, choice, placed[candidate.tile] + riichi - dama, riichi > dama
            )
    return options


def _riichi_to_declare(riichis: Mapping[int, _RiichiOption], picked: int, dama_figure: float) -> _RiichiOption | None:
    """The riichi to declare, or None: of those worth more than their own discard dama, the one
    worth most that is the pick's own (``picked``) or worth more than the pick dama
    (``dama_figure``); the first of equals in the ranking's order."""
    return max(
        (
            option
            for option in riichis.values()
            if option.declares and (option.thrown == picked or option.figure > dama_figure)
        ),
        key=lambda option: option.figure,
        default=None,
    )


def _riichi_beats_kan(
    strategy: Strategy,
    view: SeatView,
    meld: Meld,
    riichis: Mapping[int, _RiichiOption],
    candidates: Sequence[Candidate] | None,
    advised: Sequence[Candidate] | None,
    placed: Mapping[int, float] | None,
) -> bool:
    """Whether riichi now (``riichis``: :func:`_riichi_options`), with the discard it is worth
    most with, is worth more than the kan ``meld`` the advisor would declare, both figured as the
    ranking figures them (a kan: the best discard's figure plus the kan's value over it on the
    kan's scale; with ``placed``, in placement points, as :func:`_beside_discards` places it)."""
    if not riichis or not candidates or not isinstance(strategy, Advisor):
        return False
    line = strategy.kan_line(view, meld, advised)
    if line is None:
        return False
    best = candidates[0]
    if placed is not None:
        contested = strategy.contested_line(best)
        if best.tile not in placed or contested is None:
            return False
        lines = [(line.value, line.win_probability), (contested.expected_score, contested.win_probability)]
        moved = strategy.line_placements(view, lines)
        if moved is None:
            return False
        kan, kept_line = moved
        declared_with = _riichi_to_declare(riichis, best.tile, placed[best.tile])
        return declared_with is not None and declared_with.figure > placed[best.tile] + kan - kept_line
    figure = strategy.discard_value(view, best)
    kept = strategy.kan_reference(view, best)
    if figure is None or kept is None:
        return False
    declared_with = _riichi_to_declare(riichis, best.tile, figure[0])
    return declared_with is not None and declared_with.figure > figure[0] + line.value - kept


def _discard_figure(
    strategy: Strategy, view: SeatView, candidates: Sequence[Candidate] | None, kind: int
) -> float | None:
    """The advisor's figure for discarding ``kind`` (:meth:`Advisor.discard_value`), or None."""
    candidate = next((c for c in candidates or () if c.tile == kind), None)
    if candidate is None or not isinstance(strategy, Advisor):
        return None
    figure = strategy.discard_value(view, candidate)
    return None if figure is None else figure[0]


def _ranked_discards(advised: Sequence[Candidate] | None, discards: Sequence[Event]) -> list[Candidate] | None:
    """``advised`` less the kinds ``discards`` does not allow (kuikae, riichi)."""
    if advised is None:
        return None
    allowed = {kind_of(d.pai or 0) for d in discards}
    return [c for c in advised if c.tile in allowed]


def _pick_discard(
    strategy: Strategy, view: SeatView, discards: Sequence[Event], candidates: list[Candidate] | None
) -> Event:
    kinds = [kind_of(d.pai or 0) for d in discards]
    if candidates:
        kind = candidates[0].tile
    else:
        kind = strategy.discard(view)
        if kind not in kinds:
            kind = min(kinds)
    return _physical_discard(discards, kinds, kind)


def _physical_discard(discards: Sequence[Event], kinds: Sequence[int], kind: int) -> Event:
    """The discard of ``kind`` (``kinds``: each discard's): the drawn tile when it is one
    (tsumogiri), a plain five before a red."""
    options = [d for d, of in zip(discards, kinds, strict=True) if of == kind]
    options.sort(key=lambda d: (not d.tsumogiri, is_red(d.pai or 0)))
    return options[0]


def _discard_order(discards: Sequence[Event], candidates: list[Candidate] | None, first: int | None) -> list[Event]:
    """``discards`` in the ranking's order, the kind ``first`` first (the riichi tile of a riichi
    chosen: the discard that declares it)."""
    if not candidates:
        return list(discards)
    order = {candidate.tile: index for index, candidate in enumerate(candidates)}
    if first is not None:
        order[first] = -1
    return sorted(
        discards, key=lambda d: (order.get(kind_of(d.pai or 0), len(order)), not d.tsumogiri, is_red(d.pai or 0))
    )


def _discard_value(
    discard: Event, candidates: list[Candidate] | None, strategy: Strategy, view: SeatView
) -> tuple[float | None, tuple[str, ...]]:
    if not candidates:
        return None, ("the strategy ranks no discards",)
    for candidate in candidates:
        if candidate.tile == kind_of(discard.pai or 0):
            valued = strategy.discard_value(view, candidate) if isinstance(strategy, Advisor) else None
            if valued is not None:
                return round(valued[0], 6), valued[1]
            reasons = [f"shanten {candidate.shanten}", f"{candidate.ukeire_count} tiles improve"]
            if candidate.expected is not None:
                reasons.insert(0, "expected score")
                return round(candidate.expected.expected_score, 6), tuple(reasons)
            reasons.insert(0, "linear score")
            return round(candidate.score, 6), tuple(reasons)
    return None, ("not ranked",)


def win_placement(machine: TableMachine, seat: int, win: Event, view: SeatView) -> float | None:
    """The legal ``win``'s value in expected placement points: the uma of ``seat``'s place when
    the game ends with it, else the rank model's (:mod:`app.core.advice.placement`) from the
    scores after it, with the hands the game has left after it (the next one and those
    scheduled after it, each played 1.3 times on average).  None where the table plays for no
    placement."""
    standing = standing_of(view)
    if standing is None:
        return None
    deltas = machine.win_deltas(seat, win)
    after = machine.after_win(seat, deltas)
    if after is None:
        return None
    uma = uma_for(len(standing.scores), standing.uma)
    if isinstance(after, GameEnd):
        return uma[after.placements.index(seat)]
    hands = 1.0 + _hands_after(machine.table, _ROUND_WINDS.index(after.bakaze), after.kyoku)
    moved = tuple(float(deltas[other]) for other in standing.priority)
    return round(placement_points(standing._replace(hands_after=hands), moved), 6)


def discard_placements(strategy: Strategy, view: SeatView, candidates: Sequence[Candidate] | None) -> dict[int, float]:
    """Each discard the search valued, by kind, in expected placement points
    (:meth:`~app.core.table.players.Advisor.placements`: the outcomes of its figure in points,
    its wins and its deal-ins, each put through the rank model).  Empty where the table plays for
    no placement, the rules have no expected-score model, or no discard was valued (a far hand
    ranked by the linear model)."""
    if not candidates or not isinstance(strategy, Advisor) or standing_of(view) is None or not supports(view.rules):
        return {}
    valued = [candidate for candidate in candidates if candidate.expected is not None]
    if not valued:
        return {}
    found = strategy.placements(view, valued)
    return {c.tile: round(found[id(c)], 6) for c in valued if id(c) in found}


class _Beside(NamedTuple):
    """Riichi or a kan beside the discard it is weighed against (:func:`_beside_discards`)."""

    discard: Candidate
    #: What it adds to the discard's figure in points, summed in this order.
    terms: tuple[float, ...]
    why: str
    #: Its line and the discard's: (value, chance of winning).
    line: tuple[float, float]
    reference: tuple[float, float]


def _beside_discards(
    strategy: Strategy,
    view: SeatView,
    ranked: list[RankedAction],
    candidates: Sequence[Candidate] | None,
    placements: Mapping[int, float],
    kan_lines: Mapping[int, tuple[float, float]],
    dama: tuple[int, RiichiChoice] | None,
) -> list[RankedAction]:
    """``ranked`` with riichi's and the kans' figures standing on the discard each is weighed
    against (riichi: the same tile thrown dama; a kan: the best discard).

    In points: that discard's figure plus what the action adds over it as the advisor weighs
    the two (riichi: the riichi formula's riichi value less its dama value; a kan: its value
    less the discard's on the kan's scale, :meth:`~app.core.table.players.Advisor.kan_reference`).
    The advisor declares exactly when the result is above the discard's figure, so its figures
    and its choice agree.

    In placement points: that discard's figure (``placements``) moved by what the action's line
    adds over the discard's line, both put through
    :meth:`~app.core.table.players.Advisor.line_placements` (riichi and dama by
    :func:`~app.core.advice.actions.riichi_or_dama`'s values and chances of winning; a kan's
    :func:`~app.core.advice.actions.kan_value` against the discard's contested line).  What the
    discard's figure holds beyond its line (its deal-ins) is kept, so the result compares with
    the discards'; it stays within the uma's range.

    Each figure is left as it was where a part of it is missing."""
    if not candidates or not isinstance(strategy, Advisor):
        return ranked
    beside: dict[int, _Beside] = {}
    if dama is not None:
        thrown, choice = dama
        candidate = next((c for c in candidates if c.tile == thrown), None)
        if candidate is not None:
            added, why = _over_dama(choice)
            riichi = (choice.riichi_value, choice.riichi_win_probability)
            for item in ranked:
                if item.action.kind == "reach":
                    beside[id(item.action)] = _Beside(
                        candidate, (added,), why, riichi, (choice.dama_value, choice.win_probability)
                    )
    best = candidates[0]
    kept = strategy.kan_reference(view, best)
    line = strategy.contested_line(best)
    if kept is not None and line is not None:
        for key, (value, win) in kan_lines.items():
            beside[key] = _Beside(
                best,
                (value, -kept),
                f"{value - kept:+,.0f} over the best discard",
                (value, win),
                (line.expected_score, line.win_probability),
            )
    if not beside:
        return ranked
    keys = list(beside)
    standing = standing_of(view)
    lines = [line for key in keys for line in (beside[key].line, beside[key].reference)]
    placed = strategy.line_placements(view, lines) if placements else None
    uma = uma_for(len(standing.scores), standing.uma) if standing is not None else ()
    out = []
    for item in ranked:
        key = id(item.action)
        if key not in beside:
            out.append(item)
            continue
        found = beside[key]
        figure = strategy.discard_value(view, found.discard)
        if figure is not None:
            item = item._replace(value=round(sum(found.terms, figure[0]), 6), reasons=(*item.reasons, found.why))
        base = placements.get(found.discard.tile)
        if placed is not None and uma and base is not None:
            index = 2 * keys.index(key)
            moved = base + placed[index] - placed[index + 1]
            item = item._replace(placement=round(min(max(moved, min(uma)), max(uma)), 6))
        out.append(item)
    return out


def riichi_with(
    strategy: Strategy,
    machine: TableMachine,
    seat: int,
    declaring: Event,
    dama_figure: float,
    stop: Callable[[], bool] | None = None,
) -> tuple[float, tuple[str, ...]] | None:
    """A riichi declared with ``declaring`` (``seat``'s discard now) valued as :func:`decide` ranks
    the advisor's own riichi, with its reasons: ``dama_figure``, the same discard's figure in the
    ranking, plus what riichi adds over dama with it
    (:func:`~app.core.advice.actions.riichi_or_dama`).  A review values this way a riichi the
    seat declared with another tile than the advisor's.  None where the strategy has no riichi
    model for the table or the discard leaves the hand not ready."""
    if not isinstance(strategy, Advisor) or declaring.pai is None or not machine.ready_after(seat, declaring.pai):
        return None
    thrown = kind_of(declaring.pai)
    choice = strategy.riichi_choice(seat_view(machine, seat, stop), thrown)
    if choice is None:
        return None
    added, why = _over_dama(choice)
    return round(dama_figure + added, 6), (*_riichi_reasons(thrown, choice), why)


def _riichi_reasons(thrown: int, choice: RiichiChoice) -> tuple[str, ...]:
    verdict = "riichi is worth more than dama" if choice.riichi else "dama is worth more than riichi"
    return (f"riichi with {format_tile(thrown)}", verdict, *choice.reasons)


def _over_dama(choice: RiichiChoice) -> tuple[float, str]:
    """What riichi adds over the same discard dama, as the ranking sets it beside that discard's
    figure, and the reason that says so."""
    added = choice.riichi_value - choice.dama_value
    return added, f"{added:+,.0f} over the same discard dama"


def _call_placements(
    strategy: Strategy, view: SeatView, appraisal: CallValues | None
) -> tuple[dict[Meld, float], float | None]:
    """Each valued call's and passing's value in expected placement points
    (:meth:`Advisor.line_placements`), the table read once; empty and None where there is none."""
    if appraisal is None or not isinstance(strategy, Advisor):
        return {}, None
    lines = [(call.value, call.win_probability) for call in appraisal.calls]
    placed = strategy.line_placements(view, [*lines, (appraisal.passing, appraisal.passing_win_probability)])
    if placed is None:
        return {}, None
    *calls, passing = (round(value, 6) for value in placed)
    return {call.meld: value for call, value in zip(appraisal.calls, calls, strict=True)}, passing


_ROUND_WINDS: Final = tuple(RoundWind)


# ---------------------------------------------------------------------- /act


def seat_sees(objects: Sequence[object], seat: int) -> list[object]:
    """The events as ``seat`` sees them: the other seats' dealt and drawn tiles are ``?``."""
    out: list[object] = []
    for obj in objects:
        if not isinstance(obj, Mapping):  # not an event: the replay names it
            out.append(obj)
            continue
        kind = obj.get("type")
        if kind == "start_kyoku" and isinstance(obj.get("tehais"), list):
            masked = dict(obj)
            masked["tehais"] = [
                hand if index == seat or not isinstance(hand, list) else [_hidden(tile) for tile in hand]
                for index, hand in enumerate(obj["tehais"])
            ]
            out.append(masked)
        elif kind == "tsumo" and obj.get("actor") != seat:
            masked = dict(obj)
            masked["pai"] = "?"
            out.append(masked)
        elif _passes_unseen(obj, seat) and isinstance(obj.get("pais"), list):
            masked = dict(obj)
            masked["pais"] = [_hidden(tile) for tile in obj["pais"]]
            out.append(masked)
        else:
            out.append(dict(obj))
    return out


def _passes_unseen(obj: Mapping[str, Any], seat: int) -> bool:
    """Sichuan's exchange: another seat's three tiles passed, or received from a third seat."""
    kind = obj.get("type")
    if kind == "exchange_out":
        return obj.get("actor") != seat
    return kind == "exchange_in" and seat not in (obj.get("actor"), obj.get("target"))


def _hidden(tile: object) -> object:
    """``?`` for a tile the seat cannot see; what is no tile stays, for the replay to name."""
    return "?" if isinstance(tile, str) and tile in MJAI_NAMES else tile


def replay(
    objects: Sequence[object],
    rules: RuleProfile,
    *,
    family: Family,
    stop: Callable[[], bool] | None = None,
    machine: TableMachine | None = None,
    first: int = 0,
) -> TableMachine:
    """A machine that has applied every event (each checked), or :class:`IllegalEvent`.

    Given a ``machine`` that has applied the game's first ``first`` events, ``objects`` are
    the events after them: they are applied to it and named by their place in the whole game.
    """
    from app.core.table.machine import Foul

    if machine is None:
        machine = TableMachine(rules, family)
    for index, obj in enumerate(objects, first):
        if stop is not None and index % 64 == 0 and stop():
            raise TimeoutError
        event = read_event(obj, index, rules.seats)
        try:
            machine.apply(event)
        except MalformedEvent as error:
            raise error.of_event(index) from None
        except Foul as foul:
            raise IllegalEvent(f"events[{index}]: {foul.message} ({foul.code})", field=f"events[{index}]") from None
    return machine


#: Events after which their actor has a decision to make: its draw, its call (it must
#: discard), the echo of its riichi (it chooses the declaring discard).
_OWN_DECISION_POINTS: Final = frozenset({"tsumo", "chi", "pon", "reach"})
#: Events after which the other seats have one: a discard or kan they may claim or rob.
_CLAIM_POINTS: Final = frozenset({"dahai", "kakan", "ankan"})
#: Events after which every seat may still have a choice before the first draw (Sichuan's
#: exchange and void suit): the machine says whether this one has.
_BEFORE_PLAY_POINTS: Final = frozenset({"start_kyoku", "exchange_out", "exchange_in", "void_suit"})


def require_decision_point(objects: Sequence[object], seat: int) -> None:
    """Raise :class:`NotADecisionPoint` unless the last event is one where ``seat`` acts:
    ``/act`` is asked at the seat's decision, and not past it (the contract's rule)."""
    last = objects[-1] if objects else None
    kind = last.get("type") if isinstance(last, Mapping) else None
    actor = last.get("actor") if isinstance(last, Mapping) else None
    if (kind in _OWN_DECISION_POINTS and actor == seat) or (kind in _CLAIM_POINTS and actor != seat):
        return
    shown = "no event" if last is None else f"{kind} by seat {actor}" if actor is not None else str(kind)
    raise NotADecisionPoint(
        f"the last event ({shown}) is not a point where seat {seat} acts: send the events up to its tsumo, "
        "its own chi or pon, the echo of its reach, or another seat's dahai, kakan or ankan",
        field="events",
    )


def act(
    objects: Sequence[object],
    seat: int,
    rules: RuleProfile,
    *,
    family: Family,
    strategy: Strategy | None = None,
    stop: Callable[[], bool] | None = None,
    shelf: MachineShelf | None = None,
) -> ActAnswer:
    """What ``seat`` should do after ``objects``: its legal actions, the pick, all ranked.

    The answer depends only on what the seat sees: the other seats' hands and draws are
    hidden before the replay.  The last event must be one where the seat acts
    (:func:`require_decision_point`); after a discard it may not claim, its one action is ``none``.

    With a ``shelf`` (:mod:`app.core.table.resume`) the replay starts from the machine kept
    for the longest prefix of these events it holds, and the machine after all of them is
    kept there: the answer is the same, only the events after the prefix are read and applied.
    """
    if not 0 <= seat < rules.seats:
        raise NotADecisionPoint(f"seat must be 0..{rules.seats - 1}, got {seat}", field="seat")
    machine, kept_as = _seat_machine(objects, seat, rules, family, stop, shelf)
    try:
        answer = _advise(machine, objects, seat, strategy, stop)
    except TenpaiError:  # the question was refused, the machine stands as the events left it
        _put_back(shelf, kept_as, machine)
        raise
    _put_back(shelf, kept_as, machine)
    return answer


def _advise(
    machine: TableMachine,
    objects: Sequence[object],
    seat: int,
    strategy: Strategy | None,
    stop: Callable[[], bool] | None,
) -> ActAnswer:
    last = objects[-1] if objects else None
    before_play = isinstance(last, Mapping) and last.get("type") in _BEFORE_PLAY_POINTS
    if not (before_play and machine.phase in ("exchange", "void") and machine.legal_actions(seat)):
        require_decision_point(objects, seat)
    if machine.hand_open and machine.players[seat].counts[UNKNOWN]:
        raise NotADecisionPoint(f"seat {seat}'s own tiles are hidden (?): it cannot be advised", field="events")
    decision = decide(machine, seat, strategy or Advisor(rng=random.Random(0)), stop=stop)
    legal = machine.legal_actions(seat) or [Event("none")]
    reads = opponent_reads(machine, seat) if machine.family.advisor.reads_opponents and machine.hand_open else ()
    return ActAnswer(
        action_object(decision.action),
        [action_object(action) for action in legal],
        [(action_object(item.action), item.value, item.reasons, item.placement) for item in decision.ranked],
        reads,
    )


def _seat_machine(
    objects: Sequence[object],
    seat: int,
    rules: RuleProfile,
    family: Family,
    stop: Callable[[], bool] | None,
    shelf: MachineShelf | None,
) -> tuple[TableMachine, PrefixKey | None]:
    """The machine after ``objects`` as ``seat`` sees them, and the key to put it back under
    (None: no shelf, or events with no key).  Replayed from the start, or from the longest
    prefix ``shelf`` keeps, taken off it: those events were read and applied, as these, by an
    earlier request (the same bytes, the same seat, the same rules)."""
    digests: dict[int, bytes] | None = None
    if shelf is not None and objects:
        try:
            digests = prefix_digests(objects, shelf.lengths())
        except (ValueError, TypeError, RecursionError):  # not JSON this process can write back: no key
            digests = None
    if shelf is None or digests is None:
        start, resumed, whole = 0, None, None
    else:
        keys = [PrefixKey(rules, seat, count, digest) for count, digest in sorted(digests.items(), reverse=True)]
        found = shelf.take(keys)
        start, resumed = (0, None) if found is None else (found[0].events, found[1])
        whole = keys[0]
    for index in range(start, len(objects)):  # each event's form as sent, before other seats' tiles are hidden
        read_event(objects[index], index, rules.seats)
    # A replay stopped or refused here drops the machine: taken off the shelf, it is never put back.
    machine = replay(seat_sees(objects[start:], seat), rules, family=family, stop=stop, machine=resumed, first=start)
    return machine, whole


def _put_back(shelf: MachineShelf | None, key: PrefixKey | None, machine: TableMachine) -> None:
    if shelf is not None and key is not None:
        shelf.keep(key, machine, machine_size(machine))
