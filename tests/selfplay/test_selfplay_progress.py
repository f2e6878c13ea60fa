"""The progress bar: redrawn in place on a terminal, a line per tenth elsewhere."""

from __future__ import annotations

import io

from app.selfplay.progress import ProgressBar, format_progress


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_line_format():
    assert format_progress(500, 1000, 12.1) == "[#####.....] 500/1000 games  41.3 games/s  ETA 12 s"
    assert format_progress(0, 1000, 0.0) == "[..........] 0/1000 games"
    assert format_progress(1000, 1000, 20.0) == "[##########] 1000/1000 games  50.0 games/s"


def test_not_a_terminal_prints_a_line_every_tenth():
    out, clock = io.StringIO(), Clock()
    bar = ProgressBar(out, terminal=False, clock=clock)
    for done in range(101):
        clock.now = done * 0.1
        bar(done, 100)
    bar.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 11 and "\r" not in out.getvalue()
    assert lines[1].startswith("[#.........] 10/100 games  10.0 games/s  ETA 9 s")
    assert lines[-1] == "[##########] 100/100 games  10.0 games/s"


def test_terminal_redraws_in_place_at_most_ten_times_a_second():
    out, clock = io.StringIO(), Clock()
    bar = ProgressBar(out, terminal=True, clock=clock, label="safetyWeight=2 ")
    for done in range(51):
        clock.now = done * 0.01  # 100 games/s: five redraws in half a second, plus the last
        bar(done, 50)
    bar.close()
    text = out.getvalue()
    assert text.count("\r") == 6
    assert text.endswith("\r" + "safetyWeight=2 [##########] 50/50 games  100.0 games/s\x1b[K\n")
    assert "\n" not in text[:-1]


def test_a_stream_that_is_not_a_tty_gets_lines():
    assert ProgressBar(io.StringIO()).terminal is False
