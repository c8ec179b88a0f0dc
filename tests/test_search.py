"""The search player (``gotsim.players.search``): legal, fair (it reads nothing hidden),
reproducible whatever ``n_jobs``, usable wherever a policy is, and its resampling of hidden facts
leaves a game the engine can play on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import gotsim
from gotsim.engine.game import Game
from gotsim.engine.invariants import violations
from gotsim.engine.machine import advance, apply_legal, legal
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import N_ACTIONS, N_ORDER_KINDS, Decision, Phase
from gotsim.play.simulate import play_games
from gotsim.play.tournament import play_seated
from gotsim.players import HeuristicPolicy, make_policy, search
from gotsim.players.heuristic import heuristic_action
from gotsim.players.memo import new_memos
from gotsim.players.params import DEFAULTS, HEURISTIC, SEARCH
from gotsim.players.search import (
    Searcher,
    SearchPolicy,
    SearchSettings,
    can_search,
    commander_view,
    resample_hidden,
    search_settings,
)
from gotsim.players.vassals import command_filter

CHEAP = {"kind": "search", "rollouts": 2, "candidates": 3, "horizon": 1}


def _scramble(record: np.record, house: int, rng: np.random.Generator) -> None:
    """Change what ``house`` may not see at a search point: the decks' order, every other random
    stream, other houses' face-down orders (planning) and secret bids (bidding). (Hands are
    public in both editions.)"""
    for deck in range(3):
        start = int(record.westeros_next[deck])
        rng.shuffle(record.westeros[deck, start:])
    rng.shuffle(record.wildlings)
    for stream in range(record.rng.shape[0]):
        if stream != 1 + house:
            record.rng[stream] = rng.integers(1, 2**63, size=4, dtype=np.uint64)
    if record.phase == Phase.PLANNING:
        for a in range(len(record.order)):
            if record.owner[a] >= 0 and record.owner[a] != house and record.order[a] >= 0:
                kind = int(rng.integers(0, 11))
                record.orders_used[record.owner[a], record.order[a]] -= 1
                record.orders_used[record.owner[a], kind] += 1
                record.order[a] = kind
    if record.pending == Decision.BID:
        for e in range(6):
            if e != house:
                record.bid[e] = rng.integers(0, 20)


def scrambled_answers(
    game: Game,
    house: int,
    seer: int,
    make: Callable[[], Searcher],
    rng: np.random.Generator,
    kinds: np.ndarray,
    params: np.ndarray,
) -> tuple[list[int], list[Searcher]]:
    """A fresh searcher's (``make()``) answers for ``house`` at the game's pending decision,
    first on a copy as it is, then on a copy where what ``seer`` may not see is scrambled."""
    mask = np.zeros(N_ACTIONS, np.bool_)
    mask[list(game.pending.legal)] = True
    answers, searchers = [], []
    for scramble in (False, True):
        copy = game.games.copy()
        if scramble:
            _scramble(copy[0], seer, rng)
        searcher = make()
        answers.append(
            searcher.choose(copy[0], game.t, house, mask, new_memos(1)[0], kinds, params)
        )
        searchers.append(searcher)
    assert all(mask[a] for a in answers)
    return answers, searchers


def test_search_never_reads_hidden_information() -> None:
    """At every search point of a game the search player's choice is the same when everything
    it may not see is scrambled first."""
    rng = np.random.default_rng(8)
    settings = SearchSettings(rollouts=2, candidates=4, horizon=1)
    game = Game(players=4, seed=11)
    heuristic = HeuristicPolicy()
    kinds = np.full(6, HEURISTIC, np.int8)
    params = np.tile(DEFAULTS, (6, 1))
    checked: dict[int, int] = {}
    departures = 0  # searches that chose another variant than the house's own heuristic
    while (pending := game.pending) is not None and game.record.game_round <= 8:
        house = int(pending.house)
        if can_search(game.record, game.t) and checked.get(int(pending.kind), 0) < 24:
            answers, searchers = scrambled_answers(
                game, house, house, lambda: Searcher(settings), rng, kinds, params
            )
            searcher = searchers[1]
            assert answers[0] == answers[1], (pending.kind.name, int(game.record.game_round))
            checked[int(pending.kind)] = checked.get(int(pending.kind), 0) + 1
            # the choice is logged with the variants offered (distinct candidates, own first)
            for decision, offered, variant in searcher.choices:
                assert decision == int(pending.kind) and offered[0] == 0
                assert len(set(offered)) == len(offered) > 1 and variant in offered
                departures += variant != 0
        game.step(heuristic(game, pending))
    assert checked.get(Decision.PLACE_ORDER, 0) >= 20
    assert checked.get(Decision.MARCH_FROM, 0) >= 20
    assert checked.get(Decision.MUSTER, 0) >= 4
    assert checked.get(Decision.BID, 0) >= 4, checked
    assert departures > 0


def test_resampling_takes_back_the_hidden_orders_and_the_game_plays_on() -> None:
    """In a planning phase, other houses' face-down orders are taken back (the counters with
    them) and given again when the game goes on; the record stays consistent."""
    game = Game(players=6, seed=4)
    heuristic = HeuristicPolicy()
    while not (
        (p := game.pending) is not None
        and p.kind == Decision.PLACE_ORDER
        and int(game.record.loop_house) >= 3  # three houses have placed their orders
    ):
        game.step(heuristic(game, game.pending))
    house = int(game.pending.house)
    copy = game.games.copy()
    resample_hidden(copy[0], game.t, house, np.random.default_rng(1))
    g = copy[0]
    n = int(game.t.n_areas)
    others = (g.owner[:n] >= 0) & (g.owner[:n] != house)
    assert (g.order[:n][others] == -1).all()
    for h in range(6):
        placed = np.bincount(
            g.order[:n][(g.owner[:n] == h) & (g.order[:n] >= 0)], minlength=N_ORDER_KINDS
        )
        assert (g.orders_used[h] == placed).all()
    advance(g, game.t)  # planning asks again from the top of the Iron Throne track
    assert g.pending == Decision.PLACE_ORDER
    assert g.pending_house == int(g.track[0, 0])
    mask = np.zeros(N_ACTIONS, np.bool_)
    assert legal(g, game.t, mask) > 0
    assert not violations(g, game.t)


def test_search_games_are_legal_and_reproducible_whatever_n_jobs() -> None:
    policies = {"stark": CHEAP, "default": "heuristic"}
    one = gotsim.simulate(3, players=3, policies=policies, seed=21, n_jobs=1)
    two = gotsim.simulate(3, players=3, policies=policies, seed=21, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)
    assert one.winner.notna().all()
    plain = gotsim.simulate(3, players=3, policies="heuristic", seed=21)
    assert not one.equals(plain)  # Stark searched: its games went another way


def _stretch_from_python(
    g: Any,
    t: Any,
    house: int,
    params: np.ndarray,
    memo: Any,
    mask: np.ndarray,
    vassal: bool,
    single: bool,
    out: np.ndarray,
) -> int:
    """``search.heuristic_stretch`` decision by decision from Python, as it was written before
    it was compiled: the reference it must match."""
    now = (int(g.game_round), int(g.phase))
    n = 0
    while n < len(out):
        if g.pending == Decision.NONE or g.pending_house != house:
            break
        if (int(g.game_round), int(g.phase)) != now or g.done:
            break
        if legal(g, t, mask) == 0:
            break
        action = int(heuristic_action(g, t, house, mask, params, memo))
        if vassal:
            action = int(command_filter(g, t, house, action, mask))
        out[n] = action
        n += 1
        if single:
            break
        apply_legal(g, t, action)
        advance(g, t)
    return n


def _play_from_python(
    games: np.recarray,
    rules: np.recarray,
    kinds: np.ndarray,
    params: np.ndarray,
    settings: dict[int, SearchSettings],
) -> None:
    """``search.play_with_search`` with every decision made from Python, the others' by their
    policy one at a time, as it was written before their stretches were compiled."""
    t = rules[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    memos = new_memos(len(games))
    for i in range(len(games)):
        g, memo = games[i], memos[i]
        kinds_i, params_i = np.array(kinds), np.array(params)
        searchers: dict[tuple[int, int], Searcher] = {}
        while True:
            advance(g, t)
            if g.done or g.pending == Decision.NONE:
                break
            house = int(g.pending_house)
            assert legal(g, t, mask) > 0
            view = commander_view(g, t, house)
            who = house if view < 0 else view
            if kinds_i[who] == SEARCH:
                key = (house, view)
                if key not in searchers:
                    searchers[key] = Searcher(settings[who], params_i[house], view)
                action = searchers[key].choose(g, t, house, mask, memo, kinds_i, params_i)
            elif kinds_i[who] == HEURISTIC:
                action = int(heuristic_action(g, t, house, mask, params_i[house], memo))
                if t.vassals:
                    action = int(command_filter(g, t, house, action, mask))
            else:
                action = int(pick_from_mask(g.rng, 1 + house, mask))
            apply_legal(g, t, action)


@pytest.mark.parametrize(
    ("players", "variants", "policies"),
    [
        (3, None, {"stark": CHEAP, "lannister": "random", "default": "heuristic"}),
        (4, {"vassals": True}, {"lannister": CHEAP, "default": "heuristic"}),
    ],
)
def test_compiled_stretches_play_the_games_decision_by_decision_play(
    players: int,
    variants: dict[str, bool] | None,
    policies: dict[str, object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The other houses' decisions between two searching ones, and each candidate's stretch,
    are played in compiled code; the games are those played decision by decision from Python
    (a random house, and a vassal game whose searching commander searches for its vassals)."""
    compiled = play_games(2, players=players, variants=variants, policies=policies, seed=8)
    monkeypatch.setattr(search, "play_with_search", _play_from_python)
    monkeypatch.setattr(search, "heuristic_stretch", _stretch_from_python)
    python = play_games(2, players=players, variants=variants, policies=policies, seed=8)
    assert compiled.done.all()
    work_space = ("walk_lands", "walk_seas")  # what transport walks left there
    names = [n for n in compiled.dtype.names or () if n not in work_space]
    assert [n for n in names if not np.array_equal(compiled[n], python[n])] == []


