"""``POST /discard``: its request and response bodies.

Data flows one way, as for the hand questions: JSON -> :class:`DiscardRequest` ->
:class:`app.core.advice.discard.DiscardQuestion` (core values, canonical, hashable) ->
:func:`app.core.advice.discard.advise_discards` -> :class:`DiscardResponse`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Final

from fastapi.openapi.models import Example
from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app.api.schemas.common import (
    SEEN_MAX_ITEMS,
    VOID_SUIT_DOC,
    HandTiles,
    MeldSpec,
    MeldTiles,
    Rules,
    Tiles,
    VoidSuitName,
)
from app.api.schemas.hand import TileRemaining
from app.core.advice.discard import (
    DEAL_IN_POINTS,
    DEFAULT_LOOKAHEAD_BUDGET,
    DEFAULT_WEIGHTS,
    MAX_LOOKAHEAD_BUDGET,
    MAX_OPPONENTS,
    MAX_VALUE_SHANTEN,
    Candidate,
    DiscardModel,
    DiscardOptions,
    ValueSearch,
    Weights,
)
from app.core.advice.expected_score import SearchStop
from app.core.advice.lookahead import LookaheadStop
from app.core.advice.mcr_targets import PLAN_NEED_WEIGHT
from app.core.shape.tiles import (
    format_tile,
)
from app.core.shape.void_suit import format_suit
from app.core.value.scoring import SCORING, SelfDraw

_DIGITS: Final = 6  # decimals of the floats in answers
MAX_TURN: Final = 30

# --- request -----------------------------------------------------------------------

# Finite is checked by the core (InvalidWeight), not here: a validation error would echo
# the NaN back in its `input`, which JSON cannot carry.
_Weight = Annotated[float, Field(strict=True)]


class WeightsSpec(BaseModel):
    """The five weights of the score (seed 000's parameter table); each may be overridden."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"safety": 20.0}]})

    shanten: _Weight = Field(DEFAULT_WEIGHTS.shanten, description="syantenWeight: points lost per shanten.")
    ukeire: _Weight = Field(
        DEFAULT_WEIGHTS.ukeire, description="advanceWeight: points per 4 unseen ukeire copies (one tile kind)."
    )
    safety: _Weight = Field(
        DEFAULT_WEIGHTS.safety,
        description="safetyWeight: points per unit of `safety_score` (1 for a safe tile, one unit "
        "less per 0.04 of deal-in probability).",
    )
    dora: _Weight = Field(DEFAULT_WEIGHTS.dora, description="doraWeight: points per dora kept.")
    honors: _Weight = Field(
        DEFAULT_WEIGHTS.honors,
        description="honorsWeight: points per unit of honour value kept (pair 0.5, triplet 1; dragons x1, winds x0.5).",
    )

    def core(self) -> Weights:
        return Weights(self.shanten, self.ukeire, self.safety, self.dora, self.honors)


class OptionsSpec(BaseModel):
    """Extra analyses; each costs milliseconds, so they are off by default."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"improvements": True}]})

    improvements: bool = Field(
        False,
        strict=True,
        description="Per candidate: draws that keep the shanten but widen the ukeire, and the average "
        "ukeire after a draw that does not lower the shanten (best discard after it).",
    )
    good_shape: bool = Field(
        False,
        strict=True,
        description="Per one-shanten candidate: the share of ukeire draws (by unseen copies) that reach a "
        "good-shape tenpai (two or more kinds waited on, more than four copies not in the hand).",
    )
    lookahead: bool = Field(
        False,
        strict=True,
        description="Per candidate: the probability of reaching tenpai and of winning within "
        "`lookahead_draws` draws, by exact search over the unseen tiles (one player, best play).",
    )
    lookahead_draws: int | None = Field(
        None,
        ge=1,
        le=MAX_TURN,
        strict=True,
        description="Draws the lookahead plays; default 18 minus `turn` (at least 1), or 6.",
    )
    lookahead_budget: int = Field(
        DEFAULT_LOOKAHEAD_BUDGET,
        ge=1,
        strict=True,
        description=f"States the lookahead may evaluate, shared equally by the candidates (capped at "
        f"{MAX_LOOKAHEAD_BUDGET:,}; a state takes 0.2 to 10 ms). Past a candidate's share, or past the service's "
        "wall-clock budget (TENPAI_HEAVY_SECONDS, see GET /limits), its answer is the part finished, a lower bound "
        "flagged `complete: false`.",
    )

    def core(self) -> DiscardOptions:
        return DiscardOptions(
            self.improvements,
            self.good_shape,
            self.lookahead,
            self.lookahead_draws,
            min(self.lookahead_budget, MAX_LOOKAHEAD_BUDGET),
        )


class OpponentSpec(BaseModel):
    """One opponent as the table shows them."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"river": "9m1z5p2s", "riichi": True, "riichi_turn": 4, "melds": []}]},
    )

    river: Tiles = Field([], description="Their discards, in order (tiles taken by calls may be left out).")
    riichi: bool = Field(
        False, strict=True, description="Whether they declared ready (riichi; under Chinese rules, 报听)."
    )
    riichi_turn: int | None = Field(
        None,
        ge=1,
        strict=True,
        description="1-based position in `river` of the tile they declared with; null if unknown.",
    )
    melds: list[MeldSpec] = Field([], description="Their exposed melds and concealed kongs.")
    tsumogiri: list[Annotated[bool, Field(strict=True)]] | None = Field(
        None,
        max_length=SEEN_MAX_ITEMS,
        description="For each tile of `river`, whether it was the tile they had just drawn (mjai's `tsumogiri`); "
        "null if unknown. With `calls_at`, a seat with calls is read by how it discarded, as `/act` reads it.",
        examples=[[False, False, True, False]],
    )
    calls_at: list[Annotated[int, Field(ge=0, strict=True)]] = Field(
        [],
        max_length=4,
        description="The length of `river` at each of their chi, pon and open kan, in order (one for each "
        "called meld); read with `tsumogiri`.",
        examples=[[1]],
    )


