"""What only the SQLite store promises: a file that survives a killed process, and its layout's version."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from app.hosting.sqlite_store import SCHEMA_VERSION, SqliteTableStore
from app.hosting.store import StoredTable, UnsupportedStoreSchema, open_store

ROOT = Path(__file__).resolve().parents[2]


def test_a_commit_that_returned_survives_a_sigkill_right_after(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    # The child commits, then kills itself before Python can close or flush anything.
    child = textwrap.dedent(
        f"""
        import os, signal
        from app.hosting.store import open_store
        store = open_store("sqlite:///{path}")
        store.create("t_killed", {{"turn": 0}}, [], [], deadline=None)
        for turn in range(30):
            assert store.commit("t_killed", turn, {{"turn": turn + 1}}, [{{"n": turn}}] * 5, [turn], deadline=7.5)
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    finished = subprocess.run([sys.executable, "-c", child], env=environment, capture_output=True, timeout=60)
    assert finished.returncode == -signal.SIGKILL, finished.stderr.decode()
    store = SqliteTableStore(path)
    try:
        assert store.load("t_killed") == StoredTable("t_killed", 30, {"turn": 30}, 150, 30, 7.5)
        assert store.events("t_killed", 145) == [{"n": 29}] * 5
    finally:
        store.close()


def test_every_connection_is_wal_with_full_sync(tmp_path: Path) -> None:
    store = SqliteTableStore(tmp_path / "tables.sqlite3")
    try:
        with store._connection() as connection:
            assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            assert connection.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
            assert connection.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    finally:
        store.close()


def test_a_file_from_a_newer_layout_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(UnsupportedStoreSchema) as raised:
        SqliteTableStore(path)
    assert raised.value.code == "unsupported_store_schema"


def test_a_reopened_file_keeps_its_tables(tmp_path: Path) -> None:
    first = SqliteTableStore(tmp_path / "tables.sqlite3")
    first.create("t_kept", {"n": 1}, [{"type": "start_game"}], [], deadline=3.0)
    first.close()
    again = SqliteTableStore(tmp_path / "tables.sqlite3")
    try:
        assert again.load("t_kept") == StoredTable("t_kept", 0, {"n": 1}, 1, 0, 3.0)
    finally:
        again.close()


def test_a_relative_path_is_under_the_working_folder_and_its_folders_are_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = open_store("sqlite:///data/tables/store.sqlite3")
    try:
        assert store.describe() == {"kind": "sqlite", "path": str(tmp_path / "data/tables/store.sqlite3")}
        assert (tmp_path / "data/tables/store.sqlite3").is_file()
    finally:
        store.close()


def test_a_closed_store_refuses_work(tmp_path: Path) -> None:
    store = SqliteTableStore(tmp_path / "tables.sqlite3")
    store.close()
    with pytest.raises(RuntimeError):
        store.load("t_any")
