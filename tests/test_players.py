"""The players: policy specs, the heuristic's legality on every decision kind, what it may not
read, its Python wrapper, simulate and tournaments. Small game counts; the big measurements are
in ``benchmarks/bench_players.py``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numba
import numpy as np
import pandas as pd
import pytest

import gotsim
from gotsim.engine import combat as cb
from gotsim.engine.battle import card_arrays
from gotsim.engine.board_state import castles_held
from gotsim.engine.game import Game, RandomPolicy
from gotsim.engine.init import new_games
from gotsim.engine.machine import advance, apply_legal, legal
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import N_ACTIONS, Decision, Phase
from gotsim.engine.tables import rules_table
from gotsim.play.runner import castle_table, play_policies
from gotsim.play.simulate import play_games
from gotsim.play.tournament import (
    elo_ratings,
    houses_in_play,
    play_seated,
    rotation,
    seat_table,
    variant_tournament,
)
from gotsim.players import HeuristicPolicy, Policy, make_policy, policy_params, policy_table
from gotsim.players.fighting import card_win_table
from gotsim.players.heuristic import heuristic_action, load_params
from gotsim.players.memo import new_memos
from gotsim.players.orders import plan_orders
from gotsim.players.params import (
    DEFAULTS,
    HEURISTIC,
    HOUSE_DEFAULTS,
    P_NOISE,
    PARAM_NAMES,
    PARAMS,
    RANDOM,
    V1_DEFAULTS,
    defaults_for,
)
from gotsim.players.policy import game_memo
from gotsim.rules.ids import BASE_HOUSES, House

ROOT = Path(__file__).resolve().parents[1]


# --- specs ------------------------------------------------------------------------------------


def test_policy_params_defaults_and_overrides() -> None:
    assert np.array_equal(policy_params(), DEFAULTS)
    assert np.array_equal(policy_params("heuristic"), DEFAULTS)
    p = policy_params({"kind": "heuristic", "aggression": 0.8, "bid_fiefdoms": 0})
    assert p[PARAM_NAMES.index("aggression")] == 0.8
    assert p[PARAM_NAMES.index("bid_fiefdoms")] == 0.0
    assert p.shape == (len(PARAMS),)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"agression": 0.8}, "unknown heuristic parameter 'agression'; did you mean 'aggression'"),
        ({"bid_fiefdom": 0.1}, "did you mean 'bid_fiefdoms'"),
        ({"zzz": 1}, "unknown heuristic parameter 'zzz'"),
        ({"aggression": 1.5}, "outside its range"),
        ({"aggression": "high"}, "must be a number"),
        ({"aggression": True}, "must be a number"),
        ({"kind": "genius"}, "unknown policy kind 'genius'"),
        ("heuristik", "did you mean 'heuristic'"),
    ],
)
def test_policy_params_refuses_bad_specs(spec: object, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        policy_params(spec)  # type: ignore[arg-type]


def test_policy_table_per_house_and_default() -> None:
    kinds, params = policy_table({"lannister": {"kind": "heuristic", "aggression": 0.9}})
    assert kinds[House.LANNISTER] == HEURISTIC and kinds[House.STARK] == RANDOM
    assert params[House.LANNISTER, PARAM_NAMES.index("aggression")] == 0.9
    kinds, _ = policy_table({"default": "heuristic", "stark": "random"})
    assert kinds[House.STARK] == RANDOM and kinds[House.TYRELL] == HEURISTIC
    kinds, _ = policy_table({"kind": "heuristic", "risk": 0.2})
    assert (kinds == HEURISTIC).all()
    with pytest.raises(ValueError, match="did you mean 'stark'"):
        policy_table({"starks": "random"})


def test_every_parameter_is_documented() -> None:
    text = (ROOT / "docs" / "players.md").read_text()
    for p in PARAMS:
        assert f"`{p.name}`" in text, p.name


# --- legality on every decision kind ----------------------------------------------------------


@numba.njit(cache=True)
def _explore(games, rules, params, memos, counts, bad, explore_every: int) -> None:
    """Play each game asking the heuristic every decision (counting kinds, and illegal answers
    in ``bad``); every ``explore_every``-th decision is played at random instead, to reach
    positions the heuristic would avoid."""
    t = rules[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    for i in range(games.shape[0]):
        g = games[i]
        made = 0
        while made < 100_000:
            advance(g, t)
            if g.done or g.pending == 0:
                break
            legal(g, t, mask)
            house = np.int64(g.pending_house)
            kind = g.pending
            action = heuristic_action(g, t, house, mask, params, memos[i])
            counts[kind] += 1
            if action < 0 or action >= N_ACTIONS or not mask[action]:
                bad[kind] += 1
                action = pick_from_mask(g.rng, 1 + house, mask)
            elif made % explore_every == 0:
                action = pick_from_mask(g.rng, 1 + house, mask)
            apply_legal(g, t, action)
            made += 1


def test_heuristic_answers_every_decision_kind_legally() -> None:
    counts = np.zeros(64, np.int64)
    bad = np.zeros(64, np.int64)
    for players, n, every in ((6, 160, 2), (6, 60, 1_000_000), (4, 60, 3)):
        for tides in (False, True):
            rules = rules_table("2e", players, {"tides_of_battle": tides})
            seeds = [np.random.SeedSequence(99 + players, spawn_key=(i,)) for i in range(n)]
            games = new_games(seeds, players=players)
            _explore(games, rules, DEFAULTS.copy(), new_memos(n), counts, bad, every)
            assert games.done.all()
    for players in (3, 4, 5):  # the 1st edition asks the same kinds of decision
        rules = rules_table("1e", players)
        seeds = [np.random.SeedSequence(7 + players, spawn_key=(i,)) for i in range(40)]
        games = new_games(seeds, edition="1e", players=players)
        _explore(games, rules, DEFAULTS.copy(), new_memos(40), counts, bad, 3)
        assert games.done.all()
    # and the A Clash of Kings modules theirs (one-time orders among them)
    modules = {"ports": True, "one_time_orders": True, "three_card_combat": True}
    for players, every in ((5, 3), (4, 1_000_000)):
        rules = rules_table("1e", players, {**modules, "fortifications": True})
        seeds = [np.random.SeedSequence(17 + players, spawn_key=(i,)) for i in range(40)]
        games = new_games(seeds, edition="1e", players=players)
        _explore(games, rules, DEFAULTS.copy(), new_memos(40), counts, bad, every)
        assert games.done.all()
    # and the A Dance with Dragons house cards theirs (CARD_ABILITY)
    rules = rules_table("2e", 6, {"adwd_house_cards": True, "tides_of_battle": True})
    seeds = [np.random.SeedSequence(31, spawn_key=(i,)) for i in range(60)]
    games = new_games(seeds, players=6)
    _explore(games, rules, DEFAULTS.copy(), new_memos(60), counts, bad, 2)
    assert games.done.all()
    # and A Feast for Crows theirs (OBJECTIVE, Arryn's cards, its deck I)
    rules = rules_table("2e", 4, expansion="affc")
    seeds = [np.random.SeedSequence(37, spawn_key=(i,)) for i in range(60)]
    games = new_games(seeds, players=4, expansion="affc")
    _explore(games, rules, DEFAULTS.copy(), new_memos(60), counts, bad, 2)
    assert games.done.all()
    # and vassal games theirs (CLAIM_VASSAL, and every decision a vassal takes)
    for expansion in (None, "mod"):
        rules = rules_table("2e", 4, {"vassals": True}, expansion)
        seeds = [np.random.SeedSequence(41, spawn_key=(i,)) for i in range(30)]
        games = new_games(seeds, players=4, expansion=expansion, vassals=True)
        _explore(games, rules, DEFAULTS.copy(), new_memos(30), counts, bad, 3)
        assert games.done.all()
    # and Mother of Dragons at 8 players theirs (LOYALTY, Westeros deck IV)
    rules = rules_table("2e", 8, expansion="mod")
    seeds = [np.random.SeedSequence(41, spawn_key=(i,)) for i in range(60)]
    games = new_games(seeds, players=8, expansion="mod")
    _explore(games, rules, DEFAULTS.copy(), new_memos(60), counts, bad, 2)
    assert games.done.all()
    kinds = [k for k in Decision if k != Decision.NONE]
    missing = [k.name for k in kinds if counts[k] == 0]
    assert not missing, f"decision kinds never reached: {missing}"
    wrong = {Decision(k).name: int(bad[k]) for k in np.flatnonzero(bad)}
    assert not wrong, f"illegal heuristic answers: {wrong}"


# --- hidden information -----------------------------------------------------------------------


def _scramble_hidden(record: np.record, house: int, rng: np.random.Generator) -> None:
    """Change what ``house`` may not see: the decks, other houses' hands, and, where still
    hidden, other houses' orders (planning), bids (bidding) and battle card (card choice)."""
    rng.shuffle(record.westeros[0])
    rng.shuffle(record.wildlings)
    for e in range(6):
        if e != house:
            record.hand[e] = rng.integers(0, 128)
    if record.phase == Phase.PLANNING:
        for a in range(len(record.order)):
            if record.owner[a] >= 0 and record.owner[a] != house:
                record.order[a] = rng.integers(0, 11)
                record.one_time[a] = rng.integers(-1, 8)  # face down too
    if record.pending == Decision.HOUSE_CARD:
        record.card_picks[1 - int(record.ctx[0])] = rng.integers(0, 128)  # three-card combat
    if record.pending == Decision.BID:
        for e in range(6):
            if e != house:
                record.bid[e] = rng.integers(0, 20)
    if record.pending == Decision.HOUSE_CARD and record.ctx[1] < 0:
        other = 1 - int(record.ctx[0])
        record.battle[other * cb.SIDE + cb.CARD] = rng.integers(-1, 42)
        record.battle[other * cb.SIDE + cb.HAND] = rng.integers(0, 1 << 40)
    if record.pending == Decision.BLADE and record.ctx[1] == 0:
        # the blade's redraw is decided on the holder's own Tides card (FAQ v2.0 step 4a)
        other = 1 - int(record.ctx[0])
        record.battle[other * cb.SIDE + cb.TIDES] = rng.integers(0, 6)


