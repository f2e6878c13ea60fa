"""GET /health, /ready, /rules, /tiles, and the settings the app is built from."""

from __future__ import annotations

from dataclasses import fields

import pytest
from api_helpers import wait_ready
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import ValidationError

import app.main
from app.api.routes.reference import RulePreset
from app.core.families.registry import FAMILIES, OPTION_FAMILY, TABLES, TYPED_PRESETS
from app.core.shape.rules import OPTION_DOCS, OPTIONS_BY_NAME, PRESETS, RuleProfile, rule_profile
from app.core.shape.tiles import parse_tiles
from app.core.table.family import SHARED_OPTIONS
from app.main import create_app
from app.settings import Settings


def test_module_level_app() -> None:
    assert isinstance(app.main.app, FastAPI)
    assert app.main.app.state.service.settings == Settings()


def test_health(client: TestClient) -> None:
    response = client.get("/health")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


def test_ready_once_the_tables_are_built(client: TestClient) -> None:
    response = client.get("/ready")
    assert response.status_code == 200
    body = response.json()
    assert body["ready"] is True and body["tables_build_seconds"] >= 0
    assert set(body["cache"]) == {"hits", "misses", "size", "max_size", "bytes", "max_bytes"}


def test_cache_stats_are_open_and_cache_clear_is_for_administrators() -> None:
    with TestClient(create_app(Settings()), client=("203.0.113.7", 50000)) as remote:
        assert remote.get("/cache/stats").status_code == 200
        response = remote.post("/cache/clear")
    assert response.status_code == 403 and response.json()["detail"][0]["type"] == "forbidden"


def test_a_loopback_client_clears_the_cache() -> None:
    with TestClient(create_app(Settings()), client=("127.0.0.1", 50000)) as local:
        wait_ready(local)
        local.post("/shanten", json={"hand": "123456789m1111z"})
        local.post("/shanten", json={"hand": "123456789m1111z"})
        assert local.get("/cache/stats").json()["size"] > 0
        response = local.post("/cache/clear")
    assert response.status_code == 200
    assert response.json() == {
        "hits": 0, "misses": 0, "size": 0, "max_size": 4096, "bytes": 0, "max_bytes": 64 * 1024 * 1024,
    }  # fmt: skip


def test_cache_clear_documents_its_admin_header_and_403(client: TestClient) -> None:
    operation = client.get("/openapi.json").json()["paths"]["/cache/clear"]["post"]
    assert [(parameter["name"], parameter["in"]) for parameter in operation["parameters"]] == [
        ("x-admin-key", "header")
    ]
    assert "403" in operation["responses"]


def test_not_ready_before_start_up_builds_the_tables() -> None:
    # Without entering the client, the lifespan (which builds the tables) never runs.
    client = TestClient(create_app(Settings()))
    response = client.get("/ready")
    assert response.status_code == 503 and response.json()["ready"] is False
    assert client.get("/health").status_code == 200


def test_rules_lists_every_preset_and_option(client: TestClient) -> None:
    body = client.get("/rules").json()
    assert body["default"] == "riichi"
    # The shape wing's presets, then those the families bring with their typed options.
    assert [preset["name"] for preset in body["presets"]] == [*PRESETS, *TYPED_PRESETS]
    profile = [option for option in body["options"] if option["name"] in OPTION_DOCS]
    assert {option["name"]: option["meaning"] for option in profile} == dict(OPTION_DOCS)
    typed = {
        (option["family"], option["name"]): option for option in body["options"] if option["name"] not in OPTION_DOCS
    }
    for family in {id(family): family for family in TYPED_PRESETS.values()}.values():
        for field in family.option_fields():
            if field.name not in OPTION_DOCS:
                shown = typed.pop((family.name, field.name))
                assert (shown["family"], shown["type"], shown["default"]) == (family.name, field.type, field.default)
                assert shown["meaning"] == field.doc and shown.get("choices") == (
                    list(field.choices) if field.choices else None
                )
    assert not typed, "typed options no family declares"
    qiqihar = next(preset for preset in body["presets"] if preset["name"] == "qiqihar")
    assert qiqihar["wildcards"] == ["7z"] and qiqihar["seven_pairs"] == "off"
    assert qiqihar["win_requires_meld"] == ["added_kan", "open_kan", "pon"]


def test_rules_documents_every_option_of_the_core() -> None:
    # family_options is not one option: it is a family's own typed section (GET /rules lists
    # its fields under the presets that bring it).
    options = {f.name for f in fields(RuleProfile)} - {"name", "family_options"}
    assert set(OPTION_DOCS) == options
    assert set(RulePreset.model_fields) == set(rule_profile("riichi").describe())


def test_every_option_listed_by_rules_is_accepted(client: TestClient) -> None:
    riichi = next(p for p in client.get("/rules").json()["presets"] if p["name"] == "riichi")
    overrides = {option: value for option, value in riichi.items() if option != "name"}
    body = {"hand": "123456789m1111z", "rules": {"preset": "riichi", **overrides}}
    assert client.post("/shanten", json=body).status_code == 200


