"""Request and response bodies of the hand questions (``/win``, ``/ting``, ``/shanten``).

Requests carry tiles in any notation of the contract; the tile fields are left
untyped for pydantic (``Tiles``) so that the core's parser, which names the
offending character or item, is the one judge of notation.  Responses carry
every tile as one mpsz string and are frozen, because finished answers are
shared through the result cache.

>>> from app.core.engine import Checker
>>> from app.core.hand import Hand
>>> from app.core.rules import rule_profile
>>> from app.core.tiles import parse_tiles
>>> result = Checker(rule_profile("riichi")).waits(Hand.from_tiles(parse_tiles("123456789m1112z")))
>>> TingResponse.of(result).model_dump(include={"tenpai", "waits"})
{'tenpai': True, 'waits': [{'tile': '2z', 'remaining': 3}]}
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, Final, Self

from fastapi import Body
from fastapi.openapi.models import Example
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
    create_model,
)
from pydantic_core import PydanticCustomError

from app.api.score_schemas import ScoreResponse
from app.core.decompose import Decomposition
from app.core.engine import ShantenResult, TileCount, WaitResult, WinResult
from app.core.hand import MeldKind
from app.core.mcr_scoring import MAX_FLOWERS
from app.core.rules import OPTIONS, PRESETS, RuleOption
from app.core.tiles import format_tile

# --- tiles and rules as requests carry them ---------------------------------------

_TILE_TEXT: Final = {
    "type": "string",
    "title": "tile text",
    "description": "mpsz (`123m406p789s1122z`, 0 = red five), Chinese (`一万二万 东 中`, "
    "`1万2万`, `五筒`) or Unicode (`🀇🀈🀉🀀`), detected automatically; whitespace "
    "may separate groups.",
}
_TILE_INTEGERS: Final = {
    "type": "array",
    "title": "tile integers",
    "description": "Tile integers 0..33: 1-9m, 1-9p, 1-9s, then East South West North White Green Red.",
    "items": {"type": "integer", "minimum": 0, "maximum": 33},
}

# Length bounds of the tile fields, checked before any parsing, so that a megabyte of
# text costs microseconds.  A tile takes at most three characters in any notation, its
# separator included ("發財 ", "🀄\ufe0f "), so each bound is several times what a valid
# request needs; past it, the request is a 422 at the field saying the bound.
#: A hand: 14 tiles at most.
HAND_MAX_CHARS: Final = 200
HAND_MAX_ITEMS: Final = 40
#: Tiles seen (visible, a river, dora indicators): at most the 136 of a set.
SEEN_MAX_CHARS: Final = 1000
SEEN_MAX_ITEMS: Final = 136
#: A meld's tiles, or one tile.
MELD_MAX_CHARS: Final = 40
MELD_MAX_ITEMS: Final = 8


def _tiles_schema(max_chars: int, max_items: int) -> dict[str, Any]:
    return {"anyOf": [{**_TILE_TEXT, "maxLength": max_chars}, {**_TILE_INTEGERS, "maxItems": max_items}]}


def _within_length(value: object, max_chars: int, max_items: int) -> object:
    """``value`` itself, unless it is text or a list longer than the field takes."""
    if isinstance(value, str) and len(value) > max_chars:
        raise PydanticCustomError(
            "string_too_long",
            "at most {max_length} characters of tiles here; this is {length}",
            {"max_length": max_chars, "length": len(value)},
        )
    if isinstance(value, list) and len(value) > max_items:
        raise PydanticCustomError(
            "too_long",
            "at most {max_length} tiles here; this is {length}",
            {"max_length": max_items, "length": len(value)},
        )
    return value


def _length_check(max_chars: int, max_items: int) -> BeforeValidator:
    return BeforeValidator(partial(_within_length, max_chars=max_chars, max_items=max_items))


_TILES_SCHEMA: Final = _tiles_schema(SEEN_MAX_CHARS, SEEN_MAX_ITEMS)

HandTiles = Annotated[
    Any, _length_check(HAND_MAX_CHARS, HAND_MAX_ITEMS), WithJsonSchema(_tiles_schema(HAND_MAX_CHARS, HAND_MAX_ITEMS))
]
"""A hand's tiles in any request notation; validated by ``app.core.tiles.parse_tiles``."""
MeldTiles = Annotated[
    Any, _length_check(MELD_MAX_CHARS, MELD_MAX_ITEMS), WithJsonSchema(_tiles_schema(MELD_MAX_CHARS, MELD_MAX_ITEMS))
]
"""A meld's tiles, or one tile, in any request notation."""
Tiles = Annotated[Any, _length_check(SEEN_MAX_CHARS, SEEN_MAX_ITEMS), WithJsonSchema(_TILES_SCHEMA)]
"""Tiles seen elsewhere (visible, a river, indicators) in any request notation."""


