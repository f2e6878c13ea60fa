"""POST /score and /score/batch: what a win pays, per seat, under a scoring profile.

Three profiles score today: Qiqihar (seed 004 section 4: doublings), riichi
(Tenhou: yaku, han, fu, limits, honba and riichi sticks) and sanma (Tenhou's
three-player riichi: seats 0..2, no 2m-8m, norths set aside as ``nuki``, tsumo
loss).  All take the same request; the riichi situation fields (round wind,
dora, riichi, ippatsu, last tile, first turn, honba, sticks, nuki) keep their
defaults under Qiqihar, and a non-default one there is a 422 at that field
rather than silently ignored.

Red fives are read here, at the edge: a ``0`` in an mpsz ``hand``, ``melds[i].tiles``
or ``win_tile`` is a red five, counted as a five by the tile parser and handed to
the core as ``WinContext.red_fives``.

>>> _red_fives("406p 0s"), _red_fives("五筒"), _red_fives([4, 13])
((13, 22), (), ())
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Final

from fastapi import APIRouter, Body, Response
from fastapi.openapi.models import Example
from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app.api.deps import SettingsDep
from app.api.errors import ApiError, error_responses, located
from app.api.questions import batch_json, json_response, request_melds, request_rules, request_tiles
from app.api.schemas import HandTiles, MeldSpec, MeldTiles, Rules, Tiles
from app.core.errors import InvalidNotation
from app.core.hand import Hand
from app.core.riichi_scoring import FuPart, Reading, RiichiScore, YakuHan
from app.core.rules import RuleProfile
from app.core.scoring import ScoreResult, score
from app.core.scoring_context import InvalidWinContext, WinContext
from app.core.tiles import Tile, detect_notation, format_tile, parse_mpsz_with_red

router = APIRouter(tags=["score"])
_ERRORS = error_responses(400, 413, 422, 500)
_BATCH_ERRORS = error_responses(413, 422, 500)

#: Profiles that score without the riichi situation: a non-default situation field is refused there.
_WITHOUT_SITUATION: Final = frozenset({"qiqihar"})
#: Bounds on the counters, far above any real table, so that no answer overflows a client's int32.
MAX_HONBA: Final = 1000
MAX_RIICHI_STICKS: Final = 1000
#: A set has four norths, so at most four are set aside.
MAX_NUKI: Final = 4

_QIQIHAR_EXAMPLE: Final[JsonDict] = {
    "hand": "123m456p78s99s7z",
    "melds": [{"kind": "pon", "tiles": "111z"}],
    "win_tile": "9s",
    "rules": "qiqihar",
    "winner": 0,
    "dealer": 0,
    "discarder": None,
    "kong_replacement": False,
    "robbed_kong": False,
}
# The contract's example: South seat wins on West's discard with 中 pon, a red 5m and
# dora 5p (indicator 4p): chun 1 + dora 1 + aka_dora 1 = 3 han, 20 base + 4 for the open
# honor pon = 24, rounded to 30 fu; 30 x 2^5 = 960 base, x4 rounded up = 3900 from West.
_RIICHI_EXAMPLE: Final[JsonDict] = {
    "hand": "233440m567p11s",
    "melds": [{"kind": "pon", "tiles": "777z"}],
    "win_tile": "4m",
    "rules": "riichi",
    "winner": 1,
    "dealer": 0,
    "discarder": 3,
    "round_wind": "1z",
    "dora_indicators": "4p",
    "ura_indicators": "",
    "riichi": False,
    "double_riichi": False,
    "ippatsu": False,
    "last_tile": False,
    "first_turn": False,
    "kong_replacement": False,
    "robbed_kong": False,
    "honba": 0,
    "riichi_sticks": 0,
}
# A closed dealer self-draw in riichi with one honba and one stick on the table.
_RIICHI_TSUMO_EXAMPLE: Final[JsonDict] = {
    "hand": "123456789m11p406s",
    "win_tile": "9m",
    "rules": "riichi",
    "winner": 0,
    "dealer": 0,
    "riichi": True,
    "dora_indicators": "9p",
    "ura_indicators": "3z",
    "honba": 1,
    "riichi_sticks": 1,
}
# Three-player: seat 1 self-draws with two norths set aside; a 1m indicator shows 9m.
_SANMA_EXAMPLE: Final[JsonDict] = {
    "hand": "111999m123p45677s",
    "win_tile": "7s",
    "rules": "sanma",
    "winner": 1,
    "dealer": 0,
    "dora_indicators": "1m",
    "nuki": 2,
}
SCORE_EXAMPLES: Final = {
    "riichi": Example(summary="Riichi: the contract's example (open hand, ron)", value=_RIICHI_EXAMPLE),
    "riichi_tsumo": Example(
        summary="Riichi: dealer riichi tsumo with a red five, honba and a stick", value=_RIICHI_TSUMO_EXAMPLE
    ),
    "sanma": Example(
        summary="Sanma: a self-draw with two norths set aside and a 1m indicator (9m is dora)", value=_SANMA_EXAMPLE
    ),
    "qiqihar": Example(summary="Qiqihar: the seed's dealer self-draw holding 红中", value=_QIQIHAR_EXAMPLE),
}


class ScoreItem(BaseModel):
    """A winning hand and how it was won (a /score request without `rules`)."""

    model_config = ConfigDict(extra="forbid")

    hand: HandTiles = Field(description="The concealed tiles, including win_tile. In mpsz, `0` is a red five.")
    melds: list[MeldSpec] = Field([], description="Declared melds (in mpsz, `0` is a red five).")
    win_tile: MeldTiles = Field(
        description="The winning tile (one tile, any notation). `0m`/`0p`/`0s`: the red five, "
        "which the hand must then hold.",
        examples=["9s"],
    )
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
    round_wind: MeldTiles = Field("1z", description="Riichi: the round wind, 1z..4z.", examples=["1z"])
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
        description="Riichi: the last tile of the wall (haitei on a self-draw, houtei on a discard).",
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


class ScoreRequest(ScoreItem):
    """A winning hand, how it was won, and the rules whose scoring applies."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_QIQIHAR_EXAMPLE, _RIICHI_EXAMPLE]})

    rules: Rules = Field(
        "qiqihar",
        validate_default=True,
        description="The rules whose scoring applies: qiqihar (the default here, for compatibility), riichi or "
        'sanma, or {preset, ...overrides} such as {"preset": "riichi", "kiriage": true} or '
        '{"preset": "sanma", "tsumo_loss": false}.',
    )


