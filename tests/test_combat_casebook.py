"""A DATC-style casebook for 2nd-edition combat: a worked case per house card, plus board rules.

Every case is a small battle spec resolved with ``combat_odds(spec, model="fixed")``; the expected
numbers are worked out by hand from the rules (the arithmetic is in each docstring). Unless a case
is about the Valyrian Steel Blade it sets ``blade_used: true`` so that nobody may spend the blade
and the result is deterministic. Tracks are always given explicitly (attacker/defender order on
Fiefdoms decides ties, the Iron Throne orders abilities and drives Stannis).

Cards whose text acts after combat (Renly, Patchface, Cersei, Robb, Roose, Loras, Arianne) cannot
change the odds; their cases check that the battle resolves exactly as with a plain card of the
same printed values, and the docstring says what the game engine must do on top of that.
"""

from __future__ import annotations

import json
from fractions import Fraction
from importlib.resources import files
from typing import Any

import pytest
from combatcase import all_notes, check, destroyed, make_spec, routed, side, support

from gotsim.odds import BattleSpecError, card_pair_breakdown, combat_odds, parse_battle

# --- helpers --------------------------------------------------------------------------------------


def fight(*args: Any, **kwargs: Any):
    return combat_odds(make_spec(*args, **kwargs), model="fixed")


def tides_cards() -> list[dict[str, int]]:
    """The 24 Tides of Battle cards, one dict per physical card."""
    data = json.loads((files("gotsim.data") / "2e" / "tides_of_battle.json").read_text("utf-8"))
    deck = [card for card in data["cards"] for _ in range(card["count"])]
    assert len(deck) == 24
    return deck


# === Baratheon ====================================================================================


def test_stannis_baratheon_opponent_higher_on_iron_throne():
    """Baratheon attacks Kingswood; Lannister stands above Baratheon on the Iron Throne.

    Attacker 2 knights (4) + march+1 (1) + Stannis 4 + 1 (Lannister above Baratheon on the Iron
    Throne) = 10 vs defender 2 knights (4) + defense+1 (1) + Tywin 4 = 9: Baratheon wins. Without
    the +1 it would be 9 = 9 and Lannister, higher on Fiefdoms, would win the tie.
    Casualties: Stannis has no swords, so both Lannister knights retreat routed.
    """
    r = fight(
        "kingswood",
        side("baratheon", {"knight": 2}, "stannis_baratheon", order="march+1"),
        side("lannister", {"knight": 2}, "tywin_lannister", order="defense+1"),
        fiefdoms=["lannister", "baratheon"],
        iron_throne=["lannister", "baratheon"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=4, order=1, card=4, card_modifiers=1, total=10)
    check(r, "defender", units=4, order=1, card=4, total=9)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"knight": 2.0}
    assert r.power == {"attacker": 0.0, "defender": 0.0}


