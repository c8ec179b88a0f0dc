"""A DATC-style casebook of the engine: one small board per case, decisions answered in words,
the board checked afterwards (``tests/enginecase.py`` is the little language).

Sections: ``cards`` (house cards whose effect reaches beyond the battle), ``aftermath`` (what a
battle leaves on the board), ``marches``, ``sr2020`` (the 15 Swords and Ravens unit-test
scenarios of ``shared/reference/casebook_sr2020.md`` rebuilt on the real board), ``consolidate``
and ``victory``. Unless a case says otherwise it is a 6-player game in round 1 with the setup's
tracks (Iron Throne: Baratheon, Lannister, Stark, Martell, Greyjoy, Tyrell; Fiefdoms: Greyjoy,
Tyrell, Martell, Stark, Baratheon, Lannister; King's Court: Lannister, Stark, Martell,
Baratheon, Tyrell, Greyjoy), power 5 each, full hands, the setup's garrisons and neutral forces,
and nothing else on the board. Tides of Battle is off. Expected results follow the rules
decisions of ``docs/rules.md`` (cited as C1…, B1…). Cases the engine gets wrong are marked
``xfail(strict=True)`` with the rule they break (none at present).
"""

from __future__ import annotations

from enginecase import Case, against_sunspear, area

from gotsim.engine.board_state import castles_held
from gotsim.engine.state import Decision, EndReason, Phase
from gotsim.rules.ids import House

LAN, STARK = int(House.LANNISTER), int(House.STARK)


def marches(players: int = 6) -> Case:
    return Case(players).phase("marches")


# =================================================================================================
# 1. House cards whose effect reaches beyond the battle
# =================================================================================================


def test_cards_renly_upgrades_the_attacking_footman() -> None:
    """Baratheon marches 2 footmen from Kingswood (march +0) into The Reach (1 Lannister
    footman) and plays Renly Baratheon (3) against Cersei (0): 5 to 1. Renly may upgrade one
    participating footman, the attacker's moving ones included: The Reach ends with a Baratheon
    footman and knight, Lannister's footman routed in Blackwater."""
    c = marches().place("""
        kingswood  baratheon 2F march+0
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
        lannister RETREAT blackwater
    """)
    assert c.at("the_reach") == "baratheon F K"
    assert c.at("kingswood") == ""
    assert c.at("blackwater") == "lannister Fr"
    assert (c.count("baratheon", "F"), c.count("baratheon", "K")) == (1, 1)


def test_cards_renly_needs_a_knight_in_reserve() -> None:
    """Renly wins for Baratheon, but all 5 Baratheon knights are on the board (4 elsewhere, 1
    attacking with a footman): no upgrade is possible, the only option is none."""
    c = marches().place("""
        kingswood       baratheon F K march+0
        dragonstone     baratheon K
        storms_end      baratheon K
        crackclaw_point baratheon K
        the_boneway     baratheon K
        the_reach       lannister F
    """)
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT F the_reach
        baratheon MARCH_UNIT K the_reach
        baratheon HOUSE_CARD renly_baratheon
        lannister HOUSE_CARD cersei_lannister
    """)
    c.expect("baratheon RENLY")
    assert c.options() == {"none"}
    c.play("""
        baratheon RENLY none
        lannister RETREAT blackwater
    """)
    assert c.at("the_reach") == "baratheon F K"
    assert c.count("baratheon", "K") == 5


def test_cards_renly_defender_upgrades_its_own_footman() -> None:
    """Lannister attacks Kingswood (2 Baratheon footmen) with 1 footman and Ser Jaime (2): 3
    against 2 + Renly 3 = 5. Baratheon wins and upgrades a defending footman; Lannister's
    footman goes back to The Reach routed."""
    c = marches().place("""
        the_reach  lannister F march+0
        kingswood  baratheon 2F
    """)
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT F kingswood
        lannister HOUSE_CARD ser_jaime_lannister
        baratheon HOUSE_CARD renly_baratheon
        baratheon RENLY kingswood
    """)
    assert c.at("kingswood") == "baratheon F K"
    assert c.at("the_reach") == "lannister Fr"


def test_cards_renly_may_upgrade_a_supporting_footman() -> None:
    """Baratheon attacks The Reach with 2 knights from Kingswood, backed by its own footman in
    Blackwater (support +0), and wins with Renly. No footman fights, but the supporting one
    takes part: Renly may upgrade it, so Blackwater is among the options."""
    c = marches().place("""
        kingswood   baratheon 2K march+0
        blackwater  baratheon F support+0
        the_reach   lannister F
    """)
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT K the_reach
        baratheon MARCH_UNIT K the_reach
        baratheon HOUSE_CARD renly_baratheon
        lannister HOUSE_CARD cersei_lannister
    """)
    c.expect("baratheon RENLY")
    assert c.options() == {"blackwater", "none"}


def test_cards_patchface_discards_a_card_of_the_loser() -> None:
    """Baratheon (2 knights, march +0, Patchface 0) beats Stark (1 footman, Catelyn 0) in The
    Reach 4 to 1. After the combat Baratheon looks at Stark's hand (Robb, Roose) and discards
    Robb: Stark keeps only Roose in hand; Catelyn and Robb are both in the discard pile."""
    c = marches().place("""
        kingswood  baratheon 2K march+0
        the_reach  stark F
    """)
    c.hand("stark", "catelyn_stark", "robb_stark", "roose_bolton")
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT K the_reach
        baratheon MARCH_UNIT K the_reach
        baratheon HOUSE_CARD patchface
        stark HOUSE_CARD catelyn_stark
        stark RETREAT blackwater
    """)
    c.expect("baratheon PATCHFACE")
    assert c.options() == {"robb_stark", "roose_bolton", "none"}
    c.play("baratheon PATCHFACE robb_stark")
    assert c.hand_of("stark") == {"roose_bolton"}
    assert c.discard_of("stark") == {
        "eddard_stark",
        "greatjon_umber",
        "ser_rodrick_cassel",
        "the_blackfish",
        "catelyn_stark",
        "robb_stark",
    }
    assert c.at("the_reach") == "baratheon 2K"


def test_cards_patchface_emptying_the_hand_recycles_it() -> None:
    """Stark holds Catelyn and Robb, plays Catelyn and loses to Patchface, who discards Robb,
    Stark's last card: every Stark card except Robb returns to its hand (S&R: all but the card
    Patchface discarded)."""
    c = marches().place("""
        kingswood  baratheon 2K march+0
        the_reach  stark F
    """)
    c.hand("stark", "catelyn_stark", "robb_stark")
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT K the_reach
        baratheon MARCH_UNIT K the_reach
        baratheon HOUSE_CARD patchface
        stark HOUSE_CARD catelyn_stark
        stark RETREAT blackwater
        baratheon PATCHFACE robb_stark
    """)
    assert c.discard_of("stark") == {"robb_stark"}
    assert c.hand_of("stark") == {
        "eddard_stark",
        "roose_bolton",
        "greatjon_umber",
        "ser_rodrick_cassel",
        "the_blackfish",
        "catelyn_stark",
    }


def _lannister_attacks_blackwater(card: str, stark_card: str = "catelyn_stark") -> Case:
    """Lannister marches 2 knights from The Reach (march +0) into Blackwater (1 Stark footman)."""
    c = marches().place("""
        the_reach   lannister 2K march+0
        blackwater  stark F
    """)
    c.play(f"""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K blackwater
        lannister MARCH_UNIT K blackwater
        lannister HOUSE_CARD {card}
        stark HOUSE_CARD {stark_card}
    """)
    return c


def test_cards_tywin_gains_two_power_for_the_winner() -> None:
    """Lannister wins in Blackwater with Tywin (4 + 4 against 1): its power goes 5 → 7."""
    c = _lannister_attacks_blackwater("tywin_lannister")
    c.play("stark RETREAT harrenhal")
    assert c.at("blackwater") == "lannister 2K"
    assert c.power_of("lannister") == 7
    assert c.power_of("stark") == 5


def test_cards_tywin_respects_the_twenty_token_cap() -> None:
    """Lannister has 17 power in hand and 2 power tokens on the board (19 of its 20): Tywin's +2
    brings only one token (B9)."""
    c = marches().place("""
        the_reach   lannister 2K march+0
        blackwater  stark F
    """)
    c.power(lannister=17).token("riverrun", "lannister").token("stoney_sept", "lannister")
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K blackwater
        lannister MARCH_UNIT K blackwater
        lannister HOUSE_CARD tywin_lannister
        stark HOUSE_CARD catelyn_stark
        stark RETREAT harrenhal
    """)
    assert c.power_of("lannister") == 18


def test_cards_cersei_removes_an_order_of_the_loser_anywhere() -> None:
    """Lannister (2 knights, march +0, Cersei 0) beats Stark (footman, defense +1, Ser Rodrick 1)
    in Blackwater 4 to 3. Cersei may remove any one Stark order on the board: Lannister takes
    the consolidate power order in Castle Black (far from the battle); Stark's raid in Karhold
    stays."""
    c = marches().place("""
        the_reach    lannister 2K march+0
        blackwater   stark F defense+1
        castle_black stark F consolidate_power
        karhold      stark F raid
    """)
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K blackwater
        lannister MARCH_UNIT K blackwater
        lannister HOUSE_CARD cersei_lannister
        stark HOUSE_CARD ser_rodrick_cassel
    """)
    c.expect("lannister CERSEI")
    assert c.options() == {"blackwater", "castle_black", "karhold", "none"}
    c.play("""
        lannister CERSEI castle_black
        stark RETREAT harrenhal
    """)
    assert c.order_at("castle_black") is None
    assert c.orders_used("stark", "consolidate_power") == 0
    assert c.order_at("karhold") == "raid"
    assert c.order_at("blackwater") is None
    assert c.at("blackwater") == "lannister 2K"


def test_cards_robb_chooses_where_the_loser_retreats() -> None:
    """Stark (2 knights from Riverrun, march +0, Robb 3) beats Lannister's footman in Stoney
    Sept 7 to 1. The attacker picks the retreat among the legal areas: not Riverrun (the
    attack's origin), not Blackwater (Baratheon units); Harrenhal, Lannisport and Searoad
    Marches remain. Stark sends the footman to Harrenhal."""
    c = marches().place("""
        riverrun     stark 2K march+0
        stoney_sept  lannister F
        blackwater   baratheon F
    """)
    c.play("""
        stark MARCH_FROM riverrun
        stark MARCH_UNIT K stoney_sept
        stark MARCH_UNIT K stoney_sept
        stark HOUSE_CARD robb_stark
        lannister HOUSE_CARD cersei_lannister
    """)
    c.expect("stark RETREAT")
    assert c.options() == {"harrenhal", "lannisport", "searoad_marches"}
    c.play("stark RETREAT harrenhal")
    assert c.at("harrenhal") == "lannister Fr"
    assert c.at("stoney_sept") == "stark 2K"


def test_cards_roose_loser_takes_back_the_whole_discard_pile() -> None:
    """Stark (hand Roose, Catelyn, Blackfish; the other four discarded) loses with Roose Bolton
    (1 + 2 against 4 + 0): the whole discard pile returns to its hand, Roose included, and the
    discard pile is empty."""
    c = marches().place("""
        the_reach   lannister 2K march+0
        blackwater  stark F
    """)
    c.hand("stark", "roose_bolton", "catelyn_stark", "the_blackfish")
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K blackwater
        lannister MARCH_UNIT K blackwater
        lannister HOUSE_CARD ser_kevan_lannister
        stark HOUSE_CARD roose_bolton
        stark RETREAT harrenhal
    """)
    assert len(c.hand_of("stark")) == 7
    assert c.discard_of("stark") == set()
    assert c.discard_of("lannister") == {"ser_kevan_lannister"}


