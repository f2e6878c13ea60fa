"""mjai, the event protocol of mahjong bots and arenas, read into typed events.

mjai (Mortal's libriichi, mjai.app, akochan, riichienv) writes a game as JSON
objects, one event each.  Tiles are strings: ``1m``..``9m``, ``1p``..``9p``,
``1s``..``9s``, ``E S W N`` (winds), ``P F C`` (white, green, red dragon), the
red fives ``5mr 5pr 5sr``, and ``?`` for a tile the reader cannot see.

Inside the engine a tile of the table is an int (:data:`TableTile`): the 34
kinds of :mod:`app.core.shape.tiles` (0-33), then the three red fives (34-36),
then the unknown tile (37), then MCR's eight flowers (38-45).  Strings live only
here, at the edge.

tenpai's extensions (rules without an mjai vocabulary): the flowers are the tiles
``H1``..``H8``; ``{"type": "flower", "actor": A, "pai": "H3"}`` sets a drawn flower
aside (the replacement ``tsumo`` follows, as after a kan); ``start_kyoku`` may carry
``flowers`` (per seat, the flowers set aside while dealing, already replaced in
``tehais``) and ``wildcards`` (the tiles that stand for any tile this hand: Qiqihar's
``["C"]``).  Sichuan (:mod:`app.core.table.play_rules`): ``{"type": "exchange_out", "actor": S,
"pais": [t, t, t]}`` (换三张: three tiles of one suit leave seat S), ``{"type": "exchange_in",
"actor": S, "target": T, "pais": [t, t, t]}`` (S receives T's three) and ``{"type": "void_suit",
"actor": S, "suit": "m"}`` (定缺), before the dealer's first draw.

>>> event = read_event({"type": "dahai", "actor": 1, "pai": "5pr", "tsumogiri": False}, 0)
>>> event.kind, event.actor, event.pai, kind_of(event.pai), tile_name(event.pai)
('dahai', 1, 35, 13, '5pr')
>>> read_event({"type": "pon", "actor": 9, "target": 0, "pai": "P", "consumed": ["P", "P"]}, 4)
Traceback (most recent call last):
...
app.core.table.mjai.MalformedEvent: events[4].actor: must be a seat 0..3, got 9
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

from app.core.errors import TenpaiError
from app.core.shape.tiles import M5, NUM_TILE_KINDS, P5, S5, TILE_NAMES, quoted
from app.core.shape.void_suit import SUIT_NAMES

#: A tile at the table: a kind 0-33, a red five 34-36 (5m, 5p, 5s) or :data:`UNKNOWN`.
TableTile = int

RED_FIVES: Final = (M5, P5, S5)
FIRST_RED: Final = NUM_TILE_KINDS
UNKNOWN: Final = NUM_TILE_KINDS + 3
FIRST_FLOWER: Final = UNKNOWN + 1
FLOWERS: Final = 8
#: Slots of a table hand's counts: every kind, the three red fives, the unknown tile, the flowers.
TABLE_TILES: Final = FIRST_FLOWER + FLOWERS

_MJAI_HONORS: Final = ("E", "S", "W", "N", "P", "F", "C")


def _build_names() -> tuple[str, ...]:
    names = [TILE_NAMES[tile] for tile in range(27)]
    names += list(_MJAI_HONORS)
    names += ["5mr", "5pr", "5sr", "?"]
    names += [f"H{number}" for number in range(1, FLOWERS + 1)]
    return tuple(names)


#: The mjai name of every table tile, by its int.
MJAI_NAMES: Final = _build_names()
_BY_NAME: Final = {name: tile for tile, name in enumerate(MJAI_NAMES)}
_KIND: Final = tuple(list(range(NUM_TILE_KINDS)) + list(RED_FIVES) + [UNKNOWN] + list(range(FIRST_FLOWER, TABLE_TILES)))

#: Event types of the protocol (and of tenpai's extensions, marked below).
EVENT_TYPES: Final = frozenset(
    {
        "start_game",
        "start_kyoku",
        "tsumo",
        "dahai",
        "chi",
        "pon",
        "daiminkan",
        "kakan",
        "ankan",
        "dora",
        "reach",
        "reach_accepted",
        "hora",
        "ryukyoku",
        "end_kyoku",
        "end_game",
        "kita",
        "flower",
        "exchange_out",
        "exchange_in",
        "void_suit",
        "none",
    }
)

#: Actions a seat may answer with (``/act``'s ``legal``), besides the table's own events.
ACTION_TYPES: Final = frozenset(
    {
        "none",
        "dahai",
        "reach",
        "chi",
        "pon",
        "daiminkan",
        "kakan",
        "ankan",
        "hora",
        "ryukyoku",
        "kita",
        "flower",
        "exchange_out",
        "void_suit",
    }
)

#: Tiles passed in Sichuan's exchange (换三张).
EXCHANGED: Final = 3


class MalformedEvent(TenpaiError):
    """An event that is not mjai: a missing or mistyped field, an unknown tile or type.

    Raised with ``field`` relative to the event (``"pai"``, ``"tehais[2][5]"``; None: the
    event as a whole) and the message led by it; whoever knows the event's place in the
    list roots both there (:meth:`of_event`), so that every error a caller sees names
    ``events[index]`` and the field within.

    >>> error = MalformedEvent("must be a seat 0..3, got 9", field="actor")
    >>> error.of_event(4).field, str(error.of_event(4))
    ('events[4].actor', 'events[4].actor: must be a seat 0..3, got 9')
    """

    code = "malformed_event"

    def __init__(self, reason: str, *, field: str | None = None) -> None:
        super().__init__(f"{field}: {reason}" if field else reason, field=field)
        self.reason = reason

    def of_event(self, index: int) -> MalformedEvent:
        """This error rooted at ``events[index]``."""
        where = f"events[{index}]"
        return MalformedEvent(self.reason, field=f"{where}.{self.field}" if self.field else where)


def kind_of(tile: TableTile) -> int:
    """The kind (0-33) of a table tile; a red five is its suit's five, and ``?`` stays unknown.

    >>> kind_of(34), kind_of(8), kind_of(UNKNOWN) == UNKNOWN
    (4, 8, True)
    """
    return _KIND[tile]


def is_flower(tile: TableTile) -> bool:
    """Whether the table tile is one of MCR's flowers (``H1``..``H8``)."""
    return tile >= FIRST_FLOWER