_PHYSICAL: Final = "Every physical tile is listed once: in the hand, a meld, `visible`, `dora_indicators` or an opponent's river or melds."


class DiscardRequest(BaseModel):
    """A 3n+2 hand and what the table shows; see `POST /discard`."""

    model_config = ConfigDict(extra="forbid")

    hand: HandTiles = Field(
        description="The concealed tiles including the drawn one (3n+2). In mpsz, `0` marks a red five, which counts as a dora.",
        examples=["234067m345p4567s"],
    )
    melds: list[MeldSpec] = Field([], description="Your declared melds.")
    rules: Rules = Field("riichi", validate_default=True, description="Rule preset name, or {preset, ...overrides}.")
    visible: Tiles = Field(
        [], description="Tiles seen that no other field lists (e.g. your own discards). " + _PHYSICAL
    )
    dora_indicators: Tiles = Field([], description="Dora indicators (each names the next tile as dora).")
    opponents: list[OpponentSpec] = Field(
        [], max_length=MAX_OPPONENTS, description="Up to three opponents; safety is computed against each."
    )
    seat_wind: MeldTiles | None = Field(
        None,
        description="Your seat wind (1z..4z). With `round_wind`, the winds whose triplets are worth a yaku for "
        "you: the honours term then values those (a double wind twice) and no other wind.",
        examples=["2z"],
    )
    round_wind: MeldTiles | None = Field(
        None, description="The round wind (1z..4z); East when only `seat_wind` is given.", examples=["1z"]
    )
    turn: int | None = Field(
        None,
        ge=1,
        le=MAX_TURN,
        strict=True,
        description="The current turn (your draws so far, this one included); sets the "
        "danger tables' turn for every opponent and the lookahead's default draws.",
    )
    weights: WeightsSpec = Field(default_factory=WeightsSpec, description="Score weights; defaults from seed 000.")
    options: OptionsSpec = Field(default_factory=OptionsSpec, description="Extra analyses, off by default.")
    model: DiscardModel = Field(
        DiscardModel.EXPECTED_SCORE,
        description="What ranks the discards. `expected_score` (default): expected points over the rest of the "
        "hand (tenpai and win probability by an exact search after mahjong-cpp's model, wins valued by the "
        f"riichi scorer) less the expected cost of dealing in ({DEAL_IN_POINTS:,.0f} points plus the hand's own "
        "expectation, times the danger); under `sichuan`, each discard's expected base points by the hand's end, "
        "wins valued by the Sichuan scorer (a flush and 根 double a win) as wins on a discard, after the void "
        "tiles go; for rules without a value model (not `riichi`, `sanma` or `sichuan`) and for hands more than "
        f"{MAX_VALUE_SHANTEN} from tenpai the linear model ranks instead, and the answer's `model` says so. "
        "Where a win needs fans (`mcr`: 8) the default is `fan_plan`: the distance to the nearest fan pattern "
        "worth the minimum (flushes, straights, shifted and triple chows, pungs, the knitted forms, seven "
        "pairs, ...), then the unseen tiles that bring it nearer; once ready, the unseen tiles that win with "
        "enough fans by the scorer (`seat_wind`, default East, and `round_wind` count). "
        "`linear`: seed 000's linear score with `weights`.",
    )
    void_suit: VoidSuitName | None = Field(
        None,
        description=VOID_SUIT_DOC + " While the hand holds a tile of its void suit, the rules make it throw one: "
        "only those tiles are candidates, and their `reasons` say so.",
        examples=["s"],
    )


