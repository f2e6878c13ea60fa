"""The table simulator, checked by replaying every recorded action on an independent model.

The replay below knows the wall and the rules, not the table's code: it moves
tiles itself, checks every action was legal when it was made, confirms every
win with the brute-force oracle (``tests/core/oracles.py``), and checks that
no seat that could have won on a tile was passed over (a win outranks every
call and every draw).  It seats ``rules.seats`` players: under ``sanma``
three, on a wall of 108 tiles without 2m-8m, with no chi, and with kita
(a north set aside, then a replacement draw from the dead wall; each north
set aside is a dora of its owner, ``nuki`` in the scored situation).  Under
``mcr`` it adds the flowers to the wall (set aside when dealt or drawn, each
replaced from the back), confirms knitted wins by its own definition of the two
knitted forms, and scores every win with the MCR scorer in the situation it
derives itself (seat winds, flowers, last tile, last copy): a complete hand
under 8 fans is no win.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import islice, permutations

import oracles as O
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle_sample import scaled

from app.core.advice.discard import Weights
from app.core.advice.mcr_targets import wins_knitted
from app.core.errors import BelowMinimumFan, NoYaku
from app.core.shape.engine import Checker
from app.core.shape.hand import Hand, Meld
from app.core.shape.rules import DEFAULT_SEATS as SEATS
from app.core.shape.rules import rule_profile
from app.core.table.players import UnknownStrategy, make_player, tile_value
from app.core.table.simulator import (
    FLOWER,
    TABLE_SETTINGS,
    GameConfig,
    InvalidGameConfig,
    game_seed,
    play_game,
    validate_config,
)
from app.core.value.mcr_scoring import score_mcr
from app.core.value.scoring import WinContext, score

LINEUPS = (
    ("advisor", "advisor", "greedy", "random"),
    ("heuristic", "random", "advisor", "greedy"),
)


class Replay:
    """An independent model of the table, driven by a game's events."""

    def __init__(self, rules_name: str, events: tuple) -> None:
        self.profile = rule_profile(rules_name)
        self.rules = O.OracleRules.of(self.profile)
        self.settings = TABLE_SETTINGS[rules_name]
        self.seats = seats = self.profile.seats
        # The tile set: four of each kind the rules have (sanma: no 2m-8m).
        self.set_counts = Counter({t: 4 for t in range(34) if t not in self.profile.absent_tiles})
        self.set_list = [self.set_counts[t] for t in range(34)]
        kind, wall = events[0]
        flowers = self.settings.flowers
        assert kind == "wall" and Counter(wall) == self.set_counts + Counter({FLOWER: flowers})
        self.wall = list(wall)
        self.total = len(wall)
        self.head = 0
        # The dead wall: its last places hold, from its front, two indicators per possible
        # kong and the first; replacements come from behind them, then from the tiles that
        # joined the dead wall from the live wall (one per replacement), newest first.
        reserved = self.settings.reserved_tiles
        indicators = 2 * (self.settings.max_kongs + 1) if self.settings.dora_indicator else 0
        self.indicator_places = set(range(self.total - reserved, self.total - reserved + indicators))
        behind = [p for p in range(self.total - 1, self.total - reserved - 1, -1) if p not in self.indicator_places]
        self.replacement_places = behind + list(range(self.total - reserved - 1, -1, -1))
        self.taken_back: list[int] = []  # replacement places drawn
        self.hands = [[0] * 34 for _ in range(seats)]
        self.melds: list[list[tuple[str, tuple[int, ...]]]] = [[] for _ in range(seats)]
        self.river: list[list[int]] = [[] for _ in range(seats)]
        self.discarded: list[set[int]] = [set() for _ in range(seats)]
        self.riichi = [False] * seats
        self.nuki = [0] * seats  # norths set aside
        self.flowers = [0] * seats  # flowers set aside
        self.dealt_flowers = [0] * seats  # flowers dealt and not yet set aside
        self.dealing = True  # until the first tile from the front after the deal
        self.knitted = wins_knitted(Checker(self.profile))
        self.kongs = 0
        self.events = events[1:]
        self.seen = Counter()
        # The riichi situation, kept by the rules as the module notes of app/core/table/simulator.py state them.
        self.double = [False] * seats
        self.ippatsu = [False] * seats
        self.passed = [False] * seats  # temporary furiten
        self.stood: set[int] = set()
        self.declaring: int | None = None  # a declaration whose tile has not yet gone by
        self.interrupted = False
        self.shown = 0  # dora indicators shown
        self.owed = 0  # dora indicators the next events must show
        self.pending = 0  # open and added kongs' indicators, shown at their owner's discard
        self.deals = 0
        self.dealer = None
        self.replacement_due: int | None = None
        self.replacement_for: str | None = None  # "kong" or "kita": what the due replacement follows
        # Where the last drawn tile came from: "wall", "kong", "kita" or "flower" (a flower's replacement).
        self.drawn_from: str = "wall"
        self.riichi_wins: list = []  # (context, score) of each riichi win checked
        self.mcr_wins: list = []  # (context, score) of each MCR win checked
        self.refusals: list[tuple[int, str]] = []  # (seat, how) of complete hands the scorer refused

    # -- the oracle's view ------------------------------------------------

    def live(self) -> int:
        # The dead wall keeps its size: each replacement drawn takes one tile off the live wall.
        return self.total - len(self.taken_back) - self.settings.reserved_tiles - self.head

    def indicators(self, under: int) -> tuple[int, ...]:
        first = self.total - self.settings.reserved_tiles
        return tuple(self.wall[first + 2 * k + under] for k in range(self.shown))

    def context(
        self, seat: int, tile: int, discarder: int | None, *, robbed: bool = False, drawn_from: str = "wall"
    ) -> WinContext:
        """The scored situation; ``drawn_from`` the self-drawn tile's source ("wall", "kong", "kita").

        A kita replacement is a dead-wall draw as a kong's is: rinshan (as at Tenhou), and,
        like any replacement, neither haitei nor a first draw.
        """
        riichi = self.riichi[seat]
        replacement = discarder is None and drawn_from in ("kong", "kita")
        # 和绝张: the three other copies face up in the rivers and the shown melds (the tile won
        # on a discard is still at the end of its river here; a closed kong is face down).
        face_up = sum(river.count(tile) for river in self.river) - (discarder is not None and not robbed)
        face_up += sum(ts.count(tile) for melds in self.melds for kind, ts in melds if kind != "closed_kan")
        return WinContext(
            seat,
            self.dealer,
            discarder,
            kong_replacement=replacement,
            robbed_kong=robbed,
            dora_indicators=self.indicators(0),
            ura_indicators=self.indicators(1) if riichi else (),
            riichi=riichi and not self.double[seat],
            double_riichi=self.double[seat],
            ippatsu=self.ippatsu[seat],
            last_tile=self.live() == 0 and not replacement and not robbed,
            first_turn=discarder is None and not replacement and not self.interrupted and not self.discarded[seat],
            riichi_sticks=len(self.stood),
            nuki=self.nuki[seat],
            flowers=self.flowers[seat],
            last_copy=face_up == 3 and not robbed,
        )

    def scored(self, seat: int, tile: int, context: WinContext):
        """The scorer's answer for ``seat``'s concealed tiles (the winning tile included), or None: no yaku."""
        hand = Hand(bytes(self.hands[seat]), tuple(Meld.of(kind, tiles) for kind, tiles in self.melds[seat]))
        try:
            if self.settings.scoring == "mcr":
                return score_mcr(hand, tile, self.profile, context)
            return score(hand, tile, self.profile, context)
        except (NoYaku, BelowMinimumFan):
            return None

    def can_win(self, seat: int, tile: int | None, context: WinContext | None = None, drawn: int | None = None) -> bool:
        """Whether ``seat`` wins on the discard ``tile`` (None: on the tile it ``drawn``), in ``context``.

        A complete hand the scoring profile refuses is no win, and on a discard it
        makes the seat furiten until its next discard.
        """
        counts = list(self.hands[seat])
        if tile is not None:
            counts[tile] += 1
        melds = self.melds[seat]
        if not (self.complete(counts, melds) and O.precondition_met(melds, self.rules)):
            return False
        if tile is not None and self.profile.furiten:
            waits = O.shape_waits(self.hands[seat], melds, self.rules)
            if self.passed[seat] or self.discarded[seat] & set(waits):
                return False
        if self.settings.scoring == "flat" or context is None:
            return True
        if tile is not None:
            self.hands[seat][tile] += 1
        try:
            accepted = self.scored(seat, tile if tile is not None else drawn, context) is not None
        finally:
            if tile is not None:
                self.hands[seat][tile] -= 1
        if not accepted:
            self.refusals.append((seat, "discard" if tile is not None else "self_draw"))
            if tile is not None:
                self.passed[seat] = True
        return accepted

    def complete(self, counts: list[int], melds: list) -> bool:
        """Whether the hand is complete, by the oracle.

        Without wildcards or a melded-copies cap (riichi, sanma), by the oracle's plain
        recursion on the lowest tile and its seven-pairs and thirteen-orphans definitions:
        the same answer as its substitution search, a hundred times faster, which keeps
        thousands of replayed hands within a test's budget.
        """
        rules = self.rules
        if rules.wildcards or rules.melded_limit:
            return O.is_complete(counts, melds, rules)
        if O.regular_decompositions(counts):
            return True
        if self.knitted and knitted_complete(counts, melds):
            return True
        if not O.closed_forms_allowed(counts, melds):
            return False
        if rules.seven_pairs != "off" and O.is_seven_pairs(counts, quad_as_two=rules.seven_pairs == "quad_as_two"):
            return True
        return rules.thirteen_orphans and O.is_thirteen_orphans(counts)

    def ready(self, seat: int) -> bool:
        melds = self.melds[seat]
        return bool(O.shape_waits(self.hands[seat], melds, self.rules)) and O.precondition_met(melds, self.rules)

    def conserved(self) -> None:
        taken = set(self.taken_back)
        total = [0] * 35  # and the flowers
        for place in range(self.head, self.total):
            if place not in taken:
                total[self.wall[place]] += 1
        total[30] += sum(self.nuki)
        flowers = total.pop() + sum(self.flowers) + sum(self.dealt_flowers)
        assert flowers == self.settings.flowers, "flowers are not conserved"
        for seat in range(self.seats):
            total = [a + b for a, b in zip(total, self.hands[seat], strict=True)]
            for _, tiles in self.melds[seat]:
                for t in tiles:
                    total[t] += 1
            for t in self.river[seat]:
                total[t] += 1
        assert total == self.set_list, f"the {self.total} tiles are not conserved"
        # Every indicator place, shown or to come, and its ura stays out of reach of the draws,
        # and no draw from the front reached a tile drawn from the back.
        assert not taken & self.indicator_places, "a dora indicator left the dead wall"
        assert all(p >= self.head for p in taken)

    def nobody_else_wins(self, discarder: int, tile: int, before: int | None = None, *, robbed: bool = False) -> None:
        """No seat (before ``before`` in play order, if given) could win on ``tile``."""
        for offset in range(1, self.seats):
            seat = (discarder + offset) % self.seats
            if seat == before:
                return
            context = self.context(seat, tile, discarder, robbed=robbed)
            assert not self.can_win(seat, tile, context), f"seat {seat} could win on {tile} but was passed over"

    def no_self_draw_passed(self, seat: int, last: tuple) -> None:
        """A seat that goes on after its draw could not have won on the tile it drew."""
        if last[0] == "draw" and last[1] == seat:
            drawn = last[2]
            context = self.context(seat, drawn, None, drawn_from=self.drawn_from)
            assert not self.can_win(seat, None, context, drawn=drawn), f"seat {seat} passed a self-draw win"

    def interrupt(self) -> None:
        self.interrupted = True
        self.ippatsu = [False] * self.seats

    def declaration_stands(self) -> None:
        if self.declaring is not None:
            self.stood.add(self.declaring)
            self.ippatsu[self.declaring] = True
            self.declaring = None

    # -- the replay --------------------------------------------------------

    def run(self, result) -> None:
        last = None  # the previous event
        last_draw: dict[int, tuple[int, str]] = {}
        pending_discard: tuple[int, int] | None = None  # (seat, tile) not yet claimed or passed
        pending_kong: tuple[int, int] | None = None  # an added kong's (seat, tile) open to robbing
        self.dealer = result.dealer
        for index, event in enumerate(self.events):
            kind = event[0]
            nxt = self.events[index + 1] if index + 1 < len(self.events) else None
            if kind == "dora":
                assert self.owed > 0, f"a dora indicator shown out of turn: {event}"
                self.owed -= 1
                self.shown += 1
                assert event[1] == self.indicators(0)[-1], "dora indicators come from their dead wall places"
                self.conserved()
                last = event
                continue
            assert self.owed == 0, f"{self.owed} dora indicator(s) not shown before {event}"
            if kind not in ("win",):
                self.declaration_stands()
            if kind == "deal":
                _, seat, tiles = event
                assert list(tiles) == self.wall[self.head : self.head + 13]
                self.head += 13
                for t in tiles:
                    if t == FLOWER:
                        self.dealt_flowers[seat] += 1
                    else:
                        self.hands[seat][t] += 1
                self.deals += 1
                if self.deals == self.seats and self.settings.dora_indicator:
                    self.owed = 1
            elif kind == "flower":
                # A flower set aside: dealt (replaced after the deal, seat by seat in deal order),
                # drawn as a replacement, or drawn from the front; a replacement from the back follows.
                _, seat = event
                assert self.settings.flowers
                if self.replacement_due == seat:
                    place = self.replacement_places[len(self.taken_back)]
                    self.taken_back.append(place)
                    assert self.wall[place] == FLOWER
                elif self.dealing and self.dealt_flowers[seat]:
                    assert not any(
                        self.dealt_flowers[(self.dealer + k) % self.seats]
                        for k in range((seat - self.dealer) % self.seats)
                    )
                    self.dealt_flowers[seat] -= 1
                else:
                    if pending_discard is not None:
                        discarder, passed = pending_discard
                        assert seat == (discarder + 1) % self.seats, "the next seat draws"
                        self.nobody_else_wins(discarder, passed)
                        pending_discard = None
                    assert not any(self.dealt_flowers) and self.live() > 0
                    assert self.wall[self.head] == FLOWER
                    self.head += 1
                    self.dealing = False
                self.flowers[seat] += 1
                self.replacement_due, self.replacement_for = seat, "flower"
                if nxt == ("exhaustive_draw",):
                    assert self.live() == 0, "a flower ends the hand only with nothing left to replace it"
                    self.conserved()
                    last = event
                    continue
            elif kind == "draw":
                _, seat, tile, source = event
                if pending_discard is not None:
                    discarder, passed = pending_discard
                    assert seat == (discarder + 1) % self.seats, "the next seat draws"
                    self.nobody_else_wins(discarder, passed)
                    pending_discard = None
                assert self.live() > 0, "drew from an empty wall"
                if source == "wall":
                    assert not any(self.dealt_flowers), "dealt flowers are replaced before the first draw"
                    assert tile == self.wall[self.head]
                    self.head += 1
                    self.drawn_from = "wall"
                    self.dealing = False
                else:
                    assert self.replacement_due == seat, "a replacement follows the seat's kong or kita"
                    place = self.replacement_places[len(self.taken_back)]
                    self.taken_back.append(place)
                    assert tile == self.wall[place]
                    self.drawn_from = self.replacement_for
                self.replacement_due = self.replacement_for = None
                self.hands[seat][tile] += 1
                last_draw[seat] = (tile, source)
                assert sum(self.hands[seat]) + 3 * len(self.melds[seat]) == (
                    13 - self.dealt_flowers[seat] if self.dealing else 14
                )
            elif kind == "discard":
                _, seat, tile, declare = event
                self.no_self_draw_passed(seat, last)
                assert self.hands[seat][tile] > 0, "discarded a tile not held"
                assert sum(self.hands[seat]) + 3 * len(self.melds[seat]) == 14
                if self.riichi[seat]:
                    assert last == ("draw", seat, *last_draw[seat]) and tile == last_draw[seat][0], "riichi: tsumogiri"
                self.hands[seat][tile] -= 1
                self.ippatsu[seat] = False
                self.passed[seat] = False
                if declare:
                    assert self.settings.riichi_declarations and not self.riichi[seat]
                    assert all(k == "closed_kan" for k, _ in self.melds[seat]), "riichi needs a closed hand"
                    assert self.live() >= 4
                    assert self.ready(seat), "riichi needs a ready hand"
                    self.riichi[seat] = True
                    self.double[seat] = not self.discarded[seat] and not self.interrupted
                    self.declaring = seat
                self.river[seat].append(tile)
                self.discarded[seat].add(tile)
                pending_discard = (seat, tile)
                self.owed, self.pending = self.pending, 0
            elif kind == "call":
                _, seat, meld_kind, discarder, tile, meld_tiles = event
                assert pending_discard == (discarder, tile), "a call takes the last discard"
                assert not self.riichi[seat], "no calls after riichi"
                assert tile not in self.profile.wildcards or self.settings.call_wildcards
                self.nobody_else_wins(discarder, tile)
                used = list(meld_tiles)
                used.remove(tile)
                assert all(t not in self.profile.absent_tiles for t in meld_tiles)
                if meld_kind == "chi":
                    assert self.profile.chi_allowed and seat == (discarder + 1) % self.seats
                    first = meld_tiles[0]
                    assert first < 27 and first % 9 <= 6 and tuple(meld_tiles) == (first, first + 1, first + 2)
                else:
                    assert seat != discarder and set(meld_tiles) == {tile}
                    assert len(meld_tiles) == (3 if meld_kind == "pon" else 4)
                    if meld_kind == "open_kan":
                        assert self.live() > 0 and self.kongs < self.settings.max_kongs
                        self.kongs += 1
                        self.pending += self.settings.dora_indicator
                        self.replacement_due, self.replacement_for = seat, "kong"
                for t in used:
                    assert self.hands[seat][t] > 0, "called with a tile not held"
                    self.hands[seat][t] -= 1
                assert self.river[discarder][-1] == tile
                self.river[discarder].pop()
                self.melds[seat].append((meld_kind, tuple(meld_tiles)))
                self.interrupt()
                pending_discard = None
            elif kind == "kong":
                _, seat, meld_kind, tile = event
                assert last[0] == "draw" and last[1] == seat, "a kong follows the seat's own draw"
                self.no_self_draw_passed(seat, last)
                assert not self.riichi[seat] and self.live() > 0 and self.kongs < self.settings.max_kongs
                assert tile not in self.profile.wildcards or self.settings.call_wildcards
                self.kongs += 1
                self.replacement_due, self.replacement_for = seat, "kong"
                self.owed, self.pending = self.pending, 0
                if meld_kind == "closed_kan":
                    assert self.hands[seat][tile] == 4
                    self.hands[seat][tile] = 0
                    self.melds[seat].append(("closed_kan", (tile,) * 4))
                    self.owed += self.settings.dora_indicator
                else:
                    assert meld_kind == "added_kan" and ("pon", (tile,) * 3) in self.melds[seat]
                    assert self.hands[seat][tile] >= 1
                    self.hands[seat][tile] -= 1
                    robbed = nxt is not None and nxt[0] == "win" and nxt[3] == seat
                    if robbed:
                        pending_kong = (seat, tile)  # the tile is in the open until the win takes it
                        continue
                    self.nobody_else_wins(seat, tile, robbed=True)
                    position = self.melds[seat].index(("pon", (tile,) * 3))
                    self.melds[seat][position] = ("added_kan", (tile,) * 4)
                    self.pending += self.settings.dora_indicator
                self.interrupt()
            elif kind == "kita":
                # A north set aside at the seat's own turn, straight after its draw (not after a
                # call), with a tile left to draw; in riichi only the north it just drew.
                _, seat, tile = event
                assert self.settings.nukidora == tile == 30, "kita sets a north aside, at a sanma table"
                assert last[0] == "draw" and last[1] == seat, "kita follows the seat's own draw"
                self.no_self_draw_passed(seat, last)
                assert self.hands[seat][tile] > 0 and self.live() > 0
                if self.riichi[seat]:
                    assert last[2] == tile, "in riichi only the drawn north is set aside"
                self.hands[seat][tile] -= 1
                self.nuki[seat] += 1
                self.replacement_due, self.replacement_for = seat, "kita"
                # Not a call: no ippatsu ends, no first turn is interrupted (the table's choice).
            elif kind == "win":
                _, seat, tile, discarder, robbed, replacement = event
                if discarder is None:
                    assert last[0] == "draw" and last[1] == seat and last[2] == tile, "self-draw on the drawn tile"
                    assert replacement == (self.drawn_from in ("kong", "kita")), (
                        "rinshan on a kong's or kita's replacement"
                    )
                    context = self.context(seat, tile, None, drawn_from=self.drawn_from)
                    assert self.can_win(seat, None, context, drawn=tile), "recorded self-draw does not win"
                else:
                    assert not replacement
                    if robbed:
                        assert pending_kong == (discarder, tile)
                    else:
                        assert pending_discard == (discarder, tile)
                    context = self.context(seat, tile, discarder, robbed=robbed)
                    assert self.can_win(seat, tile, context), "recorded win on a discard does not win"
                    self.nobody_else_wins(discarder, tile, before=seat, robbed=robbed)
                    if not robbed:  # the tile leaves the river once every seat's claim is settled
                        self.river[discarder].pop()
                    self.hands[seat][tile] += 1
                # Every win, confirmed by the oracle's substitution search as well (the knitted
                # forms by this module's own definition).
                assert O.is_complete(self.hands[seat], self.melds[seat], self.rules) or (
                    self.knitted and knitted_complete(self.hands[seat], self.melds[seat])
                )
                assert nxt is None
                assert (result.winner, result.discarder, result.robbed_kong, result.kong_replacement) == (
                    seat,
                    discarder,
                    robbed,
                    replacement,
                )
                self.check_payments(result, seat, tile, context)
            elif kind == "exhaustive_draw":
                assert self.live() == 0
                if last[0] != "flower":
                    assert pending_discard is not None
                    self.nobody_else_wins(*pending_discard)
                assert nxt is None and result.winner is None and result.payments == (0,) * self.seats
                assert result.han is None and result.fan is None
            else:
                raise AssertionError(f"unknown event {event}")
            self.conserved()
            last = event
        assert last[0] in ("win", "exhaustive_draw")
        assert self.owed == 0
        assert result.riichi == tuple(seat in self.stood for seat in range(self.seats))
        assert result.riichi_sticks == len(self.stood)
        assert result.nuki == (tuple(self.nuki) if self.settings.nukidora is not None else ())
        assert result.flowers == (tuple(self.flowers) if self.settings.flowers else ())
        assert result.dealer == result.game % self.seats

    def check_payments(self, result, seat: int, tile: int, context: WinContext) -> None:
        """The result pays what the scoring profile says for the situation this model saw."""
        if self.settings.scoring == "flat":
            payers = (
                [context.discarder] if context.discarder is not None else [s for s in range(self.seats) if s != seat]
            )
            expected = [0] * self.seats
            for payer in payers:
                expected[payer] -= 3 // len(payers)
                expected[seat] += 3 // len(payers)
            assert result.payments == tuple(expected) and result.han is None
            return
        scored = self.scored(seat, tile, context)
        assert scored is not None, "a recorded win the scoring profile refuses"
        assert result.payments == tuple(scored.payments) and len(result.payments) == self.seats
        if self.settings.scoring == "mcr":
            assert result.fan == scored.fan >= 8 and result.han is None
            assert scored.flowers == self.flowers[seat]
            self.mcr_wins.append((context, scored))
        if self.settings.scoring in ("riichi", "sanma"):
            assert scored.yaku and any(yaku.name not in ("dora", "aka_dora", "ura_dora") for yaku in scored.yaku)
            assert result.han == scored.han
            self.riichi_wins.append((context, scored))


