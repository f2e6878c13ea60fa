"""How likely a discard is to deal into an opponent's hand, and why.

Safety is the probability of *not* dealing in: ``safety = 1 - danger`` against one
opponent, and the product of those over all opponents (the chance that nobody can
win on the tile, taking the opponents as independent).

The model, for one tile ``t`` against one opponent
-----------------------------------------------------
``danger = ready_probability * danger_if_ready``, then 0 if the rules say the
opponent cannot win at all (Qiqihar without an exposed pon or kong).

``ready_probability``
    1 after a declaration (``riichi``).  Otherwise an estimate of how often a
    player is tenpai.  A closed hand that has not declared reads the share of
    such hands ready by the turns left in the live wall (mjai-manue's
    ``yamitenStats``, Tenhou houou games: 1.3 % with 12 turns left, 4.3 % with 9,
    9.9 % with 3): most ready closed hands declare, so a silent one is rarely
    ready.  (``ClosedRates.ALL_PLAYERS`` reads instead the share of all players
    tenpai by their n-th discard, declarers included, koba::blog, 2016 Tenhou
    houou: 5.0 % after 5 discards, 23.1 % after 9, 40.6 % after 14: the model
    before, kept for the ``near`` advisor; and the rate under rules without a
    declaration, no riichi furiten, where every closed hand is silent.)  A hand with k calls reads the larger
    of that share of all players and mahjong-helper's tenpai rate with k calls by
    turn and by the discards made from the hand since the call (30 % at turn 9
    right after a first call, 59 % after three more from the hand: each is a step
    the hand made; a tile thrown as drawn is not counted); four calls always wait.

``danger_if_ready`` for a number tile
    The published deal-in table against a riichi (mahjong-helper ``RiskData``,
    by turn and by category) is read as a function of which of the tile's ryanmen
    (two-sided) waits are still possible.  A tile ``n`` is hit by the ryanmen
    ``(n+1, n+2)`` (its suji partner is ``n+3``) and by ``(n-2, n-1)`` (partner
    ``n-3``); 1-3 and 7-9 have one such side, 4-6 two.  Each side gets an
    *open weight* in 0..1, the table gives the rate at every corner (all open =
    no suji, all closed = suji / double suji, one closed = half suji), and the
    rate in between is the multilinear blend of the corners.  A side's weight is

    * **suji / genbutsu evidence**: 0 when its partner is in the opponent's
      river, or passed after their declaration, *and the rules have furiten*
      (a riichi player cannot win on a tile they discarded, so the ryanmen that
      waits on it is impossible).  Without furiten (``chinese``, ``qiqihar``) the
      evidence only leaks: the weight is ``SUJI_LEAK`` (ours);
    * **kabe / no chance / one chance**: times ``keep(u1) * keep(u2)`` for the
      two tiles the ryanmen needs, ``u`` being copies unseen from our view.
      ``keep(u)`` is the chance that the opponent holds at least one of ``u``
      unseen copies, ``1 - (1 - h)**u`` with ``h`` = their concealed tiles over
      all unseen tiles, relative to ``u = 3`` and capped at 1: so 0 copies
      (no chance) closes the side, 1 copy (one chance) keeps about 40 % of it.
      gimite's counts (no chance 3.0-3.7 %, one chance 7.4-7.9 %, against
      11.2-11.4 % for comparable tiles) are of the same size.

    The part of the rate that is not ryanmen (the table's all-closed corner:
    single, double-pair, kanchan and penchan waits) is split into single-tile
    waits (the suji-1/9 rate, which can only be those) and the rest.  Single-tile
    waits need a copy of ``t`` itself: none unseen, none possible.  Kanchan
    ``(n-1, n+1)`` and penchan (12 for 3, 89 for 7) are weighted by ``keep`` of
    the tiles they need.  An **early outside** tile (outside a 2-4 or 6-8 the
    opponent discarded among their first five) keeps 40 % of its danger (mahjong-helper's factor, after 『科学する麻雀』; gimite:
    3.8-4.6 % against 11.2-11.4 %).

``danger_if_ready`` for an honour
    The table's honour column for the copies left unseen (3, 2 or 1; 0: no
    copy left, no wait possible; thirteen orphans is ignored).  Dragons and the
    opponent's ``value_winds`` (its seat wind and the round's, where the caller
    knows them) use the value-honour column, other winds the guest-wind column.

**Dora.**  A tile that is dora (``dora`` to :func:`assess`) has its danger scaled
by the published dora rate over the plain one at turn 9 for its category (by the
suji evidence, or the honour's copies left; mahjong-helper: 1.16 for a no-suji 5,
1.94 for a suji 1 or 9): a player keeps a dora, so their wait holds it more often.
Every ratio is above 1, so a dora is never read safer than the same tile plain.

**Genbutsu.**  A tile in the opponent's river (or, under furiten rules, one that
passed them after their declaration, or since their last discard: same-turn furiten) is safe
under furiten: danger 0.  Without
furiten it keeps ``GENBUTSU_LEAK`` of its danger (ours).

**Wildcards.**  An opponent holding a wildcard can complete shapes that the
visible tiles rule out, so with the chance ``p`` that they hold one
(``1 - (1 - h)**w``, ``w`` wildcard copies unseen) the danger is blended toward the
tile's plain no-suji rate: ``(1 - p) * danger + p * plain`` (ours).

**Turn.**  The table row (1..19) and the tenpai estimate use the game's ``turn``
when it is given (players discard in step, and a river may leave out tiles that
were called), else the number of tiles in the opponent's river, else
``POOLED_TURN``.  Passes after a declaration are read from the other opponents'
rivers: their tiles from position ``riichi_turn`` on (0-based) were discarded after
it, assuming no call skipped a turn (ours).

Numbers that are ours, not published: ``GENBUTSU_LEAK``, ``SUJI_LEAK``, the
reference ``u = 3`` of ``keep``, the wildcard blend, the single-wait share, the
turns left read from a seat's discards where the wall is not known, and the riichi tables standing
in for Chinese and Qiqihar play.  Self-play checked the last of these
(``scripts/measure_ready_rates.py --games 2000 --seed 7``, four advisors): in
Chinese play the share of closed hands ready after their 5th / 9th / 13th
discard was 4.0 / 23.6 / 46.3 % (Tenhou: 5.0 / 23.1 / 38.4 %), and of hands with one
meld 9.3 / 31.2 / 56.5 % (mahjong-helper at the call: 8.6 / 30.1 / 49.2 %); in
Qiqihar, hands with one meld were ready less often (10.9 / 22.8 / 24.0 %: many
first melds are chi, which does not open a Qiqihar hand), so the tables err on
the side of caution there.  The published tables stay.

>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import parse_mpsz, counts_from_tiles
>>> river = tuple(parse_mpsz("28m1z"))                 # declared riichi with the 1z
>>> unseen = bytes(4 - c for c in counts_from_tiles(list(river) + parse_mpsz("2555m1z4p")))
>>> declared = Opponent(river=river, riichi=True, riichi_turn=3)
>>> for rules in ("riichi", "chinese"):
...     verdicts = assess(declared, parse_mpsz("25m1z4p"), unseen=unseen, rules=rule_profile(rules))
...     print(rules, [(round(v.safety, 3), v.reasons) for v in verdicts])
riichi [(1.0, ('genbutsu',)), (0.984, ('double_suji',)), (1.0, ('genbutsu',)), (0.92, ('no_suji',))]
chinese [(0.971, ('genbutsu', 'no_furiten', 'no_suji')), (0.949, ('double_suji', 'no_furiten')), (0.994, ('genbutsu', 'no_furiten', 'honor_one_seen')), (0.92, ('no_suji',))]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache, partial
from typing import Final, NamedTuple

from app.core.advice.open_tenpai import DrawnDiscards, open_ready_probability
from app.core.advice.safety_tables import (
    DEAL_IN_BY_TURN,
    DORA_DEAL_IN_TURN_9,
    FIRST_TURN,
    LAST_TURN,
    OPEN_TENPAI_AFTER_HAND_DISCARDS,
    POOLED_TURN,
    SILENT_CLOSED_TENPAI,
    TENPAI_SHARE_BY_TURN,
    Category,
)
from app.core.errors import TenpaiError
from app.core.shape.hand import Meld
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import DRAGONS, EAST, Counts, Tile, counted, is_honor

GENBUTSU_LEAK: Final = 0.5
"""Without furiten: share of a tile's danger left when it is in the opponent's river (ours)."""
SUJI_LEAK: Final = 0.6
"""Without furiten: share of a ryanmen side's weight left when its suji partner is in the river (ours)."""
EARLY_DISCARDS: Final = 5
"""Discards that count as early for the early-outside rule (mahjong-helper: before turn 5)."""
EARLY_OUTSIDE_FACTOR: Final = 0.4
"""Danger kept by an early-outside tile (mahjong-helper, after 『科学する麻雀』)."""
KEEP_REFERENCE_COPIES: Final = 3
"""``keep(u)`` is relative to this many unseen copies of a needed tile (ours: a typical count)."""
HAND_SIZE: Final = 13
#: The most turns left in a four-seat live wall: 70 tiles at the deal, 17 rounds of draws and more.
LAST_TURNS_LEFT: Final = len(SILENT_CLOSED_TENPAI) - 1


