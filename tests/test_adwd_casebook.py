"""A casebook of the A Dance with Dragons house cards (the 2nd edition's ``adwd_house_cards``
variant: every house plays its ADwD deck), one case per card ability, in the style of
``test_combat_casebook.py`` (the odds calculator, ``model="fixed"``) and
``test_engine_casebook.py`` (the engine, decisions answered in words). Then the deck data
against the reference, the ``gotsim cards --set adwd`` listing, and random games with the ADwD
decks keeping every invariant.

Rules decisions are in ``docs/rules.md`` (A1…). Unless a case says otherwise the engine cases
are 6-player games in round 1 with the setup's tracks (Iron Throne: Baratheon, Lannister, Stark,
Martell, Greyjoy, Tyrell; Fiefdoms: Greyjoy, Tyrell, Martell, Stark, Baratheon, Lannister;
King's Court: Lannister, Stark, Martell, Baratheon, Tyrell, Greyjoy), power 5 each, full hands.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from combatcase import all_notes, check, make_spec, side, support
from enginecase import Case

from gotsim.data import load_data
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.state import Decision, Phase
from gotsim.engine.tables import WesterosCard, rules_table
from gotsim.odds import BattleSpecError, combat_odds
from gotsim.play.runner import play_random
from gotsim.rules.cards import house_cards, implemented_in
from gotsim.rules.ids import BASE_HOUSES, House

ADWD = {"adwd_house_cards": True}
REFERENCE = Path(__file__).parents[2] / "shared" / "reference" / "agot2e"


def fight(*args: Any, **kwargs: Any):
    return combat_odds(make_spec(*args, adwd_house_cards=True, **kwargs), model="fixed")


def marches() -> Case:
    return Case(6, variants=ADWD).phase("marches")


# =================================================================================================
# 1. The calculator (the combat code the engine shares)
# =================================================================================================


def test_adwd_ser_addam_marbrand_attacking_knights_supporting_ones_too():
    """Lannister attacks Riverrun with 2 knights, a third Lannister knight supporting, and Ser
    Addam Marbrand (1): each knight is worth 3, so 4 + support 2 + card 1 + 3 = 10 against
    Stark's 2 footmen and Black Walder (2): 4. Defending, Addam adds nothing."""
    r = fight(
        "riverrun",
        side("lannister", {"knight": 2}, "ser_addam_marbrand"),
        side("stark", {"footman": 2}, "black_walder"),
        fiefdoms=["stark", "lannister"],
        supports=(support("lannister", "attacker", {"knight": 1}),),
    )
    check(r, "attacker", units=4, support=2, card=1, card_modifiers=3, total=10)
    assert r.p_attacker_wins == 1.0
    r = fight(
        "riverrun",
        side("stark", {"footman": 2}, "black_walder"),
        side("lannister", {"knight": 1}, "ser_addam_marbrand"),
        fiefdoms=["stark", "lannister"],
    )
    check(r, "defender", units=2, card=1, card_modifiers=0, total=3)


def test_adwd_paxter_redwyne_ships_at_sea_supporting_ones_too():
    """Tyrell attacks the Redwyne Straights with 2 ships, a third Tyrell ship supporting, and
    Paxter Redwyne (1): each ship is worth 2, so 2 + 1 + 1 + 3 = 7 against Greyjoy's 2 ships
    and Ser Harras Harlaw (1): 3. On land Paxter adds nothing."""
    r = fight(
        "redwyne_straights",
        side("tyrell", {"ship": 2}, "paxter_redwyne"),
        side("greyjoy", {"ship": 2}, "ser_harras_harlaw"),
        fiefdoms=["greyjoy", "tyrell"],
        supports=(support("tyrell", "attacker", {"ship": 1}),),
    )
    check(r, "attacker", units=2, support=1, card=1, card_modifiers=3, total=7)
    r = fight(
        "the_reach",
        side("tyrell", {"footman": 2}, "paxter_redwyne"),
        side("greyjoy", {"footman": 1}, "ser_harras_harlaw"),
        fiefdoms=["greyjoy", "tyrell"],
    )
    check(r, "attacker", card_modifiers=0, total=3)


def test_adwd_ramsay_bolton_while_reek_is_in_hand():
    """Ramsay Bolton (3) with Reek still in hand: +1 and three extra swords (strength 4, 3
    swords); with Reek discarded he is a plain 3 without swords."""
    with_reek = fight(
        "the_twins",
        side("stark", {"footman": 1}, "ramsay_bolton", hand=["ramsay_bolton", "reek"]),
        side("lannister", {"footman": 1}, "cersei_lannister_dwd"),
        fiefdoms=["stark", "lannister"],
    )
    check(with_reek, "attacker", card=3, card_modifiers=1, swords=3, total=5)
    without = fight(
        "the_twins",
        side("stark", {"footman": 1}, "ramsay_bolton", discards=["reek"]),
        side("lannister", {"footman": 1}, "cersei_lannister_dwd"),
        fiefdoms=["stark", "lannister"],
    )
    check(without, "attacker", card=3, card_modifiers=0, swords=0, total=4)


def test_adwd_euron_crows_eye_when_the_opponent_is_higher_on_fiefdoms():
    """Euron Crow's Eye (4) gains +1 when his opponent stands above Greyjoy on Fiefdoms."""
    for fiefdoms, bonus in ((["tyrell", "greyjoy"], 1), (["greyjoy", "tyrell"], 0)):
        r = fight(
            "the_reach",
            side("greyjoy", {"footman": 1}, "euron_crows_eye_dwd"),
            side("tyrell", {"footman": 1}, "willas_tyrell"),
            fiefdoms=fiefdoms,
        )
        check(r, "attacker", card=4, card_modifiers=bonus, total=5 + bonus)


