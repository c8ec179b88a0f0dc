"""A casebook of House Arryn's A Feast for Crows house cards (Arryn plays them in every
2nd-edition game, whatever the other houses' set), one case per card, in the style of
``test_adwd_casebook.py``: the odds calculator (``model="fixed"``) first, then the engine
(decisions answered in words), then the deck data and the ``gotsim cards --set affc`` listing.

Rules decisions are in ``docs/rules.md`` (F2). The engine cases are 6-player games in round 1
where Arryn takes Greyjoy's seat (its places on the tracks: Fiefdoms first, Iron Throne fifth),
with power 5 each and full hands; the rules record gives Arryn Greyjoy's pieces and power
tokens and, unless a case says otherwise, The Eyrie as its home area.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from combatcase import check, make_spec, side
from enginecase import Case, seated_for_greyjoy

from gotsim.engine import combat as cb
from gotsim.engine.invariants import violations
from gotsim.engine.state import ACT_NONE
from gotsim.odds import BattleSpecError, combat_odds
from gotsim.play.simulate import play_batch
from gotsim.players import fighting
from gotsim.rules.cards import (
    Ability,
    card_table,
    game_cards,
    house_cards,
    house_deck,
    implemented_in,
)
from gotsim.rules.ids import House

ARRYN = int(House.ARRYN)
GREYJOY = int(House.GREYJOY)
DECK = [c.id for c in house_deck("2e", House.ARRYN)]


def fight(*args: Any, **kwargs: Any):
    return combat_odds(make_spec(*args, **kwargs), model="fixed")


# =================================================================================================
# 1. The calculator (the combat code the engine shares)
# =================================================================================================


@pytest.mark.parametrize(("power", "bonus"), [(6, 1), (5, 0), (2, 0)])
def test_affc_bronze_yohn_royce_more_power_than_the_opponent(power: int, bonus: int):
    """Bronze Yohn Royce (4) gains +1 when Arryn has more power tokens in hand than its
    opponent: 6 against Stark's 5 gives 1 + 4 + 1 = 6; 5 against 5 (or fewer) gives 5."""
    r = fight(
        "the_twins",
        side("arryn", {"footman": 1}, "bronze_yohn_royce_ffc", power=power),
        side("stark", {"footman": 1}, "greatjon_umber", power=5),
        fiefdoms=["stark", "arryn"],
    )
    check(r, "attacker", units=1, card=4, card_modifiers=bonus, total=5 + bonus)


def test_affc_plain_cards_strength_and_icons():
    """Nestor Royce (2, two forts), Lyn Corbray (2, a sword), Lothor Brune (1, a sword and a
    fort): plain numbers. Lyn Corbray's sword kills one of two Stark footmen beaten by 1 + 2 =
    3 against 2 + 0 (Catelyn attacking); Nestor's forts stop Eddard Stark's two swords."""
    r = fight(
        "the_twins",
        side("arryn", {"footman": 1}, "lyn_corbray"),
        side("stark", {"footman": 2}, "catelyn_stark"),
        fiefdoms=["stark", "arryn"],
    )
    check(r, "attacker", card=2, swords=1, fortifications=0, total=3)
    assert r.p_attacker_wins == 1.0
    assert r.casualties["defender"]["expected_destroyed"]["footman"] == 1.0
    r = fight(
        "the_twins",
        side("stark", {"footman": 1}, "eddard_stark"),
        side("arryn", {"footman": 2}, "nestor_royce"),
        fiefdoms=["stark", "arryn"],
    )
    check(r, "defender", card=2, swords=0, fortifications=2, total=4)
    assert r.p_attacker_wins == 1.0
    assert r.casualties["defender"]["expected_destroyed"]["footman"] == 0.0
    r = fight(
        "the_twins",
        side("arryn", {"footman": 1}, "lothor_brune"),
        side("stark", {"footman": 1}, "catelyn_stark"),
        fiefdoms=["stark", "arryn"],
    )
    check(r, "attacker", card=1, swords=1, fortifications=1, total=2)


