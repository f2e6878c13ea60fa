"""What a riichi win is worth: yaku, han, fu, limits and Tenhou's payments.

The compiled kernel (app/core/kernel/riichi.cpp) checks a request and scores it in one
call; the checks are written here too (:func:`_check_request`), and run only for a request
the kernel refuses, to say why.  Every reading of the hand is
scored and the highest is kept, as the rules say: each way the concealed tiles split into a pair and four groups (or seven
pairs, or thirteen orphans), and within a split each group the winning tile
could have completed (a tile that fits a run on either side is a two-sided
wait in one reading and a closed wait in another).  Readings are ranked by
base points, then han, then fu.

The rules written down here, where riichi rule sets differ, follow Tenhou and
are rule-profile fields (``/rules`` lists them):

* ``open_tanyao`` (default on): all-simples counts with an open hand.
* ``red_fives`` (default on): each red five held is a dora (``aka_dora``).
* ``kazoe_limit`` (default ``"yakuman"``): 13 han or more without a yakuman
  is a counted yakuman; ``"sanbaiman"`` caps it at sanbaiman.
* ``kiriage`` (default off): 4 han 30 fu and 3 han 60 fu round up to mangan.
* ``double_yakuman`` (default on): suuankou tanki, kokushi's 13-sided wait,
  junsei chuuren and daisuushii count as two yakuman.
* ``yakuman_stacking`` (default on): yakuman add up; off, the largest counts.

Fixed choices, all Tenhou's:

* A double wind pair is worth 4 fu; an open hand with 20 fu is scored 30.
* Pinfu on a self-draw is 20 fu (no self-draw fu); seven pairs is 25 fu.
* A triplet completed by a discard counts as open (for fu and sanankou).
* Ippatsu ends with any kong, so a kong replacement win has no ippatsu; a
  kong needs a tile left to draw, so robbing a kong is never on the last tile.
* Sanma: a self-draw on the replacement tile drawn after setting a north
  aside (kita) is rinshan, as at Tenhou: ``kong_replacement`` is accepted with
  a kong among the melds or with ``nuki`` above 0.  Whether a kita ends
  ippatsu is the table's rule, not the hand's, so ``ippatsu`` with
  ``kong_replacement`` is refused only when no north is set aside (the
  replacement then followed a kong); with both a kong and a north set aside
  the caller's flags are taken as given.  A replacement tile is never haitei.
* Dora, red fives and ura dora add han only to a hand that has a yaku, and
  never to a yakuman.  Ura dora count only for a hand in riichi.
* Riichi sticks go to the winner outside the seat payments:
  ``riichi_sticks_won`` is 1000 points a stick.

>>> from app.core.shape.hand import Hand, Meld
>>> from app.core.shape.rules import rule_profile
>>> from app.core.value.scoring import WinContext
>>> from app.core.shape.tiles import parse_mpsz
>>> hand = Hand.from_tiles(parse_mpsz("234456m66p789s"), [Meld.of("pon", [33, 33, 33])])
>>> result = score_riichi(hand, 5, rule_profile("riichi"), WinContext(winner=1, dealer=0, discarder=3))
>>> result.han, result.fu, [y.name for y in result.yaku], result.payments
(1, 30, ['chun'], (0, 1000, 0, -1000))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple, NoReturn

from app.core import _kernel
from app.core.errors import InvalidRuleOption, NotAWinningHand, NoYaku, TooManyCopies, WrongTileCount
from app.core.shape.hand import Hand, MeldKind
from app.core.shape.rules import RuleProfile, SevenPairs
from app.core.shape.tiles import (
    EAST,
    M5,
    MAX_MELDS,
    NORTH,
    NUM_TILE_KINDS,
    P5,
    S5,
    Tile,
    counted,
    dora_table,
    format_tile,
)
from app.core.value.scoring_context import InvalidWinContext, WinContext, check_seats, check_win_tile

MAX_INDICATORS: Final = 5
"""Dora (and ura dora) indicators: one, plus one for each of at most four kongs."""
STICK_POINTS: Final = 1000
HONBA_EACH: Final = 100
"""A honba is worth 100 from each other seat: on a discard the discarder pays them all (300, sanma 200)."""

_RED_FIVE_TILES: Final = (M5, P5, S5)

_MELD_KIND_FIELDS: Final = tuple(f"melds[{index}].kind" for index in range(MAX_MELDS))
_NO_YAKU: Final = 2
"""riichi_score's answer for a complete hand without a yaku (Status::NoYaku in riichi.hpp)."""
_REFUSED: Final = 3
"""riichi_score_checked's answer for a request its checks refuse or do not vouch for (kRefused)."""

