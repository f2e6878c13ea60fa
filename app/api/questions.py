"""Turn a request body into core values, and answer it through the cache.

The only place where JSON-shaped values become core types: tiles via
``parse_tiles``, rules via ``rule_profile``, melds via ``Meld.of``, hands via
``Hand.from_tiles``.  Every core error raised on the way is located at the
field it came from (see :func:`app.api.errors.located`).

>>> body = HandRequest(hand="123456789m1111z")
>>> asked = ask_one("shanten", body)
>>> asked.questions[0].hand.tile_count, asked.checker.rules.name
(13, 'riichi')
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import Final

from fastapi import Response
from pydantic import BaseModel

from app.api.answer_size import AnswerTally, batch_bound, too_large
from app.api.cache import ResultCache
from app.api.errors import ApiError, located
from app.api.schemas import BatchRequest, HandRequest, MeldSpec, RulesSpec
from app.core.engine import Checker
from app.core.errors import TooManyCopies
from app.core.hand import Hand, Meld
from app.core.rules import RuleProfile, rule_profile
from app.core.tiles import COPIES, Counts, Tile, counts_from_tiles, format_tile, parse_tiles

_NOTHING_SEEN: Final = bytes(34)


@dataclass(frozen=True, slots=True)
class Question:
    """One hand under one rule profile, with the tiles seen elsewhere: all canonical."""

    rules: RuleProfile
    hand: Hand
    visible: Counts

    def key(self, endpoint: str) -> tuple[Hashable, ...]:
        """The exact cache key: equal keys ask the same question, whatever the notation."""
        melds = tuple(sorted((meld.kind.value, meld.tiles) for meld in self.hand.melds))
        return (endpoint, self.rules, self.hand.counts, melds, self.visible)


@dataclass(frozen=True, slots=True)
class Asked:
    """A request as core values: its questions and the per-request checker answering them."""

    endpoint: str
    checker: Checker
    questions: tuple[Question, ...]
    is_batch: bool
    #: What else the answers depend on besides the questions (the /win decomposition limit).
    variant: Hashable = None

    def key(self, question: Question) -> tuple[Hashable, ...]:
        """The exact cache key of one of the questions."""
        key = question.key(self.endpoint)
        return key if self.variant is None else (*key, self.variant)

    def answer(self, cache: ResultCache, compute: Callable[[Checker, Question], BaseModel | bytes]) -> list[bytes]:
        """Each question's answer as JSON bytes, from the cache or from ``compute``, in order.

        The cache keeps the rendered JSON, so a hit costs neither computing nor
        serialising.
        """
        return [self.answer_at(index, cache, compute) for index in range(len(self.questions))]

    def answer_at(
        self, index: int, cache: ResultCache, compute: Callable[[Checker, Question], BaseModel | bytes]
    ) -> bytes:
        """The answer to question ``index`` (an error located at its hand), as :meth:`answer` gives it."""
        question = self.questions[index]
        with _located_hand(index if self.is_batch else None):
            return cache.get_or_compute(self.key(question), partial(_computed, compute, self.checker, question))


def _computed(compute: Callable[[Checker, Question], BaseModel | bytes], checker: Checker, question: Question) -> bytes:
    return _rendered(compute(checker, question))


def _rendered(answer: BaseModel | bytes) -> bytes:
    return answer if isinstance(answer, bytes) else answer.model_dump_json(by_alias=True).encode()


def json_response(body: bytes) -> Response:
    """A 200 answer whose JSON is already rendered."""
    return Response(body, media_type="application/json")


def batch_json(answers: list[bytes]) -> bytes:
    """``{"results": [...]}`` around rendered answers."""
    return b'{"results":[' + b",".join(answers) + b"]}"


def answer_batch(
    endpoint: str,
    body: BatchRequest,
    *,
    max_batch_size: int,
    max_answer_bytes: int,
    largest_answer: int,
    cache: ResultCache,
    vectorised: Callable[..., bytes | None],
    compute: Callable[[Checker, Question], BaseModel | bytes],
) -> Response:
    """A batch answer: the ``vectorised`` path when it takes the request, else hand by hand.

    A batch whose answer could pass ``max_answer_bytes`` (its hands times
    ``largest_answer``, the largest one answer can be) is refused before any work.
    """
    estimate = batch_bound(len(body.hands), largest_answer)
    if estimate > max_answer_bytes and len(body.hands) <= max_batch_size:
        fitting = max((max_answer_bytes - batch_bound(0, 0)) // (largest_answer + 1), 1)
        raise too_large(
            ("body", "hands"),
            estimate,
            max_answer_bytes,
            f"{len(body.hands)} hands of up to {largest_answer} bytes each",
            f"send at most {fitting} hands per batch",
        )
    rendered = vectorised(body, max_batch_size=max_batch_size)
    if rendered is None:
        asked = ask_batch(endpoint, body, max_batch_size=max_batch_size)
        tally = AnswerTally(max_answer_bytes, count=len(asked.questions), loc=("body", "hands"))
        rendered = batch_json(
            [tally.add(asked.answer_at(index, cache, compute)) for index in range(len(asked.questions))]
        )
    return json_response(rendered)


def _located_hand(index: int | None) -> AbstractContextManager[None]:
    """Place a core error about one hand: ``hand``, or ``hands[index]`` in a batch."""
    if index is None:
        return located("body")
    return located("body", renames={"hand": ("hands", index)}, index=index)


def request_tiles(value: object, *loc: str | int) -> list[Tile]:
    """Tiles of a request field in any notation; an error is located at ``loc``."""
    with located(*loc, keep_field=False):
        return parse_tiles(value)


def request_rules(rules: RulesSpec) -> RuleProfile:
    """The rule profile a request asks for."""
    with located("body", "rules"):
        return rule_profile(rules.preset, **rules.overrides())


def request_melds(melds: Sequence[MeldSpec], *loc: str | int) -> tuple[Meld, ...]:
    """Validated melds of a request field (``loc`` defaults to ``body.melds``)."""
    if not melds:
        return ()
    loc = loc or ("body", "melds")
    built = []
    for index, meld in enumerate(melds):
        tiles = request_tiles(meld.tiles, *loc, index, "tiles")
        with located(*loc, index):
            built.append(Meld.of(meld.kind, tiles))
    return tuple(built)


def request_visible(value: object) -> Counts:
    """Counts of the tiles seen elsewhere, at most four of each."""
    if value == "" or value == []:  # nothing seen (the default)
        return _NOTHING_SEEN
    counts = counts_from_tiles(request_tiles(value, "body", "visible"))
    # Checked here as well as in the core: the core adds these counts to the hand's
    # in a bytes object, which cannot hold a sum over 255.
    for tile, count in enumerate(counts):
        if count > COPIES:
            raise ApiError(
                ("body", "visible"),
                f"{count} copies of {format_tile(tile)} in visible tiles; a tile has {COPIES}",
                TooManyCopies.code,
            )
    return counts


def _question(
    checker: Checker, tiles: list[Tile], melds: Sequence[Meld], visible: Counts, index: int | None
) -> Question:
    with _located_hand(index):
        hand = Hand.from_tiles(tiles, melds)
        checker.remaining(hand, visible)  # at most 4 copies in hand, melds and visible together
    return Question(checker.rules, hand, visible)


def ask_one(endpoint: str, body: HandRequest, *, variant: Hashable = None) -> Asked:
    """The core values of a single-hand request (``variant``: see :attr:`Asked.variant`)."""
    checker = Checker(request_rules(body.rules))
    melds = request_melds(body.melds)
    visible = request_visible(body.visible)
    hand = request_tiles(body.hand, "body", "hand")
    return Asked(endpoint, checker, (_question(checker, hand, melds, visible, None),), is_batch=False, variant=variant)


def ask_batch(endpoint: str, body: BatchRequest, *, max_batch_size: int, variant: Hashable = None) -> Asked:
    """The core values of a batch request, refusing more than ``max_batch_size`` hands."""
    if len(body.hands) > max_batch_size:
        raise ApiError(
            ("body", "hands"),
            f"{len(body.hands)} hands in one batch; at most {max_batch_size}",
            "batch_too_large",
            ctx={"max_batch_size": max_batch_size},
        )
    checker = Checker(request_rules(body.rules))
    melds = request_melds(body.melds)
    visible = request_visible(body.visible)
    questions = tuple(
        _question(checker, request_tiles(hand, "body", "hands", index), melds, visible, index)
        for index, hand in enumerate(body.hands)
    )
    return Asked(endpoint, checker, questions, is_batch=True, variant=variant)
