"""Casebook of the Iron Bank's twelve loan cards (``docs/rules.md`` IB8, ``engine.loans``): each
card resolved on a Mother of Dragons 7-player record through ``start_loan`` and the machine's
own decision path (``legal``, ``apply``), its exact outcome asserted; placements the rules
refuse are not legal; the random and heuristic players resolve every card legally."""

from __future__ import annotations

import numpy as np
import pytest

from gotsim.engine.board_state import castle_level
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.loans import SELLSWORDS, LoanCard, LoanStep, start_loan
from gotsim.engine.machine import advance, apply, apply_legal, legal
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import ACT_NONE, N_ACTIONS, Decision, EndReason
from gotsim.engine.tables import rules_table
from gotsim.players.heuristic import heuristic_action
from gotsim.players.memo import new_memos
from gotsim.players.params import DEFAULTS
from gotsim.rules.board import load_board
from gotsim.rules.ids import FOOTMAN, KNIGHT, SHIP, SIEGE, House
from gotsim.rules.iron_bank import LOAN_CARDS, LOAN_TERMS

BOARD = load_board("2e", board="mod7")
T = rules_table("2e", 7, None, "mod")[0]
STARK = int(House.STARK)
LANNISTER = int(House.LANNISTER)

# a writable copy: the heuristic is compiled for writable parameter rows only (one compilation
# for every way in, tests/test_simulate.py)
PARAMS = DEFAULTS.copy()


def area(name: str) -> int:
    return BOARD.index(name)


def start(seed: int = 1) -> np.record:
    """The Mother of Dragons 7-player start (no decision pending yet)."""
    return new_games([np.random.SeedSequence(seed)], players=7, expansion="mod")[0]


def options(g) -> set[int]:
    mask = np.zeros(N_ACTIONS, np.bool_)
    legal(g, T, mask)
    return {int(a) for a in np.flatnonzero(mask)}


def answer(g, *actions: int) -> None:
    """Answer the pending LOAN decisions with ``actions`` (each must be legal)."""
    for action in actions:
        assert g.pending == Decision.LOAN
        assert apply(g, T, action), f"{action} refused at step {LoanStep(int(g.ctx[0])).name}"


def lands() -> set[int]:
    return {a for a in range(T.n_areas) if T.kind[a] == 0}


def test_ib8_cards_follow_the_rules_data() -> None:
    """The engine's card numbers are ``LOAN_CARDS``' indices; the sellswords are its terms."""
    assert [c.name.lower() for c in LoanCard] == list(LOAN_CARDS)
    names = {FOOTMAN: "footman", KNIGHT: "knight", SIEGE: "siege_engine", SHIP: "ship"}
    for card in LoanCard:
        units = tuple(names[int(u)] for u in SELLSWORDS[card] if u >= 0)
        assert units == LOAN_TERMS[card.name.lower()].get("units", ())


def test_ib8_customs_officer_takes_ten_power() -> None:
    """Customs Officer: 10 power tokens at once, no decision."""
    g = start()
    start_loan(g, T, STARK, LoanCard.CUSTOMS_OFFICER)
    assert g.pending == Decision.NONE and g.power[STARK] == 15


def test_ib8_expert_artificer_a_power_improvement_on_any_land_then_eight_power() -> None:
    """Expert Artificer: a power improvement on any land area (another house's too, never a sea
    or a port), then 8 power."""
    g = start()
    start_loan(g, T, STARK, LoanCard.EXPERT_ARTIFICER)
    assert g.pending == Decision.LOAN and g.ctx[0] == LoanStep.POWER_IMPROVEMENT
    assert options(g) == lands()
    answer(g, area("lannisport"))
    assert g.pending == Decision.NONE
    assert g.crown_bonus[area("lannisport")] == 1 and g.crown_bonus.sum() == 1
    assert g.power[STARK] == 13


