"""``POST /review``: a game's mjai events and a seat in, each of its decisions reviewed out.

Data flows one way: JSON -> :class:`ReviewRequest` (events as sent, rules as a profile) ->
:func:`app.core.table.review.review` -> :class:`ReviewResponse`.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi.openapi.models import Example
from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.config import JsonDict

from app.api.schemas.common import Rules
from app.api.schemas.records import LogFormat
from app.api.schemas.table import _EVENTS_DOC, _RULES_DOC, ONE_HAND, _Events
from app.core.table.review import WORST_LOSSES, Review, ReviewedDecision, ReviewedHand

REVIEW_EXAMPLES: Final[dict[str, Any]] = {
    "one_hand": Example(
        summary="the dealer's one decision of a one-hand game (it threw the 9s it drew; seat 1 won on it)",
        value={"events": ONE_HAND, "seat": 0, "rules": "riichi"},
    ),
    "one_hand_of_a_game": Example(
        summary="seat 1's decisions in the first hand only (`kyoku`: 0)",
        value={"events": ONE_HAND, "seat": 1, "rules": "riichi", "kyoku": 0},
    ),
}


class ReviewRequest(BaseModel):
    """A game (or its first hands) as mjai events, the seat to review, and optionally one hand of it."""

    model_config = ConfigDict(extra="forbid")

    events: _Events | None = Field(
        None,
        description=_EVENTS_DOC + " The whole log may be sent with every seat's tiles: each decision is judged "
        "from what `seat` saw then (the other seats' dealt and drawn tiles are hidden before the replay). An event "
        "the table does not allow is a 422 `illegal_event` at its index. Send `events` or `log`, not both.",
    )
    log: str | None = Field(
        None,
        description="The game as a log's text instead of `events`: mjai JSONL, tenhou.net/6 JSON or Tenhou's mjlog "
        "XML (docs/records.md), read as `POST /records/convert` reads it; a log its format does not allow is a 422 "
        '`malformed_log` at `["body", "log", ...]`.',
    )
    format: LogFormat | None = Field(None, description="The format of `log`; null: read from its first characters.")
    seat: int = Field(
        ge=0,
        le=3,
        strict=True,
        description="The seat to review, 0..3 (sanma: 0..2; seat 3 there is a 422 `out_of_range`).",
    )
    rules: Rules = Field("riichi", validate_default=True, description=_RULES_DOC, examples=["riichi", "sanma"])
    kyoku: int | None = Field(
        None,
        ge=0,
        strict=True,
        description="Review only this hand of the log: its index among the log's `start_kyoku` events, from 0 (a "
        "long game may be reviewed hand by hand, each within the time bound). Null: every hand. Past the last "
        "hand: a 422 `out_of_range` at `kyoku`.",
    )

    @model_validator(mode="after")
    def _one_game(self) -> ReviewRequest:
        if (self.events is None) == (self.log is None):
            raise ValueError("send the game as `events` (mjai event objects) or as `log` (a log's text), one of them")
        if self.format is not None and self.log is None:
            raise ValueError("`format` is the format of `log`; without `log` it has nothing to say")
        return self


_ACTION_DOC: Final = (
    "An mjai action object (`none` is a pass); a `reach` carries the `pai` of the discard that declares it."
)


class ReviewedDecisionOut(BaseModel):
    """One decision of the seat: the action taken beside the review's pick, and the value lost."""

    index: int = Field(
        description="The index of the event after which the seat decided (its draw, its call, "
        "another seat's discard or kan); the action taken is the event(s) after it."
    )
    hand: int = Field(description="Which hand of the log, from 0 (the `kyoku` to ask to review it alone).")
    bakaze: str = Field(description="The round wind, E S W or N.")
    kyoku: int = Field(description="The hand's number within its round, 1..4.")
    honba: int
    turn: int = Field(description="The seat's turn: its discards so far, plus one.")
    tiles: str = Field(description="The seat's concealed tiles in mpsz (a red five as 0), the drawn tile included.")
    melds: list[str] = Field(description="The seat's melds, each in mpsz.")
    taken: dict[str, Any] = Field(description="The action the log took. " + _ACTION_DOC)
    taken_value: float | None = Field(
        description="Its value in points from the same ranking as the pick's; null where the ranking gives it none "
        "(`note` says why)."
    )
    taken_reasons: list[str] = Field(description="Why it is worth that (the danger, the shape, the win chance).")
    pick: dict[str, Any] = Field(
        description="tenpai's pick: the action the ranking values most (the advisor's own, /act's `action`, unless "
        "a rule of thumb made it take another: `note` says so). " + _ACTION_DOC
    )
    pick_value: float | None = Field(description="Its value in points (points at the end of the hand; a fold is 0).")
    pick_reasons: list[str]
    loss: float | None = Field(
        description="`pick_value - taken_value`, at least 0: the points the action taken gave up. Null where either "
        "has no value in points (a far hand ranked by the linear model, a pass beside a win, a riichi declared "
        "with a tile the advisor did not value it with)."
    )
    agree: bool = Field(
        description="The action taken is the pick (the same kind of action on the same kinds of tiles)."
    )
    options: int = Field(description="How many actions were legal (at least 2: one legal action is no decision).")
    note: str | None = Field(None, description="What the figures leave out, in words.")

    @classmethod
    def of(cls, decision: ReviewedDecision) -> ReviewedDecisionOut:
        return cls(
            index=decision.index,
            hand=decision.hand,
            bakaze=decision.bakaze,
            kyoku=decision.kyoku,
            honba=decision.honba,
            turn=decision.turn,
            tiles=decision.tiles,
            melds=list(decision.melds),
            taken=decision.taken,
            taken_value=decision.taken_value,
            taken_reasons=list(decision.taken_reasons),
            pick=decision.pick,
            pick_value=decision.pick_value,
            pick_reasons=list(decision.pick_reasons),
            loss=decision.loss,
            agree=decision.agree,
            options=decision.options,
            note=decision.note,
        )


