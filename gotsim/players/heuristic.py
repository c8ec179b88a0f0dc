"""The compiled heuristic policy: ``heuristic_action`` answers any pending decision with a legal
action, from what the deciding house may see, steered by its parameter row.

Each decision kind has its own scorer (``orders``, ``marching``, ``fighting``, ``westeros``);
plans that span several decisions live in the game's memo (``gotsim.players.memo``). Ties and
the rare decision a scorer cannot settle fall back on the house's own random stream
(``g.rng[1 + house]``), so a game stays a function of its seed.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine.machine import apply_legal, legal, order_allowed
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import ACT_NONE, N_ACTIONS, Decision
from gotsim.engine.vassals import deciding_house
from gotsim.jit import njit
from gotsim.players import fighting as fi
from gotsim.players import iron_bank as ib
from gotsim.players import loans as ln
from gotsim.players import loyalty as lo
from gotsim.players import marching as ma
from gotsim.players import objectives as ob
from gotsim.players import one_time as ot
from gotsim.players import orders as od
from gotsim.players import raids as ra
from gotsim.players import vassals as vs
from gotsim.players import westeros as we
from gotsim.players.params import HEURISTIC
from gotsim.players.view import init_memo


@njit
def _choose(g, t, house: int, mask, params, memo) -> int:
    kind = g.pending
    if kind == Decision.PLACE_ORDER:
        return od.place_order(g, t, house, mask, params, memo)
    if kind == Decision.MARCH_UNIT:
        return ma.march_unit(g, t, house, mask, params, memo)
    if kind == Decision.MARCH_FROM:
        return ma.march_from(g, t, house, mask, params, memo)
    if kind == Decision.RAID_FROM:
        return ra.raid_from(g, t, house, mask, params, memo)
    if kind == Decision.RAID_TARGET:
        return ra.raid_target(g, t, house, mask, params, memo)
    if kind == Decision.LEAVE_POWER:
        return ma.leave_power(g, t, house, mask, params, memo)
    if kind == Decision.HOUSE_CARD:
        return fi.house_card(g, t, house, mask, params, memo)
    if kind == Decision.MUSTER:
        return we.muster(g, t, house, mask, params, memo)
    if kind == Decision.BID:
        if t.dragons and house == lo.TARGARYEN and g.ctx[0] < 3:  # its Clash of Kings bid
            return lo.clash_bid(g, t, mask)
        return we.bid(g, t, house, mask, params, memo)
    if kind == Decision.TARGARYEN_BID:
        return lo.hand_out_to(g, t, mask)
    if kind == Decision.TIE_ORDER:
        return we.tie_order(g, t, house, mask, params, memo)
    if kind == Decision.RAVEN:
        return ra.raven(g, t, house, mask, params, memo)
    if kind == Decision.RAVEN_AREA:
        return ra.raven_area(g, t, house, mask, params, memo)
    if kind == Decision.RAVEN_ORDER:
        return ra.raven_order(g, t, house, mask, params, memo)
    if kind == Decision.RAVEN_BURY:
        return ra.raven_bury(g, t, house, mask, params, memo)
    if kind == Decision.SUPPORT_SIDE:
        return fi.support_side(g, t, house, mask, params, memo)
    if kind == Decision.TYRION:
        return fi.tyrion(g, t, house, mask, params, memo)
    if kind == Decision.AERON:
        return fi.aeron(g, t, house, mask, params, memo)
    if kind == Decision.QUEEN_OF_THORNS:
        return fi.queen_of_thorns(g, t, house, mask, params, memo)
    if kind == Decision.DORAN:
        return fi.doran(g, t, house, mask, params, memo)
    if kind == Decision.BLADE:
        return fi.blade(g, t, house, mask, params, memo)
    if kind == Decision.CASUALTY:
        return fi.casualty(g, t, house, mask, params, memo)
    if kind == Decision.RETREAT:
        return fi.retreat(g, t, house, mask, params, memo)
    if kind == Decision.RENLY:
        return fi.renly(g, t, house, mask, params, memo)
    if kind == Decision.CERSEI:
        return fi.cersei(g, t, house, mask, params, memo)
    if kind == Decision.PATCHFACE:
        return fi.patchface(g, t, house, mask, params, memo)
    if kind == Decision.CARD_ABILITY:
        return fi.card_ability(g, t, house, mask, params, memo)
    if kind == Decision.SUPPLY_CUT:
        return we.supply_cut(g, t, house, mask, params, memo)
    if kind == Decision.SUPPLY_CUT_UNIT or kind == Decision.DESTROY_UNIT_TYPE:
        return we.cheapest_unit(mask)
    if kind == Decision.WESTEROS_CHOICE:
        return we.westeros_choice(g, t, house, mask, params, memo)
    if kind == Decision.WILDLING_CHOICE:
        return we.wildling_choice(g, t, house, mask, params, memo)
    if kind == Decision.DESTROY_UNIT:
        return we.destroy_unit(g, t, house, mask, params, memo)
    if kind == Decision.CROW_KILLERS:
        return we.crow_killers(g, t, house, mask, params, memo)
    if kind == Decision.TRACK_CHOICE:
        return we.track_choice(g, t, house, mask, params, memo)
    if kind == Decision.CONSOLIDATE_CHOICE:
        return we.consolidate_choice(g, t, house, mask, params, memo)
    if kind == Decision.ONE_TIME_ORDER:
        return ot.one_time_order(g, t, house, mask, params, memo)
    if kind == Decision.ONE_TIME_AREA:
        return ot.one_time_area(g, t, house, mask, params, memo)
    if kind == Decision.ONE_TIME_TARGET:
        return ot.one_time_target(g, t, house, mask, params, memo)
    if kind == Decision.ONE_TIME_MOVE:
        return ot.one_time_move(g, t, house, mask, params, memo)
    if kind == Decision.OBJECTIVE:
        return ob.objective_choice(g, t, house, mask, params, memo)
    if kind == Decision.CLAIM_VASSAL:
        return vs.claim_choice(g, t, house, mask)
    if kind == Decision.GIFT_POWER:
        return ACT_NONE  # never gives power away (docs/players.md, modelling)
    if kind == Decision.LOYALTY:
        return lo.loyalty_choice(g, t, house, mask, params, memo)
    if kind == Decision.LOAN:
        return ln.loan_choice(g, t, house, mask, params, memo)
    if kind == Decision.BUY_LOAN:
        return ib.buy_choice(g, t, house, mask)
    if kind == Decision.PAY_DEBT:
        return ib.debt_choice(g, t, house, mask)
    return -1


@njit
def heuristic_action(g, t, house: int, mask, params, memo) -> int:
    """A legal action of ``house`` for the pending decision of game ``g`` (``mask``: its legal
    actions, from ``machine.legal``; ``params``: the house's parameter row; ``memo``: the game's
    heuristic memo, ``gotsim.players.memo.new_memos``)."""
    if not memo.ready:
        init_memo(t, memo)
    for k in range(params.shape[0]):  # (the batch loop put them there; a Python caller not)
        memo.params[house, k] = params[k]
    action = _choose(g, t, house, mask, params, memo)
    if 0 <= action < N_ACTIONS and mask[action]:
        return action
    return pick_from_mask(g.rng, 1 + house, mask)


@njit
def heuristic_place_order(g, t, house: int, mask, params, memo) -> int:
    """``heuristic_action`` for a pending PLACE_ORDER, the legal mask computed (into ``mask``)
    only when the planned order is not allowed: the planned order is checked on its own
    (``order_allowed``, what the mask holds), so the action is the same."""
    if not memo.ready:
        init_memo(t, memo)
    k = od.planned_order(g, t, house, params, memo)
    if k >= 0 and order_allowed(g, t, house, g.ctx[0], k, -1):
        return k
    legal(g, t, mask)
    return heuristic_action(g, t, house, mask, params, memo)


@njit
def heuristic_march_unit(g, t, house: int, params, memo) -> int:
    """``heuristic_action`` for a pending MARCH_UNIT, without the legal mask (the batch loop
    skips computing it): the same action, its one planned destination checked on its own."""
    if not memo.ready:
        init_memo(t, memo)
    return ma.march_unit_unmasked(g, t, house, params, memo)


@njit
def heuristic_march_from(g, t, house: int, params, memo) -> int:
    """``heuristic_action`` for a pending MARCH_FROM, without the legal mask: the same area,
    the house's march orders looked at directly (one is always there when it is asked)."""
    if not memo.ready:
        init_memo(t, memo)
    return ma.march_from_unmasked(g, t, house, params, memo)


