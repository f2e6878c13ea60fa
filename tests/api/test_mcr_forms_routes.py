"""The knitted forms over HTTP under ``rules: "mcr"``: /shanten, /ting, /win, /discard and the batches.

The engine's answers are checked against an oracle and PyMahjongGB in
tests/core/test_mcr_forms.py; here the routes show them, and the batch routes
(numpy for /shanten/batch and /ting/batch) answer exactly as the single routes.
"""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from app.api.batch_fast import shanten_batch_json
from app.api.schemas.common import BatchRequest
from app.core.shape.shanten import KNITTED_STRAIGHTS
from app.core.shape.tiles import HONORS, format_mpsz


def _post(client: TestClient, path: str, body: dict[str, object]) -> dict:  # type: ignore[type-arg]
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    answer: dict = response.json()  # type: ignore[type-arg]
    return answer


def test_shanten_shows_the_knitted_forms(client: TestClient) -> None:
    answer = _post(client, "/shanten", {"hand": "147m258p36s123m55z", "rules": "mcr"})
    assert answer["shanten"] == 0
    assert answer["forms"]["knitted_straight"] == 0 and answer["forms"]["honors_and_knitted"] == 4
    assert answer["ukeire"] == [{"tile": "9s", "remaining": 4}]
    # With a declared meld: a knitted straight still fits, honours and knitted does not.
    melded = {"hand": "147m258p369s5z", "melds": [{"kind": "pon", "tiles": "777z"}], "rules": "mcr"}
    forms = _post(client, "/shanten", melded)["forms"]
    assert forms["knitted_straight"] == 0 and forms["honors_and_knitted"] is None
    # Other rules: null.
    riichi = _post(client, "/shanten", {"hand": "147m258p36s123m55z"})["forms"]
    assert riichi["knitted_straight"] is None and riichi["honors_and_knitted"] is None


def test_ting_and_win_under_mcr(client: TestClient) -> None:
    ting = _post(client, "/ting", {"hand": "147m25p369s12345z", "rules": "mcr"})
    assert [w["tile"] for w in ting["waits"]] == ["8p", "6z", "7z"]
    win = _post(client, "/win", {"hand": "147m258p369s55777z", "rules": "mcr"})
    assert win["win"] is True and win["form"] == "knitted_straight"
    (reading,) = win["decompositions"]
    assert reading["knitted"] == ["1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s"]
    assert reading["melds"] == [["7z", "7z", "7z"]] and reading["pair"] == "5z"
    honors = _post(client, "/win", {"hand": "147m25p36s1234567z", "rules": "mcr"})
    assert honors["form"] == "honors_and_knitted"
    assert len(honors["decompositions"][0]["singles"]) == 14
    assert _post(client, "/win", {"hand": "147m258p369s55777z"})["win"] is False  # riichi


def test_discard_under_mcr_keeps_the_knitted_straight(client: TestClient) -> None:
    answer = _post(client, "/discard", {"hand": "147m258p369s12m55z7z", "rules": "mcr"})
    assert answer["best"] == "7z"
    best = answer["candidates"][0]
    assert best["shanten"] == 0 and [t["tile"] for t in best["ukeire"]] == ["3m"]


def _knitted_hands(seed: int, size: int, rows: int) -> list[str]:
    rng = random.Random(seed)
    hands = []
    for _ in range(rows):
        pool = [*rng.choice(KNITTED_STRAIGHTS), *HONORS]
        while True:
            tiles = [rng.choice(pool) if rng.random() < 0.8 else rng.randrange(34) for _ in range(size)]
            if all(tiles.count(t) <= 4 for t in tiles):
                break
        hands.append(format_mpsz(tiles))
    return hands


def test_mcr_batches_answer_as_the_single_routes(client: TestClient) -> None:
    for size, extra in (
        (13, {"rules": "mcr"}),
        (14, {"rules": "mcr"}),
        (10, {"rules": "mcr", "melds": [{"kind": "chi", "tiles": "789m"}]}),
    ):
        hands = _knitted_hands(size, size, 40)
        body = {"hands": hands, **extra}
        assert shanten_batch_json(BatchRequest.model_validate(body), max_batch_size=1000) is not None  # fast path
        for path in ("/shanten", "/ting") if size % 3 == 1 else ("/shanten", "/win"):
            batch = _post(client, f"{path}/batch", body)["results"]
            for hand, answer in zip(hands, batch, strict=True):
                assert answer == _post(client, path, {"hand": hand, **extra}), (path, hand)