def _text_hands_within_length(value: object, each: ValidatorFunctionWrapHandler) -> object:
    """A batch of text hands all within the bound as it is; anything else hand by hand.

    The per-hand check is a Python call per hand, a tenth of a microsecond each, which
    for 1000 hands is a tenth of a millisecond; two passes over the list do it at once.
    """
    if type(value) is list and value and set(map(type, value)) == {str} and max(map(len, value)) <= HAND_MAX_CHARS:
        return value
    return each(value)


HandList = Annotated[list[HandTiles], WrapValidator(_text_hands_within_length)]
"""The hands of a batch."""


class MeldSpec(BaseModel):
    """A declared meld: chi, pon or a kong."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"kind": "pon", "tiles": "777z"}]},
    )

    kind: MeldKind = Field(description="chi, pon, open_kan, closed_kan or added_kan.")
    tiles: MeldTiles = Field(
        description="The meld's tiles: 3 for chi and pon, 4 for a kong.", examples=["777z", "345p"]
    )


def _option(option: RuleOption) -> Any:
    """An optional override, documented by its kind's schema and validated by the core.

    Absent means the preset's value; the core's ``rule_profile`` checks every value
    given (null included) and names the option in its error.
    """
    schema = _TILES_SCHEMA if option.kind.schema is None else dict(option.kind.schema)
    examples: dict[str, Any] = {"examples": [option.example]} if option.example is not None else {}
    return Field(
        None,
        description=option.doc,
        json_schema_extra=lambda field: _documented(field, schema),
        **examples,
    )


def _documented(field: dict[str, Any], schema: dict[str, Any]) -> None:
    field.pop("default", None)
    field.update(schema)


class _RulesBase(BaseModel):
    """A preset and optional overrides; also accepted as just the preset name."""

    # Options, known or not, are checked by the core, which names them in its errors.
    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [{"preset": "riichi", "seven_pairs": "quad_as_two"}, {"preset": "qiqihar"}, {"preset": "sanma"}]
        },
    )

    preset: str = Field(
        "riichi",
        description=f"Rule preset: {', '.join(PRESETS)}.",
        json_schema_extra={"enum": list(PRESETS)},
    )

    def overrides(self) -> dict[str, Any]:
        """The options the request set (unknown ones included), without the preset."""
        if self.model_fields_set <= _PRESET_ONLY and not self.model_extra:
            return {}  # the common request: a preset name alone (no dump to build)
        return self.model_dump(exclude_unset=True, exclude={"preset"})


_PRESET_ONLY: Final = frozenset({"preset"})

# One field per option of the core's table, so an option is declared in one place; an
# option of tiles (wildcards, absent tiles) is bounded in length like the tile fields.
_OPTION_FIELDS: Final[dict[str, Any]] = {
    option.name: (Tiles if option.kind.schema is None else Any, _option(option)) for option in OPTIONS
}
if TYPE_CHECKING:
    # To mypy the generated fields are extras: code reads them through overrides().
    RulesSpec = _RulesBase
else:
    RulesSpec = create_model("RulesSpec", __base__=_RulesBase, __doc__=_RulesBase.__doc__, **_OPTION_FIELDS)


def _preset_name_as_object(value: object) -> object:
    if isinstance(value, str):
        # A preset's name alone (nearly every request) is answered by one shared, unchanged
        # instance: building the model with its two dozen option fields cost a microsecond.
        return _PRESET_SPECS.get(value) or {"preset": value}
    return value


_PRESET_SPECS: Final = {name: RulesSpec(preset=name) for name in PRESETS}

PresetName = Annotated[str, WithJsonSchema({"type": "string", "enum": list(PRESETS)})]

Rules = Annotated[
    RulesSpec,
    BeforeValidator(_preset_name_as_object, json_schema_input_type=PresetName | RulesSpec),
]
"""``"qiqihar"`` or ``{"preset": "qiqihar", ...overrides}``."""

_HAND_DOC: Final = (
    "The concealed tiles, including the drawn tile for a 14-tile question; with k melds it has 3k fewer tiles."
)
_MELDS_DOC: Final = "Declared melds (exposed melds and concealed kongs)."
_RULES_DOC: Final = "Rule preset name, or {preset, ...overrides}; see GET /rules."
_RULES_EXAMPLES: Final = ["qiqihar", {"preset": "riichi", "seven_pairs": "quad_as_two"}]
_VISIBLE_DOC: Final = "Tiles seen elsewhere (discards, others' melds, dora indicators); only lowers `remaining`."


class HandRequest(BaseModel):
    """One hand, its melds, the rules and the tiles seen elsewhere."""

    model_config = ConfigDict(extra="forbid")

    hand: HandTiles = Field(description=_HAND_DOC, examples=["123456789m1111z"])
    # Empty tuples, not lists, as defaults: pydantic deep-copies a mutable default for every
    # request; the schema shows either as [].
    melds: Sequence[MeldSpec] = Field((), description=_MELDS_DOC)
    rules: Rules = Field("riichi", validate_default=True, description=_RULES_DOC, examples=_RULES_EXAMPLES)
    visible: Tiles = Field((), description=_VISIBLE_DOC, examples=["1z5p"])


class BatchRequest(BaseModel):
    """Many hands asked under the same melds, rules and visible tiles."""

    model_config = ConfigDict(extra="forbid")

    hands: HandList = Field(
        description="The hands, each in any notation; answers come back in this order.",
        examples=[["123456789m1111z", "1112345678999m"]],
    )
    melds: Sequence[MeldSpec] = Field((), description=_MELDS_DOC + " Applied to every hand.")
    rules: Rules = Field("riichi", validate_default=True, description=_RULES_DOC, examples=_RULES_EXAMPLES)
    visible: Tiles = Field((), description=_VISIBLE_DOC + " Applied to every hand.")


_DECOMPOSITION_LIMIT_DOC: Final = (
    "Most decompositions to list per hand; at most the server's decomposition limit "
    "(TENPAI_DECOMPOSITION_LIMIT, GET /limits), which is also the default; a larger value is lowered to it. "
    "A hand holding many wildcards completes in thousands of ways: a lower limit keeps its answer small."
)


#: Bounds on the counters, far above any real table, so that no answer overflows a client's int32.
MAX_HONBA: Final = 1000
MAX_RIICHI_STICKS: Final = 1000
#: A set has four norths, so at most four are set aside.
MAX_NUKI: Final = 4


class Situation(BaseModel):
    """Who wins, who deals, who discards, and the scoring profile's flags (no winning tile).

    The fields a scoring profile does not read must keep their defaults (a 422 at the
    field otherwise): Qiqihar reads the seats and the kong flags; riichi and sanma add
    the riichi fields; MCR adds the winds, flowers, last tile and last copy.
    """

    model_config = ConfigDict(extra="forbid")

    winner: int = Field(ge=0, le=3, strict=True, description="Seat of the winner, 0..3 (sanma: 0..2).")
    dealer: int = Field(
        ge=0,
        le=3,
        strict=True,
        description="Seat of the dealer, 0..3 (sanma: 0..2); seat winds follow (dealer East, then S, W, N).",
    )
    discarder: int | None = Field(
        None,
        ge=0,
        le=3,
        strict=True,
        description="Seat that discarded the winning tile (for a robbed kong: who declared it); null: self-draw. "
        "Sanma: 0..2.",
    )
    kong_replacement: bool = Field(
        False, strict=True, description="Won on a kong replacement tile (杠上开花, rinshan)."
    )
    robbed_kong: bool = Field(
        False, strict=True, description="Won by robbing another player's added kong (抢杠胡, chankan)."
    )
    round_wind: MeldTiles = Field(
        "1z", description="Riichi, sanma and MCR: the round (prevalent) wind, 1z..4z.", examples=["1z"]
    )
    seat_wind: MeldTiles | None = Field(
        None,
        description="MCR: the winner's seat wind, 1z..4z (MCR seats need not follow the dealer); "
        "null: it follows from winner and dealer (dealer East, then S, W, N).",
        examples=["2z"],
    )
    dora_indicators: Tiles = Field(
        "", description="Riichi: dora indicators (each names the next tile as dora); at most 5.", examples=["4p"]
    )
    ura_indicators: Tiles = Field(
        "", description="Riichi: ura dora indicators, counted only for a hand in riichi.", examples=[""]
    )
    riichi: bool = Field(False, strict=True, description="Riichi: the winner declared riichi (closed hand).")
    double_riichi: bool = Field(
        False, strict=True, description="Riichi: declared on the first uninterrupted turn (instead of riichi's 1 han)."
    )
    ippatsu: bool = Field(False, strict=True, description="Riichi: won within one uninterrupted go-around of riichi.")
    last_tile: bool = Field(
        False,
        strict=True,
        description="Riichi and MCR: the last tile of the wall (riichi: haitei on a self-draw, houtei on a "
        "discard; MCR: 妙手回春 on a self-draw, 海底捞月 on a discard).",
    )
    first_turn: bool = Field(
        False,
        strict=True,
        description="Riichi: won on the first uninterrupted draw (tenhou for the dealer, else chiihou).",
    )
    honba: int = Field(
        0,
        ge=0,
        le=MAX_HONBA,
        strict=True,
        description="Riichi: honba counters (100 from each other seat on a ron: 300, sanma 200; "
        "100 from each payer on a tsumo).",
    )
    riichi_sticks: int = Field(
        0,
        ge=0,
        le=MAX_RIICHI_STICKS,
        strict=True,
        description="Riichi: riichi sticks on the table (1000 each, to the winner).",
    )
    nuki: int = Field(
        0,
        ge=0,
        le=MAX_NUKI,
        strict=True,
        description="Sanma: north tiles the winner set aside (kita, nukidora), a dora each; at most 4 less the "
        "norths in hand and melds. Non-zero only at a three-player table.",
    )
    flowers: int = Field(
        0,
        ge=0,
        le=MAX_FLOWERS,
        strict=True,
        description="MCR: flower tiles the winner set aside, one fan each, not counted toward the 8-fan minimum.",
    )
    last_copy: bool = Field(
        False,
        strict=True,
        description="MCR: the winning tile is the last of its four copies, the other three already shown "
        "(和绝张, Last Tile).",
    )


class WinSituation(Situation):
    """How a hand was won: the :class:`Situation` and the winning tile."""

    win_tile: MeldTiles = Field(
        description="The winning tile (one tile, any notation). `0m`/`0p`/`0s`: the red five, "
        "which the hand must then hold.",
        examples=["9s"],
    )


_SITUATION_DOC: Final = (
    "How the hand would be won, as /score takes it (without hand and melds). Given, the answer says whether "
    "the player may declare the win now under the rules' scoring profile: a complete shape that the profile "
    "refuses answers `win: false` with `reason` `below_minimum_fan` (MCR, under 8 fans) or `no_yaku` "
    "(riichi); a win carries `score`, the /score answer. Absent, /win answers for the shape alone."
)


_WAIT_SITUATION_DOC: Final = (
    "How a wait would be won, as /score takes it without the hand and the winning tile (each wait is "
    "tried as the winning tile). Given, `waits` keeps only the tiles the rules' scoring profile lets the "
    "hand win on (MCR: 8 fans; riichi: a yaku), `reason` says below_minimum_fan or no_yaku when the hand "
    "is ready in shape but no wait scores, and `judged` gives each shape wait's verdict and score. "
    "Absent, /ting answers for the shape alone."
)


class TingRequest(HandRequest):
    """A /ting question: one hand and, optionally, the situation its waits would be won in."""

    situation: Situation | None = Field(None, description=_WAIT_SITUATION_DOC)


class WinRequest(HandRequest):
    """A /win question: one hand, how many of its decompositions to list, and optionally the situation."""

    decomposition_limit: int | None = Field(None, ge=1, strict=True, description=_DECOMPOSITION_LIMIT_DOC)
    situation: WinSituation | None = Field(None, description=_SITUATION_DOC)


class WinBatchRequest(BatchRequest):
    """A /win/batch question: many hands, and how many decompositions of each to list."""

    decomposition_limit: int | None = Field(None, ge=1, strict=True, description=_DECOMPOSITION_LIMIT_DOC)


# --- answers ----------------------------------------------------------------------

_FROZEN: Final = ConfigDict(frozen=True)


def _answer_config(example: dict[str, Any]) -> ConfigDict:
    return ConfigDict(frozen=True, json_schema_extra={"examples": [example]})


_WIN_EXAMPLE: Final = {
    "win": True,
    "form": "regular",
    "decompositions": [
        {
            "form": "regular",
            "pair": "9s",
            "melds": [["1m", "2m", "3m"], ["4p", "5p", "6p"], ["7s", "8s", "9s"]],
            "pairs": [],
            "singles": [],
            "wildcards": [{"tile": "7z", "as": "9s"}],
            "knitted": [],
        }
    ],
    "reason": None,
    "truncated": False,
    "complete_shape": True,
}
_TING_EXAMPLE: Final = {
    "tenpai": True,
    "waits": [{"tile": "2z", "remaining": 1}],
    "karaten": False,
    "reason": None,
    "shape_waits": ["2z"],
}
_SHANTEN_EXAMPLE: Final = {
    "shanten": 0,
    "forms": {
        "regular": 0,
        "seven_pairs": 5,
        "thirteen_orphans": 8,
        "knitted_straight": None,
        "honors_and_knitted": None,
    },
    "ukeire": [{"tile": "2z", "remaining": 3}],
    "ukeire_count": 3,
    "reason": None,
}


def _tiles(tiles: tuple[int, ...] | list[int]) -> list[str]:
    return [format_tile(tile) for tile in tiles]


class TileRemaining(BaseModel):
    """A tile and its unseen copies: 4 minus copies in hand, melds and visible tiles."""

    model_config = _FROZEN

    tile: str = Field(examples=["3m"])
    remaining: int = Field(ge=0, le=4, examples=[2])

    @classmethod
    def of(cls, count: TileCount) -> TileRemaining:
        return cls(tile=format_tile(count.tile), remaining=count.remaining)


class WildcardUse(BaseModel):
    """A wildcard held, and the tile it stands for in this decomposition."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    tile: str = Field(description="The wildcard tile held.", examples=["7z"])
    as_: str = Field(alias="as", description="The tile it stands for.", examples=["3m"])


