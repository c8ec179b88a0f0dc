"""Running a study: every (cell, block) of a scenario played as one compiled batch, in this
process, on local worker processes (joblib/loky) or on a dask cluster, then assembled into tidy
tables with a summary, comparisons, provenance and figures.

Game ``i`` of every cell is seeded by ``SeedSequence(seed, spawn_key=(i,))`` and block ``b`` holds
games ``b * block_size …``: a block's seeds depend on the scenario seed and the block index only,
never on the cell, so cells that differ by a toggle see the same draws (common random numbers),
and the results do not depend on ``jobs``, the backend or the order blocks finish in.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from gotsim.rules.ids import House
from gotsim.study.scenario import MODULES, Block, Cell, Scenario, load_scenario
from gotsim.study.store import StudyOutputError, StudyStore, engine_stamp

__all__ = [
    "BlockResult",
    "BlockTask",
    "StudyBackendError",
    "StudyInterrupted",
    "StudyResult",
    "capped_jobs",
    "play_block",
    "run_study",
]

LOCAL_DASK_WORKERS = 2


class StudyBackendError(RuntimeError):
    """The parallel backend cannot be used (dask missing, scheduler unreachable)."""


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) while blocks were being played; the message says what is kept."""


@dataclass(frozen=True)
class BlockTask:
    """Everything a worker needs to play one block; small and picklable."""

    cell: int
    block: int
    first_game: int
    n_games: int
    edition: str
    players: int
    tides_of_battle: bool
    kings_court_swap: bool
    policies: str  # the cell's policy spec as JSON
    seed: int
    position: str | None = None  # the start position as JSON
    modules: tuple[str, ...] = ()  # modules switched on (A Clash of Kings; ADwD house cards)
    expansion: str | None = None  # ``rules.variants.EXPANSIONS`` name; None: the base game
    parent_pid: int | None = None  # a local worker's study process (workers exit without it)

    @property
    def variants(self) -> dict[str, bool]:
        return {
            "tides_of_battle": self.tides_of_battle,
            "kings_court_swap": self.kings_court_swap,
            # every module named, off as well as on: an expansion's own cards stay off when the
            # cell switched them off
            **{module: module in self.modules for module in MODULES},
        }


@dataclass(frozen=True)
class BlockResult:
    """One finished block: its games and rounds, as the engine's frames."""

    cell: int
    block: int
    games: pd.DataFrame
    rounds: pd.DataFrame


@dataclass
class StudyResult:
    """A finished study: the tables written to ``out`` (also when they were already there)."""

    scenario: Scenario
    out: Path
    games: pd.DataFrame
    rounds: pd.DataFrame
    summary: pd.DataFrame
    comparisons: pd.DataFrame | None
    meta: dict[str, Any]


# --- playing a block (runs in workers) ---------------------------------------------------------


@lru_cache(maxsize=4)
def _position_start(text: str) -> Any:
    """The position, checked for what an engine record can hold."""
    from gotsim.engine.convert import resumable_position

    return resumable_position(json.loads(text))


def _play_from_position(task: BlockTask) -> tuple[np.recarray, int]:
    """Games ``first_game …`` from the start position, seeded as ``play_from_position`` seeds
    them (that function has no ``first_game`` yet, so a block builds its own records)."""
    from gotsim.engine.convert import position_records
    from gotsim.engine.tables import rules_table
    from gotsim.play.runner import threads
    from gotsim.play.simulate import EngineIncompleteError, play_batch

    assert task.position is not None
    position = _position_start(task.position)
    seeds = [
        np.random.SeedSequence(task.seed, spawn_key=(i,))
        for i in range(task.first_game, task.first_game + task.n_games)
    ]
    # each game's decks (Westeros, wildlings, deck IV's undrawn cards, the Iron Bank's loan deck)
    # from its own seed, as play_from_position has them
    games = position_records(position, seeds)
    rules = rules_table(
        position.edition,
        position.players,
        task.variants | {"kings_court_swap": False},
        task.expansion,
    )
    with threads(1):
        play_batch(games, rules, json.loads(task.policies))
    stuck = np.flatnonzero(games.done == 0)
    if stuck.size:
        raise EngineIncompleteError(
            f"game {task.first_game + int(stuck[0])} from the position did not finish"
        )
    return games, int(position.round)