#: Limits by name and base points (yakuman: per yakuman counted).
LIMIT_BASE: Final = {"mangan": 2000, "haneman": 3000, "baiman": 4000, "sanbaiman": 6000, "yakuman": 8000}


class YakuHan(NamedTuple):
    """One yaku and its han (a yakuman counts 13 han for each yakuman it is worth)."""

    name: str
    han: int
    #: Yakuman this yaku is worth (0: an ordinary yaku).
    yakuman: int = 0


class FuPart(NamedTuple):
    """One item of the fu count and why (``tile`` for a group or pair)."""

    fu: int
    reason: str
    tile: Tile | None = None


class RiichiScore(NamedTuple):
    """A scored riichi win: the value, the reading behind it, and who pays what."""

    #: Net per seat, honba included, riichi sticks not (they are not seat transfers).
    payments: tuple[int, ...]
    #: (seat, points) for each seat that pays the winner.
    per_payer: tuple[tuple[int, int], ...]
    han: int
    #: 0 for a yakuman (fu do not count there).
    fu: int
    yaku: tuple[YakuHan, ...]
    fu_details: tuple[FuPart, ...]
    #: None, or mangan, haneman, baiman, sanbaiman, yakuman.
    limit: str | None
    #: Yakuman counted (kazoe yakuman: 1); 0 below yakuman.
    yakuman_count: int
    #: Base points (fu x 2^(2 + han), or the limit's).
    base_points: int
    #: Points the winner takes from the table's riichi sticks.
    riichi_sticks_won: int
    #: The winning reading: its form, pair, groups and wait (see :class:`Reading`).
    reading: Reading
    #: Qiqihar's field; riichi has no multipliers (kept for one answer shape).
    multipliers: tuple[()] = ()


class Group(NamedTuple):
    """A set of three or four: a run (``first`` is its lowest tile) or a triplet/kan."""

    is_run: bool
    first: Tile
    #: Concealed (never called; a triplet finished by a discard is not).
    concealed: bool
    is_kan: bool = False


class Reading(NamedTuple):
    """One way to read the winning hand."""

    #: ``regular``, ``seven_pairs`` or ``thirteen_orphans``.
    form: str
    #: The pair (thirteen orphans: the doubled tile); seven pairs: the first pair.
    pair: Tile
    groups: tuple[Group, ...] = ()
    pairs: tuple[Tile, ...] = ()
    #: ``ryanmen``, ``kanchan``, ``penchan``, ``shanpon``, ``tanki`` (seven pairs and
    #: thirteen orphans: ``tanki``; a 13-sided kokushi: ``kokushi_13``).
    wait: str = "tanki"


#: WinContext's fields, in the order _check_situation unpacks them.
_CONTEXT_FIELDS: Final = (
    "winner",
    "dealer",
    "discarder",
    "kong_replacement",
    "robbed_kong",
    "round_wind",
    "dora_indicators",
    "ura_indicators",
    "red_fives",
    "riichi",
    "double_riichi",
    "ippatsu",
    "last_tile",
    "first_turn",
    "honba",
    "riichi_sticks",
    "nuki",
)
if WinContext._fields[: len(_CONTEXT_FIELDS)] != _CONTEXT_FIELDS:
    raise ImportError("WinContext's fields moved: _check_situation unpacks them in _CONTEXT_FIELDS's order")