def is_red(tile: TableTile) -> bool:
    """Whether the table tile is a red five."""
    return FIRST_RED <= tile < UNKNOWN


def red_of(kind: int) -> TableTile | None:
    """The red five of a five's kind, or None for any other kind."""
    return FIRST_RED + RED_FIVES.index(kind) if kind in RED_FIVES else None


def tile_name(tile: TableTile) -> str:
    """The mjai string of a table tile."""
    return MJAI_NAMES[tile]


#: What a player's name may not hold: a lone surrogate (half of a UTF-16 pair, which no UTF-8 text can
#: carry: a log with one could be read but never written) or a control character (C0, DEL, C1: no name
#: on Tenhou or Mahjong Soul has one, and in a viewer or a terminal they would act rather than show).
_NOT_IN_NAMES: Final = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def name_fault(name: str) -> str | None:
    """Why ``name`` is not a player's name, or None when it is one.

    >>> name_fault("ASAPIN"), name_fault("\N{PILE OF POO}の人")
    (None, None)
    >>> name_fault("a" + chr(0xD800))
    'a lone surrogate U+D800 at character 1, which no UTF-8 text can hold'
    >>> name_fault("tab" + chr(9) + "bed")
    'a control character U+0009 at character 3, which no name has'
    """
    found = _NOT_IN_NAMES.search(name)
    if found is None:
        return None
    code = ord(found.group())
    if 0xD800 <= code <= 0xDFFF:
        return lone_surrogate(code, found.start())
    return f"a control character U+{code:04X} at character {found.start()}, which no name has"


def lone_surrogate(code: int, at: int) -> str:
    """Why a text holding the lone surrogate ``code`` at character ``at`` cannot be taken."""
    return f"a lone surrogate U+{code:04X} at character {at}, which no UTF-8 text can hold"


def parse_pai(value: object, field: str) -> TableTile:
    """Read an mjai tile string.

    >>> parse_pai("C", "pai"), parse_pai("?", "pai") == UNKNOWN
    (33, True)
    """
    tile = _BY_NAME.get(value) if isinstance(value, str) else None
    if tile is None:
        raise MalformedEvent(
            f"not an mjai tile: {quoted(value)}; tiles are 1m-9m, 1p-9p, 1s-9s, E S W N P F C, "
            "5mr 5pr 5sr, ? (unseen) and the flowers H1-H8",
            field=field,
        )
    return tile


