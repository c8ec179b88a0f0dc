"""The engine casebook of three more A Clash of Kings modules as 1st-edition variants: ports
(rules digest §2.4), one-time orders (§2.5) and three-card combat (§2.7). Decisions are cited as
P…, O… and T… in ``docs/rules.md``. Each case fails without its module.

Unless a case says otherwise it is a 5-player 1st-edition game in round 1 with the setup's
tracks (Iron Throne: Baratheon, Lannister, Stark, Tyrell, Greyjoy), power 5 each, full hands, the
three neutral forces and nothing else on the board.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from combatcase import make_spec, side
from enginecase import Case

from gotsim import combat_odds
from gotsim.engine import combat as cb
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.machine import advance, apply_legal, legal
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import N_ACTIONS, Decision, Restriction
from gotsim.engine.tables import rules_table
from gotsim.engine.westeros import power_income
from gotsim.odds.calculator import solve_matrix_game
from gotsim.odds.spec import BattleSpecError
from gotsim.play.simulate import play_games
from gotsim.rules.ids import House

PORTS = {"ports": True}
ONCE = {"one_time_orders": True}
THREE = {"three_card_combat": True}


def case(phase: str, variants: dict[str, bool]) -> Case:
    return Case(5, edition="1e", variants=variants).phase(phase)


# =================================================================================================
# §2.4 Ports
# =================================================================================================


def test_ports_are_cut_off_without_the_variant() -> None:
    """P1: the base board has no ports. The 8 port areas of the module border nothing unless
    ``ports`` is on: a Lannister ship in the Golden Sound can sail into the Port of Lannisport
    only with the module."""
    for variants, expected in (({}, False), (PORTS, True)):
        c = case("marches", variants).place("""
            lannisport       lannister F
            the_golden_sound lannister S march+0
        """)
        c.play("lannister MARCH_FROM the_golden_sound")
        assert ("port_of_lannisport" in c.options()) == expected
    t = rules_table("1e", 5)[0]
    port = Case(5, edition="1e")._area("port_of_lannisport")
    assert not t.adjacent[port].any() and t.port_of_area.max() == -1


def test_ports_only_the_owner_and_three_ships_at_most() -> None:
    """P2 (§2.4 rules 3–5): only the house controlling the land area may use its port, and a
    port holds at most 3 ships. Stark's ship may not enter Lannister's port; Lannister's may
    not make it four."""
    c = case("marches", PORTS).place("""
        lannisport         lannister F
        port_of_lannisport lannister 3S
        the_golden_sound   stark     S march+0
    """)
    c.play("stark MARCH_FROM the_golden_sound")
    assert "port_of_lannisport" not in c.options()
    c = case("marches", PORTS).place("""
        lannisport         lannister F
        port_of_lannisport lannister 3S
        the_golden_sound   lannister S march+0
    """)
    c.play("lannister MARCH_FROM the_golden_sound")
    assert "port_of_lannisport" not in c.options() and "sunset_sea" in c.options()


def test_ports_consolidate_power_trades_unless_an_enemy_ship_is_outside() -> None:
    """P3 (§2.4 rule 12): a consolidate power order may go on a port ship (not at sea in the
    1st edition) and gives 1 power if no enemy ship is in the port's sea, else nothing."""
    c = case("planning", PORTS).place("""
        lannisport         lannister F defense+1
        port_of_lannisport lannister S
        the_golden_sound   lannister S
    """)
    c.advance()
    assert c.pending == "lannister PLACE_ORDER" and int(c.g.ctx[0]) == c._area("the_golden_sound")
    assert "consolidate_power" not in c.options()
    c.play("lannister PLACE_ORDER raid")
    assert int(c.g.ctx[0]) == c._area("port_of_lannisport")
    assert "consolidate_power" in c.options()
    for enemy, gain in (("", 1), ("the_golden_sound stark S", 0)):
        c = case("consolidate", PORTS).place(f"""
            lannisport         lannister F
            port_of_lannisport lannister S consolidate_power
            {enemy}
        """)
        c.play()
        assert c.power_of("lannister") == 5 + gain