def test_each_house_plays_its_tuned_parameters() -> None:
    """``heuristic`` starts from each house's tuned set (gotsim/data/2e/heuristic_v2.json, which
    says how it was found); a spec's own values override it; ``heuristic_v1`` plays the frozen
    first set whatever the house."""
    found = json.loads((ROOT / "gotsim" / "data" / "2e" / "heuristic_v2.json").read_text())
    assert "tools/tune_heuristic.py" in found["command"] and "heuristic_v1" in found["league"]
    assert found["earlier_rounds"][0]["league"] == ["heuristic_v1"]
    assert set(HOUSE_DEFAULTS) == {int(h) for h in BASE_HOUSES}
    version = PARAM_NAMES.index("version")
    aggression = PARAM_NAMES.index("aggression")
    for house in BASE_HOUSES:
        row = HOUSE_DEFAULTS[int(house)]
        entry = found["houses"][house.id]
        assert row[version] == 2
        for p in PARAMS:
            assert p.low <= row[PARAM_NAMES.index(p.name)] <= p.high, (house.id, p.name)
            if p.name in entry["params"]:
                assert row[PARAM_NAMES.index(p.name)] == entry["params"][p.name]
        # tuned on unseen seeds: better than the league's first member in the same seat
        assert entry["validation"]["win_rate"] > entry["validation"]["league_player_win_rate"]
        assert np.array_equal(policy_params("heuristic", int(house)), row)
        mine = policy_params({"kind": "heuristic", "aggression": 0.05}, int(house))
        assert mine[aggression] == 0.05
        assert np.array_equal(np.delete(mine, aggression), np.delete(row, aggression))
        assert np.array_equal(policy_params("heuristic_v1", int(house)), V1_DEFAULTS)
    assert V1_DEFAULTS[version] == 1
    assert (
        len({HOUSE_DEFAULTS[int(h)][aggression] for h in BASE_HOUSES}) > 1
    )  # per house, not one set
    table = policy_table("heuristic")[1]
    assert np.array_equal(table[int(House.STARK)], HOUSE_DEFAULTS[int(House.STARK)])


def test_heuristic_v1_is_the_first_parameter_set_under_its_own_name() -> None:
    """``policies="heuristic_v1"`` plays exactly the games of a spec giving every value of
    V1_DEFAULTS, and not the games of ``heuristic``."""
    spec = {"kind": "heuristic", **dict(zip(PARAM_NAMES, V1_DEFAULTS.tolist(), strict=True))}
    first = gotsim.simulate(30, players=4, seed=8, policies="heuristic_v1")
    spelled = gotsim.simulate(30, players=4, seed=8, policies={"default": spec})
    second = gotsim.simulate(30, players=4, seed=8, policies="heuristic")
    columns = ["winner", "end_round", "castles_stark", "castles_lannister"]
    pd.testing.assert_frame_equal(first[columns], spelled[columns])
    assert not first[columns].equals(second[columns])


def test_heuristic_never_reads_hidden_information() -> None:
    """Every decision of the heuristic (second version, each house's tuned parameters) is the
    same after everything the house may not see is scrambled."""
    rng = np.random.default_rng(5)
    policy = HeuristicPolicy()
    checked = 0
    modules = {"ports": True, "one_time_orders": True, "three_card_combat": True}
    redraws = 0
    for game in (
        Game(players=6, seed=3),
        Game(players=6, seed=4),
        Game(players=4, seed=6, variants={"tides_of_battle": True}),
        Game(players=5, seed=5, edition="1e", variants=modules),
    ):
        while (pending := game.pending) is not None:
            house = int(pending.house)
            mask = np.zeros(N_ACTIONS, np.bool_)
            mask[list(pending.legal)] = True
            memo = game_memo(game)
            answers = []
            for scramble in (False, True):
                g = game.games.copy()
                m = memo.copy()
                if scramble:
                    _scramble_hidden(g[0], house, rng)
                # the house's tuned set for the game (version 2)
                params = policy.params_for(house, game.edition, game.players)
                answers.append(heuristic_action(g[0], game.t, house, mask, params, m))
            assert answers[0] == answers[1], (pending.kind.name, game.record.game_round)
            checked += 1
            redraws += pending.kind == Decision.BLADE and pending.context[1] == 0
            game.step(policy(game, pending))
    assert checked > 500
    assert redraws > 0  # the blade's redraw decision was among those checked


def test_plan_reads_the_shared_evaluation_as_made_afresh() -> None:
    """A house's order plan made after another house predicted it (each of its areas evaluated
    then, in ``memo.ev``) is the plan made with every area evaluated afresh: the prediction is
    made with the house's own defaults and the second heuristic plans without noise on each
    destination, so the kept evaluation is the one the plan would count."""
    policy = HeuristicPolicy()
    rows = policy_table("heuristic")[1]
    shared = 0
    for seed in (21, 22):
        game = Game(players=6, seed=seed)
        last_round = 0
        while (pending := game.pending) is not None and game.record.game_round <= 6:
            g = game.record
            if pending.kind == Decision.PLACE_ORDER and g.game_round != last_round:
                last_round = int(g.game_round)
                first = int(pending.house)
                games = game.games.copy()
                memos = new_memos(1)
                memos[0] = game_memo(game)
                load_params(memos[0], rows)
                # the first planner predicts the houses next to it, evaluating their areas
                plan_orders(games[0], game.t, first, rows[first], memos[0])
                for h in BASE_HOUSES:
                    if h == first or memos[0].pred_key[h] != g.game_round:
                        continue
                    assert memos[0].ev_ok[h].any()
                    plans = []
                    for keep in (True, False):
                        gh, mh = games.copy(), memos.copy()
                        if not keep:
                            mh[0].ev_key[h] = -1  # every area evaluated afresh
                        plan_orders(gh[0], game.t, int(h), rows[h], mh[0])
                        plans.append(mh[0].plan[h].copy())
                    assert plans[0].tolist() == plans[1].tolist(), (seed, g.game_round, h)
                    shared += 1
            game.step(policy(game, pending))
    assert shared >= 20


# --- Python wrapper and compiled loop --------------------------------------------------------


@pytest.mark.parametrize(("edition", "players"), [("2e", 6), ("2e", 5), ("1e", 5)])
def test_python_wrapper_plays_the_compiled_game(edition: str, players: int) -> None:
    seed = 12
    game = Game(players=players, seed=seed, edition=edition)
    game.play(HeuristicPolicy())
    games = new_games(
        [np.random.SeedSequence(seed, spawn_key=(0,))], edition=edition, players=players
    )
    kinds = np.full((1, 6), HEURISTIC, np.int8)
    # each house its own tuned set for the edition and player count
    params = policy_table("heuristic", edition, players)[1][None].copy()
    play_policies(games, rules_table(edition, players), kinds, params, new_memos(1), 1_000_000)
    work_space = ("walk_lands", "walk_seas")  # what transport walks left there
    names = [n for n in games.dtype.names or () if n not in work_space]
    assert [n for n in names if not np.array_equal(games[0][n], game.record[n])] == []


