"""Studies: scenario files and their grids, bad input, the results folder, identical results on
every backend, resuming after a kill, refusing another scenario's folder, and the statistics."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import gotsim
from gotsim.analysis.stats import (
    compare,
    model_agreement,
    paired_difference,
    wilson_interval,
    win_rates,
)
from gotsim.cli import main
from gotsim.play.simulate import games_frame, play_games
from gotsim.study import (
    ScenarioError,
    StudyOutputError,
    load_scenario,
    run_study,
)
from gotsim.study.html_report import report_page
from gotsim.study.report import format_report

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "scenarios"
RIVERRUN = ROOT / "examples" / "positions" / "riverrun_round3.json"

TINY = """\
name = "tiny"
seed = 11
games = 40
block_size = 10
players = 5

[grid]
kings_court_swap = [false, true]

[compare]
by = "kings_court_swap"
houses = ["lannister"]
"""


def tiny(**changes: Any) -> dict[str, Any]:
    """The tiny scenario as a dict, with top-level keys changed."""
    spec: dict[str, Any] = {
        "name": "tiny",
        "seed": 11,
        "games": 40,
        "block_size": 10,
        "players": 5,
        "grid": {"kings_court_swap": [False, True]},
        "compare": {"by": "kings_court_swap", "houses": ["lannister"]},
    }
    spec.update(changes)
    return spec


def write(tmp_path: Path, text: str, name: str = "study.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- scenarios and grids -------------------------------------------------------------------------


def test_grid_is_the_factorial_product_in_file_order() -> None:
    s = load_scenario(
        {
            "name": "g",
            "seed": 1,
            "games": 25,
            "block_size": 10,
            "grid": {
                "players": [5, 6],
                "tides_of_battle": [False, True],
                "kings_court_swap": [False, True],
            },
        }
    )
    assert s.axes == ("players", "tides_of_battle", "kings_court_swap")
    assert len(s.cells) == 8
    assert [(c.players, c.tides_of_battle, c.kings_court_swap) for c in s.cells[:3]] == [
        (5, False, False),
        (5, False, True),
        (5, True, False),
    ]
    assert s.cells[7].label(s.axes) == "players=6, tides_of_battle=true, kings_court_swap=true"
    assert s.n_blocks == 3
    blocks = s.blocks()
    assert len(blocks) == 24
    # every cell plays the same game indices in the same blocks: common random numbers
    per_cell = {
        c.index: [(b.block, b.first_game, b.n_games) for b in blocks if b.cell == c.index]
        for c in s.cells
    }
    assert all(v == [(0, 0, 10), (1, 10, 10), (2, 20, 5)] for v in per_cell.values())


def test_defaults_policies_and_setup_keys(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """
name = "d"
seed = 3
games = 100
players = 5
policies = { default = "random", lannister = { kind = "random" } }
[setup]
houses = ["baratheon", "lannister", "stark", "greyjoy", "tyrell"]
kings_court_swap = true
[variants]
tides_of_battle = true
""",
    )
    s = load_scenario(path)
    (cell,) = s.cells
    assert (cell.edition, cell.players, cell.tides_of_battle, cell.kings_court_swap) == (
        "2e",
        5,
        True,
        True,
    )
    assert cell.policy_label == "random"
    assert s.block_size == 500 and s.source == str(path)


def test_shipped_scenarios_load() -> None:
    loaded = {p.stem: load_scenario(p) for p in sorted(SCENARIOS.glob("*.toml"))}
    assert {"quickstart", "lannister_swap", "player_counts", "tides_of_battle"} <= set(loaded)
    swap = loaded["lannister_swap"]
    assert [(c.edition, c.kings_court_swap) for c in swap.cells] == [
        ("2e", False),
        ("2e", True),
        ("1e", False),
        ("1e", True),
    ]
    one = loaded["lannister_swap_1e"]
    assert [c.params() for c in one.cells] == [c.params() for c in swap.cells[2:]]
    assert all(c.players == 5 for c in swap.cells) and swap.games >= 10_000
    assert swap.compare is not None and "lannister" in swap.compare.houses
    assert [c.players for c in loaded["player_counts"].cells] == [3, 4, 5, 6]
    assert [c.tides_of_battle for c in loaded["tides_of_battle"].cells] == [False, True]
    quick = loaded["quickstart"]
    assert quick.cells[0].players == 6 and 1_500 <= quick.games <= 3_000
    models = loaded["lannister_swap_models"]
    assert [(c.policy_label, c.kings_court_swap) for c in models.cells] == [
        (model, swap) for model in ("heuristic", "heuristic_v1", "random") for swap in (False, True)
    ]
    assert models.compare is not None and models.compare.by == "kings_court_swap"


def test_quick_games_and_hash() -> None:
    s = load_scenario(tiny(games=10_000, block_size=500))
    assert s.with_quick().games == 500  # 1/20
    assert load_scenario(tiny(games=1_000, block_size=200)).with_quick().games == 200  # a block
    assert load_scenario(tiny(quick_games=30)).with_quick().games == 30
    base = load_scenario(tiny())
    assert base.hash == load_scenario(tiny(description="other words", name="renamed")).hash
    assert base.hash != load_scenario(tiny(seed=12)).hash
    assert base.hash != load_scenario(tiny(games=41)).hash
    assert base.hash != load_scenario(tiny(block_size=20)).hash


# --- bad input -----------------------------------------------------------------------------------

BAD: list[tuple[str, str, str]] = [
    # (TOML text, key named in the message, words of the reason)
    ('name = "x"\nseed = 1\ngmaes = 10\n', "gmaes", "did you mean 'games'"),
    ('name = "x"\nseed = 1\n', "games", "required"),
    ("seed = 1\ngames = 10\n", "name", "required"),
    ('name = "a/b"\nseed = 1\ngames = 10\n', "name", "results folder"),
    ('name = "x"\nseed = 1\ngames = "many"\n', "games", "expected an integer"),
    ('name = "x"\nseed = 1\ngames = 1.5\n', "games", "expected an integer"),
    ('name = "x"\nseed = 1\ngames = 0\n', "games", "must be between 1 and 1,000,000,000, got 0"),
    ('name = "x"\nseed = -1\ngames = 10\n', "seed", "between 0"),
    ('name = "x"\nseed = 1\ngames = 10\nblock_size = true\n', "block_size", "an integer"),
    ('name = "x"\nseed = 1\ngames = 10\nquick_games = 20\n', "quick_games", "must not exceed"),
    ('name = "x"\nseed = 1\ngames = 10\nplayers = 7\n', "players", "3 to 6 players"),
    ('name = "x"\nseed = 1\ngames = 10\n[grid]\nplayers = [3, 7]\n', "grid.players", "7 players"),
    (
        'name = "x"\nseed = 1\ngames = 10\nedition = "1e"\nplayers = 5\n'
        "[variants]\ntides_of_battle = true\n",
        "variants.tides_of_battle",
        "2nd-edition variant",
    ),
    ('name = "x"\nseed = 1\ngames = 10\nedition = "2nd"\n', "edition", "unknown edition"),
    (
        'name = "x"\nseed = 1\ngames = 10\nplayers = 3\n'
        '[setup]\nhouses = ["baratheon", "lannister", "tully"]\n',
        "setup.houses[2]",
        "unknown house",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\nplayers = 3\n'
        '[setup]\nhouses = ["baratheon", "lannister", "targaryen"]\n',
        "setup.houses",
        "3 players means baratheon, lannister, stark",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\nplayers = 4\n'
        '[setup]\nhouses = ["baratheon", "lannister", "stark", "tyrell"]\n',
        "setup.houses",
        "fixed by the player count",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\nplayers = 4\n[setup]\nkings_court_swap = true\n',
        "setup.kings_court_swap",
        "tyrell is not playing",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n[setup]\nkings_court_swap = true\n'
        "[grid]\nplayers = [4, 5]\n",
        "setup.kings_court_swap",
        "(cell players=4)",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n'
        "[grid]\nplayers = [3, 5]\nkings_court_swap = [false, true]\n",
        "grid.kings_court_swap",
        "cell players=3",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n[variants]\nkings_court_swap = true\n',
        "variants.kings_court_swap",
        "[setup]",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n[variants]\ntide_of_battle = true\n',
        "variants.tide_of_battle",
        "did you mean 'tides_of_battle'",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n[variants]\ntides_of_battle = "yes"\n',
        "variants.tides_of_battle",
        "true or false",
    ),
    ('name = "x"\nseed = 1\ngames = 10\n[grid]\nplayer = [3, 4]\n', "grid.player", "'players'"),
    (
        'name = "x"\nseed = 1\ngames = 10\n[variants]\none_time_orders = true\n',
        "variants.one_time_orders",
        "1st-edition (A Clash of Kings) module",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\nplayers = 5\n[grid]\nedition = ["1e", "2e"]\n'
        "ports = [true]\n",
        "grid.ports",
        "(cell edition=2e, ports=true)",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\nedition = "1e"\nplayers = 5\n'
        "[variants]\nthree_cards = true\n",
        "variants.three_cards",
        "did you mean 'three_card_combat'",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n[grid]\ntides_of_battle = []\n',
        "grid.tides_of_battle",
        "non-empty",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n[grid]\ntides_of_battle = [true, true]\n',
        "grid.tides_of_battle",
        "listed twice",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\nplayers = 5\n[grid]\nplayers = [3, 4]\n',
        "grid.players",
        "not both",
    ),
    ('name = "x"\nseed = 1\ngames = 10\npolicies = "heuristik"\n', "policies", "unknown policy"),
    (
        'name = "x"\nseed = 1\ngames = 10\n[policies]\nstark = {kind = "heuristic", '
        "aggression = 1.5}\n",
        "policies.stark.aggression",
        "outside its range",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n[policies]\nstark = {kind = "heuristic", '
        "agression = 0.5}\n",
        "policies.stark.agression",
        "did you mean",
    ),
    ('name = "x"\nseed = 1\ngames = 10\npolicies = "genius"\n', "policies", "unknown policy"),
    (
        'name = "x"\nseed = 1\ngames = 10\nplayers = 5\n[policies]\nmartell = "random"\n',
        "policies.martell",
        "not playing with 5 players",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n[policies]\nstarks = "random"\n',
        "policies.starks",
        "did you mean 'stark'",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n'
        '[policies]\nlannister = { kind = "random", depth = 2 }\n',
        "policies.lannister.depth",
        "unknown parameter",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\nstart_position = "nowhere.json"\n',
        "start_position",
        "no position file",
    ),
    (
        f'name = "x"\nseed = 1\ngames = 10\nplayers = 5\nstart_position = "{RIVERRUN}"\n',
        "players",
        "6-player position",
    ),
    (
        f'name = "x"\nseed = 1\ngames = 10\nstart_position = "{RIVERRUN}"\n'
        "[setup]\nkings_court_swap = true\n",
        "setup.kings_court_swap",
        "fixes the influence tracks",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n[grid]\ntides_of_battle = [false, true]\n'
        '[compare]\nby = "tides"\n',
        "compare.by",
        "did you mean 'tides_of_battle'",
    ),
    (
        'name = "x"\nseed = 1\ngames = 10\n[grid]\nplayers = [3, 4]\n'
        '[compare]\nby = "players"\nhouses = ["greyjoy"]\n',
        "compare.houses[0]",
        "every cell",
    ),
    ('name = "x"\nseed = 1\ngames = = 10\n', "TOML", "line 3"),
]


@pytest.mark.parametrize(
    ("text", "key", "reason"), BAD, ids=[f"{i}-{k}" for i, (_, k, _) in enumerate(BAD)]
)
def test_bad_scenario_names_file_key_and_reason(
    text: str, key: str, reason: str, tmp_path: Path
) -> None:
    path = write(tmp_path, text, "bad.toml")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {key}: "), message
    assert reason in message
    assert caught.value.key == key


def test_bad_position_file_is_refused(tmp_path: Path) -> None:
    broken = json.loads(RIVERRUN.read_text())
    broken["round"] = 11
    (tmp_path / "pos.json").write_text(json.dumps(broken))
    path = write(tmp_path, 'name = "x"\nseed = 1\ngames = 10\nstart_position = "pos.json"\n')
    with pytest.raises(ScenarioError, match=r"study\.toml: start_position: pos\.json: round"):
        load_scenario(path)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ([], "players: 7 players"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--scheduler", "localhost:8786"], "tcp://HOST"),
        (["--scheduler", "tcp://127.0.0.1:1", "--dask-local"], "not allowed with"),
    ],
)
def test_cli_bad_input_exits_2_and_writes_nothing(
    extra: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    scenario = write(tmp_path, TINY.replace("players = 5", "players = 7"))
    if extra:
        scenario = write(tmp_path, TINY)
    with pytest.raises(SystemExit) as caught:
        main(["run", str(scenario), *extra])
    assert caught.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and message in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["study.toml"]


def test_cli_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["run", str(tmp_path / "none.toml")])
    assert caught.value.code == 2
    assert "none.toml: file: no such scenario file" in capsys.readouterr().err


# --- results ------------------------------------------------------------------------------------


def test_results_layout_and_contents(tmp_path: Path) -> None:
    out = tmp_path / "res"
    result = run_study(tiny(), out=out)
    for name in (
        "games.parquet",
        "rounds.parquet",
        "summary.csv",
        "comparisons.csv",
        "meta.json",
        "scenario.json",
        "figures/win_rates.png",
        "figures/differences.png",
    ):
        assert (out / name).is_file(), name
    assert (out / "figures" / "win_rates.png").read_bytes()[:4] == b"\x89PNG"
    assert len(list((out / "blocks").glob("*.games.parquet"))) == 8
    assert not list(out.rglob("*.tmp"))

    games = pd.read_parquet(out / "games.parquet")
    pd.testing.assert_frame_equal(games, result.games)
    assert len(games) == 80
    for column in (
        "study",
        "cell",
        "block",
        "game",
        "seed_key",
        "edition",
        "players",
        "tides_of_battle",
        "kings_court_swap",
        "policies",
        "winner",
        "end_reason",
        "castles_lannister",
        "battles",
    ):
        assert column in games.columns
    assert "castles_martell" not in games.columns
    assert games.groupby("cell")["kings_court_swap"].first().tolist() == [False, True]
    # block b of each cell holds games b*10 …; game i is seeded as gotsim.simulate seeds it
    assert (games["block"] == games["game"] // 10).all()
    expected = games_frame(play_games(40, players=5, seed=11), players=5, seed=11)
    cell0 = games[games["cell"] == 0].reset_index(drop=True)
    assert cell0["winner"].tolist() == expected["winner"].tolist()
    assert cell0["seed_key"].tolist() == games[games["cell"] == 1]["seed_key"].tolist()

    rounds = pd.read_parquet(out / "rounds.parquet")
    per_game = rounds.groupby(["cell", "game"]).size()
    ends = games.set_index(["cell", "game"])["end_round"]
    assert (per_game.sort_index() == ends.sort_index()).all()

    summary = pd.read_csv(out / "summary.csv")
    assert len(summary) == 10  # 2 cells × 5 houses
    assert set(summary.columns) >= {
        "cell",
        "kings_court_swap",
        "house",
        "games",
        "wins",
        "win_rate",
        "ci_low",
        "ci_high",
        "wins_castles",
        "wins_round10",
    }
    assert (summary.groupby("cell")["wins"].sum() == 40).all()
    assert ((summary.ci_low <= summary.win_rate) & (summary.win_rate <= summary.ci_high)).all()
    assert (summary.wins_castles + summary.wins_round10 == summary.wins).all()

    meta = json.loads((out / "meta.json").read_text())
    assert meta["root_entropy"] == 11 and meta["scenario_hash"] == result.scenario.hash
    assert meta["gotsim_version"] == gotsim.__version__
    assert {"numpy", "numba", "pandas", "pyarrow"} <= set(meta["packages"])
    assert "git_sha" in meta
    assert json.loads((out / "scenario.json").read_text())["hash"] == result.scenario.hash

    assert result.comparisons is not None
    (row,) = result.comparisons.to_dict("records")
    assert row["house"] == "lannister" and row["method"].startswith("paired")
    assert row["pairs"] == 4


def test_cli_run_prints_the_table_and_the_comparison(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = write(tmp_path, TINY)
    assert main(["run", str(scenario), "--out", str(tmp_path / "r"), "--quick"]) == 0
    out = capsys.readouterr().out
    assert "tiny (quick)" in out and "lannister" in out and "95 % CI" in out
    assert "Lannister: kings_court_swap=false" in out and "difference" in out and "p = " in out
    assert len(pd.read_parquet(tmp_path / "r" / "games.parquet")) == 20  # one block per cell


def test_quick_goes_to_its_own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_study(tiny(), quick=True)
    assert result.out == Path("results") / "tiny-quick"
    assert len(result.games) == 20


def test_same_results_for_any_block_size(tmp_path: Path) -> None:
    a = run_study(tiny(block_size=10), out=tmp_path / "a").games
    b = run_study(tiny(block_size=25), out=tmp_path / "b").games
    pd.testing.assert_frame_equal(a.drop(columns="block"), b.drop(columns="block"))


def test_heuristic_policies_play_as_in_simulate(tmp_path: Path) -> None:
    spec = tiny()
    del spec["grid"], spec["compare"]
    spec["policies"] = {
        "default": "heuristic",
        "stark": "random",
        "lannister": {"kind": "heuristic", "aggression": 0.9},
    }
    a = run_study(spec, out=tmp_path / "a").games
    b = run_study(spec | {"block_size": 40}, out=tmp_path / "b").games
    pd.testing.assert_frame_equal(a.drop(columns="block"), b.drop(columns="block"))
    expected = gotsim.simulate(40, players=5, seed=11, policies=spec["policies"])
    assert a["winner"].tolist() == expected["winner"].tolist()
    assert a["policies"].iloc[0] != "random"


def test_clash_of_kings_modules_in_scenarios(tmp_path: Path) -> None:
    """The A Clash of Kings modules are [variants] switches and [grid] axes of 1e scenarios:
    each cell plays what ``simulate`` plays with the same variants, and the games table says
    which modules a cell had."""
    spec = tiny(edition="1e", games=20, variants={"ports": True, "three_card_combat": True})
    spec["grid"] = {"one_time_orders": [False, True]}
    spec["compare"] = {"by": "one_time_orders", "houses": ["lannister"]}
    games = run_study(spec, out=tmp_path / "m").games
    assert games.ports.all() and games.three_card_combat.all() and not games.siege_engines.any()
    for on in (False, True):
        cell = games[games.one_time_orders == on].sort_values("game")
        variants = {"ports": True, "three_card_combat": True, "one_time_orders": on}
        expected = gotsim.simulate(20, players=5, edition="1e", seed=11, variants=variants)
        assert cell["winner"].tolist() == expected["winner"].tolist()


def test_start_position_plays_from_the_position(tmp_path: Path) -> None:
    from gotsim.play.simulate import simulate_from_position

    spec = {"name": "pos", "seed": 5, "games": 12, "block_size": 5, "start_position": str(RIVERRUN)}
    result = run_study(spec, out=tmp_path / "pos")
    expected = simulate_from_position(RIVERRUN, 12, 5)
    assert result.games["winner"].tolist() == expected["winner"].tolist()
    assert (result.games["start_position"] == str(RIVERRUN)).all()
    assert result.rounds["round"].min() == 3


# --- identical results on every backend, resume, refusal -----------------------------------------


def _blocks_done(out: Path) -> int:
    return len(list((out / "blocks").glob("cell*.json"))) if (out / "blocks").is_dir() else 0


def test_killed_run_resumes_to_identical_results(tmp_path: Path) -> None:
    text = TINY.replace("games = 40", "games = 600").replace("block_size = 10", "block_size = 15")
    scenario = write(tmp_path, text)
    reference = run_study(scenario, out=tmp_path / "ref")

    out = tmp_path / "killed"
    command = [sys.executable, "-m", "gotsim.cli", "run", str(scenario), "--out", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while _blocks_done(out) < 3 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    process.send_signal(signal.SIGKILL)
    process.wait()
    done = _blocks_done(out)
    assert 3 <= done < 80, done  # killed part-way
    assert not (out / "games.parquet").exists()
    # what a kill can leave: a half-written temporary file, a block with rounds but no games
    (out / "blocks" / ".cell0000-block000070.games.parquet.1.tmp").write_bytes(b"PAR1 half")
    (out / "blocks" / "cell0001-block000039.rounds.parquet").write_bytes(b"garbage")

    resumed = run_study(scenario, out=out)
    assert resumed.meta["games_played_this_run"] == 1200 - 15 * done
    for table in ("games.parquet", "rounds.parquet"):
        pd.testing.assert_frame_equal(
            pd.read_parquet(tmp_path / "ref" / table), pd.read_parquet(out / table)
        )
    pd.testing.assert_frame_equal(reference.summary, resumed.summary)
    assert not list(out.rglob("*.tmp"))


def test_identical_for_jobs_1_jobs_2_and_dask_local_with_a_worker_killed(tmp_path: Path) -> None:
    """The same games.parquet in process, on two loky workers, and on a loopback LocalCluster
    (``--dask-local``) one of whose workers is killed mid-run (dask reruns its blocks)."""
    text = TINY.replace("games = 40", "games = 400").replace("block_size = 10", "block_size = 20")
    scenario = write(tmp_path, text)
    one = run_study(scenario, out=tmp_path / "j1", jobs=1)
    two = run_study(scenario, out=tmp_path / "j2", jobs=2)
    for table in ("games.parquet", "rounds.parquet"):
        pd.testing.assert_frame_equal(
            pd.read_parquet(tmp_path / "j1" / table), pd.read_parquet(tmp_path / "j2" / table)
        )
    pd.testing.assert_frame_equal(one.summary, two.summary)

    distributed = pytest.importorskip("distributed")
    out = tmp_path / "dask"
    result: dict[str, Any] = {}
    runner = threading.Thread(
        target=lambda: result.update(r=run_study(scenario, out=out, dask_local=True))
    )
    runner.start()
    deadline = time.monotonic() + 90
    while _blocks_done(out) < 2 and runner.is_alive() and time.monotonic() < deadline:
        time.sleep(0.005)
    workers = distributed.default_client().run(os.getpid)  # the client run_study made
    os.kill(next(iter(workers.values())), signal.SIGKILL)
    killed_at = _blocks_done(out)
    runner.join(120)
    assert killed_at < 40 and "r" in result
    for table in ("games.parquet", "rounds.parquet"):
        pd.testing.assert_frame_equal(
            pd.read_parquet(tmp_path / "j1" / table), pd.read_parquet(out / table)
        )
    assert result["r"].meta["backend"].startswith("dask LocalCluster")


def test_other_scenario_folder_is_refused_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "res"
    run_study(tiny(), out=out)
    before = (out / "games.parquet").read_bytes()
    with pytest.raises(StudyOutputError, match="different scenario"):
        run_study(tiny(seed=12), out=out)
    other = write(tmp_path, TINY.replace("seed = 11", "seed = 12"))
    with pytest.raises(SystemExit) as caught:
        main(["run", str(other), "--out", str(out)])
    assert caught.value.code == 2
    assert "different scenario" in capsys.readouterr().err
    assert (out / "games.parquet").read_bytes() == before

    forced = run_study(tiny(seed=12), out=out, force=True)
    assert (forced.games["seed_key"].str.startswith("12:")).all()
    assert json.loads((out / "scenario.json").read_text())["hash"] == forced.scenario.hash
    assert len(list((out / "blocks").glob("*.games.parquet"))) == 8

    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(StudyOutputError, match="not made by gotsim run"):
        run_study(tiny(), out=foreign)


# --- statistics -----------------------------------------------------------------------------------


def test_wilson_interval_known_values() -> None:
    assert wilson_interval(5, 10) == pytest.approx((0.236593, 0.763407), abs=1e-6)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.277533), abs=1e-6)
    assert wilson_interval(10, 10) == pytest.approx((0.722467, 1.0), abs=1e-6)
    assert wilson_interval(81, 263) == pytest.approx((0.255289, 0.366210), abs=1e-6)
    low, high = wilson_interval(np.array([1, 50]), np.array([4, 100]), level=0.9)
    assert low.shape == (2,) and high[1] == pytest.approx(0.5 + (0.5 - low[1]))
    assert all(math.isnan(v) for v in wilson_interval(0, 0))
    with pytest.raises(ValueError):
        wilson_interval(3, 2)


def _synthetic(block_wins: dict[bool, list[int]], size: int = 10) -> pd.DataFrame:
    """Two arms over the same games: in block k, the first block_wins[arm][k] games go to
    lannister and the rest to stark."""
    rows = []
    for arm, wins in block_wins.items():
        for block, w in enumerate(wins):
            for j in range(size):
                game = block * size + j
                rows.append(
                    {
                        "swap": arm,
                        "block": block,
                        "game": game,
                        "seed_key": f"1:{game}",
                        "winner": "lannister" if j < w else "stark",
                    }
                )
    return pd.DataFrame(rows)


def test_compare_paired_by_block_known_answer() -> None:
    games = _synthetic({False: [2, 3, 1, 4], True: [3, 5, 1, 7]})
    (row,) = compare(games, house="lannister", by="swap").to_dict("records")
    rates = np.array([[0.2, 0.3, 0.1, 0.4], [0.3, 0.5, 0.1, 0.7]])
    t_test = stats.ttest_rel(rates[1], rates[0])
    assert row["difference"] == pytest.approx(0.15)
    assert row["p_value"] == pytest.approx(t_test.pvalue)
    half = stats.t.ppf(0.975, 3) * np.std(rates[1] - rates[0], ddof=1) / 2
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((0.15 - half, 0.15 + half))
    assert row["method"] == "paired blocks (t)" and row["pairs"] == 4
    assert (row["baseline"], row["arm"]) == (False, True)
    assert (row["rate_baseline"], row["rate_arm"]) == pytest.approx((0.25, 0.4))


def test_compare_unequal_blocks_estimate_is_the_overall_difference() -> None:
    d = paired_difference([3, -1, 2], [10, 10, 5])
    assert d.difference == pytest.approx(4 / 25)
    assert d.ci_low < d.difference < d.ci_high and 0 < d.p_value < 1


def test_compare_unpaired_two_proportion_z_test() -> None:
    games = pd.DataFrame(
        {
            "arm": ["a"] * 100 + ["b"] * 100,
            "game": list(range(100)) + list(range(100, 200)),  # different games: no pairing
            "winner": ["lannister"] * 40 + ["stark"] * 60 + ["lannister"] * 60 + ["stark"] * 40,
        }
    )
    (row,) = compare(games, house="lannister", by="arm").to_dict("records")
    assert row["method"] == "two-proportion z" and row["pairs"] == 0
    assert row["difference"] == pytest.approx(0.2)
    assert row["p_value"] == pytest.approx(2 * stats.norm.sf(0.2 / math.sqrt(0.25 * 0.02)))
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((0.06421, 0.33579), abs=1e-5)
    with pytest.raises(ValueError, match="same games"):
        compare(games, house="lannister", by="arm", paired=True)
    forced = compare(
        _synthetic({False: [2, 3], True: [3, 5]}), house="lannister", by="swap", paired=False
    )
    assert forced["method"].tolist() == ["two-proportion z"]


def test_compare_one_block_pairs_game_by_game() -> None:
    games = _synthetic({False: [4], True: [6]})
    (row,) = compare(games, house="lannister", by="swap").to_dict("records")
    won = {arm: (games[games.swap == arm].winner == "lannister").astype(int) for arm in (0, 1)}
    expected = stats.ttest_rel(won[1].to_numpy(), won[0].to_numpy())
    assert row["method"] == "paired games (t)" and row["pairs"] == 10
    assert row["difference"] == pytest.approx(0.2)
    assert row["p_value"] == pytest.approx(expected.pvalue)


def test_compare_within_strata_and_houses_in_play() -> None:
    a = _synthetic({False: [2, 3, 1, 4], True: [3, 5, 1, 7]}).assign(players=5)
    b = _synthetic({False: [5, 5, 5, 5], True: [5, 5, 5, 5]}).assign(players=6)
    games = pd.concat([a, b], ignore_index=True)
    games["castles_martell"] = np.where(games["players"] == 6, 1, np.nan)
    table = compare(games, house="lannister", by="swap")
    assert table["players"].tolist() == [5, 6]
    assert table["difference"].tolist() == pytest.approx([0.15, 0.0])
    assert table["p_value"].tolist()[1] == 1.0
    martell = compare(games, house="martell", by="swap")
    assert martell["players"].tolist() == [6] and martell["games_arm"].tolist() == [40]
    rates = win_rates(games, by=["players", "swap"])
    assert set(rates[rates.players == 5]["house"]) == {"lannister", "stark"}
    with pytest.raises(ValueError, match="by: no column"):
        compare(games, house="lannister", by="nope")


def test_win_rates_leave_vassals_out() -> None:
    """A vassal never wins (V9): in a vassal game it has no win rate; the same house playing in
    another game keeps its row."""
    games = pd.DataFrame(
        {
            "winner": ["stark", "lannister", "stark", "martell"],
            "castles_martell": [2, 3, 1, 4],
            "vassal_houses": ["martell,arryn", "martell,arryn", "martell,arryn", ""],
        }
    )
    rates = win_rates(games).set_index("house")
    assert rates.loc["martell", "games"] == 1 and rates.loc["martell", "wins"] == 1
    assert rates.loc["stark", "games"] == 4 and "arryn" not in rates.index


# --- player models -------------------------------------------------------------------------------


def _answers(differences: list[float], half: float, se: float) -> pd.DataFrame:
    """One question (stark) answered by len(differences) models, each with ± half."""
    return pd.DataFrame(
        {
            "house": "stark",
            "policies": [f"m{i}" for i in range(len(differences))],
            "difference": differences,
            "ci_low": [d - half for d in differences],
            "ci_high": [d + half for d in differences],
            "se": se,
        }
    )


def test_model_agreement_names_each_kind_of_answer() -> None:
    def sign(differences: list[float]) -> str:
        out = model_agreement(_answers(differences, 0.02, 0.01), keys=["house"])
        assert out["models_sign"].nunique() == 1  # one verdict per question, on every row
        return str(out["models_sign"].iloc[0])

    assert sign([0.05, 0.04, 0.06]) == "agree"
    assert sign([-0.05, -0.04]) == "agree"
    assert sign([0.05, -0.04]) == "opposite"
    assert sign([0.05, 0.0]) == "partly"
    assert sign([0.01, -0.01]) == "no effect"


def test_model_agreement_size_is_cochrans_q() -> None:
    out = model_agreement(_answers([0.05, 0.01], 0.02, 0.01), keys=["house"])
    q = (0.05 - 0.03) ** 2 / 0.01**2 * 2  # equal weights: the mean is 0.03
    assert out["models_size_p"].iloc[0] == pytest.approx(stats.chi2.sf(q, 1))
    assert out["models_size"].iloc[0] == "differs"  # p = 0.005
    assert out["models_spread"].iloc[0] == pytest.approx(0.04)
    similar = model_agreement(_answers([0.05, 0.04], 0.02, 0.01), keys=["house"])
    assert similar["models_size"].iloc[0] == "similar" and similar["models"].iloc[0] == 2
    with pytest.raises(ValueError, match="'players'"):
        model_agreement(_answers([0.1], 0.02, 0.01), keys=["players"])


def test_compare_says_whether_player_models_agree() -> None:
    """Two models over the same blocks: under one the swap helps Lannister, under the other it
    hurts; compare() puts both rows under one question and calls them opposite."""
    helps = _synthetic({False: [2, 2, 3, 2, 2, 3], True: [6, 7, 6, 7, 6, 7]})
    hurts = _synthetic({False: [6, 7, 6, 7, 6, 7], True: [2, 2, 3, 2, 2, 3]})
    games = pd.concat([helps.assign(policies="a"), hurts.assign(policies="b")])
    out = compare(games, house="lannister", by="swap", within=["policies"])
    assert out["policies"].tolist() == ["a", "b"]
    assert out["models_sign"].tolist() == ["opposite", "opposite"]
    assert out["models_size"].tolist() == ["differs", "differs"]
    single = compare(helps.assign(policies="a"), house="lannister", by="swap", within=["policies"])
    assert "models_sign" not in single.columns  # one model: nothing to agree on


def test_a_study_over_player_models_says_where_they_agree(tmp_path: Path) -> None:
    """A policies axis: summary.csv answers "above or below the fair share?" across the models,
    comparisons.csv whether the models agree on each comparison, and the report says both."""
    spec = tiny(
        games=60,
        block_size=20,
        grid={"kings_court_swap": [False, True], "policies": ["random", "heuristic"]},
        compare={"by": "kings_court_swap", "houses": ["lannister", "greyjoy"]},
    )
    out = tmp_path / "models"
    result = run_study(spec, out=out)
    summary = pd.read_csv(out / "summary.csv")
    assert {"models", "models_sign", "models_spread", "models_size"} <= set(summary.columns)
    assert (summary["models"] == 2).all()
    per_question = summary.groupby(["kings_court_swap", "house"])["models_sign"].nunique()
    assert (per_question == 1).all()
    comparisons = pd.read_csv(out / "comparisons.csv")
    assert sorted(comparisons["policies"].unique()) == ["heuristic", "random"]
    assert comparisons.groupby("house")["models_sign"].nunique().eq(1).all()
    report = format_report(result.scenario, result.summary, result.comparisons, out=str(out))
    assert "Player models, each comparison:" in report
    assert "Player models, each house against its fair share" in report
    page = report_page(out)
    assert "models: sign" in page and "<th class='text'>policies</th>" in page
