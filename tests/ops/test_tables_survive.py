"""Hosted tables survive SIGKILL, and two replicas on one real Redis serve the same tables.

Real ``python -m app.main`` processes on 127.0.0.1 (SIGKILLed mid-game, never stopped politely),
a real ``redis-server`` (``tests/conftest.py``'s private one), and a random client of this file's
own: one thread per table plays the client seat over HTTP, each request sent to a replica picked
at random, and notes every action answered 200 with the version it was sent at.

What a finished table must show (:func:`check_table`):

* the seed hashes to the commitment published when the table was opened;
* ``POST /referee`` accepts the record, each hand's deltas equal to the logged ones;
* the events the client gathered from its views are the record as its seat sees it;
* every action answered 200 is the seat's stored answer to the ask of the version it was sent at,
  and a turn's action (not a claim, which a higher claim may beat) is its next event in the record;
* replaying the stored answers from the seed deals the very events of the record: one answer
  per ask, nothing doubled, nothing lost.
"""

from __future__ import annotations

import hashlib
import json
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx
import pytest
from ops_helpers import READY_TIMEOUT_SECONDS, ROOT, clean_environment, free_port

from app.core.families.registry import family_of
from app.core.shape.rules import rule_profile
from app.core.table.hosted import HostedGame, SeedWallSource, seat_events
from app.hosting.store import open_store

pytestmark = pytest.mark.slow

RULES: Final = "riichi"
CLIENT_SEAT: Final = 0
SEATS: Final = ["client", "bot", "bot", "bot"]
#: The longest any one test's games may take, start to end (each test is bounded by it).
GAMES_SECONDS: Final = 75.0
#: A long poll's wait: short, so that a client notices a killed replica soon.
POLL_SECONDS: Final = 2.0
#: Errors a client retries (the service says so): the store or the table was busy for a moment.
RETRIED_CODES: Final = {"store_unavailable", "table_busy", "out_of_time"}
#: Refusals of an action that a random client meets when the table moved on without it: the clock
#: acted first, or a replica that died stored this seat's action before it could answer.
MOVED_ON_CODES: Final = {"stale_version", "illegal_action", "table_over", *RETRIED_CODES}
#: Actions taken on the seat's own turn; any other (chi, pon, a ron, none) answers a discard, and
#: a higher claim may beat it, so only the stored answers show it.
TURN_ACTIONS: Final = {"dahai", "reach", "ankan", "kakan", "kita", "ryukyoku"}


class Server:
    """One ``python -m app.main`` on a port of its own, which a restart keeps."""

    def __init__(self, name: str, env: dict[str, str], log_dir: Path) -> None:
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = clean_environment(TENPAI_HOST="127.0.0.1", TENPAI_PORT=str(self.port), **env)
        self.log_dir = log_dir
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def launch(self) -> None:
        self.starts += 1
        log = (self.log_dir / f"{self.name}-{self.starts}.log").open("wb")
        with log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app.main"], cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
            )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        while True:
            assert self.process is not None and self.process.poll() is None, self.log()
            try:
                if httpx.get(f"{self.base}/ready", timeout=2, trust_env=False).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"{self.name} did not get ready:\n{self.log()}"
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL: no drain, no shutdown hook, whatever it was writing is cut off."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def log(self) -> str:
        path = self.log_dir / f"{self.name}-{self.starts}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def complaints(self) -> list[str]:
        """Every log line of every start at level warning or above (the clock's failures among them)."""
        found = []
        for start in range(1, self.starts + 1):
            for line in (self.log_dir / f"{self.name}-{start}.log").read_text(errors="replace").splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue  # a line cut short by SIGKILL
                if isinstance(entry, dict) and entry.get("level") in ("warning", "error", "critical"):
                    found.append(f"{entry.get('message')} {str(entry.get('exception', ''))[-300:]}")
        return found

    def metric(self, name: str) -> float:
        text = httpx.get(f"{self.base}/metrics", timeout=10, trust_env=False).text
        values = [line.split()[1] for line in text.splitlines() if line.startswith(f"{name} ")]
        assert values, f"{name} is not in {self.name}'s /metrics"
        return float(values[0])


