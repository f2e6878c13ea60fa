"""tenhou.net/6 JSON (the format of Tenhou's viewer and of Mahjong Soul exporters) to and from mjai.

A hand is ``[[round, honba, sticks], scores, dora, ura, haipai0, draws0, discards0, ..., result]``:
tiles are codes (:mod:`app.core.table.records.tiles`); a draw list holds each tile taken, a call
as a string (``"c121314"`` chi 2m with 3m 4m, ``"p222222"`` / ``"22p2222"`` / ``"2222p22"`` pon
from the left / across / right, the letter's place saying which, ``m`` likewise for an open kan);
a discard list holds each tile let go (60: the tile just drawn), ``"r" + tile`` for a riichi
discard, the kans made from the hand (``"424242a42"`` ankan, ``"k..."`` added kan, the ``k`` where
the pon's letter was, the tile added after it), ``"f44"`` a north set aside (sanma), and 0 after an
open kan (the kan took the turn's discard).

What the format leaves out, and how the reader puts it back (so that mjai -> tenhou6 -> mjai gives
the same events):

* the order of the four players' actions: the reader replays the hand, every seat drawing in turn
  unless a call takes the discard; when a call could take this discard or a later identical one it
  tries this one first and goes back if the hand stops adding up (tiles a seat does not hold, lists
  not used up);
* ``tsumogiri`` beyond 60: a discard written as a tile is read as not tsumogiri, which is what the
  writer writes for it;
* where each ``dora`` event goes: only the indicators are listed, so they are placed as Tenhou and
  Mortal's arena place them (after an ankan at once; after an open or added kan just before that
  player's next discard, or before the next draw when another kan comes first);
* ``reach_accepted``: after the declaring discard, unless the hand ends on it with a win;
* ``hora.ura_markers``: the hand's ura indicators for a winner in riichi, else ``[]``;
* ``hora.pai`` is not written (mjai does not need it: it is the last tile drawn, discarded or
  added) and never read back; any field of an event that the mjai events of Mortal do not have is
  dropped.

>>> from app.core.families.registry import family_of
>>> events = read_tenhou6(write_tenhou6(_TINY, family_of("riichi")))
>>> events == _TINY
True
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from app.core.shape.tiles import quoted
from app.core.table.family import Family
from app.core.table.machine import HandResult
from app.core.table.records.common import (
    BAKAZE,
    EXHAUSTIVE,
    FOUR_KANS,
    FOUR_RIICHI,
    FOUR_WINDS,
    NAGASHI,
    NINE_TERMINALS,
    THREE_RONS,
    Event,
    Hand,
    MalformedLog,
    ReadStopped,
    check_name,
    draw_kind,
    load_json,
    round_index,
    split_game,
    unwritable,
)
from app.core.table.records.details import (
    hand_results,
    hand_value,
    honba_paid,
    liable_seat,
    points_text,
    win_score,
    yaku_list,
)
from app.core.table.records.tiles import TSUMOGIRI_CODE, kind_of_name, shows_red, tenhou6_code, tenhou6_name

WIN: Final = "和了"
#: tenhou.net/6's name of each of Tenhou's draws.
DRAW_NAMES: Final = {
    EXHAUSTIVE: "流局",
    NINE_TERMINALS: "九種九牌",
    FOUR_RIICHI: "四家立直",
    FOUR_KANS: "四槓散了",
    FOUR_WINDS: "四風連打",
    NAGASHI: "流し満貫",
    THREE_RONS: "三家和了",
}
_DRAWS_READ: Final = frozenset(DRAW_NAMES.values()) | {"全員聴牌", "全員不聴"}

#: Where a call's letter stands, by the seat it called from (0 left, 1 across, 2 right).
_PON_LETTER_AT: Final = (0, 1, 2)
_KAN_LETTER_AT: Final = (0, 1, 3)


def _direction(actor: int, target: int, seats: int) -> int:
    """0: the left (kamicha), 1: across (toimen), 2: the right (shimocha)."""
    step = (target - actor) % seats
    if seats == 3:
        return {2: 0, 1: 2}[step]
    return {3: 0, 2: 1, 1: 2}[step]


def _from_direction(actor: int, direction: int, seats: int) -> int:
    if seats == 3:
        step = {0: 2, 2: 1}.get(direction)
        if step is None:
            raise ValueError("no seat across the table in sanma")
    else:
        step = {0: 3, 1: 2, 2: 1}[direction]
    return (actor + step) % seats


def _codes(names: Sequence[str]) -> str:
    return "".join(str(tenhou6_code(name)) for name in names)


def call_string(event: Mapping[str, Any], seats: int, pon_direction: int | None = None) -> str:
    """The tenhou.net/6 string of a call (``pon_direction``: a kakan's pon, 0 left 1 across 2 right).

    >>> call_string({"type": "chi", "actor": 1, "target": 0, "pai": "2m", "consumed": ["3m", "4m"]}, 4)
    'c121314'
    >>> call_string({"type": "pon", "actor": 0, "target": 2, "pai": "P", "consumed": ["P", "P"]}, 4)
    '45p4545'
    >>> call_string({"type": "daiminkan", "actor": 0, "target": 1, "pai": "9s", "consumed": ["9s"] * 3}, 4)
    '393939m39'
    >>> call_string({"type": "kakan", "actor": 0, "pai": "5mr", "consumed": ["5m"] * 3}, 4, pon_direction=2)
    '1515k5115'
    >>> call_string({"type": "ankan", "actor": 3, "consumed": ["5pr", "5p", "5p", "5p"]}, 4)
    '522525a25'
    """
    kind = event["type"]
    pai = str(tenhou6_code(event["pai"])) if "pai" in event else ""
    consumed = [str(tenhou6_code(name)) for name in event.get("consumed", [])]
    if kind == "chi":
        return "c" + pai + "".join(consumed)
    if kind == "ankan":
        return "".join(consumed[:3]) + "a" + consumed[3]
    if kind == "kita":
        return "f" + pai
    if kind == "kakan":
        assert pon_direction is not None
        at = _PON_LETTER_AT[pon_direction]
        return "".join(consumed[:at]) + "k" + pai + "".join(consumed[at:])
    direction = _direction(event["actor"], event["target"], seats)
    at = (_PON_LETTER_AT if kind == "pon" else _KAN_LETTER_AT)[direction]
    letter = "p" if kind == "pon" else "m"
    return "".join(consumed[:at]) + letter + pai + "".join(consumed[at:])


# -- writing ---------------------------------------------------------------------------------


def write_tenhou6(events: Sequence[Mapping[str, Any]], family: Family) -> str:
    """The tenhou.net/6 JSON of an mjai game (one line, UTF-8 names kept), scored by ``family``'s table."""
    try:
        return _write_tenhou6(events, family)
    except (KeyError, TypeError, IndexError, AttributeError) as error:
        raise MalformedLog(f"an event tenhou.net/6 cannot carry: {unwritable(error)}", field="events") from None


def _write_tenhou6(events: Sequence[Mapping[str, Any]], family: Family) -> str:
    game = split_game(events)
    scored = hand_results(events, game.seats, family)
    results: list[HandResult | None] = [None] * len(game.hands)
    if scored is not None and len(scored) == len(game.hands):
        results = list(scored)
    log = [_write_hand(hand, game.seats, result) for hand, result in zip(game.hands, results, strict=True)]
    names = game.names + [""] * (4 - game.seats)
    red = any(shows_red(hand.start, hand.events) for hand in game.hands) or not game.hands
    disp = ("三" if game.seats == 3 else "") + "般南喰" + ("赤" if red else "")
    rule = {"disp": disp, "aka": int(red), "aka51": int(red), "aka52": int(red), "aka53": int(red)}
    return json.dumps({"title": ["", ""], "name": names, "rule": rule, "log": log}, ensure_ascii=False)


def _pad(values: Sequence[int], seats: int) -> list[int]:
    return list(values) + [0] * (4 - seats)


def _write_hand(hand: Hand, seats: int, result: HandResult | None) -> list[Any]:
    start = hand.start
    draws: list[list[Any]] = [[] for _ in range(4)]
    discards: list[list[Any]] = [[] for _ in range(4)]
    dora = [tenhou6_code(start["dora_marker"])]
    ura: list[int] = []
    pons: dict[tuple[int, int], int] = {}
    riichi_pending: set[int] = set()
    accepted = 0  # riichi sticks put down in this hand
    results: list[Any] = []
    for offset, event in enumerate(hand.events):
        kind = event["type"]
        actor: int = event.get("actor", -1)
        where = f"events[{hand.first + 1 + offset}]"
        try:
            if kind == "tsumo":
                draws[actor].append(tenhou6_code(event["pai"]))
            elif kind in ("chi", "pon", "daiminkan"):
                draws[actor].append(call_string(event, seats))
                if kind == "pon":
                    pons[(actor, kind_of_name(event["pai"]))] = _direction(actor, event["target"], seats)
                if kind == "daiminkan":
                    discards[actor].append(0)
            elif kind == "dahai":
                code: int | str = TSUMOGIRI_CODE if event.get("tsumogiri") else tenhou6_code(event["pai"])
                if actor in riichi_pending:
                    riichi_pending.discard(actor)
                    code = f"r{code}"
                discards[actor].append(code)
            elif kind == "reach":
                riichi_pending.add(actor)
            elif kind == "reach_accepted":
                accepted += 1
            elif kind == "kakan":
                key = (actor, kind_of_name(event["pai"]))
                if key not in pons:
                    raise MalformedLog("an added kan with no pon of its tile before it", field=where)
                discards[actor].append(call_string(event, seats, pons[key]))
            elif kind in ("ankan", "kita"):
                discards[actor].append(call_string(event, seats))
            elif kind == "dora":
                dora.append(tenhou6_code(event["dora_marker"]))
            elif kind == "hora":
                markers = [tenhou6_code(name) for name in event.get("ura_markers") or []]
                if markers and ura and markers != ura:
                    raise MalformedLog("two wins of one hand show different ura indicators", field=where)
                ura = markers or ura
                if not results:
                    results.append(WIN)
                results.append(_pad(event["deltas"], seats))
                first = len(results) == 2
                sticks = 1000 * (int(start["kyotaku"]) + accepted) if first else 0
                results.append(_win_detail(event, start, seats, result, first=first, sticks=sticks))
            elif kind == "ryukyoku":
                deltas = _pad(event.get("deltas") or [0] * seats, seats)
                results = [DRAW_NAMES[draw_kind(hand, seats)]]
                if any(deltas) or draw_kind(hand, seats) in (EXHAUSTIVE, NAGASHI):
                    results.append(deltas)
        except (KeyError, TypeError) as error:
            raise MalformedLog(f"{kind} cannot be written to tenhou.net/6: {unwritable(error)}", field=where) from None
    meta = [round_index(start), start["honba"], start["kyotaku"]]
    out: list[Any] = [meta, _pad(start["scores"], seats), dora, ura]
    for seat in range(4):
        haipai = [tenhou6_code(name) for name in start["tehais"][seat]] if seat < seats else []
        out += [haipai, draws[seat], discards[seat]]
    out.append(results)
    return out


def _win_detail(
    event: Mapping[str, Any],
    start: Mapping[str, Any],
    seats: int,
    result: HandResult | None,
    *,
    first: bool,
    sticks: int,
) -> list[Any]:
    """``[winner, from, liable, points, yaku...]``: the table's score where it can follow the log
    (``sticks``: the riichi sticks this win collects)."""
    actor, target = event["actor"], event.get("target", event["actor"])
    score = win_score(result, actor)
    liable = liable_seat(result, actor)
    detail: list[Any] = [actor, target, actor if liable is None else liable]
    ron = target != actor
    honba_points = honba_paid(int(start["honba"]), seats, ron=ron, first=first)
    if score is None:
        return [*detail, _points_text(event, start, seats, honba_points, sticks)]
    value = hand_value(score, honba_points)
    text = points_text(score, value, dealer=actor == start["oya"], ron=ron, honba_points=honba_points)
    seat_wind = (actor - int(start["oya"])) % seats
    yaku = sorted(yaku_list(score, seat_wind=seat_wind, round_wind=BAKAZE.index(start["bakaze"])))
    return [*detail, text, *(line for _, han, line in yaku if han > 0)]


def _points_text(event: Mapping[str, Any], start: Mapping[str, Any], seats: int, honba_points: int, sticks: int) -> str:
    """What the viewer shows for a win the table did not score: the points paid, honba and sticks
    left out (not read back).  A ron's worth is the winner's gain (the discarder's loss holds every
    winner's of a double ron); a self-draw's, each payer's share.

    >>> start, deltas = {"honba": 1, "oya": 0}, [0, -11900, 8000, 3900]  # a double ron on seat 1
    >>> [_points_text({"actor": winner, "target": 1, "deltas": deltas}, start, 4, honba, 0)
    ...  for winner, honba in ((2, 300), (3, 0))]
    ['7700点', '3900点']
    """
    actor, target, deltas = event["actor"], event.get("target", event["actor"]), event["deltas"]
    if target != actor:
        return f"{deltas[actor] - honba_points - sticks}点"
    share = honba_points // (seats - 1)
    payers = [-deltas[seat] - share for seat in range(seats) if seat != actor]
    if actor == start["oya"]:
        return f"{max(payers)}点∀"
    return f"{min(payers)}-{max(payers)}点"


# -- reading ---------------------------------------------------------------------------------


def read_tenhou6(text: str | Mapping[str, Any], *, stop: Callable[[], bool] | None = None) -> list[Event]:
    """The mjai events of a tenhou.net/6 log (text or the parsed object).

    Raises :class:`MalformedLog` for a log the format does not allow (a hand whose order of moves is
    not found within :data:`_Replay.MAX_STEPS` among them), and
    :class:`~app.core.table.records.common.ReadStopped` when ``stop`` (looked at as the search for a
    hand's order goes) says so.
    """
    data = load_json(text, "log") if isinstance(text, str) else text
    if not isinstance(data, Mapping) or not isinstance(data.get("log"), list):
        raise MalformedLog("a tenhou.net/6 log is an object with a 'log' list of hands", field="log")
    hands = data["log"]
    seats = _seats_of(data)
    raw_names = data.get("name")
    names = (
        [check_name(name, f"name[{seat}]") for seat, name in enumerate(raw_names[:seats])]
        if isinstance(raw_names, list) and len(raw_names) >= seats
        else [str(seat) for seat in range(seats)]
    )
    events: list[Event] = [{"type": "start_game", "names": names}]
    for number, hand in enumerate(hands):
        events += _read_hand(hand, seats, f"log[{number}]", stop)
    events.append({"type": "end_game"})
    return events


def _seats_of(data: Mapping[str, Any]) -> int:
    rule = data.get("rule")
    disp = str(rule.get("disp", "")) if isinstance(rule, Mapping) else ""
    if "三" in disp:
        return 3
    for hand in data["log"]:
        if isinstance(hand, list) and len(hand) > 13 and hand[13] == []:
            return 3
    return 4


@dataclass(slots=True)
class _Item:
    """One entry of a draw or discard list, read."""

    kind: str  # tsumo, chi, pon, daiminkan, dahai, riichi, ankan, kakan, kita, kan_slot
    pai: str | None = None
    consumed: list[str] = field(default_factory=list)
    target: int | None = None
    tsumogiri: bool = False
    where: str = ""


class _DeadEnd(Exception):
    """This reading of the hand's order does not add up."""


def _tile(code: object, where: str) -> str:
    name = tenhou6_name(code) if type(code) is int else None
    if name is None:
        raise MalformedLog(f"not a tenhou.net/6 tile code: {quoted(code)}", field=where)
    return name


def _digits(text: str) -> bool:
    """Whether ``text`` is ASCII digits only (``str.isdigit`` takes ``²`` and ``٣``, which ``int`` refuses or reads)."""
    return text.isascii() and text.isdigit()


def _split_codes(text: str, where: str) -> list[str]:
    if len(text) % 2 or not _digits(text):
        raise MalformedLog(f"not a call string: tiles are two digits each, got {quoted(text)}", field=where)
    return [_tile(int(text[at : at + 2]), where) for at in range(0, len(text), 2)]


def call_event(text: str, actor: int, seats: int = 4) -> Event:
    """The mjai event of a tenhou.net/6 call string made by ``actor`` (the inverse of :func:`call_string`).

    >>> call_event("12p1212", 0)
    {'type': 'pon', 'actor': 0, 'target': 2, 'pai': '2m', 'consumed': ['2m', '2m']}
    >>> call_event("4646k4646", 1)
    {'type': 'kakan', 'actor': 1, 'pai': 'F', 'consumed': ['F', 'F', 'F']}
    """
    item = _read_call(text, actor, seats, "call")
    event: Event = {"type": item.kind, "actor": actor}
    if item.target is not None:
        event["target"] = item.target
    if item.pai is not None:
        event["pai"] = item.pai
    if item.consumed:
        event["consumed"] = item.consumed
    return event


def _read_call(text: str, actor: int, seats: int, where: str) -> _Item:
    for letter in "cpmkaf":
        at = text.find(letter)
        if at >= 0:
            break
    else:
        raise MalformedLog(f"not a call string: no letter c p m k a f in {quoted(text)}", field=where)
    if at % 2:
        raise MalformedLog(
            f"not a call string: the letter stands between a tile's digits in {quoted(text)}", field=where
        )
    tiles = _split_codes(text[:at] + text[at + 1 :], where)
    sizes = {"c": 3, "p": 3, "m": 4, "k": 4, "a": 4, "f": 1}
    if len(tiles) != sizes[letter]:
        raise MalformedLog(
            f"a {letter} call holds {sizes[letter]} tiles, not {len(tiles)}: {quoted(text)}", field=where
        )
    place = at // 2
    if letter == "f":
        return _Item("kita", tiles[0], where=where)
    if letter == "a":
        if place != 3:
            raise MalformedLog(f"an ankan's a stands before its last tile: {quoted(text)}", field=where)
        return _Item("ankan", consumed=tiles, where=where)
    if letter == "c":
        if place != 0:
            raise MalformedLog(f"a chi's c comes first: {quoted(text)}", field=where)
        return _Item("chi", tiles[0], tiles[1:], _from_direction(actor, 0, seats), where=where)
    pai = tiles.pop(place)
    if letter == "k":
        if place not in _PON_LETTER_AT:
            raise MalformedLog(f"misplaced k in {quoted(text)}", field=where)
        return _Item("kakan", pai, tiles, where=where)
    table = _PON_LETTER_AT if letter == "p" else _KAN_LETTER_AT
    if place not in table:
        raise MalformedLog(f"misplaced {letter} in {quoted(text)}", field=where)
    try:
        target = _from_direction(actor, table.index(place), seats)
    except ValueError:
        raise MalformedLog(f"a call from across the table in sanma: {quoted(text)}", field=where) from None
    return _Item("pon" if letter == "p" else "daiminkan", pai, tiles, target, where=where)


def _read_draws(items: object, actor: int, seats: int, where: str) -> list[_Item]:
    if not isinstance(items, list):
        raise MalformedLog("a draw list is a list", field=where)
    out = []
    for number, item in enumerate(items):
        at = f"{where}[{number}]"
        if isinstance(item, str):
            call = _read_call(item, actor, seats, at)
            if call.kind not in ("chi", "pon", "daiminkan"):
                raise MalformedLog(f"a draw list holds tiles, chi, pon and open kans, not {quoted(item)}", field=at)
            out.append(call)
        else:
            out.append(_Item("tsumo", _tile(item, at), where=at))
    return out


def _read_discards(items: object, actor: int, seats: int, where: str) -> list[_Item]:
    if not isinstance(items, list):
        raise MalformedLog("a discard list is a list", field=where)
    out = []
    for number, item in enumerate(items):
        at = f"{where}[{number}]"
        if item == 0:
            out.append(_Item("kan_slot", where=at))
        elif item == TSUMOGIRI_CODE:
            out.append(_Item("dahai", tsumogiri=True, where=at))
        elif isinstance(item, str) and item.startswith("r"):
            body = item[1:]
            if body == str(TSUMOGIRI_CODE):
                out.append(_Item("riichi", tsumogiri=True, where=at))
            elif _digits(body):
                out.append(_Item("riichi", _tile(int(body), at), where=at))
            else:
                raise MalformedLog(f"not a riichi discard: {quoted(item)}", field=at)
        elif isinstance(item, str):
            call = _read_call(item, actor, seats, at)
            if call.kind not in ("ankan", "kakan", "kita"):
                raise MalformedLog(
                    f"a discard list holds tiles, riichi, ankan, kakan and kita, not {quoted(item)}", field=at
                )
            out.append(call)
        else:
            out.append(_Item("dahai", _tile(item, at), where=at))
    return out


_CALL_RANK: Final = {"daiminkan": 2, "pon": 2, "chi": 1}


def _read_hand(hand: object, seats: int, where: str, stop: Callable[[], bool] | None = None) -> list[Event]:
    if not isinstance(hand, list) or len(hand) != 17:
        raise MalformedLog(
            "a hand is a list of 17: meta, scores, dora, ura, 4 x (haipai, draws, discards), result", field=where
        )
    meta, scores, dora, ura = hand[0], hand[1], hand[2], hand[3]
    if not (isinstance(meta, list) and len(meta) == 3 and all(type(v) is int and v >= 0 for v in meta)):
        raise MalformedLog("[round, honba, sticks] of non-negative integers", field=f"{where}[0]")
    if not (isinstance(scores, list) and len(scores) >= seats and all(type(v) is int for v in scores)):
        raise MalformedLog(f"{seats} scores", field=f"{where}[1]")
    if not isinstance(dora, list) or not dora or not isinstance(ura, list):
        raise MalformedLog("dora and ura are lists of tiles, with at least one dora", field=f"{where}[2]")
    dora_names = [_tile(code, f"{where}[2][{i}]") for i, code in enumerate(dora)]
    ura_names = [_tile(code, f"{where}[3][{i}]") for i, code in enumerate(ura)]
    haipai = []
    draws = []
    discards = []
    for seat in range(seats):
        tiles = hand[4 + 3 * seat]
        if not isinstance(tiles, list) or len(tiles) != 13:
            raise MalformedLog("a dealt hand is 13 tiles", field=f"{where}[{4 + 3 * seat}]")
        haipai.append([_tile(code, f"{where}[{4 + 3 * seat}][{i}]") for i, code in enumerate(tiles)])
        draws.append(_read_draws(hand[5 + 3 * seat], seat, seats, f"{where}[{5 + 3 * seat}]"))
        discards.append(_read_discards(hand[6 + 3 * seat], seat, seats, f"{where}[{6 + 3 * seat}]"))
    round_number, honba, sticks = meta
    if round_number >= 16:
        raise MalformedLog(f"round {round_number} is past North 4", field=f"{where}[0][0]")
    start: Event = {
        "type": "start_kyoku",
        "bakaze": BAKAZE[round_number // 4],
        "dora_marker": dora_names[0],
        "kyoku": round_number % 4 + 1,
        "honba": honba,
        "kyotaku": sticks,
        "oya": round_number % 4,
        "scores": list(scores[:seats]),
        "tehais": haipai,
    }
    result = hand[16]
    replay = _Replay(start, seats, draws, discards, dora_names[1:], ura_names, result, where, stop)
    return [start, *replay.solve(), {"type": "end_kyoku"}]


class _Replay:
    """Puts one hand's per-seat lists back into one order of events, going back where it guessed wrong.

    The first reading is the greedy one: a seat whose next draw calls the discard just made calls
    it now.  Where that dies, the last such call is put off to a later identical discard, and so on
    back, every reading replaying the hand from its start.  Each call that could wait may double the
    readings, so the search is bounded by its work, :data:`MAX_STEPS`, and heeds the caller's ``stop``.
    """

    #: The most replay steps one hand's search may take over all its readings (a step: one seat's turn,
    #: its draw or call and then its discard, kan or north; each reading counts one more).  Each of the
    #: 555 hands of the shared Tenhou games is read in one reading of at most 77 steps, and the 23 of
    #: mjai-reviewer's convlog tests (calls that need going back) in at most 4 readings and 144 steps:
    #: this is over a hundred times that.  A hand past it has cost about 0.07 s of CPU (3.5 µs a step).
    MAX_STEPS: Final = 20_000
    #: Steps between two looks at the caller's stop signal (besides one at each reading's start).
    STOP_CHECK_EVERY: Final = 256

    def __init__(
        self,
        start: Event,
        seats: int,
        draws: list[list[_Item]],
        discards: list[list[_Item]],
        kan_dora: list[str],
        ura: list[str],
        result: object,
        where: str,
        stop: Callable[[], bool] | None = None,
    ) -> None:
        self.start = start
        self.seats = seats
        self.draws = draws
        self.discards = discards
        self.kan_dora = kan_dora
        self.ura = ura
        self.result = result
        self.where = where
        self.stop = stop
        #: Readings tried and steps taken so far (the work :data:`MAX_STEPS` bounds).
        self.readings = 0
        self.steps = 0
        self.first_error: str | None = None

    def solve(self) -> list[Event]:
        forced: list[bool] = []
        while True:
            self.readings += 1
            self._step(look=True)
            taken: list[bool] = []
            try:
                return self._attempt(forced, taken)
            except _DeadEnd as dead:
                self.first_error = self.first_error or str(dead)
            # Flip the last "call now" that has not been tried the other way.
            while taken and not taken[-1]:
                taken.pop()
            if not taken:
                raise MalformedLog(f"the players' lists do not make one hand: {self.first_error}", field=self.where)
            forced = taken[:-1] + [False]

    def _step(self, *, look: bool = False) -> None:
        """Count one step of the search; give up past :data:`MAX_STEPS`; stop when told to (asked every
        :data:`STOP_CHECK_EVERY` steps, and at once with ``look``)."""
        self.steps += 1
        if self.steps > self.MAX_STEPS:
            first = (
                f"the first reading ended: {self.first_error}" if self.first_error else "the first reading is longer"
            )
            raise MalformedLog(
                f"no order of the players' moves was found within {self.MAX_STEPS} steps of replay (the bound "
                f"of the search; a real hand needs a few hundred at most); {first}",
                field=self.where,
            )
        if self.stop is not None and (look or self.steps % self.STOP_CHECK_EVERY == 0) and self.stop():
            raise ReadStopped

    def _attempt(self, forced: list[bool], taken: list[bool]) -> list[Event]:
        seats = self.seats
        events: list[Event] = []
        hands = [Counter(tiles) for tiles in self.start["tehais"]]
        draw_at = [0] * seats
        discard_at = [0] * seats
        dora_feed = iter(self.kan_dora)
        riichi: set[int] = set()
        pending_reach: int | None = None
        dora_at_discard = 0
        dora_at_draw = 0
        last_drawn: str | None = None
        last_discard: tuple[int, str] | None = None
        actor = int(self.start["oya"])
        pons: dict[tuple[int, str], bool] = {}

        def dora() -> None:
            marker = next(dora_feed, None)
            if marker is None:
                raise _DeadEnd("more kans than kan dora indicators")
            events.append({"type": "dora", "dora_marker": marker})

        def take_out(seat: int, tiles: Sequence[str], item: _Item) -> None:
            for tile in tiles:
                if hands[seat][tile] <= 0:
                    raise _DeadEnd(f"{item.where}: seat {seat} does not hold {tile}")
                hands[seat][tile] -= 1

        def finish() -> list[Event]:
            if any(draw_at[s] < len(self.draws[s]) or discard_at[s] < len(self.discards[s]) for s in range(seats)):
                raise _DeadEnd("the hand ended with draws or discards left over")
            return events + self._results(pending_reach, riichi)

        while True:
            self._step()
            # A draw, or the call that took the last discard.
            if draw_at[actor] >= len(self.draws[actor]):
                raise _DeadEnd(f"seat {actor} has no draw left")
            take = self.draws[actor][draw_at[actor]]
            draw_at[actor] += 1
            if take.kind != "tsumo":
                if last_discard != (take.target, take.pai):
                    raise _DeadEnd(f"{take.where}: the call does not take the last discard")
            if pending_reach is not None:
                events.append({"type": "reach_accepted", "actor": pending_reach})
                riichi.add(pending_reach)
                pending_reach = None
            if take.kind == "tsumo":
                if dora_at_draw:
                    for _ in range(dora_at_draw):
                        dora()
                    dora_at_draw = 0
                assert take.pai is not None
                hands[actor][take.pai] += 1
                last_drawn = take.pai
                events.append({"type": "tsumo", "actor": actor, "pai": take.pai})
            else:
                take_out(actor, take.consumed, take)
                last_drawn = None
                if take.kind == "daiminkan" and dora_at_discard:
                    for _ in range(dora_at_discard):
                        dora()
                    dora_at_discard = 0
                events.append(
                    {
                        "type": take.kind,
                        "actor": actor,
                        "target": take.target,
                        "pai": take.pai,
                        "consumed": take.consumed,
                    }
                )
                if take.kind == "pon":
                    assert take.pai is not None
                    pons[(actor, take.pai.rstrip("r"))] = True
                if take.kind == "daiminkan":
                    if (
                        discard_at[actor] >= len(self.discards[actor])
                        or self.discards[actor][discard_at[actor]].kind != "kan_slot"
                    ):
                        raise _DeadEnd(f"{take.where}: an open kan's discard slot is not 0")
                    discard_at[actor] += 1
                    dora_at_discard += 1
                    continue
            # The seat's own move: a discard, or a kan or north from the hand.
            if discard_at[actor] >= len(self.discards[actor]):
                if take.kind == "tsumo":
                    return finish()
                raise _DeadEnd(f"seat {actor} called and has no discard")
            move = self.discards[actor][discard_at[actor]]
            discard_at[actor] += 1
            if move.kind in ("ankan", "kakan", "kita"):
                tiles = move.consumed if move.kind == "ankan" else [move.pai or ""]
                take_out(actor, tiles, move)
                last_drawn = None
                if move.kind == "kita":
                    events.append({"type": "kita", "actor": actor, "pai": move.pai})
                    continue
                if move.kind == "kakan":
                    assert move.pai is not None
                    if not pons.pop((actor, move.pai.rstrip("r")), False):
                        raise _DeadEnd(f"{move.where}: an added kan with no pon")
                    events.append({"type": "kakan", "actor": actor, "pai": move.pai, "consumed": move.consumed})
                    dora_at_draw += dora_at_discard
                    dora_at_discard = 1
                    if all(draw_at[s] >= len(self.draws[s]) for s in range(seats)):
                        return finish()  # robbed
                    continue
                events.append({"type": "ankan", "actor": actor, "consumed": move.consumed})
                for _ in range(dora_at_discard + 1):
                    dora()
                dora_at_discard = 0
                continue
            if move.kind == "kan_slot":
                raise _DeadEnd(f"{move.where}: 0 where no open kan was made")
            if move.kind == "riichi":
                events.append({"type": "reach", "actor": actor})
            if move.tsumogiri:
                if last_drawn is None:
                    raise _DeadEnd(f"{move.where}: 60 (the tile drawn) right after a call")
                pai = last_drawn
            else:
                assert move.pai is not None
                pai = move.pai
            take_out(actor, [pai], move)
            for _ in range(dora_at_discard):
                dora()
            dora_at_discard = 0
            events.append({"type": "dahai", "actor": actor, "pai": pai, "tsumogiri": move.tsumogiri})
            if move.kind == "riichi":
                pending_reach = actor
            last_discard = (actor, pai)
            last_drawn = None
            if all(draw_at[s] >= len(self.draws[s]) for s in range(seats)):
                return finish()
            # Who moves next: a seat whose next draw calls this tile, or the next seat.
            callers = []
            for seat in range(seats):
                if seat == actor or draw_at[seat] >= len(self.draws[seat]):
                    continue
                following = self.draws[seat][draw_at[seat]]
                if following.kind != "tsumo" and following.target == actor and following.pai == pai:
                    callers.append((_CALL_RANK[following.kind], seat))
            # The next seat calling is no choice: passing the tile on gives the turn to the same call.
            caller = max(callers)[1] if callers else None
            if caller is not None and caller != (actor + 1) % seats:
                index = len(taken)
                call_now = forced[index] if index < len(forced) else True
                taken.append(call_now)
                if call_now:
                    actor = caller
                    continue
            actor = (actor + 1) % seats

    def _results(self, pending_reach: int | None, riichi: set[int]) -> list[Event]:
        result = self.result
        where = f"{self.where}[16]"
        if not isinstance(result, list) or not result or not isinstance(result[0], str):
            raise MalformedLog("the result is a list led by its name (和了, 流局, ...)", field=where)
        seats = self.seats
        if result[0] == WIN:
            rest = result[1:]
            if not rest or len(rest) % 2:
                raise MalformedLog("和了 is followed by deltas and details, a pair per win", field=where)
            out: list[Event] = []
            for pair in range(0, len(rest), 2):
                deltas, detail = rest[pair], rest[pair + 1]
                if not (isinstance(deltas, list) and len(deltas) >= seats and all(type(v) is int for v in deltas)):
                    raise MalformedLog("a win's deltas are integers", field=f"{where}[{pair + 1}]")
                if not (isinstance(detail, list) and len(detail) >= 2 and all(type(v) is int for v in detail[:2])):
                    raise MalformedLog("a win's detail starts with winner and from", field=f"{where}[{pair + 2}]")
                winner, source = detail[0], detail[1]
                if not (0 <= winner < seats and 0 <= source < seats):
                    raise MalformedLog(f"winner {winner} or from {source} is no seat", field=f"{where}[{pair + 2}]")
                out.append(
                    {
                        "type": "hora",
                        "actor": winner,
                        "target": source,
                        "deltas": list(deltas[:seats]),
                        "ura_markers": list(self.ura) if winner in riichi else [],
                    }
                )
            return out
        if result[0] not in _DRAWS_READ:
            raise MalformedLog(f"unknown result {quoted(result[0])}", field=where)
        deltas = result[1] if len(result) > 1 else [0] * seats
        if not (isinstance(deltas, list) and len(deltas) >= seats and all(type(v) is int for v in deltas)):
            raise MalformedLog("a draw's deltas are integers", field=f"{where}[1]")
        accepted: list[Event] = [] if pending_reach is None else [{"type": "reach_accepted", "actor": pending_reach}]
        return [*accepted, {"type": "ryukyoku", "deltas": list(deltas[:seats])}]


_TINY: Final[list[Event]] = [
    {"type": "start_game", "names": ["a", "b", "c", "d"]},
    {
        "type": "start_kyoku",
        "bakaze": "E",
        "dora_marker": "1m",
        "kyoku": 1,
        "honba": 0,
        "kyotaku": 0,
        "oya": 0,
        "scores": [25000] * 4,
        "tehais": [
            ["1m", "1m", "2m", "3m", "4m", "5mr", "6m", "7m", "8m", "9m", "E", "E", "S"],
            ["2p"] * 3 + ["3p"] * 3 + ["4p"] * 3 + ["5p"] * 3 + ["W"],
            ["1s"] * 3 + ["2s"] * 3 + ["3s"] * 3 + ["4s"] * 3 + ["N"],
            ["7p"] * 3 + ["8p"] * 3 + ["9p"] * 3 + ["7s"] * 3 + ["P"],
        ],
    },
    {"type": "tsumo", "actor": 0, "pai": "S"},
    {"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": True},
    {"type": "tsumo", "actor": 1, "pai": "F"},
    {"type": "dahai", "actor": 1, "pai": "W", "tsumogiri": False},
    {"type": "tsumo", "actor": 2, "pai": "C"},
    {"type": "dahai", "actor": 2, "pai": "C", "tsumogiri": True},
    {"type": "tsumo", "actor": 3, "pai": "E"},
    {"type": "dahai", "actor": 3, "pai": "E", "tsumogiri": True},
    {"type": "pon", "actor": 0, "target": 3, "pai": "E", "consumed": ["E", "E"]},
    {"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": False},
    {"type": "ryukyoku", "deltas": [0, 0, 0, 0]},
    {"type": "end_kyoku"},
    {"type": "end_game"},
]
