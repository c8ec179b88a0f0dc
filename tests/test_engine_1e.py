"""The engine casebook of the 1st edition: one case per rule where the 1st edition differs from
the 2nd, and per house card whose ability acts after the battle or on the board
(``tests/enginecase.py`` is the little language; decisions cited as D1…, E1… are in
``docs/rules.md``).

Unless a case says otherwise it is a 5-player 1st-edition game in round 1 with the setup's
tracks (Iron Throne: Baratheon, Lannister, Stark, Tyrell, Greyjoy; Fiefdoms: Greyjoy, Tyrell,
Stark, Baratheon, Lannister; King's Court with the errata: Lannister, Stark, Baratheon, Tyrell,
Greyjoy), power 5 each, full hands, the three neutral forces and nothing else on the board.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from enginecase import Case

import gotsim
from gotsim.cli import main
from gotsim.engine import machine as mc
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import N_ACTIONS, EndReason, Restriction
from gotsim.engine.tables import rules_table
from gotsim.play.runner import play_random
from gotsim.rules.cards import house_deck
from gotsim.rules.ids import House
from gotsim.rules.setup import load_setup

LANNISTER_CARDS = {c.id for c in house_deck("1e", House.LANNISTER)}


def case(players: int = 5, phase: str = "marches", game_round: int | None = None) -> Case:
    return Case(players, edition="1e").phase(phase, game_round)


# =================================================================================================
# 1. Setup and victory
# =================================================================================================


def test_setup_absent_houses_stay_as_neutral_armies() -> None:
    """D8: at 3 players Greyjoy's and Tyrell's starting units are neutral forces of their
    strength (footman 1, knight 2, ship 1), ships at sea included; their home areas belong to
    nobody."""
    c = Case(3, edition="1e")
    g = c.g
    strengths = {a: int(g.neutral[c._area(a)]) for a in ("pyke", "ironmans_bay", "highgarden")}
    assert strengths == {"pyke": 3, "ironmans_bay": 2, "highgarden": 3}
    assert int(g.neutral[c._area("redwyne_straights")]) == 1
    assert c.controller("pyke") is None and c.controller("highgarden") is None
    assert int(Case(5, edition="1e").g.neutral[c._area("pyke")]) == 0


def test_setup_castle_victory_needs_eight_at_three_players() -> None:
    """§1.16/§1.17: 7 cities and strongholds win at 4 and 5 players, 8 at 3."""
    assert [int(rules_table("1e", n)[0].castles_to_win) for n in (3, 4, 5)] == [8, 7, 7]


def test_setup_kings_court_swap_gives_the_printed_order() -> None:
    """D7: the 5-player default is the errata (Tyrell 4th, Greyjoy 5th); ``kings_court_swap``
    swaps them back to the printed start cards (Greyjoy 4th), as the flag does in 2e."""
    ids = [h.id for h in load_setup("1e", 5).tracks["kings_court"]]
    swapped = [h.id for h in load_setup("1e", 5, kings_court_swap=True).tracks["kings_court"]]
    assert ids == ["lannister", "stark", "baratheon", "tyrell", "greyjoy"]
    assert swapped == ["lannister", "stark", "baratheon", "greyjoy", "tyrell"]


def test_victory_castles_win_at_once_eight_at_three_players() -> None:
    """D2: the castle win is checked after every march; at 3 players 7 castles are not enough,
    the 8th (Crackclaw Point) wins at once, in the middle of the marches."""
    c = case(players=3).place("""
        harrenhal   lannister F
        riverrun    lannister F
        seagard     lannister F
        the_reach   lannister F
        storms_end  lannister F
        moat_cailin lannister F
        blackwater  lannister F march+0
    """)
    assert c.g.done == 0  # Lannisport (home) and six more: 7
    c.play("""
        lannister MARCH_FROM blackwater
        lannister MARCH_UNIT F crackclaw_point
    """)
    assert c.g.done == 1 and c.g.end_reason == EndReason.CASTLES
    assert House(int(c.g.winner)).id == "lannister"


def test_victory_round10_ranking_is_castles_supply_power() -> None:
    """D19: after round 10, equal castles go to the higher supply level before anything else
    (2e would look at land areas first), then to more power in hand (2e: Iron Throne)."""
    c = Case(5, edition="1e").place("stoney_sept lannister F")  # one more land area
    c.supply(stark=3, lannister=1, baratheon=1, tyrell=1, greyjoy=1)
    mc.end_after_last_round(c.g, c.t)
    assert House(int(c.g.winner)).id == "stark"
    assert c.g.end_reason == EndReason.ROUND10
    c = Case(5, edition="1e").supply(stark=1, lannister=1, baratheon=1, tyrell=1, greyjoy=1)
    c.power(stark=9)
    mc.end_after_last_round(c.g, c.t)
    assert House(int(c.g.winner)).id == "stark"


# =================================================================================================
# 2. Planning, the Messenger Raven, raids, consolidate power
# =================================================================================================


def test_planning_an_area_may_stay_without_order() -> None:
    """D11: the 1e FAQ lets a house leave an occupied area without an order."""
    c = case(phase="planning").place("lannisport lannister F")
    c.expect("lannister PLACE_ORDER")
    assert "none" in c.options()
    c.play("lannister PLACE_ORDER none")
    assert c.order_at("lannisport") is None
    assert c.orders_used("lannister", "march+0") == 0


def test_planning_no_consolidate_power_at_sea() -> None:
    """§1.9 [C]: a consolidate power order may not be placed in a sea area (1e)."""
    c = case(phase="planning").place("the_golden_sound lannister S")
    c.expect("lannister PLACE_ORDER")
    assert "consolidate_power" not in c.options() and "raid" in c.options()


def test_raven_only_replaces_an_order() -> None:
    """§7: the 1e Messenger Raven swaps an order; there is no wildling deck to look at."""
    c = case(phase="raven").place("lannisport lannister F march+0")
    c.expect("lannister RAVEN")
    assert c.options() == {"keep", "replace"}


def test_raids_the_star_raid_removes_two_orders_never_defense() -> None:
    """D4: the star raid removes two adjacent support, raid or consolidate power orders, never a
    defense order; pillaging a consolidate power order gives the raider 1 power and costs the
    victim nothing."""
    c = case(phase="raids").place("""
        stoney_sept  lannister F raid*
        riverrun     stark     F support+0
        harrenhal    stark     F consolidate_power
        blackwater   baratheon F defense+1
    """)
    c.expect("lannister RAID_FROM")
    c.play("lannister RAID_FROM stoney_sept")
    assert c.options() == {"riverrun", "harrenhal", "none"}
    c.play("lannister RAID_TARGET riverrun")
    assert c.options() == {"harrenhal", "none"}
    c.play("lannister RAID_TARGET harrenhal")
    assert (c.order_at("riverrun"), c.order_at("harrenhal")) == (None, None)
    assert c.order_at("blackwater") == "defense+1"
    assert c.order_at("stoney_sept") is None
    assert (c.power_of("lannister"), c.power_of("stark")) == (6, 5)


def test_consolidate_the_star_order_is_only_a_third_consolidate() -> None:
    """§1.9: the star consolidate power order gives power like the others (no mustering)."""
    c = case(phase="consolidate").place("lannisport lannister F consolidate_power*")
    c.play()
    assert c.pending is None
    assert c.power_of("lannister") == 6


# =================================================================================================
# 3. Marches and battles
# =================================================================================================


def test_marches_routed_units_stand_up_once_the_marches_are_over() -> None:
    """D3: routed units recover after all march orders ([C]); 2e waits for the clean-up."""
    c = case().place("lannisport lannister Fr")
    c.play()
    assert c.at("lannisport") == "lannister F"


def test_marches_supply_limits_a_march_too() -> None:
    """D13: a march may not break supply (as in 2e; the seeds are silent): at supply 0 (two
    armies of 2) Stark's footman may not join either army, only an empty area."""
    c = case().place("""
        winterfell   stark 2F
        white_harbor stark 2F
        moat_cailin  stark F march+0
    """)
    c.supply(stark=0)
    c.play("stark MARCH_FROM moat_cailin")
    c.expect("stark MARCH_UNIT")
    assert {"winterfell", "white_harbor"}.isdisjoint(c.options())
    assert {"the_twins", "greywater_watch", "seagard", "stay"} <= c.options()


