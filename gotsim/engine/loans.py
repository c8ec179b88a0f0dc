"""The Iron Bank's twelve loan cards (Mother of Dragons; ``docs/rules.md`` IB8), resolved at once
when a house has paid for one: ``start_loan(g, t, house, card)``.

Every choice a card offers is a ``Decision.LOAN`` of the house (ctx0 a ``LoanStep``, ctx1 the
``LoanCard``, ctx2 the step's count, ctx3 an area chosen before or the Westeros deck looked at);
the whole card is carried in the decision's context, so nothing of it is left in the record once
its last step is answered and the phase that bought it goes on. Improvements are written to the
record's ``crown_bonus``, ``barrel_bonus`` and ``castle_delta`` (IB9 reads them). Where the cards'
choices may go follows Swords and Ravens (``ExecuteLoanGameState`` and its children).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    add_improvement,
    army_sizes_fit,
    ask,
    castle_level,
    controller,
    gain_power,
)
from gotsim.engine.state import ACT_NONE, Decision
from gotsim.engine.westeros.common import DECK_SIZE, add_unit, available, remove_unit
from gotsim.jit import njit
from gotsim.rules.ids import FOOTMAN, KNIGHT, SHIP, SIEGE


class LoanCard(IntEnum):
    """The loan cards in the order of ``rules.iron_bank.LOAN_CARDS`` (the data's order)."""

    CUSTOMS_OFFICER = 0
    EXPERT_ARTIFICER = 1
    FULL_HOST = 2
    LOYAL_MAESTER = 3
    MASTER_AT_ARMS = 4
    PYROMANCER = 5
    SAVVY_STEWARD = 6
    SEA_RAIDERS = 7
    SIEGE_ENGINEERS = 8
    SPYMASTER = 9
    THE_FACELESS_MEN = 10
    VANGUARD_CAVALRY = 11


class LoanStep(IntEnum):
    """What a ``LOAN`` decision asks (its ctx0)."""

    POWER_IMPROVEMENT = 0  # Expert Artificer: the land area of a power improvement
    SELLSWORD = 1  # ctx2 the unit's place in the card's list; action its area, ACT_NONE unplaced
    SUPPLY_IMPROVEMENT = 2  # Loyal Maester, Savvy Steward: a land area (ctx2 put so far, ctx3
    # the first one's area, -1 none)
    UPGRADE = 3  # Master-at-Arms: an area with a castle (ctx2, ctx3 as above)
    DEGRADE = 4  # Pyromancer: an area with a castle
    IMPROVEMENT_KIND = 5  # Pyromancer: ctx3 the area; action 0 supply, 1 power improvement
    SPY_DECK = 6  # Spymaster: action the Westeros deck (0-2 decks I-III, 3 deck IV)
    SPY_ARRANGE = 7  # Spymaster: ctx3 the deck; action one of ARRANGEMENTS
    FACELESS_KNIGHT = 8  # The Faceless Men: the area of a knight destroyed, ACT_NONE none
    FACELESS_FOOTMAN = 9  # ctx3 the knight's area (-1 none); the area of a footman, ACT_NONE


N_LOAN_CARDS = len(LoanCard)
POWER_TAKEN = (10, 8)  # Customs Officer, Expert Artificer (rules.iron_bank.LOAN_TERMS)
# the sellswords each card places, in the order they are placed (-1 padded)
SELLSWORDS = np.full((N_LOAN_CARDS, 4), -1, np.int64)
SELLSWORDS[LoanCard.FULL_HOST] = (FOOTMAN, KNIGHT, SIEGE, SHIP)
SELLSWORDS[LoanCard.SEA_RAIDERS] = (FOOTMAN, SHIP, SHIP, SHIP)
SELLSWORDS[LoanCard.SIEGE_ENGINEERS] = (FOOTMAN, SIEGE, SIEGE, -1)
SELLSWORDS[LoanCard.VANGUARD_CAVALRY] = (KNIGHT, KNIGHT, KNIGHT, -1)
IMPROVEMENTS_PUT = 2  # Loyal Maester's supply improvements, Master-at-Arms' castles upgraded
SUPPLY_KIND, POWER_KIND = 0, 1  # Pyromancer's improvement
N_DECKS = 4  # Westeros decks I-III, and IV (8 players)
# Spymaster, the first two cards x, y of the deck seen: (where x goes, where y goes), 0 on top,
# 1 under the deck, the cards on top in the listed order before the rest, those under after it
#   0: x, y on top   1: y, x on top   2: x on top, y under   3: y on top, x under
#   4: x, y under    5: y, x under
N_ARRANGEMENTS = 6


@njit
def _improvable(g, t, a: int) -> bool:
    """A land area an improvement may go on: any, whoever holds it, with improvements or not
    (S&R: every land region); not one out of play (impassable)."""
    return t.kind[a] == LAND and not g.blocked[a]


# --- starting a card ------------------------------------------------------------------------------


@njit
def start_loan(g, t, house: int, card: int) -> None:
    """Resolve loan ``card`` (a ``LoanCard``) that ``house`` has just paid for: what needs no
    choice at once, the first choice as a pending ``LOAN`` decision. Once its last step is
    answered no decision is pending and the phase that called this goes on."""
    if card == LoanCard.CUSTOMS_OFFICER:
        gain_power(g, t, house, POWER_TAKEN[0])
    elif card == LoanCard.EXPERT_ARTIFICER:
        ask(g, Decision.LOAN, house, LoanStep.POWER_IMPROVEMENT, card, 0, -1)
    elif SELLSWORDS[card, 0] >= 0:
        _next_sellsword(g, t, house, card, 0)
    elif card == LoanCard.LOYAL_MAESTER or card == LoanCard.SAVVY_STEWARD:
        ask(g, Decision.LOAN, house, LoanStep.SUPPLY_IMPROVEMENT, card, 0, -1)
    elif card == LoanCard.MASTER_AT_ARMS:
        if _any_castle(g, t, -1):
            ask(g, Decision.LOAN, house, LoanStep.UPGRADE, card, 0, -1)
    elif card == LoanCard.PYROMANCER:
        if _any_castle(g, t, -1):
            ask(g, Decision.LOAN, house, LoanStep.DEGRADE, card, 0, -1)
    elif card == LoanCard.SPYMASTER:
        for d in range(N_DECKS):
            if _deck_left(g, t, d) > 0:
                ask(g, Decision.LOAN, house, LoanStep.SPY_DECK, card, 0, -1)
                break
    elif card == LoanCard.THE_FACELESS_MEN:
        _faceless_step(g, t, house, LoanStep.FACELESS_KNIGHT, -1)


# --- sellswords ---------------------------------------------------------------------------------


@njit
def sellsword_ok(g, t, house: int, u: int, a: int) -> bool:
    """Whether ``house`` may place a sellsword of type ``u`` in ``a``: an area it controls where
    the unit may stand (ships at sea or in a port, the others on land), a unit of its reserve
    (unit limits), a port holding fewer ships than it may, and its armies within supply with it
    (S&R ``PlaceSellswordsGameState.getValidUnitsForRegion``). An empty port is held by whoever
    holds its land area (S&R ``Region.getController``)."""
    if g.blocked[a]:
        return False
    if t.kind[a] == PORT and g.owner[a] < 0:
        if controller(g, t, t.port_land[a]) != house:
            return False
    elif controller(g, t, a) != house:
        return False
    if u == SHIP:
        if t.kind[a] != SEA and t.kind[a] != PORT:
            return False
        if t.kind[a] == PORT and g.units[a, SHIP] >= t.port_ships:
            return False
    elif t.kind[a] != LAND:
        return False
    if available(g, t, house, u) <= 0:
        return False
    return army_sizes_fit(g, t, house, g.supply[house], a, 1)


@njit
def _any_sellsword_place(g, t, house: int, u: int) -> bool:
    if available(g, t, house, u) <= 0:
        return False
    for a in range(t.n_areas):
        if sellsword_ok(g, t, house, u, a):
            return True
    return False


@njit
def _next_sellsword(g, t, house: int, card: int, k: int) -> None:
    """Ask where the card's ``k``-th sellsword goes, or the next one that has a place; nothing
    pending when none is left."""
    while k < SELLSWORDS.shape[1] and SELLSWORDS[card, k] >= 0:
        if _any_sellsword_place(g, t, house, SELLSWORDS[card, k]):
            ask(g, Decision.LOAN, house, LoanStep.SELLSWORD, card, k, -1)
            return
        k += 1


# --- castles, decks, units ------------------------------------------------------------------------


@njit
def _any_castle(g, t, other_than: int) -> bool:
    for a in range(t.n_areas):
        if a != other_than and castle_level(g, t, a) == 1:
            return True
    return False


@njit
def _deck_left(g, t, d: int) -> int:
    """Cards still to draw in Westeros deck ``d`` (3: deck IV, 8 players only)."""
    if d < 3:
        return max(0, DECK_SIZE - int(g.westeros_next[d]))
    if not t.loyalty_to_win:
        return 0
    return max(0, g.deck4.shape[0] - int(g.deck4_next))


@njit
def _arrange(deck, top: int, arrangement: int) -> None:
    """Spymaster: put the two cards at ``deck[top]``, ``deck[top + 1]`` where ``arrangement``
    says (``N_ARRANGEMENTS``), the cards between staying in their order."""
    size = deck.shape[0]
    x, y = deck[top], deck[top + 1]
    rest = deck[top + 2 :].copy()
    if arrangement <= 1:  # both on top
        first, second = (x, y) if arrangement == 0 else (y, x)
        deck[top], deck[top + 1] = first, second
        return
    if arrangement <= 3:  # one on top, one under
        up, down = (x, y) if arrangement == 2 else (y, x)
        deck[top] = up
        deck[top + 1 : size - 1] = rest
        deck[size - 1] = down
        return
    first, second = (x, y) if arrangement == 4 else (y, x)  # both under
    deck[top : size - 2] = rest
    deck[size - 2] = first
    deck[size - 1] = second


@njit
def _faceless_step(g, t, house: int, step: int, knight_area: int) -> None:
    """Ask for the Faceless Men's knight (then footman) where one may be destroyed; nothing
    pending when neither is left."""
    if step == LoanStep.FACELESS_KNIGHT:
        for a in range(t.n_areas):
            if g.units[a, KNIGHT] > 0:
                ask(g, Decision.LOAN, house, step, LoanCard.THE_FACELESS_MEN, 0, -1)
                return
        step = LoanStep.FACELESS_FOOTMAN
    for a in range(t.n_areas):
        if a != knight_area and g.units[a, FOOTMAN] > 0:
            ask(g, Decision.LOAN, house, step, LoanCard.THE_FACELESS_MEN, 0, knight_area)
            return


# --- the decision ---------------------------------------------------------------------------------


@njit
def loan_legal(g, t, mask) -> None:
    """The legal actions of the pending ``LOAN`` decision."""
    step = g.ctx[0]
    house = g.pending_house
    if step == LoanStep.POWER_IMPROVEMENT or step == LoanStep.SUPPLY_IMPROVEMENT:
        for a in range(t.n_areas):
            mask[a] = _improvable(g, t, a) and a != g.ctx[3]  # (Loyal Maester: two areas)
    elif step == LoanStep.SELLSWORD:
        u = SELLSWORDS[g.ctx[1], g.ctx[2]]
        for a in range(t.n_areas):
            mask[a] = sellsword_ok(g, t, house, u, a)
        mask[ACT_NONE] = True
    elif step == LoanStep.UPGRADE or step == LoanStep.DEGRADE:
        for a in range(t.n_areas):
            mask[a] = castle_level(g, t, a) == 1
    elif step == LoanStep.IMPROVEMENT_KIND:
        mask[SUPPLY_KIND] = True
        mask[POWER_KIND] = True
    elif step == LoanStep.SPY_DECK:
        for d in range(N_DECKS):
            mask[d] = _deck_left(g, t, d) > 0
    elif step == LoanStep.SPY_ARRANGE:
        for k in range(N_ARRANGEMENTS):
            mask[k] = True
    elif step == LoanStep.FACELESS_KNIGHT:
        for a in range(t.n_areas):
            mask[a] = g.units[a, KNIGHT] > 0
        mask[ACT_NONE] = True
    elif step == LoanStep.FACELESS_FOOTMAN:
        for a in range(t.n_areas):
            mask[a] = g.units[a, FOOTMAN] > 0 and a != g.ctx[3]
        mask[ACT_NONE] = True


@njit
def loan_apply(g, t, house: int, action: int) -> None:
    """Apply a legal ``LOAN`` action; ask the card's next choice, if any."""
    step = g.ctx[0]
    card = int(g.ctx[1])
    count = int(g.ctx[2])
    if step == LoanStep.POWER_IMPROVEMENT:
        add_improvement(g, action, crowns=1)
        gain_power(g, t, house, POWER_TAKEN[1])
    elif step == LoanStep.SELLSWORD:
        if action != ACT_NONE:
            add_unit(g, action, house, SELLSWORDS[card, count])
        _next_sellsword(g, t, house, card, count + 1)
    elif step == LoanStep.SUPPLY_IMPROVEMENT:
        add_improvement(g, action, barrels=1)
        if card == LoanCard.SAVVY_STEWARD:
            g.supply[house] = min(int(g.supply[house]) + 1, int(t.supply_max))
        elif count + 1 < IMPROVEMENTS_PUT:
            ask(g, Decision.LOAN, house, step, card, count + 1, action)
    elif step == LoanStep.UPGRADE:
        add_improvement(g, action, castle=1)
        if count + 1 < IMPROVEMENTS_PUT and _any_castle(g, t, -1):
            ask(g, Decision.LOAN, house, step, card, count + 1, action)
    elif step == LoanStep.DEGRADE:
        add_improvement(g, action, castle=-1)
        ask(g, Decision.LOAN, house, LoanStep.IMPROVEMENT_KIND, card, 0, action)
    elif step == LoanStep.IMPROVEMENT_KIND:
        a = g.ctx[3]
        if action == POWER_KIND:
            add_improvement(g, a, crowns=1)
        else:
            add_improvement(g, a, barrels=1)
    elif step == LoanStep.SPY_DECK:
        if _deck_left(g, t, action) >= 2:
            ask(g, Decision.LOAN, house, LoanStep.SPY_ARRANGE, card, 0, action)
        # (one card left: it stays on top, S&R ``ResolveSpymasterGameState``)
    elif step == LoanStep.SPY_ARRANGE:
        d = int(g.ctx[3])
        if d < 3:
            _arrange(g.westeros[d], int(g.westeros_next[d]), action)
        else:
            _arrange(g.deck4, int(g.deck4_next), action)
    elif step == LoanStep.FACELESS_KNIGHT:
        knight_area = -1
        if action != ACT_NONE:
            remove_unit(g, t, action, KNIGHT)  # (an emptied area: order, owner, ports, B12)
            knight_area = action
        _faceless_step(g, t, house, LoanStep.FACELESS_FOOTMAN, knight_area)
    elif step == LoanStep.FACELESS_FOOTMAN:
        if action != ACT_NONE:
            remove_unit(g, t, action, FOOTMAN)


__all__ = [
    "N_ARRANGEMENTS",
    "SELLSWORDS",
    "LoanCard",
    "LoanStep",
    "castle_level",
    "loan_apply",
    "loan_legal",
    "sellsword_ok",
    "start_loan",
]
