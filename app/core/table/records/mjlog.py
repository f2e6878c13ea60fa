"""Tenhou's mjlog XML (its replay format) to and from mjai events.

A game is a run of tags: ``GO type`` (the lobby's rule bits), ``UN`` (the names, URL-encoded),
``INIT`` (``seed="round,honba,sticks,dice,dice,dora"``, ``ten`` the scores in hundreds, ``oya``,
``hai0``-``hai3`` the dealt 136-ids), a draw ``T``/``U``/``V``/``W`` + id and a discard
``D``/``E``/``F``/``G`` + id for seats 0-3, ``N who m`` a call (its bit fields: :func:`meld_code`,
:func:`read_meld`), ``REACH who step`` (1 declared, 2 the stick down), ``DORA hai``, ``AGARI``
(``who``, ``fromWho``, ``sc`` each seat's score and change in hundreds, ``doraHaiUra``, ...) and
``RYUUKYOKU`` (``type``: yao9, reach4, kan4, kaze4, nm; none for an exhaustive draw).

Every tile has its 136-id, so tsumogiri (the discard is the id just drawn) and the place of every
``dora`` are written down.  The writer gives each mjai tile an id of its kind (a red five its red
id) that no other tile of the hand has, so the reader gets back the same events; it lists
``consumed`` in id order (a red five first), as Mortal's logs do.

What the writer cannot know from mjai events and fills in for the viewer only (the reader does not
use it): the wall's seed, the dice, the lobby (the GO type says red fives or not, sanma, hanchan),
the players' ranks and ratings, a win's fu, han and yaku (``ten`` gives the points from the deltas),
the tenpai hands shown at an exhaustive draw (those who received noten payments) and the final
``owari`` (uma +20/+10/-10/-20 on a 30,000 return, sanma +15/0/-15 on 40,000).

>>> read_meld(0b0011110100110111)  # the sample of Tenhou's own notes: chi 6m 7m 8m from the left, 6m taken
('chi', 3, [22, 25, 30], 22)
>>> meld_code("chi", [22, 25, 30], called=22, source=3)
15671
>>> meld_code("pon", [117, 118, 119], called=117, source=3)  # pon of west from the left
44555
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final
from urllib.parse import quote, unquote
from xml.parsers import expat

from app.core.errors import TenpaiError
from app.core.shape.tiles import clipped, quoted
from app.core.table.family import Family
from app.core.table.flow import placements
from app.core.table.machine import HandResult
from app.core.table.records.common import (
    BAKAZE,
    EXHAUSTIVE,
    NAGASHI,
    NINE_TERMINALS,
    Event,
    Hand,
    MalformedLog,
    check_name,
    check_text,
    draw_kind,
    round_index,
    split_game,
    unwritable,
)
from app.core.table.records.details import (
    LIMITS,
    hand_results,
    hand_value,
    honba_paid,
    liable_seat,
    win_score,
    yaku_list,
)
from app.core.table.records.tiles import KIND_NAMES, RED_IDS, kind_of_name, name_of_id, shows_red

#: GO type bits the reader and writer use (the others name the room and the speed).
GO_VERSUS_PEOPLE: Final = 0x01
GO_NO_RED: Final = 0x02
GO_HANCHAN: Final = 0x08
GO_SANMA: Final = 0x10

_DRAW_TAGS: Final = "TUVW"
_DISCARD_TAGS: Final = "DEFG"
_MOVE: Final = re.compile(r"([TUVWDEFG])([0-9]+)")

_CHI: Final = 0x04
_PON: Final = 0x08
_KAKAN: Final = 0x10
_KITA: Final = 0x20


def meld_code(
    kind: str, ids: Sequence[int], *, called: int | None = None, source: int = 0, added: int | None = None
) -> int:
    """The ``m`` of an ``N`` tag: ``ids`` the meld's tiles (a kakan: the pon's three), ``called``
    the id taken from seat ``source`` steps to the right (1 right, 2 across, 3 left), ``added`` a
    kakan's fourth tile.

    >>> meld_code("ankan", [108, 109, 110, 111]), meld_code("kita", [122])
    (27648, 31264)
    """
    ordered = sorted(ids)
    if kind == "chi":
        assert called is not None
        first = ordered[0] // 4
        base = ((first // 9) * 7 + first % 9) * 3 + ordered.index(called)
        offsets = [tile % 4 for tile in ordered]
        return base << 10 | offsets[2] << 7 | offsets[1] << 5 | offsets[0] << 3 | _CHI | source
    if kind in ("pon", "kakan"):
        assert called is not None
        kind_number = ordered[0] // 4
        every = set(range(kind_number * 4, kind_number * 4 + 4))
        if kind == "kakan":
            assert added is not None
            unused = added % 4
        else:
            (left_out,) = every - set(ordered)
            unused = left_out % 4
        base = kind_number * 3 + ordered.index(called)
        return base << 9 | unused << 5 | (_KAKAN if kind == "kakan" else _PON) | source
    if kind == "daiminkan":
        assert called is not None
        return called << 8 | source
    if kind == "ankan":
        return ordered[0] << 8
    if kind == "kita":
        return ordered[0] << 8 | _KITA
    raise ValueError(f"no meld code for {kind}")


def read_meld(code: int) -> tuple[str, int, list[int], int | None]:
    """(kind, source, ids in order, the called or added id) of an ``N`` tag's ``m``.

    A kakan's ids are its four; its last value is the id added.
    """
    source = code & 3
    if code & _CHI:
        base = code >> 10
        called, run = base % 3, base // 3
        first = (run // 7) * 9 + run % 7
        ids = [(first + step) * 4 + ((code >> (3 + 2 * step)) & 3) for step in range(3)]
        return "chi", source, ids, ids[called]
    if code & (_PON | _KAKAN):
        base = code >> 9
        called, kind_number = base % 3, base // 3
        unused = (code >> 5) & 3
        ids = [kind_number * 4 + offset for offset in range(4) if offset != unused]
        if code & _KAKAN:
            return "kakan", source, sorted([*ids, kind_number * 4 + unused]), kind_number * 4 + unused
        return "pon", source, ids, ids[called]
    if code & _KITA:
        return "kita", 0, [code >> 8], code >> 8
    tile = code >> 8
    ids = [(tile // 4) * 4 + offset for offset in range(4)]
    return ("ankan" if source == 0 else "daiminkan"), source, ids, tile


# -- writing ---------------------------------------------------------------------------------


def _attrs(**values: object) -> str:
    return "".join(f' {key}="{value}"' for key, value in values.items())


def _ids(values: Sequence[int]) -> str:
    return ",".join(str(value) for value in values)


def _hundreds(values: Sequence[int], seats: int) -> str:
    return ",".join(str(value // 100) for value in list(values) + [0] * (4 - seats))


class _Writer:
    def __init__(self, events: Sequence[Mapping[str, Any]], family: Family) -> None:
        self.family = family
        self.game = split_game(events)
        self.events = events
        self.seats = self.game.seats
        # A game with no red five in sight is written as a lobby without them, so that all four
        # copies of a five can have ids (16, 52 and 88 are red where the lobby has red fives).
        self.red = any(shows_red(hand.start, hand.events) for hand in self.game.hands)
        self.tags: list[str] = []

    def write(self) -> str:
        seats = self.seats
        go = GO_VERSUS_PEOPLE | GO_HANCHAN | (GO_SANMA if seats == 3 else 0) | (0 if self.red else GO_NO_RED)
        names = self.game.names + [""] * (4 - seats)
        tags = ['<mjloggm ver="2.3">', '<SHUFFLE seed="" ref=""/>', f"<GO{_attrs(type=go, lobby=0)}/>"]
        un = {f"n{seat}": quote(name) for seat, name in enumerate(names)}
        tags.append(f"<UN{_attrs(**un, dan=_ids([0] * 4), rate=','.join(['1500.00'] * 4), sx=','.join(['C'] * 4))}/>")
        oya = self.game.hands[0].start["oya"] if self.game.hands else 0
        tags.append(f"<TAIKYOKU{_attrs(oya=oya)}/>")
        self.tags = tags
        scored = hand_results(self.events, seats, self.family)
        results: list[HandResult | None] = [None] * len(self.game.hands)
        if scored is not None and len(scored) == len(self.game.hands):
            results = list(scored)
        for number, (hand, result) in enumerate(zip(self.game.hands, results, strict=True)):
            self._hand(hand, result, last=number == len(self.game.hands) - 1)
        self.tags.append("</mjloggm>")
        return "".join(self.tags)

    def _hand(self, hand: Hand, result: HandResult | None, *, last: bool) -> None:
        seats = self.seats
        start = hand.start
        pool: dict[str, list[int]] = {}
        for kind, name in enumerate(KIND_NAMES):
            ids = list(range(kind * 4, kind * 4 + 4))
            red = next((red for red, tile in RED_IDS.items() if tile // 4 == kind), None)
            if red is not None and self.red:
                pool[red] = [RED_IDS[red]]
                ids.remove(RED_IDS[red])
            pool[name] = ids
        where = f"events[{hand.first}]"

        def alloc(name: str) -> int:
            if name not in pool:
                raise MalformedLog(f"not a tile: {quoted(name)}", field=where)
            if not pool[name]:
                raise MalformedLog(f"more copies of {name} than a wall holds", field=where)
            return pool[name].pop(0)

        held: list[list[int]] = [[alloc(name) for name in start["tehais"][seat]] for seat in range(seats)]
        dora = [alloc(start["dora_marker"])]
        scores = list(start["scores"])
        sticks = int(start["kyotaku"])
        seed = _ids([round_index(start), start["honba"], sticks, 0, 0, dora[0]])
        hai = {f"hai{seat}": _ids(sorted(held[seat])) if seat < seats else "" for seat in range(4)}
        self.tags.append(f"<INIT{_attrs(seed=seed, ten=_hundreds(scores, seats), oya=start['oya'], **hai)}/>")
        last_draw: list[int | None] = [None] * seats
        last_discard: int | None = None
        last_kan_tile: int | None = None
        melds: list[list[int]] = [[] for _ in range(seats)]
        pons: dict[tuple[int, int], tuple[list[int], int, int, int]] = {}
        ura: list[int] = []
        results: list[str] = []

        def take(seat: int, name: str, at: str, *, avoid: int | None = None) -> int:
            options = [tile for tile in held[seat] if name_of_id(tile, red=self.red) == name]
            if not options:
                raise MalformedLog(f"seat {seat} does not hold {name}", field=at)
            chosen = next((tile for tile in options if tile != avoid), options[0])
            held[seat].remove(chosen)
            return chosen

        for offset, event in enumerate(hand.events):
            kind = event["type"]
            at = f"events[{hand.first + 1 + offset}]"
            actor: int = event.get("actor", -1)
            if kind == "tsumo":
                tile = alloc(event["pai"])
                held[actor].append(tile)
                last_draw[actor] = tile
                self.tags.append(f"<{_DRAW_TAGS[actor]}{tile}/>")
                continue
            if kind == "dahai":
                drawn = last_draw[actor]
                if event.get("tsumogiri"):
                    if drawn is None or name_of_id(drawn, red=self.red) != event["pai"]:
                        raise MalformedLog("tsumogiri, but the tile is not the one just drawn", field=at)
                    held[actor].remove(drawn)
                    tile = drawn
                else:
                    tile = take(actor, event["pai"], at, avoid=drawn)
                    if tile == drawn:
                        raise MalformedLog(
                            "not tsumogiri, but the only such tile in hand is the one just drawn", field=at
                        )
                last_draw[actor] = None
                last_discard = tile
                self.tags.append(f"<{_DISCARD_TAGS[actor]}{tile}/>")
                continue
            last_draw = [None] * seats if kind in ("chi", "pon", "daiminkan") else last_draw
            if kind in ("chi", "pon", "daiminkan"):
                if last_discard is None or name_of_id(last_discard, red=self.red) != event["pai"]:
                    raise MalformedLog(f"the {kind} does not take the last discard", field=at)
                own = [take(actor, name, at) for name in event["consumed"]]
                # Tenhou counts steps to the right round four seats even at a three-player table
                # (seat 3 is empty), so seat 2 calling seat 0's tile is 2 steps, not 1.
                source = (event["target"] - actor) % 4
                ids = [*own, last_discard]
                code = meld_code(kind, ids, called=last_discard, source=source)
                if kind == "pon":
                    pons[(actor, kind_of_name(event["pai"]))] = (ids, last_discard, source, code)
                melds[actor].append(code)
                self.tags.append(f"<N{_attrs(who=actor, m=code)}/>")
            elif kind == "kakan":
                key = (actor, kind_of_name(event["pai"]))
                if key not in pons:
                    raise MalformedLog("an added kan with no pon of its tile before it", field=at)
                ids, called, source, old = pons.pop(key)
                added = take(actor, event["pai"], at)
                code = meld_code("kakan", ids, called=called, source=source, added=added)
                melds[actor][melds[actor].index(old)] = code
                last_draw[actor] = None
                last_kan_tile = added
                self.tags.append(f"<N{_attrs(who=actor, m=code)}/>")
            elif kind in ("ankan", "kita"):
                names = event["consumed"] if kind == "ankan" else [event["pai"]]
                ids = [take(actor, name, at) for name in names]
                code = meld_code(kind, ids)
                melds[actor].append(code)
                last_draw[actor] = None
                self.tags.append(f"<N{_attrs(who=actor, m=code)}/>")
            elif kind == "reach":
                self.tags.append(f"<REACH{_attrs(who=actor, step=1)}/>")
            elif kind == "reach_accepted":
                scores[actor] -= 1000
                sticks += 1
                self.tags.append(f"<REACH{_attrs(who=actor, ten=_hundreds(scores, seats), step=2)}/>")
            elif kind == "dora":
                dora.append(alloc(event["dora_marker"]))
                self.tags.append(f"<DORA{_attrs(hai=dora[-1])}/>")
            elif kind == "hora":
                target = event.get("target", actor)
                markers = event.get("ura_markers") or []
                if markers and not ura:
                    ura = [alloc(name) for name in markers]
                elif markers and [name_of_id(tile, red=self.red) for tile in ura] != list(markers):
                    raise MalformedLog("two wins of one hand show different ura indicators", field=at)
                deltas = list(event["deltas"])
                if target == actor:
                    win_tile = last_draw[actor]
                else:
                    win_tile = last_kan_tile if _robbed(hand.events, offset) else last_discard
                closed = sorted(held[actor] + ([win_tile] if target != actor and win_tile is not None else []))
                attrs: dict[str, object] = {
                    "ba": _ids([start["honba"], sticks]),
                    "hai": _ids(closed),
                }
                if melds[actor]:
                    attrs["m"] = _ids(melds[actor])
                attrs["machi"] = win_tile if win_tile is not None else ""
                attrs |= _worth(event, start, seats, sticks, result, first=not results)
                attrs["doraHai"] = _ids(dora)
                if markers:
                    attrs["doraHaiUra"] = _ids(ura)
                attrs |= {"who": actor, "fromWho": target}
                liable = liable_seat(result, actor)
                if liable is not None:
                    attrs["paoWho"] = liable
                sc = [
                    value for seat in range(4) for value in ((scores + [0])[seat] // 100, (deltas + [0])[seat] // 100)
                ]
                attrs["sc"] = _ids(sc)
                scores = [score + delta for score, delta in zip(scores, deltas, strict=True)]
                sticks = 0
                results.append(f"<AGARI{_attrs(**attrs)}")
            elif kind == "ryukyoku":
                deltas = list(event.get("deltas") or [0] * seats)
                draw = draw_kind(hand, seats)
                attrs = {"ba": _ids([start["honba"], sticks])}
                sc = [
                    value for seat in range(4) for value in ((scores + [0])[seat] // 100, (deltas + [0])[seat] // 100)
                ]
                attrs["sc"] = _ids(sc)
                if draw != EXHAUSTIVE:
                    attrs["type"] = draw
                if draw == NINE_TERMINALS:  # the declarer shows the hand
                    declarer = next(e["actor"] for e in reversed(hand.events) if e["type"] == "tsumo")
                    attrs[f"hai{declarer}"] = _ids(sorted(held[declarer]))
                if draw in (EXHAUSTIVE, NAGASHI):
                    tenpai = result.tenpai if result is not None and result.tenpai else None
                    for seat in range(seats):
                        shown = tenpai[seat] if tenpai is not None else deltas[seat] > 0 and len(set(deltas)) > 1
                        if shown:
                            attrs[f"hai{seat}"] = _ids(sorted(held[seat]))
                scores = [score + delta for score, delta in zip(scores, deltas, strict=True)]
                results.append(f"<RYUUKYOKU{_attrs(**attrs)}")
            else:
                raise MalformedLog(f"an event mjlog does not carry: {kind}", field=at)
        if not results:
            raise MalformedLog("a hand that ends without hora or ryukyoku", field=where)
        if last:
            results[-1] += _attrs(owari=_owari(scores, sticks, seats))
        self.tags += [result + "/>" for result in results]


def _worth(
    event: Mapping[str, Any],
    start: Mapping[str, Any],
    seats: int,
    sticks: int,
    result: HandResult | None,
    *,
    first: bool,
) -> dict[str, object]:
    """An AGARI's ``ten`` (fu, points, limit) and ``yaku`` or ``yakuman``, from the table's score if it has one."""
    actor, target, deltas = event["actor"], event.get("target", event["actor"]), event["deltas"]
    ron = target != actor
    honba_points = honba_paid(int(start["honba"]), seats, ron=ron, first=first)
    score = win_score(result, actor)
    if score is None:
        return {"ten": _ids([0, max(deltas[actor] - honba_points - 1000 * sticks, 0), 0])}
    limit, _ = LIMITS.get(score.limit, (0, ""))
    attrs: dict[str, object] = {"ten": _ids([score.fu, hand_value(score, honba_points), limit])}
    seat_wind = (actor - int(start["oya"])) % seats
    yaku = sorted(yaku_list(score, seat_wind=seat_wind, round_wind=BAKAZE.index(start["bakaze"])))
    if score.limit == "yakuman" and all(han >= 13 for _, han, _ in yaku):
        attrs["yakuman"] = _ids([number for number, _, _ in yaku])
    else:
        attrs["yaku"] = _ids([value for number, han, _ in yaku for value in (number, han)])
    return attrs


def _robbed(events: Sequence[Mapping[str, Any]], offset: int) -> bool:
    """Whether the win at ``offset`` takes an added kan's tile (the events before it: kakan, other wins)."""
    back = offset - 1
    while back >= 0 and events[back]["type"] == "hora":
        back -= 1
    return back >= 0 and events[back]["type"] == "kakan"