@pytest.fixture
def launch(tmp_path: Path) -> Iterator[Callable[..., list[Server]]]:
    """Start servers (all at once, each ready on return); every one is killed after the test."""
    started: list[Server] = []

    def start(count: int, **env: str) -> list[Server]:
        servers = [Server(f"server{len(started) + index}", env, tmp_path) for index in range(count)]
        started.extend(servers)
        for server in servers:
            server.launch()
        for server in servers:
            server.wait_ready()
        return servers

    yield start
    for server in started:
        server.kill()


@pytest.fixture
def traffic() -> Iterator[Traffic]:
    """The test's clients' shared counts; after the test, any client still playing stops."""
    shared = Traffic()
    yield shared
    shared.stopped.set()


def error_code(response: httpx.Response) -> str:
    """The ``error`` of the service's envelope, or ``http_<status>`` for an answer without one."""
    try:
        return str(response.json()["error"])
    except (ValueError, KeyError, TypeError):
        return f"http_{response.status_code}"


@dataclass(frozen=True)
class Acted:
    """An action answered 200, and the table's version it was sent at."""

    version: int
    action: dict[str, Any]


@dataclass
class Traffic:
    """What every client of a test does, seen together: the answered actions, the requests in flight."""

    answered: int = 0
    in_flight: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: Set when the test ends: a client still playing (the test failed) stops at its next request.
    stopped: threading.Event = field(default_factory=threading.Event)

    def sending(self, base: str, change: int) -> None:
        with self.lock:
            self.in_flight[base] += change

    def count_answered(self) -> None:
        with self.lock:
            self.answered += 1


class SeatClient(threading.Thread):
    """Plays the client seat of one table at random until the game is over.

    Each request goes to a replica picked at random among those that did not just refuse a
    connection.  A view is read again after any failure; an action whose answer was lost (the
    replica died) is never sent again: it may be stored, and the next view tells.  With
    ``stop_after`` the seat stops acting after that many actions and only watches (the clock
    must act for it)."""

    def __init__(
        self,
        servers: Sequence[Server],
        opened: dict[str, Any],
        traffic: Traffic,
        *,
        seed: int,
        stop_after: int | None = None,
    ) -> None:
        super().__init__(daemon=True, name=f"client-{opened['table']}")
        self.servers = servers
        self.table: str = opened["table"]
        self.commitment: str = opened["commitment"]
        token = next(seat["token"] for seat in opened["seats"] if seat["seat"] == CLIENT_SEAT)
        self.headers = {"Authorization": f"Bearer {token}"}
        self.traffic = traffic
        self.rng = random.Random(seed)
        self.stop_after = stop_after
        self.deadline = time.monotonic() + GAMES_SECONDS
        self.http = httpx.Client(timeout=POLL_SECONDS + 10, trust_env=False)
        self.refused_at: dict[str, float] = {}
        self.acted: list[Acted] = []
        self.events: list[dict[str, Any]] = []
        self.view: dict[str, Any] = {}
        self.autoplay_while_playing = False
        self.refusals: Counter[str] = Counter()  # 409 stale_version, 422 illegal_action: the table moved on
        self.lost_answers = 0  # actions whose answer never came (the replica died)
        self.problems: list[str] = []

    # -- requests ------------------------------------------------------------

    def _pick(self) -> Server:
        now = time.monotonic()
        alive = [server for server in self.servers if now - self.refused_at.get(server.base, -10.0) > 1.0]
        return self.rng.choice(alive or list(self.servers))

    def _get(self, path: str, **params: Any) -> httpx.Response:
        """GET from any replica, again and again until one answers something else than a retry."""
        while True:
            assert time.monotonic() < self.deadline, f"{self.table}: no answer in time"
            assert not self.traffic.stopped.is_set(), "the test ended"
            server = self._pick()
            try:
                response = self.http.get(f"{server.base}{path}", params=params, headers=self.headers)
            except httpx.TransportError:
                self.refused_at[server.base] = time.monotonic()
                time.sleep(0.05)
                continue
            if response.status_code == 503 and error_code(response) in RETRIED_CODES:
                time.sleep(0.05)
                continue
            return response

    def _post_action(self, version: int, action: dict[str, Any]) -> httpx.Response | None:
        """POST once to a replica; None when the connection failed (the action may be stored)."""
        server = self._pick()
        self.traffic.sending(server.base, +1)
        try:
            return self.http.post(
                f"{server.base}/tables/{self.table}/actions",
                json={"version": version, "action": action},
                headers=self.headers,
            )
        except httpx.TransportError:
            self.refused_at[server.base] = time.monotonic()
            self.lost_answers += 1
            return None
        finally:
            self.traffic.sending(server.base, -1)

    def read(self, *, wait: float = 0.0) -> dict[str, Any]:
        response = self._get(f"/tables/{self.table}", after=len(self.events), wait=wait)
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        self._take(view)
        return view

    def _take(self, view: dict[str, Any]) -> None:
        after = view["after"]
        assert after <= len(self.events), (after, len(self.events))
        self.events[after:] = view["events"]
        assert len(self.events) == view["version"], (len(self.events), view["version"])
        self.view = view
        if view["autoplay"] and view["status"] == "playing":
            self.autoplay_while_playing = True

    # -- play ------------------------------------------------------------------

    def run(self) -> None:
        try:
            self._play()
        except BaseException as error:  # noqa: BLE001 - the test reads it
            self.problems.append(f"{type(error).__name__}: {error}")
        finally:
            self.http.close()

    def _play(self) -> None:
        view = self.read()
        while view["status"] == "playing":
            acting = self.stop_after is None or len(self.acted) < self.stop_after
            if not (acting and view["legal"]):
                view = self.read(wait=POLL_SECONDS)
                continue
            version = view["version"]
            action = self.rng.choice(view["legal"])
            response = self._post_action(version, action)
            if response is None:
                view = self.read()
            elif response.status_code == 200:
                self.acted.append(Acted(version, action))
                self.traffic.count_answered()
                view = response.json()
                self._take(view)
            elif error_code(response) in MOVED_ON_CODES:
                self.refusals[error_code(response)] += 1
                view = self.read()
            else:
                self.problems.append(f"{response.status_code} {response.text[:300]}")
                return