class DecompositionOut(BaseModel):
    """One reading of a complete concealed hand (declared melds are not repeated)."""

    model_config = ConfigDict(frozen=True, title="Decomposition")

    form: str = Field(
        description="regular, seven_pairs, thirteen_orphans, knitted_straight or honors_and_knitted.",
        examples=["regular"],
    )
    pair: str | None = Field(description="The pair (regular, thirteen_orphans, knitted_straight).", examples=["5p"])
    melds: list[list[str]] = Field(description="Concealed melds, each as its tiles (regular, knitted_straight).")
    pairs: list[str] = Field(description="The seven pairs (seven_pairs).")
    singles: list[str] = Field(
        description="The twelve single orphans (thirteen_orphans); the fourteen tiles (honors_and_knitted)."
    )
    wildcards: list[WildcardUse] = Field(description="What each wildcard held stands for.")
    knitted: list[str] = Field(
        default_factory=list,
        description="The nine tiles of the knitted straight, 147, 258 and 369 across the suits (knitted_straight).",
    )

    @classmethod
    def of(cls, decomposition: Decomposition) -> DecompositionOut:
        return cls(
            form=decomposition.form,
            pair=None if decomposition.pair is None else format_tile(decomposition.pair),
            melds=[_tiles(group) for group in decomposition.melds],
            pairs=_tiles(decomposition.pairs),
            singles=_tiles(decomposition.singles),
            wildcards=[
                WildcardUse(tile=format_tile(wild), as_=format_tile(stands_for))
                for wild, stands_for in decomposition.wildcards
            ],
            knitted=_tiles(decomposition.knitted),
        )


