"""The odds calculator as a whole: card-choice models, the matrix game, exact against sampled
odds, and reproducibility of the sampled path."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gotsim.odds import BattleSpecError, combat_odds, parse_battle, solve_matrix_game
from gotsim.rules.cards import house_deck
from gotsim.rules.ids import BASE_HOUSES, House

BASE = {
    "area": "riverrun",
    "attacker": {
        "house": "lannister",
        "units": {"footman": 2, "knight": 1},
        "order": "march+0",
        "hand": ["tywin_lannister", "ser_gregor_clegane", "the_hound", "cersei_lannister"],
    },
    "defender": {
        "house": "stark",
        "units": {"footman": 1, "knight": 1},
        "order": "defense+1",
        "hand": ["eddard_stark", "robb_stark", "the_blackfish", "catelyn_stark"],
    },
    "fiefdoms": ["stark", "lannister"],
    "iron_throne": ["lannister", "stark"],
}


def spec(**changes: object) -> dict:
    out = copy.deepcopy(BASE)
    out.update(changes)
    return out


def test_uniform_is_the_mean_of_the_matrix() -> None:
    """Under the uniform model the win chance is the plain average of the card-pair matrix."""
    r = combat_odds(spec(), model="uniform")
    assert r.matrix.shape == (4, 4)
    assert r.p_attacker_wins == pytest.approx(r.matrix.mean())
    assert r.p_attacker_wins + r.p_defender_wins == pytest.approx(1.0)
    assert set(r.attacker_strategy.values()) == {0.25}


def test_fixed_model_reads_one_cell() -> None:
    """Tywin (4) vs Eddard (4): 4 + 4 = 8 against 3 + 1 + 4 = 8; the tie goes to Stark, higher
    on Fiefdoms."""
    s = spec()
    s["attacker"]["card"] = "tywin_lannister"
    s["defender"]["card"] = "eddard_stark"
    r = combat_odds(s, model="fixed")
    assert r.p_attacker_wins == 0.0
    assert r.breakdown.loc["attacker", "total"] == 8
    assert r.breakdown.loc["defender", "total"] == 8
    assert r.attacker_strategy["tywin_lannister"] == 1.0


def test_fixed_model_needs_cards() -> None:
    with pytest.raises(BattleSpecError, match=r"attacker\.card"):
        combat_odds(spec(), model="fixed")


def _check_equilibrium(r) -> None:  # type: ignore[no-untyped-def]
    x = np.array(list(r.attacker_strategy.values()))
    y = np.array(list(r.defender_strategy.values()))
    m = r.matrix
    assert x.min() >= 0 and y.min() >= 0
    assert x.sum() == pytest.approx(1.0) and y.sum() == pytest.approx(1.0)
    assert m.min() - 1e-9 <= r.game_value <= m.max() + 1e-9
    # neither side gains by deviating to any pure strategy
    assert (m @ y).max() <= r.game_value + 1e-7
    assert (x @ m).min() >= r.game_value - 1e-7
    assert r.p_attacker_wins == pytest.approx(r.game_value)


@pytest.mark.parametrize("tides", [False, True])
def test_equilibrium_strategies_are_optimal(tides: bool) -> None:
    """The LP's strategies are distributions, the value lies within the matrix, and no pure
    deviation improves on it for either side."""
    s = spec(tides_of_battle=tides)
    s["attacker"].pop("hand")
    s["defender"].pop("hand")
    _check_equilibrium(combat_odds(s, model="equilibrium"))


def test_matching_pennies() -> None:
    """The classic 2x2 game has value 1/2 and mixes evenly."""
    x, y, v = solve_matrix_game(np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert v == pytest.approx(0.5)
    assert x == pytest.approx([0.5, 0.5])
    assert y == pytest.approx([0.5, 0.5])


def test_dominated_card_never_played_in_equilibrium() -> None:
    """With Ser Gregor (3, 3 swords) and Cersei (0) against one card, Cersei is never chosen."""
    s = spec()
    s["attacker"]["hand"] = ["ser_gregor_clegane", "cersei_lannister"]
    s["defender"]["hand"] = ["the_blackfish"]
    r = combat_odds(s, model="equilibrium")
    assert r.attacker_strategy["cersei_lannister"] == pytest.approx(0.0)


def test_sampled_path_is_reproducible_and_batch_free() -> None:
    """Same seed gives the same sample whatever the batch size; another seed differs."""
    s = spec(tides_of_battle=True)
    a = combat_odds(s, samples=50_000, seed=7, batch=4096)
    b = combat_odds(s, samples=50_000, seed=7, batch=200_000)
    c = combat_odds(s, samples=50_000, seed=8)
    assert a.p_attacker_wins == b.p_attacker_wins
    assert a.p_attacker_wins != c.p_attacker_wins
    assert not a.exact and a.n_samples == 50_000 and a.std_error > 0


HOUSES = [h.id for h in BASE_HOUSES]
LAND_AREAS = ["riverrun", "harrenhal", "the_reach", "highgarden", "winterfell", "blackwater"]


@st.composite
def battles(draw: st.DrawFn) -> dict:
    """Random legal land battles with random hands, orders, support and Tides of Battle."""
    att, dfn = draw(st.lists(st.sampled_from(HOUSES), min_size=2, max_size=2, unique=True))

    def hand(house: str) -> list[str]:
        cards = [c.id for c in house_deck("2e", House.from_id(house))]
        return draw(st.lists(st.sampled_from(cards), min_size=1, max_size=4, unique=True))

    def units(min_total: int) -> dict:
        f = draw(st.integers(0, 3))
        k = draw(st.integers(0, 2))
        se = draw(st.integers(0, 1))
        if f + k + se < min_total:
            f = min_total
        return {"footman": f, "knight": k, "siege_engine": se}

    out = {
        "area": draw(st.sampled_from(LAND_AREAS)),
        "tides_of_battle": draw(st.booleans()),
        "attacker": {
            "house": att,
            "units": units(1),
            "order": draw(st.sampled_from(["march-1", "march+0", "march+1"])),
            "hand": hand(att),
        },
        "defender": {
            "house": dfn,
            "units": units(1),
            "order": draw(st.sampled_from(["none", "defense+1", "defense+2", "support+0"])),
            "hand": hand(dfn),
            # routed units (never casualties, C10) and siege engines (never a loser's, C9)
            "routed": {"footman": draw(st.integers(0, 1))},
        },
        "fiefdoms": draw(st.permutations([att, dfn])),
        "iron_throne": draw(st.permutations([att, dfn])),
    }
    if draw(st.booleans()):
        out["support"] = [
            {"house": att, "side": "attacker", "units": {"ship": 1}, "order": "support+1"}
        ]
    return out


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(battles(), st.sampled_from(["uniform", "equilibrium"]))
def test_exact_and_sampled_agree(battle: dict, model: str) -> None:
    """Exact odds and 20,000 sampled battles agree within 3 standard errors (+ a tiny floor)."""
    exact = combat_odds(battle, model=model)
    sampled = combat_odds(battle, model=model, samples=20_000, seed=1)
    tolerance = 3 * max(sampled.std_error, 1e-3)
    assert abs(exact.p_attacker_wins - sampled.p_attacker_wins) <= tolerance


@pytest.mark.parametrize("footmen", [1, 2, 3])
def test_exact_and_sampled_agree_on_the_blade_redraw(footmen: int) -> None:
    """The Valyrian Steel Blade's two uses (FAQ v2.0 step 4: a redraw seen on the holder's own
    card only, else +1 after the reveal) give the same odds exactly and sampled, behind by 1, 2
    or 3 (where the redraw is chosen more and more)."""
    battle = {
        "area": "kingswood",
        "tides_of_battle": True,
        "attacker": {
            "house": "lannister",
            "units": {"footman": footmen},
            "order": "march+0",
            "card": "ser_jaime_lannister",
        },
        "defender": {
            "house": "stark",
            "units": {"footman": 3},
            "order": "defense+1",
            "card": "greatjon_umber",
        },
        "fiefdoms": ["lannister", "stark"],
    }
    exact = combat_odds(battle, model="fixed")
    sampled = combat_odds(battle, model="fixed", samples=40_000, seed=3)
    assert abs(exact.p_attacker_wins - sampled.p_attacker_wins) <= 3 * sampled.std_error
    if footmen < 3:
        assert exact.blade["redraw"] > 0


def test_spec_accepts_json_text_and_is_immutable() -> None:
    """A spec may be JSON text; the parsed base vector is read-only."""
    import json

    battle = parse_battle(json.dumps(spec()))
    assert battle.area == "riverrun"
    with pytest.raises(ValueError):
        battle.base[0] = 5
