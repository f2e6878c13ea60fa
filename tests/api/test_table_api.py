"""POST /referee and POST /act: mjai events in, verdicts and actions out, over HTTP.

Real games come from ``../shared/testdata/tenhou-games/`` (third-party data, read in place,
never copied; the tests that need them skip with a reason where the folder is absent).
Each hand's payments are checked against the folder's ``index.json`` (Tenhou's own score
changes, summarised from its records) as well as against the log's ``deltas``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any, Final

import pytest
from api_helpers import assert_error, error_items, started
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shared_data import shared_testdata_dir

from app.api.schemas.table import ACT_EXAMPLES, ONE_HAND, REFEREE_EXAMPLES, SANMA_ONE_HAND
from app.core.families.registry import TABLES
from app.core.table.game import GameConfig, play_game
from app.core.table.mjai import EVENT_TYPES, MJAI_NAMES
from app.settings import Settings

GAMES_DIR: Final = shared_testdata_dir() / "tenhou-games"
#: Abortive and special draws, by the index's kind (Tenhou's names).
_SPECIAL_DRAWS: Final = ("nm", "yao9", "reach4", "kan4", "kaze4")


def _index() -> list[dict[str, Any]]:
    if not (GAMES_DIR / "index.json").is_file():
        pytest.skip(f"the Tenhou games are not at {GAMES_DIR} (set TENPAI_TESTDATA to the shared test data folder)")
    games: list[dict[str, Any]] = json.loads((GAMES_DIR / "index.json").read_text(encoding="utf-8"))["games"]
    return games


def _events(game: dict[str, Any]) -> list[dict[str, Any]]:
    lines = (GAMES_DIR / game["file"]).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _rules(game: dict[str, Any]) -> str:
    return "sanma" if game["players"] == 3 else "riichi"


def _double_ron(game: dict[str, Any]) -> bool:
    return any(sum(result["result"] == "hora" for result in hand["results"]) > 1 for hand in game["per_hand"])


def _draw_kinds(game: dict[str, Any]) -> set[str]:
    return {result["kind"] for hand in game["per_hand"] for result in hand["results"]}


def _featured_games() -> list[dict[str, Any]]:
    """One game of each thing that is easy to pay wrong, and every three-player game."""
    games = _index()
    wanted = [
        lambda game: game["players"] == 4 and _double_ron(game),
        lambda game: game["players"] == 4 and game["pao"] > 0,
        lambda game: game["players"] == 4 and game["chankan"] > 0,
        *(lambda game, kind=kind: game["players"] == 4 and kind in _draw_kinds(game) for kind in _SPECIAL_DRAWS),
    ]
    chosen = [next(game for game in games if has(game)) for has in wanted]
    chosen += [game for game in games if game["players"] == 3]
    return list({game["file"]: game for game in chosen}.values())


def _four_player_game() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    game = next(game for game in _index() if game["players"] == 4)
    return game, _events(game)


def _expected_hands(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The index's hands in /referee's form: ``"E1"`` is round E, hand 1."""
    return [
        {"bakaze": hand["kyoku"][0], "kyoku": int(hand["kyoku"][1:]), "honba": hand["honba"], "deltas": hand["deltas"]}
        for hand in game["per_hand"]
    ]


def _referee(client: TestClient, events: list[Any], rules: str = "riichi") -> dict[str, Any]:
    response = client.post("/referee", json={"events": events, "rules": rules})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


# --- /referee: real games ---------------------------------------------------------------


def test_featured_real_games_are_valid_and_each_hand_pays_as_tenhou(client: TestClient) -> None:
    games = _featured_games()
    assert any(game["players"] == 3 for game in games)
    for game in games:
        _check_real_game(client, game)


@pytest.mark.slow
def test_every_real_game_is_valid_and_each_hand_pays_as_tenhou(client: TestClient) -> None:
    for game in _index():
        _check_real_game(client, game)


