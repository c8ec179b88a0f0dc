"""A casebook of Mother of Dragons' vassal house cards (the ``vassals`` variant; docs/rules.md
V12-V20): the odds calculator (``model="fixed"``, a spec's ``vassals``) first, then the engine
(a 4-player vassal game, Tyrell and Martell the vassals of Baratheon and Lannister, decisions
answered in words), a case per card in each.

In the engine cases the vassal's three dealt cards are set by hand (``deal``) once the battle
has begun, before the cards are chosen: the deal itself is random (nature's stream).
"""

from __future__ import annotations

from typing import Any

import pytest
from combatcase import check, make_spec, side, support
from enginecase import Case

from gotsim.engine import combat as cb
from gotsim.engine.state import Decision
from gotsim.odds import BattleSpecError, combat_odds
from gotsim.rules.cards import (
    VASSAL_CARD_FIRST,
    Ability,
    card_table,
    implemented_in,
    vassal_cards,
)
from gotsim.rules.ids import House

VASSALS = {"vassals": True}
IDS = [c.id for c in vassal_cards()]
B, L, T, M = House.BARATHEON, House.LANNISTER, House.TYRELL, House.MARTELL


def fight(*args: Any, vassals: tuple[str, ...] = ("tyrell",), **kwargs: Any):
    return combat_odds(make_spec(*args, vassals=list(vassals), **kwargs), model="fixed")


def lannister(units: dict[str, int], card: str, **extra: Any) -> dict[str, Any]:
    return side("lannister", units, card, **extra)


def tyrell(units: dict[str, int], card: str, **extra: Any) -> dict[str, Any]:
    return side("tyrell", units, card, **extra)


# =================================================================================================
# 0. The cards
# =================================================================================================


def test_vassal_cards_numbers_and_table():
    """V12: the seven vassal cards are numbers 56-62 of every 2nd-edition card table, with the
    printed numbers of the reference; Janos Slynt is a plain card; Varys, Jon Connington and
    Beric Dondarrion act after the combat only (the engine's)."""
    assert IDS == [
        "varys",
        "syrio_forel",
        "jaqen_h_ghar",
        "janos_slynt",
        "jon_connington",
        "beric_dondarrion",
        "bronn",
    ]
    for card_set in ("base", "adwd", "mod"):
        table = card_table("2e", card_set)
        assert table.ids[VASSAL_CARD_FIRST:] == tuple(IDS)
        assert list(table.strength[VASSAL_CARD_FIRST:]) == [0, 1, 1, 2, 2, 3, 4]
        assert list(table.house[VASSAL_CARD_FIRST:]) == [-1] * 7
    janos = vassal_cards()[3]
    assert (janos.swords, janos.fortifications, janos.effect) == (2, 1, None)
    assert implemented_in("varys_vassal_to_top_of_fiefdoms") == ["engine"]
    assert implemented_in("bronn_opponent_may_pay2_to_zero") == ["combat", "engine"]
    assert card_table("2e").ability[VASSAL_CARD_FIRST + 6] == Ability.BRONN


# =================================================================================================
# 1. The calculator
# =================================================================================================


def test_calc_janos_slynt_plain_numbers():
    """Janos Slynt (2, two swords, a fort): Tyrell's footman and Janos (3) beat 2 Lannister
    footmen and Cersei (2); its swords kill both."""
    r = fight(
        "highgarden",
        lannister({"footman": 2}, "cersei_lannister"),
        tyrell({"footman": 1}, "janos_slynt"),
        fiefdoms=["lannister", "tyrell"],
    )
    check(r, "defender", card=2, swords=2, fortifications=1, total=3)
    assert r.p_attacker_wins == 0.0


def test_calc_syrio_forel_zeroes_non_vassal_footmen():
    """Syrio Forel (1), the vassal defending: Lannister's footmen count 0 (its 2 fighting, a
    Baratheon supporting footman), not Martell's (a vassal) supporting footman; Syrio
    attacking does nothing."""
    r = fight(
        "highgarden",
        lannister({"footman": 2}, "cersei_lannister"),
        tyrell({"footman": 1}, "syrio_forel"),
        fiefdoms=["lannister", "tyrell", "baratheon", "martell"],
        supports=(
            support("baratheon", "attacker", {"footman": 1}),
            support("martell", "attacker", {"footman": 1}),
        ),
        vassals=("tyrell", "martell"),
    )
    check(r, "attacker", units=2, support=2, card_modifiers=-3, total=1)
    check(r, "defender", total=2)
    assert r.p_attacker_wins == 0.0
    r = fight(
        "the_reach",
        tyrell({"footman": 1}, "syrio_forel"),
        lannister({"footman": 2}, "cersei_lannister"),
        fiefdoms=["lannister", "tyrell"],
    )
    check(r, "defender", card_modifiers=0, total=2)


