"""A casebook of the Mother of Dragons house cards: House Arryn's and House Targaryen's decks A
(the set ``"mod"``) and House Targaryen's deck B (with the A Dance with Dragons decks, the set
``"adwd"``), in the style of ``test_affc_arryn_casebook.py``: the odds calculator
(``model="fixed"``) first, then the engine (decisions answered in words), then the deck data
and the ``gotsim cards --set mod`` listing.

Rules decisions are in ``docs/rules.md`` (M1). Daenerys Targaryen's deck A card counts the
dragons in the combat through ``combat.dragons_in_combat``, which is 0 while gotsim has no
dragons (the Mother of Dragons unit type): her +2 is checked as +0 here, and waits for them.
The engine cases are 6-player games in round 1 where Arryn or Targaryen takes Greyjoy's seat
(Fiefdoms first, Iron Throne fifth), with power 5 each and full hands.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from combatcase import all_notes, check, make_spec, side, support
from enginecase import Case, seated_for_greyjoy

from gotsim.engine import combat as cb
from gotsim.engine.battle.mod import ROBERT_ALONE
from gotsim.engine.invariants import violations
from gotsim.odds import BattleSpecError, combat_odds
from gotsim.play.simulate import play_batch
from gotsim.rules.cards import Ability, card_table, game_cards, house_cards, house_deck
from gotsim.rules.ids import House
from gotsim.rules.variants import Rules

ARRYN = int(House.ARRYN)
TARGARYEN = int(House.TARGARYEN)
GREYJOY = int(House.GREYJOY)
ARRYN_A = [c.id for c in house_deck("2e", House.ARRYN, "mod")]
TARGARYEN_A = [c.id for c in house_deck("2e", House.TARGARYEN, "mod")]
TARGARYEN_B = [c.id for c in house_deck("2e", House.TARGARYEN, "adwd")]
SHARED = Path(__file__).resolve().parents[2] / "shared/reference/agot2e/house_cards_variants.json"


def fight(*args: Any, cards: str = "mod", **kwargs: Any):
    """A battle with the Mother of Dragons decks A (``cards="adwd"``: Targaryen's deck B)."""
    if cards == "adwd":
        kwargs["adwd_house_cards"] = True
    else:
        kwargs["house_cards"] = cards
    return combat_odds(make_spec(*args, **kwargs), model="fixed")


# =================================================================================================
# 1. The calculator (the combat code the engine shares)
# =================================================================================================


@pytest.mark.parametrize(
    ("stark_card", "bonus", "forts"), [("greatjon_umber", 1, 2), ("robb_stark", 0, 0)]
)
def test_mod_ser_vardis_egen_against_a_weak_card(stark_card: str, bonus: int, forts: int):
    """Ser Vardis Egen (2): against a card printed 2 or less (Greatjon Umber) +1 and two
    fortifications; against Robb Stark (3) nothing."""
    r = fight(
        "the_twins",
        side("arryn", {"footman": 1}, "ser_vardis_egen"),
        side("stark", {"footman": 1}, stark_card),
        fiefdoms=["stark", "arryn"],
    )
    check(r, "attacker", card=2, card_modifiers=bonus, fortifications=forts, total=3 + bonus)


def test_mod_godric_borrell_defending_a_sea():
    """Godric Borrell (1) defending The Narrow Sea with a ship, holding 2 of the land areas next
    to it: 1 + 1 + 2 = 4. Attacking, or defending a land area, he adds nothing; the count is a
    defender's field of sea battles only."""
    r = fight(
        "the_narrow_sea",
        side("stark", {"ship": 1}, "catelyn_stark"),
        side("arryn", {"ship": 1}, "godric_borrell", adjacent_lands_held=2),
        fiefdoms=["stark", "arryn"],
    )
    check(r, "defender", units=1, card=1, card_modifiers=2, total=4)
    r = fight(
        "the_narrow_sea",
        side("arryn", {"ship": 1}, "godric_borrell"),
        side("stark", {"ship": 1}, "catelyn_stark"),
        fiefdoms=["stark", "arryn"],
    )
    check(r, "attacker", card_modifiers=0, total=2)
    with pytest.raises(BattleSpecError, match="adjacent_lands_held"):
        fight(
            "the_twins",
            side("stark", {"footman": 1}, "catelyn_stark"),
            side("arryn", {"footman": 1}, "godric_borrell", adjacent_lands_held=2),
            fiefdoms=["stark", "arryn"],
        )


def test_mod_anya_waynwood_three_power_on_a_win():
    """Anya Waynwood (1): Arryn wins (2 footmen + 1 against a footman and Catelyn Stark) and
    takes 3 power tokens (the calculator counts Arryn's own; the engine pays its supporters
    too); beaten, nothing."""
    r = fight(
        "the_twins",
        side("arryn", {"footman": 2}, "anya_waynwood"),
        side("stark", {"footman": 1}, "catelyn_stark"),
        fiefdoms=["stark", "arryn"],
    )
    assert r.p_attacker_wins == 1.0 and r.power == {"attacker": 3.0, "defender": 0.0}
    r = fight(
        "the_twins",
        side("arryn", {"footman": 1}, "anya_waynwood"),
        side("stark", {"knight": 1}, "catelyn_stark"),
        fiefdoms=["stark", "arryn"],
    )
    assert r.p_attacker_wins == 0.0 and r.power == {"attacker": 0.0, "defender": 0.0}


@pytest.mark.parametrize(
    ("card", "numbers"),
    [
        ("lysa_arryn_mod", (4, 0, 0)),
        ("bronze_yohn_royce_mod", (3, 1, 2)),
        ("harry_hardyng", (2, 1, 0)),
        ("robert_arryn", (0, 0, 0)),
        ("arstan_whitebeard", (3, 1, 1)),
        ("ser_jorah_mormont", (2, 1, 1)),
        ("daario_naharis", (3, 1, 0)),
        ("gray_worm", (2, 1, 1)),
        ("strong_belwas", (2, 2, 0)),
        ("missandei", (0, 0, 0)),
    ],
)
def test_mod_printed_numbers(card: str, numbers: tuple[int, int, int]):
    """The cards without a strength ability fight with their printed numbers (Lysa Arryn's,
    Robert Arryn's and Missandei's abilities act after the winner is known, in the engine):
    a footman and the card, attacking The Twins, no power changing hands."""
    house = "arryn" if card in ARRYN_A else "targaryen"
    cards = "adwd" if card in TARGARYEN_B else "mod"
    stark = "steelshanks_walton" if cards == "adwd" else "catelyn_stark"
    r = fight(
        "the_twins",
        side(house, {"footman": 1}, card),
        side("stark", {"footman": 1}, stark),
        fiefdoms=["stark", house],
        cards=cards,
    )
    strength, swords, forts = numbers
    check(r, "attacker", card=strength, card_modifiers=0, swords=swords, fortifications=forts)
    assert r.power == {"attacker": 0.0, "defender": 0.0}


def test_mod_khal_drogo_knights_worth_three_and_a_sword_each():
    """Khal Drogo (4) attacking with 2 knights, a third supporting: 4 + 2 + 2 (his +1 per
    fighting knight) + 2 (the supporting knight, unchanged) = 10, and two swords."""
    r = fight(
        "the_twins",
        side("targaryen", {"knight": 2}, "khal_drogo"),
        side("stark", {"footman": 1}, "catelyn_stark"),
        fiefdoms=["stark", "targaryen"],
        supports=(support("targaryen", "attacker", {"knight": 1}),),
    )
    check(r, "attacker", units=4, support=2, card=4, card_modifiers=2, swords=2, total=12)


@pytest.mark.parametrize(("stark_ships", "bonus"), [(1, 2), (2, 0)])
def test_mod_xaro_xhoan_daxos_more_ships(stark_ships: int, bonus: int):
    """Xaro Xhoan Daxos (2) with 2 ships against 1: each worth 2 (+2); against 2, nothing."""
    r = fight(
        "the_narrow_sea",
        side("targaryen", {"ship": 2}, "xaro_xhoan_daxos"),
        side("stark", {"ship": stark_ships}, "catelyn_stark"),
        fiefdoms=["stark", "targaryen"],
    )
    check(r, "attacker", units=2, card=2, card_modifiers=bonus, total=4 + bonus)


def test_mod_daenerys_a_with_a_dragon():
    """Daenerys Targaryen (deck A, 1) with a dragon of strength 2 (rounds 4-5) in her army:
    +2 (M3, M11)."""
    r = fight(
        "the_twins",
        side("targaryen", {"dragon": 1}, "daenerys_targaryen_a"),
        side("stark", {"footman": 1}, "catelyn_stark"),
        fiefdoms=["stark", "targaryen"],
        dragon_strength=2,
    )
    check(r, "attacker", units=2, card=1, card_modifiers=2, total=5)


def test_mod_daenerys_a_without_dragons():
    """Daenerys Targaryen (deck A, 1) gains +2 only when a dragon takes part: without one
    (``dragons_in_combat`` is 0) she adds +0."""
    r = fight(
        "the_twins",
        side("targaryen", {"footman": 1}, "daenerys_targaryen_a"),
        side("stark", {"footman": 1}, "catelyn_stark"),
        fiefdoms=["stark", "targaryen"],
    )
    check(r, "attacker", card=1, card_modifiers=0, total=2)
    assert cb.dragons_in_combat(cb.new_battle()) == 0


def test_mod_viserys_throws_away_the_card_that_wins():
    """Viserys Targaryen (1) with a footman against a footman and Eddard Stark (5): he throws
    away Khal Drogo (+4, his printed strength) and wins 6 - 5; Ser Jorah (+2) would not do. With
    nothing to throw away he loses."""
    r = fight(
        "the_twins",
        side(
            "targaryen",
            {"footman": 1},
            "viserys_targaryen",
            hand=["viserys_targaryen", "ser_jorah_mormont", "khal_drogo"],
        ),
        side("stark", {"footman": 1}, "eddard_stark"),
        fiefdoms=["stark", "targaryen"],
    )
    assert r.p_attacker_wins == 1.0
    assert "viserys_targaryen throws away khal_drogo for +4" in all_notes(r)
    r = fight(
        "the_twins",
        side("targaryen", {"footman": 1}, "viserys_targaryen"),
        side("stark", {"footman": 1}, "eddard_stark"),
        fiefdoms=["stark", "targaryen"],
    )
    assert r.p_attacker_wins == 0.0


@pytest.mark.parametrize(("stark", "gain"), [({"footman": 1}, 1.0), ({"footman": 2}, 0.0)])
def test_mod_illyrio_mopatis_power_from_the_difference(stark: dict[str, int], gain: float):
    """Illyrio Mopatis (0): after the combat Targaryen takes the difference between the final
    strengths, won or lost: 2 footmen against one and Catelyn Stark, 2 - 1, takes 1; at a tie
    (2 - 2, Targaryen winning on Fiefdoms) the difference is 0."""
    r = fight(
        "the_twins",
        side("targaryen", {"footman": 2}, "illyrio_mopatis"),
        side("stark", stark, "catelyn_stark"),
        fiefdoms=["targaryen", "stark"],
    )
    assert r.power == {"attacker": gain, "defender": 0.0}


@pytest.mark.parametrize(("stark_power", "loss"), [(5, -3.0), (2, -2.0)])
def test_mod_daenerys_b_opponent_discards_the_difference(stark_power: int, loss: float):
    """Daenerys Targaryen (deck B, 4) with a footman beats a footman and Walder Frey, 5 - 2: Stark
    discards 3 of its power tokens, or the 2 it has."""
    r = fight(
        "the_twins",
        side("targaryen", {"footman": 1}, "daenerys_targaryen_b"),
        side("stark", {"footman": 1}, "walder_frey", power=stark_power),
        fiefdoms=["stark", "targaryen"],
        cards="adwd",
    )
    assert r.p_attacker_wins == 1.0
    assert r.power == {"attacker": 0.0, "defender": loss}


def test_mod_captain_groleo_ships_next_to_a_transported_attack():
    """Captain Groleo (1) attacking The Twins by ship transport with 2 of Targaryen's ships next
    to it: +2; without transport (the default) nothing; the count is an attacker's field of land
    battles only."""
    r = fight(
        "the_twins",
        side("targaryen", {"footman": 1}, "captain_groleo", transport_ships=2),
        side("stark", {"footman": 1}, "walder_frey"),
        fiefdoms=["stark", "targaryen"],
        cards="adwd",
    )
    check(r, "attacker", card=1, card_modifiers=2, total=4)
    r = fight(
        "the_twins",
        side("targaryen", {"footman": 1}, "captain_groleo"),
        side("stark", {"footman": 1}, "walder_frey"),
        fiefdoms=["stark", "targaryen"],
        cards="adwd",
    )
    check(r, "attacker", card_modifiers=0, total=2)
    with pytest.raises(BattleSpecError, match="transport_ships"):
        fight(
            "the_narrow_sea",
            side("targaryen", {"ship": 1}, "captain_groleo", transport_ships=2),
            side("stark", {"ship": 1}, "walder_frey"),
            fiefdoms=["stark", "targaryen"],
            cards="adwd",
        )


@pytest.mark.parametrize(("area", "bonus"), [("the_twins", 4), ("crackclaw_point", 0)])
def test_mod_rakharo_knights_in_open_land(area: str, bonus: int):
    """Rakharo (1) with 2 knights: worth 4 each in The Twins (no castle or stronghold), +4; at
    Crackclaw Point (a castle) 2 each."""
    r = fight(
        area,
        side("targaryen", {"knight": 2}, "rakharo"),
        side("stark", {"footman": 1}, "walder_frey"),
        fiefdoms=["stark", "targaryen"],
        cards="adwd",
    )
    check(r, "attacker", units=4, card=1, card_modifiers=bonus)


def test_mod_spec_refusals():
    """A Mother of Dragons card outside its set is refused with the set to name; ``house_cards``
    names a known set, and not beside ``adwd_house_cards`` unless it is "adwd"."""
    with pytest.raises(BattleSpecError, match='"house_cards": "mod"'):
        combat_odds(
            make_spec(
                "the_twins",
                side("arryn", {"footman": 1}, "ser_vardis_egen"),
                side("stark", {"footman": 1}, "catelyn_stark"),
                fiefdoms=["stark", "arryn"],
            )
        )
    with pytest.raises(BattleSpecError, match="unknown house-card set"):
        fight(
            "the_twins",
            side("arryn", {"footman": 1}),
            side("stark", {"footman": 1}),
            fiefdoms=["stark", "arryn"],
            cards="essos",
        )
    with pytest.raises(BattleSpecError, match="two decks at once"):
        fight(
            "the_twins",
            side("arryn", {"footman": 1}),
            side("stark", {"footman": 1}),
            fiefdoms=["stark", "arryn"],
            adwd_house_cards=True,
        )


# =================================================================================================
# 2. The engine
# =================================================================================================


def seated(house: int, card_set: str = "mod", power: int = 5) -> Case:
    """A 6-player record in the marches, the Mother of Dragons decks of ``card_set``, where
    ``house`` (Arryn or Targaryen) plays in Greyjoy's place with its full hand (see the module
    docstring); The Eyrie's neutral force gone."""
    c = Case(6, house_cards=card_set).phase("marches")
    c.rules = c.rules.copy()
    c.t = c.rules[0]
    t, g = c.t, c.g
    t.unit_limits[house] = t.unit_limits[GREYJOY]
    t.power_total[house] = t.power_total[GREYJOY]
    g.in_play[GREYJOY] = 0
    g.in_play[house] = 1
    g.garrison[c.board.index("pyke")] = 0
    g.neutral[c.board.index("the_eyrie")] = 0
    g.hand[GREYJOY] = g.discard[GREYJOY] = 0
    g.power[GREYJOY] = 0
    g.track[g.track == GREYJOY] = house
    name = House(house).id
    c.hand(name, *c.deck[House(house)], discard=())
    return c.power(**{name: power})


def stark_attacks(
    c: Case, house: str, units: str, stark: str, card: str, stark_card: str, order: str = ""
) -> Case:
    """Stark marches ``stark`` units from the Mountains of the Moon into The Eyrie, held by
    ``house``'s ``units`` (with ``order``); both play their cards."""
    c.place(f"""
        the_mountains_of_the_moon  stark {stark} march+0
        the_eyrie                  {house} {units} {order}
    """)
    return c.play(f"""
        stark MARCH_FROM the_mountains_of_the_moon
        stark MARCH_UNIT {stark[-1]} the_eyrie
        stark HOUSE_CARD {stark_card}
        {house} HOUSE_CARD {card}
    """)


def attacks_stark(c: Case, house: str, units: str, stark: str, card: str, stark_card: str) -> Case:
    """``house`` marches ``units`` (one type) from the Mountains of the Moon into The Twins,
    held by Stark's ``stark``; both play their cards."""
    c.place(f"""
        the_mountains_of_the_moon  {house} {units} march+0
        the_twins                  stark {stark}
    """)
    moves = "\n".join(
        f"{house} MARCH_UNIT {units[-1]} the_twins" for _ in range(int(units[:-1] or 1))
    )
    return c.play(f"""
        {house} MARCH_FROM the_mountains_of_the_moon
        {moves}
        {house} HOUSE_CARD {card}
        stark HOUSE_CARD {stark_card}
    """)


@pytest.mark.parametrize("keep", [True, False])
def test_mod_engine_lysa_arryn_back_to_the_hand(keep: bool):
    """Arryn defends The Eyrie with a defense order (a footman, +1, Lysa Arryn: 6) against a
    knight and Greatjon Umber (4) and wins: it may put Lysa back into its hand instead of
    discarding her."""
    c = seated(ARRYN)
    c = stark_attacks(c, "arryn", "F", "K", "lysa_arryn_mod", "greatjon_umber", "defense+1")
    assert c.pending == "arryn CARD_ABILITY"
    assert c.options() == {"keep", "none"}
    c.play(f"arryn CARD_ABILITY {'keep' if keep else 'none'}")
    assert c.at("the_eyrie") == "arryn F"
    assert ("lysa_arryn_mod" in c.hand_of("arryn")) == keep
    assert c.discard_of("arryn") == (set() if keep else {"lysa_arryn_mod"})


def test_mod_engine_lysa_arryn_needs_the_defense_order():
    """Without a defense order in The Eyrie (2 footmen and Lysa: 6) Lysa asks nothing and is
    discarded."""
    c = stark_attacks(seated(ARRYN), "arryn", "2F", "K", "lysa_arryn_mod", "greatjon_umber")
    assert c.pending is None
    assert c.discard_of("arryn") == {"lysa_arryn_mod"}


@pytest.mark.parametrize(("stark_card", "holds"), [("greatjon_umber", True), ("robb_stark", False)])
def test_mod_engine_ser_vardis_egen(stark_card: str, holds: bool):
    """Stark (a knight) attacks The Eyrie (a footman and Ser Vardis Egen). Against Greatjon
    Umber (2) Vardis has +1: 4 - 4, Arryn first on Fiefdoms holds; against Robb Stark (3) he
    has nothing, 3 - 5, and Arryn's footman, with nowhere to retreat, is destroyed."""
    c = stark_attacks(seated(ARRYN), "arryn", "F", "K", "ser_vardis_egen", stark_card)
    assert c.at("the_eyrie") == ("arryn F" if holds else "stark K")


@pytest.mark.parametrize(("lands", "holds"), [(2, True), (0, False)])
def test_mod_engine_godric_borrell_counts_the_lands_next_to_the_sea(lands: int, holds: bool):
    """Stark (2 ships, Greatjon Umber: 4) attacks The Narrow Sea (an Arryn ship and Godric
    Borrell: 2). With Arryn's footmen in The Eyrie and The Fingers, Godric adds 2: 4 - 4, Arryn
    holds the sea; without them Arryn loses."""
    c = seated(ARRYN)
    c.place("""
        shipbreaker_bay  stark 2S march+0
        the_narrow_sea   arryn S
    """)
    if lands:
        c.place("""
            the_eyrie    arryn F
            the_fingers  arryn F
        """)
    c.play("""
        stark MARCH_FROM shipbreaker_bay
        stark MARCH_UNIT S the_narrow_sea
        stark MARCH_UNIT S the_narrow_sea
        stark HOUSE_CARD greatjon_umber
        arryn HOUSE_CARD godric_borrell
    """)
    assert c.g.battle[cb.NEARBY + cb.DEFENDER] == lands
    if holds:
        assert c.at("the_narrow_sea") == "arryn S"
    else:
        assert c.pending == "arryn CASUALTY"  # Greatjon's sword


def test_mod_engine_anya_waynwood_pays_her_supporters():
    """Arryn (2 footmen, Anya Waynwood: 3) attacks The Twins (a Stark footman and Catelyn
    Stark: 1) with Lannister's support from The Fingers and wins: Arryn and Lannister take 3
    power tokens each, Stark none."""
    c = seated(ARRYN)
    c.place("the_fingers lannister F support+0")
    c.place("""
        the_mountains_of_the_moon  arryn 2F march+0
        the_twins                  stark F
    """)
    c.play("""
        arryn MARCH_FROM the_mountains_of_the_moon
        arryn MARCH_UNIT F the_twins
        arryn MARCH_UNIT F the_twins
        lannister SUPPORT_SIDE attacker
        arryn HOUSE_CARD anya_waynwood
        stark HOUSE_CARD catelyn_stark
    """)
    assert c.power_of("arryn") == 8
    assert c.power_of("lannister") == 8
    assert c.power_of("stark") == 5


def test_mod_engine_robert_arryn_removes_the_lowest_discard():
    """Arryn defends The Eyrie with Robert Arryn and loses to a knight and Eddard Stark; after
    the combat it may take Robert and Stark's lowest discarded card (Ser Rodrick Cassel or the
    Blackfish, both 1) out of the game: neither is in a hand or a discard pile any more."""
    c = seated(ARRYN)
    c.hand("stark", "eddard_stark", "robb_stark", "roose_bolton", "greatjon_umber", "catelyn_stark")
    c = stark_attacks(c, "arryn", "2F", "K", "robert_arryn", "eddard_stark")
    c.play("""
        arryn CASUALTY F
        arryn CASUALTY F
    """)
    assert c.pending == "arryn CARD_ABILITY"
    assert c.options() == {"ser_rodrick_cassel", "the_blackfish", "none"}
    c.play("arryn CARD_ABILITY the_blackfish")
    assert c.discard_of("stark") == {"ser_rodrick_cassel", "eddard_stark"}
    assert "the_blackfish" not in c.hand_of("stark")
    assert "robert_arryn" not in c.hand_of("arryn") | c.discard_of("arryn")
    assert len(c.hand_of("arryn")) == 6


def test_mod_engine_robert_arryn_counts_the_card_just_played_and_only_defends():
    """The opponent's discard pile after the combat holds the card it has just played: with
    nothing else discarded, Robert takes Roose Bolton out of the game with him. Attacking,
    Robert asks nothing. (``alone``, action 7, is offered when the pile is empty.)"""
    c = stark_attacks(seated(ARRYN), "arryn", "2F", "K", "robert_arryn", "roose_bolton")
    assert c.pending == "arryn CARD_ABILITY"
    assert c.options() == {"roose_bolton", "none"} and ROBERT_ALONE == 7
    c.play("arryn CARD_ABILITY roose_bolton")
    assert "robert_arryn" not in c.hand_of("arryn") | c.discard_of("arryn")
    assert c.discard_of("stark") == set() and len(c.hand_of("stark")) == 6
    c = attacks_stark(seated(ARRYN), "arryn", "F", "F", "robert_arryn", "roose_bolton")
    assert c.pending is None
    assert c.discard_of("arryn") == {"robert_arryn"}


def test_mod_engine_khal_drogo_leaves_the_game():
    """Targaryen (2 knights, Khal Drogo: 4 + 4 + 2) beats a Stark footman and Robb Stark in The
    Twins; his two swords kill the footman; Drogo then leaves the game (in neither the hand
    nor the discards). As the last card in hand he leaves too, and the discards come back."""
    c = attacks_stark(seated(TARGARYEN), "targaryen", "2K", "F", "khal_drogo", "robb_stark")
    c.play("stark CASUALTY F")
    assert c.at("the_twins") == "targaryen 2K"
    assert "khal_drogo" not in c.hand_of("targaryen") | c.discard_of("targaryen")
    assert len(c.hand_of("targaryen")) == 6
    c = seated(TARGARYEN)
    c.hand("targaryen", "khal_drogo")
    c = attacks_stark(c, "targaryen", "2K", "F", "khal_drogo", "robb_stark")
    c.play("stark CASUALTY F")
    assert c.hand_of("targaryen") == set(TARGARYEN_A) - {"khal_drogo"}
    assert c.discard_of("targaryen") == set()


def test_mod_engine_xaro_xhoan_daxos():
    """Stark (a ship, Eddard Stark: 5) attacks The Narrow Sea (2 Targaryen ships and Xaro: 2 +
    2 + 2 = 6): Targaryen holds."""
    c = seated(TARGARYEN)
    c.place("""
        shipbreaker_bay  stark S march+0
        the_narrow_sea   targaryen 2S
    """)
    c.play("""
        stark MARCH_FROM shipbreaker_bay
        stark MARCH_UNIT S the_narrow_sea
        stark HOUSE_CARD eddard_stark
        targaryen HOUSE_CARD xaro_xhoan_daxos
    """)
    assert c.at("the_narrow_sea") == "targaryen 2S"


def test_mod_engine_daenerys_a_adds_nothing_without_dragons():
    """Targaryen (a footman, Daenerys Targaryen deck A: 2) attacks a Stark footman with Roose
    Bolton (3): without a dragon she adds nothing and Targaryen retreats."""
    c = attacks_stark(
        seated(TARGARYEN), "targaryen", "F", "F", "daenerys_targaryen_a", "roose_bolton"
    )
    assert c.at("the_mountains_of_the_moon") == "targaryen Fr"
    assert c.at("the_twins") == "stark F"


@pytest.mark.parametrize("throw", [True, False])
def test_mod_engine_viserys_throws_away_a_card(throw: bool):
    """Stark (a knight, Eddard Stark: 6) attacks The Eyrie (2 Targaryen footmen and Viserys:
    3). Before the combat Viserys throws away Khal Drogo for +4 and wins 7 - 6 (Drogo goes to
    the discards); keeping him, Targaryen loses and Viserys leaves the game."""
    c = stark_attacks(
        seated(TARGARYEN), "targaryen", "2F", "K", "viserys_targaryen", "eddard_stark"
    )
    assert c.pending == "targaryen CARD_ABILITY"
    assert c.options() == set(TARGARYEN_A) - {"viserys_targaryen"} | {"none"}
    c.play(f"targaryen CARD_ABILITY {'khal_drogo' if throw else 'none'}")
    if throw:
        assert c.at("the_eyrie") == "targaryen 2F"
        assert c.discard_of("targaryen") == {"khal_drogo", "viserys_targaryen"}
    else:
        c.play("""
            targaryen CASUALTY F
            targaryen CASUALTY F
        """)
        assert "viserys_targaryen" not in c.hand_of("targaryen") | c.discard_of("targaryen")


@pytest.mark.parametrize(("power", "leaves"), [(5, True), (2, False)])
def test_mod_engine_illyrio_mopatis(power: int, leaves: bool):
    """Targaryen (2 footmen, Illyrio Mopatis: 2) holds The Eyrie against a footman and Catelyn
    Stark (1): it takes 1 power token (the difference); with 6 then (5 or more) Illyrio leaves
    the game, with 3 he is discarded."""
    c = stark_attacks(
        seated(TARGARYEN, power=power), "targaryen", "2F", "F", "illyrio_mopatis", "catelyn_stark"
    )
    assert c.power_of("targaryen") == power + 1
    assert ("illyrio_mopatis" in c.discard_of("targaryen")) == (not leaves)
    assert "illyrio_mopatis" not in c.hand_of("targaryen")


def test_mod_engine_daenerys_b_takes_the_difference_from_the_opponent():
    """With the A Dance with Dragons decks Targaryen plays its deck B: Daenerys Targaryen (2
    footmen: 6) holds The Eyrie against a footman and Walder Frey (2); Stark discards 4 of its
    5 power tokens."""
    c = seated(TARGARYEN, "adwd")
    assert [c.card_ids[n] for n in c.t.deck_card[TARGARYEN]] == TARGARYEN_B
    c = stark_attacks(c, "targaryen", "2F", "F", "daenerys_targaryen_b", "walder_frey")
    assert c.at("the_eyrie") == "targaryen 2F"
    assert c.power_of("stark") == 1 and c.power_of("targaryen") == 5


def test_mod_engine_captain_groleo_by_ship_transport():
    """Targaryen marches a footman from The Fingers to Widow's Watch across The Narrow Sea (2
    of its ships there) and plays Captain Groleo: 1 + 1 + 2 = 4 against a Stark footman and
    Steelshanks Walton (3); Stark must retreat."""
    c = seated(TARGARYEN, "adwd")
    c.place("""
        the_fingers     targaryen F march+0
        the_narrow_sea  targaryen 2S
        widows_watch    stark F
    """)
    c.play("""
        targaryen MARCH_FROM the_fingers
        targaryen MARCH_UNIT F widows_watch
        targaryen HOUSE_CARD captain_groleo
        stark HOUSE_CARD steelshanks_walton
    """)
    assert c.g.battle[cb.NEARBY + cb.ATTACKER] == 2
    assert c.pending == "stark RETREAT"


def test_mod_engine_rakharo_knights_in_open_land():
    """Targaryen (a knight, Rakharo: 2 + 2 + 1 = 5) attacks The Twins (a Stark footman and
    Ramsay Bolton without Reek in hand: 4) and wins."""
    c = seated(TARGARYEN, "adwd")
    c.hand("stark", "ramsay_bolton", "steelshanks_walton")
    c = attacks_stark(c, "targaryen", "K", "F", "rakharo", "ramsay_bolton")
    if c.pending == "stark RETREAT":
        c.play("stark RETREAT the_fingers")
    assert c.at("the_twins") == "targaryen K"


def test_mod_engine_missandei_takes_a_card_back():
    """Targaryen (a footman, Missandei: 1) loses to a Stark footman and Steelshanks Walton (3)
    by 2: it may take a card of its discard pile (Strong Belwas) back to the hand."""
    c = seated(TARGARYEN, "adwd")
    c.hand("targaryen", "missandei", "rakharo", discard=("strong_belwas", "gray_worm"))
    c = attacks_stark(c, "targaryen", "F", "F", "missandei", "steelshanks_walton")
    assert c.pending == "targaryen CARD_ABILITY"
    assert c.options() == {"strong_belwas", "gray_worm", "none"}
    c.play("targaryen CARD_ABILITY strong_belwas")
    assert c.hand_of("targaryen") == {"rakharo", "strong_belwas"}
    assert c.discard_of("targaryen") == {"gray_worm", "missandei"}


def test_mod_engine_missandei_not_asked_after_a_wide_loss():
    """Losing by 3 (against Roose Bolton's ADwD card, 4 + 1) Missandei asks nothing."""
    c = seated(TARGARYEN, "adwd")
    c.hand("targaryen", "missandei", "rakharo", discard=("strong_belwas",))
    c = attacks_stark(c, "targaryen", "F", "F", "missandei", "roose_bolton_dwd")
    assert c.pending != "targaryen CARD_ABILITY"


@pytest.mark.parametrize(
    ("house", "card_set", "policies", "n"),
    [
        (ARRYN, "mod", "random", 60),
        (TARGARYEN, "mod", "random", 60),
        (TARGARYEN, "adwd", "random", 60),
        (ARRYN, "mod", "heuristic", 20),
        (TARGARYEN, "mod", "heuristic", 20),
        (TARGARYEN, "adwd", "heuristic", 20),
    ],
)
def test_mod_games_keep_every_invariant(house: int, card_set: str, policies: str, n: int):
    """Whole games with Arryn or Targaryen in Greyjoy's seat playing their Mother of Dragons
    decks, random or heuristic players: every game ends, no invariant is broken, the house
    fought with its cards; with the decks A some cards left the game (Khal Drogo always does
    once played; Viserys, Illyrio, Robert Arryn may)."""
    games, rules = seated_for_greyjoy(house, n, 11, card_set)
    play_batch(games, rules, policies)
    assert (games.done == 1).all() and (games.winner >= 0).all()
    for g in games:
        assert violations(g, rules[0]) == []
    assert games.battles[:, house].sum() > 0
    assert (games.discard[:, house] != 0).any()
    if card_set == "mod":
        assert any((int(g.hand[house]) | int(g.discard[house])) != 0x7F for g in games)


# =================================================================================================
# 3. Data and listing
# =================================================================================================


def test_mod_decks_and_numbers():
    """The set "mod" gives Arryn and Targaryen their decks A (card numbers 42-48, 49-55, after
    the base decks' 42); "base" keeps Arryn's A Feast for Crows deck at 42-48 and gives
    Targaryen deck A; "adwd" gives Targaryen deck B. The printed numbers are the data's."""
    assert [c.strength for c in house_deck("2e", House.ARRYN, "mod")] == [4, 3, 2, 2, 1, 1, 0]
    assert [c.strength for c in house_deck("2e", House.TARGARYEN)] == [4, 3, 2, 2, 1, 1, 0]
    assert [c.strength for c in house_deck("2e", House.TARGARYEN, "adwd")] == [4, 3, 2, 2, 1, 1, 0]
    mod = card_table("2e", "mod")
    assert mod.ids[42:49] == tuple(ARRYN_A) and mod.ids[49:56] == tuple(TARGARYEN_A)
    assert card_table("2e", "base").ids[:42] == tuple(c.id for c in house_cards("2e"))
    assert card_table("2e", "adwd").ids[49:56] == tuple(TARGARYEN_B)
    assert len(game_cards("2e", "mod")) == 56
    assert list(mod.ability[42:56]) == [
        Ability.LYSA_ARRYN_MOD,
        0,
        Ability.SER_VARDIS_EGEN,
        0,
        Ability.GODRIC_BORRELL,
        Ability.ANYA_WAYNWOOD,
        Ability.ROBERT_ARRYN,
        Ability.KHAL_DROGO,
        0,
        Ability.XARO_XHOAN_DAXOS,
        0,
        Ability.DAENERYS_TARGARYEN_A,
        Ability.VISERYS_TARGARYEN,
        Ability.ILLYRIO_MOPATIS,
    ]
    assert Rules("2e", 6, house_cards="mod").card_set == "mod"
    with pytest.raises(ValueError, match="two decks at once"):
        Rules("2e", 6, frozenset({"adwd_house_cards"}), house_cards="mod")
    with pytest.raises(ValueError, match="2nd-edition"):
        Rules("1e", 5, house_cards="mod")


def test_mod_decks_match_the_shared_reference():
    """The package's data equals the shared reference's sets (skipped where it is absent)."""
    if not SHARED.exists():
        pytest.skip("the shared reference is not at hand")
    sets = json.loads(SHARED.read_text())["sets"]
    listed = [c.id for c in house_cards("2e", "mod")]
    want = [
        r["id"]
        for key in ("mother_of_dragons_a", "mother_of_dragons_b_targaryen")
        for records in sets[key]["houses"].values()
        for r in records
    ]
    assert listed == want


def test_mod_cards_listing(capsys):
    """``gotsim cards --set mod`` lists the 21 cards (14 of decks A, 7 of Targaryen's deck B)
    with where each ability is carried out."""
    from gotsim.cli import main

    assert main(["cards", "--set", "mod", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == ARRYN_A + TARGARYEN_A + TARGARYEN_B
    engine_only = {"lysa_arryn_mod", "robert_arryn", "missandei"}
    for r in rows:
        want = ["engine"] if r["id"] in engine_only else ["combat", "engine"]
        assert r["implemented_in"] == want, r["id"]
    with pytest.raises(SystemExit):
        main(["cards", "--set", "mod", "--edition", "1e"])
    assert "Mother of Dragons" in capsys.readouterr().err
    assert cb.NEARBY + 2 == cb.DRAGONS  # (Mother of Dragons' dragon slots after them)
    assert cb.DRAGON_STRENGTH + 1 == cb.VASSAL  # (then the vassal cards' slots, docs/rules.md V12)
    assert np.all(card_table("2e", "mod").fortifications[42:49] == [0, 2, 0, 0, 0, 0, 0])


def test_mod_choices_in_words():
    """The narration of the Mother of Dragons choices (``Game.describe``'s CARD_ABILITY words),
    with the set "mod": Viserys's thrown card, Lysa back to the hand, Missandei's card, Robert
    Arryn's card of the opponent (the battle's other side)."""
    from gotsim.engine.game import Game

    game = Game(players=6)
    game.card_set = "mod"
    game.record.battle[cb.HOUSE] = int(House.STARK)
    game.record.battle[cb.SIDE + cb.HOUSE] = ARRYN
    words = game._card_ability
    viserys = int(Ability.VISERYS_TARGARYEN)
    assert words(House.TARGARYEN, (0, viserys, 0), 0) == (
        "throws away Khal Drogo for its strength (Viserys Targaryen)"
    )
    lysa = int(Ability.LYSA_ARRYN_MOD)
    assert words(House.ARRYN, (1, lysa, 0), 1) == "takes Lysa Arryn back into its hand"
    missandei = int(Ability.MISSANDEI)
    assert "Arstan Whitebeard back" in words(House.TARGARYEN, (0, missandei, 0), 1)
    robert = int(Ability.ROBERT_ARRYN)
    assert words(House.ARRYN, (1, robert, 0), 6) == (
        "takes Robert Arryn and Catelyn Stark out of the game (Robert Arryn)"
    )
    assert words(House.ARRYN, (1, robert, 0), ROBERT_ALONE) == "takes Robert Arryn out of the game"
