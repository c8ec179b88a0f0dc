"""A study's results folder: the scenario marker, block files written atomically, and the final
tables assembled from the blocks in (cell, block) order.

Layout (``docs/scenarios.md``)::

    <out>/scenario.json                      the resolved scenario and its hash (written first)
    <out>/blocks/cell0000-block000000.games.parquet   one finished block's games
    <out>/blocks/cell0000-block000000.rounds.parquet  … and its rounds
    <out>/games.parquet, rounds.parquet, summary.csv, comparisons.csv, meta.json, figures/

A block counts as finished when its ``games`` file exists; the ``rounds`` file is written first.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from gotsim.rules.ids import HOUSE_IDS
from gotsim.study.scenario import Scenario

__all__ = ["StudyOutputError", "StudyStore", "atomic_write"]

MARKER = "scenario.json"
BLOCKS = "blocks"
# everything ``gotsim run`` writes in a results folder; ``--force`` removes only these
ARTIFACTS = (
    MARKER,
    BLOCKS,
    "games.parquet",
    "rounds.parquet",
    "summary.csv",
    "comparisons.csv",
    "meta.json",
    "figures",
)
HOUSE_METRICS = ("castles", "power", "supply", "battles")


class StudyOutputError(ValueError):
    """The results folder belongs to another scenario (or to something else)."""


def atomic_write(path: Path, write: Callable[[Path], object]) -> Path:
    """Call ``write(tmp)`` on a temporary name beside ``path``, flush it to disk, then rename it
    over ``path`` in one step, so readers (and a resumed run) see the old file or the new one,
    never half of one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def _write_text(path: Path, text: str) -> Path:
    return atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _write_parquet(path: Path, frame: pd.DataFrame) -> Path:
    return atomic_write(path, lambda tmp: frame.to_parquet(tmp, index=False))


def ordered_columns(columns: list[str], leading: list[str]) -> list[str]:
    """``leading`` first, then the per-house columns house by house (castles, power, supply,
    battles), then whatever else in its first-seen order, ``battles`` last."""
    per_house = [
        f"{metric}_{house}"
        for house in HOUSE_IDS
        for metric in HOUSE_METRICS
        if f"{metric}_{house}" in columns
    ]
    taken = set(leading) | set(per_house) | {"battles"}
    rest = [c for c in columns if c not in taken]
    tail = ["battles"] if "battles" in columns else []
    return [c for c in leading if c in columns] + rest + per_house + tail


def _house_columns(columns: list[str]) -> list[str]:
    return [c for c in columns if c.rsplit("_", 1)[-1] in HOUSE_IDS and c.startswith(HOUSE_METRICS)]


class StudyStore:
    """The results folder of one scenario."""

    def __init__(self, out: Path, scenario: Scenario) -> None:
        self.out = Path(out)
        self.scenario = scenario
        self.blocks_dir = self.out / BLOCKS

    # --- ownership -----------------------------------------------------------------------------

    def check(self, *, force: bool = False) -> None:
        """Refuse (``StudyOutputError``) a folder made by another scenario, or a non-empty folder
        not made by ``gotsim run``, unless ``force``. Writes nothing."""
        if self.out.exists() and not self.out.is_dir():
            raise StudyOutputError(f"{self.out}: exists and is not a folder")
        if force or not self.out.exists():
            return
        marker = self.out / MARKER
        if marker.exists():
            if not self.same_scenario():
                try:
                    found = str(json.loads(marker.read_text(encoding="utf-8")).get("hash"))
                except (OSError, ValueError, AttributeError):
                    found = "unreadable"
                raise StudyOutputError(
                    f"{self.out}: holds results of a different scenario (hash {found[:12]}…, "
                    f"this one {self.scenario.hash[:12]}…); use --force to replace them or --out "
                    "for another folder"
                )
        elif any(self.out.iterdir()):
            raise StudyOutputError(
                f"{self.out}: folder is not empty and was not made by gotsim run; use --force "
                "or --out for another folder"
            )

    def same_scenario(self) -> bool:
        """Whether the folder's marker names this scenario's hash."""
        try:
            marker = json.loads((self.out / MARKER).read_text(encoding="utf-8"))
            return bool(marker.get("hash") == self.scenario.hash)
        except (OSError, ValueError, AttributeError):
            return False

    def prepare(self, *, force: bool = False) -> None:
        """Create the folder, clear another scenario's results when forced, write the marker."""
        self.check(force=force)
        same = self.same_scenario()
        if force and not same:
            for name in ARTIFACTS:
                target = self.out / name
                if target.is_dir():
                    shutil.rmtree(target)
                elif target.exists():
                    target.unlink()
        self.out.mkdir(parents=True, exist_ok=True)
        if not same:  # the marker first: a folder holding anything of ours names its scenario
            _write_text(self.out / MARKER, json.dumps(self.scenario.to_dict(), indent=1) + "\n")
        self.blocks_dir.mkdir(exist_ok=True)
        for folder in (self.out, self.blocks_dir):
            for stale in folder.glob(".*.tmp"):  # left by a killed run
                stale.unlink(missing_ok=True)

    # --- blocks --------------------------------------------------------------------------------

    def block_path(self, cell: int, block: int, table: str) -> Path:
        return self.blocks_dir / f"cell{cell:04d}-block{block:06d}.{table}.parquet"

    def has_block(self, cell: int, block: int) -> bool:
        return self.block_path(cell, block, "games").exists()

    def write_block(self, cell: int, block: int, games: pd.DataFrame, rounds: pd.DataFrame) -> None:
        """Write one finished block: rounds first, then games (the block's completion mark)."""
        _write_parquet(self.block_path(cell, block, "rounds"), rounds)
        _write_parquet(self.block_path(cell, block, "games"), games)

    def read_blocks(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """All blocks' games and rounds, in (cell, block) order whatever order they finished."""
        games: list[pd.DataFrame] = []
        rounds: list[pd.DataFrame] = []
        for b in self.scenario.blocks():
            games.append(pd.read_parquet(self.block_path(b.cell, b.block, "games")))
            rounds.append(pd.read_parquet(self.block_path(b.cell, b.block, "rounds")))
        return _tidy(pd.concat(games, ignore_index=True)), _tidy(
            pd.concat(rounds, ignore_index=True)
        )

    # --- final tables --------------------------------------------------------------------------

    def write_table(self, name: str, frame: pd.DataFrame) -> Path:
        path = self.out / name
        if name.endswith(".parquet"):
            return _write_parquet(path, frame)
        return atomic_write(path, lambda tmp: frame.to_csv(tmp, index=False))

    def write_json(self, name: str, data: Mapping[str, Any]) -> Path:
        return _write_text(self.out / name, json.dumps(data, indent=1, default=str) + "\n")


def _tidy(frame: pd.DataFrame) -> pd.DataFrame:
    """Per-house columns as nullable integers (missing where the house is not in play), in a
    fixed column order."""
    for column in _house_columns(list(frame.columns)):
        frame[column] = frame[column].astype("Int64")
    leading = [c for c in frame.columns if not c.startswith(HOUSE_METRICS)]
    return frame[ordered_columns(list(frame.columns), leading)]
