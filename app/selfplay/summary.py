"""Reports as text for a person: the per-seat table of a run and the table of a sweep.

>>> format_rate({"value": 0.25, "ci95": [0.1, 0.4], "n": 40}, interval=True)
'25.0% (10.0-40.0)'
>>> format_number({"value": None, "ci95": None, "n": 0})
'-'
>>> print(format_table(["a", "bb"], [["1", "2"], ["333", "4"]]))
a    bb
---  --
1    2
333  4
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from app.core.value.scoring import MINIMUM_FANS
from app.selfplay.report import Estimate

MISSING: Final = "-"
"""Shown for an estimate without a value (nothing to average)."""
ADVISOR: Final = "advisor"
"""The strategy whose weights a sweep changes."""


def format_summary(report: dict[str, Any]) -> str:
    """The run's per-position tables (play, then placement), the table-wide rates and the comparisons."""
    weights = " ".join(f"{name}={value:g}" for name, value in report["weights"].items())
    # Under rules whose wins need fans the advisor is the fan planner, which has no weights.
    advisor = "advisor: the fan planner" if MINIMUM_FANS.get(report["rules"]) else f"advisor weights {weights}"
    lines = [f"{report['rules']}: {_games(report)}, seed {report['seed']}, {advisor}", ""]
    # Fans (MCR) take the han column's place when the wins counted fans and no han.
    counts_fans = any(player["average_fan"]["n"] for player in report["players"]) and not any(
        player["average_han"]["n"] for player in report["players"]
    )
    header = [
        "seat",
        "strategy",
        "win rate (95% CI)",
        "deal-in",
        "self-draw share",
        "avg tenpai turn",
        "avg payment",
        "avg fan" if counts_fans else "avg han",
        "avg points/win",
    ]
    rows = [
        [
            str(player["seat"]),
            player["strategy"],
            format_rate(player["win_rate"], interval=True),
            format_rate(player["deal_in_rate"]),
            format_rate(player["self_draw_share"]),
            format_number(player["average_tenpai_turn"], decimals=1),
            format_number(player["average_payment"], decimals=2, signed=True),
            format_number(player["average_fan" if counts_fans else "average_han"], decimals=2),
            format_points(player["average_win_payment"]),
        ]
        for player in report["players"]
    ]
    lines.append(format_table(header, rows))
    if any(player["flush_win_share"]["n"] for player in report["players"]):
        lines.append("")
        lines.append(
            "flush wins (清一色 and its family, share of each seat's wins): "
            + ", ".join(
                f"seat {player['seat']} {player['strategy']} {format_rate(player['flush_win_share'], interval=True)}"
                for player in report["players"]
            )
        )
    lines += ["", format_placements(report)]
    table = report["table"]
    lines.append("")
    lines.append(
        f"exhaustive draws {format_rate(table['exhaustive_draw_rate'], interval=True)}, "
        f"abortive draws {format_rate(table['abortive_draw_rate'])}, "
        f"wins on a discard {format_rate(table['deal_in_rate'])}, "
        f"self-draws {format_rate(table['self_draw_rate'])}, "
        f"{format_number(table['average_turns'], decimals=1)} discards a hand, "
        f"{format_number(table['average_hands'], decimals=1)} hands a game"
    )
    paired = "paired by game: every rotation of each" if report["duplicate"] else "paired by game"
    for title, field, shown in _COMPARISONS:
        if report["comparisons"]:
            lines += ["", title.format(paired=paired)]
        for comparison in report["comparisons"]:
            lines.append(f"  {comparison['a']} - {comparison['b']}: {shown(comparison[field])}")
    return "\n".join(lines)


def format_placements(report: dict[str, Any]) -> str:
    """Each position's places: average rank, rank points (95% CI), the rate of each place, final score.

    >>> player = {"seat": 0, "strategy": "linear", "average_rank": {"value": 2.25, "ci95": None, "n": 4},
    ...     "average_rank_points": {"value": 11.25, "ci95": [-80.2, 102.7], "n": 4},
    ...     "place_rates": [{"value": share, "ci95": None, "n": 4} for share in (0.5, 0, 0, 0.5)],
    ...     "average_final_score": {"value": 25100.0, "ci95": None, "n": 4}}
    >>> print(format_placements({"rank_points": [90, 45, 0, -135], "players": [player]}))
    seat  strategy  avg rank  rank points [90, 45, 0, -135] (95% CI)  1st    2nd   3rd   4th    avg final score
    ----  --------  --------  --------------------------------------  -----  ----  ----  -----  ---------------
    0     linear    2.25      +11.2 (-80.2 to +102.7)                 50.0%  0.0%  0.0%  50.0%  25100
    """
    points = ", ".join(f"{value:g}" for value in report["rank_points"])
    places = [_ORDINALS[place] for place in range(len(report["rank_points"]))]
    header = ["seat", "strategy", "avg rank", f"rank points [{points}] (95% CI)", *places, "avg final score"]
    rows = [
        [
            str(player["seat"]),
            player["strategy"],
            format_number(player["average_rank"], decimals=2),
            _payment_estimate(player["average_rank_points"]),
            *(format_rate(rate) for rate in player["place_rates"]),
            format_points(player["average_final_score"]),
        ]
        for player in report["players"]
    ]
    return format_table(header, rows)


