"""The core imports only the standard library and numpy: never the HTTP stack or its helpers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "app" / "core"
FORBIDDEN = frozenset({"fastapi", "starlette", "pydantic", "pydantic_settings", "uvicorn", "httpx", "cachetools"})
MODULES = sorted(CORE.rglob("*.py"))


def _is_dynamic_import(call: ast.Call) -> bool:
    """``importlib.import_module("x")`` or ``__import__("x")`` with a literal name."""
    name = getattr(call.func, "id", getattr(call.func, "attr", None))
    literal = bool(call.args) and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str)
    return name in ("import_module", "__import__") and literal


def imported_roots(source: str) -> set[str]:
    """Top-level package of every import in ``source`` (including imports inside functions)."""
    roots = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and _is_dynamic_import(node):
            roots.add(node.args[0].value.split(".")[0])
    return roots


def test_core_modules_exist():
    assert len(MODULES) >= 8, MODULES


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_imports_no_web_stack(module):
    bad = imported_roots(module.read_text(encoding="utf-8")) & FORBIDDEN
    assert not bad, f"{module.name} imports {sorted(bad)}"


def test_the_check_catches_each_form():
    sample = "import fastapi\nfrom pydantic import BaseModel\ndef f():\n    import importlib\n    importlib.import_module('httpx')\n"
    assert {"fastapi", "pydantic", "httpx"} <= imported_roots(sample)
