"""Turn a request body into core values, and answer it through the cache.

The one place where JSON-shaped values become core types, for every endpoint
(``ask_one`` and ``ask_batch`` for the hand questions, ``ask_discard``,
``request_win`` for /score and a judged /win, ``ask_game`` for /simulate): tiles via
``parse_tiles``, rules via ``rule_profile``, melds via ``Meld.of``, hands via
``Hand.from_tiles``.  Every core error raised on the way is located at the
field it came from (see :func:`app.api.errors.located`).

>>> body = HandRequest(hand="123456789m1111z")
>>> asked = ask_one("shanten", body)
>>> asked.questions[0].hand.tile_count, asked.checker.rules.name
(13, 'riichi')

Red fives are read here too: a ``0`` in an mpsz ``hand``, ``melds[i].tiles`` or
``win_tile`` is a red five, counted as a five by the tile parser and handed to the
core as ``WinContext.red_fives``.

>>> _red_fives("406p 0s"), _red_fives("五筒"), _red_fives([4, 13])
((13, 22), (), ())

>>> question = ask_discard(DiscardRequest(hand="123m456p789s1122z5z", dora_indicators="4z"))
>>> question.hand.tile_count, question.dora_indicators, discard_key(question)[0]
(14, (30,), 'discard')
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Final, NamedTuple

from fastapi import Response
from pydantic import BaseModel

from app.api.answer_size import AnswerTally, batch_bound, too_large
from app.api.cache import ResultCache
from app.api.errors import ApiError, Loc, located
from app.api.schemas.common import BatchRequest, HandRequest, MeldSpec, RulesSpec, Situation, WinSituation
from app.api.schemas.discard import DiscardRequest, OpponentSpec, OptionsSpec
from app.api.schemas.simulate import SimulateRequest
from app.core.advice.discard import DEFAULT_OPTIONS, DiscardQuestion
from app.core.advice.open_tenpai import hand_discards_after_call
from app.core.advice.safety import Opponent
from app.core.errors import InvalidMeld, TooManyCopies
from app.core.families.registry import TABLES, TYPED_PRESETS, rules_and_options, rules_of, table_rules_of
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import (
    COPIES,
    EAST,
    MAX_MELDS,
    NORTH,
    Counts,
    Tile,
    counted,
    counts_from_tiles,
    detect_notation,
    format_tile,
    parse_counts,
    parse_mpsz_with_red,
    parse_tiles,
)
from app.core.shape.void_suit import InvalidVoidSuit, parse_suit
from app.core.table.family import Family
from app.core.table.game import GameConfig, validate_config
from app.core.value.scoring import OPTIONAL_SITUATION, SCORING, SITUATION_FIELDS
from app.core.value.scoring_context import InvalidWinContext, WinContext
from app.settings import Settings

_NOTHING_SEEN: Final = bytes(34)


def melds_key(melds: Sequence[Meld]) -> tuple[tuple[str, tuple[Tile, ...]], ...]:
    """Melds in a cache key: their order in the request does not change the question."""
    return tuple(sorted((meld.kind.value, meld.tiles) for meld in melds))


@dataclass(frozen=True, slots=True)
class Question:
    """One hand under one rule profile, with the tiles seen elsewhere: all canonical."""

    rules: RuleProfile
    hand: Hand
    visible: Counts
    #: The hand's void suit, under rules with one (None: the best suit to void).
    void_suit: int | None = None

    def key(self, endpoint: str) -> tuple[Hashable, ...]:
        """The exact cache key: equal keys ask the same question, whatever the notation."""
        return (endpoint, self.rules, self.hand.counts, melds_key(self.hand.melds), self.visible, self.void_suit)


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


class RenderedJson(Response):
    """A 200 answer whose JSON is already rendered: its two headers written directly
    (Starlette's general constructor, which renders content and picks a charset, cost a
    microsecond and a half on every answer).

    >>> RenderedJson(b'{"x":1}').headers["content-length"]
    '7'
    """

    media_type = "application/json"

    def __init__(self, body: bytes) -> None:
        self.status_code = 200
        self.background = None
        self.body = body
        self.raw_headers = [(b"content-length", b"%d" % len(body)), (b"content-type", b"application/json")]


def json_response(body: bytes) -> Response:
    """A 200 answer whose JSON is already rendered."""
    return RenderedJson(body)


def batch_json(answers: list[bytes]) -> bytes:
    """``{"results": [...]}`` around rendered answers."""
    return b'{"results":[' + b",".join(answers) + b"]}"


def answer_batch(
    endpoint: str,
    body: BatchRequest,
    *,
    settings: Settings,
    largest_answer: int,
    cache: ResultCache,
    vectorised: Callable[..., bytes | None],
    compute: Callable[[Checker, Question], BaseModel | bytes],
    variant: Hashable = None,
) -> Response:
    """A batch answer: the ``vectorised`` path when it takes the request, else hand by hand.

    A batch whose answer could pass ``settings.max_answer_bytes`` (its hands times
    ``largest_answer``, the largest one answer can be) is refused before any work.
    ``variant``: see :attr:`Asked.variant`.
    """
    max_batch_size, max_answer_bytes = settings.max_batch_size, settings.max_answer_bytes
    estimate = batch_bound(len(body.hands), largest_answer)
    if estimate > max_answer_bytes and len(body.hands) <= max_batch_size:
        fitting = max((max_answer_bytes - batch_bound(0, 0)) // (largest_answer + 1), 1)
        raise too_large(
            ("body", "hands"),
            estimate,
            max_answer_bytes,
            f"{counted(len(body.hands), 'hand')} of up to {largest_answer} bytes each",
            f"send at most {counted(fitting, 'hand')} per batch",
        )
    rendered = vectorised(body, max_batch_size=max_batch_size)
    if rendered is None:
        asked = ask_batch(endpoint, body, max_batch_size=max_batch_size, variant=variant)
        tally = AnswerTally(max_answer_bytes, count=len(asked.questions), loc=("body", "hands"))
        rendered = batch_json(
            [tally.add(asked.answer_at(index, cache, compute)) for index in range(len(asked.questions))]
        )
    return json_response(rendered)


# The places of a single-hand request, made once: a ``located`` holds no state of its own.
_AT_BODY: Final = located("body")
_AT_RULES: Final = located("body", "rules")
_AT_HAND_TILES: Final = located("body", "hand", keep_field=False)


def _located_hand(index: int | None) -> AbstractContextManager[None]:
    """Place a core error about one hand: ``hand``, or ``hands[index]`` in a batch."""
    if index is None:
        return _AT_BODY
    return located("body", renames={"hand": ("hands", index)}, index=index)


def request_tiles(value: object, *loc: str | int) -> list[Tile]:
    """Tiles of a request field in any notation; an error is located at ``loc``."""
    with located(*loc, keep_field=False):
        return parse_tiles(value)


def request_rules(rules: RulesSpec) -> RuleProfile:
    """The rule profile a request asks for."""
    with _AT_RULES:
        return rules_of(rules.preset, **rules.overrides())


def request_table_rules(rules: RulesSpec) -> RuleProfile:
    """The rule profile a table request (a log to judge, review or convert) asks for: what
    the table chooses each hand (a ghost turned at the deal) is the log's, not the request's."""
    with _AT_RULES:
        return table_rules_of(rules.preset, **rules.overrides())


class RequestRules(NamedTuple):
    """A request's rules with what its family brings: the shape rules, and for a preset with
    its family's own typed options (:data:`~app.core.families.registry.TYPED_PRESETS`) those
    options and the family that reads them (None, None for the other presets)."""

    profile: RuleProfile
    options: Hashable | None
    family: Family | None


def request_family_rules(rules: RulesSpec) -> RequestRules:
    """The rules a request asks for, with its family's typed options where the preset has them."""
    with _AT_RULES:
        profile, options = rules_and_options(rules.preset, **rules.overrides())
    return RequestRules(profile, options, TYPED_PRESETS.get(rules.preset) if options is not None else None)