class WinResponse(BaseModel):
    """Whether a 3n+2 hand wins, in which form, and every way it does."""

    model_config = _answer_config(_WIN_EXAMPLE)

    win: bool = Field(description="Whether the hand wins under the rules.")
    form: str | None = Field(
        description="The first complete form (regular, seven_pairs, thirteen_orphans, knitted_straight, "
        "honors_and_knitted)."
    )
    decompositions: list[DecompositionOut] = Field(description="Every reading, up to the server's limit.")
    reason: str | None = Field(
        description="Why a complete shape still does not win, e.g. open_meld_required; else null."
    )
    truncated: bool = Field(description="True when there were more decompositions than listed.")
    complete_shape: bool = Field(description="Whether the shape alone is complete.")

    @classmethod
    def of(cls, result: WinResult) -> Self:
        return cls(
            win=result.win,
            form=result.form,
            decompositions=[DecompositionOut.of(d) for d in result.decompositions],
            reason=result.reason,
            truncated=result.truncated,
            complete_shape=result.complete_shape,
        )


class JudgedWinResponse(WinResponse):
    """A /win answer; asked with a situation, it adds what the scoring profile says of the win."""

    score: ScoreResponse | None = Field(
        None,
        description="Asked with a situation, when the hand wins: the /score answer for it. Absent without a situation.",
    )
    refusal: str | None = Field(
        None,
        description="Asked with a situation, when the scoring profile refuses the complete shape "
        "(`reason` below_minimum_fan or no_yaku): why, for a person. Absent otherwise.",
        examples=["6 fans; an MCR win needs at least 8 (flowers not counted)"],
    )

    def rendered(self) -> bytes:
        """JSON without the situation fields that were not set."""
        return self.model_dump_json(exclude_unset=True, by_alias=True).encode()


