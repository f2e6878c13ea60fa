"""How large an answer may get: a bound before the work, a tally while it is assembled.

``TENPAI_MAX_ANSWER_BYTES`` caps every hand answer.  Most are far below it: a /shanten
or /ting answer is at most about a kilobyte (:data:`LARGEST_SHANTEN`,
:data:`LARGEST_TING`), so a batch of the default 1,000 hands about a megabyte.  The
amplifier is /win with wildcards: a hand holding many wildcards completes in
thousands of ways, /win lists up to ``decomposition_limit`` of them at up to half a
kilobyte each, and a 20 KB batch of such hands once answered 100 MB.

So an answer is bounded twice:

* **Before the work**, from what the request shows: a batch's hands times the
  largest answer one hand can get (:func:`batch_bound`); for /win, a hand holding
  more than :data:`CHEAP_WILDCARDS` wildcards may list ``limit`` decompositions of at
  most :func:`decomposition_bytes` each (:func:`win_answer_bound`), while hands with
  fewer are answered first, exactly (microseconds each).  A request whose bound is
  over the cap is a 422 ``answer_too_large`` that says why and what to ask instead.
* **While assembling**, every piece is counted (:class:`AnswerTally`): no answer over
  the cap is ever built, whatever a bound missed.

>>> decomposition_bytes(14, 0) < decomposition_bytes(14, 14) < 700
True
>>> tally = AnswerTally(30, count=2, loc=("body", "hands"))
>>> tally.add(b'{"shanten":1}')
b'{"shanten":1}'
>>> tally.add(b'{"shanten":2}')
Traceback (most recent call last):
...
app.api.errors.ApiError: the answer would be over the 30-byte limit ...
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Protocol

from app.api.errors import ApiError, Loc
from app.api.render import shanten_json, ting_json
from app.api.schemas.hand import DecompositionOut, WildcardUse, WinResponse
from app.core.shape.engine import FORMS, OPEN_MELD_REQUIRED, ShantenResult, TileCount, WaitResult
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import NUM_TILE_KINDS, counted, format_tile

ANSWER_TOO_LARGE: Final = "answer_too_large"
#: A /win hand holding at most this many wildcards is answered before any bound is
#: taken: it lists few decompositions and costs tens of microseconds (one wildcard is
#: every Qiqihar hand holding a 红中).  Beyond, the count grows combinatorially.
CHEAP_WILDCARDS: Final = 2
_BATCH_WRAPPER: Final = len(b'{"results":[]}')
_HOW_TO_FIT: Final = "ask about fewer hands per batch, or set a lower decomposition_limit for /win"


def _every_tile() -> tuple[TileCount, ...]:
    return tuple(TileCount(tile, 4) for tile in range(NUM_TILE_KINDS))


#: The largest /shanten answer: every tile an ukeire tile (a bound, not a reachable hand).
LARGEST_SHANTEN: Final = len(shanten_json(ShantenResult(13, 13, 13, 13, _every_tile(), OPEN_MELD_REQUIRED)))
#: The largest /ting answer: every tile a wait.
LARGEST_TING: Final = len(
    ting_json(WaitResult(False, _every_tile(), False, OPEN_MELD_REQUIRED, tuple(range(NUM_TILE_KINDS))))
)


@lru_cache(maxsize=256)
def decomposition_bytes(tiles: int, wildcards: int) -> int:
    """At most how many bytes one listed decomposition of a ``tiles``-tile concealed hand
    holding ``wildcards`` wildcards takes, its separating comma included.

    The bound renders a decomposition with every field at its largest at once (the longest
    form name, every tile as a meld, a pair, a single and a knitted tile, a use per wildcard),
    through the same model the answer uses; every tile is two characters, so no real one is
    longer.
    """
    tile = format_tile(0)
    widest = DecompositionOut(
        form=max(FORMS, key=len),
        pair=tile,
        melds=[[tile] * 3] * (tiles // 3),
        pairs=[tile] * (tiles // 2),
        singles=[tile] * tiles,
        knitted=[tile] * tiles,
        wildcards=[WildcardUse(tile=tile, as_=tile)] * wildcards,
    )
    return len(widest.model_dump_json(by_alias=True)) + 1


#: A /win answer without its decompositions, every field at its longest.
_WIN_HEADER: Final = len(
    WinResponse(
        win=False,
        form=max(FORMS, key=len),
        decompositions=[],
        reason=OPEN_MELD_REQUIRED,
        truncated=False,
        complete_shape=False,
    ).model_dump_json()
)


class AskedHand(Protocol):
    """A hand and the rules it is asked under (:class:`app.api.questions.Question` is one).

    Only these two are read here, so this module needs nothing of the module that turns
    requests into questions (which imports this one to bound its answers).
    """

    @property
    def hand(self) -> Hand: ...

    @property
    def rules(self) -> RuleProfile: ...


def wildcards_held(question: AskedHand) -> int:
    """Copies of the rules' wildcard tiles in the question's concealed hand."""
    counts = question.hand.counts
    return sum(counts[tile] for tile in question.rules.wildcards)


def win_answer_bound(question: AskedHand, limit: int) -> int:
    """At most how many bytes the /win answer to ``question`` takes when listing at most ``limit`` decompositions."""
    per = decomposition_bytes(question.hand.tile_count, wildcards_held(question))
    return _WIN_HEADER + limit * per + 1


def batch_bound(count: int, largest: int) -> int:
    """At most how many bytes a batch answer of ``count`` answers of at most ``largest`` bytes takes."""
    return _BATCH_WRAPPER + count * (largest + 1)


def too_large(loc: Loc, estimate: int, cap: int, why: str, advice: str) -> ApiError:
    """The 422 for an answer of about ``estimate`` bytes over the ``cap``."""
    return ApiError(
        loc,
        f"the answer could reach {estimate} bytes, over the {cap}-byte limit (TENPAI_MAX_ANSWER_BYTES, "
        f"GET /limits): {why}; {advice}",
        ANSWER_TOO_LARGE,
        ctx={"max_answer_bytes": cap, "estimated_bytes": estimate},
    )


class AnswerTally:
    """Bytes of an answer as it is assembled from ``count`` pieces (a batch's, or one),
    refused with a 422 ``answer_too_large`` before it passes ``cap``."""

    def __init__(self, cap: int, *, count: int, loc: Loc, batch: bool = True) -> None:
        self.cap = cap
        self.loc = loc
        # The batch wrapper and the commas between its answers.
        self.used = _BATCH_WRAPPER + max(count - 1, 0) if batch else 0

    def add(self, piece: bytes) -> bytes:
        """Count ``piece`` in, and give it back."""
        self.used += len(piece)
        if self.used > self.cap:
            raise ApiError(
                self.loc,
                f"the answer would be over the {self.cap}-byte limit (TENPAI_MAX_ANSWER_BYTES, GET /limits); "
                + _HOW_TO_FIT,
                ANSWER_TOO_LARGE,
                ctx={"max_answer_bytes": self.cap},
            )
        return piece

    def expect_win(self, heavy: Sequence[AskedHand], limit: int) -> None:
        """Refuse, before computing them, /win questions (hands holding many wildcards) whose
        answers could take the tally over the cap; the message says how many hands, or which
        decomposition limit, would fit."""
        if not heavy:
            return
        bounds = [win_answer_bound(question, limit) for question in heavy]
        estimate = self.used + sum(bounds)
        if estimate <= self.cap:
            return
        room = self.cap - self.used
        sizes = [decomposition_bytes(question.hand.tile_count, wildcards_held(question)) for question in heavy]
        fitting_limit = (room - len(heavy) * (_WIN_HEADER + 1)) // sum(sizes)
        fitting_hands = max(room, 0) // max(bounds)
        why = (
            f"{counted(len(heavy), 'hand')} {'holds' if len(heavy) == 1 else 'hold'} more than {CHEAP_WILDCARDS} "
            f"wildcards, and each may list up to {counted(limit, 'decomposition')} of up to {max(sizes)} bytes"
        )
        advices = []
        if fitting_hands < len(heavy) and fitting_hands > 0:
            advices.append(f"send at most {counted(fitting_hands, 'such hand', 'such hands')} per request")
        if fitting_limit >= 1:
            advices.append(f"set decomposition_limit to at most {fitting_limit}")
        advice = " or ".join(advices) or "send fewer such hands per request"
        raise too_large(self.loc, estimate, self.cap, why, advice)