def _predicted_sets(game: Game) -> tuple[HeuristicPolicy, np.ndarray]:
    """Five decisions of ``game`` by the heuristic: the policy, and the parameters the game's
    memo predicts each house's orders with."""
    policy = HeuristicPolicy()
    for _ in range(5):
        pending = game.pending
        assert pending is not None
        game.step(policy(game, pending))
    return policy, game_memo(game).guess_params


def test_a_game_plays_the_sets_tuned_for_its_edition_and_player_count() -> None:
    """A 1st-edition game's heuristic houses play the sets tuned for that edition and player
    count (``gotsim/data/1e/heuristic.json``), a 5-player 2nd-edition game the 2nd edition's
    5-player sets (``gotsim/data/2e/heuristic_v2_by_players.json``), and they predict each
    other's orders with them; a house a file leaves out, and the 2nd edition's other player
    counts, keep the six-player sets."""
    data = Path(gotsim.__file__).parent / "data"
    found = json.loads((data / "1e" / "heuristic.json").read_text())
    by_players = json.loads((data / "2e" / "heuristic_v2_by_players.json").read_text())
    assert {int(n) for n in found["players"]} == {3, 4, 5}
    assert {int(n) for n in by_players["players"]} == {5}
    for edition, tuned in (("1e", found), ("2e", by_players)):
        for n in sorted(int(k) for k in tuned["players"]):
            houses = tuned["players"][str(n)]["houses"]
            assert set(houses) == {h.id for h in houses_in_play(n, edition)}
            for house_id, entry in houses.items():
                house = House[house_id.upper()]
                row = defaults_for(house, edition, n)
                for name, value in entry["params"].items():
                    assert row[PARAM_NAMES.index(name)] == value, (edition, n, house_id, name)
                assert not np.array_equal(row, defaults_for(house, "2e", 6))
                spec = {"kind": "heuristic", "aggression": 0.5}
                given = policy_params(spec, house, edition, n)
                assert given[PARAM_NAMES.index("aggression")] == 0.5
                assert given[PARAM_NAMES.index("risk")] == row[PARAM_NAMES.index("risk")]
    assert np.array_equal(defaults_for(House.MARTELL, "1e", 5), defaults_for(House.MARTELL))
    for n in (3, 4, 6, 7, 8):
        assert np.array_equal(defaults_for(House.STARK, "2e", n), defaults_for(House.STARK))
    # the prediction of another house's orders reads its set for the game (view.init_memo)
    for edition, players in (("1e", 5), ("1e", 3), ("2e", 4), ("2e", 5)):
        policy, guess = _predicted_sets(Game(players=players, seed=3, edition=edition))
        for h in houses_in_play(players, edition):
            assert np.array_equal(guess[h], defaults_for(h, edition, players)), (edition, h)
            assert np.array_equal(policy.params_for(h, edition, players), guess[h])
    # batch play and tournaments take the same sets
    houses = found["players"]["5"]["houses"]
    specs = [{"kind": "heuristic", **houses[h.id]["params"]} for h in houses_in_play(5, "1e")]
    seats = np.zeros((12, 6), np.int64)
    for i, h in enumerate(houses_in_play(5, "1e")):
        seats[:, h] = i
    named = play_seated(seats, specs, players=5, edition="1e", seed=9)
    plain = play_seated(np.zeros((12, 6), np.int64), ["heuristic"], players=5, edition="1e", seed=9)
    assert named.tobytes() == plain.tobytes()
    batch = play_games(12, players=5, edition="1e", seed=9, policies="heuristic")
    assert batch.tobytes() == plain.tobytes()


def test_a_feast_for_crows_game_plays_the_sets_tuned_for_it() -> None:
    """A Feast for Crows' heuristic houses play the sets tuned for it
    (``gotsim/data/2e/heuristic_v2_affc.json``; Arryn no longer the hand-set ``DEFAULTS``), in
    ``simulate``, ``play_seated``, ``Game`` and the prediction of each other's orders; a
    4-player base game keeps the six-player sets."""
    data = Path(gotsim.__file__).parent / "data" / "2e" / "heuristic_v2_affc.json"
    tuned = json.loads(data.read_text())
    houses = houses_in_play(4, "2e", "affc")
    assert set(tuned["houses"]) == {h.id for h in houses} and House.ARRYN in houses
    for h in houses:
        row = defaults_for(h, "2e", 4, "affc")
        for name, value in tuned["houses"][h.id]["params"].items():
            assert row[PARAM_NAMES.index(name)] == value, (h, name)
        assert not np.array_equal(row, defaults_for(h, "2e", 4))  # (the base game's 4 players)
        assert np.array_equal(policy_params("heuristic", h, "2e", 4, "affc"), row)
    assert np.array_equal(defaults_for(House.ARRYN, "2e", 4), DEFAULTS)
    assert np.array_equal(defaults_for(House.STARK, "2e", 4), defaults_for(House.STARK))
    # the same games by name and by the sets' values, batch and seated
    specs = [{"kind": "heuristic", **tuned["houses"][h.id]["params"]} for h in houses]
    seats = np.zeros((8, len(House)), np.int64)
    for i, h in enumerate(houses):
        seats[:, h] = i
    named = play_seated(seats, specs, players=4, seed=9, expansion="affc")
    plain = play_seated(
        np.zeros((8, len(House)), np.int64), ["heuristic"], players=4, seed=9, expansion="affc"
    )
    assert named.tobytes() == plain.tobytes()
    batch = play_games(8, players=4, seed=9, policies="heuristic", expansion="affc")
    assert batch.tobytes() == plain.tobytes()
    # a Game's Python policy and the prediction read them too
    policy, guess = _predicted_sets(Game(players=4, seed=3, expansion="affc"))
    for h in houses:
        assert np.array_equal(guess[h], defaults_for(h, "2e", 4, "affc")), h
        assert np.array_equal(policy.params_for(h, "2e", 4, "affc"), guess[h])


def test_policies_are_python_callables() -> None:
    assert isinstance(HeuristicPolicy(), Policy)
    assert isinstance(make_policy("random"), RandomPolicy)
    assert isinstance(make_policy({"kind": "heuristic", "risk": 0.1}), HeuristicPolicy)
    game = Game(players=3, seed=2)
    game.play({h: HeuristicPolicy({"aggression": 0.9}) for h in houses_in_play(3)})
    assert game.finished
    by_name = Game(players=3, seed=2)
    by_name.play({h.id: HeuristicPolicy({"aggression": 0.9}) for h in houses_in_play(3)})
    assert by_name.record.tobytes() == game.record.tobytes()


@pytest.mark.parametrize(
    ("policy", "words"),
    [
        ({}, "no policy for baratheon, lannister, stark"),
        ({h: RandomPolicy() for h in House}, "greyjoy is not in a 3-player 2e game"),
        ({"dorne": RandomPolicy()}, "'dorne' is not a house"),
        ({h: "random" for h in houses_in_play(3)}, "not a policy"),
        ("random", "not str"),
    ],
)
def test_game_play_refuses_policies_that_do_not_fit(policy: object, words: str) -> None:
    game = Game(players=3, seed=2)
    with pytest.raises(ValueError, match=re.escape(words)):
        game.play(policy)  # type: ignore[arg-type]
    assert game.actions == []  # nothing was played


# --- the combat code behind card choice -------------------------------------------------------


def test_card_table_matches_the_combat_code() -> None:
    """The per-card shortcut of ``card_win_table`` agrees with a full strength breakdown of
    every card pair (Mace Tyrell's footman and the blade applied alike)."""
    compared = 0
    for seed in range(6):
        game = Game(players=6, seed=seed)
        policy = HeuristicPolicy()
        while (pending := game.pending) is not None:
            if pending.kind == Decision.HOUSE_CARD and pending.context[1] < 0:
                g = game.record
                side = int(pending.context[0])
                house = int(pending.house)
                other = 1 - side
                opp = int(g.battle[other * cb.SIDE + cb.HOUSE])
                mine = sum(1 << s for s in pending.legal if s < 7)
                theirs = 0x7F & ~int(g.discard[opp])
                table = np.zeros((7, 7), np.int64)
                card_win_table(g, game.t, house, side, mine, theirs, table, game_memo(game))
                t = game.t
                for c in range(7):
                    for d in range(7):
                        if (mine >> c) & 1 and (theirs >> d) & 1:
                            assert table[c, d] == _brute_win(g, t, house, opp, side, c, d)
                            compared += 1
            game.step(policy(game, pending))
    assert compared > 100