def test_marches_ships_take_a_neutral_fleet_at_sea() -> None:
    """D8/E9: an absent house's ships are a neutral force at sea; three ships (3) take Ironman's
    Bay (2) and the force is gone; one ship takes the Redwyne Straits (1) at equal strength; one
    ship against Ironman's Bay fails and stays, not routed (E4)."""
    c = case(players=3).place("""
        the_golden_sound lannister 3S march+0
    """)
    c.play("""
        lannister MARCH_FROM the_golden_sound
        lannister MARCH_UNIT S ironmans_bay
        lannister MARCH_UNIT S ironmans_bay
        lannister MARCH_UNIT S ironmans_bay
    """)
    assert c.at("ironmans_bay") == "lannister 3S"
    assert int(c.g.neutral[c._area("ironmans_bay")]) == 0
    c = case(players=3).place("sunset_sea lannister S march+0")
    c.play("""
        lannister MARCH_FROM sunset_sea
        lannister MARCH_UNIT S redwyne_straights
    """)
    assert c.at("redwyne_straights") == "lannister S"  # 1 against 1: taken at equal strength
    c = case(players=3).place("sunset_sea lannister S march+0")
    c.play("""
        lannister MARCH_FROM sunset_sea
        lannister MARCH_UNIT S ironmans_bay
    """)
    assert c.at("sunset_sea") == "lannister S"
    assert int(c.g.neutral[c._area("ironmans_bay")]) == 2


