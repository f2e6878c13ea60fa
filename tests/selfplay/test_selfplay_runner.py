"""The runner gives the same results in this process, in a process pool and on Ray."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from app.core.errors import TenpaiError
from app.core.table.simulator import GameConfig, play_game
from app.selfplay.errors import InvalidRunOption, MissingExtra
from app.selfplay.runner import MAX_CHUNK_GAMES, game_chunks, run_games

CONFIG = GameConfig("qiqihar", ("advisor", "advisor", "greedy", "random"), seed=5)
GAMES = 12


@pytest.fixture(scope="module")
def in_process() -> list:
    return run_games(CONFIG, GAMES)


def test_results_come_in_game_order(in_process):
    assert [result.game for result in in_process] == list(range(GAMES))
    assert in_process[7] == play_game(CONFIG, 7)


def test_a_process_pool_gives_the_same_results(in_process):
    calls = []
    pooled = run_games(CONFIG, GAMES, workers=2, progress=lambda done, total: calls.append((done, total)))
    assert pooled == in_process
    assert calls[0] == (0, GAMES) and calls[-1] == (GAMES, GAMES)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_progress_in_process_hears_every_game():
    calls = []
    run_games(CONFIG, 3, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(0, 3), (1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize("games", [1, 7, 25, 26, 100, 1001])
@pytest.mark.parametrize("workers", [1, 2, 3, 16])
def test_chunks_cover_each_game_once(games, workers):
    chunks = game_chunks(games, workers)
    assert [game for chunk in chunks for game in chunk] == list(range(games))
    assert all(1 <= len(chunk) <= MAX_CHUNK_GAMES for chunk in chunks)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"games": 0}, "games"),
        ({"games": 2, "workers": 0}, "workers"),
        ({"games": 2, "backend": "dask"}, "backend"),
    ],
)
def test_bad_options_are_typed_errors(options, field):
    with pytest.raises(InvalidRunOption) as raised:
        run_games(CONFIG, **options)
    assert raised.value.field == field and raised.value.code == "invalid_run_option"


def test_a_bad_configuration_fails_before_any_game():
    calls = []
    with pytest.raises(TenpaiError, match="unknown strategy 'expert'"):
        run_games(CONFIG._replace(players=("expert",) * 4), 2, progress=lambda *call: calls.append(call))
    assert calls == []


def test_ray_missing_names_the_extra_before_any_game(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # makes `import ray` fail as if not installed
    calls = []
    with pytest.raises(MissingExtra, match=r"pip install 'tenpai\[ray\]'"):
        run_games(CONFIG, 2, workers=2, backend="ray", progress=lambda *call: calls.append(call))
    assert calls == []


class Stop(Exception):
    """Raised by a progress callback to stop a run."""


def test_an_error_in_the_progress_callback_stops_the_pool():
    def stop_after_first_chunk(done: int, total: int) -> None:
        if done:
            raise Stop

    with pytest.raises(Stop):
        run_games(CONFIG, 40, workers=2, progress=stop_after_first_chunk)


@pytest.fixture
def ray_cluster() -> Iterator[object]:
    """A one-CPU local Ray instance for the test, shut down after it.

    ``ray.init(local_mode=True)`` would run tasks in this process, but this Ray
    (2.60) no longer supports it (it raises RuntimeError), so a real local
    instance is started: ``num_cpus=1`` keeps it small and no dashboard is served.
    """
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.ray
def test_ray_tasks_give_the_same_results(in_process, ray_cluster):
    calls = []
    on_ray = run_games(CONFIG, GAMES, workers=2, backend="ray", progress=lambda done, total: calls.append(done))
    assert on_ray == in_process
    assert calls[-1] == GAMES
    assert ray_cluster.is_initialized()  # the caller's instance is left running for the caller


@pytest.mark.ray
def test_ray_started_by_the_runner_is_stopped_after():
    # The command line's path: no Ray instance yet, so the runner starts one and stops it.
    ray = pytest.importorskip("ray")
    assert not ray.is_initialized()
    assert run_games(CONFIG, 4, workers=2, backend="ray") == [play_game(CONFIG, game) for game in range(4)]
    assert not ray.is_initialized()