def test_affc_littlefinger_twice_the_opponents_printed_strength():
    """Littlefinger (3): after the combat, if Arryn holds The Eyrie, it takes power equal to
    twice the printed strength of the opponent's card — won or lost. Defending The Eyrie (2
    footmen: 2 + 3 + castle-free strength) against Greatjon Umber (2) it wins and takes 4;
    beaten there (Eddard Stark and 2 knights) it loses The Eyrie and takes nothing. Elsewhere
    ``holds_home`` says: true (the default) 2 x 2 = 4, false nothing."""
    won = fight(
        "the_eyrie",
        side("stark", {"footman": 1}, "greatjon_umber"),
        side("arryn", {"footman": 2}, "littlefinger"),
        fiefdoms=["stark", "arryn"],
    )
    assert won.p_attacker_wins == 0.0 and won.power["defender"] == 4.0
    lost = fight(
        "the_eyrie",
        side("stark", {"knight": 2}, "eddard_stark"),
        side("arryn", {"footman": 1}, "littlefinger"),
        fiefdoms=["stark", "arryn"],
    )
    assert lost.p_attacker_wins == 1.0 and lost.power["defender"] == 0.0
    for held, gain in ((True, 4.0), (False, 0.0)):
        elsewhere = fight(
            "the_twins",
            side("arryn", {"footman": 1}, "littlefinger", holds_home=held),
            side("stark", {"knight": 2}, "greatjon_umber"),
            fiefdoms=["stark", "arryn"],
        )
        assert elsewhere.p_attacker_wins == 0.0 and elsewhere.power["attacker"] == gain


@pytest.mark.parametrize(
    ("stark_power", "held", "arryn_gain", "stark_gain"),
    [(5, True, -2.0, -5.0), (2, True, 0.0, 0.0), (5, False, 0.0, 0.0)],
)
def test_affc_alayne_stone_pays_two_when_the_opponent_loses_more(
    stark_power: int, held: bool, arryn_gain: float, stark_gain: float
):
    """Alayne Stone (1): Arryn wins (2 footmen + 1 against a footman and Ser Rodrick: 2) and
    holds The Eyrie, so it may pay 2 power; Stark then discards every power token in hand. The
    calculator pays when Stark has 3 or more (it loses 5), not with 2, and never without The
    Eyrie."""
    r = fight(
        "the_twins",
        side("arryn", {"footman": 2}, "alayne_stone", power=5, holds_home=held),
        side("stark", {"footman": 1}, "ser_rodrick_cassel", power=stark_power),
        fiefdoms=["stark", "arryn"],
    )
    assert r.p_attacker_wins == 1.0
    assert r.power == {"attacker": arryn_gain, "defender": stark_gain}


def test_affc_alayne_stone_does_nothing_in_defeat():
    """Beaten, Alayne Stone asks nothing: no power changes hands."""
    r = fight(
        "the_twins",
        side("arryn", {"footman": 1}, "alayne_stone", power=5),
        side("stark", {"knight": 1}, "ser_rodrick_cassel", power=5),
        fiefdoms=["stark", "arryn"],
    )
    assert r.p_attacker_wins == 0.0
    assert r.power == {"attacker": 0.0, "defender": 0.0}


@pytest.mark.parametrize(("arryn_power", "gain"), [(2, 3.0), (5, 0.0), (6, 0.0)])
def test_affc_lysa_arryn_three_power_when_the_opponent_is_richer(arryn_power: int, gain: float):
    """Lysa Arryn (0): after the combat Arryn takes 3 power if Stark has more power tokens in
    hand (5 against 2), won or lost; with as many or more, nothing."""
    r = fight(
        "the_twins",
        side("arryn", {"footman": 1}, "lysa_arryn_ffc", power=arryn_power),
        side("stark", {"footman": 1}, "ser_rodrick_cassel", power=5),
        fiefdoms=["stark", "arryn"],
    )
    assert r.p_attacker_wins == 0.0
    assert r.power["attacker"] == gain


def test_affc_lysa_arryn_counts_tywins_power():
    """Lysa looks at the hands after the combat: Lannister (5) wins with Tywin Lannister and
    takes 2, so its 7 beat Arryn's 6 and Lysa takes 3 after all."""
    r = fight(
        "the_twins",
        side("arryn", {"footman": 1}, "lysa_arryn_ffc", power=6),
        side("lannister", {"footman": 1}, "tywin_lannister", power=5),
        fiefdoms=["lannister", "arryn"],
    )
    assert r.p_attacker_wins == 0.0
    assert r.power == {"attacker": 3.0, "defender": 2.0}


def test_affc_exact_and_sampled_odds_agree_with_yohn_royce():
    """Arryn's full hand (Bronze Yohn Royce among it, with more power than Stark) against
    Stark's, with Tides of Battle and the blade in play: the sampled odds (200,000 battles)
    agree with the exact ones within four standard errors; default tracks put Arryn last."""
    spec = make_spec(
        "the_twins",
        side("arryn", {"knight": 1, "footman": 1}, power=7),
        side("stark", {"footman": 2}, power=3),
        fiefdoms=None,
        tides_of_battle=True,
        blade_used=False,
    )
    exact = combat_odds(spec, model="uniform")
    sampled = combat_odds(spec, model="uniform", samples=200_000, seed=3)
    assert exact.exact and not sampled.exact
    assert abs(exact.p_attacker_wins - sampled.p_attacker_wins) < 4 * sampled.std_error
    assert 0.0 < exact.p_attacker_wins < 1.0


