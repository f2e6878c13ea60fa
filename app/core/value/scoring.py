"""What a win pays: scoring profiles found by name (riichi and sanma in riichi_scoring, MCR in
mcr_scoring), and Qiqihar's here (seed 004 section 4).

Qiqihar scoring is a base of 1 doubled for each condition that applies:

* the way of winning: self-draw (all three others pay) or on a discard (the
  discarder alone pays), which doubles either way;
* 红中 (the wildcard) held in the winning hand's concealed tiles;
* a win on a kong replacement tile (杠上开花);
* robbing a kong (抢杠胡; the player who declared the kong pays, as a discarder);
* per payer, the dealer involved: when the winner or that payer is the dealer.

The seed's worked example: the dealer self-draws holding 红中, so each of the
three pays 1 x 2 (self-draw) x 2 (红中) x 2 (dealer) = 8, 24 in all.

>>> from app.core.shape.hand import Hand, Meld
>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import parse_mpsz
>>> hand = Hand.from_tiles(parse_mpsz("123m456p78s99s7z"), [Meld.of("pon", [27, 27, 27])])
>>> result = score(hand, 26, rule_profile("qiqihar"), WinContext(winner=0, dealer=0))
>>> result.payments, [(m.name, m.factor) for m in result.multipliers]
((24, -8, -8, -8), [('self_draw', 2), ('red_dragon_held', 2), ('dealer', 2)])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Final, NamedTuple

from app.core.errors import BelowMinimumFan, NotAWinningHand, NoYaku, TenpaiError
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import EAST, RED, Tile
from app.core.value.mcr_scoring import MINIMUM_FAN, McrScore, score_mcr
from app.core.value.riichi_scoring import RiichiScore, score_riichi, score_riichi_payments
from app.core.value.scoring_context import InvalidWinContext, WinContext, check_seats, check_win_tile
from app.core.value.sichuan_scoring import SichuanScore, score_sichuan


class Multiplier(NamedTuple):
    """One doubling (or more) and why."""

    name: str
    factor: int


class ScoreResult(NamedTuple):
    """Net payment per seat (summing to zero), the multipliers, and what each payer pays."""

    payments: tuple[int, ...]
    multipliers: tuple[Multiplier, ...]
    per_payer: tuple[tuple[int, int], ...]


def _qiqihar(hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext) -> ScoreResult:
    check_seats(context, rules.seats)
    check_win_tile(hand.counts, win_tile)
    if context.kong_replacement and not any(meld.kind.size == 4 for meld in hand.melds):
        raise InvalidWinContext("kong_replacement needs a kong among the winner's melds", field="kong_replacement")
    result = Checker(rules).win(hand, limit=1)
    if not result.win:
        why = f" ({result.reason})" if result.reason else ""
        raise NotAWinningHand(f"the hand does not win under {rules.name} rules{why}", field="hand")
    shared = [Multiplier("self_draw", 2) if context.discarder is None else Multiplier("discard_win", 2)]
    if hand.counts[RED]:
        shared.append(Multiplier("red_dragon_held", 2))
    if context.kong_replacement:
        shared.append(Multiplier("kong_replacement", 2))
    if context.robbed_kong:
        shared.append(Multiplier("robbed_kong", 2))
    base = 1
    for multiplier in shared:
        base *= multiplier.factor
    payers = (
        [seat for seat in range(rules.seats) if seat != context.winner]
        if context.discarder is None
        else [context.discarder]
    )
    per_payer = tuple((seat, base * (2 if context.dealer in (seat, context.winner) else 1)) for seat in payers)
    payments = [0] * rules.seats
    for seat, pays in per_payer:
        payments[seat] -= pays
        payments[context.winner] += pays
    dealer_involved = any(context.dealer in (seat, context.winner) for seat in payers)
    listed = tuple(shared) + ((Multiplier("dealer", 2),) if dealer_involved else ())
    return ScoreResult(tuple(payments), listed, per_payer)


Scorer = Callable[[Hand, Tile, RuleProfile, WinContext], "ScoreResult | RiichiScore | McrScore | SichuanScore"]

#: Scoring profiles by rules preset name: each validates the situation and the hand itself.
SCORING: Final[Mapping[str, Scorer]] = MappingProxyType(
    {"qiqihar": _qiqihar, "riichi": score_riichi, "sanma": score_riichi, "mcr": score_mcr, "sichuan": score_sichuan}
)


_RIICHI_SITUATION: Final = frozenset(
    {
        "round_wind",
        "dora_indicators",
        "ura_indicators",
        "riichi",
        "double_riichi",
        "ippatsu",
        "last_tile",
        "first_turn",
        "honba",
        "riichi_sticks",
        "nuki",
    }
)
#: The situation fields each scoring profile reads, beyond the seats, the discarder and the
#: kong flags (which every profile reads).  The HTTP layer refuses a non-default value of
#: any other field, so that a flag a profile would ignore is never silently dropped.
SITUATION_FIELDS: Final[Mapping[str, frozenset[str]]] = MappingProxyType(
    {
        "qiqihar": frozenset(),
        "riichi": _RIICHI_SITUATION,
        "sanma": _RIICHI_SITUATION,
        "mcr": frozenset({"round_wind", "seat_wind", "flowers", "last_tile", "last_copy"}),
        "sichuan": frozenset({"first_turn", "void_suit", "after_kong", "in_hand", "kong_feeder"}),
    }
)
#: Situation fields that some profile reads (the rest of WinContext is read by every profile).
OPTIONAL_SITUATION: Final = frozenset().union(*SITUATION_FIELDS.values())


#: Scoring profiles under which a win needs fans, and how many (flowers not counted): the
#: strategies and the discard advisor aim for them.
MINIMUM_FANS: Final[Mapping[str, int]] = MappingProxyType({"mcr": MINIMUM_FAN})

#: What a scoring profile raises for a complete hand it does not let win: riichi's hand
#: without a yaku, MCR's hand under 8 fans.  /win with a situation answers these as
#: ``win: false`` with the code as ``reason``; the table simulator lets the seat play on.
REFUSALS: Final = (NoYaku, BelowMinimumFan)


def score(
    hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext
) -> ScoreResult | RiichiScore | McrScore | SichuanScore:
    """What the winning ``hand`` (concealed tiles including ``win_tile``) pays under ``rules``.

    Raises :class:`NotAWinningHand` when the hand does not win under the rules,
    :class:`InvalidWinContext` for impossible seats or flags, and the profile's
    refusals (:data:`REFUSALS`): riichi's :class:`~app.core.errors.NoYaku` for a complete
    hand without a yaku, MCR's :class:`~app.core.errors.BelowMinimumFan` under 8 fans.
    """
    scoring = SCORING.get(rules.name)
    if scoring is None:
        raise InvalidWinContext(
            f"no scoring profile for rules {rules.name!r}; scoring profiles: {', '.join(SCORING)}", field="rules"
        )
    return scoring(hand, win_tile, rules, context)


#: Profiles that can tell a win's payments without building its whole answer.
_PAYMENTS_ONLY: Final[Mapping[str, Callable[[Hand, Tile, RuleProfile, WinContext], tuple[int, ...]]]] = (
    MappingProxyType({"riichi": score_riichi_payments, "sanma": score_riichi_payments})
)


def win_payments(hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext) -> tuple[int, ...]:
    """``score(hand, win_tile, rules, context).payments``, with the same errors, for callers that
    need what a win pays (or whether it scores) and nothing more: riichi and sanma take them
    from the kernel without building the score's yaku, fu and reading.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("123456789m11p456s"))
    >>> win_payments(hand, 8, rule_profile("riichi"), WinContext(winner=0, dealer=0, riichi=True))
    (12000, -4000, -4000, -4000)
    """
    only = _PAYMENTS_ONLY.get(rules.name)
    if only is not None:
        return only(hand, win_tile, rules, context)
    return score(hand, win_tile, rules, context).payments


class SelfDraw(NamedTuple):
    """Whether a complete 3n+2 hand may be declared a self-draw win (tsumo) instead of a discard."""

    #: The hand wins as it stands under the rules' shape conditions, as /win answers for it
    #: (Qiqihar: an open meld among the melds).
    win: bool
    #: The scoring profile's verdict on that win: True when it scores whichever of the
    #: hand's tiles was the one drawn and at every seat considered, False when in no case,
    #: None when it depends on them, when the rules have no scoring profile, or when the hand
    #: does not win.
    declarable: bool | None = None
    #: Why not: the shape's reason (``open_meld_required``) when ``win`` is False, or the
    #: profile's refusal (``no_yaku``, ``below_minimum_fan``) when ``declarable`` is False.
    reason: str | None = None
    #: The profile's refusal, for a person (when ``declarable`` is False).
    refusal: str | None = None


def self_draw(hand: Hand, rules: RuleProfile, *, seat_wind: Tile | None = None, round_wind: Tile = EAST) -> SelfDraw:
    """Whether ``hand`` (its concealed tiles including the one just drawn) may be declared a
    self-draw win under ``rules``, and what its scoring profile says.

    The tile drawn is not known, so each distinct concealed tile is tried as the winning one;
    an unknown ``seat_wind`` (None) tries every seat of the table (the dealer East).  Only
    what the hand and the winds decide is judged: dora add no yaku, and the situation's own
    extras (the last tile of the wall, a kong replacement, riichi) are not assumed.

    >>> from app.core.shape.hand import Meld
    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> riichi = rule_profile("riichi")
    >>> self_draw(Hand.from_tiles(parse_mpsz("123m456p789s11122z")), riichi)  # closed: menzen tsumo
    SelfDraw(win=True, declarable=True, reason=None, refusal=None)
    >>> open_hand = Hand.from_tiles(parse_mpsz("456p23478999s"), [Meld.of("chi", [0, 1, 2])])
    >>> self_draw(open_hand, riichi)[:3]
    (True, False, 'no_yaku')
    >>> self_draw(Hand.from_tiles(parse_mpsz("123m456p789s11z777z")), rule_profile("qiqihar"))
    SelfDraw(win=False, declarable=None, reason='open_meld_required', refusal=None)
    """
    shape = Checker(rules).win(hand, limit=1)
    if not shape.win:
        return SelfDraw(False, reason=shape.reason)
    if rules.name not in SCORING:
        return SelfDraw(True)
    winners = range(rules.seats) if seat_wind is None else (seat_wind - EAST,)
    drawn = [tile for tile, count in enumerate(hand.counts) if count]
    scored = False
    refused: TenpaiError | None = None
    for winner in winners:
        context = WinContext(winner=winner, dealer=0, round_wind=round_wind)
        for tile in drawn:
            try:
                win_payments(hand, tile, rules, context)
                scored = True
            except (*REFUSALS, NotAWinningHand) as refusal:
                refused = refused or refusal
            except TenpaiError:  # a case the profile cannot judge (e.g. an override it does not score)
                return SelfDraw(True)
            if scored and refused is not None:
                return SelfDraw(True)  # it depends on the tile drawn or the seat
    if refused is None:
        return SelfDraw(True, True)
    return SelfDraw(True, False, refused.code, refused.message)