# The kernel builds RiichiScore answers itself, from these classes and objects it makes once.
_kernel.install_riichi_answers(
    score_type=RiichiScore,
    reading_type=Reading,
    yaku_han_type=YakuHan,
    fu_part_type=FuPart,
    group_type=Group,
    meld_kinds=tuple(MeldKind),
    context_fields=WinContext._fields,
)


def kernel_options(rules: RuleProfile) -> _kernel.RiichiOptions:
    """The riichi scoring options of ``rules``, in the kernel's form, made once per profile object.

    Keyed by identity (a profile's hash and equality read all its fields, which costs more
    than a score); each entry holds its profile, so the id is not reused while it is kept.
    """
    entry = _OPTIONS_BY_PROFILE.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    options = _kernel.RiichiOptions(
        seven_pairs=rules.seven_pairs is not SevenPairs.OFF,
        seven_pairs_quad_as_two=rules.seven_pairs is SevenPairs.QUAD_AS_TWO,
        thirteen_orphans=rules.thirteen_orphans,
        double_yakuman=rules.double_yakuman,
        open_tanyao=rules.open_tanyao,
        kazoe_yakuman=rules.kazoe_limit == "yakuman",
        kiriage=rules.kiriage,
        yakuman_stacking=rules.yakuman_stacking,
        red_fives=rules.red_fives,
        seats=rules.seats,
        tsumo_loss=rules.tsumo_loss,
        dora_of=bytes(dora_table(rules.absent_tiles)),
        # What score_riichi's checks read of the profile, for the kernel's own checks.
        wildcards=bool(rules.wildcards),
        win_requires_meld=sum(1 << index for index, kind in enumerate(MeldKind) if kind in rules.win_requires_meld),
        chi_allowed=rules.chi_allowed,
        absent_tiles=sum(1 << tile for tile in set(rules.absent_tiles)),
    )
    if len(_OPTIONS_BY_PROFILE) >= _OPTIONS_KEPT:
        _OPTIONS_BY_PROFILE.clear()  # requests with their own overrides make a profile each
    _OPTIONS_BY_PROFILE[id(rules)] = (rules, options)
    return options


_OPTIONS_KEPT: Final = 256
_OPTIONS_BY_PROFILE: dict[int, tuple[RuleProfile, _kernel.RiichiOptions]] = {}


# -- points ------------------------------------------------------------------


def _limit_of(han: int, fu: int, rules: RuleProfile) -> tuple[str | None, int]:
    """(limit name, base points) of an ordinary hand (kazoe yakuman included).

    >>> from app.core.shape.rules import rule_profile
    >>> _limit_of(4, 30, rule_profile("riichi")), _limit_of(4, 30, rule_profile("riichi", kiriage=True))
    ((None, 1920), ('mangan', 2000))
    """
    return _kernel.riichi_limit(han, fu, rules.kazoe_limit == "yakuman", rules.kiriage)


def base_points_of(han: int, fu: int, rules: RuleProfile) -> int:
    """The base points of ``han`` and ``fu`` under ``rules`` (limits and kazoe included).

    >>> from app.core.shape.rules import rule_profile
    >>> base_points_of(4, 30, rule_profile("riichi")), base_points_of(6, 30, rule_profile("riichi"))
    (1920, 3000)
    """
    return _limit_of(han, fu, rules)[1]