def test_affc_spec_refusals():
    """``holds_home`` is a true/false, and not given for a battle in the house's own home area
    (the battle decides it); the 1st edition has no Arryn cards."""
    with pytest.raises(BattleSpecError, match="holds_home"):
        fight(
            "the_twins",
            side("arryn", {"footman": 1}, "littlefinger", holds_home="yes"),
            side("stark", {"footman": 1}, "greatjon_umber"),
            fiefdoms=["stark", "arryn"],
        )
    with pytest.raises(BattleSpecError, match="whoever wins it holds it"):
        fight(
            "the_eyrie",
            side("stark", {"footman": 1}, "greatjon_umber"),
            side("arryn", {"footman": 1}, "littlefinger", holds_home=True),
            fiefdoms=["stark", "arryn"],
        )
    with pytest.raises(BattleSpecError, match="arryn is not a 1e house"):
        fight(
            "the_twins",
            side("arryn", {"footman": 1}),
            side("stark", {"footman": 1}),
            fiefdoms=["stark", "arryn"],
            edition="1e",
        )


# =================================================================================================
# 2. The engine
# =================================================================================================


def arryn_case(*, eyrie: bool = True, power: int = 5, adwd: bool = False) -> Case:
    """A 6-player record in the marches where Arryn plays in Greyjoy's place (see the module
    docstring), The Eyrie's neutral force gone; ``eyrie``: The Eyrie is Arryn's home area in the
    rules record; ``adwd``: the other houses play their A Dance with Dragons decks."""
    c = Case(6, variants={"adwd_house_cards": adwd}).phase("marches")
    c.rules = c.rules.copy()
    c.t = c.rules[0]
    t, g = c.t, c.g
    t.unit_limits[ARRYN] = t.unit_limits[GREYJOY]
    t.power_total[ARRYN] = t.power_total[GREYJOY]
    if eyrie:
        t.home[c.board.index("the_eyrie")] = ARRYN
    g.in_play[GREYJOY] = 0
    g.in_play[ARRYN] = 1
    g.garrison[c.board.index("pyke")] = 0
    g.neutral[c.board.index("the_eyrie")] = 0  # the base game's neutral force: Arryn's now
    g.hand[GREYJOY] = g.discard[GREYJOY] = 0
    g.power[GREYJOY] = 0
    g.track[g.track == GREYJOY] = ARRYN
    c.hand("arryn", *DECK, discard=())
    return c.power(arryn=power)


def attack_the_eyrie(c: Case, stark: str, arryn: str, stark_card: str, arryn_card: str) -> Case:
    """Stark marches a unit (``stark``: ``"F"`` or ``"K"``) from the Mountains of the Moon into
    The Eyrie, which Arryn's ``arryn`` units hold; both play their cards."""
    c.place(f"""
        the_mountains_of_the_moon  stark {stark} march+0
        the_eyrie                  arryn {arryn}
    """)
    return c.play(f"""
        stark MARCH_FROM the_mountains_of_the_moon
        stark MARCH_UNIT {stark} the_eyrie
        stark HOUSE_CARD {stark_card}
        arryn HOUSE_CARD {arryn_card}
    """)


@pytest.mark.parametrize(("power", "holds"), [(6, True), (5, False)])
def test_affc_engine_bronze_yohn_royce(power: int, holds: bool):
    """Stark (a knight, Eddard Stark: 6) attacks The Eyrie (a footman and Bronze Yohn Royce:
    1 + 4). With 6 power against Stark's 5 Yohn adds 1 and Arryn wins the 6 - 6 tie (first on
    Fiefdoms); with 5 it loses 5 - 6, Eddard's swords kill the footman and Stark takes The
    Eyrie."""
    c = attack_the_eyrie(arryn_case(power=power), "K", "F", "eddard_stark", "bronze_yohn_royce_ffc")
    if not holds:
        c.play("arryn CASUALTY F")  # Eddard's two swords
    assert c.at("the_eyrie") == ("arryn F" if holds else "stark K")