def open_tables(
    servers: Sequence[Server], count: int, clock: dict[str, float], *, length: str = "tonpuu"
) -> list[dict[str, Any]]:
    body = {"rules": RULES, "length": length, "seats": SEATS, "clock": clock}
    opened = []
    for index in range(count):
        response = httpx.post(f"{servers[index % len(servers)].base}/tables", json=body, timeout=30, trust_env=False)
        assert response.status_code == 201, response.text
        opened.append(response.json())
    return opened


def assert_quiet(servers: Sequence[Server]) -> None:
    """No server logged a warning: the clock acted wherever it was due, no request failed inside."""
    for server in servers:
        assert server.complaints() == [], (server.name, server.complaints()[:3])


def finish(clients: Sequence[SeatClient]) -> None:
    for client in clients:
        client.join(timeout=max(0.0, client.deadline - time.monotonic()) + 15)
        assert not client.is_alive(), f"{client.table}: the game did not finish in time"
        assert client.problems == [], (client.table, client.problems)
        assert client.view["status"] == "over", client.view


def wait_until(condition: Callable[[], bool], what: str, clients: Sequence[SeatClient]) -> None:
    """Until ``condition()``; fails at once when a client met a problem, else after the games' time."""
    deadline = time.monotonic() + GAMES_SECONDS
    while not condition():
        for client in clients:
            assert client.problems == [], (client.table, client.problems)
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.001)


# -- what a finished table must show ----------------------------------------------------


def record_of(server: Server, table: str, headers: dict[str, str]) -> dict[str, Any]:
    response = httpx.get(f"{server.base}/tables/{table}/record", headers=headers, timeout=30, trust_env=False)
    assert response.status_code == 200, response.text
    record: dict[str, Any] = response.json()
    return record


