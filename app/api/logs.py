"""Log lines as JSON objects, each carrying the id of the request it belongs to.

:class:`~app.api.observe.Observe` sets :data:`REQUEST_ID` for the duration of
each request, so any line logged while answering it (the access line, the
trace of a 500) names the request; the client gets the same id back in the
``X-Request-ID`` header.  ``python -m app.main`` installs :func:`log_config`
for uvicorn's loggers and the app's.

>>> import logging
>>> token = REQUEST_ID.set("4bf92f3577b34da6")
>>> record = logging.LogRecord("app.api", logging.INFO, "x.py", 1, "tables built in %.1f s", (1.04,), None)
>>> print(JsonFormatter().format(record).replace(record_time(record), "T"))
{"time": "T", "level": "info", "logger": "app.api", "message": "tables built in 1.0 s", "request_id": "4bf92f3577b34da6"}
>>> REQUEST_ID.reset(token)
"""

from __future__ import annotations

import json
import logging
import time
from contextvars import ContextVar
from typing import Any, Final

from app.settings import Settings

#: The id of the request being answered in this task, or None outside a request.
REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)

#: The logger of one line per answered request; silent unless :func:`log_config` enables it,
#: so an app served without that config (``uvicorn app.main:app``) pays nothing for it.
ACCESS_LOGGER: Final = "tenpai.access"


def record_time(record: logging.LogRecord) -> str:
    """The record's creation time in UTC, ISO 8601 with milliseconds."""
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
    return f"{seconds}.{int(record.msecs):03d}Z"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id, extra ``http`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": record_time(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = REQUEST_ID.get()
        if request_id is not None:
            entry["request_id"] = request_id
        http = getattr(record, "http", None)
        if http is not None:
            entry["http"] = http
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


class TextFormatter(logging.Formatter):
    """Plain lines for a terminal, with the request id when there is one."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        request_id = REQUEST_ID.get()
        return line if request_id is None else f"{line} [request_id={request_id}]"


def log_config(settings: Settings) -> dict[str, Any]:
    """The ``logging.config.dictConfig`` of a served process (uvicorn's ``log_config``)."""
    level = "DEBUG" if settings.log_level == "trace" else settings.log_level.upper()
    formatter = "json" if settings.log_format == "json" else "text"
    handler = {"class": "logging.StreamHandler", "formatter": formatter, "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {"()": JsonFormatter},
            "text": {"()": TextFormatter},
        },
        "handlers": {"default": handler},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            # The access line comes from ACCESS_LOGGER, which knows the request id and the route.
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            "app": {"handlers": ["default"], "level": level, "propagate": False},
            ACCESS_LOGGER: {
                "handlers": ["default"],
                "level": "INFO" if settings.access_log else "WARNING",
                "propagate": False,
            },
        },
    }