class ReviewedHandOut(BaseModel):
    """One hand of the log: how it ended, the log's deltas, the seat's decisions in it."""

    hand: int = Field(description="Its index among the log's hands, from 0.")
    bakaze: str
    kyoku: int
    honba: int
    result: str = Field(
        description="`hora`, or the kind of draw: exhaustive, nine_terminals, four_winds, "
        "four_riichi, four_kans, triple_ron."
    )
    winners: list[int] = Field(description="The winning seats, in the log's order.")
    deltas: list[int] | None = Field(description="The log's deltas for the hand, per seat; null when it carries none.")
    decisions: int = Field(description="The seat's decisions reviewed in this hand.")
    agreements: int
    loss: float = Field(description="The points lost over them (decisions without a figure count 0).")

    @classmethod
    def of(cls, hand: ReviewedHand) -> ReviewedHandOut:
        return cls(
            hand=hand.hand,
            bakaze=hand.bakaze,
            kyoku=hand.kyoku,
            honba=hand.honba,
            result=hand.result,
            winners=list(hand.winners),
            deltas=None if hand.deltas is None else list(hand.deltas),
            decisions=hand.decisions,
            agreements=hand.agreements,
            loss=hand.loss,
        )


class WorstLoss(BaseModel):
    """One of the largest losses: where it is in `decisions`, and how much."""

    index: int = Field(description="The decision's event index (its `index` in `decisions`).")
    loss: float


class ReviewSummary(BaseModel):
    """The decisions counted."""

    decisions: int = Field(description="Decisions reviewed (points where the seat had more than one legal action).")
    agreements: int = Field(description="Decisions where the action taken is the pick.")
    agreement_rate: float | None = Field(description="agreements / decisions; null without a decision.")
    valued: int = Field(description="Decisions whose loss has a figure in points.")
    total_loss: float = Field(description="The losses summed, in points.")
    worst: list[WorstLoss] = Field(description=f"The {WORST_LOSSES} largest losses (each > 0), largest first.")
    preempted: int = Field(
        description="Claim points left out: another seat's claim took the tile first (a pon over this seat's chi, a "
        "ron over its call), so the log cannot say what the seat wanted."
    )


_DECISION_EXAMPLE: Final[JsonDict] = {
    "index": 2, "hand": 0, "bakaze": "E", "kyoku": 1, "honba": 0, "turn": 1,
    "tiles": "1147m147p2589s124z", "melds": [],
    "taken": {"type": "dahai", "actor": 0, "pai": "9s", "tsumogiri": True},
    "taken_value": -40.70306, "taken_reasons": ["linear score", "shanten 5", "33 tiles improve"],
    "pick": {"type": "dahai", "actor": 0, "pai": "E", "tsumogiri": False},
    "pick_value": -40.70216, "pick_reasons": ["linear score", "shanten 5", "33 tiles improve"],
    "loss": None, "agree": False, "options": 13,
    "note": "ranked by the linear model (the hand is far from ready): its scores are not points, no loss is given",
}  # fmt: skip


class ReviewResponse(BaseModel):
    """Each of the seat's decisions reviewed, the summary, and each hand's result."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"seat": 0, "decisions": [_DECISION_EXAMPLE]}]})

    seat: int
    decisions: list[ReviewedDecisionOut] = Field(description="The seat's decisions, in the order played.")
    summary: ReviewSummary
    hands: list[ReviewedHandOut] = Field(description="Each hand reviewed that ended in the log, in order.")
    complete: bool = Field(
        description="False when the time bound (TENPAI_HEAVY_SECONDS) ended the review early: `decisions` holds "
        "those finished before `reached`; ask again hand by hand (`kyoku`)."
    )
    reached: int = Field(description="The index of the last event the review reached.")

    @classmethod
    def of(cls, review: Review) -> ReviewResponse:
        count = len(review.decisions)
        return cls(
            seat=review.seat,
            decisions=[ReviewedDecisionOut.of(decision) for decision in review.decisions],
            summary=ReviewSummary(
                decisions=count,
                agreements=review.agreements,
                agreement_rate=round(review.agreements / count, 6) if count else None,
                valued=review.valued,
                total_loss=review.total_loss,
                worst=[WorstLoss(index=decision.index, loss=decision.loss or 0.0) for decision in review.worst()],
                preempted=review.preempted,
            ),
            hands=[ReviewedHandOut.of(hand) for hand in review.hands],
            complete=review.complete,
            reached=review.reached,
        )