def check_record(server: Server, record: dict[str, Any], commitment: str) -> None:
    """The seed hashes to the commitment; the referee accepts the record (its length judged too)
    with equal deltas."""
    assert record["commitment"] == commitment
    assert hashlib.sha256(record["seed"].encode("ascii")).hexdigest() == commitment
    response = httpx.post(
        f"{server.base}/referee",
        json={"events": record["events"], "rules": RULES, "length": record["length"]},
        timeout=60,
        trust_env=False,
    )
    assert response.status_code == 200, response.text
    verdict = response.json()
    assert verdict["valid"] and verdict["problems"] == [], verdict["problems"][:3]
    assert verdict["hands"], "a game of no hand"
    for hand in verdict["hands"]:
        assert hand["deltas"] == hand["logged_deltas"], hand


def check_replay(store_url: str, table: str, record: dict[str, Any]) -> list[tuple[int, dict[int, tuple[Any, str]]]]:
    """The stored answers (the record's too), replayed from the seed, deal exactly the record's
    events (one answer per ask: a doubled or lost answer would not fit, or would deal other
    events); each answer as the table's version when it was asked and, for each asked seat, its
    action and who chose it (``client``, ``bot`` or ``clock``)."""
    store = open_store(store_url)
    try:
        stored = store.load(table)
        assert stored is not None, table
        answers = store.answers(table)
        names = stored.state["names"]
    finally:
        store.close()
    assert stored.answer_count == len(answers)
    assert record["answers"] == answers
    game = HostedGame(
        rule_profile(RULES), family_of(RULES), record["length"], SeedWallSource(record["seed"]), names=names
    )
    asked = []
    for answer in answers:
        asked.append((len(game.events), {seat: (action, chooser) for seat, action, chooser in answer}))
        game.catch_up([answer])
    assert game.over
    assert game.events == record["events"]
    assert stored.event_count == len(record["events"])
    return asked


def check_table(server: Server, store_url: str, client: SeatClient) -> None:
    record = record_of(server, client.table, client.headers)
    check_record(server, record, client.commitment)
    asked = check_replay(store_url, client.table, record)
    # The client's views, gathered through kills and across replicas, are its seat's record.
    assert client.events == seat_events(record["events"], CLIENT_SEAT)
    # Every action answered 200 is the seat's stored answer to the ask of the version it was sent
    # at (the versions only grow, so they are in order too); the clock's answers are the others.
    for acted in client.acted:
        stored_there = [actions.get(CLIENT_SEAT) for version, actions in asked if version == acted.version]
        assert (acted.action, "client") in stored_there, f"{client.table}: answered 200, stored {stored_there}: {acted}"
        if acted.action["type"] in TURN_ACTIONS or (
            acted.action["type"] == "hora" and acted.action.get("target") == CLIENT_SEAT
        ):
            # Its event is the seat's first from that version on (a kan's new dora may come first).
            event = next(
                event
                for event in record["events"][acted.version :]
                if event.get("actor") == CLIENT_SEAT or event["type"] == acted.action["type"]
            )
            assert {key: event.get(key) for key in acted.action} == acted.action, (acted, event)
    # And the client chose nothing else, but for actions whose answer a killed replica never sent.
    by_client = sum(actions.get(CLIENT_SEAT, (None, ""))[1] == "client" for _version, actions in asked)
    assert len(client.acted) <= by_client <= len(client.acted) + client.lost_answers, (by_client, client.lost_answers)


# -- the tests ----------------------------------------------------------------------------

SURVIVE_CLOCK: Final = {"decision_seconds": 2.0, "bank_seconds": 5.0, "autoplay_seconds": 0.2}