class MultiplierOut(BaseModel):
    """One doubling and why."""

    name: str = Field(examples=["self_draw"])
    factor: int = Field(examples=[2])


class PayerOut(BaseModel):
    """What one losing seat pays the winner."""

    seat: int
    pays: int


class YakuOut(BaseModel):
    """A yaku (dora, aka_dora and ura_dora included) and its han."""

    name: str = Field(examples=["chun"])
    han: int = Field(description="Han (a yakuman: 13 for each yakuman it counts).", examples=[1])
    yakuman: int | None = Field(None, description="Present for a yakuman: how many yakuman it counts (1 or 2).")

    @classmethod
    def of(cls, yaku: YakuHan) -> YakuOut:
        if yaku.yakuman:
            return cls(name=yaku.name, han=yaku.han, yakuman=yaku.yakuman)
        return cls(name=yaku.name, han=yaku.han)


class FuOut(BaseModel):
    """One item of the fu count and why."""

    fu: int = Field(examples=[20])
    reason: str = Field(
        description="base, closed_ron, self_draw, {open|closed}_{triplet|kan}_{simple|terminal_or_honor}, "
        "pair_dragon, pair_seat_wind, pair_round_wind, wait_kanchan, wait_penchan, wait_tanki, "
        "open_pinfu or chiitoitsu.",
        examples=["base"],
    )
    tile: str | None = Field(None, description="Present for a group or pair: its tile (a run: its lowest).")

    @classmethod
    def of(cls, part: FuPart) -> FuOut:
        if part.tile is None:
            return cls(fu=part.fu, reason=part.reason)
        return cls(fu=part.fu, reason=part.reason, tile=format_tile(part.tile))


