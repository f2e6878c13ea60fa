"""Game records: Tenhou's mjlog XML, tenhou.net/6 JSON and mjai JSONL, read into and written from mjai events.

mjai events (the form Mortal's libriichi writes, :mod:`app.core.table.mjai`) are the hub: every
reader gives them and every writer takes them, so any format converts to any other through them.

>>> events = [{"type": "start_game", "names": ["a", "b", "c", "d"]}, {"type": "end_game"}]
>>> from app.core.families.registry import family_of
>>> text = write_log(events, "tenhou6", family_of("riichi"))
>>> detect_format(text), read_log(text, "tenhou6") == events
('tenhou6', True)
>>> read_log("<mjloggm", "mjlog")
Traceback (most recent call last):
...
app.core.table.records.common.MalformedLog: tags: not XML: unclosed token: line 1, column 0
"""

from __future__ import annotations

import gzip
import io
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from app.core.table.family import Family
from app.core.table.records.common import (
    FORMATS,
    Event,
    MalformedLog,
    ReadStopped,
    UnknownLogFormat,
    check_name,
    check_text,
    load_json,
)
from app.core.table.records.mjlog import read_mjlog, write_mjlog
from app.core.table.records.tenhou6 import read_tenhou6, write_tenhou6

__all__ = ["FORMATS", "MalformedLog", "ReadStopped", "UnknownLogFormat", "detect_format", "read_log", "write_log"]

#: The most a gzipped mjlog may unpack to: a whole hanchan is well under a megabyte.
MAX_UNPACKED: Final = 16 * 1024 * 1024


def _text(data: str | bytes) -> str:
    if isinstance(data, str):
        check_text(data, "log")
        return data
    if data[:2] == b"\x1f\x8b":  # Tenhou serves .mjlog files gzipped
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
                data = unpacked.read(MAX_UNPACKED + 1)
        except (OSError, EOFError) as error:
            raise MalformedLog(f"not gzip: {error}", field="log") from None
        if len(data) > MAX_UNPACKED:
            raise MalformedLog(f"the log unpacks to more than {MAX_UNPACKED} bytes", field="log")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise MalformedLog(f"not UTF-8: {error}", field="log") from None


#: How an mjai line starts (Mortal writes ``type`` first): the format of a first line JSON cannot read.
_MJAI_START: Final = re.compile(r'\{\s*"type"\s*:')


def detect_format(data: str | bytes) -> str:
    """Which of :data:`FORMATS` a log is written in, from its first characters.

    >>> detect_format('<mjloggm ver="2.3"><GO type="169"/></mjloggm>')
    'mjlog'
    >>> detect_format('{"type":"start_game"}\\n{"type":"end_game"}')
    'mjai'
    >>> detect_format("hello")
    Traceback (most recent call last):
    ...
    app.core.table.records.common.UnknownLogFormat: not a game record: mjlog starts with <, tenhou.net/6 with {"log": ..., mjai with {"type": ...
    """
    text = _text(data).lstrip()
    if text.startswith("<"):
        return "mjlog"
    if text.startswith("["):
        return "mjai"
    if text.startswith("{"):
        first_line = text.split("\n", 1)[0]
        try:
            first = json.loads(first_line)
        except (ValueError, RecursionError):  # not JSON, too long a number, too deep: the reader will say
            first = None
        if (isinstance(first, dict) and "type" in first) or _MJAI_START.match(first_line):
            return "mjai"
        return "tenhou6"
    raise UnknownLogFormat(
        'not a game record: mjlog starts with <, tenhou.net/6 with {"log": ..., mjai with {"type": ...'
    )


def _check_format(format: str) -> str:
    if format not in FORMATS:
        raise UnknownLogFormat(f"unknown log format {format!r}; known: {', '.join(FORMATS)}", field="format")
    return format


