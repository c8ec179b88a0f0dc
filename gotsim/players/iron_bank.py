"""The heuristic's answers to the Iron Bank's decisions (``engine.iron_bank``; ``docs/players.md``):
it places the Iron Bank token on a sea area when a loan it can pay for is worth more than its
cost and the interest still to come, buys the loan worth most by that measure, and, choosing the
units an unpaid interest destroys, takes the debtor's most valuable one (a dragon, a knight, a
unit standing in a castle or stronghold)."""

from __future__ import annotations

import numpy as np

from gotsim.engine.iron_bank import PICK_AREA, loan_cost
from gotsim.engine.state import ACT_NONE, N_LOAN_SLOTS, U
from gotsim.jit import njit
from gotsim.rules.ids import Unit
from gotsim.rules.iron_bank import LOAN_CARDS, LOAN_TERMS

# what a unit is worth, in power tokens, to its house (by Unit)
UNIT_WORTH = np.array([1.0, 2.0, 1.0, 1.5, 3.0])
UNIT_WORTH.setflags(write=False)
IMPROVEMENT_WORTH = 2.0  # a power or supply improvement, a castle upgraded or degraded
LOOK_WORTH = 0.5  # a Westeros card looked at
DESTROY_WORTH = 2.0  # an enemy unit destroyed
FORT_WORTH = 1.0  # a unit destroyed in a castle or stronghold area: worth that much more


def _loan_values() -> np.ndarray:
    """A simple estimate of each loan card's worth in power tokens, from its terms (IB8)."""
    values = np.zeros(len(LOAN_CARDS))
    for i, card in enumerate(LOAN_CARDS):
        terms = LOAN_TERMS[card]
        value = float(terms.get("power", 0))  # type: ignore[arg-type]
        units = terms.get("units", ())
        assert isinstance(units, tuple)
        value += sum(float(UNIT_WORTH[Unit.from_id(u)]) for u in units)
        for key in (
            "power_improvements",
            "supply_improvements",
            "power_or_supply_improvements",
            "castle_upgrades",
            "castle_degrades",
            "supply_steps",
        ):
            value += IMPROVEMENT_WORTH * float(terms.get(key, 0))  # type: ignore[arg-type]
        value += LOOK_WORTH * float(terms.get("westeros_cards_seen", 0))  # type: ignore[arg-type]
        destroy = terms.get("destroy", ())
        assert isinstance(destroy, tuple)
        value += DESTROY_WORTH * len(destroy)
        values[i] = value
    values.setflags(write=False)
    return values


LOAN_VALUE = _loan_values()


@njit
def best_loan(g, t, house: int) -> tuple[int, float]:
    """The slot whose loan ``house`` can pay for and gains most by: the card's worth less its
    cost and the interest of the Westeros phases still to come (1 power each); ``(-1, 0)`` when
    none gains anything."""
    rounds_left = max(0, int(t.max_rounds) - int(g.game_round))
    best, best_slot = 0.0, -1
    for s in range(N_LOAN_SLOTS):
        card = g.loan_slot[s]
        if card < 0:
            continue
        cost = loan_cost(g, t, house, s)
        if g.power[house] < cost:
            continue
        gain = LOAN_VALUE[card] - cost - rounds_left
        if gain > best:
            best, best_slot = gain, s
    return best_slot, best


@njit
def buy_choice(g, t, house: int, mask) -> int:
    slot, _gain = best_loan(g, t, house)
    return slot if slot >= 0 and mask[slot] else ACT_NONE


@njit
def _unit_value(t, a: int, u: int) -> float:
    fort = FORT_WORTH if t.castle[a] or t.stronghold[a] else 0.0
    return UNIT_WORTH[u] + fort


@njit
def debt_choice(g, t, house: int, mask) -> int:
    """The debtor's most valuable unit: its area first, then its type."""
    if g.ctx[0] == PICK_AREA:
        best, best_a = -1.0, -1
        for a in range(t.n_areas):
            if not mask[a]:
                continue
            for u in range(U):
                if g.units[a, u] > 0 and _unit_value(t, a, u) > best:
                    best, best_a = _unit_value(t, a, u), a
        return best_a
    best, best_u = -1.0, -1
    for u in range(U):
        if mask[u] and UNIT_WORTH[u] > best:
            best, best_u = UNIT_WORTH[u], u
    return best_u


__all__ = ["LOAN_VALUE", "best_loan", "buy_choice", "debt_choice"]