def test_ports_raids_from_and_on_a_port() -> None:
    """P2 (§2.4 rules 8–9): a port ship raids only its sea; a ship in that sea may raid the
    port's support order."""
    c = case("raids", PORTS).place("""
        lannisport         lannister F
        port_of_lannisport lannister S raid
        the_golden_sound   greyjoy   S support+0
        riverrun           greyjoy   F support+0
    """)
    c.play("lannister RAID_FROM port_of_lannisport")
    assert c.options() == {"the_golden_sound", "none"}
    c = case("raids", PORTS).place("""
        lannisport         lannister F
        port_of_lannisport lannister S support+0
        the_golden_sound   greyjoy   S raid
    """)
    c.play("""
        greyjoy RAID_FROM the_golden_sound
        greyjoy RAID_TARGET port_of_lannisport
    """)
    assert c.order_at("port_of_lannisport") is None


def test_ports_ships_support_sea_battles_only() -> None:
    """P2 (§2.4 rule 7): port ships may support a battle in their sea, never one on land: the
    support order in the Port of Lannisport is asked about the sea battle only."""
    c = case("marches", PORTS).place("""
        lannisport         lannister F
        port_of_lannisport lannister S support+0
        the_golden_sound   lannister S
        ironmans_bay       greyjoy   2S march+0
        riverrun           greyjoy   F
    """)
    c.play("""
        greyjoy MARCH_FROM ironmans_bay
        greyjoy MARCH_UNIT S the_golden_sound
        greyjoy MARCH_UNIT S the_golden_sound
    """)
    port = c._area("port_of_lannisport")
    assert c.pending == "greyjoy HOUSE_CARD" and int(c.g.support_side[port]) == 2  # defender
    c = case("marches", PORTS).place("""
        lannisport         lannister F
        port_of_lannisport lannister S support+0
        riverrun           greyjoy   2F march+0
    """)
    c.play("""
        greyjoy MARCH_FROM riverrun
        greyjoy MARCH_UNIT F lannisport
        greyjoy MARCH_UNIT F lannisport
    """)
    assert c.pending == "greyjoy HOUSE_CARD" and int(c.g.support_side[port]) == 0


def test_ports_a_conqueror_takes_the_ships() -> None:
    """P2 (§2.4 rule 10): when the land area is conquered, its port's ships become the
    conqueror's (within its supply and ships)."""
    c = case("marches", PORTS).place("""
        lannisport         lannister F
        port_of_lannisport lannister 2S
        riverrun           stark     2K march+0
    """)
    c.play("""
        stark     MARCH_FROM riverrun
        stark     MARCH_UNIT K lannisport
        stark     MARCH_UNIT K lannisport
        stark     HOUSE_CARD eddard_stark
        lannister HOUSE_CARD cersei_lannister
        lannister RETREAT    stoney_sept
    """)
    assert c.controller("lannisport") == "stark"
    assert c.at("port_of_lannisport") == "stark 2S"


def test_ports_game_of_thrones_income() -> None:
    """P4 (D14): on Game of Thrones a port gives its house 1 power if it holds the house's
    ships and no enemy ship is in its sea (the 2nd edition's reading)."""
    c = case("westeros", PORTS).place("""
        lannisport         lannister F
        port_of_lannisport lannister S
    """)
    lannister = int(House.LANNISTER)
    assert power_income(c.g, c.t, lannister) == 1  # Lannisport shows no crown
    c.place("the_golden_sound greyjoy S")
    assert power_income(c.g, c.t, lannister) == 0
    c = case("westeros", PORTS).place("lannisport lannister F")
    assert power_income(c.g, c.t, lannister) == 0


def test_ports_refused_in_the_second_edition() -> None:
    """P5: the 2nd edition has ports in its base game; the switch is refused there."""
    with pytest.raises(ValueError, match="ports is a 1st-edition"):
        rules_table("2e", 6, PORTS)


# =================================================================================================
# §2.5 One-time orders
# =================================================================================================


