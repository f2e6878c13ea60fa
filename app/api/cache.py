"""The result cache: finished answers keyed by the exact, canonical question.

Keys are tuples of the question itself (endpoint, frozen rule profile, concealed
counts, sorted melds, visible counts), never a hash code of it: two different
questions can share a hash but never compare equal, so a hit is always the
right answer.  The cache is bounded twice, by entries and by bytes (an answer's
size is its length: answers are rendered JSON, ``bytes`` or ``str``), evicting the least recently used
first; an answer larger than :data:`LARGEST_SHARE` of the byte budget is served
but never kept, so that one huge answer cannot push out hundreds of small ones.
It is safe to share between the worker threads of one process, and shows its
hits, misses, size and bytes.

>>> cache = ResultCache(2, max_bytes=1000)
>>> cache.get_or_compute(("shanten", b"a"), lambda: b"1"), cache.get_or_compute(("shanten", b"a"), lambda: b"2")
(b'1', b'1')
>>> cache.stats()
CacheStats(hits=1, misses=1, size=1, max_size=2, bytes=1, max_bytes=1000)
>>> cache.store("huge", b"x" * 100)  # over a sixteenth of the 1000 bytes: not kept
>>> cache.stats().size
1
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Final, TypeVar

from cachetools import LRUCache

#: A finished answer: rendered JSON.
Answer = bytes | str
T = TypeVar("T", bytes, str)

#: Largest part of the byte budget one answer may take (1/16: 4 MiB of the default 64 MiB).
LARGEST_SHARE: Final = 16
#: The byte budget when none is given (TENPAI_CACHE_BYTES's default).
DEFAULT_MAX_BYTES: Final = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class CacheStats:
    """A snapshot of the cache counters."""

    hits: int
    misses: int
    size: int
    max_size: int
    bytes: int = 0
    max_bytes: int = 0


class ResultCache:
    """A thread-safe LRU of finished answers, at most ``max_size`` of them in at most
    ``max_bytes`` bytes; either bound 0 disables storing."""

    def __init__(self, max_size: int, *, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        # cachetools bounds one measure (here bytes: getsizeof is len, a builtin, cheap on
        # every store); the entry count is bounded by hand in store, from the same LRU order.
        enabled = max_size > 0 and max_bytes > 0
        self._entries: LRUCache[Hashable, Answer] | None = LRUCache(max_bytes, getsizeof=len) if enabled else None
        self._max_size = max_size
        self._max_bytes = max_bytes
        self._largest = max_bytes // LARGEST_SHARE
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
        self.store(key, answer)
        return answer

    @property
    def hits(self) -> int:
        """Answers served so far (read without the lock: a counter that only grows)."""
        return self._hits

    def peek(self, key: Hashable) -> Answer | None:
        """The cached answer for ``key``, counted as a hit, or None (not counted as a miss:
        the caller goes on to ask by the canonical key, which counts)."""
        if self._entries is None:
            return None
        with self._lock:
            answer = self._entries.get(key)
            if answer is not None:
                self._hits += 1
            return answer

    def store(self, key: Hashable, answer: Answer) -> None:
        """Keep ``answer`` under ``key``, unless it is larger than its share of the byte budget."""
        if self._entries is None or len(answer) > self._largest:
            return
        with self._lock:
            self._entries[key] = answer  # evicts by bytes, least recently used first
            while len(self._entries) > self._max_size:
                self._entries.popitem()  # the least recently used

    def stats(self) -> CacheStats:
        """Hits, misses, entries and bytes, read together."""
        with self._lock:
            size = 0 if self._entries is None else len(self._entries)
            used = 0 if self._entries is None else int(self._entries.currsize)
            return CacheStats(self._hits, self._misses, size, self._max_size, used, self._max_bytes)

    def clear(self) -> None:
        """Drop every entry and reset the counters."""
        with self._lock:
            if self._entries is not None:
                self._entries.clear()
            self._hits = 0
            self._misses = 0