def test_calc_jaqen_h_ghar_a_random_card_instead():
    """Jaqen H'ghar: Lannister's Tywin goes back to its hand (Tywin, Cersei) and one of the two
    is played at random: Tywin (6 against 2) wins, Cersei (2 against 2) loses on the Fiefdoms
    track (Tyrell above): 1/2. Against a vassal it picks among the vassal's dealt cards."""
    r = fight(
        "highgarden",
        lannister({"footman": 2}, "tywin_lannister", hand=["tywin_lannister", "cersei_lannister"]),
        tyrell({"footman": 1}, "jaqen_h_ghar"),
        fiefdoms=["tyrell", "lannister"],
    )
    assert r.p_attacker_wins == pytest.approx(0.5)
    r = fight(
        "highgarden",
        side("martell", {"footman": 2}, "bronn", hand=["bronn", "varys"]),
        tyrell({"footman": 1}, "jaqen_h_ghar"),
        fiefdoms=["tyrell", "martell"],
        vassals=("tyrell", "martell"),
    )
    assert r.p_attacker_wins == pytest.approx(0.5)  # Bronn 6 wins, Varys 2 loses


def test_calc_bronn_the_opponent_pays_two_power():
    """Bronn (4): Tyrell's footman and Bronn (5) against 2 Lannister footmen and Cersei (2);
    Lannister with 2 power pays them and wins (Bronn 0: 1 against 2); without power it loses.
    A vassal opponent (no power) never pays."""
    r = fight(
        "highgarden",
        lannister({"footman": 2}, "cersei_lannister", power=2),
        tyrell({"footman": 1}, "bronn"),
        fiefdoms=["lannister", "tyrell"],
    )
    assert r.p_attacker_wins == 1.0 and r.power["attacker"] == -2.0
    check(r, "defender", card=4, card_modifiers=-4, total=1)
    r = fight(
        "highgarden",
        lannister({"footman": 2}, "cersei_lannister", power=1),
        tyrell({"footman": 1}, "bronn"),
        fiefdoms=["lannister", "tyrell"],
    )
    assert r.p_attacker_wins == 0.0
    r = fight(
        "highgarden",
        side("martell", {"footman": 2}, "janos_slynt"),
        tyrell({"footman": 1}, "bronn"),
        fiefdoms=["martell", "tyrell"],
        vassals=("tyrell", "martell"),
    )
    assert r.p_attacker_wins == 0.0


@pytest.mark.parametrize(
    ("card", "strength"), [("varys", 0), ("jon_connington", 2), ("beric_dondarrion", 3)]
)
def test_calc_after_combat_cards_count_their_numbers(card: str, strength: int):
    """Varys, Jon Connington and Beric Dondarrion act after the combat (the engine's): the
    calculator counts their printed strength."""
    r = fight(
        "highgarden",
        lannister({"footman": 2}, "cersei_lannister"),
        tyrell({"footman": 1}, card),
        fiefdoms=["lannister", "tyrell"],
    )
    check(r, "defender", card=strength, card_modifiers=0, total=1 + strength)


def test_calc_vassal_spec_refusals():
    """A vassal's hand is 1-3 vassal cards; it has no discards and no power; a player house
    plays no vassal card."""
    with pytest.raises(BattleSpecError, match="vassal card"):
        fight(
            "highgarden",
            lannister({"footman": 2}, "cersei_lannister"),
            tyrell({"footman": 1}, "mace_tyrell"),
            fiefdoms=["lannister", "tyrell"],
        )
    with pytest.raises(BattleSpecError, match="1-3"):
        fight(
            "highgarden",
            lannister({"footman": 2}, "cersei_lannister"),
            tyrell({"footman": 1}, "bronn", hand=IDS[:4]),
            fiefdoms=["lannister", "tyrell"],
        )
    with pytest.raises(BattleSpecError, match="no power"):
        fight(
            "highgarden",
            lannister({"footman": 2}, "cersei_lannister"),
            tyrell({"footman": 1}, "bronn", power=3),
            fiefdoms=["lannister", "tyrell"],
        )
    with pytest.raises(BattleSpecError):
        fight(
            "highgarden",
            lannister({"footman": 2}, "bronn"),
            tyrell({"footman": 1}, "bronn"),
            fiefdoms=["lannister", "tyrell"],
        )