class Event(NamedTuple):
    """One mjai event, read and typed.  ``raw`` keeps the object as sent."""

    kind: str
    actor: int | None = None
    target: int | None = None
    pai: TableTile | None = None
    consumed: tuple[TableTile, ...] = ()
    tsumogiri: bool | None = None
    raw: Mapping[str, Any] = {}
    #: ``void_suit``'s suit (0 m, 1 p, 2 s); None for every other event.
    suit: int | None = None


def _seat(obj: Mapping[str, Any], key: str, seats: int, *, required: bool = True) -> int | None:
    value = obj.get(key)
    if value is None and not required:
        return None
    if type(value) is not int or not 0 <= value < seats:
        raise MalformedEvent(f"must be a seat 0..{seats - 1}, got {quoted(value)}", field=key)
    return value


def _tiles(obj: Mapping[str, Any], key: str, sizes: Sequence[int]) -> tuple[TableTile, ...]:
    value = obj.get(key)
    if not isinstance(value, list) or len(value) not in sizes:
        wanted = " or ".join(str(size) for size in sizes)
        raise MalformedEvent(f"must be a list of {wanted} tiles, got {quoted(value)}", field=key)
    return tuple(parse_pai(item, f"{key}[{index}]") for index, item in enumerate(value))


_CONSUMED: Final = {"chi": (2,), "pon": (2,), "daiminkan": (3,), "kakan": (3,), "ankan": (4,)}
_WITH_ACTOR: Final = frozenset(
    {
        "tsumo",
        "dahai",
        "chi",
        "pon",
        "daiminkan",
        "kakan",
        "ankan",
        "reach",
        "reach_accepted",
        "hora",
        "kita",
        "flower",
        "exchange_out",
        "exchange_in",
        "void_suit",
    }
)
#: Events whose tiles another seat may not see (``?`` allowed): a draw, and the tiles passed in the exchange.
_MAY_HIDE: Final = frozenset({"tsumo", "exchange_out", "exchange_in"})
_WITH_PAI: Final = frozenset({"tsumo", "dahai", "chi", "pon", "daiminkan", "kakan", "kita", "flower"})


def read_event(obj: object, index: int, seats: int = 4) -> Event:
    """Type one mjai event (the object at ``events[index]``), or raise :class:`MalformedEvent`
    at ``events[index]`` and the field.

    Only the form is checked here; whether the event may happen is the table's question.
    """
    try:
        return _read_event(obj, seats)
    except MalformedEvent as error:
        raise error.of_event(index) from None


def _read_event(obj: object, seats: int) -> Event:
    if not isinstance(obj, Mapping):
        raise MalformedEvent(f"an event is a JSON object, got {quoted(obj)}")
    kind = obj.get("type")
    # A type that is not text (a list, an object) is no event type either, and cannot be hashed.
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        known = ", ".join(sorted(EVENT_TYPES))
        raise MalformedEvent(f"unknown event type {quoted(kind)}; known: {known}", field="type")
    actor = _seat(obj, "actor", seats) if kind in _WITH_ACTOR else None
    target = None
    if kind in ("chi", "pon", "daiminkan"):
        target = _seat(obj, "target", seats)
    elif kind == "hora":
        target = _seat(obj, "target", seats, required=False)
        if target is None:
            target = actor
    elif kind == "exchange_in":
        target = _seat(obj, "target", seats)
    if kind in ("exchange_out", "exchange_in"):
        return Event(kind, actor, target, None, _tiles(obj, "pais", (EXCHANGED,)), None, obj)
    if kind == "void_suit":
        suit = obj.get("suit")
        if not isinstance(suit, str) or len(suit) != 1 or suit not in SUIT_NAMES:
            raise MalformedEvent(f"must be a suit: m, p or s, got {quoted(suit)}", field="suit")
        return Event(kind, actor, raw=obj, suit=SUIT_NAMES.index(suit))
    pai = parse_pai(obj.get("pai"), "pai") if kind in _WITH_PAI else None
    if kind == "hora" and obj.get("pai") is not None:
        pai = parse_pai(obj.get("pai"), "pai")
    consumed = _tiles(obj, "consumed", _CONSUMED[kind]) if kind in _CONSUMED else ()
    tsumogiri = None
    if kind == "dahai":
        tsumogiri = obj.get("tsumogiri", False)
        if type(tsumogiri) is not bool:
            raise MalformedEvent(f"must be true or false, got {quoted(tsumogiri)}", field="tsumogiri")
    if kind == "start_game" and obj.get("names") is not None:
        names = obj.get("names")
        if not isinstance(names, list) or any(not isinstance(name, str) for name in names):
            raise MalformedEvent(f"must be a list of the players' names, got {quoted(names)}", field="names")
        for seat, name in enumerate(names):
            fault = name_fault(name)
            if fault is not None:
                raise MalformedEvent(f"not a player's name: {fault}", field=f"names[{seat}]")
    if kind in ("hora", "ryukyoku") and obj.get("deltas") is not None:
        deltas = obj.get("deltas")
        if not isinstance(deltas, list) or len(deltas) != seats or any(type(d) is not int for d in deltas):
            raise MalformedEvent(f"must be {seats} integers, got {quoted(deltas)}", field="deltas")
    if kind == "hora" and obj.get("ura_markers") is not None:
        markers = obj.get("ura_markers")
        if not isinstance(markers, list):
            raise MalformedEvent(f"must be a list of tiles, got {quoted(markers)}", field="ura_markers")
        for position, marker in enumerate(markers):
            parse_pai(marker, f"ura_markers[{position}]")
    if kind == "dora":
        pai = parse_pai(obj.get("dora_marker"), "dora_marker")
    if kind == "start_kyoku" and obj.get("dora_marker") is not None:
        # The first indicator is shown to every seat, as a dora event's is.
        _require_shown(kind, parse_pai(obj.get("dora_marker"), "dora_marker"), ())
    if kind not in _MAY_HIDE:
        _require_shown(kind, pai, consumed)
    return Event(kind, actor, target, pai, consumed, tsumogiri, obj)