def test_one_time_orders_first_in_iron_throne_order_then_the_others() -> None:
    """O2: before the other orders each house in Iron Throne order may place one one-time
    order; it is offered the three common kinds and its own house's."""
    c = case("planning", ONCE).place("""
        lannisport  lannister F
        winterfell  stark     F
        the_reach   tyrell    F
    """)
    c.advance()
    assert c.pending == "lannister ONE_TIME_ORDER"
    assert c.options() == {"muster", "supply_train", "forced_march", "lions_cunning", "none"}
    c.play("lannister ONE_TIME_ORDER muster")
    assert c.pending == "lannister ONE_TIME_AREA" and c.options() == {"lannisport"}
    c.play("""
        lannister ONE_TIME_AREA lannisport
        stark     ONE_TIME_ORDER young_wolf
        stark     ONE_TIME_AREA winterfell
        tyrell    ONE_TIME_ORDER none
        lannister PLACE_ORDER defense+1
    """)
    assert c.one_time_at("lannisport") == "muster" and c.one_time_at("winterfell") == "young_wolf"
    assert c.one_time_at("the_reach") is None


def test_one_time_orders_once_a_game_never_in_a_port() -> None:
    """O1, O2: a kind once placed is never offered again; a port is never an area for one."""
    c = case("planning", {**ONCE, **PORTS}).place("""
        lannisport         lannister F
        port_of_lannisport lannister S
    """)
    c.g.one_time_used[int(House.LANNISTER)] = 1  # muster spent in an earlier round
    c.advance()
    assert "muster" not in c.options()
    c.play("lannister ONE_TIME_ORDER supply_train")
    assert c.options() == {"lannisport"}


def test_one_time_orders_obey_the_round_restrictions() -> None:
    """O2: an order type forbidden this round (Sea of Storms: no raid) forbids the one-time
    orders of that icon (Lion's Cunning resolves in the raid step)."""
    c = case("planning", ONCE).place("lannisport lannister F")
    c.g.restrict = int(Restriction.NO_RAID)
    c.advance()
    assert "lions_cunning" not in c.options() and "muster" in c.options()


def test_one_time_muster_in_the_consolidate_step() -> None:
    """O6: Muster musters at once in its area's castle or stronghold (Lannisport: 2 points)."""
    c = (
        case("consolidate", ONCE)
        .place("lannisport lannister F")
        .one_time("lannisport", "lannister", "muster")
    )
    c.advance()
    assert c.pending == "lannister MUSTER" and int(c.g.ctx[1]) == 2
    c.play("lannister MUSTER knight")
    assert c.at("lannisport") == "lannister F K"
    assert c.one_time_at("lannisport") is None


def test_one_time_supply_train_raises_supply_one_step() -> None:
    """O6: Supply Train raises the house's supply level one step (at most 6)."""
    c = case("consolidate", ONCE).place("lannisport lannister F").supply(lannister=2)
    c.one_time("lannisport", "lannister", "supply_train").play()
    assert int(c.g.supply[int(House.LANNISTER)]) == 3


def test_one_time_forced_march_pulls_units_in() -> None:
    """O6: Forced March moves units from areas next to its own (land units also along the
    house's ships) into it at once, as the house's first turn of the march step; an area left
    empty loses its order."""
    c = case("marches", ONCE).place("""
        winterfell   stark F march+0
        castle_black stark K raid
        karhold      stark 2F
    """)
    c.one_time("winterfell", "stark", "forced_march").supply(stark=6)
    c.play("""
        stark ONE_TIME_MOVE K winterfell
        stark ONE_TIME_MOVE F winterfell
        stark ONE_TIME_MOVE F stay
    """)
    assert c.at("winterfell") == "stark 2F K"
    assert c.at("castle_black") == "" and c.order_at("castle_black") is None
    assert c.at("karhold") == "stark F"
    assert c.one_time_at("winterfell") is None
    assert c.order_at("winterfell") == "march+0"


def test_one_time_iron_fleet_removes_two_orders_defense_and_march_too() -> None:
    """O8: Iron Fleet removes two orders of other houses within a raid's reach, defense and
    march orders included."""
    c = case("raids", ONCE).place("""
        ironmans_bay greyjoy   S
        riverrun     lannister F defense+1
        seagard      stark     F march+0
        pyke         greyjoy   F
    """)
    c.one_time("ironmans_bay", "greyjoy", "iron_fleet")
    c.advance()
    assert c.pending == "greyjoy ONE_TIME_TARGET"
    assert c.options() == {"riverrun", "seagard", "none"}
    c.play("""
        greyjoy ONE_TIME_TARGET riverrun
        greyjoy ONE_TIME_TARGET seagard
    """)
    assert c.order_at("riverrun") is None and c.order_at("seagard") is None


