"""Arryn and Targaryen have their place in every record, table and stream, and no game gotsim
plays puts them in play: their entries hold what a house out of play holds, their random
streams are never drawn from, and whatever needs their data (setups, house cards) refuses them,
but for Arryn's A Feast for Crows house cards (docs/rules.md F2)."""

from __future__ import annotations

import numpy as np
import pytest

import gotsim
from gotsim.engine.init import new_games_range
from gotsim.engine.invariants import violations
from gotsim.engine.rng import seed_streams
from gotsim.engine.state import N_STREAMS, STATE_DTYPE, H, state_dtype
from gotsim.engine.tables import rules_table
from gotsim.inputs import InputError
from gotsim.odds import BattleSpecError, parse_battle
from gotsim.play.simulate import play_games
from gotsim.players.search import resample_hidden
from gotsim.rules.cards import house_deck
from gotsim.rules.ids import BASE_HOUSES, HOUSE_IDS, House
from gotsim.rules.setup import load_setup

NEW = (House.ARRYN, House.TARGARYEN)
GAMES = [("2e", p, None) for p in (3, 4, 5, 6)] + [("1e", p, None) for p in (3, 4, 5)]
GAMES.append(("2e", 6, "adwd"))


def test_the_house_axis_holds_every_house() -> None:
    assert [int(h) for h in NEW] == [6, 7]
    assert H == len(House) == 8 and N_STREAMS == 1 + H
    assert tuple(House)[:6] == BASE_HOUSES and HOUSE_IDS[6:] == ("arryn", "targaryen")
    assert STATE_DTYPE["in_play"].shape == (H,) and STATE_DTYPE["track"].shape == (3, H)
    six = state_dtype(6)
    assert six.names == STATE_DTYPE.names and six["history_battles"].shape == (10, 6, 6)
    assert six["rng"].shape == (7, 4)


@pytest.mark.parametrize(("edition", "players", "expansion"), GAMES)
def test_no_setup_puts_them_in_play(edition: str, players: int, expansion: str | None) -> None:
    setup = load_setup(edition, players, expansion=expansion)
    assert not set(NEW) & set(setup.houses)
    # Arryn's A Feast for Crows deck and Targaryen's Mother of Dragons deck A are 2nd-edition
    # houses' decks (docs/rules.md F2, M1), unplayed
    assert all(house_deck("1e", h) == () for h in NEW)
    assert all(len(house_deck("2e", h)) == 7 for h in NEW)
    g = new_games_range(1, 0, 1, edition=edition, players=players, expansion=expansion)[0]
    assert g.in_play[6:].tolist() == [0, 0]
    assert (g.track[:, players:] == -1).all()
    for h in NEW:
        assert not (g.owner == h).any() and not (g.power_token == h).any()
        assert g.power[h] == g.supply[h] == g.hand[h] == 0
    t = rules_table(edition, players, expansion=expansion)[0]
    assert t.power_total[6:].tolist() == [0, 0] and not t.unit_limits[6:].any()


def test_the_first_streams_do_not_depend_on_how_many_there_are() -> None:
    seed = np.random.SeedSequence(20240, spawn_key=(5,))
    fresh = np.random.SeedSequence(20240, spawn_key=(5,))
    seven = np.array([c.generate_state(4, np.uint64) for c in fresh.spawn(7)])
    assert np.array_equal(seed_streams(seed)[:7], seven)


@pytest.mark.parametrize(("edition", "players"), [("2e", 3), ("2e", 6), ("1e", 4)])
def test_finished_games_leave_their_entries_as_they_began(edition: str, players: int) -> None:
    start = new_games_range(8, 0, 6, edition=edition, players=players)
    games = play_games(6, players=players, edition=edition, seed=8, policies="heuristic")
    assert games.done.all()
    for g, s in zip(games, start, strict=True):
        assert violations(g, rules_table(edition, players)[0]) == []
        assert np.array_equal(g.rng[7:], s.rng[7:])  # their streams: never drawn from
        assert (g.track[:, 6:] == -1).all() and not g.in_play[6:].any()
        for name in ("power", "supply", "hand", "discard", "battles", "orders_used"):
            assert not g[name][6:].any(), name
        assert not g.history_battles[:, 6:].any() and not g.history_battles[:, :, 6:].any()


def test_simulate_makes_no_columns_for_them_and_refuses_their_policies() -> None:
    frame = gotsim.simulate(2, players=6, seed=1)
    assert not [c for c in frame.columns if "arryn" in c or "targaryen" in c]
    with pytest.raises(InputError, match="arryn is not playing with 6 players"):
        gotsim.simulate(1, players=6, policies={"arryn": "random"})


def test_a_battle_spec_refuses_them_without_cards() -> None:
    """Arryn fights with its A Feast for Crows cards, Targaryen with its Mother of Dragons deck
    A, in the 2nd edition only."""
    spec = {
        "area": "riverrun",
        "attacker": {"house": "targaryen", "units": {"footman": 1}, "order": "march+0"},
        "defender": {"house": "stark", "units": {"footman": 1}},
    }
    assert parse_battle(spec).houses == (House.TARGARYEN, House.STARK)
    with pytest.raises(BattleSpecError, match=r"attacker\.house: targaryen is not a 1e house"):
        parse_battle({**spec, "edition": "1e"})
    spec["attacker"]["house"] = "arryn"
    assert parse_battle(spec).houses == (House.ARRYN, House.STARK)
    with pytest.raises(BattleSpecError, match=r"attacker\.house: arryn is not a 1e house"):
        parse_battle({**spec, "edition": "1e"})


def test_searches_redraw_no_stream_of_a_house_out_of_play() -> None:
    """The search player redraws every stream its house may not know, but those of Arryn and
    Targaryen out of play: its generator then makes the draws it makes for six houses."""
    g = new_games_range(3, 0, 1, players=4)[0]
    t = rules_table("2e", 4)[0]
    before = g.rng.copy()
    resample_hidden(g, t, int(House.STARK), np.random.default_rng(1))
    assert np.array_equal(g.rng[7:], before[7:])
    assert np.array_equal(g.rng[1 + House.STARK], before[1 + House.STARK])
    assert not np.array_equal(g.rng[1 + House.MARTELL], before[1 + House.MARTELL])
