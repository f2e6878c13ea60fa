"""A stop signal ends the process within its drain time, whatever its requests are doing.

On SIGTERM (or SIGINT) uvicorn stops accepting connections and lets in-flight requests finish
for up to its graceful-shutdown time, then returns.  Two things could still keep the process
alive past that: a request stuck on the event loop (the loop never gets back to uvicorn's
shutdown), and a worker thread stuck in its work (the interpreter joins every non-daemon thread
before it exits, and Starlette's thread pool is non-daemon).  :func:`arm_exit_deadline` wraps
the signal handler uvicorn installed: the signal still starts uvicorn's graceful shutdown, and
also a daemon timer that ends the process with :func:`os._exit` if it is still there
:data:`EXIT_MARGIN_SECONDS` after the drain.  Python runs a signal handler between two
bytecodes of the main thread, so the timer starts even while a request spins on the loop.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any, Final

EXIT_MARGIN_SECONDS: Final = 3.0
"""How long after the drain a process still running is ended: uvicorn's own closing (the
lifespan's shutdown, the sockets) takes milliseconds."""
FORCED_EXIT_STATUS: Final = 3
"""The exit status of a process ended by the deadline (a clean stop exits 0)."""

logger = logging.getLogger(__name__)

_armed = threading.Lock()


def arm_exit_deadline(drain_seconds: float) -> bool:
    """Wrap this process's SIGTERM and SIGINT handlers so that either also starts the deadline.

    Only the main thread may set signal handlers: elsewhere (a test client's portal thread)
    this does nothing and answers False.
    """
    if threading.current_thread() is not threading.main_thread():
        return False
    for signum in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(signum)
        signal.signal(signum, _with_deadline(previous, drain_seconds + EXIT_MARGIN_SECONDS))
    return True


def _with_deadline(previous: Any, seconds: float) -> Callable[[int, FrameType | None], None]:
    def handler(signum: int, frame: FrameType | None) -> None:
        _start_deadline(seconds)
        if callable(previous):
            previous(signum, frame)
        elif previous == signal.SIG_DFL:  # nobody else handles it: the default is to end now
            raise SystemExit(128 + signum)

    return handler


def _start_deadline(seconds: float) -> None:
    if not _armed.acquire(blocking=False):
        return  # a second signal: the first one's deadline stands
    timer = threading.Timer(seconds, _force_exit, (seconds,))
    timer.name = "tenpai exit deadline"
    timer.daemon = True  # a clean stop does not wait for it
    timer.start()


def _force_exit(seconds: float) -> None:
    logger.error("still running %.0f s after the stop signal: ending the process now", seconds)
    for handler in logging.getLogger().handlers + logging.getLogger("app").handlers:
        try:
            handler.flush()
        except Exception:  # noqa: BLE001,S110 - exiting regardless; a log that cannot flush is lost
            pass
    sys.stderr.flush()
    os._exit(FORCED_EXIT_STATUS)