def request_checker(rules: RuleProfile, void_suit: str | None) -> Checker:
    """The checker of a hand question: ``rules`` and, under rules with a void suit, the
    request's (a 422 ``invalid_void_suit`` at ``void_suit`` under rules without one)."""
    if void_suit is None:
        return Checker(rules)
    with _AT_BODY:
        return Checker(rules, parse_suit(void_suit))


def request_void_suit(rules: RuleProfile, void_suit: str | None) -> int | None:
    """A request's void suit as an int, refused (422 at ``void_suit``) under rules without one."""
    return request_checker(rules, void_suit).void_suit


def request_melds(melds: Sequence[MeldSpec], rules: RuleProfile, *loc: str | int) -> tuple[Meld, ...]:
    """Validated melds of a request field (``loc`` defaults to ``body.melds``), each one a
    call ``rules`` allow: every route's melds pass here, so a chi under rules without chi
    (sanma) is refused at its ``kind`` on every route alike."""
    if not melds:
        return ()
    loc = loc or ("body", "melds")
    if len(melds) > MAX_MELDS:  # refused before parsing a single one: a body may hold thousands
        raise ApiError(loc, f"a hand has at most {MAX_MELDS} melds, got {len(melds)}", InvalidMeld.code)
    built = []
    for index, meld in enumerate(melds):
        tiles = request_tiles(meld.tiles, *loc, index, "tiles")
        with located(*loc, index):
            one = Meld.of(meld.kind, tiles)
            rules.check_meld_allowed(one.kind, field="kind")
        built.append(one)
    return tuple(built)


