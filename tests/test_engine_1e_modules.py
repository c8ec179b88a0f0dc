"""The engine casebook of the A Clash of Kings modules as 1st-edition variants (rules digest
§2.2–2.7; decisions cited as D… in ``docs/rules.md``). Each case fails without its module.

Unless a case says otherwise it is a 5-player 1st-edition game in round 1 with the setup's
tracks (Iron Throne: Baratheon, Lannister, Stark, Tyrell, Greyjoy), power 5 each, full hands, the
three neutral forces and nothing else on the board.
"""

from __future__ import annotations

import numpy as np
import pytest
from combatcase import make_spec, side, support
from enginecase import Case

from gotsim import combat_odds
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.tables import WesterosCard, rules_table
from gotsim.odds.spec import BattleSpecError
from gotsim.play.runner import play_random
from gotsim.play.simulate import play_games

FORTS = {"fortifications": True}


def case(phase: str = "marches", variants: dict[str, bool] | None = None) -> Case:
    return Case(5, edition="1e", variants=FORTS if variants is None else variants).phase(phase)


# =================================================================================================
# §2.2 Fortifications
# =================================================================================================


def test_fortifications_build_instead_of_taking_power() -> None:
    """§2.2: a consolidate power order on land may build a fortification instead of taking
    power; the house then gets no power there, however many crowns the area shows."""
    c = case("consolidate").place("lannisport lannister F consolidate_power")
    c.advance()
    assert c.pending == "lannister CONSOLIDATE_CHOICE"
    assert c.options() == {"power", "fortify"}
    c.play("lannister CONSOLIDATE_CHOICE fortify")
    assert c.fortified("lannisport") == "lannister"
    assert c.power_of("lannister") == 5
    assert c.order_at("lannisport") is None


def test_fortifications_taking_power_builds_nothing() -> None:
    """§2.2: the choice is the player's; taking power leaves the area unfortified."""
    c = case("consolidate").place("lannisport lannister F consolidate_power*")
    c.play("lannister CONSOLIDATE_CHOICE power")
    assert c.fortified("lannisport") is None
    assert c.power_of("lannister") == 6


def test_fortifications_are_not_offered_without_the_variant() -> None:
    """The base game has no fortifications: the same order simply gives its power."""
    c = case("consolidate", variants={}).place("lannisport lannister F consolidate_power")
    c.play()
    assert c.pending is None and c.power_of("lannister") == 6


def test_fortifications_nine_tokens_then_power_only() -> None:
    """§2.2: there are 9 tokens, shared by all houses; with all 9 on the board a consolidate
    order gives power without asking, and an area already fortified is not fortified again."""
    c = case("consolidate").place("""
        lannisport  lannister F consolidate_power
        winterfell  stark     F consolidate_power
    """)
    others = "harrenhal riverrun seagard the_reach storms_end dragonstone highgarden the_twins"
    for name in others.split():
        c.place(f"{name} baratheon F").fortify(name, "baratheon")
    c.fortify("winterfell", "stark")
    c.play()
    assert c.pending is None
    assert c.power_of("lannister") == 6 and c.fortified("lannisport") is None
    assert c.power_of("stark") == 5 + 1 + int(c.t.crowns[c._area("winterfell")])


def test_fortifications_defender_plus_one_attacking_knights_count_one() -> None:
    """§2.2: the defender of a fortified area gets +1; the attacker's knights, fighting or
    supporting the attack, count 1 instead of 2. Knight 1 + supporting knight 1 + Tywin 3 = 5
    against footman 1 + fortification 1 + Mace 3 = 5 (without the fortification 7 against 4)."""
    c = case().place("""
        searoad_marches lannister K march+0
        blackwater      lannister K support+0
        the_reach       tyrell    F
    """)
    c.fortify("the_reach", "tyrell")
    c.play("""
        lannister MARCH_FROM searoad_marches
        lannister MARCH_UNIT K the_reach
        lannister HOUSE_CARD tywin_lannister
        tyrell    HOUSE_CARD mace_tyrell
    """)
    assert c.totals() == (1 + 1 + 3, 1 + 1 + 3)


def test_fortifications_an_unfortified_area_counts_knights_as_two() -> None:
    """The same battle without the token: knights count 2 and the defender has no +1."""
    c = case().place("""
        searoad_marches lannister K march+0
        blackwater      lannister K support+0
        the_reach       tyrell    F
    """)
    c.play("""
        lannister MARCH_FROM searoad_marches
        lannister MARCH_UNIT K the_reach
        lannister HOUSE_CARD tywin_lannister
        tyrell    HOUSE_CARD mace_tyrell
    """)
    assert c.totals() == (2 + 2 + 3, 1 + 3)