class InvalidOpponent(TenpaiError):
    """An opponent whose fields contradict each other (e.g. a riichi turn past their river)."""

    code = "invalid_opponent"


class Reason(StrEnum):
    """Why a tile is as safe as it is against one opponent (stable codes)."""

    GENBUTSU = "genbutsu"
    PASSED_AFTER_RIICHI = "passed_after_riichi"
    #: Another seat discarded it after the opponent's last discard: had it been a wait, the
    #: opponent would have won on it or be furiten now (same-turn furiten).
    PASSED_SINCE_DISCARD = "passed_since_discard"
    NO_SUJI = "no_suji"
    HALF_SUJI = "half_suji"
    SUJI = "suji"
    DOUBLE_SUJI = "double_suji"
    NO_FURITEN = "no_furiten"
    NO_CHANCE = "no_chance"
    ONE_CHANCE = "one_chance"
    ALL_COPIES_VISIBLE = "all_copies_visible"
    EARLY_OUTSIDE = "early_outside"
    DORA = "dora"
    HONOR_FRESH = "honor_fresh"
    HONOR_ONE_SEEN = "honor_one_seen"
    HONOR_TWO_SEEN = "honor_two_seen"
    WILDCARD_RISK = "wildcard_risk"
    NOT_DECLARED = "not_declared"
    CANNOT_WIN = "cannot_win"