def test_each_preset_shows_the_shared_options_and_its_own_familys_only(client: TestClient) -> None:
    body = client.get("/rules").json()
    presets = {preset["name"]: preset for preset in body["presets"]}
    # The issue's own examples: riichi's preset has no Sichuan option, Sichuan's no riichi one.
    assert not {"exchange_three", "kong_flower", "max_fan", "void_suit"} & set(presets["riichi"])
    assert "kiriage" not in presets["sichuan"] and presets["sichuan"]["exchange_three"] is True
    for name, preset in presets.items():
        # A family's option is absent, never null; null is only the value of an option that may be off
        # altogether (wildcards_held_win).
        assert all(value is not None or OPTIONS_BY_NAME[key].kind.nullable for key, value in preset.items()), name
        if name in TYPED_PRESETS:  # the shared options and the family's typed ones
            typed = {field.name for field in TYPED_PRESETS[name].option_fields()}
            assert set(preset) - {"name", "source", "wildcards_from_indicator"} == SHARED_OPTIONS | typed, name
            continue
        family = TABLES[name]
        shown = set(preset) - {"name", "source"}
        assert shown == SHARED_OPTIONS | family.own_options, name
    listed = {option["name"]: option["family"] for option in body["options"] if option["name"] in OPTION_DOCS}
    assert listed == {name: OPTION_FAMILY.get(name) for name in OPTION_DOCS}
    assert listed["kiriage"] == "riichi" and listed["bloody_river"] == "sichuan" and listed["seven_pairs"] is None


def test_every_option_is_shared_or_one_familys_own() -> None:
    owned = [option for family in FAMILIES for option in family.own_options]
    assert len(owned) == len(set(owned))  # no option in two families' sections
    assert SHARED_OPTIONS.isdisjoint(owned)
    assert SHARED_OPTIONS | set(owned) == set(OPTION_DOCS)


@pytest.mark.parametrize(
    ("preset", "option", "value"),
    [
        ("riichi", "exchange_three", False),
        ("sanma", "max_fan", 3),
        ("sichuan", "kiriage", True),
        ("mcr", "red_fives", False),
    ],
)
def test_another_familys_option_is_refused_naming_it(
    client: TestClient, preset: str, option: str, value: object
) -> None:
    body = {"hand": "123456789m1122p", "rules": {"preset": preset, option: value}}
    answer = client.post("/shanten", json=body)
    assert answer.status_code == 422
    error = answer.json()
    assert error["error"] == "invalid_rule_option"
    assert error["detail"][0]["loc"] == ["body", "rules", option]
    assert f"{option} is not an option of the {TABLES[preset].name} rules" in error["detail"][0]["msg"]
    # The same option under its own family's preset is taken.
    own = next(name for name, family in TABLES.items() if option in family.own_options)
    assert client.post("/shanten", json={**body, "rules": {"preset": own, option: value}}).status_code == 200


def test_a_simulation_with_another_familys_option_is_refused_at_the_option(client: TestClient) -> None:
    body = {"rules": "riichi", "players": ["greedy"] * 4, "games": 1, "options": {"bloody_river": True}}
    answer = client.post("/simulate", json=body)
    assert answer.status_code == 422 and answer.json()["error"] == "invalid_rule_option"
    assert answer.json()["detail"][0]["loc"] == ["body", "options", "bloody_river"]


def test_tiles_examples_all_parse(client: TestClient) -> None:
    body = client.get("/tiles").json()
    assert [n["name"] for n in body["notations"]] == ["mpsz", "chinese", "unicode", "integers"]
    for notation in body["notations"]:
        for example in notation["examples"]:
            assert parse_tiles(example), example


def test_tiles_table_round_trips(client: TestClient) -> None:
    table = client.get("/tiles").json()["tiles"]
    assert [row["index"] for row in table] == list(range(34))
    for row in table:
        assert parse_tiles(row["mpsz"]) == parse_tiles(row["chinese"]) == parse_tiles(row["unicode"]) == [row["index"]]
    assert table[33] == {"index": 33, "mpsz": "7z", "chinese": "中", "unicode": "🀄"}


# --- settings -----------------------------------------------------------------------


def test_settings_come_from_prefixed_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TENPAI_PORT", "9001")
    monkeypatch.setenv("TENPAI_CACHE_SIZE", "7")
    monkeypatch.setenv("TENPAI_MAX_BATCH_SIZE", "3")
    monkeypatch.setenv("TENPAI_LOG_LEVEL", "DEBUG")
    monkeypatch.setenv("TENPAI_DECOMPOSITION_LIMIT", "4")
    monkeypatch.setenv("PORT", "1")  # unprefixed: ignored
    settings = Settings()
    assert (settings.port, settings.cache_size, settings.max_batch_size) == (9001, 7, 3)
    assert settings.log_level == "debug" and settings.decomposition_limit == 4
    assert create_app().state.service.cache.stats().max_size == 7


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("TENPAI_PORT", "0"),
        ("TENPAI_PORT", "http"),
        ("TENPAI_WORKERS", "0"),
        ("TENPAI_CACHE_SIZE", "-1"),
        ("TENPAI_MAX_BODY_BYTES", "10"),
        ("TENPAI_MAX_BATCH_SIZE", "0"),
        ("TENPAI_LOG_LEVEL", "loud"),
        ("TENPAI_DECOMPOSITION_LIMIT", "0"),
    ],
)
def test_bad_settings_fail_at_start(monkeypatch: pytest.MonkeyPatch, variable: str, value: str) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(ValidationError) as raised:
        create_app()
    assert variable.removeprefix("TENPAI_").lower() in str(raised.value)


def test_decomposition_limit_truncates() -> None:
    with TestClient(create_app(Settings(decomposition_limit=2))) as client:
        answer = client.post("/win", json={"hand": "11122233344455m"}).json()
    assert answer["win"] is True and answer["truncated"] is True and len(answer["decompositions"]) == 2