KNITTED_ASSIGNMENTS = tuple(
    tuple(
        9 * suit + number
        for suit, numbers in zip(order, ((0, 3, 6), (1, 4, 7), (2, 5, 8)), strict=True)
        for number in numbers
    )
    for order in permutations(range(3))
)


def knitted_complete(counts: list[int], melds: list) -> bool:
    """The two knitted forms, by their definitions: a knitted straight (147, 258 and 369, each
    in its own suit) with one set (concealed or declared) and a pair; or, closed, fourteen
    distinct tiles among one assignment's nine and the seven honours."""
    for knitted in KNITTED_ASSIGNMENTS:
        if all(counts[t] for t in knitted):
            rest = list(counts)
            for t in knitted:
                rest[t] -= 1
            if O.regular_decompositions(rest):
                return True
        allowed = set(knitted) | set(range(27, 34))
        if not melds and sum(counts) == 14 and all(counts[t] <= (t in allowed) for t in range(34)):
            return True
    return False


def _seated(rules: str, players: tuple[str, ...]) -> tuple[str, ...]:
    """The first ``rules.seats`` of a four-player lineup."""
    return players[: rule_profile(rules).seats]


def _games(rules: str, players: tuple[str, ...], count: int, seed: int = 3, **extra):
    config = GameConfig(rules, _seated(rules, players), seed, record_events=True, audit=True, **extra)
    return [play_game(config, game) for game in range(count)]


