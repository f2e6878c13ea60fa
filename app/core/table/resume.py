"""Resume a seat's replay from a machine kept for a prefix of the same events.

A backend that drives a game through ``/act`` sends the whole log at every decision, one
event or a few longer each time; replaying it all again costs the whole game's events for
each answer.  A shelf of machines (:class:`MachineShelf`, the app's bounded LRU) keeps the
table machine each answer was given, keyed by what that machine's state is a function of:

* the rule profile (the machine is ``TableMachine(rules)``, nothing else configures it);
* the seat (``/act`` replays the events as that seat sees them, :func:`~app.core.table.decide.seat_sees`);
* the number of events and the SHA-256 of their canonical bytes (:func:`prefix_digests`).

The key is exact in every part but the digest, and the digest is a cryptographic hash of
an injective encoding: two different prefixes sharing a key would be a SHA-256 collision.
A kept machine is never changed: it is stored as a copy and handed out as a copy
(:func:`copy_machine`), so a request that applies more events, or asks the advisor (which
fills the machine's memos), works on its own.

>>> from app.core.table.mjai import read_event
>>> events = [{"type": "start_game"}, {"type": "end_game"}]
>>> digests = prefix_digests(events, {1})
>>> sorted(digests), len(digests[2]), digests[1] != digests[2]
([1, 2], 32, True)
>>> prefix_digests([{"type": "start_game", "names": ["a", "b"]}], ()) == prefix_digests(
...     [{"names": ["a", "b"], "type": "start_game"}], ())  # the order of an object's keys is no part of it
True
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from collections.abc import Collection, Sequence
from typing import Final, NamedTuple, Protocol

from app.core.shape.rules import RuleProfile
from app.core.table.machine import TableMachine

#: One encoder for every event: sorted keys and no blanks make equal JSON values equal bytes,
#: ASCII escapes keep every string encodable (a lone surrogate included).
_CANONICAL: Final = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=True)
#: Bytes of the length written before each event's bytes (the encoding stays injective
#: whatever an item is: ``1`` then ``2`` is not ``12``).
_LENGTH_BYTES: Final = 8


class PrefixKey(NamedTuple):
    """What a seat's machine after the first ``events`` events is a function of."""

    rules: RuleProfile
    seat: int
    events: int
    #: SHA-256 of the events' canonical bytes (:func:`prefix_digests`).
    digest: bytes


class MachineShelf(Protocol):
    """Machines kept by :class:`PrefixKey`; what :func:`~app.core.table.decide.act` resumes from.

    The shelf keeps the objects it is given and hands the same objects back: it never
    changes them, and neither does anyone it hands them to (they copy first).
    """

    def lengths(self) -> Collection[int]:
        """The event counts of the machines kept now (where a request's prefixes are worth hashing)."""
        ...

    def find(self, keys: Sequence[PrefixKey]) -> tuple[PrefixKey, TableMachine] | None:
        """The first of ``keys`` that is kept, with its machine (one hit), or None (one miss)."""
        ...

    def keep(self, key: PrefixKey, machine: TableMachine, size: int) -> None:
        """Keep ``machine`` (``size`` bytes, :func:`copy_machine`) under ``key``; it is the shelf's now."""
        ...


class MachineCopy(NamedTuple):
    """A machine copied, and the bytes of the objects the copy holds on its own."""

    machine: TableMachine
    size: int


def prefix_digests(objects: Sequence[object], lengths: Collection[int]) -> dict[int, bytes]:
    """SHA-256 of the first ``n`` events' canonical bytes, for each ``n`` of ``lengths`` from 1 to
    ``len(objects)``, and for all of them: one pass over the events.

    Each event is written as its length (8 bytes) and its JSON with sorted keys and no blanks.
    Raises ``ValueError``, ``TypeError`` or ``RecursionError`` for what JSON cannot write back
    (an integer too long for ``str``, a structure nested too deep): such a request is replayed
    whole, without the shelf.
    """
    total = len(objects)
    wanted = {n for n in lengths if 0 < n < total}
    running = hashlib.sha256()
    digests: dict[int, bytes] = {}
    for count, obj in enumerate(objects, 1):
        data = _CANONICAL.encode(obj).encode("ascii")
        running.update(len(data).to_bytes(_LENGTH_BYTES, "big"))
        running.update(data)
        if count in wanted:
            digests[count] = running.copy().digest()
    digests[total] = running.digest()
    return digests


def copy_machine(machine: TableMachine) -> MachineCopy:
    """A copy of ``machine`` that shares nothing it could change, and its size in bytes.

    The rule profile, the play and table rules are frozen and the checker only fills memos
    of its own answers, so the copy shares them (copied, they would cost 20 times the rest).
    The size is the sum of ``sys.getsizeof`` over every object the copy made (lists, dicts,
    seat states, hand results, ...); the shared parts and immutable atoms (ints, strings)
    are not counted: they are not the copy's to free.
    """
    shared = (machine.rules, machine.play, machine.table, machine.checker)
    memo: dict[int, object] = {id(part): part for part in shared}
    twin = copy.deepcopy(machine, memo)
    # deepcopy records each object it made under its original's id (and keeps the originals
    # alive in a list under the memo's own id): every entry but those is the copy's own.
    not_made = {id(part) for part in shared} | {id(memo)}
    size = sum(sys.getsizeof(made) for original, made in memo.items() if original not in not_made)
    return MachineCopy(twin, size)
