"""gotsim.simulate, gotsim play and gotsim bench: the public contract of complete games."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import gotsim
from gotsim.cli import main
from gotsim.engine.game import Game, IllegalActionError, RandomPolicy


def test_simulate_columns_and_values() -> None:
    df = gotsim.simulate(40, players=5, seed=3)
    for column in ("game", "seed_key", "players", "edition", "winner", "end_round", "end_reason"):
        assert column in df.columns
    for house in ("baratheon", "lannister", "stark", "greyjoy", "tyrell"):
        for what in ("castles", "power", "supply", "battles"):
            assert f"{what}_{house}" in df.columns
    assert "castles_martell" not in df.columns
    assert len(df) == 40 and (df.players == 5).all() and (df.edition == "2e").all()
    assert set(df.end_reason) <= {"castles", "round10"}
    assert df.winner.isin(["baratheon", "lannister", "stark", "greyjoy", "tyrell"]).all()
    assert (df.end_round.between(1, 10)).all()
    castles = df[[f"castles_{h}" for h in ("baratheon", "lannister", "stark", "greyjoy", "tyrell")]]
    assert (castles.max(axis=1) <= 7).all()


def test_same_seed_same_frame_whatever_n_jobs() -> None:
    """A game depends only on (seed, its index): n_jobs and batch boundaries change nothing."""
    a = gotsim.simulate(60, players=6, seed=9, n_jobs=1)
    b = gotsim.simulate(60, players=6, seed=9, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)
    c = gotsim.simulate(60, players=6, seed=10)
    assert not a.equals(c)


def test_tides_of_battle_variant() -> None:
    df = gotsim.simulate(20, players=4, seed=1, variants={"tides_of_battle": True})
    assert len(df) == 20


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variants": {"dragons": True}}, "unknown variant"),
        ({"variants": {"tides_of_battle": "yes"}}, "true or false"),
        ({"policies": "heuristik"}, "did you mean 'heuristic'"),
        ({"policies": {"stark": {"kind": "genius"}}}, "unknown policy kind 'genius'"),
        ({"policies": {"stark": {"aggression": 2}}}, "outside its range"),
        ({"policies": {"starks": "heuristic"}}, "did you mean 'stark'"),
        ({"players": 7}, "7 players"),
    ],
)
def test_simulate_bad_input(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gotsim.simulate(2, **kwargs)


def test_python_game_matches_the_batch_path() -> None:
    """The Python driver with the random policy plays the very game the compiled batch plays."""
    from gotsim.play.simulate import play_games

    game = Game(players=6, seed=5)
    game.play(RandomPolicy())
    batch = play_games(1, players=6, seed=5)
    assert game.record.tobytes() == batch[0].tobytes()


def test_python_game_refuses_illegal_actions() -> None:
    game = Game(players=3, seed=0)
    with pytest.raises(IllegalActionError, match="PLACE_ORDER"):
        game.step(62)


def test_play_json_and_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.log"
    assert main(["play", "--players", "3", "--seed", "4", "--log", str(log), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["players"] == 3 and summary["winner"] in ("baratheon", "lannister", "stark")
    text = log.read_text()
    assert "Westeros cards:" in text and "battle for" in text and "wins (" in text


def test_play_pictures(tmp_path: Path) -> None:
    pictures = tmp_path / "pictures"
    assert main(["play", "--players", "3", "--seed", "1", "--pictures", str(pictures)]) == 0
    names = sorted(p.name for p in pictures.iterdir())
    assert "round_01.png" in names and "final.png" in names


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--players", "4", "--games", "50", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) >= {"games_per_s", "games", "players", "policy", "jobs"}
    assert result["games"] == 50 and result["games_per_s"] > 0


def test_bench_compares_two_policies_in_one_run(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "--players", "4", "--games", "40", "--policy", "heuristic"]
    assert main([*argv, "--compare", "random", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["policy"] == "heuristic" and result["compare"] == "random"
    assert result["ratio"] == pytest.approx(
        result["games_per_s"] / result["compare_games_per_s"], rel=0.01
    )
    assert main([*argv, "--compare", "random"]) == 0
    line = capsys.readouterr().out
    assert "heuristic runs at" in line and "of random's rate" in line


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players", "7"],
        ["play", "--log", "no/such/dir/game.log"],
        ["bench", "--games", "0"],
        ["bench", "--policy", "heuristik"],
        ["bench", "--jobs", "0"],
    ],
)
def test_play_and_bench_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_a_game_replays_exactly_from_its_actions() -> None:
    from gotsim.engine.game import replay

    game = Game(players=4, seed=8, variants={"tides_of_battle": True})
    game.play(RandomPolicy())
    again = replay(game.actions, players=4, seed=8, variants={"tides_of_battle": True})
    assert again.narrative() == game.narrative()
    a, b = game.games.copy(), again.games.copy()
    a.rng[:, 1:] = 0  # the houses' own streams were used by the policy, not by the replay
    b.rng[:, 1:] = 0
    assert a.tobytes() == b.tobytes()


def test_observation_hides_other_houses_orders_during_planning() -> None:
    from gotsim.rules.ids import House

    game = Game(players=6, seed=2)
    while game.pending is not None and game.pending.house == House.BARATHEON:
        game.step(game.pending.legal[0])
    seen = game.observation(House.STARK)
    assert (seen["orders"] == -1).all()
    mine = game.observation(House.BARATHEON)
    assert (mine["orders"] >= 0).sum() == 3


def _compiled_types(kernel: Any) -> list[tuple]:
    """Every argument-type tuple ``kernel`` was compiled for: in this process, and in its
    on-disk cache (numba's index of the cache file, a private structure: a kernel called by
    another compiled function is loaded from the cache without a signature of its own)."""
    types = list(kernel.signatures)
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    if cache_file is not None:
        types += [key[0] for key in cache_file._load_index()]
    return types


def test_every_way_in_plays_one_compiled_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The batch loop, a study's batch and the Python policy call the heuristic with the same
    argument types (house int64, writable C-ordered parameter tables), so it is compiled once
    for all of them, not once per type: a second compilation of the whole heuristic costs
    minutes. A batch of one game (whose broadcast parameter table is read-only) is no
    exception."""
    from gotsim.engine.tables import rules_table
    from gotsim.play import runner, simulate
    from gotsim.players import HeuristicPolicy
    from gotsim.players.heuristic import heuristic_action

    def refuse(*args: object) -> None:
        raise AssertionError("play_batch took the per-game-memo loop")

    gotsim.simulate(3, players=6, seed=4, policies="heuristic")
    monkeypatch.setattr(runner, "play_policies", refuse)
    games = simulate.new_games_range(4, 0, 1, players=6)
    simulate.play_batch(games, rules_table("2e", 6, None), "heuristic")
    assert games.done.all()
    game = Game(players=6, seed=4)
    policy = HeuristicPolicy()
    for _ in range(20):
        pending = game.pending
        assert pending is not None
        game.step(policy(game, pending))
    types = _compiled_types(heuristic_action)
    assert types
    for args in types:
        house, params = args[2], args[4]
        assert str(house) == "int64" and params.mutable and params.layout == "C", args
    for kernel in (runner.play_policies_one, runner.play_policies_reused):
        for args in _compiled_types(kernel):
            kinds, params = args[2], args[3]
            assert kinds.mutable and params.mutable, (kernel.__name__, args)
            assert kinds.layout == "C" and params.layout == "C", (kernel.__name__, args)
