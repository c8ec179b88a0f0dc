"""The engine: random-play harness over every player count with and without Tides of Battle
(invariants after every game, and after every decision for a sample), determinism, and rule
cases for planning, raids and marches."""

from __future__ import annotations

import numpy as np
import pytest

from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.machine import advance, apply, legal
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import ACT_NONE, N_ACTIONS, Decision, Order, Phase, Restriction
from gotsim.engine.tables import rules_table
from gotsim.play.runner import play_random
from gotsim.rules.board import load_board
from gotsim.rules.ids import House

BOARD = load_board("2e")
A = BOARD.index


def seeds(n: int, root: int = 0) -> list[np.random.SeedSequence]:
    return [np.random.SeedSequence(root, spawn_key=(i,)) for i in range(n)]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("tides", [False, True])
def test_random_games_keep_every_invariant(players: int, tides: bool) -> None:
    """250 complete random games per setting (2,000 in all): every game ends, with a winner,
    no invariant broken and never a decision without a legal option."""
    rules = rules_table("2e", players, {"tides_of_battle": tides})
    games = new_games(seeds(250, players), players=players)
    made = play_random(games, rules, 1_000_000)
    assert (made > 0).all()
    assert (games.done == 1).all() and (games.phase == Phase.GAME_OVER).all()
    assert (games.winner >= 0).all()
    for g in games:
        assert violations(g, rules[0]) == []
    assert games.battles.sum() > 0


def step_randomly(g: np.record, t: np.record, check: bool = True) -> int:
    mask = np.zeros(N_ACTIONS, np.bool_)
    made = 0
    while True:
        advance(g, t)
        if check:
            assert violations(g, t) == [] or g.combat_area >= 0
        if g.pending == Decision.NONE:
            return made
        assert legal(g, t, mask) > 0
        assert apply(g, t, pick_from_mask(g.rng, 1 + g.pending_house, mask))
        made += 1


def test_invariants_after_every_decision() -> None:
    """Outside battles the record is consistent after every single decision (30 games)."""
    rules = rules_table("2e", 6)
    for g in new_games(seeds(30, 11)):
        assert step_randomly(g, rules[0]) > 200


def test_same_seed_same_game_whatever_the_batch() -> None:
    """A game depends only on its own seed: alone, in a batch, or replayed."""
    rules = rules_table("2e", 6)
    batch = new_games(seeds(40, 3))
    play_random(batch, rules, 100_000)
    alone = new_games(seeds(40, 3)[17:18])
    play_random(alone, rules, 100_000)
    assert alone[0].tobytes() == batch[17].tobytes()
    again = new_games(seeds(40, 3))
    play_random(again, rules, 100_000)
    assert again.tobytes() == batch.tobytes()


def test_illegal_action_is_refused() -> None:
    rules = rules_table("2e", 6)
    g = new_games(seeds(1))[0]
    advance(g, rules[0])
    assert g.pending == Decision.PLACE_ORDER
    before = g.tobytes()
    assert not apply(g, rules[0], 40)  # no such order kind
    assert g.tobytes() == before


def first_pending(g: np.record, t: np.record) -> tuple[int, int, int]:
    advance(g, t)
    return int(g.pending), int(g.pending_house), int(g.ctx[0])


def test_planning_asks_every_area_with_units_in_turn_order() -> None:
    """Round 1, 6 players: Baratheon (top of the Iron Throne) orders Dragonstone first; every
    area holding units gets an order."""
    rules = rules_table("2e", 6)
    t = rules[0]
    g = new_games(seeds(1))[0]
    kind, house, area = first_pending(g, t)
    assert (kind, house, area) == (Decision.PLACE_ORDER, House.BARATHEON, A("dragonstone"))
    mask = np.zeros(N_ACTIONS, np.bool_)
    while g.phase == Phase.PLANNING:
        legal(g, t, mask)
        apply(g, t, int(np.flatnonzero(mask)[0]))
        advance(g, t)
    occupied = np.flatnonzero(g.owner[: t.n_areas] >= 0)
    assert (g.order[occupied] >= 0).all()


