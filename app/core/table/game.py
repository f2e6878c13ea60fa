"""Whole games at the table machine: a seeded wall, strategies at the seats, an mjai log.

The dealer here only does what no seat decides: it shuffles a wall, deals, turns the
next tile over, shows the kan dora, puts the riichi stick down, and settles the claims
on a discard by priority (a win before a pon or open kan before a chi; two wins are a
double ron, three an abortive draw).  Every rule of play, and every score, is the
table machine's (:class:`~app.core.table.machine.TableMachine`): the dealer asks it
what each seat may do, asks the seat's strategy to pick (:func:`~app.core.table.decide.decide`),
and applies the pick as an mjai event.  Between hands :func:`~app.core.table.flow.next_hand`
says who deals next, with how many honba and sticks, or that the game is over.

The wall: ``rules.tile_total`` tiles (136; sanma 108), with one red five of each suit the
set has.  The last 14 are the dead wall: the dora indicators at its 5th, 7th, ... tile and
the ura indicators after each; replacement draws (kan, kita) come from the back of the live
wall, so that the dead wall keeps 14 tiles, as at Tenhou.

A game is a function of its seed string (:func:`game_seed`) and the players' seats: the
same seed deals the same walls, hand after hand, whoever sits where (the duplicate mode).

>>> from app.core.families.registry import TABLES
>>> record = play_game(GameConfig("riichi", ("linear",) * 4, seed=3, length="kyoku"), 0, TABLES)
>>> record.events[0]["type"], record.events[-1]["type"], len(record.hands)
('start_game', 'end_game', 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple, Protocol

from app.core.advice.discard import DEFAULT_WEIGHTS, Weights
from app.core.errors import TenpaiError
from app.core.shape.rules import RuleProfile, rule_profile
from app.core.shape.tiles import NUM_TILE_KINDS
from app.core.table.decide import decide
from app.core.table.family import Family
from app.core.table.flow import (
    AbortiveDraw,
    AbortiveDrawKind,
    ExhaustiveDraw,
    GameEnd,
    GameLength,
    TableRules,
    TableState,
    Wins,
    first_hand,
    next_hand,
    ron_order,
    tenhou_rules,
)
from app.core.table.machine import HAND_SIZE, TableMachine
from app.core.table.mjai import (
    FIRST_FLOWER,
    TABLE_TILES,
    UNKNOWN,
    Event,
    MalformedEvent,
    action_object,
    is_flower,
    kind_of,
    red_of,
    tile_name,
)
from app.core.table.play_rules import PlayRules
from app.core.table.players import make_player

_FIRST_INDICATOR: Final = 4


class InvalidGameConfig(TenpaiError):
    """A simulation asked with players or rules the table cannot seat."""

    code = "invalid_game_config"


class GameStopped(Exception):
    """The caller's stop signal ended the game in play."""


class GameConfig(NamedTuple):
    """One run's settings: every game of it is seeded from ``seed`` and its index."""

    rules: str
    #: Strategy names by seat (see :data:`app.core.table.players.PLAYER_KINDS`).
    players: tuple[str, ...]
    seed: int
    weights: Weights = DEFAULT_WEIGHTS
    #: "kyoku" (one hand), "tonpuu" or "hanchan".
    length: str = "kyoku"
    #: Keep the mjai log of every game.
    record_events: bool = True
    #: Check after every event that no tile was created or lost.
    audit: bool = False
    #: Seat s plays ``players[(s + rotation) % seats]`` on the same walls (the duplicate mode).
    rotation: int = 0
    #: Rule options over the preset (``(("bloody_river", True),)``), as ``GET /rules`` lists them.
    options: tuple[tuple[str, Any], ...] = ()