def _survive(
    servers: Sequence[Server], victim: Server, store_url: str, traffic: Traffic, *, tables: int, restart: bool
) -> None:
    """Play ``tables`` tables; SIGKILL ``victim`` while it has actions in flight after some were
    answered; start it again (``restart``) or leave the others to go on; check every table."""
    opened = open_tables(servers, tables, SURVIVE_CLOCK)
    clients = [SeatClient(servers, table, traffic, seed=index) for index, table in enumerate(opened)]
    for client in clients:
        client.start()
    wait_until(lambda: traffic.answered >= 6 * tables, "some actions answered", clients)
    burst = max(1, tables // 3)
    wait_until(lambda: traffic.in_flight[victim.base] >= burst, f"{burst} actions in flight at {victim.name}", clients)
    victim.kill()
    answered_at_kill = traffic.answered
    if restart:
        time.sleep(0.5)  # the clients meet refused connections meanwhile
        victim.launch()
        victim.wait_ready()
    finish(clients)
    assert traffic.answered > answered_at_kill, "no action was answered after the kill"
    alive = victim if restart else next(server for server in servers if server is not victim)
    for client in clients:
        check_table(alive, store_url, client)
    assert_quiet(servers)


def test_tables_on_sqlite_survive_a_sigkill_mid_game(
    launch: Callable[..., list[Server]], traffic: Traffic, tmp_path: Path
) -> None:
    store_url = f"sqlite:///{tmp_path}/tables.sqlite3"
    (server,) = launch(1, TENPAI_TABLE_STORE=store_url)
    _survive([server], server, store_url, traffic, tables=4, restart=True)
    assert server.starts == 2


@pytest.mark.redis
def test_replicas_on_redis_survive_one_killed_while_it_commits_a_burst(
    launch: Callable[..., list[Server]], traffic: Traffic, empty_redis_url: str
) -> None:
    servers = launch(2, TENPAI_TABLE_STORE=empty_redis_url)
    _survive(servers, servers[0], empty_redis_url, traffic, tables=8, restart=False)


@pytest.mark.redis
def test_a_seat_that_stops_answering_is_played_by_the_clock_on_either_replica(
    launch: Callable[..., list[Server]], traffic: Traffic, empty_redis_url: str
) -> None:
    servers = launch(2, TENPAI_TABLE_STORE=empty_redis_url, TENPAI_TABLE_TICK_SECONDS="0.05")
    # Auto-play acts after 0.3 s, so that the seat's views see it while the hand goes on.
    clock = {"decision_seconds": 0.5, "bank_seconds": 0.5, "autoplay_seconds": 0.3}
    # One hand each (the survive tests play whole games); the seat stops early in it.
    opened = open_tables(servers, 4, clock, length="kyoku")
    rng = random.Random(35)
    clients = [
        SeatClient(servers, table, traffic, seed=index, stop_after=rng.randint(1, 3))
        for index, table in enumerate(opened)
    ]
    for client in clients:
        client.start()
    finish(clients)
    for client in clients:
        assert len(client.acted) == client.stop_after, (client.table, len(client.acted))
        assert client.autoplay_while_playing, f"{client.table}: no view showed auto-play during the game"
        for server in servers:  # reading a view does not end auto-play, on either replica
            response = httpx.get(f"{server.base}/tables/{client.table}", headers=client.headers, trust_env=False)
            assert response.status_code == 200 and response.json()["autoplay"] is True, response.text
        check_table(servers[1], empty_redis_url, client)
    assert_quiet(servers)


@pytest.mark.redis
def test_deadlines_fire_once_with_two_replicas_racing(
    launch: Callable[..., list[Server]], traffic: Traffic, empty_redis_url: str
) -> None:
    servers = launch(2, TENPAI_TABLE_STORE=empty_redis_url, TENPAI_TABLE_TICK_SECONDS="0.05")
    clock = {"decision_seconds": 0.2, "bank_seconds": 0.0, "autoplay_seconds": 0.05}
    # One hand each: the race is per ask (tests/hosting/test_table_service_races.py makes it happen).
    opened = open_tables(servers, 8, clock, length="kyoku")
    # Clients that never act: they only watch (from either replica) until the end.
    clients = [SeatClient(servers, table, traffic, seed=index, stop_after=0) for index, table in enumerate(opened)]
    for client in clients:
        client.start()
    finish(clients)
    by_clock = 0
    for client in clients:
        record = record_of(servers[0], client.table, client.headers)
        check_record(servers[0], record, client.commitment)
        asked = check_replay(empty_redis_url, client.table, record)
        assert client.events == seat_events(record["events"], CLIENT_SEAT)
        choosers = [actions[CLIENT_SEAT][1] for _version, actions in asked if CLIENT_SEAT in actions]
        assert set(choosers) == {"clock"}, set(choosers)
        by_clock += len(choosers)
    fired = sum(server.metric("tenpai_table_deadlines_fired_total") for server in servers)
    assert by_clock > 0
    assert fired == by_clock, f"the clocks say they fired {fired} times; the stores hold {by_clock} clock answers"
    assert_quiet(servers)
