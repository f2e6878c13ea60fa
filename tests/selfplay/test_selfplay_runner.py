"""The runner gives the same games in this process, in a process pool and on Ray; it seats the
lineup rotated game by game, and plays each game in every rotation under ``duplicate``."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from app.core.errors import TenpaiError
from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import rule_profile
from app.core.table.flow import GameLength
from app.core.table.game import GameConfig, GameRecord, play_game
from app.core.table.referee import judge
from app.selfplay.errors import InvalidRunOption, MissingExtra
from app.selfplay.runner import MAX_CHUNK_GAMES, ONE_HAND_PRESETS, PLAYABLE_PRESETS, game_chunks, run_games

CONFIG = GameConfig("riichi", ("linear", "linear", "greedy", "random"), seed=5, record_events=False)
GAMES = 12


@pytest.fixture(scope="module")
def in_process() -> list[GameRecord]:
    return run_games(CONFIG, GAMES)


def test_games_come_in_order_each_seated_rotated_by_its_index(in_process):
    assert [record.game for record in in_process] == list(range(GAMES))
    assert [record.rotation for record in in_process] == [game % 4 for game in range(GAMES)]
    # Seat 0 deals first: game g puts lineup position g % 4 there.
    assert [record.players[0] for record in in_process[:4]] == ["linear", "linear", "greedy", "random"]
    assert in_process[7] == play_game(CONFIG._replace(rotation=3), 7, TABLES)


def test_a_process_pool_gives_the_same_games(in_process):
    calls = []
    pooled = run_games(CONFIG, GAMES, workers=2, progress=lambda done, total: calls.append((done, total)))
    assert pooled == in_process
    assert calls[0] == (0, GAMES) and calls[-1] == (GAMES, GAMES)
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_progress_in_process_hears_every_game():
    calls = []
    run_games(CONFIG, 3, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(0, 3), (1, 3), (2, 3), (3, 3)]


SANMA = GameConfig("sanma", ("linear", "greedy", "heuristic"), seed=8, length="kyoku")


def test_duplicate_plays_every_rotation_of_each_game_on_the_same_walls():
    records = run_games(SANMA, 2, duplicate=True)
    assert [(record.game, record.rotation) for record in records] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    for record in records:
        assert record == play_game(SANMA._replace(rotation=record.rotation), record.game, TABLES)
    # The same walls: the same dealt hands, seat by seat, whoever sits there.
    for game in (records[:3], records[3:]):
        deals = [next(event for event in record.events if event["type"] == "start_kyoku") for record in game]
        assert all(deal["tehais"] == deals[0]["tehais"] for deal in deals)
        # Each strategy held each seat once.
        assert sorted(record.players for record in game) == sorted(
            tuple(SANMA.players[(seat + rotation) % 3] for seat in range(3)) for rotation in range(3)
        )


def test_a_duplicate_pool_gives_the_same_games_and_counts_every_rotation():
    calls = []
    in_process = run_games(SANMA._replace(record_events=False), 3, duplicate=True)
    pooled = run_games(
        SANMA._replace(record_events=False), 3, duplicate=True, workers=2, progress=lambda *call: calls.append(call)
    )
    assert pooled == in_process and len(pooled) == 9 and calls[-1] == (9, 9)


def test_on_game_sees_each_game_in_this_process_and_the_run_keeps_its_answer():
    seen = []

    def strip(record: GameRecord) -> GameRecord:
        seen.append((record.game, len(record.events)))
        return GameRecord(record.game, record.players, hands=record.hands, rotation=record.rotation)

    config = CONFIG._replace(record_events=True)
    for workers in (1, 2):
        seen.clear()
        records = run_games(config, 4, workers=workers, on_game=strip)
        assert sorted(game for game, _ in seen) == [0, 1, 2, 3] and all(events > 0 for _, events in seen)
        assert all(record.events == [] and record.scores == () for record in records)
        assert [record.hands for record in records] == [
            play_game(config._replace(rotation=game), game, TABLES).hands for game in range(4)
        ]


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


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"players": ("expert",) * 4}, "players[0]", "unknown strategy 'expert'"),
        ({"length": "marathon"}, "length", "unknown game length 'marathon'"),
        ({"rules": "qiqihar", "length": "hanchan"}, "length", "qiqihar is played one hand at a time"),
        ({"rules": "mcr", "length": "tonpuu"}, "length", "mcr is played one hand at a time"),
        ({"rules": "hong_kong"}, "rules", "hong_kong"),
    ],
)
def test_a_bad_configuration_fails_before_any_game(change, field, message):
    calls = []
    with pytest.raises(TenpaiError, match=message) as raised:
        run_games(CONFIG._replace(**change), 2, progress=lambda *call: calls.append(call))
    assert raised.value.field == field and calls == []


# --- every preset -----------------------------------------------------------------------------

QIQIHAR = GameConfig("qiqihar", ("advisor", "advisor", "greedy", "random"), seed=5, record_events=False)


def test_every_preset_plays_on_the_table_machine_the_others_one_hand_a_game():
    # The shape wing's presets in its order, then those the families bring.
    assert PLAYABLE_PRESETS[:6] == ("riichi", "chinese", "qiqihar", "sanma", "mcr", "sichuan")
    assert set(PLAYABLE_PRESETS[6:]) == set(TABLES) - set(PLAYABLE_PRESETS[:6])
    assert ONE_HAND_PRESETS == ("chinese", "qiqihar", "mcr", "sichuan", *PLAYABLE_PRESETS[6:])
    records = run_games(QIQIHAR, 4, duplicate=True)
    assert [len(record.hands) for record in records] == [1] * 16
    assert records[5] == play_game(QIQIHAR._replace(rotation=1), 1, TABLES)
    # Qiqihar's wins need an open pon or kan: every winner made a call.
    for record in records:
        (hand,) = record.hands
        assert hand.winner is None or hand.calls[hand.winner] > 0


def test_a_stopped_game_is_abandoned():
    assert run_games(QIQIHAR, 3, stop=lambda: True) == []


def test_stop_in_a_duplicate_run_keeps_whole_games():
    finished = [0]

    def progress(done: int, total: int) -> None:
        finished[0] = done

    # Stopped in the 5th game played (game 1, rotation 1): game 0's three rotations stay.
    records = run_games(SANMA, 3, duplicate=True, progress=progress, stop=lambda: finished[0] >= 4)
    assert [(record.game, record.rotation) for record in records] == [(0, 0), (0, 1), (0, 2)]
    assert records == run_games(SANMA, 1, duplicate=True)


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
def test_ray_tasks_give_the_same_games(in_process, ray_cluster):
    calls = []
    on_ray = run_games(CONFIG, GAMES, workers=2, backend="ray", progress=lambda done, total: calls.append(done))
    assert on_ray == in_process
    assert calls[-1] == GAMES
    assert run_games(SANMA, 2, duplicate=True, workers=2, backend="ray") == run_games(SANMA, 2, duplicate=True)
    assert ray_cluster.is_initialized()  # the caller's instance is left running for the caller


@pytest.mark.ray
def test_ray_started_by_the_runner_is_stopped_after():
    # The command line's path: no Ray instance yet, so the runner starts one and stops it.
    ray = pytest.importorskip("ray")
    assert not ray.is_initialized()
    assert run_games(CONFIG, 4, workers=2, backend="ray") == [
        play_game(CONFIG._replace(rotation=game), game, TABLES) for game in range(4)
    ]
    assert not ray.is_initialized()


def test_four_winds_end_no_hand_at_a_table_without_abortive_draws():
    # Qiqihar has no abortive draws: this game opens with four East discards, after which the
    # machine refused the next draw (a Foul, "the hand is an abortive draw here") and the run died.
    config = GameConfig("qiqihar", ("advisor",) * 4, seed=2026)
    record = play_game(config, 324, TABLES)
    assert [event["pai"] for event in record.events if event["type"] == "dahai"][:4] == ["E"] * 4
    assert record.hands[0].ending in ("hora", "exhaustive")
    verdict = judge(
        record.events, rule_profile("qiqihar"), length=GameLength.KYOKU, family=family_of(rule_profile("qiqihar"))
    )
    assert verdict.valid and verdict.problems == []


def test_a_stopiteration_escaping_a_decision_is_an_error_not_the_end_of_the_game(monkeypatch):
    """A strategy's stray StopIteration once ended its game with no record (the pool then said
    "a chunk of games went missing" after the whole run): it must surface as the error it is."""
    import app.core.table.game as game_module

    def broken(*args: object, **kwargs: object) -> None:
        raise StopIteration

    monkeypatch.setattr(game_module, "decide", broken)
    with pytest.raises(StopIteration):
        play_game(CONFIG, 0, TABLES)