def test_fortifications_defending_knights_keep_their_two() -> None:
    """§2.2: the defender's knights and knights supporting the defender are unaffected:
    knight 2 + supporting knight 2 + fortification 1 + Mace 3 = 8."""
    c = case().place("""
        searoad_marches lannister F march+0
        the_reach       tyrell    K
        highgarden      tyrell    K support+0
    """)
    c.fortify("the_reach", "tyrell")
    c.play("""
        lannister MARCH_FROM searoad_marches
        lannister MARCH_UNIT F the_reach
        lannister HOUSE_CARD tywin_lannister
        tyrell    HOUSE_CARD mace_tyrell
    """)
    assert c.totals() == (1 + 3, 2 + 2 + 1 + 3)


def test_fortifications_leave_with_the_last_unit() -> None:
    """§2.2: the token goes at once when a march empties the area."""
    c = case().place("the_reach tyrell F march+0").fortify("the_reach", "tyrell")
    c.play("""
        tyrell MARCH_FROM the_reach
        tyrell MARCH_UNIT F dornish_marches
    """)
    assert c.fortified("the_reach") is None


def test_fortifications_stay_while_units_remain() -> None:
    """A march that leaves units behind keeps the fortification."""
    c = case().place("the_reach tyrell 2F march+0").fortify("the_reach", "tyrell")
    c.play("""
        tyrell MARCH_FROM the_reach
        tyrell MARCH_UNIT F dornish_marches
        tyrell MARCH_UNIT F stay
    """)
    assert c.fortified("the_reach") == "tyrell"


def test_fortifications_a_conqueror_does_not_inherit_them() -> None:
    """§2.2 "nobody can use another player's fort": 2 knights (1 each) + Tywin 3 = 5 beat 2
    footmen + 1 + Margaery 1 = 4; one footman dies, the other retreats, the token goes with
    it and the conqueror stands in an unfortified area."""
    c = case().place("""
        searoad_marches lannister 2K march+0
        the_reach       tyrell    2F
    """)
    c.fortify("the_reach", "tyrell")
    c.play("""
        lannister MARCH_FROM searoad_marches
        lannister MARCH_UNIT K the_reach
        lannister MARCH_UNIT K the_reach
        lannister HOUSE_CARD tywin_lannister
        tyrell    HOUSE_CARD margaery_tyrell
        tyrell    CASUALTY F
        tyrell    RETREAT highgarden
    """)
    assert c.controller("the_reach") == "lannister"
    assert c.at("highgarden") == "tyrell F"
    assert c.fortified("the_reach") is None


def test_fortifications_refused_in_the_second_edition() -> None:
    """The 2nd edition has no fortification tokens: the flag is refused in one line."""
    with pytest.raises(ValueError, match="fortifications is a 1st-edition"):
        rules_table("2e", 6, {"fortifications": True})
    with pytest.raises(ValueError, match="fortifications"):
        play_games(1, players=6, variants=FORTS)


def test_fortifications_in_the_odds_calculator() -> None:
    """A 1e battle spec takes ``fortification: true``: Lannister's knight (1) supported by a
    knight (1) with Tywin (3) = 5 against Tyrell's footman (1) + fortification (1) + Mace (3) = 5;
    Tyrell wins the tie on Fiefdoms. Without the token Lannister wins 7 to 4. The token is
    refused in a 2e battle and at sea."""
    spec = make_spec(
        "the_reach",
        side("lannister", {"knight": 1}, "tywin_lannister"),
        side("tyrell", {"footman": 1}, "mace_tyrell"),
        fiefdoms=["tyrell", "lannister"],
        supports=(support("lannister", "attacker", {"knight": 1}),),
        edition="1e",
        fortification=True,
    )
    assert combat_odds(spec, model="fixed").p_attacker_wins == 0.0
    assert combat_odds({**spec, "fortification": False}, model="fixed").p_attacker_wins == 1.0
    with pytest.raises(BattleSpecError, match="fortification"):
        combat_odds({**spec, "edition": "2e"}, model="fixed")
    with pytest.raises(BattleSpecError, match="fortification"):
        combat_odds({**spec, "area": "sunset_sea"}, model="fixed")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_fortifications_random_games_keep_every_invariant(players: int) -> None:
    """Random 1e games with fortifications: every invariant holds (at most 9 tokens, on land,
    each in an area its builder holds once the marches are over)."""
    rules = rules_table("1e", players, {"fortifications": True})
    seeds = [np.random.SeedSequence(11, spawn_key=(players, i)) for i in range(40)]
    games = new_games(seeds, edition="1e", players=players)
    play_random(games, rules, 1_000_000)
    assert (games.done == 1).all()
    for g in games:
        assert violations(g, rules[0]) == []


