"""One hand of mahjong, played by strategies, from a seeded shuffle to the payments.

The table seats ``rules.seats`` players (four; three under ``sanma``).  It
keeps the tiles of one shuffled wall (four of each kind the set has:
``rules.tile_total``, 136, or 108 without sanma's 2m-8m; plus
``TableSettings.flowers`` flower tiles, 144 in all at an ``mcr`` table) and
moves them between the wall, the concealed hands, the melds, the rivers and
the tiles set aside (sanma's norths, MCR's flowers); it never creates or
drops one (``audit=True`` checks that after every step).  The rule profile decides
what is legal; the table settings (:data:`TABLE_SETTINGS`, by preset name)
hold what a hand check never needs:

* **Deal.** Every seat takes 13 tiles; the dealer's first draw is the 14th.
  The dealer is seat ``game % seats``, so a run rotates the deal evenly.
* **Turn.** Draw from the front of the wall; win by self-draw, or declare a
  closed or added kong, or (sanma) set a north aside, or (riichi) declare
  riichi; then discard.
* **Claims on a discard**, by priority: a win (the first seat in play order
  after the discarder takes it: one winner per hand), then a pon or an open
  kong (only one seat can hold two more copies), then a chi by the next seat
  when ``rules.chi_allowed``.  A seat that calls a pon or chi discards without
  drawing.
* **Kongs** draw a replacement tile from the dead wall (the back of the wall:
  its last tiles, then those that joined the dead wall as it was refilled);
  a self-draw on it is a kong-replacement win (杠上开花).  An added kong can be robbed (抢杠):
  a seat that wins on the added tile takes it, and the kong's owner pays as a
  discarder.  A kong needs a tile left to draw, and a hand has at most
  ``max_kongs`` kongs in all.
* **Exhaustive draw** when no tile is left to draw: ``reserved_tiles`` stay in
  the wall (riichi's dead wall, which holds the dora indicators).
* **Wins** are checked by :meth:`Checker.is_win <app.core.shape.engine.Checker.is_win>`
  under the rule profile, so Qiqihar's open-meld precondition and its 红中
  wildcard apply.  Where ``rules.furiten`` holds, a seat cannot win on a
  discard while one of its waits is in its own river, nor (temporary furiten)
  after a discard it could have completed went by, until its own next discard.
* **A scoring profile may refuse a complete hand**: the table scores every
  complete hand before it counts as a win, and a profile that raises
  :class:`~app.core.value.riichi_scoring.NoYaku` (riichi's, for a hand without a
  yaku) leaves it no win: the seat plays on (and, on a discard, is furiten).
* **Wildcards** are not called (``call_wildcards``: 红中 is 宝, it substitutes
  from the hand), but may be discarded and won on.
* **Riichi** (``riichi_declarations``): a closed ready hand may declare with a
  discard while at least four tiles are left to draw; it then discards every
  tile it draws that does not win, and makes no calls and no kongs.  The
  declaration stands once its tile is not won on: then the seat puts a riichi
  stick (1000 points) on the table, and the hand's winner takes every stick
  (``GameResult.riichi_sticks``).  After an exhaustive draw the sticks stay on
  the table; each game is one independent hand, so no later hand collects them.
* **Kita** (sanma's nukidora, ``TableSettings.nukidora``): at its own turn,
  after a draw (not straight after a pon), a seat may set a north aside and
  draw a replacement from the dead wall as for a kong, while a tile is left
  to draw.  A seat in riichi may set aside only the north it just drew (its
  hand, and so its wait, stays as declared).  Each north set aside is a dora
  of its owner (``nuki`` in the scored situation) and is visible to every
  seat.  Choices where tables differ, kept simple: a kita is not a kong (no
  kan dora, and it counts toward no kong limit); it is not a call (it ends no
  ippatsu and no uninterrupted first turn); it cannot be robbed (no win on a
  north set aside).  A self-draw on its replacement is rinshan, as at Tenhou
  (``kong_replacement`` in the scored situation and in the result; with
  ippatsu too, for a seat in riichi that set aside the north it drew), and
  never haitei, tenhou or chiihou.
* **MCR** (``mcr``): a win needs 8 fans, flowers not counted: the scorer
  (:func:`~app.core.value.mcr_scoring.score_mcr`) raises
  :class:`~app.core.errors.BelowMinimumFan` for a complete hand under the
  floor, which, like riichi's ``NoYaku``, leaves the seat no win (there is no
  furiten in MCR, so it may win on a later tile).  It pays MCR's way: with
  ``T`` the fans plus the flowers, the discarder pays ``T + 8`` and the two
  others 8, or each pays ``T + 8`` on a self-draw.  The seat winds follow
  the dealer (East) and the round wind is East.  The situation passed to the
  scorer: ``last_tile`` (妙手回春 / 海底捞月) on the last drawable tile or a
  discard made when none is left; ``last_copy`` (和绝张) when the three other
  copies of the winning tile are face up in the rivers and the shown melds (a
  closed kong is face down); a kong-replacement win (杠上开花) and robbing an
  added kong (抢杠和) as above; the winner's flowers.  Flowers (eight by
  default: MCR's official 144-tile set; ``flowers=0`` plays 136 tiles) go
  aside face up when dealt or drawn, and their owner draws a replacement from
  the back of the wall, as for a kong; a flower dealt is replaced after the
  deal, seat by seat in deal order.  A self-draw on a flower's replacement is
  no kong-replacement win (the rule book's 杠上开花 is a kong's), but on the
  last tile it is 妙手回春.  A flower drawn when nothing is left to draw in
  its place ends the hand in an exhaustive draw.
* **Payments** come from the scoring profile named by ``scoring``
  (:data:`app.core.value.scoring.SCORING`: Qiqihar's per seed 004, riichi's and
  sanma's per Tenhou, one entry per seat) or, for ``"flat"``, a win worth 3: the discarder pays 3, or each
  other seat pays 1 on a self-draw.  ``payments`` are the profile's seat
  payments and sum to zero; riichi sticks are kept out of them (they are
  deposits on the table, not transfers between seats); an exhaustive draw pays
  nothing.  Each game is a first hand: no honba, no sticks carried in.

The riichi situation the table passes to the scorer (:class:`WinContext`):

* **Dora.** The dead wall is the last ``reserved_tiles`` of the wall; it
  gives up a tile for each replacement draw and is refilled from the live
  wall, as at a real table.  Indicator ``k`` (0: the first; 1..4: one per
  kong) is wall tile ``total - reserved_tiles + 2k`` and its ura indicator
  the tile after it.  Replacement draws take the dead wall's last tiles
  (those behind the ten indicator places: four), then the tiles that joined
  it from the live wall, newest first, so no replacement draw reaches an
  indicator place however many kongs and kitas (sanma: up to eight) a hand
  has.  Kan
  dora follow Tenhou: a closed kong shows its indicator at once, an open or
  added kong when its owner discards after the replacement draw (so a
  kong-replacement win after an open kong does not count it, a win on that
  discard does), and any kong shows the ones still pending first.  Ura
  indicators count for a winner in riichi.
* **Riichi, double riichi, ippatsu.** Double riichi: declared with the seat's
  first discard before any call or kong.  Ippatsu: a win by the declarer
  before its next discard, with no call or kong in between (a robbed added
  kong never completed, so robbing it keeps ippatsu).
* **Haitei / houtei** (``last_tile``): a self-draw of the last drawable tile
  (not a replacement), or a win on a discard made when no tile is left.
* **Rinshan / chankan**: a self-draw on a replacement tile (after a kong or
  a kita); a win on an added kong's tile.
* **Tenhou / chiihou** (``first_turn``): a self-draw on the seat's first draw
  before any call or kong.
* **Winds**: the seat wind from the winner and the dealer (East, South, West
  and, at four seats, North); the round wind East.
* **Nuki**: the norths the winner set aside (sanma).
* **Red fives** are not simulated: the wall holds tile kinds, not the 136
  individual tiles, so ``red_fives`` is always empty (and the advisor's
  expected-score search, :class:`app.core.table.players.Advisor`, counts on drawing none).

The advisor is the costly seat: at a riichi table it ranks a hand one-shanten or
closer by expected score (a search of a few to a few hundred milliseconds per
discard; :class:`~app.core.table.players.Advisor` says why it stops there), so a hand with
two advisors takes about 0.3 s (with four, 0.6 s, some up to 2 s) where one with
``linear`` advisors takes about 0.015 s.
The search is bounded by states, never by a clock, so a game stays a function of
its seed.

**Stopping.**  A game may be given a ``stop`` callable (a service's deadline, its client
gone, a run interrupted): the table asks it before every turn and after every discard
decision, and the advisor's search asks it every few hundred states, so a stop is heard
within milliseconds even in the middle of a long search.  A game stopped is abandoned,
never finished differently: :func:`play_game` raises :class:`GameStopped` and the game
has no result, so every result there is stays a function of the seed.

What the simulator leaves out, on purpose: multiple winners on one
discard, abortive draws, kongs after riichi, robbing a closed kong, and the
points each seat holds (riichi needs no 1000 points in hand).

>>> result = play_game(GameConfig("qiqihar", ("advisor", "greedy", "heuristic", "random"), seed=7), 0)
>>> sum(result.payments), result.dealer, len(result.shanten_by_turn)
(0, 0, 4)
>>> result == play_game(GameConfig("qiqihar", ("advisor", "greedy", "heuristic", "random"), seed=7), 0)
True
>>> sanma = play_game(GameConfig("sanma", ("advisor", "greedy", "advisor"), seed=7), 4)
>>> len(sanma.payments), sum(sanma.payments), sanma.dealer, len(sanma.nuki)
(3, 0, 1, 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from app.core.advice.discard import DEFAULT_WEIGHTS, Weights
from app.core.advice.safety import Opponent
from app.core.errors import TenpaiError
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld, MeldKind, added_kong
from app.core.shape.rules import DEFAULT_SEATS, RuleProfile, rule_profile
from app.core.shape.tiles import COPIES, DRAGONS, EAST, NORTH, NUM_TILE_KINDS, Tile, is_honor
from app.core.table import game as table_game
from app.core.table.flow import GameLength, placements
from app.core.table.players import SeatView, Strategy, make_player
from app.core.value.mcr_scoring import MAX_FLOWERS
from app.core.value.scoring import MINIMUM_FANS, REFUSALS, score
from app.core.value.scoring_context import WinContext

"""Seats at a four-player table (a table seats ``rules.seats``)."""
HAND_SIZE: Final = 13
RIICHI_MIN_WALL: Final = 4
"""Tiles that must be left to draw for a riichi declaration."""
FLAT: Final = "flat"
"""The scoring of tables without a scoring profile: every win is worth :data:`FLAT_WIN_VALUE`."""
FLAT_WIN_VALUE: Final = 3
FLOWER: Final = NUM_TILE_KINDS
"""A flower in the wall: a wall place only (no hand, meld or river ever holds one)."""
_DEAD_WALL_SOURCES: Final = frozenset({"kong", "kita"})
"""Where a drawn tile came from when a self-draw on it is a kong-replacement win (rinshan)."""


class TableSettings(NamedTuple):
    """What a table needs beyond the hand rules (see the module notes)."""

    #: Tiles never drawn: the exhaustive draw comes when only these are left.
    reserved_tiles: int = 0
    riichi_declarations: bool = False
    #: Dora indicators from the reserved tiles: one, one more per kong, and ura
    #: indicators under them (see the module notes), for the advisor and the scorer.
    dora_indicator: bool = False
    #: Whether a discarded wildcard may be called into a meld.
    call_wildcards: bool = False
    #: Scoring profile name: a key of ``SCORING`` or "flat".
    scoring: str = FLAT
    max_kongs: int = 4
    round_wind: Tile = EAST
    #: The scoring profile refuses a complete hand without a yaku.  The table learns that
    #: from the scorer itself (it raises NoYaku); this tells the strategies, so that they
    #: do not open a hand that can never win.
    needs_yaku: bool = False
    #: The tile a seat may set aside as a dora, drawing a replacement (sanma's kita: the
    #: north); None: no such declaration.
    nukidora: Tile | None = None
    #: Flower tiles shuffled into the wall (MCR's eight: four flowers and four seasons);
    #: each is set aside when drawn, with a replacement from the back, and is worth a fan.
    flowers: int = 0
    #: Fans a win needs (MCR's 8, flowers not counted).  The table learns it from the scorer
    #: (it raises BelowMinimumFan); this tells the strategies to aim for it.
    minimum_fan: int = 0


#: Table settings by rules preset name.
TABLE_SETTINGS: Final[Mapping[str, TableSettings]] = MappingProxyType(
    {
        "riichi": TableSettings(
            reserved_tiles=14, riichi_declarations=True, dora_indicator=True, scoring="riichi", needs_yaku=True
        ),
        "chinese": TableSettings(),
        # Every flower of the official set (144 tiles; with flowers=0, 136).
        "mcr": TableSettings(scoring="mcr", flowers=MAX_FLOWERS, minimum_fan=MINIMUM_FANS["mcr"]),
        "qiqihar": TableSettings(scoring="qiqihar"),
        "sanma": TableSettings(
            reserved_tiles=14,
            riichi_declarations=True,
            dora_indicator=True,
            scoring="sanma",
            needs_yaku=True,
            nukidora=NORTH,
        ),
    }
)


class InvalidGameConfig(TenpaiError):
    """A simulation asked with players or rules the table cannot seat."""

    code = "invalid_game_config"


class TableInvariantError(AssertionError):
    """The table broke one of its own invariants (a bug, never a user's doing)."""


class GameConfig(NamedTuple):
    """One run's settings: every game of it is seeded from ``seed`` and its index."""

    rules: str
    #: Strategy names by seat (see :data:`app.core.table.players.PLAYER_KINDS`).
    players: tuple[str, ...]
    seed: int
    #: The advisor's weights.
    weights: Weights = DEFAULT_WEIGHTS
    #: Keep the wall and every action in the result (for replay and tests).
    record_events: bool = False
    #: Check the table's invariants after every step.
    audit: bool = False


#: One recorded action: its name, then its details (``("draw", seat, tile, source)``, ...).
Event = tuple[object, ...]


class GameResult(NamedTuple):
    """How one hand ended, and what each seat went through."""

    game: int
    dealer: int
    #: None: exhaustive draw.
    winner: int | None
    #: The seat that dealt in (or whose added kong was robbed); None: self-draw or no win.
    discarder: int | None
    robbed_kong: bool
    #: A self-draw on a replacement tile (rinshan): after a kong or (sanma) a kita.
    kong_replacement: bool
    #: Net per seat; sums to zero.
    payments: tuple[int, ...]
    #: Per seat: the own turn after whose discard the hand was first ready (0: dealt ready); None: never.
    tenpai_turn: tuple[int | None, ...]
    #: Per seat: shanten after each own discard (turn 1, 2, ...).
    shanten_by_turn: tuple[tuple[int, ...], ...]
    #: Discards in the hand.
    turns: int
    #: The win's han (dora included; 13 a yakuman); None without a win or under a
    #: scoring profile that counts no han.
    han: int | None = None
    #: Per seat: a riichi declaration that stood (its stick is on the table).
    riichi: tuple[bool, ...] = (False,) * DEFAULT_SEATS
    #: Riichi sticks put on the table in the hand (1000 points each): the winner took
    #: them; after an exhaustive draw they stay on the table.  Not in ``payments``.
    riichi_sticks: int = 0
    #: With ``record_events``: ("wall", tiles), then every action in order.
    events: tuple[Event, ...] | None = None
    #: Per seat: north tiles set aside (sanma's kita); empty at tables without them.
    nuki: tuple[int, ...] = ()
    #: The win's fans, flowers not counted (MCR); None without a win or under a scoring
    #: profile that counts no fans.
    fan: int | None = None
    #: Per seat: flowers set aside; empty at tables without flowers.
    flowers: tuple[int, ...] = ()


def game_seed(seed: int, game: int) -> str:
    """The seed string of one game: a function of the run seed and the game index only,
    so results never depend on how games are spread over workers."""
    return f"tenpai/{seed}/{game}"


def validate_config(config: GameConfig) -> RuleProfile:
    """The rule profile of ``config``, or a typed error naming the bad field.

    >>> validate_config(GameConfig("qiqihar", ("advisor", "greedy", "random", "expert"), 1))
    Traceback (most recent call last):
    ...
    app.core.table.players.UnknownStrategy: unknown strategy 'expert'; strategies are advisor, greedy, heuristic, linear, random
    """
    try:
        rules = rule_profile(config.rules)
    except TenpaiError as error:
        raise type(error)(error.message, field="rules") from None
    if rules.name not in TABLE_SETTINGS:
        raise InvalidGameConfig(f"no table settings for rules {rules.name!r}", field="rules")
    if len(config.players) != rules.seats:
        raise InvalidGameConfig(
            f"a {rules.name} table seats exactly {rules.seats} players, got {len(config.players)}", field="players"
        )
    for seat, name in enumerate(config.players):
        try:
            make_player(name)
        except TenpaiError as error:
            raise type(error)(error.message, field=f"players[{seat}]") from None
    config.weights.validated()
    return rules


def play_game(config: GameConfig, game: int, *, stop: Callable[[], bool] | None = None) -> GameResult:
    """Play game number ``game`` of the run ``config`` (deterministic in both).

    ``stop()``, asked as the game goes (module notes), abandons it when it answers True:
    :class:`GameStopped`, and no result.

    >>> config = GameConfig("riichi", ("advisor",) * 4, seed=7)
    >>> play_game(config, 0, stop=lambda: True)
    Traceback (most recent call last):
    ...
    app.core.table.simulator.GameStopped: game 0 was stopped in play
    """
    return _Table(config, game, stop).play()


class GameStopped(Exception):
    """A game's ``stop`` said stop while it was in play: the game was abandoned and has no result."""


class _StopLatch:
    """A ``stop`` callable that stays True once it has said True.

    A search cut short by ``stop`` answers with what it found; the table asks the latch
    right after the decision and abandons the game, so a decision cut short is never
    played, even when the caller's ``stop`` would change its mind.
    """

    __slots__ = ("_stop", "said")

    def __init__(self, stop: Callable[[], bool]) -> None:
        self._stop = stop
        self.said = False

    def __call__(self) -> bool:
        if not self.said and self._stop():
            self.said = True
        return self.said


class _Ended(Exception):
    """Raised inside the turn loop when the hand is over."""


class _Win(NamedTuple):
    """A win the scoring profile accepts: who pays what, and its han or fans (None: the profile
    counts none)."""

    payments: tuple[int, ...]
    han: int | None
    fan: int | None = None


#: How the hand ended: winner, discarder, robbed kong, kong replacement, payments, han, fan.
_Outcome = tuple[int | None, int | None, bool, bool, tuple[int, ...], int | None, int | None]


class _Table:
    def __init__(self, config: GameConfig, game: int, stop: Callable[[], bool] | None = None) -> None:
        self.stop = None if stop is None else _StopLatch(stop)
        self.rules = validate_config(config)
        self.settings = TABLE_SETTINGS[self.rules.name]
        self.checker = Checker(self.rules)
        self.seats = seats = self.rules.seats
        self.game = game
        seed = game_seed(config.seed, game)
        absent = frozenset(self.rules.absent_tiles)
        wall = [tile for tile in range(NUM_TILE_KINDS) if tile not in absent for _ in range(4)]
        wall += [FLOWER] * self.settings.flowers
        random.Random(seed).shuffle(wall)
        self.wall = wall
        self.total = len(wall)
        self.head = 0
        # Replacement draws so far, and the wall places they took (see _replacement_place).
        self.replacements = 0
        self.drawn_back: set[int] = set()
        self.players: list[Strategy] = [
            make_player(name, config.weights, random.Random(f"{seed}/{seat}"))
            for seat, name in enumerate(config.players)
        ]
        self.dealer = game % seats
        self.hands = [bytearray(NUM_TILE_KINDS) for _ in range(seats)]
        self.melds: list[list[Meld]] = [[] for _ in range(seats)]
        self.discards: list[list[Tile]] = [[] for _ in range(seats)]  # every tile discarded, in order
        self.river: list[list[Tile]] = [[] for _ in range(seats)]  # discards not called away
        self.nuki = [0] * seats  # north tiles set aside (kita)
        self.flowers = [0] * seats  # flowers set aside
        # 1-based river position of the riichi declaration (0: that tile was called away); None: none.
        self.riichi_at: list[int | None] = [None] * seats
        self.riichi_stood = [False] * seats  # the declaration was not won on: its stick is down
        self.double_riichi = [False] * seats
        self.ippatsu = [False] * seats
        # Temporary furiten: a discard this seat could have completed went by since its last discard.
        self.passed_win = [False] * seats
        self.sticks = 0
        self.interrupted = False  # a call or kong has happened (ends double riichi, tenhou, chiihou)
        self.shanten_by_turn: list[list[int]] = [[] for _ in range(seats)]
        self.tenpai_turn: list[int | None] = [None] * seats
        self.kongs = 0
        self.turns = 0
        # Dora indicators shown, and kongs whose indicator waits for their owner's discard.
        self.shown = 0
        self.pending_dora = 0
        self.events: list[Event] | None = [("wall", tuple(wall))] if config.record_events else None
        self.audit = config.audit
        self.outcome: _Outcome = (None, None, False, False, (0,) * seats, None, None)

    # -- the hand --------------------------------------------------------

    def play(self) -> GameResult:
        try:
            self._deal()
            self._loop()
        except _Ended:
            pass
        winner, discarder, robbed, replacement, payments, han, fan = self.outcome
        return GameResult(
            game=self.game,
            dealer=self.dealer,
            winner=winner,
            discarder=discarder,
            robbed_kong=robbed,
            kong_replacement=replacement,
            payments=payments,
            tenpai_turn=tuple(self.tenpai_turn),
            shanten_by_turn=tuple(map(tuple, self.shanten_by_turn)),
            turns=self.turns,
            han=han,
            riichi=tuple(self.riichi_stood),
            riichi_sticks=self.sticks,
            events=tuple(self.events) if self.events is not None else None,
            nuki=tuple(self.nuki) if self.settings.nukidora is not None else (),
            fan=fan,
            flowers=tuple(self.flowers) if self.settings.flowers else (),
        )

    def _deal(self) -> None:
        for offset in range(self.seats):
            seat = (self.dealer + offset) % self.seats
            tiles = self.wall[self.head : self.head + HAND_SIZE]
            self.head += HAND_SIZE
            for tile in tiles:
                if tile != FLOWER:
                    self.hands[seat][tile] += 1
            self._log("deal", seat, tuple(tiles))
        for offset in range(self.seats):
            # Flowers dealt are set aside and replaced from the back, seat by seat in deal order.
            seat = (self.dealer + offset) % self.seats
            dealt = self.wall[self.head - HAND_SIZE * (self.seats - offset) :][:HAND_SIZE]
            for _ in range(dealt.count(FLOWER)):
                self._set_flower_aside(seat)
                tile = self._take(replacement=True)
                while tile == FLOWER:
                    self._set_flower_aside(seat)
                    tile = self._take(replacement=True)
                self.hands[seat][tile] += 1
                self._log("draw", seat, tile, "replacement")
        for seat in range(self.seats):
            if self._ready(seat):
                self.tenpai_turn[seat] = 0
        if self.settings.dora_indicator:
            self._show_dora(1)
        self._check()

    def _loop(self) -> None:
        seat = self.dealer
        # Where the tile in hand came from: "wall", "kong" or "kita" (a replacement draw), or
        # "flower" (a replacement for a flower set aside).
        first_draw, source = self._draw(seat, replacement=False, source="wall")
        drawn: Tile | None = first_draw
        while True:
            self._heed_stop()
            if drawn is not None:
                win = self._win(seat, drawn, discarder=None, source=source)
                if win is not None:
                    self._finish(seat, drawn, win, discarder=None, replacement=source in _DEAD_WALL_SOURCES)
                if self._kita(seat, drawn):
                    drawn, source = self._draw(seat, replacement=True, source="kita")
                    continue
                if self.riichi_at[seat] is None:
                    kong = self._own_kong(seat)
                    if kong is not None:
                        drawn, source = self._draw(seat, replacement=True, source="kong")
                        continue
            tile, declared = self._discard(seat, drawn)
            self._claim_win(seat, tile, robbing=False)
            if declared:
                # Nobody won on the declaration tile: the riichi stands and its stick goes down.
                self.riichi_stood[seat] = self.ippatsu[seat] = True
                self.sticks += 1
            call = self._offer_calls(seat, tile)
            if call is not None:
                seat, meld = call
                if meld.kind is MeldKind.OPEN_KAN:
                    drawn, source = self._draw(seat, replacement=True, source="kong")
                else:
                    drawn, source = None, "wall"
                continue
            if self._wall_left() == 0:
                self._log("exhaustive_draw")
                raise _Ended
            seat = (seat + 1) % self.seats
            drawn, source = self._draw(seat, replacement=False, source="wall")

    # -- steps -----------------------------------------------------------

    def _heed_stop(self) -> None:
        if self.stop is not None and self.stop():
            raise GameStopped(f"game {self.game} was stopped in play")

    def _wall_left(self) -> int:
        # Each replacement draw took a tile from the dead wall, which took one from the live wall.
        return self.total - self.replacements - self.settings.reserved_tiles - self.head

    def _indicator_places(self) -> int:
        """Dead wall places that hold dora and ura indicators: two for the first and for each kong."""
        return 2 * (self.settings.max_kongs + 1) if self.settings.dora_indicator else 0

    def _replacement_place(self) -> int:
        """The wall place of the next replacement draw (module notes: never an indicator place)."""
        behind = self.settings.reserved_tiles - self._indicator_places()
        if self.replacements < behind:
            return self.total - 1 - self.replacements
        # The dead wall's own tiles behind the indicators are gone: take those it was refilled with.
        return self.total - self.settings.reserved_tiles - 1 - (self.replacements - behind)

    def _draw(self, seat: int, *, replacement: bool, source: str) -> tuple[Tile, str]:
        """The tile ``seat`` draws (from the back for a ``replacement``) and where it came from:
        ``source``, or "flower" when flowers drawn on the way were set aside and replaced."""
        tile = self._take(replacement=replacement)
        while tile == FLOWER:
            self._set_flower_aside(seat)
            tile = self._take(replacement=True)
            source = "flower"
        self.hands[seat][tile] += 1
        self._log("draw", seat, tile, "replacement" if replacement or source == "flower" else "wall")
        self._check()
        return tile, source

    def _take(self, *, replacement: bool) -> int:
        """The next wall tile (a tile kind, or :data:`FLOWER`), from the front or the back."""
        if self._wall_left() <= 0:
            raise TableInvariantError("drew from an empty wall")
        if replacement:
            place = self._replacement_place()
            self.replacements += 1
            self.drawn_back.add(place)
            return self.wall[place]
        tile = self.wall[self.head]
        self.head += 1
        return tile

    def _set_flower_aside(self, seat: int) -> None:
        """A flower drawn goes face up beside its owner's hand; with nothing left to draw in its
        place, the hand ends in an exhaustive draw."""
        self.flowers[seat] += 1
        self._log("flower", seat)
        if self._wall_left() == 0:
            self._log("exhaustive_draw")
            raise _Ended

    def _kita(self, seat: int, drawn: Tile) -> bool:
        """Whether ``seat`` sets a north aside now (it then draws a replacement)."""
        north = self.settings.nukidora
        if north is None or not self.hands[seat][north] or self._wall_left() == 0:
            return False
        if self.riichi_at[seat] is not None and drawn != north:
            return False  # in riichi only the drawn north: the declared hand stays as it was
        if not self.players[seat].kita(self._view(seat, drawn), north):
            return False
        self.hands[seat][north] -= 1
        self.nuki[seat] += 1
        self._log("kita", seat, north)
        return True

    def _discard(self, seat: int, drawn: Tile | None) -> tuple[Tile, bool]:
        """The seat's discard and whether it declares riichi with it."""
        view = self._view(seat, drawn)
        if self.riichi_at[seat] is not None and drawn is not None:
            tile = drawn
            declare = False
        else:
            tile = self.players[seat].discard(view)
            self._heed_stop()  # a decision cut short by the stop is never played
            if not (0 <= tile < NUM_TILE_KINDS and self.hands[seat][tile]):
                raise TableInvariantError(f"seat {seat} discarded a tile it does not hold: {tile}")
            declare = self._may_declare(seat, tile) and self.players[seat].declare_riichi(view, tile)
        self.hands[seat][tile] -= 1
        if declare:
            self.double_riichi[seat] = not self.discards[seat] and not self.interrupted
        self.discards[seat].append(tile)
        self.river[seat].append(tile)
        if declare:
            self.riichi_at[seat] = len(self.river[seat])
        self.ippatsu[seat] = False  # the declarer's next discard ends its ippatsu
        self.passed_win[seat] = False
        self.turns += 1
        self._log("discard", seat, tile, declare)
        if self.pending_dora:
            self._show_dora(self.pending_dora)
        self._record_shanten(seat)
        self._check()
        return tile, declare

    def _may_declare(self, seat: int, tile: Tile) -> bool:
        if not self.settings.riichi_declarations or self.riichi_at[seat] is not None:
            return False
        if any(meld.is_open for meld in self.melds[seat]) or self._wall_left() < RIICHI_MIN_WALL:
            return False
        counts = bytearray(self.hands[seat])
        counts[tile] -= 1
        return self.checker.waits(Hand(bytes(counts), tuple(self.melds[seat]))).tenpai

    def _record_shanten(self, seat: int) -> None:
        hand = self._hand(seat)
        shanten = self.checker.shanten_number(hand)
        self.shanten_by_turn[seat].append(shanten)
        if self.tenpai_turn[seat] is None and shanten == 0 and self.checker.precondition_failure(hand) is None:
            self.tenpai_turn[seat] = len(self.shanten_by_turn[seat])

    def _ready(self, seat: int) -> bool:
        hand = self._hand(seat)
        return self.checker.shanten_number(hand) == 0 and self.checker.precondition_failure(hand) is None

    def _own_kong(self, seat: int) -> Meld | None:
        if self.kongs >= self.settings.max_kongs or self._wall_left() == 0:
            return None
        counts = self.hands[seat]
        options = [
            Meld(MeldKind.CLOSED_KAN, (tile,) * 4)
            for tile in range(NUM_TILE_KINDS)
            if counts[tile] == 4 and self._callable(tile)
        ]
        options += [
            Meld(MeldKind.ADDED_KAN, (meld.tiles[0],) * 4)
            for meld in self.melds[seat]
            if meld.kind is MeldKind.PON and counts[meld.tiles[0]]
        ]
        if not options:
            return None
        kong = self.players[seat].kan(self._view(seat, None), options)
        if kong is None:
            return None
        if kong not in options:
            raise TableInvariantError(f"seat {seat} declared a kong it was not offered: {kong}")
        tile = kong.tiles[0]
        self._log("kong", seat, kong.kind.value, tile)
        if self.pending_dora:
            self._show_dora(self.pending_dora)
        if kong.kind is MeldKind.ADDED_KAN:
            # The added tile is in the open: a seat that wins on it robs the kong.
            counts[tile] -= 1
            self._claim_win(seat, tile, robbing=True)
            self.melds[seat] = list(added_kong(self.melds[seat], tile))
            self.pending_dora += self.settings.dora_indicator
        else:
            counts[tile] -= 4
            self.melds[seat].append(kong)
            if self.settings.dora_indicator:
                self._show_dora(1)
        self.kongs += 1
        self._interrupt()
        self._check()
        return kong

    def _claim_win(self, seat: int, tile: Tile, *, robbing: bool) -> None:
        """The first seat after ``seat`` that can win on ``tile`` takes it (and the hand ends)."""
        for other in seat_order(seat, self.seats):
            win = self._win(other, tile, discarder=seat, robbed=robbing)
            if win is not None:
                if not robbing:  # a robbed tile left the kong-to-be, not the river; the pon stays a pon
                    self.river[seat].pop()
                self.hands[other][tile] += 1
                self._finish(other, tile, win, discarder=seat, replacement=False, robbed=robbing)

    def _win(
        self, seat: int, tile: Tile, *, discarder: int | None, source: str = "wall", robbed: bool = False
    ) -> _Win | None:
        """What ``seat`` wins with ``tile`` (drawn from ``source``, when ``discarder`` is None), or None: no win.

        The hand must complete under the rules, not be furiten on a discard,
        and be accepted by the scoring profile (which may refuse it: no yaku).
        """
        counts = self.hands[seat]
        if discarder is not None:
            counts = bytearray(counts)
            counts[tile] += 1
        hand = Hand(bytes(counts), tuple(self.melds[seat]))
        if not self.checker.is_win(hand):
            return None
        if discarder is not None and self.rules.furiten:
            if self.passed_win[seat]:
                return None
            waits = self.checker.waits(self._hand(seat)).waits
            if any(wait.tile in self.discards[seat] for wait in waits):
                return None
        if self.settings.scoring == FLAT:
            return _Win(_flat_payments(seat, discarder, self.seats), None)
        try:
            context = self._context(seat, tile, discarder, source, robbed)
            result = score(hand, tile, self.rules, context)
        except REFUSALS:
            # The scoring profile refuses this complete hand (riichi's without a yaku, MCR's
            # under 8 fans); on a discard the seat let a winning tile go by, which (where the
            # rules have furiten) makes it furiten until its own next discard.
            if discarder is not None:
                self.passed_win[seat] = True
            return None
        # Riichi's scoring counts han, MCR's fans, Qiqihar's neither.
        return _Win(tuple(result.payments), getattr(result, "han", None), getattr(result, "fan", None))

    def _context(self, winner: int, winner_tile: Tile, discarder: int | None, source: str, robbed: bool) -> WinContext:
        """The situation of a win, as the module notes describe it."""
        in_riichi = self.riichi_at[winner] is not None
        dead_wall = discarder is None and source in _DEAD_WALL_SOURCES
        return WinContext(
            winner,
            self.dealer,
            discarder,
            kong_replacement=dead_wall,
            robbed_kong=robbed,
            round_wind=self.settings.round_wind,
            dora_indicators=self._indicators(0),
            ura_indicators=self._indicators(1) if in_riichi else (),
            riichi=in_riichi and not self.double_riichi[winner],
            double_riichi=self.double_riichi[winner],
            ippatsu=self.ippatsu[winner],
            last_tile=self._wall_left() == 0 and not dead_wall and not robbed,
            first_turn=discarder is None and not dead_wall and not self.interrupted and not self.discards[winner],
            riichi_sticks=self.sticks,
            nuki=self.nuki[winner],
            flowers=self.flowers[winner],
            last_copy=not robbed and self._seen_elsewhere(winner_tile, discarder) == COPIES - 1,
        )

    def _seen_elsewhere(self, tile: Tile, discarder: int | None) -> int:
        """Copies of ``tile`` face up on the table (rivers and melds shown; a closed kong is
        face down), the one won on a discard left out: three make it the last copy (和绝张)."""
        seen = sum(river.count(tile) for river in self.river)
        seen += sum(
            meld.tiles.count(tile) for melds in self.melds for meld in melds if meld.kind is not MeldKind.CLOSED_KAN
        )
        return seen - (discarder is not None)

    def _indicators(self, under: int) -> tuple[Tile, ...]:
        """The dora indicators shown (``under=0``), or the ura indicators beneath them (``under=1``)."""
        first = self.total - self.settings.reserved_tiles
        return tuple(self.wall[first + 2 * index + under] for index in range(self.shown))

    def _show_dora(self, count: int) -> None:
        for _ in range(count):
            self.shown += 1
            self._log("dora", self._indicators(0)[-1])
        self.pending_dora = 0

    def _interrupt(self) -> None:
        """A call or kong: every ippatsu ends, and no later first turn is uninterrupted."""
        self.interrupted = True
        self.ippatsu = [False] * self.seats

    def _offer_calls(self, seat: int, tile: Tile) -> tuple[int, Meld] | None:
        if not self._callable(tile):
            return None
        can_kong = self._wall_left() > 0 and self.kongs < self.settings.max_kongs
        for other in seat_order(seat, self.seats):
            held = self.hands[other][tile]
            if held < 2 or self.riichi_at[other] is not None:
                continue
            options = [Meld(MeldKind.PON, (tile,) * 3)]
            if held == 3 and can_kong:
                options.append(Meld(MeldKind.OPEN_KAN, (tile,) * 4))
            meld = self._ask_call(other, tile, options)
            if meld is not None:
                return self._make_call(other, seat, tile, meld)
            break  # only one seat can hold two more copies
        nxt = (seat + 1) % self.seats
        if self.rules.chi_allowed and not is_honor(tile) and self.riichi_at[nxt] is None:
            next_hand = self.hands[nxt]
            position = tile % 9
            options = []
            for low in range(max(0, position - 2), min(6, position) + 1):
                first = tile - position + low
                others = [t for t in (first, first + 1, first + 2) if t != tile]
                if all(next_hand[t] and self._callable(t) for t in others):
                    options.append(Meld(MeldKind.CHI, (first, first + 1, first + 2)))
            if options:
                meld = self._ask_call(nxt, tile, options)
                if meld is not None:
                    return self._make_call(nxt, seat, tile, meld)
        return None

    def _ask_call(self, seat: int, tile: Tile, options: list[Meld]) -> Meld | None:
        meld = self.players[seat].call(self._view(seat, None), tile, options)
        if meld is not None and meld not in options:
            raise TableInvariantError(f"seat {seat} made a call it was not offered: {meld}")
        return meld

    def _make_call(self, seat: int, discarder: int, tile: Tile, meld: Meld) -> tuple[int, Meld]:
        used = list(meld.tiles)
        used.remove(tile)
        for held in used:
            self.hands[seat][held] -= 1
        self.river[discarder].pop()
        declared = self.riichi_at[discarder]
        if declared is not None and declared > len(self.river[discarder]):
            # The declaration tile was called: later tiles still count as discarded after riichi.
            self.riichi_at[discarder] = len(self.river[discarder])
        self.melds[seat].append(meld)
        if meld.kind is MeldKind.OPEN_KAN:
            self.kongs += 1
            self.pending_dora += self.settings.dora_indicator
        self._interrupt()
        self._log("call", seat, meld.kind.value, discarder, tile, meld.tiles)
        self._check()
        return seat, meld

    def _callable(self, tile: Tile) -> bool:
        return self.settings.call_wildcards or tile not in self.rules.wildcards

    def _finish(
        self, winner: int, tile: Tile, win: _Win, *, discarder: int | None, replacement: bool, robbed: bool = False
    ) -> None:
        if not self.checker.is_win(self._hand(winner)):
            raise TableInvariantError(f"seat {winner} recorded a win that does not win")
        if sum(win.payments):
            raise TableInvariantError(f"payments {win.payments} do not sum to zero")
        self.outcome = (winner, discarder, robbed, replacement, win.payments, win.han, win.fan)
        self._log("win", winner, tile, discarder, robbed, replacement)
        self._check()
        raise _Ended

    # -- views and checks -----------------------------------------------

    def _hand(self, seat: int) -> Hand:
        return Hand(bytes(self.hands[seat]), tuple(self.melds[seat]))

    def _view(self, seat: int, drawn: Tile | None) -> SeatView:
        opponents = []
        for other in seat_order(seat, self.seats):
            riichi_at = self.riichi_at[other]
            opponents.append(
                Opponent(
                    river=tuple(self.river[other]),
                    riichi=riichi_at is not None,
                    riichi_turn=riichi_at or None,  # 0: the declaration tile was called away
                    melds=tuple(self.melds[other]),
                )
            )
        seat_wind = EAST + (seat - self.dealer) % self.seats
        visible = None
        north = self.settings.nukidora
        if north is not None and any(self.nuki):
            # Norths set aside are face up: every seat sees them (its own too, out of its hand).
            counts = bytearray(NUM_TILE_KINDS)
            counts[north] = sum(self.nuki)
            visible = bytes(counts)
        return SeatView(
            seat,
            self._hand(seat),
            drawn,
            len(self.discards[seat]) + 1,
            tuple(opponents),
            self._indicators(0),
            self._wall_left(),
            self.rules,
            self.checker,
            self.settings.needs_yaku,
            DRAGONS + tuple(sorted({seat_wind, self.settings.round_wind})),
            visible,
            self.nuki[seat],
            seat_wind,
            self.settings.round_wind,
            self.settings.minimum_fan,
            self.stop,
        )

    def _log(self, *event: object) -> None:
        if self.events is not None:
            self.events.append(event)

    def _check(self) -> None:
        if not self.audit:
            return
        total = [0] * (NUM_TILE_KINDS + 1)  # the last entry counts flowers
        for place in range(self.head, self.total):
            if place not in self.drawn_back:
                total[self.wall[place]] += 1
        total[FLOWER] += sum(self.flowers)
        if self.settings.nukidora is not None:
            total[self.settings.nukidora] += sum(self.nuki)
        for seat in range(self.seats):
            for tile, count in enumerate(self.hands[seat]):
                total[tile] += count
            for meld in self.melds[seat]:
                for tile in meld.tiles:
                    total[tile] += 1
            for tile in self.river[seat]:
                total[tile] += 1
        absent = self.rules.absent_tiles
        if total != [0 if tile in absent else COPIES for tile in range(NUM_TILE_KINDS)] + [self.settings.flowers]:
            raise TableInvariantError(f"tiles not conserved: {total}")
        first = self.total - self.settings.reserved_tiles
        if self.drawn_back & set(range(first, first + self._indicator_places())):
            raise TableInvariantError("a replacement draw took an indicator place")
        for seat in range(self.seats):
            concealed = sum(self.hands[seat])
            if concealed + 3 * len(self.melds[seat]) not in (HAND_SIZE, HAND_SIZE + 1):
                raise TableInvariantError(f"seat {seat} holds {concealed} tiles with {len(self.melds[seat])} melds")


def _flat_payments(winner: int, discarder: int | None, seats: int = DEFAULT_SEATS) -> tuple[int, ...]:
    """A flat win: the discarder pays :data:`FLAT_WIN_VALUE`, or each other seat its share of it."""
    payments = [0] * seats
    payers = [seat for seat in range(seats) if seat != winner] if discarder is None else [discarder]
    share = FLAT_WIN_VALUE // len(payers)
    for payer in payers:
        payments[payer] -= share
        payments[winner] += share
    return tuple(payments)


def seat_order(seat: int, seats: int = DEFAULT_SEATS) -> Sequence[int]:
    """The other seats in play order after ``seat``, at a table of ``seats``.

    >>> list(seat_order(2)), list(seat_order(2, 3))
    ([3, 0, 1], [0, 1])
    """
    return [(seat + offset) % seats for offset in range(1, seats)]


# -- the bridge to whole-game records ------------------------------------------------------
#
# Self-play reports whole games (app.core.table.game.GameRecord).  The table machine plays
# riichi and sanma; until it plays the other presets, self-play plays those here, one hand
# a game, and reports each hand as a one-hand game.  Delete this section with the module.

#: Presets self-play still plays on this simulator: those the table machine does not play yet.
HAND_ONLY_PRESETS: Final = tuple(name for name in TABLE_SETTINGS if name not in table_game.TABLE_PRESETS)


def validate_record_config(config: table_game.GameConfig) -> RuleProfile:
    """The rule profile of a self-play ``config`` of a :data:`HAND_ONLY_PRESETS` preset, or a typed
    error naming the bad field: these play one hand a game and keep no mjai log.

    >>> validate_record_config(table_game.GameConfig("mcr", ("advisor",) * 4, 1, length="hanchan"))
    Traceback (most recent call last):
    ...
    app.core.table.simulator.InvalidGameConfig: mcr is played one hand a game until the table machine plays it: length kyoku, not 'hanchan'
    """
    rules = validate_config(GameConfig(config.rules, config.players, config.seed, weights=config.weights))
    table_game.table_rules(rules, config.length)  # an unknown length is refused as at the table
    if config.length != GameLength.KYOKU:
        raise InvalidGameConfig(
            f"{rules.name} is played one hand a game until the table machine plays it: "
            f"length kyoku, not {config.length!r}",
            field="length",
        )
    if config.record_events:
        raise InvalidGameConfig(
            f"{rules.name} hands are played by the old simulator, which writes no mjai log", field="record_events"
        )
    return rules


def play_record(
    config: table_game.GameConfig, game: int, *, stop: Callable[[], bool] | None = None
) -> table_game.GameRecord:
    """Hand number ``game`` of a :data:`HAND_ONLY_PRESETS` run, as a one-hand game record.

    The simulator deals hand ``game`` from seat ``game % seats``; the record numbers the seats
    from that dealer, as a game of the table machine does (seat 0 deals first), and seats the
    lineup as ``config.rotation`` says.  So rotation ``game % seats`` (self-play's default) plays
    exactly the simulator's hand with ``config.players`` in its seats, and every rotation of one
    game meets the same wall (the duplicate mode).  The final scores are the hand's payments
    (there are no points held), ranked as at the table: ties by seat order from the dealer.

    >>> config = table_game.GameConfig("qiqihar", ("advisor", "greedy", "heuristic", "random"), 7,
    ...     record_events=False, rotation=1)
    >>> record = play_record(config, 1)
    >>> record.players, record.hands[0].dealer, sum(record.scores), sorted(record.ranks)
    (('greedy', 'heuristic', 'random', 'advisor'), 0, 0, [1, 2, 3, 4])
    """
    rules = validate_record_config(config)
    seats = rules.seats
    dealer = game % seats
    seated = tuple(config.players[(seat + config.rotation) % seats] for seat in range(seats))
    # The simulator's seat s is the record's seat (s - dealer) % seats.
    lineup = tuple(seated[(seat - dealer) % seats] for seat in range(seats))
    try:
        result = play_game(GameConfig(config.rules, lineup, config.seed, weights=config.weights), game, stop=stop)
    except GameStopped:
        raise table_game.GameStopped(f"game {game} was stopped in play") from None

    def from_dealer(values: Sequence[object]) -> tuple[Any, ...]:
        return tuple(values[(seat + dealer) % seats] for seat in range(seats))

    def seat_of(seat: int | None) -> int | None:
        return None if seat is None else (seat - dealer) % seats

    winner = seat_of(result.winner)
    payments = from_dealer(result.payments)
    hand = table_game.HandRecord(
        game=game,
        dealer=0,
        winner=winner,
        discarder=seat_of(result.discarder),
        winners=() if winner is None else (winner,),
        ending="exhaustive" if winner is None else "hora",
        payments=payments,
        tenpai_turn=from_dealer(result.tenpai_turn),
        shanten_by_turn=from_dealer(result.shanten_by_turn),
        turns=result.turns,
        han=result.han,
        riichi=from_dealer(result.riichi[:seats]),
        riichi_sticks=result.riichi_sticks,
        # Riichi sticks are not in the simulator's payments: the winner's payment is its points.
        points=() if winner is None else (payments[winner],),
        fan=result.fan,
    )
    ranks = [0] * seats
    for place, seat in enumerate(placements(payments), start=1):
        ranks[seat] = place
    return table_game.GameRecord(
        game, seated, hands=[hand], scores=payments, ranks=tuple(ranks), rotation=config.rotation
    )