class ClosedRates(StrEnum):
    """Which published rate reads a closed seat that has not declared."""

    #: Of closed hands that have not declared, the share ready (mjai-manue's ``yamitenStats``),
    #: by the turns left in the live wall: 4.3 % with 9 left.
    SILENT = "silent"
    #: Of all players, the share ready after their n-th discard, declared or not (koba::blog):
    #: 23.1 % after 9.  The model before issue #36's reads (the ``near`` advisor, whose figures
    #: were measured with it).
    ALL_PLAYERS = "all_players"


class OpenRates(StrEnum):
    """Which rate reads a seat with calls that has not declared."""

    #: mahjong-helper's published rate by calls, turn and hand discards after the call.
    PUBLISHED = "published"
    #: That rate and what else the table shows of the seat, weighed by a logistic read fitted on
    #: self-play (:mod:`app.core.advice.open_tenpai`).
    FITTED = "fitted"


@dataclass(frozen=True, slots=True)
class Opponent:
    """What is known of one opponent: their river in order, their declaration, their melds.

    ``riichi_turn`` is the 1-based position in ``river`` of the tile they declared
    with (None: not known, or no declaration).  ``value_winds`` are the winds worth a
    yaku to them, their seat wind and the round's (empty: not known, every wind reads
    as a guest wind).  ``hand_discards_after_call`` counts the tiles they discarded from
    the hand, not the one just drawn, after the discard that followed their last call
    (0: not known, or none; the open-hand tenpai rates rise with it).  ``passed_since_discard``
    holds the kinds the other seats discarded after the opponent's last discard: under furiten
    rules none of them deals into it (had one been a wait, it would have won on it or be furiten
    now), and a ryanmen waiting on one is ruled out as a suji is.  ``tsumogiri`` says, for each
    tile of ``river``, whether it was the tile just drawn, and ``calls_at`` the river's length at
    each of their chi, pon and open kan: with both known the open-hand tenpai read weighs them
    (None and empty: not known).
    """

    river: tuple[Tile, ...] = ()
    riichi: bool = False
    riichi_turn: int | None = None
    melds: tuple[Meld, ...] = ()
    value_winds: frozenset[Tile] = frozenset()
    hand_discards_after_call: int = 0
    passed_since_discard: frozenset[Tile] = frozenset()
    tsumogiri: tuple[bool, ...] | None = None
    calls_at: tuple[int, ...] = ()

    @property
    def called(self) -> bool:
        """Whether the seat made a meld from another seat's tile (a closed kan leaves it closed)."""
        return any(meld.kind.is_open for meld in self.melds)

    def validate(self) -> None:
        """Raise :class:`InvalidOpponent` (field ``riichi_turn``, ``tsumogiri`` or ``calls_at``)
        for a contradiction.

        >>> Opponent(river=(0,), riichi=True, riichi_turn=2).validate()
        Traceback (most recent call last):
        ...
        app.core.advice.safety.InvalidOpponent: riichi_turn 2 is past the river's 1 tile; it is the position of the declaration tile
        >>> Opponent(river=(0, 1), tsumogiri=(True,)).validate()
        Traceback (most recent call last):
        ...
        app.core.advice.safety.InvalidOpponent: tsumogiri has 1 flag for a river of 2 tiles; it has one for each tile
        """
        if self.riichi_turn is not None:
            if not self.riichi:
                raise InvalidOpponent("riichi_turn is set but riichi is false", field="riichi_turn")
            if not 1 <= self.riichi_turn <= len(self.river):
                raise InvalidOpponent(
                    f"riichi_turn {self.riichi_turn} is past the river's {counted(len(self.river), 'tile')}; "
                    "it is the position of the declaration tile",
                    field="riichi_turn",
                )
        if self.tsumogiri is not None and len(self.tsumogiri) != len(self.river):
            raise InvalidOpponent(
                f"tsumogiri has {counted(len(self.tsumogiri), 'flag')} for a river of "
                f"{counted(len(self.river), 'tile')}; it has one for each tile",
                field="tsumogiri",
            )
        if not self.calls_at:
            return
        if self.tsumogiri is None:
            raise InvalidOpponent("calls_at is read with tsumogiri, which is not given", field="calls_at")
        calls = sum(1 for meld in self.melds if meld.kind.is_open)
        if len(self.calls_at) != calls:
            raise InvalidOpponent(
                f"calls_at has {counted(len(self.calls_at), 'place')} for {counted(calls, 'called meld')}; "
                "it has one for each chi, pon and open kan",
                field="calls_at",
            )
        if list(self.calls_at) != sorted(self.calls_at) or not 0 <= self.calls_at[0] <= self.calls_at[-1] < len(
            self.river
        ):
            raise InvalidOpponent(
                f"calls_at {list(self.calls_at)}: each is the river's length at a call, in order, and every call "
                f"is followed by a discard of the river's {counted(len(self.river), 'tile')}",
                field="calls_at",
            )


