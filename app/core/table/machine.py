"""The table machine: one game, one mjai event at a time, under the rules of one rule family.

Everything that plays or judges a game goes through this class: the referee
(:mod:`app.core.table.referee`), ``/act``, the bot process (``python -m app.mjai``)
and the self-play simulator.  It holds the state of the table, checks that each
event may happen (:meth:`TableMachine.apply` raises a :class:`Foul` with a stable
code when it may not), and answers, for any seat at any point, the exact set of
actions the rules allow (:meth:`TableMachine.legal_actions`).

The machine keeps what every family shares, each part switched by the table's data
(:class:`~app.core.table.play_rules.PlayRules`) where families differ:

* **Turns.** The dealer draws first; after a discard the seats may claim it: a
  win (ron) outranks a pon or an open kan, which outranks a chi (only by the next
  seat).  One seat wins a discard (the first after the discarder), or several where
  the table allows it.  After a chi or pon the caller discards without drawing (and,
  where the table forbids swap calls, not the tile it called nor, after a chi, the
  tile on the other side of the run: a call that would leave no other discard is not
  offered).  No call on the last discard of the wall; a kan needs a tile left to draw
  and at most four kans are made in a hand.
* **Furiten**, where the rules have it: no ron while a wait is in the seat's own river,
  after a winning tile went by since its own last discard, or, after a declaration,
  after a winning tile went by at all.
* **A declaration with a stick**, where the table has one: a closed hand, the stick's
  points, four tiles left to draw and a discard that keeps the hand ready; then the
  seat throws every tile it draws that does not win, a closed kan allowed only with
  the tile just drawn and only when it leaves the waits as they were.  The stick goes
  down (``reach_accepted``) once the declaring discard is not won on.
* **Indicators**, where the table has them: a closed kan shows its indicator at once,
  an open or added kan after its replacement draw, before the discard.  A robbed added
  kan may be won on by any ready seat; a closed kan only by thirteen orphans.
* **Tiles set aside** (flowers, a north where the table has kita) with a replacement draw;
  **dealing steps** before the first draw (passing three tiles, declaring a void suit);
  **play on** after a win, with kongs paid at once.
* **Draws.** Exhaustive when the last discard goes by; abortive ones where the family has them.

What a family decides (its dealing steps, which hands win and what they pay, its draws'
payments) it answers through its :class:`~app.core.table.family.Family`, given to the
constructor; each family's rules are told in its own folder of :mod:`app.core.families`.

Hands whose tiles a seat cannot see hold unknown tiles (``?``): the machine then
checks what it can (counts, turns) and answers legal actions only for seats whose
hands it knows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any, Final

from app.core.errors import TenpaiError
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind
from app.core.shape.rules import SEAT_COUNTS, RuleProfile
from app.core.shape.tiles import (
    COPIES,
    NORTH,
    NUM_TILE_KINDS,
    ORPHANS,
    WINDS,
    is_honor,
    quoted,
)
from app.core.shape.void_suit import SUIT_NAMES, SUITS, holds_suit
from app.core.table.family import DrawSettlementParts, Family
from app.core.table.flow import (
    AbortiveDraw,
    AbortiveDrawKind,
    ExhaustiveDraw,
    GameEnd,
    HandOutcome,
    RoundWind,
    TableRules,
    TableState,
    Wins,
    next_hand,
    tenhou_rules,
)
from app.core.table.mjai import (
    EXCHANGED,
    FIRST_FLOWER,
    TABLE_TILES,
    UNKNOWN,
    Event,
    MalformedEvent,
    action_key,
    action_object,
    is_flower,
    kind_of,
    parse_pai,
    read_event,
    red_of,
    tile_name,
)
from app.core.table.play_rules import PlayRules
from app.core.table.seats import MELD_KIND, KongPayment, SeatState, TableMeld, Win
from app.core.value.scoring import REFUSALS, win_payments
from app.core.value.scoring_context import WinContext

#: Tiles in the dead wall: the replacement draws and the dora indicators.
DEAD_WALL: Final = 14
HAND_SIZE: Final = 13
#: Points of a declaration's stick.
DECLARATION_STICK: Final = 1000
#: Draws a declaration needs left in the wall.
DECLARATION_MIN_DRAWS: Final = 4
MAX_KANS: Final = 4
#: Per seat (a table seats at most four), the discard of each tile from the hand and as the
#: tile just drawn (tsumogiri).
_DISCARDS: Final = tuple(
    tuple(tuple(Event("dahai", seat, None, tile, (), drawn) for tile in range(UNKNOWN)) for drawn in (False, True))
    for seat in range(max(SEAT_COUNTS))
)


class NoTable(TenpaiError):
    """Rules the table machine has no table for: the family it was given plays other presets."""

    code = "unsupported_rules"


class Foul(TenpaiError):
    """An event a Tenhou-rules table would not allow; ``code`` says which rule it breaks.

    Codes: ``out_of_turn``, ``tile_not_held``, ``illegal_action`` (an action the seat is
    not offered), ``kuikae``, ``furiten``, ``not_a_win``, ``not_ready`` (a declaration),
    ``missing_dora``, ``unexpected_event``, ``too_many_copies``, ``wrong_start``,
    ``wall_exhausted``; of the dealing steps and play on: ``bad_exchange`` (not three tiles of one suit, or not the
    hand's one direction), ``void_suit_first`` (a discard outside the void suit while holding
    one of it), ``void_suit_called`` (a pon or kong of the void suit), ``seat_left`` (a seat
    that has won and left the hand acts).
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(slots=True)
class HandResult:
    """How a hand ended: its wins, or the kind of draw, and the deltas the table computed."""

    kyoku: int
    bakaze: int
    honba: int
    oya: int
    kind: str  # "hora", or a draw: "exhaustive" or an abortive draw's kind (flow.AbortiveDrawKind)
    deltas: list[int]
    wins: list[Win] = field(default_factory=list)
    #: Every winner in order, also those whose hands the table could not see (no :class:`Win`).
    winners: list[int] = field(default_factory=list)
    tenpai: tuple[bool, ...] = ()
    nagashi: tuple[int, ...] = ()
    logged_deltas: list[int] | None = None
    #: Declaration sticks on the table when the hand ended (taken by the winner, or left).
    kyotaku: int = 0
    #: The ``ryukyoku`` event's own deltas where they are not the whole hand's (a play-on table:
    #: the kong payments not yet logged and the draw's settlement); None: ``deltas``.
    draw_deltas: list[int] | None = None
    #: Play-on tables, at an exhaustive draw: the seats holding a void-suit tile (花猪).
    flower_pigs: tuple[int, ...] = ()
    #: Play-on tables, at an exhaustive draw: the settlement, rule by rule.
    settlement: DrawSettlementParts | None = None

    def outcome(self) -> HandOutcome:
        """The hand's ending in the terms of :func:`~app.core.table.flow.next_hand`."""
        if self.kind == "hora":
            return Wins(tuple(self.winners))
        if self.kind == "exhaustive":
            return ExhaustiveDraw(self.tenpai, self.nagashi)
        return AbortiveDraw(AbortiveDrawKind(self.kind))


