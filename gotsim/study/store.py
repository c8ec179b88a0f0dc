"""A study's results folder: the scenario marker, block files written atomically with a record
of each (cell, games, checksums, engine), a lock for the run writing it, the final tables
assembled from the blocks in (cell, block) order, and the manifest that lets the folder prove
itself (``gotsim run --verify``).

Layout (``docs/scenarios.md``)::

    <out>/scenario.json                      the resolved scenario and its hash (written first)
    <out>/blocks/cell0000-block000000.games.parquet   one finished block's games
    <out>/blocks/cell0000-block000000.rounds.parquet  … and its rounds
    <out>/blocks/cell0000-block000000.json            … and its record (written last)
    <out>/games.parquet, rounds.parquet, summary.csv, comparisons.csv, meta.json, figures/
    <out>/manifest.json                      every block's record and every table's checksum
    <out>/.gotsim.lock                       held by the ``gotsim run`` writing the folder

A block counts as finished when its record exists and its files match the record's checksums;
anything else is played again.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from gotsim.inputs import InputError, atomic_write, check_output_folder
from gotsim.rules.ids import HOUSE_IDS
from gotsim.study.scenario import Block, Scenario

__all__ = [
    "StudyBusyError",
    "StudyOutputError",
    "StudyStore",
    "Verification",
    "atomic_write",
    "engine_stamp",
    "verify_folder",
]

MARKER = "scenario.json"
MANIFEST = "manifest.json"
LOCK = ".gotsim.lock"
BLOCKS = "blocks"
FIGURES = "figures"
TABLES = ("games.parquet", "rounds.parquet", "summary.csv", "comparisons.csv", "meta.json")
FIGURE_FILES = ("win_rates.png", "differences.png")
MANIFEST_FORMAT = 1
_BLOCK_FILE = re.compile(r"^cell\d{4,}-block\d{6,}\.(games\.parquet|rounds\.parquet|json)$")
_TMP_FILE = re.compile(r"^\..+\.\d+\.tmp$")
HOUSE_METRICS = ("castles", "power", "supply", "battles")


class StudyOutputError(ValueError):
    """The results folder belongs to another scenario or engine, or to someone else."""


class StudyBusyError(StudyOutputError):
    """Another ``gotsim run`` holds the results folder's lock."""


def engine_stamp() -> dict[str, str]:
    """The gotsim version and the digest of the sources that decide the games (engine, players,
    rules and data): blocks played under another digest may hold other games."""
    from gotsim.jit import ROOT, sources_digest
    from gotsim.study.provenance import package_versions

    digest = hashlib.sha256()
    for package in ("engine", "players", "rules", "data"):
        digest.update(f"{package}:{sources_digest(ROOT / package)}\n".encode())
    digest.update(hashlib.sha256((ROOT / "jit.py").read_bytes()).hexdigest().encode())
    return {
        "gotsim_version": str(package_versions()["gotsim"]),
        "sources_digest": digest.hexdigest(),
    }


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _write_text(path: Path, text: str) -> Path:
    return atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def _write_json(path: Path, data: Mapping[str, Any]) -> Path:
    return _write_text(path, json.dumps(data, indent=1, default=str) + "\n")


def _write_parquet(path: Path, frame: pd.DataFrame) -> Path:
    return atomic_write(path, lambda tmp: frame.to_parquet(tmp, index=False))