def test_one_time_orders_a_raid_takes_both_tokens() -> None:
    """O4: a raid order removes a raid- or consolidate-icon one-time order like a raid or
    consolidate order, and with it the area's other order (here a defense order a raid could
    not touch). Lannister raids before Greyjoy: the Iron Fleet never sails."""
    c = case("raids", ONCE).place("""
        riverrun  lannister F raid
        seagard   greyjoy   F defense+1
        the_twins stark     F
    """)
    c.one_time("seagard", "greyjoy", "iron_fleet")
    c.play("lannister RAID_FROM riverrun")
    assert "seagard" in c.options()
    c.play("lannister RAID_TARGET seagard")
    assert c.order_at("seagard") is None and c.one_time_at("seagard") is None
    assert c.pending is None


def test_one_time_forced_march_cannot_be_raided() -> None:
    """O4: a march-icon one-time order is not a raid target (march orders are not)."""
    c = case("raids", ONCE).place("""
        riverrun  lannister F raid
        seagard   greyjoy   F
    """)
    c.one_time("seagard", "greyjoy", "forced_march")
    c.play("lannister RAID_FROM riverrun")
    assert c.options() == {"none"}


def test_one_time_young_wolf_moves_out_without_battle() -> None:
    """O9: Young Wolf moves units out of its area as a march would, but never into an area
    where a battle would start (Greyjoy in Seagard, the neutral Eyrie)."""
    c = case("raids", ONCE).place("""
        moat_cailin stark   2F
        seagard     greyjoy F
    """)
    c.one_time("moat_cailin", "stark", "young_wolf")
    c.advance()
    assert c.pending == "stark ONE_TIME_MOVE"
    assert "seagard" not in c.options() and "the_twins" in c.options()
    c.play("""
        stark ONE_TIME_MOVE F the_twins
        stark ONE_TIME_MOVE F white_harbor
    """)
    assert c.at("the_twins") == "stark F" and c.at("white_harbor") == "stark F"
    assert c.at("moat_cailin") == "" and c.one_time_at("moat_cailin") is None


def test_one_time_power_of_highgarden_takes_power_from_neighbours() -> None:
    """O10: Power of Highgarden discards a card from Tyrell's hand and takes up to its strength
    in power, one at a time, from houses with units next to its area."""
    c = case("consolidate", ONCE).place("""
        the_reach  tyrell    F
        blackwater lannister F
        kingswood  baratheon F
    """)
    c.one_time("the_reach", "tyrell", "power_of_highgarden").power(lannister=1, baratheon=5)
    c.advance()
    assert c.pending == "tyrell ONE_TIME_TARGET"
    c.play("tyrell ONE_TIME_TARGET mace_tyrell")
    assert c.options() == {"lannister", "baratheon", "none"}
    c.play("""
        tyrell ONE_TIME_TARGET lannister
        tyrell ONE_TIME_TARGET baratheon
        tyrell ONE_TIME_TARGET baratheon
    """)
    assert (c.power_of("tyrell"), c.power_of("lannister"), c.power_of("baratheon")) == (8, 0, 3)
    assert "mace_tyrell" in c.discard_of("tyrell")


def test_one_time_lions_cunning_keeps_a_house_off_lannister() -> None:
    """O7: Lion's Cunning names a house with units next to it; this round that house may not
    march against Lannister, raid Lannister or support an attack on Lannister — but may support
    Lannister's defence."""
    c = case("raids", ONCE).place("""
        lannisport  lannister F
        riverrun    stark     F raid
        stoney_sept stark     F march+0
        seagard     greyjoy   F
    """)
    c.one_time("lannisport", "lannister", "lions_cunning")
    c.advance()
    assert c.pending == "lannister ONE_TIME_TARGET" and c.options() == {"stark"}
    c.play("lannister ONE_TIME_TARGET stark")
    assert int(c.g.lions_cunning) == int(House.STARK)
    c.play("stark RAID_FROM riverrun")
    assert "lannisport" not in c.options()
    c.play("stark RAID_TARGET none")
    c.phase("marches").play("stark MARCH_FROM stoney_sept")
    assert "lannisport" not in c.options() and "harrenhal" in c.options()


