"""``open_store``: which URL opens which store, and the typed error for any other."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.hosting.redis_store import RedisTableStore
from app.hosting.sqlite_store import SqliteTableStore
from app.hosting.store import InvalidTableStore, open_store


def test_sqlite_urls_name_a_relative_or_an_absolute_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for url, path in [
        ("sqlite:///relative.sqlite3", tmp_path / "relative.sqlite3"),
        (f"sqlite:///{tmp_path}/absolute.sqlite3", tmp_path / "absolute.sqlite3"),
    ]:
        store = open_store(url)
        try:
            assert isinstance(store, SqliteTableStore)
            assert store.describe() == {"kind": "sqlite", "path": str(path)}
        finally:
            store.close()


@pytest.mark.parametrize("url", ["redis://localhost:6379/0", "rediss://localhost:6380/2", "unix:///run/redis.sock"])
def test_redis_urls_open_the_redis_store_without_connecting(url: str) -> None:
    store = open_store(url)
    try:
        assert isinstance(store, RedisTableStore)
    finally:
        store.close()


@pytest.mark.parametrize(
    "url",
    [
        "",
        "tables.sqlite3",
        "sqlite://",
        "sqlite:///",
        "sqlite://host/tables.sqlite3",
        "postgres://tenpai:hunter2@db/tables",
        "redis://",
        "redis://tenpai:hunter2@localhost:port/0",
    ],
)
def test_any_other_url_is_a_typed_error_naming_the_setting_without_its_secrets(url: str) -> None:
    with pytest.raises(InvalidTableStore) as raised:
        open_store(url)
    assert raised.value.code == "invalid_table_store"
    assert raised.value.field == "TENPAI_TABLE_STORE"
    assert "TENPAI_TABLE_STORE" in str(raised.value)
    assert "hunter2" not in str(raised.value)
