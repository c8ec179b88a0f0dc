"""A Feast for Crows' Westeros deck I: the effects of its cards that are not a mustering (Famine,
Ironborn Raid, Shifting Ambitions, New Information). Their timing follows Swords and Ravens
(``docs/rules.md`` F4); the objective cards' places are ``g.objective_at``
(``engine.objectives``)."""

from __future__ import annotations

from gotsim.engine import objectives as ob
from gotsim.engine.board_state import ask
from gotsim.engine.state import (
    N_OBJECTIVES,
    OBJ_POOL,
    Decision,
    ObjectiveStep,
)
from gotsim.jit import njit

# --- Famine, Ironborn Raid ------------------------------------------------------------------------


@njit
def famine(g, t) -> None:
    """Famine: every house in play moves one space down the supply track (not below 0); the
    caller then reconciles the armies in turn order."""
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0 and g.supply[house] > 0:
            g.supply[house] -= 1


@njit
def ironborn_raid(g, t) -> None:
    """Ironborn Raid: every house in play that has scored 2 or more objective cards loses a
    victory point (not below 0). The special objective is not an objective card."""
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0 and ob.scored(g, house) >= 2 and g.vp[house] > 0:
            g.vp[house] -= 1


# --- Shifting Ambitions ---------------------------------------------------------------------------


@njit
def _only_card(g, where: int) -> int:
    """The objective card at ``where`` when it is the only one there, else -1."""
    found = -1
    for k in range(N_OBJECTIVES):
        if g.objective_at[k] == where:
            if found >= 0:
                return -1
            found = k
    return found


@njit
def shifting_put_step(g, t) -> bool:
    """Shifting Ambitions, first part: in turn order each house puts one objective card of its
    hand into the pool (``OBJECTIVE``/``POOL_PUT``; a single card goes without asking, a house
    with none is left out). ``g.participants`` marks the houses that put one, those that take
    one back. True when every house is done."""
    while g.westeros_loop < t.players:
        house = g.track[0, g.westeros_loop]
        g.westeros_loop += 1
        if house < 0 or ob.in_hand(g, house) == 0:
            continue
        g.participants |= 1 << house
        single = _only_card(g, house)
        if single >= 0:
            g.objective_at[single] = OBJ_POOL
            continue
        ask(g, Decision.OBJECTIVE, house, ObjectiveStep.POOL_PUT)
        return False
    return True


@njit
def shifting_take_step(g, t) -> bool:
    """Shifting Ambitions, second part: the pool is face up; in turn order each house that put
    a card takes one of the pool into its hand (``OBJECTIVE``/``POOL_TAKE``; the last card goes
    without asking). The pool ends empty. True when every house is done."""
    while g.westeros_loop < t.players:
        house = g.track[0, g.westeros_loop]
        g.westeros_loop += 1
        if house < 0 or not (g.participants >> house) & 1 or ob.cards_at(g, OBJ_POOL) == 0:
            continue
        single = _only_card(g, OBJ_POOL)
        if single >= 0:
            g.objective_at[single] = house
            continue
        ask(g, Decision.OBJECTIVE, house, ObjectiveStep.POOL_TAKE)
        return False
    return True


# --- New Information ------------------------------------------------------------------------------


@njit
def new_information_draw(g, t) -> None:
    """New Information, first part: in turn order each house draws an objective card (none when
    the deck is empty)."""
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0:
            ob.draw_objective(g, house)


@njit
def new_information_return_step(g, t) -> bool:
    """New Information, second part: in turn order each house holding more than 3 objective
    cards puts one of them back into the deck (``OBJECTIVE``/``RETURN``; the deck is shuffled,
    as every draw is random). True when every house is done."""
    while g.westeros_loop < t.players:
        house = g.track[0, g.westeros_loop]
        g.westeros_loop += 1
        if house >= 0 and ob.in_hand(g, house) > ob.HAND:
            ask(g, Decision.OBJECTIVE, house, ObjectiveStep.RETURN)
            return False
    return True
