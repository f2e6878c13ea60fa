"""Self-play: seeded runs of whole games on the table machine, summarised with 95% intervals.

* :mod:`app.selfplay.runner` plays a run's games (in this process, a process
  pool or Ray), always with the same results for the same configuration;
* :mod:`app.selfplay.report` turns the results into a JSON-able report;
* :mod:`app.selfplay.plot` draws a report (matplotlib, the ``plot`` extra);
* :mod:`app.selfplay.cli` is the command line, ``python -m app.selfplay``.

Like the core, this package never imports the HTTP stack.
"""

from app.selfplay.report import build_report
from app.selfplay.runner import run_games

__all__ = ["build_report", "run_games"]