_watching: list[int] = []


def _die_with_parent(parent: int | None) -> None:
    """In a local worker process: exit as soon as the ``gotsim run`` that started it is gone
    (killed by SIGKILL, say), instead of playing on for nobody."""
    if _watching or parent is None or parent == os.getpid() or os.getppid() != parent:
        return  # the study's own process, not its child, or watching already
    _watching.append(parent)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="gotsim-parent-watch", daemon=True).start()


def play_block(task: BlockTask) -> BlockResult:
    """Play one block of one cell (one thread) and return its games and rounds frames."""
    _die_with_parent(task.parent_pid)
    from gotsim.play.simulate import games_frame, play_games, rounds_frame

    if task.position is None:
        records = play_games(
            task.n_games,
            players=task.players,
            edition=task.edition,
            variants=task.variants,
            seed=task.seed,
            first_game=task.first_game,
            n_jobs=1,
            policies=json.loads(task.policies),
            expansion=task.expansion,
        )
        first_round = 1
    else:
        records, first_round = _play_from_position(task)
    games = games_frame(
        records,
        players=task.players,
        edition=task.edition,
        seed=task.seed,
        first_game=task.first_game,
        expansion=task.expansion,
        variants=task.variants,
    )
    rounds = rounds_frame(records, first_game=task.first_game)
    if first_round > 1:  # rounds before the position's have no history
        rounds = rounds[rounds["round"] >= first_round].reset_index(drop=True)
    return BlockResult(task.cell, task.block, games, rounds)


# --- backends ----------------------------------------------------------------------------------


def _tasks(scenario: Scenario, blocks: Iterable[Block]) -> list[BlockTask]:
    position = None
    if scenario.position is not None:
        position = json.dumps(scenario.position, sort_keys=True)
    out = []
    for b in blocks:
        cell = scenario.cells[b.cell]
        out.append(
            BlockTask(
                cell=b.cell,
                block=b.block,
                first_game=b.first_game,
                n_games=b.n_games,
                edition=cell.edition,
                players=cell.players,
                tides_of_battle=cell.tides_of_battle,
                kings_court_swap=cell.kings_court_swap,
                policies=json.dumps(cell.policies, sort_keys=True),
                seed=scenario.seed,
                position=position,
                modules=cell.modules,
                expansion=cell.expansion,
            )
        )
    return out


@contextlib.contextmanager
def _dask(scheduler: str | None, local: bool) -> Iterator[str]:
    """A ``distributed.Client`` (a loopback ``LocalCluster`` when ``local``) as joblib's
    backend for the duration; yields a description for ``meta.json``."""
    import joblib

    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise StudyBackendError(
            "dask.distributed is not installed: pip install 'gotsim[dask]'"
        ) from None
    with contextlib.ExitStack() as stack:
        if local:
            cluster = stack.enter_context(
                LocalCluster(
                    n_workers=LOCAL_DASK_WORKERS,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                )
            )
            stack.enter_context(Client(cluster))
            where = f"dask LocalCluster ({LOCAL_DASK_WORKERS} workers, loopback)"
        else:
            try:
                stack.enter_context(Client(scheduler, timeout="10s"))
            except (OSError, TimeoutError, ValueError) as exc:
                raise StudyBackendError(
                    f"--scheduler {scheduler}: cannot reach the dask scheduler ({exc})"
                ) from None
            where = f"dask scheduler {scheduler}"
        stack.enter_context(joblib.parallel_config(backend="dask"))
        yield where


def _execute(tasks: list[BlockTask], *, jobs: int, dask: bool = False) -> Iterator[BlockResult]:
    """Play the blocks, yielding each as it finishes (in any order): in this process when
    ``jobs == 1``, else through joblib (loky processes, or dask when ``dask``)."""
    if jobs == 1 and not dask:
        for task in tasks:
            yield play_block(task)
        return
    import joblib

    if tasks:
        # one game here first: if the engine's compiled cache is stale, this process compiles
        # and saves it once, instead of every worker compiling the same code at the same time
        play_block(replace(tasks[0], n_games=1))

    if not dask:  # local workers watch this process
        tasks = [replace(task, parent_pid=os.getpid()) for task in tasks]
    # on dask the cluster's size sets the parallelism (n_jobs=-1: all its worker threads)
    runner = joblib.Parallel(
        n_jobs=-1 if dask else jobs, return_as="generator_unordered", batch_size=1
    )
    with warnings.catch_warnings():  # stopped early (Ctrl-C): the note says what is kept
        warnings.filterwarnings("ignore", ".*tasks which were still being processed")
        yield from runner(joblib.delayed(play_block)(task) for task in tasks)


