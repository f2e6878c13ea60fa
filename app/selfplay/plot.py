"""The picture of a self-play report: shanten by turn and tenpai turns, per seat.

Left panel: each seat's average shanten after each of its own discards (over
the hands that made that many discards).  Right panel: how many hands each
seat got ready after each of its own turns, as grouped bars (turn 0: dealt
ready).  Lines and bars are labelled ``seat N: strategy``.

matplotlib is an optional dependency (``pip install 'tenpai[plot]'``), imported
only when a plot is drawn.  The figure is drawn on matplotlib's Agg canvas
directly, without pyplot, so no global figure state or GUI backend is involved.
"""

from __future__ import annotations

from os import PathLike
from typing import Any, Final

from app.selfplay.errors import MissingExtra

FIGURE_SIZE: Final = (12.0, 4.8)
"""Inches, width by height."""
DPI: Final = 100


def write_plot(report: dict[str, Any], path: str | PathLike[str]) -> None:
    """Draw ``report`` (from :func:`~app.selfplay.report.build_report`) as a PNG at ``path``."""
    figure_class, canvas_class, patch_class = import_matplotlib()
    figure = figure_class(figsize=FIGURE_SIZE, dpi=DPI, layout="constrained")
    canvas_class(figure)
    shanten_axes, tenpai_axes = figure.subplots(1, 2)
    players = report["players"]
    labels = [f"seat {player['seat']}: {player['strategy']}" for player in players]

    # One colour per seat in both panels (a seat without bars must not shift the others' colours).
    colours = [f"C{index}" for index in range(len(players))]
    for player, label, colour in zip(players, labels, colours, strict=True):
        rows = player["shanten_by_turn"]
        turns, averages = [row["turn"] for row in rows], [row["average"] for row in rows]
        shanten_axes.plot(turns, averages, marker=".", color=colour, label=label)
    shanten_axes.set_title("Average shanten after each own discard")
    shanten_axes.set_xlabel("own turn")
    shanten_axes.set_ylabel("shanten (0: ready)")
    shanten_axes.grid(alpha=0.3)
    shanten_axes.legend()

    bar_width = 0.8 / max(len(players), 1)
    for index, (player, _label, colour) in enumerate(zip(players, labels, colours, strict=True)):
        histogram = player["tenpai_turn_histogram"]
        offset = (index - (len(players) - 1) / 2) * bar_width
        positions = [int(turn) + offset for turn in histogram]
        tenpai_axes.bar(positions, list(histogram.values()), width=bar_width, color=colour)
    tenpai_axes.set_title("Own turn on which the hand got ready")
    tenpai_axes.set_xlabel("own turn (0: dealt ready)")
    tenpai_axes.set_ylabel("hands")
    tenpai_axes.grid(axis="y", alpha=0.3)
    # Legend entries made by hand: a seat that never got ready has no bar to take its entry from.
    tenpai_axes.legend(
        handles=[
            patch_class(color=colour, label=label if player["tenpai_turn_histogram"] else f"{label} (never ready)")
            for player, label, colour in zip(players, labels, colours, strict=True)
        ]
    )

    figure.suptitle(
        f"{report['rules']}: {report['games']} games, seed {report['seed']}, "
        f"exhaustive draws {_percent(report['table']['exhaustive_draw_rate']['value'])}"
    )
    # No "Software" entry: the file depends only on the report (and matplotlib's drawing).
    figure.savefig(path, format="png", metadata={"Software": None})


def _percent(share: float | None) -> str:
    return "n/a" if share is None else f"{share:.1%}"


def import_matplotlib() -> tuple[Any, Any, Any]:
    """matplotlib's ``Figure``, Agg canvas and ``Patch`` classes, or :class:`~app.selfplay.errors.MissingExtra`."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.patches import Patch
    except ImportError:
        raise MissingExtra("matplotlib", extra="plot", purpose="plotting a self-play report") from None
    return Figure, FigureCanvasAgg, Patch
