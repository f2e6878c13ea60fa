"""A seat's view is one moment of its table: the events up to the version it names, no further.

The view reads the table (state, version) and then its events; a commit in between (a bot's turn
on another thread, an action on another replica) appended more.  Shown, they would sit beside the
``legal`` and ``version`` of before them: a client acting on that view sends a version that is
not the one its events end at.  Found by tests/ops/test_tables_survive.py's clients on two replicas.
"""

from __future__ import annotations

from app.hosting.store import TableStore
from app.hosting.tables import Clock, TableService, TableSpec


def test_a_view_shows_no_event_past_the_version_it_read(store: TableStore) -> None:
    service = TableService(store, max_open_tables=10, idle_seconds=3600)
    opened = service.create(
        TableSpec("riichi", "kyoku", ("client", "bot", "bot", "bot"), clock=Clock(60, 60), seed="view-moment")
    )
    table, token = opened["table"], opened["seats"][0]["token"]
    read, seat = service.authorize(table, token)
    assert seat == 0 and read.state["legal"][0], "the dealer's first turn is the client's"
    # The client's discard commits after ``read`` was taken: the table is further on now.
    service.act(table, token, read.event_count, read.state["legal"][0][0])
    assert store.load(table).event_count > read.event_count  # type: ignore[union-attr]

    for after in (0, read.event_count - 1):
        view = service.view(read, seat, after)
        assert view["version"] == read.event_count
        assert len(view["events"]) == read.event_count - after
        assert view["legal"] == read.state["legal"][0]