def test_adwd_doran_martell_a_sword_and_a_fort_per_card_in_hand():
    """Doran Martell (4) with three other cards in hand: 3 swords, 3 fortifications and 4 - 3 =
    1 strength; with all six others in hand: 6 swords, 6 forts, and the strength stops at 0."""
    three = fight(
        "sunspear",
        side(
            "martell",
            {"footman": 1},
            "doran_martell_dwd",
            hand=["doran_martell_dwd", "areo_hotah_dwd", "big_man", "quentyn_martell"],
        ),
        side("tyrell", {"footman": 1}, "willas_tyrell"),
        fiefdoms=["martell", "tyrell"],
    )
    check(three, "attacker", card=4, card_modifiers=-3, swords=3, fortifications=3, total=2)
    six = fight(
        "sunspear",
        side(
            "martell",
            {"footman": 1},
            "doran_martell_dwd",
            hand=[c.id for c in house_cards("2e", "adwd") if c.house == House.MARTELL],
        ),
        side("tyrell", {"footman": 1}, "willas_tyrell"),
        fiefdoms=["martell", "tyrell"],
    )
    check(six, "attacker", card=4, card_modifiers=-4, swords=6, fortifications=6, total=1)


def test_adwd_quentyn_martell_one_per_discarded_card():
    """Quentyn Martell (1) with three cards in the Martell discard pile: 1 + 3."""
    r = fight(
        "sunspear",
        side(
            "martell",
            {"footman": 1},
            "quentyn_martell",
            discards=["areo_hotah_dwd", "big_man", "nymeria_sand_dwd"],
        ),
        side("tyrell", {"footman": 1}, "willas_tyrell"),
        fiefdoms=["martell", "tyrell"],
    )
    check(r, "attacker", card=1, card_modifiers=3, total=5)


def test_adwd_mance_rayder_final_strength_is_the_threat_and_the_blade_is_barred():
    """Mance Rayder: Baratheon's final strength is the wildling threat (6), whatever its
    knights add (4), Tides of Battle or the blade: 6 against Lannister's 2 knights and Ser
    Kevan (3) = 7. Baratheon holds the blade (top of Fiefdoms) but may not use it (S&R), so
    Lannister wins every time, whatever the Tides cards."""
    r = combat_odds(
        make_spec(
            "kingswood",
            side("baratheon", {"knight": 2}, "rayder"),
            side("lannister", {"knight": 2}, "ser_kevan_lannister_dwd"),
            fiefdoms=["baratheon", "lannister"],
            blade=True,
            adwd_house_cards=True,
            wildling_threat=6,
            tides_of_battle=True,
        ),
        model="fixed",
    )
    assert r.p_attacker_wins == 0.0
    assert r.blade == {"plus_one": 0.0, "redraw": 0.0}
    plain = fight(
        "kingswood",
        side("baratheon", {"knight": 2}, "rayder"),
        side("lannister", {"knight": 2}, "ser_kevan_lannister_dwd"),
        fiefdoms=["baratheon", "lannister"],
        wildling_threat=10,
    )
    check(plain, "attacker", units=4, card=0, card_modifiers=6, total=10)
    assert plain.p_attacker_wins == 1.0


def test_adwd_margaery_tyrell_home_area_or_power_token():
    """Margaery Tyrell defending Highgarden (Tyrell's home): Lannister's final strength
    becomes 2 (2 knights and Ser Jaime: 8), so 2 Tyrell footmen (2) win the tie as the house
    higher on Fiefdoms. In the Dornish Marches she does nothing, unless a Tyrell power token
    lies there (``defender.power_token``)."""
    attacker = side("lannister", {"knight": 2}, "ser_jaime_lannister_dwd")
    home = fight(
        "highgarden",
        attacker,
        side("tyrell", {"footman": 2}, "margaery_tyrell_dwd"),
        fiefdoms=["tyrell", "lannister"],
    )
    check(home, "attacker", total=2)
    assert home.p_attacker_wins == 0.0
    away = fight(
        "dornish_marches",
        attacker,
        side("tyrell", {"footman": 2}, "margaery_tyrell_dwd"),
        fiefdoms=["tyrell", "lannister"],
    )
    check(away, "attacker", total=8)
    token = fight(
        "dornish_marches",
        attacker,
        side("tyrell", {"footman": 2}, "margaery_tyrell_dwd", power_token=True),
        fiefdoms=["tyrell", "lannister"],
    )
    check(token, "attacker", total=2)


def test_adwd_queen_of_thorns_ignores_the_opponents_text():
    """The Queen of Thorns (ADwD) cancels Ramsay Bolton's text: no +1, no swords, though Reek
    is in Stark's hand."""
    r = fight(
        "the_twins",
        side("stark", {"footman": 1}, "ramsay_bolton", hand=["ramsay_bolton", "reek"]),
        side("tyrell", {"footman": 1}, "queen_of_thorns_dwd"),
        fiefdoms=["stark", "tyrell"],
    )
    check(r, "attacker", card=3, card_modifiers=0, swords=0, total=4)


def test_adwd_stannis_baratheon_unsupported_removes_the_support():
    """Stannis Baratheon (ADwD, 4), nobody backing Baratheon: every support order next to the
    battle goes, so Lannister loses its own supporting knight and Greyjoy's footman: 2 + 4 = 6
    against 2 + Ser Jaime 4 = 6, and Baratheon, higher on Fiefdoms, takes the tie. Supported,
    Stannis does nothing."""
    lannister = side("lannister", {"knight": 1}, "ser_jaime_lannister_dwd")
    backing = (
        support("lannister", "defender", {"knight": 1}),
        support("greyjoy", "defender", {"footman": 1}, "support+1"),
    )
    r = fight(
        "kingswood",
        side("baratheon", {"knight": 1}, "stannis_baratheon_dwd"),
        lannister,
        fiefdoms=["baratheon", "lannister"],
        supports=backing,
    )
    check(r, "defender", support=0, total=6)
    assert r.p_attacker_wins == 1.0
    r = fight(
        "kingswood",
        side("baratheon", {"knight": 1}, "stannis_baratheon_dwd"),
        lannister,
        fiefdoms=["baratheon", "lannister"],
        supports=(*backing, support("tyrell", "attacker", {"footman": 1})),
    )
    check(r, "defender", support=4, total=10)