def test_cards_roose_is_discarded_as_usual_when_he_wins() -> None:
    """Stark defends Blackwater with 1 footman and Roose (2) against 1 Lannister footman and
    Cersei (0): 3 to 1, Stark wins and Roose goes to the discard pile like any card."""
    c = marches().place("""
        the_reach   lannister F march+0
        blackwater  stark F
    """)
    c.hand("stark", "roose_bolton", "catelyn_stark", "the_blackfish")
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT F blackwater
        lannister HOUSE_CARD cersei_lannister
        stark HOUSE_CARD roose_bolton
    """)
    assert c.hand_of("stark") == {"catelyn_stark", "the_blackfish"}
    assert "roose_bolton" in c.discard_of("stark")
    assert c.at("the_reach") == "lannister Fr"


def test_cards_loras_march_order_moves_in_and_marches_again() -> None:
    """Tyrell marches 2 knights from Highgarden (march +0) into the Dornish Marches (1 Martell
    footman) with Ser Loras (3): 7 to 2 against Nymeria. The march order moves into the
    conquered area instead of being discarded; the same knights then march again from there,
    into Prince's Pass, and the token is spent."""
    c = marches().place("""
        highgarden       tyrell 2K march+0
        dornish_marches  martell F
    """)
    c.play("""
        tyrell MARCH_FROM highgarden
        tyrell MARCH_UNIT K dornish_marches
        tyrell MARCH_UNIT K dornish_marches
        tyrell HOUSE_CARD ser_loras_tyrell
        martell HOUSE_CARD nymeria_sand
        martell RETREAT three_towers
    """)
    assert c.at("dornish_marches") == "tyrell 2K"
    assert c.order_at("dornish_marches") == "march+0"
    assert c.order_at("highgarden") is None
    assert c.orders_used("tyrell", "march+0") == 1
    c.expect("tyrell MARCH_FROM")
    assert c.options() == {"dornish_marches"}
    c.play("""
        tyrell MARCH_FROM dornish_marches
        tyrell MARCH_UNIT K princes_pass
        tyrell MARCH_UNIT K princes_pass
    """)
    assert c.at("princes_pass") == "tyrell 2K"
    assert c.at("dornish_marches") == ""
    assert c.orders_used("tyrell", "march+0") == 0
    assert c.g.phase == Phase.CONSOLIDATE


def test_cards_arianne_keeps_the_winner_out_but_the_loser_retreats() -> None:
    """Tyrell (2 knights from the Dornish Marches, Margaery 1) beats Martell's footman in
    Prince's Pass (Arianne 1) 5 to 2. Arianne: the attackers do not move in and stay, unrouted,
    in the Dornish Marches; Martell still retreats (to Starfall, routed); Prince's Pass is left
    empty and uncontrolled."""
    c = marches().place("""
        dornish_marches  tyrell 2K march+0
        princes_pass     martell F
    """)
    c.play("""
        tyrell MARCH_FROM dornish_marches
        tyrell MARCH_UNIT K princes_pass
        tyrell MARCH_UNIT K princes_pass
        tyrell HOUSE_CARD margaery_tyrell
        martell HOUSE_CARD arianne_martell
        martell RETREAT starfall
    """)
    assert c.at("dornish_marches") == "tyrell 2K"
    assert c.at("princes_pass") == ""
    assert c.controller("princes_pass") is None
    assert c.at("starfall") == "martell Fr"
    assert c.order_at("dornish_marches") is None


def _greyjoy_attacks_moat_cailin() -> Case:
    """Greyjoy: a knight in Greywater Watch (march +0) attacks Moat Cailin (Stark footman and
    knight); Stark plays the Greatjon (2, one sword)."""
    c = marches().place("""
        greywater_watch greyjoy K march+0
        moat_cailin     stark F K
    """)
    c.play("""
        greyjoy MARCH_FROM greywater_watch
        greyjoy MARCH_UNIT K moat_cailin
        greyjoy HOUSE_CARD aeron_damphair
        stark HOUSE_CARD greatjon_umber
    """)
    return c


def test_cards_aeron_pays_two_power_and_plays_another_card() -> None:
    """Greyjoy plays Aeron Damphair against the Greatjon and pays 2 power to swap him for Euron
    (4, one sword): 2 + 4 = 6 against 1 + 2 + 2 = 5. Greyjoy's power goes 5 → 3; Aeron and
    Euron both end in its discard pile; Euron's sword kills a Stark unit (the footman) and the
    knight retreats to Winterfell."""
    c = _greyjoy_attacks_moat_cailin()
    c.expect("greyjoy AERON")
    assert c.options() == {
        "keep",
        "euron_crows_eye",
        "victarion_greyjoy",
        "balon_greyjoy",
        "theon_greyjoy",
        "dagmar_cleftjaw",
        "asha_greyjoy",
    }
    c.play("greyjoy AERON euron_crows_eye")
    c.expect("stark CASUALTY")
    assert c.totals() == (6, 5)
    assert c.power_of("greyjoy") == 3
    c.play("""
        stark CASUALTY F
        stark RETREAT winterfell
    """)
    assert c.at("moat_cailin") == "greyjoy K"
    assert c.at("winterfell") == "stark Kr"
    assert c.discard_of("greyjoy") == {"aeron_damphair", "euron_crows_eye"}
    assert c.power_of("greyjoy") == 3


def test_cards_aeron_without_two_power_stays_in_play() -> None:
    """With 1 power Greyjoy cannot pay for Aeron's swap: no AERON decision is asked and Aeron
    (0) fights: 2 against 5. The Greatjon's sword (Aeron has no fortification) destroys the
    attacking knight, Greyjoy's only unit."""
    c = marches().place("""
        greywater_watch greyjoy K march+0
        moat_cailin     stark F K
    """)
    c.power(greyjoy=1)
    c.play("""
        greyjoy MARCH_FROM greywater_watch
        greyjoy MARCH_UNIT K moat_cailin
        greyjoy HOUSE_CARD aeron_damphair
        stark HOUSE_CARD greatjon_umber
        greyjoy CASUALTY K
    """)
    assert c.asked("AERON") == []
    assert c.power_of("greyjoy") == 1
    assert c.at("greywater_watch") == ""
    assert c.at("moat_cailin") == "stark F K"
    assert c.discard_of("greyjoy") == {"aeron_damphair"}


def _greyjoy_attacks_salt_shore(greyjoy_card: str = "dagmar_cleftjaw") -> Case:
    """Greyjoy's footman in Starfall (march +0) attacks Salt Shore (2 Martell footmen); Martell
    answers with Doran Martell (0)."""
    c = marches().place("""
        starfall    greyjoy F march+0
        salt_shore  martell 2F
    """)
    c.play(f"""
        greyjoy MARCH_FROM starfall
        greyjoy MARCH_UNIT F salt_shore
        greyjoy HOUSE_CARD {greyjoy_card}
        martell HOUSE_CARD doran_martell
    """)
    return c


def test_cards_doran_sends_the_attacker_down_fiefdoms_and_takes_the_tie() -> None:
    """Greyjoy (Fiefdoms 1st, holding the blade) attacks with Dagmar: 1 + 1 = 2 against
    Martell's 2 footmen + Doran 0 = 2. Doran moves Greyjoy to the bottom of Fiefdoms on the
    board: Tyrell now holds the blade (so Greyjoy is not offered it) and the tie goes to Martell,
    now above Greyjoy (C3, C13). Greyjoy's footman returns routed."""
    c = _greyjoy_attacks_salt_shore()
    c.expect("martell DORAN")
    c.play("martell DORAN fiefdoms")
    assert c.track_of("fiefdoms") == [
        "tyrell",
        "martell",
        "stark",
        "baratheon",
        "lannister",
        "greyjoy",
    ]
    assert c.asked("BLADE") == []
    assert c.at("salt_shore") == "martell 2F"
    assert c.at("starfall") == "greyjoy Fr"


def test_cards_doran_on_the_iron_throne_changes_turn_order() -> None:
    """Martell (2 knights from Salt Shore, Doran) attacks Baratheon's footman in Yronwood and
    moves Baratheon, holder of the Iron Throne, to the bottom of that track: Lannister now
    holds the Iron Throne and is first in turn order."""
    c = marches().place("""
        salt_shore  martell 2K march+0
        yronwood    baratheon F
    """)
    c.play("""
        martell MARCH_FROM salt_shore
        martell MARCH_UNIT K yronwood
        martell MARCH_UNIT K yronwood
        martell HOUSE_CARD doran_martell
        baratheon HOUSE_CARD ser_davos_seaworth
        martell DORAN iron_throne
        baratheon RETREAT the_boneway
    """)
    assert c.track_of("iron_throne") == [
        "lannister",
        "stark",
        "martell",
        "greyjoy",
        "tyrell",
        "baratheon",
    ]
    assert c.at("yronwood") == "martell 2K"


def test_cards_doran_on_kings_court_passes_the_raven() -> None:
    """Doran moves Lannister, holder of the Messenger Raven, to the bottom of King's Court:
    Stark now holds the raven."""
    c = marches().place("""
        salt_shore  martell 2K march+0
        yronwood    lannister F
    """)
    c.play("""
        martell MARCH_FROM salt_shore
        martell MARCH_UNIT K yronwood
        martell MARCH_UNIT K yronwood
        martell HOUSE_CARD doran_martell
        lannister HOUSE_CARD ser_kevan_lannister
        martell DORAN kings_court
        lannister RETREAT the_boneway
    """)
    assert c.track_of("kings_court") == [
        "stark",
        "martell",
        "baratheon",
        "tyrell",
        "greyjoy",
        "lannister",
    ]


def test_cards_doran_hands_the_blade_to_the_new_top() -> None:
    """Fiefdoms: Greyjoy, Martell, … Doran moves Greyjoy to the bottom: Martell now tops
    Fiefdoms and is offered the unused blade in this very battle; with its +1 Martell wins 3 to
    2 and the blade is used for the round."""
    c = marches().place("""
        starfall    greyjoy F march+0
        salt_shore  martell 2F
    """)
    c.track("fiefdoms", "greyjoy martell tyrell stark baratheon lannister")
    c.play("""
        greyjoy MARCH_FROM starfall
        greyjoy MARCH_UNIT F salt_shore
        greyjoy HOUSE_CARD dagmar_cleftjaw
        martell HOUSE_CARD doran_martell
        martell DORAN fiefdoms
        martell BLADE plus1
    """)
    assert c.g.blade_used == 1
    assert c.at("starfall") == "greyjoy Fr"


def test_cards_doran_passes_a_used_blade_still_used() -> None:
    """As above, but Greyjoy already used the blade this round: Martell gets the blade used,
    so no BLADE decision; the 2-2 tie goes to Martell (now first on Fiefdoms)."""
    c = marches().place("""
        starfall    greyjoy F march+0
        salt_shore  martell 2F
    """)
    c.track("fiefdoms", "greyjoy martell tyrell stark baratheon lannister")
    c.g.blade_used = 1
    c.play("""
        greyjoy MARCH_FROM starfall
        greyjoy MARCH_UNIT F salt_shore
        greyjoy HOUSE_CARD dagmar_cleftjaw
        martell HOUSE_CARD doran_martell
        martell DORAN fiefdoms
    """)
    assert c.asked("BLADE") == []
    assert c.at("salt_shore") == "martell 2F"


