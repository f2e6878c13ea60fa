"""Properties of hosted games (:class:`~app.core.table.hosted.HostedGame`), core only, no server.

Over random seeds, every preset a table plays and random legal answers (claims answered by
every asked seat at once, as a hosted table takes them):

* a seat's view (:func:`~app.core.table.hosted.seat_events`) never holds another seat's
  concealed tile, and loses nothing public: checked against a visibility rule written here
  from the full events (who may see each tile field of each event);
* replaying the stored answers (:meth:`HostedGame.replay`), from the seed, gives the same
  events, byte for byte, and the same seats asked with the same legal actions, at every
  prefix of the answers;
* no tile is created or lost after any event (the dealer's own audit, ``audit=True``);
* every hand is zero-sum once the riichi sticks are counted, and the logged deltas are what
  the scores moved by;
* the same seed deals the same walls whatever the seats do (duplicate play); two seeds deal
  different ones.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.families.registry import family_of
from app.core.shape.rules import rule_profile
from app.core.table.game import wall_tiles
from app.core.table.hosted import HostedGame, SeedWallSource, StoredAnswer, seat_events
from app.core.table.mjai import Event

PRESETS = ("riichi", "sanma", "sichuan", "mcr", "qiqihar", "chinese")
#: Presets whose flow between hands is modelled: they also play whole East rounds.
MULTI_HAND = ("riichi", "sanma")
#: A riichi stick.
STICK = 1000
HIDDEN = "?"

# Seeds as a client may choose them: printable ASCII, and now and then a secret one's length.
seeds = st.one_of(
    st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=40),
    st.integers(0, 2**64).map(lambda n: f"duplicate-{n}"),
)


class Played:
    """A hosted game played to the end with random legal answers, and what it went through."""

    def __init__(self, rules: str, length: str, seed: str, choices: int) -> None:
        self.rules = rule_profile(rules)
        self.length = length
        self.seed = seed
        self.names = tuple(f"p{seat}" for seat in range(self.rules.seats))
        rng = random.Random(choices)
        # audit=True: after every event the dealer checks that every tile of the set is in a
        # hand, a meld, a river, aside or in the wall (an AssertionError otherwise).
        self.game = HostedGame(
            self.rules, family_of(self.rules), length, SeedWallSource(seed), names=self.names, audit=True
        )
        self.answers: list[StoredAnswer] = []
        #: After each answer (and before the first): the events so far, who is asked, with what.
        self.snapshots = [self.snapshot()]
        while not self.game.over:
            chosen: dict[int, Event] = {seat: rng.choice(self.game.legal_events(seat)) for seat in self.game.asked}
            self.answers.append(self.game.stored_answer(chosen))
            self.game.answer(chosen)
            self.snapshots.append(self.snapshot())

    def snapshot(self) -> tuple[str, tuple[int, ...], str]:
        game = self.game
        legal = {seat: game.legal(seat) for seat in range(self.rules.seats)}
        return json.dumps(game.events), game.asked, json.dumps(legal)

    def replayed(self, count: int) -> HostedGame:
        return HostedGame.replay(
            self.rules,
            family_of(self.rules),
            self.length,
            SeedWallSource(self.seed),
            names=self.names,
            answers=self.answers[:count],
        )


@st.composite
def played_games(draw: st.DrawFn) -> Played:
    rules = draw(st.sampled_from(PRESETS))
    length = draw(st.sampled_from(["kyoku", "kyoku", "tonpuu"])) if rules in MULTI_HAND else "kyoku"
    return Played(rules, length, draw(seeds), draw(st.integers(0, 2**32)))


# -- who may see what -------------------------------------------------------------------


def _tile_fields(event: Mapping[str, Any], seat: int) -> dict[str, bool]:
    """The fields of ``event`` that hold tiles, each with whether ``seat`` may see them.

    The rule, as a player at a real table sees it: a seat sees its own dealt hand, its own
    draws and the tiles it passes or receives in Sichuan's exchange; everything else that is
    concealed (another seat's dealt tiles, draws, exchanged tiles) it does not; whatever is put
    on the table (discards, melds, indicators, flowers, a winning tile) everyone sees.
    """
    kind = event["type"]
    if kind == "start_kyoku":
        return {f"tehais[{index}]": index == seat for index in range(len(event["tehais"]))}
    if kind == "tsumo":
        return {"pai": event["actor"] == seat}
    if kind == "exchange_out":
        return {"pais": event["actor"] == seat}
    if kind == "exchange_in":
        return {"pais": seat in (event["actor"], event["target"])}
    return {}


def _field(event: Mapping[str, Any], name: str) -> Any:
    if name.startswith("tehais["):
        return event["tehais"][int(name[len("tehais[") : -1])]
    return event[name]


def assert_view_hides_exactly_the_concealed(events: Sequence[Mapping[str, Any]], seat: int) -> None:
    """``seat_events(events, seat)`` shows ``seat`` what it may see, and ``?`` for the rest."""
    view = seat_events(events, seat)
    assert len(view) == len(events)
    for index, (full, seen) in enumerate(zip(events, view, strict=True)):
        fields = _tile_fields(full, seat)
        public = {key: value for key, value in full.items() if key not in fields and not key.startswith("tehais")}
        assert {key: value for key, value in seen.items() if key in public} == public, (index, full, seen)
        assert set(seen) == set(full), (index, full, seen)
        for name, visible in fields.items():
            truth, shown = _field(full, name), _field(seen, name)
            if visible:
                assert shown == truth, (index, seat, name, full, seen)
            else:
                tiles = shown if isinstance(shown, list) else [shown]
                assert tiles and all(tile == HIDDEN for tile in tiles), (index, seat, name, full, seen)
                assert len(tiles) == (len(truth) if isinstance(truth, list) else 1)


# -- points -----------------------------------------------------------------------------


def _hands(events: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """The events of each hand, its start_kyoku to its end_kyoku."""
    hands: list[list[Mapping[str, Any]]] = []
    for event in events:
        if event["type"] == "start_kyoku":
            hands.append([])
        if hands and (not hands[-1] or hands[-1][-1]["type"] != "end_kyoku"):
            hands[-1].append(event)
    return hands


def assert_hands_zero_sum(played: Played) -> None:
    """Each hand moves no point in or out: what the seats gained and lost, plus the sticks put
    on the table and less those taken, is nothing; and the scores move by the logged deltas."""
    events = played.game.events
    hands = _hands(events)
    records = played.game.dealer.record.hands
    assert len(hands) == len(records) >= 1
    for number, (hand, record) in enumerate(zip(hands, records, strict=True)):
        start = hand[0]
        seats = len(start["scores"])
        reached = [event["actor"] for event in hand if event["type"] == "reach_accepted"]
        won = any(event["type"] == "hora" for event in hand)
        on_table = start["kyotaku"] + len(reached)
        taken = on_table if won and on_table else 0  # the first winner takes every stick on the table
        assert sum(record.payments) == STICK * (taken - len(reached)), (number, record.payments, reached, taken)
        logged = [0] * seats
        for event in hand:
            for seat, delta in enumerate(event.get("deltas", []) if event["type"] in ("hora", "ryukyoku") else []):
                logged[seat] += delta
        assert sum(logged) == STICK * taken, (number, logged)
        moved = [delta - STICK * reached.count(seat) for seat, delta in enumerate(logged)]
        assert moved == list(record.payments), (number, moved, record.payments)
    # Between hands and at the end, the scores plus the sticks on the table stay the total.
    starts = [hand[0] for hand in hands]
    total = sum(starts[0]["scores"]) + STICK * starts[0]["kyotaku"]
    for start in starts:
        assert sum(start["scores"]) + STICK * start["kyotaku"] == total
    assert events[-1]["type"] == "end_game"
    assert sum(events[-1]["scores"]) == total  # the sticks left went to the leader


# -- the properties -----------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(played_games())
def test_views_hide_every_concealed_tile_tiles_are_conserved_and_hands_are_zero_sum(played: Played) -> None:
    # Playing under audit=True already checked the tiles after every event.
    events = played.game.events
    assert played.game.over and events[-1]["type"] == "end_game"
    for seat in range(played.rules.seats):
        assert_view_hides_exactly_the_concealed(events, seat)
        # A view of a prefix is the prefix of the view: a seat sees events as they come, never
        # a tile that a later event (the end of the hand) would make public early.
        cut = len(events) // 2
        assert seat_events(events[:cut], seat) == seat_events(events, seat)[:cut]
    assert_hands_zero_sum(played)


@settings(max_examples=15, deadline=None)
@given(played_games(), st.data())
def test_replaying_the_stored_answers_gives_the_same_table(played: Played, data: st.DataObject) -> None:
    total = len(played.answers)
    cuts = {total, data.draw(st.integers(0, total), label="cut")}
    for cut in sorted(cuts):
        again = played.replayed(cut)
        events, asked, legal = played.snapshots[cut]
        assert json.dumps(again.events) == events, cut
        assert again.asked == asked, cut
        assert json.dumps({seat: again.legal(seat) for seat in range(played.rules.seats)}) == legal, cut
        assert again.answer_count == cut
    # Caught up in two goes (a replica that saw part of the answers) is the same table too.
    middle = data.draw(st.integers(0, total), label="middle")
    caught_up = played.replayed(middle)
    caught_up.catch_up(played.answers[middle:])
    assert json.dumps(caught_up.events) == played.snapshots[total][0]
    assert caught_up.over


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(PRESETS), seeds, seeds, st.integers(0, 2**32), st.integers(0, 2**32))
def test_a_seed_deals_the_same_walls_whatever_the_seats_do(
    rules: str, seed: str, other: str, choices: int, other_choices: int
) -> None:
    first = Played(rules, "kyoku", seed, choices)
    second = Played(rules, "kyoku", seed, other_choices)
    # The deal (and for Sichuan the exchange's direction) is the seed's alone: the first hand
    # starts alike, and both games drew their tiles from one wall.
    assert first.game.events[1] == second.game.events[1]
    assert first.game.events[1]["type"] == "start_kyoku"
    profile = rule_profile(rules)
    tiles = wall_tiles(profile, family_of(profile).play_rules(profile))
    walls = SeedWallSource(seed)
    assert walls.wall(0, tiles) == SeedWallSource(seed).wall(0, tiles)
    assert first.game.dealer.wall == second.game.dealer.wall == walls.wall(0, tiles)
    assert sorted(walls.wall(0, tiles)) == sorted(tiles)
    if profile.seats > 1:
        assert walls.direction(0, profile.seats) == SeedWallSource(seed).direction(0, profile.seats)
    if other != seed:
        # Two seeds, two walls (a collision of 136-tile shuffles is beyond any test's reach).
        assert SeedWallSource(other).wall(0, tiles) != walls.wall(0, tiles)
        assert Played(rules, "kyoku", other, choices).game.events[1] != first.game.events[1]
