"""What the table knows of each seat in a hand, and a win it scored: the state the machine keeps
and its rule families read (:mod:`app.core.table.family`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Protocol

from app.core.advice.open_tenpai import hand_discards_after_call as count_hand_discards_after_call
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.tiles import NUM_TILE_KINDS
from app.core.table.mjai import FIRST_RED, TABLE_TILES, UNKNOWN, kind_of

if TYPE_CHECKING:
    from app.core.advice.safety import Opponent

#: The meld kind of each mjai call.
MELD_KIND: Final = {
    "chi": MeldKind.CHI,
    "pon": MeldKind.PON,
    "daiminkan": MeldKind.OPEN_KAN,
    "kakan": MeldKind.ADDED_KAN,
    "ankan": MeldKind.CLOSED_KAN,
}
#: Each red five's table tile with its kind.
_RED_KINDS: Final = tuple((red, kind_of(red)) for red in range(FIRST_RED, UNKNOWN))


@dataclass(slots=True)
class TableMeld:
    """A meld on the table: its mjai kind, its tiles (table tiles), whose tile it took."""

    kind: str
    tiles: tuple[int, ...]
    target: int | None = None
    called: int | None = None

    @property
    def kind_tile(self) -> int:
        return min(kind_of(tile) for tile in self.tiles)

    def as_meld(self) -> Meld:
        return Meld(MELD_KIND[self.kind], tuple(sorted(kind_of(tile) for tile in self.tiles)))


@dataclass(slots=True)
class KongPayment:
    """A kong paid at once (刮风下雨): who made it and each seat's share of the payment.

    ``transferred``: its income went to the winner of its seat's next discard (呼叫转移)."""

    seat: int
    kind: str
    deltas: list[int]
    #: An open kong's discarder (点杠: it fed the kong); None for a kong of the seat's own tiles.
    fed_by: int | None = None
    transferred: bool = False


