"""Reliability (issue #26): a results folder that proves itself (records, checksums, manifest,
``--verify``), ``--force`` touching only what gotsim made, a lock per folder, engine changes
refused, damaged blocks played again, one line and the right exit status for every bad input
or failed write (a table of cases: input → exit status and first words)."""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from gotsim.cli import main
from gotsim.study import StudyOutputError, load_scenario, run_study
from gotsim.study import runner as study_runner
from gotsim.study import store as study_store
from gotsim.study.store import StudyBusyError, StudyStore, verify_folder

TINY: dict[str, Any] = {
    "name": "tiny",
    "seed": 11,
    "games": 20,
    "block_size": 10,
    "players": 5,
    "grid": {"kings_court_swap": [False, True]},
}
TINY_TOML = """\
name = "tiny"
seed = 11
games = 20
block_size = 10
players = 5

[grid]
kings_court_swap = [false, true]
"""


def tiny(**changes: Any) -> dict[str, Any]:
    return TINY | changes


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished results folder of the tiny scenario (copied by tests that damage it)."""
    out = tmp_path_factory.mktemp("reference") / "res"
    run_study(tiny(), out=out)
    return out


@pytest.fixture
def results(reference: Path, tmp_path: Path) -> Path:
    out = tmp_path / "res"
    shutil.copytree(reference, out)
    return out


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``gotsim ARGV``."""
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def block(out: Path, cell: int, number: int, table: str) -> Path:
    suffix = "json" if table == "record" else f"{table}.parquet"
    return out / "blocks" / f"cell{cell:04d}-block{number:06d}.{suffix}"


# --- the results folder ---------------------------------------------------------------------------


