"""What each discard is worth under hongzhong scoring: expected points (底分) by the hand's end.

The advisor's value model, in the way :mod:`app.core.advice.sichuan_value` values Sichuan
hands: the lookahead's draw search (:class:`~app.core.advice.lookahead.DrawSearch`) with a row
for what the wins are worth, here the hongzhong scorer's share with the birds in expectation.

**The model.** One player plays alone against the wall (other seats and their kongs are not
modelled). Wins are self-draws, as the text's are (a robbed kong pays the same, from one seat).
From the 13-tile hand a discard leaves, a draw that lowers the shanten is kept, with the best
discard that keeps the new shanten; any other draw is thrown. Shanten and the improving draws
are the text's (:class:`~.shape.HongzhongShape`: four 红中 win, seven pairs without wildcards),
not the engine profile's. A ready hand wins within ``d`` draws with probability
``1 - (1 - p)**d``, ``p`` the share of its winning tiles in the wall, each winning tile as likely
as its unseen copies. A win is worth what the three other seats pay: ``3 x share``, the share
being the form's points (times ``no_red_multiplier`` without 红中), 喜分 with four 红中, and the
birds' ``bird_points`` times the **expected hits**: the birds are drawn from the wall left after
the winning tile, their hits counted exactly (hypergeometric, :func:`expected_hits`), with
不中当全中 as the options say.

**The wall.** Unseen copies are counted from the 14-tile hand's view, less what the hand has drawn
since. A hongzhong wall of 112 tiles deals 53 and keeps the birds back: about 14 draws a seat
(:func:`draws_per_seat`).

>>> from app.core.shape.tiles import parse_mpsz
>>> options = HongzhongOptions()
>>> hand = Hand.from_tiles(parse_mpsz("123m456p789s1159s7z"))
>>> from app.core.advice.draw_values import describe
>>> for line in describe(discard_values(hand, options, unseen_from(hand), draws=3))[:3]:
...     print(line)
9s: shanten 0, tenpai 1.0000, win 0.5518, expected 8.4612
5s: shanten 0, tenpai 1.0000, win 0.4354, expected 6.6773
8s: shanten 0, tenpai 1.0000, win 0.3004, expected 4.6096
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from math import comb
from typing import Final

import numpy as np

from app.core.advice.draw_values import values_by_discard
from app.core.advice.expected_score import ExpectedScores
from app.core.advice.lookahead import DrawSearch
from app.core.families.hongzhong.options import HongzhongOptions
from app.core.families.hongzhong.scoring import bird_count, is_bird_hit
from app.core.families.hongzhong.shape import (
    FOUR_RED,
    RED_COPIES,
    SEVEN_PAIRS,
    TILE_KINDS,
    HongzhongShape,
    hand_rules,
    red_held,
)
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import DEFAULT_SEATS
from app.core.shape.tiles import NUM_TILE_KINDS, Counts, Tile

#: Tiles dealt at the start: thirteen to each seat and the dealer's fourteenth.
_DEALT: Final = 13 * DEFAULT_SEATS + 1
#: Tiles in the set.
_SET_SIZE: Final = 112
#: States one search may analyse (a state costs 0.1 to 1 ms): two-shanten hands need hundreds to a
#: few thousand, so a three-shanten hand may stop here, flagged.
HONGZHONG_MAX_STATES: Final = 20_000


def draws_per_seat(options: HongzhongOptions) -> int:
    """Draws a seat makes in a hand that runs to the end: the wall after the deal, less the
    tiles kept for the birds, shared by the four seats.

    >>> draws_per_seat(HongzhongOptions()), draws_per_seat(HongzhongOptions(birds=6))
    (14, 13)
    """
    return (_SET_SIZE - _DEALT - options.birds) // DEFAULT_SEATS


def expected_hits(birds: int, hitting: int, total: int, *, no_hit_counts_all: bool) -> float:
    """Expected hits counted when ``birds`` birds (at most the ``total`` tiles left) are drawn from
    a wall of ``total`` tiles of which ``hitting`` hit; under 不中当全中 no hit counts them all.

    >>> round(expected_hits(2, 1, 4, no_hit_counts_all=False), 4), round(expected_hits(2, 1, 4, no_hit_counts_all=True), 4)
    (0.5, 1.5)
    """
    drawn = min(birds, total)
    if drawn <= 0:
        return 0.0
    ways = comb(total, drawn)
    expected = 0.0
    for hits in range(0, min(drawn, hitting) + 1):
        chance = comb(hitting, hits) * comb(total - hitting, drawn - hits) / ways
        expected += chance * (drawn if hits == 0 and no_hit_counts_all else hits)
    return expected


def win_worth(
    hand: Hand, wall: Counts, options: HongzhongOptions, shape: HongzhongShape, *, seat: int = 0, dealer: int = 0
) -> float:
    """What ``seat``'s self-drawn win of the 3n+2 ``hand`` is worth, in expectation over its birds
    (drawn from ``wall``, the tiles unseen once the winning tile is in the hand; ``dealer`` for
    birds counted from the dealer): 0 for a hand that does not win.

    >>> from app.core.shape.tiles import parse_mpsz
    >>> won = Hand.from_tiles(parse_mpsz("123m456p789s11999s"))
    >>> wall = bytearray(34); wall[0] = 1; wall[1] = 3  # one 1m (a hit) and three 2m left
    >>> win_worth(won, bytes(wall), HongzhongOptions(), HongzhongShape())  # 4 birds = all 4 tiles: 1 hit
    12.0
    """
    form = shape.winning_form(hand)
    if form is None:
        return 0.0
    held = red_held(hand)
    if form == FOUR_RED:
        points = options.four_red_points
    elif form == SEVEN_PAIRS:
        points = options.seven_pairs_points
    else:
        points = options.win_points
    if held == 0:
        points *= options.no_red_multiplier
    if held == RED_COPIES:
        points += options.four_red_bonus
    hitting = sum(wall[tile] for tile in TILE_KINDS if is_bird_hit(tile, options, winner=seat, dealer=dealer))
    birds = bird_count(options, holds_red=held > 0)
    hits = expected_hits(birds, hitting, sum(wall), no_hit_counts_all=options.no_hit_counts_all)
    return float((DEFAULT_SEATS - 1) * (points + options.bird_points * hits))


class _Search(DrawSearch):
    """The lookahead's search with the text's shanten and a third row, the expected points."""

    rows = 3

    def __init__(
        self,
        hand: Hand,
        options: HongzhongOptions,
        unseen: Counts,
        draws: int,
        max_states: int,
        deadline: float | None,
        cancelled: Callable[[], bool] | None,
        seat: int,
        dealer: int,
    ) -> None:
        super().__init__(hand, Checker(hand_rules(options)), unseen, draws, max_states, None, deadline, cancelled)
        self.options = options
        self.seat = seat
        self.dealer = dealer
        self.shape = HongzhongShape(options)
        self.worth: dict[tuple[bytes, Tile], float] = {}

    def analyse(self, counts: bytes) -> tuple[int, tuple[int, ...], bool]:
        """(shanten, improving draws, ready) of a 3n+1 hand under the text's forms."""
        known = self.analysis.get(counts)
        if known is None:
            answer, improving = self.shape.analyse(Hand(counts, self.melds))
            known = (answer.shanten, improving, answer.shanten == 0 and bool(improving))
            self.analysis[counts] = known
        return known

    def win_value(self, counts: bytes, tile: Tile, wall: list[int]) -> float:
        """Worth of the win on ``tile`` by the 3n+1 hand ``counts``, its birds from ``wall`` less ``tile``."""
        key = (counts, tile)
        known = self.worth.get(key)
        if known is None:
            after = bytearray(wall)
            after[tile] -= 1
            won = Hand(counts, self.melds).with_tile(tile)
            known = win_worth(won, bytes(after), self.options, self.shape, seat=self.seat, dealer=self.dealer)
            self.worth[key] = known
        return known

    def ready_value(self, counts: bytes, wall: list[int], ukeire: tuple[int, ...], total: int) -> np.ndarray:
        """The lookahead's rows, and the expected points: the win probability times the mean
        worth of the winning tiles, each weighted by its unseen copies."""
        answer = super().ready_value(counts, wall, ukeire, total)
        copies = sum(wall[t] for t in ukeire)
        worth = sum(wall[t] * self.win_value(counts, t, wall) for t in ukeire if wall[t]) / copies if copies else 0.0
        answer[2] = answer[1] * worth
        return answer


