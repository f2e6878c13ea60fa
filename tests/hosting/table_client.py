"""A random client of hosted tables over HTTP, and a real server to play it against.

:class:`RandomSeat` plays one client seat of a table to the end the way a game backend would:
it long-polls its view (``GET /tables/{table}?after=V&wait=S``), and whenever ``legal`` is not
empty it posts one of those actions, chosen by a seeded :class:`random.Random`, with the
version of the view it read.  A 409 ``stale_version`` (another seat or the clock moved the table
between its read and its post) sends it back to reading.  It keeps everything a test needs to
check the service afterwards: every view it was shown, in order, and every action answered 200
with the version it was sent at.

:func:`tenpai_server` starts ``python -m app.main`` (real uvicorn, its own free port, a SQLite
store in a temporary folder) with tests/ops' ``live_server``, which waits for ``/ready`` and
kills it on exit, so that no server outlives its test.  Test folders have no packages: a test elsewhere puts this folder on
``sys.path`` (:data:`HOSTING_TESTS`) before importing it.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
HOSTING_TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests" / "ops"))
from ops_helpers import live_server  # noqa: E402 - a module of another test folder (no packages there)

#: How long one long poll of a client waits for the table to move.
POLL_WAIT_SECONDS = 5.0
#: The HTTP timeout of one request: a long poll's wait plus the service's own bound on a table's work.
REQUEST_TIMEOUT_SECONDS = POLL_WAIT_SECONDS + 30.0


@dataclass
class Server:
    """A running server: its base URL, its process and where its log goes."""

    base: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@contextmanager
def tenpai_server(folder: Path, **tenpai: str) -> Iterator[Server]:
    """``python -m app.main`` on a free 127.0.0.1 port (tests/ops' ``live_server``: a clean
    environment, ready on entry, killed on exit), its table store a SQLite file in ``folder``,
    ``tenpai`` (``TENPAI_*`` names to values) over its defaults."""
    settings = {
        "TENPAI_TABLE_STORE": f"sqlite:///{folder.absolute()}/tables.sqlite3",
        "TENPAI_LOG_FORMAT": "text",
        "TENPAI_WORKERS": "1",
        **tenpai,
    }
    log_path = folder / "server.log"
    with live_server(settings, log_path) as (process, base):
        yield Server(base, process, log_path)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass(frozen=True)
class Answered:
    """An action the service answered 200: the client's ``index``-th, sent at ``version``."""

    index: int
    version: int
    action: dict[str, Any]


@dataclass
class RandomSeat:
    """One client seat played to the end with random legal actions (see the module's note)."""

    base: str
    table: str
    token: str
    seed: int | str
    #: Seconds to sleep before each action (a slow player: the clock's bank shrinks).
    think_seconds: float = 0.0
    #: Every view the seat was shown, in order (long polls and the answers to its actions).
    views: list[dict[str, Any]] = field(default_factory=list)
    answered: list[Answered] = field(default_factory=list)
    stale: int = 0
    #: The seat's events, each once, in order: the concatenation of every view's new events.
    events: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.version = 0

    def take(self, view: dict[str, Any]) -> dict[str, Any]:
        """Keep a view and its events past those the seat has (views overlap: a view answered
        after a stale post may repeat a few)."""
        self.views.append(view)
        assert view["after"] <= self.version, (view["after"], self.version)
        fresh = view["events"][self.version - view["after"] :]
        self.events.extend(fresh)
        self.version = max(self.version, view["version"])
        return view

    def read(self, client: httpx.Client, *, wait: float = POLL_WAIT_SECONDS) -> dict[str, Any]:
        response = client.get(
            f"{self.base}/tables/{self.table}",
            params={"after": self.version, "wait": wait},
            headers=bearer(self.token),
        )
        assert response.status_code == 200, response.text
        return self.take(response.json())

    def act(self, client: httpx.Client, view: dict[str, Any]) -> dict[str, Any] | None:
        """Post one random legal action of ``view``: the view answered, or None after a 409
        ``stale_version`` (the table moved on: read it again)."""
        action = self.rng.choice(view["legal"])
        if self.think_seconds:
            time.sleep(self.think_seconds)
        response = client.post(
            f"{self.base}/tables/{self.table}/actions",
            json={"version": view["version"], "action": action},
            headers=bearer(self.token),
        )
        if response.status_code == 409 and response.json()["error"] == "stale_version":
            self.stale += 1
            return None
        assert response.status_code == 200, (action, response.text)
        self.answered.append(Answered(len(self.answered), view["version"], action))
        return self.take(response.json())

    def play(self, *, timeout: float = 300.0) -> dict[str, Any]:
        """Play until the table is over; its last view."""
        give_up = time.monotonic() + timeout
        with httpx.Client(timeout=REQUEST_TIMEOUT_SECONDS, trust_env=False) as client:
            view = self.read(client, wait=0)
            while view["status"] == "playing":
                assert time.monotonic() < give_up, f"table {self.table} did not end in {timeout} s"
                if view["legal"] and view["version"] == self.version:
                    acted = self.act(client, view)
                    view = acted if acted is not None else self.read(client, wait=0)
                else:
                    view = self.read(client)
            return view