def request_visible(value: object) -> Counts:
    """Counts of the tiles seen elsewhere, at most four of each."""
    if value in ("", [], ()):  # nothing seen (the default is ())
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


def request_counts(value: object, *loc: str | int) -> Counts:
    """Counts of the tiles of a request field in any notation; an error is located at ``loc``."""
    with located(*loc, keep_field=False):
        return parse_counts(value)


def _question(checker: Checker, counts: Counts, melds: Sequence[Meld], visible: Counts, index: int | None) -> Question:
    with _located_hand(index):
        hand = Hand.from_counts(counts, melds)  # at most 4 copies in hand and melds together
        if visible is not _NOTHING_SEEN or checker.rules.absent_tiles:
            checker.remaining(hand, visible)  # ... and with the visible tiles; no absent tile
    return Question(checker.rules, hand, visible, checker.void_suit)


def ask_one(endpoint: str, body: HandRequest, *, variant: Hashable = None) -> Asked:
    """The core values of a single-hand request (``variant``: see :attr:`Asked.variant`)."""
    checker = request_checker(request_rules(body.rules), body.void_suit)
    melds = request_melds(body.melds, checker.rules)
    visible = request_visible(body.visible)
    with _AT_HAND_TILES:
        hand = parse_counts(body.hand)
    return Asked(endpoint, checker, (_question(checker, hand, melds, visible, None),), is_batch=False, variant=variant)


class Situated(NamedTuple):
    """A single-hand request asked with its situation: the question, the winning tile
    (None for /ting, which tries every wait) and the situation as core values."""

    asked: Asked
    win_tile: Tile | None
    context: WinContext


def ask_situated(
    endpoint: str, body: HandRequest, situation: Situation, *, variant: Callable[[Tile | None, WinContext], Hashable]
) -> Situated:
    """:func:`ask_one` for /win or /ting asked with a ``situation``: the hand, melds and rules
    are read once, for the question and the situation alike.  ``variant`` gives what else the
    answer depends on from the winning tile and the situation (see :attr:`Asked.variant`)."""
    rules = request_rules(body.rules)
    checker = request_checker(rules, body.void_suit)
    hand, win_tile, context = request_situation(situation, body.hand, body.melds, rules)
    if checker.void_suit is not None and context.void_suit is None:
        context = context._replace(void_suit=checker.void_suit)  # the scorer judges the hand's void suit too
    elif context.void_suit is not None and checker.void_suit is None:
        checker = checker.bound(context.void_suit)  # ... and the shape the situation's
    elif context.void_suit != checker.void_suit:
        raise ApiError(
            ("body", "void_suit"),
            "void_suit and situation.void_suit name different suits; give the hand's void suit once",
            InvalidVoidSuit.code,
        )
    question = _question(checker, hand.counts, hand.melds, request_visible(body.visible), None)
    return Situated(Asked(endpoint, checker, (question,), False, variant(win_tile, context)), win_tile, context)


def ask_batch(endpoint: str, body: BatchRequest, *, max_batch_size: int, variant: Hashable = None) -> Asked:
    """The core values of a batch request, refusing more than ``max_batch_size`` hands."""
    if len(body.hands) > max_batch_size:
        raise ApiError(
            ("body", "hands"),
            f"{len(body.hands)} hands in one batch; at most {max_batch_size}",
            "batch_too_large",
            ctx={"max_batch_size": max_batch_size},
        )
    checker = request_checker(request_rules(body.rules), body.void_suit)
    melds = request_melds(body.melds, checker.rules)
    visible = request_visible(body.visible)
    questions = tuple(
        _question(checker, request_counts(hand, "body", "hands", index), melds, visible, index)
        for index, hand in enumerate(body.hands)
    )
    return Asked(endpoint, checker, questions, is_batch=True, variant=variant)


# --- a /discard request -----------------------------------------------------------


