"""The app's shelf of table machines: what ``/act`` resumes a growing log from.

A backend driving a game through ``/act`` sends the log again at every decision, a few
events longer each time.  This cache keeps the machine each answer replayed, under the
exact key of what it is a function of (:class:`~app.core.table.resume.PrefixKey`: the rule
profile, the seat, the number of events and the SHA-256 of their canonical bytes), so that
the next request applies only its new events (:func:`~app.core.table.decide.act`).

Bounded twice, like the result cache (:mod:`app.api.cache`): by entries
(TENPAI_ACT_MACHINES) and by bytes (TENPAI_ACT_MACHINE_BYTES, each machine weighed when it is
kept: about 15 KB at a hanchan's start to 40 KB at its end, :func:`~app.core.table.resume.machine_size`), least recently used out
first; a machine larger than :data:`LARGEST_SHARE` of the byte budget is not kept.  Either
bound 0 turns it off (every ``/act`` replays the whole log, as before).  Safe to share
between the heavy threads of one process: the lock is held for dictionary operations only,
and a machine is in the cache or in one request's hands, never both
(:mod:`app.core.table.resume`).  Its counters are served by ``/metrics``.

>>> from app.core.shape.rules import rule_profile
>>> from app.core.table.machine import TableMachine
>>> from app.core.table.resume import PrefixKey
>>> cache = MachineCache(8, max_bytes=1 << 20)
>>> from app.core.families.registry import family_of
>>> key = PrefixKey(rule_profile("riichi"), 0, 1, b"\\x00" * 32)
>>> cache.take([key]) is None
True
>>> cache.keep(key, TableMachine(rule_profile("riichi"), family_of("riichi")), 15_000)
>>> cache.lengths(), cache.stats()
({1}, MachineCacheStats(hits=0, misses=1, size=1, max_size=8, bytes=15000, max_bytes=1048576))
>>> cache.take([key._replace(events=2), key])[0] == key, cache.lengths()  # taken out: the caller's now
(True, set())
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from cachetools import LRUCache

from app.core.table.machine import TableMachine
from app.core.table.resume import PrefixKey

#: Largest part of the byte budget one machine may take.
LARGEST_SHARE: Final = 16


class _Kept(NamedTuple):
    machine: TableMachine
    size: int


def _size_of(kept: _Kept) -> int:
    return kept.size


@dataclass(frozen=True, slots=True)
class MachineCacheStats:
    """A snapshot of the machine cache's counters: requests that resumed (hits) or replayed
    from the start (misses), machines kept and their bytes, and the bounds."""

    hits: int
    misses: int
    size: int
    max_size: int
    bytes: int
    max_bytes: int


class MachineCache:
    """A thread-safe LRU of table machines by :class:`PrefixKey`, at most ``max_size`` of them
    in at most ``max_bytes`` bytes (:func:`~app.core.table.resume.machine_size`)."""

    def __init__(self, max_size: int, *, max_bytes: int) -> None:
        enabled = max_size > 0 and max_bytes > 0
        # cachetools bounds the bytes; the entry count is bounded by hand in keep, from the same LRU order.
        self._entries: LRUCache[PrefixKey, _Kept] | None = LRUCache(max_bytes, getsizeof=_size_of) if enabled else None
        self._max_size = max_size
        self._max_bytes = max_bytes
        self._largest = max_bytes // LARGEST_SHARE
        self._lock = threading.Lock()
        self._hits = 0
        self._misses = 0

    @property
    def enabled(self) -> bool:
        """Whether machines are kept at all (both bounds above 0)."""
        return self._entries is not None

    def lengths(self) -> set[int]:
        """The event counts of the machines kept now."""
        if self._entries is None:
            return set()
        with self._lock:
            return {key.events for key in self._entries}

    def take(self, keys: Sequence[PrefixKey]) -> tuple[PrefixKey, TableMachine] | None:
        """The first of ``keys`` kept, with its machine, taken out of the cache (the caller's
        alone until it keeps it again), or None."""
        if self._entries is None:
            return None
        with self._lock:
            for key in keys:
                kept = self._entries.pop(key, None)
                if kept is not None:
                    self._hits += 1
                    return key, kept.machine
            self._misses += 1
            return None

    def keep(self, key: PrefixKey, machine: TableMachine, size: int) -> None:
        """Keep ``machine`` (``size`` bytes) under ``key``, unless it is larger than its share of the budget."""
        if self._entries is None or size > self._largest:
            return
        with self._lock:
            self._entries[key] = _Kept(machine, size)  # evicts by bytes, least recently used first
            while len(self._entries) > self._max_size:
                self._entries.popitem()

    def stats(self) -> MachineCacheStats:
        """Hits, misses, machines and bytes, read together."""
        with self._lock:
            size = 0 if self._entries is None else len(self._entries)
            used = 0 if self._entries is None else int(self._entries.currsize)
            return MachineCacheStats(self._hits, self._misses, size, self._max_size, used, self._max_bytes)

    def clear(self) -> None:
        """Drop every machine and reset the counters."""
        with self._lock:
            if self._entries is not None:
                self._entries.clear()
            self._hits = 0
            self._misses = 0