@pytest.mark.parametrize("rules", sorted(TABLE_SETTINGS))
@pytest.mark.parametrize("players", LINEUPS)
def test_every_action_replays_legally_and_every_win_is_confirmed(rules, players):
    for result in _games(rules, players, 12):
        Replay(rules, result.events).run(result)
        assert sum(result.payments) == 0
        assert (result.winner is None) == (result.payments == (0,) * len(result.payments))


@pytest.fixture(scope="module")
def many_qiqihar_games():
    config = GameConfig("qiqihar", ("advisor", "advisor", "greedy", "random"), 11, record_events=True)
    return [play_game(config, game) for game in range(160)]


@pytest.mark.slow
def test_every_kind_of_action_happens_and_replays(many_qiqihar_games):
    """Over a run every call and kong kind, both win kinds and a draw occur; their games replay."""
    seen: Counter = Counter()
    for result in many_qiqihar_games:
        kinds = {e[2] if e[0] in ("call", "kong") else e[0] for e in result.events}
        if result.winner is not None:
            kinds.add("self_draw" if result.discarder is None else "discard_win")
        if result.kong_replacement:
            kinds.add("kong_replacement_win")
        seen.update(kinds)
    for wanted in ("pon", "chi", "open_kan", "closed_kan", "added_kan", "self_draw", "discard_win"):
        assert seen[wanted], f"no {wanted} in 160 games: {seen}"
    rare = [
        r for r in many_qiqihar_games if r.robbed_kong or r.kong_replacement or any(e[0] == "kong" for e in r.events)
    ]
    for result in rare[:10]:
        Replay("qiqihar", result.events).run(result)