def discard_key(question: DiscardQuestion) -> tuple[Hashable, ...]:
    """The exact cache key of a /discard question: everything the answer depends on, order-free
    where order does not matter."""
    opponents = tuple(
        (o.river, o.riichi, o.riichi_turn, melds_key(o.melds), o.tsumogiri, o.calls_at) for o in question.opponents
    )
    return (
        "discard",
        question.rules,
        question.hand.counts,
        melds_key(question.hand.melds),
        tuple(question.red_fives),
        question.visible,
        tuple(sorted(question.dora_indicators)),
        opponents,
        question.turn,
        question.weights,
        question.options,
        question.value_winds,
        question.model,
        question.seat_wind,
        question.round_wind,
        question.value_budget,
        question.void_suit,
        question.value_model,
    )


def asks_extras(question: DiscardQuestion) -> bool:
    """Whether a /discard question asks for an extra that takes milliseconds or more."""
    return question.options.improvements or question.options.good_shape or question.options.lookahead


def _hand_tiles(value: object) -> tuple[list[Tile], tuple[Tile, ...]]:
    """The hand's tiles and, for mpsz text, its red fives."""
    if isinstance(value, str) and "0" in value:
        with located("body", "hand", keep_field=False):
            if detect_notation(value) == "mpsz":
                return parse_mpsz_with_red(value)
    return request_tiles(value, "body", "hand"), ()


def _opponent(spec: OpponentSpec, rules: RuleProfile, index: int) -> Opponent:
    """One of a /discard request's opponents; with its discards' flags and its calls' places, the
    hand discards since its last call are counted from them, as the table counts them."""
    tsumogiri = None if spec.tsumogiri is None else tuple(spec.tsumogiri)
    calls_at = tuple(spec.calls_at)
    return Opponent(
        tuple(request_tiles(spec.river, "body", "opponents", index, "river")),
        spec.riichi,
        spec.riichi_turn,
        request_melds(spec.melds, rules, "body", "opponents", index, "melds"),
        hand_discards_after_call=0 if tsumogiri is None else hand_discards_after_call(tsumogiri, calls_at),
        tsumogiri=tsumogiri,
        calls_at=calls_at,
    )


def ask_discard(body: DiscardRequest) -> DiscardQuestion:
    """The core values of a /discard request (structure checked; copies are checked by the core)."""
    rules, family_options, family = request_family_rules(body.rules)
    void_suit = request_void_suit(rules, body.void_suit)
    melds = request_melds(body.melds, rules)
    tiles, red = _hand_tiles(body.hand)
    with located("body"):
        hand = Hand.from_tiles(tiles, melds)
        weights = body.weights.core().validated()
    opponents = tuple(_opponent(spec, rules, index) for index, spec in enumerate(body.opponents))
    seat_wind = None if body.seat_wind is None else _one_wind(body.seat_wind, "seat_wind")
    value_model = None
    if family is not None:  # the family values its own hands; the seat wind tells its seat from the dealer's
        value_model = family.value_model(
            rules, family_options, seat_offset=None if seat_wind is None else seat_wind - EAST
        )
    return DiscardQuestion(
        hand,
        rules,
        visible=request_visible(body.visible),
        dora_indicators=tuple(request_tiles(body.dora_indicators, "body", "dora_indicators")),
        opponents=opponents,
        turn=body.turn,
        weights=weights,
        options=body.options.core() if body.options != _DEFAULT_OPTIONS_SPEC else DEFAULT_OPTIONS,
        red_fives=red,
        value_winds=_value_winds(body.seat_wind, body.round_wind),
        model=body.model,
        seat_wind=seat_wind,
        round_wind=EAST if body.round_wind is None else _one_wind(body.round_wind, "round_wind"),
        void_suit=void_suit,
        value_model=value_model,
    )


def _one_wind(value: object, field: str) -> Tile:
    tiles = request_tiles(value, "body", field)
    if len(tiles) != 1 or not EAST <= tiles[0] <= NORTH:
        shown = "".join(format_tile(tile) for tile in tiles[:4]) or "no tile"
        raise ApiError(("body", field), f"{field} is one wind tile, 1z..4z; got {shown}", "invalid_notation")
    return tiles[0]


def _value_winds(seat_wind: object, round_wind: object) -> tuple[Tile, ...] | None:
    """The seat and round winds, or None when neither is given (the round is East by default)."""
    if seat_wind is None and round_wind is None:
        return None
    winds = [] if seat_wind is None else [_one_wind(seat_wind, "seat_wind")]
    winds.append(EAST if round_wind is None else _one_wind(round_wind, "round_wind"))
    return tuple(sorted(winds))


