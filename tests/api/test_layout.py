"""The HTTP adapter's modules import one another without a circle, and the parts of the
service import one way: the web adapter may use the core and self-play, never the reverse."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[2] / "app"


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def app_imports(path: Path) -> set[str]:
    """The ``app.…`` modules ``path`` imports, anywhere in it (``TYPE_CHECKING`` blocks and
    function bodies included: a circle hidden behind either is still a circle)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {name for name in names if name.startswith("app.")}


MODULES = {module_name(path): path for path in sorted(APP.rglob("*.py"))}
GRAPH = {name: sorted(app_imports(path) & MODULES.keys() - {name}) for name, path in MODULES.items()}


def find_circle(graph: dict[str, list[str]], within: str) -> list[str] | None:
    """One circle of imports among the modules under ``within``, or None."""
    nodes = [name for name in graph if name.startswith(within)]
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for target in graph[name]:
            # A package's __init__ names its modules in docs only; importing app.api.x imports
            # app.api first, which is no circle unless app.api's own code imports back.
            if not target.startswith(within) or name.startswith(target + "."):
                continue
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[name] = 2
        return None

    for name in nodes:
        if name not in state and (found := visit(name)):
            return found
    return None


@pytest.mark.parametrize("package", ["app.api", "app.core", "app.selfplay"])
def test_no_import_circle(package):
    circle = find_circle(GRAPH, package)
    assert circle is None, " -> ".join(circle)


def test_the_circle_check_finds_a_circle():
    graph = {"app.api.a": ["app.api.b"], "app.api.b": ["app.api.c"], "app.api.c": ["app.api.a"], "app.api.d": []}
    assert find_circle(graph, "app.api") == ["app.api.a", "app.api.b", "app.api.c", "app.api.a"]
    assert find_circle({"app.api.a": ["app.api.b"], "app.api.b": []}, "app.api") is None


@pytest.mark.parametrize("inner", ["app.core", "app.selfplay", "app.settings"])
def test_inner_parts_never_import_the_web_adapter(inner):
    bad = {name: [t for t in targets if t.startswith(("app.api", "app.main"))] for name, targets in GRAPH.items()}
    bad = {name: targets for name, targets in bad.items() if targets and name.startswith(inner)}
    assert not bad, bad