# --- assembling --------------------------------------------------------------------------------


def _cell_columns(scenario: Scenario, cell: int, block: int) -> dict[str, Any]:
    columns: dict[str, Any] = {"study": scenario.name, "cell": cell, "block": block}
    columns |= scenario.cells[cell].params()
    if scenario.start_position is not None:
        columns["start_position"] = scenario.start_position
    return columns


def _with_cell(frame: pd.DataFrame, columns: Mapping[str, Any]) -> pd.DataFrame:
    """The frame with the cell's parameters in front (the engine's own ``players`` and
    ``edition`` columns replaced by the same values)."""
    rest = frame.drop(columns=[c for c in columns if c in frame.columns])
    head = pd.DataFrame({k: [v] * len(frame) for k, v in columns.items()}, index=frame.index)
    return pd.concat([head, rest], axis=1)


def _summary(scenario: Scenario, games: pd.DataFrame) -> pd.DataFrame:
    """Win rates per cell and house; with several player models (a ``policies`` axis), whether
    the models agree that each house is above or below its fair share."""
    from gotsim.analysis.stats import MODEL_COLUMN, fair_share_agreement, win_rates

    by = ["cell", *[c for c in _cell_columns(scenario, 0, 0) if c not in ("study", "block")]]
    summary = win_rates(games, by=by)
    if MODEL_COLUMN in scenario.axes and "players" in summary.columns:
        summary = fair_share_agreement(summary)
    return summary


def _comparisons(scenario: Scenario, games: pd.DataFrame) -> pd.DataFrame | None:
    from gotsim.analysis.stats import compare

    spec = scenario.compare
    if spec is None:
        return None
    within = [a for a in scenario.axes if a != spec.by]
    frames = [
        compare(games, house=house, by=spec.by, baseline=spec.baseline, within=within)
        for house in spec.houses
    ]
    return pd.concat(frames, ignore_index=True)


def _players(scenario: Scenario, summary: pd.DataFrame) -> list[dict[str, Any]]:
    """What each house of the study played: its policy, where its parameter set comes from and,
    for the heuristic and the search player, the value of every parameter (and the search's
    knobs), one entry per distinct line-up with the cells it plays. What ``"heuristic"`` means
    depends on the edition, the player count and gotsim's version, so a study says which
    players answered it."""
    from gotsim.players.params import PARAM_NAMES, RANDOM, SEARCH, SEARCH_KNOBS, policy_table

    entries: dict[str, dict[str, Any]] = {}
    for cell in scenario.cells:
        kinds, rows = policy_table(cell.policies, cell.edition, cell.players, cell.expansion)
        default = cell.policies.get("default", {"kind": "random"})
        houses: dict[str, Any] = {}
        for house_id in summary.loc[summary["cell"] == cell.index, "house"].unique():
            h = House[str(house_id).upper()]
            spec = cell.policies.get(h.id, default)
            played: dict[str, Any] = {"kind": str(spec.get("kind", "heuristic"))}
            if int(kinds[h]) != RANDOM:
                own = sorted(k for k in spec if k != "kind" and k not in SEARCH_KNOBS)
                played["set"] = _set_source(played["kind"], h, cell, own)
                values = zip(PARAM_NAMES, rows[h], strict=True)
                played["params"] = {n: round(float(v), 4) for n, v in values}
            if int(kinds[h]) == SEARCH:
                played["knobs"] = {k: spec[k] for k in SEARCH_KNOBS if k in spec}
            houses[h.id] = played
        line_up = {"edition": cell.edition, "players": cell.players, "houses": houses}
        key = json.dumps(line_up, sort_keys=True)
        entries.setdefault(key, {"cells": [], **line_up})["cells"].append(cell.index)
    return list(entries.values())


