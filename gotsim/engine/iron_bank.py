"""Mother of Dragons' Iron Bank in the engine (``iron_bank``; ``docs/rules.md`` IB1–IB7).

The loan deck (``g.loan_deck``, top first, ``g.loan_deck_n`` cards) is shuffled from the nature
stream at the start, after every other deck; each round begins with the slots sliding
(``slide_slots``, IB2). A house's Iron Bank order token (``Order.SEA_IRON_BANK``, sea areas only,
IB5) resolves with the consolidate power orders: the house buys a loan of a slot it can pay for,
or none (``Decision.BUY_LOAN``; no decision when it can pay for none), and the card's effect
follows (``engine.loans.start_loan``). At the start of every Westeros phase from round 2 each
house pays 1 power per loan it holds; every token it cannot pay destroys one of its units, the
best-placed other house on the Fiefdoms track choosing (``Decision.PAY_DEBT``, IB6/IB7). The
reference of every rule here is ``gotsim.rules.iron_bank``.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine.board_state import ask, controller, lose_power, unit_count
from gotsim.engine.loans import start_loan
from gotsim.engine.state import ACT_NONE, N_LOAN_SLOTS, N_LOANS, Decision, U
from gotsim.engine.westeros.common import all_units, only_unit_type, remove_unit, unit_types_in
from gotsim.jit import njit
from gotsim.rules.iron_bank import SLOT_COSTS as _SLOT_COSTS

SLOT_COSTS = np.array(_SLOT_COSTS, np.int64)
SLOT_COSTS.setflags(write=False)
FIEFDOMS = 1
PICK_AREA, PICK_UNIT = 0, 1  # PAY_DEBT steps (ctx0)


@njit
def slide_slots(g) -> None:
    """The start of a round (IB2): the deck's top card enters the first slot, the others slide
    one slot along, and a card pushed out of the last slot goes under the deck (an empty deck
    adds nothing; the slots still slide)."""
    pushed = g.loan_slot[N_LOAN_SLOTS - 1]
    for s in range(N_LOAN_SLOTS - 1, 0, -1):
        g.loan_slot[s] = g.loan_slot[s - 1]
    n = g.loan_deck_n
    if n > 0:
        g.loan_slot[0] = g.loan_deck[0]
        for k in range(n - 1):
            g.loan_deck[k] = g.loan_deck[k + 1]
        g.loan_deck[n - 1] = -1
        n -= 1
    else:
        g.loan_slot[0] = -1
    if pushed >= 0:
        g.loan_deck[n] = pushed
        n += 1
    g.loan_deck_n = n


@njit
def loans_count(g, house: int) -> int:
    """The loans ``house`` holds."""
    n = 0
    for card in range(N_LOANS):
        if (g.loans_held[house] >> card) & 1:
            n += 1
    return n


@njit
def loan_cost(g, t, house: int, slot: int) -> int:
    """What ``slot`` costs ``house``: 7, 4, 1 power; 1 less for Braavos' controller (IB3)."""
    discount = 1 if t.braavos >= 0 and controller(g, t, t.braavos) == house else 0
    return SLOT_COSTS[slot] - discount


@njit
def affordable(g, t, house: int, slot: int) -> bool:
    return g.loan_slot[slot] >= 0 and g.power[house] >= loan_cost(g, t, house, slot)


@njit
def can_buy(g, t, house: int) -> bool:
    """Whether ``house`` can pay for the loan of any slot (IB4)."""
    for s in range(N_LOAN_SLOTS):
        if affordable(g, t, house, s):
            return True
    return False


@njit
def buy_legal(g, t, mask) -> None:
    house = g.pending_house
    for s in range(N_LOAN_SLOTS):
        mask[s] = affordable(g, t, house, s)
    mask[ACT_NONE] = True


@njit
def buy_apply(g, t, house: int, action: int) -> None:
    """Buy the loan of slot ``action`` (or none): pay its cost to the pool, hold the card, empty
    the slot and resolve the card (IB4). The consolidate power loop has already moved past the
    order, so a decision the card leaves pending resumes the phase when it ends."""
    if action == ACT_NONE:
        return
    card = g.loan_slot[action]
    lose_power(g, house, loan_cost(g, t, house, action))
    g.loans_held[house] |= np.uint16(np.int64(1) << np.int64(card))
    g.loan_slot[action] = -1
    start_loan(g, t, house, card)