# =================================================================================================
# §2.3 Siege engines
# =================================================================================================

SIEGE = {"siege_engines": True}


def _mustering(variants: dict[str, bool]) -> Case:
    """Round 2's Westeros phase with Mustering; Lannister holds Lannisport (2 points) and the
    houses before it on the Iron Throne muster nothing."""
    c = Case(5, edition="1e", variants=variants).phase("westeros", 2)
    c.westeros("mustering", "last_days_of_summer", "rains_of_autumn")
    c.place("lannisport lannister F")
    c.advance()
    while c.pending != "lannister MUSTER":
        c.play(f"{c.pending} none")
    return c


def test_siege_engines_muster_for_two_points() -> None:
    """§2.3 and K6: with the module a house has 3 siege engines and musters one for 2 points
    (a stronghold's two; the cost is not in [J], 2 as in 2e); without it none is offered."""
    c = _mustering(SIEGE)
    assert {"siege", "upgrade_siege"} <= c.options()
    c.play("lannister MUSTER siege")
    assert c.at("lannisport") == "lannister F E"
    base = _mustering({})
    assert "siege" not in base.options() and "upgrade_siege" not in base.options()


def test_siege_engines_four_against_a_castle_supporting_too() -> None:
    """§2.3: a siege engine attacking, or supporting an attack on, a castle (The Reach) counts
    4: engine 4 + supporting engine 4 + Tywin 3 = 11 against footman 1 + Mace 3 = 4."""
    c = case(variants=SIEGE).place("""
        searoad_marches lannister E march+0
        blackwater      lannister E support+0
        the_reach       tyrell    F
    """)
    c.play("""
        lannister MARCH_FROM searoad_marches
        lannister MARCH_UNIT E the_reach
        lannister HOUSE_CARD tywin_lannister
        tyrell    HOUSE_CARD mace_tyrell
    """)
    assert c.totals() == (4 + 4 + 3, 1 + 3)


def test_siege_engines_nothing_against_open_ground_or_defending() -> None:
    """§2.3: 0 in every other case: attacking Stoney Sept (no castle) the engine adds nothing,
    and a defending or defence-supporting engine adds nothing either."""
    c = case(variants=SIEGE).place("""
        lannisport   lannister E F march+0
        stoney_sept  stark     E F
        harrenhal    stark     E support+0
    """)
    c.play("""
        lannister MARCH_FROM lannisport
        lannister MARCH_UNIT F stoney_sept
        lannister MARCH_UNIT E stoney_sept
        lannister HOUSE_CARD tywin_lannister
        stark     HOUSE_CARD eddard_stark
    """)
    assert c.totals() == (1 + 3, 1 + 3)


def test_siege_engines_and_a_fortification() -> None:
    """§2.3: a fortified area counts like a castle for siege engines (with both modules):
    attacking Stoney Sept, fortified by Stark, the engine counts 4."""
    c = case(variants={**SIEGE, **FORTS}).place("""
        lannisport   lannister E march+0
        stoney_sept  stark     F
    """)
    c.fortify("stoney_sept", "stark")
    c.play("""
        lannister MARCH_FROM lannisport
        lannister MARCH_UNIT E stoney_sept
        lannister HOUSE_CARD tywin_lannister
        stark     HOUSE_CARD eddard_stark
    """)
    assert c.totals()[0] == 4 + 3


def test_siege_engines_are_never_casualties_and_cannot_retreat() -> None:
    """§2.3: Stark loses at Stoney Sept with 2 footmen and an engine; Tywin's 2 swords against
    the Mormont lord's 0 fortifications: both casualties must be footmen (the engine is never
    offered), and the engine, unable to retreat, is destroyed when Stark would retreat."""
    c = case(variants=SIEGE).place("""
        lannisport   lannister 2K F march+0
        stoney_sept  stark     2F E
    """)
    c.play("""
        lannister MARCH_FROM lannisport
        lannister MARCH_UNIT F stoney_sept
        lannister MARCH_UNIT K stoney_sept
        lannister MARCH_UNIT K stoney_sept
        lannister HOUSE_CARD tywin_lannister
        stark     HOUSE_CARD house_mormont_lord
    """)
    assert c.pending == "stark CASUALTY"
    assert c.options() == {"F"}
    c.play("""
        stark CASUALTY F
        stark CASUALTY F
    """)
    assert c.count("stark", "E") == 0
    assert c.controller("stoney_sept") == "lannister"