def _require_shown(kind: str, pai: TableTile | None, consumed: tuple[TableTile, ...]) -> None:
    """Refuse ``?`` in an event every seat sees: it stands only for another seat's draw or dealt tiles."""
    field = "dora_marker" if kind in ("dora", "start_kyoku") else "pai"
    hidden = field if pai == UNKNOWN else next((f"consumed[{i}]" for i, t in enumerate(consumed) if t == UNKNOWN), None)
    if hidden is not None:
        raise MalformedEvent(
            f"? stands for a tile a seat cannot see (another seat's tsumo or dealt tiles); a {kind} shows its "
            f"{'dora indicator' if field == 'dora_marker' else 'tiles'} to every seat",
            field=hidden,
        )


def action_object(event: Event) -> dict[str, Any]:
    """The mjai object of an action (the form ``/act`` answers and the bot writes).

    >>> action_object(Event("dahai", 2, pai=34, tsumogiri=True))
    {'type': 'dahai', 'actor': 2, 'pai': '5mr', 'tsumogiri': True}
    """
    out: dict[str, Any] = {"type": event.kind}
    if event.kind in ("none", "ryukyoku"):  # libriichi writes a declared draw without its actor
        return out
    out["actor"] = event.actor
    if event.target is not None and event.kind in ("chi", "pon", "daiminkan", "hora", "exchange_in"):
        out["target"] = event.target
    if event.kind in ("exchange_out", "exchange_in"):
        out["pais"] = [tile_name(tile) for tile in event.consumed]
        return out
    if event.kind == "void_suit":
        assert event.suit is not None
        out["suit"] = SUIT_NAMES[event.suit]
        return out
    if event.pai is not None:
        out["pai"] = tile_name(event.pai)
    if event.consumed:
        out["consumed"] = [tile_name(tile) for tile in event.consumed]
    if event.kind == "dahai":
        out["tsumogiri"] = bool(event.tsumogiri)
    return out


def action_key(event: Event) -> tuple[object, ...]:
    """What makes two actions the same choice: ``consumed`` is a set, not a sequence."""
    return (
        event.kind,
        event.actor,
        event.target,
        event.pai,
        tuple(sorted(event.consumed)),
        event.tsumogiri,
        event.suit,
    )


#: Actions a seat may answer without an actor (libriichi writes them so): either form is the same choice.
WITHOUT_ACTOR: Final = frozenset({"none", "ryukyoku"})


def choice_key(action: Event) -> tuple[object, ...]:
    """What makes two actions of the asked seat the same choice: :func:`action_key`, with the
    actor-less forms of ``none`` and a declared draw the same as the seat's own.

    >>> choice_key(Event("none", 2)) == choice_key(Event("none"))
    True
    """
    return action_key(action._replace(actor=None) if action.kind in WITHOUT_ACTOR else action)