@pytest.mark.parametrize(("eyrie", "gain"), [(True, 4), (False, 0)])
def test_affc_engine_littlefinger_takes_twice_the_opponents_strength(eyrie: bool, gain: int):
    """Arryn (2 footmen, Littlefinger: 5) beats Stark (a footman, Greatjon Umber: 3) in The
    Eyrie and, holding its home area, takes 2 x 2 = 4 power (5 → 9). Where the rules record
    names no home area for Arryn (the base board), Littlefinger takes nothing."""
    c = attack_the_eyrie(arryn_case(eyrie=eyrie), "F", "2F", "greatjon_umber", "littlefinger")
    assert c.at("the_eyrie") == "arryn 2F"
    assert c.power_of("arryn") == 5 + gain and c.power_of("stark") == 5
    assert c.discard_of("arryn") == {"littlefinger"}


def test_affc_engine_littlefinger_beaten_in_the_eyrie_takes_nothing():
    """Beaten in The Eyrie (a footman and Littlefinger: 4 against a knight and Eddard Stark:
    6), Arryn loses its home area, so Littlefinger takes nothing."""
    c = attack_the_eyrie(arryn_case(), "K", "F", "eddard_stark", "littlefinger")
    c.play("arryn CASUALTY F")
    assert c.at("the_eyrie") == "stark K"
    assert c.power_of("arryn") == 5


def test_affc_engine_littlefinger_capped_by_the_power_pool():
    """Littlefinger's power comes from the pool: with 18 of its 20 tokens in hand Arryn takes
    only the 2 left."""
    c = arryn_case(power=18)
    c = attack_the_eyrie(c, "F", "2F", "greatjon_umber", "littlefinger")
    assert c.power_of("arryn") == 18 + min(4, int(c.t.power_total[ARRYN]) - 18)


@pytest.mark.parametrize("pay", [True, False])
def test_affc_engine_alayne_stone_may_pay_two(pay: bool):
    """Arryn (2 footmen, Alayne Stone: 3) wins the 3 - 3 tie against Stark (a footman,
    Greatjon Umber) in The Eyrie and may pay 2 power (5 → 3): Stark then discards all 5 of
    its own. Declined, nothing changes."""
    c = attack_the_eyrie(arryn_case(), "F", "2F", "greatjon_umber", "alayne_stone")
    assert c.pending == "arryn CARD_ABILITY"
    assert c.options() == {"1", "none"}
    c.play(f"arryn CARD_ABILITY {'1' if pay else 'none'}")
    assert c.power_of("arryn") == (3 if pay else 5)
    assert c.power_of("stark") == (0 if pay else 5)
    assert c.at("the_eyrie") == "arryn 2F"


def test_affc_engine_arryn_keeps_its_deck_beside_the_adwd_decks():
    """With the A Dance with Dragons decks Arryn still plays its own (card numbers 42-48 of the
    ADwD table): Alayne Stone (2 footmen: 3) wins the tie against Stark's footman and
    Steelshanks Walton and pays 2 power; Stark's 5 are gone."""
    c = arryn_case(adwd=True)
    assert [c.card_ids[n] for n in c.t.deck_card[ARRYN]] == DECK
    c = attack_the_eyrie(c, "F", "2F", "steelshanks_walton", "alayne_stone")
    c.play("arryn CARD_ABILITY 1")
    assert c.power_of("arryn") == 3 and c.power_of("stark") == 0
    assert c.discard_of("arryn") == {"alayne_stone"}


def test_affc_engine_alayne_stone_not_asked_without_power_or_home():
    """Alayne Stone asks nothing when Arryn has fewer than 2 power tokens, or does not hold its
    home area (no home area in the rules record, fighting elsewhere)."""
    for c in (arryn_case(power=1), arryn_case(eyrie=False)):
        c.place("""
            the_mountains_of_the_moon  stark F march+0
            the_eyrie                  arryn 2F
        """)
        c.play("""
            stark MARCH_FROM the_mountains_of_the_moon
            stark MARCH_UNIT F the_eyrie
            stark HOUSE_CARD greatjon_umber
            arryn HOUSE_CARD alayne_stone
        """)
        assert c.pending is None
        assert c.power_of("stark") == 5
        assert c.at("the_eyrie") == "arryn 2F"


@pytest.mark.parametrize(("power", "gain"), [(2, 3), (5, 0)])
def test_affc_engine_lysa_arryn_three_power_when_poorer(power: int, gain: int):
    """Arryn (3 footmen, Lysa Arryn: 3) wins the tie against Stark (a footman, Greatjon
    Umber) and, with 2 power tokens to Stark's 5, takes 3; with 5 to 5, none."""
    c = attack_the_eyrie(arryn_case(power=power), "F", "3F", "greatjon_umber", "lysa_arryn_ffc")
    assert c.at("the_eyrie") == "arryn 3F"
    assert c.power_of("arryn") == power + gain


