"""What each discard is worth under Guangdong 推倒胡: the expected points the hand collects.

The Sichuan model's search (:mod:`app.core.advice.sichuan_value`), with the Guangdong scorer:
one player plays alone against the wall (other players and calls are not modelled).  From the
13-tile hand a discard leaves, a draw that lowers the shanten is kept with the best discard that
keeps the new shanten, any other draw is thrown at once.  A ready hand wins within ``d`` draws
with probability ``1 - (1 - p)**d`` (``p`` the share of its winning tiles in the wall; a drawn
ghost completes every ready hand, so it is always among them), each winning tile as likely as
its unseen copies.

**What a win is worth** (:func:`win_worth`): what the winner collects from the three others on a
self-draw, the room's common win (the text's only one), with the hand's fans (平胡 or a big
hand, 满鬼 for a complete hand of four ghosts, 无鬼 X2) and its expected horses: each of the
``horse_count`` horses names the winner's seat with the chance that an unseen tile does
(:func:`horse_chance`), so a share is worth ``hand_points * (1 + horses * q)`` (the hand again
per hit) or ``hand_points + horses * q`` (one base per hit).  杠开 and the kong payments are
left out, as they do not tell one discard from another here.  满鬼 counts where it completes a
ready hand (its fourth ghost is one of the waits); a hand further off that draws its fourth ghost
is valued as drawing any improving tile, not as the win it is: a lower bound, and a rare one.

**The wall.**  Unseen copies are counted from the 14-tile hand's view (the discard is seen).  A
Guangdong wall of 136 tiles deals 53 and turns one for the ghost, and the horses are drawn from
what is left: about 19 draws a seat (:data:`GUANGDONG_DRAWS`).

>>> from app.core.families.guangdong.options import GuangdongOptions
>>> from app.core.families.guangdong.tiles import hand_rules
>>> from app.core.shape.tiles import parse_mpsz
>>> options = GuangdongOptions()
>>> checker = Checker(hand_rules(options, 31))
>>> hand = Hand.from_tiles(parse_mpsz("123m456p789s11z23s5z"))  # throwing the ghost (5z) doubles a win (无鬼)
>>> from app.core.advice.draw_values import describe
>>> for line in describe(discard_values(hand, checker, checker.remaining(hand), ghost=31, options=options, draws=4))[:3]:
...     print(line)
5z: shanten 0, tenpai 1.0000, win 0.3147, expected 3.8346
2s: shanten 0, tenpai 1.0000, win 0.5664, expected 3.3148
3s: shanten 0, tenpai 1.0000, win 0.4919, expected 2.8791
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

import numpy as np

from app.core.advice.draw_values import values_by_discard
from app.core.advice.expected_score import ExpectedScores
from app.core.advice.lookahead import DrawSearch
from app.core.errors import NotAWinningHand
from app.core.families.guangdong.options import GuangdongOptions, HorsePayout
from app.core.families.guangdong.payments import HORSE_OFFSETS, SEATS, horse_count
from app.core.families.guangdong.scoring import hand_fans, hand_points
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.tiles import Counts, Tile
from app.core.value.scoring_context import WinContext

GUANGDONG_DRAWS: Final = 19
"""Draws a seat makes in a Guangdong hand: 136 tiles, 53 dealt, one turned for the ghost and
about six kept for the horses, 76 drawn by four seats."""
GUANGDONG_MAX_STATES: Final = 30_000
"""States one search may analyse, as the Sichuan search's (a state costs 0.1 to 1 ms)."""
#: The self-draw that values a hand: seat 1 wins, seat 0 deals (what it collects is the same
#: from any seat but for the horses, which :func:`horse_chance` reads from ``seat_offset``).
_SELF_DRAW: Final = WinContext(winner=1, dealer=0)