class TileSafety(NamedTuple):
    """One tile against one opponent."""

    #: Probability of not dealing in: ``1 - danger``.
    safety: float
    #: Probability of dealing in: ``ready_probability * danger_if_ready``.
    danger: float
    #: Probability of dealing in if the opponent is ready.
    danger_if_ready: float
    #: How likely the opponent is ready (1 after a declaration).
    ready_probability: float
    reasons: tuple[str, ...]


class DefenceRules(NamedTuple):
    """What the danger model needs to know of a rule profile."""

    furiten: bool
    genbutsu_leak: float
    suji_leak: float
    wildcards: tuple[Tile, ...]
    win_requires_meld: frozenset[str]
    #: How a closed seat that has not declared is read: where the rules have riichi's furiten
    #: a ready closed hand may declare, and the silent ones are read by their own rate; under
    #: rules without a declaration every closed hand is silent, read by the share of all players.
    closed_rates: ClosedRates = ClosedRates.SILENT
    #: How a seat with calls is read: where the rules have riichi's furiten (the riichi tables the
    #: read was fitted at), by the fitted read; else by the published rate.
    open_rates: OpenRates = OpenRates.PUBLISHED


def defence_rules(rules: RuleProfile) -> DefenceRules:
    """The danger model's view of ``rules``.

    >>> from app.core.shape.rules import rule_profile
    >>> defence_rules(rule_profile("riichi"))[:3], defence_rules(rule_profile("chinese"))[:3]
    ((True, 0.0, 0.0), (False, 0.5, 0.6))
    >>> defence_rules(rule_profile("riichi")).closed_rates, defence_rules(rule_profile("chinese")).closed_rates
    (<ClosedRates.SILENT: 'silent'>, <ClosedRates.ALL_PLAYERS: 'all_players'>)
    """
    furiten = rules.furiten
    return DefenceRules(
        furiten,
        0.0 if furiten else GENBUTSU_LEAK,
        0.0 if furiten else SUJI_LEAK,
        rules.wildcards,
        frozenset(kind.value for kind in rules.win_requires_meld),
        ClosedRates.SILENT if furiten else ClosedRates.ALL_PLAYERS,
        OpenRates.FITTED if furiten else OpenRates.PUBLISHED,
    )


def combined_safety(verdicts: Iterable[TileSafety]) -> float:
    """Probability that no opponent can win on the tile: the product of the safeties.

    >>> combined_safety([TileSafety(0.9, 0.1, 0.1, 1.0, ()), TileSafety(0.5, 0.5, 0.5, 1.0, ())])
    0.45
    """
    product = 1.0
    for verdict in verdicts:
        product *= verdict.safety
    return product


def passed_after_riichi(opponents: Sequence[Opponent], index: int) -> frozenset[Tile]:
    """Tiles the other opponents discarded after opponent ``index`` declared.

    >>> a = Opponent(river=(0, 1, 2), riichi=True, riichi_turn=2)
    >>> b = Opponent(river=(27, 28, 29))
    >>> sorted(passed_after_riichi([a, b], 0))
    [29]
    """
    declared = opponents[index].riichi_turn
    if declared is None:
        return frozenset()
    return frozenset(
        tile for other, opponent in enumerate(opponents) if other != index for tile in opponent.river[declared:]
    )


def assess(
    opponent: Opponent,
    tiles: Iterable[Tile],
    *,
    unseen: Counts,
    rules: RuleProfile | DefenceRules,
    turn: int | None = None,
    passed: frozenset[Tile] = frozenset(),
    dora: frozenset[Tile] = frozenset(),
    turns_left: int | None = None,
    closed_rates: ClosedRates | None = None,
    open_rates: OpenRates | None = None,
) -> tuple[TileSafety, ...]:
    """Safety of each of ``tiles`` against ``opponent``.

    ``unseen`` holds the copies of each tile not seen from the asking player's view
    (4 minus their hand, their melds, every river, every meld and every other
    visible tile); ``passed`` the tiles others discarded after the opponent declared
    (see :func:`passed_after_riichi`); ``dora`` the dora kinds (not their indicators);
    ``turns_left`` the live wall's tiles over 4 where known, and ``closed_rates`` how a
    silent closed opponent's chance of being ready is read (:func:`ready_probability`; None:
    the rules', :attr:`DefenceRules.closed_rates`), ``open_rates`` an open one's (None: the rules').
    """
    defence = rules if isinstance(rules, DefenceRules) else defence_rules(rules)
    tiles = tuple(tiles)
    rates = defence.closed_rates if closed_rates is None else closed_rates
    opened = defence.open_rates if open_rates is None else open_rates
    context = _Context(opponent, unseen, defence, turn, passed, dora, turns_left, rates, opened)
    if defence.win_requires_meld and not any(m.kind.value in defence.win_requires_meld for m in opponent.melds):
        verdict = TileSafety(1.0, 0.0, 0.0, context.ready, (Reason.CANNOT_WIN.value,))
        return tuple(verdict for _ in tiles)
    return context.verdicts(tiles)