#: How deep an mjai event's values may nest: the deepest the protocol has is ``tehais`` (2); the
#: rest is room for fields of other tools (a bot's ``meta``), which the mjai writer writes back.
MAX_EVENT_DEPTH: Final = 16


def read_mjai(text: str) -> list[Event]:
    """mjai events from JSON lines (or one JSON list of events).

    Each is an object with a ``type``; its values nest at most :data:`MAX_EVENT_DEPTH` levels, its
    text has no lone surrogate, and the names of ``start_game`` are names (:func:`check_name`).
    The fields of each event are checked by the referee (:func:`app.core.table.mjai.read_event`).
    """
    check_text(text, "events")
    stripped = text.strip()
    if stripped.startswith("["):
        events = load_json(stripped, "events")
        if not isinstance(events, list):
            raise MalformedLog("a list of events", field="events")
    else:
        events = []
        for number, line in enumerate(stripped.splitlines()):
            if line.strip():
                events.append(load_json(line, f"lines[{number}]"))
    # The text has no lone surrogate (checked above): one in a string can only come from a \ud800 escape.
    escaped = _SURROGATE_ESCAPE.search(stripped) is not None
    for index, event in enumerate(events):
        where = f"events[{index}]"
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise MalformedLog("an mjai event is an object with a type", field=where)
        names = event.get("names")
        if event["type"] == "start_game" and isinstance(names, list):
            for seat, name in enumerate(names):
                check_name(name, f"{where}.names[{seat}]")
        for key, value in event.items():
            if escaped or isinstance(value, (list, dict)):
                at = f"{where}.{key}" if key.isidentifier() else where
                _check_value(key, at, escaped)
                _check_value(value, at, escaped)
    return events


#: A JSON escape of a UTF-16 surrogate (of a pair, or alone).
_SURROGATE_ESCAPE: Final = re.compile(r"\\u[dD][89a-fA-F]")


def _check_value(value: object, where: str, escaped: bool) -> None:
    """Refuse a value nested deeper than :data:`MAX_EVENT_DEPTH`, or (where the text ``escaped`` a
    surrogate) holding a lone surrogate in its text, keys too: the writers and the answer's encoder
    could not take it, and never with a word of ours."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if escaped:
                check_text(item, where)
        elif isinstance(item, (list, dict)):
            if depth >= MAX_EVENT_DEPTH:
                raise MalformedLog(f"values nested more than {MAX_EVENT_DEPTH} levels deep", field=where)
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)


def write_mjai(events: Sequence[Mapping[str, Any]]) -> str:
    """JSON lines, one event a line, compact as Mortal writes them."""
    return "".join(json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n" for event in events)


def read_log(data: str | bytes, format: str | None = None, *, stop: Callable[[], bool] | None = None) -> list[Event]:
    """The mjai events of a log in ``format`` (None: :func:`detect_format`).

    Raises :class:`MalformedLog` (``malformed_log``, ``field`` naming the place) for a log its
    format does not allow, :class:`UnknownLogFormat` for an unknown format, and
    :class:`ReadStopped` when ``stop`` says so (the tenhou.net/6 reader's search for the order of
    moves looks at it as it goes; the other readers' work is linear in the log's size).
    """
    text = _text(data)
    chosen = _check_format(format) if format is not None else detect_format(text)
    if chosen == "mjlog":
        return read_mjlog(text)
    if chosen == "tenhou6":
        return read_tenhou6(text, stop=stop)
    return read_mjai(text)


def write_log(events: Sequence[Mapping[str, Any]], format: str, family: Family) -> str:
    """A log in ``format`` of the mjai ``events`` (a whole game: start_game .. end_game); Tenhou's
    formats score each hand by ``family``'s table (the riichi family: they carry riichi and sanma).

    Raises :class:`MalformedLog` when the events are not a game the format can carry.
    """
    chosen = _check_format(format)
    if chosen == "mjlog":
        return write_mjlog(events, family)
    if chosen == "tenhou6":
        return write_tenhou6(events, family)
    return write_mjai(events)