@dataclass(slots=True)
class SeatState:
    """What the table knows of one seat in the hand being played."""

    counts: list[int] = field(default_factory=lambda: [0] * TABLE_TILES)
    melds: list[TableMeld] = field(default_factory=list)
    river: list[int] = field(default_factory=list)
    #: For each tile of ``river``, whether it was the tile just drawn (the log's ``tsumogiri``;
    #: None where the event did not say).  Every seat sees it: the open-hand tenpai read reads it.
    drawn_discards: list[bool | None] = field(default_factory=list)
    #: The river's length at each of this seat's chi, pon and open kan, in order (every seat sees it).
    calls_at: list[int] = field(default_factory=list)
    #: Positions in ``river`` of the discards another seat called (they sit in its meld).
    called_away: set[int] = field(default_factory=set)
    #: The tile just drawn (tsumogiri means throwing it); None after a call.
    drawn: int | None = None
    #: A declaration with a stick (riichi): 0: none; 1: declared, its discard not yet through;
    #: 2: the stick is down.
    declared: int = 0
    #: Declared in the first uninterrupted go-around (double riichi).
    double_declaration: bool = False
    #: 1-based position in ``river`` of the declaration tile.
    declaration_turn: int | None = None
    #: The first go-around after the declaration, nobody having called (ippatsu).
    ippatsu: bool = False
    temporary_furiten: bool = False
    #: A winning tile went by after the declaration: no ron for the rest of the hand.
    declaration_furiten: bool = False
    #: Kinds this seat may not discard now (kuikae), after its chi or pon.
    forbidden: frozenset[int] = frozenset()
    discarded: bool = False
    #: Kinds the other seats discarded since this seat's last discard (every seat sees them).
    #: Had the seat been ready on one, it would have won on it or be furiten now (same-turn
    #: furiten): none of them deals into it.
    passed_since_discard: list[int] = field(default_factory=list)
    #: Every discard was an orphan and none was called: nagashi mangan stands.
    nagashi: bool = True
    kita: int = 0
    #: Flowers set aside (MCR), as table tiles.
    flowers: list[int] = field(default_factory=list)
    #: Seat liable for a yakuman (pao) and which one.
    liable: dict[str, int] = field(default_factory=dict)
    #: Sichuan: the tiles this seat passed in the exchange (换三张), once it has; None before.
    exchanged: tuple[int, ...] | None = None
    #: Sichuan: whether the seat has received its three tiles, and whether its own were received.
    received: bool = False
    given: bool = False
    #: Sichuan: the void suit declared (定缺: 0 m, 1 p, 2 s); None before.
    void: int | None = None
    #: Play-on tables: the seat's wins this hand.
    wins: int = 0
    #: Play-on tables (血战到底): the seat has won and left the hand (no more draws, discards, calls).
    left: bool = False
    #: Play-on tables: the tiles this seat won on by self-draw, set aside (its hand keeps 13).
    won_tiles: list[int] = field(default_factory=list)
    #: Kongs this seat made since its last draw from the front of the wall (杠上炮's kongs).
    turn_kongs: list[KongPayment] = field(default_factory=list)
    #: The waits of the concealed hand (kinds), while it is 3n+1 tiles and known.
    waits_cache: frozenset[int] | None = None
    #: :meth:`hand` until the concealed tiles or the melds change (the machine empties it then).
    hand_cache: Hand | None = None
    #: The melds as :class:`Meld` values until they change (a call, a kan).
    melds_cache: tuple[Meld, ...] | None = None
    #: The shanten of a :meth:`hand` (:meth:`TableMachine.hand_shanten`), with that hand.
    shanten_cache: tuple[Hand, int] | None = None
    #: What the other seats see of this one (:func:`app.core.table.decide.seat_view`), with the
    #: state it was read at: the river's length, then the lengths of the called discards and the
    #: melds, the riichi and its turn, and the table's kans (an added kan grows a meld in place).
    opponent_cache: tuple[int, tuple[int | None, ...], Opponent] | None = None

    @property
    def hand_discards_after_call(self) -> int | None:
        """Discards from the hand (not the tile just drawn) after the one that followed this
        seat's last chi, pon or open kan: None before any call, -1 until that discard.  Every
        seat sees it (the open-hand tenpai rates read it); counted from :attr:`drawn_discards`
        and :attr:`calls_at` as ``/discard`` counts it from an opponent's."""
        if not self.calls_at:
            return None
        if len(self.river) == self.calls_at[-1]:
            return -1
        return count_hand_discards_after_call(self.drawn_discards, self.calls_at)

    # The riichi family's names of the declaration's state, for its readers (advice, self-play).

    @property
    def riichi(self) -> int:
        """:attr:`declared`, by the riichi family's name."""
        return self.declared

    @property
    def double_riichi(self) -> bool:
        return self.double_declaration

    @property
    def riichi_turn(self) -> int | None:
        return self.declaration_turn

    @property
    def riichi_furiten(self) -> bool:
        return self.declaration_furiten

    @property
    def known(self) -> bool:
        return self.counts[UNKNOWN] == 0

    @property
    def size(self) -> int:
        return sum(self.counts)

    def kind_counts(self) -> bytes:
        """The concealed tiles by kind (a red five counted as its five; unknown tiles left out)."""
        counts = self.counts
        kinds = bytearray(counts[:NUM_TILE_KINDS])
        for red, kind in _RED_KINDS:
            if counts[red]:
                kinds[kind] += counts[red]
        return bytes(kinds)

    def hand(self) -> Hand:
        hand = self.hand_cache
        if hand is None:
            melds = self.melds_cache
            if melds is None:
                melds = self.melds_cache = tuple(meld.as_meld() for meld in self.melds)
            hand = self.hand_cache = Hand(self.kind_counts(), melds)
        return hand

    @property
    def closed(self) -> bool:
        return all(meld.kind == "ankan" for meld in self.melds)


class WinScore(Protocol):
    """A scorer's answer, as the table reads it: each seat's payment (the rest is the family's)."""

    @property
    def payments(self) -> tuple[int, ...]: ...


@dataclass(frozen=True, slots=True)
class Win:
    """A win the table scored: who, from whom, the score and the seat deltas (sticks included)."""

    winner: int
    target: int
    tile: int
    #: The family's scorer's answer; None for a win of fixed value.
    score: WinScore | None
    deltas: tuple[int, ...]
    liable: int | None = None

    @property
    def han(self) -> int | None:
        """The han of a scorer that counts han (13 and up: yakuman); None under other scoring."""
        han: int | None = getattr(self.score, "han", None)
        return han

    @property
    def fan(self) -> int | None:
        """The fans of a scorer that counts fans (flowers not counted, before a cap); None under other scoring."""
        fan: int | None = getattr(self.score, "fan", None)
        return fan