def test_cards_queen_of_thorns_removes_a_supporting_order() -> None:
    """Tyrell (2 knights from Highgarden, Queen of Thorns 0) attacks Lannister's footman in the
    Searoad Marches, supported by a Lannister knight in Lannisport (support +0) and by Stark's
    footman in Stoney Sept (Stark backs the defender); Lannister plays the Hound (2). Queen of
    Thorns may remove only a Lannister order next to the battle: the support in Lannisport
    (not Stark's). That support then no longer counts: 4 against 1 + 1 + 2 = 4, a tie Tyrell wins
    (Fiefdoms 2nd against Lannister 6th)."""
    c = marches().place("""
        highgarden       tyrell 2K march+0
        searoad_marches  lannister F
        lannisport       lannister K support+0
        stoney_sept      stark F support+0
    """)
    c.play("""
        tyrell MARCH_FROM highgarden
        tyrell MARCH_UNIT K searoad_marches
        tyrell MARCH_UNIT K searoad_marches
        stark SUPPORT_SIDE defender
        tyrell HOUSE_CARD queen_of_thorns
        lannister HOUSE_CARD the_hound
    """)
    c.expect("tyrell QUEEN_OF_THORNS")
    assert c.options() == {"lannisport"}
    c.play("tyrell QUEEN_OF_THORNS lannisport")
    c.expect("lannister RETREAT")
    assert c.totals() == (4, 4)
    c.play("lannister RETREAT lannisport")
    assert c.order_at("lannisport") is None
    assert c.orders_used("lannister", "support+0") == 0
    assert c.order_at("stoney_sept") == "support+0"
    assert c.at("searoad_marches") == "tyrell 2K"
    assert c.at("lannisport") == "lannister Fr K"  # the footman routed beside the knight


def test_cards_queen_of_thorns_spares_the_attacking_march_order() -> None:
    """Tyrell defends the Searoad Marches with Queen of Thorns against Lannister's knights from
    Lannisport; Lannister also has a raid in Stoney Sept. The march order that started the
    combat cannot be removed: the only option is the raid, and it goes."""
    c = marches().place("""
        lannisport       lannister 2K march+0
        stoney_sept      lannister F raid
        searoad_marches  tyrell F
    """)
    c.play("""
        lannister MARCH_FROM lannisport
        lannister MARCH_UNIT K searoad_marches
        lannister MARCH_UNIT K searoad_marches
        lannister HOUSE_CARD ser_kevan_lannister
        tyrell HOUSE_CARD queen_of_thorns
    """)
    c.expect("tyrell QUEEN_OF_THORNS")
    assert c.options() == {"stoney_sept"}
    c.play("""
        tyrell QUEEN_OF_THORNS stoney_sept
        tyrell RETREAT highgarden
    """)
    assert c.order_at("stoney_sept") is None
    assert c.orders_used("lannister", "raid") == 0
    assert c.at("searoad_marches") == "lannister 2K"


def test_cards_mace_kills_a_defending_footman_on_the_board() -> None:
    """Tyrell attacks Blackwater (2 Lannister footmen) with a knight and Mace Tyrell (4): one
    defending footman dies at once, from the board; then 2 + 4 = 6 against 1 + the Hound 2 = 3
    and the last footman retreats to Stoney Sept."""
    c = marches().place("""
        the_reach   tyrell K march+0
        blackwater  lannister 2F
    """)
    c.play("""
        tyrell MARCH_FROM the_reach
        tyrell MARCH_UNIT K blackwater
        tyrell HOUSE_CARD mace_tyrell
        lannister HOUSE_CARD the_hound
    """)
    c.expect("lannister RETREAT")
    assert c.totals() == (6, 3)
    assert c.at("blackwater") == "lannister F"
    c.play("lannister RETREAT stoney_sept")
    assert c.count("lannister", "F") == 1
    assert c.at("stoney_sept") == "lannister Fr"


def test_cards_mace_kills_an_attacking_footman_on_the_board() -> None:
    """Lannister attacks Blackwater (1 Tyrell footman, Mace 4) with 2 footmen from Stoney Sept:
    Mace kills one attacking footman in Stoney Sept; 1 + Cersei 0 loses to 1 + 4 and the last
    footman goes back routed."""
    c = marches().place("""
        stoney_sept  lannister 2F march+0
        blackwater   tyrell F
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT F blackwater
        lannister MARCH_UNIT F blackwater
        lannister HOUSE_CARD cersei_lannister
        tyrell HOUSE_CARD mace_tyrell
    """)
    assert c.at("stoney_sept") == "lannister Fr"
    assert c.count("lannister", "F") == 1
    assert c.at("blackwater") == "tyrell F"


def test_cards_tyrion_cancels_and_the_card_stays_in_hand() -> None:
    """Stark attacks Stoney Sept with Eddard; Lannister's Tyrion cancels him: Stark must play
    another card (Eddard is not offered) and plays Catelyn. After the combat Eddard is still in
    Stark's hand, Catelyn is discarded, Tyrion is discarded."""
    c = marches().place("""
        riverrun     stark 2K march+0
        stoney_sept  lannister F
    """)
    c.play("""
        stark MARCH_FROM riverrun
        stark MARCH_UNIT K stoney_sept
        stark MARCH_UNIT K stoney_sept
        stark HOUSE_CARD eddard_stark
        lannister HOUSE_CARD tyrion_lannister
        lannister TYRION cancel
    """)
    c.expect("stark HOUSE_CARD")
    assert "eddard_stark" not in c.options() and len(c.options()) == 6
    c.play("""
        stark HOUSE_CARD catelyn_stark
        lannister RETREAT harrenhal
    """)
    assert "eddard_stark" in c.hand_of("stark")
    assert c.discard_of("stark") == {"catelyn_stark"}
    assert c.discard_of("lannister") == {"tyrion_lannister"}
    assert c.at("stoney_sept") == "stark 2K"


def test_cards_tyrion_cancels_only_once() -> None:
    """Baratheon (Iron Throne 1st) attacks The Reach with Stannis; Lannister (2nd) defends with
    Tyrion and cancels Stannis. Baratheon plays Davos instead, which stands (C14): the battle
    goes on, 4 + 2 = 6 against 1 + 1 = 2, and the next decision is Lannister's retreat — not a
    second Tyrion."""
    c = marches().place("""
        kingswood  baratheon 2K march+0
        the_reach  lannister F
    """)
    c.play("""
        baratheon MARCH_FROM kingswood
        baratheon MARCH_UNIT K the_reach
        baratheon MARCH_UNIT K the_reach
        baratheon HOUSE_CARD stannis_baratheon
        lannister HOUSE_CARD tyrion_lannister
        lannister TYRION cancel
        baratheon HOUSE_CARD ser_davos_seaworth
    """)
    c.expect("lannister RETREAT")


def test_cards_hand_recycling_keeps_the_last_card_discarded() -> None:
    """Lannister's only card in hand is Ser Jaime (the other six discarded). Once Jaime is
    played the other six return to the hand and Jaime stays in the discard pile (C18)."""
    c = _lannister_attacks_blackwater_with_hand("ser_jaime_lannister")
    assert c.hand_of("lannister") == {
        "tywin_lannister",
        "ser_gregor_clegane",
        "the_hound",
        "ser_kevan_lannister",
        "tyrion_lannister",
        "cersei_lannister",
    }
    assert c.discard_of("lannister") == {"ser_jaime_lannister"}


def _lannister_attacks_blackwater_with_hand(card: str) -> Case:
    c = marches().place("""
        the_reach   lannister 2K march+0
        blackwater  stark F
    """)
    c.hand("lannister", card)
    c.play(f"""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K blackwater
        lannister MARCH_UNIT K blackwater
        lannister HOUSE_CARD {card}
        stark HOUSE_CARD catelyn_stark
        stark CASUALTY F
    """)
    return c


# =================================================================================================
# 2. Battle aftermath on the board
# =================================================================================================


def test_aftermath_winner_moves_in_and_clears_the_area() -> None:
    """Lannister (2 knights from The Reach, Ser Jaime 2 with a sword) beats Stark's footman in
    Blackwater (defense +1, a Stark power token also there; Catelyn doubles the defense: 1 + 2)
    6 to 3. The sword kills the footman; Lannister moves in and controls Blackwater; Stark's
    defense order and power token are gone; The Reach is left empty and uncontrolled."""
    c = marches().place("""
        the_reach   lannister 2K march+0
        blackwater  stark F defense+1
    """)
    c.token("blackwater", "stark")
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K blackwater
        lannister MARCH_UNIT K blackwater
        lannister HOUSE_CARD ser_jaime_lannister
        stark HOUSE_CARD catelyn_stark
    """)
    c.expect("stark CASUALTY")
    assert c.totals() == (6, 3)
    c.play("stark CASUALTY F")
    assert c.at("blackwater") == "lannister 2K"
    assert c.controller("blackwater") == "lannister"
    assert c.order_at("blackwater") is None and c.orders_used("stark", "defense+1") == 0
    assert c.token_at("blackwater") is None
    assert c.at("the_reach") == "" and c.controller("the_reach") is None
    assert c.order_at("the_reach") is None and c.orders_used("lannister", "march+0") == 0
    assert c.count("stark", "F") == 0


def test_aftermath_lost_home_defence_removes_the_garrison() -> None:
    """Greyjoy attacks Lannisport (1 Lannister footman, garrison 2) with 2 knights from
    Riverrun and Euron (4, a sword): 8 against 1 + 2 + Cersei 0 = 3. The footman dies to the
    sword, the garrison is removed for good and Greyjoy controls Lannisport."""
    c = marches().place("""
        riverrun    greyjoy 2K march+0
        lannisport  lannister F
    """)
    c.play("""
        greyjoy MARCH_FROM riverrun
        greyjoy MARCH_UNIT K lannisport
        greyjoy MARCH_UNIT K lannisport
        greyjoy HOUSE_CARD euron_crows_eye
        lannister HOUSE_CARD cersei_lannister
    """)
    c.expect("lannister CASUALTY")
    assert c.totals() == (8, 3)
    c.play("lannister CASUALTY F")
    assert c.at("lannisport") == "greyjoy 2K"
    assert int(c.g.garrison[area("lannisport")]) == 0
    assert c.controller("lannisport") == "greyjoy"


def test_aftermath_routed_units_cannot_march() -> None:
    """Turn order Stark, Lannister. Stark beats Lannister's footman in Stoney Sept (Ser Rodrick,
    no sword); it retreats routed into Harrenhal, where a Lannister footman has a march order.
    When Lannister resolves that order only the unrouted footman is asked for (it goes to
    Blackwater); the routed one stays in Harrenhal."""
    c = marches().place("""
        riverrun     stark 2K march+0
        stoney_sept  lannister F
        harrenhal    lannister F march+0
    """)
    c.track("iron_throne", "stark lannister baratheon martell greyjoy tyrell")
    c.play("""
        stark MARCH_FROM riverrun
        stark MARCH_UNIT K stoney_sept
        stark MARCH_UNIT K stoney_sept
        stark HOUSE_CARD ser_rodrick_cassel
        lannister HOUSE_CARD cersei_lannister
        lannister RETREAT harrenhal
    """)
    assert c.at("harrenhal") == "lannister F Fr"
    c.play("""
        lannister MARCH_FROM harrenhal
        lannister MARCH_UNIT F blackwater
    """)
    mine = [line for line in c.asked("MARCH_UNIT") if line.startswith("lannister")]
    assert mine == ["lannister MARCH_UNIT blackwater"]
    assert c.at("harrenhal") == "lannister Fr"
    assert c.at("blackwater") == "lannister F"
    assert c.order_at("harrenhal") is None


def test_aftermath_beaten_attackers_return_routed() -> None:
    """Lannister marches 2 footmen and a knight from Stoney Sept (a third footman stays) into
    Blackwater (2 Stark footmen, Eddard 4 with 2 swords): 4 + Cersei 0 against 6. Lannister
    loses 2 units to the swords (it picks the footmen); the knight goes back to Stoney Sept
    routed, beside the footman that stayed, which is not routed."""
    c = marches().place("""
        stoney_sept  lannister 3F K march+0
        blackwater   stark 2F
    """)
    c.supply(lannister=5)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT F blackwater
        lannister MARCH_UNIT F blackwater
        lannister MARCH_UNIT F stay
        lannister MARCH_UNIT K blackwater
        lannister HOUSE_CARD cersei_lannister
        stark HOUSE_CARD eddard_stark
        lannister CASUALTY F
        lannister CASUALTY F
    """)
    assert c.at("stoney_sept") == "lannister F Kr"
    assert c.at("blackwater") == "stark 2F"
    assert c.order_at("stoney_sept") is None


