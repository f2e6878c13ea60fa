"""Hosted tables: the service deals from a secret wall, keeps the game, times each seat.

Everything about a table lives in its store (:mod:`app.hosting.store`): a small state document
(the rules, the seat kinds, the hashed tokens, the clock, the seed and its commitment, who is
asked and what each may do), the events (every tile shown: the record) and the answers (every
decision the dealer asked for).  A process keeps only a bounded LRU of games in play
(:class:`~app.core.table.hosted.HostedGame`), each tagged with the store revision it matches:
an action on a table this process served last applies one answer; a table another replica
moved on applies only the answers it has not seen; an unknown table is rebuilt from its
answers.  Every change is one compare-and-set commit on the revision, so two replicas (or two
threads) racing on one table never both win: the loser reloads and tries again, and a client
whose ``version`` is behind gets 409 ``stale_version``.

The clock.  A seat the dealer asks has a deadline: a bot seat at once; a client seat
``decision_seconds`` plus what is left of its bank; a client seat in auto-play (托管)
``autoplay_seconds``.  The table's earliest deadline is in the store, where any replica's
clock (:meth:`TableService.fire`) claims it; past it the advisor acts for the seat, which
then stays in auto-play until it next acts itself.  Claims after a discard ask every seat
that may claim at once; the dealer settles them by priority once every asked seat has an
answer (its own, or its clock's).

A seat sees only its view (:func:`~app.core.table.hosted.seat_events`), built for it from the
table's events; never the wall, never another seat's concealed tile, never the seed before
the game is over.  Tokens are 256-bit secrets shown once at creation and stored as SHA-256
digests, compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from cachetools import LRUCache

from app.core.errors import TenpaiError
from app.core.families.registry import TABLES, family_of
from app.core.shape.rules import RuleProfile
from app.core.table.game import GameConfig, InvalidGameConfig, validate_config
from app.core.table.hosted import BOT_STRATEGY, HostedGame, IllegalAction, SeedWallSource, StoredAnswer, seat_events
from app.core.table.mjai import MalformedEvent, action_object, name_fault
from app.core.table.wall import new_seed, seed_commitment
from app.hosting.store import StoredTable, TableStore

logger = logging.getLogger("app.hosting")

CLIENT: Final = "client"
BOT: Final = "bot"
SEAT_KINDS: Final = (CLIENT, BOT)

#: How long a claimed deadline is held by the replica that claimed it: if that replica dies
#: before it acts, the deadline is due again this much later (and fires once: the commit is a
#: compare-and-set).
DEADLINE_LEASE_SECONDS: Final = 10.0
#: Most compare-and-set attempts for one change before the table is reported busy.
COMMIT_ATTEMPTS: Final = 8
#: Most answers the clock plays in one go on one table (bots answering bots) before it lets
#: the others have their turn: each is committed as it is made, the rest is due at once.
STEPS_PER_FIRE: Final = 16
#: Seconds the advisor may think for one bot decision (its search stops and answers its best).
BOT_DECISION_SECONDS: Final = 1.5


class TableNotFound(TenpaiError):
    """No table of that id: never opened, or abandoned after sitting idle."""

    code = "table_not_found"


class MissingToken(TenpaiError):
    """A request about a table without a seat token."""

    code = "missing_token"


class NotYourTable(TenpaiError):
    """A token that is no seat's token at this table."""

    code = "not_your_table"


class NotYourSeat(TenpaiError):
    """An action whose actor is not the token's seat."""

    code = "not_your_seat"


class StaleVersion(TenpaiError):
    """An action sent for a version of the table that is not its current one."""

    code = "stale_version"

    def __init__(self, message: str, *, version: int, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.version = version


class TableOver(TenpaiError):
    """An action after the game ended."""

    code = "table_over"


class TableNotOver(TenpaiError):
    """The record asked before the game ended (it would show the wall and the seed)."""

    code = "table_not_over"


class TooManyTables(TenpaiError):
    """The most open tables (TENPAI_MAX_OPEN_TABLES) are open."""

    code = "too_many_tables"


class TableBusy(TenpaiError):
    """Every compare-and-set attempt lost to another writer (a table under a storm of writes)."""

    code = "table_busy"


class InvalidTableSpec(TenpaiError):
    """A POST /tables body the service cannot seat."""

    code = "invalid_table_spec"


@dataclass(frozen=True)
class Clock:
    decision_seconds: float = 15.0
    bank_seconds: float = 60.0
    #: A seat in auto-play is acted for this long after it is asked (time to come back).
    autoplay_seconds: float = 1.0


@dataclass(frozen=True)
class TableSpec:
    """What ``POST /tables`` asks for (validated by the route's schema, then by :meth:`check`)."""

    rules: str
    length: str
    seats: tuple[str, ...]
    clock: Clock = field(default_factory=Clock)
    seed: str | None = None
    options: tuple[tuple[str, Any], ...] = ()
    names: tuple[str, ...] | None = None


@dataclass
class _Held:
    """A game this process holds, and the store revision it matches."""

    game: HostedGame
    revision: int
    lock: threading.Lock = field(default_factory=threading.Lock)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("ascii", "replace")).hexdigest()