def riichi_payments(
    base: int,
    winner: int,
    dealer: int,
    discarder: int | None,
    honba: int,
    *,
    seats: int = 4,
    tsumo_loss: bool = True,
) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Tenhou's payments for ``base`` points: net per seat and what each payer pays.

    A discard pays basic x4 (x6 to the dealer), rounded up to 100; on a self-draw each
    other seat pays basic x1 (x2 when the payer or the winner deals), rounded up to 100.
    With three seats the missing north's share is lost on a self-draw (``tsumo_loss``,
    Tenhou's sanma); without tsumo loss each payer adds half of it, rounded up to 100.

    >>> riichi_payments(960, winner=1, dealer=0, discarder=None, honba=1)
    ((-2100, 4300, -1100, -1100), ((0, 2100), (2, 1100), (3, 1100)))
    >>> riichi_payments(2000, winner=1, dealer=0, discarder=None, honba=0, seats=3)
    ((-4000, 6000, -2000), ((0, 4000), (2, 2000)))
    >>> riichi_payments(2000, winner=1, dealer=0, discarder=None, honba=0, seats=3, tsumo_loss=False)
    ((-5000, 8000, -3000), ((0, 5000), (2, 3000)))
    """
    return _kernel.riichi_payments(base, winner, dealer, discarder, honba, seats, tsumo_loss)


def net_payments(winner: int, per_payer: Sequence[tuple[int, int]], seats: int) -> tuple[int, ...]:
    """Each seat's net points when every ``(payer, points)`` pays ``winner``.

    >>> net_payments(1, ((0, 2100), (2, 1100)), 3)
    (-2100, 3200, -1100)
    """
    payments = [0] * seats
    for seat, pays in per_payer:
        payments[seat] -= pays
        payments[winner] += pays
    return tuple(payments)


# -- the situation -----------------------------------------------------------


def _check_situation(
    hand: Hand, win_tile: Tile, context: WinContext, held_total: Sequence[int], rules: RuleProfile
) -> None:
    check_seats(context, rules.seats)
    # Every request passes through here: the fields are read once, in one unpacking (the
    # order is checked against WinContext's at import).
    (
        _,
        _,
        discarder,
        kong_replacement,
        robbed_kong,
        round_wind,
        dora_indicators,
        ura_indicators,
        red_fives,
        riichi,
        double_riichi,
        ippatsu,
        last_tile,
        first_turn,
        honba,
        riichi_sticks,
        nuki,
        *_,
    ) = context
    in_riichi = riichi or double_riichi
    if not EAST <= round_wind <= NORTH:
        raise InvalidWinContext(
            f"round_wind must be a wind (1z..4z), got {format_tile(round_wind)}", field="round_wind"
        )
    if in_riichi and hand.has_open_meld:
        field = "double_riichi" if double_riichi else "riichi"
        raise InvalidWinContext(f"{field} needs a closed hand, but the hand has an open meld", field=field)
    if ippatsu and not in_riichi:
        raise InvalidWinContext("ippatsu needs riichi (or double_riichi)", field="ippatsu")
    if kong_replacement:
        # Sanma: the replacement drawn after a kita is a dead-wall tile too (rinshan).
        after_kita = rules.seats == 3 and nuki > 0
        if not after_kita and not any(meld.kind.size == 4 for meld in hand.melds):
            raise InvalidWinContext(
                "kong_replacement needs a kong among the winner's melds"
                + (" or a north set aside (nuki)" if rules.seats == 3 else ""),
                field="kong_replacement",
            )
        if ippatsu and not after_kita:
            raise InvalidWinContext(
                "a kong ends ippatsu, so a win on a kong's replacement tile has none"
                + (" (with no north set aside, the replacement followed a kong)" if rules.seats == 3 else ""),
                field="ippatsu",
            )
        if last_tile:
            raise InvalidWinContext(
                "a replacement tile (after a kong or a kita) is never the last tile (haitei)", field="last_tile"
            )
    if robbed_kong:
        if hand.counts[win_tile] != 1 or any(win_tile in meld.tiles for meld in hand.melds):
            raise InvalidWinContext(
                f"robbing a kong of {format_tile(win_tile)}: its other three copies are in the kong, "
                "so the winner holds only the robbed one",
                field="robbed_kong",
            )
        if last_tile:
            raise InvalidWinContext("no kong can be declared on the last tile, so none is robbed", field="last_tile")
    if first_turn:
        if discarder is not None:
            raise InvalidWinContext("tenhou and chiihou are self-draws: discarder must be null", field="first_turn")
        if hand.melds:
            raise InvalidWinContext("tenhou and chiihou need a hand with no melds", field="first_turn")
        if in_riichi or kong_replacement or last_tile:
            raise InvalidWinContext(
                "tenhou and chiihou are the first draw: no riichi, replacement tile or last tile", field="first_turn"
            )
    if honba < 0:
        raise InvalidWinContext(f"honba must be 0 or more, got {honba}", field="honba")
    if riichi_sticks < 0:
        raise InvalidWinContext(f"riichi_sticks must be 0 or more, got {riichi_sticks}", field="riichi_sticks")
    total = list(held_total)
    if nuki:
        if rules.seats != 3:
            raise InvalidWinContext("nuki (north tiles set aside) exists only at a three-player table", field="nuki")
        if not 0 < nuki <= 4 - total[NORTH]:
            raise InvalidWinContext(
                f"nuki must be 0..{4 - total[NORTH]} (4 norths less those in hand and melds), got {nuki}",
                field="nuki",
            )
        total[NORTH] += nuki
    if robbed_kong:
        total[win_tile] += 3  # the robbed kong's other three copies are on the table
    for field, indicators in (("dora_indicators", dora_indicators), ("ura_indicators", ura_indicators)):
        if len(indicators) > MAX_INDICATORS:
            raise InvalidWinContext(
                f"{field}: at most {MAX_INDICATORS} indicators (one, plus one a kong), got {len(indicators)}",
                field=field,
            )
        for tile in indicators:
            if not 0 <= tile < NUM_TILE_KINDS:
                raise InvalidWinContext(f"{field}: {tile} is not a tile", field=field)
            total[tile] += 1
            if total[tile] > 4:
                robbed = " and the robbed kong" if robbed_kong and tile == win_tile else ""
                raise TooManyCopies(
                    f"{total[tile]} copies of {format_tile(tile)} in hand, melds{robbed} and indicators; a tile has 4",
                    field=field,
                )
    if red_fives:
        for tile in set(red_fives):
            if tile not in _RED_FIVE_TILES:
                raise InvalidWinContext(f"red_fives: {format_tile(tile)} is not a five of m, p or s", field="red_fives")
            if red_fives.count(tile) > held_total[tile]:
                raise InvalidWinContext(
                    f"{red_fives.count(tile)} red {format_tile(tile)} but {held_total[tile]} held", field="red_fives"
                )


def score_riichi(hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext) -> RiichiScore:
    """Score a riichi win: the highest reading's yaku, han, fu, limit and payments.

    ``hand`` holds the concealed tiles including ``win_tile``.  Raises
    :class:`InvalidWinContext` for a situation that cannot happen,
    :class:`~app.core.errors.NotAWinningHand` for a hand that is not complete and
    :class:`NoYaku` for a complete hand without a yaku.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.value.scoring import WinContext
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("123456789m11p456s"))
    >>> result = score_riichi(hand, 8, rule_profile("riichi"), WinContext(winner=0, dealer=0, riichi=True))
    >>> [(y.name, y.han) for y in result.yaku], result.fu, result.limit, result.payments
    ([('riichi', 1), ('menzen_tsumo', 1), ('pinfu', 1), ('ittsu', 2)], 20, 'mangan', (12000, -4000, -4000, -4000))
    """
    # The kernel checks the request as _check_request does and scores it, in one call; only a
    # request it refuses (or does not vouch for) comes back to Python, to be told why.
    known = _OPTIONS_BY_PROFILE.get(id(rules))  # kernel_options(rules), without the call
    options = known[1] if known is not None and known[0] is rules else _options_or_none(rules)
    if options is None:
        return _score_refused(hand, win_tile, rules, context)
    scored = _kernel.riichi_score_checked(hand, win_tile, options, context)
    if isinstance(scored, int):
        return _score_refused(hand, win_tile, rules, context) if scored == _REFUSED else _raise_status(scored, rules)
    return scored


def score_riichi_payments(hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext) -> tuple[int, ...]:
    """:func:`score_riichi`'s ``payments`` alone (net per seat, honba included), with its checks
    and errors: for callers that want what a win pays and nothing else, so that no
    :class:`RiichiScore` is built.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> hand = Hand.from_tiles(parse_mpsz("123456789m11p456s"))
    >>> score_riichi_payments(hand, 8, rule_profile("riichi"), WinContext(winner=0, dealer=0, riichi=True))
    (12000, -4000, -4000, -4000)
    """
    known = _OPTIONS_BY_PROFILE.get(id(rules))
    options = known[1] if known is not None and known[0] is rules else _options_or_none(rules)
    if options is None:
        return _score_refused(hand, win_tile, rules, context).payments
    paid = _kernel.riichi_payments_checked(hand, win_tile, options, context)
    if isinstance(paid, int):
        if paid == _REFUSED:
            return _score_refused(hand, win_tile, rules, context).payments
        _raise_status(paid, rules)
    return paid


def _options_or_none(rules: RuleProfile) -> _kernel.RiichiOptions | None:
    """``kernel_options(rules)``, or None for a profile the kernel cannot take (seats other than 3
    or 4, made without ``rule_profile``): its requests are checked in Python first, as before."""
    try:
        return kernel_options(rules)
    except ValueError:
        return None


def _score_refused(hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext) -> RiichiScore:
    """Score a request the kernel's checks refused: the Python checks raise the error.  A
    request they pass (one the kernel does not vouch for, such as a bool for a tile count or a
    list of indicators) is scored by the kernel without its checks, as before them."""
    _check_request(hand, win_tile, rules, context)
    scored = _kernel.riichi_score(hand, win_tile, kernel_options(rules), context)
    if isinstance(scored, int):
        _raise_status(scored, rules)
    return scored


def _raise_status(status: int, rules: RuleProfile) -> NoReturn:
    """Raise the error of the kernel's ``status`` for a request it checked: no yaku, or not a win."""
    if status == _NO_YAKU:
        raise NoYaku("the hand is complete but has no yaku, so it cannot be declared a win", field="hand")
    raise NotAWinningHand(f"the hand does not win under {rules.name} rules", field="hand")