def test_search_player_in_game_play_and_tournaments() -> None:
    game = Game(players=3, seed=3)
    game.play(
        {
            "baratheon": make_policy(CHEAP),
            "lannister": make_policy("heuristic"),
            "stark": make_policy("random"),
        }
    )
    assert game.finished
    seats = np.array([[0, 1, 1, 1, 1, 1]])
    games = play_seated(seats, [CHEAP, "heuristic"], players=3, seed=2)
    assert games.done.all()
    assert isinstance(make_policy("search"), SearchPolicy)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ({"kind": "search", "rollouts": 0}, "'rollouts' = 0 outside [1, 4096]"),
        ({"kind": "search", "rollouts": 2.5}, "'rollouts' must be a whole number"),
        ({"kind": "search", "candidates": 99}, "'candidates' = 99 outside [1, 16]"),
        ({"kind": "search", "horizen": 2}, "unknown heuristic parameter 'horizen'"),
        ({"kind": "heuristic", "rollouts": 2}, "unknown heuristic parameter 'rollouts'"),
    ],
)
def test_search_specs_are_checked(spec: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        search_settings(spec) if spec["kind"] == "search" else gotsim.simulate(1, policies=spec)
    with pytest.raises(ValueError):
        gotsim.simulate(1, players=3, policies={"stark": spec, "default": "heuristic"})


def test_search_points_choose_where_it_searches() -> None:
    """``points`` limits the search to some kinds of point: with none the house plays exactly as
    its heuristic; with the bids only (2) a planning phase's orders are not searched."""
    policies = {"stark": {**CHEAP, "points": 0}, "default": "heuristic"}
    none = gotsim.simulate(3, players=3, policies=policies, seed=21)
    plain = gotsim.simulate(3, players=3, policies="heuristic", seed=21)
    pd.testing.assert_frame_equal(none, plain)
    assert search_settings({"kind": "search"}).points == 63  # (32: its vassals too)
    game = Game(players=3, seed=5)
    heuristic = HeuristicPolicy()
    while (pending := game.pending) is not None and pending.kind != Decision.PLACE_ORDER:
        game.step(heuristic(game, pending))
    assert pending is not None
    assert can_search(game.record, game.t) and can_search(game.record, game.t, 1)
    assert not can_search(game.record, game.t, 2 + 4 + 8 + 16)
    kinds = np.full(6, HEURISTIC, np.int8)
    params = np.tile(DEFAULTS, (6, 1))
    mask = np.zeros(N_ACTIONS, np.bool_)
    mask[list(pending.legal)] = True
    for points, searched in ((2, 0), (1, 1)):
        searcher = Searcher(SearchSettings(rollouts=2, candidates=6, horizon=1, points=points))
        copy = game.games.copy()
        searcher.choose(copy[0], game.t, int(pending.house), mask, new_memos(1)[0], kinds, params)
        assert searcher.searches == searched, points


def test_search_settings_come_from_the_spec() -> None:
    s = search_settings({"kind": "search", "rollouts": 8, "aggression": 0.9, "seed": 3})
    assert (s.rollouts, s.candidates, s.horizon, s.seed) == (8, 6, 0, 3)
    assert s.params[0] == 0.9


def test_scenarios_take_the_search_player_and_check_its_knobs() -> None:
    from gotsim.study import ScenarioError, load_scenario

    base = {"name": "s", "seed": 1, "games": 10, "players": 3}
    spec = {"kind": "search", "rollouts": 8, "aggression": 0.7}
    scenario = load_scenario({**base, "policies": {"default": "heuristic", "stark": spec}})
    assert scenario.cells
    with pytest.raises(ScenarioError, match=r"policies.stark: search parameter 'rollouts'"):
        load_scenario({**base, "policies": {"stark": {"kind": "search", "rollouts": 0}}})
    with pytest.raises(ScenarioError, match=r"policies.stark.rollouts: expected int"):
        load_scenario({**base, "policies": {"stark": {"kind": "search", "rollouts": 2.5}}})


def test_openings_count_the_search_and_the_heuristic_alike() -> None:
    """``benchmarks/openings.py``: searching nowhere (``points`` 0), the house opens exactly as
    its heuristic in every game; searching, each game's round-1 orders are the house's three
    starting areas' orders, its marches are narrated in the order resolved, and the areas it
    holds at the start of round 2 are counted; the two differ where the search departs."""
    from scripts import load_script

    from gotsim.rules.ids import House

    tool = load_script("benchmarks/openings.py")
    same = tool.compare(House.STARK, games=2, rounds=1, rollouts=2, points=0)
    assert same["games_differing"] == 0
    assert same["search"] == same["heuristic"]
    out = tool.compare(House.STARK, games=1, rounds=1, rollouts=2)
    # (seed 1000: the search resolves White Harbor's march first and its footman takes Moat
    # Cailin, the heuristic Winterfell's; docs/players.md)
    assert out["games_differing"] == 1
    assert next(iter(out["search"]["moves"]["1"])) == "resolves its March in White Harbor"
    assert next(iter(out["heuristic"]["moves"]["1"])) == "resolves its March in Winterfell"
    for side in ("search", "heuristic"):
        orders = out[side]["orders"]["1"]
        assert sum(orders.values()) == 3
        assert {line.split(" ")[0] for line in orders} >= {"Winterfell", "White"}
        moves = list(out[side]["moves"]["1"])
        assert any(line.startswith("resolves its March in") for line in moves)
        assert "Winterfell" in " ".join(moves)
        assert out[side]["held"]["2"]


def test_leaders_count_what_a_house_near_victory_gains_and_loses() -> None:
    """``benchmarks/leaders.py``: each leader round's castles at its end are those at its start
    plus the castles taken less those lost, every castle held is counted with its order, and
    searching nowhere (``points`` 0) the seat's house is counted exactly as in the all-heuristic
    games (the other houses may differ: which houses' orders are predicted in a round depends on
    which heuristics shared the game's memo before, docs/players.md)."""
    from scripts import load_script

    tool = load_script("benchmarks/leaders.py")
    rows = tool.leader_rounds(2000, 3, None)
    assert rows
    for row in rows:
        assert row["castles"] >= 3
        assert row["castles_after"] == row["castles"] + sum(row["gained"].values()) - row["lost"]
        assert len(row["held"]) == row["castles"]
        assert row["lost"] == sum(fort["lost"] for fort in row["held"])
        assert {fort["order"] for fort in row["held"]} <= {
            "march",
            "defense",
            "support",
            "raid",
            "consolidate_power",
            "none",
        }
    same = tool.compare(2, castles=3, rollouts=2, points=0)
    assert same["search"] == same["heuristic"]
    assert same["field"].keys() == same["others"].keys()
    for counted in same["heuristic"].values():
        shares = [kind["share"] for kind in counted["orders_on_castles"].values()]
        assert abs(sum(shares) - 1.0) < 0.01
    searching = tool.compare(1, castles=3, rollouts=2)
    assert {"search", "field", "others"} <= set(searching)


def test_endgame_positions_and_paired_continuations() -> None:
    """``benchmarks/endgame.py``: every position's leader holds the castles asked for, every
    continuation is played to its end, the same parameters give the same games (an empty change
    and a change to the default value alike), a change of play moves some result, and the
    search plays its continuations to the end too."""
    from scripts import load_script

    tool = load_script("benchmarks/endgame.py")
    rules = tool.rules_for()
    records, leaders, rounds = tool.positions(30, 4, rules)
    assert len(leaders) > 10 and rounds.min() >= 2
    for h in np.unique(leaders):
        held = tool.castles_of(records[leaders == h], rules, int(h))
        assert held.min() >= 4
    games, lead = tool.continuations(records, leaders, 2, rules)
    assert len(games) == 2 * len(leaders) and (lead == np.repeat(leaders, 2)).all()
    base = tool.leader_wins(games, lead, rules, [], [])
    assert set(np.unique(base)) <= {0.0, 1.0}
    same = tool.leader_wins(games, lead, rules, ["noise=0.2"], [])
    assert (same == base).all()
    bids = ["bid_iron_throne=0", "bid_fiefdoms=0", "bid_kings_court=0"]
    assert (tool.leader_wins(games, lead, rules, bids, []) != base).any()
    assert (tool.leader_wins(games, lead, rules, [], bids) != base).any()
    out = tool.paired(base, base, 2)
    assert out["difference"] == 0.0 and out["rate"] == out["default"]
    with pytest.raises(ValueError):
        tool.shifted(["boldness=+1"])
    rows = np.arange(4)
    searched = tool.leader_wins(games[rows], lead[rows], rules, [], [], search=2, rollouts=2)
    assert set(np.unique(searched)) <= {0.0, 1.0}


@pytest.mark.parametrize(
    ("script", "args", "named"),
    [
        ("benchmarks/endgame.py", ["--leader", "boldness=+1"], "boldness"),
        ("benchmarks/endgame.py", ["--continuations", "0"], "--continuations"),
        ("benchmarks/leaders.py", ["--castles", "9"], "--castles"),
        ("benchmarks/openings.py", ["--rounds", "0"], "--rounds"),
    ],
)
def test_benchmark_scripts_refuse_bad_arguments_with_exit_2(
    script: str, args: list[str], named: str
) -> None:
    """A bad argument to a benchmark script: exit 2, an error line naming it, no traceback."""
    import subprocess
    import sys

    from scripts import ROOT

    run = subprocess.run(
        [sys.executable, str(ROOT / script), *args], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert named in run.stderr.strip().splitlines()[-1]