@pytest.mark.slow
def test_qiqihar_wins_need_an_open_pon_or_kong_and_pay_per_seed_004(many_qiqihar_games):
    for result in many_qiqihar_games:
        if result.winner is None:
            continue
        melds = _melds_at_end(result.events)[result.winner]
        assert any(kind in ("pon", "open_kan", "added_kan") for kind, _ in melds)
        # Every Qiqihar win is worth a power of two per payer, at least 2 (the way of winning doubles).
        received = result.payments[result.winner]
        payers = 3 if result.discarder is None else 1
        assert received >= 2 * payers


def test_riichi_declarations_happen_and_force_tsumogiri():
    # Up to 20 games, played one at a time until five declare riichi (the eighth game here):
    # the games after the fifth were played only to be ignored.
    config = GameConfig("riichi", ("advisor", "greedy", "heuristic", "advisor"), 5, record_events=True, audit=True)
    games = (play_game(config, game) for game in range(20))
    declared = list(islice((r for r in games if any(e[0] == "discard" and e[3] for e in r.events)), 5))
    assert declared, "no riichi in 20 games"
    for result in declared:
        Replay("riichi", result.events).run(result)


def test_same_seed_same_games_different_seed_different_games():
    config = GameConfig("chinese", LINEUPS[0], 42)
    first = [play_game(config, game) for game in range(6)]
    again = [play_game(config, game) for game in reversed(range(6))][::-1]
    assert first == again
    other = [play_game(config._replace(seed=43), game) for game in range(6)]
    assert first != other
    assert game_seed(42, 5) != game_seed(4, 25)


