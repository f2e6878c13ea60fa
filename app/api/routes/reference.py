"""GET /rules and GET /tiles: what the service understands, with examples."""

from __future__ import annotations

from dataclasses import asdict
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, create_model

from app.api.errors import error_responses
from app.core.families.registry import FAMILIES, OPTION_FAMILY, PLAY_RULES, TABLES, TYPED_PRESETS
from app.core.shape.rules import OPTION_DOCS, OPTIONS, PRESETS
from app.core.shape.rules import RuleOption as CoreRuleOption
from app.core.shape.tiles import CHINESE_NAMES, NUM_TILE_KINDS, TILE_NAMES, UNICODE_CHARS
from app.core.table.flow import TableRules
from app.core.table.play_rules import PlayRules, described_fields
from app.core.value.sichuan_scoring import RULE_TEXT as SICHUAN_RULE_TEXT

router = APIRouter(tags=["reference"])
_ERRORS = error_responses(500)


def _preset_field(option: CoreRuleOption) -> tuple[Any, Any]:
    plain: Any = list[str] if option.kind.plain_type is list else option.kind.plain_type
    if option.kind.nullable:
        plain = plain | None  # an option that may be off altogether (wildcards_held_win)
    extras: dict[str, Any] = {}
    family = OPTION_FAMILY.get(option.name)
    if family is not None:  # a family's own option: only that family's presets have it
        extras.update(default=None, description=f"Only the {family} family's presets take this option.")
    if option.described_example is not None:
        extras["examples"] = [option.described_example]
    choices = (option.kind.schema or {}).get("enum")
    if plain is int and choices:
        extras.update(ge=min(choices), le=max(choices))  # an integer choice documents its range
    return plain, Field(**extras) if extras else ...


# A preset's value of every option it takes: one field per option of the core's table, those of
# one family's own section present in that family's presets only.  Extra keys pass through, so
# the answer never drops what the core describes.
_PRESET_FIELDS: Final[dict[str, Any]] = {option.name: _preset_field(option) for option in OPTIONS}
if TYPE_CHECKING:
    RulePreset = BaseModel  # its fields are generated: to mypy, a model built by model_validate
else:
    RulePreset = create_model(
        "RulePreset",
        __config__=ConfigDict(extra="allow"),
        __doc__="A preset's value of every option it takes (those every family shares and its own family's); "
        "a preset whose defaults follow a published rule text names it in `source` (sichuan).",
        name=(str, Field(examples=["qiqihar"])),
        **_PRESET_FIELDS,
    )


class RuleOption(BaseModel):
    """An option that `rules` may override."""

    name: str = Field(examples=["seven_pairs"])
    meaning: str
    family: str | None = Field(
        description="The rule family whose presets take this option (its own section of the profile); "
        "null: every preset takes it. Another family's option in `rules` is a 422 invalid_rule_option.",
        examples=["sichuan"],
    )
    type: str | None = Field(
        None,
        description="A family's typed option (absent for the profile's): boolean, integer or string.",
        examples=["integer"],
    )
    default: Any = Field(None, description="A family's typed option: its value in the family's first preset.")
    choices: list[str] | None = Field(None, description="A typed string option: the values it takes.")
    minimum: int | None = Field(None, description="A typed integer option: its least value.")
    maximum: int | None = Field(None, description="A typed integer option: its greatest value.")


class TableOption(BaseModel):
    """A rule of the table where rooms differ, with Tenhou's choice."""

    name: str = Field(examples=["double_ron"])
    tenhou: Any = Field(description="Tenhou's four-player choice: the default.", examples=[True])
    meaning: str


class TablePreset(BaseModel):
    """How the table runs for one rules preset (the table machine's data)."""

    model_config = ConfigDict(extra="allow")

    name: str = Field(examples=["mcr"])


class TableReference(BaseModel):
    """The table (`/referee`, `/act`, the bot, self-play): its options between hands and per preset."""

    options: list[TableOption] = Field(description="The rules between hands and of the payments beyond a win's.")
    play: list[TableOption] = Field(description="What a table runs beyond the hand rules; each preset's values below.")
    presets: list[TablePreset]


class RulesResponse(BaseModel):
    """Every preset and every option, for building a `rules` value."""

    default: str = Field(description="The preset used when `rules` is omitted.", examples=["riichi"])
    presets: list[RulePreset]
    options: list[RuleOption]
    table: TableReference


class Notation(BaseModel):
    """One way to write tiles in a request."""

    name: str = Field(examples=["mpsz"])
    description: str
    examples: list[str | list[int]] = Field(description="Values accepted in any tiles field.")


class TileName(BaseModel):
    """One of the 34 tiles in every notation."""

    index: int = Field(ge=0, le=33)
    mpsz: str = Field(examples=["1m"])
    chinese: str = Field(examples=["一万"])
    unicode: str = Field(examples=["🀇"])


class TilesResponse(BaseModel):
    """The notations a tiles field accepts, and the 34 tiles in each."""

    notations: list[Notation]
    tiles: list[TileName]
    responses: str = Field(description="How tiles are written in answers.")