@njit
def policy_action(g, t, house: int, heuristic: bool, mask, memo) -> int:
    """The action of ``house`` for the pending decision in the batch loops: the heuristic with
    ``memo.params[house]`` (``heuristic``) or uniform random; -1 when the decision has no legal
    action. ``mask`` is work space."""
    if heuristic and g.pending == Decision.MARCH_UNIT:
        # the heuristic checks the one destination it wants (staying is always legal, so the
        # mask would never be empty): no mask over the whole board per unit
        return heuristic_march_unit(g, t, house, memo.params[house], memo)
    if heuristic and g.pending == Decision.MARCH_FROM:
        return heuristic_march_from(g, t, house, memo.params[house], memo)  # (likewise)
    if heuristic and g.pending == Decision.PLACE_ORDER:
        # likewise the one order it planned (an order is asked for only where one is allowed);
        # the mask is made only when that order cannot be placed
        return heuristic_place_order(g, t, house, mask, memo.params[house], memo)
    if legal(g, t, mask) == 0:
        return -1
    if heuristic:
        return heuristic_action(g, t, house, mask, memo.params[house], memo)
    return pick_from_mask(g.rng, 1 + house, mask)


@njit
def load_params(memo, params) -> None:
    """Copy the houses' parameter rows (H, N_PARAMS) into the memo, where ``policy_action``
    reads them (arrays taken from a record carry no reference count, which every call taking
    them would otherwise update)."""
    for h in range(params.shape[0]):
        for k in range(params.shape[1]):
            memo.params[h, k] = params[h, k]


@njit(inline="always")
def policy_turn(g, t, kinds, mask, memo) -> bool:
    """Answer the pending decision with the deciding house's policy (``kinds[house]``: RANDOM or
    HEURISTIC, ``gotsim.players.params``) and apply it; False when it has no legal action."""
    # int64, the type Python callers pass too (numba's int() would keep the record's int8): one
    # compiled heuristic for both, not two
    house = np.int64(g.pending_house)
    who = np.int64(deciding_house(g, t, house))  # a vassal: its commander's policy (V2)
    action = policy_action(g, t, house, kinds[who] == HEURISTIC, mask, memo)
    if action < 0:
        return False
    if t.vassals and kinds[who] == HEURISTIC:
        action = vs.command_filter(g, t, house, action, mask)
    apply_legal(g, t, action)
    return True


__all__ = [
    "heuristic_action",
    "heuristic_march_from",
    "heuristic_march_unit",
    "heuristic_place_order",
    "load_params",
    "policy_action",
    "policy_turn",
]
