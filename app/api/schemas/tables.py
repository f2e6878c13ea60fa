"""Hosted tables: the bodies of ``POST /tables``, a seat's view, its actions and the record."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from app.api.schemas.simulate import TableRules
from app.core.shape.rules import OPTIONS, SEAT_COUNTS
from app.core.table.flow import GameLength

_OPEN_EXAMPLE: JsonDict = {
    "rules": "riichi",
    "length": "hanchan",
    "seats": ["client", "bot", "bot", "bot"],
    "clock": {"decision_seconds": 15, "bank_seconds": 60},
    "seed": None,
}
_ACTION_EXAMPLE: JsonDict = {"version": 57, "action": {"type": "dahai", "actor": 0, "pai": "5m", "tsumogiri": False}}

#: The longest player's name (Tenhou's are at most 8 characters; mjlog writes them URL-encoded).
MAX_NAME_CHARS = 64
#: The longest seed a client may choose (duplicate play); a secret seed is 3,358 characters.
MAX_SEED_CHARS = 4096


class ClockSpec(BaseModel):
    """Each client seat's time: per decision, plus a bank for the whole game."""

    model_config = ConfigDict(extra="forbid")

    decision_seconds: float = Field(15.0, ge=0.1, le=3600, description="Seconds for each decision.")
    bank_seconds: float = Field(
        60.0, ge=0, le=86400, description="Seconds for the whole game that time beyond decision_seconds is taken from."
    )
    autoplay_seconds: float = Field(
        1.0,
        ge=0,
        le=60,
        description="A seat in auto-play (托管) is acted for this long after it is asked: the time it has to "
        "come back by acting itself.",
    )


class OpenTableRequest(BaseModel):
    """Who sits at the table, under which rules, with what clock, from which seed."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_OPEN_EXAMPLE]})

    rules: TableRules = Field(TableRules("riichi"), description="Rules preset, as for POST /simulate.")
    length: GameLength = Field(
        GameLength.HANCHAN,
        description="kyoku (one hand), tonpuu or hanchan; the presets played one hand at a time take kyoku.",
    )
    seats: list[Literal["client", "bot"]] = Field(
        min_length=min(SEAT_COUNTS),
        max_length=max(SEAT_COUNTS),
        description="One entry per seat (three under sanma): 'client', a player acting through this API, or "
        "'bot', played by the service's advisor. At least one client.",
    )
    clock: ClockSpec = Field(default_factory=ClockSpec)
    seed: str | None = Field(
        None,
        max_length=MAX_SEED_CHARS,
        description="null: a secret seed from the operating system's random source, revealed in the record; a "
        "string: every hand's wall follows from it (duplicate play).",
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        max_length=len(OPTIONS),
        description="Rule options over the preset, as GET /rules lists them.",
    )
    names: list[Annotated[str, Field(min_length=1, max_length=MAX_NAME_CHARS)]] | None = Field(
        None,
        min_length=min(SEAT_COUNTS),
        max_length=max(SEAT_COUNTS),
        description="The players' names in the record (default: client0, bot1, ...).",
    )


class SeatOut(BaseModel):
    seat: int
    kind: Literal["client", "bot"]
    token: str | None = Field(None, description="The seat's bearer secret (client seats; shown only here, once).")


class TableOpened(BaseModel):
    table: str
    version: int
    status: Literal["playing", "over"]
    commitment: str = Field(description="Lowercase hex SHA-256 of the seed's ASCII bytes, published before the deal.")
    rules: str
    length: str
    clock: dict[str, float]
    seats: list[SeatOut]


class TableView(BaseModel):
    """What one seat sees of the table."""

    table: str
    seat: int
    version: int = Field(description="How many events the table holds.")
    after: int = Field(description="The events shown are those after the first `after`.")
    status: Literal["playing", "over"]
    events: list[dict[str, Any]] = Field(description="mjai events as the seat sees them: others' tiles are '?'.")
    legal: list[dict[str, Any]] = Field(description="What the seat may do now, as /act lists it; [] when not asked.")
    deadline: str | None = Field(description="When the clock acts for the seat (ISO 8601, UTC); null when not asked.")
    autoplay: bool = Field(description="The service plays for the seat (托管) until it next acts.")
    bank_seconds: float
    scores: list[int]
    rules: str
    length: str
    seats: list[dict[str, Any]]
    commitment: str
    seed: str | None = Field(None, description="Only once the game is over.")


class ActionRequest(BaseModel):
    """One seat's action, at the version of the table it saw."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [_ACTION_EXAMPLE]})

    version: int = Field(ge=0, le=10**9, description="The table's version the action answers (its view's).")
    action: dict[str, Any] = Field(description="An mjai action, one of the view's `legal`.")


class TableRecord(BaseModel):
    table: str
    rules: str
    length: str
    events: list[dict[str, Any]] = Field(description="The whole game, every tile shown.")
    seed: str
    commitment: str
    scores: list[int]
    answers: list[list[list[Any]]] = Field(
        description="Every decision the dealer asked for, in order: for each, the seats asked, each as [seat, "
        "action, by] where by is client (the seat itself), bot, or clock (its time ran out: auto-play)."
    )
