"""The curated public names: ``gotsim.__all__`` and ``gotsim.engine.__all__`` each resolve, the
lazily loaded names are the objects their modules define, and an error a user catches has one
class in the whole package."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import gotsim
import gotsim.engine

PACKAGE = Path(gotsim.__file__).resolve().parent


@pytest.mark.parametrize("package", [gotsim, gotsim.engine], ids=["gotsim", "gotsim.engine"])
def test_every_public_name_resolves(package) -> None:
    for name in package.__all__:
        assert getattr(package, name) is not None, name
    assert set(package.__all__) <= set(dir(package))


def test_public_names_are_their_modules_objects() -> None:
    from gotsim.engine.game import IllegalActionError
    from gotsim.engine.position import Position, load_position
    from gotsim.odds.calculator import OddsResult
    from gotsim.players.policy import HeuristicPolicy

    assert gotsim.IllegalActionError is IllegalActionError is gotsim.engine.IllegalActionError
    assert gotsim.Position is Position and gotsim.load_position is load_position
    assert gotsim.OddsResult is OddsResult and gotsim.HeuristicPolicy is HeuristicPolicy
    for name in ("HeuristicPolicy", "Game", "Position", "load_position", "OddsResult"):
        assert name in gotsim.__all__


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'Simulate'"):
        gotsim.Simulate  # noqa: B018
    with pytest.raises(AttributeError, match=r"gotsim\.engine"):
        gotsim.engine.simulate  # noqa: B018


def _classes_named(name: str) -> list[str]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [
            str(path.relative_to(PACKAGE))
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and node.name == name
        ]
    return found


@pytest.mark.parametrize("name", ["IllegalActionError", "PositionError", "BattleSpecError"])
def test_one_class_per_error(name: str) -> None:
    assert len(_classes_named(name)) == 1, _classes_named(name)


def test_the_public_modules_load_lazily() -> None:
    """``import gotsim`` alone does not import the engine (the command starts at once)."""
    code = "import sys, gotsim; print('gotsim.engine.machine' in sys.modules)"

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    assert importlib.import_module("gotsim.engine").__name__ == "gotsim.engine"