class ReadingOut(BaseModel):
    """The reading of the hand that scored highest."""

    form: str = Field(description="regular, seven_pairs or thirteen_orphans.", examples=["regular"])
    pair: str | None = Field(
        description="The pair (regular; thirteen_orphans: the doubled tile); null for seven pairs."
    )
    groups: list[list[str]] = Field(description="Regular: the four groups, declared melds included, as tiles.")
    pairs: list[str] = Field(description="Seven pairs: the pairs.")
    wait: str = Field(
        description="ryanmen, kanchan, penchan, shanpon, tanki, or kokushi_13 (thirteen orphans' 13-sided wait).",
        examples=["ryanmen"],
    )

    @classmethod
    def of(cls, reading: Reading) -> ReadingOut:
        groups = [
            [format_tile(group.first + offset) for offset in range(3)]
            if group.is_run
            else [format_tile(group.first)] * (4 if group.is_kan else 3)
            for group in reading.groups
        ]
        seven_pairs = reading.form == "seven_pairs"
        return cls(
            form=reading.form,
            pair=None if seven_pairs else format_tile(reading.pair),
            groups=groups,
            pairs=[format_tile(tile) for tile in reading.pairs],
            wait=reading.wait,
        )


# Computed with the core from _QIQIHAR_EXAMPLE and _RIICHI_EXAMPLE; a test posts both
# requests and checks that the answers are exactly these.
_QIQIHAR_ANSWER: Final[JsonDict] = {
    "payments": [24, -8, -8, -8],
    "multipliers": [
        {"name": "self_draw", "factor": 2},
        {"name": "red_dragon_held", "factor": 2},
        {"name": "dealer", "factor": 2},
    ],
    "per_payer": [{"seat": 1, "pays": 8}, {"seat": 2, "pays": 8}, {"seat": 3, "pays": 8}],
}
_RIICHI_ANSWER: Final[JsonDict] = {
    "payments": [0, 3900, 0, -3900],
    "multipliers": [],
    "per_payer": [{"seat": 3, "pays": 3900}],
    "han": 3,
    "fu": 30,
    "yaku": [{"name": "chun", "han": 1}, {"name": "dora", "han": 1}, {"name": "aka_dora", "han": 1}],
    "fu_details": [
        {"fu": 20, "reason": "base"},
        {"fu": 4, "reason": "open_triplet_terminal_or_honor", "tile": "7z"},
    ],
    "limit": None,
    "yakuman_count": 0,
    "base_points": 960,
    "riichi_sticks_won": 0,
    "reading": {
        "form": "regular",
        "pair": "1s",
        "groups": [["2m", "3m", "4m"], ["3m", "4m", "5m"], ["5p", "6p", "7p"], ["7z", "7z", "7z"]],
        "pairs": [],
        "wait": "ryanmen",
    },
}
# Computed with the core from _SANMA_EXAMPLE (a test checks it): menzen_tsumo 1, dora 3
# (1m shows 9m, three held), nuki_dora 2: 6 han, haneman (3000 base).  The dealer pays
# 6000, seat 2 pays 3000, and the absent north's 3000 is lost (tsumo loss).
_SANMA_ANSWER: Final[JsonDict] = {
    "payments": [-6000, 9000, -3000],
    "multipliers": [],
    "per_payer": [{"seat": 0, "pays": 6000}, {"seat": 2, "pays": 3000}],
    "han": 6,
    "fu": 40,
    "yaku": [{"name": "menzen_tsumo", "han": 1}, {"name": "dora", "han": 3}, {"name": "nuki_dora", "han": 2}],
    "fu_details": [
        {"fu": 20, "reason": "base"},
        {"fu": 2, "reason": "self_draw"},
        {"fu": 8, "reason": "closed_triplet_terminal_or_honor", "tile": "1m"},
        {"fu": 8, "reason": "closed_triplet_terminal_or_honor", "tile": "9m"},
        {"fu": 2, "reason": "wait_tanki"},
    ],
    "limit": "haneman",
    "yakuman_count": 0,
    "base_points": 3000,
    "riichi_sticks_won": 0,
    "reading": {
        "form": "regular",
        "pair": "7s",
        "groups": [["1m", "1m", "1m"], ["9m", "9m", "9m"], ["1p", "2p", "3p"], ["4s", "5s", "6s"]],
        "pairs": [],
        "wait": "tanki",
    },
}
SCORE_ANSWER_EXAMPLES: Final = {
    "riichi": {"summary": "Riichi: the contract's example", "value": _RIICHI_ANSWER},
    "sanma": {"summary": "Sanma: a haneman self-draw, tsumo loss", "value": _SANMA_ANSWER},
    "qiqihar": {"summary": "Qiqihar: the seed's example", "value": _QIQIHAR_ANSWER},
}