def _check_real_game(client: TestClient, game: dict[str, Any]) -> None:
    answer = _referee(client, _events(game), _rules(game))
    assert answer["valid"] and answer["problems"] == [], (game["file"], answer["problems"][:3])
    hands = answer["hands"]
    assert [{key: hand[key] for key in ("bakaze", "kyoku", "honba", "deltas")} for hand in hands] == _expected_hands(
        game
    ), game["file"]
    assert all(hand["deltas"] == hand["logged_deltas"] for hand in hands), game["file"]
    assert all(hand["result"] in ("hora", "ryukyoku") for hand in hands)
    # The index's final scores are before Tenhou gives the sticks left on the table to the leader.
    leader = max(range(len(game["final_scores"])), key=lambda seat: (game["final_scores"][seat], -seat))
    sticks = [ours - logged for ours, logged in zip(answer["scores"], game["final_scores"], strict=True)]
    assert all(stick == 0 for seat, stick in enumerate(sticks) if seat != leader), game["file"]
    assert sticks[leader] % 1000 == 0 and sticks[leader] >= 0, game["file"]


# --- /referee: a mutated game is caught at the mutated event ------------------------------


def _first_problem(answer: dict[str, Any]) -> dict[str, Any]:
    assert not answer["valid"] and answer["problems"], answer
    problem: dict[str, Any] = answer["problems"][0]
    return problem


