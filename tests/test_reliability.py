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

import numpy as np
import pandas as pd
import pytest

import gotsim
from gotsim.cli import main
from gotsim.study import ScenarioError, StudyOutputError, load_scenario, run_study
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
        (
            lambda out: block(out, 0, 1, "record").write_text("{bad"),
            "blocks/cell0000-block000001: its record is missing or damaged",
        ),
        (
            lambda out: block(out, 1, 0, "record").unlink(),
            "blocks/cell0001-block000000: its record is missing or damaged",
        ),
        (
            lambda out: _edit_json(out / "scenario.json", axes=5),
            "scenario.json does not match its checksum",
        ),
    ],
    ids=[
        "table-changed",
        "no-manifest",
        "rounds-missing",
        "block-copied",
        "block-record-damaged",
        "block-record-deleted",
        "scenario-edited",
    ],
)
def test_verify_names_what_is_wrong(
    damage: Any, first_words: str, results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damage(results)
    status, _, err = run_cli(["run", "--verify", str(results)], capsys)
    assert status == 1
    assert err.count("\n") == 1 and first_words in err, err


def _edit_json(path: Path, **changes: Any) -> None:
    path.write_text(json.dumps(json.loads(path.read_text()) | changes))


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda out: (out / "scenario.json").write_text("[]"), "scenario.json missing or"),
        (lambda out: (out / "scenario.json").write_bytes(b"\xff\xfe\x00x"), "scenario.json"),
        (lambda out: (out / "scenario.json").write_text(""), "scenario.json missing or"),
        (lambda out: _edit_json(out / "scenario.json", axes=5), "scenario.json does not match"),
        (lambda out: (out / "meta.json").write_text("{bad"), "meta.json does not match"),
        (lambda out: (out / "summary.csv").write_text(""), "summary.csv does not match"),
        (lambda out: (out / "summary.csv").write_text("garbage\n"), "summary.csv does not"),
        (lambda out: (out / "games.parquet").write_bytes(b""), "games.parquet does not"),
        (lambda out: (out / "manifest.json").unlink(), "manifest.json missing"),
        (lambda out: block(out, 0, 0, "record").write_text("{bad"), "its record is missing"),
    ],
    ids=[
        "scenario-list",
        "scenario-binary",
        "scenario-empty",
        "scenario-edited",
        "meta-damaged",
        "summary-empty",
        "summary-garbage",
        "games-emptied",
        "no-manifest",
        "block-record",
    ],
)
def test_report_refuses_results_that_do_not_prove_themselves(
    damage: Any, words: str, results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``gotsim report`` on a damaged results folder: one line naming the first problem, exit
    status 2, no page written (a page of damaged results would pass for the study's)."""
    damage(results)
    status, out, err = run_cli(["report", str(results)], capsys)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "the results do not prove themselves" in lines[0], err
    assert words in lines[0], lines[0]
    assert not (results / "report.html").exists()


def test_report_of_a_finished_study(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["report", str(results)], capsys)
    assert status == 0 and out.startswith(f"wrote {results / 'report.html'}")
    page = (results / "report.html").read_text(encoding="utf-8")
    summary = pd.read_csv(results / "summary.csv")
    assert page.count("<span class='swatch'") == len(summary)  # a row per cell and house
    assert "data:image/png;base64," in page


def test_run_names_a_damaged_marker(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A results folder whose scenario.json is damaged is not "without" it: the line says so."""
    (results / "scenario.json").write_text("{bad")
    status, _, err = run_cli(["run", "--out", str(results), scenario_path(results)], capsys)
    assert status == 2
    assert "with a damaged scenario.json (not valid JSON)" in err and "--force" in err, err


def scenario_path(results: Path) -> str:
    path = results.parent / "tiny.toml"
    path.write_text(TINY_TOML)
    return str(path)


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


def test_forced_run_plays_again_the_blocks_of_another_engine(
    results: Path,
    reference: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The refusal above says ``--force`` plays them all again: it does, and the folder is then
    this engine's, the same games as a fresh run."""
    stamp = {"gotsim_version": "9.9", "sources_digest": "f" * 64}
    monkeypatch.setattr(study_store, "engine_stamp", lambda: stamp)
    monkeypatch.setattr(study_runner, "engine_stamp", lambda: stamp)
    scenario = results.parent / "tiny.toml"
    scenario.write_text(TINY_TOML)
    status, _, err = run_cli(["run", str(scenario), "--out", str(results), "--force"], capsys)
    assert status == 0, err
    assert "4 finished block(s) played by another gotsim engine are played again" in err
    meta = json.loads((results / "meta.json").read_text())
    assert meta["blocks_replayed"] == 4 and meta["games_played_this_run"] == 40
    again = run_study(tiny(), out=results)  # every block is now this engine's
    assert again.meta["blocks_of_another_engine"] == 0
    assert again.meta["games_played_this_run"] == 0
    assert (results / "games.parquet").read_bytes() == (reference / "games.parquet").read_bytes()


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
    deadline = time.monotonic() + 600  # (compiles first when the kernel cache is stale)
    while not list(out.glob("blocks/*.json")) and time.monotonic() < deadline:
        time.sleep(0.05)
    children = _children(process.pid)
    assert len(children) >= 2
    workers = [c for c in children if "LokyProcess" in Path(f"/proc/{c}/cmdline").read_text()]
    assert len(workers) == min(12, len(os.sched_getaffinity(0)))
    process.send_signal(how)
    _, err = process.communicate(timeout=120)
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


# --- bad input: a table of cases (input → exit status and first words) --------------------------

ROOT = Path(__file__).resolve().parents[1]
RIVERRUN_BATTLE = json.loads((ROOT / "examples" / "battles" / "riverrun.json").read_text())
RIVERRUN_POSITION = ROOT / "examples" / "positions" / "riverrun_round3.json"
DEEP = 100_000
DIGITS = "9" * 5000
# what each kind of damaged input file holds
BAD_FILES: dict[str, bytes | None] = {
    "binary": b"\x00\x01\x02\x03PAR1\xff\xfe",
    "utf16": 'name = "x"\nseed = 1\n'.encode("utf-16"),
    "latin1": 'name = "café"\nseed = 1\n'.encode("latin-1"),
    "deep-json": b"[" * DEEP + b"]" * DEEP,
    "deep-toml": b"a = " + b"[" * DEEP + b"]" * DEEP,
    "bigint-json": b'{"seed": ' + DIGITS.encode() + b"}",
    "bigint-toml": b'name = "x"\nseed = ' + DIGITS.encode() + b"\ngames = 1\n",
    "folder": None,
}
BAD_FILE_WORDS = {
    "binary": "a binary file",
    "utf16": "UTF-16 text",
    "latin1": "not UTF-8 text",
    "deep-json": "nested more than 64 levels",
    "deep-toml": "nested more than 64 levels",
    "bigint-json": "a 5,000-digit number",
    "bigint-toml": "a number with too many digits",
    "folder": "is a folder, not a file",
}


def bad_file(tmp_path: Path, kind: str) -> str:
    if kind == "dev-zero":
        return "/dev/zero"
    path = tmp_path / f"in-{kind}"
    data = BAD_FILES[kind]
    if data is None:
        path.mkdir()
    else:
        path.write_bytes(data)
    return str(path)


def battle_file(tmp_path: Path, **changes: Any) -> str:
    path = tmp_path / "battle.json"
    path.write_text(json.dumps(RIVERRUN_BATTLE | changes))
    return str(path)


def scenario_file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "s.toml"
    path.write_text(text)
    return str(path)


POSITION_ARGS = ["--area", "riverrun", "--from", "harrenhal", "--attacker", "lannister"]
SUPPORT = {"house": "greyjoy", "side": "attacker", "units": {"ship": 1}}

# (case id, argv builder, exit status, words in the error line)
CASES: list[tuple[str, Any, int, str]] = [
    # input files: scenarios, battles, positions, start positions
    *[
        (f"scenario-{kind}", lambda t, k=kind: ["run", bad_file(t, k)], 2, BAD_FILE_WORDS[kind])
        for kind in ("binary", "utf16", "latin1", "deep-toml", "bigint-toml", "folder")
    ],
    ("scenario-dev-zero", lambda t: ["run", "/dev/zero"], 2, "not a regular file"),
    *[
        (f"battle-{kind}", lambda t, k=kind: ["combat", bad_file(t, k)], 2, BAD_FILE_WORDS[kind])
        for kind in ("binary", "utf16", "latin1", "deep-json", "bigint-json", "folder")
    ],
    ("battle-dev-zero", lambda t: ["combat", "/dev/zero"], 2, "not a regular file"),
    *[
        (
            f"position-{kind}",
            lambda t, k=kind: ["combat", "--position", bad_file(t, k), *POSITION_ARGS],
            2,
            BAD_FILE_WORDS[kind],
        )
        for kind in ("binary", "utf16", "latin1", "deep-json", "bigint-json", "folder")
    ],
    (
        "position-dev-zero",
        lambda t: ["combat", "--position", "/dev/zero", *POSITION_ARGS],
        2,
        "not a regular file",
    ),
    *[
        (
            f"start-position-{kind}",
            lambda t, k=kind: [
                "run",
                scenario_file(
                    t, f'name = "x"\nseed = 1\ngames = 2\nstart_position = "{bad_file(t, k)}"\n'
                ),
            ],
            2,
            BAD_FILE_WORDS[kind],
        )
        for kind in ("binary", "utf16", "latin1", "deep-json", "bigint-json")
    ],
    # output paths
    ("board-out-folder", lambda t: ["board", "--out", _folder(t, "b.png")], 2, "is a folder"),
    ("board-out-under-file", lambda t: ["board", "--out", _under_file(t, "b.png")], 2, "is a file"),
    ("board-out-proc", lambda t: ["board", "--out", "/proc/b.png"], 2, "/proc is not a place"),
    ("board-out-sys", lambda t: ["board", "--out", "/sys/b.png"], 2, "/sys is not a place"),
    ("play-log-folder", lambda t: ["play", "--log", _folder(t, "log")], 2, "is a folder"),
    ("play-log-under-file", lambda t: ["play", "--log", _under_file(t, "g.log")], 2, "is a file"),
    ("play-log-proc", lambda t: ["play", "--log", "/proc/g.log"], 2, "/proc is not a place"),
    ("play-pictures-file", lambda t: ["play", "--pictures", _file(t)], 2, "is a file"),
    ("play-pictures-sys", lambda t: ["play", "--pictures", "/sys/pics"], 2, "/sys is not a place"),
    (
        "run-out-file",
        lambda t: ["run", scenario_file(t, TINY_TOML), "--out", _file(t)],
        2,
        "is a file, not a folder",
    ),
    (
        "run-out-under-file",
        lambda t: ["run", scenario_file(t, TINY_TOML), "--out", _under_file(t, "r")],
        2,
        "is a file, not a folder",
    ),
    (
        "run-out-proc",
        lambda t: ["run", scenario_file(t, TINY_TOML), "--out", "/proc/r"],
        2,
        "/proc is not a place",
    ),
    # numbers
    ("play-seed-negative", lambda t: ["play", "--seed", "-1"], 2, "must be from 0"),
    (
        "combat-sampled-seed-negative",
        lambda t: ["combat", battle_file(t), "--samples", "10", "--seed", "-1"],
        2,
        "must be from 0",
    ),
    (
        "combat-exact-seed-negative",
        lambda t: ["combat", battle_file(t), "--seed", "-1"],
        2,
        "must be from 0",
    ),
    (
        "combat-samples-0",
        lambda t: ["combat", battle_file(t), "--samples", "0"],
        2,
        "must be from 1",
    ),
    *[
        (f"board-dpi-{dpi}", lambda t, d=dpi: ["board", "--dpi", d], 2, "--dpi: must be from 10")
        for dpi in ("0", "-5", "20000")
    ],
    ("bench-games-1e12", lambda t: ["bench", "--games", str(10**12)], 2, "--games: must be"),
    ("bench-games-2^70", lambda t: ["bench", "--games", str(2**70)], 2, "--games: must be"),
    ("bench-jobs-0", lambda t: ["bench", "--jobs", "0"], 2, "--jobs: must be from 1"),
    (
        "scenario-games-1e12",
        lambda t: ["run", scenario_file(t, TINY_TOML.replace("games = 20", "games = 10**12"))],
        2,
        "TOML",  # (not a TOML number)
    ),
    (
        "scenario-games-1000000000000",
        lambda t: ["run", scenario_file(t, TINY_TOML.replace("games = 20", f"games = {10**12}"))],
        2,
        "games: must be between 1 and 1,000,000,000",
    ),
    (
        "scenario-block-size-2^63-1",
        lambda t: [
            "run",
            scenario_file(t, TINY_TOML.replace("block_size = 10", f"block_size = {2**63 - 1}")),
        ],
        2,
        "block_size: must be between 1 and 1,000,000",
    ),
    (
        "scenario-too-many-blocks",
        lambda t: [
            "run",
            scenario_file(
                t,
                TINY_TOML.replace("games = 20", "games = 1000000000").replace(
                    "block_size = 10", "block_size = 100"
                ),
            ),
        ],
        2,
        "blocks; at most 1,000,000",
    ),
    (
        "units-superscript",
        lambda t: [
            "combat",
            "--position",
            str(RIVERRUN_POSITION),
            *POSITION_ARGS,
            "--units",
            "footman=²",
        ],
        2,
        "--units: footman='²' is not a whole number",
    ),
    (
        "units-5000-digits",
        lambda t: [
            "combat",
            "--position",
            str(RIVERRUN_POSITION),
            *POSITION_ARGS,
            "--units",
            f"footman={DIGITS}",
        ],
        2,
        "is not a whole number from 0 to 20",
    ),
    (
        "support-both-sides-flags",
        lambda t: [
            "combat",
            "--position",
            str(RIVERRUN_POSITION),
            *POSITION_ARGS,
            "--support",
            "greyjoy=attacker,greyjoy=defender",
        ],
        2,
        "--support: greyjoy is given twice",
    ),
    # impossible battles
    (
        "battle-house-backs-both-sides",
        lambda t: [
            "combat",
            battle_file(t, support=[SUPPORT, SUPPORT | {"side": "defender"}]),
        ],
        2,
        "support[1].side: greyjoy already supports the other side",
    ),
    (
        "battle-50-copies-of-a-support",
        lambda t: ["combat", battle_file(t, support=[SUPPORT] * 50)],
        2,
        "support[2].order: greyjoy has 2 support+0 order token(s)",
    ),
    (
        "battle-20-ships-in-a-support",
        lambda t: ["combat", battle_file(t, support=[SUPPORT | {"units": {"ship": 20}}])],
        2,
        "support[0].units.ship: greyjoy has 6 ship pieces, the battle uses 20",
    ),
    (
        "battle-11-footmen",
        lambda t: [
            "combat",
            battle_file(t, attacker=RIVERRUN_BATTLE["attacker"] | {"units": {"footman": 11}}),
        ],
        2,
        "attacker.units.footman: lannister has 10 footman pieces, the battle uses 11",
    ),
    (
        "battle-duplicate-discards",
        lambda t: [
            "combat",
            battle_file(t, discards={"lannister": ["tywin_lannister", "tywin_lannister"]}),
        ],
        2,
        "attacker.discards[1]: 'tywin_lannister' is listed twice",
    ),
    (
        "battle-blade-holder-null",
        lambda t: ["combat", battle_file(t, blade_holder=None)],
        2,
        "blade_holder: null is not a house",
    ),
    # output options, checked before a game is played
    (
        "play-json-in-dev",
        lambda t: ["play", "--players", "3", "--json", "/dev/gotsim.jsonl"],
        2,
        "--json '/dev/gotsim.jsonl': /dev is not a place for files",
    ),
    (
        "play-html-in-proc",
        lambda t: ["play", "--players", "3", "--html", "/proc/gotsim.html"],
        2,
        "--html '/proc/gotsim.html': /proc is not a place for files",
    ),
    (
        "play-html-under-a-file",
        lambda t: ["play", "--players", "3", "--html", _under_file(t, "x.html")],
        2,
        "is a file, not a folder",
    ),
    ("play-log-empty", lambda t: ["play", "--log", ""], 2, "--log: an empty file name"),
    (
        "play-pictures-empty",
        lambda t: ["play", "--pictures", " "],
        2,
        "--pictures: an empty folder name",
    ),
    (
        "play-one-file-twice",
        lambda t: ["play", "--log", str(t / "same.out"), "--html", str(t / "same.out")],
        2,
        "--log and --html name the same file",
    ),
    (
        "report-out-in-dev",
        lambda t: ["report", str(t), "--out", "/dev/gotsim.html"],
        2,
        "--out '/dev/gotsim.html': /dev is not a place for files",
    ),
    ("verify-no-such-folder", lambda t: ["run", "--verify", str(t / "nothing")], 2, "no such"),
    (
        "verify-a-file",
        lambda t: ["run", "--verify", _file(t)],
        2,
        "is a file, not a results folder",
    ),
    (
        "board-position-and-players",
        lambda t: ["board", "--position", str(RIVERRUN_POSITION), "--players", "4"],
        2,
        "the position names its game; leave out --players",
    ),
    (
        "board-position-and-edition",
        lambda t: ["board", "--position", str(RIVERRUN_POSITION), "--edition", "1e"],
        2,
        "the position names its game; leave out --edition",
    ),
    (
        "bench-compare-with-itself",
        lambda t: ["bench", "--games", "10", "--compare", "random"],
        2,
        "--compare random: the policy timed already",
    ),
    (
        "battle-house-of-5000-characters",
        lambda t: [
            "combat",
            battle_file(t, attacker=RIVERRUN_BATTLE["attacker"] | {"house": "x" * 5000}),
        ],
        2,
        "characters left out",
    ),
    # messages
    ("no-doubled-prefix", lambda t: ["board", "--players", "six"], 2, "error: board: argument"),
    ("run-needs-a-scenario", lambda t: ["run"], 2, "run: give a SCENARIO file"),
]


def _file(tmp_path: Path) -> str:
    path = tmp_path / "a-file"
    path.write_text("mine")
    return str(path)


def _folder(tmp_path: Path, name: str) -> str:
    (tmp_path / name).mkdir()
    return str(tmp_path / name)


def _under_file(tmp_path: Path, name: str) -> str:
    return str(Path(_file(tmp_path)) / name)


@pytest.mark.parametrize(
    ("build", "status", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_input_is_one_line(
    build: Any,
    status: int,
    words: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every bad input: one line ``gotsim: error: …`` naming it, its exit status, no traceback,
    and nothing written (no results folder, picture, log or ``.part`` file)."""
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    argv = build(inputs)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    before = sorted(p.name for p in inputs.rglob("*"))
    got, _, err = run_cli(argv, capsys)
    lines = err.strip().splitlines()
    assert got == status, err
    assert len(lines) == 1 and lines[0].startswith("gotsim: error: "), err
    assert len(lines[0]) < 600  # a long echoed value is cut
    assert not lines[0].startswith("gotsim: error: gotsim")
    assert words in lines[0], lines[0]
    assert list(work.iterdir()) == []
    assert sorted(p.name for p in inputs.rglob("*")) == before


def test_read_only_output_is_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder we may not write in is the machine's failure, not the input's: exit status 1."""
    import gotsim.inputs

    monkeypatch.setattr(gotsim.inputs.os, "access", lambda *a, **k: False)
    for argv in (
        ["board", "--out", str(tmp_path / "b.png")],
        ["play", "--log", str(tmp_path / "g.log")],
        ["run", scenario_file(tmp_path, TINY_TOML), "--out", str(tmp_path / "r")],
    ):
        status, _, err = run_cli(argv, capsys)
        assert status == 1, argv
        assert err.strip().startswith("gotsim: error: ") and "permission denied" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


# --- the Python API checks what the command checks -------------------------------------------

API_CASES: list[tuple[str, Any, str]] = [
    ("seed-string", lambda: gotsim.simulate(1, seed="1"), "seed: expected a whole number"),
    ("seed-float", lambda: gotsim.simulate(1, seed=1.5), "seed: expected a whole number"),
    ("seed-negative", lambda: gotsim.simulate(1, seed=-1), "seed: must be from 0"),
    ("n-games-bool", lambda: gotsim.simulate(True), "n_games: expected a whole number"),
    ("n-games-huge", lambda: gotsim.simulate(10**12), "n_games: must be from 0"),
    ("players-string", lambda: gotsim.simulate(1, players="6"), "players: expected a whole"),
    ("n-jobs-0", lambda: gotsim.simulate(1, n_jobs=0), "n_jobs: must be from 1"),
    ("n-jobs-negative", lambda: gotsim.simulate(1, n_jobs=-1), "n_jobs: must be from 1"),
    (
        "policy-for-a-house-not-in-play",
        lambda: gotsim.simulate(1, players=5, policies={"martell": "heuristic"}),
        "policies.martell: martell is not playing with 5 players",
    ),
    (
        "samples-0",
        lambda: gotsim.combat_odds(RIVERRUN_BATTLE, samples=0),
        "samples: must be from 1",
    ),
    ("odds-seed-negative", lambda: gotsim.combat_odds(RIVERRUN_BATTLE, seed=-1), "seed: must"),
    (
        "scenario-huge-integer",
        lambda: load_scenario(tiny(games=10**5000)),
        "games: must be between 1 and 1,000,000,000, got a number that long",
    ),
    (
        "battle-text-too-deep",
        lambda: gotsim.combat_odds("{" + '"a":{' * 200 + "}" * 201),
        "battle: nested more than 64 levels deep",
    ),
]


@pytest.mark.parametrize(
    ("call", "words"), [c[1:] for c in API_CASES], ids=[c[0] for c in API_CASES]
)
def test_python_api_refuses_what_the_command_refuses(call: Any, words: str) -> None:
    with pytest.raises(ValueError) as caught:
        call()
    assert words in str(caught.value) and "\n" not in str(caught.value), str(caught.value)


def test_python_api_takes_numpy_integers() -> None:
    games = gotsim.simulate(np.int64(3), players=np.int64(5), seed=np.int64(2))
    assert len(games) == 3
    pd.testing.assert_frame_equal(games, gotsim.simulate(3, players=5, seed=2))


def test_unreadable_input_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(scenario_file(tmp_path, TINY_TOML))
    real_open = open

    def refuse(file: Any, *args: Any, **kw: Any) -> Any:
        if str(file) == str(path):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(file, *args, **kw)

    monkeypatch.setattr("builtins.open", refuse)
    status, _, err = run_cli(["run", str(path)], capsys)
    assert (
        status == 2
        and err.strip() == f"gotsim: error: {path}: file: cannot read: permission denied"
    )


# --- scenario messages -----------------------------------------------------------------------


def test_scenario_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + TINY_TOML.encode())
    assert load_scenario(path).hash == load_scenario(tiny()).hash


def test_grid_of_policy_tables(tmp_path: Path) -> None:
    """``[[grid.policies]]`` entries that are one policy table each (kind and parameters) are
    policies for every house, not tables of houses."""
    text = 'name = "p"\nseed = 1\ngames = 10\n[[grid.policies]]\nkind = "random"\n'
    text += '[[grid.policies]]\nkind = "heuristic"\n'
    scenario = load_scenario(scenario_file(tmp_path, text))
    assert [c.policy_label for c in scenario.cells] == ["random", "heuristic"]


def test_start_position_is_relative_to_the_scenario_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    scenario = load_scenario(ROOT / "scenarios" / "riverrun_round3.toml")
    assert scenario.position is not None and scenario.cells[0].players == 6


def test_huge_grid_is_refused_before_it_is_built(tmp_path: Path) -> None:
    values = ", ".join(f"{{ kind = 'heuristic', aggression = {i / 6000} }}" for i in range(5001))
    text = 'name = "g"\nseed = 1\ngames = 10\n[grid]\ntides_of_battle = [false, true]\n'
    text += f"policies = [{values}]\n"
    with pytest.raises(ScenarioError, match=r"grid: 2 × 5001 = 10,002 cells; a grid has at most"):
        load_scenario(scenario_file(tmp_path, text))


def test_failed_log_write_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``play --log`` on a full disk: one line, exit status 1, neither the log nor a partial
    file (``<log>.part`` or a temporary one) left behind."""
    real = Path.write_text

    def full(self: Path, *args: Any, **kw: Any) -> int:
        if self.parent == tmp_path:
            real(self, "half a narrat", encoding="utf-8")
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real(self, *args, **kw)

    monkeypatch.setattr(Path, "write_text", full)
    log = tmp_path / "game.log"
    status, out, err = run_cli(["play", "--players", "3", "--log", str(log)], capsys)
    assert status == 1 and out == ""
    # (a first run also says, before the game, that it compiles the one-game engine)
    lines = [line for line in err.splitlines() if not line.startswith("gotsim: compiling")]
    assert lines == [f"gotsim: error: {log}: no space left on the device"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", ["--json", "--html", "--pictures"])
def test_failed_play_output_leaves_nothing(
    option: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``play --json/--html/--pictures`` on a full disk: one line naming the file, exit status
    1, and nothing left: no partial or temporary file, no pictures folder it made."""
    real_text, real_bytes = Path.write_text, Path.write_bytes

    def full_text(self: Path, *args: Any, **kw: Any) -> int:
        if tmp_path in self.parents:
            real_text(self, "half a pa", encoding="utf-8")
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real_text(self, *args, **kw)

    def full_bytes(self: Path, data: Any) -> int:
        if tmp_path in self.parents:
            real_bytes(self, b"\x89PNG half")
            raise OSError(errno.ENOSPC, "No space left on device", str(self))
        return real_bytes(self, data)

    monkeypatch.setattr(Path, "write_text", full_text)
    monkeypatch.setattr(Path, "write_bytes", full_bytes)
    names = {"--json": "game.jsonl", "--html": "game.html", "--pictures": "pics"}
    target = tmp_path / names[option]
    status, out, err = run_cli(["play", "--players", "3", option, str(target)], capsys)
    assert status == 1 and out == ""
    lines = [line for line in err.splitlines() if not line.startswith("gotsim: compiling")]
    assert len(lines) == 1 and lines[0].endswith(": no space left on the device"), lines
    named = target / "round_01.png" if option == "--pictures" else target
    assert lines[0] == f"gotsim: error: {named}: no space left on the device"
    assert list(tmp_path.iterdir()) == []


def test_verify_waits_for_a_running_run(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with StudyStore(results, load_scenario(tiny())).locked():
        status, _, err = run_cli(["run", "--verify", str(results)], capsys)
    assert status == 1 and "a gotsim run is writing this folder now" in err
    assert run_cli(["run", "--verify", str(results)], capsys)[0] == 0


def test_interrupt_before_any_game_claims_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while a big grid is still being validated: no claim about finished blocks."""
    import gotsim.study

    def interrupted(source: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(gotsim.study, "load_scenario", interrupted)
    status, out, err = run_cli(["run", scenario_file(tmp_path, TINY_TOML)], capsys)
    assert status == 130 and out == ""
    assert err.strip() == "gotsim: interrupted before any game was played"


def test_bench_jobs_are_capped_at_the_cores(capsys: pytest.CaptureFixture[str]) -> None:
    cores = len(os.sched_getaffinity(0))
    status, out, err = run_cli(["bench", "--games", "8", "--jobs", "1000", "--json"], capsys)
    assert status == 0
    assert json.loads(out)["jobs"] == cores
    assert f"gotsim: note: --jobs 1000 capped at {cores}" in err


def test_finished_folder_assembles_without_the_cluster(results: Path) -> None:
    """Nothing left to play: no scheduler is contacted (this one does not exist)."""
    again = run_study(tiny(), out=results, scheduler="tcp://127.0.0.1:1")
    assert again.meta["games_played_this_run"] == 0 and verify_folder(results).ok
