"""The plot is a PNG; without matplotlib the error names the extra to install."""

from __future__ import annotations

import sys

import pytest

from app.core.table.game import GameConfig
from app.selfplay.errors import MissingExtra
from app.selfplay.plot import write_plot
from app.selfplay.report import build_report
from app.selfplay.runner import run_games

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def report() -> dict:
    config = GameConfig("riichi", ("linear", "greedy", "heuristic", "random"), seed=9, length="tonpuu")
    return build_report(config, run_games(config._replace(record_events=False), 2))


def test_writes_a_png(report, tmp_path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "report.png"
    write_plot(report, path)
    assert path.read_bytes().startswith(PNG_SIGNATURE)


def test_a_seat_that_never_got_ready_still_plots(report, tmp_path):
    pytest.importorskip("matplotlib")
    never = {**report, "players": [{**player, "tenpai_turn_histogram": {}} for player in report["players"]]}
    write_plot(never, tmp_path / "never.png")
    assert (tmp_path / "never.png").read_bytes().startswith(PNG_SIGNATURE)


def test_without_matplotlib_the_error_names_the_extra(report, tmp_path, monkeypatch):
    for module in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg", "matplotlib.patches"):
        monkeypatch.setitem(sys.modules, module, None)  # `import` of a None entry fails
    with pytest.raises(MissingExtra, match=r"pip install 'tenpai\[plot\]'") as raised:
        write_plot(report, tmp_path / "report.png")
    assert isinstance(raised.value, ImportError) and raised.value.extra == "plot"
    assert not (tmp_path / "report.png").exists()
