"""Settings for the whole suite: the ``--full-oracles`` switch and the Hypothesis profiles.

``--full-oracles`` (the same as ``TENPAI_FULL_ORACLES=1``): every large comparison with an
outside oracle runs every case instead of its fixed sample (see ``oracle_sample.py``).

Hypothesis: under ``CI=true`` the ``ci`` profile (derandomized, so every CI run tries the
same examples; no deadline, no example database), elsewhere ``dev`` (random, with the local
example database, still no deadline: a busy 2-core machine makes a 200 ms deadline flaky).
``--hypothesis-profile`` picks one by hand.  Tests keep their own ``max_examples``.

Redis: ``redis_server`` is one private, real ``redis-server`` per test process (each xdist worker
has its own), ``redis_url`` its URL, and ``empty_redis_url`` the same URL with the database
emptied before the test (see ``redis_server.py``; mark such tests ``redis``).
"""

from __future__ import annotations

import os
import tempfile
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from oracle_sample import FULL_ORACLES_ENV, full_oracles
from redis_server import RedisServer, empty_database
from redis_server import redis_server as start_redis_server

# Every app the suite builds keeps its hosted tables in a file of this test process's own, never
# the default tenpai-tables.sqlite3 of the working directory (a test that wants another store says so).
os.environ.setdefault(
    "TENPAI_TABLE_STORE", f"sqlite:///{tempfile.mkdtemp(prefix='tenpai-test-tables-')}/tables.sqlite3"
)

# Ray starts its worker processes at niceness 15 (its worker_niceness setting).  On the 2-core
# machine, beside the suite's two busy xdist workers, they were starved: a ray test whose games take
# 1.5 s alone took 47 s to 60 s.  The suite's Ray instances (the tests' own and the CLI's in
# subprocesses) start their workers at normal priority, like every other process of the run.
os.environ.setdefault("RAY_worker_niceness", "0")

# --doctest-modules would import this file a second time as a module named "conftest", which
# by then is tests/api's (the folders have no __init__.py): collected, it is an import error.
# tools/ holds scripts for the mjai venv's Python (tests/table/ runs them): mjai is not here.
collect_ignore = ["conftest.py", "tools"]
# The folders' own conftests are plugins, not doctest modules: collected as modules, two of them
# named conftest clash in one process ("import file mismatch").
collect_ignore_glob = ["*/conftest.py"]

# Both on Hypothesis's own defaults: it loads its built-in "ci" profile by itself wherever a
# variable named CI exists (even CI=false), and a profile's parent is the one loaded.
_DEFAULTS = settings.get_profile("default")
settings.register_profile(
    "ci",
    _DEFAULTS,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", _DEFAULTS, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Loaded on import, before any test module builds its ``settings(...)`` on top of the default.
settings.load_profile("ci" if os.environ.get("CI") == "true" else "dev")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full-oracles",
        action="store_true",
        default=False,
        help=f"run every case of the large oracle comparisons, not their fixed sample (same as {FULL_ORACLES_ENV}=1)",
    )


def pytest_configure(config: pytest.Config) -> None:
    # Test modules size their comparisons when imported, after this: the variable reaches them all.
    if config.getoption("--full-oracles"):
        os.environ[FULL_ORACLES_ENV] = "1"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # pytest-xdist schedules by node id: of tests that share one, it runs one and reports
    # nothing about the others.  Refuse such a collection rather than pass without them.
    counts = Counter(item.nodeid for item in items)
    shared = sorted(nodeid for nodeid, count in counts.items() if count > 1)
    if shared:
        raise pytest.UsageError(f"{len(shared)} node ids are shared by several tests, e.g. {shared[:3]}")


def pytest_report_header(config: pytest.Config) -> str:
    if full_oracles():
        return "oracle comparisons: every case (--full-oracles)"
    return "oracle comparisons: a fixed sample (--full-oracles runs every case)"


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A private ``redis-server`` for this test process; skips without one (fails under CI=true)."""
    with start_redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(scope="session")
def redis_url(redis_server: RedisServer) -> str:
    """``redis://127.0.0.1:PORT/0`` of the private server (shared by the session's tests)."""
    return redis_server.url


@pytest.fixture
def empty_redis_url(redis_url: str) -> str:
    """``redis_url`` with its database emptied first, so the test sees only its own tables."""
    empty_database(redis_url)
    return redis_url