def test_finished_folder_verifies(reference: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(["run", "--verify", str(reference)], capsys)
    assert status == 0, err
    assert "verified: 4 blocks, 40 games" in out
    manifest = json.loads((reference / "manifest.json").read_text())
    assert [(r["cell"], r["block"], r["first_game"], r["n_games"]) for r in manifest["blocks"]] == [
        (0, 0, 0, 10),
        (0, 1, 10, 10),
        (1, 0, 0, 10),
        (1, 1, 10, 10),
    ]
    assert len(manifest["sources_digest"]) == 64 and manifest["gotsim_version"]
    assert {"games.parquet", "summary.csv", "meta.json"} <= set(manifest["files"])


@pytest.mark.parametrize(
    ("damage", "first_words"),
    [
        (lambda out: (out / "summary.csv").write_text("house,wins\n"), "summary.csv does not"),
        (lambda out: (out / "manifest.json").unlink(), "manifest.json missing"),
        (lambda out: block(out, 1, 1, "rounds").unlink(), "blocks/cell0001-block000001: cell0001"),
        (
            lambda out: shutil.copy(block(out, 0, 0, "games"), block(out, 1, 0, "games")),
            "blocks/cell0001-block000000: cell0001-block000000.games.parquet does not match",
        ),
    ],
    ids=["table-changed", "no-manifest", "rounds-missing", "block-copied"],
)
def test_verify_names_what_is_wrong(
    damage: Any, first_words: str, results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damage(results)
    status, _, err = run_cli(["run", "--verify", str(results)], capsys)
    assert status == 1
    assert err.count("\n") == 1 and first_words in err, err


def test_damaged_or_misplaced_blocks_are_played_again(results: Path, reference: Path) -> None:
    """A cell-0 block copied over a cell-1 block, a truncated and an empty block file and a
    missing rounds file: each is noticed, played again and counted; no game twice."""
    shutil.copy(block(results, 0, 0, "games"), block(results, 1, 0, "games"))
    data = block(results, 0, 1, "games").read_bytes()
    block(results, 0, 1, "games").write_bytes(data[: len(data) // 2])
    block(results, 1, 1, "games").write_bytes(b"")
    block(results, 0, 0, "rounds").unlink()
    notes: list[str] = []
    resumed = run_study(tiny(), out=results, notes=notes.append)
    assert resumed.meta["blocks_replayed"] == 4
    assert resumed.meta["games_played_this_run"] == 40
    assert notes and notes[0].startswith("4 finished block(s) failed verification")
    assert resumed.games.groupby("cell").size().tolist() == [20, 20]
    for table in ("games.parquet", "rounds.parquet", "summary.csv"):
        assert (results / table).read_bytes() == (reference / table).read_bytes(), table
    assert verify_folder(results).ok


def test_block_and_record_copied_together_are_refused(results: Path) -> None:
    for table in ("games", "rounds", "record"):
        shutil.copy(block(results, 0, 1, table), block(results, 1, 1, table))
    check = StudyStore(results, load_scenario(tiny())).check_blocks()
    assert list(check.rejected) == [(1, 1)]
    assert "record is of cell 0 block 1" in check.rejected[(1, 1)]


def test_resumed_run_does_not_replay_good_blocks(results: Path, reference: Path) -> None:
    again = run_study(tiny(), out=results)
    assert again.meta["games_played_this_run"] == 0 and again.meta["blocks_replayed"] == 0
    assert (results / "games.parquet").read_bytes() == (reference / "games.parquet").read_bytes()


def test_renamed_scenario_names_every_game_anew(results: Path) -> None:
    block(results, 1, 1, "record").unlink()  # part of the folder is played under the new name
    renamed = run_study(tiny(name="renamed"), out=results)
    assert renamed.meta["games_played_this_run"] == 10
    assert set(pd.read_parquet(results / "games.parquet")["study"]) == {"renamed"}
    assert set(pd.read_parquet(results / "rounds.parquet")["study"]) == {"renamed"}


def test_other_engine_is_refused_unless_allowed(
    results: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stamp = {"gotsim_version": "9.9", "sources_digest": "f" * 64}
    monkeypatch.setattr(study_store, "engine_stamp", lambda: stamp)
    monkeypatch.setattr(study_runner, "engine_stamp", lambda: stamp)
    before = (results / "games.parquet").read_bytes()
    with pytest.raises(StudyOutputError, match="4 finished block"):
        run_study(tiny(), out=results)
    scenario = results.parent / "tiny.toml"
    scenario.write_text(TINY_TOML)
    status, _, err = run_cli(["run", str(scenario), "--out", str(results)], capsys)
    assert status == 2 and "another gotsim engine" in err and "--allow-engine-change" in err
    assert (results / "games.parquet").read_bytes() == before
    kept = run_study(tiny(), out=results, allow_engine_change=True)
    assert kept.meta["blocks_of_another_engine"] == 4
    assert kept.meta["games_played_this_run"] == 0


# --- --force and whose folder it is ---------------------------------------------------------------


def _users_files(out: Path) -> dict[str, bytes]:
    files = {"figures/fig1.png": b"my figure", "blocks/notes.txt": b"my notes", "mine.md": b"x"}
    for name, data in files.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    return files


def test_force_refuses_a_folder_gotsim_did_not_make(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "d"
    files = _users_files(out)
    scenario = tmp_path / "tiny.toml"
    scenario.write_text(TINY_TOML)
    status, _, err = run_cli(["run", str(scenario), "--out", str(out), "--force"], capsys)
    assert status == 2
    assert "not made by gotsim run" in err and "blocks/notes.txt" in err, err
    for name, data in files.items():
        assert (out / name).read_bytes() == data
    assert sorted(p.name for p in out.iterdir()) == ["blocks", "figures", "mine.md"]


def test_force_removes_only_what_gotsim_made(results: Path) -> None:
    files = _users_files(results)
    forced = run_study(tiny(seed=12), out=results, force=True)
    for name, data in files.items():
        assert (results / name).read_bytes() == data
    assert json.loads((results / "scenario.json").read_text())["hash"] == forced.scenario.hash
    assert (forced.games["seed_key"].str.startswith("12:")).all()
    assert verify_folder(results).ok


def test_force_leaves_no_blocks_without_their_marker(results: Path) -> None:
    """Our files go before the marker: a run stopped while forcing leaves a folder that is
    still recognised as gotsim's."""
    store = StudyStore(results, load_scenario(tiny(seed=12)))
    removed = store.remove_ours()
    assert removed[-1] == "scenario.json" and not (results / "blocks").exists()


def test_folder_with_only_our_files_but_no_marker_is_ours(
    results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (results / "scenario.json").unlink()
    with pytest.raises(StudyOutputError, match=r"without their scenario\.json"):
        run_study(tiny(), out=results)
    assert run_study(tiny(), out=results, force=True).meta["games_played_this_run"] == 40


# --- two runs on one folder -------------------------------------------------------------------


@pytest.fixture
def held_lock(tmp_path: Path) -> Iterator[Path]:
    out = tmp_path / "busy"
    store = StudyStore(out, load_scenario(tiny()))
    with store.locked():
        yield out


def test_second_run_on_a_locked_folder_is_refused(
    held_lock: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(StudyBusyError, match="another gotsim run is writing"):
        run_study(tiny(), out=held_lock, force=True)
    scenario = tmp_path / "tiny.toml"
    scenario.write_text(TINY_TOML)
    status, _, err = run_cli(["run", str(scenario), "--out", str(held_lock)], capsys)
    assert status == 2 and "another gotsim run is writing" in err
    assert sorted(p.name for p in held_lock.iterdir()) == [".gotsim.lock"]


def test_lock_of_a_dead_run_does_not_block(results: Path) -> None:
    (results / ".gotsim.lock").write_text("999999999\n")  # a killed run's file, no flock held
    assert run_study(tiny(), out=results).meta["games_played_this_run"] == 0


# --- failed writes: one line, exit status 1, nothing half-written ------------------------------


def test_disk_full_is_one_line_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def full(self: pd.DataFrame, path: Any, **kw: Any) -> None:
        Path(path).write_bytes(b"PAR1 half")
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(pd.DataFrame, "to_parquet", full)
    scenario = tmp_path / "tiny.toml"
    scenario.write_text(TINY_TOML)
    status, _, err = run_cli(["run", str(scenario), "--out", str(tmp_path / "r")], capsys)
    assert status == 1
    last = err.strip().splitlines()[-1]  # (after the progress bar)
    assert last.startswith("gotsim: error: ") and last.endswith(
        "block000000.rounds.parquet: no space left on the device"
    )
    assert not list((tmp_path / "r").rglob("*.tmp"))
    assert not list((tmp_path / "r").rglob("*.parquet"))


def test_interrupt_note_goes_to_stderr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: Any, **kw: Any) -> Iterator[Any]:
        raise KeyboardInterrupt
        yield

    monkeypatch.setattr(study_runner, "_execute", interrupted)
    scenario = tmp_path / "tiny.toml"
    scenario.write_text(TINY_TOML)
    status, out, err = run_cli(["run", str(scenario), "--out", str(tmp_path / "r")], capsys)
    assert status == 130 and out == ""
    assert "interrupted: the 0 finished block(s)" in err


# --- processes ----------------------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_workers_end_with_the_run(how: signal.Signals, tmp_path: Path) -> None:
    """``gotsim run --jobs 12`` on this machine: capped at its cores with a note; killed or
    terminated, its worker processes and resource trackers end too; terminated, it says on
    stderr what it kept, without joblib's warning about cancelled tasks."""
    scenario = tmp_path / "long.toml"
    scenario.write_text(TINY_TOML.replace("games = 20", "games = 200000"))
    out = tmp_path / "out"
    command = [sys.executable, "-m", "gotsim.cli", "run", str(scenario), "--out", str(out)]
    process = subprocess.Popen(
        [*command, "--jobs", "12"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 120
    while not list(out.glob("blocks/*.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    children = _children(process.pid)
    assert len(children) >= 2
    workers = [c for c in children if "LokyProcess" in Path(f"/proc/{c}/cmdline").read_text()]
    assert len(workers) == min(12, len(os.sched_getaffinity(0)))
    process.send_signal(how)
    _, err = process.communicate(timeout=60)
    deadline = time.monotonic() + 10
    while any(_alive(c) for c in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [c for c in children if _alive(c)]
    if len(os.sched_getaffinity(0)) < 12:
        assert "gotsim: note: --jobs 12 capped at" in err
    if how == signal.SIGTERM:
        assert process.returncode == 130
        assert "gotsim: interrupted: the " in err, err
        assert "tasks which were still being processed" not in err, err
