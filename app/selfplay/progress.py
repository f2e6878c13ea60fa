"""A self-contained progress bar for long runs: ``[#####.....] 500/1000 games  41.3 games/s  ETA 12 s``.

On a terminal the bar is redrawn in place (``\\r``) at most every
:data:`REDRAW_SECONDS`; written to a file or a pipe, where ``\\r`` would pile up,
it prints one line each time another tenth of the games is done.

>>> import io
>>> clock = iter([0.0, 10.0, 20.0]).__next__
>>> out = io.StringIO()
>>> bar = ProgressBar(out, clock=clock)
>>> bar(0, 1000); bar(500, 1000); bar(1000, 1000)
>>> print(out.getvalue(), end="")
[..........] 0/1000 games
[#####.....] 500/1000 games  50.0 games/s  ETA 10 s
[##########] 1000/1000 games  50.0 games/s
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final, TextIO

BAR_WIDTH: Final = 10
REDRAW_SECONDS: Final = 0.1
"""Least time between two redraws on a terminal (the last one is always drawn)."""
LINE_STEPS: Final = 10
"""Lines printed over a run when the stream is not a terminal: one per tenth."""


class ProgressBar:
    """A progress callback (``bar(done, total)``) that draws on ``stream``.

    ``terminal`` says whether to redraw in place; by default, whether ``stream``
    is a TTY.  ``label`` goes before the bar (a sweep names its value there).
    Call :meth:`close` after the last update to end the line.
    """

    def __init__(
        self,
        stream: TextIO,
        *,
        label: str = "",
        terminal: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.label = label
        self.terminal = stream.isatty() if terminal is None else terminal
        self.clock = clock
        self.started: float | None = None
        self.last_drawn = float("-inf")
        self.last_step = -1
        self.drawn_in_place = False

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if self.started is None:
            self.started = now
        line = self.label + format_progress(done, total, now - self.started)
        if self.terminal:
            if done == total or now - self.last_drawn >= REDRAW_SECONDS:
                self.stream.write("\r" + line + "\x1b[K")  # \x1b[K clears what a longer line left
                self.stream.flush()
                self.last_drawn = now
                self.drawn_in_place = True
            return
        step = done * LINE_STEPS // total if total else LINE_STEPS
        if step > self.last_step:
            self.stream.write(line + "\n")
            self.stream.flush()
            self.last_step = step

    def close(self) -> None:
        """End the line the bar was drawn on (on a terminal)."""
        if self.drawn_in_place:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn_in_place = False


def format_progress(done: int, total: int, elapsed: float) -> str:
    """One line of progress after ``elapsed`` seconds.

    >>> format_progress(500, 1000, 12.1)
    '[#####.....] 500/1000 games  41.3 games/s  ETA 12 s'
    >>> format_progress(10, 1000, 2.0)
    '[..........] 10/1000 games  5.0 games/s  ETA 3 min 18 s'
    """
    filled = BAR_WIDTH * done // total if total else BAR_WIDTH
    line = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} games"
    if done and elapsed > 0:
        rate = done / elapsed
        line += f"  {rate:.1f} games/s"
        if done < total:
            line += f"  ETA {format_duration((total - done) / rate)}"
    return line


def format_duration(seconds: float) -> str:
    """Seconds for a person: ``12 s``, ``3 min 18 s``, ``2 h 05 min``.

    >>> format_duration(4.4), format_duration(198), format_duration(7500)
    ('4 s', '3 min 18 s', '2 h 05 min')
    """
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60:02d} min"
