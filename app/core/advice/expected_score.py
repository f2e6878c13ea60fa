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

**Sanma** (three-player riichi, the ``sanma`` preset) is valued by the same search: its
wall is the unseen copies of the kinds the set has (2m-8m have none, so they are never drawn
and never an ura indicator; ``S`` is counted from 108 tiles), the 1m indicator names 9m, and a
self-draw pays what :func:`~app.core.value.riichi_scoring.riichi_payments` pays three seats
(tsumo loss as the rules say).  The seats are East, South and West.  Norths the player has
already set aside (``nuki``) are dora of every win, and ura dora when the ura indicator
names north.  A north still to come is an ordinary honour tile to the search: in play it is
usually set aside for a dora and a replacement draw (kita), which the search does not model:
a north drawn counts as a draw that does not help (unless the hand pairs it), so every line is
valued without the dora and the extra draws that norths to come would bring.  The 18-turn horizon is kept: 55 live tiles over three seats give about as many draws
as 70 over four.

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

import time
from collections.abc import Callable, Sequence
from enum import StrEnum
from functools import partial
from typing import Final, NamedTuple

from app.core import _kernel
from app.core.errors import TenpaiError, WrongTileCount
from app.core.shape.hand import Hand, MeldKind
from app.core.shape.rules import RuleProfile
from app.core.shape.tables import tables
from app.core.shape.tiles import COPIES, EAST, NORTH, SOUTH, Counts, Tile, format_tile
from app.core.value.riichi_scoring import kernel_options
from app.core.value.scoring_context import InvalidWinContext

FIRST_TURN: Final = 1
LAST_TURN: Final = 18
"""mahjong-cpp's horizon: a player draws about 18 times in a hand."""
DEFAULT_EXTRA: Final = 1
"""Detours (tegawari or a step back) allowed per path, as mahjong-cpp's default ``extra``."""
DEFAULT_MAX_STATES: Final = 500_000
"""States one search may build: a two-shanten hand needs about 5,000 to 40,000, a three-shanten
one 40,000 to 210,000 (``bench/run_expected.py``'s hands); a state costs about 260 bytes, so a
search holds at most about 130 MB."""
FIVES: Final = (4, 13, 22)
_MELD_KINDS: Final = (MeldKind.CHI, MeldKind.PON, MeldKind.OPEN_KAN, MeldKind.CLOSED_KAN, MeldKind.ADDED_KAN)
"""The kernel's meld kinds (riichi.hpp's MeldKind), in order."""


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


_turn_value: Final = partial(tuple.__new__, TurnValue)
"""A :class:`TurnValue` from the kernel's (turn, tenpai, win, score) row, without a Python frame."""


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

    @classmethod
    def unsearched(cls, tile: Tile, shanten: int, first_turn: int, last_turn: int) -> DiscardValue:
        """A discard a search without detours does not follow (it raises the shanten): within
        that search it never gets ready, so every measure is 0."""
        nothing = tuple(TurnValue(turn, 0.0, 0.0, 0.0) for turn in range(first_turn, last_turn + 1))
        return cls(tile, False, shanten, 0.0, 0.0, 0.0, nothing)


class ExpectedScores(NamedTuple):
    """Every discard's measures and how the search went."""

    discards: tuple[DiscardValue, ...]
    first_turn: int
    last_turn: int
    #: States built (draw and discard states).
    states: int
    complete: bool
    stopped_by: SearchStop | None = None


def supports(rules: RuleProfile) -> bool:
    """Whether the model can value hands under ``rules``: riichi scoring, four-player or sanma.

    >>> from app.core.shape.rules import rule_profile
    >>> [supports(rule_profile(name)) for name in ("riichi", "sanma", "chinese", "mcr")]
    [True, True, False, False]
    """
    if rules.name == "riichi":
        table = rules.seats == 4 and not rules.absent_tiles
    elif rules.name == "sanma":
        table = rules.seats == 3
    else:
        return False
    return table and not rules.wildcards and not rules.knitted_forms and not rules.win_requires_meld


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
    the hand, the melds, the dora indicators and the norths set aside; none of a kind the set
    does not have).
    ``red_fives`` lists the red fives held concealed.  ``seat_wind`` names a seat at the
    table (East, South or West in sanma); ``nuki`` counts the norths the player has set aside
    (sanma's kita), each a dora of its wins.  ``deadline`` (a :func:`time.monotonic` instant), ``cancelled`` and
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
    if not EAST <= seat_wind < EAST + rules.seats:
        raise InvalidWinContext(
            f"seat_wind: {rules.seats} seats have the winds {', '.join(format_tile(EAST + s) for s in range(rules.seats))}",
            field="seat_wind",
        )
    if not 0 <= nuki <= (COPIES if rules.seats == 3 else 0):
        raise InvalidWinContext("nuki: norths set aside, 0-4, at a three-player table only", field="nuki")
    if unseen is None:
        held = bytearray(hand.all_counts())
        for indicator in dora_indicators:
            held[indicator] += 1
        held[NORTH] += nuki  # the norths set aside are seen
        absent = frozenset(rules.absent_tiles)
        unseen = bytes(0 if tile in absent else max(0, COPIES - c) for tile, c in enumerate(held))
    start_red = 0
    if rules.red_fives:
        for tile in red_fives:
            start_red |= 1 << FIVES.index(tile)
    first_turn = max(1, first_turn)
    last_turn = max(first_turn, last_turn)
    tables()  # the kernel reads the shape tables, handed to it when they are first built
    found, states, stop = _kernel.expected_scores(
        hand.counts,
        bytes(unseen),
        [(_MELD_KINDS.index(meld.kind), meld.tiles[0]) for meld in hand.melds],
        start_red,
        list(dora_indicators),
        round_wind,
        seat_wind,
        kernel_options(rules),
        extra,
        max_states,
        -1.0 if deadline is None else max(0.0, deadline - time.monotonic()),
        cancelled,
        first_turn,
        last_turn,
        nuki,
    )
    discards = []
    for tile, red, shanten, rows in found:
        by_turn = tuple(map(_turn_value, rows))
        first = by_turn[0]
        discards.append(
            DiscardValue(
                tile, red, shanten, first.tenpai_probability, first.win_probability, first.expected_score, by_turn
            )
        )
    stopped_by = (None, SearchStop.STATES, SearchStop.TIME)[stop]
    return ExpectedScores(tuple(discards), first_turn, last_turn, states, stopped_by is None, stopped_by)


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