# --- the model ------------------------------------------------------------------


def _build_rows() -> tuple[tuple[float, ...], ...]:
    """The published rows as fractions.  A missing entry (double suji on turn 1) takes the
    next turn's value, but never more than its own row's half-suji entries, so that more
    evidence never means more danger."""
    rows: list[tuple[float, ...]] = []
    for index, row in enumerate(DEAL_IN_BY_TURN):
        filled = []
        for column, value in enumerate(row):
            later = index
            # Ends: the published table's last row is complete (an IndexError at import otherwise).
            while value is None:
                later += 1
                value = DEAL_IN_BY_TURN[later][column]
            filled.append(value / 100)
        filled[_C.DOUBLE_SUJI_5] = min(filled[_C.DOUBLE_SUJI_5], filled[_C.HALF_SUJI_5])
        filled[_C.DOUBLE_SUJI_46] = min(
            filled[_C.DOUBLE_SUJI_46], filled[_C.HALF_SUJI_46_OUTER], filled[_C.HALF_SUJI_46_INNER]
        )
        rows.append(tuple(filled))
    return tuple(rows)


_C = Category
_ROWS: Final = _build_rows()
#: Per category, the published dora rate over the plain one at turn 9 (the only turn published
#: for dora: the ratio is taken to hold at every turn).
_DORA_FACTORS: Final = tuple(
    dora / 100 / plain for dora, plain in zip(DORA_DEAL_IN_TURN_9, _ROWS[POOLED_TURN - FIRST_TURN], strict=True)
)
# Corner categories of each number 1..9 (index n - 1): one-sided numbers map
# (side open, side closed); two-sided ones map the four corners
# (both open, down closed, up closed, both closed).
_ONE_SIDED: Final = {
    1: (_C.NO_SUJI_19, _C.SUJI_19),
    2: (_C.NO_SUJI_28, _C.SUJI_28),
    3: (_C.NO_SUJI_37, _C.SUJI_37),
    7: (_C.NO_SUJI_37, _C.SUJI_37),
    8: (_C.NO_SUJI_28, _C.SUJI_28),
    9: (_C.NO_SUJI_19, _C.SUJI_19),
}
_TWO_SIDED: Final = {
    4: (_C.NO_SUJI_46, _C.HALF_SUJI_46_OUTER, _C.HALF_SUJI_46_INNER, _C.DOUBLE_SUJI_46),
    5: (_C.NO_SUJI_5, _C.HALF_SUJI_5, _C.HALF_SUJI_5, _C.DOUBLE_SUJI_5),
    6: (_C.NO_SUJI_46, _C.HALF_SUJI_46_INNER, _C.HALF_SUJI_46_OUTER, _C.DOUBLE_SUJI_46),
}
_HONOR_REASONS: Final = tuple(
    reason.value
    for reason in (Reason.ALL_COPIES_VISIBLE, Reason.HONOR_TWO_SEEN, Reason.HONOR_ONE_SEEN, Reason.HONOR_FRESH)
)
# The reason codes as plain strings: a verdict carries ``str`` codes, and reading an enum
# member's ``value`` is a descriptor call on the advisor's hot path (tens per discard).
_GENBUTSU: Final = Reason.GENBUTSU.value
_PASSED_AFTER_RIICHI: Final = Reason.PASSED_AFTER_RIICHI.value
_PASSED_SINCE_DISCARD: Final = Reason.PASSED_SINCE_DISCARD.value
_NO_FURITEN: Final = Reason.NO_FURITEN.value
_NO_SUJI: Final = Reason.NO_SUJI.value
_HALF_SUJI: Final = Reason.HALF_SUJI.value
_SUJI: Final = Reason.SUJI.value
_DOUBLE_SUJI: Final = Reason.DOUBLE_SUJI.value
_NO_CHANCE: Final = Reason.NO_CHANCE.value
_ONE_CHANCE: Final = Reason.ONE_CHANCE.value
_ALL_COPIES_VISIBLE: Final = Reason.ALL_COPIES_VISIBLE.value
_EARLY_OUTSIDE: Final = Reason.EARLY_OUTSIDE.value
_DORA: Final = Reason.DORA.value
_WILDCARD_RISK: Final = Reason.WILDCARD_RISK.value
_NOT_DECLARED: Final = Reason.NOT_DECLARED.value
_SINGLE_WAIT_COLUMN: Final = int(_C.SUJI_19)


class _NumberShape(NamedTuple):
    """What a number tile's danger reads that does not depend on the opponent (one per tile)."""

    #: The ryanmen sides that hit the tile, the lower first: (suji partner, the two tiles the shape needs).
    sides: tuple[tuple[Tile, Tile, Tile], ...]
    #: Table columns of the corners: (side open, side closed), or for two sides
    #: (both open, lower closed, upper closed, both closed).
    corners: tuple[int, ...]
    #: The kanchan's two tiles (the tile's neighbours), None for a 1 or 9.
    kanchan: tuple[Tile, Tile] | None
    #: The penchan's two tiles (12 for a 3, 89 for a 7), else None.
    penchan: tuple[Tile, Tile] | None