def test_dealer_rotates_with_the_game_index():
    config = GameConfig("qiqihar", LINEUPS[0], 1)
    assert [play_game(config, game).dealer for game in range(8)] == [0, 1, 2, 3, 0, 1, 2, 3]


def test_shanten_curve_and_tenpai_turn_agree():
    for result in _games("chinese", ("advisor",) * 4, 8):
        for seat in range(SEATS):
            curve = result.shanten_by_turn[seat]
            turn = result.tenpai_turn[seat]
            if turn:
                assert curve[turn - 1] == 0 and all(s > 0 for s in curve[: turn - 1])
            elif turn is None:
                assert all(s > 0 for s in curve)
        assert sum(len(c) for c in result.shanten_by_turn) == result.turns


def test_bad_configs_are_typed_errors_naming_the_field():
    with pytest.raises(InvalidGameConfig) as error:
        validate_config(GameConfig("qiqihar", ("advisor",) * 3, 1))
    assert error.value.field == "players"
    with pytest.raises(UnknownStrategy):
        validate_config(GameConfig("qiqihar", ("advisor", "advisor", "greedy", "oracle"), 1))
    with pytest.raises(ValueError) as error:
        validate_config(GameConfig("qiqihar", ("advisor",) * 4, 1, weights=Weights(safety=float("inf"))))
    assert error.value.field == "weights.safety"
    with pytest.raises(InvalidGameConfig) as error:
        validate_config(GameConfig("mcr", ("advisor",) * 3, 1))
    assert error.value.field == "players"


def test_strategies_only_discard_tiles_they_hold():
    rng = random.Random(5)
    for name in ("advisor", "greedy", "heuristic", "linear", "random"):
        make_player(name, rng=rng)
    # The seed-001 value: honours and terminals are cheap, connected tiles dear.
    counts = [0] * 34
    for tile in (1, 3, 27):
        counts[tile] += 1
    assert tile_value(27, bytes(counts)) == -20  # honour (-30) with a copy held (+10)
    assert tile_value(2, bytes(counts)) == 40  # two neighbours within two


def _melds_at_end(events) -> list[list[tuple[str, tuple[int, ...]]]]:
    melds: list[list[tuple[str, tuple[int, ...]]]] = [[] for _ in range(SEATS)]
    for event in events:
        if event[0] == "call":
            melds[event[1]].append((event[2], tuple(event[5])))
        elif event[0] == "kong":
            _, seat, kind, tile = event
            if kind == "closed_kan":
                melds[seat].append((kind, (tile,) * 4))
            else:
                melds[seat] = [("added_kan", m[1] + (tile,)) if m == ("pon", (tile,) * 3) else m for m in melds[seat]]
    return melds


# Riichi games below are pinned with the linear advisor in the advisor's seats: they were found
# with the advisor before it ranked by expected score, and the ``linear`` strategy plays exactly
# as it did (test_the_linear_strategy_plays_as_the_advisor_did), so they stay put while the
# expected-score advisor is tuned.
RIICHI_PIN_LINEUP = ("linear", "linear", "greedy", "random")


def _pin_lineup(rules: str) -> tuple[str, ...]:
    return RIICHI_PIN_LINEUP if rules == "riichi" else LINEUPS[0]


# Games found by searching seed 11 with the lineup below (a robbed kong is rare: about 1 in 800;
# under riichi, where strategies open a hand only with a yaku in sight, rarer still).
RARE_GAMES = {
    "qiqihar": {"robbed_kong": 11, "kong_replacement": 13},
    "chinese": {"robbed_kong": 38, "kong_replacement": 605},
    "riichi": {"robbed_kong": 2416, "kong_replacement": 104},
}