class HandRecord(NamedTuple):
    """One hand of a game, for the self-play statistics."""

    game: int
    dealer: int
    #: The first winner (from the discarder's right in a double ron); None: a draw.
    winner: int | None
    #: Who dealt in (or whose kan was robbed); None: self-draw or no win.
    discarder: int | None
    winners: tuple[int, ...]
    #: How the hand ended: "hora", or the draw's kind.
    ending: str
    #: Each seat's score change over the hand: the deltas, less the riichi sticks it put down.
    payments: tuple[int, ...]
    #: Per seat: the own discard after which the hand was first ready (0: dealt ready); None: never.
    tenpai_turn: tuple[int | None, ...]
    #: Per seat: shanten after each own discard.
    shanten_by_turn: tuple[tuple[int, ...], ...]
    #: Discards in the hand.
    turns: int
    #: The first win's han (13 and up: yakuman); None without a win.
    han: int | None
    #: Per seat: a riichi whose stick went down.
    riichi: tuple[bool, ...]
    riichi_sticks: int
    #: Per seat: calls made (chi, pon, open kan).
    calls: tuple[int, ...] = ()
    #: The first win's MCR fans (flowers not counted) or Sichuan fans (before the cap); None
    #: without a win or under other scoring.
    fan: int | None = None
    #: Per winner, in the order of ``winners``: what the other seats paid it (honba included,
    #: riichi sticks not).
    points: tuple[int, ...] = ()
    #: Sichuan, per winner in the order of ``winners``: the win's fans before the cap.
    fans: tuple[int, ...] = ()
    #: Sichuan, per winner in the order of ``winners``: the names of the fans it counted
    #: (``qing_yi_se``, ``gen``, ...).
    fan_names: tuple[tuple[str, ...], ...] = ()


@dataclass(slots=True)
class GameRecord:
    """One whole game: its mjai log, its hands, the final scores and places."""

    game: int
    players: tuple[str, ...]
    events: list[dict[str, Any]] = field(default_factory=list)
    hands: list[HandRecord] = field(default_factory=list)
    scores: tuple[int, ...] = ()
    #: Place of each seat, 1 first.
    ranks: tuple[int, ...] = ()
    #: The config's rotation: seat s held ``config.players[(s + rotation) % seats]``.
    rotation: int = 0


def game_seed(seed: int, game: int) -> str:
    """The seed string of one game: a function of the run seed and the game index only."""
    return f"tenpai/{seed}/{game}"


def table_rules(rules: RuleProfile, length: str) -> TableRules:
    """Tenhou's table rules for ``rules`` and a game ``length``, or :class:`InvalidGameConfig`."""
    try:
        game_length = GameLength(length)
    except ValueError:
        names = ", ".join(item.value for item in GameLength)
        raise InvalidGameConfig(f"unknown game length {length!r}; lengths: {names}", field="length") from None
    return tenhou_rules(seats=rules.seats, length=game_length)


def validate_config(config: GameConfig, tables: Mapping[str, Family]) -> RuleProfile:
    """The rule profile of ``config``, or a typed error naming the bad field; ``tables`` is the
    family of each preset with a table (:data:`app.core.families.registry.TABLES`)."""
    family = tables.get(config.rules)
    try:
        if family is None:
            rule_profile(config.rules, **dict(config.options))  # an unknown preset or option says so
        else:  # each preset takes the shared options and its family's own, no other family's
            rules = family.preset_rules(config.rules, dict(config.options))
    except TenpaiError as error:
        raise type(error)(error.message, field="rules") from None
    if family is None:
        raise InvalidGameConfig(
            f"the table plays {', '.join(tables)}; rules {config.rules!r} have no table", field="rules"
        )
    lengths = family.play_rules(rules).lengths
    if config.length in {"kyoku", "tonpuu", "hanchan"} and config.length not in lengths:
        raise InvalidGameConfig(
            f"{rules.name} is played one hand at a time here (length kyoku); its flow between hands "
            "(dealer, honba, the end of a game) is not modelled",
            field="length",
        )
    if len(config.players) != rules.seats:
        raise InvalidGameConfig(
            f"a {rules.name} table seats exactly {rules.seats} players, got {len(config.players)}", field="players"
        )
    for seat, name in enumerate(config.players):
        try:
            make_player(name)
        except TenpaiError as error:
            raise type(error)(error.message, field=f"players[{seat}]") from None
    table_rules(rules, config.length)
    config.weights.validated()
    return rules


