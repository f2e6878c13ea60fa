"""The exported OpenAPI document is the live one, documented, with working examples."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
EXPORTED = ROOT / "openapi" / "openapi.json"
HAND_PATHS = ("/win", "/ting", "/shanten", "/win/batch", "/ting/batch", "/shanten/batch")


def _export_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("export_openapi", ROOT / "scripts" / "export_openapi.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return create_app(Settings()).openapi()


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, item in schema["paths"].items() for method, op in item.items()]


def test_exported_file_equals_the_live_schema() -> None:
    rendered = _export_script().render()
    assert EXPORTED.read_text(encoding="utf-8") == rendered, "run: python scripts/export_openapi.py"
    assert json.loads(rendered) == create_app(Settings()).openapi()


def test_export_is_sorted_with_indent_2() -> None:
    text = EXPORTED.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def test_every_route_is_documented(schema: dict[str, Any]) -> None:
    operations = _operations(schema)
    assert {path for path, _, _ in operations} == {
        *HAND_PATHS,
        "/discard",
        "/score",
        "/score/batch",
        "/simulate",
        "/referee",
        "/act",
        "/review",
        "/records/convert",
        "/health",
        "/ready",
        "/rules",
        "/limits",
        "/tiles",
        "/cache/stats",
        "/cache/clear",
        "/tables",
        "/tables/{table}",
        "/tables/{table}/actions",
        "/tables/{table}/record",
    }
    ids = [op["operationId"] for _, _, op in operations]
    assert len(ids) == len(set(ids))
    for path, method, op in operations:
        assert op["summary"] and op["description"] and op["tags"], (path, method)
        assert "/" not in op["operationId"] and op["operationId"].isidentifier(), op["operationId"]


def test_error_responses_are_declared_with_the_envelope(schema: dict[str, Any]) -> None:
    envelope = {"$ref": "#/components/schemas/ErrorResponse"}
    for path, method, op in _operations(schema):
        errors = {status: r for status, r in op["responses"].items() if status[0] in "45"}
        assert errors, (path, method)
        expected = {"413", "422", "500"} if method == "post" and path in HAND_PATHS else set()
        assert expected <= set(errors), (path, method)
        for status in expected:
            assert errors[status]["content"]["application/json"]["schema"] == envelope
    assert "HTTPValidationError" not in schema["components"]["schemas"]


def test_every_route_taking_a_body_declares_the_415(schema: dict[str, Any]) -> None:
    envelope = {"$ref": "#/components/schemas/ErrorResponse"}
    for path, _method, op in _operations(schema):
        if "requestBody" in op:
            declared = op["responses"]["415"]
            assert declared["content"]["application/json"]["schema"] == envelope, path
            assert "content-type: application/json" in declared["description"]
        else:  # no body, no content type to refuse (/cache/clear)
            assert "415" not in op["responses"], path


def test_contract_fields_are_in_the_response_schemas(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    contract = {
        "WinResponse": {"win", "form", "decompositions", "reason"},
        "DecompositionOut": {"pair", "melds", "wildcards"},
        "WildcardUse": {"tile", "as"},
        "TingResponse": {"tenpai", "waits", "karaten"},
        "TileRemaining": {"tile", "remaining"},
        "ShantenResponse": {"shanten", "forms", "ukeire", "ukeire_count"},
        "ShantenForms": {"regular", "seven_pairs", "thirteen_orphans"},
        "ErrorItem": {"loc", "msg", "type"},
    }
    for name, wanted in contract.items():
        assert wanted <= set(components[name]["properties"]), name
    for name in ("WinBatchResponse", "TingBatchResponse", "ShantenBatchResponse"):
        assert set(components[name]["properties"]) == {"results"}


def test_request_bodies_document_every_notation(schema: dict[str, Any]) -> None:
    hand = schema["components"]["schemas"]["HandRequest"]["properties"]["hand"]
    assert [branch["type"] for branch in hand["anyOf"]] == ["string", "array"]
    rules = schema["components"]["schemas"]["HandRequest"]["properties"]["rules"]
    assert rules["default"] == "riichi" and len(rules["anyOf"]) == 2


@pytest.mark.parametrize("path", HAND_PATHS)
def test_every_request_example_answers_200(client: TestClient, schema: dict[str, Any], path: str) -> None:
    examples = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]["examples"]
    assert examples
    for name, example in examples.items():
        response = client.post(path, json=example["value"])
        assert response.status_code == 200, (name, response.text)


@pytest.mark.parametrize(
    ("path", "component"),
    [("/win", "WinResponse"), ("/ting", "TingResponse"), ("/shanten", "ShantenResponse")],
)
def test_response_examples_are_real_answers(
    client: TestClient, schema: dict[str, Any], path: str, component: str
) -> None:
    (example,) = schema["components"]["schemas"][component]["examples"]
    request = {
        "/win": {"hand": "123m456p78s99s7z", "melds": [{"kind": "pon", "tiles": "111z"}], "rules": "qiqihar"},
        "/ting": {"hand": "123456789m1112z", "visible": "22z"},
        "/shanten": {"hand": "123456789m1112z"},
    }[path]
    answer = client.post(path, json=request).json()
    if path == "/win":
        assert example["decompositions"][0] in answer["decompositions"]
        answer["decompositions"] = example["decompositions"]
    if path == "/shanten":  # the forms the rules lack (the knitted forms outside mcr) are null
        answer["forms"] = {form: value for form, value in answer["forms"].items() if value is not None}
    # FastAPI leaves null values out of the examples it writes into the document.
    assert {key: value for key, value in answer.items() if value is not None} == example
