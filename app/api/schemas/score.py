"""The /score answer: payments, and what each scoring profile adds (riichi's han and fu, MCR's fans).

Shared by /score, /score/batch and /win (whose answer carries the score when asked with a
situation).  Each model is built from a core result by its ``of`` classmethod.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NamedTuple

from fastapi.openapi.models import Example
from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app.api.errors import Loc, located
from app.api.schemas.common import HandTiles, MeldSpec, Rules, Tiles, WinSituation
from app.core.errors import NotAWinningHand
from app.core.shape.hand import Hand
from app.core.shape.rules import RuleProfile
from app.core.shape.tiles import Tile, format_tile
from app.core.table.family import FamilyFan, FamilyScore, RevealedTile
from app.core.value.mcr_scoring import Fan, McrScore
from app.core.value.riichi_scoring import FuPart, Reading, RiichiScore, YakuHan
from app.core.value.scoring import REFUSALS, ScoreResult, score
from app.core.value.scoring_context import WinContext
from app.core.value.sichuan_scoring import SichuanScore


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
# Computed with the core from routes/score.py's _MCR_EXAMPLE (a test checks it).
_MCR_ANSWER: Final[JsonDict] = {
    "payments": [-8, 47, -31, -8],
    "multipliers": [],
    "per_payer": [{"seat": 0, "pays": 8}, {"seat": 2, "pays": 31}, {"seat": 3, "pays": 8}],
    "fan": 21,
    "fans": [
        {"name": "Pure Straight", "chinese": "清龙", "fan": 16, "count": 1},
        {"name": "Concealed Hand", "chinese": "门前清", "fan": 2, "count": 1},
        {"name": "All Chows", "chinese": "平和", "fan": 2, "count": 1},
        {"name": "Mixed Double Chow", "chinese": "喜相逢", "fan": 1, "count": 1},
        {"name": "Flower Tiles", "chinese": "花牌", "fan": 1, "count": 2},
    ],
    "flowers": 2,
}
# Computed with the core from _SICHUAN_EXAMPLE (a test checks it): the contract's answer,
# 清一色 2 + 根 1 (the four 1m) = 3 fans, 2 ** 3 = 8 from the discarder.
_SICHUAN_ANSWER: Final[JsonDict] = {
    "payments": [0, 8, -8, 0],
    "multipliers": [],
    "per_payer": [{"seat": 2, "pays": 8}],
    "fan": 3,
    "fans": [
        {"name": "qing_yi_se", "chinese": "清一色", "fan": 2, "count": 1},
        {"name": "gen", "chinese": "根", "fan": 1, "count": 1},
    ],
    "multiplier": 8,
}
SCORE_ANSWER_EXAMPLES: Final = {
    "riichi": {"summary": "Riichi: the contract's example", "value": _RIICHI_ANSWER},
    "sanma": {"summary": "Sanma: a haneman self-draw, tsumo loss", "value": _SANMA_ANSWER},
    "mcr": {"summary": "MCR: 21 fans and two flowers, on a discard", "value": _MCR_ANSWER},
    "qiqihar": {"summary": "Qiqihar: the seed's example", "value": _QIQIHAR_ANSWER},
    "sichuan": {"summary": "Sichuan: 清一色 with a 根, on a discard", "value": _SICHUAN_ANSWER},
}

_RIICHI_ONLY: Final = "Riichi only (absent for other profiles)."
_MCR_ONLY: Final = "MCR only (absent for other profiles)."


class FanOut(BaseModel):
    """One fan counted (MCR or Sichuan): its names, its value, and how many times it counts."""

    name: str = Field(
        description="MCR: the official English name; Sichuan: the pinyin name (qing_yi_se, gen, ...).",
        examples=["Pure Straight"],
    )
    chinese: str = Field(description="The Chinese name.", examples=["清龙"])
    fan: int = Field(description="Fans of one instance.", examples=[16])
    count: int = Field(description="Instances counted (e.g. 2 for two Pure Double Chows).", examples=[1])
    times: int | None = Field(
        None,
        description="A family's scorer that multiplies (absent for the others): what this entry multiplies the "
        "hand by (1: nothing; its `fan` then is the points it sets).",
        examples=[2],
    )

    @classmethod
    def of(cls, fan: Fan) -> FanOut:
        return cls(name=fan.name, chinese=fan.chinese, fan=fan.fan, count=fan.count)

    @classmethod
    def of_family(cls, fan: FamilyFan) -> FanOut:
        return cls(name=fan.name, chinese=fan.chinese, fan=fan.points, count=1, times=fan.times)


class RevealedOut(BaseModel):
    """A tile revealed from the wall after the win (a horse, a bird) and the seat it names."""

    tile: str = Field(examples=["5m"])
    seat: int = Field(description="The seat it names.", examples=[1])
    hit: bool = Field(description="It names the winner: it raises the pay.")

    @classmethod
    def of(cls, revealed: RevealedTile) -> RevealedOut:
        return cls(tile=format_tile(revealed.tile), seat=revealed.seat, hit=revealed.hit)


class ScoreResponse(BaseModel):
    """Net payments per seat (summing to zero) and each payer's share; riichi adds the hand's value.

    Qiqihar answers carry `payments`, `multipliers` and `per_payer` only. Riichi
    answers add han, fu, yaku, fu_details, limit, yakuman_count, base_points,
    riichi_sticks_won and the reading; MCR answers add fan, fans and flowers; Sichuan
    answers add fan, multiplier and fans. Their `multipliers` is empty.
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
    fan: int | None = Field(
        None,
        description="MCR and Sichuan only (absent for other profiles). MCR: total fans of the best reading, "
        "flowers not counted (a win needs 8). Sichuan: the fans counted, before the cap (max_fan).",
        examples=[26],
    )
    fans: list[FanOut] | None = Field(
        None,
        description="MCR and Sichuan only (absent for other profiles). MCR: every fan counted after the "
        "exclusion rules, then Flower Tiles (花牌, one fan a flower, not part of `fan`) when there are flowers. "
        "Sichuan: the hand's one pattern (the best), gen (根) with its count, then the situational fans "
        "(zi_mo is listed at 0 fans under self_draw_bonus base).",
    )
    flowers: int | None = Field(None, description=_MCR_ONLY + " Flowers counted (one fan each).")
    multiplier: int | None = Field(
        None,
        description="Sichuan only (absent for other profiles): 2 ** min(fan, max_fan), the points each payer "
        "pays (a self-draw with self_draw_bonus base adds one).",
        examples=[8],
    )
    hand_points: int | None = Field(
        None,
        description="A family's own scorer (absent for the profiles above): the hand's worth to one payer, its "
        "base (`fans` with a `fan`) times every multiplier (`times`), before the revealed tiles.",
        examples=[2],
    )
    share: int | None = Field(
        None,
        description="A family's own scorer: what one payer's share is, the revealed tiles included.",
        examples=[8],
    )
    revealed: list[RevealedOut] | None = Field(
        None, description="A family's own scorer: the tiles revealed after the win, each with the seat it names."
    )
    liable: int | None = Field(
        None,
        description="A family's own scorer: the seat that pays every share (全包: a robbed kong's, a kong's "
        "feeder), or null.",
    )

    @classmethod
    def of_family(cls, result: FamilyScore) -> ScoreResponse:
        """The answer for a family's own scorer's result."""
        return cls(
            payments=list(result.payments),
            multipliers=[],
            per_payer=[PayerOut(seat=seat, pays=pays) for seat, pays in result.per_payer],
            fans=[FanOut.of_family(fan) for fan in result.fans],
            hand_points=result.hand_points,
            share=result.share,
            revealed=[RevealedOut.of(tile) for tile in result.revealed],
            liable=result.liable,
        )

    @classmethod
    def of(cls, result: ScoreResult | RiichiScore | McrScore | SichuanScore) -> ScoreResponse:
        """The answer for a core result; riichi fields are set only for a riichi result, MCR's for MCR's,
        Sichuan's for Sichuan's."""
        per_payer = [PayerOut(seat=seat, pays=pays) for seat, pays in result.per_payer]
        if isinstance(result, SichuanScore):
            return cls(
                payments=list(result.payments),
                multipliers=[],
                per_payer=per_payer,
                fan=result.fan,
                multiplier=result.multiplier,
                fans=[FanOut.of(fan) for fan in result.fans],
            )
        if isinstance(result, McrScore):
            return cls(
                payments=list(result.payments),
                multipliers=[],
                per_payer=per_payer,
                fan=result.fan,
                fans=[FanOut.of(fan) for fan in result.fans],
                flowers=result.flowers,
            )
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