def test_one_time_lions_cunning_support() -> None:
    """O7: the named house may back Lannister's defence, not an attack on Lannister."""
    c = case("marches", ONCE).place("""
        lannisport  lannister F
        riverrun    stark     F support+0
        stoney_sept greyjoy   2F march+0
    """)
    c.g.lions_cunning = int(House.STARK)
    c.play("""
        greyjoy MARCH_FROM stoney_sept
        greyjoy MARCH_UNIT F lannisport
        greyjoy MARCH_UNIT F lannisport
    """)
    assert c.pending == "stark SUPPORT_SIDE" and c.options() == {"nobody", "defender"}


def test_one_time_soul_of_rhllor_discards_melisandre() -> None:
    """O11: Soul of R'hllor discards Melisandre from Baratheon's hand to remove one defense or
    support order anywhere; without her in hand it does nothing."""
    c = case("raids", ONCE).place("""
        dragonstone baratheon F
        highgarden  tyrell    F defense+1
    """)
    c.one_time("dragonstone", "baratheon", "soul_of_rhllor")
    c.advance()
    assert c.pending == "baratheon ONE_TIME_TARGET" and c.options() == {"highgarden", "none"}
    c.play("baratheon ONE_TIME_TARGET highgarden")
    assert c.order_at("highgarden") is None
    assert "melisandre_of_asshai" in c.discard_of("baratheon")
    c = case("raids", ONCE).place("""
        dragonstone baratheon F
        highgarden  tyrell    F defense+1
    """)
    c.one_time("dragonstone", "baratheon", "soul_of_rhllor").hand("baratheon", "stannis_baratheon")
    c.play()
    assert c.order_at("highgarden") == "defense+1" and c.one_time_at("dragonstone") is None


def test_one_time_orders_leave_with_the_units_and_end_with_the_round() -> None:
    """O3, O5: a march that empties the area takes its one-time order; one never resolved is
    spent at the round's end all the same."""
    c = case("marches", ONCE).place("""
        lannisport  lannister F march+0
        the_reach   tyrell    F
    """)
    c.one_time("lannisport", "lannister", "muster").one_time("the_reach", "tyrell", "muster")
    c.play("""
        lannister MARCH_FROM lannisport
        lannister MARCH_UNIT F stoney_sept
    """)
    assert c.one_time_at("lannisport") is None and c.one_time_at("the_reach") == "muster"
    c.phase("cleanup").advance()
    assert c.one_time_at("the_reach") is None
    assert int(c.g.one_time_used[int(House.TYRELL)]) == 1


def test_one_time_orders_refused_in_the_second_edition() -> None:
    with pytest.raises(ValueError, match="one_time_orders is a 1st-edition"):
        rules_table("2e", 6, ONCE)


# =================================================================================================
# §2.7 Three-card combat
# =================================================================================================


def _battle(seed: int = 0) -> Case:
    c = Case(5, edition="1e", variants=THREE, seed=seed).phase("marches")
    c.place("""
        lannisport  lannister 2F march+0
        stoney_sept stark     2F
    """)
    c.play("""
        lannister MARCH_FROM lannisport
        lannister MARCH_UNIT F stoney_sept
        lannister MARCH_UNIT F stoney_sept
    """)
    return c


def _fighting(c: Case, house: str) -> str:
    """The card ``house`` fights with in the battle in progress."""
    side = 0 if int(c.g.battle[cb.HOUSE]) == int(House.from_id(house)) else 1
    card = int(c.g.battle[side * cb.SIDE + cb.CARD])
    deck = c.deck[House.from_id(house)]
    (slot,) = [s for s in range(7) if int(c.t.deck_card[int(House.from_id(house)), s]) == card]
    return deck[slot]