def test_adwd_walder_frey_takes_over_third_party_support():
    """Walder Frey: Greyjoy's support +1 order (2 knights: 5) backing Lannister backs Stark
    instead; Lannister's own supporting footman stays with Lannister. Lannister 2 + 1 + Ser
    Daven 2 = 5 against Stark 1 + 5 + Walder 1 = 7."""
    r = fight(
        "blackwater",
        side("lannister", {"knight": 1}, "ser_daven_lannister"),
        side("stark", {"footman": 1}, "walder_frey"),
        fiefdoms=["stark", "lannister"],
        supports=(
            support("lannister", "attacker", {"footman": 1}),
            support("greyjoy", "attacker", {"knight": 2}, "support+1"),
        ),
    )
    check(r, "attacker", support=1, total=5)
    check(r, "defender", support=5, total=7)
    assert r.p_attacker_wins == 0.0
    assert any("walder_frey takes over 1" in n for n in all_notes(r))


def test_adwd_qyburn_pays_two_power_for_a_discarded_cards_numbers():
    """Qyburn (0) may pay 2 power for the printed numbers of a card in any discard pile:
    Tyrell's discarded Mace Tyrell gives him 4 strength, a sword and a fort, and Lannister (a
    knight: 2 + 4 = 6) beats Stark (a footman and Black Walder: 3). Without power he is 0."""
    spec = {"discards": {"tyrell": ["mace_tyrell_dwd"]}}
    r = fight(
        "blackwater",
        side("lannister", {"knight": 1}, "qyburn", power=5),
        side("stark", {"footman": 1}, "black_walder"),
        fiefdoms=["stark", "lannister"],
        **spec,
    )
    check(r, "attacker", card=0, card_modifiers=4, swords=1, fortifications=1, total=6)
    assert r.p_attacker_wins == 1.0 and r.power["attacker"] == -2.0
    poor = fight(
        "blackwater",
        side("lannister", {"knight": 1}, "qyburn", power=1),
        side("stark", {"footman": 1}, "black_walder"),
        fiefdoms=["stark", "lannister"],
        **spec,
    )
    assert poor.p_attacker_wins == 0.0 and poor.power["attacker"] == 0.0