def play_all(seats: list[RandomSeat], *, timeout: float = 300.0) -> list[dict[str, Any]]:
    """Play every seat to the end at once (a thread each, as separate players would); their
    last views, in order.  An assertion in any seat fails the caller."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=max(1, len(seats))) as pool:
        futures = [pool.submit(seat.play, timeout=timeout) for seat in seats]
        return [future.result() for future in futures]


def open_table(base: str, body: Mapping[str, Any], *, api_key: str | None = None) -> dict[str, Any]:
    """``POST /tables``; the 201 answer."""
    headers = {"X-API-Key": api_key} if api_key else {}
    response = httpx.post(f"{base}/tables", json=dict(body), headers=headers, timeout=30, trust_env=False)
    assert response.status_code == 201, response.text
    opened: dict[str, Any] = response.json()
    return opened


# -- checks a client can make of what it was shown -------------------------------------------

HIDDEN = "?"
#: Actions on another seat's discard (or kan): several seats may ask for it, priority picks one.
CLAIMS = ("chi", "pon", "daiminkan", "hora")
#: A claim's rank in the dealer's priority (a win before a pon or an open kan before a chi).
CLAIM_RANK = {"chi": 0, "pon": 1, "daiminkan": 1, "hora": 2}


def concealed_from(event: Mapping[str, Any], seat: int) -> list[Any]:
    """The tiles of ``event`` that ``seat`` must not see: another seat's dealt hand and draws,
    and Sichuan's exchanged tiles between two other seats (as a player at a real table)."""
    kind = event.get("type")
    if kind == "start_kyoku":
        return [tile for index, hand in enumerate(event["tehais"]) if index != seat for tile in hand]
    if kind == "tsumo" and event.get("actor") != seat:
        return [event["pai"]]
    if kind == "exchange_out" and event.get("actor") != seat:
        return list(event["pais"])
    if kind == "exchange_in" and seat not in (event.get("actor"), event.get("target")):
        return list(event["pais"])
    return []


def assert_shows_no_concealed_tile(events: list[dict[str, Any]], seat: int) -> None:
    """Every tile of another seat that ``seat`` cannot see is ``?`` in ``events`` (its view)."""
    for index, event in enumerate(events):
        hidden = concealed_from(event, seat)
        assert all(tile == HIDDEN for tile in hidden), (seat, index, event)


def is_claim(action: Mapping[str, Any]) -> bool:
    return action["type"] in CLAIMS and action.get("target") not in (None, action.get("actor"))


def assert_answered_in_record(answered: list[Answered], record: list[dict[str, Any]]) -> None:
    """Every action answered 200 is in the record, in the order answered, after the version it
    was sent at: a seat's own turn's action, or a claim, as the next event of its seat there;
    a claim may instead have lost to another seat's claim of higher or equal priority (or a
    triple ron's draw), and a pass (``none``) leaves no event."""
    position = 0
    for answer in answered:
        action = answer.action
        if action["type"] == "none":
            continue
        start = max(position, answer.version)
        # The answer's event comes before the next draw: the dealer settles each ask at once.
        end = next(
            (index for index in range(start, len(record)) if record[index]["type"] in ("tsumo", "end_kyoku")),
            len(record),
        )
        window = range(start, end)
        found = next(
            (index for index in window if {key: record[index].get(key) for key in action} == action),
            None,
        )
        if found is not None:
            position = found + 1
            continue
        assert is_claim(action), (answer, record[start:end])
        beaten = [
            record[index]
            for index in window
            if record[index]["type"] == "ryukyoku"
            or (
                is_claim(record[index])
                and record[index]["actor"] != action["actor"]
                and CLAIM_RANK[record[index]["type"]] >= CLAIM_RANK[action["type"]]
            )
        ]
        assert beaten, (answer, record[start:end])