def test_battle_routed_defenders_die_without_counting_as_casualties() -> None:
    """E3: Tyrell (2 knights, Mace Tyrell: 2 swords) beats a footman, a knight and a routed
    footman in The Reach: the two casualties are the fresh units (2e would take the routed
    footman first), the routed footman dies too, nothing retreats."""
    c = case().place("""
        highgarden tyrell    2K march+0
        the_reach  lannister F K Fr
    """)
    c.play("""
        tyrell    MARCH_FROM highgarden
        tyrell    MARCH_UNIT K the_reach
        tyrell    MARCH_UNIT K the_reach
        tyrell    HOUSE_CARD mace_tyrell
        lannister HOUSE_CARD cersei_lannister
    """)
    c.expect("lannister CASUALTY")
    assert c.options() == {"F", "K"}
    c.play("""
        lannister CASUALTY F
        lannister CASUALTY K
    """)
    assert c.at("the_reach") == "tyrell 2K"
    assert c.count("lannister", "F") == 0


def test_battle_all_seven_cards_return_after_the_seventh() -> None:
    """D10: when the seventh card is played all seven return, the one just played included
    (2e keeps it discarded). Ser Jaime also takes 2 power for winning (E16)."""
    rest = tuple(sorted(LANNISTER_CARDS - {"ser_jaime_lannister"}))
    c = case().place("""
        searoad_marches lannister 3F march+0
        the_reach       tyrell    F
    """)
    c.hand("lannister", "ser_jaime_lannister", discard=rest)
    c.play("""
        lannister MARCH_FROM searoad_marches
        lannister MARCH_UNIT F the_reach
        lannister MARCH_UNIT F the_reach
        lannister MARCH_UNIT F the_reach
        lannister HOUSE_CARD ser_jaime_lannister
        tyrell    HOUSE_CARD margaery_tyrell
        tyrell    RETREAT    dornish_marches
    """)
    assert c.hand_of("lannister") == LANNISTER_CARDS
    assert c.discard_of("lannister") == set()
    assert c.power_of("lannister") == 7


def test_battle_rains_of_autumn_leaves_supporting_footmen_out() -> None:
    """E12: the 1e Rains of Autumn forbids no order; a supporting footman adds nothing (the
    support order's +1 stays)."""
    c = case(phase="westeros", game_round=2).westeros(
        "last_days_of_summer", "last_days_of_summer", "rains_of_autumn"
    )
    c.play()
    assert c.g.restrict == Restriction.FOOTMEN_NO_SUPPORT
    c.phase("marches").place("""
        searoad_marches lannister F march+0
        blackwater      lannister F support+1
        the_reach       tyrell    F
    """)
    c.play("""
        lannister MARCH_FROM searoad_marches
        lannister MARCH_UNIT F the_reach
        lannister HOUSE_CARD cersei_lannister
        tyrell    HOUSE_CARD queen_of_thorns
    """)
    assert c.totals()[0] == 1 + 0 + 1  # the footman, no supporting footman, the +1 support


