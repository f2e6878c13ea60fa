"""What the store tests run in child processes (started with ``spawn``: a fresh interpreter each).

Each opens the store by URL, as a uvicorn worker or another replica would, and waits for the
parent's start signal so that the processes really race.
"""

from __future__ import annotations

import time
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier
from typing import Any

from app.hosting.store import open_store


def claim_until_none_due(url: str, now: float, start: Barrier, results: Queue[Any]) -> None:
    """Claim due tables a few at a time until none is due, reading each as a service would; put every id claimed."""
    store = open_store(url)
    claimed: list[str] = []
    start.wait()
    while batch := store.claim_due(now, lease_seconds=3600.0, limit=3):
        claimed += batch
        # The work between two claims lets the other process in: back to back, the claims of one
        # process can hold SQLite's write lock every time the other's busy handler looks.
        for table in batch:
            store.load(table)
        time.sleep(0.001)
    store.close()
    results.put(claimed)


def commit_in_turns(url: str, table: str, worker: int, attempts: int, start: Barrier, results: Queue[Any]) -> None:
    """Read, then commit one event on the revision read, ``attempts`` times; put the successes."""
    store = open_store(url)
    successes = 0
    start.wait()
    for attempt in range(attempts):
        stored = store.load(table)
        assert stored is not None
        event = {"type": "none", "worker": worker, "attempt": attempt}
        if store.commit(table, stored.revision, {"last": worker}, [event], [], deadline=None):
            successes += 1
    store.close()
    results.put((worker, successes))