class TingResponse(BaseModel):
    """The waits of a 3n+1 hand."""

    model_config = _answer_config(_TING_EXAMPLE)

    tenpai: bool = Field(description="Whether some tile completes the hand into a win.")
    waits: list[TileRemaining] = Field(description="The winning tiles, in tile order, with unseen copies.")
    karaten: bool = Field(description="Tenpai, but no wait has a copy left.")
    reason: str | None = Field(
        description="Why a hand ready in shape waits on nothing (e.g. open_meld_required); else null."
    )
    shape_waits: list[str] = Field(description="Tiles that complete the shape, whether or not the rules let it win.")

    @classmethod
    def of(cls, result: WaitResult) -> Self:
        return cls(
            tenpai=result.tenpai,
            waits=[TileRemaining.of(w) for w in result.waits],
            karaten=result.karaten,
            reason=result.reason,
            shape_waits=_tiles(result.shape_waits),
        )


class WaitJudgement(BaseModel):
    """What the scoring profile says of one wait of a hand asked about with a situation."""

    tile: str = Field(examples=["3m"])
    win: bool = Field(description="Whether the hand may be declared a win on this tile in the situation.")
    reason: str | None = Field(description="Why not (below_minimum_fan, no_yaku); null for a win.")
    refusal: str | None = Field(description="The refusal, for a person; null for a win.")
    score: ScoreResponse | None = Field(description="The /score answer of the win on this tile; null if refused.")