# =================================================================================================
# 4. House cards acting after the battle or on the board (E16)
# =================================================================================================


def test_cards_renly_upgrades_only_a_fighting_footman() -> None:
    """Renly Baratheon (1e): a footman that fought becomes a knight; the supporting footman in
    Blackwater is not offered (2e allows it)."""
    c = case().place("""
        kingswood  baratheon 2F march+0
        blackwater baratheon F support+0
        the_reach  lannister F
    """)
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT F the_reach
        baratheon MARCH_UNIT F the_reach
        baratheon HOUSE_CARD renly_baratheon
        lannister HOUSE_CARD cersei_lannister
    """)
    c.expect("baratheon RENLY")
    assert c.options() == {"the_reach", "none"}
    c.play("""
        baratheon RENLY the_reach
        lannister RETREAT searoad_marches
    """)
    assert c.at("the_reach") == "baratheon F K"
    assert c.at("blackwater") == "baratheon F"


def test_cards_melisandre_pays_one_power_to_discard_a_card() -> None:
    """Melisandre of Asshai: the winner pays 1 power and picks a card of the loser's hand (not
    the one it played), which is discarded."""
    c = case().place("""
        kingswood  baratheon 3F march+0
        the_reach  lannister F
    """)
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT F the_reach
        baratheon MARCH_UNIT F the_reach
        baratheon MARCH_UNIT F the_reach
        baratheon HOUSE_CARD melisandre_of_asshai
        lannister HOUSE_CARD house_lannister_captain
    """)
    c.expect("baratheon PATCHFACE")
    assert c.options() == (LANNISTER_CARDS - {"house_lannister_captain"}) | {"none"}
    c.play("""
        baratheon PATCHFACE tywin_lannister
        lannister RETREAT searoad_marches
    """)
    assert c.discard_of("lannister") == {"tywin_lannister", "house_lannister_captain"}
    assert c.power_of("baratheon") == 4


def test_cards_maester_luwin_takes_a_discard_back() -> None:
    """Maester Luwin: the winner takes a card of its discard pile back into its hand (never
    Luwin himself, who is discarded after the battle)."""
    c = case().place("""
        moat_cailin stark   2K march+0
        white_harbor greyjoy F
    """)
    discards = ("eddard_stark", "robb_stark", "ser_rodrick_cassel", "house_mormont_lord")
    c.hand("stark", "maester_luwin", "greatjon_umber", "catelyn_stark", discard=discards)
    c.play("""
        stark   MARCH_FROM moat_cailin
        stark   MARCH_UNIT K white_harbor
        stark   MARCH_UNIT K white_harbor
        stark   HOUSE_CARD maester_luwin
        greyjoy HOUSE_CARD house_blacktyde_captain
    """)
    c.expect("stark PATCHFACE")  # the card-slot decision, here Luwin's (ctx1 = 2)
    assert c.options() == {*discards, "none"}
    c.play("""
        stark   PATCHFACE eddard_stark
        greyjoy RETREAT widows_watch
    """)
    assert c.hand_of("stark") == {"eddard_stark", "greatjon_umber", "catelyn_stark"}
    assert c.discard_of("stark") == {*discards[1:], "maester_luwin"}


def test_cards_cersei_removes_an_order_of_the_loser_anywhere() -> None:
    """Cersei Lannister: the winner removes one of the loser's orders from the board."""
    c = case().place("""
        stoney_sept lannister F 2K march+0
        riverrun    stark     F defense+1
        winterfell  stark     F consolidate_power
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT F riverrun
        lannister MARCH_UNIT K riverrun
        lannister MARCH_UNIT K riverrun
        lannister HOUSE_CARD cersei_lannister
        stark     HOUSE_CARD ser_rodrick_cassel
    """)
    c.expect("lannister CERSEI")
    assert c.options() == {"riverrun", "winterfell", "none"}
    c.play("""
        lannister CERSEI winterfell
        stark     RETREAT seagard
    """)
    assert c.order_at("winterfell") is None
    assert c.at("riverrun") == "lannister F 2K"