# =================================================================================================
# 2. The engine
# =================================================================================================


def _case(seed: int = 0) -> Case:
    c = Case(4, variants=VASSALS, seed=seed)
    c.g.commander[T] = B
    c.g.commander[M] = L
    return c


def _to_cards(c: Case) -> None:
    for _ in range(30):  # (automatic answers: no power token left, no support)
        c.advance()
        if c.g.pending == Decision.HOUSE_CARD:
            return
        assert c._answer_auto(None), c.pending
    raise AssertionError(c.pending)


def deal(c: Case, side: int, *cards: str) -> None:
    """The vassal on ``side`` holds ``cards`` (its dealt cards) for this battle."""
    hand = 0
    for card in cards:
        hand |= cb.bit(VASSAL_CARD_FIRST + IDS.index(card))
    c.g.battle[side * cb.SIDE + cb.HAND] = hand


def lannister_attacks(c: Case, units: str) -> Case:
    """Lannister marches ``units`` (letters) from The Reach into Highgarden."""
    c.phase("marches")
    c.step("lannister MARCH_FROM the_reach")
    for u in units:
        c.step(f"lannister MARCH_UNIT {u} highgarden")
    _to_cards(c)
    return c


def tyrell_defends(units: str, card: str, lannister_units: str, lannister_card: str) -> Case:
    c = _case()
    c.place(f"highgarden tyrell {units}")
    letters = "".join(ch * int(n or 1) for n, ch in _split(lannister_units))
    c.place(f"the_reach lannister {lannister_units} march+0")
    lannister_attacks(c, letters)
    assert c.g.battle[cb.VASSAL + cb.DEFENDER] == 1
    dealt = [card, *[x for x in ("janos_slynt", "varys", "syrio_forel") if x != card][:2]]
    deal(c, cb.DEFENDER, *dealt)
    c.play(f"lannister HOUSE_CARD {lannister_card}")
    c.expect("tyrell HOUSE_CARD")
    assert set(c.options()) == set(dealt)
    c.play(f"tyrell HOUSE_CARD {card}")
    return c


def _split(units: str) -> list[tuple[str, str]]:
    out = []
    for word in units.split():
        out.append((word[:-1], word[-1]))
    return out


def test_engine_a_vassal_is_dealt_three_cards_and_keeps_no_pile():
    """V12/V13: in a battle the vassal's battle hand is 3 of the 7 vassal cards (numbers
    56-62), its commander's HOUSE_CARD options; its own hand and discard pile do not change."""
    c = _case()
    c.place("highgarden tyrell F")
    c.place("the_reach lannister 2F march+0")
    hand, discard = int(c.g.hand[T]), int(c.g.discard[T])
    lannister_attacks(c, "FF")
    dealt = cb.house_cards_in(int(c.g.battle[cb.SIDE + cb.HAND]))
    assert len(dealt) == 3 and all(VASSAL_CARD_FIRST <= d < VASSAL_CARD_FIRST + 7 for d in dealt)
    c.play("lannister HOUSE_CARD cersei_lannister")
    c.expect("tyrell HOUSE_CARD")
    assert set(c.options()) == {IDS[d - VASSAL_CARD_FIRST] for d in dealt}
    c.play(f"tyrell HOUSE_CARD {IDS[dealt[0] - VASSAL_CARD_FIRST]}")
    c.advance()
    while c._answer_auto(None):
        c.advance()
    assert int(c.g.hand[T]) == hand and int(c.g.discard[T]) == discard


def test_engine_janos_slynt():
    """Tyrell (F, Janos Slynt: 3) holds Highgarden against 2 footmen and Cersei (2); Janos's two
    swords kill both attackers."""
    c = tyrell_defends("F", "janos_slynt", "2F", "cersei_lannister")
    c.play("lannister CASUALTY F\nlannister CASUALTY F")
    assert c.at("highgarden") == "tyrell F"
    assert c.at("the_reach") == ""


def test_engine_syrio_forel():
    """Syrio Forel: Lannister's two footmen count 0 (Cersei: 0) against Tyrell's footman and
    Syrio (2): Lannister retreats."""
    c = tyrell_defends("F", "syrio_forel", "2F", "cersei_lannister")
    c.advance()
    assert c.at("highgarden") == "tyrell F"
    assert c.at("the_reach") == "lannister 2Fr"