def _brute_win(g: np.record, t: np.record, house: int, opp: int, side: int, c: int, d: int) -> int:
    b = np.array(g.battle)
    other = 1 - side
    mc, oc = int(t.deck_card[house, c]), int(t.deck_card[opp, d])
    b[side * cb.SIDE + cb.CARD] = mc
    b[other * cb.SIDE + cb.CARD] = oc
    b[side * cb.SIDE + cb.TEXT_IGNORED] = 0
    b[other * cb.SIDE + cb.TEXT_IGNORED] = 0
    ab = t.card_ability
    for them, card, their_card in ((other, mc, oc), (side, oc, mc)):
        foot = them * cb.SIDE + cb.UNITS + cb.FOOTMAN
        if ab[card] == cb.Ability.MACE and ab[their_card] != cb.Ability.BLACKFISH and b[foot] > 0:
            b[foot] -= 1
    parts = np.zeros((2, cb.N_PARTS), np.int64)
    cb.board_and_card_strength(b, card_arrays(t), parts)
    blade = not g.blade_used
    mine = parts[side, cb.P_TOTAL] + (1 if blade and b[side * cb.SIDE + cb.BLADE_HOLDER] else 0)
    theirs = parts[other, cb.P_TOTAL] + (1 if blade and b[other * cb.SIDE + cb.BLADE_HOLDER] else 0)
    if mine != theirs:
        return int(mine > theirs)
    return int(b[side * cb.SIDE + cb.FIEFDOMS_POS] < b[other * cb.SIDE + cb.FIEFDOMS_POS])


# --- simulate and tournaments -----------------------------------------------------------------


def test_simulate_with_heuristic_players() -> None:
    df = gotsim.simulate(8, players=6, seed=4, policies="heuristic")
    assert len(df) == 8 and df.winner.notna().all()
    again = gotsim.simulate(8, players=6, seed=4, policies="heuristic", n_jobs=2)
    pd.testing.assert_frame_equal(df, again)
    mixed = gotsim.simulate(
        4, players=4, seed=4, policies={"stark": {"kind": "heuristic", "aggression": 0.9}}
    )
    assert len(mixed) == 4
    with pytest.raises(ValueError, match="did you mean 'aggression'"):
        gotsim.simulate(2, policies={"stark": {"kind": "heuristic", "agression": 0.9}})


def test_all_random_specs_take_the_random_path() -> None:
    a = gotsim.simulate(6, players=5, seed=7)
    b = gotsim.simulate(6, players=5, seed=7, policies={"default": "random", "stark": "random"})
    pd.testing.assert_frame_equal(a, b)


def test_heuristic_beats_random_players() -> None:
    table = seat_table("heuristic", n_games=4, players=6, seed=3)
    assert list(table.house) == [h.id for h in BASE_HOUSES]
    assert table.wins.sum() >= 20  # of 24 games: the measured rate is above 99 %


def test_variant_tournament_and_elo() -> None:
    result = variant_tournament(
        {"heuristic": "heuristic", "random": "random"}, n_games=12, players=3, seed=1
    )
    assert list(result.variant) == ["heuristic", "random"]
    assert result.seats.sum() == 36
    assert result.elo.iloc[0] > result.elo.iloc[1]
    assert abs(result.elo.mean() - 1500) < 1e-6
    seats = rotation(12, 2, 3)
    assert seats.shape == (12, 6)
    beat = np.array([[0.0, 30.0], [10.0, 0.0]])
    elo = elo_ratings(beat, prior=0.0)
    assert elo[0] - elo[1] == pytest.approx(400 * np.log10(3), abs=1e-6)


def test_march_plan_after_ser_loras_sees_the_conquered_board() -> None:
    """Ser Loras moves the winning march order into the conquered area, so the number of march
    orders on the board stays the same. The heuristic's destination worths are kept per board
    view; the view must still date the new board: after the battle the Dornish Marches are
    Tyrell's own area (not a battle any more) and its knights' march from there is planned
    afresh, from the right place."""
    from enginecase import Case, area

    from gotsim.players.marching import D_BATTLE, D_OWN, plan_march

    tyrell = int(House.TYRELL)
    case = Case(6).phase("marches")
    case.place("""
        highgarden       tyrell 2K march+0
        dornish_marches  martell F
    """)
    params = policy_table("heuristic")[1][tyrell]
    memo = new_memos(1)[0]
    marches_ = area("dornish_marches")
    case.play("tyrell MARCH_FROM highgarden")
    plan_march(case.g, case.t, tyrell, area("highgarden"), params, memo)
    assert memo.d_kind[marches_] == D_BATTLE
    case.play("""
        tyrell MARCH_UNIT K dornish_marches
        tyrell MARCH_UNIT K dornish_marches
        tyrell HOUSE_CARD ser_loras_tyrell
        martell HOUSE_CARD nymeria_sand
        martell RETREAT three_towers
    """)
    case.expect("tyrell MARCH_FROM")
    plan_march(case.g, case.t, tyrell, marches_, params, memo)
    assert memo.d_kind[marches_] == D_OWN
    assert memo.castles[tyrell] == castles_held(case.g, case.t, tyrell)


# --- the second heuristic's fixes of the first one's leaks -----------------------------------


def _v1_v2_rows() -> tuple[np.ndarray, np.ndarray]:
    v2 = np.array(policy_table("heuristic")[1])
    v1 = np.array(policy_table("heuristic_v1")[1])
    return v1, v2


def _memo_playing(rows: np.ndarray) -> np.ndarray:
    """A fresh memo whose houses play parameter ``rows``."""
    memo = new_memos(1)[0]
    memo.params[:] = rows
    return memo


def test_second_heuristic_plays_the_last_round_for_the_ranking() -> None:
    """In the last round only the ranking counts for the second heuristic: a castle or
    stronghold is worth ``FINAL_CASTLE`` wherever it lies, other land ``FINAL_LAND``, a sea and
    a position nothing; the first plays the round like any other. One castle short of victory,
    every castle and stronghold is worth ``WIN_CASTLE`` more to the second."""
    from enginecase import Case

    from gotsim.engine.board_state import LAND, SEA
    from gotsim.players.values import position_value
    from gotsim.players.view import (
        FINAL_CASTLE,
        FINAL_LAND,
        WIN_CASTLE,
        ensure_view,
        final_round,
        near_win,
        value_for,
    )

    stark = int(House.STARK)
    case = Case(6).phase("planning")
    g, t = case.g, case.t
    v1, v2 = _v1_v2_rows()
    memo = _memo_playing(v2)
    ensure_view(g, t, memo)
    n = t.n_areas
    forts = [a for a in range(n) if memo.fort[a]]
    plain = [a for a in range(n) if t.kind[a] == LAND and not memo.fort[a]]
    seas = [a for a in range(n) if t.kind[a] == SEA]
    assert forts and plain and seas
    placed = [a for a in range(n) if position_value(g, t, memo, stark, a) > 0.0]
    assert placed and not final_round(g, t, memo, stark)
    before = [value_for(g, t, memo, stark, a) for a in range(n)]
    g.game_round = t.max_rounds
    ensure_view(g, t, memo)
    assert final_round(g, t, memo, stark)
    assert all(value_for(g, t, memo, stark, a) == FINAL_CASTLE for a in forts)
    assert all(value_for(g, t, memo, stark, a) == FINAL_LAND for a in plain)
    assert all(value_for(g, t, memo, stark, a) == 0.0 for a in seas)
    assert all(position_value(g, t, memo, stark, a) == 0.0 for a in placed)
    memo.params[:] = v1
    assert not final_round(g, t, memo, stark)
    assert [value_for(g, t, memo, stark, a) for a in range(n)] == before
    # one castle short of victory, earlier in the game
    g.game_round = 5
    ensure_view(g, t, memo)
    memo.castles[stark] = t.castles_to_win - 1
    first = [value_for(g, t, memo, stark, a) for a in range(n)]
    memo.params[:] = v2
    assert near_win(t, memo, stark) and not final_round(g, t, memo, stark)
    second = [value_for(g, t, memo, stark, a) for a in range(n)]
    assert all(second[a] == first[a] + WIN_CASTLE for a in forts)
    assert all(second[a] == first[a] for a in plain + seas)
    memo.castles[stark] = t.castles_to_win - 2
    assert not near_win(t, memo, stark)