_DEFAULT_OPTIONS_SPEC: Final = OptionsSpec()


# --- a /simulate request ----------------------------------------------------------


def ask_game(body: SimulateRequest, *, max_games: int) -> GameConfig:
    """The table of a /simulate request, refusing more than ``max_games`` games or a lineup
    that does not seat the rules' players."""
    if body.games > max_games:
        raise ApiError(
            ("body", "games"),
            f"games is {body.games}; this service plays at most {max_games} per request "
            "(run python -m app.selfplay for more)",
            "too_many_games",
        )
    players = tuple(player.value for player in body.players)
    with located("body", "options"):
        rules_of(body.rules.value, **body.options)
    config = GameConfig(
        body.rules.value,
        players,
        body.seed,
        weights=body.weights.core(),
        length=body.length.value,
        record_events=False,
        # Hashable for the result cache's key: a list value (tiles, meld kinds) as a tuple.
        options=tuple(
            sorted((name, tuple(value) if isinstance(value, list) else value) for name, value in body.options.items())
        ),
    )
    with located("body"):
        validate_config(config, TABLES)
    return config


# --- a win's situation (/score, and /win when asked with one) ---------------------------


def _red_fives(value: object) -> tuple[Tile, ...]:
    """Red fives written in a tiles value (mpsz ``0``; other notations have none).

    Called on values that ``request_tiles`` has already parsed.
    """
    if isinstance(value, str) and "0" in value and detect_notation(value) == "mpsz":
        return parse_mpsz_with_red(value)[1]
    return ()


def _one_tile(value: object, *loc: str | int) -> Tile:
    tiles = request_tiles(value, *loc)
    if len(tiles) != 1:
        raise ApiError(loc, f"{loc[-1]} is one tile, got {len(tiles)}", "invalid_notation")
    return tiles[0]


_UNUSED: Final = WinContext(0, 0)


def _refuse_unused_situation(
    situation: Situation, context: WinContext, rules: RuleProfile, at: Loc, read: frozenset[str] | None
) -> None:
    """A situation field set under a profile that does not read it (``read``, or the scoring
    profile's) is a 422 at that field."""
    if read is None:
        read = SITUATION_FIELDS.get(rules.name, OPTIONAL_SITUATION)
    for field in sorted(OPTIONAL_SITUATION - read):
        if getattr(context, field) != getattr(_UNUSED, field):
            raise ApiError(
                (*at, field),
                f"{field} is not used by {rules.name} scoring; leave it out (got {getattr(situation, field)!r})",
                InvalidWinContext.code,
            )


def _refuse_absent_tiles(
    tiles: Sequence[Tile],
    meld_tiles: Sequence[Sequence[Tile]],
    win_tile: Sequence[Tile],
    context: WinContext,
    rules: RuleProfile,
    hand_at: Loc,
    at: Loc,
) -> None:
    """A tile the rules' set lacks (sanma: 2m-8m) is a 422 ``absent_tile`` at the field holding it.

    The scorer refuses such tiles too; checked here, before the hand is built, the error
    names the request field that holds the tile (``win_tile`` included) ahead of any other:
    the hand's fields under ``hand_at``, the situation's under ``at``.
    """
    if not rules.absent_tiles:
        return
    with located(*hand_at):
        rules.check_tiles_exist(tiles, field="hand")
        for index, meld in enumerate(meld_tiles):
            rules.check_tiles_exist(meld, field=f"melds[{index}].tiles")
    with located(*at):
        for field, held in (
            ("win_tile", win_tile),
            ("dora_indicators", context.dora_indicators),
            ("ura_indicators", context.ura_indicators),
        ):
            rules.check_tiles_exist(held, field=field)


def request_win(
    situation: WinSituation,
    hand_value: object,
    melds: Sequence[MeldSpec],
    rules: RuleProfile,
    at: Loc,
    *,
    read: frozenset[str] | None = None,
) -> tuple[Hand, Tile, WinContext]:
    """The core values of a win: the hand, the winning tile and the situation.

    Errors are located under ``at`` (``body``, or a batch item).  Every tiles field is
    parsed before anything is judged, so that notation errors (malformed input) come
    before the rest (impossible or unanswerable questions).  ``read``: the situation fields
    the scorer reads, where a family's scorer scores (default: the scoring profile's).
    """
    hand, win_tile, context = _request_win(situation, situation.win_tile, hand_value, melds, rules, at, at, read)
    assert win_tile is not None  # a WinSituation always names its winning tile
    return hand, win_tile, context