def test_ib8_full_host_places_each_unit_where_its_kind_may_stand() -> None:
    """Full Host: a footman, a knight, a siege engine and a ship, one at a time, each in an area
    the house controls where its kind stands (land units on land, the ship at sea)."""
    g = start()
    g.supply[STARK] = 6
    start_loan(g, T, STARK, LoanCard.FULL_HOST)
    held_land = {area("winterfell"), area("white_harbor")}
    assert g.ctx[0] == LoanStep.SELLSWORD and options(g) == held_land | {ACT_NONE}
    answer(g, area("white_harbor"))  # the footman
    answer(g, area("winterfell"))  # the knight
    answer(g, area("winterfell"))  # the siege engine
    # the ship: its sea, or the empty ports of its land areas
    ports = {area("port_of_winterfell"), area("port_of_white_harbor")}
    assert options(g) == {area("the_shivering_sea"), ACT_NONE} | ports
    answer(g, area("the_shivering_sea"))
    assert g.pending == Decision.NONE
    assert g.units[area("white_harbor")].tolist()[:4] == [2, 0, 0, 0]
    assert g.units[area("winterfell")].tolist()[:4] == [1, 2, 0, 1]
    assert g.units[area("the_shivering_sea"), SHIP] == 2
    assert violations(g, T) == []


def test_ib8_sellswords_in_a_home_or_power_token_area_without_units() -> None:
    """An area held by a power token counts as controlled: a sellsword may stand there."""
    g = start()
    g.supply[STARK] = 6
    g.power_token[area("karhold")] = STARK
    start_loan(g, T, STARK, LoanCard.VANGUARD_CAVALRY)
    assert area("karhold") in options(g)
    answer(g, area("karhold"), ACT_NONE, ACT_NONE)
    assert g.owner[area("karhold")] == STARK and g.units[area("karhold"), KNIGHT] == 1
    assert g.pending == Decision.NONE


def test_ib8_sellswords_within_unit_limits() -> None:
    """Vanguard Cavalry with one knight left in the reserve: one knight placed, the others have
    no place (no decision)."""
    g = start()
    g.supply[STARK] = 6
    g.units[area("white_harbor"), KNIGHT] += 3  # 1 + 3 on the board, 5 the limit
    start_loan(g, T, STARK, LoanCard.VANGUARD_CAVALRY)
    answer(g, area("winterfell"))
    assert g.pending == Decision.NONE
    assert g.units[:, KNIGHT][g.owner == STARK].sum() == 5


def test_ib8_sellswords_within_supply() -> None:
    """At supply 1 (armies 3 and 2) Stark's Winterfell (2 units) may grow to 3 and White Harbor
    (1) to 2, then nothing more: the rest stays unplaced."""
    g = start()
    assert g.supply[STARK] == 1
    start_loan(g, T, STARK, LoanCard.VANGUARD_CAVALRY)
    assert options(g) == {area("winterfell"), area("white_harbor"), ACT_NONE}
    answer(g, area("winterfell"))
    assert options(g) == {area("white_harbor"), ACT_NONE}  # a 4-unit army would not fit
    answer(g, area("white_harbor"))
    assert g.pending == Decision.NONE  # no place left for the third knight
    assert g.units[area("winterfell"), KNIGHT] == 2 and g.units[area("white_harbor"), KNIGHT] == 1


def test_ib8_sea_raiders_ships_at_sea_and_in_ports_up_to_three() -> None:
    """Sea Raiders: ships only in seas or ports the house holds, a port at most 3 ships; any
    sellsword may stay unplaced."""
    g = start()
    g.supply[STARK] = 6
    port = area("port_of_white_harbor")
    g.owner[port] = STARK
    g.units[port, SHIP] = 2
    start_loan(g, T, STARK, LoanCard.SEA_RAIDERS)
    other_port = area("port_of_winterfell")  # empty, its land Stark's
    answer(g, ACT_NONE)  # the footman unplaced
    assert options(g) == {port, other_port, area("the_shivering_sea"), ACT_NONE}
    answer(g, port)  # the port is full now
    assert options(g) == {other_port, area("the_shivering_sea"), ACT_NONE}
    answer(g, area("the_shivering_sea"), other_port)
    assert g.pending == Decision.NONE
    assert g.units[port, SHIP] == 3 and g.units[area("the_shivering_sea"), SHIP] == 2
    assert g.owner[other_port] == STARK and g.units[other_port, SHIP] == 1
    assert g.units[:, FOOTMAN][g.owner == STARK].sum() == 2  # unchanged


def test_ib8_siege_engineers_not_for_a_house_without_siege_engines() -> None:
    """Siege Engineers for a house whose siege engines are all on the board: the footman only."""
    g = start()
    g.supply[STARK] = 6
    g.units[area("winterfell"), SIEGE] = 2
    start_loan(g, T, STARK, LoanCard.SIEGE_ENGINEERS)
    answer(g, area("white_harbor"))
    assert g.pending == Decision.NONE
    assert g.units[area("white_harbor"), FOOTMAN] == 2