class JudgedTingResponse(TingResponse):
    """A /ting answer; asked with a situation, it says which waits the scoring profile lets win."""

    judged: list[WaitJudgement] | None = Field(
        None,
        description="Asked with a situation: each shape wait (see shape_waits) with its verdict and score. "
        "Absent without a situation.",
    )

    def rendered(self) -> bytes:
        """JSON without ``judged`` when it was not set."""
        return self.model_dump_json(exclude_unset=True, by_alias=True).encode()


class ShantenForms(BaseModel):
    """Shanten of each form; null where the rules or the melds rule the form out."""

    model_config = _FROZEN

    regular: int = Field(examples=[1])
    seven_pairs: int | None = Field(examples=[3])
    thirteen_orphans: int | None = Field(examples=[9])
    knitted_straight: int | None = Field(
        description="Knitted straight (组合龙) plus a meld and a pair; null unless the rules have the knitted "
        "forms (mcr) and the hand has 10 or more concealed tiles.",
        examples=[2],
    )
    honors_and_knitted: int | None = Field(
        description="Honours and knitted tiles (全不靠); null unless the rules have the knitted forms (mcr) "
        "and the hand is closed.",
        examples=[4],
    )


class ShantenResponse(BaseModel):
    """Shanten (-1 complete, 0 tenpai) overall and per form; ukeire for 3n+1 hands."""

    model_config = _answer_config(_SHANTEN_EXAMPLE)

    shanten: int = Field(description="-1 = complete, 0 = tenpai, n = n tiles from tenpai.", examples=[1])
    forms: ShantenForms
    ukeire: list[TileRemaining] | None = Field(
        description="For 3n+1 hands: draws that lower the shanten, with unseen copies; null for 3n+2."
    )
    ukeire_count: int | None = Field(description="Unseen copies of the ukeire tiles; null for 3n+2.")
    reason: str | None = Field(description="Why a hand at -1 still does not win (e.g. open_meld_required); else null.")

    @classmethod
    def of(cls, result: ShantenResult) -> ShantenResponse:
        return cls(
            shanten=result.shanten,
            forms=ShantenForms(
                regular=result.regular,
                seven_pairs=result.seven_pairs,
                thirteen_orphans=result.thirteen_orphans,
                knitted_straight=result.knitted_straight,
                honors_and_knitted=result.honors_and_knitted,
            ),
            ukeire=None if result.ukeire is None else [TileRemaining.of(t) for t in result.ukeire],
            ukeire_count=result.ukeire_count,
            reason=result.reason,
        )