def _read_json(path: Path) -> dict[str, Any] | None:
    """The JSON object in ``path``, or ``None`` when it is missing, unreadable or not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def _marker_trouble(path: Path) -> str:
    """Why a results folder's marker cannot be read: missing or damaged (words after "holds
    gotsim results"); a marker the system will not let us read is the environment's failure
    (``OSError``, exit 1 from the command)."""
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return f"without their {MARKER}"
    except IsADirectoryError:
        return f"with a folder where their {MARKER} belongs"
    try:
        data = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return f"with a damaged {MARKER} (not valid JSON)"
    return f"with a damaged {MARKER} (a JSON {type(data).__name__}, not an object)"


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


def _ours(relative: Path) -> bool:
    """Whether a path inside a results folder is one ``gotsim run`` writes."""
    parts = relative.parts
    name = relative.name
    if _TMP_FILE.match(name):
        return True
    if len(parts) == 1:
        return name in (MARKER, MANIFEST, LOCK, BLOCKS, FIGURES, *TABLES)
    if len(parts) == 2 and parts[0] == BLOCKS:
        return bool(_BLOCK_FILE.match(name))
    return len(parts) == 2 and parts[0] == FIGURES and name in FIGURE_FILES


def foreign_entries(out: Path) -> list[str]:
    """The files and folders in ``out`` that ``gotsim run`` did not write, as relative paths."""
    found: list[str] = []
    if not out.is_dir():
        return found
    for entry in sorted(out.iterdir()):
        relative = Path(entry.name)
        if not _ours(relative):
            found.append(entry.name + ("/" if entry.is_dir() else ""))
        elif entry.is_dir() and entry.name in (BLOCKS, FIGURES):
            for inner in sorted(entry.iterdir()):
                if not _ours(relative / inner.name) or inner.is_dir():
                    found.append(f"{entry.name}/{inner.name}" + ("/" if inner.is_dir() else ""))
        elif entry.is_dir():
            found.append(entry.name + "/")
    return found


def _listing(entries: list[str], limit: int = 3) -> str:
    shown = ", ".join(entries[:limit])
    more = len(entries) - limit
    return shown + (f" and {more} more" if more > 0 else "")


@dataclass
class BlockCheck:
    """Which blocks of a folder can be kept, and why the others cannot."""

    valid: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    rejected: dict[tuple[int, int], str] = field(default_factory=dict)


class StudyStore:
    """The results folder of one scenario."""

    def __init__(self, out: Path, scenario: Scenario) -> None:
        self.out = Path(out)
        self.scenario = scenario
        self.blocks_dir = self.out / BLOCKS
        self._lock_fd: int | None = None

    # --- ownership -----------------------------------------------------------------------------

    def marker(self) -> dict[str, Any] | None:
        return _read_json(self.out / MARKER)

    def check(self, *, force: bool = False) -> None:
        """Refuse (``StudyOutputError``) a folder made by another scenario unless ``force``, and
        a non-empty folder holding anything ``gotsim run`` did not write (``force`` or not: it
        removes only its own files). Writes nothing."""
        try:
            check_output_folder(self.out, "--out")
        except InputError as exc:
            raise StudyOutputError(str(exc)) from None
        if not self.out.exists():
            return
        marker = self.marker()
        if marker is None:
            entries = sorted(p.name for p in self.out.iterdir() if p.name != LOCK)
            if not entries:
                return
            foreign = foreign_entries(self.out)
            if foreign:
                raise StudyOutputError(
                    f"{self.out}: folder was not made by gotsim run (it holds "
                    f"{_listing(foreign)}); gotsim never deletes files it did not write: "
                    "choose another --out"
                )
            if not force:
                raise StudyOutputError(
                    f"{self.out}: holds gotsim results {_marker_trouble(self.out / MARKER)} "
                    f"({_listing(entries)}); use --force to replace them or --out for another "
                    "folder"
                )
            return
        if not self.same_scenario() and not force:
            found = str(marker.get("hash"))
            raise StudyOutputError(
                f"{self.out}: holds results of a different scenario (hash {found[:12]}…, "
                f"this one {self.scenario.hash[:12]}…); use --force to replace them or --out "
                "for another folder"
            )

    def same_scenario(self) -> bool:
        """Whether the folder's marker names this scenario's hash."""
        marker = self.marker()
        return marker is not None and marker.get("hash") == self.scenario.hash

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the folder's lock (creating the folder): a second ``gotsim run`` on the same
        folder is refused (``StudyBusyError``) instead of mixing its files with this one's. The
        lock is the kernel's (``flock``), so a killed run never leaves it held."""
        self.out.mkdir(parents=True, exist_ok=True)
        path = self.out / LOCK
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise
            holder = path.read_text(encoding="utf-8", errors="replace").strip() or "?"
            raise StudyBusyError(
                f"{self.out}: another gotsim run is writing this folder (process {holder}); "
                "wait for it to finish or use --out for another folder"
            ) from None
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
            self._lock_fd = fd
            yield
        finally:
            self._lock_fd = None
            os.close(fd)  # releases the lock; the file stays (removing it would race)

    def prepare(self, *, force: bool = False) -> None:
        """Under the lock: check the folder again, clear our files of another scenario when
        forced (never anything else), write the marker, remove temporary files of killed runs."""
        self.check(force=force)
        if force and not self.same_scenario():
            self.remove_ours()
        self.out.mkdir(parents=True, exist_ok=True)
        marker = self.scenario.to_dict()
        if self.marker() != marker:  # the marker first: a folder holding our files names it
            _write_json(self.out / MARKER, marker)
        self.blocks_dir.mkdir(exist_ok=True)
        for folder in (self.out, self.blocks_dir, self.out / FIGURES):
            if folder.is_dir():
                for stale in folder.glob(".*.tmp"):
                    if _TMP_FILE.match(stale.name):
                        stale.unlink(missing_ok=True)

    def remove_ours(self) -> list[str]:
        """Delete what ``gotsim run`` wrote here (blocks, tables, figures, manifest), the marker
        last, so that an interruption never leaves our files without it. Files of anyone else
        stay, and so do folders holding them."""
        removed: list[str] = []
        for folder in (BLOCKS, FIGURES):
            path = self.out / folder
            if not path.is_dir():
                continue
            for entry in sorted(path.iterdir()):
                if entry.is_file() and _ours(Path(folder) / entry.name):
                    entry.unlink()
                    removed.append(f"{folder}/{entry.name}")
            with contextlib.suppress(OSError):
                path.rmdir()  # only when empty
        for name in (MANIFEST, *TABLES, MARKER):
            path = self.out / name
            if path.is_file():
                path.unlink()
                removed.append(name)
        return removed

    # --- blocks --------------------------------------------------------------------------------

    def block_path(self, cell: int, block: int, table: str) -> Path:
        return self.blocks_dir / f"cell{cell:04d}-block{block:06d}.{table}.parquet"

    def record_path(self, cell: int, block: int) -> Path:
        return self.blocks_dir / f"cell{cell:04d}-block{block:06d}.json"

    def has_block(self, cell: int, block: int) -> bool:
        return self.record_path(cell, block).exists()

    def write_block(self, b: Block, games: pd.DataFrame, rounds: pd.DataFrame) -> dict[str, Any]:
        """Write one finished block: its record goes last (it marks the block finished) and
        holds its cell, game range, engine and the checksums of its two files."""
        self.record_path(b.cell, b.block).unlink(missing_ok=True)
        record: dict[str, Any] = {
            "cell": b.cell,
            "block": b.block,
            "first_game": b.first_game,
            "n_games": b.n_games,
            "scenario_hash": self.scenario.hash,
            **engine_stamp(),
        }
        for table, frame in (("rounds", rounds), ("games", games)):
            path = _write_parquet(self.block_path(b.cell, b.block, table), frame)
            record[f"{table}_sha256"] = file_sha256(path)
        _write_json(self.record_path(b.cell, b.block), record)
        return record

    def check_blocks(self) -> BlockCheck:
        """Every block whose record matches its place (cell, block, games, scenario) and whose
        files match the record's checksums; the others, with the reason they cannot be kept."""
        out = BlockCheck()
        for b in self.scenario.blocks():
            problem, record = self._check_block(b)
            if problem is None and record is not None:
                out.valid[(b.cell, b.block)] = record
            elif problem != "missing":
                name = self.record_path(b.cell, b.block).stem
                out.rejected[(b.cell, b.block)] = f"{name}: {problem}"
        return out

    def _check_block(self, b: Block) -> tuple[str | None, dict[str, Any] | None]:
        path = self.record_path(b.cell, b.block)
        if not path.exists():
            games = self.block_path(b.cell, b.block, "games")
            return ("missing" if not games.exists() else "no record"), None
        return check_record(
            _read_json(path),
            b,
            self.scenario.hash,
            self.block_path(b.cell, b.block, "games"),
            self.block_path(b.cell, b.block, "rounds"),
        )

    def read_blocks(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """All blocks' games and rounds, in (cell, block) order whatever order they finished,
        each checked to hold its own cell's games (never a game twice); the ``study`` column is
        the scenario's name now."""
        games: list[pd.DataFrame] = []
        rounds: list[pd.DataFrame] = []
        for b in self.scenario.blocks():
            block_games = pd.read_parquet(self.block_path(b.cell, b.block, "games"))
            expected = list(range(b.first_game, b.first_game + b.n_games))
            if (block_games["cell"] != b.cell).any() or list(block_games["game"]) != expected:
                raise StudyOutputError(
                    f"{self.block_path(b.cell, b.block, 'games')}: does not hold games "
                    f"{expected[0]}–{expected[-1]} of cell {b.cell}"
                )
            games.append(block_games)
            rounds.append(pd.read_parquet(self.block_path(b.cell, b.block, "rounds")))
        all_games = _tidy(pd.concat(games, ignore_index=True))
        all_rounds = _tidy(pd.concat(rounds, ignore_index=True))
        for frame in (all_games, all_rounds):
            frame["study"] = self.scenario.name
        return all_games, all_rounds

    # --- final tables --------------------------------------------------------------------------

    def write_table(self, name: str, frame: pd.DataFrame) -> Path:
        path = self.out / name
        if name.endswith(".parquet"):
            return _write_parquet(path, frame)
        return atomic_write(path, lambda tmp: frame.to_csv(tmp, index=False))

    def write_json(self, name: str, data: Mapping[str, Any]) -> Path:
        return _write_json(self.out / name, data)

    def start_assembly(self) -> None:
        """The manifest goes first: a folder without one has not finished assembling."""
        (self.out / MANIFEST).unlink(missing_ok=True)
        for name in TABLES:  # a table of an earlier assembly (comparisons.csv dropped) is stale
            (self.out / name).unlink(missing_ok=True)

    def write_manifest(self, records: Mapping[tuple[int, int], Mapping[str, Any]]) -> Path:
        """Write ``manifest.json`` last: every block's record and every table's checksum."""
        tables: dict[str, str] = {MARKER: file_sha256(self.out / MARKER)}
        for name in TABLES:
            if (self.out / name).is_file():
                tables[name] = file_sha256(self.out / name)
        for name in FIGURE_FILES:
            if (self.out / FIGURES / name).is_file():
                tables[f"{FIGURES}/{name}"] = file_sha256(self.out / FIGURES / name)
        manifest = {
            "format": MANIFEST_FORMAT,
            "study": self.scenario.name,
            "scenario_hash": self.scenario.hash,
            **engine_stamp(),
            "cells": len(self.scenario.cells),
            "games_per_cell": self.scenario.games,
            "block_size": self.scenario.block_size,
            "blocks": [dict(records[(b.cell, b.block)]) for b in self.scenario.blocks()],
            "files": tables,
        }
        return _write_json(self.out / MANIFEST, manifest)


def check_record(
    record: Mapping[str, Any] | None,
    b: Block,
    scenario_hash: str,
    games: Path,
    rounds: Path,
) -> tuple[str | None, dict[str, Any] | None]:
    """``(None, record)`` when the block record describes block ``b`` of this scenario and the
    two files match its checksums, else ``(reason, None)``."""
    if record is None:
        return "record unreadable", None
    place = (b.cell, b.block, b.first_game, b.n_games)
    found = tuple(record.get(k) for k in ("cell", "block", "first_game", "n_games"))
    if found != place:
        return (
            f"record is of cell {found[0]} block {found[1]} (games {found[2]}, {found[3]} of "
            f"them), not of cell {b.cell} block {b.block}"
        ), None
    if record.get("scenario_hash") != scenario_hash:
        return "record is of another scenario", None
    for table, path in (("games", games), ("rounds", rounds)):
        if not path.is_file():
            return f"{path.name} is missing", None
        try:
            digest = file_sha256(path)
        except OSError as exc:
            return f"{path.name} unreadable ({exc.strerror or exc})", None
        if digest != record.get(f"{table}_sha256"):
            return f"{path.name} does not match its checksum (damaged or replaced)", None
    return None, dict(record)


# --- verifying a finished folder ----------------------------------------------------------------


@dataclass
class Verification:
    """What ``gotsim run --verify`` found: the problems (none when the folder proves itself)."""

    out: Path
    problems: list[str] = field(default_factory=list)
    blocks: int = 0
    games: int = 0
    manifest: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        if not self.ok:
            more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
            return f"{self.out}: {len(self.problems)} problem(s): {self.problems[0]}{more}"
        m = self.manifest
        return (
            f"{self.out}: verified: {self.blocks} blocks, {self.games:,} games, "
            f"{len(m.get('files', {}))} files match the manifest (scenario "
            f"{str(m.get('scenario_hash'))[:12]}…, gotsim {m.get('gotsim_version')}, sources "
            f"{str(m.get('sources_digest'))[:12]}…)"
        )


def _blocks_of(marker: Mapping[str, Any]) -> list[Block]:
    cells = marker.get("cells")
    games, size = marker.get("games"), marker.get("block_size")
    if not isinstance(cells, list) or type(games) is not int or type(size) is not int:
        raise ValueError("scenario.json: cells, games or block_size missing")
    if games < 1 or size < 1:
        raise ValueError("scenario.json: games and block_size must be positive")
    return [
        Block(c, b, b * size, min(size, games - b * size))
        for c in range(len(cells))
        for b in range(-(-games // size))
    ]


def _busy(lock: Path) -> bool:
    """Whether a run holds the folder's lock (without taking it for more than a moment)."""
    try:
        fd = os.open(lock, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def verify_folder(out: str | Path) -> Verification:
    """Check a finished results folder against its manifest: every block of the scenario is
    there once, with its own cell and games, and every file matches its checksum."""
    out = Path(out)
    result = Verification(out)
    problems = result.problems
    if not out.is_dir():
        problems.append("no such results folder")
        return result
    marker = _read_json(out / MARKER)
    if marker is None:
        problems.append(f"{MARKER} missing or unreadable: not a gotsim results folder")
        return result
    if _busy(out / LOCK):
        problems.append("a gotsim run is writing this folder now: verify it when it has finished")
        return result
    manifest = _read_json(out / MANIFEST)
    if manifest is None:
        problems.append(
            f"{MANIFEST} missing or unreadable: the run did not finish (run the scenario "
            "again to complete it)"
        )
        return result
    result.manifest = manifest
    if manifest.get("scenario_hash") != marker.get("hash"):
        problems.append(f"{MANIFEST} is of another scenario than {MARKER}")
    try:
        blocks = _blocks_of(marker)
    except ValueError as exc:
        problems.append(str(exc))
        return result
    records = {
        (r.get("cell"), r.get("block")): r
        for r in manifest.get("blocks", [])
        if isinstance(r, dict)
    }
    if len(records) != len(manifest.get("blocks", [])):
        problems.append(f"{MANIFEST}: a block is listed twice")
    for b in blocks:
        name = f"cell{b.cell:04d}-block{b.block:06d}"
        record = records.pop((b.cell, b.block), None)
        if record is None:
            problems.append(f"{MANIFEST}: block {name} is not listed")
            continue
        if record.get("sources_digest") != manifest.get("sources_digest"):
            problems.append(f"{BLOCKS}/{name}: played by another gotsim engine")
        problem, _ = check_record(
            record,
            b,
            str(marker.get("hash")),
            out / BLOCKS / f"{name}.games.parquet",
            out / BLOCKS / f"{name}.rounds.parquet",
        )
        own = _read_json(out / BLOCKS / f"{name}.json")
        if problem is None and own != record:
            # the block's own record, which a resumed run reads, must say what the manifest says
            problem = "its record is missing or damaged" if own is None else "its record differs"
            problem += f" ({name}.json; the manifest's copy is intact)"
        if problem is not None:
            problems.append(f"{BLOCKS}/{name}: {problem}")
        else:
            result.blocks += 1
    for cell, block in records:
        problems.append(f"{MANIFEST}: lists block {block} of cell {cell}, not in the scenario")
    files = manifest.get("files", {})
    for name in ("games.parquet", "rounds.parquet", "summary.csv", "meta.json"):
        if name not in files:
            problems.append(f"{MANIFEST}: {name} is not listed")
    for name, digest in files.items():
        path = out / name
        if not path.is_file():
            problems.append(f"{name} is missing")
        elif file_sha256(path) != digest:
            problems.append(f"{name} does not match its checksum (changed since the run)")
    if (out / "games.parquet").is_file() and "games.parquet" not in [
        p.split(" ")[0] for p in problems
    ]:
        try:
            games = pd.read_parquet(out / "games.parquet", columns=["cell", "game"])
        except (OSError, ValueError) as exc:
            problems.append(f"games.parquet unreadable ({exc})")
        else:
            expected = sum(b.n_games for b in blocks)
            if len(games) != expected or games.duplicated().any():
                problems.append(
                    f"games.parquet holds {len(games)} games, the scenario {expected} (each once)"
                )
            result.games = len(games)
    return result


def _tidy(frame: pd.DataFrame) -> pd.DataFrame:
    """Per-house columns as nullable integers (missing where the house is not in play), in a
    fixed column order."""
    for column in _house_columns(list(frame.columns)):
        frame[column] = frame[column].astype("Int64")
    leading = [c for c in frame.columns if not c.startswith(HOUSE_METRICS)]
    return frame[ordered_columns(list(frame.columns), leading)]