def test_ib8_loyal_maester_two_supply_improvements_on_two_land_areas() -> None:
    """Loyal Maester: supply improvements on two different land areas."""
    g = start()
    start_loan(g, T, STARK, LoanCard.LOYAL_MAESTER)
    assert options(g) == lands()
    answer(g, area("karhold"))
    assert options(g) == lands() - {area("karhold")}
    answer(g, area("winterfell"))
    assert g.pending == Decision.NONE
    assert g.barrel_bonus[area("karhold")] == 1 and g.barrel_bonus[area("winterfell")] == 1
    assert g.barrel_bonus.sum() == 2


def test_ib8_master_at_arms_two_castles_become_strongholds() -> None:
    """Master-at-Arms: two areas with a castle (not a stronghold) upgraded to strongholds."""
    g = start()
    castles = {a for a in range(T.n_areas) if T.castle[a]}
    start_loan(g, T, STARK, LoanCard.MASTER_AT_ARMS)
    assert options(g) == castles and area("winterfell") not in castles
    answer(g, area("moat_cailin"))
    assert options(g) == castles - {area("moat_cailin")}
    answer(g, area("white_harbor"))
    assert g.pending == Decision.NONE
    for name in ("moat_cailin", "white_harbor"):
        assert g.castle_delta[area(name)] == 1 and castle_level(g, T, area(name)) == 2
    assert violations(g, T) == []


def test_ib8_pyromancer_degrades_a_castle_then_an_improvement_there() -> None:
    """Pyromancer: an area with a castle (S&R: not a stronghold) loses it, then gets a power or a
    supply improvement."""
    g = start()
    start_loan(g, T, STARK, LoanCard.PYROMANCER)
    assert options(g) == {a for a in range(T.n_areas) if T.castle[a]}
    answer(g, area("harrenhal"))
    assert g.ctx[0] == LoanStep.IMPROVEMENT_KIND and options(g) == {0, 1}
    answer(g, 1)  # a power improvement
    assert g.pending == Decision.NONE
    assert castle_level(g, T, area("harrenhal")) == 0
    assert g.crown_bonus[area("harrenhal")] == 1 and g.barrel_bonus.sum() == 0
    g = start()
    start_loan(g, T, STARK, LoanCard.PYROMANCER)
    answer(g, area("moat_cailin"), 0)  # a supply improvement
    assert g.barrel_bonus[area("moat_cailin")] == 1 and g.crown_bonus.sum() == 0
    assert violations(g, T) == []


def test_ib8_savvy_steward_a_supply_improvement_then_one_step_up() -> None:
    """Savvy Steward: a supply improvement on any land area, then one space up the supply track
    (never past its top)."""
    g = start()
    start_loan(g, T, STARK, LoanCard.SAVVY_STEWARD)
    assert options(g) == lands()
    answer(g, area("the_twins"))
    assert g.pending == Decision.NONE
    assert g.barrel_bonus[area("the_twins")] == 1 and g.supply[STARK] == 2
    g.supply[STARK] = 6
    start_loan(g, T, STARK, LoanCard.SAVVY_STEWARD)
    answer(g, area("the_twins"))
    assert g.barrel_bonus[area("the_twins")] == 2 and g.supply[STARK] == 6


@pytest.mark.parametrize(
    ("arrangement", "expected"),
    [
        (0, [3, 1, 2, 3, 1, 2, 4, 1, 2, 0]),  # both back on top
        (1, [1, 3, 2, 3, 1, 2, 4, 1, 2, 0]),  # swapped
        (2, [3, 2, 3, 1, 2, 4, 1, 2, 0, 1]),  # the second under
        (3, [1, 2, 3, 1, 2, 4, 1, 2, 0, 3]),  # the first under
        (4, [2, 3, 1, 2, 4, 1, 2, 0, 3, 1]),  # both under, in order
        (5, [2, 3, 1, 2, 4, 1, 2, 0, 1, 3]),  # both under, swapped
    ],
)
def test_ib8_spymaster_puts_the_first_two_cards_back_or_under(
    arrangement: int, expected: list[int]
) -> None:
    """Spymaster: the first two cards of a Westeros deck of its choice, any under the deck and
    the rest on top in its order (here deck I: 3, 1 on top of 2, 3, 1, 2, 4, 1, 2, 0)."""
    g = start()
    assert g.westeros[0].tolist() == [3, 1, 2, 3, 1, 2, 4, 1, 2, 0]
    start_loan(g, T, STARK, LoanCard.SPYMASTER)
    assert options(g) == {0, 1, 2}  # decks I-III (deck IV only at 8 players)
    answer(g, 0, arrangement)
    assert g.pending == Decision.NONE
    assert g.westeros[0].tolist() == expected
    assert g.westeros[1].tolist() == start().westeros[1].tolist()