class TableMachine:
    """One game: apply mjai events, ask for legal actions.  See the module notes."""

    def __init__(
        self, rules: RuleProfile, family: Family, *, table: TableRules | None = None, red_fives: int = 1
    ) -> None:
        self.rules = rules
        if rules.name not in family.presets:
            raise NoTable(
                f"the {family.name} table plays {', '.join(family.presets)}; rules {rules.name!r} are not among them",
                field="rules",
            )
        #: The rule family: the hooks where the table's rules part from the shared ones.
        self.family = family
        play = family.play_rules(rules)
        #: How the table runs beyond the hand rules (declarations, indicators, flowers, play on, ...).
        self.play: PlayRules = play
        #: The rules between hands and of the payments beyond a win's (noten, nagashi, pao).
        self.table = table if table is not None else tenhou_rules(seats=rules.seats)
        self.seats = rules.seats
        #: The rules the table was opened with; :attr:`rules` are the hand's (a family whose
        #: wildcards an indicator chooses changes them at each deal).
        self.table_rules = rules
        self._checkers: dict[RuleProfile, Checker] = {}
        self.checker = Checker(rules)
        self.red_fives = red_fives if play.red_fives else 0
        self.wall_tiles = (NUM_TILE_KINDS - len(rules.absent_tiles)) * COPIES + play.flowers
        self.scores = [0] * self.seats
        self.game_started = False
        self.game_over = False
        self.hand_open = False
        self.results: list[HandResult] = []
        self.events_applied = 0
        #: Apply events without checking them (the referee re-applies an event it found a foul
        #: in this way, to go on judging the rest of the game).
        self.lenient = False
        #: Answers asked at the point of the game the machine is at (legal actions, claims), kept
        #: until the next event: a decision, the draw check and the event's own check ask the same
        #: questions.  Every change of the state goes through :meth:`apply`, which empties it.
        self._asked: dict[tuple[str, int], list[Event]] = {}
        self._reset_hand()

    # ------------------------------------------------------------------ state

    def _reset_hand(self) -> None:
        n = self.seats
        self._asked.clear()
        self.players = [SeatState() for _ in range(n)]
        self.bakaze = WINDS[0]
        self.kyoku = 1
        self.honba = 0
        self.kyotaku = 0
        self.oya = 0
        self.dora_markers: list[int] = []
        #: The tile turned at the deal that chose this hand's wildcards (None: no such turn).
        self.wildcard_indicator: int | None = None
        #: Tile kinds the family's rules never let a seat discard this hand.
        self.kept_kinds: frozenset[int] = frozenset()
        self.live_left = 0
        #: "idle" (between hands), "draw" (a seat is to draw), "act" (a seat is to act after
        #: its draw or call), "claim" (a discard or added kan may be claimed), "won", "over".
        self.phase = "idle"
        self.turn = 0
        self.after = "tsumo"  # what the seat in "act" acts after: tsumo, rinshan, chi, pon, reach
        self.rinshan_next = False
        #: The replacement draw due is for a flower (no kong-replacement win on it).
        self.flower_replacement = False
        self.claim_tile = 0
        self.claim_source = "dahai"
        self.ron_closed = False
        self.dora_now = 0
        self.dora_later = 0
        self.kans = 0
        self.kan_seats: set[int] = set()
        self.interrupted = False
        self.first_discards: list[int] = []
        self.seen = [0] * TABLE_TILES
        self.result: HandResult | None = None
        self.hora_seats: list[int] = []
        #: Play-on tables: the seats that won the claimable tile now (一炮多响), in log order.
        self.claim_winners: list[int] = []
        #: The exchange before the first draw: the offset from a receiving seat to the seat it receives from.
        self.exchange_offset: int | None = None
        #: Kong payments of the hand, in order (刮风下雨).
        self.kong_payments: list[KongPayment] = []
        #: Kong payments made but not yet carried by a logged ``hora`` or ``ryukyoku``.
        self.unlogged = [0] * n
        #: Whether the claimable discard follows a kong its seat made since its last draw from
        #: the front (杠上炮: a win on it takes that seat's kong income, 呼叫转移).
        self.after_kong_discard = False

    def seat_wind(self, seat: int) -> int:
        return WINDS[(seat - self.oya) % self.seats]

    def hand_shanten(self, seat: int) -> int:
        """The shanten of the seat's known hand (:meth:`Checker.shanten_number
        <app.core.shape.engine.Checker.shanten_number>`), asked once per hand it holds: the
        declaration check, the waits and self-play's record ask it of the same hand."""
        player = self.players[seat]
        hand = player.hand()
        cached = player.shanten_cache
        if cached is not None and cached[0] is hand:
            return cached[1]
        shanten = self.checker.shanten_number(hand)
        player.shanten_cache = (hand, shanten)
        return shanten

    # ------------------------------------------------------------------ events

    def apply_object(self, obj: Mapping[str, Any], index: int | None = None) -> None:
        """Read and apply one mjai object (see :meth:`apply`); a malformed one is named at ``events[index]``."""
        index = self.events_applied if index is None else index
        event = read_event(obj, index, self.seats)
        try:
            self.apply(event)
        except MalformedEvent as error:
            raise error.of_event(index) from None

    def apply(self, event: Event) -> None:
        """Apply one event, or raise :class:`Foul` (the state is then unchanged) or
        :class:`~app.core.table.mjai.MalformedEvent`."""
        handler = getattr(self, f"_on_{event.kind}")
        try:
            handler(event)
        finally:
            # Asked before the event changed the state (its own check reads them): stale now.
            self._asked.clear()
        self.events_applied += 1

    def _expect(self, condition: bool, code: str, message: str) -> None:
        if not condition and not self.lenient:
            raise Foul(code, message)

    def _on_none(self, event: Event) -> None:
        raise Foul("unexpected_event", "'none' is an answer of a seat, not an event of the game")

    def _on_start_game(self, event: Event) -> None:
        self._expect(not self.game_started, "unexpected_event", "the game has already started")
        self.game_started = True

    def _on_end_game(self, event: Event) -> None:
        self._expect(self.phase == "idle", "unexpected_event", "end_game in the middle of a hand")
        self.game_over = True
        self.phase = "over"

    def _on_start_kyoku(self, event: Event) -> None:
        self._expect(self.phase == "idle" and not self.game_over, "unexpected_event", "start_kyoku inside a hand")
        raw = event.raw
        n = self.seats
        # Fields are named within the event; whoever knows its index roots them there.
        bakaze = parse_pai(raw.get("bakaze"), "bakaze")
        if bakaze not in WINDS:
            raise MalformedEvent(f"the round wind is E, S, W or N, got {tile_name(bakaze)}", field="bakaze")
        ints = {}
        for key, low, high in (("kyoku", 1, 4), ("honba", 0, 1000), ("kyotaku", 0, 1000), ("oya", 0, n - 1)):
            value = raw.get(key)
            if type(value) is not int or not low <= value <= high:
                raise MalformedEvent(f"must be an integer {low}..{high}, got {quoted(value)}", field=key)
            ints[key] = value
        scores = raw.get("scores")
        if not isinstance(scores, list) or len(scores) != n or any(type(s) is not int for s in scores):
            raise MalformedEvent(f"must be {n} integers, got {quoted(scores)}", field="scores")
        tehais = raw.get("tehais")
        if not isinstance(tehais, list) or len(tehais) != n:
            raise MalformedEvent(f"must be {n} hands of 13 tiles", field="tehais")
        hands = []
        for seat, tehai in enumerate(tehais):
            if not isinstance(tehai, list) or len(tehai) != HAND_SIZE:
                raise MalformedEvent(f"a hand is dealt 13 tiles, got {quoted(tehai)}", field=f"tehais[{seat}]")
            hands.append([parse_pai(tile, f"tehais[{seat}][{i}]") for i, tile in enumerate(tehai)])
        marker = parse_pai(raw.get("dora_marker"), "dora_marker") if self.play.dora else None
        if not self.play.dora and raw.get("dora_marker") is not None:
            raise MalformedEvent(f"{self.rules.name} shows no dora indicator", field="dora_marker")
        dealt_flowers = self._dealt_flowers(raw.get("flowers"))
        indicator = None
        if self.family.indicates_wildcards(self.table_rules):
            indicator = parse_pai(raw.get("wildcard_indicator"), "wildcard_indicator")
        elif raw.get("wildcard_indicator") is not None:
            raise MalformedEvent(
                f"{self.table_rules.name} turns no tile to choose wildcards", field="wildcard_indicator"
            )
        hand_rules = self.family.hand_rules(self.table_rules, None if indicator is None else kind_of(indicator))
        if hand_rules != self.rules:
            # Each hand's wildcards are the indicator's: the hand's shape checks read them.
            self.rules = hand_rules
            self.checker = self._checkers.setdefault(hand_rules, Checker(hand_rules))
        wildcards = raw.get("wildcards")
        if wildcards is not None:
            named = (
                sorted(kind_of(parse_pai(tile, f"wildcards[{i}]")) for i, tile in enumerate(wildcards))
                if isinstance(wildcards, list)
                else None
            )
            if named != sorted(self.rules.wildcards):
                shown = [tile_name(tile) for tile in self.rules.wildcards]
                raise MalformedEvent(f"{self.rules.name}'s wildcards are {shown}", field="wildcards")
        previous_scores = list(self.scores)
        started = self.game_started or bool(self.results)
        self._reset_hand()
        self.bakaze = bakaze
        self.kyoku, self.honba, self.kyotaku, self.oya = ints["kyoku"], ints["honba"], ints["kyotaku"], ints["oya"]
        self.scores = list(scores)
        self.game_started = True
        self.live_left = self.wall_tiles - self.play.dead_wall - HAND_SIZE * n
        for seat, tiles in enumerate(hands):
            for place, tile in enumerate(tiles):
                if is_flower(tile):
                    raise MalformedEvent(
                        "a flower dealt is set aside (start_kyoku.flowers) and replaced",
                        field=f"tehais[{seat}][{place}]",
                    )
                self.players[seat].counts[tile] += 1
                self.players[seat].hand_cache = None
                self._see(tile)
        for seat, flowers in enumerate(dealt_flowers):
            for flower in flowers:
                self._see(flower)
                self.players[seat].flowers.append(flower)
                self.live_left -= 1  # its replacement came from the wall
        if marker is not None:
            self._see(marker)
        if indicator is not None:
            self._see(indicator)
        self.wildcard_indicator = indicator
        self.kept_kinds = self.family.kept_in_hand(self.rules)
        self.dora_markers = [] if marker is None else [marker]
        self.phase = self.family.first_phase(self.rules)
        self.turn = self.oya
        self.hand_open = True
        self.previous_scores = previous_scores if started else None

    def _dealt_flowers(self, value: object) -> list[list[int]]:
        if value is None:
            return [[] for _ in range(self.seats)]
        if not isinstance(value, list) or len(value) != self.seats or not all(isinstance(v, list) for v in value):
            raise MalformedEvent(f"{self.seats} lists of flowers (H1-H8), one per seat", field="flowers")
        out = [
            [parse_pai(tile, f"flowers[{seat}][{place}]") for place, tile in enumerate(flowers)]
            for seat, flowers in enumerate(value)
        ]
        if any(not is_flower(tile) for flowers in out for tile in flowers) or (any(out) and not self.play.flowers):
            raise MalformedEvent("only flowers (H1-H8), and only where the rules have them", field="flowers")
        return out

    # ------------------------------------------------------------ before the first draw (exchange, void suit)

    def _on_exchange_out(self, event: Event) -> None:
        seat = event.actor
        assert seat is not None
        player = self.players[seat]
        self._expect(
            self.phase == "exchange", "out_of_turn", f"seat {seat} cannot pass tiles while {self._waiting_for()}"
        )
        self._expect(player.exchanged is None, "illegal_action", f"seat {seat} has already passed its three tiles")
        self._expect(
            self._holds(seat, event.consumed),
            "tile_not_held",
            f"seat {seat} does not hold {' '.join(tile_name(t) for t in event.consumed)}",
        )
        shown = [kind_of(tile) for tile in event.consumed if tile != UNKNOWN]
        self._expect(
            len({kind // 9 for kind in shown}) <= 1,
            "bad_exchange",
            f"seat {seat} passes {' '.join(tile_name(t) for t in event.consumed)}: the three tiles are of one suit",
        )
        self._require_legal(event)
        for tile in event.consumed:
            self._take(seat, tile)
        player.exchanged = tuple(event.consumed)
        player.waits_cache = None
        if all(p.exchanged is not None for p in self.players):
            self.phase = "exchange_in"

    def _on_exchange_in(self, event: Event) -> None:
        seat, target = event.actor, event.target
        assert seat is not None and target is not None
        player = self.players[seat]
        self._expect(
            self.phase == "exchange_in", "out_of_turn", f"seat {seat} cannot receive tiles while {self._waiting_for()}"
        )
        self._expect(not player.received, "illegal_action", f"seat {seat} has already received its three tiles")
        offset = (target - seat) % self.seats
        self._expect(offset != 0, "bad_exchange", f"seat {seat} cannot receive its own tiles")
        self._expect(
            self.exchange_offset in (None, offset),
            "bad_exchange",
            f"seat {seat} receives from seat {target}, but this hand's tiles pass "
            f"from seat s+{self.exchange_offset} to seat s (one direction for every seat)",
        )
        passed = self.players[target].exchanged or ()
        received = [tile for tile in event.consumed if tile != UNKNOWN]
        if UNKNOWN not in passed and len(received) == EXCHANGED:
            self._expect(
                sorted(received) == sorted(passed),
                "bad_exchange",
                f"seat {seat} receives {' '.join(tile_name(t) for t in received)}, but seat {target} passed "
                f"{' '.join(tile_name(t) for t in passed)}",
            )
        self.exchange_offset = offset
        for tile in event.consumed:
            if tile != UNKNOWN and UNKNOWN in passed:
                self._see(tile)  # passed by a hand this view could not see: new to the table
            player.counts[tile] += 1
        player.received = True
        self.players[target].given = True
        player.hand_cache = None
        player.waits_cache = None
        if all(p.received for p in self.players):
            self.phase = "void"

    def _on_void_suit(self, event: Event) -> None:
        seat = event.actor
        assert seat is not None and event.suit is not None
        player = self.players[seat]
        self._expect(
            self.phase == "void", "out_of_turn", f"seat {seat} cannot declare its void suit while {self._waiting_for()}"
        )
        self._expect(player.void is None, "illegal_action", f"seat {seat} has already declared its void suit")
        player.void = event.suit
        player.waits_cache = None
        if all(p.void is not None for p in self.players):
            self.phase = "draw"
            self.turn = self.oya

    def holds_void(self, seat: int) -> bool:
        """Whether the seat holds a tile of its void suit (concealed or melded): it cannot win."""
        player = self.players[seat]
        return player.void is not None and holds_suit(player.hand(), player.void)

    def _see(self, tile: int) -> None:
        """A tile enters the table (dealt, drawn, shown): no kind has more than four copies."""
        if tile == UNKNOWN:
            return
        self.seen[tile] += 1
        if is_flower(tile):
            if not self.lenient and (self.seen[tile] > 1 or tile - FIRST_FLOWER >= self.play.flowers):
                raise Foul("too_many_copies", f"{tile_name(tile)} is not in the wall, or came twice")
            return
        kind = kind_of(tile)
        red = red_of(kind)
        copies = self.seen[kind] + (self.seen[red] if red is not None else 0)
        if self.lenient:
            return
        if copies > COPIES:
            raise Foul("too_many_copies", f"a fifth {tile_name(kind)} came to the table")
        if red is not None and self.seen[red] > self.red_fives:
            raise Foul("too_many_copies", f"more red {tile_name(kind)}s than the set has ({self.red_fives})")
        if red is not None and self.seen[kind] > COPIES - self.red_fives:
            raise Foul("too_many_copies", f"more plain {tile_name(kind)}s than the set has with its red fives")
        if kind in self.rules.absent_tiles:
            raise Foul("too_many_copies", f"{tile_name(kind)} is not in the set of these rules")

    def _take(self, seat: int, tile: int) -> None:
        """Remove ``tile`` from the seat's concealed tiles (an unknown tile stands for any)."""
        player = self.players[seat]
        player.hand_cache = None
        counts = player.counts
        if counts[tile] > 0:
            counts[tile] -= 1
        elif counts[UNKNOWN] > 0:
            counts[UNKNOWN] -= 1
            self._see(tile)
        elif not self.lenient:
            raise Foul("tile_not_held", f"seat {seat} does not hold {tile_name(tile)}")

    def _holds(self, seat: int, tiles: Sequence[int]) -> bool:
        counts = self.players[seat].counts
        need: dict[int, int] = {}
        for tile in tiles:
            need[tile] = need.get(tile, 0) + 1
        missing = sum(max(0, wanted - counts[tile]) for tile, wanted in need.items())
        return missing <= counts[UNKNOWN]

    def _on_tsumo(self, event: Event) -> None:
        seat = event.actor
        assert seat is not None and event.pai is not None
        self._settle_claims(event)
        self._expect(self.phase == "draw", "out_of_turn", f"seat {seat} draws while {self._waiting_for()}")
        self._expect(seat == self.turn, "out_of_turn", f"seat {seat} draws in seat {self.turn}'s turn")
        self._expect(self.dora_now == 0, "missing_dora", "the kan's dora indicator was not shown before the draw")
        self._expect(self.live_left > 0, "wall_exhausted", "no tile is left to draw")
        self._expect(not self.players[seat].left, "seat_left", f"seat {seat} has won and left the hand")
        self._see(event.pai)
        player = self.players[seat]
        player.counts[event.pai] += 1
        player.hand_cache = None
        player.drawn = event.pai
        player.forbidden = frozenset()
        self.turn = seat
        self.live_left -= 1
        self.after = "rinshan" if self.rinshan_next and not self.flower_replacement else "tsumo"
        if not self.rinshan_next:
            player.turn_kongs.clear()  # a draw from the front: no kong stands behind the next discard
        self.rinshan_next = False
        self.flower_replacement = False
        self.phase = "act"

    def _waiting_for(self) -> str:
        if self.phase == "act":
            return f"seat {self.turn} is to act"
        if self.phase == "draw":
            return f"seat {self.turn} is to draw"
        if self.phase == "claim":
            return f"seat {self.turn}'s {self.claim_source} may be claimed"
        return {"idle": "no hand is being played", "won": "the hand is won", "over": "the game is over"}.get(
            self.phase, self.phase
        )

    # --------------------------------------------------------------- the seat's turn

    def _actor_in_turn(self, event: Event) -> SeatState:
        seat = event.actor
        assert seat is not None
        self._expect(self.phase == "act", "out_of_turn", f"seat {seat} cannot {event.kind} while {self._waiting_for()}")
        self._expect(seat == self.turn, "out_of_turn", f"seat {seat} cannot {event.kind} in seat {self.turn}'s turn")
        return self.players[seat]

    def _require_legal(self, event: Event) -> None:
        seat = event.actor
        assert seat is not None
        if not self.players[seat].known or self.lenient:
            return
        legal = self._legal(seat)
        # The same fields (``raw`` aside) are the same action; else compare as actions, where
        # ``consumed`` is a set.
        fields = event[:6]
        if any(action[:6] == fields and action.suit == event.suit for action in legal):
            return
        key = action_key(event)
        if any(action_key(action) == key for action in legal):
            return
        raise Foul(*self._why_illegal(event))

    def _on_dahai(self, event: Event) -> None:
        player = self._actor_in_turn(event)
        seat, tile = event.actor, event.pai
        assert seat is not None and tile is not None
        self._expect(
            self.dora_now == 0 and self.dora_later == 0,
            "missing_dora",
            "the kan's dora indicator was not shown before the discard",
        )
        self._expect(
            self._holds(seat, [tile]),
            "tile_not_held",
            f"seat {seat} discards {tile_name(tile)}, which it does not hold",
        )
        # Refused whether or not the seat's hand is known: behind a hidden hand the holding
        # check passes, and a flower in the river is no tile any seat can claim or win on.
        self._expect(
            not is_flower(tile),
            "illegal_action",
            f"seat {seat} discards the flower {tile_name(tile)}: a flower is set aside (flower), never discarded",
        )
        if event.tsumogiri and player.drawn not in (None, UNKNOWN) and tile not in (player.drawn, UNKNOWN):
            raise Foul(
                "illegal_action", f"tsumogiri of {tile_name(tile)}, but seat {seat} drew {tile_name(player.drawn)}"
            )
        self._require_legal(event)
        self._take(seat, tile)
        kind = kind_of(tile)
        player.river.append(tile)
        player.drawn_discards.append(event.tsumogiri)
        player.passed_since_discard = []
        for other in self.players:
            if other is not player:
                other.passed_since_discard.append(kind)
        if kind not in ORPHANS:
            player.nagashi = False
        if player.declared == 2:
            player.ippatsu = False
        if player.declared == 1 and self.after == "reach":
            # The declaring discard (its position, for the safety reads); the stick goes down
            # once it is not won on.
            player.declaration_turn = len(player.river)
        elif player.declared == 0:
            player.temporary_furiten = False
        if not player.discarded:
            player.discarded = True
            if not self.interrupted:
                self.first_discards.append(kind)
        else:
            self.first_discards.append(-1)
        paid = self.family.payment_after_discard(self)
        if paid is not None:
            self._book(paid)
        player.drawn = None
        player.forbidden = frozenset()
        player.waits_cache = None
        self.after_kong_discard = bool(player.turn_kongs)
        player.turn_kongs.clear()
        self.phase = "claim"
        self.claim_tile = tile
        self.claim_source = "dahai"
        self.ron_closed = False
        self.claim_winners = []

    def _on_reach(self, event: Event) -> None:
        player = self._actor_in_turn(event)
        self._require_legal(event)
        seat = event.actor
        assert seat is not None
        player.declared = 1
        player.double_declaration = not player.discarded and not self.interrupted
        self.after = "reach"

    def _on_reach_accepted(self, event: Event) -> None:
        seat = event.actor
        self._expect(
            seat is not None and self.phase == "claim" and self.turn == seat and self._declaration_waiting(),
            "unexpected_event",
            f"seat {seat} has no {self.family.declaration} declaration waiting",
        )
        assert seat is not None
        player = self.players[seat]
        player.declared = 2
        player.ippatsu = True
        self.ron_closed = True
        self.scores[seat] -= DECLARATION_STICK
        self.kyotaku += 1

    def _on_chi(self, event: Event) -> None:
        self._call(event)

    def _on_pon(self, event: Event) -> None:
        self._call(event)

    def _on_daiminkan(self, event: Event) -> None:
        self._call(event)

    def _call(self, event: Event) -> None:
        seat, target, tile = event.actor, event.target, event.pai
        assert seat is not None and target is not None and tile is not None
        self._settle_reach_before_call(event)
        self._expect(
            self.phase == "claim" and self.claim_source == "dahai",
            "out_of_turn",
            f"seat {seat} cannot {event.kind}: no discard may be claimed ({self._waiting_for()})",
        )
        self._expect(
            target == self.turn,
            "illegal_action",
            f"seat {seat} calls seat {target}'s tile, but the last discard is seat {self.turn}'s",
        )
        self._expect(
            tile == self.claim_tile or UNKNOWN in (tile, self.claim_tile),
            "illegal_action",
            f"seat {seat} calls {tile_name(tile)}, but the last discard is {tile_name(self.claim_tile)}",
        )
        self._expect(
            self._holds(seat, event.consumed),
            "tile_not_held",
            f"seat {seat} does not hold {' '.join(tile_name(t) for t in event.consumed)} for its {event.kind}",
        )
        # What every seat sees of a call, checked even where the caller's hand is hidden (where
        # the legal actions below cannot be asked): the meld's shape, and who may chi.
        shown = (*event.consumed, tile)
        self._expect(
            self._is_meld(event.kind, shown)
            and (event.kind != "chi" or (self.rules.chi_allowed and seat == (target + 1) % self.seats)),
            "illegal_action",
            f"seat {seat} cannot {event.kind} {' '.join(tile_name(t) for t in shown)} from seat {target}",
        )
        self._require_legal(event)
        self._passed_by(exclude={seat})
        for consumed in event.consumed:
            self._take(seat, consumed)
        caller = self.players[seat]
        caller.calls_at.append(len(caller.river))
        discarder = self.players[target]
        discarder.nagashi = False
        discarder.called_away.add(len(discarder.river) - 1)
        meld = TableMeld(event.kind, (*event.consumed, tile), target, tile)
        caller.melds.append(meld)
        caller.hand_cache = caller.melds_cache = None
        self.family.note_call(self, seat, target, meld)
        caller.waits_cache = None
        self._interrupt()
        self.turn = seat
        if event.kind == "daiminkan":
            self._kan(seat)
            self._pay_kong(seat, "daiminkan", target)
            self.dora_later += self.play.dora
            self.phase = "draw"
            self.rinshan_next = True
        else:
            self.phase = "act"
            self.after = event.kind
            caller.drawn = None
            caller.forbidden = self._call_forbids(event.kind, tile, event.consumed)

    def _call_forbids(self, kind: str, tile: int, consumed: Sequence[int]) -> frozenset[int]:
        return self._kuikae(kind, tile, consumed) if self.play.kuikae else frozenset()

    def _kuikae(self, kind: str, tile: int, consumed: Sequence[int]) -> frozenset[int]:
        called = kind_of(tile)
        forbidden = {called}
        if kind == "chi":
            low = min(kind_of(t) for t in consumed)
            high = max(kind_of(t) for t in consumed)
            number = called % 9
            if called < low and number + 3 <= 8:
                forbidden.add(called + 3)
            elif called > high and number - 3 >= 0:
                forbidden.add(called - 3)
        return frozenset(forbidden)

    def _interrupt(self) -> None:
        self.interrupted = True
        for player in self.players:
            player.ippatsu = False

    def _kan(self, seat: int) -> None:
        self.kans += 1
        self.kan_seats.add(seat)

    def _on_kakan(self, event: Event) -> None:
        player = self._actor_in_turn(event)
        seat, tile = event.actor, event.pai
        assert seat is not None and tile is not None
        self._expect(self.after in ("tsumo", "rinshan"), "illegal_action", f"seat {seat} cannot kan right after a call")
        self._require_legal(event)
        pon = next((m for m in player.melds if m.kind == "pon" and m.kind_tile == kind_of(tile)), None)
        self._expect(pon is not None, "illegal_action", f"seat {seat} has no pon of {tile_name(kind_of(tile))}")
        assert pon is not None
        self._take(seat, tile)
        pon.kind = "kakan"
        pon.tiles = (*pon.tiles, tile)
        player.hand_cache = player.melds_cache = None
        player.drawn = None
        player.waits_cache = None
        # The kan stands (and ends every ippatsu) only once nobody robs it: chankan keeps ippatsu.
        self._kan(seat)
        self.dora_now += self.dora_later
        self.dora_later = int(self.play.dora)
        self.phase = "claim"
        self.claim_tile = tile
        self.claim_source = "kakan"
        self.ron_closed = False
        self.claim_winners = []

    def _on_ankan(self, event: Event) -> None:
        player = self._actor_in_turn(event)
        seat = event.actor
        assert seat is not None
        self._expect(self.after in ("tsumo", "rinshan"), "illegal_action", f"seat {seat} cannot kan right after a call")
        self._expect(
            self._holds(seat, event.consumed),
            "tile_not_held",
            f"seat {seat} does not hold {' '.join(tile_name(t) for t in event.consumed)}",
        )
        self._expect(
            self._is_meld("ankan", event.consumed),
            "illegal_action",
            f"{' '.join(tile_name(t) for t in event.consumed)} is no closed kan",
        )
        self._require_legal(event)
        for tile in event.consumed:
            self._take(seat, tile)
        player.melds.append(TableMeld("ankan", tuple(event.consumed)))
        player.hand_cache = player.melds_cache = None
        player.drawn = None
        player.waits_cache = None
        self._interrupt()
        self._kan(seat)
        self._pay_kong(seat, "ankan")
        self.dora_now += self.dora_later + self.play.dora
        self.dora_later = 0
        kind = kind_of(event.consumed[0])
        if any(self._can_rob_closed_kan(other, kind) for other in range(self.seats) if other != seat):
            self.phase = "claim"
            self.claim_tile = event.consumed[0]
            self.claim_source = "ankan"
            self.ron_closed = False
        else:
            self.phase = "draw"
            self.rinshan_next = True

    def _on_kita(self, event: Event) -> None:
        self._set_aside(event).kita += 1

    def _on_flower(self, event: Event) -> None:
        player = self._set_aside(event)
        assert event.pai is not None
        player.flowers.append(event.pai)
        self.flower_replacement = True

    def _set_aside(self, event: Event) -> SeatState:
        """A tile set aside face up (a north where the table has kita, a flower): out of the hand, and the
        seat draws a replacement from the back of the wall, as after a kan."""
        player = self._actor_in_turn(event)
        seat, tile = event.actor, event.pai
        assert seat is not None and tile is not None
        self._require_legal(event)
        self._take(seat, tile)
        player.drawn = None
        player.waits_cache = None
        self.phase = "draw"
        self.rinshan_next = True
        return player

    def _on_dora(self, event: Event) -> None:
        assert event.pai is not None
        if not self.play.dora:
            raise Foul("unexpected_event", f"{self.rules.name} has no dora")
        if self.dora_now > 0:
            self.dora_now -= 1
        elif self.dora_later > 0 and self.phase == "act" and self.after == "rinshan":
            self.dora_later -= 1
        else:
            raise Foul("unexpected_event", "no kan is waiting for its dora indicator")
        self._see(event.pai)
        self.dora_markers.append(event.pai)

    # --------------------------------------------------------------- claims

    def _settle_reach_before_call(self, event: Event) -> None:
        """A call of a declaring discard comes after its reach_accepted."""
        if self.phase == "claim" and self._declaration_waiting():
            raise Foul("unexpected_event", f"reach_accepted for seat {self.turn} must come before the call")

    def _passed_by(self, exclude: Iterable[int] = ()) -> None:
        """The claimable tile went by: every seat that could have won on it is furiten."""
        if self.phase != "claim" or not self.rules.furiten:
            return
        skip = set(exclude) | {self.turn}
        kind = kind_of(self.claim_tile)
        for seat, player in enumerate(self.players):
            if seat in skip or not player.known:
                continue
            if self.claim_source == "ankan" and not self._can_rob_closed_kan(seat, kind):
                continue
            if kind in self._waits(seat):
                if player.declared:
                    player.declaration_furiten = True
                else:
                    player.temporary_furiten = True

    def _settle_claims(self, event: Event) -> None:
        """A draw after a claim window: nobody claimed; the declaration's stick, if any, is down."""
        if self.phase != "claim":
            return
        self._expect(
            not self._declaration_waiting(),
            "unexpected_event",
            f"reach_accepted for seat {self.turn} must come before the next draw",
        )
        self._passed_by()
        if self.claim_winners:
            # Play-on: the tile was won (一炮多响: by one seat or more); play passes to the seat
            # after the last winner in turn order from the discarder, with no replacement draw
            # for a robbed kong.
            self.turn = self.next_drawer()
            self.phase = "draw"
            self.rinshan_next = False
            self.claim_winners = []
            self._expect(self.live_left > 0, "wall_exhausted", "the wall is exhausted: the hand is a draw")
            return
        if self.claim_source == "dahai":
            # Only at tables that have abortive draws (draw_kind's rule): elsewhere four winds
            # or four kans are no end of the hand, and play goes on.
            self._expect(
                not self.play.abortive_draws or not self.family.aborts_when_unclaimed(self),
                "unexpected_event",
                "the hand is an abortive draw here",
            )
            self.turn = self._next_in(self.turn)
            self.phase = "draw"
            self._expect(self.live_left > 0, "wall_exhausted", "the wall is exhausted: the hand is a draw")
        else:
            if self.claim_source == "kakan":
                self._interrupt()
                self._pay_kong(self.turn, "kakan")  # it stands: nobody robbed it
            self.phase = "draw"
            self.rinshan_next = True

    def _next_in(self, seat: int) -> int:
        """The first seat after ``seat`` still in the hand (every seat, but on a play-on table)."""
        for offset in range(1, self.seats + 1):
            after = (seat + offset) % self.seats
            if not self.players[after].left:
                return after
        return (seat + 1) % self.seats

    def in_hand(self) -> tuple[int, ...]:
        """The seats still in the hand: every seat but those that won and left (血战到底)."""
        return tuple(seat for seat, player in enumerate(self.players) if not player.left)

    def next_drawer(self) -> int:
        """Who draws once the claimable tile goes unclaimed: the next seat still in after the
        discarder (after the last winner when it was won), or the kong's seat (its replacement)."""
        if self.claim_winners:
            last = max(self.claim_winners, key=lambda winner: (winner - self.turn) % self.seats)
            return self._next_in(last)
        return self._next_in(self.turn) if self.claim_source == "dahai" else self.turn

    def _open_result(self) -> HandResult:
        if self.result is None:
            self.result = HandResult(
                self.kyoku, self.bakaze, self.honba, self.oya, "hora", [0] * self.seats, kyotaku=self.kyotaku
            )
        return self.result

    def _pay_kong(self, seat: int, kind: str, discarder: int | None = None) -> None:
        """A kong's payment at once (刮风下雨), where the table has one: the discarder of an open
        kong's tile, or each other seat still in; carried by the next ``hora`` or ``ryukyoku``."""
        amount = {
            "daiminkan": self.play.open_kong_payment,
            "kakan": self.play.added_kong_payment,
            "ankan": self.play.closed_kong_payment,
        }[kind]
        if not amount:
            if self.play.play_on:
                self.players[seat].turn_kongs.append(KongPayment(seat, kind, [0] * self.seats, discarder))
            return
        payers = [discarder] if discarder is not None else [s for s in self.in_hand() if s != seat]
        deltas = [0] * self.seats
        for payer in payers:
            deltas[payer] -= amount
            deltas[seat] += amount
        record = KongPayment(seat, kind, deltas, discarder)
        self.kong_payments.append(record)
        self.players[seat].turn_kongs.append(record)
        self._book(deltas)

    def _book(self, deltas: Sequence[int], *, logged: bool = False) -> None:
        """Add ``deltas`` to the hand's; unless ``logged``, the next hora or ryukyoku carries them."""
        result = self._open_result()
        for seat, delta in enumerate(deltas):
            result.deltas[seat] += delta
            if not logged:
                self.unlogged[seat] += delta

    def _declaration_waiting(self) -> bool:
        player = self.players[self.turn]
        return self.claim_source == "dahai" and player.declared == 1

    # --------------------------------------------------------------- endings

    def _on_hora(self, event: Event) -> None:
        seat, target = event.actor, event.target
        assert seat is not None and target is not None
        if seat == target:
            player = self._actor_in_turn(event)
            tile = player.drawn
            self._expect(tile is not None, "illegal_action", f"seat {seat} has drawn no tile to win on")
            assert tile is not None
        elif self.play.play_on:
            self._expect(
                self.phase == "claim" and target == self.turn,
                "out_of_turn",
                f"seat {seat} cannot ron seat {target} while {self._waiting_for()}",
            )
            self._expect(not self.ron_closed, "unexpected_event", "the discard was already let go")
            self._expect(not self.players[seat].left, "seat_left", f"seat {seat} has won and left the hand")
            self._expect(seat not in self.claim_winners, "illegal_action", f"seat {seat} has already won this tile")
            tile = self.claim_tile
        else:
            self._expect(
                self.phase in ("claim", "won") and target == self.turn,
                "out_of_turn",
                f"seat {seat} cannot ron seat {target} while {self._waiting_for()}",
            )
            self._expect(not self.ron_closed, "unexpected_event", "the discard was already let go")
            self._expect(seat not in self.hora_seats, "illegal_action", f"seat {seat} has already won")
            if self.hora_seats and (self.play.head_bump or not self.table.double_ron):
                raise Foul("illegal_action", f"one winner per discard here: seat {self.hora_seats[0]} has taken it")
            tile = self.claim_tile
        if event.pai is not None and event.pai != UNKNOWN and tile != UNKNOWN:
            self._expect(
                kind_of(event.pai) == kind_of(tile),
                "illegal_action",
                f"hora on {tile_name(event.pai)}, but the tile is {tile_name(tile)}",
            )
        if not self.players[seat].known:
            # A seat's view of another's win: it cannot be scored here; the log's deltas stand.
            result = self._open_result()
            self.hora_seats.append(seat)
            result.winners.append(seat)
            self._log_deltas(event)
            self._after_win(seat, target, tile)
            return
        if seat == target:
            legal = any(a.kind == "hora" for a in self.legal_actions(seat))
        else:
            legal = any(a.kind == "hora" for a in self._claims(seat))
        if not legal and not self.lenient:
            raise Foul(*self._why_no_win(seat, target, tile))
        if self.family.reveals_after_win:
            revealed = self._revealed(event)
        else:
            revealed = self._ura(event) if self.players[seat].declared else ()
        win = self._score(seat, target, tile, revealed)
        result = self._open_result()
        if self.play.play_on:
            win = self._with_transfer(win)
        result.wins.append(win)
        result.winners.append(seat)
        self._book(win.deltas, logged=True)
        if any(self.unlogged):
            # The payments not yet logged (kongs, a family's mid-hand payments) ride on this
            # hora's deltas (already in the hand's).
            win = replace(win, deltas=tuple(a + b for a, b in zip(win.deltas, self.unlogged, strict=True)))
            result.wins[-1] = win
            self.unlogged = [0] * self.seats
        self.hora_seats.append(seat)
        self._log_deltas(event)
        self._after_win(seat, target, tile)

    def _with_transfer(self, win: Win) -> Win:
        """呼叫转移: the first win on a discard made after its seat's kong (杠上炮) takes all the kong
        income that seat still holds (the rule text: 需将自己所有的杠牌所得转给被点炮的玩家)."""
        if (
            not self.play.kong_transfer
            or win.target == win.winner
            or self.claim_source != "dahai"
            or self.claim_winners
            or not self.after_kong_discard
        ):
            return win
        deltas = list(win.deltas)
        for record in self.kong_payments:
            if record.seat != win.target or record.transferred:
                continue
            income = record.deltas[record.seat]
            deltas[record.seat] -= income
            deltas[win.winner] += income
            record.transferred = True
        return replace(win, deltas=tuple(deltas))

    def _after_win(self, seat: int, target: int, tile: int) -> None:
        """Where play goes after a win: the hand ends, or (a play-on table) the winner leaves or,
        in a bloody river, stays in frozen, and play passes on."""
        if not self.play.play_on:
            self.phase = "won"
            return
        player = self.players[seat]
        player.wins += 1
        player.waits_cache = None
        # A win ends the first go-around: no later win is heavenly or earthly (天胡, 地胡).
        player.discarded = True
        self.interrupted = True
        if not self.family.winner_stays(self.rules):
            player.left = True
        if seat == target:
            # The tile won on by self-draw is set aside: the hand keeps its 13 (its waits, in a
            # bloody river), and play passes to the next seat still in.
            self._take(seat, tile)
            player.won_tiles.append(tile)
            player.drawn = None
            player.turn_kongs.clear()
        elif self.claim_source == "kakan" and not self.claim_winners:
            # 抢杠胡: the robbed kong stands no more (its payment was never made); its tile was won on.
            robbed = self.players[target]
            meld = next(m for m in robbed.melds if m.kind == "kakan" and m.kind_tile == kind_of(tile))
            tiles = list(meld.tiles)
            tiles.remove(tile if tile in tiles else tiles[-1])
            meld.kind, meld.tiles = "pon", tuple(tiles)
            robbed.hand_cache = robbed.melds_cache = None
            robbed.river.append(tile)
            robbed.drawn_discards.append(None)  # robbed from a meld: neither drawn nor thrown
            self.kans -= 1
        if sum(p.left for p in self.players) >= self.seats - 1:
            self.phase = "won"
        elif seat == target:
            self.phase = "draw"
            self.turn = self._next_in(seat)
            self.rinshan_next = False
        else:
            self.claim_winners.append(seat)

    def _revealed(self, event: Event) -> tuple[int, ...]:
        """The tiles turned from the wall after a win for its settlement (``hora.revealed``), as
        many as the family says, each seen."""
        tiles = event.raw.get("revealed")
        if not isinstance(tiles, list):
            raise MalformedEvent("must be a list of the tiles turned from the wall after the win", field="revealed")
        revealed = tuple(parse_pai(tile, f"revealed[{i}]") for i, tile in enumerate(tiles))
        for tile in revealed:
            self._see(tile)
        return revealed

    def _ura(self, event: Event) -> tuple[int, ...]:
        markers = event.raw.get("ura_markers") or []
        if not isinstance(markers, list):
            raise MalformedEvent("must be a list of tiles", field="ura_markers")
        return tuple(kind_of(parse_pai(m, f"ura_markers[{i}]")) for i, m in enumerate(markers))

    def _log_deltas(self, event: Event) -> None:
        deltas = event.raw.get("deltas")
        assert self.result is not None
        if deltas is None:
            return
        if not isinstance(deltas, list) or len(deltas) != self.seats or any(type(d) is not int for d in deltas):
            raise MalformedEvent(f"must be {self.seats} integers", field="deltas")
        logged = self.result.logged_deltas or [0] * self.seats
        self.result.logged_deltas = [a + b for a, b in zip(logged, deltas, strict=True)]

    def _on_ryukyoku(self, event: Event) -> None:
        kind = self.draw_kind()
        self._expect(kind is not None, "illegal_action", f"the hand cannot end in a draw while {self._waiting_for()}")
        assert kind is not None
        if kind == "nine_terminals":
            self._expect(
                not self.players[self.turn].known or any(a.kind == "ryukyoku" for a in self.legal_actions(self.turn)),
                "illegal_action",
                f"seat {self.turn} cannot declare nine terminals",
            )
        if self.phase == "claim" and self._declaration_waiting():
            # A fourth declaration that ends the hand at once: the fourth stick is down all the same.
            seat = self.turn
            self.players[seat].declared = 2
            self.scores[seat] -= DECLARATION_STICK
            self.kyotaku += 1
        if self.play.play_on:
            self._settle_draw()
            self._log_deltas(event)
            self.phase = "won"
            return
        deltas = [0] * self.seats
        tenpai: tuple[bool, ...] = ()
        nagashi: tuple[int, ...] = ()
        if kind == "exhaustive":
            tenpai = tuple(self.tenpai_at_draw(seat) for seat in range(self.seats))
            deltas, nagashi = self.family.exhaustive_draw(self, tenpai)
        booked = self.result.deltas if self.result is not None else None  # kong payments made
        unlogged = self.unlogged
        self.unlogged = [0] * self.seats
        self.result = HandResult(
            self.kyoku,
            self.bakaze,
            self.honba,
            self.oya,
            kind,
            deltas,
            tenpai=tenpai,
            nagashi=nagashi,
            kyotaku=self.kyotaku,
        )
        if booked is not None:
            self.result.draw_deltas = [a + b for a, b in zip(unlogged, deltas, strict=True)]
            self.result.deltas = [a + b for a, b in zip(booked, deltas, strict=True)]
        self._log_deltas(event)
        self.phase = "won"

    def _settle_draw(self) -> None:
        """A play-on table's exhaustive draw: the seats still in settle (see :meth:`draw_settlement`)."""
        result = self._open_result()
        result.kind = "exhaustive"
        result.tenpai = tuple(self.tenpai_at_draw(seat) and not self.players[seat].left for seat in range(self.seats))
        result.settlement = self.family.settle_draw(self)
        settlement = [0] * self.seats if result.settlement is None else result.settlement.total
        result.flower_pigs = tuple(seat for seat in self.in_hand() if self.holds_void(seat))
        self._book(settlement, logged=True)
        result.draw_deltas = [a + b for a, b in zip(self.unlogged, settlement, strict=True)]
        self.unlogged = [0] * self.seats

    def draw_kind(self) -> str | None:
        """The draw a ``ryukyoku`` would be now (nine terminals, an abortive or exhaustive draw), or None."""
        if self.play.play_on and self.live_left == 0 and self.phase in ("draw", "claim"):
            # Play goes on after wins until the wall is empty: its last tile thrown (and not
            # claimed), or a seat's win on it.
            return "exhaustive" if self.phase == "draw" or self.claim_source == "dahai" else None
        drawn = self.players[self.turn].drawn if self.phase == "act" else None
        if drawn is not None and is_flower(drawn) and self.live_left == 0:
            return "exhaustive"  # a flower drawn with no tile left to replace it
        if self.phase == "act" and self.after == "tsumo" and self.play.abortive_draws:
            return self.family.draw_abort
        if self.phase != "claim":
            return None
        if self.claim_source == "dahai" and not self.play.abortive_draws:
            return "exhaustive" if self.live_left == 0 else None
        if self.claim_source == "dahai":
            aborted = self.family.abortive_draw(self)
            if aborted is not None:
                return aborted
            if self.live_left == 0:
                return "exhaustive"
        return None

    def tenpai_at_draw(self, seat: int) -> bool:
        player = self.players[seat]
        if not player.known:
            return False
        held = player.hand()
        for wait in self._waits(seat):
            # Waiting only on a tile whose four copies the seat holds is no wait (Tenhou).
            if held.counts[wait] + sum(m.as_meld().tiles.count(wait) for m in player.melds) < COPIES:
                return True
        return False

    def abandon_hand(self) -> None:
        """Leave the hand in play without its ending: a bot's server (mjai.app) sends ``end_kyoku``
        without the ``hora`` or ``ryukyoku`` before it, and the next ``start_kyoku`` brings the scores."""
        self.phase = "idle"
        self.hand_open = False
        self._asked.clear()

    def _on_end_kyoku(self, event: Event) -> None:
        self._expect(self.phase == "won", "unexpected_event", f"end_kyoku while {self._waiting_for()}")
        assert self.result is not None
        applied = self.result.logged_deltas if self.result.logged_deltas is not None else self.result.deltas
        for seat, delta in enumerate(applied):
            self.scores[seat] += delta
        if self.result.kind == "hora":
            self.kyotaku = 0
        self.results.append(self.result)
        self.phase = "idle"
        self.hand_open = False

    # --------------------------------------------------------------- scoring

    def hand_with(self, seat: int, target: int, tile: int) -> Hand:
        """The seat's hand as it would win: its tiles (a self-draw's tile among them), plus
        ``tile`` when it comes from ``target``'s discard or kan."""
        hand = self.players[seat].hand()
        return hand if seat == target else hand.with_tile(kind_of(tile))

    def _score(self, seat: int, target: int, tile: int, ura: tuple[int, ...]) -> Win:
        return self.family.score_win(self, seat, target, tile, ura)

    def base_context(self, seat: int, target: int) -> WinContext:
        """What every scorer reads of ``seat``'s win from ``target`` (itself: a self-draw): who won
        from whom, and how the tile came (a kong's replacement draw, a robbed kong)."""
        tsumo = seat == target
        rinshan = tsumo and self.after == "rinshan"
        robbed = not tsumo and self.claim_source in ("kakan", "ankan")
        return WinContext(seat, self.oya, None if tsumo else target, kong_replacement=rinshan, robbed_kong=robbed)

    def first_turn_draw(self, seat: int, target: int) -> bool:
        """Whether a self-draw win of ``seat`` now is in its first go-around, nobody having called."""
        player = self.players[seat]
        return seat == target and not player.discarded and not self.interrupted and self.after == "tsumo"

    def _context(self, seat: int, target: int, tile: int, ura: tuple[int, ...], first_winner: bool) -> WinContext:
        return self.family.win_context(self, seat, target, tile, ura, first_winner)

    def win_value(self, seat: int, win: Event) -> int:
        """The points a legal ``hora`` brings ``seat`` (its delta; no ura dora counted)."""
        return self.win_deltas(seat, win)[seat]

    def standing_after_win(self, seat: int, target: int, kind: int) -> int | None:
        """``seat``'s place (0 first) when the game ends right after it wins on ``kind`` (a tile
        kind) from ``target`` (itself: a self-draw, as if it drew the tile now), or None when the
        game goes on, or the win is not one the hand can make (no yaku, not complete).  No ura
        dora are counted; the table's rules of the game's end decide (:func:`next_hand`).
        """
        player = self.players[seat]
        hand = player.hand()
        if seat == target and hand.tile_count % 3 == 2:
            hand = hand.without((kind_of(self.players[seat].drawn or 0),))
        whole = hand.with_tile(kind)
        if not self.checker.is_win(whole):
            return None
        context = self._context(seat, target, kind, (), True)
        if seat == target:
            # A draw to come, not the one this turn made: neither a kan's replacement tile (the
            # table may be just after one, by another seat) nor the first go-around's.
            context = context._replace(kong_replacement=False, kong_feeder=None, first_turn=False)
        try:
            paid = win_payments(whole, kind, self.rules, context)
        except REFUSALS:
            return None
        deltas = list(paid)
        deltas[seat] += DECLARATION_STICK * self.kyotaku
        after = self.after_win(seat, deltas)
        return after.placements.index(seat) if isinstance(after, GameEnd) else None

    def after_win(self, seat: int, deltas: Sequence[int]) -> TableState | GameEnd | None:
        """The next hand, or the game's end, after ``seat`` alone wins this hand and the scores
        move by ``deltas`` (the riichi sticks included); None for a table the flow rules do not
        know (a replayed fragment)."""
        scores = tuple(a + b for a, b in zip(self.scores, deltas, strict=True))
        state = TableState(RoundWind("ESWN"[self.bakaze - WINDS[0]]), self.kyoku, self.honba, 0, self.oya, scores)
        try:
            return next_hand(state, Wins((seat,)), self.table)
        except ValueError:
            return None

    def win_deltas(self, seat: int, win: Event) -> tuple[int, ...]:
        """Every seat's score change by the legal ``hora`` ``win`` (no ura dora counted; the
        riichi sticks to the winner)."""
        assert win.target is not None and win.pai is not None
        return self._score(seat, win.target, win.pai, ()).deltas

    def waits_of(self, seat: int) -> frozenset[int]:
        """The tile kinds that complete ``seat``'s 3n+1 hand (empty when it is not ready)."""
        return self._waits(seat)

    def face_up(self, kind: int, *, discard_won: bool) -> int:
        """Copies of ``kind`` face up: in the rivers (not called) and the melds shown (a closed kan
        is face down), the discard being won on left out."""
        seen = 0
        for player in self.players:
            seen += sum(1 for i, t in enumerate(player.river) if kind_of(t) == kind and i not in player.called_away)
            seen += sum(1 for meld in player.melds if meld.kind != "ankan" for t in meld.tiles if kind_of(t) == kind)
        return seen - discard_won

    def _wins(self, seat: int, target: int, tile: int) -> bool:
        """Whether the seat may win on ``tile`` now: a complete hand with a yaku (no furiten check)."""
        hand = self.hand_with(seat, target, tile)
        if hand.tile_count + 3 * len(hand.melds) != 14 or not self.checker.is_win(hand):
            return False
        if self._void_kind(seat, kind_of(tile)) or self.holds_void(seat):
            return False  # a hand with a tile of its void suit never wins
        return self.family.takes(self, seat, target, tile, hand)

    def _waits(self, seat: int) -> frozenset[int]:
        player = self.players[seat]
        if player.waits_cache is None:
            hand = player.hand()
            if hand.tile_count % 3 != 1:
                return frozenset()
            # Most hands are not ready: their shanten alone (no draws, no unseen copies) says so.
            ready = self.hand_shanten(seat) == 0 and not self.holds_void(seat)
            # Under a void suit, its checker never waits on a tile of it.
            checker = self.checker if player.void is None else self.checker.bound(player.void)
            waits = checker.waits(hand).shape_waits if ready else ()
            # The family keeps the waits whose complete hands win whatever the situation.
            player.waits_cache = frozenset(self.family.waits(self, seat, hand, waits) if waits else ())
        return player.waits_cache

    def furiten(self, seat: int) -> bool:
        """Whether ``seat`` may not win on a discard now: after a declaration or temporary furiten, or a wait in
        its own river (always False under rules without furiten)."""
        return self._furiten(seat)

    def _furiten(self, seat: int) -> bool:
        if not self.rules.furiten:
            return False
        player = self.players[seat]
        if player.temporary_furiten or player.declaration_furiten:
            return True
        waits = self._waits(seat)
        return any(kind_of(tile) in waits for tile in player.river)

    def _can_rob_closed_kan(self, seat: int, kind: int) -> bool:
        player = self.players[seat]
        if not player.known or player.melds:
            return False
        counts = bytearray(player.kind_counts())
        counts[kind] += 1
        return (
            sum(counts) == 14
            and all(counts[t] for t in ORPHANS)
            and all(counts[t] == 0 for t in range(NUM_TILE_KINDS) if t not in ORPHANS)
        )

    def can_ron_now(self, seat: int) -> bool:
        """Whether ``seat`` may win on the claimable tile now."""
        return self._can_ron_now(seat)

    def _can_ron_now(self, seat: int) -> bool:
        return seat != self.turn and self.players[seat].known and any(a.kind == "hora" for a in self._claims(seat))

    # --------------------------------------------------------------- legal actions

    def legal_objects(self, seat: int) -> list[dict[str, Any]]:
        """:meth:`legal_actions` as mjai objects."""
        return [action_object(action) for action in self.legal_actions(seat)]

    def decision_seats(self) -> list[int]:
        """Seats with a choice to make now (the seat in turn, the seats that may claim, or, before
        the first draw, those still to pass their tiles or declare their void suit)."""
        if self.phase in ("exchange", "void"):
            return [seat for seat in range(self.seats) if self._legal(seat)]
        if self.phase == "act":
            return [self.turn]
        if self.phase == "claim":
            return [seat for seat in range(self.seats) if seat != self.turn and self._claims(seat)]
        return []

    def legal_actions(self, seat: int) -> list[Event]:
        """Every action the rules allow ``seat`` now, each once (see the module notes).

        Empty when the seat has nothing to decide; ``none`` is listed with claims (pass).
        """
        return list(self._legal(seat))

    def _legal(self, seat: int) -> list[Event]:
        """:meth:`legal_actions`, kept until the next event (callers do not change the list)."""
        key = ("legal", seat)
        actions = self._asked.get(key)
        if actions is None:
            actions = self._asked[key] = self._legal_actions(seat)
        return actions

    def _legal_actions(self, seat: int) -> list[Event]:
        player = self.players[seat]
        if not player.known:
            return []
        if self.phase == "exchange":
            return self._exchange_actions(seat) if player.exchanged is None else []
        if self.phase == "void":
            if player.void is not None:
                return []
            return [Event("void_suit", seat, suit=suit) for suit in SUITS]
        if self.phase == "act" and seat == self.turn:
            return self._turn_actions(seat)
        if self.phase == "claim" and seat != self.turn:
            claims = self._claims(seat)
            return [*claims, Event("none")] if claims else []
        return []

    def _exchange_actions(self, seat: int) -> list[Event]:
        """Every choice of three tiles of one suit the seat holds (换三张), each multiset once."""
        counts = self.players[seat].counts
        actions = []
        for suit in SUITS:
            kinds = [kind for kind in range(suit * 9, suit * 9 + 9) for _ in range(min(counts[kind], EXCHANGED))]
            for chosen in sorted(set(combinations(kinds, EXCHANGED))):
                actions.append(Event("exchange_out", seat, consumed=chosen))
        return actions

    def _discard_actions(self, seat: int) -> list[Event]:
        player = self.players[seat]
        forbidden = player.forbidden
        drawn = player.drawn
        # Events are values: the seat's discards are built once per process.
        hand_discards, drawn_discards = _DISCARDS[seat]
        actions = []
        void = player.void
        if void is not None and not any(player.kind_counts()[void * 9 : void * 9 + 9]):
            void = None  # nothing of the void suit left: any tile may go
        for tile, count in enumerate(player.counts[:UNKNOWN]):
            if not count or (forbidden and kind_of(tile) in forbidden):
                continue
            if void is not None and kind_of(tile) // 9 != void:
                continue  # a seat holding a tile of its void suit throws one of those first
            if self.kept_kinds and kind_of(tile) in self.kept_kinds:
                continue  # the family's rules keep it in the hand
            if tile == drawn:
                actions.append(drawn_discards[tile])
                if count > 1:
                    actions.append(hand_discards[tile])
            else:
                actions.append(hand_discards[tile])
        return actions

    def _turn_actions(self, seat: int) -> list[Event]:
        player = self.players[seat]
        if self.after == "reach":
            return [a for a in self._discard_actions(seat) if self.ready_after(seat, a.pai)]
        if self.after in ("chi", "pon"):
            return self._discard_actions(seat)
        drawn = player.drawn
        if drawn is None:  # only after a log the referee follows leniently
            return self._discard_actions(seat)
        if is_flower(drawn):
            return [Event("flower", seat, pai=drawn)]  # set aside before anything else
        actions: list[Event] = []
        if self._wins(seat, seat, drawn):
            actions.append(Event("hora", seat, seat, drawn))
        kan_room = self.live_left > 0 and self.kans < MAX_KANS
        if player.wins:
            # A bloody river's winner plays on frozen: it throws what it draws, unless it wins
            # again or makes a kong that leaves its waits as they are.
            actions.append(Event("dahai", seat, pai=drawn, tsumogiri=True))
            kind = kind_of(drawn)
            if kan_room and not self._void_kind(seat, kind):
                if self._kan_keeps_waits(seat, drawn):
                    actions.append(Event("ankan", seat, consumed=self._kan_tiles(seat, kind)))
                pon = next((m for m in player.melds if m.kind == "pon" and m.kind_tile == kind), None)
                if pon is not None:
                    actions.append(Event("kakan", seat, pai=drawn, consumed=tuple(pon.tiles)))
            return actions
        if player.declared:
            actions.append(Event("dahai", seat, pai=drawn, tsumogiri=True))
            if kan_room and self._kan_keeps_waits(seat, drawn):
                actions.append(Event("ankan", seat, consumed=self._kan_tiles(seat, kind_of(drawn))))
            if self.play.kita and kind_of(drawn) == NORTH and self.live_left > 0:
                actions.append(Event("kita", seat, pai=drawn))
            return actions
        actions.extend(self._discard_actions(seat))
        if self._may_declare(seat):
            actions.append(Event("reach", seat))
        if kan_room:
            kinds = player.hand().counts
            for kind in range(NUM_TILE_KINDS) if COPIES in kinds else ():
                if kinds[kind] == COPIES and self._callable(kind) and not self._void_kind(seat, kind):
                    actions.append(Event("ankan", seat, consumed=self._kan_tiles(seat, kind)))
            for meld in player.melds:
                if meld.kind == "pon" and kinds[meld.kind_tile]:
                    added = self._one_of_kind(seat, meld.kind_tile)
                    actions.append(Event("kakan", seat, pai=added, consumed=tuple(meld.tiles)))
        if self._nine_orphans(seat):
            actions.append(Event("ryukyoku", seat))
        if self.play.kita and player.counts[NORTH] and self.live_left > 0:
            actions.append(Event("kita", seat, pai=NORTH))
        return actions

    def _one_of_kind(self, seat: int, kind: int) -> int:
        counts = self.players[seat].counts
        red = red_of(kind)
        if red is not None and counts[red] and not counts[kind]:
            return red
        return kind if counts[kind] else (red if red is not None else kind)

    def _kan_tiles(self, seat: int, kind: int) -> tuple[int, ...]:
        counts = self.players[seat].counts
        red = red_of(kind)
        reds = counts[red] if red is not None else 0
        return tuple([red] * reds + [kind] * counts[kind]) if red is not None else (kind,) * counts[kind]

    def _nine_orphans(self, seat: int) -> bool:
        return self.play.abortive_draws and self.family.may_abort_on_draw(self, seat)

    def _may_declare(self, seat: int) -> bool:
        player = self.players[seat]
        if not self.play.declarations or player.declared or not player.closed or self.scores[seat] < DECLARATION_STICK:
            return False
        if self.live_left < DECLARATION_MIN_DRAWS:
            return False
        return self._ready_after_some_discard(seat)

    def _ready_after_some_discard(self, seat: int) -> bool:
        """Whether some discard leaves the seat's hand ready.

        For a 3n+2 hand, one question answers it: the hand's own shanten is 0 or less.  The
        shanten counts the tiles a hand lacks of its nearest complete hand (``shanten + 1``
        of them), and a discard not in that complete hand leaves the lack as it was, while no
        discard can shorten it; a complete hand (-1) stays ready after any discard.  So the
        best discard's shanten is ``max(0, shanten)``, and the 14 questions of each discard
        are one (the complete hands measured against are the same ones: same melds, caps, forms).
        """
        player = self.players[seat]
        hand = player.hand()
        if hand.tile_count % 3 == 2:
            return self.hand_shanten(seat) <= 0
        return any(self.ready_after(seat, tile) for tile in range(UNKNOWN) if player.counts[tile])

    def ready_after(self, seat: int, discard: int | None) -> bool:
        """Whether the seat's hand is ready once it throws ``discard``."""
        assert discard is not None
        player = self.players[seat]
        counts = bytearray(player.kind_counts())
        counts[kind_of(discard)] -= 1
        hand = Hand(bytes(counts), tuple(m.as_meld() for m in player.melds))
        return self.checker.shanten_number(hand) == 0

    def _kan_keeps_waits(self, seat: int, drawn: int) -> bool:
        player = self.players[seat]
        kind = kind_of(drawn)
        kinds = player.kind_counts()
        if kinds[kind] != COPIES:
            return False
        before = bytearray(kinds)
        before[kind] -= 1
        melds = tuple(m.as_meld() for m in player.melds)
        waits_before = self.checker.waits(Hand(bytes(before), melds)).shape_waits
        after = bytearray(kinds)
        after[kind] = 0
        kan = Meld(MeldKind.CLOSED_KAN, (kind,) * 4)
        waits_after = self.checker.waits(Hand(bytes(after), (*melds, kan))).shape_waits
        return bool(waits_after) and tuple(waits_before) == tuple(waits_after)

    def _claims(self, seat: int) -> list[Event]:
        """What ``seat`` may do with the claimable tile (without ``none``); callers do not change the list."""
        key = ("claims", seat)
        claims = self._asked.get(key)
        if claims is None:
            claims = self._asked[key] = self._claims_now(seat)
        return claims

    def _claims_now(self, seat: int) -> list[Event]:
        player = self.players[seat]
        tile = self.claim_tile
        if seat == self.turn or not player.known or tile == UNKNOWN:
            return []
        kind = kind_of(tile)
        actions: list[Event] = []
        target = self.turn
        if player.left or seat in self.claim_winners:
            return actions
        if self.claim_source == "ankan":
            if (
                self._can_rob_closed_kan(seat, kind)
                and self.family.may_win_on(self, seat, self.claim_source)
                and not self._furiten(seat)
            ):
                actions.append(Event("hora", seat, target, tile))
            return actions
        # A tile that completes the hand is one of its waits (it lowers the distance from one to
        # none): the waits, asked anyway for furiten, spare the win check of every other discard.
        if (
            not self.ron_closed
            and kind in self._waits(seat)
            and self.family.may_win_on(self, seat, self.claim_source)
            and self._wins(seat, target, tile)
            and not self._furiten(seat)
        ):
            actions.append(Event("hora", seat, target, tile))
        if (
            self.claim_source != "dahai"
            or player.declared
            or player.wins
            or self.claim_winners
            or self.live_left == 0
            or not self._callable(kind)
            or self._void_kind(seat, kind)
        ):
            return actions
        counts = player.counts
        red = red_of(kind)
        plain = counts[kind]
        reds = counts[red] if red is not None else 0
        if plain + reds >= 2:
            options: set[tuple[int, int]] = set()
            if plain >= 2:
                options.add((kind, kind))
            if red is not None and reds and plain:
                options.add((red, kind))
            if red is not None and reds >= 2:
                options.add((red, red))
            for consumed in sorted(options):
                if self._leaves_discard(seat, consumed, self._call_forbids("pon", tile, consumed)):
                    actions.append(Event("pon", seat, target, tile, tuple(consumed)))
        if plain + reds == 3 and self.kans < MAX_KANS:
            consumed3 = tuple([red] * reds + [kind] * plain) if red is not None else (kind,) * 3
            actions.append(Event("daiminkan", seat, target, tile, consumed3))
        if self.rules.chi_allowed and seat == (target + 1) % self.seats and not is_honor(kind):
            number = kind % 9
            for low_offset, high_offset in ((-2, -1), (-1, 1), (1, 2)):
                if not (0 <= number + low_offset and number + high_offset <= 8):
                    continue
                first, second = kind + low_offset, kind + high_offset
                if not (self._callable(first) and self._callable(second)):
                    continue
                for a in self._physical(seat, first):
                    for b in self._physical(seat, second):
                        consumed2 = (a, b)
                        if self._leaves_discard(seat, consumed2, self._call_forbids("chi", tile, consumed2)):
                            actions.append(Event("chi", seat, target, tile, consumed2))
        return actions

    def _is_meld(self, kind: str, tiles: Sequence[int]) -> bool:
        """Whether ``tiles`` (table tiles, as every seat sees them) form a meld of the mjai ``kind``."""
        if any(is_flower(tile) or tile == UNKNOWN for tile in tiles):
            return False
        try:
            Meld.of(MELD_KIND[kind], [kind_of(tile) for tile in tiles])
        except TenpaiError:
            return False
        return True

    def _callable(self, kind: int) -> bool:
        """Whether tiles of ``kind`` may go into a meld (a wildcard may not, unless the table says so)."""
        return self.play.call_wildcards or kind not in self.rules.wildcards

    def _void_kind(self, seat: int, kind: int) -> bool:
        """Whether ``kind`` is of the seat's void suit (never called, never a kong, never won on)."""
        void = self.players[seat].void
        return void is not None and kind < NUM_TILE_KINDS and kind // 9 == void

    def _physical(self, seat: int, kind: int) -> list[int]:
        """The distinct table tiles of ``kind`` the seat holds (a red five is a tile of its own)."""
        counts = self.players[seat].counts
        out = [kind] if counts[kind] else []
        red = red_of(kind)
        if red is not None and counts[red]:
            out.append(red)
        return out

    def _leaves_discard(self, seat: int, consumed: Sequence[int], forbidden: frozenset[int]) -> bool:
        counts = list(self.players[seat].counts)
        for tile in consumed:
            counts[tile] -= 1
        return any(counts[tile] and kind_of(tile) not in forbidden for tile in range(UNKNOWN))

    # --------------------------------------------------------------- explanations

    def _why_illegal(self, event: Event) -> tuple[str, str]:
        seat = event.actor
        assert seat is not None
        player = self.players[seat]
        if player.left:
            return "seat_left", f"seat {seat} has won and left the hand"
        if event.kind == "exchange_out":
            return "bad_exchange", f"seat {seat} passes three tiles of one suit it holds, once"
        if event.kind in ("chi", "pon", "daiminkan", "ankan") and self._void_kind(seat, kind_of(event.consumed[0])):
            return "void_suit_called", f"seat {seat} cannot {event.kind} tiles of its void suit"
        if event.kind == "dahai" and event.pai is not None:
            if not self._holds(seat, [event.pai]):
                return "tile_not_held", f"seat {seat} discards {tile_name(event.pai)}, which it does not hold"
            if player.void is not None and self.holds_void(seat) and not self._void_kind(seat, kind_of(event.pai)):
                suit = SUIT_NAMES[player.void]
                return "void_suit_first", f"seat {seat} holds tiles of its void suit ({suit}) and must discard one"
            if player.wins:
                return "illegal_action", f"seat {seat} has won: its hand is frozen and it throws the tile it drew"
            if kind_of(event.pai) in player.forbidden:
                return (
                    "kuikae",
                    f"seat {seat} may not discard {tile_name(event.pai)} right after its {self.after} (kuikae)",
                )
            if player.declared == 2:
                return (
                    "illegal_action",
                    f"seat {seat} is in {self.family.declaration} and must discard the tile it drew",
                )
            if self.after == "reach":
                return (
                    "not_ready",
                    f"seat {seat}'s {self.family.declaration} discard {tile_name(event.pai)} leaves the hand not ready",
                )
            if event.tsumogiri:
                return "illegal_action", f"{tile_name(event.pai)} is not the tile seat {seat} drew"
            return "illegal_action", f"seat {seat} cannot discard {tile_name(event.pai)} now"
        if event.kind == "reach":
            if not player.closed:
                return "illegal_action", f"seat {seat} cannot {self.family.declaration} with an open hand"
            if not player.declared and not self._ready_after_some_discard(seat):
                return "not_ready", f"seat {seat} cannot {self.family.declaration}: no discard leaves its hand ready"
            if self.scores[seat] < DECLARATION_STICK:
                return (
                    "illegal_action",
                    f"seat {seat} has under {DECLARATION_STICK} points and cannot {self.family.declaration}",
                )
            if self.live_left < DECLARATION_MIN_DRAWS:
                return (
                    "illegal_action",
                    f"{self.family.declaration} needs {DECLARATION_MIN_DRAWS} tiles left to draw, {self.live_left} left",
                )
            if player.declared:
                return "illegal_action", f"seat {seat} is already in {self.family.declaration}"
            return "not_ready", f"seat {seat} cannot {self.family.declaration}: no discard leaves its hand ready"
        if event.kind in ("chi", "pon", "daiminkan"):
            if player.declared:
                return "illegal_action", f"seat {seat} is in {self.family.declaration} and cannot {event.kind}"
            if event.kind == "chi" and seat != (self.turn + 1) % self.seats:
                return "illegal_action", f"seat {seat} can only chi the discard of the seat before it"
            if not self._holds(seat, event.consumed):
                return "tile_not_held", f"seat {seat} does not hold the tiles of its {event.kind}"
            return "illegal_action", f"seat {seat} cannot {event.kind} {tile_name(self.claim_tile)} with those tiles"
        if event.kind in ("kakan", "ankan", "kita") and event.pai is not None and not self._holds(seat, [event.pai]):
            return "tile_not_held", f"seat {seat} does not hold {tile_name(event.pai)}"
        return "illegal_action", f"seat {seat} cannot {event.kind} now"

    def _why_no_win(self, seat: int, target: int, tile: int) -> tuple[str, str]:
        if self.players[seat].left:
            return "seat_left", f"seat {seat} has won and left the hand"
        if self.holds_void(seat) or self._void_kind(seat, kind_of(tile)):
            return "not_a_win", f"seat {seat}'s hand holds a tile of its void suit: it cannot win"
        hand = self.hand_with(seat, target, tile)
        if not self.checker.is_win(hand):
            return "not_a_win", f"seat {seat}'s hand does not win with {tile_name(tile)}"
        if seat != target and not self.family.may_win_on(self, seat, self.claim_source):
            return "illegal_action", f"seat {seat} cannot win on seat {target}'s tile: these rules win by self-draw"
        if seat != target and self._furiten(seat):
            return "furiten", f"seat {seat} is furiten and cannot win on a discard"
        if seat != target and self.claim_source == "ankan":
            return "illegal_action", "only thirteen orphans may rob a closed kan"
        return "not_a_win", f"seat {seat}'s hand has no yaku with {tile_name(tile)}"