def test_second_heuristic_holds_castles_from_a_rival_short_of_victory() -> None:
    """While another house is one castle short of victory, each castle or stronghold of the
    second heuristic's house that that house could attack is worth ``DENY_CASTLE`` more (not
    one out of its reach); in the round before the last every castle and stronghold is worth
    ``PENULT_CASTLE`` more (what is held then may be kept to the ranking). The first heuristic
    values both as before."""
    from enginecase import Case, area

    from gotsim.engine.board_state import LAND
    from gotsim.players.view import DENY_CASTLE, PENULT_CASTLE, ensure_view, value_for

    stark, lannister = int(House.STARK), int(House.LANNISTER)
    winterfell, white_harbor = area("winterfell"), area("white_harbor")
    case = Case(6).phase("planning")
    case.place("the_stony_shore lannister 2F")
    g, t = case.g, case.t
    g.game_round = 5
    v1, v2 = _v1_v2_rows()
    memo = _memo_playing(v1)
    ensure_view(g, t, memo)
    assert memo.threat[lannister, winterfell] > 0.0
    assert memo.threat[lannister, white_harbor] == 0.0
    n = t.n_areas
    calm = [value_for(g, t, memo, stark, a) for a in range(n)]
    memo.castles[lannister] = t.castles_to_win - 1
    memo.near_win_bits = 1 << lannister
    assert [value_for(g, t, memo, stark, a) for a in range(n)] == calm  # the first heuristic
    memo.params[:] = v2
    second = [value_for(g, t, memo, stark, a) for a in range(n)]
    memo.castles[lannister] = 0
    memo.near_win_bits = 0
    plain = [value_for(g, t, memo, stark, a) for a in range(n)]
    assert second[winterfell] == plain[winterfell] + DENY_CASTLE
    assert all(second[a] == plain[a] for a in range(n) if a != winterfell)  # White Harbor too
    # the round before the last
    forts = [a for a in range(n) if memo.fort[a]]
    others = [a for a in range(n) if t.kind[a] == LAND and not memo.fort[a]]
    g.game_round = t.max_rounds - 1
    ensure_view(g, t, memo)
    late = [value_for(g, t, memo, stark, a) for a in range(n)]
    assert all(late[a] == plain[a] + PENULT_CASTLE for a in forts)
    assert all(late[a] == plain[a] for a in others)
    memo.params[:] = v1
    assert [value_for(g, t, memo, stark, a) for a in range(n)] == calm


def test_second_heuristic_sees_a_landing_after_a_sea_is_taken() -> None:
    """Pyke, held by its garrison alone, has no enemy next to it; but Lannister's ship in the
    Golden Sound can move into an empty Ironman's Bay and carry Lannisport's knights to Pyke in
    the same round. The first heuristic's view sees no danger; the second counts that army
    (strength 4), half of it while its own ship holds the bay (that fleet must lose first)."""
    from enginecase import Case, area

    from gotsim.players.marching import threat_at
    from gotsim.players.values import home_sea_threat
    from gotsim.players.view import ensure_view, view_danger

    greyjoy, pyke = int(House.GREYJOY), area("pyke")
    case = Case(6).phase("planning")
    case.place("""
        lannisport        lannister 2K
        the_golden_sound  lannister S
        greywater_watch   greyjoy F
    """)
    v1, v2 = _v1_v2_rows()
    memo = _memo_playing(v1)
    ensure_view(case.g, case.t, memo)
    assert view_danger(memo, greyjoy, pyke) == 0.0
    assert home_sea_threat(case.g, case.t, greyjoy, pyke) == 4.0
    assert threat_at(case.g, case.t, memo, greyjoy, pyke, True) == 0.0
    memo.params[:] = v2
    assert threat_at(case.g, case.t, memo, greyjoy, pyke, True) == 4.0
    case.place("ironmans_bay greyjoy S")
    assert home_sea_threat(case.g, case.t, greyjoy, pyke) == 2.0
    case.g.units[area("ironmans_bay")] = 0
    case.place("ironmans_bay lannister S")  # held by Lannister: the view counts it already
    assert home_sea_threat(case.g, case.t, greyjoy, pyke) == 0.0


def test_second_heuristic_raids_where_orders_are_likely_raidable() -> None:
    """A raid's worth (second heuristic) counts the chance each neighbour's order is one a raid
    removes: strong armies mostly march or defend. With no enemy next to it a raid is worth less
    than any order that does nothing; next to two lone footmen it is worth placing; next to one
    strong army it is not."""
    from enginecase import Case, area

    from gotsim.players.orders import RAID_EMPTY, _raid_worth

    stark = int(House.STARK)
    _, v2 = _v1_v2_rows()
    case = Case(6).phase("planning")
    case.place("""
        winterfell      stark F
        moat_cailin     stark F
        the_twins       lannister F
        greywater_watch greyjoy F
        white_harbor    stark F
        widows_watch    baratheon 3K
    """)
    g, t = case.g, case.t
    memo = new_memos(1)[0]  # (no prediction of the other houses' orders: from their strength)
    claim = np.zeros(t.n_areas)
    assert _raid_worth(g, t, memo, stark, area("winterfell"), v2[stark], claim) == -RAID_EMPTY
    assert _raid_worth(g, t, memo, stark, area("moat_cailin"), v2[stark], claim) > 0.0
    assert _raid_worth(g, t, memo, stark, area("white_harbor"), v2[stark], claim) < 0.0


def test_second_heuristic_predicts_the_other_houses_orders_fairly() -> None:
    """Before Stark's plan, the second heuristic predicts every other house's orders (the plan
    its own heuristic would make in their place, without noise): once a round, from the public
    board, drawing no random number and leaving the other houses' own plans alone; a raid then
    counts a neighbour's order as raidable by the prediction."""
    from enginecase import Case, area

    from gotsim.players.orders import (
        O_MARCH_ZERO,
        O_SUPPORT_ZERO,
        RAIDABLE_IF_PREDICTED,
        _raidable_chance,
        plan_orders,
    )

    stark, lannister = int(House.STARK), int(House.LANNISTER)
    _, v2 = _v1_v2_rows()
    case = Case(6).phase("planning")
    case.place("""
        moat_cailin stark F
        the_twins   lannister F
        seagard     greyjoy 2F K
    """)
    g, t = case.g, case.t
    memo = _memo_playing(v2)
    streams = g.rng.copy()
    lannister_plan = memo.plan[lannister].copy()
    plan_orders(g, t, stark, v2[stark], memo)
    others = [s for s in range(g.rng.shape[0]) if s != 1 + stark]  # (Stark's own noise drawn)
    assert (g.rng[others] == streams[others]).all()  # (the others' noise left out, not drawn)
    assert memo.pred_key[lannister] == g.game_round and memo.pred_key[stark] == 0
    assert memo.pred[lannister, area("the_twins")] >= 0
    assert memo.pred[int(House.GREYJOY), area("seagard")] >= 0
    assert memo.plan_key[lannister] == 0 and (memo.plan[lannister] == lannister_plan).all()
    assert memo.plan[stark, area("moat_cailin")] >= 0
    memo.pred[lannister, area("the_twins")] = O_SUPPORT_ZERO
    assert _raidable_chance(g, t, memo, area("the_twins"), True) == RAIDABLE_IF_PREDICTED[0]
    memo.pred[lannister, area("the_twins")] = O_MARCH_ZERO
    assert _raidable_chance(g, t, memo, area("the_twins"), True) == RAIDABLE_IF_PREDICTED[1]
    assert _raidable_chance(g, t, memo, area("the_twins"), False) == 0.65  # (by its strength)
    # without foresight no prediction is made
    from gotsim.players.params import P_FORESIGHT

    rows = v2.copy()
    rows[:, P_FORESIGHT] = 0.0
    memo = _memo_playing(rows)
    plan_orders(g, t, stark, rows[stark], memo)
    assert (memo.pred_key == 0).all()


def test_second_heuristic_cheap_prediction_reads_simple_area_facts() -> None:
    """With ``foresight`` 2 the other houses' orders are predicted from simple facts of each
    area instead of a plan: a lone footman next to Stark raids, three strength next to another
    house marches, a footman out of every other house's reach consolidates power; the other
    houses' own plans are left alone and no random number is drawn."""
    from enginecase import Case, area

    from gotsim.players.orders import (
        LIGHT_MARCH,
        LIGHT_QUIET_LAND,
        LIGHT_RAID,
        RAIDABLE_IF_PREDICTED,
        _raidable_chance,
        plan_orders,
    )
    from gotsim.players.params import P_FORESIGHT

    stark, lannister, greyjoy = int(House.STARK), int(House.LANNISTER), int(House.GREYJOY)
    _, v2 = _v1_v2_rows()
    rows = v2.copy()
    rows[:, P_FORESIGHT] = 2.0
    case = Case(6).phase("planning")
    case.place("""
        moat_cailin stark F
        the_twins   lannister F
        seagard     greyjoy 2F K
        pyke        greyjoy F
    """)
    g, t = case.g, case.t
    memo = _memo_playing(rows)
    streams = g.rng.copy()
    lannister_plan = memo.plan[lannister].copy()
    plan_orders(g, t, stark, rows[stark], memo)
    others = [s for s in range(g.rng.shape[0]) if s != 1 + stark]
    assert (g.rng[others] == streams[others]).all()
    assert memo.pred_key[lannister] == g.game_round and memo.pred_key[stark] == 0
    assert memo.pred[lannister, area("the_twins")] == LIGHT_RAID
    assert memo.pred[greyjoy, area("seagard")] == LIGHT_MARCH
    assert memo.pred[greyjoy, area("pyke")] == LIGHT_QUIET_LAND
    assert memo.pred[greyjoy, area("moat_cailin")] == -1
    assert memo.plan_key[lannister] == 0 and (memo.plan[lannister] == lannister_plan).all()
    assert memo.plan[stark, area("moat_cailin")] >= 0
    assert _raidable_chance(g, t, memo, area("the_twins"), True) == RAIDABLE_IF_PREDICTED[3]
    assert _raidable_chance(g, t, memo, area("seagard"), True) == RAIDABLE_IF_PREDICTED[1]