def test_ib8_spymaster_sees_only_the_cards_still_to_draw() -> None:
    """Cards already drawn stay where they are; with one card left there is nothing to arrange,
    and a spent deck is not offered."""
    g = start()
    g.westeros_next[:] = (5, 9, 10)
    deck = g.westeros[0].tolist()
    start_loan(g, T, STARK, LoanCard.SPYMASTER)
    assert options(g) == {0, 1}
    answer(g, 0, 4)
    assert g.westeros[0].tolist() == deck[:5] + deck[7:] + deck[5:7]
    start_loan(g, T, STARK, LoanCard.SPYMASTER)
    answer(g, 1)
    assert g.pending == Decision.NONE


def test_ib8_the_faceless_men_a_knight_in_one_area_a_footman_in_another() -> None:
    """The Faceless Men: one knight and one footman of any house, in two different areas; an
    emptied area loses its order and owner; either may be spared."""
    g = start()
    start_loan(g, T, STARK, LoanCard.THE_FACELESS_MEN)
    knights = {a for a in range(T.n_areas) if g.units[a, KNIGHT] > 0}
    assert options(g) == knights | {ACT_NONE}
    answer(g, area("lannisport"))
    assert area("lannisport") not in options(g)  # the footman in another area
    answer(g, area("stoney_sept"))
    assert g.pending == Decision.NONE
    assert g.units[area("lannisport")].tolist()[:4] == [1, 0, 0, 0]
    assert g.owner[area("stoney_sept")] == -1 and g.units[area("stoney_sept")].sum() == 0
    g = start()
    start_loan(g, T, STARK, LoanCard.THE_FACELESS_MEN)
    answer(g, ACT_NONE, area("winterfell"))
    assert g.units[area("winterfell")].tolist()[:4] == [0, 1, 0, 0]
    assert violations(g, T) == []


def test_ib8_the_faceless_men_a_port_follows_its_land() -> None:
    """A unit destroyed by the Faceless Men that leaves an area empty settles its port at once:
    ships in the port of an area nobody controls are destroyed (B12); an emptied home area
    stays its house's, and so do its port's ships."""
    g = start()
    port = area("port_of_white_harbor")
    g.owner[port] = STARK
    g.units[port, SHIP] = 1
    g.units[area("lannisport"), KNIGHT] = 0
    start_loan(g, T, LANNISTER, LoanCard.THE_FACELESS_MEN)
    answer(g, ACT_NONE, area("white_harbor"))
    assert g.owner[area("white_harbor")] == -1
    assert g.owner[port] == -1 and g.units[port].sum() == 0
    start_loan(g, T, STARK, LoanCard.THE_FACELESS_MEN)
    answer(g, ACT_NONE, area("lannisport"))
    assert g.owner[area("lannisport")] == -1
    assert g.owner[area("port_of_lannisport")] == LANNISTER
    assert violations(g, T) == []


def test_ib8_the_faceless_men_then_the_castle_victory() -> None:
    """A knight destroyed in another house's home gives the home back to its house: with it
    Lannister holds 7 castles and wins at once, when the card is done (S&R
    ``ExecuteLoanGameState.onExecuteLoanFinish``)."""
    g = start()
    for name in ("harrenhal", "riverrun", "seagard", "crackclaw_point", "moat_cailin"):
        g.owner[area(name)] = LANNISTER
        g.units[area(name), FOOTMAN] = 1
    g.units[area("white_harbor")] = 0  # Stark's castle, now Lannister's
    g.units[area("white_harbor"), FOOTMAN] = 1
    g.owner[area("white_harbor")] = LANNISTER
    g.units[area("lannisport")] = 0
    g.units[area("lannisport"), KNIGHT] = 1
    g.owner[area("lannisport")] = STARK
    start_loan(g, T, LANNISTER, LoanCard.THE_FACELESS_MEN)
    answer(g, area("lannisport"))
    assert not g.done  # (the footman still to choose)
    answer(g, ACT_NONE)
    assert g.done and g.winner == LANNISTER and g.end_reason == EndReason.CASTLES