def test_adwd_aeron_damphair_buys_just_enough_strength():
    """Aeron Damphair (ADwD, 0): +1 per power token spent. Greyjoy (a knight: 2) needs 5 to
    beat Tyrell's 2 footmen and Willas (4) with Tyrell higher on Fiefdoms: it spends 3 of its
    5. With 2 power it cannot win and spends nothing."""
    r = fight(
        "the_reach",
        side("greyjoy", {"knight": 1}, "aeron_damphair_dwd", power=5),
        side("tyrell", {"footman": 2}, "willas_tyrell"),
        fiefdoms=["tyrell", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0 and r.power["attacker"] == -3.0
    check(r, "attacker", card_modifiers=3, total=5)
    r = fight(
        "the_reach",
        side("greyjoy", {"knight": 1}, "aeron_damphair_dwd", power=2),
        side("tyrell", {"footman": 2}, "willas_tyrell"),
        fiefdoms=["tyrell", "greyjoy"],
    )
    assert r.p_attacker_wins == 0.0 and r.power["attacker"] == 0.0


def test_adwd_qarl_the_maid_three_power_for_a_lost_attack():
    """Qarl the Maid: Greyjoy attacks and loses, and takes 3 power; defending and losing, none."""
    r = fight(
        "the_reach",
        side("greyjoy", {"footman": 1}, "qarl_the_maid"),
        side("tyrell", {"knight": 2}, "willas_tyrell"),
        fiefdoms=["tyrell", "greyjoy"],
    )
    assert r.p_attacker_wins == 0.0 and r.power["attacker"] == 3.0
    r = fight(
        "the_reach",
        side("tyrell", {"knight": 2}, "willas_tyrell"),
        side("greyjoy", {"footman": 1}, "qarl_the_maid"),
        fiefdoms=["tyrell", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0 and r.power["defender"] == 0.0


def test_adwd_reek_brings_ramsay_back_in_the_calculator():
    """Reek's "immediately": a discarded Ramsay Bolton returns to the hand (the calculator
    notes it; it cannot change this battle)."""
    r = fight(
        "the_twins",
        side("stark", {"footman": 1}, "reek", discards=["ramsay_bolton"]),
        side("lannister", {"footman": 1}, "cersei_lannister_dwd"),
        fiefdoms=["stark", "lannister"],
    )
    assert "reek brings ramsay_bolton back to the hand" in all_notes(r)


def test_adwd_exact_and_sampled_odds_agree():
    """Full hands with Tides of Battle and the blade in play — Baratheon against Tyrell at
    Highgarden (Mance Rayder, Margaery Tyrell, Stannis, the Queen of Thorns), Greyjoy against
    Lannister (Aeron's and Qyburn's choices, Euron, Ser Addam): the sampled odds (200,000
    battles) agree with the exact ones within four standard errors."""
    specs = [
        make_spec(
            "highgarden",
            side("baratheon", {"knight": 1, "footman": 1}, power=4),
            side("tyrell", {"footman": 2}),
            fiefdoms=["baratheon", "tyrell"],
            supports=(support("baratheon", "attacker", {"footman": 1}),),
            wildling_threat=6,
        ),
        make_spec(
            "lannisport",
            side("greyjoy", {"knight": 2}, power=3),
            side("lannister", {"knight": 1, "footman": 1}, power=4),
            fiefdoms=["lannister", "greyjoy"],
            discards={"tyrell": ["mace_tyrell_dwd"]},
        ),
    ]
    for spec in specs:
        spec |= {"adwd_house_cards": True, "tides_of_battle": True, "blade_used": False}
        exact = combat_odds(spec, model="uniform")
        sampled = combat_odds(spec, model="uniform", samples=200_000, seed=3)
        assert exact.exact and not sampled.exact
        assert abs(exact.p_attacker_wins - sampled.p_attacker_wins) < 4 * sampled.std_error
        assert 0.0 < exact.p_attacker_wins < 1.0


def test_adwd_spec_refuses_mixed_decks():
    """A base card in an ADwD battle (or an ADwD card in a base one) names the deck it is in."""
    with pytest.raises(BattleSpecError, match="A Dance with Dragons decks"):
        fight(
            "the_reach",
            side("greyjoy", {"footman": 1}, "balon_greyjoy"),
            side("tyrell", {"footman": 1}, "willas_tyrell"),
            fiefdoms=["tyrell", "greyjoy"],
        )
    with pytest.raises(BattleSpecError, match="adwd_house_cards"):
        combat_odds(
            make_spec(
                "the_reach",
                side("greyjoy", {"footman": 1}, "qarl_the_maid"),
                side("tyrell", {"footman": 1}, "loras_tyrell"),
                fiefdoms=["tyrell", "greyjoy"],
            ),
            model="fixed",
        )


# =================================================================================================
# 2. The engine: choices on the board, the tracks, the decks and the hands
# =================================================================================================


def test_adwd_engine_ser_ilyn_payne_destroys_a_footman_anywhere():
    """Lannister (2 knights, Ser Ilyn Payne 2: 6) beats Stark (a footman and Damon
    Dance-For-Me: 2) in Blackwater. Ilyn may destroy a Stark footman anywhere: the one
    fighting, or the lone one in Karhold, whose consolidate order then goes with it."""
    c = marches().place("""
        the_reach   lannister 2K march+0
        blackwater  stark F
        karhold     stark F consolidate_power
    """)
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K blackwater
        lannister MARCH_UNIT K blackwater
        lannister HOUSE_CARD ser_ilyn_payne
        stark HOUSE_CARD damon_dance_for_me
    """)
    c.expect("lannister CARD_ABILITY")
    assert c.options() == {"blackwater", "karhold", "none"}
    c.play("""
        lannister CARD_ABILITY karhold
        stark RETREAT harrenhal
    """)
    assert c.at("karhold") == "" and c.order_at("karhold") is None
    assert c.at("blackwater") == "lannister 2K"
    assert c.at("harrenhal") == "stark Fr"


def test_adwd_engine_ser_ilyn_payne_defending_kills_a_marching_footman():
    """Stark attacks The Reach with 2 footmen and a knight and loses to Lannister (2 knights,
    Ser Ilyn Payne). Ilyn takes one of the marching footmen (the embattled area stands for
    them): the beaten attackers go home one footman short."""
    c = marches().place("""
        kingswood  stark 2F K march+0
        the_reach  lannister 2K
    """)
    c.play("""
        stark MARCH_FROM kingswood
        stark MARCH_UNIT F the_reach
        stark MARCH_UNIT F the_reach
        stark MARCH_UNIT K the_reach
        stark HOUSE_CARD damon_dance_for_me
        lannister HOUSE_CARD ser_ilyn_payne
    """)
    c.expect("lannister CARD_ABILITY")
    assert c.options() == {"the_reach", "none"}
    c.play("lannister CARD_ABILITY the_reach")
    assert c.at("kingswood") == "stark Fr Kr"
    assert c.at("the_reach") == "lannister 2K"


def test_adwd_engine_jon_snow_moves_the_wildling_threat():
    """Baratheon wins with Jon Snow (3) and moves the threat up one space: 2 → 4 (down would
    have made it 0)."""
    c = marches().place("""
        kingswood  baratheon 2K march+0
        the_reach  lannister F
    """)
    c.g.threat = 2
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT K the_reach
        baratheon MARCH_UNIT K the_reach
        baratheon HOUSE_CARD jon_snow
        lannister HOUSE_CARD cersei_lannister_dwd
    """)
    c.expect("baratheon CARD_ABILITY")
    assert c.options() == {"0", "1", "2"}
    c.play("""
        baratheon CARD_ABILITY 2
        lannister RETREAT blackwater
    """)
    assert int(c.g.threat) == 4


def test_adwd_engine_rodrik_the_reader_stacks_a_westeros_deck():
    """Greyjoy wins with Rodrik the Reader (2), looks through Westeros deck I and puts the
    card it wants (the deck's last one) on top; the deck keeps the same cards."""
    c = marches().place("""
        kingswood  greyjoy 2K march+0
        the_reach  lannister F
    """)
    before = Counter(int(x) for x in c.g.westeros[0][c.g.westeros_next[0] :])
    wanted = int(c.g.westeros[0, 9])
    c.play("""
        greyjoy MARCH_FROM kingswood
        greyjoy MARCH_UNIT K the_reach
        greyjoy MARCH_UNIT K the_reach
        greyjoy HOUSE_CARD rodrik_the_reader
        lannister HOUSE_CARD cersei_lannister_dwd
        greyjoy CARD_ABILITY 0
    """)
    c.expect("greyjoy CARD_ABILITY")
    c.play(f"""
        greyjoy CARD_ABILITY {WesterosCard(wanted).name.lower()}
        lannister RETREAT blackwater
    """)
    top = int(c.g.westeros_next[0])
    assert int(c.g.westeros[0, top]) == wanted
    assert Counter(int(x) for x in c.g.westeros[0][top:]) == before


def test_adwd_heuristic_rodrik_stacks_what_the_house_gains_by():
    """The heuristic's Rodrik the Reader: Mustering on deck I with two castle or stronghold
    areas held, else Supply when its barrels pass its supply level, else Game of Thrones on
    deck II with two crowns, else nothing (the deck stays shuffled)."""
    from gotsim.players.fighting import rodrik_card

    c = marches()
    mustering, supply = int(WesterosCard.MUSTERING), int(WesterosCard.SUPPLY)
    assert rodrik_card(c.g, c.t, int(House.GREYJOY)) == (-1, -1)  # Pyke alone, supply 2
    c.place("seagard greyjoy F")
    assert rodrik_card(c.g, c.t, int(House.GREYJOY)) == (0, mustering)
    c.place("seagard lannister F")
    c.supply(greyjoy=0)
    assert rodrik_card(c.g, c.t, int(House.GREYJOY)) == (0, supply)


def test_adwd_engine_ser_gerris_drinkwater_moves_up_a_track():
    """Martell wins with Ser Gerris Drinkwater (1) and moves up the Iron Throne track, past
    Stark (Martell 4th → 3rd)."""
    c = marches().place("""
        kingswood  martell 2K march+0
        the_reach  lannister F
    """)
    c.play("""
        martell MARCH_FROM kingswood
        martell MARCH_UNIT K the_reach
        martell MARCH_UNIT K the_reach
        martell HOUSE_CARD ser_gerris_drinkwater
        lannister HOUSE_CARD cersei_lannister_dwd
    """)
    c.expect("martell CARD_ABILITY")
    assert c.options() == {"iron_throne", "fiefdoms", "kings_court", "none"}
    c.play("""
        martell CARD_ABILITY iron_throne
        lannister RETREAT blackwater
    """)
    assert c.track_of("iron_throne")[:4] == ["baratheon", "lannister", "martell", "stark"]


def test_adwd_engine_qarl_the_maid_takes_three_power_after_a_lost_attack():
    """Greyjoy attacks 2 Lannister knights with a footman and Qarl the Maid and loses: its
    power goes 5 → 8; the footman goes back routed."""
    c = marches().place("""
        kingswood  greyjoy F march+0
        the_reach  lannister 2K
    """)
    c.play("""
        greyjoy MARCH_FROM kingswood
        greyjoy MARCH_UNIT F the_reach
        greyjoy HOUSE_CARD qarl_the_maid
        lannister HOUSE_CARD cersei_lannister_dwd
    """)
    assert c.power_of("greyjoy") == 8
    assert c.at("kingswood") == "greyjoy Fr"


@pytest.mark.parametrize("take_back", [True, False])
def test_adwd_engine_reek_returns_ramsay_and_may_return_himself(take_back: bool):
    """Stark attacks with Reek and loses. At once Ramsay Bolton comes back from the discard
    pile; after the defeat Stark may take Reek back too (or let him be discarded)."""
    c = marches().place("""
        kingswood  stark F march+0
        the_reach  lannister 2K
    """)
    c.hand("stark", "reek", "black_walder", discard=("ramsay_bolton", "steelshanks_walton"))
    c.play("""
        stark MARCH_FROM kingswood
        stark MARCH_UNIT F the_reach
        stark HOUSE_CARD reek
        lannister HOUSE_CARD cersei_lannister_dwd
    """)
    c.expect("stark CARD_ABILITY")
    c.play(f"stark CARD_ABILITY {1 if take_back else 0}")
    kept = {"reek"} if take_back else set()
    assert c.hand_of("stark") == {"black_walder", "ramsay_bolton"} | kept
    assert c.discard_of("stark") == {"steelshanks_walton"} | ({"reek"} - kept)


def test_adwd_engine_melisandre_buys_back_a_discarded_card():
    """After the combat (won or lost) Melisandre (ADwD) may take a card of Baratheon's discard
    pile back, herself included, paying its printed strength: Jon Snow for 3 of 5 power."""
    c = marches().place("""
        kingswood  baratheon 2K march+0
        the_reach  lannister F
    """)
    c.hand(
        "baratheon",
        "melisandre_dwd",
        "stannis_baratheon_dwd",
        discard=("jon_snow", "rayder"),
    )
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT K the_reach
        baratheon MARCH_UNIT K the_reach
        baratheon HOUSE_CARD melisandre_dwd
        lannister HOUSE_CARD cersei_lannister_dwd
        lannister RETREAT blackwater
    """)
    c.expect("baratheon CARD_ABILITY")
    assert c.options() == {"jon_snow", "rayder", "melisandre_dwd", "none"}
    c.play("baratheon CARD_ABILITY jon_snow")
    assert c.power_of("baratheon") == 2
    assert c.hand_of("baratheon") == {"stannis_baratheon_dwd", "jon_snow"}
    assert c.discard_of("baratheon") == {"rayder", "melisandre_dwd"}


def test_adwd_engine_aeron_damphair_spends_power_for_strength():
    """Greyjoy (a knight, Aeron Damphair 0) spends 3 of its 5 power: 2 + 3 = 5 beats Tyrell's
    2 footmen and Willas (4)."""
    c = marches().place("""
        kingswood  greyjoy K march+0
        the_reach  tyrell 2F
    """)
    c.play("""
        greyjoy MARCH_FROM kingswood
        greyjoy MARCH_UNIT K the_reach
        greyjoy HOUSE_CARD aeron_damphair_dwd
        tyrell HOUSE_CARD willas_tyrell
    """)
    c.expect("greyjoy CARD_ABILITY")
    assert c.options() == {"0", "1", "2", "3", "4", "5"}
    c.play("""
        greyjoy CARD_ABILITY 3
        tyrell RETREAT highgarden
    """)
    assert c.power_of("greyjoy") == 2
    assert c.at("the_reach") == "greyjoy K"


def test_adwd_engine_qyburn_copies_a_card_of_any_discard_pile():
    """Qyburn pays 2 power for Tyrell's discarded Mace Tyrell (4, a sword, a fort): Lannister's
    knight (2 + 4) beats Stark's footman and Black Walder (3), and Mace's sword kills it."""
    c = marches().place("""
        the_reach   lannister K march+0
        blackwater  stark F
    """)
    c.hand("lannister", "qyburn", "ser_jaime_lannister_dwd", discard=())
    c.hand("stark", "black_walder", "reek", discard=())
    c.hand("tyrell", "willas_tyrell", discard=("mace_tyrell_dwd",))
    for house in ("baratheon", "greyjoy", "martell"):
        c.hand(house, *c.deck[House.from_id(house)], discard=())
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K blackwater
        lannister HOUSE_CARD qyburn
        stark HOUSE_CARD black_walder
    """)
    c.expect("lannister CARD_ABILITY")
    assert c.options() == {"mace_tyrell_dwd", "none"}
    c.play("""
        lannister CARD_ABILITY mace_tyrell_dwd
        stark CASUALTY F
    """)
    assert c.power_of("lannister") == 3
    assert c.at("blackwater") == "lannister K"


def test_adwd_engine_stannis_unsupported_removes_support_orders_next_to_the_battle():
    """Stannis Baratheon (ADwD) with nobody backing Baratheon: Lannister's support order in
    Blackwater and Tyrell's in Highgarden (which backed nobody) leave the board."""
    c = marches().place("""
        kingswood   baratheon 2K march+0
        the_reach   lannister F
        blackwater  lannister F support+0
        highgarden  tyrell F support+0
    """)
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT K the_reach
        baratheon MARCH_UNIT K the_reach
        tyrell SUPPORT_SIDE nobody
        baratheon HOUSE_CARD stannis_baratheon_dwd
        lannister HOUSE_CARD cersei_lannister_dwd
        lannister RETREAT searoad_marches
    """)
    assert c.order_at("blackwater") is None and c.order_at("highgarden") is None
    assert c.at("the_reach") == "baratheon 2K"


def test_adwd_engine_walder_frey_turns_a_third_houses_support():
    """Greyjoy backs Lannister's attack on Blackwater from Stoney Sept (2 knights, support +1:
    5); Walder Frey turns it to Stark: Lannister (a knight, Ser Daven: 4) loses to Stark (a
    footman, Walder 1, Greyjoy's 5: 7) and goes back routed."""
    c = marches().place("""
        the_reach    lannister K march+0
        blackwater   stark F
        stoney_sept  greyjoy 2K support+1
    """)
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K blackwater
        greyjoy SUPPORT_SIDE attacker
        lannister HOUSE_CARD ser_daven_lannister
        stark HOUSE_CARD walder_frey
    """)
    assert c.at("blackwater") == "stark F"
    assert c.at("the_reach") == "lannister Kr"


def test_adwd_engine_mance_rayder_fights_at_the_threat():
    """Mance Rayder with the threat at 10: Baratheon's lone footman fights at 10 and beats
    Lannister's 2 knights and Cersei (5)."""
    c = marches().place("""
        kingswood  baratheon F march+0
        the_reach  lannister 2K
    """)
    c.g.threat = 10
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT F the_reach
        baratheon HOUSE_CARD rayder
        lannister HOUSE_CARD cersei_lannister_dwd
        lannister RETREAT blackwater
    """)
    assert c.at("the_reach") == "baratheon F"


def test_adwd_engine_margaery_defends_her_home_at_two():
    """Margaery Tyrell defending Highgarden: Lannister's 2 knights and Ser Jaime (8) count 2,
    below Tyrell's footman and garrison (1 + 2): Lannister goes back routed."""
    c = marches().place("""
        the_reach   lannister 2K march+0
        highgarden  tyrell F
    """)
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K highgarden
        lannister MARCH_UNIT K highgarden
        lannister HOUSE_CARD ser_jaime_lannister_dwd
        tyrell HOUSE_CARD margaery_tyrell_dwd
    """)
    assert c.at("highgarden") == "tyrell F"
    assert c.at("the_reach") == "lannister 2Kr"


def test_adwd_engine_ser_addam_marbrand_knights_count_three():
    """Lannister attacks Riverrun with 2 knights, a third supporting, and Ser Addam Marbrand:
    6 + 3 + 1 = 10 against Stark's 2 footmen, defence +1 and Roose Bolton (4): 7. Knights at 2
    would tie 7-7, which Stark (higher on Fiefdoms) wins."""
    c = marches().place("""
        harrenhal    lannister 2K march+0
        stoney_sept  lannister K support+0
        riverrun     stark 2F defense+1
    """)
    c.play("""
        lannister MARCH_FROM harrenhal
        lannister MARCH_UNIT K riverrun
        lannister MARCH_UNIT K riverrun
        lannister HOUSE_CARD ser_addam_marbrand
        stark HOUSE_CARD roose_bolton_dwd
    """)
    c.expect("stark RETREAT")
    assert c.totals() == (10, 7)


def test_adwd_engine_paxter_redwyne_ships_count_two_at_sea():
    """Tyrell's 2 ships attack the Redwyne Straights with Paxter Redwyne: 4 + 1 = 5 against
    Greyjoy's 2 ships and Asha (2): 4. Ships at 1 would lose 3-4. Greyjoy's ships have nowhere
    to retreat (Tyrell came from the only open sea) and are lost."""
    c = marches().place("""
        west_summer_sea    tyrell 2S march+0
        redwyne_straights  greyjoy 2S
    """)
    c.play("""
        tyrell MARCH_FROM west_summer_sea
        tyrell MARCH_UNIT S redwyne_straights
        tyrell MARCH_UNIT S redwyne_straights
        tyrell HOUSE_CARD paxter_redwyne
        greyjoy HOUSE_CARD asha_greyjoy_dwd
    """)
    assert c.totals() == (5, 4)
    assert c.at("redwyne_straights") == "tyrell 2S"


@pytest.mark.parametrize("reek_in_hand", [True, False])
def test_adwd_engine_ramsay_bolton_with_reek_in_hand(reek_in_hand: bool):
    """Ramsay Bolton attacks Seagard: with Reek in Stark's hand 1 + 3 + 1 = 5 and three swords
    against Lannister's 2 footmen and Ser Kevan (3, a fortification): 5, a tie Stark wins on
    Fiefdoms, and both footmen die (3 swords - 1). With Reek discarded Ramsay is 4 and loses."""
    c = marches().place("""
        the_twins  stark F march+0
        seagard    lannister 2F
    """)
    others = ("roose_bolton_dwd", "black_walder", "steelshanks_walton")
    c.hand("stark", "ramsay_bolton", *others, *(("reek",) if reek_in_hand else ()))
    c.play("""
        stark MARCH_FROM the_twins
        stark MARCH_UNIT F seagard
        stark HOUSE_CARD ramsay_bolton
        lannister HOUSE_CARD ser_kevan_lannister_dwd
    """)
    if reek_in_hand:
        c.expect("lannister CASUALTY")  # two of Ramsay's three swords count
        assert c.totals() == (5, 5)
        c.play("lannister CASUALTY F")
        c.play("lannister CASUALTY F")
        assert c.at("seagard") == "stark F"
    else:
        assert c.totals() == (4, 5)
        assert c.at("seagard") == "lannister 2F" and c.at("the_twins") == "stark Fr"


def test_adwd_engine_euron_crows_eye_below_his_opponent_on_fiefdoms():
    """Tyrell above Greyjoy on Fiefdoms: Euron (4 + 1) and a footman make 6 against Tyrell's
    footman, defence +2 and Ser Jon Fossoway (2): 5. Without the +1 the 5-5 tie would go to
    Tyrell."""
    c = marches().place("""
        searoad_marches  greyjoy F march+0
        the_reach        tyrell F defense+2
    """)
    c.track("fiefdoms", "tyrell greyjoy martell stark baratheon lannister")
    c.play("""
        greyjoy MARCH_FROM searoad_marches
        greyjoy MARCH_UNIT F the_reach
        greyjoy HOUSE_CARD euron_crows_eye_dwd
        tyrell HOUSE_CARD ser_jon_fossoway
    """)
    c.expect("tyrell RETREAT")
    assert c.totals() == (6, 5)


@pytest.mark.parametrize(("others", "wins"), [(2, True), (6, False)])
def test_adwd_engine_doran_martell_trades_strength_for_swords(others: int, wins: bool):
    """Doran Martell with two other cards in hand: 4 - 2 = 2, two swords and two fortifications:
    2 footmen + 2 = 4 against Lannister's footman and Ser Daven (2): 3, and both swords kill
    the footman. With all six others in hand Doran is 0 and Martell loses 2-3."""
    c = marches().place("""
        yronwood    martell 2F march+0
        salt_shore  lannister F
    """)
    rest = ("big_man", "quentyn_martell", "areo_hotah_dwd", "bastard_of_godsgrace")
    rest += ("ser_gerris_drinkwater", "nymeria_sand_dwd")
    c.hand("martell", "doran_martell_dwd", *rest[:others])
    c.play("""
        martell MARCH_FROM yronwood
        martell MARCH_UNIT F salt_shore
        martell MARCH_UNIT F salt_shore
        martell HOUSE_CARD doran_martell_dwd
        lannister HOUSE_CARD ser_daven_lannister
    """)
    if wins:
        c.expect("lannister CASUALTY")
        assert c.totals() == (4, 3)
        c.play("lannister CASUALTY F")
        assert c.at("salt_shore") == "martell 2F"
    else:
        assert c.totals() == (2, 3)
        assert c.at("salt_shore") == "lannister F"


@pytest.mark.parametrize(("discarded", "wins"), [(3, True), (0, False)])
def test_adwd_engine_quentyn_martell_counts_the_discard_pile(discarded: int, wins: bool):
    """Quentyn Martell with three cards in Martell's discard pile: 1 + 1 + 3 = 5 against
    Lannister's footman and Ser Kevan (3): 4; with none discarded 2 against 4."""
    c = marches().place("""
        yronwood    martell F march+0
        salt_shore  lannister F
    """)
    deck = [card for card in c.deck[House.MARTELL] if card != "quentyn_martell"]
    c.hand("martell", "quentyn_martell", *deck[discarded:], discard=tuple(deck[:discarded]))
    c.play("""
        martell MARCH_FROM yronwood
        martell MARCH_UNIT F salt_shore
        martell HOUSE_CARD quentyn_martell
        lannister HOUSE_CARD ser_kevan_lannister_dwd
    """)
    if wins:
        c.expect("lannister RETREAT")
        assert c.totals() == (5, 4)
    else:
        assert c.at("salt_shore") == "lannister F" and c.at("yronwood") == "martell Fr"


def test_adwd_engine_queen_of_thorns_silences_ramsay():
    """The Queen of Thorns (ADwD) ignores Ramsay's text: Reek in hand or not, he is a plain 3,
    and Stark's footman (4) ties Tyrell's footman, defence +2 and the Queen (4); Tyrell, higher
    on Fiefdoms, holds Seagard."""
    c = marches().place("""
        the_twins  stark F march+0
        seagard    tyrell F defense+2
    """)
    c.play("""
        stark MARCH_FROM the_twins
        stark MARCH_UNIT F seagard
        stark HOUSE_CARD ramsay_bolton
        tyrell HOUSE_CARD queen_of_thorns_dwd
    """)
    assert c.at("seagard") == "tyrell F" and c.at("the_twins") == "stark Fr"
    assert c.hand_of("stark") >= {"reek"}


# =================================================================================================
# 3. Data, listing, random games
# =================================================================================================


@pytest.mark.parametrize("source", ["package", "reference"])
def test_adwd_decks_match_the_reference(source):
    """42 cards, seven per base house, with the ids and numbers of the package's data file and
    of the shared reference it was written from (where that is at hand); every ability the
    combat code and the engine know (none is left unimplemented)."""
    cards = house_cards("2e", "adwd")
    assert len(cards) == 42
    if source == "package":
        ref = load_data("2e", "house_cards_variants.json")
    else:
        path = REFERENCE / "house_cards_variants.json"
        if not path.exists():
            pytest.skip(f"{path} not available")
        ref = json.loads(path.read_text("utf-8"))
    houses = ref["sets"]["a_dance_with_dragons"]["houses"]
    for house in BASE_HOUSES:
        mine = [c for c in cards if c.house == house]
        theirs = houses[house.id]
        assert [c.id for c in mine] == [r["id"] for r in theirs]
        assert [(c.strength, c.swords, c.fortifications) for c in mine] == [
            (r["strength"], r["swords"], r["fortifications"]) for r in theirs
        ]
        assert sorted(c.strength for c in mine) == [0, 1, 1, 2, 2, 3, 4]
    with_text = [c for c in cards if c.effect is not None]
    assert len(with_text) == 20
    assert all(implemented_in(c.effect) for c in with_text)


def test_adwd_cards_listing(capsys):
    """``gotsim cards --set adwd --json`` lists the 42 cards with their abilities."""
    from gotsim.cli import main

    assert main(["cards", "--set", "adwd", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 42
    qyburn = next(r for r in rows if r["id"] == "qyburn")
    assert qyburn["implemented_in"] == ["combat", "engine"] and "power" in qyburn["ability"]
    ilyn = next(r for r in rows if r["id"] == "ser_ilyn_payne")
    assert ilyn["implemented_in"] == ["engine"]


def test_adwd_refused_with_the_first_edition():
    from gotsim.rules.variants import Rules

    with pytest.raises(ValueError, match="2nd-edition variant"):
        Rules.of("1e", 4, ADWD)


@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("tides", [False, True])
def test_adwd_random_games_keep_every_invariant(players: int, tides: bool) -> None:
    """75 random games per setting with the ADwD decks: every game ends with a winner, no
    invariant broken; the ADwD abilities' decisions were asked along the way."""
    rules = rules_table("2e", players, {**ADWD, "tides_of_battle": tides})
    seeds = [np.random.SeedSequence(40 + players, spawn_key=(i,)) for i in range(75)]
    games = new_games(seeds, players=players)
    play_random(games, rules, 1_000_000)
    assert (games.done == 1).all() and (games.phase == Phase.GAME_OVER).all()
    assert (games.winner >= 0).all()
    for g in games:
        assert violations(g, rules[0]) == []
    assert games.battles.sum() > 0
    assert Decision.CARD_ABILITY == 39


def test_adwd_scenario_switch_and_grid_axis():
    """A scenario switches the ADwD decks on under [variants] or as a [grid] axis; the cell's
    engine variants carry it and its games.parquet columns show it. The 1st edition refuses it."""
    from gotsim.study.scenario import ScenarioError, load_scenario

    base = {"name": "adwd", "seed": 3, "games": 20, "block_size": 10, "players": 4}
    s = load_scenario({**base, "variants": {"adwd_house_cards": True}})
    assert s.cells[0].variants["adwd_house_cards"] is True
    assert s.cells[0].params()["adwd_house_cards"] is True
    grid = load_scenario({**base, "grid": {"adwd_house_cards": [False, True]}})
    assert [c.variants["adwd_house_cards"] for c in grid.cells] == [False, True]
    with pytest.raises(ScenarioError, match="2nd-edition variant"):
        load_scenario({**base, "edition": "1e", "variants": {"adwd_house_cards": True}})


def test_adwd_simulate_and_heuristic_games_finish():
    """``simulate`` takes the switch; heuristic players (every house) finish 12 games with the
    ADwD decks, as do random ones, and the two differ from the base decks' games."""
    import gotsim

    adwd = gotsim.simulate(12, players=6, variants=ADWD, policies="heuristic", seed=5)
    assert adwd.winner.notna().all() and (adwd.end_round >= 1).all()
    base = gotsim.simulate(12, players=6, policies="heuristic", seed=5)
    assert not adwd.equals(base)


def test_adwd_random_games_narrate_the_card_abilities():
    """Python-driven random games with the ADwD decks (``Game``) log every CARD_ABILITY
    decision in words and name the ADwD cards played; a replay of the actions gives the same
    record."""
    from gotsim.engine.game import random_game, replay

    texts: list[str] = []
    for seed in range(4):
        game = random_game(6, seed=seed, variants=ADWD)
        texts += [e.text for e in game.log if e.kind == "CARD_ABILITY"]
        played = [e.text for e in game.log if e.kind == "HOUSE_CARD"]
        assert played and all("plays" in t for t in played)
        if seed == 0:
            again = replay(game.actions, players=6, seed=0, variants=ADWD)
            assert again.narrative() == game.narrative()
            a, b = game.games.copy(), again.games.copy()
            a.rng[:, 1:] = 0  # the houses' own streams were used by the policy, not the replay
            b.rng[:, 1:] = 0
            assert a.tobytes() == b.tobytes()
    assert texts and not any("option" in t for t in texts)


def test_adwd_play_command_takes_the_variant(tmp_path, capsys):
    """``gotsim play --variant adwd_house_cards`` plays a narrated game with the ADwD decks;
    the 1st edition refuses the switch in one line (status 2)."""
    from gotsim.cli import main

    log = tmp_path / "game.log"
    assert (
        main(
            [
                "play",
                "--players",
                "4",
                "--seed",
                "3",
                "--variant",
                "adwd_house_cards",
                "--log",
                str(log),
            ]
        )
        == 0
    )
    text = log.read_text("utf-8")
    deck = {c.name for c in house_cards("2e", "adwd")} - {c.name for c in house_cards("2e")}
    assert any(name in text for name in deck)
    with pytest.raises(SystemExit) as info:
        main(["play", "--edition", "1e", "--players", "4", "--variant", "adwd_house_cards"])
    assert info.value.code == 2
    assert "2nd-edition" in capsys.readouterr().err


def test_adwd_combat_form_keeps_the_decks():
    """The notebook form offers the ADwD decks for an ADwD spec and gives back the same battle
    (the switch, the wildling threat and the discards kept)."""
    from gotsim.analysis.combat_form import battle_from_form, form_values

    discards = {"martell": ["big_man", "ser_gerris_drinkwater"], "tyrell": ["willas_tyrell"]}
    hands = {
        house: [c.id for c in house_cards("2e", "adwd") if c.house.id == house and c.id not in out]
        for house, out in discards.items()
    }
    spec = make_spec(
        "highgarden",
        side("martell", {"footman": 2, "knight": 2}, hand=hands["martell"], order="march+1"),
        side("tyrell", {"footman": 1, "knight": 1}, hand=hands["tyrell"], order="defense+1"),
        fiefdoms=["tyrell", "martell"],
        supports=(support("martell", "attacker", {"knight": 1}),),
        blade=True,
        adwd_house_cards=True,
        tides_of_battle=True,
        wildling_threat=4,
        discards=discards,
    )
    values = form_values(spec)
    assert "margaery_tyrell_dwd" in values["defender_hand"]
    again = battle_from_form(values, spec)
    assert again["adwd_house_cards"] is True and again["wildling_threat"] == 4
    assert again["discards"] == discards
    assert combat_odds(again).p_attacker_wins == pytest.approx(combat_odds(spec).p_attacker_wins)
