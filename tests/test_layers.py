"""gotsim's layers point down (``docs/architecture.md``): each module imports only from its own
layer or those below it, and no chain of imports — at the top of a module or inside a function —
comes back to where it started.

The layers, lowest first: ``data`` → ``rules`` → ``engine`` → ``players`` → ``play`` (batch
loops) → ``odds`` → ``analysis`` → ``study`` → ``api`` and the package's public names →
``cli``. ``jit``, ``lazy`` and ``inputs`` serve every layer and import none.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "gotsim"

LAYERS = {
    "jit": 0,
    "lazy": 0,
    "inputs": 0,
    "data": 1,
    "rules": 2,
    "engine": 3,
    "players": 4,
    "play": 5,
    "odds": 6,
    "analysis": 7,
    "study": 8,
    "api": 9,
    "": 9,  # the package itself: its public names, loaded on first use
    "cli": 10,
}


def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> int:
    """The layer of a gotsim module (``gotsim.engine.combat`` → the engine's)."""
    top = module.split(".")[1] if "." in module else ""
    if top not in LAYERS:
        raise AssertionError(f"{module}: its folder has no layer in docs/architecture.md")
    return LAYERS[top]


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node that runs: blocks under ``if TYPE_CHECKING:`` are for the type checker only."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in [child, *_runtime_nodes(child)])
            continue
        yield node
        yield from _runtime_nodes(node)


def imports(module: str) -> set[str]:
    """The gotsim modules ``module`` imports when it runs (anywhere in it). ``from pkg import
    sub`` names the submodule, not the package: the package is already being imported."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names if alias.name in MODULES)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{alias.name}" for alias in node.names}
            found = subs & set(MODULES)
            out.update(found)
            if node.module in MODULES and len(found) < len(subs):
                out.add(node.module)
    out.discard(module)
    return out


GRAPH = {module: imports(module) for module in MODULES}


def test_every_folder_has_a_layer() -> None:
    for module in MODULES:
        layer(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module: str) -> None:
    upward = sorted(t for t in GRAPH[module] if layer(t) > layer(module))
    assert not upward, f"{module} (layer {layer(module)}) imports from above: {upward}"


def test_the_engine_knows_no_player() -> None:
    engine = [m for m in MODULES if m.startswith("gotsim.engine")]
    for module in engine:
        assert not {t for t in GRAPH[module] if t.startswith("gotsim.players")}, module


def _cycle() -> list[str] | None:
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(GRAPH[module]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(MODULES):
        if module not in state and (found := visit(module)):
            return found
    return None


def test_no_import_cycle() -> None:
    """Function-local imports included: a local import that closes a loop only hides it."""
    cycle = _cycle()
    assert cycle is None, " → ".join(cycle or [])


def test_the_check_sees_a_leak(tmp_path: Path) -> None:
    """The walk finds imports inside functions and skips only ``TYPE_CHECKING`` blocks."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from gotsim.study import runner\n"
        "def f():\n    from gotsim.players import heuristic\n"
    )
    tree = ast.parse(source)
    found = [ast.unparse(n) for n in _runtime_nodes(tree) if isinstance(n, ast.ImportFrom)]
    assert found == ["from typing import TYPE_CHECKING", "from gotsim.players import heuristic"]