def _check_request(hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext) -> None:
    """Every check of a request, in Python: raise the first error it has (the kernel's
    ``riichi_score_checked`` answers 3 for every request this refuses)."""
    check_win_tile(hand.counts, win_tile)
    groups_declared = len(hand.melds)
    if hand.tile_count + 3 * groups_declared != 14:
        raise WrongTileCount(
            f"a winning hand has 14 tiles with each meld counted as 3; got {hand.tile_count} concealed "
            f"with {counted(groups_declared, 'meld')}",
            field="hand",
        )
    if rules.wildcards:
        raise InvalidRuleOption(
            f"riichi scoring has no wildcards; {rules.name} with wildcards cannot be scored", field="rules.wildcards"
        )
    if rules.win_requires_meld and not any(meld.kind in rules.win_requires_meld for meld in hand.melds):
        raise NotAWinningHand(
            f"the hand does not win under these {rules.name} rules (open_meld_required)", field="hand"
        )
    total = hand.all_counts()
    if rules.absent_tiles:
        rules.check_tiles_exist([t for t in rules.absent_tiles if hand.counts[t]], field="hand")
        for index, meld in enumerate(hand.melds):
            rules.check_tiles_exist(meld.tiles, field=f"melds[{index}].tiles")
        rules.check_tiles_exist(context.dora_indicators, field="dora_indicators")
        rules.check_tiles_exist(context.ura_indicators, field="ura_indicators")
    if hand.melds:
        for index, meld in enumerate(hand.melds):
            rules.check_meld_allowed(meld.kind, field=_MELD_KIND_FIELDS[index])
    _check_situation(hand, win_tile, context, total, rules)