_RIICHI_ONLY: Final = "Riichi only (absent for other profiles)."


class ScoreResponse(BaseModel):
    """Net payments per seat (summing to zero) and each payer's share; riichi adds the hand's value.

    Qiqihar answers carry `payments`, `multipliers` and `per_payer` only. Riichi
    answers add han, fu, yaku, fu_details, limit, yakuman_count, base_points,
    riichi_sticks_won and the reading; their `multipliers` is empty.
    """

    model_config = ConfigDict(json_schema_extra={"examples": [_RIICHI_ANSWER, _QIQIHAR_ANSWER]})

    payments: list[int] = Field(
        description="Net per seat, summing to 0; riichi: honba included, riichi sticks not (see riichi_sticks_won)."
    )
    multipliers: list[MultiplierOut] = Field(description="Qiqihar's doublings; empty for riichi.")
    per_payer: list[PayerOut] = Field(description="What each paying seat pays the winner.")
    han: int | None = Field(None, description=_RIICHI_ONLY + " Han, dora included (a yakuman: 13 each).")
    fu: int | None = Field(
        None,
        description=_RIICHI_ONLY + " Fu: fu_details summed and rounded up to 10 (seven pairs: 25); 0 for a yakuman.",
    )
    yaku: list[YakuOut] | None = Field(None, description=_RIICHI_ONLY + " Yaku of the highest reading, then dora.")
    fu_details: list[FuOut] | None = Field(None, description=_RIICHI_ONLY + " The items of the fu count.")
    limit: str | None = Field(
        None, description=_RIICHI_ONLY + " null, mangan, haneman, baiman, sanbaiman or yakuman.", examples=["mangan"]
    )
    yakuman_count: int | None = Field(
        None, description=_RIICHI_ONLY + " Yakuman counted (2 for a double yakuman; kazoe: 1); 0 below yakuman."
    )
    base_points: int | None = Field(None, description=_RIICHI_ONLY + " fu x 2^(2 + han), or the limit's base points.")
    riichi_sticks_won: int | None = Field(
        None, description=_RIICHI_ONLY + " Points the winner takes from the riichi sticks (1000 each)."
    )
    reading: ReadingOut | None = Field(None, description=_RIICHI_ONLY + " The reading that scored highest.")

    @classmethod
    def of(cls, result: ScoreResult | RiichiScore) -> ScoreResponse:
        """The answer for a core result; riichi fields are set only for a riichi result."""
        per_payer = [PayerOut(seat=seat, pays=pays) for seat, pays in result.per_payer]
        multipliers = [MultiplierOut(name=m.name, factor=m.factor) for m in result.multipliers]
        if not isinstance(result, RiichiScore):
            return cls(payments=list(result.payments), multipliers=multipliers, per_payer=per_payer)
        return cls(
            payments=list(result.payments),
            multipliers=multipliers,
            per_payer=per_payer,
            han=result.han,
            fu=result.fu,
            yaku=[YakuOut.of(yaku) for yaku in result.yaku],
            fu_details=[FuOut.of(part) for part in result.fu_details],
            limit=result.limit,
            yakuman_count=result.yakuman_count,
            base_points=result.base_points,
            riichi_sticks_won=result.riichi_sticks_won,
            reading=ReadingOut.of(result.reading),
        )

    def rendered(self) -> bytes:
        """JSON without the fields a profile does not set (Qiqihar's answer keeps its shape)."""
        return self.model_dump_json(exclude_unset=True).encode()