def _iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class TableService:
    """Open, show, act on and time hosted tables kept in ``store`` (thread-safe; blocking:
    the HTTP layer calls it from worker threads)."""

    def __init__(
        self,
        store: TableStore,
        *,
        max_open_tables: int,
        idle_seconds: float,
        games_held: int = 256,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.max_open_tables = max_open_tables
        self.idle_seconds = idle_seconds
        self.now = now
        self._held: LRUCache[str, _Held] = LRUCache(maxsize=max(1, games_held))
        self._held_lock = threading.Lock()
        self._table_locks: LRUCache[str, threading.Lock] = LRUCache(maxsize=4096)
        self._autoplay: LRUCache[str, int] = LRUCache(maxsize=4096)
        #: Totals since this process started (the metrics' counters), changed under ``_counting``.
        self.counters = {"actions": 0, "deadlines_fired": 0, "tables_opened": 0, "replays": 0, "conflicts": 0}
        self._counting = threading.Lock()

    def _count(self, name: str) -> None:
        with self._counting:
            self.counters[name] += 1

    # -- opening -----------------------------------------------------------

    def create(self, spec: TableSpec) -> dict[str, Any]:
        """Open a table: deal its first hand, store it, and give each client seat its token."""
        rules = self._check(spec)
        now = self.now()
        if self.store.open_tables(now, self.idle_seconds) >= self.max_open_tables:
            raise TooManyTables(
                f"{self.max_open_tables} tables are open, as many as this service keeps (TENPAI_MAX_OPEN_TABLES); "
                "finish or abandon one first",
                field="seats",
            )
        seed = spec.seed if spec.seed is not None else new_seed()
        commitment = seed_commitment(seed)
        table = "t_" + secrets.token_hex(12)
        names = spec.names or tuple(f"{kind}{seat}" for seat, kind in enumerate(spec.seats))
        game = HostedGame(rules, family_of(rules), spec.length, SeedWallSource(seed), names=names)
        tokens: list[str | None] = [secrets.token_urlsafe(32) if kind == CLIENT else None for kind in spec.seats]
        state: dict[str, Any] = {
            "rules": spec.rules,
            "options": [list(option) for option in spec.options],
            "length": spec.length,
            "seats": list(spec.seats),
            "names": list(names),
            "clock": {
                "decision_seconds": spec.clock.decision_seconds,
                "bank_seconds": spec.clock.bank_seconds,
                "autoplay_seconds": spec.clock.autoplay_seconds,
            },
            "seed": seed,
            "commitment": commitment,
            "tokens": [None if token is None else _digest(token) for token in tokens],
            "status": "playing",
            "version": 0,
            "bank": [spec.clock.bank_seconds] * len(spec.seats),
            "autoplay": [False] * len(spec.seats),
            "created": now,
            "scores": [],
        }
        self._ask(state, game, now)
        state["version"] = len(game.events)
        self.store.create(table, state, list(game.events), [], self._deadline(state))
        self._hold(table, game, 0)
        self._count("tables_opened")
        return {
            "table": table,
            "version": state["version"],
            "status": state["status"],
            "commitment": commitment,
            "rules": spec.rules,
            "length": spec.length,
            "clock": state["clock"],
            "seats": [
                {"seat": seat, "kind": kind, **({"token": tokens[seat]} if kind == CLIENT else {})}
                for seat, kind in enumerate(spec.seats)
            ],
        }

    def _check(self, spec: TableSpec) -> RuleProfile:
        if not any(kind == CLIENT for kind in spec.seats):
            raise InvalidTableSpec(
                "a table needs at least one client seat (a table of bots is self-play: POST /simulate)", field="seats"
            )
        for seat, kind in enumerate(spec.seats):
            if kind not in SEAT_KINDS:
                raise InvalidTableSpec(f"a seat is 'client' or 'bot', got {kind!r}", field=f"seats[{seat}]")
        try:
            rules = _profile(spec.rules, len(spec.seats), spec.length, spec.options)
        except InvalidGameConfig as error:
            if error.field == "players":
                raise InvalidTableSpec(error.message, field="seats") from None
            raise
        if spec.seed is not None:
            seed_commitment(spec.seed)  # refuses a seed that is not ASCII, or too long
        if spec.names is not None:
            if len(spec.names) != len(spec.seats):
                raise InvalidTableSpec(f"names has {len(spec.names)} names for {len(spec.seats)} seats", field="names")
            for seat, name in enumerate(spec.names):
                fault = name_fault(name)
                if fault is not None:
                    raise InvalidTableSpec(f"a player's name holds {fault}", field=f"names[{seat}]")
        return rules

    # -- the clock ---------------------------------------------------------

    def _seat_deadline(self, state: Mapping[str, Any], seat: int) -> float | None:
        asked_at = state["asked_at"][seat]
        if asked_at is None or state["answered"][seat] is not None:
            return None
        clock = state["clock"]
        if state["seats"][seat] == BOT:
            return float(asked_at)
        if state["autoplay"][seat]:
            return float(asked_at) + float(clock["autoplay_seconds"])
        return float(asked_at) + float(clock["decision_seconds"]) + max(0.0, float(state["bank"][seat]))

    def _deadline(self, state: Mapping[str, Any]) -> float | None:
        if state["status"] != "playing":
            return None
        deadlines = [self._seat_deadline(state, seat) for seat in range(len(state["seats"]))]
        due = [deadline for deadline in deadlines if deadline is not None]
        return min(due) if due else None

    def _ask(self, state: dict[str, Any], game: HostedGame, now: float) -> None:
        """Record who the dealer asks now, with what each may do, from ``now``."""
        seats = len(state["seats"])
        state["asked"] = list(game.asked)
        state["asked_at"] = [now if seat in game.asked else None for seat in range(seats)]
        state["answered"] = [None] * seats
        state["legal"] = [game.legal(seat) if seat in game.asked else [] for seat in range(seats)]
        state["answers_by"] = [None] * seats
        if game.over:
            assert game.result is not None
            state["status"] = "over"
            state["scores"] = list(game.result.scores)
            state["finished"] = now
        else:
            state["scores"] = list(game.dealer.machine.scores)

    def _spend(self, state: dict[str, Any], seat: int, now: float) -> None:
        """Take the time ``seat`` used beyond ``decision_seconds`` from its bank."""
        asked_at = state["asked_at"][seat]
        if asked_at is None or state["seats"][seat] != CLIENT or state["autoplay"][seat]:
            return
        over = max(0.0, now - float(asked_at) - state["clock"]["decision_seconds"])
        state["bank"][seat] = max(0.0, state["bank"][seat] - over)

    # -- the games held here -------------------------------------------------

    def _lock(self, table: str) -> threading.Lock:
        with self._held_lock:
            lock = self._table_locks.get(table)
            if lock is None:
                lock = self._table_locks[table] = threading.Lock()
            return lock

    def _hold(self, table: str, game: HostedGame, revision: int) -> None:
        with self._held_lock:
            self._held[table] = _Held(game, revision)

    def _drop(self, table: str) -> None:
        with self._held_lock:
            self._held.pop(table, None)

    def _game(self, table: str, stored: StoredTable, stop: Callable[[], bool] | None = None) -> HostedGame:
        """The game at ``stored``'s revision: the one held here, caught up, or rebuilt."""
        with self._held_lock:
            held = self._held.get(table)
        if held is not None and held.revision == stored.revision:
            return held.game
        state = stored.state
        if held is not None and held.game.answer_count <= stored.answer_count and held.revision < stored.revision:
            game = held.game
            game.catch_up(self._answers(table, stored, game.answer_count), stop=stop)
        else:
            self._count("replays")
            rules = _profile(state["rules"], len(state["seats"]), state["length"], state["options"])
            game = HostedGame.replay(
                rules,
                family_of(rules),
                state["length"],
                SeedWallSource(state["seed"]),
                names=state["names"],
                answers=self._answers(table, stored),
                stop=stop,
            )
        if len(game.events) != stored.event_count:
            self._drop(table)
            raise RuntimeError(
                f"table {table}: the replay holds {len(game.events)} events, the store {stored.event_count}"
            )
        self._hold(table, game, stored.revision)
        return game

    def _answers(self, table: str, stored: StoredTable, start: int = 0) -> list[Any]:
        """The stored answers from ``start`` up to ``stored``'s revision, no further: another
        replica may have committed since ``stored`` was read, and a game past it is not the one
        ``stored``'s state (who is asked, what each may do) describes."""
        return self.store.answers(table, start)[: max(0, stored.answer_count - start)]

    def _load(self, table: str) -> StoredTable:
        stored = self.store.load(table)
        if stored is None:
            raise _not_found(table)
        return stored

    # -- seats ---------------------------------------------------------------

    def seat_of(self, stored: StoredTable, token: str | None) -> int:
        """The seat whose token ``token`` is, compared in constant time with every seat's digest."""
        if not token:
            raise MissingToken("a seat token is required: Authorization: Bearer <token>", field="authorization")
        presented = _digest(token)
        found = -1
        for seat, digest in enumerate(stored.state["tokens"]):
            if digest is not None and hmac.compare_digest(presented, digest):
                found = seat
        if found < 0:
            raise NotYourTable("this token is not a seat's token at this table", field="authorization")
        return found

    def authorize(self, table: str, token: str | None) -> tuple[StoredTable, int]:
        stored = self._load(table)
        return stored, self.seat_of(stored, token)

    def seat_view(self, table: str, token: str | None, after: int, *, only_new: bool = False) -> dict[str, Any] | None:
        """``token``'s seat's view of ``table`` after the first ``after`` events, read in one go
        from the store (the table with its events, or without them when the game held here is at
        the revision read).  With ``only_new``: None, and no view built, while the table holds
        no event after ``after`` and is still being played (a long poll's look)."""
        after = max(0, after)
        held = self._held_at(table)
        loaded = self.store.load_with_events(table, after, unless_revision=None if held is None else held.revision)
        return self._seat_view(table, token, after, held, loaded, only_new=only_new)

    async def seat_view_async(
        self, table: str, token: str | None, after: int, *, only_new: bool = False
    ) -> dict[str, Any] | None:
        """:meth:`seat_view` on the running event loop (the store's read awaited, never blocking it)."""
        after = max(0, after)
        held = self._held_at(table)
        loaded = await self.store.load_with_events_async(
            table, after, unless_revision=None if held is None else held.revision
        )
        return self._seat_view(table, token, after, held, loaded, only_new=only_new)

    def _seat_view(
        self,
        table: str,
        token: str | None,
        after: int,
        held: _Held | None,
        loaded: tuple[StoredTable, list[dict[str, Any]] | None] | None,
        *,
        only_new: bool,
    ) -> dict[str, Any] | None:
        if loaded is None:
            raise _not_found(table)
        stored, events = loaded
        seat = self.seat_of(stored, token)
        if only_new and stored.event_count <= after and stored.state["status"] == "playing":
            return None
        if events is None:
            assert held is not None  # the store leaves the events out only at the held revision
            events = self._held_events(held, stored, after)
        return self.view(stored, seat, after, events=events)

    def _held_at(self, table: str) -> _Held | None:
        with self._held_lock:
            return self._held.get(table)

    def _held_events(self, held: _Held, stored: StoredTable, after: int) -> list[dict[str, Any]]:
        """``events[after:]`` at ``stored``'s revision, which ``held`` is at, from its game: its
        record only grows (an action in progress may already have appended past the revision
        read), so its first ``event_count`` events are the stored ones."""
        events = held.game.events
        if len(events) < stored.event_count:  # never, while the record only grows; the store knows
            return self.store.events(stored.table, after, stored.event_count)
        return events[after : stored.event_count]

    def view(
        self, stored: StoredTable, seat: int, after: int = 0, *, events: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """What ``seat`` sees of the table: its events after the first ``after``, what it may do.
        ``events``: those events, when the caller read them with the table."""
        state = stored.state
        after = max(0, min(after, stored.event_count))
        if events is None:
            # Up to the version read, no further: a commit since (another thread's, another
            # replica's) would otherwise show events beyond ``version`` beside the ``legal`` of before it.
            held = self._held_at(stored.table)
            if after >= stored.event_count:
                events = []
            elif held is not None and held.revision == stored.revision:
                events = self._held_events(held, stored, after)
            else:
                events = self.store.events(stored.table, after, stored.event_count)
        asked = seat in state["asked"] and state["answered"][seat] is None
        view: dict[str, Any] = {
            "table": stored.table,
            "seat": seat,
            "version": stored.event_count,
            "after": after,
            "status": state["status"],
            "events": seat_events(events, seat),
            "legal": state["legal"][seat] if asked and state["status"] == "playing" else [],
            "deadline": _iso(self._seat_deadline(state, seat)) if asked else None,
            "autoplay": bool(state["autoplay"][seat]),
            "bank_seconds": round(state["bank"][seat], 3),
            "scores": state["scores"],
            "rules": state["rules"],
            "length": state["length"],
            "seats": [{"seat": index, "kind": kind} for index, kind in enumerate(state["seats"])],
            "commitment": state["commitment"],
        }
        if state["status"] != "playing":
            view["seed"] = state["seed"]
        return view

    # -- acting ----------------------------------------------------------------

    def act(
        self, table: str, token: str | None, version: int, action: object, *, stop: Callable[[], bool] | None = None
    ) -> dict[str, Any]:
        """``token``'s seat takes ``action`` at ``version``; its view after, once stored."""
        with self._lock(table):
            for _attempt in range(COMMIT_ATTEMPTS):
                stored, seat = self.authorize(table, token)
                state = _copy_state(stored.state)
                if state["status"] != "playing":
                    raise TableOver("the game is over: GET /tables/{table}/record has it all", field="version")
                if version != stored.event_count:
                    raise StaleVersion(
                        f"the table is at version {stored.event_count}, not {version}: read the view and act again",
                        version=stored.event_count,
                        field="version",
                    )
                if isinstance(action, Mapping) and action.get("actor") not in (None, seat):
                    raise NotYourSeat(
                        f"this token is seat {seat}'s; the action is seat {action.get('actor')!r}'s",
                        field="action.actor",
                    )
                if seat not in state["asked"] or state["answered"][seat] is not None:
                    raise IllegalAction(
                        f"seat {seat} is not asked to act now"
                        + (" (it has answered)" if seat in state["asked"] else ""),
                        field="action",
                    )
                game = self._game(table, stored, stop)
                try:
                    chosen = game.legal_action(seat, action)
                except MalformedEvent as error:
                    raise IllegalAction(error.message, legal=state["legal"][seat], field="action") from None
                now = self.now()
                self._spend(state, seat, now)
                state["autoplay"][seat] = False
                state["answered"][seat] = action_object(chosen)
                state["answers_by"][seat] = CLIENT
                committed = self._commit(table, stored, state, game, now)
                if committed is not None:
                    self._count("actions")
                    return self.view(committed, seat, version)  # no second read: this is what was stored
            raise TableBusy(
                f"table {table} changed under {COMMIT_ATTEMPTS} attempts in a row; try again", field="table"
            )

    def _commit(
        self, table: str, stored: StoredTable, state: dict[str, Any], game: HostedGame, now: float
    ) -> StoredTable | None:
        """Settle the asked seats' answers if all are in, and store the change (compare-and-set on
        the revision); the table as committed, or None when another writer was first (this
        process's copy is dropped)."""
        events: list[dict[str, Any]] = []
        answers: list[StoredAnswer] = []
        try:
            if all(state["answered"][seat] is not None for seat in state["asked"]):
                chosen = {seat: game.legal_action(seat, state["answered"][seat]) for seat in state["asked"]}
                answers.append([[*pair, state["answers_by"][pair[0]]] for pair in game.stored_answer(chosen)])
                events = [dict(event) for event in game.answer(chosen)]
                self._ask(state, game, now)
            state["version"] = stored.event_count + len(events)
            stored_ok = self.store.commit(table, stored.revision, state, events, answers, self._deadline(state))
        except BaseException:
            self._drop(table)  # the copy here may be ahead of the store
            raise
        if not stored_ok:
            self._count("conflicts")
            self._drop(table)
            return None
        self._hold(table, game, stored.revision + 1)
        self._autoplay[table] = sum(bool(flag) for flag in state["autoplay"]) if state["status"] == "playing" else 0
        return StoredTable(
            table,
            stored.revision + 1,
            state,
            stored.event_count + len(events),
            stored.answer_count + len(answers),
            self._deadline(state),
        )

    # -- the clock's side ------------------------------------------------------

    def due_tables(self, limit: int = 32) -> list[str]:
        """Tables whose deadline passed, each claimed for this process for a lease."""
        return self.store.claim_due(self.now(), DEADLINE_LEASE_SECONDS, limit)

    def fire(self, table: str, *, stop: Callable[[], bool] | None = None) -> int:
        """Act for every asked seat whose deadline passed (bots, and clients out of time, who go
        to auto-play), settle, and go on while bots are due; the answers made (0: none due).

        Each step holds the table's lock only for itself, so that a client's action waits for at
        most one bot's thinking; bots still due after :data:`STEPS_PER_FIRE` steps are due in the
        store, and the next tick (here or on another replica) goes on."""
        made = 0
        for _step in range(STEPS_PER_FIRE):
            if stop is not None and stop():
                break
            with self._lock(table):
                step = self._fire_step(table, stop)
            if step is None:
                break
            made += step
        return made

    def _fire_step(self, table: str, stop: Callable[[], bool] | None) -> int | None:
        """One step of :meth:`fire`: the answers it made and stored, or None when there was
        nothing to do (or another writer was first)."""
        stored = self.store.load(table)
        if stored is None or stored.state["status"] != "playing":
            return None
        state = _copy_state(stored.state)
        now = self.now()
        due = [
            seat
            for seat in state["asked"]
            if (deadline := self._seat_deadline(state, seat)) is not None and deadline <= now
        ]
        if not due:
            # Not due (a client acted first, or the lease ran out early): put the deadline back.
            if stored.deadline != self._deadline(state):
                self.store.commit(table, stored.revision, state, [], [], self._deadline(state))
            return None
        game = self._game(table, stored, stop)
        for seat in due:
            rng = random.Random(f"{table}/{game.answer_count}/{seat}")
            started = time.monotonic()

            def thinking(started: float = started) -> bool:
                return time.monotonic() - started > BOT_DECISION_SECONDS or (stop is not None and stop())

            chosen = game.bot_action(seat, rng=rng, stop=thinking)
            if state["seats"][seat] == CLIENT:
                if not state["autoplay"][seat]:
                    state["bank"][seat] = 0.0  # decision time and bank both ran out
                state["autoplay"][seat] = True
                state["answers_by"][seat] = "clock"
            else:
                state["answers_by"][seat] = BOT
            state["answered"][seat] = action_object(chosen)
        if self._commit(table, stored, state, game, now) is None:
            return None
        for seat in due:
            if state["seats"][seat] == CLIENT:
                self._count("deadlines_fired")
        return len(due)

    # -- the record ------------------------------------------------------------

    def record(self, table: str, token: str | None, *, trusted: bool = False) -> dict[str, Any]:
        """The whole game, every tile shown, with the seed: only once it is over."""
        stored = self._load(table)
        if not trusted:
            self.seat_of(stored, token)
        state = stored.state
        if state["status"] == "playing":
            raise TableNotOver("the game is still being played: its record would show the wall", field="table")
        return {
            "table": table,
            "rules": state["rules"],
            "length": state["length"],
            "events": self.store.events(table),
            "seed": state["seed"],
            "commitment": state["commitment"],
            "scores": state["scores"],
            "answers": self.store.answers(table),
        }

    def sweep(self) -> list[str]:
        """Abandon tables idle longer than the idle time (gone from the store)."""
        gone = self.store.abandon_idle(self.now(), self.idle_seconds, 64)
        for table in gone:
            self._drop(table)
        return gone

    def open_tables(self) -> int:
        return self.store.open_tables(self.now(), self.idle_seconds)

    def autoplay_seats(self) -> int:
        """Seats in auto-play at the tables this process last changed (a gauge of its share)."""
        with self._held_lock:
            return sum(self._autoplay.values())


def _profile(rules: str, seats: int, length: str, options: Iterable[Sequence[Any]]) -> RuleProfile:
    """The rule profile of a table: the one self-play's check gives a game of ``seats`` bots
    (rules, options, length and seat count checked there once, for opening and rebuilding alike)."""
    players = (BOT_STRATEGY,) * seats
    config = GameConfig(rules, players, 0, length=length, options=tuple((name, value) for name, value in options))
    return validate_config(config, TABLES)


def _not_found(table: str) -> TableNotFound:
    return TableNotFound(f"no table {table!r}: never opened here, or abandoned after sitting idle", field="table")


def _copy_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a state document deep enough to change its lists in place."""
    out = dict(state)
    for key in ("bank", "autoplay", "asked", "asked_at", "answered", "answers_by", "legal", "scores"):
        if key in out and isinstance(out[key], list):
            out[key] = list(out[key])
    return out