def test_second_heuristic_counts_an_order_once_for_two_raids() -> None:
    """Lannister's lone footmen in the Fingers and Seagard are next to Stark's Twins; the Fingers'
    is also the only enemy next to Stark's Mountains of the Moon. A raid in the Twins is worth
    placing, but once a raid is planned in the Mountains it will take the order in the Fingers,
    and a raid in the Twins is left one likely order: not worth placing (and with both claimed,
    worth what a raid with nothing to raid is)."""
    from enginecase import Case, area

    from gotsim.players.orders import RAID_EMPTY, _claim_raid_targets, _raid_worth

    stark = int(House.STARK)
    _, v2 = _v1_v2_rows()
    case = Case(6).phase("planning")
    case.place("""
        the_twins                 stark F
        the_mountains_of_the_moon stark F
        the_fingers               lannister F
        seagard                   lannister F
    """)
    g, t = case.g, case.t
    memo = new_memos(1)[0]  # (no prediction of the other houses' orders: from their strength)
    claim = np.zeros(t.n_areas)
    twins = area("the_twins")
    before = _raid_worth(g, t, memo, stark, twins, v2[stark], claim)
    assert _claim_raid_targets(g, t, memo, stark, area("the_mountains_of_the_moon"), claim, False)
    assert claim[area("the_fingers")] == 1.0  # (the raid there has no other order to take)
    after = _raid_worth(g, t, memo, stark, twins, v2[stark], claim)
    assert before > 0.0 > after > -RAID_EMPTY
    claim[area("seagard")] = 1.0
    assert _raid_worth(g, t, memo, stark, twins, v2[stark], claim) == -RAID_EMPTY
    assert not _claim_raid_targets(g, t, memo, stark, twins, claim, False)  # nothing left to take


def test_second_heuristic_moves_a_raid_to_where_it_finds_orders() -> None:
    """Tokens ran out so a raid was planned where nothing is next to it, while an area next to
    enemies holds a consolidate power order: the second heuristic swaps the two (the same
    tokens); when the swap gains little it keeps the plan."""
    from gotsim.engine.state import N_ORDER_KINDS
    from gotsim.players.orders import NEG, O_CONSOLIDATE, O_RAID, _move_raids

    stark = int(House.STARK)
    memo = new_memos(1)[0]
    areas = np.array([10, 11])
    score = np.full((2, N_ORDER_KINDS), NEG)
    score[0, O_RAID], score[0, O_CONSOLIDATE] = -3.0, 0.5  # nothing to raid, some power
    score[1, O_RAID], score[1, O_CONSOLIDATE] = 0.8, 0.6  # enemies next to it, some power
    memo.plan[stark, 10], memo.plan[stark, 11] = O_RAID, O_CONSOLIDATE
    _move_raids(stark, memo, areas, 2, score)
    assert (memo.plan[stark, 10], memo.plan[stark, 11]) == (O_CONSOLIDATE, O_RAID)
    score[0, O_RAID], score[1, O_CONSOLIDATE] = 0.5, 0.8  # now the plan is as good as the swap
    memo.plan[stark, 10], memo.plan[stark, 11] = O_RAID, O_CONSOLIDATE
    _move_raids(stark, memo, areas, 2, score)
    assert (memo.plan[stark, 10], memo.plan[stark, 11]) == (O_RAID, O_CONSOLIDATE)


def test_second_heuristic_resolves_raids_so_each_finds_an_order() -> None:
    """Stark's raid in the Mountains of the Moon can take only Lannister's support in the
    Fingers; its raid in the Twins can take that support or Lannister's raid in Seagard. The
    second heuristic resolves the Mountains' raid first (fewest orders to choose from), and the
    Twins' raid, resolved first all the same, takes Seagard's raid and leaves the support to the
    other raid; the first heuristic's Twins raid takes the support (worth more), leaving the
    Mountains' raid nothing."""
    from enginecase import Case, area

    from gotsim.players.raids import raid_from, raid_target

    stark = int(House.STARK)
    v1, v2 = _v1_v2_rows()
    case = Case(6).phase("planning")
    case.place("""
        the_twins                 stark F raid
        the_mountains_of_the_moon stark F raid
        the_fingers               lannister F support+0
        seagard                   lannister F raid
    """)
    g, t = case.g, case.t
    memo = new_memos(1)[0]
    mask = np.zeros(N_ACTIONS, dtype=np.bool_)
    mask[area("the_twins")] = mask[area("the_mountains_of_the_moon")] = 1
    assert raid_from(g, t, stark, mask, v2[stark], memo) == area("the_mountains_of_the_moon")
    g.ctx[0] = area("the_twins")
    targets = np.zeros(N_ACTIONS, dtype=np.bool_)
    targets[area("the_fingers")] = targets[area("seagard")] = 1
    assert raid_target(g, t, stark, targets, v2[stark], memo) == area("seagard")
    assert raid_target(g, t, stark, targets, v1[stark], memo) == area("the_fingers")


def test_second_heuristic_takes_back_a_raid_with_nothing_to_raid() -> None:
    """Orders face up, the Messenger Raven's holder sees that its raid in Moat Cailin faces only
    defence orders: the second heuristic swaps it for a consolidate power order, the first keeps
    it."""
    from enginecase import Case, area

    from gotsim.players.orders import O_CONSOLIDATE
    from gotsim.players.raids import _raven_swap

    stark = int(House.STARK)
    v1, v2 = _v1_v2_rows()
    case = Case(6).phase("planning")
    case.place("""
        moat_cailin     stark F raid
        the_twins       lannister F defense+1
        greywater_watch greyjoy F defense+1
    """)
    memo = new_memos(1)[0]
    _, a, _ = _raven_swap(case.g, case.t, stark, memo, v1[stark])
    assert a == -1
    _, a, k = _raven_swap(case.g, case.t, stark, memo, v2[stark])
    assert (a, k) == (area("moat_cailin"), O_CONSOLIDATE)
    case.place("the_twins lannister support+0")  # a support order there: the raid has a target
    _, a, _ = _raven_swap(case.g, case.t, stark, memo, v2[stark])
    assert a == -1


def test_second_heuristic_spends_every_star_it_can() -> None:
    """First on King's Court (3 stars in a 6-player game), Stark holds seven areas of the North,
    nothing to attack or fear: the second heuristic places 3 star orders, changing an order's
    kind where the star of its own kind is gone; the first places one."""
    from enginecase import Case

    from gotsim.engine.state import ORDER_STAR
    from gotsim.players.orders import plan_orders

    stark = int(House.STARK)
    v1, v2 = _v1_v2_rows()
    case = Case(6).phase("planning")
    case.track("kings_court", "stark lannister baratheon greyjoy tyrell martell")
    case.place("""
        winterfell       stark F
        white_harbor     stark F
        castle_black     stark F
        karhold          stark F
        the_stony_shore  stark F
        widows_watch     stark F
        moat_cailin      stark F
    """)
    used = {}
    for name, row in (("v1", v1), ("v2", v2)):
        memo = _memo_playing(row)
        plan_orders(case.g, case.t, stark, row[stark], memo)
        planned = [int(k) for k in memo.plan[stark] if k >= 0]
        assert len(planned) == 7
        used[name] = sum(int(ORDER_STAR[k]) for k in planned)
    assert used == {"v1": 1, "v2": 3}


