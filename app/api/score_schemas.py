"""The /score answer: payments, and what each scoring profile adds (riichi's han and fu, MCR's fans).

Shared by /score, /score/batch and /win (whose answer carries the score when asked with a
situation).  Each model is built from a core result by its ``of`` classmethod.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NamedTuple

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app.api.errors import Loc, located
from app.core.errors import NotAWinningHand
from app.core.hand import Hand
from app.core.mcr_scoring import Fan, McrScore
from app.core.riichi_scoring import FuPart, Reading, RiichiScore, YakuHan
from app.core.rules import RuleProfile
from app.core.scoring import REFUSALS, ScoreResult, score
from app.core.scoring_context import WinContext
from app.core.tiles import Tile, format_tile


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
SCORE_ANSWER_EXAMPLES: Final = {
    "riichi": {"summary": "Riichi: the contract's example", "value": _RIICHI_ANSWER},
    "sanma": {"summary": "Sanma: a haneman self-draw, tsumo loss", "value": _SANMA_ANSWER},
    "mcr": {"summary": "MCR: 21 fans and two flowers, on a discard", "value": _MCR_ANSWER},
    "qiqihar": {"summary": "Qiqihar: the seed's example", "value": _QIQIHAR_ANSWER},
}

_RIICHI_ONLY: Final = "Riichi only (absent for other profiles)."
_MCR_ONLY: Final = "MCR only (absent for other profiles)."


class FanOut(BaseModel):
    """One MCR fan counted: its names, its value, and how many times it counts."""

    name: str = Field(description="The official English name.", examples=["Pure Straight"])
    chinese: str = Field(description="The Chinese name.", examples=["清龙"])
    fan: int = Field(description="Fans of one instance.", examples=[16])
    count: int = Field(description="Instances counted (e.g. 2 for two Pure Double Chows).", examples=[1])

    @classmethod
    def of(cls, fan: Fan) -> FanOut:
        return cls(name=fan.name, chinese=fan.chinese, fan=fan.fan, count=fan.count)


class ScoreResponse(BaseModel):
    """Net payments per seat (summing to zero) and each payer's share; riichi adds the hand's value.

    Qiqihar answers carry `payments`, `multipliers` and `per_payer` only. Riichi
    answers add han, fu, yaku, fu_details, limit, yakuman_count, base_points,
    riichi_sticks_won and the reading; MCR answers add fan, fans and flowers. Their
    `multipliers` is empty.
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
        description=_MCR_ONLY + " Total fans of the best reading, flowers not counted (a win needs 8).",
        examples=[26],
    )
    fans: list[FanOut] | None = Field(
        None,
        description=_MCR_ONLY + " Every fan counted after the exclusion rules, then Flower Tiles (花牌, one fan "
        "a flower, not part of `fan`) when there are flowers.",
    )
    flowers: int | None = Field(None, description=_MCR_ONLY + " Flowers counted (one fan each).")

    @classmethod
    def of(cls, result: ScoreResult | RiichiScore | McrScore) -> ScoreResponse:
        """The answer for a core result; riichi fields are set only for a riichi result, MCR's for MCR's."""
        per_payer = [PayerOut(seat=seat, pays=pays) for seat, pays in result.per_payer]
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