# --- answer ------------------------------------------------------------------------------

_FROZEN: Final = ConfigDict(frozen=True)


def _round(value: float) -> float:
    return round(value, _DIGITS) + 0.0  # + 0.0 turns -0.0 into 0.0


class ScoreComponentsOut(BaseModel):
    """Each term's contribution to the score (weight times value); they add up to `score`."""

    model_config = ConfigDict(frozen=True, title="ScoreComponents")

    shanten: float = Field(examples=[-10.0])
    ukeire: float = Field(examples=[4.8])
    safety: float = Field(examples=[1.13])
    dora: float = Field(examples=[1.5])
    honors: float = Field(examples=[0.0])


class OpponentSafety(BaseModel):
    """The candidate against one opponent."""

    model_config = _FROZEN

    opponent: int = Field(description="Index in the request's `opponents`.", examples=[0])
    safety: float = Field(description="Probability of not dealing in: 1 - danger.", examples=[0.947])
    danger: float = Field(description="ready_probability x danger_if_ready.", examples=[0.053])
    danger_if_ready: float = Field(description="Deal-in probability if they are ready.", examples=[0.053])
    ready_probability: float = Field(description="1 after a declaration, else an estimate by turn and calls.")
    reasons: list[str] = Field(
        description="Codes: genbutsu, passed_after_riichi, passed_since_discard, no_suji, half_suji, suji, double_suji, no_furiten, "
        "no_chance, one_chance, all_copies_visible, early_outside, dora, honor_fresh, honor_one_seen, "
        "honor_two_seen, wildcard_risk, not_declared, cannot_win.",
        examples=[["half_suji", "one_chance"]],
    )


class ImprovementOut(BaseModel):
    """A draw that keeps the shanten and allows a wider ukeire."""

    model_config = ConfigDict(frozen=True, title="Improvement")

    tile: str = Field(examples=["4m"])
    remaining: int = Field(examples=[3])
    ukeire_after: int = Field(description="Ukeire after the best discard that keeps the shanten.", examples=[28])


class ImprovementsOut(BaseModel):
    """Improvement draws of a candidate."""

    model_config = ConfigDict(frozen=True, title="Improvements")

    tiles: list[ImprovementOut]
    count: int = Field(description="Unseen copies of the improvement draws.")
    average_ukeire: float = Field(
        description="Average ukeire after a draw that does not lower the shanten, by unseen copies, best discard after it."
    )


