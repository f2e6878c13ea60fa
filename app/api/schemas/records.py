"""``POST /records/convert``: a game log in one of the three formats in, the same game in another out.

Data flows one way: JSON -> :class:`ConvertRequest` -> :func:`app.core.table.records.read_log`, the
referee (:func:`app.core.table.referee.judge`) and :func:`app.core.table.records.write_log` ->
:class:`ConvertResponse`.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas.common import Rules
from app.api.schemas.table import _RULES_DOC, ProblemOut

LogFormat = Literal["mjai", "tenhou6", "mjlog"]

_FORMATS_DOC: Final = (
    "`mjai` (JSONL: one mjai event a line, or a JSON array of them), `tenhou6` (tenhou.net/6 JSON, what Tenhou's "
    "viewer and the Mahjong Soul exporters write) or `mjlog` (Tenhou's mjlog XML); docs/records.md"
)


class ConvertRequest(BaseModel):
    """A log, its format (or none: detected), the format wanted, and the rules its game is judged by."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "log": '{"type":"start_game","names":["A","B","C","D"]}\n{"type":"end_game"}',
                    "to": "tenhou6",
                }
            ]
        },
    )

    log: str = Field(description="The whole log as text, in one of the formats: " + _FORMATS_DOC + ".")
    format: LogFormat | None = Field(None, description="The log's format; null: read from its first characters.")
    to: LogFormat = Field(description="The format to write.")
    rules: Rules = Field("riichi", validate_default=True, description=_RULES_DOC, examples=["riichi", "sanma"])


class ConvertResponse(BaseModel):
    """The log in the format asked for, with the referee's verdict on the game it holds."""

    format: LogFormat = Field(description="The format written (`to`).")
    source_format: LogFormat = Field(description="The format the log was read as (given or detected).")
    events: int = Field(description="The mjai events of the game, as the referee reads them.")
    valid: bool = Field(description="The referee found no problem (as `POST /referee` answers).")
    problems: list[ProblemOut] = Field(
        description="Every problem the referee found, at its event's index (as `POST /referee` reports them)."
    )
    log: str = Field(description="The game in `format`.")