# --- interest (IB6, IB7) ------------------------------------------------------------------------


@njit
def interest_chooser(g, t, debtor: int) -> int:
    """The best-placed house on the Fiefdoms track other than ``debtor`` (no vassal, V7)."""
    for pos in range(t.players):
        house = g.track[FIEFDOMS, pos]
        if house >= 0 and house != debtor and not t.vassal[house]:
            return house
    return -1


@njit
def _single_choice(g, t, house: int) -> int:
    """The area of ``house``'s units when they are all of one type in one area, else -1."""
    found = -1
    for a in range(t.n_areas):
        if g.owner[a] != house or unit_count(g, a) == 0:
            continue
        if found >= 0:
            return -1
        if unit_types_in(g, a) > 1:
            return -1
        found = a
    return found


@njit
def _charge(g, t, pos: int) -> None:
    """Interest of the house at turn-order position ``pos``: 1 power per loan to the pool, as
    much as it has; what it cannot pay is owed in units (``g.debt_left``)."""
    g.debt_pos = pos + 1
    g.debt_left = 0
    house = g.track[0, pos]
    if house < 0 or t.vassal[house]:
        return
    owed = loans_count(g, house)
    paid = lose_power(g, house, owed)
    g.debt_left = owed - paid


@njit
def interest_step(g, t) -> bool:
    """Interest at the start of a Westeros phase (from round 2), debtors in turn order. True
    when a ``PAY_DEBT`` decision is pending; False once every house has paid (``g.debt_pos``
    past the last)."""
    if g.debt_pos == 0:
        _charge(g, t, 0)
    while g.debt_pos <= t.players:
        debtor = g.track[0, g.debt_pos - 1]
        while g.debt_left > 0:
            left = all_units(g, t, debtor)
            if left == 0:
                g.debt_left = 0
                break
            only = _single_choice(g, t, debtor)
            if left > g.debt_left and only < 0:
                chooser = interest_chooser(g, t, debtor)  # the best-placed other on Fiefdoms
                if chooser >= 0:
                    ask(g, Decision.PAY_DEBT, chooser, PICK_AREA, debtor, 0, g.debt_left)
                    return True
            if only < 0:  # no choice: every unit goes, the first found first
                for a in range(t.n_areas):
                    if g.owner[a] == debtor and unit_count(g, a) > 0:
                        only = a
                        break
            remove_unit(g, t, only, only_unit_type(g, only))
            g.debt_left -= 1
        if g.debt_pos < t.players:
            _charge(g, t, g.debt_pos)
        else:
            g.debt_pos = t.players + 1
    return False


@njit
def debt_legal(g, t, mask) -> None:
    debtor = g.ctx[1]
    if g.ctx[0] == PICK_AREA:
        for a in range(t.n_areas):
            mask[a] = g.owner[a] == debtor and unit_count(g, a) > 0
    else:
        a = g.ctx[2]
        for u in range(U):
            mask[u] = g.units[a, u] > 0


@njit
def debt_apply(g, t, house: int, action: int) -> None:
    """The chooser's answer: an area of the debtor's (then, with several unit types there, the
    type); the unit is destroyed and the interest goes on (``interest_step``)."""
    debtor = g.ctx[1]
    if g.ctx[0] == PICK_AREA:
        a = action
        if unit_types_in(g, a) > 1:
            ask(g, Decision.PAY_DEBT, house, PICK_UNIT, debtor, a, g.debt_left)
            return
        u = only_unit_type(g, a)
    else:
        a = g.ctx[2]
        u = action
    remove_unit(g, t, a, u)
    g.debt_left -= 1


__all__ = [
    "buy_apply",
    "buy_legal",
    "can_buy",
    "debt_apply",
    "debt_legal",
    "interest_chooser",
    "interest_step",
    "loan_cost",
    "loans_count",
    "slide_slots",
]