# --- request -> core values ------------------------------------------------------


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


def _refuse_unused_situation(item: ScoreItem, context: WinContext, rules: RuleProfile, at: Sequence[str | int]) -> None:
    """A riichi situation field set under a profile that does not read it is a 422 at that field."""
    unused = WinContext(context.winner, context.dealer)
    for field in (
        "round_wind",
        "dora_indicators",
        "ura_indicators",
        "riichi",
        "double_riichi",
        "ippatsu",
        "last_tile",
        "first_turn",
        "honba",
        "riichi_sticks",
        "nuki",
    ):
        if getattr(context, field) != getattr(unused, field):
            raise ApiError(
                (*at, field),
                f"{field} is not used by {rules.name} scoring; leave it out (got {getattr(item, field)!r})",
                InvalidWinContext.code,
            )


def _refuse_absent_tiles(
    tiles: Sequence[Tile],
    meld_tiles: Sequence[Sequence[Tile]],
    win_tile: Tile,
    context: WinContext,
    rules: RuleProfile,
    at: Sequence[str | int],
) -> None:
    """A tile the rules' set lacks (sanma: 2m-8m) is a 422 ``absent_tile`` at the field holding it.

    The scorer refuses such tiles too; checked here, before the hand is built, the error
    names the request field that holds the tile (``win_tile`` included) ahead of any other.
    """
    if not rules.absent_tiles:
        return
    fields: list[tuple[str, Sequence[Tile]]] = [("hand", tiles)]
    fields += [(f"melds[{index}].tiles", meld) for index, meld in enumerate(meld_tiles)]
    fields += [("win_tile", (win_tile,)), ("dora_indicators", context.dora_indicators)]
    fields.append(("ura_indicators", context.ura_indicators))
    with located(*at):
        for field, held in fields:
            rules.check_tiles_exist(held, field=field)