def test_engine_jaqen_h_ghar():
    """Jaqen H'ghar: Lannister's Tywin goes back to the hand (Tywin, Cersei) and one of the two
    is played at random; the card played is the one discarded, the other stays in hand."""
    seen = set()
    for seed in range(8):
        c = _case(seed)
        c.hand("lannister", "tywin_lannister", "cersei_lannister", discard=())
        c.place("highgarden tyrell F")
        c.place("the_reach lannister 2F march+0")
        c.track("fiefdoms", "tyrell lannister baratheon stark greyjoy martell")
        lannister_attacks(c, "FF")
        deal(c, cb.DEFENDER, "jaqen_h_ghar", "varys", "bronn")
        c.play("lannister HOUSE_CARD tywin_lannister\ntyrell HOUSE_CARD jaqen_h_ghar")
        c.advance()
        played = card_table("2e").ids[int(c.g.battle[cb.CARD])]
        assert played in ("tywin_lannister", "cersei_lannister")
        seen.add(played)
        while c._answer_auto(None):
            c.advance()
        if c.g.combat_area < 0:
            assert c.discard_of("lannister") == {played}
    assert seen == {"tywin_lannister", "cersei_lannister"}


@pytest.mark.parametrize("pays", [True, False])
def test_engine_bronn(pays: bool):
    """Bronn (Tyrell's footman: 5 against 2 footmen and Cersei: 2): Lannister pays 2 power to
    make Bronn 0 and wins (2 against 1), or keeps its power and retreats."""
    c = tyrell_defends("F", "bronn", "2F", "cersei_lannister")
    power = c.power_of("lannister")
    c.play("lannister CARD_ABILITY 1" if pays else "lannister CARD_ABILITY none")
    c.advance()
    while c._answer_auto(None):
        c.advance()
    if pays:
        assert c.power_of("lannister") == power - 2
        assert c.g.battle_winner == cb.ATTACKER
    else:
        assert c.power_of("lannister") == power
        assert c.at("the_reach") == "lannister 2Fr"


def test_engine_beric_dondarrion():
    """Beric Dondarrion: Tyrell (2 footmen and Beric: 5) holds against 2 footmen and Cersei,
    then loses one of its footmen in Highgarden (one kind of unit there: nothing to choose)."""
    c = tyrell_defends("2F", "beric_dondarrion", "2F", "cersei_lannister")
    c.advance()
    while c._answer_auto(None):
        c.advance()
    assert c.at("highgarden") == "tyrell F"
    assert not any("CARD_ABILITY" in line for line in c.log)


@pytest.mark.parametrize(("lost", "left"), [("K", "tyrell F"), ("F", "tyrell K")])
def test_engine_beric_dondarrion_the_commander_chooses_the_unit(lost: str, left: str):
    """V16: with a footman and a knight in Highgarden (3, Beric 3: 6 against 2 footmen and
    Cersei), the vassal's commander chooses which of them it loses (S&R lets it choose among
    the winning army)."""
    c = tyrell_defends("F K", "beric_dondarrion", "2F", "cersei_lannister")
    c.expect("tyrell CARD_ABILITY")
    assert set(c.options()) == {"F", "K"}
    c.play(f"tyrell CARD_ABILITY {lost}")
    c.advance()
    while c._answer_auto(None):
        c.advance()
    assert c.at("highgarden") == left


def test_engine_varys():
    """Varys: Tyrell (2 footmen and Varys: 2) holds against a footman and Cersei (1); after
    the combat Tyrell is at the top of the Fiefdoms track, the others one lower."""
    c = _case()
    before = c.track_of("fiefdoms")
    assert before[0] != "tyrell"
    c.place("highgarden tyrell 2F")
    c.place("the_reach lannister F march+0")
    lannister_attacks(c, "F")
    deal(c, cb.DEFENDER, "varys", "janos_slynt", "bronn")
    c.play("lannister HOUSE_CARD cersei_lannister\ntyrell HOUSE_CARD varys")
    c.advance()
    while c._answer_auto(None):
        c.advance()
    assert c.track_of("fiefdoms") == ["tyrell"] + [h for h in before if h != "tyrell"]


