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
A kept machine belongs to the shelf alone: a request takes it off the shelf
(:meth:`MachineShelf.take`), applies its new events and asks its question, and puts it back
under the longer key only when the replay succeeded.  No machine is ever shared by two
requests, and one stopped or refused half-way is never put back: a half-applied machine
cannot be found.  The price: a second continuation of a prefix that another request took on
replays further back (from an older machine, or from the start), and answers the same.
(The advisor fills the machine's memos, which follow its state as they do
in self-play, where one machine plays the whole game.)

>>> events = [{"type": "start_game"}, {"type": "end_game"}]
>>> digests = prefix_digests(events, {1})
>>> sorted(digests), len(digests[2]), digests[1] != digests[2]
([1, 2], 32, True)
>>> prefix_digests([{"type": "start_game", "names": ["a", "b"]}], ()) == prefix_digests(
...     [{"names": ["a", "b"], "type": "start_game"}], ())  # the order of an object's keys is no part of it
True
"""

from __future__ import annotations

import gc
import hashlib
import json
import sys
import types
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
    """Machines kept by :class:`PrefixKey`; what :func:`~app.core.table.decide.act` resumes from."""

    def lengths(self) -> Collection[int]:
        """The event counts of the machines kept now (where a request's prefixes are worth hashing)."""
        ...

    def take(self, keys: Sequence[PrefixKey]) -> tuple[PrefixKey, TableMachine] | None:
        """The first of ``keys`` kept, with its machine, off the shelf: the caller's alone now
        (one hit); or None (one miss)."""
        ...

    def keep(self, key: PrefixKey, machine: TableMachine, size: int) -> None:
        """Keep ``machine`` (``size`` bytes, :func:`machine_size`) under ``key``; it is the shelf's now."""
        ...


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


def machine_size(machine: TableMachine) -> int:
    """The bytes ``machine`` holds: ``sys.getsizeof`` summed over every object it reaches (its
    lists, dicts, seat states, hand results, the events it refers to, ...), each once.

    The rule profile, the play and table rules and the checker are not counted, nor what only
    they reach: every machine of those rules shares them.  Classes and functions are not
    counted either.
    """
    seen = {id(machine.rules), id(machine.play), id(machine.table), id(machine.checker)}
    waiting: list[object] = [machine]
    size = 0
    while waiting:
        obj = waiting.pop()
        if id(obj) in seen or isinstance(obj, _NOT_STATE):
            continue
        seen.add(id(obj))
        size += sys.getsizeof(obj)
        waiting.extend(gc.get_referents(obj))
    return size


#: What a machine refers to but does not hold: code, not state.
_NOT_STATE: Final = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)