def test_aftermath_retreating_siege_engine_is_destroyed() -> None:
    """Stark defends Harrenhal with a footman and a siege engine and loses to 2 Lannister
    knights (4 + Kevan 1 against 1 + 0 + Catelyn 0). Siege engines cannot retreat: the footman
    retreats to Blackwater, the engine is destroyed."""
    c = marches().place("""
        stoney_sept  lannister 2K march+0
        harrenhal    stark F E
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT K harrenhal
        lannister MARCH_UNIT K harrenhal
        lannister HOUSE_CARD ser_kevan_lannister
        stark HOUSE_CARD catelyn_stark
        stark RETREAT blackwater
    """)
    assert c.at("blackwater") == "stark Fr"
    assert c.count("stark", "E") == 0
    assert c.at("harrenhal") == "lannister 2K"


def test_aftermath_beaten_attacking_siege_engine_is_destroyed() -> None:
    """Lannister attacks the castle of Harrenhal (2 Stark knights, Roose 2) with a footman and a
    siege engine (1 + 4 + Cersei 0 = 5 against 6): the footman returns routed, the engine is
    destroyed (C9)."""
    c = marches().place("""
        stoney_sept  lannister F E march+0
        harrenhal    stark 2K
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT F harrenhal
        lannister MARCH_UNIT E harrenhal
        lannister HOUSE_CARD cersei_lannister
        stark HOUSE_CARD roose_bolton
    """)
    assert c.at("stoney_sept") == "lannister Fr"
    assert c.count("lannister", "E") == 0


def test_aftermath_beaten_siege_engine_alone_is_destroyed() -> None:
    """Stark holds Harrenhal with a lone siege engine (strength 0 in defence) and Ser Rodrick
    (1); Lannister attacks with a knight and the Hound (2): 4 to 1. The engine cannot retreat
    and is destroyed; Lannister moves in."""
    c = marches().place("""
        stoney_sept  lannister K march+0
        harrenhal    stark E
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT K harrenhal
        lannister HOUSE_CARD the_hound
        stark HOUSE_CARD ser_rodrick_cassel
    """)
    assert c.count("stark", "E") == 0
    assert c.at("harrenhal") == "lannister K"


def test_aftermath_beaten_routed_defenders_are_destroyed() -> None:
    """A routed Stark footman (it retreated into Harrenhal earlier this round) is attacked by a
    Lannister knight with the Hound: 4 against 0 + Ser Rodrick 1. Routed units that must
    retreat again are destroyed; Lannister moves in."""
    c = marches().place("""
        stoney_sept  lannister K march+0
        harrenhal    stark Fr
    """)
    c.play("""
        lannister MARCH_FROM stoney_sept
        lannister MARCH_UNIT K harrenhal
        lannister HOUSE_CARD the_hound
        stark HOUSE_CARD ser_rodrick_cassel
    """)
    assert c.count("stark", "F") == 0
    assert c.at("harrenhal") == "lannister K"


def test_aftermath_retreat_across_own_ships() -> None:
    """Greyjoy beats Stark's footman in Flint's Finger from Greywater Watch, its only land
    neighbour. A Stark ship in the Bay of Ice carries the retreat: Castle Black, The Stony Shore
    or Winterfell (not Greywater Watch, the origin)."""
    c = marches().place("""
        greywater_watch  greyjoy 2K march+0
        flints_finger    stark F
        bay_of_ice       stark S
    """)
    c.play("""
        greyjoy MARCH_FROM greywater_watch
        greyjoy MARCH_UNIT K flints_finger
        greyjoy MARCH_UNIT K flints_finger
        greyjoy HOUSE_CARD balon_greyjoy
        stark HOUSE_CARD catelyn_stark
    """)
    c.expect("stark RETREAT")
    assert c.options() == {"castle_black", "the_stony_shore", "winterfell"}
    c.play("stark RETREAT the_stony_shore")
    assert c.at("the_stony_shore") == "stark Fr"
    assert c.at("flints_finger") == "greyjoy 2K"


def test_aftermath_beaten_fleet_retreats_to_a_sea_or_its_own_port() -> None:
    """Greyjoy's 2 ships from Ironman's Bay (Balon 2) beat Lannister's ship in the Golden Sound
    (Cersei 0), 4 to 1. Ships retreat by sea, never onto land and not into Ironman's Bay (the
    origin): the Sunset Sea, or the Port of Lannisport, since Lannister controls Lannisport
    (rulebook p.21/p.25, S&R ``getValidRetreatRegions``; rules.md B8). It takes the port."""
    c = marches().place("""
        ironmans_bay      greyjoy 2S march+0
        the_golden_sound  lannister S
    """)
    c.play("""
        greyjoy MARCH_FROM ironmans_bay
        greyjoy MARCH_UNIT S the_golden_sound
        greyjoy MARCH_UNIT S the_golden_sound
        greyjoy HOUSE_CARD balon_greyjoy
        lannister HOUSE_CARD cersei_lannister
    """)
    c.expect("lannister RETREAT")
    assert c.options() == {"sunset_sea", "port_of_lannisport"}
    c.play("lannister RETREAT port_of_lannisport")
    assert c.at("port_of_lannisport") == "lannister Sr"
    assert c.at("the_golden_sound") == "greyjoy 2S"