def _games(report: dict[str, Any]) -> str:
    """How much was played: ``400 games, hanchan, 3920 hands`` or ``100 games x 4 rotations (duplicate), ...``."""
    played = f"{report['games']} games"
    if report["duplicate"]:
        played += f" x {report['games_played'] // max(report['games'], 1)} rotations (duplicate)"
    return f"{played}, {report['length']}, {report['hands']} hands"


def format_sweep(
    parameter: str,
    values: Sequence[float],
    reports: Sequence[dict[str, Any]],
    paired: Sequence[dict[str, Any]] = (),
) -> str:
    """Seed 000's tuning table: one row per value of ``parameter``, for the advisors' seats pooled.

    Columns: the value, the advisors' average tenpai turn, deal-in rate, average
    han and points of a win (``-`` for han under rules whose scoring counts none)
    and win rate (each advisor seat in each game is one trial).
    ``paired`` (see :func:`~app.selfplay.report.paired_changes`) adds, under the
    table, each later value's change from the first, paired by game.
    """
    header = [parameter, "avg tenpai turn", "deal-in rate", "avg han", "avg points/win", "advisor win rate (95% CI)"]
    rows = []
    for value, report in zip(values, reports, strict=True):
        advisors = report["by_strategy"][ADVISOR]
        rows.append(
            [
                f"{value:g}",
                format_number(advisors["average_tenpai_turn"], decimals=1),
                format_rate(advisors["deal_in_rate"]),
                format_number(advisors["average_han"], decimals=2),
                format_points(advisors["average_win_payment"]),
                format_rate(advisors["win_rate"], interval=True),
            ]
        )
    seats = ", ".join(str(seat) for seat in reports[0]["by_strategy"][ADVISOR]["seats"]) if reports else ""
    title = f"{parameter} sweep: {reports[0]['games'] if reports else 0} games per value, advisors at seats {seats}"
    text = title + "\n\n" + format_table(header, rows)
    if paired:
        text += f"\n\nchanges from {parameter}={values[0]:g}, paired by game (same walls), 95% CI:"
        for change in paired:
            deal_in, win = change["deal_in_rate_change"], change["win_rate_change"]
            text += (
                f"\n  {parameter}={change['value']:g}: deal-in {_points(deal_in['value'])} points"
                f" ({_points_interval(deal_in['ci95'])}), win rate {_points(win['value'])} points"
                f" ({_points_interval(win['ci95'])})"
            )
    return text


def format_rate(estimate: Estimate, *, interval: bool = False) -> str:
    """A rate as a percentage, with its 95% interval when ``interval``."""
    if estimate["value"] is None:
        return MISSING
    text = f"{estimate['value']:.1%}"
    if interval and estimate["ci95"] is not None:
        low, high = estimate["ci95"]
        text += f" ({low * 100:.1f}-{high * 100:.1f})"
    return text


def format_number(estimate: Estimate, *, decimals: int = 1, signed: bool = False) -> str:
    """An average's value (``-`` when there was nothing to average).

    >>> format_number({"value": 1.234, "ci95": None, "n": 1}, decimals=2, signed=True)
    '+1.23'
    """
    if estimate["value"] is None:
        return MISSING
    return f"{estimate['value']:{'+' if signed else ''}.{decimals}f}"


def format_points(estimate: Estimate) -> str:
    """Points per win: whole points in the thousands (riichi), two decimals for small units (Qiqihar's 8.2).

    >>> format_points({"value": 4461.4, "ci95": None, "n": 9}), format_points({"value": 8.204, "ci95": None, "n": 9})
    ('4461', '8.20')
    """
    value = estimate["value"]
    return format_number(estimate, decimals=0 if value is not None and abs(value) >= 100 else 2)


def format_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned columns two spaces apart, the header underlined."""
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()

    return "\n".join([line(header), line(["-" * width for width in widths]), *(line(row) for row in rows)])


def _points_estimate(difference: Estimate) -> str:
    return f"{_points(difference['value'])} points ({_points_interval(difference['ci95'])})"


def _payment_estimate(payment: Estimate) -> str:
    return f"{format_number(payment, decimals=1, signed=True)} ({_interval(payment['ci95'])})"


#: The pairwise sections of the summary: title (``{paired}`` says how), the comparison's field, how a
#: value is shown.
_COMPARISONS: Final = (
    (
        "win rate differences, seats pooled (approximate 95% CI: seats at one table are not independent)",
        "win_rate_difference",
        _points_estimate,
    ),
    ("hands won per seat, differences {paired} (95% CI)", "paired_win_difference", _points_estimate),
    ("hands dealt in per seat, differences {paired} (95% CI)", "paired_deal_in_difference", _points_estimate),
    ("average payment differences per hand, {paired} (95% CI)", "payment_difference", _payment_estimate),
    ("rank points differences, {paired} (95% CI)", "rank_points_difference", _payment_estimate),
)
_ORDINALS: Final = ("1st", "2nd", "3rd", "4th")


def _interval(interval: list[float] | None) -> str:
    return MISSING if interval is None else f"{interval[0]:+.1f} to {interval[1]:+.1f}"


def _points(share: float | None) -> str:
    return MISSING if share is None else f"{share * 100:+.1f}"


def _points_interval(interval: list[float] | None) -> str:
    return MISSING if interval is None else f"{_points(interval[0])} to {_points(interval[1])}"