class Refusal(NamedTuple):
    """Why the scoring profile does not let a complete shape win: its error code and message."""

    code: str
    message: str


def judge(
    hand: Hand, win_tile: Tile, rules: RuleProfile, context: WinContext, renames: Mapping[str, Loc]
) -> ScoreResponse | Refusal:
    """The /score answer of a hand whose shape the rules call complete, or the profile's refusal.

    A refusal is a profile's no (no yaku, under 8 fans), or a scorer that cannot read the shape
    the engine completed (a rule override it does not score, such as knitted forms under
    riichi).  Any other error is the request's, located at ``body`` with ``renames`` moving the
    situation's fields (``winner``, ``win_tile``, ...) to where the request holds them.
    """
    with located("body", renames=renames):
        try:
            return ScoreResponse.of(score(hand, win_tile, rules, context))
        except (*REFUSALS, NotAWinningHand) as refused:
            return Refusal(refused.code, refused.message)


# --- requests ---

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
# MCR: South (seat 1, dealer seat 0) wins on West's discard with a pure straight in man and
# two flowers: 清龙 16 + 门前清 2 + 平和 2 + 喜相逢 1 = 21 fans; T = 23, so West pays 31
# and the other two pay 8 each.
_MCR_EXAMPLE: Final[JsonDict] = {
    "hand": "123456789m123p55s",
    "win_tile": "9m",
    "rules": "mcr",
    "winner": 1,
    "dealer": 0,
    "discarder": 2,
    "seat_wind": "2z",
    "round_wind": "1z",
    "flowers": 2,
    "last_tile": False,
    "last_copy": False,
    "kong_replacement": False,
    "robbed_kong": False,
}
# Sichuan: seat 1 (void suit p) wins on seat 2's discard with a flush of characters holding
# all four 1m: 清一色 + 根.
_SICHUAN_EXAMPLE: Final[JsonDict] = {
    "hand": "111123456789m99m",
    "win_tile": "9m",
    "rules": "sichuan",
    "winner": 1,
    "dealer": 0,
    "discarder": 2,
    "void_suit": "p",
    "after_kong": False,
    "kong_replacement": False,
    "robbed_kong": False,
}
SCORE_EXAMPLES: Final = {
    "riichi": Example(summary="Riichi: the contract's example (open hand, ron)", value=_RIICHI_EXAMPLE),
    "riichi_tsumo": Example(
        summary="Riichi: dealer riichi tsumo with a red five, honba and a stick", value=_RIICHI_TSUMO_EXAMPLE
    ),
    "sanma": Example(
        summary="Sanma: a self-draw with two norths set aside and a 1m indicator (9m is dora)", value=_SANMA_EXAMPLE
    ),
    "mcr": Example(summary="MCR: a pure straight on a discard, with two flowers", value=_MCR_EXAMPLE),
    "qiqihar": Example(summary="Qiqihar: the seed's dealer self-draw holding 红中", value=_QIQIHAR_EXAMPLE),
    "sichuan": Example(summary="Sichuan: 清一色 with a 根 on a discard, void suit p", value=_SICHUAN_EXAMPLE),
}


