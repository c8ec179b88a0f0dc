"""The Westeros phase's decisions: their legal options and applying an answer (the entry points
``westeros_legal`` and ``westeros_apply``)."""

from __future__ import annotations

from gotsim.engine.area_bits import has_bit
from gotsim.engine.board_state import (
    ask,
)
from gotsim.engine.state import (
    ACT_NONE,
    Decision,
    U,
)
from gotsim.engine.tables import WesterosCard, WildlingCard
from gotsim.engine.westeros.bidding import hand_out, hand_out_ok, place, top_unplaced_bid
from gotsim.engine.westeros.common import (
    E_CLASH_START,
    E_DONE,
    E_GAME_OF_THRONES,
    E_MUSTER_START,
    E_SUPPLY,
    MAX_BID,
    NO_DEFENSE,
    NO_MARCH_PLUS,
    ROLE_HIGHEST,
    TC_KING_BOTTOM,
    TC_KING_TOP,
    WILDLINGS,
    WILDLINGS_1E,
    is_participant,
    is_westeros_decision,
    only_unit_type,
    remove_unit,
    unit_types_in,
)
from gotsim.engine.westeros.muster import apply_muster, muster_actions, muster_bit
from gotsim.engine.westeros.supply import after_cut, cut_useful
from gotsim.engine.westeros.wildlings import (
    apply_crow_killers,
    apply_destroy_unit,
    apply_track_choice,
    apply_wildling_choice,
    destroy_and_continue,
    destroy_area_ok,
    highest_tracks,
    horde_area_ok,
    is_candidate,
)
from gotsim.jit import njit
from gotsim.rules.ids import FOOTMAN, KNIGHT

# --- legal options and applying them --------------------------------------------------------------


@njit
def _legal_wildling_choice(g, t, house: int, mask) -> None:
    card = g.ctx[0]
    if card == WildlingCard.PREEMPTIVE_RAID:
        mask[0] = True
        mask[1] = True
    elif card == WildlingCard.MASSING_ON_THE_MILKWATER:
        for slot in range(7):
            mask[slot] = (g.hand[house] >> slot) & 1 == 1
    elif card == WildlingCard.MAMMOTH_RIDERS or card == WILDLINGS_1E:
        for slot in range(7):
            mask[slot] = (g.discard[house] >> slot) & 1 == 1
        mask[ACT_NONE] = True
    elif card == WildlingCard.THE_HORDE_DESCENDS:
        for a in range(t.n_areas):
            mask[a] = horde_area_ok(g, t, house, a)
        mask[ACT_NONE] = True


@njit
def _legal_track_choice(g, mask) -> None:
    code = g.ctx[0]
    if code == TC_KING_TOP:
        for tr in range(3):
            mask[tr] = True
    elif code == TC_KING_BOTTOM:
        mask[1] = True
        mask[2] = True
    else:
        tracks = highest_tracks(g, g.ctx[1])
        for tr in range(3):
            mask[tr] = (tracks >> tr) & 1 == 1


@njit
def _legal_tie(g, t, mask) -> None:
    if g.ctx[0] == WILDLINGS:
        highest = g.ctx[1] == ROLE_HIGHEST
        for house in range(g.bid.shape[0]):
            mask[house] = is_candidate(g, house, highest)
    else:
        best = top_unplaced_bid(g)
        for house in range(g.bid.shape[0]):
            mask[house] = (
                is_participant(g, house)
                and not (g.placed_mask >> house) & 1
                and g.bid[house] == best
            )