class LookaheadOut(BaseModel):
    """Exact single-player search from this candidate."""

    model_config = ConfigDict(frozen=True, title="Lookahead")

    draws: int = Field(description="Draws searched.")
    tenpai_probability: float = Field(description="Probability of being tenpai within `draws` draws, best play.")
    win_probability: float = Field(description="Probability of a complete hand within `draws` draws, best play.")
    states: int = Field(description="States evaluated.")
    complete: bool = Field(
        description="False when the search was cut short (see `stopped_by`): the probabilities are lower bounds."
    )
    stopped_by: LookaheadStop | None = Field(
        None,
        description="What cut the search short: `states` (its share of `lookahead_budget`) or `time` (the "
        "service's wall-clock budget, TENPAI_HEAVY_SECONDS, shared by the candidates); null when complete.",
    )


class HorizonOut(BaseModel):
    """The turns the expected-score search plays: from the discard's turn to the last."""

    model_config = ConfigDict(frozen=True, title="Horizon")

    first_turn: int = Field(description="The discard's turn (`turn`, or 1).", examples=[1])
    last_turn: int = Field(description="The last turn with a draw counted (mahjong-cpp's 18).", examples=[18])


class ValueSearchOut(BaseModel):
    """How the expected-score search went."""

    model_config = ConfigDict(frozen=True, title="ValueSearch")

    states: int = Field(description="Draw and discard states built.")
    complete: bool = Field(
        description="False when a bound cut the search short (`stopped_by`): the probabilities and expected "
        "scores are then lower bounds."
    )
    stopped_by: SearchStop | None = Field(
        None,
        description="`states` (its state budget) or `time` (the service's wall-clock budget, "
        "TENPAI_HEAVY_SECONDS); null when complete.",
    )
    horizon: HorizonOut


class FanPlanOut(BaseModel):
    """Under the fan plan (MCR): where the hand stands after the discard."""

    model_config = ConfigDict(frozen=True, title="FanPlan")

    need: int = Field(
        description="Tiles to draw (exchanging others) to complete the nearest pattern worth the minimum "
        "fans: 1 is ready with a wait that scores; a ready hand whose waits all fall short counts 2.",
        examples=[2],
    )
    helping_tiles: float = Field(
        description="Unseen copies that bring a nearest pattern nearer (ready: that win with enough fans; "
        "a wait only a self-draw makes worth enough counts a quarter).",
        examples=[12],
    )
    target_fan: int = Field(description="Fans of the richest nearest pattern, by the rule book.", examples=[16])


def _ranked_score(candidate: Candidate) -> float:
    """What the candidate's model ranks by, as the `score` field shows it."""
    if candidate.expected is not None:
        return candidate.expected.value
    if candidate.fan_plan is not None:
        return candidate.fan_plan.score
    return candidate.score