def _owari(scores: list[int], sticks: int, seats: int) -> str:
    """Tenhou's final line: each score in hundreds and its points after return and uma (for the viewer);
    equal scores rank by seat from the first dealer (:func:`~app.core.table.flow.placements`).

    >>> _owari([25000, 25000, 30000, 20000], 0, 4)  # seat 0 is second, seat 1 third, whoever dealt last
    '250,5.0,250,-15.0,300,40.0,200,-30.0'
    """
    final = list(scores)
    order = placements(final)
    final[order[0]] += 1000 * sticks
    back, uma = (30000, (20, 10, -10, -20)) if seats == 4 else (40000, (15, 0, -15))
    points = [0.0] * seats
    for rank, seat in enumerate(order):
        points[seat] = round((final[seat] - back) / 1000 + uma[rank], 1)
    points[order[0]] = round(-sum(points[seat] for seat in order[1:]), 1)
    values: list[str] = []
    for seat in range(4):
        values += [str(final[seat] // 100), f"{points[seat]:.1f}"] if seat < seats else ["0", "0.0"]
    return ",".join(values)


def write_mjlog(events: Sequence[Mapping[str, Any]], family: Family) -> str:
    """The mjlog XML of an mjai game (Tenhou's lobby bits: with people, red fives, hanchan, sanma if
    3 seats), scored by ``family``'s table."""
    try:
        return _Writer(events, family).write()
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as error:
        if isinstance(error, TenpaiError):
            raise
        raise MalformedLog(f"an event mjlog cannot carry: {unwritable(error)}", field="events") from None


# -- reading ---------------------------------------------------------------------------------

#: A number of an mjlog: ASCII digits (``int`` would also read ``٣``, ``1_0`` and `` 1``), a sign for
#: a change of score, and at most 9 digits: no figure of a game has more than 6.
_NUMBER: Final = re.compile(r"-?[0-9]{1,9}")


def _number(text: str, where: str) -> int:
    if not _NUMBER.fullmatch(text):
        raise MalformedLog(f"not an integer of at most 9 digits: {quoted(text)}", field=where)
    return int(text)


def _int_list(text: str | None, where: str) -> list[int]:
    if text is None or text == "":
        return []
    parts = text.split(",")
    if not all(_NUMBER.fullmatch(part) for part in parts):
        raise MalformedLog(f"not a list of integers of at most 9 digits: {quoted(text)}", field=where)
    return [int(part) for part in parts]


class _Tag:
    """One tag of an mjlog game: its name and its attributes."""

    __slots__ = ("tag", "attrib")

    def __init__(self, tag: str, attrib: dict[str, str]) -> None:
        self.tag = tag
        self.attrib = attrib

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.attrib.get(key, default)

    def text(self, key: str) -> str:
        """An attribute the tag must have."""
        value = self.attrib.get(key)
        if value is None:
            raise MalformedLog(f"no {key} attribute", field=key)
        return value

    def number(self, key: str) -> int:
        """An integer attribute the tag must have."""
        return _number(self.text(key), key)


class _Declared(Exception):
    """The XML declares a DOCTYPE or an entity."""


def _declared(*_: object) -> None:
    raise _Declared


def _tags(text: str) -> list[_Tag]:
    """The tags inside an mjlog's root element (its children; what they hold is not read).

    expat is told to refuse a DOCTYPE, and any entity declaration, wherever it stands: an internal
    entity would rewrite a name or a tag as the log reads on (``&e;`` in ``UN``), and nested ones
    multiply a small text into gigabytes.  An mjlog has neither.
    """
    parser = expat.ParserCreate()
    tags: list[_Tag] = []
    depth = 0

    def start(name: str, attributes: dict[str, str]) -> None:
        nonlocal depth
        if depth == 1:
            tags.append(_Tag(name, attributes))
        depth += 1

    def end(name: str) -> None:
        nonlocal depth
        depth -= 1

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.StartDoctypeDeclHandler = _declared
    parser.EntityDeclHandler = _declared
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    check_text(text, "tags")  # expat reads UTF-8: a lone surrogate would stop it with Python's words
    try:
        parser.Parse(text, True)
    except _Declared:
        raise MalformedLog("an mjlog declares no DOCTYPE and no entity", field="tags") from None
    except expat.ExpatError as error:
        reason = expat.ErrorString(error.code)
        raise MalformedLog(f"not XML: {reason}: line {error.lineno}, column {error.offset}", field="tags") from None
    return tags


def read_mjlog(text: str) -> list[Event]:
    """The mjai events of an mjlog XML game (no DOCTYPE or entity declaration anywhere in it)."""
    return _Reader(_tags(text)).read()


class _Reader:
    def __init__(self, tags: list[_Tag]) -> None:
        self.tags = tags
        self.seats = 4
        self.red = True
        self.names: list[str] | None = None
        self.events: list[Event] = []
        self.in_hand = False
        self.held: list[list[int]] = []
        self.held_anywhere: set[int] = set()
        self.last_draw: list[int | None] = [None] * 4
        self.last_discard: tuple[int, int] | None = None

    def read(self) -> list[Event]:
        for tag in self.tags:
            if tag.tag == "INIT":
                if tag.get("hai3", None) == "":
                    self.seats = 3
                break
        for index, tag in enumerate(self.tags):
            if tag.tag == "GO":
                with _at_tag(tag, index):
                    go = _int_list(tag.get("type"), "type")
                if go:
                    self.red = not go[0] & GO_NO_RED
                    self.seats = 3 if go[0] & GO_SANMA else self.seats
                break
        for index, tag in enumerate(self.tags):
            with _at_tag(tag, index):
                self._tag(tag)
        if not self.events:
            self.events.append(self._start_game())
        if self.in_hand:
            self.events.append({"type": "end_kyoku"})
        self.events.append({"type": "end_game"})
        return self.events

    def _start_game(self) -> Event:
        names = self.names if self.names is not None else [str(seat) for seat in range(self.seats)]
        return {"type": "start_game", "names": names}

    def _name(self, tile: int) -> str:
        if not 0 <= tile < 136:
            raise MalformedLog(f"not a 136-id: {tile}")
        return name_of_id(tile, red=self.red)

    def _tag(self, tag: _Tag) -> None:
        name = tag.tag
        seats = self.seats
        move = _MOVE.fullmatch(name)
        if name == "UN" and self.names is None and "n0" in tag.attrib:
            self.names = [_player_name(tag, f"n{seat}") for seat in range(seats)]
            return
        if name in ("SHUFFLE", "GO", "UN", "TAIKYOKU", "BYE"):
            return
        if name == "INIT":
            if not self.events:
                self.events.append(self._start_game())
            if self.in_hand:
                self.events.append({"type": "end_kyoku"})
            self._init(tag)
            return
        if not self.in_hand:
            raise MalformedLog("a move before any INIT")
        if move:
            letter, digits = move.group(1), move.group(2)
            if len(digits) > 3:
                raise MalformedLog(f"not a 136-id: {clipped(digits)}")
            tile = int(digits)
            if letter in _DRAW_TAGS:
                seat = _DRAW_TAGS.index(letter)
                self._seat(seat)
                if tile in self.held_anywhere:
                    raise MalformedLog(f"id {tile} drawn twice")
                self.held[seat].append(tile)
                self.held_anywhere.add(tile)
                self.last_draw = [None] * 4
                self.last_draw[seat] = tile
                self.events.append({"type": "tsumo", "actor": seat, "pai": self._name(tile)})
            else:
                seat = _DISCARD_TAGS.index(letter)
                self._seat(seat)
                self._remove(seat, [tile])
                tsumogiri = self.last_draw[seat] == tile
                self.last_draw = [None] * 4
                self.last_discard = (seat, tile)
                self.events.append({"type": "dahai", "actor": seat, "pai": self._name(tile), "tsumogiri": tsumogiri})
            return
        if name == "N":
            self._call(tag.number("who"), tag.number("m"))
        elif name == "REACH":
            seat = tag.number("who")
            self._seat(seat)
            step = tag.get("step")
            kind = {"1": "reach", "2": "reach_accepted"}.get(step or "")
            if kind is None:
                raise MalformedLog(f"REACH step is 1 or 2, not {quoted(step)}", field="step")
            self.events.append({"type": kind, "actor": seat})
        elif name == "DORA":
            self.events.append({"type": "dora", "dora_marker": self._name(tag.number("hai"))})
        elif name == "AGARI":
            who, source = tag.number("who"), tag.number("fromWho")
            self._seat(who)
            self._seat(source)
            deltas = _int_list(tag.get("sc"), "sc")[1::2]
            if len(deltas) < seats:
                raise MalformedLog("sc holds a score and a change for every seat")
            ura = [self._name(tile) for tile in _int_list(tag.get("doraHaiUra"), "doraHaiUra")]
            self.events.append(
                {
                    "type": "hora",
                    "actor": who,
                    "target": source,
                    "deltas": [delta * 100 for delta in deltas[:seats]],
                    "ura_markers": ura,
                }
            )
        elif name == "RYUUKYOKU":
            deltas = _int_list(tag.get("sc"), "sc")[1::2]
            if len(deltas) < seats:
                raise MalformedLog("sc holds a score and a change for every seat")
            self.events.append({"type": "ryukyoku", "deltas": [delta * 100 for delta in deltas[:seats]]})
        else:
            raise MalformedLog(f"a tag mjlog does not have: <{clipped(name)}>")

    def _seat(self, seat: int) -> None:
        if not 0 <= seat < self.seats:
            raise MalformedLog(f"no seat {seat} at a {self.seats}-player table")

    def _remove(self, seat: int, tiles: Sequence[int]) -> None:
        for tile in tiles:
            if tile not in self.held[seat]:
                raise MalformedLog(f"seat {seat} does not hold id {tile}")
            self.held[seat].remove(tile)

    def _init(self, tag: _Tag) -> None:
        seats = self.seats
        seed = _int_list(tag.get("seed"), "seed")
        if len(seed) != 6:
            raise MalformedLog("seed is round,honba,sticks,dice,dice,dora")
        scores = _int_list(tag.get("ten"), "ten")
        if len(scores) < seats:
            raise MalformedLog(f"ten holds {seats} scores")
        # Tenhou lists a dealt hand in dealing order; mjai (Mortal, tenhou.net/6) in id order.
        self.held = [sorted(_int_list(tag.get(f"hai{seat}"), f"hai{seat}")) for seat in range(seats)]
        for seat, tiles in enumerate(self.held):
            if len(tiles) != 13:
                raise MalformedLog(f"hai{seat} deals 13 tiles, not {len(tiles)}")
        self.held_anywhere = {tile for tiles in self.held for tile in tiles}
        if len(self.held_anywhere) != 13 * seats:
            raise MalformedLog("an id dealt twice")
        round_number, honba, sticks, _, _, dora = seed
        if not 0 <= round_number < 16:
            raise MalformedLog(f"round {round_number} is past North 4", field="seed")
        oya = tag.number("oya")
        self.last_draw = [None] * 4
        self.last_discard = None
        self.in_hand = True
        self.events.append(
            {
                "type": "start_kyoku",
                "bakaze": BAKAZE[round_number // 4],
                "dora_marker": self._name(dora),
                "kyoku": round_number % 4 + 1,
                "honba": honba,
                "kyotaku": sticks,
                "oya": oya,
                "scores": [score * 100 for score in scores[:seats]],
                "tehais": [[self._name(tile) for tile in tiles] for tiles in self.held],
            }
        )

    def _call(self, seat: int, code: int) -> None:
        self._seat(seat)
        kind, source, ids, special = read_meld(code)
        names = self._name
        if kind in ("chi", "pon", "daiminkan"):
            target = (seat + source) % 4  # four seats round, even in sanma (see the writer)
            self._seat(target)
            if self.last_discard != (target, special):
                raise MalformedLog(f"the {kind} does not take the last discard (id {special} from seat {target})")
            own = sorted(tile for tile in ids if tile != special)
            self._remove(seat, own)
            self.last_draw = [None] * 4
            self.events.append(
                {
                    "type": kind,
                    "actor": seat,
                    "target": target,
                    "pai": names(special or 0),
                    "consumed": [names(t) for t in own],
                }
            )
            return
        self.last_draw = [None] * 4
        if kind == "kakan":
            assert special is not None
            self._remove(seat, [special])
            pon = sorted(tile for tile in ids if tile != special)
            self.events.append(
                {"type": "kakan", "actor": seat, "pai": names(special), "consumed": [names(t) for t in pon]}
            )
        elif kind == "ankan":
            self._remove(seat, ids)
            self.events.append({"type": "ankan", "actor": seat, "consumed": [names(t) for t in ids]})
        else:
            self._remove(seat, ids)
            self.events.append({"type": "kita", "actor": seat, "pai": names(ids[0])})


class _at_tag:  # noqa: N801 - used like a function: ``with _at_tag(tag, index):``
    """Re-raise a problem with a tag at ``tags[index]`` (and its attribute, where known), led by the tag's name."""

    __slots__ = ("name", "index")

    def __init__(self, tag: _Tag, index: int) -> None:
        self.name = clipped(tag.tag)
        self.index = index

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: object) -> None:
        if error is None:
            return
        where = f"tags[{self.index}]"
        if isinstance(error, MalformedLog):
            field = f"{where}.{error.field}" if error.field else where
            raise MalformedLog(f"<{self.name}>: {error.reason}", field=field) from None
        if isinstance(error, (KeyError, ValueError, IndexError, TypeError)):
            # Every expected fault is a MalformedLog above; one the checks missed is still the log's.
            raise MalformedLog(f"<{self.name}> cannot be read", field=where) from None


def _player_name(tag: _Tag, key: str) -> str:
    """A player's name in ``UN``: URL-encoded UTF-8 text (:func:`check_name`)."""
    try:
        name = unquote(tag.get(key, "") or "", errors="strict")
    except UnicodeDecodeError:
        raise MalformedLog("a name is URL-encoded UTF-8, and this one's bytes are not UTF-8", field=key) from None
    return check_name(name, key)
