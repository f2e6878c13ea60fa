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


# The core's four wings, innermost first.  A module may import its own wing, any wing inside it,
# and the core's root (the typed errors, the compiled kernel); never a wing outside it, nor the
# service around the core.
WINGS = ("shape", "value", "advice", "table")
CORE_ROOT_MODULES = frozenset({"app.core.errors", "app.core._kernel"})


def imported_modules(source: str) -> set[str]:
    """Every ``app.…`` module named by an import in ``source``, including imports inside functions."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == "app.core":
            # ``from app.core import _kernel`` names the module it imports.
            names.update(f"app.core.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Call) and _is_dynamic_import(node):
            names.add(node.args[0].value)
    return {name for name in names if name == "app" or name.startswith("app.")}


def wrong_way_imports(wing: str, source: str) -> list[str]:
    """The imports in a module of ``wing`` that run against the table -> advice -> value -> shape order."""
    allowed = WINGS[: WINGS.index(wing) + 1]
    bad = []
    for name in sorted(imported_modules(source)):
        if name in CORE_ROOT_MODULES:
            continue
        parts = name.split(".")
        if parts[:2] != ["app", "core"] or len(parts) < 3 or parts[2] not in allowed:
            bad.append(name)
    return bad


def test_every_core_module_lives_in_a_wing_or_is_the_root():
    loose = {m.relative_to(CORE).as_posix() for m in MODULES if m.parent == CORE}
    assert loose == {"__init__.py", "errors.py"}, loose
    assert {m.relative_to(CORE).parts[0] for m in MODULES if m.parent != CORE} == set(WINGS)


def test_the_root_imports_no_wing():
    for module in (CORE / "errors.py", CORE / "__init__.py"):
        assert not imported_modules(module.read_text(encoding="utf-8")), module


@pytest.mark.parametrize("module", [m for m in MODULES if m.parent != CORE], ids=lambda p: str(p.relative_to(CORE)))
def test_wing_imports_run_one_way(module):
    wing = module.relative_to(CORE).parts[0]
    bad = wrong_way_imports(wing, module.read_text(encoding="utf-8"))
    assert not bad, f"{module.relative_to(CORE)} ({wing}) imports {bad}, outside table -> advice -> value -> shape"


def test_the_direction_check_catches_each_wrong_arrow():
    assert wrong_way_imports("shape", "from app.core.value.scoring import score\n") == ["app.core.value.scoring"]
    assert wrong_way_imports("value", "def f():\n    import app.core.advice.discard\n") == ["app.core.advice.discard"]
    assert wrong_way_imports("advice", "from app.api.errors import ApiError\n") == ["app.api.errors"]
    assert wrong_way_imports("advice", "from app.settings import Settings\n") == ["app.settings"]
    assert wrong_way_imports("table", "from app.selfplay.runner import run_games\n") == ["app.selfplay.runner"]
    ok = "from app.core.errors import TenpaiError\nfrom app.core.shape.tiles import EAST\nfrom app.core.table.players import x\n"
    assert wrong_way_imports("table", ok) == []
    assert wrong_way_imports("shape", "from app.core import _kernel\n") == []
    assert wrong_way_imports("shape", "from app.core import value\n") == ["app.core.value"]