def wall_tiles(rules: RuleProfile, play: PlayRules) -> list[int]:
    """Every tile of the set as table tiles: four of each kind (one five of each suit red where the
    table ``play`` has red fives), and the flowers."""
    tiles: list[int] = []
    for kind in range(NUM_TILE_KINDS):
        if kind in rules.absent_tiles:
            continue
        red = red_of(kind) if play.red_fives else None
        tiles.extend([kind] * 3 + [red if red is not None else kind])
    tiles.extend(range(FIRST_FLOWER, FIRST_FLOWER + play.flowers))
    return tiles


class Ask(NamedTuple):
    """The seats whose decisions the dealer needs next, in the order it asks them.

    One seat on its turn, before the first draw (exchange, void suit) or to answer its own
    ``reach``; several at once after a discard or an added kan, where each may claim and the
    dealer settles the claims by priority once it has every answer."""

    seats: tuple[int, ...]


#: The answers to an :class:`Ask`: each asked seat's legal action, by seat.
Answers = Mapping[int, Event]

#: A game in play: yields what it asks, is sent the answers, returns the whole record.
GameRun = Generator[Ask, Answers, GameRecord]


class WallSource(Protocol):
    """Where each hand's wall comes from: a function of the game's seed and the hand's number."""

    def wall(self, hand: int, tiles: Sequence[int]) -> list[int]:
        """The tiles of ``tiles`` in the order the dealer reads them for hand number ``hand``."""
        ...

    def direction(self, hand: int, seats: int) -> int:
        """Sichuan's exchange-three direction for hand ``hand``: the receiver is ``seat + direction``."""
        ...