@pytest.mark.parametrize("rules", sorted(RARE_GAMES))
def test_robbed_kongs_and_kong_replacement_wins_replay_and_pay(rules):
    config = GameConfig(rules, _pin_lineup(rules), 11, record_events=True, audit=True)
    robbed = play_game(config, RARE_GAMES[rules]["robbed_kong"])
    assert robbed.robbed_kong and robbed.discarder is not None and not robbed.kong_replacement
    kong = [e for e in robbed.events if e[0] == "kong"][-1]
    assert kong[1] == robbed.discarder and kong[2] == "added_kan"
    Replay(rules, robbed.events).run(robbed)
    replaced = play_game(config, RARE_GAMES[rules]["kong_replacement"])
    assert replaced.kong_replacement and replaced.discarder is None
    assert replaced.events[-2][0] == "draw" and replaced.events[-2][3] == "replacement"
    Replay(rules, replaced.events).run(replaced)
    if rules == "riichi":  # robbing a kong and winning on its replacement are yaku of their own
        for result, yaku in ((robbed, "chankan"), (replaced, "rinshan")):
            replay = Replay(rules, result.events)
            replay.run(result)
            ((_, scored),) = replay.riichi_wins
            assert yaku in {y.name for y in scored.yaku}
    if rules == "qiqihar":  # seed 004: each multiplier doubles, the payer being the kong's owner
        for result, flag in ((robbed, "robbed_kong"), (replaced, "kong_replacement")):
            winner = result.winner
            received = result.payments[winner]
            payers = 1 if result.discarder is not None else 3
            assert received >= 4 * payers, (flag, result.payments)  # way of winning x2, the flag x2


# Riichi games of seed 11, RIICHI_PIN_LINEUP, found by searching with the replay below: each has a
# win whose situation holds the named yaku (or, for kan_dora, more than one dora indicator;
# for riichi_sticks, more than one stick on the table).
RIICHI_SITUATIONS = {
    "ippatsu": 3,
    "ura_dora": 13,
    "kan_dora": 7,
    "riichi_sticks": 0,
    "houtei": 38,
    "haitei": 887,
    "rinshan": 104,
    "double_riichi": 361,
}


@pytest.mark.parametrize("situation", sorted(RIICHI_SITUATIONS))
def test_riichi_situations_reach_the_scorer_as_the_replay_sees_them(situation):
    """The replay keeps its own dora, riichi, ippatsu, last-tile and stick bookkeeping;
    the recorded payments and han are what ``score`` gives for that situation."""
    config = GameConfig("riichi", RIICHI_PIN_LINEUP, 11, record_events=True, audit=True)
    result = play_game(config, RIICHI_SITUATIONS[situation])
    replay = Replay("riichi", result.events)
    replay.run(result)
    ((context, scored),) = replay.riichi_wins
    names = {yaku.name for yaku in scored.yaku}
    if situation == "kan_dora":
        assert len(context.dora_indicators) > 1
    elif situation == "riichi_sticks":
        assert context.riichi_sticks > 1 and result.riichi_sticks == context.riichi_sticks
        assert scored.riichi_sticks_won == 1000 * result.riichi_sticks
        # Sticks are deposits, not seat payments: the payments still sum to zero.
        assert sum(result.payments) == 0
    else:
        assert situation in names, names
    assert result.han == scored.han and result.payments == scored.payments


# (winner, discarder, discards) of riichi games 0-11 of seed 13, the advisor at seats 0 and 2,
# played by the advisor before it ranked by expected score (commit fa4e0f3).
ADVISOR_BEFORE_EXPECTED_SCORE = [
    (3, None, 25), (1, 2, 70), (3, 1, 27), (1, 3, 45), (2, None, 53), (3, None, 29),
    (1, 3, 46), (1, 3, 53), (None, None, 72), (0, 1, 26), (2, 0, 39), (0, 2, 36),
]  # fmt: skip


def test_the_linear_strategy_plays_as_the_advisor_did():
    config = GameConfig("riichi", ("linear", "heuristic", "linear", "greedy"), 13)
    linear = [play_game(config, game) for game in range(len(ADVISOR_BEFORE_EXPECTED_SCORE))]
    assert [(r.winner, r.discarder, r.turns) for r in linear] == ADVISOR_BEFORE_EXPECTED_SCORE
    # The expected-score advisor plays other hands (it is a different player)...
    advised = GameConfig("riichi", ("advisor", "heuristic", "advisor", "greedy"), 13)
    assert any(play_game(advised, game) != result for game, result in enumerate(linear))
    # ...but where the rules have no value model (or a win needs fans) it is the linear advisor.
    for rules in ("sanma", "qiqihar", "mcr"):
        seated = _seated(rules, ("advisor", "heuristic", "advisor", "greedy"))
        as_linear = tuple("linear" if name == "advisor" else name for name in seated)
        for game in range(2):
            assert play_game(GameConfig(rules, seated, 13), game) == play_game(GameConfig(rules, as_linear, 13), game)


@pytest.fixture(scope="module")
def many_riichi_replays():
    # The pinned lineup: the refusals counted below (a yakuless self-draw is rare) were found with it.
    config = GameConfig("riichi", RIICHI_PIN_LINEUP, 11, record_events=True)
    replays = []
    for game in range(120):
        result = play_game(config, game)
        replay = Replay("riichi", result.events)
        replay.run(result)
        replays.append((result, replay))
    return replays


@pytest.mark.slow
def test_riichi_wins_have_a_yaku_and_yakuless_hands_play_on(many_riichi_replays):
    """Every recorded win has a yaku (checked in the replay's payments); a complete hand the
    scorer refuses is no win: its seat plays on (a self-draw) or lets the tile go by and is
    furiten until its next discard (the replay asserts nobody who could win is passed over)."""
    wins = [result for result, _ in many_riichi_replays if result.winner is not None]
    assert wins and all(result.han and result.han >= 1 for result in wins)
    refused = Counter(how for _, replay in many_riichi_replays for _, how in replay.refusals)
    assert refused["discard"] and refused["self_draw"], refused
    # Riichi is the common yaku: most wins come from a closed hand in riichi.
    riichi_wins = sum(result.riichi[result.winner] for result in wins)
    assert riichi_wins > len(wins) / 3
    for result, _ in many_riichi_replays:
        assert result.riichi_sticks == sum(result.riichi)