def horse_chance(wall: Iterable[int], seat_offset: int) -> float:
    """The chance that a horse drawn from ``wall`` (unseen copies by tile) names the seat
    ``seat_offset`` places after the dealer (0: the dealer).

    >>> round(horse_chance([4] * 34, 0), 4), round(horse_chance([4] * 34, 1), 4)
    (0.2941, 0.2353)
    """
    copies = list(wall)
    total = sum(copies)
    if not total:
        return 0.0
    return sum(c for tile, c in enumerate(copies) if HORSE_OFFSETS[tile] == seat_offset % SEATS) / total


def win_worth(hand: Hand, win_tile: Tile, ghost: Tile | None, options: GuangdongOptions, horse_odds: float) -> float:
    """Expected points a self-drawn win of the complete ``hand`` collects, its horses each
    naming the winner with probability ``horse_odds``; 0.0 for a hand that does not win."""
    try:
        fans = hand_fans(hand, win_tile, ghost, options, _SELF_DRAW)
    except NotAWinningHand:
        return 0.0
    points = hand_points(fans)
    horses = horse_count(options, ghost, hand.counts[ghost] if ghost is not None else 0)
    hits = horses * horse_odds
    share = points * (1 + hits) if options.horse_payout is HorsePayout.HAND else points + hits
    return (SEATS - 1) * share


class _Search(DrawSearch):
    """The lookahead's search with a third row, the expected points of the wins reached."""

    rows = 3

    def __init__(
        self,
        hand: Hand,
        checker: Checker,
        unseen: Counts,
        draws: int,
        max_states: int,
        deadline: float | None,
        cancelled: Callable[[], bool] | None,
        ghost: Tile | None,
        options: GuangdongOptions,
        seat_offset: int,
    ) -> None:
        super().__init__(hand, checker, unseen, draws, max_states, None, deadline, cancelled)
        self.ghost = ghost
        self.options = options
        self.seat_offset = seat_offset
        self.wins: dict[tuple[bytes, Tile], float] = {}

    def win_value(self, counts: bytes, tile: Tile, horse_odds: float) -> float:
        """Points of the self-drawn win on ``tile`` by the 3n+1 hand ``counts``."""
        key = (counts, tile)
        known = self.wins.get(key)
        if known is None:
            whole = bytearray(counts)
            whole[tile] += 1
            known = win_worth(Hand(bytes(whole), self.melds), tile, self.ghost, self.options, horse_odds)
            self.wins[key] = known
        return known

    def ready_value(self, counts: bytes, wall: list[int], ukeire: tuple[int, ...], total: int) -> np.ndarray:
        """The lookahead's rows, and the expected points: the win probability times the mean
        worth of the winning tiles, each weighted by its unseen copies."""
        answer = super().ready_value(counts, wall, ukeire, total)
        copies = sum(wall[t] for t in ukeire)
        odds = horse_chance(wall, self.seat_offset)
        worth = sum(wall[t] * self.win_value(counts, t, odds) for t in ukeire) / copies if copies else 0.0
        answer[2] = answer[1] * worth
        return answer


def discard_values(
    hand: Hand,
    checker: Checker,
    unseen: Counts,
    *,
    ghost: Tile | None,
    options: GuangdongOptions,
    seat_offset: int = 1,
    tiles: Iterable[Tile] | None = None,
    draws: int = GUANGDONG_DRAWS,
    max_states: int = GUANGDONG_MAX_STATES,
    deadline: float | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ExpectedScores:
    """Each discard of the 3n+2 ``hand`` (of ``tiles``, default every tile held) valued within
    ``draws`` draws by the Guangdong scorer, under ``checker`` (the hand's rules,
    :func:`~app.core.families.guangdong.tiles.hand_rules`) with its ``ghost``.

    ``unseen`` holds the unseen copies from the 14-tile hand's view; ``seat_offset`` is the
    hand's seat counted from the dealer (0: the dealer), which the horses read.
    """
    search = _Search(hand, checker, unseen, draws, max_states, deadline, cancelled, ghost, options, seat_offset)
    return values_by_discard(search, hand, tiles, draws)