def _set_source(kind: str, house: House, cell: Cell, own: list[str]) -> str:
    """Where a house's parameter set comes from, in words (``docs/players.md``)."""
    from gotsim.players.params import defaults_source

    if kind == "heuristic_v1":
        source = "the first heuristic's set"
    else:
        source = defaults_source(house, cell.edition, cell.players, cell.expansion)
    return source + (f", the scenario's {', '.join(own)}" if own else "")


def _meta(
    scenario: Scenario, *, backend: str, jobs: int, seconds: float, played: int
) -> dict[str, Any]:
    from gotsim.study.provenance import git_sha, package_versions

    return {
        "study": scenario.name,
        "scenario_file": scenario.source,
        "scenario_hash": scenario.hash,
        "root_entropy": scenario.seed,
        "seeding": "game i of every cell: SeedSequence(root_entropy, spawn_key=(i,))",
        "cells": len(scenario.cells),
        "games_per_cell": scenario.games,
        "block_size": scenario.block_size,
        "blocks": len(scenario.cells) * scenario.n_blocks,
        "quick": scenario.quick,
        "gotsim_version": package_versions()["gotsim"],
        "git_sha": git_sha(),
        "packages": package_versions(),
        "backend": backend,
        "jobs": jobs,
        "games_played_this_run": played,
        "seconds_this_run": round(seconds, 3),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


COMPILE_NOTE = "first run only, kept in numba's cache"


def _announce_compile(scenario: Scenario, blocks: list[Block]) -> bool:
    """Say once on stderr which batch kernels the blocks will compile before their first game;
    returns whether any will."""
    from gotsim.play.simulate import announce_compile

    specs = {json.dumps(scenario.cells[b.cell].policies, sort_keys=True) for b in blocks}
    return any([announce_compile(json.loads(spec)) for spec in sorted(specs)])


def run_study(
    path_or_dict: str | Path | Mapping[str, Any] | Scenario,
    *,
    jobs: int = 1,
    out: str | Path | None = None,
    scheduler: str | None = None,
    dask_local: bool = False,
    quick: bool = False,
    force: bool = False,
    progress: bool = False,
    allow_engine_change: bool = False,
    notes: Callable[[str], None] | None = None,
) -> StudyResult:
    """Run a study scenario (TOML path, dict or ``Scenario``) into ``out`` (default
    ``results/<name>/``, or ``results/<name>-quick/`` with ``quick``) and return its tables.

    Finished blocks already in ``out`` are kept when their records and checksums hold, so an
    interrupted study resumes; damaged or misplaced blocks are played again (``notes`` hears
    how many). A folder of a different scenario is refused (``StudyOutputError``) unless
    ``force``, which deletes only what gotsim wrote there; blocks played by another version of
    the engine are refused unless ``allow_engine_change``; a folder another run is writing is
    refused (``StudyBusyError``). ``jobs`` worker processes (joblib/loky, at most one per core)
    play blocks when ``jobs > 1``; ``scheduler`` (``tcp://host:port``) or ``dask_local`` send
    them to dask instead. Results are identical whichever is used.

    Raises ``ScenarioError`` for a bad scenario, before anything is written.
    """
    from tqdm import tqdm

    from gotsim.study.figures import save_figures

    scenario = path_or_dict if isinstance(path_or_dict, Scenario) else load_scenario(path_or_dict)
    if quick and not scenario.quick:
        scenario = scenario.with_quick()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs: must be a whole number ≥ 1, got {jobs!r}")
    if scheduler is not None and dask_local:
        raise ValueError("scheduler: give a scheduler address or dask_local, not both")
    if scheduler is not None and not scheduler.startswith(("tcp://", "tls://")):
        raise ValueError(f"scheduler: expected tcp://HOST:PORT, got {scheduler!r}")
    say = notes if notes is not None else (lambda _text: None)
    folder = f"{scenario.name}-quick" if scenario.quick else scenario.name
    store = StudyStore(Path(out) if out is not None else Path("results") / folder, scenario)
    store.check(force=force)

    # a cluster only when there is something to play (a finished folder assembles without it)
    kept = store.same_scenario() and not force
    use_dask = (scheduler is not None or dask_local) and not (
        kept and all(store.has_block(b.cell, b.block) for b in scenario.blocks())
    )
    with contextlib.ExitStack() as stack:
        if use_dask:  # connect before writing anything: an unreachable scheduler writes nothing
            backend = stack.enter_context(_dask(scheduler, dask_local))
        stack.enter_context(store.locked())
        store.prepare(force=force)
        found = store.check_blocks()
        engine = engine_stamp()
        other = sorted(
            key
            for key, record in found.valid.items()
            if record.get("sources_digest") != engine["sources_digest"]
        )
        forced_again = 0
        if other and force and not allow_engine_change:
            # forced: every block of another engine is played again (its files replaced)
            for key in other:
                del found.valid[key]
            forced_again = len(other)
            say(
                f"{forced_again} finished block(s) played by another gotsim engine are played again"
            )
            other = []
        if other and not allow_engine_change:
            cell, block = other[0]
            record = found.valid[other[0]]
            raise StudyOutputError(
                f"{store.out}: {len(other)} finished block(s) were played by another gotsim "
                f"engine (block {block} of cell {cell}: gotsim {record.get('gotsim_version')}, "
                f"sources {str(record.get('sources_digest'))[:12]}…; now "
                f"{engine['sources_digest'][:12]}…); use --force to play them all again or "
                "--allow-engine-change to keep them"
            )
        if found.rejected:
            first = next(iter(found.rejected.values()))
            say(
                f"{len(found.rejected)} finished block(s) failed verification and are played "
                f"again ({first})"
            )
        records: dict[tuple[int, int], dict[str, Any]] = dict(found.valid)
        todo = [b for b in scenario.blocks() if (b.cell, b.block) not in records]
        by_key = {(b.cell, b.block): b for b in todo}
        if not use_dask:
            jobs_used = capped_jobs(jobs)
            if jobs_used < jobs:
                say(f"--jobs {jobs} capped at {jobs_used}, the cores this machine has")
            parallel = jobs_used > 1 and bool(todo)
            backend = f"joblib loky, {jobs_used} processes" if parallel else "in process"
        else:
            jobs_used = jobs
        total = len(scenario.cells) * scenario.games
        remaining = sum(b.n_games for b in todo)
        start = time.perf_counter()
        compiling = _announce_compile(scenario, todo) and progress
        bar = stack.enter_context(
            tqdm(
                total=total,
                initial=total - remaining,
                unit="game",
                desc=scenario.name,
                disable=not progress,
                dynamic_ncols=True,
                # minutes without a finished block: say why rather than show 0/N
                bar_format=(
                    "{desc}: compiling the kernels first (" + COMPILE_NOTE + ")"
                    if compiling
                    else None
                ),
            )
        )
        try:
            if todo:
                for done in _execute(_tasks(scenario, todo), jobs=jobs_used, dask=use_dask):
                    if compiling:
                        compiling = False
                        bar.bar_format = None
                    columns = _cell_columns(scenario, done.cell, done.block)
                    records[(done.cell, done.block)] = store.write_block(
                        by_key[(done.cell, done.block)],
                        _with_cell(done.games, columns),
                        _with_cell(done.rounds, columns),
                    )
                    bar.update(len(done.games))
        except KeyboardInterrupt:
            raise StudyInterrupted(
                f"interrupted: the {len(records)} finished block(s) in {store.out} are kept; "
                "run the same command to resume"
            ) from None
        seconds = time.perf_counter() - start

        store.start_assembly()
        games, rounds = store.read_blocks()
        summary = _summary(scenario, games)
        comparisons = _comparisons(scenario, games)
        meta = _meta(scenario, backend=backend, jobs=jobs_used, seconds=seconds, played=remaining)
        meta |= {
            "jobs_requested": jobs,
            "sources_digest": engine["sources_digest"],
            "blocks_replayed": len(found.rejected) + forced_again,
            "blocks_of_another_engine": len(other),
            "players": _players(scenario, summary),
        }
        store.write_table("games.parquet", games)
        store.write_table("rounds.parquet", rounds)
        store.write_table("summary.csv", summary)
        if comparisons is not None:
            store.write_table("comparisons.csv", comparisons)
        save_figures(store.out / "figures", scenario, summary, comparisons)
        store.write_json("meta.json", meta)
        store.write_manifest(records)
    return StudyResult(scenario, store.out, games, rounds, summary, comparisons, meta)


def capped_jobs(jobs: int) -> int:
    """``jobs``, but at most the cores this process may use (more processes than cores only
    share them, each holding its own compiled engine in memory)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(jobs, cores))