def test_cards_asha_removes_an_adjacent_support_or_consolidate_order() -> None:
    """Asha Greyjoy (1e): the winner removes a support or consolidate power order of any house
    next to the battle (not a raid, not the march it came from)."""
    c = case().place("""
        greywater_watch greyjoy   2F march+0
        moat_cailin     stark     F
        the_twins       stark     F support+0
        winterfell      stark     F consolidate_power
        white_harbor    stark     F raid
        seagard         lannister F support+0
    """)
    c.play("""
        greyjoy   MARCH_FROM greywater_watch
        greyjoy   MARCH_UNIT F moat_cailin
        greyjoy   MARCH_UNIT F moat_cailin
        lannister SUPPORT_SIDE nobody
        greyjoy   HOUSE_CARD asha_greyjoy
        stark     HOUSE_CARD ser_rodrick_cassel
    """)
    c.expect("greyjoy CERSEI")
    assert c.options() == {"the_twins", "winterfell", "seagard", "none"}
    c.play("""
        greyjoy CERSEI seagard
        stark   RETREAT the_twins
    """)
    assert c.order_at("seagard") is None
    assert c.order_at("white_harbor") == "raid"


def test_cards_ser_loras_kills_a_defending_footman_on_the_board() -> None:
    """Ser Loras Tyrell: one of the defender's fighting footmen is destroyed before the
    strengths are compared (E6): Tywin's Lannister keeps one footman."""
    c = case().place("""
        highgarden tyrell    2K march+0
        the_reach  lannister 2F
    """)
    c.play("""
        tyrell    MARCH_FROM highgarden
        tyrell    MARCH_UNIT K the_reach
        tyrell    MARCH_UNIT K the_reach
        tyrell    HOUSE_CARD ser_loras_tyrell
        lannister HOUSE_CARD tywin_lannister
        lannister RETREAT    searoad_marches
    """)
    assert c.at("the_reach") == "tyrell 2K"
    assert c.at("searoad_marches") == "lannister F"  # stood up after the marches


def test_cards_brienne_takes_the_defense_order_off_the_board() -> None:
    """Brienne of Tarth: the defender's defense order is removed at once (E7); even though
    Lannister wins, The Reach is left without it for later battles."""
    c = case().place("""
        highgarden tyrell    F march+0
        the_reach  lannister 2F defense+1
    """)
    c.play("""
        tyrell    MARCH_FROM highgarden
        tyrell    MARCH_UNIT F the_reach
        tyrell    HOUSE_CARD brienne_of_tarth
        lannister HOUSE_CARD tywin_lannister
    """)
    assert c.at("the_reach") == "lannister 2F"
    assert c.order_at("the_reach") is None
    assert c.at("highgarden") == "tyrell F"


def test_cards_queen_of_thorns_cancels_ser_jaimes_power() -> None:
    """Queen of Thorns cancels the whole text of the opponent's card (E15): Ser Jaime wins but
    takes no power."""
    c = case().place("""
        searoad_marches lannister 3F march+0
        the_reach       tyrell    F
    """)
    c.play("""
        lannister MARCH_FROM searoad_marches
        lannister MARCH_UNIT F the_reach
        lannister MARCH_UNIT F the_reach
        lannister MARCH_UNIT F the_reach
        lannister HOUSE_CARD ser_jaime_lannister
        tyrell    HOUSE_CARD queen_of_thorns
        tyrell    RETREAT    dornish_marches
    """)
    assert c.power_of("lannister") == 5


# =================================================================================================
# 5. Westeros phase and wildlings (D9)
# =================================================================================================


def test_westeros_clash_of_kings_ties_are_ordered_by_the_new_iron_throne() -> None:
    """D1, D17: Iron Throne ties are ordered by the previous holder (Baratheon), Fiefdoms and
    King's Court ties by the new one (Lannister); every bid goes to the pool."""
    c = case(players=3, phase="westeros", game_round=2)
    c.power(baratheon=0, lannister=2, stark=0)
    c.westeros("last_days_of_summer", "clash_of_kings", "last_days_of_summer")
    c.play("""
        lannister BID       1
        baratheon TIE_ORDER stark
        lannister BID       0
        lannister TIE_ORDER stark
    """)
    assert c.track_of("iron_throne") == ["lannister", "stark", "baratheon"]
    assert c.track_of("fiefdoms")[0] == "stark"
    assert c.power_of("lannister") == 1


