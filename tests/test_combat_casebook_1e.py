"""A DATC-style casebook for 1st-edition combat: a worked case per house card (all 35), plus the
rules where the 1st edition differs from the 2nd and the decisions of ``docs/rules.md`` (1e).

Every case is a small ``edition: "1e"`` battle resolved with ``combat_odds(spec, model="fixed")``;
the expected numbers are worked out by hand from the 1st-edition cards (the arithmetic is in each
docstring). Unless a case is about the Valyrian Steel Blade it sets ``blade_used: true``, and the
tracks are given explicitly. Cards without text are checked on their printed strength, swords and
fortifications, and, where the 2nd-edition card of the same name has an ability, on its absence.

Abilities that act once the victor is known on the battle's own hands and units (Renly,
Melisandre, Maester Luwin) have functions in ``gotsim.engine.combat``; their cases call them on the
battle vector. Cersei and Asha remove orders elsewhere on the board: nothing carries them until
the 1st-edition engine exists, and ``gotsim cards --edition 1e --json`` says so.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path
from typing import Any

import combatcase
import numpy as np
import pytest
from combatcase import all_notes, check, destroyed, routed, side, support

from gotsim.cli import main
from gotsim.engine import combat as cb
from gotsim.odds import BattleSpecError, combat_odds, parse_battle
from gotsim.rules.cards import house_cards, house_deck, implemented_in
from gotsim.rules.ids import House

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "battles"

# --- helpers --------------------------------------------------------------------------------------


def make_spec(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """A 1st-edition battle; ``fiefdoms=None`` keeps the 5-player starting tracks."""
    return combatcase.make_spec(*args, edition="1e", **kwargs)


def fight(*args: Any, **kwargs: Any):
    return combat_odds(make_spec(*args, **kwargs), model="fixed")


TABLE = cb.card_table("1e")


def number(card: str) -> int:
    return TABLE.number(card)


def played(spec: dict[str, Any]) -> np.ndarray:
    """The battle vector once both sides' cards are revealed (a writable copy)."""
    battle = parse_battle(spec)
    b = battle.base.copy()
    cb.play_card(b, cb.ATTACKER, battle.fixed_cards[0])
    cb.play_card(b, cb.DEFENDER, battle.fixed_cards[1])
    return b


def cards_in(mask: int) -> set[str]:
    return {TABLE.ids[c] for c in cb.house_cards_in(int(mask))}


# === Baratheon ====================================================================================


