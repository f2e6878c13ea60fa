"""Tiles, melds, rules and situations as every request carries them.

The tile fields are left untyped for pydantic (``Tiles``) so that the core's parser,
which names the offending character or item, is the one judge of notation; each is
bounded in length before any parsing.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

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

from app.core.families.registry import PRESET_NAMES
from app.core.shape.hand import MeldKind
from app.core.shape.rules import OPTIONS, RuleOption
from app.core.value.mcr_scoring import MAX_FLOWERS

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
"""A hand's tiles in any request notation; validated by ``app.core.shape.tiles.parse_tiles``."""
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
        description=f"Rule preset: {', '.join(PRESET_NAMES)}.",
        json_schema_extra={"enum": list(PRESET_NAMES)},
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


_PRESET_SPECS: Final = {name: RulesSpec(preset=name) for name in PRESET_NAMES}

PresetName = Annotated[str, WithJsonSchema({"type": "string", "enum": list(PRESET_NAMES)})]

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
VOID_SUIT_DOC: Final = (
    "Under rules with a void suit (`sichuan`: 定缺), the suit the hand declared void: `m`, `p` or `s`. "
    "A hand holding a tile of it (concealed or melded) does not win (`reason` `void_suit_held`); shanten counts "
    "each one as a tile to throw, and it is never a wait or an ukeire tile. Absent (null): the answer takes the "
    "best suit to void (the lowest shanten, then the most ukeire) and names it in `void_suit`; a hand holding "
    "all three suits cannot win. Under rules without a void suit, a 422 `invalid_void_suit`."
)
#: A void suit as requests name it.
VoidSuitName = Literal["m", "p", "s"]


class HandRequest(BaseModel):
    """One hand, its melds, the rules and the tiles seen elsewhere."""

    model_config = ConfigDict(extra="forbid")

    hand: HandTiles = Field(description=_HAND_DOC, examples=["123456789m1111z"])
    # Empty tuples, not lists, as defaults: pydantic deep-copies a mutable default for every
    # request; the schema shows either as [].
    melds: Sequence[MeldSpec] = Field((), description=_MELDS_DOC)
    rules: Rules = Field("riichi", validate_default=True, description=_RULES_DOC, examples=_RULES_EXAMPLES)
    visible: Tiles = Field((), description=_VISIBLE_DOC, examples=["1z5p"])
    void_suit: VoidSuitName | None = Field(None, description=VOID_SUIT_DOC, examples=["s"])


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
    void_suit: VoidSuitName | None = Field(None, description=VOID_SUIT_DOC + " Applied to every hand.", examples=["s"])


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
        description="Riichi: won on the first uninterrupted draw (tenhou for the dealer, else chiihou). "
        "Sichuan: won on the seat's first draw (天胡 for the dealer, 地胡 for the others; a self-draw).",
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
    void_suit: Literal["m", "p", "s"] | None = Field(
        None,
        description="Sichuan: the winner's void suit (定缺), m, p or s; a hand holding a tile of it is a 400 "
        "void_suit_held. null: any suit the hand lacks (a hand of all three suits does not win).",
        examples=["s"],
    )
    after_kong: bool = Field(
        False,
        strict=True,
        description="Sichuan: won on the discard a seat made after its kong's replacement draw (杠上炮, one fan); "
        "needs discarder.",
    )


class WinSituation(Situation):
    """How a hand was won: the :class:`Situation` and the winning tile."""

    win_tile: MeldTiles = Field(
        description="The winning tile (one tile, any notation). `0m`/`0p`/`0s`: the red five, "
        "which the hand must then hold.",
        examples=["9s"],
    )
