"""Request and response bodies of the hand questions (``/win``, ``/ting``, ``/shanten``).

Requests carry tiles in any notation of the contract; the tile fields are left
untyped for pydantic (``Tiles``) so that the core's parser, which names the
offending character or item, is the one judge of notation.  Responses carry
every tile as one mpsz string and are frozen, because finished answers are
shared through the result cache.

>>> from app.core.shape.engine import Checker
>>> from app.core.shape.hand import Hand
>>> from app.core.shape.rules import rule_profile
>>> from app.core.shape.tiles import parse_tiles
>>> result = Checker(rule_profile("riichi")).waits(Hand.from_tiles(parse_tiles("123456789m1112z")))
>>> TingResponse.of(result).model_dump(include={"tenpai", "waits"})
{'tenpai': True, 'waits': [{'tile': '2z', 'remaining': 3}]}
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Self

from fastapi import Body
from fastapi.openapi.models import Example
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
)

from app.api.schemas.common import _DECOMPOSITION_LIMIT_DOC, BatchRequest, HandRequest, Situation, WinSituation
from app.api.schemas.score import ScoreResponse
from app.core.shape.decompose import Decomposition
from app.core.shape.engine import ShantenResult, TileCount, WaitResult, WinResult
from app.core.shape.tiles import format_tile
from app.core.shape.void_suit import format_suit

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


def _void_suit_field(what: str) -> Any:
    """The answers' ``void_suit``: present only under rules with a void suit."""
    return Field(
        None,
        description=f"Under rules with a void suit (`sichuan`), the void suit {what}: the request's, or "
        "with none given the best suit to void. Absent under other rules.",
        examples=["s"],
        exclude_if=_absent,
    )


def _absent(value: object) -> bool:
    return value is None


def _suit(suit: int | None) -> str | None:
    return None if suit is None else format_suit(suit)


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
        description="regular, seven_pairs, thirteen_orphans, knitted_straight, honors_and_knitted or "
        "wildcards_held (rules with wildcards_held_win: the hand holds that many wildcards).",
        examples=["regular"],
    )
    pair: str | None = Field(description="The pair (regular, thirteen_orphans, knitted_straight).", examples=["5p"])
    melds: list[list[str]] = Field(description="Concealed melds, each as its tiles (regular, knitted_straight).")
    pairs: list[str] = Field(description="The seven pairs (seven_pairs).")
    singles: list[str] = Field(
        description="The twelve single orphans (thirteen_orphans); the fourteen tiles (honors_and_knitted); "
        "the tiles besides the wildcards (wildcards_held)."
    )
    wildcards: list[WildcardUse] = Field(
        description="What each wildcard held stands for (wildcards_held: itself; seven_pairs under "
        "wildcards_in_seven_pairs false: none, the wildcards are plain tiles there)."
    )
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
        "honors_and_knitted, wildcards_held)."
    )
    decompositions: list[DecompositionOut] = Field(description="Every reading, up to the server's limit.")
    reason: str | None = Field(
        description="Why a complete shape still does not win, e.g. open_meld_required, or void_suit_held (a "
        "tile of the void suit held, complete or not); else null."
    )
    truncated: bool = Field(description="True when there were more decompositions than listed.")
    complete_shape: bool = Field(description="Whether the shape alone is complete.")
    void_suit: str | None = _void_suit_field(
        "the hand was judged with (with none given, also absent where the hand holds all three suits: "
        "no void suit lets it win, `reason` void_suit_held)"
    )

    @classmethod
    def of(cls, result: WinResult) -> Self:
        return cls(
            win=result.win,
            form=result.form,
            decompositions=[DecompositionOut.of(d) for d in result.decompositions],
            reason=result.reason,
            truncated=result.truncated,
            complete_shape=result.complete_shape,
            void_suit=_suit(result.void_suit),
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
    void_suit: str | None = _void_suit_field("the waits assume")

    @classmethod
    def of(cls, result: WaitResult) -> Self:
        return cls(
            tenpai=result.tenpai,
            waits=[TileRemaining.of(w) for w in result.waits],
            karaten=result.karaten,
            reason=result.reason,
            shape_waits=_tiles(result.shape_waits),
            void_suit=_suit(result.void_suit),
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
    void_suit: str | None = _void_suit_field("the shanten assumes (its tiles held count as tiles to throw)")

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
            void_suit=_suit(result.void_suit),
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
