"""How likely a 3n+1 hand is to reach tenpai, and to win, within a number of draws.

An exact expectimax over one player's draws, after the model of mahjong-cpp's
tenpai and win probabilities (other players and calls are not modelled):

* **Draws** come from the unseen tiles: the copies not seen from the player's view
  at the start, less the copies the hand has gained since.  A drawn tile that is
  discarded again counts as unseen once more; this makes a state's value depend
  only on the hand and the draws left, so every hand is searched once (ours).
* **Play.**  After a draw that lowers the shanten, the player keeps the shanten at
  its new minimum with the best of the discards that do (a separate best for the
  tenpai and for the win probability).  Any other draw is discarded at once: the
  search does not break shape to rebuild it, nor swap tiles at equal shanten.
* **Tenpai** counts when the hand can win on some tile (the rules' precondition
  included: a Qiqihar hand without an exposed pon is never tenpai here, since calls
  are not modelled).  A tenpai hand then wins with probability
  ``1 - (1 - p)**d`` in ``d`` draws, ``p`` the share of its winning tiles in the wall.

``value[d]`` is the probability within ``d`` draws; both vectors are computed for
every ``d`` at once, so a hand's value is a pair of vectors.  The work is counted
in *states*: hands whose ukeire was examined.  Past the budget, hands not yet
examined count as never reaching their goal, so the answer is a lower bound,
flagged ``complete=False`` with ``stopped_by="states"``.

The search may also be given a wall-clock ``deadline`` (a :func:`time.monotonic`
instant) and a ``cancelled`` callable (the caller has gone).  Both are checked
before each new state: a state costs 0.2 to 10 ms, a clock read 50 ns, so the
search overruns by one state at most.  Once either says stop, every draw not yet
searched counts as never reaching the goal (no further hand is analysed), and the
answer is again a flagged lower bound, ``stopped_by="time"``.

>>> from app.core.shape.engine import Checker
>>> from app.core.shape.hand import Hand
>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import parse_mpsz
>>> ready = Hand.from_tiles(parse_mpsz("123m456p789s1122z"))
>>> result = lookahead(ready, Checker(rule_profile("riichi")), bytes(34), draws=1, budget=100)
>>> result.tenpai_probability, round(result.win_probability, 4), result.complete  # 4 winning copies in 123 unseen
(1.0, 0.0325, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from enum import StrEnum
from typing import NamedTuple

import numpy as np

from app.core.errors import WrongTileCount
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand
from app.core.shape.tiles import NUM_TILE_KINDS, Counts, counted

#: Per 3n+1 hand's counts: (shanten, ukeire tiles, can win on some tile); shareable between searches.
Analysis = dict[bytes, tuple[int, tuple[int, ...], bool]]


class LookaheadStop(StrEnum):
    """Why a search ended before it had examined every state it needed."""

    #: The state budget ran out.
    STATES = "states"
    #: The wall-clock deadline passed, or the caller gave up (``cancelled``).
    TIME = "time"


class LookaheadResult(NamedTuple):
    """Probabilities of tenpai and of a win within ``draws`` draws, best play."""

    draws: int
    tenpai_probability: float
    win_probability: float
    #: States examined.
    states: int
    #: False when the budget or the time ran out: the probabilities are lower bounds.
    complete: bool
    #: What cut the search short; None when it is complete.
    stopped_by: LookaheadStop | None = None


class DrawSearch:
    """One search: the start, the wall model, the memo of hands and the work done.

    A hand's value has one row per measure, by draws left 0..draws: the tenpai and the win
    probability here.  The Sichuan search (:mod:`app.core.advice.sichuan_value`) extends this
    one: it adds a row for what the win is worth (:meth:`ready_value`) and narrows the discards
    to its void suit's (:meth:`children`); the draws, the wall, the bounds and the recurrence
    are this class's, for both.
    """

    #: Measures per value: tenpai and win probability.
    rows = 2

    def __init__(
        self,
        start: Hand,
        checker: Checker,
        wall: Counts,
        draws: int,
        budget: int,
        analysis: Analysis | None,
        deadline: float | None,
        cancelled: Callable[[], bool] | None,
    ) -> None:
        """A search from ``start`` (its counts the origin of :meth:`wall_of`), ``wall`` the
        copies unseen from its view."""
        self.checker = checker
        self.melds = start.melds
        self.start = start.counts
        self.wall = wall
        self.draws = draws
        self.budget = budget
        self.deadline = deadline
        self.cancelled = cancelled
        self.states = 0
        self.stopped_by: LookaheadStop | None = None
        #: Set once the deadline passed or the caller cancelled: search nothing more.
        self.out_of_time = False
        self.memo: dict[bytes, np.ndarray] = {}
        # Shanten and ukeire of a hand depend on the hand alone: shareable between searches.
        self.analysis: Analysis = {} if analysis is None else analysis
        self.zero = np.zeros((self.rows, draws + 1))

    def analyse(self, counts: bytes) -> tuple[int, tuple[int, ...], bool]:
        """(shanten, ukeire tiles, can win on some tile) of a 3n+1 hand."""
        known = self.analysis.get(counts)
        if known is None:
            hand = Hand(counts, self.melds)
            result = self.checker.shanten(hand)
            tiles = tuple(t.tile for t in result.ukeire or ())
            ready = result.shanten == 0 and bool(tiles) and self.checker.precondition_failure(hand) is None
            known = (result.shanten, tiles, ready)
            self.analysis[counts] = known
        return known

    def wall_of(self, counts: bytes) -> list[int]:
        """Unseen copies with the hand as it is: the start's wall less what the hand gained."""
        return [max(0, w - max(0, c - s)) for w, c, s in zip(self.wall, counts, self.start, strict=True)]

    def ready_value(self, counts: bytes, wall: list[int], ukeire: tuple[int, ...], total: int) -> np.ndarray:
        """The value of the ready hand ``counts``: tenpai at once, and a win within ``d`` draws
        with probability ``1 - (1 - p)**d``, ``p`` the share of its winning tiles in the wall."""
        chance = sum(wall[t] for t in ukeire) / total if total else 0.0
        answer = np.empty((self.rows, self.draws + 1))  # rows past these two: an extension's to fill
        answer[0] = 1.0
        answer[1] = 1.0 - (1.0 - chance) ** np.arange(self.draws + 1)
        return answer

    def children(self, drawn: bytearray, shanten: int) -> Iterator[bytes]:
        """The hands a draw into ``drawn`` may keep: each discard that leaves ``shanten``.

        No hand once out of time: such a draw counts as never reaching the goal, even where its
        hands were searched before (a lower bound).  ``drawn`` is left as it was.
        """
        for discard in range(NUM_TILE_KINDS):
            if not drawn[discard] or self.out_of_time:
                continue
            drawn[discard] -= 1
            child = bytes(drawn)
            drawn[discard] += 1
            if self.analyse(child)[0] == shanten:
                yield child

    def value(self, counts: bytes) -> np.ndarray:
        """The measures (rows) by draws left 0..draws: shape (rows, draws + 1)."""
        known = self.memo.get(counts)
        if known is not None:
            return known
        if self.out_of_time:
            return self.zero
        if self.states >= self.budget:
            self.stopped_by = self.stopped_by or LookaheadStop.STATES
            return self.zero
        if (self.deadline is not None and time.monotonic() >= self.deadline) or (
            self.cancelled is not None and self.cancelled()
        ):
            self.out_of_time = True
            self.stopped_by = LookaheadStop.TIME
            return self.zero
        self.states += 1
        shanten, ukeire, ready = self.analyse(counts)
        wall = self.wall_of(counts)
        total = sum(wall)
        draws = self.draws
        if ready:
            answer = self.ready_value(counts, wall, ukeire, total)
        elif shanten <= 0 or not total:
            answer = self.zero  # ready in shape only (or no wall): this model cannot go on
        else:
            reached = np.zeros((self.rows, draws + 1))  # sum over effective draws of p * best child value
            stay = 1.0
            for tile in ukeire:
                if not wall[tile] or counts[tile] >= 4:
                    continue
                p = wall[tile] / total
                drawn = bytearray(counts)
                drawn[tile] += 1
                best = self.zero.copy()
                for child in self.children(drawn, shanten - 1):
                    np.maximum(best, self.value(child), out=best)  # each measure at its best
                reached += p * best
                stay -= p
            # value[d] = stay * value[d - 1] + reached[d - 1]: a short recurrence, on plain floats.
            answer = np.zeros((self.rows, draws + 1))
            for row, sums in zip(answer, reached.tolist(), strict=True):
                running = 0.0
                for d in range(1, draws + 1):
                    running = stay * running + sums[d - 1]
                    row[d] = running
        self.memo[counts] = answer
        return answer