def test_siege_engines_take_no_ship_transport() -> None:
    """§2.3: siege engines never move by sea: from Riverrun, with a Lannister ship in the
    Golden Sound, the footman may sail to the Searoad Marches, the engine may not."""
    c = case(variants=SIEGE).place("""
        riverrun         lannister F E march+0
        the_golden_sound lannister S
    """)
    c.play("lannister MARCH_FROM riverrun")
    assert c.pending == "lannister MARCH_UNIT"
    assert "searoad_marches" in c.options()
    c.play("lannister MARCH_UNIT F stay")
    assert "searoad_marches" not in c.options() and "stoney_sept" in c.options()


def test_siege_engines_refused_in_the_second_edition() -> None:
    """The 2nd edition has siege engines in its base game: the switch is refused there."""
    with pytest.raises(ValueError, match="siege_engines is a 1st-edition"):
        rules_table("2e", 6, {"siege_engines": True})


@pytest.mark.parametrize("players", [3, 4, 5])
def test_siege_engines_random_games_keep_every_invariant(players: int) -> None:
    """Random 1e games with siege engines (and fortifications): every invariant holds, and
    siege engines are mustered."""
    rules = rules_table("1e", players, {"fortifications": True, "siege_engines": True})
    seeds = [np.random.SeedSequence(12, spawn_key=(players, i)) for i in range(40)]
    games = new_games(seeds, edition="1e", players=players)
    play_random(games, rules, 1_000_000)
    assert (games.done == 1).all()
    assert games.units[:, :, 3].sum() > 0
    for g in games:
        assert violations(g, rules[0]) == []


# =================================================================================================
# §2.6 Westeros look-ahead
# =================================================================================================

LOOK = {"westeros_lookahead": True}


def _westeros_round_two(variants: dict[str, bool], seed: int, *tops: str) -> Case:
    """Round 2's Westeros phase with ``tops[d]`` swapped up to the top of deck ``d``."""
    c = Case(5, edition="1e", variants=variants, seed=seed).phase("westeros", 2)
    for d, name in enumerate(tops):
        deck = c.g.westeros[d]
        i = int(np.flatnonzero(deck == WesterosCard[name.upper()])[0])
        deck[[0, i]] = deck[[i, 0]]
        c.g.westeros_next[d] = 0
    return c


def test_westeros_lookahead_winter_keeps_the_two_face_up_cards() -> None:
    """§2.6: when Winter Is Coming is resolved the deck is shuffled *without* the two revealed
    cards: a replacement comes from the other eight, and the two face-up cards stay next, in
    order. (Without the module the whole deck is shuffled and they move.)"""
    for seed in range(20):
        c = _westeros_round_two(LOOK, seed, "winter_is_coming")
        up = c.g.westeros[0, 1:3].tolist()
        cards = sorted(c.g.westeros[0].tolist())
        c.advance()
        g = c.g
        assert g.westeros_drawn[0] != WesterosCard.WINTER_IS_COMING
        assert g.westeros_drawn[0] == g.westeros[0, g.westeros_next[0] - 1]
        assert g.westeros[0, g.westeros_next[0] : g.westeros_next[0] + 2].tolist() == up
        assert sorted(g.westeros[0].tolist()) == cards
        assert g.history[1, 10] >= 1  # Winter Is Coming drawn from deck I (twice if redrawn)


def test_westeros_lookahead_resolved_cards_go_under_the_deck() -> None:
    """§2.6: each resolved card goes under its deck, so a deck is never reshuffled once spent:
    after all ten cards the first comes round again (without the module: a whole reshuffle)."""
    c = _westeros_round_two(LOOK, 0, "last_days_of_summer", "last_days_of_summer")
    c.g.westeros_next[:2] = 10
    before = c.g.westeros[:2].copy()
    c.advance()
    assert (c.g.westeros[:2] == before).all()
    assert c.g.westeros_drawn[:2].tolist() == [int(before[0, 0]), int(before[1, 0])]


def test_westeros_lookahead_refused_in_the_second_edition() -> None:
    with pytest.raises(ValueError, match="westeros_lookahead is a 1st-edition"):
        rules_table("2e", 6, {"westeros_lookahead": True})


@pytest.mark.parametrize("players", [3, 4, 5])
def test_westeros_lookahead_random_games_keep_every_invariant(players: int) -> None:
    """Random 1e games with the look-ahead (and the other modules): every invariant holds and
    each deck still holds its ten cards."""
    rules = rules_table(
        "1e", players, {"fortifications": True, "siege_engines": True, "westeros_lookahead": True}
    )
    seeds = [np.random.SeedSequence(13, spawn_key=(players, i)) for i in range(40)]
    games = new_games(seeds, edition="1e", players=players)
    play_random(games, rules, 1_000_000)
    assert (games.done == 1).all()
    for g in games:
        assert violations(g, rules[0]) == []
        for d in range(3):
            assert sorted(g.westeros[d]) == sorted(rules[0].westeros_start[d])
