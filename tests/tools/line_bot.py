"""A bot in a process of its own, spoken to one line at a time: what ``arena.py`` and ``versus.py`` share.

Pure standard library, so both the mjai virtual environment (``arena.py``) and the project's
(``versus.py``) import it.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import subprocess
import time
from pathlib import Path
from typing import Any, Protocol

#: How long a bot process may take to exit once its stdin is closed at the end of a game.
EXIT_GRACE = 5.0

Record = dict[str, Any]


class BotFault(Exception):
    """The bot did not answer: ``timeout`` or ``crash`` (its process ended)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail


class Bot(Protocol):
    def ask(self, line: str, timeout: float) -> str: ...

    def close(self) -> int | None: ...


class LineProcess:
    """A bot process: one line to its stdin, one line back from its stdout, within a timeout."""

    def __init__(self, argv: list[str], cwd: Path, stderr_path: Path) -> None:
        self._stderr = stderr_path.open("wb")
        self.proc = subprocess.Popen(
            argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, bufsize=0
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._stdin, self._stdout = self.proc.stdin, self.proc.stdout
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._stdout, selectors.EVENT_READ)
        self._buffer = b""

    def tell(self, line: str) -> None:
        """Send a line that wants no reply (a protocol that answers only where the seat may act)."""
        try:
            self._stdin.write(line.encode() + b"\n")
        except BrokenPipeError:
            raise BotFault("crash", f"stdin closed, exit code {self._exit_code()}") from None

    def ask(self, line: str, timeout: float) -> str:
        self.tell(line)
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFault("timeout", f"no reply within {timeout} s")
            if not self._selector.select(left):
                continue
            chunk = os.read(self._stdout.fileno(), 1 << 16)
            if not chunk:
                raise BotFault("crash", f"stdout closed, exit code {self._exit_code()}")
            self._buffer += chunk
        reply, _, self._buffer = self._buffer.partition(b"\n")
        return reply.decode("utf-8", "replace").strip()

    def _exit_code(self) -> int | None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            return self.proc.wait(EXIT_GRACE)
        return None

    def close(self) -> int | None:
        """End the process (stdin closed, then killed if it lingers); its exit code."""
        with contextlib.suppress(BrokenPipeError):
            self._stdin.close()
        code = self._exit_code()
        if code is None:
            self.proc.kill()
            self.proc.wait()
        self._selector.close()
        self._stdout.close()
        self._stderr.close()
        return code


def parse_reply(reply: str) -> Record | None:
    """The reply as an action, or ``None`` where it is not a JSON object with a ``type``."""
    try:
        action = json.loads(reply)
    except ValueError:
        return None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return None
    return action


def bot_argv(command: str, seat: int) -> list[str]:
    argv = shlex.split(command)
    if any("{seat}" in arg for arg in argv):
        return [arg.replace("{seat}", str(seat)) for arg in argv]
    return [*argv, str(seat)]