class CandidateOut(BaseModel):
    """One distinct discard with its score and what the score is made of."""

    model_config = ConfigDict(frozen=True, title="Candidate")

    tile: str = Field(examples=["9m"])
    shanten: int = Field(description="Shanten after the discard.", examples=[1])
    ukeire_count: int = Field(description="Unseen copies of the ukeire tiles.", examples=[24])
    ukeire: list[TileRemaining] = Field(description="Draws that lower the shanten, with unseen copies.")
    safety: float = Field(description="Probability that no opponent wins on it (1 with no opponents).", examples=[0.8])
    safety_score: float = Field(
        description="`safety` as the score reads it: 1 - (1 - safety) / 0.04 (1: safe; a 0.04 chance "
        "of dealing in costs one unit, so a fresh middle tile against a declared hand scores about -2.2).",
        examples=[-0.25],
    )
    score: float = Field(
        description="What the ranking reads: under the `expected_score` model the expected points less the "
        "expected cost of dealing in (`expected_score - deal_in_cost`); under `fan_plan` helping tiles + 0.01 x "
        f"target fans - {PLAN_NEED_WEIGHT} x need; under `linear` the seed's linear score (`linear_score`).",
        examples=[-8.7],
    )
    linear_score: float = Field(description="The seed's linear score: the sum of `components`.", examples=[-8.7])
    tenpai_probability: float | None = Field(
        None, description="Expected-score model: probability of being tenpai by the last turn (`horizon`), best play."
    )
    win_probability: float | None = Field(
        None, description="Expected-score model: probability of a self-drawn win by the last turn, best play."
    )
    expected_score: float | None = Field(
        None,
        description="Expected-score model: expected points won (riichi: self-draw, ura dora expected after riichi; "
        "sichuan: base points, each win its multiplier as a win on a discard).",
    )
    deal_in_cost: float | None = Field(
        None, description="Expected-score model: danger x (expected_score + the assumed deal-in); 0 without opponents."
    )
    horizon: HorizonOut | None = Field(None, description="Expected-score model: the turns searched.")
    fan_plan: FanPlanOut | None = Field(None, description="Fan-plan model (MCR): the plan after the discard.")
    components: ScoreComponentsOut
    dora: int = Field(description="Dora kept (hand and melds, red fives included).", examples=[1])
    honors: float = Field(description="Honour value kept (pair 0.5, triplet 1; dragons x1, winds x0.5).")
    shanten_loss: int = Field(description="Shanten above the best candidate's.")
    is_wildcard: bool = Field(description="Whether the tile is a wildcard under the rules.")
    safety_by_opponent: list[OpponentSafety]
    reasons: list[str] = Field(description="The score in words.")
    improvements: ImprovementsOut | None = Field(None, description="With `options.improvements`.")
    good_shape: float | None = Field(None, description="With `options.good_shape`, for one-shanten candidates.")
    lookahead: LookaheadOut | None = Field(None, description="With `options.lookahead`.")

    @classmethod
    def of(cls, candidate: Candidate) -> CandidateOut:
        extra = candidate.improvements
        ahead = candidate.lookahead
        value = candidate.expected
        plan = candidate.fan_plan
        return cls(
            tile=format_tile(candidate.tile),
            shanten=candidate.shanten,
            ukeire_count=candidate.ukeire_count,
            ukeire=[TileRemaining.of(t) for t in candidate.ukeire],
            safety=_round(candidate.safety),
            safety_score=_round(candidate.safety_score),
            score=_round(_ranked_score(candidate)),
            linear_score=_round(candidate.score),
            tenpai_probability=None if value is None else _round(value.tenpai_probability),
            win_probability=None if value is None else _round(value.win_probability),
            expected_score=None if value is None else _round(value.expected_score),
            deal_in_cost=None if value is None else _round(value.deal_in_cost),
            horizon=None if value is None else HorizonOut(first_turn=value.first_turn, last_turn=value.last_turn),
            fan_plan=None
            if plan is None
            else FanPlanOut(need=plan.need, helping_tiles=_round(plan.ukeire), target_fan=plan.fan),
            components=ScoreComponentsOut(**{k: _round(v) for k, v in candidate.components._asdict().items()}),
            dora=candidate.dora,
            honors=candidate.honors,
            shanten_loss=candidate.shanten_loss,
            is_wildcard=candidate.is_wildcard,
            safety_by_opponent=[
                OpponentSafety(
                    opponent=index,
                    safety=_round(v.safety),
                    danger=_round(v.danger),
                    danger_if_ready=_round(v.danger_if_ready),
                    ready_probability=_round(v.ready_probability),
                    reasons=list(v.reasons),
                )
                for index, v in enumerate(candidate.safety_by_opponent)
            ],
            reasons=list(candidate.reasons),
            improvements=None
            if extra is None
            else ImprovementsOut(
                tiles=[
                    ImprovementOut(tile=format_tile(i.tile), remaining=i.remaining, ukeire_after=i.ukeire_after)
                    for i in extra.tiles
                ],
                count=extra.count,
                average_ukeire=_round(extra.average_ukeire),
            ),
            good_shape=None if candidate.good_shape is None else _round(candidate.good_shape),
            lookahead=None
            if ahead is None
            else LookaheadOut(
                draws=ahead.draws,
                tenpai_probability=_round(ahead.tenpai_probability),
                win_probability=_round(ahead.win_probability),
                states=ahead.states,
                complete=ahead.complete,
                stopped_by=ahead.stopped_by,
            ),
        )