def test_affc_heuristic_alayne_pays_when_the_opponent_is_rich():
    """The heuristic players' answer (``players.fighting.card_ability``): pay when the opponent
    holds ``ALAYNE_WORTH`` (3) or more power tokens, else decline."""
    for stark_power, want in ((5, 1), (2, ACT_NONE)):
        c = arryn_case()
        c.place("""
            the_mountains_of_the_moon  stark F march+0
            the_eyrie                  arryn 2F
        """)
        c.power(stark=stark_power)
        c.play("""
            stark MARCH_FROM the_mountains_of_the_moon
            stark MARCH_UNIT F the_eyrie
            stark HOUSE_CARD greatjon_umber
            arryn HOUSE_CARD alayne_stone
        """)
        assert c.pending == "arryn CARD_ABILITY"
        answer = getattr(fighting.card_ability, "py_func", fighting.card_ability)
        assert answer(c.g, c.t, ARRYN, c.mask(), None, None) == want


@pytest.mark.parametrize(("policies", "n"), [("random", 60), ("heuristic", 20)])
def test_affc_games_with_arryn_keep_every_invariant(policies: str, n: int):
    """Whole games with Arryn in Greyjoy's seat, random or heuristic players: every game ends,
    no invariant is broken, and Arryn fought battles with its cards."""
    games, rules = seated_for_greyjoy(ARRYN, n, 7)
    play_batch(games, rules, policies)
    assert (games.done == 1).all() and (games.winner >= 0).all()
    for g in games:
        assert violations(g, rules[0]) == []
        assert g.in_play[GREYJOY] == 0 and g.power[GREYJOY] == 0
    assert games.battles[:, ARRYN].sum() > 0
    assert (games.discard[:, ARRYN] != 0).any()


# =================================================================================================
# 3. Data and listing
# =================================================================================================


def test_affc_arryn_deck_follows_every_card_set():
    """Arryn's seven cards (4, 3, 2, 2, 1, 1, 0) are its deck with either set, numbered after
    the set's 42 cards in every card table (Targaryen's Mother of Dragons deck follows at
    49-55), so no other card changes number; the sets themselves list their own 42 cards."""
    assert [c.id for c in house_cards("2e", "affc")] == DECK
    assert [c.strength for c in house_deck("2e", House.ARRYN)] == [4, 3, 2, 2, 1, 1, 0]
    for card_set in ("base", "adwd"):
        assert len(house_cards("2e", card_set)) == 42
        assert [c.id for c in house_deck("2e", House.ARRYN, card_set)] == DECK
        table = card_table("2e", card_set)
        assert table.ids[:42] == tuple(c.id for c in house_cards("2e", card_set))
        assert table.ids[42:49] == tuple(DECK)
        assert len(game_cards("2e", card_set)) == 56
    assert house_deck("1e", House.ARRYN) == ()
    assert list(card_table("2e").ability[42:49]) == [
        Ability.BRONZE_YOHN_ROYCE_FFC,
        Ability.LITTLEFINGER,
        0,
        0,
        Ability.ALAYNE_STONE,
        0,
        Ability.LYSA_ARRYN_FFC,
    ]
    assert np.array_equal(card_table("2e").fortifications[42:49], [0, 0, 2, 0, 0, 1, 0])


def test_affc_cards_listing(capsys):
    """``gotsim cards --set affc`` lists Arryn's seven cards, abilities and where they are
    carried out; the base listing is unchanged (42 cards, no Arryn)."""
    from gotsim.cli import main

    assert main(["cards", "--set", "affc", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == DECK
    assert all(r["house"] == "arryn" for r in rows)
    assert {r["id"]: r["implemented_in"] for r in rows if r["effect"]} == {
        "bronze_yohn_royce_ffc": ["combat", "engine"],
        "littlefinger": ["combat", "engine"],
        "alayne_stone": ["combat", "engine"],
        "lysa_arryn_ffc": ["combat", "engine"],
    }
    assert implemented_in(None) == ["combat", "engine"]
    assert main(["cards", "--set", "affc"]) == 0
    assert "Littlefinger" in capsys.readouterr().out
    assert main(["cards", "--json"]) == 0
    base = json.loads(capsys.readouterr().out)
    assert len(base) == 42 and not any(r["house"] == "arryn" for r in base)
    with pytest.raises(SystemExit):
        main(["cards", "--set", "affc", "--edition", "1e"])
    assert "A Feast for Crows" in capsys.readouterr().err
    assert cb.HOME_HELD + 2 == cb.NEARBY