def test_three_card_combat_three_face_down_one_drawn() -> None:
    """T1: each side puts three cards face down, one decision each; one of them is drawn at
    random to fight, the other two stay in hand."""
    c = _battle()
    c.play("""
        lannister HOUSE_CARD tywin_lannister
        lannister HOUSE_CARD ser_jaime_lannister
        lannister HOUSE_CARD tyrion_lannister
        stark     HOUSE_CARD eddard_stark
        stark     HOUSE_CARD robb_stark
    """)
    assert c.pending == "stark HOUSE_CARD" and "robb_stark" not in c.options()
    c.play("stark HOUSE_CARD greatjon_umber")
    played = c.discard_of("lannister") | c.discard_of("stark")
    assert len(c.discard_of("lannister")) == 1 and len(c.discard_of("stark")) == 1
    assert c.discard_of("lannister") <= {
        "tywin_lannister",
        "ser_jaime_lannister",
        "tyrion_lannister",
    }
    assert c.discard_of("stark") <= {"eddard_stark", "robb_stark", "greatjon_umber"}
    assert len(played) == 2


def test_three_card_combat_draws_uniformly() -> None:
    """T1: the card that fights is drawn uniformly among the three (over 300 seeded battles
    each of Lannister's three is drawn 80–120 times)."""
    counts = {"tywin_lannister": 0, "house_lannister_captain": 0, "cersei_lannister": 0}
    for seed in range(300):
        c = _battle(seed)
        c.play("""
            lannister HOUSE_CARD tywin_lannister
            lannister HOUSE_CARD house_lannister_captain
            lannister HOUSE_CARD cersei_lannister
            stark     HOUSE_CARD eddard_stark
            stark     HOUSE_CARD robb_stark
            stark     HOUSE_CARD greatjon_umber
        """)
        counts[_fighting(c, "lannister")] += 1
    assert all(80 <= n <= 120 for n in counts.values()), counts


def test_three_card_combat_recycles_after_the_fifth_card() -> None:
    """T2: cards come back once fewer than three are left in hand (after the fifth), so a hand
    never holds fewer than three; a hand of exactly three puts all three down."""
    c = _battle()
    c.hand("lannister", "tywin_lannister", "ser_jaime_lannister", "tyrion_lannister")
    c.play("""
        lannister HOUSE_CARD tywin_lannister
        lannister HOUSE_CARD ser_jaime_lannister
        lannister HOUSE_CARD tyrion_lannister
        stark     HOUSE_CARD eddard_stark
        stark     HOUSE_CARD robb_stark
        stark     HOUSE_CARD greatjon_umber
    """)
    assert len(c.hand_of("lannister")) == 7 and c.discard_of("lannister") == set()
    assert len(c.hand_of("stark")) == 6


def test_three_card_combat_refused_in_the_second_edition() -> None:
    with pytest.raises(ValueError, match="three_card_combat is a 1st-edition"):
        rules_table("2e", 6, THREE)


# =================================================================================================
# all three modules: random play
# =================================================================================================

ALL = {"ports": True, "one_time_orders": True, "three_card_combat": True}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_clash_of_kings_modules_keep_every_invariant_after_every_decision(players: int) -> None:
    """Random 1e games with ports, one-time orders and three-card combat (and the other
    modules): every invariant holds after every decision outside a battle; the new decisions
    are reached."""
    variants = {**ALL, "fortifications": True, "siege_engines": True}
    t = rules_table("1e", players, variants)[0]
    seeds = [np.random.SeedSequence(21, spawn_key=(players, i)) for i in range(6)]
    games = new_games(seeds, edition="1e", players=players)
    mask = np.zeros(N_ACTIONS, np.bool_)
    seen: set[int] = set()
    for g in games:
        for _ in range(100_000):
            advance(g, t)
            if g.done:
                break
            if g.combat_area < 0:
                assert violations(g, t) == [], violations(g, t)
            legal(g, t, mask)
            seen.add(int(g.pending))
            apply_legal(g, t, pick_from_mask(g.rng, 1 + int(g.pending_house), mask))
        assert g.done
    assert violations(games[0], t) == []
    assert {Decision.ONE_TIME_ORDER, Decision.ONE_TIME_AREA} <= seen


def test_clash_of_kings_modules_are_used_in_play() -> None:
    """With the heuristic players, 1e games with the three modules put ships in ports, spend
    one-time orders of every kind and fight three-card battles."""
    games = play_games(60, players=5, edition="1e", variants=ALL, seed=3, policies="heuristic")
    t = rules_table("1e", 5, ALL)[0]
    assert games.done.all()
    ports = np.flatnonzero(t.kind[: t.n_areas] == 2)
    assert (games.units[:, ports, 2].sum()) > 0
    used = np.bitwise_or.reduce(games.one_time_used.ravel())
    assert used == 0xFF
    for g in games:
        assert violations(g, t) == []


