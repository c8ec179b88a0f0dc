"""Casebook, rulings section: the places where the 2nd-edition rulebook (p. numbers), the FAQ v2.0
and Swords and Ravens (S&R, the most complete public implementation; file or function named) decide
a question the engine once answered differently. One case per ruling, named after it, each citing
its source; the decisions are in ``docs/rules.md`` (C, B and W entries). Same conventions as
``test_engine_casebook.py``: a 6-player game in round 1 with the setup's tracks unless a case says
otherwise, power 5 each, full hands, Tides of Battle off.
"""

from __future__ import annotations

import pytest
from enginecase import Case, against_sunspear, area

from gotsim.engine import battle as bt
from gotsim.engine.board_state import castles_held
from gotsim.engine.state import Decision, EndReason, Phase
from gotsim.rules.ids import House


def marches(players: int = 6, *, tides: bool = False) -> Case:
    return Case(players, tides=tides).phase("marches")


# --- 1. Patchface acts after combat, won or lost (card text; S&R PatchfaceHouseCardAbility) ------


def test_rulings_patchface_after_a_lost_combat() -> None:
    """Baratheon's footman (march +0, Patchface 0: 1) attacks Stark's footman in The Reach
    (Roose 2: 3) and loses. Patchface's text is "after combat", not "if you win": Baratheon
    still looks at Stark's hand and discards a card of its choice (Robb)."""
    c = marches().place("""
        kingswood  baratheon F march+0
        the_reach  stark F
    """)
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT F the_reach
        baratheon HOUSE_CARD patchface
        stark HOUSE_CARD roose_bolton
    """)
    c.expect("baratheon PATCHFACE")
    c.play("baratheon PATCHFACE robb_stark")
    assert "robb_stark" in c.discard_of("stark")
    assert "robb_stark" not in c.hand_of("stark")
    assert c.at("kingswood") == "baratheon Fr"  # beaten back home
    assert c.at("the_reach") == "stark F"


# --- 2. Robb Stark as a winning defender chooses the attacker's retreat (FAQ v2.0) --------------


def test_rulings_robb_stark_defending_sends_the_beaten_attacker() -> None:
    """Lannister's 2 footmen march from Stoney Sept (march +0, Cersei 0: 2) on Stark's footman in
    Harrenhal (Robb 3: 4). Stark wins and, by Robb's text (FAQ: either side), picks where the
    beaten attacker retreats: any legal area around Harrenhal where it loses fewest units —
    Stoney Sept, where it came from, among them, but not Blackwater (Baratheon's) — and sends it
    to Crackclaw Point, routed. Without Robb the attacker simply goes back to Stoney Sept."""
    c = marches().place("""
        stoney_sept  lannister 2F march+0
        harrenhal    stark F
        blackwater   baratheon F
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT F harrenhal
        lannister MARCH_UNIT F harrenhal
        lannister HOUSE_CARD cersei_lannister
        stark HOUSE_CARD robb_stark
    """)
    c.expect("stark RETREAT")
    options = c.options()
    assert "stoney_sept" in options and "crackclaw_point" in options
    assert "blackwater" not in options and "harrenhal" not in options
    c.play("stark RETREAT crackclaw_point")
    assert c.at("crackclaw_point") == "lannister 2Fr"
    assert c.at("stoney_sept") == ""
    assert c.at("harrenhal") == "stark F"


def test_rulings_beaten_attacker_without_robb_goes_home() -> None:
    """The same battle with Roose for Stark (2: 3): nobody is asked; the footmen go back to
    Stoney Sept, routed."""
    c = marches().place("""
        stoney_sept  lannister 2F march+0
        harrenhal    stark F
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT F harrenhal
        lannister MARCH_UNIT F harrenhal
        lannister HOUSE_CARD cersei_lannister
        stark HOUSE_CARD roose_bolton
    """)
    assert "RETREAT" not in " ".join(c.log)
    assert c.at("stoney_sept") == "lannister 2Fr"


# --- 3. Routed units are never casualties (rulebook p.21) ----------------------------------------


def test_rulings_routed_units_are_never_casualties() -> None:
    """Stark defends Harrenhal with a footman and a routed footman (Ser Rodrick 1, 2 forts: 2)
    against Lannister's 2 knights (march +0, Ser Gregor 3, 3 swords: 7) and loses one unit.
    The routed footman may not be chosen: the casualty is the fighting footman; the routed one,
    which would have to retreat again, is destroyed in addition. Nothing is left to retreat."""
    c = marches().place("""
        stoney_sept  lannister 2K march+0
        harrenhal    stark F Fr
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT K harrenhal
        lannister MARCH_UNIT K harrenhal
        lannister HOUSE_CARD ser_gregor_clegane
        stark HOUSE_CARD ser_rodrick_cassel
    """)
    c.expect("stark CASUALTY")
    assert c.options() == {"F"}
    assert int(c.g.ctx[1]) == 1
    c.play("stark CASUALTY F")
    assert c.count("stark", "F") == 0
    assert c.at("harrenhal") == "lannister 2K"


def test_rulings_routed_units_do_not_count_toward_casualties() -> None:
    """Stark defends Harrenhal with a knight, a footman and a routed footman (Catelyn 0: 3)
    against Lannister's 2 knights (march +0, Ser Gregor 3, 3 swords: 7). Three casualties are
    taken from the fighting knight and footman only — both die; the routed footman dies in
    addition. (Before this ruling the routed footman counted as the first casualty.)"""
    c = marches().place("""
        stoney_sept  lannister 2K march+0
        harrenhal    stark K F Fr
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT K harrenhal
        lannister MARCH_UNIT K harrenhal
        lannister HOUSE_CARD ser_gregor_clegane
        stark HOUSE_CARD catelyn_stark
    """)
    c.expect("stark CASUALTY")
    assert c.options() == {"F", "K"}
    c.play("stark CASUALTY F")
    c.expect("stark CASUALTY")
    assert c.options() == {"K"}  # the routed footman is never offered
    c.play("stark CASUALTY K")
    assert c.count("stark", "F") == 0 and c.count("stark", "K") == 0
    assert c.at("harrenhal") == "lannister 2K"


# --- 4. A losing side's siege engines are no casualties (FFG ruling; S&R) ------------------------


def test_rulings_siege_engines_are_never_a_losers_casualties() -> None:
    """Lannister attacks Riverrun from Stoney Sept with a footman and a siege engine (march +0,
    Cersei 0) against Stark's 2 knights (4, the Greatjon 2: 6, 1 sword) and loses one unit. The
    only legal casualty is the footman: a loser's siege engines are never chosen, they are
    destroyed in addition since they cannot retreat. Nothing of Lannister's is left."""
    c = marches().place("""
        stoney_sept  lannister F E march+0
        riverrun     stark 2K
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT F riverrun
        lannister MARCH_UNIT E riverrun
        lannister HOUSE_CARD cersei_lannister
        stark HOUSE_CARD greatjon_umber
    """)
    c.expect("lannister CASUALTY")
    assert c.options() == {"F"}
    c.play("lannister CASUALTY F")
    assert c.at("stoney_sept") == ""
    assert c.at("riverrun") == "stark 2K"


def test_rulings_a_winner_may_lose_a_siege_engine() -> None:
    """A winner's casualties (a skull) may take its siege engine; a loser's never (the legal
    casualty test of the engine, on one battle's units)."""
    c = marches().place("stoney_sept  lannister F E march+0")
    g = c.g
    g.combat_area = area("riverrun")
    g.combat_from = area("stoney_sept")
    g.moving[area("riverrun"), :4] = [1, 0, 0, 1]
    g.battle_winner = 0  # the attacker won
    assert bt.casualty_ok(g, 0, 3) and bt.casualty_ok(g, 0, 0)
    g.battle_winner = 1  # the attacker lost
    assert not bt.casualty_ok(g, 0, 3) and bt.casualty_ok(g, 0, 0)


# --- 5. Mace Tyrell kills a fighting footman (card text; S&R MaceTyrellAbility) ------------------


def test_rulings_mace_tyrell_kills_a_fighting_footman_not_a_routed_one() -> None:
    """Tyrell's footman (march +0, Mace 4: 5) attacks Stark in Harrenhal: a footman and a routed
    footman, defense +2, Eddard 4. Mace kills a footman at once — the fighting one (a routed
    unit does not fight): Stark 0 + 2 + 4 = 6 still wins. The routed footman is left standing
    (before this ruling Mace took the routed one, and Stark won with 7)."""
    c = marches().place("""
        stoney_sept  tyrell F march+0
        harrenhal    stark F Fr defense+2
    """)
    c.play("""
        tyrell MARCH_FROM stoney_sept
        tyrell MARCH_UNIT F harrenhal
        tyrell HOUSE_CARD mace_tyrell
        stark HOUSE_CARD eddard_stark
    """)
    assert c.at("harrenhal") == "stark Fr"


# --- 6. The Valyrian Steel Blade with Tides of Battle (FAQ v2.0 step 4) --------------------------


def _blade_battle() -> Case:
    """Tides of Battle on; Greyjoy (top of Fiefdoms: the blade) attacks the Golden Sound with 2
    ships and Balon against Lannister's ship and Cersei; the blade is not answered by itself."""
    c = marches(tides=True).place("""
        ironmans_bay      greyjoy 2S march+0
        the_golden_sound  lannister S
    """)
    c.auto.pop(Decision.BLADE)
    return c.play("""
        greyjoy MARCH_FROM ironmans_bay
        greyjoy MARCH_UNIT S the_golden_sound
        greyjoy MARCH_UNIT S the_golden_sound
        greyjoy HOUSE_CARD balon_greyjoy
        lannister HOUSE_CARD cersei_lannister
    """)


def test_rulings_blade_redraw_before_the_reveal_then_plus_one() -> None:
    """(a) Right after the Tides cards are drawn Greyjoy may redraw its own card, seeing only
    that card (keep or redraw, no +1 yet); (b) both cards are revealed; (c) a holder that did
    not redraw may then take +1 (keep or +1). Two separate decisions, in that order."""
    c = _blade_battle()
    c.expect("greyjoy BLADE")
    assert c.options() == {"keep", "redraw"}
    assert int(c.g.ctx[1]) == bt.BLADE_REDRAW_STAGE
    c.play("greyjoy BLADE keep")
    c.expect("greyjoy BLADE")
    assert c.options() == {"keep", "plus1"}
    c.play("greyjoy BLADE plus1")
    assert int(c.g.blade_used) == 1


def test_rulings_blade_redraw_spends_it_no_plus_one_after() -> None:
    """A holder that redraws has used the blade: no +1 is offered after the reveal."""
    c = _blade_battle().play("greyjoy BLADE redraw")
    c.advance()
    assert c.pending != "greyjoy BLADE"
    assert c.asked("BLADE") == ["greyjoy BLADE redraw"]
    assert int(c.g.blade_used) == 1


# --- 7. Retreat losses: fewest units lost, the player chooses which (rulebook p.21; Robb's text) -


def test_rulings_retreat_into_the_areas_losing_fewest_units_player_picks_the_losses() -> None:
    """Lannister (supply 0: two armies of 2) has 2 footmen in Lannisport and 2 in the Searoad
    Marches; Stark beats its knight and footman in Stoney Sept. Every retreat breaks supply:
    into Harrenhal or Blackwater (empty) it loses 1 unit (a third army of 2), into Lannisport or
    the Searoad Marches 2. Only Harrenhal and Blackwater are legal; Lannister then chooses which
    unit to lose — the footman — and the knight arrives routed."""
    c = marches().place("""
        riverrun         stark 2K march+0
        stoney_sept      lannister K F
        lannisport       lannister 2F
        searoad_marches  lannister 2F
    """)
    c.supply(lannister=0)
    c.play("""
        stark MARCH_FROM riverrun
        stark MARCH_UNIT K stoney_sept
        stark MARCH_UNIT K stoney_sept
        stark HOUSE_CARD ser_rodrick_cassel
        lannister HOUSE_CARD cersei_lannister
    """)
    c.expect("lannister RETREAT")
    assert c.options() == {"harrenhal", "blackwater"}
    c.play("lannister RETREAT harrenhal")
    c.expect("lannister CASUALTY")
    assert c.options() == {"F", "K"}
    c.play("lannister CASUALTY F")
    assert c.at("harrenhal") == "lannister Kr"


def _squeezed_attack(stark_card: str) -> Case:
    """Lannister (supply 0: two armies of 2) with 2 footmen in Lannisport and 2 in the Searoad
    Marches marches one of its 2 footmen in Stoney Sept on Stark's footman in Harrenhal, plays
    Cersei and loses to ``stark_card``."""
    c = marches().place("""
        stoney_sept      lannister 2F march+0
        lannisport       lannister 2F
        searoad_marches  lannister 2F
        harrenhal        stark F
    """)
    c.supply(lannister=0)
    return c.play(f"""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT F harrenhal
        lannister MARCH_UNIT F stay
        lannister HOUSE_CARD cersei_lannister
        stark HOUSE_CARD {stark_card}
    """)


def test_rulings_beaten_attacker_chooses_its_retreat_losses() -> None:
    """Lannister (supply 0: two armies of 2) holds 2 footmen in Lannisport and 2 in the Searoad
    Marches, and marches one of its 2 footmen in Stoney Sept on Harrenhal (Stark footman, Roose
    2: 3 against 1). Beaten, the footman must go back to Stoney Sept, where its partner stayed: a
    third army of 2, over supply. One unit is lost, and Lannister (not the engine) picks it."""
    c = _squeezed_attack("roose_bolton")
    c.expect("lannister CASUALTY")
    assert int(c.g.ctx[2]) == bt.RETREAT_LOSS_FLAG
    assert c.options() == {"F"}
    c.play("lannister CASUALTY F")
    assert c.at("stoney_sept") == "lannister F"


def test_rulings_robb_sends_the_attacker_where_it_loses_fewest() -> None:
    """The same attack against Robb (3: 4): Stark chooses the retreat, but only among the areas
    where Lannister loses fewest units. Back in Stoney Sept it would lose one (the third army);
    in the empty areas around Harrenhal none — so Stoney Sept is not offered."""
    c = _squeezed_attack("robb_stark")
    c.expect("stark RETREAT")
    assert "stoney_sept" not in c.options()
    assert "crackclaw_point" in c.options()
    c.play("stark RETREAT crackclaw_point")
    assert c.at("crackclaw_point") == "lannister Fr"
    assert c.at("stoney_sept") == "lannister F"


# --- 8. Ships retreat into their own port (rulebook p.21/p.25; S&R getValidRetreatRegions) ------


def test_rulings_a_full_port_takes_no_retreating_ships() -> None:
    """A beaten fleet may retreat into its own port, within 3 ships (the port as a retreat:
    ``test_engine_casebook.py::test_aftermath_beaten_fleet_retreats_to_a_sea_or_its_own_port``).
    With 2 Lannister ships already in the Port of Lannisport and 2 beaten in the Golden Sound, 4
    would be over the port's 3: only the Sunset Sea is legal."""
    c = marches().place("""
        ironmans_bay        greyjoy 3S march+0
        the_golden_sound    lannister 2S
        port_of_lannisport  lannister 2S
    """)
    c.play("""
        greyjoy MARCH_FROM ironmans_bay
        greyjoy MARCH_UNIT S the_golden_sound
        greyjoy MARCH_UNIT S the_golden_sound
        greyjoy MARCH_UNIT S the_golden_sound
        greyjoy HOUSE_CARD victarion_greyjoy
        lannister HOUSE_CARD cersei_lannister
    """)
    c.expect("lannister RETREAT")
    assert c.options() == {"sunset_sea"}


# --- 9. Orphaned ships (rulebook p.25; S&R findOrphanedShipsAndDestroyThem) ----------------------


def test_rulings_ships_in_the_port_of_an_uncontrolled_castle_are_destroyed() -> None:
    """Stark's only footman in White Harbor marches to Widow's Watch and leaves no power token:
    nobody controls White Harbor (not a home area), so Stark's ship in its port is destroyed."""
    c = marches().place("""
        white_harbor          stark F march+0
        port_of_white_harbor  stark S
    """)
    c.play("""
        stark MARCH_FROM white_harbor
        stark MARCH_UNIT F widows_watch
    """)
    assert c.at("port_of_white_harbor") == ""
    assert c.count("stark", "S") == 0


def test_rulings_a_power_token_keeps_the_port() -> None:
    """The same march leaving a power token: Stark still controls White Harbor; the ship stays."""
    c = marches().place("""
        white_harbor          stark F march+0
        port_of_white_harbor  stark S
    """)
    c.play("""
        stark MARCH_FROM white_harbor
        stark MARCH_UNIT F widows_watch
        stark LEAVE_POWER yes
    """)
    assert c.at("port_of_white_harbor") == "stark S"


# --- 10. Support against a neutral force (rulebook p.26) ----------------------------------------


def test_rulings_other_houses_may_support_an_attack_on_a_neutral_force() -> None:
    """5 players (Sunspear's neutral force 5): Tyrell's footman and knight from Yronwood (march
    +1: 4) with Greyjoy's footman supporting from Salt Shore. Greyjoy is asked whom it backs —
    nobody or the attacker, never the neutral force — and backs Tyrell: 5 ≥ 5, Sunspear falls."""
    c = against_sunspear()
    c.play("""
        tyrell MARCH_FROM yronwood
        tyrell MARCH_UNIT F sunspear
        tyrell MARCH_UNIT K sunspear
    """)
    c.expect("greyjoy SUPPORT_SIDE")
    assert c.options() == {"nobody", "attacker"}
    c.play("greyjoy SUPPORT_SIDE attacker")
    assert c.at("sunspear") == "tyrell F K"
    assert int(c.g.neutral[area("sunspear")]) == 0


# --- 11. The power token left on a march stays when the attack fails (rulebook p.?; B7) --------


def test_rulings_power_token_left_stays_when_the_attackers_come_back() -> None:
    """Stark's 2 knights leave Karhold to attack Castle Black (Greyjoy footman, defense +2,
    Balon 2, who zeroes the Greatjon's printed 2: Stark 4 against 5) and Stark leaves a power
    token: it is placed as the march begins, so when the beaten knights come back routed the
    token is still there (power 5 → 4). It used to be placed only if Karhold ended empty."""
    c = marches().place("""
        karhold       stark 2K march+0
        castle_black  greyjoy F defense+2
    """)
    c.play("""
        stark MARCH_FROM karhold
        stark MARCH_UNIT K castle_black
        stark MARCH_UNIT K castle_black
        stark LEAVE_POWER yes
        stark HOUSE_CARD greatjon_umber
        greyjoy HOUSE_CARD balon_greyjoy
    """)
    assert c.at("castle_black") == "greyjoy F"
    assert c.at("karhold") == "stark 2Kr"
    assert c.token_at("karhold") == "stark"
    assert c.power_of("stark") == 4


# --- 12. Castle victory and ports checked after the wildling attack (S&R issue #1626) ----------


def test_rulings_castle_victory_checked_after_the_wildling_attack() -> None:
    """Round 2's Westeros phase, threat 10 → 12: the wildlings attack at once. Stark holds six
    castles and strongholds by power tokens and has no units; Lannister's only unit, a footman,
    stands in Winterfell (Stark's home). Mammoth Riders: the lowest bidder (Lannister, 0)
    destroys 3 of its units — its footman — and Winterfell is Stark's again: 7 castles, and
    Stark wins at once, before the Westeros cards are resolved."""
    c = Case(6).westeros("last_days_of_summer", "last_days_of_summer", "last_days_of_summer")
    c.phase("westeros", game_round=2)
    c.g.threat = 10
    c.wildlings("mammoth_riders")
    c.place("winterfell lannister F")
    for name in ("white_harbor", "moat_cailin", "flints_finger", "riverrun", "harrenhal", "pyke"):
        c.token(name, "stark")
    c.power(stark=0, lannister=0, greyjoy=0, tyrell=0, martell=0, baratheon=0)
    assert castles_held(c.g, c.t, int(House.STARK)) == 6
    c.advance(through=True)
    c.play("baratheon TIE_ORDER lannister")  # all bid 0: the Iron Throne names the lowest
    for _ in range(20):
        c.advance(through=True)
        if c.g.done or c.g.pending == Decision.NONE:
            break
        kind = Decision(int(c.g.pending)).name
        c.play(f"{House(int(c.g.pending_house)).id} {kind} {sorted(c.options())[0]}")
    assert c.at("winterfell") == ""
    assert c.g.done
    assert int(c.g.winner) == int(House.STARK)
    assert int(c.g.end_reason) == EndReason.CASTLES
    assert c.g.phase == Phase.GAME_OVER


# --- 13. Doomed attacks on neutral forces are no legal marches (rulebook p.26) ------------------


def test_rulings_a_doomed_attack_on_a_neutral_force_is_not_legal() -> None:
    """5 players: Tyrell's lone footman in Yronwood (march +0) could reach 1 against Sunspear's
    5 even with every support order around (none): Sunspear is not a legal destination. With a
    knight too and a Greyjoy support order next door it could reach 1 + 2 + 1 = 4 < 5: still not.
    With march +1 and the knight, 5: legal."""
    c = Case(5).phase("marches").neutral("yronwood", 0).neutral("salt_shore", 0)
    c.place("yronwood tyrell F march+0")
    c.play("tyrell MARCH_FROM yronwood")
    c.expect("tyrell MARCH_UNIT")
    assert "sunspear" not in c.options()

    c = against_sunspear("F K march+0")
    c.play("tyrell MARCH_FROM yronwood")
    c.expect("tyrell MARCH_UNIT")
    assert "sunspear" not in c.options()

    c = against_sunspear()
    c.play("tyrell MARCH_FROM yronwood")
    c.expect("tyrell MARCH_UNIT")
    assert "sunspear" in c.options()


# --- narration: a battle is logged under the round and phase it was fought in -------------------


@pytest.mark.parametrize("seed", [3, 11])
def test_rulings_narration_logs_battles_in_their_own_phase(seed: int) -> None:
    """Every battle line of a narrated random game carries the phase it was fought in: the
    action phase's marches (never the next round's planning or Westeros phase)."""
    from gotsim.engine.game import random_game

    game = random_game(players=6, seed=seed)
    battles = [e for e in game.log if e.kind == "battle"]
    assert battles
    assert {e.phase for e in battles} == {"marches"}


# --- combat totals are not clamped at 0 (S&R CombatGameState.getTotalCombatStrength) ------------


def test_rulings_a_negative_total_is_not_clamped() -> None:
    """Lannister's lone siege engine marches from The Reach (march -1) into Blackwater, no castle:
    0 - 1 + Cersei 0 = -1 against Stark's lone siege engine (0 defending) + Catelyn 0 = 0.
    Lannister is above Stark on Fiefdoms, so a total clamped to 0 would tie and win; unclamped
    (the rulebook adds the parts, S&R sums them as they are) -1 < 0 and Stark wins. The beaten
    siege engine cannot retreat and is destroyed."""
    c = marches().place("""
        the_reach   lannister E march-1
        blackwater  stark E
    """)
    c.track("fiefdoms", "lannister stark greyjoy tyrell martell baratheon")
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT E blackwater
        lannister HOUSE_CARD cersei_lannister
        stark HOUSE_CARD catelyn_stark
    """)
    assert c.at("blackwater") == "stark E"
    assert c.at("the_reach") == ""


# --- "if you win" abilities before casualties and skulls (S&R AfterWinnerDeterminationGameState) -


def test_rulings_renly_upgrades_before_the_skulls_are_paid() -> None:
    """Tides of Battle on: Baratheon's 2 footmen (march +0, Renly 3) beat Stark's footman in The
    Reach. In a seeded game where Stark's Tides card shows a skull, Baratheon owes a unit; Renly's
    upgrade is asked first, with that loss still to be chosen (the victor's "if you win"
    abilities come before casualties), so the footman upgraded to a knight can then be kept."""
    for seed in range(300):
        c = (
            Case(6, tides=True, seed=seed)
            .phase("marches")
            .place("""
            kingswood  baratheon 2F march+0
            the_reach  stark F
        """)
        )
        c.play("""
            baratheon MARCH_FROM kingswood
            baratheon MARCH_UNIT F the_reach
            baratheon MARCH_UNIT F the_reach
            baratheon HOUSE_CARD renly_baratheon
            stark HOUSE_CARD catelyn_stark
        """)
        c.advance()
        if c.pending == "baratheon RENLY" and int(c.g.losses[0]) > 0:
            break
    else:
        pytest.fail("no seeded game with a skull against Renly's winner")
    assert c.g.combat_step == bt.AFTER
    assert c.asked("CASUALTY") == []
    c.play("baratheon RENLY the_reach")
    c.expect("baratheon CASUALTY")
    assert c.options() == {"F", "K"}
    c.play("baratheon CASUALTY F")
    assert c.at("kingswood") == "baratheon K"  # (the winners move in once Stark has retreated)