def _not_held(hand: list[str]) -> str:
    """A tile the hand does not hold in any form (no five, so that a red five cannot hide it)."""
    held = {tile.removesuffix("r") for tile in hand}
    return next(
        tile for tile in ("1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "C") if tile not in held
    )


def test_a_discard_of_a_tile_not_held_is_caught_at_its_index(client: TestClient) -> None:
    _, events = _four_player_game()
    start = next(i for i, event in enumerate(events) if event["type"] == "start_kyoku")
    draw = start + 1
    discard = start + 2
    assert events[draw]["type"] == "tsumo" and events[discard]["type"] == "dahai"
    actor = events[draw]["actor"]
    hand = [*events[start]["tehais"][actor], events[draw]["pai"]]
    mutated = [dict(event) for event in events]
    mutated[discard] = {**events[discard], "pai": _not_held(hand), "tsumogiri": False}
    problem = _first_problem(_referee(client, mutated))
    assert (problem["index"], problem["type"]) == (discard, "tile_not_held"), problem


def test_a_wrong_payment_is_caught_at_its_hora(client: TestClient) -> None:
    _, events = _four_player_game()
    win = next(i for i, event in enumerate(events) if event["type"] == "hora" and event.get("deltas"))
    deltas = list(events[win]["deltas"])
    winner = events[win]["actor"]
    payer = next(seat for seat, delta in enumerate(deltas) if delta < 0)
    deltas[winner] += 100
    deltas[payer] -= 100
    mutated = [*events[:win], {**events[win], "deltas": deltas}, *events[win + 1 :]]
    answer = _referee(client, mutated)
    problem = _first_problem(answer)
    assert (problem["index"], problem["type"]) == (win, "deltas_differ"), problem
    first = answer["hands"][0]
    assert first["logged_deltas"] == deltas and first["deltas"] == events[win]["deltas"]


def test_a_draw_out_of_turn_is_caught_at_its_index(client: TestClient) -> None:
    _, events = _four_player_game()
    draws = [i for i, event in enumerate(events) if event["type"] == "tsumo"]
    second = draws[1]
    wrong_seat = (events[second]["actor"] + 2) % 4
    mutated = [*events[:second], {**events[second], "actor": wrong_seat}, *events[second + 1 :]]
    problem = _first_problem(_referee(client, mutated))
    assert (problem["index"], problem["type"]) == (second, "out_of_turn"), problem


# --- malformed events: a 422 at the index and the field ------------------------------------

_DISCARD_AT: Final = 3  # ONE_HAND: start_game, start_kyoku, tsumo, dahai, hora, end_kyoku


def _replaced(events: list[dict[str, Any]], index: int, event: Any) -> list[Any]:
    return [*events[:index], event, *events[index + 1 :]]


MALFORMED: Final[list[tuple[str, list[Any], list[Any]]]] = [
    ("a tile that is no tile", _replaced(ONE_HAND, 3, {**ONE_HAND[3], "pai": "10m"}), [3, "pai"]),
    ("a seat that is no seat", _replaced(ONE_HAND, 2, {**ONE_HAND[2], "actor": 4}), [2, "actor"]),
    ("a type that is no type", _replaced(ONE_HAND, 5, {"type": "end_round"}), [5, "type"]),
    ("a type that is a list", _replaced(ONE_HAND, 5, {"type": ["end_kyoku"]}), [5, "type"]),
    ("an event that is no object", _replaced(ONE_HAND, 2, "tsumo 0 9s"), [2]),
    ("tsumogiri that is no boolean", _replaced(ONE_HAND, 3, {**ONE_HAND[3], "tsumogiri": "yes"}), [3, "tsumogiri"]),
    (
        "a dealt tile that is no tile",
        _replaced(ONE_HAND, 1, {**ONE_HAND[1], "tehais": [*ONE_HAND[1]["tehais"][:2], ["X"] * 13, ONE_HAND[1]["tehais"][3]]}),
        [1, "tehais", 2, 0],
    ),
    ("a round wind that is no wind", _replaced(ONE_HAND, 1, {**ONE_HAND[1], "bakaze": "P"}), [1, "bakaze"]),
    ("three scores at four seats", _replaced(ONE_HAND, 1, {**ONE_HAND[1], "scores": [25000] * 3}), [1, "scores"]),
    ("three deltas at four seats", _replaced(ONE_HAND, 4, {**ONE_HAND[4], "deltas": [-1300, 1300, 0]}), [4, "deltas"]),
    ("a discard no seat can see", _replaced(ONE_HAND, 3, {**ONE_HAND[3], "pai": "?"}), [3, "pai"]),
]  # fmt: skip


# /act asks seat 1 at the dealer's discard: the events up to it, another seat's dealt tiles included.
_MALFORMED_CASES: Final = [("/referee", case, events, at) for case, events, at in MALFORMED] + [
    ("/act", case, events[: _DISCARD_AT + 1], at) for case, events, at in MALFORMED if at[0] <= _DISCARD_AT
]


@pytest.mark.parametrize(
    ("path", "case", "events", "at"), _MALFORMED_CASES, ids=[f"{path} {case}" for path, case, _, _ in _MALFORMED_CASES]
)
def test_a_malformed_event_is_a_422_at_its_index_and_field(
    client: TestClient, path: str, case: str, events: list[Any], at: list[Any]
) -> None:
    body: dict[str, Any] = {"seat": 1, "events": events} if path == "/act" else {"events": events}
    item = assert_error(client.post(path, json=body), 422, ["body", "events", *at], "malformed_event")
    index = at[0]
    assert item["msg"].startswith(f"events[{index}]"), item
    if len(at) == 1:
        assert item["input"] == events[index]


# --- /act ------------------------------------------------------------------------------


def _act(client: TestClient, seat: int, events: list[Any], rules: str = "riichi") -> dict[str, Any]:
    response = client.post("/act", json={"seat": seat, "events": events, "rules": rules})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _discards(answer: dict[str, Any]) -> set[tuple[str, bool]]:
    return {(action["pai"], action["tsumogiri"]) for action in answer["legal"] if action["type"] == "dahai"}


def _expected_discards(hand: list[str], drawn: str) -> set[tuple[str, bool]]:
    """Every distinct discard of a closed hand that just drew ``drawn``: throwing the drawn tile is
    tsumogiri, another copy of it held is not."""
    expected = {(tile, False) for tile in hand}
    expected.add((drawn, True))
    return expected


def _check_turn(answer: dict[str, Any], seat: int) -> None:
    keys = [json.dumps(action, sort_keys=True) for action in answer["legal"]]
    assert len(keys) == len(set(keys)), "each legal action once"
    assert answer["action"] in answer["legal"]
    assert sorted(json.dumps(item["action"], sort_keys=True) for item in answer["ranked"]) == sorted(keys)
    assert answer["ranked"][0]["action"] == answer["action"]
    assert all(action.get("actor", seat) == seat for action in answer["legal"])


def test_act_at_the_dealers_first_draw_offers_every_discard(client: TestClient) -> None:
    answer = _act(client, 0, ONE_HAND[:3])
    assert _discards(answer) == _expected_discards(ONE_HAND[1]["tehais"][0], "9s")
    assert {action["type"] for action in answer["legal"]} == {"dahai"}
    _check_turn(answer, 0)


def test_act_at_a_real_draw_offers_every_discard_of_the_hand(client: TestClient) -> None:
    _, events = _four_player_game()
    start = next(i for i, event in enumerate(events) if event["type"] == "start_kyoku")
    hands = [list(tiles) for tiles in events[start]["tehais"]]
    # The first hand's draws until some seat calls, declares or wins: the hands are then the
    # dealt tiles, plus the draws, less the discards, for a check that needs no table.
    checked = 0
    for index in range(start + 1, len(events)):
        event = events[index]
        if event["type"] not in ("tsumo", "dahai"):
            break
        seat = event["actor"]
        if event["type"] == "dahai":
            hands[seat].remove(event["pai"])
            continue
        answer = _act(client, seat, events[: index + 1])
        expected = _expected_discards(hands[seat], event["pai"])
        assert _discards(answer) == expected, index
        _check_turn(answer, seat)
        hands[seat].append(event["pai"])
        checked += 1
    assert checked >= 4


def test_act_depends_only_on_what_the_seat_sees(client: TestClient) -> None:
    _, events = _four_player_game()
    point = next(i for i, event in enumerate(events) if i > 8 and event["type"] == "tsumo")
    seat = events[point]["actor"]
    hidden = []
    for event in events[: point + 1]:
        if event["type"] == "start_kyoku":
            tehais = [tiles if s == seat else ["?"] * len(tiles) for s, tiles in enumerate(event["tehais"])]
            event = {**event, "tehais": tehais}
        elif event["type"] == "tsumo" and event["actor"] != seat:
            event = {**event, "pai": "?"}
        hidden.append(event)
    shown = client.post("/act", json={"seat": seat, "events": events[: point + 1]})
    assert shown.status_code == 200
    assert client.post("/act", json={"seat": seat, "events": hidden}).content == shown.content


def test_act_on_a_discard_offers_the_win_and_the_pass(client: TestClient) -> None:
    answer = _act(client, 1, ONE_HAND[:4])
    win = {"type": "hora", "actor": 1, "target": 0, "pai": "9s"}
    assert answer["legal"] == [win, {"type": "none"}]
    assert answer["action"] == win and answer["ranked"][0]["value"] == 1300.0
    nothing = _act(client, 2, ONE_HAND[:4])  # seat 2 cannot claim the 9s
    assert nothing["legal"] == [{"type": "none"}] and nothing["action"] == {"type": "none"}


def test_act_in_sanma_offers_kita(client: TestClient) -> None:
    answer = _act(client, 0, SANMA_ONE_HAND[:3], "sanma")
    assert {"type": "kita", "actor": 0, "pai": "N"} in answer["legal"]
    assert not any(action["type"] == "chi" for action in answer["legal"])
    _check_turn(answer, 0)


NOT_A_DECISION: Final = [
    ("another seat's draw", 1, ONE_HAND[:3]),
    ("its own discard", 0, ONE_HAND[:4]),
    ("the end of the hand", 1, ONE_HAND),
    ("no event at all", 0, []),
]


@pytest.mark.parametrize(("case", "seat", "events"), NOT_A_DECISION, ids=[case for case, _, _ in NOT_A_DECISION])
def test_act_past_or_before_the_seats_decision_is_a_422(
    client: TestClient, case: str, seat: int, events: list[Any]
) -> None:
    response = client.post("/act", json={"seat": seat, "events": events})
    item = assert_error(response, 422, ["body", "events"], "not_a_decision_point")
    assert f"seat {seat}" in item["msg"]


def test_act_refuses_a_call_behind_a_hidden_hand_that_no_seat_could_make(client: TestClient) -> None:
    # Seat 1's hand is hidden from seat 2, but a "chi" of 1m 2m and the dealer's 9s is no run.
    chi = {"type": "chi", "actor": 1, "target": 0, "pai": "9s", "consumed": ["1m", "2m"]}
    item = assert_error(
        client.post("/act", json={"seat": 2, "events": [*ONE_HAND[:4], chi]}), 422, ["body", "events", 4]
    )
    assert item["type"] == "illegal_event", item


def test_act_refuses_a_discarded_flower_behind_a_hidden_hand(client: TestClient) -> None:
    events = _self_played("mcr")
    discard = next(i for i, event in enumerate(events) if event["type"] == "dahai")
    seat = (events[discard]["actor"] + 1) % 4
    flower = {**events[discard], "pai": "H8", "tsumogiri": False}
    body = {"seat": seat, "events": [*events[:discard], flower], "rules": "mcr"}
    item = assert_error(client.post("/act", json=body), 422, ["body", "events", discard], "illegal_event")
    assert "H8" in item["msg"], item


@pytest.mark.parametrize(
    ("body", "error_type"),
    [
        ({"seat": 4, "events": ONE_HAND[:3]}, "less_than_equal"),
        ({"seat": -1, "events": ONE_HAND[:3]}, "greater_than_equal"),
        ({"seat": "0", "events": ONE_HAND[:3]}, "int_type"),
        ({"seat": 3, "events": SANMA_ONE_HAND[:3], "rules": "sanma"}, "not_a_decision_point"),
    ],
)
def test_act_for_a_seat_the_table_does_not_have_is_a_422(
    client: TestClient, body: dict[str, Any], error_type: str
) -> None:
    assert_error(client.post("/act", json=body), 422, ["body", "seat"], error_type)


def test_act_after_an_event_the_table_does_not_allow_is_a_422_at_it(client: TestClient) -> None:
    # Seat 1 draws first, before the dealer: a fault every seat sees.
    events = [*ONE_HAND[:2], {"type": "tsumo", "actor": 1, "pai": "1m"}]
    item = assert_error(client.post("/act", json={"seat": 1, "events": events}), 422, ["body", "events", 2])
    assert item["type"] == "illegal_event" and "out_of_turn" in item["msg"], item


PRESETS: Final = ("riichi", "sanma", "chinese", "mcr", "qiqihar")


@functools.cache
def _self_played(preset: str) -> list[dict[str, Any]]:
    """A seeded hand of ``preset`` played by the table itself (flowers, wildcards, no dora: the extension events)."""
    seats = 3 if preset == "sanma" else 4
    events: list[dict[str, Any]] = play_game(
        GameConfig(preset, ("linear",) * seats, seed=3, length="kyoku"), 0, TABLES
    ).events
    return events


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_the_table_plays_is_judged_and_advised(client: TestClient, preset: str) -> None:
    events = _self_played(preset)
    answer = _referee(client, events, preset)
    assert answer["valid"] and len(answer["hands"]) == 1, answer["problems"][:3]
    assert answer["hands"][0]["deltas"] == answer["hands"][0]["logged_deltas"]
    dealer_draw = next(i for i, event in enumerate(events) if event["type"] == "tsumo")
    seat = events[dealer_draw]["actor"]
    turn = _act(client, seat, events[: dealer_draw + 1], preset)
    _check_turn(turn, seat)
    for index, event in enumerate(events):
        if event["type"] == "flower":  # the draw before it: setting the flower aside is the one action
            drawn = _act(client, event["actor"], events[:index], preset)
            assert drawn["legal"] == [{"type": "flower", "actor": event["actor"], "pai": event["pai"]}]


def test_the_referee_checks_the_end_of_the_game_when_given_its_length(client: TestClient) -> None:
    ended = [*ONE_HAND, {"type": "end_game"}]
    assert _referee(client, ended)["valid"]  # no length: where the game ends is not judged
    early = client.post("/referee", json={"events": ended, "length": "hanchan"}).json()
    assert [(p["index"], p["type"]) for p in early["problems"]] == [(len(ONE_HAND), "game_not_over")]
    one_hand = client.post("/referee", json={"events": ended, "length": "kyoku"}).json()
    assert one_hand["valid"], one_hand["problems"]


def test_a_length_the_rules_do_not_play_is_a_422_at_length(client: TestClient) -> None:
    body = {"events": [], "rules": "mcr", "length": "hanchan"}
    item = assert_error(client.post("/referee", json=body), 422, ["body", "length"], "invalid_game_config")
    assert "kyoku" in item["msg"]
    assert_error(client.post("/referee", json={"events": [], "length": "forever"}), 422, ["body", "length"], "enum")


# --- bounds ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bounded() -> Iterator[TestClient]:
    client = started(Settings(max_events=5, max_body_bytes=4096))
    yield client
    client.__exit__(None, None, None)


@pytest.mark.parametrize("path", ["/referee", "/act"])
def test_more_events_than_the_bound_are_a_422_before_any_work(bounded: TestClient, path: str) -> None:
    body = {"seat": 1, "events": ONE_HAND} if path == "/act" else {"events": ONE_HAND}
    item = assert_error(bounded.post(path, json=body), 422, ["body", "events"], "too_many_events")
    assert item["ctx"] == {"max_events": 5} and "TENPAI_MAX_EVENTS" in item["msg"]
    assert bounded.get("/limits").json()["max_events"] == 5
    within = {"seat": 1, "events": ONE_HAND[:4]} if path == "/act" else {"events": ONE_HAND[:5]}
    assert bounded.post(path, json=within).status_code == 200


def test_a_body_over_the_size_bound_is_a_413(bounded: TestClient) -> None:
    padded = [{**ONE_HAND[0], "names": ["x" * 5000] * 4}]
    assert_error(bounded.post("/referee", json={"events": padded}), 413, ["body"], "body_too_large")


def test_a_replay_past_its_time_is_a_503_out_of_time() -> None:
    _, events = _four_player_game()
    point = next(i for i, event in enumerate(events) if i > 200 and event["type"] == "tsumo")
    client = started(Settings(heavy_seconds=1e-6))  # passed before the replay's first look at the clock
    try:
        for path, body in [
            ("/referee", {"events": events}),
            ("/act", {"seat": events[point]["actor"], "events": events[: point + 1]}),
        ]:
            response = client.post(path, json=body)
            item = assert_error(response, 503, ["body", "events"], "out_of_time")
            assert "TENPAI_HEAVY_SECONDS" in item["msg"], path
        assert client.app.state.heavy.running == 0  # type: ignore[attr-defined]
    finally:
        client.__exit__(None, None, None)


# --- the documented examples are real ----------------------------------------------------


def test_every_request_example_answers_200(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path, examples in (("/referee", REFEREE_EXAMPLES), ("/act", ACT_EXAMPLES)):
        documented = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["examples"]
        assert set(documented) == set(examples)
        for name, example in documented.items():
            response = client.post(path, json=example["value"])
            assert response.status_code == 200, (path, name, response.text)


def test_the_response_examples_are_real_answers(client: TestClient) -> None:
    components = client.get("/openapi.json").json()["components"]["schemas"]
    (referee_example,) = components["RefereeResponse"]["examples"]
    assert _referee(client, REFEREE_EXAMPLES["wrong_deltas"]["value"]["events"]) == referee_example
    (act_example,) = components["ActResponse"]["examples"]
    answer = _act(client, 1, ACT_EXAMPLES["ron"]["value"]["events"])
    # FastAPI leaves null values out of the examples it writes into the document.
    answer["ranked"] = [{key: value for key, value in item.items() if value is not None} for item in answer["ranked"]]
    assert answer == act_example


def test_the_events_are_documented_one_type_each(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    events = schema["components"]["schemas"]["RefereeRequest"]["properties"]["events"]["items"]
    mapping = events["discriminator"]["mapping"]
    assert events["discriminator"]["propertyName"] == "type"
    # Every event the reader takes ("none" is a seat's answer, never an event of the game).
    assert set(mapping) == EVENT_TYPES - {"none"}
    documented = {kind: schema["components"]["schemas"][ref.rsplit("/", 1)[1]] for kind, ref in mapping.items()}
    assert "sanma" in documented["kita"]["description"].lower() and "MCR" in documented["flower"]["description"]
    start = documented["start_kyoku"]["properties"]
    assert {"flowers", "wildcards"} <= set(start) and "dora_marker" not in documented["start_kyoku"]["required"]
    tile = schema["components"]["schemas"]["MjaiTile"]
    assert tile["enum"] == list(MJAI_NAMES)


# --- near-valid events never reach the 500 handler ----------------------------------------

_JSON: Final = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_TILES: Final = st.sampled_from(["1m", "5mr", "9s", "E", "N", "C", "?", "H1", "0m", "5z", ""])
_FIELDS: Final = ["type", "actor", "target", "pai", "consumed", "tsumogiri", "deltas", "tehais", "scores", "bakaze"]


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    preset=st.sampled_from(PRESETS),
    where=st.integers(0, 10**6),
    field=st.sampled_from(_FIELDS),
    value=_TILES | _JSON | st.integers(-2, 5),
    seat=st.integers(0, 3),
    cut=st.integers(0, 10**6),
)
def test_near_valid_events_answer_200_or_a_422(
    client: TestClient, preset: str, where: int, field: str, value: Any, seat: int, cut: int
) -> None:
    events = [dict(event) for event in _self_played(preset)]
    events[where % len(events)][field] = value
    for path, body in [
        ("/referee", {"events": events, "rules": preset}),
        ("/act", {"seat": seat, "events": events[: cut % len(events) + 1], "rules": preset}),
    ]:
        response = client.post(path, json=body)
        assert response.status_code in (200, 422), (path, response.text)
        if response.status_code == 422:
            assert error_items(response)[0]["loc"][:2] in (["body", "events"], ["body", "seat"]), response.text


def test_a_hora_or_ryukyoku_with_malformed_deltas_or_ura_markers_is_a_422_at_the_field() -> None:
    from fastapi.testclient import TestClient

    from app.main import app

    client = TestClient(app)
    bad_deltas = client.post("/referee", json={"events": [{"type": "ryukyoku", "deltas": [None, None]}]})
    assert bad_deltas.status_code == 422
    assert bad_deltas.json()["detail"][0]["loc"] == ["body", "events", 0, "deltas"]
    bad_ura = client.post("/referee", json={"events": [{"type": "hora", "actor": 0, "ura_markers": ["x"]}]})
    assert bad_ura.status_code == 422
    assert bad_ura.json()["detail"][0]["loc"] == ["body", "events", 0, "ura_markers", 0]


def test_act_reads_every_other_seat_in_order_against_the_kinds_held(client: TestClient) -> None:
    for rules, events, seats in (("riichi", ONE_HAND[:3], 4), ("sanma", SANMA_ONE_HAND[:3], 3)):
        answer = _act(client, 0, events, rules)
        held = {tile.removesuffix("r") for tile in events[1]["tehais"][0]} | {events[2]["pai"].removesuffix("r")}
        assert [read["seat"] for read in answer["opponents"]] == list(range(1, seats)), rules
        for read in answer["opponents"]:
            assert set(read["deal_in"]) == held, rules
            assert 0.0 <= read["tenpai"] <= 1.0 and all(0.0 <= p <= read["tenpai"] for p in read["deal_in"].values())


def test_act_reads_a_riichi_seat_as_ready_and_its_river_as_safe(client: TestClient) -> None:
    _, events = _four_player_game()
    accepted = next(i for i, event in enumerate(events) if event["type"] == "reach_accepted")
    declared = events[accepted]["actor"]
    point = next(
        i for i in range(accepted, len(events)) if events[i]["type"] == "tsumo" and events[i]["actor"] != declared
    )
    seat = events[point]["actor"]
    start = max(i for i in range(point) if events[i]["type"] == "start_kyoku")
    river = {e["pai"].removesuffix("r") for e in events[start:point] if e["type"] == "dahai" and e["actor"] == declared}
    (read,) = [read for read in _act(client, seat, events[: point + 1])["opponents"] if read["seat"] == declared]
    assert read["tenpai"] == 1.0
    assert all(chance == 0.0 for tile, chance in read["deal_in"].items() if tile in river)


def test_act_reads_no_one_under_rules_without_riichi_scoring(client: TestClient) -> None:
    events = play_game(GameConfig("chinese", ("heuristic",) * 4, seed=3), 0, TABLES).events
    point = next(i for i, event in enumerate(events) if i > 12 and event["type"] == "tsumo")
    answer = _act(client, events[point]["actor"], events[: point + 1], "chinese")
    assert answer["opponents"] == [] and answer["legal"]