class RandomWalls:
    """Self-play's walls: one :class:`random.Random` shuffles each hand and draws its exchange
    direction, in the order the hand needs them."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def wall(self, hand: int, tiles: Sequence[int]) -> list[int]:
        wall = list(tiles)
        self.rng.shuffle(wall)
        return wall

    def direction(self, hand: int, seats: int) -> int:
        return self.rng.randrange(1, seats)  # from the seat after, across, or before


def play_game(
    config: GameConfig, game: int, tables: Mapping[str, Family], *, stop: Callable[[], bool] | None = None
) -> GameRecord:
    """Play game number ``game`` of the run ``config`` (deterministic in both); ``tables`` is the
    family of each preset with a table (:data:`app.core.families.registry.TABLES`)."""
    rules = validate_config(config, tables)
    seed = game_seed(config.seed, game)
    seated = tuple(config.players[(seat + config.rotation) % rules.seats] for seat in range(rules.seats))
    strategies = [
        make_player(name, config.weights, random.Random(f"{seed}/{seat}")) for seat, name in enumerate(seated)
    ]
    dealer = Dealer(
        rules,
        tables[rules.name],
        table_rules(rules, config.length),
        RandomWalls(random.Random(seed)),
        names=seated,
        game=game,
        rotation=config.rotation,
        record_events=config.record_events,
        audit=config.audit,
        stop=stop,
    )
    run = dealer.run()
    ask = next(run)
    while True:
        # The answers are made outside the ``try``: a StopIteration escaping a strategy is its
        # error, not the end of the game.
        answers = {
            seat: decide(dealer.machine, seat, strategies[seat], stop=stop, rank=False).action for seat in ask.seats
        }
        try:
            ask = run.send(answers)
        except StopIteration as finished:
            record: GameRecord = finished.value
            return record


class Dealer:
    """One game at the table: the dealer's part of it, as a generator of :class:`Ask`.

    :meth:`run` deals and plays every hand; where a seat must decide it yields the seats it
    asks and is sent their answers (each one of :meth:`TableMachine.legal_actions`).  Self-play
    answers with strategies at once (:func:`play_game`); a hosted table answers when its
    players do, so the same dealer, with the same rules of dealing and claim priority, runs both.
    """

    def __init__(
        self,
        rules: RuleProfile,
        family: Family,
        table: TableRules,
        walls: WallSource,
        *,
        names: Sequence[str],
        game: int = 0,
        rotation: int = 0,
        record_events: bool = True,
        audit: bool = False,
        stop: Callable[[], bool] | None = None,
        start: TableState | None = None,
    ) -> None:
        """``start``: the first hand's table when the game does not begin at East 1 with every seat
        at the rules' start points (an arena's game from South 1, say); the game then runs on from
        it by the same rules."""
        self.rules = rules
        self.seats = rules.seats
        self.game = game
        self.stop = stop
        self.table = table
        self.walls = walls
        self.record_events = record_events
        self.audit = audit
        self.record = GameRecord(game, tuple(names), rotation=rotation)
        self.emitted = 0
        self.hands_dealt = 0
        self.family = family
        self.machine = TableMachine(rules, family, table=self.table)
        self.table_play = self.machine.play
        self.tiles = wall_tiles(rules, self.table_play)
        self.start = first_hand(table) if start is None else start
        if len(self.start.scores) != self.seats:
            raise InvalidGameConfig(
                f"the first hand gives {len(self.start.scores)} scores for {self.seats} seats", field="start"
            )

    # -- the game ----------------------------------------------------------

    def run(self) -> GameRun:
        self._emit({"type": "start_game", "names": list(self.record.players)})
        state: TableState | GameEnd = self.start
        while isinstance(state, TableState):
            outcome = yield from self._play_hand(state)
            after = TableState(
                state.bakaze,
                state.kyoku,
                state.honba,
                self.machine.kyotaku,
                state.oya,
                tuple(self.machine.scores),
            )
            state = next_hand(after, outcome, self.table)
        self.record.scores = state.scores
        ranks = [0] * self.seats
        for place, seat in enumerate(state.placements, start=1):
            ranks[seat] = place
        self.record.ranks = tuple(ranks)
        self._emit({"type": "end_game", "scores": list(state.scores)})
        return self.record

    def _emit(self, obj: dict[str, Any], event: Event | None = None) -> None:
        """Apply ``obj`` and log it; ``event``, when given, is ``obj`` already read (its
        :func:`~app.core.table.mjai.read_event`, ``raw`` and all): the dealer's own events and
        the seats' legal actions need no second reading."""
        if event is None:
            self.machine.apply_object(obj, self.emitted)
        else:
            try:
                self.machine.apply(event)
            except MalformedEvent as error:
                raise error.of_event(self.emitted) from None
        self.emitted += 1
        if self.record_events:
            self.record.events.append(obj)
        if self.audit:
            self._audit()

    def _heed_stop(self) -> None:
        if self.stop is not None and self.stop():
            raise GameStopped(f"game {self.game} was stopped in play")

    def _ask(self, seats: Sequence[int]) -> Generator[Ask, Answers, dict[int, Event]]:
        """Ask ``seats`` and take their answers: each a legal action of its seat (the driver's
        duty: self-play's strategies answer through :func:`decide`, a hosted table checks)."""
        answers = yield Ask(tuple(seats))
        return {seat: answers[seat] for seat in seats}

    def _decide(self, seat: int) -> Generator[Ask, Answers, Event]:
        answers = yield from self._ask((seat,))
        return answers[seat]

    # -- one hand ----------------------------------------------------------

    def _play_hand(self, state: TableState) -> Generator[Ask, Answers, AbortiveDraw | ExhaustiveDraw | Wins]:
        machine = self.machine
        n = self.seats
        wall = self.walls.wall(self.hands_dealt, self.tiles)
        self.hand_number = self.hands_dealt
        self.hands_dealt += 1
        self.wall = wall
        self.front = 0
        self.back = len(wall) - self.table_play.dead_wall - 1
        self.shown = 1
        dealt: list[list[int]] = [[] for _ in range(n)]
        for offset in range(n):
            seat = (state.oya + offset) % n
            dealt[seat] = wall[self.front : self.front + HAND_SIZE]
            self.front += HAND_SIZE
        flowers: list[list[int]] = [[] for _ in range(n)]
        for offset in range(n):
            # A flower dealt goes aside and is replaced from the back, seat by seat in deal order.
            seat = (state.oya + offset) % n
            # Ends: each pass sets one flower aside for good, and the set holds at most eight.
            while any(is_flower(tile) for tile in dealt[seat]):
                flower = next(tile for tile in dealt[seat] if is_flower(tile))
                dealt[seat].remove(flower)
                flowers[seat].append(flower)
                dealt[seat].append(self.wall[self.back])
                self.back -= 1
        tehais = [[tile_name(tile) for tile in tiles] for tiles in dealt]
        scores_before = list(state.scores)
        self.shanten: list[list[int]] = [[] for _ in range(n)]
        self.tenpai_turn: list[int | None] = [None] * n
        self.calls = [0] * n
        self.turns = 0
        start: dict[str, Any] = {"type": "start_kyoku", "bakaze": state.bakaze.value}
        if self.table_play.dora:
            start["dora_marker"] = tile_name(self._indicator(0))
        start.update(
            kyoku=state.kyoku, honba=state.honba, kyotaku=state.kyotaku, oya=state.oya, scores=list(state.scores)
        )
        start["tehais"] = tehais
        if self.table_play.flowers:
            start["flowers"] = [[tile_name(tile) for tile in aside] for aside in flowers]
        hand_wildcards = self.rules.wildcards
        if self.family.indicates_wildcards(self.rules):
            # The tile turned to choose the hand's wildcards is the wall's last (never drawn: the
            # family's dead wall keeps it); never a flower: a flower there changes places with
            # the nearest tile before it that is not one, as a flower turned would be set aside
            # for the next tile.
            last = len(self.wall) - 1
            if is_flower(self.wall[last]):
                nearest = max(i for i in range(self.front, self.back + 1) if not is_flower(self.wall[i]))
                self.wall[nearest], self.wall[last] = self.wall[last], self.wall[nearest]
            indicator = self.wall[last]
            start["wildcard_indicator"] = tile_name(indicator)
            hand_wildcards = self.family.hand_rules(self.rules, kind_of(indicator)).wildcards
        if hand_wildcards:
            start["wildcards"] = [tile_name(tile) for tile in hand_wildcards]
        self._emit(start)
        yield from self._before_first_draw()
        for seat in range(n):
            if machine.players[seat].size == HAND_SIZE and machine.hand_shanten(seat) == 0:
                self.tenpai_turn[seat] = 0
        outcome = yield from self._turns()
        self._emit({"type": "end_kyoku"})
        result = machine.results[-1]
        payments = tuple(after - before for after, before in zip(machine.scores, scores_before, strict=True))
        first = result.wins[0] if result.wins else None
        self.record.hands.append(
            HandRecord(
                game=self.game,
                dealer=state.oya,
                winner=first.winner if first else None,
                discarder=first.target if first and first.target != first.winner else None,
                winners=tuple(result.winners),
                ending=result.kind,
                payments=payments,
                tenpai_turn=tuple(self.tenpai_turn),
                shanten_by_turn=tuple(map(tuple, self.shanten)),
                turns=self.turns,
                han=first.han if first else None,
                fan=first.fan if first else None,
                riichi=tuple(p.riichi == 2 for p in machine.players),
                riichi_sticks=sum(p.riichi == 2 for p in machine.players),
                calls=tuple(self.calls),
                points=tuple(self.family.points_of(win) for win in result.wins),
                fans=tuple(win.fan for win in result.wins if win.fan is not None) if self.table_play.play_on else (),
                fan_names=tuple(self.family.fan_names(win) for win in result.wins) if self.table_play.play_on else (),
            )
        )
        return outcome

    def _before_first_draw(self) -> Generator[Ask, Answers, None]:
        """Sichuan: every seat passes three tiles of one suit (换三张), in one direction the dealer
        draws at random for the hand, then declares its void suit (定缺), seat by seat from the dealer."""
        machine = self.machine
        order = [(machine.oya + offset) % self.seats for offset in range(self.seats)]
        if machine.phase == "exchange":
            for seat in order:
                self._emit_action((yield from self._decide(seat)))
            offset = self.walls.direction(self.hand_number, self.seats)
            for seat in order:
                target = (seat + offset) % self.seats
                passed = machine.players[target].exchanged
                assert passed is not None
                obj = {"type": "exchange_in", "actor": seat, "target": target, "pais": [tile_name(t) for t in passed]}
                self._emit(obj)
        if machine.phase == "void":
            for seat in order:
                self._emit_action((yield from self._decide(seat)))

    def _indicator(self, index: int, ura: bool = False) -> int:
        dead = len(self.wall) - self.table_play.dead_wall
        return self.wall[dead + _FIRST_INDICATOR + 2 * index + int(ura)]

    def _draw(self, seat: int) -> None:
        machine = self.machine
        while machine.dora_now:
            self._show_dora()
        if machine.rinshan_next:
            tile = self.wall[self.back]
            self.back -= 1
        else:
            tile = self.wall[self.front]
            self.front += 1
        obj = {"type": "tsumo", "actor": seat, "pai": tile_name(tile)}
        self._emit(obj, Event("tsumo", seat, None, tile, (), None, obj))

    def _show_dora(self) -> None:
        marker = self._indicator(self.shown)
        obj = {"type": "dora", "dora_marker": tile_name(marker)}
        self._emit(obj, Event("dora", None, None, marker, (), None, obj))
        self.shown += 1

    def _turns(self) -> Generator[Ask, Answers, AbortiveDraw | ExhaustiveDraw | Wins]:
        machine = self.machine
        self._draw(machine.turn)
        while True:
            self._heed_stop()
            if machine.phase == "act":
                ended = yield from self._act(machine.turn)
            elif machine.phase == "claim":
                ended = yield from self._claims()
            elif machine.draw_kind() == "exhaustive":  # a play-on table's wall ran out after a win
                return self._draw_end()
            else:
                self._draw(machine.turn)
                continue
            if ended is not None:
                return ended

    def _emit_action(self, action: Event) -> None:
        """Play a seat's legal action: its mjai object, and the action as read from it."""
        obj = action_object(action)
        self._emit(obj, action._replace(raw=obj))

    def _act(self, seat: int) -> Generator[Ask, Answers, AbortiveDraw | ExhaustiveDraw | Wins | None]:
        machine = self.machine
        if machine.draw_kind() == "exhaustive":  # a flower drawn with no tile left to replace it
            return self._draw_end()
        action = yield from self._decide(seat)
        kind = action.kind
        if kind == "hora":
            self._win([seat], target=seat)
            return self._hand_won()
        if kind == "ryukyoku":
            return self._draw_end()
        if kind in ("dahai", "reach"):
            while machine.dora_later:  # an open or added kan's indicator, before the discard
                self._show_dora()
        self._emit_action(action)
        if kind == "dahai":
            self.turns += 1
            self._note_shanten(seat)
        return None

    def _note_shanten(self, seat: int) -> None:
        machine = self.machine
        shanten = machine.hand_shanten(seat)
        self.shanten[seat].append(shanten)
        if shanten == 0 and self.tenpai_turn[seat] is None:
            self.tenpai_turn[seat] = len(self.shanten[seat])

    def _claims(self) -> Generator[Ask, Answers, AbortiveDraw | ExhaustiveDraw | Wins | None]:
        machine = self.machine
        discarder = machine.turn
        answers = yield from self._ask(machine.decision_seats())
        rons = [seat for seat, answer in answers.items() if answer.kind == "hora"]
        one_winner = self.table_play.head_bump or not self.table.double_ron
        if len(rons) >= 3 and self.table.triple_ron_draw and self.table_play.abortive_draws and not one_winner:
            return self._draw_end()
        if rons:
            ordered = ron_order(discarder, rons, self.seats)
            if one_winner:
                ordered = ordered[:1]
            self._win(list(ordered), target=discarder)
            ended = self._hand_won()
            if ended is not None:
                return ended
            if machine.draw_kind() == "exhaustive":  # the wall's last tile was won on
                return self._draw_end()
            self._draw(machine.next_drawer())
            return None
        source = machine.claim_source
        if source == "dahai" and machine.players[discarder].riichi == 1:
            obj = {"type": "reach_accepted", "actor": discarder}
            self._emit(obj, Event("reach_accepted", discarder, None, None, (), None, obj))
            if machine.draw_kind() == "four_riichi":
                return self._draw_end()
        calls = [answer for answer in answers.values() if answer.kind != "none"]
        calls.sort(key=lambda answer: answer.kind == "chi")
        if calls:
            call = calls[0]
            self._emit_action(call)
            assert call.actor is not None
            self.calls[call.actor] += 1
            return None
        if source == "dahai" and machine.draw_kind() is not None:
            return self._draw_end()
        self._draw(machine.next_drawer())
        return None

    def _hand_won(self) -> Wins | None:
        """The hand's ending after a win, or None where play goes on (a play-on table)."""
        result = self.machine.result
        if self.machine.phase != "won" or result is None:
            return None
        if self.table_play.play_on:
            return Wins(tuple(result.winners[:1]))  # the first winner's hand: several ended it
        return Wins(tuple(result.winners))

    def _draw_end(self) -> AbortiveDraw | ExhaustiveDraw:
        machine = self.machine
        event: dict[str, Any] = {"type": "ryukyoku"}
        self._emit(event)
        result = machine.result
        assert result is not None
        event["deltas"] = list(result.deltas if result.draw_deltas is None else result.draw_deltas)
        if result.kind == "exhaustive":
            return ExhaustiveDraw(result.tenpai, result.nagashi)
        return AbortiveDraw(AbortiveDrawKind(result.kind))

    def _win(self, winners: Sequence[int], *, target: int) -> None:
        machine = self.machine
        for seat in winners:
            tile = machine.players[seat].drawn if seat == target else machine.claim_tile
            assert tile is not None
            ura = [self._indicator(i, ura=True) for i in range(self.shown)] if machine.players[seat].riichi else []
            event: dict[str, Any] = {"type": "hora", "actor": seat, "target": target, "pai": tile_name(tile)}
            if self.table_play.dora:
                event["ura_markers"] = [tile_name(t) for t in ura]
            if self.family.reveals_after_win:
                # Turned from the front of the tiles not yet drawn: what is left of the live wall,
                # then the tiles kept back (the dead wall) unless one there is already face up
                # (a wildcard indicator); as many as there are.  They stay where they lie: the
                # hand is over.
                undrawn = self.wall[self.front : self.back + 1]
                if not self.family.indicates_wildcards(self.rules):
                    undrawn += self.wall[len(self.wall) - self.table_play.dead_wall :]
                count = self.family.revealed_count(machine, seat)
                event["revealed"] = [tile_name(t) for t in undrawn[:count]]
            self._emit(event)
            result = machine.result
            assert result is not None
            event["deltas"] = list(result.wins[-1].deltas)

    def _audit(self) -> None:
        """No tile created or lost: the wall's tiles are all in hands, melds, rivers, aside, or unturned."""
        machine = self.machine
        if not machine.hand_open:
            return
        counts = [0] * TABLE_TILES
        for player in machine.players:
            for tile in range(TABLE_TILES):
                if tile != UNKNOWN:
                    counts[tile] += player.counts[tile]
            for tile in player.flowers + player.won_tiles:
                counts[tile] += 1
            if player.exchanged is not None and not player.given:  # passed, not yet received
                for tile in player.exchanged:
                    counts[tile] += 1
            for meld in player.melds:
                for tile in meld.tiles:
                    counts[tile] += 1
            for index, tile in enumerate(player.river):
                if index not in player.called_away:
                    counts[tile] += 1
            counts[kind_of(30)] += player.kita
        for tile in self.wall[self.front : self.back + 1]:
            counts[tile] += 1
        for tile in self.wall[len(self.wall) - self.table_play.dead_wall :]:
            counts[tile] += 1
        expected = [0] * TABLE_TILES
        for tile in self.tiles:
            expected[tile] += 1
        if counts != expected:
            raise AssertionError(f"tiles not conserved after event {self.emitted - 1}")