class WeightsOut(BaseModel):
    """The weights the scores were computed with."""

    model_config = ConfigDict(frozen=True, title="Weights")

    shanten: float
    ukeire: float
    safety: float
    dora: float
    honors: float


DISCARD_RESPONSE_REQUEST: Final = {
    "hand": "37p",
    "melds": [
        {"kind": "pon", "tiles": "111z"},
        {"kind": "chi", "tiles": "789s"},
        {"kind": "pon", "tiles": "555z"},
        {"kind": "chi", "tiles": "234m"},
    ],
    "dora_indicators": "6p",
    "turn": 10,
    "opponents": [{"river": "9p1s4z8m2p6p3m7z9s", "riichi": True, "riichi_turn": 9}],
}
"""The request whose answer is the response example (a test keeps them in step)."""

_DISCARD_EXAMPLE: Final[JsonDict] = {
    "best": "3p",
    "shanten": 0,
    "candidates": [
        {
            "tile": "3p",
            "shanten": 0,
            "ukeire_count": 3,
            "ukeire": [{"tile": "7p", "remaining": 3}],
            "safety": 0.944,
            "safety_score": -0.4,
            "score": 1348.249924,
            "linear_score": 2.52,
            "tenpai_probability": 1.0,
            "win_probability": 0.219313,
            "expected_score": 1754.502038,
            "deal_in_cost": 406.252114,
            "horizon": {"first_turn": 10, "last_turn": 18},
            "fan_plan": None,
            "components": {"shanten": 0.0, "ukeire": 0.6, "safety": -0.48, "dora": 1.5, "honors": 0.9},
            "dora": 1,
            "honors": 1.5,
            "shanten_loss": 0,
            "is_wildcard": False,
            "safety_by_opponent": [
                {
                    "opponent": 0,
                    "safety": 0.944,
                    "danger": 0.056,
                    "danger_if_ready": 0.056,
                    "ready_probability": 1.0,
                    "reasons": ["suji"],
                }
            ],
            "reasons": [
                "expected 1755 points by turn 18: win 21.9%, tenpai 100.0%, less 406 for the risk of dealing in",
                "shanten 0, the best possible",
                "3 ukeire copies over 1 kind",
                "keeps 1 dora",
                "opponent 0: deals in with probability 0.056 (suji)",
            ],
            "improvements": None,
            "good_shape": None,
            "lookahead": None,
        },
        {
            "tile": "7p",
            "shanten": 0,
            "ukeire_count": 3,
            "ukeire": [{"tile": "3p", "remaining": 3}],
            "safety": 0.895068,
            "safety_score": -1.623304,
            "score": 155.925573,
            "linear_score": -0.447965,
            "tenpai_probability": 1.0,
            "win_probability": 0.219313,
            "expected_score": 818.990949,
            "deal_in_cost": 663.065376,
            "horizon": {"first_turn": 10, "last_turn": 18},
            "fan_plan": None,
            "components": {"shanten": 0.0, "ukeire": 0.6, "safety": -1.947965, "dora": 0.0, "honors": 0.9},
            "dora": 0,
            "honors": 1.5,
            "shanten_loss": 0,
            "is_wildcard": False,
            "safety_by_opponent": [
                {
                    "opponent": 0,
                    "safety": 0.895068,
                    "danger": 0.104932,
                    "danger_if_ready": 0.104932,
                    "ready_probability": 1.0,
                    "reasons": ["no_suji", "dora"],
                }
            ],
            "reasons": [
                "expected 819 points by turn 18: win 21.9%, tenpai 100.0%, less 663 for the risk of dealing in",
                "shanten 0, the best possible",
                "3 ukeire copies over 1 kind",
                "gives up 1 dora",
                "opponent 0: deals in with probability 0.105 (no_suji, dora)",
            ],
            "improvements": None,
            "good_shape": None,
            "lookahead": None,
        },
    ],
    "weights": {"shanten": 10.0, "ukeire": 0.8, "safety": 1.2, "dora": 1.5, "honors": 0.6},
    "model": "expected_score",
    "model_note": None,
    "value_search": {
        "states": 143,
        "complete": True,
        "stopped_by": None,
        "horizon": {"first_turn": 10, "last_turn": 18},
    },
    "win": False,
    "win_declarable": None,
    "win_reason": None,
    "win_note": None,
}


