"""Fixtures for the table store tests: each contract test runs once per store, SQLite and Redis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.hosting.store import TableStore, open_store

STORE_KINDS = [pytest.param("sqlite", id="sqlite"), pytest.param("redis", id="redis", marks=pytest.mark.redis)]


def sqlite_url(folder: Path) -> str:
    """The URL of a store file in ``folder`` (absolute: ``sqlite:////...``)."""
    return f"sqlite:///{folder.absolute()}/tables.sqlite3"


@pytest.fixture(params=STORE_KINDS)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty store of each kind: a new SQLite file, or the emptied private Redis."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    url: str = request.getfixturevalue("empty_redis_url")
    return url


@pytest.fixture
def store(store_url: str) -> Iterator[TableStore]:
    """The store that ``store_url`` names, closed after the test."""
    store = open_store(store_url)
    yield store
    store.close()