def test_second_heuristic_musters_an_army_in_a_threatened_empty_home() -> None:
    """Mustering one point in Pyke, held by its garrison alone, with Lannister's fleet in the
    Golden Sound able to take the empty Ironman's Bay and land Lannisport's knights: the first
    heuristic builds a ship to match the fleet; the second puts a footman in its home."""
    from enginecase import Case, area

    from gotsim.engine.state import ACT_FOOTMAN
    from gotsim.players.westeros import muster

    greyjoy = int(House.GREYJOY)
    v1, v2 = _v1_v2_rows()
    case = Case(6).phase("westeros")
    case.place("""
        lannisport        lannister 2K
        the_golden_sound  lannister 3S
        greywater_watch   greyjoy F
    """)
    case.g.ctx[0] = area("pyke")
    case.g.ctx[1] = 1
    mask = np.zeros(N_ACTIONS, np.bool_)
    mask[[ACT_FOOTMAN, area("ironmans_bay"), area("port_of_pyke")]] = True
    chosen = {}
    for name, rows in (("v1", v1), ("v2", v2)):
        memo = _memo_playing(rows)
        chosen[name] = int(muster(case.g, case.t, greyjoy, mask, rows[greyjoy], memo))
    assert chosen == {"v1": area("ironmans_bay"), "v2": ACT_FOOTMAN}


def test_second_heuristic_bids_only_what_wins_its_place() -> None:
    """Iron Throne bidding, Lannister (12 power, second on the track) against houses with 1 or 2
    power: the first heuristic bids its budget capped at the richest rival's power + 1 (3); the
    second predicts the others' bids by its own rule (at most 1 each: their share of 1 or 2) and
    bids the least that still outbids them all, one token more as a margin (2). With every rival
    at 0 power it bids 1: a tie with the Iron Throne holder (Baratheon) would be lost."""
    from enginecase import Case

    from gotsim.players.westeros import bid

    lannister = int(House.LANNISTER)
    v1, v2 = _v1_v2_rows()
    v2[:, P_NOISE] = 0.0  # (the bid itself, not its mixing: see the next test)
    case = Case(6).phase("westeros")
    case.power(lannister=12, baratheon=2, stark=1, greyjoy=2, tyrell=1, martell=2)
    case.g.ctx[0] = 0  # the Iron Throne track
    mask = np.zeros(N_ACTIONS, np.bool_)
    mask[:13] = True
    bids = {}
    for name, rows in (("v1", v1), ("v2", v2)):
        memo = _memo_playing(rows)
        bids[name] = int(bid(case.g, case.t, lannister, mask, rows[lannister], memo))
    assert bids == {"v1": 3, "v2": 2}
    case.power(baratheon=0, stark=0, greyjoy=0, tyrell=0, martell=0)
    memo = _memo_playing(v2)
    assert int(bid(case.g, case.t, lannister, mask, v2[lannister], memo)) == 1  # Baratheon's tie
    # 3 power against five houses of 8, each predicted to bid 1 or 2: the first heuristic's 1
    # buys no place, so the second bids nothing
    case.power(lannister=3, baratheon=8, stark=8, greyjoy=8, tyrell=8, martell=8)
    for name, rows, want in (("v1", v1, 1), ("v2", v2, 0)):
        memo = _memo_playing(rows)
        assert int(bid(case.g, case.t, lannister, mask, rows[lannister], memo)) == want, name


def test_second_heuristic_mixes_its_track_bids() -> None:
    """With ``noise`` the second heuristic's track bid varies around the bid it trims to (up to
    ``BID_SPREAD`` × noise of it, rounded at random, from the house's own stream): no rival can
    count on outbidding it by one. Lannister (12 power, its tuned Iron Throne share 0.13)
    against rivals of 6: the plain bid is 2; mixed, bids of 1 to 3 come up, their mean within 0.3
    of 2; a bid of nothing stays nothing. The first heuristic's bid does not vary."""
    from enginecase import Case

    from gotsim.players.westeros import BID_SPREAD, bid

    lannister = int(House.LANNISTER)
    v1, v2 = _v1_v2_rows()
    case = Case(6).phase("westeros")
    case.power(lannister=12, baratheon=6, stark=6, greyjoy=6, tyrell=6, martell=6)
    case.g.ctx[0] = 0  # the Iron Throne track
    mask = np.zeros(N_ACTIONS, np.bool_)
    mask[:13] = True
    plain = v2.copy()
    plain[:, P_NOISE] = 0.0
    base = int(bid(case.g, case.t, lannister, mask, plain[lannister], _memo_playing(plain)))
    memo = _memo_playing(v2)
    mixed = [int(bid(case.g, case.t, lannister, mask, v2[lannister], memo)) for _ in range(400)]
    spread = BID_SPREAD * v2[lannister, P_NOISE]
    assert 0.2 <= spread < 1.0
    assert min(mixed) < base < max(mixed) <= 12
    assert min(mixed) >= int(base * (1.0 - spread)) and max(mixed) <= int(base * (1 + spread)) + 1
    assert abs(np.mean(mixed) - base) < 0.3
    memo = _memo_playing(v1)
    fixed = {int(bid(case.g, case.t, lannister, mask, v1[lannister], memo)) for _ in range(50)}
    assert len(fixed) == 1
    case.power(lannister=3, baratheon=8, stark=8, greyjoy=8, tyrell=8, martell=8)
    memo = _memo_playing(v2)
    nothing = {int(bid(case.g, case.t, lannister, mask, v2[lannister], memo)) for _ in range(50)}
    assert nothing == {0}


def test_second_heuristic_leaves_the_house_furthest_behind_alone() -> None:
    """Stark holds four castles, Baratheon one (the fewest of any house in play), Lannister
    three. The second heuristic counts less for taking Baratheon's castle (its loss goes to no
    rival that matters) and the same as the first for Lannister's."""
    from enginecase import Case, area

    from gotsim.players.values import WEAK_SPARE, attack_gain_fixed
    from gotsim.players.view import ensure_view

    stark = int(House.STARK)
    v1, v2 = _v1_v2_rows()
    case = Case(6).phase("planning")
    case.place("""
        winterfell      stark F
        white_harbor    stark F
        moat_cailin     stark F
        the_twins       stark F
        seagard         stark F
        dragonstone     baratheon F
        lannisport      lannister F
        harrenhal       lannister F
        riverrun        lannister F
        pyke            greyjoy F
        greywater_watch greyjoy F
        highgarden      tyrell F
        oldtown         tyrell F
        sunspear        martell F
        salt_shore      martell F
        the_boneway     martell F
    """)
    gains = {}
    for name, rows in (("v1", v1), ("v2", v2)):
        memo = _memo_playing(rows)
        ensure_view(case.g, case.t, memo)
        gains[name] = {
            x: attack_gain_fixed(case.g, case.t, memo, stark, area(x))
            for x in ("dragonstone", "riverrun")
        }
        castles = dict(zip(House, memo.castles, strict=True))
        assert castles[House.BARATHEON] == 1 and castles[House.STARK] >= 3
    assert gains["v2"]["riverrun"] == gains["v1"]["riverrun"]
    base = new_memos(1)[0]
    ensure_view(case.g, case.t, base)
    spared = WEAK_SPARE * base.base_value[area("dragonstone")]
    assert gains["v2"]["dragonstone"] == pytest.approx(gains["v1"]["dragonstone"] - spared)


def test_second_heuristic_answers_a_house_that_attacked_it_lately() -> None:
    """Round 5: Lannister attacked Stark in round 3 and Greyjoy attacked Stark in round 2. The
    second heuristic counts ``GRUDGE`` × the area's worth more for taking Lannister's Riverrun
    (an attack two rounds ago is still answered), the same as the first for Lannister's home
    (its home guard weighs it already) and for Greyjoy's Greywater Watch (three rounds ago is
    forgotten); without the round-3 battle Riverrun is worth what the first counts."""
    from enginecase import Case, area

    from gotsim.players.values import GRUDGE, GRUDGE_ROUNDS, attack_gain_fixed
    from gotsim.players.view import ensure_view

    assert GRUDGE_ROUNDS == 3
    stark, lannister, greyjoy = int(House.STARK), int(House.LANNISTER), int(House.GREYJOY)
    v1, v2 = _v1_v2_rows()
    case = Case(6).phase("planning", game_round=5)
    case.place("""
        winterfell      stark F
        white_harbor    stark F
        moat_cailin     stark F
        lannisport      lannister F
        riverrun        lannister F
        pyke            greyjoy F
        seagard         greyjoy F
        greywater_watch greyjoy F
        dragonstone     baratheon F
        highgarden      tyrell F
        sunspear        martell F
    """)
    case.g.history_battles[2, lannister, stark] = 1
    case.g.history_battles[1, greyjoy, stark] = 1
    areas = ("riverrun", "lannisport", "greywater_watch")

    def gains(rows) -> dict[str, float]:
        memo = _memo_playing(rows)
        ensure_view(case.g, case.t, memo)
        return {x: attack_gain_fixed(case.g, case.t, memo, stark, area(x)) for x in areas}

    first, second = gains(v1), gains(v2)
    base = new_memos(1)[0]
    ensure_view(case.g, case.t, base)
    answered = GRUDGE * base.base_value[area("riverrun")]
    assert answered > 0
    assert second["riverrun"] == pytest.approx(first["riverrun"] + answered)
    assert second["lannisport"] == pytest.approx(first["lannisport"])
    assert second["greywater_watch"] == pytest.approx(first["greywater_watch"])
    case.g.history_battles[2, lannister, stark] = 0
    assert gains(v2)["riverrun"] == pytest.approx(first["riverrun"])


