"""Service configuration, read once from ``TENPAI_*`` environment variables.

Every value is validated when the app is created, so a bad deployment fails at
start with a message naming the variable, never on the first request.

>>> Settings(port=8080).port
8080
>>> Settings(cache_size=-1)
Traceback (most recent call last):
...
pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings
cache_size
  Input should be greater than or equal to 0 [type=greater_than_equal, input_value=-1, input_type=int]
...
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from app.core.shape.engine import DEFAULT_DECOMPOSITION_LIMIT

LogLevel = Literal["critical", "error", "warning", "info", "debug", "trace"]
LogFormat = Literal["json", "text"]


class Settings(BaseSettings):
    """Configuration of one service process; ``TENPAI_PORT=9000`` sets ``port``."""

    model_config = SettingsConfigDict(env_prefix="TENPAI_", frozen=True, extra="forbid")

    host: str = Field("127.0.0.1", min_length=1, description="Interface uvicorn binds to.")
    port: int = Field(8000, ge=1, le=65535, description="TCP port uvicorn listens on.")
    workers: int = Field(1, ge=1, le=64, description="uvicorn worker processes.")
    cache_size: int = Field(
        4096, ge=0, le=10_000_000, description="Finished answers kept in the LRU cache; 0 disables it."
    )
    cache_bytes: int = Field(
        64 * 1024 * 1024,
        ge=0,
        description="Bytes of rendered answers the LRU cache keeps at most (besides cache_size entries).",
    )
    act_machines: int = Field(
        256,
        ge=0,
        le=1_000_000,
        description="Table machines POST /act keeps (an LRU keyed by the rules, the seat and the SHA-256 of the "
        "events), so that a growing log of one game is resumed from its longest kept prefix instead of replayed "
        "whole; 0 disables it.",
    )
    act_machine_bytes: int = Field(
        32 * 1024 * 1024,
        ge=0,
        description="Bytes of table machines POST /act keeps at most (besides act_machines entries; a machine "
        "weighs 15 to 40 KB); 0 disables the machine cache.",
    )
    max_body_bytes: int = Field(1_048_576, ge=1024, description="Largest request body accepted; larger ones get 413.")
    max_answer_bytes: int = Field(
        8 * 1024 * 1024,
        ge=1024,
        description="Largest answer one request may get; a batch whose answer would be larger is refused "
        "up front with a 422 that says why.",
    )
    max_batch_size: int = Field(1000, ge=1, description="Most hands one batch request may ask about.")
    max_simulate_games: int = Field(
        200,
        ge=1,
        le=100_000,
        description="Most games one POST /simulate may play (3 ms to 2 s of CPU each, by strategy; bigger runs: "
        "python -m app.selfplay).",
    )
    max_events: int = Field(
        10_000,
        ge=1,
        description="Most mjai events one POST /referee or /act may send (a hanchan has 1000 to 2000); more: 422.",
    )
    heavy_seconds: float = Field(
        2.0,
        gt=0,
        le=600,
        description="Wall-clock budget of one heavy computation (a lookahead or expected-score search, a "
        "/referee or /act replay; a /simulate run has simulate_seconds): past it the answer is what was found, "
        "flagged incomplete (a replay that cannot finish is a 503 out_of_time). A /win of hands holding many "
        "wildcards is bounded by the size of its answer instead, checked before the work.",
    )
    simulate_seconds: float = Field(
        10.0,
        gt=0,
        le=600,
        description="Wall-clock bound of one POST /simulate run: past it the answer is the report of the games "
        "finished, flagged complete: false. Longer runs belong to python -m app.selfplay (every core, or Ray).",
    )
    max_heavy_requests: int = Field(
        2,
        ge=1,
        le=1024,
        description="Heavy requests computed at once per process; more get 503 with Retry-After.",
    )
    log_level: LogLevel = Field("info", description="uvicorn and app log level.")
    decomposition_limit: int = Field(
        DEFAULT_DECOMPOSITION_LIMIT,
        ge=1,
        le=100_000,
        description="Most decompositions /win lists before it sets truncated.",
    )
    log_format: LogFormat = Field(
        "json", description="Log lines of `python -m app.main`: one JSON object each, or plain text."
    )
    access_log: bool = Field(True, description="Log one line per request (with its request id).")
    graceful_shutdown_seconds: int = Field(
        20,
        ge=1,
        le=3600,
        description="On SIGTERM, how long in-flight requests may take to finish before uvicorn closes them.",
    )
    limit_concurrency: int | None = Field(
        None, ge=1, description="Most concurrent connections and requests per worker; beyond it uvicorn answers 503."
    )
    api_keys: Annotated[tuple[SecretStr, ...], NoDecode] = Field(
        (),
        description="Comma-separated keys; when set, every request but the open paths needs one "
        "(X-API-Key or Authorization: Bearer).",
    )
    admin_keys: Annotated[tuple[SecretStr, ...], NoDecode] = Field(
        (),
        description="Comma-separated keys that may POST /cache/clear; empty: only clients on the loopback "
        "interface may clear the cache.",
    )
    protect_docs: bool = Field(
        False, description="With api_keys, also require a key for /docs, /redoc, /openapi.json and /metrics."
    )
    cors_origins: Annotated[tuple[str, ...], NoDecode] = Field(
        (), description='Comma-separated origins allowed by CORS ("*" for any); empty: no CORS headers.'
    )

    table_store: str = Field(
        "sqlite:///tenpai-tables.sqlite3",
        min_length=1,
        description="Where hosted tables live: sqlite:///path (an embedded file, relative to the working "
        "directory; sqlite:////abs/path) or redis://host:port/db, which lets any number of replicas serve the "
        "same tables.",
    )
    max_open_tables: int = Field(
        1000, ge=1, le=1_000_000, description="Most hosted tables open at once (active within table_idle_seconds)."
    )
    table_idle_seconds: float = Field(
        3600.0,
        ge=10,
        le=30 * 86400,
        description="A hosted table with no action for this long is abandoned: it and its record are deleted.",
    )
    tables_held: int = Field(
        256,
        ge=1,
        le=100_000,
        description="Games in play one process keeps in memory (an LRU; any other table is rebuilt from its store).",
    )
    table_tick_seconds: float = Field(
        0.2, gt=0, le=10, description="How often each process looks for a hosted table's deadline that has passed."
    )

    @field_validator("api_keys", "admin_keys", "cors_origins", mode="before")
    @classmethod
    def _split_commas(cls, value: object) -> object:
        # TENPAI_API_KEYS=a,b: a plain list, not JSON; blanks around commas are ignored.
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _lower_log_level(cls, value: object) -> object:
        # TENPAI_LOG_LEVEL=DEBUG is as clear as debug.
        return value.lower() if isinstance(value, str) else value
