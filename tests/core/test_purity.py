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
# service around the core.  The rule families (app/core/families/) are a fifth layer outside them.
WINGS = ("shape", "value", "advice", "table")
CORE_ROOT_MODULES = frozenset({"app.core.errors", "app.core._kernel"})
FAMILIES = CORE / "families"
REGISTRY = FAMILIES / "registry.py"
WING_MODULES = [m for m in MODULES if m.parent != CORE and m.relative_to(CORE).parts[0] in WINGS]
FAMILY_MODULES = [m for m in MODULES if FAMILIES in m.parents]
#: The family folders (one package each).
FAMILY_NAMES = sorted(folder.name for folder in FAMILIES.iterdir() if (folder / "__init__.py").is_file())


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
    assert {m.relative_to(CORE).parts[0] for m in MODULES if m.parent != CORE} == {*WINGS, "families"}


def test_the_root_imports_no_wing():
    for module in (CORE / "errors.py", CORE / "__init__.py"):
        assert not imported_modules(module.read_text(encoding="utf-8")), module


@pytest.mark.parametrize("module", WING_MODULES, ids=lambda p: str(p.relative_to(CORE)))
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


# --- the rule families: the outermost layer -------------------------------------------------


def family_import_faults(family: str | None, source: str) -> list[str]:
    """The imports in a module of ``family`` (None: the families package itself, outside any one
    family's folder) that reach past what a family may use: any wing, the core's root and its own
    folder.  Never another family, nor the service around the core."""
    bad = []
    for name in sorted(imported_modules(source)):
        parts = name.split(".")
        if name in CORE_ROOT_MODULES or (parts[:2] == ["app", "core"] and len(parts) > 2 and parts[2] in WINGS):
            continue
        if family is not None and parts[:4] == ["app", "core", "families", family]:
            continue
        bad.append(name)
    return bad


def _family_of(module: Path) -> str | None:
    parts = module.relative_to(FAMILIES).parts
    return parts[0] if len(parts) > 1 else None


def test_there_are_families_and_a_registry():
    assert {"riichi", "mcr", "qiqihar", "sichuan", "chinese"} <= set(FAMILY_NAMES)
    assert REGISTRY.is_file()


@pytest.mark.parametrize("module", WING_MODULES, ids=lambda p: str(p.relative_to(CORE)))
def test_no_wing_imports_a_family(module):
    named = imported_modules(module.read_text(encoding="utf-8"))
    assert not {name for name in named if name.startswith("app.core.families")}, module.relative_to(CORE)


def test_the_machine_imports_no_family_module():
    named = imported_modules((CORE / "table" / "machine.py").read_text(encoding="utf-8"))
    assert not {name for name in named if name.startswith("app.core.families")}
    # What it knows of families is the interface in its own wing.
    assert "app.core.table.family" in named


@pytest.mark.parametrize("module", [m for m in FAMILY_MODULES if m != REGISTRY], ids=lambda p: str(p.relative_to(CORE)))
def test_a_family_imports_wings_the_root_and_its_own_folder_only(module):
    bad = family_import_faults(_family_of(module), module.read_text(encoding="utf-8"))
    assert not bad, f"{module.relative_to(CORE)} imports {bad}: another family, the registry or the service"


def test_only_the_registry_imports_the_families_and_it_lists_every_one():
    named = imported_modules(REGISTRY.read_text(encoding="utf-8"))
    listed = {name.split(".")[3] for name in named if name.startswith("app.core.families.") and name.count(".") >= 3}
    assert listed == set(FAMILY_NAMES)
    assert family_import_faults(None, REGISTRY.read_text(encoding="utf-8")) == sorted(
        name for name in named if name.startswith("app.core.families.")
    )


def test_the_family_check_catches_each_wrong_import():
    assert family_import_faults("sichuan", "from app.core.families.riichi import FAMILY\n") == [
        "app.core.families.riichi"
    ]
    assert family_import_faults("mcr", "def f():\n    import app.core.families.registry\n") == [
        "app.core.families.registry"
    ]
    assert family_import_faults("mcr", "from app.api.errors import ApiError\n") == ["app.api.errors"]
    ok = (
        "from app.core.errors import TenpaiError\nfrom app.core.table.machine import Win\n"
        "from app.core.families.mcr.table import FAMILY\nfrom app.core import _kernel\n"
    )
    assert family_import_faults("mcr", ok) == []
    assert wrong_way_imports("table", "from app.core.families.registry import family_of\n") == [
        "app.core.families.registry"
    ]


APP = CORE.parent
OUTSIDE_FAMILIES = [m for m in sorted(APP.rglob("*.py")) if FAMILIES not in m.parents]


@pytest.mark.parametrize("module", OUTSIDE_FAMILIES, ids=lambda p: str(p.relative_to(APP)))
def test_outside_the_families_only_the_registry_is_imported(module):
    """Routes, self-play, hosting and the bot get a family from the registry, never by its module."""
    named = imported_modules(module.read_text(encoding="utf-8"))
    reached = {name for name in named if name.startswith("app.core.families")}
    assert reached <= {"app.core.families.registry"}, f"{module.relative_to(APP)} imports {sorted(reached)}"