def test_stannis_baratheon_opponent_lower_on_iron_throne():
    """Same battle, but Baratheon is above Lannister on the Iron Throne: no bonus.

    Attacker 4 + 1 + Stannis 4 = 9 vs defender 4 + 1 + Tywin 4 = 9: a tie, Lannister is higher on
    Fiefdoms and wins. Tywin wins, so Lannister takes 2 power; no swords, so both Baratheon knights
    retreat routed.
    """
    r = fight(
        "kingswood",
        side("baratheon", {"knight": 2}, "stannis_baratheon", order="march+1"),
        side("lannister", {"knight": 2}, "tywin_lannister", order="defense+1"),
        fiefdoms=["lannister", "baratheon"],
        iron_throne=["baratheon", "lannister"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", card=4, card_modifiers=0, total=9)
    assert r.power == {"attacker": 0.0, "defender": 2.0}
    assert routed(r, "attacker") == {"knight": 2.0}


def test_renly_baratheon_win_resolves_like_a_plain_three():
    """Renly acts only after the victor is known.

    Attacker 2 footmen (2) + Renly 3 = 5 vs defender 1 footman (1) + Roose 2 = 3: Baratheon wins,
    no swords, the Stark footman retreats routed. The calculator adds nothing for Renly
    (card_modifiers 0, no note); the engine must additionally offer Baratheon to upgrade one of
    its participating (or supporting) footmen to a knight.
    """
    r = fight(
        "kingswood",
        side("baratheon", {"footman": 2}, "renly_baratheon"),
        side("stark", {"footman": 1}, "roose_bolton"),
        fiefdoms=["stark", "baratheon"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=2, card=3, card_modifiers=0, swords=0, total=5)
    check(r, "defender", total=3)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 1.0}
    assert r.notes == {}


def test_ser_davos_seaworth_stannis_discarded():
    """Stannis Baratheon lies in the Baratheon discard pile.

    Attacker 1 knight (2) + Davos 2 + 1 = 5, swords 0 + 1 = 1 vs defender 2 footmen (2) +
    Jaime 2 = 4: Baratheon wins; 1 sword - 0 fortifications = 1 Lannister footman destroyed,
    the other retreats routed.
    """
    r = fight(
        "kingswood",
        side("baratheon", {"knight": 1}, "ser_davos_seaworth"),
        side("lannister", {"footman": 2}, "ser_jaime_lannister"),
        fiefdoms=["lannister", "baratheon"],
        discards={"baratheon": ["stannis_baratheon"]},
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=2, card_modifiers=1, swords=1, total=5)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_ser_davos_seaworth_stannis_still_in_hand():
    """Stannis is not discarded: Davos is a plain 2.

    Attacker 1 knight (2) + Davos 2 = 4 vs defender 2 footmen (2) + Jaime 2 = 4: a tie, Lannister
    is higher on Fiefdoms and wins; Jaime's sword - 0 fortifications = 1 casualty, the knight.
    """
    r = fight(
        "kingswood",
        side("baratheon", {"knight": 1}, "ser_davos_seaworth"),
        side("lannister", {"footman": 2}, "ser_jaime_lannister"),
        fiefdoms=["lannister", "baratheon"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", card=2, card_modifiers=0, swords=0, total=4)
    assert destroyed(r, "attacker") == {"knight": 1.0}
    assert routed(r, "attacker") == {}


def test_brienne_of_tarth_printed_values():
    """Brienne of Tarth 2 / 1 sword / 1 fortification, attacking and losing.

    Attacker 2 footmen (2) + Brienne 2 = 4 vs defender 1 footman + 1 knight (3) + Jaime 2 = 5:
    Lannister wins. Casualties: Jaime 1 sword - Brienne 1 fortification = 0, so both Baratheon
    footmen retreat routed.
    """
    r = fight(
        "blackwater",
        side("baratheon", {"footman": 2}, "brienne_of_tarth"),
        side("lannister", {"footman": 1, "knight": 1}, "ser_jaime_lannister"),
        fiefdoms=["baratheon", "lannister"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", units=2, card=2, swords=1, fortifications=1, total=4)
    check(r, "defender", units=3, card=2, swords=1, total=5)
    assert destroyed(r, "attacker") == {}
    assert routed(r, "attacker") == {"footman": 2.0}


def test_salladhor_saan_supported_zeroes_other_ships():
    """Salladhor, supported by a Baratheon ship, zeroes every non-Baratheon ship.

    Sea battle in Blackwater Bay. Attacker Greyjoy 3 ships (3 -> 0) + Lannister supporting ship
    (1 -> 0) + Dagmar 1 = 1 vs defender Baratheon 1 ship (1) + own supporting ship (1) +
    Salladhor 1 = 3: Baratheon wins (without the ability Greyjoy would have 5). Salladhor has no
    swords, Dagmar 1 fortification: the three Greyjoy ships retreat routed.
    """
    r = fight(
        "blackwater_bay",
        side("greyjoy", {"ship": 3}, "dagmar_cleftjaw"),
        side("baratheon", {"ship": 1}, "salladhor_saan"),
        fiefdoms=["greyjoy", "baratheon"],
        supports=(
            support("lannister", "attacker", {"ship": 1}),
            support("baratheon", "defender", {"ship": 1}),
        ),
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", units=0, support=0, card=1, total=1)
    check(r, "defender", units=1, support=1, card=1, total=3)
    assert destroyed(r, "attacker") == {}
    assert routed(r, "attacker") == {"ship": 3.0}


def test_salladhor_saan_unsupported_ships_count():
    """Same sea battle without the Baratheon support: Salladhor's condition fails.

    Attacker 3 ships (3) + Lannister ship (1) + Dagmar 1 = 5 vs defender 1 ship (1) +
    Salladhor 1 = 2: Greyjoy wins; Dagmar 1 sword - 0 = 1 Baratheon ship destroyed.
    """
    r = fight(
        "blackwater_bay",
        side("greyjoy", {"ship": 3}, "dagmar_cleftjaw"),
        side("baratheon", {"ship": 1}, "salladhor_saan"),
        fiefdoms=["greyjoy", "baratheon"],
        supports=(support("lannister", "attacker", {"ship": 1}),),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=3, support=1, card=1, total=5)
    check(r, "defender", units=1, support=0, total=2)
    assert destroyed(r, "defender") == {"ship": 1.0}


def test_salladhor_saan_zeroes_victarion_bonus():
    """Salladhor (supported) against Victarion: the Greyjoy ships are worth nothing, bonus included.

    Attacker 2 ships (0) + Victarion 3 + bonus 0 (instead of +2) = 3 vs defender 2 ships (2) +
    own supporting ship (1) + Salladhor 1 = 4: Baratheon wins (without Salladhor: 2 + 3 + 2 = 7).
    """
    r = fight(
        "shipbreaker_bay",
        side("greyjoy", {"ship": 2}, "victarion_greyjoy"),
        side("baratheon", {"ship": 2}, "salladhor_saan"),
        fiefdoms=["greyjoy", "baratheon"],
        supports=(support("baratheon", "defender", {"ship": 1}),),
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", units=0, card=3, card_modifiers=0, total=3)
    check(r, "defender", units=2, support=1, card=1, total=4)


def test_salladhor_saan_land_battle_zeroes_enemy_supporting_ship():
    """Land battle: Salladhor defends Kingswood with a Baratheon footman supporting him.

    Attacker Lannister 1 knight (2) + own supporting ship (1 -> 0) + Jaime 2 = 4 vs defender
    1 knight (2) + supporting footman (1) + Salladhor 1 = 4: tie, Baratheon higher on Fiefdoms
    wins (the ship would have given Lannister 5).
    """
    r = fight(
        "kingswood",
        side("lannister", {"knight": 1}, "ser_jaime_lannister"),
        side("baratheon", {"knight": 1}, "salladhor_saan"),
        fiefdoms=["baratheon", "lannister"],
        supports=(
            support("lannister", "attacker", {"ship": 1}),
            support("baratheon", "defender", {"footman": 1}),
        ),
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", support=0, total=4)
    check(r, "defender", support=1, total=4)


def test_melisandre_printed_values():
    """Melisandre 1 / 1 sword / 0.

    Attacker 2 knights (4) + Melisandre 1 = 5 vs defender Stark 2 footmen (2) + Greatjon 2 = 4:
    Baratheon wins; 1 sword - 0 = 1 Stark footman destroyed, the other routed.
    """
    r = fight(
        "kingswood",
        side("baratheon", {"knight": 2}, "melisandre"),
        side("stark", {"footman": 2}, "greatjon_umber"),
        fiefdoms=["stark", "baratheon"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=1, swords=1, fortifications=0, total=5)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_patchface_tie_resolves_like_a_plain_zero():
    """Patchface (0, no icons) acts only after combat.

    Attacker 1 knight (2) + Patchface 0 = 2 vs defender 1 footman (1) + Rodrick 1 = 2: tie,
    Baratheon higher on Fiefdoms wins; no swords, the Stark footman retreats routed. The engine
    must additionally let Baratheon look at Stark's hand and discard one card of its choice.
    """
    r = fight(
        "kingswood",
        side("baratheon", {"knight": 1}, "patchface"),
        side("stark", {"footman": 1}, "ser_rodrick_cassel"),
        fiefdoms=["baratheon", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=0, card_modifiers=0, swords=0, fortifications=0, total=2)
    check(r, "defender", card=1, fortifications=2, total=2)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 1.0}
    assert r.notes == {}


# === Lannister ====================================================================================


def test_tywin_lannister_wins_two_power():
    """Tywin wins: Lannister takes 2 power.

    Attacker 2 knights (4) + Tywin 4 = 8 vs defender 2 footmen (2) + Eddard 4 = 6: Lannister wins,
    power attacker +2. Tywin has no swords, so both Stark footmen retreat routed.
    """
    r = fight(
        "the_twins",
        side("lannister", {"knight": 2}, "tywin_lannister"),
        side("stark", {"footman": 2}, "eddard_stark"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    assert r.power == {"attacker": 2.0, "defender": 0.0}
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}


def test_tywin_lannister_loses_no_power():
    """Tywin loses: no power.

    Attacker 1 footman (1) + Tywin 4 = 5 vs defender 2 knights (4) + Eddard 4 = 8: Stark wins;
    Eddard 2 swords - 0 = 2 casualties but Lannister has only its footman, which is destroyed.
    """
    r = fight(
        "the_twins",
        side("lannister", {"footman": 1}, "tywin_lannister"),
        side("stark", {"knight": 2}, "eddard_stark"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 0.0
    assert r.power == {"attacker": 0.0, "defender": 0.0}
    assert destroyed(r, "attacker") == {"footman": 1.0}
    assert routed(r, "attacker") == {}


def test_ser_gregor_clegane_printed_values():
    """Ser Gregor Clegane 3 / 3 swords / 0.

    Attacker 1 knight + 1 footman (3) + Gregor 3 = 6 vs defender 3 footmen (3) + Greatjon 2 = 5:
    Lannister wins; 3 swords - 0 = 3, all three Stark footmen are destroyed.
    """
    r = fight(
        "stoney_sept",
        side("lannister", {"knight": 1, "footman": 1}, "ser_gregor_clegane"),
        side("stark", {"footman": 3}, "greatjon_umber"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=3, card=3, swords=3, fortifications=0, total=6)
    assert destroyed(r, "defender") == {"footman": 3.0}
    assert routed(r, "defender") == {}
    assert r.casualties["defender"]["destroyed_distribution"] == [0.0, 0.0, 0.0, 1.0]


def test_ser_jaime_lannister_printed_values():
    """Ser Jaime Lannister 2 / 1 sword / 0.

    Attacker 1 knight + 1 footman (3) + Jaime 2 = 5 vs defender Tyrell 2 footmen (2) + Randyll 2
    = 4: Lannister wins; 1 sword - 0 = 1 footman destroyed, 1 routed.
    """
    r = fight(
        "the_twins",
        side("lannister", {"knight": 1, "footman": 1}, "ser_jaime_lannister"),
        side("tyrell", {"footman": 2}, "randyll_tarly"),
        fiefdoms=["tyrell", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=2, swords=1, fortifications=0, total=5)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_the_hound_printed_values():
    """The Hound 2 / 0 / 2 fortifications, defending and losing.

    Defender 2 footmen (2) + Hound 2 = 4 vs attacker Stark 2 knights (4) + march+1 (1) + Eddard 4
    = 9: Stark wins; Eddard 2 swords - Hound 2 fortifications = 0, both footmen routed.
    """
    r = fight(
        "karhold",
        side("stark", {"knight": 2}, "eddard_stark", order="march+1"),
        side("lannister", {"footman": 2}, "the_hound"),
        fiefdoms=["lannister", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=2, swords=0, fortifications=2, total=4)
    check(r, "attacker", total=9, swords=2)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}


def test_ser_kevan_lannister_attacking_footmen_count_double():
    """Kevan attacking: own footmen, including supporting Lannister footmen, are worth 2.

    Attacker 2 footmen (2) + Lannister supporting footman (1) + Greyjoy supporting footman (1) +
    Kevan 1 + bonus 3 (2 attacking + 1 supporting Lannister footman; the Greyjoy one is not
    Lannister) = 8 vs defender 2 knights (4) + defense+1 (1) + Roose 2 = 7: Lannister wins
    (5 without the bonus). No swords: both Stark knights retreat routed.
    """
    r = fight(
        "the_twins",
        side("lannister", {"footman": 2}, "ser_kevan_lannister"),
        side("stark", {"knight": 2}, "roose_bolton", order="defense+1"),
        fiefdoms=["stark", "lannister"],
        supports=(
            support("lannister", "attacker", {"footman": 1}),
            support("greyjoy", "attacker", {"footman": 1}),
        ),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=2, support=2, card=1, card_modifiers=3, total=8)
    check(r, "defender", total=7)
    assert routed(r, "defender") == {"knight": 2.0}


def test_ser_kevan_lannister_defending_no_bonus():
    """Kevan defending: no bonus.

    Defender 2 footmen (2) + Kevan 1 = 3 vs attacker Stark 1 knight (2) + Greatjon 2 = 4: Stark
    wins; 1 sword - 0 = 1 Lannister footman destroyed, 1 routed.
    """
    r = fight(
        "the_twins",
        side("stark", {"knight": 1}, "greatjon_umber"),
        side("lannister", {"footman": 2}, "ser_kevan_lannister"),
        fiefdoms=["lannister", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", units=2, card=1, card_modifiers=0, total=3)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_tyrion_lannister_cancels_eddard():
    """Tyrion sends Eddard back; Stark's only other card is Roose.

    Before the cancel: attacker 2 knights (4) + Tyrion 1 = 5 vs defender 1 knight (2) + Eddard 4
    = 6, Lannister loses. Tyrion cancels (it strictly helps): Stark must play Roose, 2 + 2 = 4 < 5,
    Lannister wins. No swords: the Stark knight retreats routed.
    """
    spec = make_spec(
        "riverrun",
        side("lannister", {"knight": 2}, "tyrion_lannister"),
        side("stark", {"knight": 1}, "eddard_stark", hand=["eddard_stark", "roose_bolton"]),
        fiefdoms=["stark", "lannister"],
    )
    r = combat_odds(spec, model="fixed")
    assert r.p_attacker_wins == 1.0
    assert r.notes["tyrion_lannister|eddard_stark"] == (
        "tyrion_lannister cancels eddard_stark; roose_bolton replaces it",
    )
    check(r, "defender", card=2, total=4)
    check(r, "attacker", card=1, total=5)
    assert routed(r, "defender") == {"knight": 1.0}
    pair = card_pair_breakdown(parse_battle(spec), "tyrion_lannister", "eddard_stark")
    assert int(pair.loc["defender", "card"]) == 2


def test_tyrion_lannister_opponent_has_no_other_card():
    """Tyrion cancels Stark's last card: Stark fights without a house card.

    Attacker 2 knights (4) + Tyrion 1 = 5 vs defender 1 knight (2) + Eddard 4 = 6; after the
    cancel the defender has 2 + no card = 2 < 5: Lannister wins.
    """
    r = fight(
        "riverrun",
        side("lannister", {"knight": 2}, "tyrion_lannister"),
        side("stark", {"knight": 1}, "eddard_stark"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    assert r.notes["tyrion_lannister|eddard_stark"] == (
        "tyrion_lannister cancels eddard_stark; no card left",
    )
    check(r, "defender", card=0, swords=0, total=2)


def test_tyrion_lannister_keeps_when_cancel_does_not_help():
    """Cancelling Eddard would not help: Stark would answer with Roose and still win the tie.

    Attacker 2 knights (4) + Tyrion 1 = 5 vs defender 1 knight + 1 footman (3) + Eddard 4 = 7.
    After a cancel Stark's best reply is Roose: 3 + 2 = 5, tie, Stark higher on Fiefdoms wins
    (Rodrick would give only 4). So Tyrion does not cancel: Eddard stays (card 4, no note), Stark
    wins and Eddard's 2 swords destroy both Lannister knights.
    """
    r = fight(
        "riverrun",
        side("lannister", {"knight": 2}, "tyrion_lannister"),
        side(
            "stark",
            {"knight": 1, "footman": 1},
            "eddard_stark",
            hand=["eddard_stark", "roose_bolton", "ser_rodrick_cassel"],
        ),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 0.0
    assert r.notes == {}
    check(r, "defender", card=4, swords=2, total=7)
    assert destroyed(r, "attacker") == {"knight": 2.0}


def test_tyrion_lannister_cancels_mace_before_it_strikes():
    """Cancel abilities resolve before 'immediately' abilities: Mace never kills the footman.

    Attacker 2 footmen + 1 knight (4) + Tyrion 1 = 5 vs defender Tyrell 1 knight (2) + Mace 4 = 6
    (and Mace would kill a footman: 4 vs 6). Tyrion cancels Mace first; Tyrell's only other card
    is Loras: 2 + 3 = 5 = 5, Lannister higher on Fiefdoms wins the tie, and no Lannister footman
    is lost. (Had Mace struck before the cancel, Lannister would have 4 < 5 and lose.)
    """
    r = fight(
        "searoad_marches",
        side("lannister", {"footman": 2, "knight": 1}, "tyrion_lannister"),
        side("tyrell", {"knight": 1}, "mace_tyrell", hand=["mace_tyrell", "ser_loras_tyrell"]),
        fiefdoms=["lannister", "tyrell"],
        iron_throne=["tyrell", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    assert r.notes["tyrion_lannister|mace_tyrell"] == (
        "tyrion_lannister cancels mace_tyrell; ser_loras_tyrell replaces it",
    )
    check(r, "attacker", units=4, total=5)
    check(r, "defender", card=3, total=5)
    assert destroyed(r, "attacker") == {}
    assert routed(r, "defender") == {"knight": 1.0}


def test_cersei_lannister_win_resolves_like_a_plain_zero():
    """Cersei (0, no icons) acts only after winning.

    Attacker 3 knights (6) + Cersei 0 = 6 vs defender Tyrell 2 footmen (2) + Margaery 1 = 3:
    Lannister wins, no swords, both footmen routed, no power. The engine must additionally let
    Lannister remove one Tyrell order token from anywhere on the board.
    """
    r = fight(
        "searoad_marches",
        side("lannister", {"knight": 3}, "cersei_lannister"),
        side("tyrell", {"footman": 2}, "margaery_tyrell"),
        fiefdoms=["tyrell", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=0, card_modifiers=0, swords=0, total=6)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}
    assert r.power == {"attacker": 0.0, "defender": 0.0}
    assert r.notes == {}


# === Stark ========================================================================================


def test_eddard_stark_printed_values():
    """Eddard Stark 4 / 2 swords / 0.

    Attacker 1 knight (2) + Eddard 4 = 6 vs defender Greyjoy 2 footmen (2) + Dagmar 1 = 3: Stark
    wins; 2 swords - Dagmar's 1 fortification = 1 footman destroyed, 1 routed.
    """
    r = fight(
        "searoad_marches",
        side("stark", {"knight": 1}, "eddard_stark"),
        side("greyjoy", {"footman": 2}, "dagmar_cleftjaw"),
        fiefdoms=["greyjoy", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=4, swords=2, fortifications=0, total=6)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_robb_stark_win_loser_routed_as_usual():
    """Robb (3, no icons) defends and wins; his text only picks the retreat area.

    Defender 1 knight (2) + Robb 3 = 5 vs attacker Lannister 2 footmen (2) + Jaime 2 = 4: Stark
    wins; no swords, both Lannister footmen retreat routed. The engine must additionally let
    Stark choose where they retreat (a legal area costing the fewest units).
    """
    r = fight(
        "the_twins",
        side("lannister", {"footman": 2}, "ser_jaime_lannister"),
        side("stark", {"knight": 1}, "robb_stark"),
        fiefdoms=["lannister", "stark"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "defender", card=3, card_modifiers=0, swords=0, total=5)
    assert destroyed(r, "attacker") == {}
    assert routed(r, "attacker") == {"footman": 2.0}


def test_roose_bolton_loss_resolves_like_a_plain_two():
    """Roose (2, no icons) loses; his text acts after combat.

    Defender 2 footmen (2) + Roose 2 = 4 vs attacker Greyjoy 2 knights (4) + Euron 4 = 8: Greyjoy
    wins; Euron 1 sword - 0 = 1 footman destroyed, 1 routed. The engine must additionally return
    Stark's whole discard pile, Roose included, to Stark's hand.
    """
    r = fight(
        "karhold",
        side("greyjoy", {"knight": 2}, "euron_crows_eye"),
        side("stark", {"footman": 2}, "roose_bolton"),
        fiefdoms=["stark", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=2, card_modifiers=0, total=4)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_greatjon_umber_printed_values():
    """Greatjon Umber 2 / 1 sword / 0.

    Attacker 2 footmen (2) + Greatjon 2 = 4 vs defender Baratheon 1 footman (1) + Melisandre 1 = 2:
    Stark wins; 1 sword - 0 = 1, the Baratheon footman is destroyed.
    """
    r = fight(
        "kingswood",
        side("stark", {"footman": 2}, "greatjon_umber"),
        side("baratheon", {"footman": 1}, "melisandre"),
        fiefdoms=["baratheon", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=2, swords=1, fortifications=0, total=4)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {}


def test_ser_rodrick_cassel_printed_values():
    """Ser Rodrick Cassel 1 / 0 / 2 fortifications.

    Defender 2 footmen (2) + Rodrick 1 = 3 vs attacker Lannister 2 knights (4) + Gregor 3 = 7:
    Lannister wins; 3 swords - 2 fortifications = 1 footman destroyed, 1 routed.
    """
    r = fight(
        "the_twins",
        side("lannister", {"knight": 2}, "ser_gregor_clegane"),
        side("stark", {"footman": 2}, "ser_rodrick_cassel"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=1, swords=0, fortifications=2, total=3)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_the_blackfish_no_sword_casualties():
    """The Blackfish loses but takes no casualties from Gregor's swords.

    Defender 2 footmen + 1 knight (4) + Blackfish 1 = 5 vs attacker 2 knights (4) + march+1 (1) +
    Gregor 3 = 8: Lannister wins; 3 swords would kill 3, the Blackfish prevents it: nothing
    destroyed, all three Stark units retreat routed.
    """
    r = fight(
        "the_twins",
        side("lannister", {"knight": 2}, "ser_gregor_clegane", order="march+1"),
        side("stark", {"footman": 2, "knight": 1}, "the_blackfish"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=1, total=5)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0, "knight": 1.0}


def test_the_blackfish_retreat_losses_still_apply():
    """The Blackfish does not save units that cannot retreat.

    Defender Stark 1 footman + 1 siege engine in Harrenhal (1 + 0, defending engines add nothing)
    + Blackfish 1 = 2 vs attacker Tyrell 1 knight (2) + Garlan 2 = 4: Tyrell wins; Garlan's 2
    swords are blocked, but the siege engine cannot retreat and is destroyed; the footman routs.
    """
    r = fight(
        "harrenhal",
        side("tyrell", {"knight": 1}, "ser_garlan_tyrell"),
        side("stark", {"footman": 1, "siege_engine": 1}, "the_blackfish"),
        fiefdoms=["stark", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", units=1, total=2)
    assert destroyed(r, "defender") == {"siege_engine": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_the_blackfish_without_retreat_loses_everything():
    """The Blackfish with no legal retreat: every unit is lost even though no casualties apply.

    Defender 2 footmen (2) + Blackfish 1 = 3 vs attacker Lannister 1 knight (2) + Jaime 2 = 4:
    Lannister wins; the sword is blocked but with no retreat both footmen are destroyed.
    """
    r = fight(
        "the_twins",
        side("lannister", {"knight": 1}, "ser_jaime_lannister"),
        side("stark", {"footman": 2}, "the_blackfish", no_retreat=True),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    assert destroyed(r, "defender") == {"footman": 2.0}
    assert routed(r, "defender") == {}


def test_the_blackfish_ignores_tides_skulls_and_swords():
    """Tides of Battle on: the Blackfish loses every draw but never loses a unit to casualties.

    Attacker 3 knights (6) + Gregor 3 = 9 (+0..3 Tides) vs defender 2 footmen (2) + Blackfish 1 = 3
    (+0..3 Tides, at most 6): Lannister always wins. Swords and skulls against Stark are ignored,
    so both footmen always retreat routed. Lannister still loses its last-choice unit (a knight)
    when Stark draws one of the 2 skull cards: 2/24 = 1/12 knights expected.
    """
    r = fight(
        "the_twins",
        side("lannister", {"knight": 3}, "ser_gregor_clegane"),
        side("stark", {"footman": 2}, "the_blackfish"),
        fiefdoms=["stark", "lannister"],
        tides_of_battle=True,
    )
    assert r.p_attacker_wins == pytest.approx(1.0, abs=1e-12)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == pytest.approx({"footman": 2.0}, abs=1e-12)
    assert destroyed(r, "attacker") == pytest.approx({"knight": 1 / 12}, abs=1e-12)


def test_the_blackfish_saves_footman_from_mace():
    """Mace Tyrell's ability is a house-card casualty: the Blackfish prevents it.

    Attacker Tyrell 1 knight (2) + Mace 4 = 6 vs defender 2 footmen (2, Mace kills none) +
    Blackfish 1 = 3: Tyrell wins; Mace has no swords: nothing destroyed, both footmen routed.
    """
    r = fight(
        "the_twins",
        side("tyrell", {"knight": 1}, "mace_tyrell"),
        side("stark", {"footman": 2}, "the_blackfish"),
        fiefdoms=["stark", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", units=2, total=3)
    assert "the_blackfish saves the footman from mace_tyrell" in all_notes(r)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}


def test_catelyn_stark_doubles_defense_order():
    """Catelyn with a defense +2 order in the embattled area: it counts 4.

    Defender 2 footmen (2) + defense+2 (2) + Catelyn 0 + 2 = 6 vs attacker Lannister 1 knight +
    1 footman (3) + Jaime 2 = 5: Stark wins (only 4 without Catelyn's text). Catelyn has no
    swords: both Lannister units retreat routed.
    """
    r = fight(
        "karhold",
        side("lannister", {"knight": 1, "footman": 1}, "ser_jaime_lannister"),
        side("stark", {"footman": 2}, "catelyn_stark", order="defense+2"),
        fiefdoms=["lannister", "stark"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "defender", order=2, card=0, card_modifiers=2, total=6)
    assert routed(r, "attacker") == {"footman": 1.0, "knight": 1.0}


def test_catelyn_stark_without_defense_order():
    """Catelyn with a support order (not a defense order) in the area: nothing to double.

    Defender 2 footmen (2) + Catelyn 0 = 2 vs attacker 3 + Jaime 2 = 5: Lannister wins; 1 sword
    - 0 = 1 Stark footman destroyed, 1 routed.
    """
    r = fight(
        "karhold",
        side("lannister", {"knight": 1, "footman": 1}, "ser_jaime_lannister"),
        side("stark", {"footman": 2}, "catelyn_stark", order="support+0"),
        fiefdoms=["lannister", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", order=0, card_modifiers=0, total=2)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


# === Greyjoy ======================================================================================


def test_euron_crows_eye_printed_values():
    """Euron Crow's Eye 4 / 1 sword / 0, sea battle.

    Attacker 2 ships (2) + Euron 4 = 6 vs defender Lannister 3 ships (3) + Jaime 2 = 5: Greyjoy
    wins; 1 sword - 0 = 1 ship destroyed, 2 routed.
    """
    r = fight(
        "ironmans_bay",
        side("greyjoy", {"ship": 2}, "euron_crows_eye"),
        side("lannister", {"ship": 3}, "ser_jaime_lannister"),
        fiefdoms=["lannister", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=2, card=4, swords=1, fortifications=0, total=6)
    assert destroyed(r, "defender") == {"ship": 1.0}
    assert routed(r, "defender") == {"ship": 2.0}


def test_victarion_greyjoy_attacking_ships_count_double():
    """Victarion attacking: Greyjoy ships, including supporting Greyjoy ships, are worth 2.

    Sea battle. Attacker 2 ships (2) + supporting Greyjoy ship (1) + supporting Stark ship (1) +
    Victarion 3 + bonus 3 (2 attacking + 1 supporting Greyjoy ship; the Stark ship is not
    Greyjoy's) = 10 vs defender 3 ships (3) + defense+2 (2) + Tywin 4 = 9: Greyjoy wins (7 without
    the bonus). No swords: the three Lannister ships retreat routed.
    """
    r = fight(
        "the_golden_sound",
        side("greyjoy", {"ship": 2}, "victarion_greyjoy"),
        side("lannister", {"ship": 3}, "tywin_lannister", order="defense+2"),
        fiefdoms=["lannister", "greyjoy"],
        supports=(
            support("greyjoy", "attacker", {"ship": 1}),
            support("stark", "attacker", {"ship": 1}),
        ),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=2, support=2, card=3, card_modifiers=3, total=10)
    check(r, "defender", total=9)
    assert routed(r, "defender") == {"ship": 3.0}


def test_victarion_greyjoy_supporting_ships_in_land_battle():
    """Victarion's bonus also covers Greyjoy ships supporting a land attack.

    Attacker 1 knight (2) + 2 supporting Greyjoy ships (2) + Victarion 3 + bonus 2 = 9 vs defender
    Stark 2 knights (4) + Eddard 4 = 8: Greyjoy wins (7 without the bonus).
    """
    r = fight(
        "searoad_marches",
        side("greyjoy", {"knight": 1}, "victarion_greyjoy"),
        side("stark", {"knight": 2}, "eddard_stark"),
        fiefdoms=["stark", "greyjoy"],
        supports=(support("greyjoy", "attacker", {"ship": 2}),),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=2, support=2, card=3, card_modifiers=2, total=9)


def test_victarion_greyjoy_defending_no_bonus():
    """Victarion defending: no bonus.

    Defender 2 ships (2) + Victarion 3 = 5 vs attacker Lannister 2 ships (2) + Tywin 4 = 6:
    Lannister wins and Tywin takes 2 power; no swords, both Greyjoy ships routed.
    """
    r = fight(
        "ironmans_bay",
        side("lannister", {"ship": 2}, "tywin_lannister"),
        side("greyjoy", {"ship": 2}, "victarion_greyjoy"),
        fiefdoms=["greyjoy", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card_modifiers=0, total=5)
    assert r.power["attacker"] == 2.0
    assert routed(r, "defender") == {"ship": 2.0}


def test_balon_greyjoy_zeroes_printed_strength():
    """Balon: Gregor's printed 3 counts 0, his 3 swords stay.

    Attacker 2 footmen (2) + Balon 2 = 4 vs defender 1 footman (1) + Gregor 3 -> 0 = 1: Greyjoy
    wins (without Balon: 4 = 4 and Lannister, higher on Fiefdoms, would win). Balon has no
    swords: the footman retreats routed.
    """
    r = fight(
        "searoad_marches",
        side("greyjoy", {"footman": 2}, "balon_greyjoy"),
        side("lannister", {"footman": 1}, "ser_gregor_clegane"),
        fiefdoms=["lannister", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=0, swords=3, total=1)
    check(r, "attacker", card=2, total=4)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 1.0}


def test_balon_greyjoy_keeps_stannis_bonus():
    """Balon zeroes only the printed value: Stannis keeps his +1 (Greyjoy above on Iron Throne).

    Defender Baratheon 2 knights (4) + Stannis 4 -> 0 + 1 = 5 vs attacker 2 knights (4) + Balon 2
    = 6: Greyjoy wins.
    """
    r = fight(
        "kingswood",
        side("greyjoy", {"knight": 2}, "balon_greyjoy"),
        side("baratheon", {"knight": 2}, "stannis_baratheon"),
        fiefdoms=["baratheon", "greyjoy"],
        iron_throne=["greyjoy", "baratheon"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=0, card_modifiers=1, total=5)


def test_theon_greyjoy_defending_castle():
    """Theon defending Harrenhal (castle): +1 and a sword.

    Defender 2 footmen (2) + Theon 2 + 1 = 5 vs attacker Stark 2 footmen (2) + Greatjon 2 = 4:
    Greyjoy wins (4 = 4 without the bonus, and Stark is higher on Fiefdoms). Theon's sword:
    1 - 0 = 1 Stark footman destroyed, the other routed.
    """
    r = fight(
        "harrenhal",
        side("stark", {"footman": 2}, "greatjon_umber"),
        side("greyjoy", {"footman": 2}, "theon_greyjoy"),
        fiefdoms=["stark", "greyjoy"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "defender", card=2, card_modifiers=1, swords=1, total=5)
    assert destroyed(r, "attacker") == {"footman": 1.0}
    assert routed(r, "attacker") == {"footman": 1.0}


def test_theon_greyjoy_defending_plain_area():
    """Theon defending Karhold (no castle): no bonus.

    Defender 2 + Theon 2 = 4 vs attacker 2 + Greatjon 2 = 4: tie, Stark higher on Fiefdoms wins;
    Greatjon's sword destroys 1 Greyjoy footman, the other routs.
    """
    r = fight(
        "karhold",
        side("stark", {"footman": 2}, "greatjon_umber"),
        side("greyjoy", {"footman": 2}, "theon_greyjoy"),
        fiefdoms=["stark", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=2, card_modifiers=0, swords=0, total=4)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_theon_greyjoy_attacking_castle_no_bonus():
    """Theon attacking a castle: the bonus is for defending only.

    Attacker 1 knight (2) + Theon 2 = 4 vs defender Stark 1 knight (2) + Roose 2 = 4: tie, Stark
    higher on Fiefdoms wins.
    """
    r = fight(
        "moat_cailin",
        side("greyjoy", {"knight": 1}, "theon_greyjoy"),
        side("stark", {"knight": 1}, "roose_bolton"),
        fiefdoms=["stark", "greyjoy"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", card_modifiers=0, swords=0, total=4)


def test_dagmar_cleftjaw_printed_values():
    """Dagmar Cleftjaw 1 / 1 sword / 1 fortification, defending and losing.

    Defender 2 footmen (2) + Dagmar 1 = 3 vs attacker Stark 2 knights (4) + Greatjon 2 = 6: Stark
    wins; 1 sword - 1 fortification = 0, both footmen routed.
    """
    r = fight(
        "karhold",
        side("stark", {"knight": 2}, "greatjon_umber"),
        side("greyjoy", {"footman": 2}, "dagmar_cleftjaw"),
        fiefdoms=["greyjoy", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=1, swords=1, fortifications=1, total=3)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}


def test_asha_greyjoy_unsupported_gains_icons():
    """Asha without any support: two extra swords and one fortification.

    Attacker 2 knights (4) + Asha 1 = 5 vs defender Stark 2 footmen (2) + Roose 2 = 4: Greyjoy
    wins; 2 swords - 0 = 2, both Stark footmen destroyed.
    """
    r = fight(
        "kingswood",
        side("greyjoy", {"knight": 2}, "asha_greyjoy"),
        side("stark", {"footman": 2}, "roose_bolton"),
        fiefdoms=["stark", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=1, swords=2, fortifications=1, total=5)
    assert destroyed(r, "defender") == {"footman": 2.0}
    assert routed(r, "defender") == {}


def test_asha_greyjoy_supported_by_another_house():
    """Asha supported by a Lannister footman: supported is supported (FAQ), no icons.

    Attacker 2 knights (4) + Lannister supporting footman (1) + Asha 1 = 6 vs 4: Greyjoy wins,
    0 swords: both Stark footmen retreat routed.
    """
    r = fight(
        "kingswood",
        side("greyjoy", {"knight": 2}, "asha_greyjoy"),
        side("stark", {"footman": 2}, "roose_bolton"),
        fiefdoms=["stark", "greyjoy"],
        supports=(support("lannister", "attacker", {"footman": 1}),),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", support=1, swords=0, fortifications=0, total=6)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}


def test_asha_greyjoy_fortification_saves_a_unit_when_losing():
    """Asha defending alone and losing: her fortification cancels Greatjon's sword.

    Defender 2 footmen (2) + Asha 1 = 3 vs attacker Stark 2 knights (4) + Greatjon 2 = 6: Stark
    wins; 1 sword - 1 fortification = 0: both Greyjoy footmen routed.
    """
    r = fight(
        "kingswood",
        side("stark", {"knight": 2}, "greatjon_umber"),
        side("greyjoy", {"footman": 2}, "asha_greyjoy"),
        fiefdoms=["greyjoy", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", swords=2, fortifications=1, total=3)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}


def test_aeron_damphair_pays_two_power_to_swap():
    """Aeron, losing, pays 2 power and plays Euron instead.

    Attacker 2 knights (4) + Aeron 0 = 4 vs defender Stark 2 knights (4) + Roose 2 = 6: losing.
    Swap to Euron: 4 + 4 = 8 > 6, Greyjoy wins and pays 2 power (power attacker -2). Euron's
    sword: 1 - 0 = 1 Stark casualty; the loser's order (siege, footman, ship, knight) takes a
    knight, the other knight routs.
    """
    r = fight(
        "kingswood",
        side(
            "greyjoy", {"knight": 2}, "aeron_damphair", hand=["aeron_damphair", "euron_crows_eye"]
        ),
        side("stark", {"knight": 2}, "roose_bolton"),
        fiefdoms=["stark", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0
    assert r.power == {"attacker": -2.0, "defender": 0.0}
    assert r.notes["aeron_damphair|roose_bolton"] == (
        "aeron_damphair pays 2 power for euron_crows_eye",
    )
    check(r, "attacker", card=4, swords=1, total=8)
    assert destroyed(r, "defender") == {"knight": 1.0}
    assert routed(r, "defender") == {"knight": 1.0}


def test_aeron_damphair_one_power_cannot_swap():
    """Aeron with only 1 power token cannot pay: he fights as a 0.

    Attacker 4 + Aeron 0 = 4 vs defender 6: Stark wins, no power paid; Roose has no swords, both
    Greyjoy knights rout.
    """
    r = fight(
        "kingswood",
        side(
            "greyjoy",
            {"knight": 2},
            "aeron_damphair",
            hand=["aeron_damphair", "euron_crows_eye"],
            power=1,
        ),
        side("stark", {"knight": 2}, "roose_bolton"),
        fiefdoms=["stark", "greyjoy"],
    )
    assert r.p_attacker_wins == 0.0
    assert r.power == {"attacker": 0.0, "defender": 0.0}
    assert r.notes == {}
    check(r, "attacker", card=0, total=4)
    assert routed(r, "attacker") == {"knight": 2.0}


def test_aeron_damphair_no_swap_when_it_does_not_help():
    """Aeron keeps his card when the swap would not change the result.

    Attacker 4 + Aeron 0 = 4 vs 6; the only other card, Dagmar, gives 4 + 1 = 5 < 6: still a loss,
    so Greyjoy keeps its 2 power.
    """
    r = fight(
        "kingswood",
        side(
            "greyjoy", {"knight": 2}, "aeron_damphair", hand=["aeron_damphair", "dagmar_cleftjaw"]
        ),
        side("stark", {"knight": 2}, "roose_bolton"),
        fiefdoms=["stark", "greyjoy"],
    )
    assert r.p_attacker_wins == 0.0
    assert r.power == {"attacker": 0.0, "defender": 0.0}
    check(r, "attacker", card=0)


def test_aeron_damphair_before_doran_must_pay():
    """'Immediately' abilities resolve in Iron Throne order; Greyjoy (above) decides first.

    Attacker 2 knights (4) + Aeron 0 = 4 vs defender Martell 2 knights (4) + Doran 0 = 4; Greyjoy
    tops Fiefdoms and would win the tie. Aeron resolves first: if he keeps his card, Doran then
    sends Greyjoy to the bottom of Fiefdoms and Martell wins the tie; so Greyjoy pays 2 power for
    Euron (8 > 4) and wins. Doran can no longer help and takes the first track (Iron Throne).
    """
    r = fight(
        "dornish_marches",
        side(
            "greyjoy", {"knight": 2}, "aeron_damphair", hand=["aeron_damphair", "euron_crows_eye"]
        ),
        side("martell", {"knight": 2}, "doran_martell"),
        fiefdoms=["greyjoy", "martell"],
        iron_throne=["greyjoy", "martell"],
    )
    assert r.p_attacker_wins == 1.0
    assert r.power == {"attacker": -2.0, "defender": 0.0}
    assert r.notes["aeron_damphair|doran_martell"] == (
        "aeron_damphair pays 2 power for euron_crows_eye",
        "doran_martell moves the opponent to the bottom of iron_throne",
    )


def test_aeron_damphair_after_doran_keeps_power():
    """Same cards, Martell above Greyjoy on the Iron Throne: Doran resolves first.

    Whatever track Doran picks, Aeron can answer (a Fiefdoms move is met by the swap to Euron), so
    every track loses for Martell and Doran takes the Iron Throne (Greyjoy is already last there).
    Aeron then keeps his card: 4 = 4, Greyjoy still tops Fiefdoms and wins without paying.
    """
    r = fight(
        "dornish_marches",
        side(
            "greyjoy", {"knight": 2}, "aeron_damphair", hand=["aeron_damphair", "euron_crows_eye"]
        ),
        side("martell", {"knight": 2}, "doran_martell"),
        fiefdoms=["greyjoy", "martell"],
        iron_throne=["martell", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0
    assert r.power == {"attacker": 0.0, "defender": 0.0}
    assert r.notes["aeron_damphair|doran_martell"] == (
        "doran_martell moves the opponent to the bottom of iron_throne",
    )
    check(r, "attacker", card=0, total=4)


# === Tyrell =======================================================================================


def test_mace_tyrell_destroys_defending_footman():
    """Mace kills one defending footman before strengths are compared.

    Attacker 2 footmen (2) + Mace 4 = 6 vs defender 3 footmen - 1 (2) + defense+1 (1) + Roose 2 =
    5: Tyrell wins (6 = 6 without the kill, and Stark is higher on Fiefdoms). Mace has no swords:
    destroyed 1 footman (Mace), routed 2 footmen.
    """
    r = fight(
        "the_twins",
        side("tyrell", {"footman": 2}, "mace_tyrell"),
        side("stark", {"footman": 3}, "roose_bolton", order="defense+1"),
        fiefdoms=["stark", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    assert r.notes["mace_tyrell|roose_bolton"] == ("mace_tyrell destroys a footman",)
    check(r, "defender", units=2, order=1, card=2, total=5)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 2.0}


def test_mace_tyrell_defending_kills_attacking_footman():
    """Mace defending kills one of the attacking footmen.

    Attacker Lannister 2 footmen + 1 knight (4 - 1 = 3) + Jaime 2 = 5 vs defender 1 knight (2) +
    Mace 4 = 6: Tyrell wins (6 = 6 without the kill, and Lannister is higher on Fiefdoms).
    Lannister loses the footman to Mace and nothing to swords; the other footman and the knight
    retreat routed.
    """
    r = fight(
        "searoad_marches",
        side("lannister", {"footman": 2, "knight": 1}, "ser_jaime_lannister"),
        side("tyrell", {"knight": 1}, "mace_tyrell"),
        fiefdoms=["lannister", "tyrell"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", units=3, total=5)
    assert destroyed(r, "attacker") == {"footman": 1.0}
    assert routed(r, "attacker") == {"footman": 1.0, "knight": 1.0}


def test_mace_tyrell_finds_no_footman():
    """Mace against knights only: nothing to destroy.

    Attacker 1 knight (2) + Mace 4 = 6 vs defender 2 knights (4) + Roose 2 = 6: tie, Stark higher
    on Fiefdoms wins.
    """
    r = fight(
        "the_twins",
        side("tyrell", {"knight": 1}, "mace_tyrell"),
        side("stark", {"knight": 2}, "roose_bolton"),
        fiefdoms=["stark", "tyrell"],
    )
    assert r.p_attacker_wins == 0.0
    assert r.notes["mace_tyrell|roose_bolton"] == ("mace_tyrell finds no footman",)
    check(r, "defender", units=4, total=6)
    assert destroyed(r, "defender") == {}


def test_ser_loras_tyrell_attack_win_resolves_like_a_plain_three():
    """Loras (3, no icons) acts after combat.

    Attacker 1 knight (2) + Loras 3 = 5 vs defender Martell 2 footmen (2) + Obara 2 = 4: Tyrell
    wins, no swords, both footmen routed. The engine must additionally move Tyrell's march order
    into the conquered area instead of discarding it.
    """
    r = fight(
        "dornish_marches",
        side("tyrell", {"knight": 1}, "ser_loras_tyrell"),
        side("martell", {"footman": 2}, "obara_sand"),
        fiefdoms=["martell", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=3, card_modifiers=0, swords=0, total=5)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}


def test_randyll_tarly_printed_values():
    """Randyll Tarly 2 / 1 sword / 0.

    Attacker 2 knights (4) + Randyll 2 = 6 vs defender Martell 2 footmen (2) + Darkstar 2 = 4:
    Tyrell wins; 1 sword - 0 = 1 footman destroyed, 1 routed.
    """
    r = fight(
        "dornish_marches",
        side("tyrell", {"knight": 2}, "randyll_tarly"),
        side("martell", {"footman": 2}, "darkstar"),
        fiefdoms=["martell", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=2, swords=1, fortifications=0, total=6)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_ser_garlan_tyrell_printed_values():
    """Ser Garlan Tyrell 2 / 2 swords / 0.

    Attacker 1 knight + 1 footman (3) + Garlan 2 = 5 vs defender Martell 2 footmen (2) + Obara 2
    = 4: Tyrell wins; 2 swords - 0 = 2, both footmen destroyed.
    """
    r = fight(
        "the_boneway",
        side("tyrell", {"knight": 1, "footman": 1}, "ser_garlan_tyrell"),
        side("martell", {"footman": 2}, "obara_sand"),
        fiefdoms=["martell", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=2, swords=2, fortifications=0, total=5)
    assert destroyed(r, "defender") == {"footman": 2.0}
    assert routed(r, "defender") == {}


def test_margaery_tyrell_printed_values():
    """Margaery Tyrell 1 / 0 / 1 fortification, defending and losing.

    Defender 1 knight (2) + Margaery 1 = 3 vs attacker Martell 1 knight (2) + Darkstar 2 = 4:
    Martell wins; 1 sword - 1 fortification = 0, the knight routs.
    """
    r = fight(
        "searoad_marches",
        side("martell", {"knight": 1}, "darkstar"),
        side("tyrell", {"knight": 1}, "margaery_tyrell"),
        fiefdoms=["tyrell", "martell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=1, swords=0, fortifications=1, total=3)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"knight": 1.0}


def test_alester_florent_printed_values():
    """Alester Florent 1 / 0 / 1 fortification, defending and losing.

    Defender 2 footmen (2) + Alester 1 = 3 vs attacker Lannister 2 knights (4) + Jaime 2 = 6:
    Lannister wins; 1 sword - 1 fortification = 0, both footmen rout.
    """
    r = fight(
        "stoney_sept",
        side("lannister", {"knight": 2}, "ser_jaime_lannister"),
        side("tyrell", {"footman": 2}, "alester_florent"),
        fiefdoms=["tyrell", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=1, swords=0, fortifications=1, total=3)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}


def test_queen_of_thorns_removes_own_house_support():
    """Queen of Thorns removes the Lannister support order; the Greyjoy one is out of reach.

    Attacker 1 knight (2) + Lannister supporting knight (2) + Greyjoy supporting footman (1) +
    Jaime 2 = 7 vs defender Tyrell 2 knights (4) + defense+2 (2) + Queen 0 = 6. The Queen removes
    Lannister's own support: 5 < 6, Tyrell wins. No swords: the Lannister knight routs.
    """
    r = fight(
        "the_reach",
        side("lannister", {"knight": 1}, "ser_jaime_lannister"),
        side("tyrell", {"knight": 2}, "queen_of_thorns", order="defense+2"),
        fiefdoms=["lannister", "tyrell"],
        supports=(
            support("lannister", "attacker", {"knight": 1}),
            support("greyjoy", "attacker", {"footman": 1}),
        ),
    )
    assert r.p_attacker_wins == 0.0
    assert r.notes["ser_jaime_lannister|queen_of_thorns"] == (
        "queen_of_thorns removes lannister's support #1",
    )
    check(r, "attacker", support=1, total=5)
    check(r, "defender", total=6)
    assert destroyed(r, "attacker") == {}
    assert routed(r, "attacker") == {"knight": 1.0}


def test_queen_of_thorns_picks_the_support_that_matters():
    """Two Lannister support orders: the Queen removes the one that turns the battle.

    Attacker 1 knight (2) + supporting footman (1) + supporting knight (2) + Jaime 2 = 7 vs 6.
    Removing the footman leaves 6 = 6 and Lannister, higher on Fiefdoms, wins the tie; removing
    the knight leaves 5 < 6. The Queen removes the knight: Tyrell wins.
    """
    r = fight(
        "the_reach",
        side("lannister", {"knight": 1}, "ser_jaime_lannister"),
        side("tyrell", {"knight": 2}, "queen_of_thorns", order="defense+2"),
        fiefdoms=["lannister", "tyrell"],
        supports=(
            support("lannister", "attacker", {"footman": 1}),
            support("lannister", "attacker", {"knight": 1}),
        ),
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", support=1, total=5)


def test_queen_of_thorns_cannot_remove_allied_support():
    """Only a Greyjoy (allied) support order backs Lannister: the Queen has no target.

    Attacker 1 knight (2) + Greyjoy supporting knight on support+1 (2 + 1) + Jaime 2 = 7 vs
    defender 2 knights (4) + defense+2 (2) + Queen 0 = 6: Lannister wins; Jaime's sword
    destroys one Tyrell knight (1 - 0), the other routs.
    """
    r = fight(
        "the_reach",
        side("lannister", {"knight": 1}, "ser_jaime_lannister"),
        side("tyrell", {"knight": 2}, "queen_of_thorns", order="defense+2"),
        fiefdoms=["lannister", "tyrell"],
        supports=(support("greyjoy", "attacker", {"knight": 1}, "support+1"),),
    )
    assert r.p_attacker_wins == 1.0
    assert r.notes["ser_jaime_lannister|queen_of_thorns"] == (
        "queen_of_thorns removes no supporting order",
    )
    check(r, "attacker", support=3, total=7)
    assert destroyed(r, "defender") == {"knight": 1.0}
    assert routed(r, "defender") == {"knight": 1.0}


# === Martell ======================================================================================


def test_the_red_viper_printed_values():
    """The Red Viper 4 / 2 swords / 1 fortification.

    Attacker 1 knight (2) + Red Viper 4 = 6 vs defender Tyrell 2 footmen + 1 knight (4) +
    Margaery 1 = 5: Martell wins; 2 swords - 1 fortification = 1 casualty, a footman (loser's
    order); 1 footman and the knight rout.
    """
    r = fight(
        "the_boneway",
        side("martell", {"knight": 1}, "the_red_viper"),
        side("tyrell", {"footman": 2, "knight": 1}, "margaery_tyrell"),
        fiefdoms=["tyrell", "martell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=4, swords=2, fortifications=1, total=6)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0, "knight": 1.0}


def test_areo_hotah_printed_values():
    """Areo Hotah 3 / 0 / 1 fortification, defending and losing.

    Defender 2 footmen (2) + Areo 3 = 5 vs attacker Tyrell 2 knights (4) + Garlan 2 = 6: Tyrell
    wins; 2 swords - 1 fortification = 1 footman destroyed, 1 routed.
    """
    r = fight(
        "dornish_marches",
        side("tyrell", {"knight": 2}, "ser_garlan_tyrell"),
        side("martell", {"footman": 2}, "areo_hotah"),
        fiefdoms=["martell", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=3, swords=0, fortifications=1, total=5)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_darkstar_printed_values():
    """Darkstar 2 / 1 sword / 0.

    Attacker 2 footmen (2) + Darkstar 2 = 4 vs defender Baratheon 1 footman (1) + Melisandre 1 =
    2: Martell wins; 1 sword - 0 = 1, the Baratheon footman is destroyed.
    """
    r = fight(
        "kingswood",
        side("martell", {"footman": 2}, "darkstar"),
        side("baratheon", {"footman": 1}, "melisandre"),
        fiefdoms=["baratheon", "martell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=2, swords=1, fortifications=0, total=4)
    assert destroyed(r, "defender") == {"footman": 1.0}


def test_obara_sand_printed_values():
    """Obara Sand 2 / 1 sword / 0, against a defender with a siege engine in a plain area.

    Attacker 1 knight (2) + Obara 2 = 4 vs defender Greyjoy 1 footman + 1 siege engine in
    Kingswood (1 + 0) + Dagmar 1 = 2: Martell wins; 1 sword - 1 fortification = 0, but the siege
    engine cannot retreat and is destroyed; the footman routs.
    """
    r = fight(
        "kingswood",
        side("martell", {"knight": 1}, "obara_sand"),
        side("greyjoy", {"footman": 1, "siege_engine": 1}, "dagmar_cleftjaw"),
        fiefdoms=["greyjoy", "martell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=2, swords=1, fortifications=0, total=4)
    check(r, "defender", units=1, total=2)
    assert destroyed(r, "defender") == {"siege_engine": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_arianne_martell_defending_loss_retreat_as_usual():
    """Arianne defends and loses: casualties and retreat as usual.

    Defender 2 footmen (2) + Arianne 1 = 3 vs attacker Tyrell 2 knights (4) + Randyll 2 = 6:
    Tyrell wins; 1 sword - 0 = 1 footman destroyed, 1 routed. The engine must additionally keep
    the Tyrell knights out of the area (they return to where they marched from).
    """
    r = fight(
        "dornish_marches",
        side("tyrell", {"knight": 2}, "randyll_tarly"),
        side("martell", {"footman": 2}, "arianne_martell"),
        fiefdoms=["martell", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=1, card_modifiers=0, swords=0, fortifications=0, total=3)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}
    assert r.notes == {}


def test_nymeria_sand_attacking_gains_sword():
    """Nymeria attacking: one extra sword.

    Attacker 2 knights (4) + Nymeria 1 = 5 vs defender Tyrell 2 footmen (2) + Randyll 2 = 4:
    Martell wins; 1 sword - 0 = 1 footman destroyed, 1 routed.
    """
    r = fight(
        "the_boneway",
        side("martell", {"knight": 2}, "nymeria_sand"),
        side("tyrell", {"footman": 2}, "randyll_tarly"),
        fiefdoms=["tyrell", "martell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=1, swords=1, fortifications=0, total=5)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_nymeria_sand_defending_gains_fortification():
    """Nymeria defending: one extra fortification.

    Defender 2 footmen (2) + Nymeria 1 = 3 vs attacker Tyrell 2 knights (4) + Randyll 2 = 6:
    Tyrell wins; 1 sword - 1 fortification = 0, both footmen rout.
    """
    r = fight(
        "the_boneway",
        side("tyrell", {"knight": 2}, "randyll_tarly"),
        side("martell", {"footman": 2}, "nymeria_sand"),
        fiefdoms=["martell", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=1, swords=0, fortifications=1, total=3)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}


def test_doran_martell_moves_opponent_to_bottom_of_fiefdoms():
    """Doran wins a tie by sending Baratheon to the bottom of Fiefdoms.

    Attacker Baratheon 2 footmen (2) + Brienne 2 = 4 vs defender Martell 2 knights (4) + Doran 0 =
    4. Fiefdoms Baratheon, Martell: Baratheon would win the tie. Doran moves Baratheon to the
    bottom of Fiefdoms (Iron Throne would change nothing, Baratheon is already last there):
    Martell wins the tie. Doran has no swords: both Baratheon footmen rout.
    """
    r = fight(
        "dornish_marches",
        side("baratheon", {"footman": 2}, "brienne_of_tarth"),
        side("martell", {"knight": 2}, "doran_martell"),
        fiefdoms=["baratheon", "martell"],
        iron_throne=["martell", "baratheon"],
    )
    assert r.p_attacker_wins == 0.0
    assert r.notes["brienne_of_tarth|doran_martell"] == (
        "doran_martell moves the opponent to the bottom of fiefdoms",
    )
    check(r, "attacker", total=4)
    check(r, "defender", total=4)
    assert destroyed(r, "attacker") == {}
    assert routed(r, "attacker") == {"footman": 2.0}


def test_doran_martell_takes_the_blade_with_fiefdoms():
    """Doran moves the blade holder off the top of Fiefdoms: the blade goes with it.

    Attacker Baratheon 1 footman (1) + Brienne 2 = 3 vs defender 2 knights (4) + Doran 0 = 4.
    Baratheon tops Fiefdoms and holds the unused blade: left alone it would spend it, 3 + 1 = 4,
    and win the tie. Doran sends Baratheon to the bottom of Fiefdoms; Martell is now on top and
    holds the blade, Baratheon cannot spend it: 3 < 4, Martell wins, no blade spent.
    """
    r = fight(
        "dornish_marches",
        side("baratheon", {"footman": 1}, "brienne_of_tarth"),
        side("martell", {"knight": 2}, "doran_martell"),
        fiefdoms=["baratheon", "martell"],
        iron_throne=["martell", "baratheon"],
        blade=True,
    )
    assert r.p_attacker_wins == 0.0
    assert r.blade == {"plus_one": 0.0, "redraw": 0.0}
    assert r.notes["brienne_of_tarth|doran_martell"] == (
        "doran_martell moves the opponent to the bottom of fiefdoms",
    )


def test_doran_martell_nothing_helps_takes_iron_throne():
    """Doran cannot save the battle: the documented tie order picks the Iron Throne first.

    Attacker Baratheon 2 knights (4) + Brienne 2 = 6 vs defender 1 footman (1) + Doran 0 = 1:
    Baratheon wins whatever the track; Brienne's sword destroys the Martell footman.
    """
    r = fight(
        "dornish_marches",
        side("baratheon", {"knight": 2}, "brienne_of_tarth"),
        side("martell", {"footman": 1}, "doran_martell"),
        fiefdoms=["martell", "baratheon"],
    )
    assert r.p_attacker_wins == 1.0
    assert r.notes["brienne_of_tarth|doran_martell"] == (
        "doran_martell moves the opponent to the bottom of iron_throne",
    )
    assert destroyed(r, "defender") == {"footman": 1.0}


# === board rules ==================================================================================


def test_garrison_defends_empty_home_area():
    """Lannisport holds only its garrison (2); Lannister still plays a house card.

    Defender 0 units + garrison 2 + Hound 2 = 4 vs attacker Stark 1 knight (2) + Rodrick 1 = 3:
    Lannister wins; the Hound has no swords, the Stark knight routs.
    """
    r = fight(
        "lannisport",
        side("stark", {"knight": 1}, "ser_rodrick_cassel"),
        side("lannister", {}, "the_hound", garrison=2),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "defender", units=0, garrison=2, card=2, total=4)
    assert destroyed(r, "attacker") == {}
    assert routed(r, "attacker") == {"knight": 1.0}


def test_garrison_falls_to_a_stronger_attack():
    """Attacker 2 knights (4) + Rodrick 1 = 5 vs garrison 2 + Hound 2 = 4: Stark takes Lannisport.

    There are no defending units, so nothing is destroyed or routed.
    """
    r = fight(
        "lannisport",
        side("stark", {"knight": 2}, "ser_rodrick_cassel"),
        side("lannister", {}, "the_hound", garrison=2),
        fiefdoms=["lannister", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {}


def test_garrison_outside_home_area_is_rejected():
    """A garrison token only stands in its house's home area: Harrenhal is nobody's home."""
    spec = make_spec(
        "harrenhal",
        side("stark", {"knight": 1}, "ser_rodrick_cassel"),
        side("lannister", {"footman": 1}, "the_hound", garrison=2),
        fiefdoms=["lannister", "stark"],
    )
    with pytest.raises(BattleSpecError, match="garrison"):
        parse_battle(spec)


def test_siege_engines_attacking_castle_count_four():
    """Siege engines attacking Harrenhal (castle): 4 each, supporting ones too.

    Attacker 1 footman + 1 siege engine (1 + 4) + supporting siege engine (4) + Brienne 2 = 11
    (Baratheon's two siege engines) vs defender Lannister 2 knights (4) + defense+2 (2) + Tywin 4
    = 10: Baratheon wins.
    """
    r = fight(
        "harrenhal",
        side("baratheon", {"footman": 1, "siege_engine": 1}, "brienne_of_tarth"),
        side("lannister", {"knight": 2}, "tywin_lannister", order="defense+2"),
        fiefdoms=["lannister", "baratheon"],
        supports=(support("baratheon", "attacker", {"siege_engine": 1}),),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=5, support=4, total=11)


def test_siege_engines_attacking_plain_area_count_zero():
    """Siege engines attacking Kingswood (no castle): 0 each; lost when the attack fails.

    Attacker 1 footman + 1 siege engine (1 + 0) + a supporting one (0) + Brienne 2 = 3 vs
    defender 2 footmen (2) + Jaime 2 = 4: Lannister wins; Jaime 1 sword - Brienne 1 fortification
    = 0 casualties, but the attacking siege engine cannot retreat and is destroyed; the footman
    routs.
    """
    r = fight(
        "kingswood",
        side("baratheon", {"footman": 1, "siege_engine": 1}, "brienne_of_tarth"),
        side("lannister", {"footman": 2}, "ser_jaime_lannister"),
        fiefdoms=["lannister", "baratheon"],
        supports=(support("baratheon", "attacker", {"siege_engine": 1}),),
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", units=1, support=0, total=3)
    assert destroyed(r, "attacker") == {"siege_engine": 1.0}
    assert routed(r, "attacker") == {"footman": 1.0}


def test_siege_engines_are_never_a_losers_casualties():
    """A loser's siege engines are destroyed in addition, never chosen as casualties (FFG ruling;
    S&R; rules.md C9).

    Attacker Baratheon 1 footman + 2 siege engines on Kingswood (1 + 0) + Brienne 2 = 3 vs
    defender Lannister 2 footmen (2) + Ser Gregor 3 = 5, 3 swords - Brienne 1 fortification = 2
    casualties: the footman is the only unit that may be chosen (one casualty goes unpaid), and
    both siege engines die anyway. Before the ruling the engines paid the two casualties and the
    footman routed home.
    """
    r = fight(
        "kingswood",
        side("baratheon", {"footman": 1, "siege_engine": 2}, "brienne_of_tarth"),
        side("lannister", {"footman": 2}, "ser_gregor_clegane"),
        fiefdoms=["lannister", "baratheon"],
    )
    assert r.p_attacker_wins == 0.0
    assert destroyed(r, "attacker") == {"footman": 1.0, "siege_engine": 2.0}
    assert routed(r, "attacker") == {}


def test_siege_engines_defending_count_zero():
    """Siege engines defending Harrenhal (castle) add nothing, nor do supporting ones.

    Defender Baratheon 1 footman + 1 siege engine (1 + 0) + supporting siege engine (0) +
    Brienne 2 = 3 vs attacker Lannister 1 knight (2) + Jaime 2 = 4: Lannister wins; 1 sword -
    1 fortification = 0, but the defending siege engine is destroyed in the retreat; the footman
    routs.
    """
    r = fight(
        "harrenhal",
        side("lannister", {"knight": 1}, "ser_jaime_lannister"),
        side("baratheon", {"footman": 1, "siege_engine": 1}, "brienne_of_tarth"),
        fiefdoms=["baratheon", "lannister"],
        supports=(support("baratheon", "defender", {"siege_engine": 1}),),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", units=1, support=0, total=3)
    assert destroyed(r, "defender") == {"siege_engine": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_siege_engine_counts_against_neutral_force_in_stronghold():
    """King's Landing (stronghold) neutral force 5: 1 footman + 1 siege engine (1 + 4) = 5 >= 5."""
    r = combat_odds(
        {
            "area": "kings_landing",
            "attacker": {"house": "baratheon", "units": {"footman": 1, "siege_engine": 1}},
            "defender": {"neutral_force": 5},
        },
        model="fixed",
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=5, total=5)


def test_ships_support_land_battle():
    """Ships may support an attack on an adjacent land area: 1 each.

    Attacker Greyjoy 1 knight (2) + 2 supporting Greyjoy ships on support+1 (2 + 1) + Dagmar 1 =
    6 vs defender Tyrell 2 footmen (2) + defense+1 (1) + Lannister supporting ship (1) + Randyll
    2 = 6: tie, Greyjoy higher on Fiefdoms wins; Dagmar 1 sword - 0 = 1 footman destroyed.
    """
    r = fight(
        "searoad_marches",
        side("greyjoy", {"knight": 1}, "dagmar_cleftjaw"),
        side("tyrell", {"footman": 2}, "randyll_tarly", order="defense+1"),
        fiefdoms=["greyjoy", "tyrell"],
        supports=(
            support("greyjoy", "attacker", {"ship": 2}, "support+1"),
            support("lannister", "defender", {"ship": 1}),
        ),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=2, support=3, total=6)
    check(r, "defender", support=1, total=6)
    assert destroyed(r, "defender") == {"footman": 1.0}


def test_ships_cannot_fight_in_land_area():
    """Ships take part in a land battle only as supporters."""
    spec = make_spec(
        "searoad_marches",
        side("greyjoy", {"ship": 1}, "dagmar_cleftjaw"),
        side("tyrell", {"footman": 2}, "randyll_tarly"),
        fiefdoms=["greyjoy", "tyrell"],
    )
    with pytest.raises(BattleSpecError, match="ship"):
        parse_battle(spec)


def test_rains_of_autumn_false_supporting_footmen_count():
    """Land battle with rains_of_autumn false: supporting footmen add 1 each.

    Attacker Stark 1 knight (2) + 2 supporting Stark footmen (2) + 1 supporting Greyjoy footman
    (1) + Greatjon 2 = 7 vs defender Lannister 2 knights (4) + defense+1 (1) + Jaime 2 = 7: tie,
    Stark higher on Fiefdoms wins; Greatjon's sword destroys one Lannister knight.
    """
    r = fight(
        "the_twins",
        side("stark", {"knight": 1}, "greatjon_umber"),
        side("lannister", {"knight": 2}, "ser_jaime_lannister", order="defense+1"),
        fiefdoms=["stark", "lannister"],
        supports=(
            support("stark", "attacker", {"footman": 2}),
            support("greyjoy", "attacker", {"footman": 1}),
        ),
        rains_of_autumn=False,
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", support=3, total=7)
    assert destroyed(r, "defender") == {"knight": 1.0}
    assert routed(r, "defender") == {"knight": 1.0}


def test_rains_of_autumn_in_2e_does_not_touch_supporting_footmen():
    """The 2nd-edition Rains of Autumn forbids March +1 orders; it does not weaken support.

    Same battle as above with rains_of_autumn true: the supporting footmen must still add 3
    (2 Stark + 1 Greyjoy), total 7 vs 7, Stark wins the tie. Rejecting the flag for a 2e battle
    (BattleSpecError naming rains_of_autumn) would also be acceptable.
    """
    spec = make_spec(
        "the_twins",
        side("stark", {"knight": 1}, "greatjon_umber"),
        side("lannister", {"knight": 2}, "ser_jaime_lannister", order="defense+1"),
        fiefdoms=["stark", "lannister"],
        supports=(
            support("stark", "attacker", {"footman": 2}),
            support("greyjoy", "attacker", {"footman": 1}),
        ),
        rains_of_autumn=True,
    )
    try:
        r = combat_odds(spec, model="fixed")
    except BattleSpecError as exc:
        assert "rains_of_autumn" in str(exc)
        return
    check(r, "attacker", support=3, total=7)
    assert r.p_attacker_wins == 1.0


def test_tie_goes_to_attacker_higher_on_fiefdoms():
    """Attacker 2 footmen (2) + Jaime 2 = 4 vs defender 1 knight (2) + Greatjon 2 = 4; Lannister
    above Stark on Fiefdoms: Lannister wins the tie; Jaime's sword destroys the Stark knight."""
    r = fight(
        "the_twins",
        side("lannister", {"footman": 2}, "ser_jaime_lannister"),
        side("stark", {"knight": 1}, "greatjon_umber"),
        fiefdoms=["lannister", "stark"],
        iron_throne=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    assert destroyed(r, "defender") == {"knight": 1.0}


def test_tie_goes_to_defender_higher_on_fiefdoms():
    """Same 4 = 4 battle with Stark above Lannister on Fiefdoms (Iron Throne does not matter):
    Stark wins the tie; Greatjon's sword destroys one Lannister footman, the other routs."""
    r = fight(
        "the_twins",
        side("lannister", {"footman": 2}, "ser_jaime_lannister"),
        side("stark", {"knight": 1}, "greatjon_umber"),
        fiefdoms=["stark", "lannister"],
        iron_throne=["lannister", "stark"],
    )
    assert r.p_attacker_wins == 0.0
    assert destroyed(r, "attacker") == {"footman": 1.0}
    assert routed(r, "attacker") == {"footman": 1.0}


def test_blade_plus_one_flips_a_loss():
    """Stark tops Fiefdoms and holds the unused Valyrian Steel Blade.

    Attacker 1 knight (2) + Greatjon 2 = 4 vs defender 2 footmen (2) + defense+1 (1) + Jaime 2 = 5:
    Stark is losing by 1, spends the blade: 5 = 5 and Stark wins the tie (top of Fiefdoms).
    Greatjon's sword destroys one Lannister footman, the other routs.
    """
    r = fight(
        "the_twins",
        side("stark", {"knight": 1}, "greatjon_umber"),
        side("lannister", {"footman": 2}, "ser_jaime_lannister", order="defense+1"),
        fiefdoms=["stark", "lannister"],
        blade=True,
    )
    assert r.p_attacker_wins == 1.0
    assert r.blade["plus_one"] == 1.0
    assert r.blade["redraw"] == 0.0
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_blade_already_used_cannot_flip():
    """The same battle with the blade already used this round: 4 < 5, Lannister wins."""
    r = fight(
        "the_twins",
        side("stark", {"knight": 1}, "greatjon_umber"),
        side("lannister", {"footman": 2}, "ser_jaime_lannister", order="defense+1"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 0.0
    assert r.blade["plus_one"] == 0.0


def test_blade_kept_when_plus_one_cannot_help():
    """Losing by 2 (4 vs defense+2: 2 + 2 + Jaime 2 = 6): +1 gives 5 < 6, the blade is kept."""
    r = fight(
        "the_twins",
        side("stark", {"knight": 1}, "greatjon_umber"),
        side("lannister", {"footman": 2}, "ser_jaime_lannister", order="defense+2"),
        fiefdoms=["stark", "lannister"],
        blade=True,
    )
    assert r.p_attacker_wins == 0.0
    assert r.blade == {"plus_one": 0.0, "redraw": 0.0}


def test_blade_kept_when_already_winning():
    """Stark holds the blade and wins anyway: attacker 2 knights (4) + Greatjon 2 = 6 vs 5."""
    r = fight(
        "the_twins",
        side("stark", {"knight": 2}, "greatjon_umber"),
        side("lannister", {"footman": 2}, "ser_jaime_lannister", order="defense+1"),
        fiefdoms=["stark", "lannister"],
        blade=True,
    )
    assert r.p_attacker_wins == 1.0
    assert r.blade == {"plus_one": 0.0, "redraw": 0.0}


def test_blade_holder_below_on_fiefdoms_cannot_win_the_tie():
    """blade_holder names Lannister though Stark tops Fiefdoms.

    Defender Lannister 2 footmen (2) + Jaime 2 = 4 vs attacker Stark 1 knight (2) + march+1 (1) +
    Greatjon 2 = 5: Lannister +1 would only tie 5 = 5, and Stark wins ties, so the
    blade stays unused and Stark wins.
    """
    r = fight(
        "the_twins",
        side("stark", {"knight": 1}, "greatjon_umber", order="march+1"),
        side("lannister", {"footman": 2}, "ser_jaime_lannister"),
        fiefdoms=["stark", "lannister"],
        blade=True,
        blade_holder="lannister",
    )
    assert r.p_attacker_wins == 1.0
    assert r.blade == {"plus_one": 0.0, "redraw": 0.0}


def test_blade_held_by_defender_flips_a_loss():
    """Lannister tops Fiefdoms and defends: 4 vs Stark 5, the blade makes it 5 = 5, Lannister wins.

    Lannister wins with Jaime's sword: the Stark knight (1 - 0) is destroyed.
    """
    r = fight(
        "the_twins",
        side("stark", {"knight": 1}, "greatjon_umber", order="march+1"),
        side("lannister", {"footman": 2}, "ser_jaime_lannister"),
        fiefdoms=["lannister", "stark"],
        blade=True,
    )
    assert r.p_attacker_wins == 0.0
    assert r.blade["plus_one"] == 1.0
    assert destroyed(r, "attacker") == {"knight": 1.0}


def test_neutral_force_strength_five_beats_token_five():
    """King's Landing neutral force 5: attacker 2 knights (4) + march+1 (1) = 5 >= 5, wins."""
    r = combat_odds(
        {
            "area": "kings_landing",
            "attacker": {"house": "baratheon", "units": {"knight": 2}, "order": "march+1"},
            "defender": {"neutral_force": 5},
        },
        model="fixed",
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=4, order=1, total=5)
    check(r, "defender", total=5)


def test_neutral_force_strength_four_fails():
    """Attacker 1 knight + 1 footman (3) + march+1 (1) = 4 < 5: the neutral force holds."""
    r = combat_odds(
        {
            "area": "kings_landing",
            "attacker": {
                "house": "baratheon",
                "units": {"knight": 1, "footman": 1},
                "order": "march+1",
            },
            "defender": {"neutral_force": 5},
        },
        model="fixed",
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", total=4)


def test_neutral_force_support_counts_and_blade_does_not():
    """Support counts against a neutral force, the Valyrian Steel Blade does not.

    Attacker 1 knight + 1 footman (3) + march+1 (1) + supporting Baratheon ship (1) = 5 >= 5 wins;
    without the ship it is 4 and Baratheon's blade (top of Fiefdoms) cannot add the missing 1.
    """
    base = {
        "area": "kings_landing",
        "attacker": {
            "house": "baratheon",
            "units": {"knight": 1, "footman": 1},
            "order": "march+1",
        },
        "defender": {"neutral_force": 5},
        "blade_holder": "baratheon",
    }
    supported = dict(base, support=[support("baratheon", "attacker", {"ship": 1})])
    r = combat_odds(supported, model="fixed")
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", support=1, total=5)
    r = combat_odds(base, model="fixed")
    assert r.p_attacker_wins == 0.0
    assert r.blade == {"plus_one": 0.0, "redraw": 0.0}


def test_neutral_force_cannot_hold_units():
    """A neutral force token stands alone in its area; units beside it cannot exist.

    Today the 3 knights below are added to the token (6 + 5 = 11) and the attack fails; the spec
    must be rejected instead, naming defender.units.
    """
    spec = {
        "area": "kings_landing",
        "attacker": {"house": "baratheon", "units": {"knight": 2}, "order": "march+1"},
        "defender": {"neutral_force": 5, "units": {"knight": 3}},
    }
    with pytest.raises(BattleSpecError, match=r"defender\.units"):
        parse_battle(spec)


def test_routed_defenders_add_nothing_and_die_when_losing():
    """A routed knight in the area adds 0 and cannot retreat again.

    Defender Stark 1 footman (1) + routed knight (0) + Roose 2 = 3 vs attacker Lannister 1 knight
    (2) + Jaime 2 = 4: Lannister wins. Routed units are never casualties (rulebook p.21, C10):
    Jaime's one sword takes the fighting footman, and the routed knight, which would have to
    retreat again, is destroyed in addition. Nothing routs.
    """
    r = fight(
        "the_twins",
        side("lannister", {"knight": 1}, "ser_jaime_lannister"),
        side("stark", {"footman": 1}, "roose_bolton", routed={"knight": 1}),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", units=1, total=3)
    assert destroyed(r, "defender") == {"footman": 1.0, "knight": 1.0}
    assert routed(r, "defender") == {}


def test_routed_only_defenders_all_destroyed():
    """Only routed units defend: 0 + Roose 2 = 2 vs 1 footman (1) + Jaime 2 = 3; Lannister wins
    and both routed Stark footmen are destroyed (no sword needed)."""
    r = fight(
        "the_twins",
        side("lannister", {"footman": 1}, "ser_jaime_lannister"),
        side("stark", {}, "roose_bolton", routed={"footman": 2}),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", units=0, total=2)
    assert destroyed(r, "defender") == {"footman": 2.0}
    assert routed(r, "defender") == {}


def test_routed_defenders_survive_when_defender_wins():
    """Defender 2 footmen (2) + routed knight (0) + Eddard 4 = 6 vs 1 knight (2) + Jaime 2 = 4:
    Stark wins, loses nothing; Eddard's 2 swords destroy the lone Lannister knight."""
    r = fight(
        "the_twins",
        side("lannister", {"knight": 1}, "ser_jaime_lannister"),
        side("stark", {"footman": 2}, "eddard_stark", routed={"knight": 1}),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 0.0
    assert destroyed(r, "defender") == {}
    assert destroyed(r, "attacker") == {"knight": 1.0}


def test_no_retreat_defender_loses_everything():
    """No legal retreat: the loser's survivors are destroyed.

    Defender 2 footmen + 1 knight (4) + Roose 2 = 6 vs attacker 3 knights (6) + march+1 (1) +
    Jaime 2 = 9: Lannister wins; 1 sword kills a footman, the other footman and the knight
    cannot retreat and are destroyed too.
    """
    r = fight(
        "the_twins",
        side("lannister", {"knight": 3}, "ser_jaime_lannister", order="march+1"),
        side("stark", {"footman": 2, "knight": 1}, "roose_bolton", no_retreat=True),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    assert destroyed(r, "defender") == {"footman": 2.0, "knight": 1.0}
    assert routed(r, "defender") == {}


def test_with_retreat_same_defender_routs():
    """Control for the case above: with a retreat only Jaime's 1 casualty is destroyed."""
    r = fight(
        "the_twins",
        side("lannister", {"knight": 3}, "ser_jaime_lannister", order="march+1"),
        side("stark", {"footman": 2, "knight": 1}, "roose_bolton"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0, "knight": 1.0}


# === Tides of Battle, exact ======================================================================


def _tides_spec(blade: bool, footmen: int = 3) -> dict[str, Any]:
    return make_spec(
        "kingswood",
        side("lannister", {"footman": footmen}, "ser_jaime_lannister"),
        side("stark", {"footman": 3}, "greatjon_umber", order="defense+1"),
        fiefdoms=["lannister", "stark"] if blade else ["stark", "lannister"],
        blade=blade,
        tides_of_battle=True,
    )


def test_tides_of_battle_exact_against_brute_force():
    """Tides on, cards fixed, no blade: the odds equal the brute force over all 24 x 23 draws.

    Attacker 3 footmen (3) + Jaime 2 = 5, 1 sword; defender 3 footmen (3) + defense+1 (1) +
    Greatjon 2 = 6, 1 sword; Stark tops Fiefdoms and wins ties. For every ordered pair of
    distinct deck positions (attacker's card, defender's card) the totals get the Tides strength,
    swords and fortifications; the loser loses max(0, swords - fortifications) plus one per
    opposing skull, the winner one per opposing skull (all footmen, at most 3).
    """
    deck = tides_cards()
    n = len(deck)
    wins = 0
    lost = {"attacker": Fraction(0), "defender": Fraction(0)}
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            ta, td = deck[i], deck[j]
            att, dfn = 5 + ta["strength"], 6 + td["strength"]
            att_swords, dfn_swords = 1 + ta["swords"], 1 + td["swords"]
            if att > dfn:
                wins += 1
                dfn_cas = max(0, att_swords - td["fortifications"]) + ta["skulls"]
                att_cas = td["skulls"]
            else:
                att_cas = max(0, dfn_swords - ta["fortifications"]) + td["skulls"]
                dfn_cas = ta["skulls"]
            lost["attacker"] += Fraction(min(3, att_cas), n * (n - 1))
            lost["defender"] += Fraction(min(3, dfn_cas), n * (n - 1))
    expected = Fraction(wins, n * (n - 1))

    r = combat_odds(_tides_spec(blade=False), model="fixed")
    assert r.exact
    assert r.p_attacker_wins == pytest.approx(float(expected), abs=1e-12)
    for who in ("attacker", "defender"):
        got = r.casualties[who]["expected_destroyed"]["footman"]
        assert got == pytest.approx(float(lost[who]), abs=1e-12)
    assert r.blade == {"plus_one": 0.0, "redraw": 0.0}


@pytest.mark.parametrize("footmen", [3, 2])
def test_tides_of_battle_with_blade_against_brute_force(footmen: int):
    """Tides on and Lannister (top of Fiefdoms) holds the blade: brute force of FAQ v2.0 step 4.

    Lannister's footmen (3, or 2: behind by 2) + Jaime 2 against 6; Lannister wins ties.
    (a) Seeing only its own card, Lannister redraws it when the chance to win with a redraw
    (the opponent's card one of the 23 others, the new card one of the 22 left) beats the
    chance to win keeping it with +1 to come; (b) both cards are revealed; (c) if it did not
    redraw and loses, it takes +1 when that wins.
    """
    deck = tides_cards()
    n = len(deck)
    p = plus_one = redraw = Fraction(0)
    weight = Fraction(1, n * (n - 1))
    att0 = footmen + 2

    def redraws(i: int) -> bool:
        keep = again = Fraction(0)
        for j in range(n):
            if j == i:
                continue
            dfn = 6 + deck[j]["strength"]
            keep += Fraction(1, n - 1) * (att0 + deck[i]["strength"] + 1 >= dfn)
            rest = [deck[k] for k in range(n) if k not in (i, j)]
            good = sum(1 for c in rest if att0 + c["strength"] >= dfn)
            again += Fraction(1, n - 1) * Fraction(good, n - 2)
        return again > keep

    for i in range(n):
        again = redraws(i)
        for j in range(n):
            if i == j:
                continue
            dfn = 6 + deck[j]["strength"]
            att = att0 + deck[i]["strength"]
            if again:
                rest = [deck[k] for k in range(n) if k not in (i, j)]
                good = sum(1 for c in rest if att0 + c["strength"] >= dfn)
                redraw += weight
                p += weight * Fraction(good, len(rest))
            elif att >= dfn:
                p += weight
            elif att + 1 >= dfn:
                p += weight
                plus_one += weight
    # a side one short keeps its card and takes +1; two short, it redraws a blank card
    assert plus_one > 0
    assert (redraw > 0) == (footmen == 2)
    r = combat_odds(_tides_spec(blade=True, footmen=footmen), model="fixed")
    assert r.p_attacker_wins == pytest.approx(float(p), abs=1e-12)
    assert r.blade["plus_one"] == pytest.approx(float(plus_one), abs=1e-12)
    assert r.blade["redraw"] == pytest.approx(float(redraw), abs=1e-12)