def lookahead(
    hand: Hand,
    checker: Checker,
    seen: Counts,
    *,
    draws: int,
    budget: int,
    analysis: Analysis | None = None,
    deadline: float | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> LookaheadResult:
    """Tenpai and win probability of a 3n+1 ``hand`` within ``draws`` draws.

    ``seen`` holds the tiles seen outside the hand (the discarded tile included);
    ``budget`` caps the states examined, ``deadline`` (a :func:`time.monotonic`
    instant) the wall-clock time, and ``cancelled()``, asked with the clock, ends
    the search as the deadline would.  Searches of hands with the same melds and
    checker may pass one ``analysis`` dict to share the shanten work.  Raises
    :class:`WrongTileCount` for a hand that is not 3n+1.

    >>> from app.core.shape.rules import rule_profile
    >>> from app.core.shape.tiles import parse_mpsz
    >>> far = Hand.from_tiles(parse_mpsz("159m2468p1357s15z"))
    >>> late = lookahead(far, Checker(rule_profile("riichi")), bytes(34), draws=6, budget=10**6, deadline=0.0)
    >>> late.complete, late.stopped_by, late.states, late.tenpai_probability
    (False, <LookaheadStop.TIME: 'time'>, 0, 0.0)
    """
    if hand.tile_count % 3 != 1:
        raise WrongTileCount(
            f"the lookahead starts from a 3n+1 hand, got {counted(hand.tile_count, 'tile')}", field="hand"
        )
    search = DrawSearch(hand, checker, checker.remaining(hand, seen), draws, budget, analysis, deadline, cancelled)
    tenpai, win = search.value(hand.counts)[:, draws].tolist()
    return LookaheadResult(draws, tenpai, win, search.states, search.stopped_by is None, search.stopped_by)