def test_stannis_baratheon_sword_and_fortification_without_a_track_bonus():
    """Baratheon attacks Kingswood; Lannister stands above Baratheon on the Iron Throne.

    Attacker 2 knights (4) + Stannis 3 = 7 vs defender 2 footmen (2) + defense+1 (1) + House
    Lannister Captain 1 = 4: Baratheon wins. The 1st-edition Stannis has no text, so no +1 for the
    Iron Throne (the 2nd-edition card would add one). Casualties: 1 sword − 0 fortifications = 1
    footman; the other retreats routed.
    """
    r = fight(
        "kingswood",
        side("baratheon", {"knight": 2}, "stannis_baratheon"),
        side("lannister", {"footman": 2}, "house_lannister_captain", order="defense+1"),
        fiefdoms=["lannister", "baratheon"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=4, card=3, card_modifiers=0, total=7, swords=1, fortifications=1)
    check(r, "defender", units=2, order=1, card=1, total=4)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_ser_davos_seaworth_fortification_and_no_stannis_bonus():
    """Lannister attacks Kingswood held by Baratheon, whose Stannis lies in the discard pile.

    Attacker 2 knights (4) + Tywin 3 = 7 vs defender 2 footmen (2) + Davos 2 = 4: Lannister
    wins. The 1st-edition Davos has no text (no bonus for a discarded Stannis). Casualties:
    2 swords − Davos's 1 fortification = 1 footman destroyed, 1 routed.
    """
    r = fight(
        "kingswood",
        side("lannister", {"knight": 2}, "tywin_lannister"),
        side(
            "baratheon",
            {"footman": 2},
            "ser_davos_seaworth",
            discards=["stannis_baratheon"],
        ),
        fiefdoms=["lannister", "baratheon"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=2, card_modifiers=0, swords=0, fortifications=1, total=4)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_renly_baratheon_upgrades_a_fighting_footman():
    """Baratheon attacks Kingswood with a footman and a knight, a Baratheon footman supporting.

    Attacker 1 footman + 1 knight (3) + supporting footman (1) + Renly 2 = 6 vs Lannister
    1 footman + Captain 1 = 2: Baratheon wins, no swords. After the win Renly turns the fighting
    footman into a knight; a supporting footman may not be upgraded, so a second call finds none,
    and nothing happens when no knight is left to place or the card is not Renly.
    """
    spec = make_spec(
        "kingswood",
        side("baratheon", {"footman": 1, "knight": 1}, "renly_baratheon"),
        side("lannister", {"footman": 1}, "house_lannister_captain"),
        fiefdoms=["lannister", "baratheon"],
        supports=(support("baratheon", "attacker", {"footman": 1}),),
    )
    r = combat_odds(spec, model="fixed")
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", total=6, card_modifiers=0)
    b = played(spec)
    a = cb.ATTACKER * cb.SIDE + cb.UNITS
    assert not cb.renly_upgrade_footman(b, cb.ATTACKER, TABLE.ability, 0)  # no knight left
    assert cb.renly_upgrade_footman(b, cb.ATTACKER, TABLE.ability, 3)
    assert (b[a + cb.FOOTMAN], b[a + cb.KNIGHT]) == (0, 2)
    assert not cb.renly_upgrade_footman(b, cb.ATTACKER, TABLE.ability, 3)  # only a supporter left
    assert not cb.renly_upgrade_footman(played(spec), cb.DEFENDER, TABLE.ability, 3)


def test_ser_axell_florent_one_sword():
    """Baratheon attacks Kingswood: 2 knights (4) + Axell 1 = 5 vs Stark 2 footmen (2) + House
    Mormont Lord 1 = 3. Baratheon wins; 1 sword − 0 fortifications = 1 footman destroyed."""
    r = fight(
        "kingswood",
        side("baratheon", {"knight": 2}, "ser_axell_florent"),
        side("stark", {"footman": 2}, "house_mormont_lord"),
        fiefdoms=["stark", "baratheon"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=1, swords=1, total=5)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_house_florent_lord_defender_sword_kills_the_attacker():
    """Tyrell attacks Storm's End: 1 knight (2) + House Tyrell Captain 1 = 3 vs Baratheon
    1 footman + defense+2 (2) + House Florent Lord 1 = 4. Baratheon wins; its 1 sword − 0
    fortifications = 1: the attacking knight is destroyed instead of retreating."""
    r = fight(
        "storms_end",
        side("tyrell", {"knight": 1}, "house_tyrell_captain"),
        side("baratheon", {"footman": 1}, "house_florent_lord", order="defense+2"),
        fiefdoms=["tyrell", "baratheon"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "defender", card=1, swords=1, total=4)
    assert destroyed(r, "attacker") == {"knight": 1.0}
    assert routed(r, "attacker") == {}


def test_melisandre_of_asshai_pays_one_power_to_discard_a_card():
    """Baratheon attacks Kingswood: 2 knights (4) + Melisandre 0 = 4 vs Stark 1 footman +
    Rodrik 1 = 2. Baratheon wins. Melisandre then pays 1 power (5 → 4) and moves Eddard from
    Stark's hand to its discard pile; she cannot pick a card not in that hand, nor pay with no
    power left."""
    spec = make_spec(
        "kingswood",
        side("baratheon", {"knight": 2}, "melisandre_of_asshai", power=1),
        side(
            "stark",
            {"footman": 1},
            "ser_rodrick_cassel",
            hand=["ser_rodrick_cassel", "eddard_stark", "robb_stark"],
        ),
        fiefdoms=["stark", "baratheon"],
    )
    r = combat_odds(spec, model="fixed")
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=0, total=4)
    b = played(spec)
    d = cb.DEFENDER * cb.SIDE
    assert not cb.melisandre_discard(b, cb.ATTACKER, TABLE.ability, number("maester_luwin"))
    assert cb.melisandre_discard(b, cb.ATTACKER, TABLE.ability, number("eddard_stark"))
    assert cards_in(b[d + cb.HAND]) == {"robb_stark"}
    assert "eddard_stark" in cards_in(b[d + cb.DISCARDS])
    assert b[cb.POWER] == 0 and b[cb.POWER_DELTA] == -1
    assert not cb.melisandre_discard(b, cb.ATTACKER, TABLE.ability, number("robb_stark"))


def test_salladhor_saan_zeroes_ships_supporting_his_opponent():
    """Lannister attacks Kingswood held by Baratheon; ships support both sides.

    Attacker 2 footmen (2) + Captain 1 + supporting ships: 2 Lannister (support+1) and
    1 Greyjoy, all counting 0 under Salladhor, but the support order's +1 stays = 4. Defender
    2 footmen (2) + defense+2 (2) + Salladhor 0 + its own supporting ship 1 = 5: Baratheon wins
    (without Salladhor it would be 7 vs 5). Salladhor has no swords: the footmen retreat routed.
    """
    r = fight(
        "kingswood",
        side("lannister", {"footman": 2}, "house_lannister_captain"),
        side("baratheon", {"footman": 2}, "salladhor_saan", order="defense+2"),
        fiefdoms=["lannister", "baratheon"],
        supports=(
            support("lannister", "attacker", {"ship": 2}, "support+1"),
            support("greyjoy", "attacker", {"ship": 1}),
            support("baratheon", "defender", {"ship": 1}),
        ),
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", support=1, total=4)
    check(r, "defender", support=1, total=5)
    assert routed(r, "attacker") == {"footman": 2.0}


def test_salladhor_saan_leaves_fighting_ships_alone():
    """At sea: Lannister attacks Blackwater Bay with 2 ships (2) + Captain 1 = 3 vs Baratheon
    1 ship (1) + Salladhor 0 = 1. Fighting ships keep their strength: Lannister wins, and the
    Captain's sword sinks the Baratheon ship."""
    r = fight(
        "blackwater_bay",
        side("lannister", {"ship": 2}, "house_lannister_captain"),
        side("baratheon", {"ship": 1}, "salladhor_saan"),
        fiefdoms=["baratheon", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=2, total=3)
    assert destroyed(r, "defender") == {"ship": 1.0}


# === Lannister ====================================================================================


def test_tywin_lannister_two_swords_and_no_power():
    """Lannister attacks Kingswood: 1 knight (2) + Tywin 3 = 5 vs Baratheon 3 footmen (3) + House
    Florent Lord 1 = 4. Lannister wins; 2 swords − 0 = 2 footmen destroyed, 1 routed. The
    1st-edition Tywin gains no power (the 2nd-edition card does)."""
    r = fight(
        "kingswood",
        side("lannister", {"knight": 1}, "tywin_lannister"),
        side("baratheon", {"footman": 3}, "house_florent_lord"),
        fiefdoms=["lannister", "baratheon"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=3, swords=2, total=5)
    assert destroyed(r, "defender") == {"footman": 2.0}
    assert routed(r, "defender") == {"footman": 1.0}
    assert r.power == {"attacker": 0.0, "defender": 0.0}


def test_ser_jaime_lannister_gains_two_power_when_he_wins():
    """Lannister attacks Kingswood: 2 knights (4) + Jaime 2 = 6 vs Stark 2 footmen + Greatjon 2 =
    4: Lannister wins and takes 2 power. Attacking with 1 footman instead (3 vs 4) Jaime loses:
    no power, and Greatjon's sword destroys the footman."""
    win = fight(
        "kingswood",
        side("lannister", {"knight": 2}, "ser_jaime_lannister"),
        side("stark", {"footman": 2}, "greatjon_umber"),
        fiefdoms=["stark", "lannister"],
    )
    assert win.p_attacker_wins == 1.0
    assert win.power == {"attacker": 2.0, "defender": 0.0}
    lose = fight(
        "kingswood",
        side("lannister", {"footman": 1}, "ser_jaime_lannister"),
        side("stark", {"footman": 2}, "greatjon_umber"),
        fiefdoms=["stark", "lannister"],
    )
    assert lose.p_attacker_wins == 0.0
    assert lose.power == {"attacker": 0.0, "defender": 0.0}
    assert destroyed(lose, "attacker") == {"footman": 1.0}


def test_tyrion_lannister_fortification_and_no_cancel():
    """Greyjoy attacks Lannisport: 2 knights (4) + march+1 (1) + Euron 3 = 8 vs Lannister
    2 footmen (2) + defense+1 (1) + Tyrion 2 = 5. Greyjoy wins; 2 swords − Tyrion's 1
    fortification = 1 footman destroyed, 1 routed. The 1st-edition Tyrion cancels nothing: no
    note, Euron stays."""
    r = fight(
        "lannisport",
        side("greyjoy", {"knight": 2}, "euron_crows_eye", order="march+1"),
        side(
            "lannister",
            {"footman": 2},
            "tyrion_lannister",
            order="defense+1",
            hand=["tyrion_lannister", "tywin_lannister"],
        ),
        fiefdoms=["greyjoy", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=2, fortifications=1, total=5)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}
    assert all_notes(r) == []


def test_house_lannister_captain_one_sword():
    """Lannister attacks Riverrun: 1 knight + 1 footman (3) + Captain 1 = 4 vs Stark 2 footmen
    (2) + House Mormont Lord 1 = 3. Lannister wins; 1 sword: 1 footman destroyed, 1 routed."""
    r = fight(
        "riverrun",
        side("lannister", {"knight": 1, "footman": 1}, "house_lannister_captain"),
        side("stark", {"footman": 2}, "house_mormont_lord"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=1, swords=1, total=4)
    assert destroyed(r, "defender") == {"footman": 1.0}


def test_ser_kevan_lannister_no_footman_bonus():
    """Lannister attacks Kingswood: 3 footmen (3) + a supporting Lannister footman (1) + Kevan 1 =
    5 vs Baratheon 2 footmen (2) + defense+2 (2) + Davos 2 = 6. Baratheon wins: the 1st-edition
    Kevan has no text (the 2nd-edition card would add +1 per footman and win)."""
    r = fight(
        "kingswood",
        side("lannister", {"footman": 3}, "ser_kevan_lannister"),
        side("baratheon", {"footman": 2}, "ser_davos_seaworth", order="defense+2"),
        fiefdoms=["lannister", "baratheon"],
        supports=(support("lannister", "attacker", {"footman": 1}),),
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", card=1, card_modifiers=0, total=5, swords=1)
    check(r, "defender", total=6)
    assert routed(r, "attacker") == {"footman": 3.0}


def test_cersei_lannister_acts_only_on_the_board():
    """Lannister attacks Kingswood: 2 knights (4) + Cersei 0 = 4 vs Tyrell 1 footman + Margaery 1
    = 2. Lannister wins; Cersei's order removal happens elsewhere on the board, which the combat
    code does not hold, so the battle is that of a plain 0/0/0 card and only the engine carries
    it (``implemented_in``)."""
    r = fight(
        "kingswood",
        side("lannister", {"knight": 2}, "cersei_lannister"),
        side("tyrell", {"footman": 1}, "margaery_tyrell"),
        fiefdoms=["tyrell", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=0, swords=0, total=4)
    assert routed(r, "defender") == {"footman": 1.0}
    assert implemented_in("cersei_remove_opponent_order_on_win", "1e") == ["engine"]


def test_vargo_hoat_attacking_footmen_count_two():
    """Lannister attacks Kingswood: 3 footmen (3) + Vargo +3 + a supporting Lannister footman (1,
    no bonus: supporters are neither attacker nor defender) = 7 vs Stark 2 knights (4) +
    defense+1 (1) + Rodrik 1 = 6. Lannister wins (4 vs 6 without Vargo). Defending, Vargo adds
    nothing."""
    r = fight(
        "kingswood",
        side("lannister", {"footman": 3}, "vargo_hoat"),
        side("stark", {"knight": 2}, "ser_rodrick_cassel", order="defense+1"),
        fiefdoms=["stark", "lannister"],
        supports=(support("lannister", "attacker", {"footman": 1}),),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=3, support=1, card_modifiers=3, total=7)
    defending = fight(
        "kingswood",
        side("stark", {"knight": 1}, "ser_rodrick_cassel"),
        side("lannister", {"footman": 2}, "vargo_hoat"),
        fiefdoms=["stark", "lannister"],
    )
    check(defending, "defender", card_modifiers=0, total=2)


# === Stark ========================================================================================


def test_eddard_stark_two_fortifications():
    """Lannister attacks Winterfell: 3 knights (6) + march+1 (1) + Tywin 3 = 10 vs Stark 1 knight
    + 1 footman (3) + Eddard 3 = 6. Lannister wins; 2 swords − Eddard's 2 fortifications = 0:
    both Stark units retreat routed."""
    r = fight(
        "winterfell",
        side("lannister", {"knight": 3}, "tywin_lannister", order="march+1"),
        side("stark", {"knight": 1, "footman": 1}, "eddard_stark"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=3, fortifications=2, total=6)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"knight": 1.0, "footman": 1.0}


def test_robb_stark_attacking_knights_count_three():
    """Stark attacks The Twins: 2 knights + 1 footman (5) + a supporting Stark knight (2) + Robb
    2 + 2 (one per attacking knight, not the supporter) = 11 vs Tyrell 3 footmen (3) +
    defense+2 (2) + Mace 3 + a supporting Tyrell knight (2) = 10. Stark wins (9 vs 10 without
    Robb's text)."""
    r = fight(
        "the_twins",
        side("stark", {"knight": 2, "footman": 1}, "robb_stark"),
        side("tyrell", {"footman": 3}, "mace_tyrell", order="defense+2"),
        fiefdoms=["tyrell", "stark"],
        supports=(
            support("stark", "attacker", {"knight": 1}),
            support("tyrell", "defender", {"knight": 1}),
        ),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=5, support=2, card=2, card_modifiers=2, total=11)
    check(r, "defender", total=10)
    assert routed(r, "defender") == {"footman": 3.0}


def test_greatjon_umber_one_sword_as_defender():
    """Greyjoy attacks The Twins: 1 knight (2) + march-1 (−1) + Theon 2 = 3 vs Stark 2 footmen
    (2) + Greatjon 2 = 4. Stark wins; its 1 sword − 0 = 1: the knight is destroyed."""
    r = fight(
        "the_twins",
        side("greyjoy", {"knight": 1}, "theon_greyjoy", order="march-1"),
        side("stark", {"footman": 2}, "greatjon_umber"),
        fiefdoms=["greyjoy", "stark"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "defender", card=2, swords=1, total=4)
    assert destroyed(r, "attacker") == {"knight": 1.0}


def test_ser_rodrick_cassel_fortification():
    """Lannister attacks Kingswood: 2 knights (4) + Tywin 3 = 7 vs Stark 1 footman + defense+1 +
    Rodrik 1 = 3. Lannister wins; 2 swords − 1 fortification = 1: the lone footman dies."""
    r = fight(
        "kingswood",
        side("lannister", {"knight": 2}, "tywin_lannister"),
        side("stark", {"footman": 1}, "ser_rodrick_cassel", order="defense+1"),
        fiefdoms=["stark", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=1, fortifications=1, total=3)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {}


def test_house_mormont_lord_one_sword():
    """Stark attacks Kingswood: 1 knight (2) + House Mormont Lord 1 = 3 vs Baratheon 1 footman +
    Melisandre 0 = 1. Stark wins; 1 sword destroys the footman."""
    r = fight(
        "kingswood",
        side("stark", {"knight": 1}, "house_mormont_lord"),
        side("baratheon", {"footman": 1}, "melisandre_of_asshai"),
        fiefdoms=["baratheon", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=1, swords=1, total=3)
    assert destroyed(r, "defender") == {"footman": 1.0}


def test_catelyn_stark_doubles_the_defense_order():
    """Greyjoy attacks Winterfell: 2 knights (4) + Aeron 1 = 5 vs Stark 2 footmen (2) +
    defense+2 (2) + Catelyn +2 = 6. Stark wins (4 vs 5 without her); the beaten attacker's
    knights retreat routed. Without a defense order, or attacking, she adds nothing."""
    r = fight(
        "winterfell",
        side("greyjoy", {"knight": 2}, "aeron_damphair"),
        side("stark", {"footman": 2}, "catelyn_stark", order="defense+2"),
        fiefdoms=["greyjoy", "stark"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "defender", order=2, card_modifiers=2, total=6)
    assert routed(r, "attacker") == {"knight": 2.0}
    no_defense = fight(
        "winterfell",
        side("greyjoy", {"knight": 2}, "aeron_damphair"),
        side("stark", {"footman": 2}, "catelyn_stark", order="support+1"),
        fiefdoms=["greyjoy", "stark"],
    )
    check(no_defense, "defender", card_modifiers=0, total=2)
    attacking = fight(
        "kingswood",
        side("stark", {"footman": 2}, "catelyn_stark", order="march+1"),
        side("greyjoy", {"footman": 1}, "aeron_damphair"),
        fiefdoms=["greyjoy", "stark"],
    )
    check(attacking, "attacker", card_modifiers=0, total=3)


def test_maester_luwin_takes_a_discarded_card_back():
    """Tyrell attacks Winterfell: 1 footman + House Tyrell Captain 1 = 2 vs Stark 2 footmen +
    defense+1 + Luwin 0 = 3. Stark wins; Luwin takes Eddard back from the discard pile into the
    hand. He cannot take himself (not yet discarded) nor a card that is not in the pile."""
    spec = make_spec(
        "winterfell",
        side("tyrell", {"footman": 1}, "house_tyrell_captain"),
        side(
            "stark",
            {"footman": 2},
            "maester_luwin",
            order="defense+1",
            discards=["eddard_stark", "robb_stark"],
            hand=["maester_luwin", "catelyn_stark"],
        ),
        fiefdoms=["tyrell", "stark"],
    )
    r = combat_odds(spec, model="fixed")
    assert r.p_attacker_wins == 0.0
    check(r, "defender", total=3)
    b = played(spec)
    d = cb.DEFENDER * cb.SIDE
    assert not cb.luwin_take_back(b, cb.DEFENDER, TABLE.ability, number("maester_luwin"))
    assert not cb.luwin_take_back(b, cb.DEFENDER, TABLE.ability, number("greatjon_umber"))
    assert cb.luwin_take_back(b, cb.DEFENDER, TABLE.ability, number("eddard_stark"))
    assert cards_in(b[d + cb.HAND]) == {"catelyn_stark", "eddard_stark"}
    assert cards_in(b[d + cb.DISCARDS]) == {"robb_stark"}
    assert not cb.luwin_take_back(b, cb.ATTACKER, TABLE.ability, number("mace_tyrell"))


# === Greyjoy ======================================================================================


def test_euron_crows_eye_two_swords_at_sea():
    """Greyjoy attacks Blackwater Bay: 3 ships (3) + Euron 3 = 6 vs Baratheon 2 ships (2) + Davos
    2 = 4. Greyjoy wins; 2 swords − 1 fortification = 1 ship sunk, 1 routed."""
    r = fight(
        "blackwater_bay",
        side("greyjoy", {"ship": 3}, "euron_crows_eye"),
        side("baratheon", {"ship": 2}, "ser_davos_seaworth"),
        fiefdoms=["baratheon", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=3, swords=2, total=6)
    assert destroyed(r, "defender") == {"ship": 1.0}
    assert routed(r, "defender") == {"ship": 1.0}


def test_asha_greyjoy_acts_only_on_the_board():
    """Greyjoy attacks Kingswood unsupported: 2 knights (4) + Asha 2 = 6 vs Lannister 2 footmen
    (2) + Captain 1 = 3. Greyjoy wins without swords (the 2nd-edition Asha would have two when
    unsupported): both footmen retreat routed. Her order removal happens next to the battle on
    the board: carried by the engine, not by the combat code (``implemented_in``)."""
    r = fight(
        "kingswood",
        side("greyjoy", {"knight": 2}, "asha_greyjoy"),
        side("lannister", {"footman": 2}, "house_lannister_captain"),
        fiefdoms=["lannister", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=2, swords=0, fortifications=0, total=6)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 2.0}
    effect = "asha_remove_adjacent_support_or_consolidate_on_win"
    assert implemented_in(effect, "1e") == ["engine"]


def test_theon_greyjoy_one_sword_and_no_defending_bonus():
    """Lannister attacks Pyke: 2 knights (4) + Captain 1 = 5 vs Greyjoy 2 footmen + 1 knight (4)
    + defense+1 (1) + Theon 2 = 7. Greyjoy wins; Theon's 1 sword destroys a knight. The
    1st-edition Theon gets no bonus for defending a stronghold."""
    r = fight(
        "pyke",
        side("lannister", {"knight": 2}, "house_lannister_captain"),
        side("greyjoy", {"footman": 2, "knight": 1}, "theon_greyjoy", order="defense+1"),
        fiefdoms=["lannister", "greyjoy"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "defender", card=2, card_modifiers=0, swords=1, total=7)
    assert destroyed(r, "attacker") == {"knight": 1.0}
    assert routed(r, "attacker") == {"knight": 1.0}


def test_house_blacktyde_captain_fortification():
    """Lannister attacks The Golden Sound: 3 ships (3) + Tywin 3 = 6 vs Greyjoy 2 ships (2) +
    House Blacktyde Captain 1 = 3. Lannister wins; 2 swords − 1 fortification = 1 ship sunk."""
    r = fight(
        "the_golden_sound",
        side("lannister", {"ship": 3}, "tywin_lannister"),
        side("greyjoy", {"ship": 2}, "house_blacktyde_captain"),
        fiefdoms=["greyjoy", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=1, fortifications=1, total=3)
    assert destroyed(r, "defender") == {"ship": 1.0}
    assert routed(r, "defender") == {"ship": 1.0}


def test_aeron_damphair_cannot_swap_in_the_first_edition():
    """Greyjoy attacks Kingswood with 5 power and Euron in hand: 2 footmen (2) + Aeron 1 = 3 vs
    Stark 2 footmen (2) + defense+1 (1) + Rodrik 1 = 4. Stark wins. The 1st-edition Aeron has no
    text: no swap to Euron, no power paid; Rodrik has no swords, the footmen retreat routed."""
    r = fight(
        "kingswood",
        side(
            "greyjoy",
            {"footman": 2},
            "aeron_damphair",
            hand=["aeron_damphair", "euron_crows_eye"],
            power=5,
        ),
        side("stark", {"footman": 2}, "ser_rodrick_cassel", order="defense+1"),
        fiefdoms=["greyjoy", "stark"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", card=1, fortifications=1, total=3)
    assert r.power == {"attacker": 0.0, "defender": 0.0}
    assert all_notes(r) == []
    assert routed(r, "attacker") == {"footman": 2.0}


def test_balon_greyjoy_zeroes_the_printed_strength_only():
    """Tyrell attacks Pyke: 2 knights (4) + Mace (printed 3, counted 0) = 4 vs Greyjoy 3 footmen
    (3) + Balon 0 = 3. Tyrell still wins, and Mace's 2 swords still kill 2 footmen. With 1 knight
    and 1 footman (3) against defense+1 Balon holds: 3 vs 4 (it would be 6 vs 4 without him)."""
    r = fight(
        "pyke",
        side("tyrell", {"knight": 2}, "mace_tyrell"),
        side("greyjoy", {"footman": 3}, "balon_greyjoy"),
        fiefdoms=["tyrell", "greyjoy"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=0, swords=2, total=4)
    assert destroyed(r, "defender") == {"footman": 2.0}
    assert routed(r, "defender") == {"footman": 1.0}
    held = fight(
        "pyke",
        side("tyrell", {"knight": 1, "footman": 1}, "mace_tyrell"),
        side("greyjoy", {"footman": 3}, "balon_greyjoy", order="defense+1"),
        fiefdoms=["tyrell", "greyjoy"],
    )
    assert held.p_attacker_wins == 0.0
    check(held, "attacker", card=0, total=3)


def test_victarion_greyjoy_attacking_ships_count_two():
    """Greyjoy attacks Blackwater Bay: 3 ships (3) + Victarion +3 + a supporting Greyjoy ship (1,
    no bonus in 1e) = 7 vs Lannister 3 ships (3) + Tywin 3 = 6. Greyjoy wins (4 vs 6 without
    his text); no swords, the Lannister ships retreat routed."""
    r = fight(
        "blackwater_bay",
        side("greyjoy", {"ship": 3}, "victarion_greyjoy"),
        side("lannister", {"ship": 3}, "tywin_lannister"),
        fiefdoms=["lannister", "greyjoy"],
        supports=(support("greyjoy", "attacker", {"ship": 1}),),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", units=3, support=1, card_modifiers=3, total=7)
    assert routed(r, "defender") == {"ship": 3.0}


# === Tyrell =======================================================================================


def test_mace_tyrell_kills_no_footman_in_the_first_edition():
    """Tyrell attacks Kingswood: 2 footmen (2) + Mace 3 = 5 vs Baratheon 2 footmen (2) +
    defense+1 (1) + Stannis 3 = 6. Baratheon wins; the 1st-edition Mace has no text, so both
    Baratheon footmen fight; Stannis's sword destroys one Tyrell footman."""
    r = fight(
        "kingswood",
        side("tyrell", {"footman": 2}, "mace_tyrell"),
        side("baratheon", {"footman": 2}, "stannis_baratheon", order="defense+1"),
        fiefdoms=["tyrell", "baratheon"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", card=3, swords=2, total=5)
    check(r, "defender", units=2, total=6)
    assert destroyed(r, "defender") == {}
    assert destroyed(r, "attacker") == {"footman": 1.0}
    assert all_notes(r) == []


def test_ser_garlan_tyrell_one_sword_as_defender():
    """Baratheon attacks Highgarden: 1 knight (2) + Axell 1 = 3 vs Tyrell 1 knight (2) + Garlan 2
    = 4. Tyrell wins; 1 sword destroys the attacking knight."""
    r = fight(
        "highgarden",
        side("baratheon", {"knight": 1}, "ser_axell_florent"),
        side("tyrell", {"knight": 1}, "ser_garlan_tyrell"),
        fiefdoms=["baratheon", "tyrell"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "defender", card=2, swords=1, total=4)
    assert destroyed(r, "attacker") == {"knight": 1.0}


def test_ser_loras_tyrell_destroys_a_fighting_footman():
    """Tyrell attacks Kingswood: 1 knight (2) + Loras 2 = 4 vs Lannister 2 footmen + a supporting
    Lannister footman + defense+1 + Captain 1 = 5. Loras at once destroys a defending footman
    (not the supporter): 4 vs 4, and Tyrell, higher on Fiefdoms, wins the tie. The other footman
    retreats routed."""
    r = fight(
        "kingswood",
        side("tyrell", {"knight": 1}, "ser_loras_tyrell"),
        side("lannister", {"footman": 2}, "house_lannister_captain", order="defense+1"),
        fiefdoms=["tyrell", "lannister"],
        supports=(support("lannister", "defender", {"footman": 1}),),
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", units=1, support=1, total=4)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}
    assert "ser_loras_tyrell destroys a footman" in all_notes(r)


def test_ser_loras_tyrell_finds_no_footman_among_knights():
    """Tyrell attacks Kingswood: 1 knight (2) + Loras 2 = 4 vs Stark 2 knights (4) + Rodrik 1 =
    5: no footman to destroy, Stark wins."""
    r = fight(
        "kingswood",
        side("tyrell", {"knight": 1}, "ser_loras_tyrell"),
        side("stark", {"knight": 2}, "ser_rodrick_cassel"),
        fiefdoms=["tyrell", "stark"],
    )
    assert r.p_attacker_wins == 0.0
    assert "ser_loras_tyrell finds no footman" in all_notes(r)
    assert destroyed(r, "defender") == {}


def test_ser_loras_tyrell_kills_the_last_defender_and_the_battle_goes_on():
    """Tyrell attacks Kingswood with 1 footman (1) + Loras 2 = 3 vs Baratheon 1 footman +
    defense+1 (1) + Stannis 3 + a supporting Baratheon knight (2). Loras destroys the only
    defending footman; the battle still resolves on the rest: 3 vs 6, Baratheon wins with no unit
    left in the area, and Stannis's sword destroys the Tyrell footman (rules digest §6 D10)."""
    r = fight(
        "kingswood",
        side("tyrell", {"footman": 1}, "ser_loras_tyrell"),
        side("baratheon", {"footman": 1}, "stannis_baratheon", order="defense+1"),
        fiefdoms=["tyrell", "baratheon"],
        supports=(support("baratheon", "defender", {"knight": 1}),),
    )
    assert r.p_attacker_wins == 0.0
    check(r, "defender", units=0, total=6)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert destroyed(r, "attacker") == {"footman": 1.0}


def test_margaery_tyrell_fortification():
    """Stark attacks Kingswood: 2 knights (4) + Greatjon 2 = 6 vs Tyrell 1 footman + Margaery 1
    = 2. Stark wins; 1 sword − 1 fortification = 0: the footman retreats routed."""
    r = fight(
        "kingswood",
        side("stark", {"knight": 2}, "greatjon_umber"),
        side("tyrell", {"footman": 1}, "margaery_tyrell"),
        fiefdoms=["tyrell", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", card=1, fortifications=1, total=2)
    assert destroyed(r, "defender") == {}
    assert routed(r, "defender") == {"footman": 1.0}


def test_house_tyrell_captain_one_sword():
    """Tyrell attacks Kingswood: 2 knights (4) + Captain 1 = 5 vs Greyjoy 2 footmen (2) + Theon 2
    = 4. Tyrell wins; 1 sword: 1 footman destroyed, 1 routed."""
    r = fight(
        "kingswood",
        side("tyrell", {"knight": 2}, "house_tyrell_captain"),
        side("greyjoy", {"footman": 2}, "theon_greyjoy"),
        fiefdoms=["greyjoy", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", card=1, swords=1, total=5)
    assert destroyed(r, "defender") == {"footman": 1.0}
    assert routed(r, "defender") == {"footman": 1.0}


def test_queen_of_thorns_cancels_catelyn():
    """Tyrell attacks Winterfell: 2 knights (4) + Queen of Thorns 0 = 4 vs Stark 1 footman (1) +
    defense+2 (2) + Catelyn 0 = 3, her doubling cancelled (5 with it, and Stark would win).
    Tyrell wins."""
    r = fight(
        "winterfell",
        side("tyrell", {"knight": 2}, "queen_of_thorns"),
        side("stark", {"footman": 1}, "catelyn_stark", order="defense+2"),
        fiefdoms=["stark", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", order=2, card_modifiers=0, total=3)
    assert "queen_of_thorns cancels the text of catelyn_stark" in all_notes(r)


def test_queen_of_thorns_cancels_ser_jaimes_power():
    """Lannister attacks Kingswood: 2 knights (4) + Jaime 2 = 6 vs Tyrell 1 footman + Queen of
    Thorns 0 = 1. Lannister wins but takes no power: Jaime's text is cancelled."""
    r = fight(
        "kingswood",
        side("lannister", {"knight": 2}, "ser_jaime_lannister"),
        side("tyrell", {"footman": 1}, "queen_of_thorns"),
        fiefdoms=["tyrell", "lannister"],
    )
    assert r.p_attacker_wins == 1.0
    assert r.power == {"attacker": 0.0, "defender": 0.0}


def test_queen_of_thorns_cancels_vargo_and_melisandre():
    """Lannister attacks Kingswood: 3 footmen (3) + Vargo (cancelled) = 3 vs Tyrell 2 footmen (2)
    + defense+1 (1) + Queen of Thorns 0 = 3; Tyrell wins the tie on Fiefdoms (6 vs 3 with Vargo).
    A cancelled Melisandre cannot make anyone discard."""
    r = fight(
        "kingswood",
        side("lannister", {"footman": 3}, "vargo_hoat"),
        side("tyrell", {"footman": 2}, "queen_of_thorns", order="defense+1"),
        fiefdoms=["tyrell", "lannister"],
    )
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", card_modifiers=0, total=3)
    spec = make_spec(
        "kingswood",
        side("baratheon", {"knight": 2}, "melisandre_of_asshai"),
        side(
            "tyrell",
            {"footman": 1},
            "queen_of_thorns",
            hand=["queen_of_thorns", "mace_tyrell"],
        ),
        fiefdoms=["tyrell", "baratheon"],
    )
    b = played(spec)
    assert cb.cancel_opponent_text(b, cb.DEFENDER, TABLE.ability)
    assert not cb.melisandre_discard(b, cb.ATTACKER, TABLE.ability, number("mace_tyrell"))


def test_brienne_of_tarth_removes_the_defense_order():
    """Tyrell attacks Winterfell: 2 knights (4) + Brienne 0 = 4 vs Stark 2 footmen (2) +
    defense+2 + Rodrik 1. Brienne removes the defense order at once: 4 vs 3, Tyrell wins (4 vs 5
    with the order)."""
    r = fight(
        "winterfell",
        side("tyrell", {"knight": 2}, "brienne_of_tarth"),
        side("stark", {"footman": 2}, "ser_rodrick_cassel", order="defense+2"),
        fiefdoms=["stark", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", order=0, total=3)
    assert "brienne_of_tarth removes the defense order" in all_notes(r)


def test_brienne_of_tarth_leaves_catelyn_nothing_to_double():
    """Tyrell attacks Winterfell: 2 knights (4) + Brienne 0 = 4 vs Stark 2 footmen (2) +
    defense+2 (2) + Catelyn +2 = 6. Brienne ("immediately") removes the order before strengths
    are summed, so Catelyn doubles nothing: 4 vs 2, Tyrell wins."""
    r = fight(
        "winterfell",
        side("tyrell", {"knight": 2}, "brienne_of_tarth"),
        side("stark", {"footman": 2}, "catelyn_stark", order="defense+2"),
        fiefdoms=["stark", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "defender", order=0, card_modifiers=0, total=2)


def test_brienne_of_tarth_defending_changes_nothing():
    """Stark attacks Highgarden: 1 knight (2) + march+1 (1) + Rodrik 1 = 4 vs Tyrell 1 footman
    (1) + defense+1 (1) + Brienne 0 = 2. The attacker has no defense order to lose: Stark wins."""
    r = fight(
        "highgarden",
        side("stark", {"knight": 1}, "ser_rodrick_cassel", order="march+1"),
        side("tyrell", {"footman": 1}, "brienne_of_tarth", order="defense+1"),
        fiefdoms=["tyrell", "stark"],
    )
    assert r.p_attacker_wins == 1.0
    check(r, "attacker", order=1, total=4)
    check(r, "defender", order=1, total=2)
    assert all_notes(r) == []


# === 1st-edition rules ============================================================================


def test_1e_routed_units_die_without_counting_as_casualties():
    """Lannister attacks Kingswood: 2 knights (4) + Tywin 3 = 7 vs Stark 1 footman + 1 knight (3)
    + Rodrik 1 = 4, with 2 routed Stark footmen in the area. Lannister wins; casualties 2 swords −
    1 fortification = 1. In the 1st edition the routed footmen die on top of that (seed 001: they
    do not count toward the casualties), so the fighting footman is lost too and only the knight
    retreats. The 2nd edition now reads the same (rulebook p.21, C10: routed units are never
    casualties), so the vector gives the same losses in both editions."""
    spec = make_spec(
        "kingswood",
        side("lannister", {"knight": 2}, "tywin_lannister"),
        side("stark", {"footman": 1, "knight": 1}, "ser_rodrick_cassel", routed={"footman": 2}),
        fiefdoms=["stark", "lannister"],
    )
    r = combat_odds(spec, model="fixed")
    assert r.p_attacker_wins == 1.0
    assert destroyed(r, "defender") == {"footman": 3.0}
    assert routed(r, "defender") == {"knight": 1.0}
    b = played(spec)
    out = np.zeros((2, cb.N_PARTS), np.int64)
    cb.strength_breakdown(b, TABLE.arrays(), cb.tides_deck().arrays(), out)
    for first_edition, lost_footmen, routed_footmen in ((1, 3, 0), (0, 3, 0)):
        b[cb.FIRST_EDITION] = first_edition
        lost, left = np.zeros((2, 4), np.int64), np.zeros((2, 4), np.int64)
        cb.settle_losses(b, out, cb.ATTACKER, TABLE.ability, lost, left, np.zeros(4, np.int64))
        assert (lost[cb.DEFENDER, cb.FOOTMAN], left[cb.DEFENDER, cb.FOOTMAN]) == (
            lost_footmen,
            routed_footmen,
        )


def test_1e_casualties_are_the_winners_swords_when_the_defender_wins():
    """Lannister attacks Kingswood: 2 footmen (2) + Cersei 0 = 2 vs Tyrell 2 footmen (2) +
    defense+1 (1) + Mace 3 = 6. Tyrell wins; the loser loses winner's swords − loser's
    fortifications = 2 − 0 = 2: both footmen die. (Seed 001 literally says attacker's swords −
    defender's fortifications, which would be 0 here: read as a slip, rules digest §6 D5.)"""
    r = fight(
        "kingswood",
        side("lannister", {"footman": 2}, "cersei_lannister"),
        side("tyrell", {"footman": 2}, "mace_tyrell", order="defense+1"),
        fiefdoms=["tyrell", "lannister"],
    )
    assert r.p_attacker_wins == 0.0
    assert destroyed(r, "attacker") == {"footman": 2.0}
    assert routed(r, "attacker") == {}


@pytest.mark.parametrize(("attacker", "defender"), [("stark", "lannister"), ("lannister", "stark")])
def test_1e_tie_goes_to_the_house_higher_on_the_starting_fiefdoms_track(attacker, defender):
    """Without tracks in the spec the 5-player starting tracks apply (Fiefdoms: Greyjoy, Tyrell,
    Stark, Baratheon, Lannister). 2 footmen + a 2-strength card on each side: 4 = 4, and Stark,
    above Lannister, wins whether it attacks or defends. Greyjoy holds the blade, not fighting."""
    cards = {"stark": "greatjon_umber", "lannister": "tyrion_lannister"}
    r = fight(
        "kingswood",
        side(attacker, {"footman": 2}, cards[attacker]),
        side(defender, {"footman": 2}, cards[defender]),
        fiefdoms=None,
        blade=True,
    )
    assert r.p_attacker_wins == (1.0 if attacker == "stark" else 0.0)
    assert r.blade == {"plus_one": 0.0, "redraw": 0.0}
    assert destroyed(r, "attacker") == destroyed(r, "defender") == {}  # 1 sword − 1 fort


def test_1e_valyrian_steel_blade_adds_one_and_never_redraws():
    """Lannister holds the blade and attacks Kingswood: 2 footmen + Captain 1 = 3 vs Stark
    2 footmen + Rodrik 1 = 3; Stark wins the tie on Fiefdoms, so Lannister spends the blade:
    4 vs 3, Lannister wins (+1 in every battle, no Tides redraw in the 1st edition). With the
    blade already used this round, Stark wins."""
    spec = make_spec(
        "kingswood",
        side("lannister", {"footman": 2}, "house_lannister_captain"),
        side("stark", {"footman": 2}, "ser_rodrick_cassel"),
        fiefdoms=["stark", "lannister"],
        blade=True,
        blade_holder="lannister",
    )
    r = combat_odds(spec, model="fixed")
    assert r.p_attacker_wins == 1.0
    assert r.blade == {"plus_one": 1.0, "redraw": 0.0}
    assert combat_odds({**spec, "blade_used": True}, model="fixed").p_attacker_wins == 0.0


def test_1e_rains_of_autumn_supporting_footmen_add_nothing():
    """Rains of Autumn (1st edition): Lannister attacks Kingswood with 2 footmen + Vargo (+2,
    fighting footmen are untouched) = 4, supported by 2 Lannister footmen (0 under Rains) with
    support+1 (+1) and a Greyjoy knight (2): 7 vs Stark 2 knights (4) + defense+2 (2) + Rodrik 1
    = 7, Stark wins the tie; without Rains the footmen would add 2."""
    spec = make_spec(
        "kingswood",
        side("lannister", {"footman": 2}, "vargo_hoat"),
        side("stark", {"knight": 2}, "ser_rodrick_cassel", order="defense+2"),
        fiefdoms=["stark", "lannister"],
        supports=(
            support("lannister", "attacker", {"footman": 2}, "support+1"),
            support("greyjoy", "attacker", {"knight": 1}),
        ),
        rains_of_autumn=True,
    )
    r = combat_odds(spec, model="fixed")
    assert r.p_attacker_wins == 0.0
    check(r, "attacker", units=2, card_modifiers=2, support=3, total=7)
    dry = combat_odds({**spec, "rains_of_autumn": False}, model="fixed")
    assert dry.p_attacker_wins == 1.0
    check(dry, "attacker", support=5, total=9)


def test_1e_neutral_force_falls_to_equal_strength_without_routing():
    """Lannister attacks King's Landing (neutral force 5) with 3 footmen and a knight (5) on
    march+0: taken. On march−1 (4) the attack fails, and the attackers are not routed."""
    spec = {
        "edition": "1e",
        "area": "kings_landing",
        "attacker": {"house": "lannister", "units": {"footman": 3, "knight": 1}},
        "defender": {"neutral_force": 5},
    }
    assert combat_odds(spec).p_attacker_wins == 1.0
    failed = combat_odds({**spec, "attacker": {**spec["attacker"], "order": "march-1"}})
    assert failed.p_attacker_wins == 0.0
    assert routed(failed, "attacker") == {} and destroyed(failed, "attacker") == {}


def test_1e_neutral_army_fights_with_its_units_and_is_destroyed():
    """A 4-player game leaves Greyjoy's footman and knight on Pyke as a neutral army (rules digest
    §6 D8): it defends with its units' strength (3), no cards, blade or support. 2 knights (4)
    take Pyke and destroy both units; a knight and a footman (3) take it on the tie; a lone
    knight (2) fails without being routed. At sea its ships count 1 each."""
    army = {
        "edition": "1e",
        "area": "pyke",
        "defender": {"neutral_army": {"footman": 1, "knight": 1}},
    }
    win = combat_odds({**army, "attacker": {"house": "lannister", "units": {"knight": 2}}})
    assert win.p_attacker_wins == 1.0
    assert destroyed(win, "defender") == {"footman": 1.0, "knight": 1.0}
    check(win, "defender", units=3, total=3)
    tie = combat_odds(
        {**army, "attacker": {"house": "stark", "units": {"knight": 1, "footman": 1}}}
    )
    assert tie.p_attacker_wins == 1.0
    failed = combat_odds({**army, "attacker": {"house": "stark", "units": {"knight": 1}}})
    assert failed.p_attacker_wins == 0.0
    assert routed(failed, "attacker") == {} and destroyed(failed, "defender") == {}
    fleet = {"edition": "1e", "area": "ironmans_bay", "defender": {"neutral_army": {"ship": 2}}}
    sea = combat_odds({**fleet, "attacker": {"house": "lannister", "units": {"ship": 1}}})
    assert sea.p_attacker_wins == 0.0


def test_1e_defender_without_retreat_loses_every_unit():
    """Lannister attacks Kingswood: 2 knights (4) + Captain 1 = 5 vs Baratheon 2 footmen + 1
    knight (4) + Florent Lord 1 = 5 — Lannister above on Fiefdoms wins the tie. 1 sword kills a
    footman; with no legal retreat the other footman and the knight die too."""
    r = fight(
        "kingswood",
        side("lannister", {"knight": 2}, "house_lannister_captain"),
        side(
            "baratheon",
            {"footman": 2, "knight": 1},
            "house_florent_lord",
            no_retreat=True,
        ),
        fiefdoms=["lannister", "baratheon"],
    )
    assert r.p_attacker_wins == 1.0
    assert destroyed(r, "defender") == {"footman": 2.0, "knight": 1.0}
    assert routed(r, "defender") == {}


@pytest.mark.parametrize(
    ("first", "second"),
    list(combinations(["baratheon", "lannister", "stark", "greyjoy", "tyrell"], 2)),
)
def test_1e_ability_order_does_not_change_any_battle(first, second):
    """Rules digest §6 D10: the 1st-edition seeds give no order for same-timing abilities. No
    two 1st-edition cards of different houses share a timing window where order matters (the one
    cancel and both 'immediately' abilities are Tyrell's), so every card pair gives the same
    result whichever combatant leads the Iron Throne."""
    spec = make_spec(
        "kingswood",
        side(
            first,
            {"footman": 2, "knight": 1},
            hand=[c.id for c in house_deck("1e", House.from_id(first))],
        ),
        side(second, {"footman": 2, "knight": 1}, order="defense+1"),
        fiefdoms=[first, second],
        iron_throne=[first, second],
        supports=(support(first, "attacker", {"footman": 1}),),
    )
    lead = combat_odds(spec)
    follow = combat_odds({**spec, "iron_throne": [second, first]})
    np.testing.assert_array_equal(lead.matrix, follow.matrix)


def test_1e_card_table_keeps_each_editions_meaning_of_a_shared_tag():
    """Victarion's tag exists in both editions: the 2nd-edition card also counts supporting ships,
    the 1st-edition one only the attacking ships, so the tag maps to different abilities."""
    two = cb.card_table("2e")
    assert two.ability[two.number("victarion_greyjoy")] == cb.Ability.VICTARION
    one = TABLE.number("victarion_greyjoy")
    assert TABLE.ability[one] == cb.Ability.ATTACKING_UNITS_PLUS1
    assert TABLE.ref[one] == cb.SHIP
    assert TABLE.ref[TABLE.number("vargo_hoat")] == cb.FOOTMAN
    assert TABLE.ref[TABLE.number("robb_stark")] == cb.KNIGHT


def test_1e_exact_and_sampled_odds_agree_on_the_example():
    """The example battle's exact uniform odds and 20,000 sampled battles agree within 3 s.e."""
    path = EXAMPLES / "riverrun_1e.json"
    exact = combat_odds(path, model="uniform")
    sampled = combat_odds(path, model="uniform", samples=20_000, seed=3)
    assert exact.exact and not sampled.exact
    assert abs(exact.p_attacker_wins - sampled.p_attacker_wins) <= 3 * max(sampled.std_error, 1e-3)


def test_1e_equilibrium_is_optimal_on_the_example():
    """Equilibrium strategies of the example battle: neither side gains by deviating."""
    r = combat_odds(EXAMPLES / "riverrun_1e.json", model="equilibrium")
    x = np.array(list(r.attacker_strategy.values()))
    y = np.array(list(r.defender_strategy.values()))
    assert r.game_value is not None
    assert (r.matrix @ y).max() <= r.game_value + 1e-7
    assert (x @ r.matrix).min() >= r.game_value - 1e-7


# === specs and the command line ===================================================================

BASE = {
    "edition": "1e",
    "area": "kingswood",
    "attacker": {"house": "lannister", "units": {"footman": 2}},
    "defender": {"house": "stark", "units": {"footman": 1}},
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tides_of_battle": True}, "tides_of_battle: Tides of Battle is a 2nd-edition variant"),
        (
            {"attacker": {"house": "martell", "units": {"footman": 1}}},
            "attacker.house: martell is not a 1e house",
        ),
        (
            {"attacker": {"house": "lannister", "units": {"footman": 1, "siege_engine": 1}}},
            "attacker.units.siege_engine: the 1st-edition base game has no siege engines",
        ),
        (
            {"defender": {"house": "stark", "units": {"footman": 1}, "garrison": 2}},
            "defender.garrison: the 1st-edition base game has no garrisons",
        ),
        (
            {"defender": {"house": "stark", "units": {"footman": 1}, "hand": ["the_blackfish"]}},
            "defender.hand[0]: 'the_blackfish' is not a stark house card in the 1e (it is a 2e",
        ),
        (
            {"attacker": {"house": "lannister", "units": {"footman": 1}, "card": "the_hound"}},
            "attacker.card: unknown house card 'the_hound'",
        ),
        (
            {"support": [{"house": "martell", "side": "attacker", "units": {"footman": 1}}]},
            "support[0].house: martell is not a 1e house",
        ),
        ({"edition": "2e", "defender": {"neutral_army": {"footman": 1}}}, "defender.neutral_army"),
        ({"defender": {"neutral_army": {}}}, "a neutral army needs at least one unit"),
    ],
)
def test_1e_bad_specs_say_what_is_wrong(change, message):
    with pytest.raises(BattleSpecError) as info:
        parse_battle({**BASE, **change})
    assert message in str(info.value)


def test_1e_bad_spec_on_the_command_line_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**BASE, "tides_of_battle": True}), encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["combat", str(path)])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Tides of Battle is a 2nd-edition variant" in err[0]


def test_1e_combat_command_prints_exact_odds(capsys):
    for model in ("fixed", "uniform", "equilibrium"):
        assert main(["combat", str(EXAMPLES / "riverrun_1e.json"), "--model", model, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["exact"] is True and out["model"] == model
        assert out["p_attacker_wins"] + out["p_defender_wins"] == pytest.approx(1.0)


def test_1e_cards_json_reports_what_is_implemented(capsys):
    """``gotsim cards --edition 1e --json``: 35 cards, every one carried by the engine; Cersei
    and Asha (orders elsewhere on the board) by the engine alone."""
    assert main(["cards", "--edition", "1e", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    assert len(cards) == 35 == len(house_cards("1e"))
    engine_only = {c["id"] for c in cards if c["implemented_in"] == ["engine"]}
    assert engine_only == {"cersei_lannister", "asha_greyjoy"}
    assert all(c["implemented_in"] in (["engine"], ["combat", "engine"]) for c in cards)