NOTATIONS: Final = (
    Notation(
        name="mpsz",
        description="Digits, each group closed by a suit letter: m (characters), p (dots), "
        "s (bamboo), z (honours 1z..7z = East South West North White Green Red). 0 is a red "
        "five and counts as a five. Whitespace may separate groups.",
        examples=["123m406p789s1122z", "19m 19p 19s 1234567z"],
    ),
    Notation(
        name="chinese",
        description="Chinese tile names: a number (一..九, 1..9) then 万/萬, 筒/饼/餅 or 条/條/索; "
        "a run of numbers may share a suit. Honours 东 南 西 北 白 发/發 中 (also 红中, 白板, 发财), "
        "and 幺鸡 for 1s. Tiles may be separated by spaces, commas or 、.",
        examples=["一万二万三万 东东 中发白", "1万2万3万", "五筒", "九条", "發"],
    ),
    Notation(
        name="unicode",
        description="Characters of the Unicode Mahjong Tiles block, one per tile; a variation "
        "selector after 🀄 is ignored.",
        examples=["🀇🀈🀉🀀🀀"],
    ),
    Notation(
        name="integers",
        description="A JSON array of tile integers 0..33 in Tenhou order: 1-9m, 1-9p, 1-9s, "
        "East South West North White Green Red.",
        examples=[[0, 1, 2, 27, 27, 33]],
    ),
)


def _plain(value: object) -> Any:
    return value.value if isinstance(value, Enum) else list(value) if isinstance(value, tuple) else value


_TABLE: Final = TableReference(
    options=[
        TableOption(name=name, tenhou=_plain(default), meaning=meaning)
        for name, default, meaning in described_fields(TableRules)
    ],
    play=[
        TableOption(name=name, tenhou=_plain(default), meaning=meaning)
        for name, default, meaning in described_fields(PlayRules)
    ],
    presets=[
        TablePreset.model_validate({"name": name, **{key: _plain(value) for key, value in asdict(play).items()}})
        for name, play in PLAY_RULES.items()
    ],
)

#: The published rule text a preset's defaults follow, where one is named (a key beside its options).
PRESET_SOURCES: Final = {"sichuan": SICHUAN_RULE_TEXT}


def _typed_options() -> list[RuleOption]:
    """The families' typed options, one entry per family and name (two families may each have
    an option of one name, e.g. discard_wins; a shared option's name, e.g. seven_pairs, is the
    profile's one entry)."""
    typed = []
    for family in FAMILIES:
        for field in family.option_fields() if family.typed_presets else ():
            if field.name in OPTION_DOCS:
                continue
            extras: dict[str, Any] = {"choices": list(field.choices)} if field.choices else {}
            if field.minimum is not None:
                extras.update(minimum=field.minimum, maximum=field.maximum)
            typed.append(
                RuleOption(
                    name=field.name,
                    meaning=field.doc,
                    family=family.name,
                    type=field.type,
                    default=field.default,
                    **extras,
                )
            )
    return typed


def _preset_view(name: str, described: dict[str, Any]) -> dict[str, Any]:
    """A preset as ``GET /rules`` shows it: the options every family shares and its family's own."""
    family = TABLES.get(name)
    taken = {key: value for key, value in described.items() if key == "name" or family is None or key in family.options}
    return taken | ({"source": PRESET_SOURCES[name]} if name in PRESET_SOURCES else {})


_RULES: Final = RulesResponse(
    default="riichi",
    presets=[RulePreset.model_validate(_preset_view(name, profile.describe())) for name, profile in PRESETS.items()]
    + [RulePreset.model_validate(family.describe_preset(name)) for name, family in TYPED_PRESETS.items()],
    options=[
        RuleOption(name=name, meaning=meaning, family=OPTION_FAMILY.get(name)) for name, meaning in OPTION_DOCS.items()
    ]
    + _typed_options(),
    table=_TABLE,
)

_TILES: Final = TilesResponse(
    notations=list(NOTATIONS),
    tiles=[
        TileName(index=tile, mpsz=TILE_NAMES[tile], chinese=CHINESE_NAMES[tile], unicode=UNICODE_CHARS[tile])
        for tile in range(NUM_TILE_KINDS)
    ],
    responses='Every tile in an answer is one mpsz string, e.g. "3m" or "7z".',
)


@router.get(
    "/rules",
    operation_id="rules",
    summary="Rule presets and options",
    responses=_ERRORS,
    # A preset leaves out the options of other families' sections (not set, not null).
    response_model_exclude_unset=True,
)
def rules() -> RulesResponse:
    """Every preset with its value of each option it takes, and what each option means. A
    preset takes the options every family shares and its own family's section (`options[].family`);
    a request's `rules` is a preset name or `{"preset": name, option: value, ...}` with those options.
    A preset whose defaults follow a published rule text names it in `source`
    (sichuan: the 血战到底 rule screen docs/sichuan.md describes).
    A family may bring presets with options of its own, typed: `options[]` gives each one's
    `family`, `type`, `default` and its `choices` or `minimum` and `maximum`. Where an indicator
    turned from the wall chooses a preset's wildcards, the preset says
    `wildcards_from_indicator: true` and a request names the hand's wildcards in `wildcards`.
    `table` lists the rules of the table (referee, `/act`, self-play) where rooms differ,
    with Tenhou's choice, and how the table runs for each preset."""
    return _RULES


@router.get("/tiles", operation_id="tiles", summary="Tile notations, with examples", responses=_ERRORS)
def tiles() -> TilesResponse:
    """The notations every tiles field accepts (detected automatically), with
    examples, and the 34 tiles written in each."""
    return _TILES