def _win(item: ScoreItem, rules: RuleProfile, at: Sequence[str | int]) -> tuple[Hand, Tile, WinContext]:
    """The core values of one score question; errors are located under ``at`` (``body``, or a batch item).

    Every tiles field is parsed before anything is judged, so that notation errors
    (malformed input) come before the rest (impossible or unanswerable questions).
    """
    tiles = request_tiles(item.hand, *at, "hand")
    meld_tiles = [request_tiles(meld.tiles, *at, "melds", index, "tiles") for index, meld in enumerate(item.melds)]
    win_tile = _one_tile(item.win_tile, *at, "win_tile")
    round_wind = _one_tile(item.round_wind, *at, "round_wind")
    dora_indicators = tuple(request_tiles(item.dora_indicators, *at, "dora_indicators"))
    ura_indicators = tuple(request_tiles(item.ura_indicators, *at, "ura_indicators"))
    melds = request_melds(item.melds, *at, "melds")
    hand_red = _red_fives(item.hand)
    red_fives = hand_red + tuple(red for meld in item.melds for red in _red_fives(meld.tiles))
    for red in _red_fives(item.win_tile):
        if red not in hand_red:
            raise ApiError(
                (*at, "win_tile"),
                f"win_tile 0{format_tile(red)[1]} is a red five, but hand holds no red {format_tile(red)} "
                f"(0{format_tile(red)[1]}); hand includes the winning tile",
                InvalidWinContext.code,
            )
    context = WinContext(
        winner=item.winner,
        dealer=item.dealer,
        discarder=item.discarder,
        kong_replacement=item.kong_replacement,
        robbed_kong=item.robbed_kong,
        round_wind=round_wind,
        dora_indicators=dora_indicators,
        ura_indicators=ura_indicators,
        red_fives=tuple(sorted(red_fives)),
        riichi=item.riichi,
        double_riichi=item.double_riichi,
        ippatsu=item.ippatsu,
        last_tile=item.last_tile,
        first_turn=item.first_turn,
        honba=item.honba,
        riichi_sticks=item.riichi_sticks,
        nuki=item.nuki,
    )
    _refuse_absent_tiles(tiles, meld_tiles, win_tile, context, rules, at)
    if rules.name in _WITHOUT_SITUATION:
        _refuse_unused_situation(item, context, rules, at)
    with located(*at):
        return Hand.from_tiles(tiles, melds), win_tile, context


def _score(item: ScoreItem, rules: RuleProfile, at: Sequence[str | int]) -> ScoreResponse:
    hand, win_tile, context = _win(item, rules, at)
    with located(*at):
        return ScoreResponse.of(score(hand, win_tile, rules, context))


@router.post(
    "/score",
    response_model=ScoreResponse,
    operation_id="score",
    summary="What a win pays, per seat (Qiqihar, riichi)",
    responses={200: {"content": {"application/json": {"examples": SCORE_ANSWER_EXAMPLES}}}, **_ERRORS},
)
def score_win(body: Annotated[ScoreRequest, Body(openapi_examples=SCORE_EXAMPLES)]) -> Response:
    """**Riichi** (Tenhou's rules): the reading that scores highest, its yaku, han, fu
    (`fu_details`), `limit` and `base_points`, and the payments: a ron pays basic x4
    (x6 for the dealer) rounded up to 100 plus 300 a honba; on a self-draw each payer
    pays basic x1 (x2 when the payer or the winner is the dealer) rounded up to 100
    plus 100 a honba. Riichi sticks are not seat transfers: `riichi_sticks_won`.
    The seat wind follows from `winner` and `dealer`. `0m`/`0p`/`0s` are red fives.
    A complete hand with no yaku is a 400 `no_yaku`; a situation that cannot happen
    (ippatsu without riichi, riichi with an open hand, haitei on a kong replacement,
    a round wind that is not a wind, ...) is a 422 at its field.

    **Sanma** (Tenhou's three-player riichi): the same answer with three seats
    (0..2, `payments` has three entries; seat winds East, South, West). `nuki`
    norths set aside count a dora each (and one more per indicator showing north);
    a 1m indicator shows 9m. A ron's honba is 200 (100 from each other seat). On a
    self-draw the missing north's share is lost (tsumo loss); with the rule override
    `{"preset": "sanma", "tsumo_loss": false}` each payer adds half of it, rounded
    up to 100. A 2m-8m tile anywhere is a 422 `absent_tile` at its field.

    **Qiqihar** (seed 004 section 4): base 1, doubled for self-draw (all three pay)
    or a win on a discard (the discarder alone pays), for 红中 held in the winning hand,
    a kong replacement win and robbing a kong, and per payer when the winner or that
    payer is the dealer. The riichi situation fields must keep their defaults.

    Either way a hand that does not win is a 400 `not_a_winning_hand`; `rules`
    defaults to qiqihar here (the first profile this route had)."""
    return json_response(_score(body, request_rules(body.rules), ("body",)).rendered())


# --- batch -----------------------------------------------------------------------