def test_aftermath_winning_defender_keeps_its_order() -> None:
    """Stark defends Blackwater (footman, defense +1, Ser Rodrick 1: 3) against Lannister's
    footman (Cersei 0: 1) and wins: its defense order stays for later battles; Lannister's march
    order is gone."""
    c = marches().place("""
        the_reach   lannister F march+0
        blackwater  stark F defense+1
    """)
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT F blackwater
        lannister HOUSE_CARD cersei_lannister
        stark HOUSE_CARD ser_rodrick_cassel
    """)
    assert c.order_at("blackwater") == "defense+1"
    assert c.order_at("the_reach") is None
    assert c.at("the_reach") == "lannister Fr"


def test_aftermath_conqueror_without_spare_ships_sinks_the_port() -> None:
    """As ``test_aftermath_conqueror_takes_over_the_port``, but all 6 Baratheon ships are
    already on the board: Stark's 2 ships in the Port of Winterfell are destroyed and the port
    stays empty (B6)."""
    c = marches().place("""
        castle_black        baratheon 2K march+0
        winterfell          stark F
        port_of_winterfell  stark 2S
        shipbreaker_bay     baratheon 2S
        blackwater_bay      baratheon S
        east_summer_sea     baratheon S
        the_narrow_sea      baratheon S
        port_of_dragonstone baratheon S
    """)
    c.play("""
        baratheon MARCH_FROM castle_black
        baratheon MARCH_UNIT K winterfell
        baratheon MARCH_UNIT K winterfell
        baratheon HOUSE_CARD stannis_baratheon
        stark HOUSE_CARD catelyn_stark
        stark RETREAT karhold
    """)
    assert c.at("port_of_winterfell") == ""
    assert c.count("stark", "S") == 0
    assert c.count("baratheon", "S") == 6


def test_aftermath_defender_without_a_retreat_is_destroyed() -> None:
    """Baratheon (2 knights from Winterfell, garrison removed) beats Stark's footman in Castle
    Black. Its neighbours are Winterfell (the attack's origin), Karhold (Greyjoy) and two seas
    without Stark ships: no legal retreat, so the footman is destroyed and no RETREAT is asked."""
    c = marches().place("""
        winterfell    baratheon 2K march+0
        castle_black  stark F
        karhold       greyjoy F
    """)
    c.garrison("winterfell", 0)
    c.play("""
        baratheon MARCH_FROM winterfell
        baratheon MARCH_UNIT K castle_black
        baratheon MARCH_UNIT K castle_black
        baratheon HOUSE_CARD ser_davos_seaworth
        stark HOUSE_CARD catelyn_stark
    """)
    assert c.asked("RETREAT") == []
    assert c.count("stark", "F") == 0
    assert c.at("castle_black") == "baratheon 2K"


def test_aftermath_retreat_excludes_origin_enemy_units_and_enemy_tokens() -> None:
    """Greyjoy beats Stark's footman in Harrenhal from Riverrun. Harrenhal's neighbours:
    Riverrun (origin), Stoney Sept (Lannister footman), Crackclaw Point (Baratheon power token),
    Blackwater (empty): Blackwater is the only legal retreat."""
    c = marches().place("""
        riverrun     greyjoy 2K march+0
        harrenhal    stark F
        stoney_sept  lannister F
    """)
    c.token("crackclaw_point", "baratheon")
    c.play("""
        greyjoy MARCH_FROM riverrun
        greyjoy MARCH_UNIT K harrenhal
        greyjoy MARCH_UNIT K harrenhal
        greyjoy HOUSE_CARD balon_greyjoy
        stark HOUSE_CARD catelyn_stark
    """)
    c.expect("stark RETREAT")
    assert c.options() == {"blackwater"}
    c.play("stark RETREAT blackwater")
    assert c.at("blackwater") == "stark Fr"


def test_aftermath_retreat_never_into_an_enemy_home() -> None:
    """Greyjoy beats Stark's footman in Riverrun from Seagard. Riverrun's neighbours: Seagard
    (origin), Stoney Sept (Lannister footman), Harrenhal (empty) and Lannisport — empty, but
    Lannister's home with its garrison, so controlled by Lannister. Only Harrenhal is legal."""
    c = marches().place("""
        seagard      greyjoy 2K march+0
        riverrun     stark F
        stoney_sept  lannister F
    """)
    c.play("""
        greyjoy MARCH_FROM seagard
        greyjoy MARCH_UNIT K riverrun
        greyjoy MARCH_UNIT K riverrun
        greyjoy HOUSE_CARD balon_greyjoy
        stark HOUSE_CARD catelyn_stark
    """)
    c.expect("stark RETREAT")
    assert c.options() == {"harrenhal"}


def test_aftermath_retreat_keeps_within_supply_when_possible() -> None:
    """Lannister (supply 1: armies of 3 and 2) has 3 footmen in Lannisport and 2 in Stoney
    Sept; Stark beats the Stoney Sept pair from Riverrun. Retreating into Blackwater, Harrenhal
    or the Searoad Marches (all empty) leaves armies of 3 and 2, within supply; into Lannisport
    an army of 5, over it. Some area keeps supply, so Lannisport is not legal (B8)."""
    c = marches().place("""
        riverrun     stark 2K march+0
        stoney_sept  lannister 2F
        lannisport   lannister 3F
    """)
    c.supply(lannister=1)
    c.play("""
        stark MARCH_FROM riverrun
        stark MARCH_UNIT K stoney_sept
        stark MARCH_UNIT K stoney_sept
        stark HOUSE_CARD ser_rodrick_cassel
        lannister HOUSE_CARD cersei_lannister
    """)
    c.expect("lannister RETREAT")
    assert c.options() == {"blackwater", "harrenhal", "searoad_marches"}


def test_aftermath_conqueror_takes_over_the_port() -> None:
    """Baratheon takes Winterfell (Stark footman + garrison 2; Stannis 4 + 2 knights against 3)
    from Castle Black. The 2 Stark ships in the Port of Winterfell are replaced by Baratheon's
    available ships: it has 5 of its 6 on the board, so 1 ship (B6)."""
    c = marches().place("""
        castle_black        baratheon 2K march+0
        winterfell          stark F
        port_of_winterfell  stark 2S
        shipbreaker_bay     baratheon S
        blackwater_bay      baratheon S
        east_summer_sea     baratheon S
        the_narrow_sea      baratheon S
        port_of_dragonstone baratheon S
    """)
    c.play("""
        baratheon MARCH_FROM castle_black
        baratheon MARCH_UNIT K winterfell
        baratheon MARCH_UNIT K winterfell
        baratheon HOUSE_CARD stannis_baratheon
        stark HOUSE_CARD catelyn_stark
        stark RETREAT karhold
    """)
    assert c.at("winterfell") == "baratheon 2K"
    assert c.at("port_of_winterfell") == "baratheon S"
    assert c.count("stark", "S") == 0
    assert c.count("baratheon", "S") == 6
    assert int(c.g.garrison[area("winterfell")]) == 0


def test_aftermath_port_changes_hands_on_a_peaceful_capture() -> None:
    """White Harbor is held only by a Stark power token; 2 Stark ships lie in its port.
    Baratheon marches a footman in from Widow's Watch: no battle, the token goes, and the port's
    ships are replaced by 2 Baratheon ships (it has 4 in reserve)."""
    c = marches().place("""
        widows_watch          baratheon F march+0
        port_of_white_harbor  stark 2S
        shipbreaker_bay       baratheon 2S
    """)
    c.token("white_harbor", "stark")
    c.play("""
        baratheon MARCH_FROM widows_watch
        baratheon MARCH_UNIT F white_harbor
    """)
    assert c.at("white_harbor") == "baratheon F"
    assert c.token_at("white_harbor") is None
    assert c.at("port_of_white_harbor") == "baratheon 2S"


def test_aftermath_valyrian_blade_once_per_round() -> None:
    """Greyjoy (Fiefdoms 1st) fights twice in one round. In the first battle it uses the blade
    (+1); in the second it is not offered again. The clean-up makes it usable again."""
    c = marches().place("""
        seagard          greyjoy F march+0
        greywater_watch  greyjoy F march+0
        riverrun         lannister F
        moat_cailin      stark F
    """)
    c.play("""
        greyjoy MARCH_FROM seagard
        greyjoy MARCH_UNIT F riverrun
        greyjoy HOUSE_CARD euron_crows_eye
        lannister HOUSE_CARD cersei_lannister
        greyjoy BLADE plus1
        lannister CASUALTY F
    """)
    assert c.g.blade_used == 1
    assert c.at("riverrun") == "greyjoy F"
    c.play("""
        greyjoy MARCH_FROM greywater_watch
        greyjoy MARCH_UNIT F moat_cailin
        greyjoy HOUSE_CARD victarion_greyjoy
        stark HOUSE_CARD catelyn_stark
        stark RETREAT winterfell
    """)
    assert c.asked("BLADE") == ["greyjoy BLADE plus1"]
    assert c.at("moat_cailin") == "greyjoy F"
    assert c.g.phase == Phase.CONSOLIDATE
    c.advance().advance()  # consolidate power (nothing), then the clean-up
    assert c.g.phase == Phase.WESTEROS
    assert c.g.blade_used == 0
    assert c.at("winterfell") == "stark F"  # routed units stand up again


def _six_castles_for_lannister() -> Case:
    """Lannister controls Lannisport (home) and 5 castles/strongholds by power tokens: 6."""
    c = marches()
    for name in ("riverrun", "seagard", "crackclaw_point", "flints_finger", "the_eyrie"):
        c.token(name, "lannister")
    c.neutral("the_eyrie", 0)
    return c


def test_aftermath_seventh_castle_ends_the_game_at_once() -> None:
    """Lannister holds 6 castles and strongholds and marches a footman from Blackwater into the
    empty castle of The Reach: 7 (B10). The game ends that moment: done, Lannister the winner,
    end reason castles, no further decision."""
    c = _six_castles_for_lannister().place("blackwater lannister F march+0")
    c.place("karhold stark F march+0")  # a march left for later: the game must stop
    assert castles_held(c.g, c.t, LAN) == 6
    c.play("""
        lannister MARCH_FROM blackwater
        lannister MARCH_UNIT F the_reach
    """)
    assert castles_held(c.g, c.t, LAN) == 7
    assert (c.g.done, c.g.winner, c.g.end_reason) == (1, LAN, EndReason.CASTLES)
    assert c.g.phase == Phase.GAME_OVER and c.pending is None


def test_aftermath_seventh_castle_won_in_battle_ends_the_game() -> None:
    """As above, but the 7th castle, Harrenhal, is held by a Stark footman: Lannister wins the
    battle (2 knights, Ser Jaime's sword kills the footman) and the game ends after it."""
    c = _six_castles_for_lannister().place("""
        blackwater  lannister 2K march+0
        harrenhal   stark F
    """)
    c.play("""
        lannister MARCH_FROM blackwater
        lannister MARCH_UNIT K harrenhal
        lannister MARCH_UNIT K harrenhal
        lannister HOUSE_CARD ser_jaime_lannister
        stark HOUSE_CARD catelyn_stark
        stark CASUALTY F
    """)
    assert (c.g.done, c.g.winner, c.g.end_reason) == (1, LAN, EndReason.CASTLES)


def test_aftermath_six_castles_do_not_end_the_game() -> None:
    """With only 6 castles after its march (into a non-castle area) Lannister has not won."""
    c = _six_castles_for_lannister().place("blackwater lannister F march+0")
    c.play("""
        lannister MARCH_FROM blackwater
        lannister MARCH_UNIT F stoney_sept
    """)
    assert c.g.done == 0 and c.g.winner == -1
    assert c.g.phase == Phase.CONSOLIDATE


# =================================================================================================
# 3. Marches
# =================================================================================================


def test_marches_split_over_several_destinations() -> None:
    """Stark's march from Winterfell (2 footmen, 1 knight) sends one footman to Castle Black,
    one to Karhold, and keeps the knight at home. Each footman may go to any adjacent land area
    or stay; the order is spent; no power token is offered (units stay)."""
    c = marches().place("winterfell stark 2F K march+0")
    c.play("stark MARCH_FROM winterfell")
    c.expect("stark MARCH_UNIT")
    assert c.options() == {
        "stay",
        "castle_black",
        "karhold",
        "moat_cailin",
        "the_stony_shore",
        "white_harbor",
    }
    c.play("""
        stark MARCH_UNIT F castle_black
        stark MARCH_UNIT F karhold
        stark MARCH_UNIT K stay
    """)
    assert (c.at("winterfell"), c.at("castle_black"), c.at("karhold")) == (
        "stark K",
        "stark F",
        "stark F",
    )
    assert c.order_at("winterfell") is None
    assert c.asked("LEAVE_POWER") == []


def test_marches_onto_an_enemy_power_token_without_battle() -> None:
    """Stoney Sept holds only a Lannister power token. Stark marches a footman in from Riverrun:
    no battle, the token goes back to Lannister's pool (its power in hand stays 5), Stark
    controls the area."""
    c = marches().place("riverrun stark F march+0").token("stoney_sept", "lannister")
    assert c.controller("stoney_sept") == "lannister"
    c.play("""
        stark MARCH_FROM riverrun
        stark MARCH_UNIT F stoney_sept
    """)
    assert c.at("stoney_sept") == "stark F"
    assert c.token_at("stoney_sept") is None
    assert c.controller("stoney_sept") == "stark"
    assert c.power_of("lannister") == 5
    assert c.g.battles.sum() == 0


def test_marches_into_an_empty_enemy_home_without_garrison() -> None:
    """Lannisport is empty and its garrison already gone: Stark's footman walks in from
    Riverrun without a battle and takes control of Lannister's home."""
    c = marches().place("riverrun stark F march+0").garrison("lannisport", 0)
    assert c.controller("lannisport") == "lannister"
    c.play("""
        stark MARCH_FROM riverrun
        stark MARCH_UNIT F lannisport
    """)
    assert c.at("lannisport") == "stark F"
    assert c.controller("lannisport") == "stark"
    assert c.g.battles.sum() == 0


def test_marches_into_an_empty_home_with_garrison_is_a_battle() -> None:
    """Lannisport is empty but keeps its garrison (2): Greyjoy's 2 knights from Riverrun fight
    Lannister, who plays a house card (Tywin 4 + garrison 2 = 6 against 4 + Euron 4 = 8).
    Greyjoy wins, the garrison is removed, Greyjoy controls Lannisport."""
    c = marches().place("riverrun greyjoy 2K march+0")
    c.play("""
        greyjoy MARCH_FROM riverrun
        greyjoy MARCH_UNIT K lannisport
        greyjoy MARCH_UNIT K lannisport
        greyjoy HOUSE_CARD euron_crows_eye
        lannister HOUSE_CARD tywin_lannister
    """)
    assert c.at("lannisport") == "greyjoy 2K"
    assert int(c.g.garrison[area("lannisport")]) == 0
    assert int(c.g.battles[LAN]) == 1
    assert c.discard_of("lannister") == {"tywin_lannister"}
    assert c.power_of("lannister") == 5  # Tywin only pays a winner


def test_marches_neutral_force_short_of_support_is_planned_again() -> None:
    """Rulebook example (5 players): Tyrell marches a knight and a footman from Yronwood (march
    +1) against Sunspear's neutral force (5): 2 + 1 + 1 = 4, and a Greyjoy support order in Salt
    Shore could make it 5, so the march is legal (a doomed one is not, rules.md C11). Greyjoy
    backs nobody: 4 < 5, so the plan was no legal march. Nothing has moved; Tyrell plans the
    march again, now with no attack on a neutral force, and keeps its units home: the token
    stays, the march order is spent, no battle was fought (C11)."""
    c = against_sunspear()
    c.play("""
        tyrell MARCH_FROM yronwood
        tyrell MARCH_UNIT F sunspear
        tyrell MARCH_UNIT K sunspear
        greyjoy SUPPORT_SIDE nobody
    """)
    c.expect("tyrell MARCH_UNIT")
    assert int(c.g.ctx[1]) == 0  # the footman again: the plan starts over
    assert "sunspear" not in c.options()
    c.play("""
        tyrell MARCH_UNIT F stay
        tyrell MARCH_UNIT K stay
    """)
    assert c.at("yronwood") == "tyrell F K"
    assert int(c.g.neutral[area("sunspear")]) == 5
    assert c.order_at("yronwood") is None
    assert c.g.battles.sum() == 0


def test_marches_a_void_plan_moves_nothing_and_never_breaks_supply() -> None:
    """Tyrell (supply 5: armies 4, 3, 2, 2) marches from Yronwood (3 footmen and a knight,
    march +1): a footman and the knight attack Sunspear (5) counting on Greyjoy's support from
    Salt Shore (1 + 2 + 1 + 1), a footman joins the two in The Boneway (3), one stays. Greyjoy
    backs nobody. Had the rest of the march been made before the support was asked, Tyrell
    would stand at three armies of 3 (Yronwood, The Boneway, Prince's Pass), over its supply;
    nothing has moved instead, no power token was left, and the march is planned again within
    supply (C11, B5)."""
    c = Case(5).phase("marches")
    for name in ("yronwood", "salt_shore", "the_boneway", "princes_pass", "starfall"):
        c.neutral(name, 0)  # (5 players: Sunspear's 5 is the only one left in Dorne)
    c.place("""
        yronwood      tyrell 3F K march+1
        the_boneway   tyrell 2F
        princes_pass  tyrell 3F
        salt_shore    greyjoy F support+0
    """)
    c.supply(tyrell=5)
    power = c.power_of("tyrell")
    c.play("""
        tyrell MARCH_FROM yronwood
        tyrell MARCH_UNIT F sunspear
        tyrell MARCH_UNIT F the_boneway
        tyrell MARCH_UNIT F stay
        tyrell MARCH_UNIT K sunspear
        greyjoy SUPPORT_SIDE nobody
    """)
    c.expect("tyrell MARCH_UNIT")
    assert c.at("yronwood") == "tyrell 3F K"
    assert c.at("the_boneway") == "tyrell 2F"
    assert c.power_of("tyrell") == power
    assert "sunspear" not in c.options()
    c.refuse("tyrell MARCH_UNIT the_boneway")  # (three armies of 3: over supply)
    c.play("""
        tyrell MARCH_UNIT F starfall
        tyrell MARCH_UNIT F stay
        tyrell MARCH_UNIT F stay
        tyrell MARCH_UNIT K stay
    """)
    assert c.at("yronwood") == "tyrell 2F K"
    assert c.at("starfall") == "tyrell F"
    assert c.at("the_boneway") == "tyrell 2F"
    assert int(c.g.neutral[area("sunspear")]) == 5


def test_marches_a_void_plan_is_narrated() -> None:
    """In the narration of random 5-player games, an attack on a neutral force left short by a
    refused support reads "holds; the march is planned again", and the next event is the same
    house assigning the march's first unit anew."""
    from gotsim.engine.game import random_game

    for seed in range(40):
        log = random_game(players=5, seed=seed).log
        void = [i for i, e in enumerate(log) if "the march is planned again" in e.text]
        if void:
            break
    assert void, "no void plan in 40 random 5-player games"
    i = void[0]
    attacker = log[i].text.split(": ")[1].split()[0]
    assert log[i].kind == "battle" and "attack on the neutral force in" in log[i].text
    assert log[i - 1].kind == "SUPPORT_SIDE" and "supports nobody" in log[i - 1].text
    assert log[i + 1].kind == "MARCH_UNIT" and log[i + 1].text.startswith(f"{attacker}:")


def test_marches_units_kept_back_leave_a_neutral_force_out_of_reach() -> None:
    """Tyrell's footman and knight in Yronwood (march +1) with a Greyjoy support order in Salt
    Shore could reach Sunspear's 5 together (1 + 2 + 1 + 1); once the footman has been told to
    stay, the knight alone could reach 4 at most, so Sunspear is no legal destination for it
    (rulebook p.26: the units that march in, with support, must reach the token's strength;
    C11)."""
    c = against_sunspear()
    c.play("tyrell MARCH_FROM yronwood")
    c.expect("tyrell MARCH_UNIT")
    assert "sunspear" in c.options()
    c.step("tyrell MARCH_UNIT F stay")
    c.expect("tyrell MARCH_UNIT")
    assert "sunspear" not in c.options()


def test_marches_neutral_force_falls_to_a_supported_march() -> None:
    """The same march with a Tyrell footman supporting from Salt Shore (+1): 5 ≥ 5. The token is
    removed for good and the units move into Sunspear."""
    c = against_sunspear(salt_shore="tyrell F support+0")
    c.play("""
        tyrell MARCH_FROM yronwood
        tyrell MARCH_UNIT F sunspear
        tyrell MARCH_UNIT K sunspear
    """)
    assert c.at("sunspear") == "tyrell F K"
    assert int(c.g.neutral[area("sunspear")]) == 0
    assert c.at("yronwood") == ""


def test_marches_leaving_a_power_token_keeps_control() -> None:
    """Stark's only footman leaves Karhold for Castle Black and leaves a power token: Stark's
    power goes 5 → 4 and it still controls Karhold."""
    c = marches().place("karhold stark F march+0")
    c.play("""
        stark MARCH_FROM karhold
        stark MARCH_UNIT F castle_black
        stark LEAVE_POWER yes
    """)
    assert c.at("karhold") == ""
    assert c.token_at("karhold") == "stark"
    assert c.controller("karhold") == "stark"
    assert c.power_of("stark") == 4


def test_marches_leaving_a_power_token_behind_an_attack() -> None:
    """Stark's 2 knights leave Karhold to attack Castle Black (Greyjoy footman; the Greatjon's
    sword kills it) and Stark leaves a power token in Karhold: power 5 → 4, Karhold stays
    Stark's."""
    c = marches().place("""
        karhold       stark 2K march+0
        castle_black  greyjoy F
    """)
    c.play("""
        stark MARCH_FROM karhold
        stark MARCH_UNIT K castle_black
        stark MARCH_UNIT K castle_black
        stark LEAVE_POWER yes
        stark HOUSE_CARD greatjon_umber
        greyjoy HOUSE_CARD theon_greyjoy
        greyjoy CASUALTY F
    """)
    assert c.at("castle_black") == "stark 2K"
    assert c.token_at("karhold") == "stark"
    assert c.power_of("stark") == 4


def test_marches_no_power_token_offered_at_home_or_when_units_stay() -> None:
    """Stark marches its last footman out of Winterfell (its home: control stays anyway) and
    one of 2 footmen out of Karhold (one stays): leaving a power token is offered in neither
    case."""
    c = marches().place("""
        winterfell  stark F march+0
        karhold     stark 2F march-1
    """)
    c.auto.pop(Decision.LEAVE_POWER)
    c.play("""
        stark MARCH_FROM winterfell
        stark MARCH_UNIT F the_stony_shore
        stark MARCH_FROM karhold
        stark MARCH_UNIT F castle_black
        stark MARCH_UNIT F stay
    """)
    assert c.asked("LEAVE_POWER") == []
    assert c.pending is None and c.g.phase == Phase.CONSOLIDATE
    assert c.controller("winterfell") == "stark"
    assert c.power_of("stark") == 5


def test_marches_supply_forbids_an_oversized_army() -> None:
    """Stark at supply 1 may have armies of 3 and 2. It has 3 footmen in Winterfell and 2 in
    White Harbor; its footman in Moat Cailin may not join Winterfell (an army of 4) nor White
    Harbor (armies 3 and 3); Greywater Watch, Seagard and The Twins (or staying) are fine."""
    c = marches().place("""
        winterfell    stark 3F
        white_harbor  stark 2F
        moat_cailin   stark F march+0
    """)
    c.supply(stark=1)
    c.play("stark MARCH_FROM moat_cailin")
    c.expect("stark MARCH_UNIT")
    assert c.options() == {"stay", "greywater_watch", "seagard", "the_twins"}


def test_marches_ship_enters_a_port_only_if_its_house_controls_the_land() -> None:
    """A Greyjoy ship in the Bay of Ice may not enter the Port of Winterfell (Stark's home);
    a Stark ship there may."""
    greyjoy = marches().place("bay_of_ice greyjoy S march+0")
    greyjoy.play("greyjoy MARCH_FROM bay_of_ice")
    greyjoy.expect("greyjoy MARCH_UNIT")
    assert "port_of_winterfell" not in greyjoy.options()
    assert greyjoy.options() == {"stay", "sunset_sea"}
    stark = marches().place("bay_of_ice stark S march+0")
    stark.play("stark MARCH_FROM bay_of_ice")
    stark.expect("stark MARCH_UNIT")
    assert stark.options() == {"stay", "sunset_sea", "port_of_winterfell"}


def test_marches_port_holds_at_most_three_ships() -> None:
    """Lannister has 2 ships in the Port of Lannisport and marches 2 from the Golden Sound: the
    first may enter the port (3), the second may not (4)."""
    c = marches().place("""
        port_of_lannisport  lannister 2S
        the_golden_sound    lannister 2S march+0
    """)
    c.supply(lannister=4)
    c.play("""
        lannister MARCH_FROM the_golden_sound
        lannister MARCH_UNIT S port_of_lannisport
    """)
    c.expect("lannister MARCH_UNIT")
    assert "port_of_lannisport" not in c.options()
    c.play("lannister MARCH_UNIT S stay")
    assert c.at("port_of_lannisport") == "lannister 3S"
    assert c.at("the_golden_sound") == "lannister S"


def test_marches_never_into_impassable_areas() -> None:
    """3 players: the southern areas are impassable (B11). Lannister's footman in the Searoad
    Marches may not enter Highgarden."""
    c = Case(3).phase("marches").place("searoad_marches lannister F march+0")
    c.play("lannister MARCH_FROM searoad_marches")
    c.expect("lannister MARCH_UNIT")
    assert c.options() == {"stay", "blackwater", "lannisport", "stoney_sept", "the_reach"}


# =================================================================================================
# 4. The Swords and Ravens 2020 unit-test scenarios (shared/reference/casebook_sr2020.md)
#
# S&R built a 6-area mini world (the_reach, blackwater, kings_landing, dragonstone,
# blackwater_bay, shipbreaker_bay) with Lannister, Stark, Baratheon and Greyjoy. The engine's
# rules table comes from the packaged board, so the scenarios are rebuilt on the real board in a
# 4-player game (the same four houses). The real areas of those names have the same borders
# (the_reach–blackwater, the_reach–kings_landing, blackwater–kings_landing,
# blackwater_bay–kings_landing, blackwater_bay–shipbreaker_bay, shipbreaker_bay–dragonstone);
# where real icons, garrisons or neutral forces differ, the case says what stands in.
# =================================================================================================


def sr2020(tracks: str | None = None) -> Case:
    """A 4-player game: every house 5 power, King's Landing's neutral force removed."""
    c = Case(4).neutral("kings_landing", 0)
    if tracks:
        c.tracks(tracks)
    return c


def test_sr2020_01_house_card_recycling() -> None:
    """Lannister (cards: the Hound 2 in hand, Ser Gregor discarded; the rest out of the game)
    marches a footman from The Reach (march -1) into Blackwater (a Stark knight; Stark holds Ser
    Rodrick 1 and Catelyn 0). Lannister plays the Hound, Stark Ser Rodrick; Lannister, holding
    the blade, declines it. 1 - 1 + 2 = 2 against 2 + 1 = 3: Stark wins. Afterwards the Hound is
    discarded and Ser Gregor back in hand (last card played); Ser Rodrick discarded, Catelyn in
    hand."""
    c = sr2020("lannister stark baratheon greyjoy").neutral("kings_landing", 5).phase("marches")
    c.place("""
        the_reach   lannister F march-1
        blackwater  stark K
    """)
    c.hand("lannister", "the_hound", discard=("ser_gregor_clegane",))
    c.hand("stark", "ser_rodrick_cassel", "catelyn_stark", discard=())
    c.auto.pop(Decision.BLADE)
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT F blackwater
        lannister HOUSE_CARD the_hound
        stark HOUSE_CARD ser_rodrick_cassel
        lannister BLADE keep
    """)
    assert c.hand_of("lannister") == {"ser_gregor_clegane"}
    assert c.discard_of("lannister") == {"the_hound"}
    assert c.hand_of("stark") == {"catelyn_stark"}
    assert c.discard_of("stark") == {"ser_rodrick_cassel"}
    assert c.at("blackwater") == "stark K"
    assert c.at("the_reach") == "lannister Fr"


def test_sr2020_02_march_against_a_neutral_force() -> None:
    """King's Landing holds a neutral force of 5. Lannister marches a knight from The Reach
    (march +0) with 3 supporting ships in Blackwater Bay; a Stark footman in Blackwater also has
    a support order. 2 + 3 = 5 ≥ 5: Lannister takes King's Landing, the token is gone and no
    house cards are played. [changed] The 2020 test asked nobody about support; the rulebook
    (p.26, rules.md C11) lets other houses back an attack on a neutral force, never the force
    itself, so Stark is asked — nobody or the attacker — and stays out."""
    c = sr2020().neutral("kings_landing", 5).phase("marches")
    c.place("""
        the_reach       lannister K march+0
        blackwater_bay  lannister 3S support+0
        blackwater      stark F support+0
    """)
    c.play("""
        lannister MARCH_FROM the_reach
        lannister MARCH_UNIT K kings_landing
    """)
    c.expect("stark SUPPORT_SIDE")
    assert c.options() == {"nobody", "attacker"}
    c.play("stark SUPPORT_SIDE nobody")
    assert c.at("kings_landing") == "lannister K"
    assert int(c.g.neutral[area("kings_landing")]) == 0
    assert c.asked("SUPPORT_SIDE") == ["stark SUPPORT_SIDE nobody"]
    assert c.asked("HOUSE_CARD") == []
    assert len(c.hand_of("lannister")) == 7
    assert c.g.battles.sum() == 0


def test_sr2020_03_two_march_orders_one_resolved() -> None:
    """Lannister: a ship in Shipbreaker Bay, 2 footmen in King's Landing (march -1; its neutral
    force removed), 1 footman in Blackwater (march +0). It resolves Blackwater first, moving the
    footman to The Reach: Blackwater is empty without an order, The Reach holds 1 footman, and
    King's Landing's march -1 is still on the board, the next one to resolve."""
    c = sr2020().phase("marches")
    c.place("""
        shipbreaker_bay  lannister S
        kings_landing    lannister 2F march-1
        blackwater       lannister F march+0
    """)
    c.play("""
        lannister MARCH_FROM blackwater
        lannister MARCH_UNIT F the_reach
    """)
    assert (c.at("blackwater"), c.order_at("blackwater")) == ("", None)
    assert c.at("the_reach") == "lannister F"
    assert c.order_at("kings_landing") == "march-1"
    assert c.pending == "lannister MARCH_FROM"
    assert c.options() == {"kings_landing"}


def test_sr2020_04_ships_as_a_bridge() -> None:
    """Lannister ships in Blackwater Bay and Shipbreaker Bay carry a footman from King's Landing
    (march -1) to Dragonstone across both seas. (Dragonstone is Baratheon's empty home on the
    real board: its garrison is removed to match the mini world's unowned Dragonstone, so the
    move is no attack.)"""
    c = sr2020().garrison("dragonstone", 0).phase("marches")
    c.place("""
        blackwater_bay   lannister S
        shipbreaker_bay  lannister S
        kings_landing    lannister F march-1
    """)
    c.play("lannister MARCH_FROM kings_landing")
    c.expect("lannister MARCH_UNIT")
    assert "dragonstone" in c.options()
    c.play("lannister MARCH_UNIT F dragonstone")
    assert c.at("kings_landing") == ""
    assert c.at("dragonstone") == "lannister F"


def _westeros(c: Case, deck_one: str = "last_days_of_summer") -> Case:
    """Round 2's Westeros phase; deck I shows ``deck_one``, decks II and III Last Days of Summer
    (a wildling icon each: the mini world's decks)."""
    return c.westeros(deck_one, "last_days_of_summer", "last_days_of_summer").phase(
        "westeros", game_round=2
    )


def test_sr2020_05_clash_of_kings_bidding_and_ties() -> None:
    """Power: Lannister 10, Greyjoy 10, Stark 15, Baratheon 12; Iron Throne Stark, Lannister,
    Baratheon, Greyjoy; deck I Clash of Kings. Iron Throne bids L1 S2 G3 B4 → Baratheon,
    Greyjoy, Stark, Lannister. Fiefdoms bids L4 S3 G3 B1: the Stark/Greyjoy tie is settled by
    the new Iron Throne holder Baratheon, Stark above → Lannister, Stark, Greyjoy, Baratheon.
    King's Court bids G4 B4 L1 S1: Baratheon settles both ties, B over G and L over S →
    Baratheon, Greyjoy, Lannister, Stark. Bids are asked in the current Iron Throne order."""
    c = _westeros(sr2020(), "clash_of_kings")
    c.power(lannister=10, greyjoy=10, stark=15, baratheon=12)
    c.track("iron_throne", "stark lannister baratheon greyjoy")
    c.play("""
        stark BID 2
        lannister BID 1
        baratheon BID 4
        greyjoy BID 3
        baratheon BID 1
        greyjoy BID 3
        stark BID 3
        lannister BID 4
        baratheon TIE_ORDER stark
        baratheon BID 4
        greyjoy BID 4
        stark BID 1
        lannister BID 1
        baratheon TIE_ORDER baratheon
        baratheon TIE_ORDER lannister
    """)
    assert c.track_of("iron_throne") == ["baratheon", "greyjoy", "stark", "lannister"]
    assert c.track_of("fiefdoms") == ["lannister", "stark", "greyjoy", "baratheon"]
    assert c.track_of("kings_court") == ["baratheon", "greyjoy", "lannister", "stark"]
    assert [c.power_of(h) for h in ("lannister", "greyjoy", "stark", "baratheon")] == [4, 0, 9, 3]
    assert c.g.phase == Phase.PLANNING


def _stark_musters_in_dragonstone() -> Case:
    """Stark (supply 1: armies 3 and 2) holds Dragonstone (a stronghold: 2 points) with 2
    footmen; Iron Throne Stark, Lannister, Baratheon, Greyjoy; deck I Mustering. On the real
    board every house also controls its empty home; they muster nothing here (auto: none)."""
    c = _westeros(sr2020("stark lannister baratheon greyjoy"), "mustering")
    c.place("dragonstone stark 2F").supply(stark=1)
    c.auto[Decision.MUSTER] = "none"
    return c


def test_sr2020_06_mustering_over_supply_is_refused() -> None:
    """Stark wants 2 footmen in Dragonstone (an army of 4 > 3). The engine asks one unit at a
    time: the first footman (army of 3) is accepted, the second is refused — apply returns
    False, nothing changes, and it is still Stark's muster in Dragonstone with 1 point left."""
    c = _stark_musters_in_dragonstone()
    c.step("stark MUSTER footman")
    c.refuse("stark MUSTER footman")
    assert c.pending == "stark MUSTER"
    assert (int(c.g.ctx[0]), int(c.g.ctx[1])) == (area("dragonstone"), 1)
    assert "footman" not in c.options()
    assert c.at("dragonstone") == "stark 3F"


def test_sr2020_07_mustering_within_supply() -> None:
    """Stark musters 1 footman in Dragonstone (army of 3) and stops: accepted, and the game moves
    on to planning."""
    c = _stark_musters_in_dragonstone()
    c.play("""
        stark MUSTER footman
        stark MUSTER none
    """)
    assert c.at("dragonstone") == "stark 3F"
    assert c.g.phase == Phase.PLANNING


def test_sr2020_08_supply_adjustment_and_reconciliation() -> None:
    """Lannister (supply 5): 4 footmen in Lannisport (2 barrels; stands in for the mini world's
    The Reach), 3 ships in Shipbreaker Bay, 1 footman in King's Landing. Stark (supply 1): 3
    ships in Blackwater Bay, 2 footmen in Karhold (no barrels; stands in for Blackwater) and
    Winterfell held by a Greyjoy power token, so Stark has no barrels. Deck I Supply; Iron
    Throne Stark, Lannister, Baratheon, Greyjoy. Lannister drops to 2 (armies 3, 2, 2), Stark to
    0 (2, 2). Stark reconciles first: only cutting a ship helps ([3, 2] → [2, 2]). Then
    Lannister's [4, 3] must fit [3, 2, 2]: it removes 2 footmen from Lannisport."""
    c = _westeros(sr2020("stark lannister baratheon greyjoy"), "supply")
    c.place("""
        lannisport       lannister 4F
        shipbreaker_bay  lannister 3S
        kings_landing    lannister F
        blackwater_bay   stark 3S
        karhold          stark 2F
    """)
    c.token("winterfell", "greyjoy").supply(lannister=5, stark=1)
    c.expect("stark SUPPLY_CUT")
    assert (int(c.g.supply[LAN]), int(c.g.supply[STARK])) == (2, 0)
    assert c.options() == {"blackwater_bay"}
    c.play("stark SUPPLY_CUT blackwater_bay")
    c.expect("lannister SUPPLY_CUT")
    assert c.options() == {"lannisport", "shipbreaker_bay"}
    c.play("""
        lannister SUPPLY_CUT lannisport
        lannister SUPPLY_CUT lannisport
    """)
    assert c.at("blackwater_bay") == "stark 2S"
    assert c.at("lannisport") == "lannister 2F"
    assert c.at("shipbreaker_bay") == "lannister 3S"
    assert c.g.phase == Phase.PLANNING


def _wildlings(threat: int, card: str, tracks: str | None = None) -> Case:
    """Round 2's Westeros phase with three Last Days of Summer (+6 threat) and ``card`` on top
    of the wildling deck."""
    c = _westeros(sr2020(tracks))
    c.g.threat = threat
    return c.wildlings(card)


def test_sr2020_09_nights_watch_wins() -> None:
    """Threat 10; the three icons take it to 12 (capped) and the wildlings attack at once. Bids
    L4 G5 S4 B4 = 17 ≥ 12: the Night's Watch wins (Silence at the Wall: no effect). Threat 0;
    every bid is paid."""
    c = _wildlings(10, "silence_at_the_wall")
    c.play("""
        baratheon BID 4
        lannister BID 4
        stark BID 4
        greyjoy BID 5
    """)
    assert c.g.threat == 0
    assert [c.power_of(h) for h in ("baratheon", "lannister", "stark", "greyjoy")] == [1, 1, 1, 0]
    assert c.g.phase == Phase.PLANNING


def test_sr2020_10_wildlings_win_threat_drops_by_four() -> None:
    """Threat 8 → 12 → attack. Bids L1 G0 S1 B2 = 4 < 12: the wildlings win (lowest Greyjoy;
    Silence at the Wall does nothing). [changed] The 2020 test left the threat at 10; current
    rules lower it by 4 after a wildling victory: 8."""
    c = _wildlings(8, "silence_at_the_wall")
    c.play("""
        baratheon BID 2
        lannister BID 1
        stark BID 1
        greyjoy BID 0
    """)
    assert c.g.threat == 8


def test_the_wildling_track_reads_the_rules_table() -> None:
    """The rules table (from setup.json) says what a wildling victory takes off and what an icon
    adds: the same attack as above with 6 taken off leaves the threat at 6; with 1 per icon the
    three icons take 8 to 11, below the top, and nobody is asked to bid."""
    c = _wildlings(8, "silence_at_the_wall")
    c.rules = c.rules.copy()
    c.t = c.rules[0]
    c.t.threat_drop = 6
    c.play("""
        baratheon BID 2
        lannister BID 1
        stark BID 1
        greyjoy BID 0
    """)
    assert c.g.threat == 6
    c = _wildlings(8, "silence_at_the_wall")
    c.rules = c.rules.copy()
    c.t = c.rules[0]
    c.t.threat_step = 1
    c.play()
    assert c.g.threat == 11
    assert c.g.phase == Phase.PLANNING


def test_sr2020_11_lowest_bidder_tie_is_moot_for_silence() -> None:
    """Threat 8 → 12; Iron Throne Greyjoy, Stark, Baratheon, Lannister; bids L0 G0 S1 B1: the
    wildlings win with Lannister and Greyjoy tied lowest. [changed] In 2020 Greyjoy (Iron
    Throne) was asked to pick; with Silence at the Wall the choice changes nothing and the
    engine does not ask (westeros.py rules readings). Threat 8 (2020: 10)."""
    c = _wildlings(8, "silence_at_the_wall", "greyjoy stark baratheon lannister")
    c.play("""
        greyjoy BID 0
        stark BID 1
        baratheon BID 1
        lannister BID 0
    """)
    assert c.asked("TIE_ORDER") == []
    assert c.g.threat == 8


def test_sr2020_11b_lowest_bidder_tie_picked_by_the_iron_throne() -> None:
    """The same bids with Skinchanger Scout, where the choice matters: Greyjoy, holding the Iron
    Throne, picks between Lannister and itself and names Lannister, who loses all its power; the
    other houses lose 2 each."""
    c = _wildlings(8, "skinchanger_scout", "greyjoy stark baratheon lannister")
    c.play("""
        greyjoy BID 0
        stark BID 1
        baratheon BID 1
        lannister BID 0
    """)
    c.expect("greyjoy TIE_ORDER")
    assert c.options() == {"lannister", "greyjoy"}
    c.play("greyjoy TIE_ORDER lannister")
    assert [c.power_of(h) for h in ("lannister", "greyjoy", "stark", "baratheon")] == [0, 3, 2, 2]
    assert c.g.threat == 8


def test_sr2020_12_crow_killers_wildlings_win() -> None:
    """Threat 10 → 12; Iron Throne Lannister, Stark, Baratheon, Greyjoy. The Reach: Greyjoy 2
    footmen + knight; King's Landing: Stark knight; Blackwater Bay: Lannister ship; Blackwater:
    Greyjoy knight; Dragonstone: Lannister footman. Bids L0 S1 B1 G2: the wildlings win, lowest
    Lannister (no knights: nothing). Everyone else swaps 2 knights for footmen: Stark its one,
    Baratheon none, Greyjoy both — nothing to choose, so nothing is asked."""
    c = _wildlings(10, "crow_killers", "lannister stark baratheon greyjoy")
    c.place("""
        the_reach       greyjoy 2F K
        kings_landing   stark K
        blackwater_bay  lannister S
        blackwater      greyjoy K
        dragonstone     lannister F
    """)
    c.play("""
        lannister BID 0
        stark BID 1
        baratheon BID 1
        greyjoy BID 2
    """)
    assert c.asked("CROW_KILLERS") == []
    assert c.at("the_reach") == "greyjoy 3F"
    assert c.at("blackwater") == "greyjoy F"
    assert c.at("kings_landing") == "stark F"
    assert c.at("dragonstone") == "lannister F"
    assert c.g.threat == 8


def test_sr2020_13_crow_killers_nights_watch_wins() -> None:
    """Threat 10 → 12. Baratheon: The Reach 2 footmen + knight, Dragonstone 1 footman (Stark
    knight in King's Landing, Lannister ship in Blackwater Bay and footman in Blackwater). Bids
    L3 S3 B4 G3 = 13 ≥ 12: highest Baratheon upgrades up to 2 footmen, one in The Reach and the
    one in Dragonstone. Threat 0."""
    c = _wildlings(10, "crow_killers", "lannister stark baratheon greyjoy")
    c.place("""
        the_reach       baratheon 2F K
        dragonstone     baratheon F
        kings_landing   stark K
        blackwater_bay  lannister S
        blackwater      lannister F
    """)
    c.play("""
        lannister BID 3
        stark BID 3
        baratheon BID 4
        greyjoy BID 3
    """)
    c.expect("baratheon CROW_KILLERS")
    assert c.options() == {"the_reach", "dragonstone", "none"}
    c.play("""
        baratheon CROW_KILLERS the_reach
        baratheon CROW_KILLERS dragonstone
    """)
    assert c.at("the_reach") == "baratheon F 2K"
    assert c.at("dragonstone") == "baratheon K"
    assert c.g.threat == 0


def test_sr2020_14_preemptive_raid_wildlings_win() -> None:
    """Threat 10 → 12. Greyjoy: The Reach 2 footmen + knight, Blackwater Bay a ship; Stark: a
    footman in King's Landing. Bids L1 B2 G0 S3: lowest Greyjoy chooses to destroy 2 units (not
    to drop on its highest track): a footman in The Reach and the ship."""
    c = _wildlings(10, "preemptive_raid")
    c.place("""
        the_reach       greyjoy 2F K
        blackwater_bay  greyjoy S
        kings_landing   stark F
    """)
    c.play("""
        baratheon BID 2
        lannister BID 1
        stark BID 3
        greyjoy BID 0
        greyjoy WILDLING_CHOICE 0
        greyjoy DESTROY_UNIT the_reach
        greyjoy DESTROY_UNIT_TYPE F
        greyjoy DESTROY_UNIT blackwater_bay
    """)
    assert c.at("the_reach") == "greyjoy F K"
    assert c.at("blackwater_bay") == ""
    assert c.at("kings_landing") == "stark F"
    assert c.g.threat == 8


def test_sr2020_15_preemptive_raid_nights_watch_wins() -> None:
    """Threat 10 → 12. Bids L4 B3 G3 S5 = 15: the Night's Watch wins, highest Stark. A new
    attack of strength 6 starts at once without Stark: only Baratheon, Lannister and Greyjoy
    bid (1 each, wildlings win; the next card, Silence at the Wall, does nothing). Threat 0."""
    c = _wildlings(10, "preemptive_raid").wildlings("preemptive_raid", "silence_at_the_wall")
    c.play("""
        baratheon BID 3
        lannister BID 4
        stark BID 5
        greyjoy BID 3
    """)
    c.expect("baratheon BID")
    assert int(c.g.ctx[1]) == 6
    c.play("""
        baratheon BID 1
        lannister BID 1
        greyjoy BID 1
    """)
    bidders = [line.split()[0] for line in c.asked("BID")]
    assert bidders[4:] == ["baratheon", "lannister", "greyjoy"]
    assert [c.power_of(h) for h in ("baratheon", "lannister", "stark", "greyjoy")] == [1, 0, 0, 1]
    assert c.g.threat == 0
    assert c.g.phase == Phase.PLANNING


# =================================================================================================
# 5. Consolidate power
# =================================================================================================


def consolidate() -> Case:
    return Case().phase("consolidate")


def test_consolidate_land_gives_one_plus_crowns() -> None:
    """Stark consolidates in Winterfell (1 crown: +2) and The Stony Shore (no crown: +1): power
    5 → 8; both orders are spent (B4)."""
    c = consolidate().place("""
        winterfell       stark F consolidate_power
        the_stony_shore  stark F consolidate_power
    """)
    c.play()
    assert c.power_of("stark") == 8
    assert c.order_at("winterfell") is None and c.order_at("the_stony_shore") is None
    assert c.g.phase == Phase.CLEANUP


def test_consolidate_port_gives_one_unless_enemy_ships_in_its_sea() -> None:
    """Lannister consolidates with a ship in the Port of Lannisport (+1). Greyjoy consolidates
    in the Port of Pyke while a Lannister ship sits in Ironman's Bay, its sea: nothing."""
    c = consolidate().place("""
        port_of_lannisport  lannister S consolidate_power
        port_of_pyke        greyjoy S consolidate_power
        ironmans_bay        lannister S
    """)
    c.play()
    assert c.power_of("lannister") == 6
    assert c.power_of("greyjoy") == 5


def test_consolidate_at_sea_gives_nothing() -> None:
    """A consolidate power order on Lannister ships in the Golden Sound brings nothing."""
    c = consolidate().place("the_golden_sound lannister S consolidate_power")
    c.play()
    assert c.power_of("lannister") == 5
    assert c.order_at("the_golden_sound") is None


def test_consolidate_power_is_capped_at_twenty_tokens() -> None:
    """Stark has 18 power in hand and a power token in Karhold (19 of 20): consolidating in
    Winterfell (+2) gives it only 1 (B9)."""
    c = consolidate().place("winterfell stark F consolidate_power").power(stark=18)
    c.token("karhold", "stark")
    c.play()
    assert c.power_of("stark") == 19


def test_consolidate_star_order_may_muster_instead() -> None:
    """Stark's star consolidate power order in Winterfell (a stronghold: 2 mustering points)
    offers a choice; Stark musters instead of taking power: 2 footmen (army of 3, within supply
    1), then the points are spent. Power stays 5."""
    c = consolidate().place("winterfell stark F consolidate_power*").supply(stark=1)
    c.expect("stark CONSOLIDATE_CHOICE")
    assert c.options() == {"power", "muster"}
    c.play("""
        stark CONSOLIDATE_CHOICE muster
        stark MUSTER footman
        stark MUSTER footman
    """)
    assert c.at("winterfell") == "stark 3F"
    assert c.power_of("stark") == 5
    assert c.order_at("winterfell") is None
    assert c.g.phase == Phase.CLEANUP


def test_consolidate_star_order_may_take_the_power() -> None:
    """The same order taken as power: +2 (1 + Winterfell's crown), nothing mustered."""
    c = consolidate().place("winterfell stark F consolidate_power*")
    c.play("stark CONSOLIDATE_CHOICE power")
    assert c.power_of("stark") == 7
    assert c.at("winterfell") == "stark F"


def test_consolidate_star_order_outside_a_castle_just_gains_power() -> None:
    """In Karhold (no castle, 1 crown) the star order offers no muster: +2 power, unasked."""
    c = consolidate().place("karhold stark F consolidate_power*")
    c.play()
    assert c.asked("CONSOLIDATE_CHOICE") == []
    assert c.power_of("stark") == 7


# =================================================================================================
# 6. Victory after round 10
# =================================================================================================


def round_ten_cleanup() -> Case:
    """The clean-up of round 10; the empty board leaves each house its home (1 castle, 1 land
    area)."""
    return Case().phase("cleanup", game_round=10)


def end(c: Case) -> str:
    c.advance(through=True)
    assert c.g.done == 1 and c.g.end_reason == EndReason.ROUND10
    assert c.g.phase == Phase.GAME_OVER
    return House(int(c.g.winner)).id


def test_victory_not_before_round_ten() -> None:
    """Round 9's clean-up goes on to round 10's Westeros phase."""
    c = Case().phase("cleanup", game_round=9)
    c.advance()
    assert c.g.done == 0 and c.g.game_round == 10 and c.g.phase == Phase.WESTEROS


def test_victory_round_ten_most_castles() -> None:
    """Greyjoy controls 3 castles and strongholds (Pyke, Seagard, Flint's Finger) and 3 land
    areas; Lannister 2 castles (Lannisport, Riverrun) but 5 land areas (with Stoney Sept,
    Blackwater, the Searoad Marches): castles come first, Greyjoy wins."""
    c = round_ten_cleanup().place("""
        seagard        greyjoy F
        flints_finger  greyjoy F
        riverrun       lannister F
        stoney_sept    lannister F
        blackwater     lannister F
        searoad_marches lannister F
    """)
    assert castles_held(c.g, c.t, int(House.GREYJOY)) == 3
    assert end(c) == "greyjoy"


def test_victory_round_ten_tie_on_castles_goes_to_land_areas() -> None:
    """Lannister and Stark both hold 2 castles; Stark holds 4 land areas (Winterfell, Moat
    Cailin, Karhold, Castle Black) against Lannister's 3 (Lannisport, Riverrun, Stoney Sept):
    Stark wins."""
    c = round_ten_cleanup().place("""
        riverrun      lannister F
        stoney_sept   lannister F
        moat_cailin   stark F
        karhold       stark F
        castle_black  stark F
    """)
    assert end(c) == "stark"


def test_victory_round_ten_then_supply() -> None:
    """Castles (2) and land areas (3) tied: Lannister's supply 3 beats Stark's 2."""
    c = round_ten_cleanup().place("""
        riverrun     lannister F
        stoney_sept  lannister F
        moat_cailin  stark F
        karhold      stark F
    """)
    c.supply(lannister=3, stark=2)
    assert end(c) == "lannister"


def test_victory_round_ten_then_the_iron_throne() -> None:
    """Castles, land areas and supply (2) tied: the house higher on the Iron Throne wins — Stark
    here, placed above Lannister."""
    c = round_ten_cleanup().place("""
        riverrun     lannister F
        stoney_sept  lannister F
        moat_cailin  stark F
        karhold      stark F
    """)
    c.supply(lannister=2, stark=2)
    c.track("iron_throne", "baratheon stark lannister martell greyjoy tyrell")
    assert end(c) == "stark"
    c2 = round_ten_cleanup().place("""
        riverrun     lannister F
        stoney_sept  lannister F
        moat_cailin  stark F
        karhold      stark F
    """)
    c2.supply(lannister=2, stark=2)
    assert end(c2) == "lannister"  # setup order: Lannister 2nd, Stark 3rd
