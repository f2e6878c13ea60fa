"""What each discard is worth over the rest of the hand: tenpai and win probability and expected score.

The model is mahjong-cpp's expected-score calculator (nekobean/mahjong-cpp, the engine of
a popular 何切る tool), rewritten from its public definition (its wiki page on tenpai
probability, win probability and expected score).  One player plays alone against the
wall; other players, calls and the end of the game are not modelled.

**States.**  A state is the concealed tiles (a red five told apart from the other fives)
and whether the player has declared riichi.  *Draw* states hold 3n+1 tiles and wait for a
draw, *discard* states hold 3n+2 and choose a discard.

**The wall.**  The unseen copies of a tile depend on the hand only: the copies unseen at
the start, plus the start's tiles, minus the tiles held now, so a tile discarded can be
drawn again.  ``S`` is the number of tiles unseen at the start.

**Turns.**  Turns run from ``first_turn`` (the discard's turn, 1 by default) to
``last_turn`` (18).  For each of the three measures ``X`` (tenpai probability, win
probability, expected score) a draw state ``s`` at turn ``t`` is worth::

    X_t(s) = X_{t+1}(s) + sum_i w_i * (X'_i - X_{t+1}(s)) / (S - t)

over the draws ``i`` it considers (``w_i`` unseen copies; a draw not considered keeps the
state as it is).  ``X'_i`` is the discard state reached, at turn ``t + 1``; a draw that
wins counts 1 for both probabilities and, for the expected score, the larger of the win's
points and the discard state's value.  A discard state is worth, for each measure apart,
the best of the draw states it can lead to.  At ``last_turn`` a draw state is worth 1
tenpai if it is tenpai and nothing else, and a tenpai draw state counts tenpai 1 at every
turn.

**Moves.**  A draw state considers the draws that lower its shanten; a discard state the
discards that keep its shanten.  ``extra`` (1 by default) grants one detour per path: with
``d`` the tiles held that the start did not hold (a red five counts apart) and ``k`` the
shanten, a draw state considers *every* draw (tegawari: a swap at equal shanten) and a
discard state *every* discard (a deliberate step back) while ``d + k < shanten at the
start + extra``.  Three rules of mahjong-cpp's graph are kept, because its numbers come
from them: a draw state may always draw back the tile just discarded, to the discard state
it came from (also from riichi, which lets a riichi hand that redraws its riichi tile choose
its discard again); a discard state may choose any draw state that leads to it, not only
its own discards (so a hand that drew a useful tile may throw it back); and a complete
hand after a win may be valued by playing on.  These are artefacts of its graph rather
than mahjong rules; on some discards they move the expected score by 10-20%.

**Riichi and value.**  A closed hand declares riichi with every discard that keeps it
tenpai; a riichi hand only waits.  A win is a self-draw scored by
:func:`~app.core.value.riichi_scoring.score_riichi`: yaku, dora, red fives, riichi and menzen
tsumo; for a riichi hand the ura dora are an expectation over the unseen tiles (as many
ura indicators as dora indicators, drawn without replacement).  A complete hand without a
yaku (open, or not in riichi) cannot win and plays on.  Points are what the winner
receives, without honba or riichi sticks.

Where this module differs from mahjong-cpp (HEAD 453cae0):

* Scoring is ours (:mod:`app.core.value.riichi_scoring`, Tenhou's rules); on the generated
  hands of ``bench/run_expected.py`` every expected score agrees to 1e-6.
* The search is bounded by a state budget, a deadline and a cancel callable; past them,
  states not yet searched count as never reaching tenpai or a win, so the answer is a
  lower bound, flagged (``complete`` False, ``stopped_by``).
* The red five of a suit is unseen when the hand does not hold it and some five of the
  suit is unseen (mahjong-cpp: unless the hand, a meld or a dora indicator shows it); red
  fives are not tracked at all when the rules do not score them.
* The dealer is seat 0; the seat wind is given (South, a non-dealer, by default).

>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import parse_mpsz
>>> hand = Hand.from_tiles(parse_mpsz("123m456p789s1z234m5z"))
>>> found = expected_scores(hand, rule_profile("riichi"), dora_indicators=(27,))
>>> [line for line in describe(found)[:3]]
['1m: shanten 1, tenpai 0.8550, win 0.2900, expected 1102.0', '4m: shanten 1, tenpai 0.8550, win 0.2900, expected 1102.0', '1z: shanten 0, tenpai 1.0000, win 0.3703, expected 1062.4']
>>> found.complete, found.states
(True, 95)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Final, NamedTuple

import numpy as np

from app.core.advice.expected_score import supports  # which rules the model takes: the rule, not the search
from app.core.errors import TenpaiError, WrongTileCount
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile, SevenPairs
from app.core.shape.shanten import (
    flagged_tiles,
    regular_draws_from_keys,
    seven_pairs_distance,
    seven_pairs_improving_draws,
    suit_keys,
    thirteen_orphans_distance,
    thirteen_orphans_improving_draws,
)
from app.core.shape.tables import tables
from app.core.shape.tiles import EAST, NORTH, NUM_TILE_KINDS, ORPHANS, SOUTH, Counts, Tile, dora_table, format_tile
from app.core.value.riichi_scoring import _limit_of, riichi_payments, score_riichi
from app.core.value.scoring_context import WinContext

FIRST_TURN: Final = 1
LAST_TURN: Final = 18
"""mahjong-cpp's horizon: a player draws about 18 times in a hand."""
DEFAULT_EXTRA: Final = 1
"""Detours (tegawari or a step back) allowed per path, as mahjong-cpp's default ``extra``."""
DEFAULT_MAX_STATES: Final = 60_000
"""States one search may build (a two-shanten hand needs about 5,000 to 40,000)."""
FIVES: Final = (4, 13, 22)
_RIICHI_FLAG: Final = 8
_PLUS_ONE: Final = tuple(bytes((n + 1,)) for n in range(5))
_MINUS_ONE: Final = tuple(bytes((max(0, n - 1),)) for n in range(5))
_FLAG_BYTE: Final = tuple(bytes((n,)) for n in range(16))
_RED_BIT: Final = tuple((1 << FIVES.index(tile)) if tile in FIVES else 0 for tile in range(NUM_TILE_KINDS))
_FIVES_IF_RED: Final = frozenset(FIVES)
_POWER_IN_SUIT: Final = tuple(5 ** (tile % 9) for tile in range(NUM_TILE_KINDS))
_ORPHAN_SET: Final = frozenset(ORPHANS)
_ORPHAN_MASK: Final = sum(0xFF << (8 * tile) for tile in ORPHANS)
#: [pairs][kinds][copies held]: the seven-pairs distance after throwing one of those copies.
_PAIRS_AFTER: Final = tuple(
    tuple(
        tuple(7 - (pairs - (held == 2)) + max(0, 7 - (kinds - (held == 1))) for held in range(5))
        for kinds in range(NUM_TILE_KINDS + 1)
    )
    for pairs in range(8)
)
#: [orphan kinds][orphan pairs, 2 for more][copies held]: the thirteen-orphans distance after throwing an orphan.
_ORPHANS_AFTER: Final = tuple(
    tuple(tuple(14 - (kinds - (held == 1)) - (pairs - (held == 2) > 0) for held in range(5)) for pairs in range(3))
    for kinds in range(14)
)


