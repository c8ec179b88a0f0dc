"""The first hour with gotsim: the compile is announced, the command line follows the usual
conventions, the quickstart plays the heuristic players, and notebooks open and run outside the
repository too."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gotsim import jit
from gotsim.cli import build_parser, main
from gotsim.play.tournament import houses_in_play
from gotsim.rules.ids import House

REPO = Path(__file__).resolve().parents[1]


# --- the compile, made visible ------------------------------------------------------------------


def _kernel_module(folder: Path, body: str = "return x + 1") -> Path:
    source = folder / "tiny_kernel.py"
    source.write_text(
        textwrap.dedent(
            f"""
            from gotsim.jit import njit

            @njit
            def bump(x):
                {body}
            """
        )
    )
    return source


def _will_compile_in_new_process(folder: Path) -> bool:
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import tiny_kernel; "
        "from gotsim.jit import will_compile; print(will_compile(tiny_kernel.bump))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(folder)], capture_output=True, text=True, check=True
    )
    return out.stdout.strip() == "True"


def test_will_compile_reads_the_compiled_signatures_and_the_disk_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fresh: it will compile; once called, not in this process nor (from numba's cache on disk)
    in the next; after the source changes, it will again."""
    source = _kernel_module(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("tiny_kernel", None)
    import tiny_kernel  # type: ignore[import-not-found]

    assert jit.will_compile(tiny_kernel.bump)
    assert tiny_kernel.bump(1) == 2
    assert not jit.will_compile(tiny_kernel.bump)
    assert not _will_compile_in_new_process(tmp_path)
    source.write_text(source.read_text().replace("x + 1", "x + 2") + "\n# changed\n")
    assert _will_compile_in_new_process(tmp_path)
    sys.modules.pop("tiny_kernel", None)


def test_the_compile_line_is_printed_once_and_inherited_by_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _kernel_module(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("tiny_kernel", None)
    monkeypatch.setitem(
        jit.KERNEL_GROUPS,
        "tiny",
        jit.KernelGroup("a tiny kernel", "tiny_kernel", ("bump",), (1, 1)),
    )
    monkeypatch.delenv(jit.ANNOUNCED_ENV, raising=False)
    assert jit.announce_compile("tiny")
    assert jit.announce_compile("tiny")  # still compiling-to-be, but said already
    err = capsys.readouterr().err
    assert err.count("gotsim: compiling a tiny kernel (first run only, about 1 minute on") == 1
    assert "tiny" in os.environ[jit.ANNOUNCED_ENV].split(",")  # worker processes stay quiet
    import tiny_kernel  # type: ignore[import-not-found]

    tiny_kernel.bump(1)
    assert not jit.announce_compile("tiny")
    sys.modules.pop("tiny_kernel", None)
    # a group's time is a range, from a faster machine to a slower one
    assert "about 4–10 minutes on 2 cores" in jit.compile_message("heuristic")


def test_every_kernel_group_names_real_kernels() -> None:
    import importlib

    for name, group in jit.KERNEL_GROUPS.items():
        module = importlib.import_module(group.module)
        for kernel in group.kernels:
            assert hasattr(getattr(module, kernel), "signatures"), (name, kernel)
        assert isinstance(jit.group_will_compile(name), bool)


def test_a_study_shows_compiling_rather_than_0_of_n(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """While the first block compiles, the bar says so (here the compile is pretended)."""
    from gotsim.play import simulate
    from gotsim.study import run_study

    said: list[object] = []

    def pretend(policies: object = "random") -> bool:
        said.append(policies)
        return True

    monkeypatch.setattr(simulate, "announce_compile", pretend)
    scenario = {"name": "tiny", "players": 3, "seed": 1, "games": 4, "block_size": 4}
    run_study(scenario, out=tmp_path / "tiny", progress=True)
    err = capsys.readouterr().err
    assert "tiny: compiling the kernels first" in err
    assert "4/4" in err  # and counts games once they come
    assert said  # the study asked before its first block


# --- command-line conventions -------------------------------------------------------------------


def test_bare_gotsim_prints_usage(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: gotsim")
    for command in ("board", "cards", "combat", "play", "bench", "run", "warmup"):
        assert command in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    import gotsim

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"gotsim {gotsim.__version__}"


def _subparsers() -> dict[str, object]:
    import argparse

    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("command", sorted(_subparsers()))
def test_every_help_shows_the_defaults(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every option with a default (other than off/none) shows it in ``--help``."""
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    parser = _subparsers()[command]
    for action in parser._actions:  # type: ignore[attr-defined]
        if action.default in (None, False) or action.nargs == 0 or action.dest == "help":
            continue
        assert f"(default: {action.default})" in text, (command, action.dest)


def test_combat_default_model_is_the_one_the_readme_states() -> None:
    readme = (REPO / "README.md").read_text()
    combat = _subparsers()["combat"]
    default = next(a.default for a in combat._actions if a.dest == "model")  # type: ignore[attr-defined]
    assert f"`{default}` (the default" in readme


def test_a_closed_pipe_ends_quietly() -> None:
    """`gotsim cards | head -1`: the reader goes away before gotsim writes."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gotsim.cli", "cards"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # long before the first line (imports take a second)
    err = proc.stderr.read().decode()
    assert proc.wait() == 141
    assert "Traceback" not in err and "BrokenPipeError" not in err


def test_readme_simulate_snippets_name_the_policies() -> None:
    readme = (REPO / "README.md").read_text()
    calls = re.findall(r"gotsim\.simulate\((.*?)\n?\)", readme, flags=re.S)
    assert calls
    for call in calls:
        assert "policies=" in call, call


def test_quickstart_plays_the_heuristic_players() -> None:
    from gotsim.study import load_scenario

    text = (REPO / "scenarios" / "quickstart.toml").read_text()
    assert "Only the random policy" not in text
    scenario = load_scenario(REPO / "scenarios" / "quickstart.toml")
    assert all(cell.policy_label == "heuristic" for cell in scenario.cells)


def test_play_narrates_in_words_and_ends_with_standings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["play", "--players", "3", "--seed", "2"]) == 0  # a game with a battle
    out = capsys.readouterr().out
    story, _, table = out.rpartition("\n\nStandings after round")
    # no engine tokens: decision kinds with numbers, snake_case ids, the game_over phase
    assert not re.search(r"\b[a-z]+_[a-z_]+\b", story), re.findall(r"\b[a-z]+_[a-z_]+\b", story)
    assert "game_over" not in story
    assert "Westeros cards:" in story and "battle for" in story
    rows = [line for line in table.splitlines() if re.match(r"\s*\d\. ", line)]
    assert len(rows) == 3
    assert rows[0].endswith("(winner)")
    assert re.search(r"\b(Baratheon|Lannister|Stark) wins \(", story)


# --- notebooks -----------------------------------------------------------------------------------


def test_notebook_files_outside_a_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A notebook copied out of the repository finds files beside itself, writes figures there,
    and names the file it lacks instead of failing with StopIteration."""
    from gotsim.analysis import notebook

    monkeypatch.setattr(notebook, "repository", lambda start=None: None)
    monkeypatch.chdir(tmp_path)
    assert notebook.figure_folder(True) is None
    assert notebook.figure_folder(False) == tmp_path / "results" / "figures"
    with pytest.raises(notebook.RepositoryFileError, match=r"examples/battles/riverrun\.json"):
        notebook.repository_file("examples/battles/riverrun.json")
    (tmp_path / "riverrun.json").write_text("{}")
    assert notebook.repository_file("examples/battles/riverrun.json") == tmp_path / "riverrun.json"


def test_notebook_files_inside_the_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    from gotsim.analysis import notebook

    monkeypatch.chdir(REPO / "notebooks")
    assert notebook.repository() == REPO
    path = notebook.repository_file("examples/battles/riverrun.json")
    assert path == REPO / "examples" / "battles" / "riverrun.json"
    assert not any(
        "StopIteration" in p.read_text() or "pyproject.toml" in p.read_text()
        for p in (REPO / "notebooks").glob("*.py")
    )


def test_jupyterlab_opens_python_files_as_notebooks_when_installed() -> None:
    """The settings override that pyproject installs into share/jupyter/lab/settings/overrides.d
    makes the Jupytext Notebook viewer the default for Python files."""
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    names = [d.split(">")[0].split("=")[0].strip() for d in project["project"]["dependencies"]]
    assert {"jupytext", "ipywidgets", "jupyterlab"} <= set(names)
    files = project["tool"]["setuptools"]["data-files"]["share/jupyter/lab/settings/overrides.d"]
    assert files == ["jupyter/gotsim-notebooks.json"]
    setting = json.loads((REPO / files[0]).read_text())
    viewers = setting["@jupyterlab/docmanager-extension:plugin"]["defaultViewers"]
    assert viewers["python"] == "Jupytext Notebook"


def test_jupyterlab_reads_the_setting(tmp_path: Path) -> None:
    """A JupyterLab server whose settings folder holds the shipped override reports the
    Jupytext Notebook as the default viewer of Python files (its settings API, no browser)."""
    import shutil
    import socket
    import time
    import urllib.request

    if shutil.which("jupyter-lab") is None:
        pytest.skip("JupyterLab is not installed")
    overrides = tmp_path / "settings" / "overrides.d"
    overrides.mkdir(parents=True)
    shutil.copy(REPO / "jupyter" / "gotsim-notebooks.json", overrides)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [
            "jupyter-lab",
            "--no-browser",
            "--allow-root",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=first-hour",
            f"--LabApp.app_settings_dir={tmp_path / 'settings'}",
            f"--ServerApp.root_dir={REPO}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/lab/api/settings/@jupyterlab/docmanager-extension:plugin"
    request = urllib.request.Request(url, headers={"Authorization": "token first-hour"})
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    data = json.load(response)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=30)
    default = data["schema"]["properties"]["defaultViewers"]["default"]
    assert default["python"] == "Jupytext Notebook"


def test_the_command_starts_without_the_engine() -> None:
    """`gotsim` parses its arguments and can announce a compile before numba is imported."""
    code = (
        "import sys; import gotsim.cli as c; c.build_parser().parse_args(['bench']); "
        "print('numba' in sys.modules, 'gotsim.engine' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_a_compile_is_certain_from_the_files_when_the_stamp_is_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """surely_compiles: a stale or missing stamp, or a missing index, means a compile; a fresh
    index (newer than its source) leaves the decision to will_compile."""
    package = tmp_path / "gotsim"
    cache = package / "play" / "__pycache__"
    cache.mkdir(parents=True)
    source = package / "play" / "runner.py"
    source.write_text("x = 1\n")
    monkeypatch.setattr(jit, "ROOT", package)
    monkeypatch.setattr(jit, "sources_digest", lambda root=None: "digest-now")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    assert jit.surely_compiles("random")  # no stamp
    (cache / jit.STAMP).write_text("digest-then")
    assert jit.surely_compiles("random")  # kernels for other sources: dropped at import
    (cache / jit.STAMP).write_text("digest-now")
    assert jit.surely_compiles("random")  # no index
    index = cache / "runner.play_random-42.py311.nbi"
    index.write_bytes(b"index")
    os.utime(index, (source.stat().st_mtime + 10,) * 2)
    assert not jit.surely_compiles("random")
    os.utime(index, (source.stat().st_mtime - 10,) * 2)
    assert jit.surely_compiles("random")  # the source changed after the compile


# --- gotsim play --html / --json FILE ------------------------------------------------------------


def test_play_writes_one_page_and_the_event_log(tmp_path: Path) -> None:
    """The page holds every picture (no link out of it), a slider over them, the narration and
    the standings; the JSON lines are the game's events, one each."""
    page, events = tmp_path / "game.html", tmp_path / "events.jsonl"
    argv = ["play", "--players", "3", "--seed", "1", "--html", str(page), "--json", str(events)]
    assert main(argv) == 0
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']?(https?:|//|file:)""", text)  # self-contained
    match = re.search(r'id="frames">(.*?)</script>', text, re.S)
    assert match is not None
    frames = json.loads(match.group(1))
    labels = [f["label"] for f in frames]
    assert labels[0] == "Round 1" and labels[-1] == "The end"
    assert len(labels) == len(set(labels)) >= 3
    assert all(f["png"].startswith("iVBORw0KGgo") for f in frames)  # base64 of a PNG
    assert f'max="{len(frames) - 1}"' in text and 'type="range"' in text
    assert "Standings at the end" in text and "(winner)" in text
    records = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    assert {"round", "phase", "kind", "house", "action", "text", "words"} <= set(records[0])
    assert records[-1]["kind"] == "game_over"
    told = [line for f in frames[:-1] for line in f["story"]]
    assert told == [r["words"] for r in records]  # every event narrated once, in order
    for frame in frames[:-1]:  # each picture with its round's narration
        assert all(line.startswith(f"R{frame['label'].split()[-1]} ") for line in frame["story"])
    assert frames[-1]["story"] == [records[-1]["words"]]  # the end: who won


def test_play_refuses_an_html_path_in_a_missing_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "--players", "3", "--html", str(tmp_path / "no" / "game.html")])
    assert info.value.code == 2
    assert "does not exist" in capsys.readouterr().err


# --- gotsim report ------------------------------------------------------------------------------


def _results_folder(folder: Path) -> Path:
    """A finished two-arm study (Tides of Battle off and on), compared by its arm."""
    from gotsim.study import run_study

    run_study(
        {
            "name": "tiny",
            "description": "two arms",
            "seed": 7,
            "games": 20,
            "block_size": 10,
            "players": 4,
            "grid": {"tides_of_battle": [False, True]},
            "compare": {"by": "tides_of_battle"},
        },
        out=folder,
    )
    return folder


def test_report_writes_one_page_of_the_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pandas as pd

    folder = _results_folder(tmp_path / "tiny")
    assert main(["report", str(folder)]) == 0
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "wrote" in capsys.readouterr().out
    summary = pd.read_csv(folder / "summary.csv")
    comparisons = pd.read_csv(folder / "comparisons.csv")
    # a row per cell and house, then one per comparison
    assert page.count("<tr><td class='text'>") == len(summary) + len(comparisons) == 8 + 4
    low, high = summary.ci_low[0], summary.ci_high[0]
    assert f"[{100 * low:.2f} %, {100 * high:.2f} %]" in page and "95 % CI (Wilson)" in page
    assert "two arms" in page and json.loads((folder / "meta.json").read_text())
    assert "data:image/png;base64," in page
    assert not re.search(r"""src=["'](?!data:)""", page)  # the figures travel inside the page


def test_a_study_says_which_players_answered_it(tmp_path: Path) -> None:
    """``meta.json``'s ``players``: each line-up of the grid with the cells it plays, every
    house's policy and the value of each parameter it played (the sets tuned for the cell's
    edition and player count, a scenario's own values over them); the report shows them."""
    from gotsim.players.params import PARAM_NAMES, defaults_for
    from gotsim.study import run_study

    folder = tmp_path / "players"
    result = run_study(
        {
            "name": "players",
            "seed": 3,
            "games": 4,
            "block_size": 4,
            "edition": "1e",
            "grid": {"players": [4, 5]},
            "policies": {"default": "heuristic", "stark": {"kind": "heuristic", "risk": 0.25}},
        },
        out=folder,
    )
    entries = json.loads((folder / "meta.json").read_text())["players"]
    assert entries == result.meta["players"]
    assert [(e["cells"], e["edition"], e["players"]) for e in entries] == [
        ([0], "1e", 4),
        ([1], "1e", 5),
    ]
    for entry in entries:
        n = entry["players"]
        assert set(entry["houses"]) == {h.id for h in houses_in_play(n, "1e")}
        for house_id, played in entry["houses"].items():
            expected = defaults_for(House[house_id.upper()], "1e", n).copy()
            if house_id == "stark":
                expected[PARAM_NAMES.index("risk")] = 0.25
            assert played["kind"] == "heuristic"
            own = ", the scenario's risk" if house_id == "stark" else ""
            assert played["set"] == f"tuned for 1e at {n} players{own}"
            assert played["params"] == {
                name: round(float(v), 4) for name, v in zip(PARAM_NAMES, expected, strict=True)
            }
    assert main(["report", str(folder)]) == 0
    page = (folder / "report.html").read_text(encoding="utf-8")
    assert "<h2>Players</h2>" in page and "cell(s) 1: 1e, 5 players" in page
    assert page.count("<table class='players'>") == 2
    greyjoy = entries[1]["houses"]["greyjoy"]["params"]["aggression"]
    assert f"<td>{greyjoy:.2f}</td>" in page


def test_report_refuses_a_folder_without_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["report", str(tmp_path)])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a finished study's results" in err[0]
    assert list(tmp_path.iterdir()) == []


def test_warmup_warms_every_group_and_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every kernel group is played once (stubbed here: the real compile takes minutes), with a
    line per group on stderr unless --quiet, and no second compile line from inside."""
    from gotsim.cli import commands as cli

    warmed: list[str] = []
    for name in ("random", "heuristic", "game", "heuristic_policy", "odds", "search"):
        monkeypatch.setattr(cli, f"_warm_{name}", lambda name=name: warmed.append(name))
    monkeypatch.setattr(jit, "group_will_compile", lambda name: name == "heuristic")
    monkeypatch.delenv(jit.ANNOUNCED_ENV, raising=False)
    assert main(["warmup"]) == 0
    out, err = capsys.readouterr()
    assert warmed == ["random", "heuristic", "game", "heuristic_policy", "odds", "search"]
    assert "kernels ready (1 of 6 groups compiled" in out
    assert "compiling the heuristic players' kernels (about 4–10 minutes on 2 cores)" in err
    assert err.count("in numba's cache") == 5
    assert set(os.environ[jit.ANNOUNCED_ENV].split(",")) == set(jit.KERNEL_GROUPS)
    assert main(["warmup", "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_the_search_group_names_the_kernel_search_games_are_played_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Games with a search player say the search player's kernels will compile (not the batch
    loop's, which they do not call), and play through the kernel that group names (stubbed
    here: it ends the stretch at once, so the games stay unfinished)."""
    from gotsim.play import simulate
    from gotsim.players import search

    called: list[str] = []
    monkeypatch.setattr(search, "play_to_search", lambda *a: called.append("play_to_search") or 0)
    monkeypatch.setattr(simulate, "announce_compile", lambda policies="random": False)
    policies = {"default": "heuristic", "stark": {"kind": "search", "rollouts": 1}}
    assert simulate._kernel_group(policies) == "search"
    assert simulate._kernel_group("heuristic") == "heuristic"
    assert simulate._kernel_group("random") == "random"
    with pytest.raises(simulate.EngineIncompleteError):
        simulate.play_games(1, players=3, policies=policies)
    assert called == ["play_to_search"]
    assert "play_to_search" in jit.KERNEL_GROUPS["search"].kernels


@pytest.mark.parametrize("way_in", ["play_games", "play_batch"])
def test_the_heuristic_group_names_the_loop_games_are_played_in(
    way_in: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kernel whose cache decides 'will compile' is the batch loop simulate, studies and
    play_batch really call (stubbed here, so nothing compiles)."""
    from gotsim.engine.tables import rules_table
    from gotsim.play import runner, simulate

    called: list[str] = []
    for name in ("play_policies", "play_policies_reused"):
        monkeypatch.setattr(runner, name, lambda *a, name=name: called.append(name))
    monkeypatch.setattr(simulate, "announce_compile", lambda policies="random": False)
    if way_in == "play_games":
        with pytest.raises(simulate.EngineIncompleteError):
            simulate.play_games(2, players=3, policies="heuristic")
    else:
        from gotsim.engine.init import new_games_range

        games = new_games_range(0, 0, 2, edition="2e", players=3, kings_court_swap=False)
        simulate.play_batch(games, rules_table("2e", 3), "heuristic")
    assert called and set(called) == set(jit.KERNEL_GROUPS["heuristic"].kernels)