def unseen_from(hand: Hand, seen: Counts | None = None) -> bytes:
    """Unseen copies of each tile of the set from the 14-tile ``hand``'s view (and ``seen`` elsewhere)."""
    held = hand.all_counts()
    return bytes(
        max(0, RED_COPIES - held[tile] - (seen[tile] if seen is not None else 0)) if tile in TILE_KINDS else 0
        for tile in range(NUM_TILE_KINDS)
    )


def discard_values(
    hand: Hand,
    options: HongzhongOptions,
    unseen: Counts,
    *,
    tiles: Iterable[Tile] | None = None,
    draws: int | None = None,
    max_states: int = HONGZHONG_MAX_STATES,
    deadline: float | None = None,
    cancelled: Callable[[], bool] | None = None,
    seat: int = 0,
    dealer: int = 0,
) -> ExpectedScores:
    """Each discard of ``seat``'s 3n+2 ``hand`` (of ``tiles``, default every tile held) valued in
    expected points within ``draws`` draws (default :func:`draws_per_seat`); ``dealer`` matters to
    birds counted from the dealer.

    ``unseen`` holds the unseen copies from the 14-tile hand's view (:func:`unseen_from`). The
    answer has the riichi model's shape: ``first_turn`` is 1 and ``last_turn`` the draws searched.
    """
    horizon = draws_per_seat(options) if draws is None else draws
    search = _Search(hand, options, unseen, horizon, max_states, deadline, cancelled, seat, dealer)
    return values_by_discard(search, hand, tiles, horizon)