class ScoreItem(WinSituation):
    """A winning hand and how it was won (a /score request without `rules`)."""

    model_config = ConfigDict(extra="forbid")

    hand: HandTiles = Field(description="The concealed tiles, including win_tile. In mpsz, `0` is a red five.")
    melds: list[MeldSpec] = Field([], description="Declared melds (in mpsz, `0` is a red five).")
    kong_feeder: int | None = Field(
        None,
        ge=0,
        le=3,
        strict=True,
        description="On a self-draw on a kong's replacement (`kong_replacement`), the seat whose discard made "
        "that kong, where the rules make it liable for the whole win (杠爆全包). null: none; profiles that do "
        "not read it refuse a value (422).",
    )
    revealed: Tiles = Field(
        "",
        description="The tiles revealed from the wall after the win for the settlement, in order (horses, "
        "birds), where the rules draw them; each names a seat, and those naming the winner raise the pay. "
        "Rules that reveal none refuse a tile here (422).",
        examples=["2m6p3s4z"],
    )


class ScoreRequest(ScoreItem):
    """A winning hand, how it was won, and the rules whose scoring applies."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_RIICHI_EXAMPLE, _QIQIHAR_EXAMPLE]})

    rules: Rules = Field(
        "riichi",
        validate_default=True,
        description="The rules whose scoring applies: riichi (the default, as on every route), sanma, mcr, "
        'qiqihar or sichuan, or {preset, ...overrides} such as {"preset": "riichi", "kiriage": true}, '
        '{"preset": "sanma", "tsumo_loss": false} or {"preset": "sichuan", "max_fan": 3}.',
    )


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


SCORE_BATCH_EXAMPLES: Final = {
    "riichi": Example(summary="Riichi: a scored hand and an open hand without yaku", value=_BATCH_EXAMPLE),
}