class SearchStop(StrEnum):
    """What cut a search short."""

    STATES = "states"
    TIME = "time"


class NoValueModel(TenpaiError):
    """The rules have no scoring profile the expected-score model can use."""

    code = "no_value_model"


class TurnValue(NamedTuple):
    """A discard's three measures from one turn to the end."""

    turn: int
    tenpai_probability: float
    win_probability: float
    expected_score: float


class DiscardValue(NamedTuple):
    """One discard (a red five told apart) and what it is worth from the first turn on."""

    tile: Tile
    #: Whether the tile discarded is a red five.
    red: bool
    #: Shanten after the discard.
    shanten: int
    tenpai_probability: float
    win_probability: float
    expected_score: float
    #: The three measures at each turn from the first to the last (index 0 is the first turn).
    by_turn: tuple[TurnValue, ...]


class ExpectedScores(NamedTuple):
    """Every discard's measures and how the search went."""

    discards: tuple[DiscardValue, ...]
    first_turn: int
    last_turn: int
    #: States built (draw and discard states).
    states: int
    complete: bool
    stopped_by: SearchStop | None = None


def expected_scores(
    hand: Hand,
    rules: RuleProfile,
    *,
    unseen: Counts | None = None,
    red_fives: Sequence[Tile] = (),
    dora_indicators: Sequence[Tile] = (),
    round_wind: Tile = EAST,
    seat_wind: Tile = SOUTH,
    nuki: int = 0,
    first_turn: int = FIRST_TURN,
    last_turn: int = LAST_TURN,
    extra: int = DEFAULT_EXTRA,
    max_states: int = DEFAULT_MAX_STATES,
    deadline: float | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ExpectedScores:
    """Tenpai and win probability and expected score of every discard of a 3n+2 ``hand``.

    ``unseen`` holds the copies of each tile the player has not seen (default: four less
    the hand, the melds and the dora indicators).  ``red_fives`` lists the red fives held
    concealed.  ``deadline`` (a :func:`time.monotonic` instant), ``cancelled`` and
    ``max_states`` bound the work; a bounded answer has ``complete`` False.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> found = expected_scores(Hand.from_tiles(parse_mpsz("123456789m1134p5z")), rule_profile("riichi"), last_turn=2)
    >>> [(format_tile(d.tile), round(d.win_probability, 4)) for d in found.discards if d.win_probability]
    [('5z', 0.0661)]
    """
    if not supports(rules):
        raise NoValueModel(f"the expected-score model values riichi hands; {rules.name} has no such profile")
    if hand.tile_count % 3 != 2:
        raise WrongTileCount(
            f"expected scores are for a hand that discards (3n+2 tiles), got {hand.tile_count}", field="hand"
        )
    if unseen is None:
        held = bytearray(hand.all_counts())
        for indicator in dora_indicators:
            held[indicator] += 1
        held[NORTH] += nuki  # the norths set aside are seen
        unseen = bytes(0 if tile in rules.absent_tiles else max(0, 4 - c) for tile, c in enumerate(held))
    search = _Search(
        hand,
        rules,
        unseen,
        tuple(red_fives),
        tuple(dora_indicators),
        round_wind,
        seat_wind,
        nuki,
        extra,
        max_states,
        deadline,
        cancelled,
    )
    search.build()
    first_turn = max(1, first_turn)
    last_turn = max(first_turn, last_turn)
    values = search.values(first_turn, last_turn)
    discards = []
    for (tile, red, shanten, node), rows in zip(search.root_children, values, strict=True):
        del node
        by_turn = tuple(
            TurnValue(first_turn + k, tenpai, win, score) for k, (tenpai, win, score) in enumerate(rows.tolist())
        )
        first = by_turn[0]
        discards.append(
            DiscardValue(
                tile, red, shanten, first.tenpai_probability, first.win_probability, first.expected_score, by_turn
            )
        )
    return ExpectedScores(
        tuple(discards), first_turn, last_turn, search.states, search.stopped_by is None, search.stopped_by
    )


class _Search:
    """The state graph of one hand, built breadth first, then valued turn by turn."""

    def __init__(
        self,
        hand: Hand,
        rules: RuleProfile,
        unseen: Counts,
        red_fives: tuple[Tile, ...],
        dora_indicators: tuple[Tile, ...],
        round_wind: Tile,
        seat_wind: Tile,
        nuki: int,
        extra: int,
        max_states: int,
        deadline: float | None,
        cancelled: Callable[[], bool] | None,
    ) -> None:
        self.rules = rules
        self.melds = hand.melds
        self.melds_wanted = 4 - len(hand.melds)
        self.closed = not hand.has_open_meld
        self.concealed_only = not hand.melds  # seven pairs and thirteen orphans need no melds at all
        self.seven_pairs = self.concealed_only and rules.seven_pairs is not SevenPairs.OFF
        self.quad_as_two = rules.seven_pairs is SevenPairs.QUAD_AS_TWO
        self.orphans = self.concealed_only and rules.thirteen_orphans
        self.track_red = rules.red_fives
        start = hand.counts
        red = 0
        if self.track_red:
            for tile in red_fives:
                red |= 1 << FIVES.index(tile)
        self.start = start
        self.start_red = red
        #: Copies of each tile in the wall plus the hand: the wall of a hand is this less the hand.
        self.base = [u + c for u, c in zip(unseen, start, strict=True)]
        self.wall_size = sum(unseen)
        #: Per suit, whether the red five is in the wall or the hand.
        self.red_base = [
            1 if (red >> s) & 1 or (self.track_red and unseen[five] > 0) else 0 for s, five in enumerate(FIVES)
        ]
        self.dora_indicators = dora_indicators
        self.dora_of = dora_table(rules.absent_tiles)
        #: The indicators that make each tile a dora (sanma: 1m and the absent 2m-8m name 9m).
        self.indicators_of: list[list[Tile]] = [[] for _ in range(NUM_TILE_KINDS)]
        for indicator, dora in enumerate(self.dora_of):
            self.indicators_of[dora].append(indicator)
        self.nuki = nuki
        self.round_wind = round_wind
        self.seat = seat_wind - EAST
        self.extra = extra
        self.max_states = max_states
        self.deadline = deadline
        self.cancelled = cancelled
        self.stopped_by: SearchStop | None = None
        self.analysis: dict[bytes, tuple[int, int, tuple[Tile, ...]]] = {}
        self.tables = tables()
        #: (suit, key, the other suits' two classes) -> regular distance after throwing each tile of the suit.
        self.removals: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        self.win_values: dict[tuple[bytes, int, Tile, bool], float] = {}
        self.points: dict[tuple[int, int], int] = {}
        # Draw states: key (counts + one byte of red bits and the riichi flag), distance, processed.
        self.draw_keys: list[bytes] = []
        self.draw_distance: list[int] = []
        self.draw_index: dict[bytes, int] = {}
        # Discard states (never in riichi: a riichi hand's winning draw ends the hand).
        self.discard_keys: list[bytes] = []
        self.discard_distance: list[int] = []
        self.discard_index: dict[bytes, int] = {}
        # Draw edges: source draw state, target discard state, weight (unseen copies).
        self.edge_source: list[int] = []
        self.edge_target: list[int] = []
        self.edge_weight: list[int] = []
        #: Points of the win the draw makes (0: not a win).
        self.edge_points: list[float] = []
        #: (draw state, key of the discard state its draw leads to): each draw is linked once.
        self.linked: set[tuple[int, bytes]] = set()
        self.start_shanten = 0
        self.root_children: list[tuple[Tile, bool, int, int]] = []
        self.states = 0

    # -- hands ---------------------------------------------------------------------------

    def analyse(self, counts: bytes) -> tuple[int, int, tuple[Tile, ...]]:
        """(shanten, wait flags as an integer of flag bytes, wait tiles) of 3n+1 ``counts``."""
        known = self.analysis.get(counts)
        if known is not None:
            return known
        distance, flags = regular_draws_from_keys(*suit_keys(counts), self.melds_wanted)
        best = distance
        merged = int.from_bytes(flags, "little")
        if self.seven_pairs:
            pairs = seven_pairs_distance(counts, quad_as_two=self.quad_as_two)
            if pairs < best:
                best, merged = pairs, 0
            if pairs == best:
                merged |= int.from_bytes(seven_pairs_improving_draws(counts, quad_as_two=self.quad_as_two), "little")
        if self.orphans:
            orphans = thirteen_orphans_distance(counts)
            if orphans < best:
                best, merged = orphans, 0
            if orphans == best:
                merged |= int.from_bytes(thirteen_orphans_improving_draws(counts), "little")
        if best != distance and distance == best:
            merged |= int.from_bytes(flags, "little")
        known = (best - 1, merged, flagged_tiles(merged.to_bytes(NUM_TILE_KINDS, "little")))
        self.analysis[counts] = known
        return known

    def removal_distances(self, suit: int, key: int, near: int, far: int) -> tuple[int, ...]:
        """Regular distances after throwing each tile of ``suit`` (its key ``key``), the other suits fixed.

        The other suits enter as two classes: for man ``near`` is the pin class and ``far``
        the sou-honours class; for pin, the man class and the sou-honours class; for sou, the
        honour class and the man-pin class; for honours, the sou class and the man-pin class.
        """
        t = self.tables
        wanted = self.melds_wanted
        stride, final = t.final_stride, t.final
        number_class, honor_class = t.number_suit.class_of, t.honors.class_of
        man_pin, sou_honors = t.man_pin, t.sou_honors
        number_classes, honor_classes = t.number_classes, t.honor_classes
        distances = []
        for position in range(7 if suit == 3 else 9):
            power = 5**position
            if (key // power) % 5 == 0:
                distances.append(255)  # not held: never asked
                continue
            after = key - power
            if suit == 0:
                distance = final[man_pin[number_class[after] * number_classes + near] * stride + far * 5 + wanted]
            elif suit == 1:
                distance = final[man_pin[near * number_classes + number_class[after]] * stride + far * 5 + wanted]
            elif suit == 2:
                distance = final[far * stride + sou_honors[number_class[after] * honor_classes + near] * 5 + wanted]
            else:
                distance = final[far * stride + sou_honors[near * honor_classes + honor_class[after]] * 5 + wanted]
            distances.append(distance)
        return tuple(distances)

    def win_value(self, counts: bytes, red: int, win_tile: Tile, riichi: bool) -> float:
        """Expected points of the self-drawn win of 14-tile ``counts`` on ``win_tile`` (0: no yaku)."""
        key = (counts, red, win_tile, riichi)
        known = self.win_values.get(key)
        if known is not None:
            return known
        context = WinContext(
            winner=self.seat,
            dealer=0,
            round_wind=self.round_wind,
            dora_indicators=self.dora_indicators,
            red_fives=tuple(five for s, five in enumerate(FIVES) if (red >> s) & 1),
            riichi=riichi,
            nuki=self.nuki,
        )
        try:
            result = score_riichi(Hand(counts, self.melds), win_tile, self.rules, context)
        except TenpaiError:
            value = 0.0  # no yaku: the hand cannot be declared a win
        else:
            value = float(result.payments[self.seat])
            if riichi and self.dora_indicators and not result.yakuman_count:
                value = self.with_ura(counts, result.han, result.fu)
        self.win_values[key] = value
        return value

    def with_ura(self, counts: bytes, han: int, fu: int) -> float:
        """Expected points of a riichi win of ``han`` and ``fu`` over the ura indicators' draw."""
        drawn = len(self.dora_indicators)
        base = self.base
        if drawn == 1 and not self.melds:
            # One indicator: a kind held ``c`` times adds ``c`` ura dora when its indicator is
            # drawn, with the indicator's share of the wall (the wall holds ``S`` tiles throughout).
            # A north set aside adds one more when north is the ura dora.
            plain = self.points_of(han, fu)
            gained = 0.0
            for tile in range(NUM_TILE_KINDS):
                gain = counts[tile] + (self.nuki if tile == NORTH else 0)
                if not gain:
                    continue
                for indicator in self.indicators_of[tile]:
                    copies = base[indicator] - counts[indicator]
                    if copies > 0:
                        gained += copies * (self.points_of(han + gain, fu) - plain)
            return plain + gained / self.wall_size
        held = bytearray(counts)
        for meld in self.melds:
            for tile in meld.tiles:
                held[tile] += 1
        held[NORTH] += self.nuki
        wall = [b - c for b, c in zip(base, counts, strict=True)]
        total = sum(wall)
        if total < drawn:
            return float(self.points_of(han, fu))
        # Kinds whose indicator would add ura dora, and the rest pooled.
        gains = [(wall[tile], held[self.dora_of[tile]]) for tile in range(NUM_TILE_KINDS) if wall[tile]]
        pooled = sum(copies for copies, gain in gains if not gain)
        # ways[selected][ura]: ways to choose ``selected`` indicators among the gaining kinds.
        ways = [[0.0] * 14 for _ in range(drawn + 1)]
        ways[0][0] = 1.0
        for copies, gain in gains:
            if not gain:
                continue
            for selected in range(drawn - 1, -1, -1):
                row = ways[selected]
                for ura in range(13, -1, -1):
                    if not row[ura]:
                        continue
                    for take in range(1, min(copies, drawn - selected) + 1):
                        ways[selected + take][min(13, ura + gain * take)] += row[ura] * math.comb(copies, take)
        expected = 0.0
        for selected in range(drawn + 1):
            rest = math.comb(pooled, drawn - selected)
            if not rest:
                continue
            for ura, count in enumerate(ways[selected]):
                if count:
                    expected += count * rest * self.points_of(han + ura, fu)
        return expected / math.comb(total, drawn)

    def points_of(self, han: int, fu: int) -> int:
        """What a self-drawn win of ``han`` and ``fu`` brings the player."""
        key = (han, fu)
        known = self.points.get(key)
        if known is None:
            base = _limit_of(han, fu, self.rules)[1]
            seats, loss = self.rules.seats, self.rules.tsumo_loss
            known = riichi_payments(base, self.seat, 0, None, 0, seats=seats, tsumo_loss=loss)[0][self.seat]
            self.points[key] = known
        return known

    # -- the graph -------------------------------------------------------------------------

    def distance_after_draw(self, counts: bytes, red: int, tile: Tile, is_red: bool, distance: int) -> int:
        """``distance`` (tiles held that the start did not hold) after drawing ``tile``, red or not."""
        if is_red:
            suit = FIVES.index(tile)
            return distance + (0 if (self.start_red >> suit) & 1 else 1)
        held = counts[tile]  # before the draw
        start = self.start[tile]
        if tile in FIVES:
            suit = FIVES.index(tile)
            held -= (red >> suit) & 1
            start -= (self.start_red >> suit) & 1
        return distance + (1 if held >= start else 0)

    def distance_after_discard(self, counts: bytes, red: int, tile: Tile, is_red: bool, distance: int) -> int:
        if is_red:
            suit = FIVES.index(tile)
            return distance - (0 if (self.start_red >> suit) & 1 else 1)
        held = counts[tile]  # before the discard
        start = self.start[tile]
        if tile in FIVES:
            suit = FIVES.index(tile)
            held -= (red >> suit) & 1
            start -= (self.start_red >> suit) & 1
        return distance - (1 if held > start else 0)

    def draws_of(self, counts: bytes, red: int, tile: Tile) -> tuple[tuple[bool, int], ...]:
        """(red?, unseen copies) of each way to draw ``tile`` from the wall of ``counts``."""
        copies = self.base[tile] - counts[tile]
        if copies <= 0:
            return ()
        if self.track_red and tile in FIVES:
            suit = FIVES.index(tile)
            red_copies = self.red_base[suit] - ((red >> suit) & 1)
            ways = []
            if red_copies > 0:
                ways.append((True, red_copies))
            if copies - red_copies > 0:
                ways.append((False, copies - red_copies))
            return tuple(ways)
        return ((False, copies),)

    def draw_state(self, key: bytes, distance: int) -> int:
        known = self.draw_index.get(key)
        if known is not None:
            return known
        index = len(self.draw_keys)
        self.draw_index[key] = index
        self.draw_keys.append(key)
        self.draw_distance.append(distance)
        return index

    def discard_state(self, key: bytes, distance: int) -> int:
        known = self.discard_index.get(key)
        if known is not None:
            return known
        index = len(self.discard_keys)
        self.discard_index[key] = index
        self.discard_keys.append(key)
        self.discard_distance.append(distance)
        return index

    def link(
        self,
        source: int,
        counts: bytes,
        red: int,
        riichi: bool,
        tile: Tile,
        is_red: bool,
        weight: int,
        winning: bool,
        distance: int,
    ) -> None:
        """Draw state ``source`` (``counts``, ``distance``) drawing ``tile`` (red or not, ``weight`` copies).

        Each (draw state, discard state) pair is linked once, whichever side meets it first:
        the draw state drawing, or the discard state discarding to it (the draw back).
        ``winning``: the draw completes the hand.
        """
        after = counts[:tile] + _PLUS_ONE[counts[tile]] + counts[tile + 1 :]
        red_after = red | _RED_BIT[tile] if is_red else red
        key = after + _FLAG_BYTE[red_after | (_RIICHI_FLAG if riichi else 0)]
        pair = (source, key)
        linked = self.linked
        if pair in linked:
            return
        linked.add(pair)
        target = self.discard_index.get(key)
        if target is None:
            target = self.discard_state(key, self.distance_after_draw(counts, red, tile, is_red, distance))
        self.edge_source.append(source)
        self.edge_target.append(target)
        self.edge_weight.append(weight)
        self.edge_points.append(self.win_value(after, red_after, tile, riichi) if winning else 0.0)

    def expand_draw(self, index: int) -> None:
        key = self.draw_keys[index]
        counts, flag = key[:NUM_TILE_KINDS], key[NUM_TILE_KINDS]
        red, riichi = flag & ~_RIICHI_FLAG, bool(flag & _RIICHI_FLAG)
        shanten, flags, waits = self.analyse(counts)
        distance = self.draw_distance[index]
        swaps = not riichi and distance + shanten < self.start_shanten + self.extra
        tenpai = shanten == 0
        base = self.base
        link = self.link
        fives = _FIVES_IF_RED if self.track_red else ()
        for tile in range(NUM_TILE_KINDS) if swaps else waits:
            copies = base[tile] - counts[tile]
            if copies <= 0:
                continue
            winning = tenpai and bool((flags >> (8 * tile)) & 1)
            if tile in fives:
                for is_red, weight in self.draws_of(counts, red, tile):
                    link(index, counts, red, riichi, tile, is_red, weight, winning, distance)
            else:
                link(index, counts, red, riichi, tile, False, copies, winning, distance)

    def expand_discard(self, index: int) -> list[tuple[Tile, bool, int, int]]:
        """Discards made from a discard state: (tile, red?, shanten after, draw state) for each."""
        key = self.discard_keys[index]
        counts, flag = key[:NUM_TILE_KINDS], key[NUM_TILE_KINDS]
        if flag & _RIICHI_FLAG:
            return []  # a riichi hand with 3n+2 tiles is complete: it has no discard that keeps its shanten
        red = flag
        distance = self.discard_distance[index]
        # Each discard's shanten from the suit classes: only the discarded tile's suit changes,
        # so a suit's distances after each removal are looked up by its key and the other suits.
        t = self.tables
        number_class, honor_class = t.number_suit.class_of, t.honors.class_of
        man_pin, sou_honors, final = t.man_pin, t.sou_honors, t.final
        number_classes, honor_classes, stride = t.number_classes, t.honor_classes, t.final_stride
        wanted = self.melds_wanted
        key_m, key_p, key_s, key_h = suit_keys(counts)
        c_m, c_p, c_s, c_h = number_class[key_m], number_class[key_p], number_class[key_s], honor_class[key_h]
        mp = man_pin[c_m * number_classes + c_p]
        sh = sou_honors[c_s * honor_classes + c_h]
        complete = final[mp * stride + sh * 5 + wanted] == 0
        removals = self.removals
        by_suit = []
        for suit_key in ((0, key_m, c_p, sh), (1, key_p, c_m, sh), (2, key_s, c_h, mp), (3, key_h, c_s, mp)):
            known = removals.get(suit_key)
            if known is None:
                known = self.removal_distances(*suit_key)
                removals[suit_key] = known
            by_suit.append(known)
        seven_pairs, orphans = self.seven_pairs, self.orphans
        # Per copies held (1..4): the seven-pairs distance after throwing one of them.
        pairs_after: tuple[int, ...] = ()
        if seven_pairs:
            kinds = NUM_TILE_KINDS - counts.count(0)
            pairs = kinds - counts.count(1)
            if pairs == 7:
                complete = True
            pairs_after = _PAIRS_AFTER[pairs][kinds]
        orphan_after: tuple[int, ...] = ()
        other_after = 99
        if orphans:
            # The orphans' counts alone (the other bytes zeroed): kinds held and kinds paired.
            masked = (int.from_bytes(counts, "little") & _ORPHAN_MASK).to_bytes(NUM_TILE_KINDS, "little")
            orphan_kinds = NUM_TILE_KINDS - masked.count(0)
            orphan_pairs = orphan_kinds - masked.count(1)
            if orphan_kinds == 13 and orphan_pairs:
                complete = True
            orphan_after = _ORPHANS_AFTER[orphan_kinds][min(orphan_pairs, 2)]
            other_after = 14 - orphan_kinds - (orphan_pairs > 0)
        held_tiles = []
        shantens = []
        for tile, held in enumerate(counts):
            if not held:
                continue
            best = by_suit[tile // 9][tile % 9]
            if seven_pairs and pairs_after[held] < best:
                best = pairs_after[held]
            if orphans:
                orphan_distance = orphan_after[held] if tile in _ORPHAN_SET else other_after
                if orphan_distance < best:
                    best = orphan_distance
            held_tiles.append(tile)
            shantens.append(best - 1)
        # Complete: every discard raises the shanten, so each one is a step back.
        shanten_here = -1 if complete else min(shantens)
        steps_back = distance + shanten_here < self.start_shanten + self.extra
        children = []
        closed_tenpai = self.closed and shanten_here == 0
        draw_index, linked, base = self.draw_index, self.linked, self.base
        track_red = self.track_red
        for tile, shanten in zip(held_tiles, shantens, strict=True):
            keeps = shanten == shanten_here
            if not (keeps or steps_back):
                continue
            riichi = closed_tenpai and keeps
            held = counts[tile]
            rest = counts[:tile] + _MINUS_ONE[held] + counts[tile + 1 :]
            reds: tuple[bool, ...] = (False,)
            if track_red and red & _RED_BIT[tile]:
                reds = (True, False) if held > 1 else (True,)
            for is_red in reds:
                red_after = red & ~_RED_BIT[tile] if is_red else red
                child_key = rest + _FLAG_BYTE[red_after | (_RIICHI_FLAG if riichi else 0)]
                child = draw_index.get(child_key)
                if child is None:
                    child = self.draw_state(child_key, self.distance_after_discard(counts, red, tile, is_red, distance))
                children.append((tile, is_red, shanten, child))
                # Drawing the discarded tile again leads back here, whatever the child's riichi flag.
                pair = (child, key)
                if pair in linked:
                    continue
                linked.add(pair)
                if track_red and tile in _FIVES_IF_RED:
                    copies = dict(self.draws_of(rest, red_after, tile)).get(is_red, 0)
                else:
                    copies = base[tile] - rest[tile]
                self.edge_source.append(child)
                self.edge_target.append(index)
                self.edge_weight.append(copies)
                self.edge_points.append(self.win_value(counts, red, tile, False) if complete else 0.0)
        return children

    def out_of_budget(self) -> bool:
        if self.states >= self.max_states:
            self.stopped_by = SearchStop.STATES
            return True
        if (self.deadline is not None and time.monotonic() >= self.deadline) or (
            self.cancelled is not None and self.cancelled()
        ):
            self.stopped_by = SearchStop.TIME
            return True
        return False

    def build(self) -> None:
        start_key = self.start + bytes((self.start_red,))
        root = self.discard_state(start_key, 0)
        # The start's shanten: its best discard's (or -1 when complete).
        options = []
        for tile in range(NUM_TILE_KINDS):
            if self.start[tile]:
                after = bytearray(self.start)
                after[tile] -= 1
                shanten, flags, _ = self.analyse(bytes(after))
                options.append(-1 if shanten == 0 and (flags >> (8 * tile)) & 1 else shanten)
        self.start_shanten = min(options)
        draw_done = 0
        discard_done = 0
        while draw_done < len(self.draw_keys) or discard_done < len(self.discard_keys):
            if (self.states & 127) == 1 and self.out_of_budget():  # the start is always expanded
                break
            if discard_done < len(self.discard_keys):
                children = self.expand_discard(discard_done)
                if discard_done == root:
                    self.root_children = children
                discard_done += 1
            else:
                self.expand_draw(draw_done)
                draw_done += 1
            self.states += 1
        self.states = len(self.draw_keys) + len(self.discard_keys)

    def values(self, first_turn: int, last_turn: int) -> list[np.ndarray]:
        """Per root child, an array (turns, 3) of tenpai, win and expected score from ``first_turn``."""
        draws = len(self.draw_keys)
        discards = len(self.discard_keys)
        source = np.asarray(self.edge_source, dtype=np.int64)
        target = np.asarray(self.edge_target, dtype=np.int64)
        weight = np.asarray(self.edge_weight, dtype=np.float64)
        points = np.asarray(self.edge_points, dtype=np.float64)
        tenpai = np.asarray([self.analyse(key[:NUM_TILE_KINDS])[0] == 0 for key in self.draw_keys], dtype=bool)
        # A discard state chooses among the draw states that lead to it (mahjong-cpp's selection):
        # its own discards, each linked back, and every draw state that draws into it.
        order = np.argsort(target, kind="stable")
        choices = source[order]
        offsets = np.searchsorted(target[order], np.arange(discards))
        wins = points > 0
        # Draws that win count 1 for both probabilities whatever the state reached: a constant.
        win_source, win_target, win_weight = source[wins], target[wins], weight[wins]
        win_points = points[wins]
        won = np.bincount(win_source, weights=win_weight, minlength=draws)
        plays = ~wins
        play_source, play_target, play_weight = source[plays], target[plays], weight[plays]
        total_weight = np.bincount(source, weights=weight, minlength=draws)
        root = np.asarray([child for *_, child in self.root_children], dtype=np.int64)
        turns = last_turn - first_turn + 1
        out = np.zeros((len(root), turns, 3))
        tenpai_now = tenpai.astype(np.float64)
        win_now = np.zeros(draws)
        score_now = np.zeros(draws)

        def choose(values: np.ndarray) -> np.ndarray:
            return np.maximum.reduceat(values[choices], offsets)

        def record(turn: int) -> None:
            out[:, turn - first_turn, 0] = tenpai_now[root]
            out[:, turn - first_turn, 1] = win_now[root]
            out[:, turn - first_turn, 2] = score_now[root]

        record(last_turn)
        chosen_tenpai, chosen_win, chosen_score = choose(tenpai_now), choose(win_now), choose(score_now)
        for turn in range(last_turn - 1, first_turn - 1, -1):
            left = self.wall_size - turn
            if left > 0:
                reached_tenpai = np.bincount(
                    play_source, weights=play_weight * chosen_tenpai[play_target], minlength=draws
                )
                reached_win = np.bincount(play_source, weights=play_weight * chosen_win[play_target], minlength=draws)
                reached_score = np.bincount(
                    play_source, weights=play_weight * chosen_score[play_target], minlength=draws
                ) + np.bincount(
                    win_source, weights=win_weight * np.maximum(win_points, chosen_score[win_target]), minlength=draws
                )
                tenpai_now = tenpai_now + (reached_tenpai + won - total_weight * tenpai_now) / left
                tenpai_now[tenpai] = 1.0
                win_now = win_now + (reached_win + won - total_weight * win_now) / left
                score_now = score_now + (reached_score - total_weight * score_now) / left
                chosen_tenpai, chosen_win, chosen_score = choose(tenpai_now), choose(win_now), choose(score_now)
            record(turn)
        return list(out)


def describe(found: ExpectedScores) -> list[str]:
    """One line per discard, best expected score first (for logs and the bench).

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> describe(expected_scores(Hand.from_tiles(parse_mpsz("123456789m1134p5z")), rule_profile("riichi"), last_turn=2))[0]
    '5z: shanten 0, tenpai 1.0000, win 0.0661, expected 562.0'
    """
    ranked = sorted(found.discards, key=lambda d: (-d.expected_score, d.tile, d.red))
    return [
        f"{'0' + 'mps'[d.tile // 9] if d.red else format_tile(d.tile)}: shanten {d.shanten}, tenpai "
        f"{d.tenpai_probability:.4f}, win {d.win_probability:.4f}, expected {d.expected_score:.1f}"
        for d in ranked
    ]
