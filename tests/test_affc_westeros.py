"""A casebook of A Feast for Crows' Westeros deck I (``docs/rules.md`` F4): each card's effect in
the compiled Westeros phase, from the 4-player A Feast for Crows start (Baratheon, Lannister,
Stark, Arryn) once the houses have kept their objective cards; and random play to the end.

A game is put at round 2's Westeros phase, wildling threat 0, with the card on top of deck I
(Game of Thrones and Sea of Storms, with a wildling icon, on decks II and III); a small driver
answers each decision with a policy through the machine (``legal``, ``apply_legal``) and records
it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

import gotsim
from gotsim.engine import machine as mc
from gotsim.engine.counters import clear_phase_counters, clear_westeros
from gotsim.engine.init import new_games_range
from gotsim.engine.invariants import violations
from gotsim.engine.objectives import in_hand, scored
from gotsim.engine.state import (
    ACT_FOOTMAN,
    ACT_NONE,
    H_WESTEROS,
    N_ACTIONS,
    OBJ_DECK,
    OBJ_POOL,
    OBJ_SCORED,
    Decision,
    ObjectiveStep,
    Phase,
)
from gotsim.engine.tables import WesterosCard, rules_table
from gotsim.play.runner import play_random
from gotsim.play.simulate import rounds_frame
from gotsim.players.heuristic import heuristic_action
from gotsim.players.memo import new_memos
from gotsim.players.params import DEFAULTS
from gotsim.rules.board import load_board
from gotsim.rules.ids import House

T = rules_table("2e", 4, None, "affc")[0]
BOARD = load_board("2e")
A = BOARD.index
D = Decision
W = WesterosCard
BAR, LAN, STARK, ARRYN = (
    int(h) for h in (House.BARATHEON, House.LANNISTER, House.STARK, House.ARRYN)
)
HOUSES = (BAR, LAN, STARK, ARRYN)
F = 0  # footman (Unit order)


@dataclass
class Asked:
    kind: Decision
    house: int
    ctx: tuple[int, ...]
    legal: list[int]
    action: int


Policy = Callable[[np.record, Decision, int, np.ndarray], int]


def first_legal(g: np.record, kind: Decision, house: int, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def footmen(g: np.record, kind: Decision, house: int, mask: np.ndarray) -> int:
    """Muster a footman where one may, else nothing; the first legal option otherwise."""
    if kind == D.MUSTER:
        return ACT_FOOTMAN if mask[ACT_FOOTMAN] else ACT_NONE
    return first_legal(g, kind, house, mask)


def westeros_game(card: WesterosCard, seed: int = 0) -> np.record:
    """The A Feast for Crows start with each house's objective hand kept (the first legal card
    put back each time), at round 2's Westeros phase, threat 0, with ``card`` on top of deck
    I."""
    games = new_games_range(1, seed, 1, players=4, expansion="affc")
    g = games[0]
    mc.advance(g, T)
    mask = np.zeros(N_ACTIONS, np.bool_)
    while g.pending == D.OBJECTIVE:
        mc.legal(g, T, mask)
        mc.apply_legal(g, T, int(np.flatnonzero(mask)[0]))
        mc.advance(g, T)
    assert g.phase == Phase.PLANNING and all(in_hand(g, h) == 3 for h in HOUSES)
    g.pending = D.NONE
    g.pending_house = -1
    g.phase = Phase.WESTEROS
    g.game_round = 2
    g.threat = 0
    clear_phase_counters(g)
    clear_westeros(g)
    for d, top in enumerate((card, W.GAME_OF_THRONES, W.SEA_OF_STORMS)):
        deck = g.westeros[d]
        i = int(np.flatnonzero(deck == top)[0])
        deck[[0, i]] = deck[[i, 0]]
        g.westeros_next[d] = 0
    return g


def resolve(g: np.record, policy: Policy = first_legal) -> list[Asked]:
    """Run the Westeros phase to its end, answering with ``policy``; the decisions asked."""
    asked: list[Asked] = []
    mask = np.zeros(N_ACTIONS, np.bool_)
    for _ in range(10_000):
        if g.phase != Phase.WESTEROS or g.done:
            return asked
        if g.pending == D.NONE:
            mc._westeros(g, T)
            continue
        kind, house = Decision(int(g.pending)), int(g.pending_house)
        mc.legal(g, T, mask)
        action = policy(g, kind, house, mask)
        assert mask[action], (kind, action)
        asked.append(
            Asked(kind, house, tuple(int(c) for c in g.ctx), list(np.flatnonzero(mask)), action)
        )
        mc.apply_legal(g, T, action)
    raise AssertionError("the Westeros phase did not end")


def turn_order(g: np.record) -> list[int]:
    return [int(h) for h in g.track[0, :4]]


def hand(g: np.record, house: int) -> set[int]:
    return {int(k) for k in np.flatnonzero(g.objective_at == house)}


def count_at(g: np.record, where: int) -> int:
    return int((g.objective_at == where).sum())


def stronghold_or_castle(area: int) -> str:
    return "stronghold" if T.stronghold[area] else ("castle" if T.muster_points[area] else "none")


# --- the mustering cards ------------------------------------------------------------------------


def test_affc_mustering_is_the_base_mustering() -> None:
    """Mustering (A Feast for Crows' copy, with a wildling icon): every house musters in its
    castles and strongholds, in turn order, exactly as with the base card."""
    g = westeros_game(W.MUSTERING_AFFC)
    base = westeros_game(W.MUSTERING_AFFC)
    base.westeros[0, 0] = W.MUSTERING
    threat = int(g.threat)
    asked = resolve(g, footmen)
    base_asked = resolve(base, footmen)
    assert [(a.house, a.ctx, a.action) for a in asked] == [
        (a.house, a.ctx, a.action) for a in base_asked
    ]
    areas = {a.ctx[0] for a in asked if a.kind == D.MUSTER}
    assert any(T.stronghold[a] for a in areas)
    assert g.threat == threat + 2 * 2  # its icon and Sea of Storms'
    assert base.threat == threat + 2
    assert not violations(g, T)


def test_rally_the_men_musters_in_castles_only() -> None:
    """Rally the Men: in turn order each house musters only in the castle areas it controls; its
    strongholds muster nothing (S&R RallyTheMenWesterosCardType: castleLevel == 1)."""
    g = westeros_game(W.RALLY_THE_MEN)
    g.units[A("winterfell"), :4] = (1, 0, 0, 0)
    g.units[A("white_harbor"), :4] = (1, 0, 0, 0)
    g.owner[A("winterfell")] = STARK
    g.owner[A("white_harbor")] = STARK
    before = int(g.units[A("white_harbor"), F])
    asked = resolve(g, footmen)
    musters = [a for a in asked if a.kind == D.MUSTER]
    assert musters and all(stronghold_or_castle(a.ctx[0]) == "castle" for a in musters)
    assert all(a.ctx[1] == 1 for a in musters)  # a castle's one point
    assert (STARK, A("white_harbor")) in {(a.house, a.ctx[0]) for a in musters}
    assert A("winterfell") not in {a.ctx[0] for a in musters}
    assert g.units[A("white_harbor"), F] == before + 1
    houses = [a.house for a in musters]
    order = turn_order(g)
    assert houses == sorted(houses, key=order.index)  # in turn order
    assert not violations(g, T)


# --- The Burden of Power ----------------------------------------------------------------------


@pytest.mark.parametrize("choice", [0, 1])
def test_the_burden_of_power(choice: int) -> None:
    """The Burden of Power: the Iron Throne holder chooses between the wildling threat to 0 (0)
    and a mustering of every house (1); there is no third option (S&R
    TheBurdenOfPowerGameState)."""
    g = westeros_game(W.THE_BURDEN_OF_POWER)
    g.threat = 6
    holder = int(g.track[0, 0])
    asked = resolve(
        g,
        lambda g, kind, house, mask: (
            choice if kind == D.WESTEROS_CHOICE else footmen(g, kind, house, mask)
        ),
    )
    first = asked[0]
    assert (first.kind, first.house, first.ctx[0]) == (
        D.WESTEROS_CHOICE,
        holder,
        W.THE_BURDEN_OF_POWER,
    )
    assert first.legal == [0, 1]
    musters = [a for a in asked if a.kind == D.MUSTER]
    if choice == 0:
        assert g.threat == 0 and not musters
    else:
        assert g.threat == 6 + 2  # Sea of Storms' icon; the card has none
        assert any(T.stronghold[a.ctx[0]] for a in musters)
    assert not violations(g, T)


@pytest.mark.parametrize(("threat", "power", "expected"), [(10, 0, 0), (0, 20, 1)])
def test_burden_of_power_heuristic(threat: int, power: int, expected: int) -> None:
    """The heuristic Iron Throne holder resets a high threat when it is short of power for the
    bidding, and has every house muster when there is no threat to reset."""
    g = westeros_game(W.THE_BURDEN_OF_POWER)
    holder = int(g.track[0, 0])
    mc._westeros(g, T)
    assert g.pending == D.WESTEROS_CHOICE and g.pending_house == holder
    g.threat = threat
    g.power[:] = 10
    g.power[holder] = power
    mask = np.zeros(N_ACTIONS, np.bool_)
    mc.legal(g, T, mask)
    assert heuristic_action(g, T, holder, mask, DEFAULTS.copy(), new_memos(1)[0]) == expected


# --- Famine, Ironborn Raid ---------------------------------------------------------------------


def test_famine_supply_down_one_then_reconcile() -> None:
    """Famine: every house one space down the supply track (not below 0), then armies beyond
    the new level are cut in turn order (S&R FamineWesterosCardType, ReconcileArmiesGameState)."""
    g = westeros_game(W.FAMINE)
    for a in range(T.n_areas):
        if g.owner[a] == STARK:
            g.units[a] = 0
            g.owner[a] = -1
    g.units[A("winterfell"), :4] = (3, 0, 0, 0)
    g.owner[A("winterfell")] = STARK
    g.supply[STARK] = 1
    g.supply[BAR] = 0
    supply = {h: int(g.supply[h]) for h in HOUSES}
    assert int(T.supply_table[0].max()) < 3 <= int(T.supply_table[1].max())
    asked = resolve(g)
    assert {h: int(g.supply[h]) for h in HOUSES} == {h: max(0, s - 1) for h, s in supply.items()}
    cuts = [a for a in asked if a.kind == D.SUPPLY_CUT]
    assert [(a.house, a.action) for a in cuts] == [(STARK, A("winterfell"))]
    assert int(g.units[A("winterfell")].sum()) == 2
    assert not violations(g, T)


def test_ironborn_raid_costs_houses_with_two_scored_cards() -> None:
    """Ironborn Raid: a house with 2 or more objective cards scored loses a victory point (not
    below 0); the others keep theirs (S&R IronbornRaidWesterosCardType)."""
    g = westeros_game(W.IRONBORN_RAID)
    deck = [int(k) for k in np.flatnonzero(g.objective_at == OBJ_DECK)]
    for house, n in ((STARK, 2), (LAN, 1), (BAR, 3)):
        for _ in range(n):
            g.objective_at[deck.pop()] = OBJ_SCORED + house
    g.vp[[STARK, LAN, BAR, ARRYN]] = (5, 3, 0, 2)
    assert [scored(g, h) for h in (STARK, LAN, BAR, ARRYN)] == [2, 1, 3, 0]
    assert not resolve(g)
    assert [int(g.vp[h]) for h in (STARK, LAN, BAR, ARRYN)] == [4, 3, 0, 2]


# --- the objective cards --------------------------------------------------------------------------


def test_shifting_ambitions_exchanges_through_the_pool() -> None:
    """Shifting Ambitions: in turn order each house puts a card of its hand into the pool, then
    in turn order each takes one of the pool; every hand keeps its size and the pool ends empty
    (S&R ShiftingAmbitionsGameState). The last card of the pool goes without asking."""
    g = westeros_game(W.SHIFTING_AMBITIONS)
    order = turn_order(g)
    hands = {h: hand(g, h) for h in HOUSES}
    cards = set().union(*hands.values())
    pool_seen: list[int] = []

    def policy(g: np.record, kind: Decision, house: int, mask: np.ndarray) -> int:
        if kind == D.OBJECTIVE and g.ctx[0] == ObjectiveStep.POOL_TAKE:
            pool_seen.append(count_at(g, OBJ_POOL))
            return int(np.flatnonzero(mask)[-1])
        return first_legal(g, kind, house, mask)

    asked = resolve(g, policy)
    puts = [a for a in asked if a.ctx[0] == ObjectiveStep.POOL_PUT]
    takes = [a for a in asked if a.ctx[0] == ObjectiveStep.POOL_TAKE]
    assert all(a.kind == D.OBJECTIVE for a in asked)
    assert [a.house for a in puts] == order
    assert [a.house for a in takes] == order[:3]
    assert pool_seen == [4, 3, 2]
    assert all(set(a.legal) == hands[a.house] for a in puts)
    assert count_at(g, OBJ_POOL) == 0
    assert all(in_hand(g, h) == 3 for h in HOUSES)
    assert set().union(*(hand(g, h) for h in HOUSES)) == cards
    assert not violations(g, T)


def test_shifting_ambitions_short_hands() -> None:
    """A house without objective cards neither puts nor takes; a hand of one card goes to the
    pool without asking."""
    g = westeros_game(W.SHIFTING_AMBITIONS)
    order = turn_order(g)
    empty, single = order[0], order[1]
    g.objective_at[g.objective_at == empty] = OBJ_DECK
    keep = sorted(hand(g, single))[0]
    g.objective_at[(g.objective_at == single) & (np.arange(len(g.objective_at)) != keep)] = OBJ_DECK
    asked = resolve(g)
    puts = [a.house for a in asked if a.ctx[0] == ObjectiveStep.POOL_PUT]
    takes = [a.house for a in asked if a.ctx[0] == ObjectiveStep.POOL_TAKE]
    assert puts == order[2:]
    assert takes == [single, order[2]]  # 3 cards in the pool; the last goes to order[3]
    assert [in_hand(g, h) for h in order] == [0, 1, 3, 3]
    assert count_at(g, OBJ_POOL) == 0


def test_new_information_draw_then_return() -> None:
    """New Information: in turn order each house draws an objective card, then each house with
    more than 3 puts one back into the deck: hands +1 -1, the deck as large as before (S&R
    NewInformationGameState)."""
    g = westeros_game(W.NEW_INFORMATION)
    order = turn_order(g)
    deck = count_at(g, OBJ_DECK)
    asked = resolve(g)
    returns = [a for a in asked if a.kind == D.OBJECTIVE]
    assert [a.house for a in returns] == order
    assert all(a.ctx[0] == ObjectiveStep.RETURN and len(a.legal) == 4 for a in returns)
    assert all(in_hand(g, h) == 3 for h in HOUSES)
    assert count_at(g, OBJ_DECK) == deck
    assert not violations(g, T)


def test_new_information_short_hand_keeps_its_draw() -> None:
    """A house left with fewer than 3 cards keeps the card it drew (S&R asks only the houses
    holding more than 3)."""
    g = westeros_game(W.NEW_INFORMATION)
    order = turn_order(g)
    short = order[2]
    g.objective_at[sorted(hand(g, short))[0]] = OBJ_DECK
    deck = count_at(g, OBJ_DECK)
    asked = resolve(g)
    assert [a.house for a in asked] == [h for h in order if h != short]
    assert in_hand(g, short) == 3
    assert count_at(g, OBJ_DECK) == deck - 1


# --- random play ----------------------------------------------------------------------------------


def test_random_affc_games_finish() -> None:
    """300 random A Feast for Crows games finish (``gotsim.simulate``)."""
    frame = gotsim.simulate(300, players=4, expansion="affc", policies="random")
    assert len(frame) == 300 and frame.winner.notna().all()


def test_random_affc_games_resolve_every_card_of_deck_one() -> None:
    """Random play: every kind of deck I is resolved in some game (and named in the per-round
    frame), the games end, no invariant breaks (the pool is empty after every Westeros phase,
    victory points are never negative)."""
    games = new_games_range(7, 0, 300, players=4, expansion="affc")
    rules = rules_table("2e", 4, None, "affc")
    assert (play_random(games, rules, 1_000_000) > 0).all()
    assert games.done.all()
    resolved = set(np.unique(games.history[:, :, H_WESTEROS]).tolist())
    assert {int(card) for card in W if card >= W.MUSTERING_AFFC} <= resolved
    rounds = rounds_frame(games)
    assert set(rounds.westeros_1.dropna()) == {c.name.lower() for c in W if c >= W.MUSTERING_AFFC}
    assert not [v for g in games for v in violations(g, T)]
