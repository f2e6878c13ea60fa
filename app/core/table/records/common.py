"""What every record format shares: the error, the mjai game cut into hands, how a draw ended.

>>> error = MalformedLog("not a tile: 99", field="log[0][5][3]")
>>> error.code, str(error)
('malformed_log', 'log[0][5][3]: not a tile: 99')
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from app.core.errors import TenpaiError
from app.core.shape.tiles import quoted
from app.core.table.mjai import MalformedEvent, lone_surrogate, name_fault, read_event
from app.core.table.records.tiles import KIND_OF_NAME, is_terminal_or_honour, kind_of_name

#: The record formats :func:`app.core.table.records.read_log` and ``write_log`` know.
FORMATS: Final = ("mjai", "tenhou6", "mjlog")

Event = dict[str, Any]


class MalformedLog(TenpaiError):
    """A log that is not what its format says, or mjai events a format cannot carry.

    ``field`` names where: ``log[2][5][7]`` (tenhou.net/6: hand 2, seat 0's draws, the 8th),
    ``tags[41]`` (mjlog: the 42nd tag), ``events[17].consumed`` (mjai), ``format``.
    """

    code = "malformed_log"

    def __init__(self, reason: str, *, field: str | None = None) -> None:
        super().__init__(f"{field}: {reason}" if field else reason, field=field)
        self.reason = reason


class UnknownLogFormat(TenpaiError):
    """A format name that is not one of :data:`FORMATS`, or text that is none of them."""

    code = "unknown_log_format"


class ReadStopped(Exception):
    """The caller's ``stop`` signal fired while a log was being read (its deadline passed, its client left).

    Only the tenhou.net/6 reader's search for the order of the moves looks at it: every other part
    of reading costs time in proportion to the log's size, which its caller bounds.
    """


#: A run of digits longer than Python reads as an integer (``sys.get_int_max_str_digits()``).
_LONG_NUMBER: Final = re.compile(f"[0-9]{{{sys.get_int_max_str_digits() + 1},}}")


def load_json(text: str, where: str) -> Any:
    """The value of a JSON text, every refusal of the parser a :class:`MalformedLog` at ``where`` in
    words of ours: not JSON (and where not), a number longer than Python reads, nesting deeper than
    the parser follows.

    >>> load_json('{"log": [1, 2]}', "log")
    {'log': [1, 2]}
    >>> load_json('{"log": [1, 2}', "log")
    Traceback (most recent call last):
    ...
    app.core.table.records.common.MalformedLog: log: not JSON: expecting ',' delimiter at line 1, column 14
    >>> load_json('[' + '7' * 5000 + ']', "lines[3]")
    Traceback (most recent call last):
    ...
    app.core.table.records.common.MalformedLog: lines[3]: a number of 5000 digits at line 1, column 2: no number in a log has more than a few
    >>> load_json('[' * 100_000 + ']' * 100_000, "log")
    Traceback (most recent call last):
    ...
    app.core.table.records.common.MalformedLog: log: lists or objects nested too deep to read (a log nests them a few levels deep)
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        reason = error.msg[:1].lower() + error.msg[1:]
        raise MalformedLog(f"not JSON: {reason} at line {error.lineno}, column {error.colno}", field=where) from None
    except ValueError:
        found = _LONG_NUMBER.search(text)
        if found is None:  # no other ValueError is known: still ours, not Python's words
            raise MalformedLog("not JSON that can be read", field=where) from None
        line = text.count("\n", 0, found.start()) + 1
        column = found.start() - (text.rfind("\n", 0, found.start()) + 1) + 1
        raise MalformedLog(
            f"a number of {found.end() - found.start()} digits at line {line}, column {column}: "
            "no number in a log has more than a few",
            field=where,
        ) from None
    except RecursionError:
        raise MalformedLog(
            "lists or objects nested too deep to read (a log nests them a few levels deep)", field=where
        ) from None


#: A UTF-16 surrogate standing alone in a Python str: what ``\ud800`` in a request's JSON becomes.
_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def check_text(text: str, where: str) -> None:
    """Refuse a log whose text holds a lone surrogate: no UTF-8 can, so no reader or writer could take it.

    >>> check_text("<mjloggm>" + chr(0xDC00), "log")
    Traceback (most recent call last):
    ...
    app.core.table.records.common.MalformedLog: log: not text: a lone surrogate U+DC00 at character 9, which no UTF-8 text can hold
    """
    found = _LONE_SURROGATE.search(text)
    if found is not None:
        raise MalformedLog(f"not text: {lone_surrogate(ord(found.group()), found.start())}", field=where)


def check_name(name: object, where: str) -> str:
    """A player's name read from a log: text, with no lone surrogate and no control character
    (:func:`~app.core.table.mjai.name_fault`), else a :class:`MalformedLog` at ``where``."""
    if not isinstance(name, str):
        raise MalformedLog(f"a player's name is text, not {quoted(name)}", field=where)
    fault = name_fault(name)
    if fault is not None:
        raise MalformedLog(f"not a player's name: {fault}", field=where)
    return name


def unwritable(error: Exception) -> str:
    """What a writer found wrong with an event, in words of ours (a Python error's repr is no message):
    a field it needs that the event lacks (mjai makes some optional: ``hora.deltas``), or one of
    another kind.

    >>> unwritable(KeyError("deltas")), unwritable(TypeError("'int' object is not iterable"))
    ("it has no 'deltas'", 'a field of it is not of the kind the format needs')
    """
    if isinstance(error, KeyError) and error.args:
        return f"it has no {quoted(error.args[0])}"
    return "a field of it is not of the kind the format needs"


@dataclass(slots=True)
class Hand:
    """One hand of an mjai game: its ``start_kyoku`` and the events up to its ``end_kyoku``.

    ``first`` is the index of ``start_kyoku`` in the whole log, so that errors name the event.
    """

    start: Event
    events: list[Event] = field(default_factory=list)
    first: int = 0


@dataclass(slots=True)
class Game:
    """An mjai game cut into its parts."""

    names: list[str]
    seats: int
    hands: list[Hand]


def split_game(events: Sequence[Mapping[str, Any]]) -> Game:
    """Cut an mjai log into ``start_game``, hands and ``end_game``, refusing any other shape.

    >>> game = split_game([{"type": "start_game", "names": ["a", "b", "c"]}, {"type": "end_game"}])
    >>> game.names, game.seats, game.hands
    (['a', 'b', 'c'], 3, [])
    """
    if not isinstance(events, Sequence) or any(not isinstance(event, Mapping) for event in events):
        raise MalformedLog("an mjai game is a list of event objects", field="events")
    if not events or events[0].get("type") != "start_game":
        raise MalformedLog("an mjai game starts with start_game", field="events[0]")
    if events[-1].get("type") != "end_game":
        raise MalformedLog("an mjai game ends with end_game", field=f"events[{len(events) - 1}]")
    hands: list[Hand] = []
    current: Hand | None = None
    for index, raw in enumerate(events[1:-1], start=1):
        event = dict(raw)
        kind = event.get("type")
        if kind == "start_kyoku":
            if current is not None:
                raise MalformedLog("start_kyoku before the last hand's end_kyoku", field=f"events[{index}]")
            current = Hand(event, first=index)
        elif current is None:
            raise MalformedLog(f"{kind} outside a hand (no start_kyoku before it)", field=f"events[{index}]")
        elif kind == "end_kyoku":
            hands.append(current)
            current = None
        else:
            current.events.append(event)
    if current is not None:
        raise MalformedLog("the last hand has no end_kyoku", field=f"events[{len(events) - 1}]")
    names = events[0].get("names")
    scores = hands[0].start.get("scores") if hands else None
    seats = len(scores) if isinstance(scores, list) else (len(names) if isinstance(names, list) else 4)
    if seats not in (3, 4):
        raise MalformedLog(f"a Tenhou record seats 3 or 4 players, not {seats}", field="events[1].scores")
    for index, sent in enumerate(events):
        try:
            read_event(sent, index, seats)
        except MalformedEvent as error:
            raise MalformedLog(error.reason, field=error.field) from None
        deltas = sent.get("deltas")
        if isinstance(deltas, list) and any(abs(delta) > MAX_POINTS for delta in deltas):
            raise MalformedLog(_POINTS_REASON, field=f"events[{index}].deltas")
    for hand in hands:
        _check_start(hand.start, seats, f"events[{hand.first}]")
    if not isinstance(names, list) or len(names) != seats:
        names = [str(seat) for seat in range(seats)]
    return Game([str(name) for name in names], seats, hands)


BAKAZE: Final = ("E", "S", "W", "N")

#: The most points a score or a change of score of a written game may be, either way.  No game comes
#: near it; a larger one (a number of thousands of digits, which JSON lets a log hold) would leave the
#: figures the writers compute (mjlog's final points are floats) and the numbers Python prints.
MAX_POINTS: Final = 10**9
_POINTS_REASON: Final = f"scores and changes of score are at most {MAX_POINTS:,} points either way"


def _check_start(start: Mapping[str, Any], seats: int, where: str) -> None:
    """The fields of a ``start_kyoku`` a record writes (the table's reader checks them only when it plays them)."""

    def count(key: str, low: int, high: int) -> None:
        value = start.get(key)
        if type(value) is not int or not low <= value <= high:
            raise MalformedLog(f"must be an integer {low}..{high}, got {value!r}", field=f"{where}.{key}")

    if start.get("bakaze") not in BAKAZE:
        raise MalformedLog(f"must be one of E S W N, got {start.get('bakaze')!r}", field=f"{where}.bakaze")
    count("kyoku", 1, 4)
    count("honba", 0, 10**4)
    count("kyotaku", 0, 10**4)
    count("oya", 0, seats - 1)
    scores = start.get("scores")
    if not isinstance(scores, list) or len(scores) != seats or any(type(value) is not int for value in scores):
        raise MalformedLog(f"must be {seats} integer scores, got {quoted(scores)}", field=f"{where}.scores")
    if any(abs(value) > MAX_POINTS for value in scores):
        raise MalformedLog(_POINTS_REASON, field=f"{where}.scores")
    tehais = start.get("tehais")
    if not isinstance(tehais, list) or len(tehais) != seats:
        raise MalformedLog(f"must be {seats} dealt hands", field=f"{where}.tehais")
    for seat, tiles in enumerate(tehais):
        if not isinstance(tiles, list) or len(tiles) != 13 or any(tile not in KIND_OF_NAME for tile in tiles):
            raise MalformedLog("a dealt hand is 13 tiles (no ?, no flowers)", field=f"{where}.tehais[{seat}]")
    if start.get("dora_marker") is None:
        # Chinese rules show no dora indicator; Tenhou's formats hold one in every hand.
        raise MalformedLog(
            "a Tenhou log shows a dora indicator in every hand, and this game has none: write it as mjai",
            field=f"{where}.dora_marker",
        )
    if start.get("dora_marker") not in KIND_OF_NAME:
        raise MalformedLog(f"not a tile: {quoted(start.get('dora_marker'))}", field=f"{where}.dora_marker")


def round_index(start: Mapping[str, Any]) -> int:
    """Tenhou's number of a hand: 0 for East 1, 4 for South 1, 8 for West 1 (wind x 4 + kyoku - 1)."""
    return BAKAZE.index(start["bakaze"]) * 4 + int(start["kyoku"]) - 1


#: Tenhou's kinds of draw, by the mjlog ``type`` (the exhaustive draw has none: ``""``).
EXHAUSTIVE: Final = ""
NINE_TERMINALS: Final = "yao9"
FOUR_RIICHI: Final = "reach4"
FOUR_KANS: Final = "kan4"
FOUR_WINDS: Final = "kaze4"
NAGASHI: Final = "nm"
THREE_RONS: Final = "ron3"


def draw_kind(hand: Hand, seats: int) -> str:
    """Which of Tenhou's draws ended the hand, from its events (mjai's ``ryukyoku`` does not say).

    Nine terminals follows the declarer's own draw; four riichi follows the fourth
    ``reach_accepted``; four winds the first four discards, one wind and no call; four kans
    a discard after the fourth kan of two or more players; nagashi mangan an exhaustive draw
    where a seat discarded only terminals and honours and none was called.
    """
    events = hand.events
    before = [event for event in events if event["type"] != "ryukyoku"]
    last = before[-1] if before else {}
    if last.get("type") == "tsumo":
        return NINE_TERMINALS
    if last.get("type") == "reach_accepted" and sum(event["type"] == "reach_accepted" for event in events) == seats:
        return FOUR_RIICHI
    kans = [event["actor"] for event in events if event["type"] in ("ankan", "kakan", "daiminkan")]
    if len(kans) == 4 and len(set(kans)) > 1:
        return FOUR_KANS
    discards = [event for event in events if event["type"] == "dahai"]
    calls = any(event["type"] in ("chi", "pon", "daiminkan", "ankan", "kakan", "kita") for event in events)
    if (
        seats == 4
        and len(discards) == 4
        and not calls
        and len({event["pai"] for event in discards}) == 1
        and kind_of_name(discards[0]["pai"]) in range(27, 31)
    ):
        return FOUR_WINDS
    if _nagashi(events, seats):
        return NAGASHI
    return EXHAUSTIVE


def _nagashi(events: list[Event], seats: int) -> bool:
    clean = [True] * seats
    discarded = [False] * seats
    last_discarder = None
    for event in events:
        kind = event["type"]
        if kind == "dahai":
            discarded[event["actor"]] = True
            last_discarder = event["actor"]
            if not is_terminal_or_honour(event["pai"]):
                clean[event["actor"]] = False
        elif kind in ("chi", "pon", "daiminkan") and last_discarder is not None:
            clean[last_discarder] = False
    return any(ok and went for ok, went in zip(clean, discarded, strict=True))