def _number_shape(tile: Tile) -> _NumberShape:
    """The fixed facts of number tile ``tile`` (see :class:`_NumberShape`).

    >>> _number_shape(3)  # 4m: hit by 23m (partner 1m) and by 56m (partner 7m)
    _NumberShape(sides=((0, 2, 1), (6, 4, 5)), corners=(1, 6, 7, 12), kanchan=(2, 4), penchan=None)
    """
    n = tile % 9 + 1
    first = tile - n + 1
    sides = []
    if n >= 4:
        sides.append((first + n - 4, first + n - 2, first + n - 3))
    if n <= 6:
        sides.append((first + n + 2, first + n, first + n + 1))
    corners = _ONE_SIDED[n] if n in _ONE_SIDED else _TWO_SIDED[n]
    penchan = None
    if n in (3, 7):
        low = first if n == 3 else first + 7  # penchan 12 waits on 3, 89 on 7
        penchan = (low, low + 1)
    return _NumberShape(
        tuple(sides),
        tuple(int(column) for column in corners),
        (tile - 1, tile + 1) if 2 <= n <= 8 else None,
        penchan,
    )


_NUMBER_SHAPES: Final = tuple(_number_shape(tile) for tile in range(EAST))
_DRAGON_SET: Final = frozenset(DRAGONS)
_VALUE_HONOR_COLUMN: Final = int(_C.VALUE_HONOR_LEFT_3)
_GUEST_WIND_COLUMN: Final = int(_C.GUEST_WIND_LEFT_3)
#: ``TileSafety._make`` without its length check (a verdict always has every field).
_make_safety: Final = partial(tuple.__new__, TileSafety)


@lru_cache(maxsize=1024)
def _keep_table(concealed: int, total_unseen: int) -> tuple[float, tuple[float, ...]]:
    """(share, keep(0..4)) for an opponent holding ``concealed`` tiles among ``total_unseen``.

    ``share`` is their concealed tiles over all unseen tiles; ``keep(u)`` the chance that
    they hold one of ``u`` unseen copies, relative to ``KEEP_REFERENCE_COPIES`` and capped at 1.
    Few pairs of counts occur, so each is worked out once.

    >>> share, keep = _keep_table(13, 100)
    >>> share, [round(k, 3) for k in keep]
    (0.13, [0.0, 0.381, 0.712, 1.0, 1.0])
    """
    share = min(1.0, concealed / total_unseen) if total_unseen else 1.0
    reference = 1 - (1 - share) ** KEEP_REFERENCE_COPIES
    return share, tuple(min(1.0, (1 - (1 - share) ** u) / reference) for u in range(5))