def test_star_orders_follow_kings_court() -> None:
    """At 6 players Greyjoy (last on King's Court) may place no star order; Lannister (first)
    may place three."""
    t = rules_table("2e", 6)[0]
    g = new_games(seeds(1))[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    stars = [Order.MARCH_PLUS, Order.DEFENSE_TWO, Order.SUPPORT_ONE, Order.RAID_STAR]
    while True:
        advance(g, t)
        if g.pending != Decision.PLACE_ORDER:
            break
        legal(g, t, mask)
        if g.pending_house == House.GREYJOY:
            assert not mask[stars].any()
        choice = next((k for k in stars if mask[k]), int(np.flatnonzero(mask)[0]))
        apply(g, t, int(choice))
    lannister_stars = sum(
        int(g.orders_used[House.LANNISTER, k]) for k in (*stars, Order.CONSOLIDATE_STAR)
    )
    assert lannister_stars == 3


@pytest.mark.parametrize(
    ("restriction", "forbidden"),
    [
        (Restriction.NO_DEFENSE, [Order.DEFENSE_ONE, Order.DEFENSE_TWO]),
        (Restriction.NO_MARCH_PLUS, [Order.MARCH_PLUS]),
        (Restriction.NO_RAID, [Order.RAID, Order.RAID_STAR]),
        (Restriction.NO_SUPPORT, [Order.SUPPORT_ZERO, Order.SUPPORT_ONE]),
        (Restriction.NO_CONSOLIDATE, [Order.CONSOLIDATE, Order.CONSOLIDATE_STAR]),
    ],
)
def test_westeros_restrictions_forbid_orders(restriction: int, forbidden: list[int]) -> None:
    t = rules_table("2e", 6)[0]
    g = new_games(seeds(1))[0]
    g.restrict = restriction
    advance(g, t)
    mask = np.zeros(N_ACTIONS, np.bool_)
    legal(g, t, mask)
    assert not mask[forbidden].any() and mask.any()


def board_with(orders: dict[str, tuple[int, int]], units: dict[str, tuple[int, dict]]) -> tuple:
    """A 6-player record with the given units ``{area: (house, {unit: n})}`` and orders
    ``{area: (house, Order)}``, in the raid step of round 1."""
    t = rules_table("2e", 6)[0]
    g = new_games(seeds(1))[0]
    g.owner[:] = -1
    g.units[:] = 0
    g.order[:] = -1
    g.orders_used[:] = 0
    for area, (house, counts) in units.items():
        g.owner[A(area)] = house
        for unit, n in counts.items():
            g.units[A(area), unit] = n
    for area, (house, kind) in orders.items():
        assert g.owner[A(area)] == house
        g.order[A(area)] = kind
        g.orders_used[house, kind] += 1
    g.phase = Phase.RAIDS
    return g, t


def test_raid_on_consolidate_power_pillages() -> None:
    """A Stark raid from Winterfell on a Greyjoy consolidate power order in Moat Cailin: the
    order goes, Stark gains 1 power and Greyjoy loses 1."""
    stark, greyjoy = House.STARK, House.GREYJOY
    g, t = board_with(
        {"winterfell": (stark, Order.RAID), "moat_cailin": (greyjoy, Order.CONSOLIDATE)},
        {"winterfell": (stark, {0: 1}), "moat_cailin": (greyjoy, {0: 1})},
    )
    assert first_pending(g, t) == (Decision.RAID_FROM, stark, 0)
    assert apply(g, t, A("winterfell"))
    mask = np.zeros(N_ACTIONS, np.bool_)
    legal(g, t, mask)
    assert mask[A("moat_cailin")] and mask[ACT_NONE]
    assert apply(g, t, A("moat_cailin"))
    assert g.order[A("moat_cailin")] == -1 and g.order[A("winterfell")] == -1
    assert (g.power[stark], g.power[greyjoy]) == (6, 4)


@pytest.mark.parametrize(("raid", "reachable"), [(Order.RAID, False), (Order.RAID_STAR, True)])
def test_only_the_star_raid_removes_defense(raid: int, reachable: bool) -> None:
    stark, greyjoy = House.STARK, House.GREYJOY
    g, t = board_with(
        {"winterfell": (stark, raid), "moat_cailin": (greyjoy, Order.DEFENSE_ONE)},
        {"winterfell": (stark, {0: 1}), "moat_cailin": (greyjoy, {0: 1})},
    )
    first_pending(g, t)
    apply(g, t, A("winterfell"))
    mask = np.zeros(N_ACTIONS, np.bool_)
    legal(g, t, mask)
    assert bool(mask[A("moat_cailin")]) is reachable


def test_land_raid_cannot_reach_the_sea() -> None:
    """A raid in Winterfell cannot remove a support order on ships in The Shivering Sea."""
    stark, greyjoy = House.STARK, House.GREYJOY
    g, t = board_with(
        {"winterfell": (stark, Order.RAID), "the_shivering_sea": (greyjoy, Order.SUPPORT_ZERO)},
        {"winterfell": (stark, {0: 1}), "the_shivering_sea": (greyjoy, {2: 1})},
    )
    first_pending(g, t)
    apply(g, t, A("winterfell"))
    mask = np.zeros(N_ACTIONS, np.bool_)
    legal(g, t, mask)
    assert not mask[A("the_shivering_sea")]


def test_march_by_ship_transport_and_one_attack_only() -> None:
    """Greyjoy marches two footmen from Pyke: its ship in Ironman's Bay carries them to any land
    next to that sea; once one footman attacks Riverrun (Lannister), the other may not attack
    Seagard (Stark) as well."""
    greyjoy, stark, lannister = House.GREYJOY, House.STARK, House.LANNISTER
    g, t = board_with(
        {"pyke": (greyjoy, Order.MARCH_ZERO)},
        {
            "pyke": (greyjoy, {0: 2}),
            "ironmans_bay": (greyjoy, {2: 1}),
            "riverrun": (lannister, {0: 1}),
            "seagard": (stark, {0: 1}),
        },
    )
    g.phase = Phase.MARCHES
    assert first_pending(g, t)[0] == Decision.MARCH_FROM
    apply(g, t, A("pyke"))
    advance(g, t)
    assert g.pending == Decision.MARCH_UNIT
    mask = np.zeros(N_ACTIONS, np.bool_)
    legal(g, t, mask)
    reachable = {BOARD.area_ids[a] for a in np.flatnonzero(mask[: t.n_areas])}
    assert reachable == {"pyke", "riverrun", "seagard", "greywater_watch", "flints_finger"}
    apply(g, t, A("riverrun"))
    advance(g, t)
    legal(g, t, mask)
    assert mask[A("riverrun")] and not mask[A("seagard")] and mask[A("flints_finger")]


def test_engine_battle_matches_the_calculator() -> None:
    """The engine's battle and the odds calculator share one combat function: Lannister
    (2 knights, march +0, Ser Gregor 3) beats Stark (1 footman, Catelyn 0) in Riverrun 7 to 1,
    Stark loses its footman (3 swords) and Lannister moves in."""
    from gotsim.odds import combat_odds

    lannister, stark = House.LANNISTER, House.STARK
    g, t = board_with(
        {"lannisport": (lannister, Order.MARCH_ZERO)},
        {"lannisport": (lannister, {1: 2}), "riverrun": (stark, {0: 1})},
    )
    g.phase = Phase.MARCHES
    mask = np.zeros(N_ACTIONS, np.bool_)
    first_pending(g, t)
    apply(g, t, A("lannisport"))
    choices = {
        Decision.MARCH_UNIT: A("riverrun"),
        Decision.LEAVE_POWER: 0,
        Decision.HOUSE_CARD: None,
    }
    while g.phase == Phase.MARCHES:
        advance(g, t)
        if g.pending == Decision.NONE:
            break
        kind = Decision(g.pending)
        if kind == Decision.HOUSE_CARD:
            slot = 1 if g.pending_house == lannister else 6  # Ser Gregor / Catelyn Stark
            assert apply(g, t, slot)
        elif kind in choices and choices[kind] is not None:
            assert apply(g, t, choices[kind])
        else:
            legal(g, t, mask)
            assert apply(g, t, int(np.flatnonzero(mask)[0]))
    assert g.owner[A("riverrun")] == lannister and g.units[A("riverrun"), 1] == 2
    assert g.owner[A("lannisport")] == -1 or g.power_token[A("lannisport")] == lannister
    odds = combat_odds(
        {
            "area": "riverrun",
            "attacker": {
                "house": "lannister",
                "units": {"knight": 2},
                "card": "ser_gregor_clegane",
            },
            "defender": {"house": "stark", "units": {"footman": 1}, "card": "catelyn_stark"},
            "fiefdoms": ["greyjoy", "tyrell", "martell", "stark", "baratheon", "lannister"],
        },
        model="fixed",
    )
    assert odds.p_attacker_wins == 1.0
    assert odds.casualties["defender"]["expected_destroyed"]["footman"] == 1.0
