"""The result cache: finished answers keyed by the exact, canonical question.

Keys are tuples of the question itself (endpoint, frozen rule profile, concealed
counts, sorted melds, visible counts), never a hash code of it: two different
questions can share a hash but never compare equal, so a hit is always the
right answer.  The cache is bounded (LRU, sized from settings), safe to share
between the worker threads of one process, and shows its hits, misses and size.

>>> cache = ResultCache(2)
>>> cache.get_or_compute(("shanten", b"a"), lambda: 1), cache.get_or_compute(("shanten", b"a"), lambda: 2)
(1, 1)
>>> cache.stats()
CacheStats(hits=1, misses=1, size=1, max_size=2)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TypeVar

from cachetools import LRUCache

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class CacheStats:
    """A snapshot of the cache counters."""

    hits: int
    misses: int
    size: int
    max_size: int


class ResultCache:
    """A thread-safe LRU of finished answers; ``max_size`` 0 disables storing."""

    def __init__(self, max_size: int) -> None:
        self._entries: LRUCache[Hashable, object] | None = LRUCache(max_size) if max_size > 0 else None
        self._max_size = max_size
        self._lock = threading.Lock()
        self._hits = 0
        self._misses = 0

    def get_or_compute(self, key: Hashable, compute: Callable[[], T]) -> T:
        """The cached answer for ``key``, or ``compute()``'s, stored for next time.

        ``compute`` runs outside the lock, so a slow question never blocks other
        threads; two threads asking the same new question may both compute it.
        An exception from ``compute`` stores nothing.
        """
        with self._lock:
            if self._entries is not None and key in self._entries:
                self._hits += 1
                return self._entries[key]  # type: ignore[return-value]
            self._misses += 1
        answer = compute()
        if self._entries is not None:
            with self._lock:
                self._entries[key] = answer
        return answer

    def peek(self, key: Hashable) -> object | None:
        """The cached answer for ``key``, counted as a hit, or None (not counted as a miss:
        the caller goes on to ask by the canonical key, which counts)."""
        if self._entries is None:
            return None
        with self._lock:
            answer = self._entries.get(key)
            if answer is not None:
                self._hits += 1
            return answer

    def store(self, key: Hashable, answer: object) -> None:
        """Keep ``answer`` under ``key``."""
        if self._entries is not None:
            with self._lock:
                self._entries[key] = answer

    def stats(self) -> CacheStats:
        """Hits, misses and size, read together."""
        with self._lock:
            size = 0 if self._entries is None else len(self._entries)
            return CacheStats(self._hits, self._misses, size, self._max_size)

    def clear(self) -> None:
        """Drop every entry and reset the counters."""
        with self._lock:
            if self._entries is not None:
                self._entries.clear()
            self._hits = 0
            self._misses = 0