class _Context:
    """Everything about one opponent that does not depend on the tile asked about."""

    __slots__ = (
        "declared",
        "dora",
        "early_outside",
        "evident",
        "furiten",
        "genbutsu",
        "genbutsu_leak",
        "keep",
        "ready",
        "row",
        "safe_genbutsu",
        "safe_passed",
        "safe_turn_passed",
        "suji_leak",
        "turn_passed",
        "unseen",
        "value_honors",
        "wild_share",
    )

    def __init__(
        self,
        opponent: Opponent,
        unseen: Counts,
        defence: DefenceRules,
        turn: int | None,
        passed: frozenset[Tile],
        dora: frozenset[Tile],
        turns_left: int | None,
        closed_rates: ClosedRates,
        open_rates: OpenRates,
    ) -> None:
        self.furiten = defence.furiten
        self.genbutsu_leak = defence.genbutsu_leak
        self.suji_leak = defence.suji_leak
        self.unseen = unseen
        own_turn = turn if turn is not None else (len(opponent.river) or POOLED_TURN)
        self.row = _ROWS[min(max(own_turn, FIRST_TURN), LAST_TURN) - FIRST_TURN]
        self.dora = dora
        self.value_honors = _DRAGON_SET | opponent.value_winds if opponent.value_winds else _DRAGON_SET
        self.genbutsu = frozenset(opponent.river)
        # Tiles that passed after the declaration count only under furiten (then they are safe),
        # as do the tiles that passed since the opponent's last discard, declared or not: had
        # one been a wait, the opponent would have won on it or be furiten now.
        after = passed - self.genbutsu if (defence.furiten and opponent.riichi) else frozenset()
        #: Tiles safe by same-turn furiten only (not in the river, not passed after a declaration).
        self.turn_passed = opponent.passed_since_discard - self.genbutsu - after if defence.furiten else frozenset()
        if self.turn_passed:
            after = after | self.turn_passed
        #: Tiles the opponent cannot want a ryanmen for: in their river, or passed after the
        #: declaration or since its last discard.
        self.evident = self.genbutsu | after if after else self.genbutsu
        self.early_outside = _early_outside(tuple(opponent.river[:EARLY_DISCARDS]))
        # keep(u): chance the opponent holds one of u unseen copies, relative to 3 copies.
        share, self.keep = _keep_table(max(1, HAND_SIZE - 3 * len(opponent.melds)), sum(unseen))
        wild_unseen = sum(unseen[t] for t in defence.wildcards)
        self.wild_share = 1 - (1 - share) ** wild_unseen if wild_unseen else 0.0
        self.declared = opponent.riichi
        self.ready = ready_probability(opponent, own_turn, turns_left, closed_rates, open_rates)
        self.safe_genbutsu = _make_safety((1.0, 0.0, 0.0, self.ready, (_GENBUTSU,)))
        self.safe_passed = _make_safety((1.0, 0.0, 0.0, self.ready, (_PASSED_AFTER_RIICHI,)))
        self.safe_turn_passed = _make_safety((1.0, 0.0, 0.0, self.ready, (_PASSED_SINCE_DISCARD,)))

    def verdicts(self, tiles: Iterable[Tile]) -> tuple[TileSafety, ...]:
        """The verdict on each of ``tiles``, in order.

        One loop with the opponent's facts in locals: the advisor asks for about thirty
        verdicts a decision, and a call per tile (and per number tile) was most of their cost.
        """
        furiten, genbutsu_leak, suji_leak = self.furiten, self.genbutsu_leak, self.suji_leak
        unseen, keep, evident, genbutsu = self.unseen, self.keep, self.evident, self.genbutsu
        early_outside, wild_share, declared, ready = self.early_outside, self.wild_share, self.declared, self.ready
        row, dora, value_honors = self.row, self.dora, self.value_honors
        single_cap = row[_SINGLE_WAIT_COLUMN]
        found = []
        for tile in tiles:
            leak = 1.0
            if tile in evident:
                in_river = tile in genbutsu
                if furiten:
                    if in_river:
                        found.append(self.safe_genbutsu)
                    else:
                        found.append(self.safe_turn_passed if tile in self.turn_passed else self.safe_passed)
                    continue
                reasons = [_GENBUTSU if in_river else _PASSED_AFTER_RIICHI, _NO_FURITEN]
                leak = genbutsu_leak
            else:
                reasons = []
            held_unseen = unseen[tile]
            if tile >= EAST:
                # An honour: by copies left unseen.
                left = held_unseen if held_unseen < 3 else 3
                reasons.append(_HONOR_REASONS[left])
                fresh = _VALUE_HONOR_COLUMN if tile in value_honors else _GUEST_WIND_COLUMN
                category = fresh + 3 - left if left else fresh
                structured = row[category] if left else 0.0
                plain = row[fresh]
            else:
                sides, corners, kanchan, penchan = _NUMBER_SHAPES[tile]
                weights = []
                by_evidence = 0
                fewest = 4  # fewest unseen copies of a tile that an open side needs
                for partner, a, b in sides:
                    copies_a = unseen[a]
                    copies_b = unseen[b]
                    physical = keep[copies_a] * keep[copies_b]
                    if partner in evident:
                        by_evidence += 1
                        physical *= suji_leak
                    else:
                        least = copies_a if copies_a < copies_b else copies_b
                        if least < fewest:
                            fewest = least
                    weights.append(physical)
                if len(weights) == 1:
                    (weight,) = weights
                    open_corner, closed_corner = corners
                    all_closed, plain = row[closed_corner], row[open_corner]
                    mix = plain * weight + all_closed * (1 - weight)
                else:
                    both_open, lower_closed, upper_closed, both_closed = corners
                    both, all_closed = row[both_open], row[both_closed]
                    down_closed, up_closed = row[lower_closed], row[upper_closed]
                    down, up = weights
                    plain = both
                    mix = (
                        both * down * up
                        + down_closed * (1 - down) * up
                        + up_closed * down * (1 - up)
                        + all_closed * (1 - down) * (1 - up)
                    )
                # The table's category by the suji evidence alone (the dora's ratio is by category).
                if len(sides) == 1:
                    category = corners[1 if by_evidence else 0]
                else:
                    lower_closed = sides[0][0] in evident
                    category = corners[(1 if lower_closed else 0) + (2 if sides[1][0] in evident else 0)]
                if by_evidence == 0:
                    reasons.append(_NO_SUJI)
                else:
                    if by_evidence < len(sides):
                        reasons.append(_HALF_SUJI)
                    else:
                        reasons.append(_SUJI if len(sides) == 1 else _DOUBLE_SUJI)
                    if not furiten and _NO_FURITEN not in reasons:
                        reasons.append(_NO_FURITEN)
                if fewest == 0:
                    reasons.append(_NO_CHANCE)
                elif fewest == 1:
                    reasons.append(_ONE_CHANCE)
                # The rest of the rate: single-tile waits (need a copy of the tile itself),
                # then kanchan and penchan (need their two neighbours).
                single = single_cap if single_cap < all_closed else all_closed
                gapped = all_closed - single
                if not held_unseen:
                    reasons.append(_ALL_COPIES_VISIBLE)
                gapped_weight = 0.0
                if gapped:
                    if kanchan is not None:
                        gapped_weight = keep[unseen[kanchan[0]]] * keep[unseen[kanchan[1]]]
                    if penchan is not None:
                        gapped_weight = (gapped_weight + keep[unseen[penchan[0]]] * keep[unseen[penchan[1]]]) / 2
                structured = mix - all_closed + (single if held_unseen else 0.0) + gapped * gapped_weight
                if tile in early_outside:
                    reasons.append(_EARLY_OUTSIDE)
                    structured *= EARLY_OUTSIDE_FACTOR
            if tile in dora:
                reasons.append(_DORA)
                structured *= _DORA_FACTORS[category]
            if wild_share:
                reasons.append(_WILDCARD_RISK)
                structured = (1 - wild_share) * structured + wild_share * plain
            # Clamped to 0..1 (as min(1.0, max(0.0, x)) would, without two calls).
            if_ready = structured * leak
            if not if_ready > 0.0:
                if_ready = 0.0
            elif not if_ready < 1.0:
                if_ready = 1.0
            if not declared:
                reasons.append(_NOT_DECLARED)
            danger = if_ready * ready
            found.append(_make_safety((1.0 - danger, danger, if_ready, ready, tuple(reasons))))
        return tuple(found)