def tyrell_attacks_with_jon(c: Case, origin: str) -> Case:
    """Tyrell (a footman, Jon Connington: 3) attacks The Reach from ``origin`` against 2
    Lannister footmen and Tywin (6), loses, and its footman retreats to ``origin``."""
    c.place(f"{origin} tyrell F march+0")
    c.place("the_reach lannister 2F")
    c.phase("marches")
    c.step(f"tyrell MARCH_FROM {origin}")
    c.step("tyrell MARCH_UNIT F the_reach")
    _to_cards(c)
    deal(c, cb.ATTACKER, "jon_connington", "varys", "janos_slynt")
    c.play("tyrell HOUSE_CARD jon_connington\nlannister HOUSE_CARD tywin_lannister")
    for _ in range(10):
        c.advance()
        if c.g.pending == Decision.CARD_ABILITY or not c._answer_auto(None):
            break
    return c


def test_engine_jon_connington():
    """Jon Connington: Tyrell attacks The Reach from Highgarden and loses; its commander may
    muster a knight where the footman retreated (Highgarden, also its home area) or not."""
    c = tyrell_attacks_with_jon(_case(), "highgarden")
    c.expect("tyrell CARD_ABILITY")
    assert set(c.options()) == {"highgarden", "none"}
    c.play("tyrell CARD_ABILITY highgarden")
    assert c.g.units[c._area("highgarden"), 1] == 1  # the knight
    assert c.at("highgarden").startswith("tyrell")


def test_engine_jon_connington_may_be_left_unused():
    """V18: the card says "may": the commander answering none musters no knight."""
    c = tyrell_attacks_with_jon(_case(), "highgarden")
    c.play("tyrell CARD_ABILITY none")
    assert c.g.units[c._area("highgarden"), 1] == 0
    assert c.g.pending != Decision.CARD_ABILITY


def test_engine_jon_connington_the_retreat_area_or_the_home_area():
    """V18: attacking from the Dornish Marches with Highgarden held, the knight may come where
    the footman retreated or in the home area (S&R offers both)."""
    c = _case()
    c.place("highgarden tyrell F")
    tyrell_attacks_with_jon(c, "dornish_marches")
    c.expect("tyrell CARD_ABILITY")
    assert set(c.options()) == {"dornish_marches", "highgarden", "none"}
    c.play("tyrell CARD_ABILITY highgarden")
    assert c.at("highgarden") == "tyrell F K"
    assert c.at("dornish_marches").startswith("tyrell")
    assert c.g.units[c._area("dornish_marches"), 1] == 0


def test_game_a_vassal_chooses_among_its_three_dealt_cards():
    """Through ``Game`` (random answers, Mother of Dragons with 4 players): a vassal's
    HOUSE_CARD offers at most its 3 dealt cards and is told as a vassal card."""
    import numpy as np

    from gotsim.engine.game import Game

    names = {c.name for c in vassal_cards()}
    game = Game(players=4, seed=11, variants=VASSALS, expansion="mod")
    rng = np.random.default_rng(5)
    told = 0
    while (pending := game.pending) is not None:
        action = int(rng.choice(pending.legal))
        if pending.kind == Decision.HOUSE_CARD and game.t.vassal[pending.house]:
            assert 1 <= len(pending.legal) <= 3
            words = game.describe(pending, action)
            assert words.removeprefix("plays ") in names, words
            told += 1
        game.step(action)
    assert told > 0


def test_engine_jaqen_h_ghar_against_a_vassal():
    """V15: Jaqen H'ghar against a vassal (Martell, Lannister's, attacks Tyrell, Baratheon's):
    Martell's Bronn goes back among its dealt cards (Bronn, Varys, Janos Slynt) and one of the
    three is played at random; Martell's own hand and discards stay as they were."""
    seen = set()
    for seed in range(12):
        c = _case(seed)
        hand, discard = int(c.g.hand[M]), int(c.g.discard[M])
        c.place("highgarden tyrell F")
        c.place("dornish_marches martell 2F march+0")
        c.phase("marches")
        c.step("martell MARCH_FROM dornish_marches")
        c.step("martell MARCH_UNIT F highgarden")
        c.step("martell MARCH_UNIT F highgarden")
        _to_cards(c)
        deal(c, cb.ATTACKER, "bronn", "varys", "janos_slynt")
        deal(c, cb.DEFENDER, "jaqen_h_ghar", "varys", "syrio_forel")
        c.play("martell HOUSE_CARD bronn\ntyrell HOUSE_CARD jaqen_h_ghar")
        c.advance()
        played = card_table("2e").ids[int(c.g.battle[cb.CARD])]
        assert played in ("bronn", "varys", "janos_slynt")
        seen.add(played)
        assert int(c.g.hand[M]) == hand and int(c.g.discard[M]) == discard
    assert len(seen) >= 2