def request_situation(
    situation: Situation, hand_value: object, melds: Sequence[MeldSpec], rules: RuleProfile
) -> tuple[Hand, Tile | None, WinContext]:
    """:func:`request_win` for the ``situation`` object of /win (a :class:`WinSituation`, with
    its winning tile) or /ting (a :class:`Situation`: every wait is tried as the winning
    tile, so none is named).  Its fields are located under ``body.situation``, the hand's
    under ``body``; rules without a scoring profile are a 422."""
    if rules.name not in SCORING:
        raise ApiError(
            ("body", "situation"),
            f"rules {rules.name!r} have no scoring profile, so a situation cannot be judged; "
            f"scoring profiles: {', '.join(SCORING)}",
            InvalidWinContext.code,
        )
    win_tile_value = situation.win_tile if isinstance(situation, WinSituation) else _NO_WIN_TILE
    return _request_win(situation, win_tile_value, hand_value, melds, rules, ("body",), ("body", "situation"))


#: Core errors about the situation raised while judging /win's situation: their fields
#: (``winner``, ``win_tile``, ...) live under ``body.situation``; the hand's under ``body``.
SITUATION_RENAMES: Final[Mapping[str, Loc]] = MappingProxyType(
    {name: ("situation", name) for name in WinSituation.model_fields}
)


#: /ting's situation names no winning tile (each wait is tried); a request's ``null`` is no such thing.
_NO_WIN_TILE: Final = object()


def _request_win(
    situation: Situation,
    win_tile_value: object,
    hand_value: object,
    melds: Sequence[MeldSpec],
    rules: RuleProfile,
    hand_at: Loc,
    at: Loc,
    read: frozenset[str] | None = None,
) -> tuple[Hand, Tile | None, WinContext]:
    tiles = request_tiles(hand_value, *hand_at, "hand")
    meld_tiles = [request_tiles(meld.tiles, *hand_at, "melds", index, "tiles") for index, meld in enumerate(melds)]
    win_tile = None if win_tile_value is _NO_WIN_TILE else _one_tile(win_tile_value, *at, "win_tile")
    round_wind = _one_tile(situation.round_wind, *at, "round_wind")
    seat_wind = None if situation.seat_wind is None else _one_tile(situation.seat_wind, *at, "seat_wind")
    dora_indicators = tuple(request_tiles(situation.dora_indicators, *at, "dora_indicators"))
    ura_indicators = tuple(request_tiles(situation.ura_indicators, *at, "ura_indicators"))
    built_melds = request_melds(melds, rules, *hand_at, "melds")
    hand_red = _red_fives(hand_value)
    red_fives = hand_red + tuple(red for meld in melds for red in _red_fives(meld.tiles))
    for red in _red_fives(win_tile_value):
        if red not in hand_red:
            raise ApiError(
                (*at, "win_tile"),
                f"win_tile 0{format_tile(red)[1]} is a red five, but hand holds no red {format_tile(red)} "
                f"(0{format_tile(red)[1]}); hand includes the winning tile",
                InvalidWinContext.code,
            )
    context = WinContext(
        winner=situation.winner,
        dealer=situation.dealer,
        discarder=situation.discarder,
        kong_replacement=situation.kong_replacement,
        robbed_kong=situation.robbed_kong,
        round_wind=round_wind,
        dora_indicators=dora_indicators,
        ura_indicators=ura_indicators,
        red_fives=tuple(sorted(red_fives)),
        riichi=situation.riichi,
        double_riichi=situation.double_riichi,
        ippatsu=situation.ippatsu,
        last_tile=situation.last_tile,
        first_turn=situation.first_turn,
        honba=situation.honba,
        riichi_sticks=situation.riichi_sticks,
        nuki=situation.nuki,
        seat_wind=seat_wind,
        flowers=situation.flowers,
        last_copy=situation.last_copy,
        void_suit=None if situation.void_suit is None else parse_suit(situation.void_suit),
        after_kong=situation.after_kong,
    )
    _refuse_absent_tiles(tiles, meld_tiles, () if win_tile is None else (win_tile,), context, rules, hand_at, at)
    _refuse_unused_situation(situation, context, rules, at, read)
    with located(*hand_at):
        hand = Hand.from_tiles(tiles, built_melds)
    return hand, win_tile, context
