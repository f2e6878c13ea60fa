"""A self-play run's workers end with it, however it ends: SIGINT, SIGTERM or SIGKILL.

Issue 21: two pool workers of a ``python -m app.selfplay --games 2000`` killed by a timeout
were still burning both cores 69 minutes later.  Each test starts a run in a process of its
own, finds its workers by pid (``/proc/<pid>/task/<tid>/children``) while they play, ends the
run and checks that no worker is left.  Linux only: the kill on the parent's death is
``prctl(PR_SET_PDEATHSIG)``, and the pids come from /proc.
"""

from __future__ import annotations

import _thread
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from app.core.table.game import GameConfig
from app.selfplay import runner
from app.selfplay.runner import PARENT_POLL_SECONDS, run_games

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")

ROOT = Path(__file__).resolve().parents[2]
#: Riichi advisors play the slowest games (about 0.9 s of CPU each): 2000 of them take half an hour.
LONG_RUN = ["--rules", "riichi", "--games", "2000", "--players", "advisor,advisor,advisor,advisor", "--quiet"]
#: The issue's bound: workers gone within a few seconds of their parent.
WORKERS_GONE_SECONDS = 5.0
#: Long enough for a start-up on a busy machine (imports, tables, a pool started).
START_SECONDS = 60.0


def children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (every thread's)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(int(child) for child in (task / "children").read_text().split())
        except (FileNotFoundError, ProcessLookupError):
            continue
    return found


def is_running(pid: int) -> bool:
    """Whether ``pid`` is a process that can still run: not gone, not a zombie (dead, not yet reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def is_python_worker(pid: int) -> bool:
    """Whether ``pid`` runs this Python (a pool worker; not, say, a shell)."""
    try:
        return Path(f"/proc/{pid}/exe").resolve() == Path(sys.executable).resolve()
    except (FileNotFoundError, PermissionError):
        return False


def threads(pid: int) -> int:
    try:
        return len(list(Path(f"/proc/{pid}/task").iterdir()))
    except FileNotFoundError:
        return 0


def wait_for_workers(process: subprocess.Popen[bytes], count: int) -> set[int]:
    """The pids of ``process``'s ``count`` pool workers, once each is set up and playing.

    A worker is set up once its initializer has started the thread that watches its parent
    (a second thread): by then the kernel has been asked to kill it with its parent.
    """
    deadline = time.monotonic() + START_SECONDS
    while True:
        assert process.poll() is None, process.communicate()[1].decode()
        workers = {pid for pid in children(process.pid) if is_python_worker(pid) and threads(pid) >= 2}
        if len(workers) >= count:
            return workers
        assert time.monotonic() < deadline, "the run's workers never started"
        time.sleep(0.05)


def assert_gone(workers: set[int]) -> float:
    """Seconds until every one of ``workers`` has ended (at most WORKERS_GONE_SECONDS)."""
    started = time.monotonic()
    while any(is_running(pid) for pid in workers):
        left = [pid for pid in workers if is_running(pid)]
        assert time.monotonic() - started < WORKERS_GONE_SECONDS, f"workers {left} outlived their parent"
        time.sleep(0.05)
    return time.monotonic() - started


def _default_sigint() -> None:
    # A process started with SIGINT ignored keeps it ignored across exec, and Python then never
    # turns it into KeyboardInterrupt: pytest-xdist's workers ignore SIGINT, so the command line
    # is started as a shell starts it, with SIGINT at its default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(arguments: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, *arguments],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=_default_sigint,
    )


@pytest.mark.parametrize(
    ("sent", "status", "said"),
    [
        (signal.SIGKILL, -signal.SIGKILL, ""),
        (signal.SIGTERM, 128 + signal.SIGTERM, "terminated"),
        (signal.SIGINT, 128 + signal.SIGINT, "interrupted"),
    ],
    ids=["SIGKILL", "SIGTERM", "SIGINT"],
)
def test_the_command_lines_workers_end_with_it(sent: signal.Signals, status: int, said: str) -> None:
    run = start(["-m", "app.selfplay", *LONG_RUN, "--workers", "2"])
    try:
        workers = wait_for_workers(run, 2)
        time.sleep(0.3)  # in the middle of their first chunks
        run.send_signal(sent)
        _, stderr = run.communicate(timeout=30)
        assert run.returncode == status, stderr.decode()
        assert said in stderr.decode()
        gone_after = assert_gone(workers)
        print(f"{sent.name}: the workers were gone {gone_after:.2f} s after their parent")
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


#: A run whose process has a second thread: the runner then spawns its workers (fork is unsafe).
SPAWNED_RUN = textwrap.dedent(
    """
    import threading
    from app.core.table.game import GameConfig
    from app.selfplay.runner import run_games

    threading.Thread(target=threading.Event().wait, daemon=True).start()
    run_games(GameConfig("riichi", ("advisor",) * 4, seed=1, record_events=False), 2000, workers=2)
    """
)


def test_spawned_workers_end_with_a_killed_parent() -> None:
    run = start(["-c", SPAWNED_RUN])
    try:
        workers = wait_for_workers(run, 2)
        cmdlines = [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in workers]
        assert any(b"multiprocessing" in cmdline for cmdline in cmdlines)  # spawned, not forked
        time.sleep(0.3)
        run.kill()
        run.wait(timeout=30)
        assert_gone(workers)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


#: A process whose forked child watches it as a pool worker's thread does, without the
#: kernel's help (no prctl: where there is none, the thread is the only guard).
WATCHED_PARENT = textwrap.dedent(
    """
    import os, sys, time
    from app.selfplay.runner import _watch_parent

    parent = os.getpid()
    child = os.fork()
    if child == 0:
        _watch_parent(parent)  # returns never: ends the process once orphaned
    print(child, flush=True)
    time.sleep(600)
    """
)


def test_the_watch_thread_alone_ends_an_orphaned_worker() -> None:
    run = subprocess.Popen(
        [sys.executable, "-c", WATCHED_PARENT],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
    )
    try:
        assert run.stdout is not None
        watcher = int(run.stdout.readline())
        time.sleep(PARENT_POLL_SECONDS)
        assert is_running(watcher)  # its parent lives: it waits
        run.kill()
        run.wait(timeout=30)
        assert assert_gone({watcher}) < WORKERS_GONE_SECONDS
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


def test_a_worker_whose_parent_is_already_gone_ends_at_once() -> None:
    # The race the parent check closes: the parent died before the worker asked the kernel to
    # be told; the worker then has another parent than the one it was started by.
    check = "from app.selfplay.runner import end_with_parent; end_with_parent(1); print('still here')"
    done = subprocess.run(
        [sys.executable, "-c", check],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1 and "still here" not in done.stdout


@pytest.mark.ray
def test_an_interrupted_run_cancels_its_ray_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the run owes the caller's cluster: every task it submitted is cancelled when it is
    # interrupted, whenever the interruption comes (during a slow submission on a busy machine
    # too).  Spied at Ray's own two calls, so the check does not depend on how fast a loaded
    # cluster then frees its workers.  Chunks of 250 advisor games last minutes: none is done.
    ray = pytest.importorskip("ray")
    monkeypatch.setattr(runner, "MAX_CHUNK_GAMES", 250)
    submitted: list[Any] = []
    cancelled: list[Any] = []
    real_remote, real_cancel = ray.remote, ray.cancel

    def spied_remote(*args: Any, **options: Any) -> Any:
        remote_function = real_remote(*args, **options)
        if options or args[0] is not runner.play_chunk:  # Ray's own uses, untouched
            return remote_function

        class Submitting:
            def remote(self, *args: Any) -> Any:
                ref = remote_function.remote(*args)
                submitted.append(ref)
                return ref

        return Submitting()

    def spied_cancel(ref: Any, **options: Any) -> None:
        cancelled.append(ref)
        real_cancel(ref, **options)

    monkeypatch.setattr(ray, "remote", spied_remote)
    monkeypatch.setattr(ray, "cancel", spied_cancel)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        config = GameConfig("riichi", ("advisor",) * 4, seed=1, record_events=False)
        interrupt = threading.Timer(3.0, _thread.interrupt_main)
        # interrupt_main does nothing where SIGINT is ignored, as in pytest-xdist's workers.
        previous = signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            interrupt.start()
            with pytest.raises(KeyboardInterrupt):
                run_games(config, 2000, workers=2, backend="ray")
            interrupt.join()
        finally:
            signal.signal(signal.SIGINT, previous)
        assert submitted, "the run was interrupted before it submitted a task"
        assert {ref.hex() for ref in cancelled} == {ref.hex() for ref in submitted}
    finally:
        ray.shutdown()


def descendants(pid: int) -> set[int]:
    """Every process below ``pid``."""
    found = children(pid)
    for child in set(found):
        found |= descendants(child)
    return found


@pytest.mark.ray
def test_a_terminated_ray_run_cancels_its_tasks_and_exits_143() -> None:
    # ray.init installs Ray's own SIGTERM handler (log, exit 1, no clean-up of ours); the
    # command line's is kept, so the run's tasks are cancelled and Ray stopped as after Ctrl-C.
    run = start(["-m", "app.selfplay", *LONG_RUN, "--workers", "2", "--backend", "ray"])
    try:
        deadline = time.monotonic() + START_SECONDS
        while not any(b"play_chunk" in Path(f"/proc/{pid}/cmdline").read_bytes() for pid in descendants(run.pid)):
            assert run.poll() is None, run.communicate()[1].decode()
            assert time.monotonic() < deadline, "no Ray task started"
            time.sleep(0.2)
        started = descendants(run.pid)
        run.send_signal(signal.SIGTERM)
        _, stderr = run.communicate(timeout=60)
        assert run.returncode == 128 + signal.SIGTERM, stderr.decode()
        assert "terminated" in stderr.decode()
        assert_gone(started)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