@lru_cache(maxsize=4096)
def _early_outside(early: Sequence[Tile]) -> frozenset[Tile]:
    """Number tiles outside an early 2-4 or 6-8 of their suit.

    >>> sorted(_early_outside((2, 14)))   # 3m -> 1m 2m; 6p -> 7p 8p 9p
    [0, 1, 15, 16, 17]
    """
    outside: set[Tile] = set()
    for tile in early:
        if is_honor(tile):
            continue
        n = tile % 9 + 1
        start = tile - n + 1
        if 2 <= n <= 4:
            outside.update(range(start, tile))
        elif 6 <= n <= 8:
            outside.update(range(tile + 1, start + 9))
    return frozenset(outside)


def ready_probability(
    opponent: Opponent,
    turn: int,
    turns_left: int | None = None,
    closed_rates: ClosedRates = ClosedRates.SILENT,
    open_rates: OpenRates = OpenRates.PUBLISHED,
) -> float:
    """How likely ``opponent`` is tenpai after ``turn`` discards: 1 after a declaration, else
    the published rates by turn and calls (see the module's notes).  A closed hand reads
    ``closed_rates``: the silent closed hands' rate by ``turns_left`` (the live wall's tiles over
    4, rounded down, where the caller knows them; else from ``turn``, :func:`turns_left_after`),
    or the share of all players by ``turn``.

    >>> ready_probability(Opponent(riichi=True), 3), round(ready_probability(Opponent(river=(0,) * 9), 9), 4)
    (1.0, 0.0545)
    >>> ready_probability(Opponent(river=(0,) * 9), 9, closed_rates=ClosedRates.ALL_PLAYERS)
    0.231
    """
    if opponent.riichi:
        return 1.0
    if not opponent.melds and closed_rates is ClosedRates.ALL_PLAYERS:
        return _all_players_ready(turn)
    published = _ready_probability(turn, opponent.melds, opponent.hand_discards_after_call, turns_left)
    if open_rates is OpenRates.PUBLISHED or published >= 1.0 or not opponent.called:
        return published
    return open_ready_probability(
        opponent.river,
        opponent.melds,
        opponent.hand_discards_after_call,
        published,
        opponent.value_winds,
        drawn=DrawnDiscards.of(opponent.tsumogiri, opponent.calls_at),
    )


def _all_players_ready(turn: int) -> float:
    """The share of all players ready after ``turn`` discards (koba::blog)."""
    return TENPAI_SHARE_BY_TURN[min(max(turn, 0), len(TENPAI_SHARE_BY_TURN) - 1)] / 100


def turns_left_after(turn: int) -> int:
    """The live wall's turns left (its tiles over 4) when a seat has made ``turn`` discards, at
    a four-seat table: 17 before the first, one fewer each round of discards (exact for the
    seats after the asking one, one short for those before it).

    >>> turns_left_after(0), turns_left_after(9), turns_left_after(30)
    (17, 8, 0)
    """
    return min(max(LAST_TURNS_LEFT - turn, 0), LAST_TURNS_LEFT)


def _ready_probability(turn: int, melds: Sequence[Meld], after_call: int = 0, turns_left: int | None = None) -> float:
    """How likely a player who has not declared is tenpai after ``turn`` discards.

    A closed hand reads the published rate of silent closed hands by the turns left
    (``turns_left``, else :func:`turns_left_after`).  With calls, ``after_call`` hand discards
    since the call's own discard read further along the published row (past its last count,
    its last figure).

    >>> pon = (Meld.of("pon", (27, 27, 27)),)
    >>> round(_ready_probability(9, ()), 4), _ready_probability(9, pon), _ready_probability(9, pon, 3)
    (0.0545, 0.3011, 0.586)
    """
    calls = len(melds)
    if calls >= 4:
        return 1.0
    if calls == 0:
        left = turns_left_after(turn) if turns_left is None else min(max(turns_left, 0), LAST_TURNS_LEFT)
        tenpai, total = SILENT_CLOSED_TENPAI[left]
        return tenpai / total
    closed = _all_players_ready(turn)
    rows = OPEN_TENPAI_AFTER_HAND_DISCARDS[calls - 1]
    index = min(max(turn, 0), len(rows) - 1)
    while index >= 0 and not rows[index]:  # past the data's last turn: its latest figure
        index -= 1
    row = rows[index] if index >= 0 else ()
    opened = row[min(max(after_call, 0), len(row) - 1)] / 100 if row else 0.0
    return max(closed, opened)