STRATEGIES = ("advisor", "greedy", "heuristic", "linear", "random")


@settings(max_examples=24, deadline=None, derandomize=True)
@given(
    rules=st.sampled_from(sorted(TABLE_SETTINGS)),
    players=st.tuples(*(st.sampled_from(STRATEGIES),) * SEATS),
    seed=st.integers(0, 2**32),
    game=st.integers(0, 10_000),
)
def test_any_seed_and_lineup_plays_a_legal_reproducible_hand(rules, players, seed, game):
    config = GameConfig(rules, _seated(rules, players), seed, record_events=True, audit=True)
    result = play_game(config, game)
    Replay(rules, result.events).run(result)
    assert result == play_game(config, game)
    assert result.dealer == game % len(config.players) and sum(result.payments) == 0


# Three-player riichi (sanma): 108 tiles, three seats, no chi, kita.  Issue 15 asks for 2,000
# seeded hands replayed legally on the model above; four lineups seat every strategy.
SANMA_LINEUPS = (
    ("advisor", "greedy", "advisor"),
    ("greedy", "advisor", "random"),
    ("heuristic", "random", "advisor"),
    ("random", "heuristic", "greedy"),
)
#: 125 a lineup (500 hands) by default: every kind counted below still occurs (the rarest, a win on
#: a kita's replacement, 5 times; wins with norths set aside 224); issue 15's 2,000 under --full-oracles.
SANMA_HANDS_PER_LINEUP = scaled(full=500, sample=125)


def _sanma_kinds(result, replay) -> set[str]:
    """What happened in one sanma hand, as names the tests below count."""
    kinds: set[str] = set()
    declared: set[int] = set()
    events = result.events
    for event in events[1:]:
        if event[0] == "discard" and event[3]:
            declared.add(event[1])
        elif event[0] == "kita":
            kinds.add("kita_in_riichi" if event[1] in declared else "kita")
        elif event[0] in ("call", "kong"):
            kinds.add(event[2])
    if sum(event[0] == "draw" and event[3] == "replacement" for event in events) > 4:
        kinds.add("more_than_four_replacements")
    if result.winner is not None:
        kinds.add("self_draw" if result.discarder is None else "discard_win")
        if result.nuki[result.winner]:
            kinds.add("win_with_nuki")
        if result.discarder is None and events[-3][0] == "kita" and events[-2][3] == "replacement":
            kinds.add("kita_replacement_win")
    return kinds


@pytest.fixture(scope="module")
def sanma_replays():
    """The seeded hands (2,000 under --full-oracles), each replayed on the model (which asserts every action legal)."""
    replays = []
    for players in SANMA_LINEUPS:
        config = GameConfig("sanma", players, 15, record_events=True)
        for game in range(SANMA_HANDS_PER_LINEUP):
            result = play_game(config, game)
            replay = Replay("sanma", result.events)
            replay.run(result)
            replays.append((result, replay, _sanma_kinds(result, replay)))
    return replays


@pytest.mark.slow
def test_seeded_sanma_hands_replay_legally(sanma_replays):
    assert len(sanma_replays) == len(SANMA_LINEUPS) * SANMA_HANDS_PER_LINEUP
    seen = Counter(kind for _, _, kinds in sanma_replays for kind in kinds)
    for wanted in (
        "kita",
        "kita_in_riichi",
        "pon",
        "open_kan",
        "closed_kan",
        "added_kan",
        "self_draw",
        "discard_win",
        "win_with_nuki",
        "kita_replacement_win",
        "more_than_four_replacements",
    ):
        assert seen[wanted], f"no {wanted} in {len(sanma_replays)} sanma hands: {seen}"
    assert not seen["chi"]
    for result, _replay, _ in sanma_replays:
        assert len(result.payments) == len(result.riichi) == len(result.nuki) == 3 and sum(result.payments) == 0
        assert result.dealer == result.game % 3


@pytest.mark.slow
def test_sanma_wins_count_their_norths_as_dora(sanma_replays):
    """A winner's norths set aside reach the scorer as ``nuki``: a dora each (nuki_dora),
    unless the hand is a yakuman (which counts no dora)."""
    wins = [(result, replay) for result, replay, kinds in sanma_replays if "win_with_nuki" in kinds]
    assert len(wins) > 100
    for result, replay in wins:
        ((context, scored),) = replay.riichi_wins
        assert context.nuki == result.nuki[result.winner] > 0
        if not scored.yakuman_count:
            assert ("nuki_dora", context.nuki) in {(y.name, y.han) for y in scored.yaku}


@pytest.mark.slow
def test_a_win_on_a_kita_replacement_is_rinshan_not_haitei(sanma_replays):
    """As at Tenhou, a self-draw on the replacement tile after a kita is rinshan (the scorer
    takes ``kong_replacement`` with a north set aside, no kong needed); like any replacement
    tile it is never haitei, nor a first draw."""
    wins = [(result, replay) for result, replay, kinds in sanma_replays if "kita_replacement_win" in kinds]
    assert wins
    for result, replay in wins:
        assert result.kong_replacement
        ((context, scored),) = replay.riichi_wins
        assert context.kong_replacement and context.nuki > 0
        assert not context.last_tile and not context.first_turn
        names = {y.name for y in scored.yaku}
        if not scored.yakuman_count:
            assert "rinshan" in names, names
        assert "haitei" not in names
    # A kita is no call here (module notes), so a seat in riichi that sets aside the north it
    # drew keeps its ippatsu: both count on the replacement.
    assert any(context.ippatsu for _, replay in wins for context, _ in replay.riichi_wins)


# Seed 15, a lineup without the advisor (whose discard model other work may tune), found by
# searching: a win on a kita's replacement whose only yaku is rinshan (its north a dora).
RINSHAN_ONLY_AFTER_KITA = (("greedy", "heuristic", "greedy"), 2430)


def test_rinshan_after_a_kita_can_be_a_hands_only_yaku():
    players, game = RINSHAN_ONLY_AFTER_KITA
    result = play_game(GameConfig("sanma", players, 15, record_events=True, audit=True), game)
    assert result.discarder is None and result.kong_replacement
    assert result.events[-3][0] == "kita" and result.events[-2][3] == "replacement"
    replay = Replay("sanma", result.events)
    replay.run(result)
    ((context, scored),) = replay.riichi_wins
    assert {y.name for y in scored.yaku} == {"rinshan", "nuki_dora"}
    # The same tile drawn from the live wall would have been no win (the scorer finds no yaku).
    assert replay.scored(result.winner, result.events[-1][2], context._replace(kong_replacement=False)) is None