def _resolve_all(heuristic: bool, seeds: int) -> None:
    mask = np.zeros(N_ACTIONS, np.bool_)
    memos = new_memos(1)
    for seed in range(seeds):
        g = start(seed)
        rng = np.random.default_rng(seed)
        for card in LoanCard:
            house = int(rng.integers(7))
            g.supply[house] = int(rng.integers(7))
            start_loan(g, T, house, card)
            made = 0
            while g.pending == Decision.LOAN:
                assert legal(g, T, mask) > 0
                if heuristic:
                    action = heuristic_action(g, T, np.int64(house), mask, PARAMS, memos[0])
                else:
                    action = pick_from_mask(g.rng, 1 + house, mask)
                assert mask[action], (card.name, action)
                assert apply(g, T, action)
                made += 1
            assert made <= 5 and g.pending == Decision.NONE
            assert violations(g, T) == [], card.name


@pytest.mark.parametrize("heuristic", [False, True])
def test_ib8_players_resolve_every_card_legally(heuristic: bool) -> None:
    """The random and heuristic players answer every step of all twelve cards legally, over
    many seeded draws (houses and supply levels drawn), and the record stays consistent."""
    _resolve_all(heuristic, 25)


def test_ib8_heuristic_choices() -> None:
    """The heuristic improves its own castles, burns the leader's castle and kills the
    leader's units, and keeps a Mustering it gains by on top."""
    memos = new_memos(1)
    mask = np.zeros(N_ACTIONS, np.bool_)

    def choose(g, house: int) -> int:
        legal(g, T, mask)
        return int(heuristic_action(g, T, np.int64(house), mask, PARAMS, memos[0]))

    g = start()
    start_loan(g, T, STARK, LoanCard.MASTER_AT_ARMS)
    assert choose(g, STARK) == area("white_harbor")  # its own castle
    g = start()
    g.owner[area("harrenhal")] = LANNISTER
    g.units[area("harrenhal"), FOOTMAN] = 1
    start_loan(g, T, STARK, LoanCard.PYROMANCER)
    assert choose(g, STARK) == area("harrenhal")  # Lannister leads (two castles, first)
    g = start()
    start_loan(g, T, STARK, LoanCard.THE_FACELESS_MEN)
    knight = choose(g, STARK)
    assert g.owner[knight] != STARK


def _games_with_loans(players: int, games: int, heuristic: bool) -> int:
    """Play Mother of Dragons games at random where, when the Messenger Raven is to be used
    (after the planning, every round), a random house in play takes a random loan card half the
    time, answered by the random or heuristic player; the raven's decision is then asked again
    and the game goes on to its end. Returns the loans taken; asserts every invariant after each
    and at the end."""
    t = rules_table("2e", players, None, "mod")[0]
    mask = np.zeros(N_ACTIONS, np.bool_)
    memos = new_memos(1)
    taken = 0
    for seed in range(games):
        g = new_games([np.random.SeedSequence(seed)], players=players, expansion="mod")[0]
        rng = np.random.default_rng(seed)
        while True:
            advance(g, t)
            if g.done:
                break
            if g.pending == Decision.RAVEN and rng.random() < 0.5:
                saved = (int(g.pending), int(g.pending_house), g.ctx.copy())
                house = int(rng.choice(np.flatnonzero(g.in_play)))
                start_loan(g, t, house, int(rng.integers(len(LoanCard))))
                while g.pending == Decision.LOAN:
                    legal(g, t, mask)
                    if heuristic:
                        action = heuristic_action(g, t, np.int64(house), mask, PARAMS, memos[0])
                    else:
                        action = pick_from_mask(g.rng, 1 + house, mask)
                    assert mask[action]
                    apply_legal(g, t, action)
                taken += 1
                assert violations(g, t) == []
                if g.done:
                    break
                g.pending, g.pending_house = saved[0], saved[1]
                g.ctx[:] = saved[2]
            assert legal(g, t, mask) > 0
            apply_legal(g, t, pick_from_mask(g.rng, 0, mask))
        assert violations(g, t) == []
    return taken


@pytest.mark.parametrize(("players", "heuristic"), [(7, False), (7, True), (8, True)])
def test_ib8_games_with_loans_keep_every_invariant(players: int, heuristic: bool) -> None:
    """Loans taken in the middle of Mother of Dragons games (7 and 8 players) keep the record
    consistent, and the games play on to their end."""
    assert _games_with_loans(players, 12, heuristic) > 30
