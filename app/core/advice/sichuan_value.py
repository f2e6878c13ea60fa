"""What each discard is worth under Sichuan scoring (血战到底): expected base points by the hand's end.

The riichi value model (:mod:`app.core.advice.expected_score`) is compiled around the riichi
scorer; Sichuan pays by fans instead, where a flush (清一色, 2 fans) or a 根 doubles a win, so
a discard that keeps a flush in reach may be worth more than one nearer tenpai.  This search
values each discard by the Sichuan scorer (:func:`~app.core.value.sichuan_scoring.score_sichuan`).

**The model.**  One player plays alone against the wall (other players and calls are not
modelled): the search is the lookahead's (:class:`~app.core.advice.lookahead.DrawSearch`)
with a row for what the wins are worth.  From the 13-tile hand a discard leaves, a draw that
lowers the shanten is kept, with the best discard that keeps the new shanten; any other draw
is thrown at once.  While the hand holds a tile of
its void suit (定缺) the discard is a void tile, as the table rules force.  A ready hand wins
within ``d`` draws with probability ``1 - (1 - p)**d`` (``p`` the share of its winning tiles
in the wall), each winning tile as likely as its unseen copies, and a win is worth its
multiplier ``2 ** min(fan, max_fan)`` as a win on a discard, in base points (what the
discarder pays; a self-draw's extra base is left out, as it is the same for every discard).
Each discard's value is the expected base points within the draws left; its tenpai and win
probabilities are given beside it, each at its own best play.

**The wall.**  Unseen copies are counted from the 14-tile hand's view (the discarded tile is
seen), less what the hand has drawn since: a tile thrown does not come back.  A Sichuan wall
of 108 tiles deals 53 and leaves 55, about 13 draws per seat (:data:`SICHUAN_DRAWS`).

**Bounds.**  States (3n+1 hands analysed) are bounded by a budget and by a wall-clock
deadline; past either, states not yet searched count as never reaching a win, so the values
are lower bounds, flagged.

>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import parse_mpsz
>>> checker = Checker(rule_profile("sichuan"), 2)
>>> hand = Hand.from_tiles(parse_mpsz("1123345678m99m45p"))  # ready by throwing 1m, or a flush one away
>>> from app.core.advice.draw_values import describe
>>> for line in describe(discard_values(hand, checker, checker.remaining(hand)))[:3]:
...     print(line)
4p: shanten 1, tenpai 0.9964, win 0.4181, expected 1.0060
5p: shanten 1, tenpai 0.9964, win 0.4181, expected 1.0060
1m: shanten 0, tenpai 1.0000, win 0.6854, expected 0.6854
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Final

import numpy as np

from app.core.advice.draw_values import values_by_discard
from app.core.advice.expected_score import ExpectedScores
from app.core.advice.lookahead import DrawSearch
from app.core.errors import NotAWinningHand
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import NUM_TILE_KINDS, Counts, Tile
from app.core.shape.void_suit import forced_discards
from app.core.value.scoring_context import WinContext
from app.core.value.sichuan_scoring import score_sichuan

SICHUAN_DRAWS: Final = 13
"""Draws a seat makes in a Sichuan hand: 108 tiles, 53 dealt, 55 drawn by four seats."""
SICHUAN_MAX_STATES: Final = 30_000
"""States one search may analyse (a state costs 0.1 to 1 ms in Python): two-shanten hands need
hundreds to a few thousand, so a three-shanten hand may stop here, flagged."""
DEAL_IN_BASE_POINTS: Final = 2.0
"""Base points an assumed deal-in pays: a win's multiplier, 1 to 8 under the default cap, is
about 2 on average."""
#: The discard win that values a hand: seat 0 wins on seat 2's discard, seat 1 deals.
_DISCARD_WIN: Final = WinContext(winner=0, dealer=1, discarder=2)


def supports(rules: RuleProfile) -> bool:
    """Whether the Sichuan scorer can value hands under ``rules`` (the ``sichuan`` profile).

    >>> from app.core.shape.rules import rule_profile
    >>> supports(rule_profile("sichuan")), supports(rule_profile("riichi"))
    (True, False)
    """
    return rules.name == "sichuan" and rules.void_suit and not rules.wildcards


class _Search(DrawSearch):
    """The lookahead's search with a third row, the expected base points, and the void suit's
    discards first; the memo of wins and of the discards that keep a shanten."""

    #: Tenpai, win probability and expected base points.
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
    ) -> None:
        super().__init__(hand, checker, unseen, draws, max_states, None, deadline, cancelled)
        self.rules = checker.rules
        self.wins: dict[tuple[bytes, Tile], float] = {}
        self.kept: dict[bytes, frozenset[Tile]] = {}
        self.void = checker.void_suit
        self.context = _DISCARD_WIN._replace(void_suit=checker.void_suit)

    def keeping(self, drawn: bytes, shanten: int) -> frozenset[Tile]:
        """The discards of the 3n+2 hand ``drawn`` that leave ``shanten`` (its shanten numbers at
        once: cheaper than analysing each hand left, most of which are not kept)."""
        known = self.kept.get(drawn)
        if known is None:
            numbers = self.checker.discard_shanten_numbers(Hand(drawn, self.melds))
            known = self.kept[drawn] = frozenset(tile for tile, left in numbers if left == shanten)
        return known

    def win_value(self, counts: bytes, tile: Tile) -> float:
        """Base points of the win on ``tile`` by the 3n+1 hand ``counts``, as a discard win."""
        key = (counts, tile)
        known = self.wins.get(key)
        if known is None:
            whole = bytearray(counts)
            whole[tile] += 1
            try:
                known = float(score_sichuan(Hand(bytes(whole), self.melds), tile, self.rules, self.context).multiplier)
            except NotAWinningHand:  # a shape the scorer does not take: worth nothing here
                known = 0.0
            self.wins[key] = known
        return known

    def ready_value(self, counts: bytes, wall: list[int], ukeire: tuple[Tile, ...], total: int) -> np.ndarray:
        """The lookahead's rows, and the expected base points: the win probability times the
        mean worth of the winning tiles, each weighted by its unseen copies."""
        answer = super().ready_value(counts, wall, ukeire, total)
        copies = sum(wall[t] for t in ukeire)
        worth = sum(wall[t] * self.win_value(counts, t) for t in ukeire) / copies if copies else 0.0
        answer[2] = answer[1] * worth
        return answer

    def discards(self, drawn: bytearray) -> Iterable[Tile]:
        """The discards the hand may make: a void tile while it holds one, else any tile."""
        forced = forced_discards(bytes(drawn), self.void)
        return forced or [tile for tile in range(NUM_TILE_KINDS) if drawn[tile]]

    def children(self, drawn: bytearray, shanten: int) -> Iterator[bytes]:
        """The hands kept by the discards the table allows that leave ``shanten``; out of time,
        hands searched before still count (the values are lower bounds all the same)."""
        keeping = self.keeping(bytes(drawn), shanten)
        for discard in self.discards(drawn):
            if discard in keeping:
                drawn[discard] -= 1
                child = bytes(drawn)
                drawn[discard] += 1
                yield child


def discard_values(
    hand: Hand,
    checker: Checker,
    unseen: Counts,
    *,
    tiles: Iterable[Tile] | None = None,
    draws: int = SICHUAN_DRAWS,
    max_states: int = SICHUAN_MAX_STATES,
    deadline: float | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ExpectedScores:
    """Each discard of the 3n+2 ``hand`` (of ``tiles``, default every tile held) valued by the
    Sichuan scorer within ``draws`` draws, under ``checker`` (bound to the hand's void suit).

    ``unseen`` holds the unseen copies from the 14-tile hand's view
    (:meth:`Checker.remaining <app.core.shape.engine.Checker.remaining>` with the tiles seen
    elsewhere).  The answer has the riichi model's shape: ``first_turn`` is 1 and ``last_turn``
    the draws searched.
    """
    search = _Search(hand, checker, unseen, draws, max_states, deadline, cancelled)
    return values_by_discard(search, hand, tiles, draws)


@dataclass(frozen=True, slots=True)
class SichuanValue:
    """Sichuan's value model as the expected-score ranking reads every family's
    (:class:`~app.core.advice.discard.ValueModel`): :func:`discard_values`, in base points."""

    draws: int = SICHUAN_DRAWS
    max_states: int = SICHUAN_MAX_STATES
    unit: str = "base points"
    deal_in: float = DEAL_IN_BASE_POINTS

    def discard_values(
        self,
        hand: Hand,
        checker: Checker,
        unseen: Counts,
        *,
        tiles: Iterable[Tile],
        draws: int,
        max_states: int,
        deadline: float | None,
        cancelled: Callable[[], bool] | None,
    ) -> ExpectedScores:
        """Each of ``tiles`` discarded from ``hand``, valued by the Sichuan scorer (flushes and 根 included)."""
        return discard_values(
            hand,
            checker,
            unseen,
            tiles=tiles,
            draws=draws,
            max_states=max_states,
            deadline=deadline,
            cancelled=cancelled,
        )


#: The one Sichuan value model.
SICHUAN_VALUE: Final = SichuanValue()