class WinBatchResponse(BaseModel):
    """One /win answer per hand, in request order."""

    model_config = _FROZEN
    results: list[WinResponse]


class TingBatchResponse(BaseModel):
    """One /ting answer per hand, in request order."""

    model_config = _FROZEN
    results: list[TingResponse]


class ShantenBatchResponse(BaseModel):
    """One /shanten answer per hand, in request order."""

    model_config = _FROZEN
    results: list[ShantenResponse]


# --- request examples (the first is what Swagger UI's "Try it out" fills in) -------------

SHANTEN_EXAMPLES: Final = {
    "mpsz": Example(summary="mpsz, 1-shanten", value={"hand": "123456789m1111z"}),
    "chinese": Example(
        summary="Chinese names, 14 tiles",
        value={"hand": "一二三万 四五六筒 七八九条 东东 南南 发"},
    ),
    "unicode": Example(summary="Unicode tiles, with visible tiles", value={"hand": "🀇🀈🀉🀙🀚🀛🀐🀑🀒🀀🀀🀁🀁", "visible": "1z2z"}),
    "integers": Example(summary="integers 0..33", value={"hand": [0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 28, 28]}),
    "qiqihar": Example(
        summary="Qiqihar, a pon and a wildcard",
        value={"hand": "123m456p78s99s7z", "melds": [{"kind": "pon", "tiles": "111z"}], "rules": "qiqihar"},
    ),
}

TING_EXAMPLES: Final = {
    "nine_gates": Example(summary="nine gates: waits on 1m..9m", value={"hand": "1112345678999m"}),
    "visible": Example(
        summary="waits with copies seen elsewhere", value={"hand": "123456789m1112z", "visible": "2z2z"}
    ),
    "qiqihar_closed": Example(
        summary="Qiqihar without a pon: no waits (open_meld_required)",
        value={"hand": "123m456p789s1112z", "rules": "qiqihar"},
    ),
}

WIN_EXAMPLES: Final = {
    "regular": Example(summary="a regular win", value={"hand": "123m456p789s11122z"}),
    "qiqihar": Example(
        summary="Qiqihar: 红中 as a wildcard, with a pon",
        value={"hand": "123m456p78s99s7z", "melds": [{"kind": "pon", "tiles": "111z"}], "rules": "qiqihar"},
    ),
    "seven_pairs": Example(summary="seven pairs", value={"hand": "11m22m33p44p55s66s77z"}),
    "overrides": Example(
        summary="rule overrides",
        value={"hand": "1111m2233p4455s66z", "rules": {"preset": "riichi", "seven_pairs": "quad_as_two"}},
    ),
}

BATCH_EXAMPLES: Final = {
    "mixed": Example(
        summary="three hands, mixed notations",
        value={
            "hands": [
                "123456789m1111z",
                "一二三万 四五六筒 七八九条 东东东 南",
                [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8],
            ]
        },
    ),
}

WIN_BATCH_EXAMPLES: Final = {
    "mixed": Example(
        summary="two hands, one winning",
        value={"hands": ["123m456p789s11122z", "123m456p789s11123z"], "rules": "riichi"},
    ),
}

#: /shanten's body as its route declares it: the model, with the examples Swagger UI offers.
ShantenBody = Annotated[HandRequest, Body(openapi_examples=SHANTEN_EXAMPLES)]
#: The body of /ting/batch.
BatchBody = Annotated[BatchRequest, Body(openapi_examples=BATCH_EXAMPLES)]


class ShantenBatchRequest(BatchRequest):
    """A /shanten/batch request: a batch, and whether to list the ukeire."""

    ukeire: bool = Field(
        True,
        strict=True,
        description="List the ukeire of 3n+1 hands. `false`: the shanten and forms alone, `ukeire` and "
        "`ukeire_count` null; about twice as fast, for clients that need the distance only.",
    )


#: The body of /shanten/batch.
ShantenBatchBody = Annotated[ShantenBatchRequest, Body(openapi_examples=BATCH_EXAMPLES)]