# =================================================================================================
# the odds calculator: three-card combat and siege engines in 1e battle specs
# =================================================================================================


def _three_card_spec(**extra: object) -> dict:
    return make_spec(
        "stoney_sept",
        side("lannister", {"footman": 2}),
        side("stark", {"footman": 2}),
        fiefdoms=["stark", "lannister"],
        edition="1e",
        three_card_combat=True,
        **extra,
    )


def test_three_card_combat_odds_are_the_game_over_card_sets() -> None:
    """T3: with three-card combat a side's card is drawn from the three it puts down, so its
    strategy is a mix of three-card sets: every card at most 1/3. The equilibrium value equals
    that of the brute-force game whose strategies are all 35 × 35 sets of three; the uniform
    model is unchanged; 'fixed' averages the 3 × 3 cells of the cards put down."""
    spec = _three_card_spec()
    eq = combat_odds(spec, model="equilibrium")
    base = combat_odds({**spec, "three_card_combat": False}, model="equilibrium")
    m = eq.matrix
    sets = list(itertools.combinations(range(7), 3))
    brute = np.array([[m[np.ix_(a, b)].mean() for b in sets] for a in sets])
    _, _, value = solve_matrix_game(brute)
    assert eq.game_value == pytest.approx(value, abs=1e-9)
    # Stark, winning ties on Fiefdoms, always wins when it chooses freely; with three cards
    # put down, Lannister wins 2/9 (its three best against Stark's drawn card)
    assert (base.game_value, eq.game_value) == (0.0, pytest.approx(2 / 9))
    assert max(eq.attacker_strategy.values()) <= 1 / 3 + 1e-9
    assert max(eq.defender_strategy.values()) <= 1 / 3 + 1e-9
    uniform = combat_odds(spec, model="uniform")
    plain = combat_odds({**spec, "three_card_combat": False}, model="uniform")
    assert uniform.p_attacker_wins == pytest.approx(plain.p_attacker_wins)
    a_cards = ["tywin_lannister", "ser_jaime_lannister", "cersei_lannister"]
    d_cards = ["eddard_stark", "robb_stark", "catelyn_stark"]
    fixed_spec = _three_card_spec()
    fixed_spec["attacker"]["card"] = a_cards
    fixed_spec["defender"]["card"] = d_cards
    fixed = combat_odds(fixed_spec, model="fixed")
    rows = [eq.attacker_cards.index(c) for c in a_cards]
    cols = [eq.defender_cards.index(c) for c in d_cards]
    assert fixed.p_attacker_wins == pytest.approx(m[np.ix_(rows, cols)].mean())


def test_three_card_combat_spec_errors() -> None:
    """T3: three-card combat is a 1e switch; 'fixed' takes the list of cards put down."""
    with pytest.raises(BattleSpecError, match="three_card_combat is a 1st-edition"):
        combat_odds({**_three_card_spec(), "edition": "2e", "area": "riverrun"})
    bad = _three_card_spec()
    bad["attacker"]["card"] = ["tywin_lannister"]
    with pytest.raises(BattleSpecError, match=r"attacker\.card: with three_card_combat"):
        combat_odds(bad, model="fixed")
    with pytest.raises(BattleSpecError, match=r"attacker\.card: required"):
        combat_odds(_three_card_spec(), model="fixed")


def test_siege_engines_in_1e_battle_specs() -> None:
    """K8: a 1e battle spec takes siege engines with ``siege_engines: true``: attacking The
    Reach (a castle) an engine counts 4, 4 + Tywin 3 = 7 against footman 1 + Mace 3 = 4."""
    spec = make_spec(
        "the_reach",
        side("lannister", {"siege_engine": 1}, "tywin_lannister"),
        side("tyrell", {"footman": 1}, "mace_tyrell"),
        fiefdoms=["tyrell", "lannister"],
        edition="1e",
        siege_engines=True,
    )
    assert combat_odds(spec, model="fixed").p_attacker_wins == 1.0
    with pytest.raises(BattleSpecError, match="siege_engines"):
        combat_odds({**spec, "siege_engines": False}, model="fixed")