@njit
def westeros_legal(g, t, mask) -> bool:
    """Mark the legal actions of a pending decision of this module's kinds and return True;
    return False (mask untouched) for any other kind."""
    kind = g.pending
    if not is_westeros_decision(kind):
        return False
    mask[:] = False
    house = g.pending_house
    if kind == Decision.MUSTER:
        area = g.ctx[0]
        points = g.ctx[1]
        allowed = muster_actions(g, t, house, area, points)
        for action in range(ACT_NONE):
            bit = muster_bit(action)
            mask[action] = bit >= 0 and has_bit(allowed, bit)
        mask[ACT_NONE] = True
    elif kind == Decision.SUPPLY_CUT:
        for a in range(t.n_areas):
            mask[a] = cut_useful(g, t, house, a)
    elif kind == Decision.SUPPLY_CUT_UNIT or kind == Decision.DESTROY_UNIT_TYPE:
        a = g.ctx[0]
        for u in range(U):
            mask[u] = g.units[a, u] > 0
    elif kind == Decision.BID:
        for b in range(min(g.power[house], MAX_BID) + 1):
            mask[b] = True
    elif kind == Decision.TIE_ORDER:
        _legal_tie(g, t, mask)
    elif kind == Decision.WESTEROS_CHOICE:
        mask[0] = True
        mask[1] = True
        mask[2] = g.ctx[0] != WesterosCard.THE_BURDEN_OF_POWER  # two options only
    elif kind == Decision.WILDLING_CHOICE:
        _legal_wildling_choice(g, t, house, mask)
    elif kind == Decision.DESTROY_UNIT:
        for a in range(t.n_areas):
            mask[a] = destroy_area_ok(g, t, house, a, g.ctx[1])
    elif kind == Decision.CROW_KILLERS:
        u = FOOTMAN if g.ctx[0] == ROLE_HIGHEST else KNIGHT
        for a in range(t.n_areas):
            mask[a] = g.owner[a] == house and g.units[a, u] > 0
        if g.ctx[0] == ROLE_HIGHEST:
            mask[ACT_NONE] = True
    elif kind == Decision.TRACK_CHOICE:
        _legal_track_choice(g, mask)
    elif kind == Decision.TARGARYEN_BID:
        for h in range(g.bid.shape[0]):
            mask[h] = hand_out_ok(g, h)
    return True


@njit
def _apply_westeros_choice(g, action: int) -> None:
    """A Throne of Blades, Dark Wings, Dark Words, Put to the Sword, The Burden of Power (0 the
    wildling threat to 0, 1 every house musters)."""
    card = g.ctx[0]
    if card == WesterosCard.A_THRONE_OF_BLADES:
        g.westeros_effect = E_SUPPLY if action == 0 else (E_MUSTER_START if action == 1 else E_DONE)
    elif card == WesterosCard.DARK_WINGS_DARK_WORDS:
        g.westeros_effect = (
            E_CLASH_START if action == 0 else (E_GAME_OF_THRONES if action == 1 else E_DONE)
        )
    elif card == WesterosCard.THE_BURDEN_OF_POWER:
        if action == 0:
            g.threat = 0
            g.westeros_effect = E_DONE
        else:
            g.westeros_effect = E_MUSTER_START
    else:  # Put to the Sword
        if action == 0:
            g.restrict |= NO_DEFENSE
        elif action == 1:
            g.restrict |= NO_MARCH_PLUS
        g.westeros_effect = E_DONE


@njit
def westeros_apply(g, t, kind: int, house: int, action: int) -> None:
    """Apply a legal ``action`` of ``house`` to a decision of ``kind`` (``g.pending`` already
    cleared, ``g.ctx`` still that decision's). Follow-up decisions of the same house are asked
    here; loops resume in the drivers."""
    if kind == Decision.BID:
        g.bid[house] = action
    elif kind == Decision.TARGARYEN_BID:
        hand_out(g, action)
    elif kind == Decision.TIE_ORDER:
        if g.ctx[0] == WILDLINGS:
            g.wildling_chosen = action
        else:
            place(g, action)
    elif kind == Decision.WESTEROS_CHOICE:
        _apply_westeros_choice(g, action)
    elif kind == Decision.WILDLING_CHOICE:
        apply_wildling_choice(g, t, house, action)
    elif kind == Decision.MUSTER:
        apply_muster(g, t, house, action)
    elif kind == Decision.SUPPLY_CUT:
        if unit_types_in(g, action) > 1:
            ask(g, Decision.SUPPLY_CUT_UNIT, house, action)
        else:
            remove_unit(g, t, action, only_unit_type(g, action))
            after_cut(g, t, house)
    elif kind == Decision.SUPPLY_CUT_UNIT:
        remove_unit(g, t, g.ctx[0], action)
        after_cut(g, t, house)
    elif kind == Decision.DESTROY_UNIT:
        apply_destroy_unit(g, t, house, action)
    elif kind == Decision.DESTROY_UNIT_TYPE:
        destroy_and_continue(g, t, house, g.ctx[0], action, g.ctx[1], g.ctx[2])
    elif kind == Decision.CROW_KILLERS:
        apply_crow_killers(g, t, house, action)
    elif kind == Decision.TRACK_CHOICE:
        apply_track_choice(g, t, action)