def test_second_heuristic_weighs_an_endgame_attack_against_the_predicted_defence() -> None:
    """In its endgame (a game won by castles: its last two rounds, or five castles held) a
    house's own order plan counts its attacks again against the defences its neighbours are
    predicted to make: the defender's strength moves ``PRED_TRUST`` of the way from the
    estimate by what could support it to the predicted one (what holds the area, its predicted
    defence order, the supports predicted next to it); the worth of marching in peace stays."""
    from enginecase import Case, area

    from gotsim.players.marching import (
        PRED_TRUST,
        R_MARGIN,
        R_PEACEFUL,
        evaluate_march,
        predicted_defence,
        reevaluate_attack,
    )
    from gotsim.players.orders import (
        ENDGAME_CASTLES,
        O_DEFENSE_TWO,
        O_MARCH_ZERO,
        O_RAID,
        O_SUPPORT_ONE,
        endgame_rounds,
    )
    from gotsim.players.view import ensure_view, hold_strength

    stark, lannister = int(House.STARK), int(House.LANNISTER)
    _, v2 = _v1_v2_rows()
    case = Case(6).phase("planning", game_round=10)
    case.place("""
        the_twins stark 2K F
        winterfell stark F
        seagard   lannister F
        riverrun  lannister K F
    """)
    g, t = case.g, case.t
    twins, seagard, riverrun = area("the_twins"), area("seagard"), area("riverrun")
    memo = _memo_playing(v2)
    ensure_view(g, t, memo)
    held = float(hold_strength(g, t, seagard))
    assert predicted_defence(g, t, memo, lannister, seagard) == held  # (nothing predicted)
    memo.pred[lannister, seagard] = O_DEFENSE_TWO
    memo.pred[lannister, riverrun] = O_SUPPORT_ONE
    assert predicted_defence(g, t, memo, lannister, seagard) == held + 2 + 3 + 1

    plain = np.zeros(8)
    evaluate_march(g, t, stark, twins, v2[stark], memo, True, plain)
    assert plain[R_MARGIN] != 0.0

    def again(defence: int, support: int, on: bool) -> np.ndarray:
        memo.pred[lannister, seagard] = defence
        memo.pred[lannister, riverrun] = support
        memo.pred_key[lannister] = g.game_round
        memo.pred_margin = 1 if on else 0
        res = plain.copy()
        reevaluate_attack(g, t, stark, twins, v2[stark], memo, res)
        memo.pred_margin = 0
        return res

    assert again(O_DEFENSE_TWO, O_SUPPORT_ONE, False).tolist() == plain.tolist()
    strong = again(O_DEFENSE_TWO, O_SUPPORT_ONE, True)
    weak = again(O_MARCH_ZERO, O_RAID, True)
    # the plain estimate: held + 0.5 + 0.6 × Riverrun's 3 (the units that could support)
    estimate = held + 0.5 + 0.6 * 3
    assert strong[R_MARGIN] == pytest.approx(
        plain[R_MARGIN] - PRED_TRUST * (held + 6 - estimate), abs=1e-5
    )
    assert weak[R_MARGIN] == pytest.approx(
        plain[R_MARGIN] - PRED_TRUST * (held - estimate), abs=1e-5
    )
    assert strong[R_PEACEFUL] == weak[R_PEACEFUL] == plain[R_PEACEFUL]
    memo.pred_key[lannister] = g.game_round - 1  # (last round's prediction counts no more)
    memo.pred_margin = 1
    stale = plain.copy()
    reevaluate_attack(g, t, stark, twins, v2[stark], memo, stale)
    memo.pred_margin = 0
    assert stale.tolist() == plain.tolist()
    # the endgame: the last two rounds, or five castles and strongholds held
    assert endgame_rounds(g, t, memo, stark)
    g.game_round = t.max_rounds - 1
    assert endgame_rounds(g, t, memo, stark)
    g.game_round = t.max_rounds - 2
    ensure_view(g, t, memo)
    assert not endgame_rounds(g, t, memo, stark)
    memo.castles[stark] = ENDGAME_CASTLES
    assert endgame_rounds(g, t, memo, stark)


def test_tuner_league_of_an_earlier_rounds_sets_plays_them_per_house(tmp_path: Path) -> None:
    """``tools/tune_heuristic.py``: a league member ``{"tuned": FILE}`` seats each house with its
    set from that result, in the edition and player count asked for, and a candidate is scored
    on those games (wins + 0.05 castles a game)."""
    import argparse

    from scripts import load_script

    tuner = load_script("tools/tune_heuristic.py")
    result = Path(gotsim.__file__).parent / "data" / "1e" / "heuristic.json"
    earlier = tmp_path / "round.json"
    first_round = json.loads(result.read_text())["players"]["3"]["earlier_rounds"][0]
    earlier.write_text(json.dumps(first_round))  # sets that are not the defaults
    sets = tuner.member_specs({"tuned": str(earlier)})
    for h in houses_in_play(3, "1e"):
        assert sets[h] == {"kind": "heuristic", **first_round["houses"][h.id]["params"]}
        assert sets[h]["aggression"] != defaults_for(h, "1e", 3)[0]
    assert sets[House.GREYJOY] == "heuristic"  # (not in a 3-player 1st-edition game)
    args = argparse.Namespace(edition="1e", players=3, jobs=1, expansion=None)
    candidate = {"kind": "heuristic", "aggression": 0.2}
    score, wins = tuner.score(candidate, House.STARK, [{"tuned": str(earlier)}], 8, 5, args)
    # the same games: Stark the candidate, Baratheon and Lannister their first-round sets
    seats = np.zeros((8, 6), np.int64)
    seats[:, House.BARATHEON] = 1
    seats[:, House.LANNISTER] = 2
    specs = [candidate, sets[House.BARATHEON], sets[House.LANNISTER]]
    records = play_seated(seats, specs, players=3, edition="1e", seed=5)
    assert wins == int((records.winner == House.STARK).sum())
    defaults = [candidate, "heuristic", "heuristic"]
    plain = play_seated(seats, defaults, players=3, edition="1e", seed=5)
    assert plain.tobytes() != records.tobytes()  # (the league's sets made a difference)
    castles = castle_table(records, rules_table("1e", 3))[:, House.STARK]
    assert score == pytest.approx((wins + 0.05 * castles.sum()) / 8)


def test_tuner_plays_mother_of_dragons_games_with_every_house_seated() -> None:
    """``tools/tune_heuristic.py --players 8 --expansion mod``: the candidate in Targaryen's seat
    (a house after the base game's six), the league in the other seven, in Mother of Dragons'
    8-player games (the Iron Bank on), scored on those games; ``play_seated`` with the
    expansion plays what ``play_games`` plays."""
    import argparse

    from scripts import load_script

    tuner = load_script("tools/tune_heuristic.py")
    args = argparse.Namespace(edition="2e", players=8, jobs=1, expansion="mod")
    candidate = {"kind": "heuristic", "aggression": 0.2}
    score, wins = tuner.score(candidate, House.TARGARYEN, ["heuristic"], 6, 5, args)
    seats = np.ones((6, len(House)), np.int64)
    seats[:, House.TARGARYEN] = 0
    records = play_seated(seats, [candidate, "heuristic"], players=8, seed=5, expansion="mod")
    assert wins == int((records.winner == House.TARGARYEN).sum())
    castles = castle_table(records, rules_table("2e", 8, None, "mod"))[:, House.TARGARYEN]
    assert score == pytest.approx((wins + 0.05 * castles.sum()) / 6)
    assert (records.done == 1).all()
    everyone = np.zeros((6, len(House)), np.int64)
    plain = play_seated(everyone, ["heuristic"], players=8, seed=5, expansion="mod")
    same = play_games(6, players=8, seed=5, policies="heuristic", expansion="mod")
    assert plain.tobytes() == same.tobytes()
    assert plain.tobytes() != records.tobytes()  # (the candidate played Targaryen)
    assert houses_in_play(8, "2e", "mod") == list(House)