def test_wildlings_no_attack_at_the_top_of_the_track() -> None:
    """D9: the threat rises to 12 and nothing happens; only the Wildling Attack card attacks."""
    c = case(players=3, phase="westeros", game_round=2)
    c.g.threat = 10
    c.westeros("last_days_of_summer", "last_days_of_summer", "last_days_of_summer")
    c.play()
    assert c.pending is None
    assert int(c.g.threat) == 12


def test_wildlings_win_every_house_pays_two_mustering_points_the_lowest_four() -> None:
    """D9: a wildling victory costs every house units worth 2 mustering points (knight 2,
    footman and ship 1), the lowest bidder 4; the Iron Throne holder breaks the lowest tie; the
    track goes back to 0."""
    c = case(players=3, phase="westeros", game_round=2).place("""
        winterfell   stark     F K
        white_harbor stark     F
        dragonstone  baratheon K
        lannisport   lannister 3F
    """)
    c.power(stark=0, lannister=0, baratheon=0)
    c.g.threat = 6
    c.westeros("last_days_of_summer", "last_days_of_summer", "wildlings_attack")
    c.play("""
        baratheon TIE_ORDER         stark
        stark     DESTROY_UNIT      winterfell
        stark     DESTROY_UNIT_TYPE K
        stark     DESTROY_UNIT      winterfell
        stark     DESTROY_UNIT      white_harbor
        baratheon DESTROY_UNIT      dragonstone
        lannister DESTROY_UNIT      lannisport
        lannister DESTROY_UNIT      lannisport
    """)
    assert (c.at("winterfell"), c.at("white_harbor"), c.at("dragonstone")) == ("", "", "")
    assert c.at("lannisport") == "lannister F"
    assert int(c.g.threat) == 0


def test_wildlings_nights_watch_win_returns_a_card_to_the_highest_bidder() -> None:
    """D9: the Night's Watch wins at least the wildling strength; the highest bidder takes a
    house card back from its discards; the track goes back to 0."""
    c = case(players=3, phase="westeros", game_round=2)
    c.wildlings("silence_at_the_wall")  # never revealed: the 1st edition has no wildling deck
    c.power(stark=0, lannister=0, baratheon=5)
    c.hand("baratheon", "stannis_baratheon")
    c.westeros("last_days_of_summer", "last_days_of_summer", "wildlings_attack")
    c.play("""
        baratheon BID 4
        baratheon WILDLING_CHOICE renly_baratheon
    """)
    assert c.hand_of("baratheon") == {"stannis_baratheon", "renly_baratheon"}
    assert (int(c.g.threat), c.power_of("baratheon")) == (0, 1)