class DiscardResponse(BaseModel):
    """Every distinct discard, best first."""

    model_config = ConfigDict(frozen=True, json_schema_extra={"examples": [_DISCARD_EXAMPLE]})

    best: str = Field(description="The first candidate's tile.", examples=["9m"])
    shanten: int = Field(
        description="Shanten of the 3n+2 hand as it is (-1: complete; `win` says whether it may be declared).",
        examples=[1],
    )
    candidates: list[CandidateOut] = Field(
        description="One per distinct tile, by score (highest first). Ties: under `expected_score`, more value "
        "kept (dora, then honours), then safer, then the tile connecting least with the hand, then lower shanten, "
        "more ukeire, tile order; under `linear`, lower shanten, more ukeire, tile order."
    )
    weights: WeightsOut
    model: DiscardModel = Field(description="The model that ranked the candidates.")
    model_note: str | None = Field(
        None, description="Why `linear` ranked when `expected_score` was asked for (null otherwise)."
    )
    value_search: ValueSearchOut | None = Field(None, description="The expected-score search, when it ranked.")
    win: bool = Field(
        False,
        description="The hand wins as it stands, before any discard: it is complete and the rules' shape "
        "conditions hold (as `POST /win` answers for it; Qiqihar also needs an open meld), so it may be declared a "
        "self-draw win (tsumo, 自摸) instead of discarding, subject to `win_declarable`. The candidates still rank "
        "the discards, for a player who plays on.",
    )
    win_declarable: bool | None = Field(
        None,
        description="Where `win` is true and the rules have a scoring profile (riichi, sanma: a yaku; mcr: 8 fans, "
        "flowers not counted; qiqihar: always): whether it lets the self-draw win, judged for each tile of the hand "
        "that may be the one drawn and, without `seat_wind`, for each seat: true in every case, false in none "
        "(`win_reason` says why), null when it depends on them, when the rules have no scoring profile (chinese), "
        "or when `win` is false. The last tile of the wall, a kong replacement or riichi are not assumed: "
        "`POST /score` judges a win with its situation.",
    )
    win_reason: str | None = Field(
        None,
        description="Why a complete shape may not be declared: the rules' shape condition "
        "(`open_meld_required`, with `win` false) or the scoring profile's refusal (`no_yaku`, "
        "`below_minimum_fan`, with `win_declarable` false); null otherwise.",
        examples=["no_yaku"],
    )
    win_note: str | None = Field(
        None,
        description="For a person, when the shape is complete (`shanten` -1): whether to declare the win and why; "
        "null otherwise.",
    )
    void_suit: str | None = Field(
        None,
        description="Under rules with a void suit (`sichuan`), the void suit the advice plays: the request's, or "
        "with none given the best suit to void. Absent under other rules.",
        examples=["s"],
        exclude_if=lambda value: value is None,
    )

    @classmethod
    def of(
        cls,
        candidates: Sequence[Candidate],
        shanten: int,
        weights: Weights,
        search: ValueSearch | None = None,
        *,
        verdict: SelfDraw | None = None,
        rules_name: str = "",
        void_suit: int | None = None,
    ) -> DiscardResponse:
        """The answer; ``verdict`` is the hand's own, as it stands (None: not complete)."""
        search = search or ValueSearch(DiscardModel.LINEAR)
        value_search = None
        if search.model is DiscardModel.EXPECTED_SCORE and search.first_turn is not None and search.last_turn:
            value_search = ValueSearchOut(
                states=search.states,
                complete=search.complete,
                stopped_by=search.stopped_by,
                horizon=HorizonOut(first_turn=search.first_turn, last_turn=search.last_turn),
            )
        return cls(
            best=format_tile(candidates[0].tile),
            shanten=shanten,
            candidates=[CandidateOut.of(c) for c in candidates],
            weights=WeightsOut(**weights._asdict()),
            model=search.model,
            model_note=search.fallback,
            value_search=value_search,
            win=verdict is not None and verdict.win,
            win_declarable=None if verdict is None else verdict.declarable,
            win_reason=None if verdict is None else verdict.reason,
            win_note=None if verdict is None else _win_note(verdict, rules_name),
            void_suit=None if void_suit is None else format_suit(void_suit),
        )