_BATCH_EXAMPLE: Final[JsonDict] = {
    "rules": "riichi",
    "items": [
        {key: value for key, value in _RIICHI_EXAMPLE.items() if key != "rules"},
        # Open, with terminals and no value pair: complete but no yaku, so this item is an error result.
        {
            "hand": "456p23478999s",
            "melds": [{"kind": "chi", "tiles": "123m"}],
            "win_tile": "2s",
            "winner": 0,
            "dealer": 0,
            "discarder": 1,
        },
    ],
}


class ScoreBatchRequest(BaseModel):
    """Many /score questions under the same rules."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_BATCH_EXAMPLE]})

    items: list[ScoreItem] = Field(
        description="The questions, each a /score request without `rules`; answers in this order."
    )
    rules: Rules = Field(
        "riichi",
        validate_default=True,
        description="The rules for every item (default riichi, as elsewhere in the API).",
    )


class ScoreItemError(BaseModel):
    """Why one batch item has no score: the error /score would have answered for it alone."""

    error: str = Field(
        description="The error code: no_yaku, not_a_winning_hand, invalid_win_context, too_many_copies, "
        "wrong_tile_count, invalid_meld, ...",
        examples=["no_yaku"],
    )
    status: int = Field(description="The status /score would answer with: 400 or 422.", examples=[400])
    message: str = Field(description="What is wrong, for a person.")
    loc: list[str | int] = Field(
        description='Where: ["body", "items", index, field...].', examples=[["body", "items", 1, "hand"]]
    )


class ScoreBatchResponse(BaseModel):
    """One result per item, in request order: a score, or the item's error."""

    results: list[ScoreResponse | ScoreItemError]


_BATCH_EXAMPLES: Final = {
    "riichi": Example(summary="Riichi: a scored hand and an open hand without yaku", value=_BATCH_EXAMPLE),
}


#: Errors that make an item malformed rather than unanswerable: tiles that are not tiles
#: (the schema's own rule for integer tiles), which fail the whole batch like a schema error.
_MALFORMED: Final = frozenset({InvalidNotation.code})


def _item_result(item: ScoreItem, rules: RuleProfile, index: int) -> bytes:
    try:
        return _score(item, rules, ("body", "items", index)).rendered()
    except ApiError as error:
        if error.code in _MALFORMED:
            raise ApiError(error.loc, f"items[{index}]: {error.msg}", error.code, ctx={"index": index}) from error
        # Only the client's errors become results: a bug still answers 500 for the batch.
        failed = ScoreItemError(error=error.code, status=error.status, message=error.msg, loc=list(error.loc))
        return failed.model_dump_json().encode()


@router.post(
    "/score/batch",
    response_model=ScoreBatchResponse,
    operation_id="score_batch",
    summary="/score for many wins at once",
    responses=_BATCH_ERRORS,
)
def score_batch(
    body: Annotated[ScoreBatchRequest, Body(openapi_examples=_BATCH_EXAMPLES)], settings: SettingsDep
) -> Response:
    """One result per item, in request order; `rules` (default riichi) applies to all.
    An item that /score would refuse although it is well formed (not a win, no yaku,
    an impossible situation, five copies of a tile, a meld that is not a meld) does
    not fail the batch: its result is `{"error", "status", "message", "loc"}`, with
    the status /score would answer and `loc` = `["body", "items", index, field...]`.
    A malformed item (a missing field, a wrong type, tiles in no notation) is a 422
    for the whole batch whose `loc` names its index; so is more than
    `max_batch_size` items (`batch_too_large`) or bad `rules`."""
    if len(body.items) > settings.max_batch_size:
        raise ApiError(
            ("body", "items"),
            f"{len(body.items)} items in one batch; at most {settings.max_batch_size}",
            "batch_too_large",
            ctx={"max_batch_size": settings.max_batch_size},
        )
    rules = request_rules(body.rules)
    return json_response(batch_json([_item_result(item, rules, index) for index, item in enumerate(body.items)]))