# =================================================================================================
# 6. Whole games
# =================================================================================================


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_1e_games_keep_every_invariant(players: int) -> None:
    """A hundred complete random games per player count end by castles or after round 10 and
    keep every invariant (``benchmarks/fuzz_engine.py --edition 1e`` runs many more)."""
    rules = rules_table("1e", players)
    seeds = [np.random.SeedSequence(11, spawn_key=(players, i)) for i in range(100)]
    games = new_games(seeds, edition="1e", players=players)
    made = play_random(games, rules, 1_000_000)
    assert (made > 0).all()
    assert games.done.all()
    for g in games:
        assert violations(g, rules[0]) == []
    castles = games.end_reason == EndReason.CASTLES
    assert (games.game_round[~castles] == 10).all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_1e_games_keep_every_invariant_after_every_decision(players: int) -> None:
    """Outside battles the record is consistent after every single decision (5 games each)."""
    t = rules_table("1e", players)[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    seeds = [np.random.SeedSequence(12, spawn_key=(players, i)) for i in range(5)]
    for g in new_games(seeds, edition="1e", players=players):
        while True:
            mc.advance(g, t)
            assert violations(g, t) == [] or g.combat_area >= 0
            if g.done:
                break
            assert mc.legal(g, t, mask) > 0
            assert mc.apply(g, t, pick_from_mask(g.rng, 1 + g.pending_house, mask))


def test_simulate_plays_1e_with_random_and_heuristic_players() -> None:
    """``simulate`` runs the 1st edition with random players and with the heuristic ones; a
    heuristic house beats four random ones."""
    frame = gotsim.simulate(4, players=5, edition="1e", variants={"kings_court_swap": True}, seed=1)
    assert len(frame) == 4 and set(frame["edition"]) == {"1e"}
    mixed = gotsim.simulate(12, players=5, edition="1e", seed=2, policies={"stark": "heuristic"})
    assert (mixed["winner"] == "stark").mean() >= 0.75
    every = gotsim.simulate(6, players=3, edition="1e", seed=3, policies="heuristic")
    assert every["winner"].notna().all()


def test_cli_plays_and_benches_1e(capsys: pytest.CaptureFixture[str]) -> None:
    """``gotsim play --edition 1e`` and ``gotsim bench --edition 1e`` run 1st-edition games."""
    assert main(["play", "--edition", "1e", "--players", "4", "--seed", "2", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["edition"] == "1e"
    assert summary["winner"] in ("baratheon", "lannister", "stark", "tyrell")
    assert main(["bench", "--edition", "1e", "--players", "5", "--games", "20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["edition"] == "1e"


@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["play", "--edition", "1e", "--players", "6"], "3 to 5 players"),
        (["bench", "--edition", "1e", "--players", "5", "--tides"], "unrecognized"),
        (["play", "--edition", "1e", "--players", "5", "--tides"], "2nd-edition variant"),
    ],
)
def test_cli_refuses_what_the_1e_does_not_have(
    argv: list[str], reason: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and reason in err


def test_a_1e_game_replays_exactly_from_its_actions() -> None:
    """The Python driver plays the 1st edition too, and replays it move for move."""
    from gotsim.engine.game import random_game, replay

    game = random_game(players=4, seed=5, edition="1e")
    again = replay(game.actions, players=4, seed=5, edition="1e")
    assert again.narrative() == game.narrative()
    a, b = game.games.copy(), again.games.copy()
    a.rng[:, 1:] = 0  # the houses' own streams were used by the policy, not by the replay
    b.rng[:, 1:] = 0
    assert a.tobytes() == b.tobytes()
    assert "wins (" in game.narrative()


def test_scenario_takes_a_1e_start_position(tmp_path: Path) -> None:
    """A scenario started from a 1st-edition position plays the 1st edition (the position's
    edition is the default) and refuses a 2nd-edition cell with one line."""
    from gotsim.engine.position import dump_position, starting_position
    from gotsim.study import ScenarioError, load_scenario, run_study

    (tmp_path / "p.json").write_text(json.dumps(dump_position(starting_position("1e", 3))))
    text = 'name = "p1e"\nseed = 1\ngames = 4\nblock_size = 2\nstart_position = "p.json"\n'
    (tmp_path / "s.toml").write_text(text)
    scenario = load_scenario(tmp_path / "s.toml")
    assert [(c.edition, c.players) for c in scenario.cells] == [("1e", 3)]
    result = run_study(scenario, out=tmp_path / "out")
    assert len(result.games) == 4 and set(result.games["edition"]) == {"1e"}
    (tmp_path / "s.toml").write_text(text + 'edition = "2e"\n')
    with pytest.raises(ScenarioError, match="edition: start_position is a 1e position"):
        load_scenario(tmp_path / "s.toml")


def test_narration_of_a_card_taken_back_after_the_wildlings_are_beaten() -> None:
    """1st edition: the highest bidder against beaten wildlings may take a house card back from
    its discards (a WILDLING_CHOICE with the edition's fixed card, not one of the 2nd edition's
    deck); the game's narration names the card or says none was taken."""
    from gotsim.engine.game import Game, Pending
    from gotsim.engine.state import ACT_NONE, Decision
    from gotsim.engine.westeros import WILDLINGS_1E
    from gotsim.rules.ids import House

    game = Game(players=5, seed=5, edition="1e")
    first = house_deck("1e", House.STARK)[0]
    taken = Pending(Decision.WILDLING_CHOICE, House.STARK, (WILDLINGS_1E, 2), (0, ACT_NONE))
    assert first.name in game.describe(taken, 0)
    assert "back from its discards" in game.describe(taken, 0)
    assert game.describe(taken, ACT_NONE) == "takes no card back (the wildlings beaten)"