@pytest.mark.slow
def test_sanma_replacement_draws_past_the_dead_walls_last_four_miss_the_indicators(sanma_replays):
    """Kongs and kitas may draw eight replacements; after the four behind the indicators they
    come from the tiles that joined the dead wall (the replay asserts every place)."""
    busy = [replay for _, replay, kinds in sanma_replays if "more_than_four_replacements" in kinds]
    assert busy
    for replay in busy:
        assert len(replay.taken_back) > 4
        assert not set(replay.taken_back) & replay.indicator_places
        assert replay.taken_back[4] == replay.total - 14 - 1  # the newest tile to join the dead wall


def test_sanma_seats_three_and_rotates_the_deal():
    config = GameConfig("sanma", SANMA_LINEUPS[0], 1)
    assert [play_game(config, game).dealer for game in range(6)] == [0, 1, 2, 0, 1, 2]
    with pytest.raises(InvalidGameConfig) as error:
        validate_config(GameConfig("sanma", LINEUPS[0], 1))
    assert error.value.field == "players" and "seats exactly 3" in str(error.value)
    with pytest.raises(InvalidGameConfig) as error:
        validate_config(GameConfig("riichi", SANMA_LINEUPS[0], 1))
    assert error.value.field == "players" and "seats exactly 4" in str(error.value)


# MCR games of seed 11 with advisors at seats 0 and 2 and shanten-greedy players at 1 and 3,
# found by searching with the replay: each has a win scored with the named fan (on the
# situation the replay derived itself), or, for "refused", a complete hand under 8 fans that
# the table did not let win, or, for "flower_ends_the_wall", a flower drawn with nothing left to
# replace it.  A change to the strategies, the engine's shanten or the scorer moves them: search
# again with find_mcr_situations below.
MCR_LINEUP = ("advisor", "greedy", "advisor", "greedy")
MCR_SITUATIONS = {
    "Last Tile": 0,  # 和绝张
    "Knitted Straight": 0,
    "refused": 0,
    "Seven Pairs": 1,
    "Robbing The Kong": 14,
    "Lesser Honors and Knitted Tiles": 14,
    "Greater Honors and Knitted Tiles": 31,
    "Last Tile Draw": 84,  # 妙手回春
    "Out with Replacement Tile": 129,  # 杠上开花
    "Last Tile Claim": 341,  # 海底捞月
    "flower_ends_the_wall": 148,
}


def find_mcr_situations(games: int = 400) -> dict[str, int]:
    """The first game of each kind in :data:`MCR_SITUATIONS`, to pin them again by hand::

        .venv/bin/python -c "import sys; sys.path[:0] = ['.', 'tests/core']; import test_simulator as t; \\
            print(t.find_mcr_situations())"
    """
    config = GameConfig("mcr", MCR_LINEUP, 11, record_events=True)
    found: dict[str, int] = {}
    for game in range(games):
        result = play_game(config, game)
        replay = Replay("mcr", result.events)
        replay.run(result)
        kinds = {fan.name for _, scored in replay.mcr_wins for fan in scored.fans}
        if replay.refusals:
            kinds.add("refused")
        if result.winner is None and result.events[-2][0] == "flower":
            kinds.add("flower_ends_the_wall")
        for kind in kinds & set(MCR_SITUATIONS):
            found.setdefault(kind, game)
        if len(found) == len(MCR_SITUATIONS):
            break
    return found


@pytest.mark.parametrize("situation", sorted(MCR_SITUATIONS))
def test_mcr_situations_reach_the_scorer_as_the_replay_sees_them(situation):
    config = GameConfig("mcr", MCR_LINEUP, 11, record_events=True, audit=True)
    result = play_game(config, MCR_SITUATIONS[situation])
    replay = Replay("mcr", result.events)
    replay.run(result)
    if situation == "refused":
        assert replay.refusals, "no complete hand was refused"
        return
    if situation == "flower_ends_the_wall":
        assert result.winner is None and result.events[-2][0] == "flower"
        return
    ((context, scored),) = replay.mcr_wins
    assert situation in {fan.name for fan in scored.fans}
    assert result.fan == scored.fan >= 8 and result.payments == scored.payments
    if situation == "Robbing The Kong":
        assert result.robbed_kong and not context.last_copy
    if situation == "Out with Replacement Tile":
        assert result.kong_replacement and context.kong_replacement


def test_mcr_flowers_are_dealt_set_aside_and_paid():
    config = GameConfig("mcr", MCR_LINEUP, 4, record_events=True, audit=True)
    results = [play_game(config, game) for game in range(8)]
    for result in results:
        wall = result.events[0][1]
        assert len(wall) == 144 and wall.count(FLOWER) == 8
        Replay("mcr", result.events).run(result)
        if result.winner is not None:
            worth = result.fan + result.flowers[result.winner]
            received = result.payments[result.winner]
            assert received == (3 * (worth + 8) if result.discarder is None else worth + 8 + 16)
    assert any(sum(result.flowers) for result in results)


def test_mcr_without_flowers_plays_136_tiles(monkeypatch):
    import app.core.table.simulator as simulator

    settings_without = dict(TABLE_SETTINGS, mcr=TABLE_SETTINGS["mcr"]._replace(flowers=0))
    monkeypatch.setattr(simulator, "TABLE_SETTINGS", settings_without)
    monkeypatch.setitem(globals(), "TABLE_SETTINGS", settings_without)
    config = GameConfig("mcr", MCR_LINEUP, 4, record_events=True, audit=True)
    for game in range(4):
        result = play_game(config, game)
        assert len(result.events[0][1]) == 136 and result.flowers == ()
        assert not any(event[0] == "flower" for event in result.events)
        Replay("mcr", result.events).run(result)


def test_mcr_seat_winds_follow_the_dealer():
    config = GameConfig("mcr", MCR_LINEUP, 11, record_events=True)
    seen = set()
    for game in range(40):  # until the first win with a seat-wind pung (game 3 here)
        result = play_game(config, game)
        if result.winner is None:
            continue
        replay = Replay("mcr", result.events)
        replay.run(result)
        ((context, scored),) = replay.mcr_wins
        assert context.seat_wind is None  # the scorer derives it: East for the dealer, then in turn
        if "Seat Wind" in {fan.name for fan in scored.fans}:
            seen.add((result.winner - result.dealer) % 4)
            break
    assert seen, "no seat-wind pung won in 40 games"