def _win_note(verdict: SelfDraw, rules: str) -> str:
    """What to do with a complete shape, for a person.

    >>> _win_note(SelfDraw(True, True), "riichi")
    'complete: declare a self-draw win (tsumo) instead of discarding; riichi scoring lets it win whichever tile was drawn (POST /score with that tile as win_tile says what it pays)'
    """
    if not verdict.win:
        return f"the shape is complete, but {rules} rules do not let it win ({verdict.reason}); discard"
    if verdict.declarable:
        return (
            "complete: declare a self-draw win (tsumo) instead of discarding; "
            f"{rules} scoring lets it win whichever tile was drawn (POST /score with that tile as win_tile says what it pays)"
        )
    if verdict.declarable is False:
        return (
            f"the shape is complete, but {rules} scoring does not let it win as a self-draw: {verdict.refusal} "
            f"({verdict.reason}); discard, unless the situation adds what it lacks (the last tile of the wall, a kong "
            "replacement: POST /score judges it)"
        )
    if rules not in SCORING:
        return (
            "complete: declare a self-draw win (tsumo) instead of discarding "
            f"({rules} rules have no scoring profile to judge it further)"
        )
    return (
        "complete: it may be declared a self-draw win (tsumo) under the shape rules; whether "
        f"{rules} scoring lets it win depends on the tile drawn or the seat wind: POST /score with them judges it"
    )


# --- request examples (the first is what Swagger UI's "Try it out" fills in) ----------------

DISCARD_EXAMPLES: Final[dict[str, Any]] = {
    "called": Example(
        summary="four calls, a single wait, a riichi to face (the response example)", value=DISCARD_RESPONSE_REQUEST
    ),
    "efficiency": Example(
        summary="a dora worth more than three copies of ukeire",
        value={"hand": "234067m345p4567s1z", "dora_indicators": "4z", "turn": 6},
    ),
    "riichi_opponent": Example(
        summary="against a riichi: genbutsu and suji weigh in",
        value={
            "hand": "23456m345p45677s9s",
            "dora_indicators": "2p",
            "turn": 9,
            "opponents": [
                {"river": "1z9p2m8s6z5s4z7p1m", "riichi": True, "riichi_turn": 8},
                {"river": "9s1p7z3z2z8m4p6s"},
            ],
            "weights": {"safety": 30.0},
        },
    ),
    "chinese": Example(
        summary="Chinese rules: no furiten, so a discarded tile is not fully safe",
        value={
            "hand": "一二三万 四五六筒 七八九条 东东 南 发 中",
            "rules": "chinese",
            "opponents": [{"river": "中 九万 一筒", "riichi": True}],
        },
    ),
    "qiqihar": Example(
        summary="Qiqihar: 红中 is a wildcard, worth keeping",
        value={"hand": "123m45p78s99s3z7z", "melds": [{"kind": "pon", "tiles": "111z"}], "rules": "qiqihar"},
    ),
    "extras": Example(
        summary="improvement draws and good-shape share",
        value={"hand": "2234567m345p5677s", "options": {"improvements": True, "good_shape": True}},
    ),
    "lookahead": Example(
        summary="tenpai and win probability within 6 draws",
        value={"hand": "1234678m345p5s22z1z", "options": {"lookahead": True, "lookahead_draws": 6}},
    ),
}
