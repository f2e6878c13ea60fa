"""The table service (:class:`~app.hosting.tables.TableService`) in process, on a SQLite store.

It reads a table as of one revision, even when the table moves on meanwhile.  A view or a game is built from a state document read first and events or answers read after
it.  Between the two another thread or another process may commit (a bot's turn, another seat,
another replica): what is read second must stop at the revision read first.  Found by the
random clients of tests/api/test_tables_api.py: a view whose events ran past its ``version``
gave a seat the same events twice; and a game rebuilt from answers past its state was refused
as a store that disagrees with itself (a 500).

It takes every legal action a seat is shown: a declared draw (nine terminals), which the legal
list writes without its actor, was refused (422) when a client sent it back, and stored for a
bot it could never be replayed, so the clock failed on the table at every tick from then on.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.shape.rules import rule_profile
from app.core.table.hosted import HostedGame, SeedWallSource
from app.core.table.mjai import Event
from app.hosting.store import TableStore, open_store
from app.hosting.tables import Clock, TableService, TableSpec

SPEC = TableSpec(
    rules="riichi", length="kyoku", seats=("client", "bot", "client", "bot"), seed="reads-1", clock=Clock()
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[TableStore]:
    opened = open_store(f"sqlite:///{tmp_path.absolute()}/tables.sqlite3")
    yield opened
    opened.close()


def moved_on(service: TableService) -> tuple[str, list[str | None]]:
    """A table whose first seat (a client, the dealer) has discarded, and its tokens."""
    opened = service.create(SPEC)
    table = opened["table"]
    tokens = [seat.get("token") for seat in opened["seats"]]
    return table, tokens


def test_a_view_shows_the_events_of_the_revision_it_read(store: TableStore) -> None:
    service = TableService(store, max_open_tables=10, idle_seconds=3600)
    table, tokens = moved_on(service)
    before = store.load(table)
    assert before is not None
    legal = service.view(before, 0)["legal"]
    service.act(table, tokens[0], before.event_count, legal[0])
    after = store.load(table)
    assert after is not None and after.event_count > before.event_count
    # The state read before the action, its events read after it.
    view = service.view(before, 2, after=before.event_count - 1)
    assert view["version"] == before.event_count
    assert len(view["events"]) == 1


def test_a_game_is_rebuilt_at_the_revision_read_not_past_it(store: TableStore) -> None:
    service = TableService(store, max_open_tables=10, idle_seconds=3600)
    table, tokens = moved_on(service)
    before = store.load(table)
    assert before is not None
    service.act(table, tokens[0], before.event_count, service.view(before, 0)["legal"][0])
    while True:  # the bots' turns, as the clock plays them, until a client is asked again
        if not service.fire(table):
            break
    later = store.load(table)
    assert later is not None and later.answer_count > before.answer_count
    # Another process (a fresh service: no game held) builds the game of the state it read
    # before those answers were committed.
    other = TableService(store, max_open_tables=10, idle_seconds=3600)
    game = other._game(table, before)
    assert len(game.events) == before.event_count and game.answer_count == before.answer_count
    # And one that holds the game at that revision catches up to the later one exactly.
    assert len(other._game(table, later).events) == later.event_count


#: A sanma game in which a seat may declare nine terminals early (the seed deals it).
DRAW_SEED = "=SaLiMZBtfm} Q~a0b"
NAMES = ("a", "b", "c")


def may_declare_a_draw(game: HostedGame) -> bool:
    return any(action.kind == "ryukyoku" for seat in game.asked for action in game.legal_events(seat))


def test_a_declared_draw_is_taken_from_a_client_and_the_game_replays(store: TableStore) -> None:
    rules = rule_profile("sanma")
    service = TableService(store, max_open_tables=10, idle_seconds=3600)
    spec = TableSpec(rules="sanma", length="tonpuu", seats=("client",) * 3, seed=DRAW_SEED, clock=Clock())
    opened = service.create(spec)
    table, tokens = opened["table"], [seat["token"] for seat in opened["seats"]]
    # The same game in memory picks random answers; each seat sends its own with its token.
    game = HostedGame(rules, "tonpuu", SeedWallSource(DRAW_SEED), names=NAMES)
    rng = random.Random(7)
    while not may_declare_a_draw(game):
        assert not game.over, "the seed no longer deals a hand where nine terminals may be declared"
        chosen: dict[int, Event] = {seat: rng.choice(game.legal_events(seat)) for seat in game.asked}
        for seat, action in game.stored_answer(chosen):
            service.act(table, tokens[seat], len(game.events), action)
        game.answer(chosen)
    seat = game.asked[0]
    stored = store.load(table)
    assert stored is not None and stored.event_count == len(game.events)
    view = service.view(stored, seat)
    assert {"type": "ryukyoku"} in view["legal"]  # as the legal list writes it: no actor
    answered = service.act(table, tokens[seat], view["version"], {"type": "ryukyoku"})
    assert answered["events"][0]["type"] == "ryukyoku"
    # A process that holds no game rebuilds it from the stored answers, the draw among them.
    latest = store.load(table)
    assert latest is not None
    other = TableService(store, max_open_tables=10, idle_seconds=3600)
    assert json.dumps(other._game(table, latest).events) == json.dumps(store.events(table))
