"""The wildlings: destroying units as a penalty, every wildling card's effect, and the attack
(bidding, the lowest and highest bidders, the card, the threat afterwards)."""

from __future__ import annotations

from gotsim.engine.board_state import (
    ask,
    gain_power,
    is_fort,
    lose_power,
    muster_points_at,
    track_position,
    unit_count,
)
from gotsim.engine.state import (
    ACT_NONE,
    H_ATTACK_CARD,
    H_ATTACK_RESULT,
    H_ATTACKS,
    Decision,
    U,
)
from gotsim.engine.tables import WildlingCard
from gotsim.engine.vassals import bidders_mask, dominance_holder
from gotsim.engine.westeros.bidding import bidding_step, pay_bids, start_bidding
from gotsim.engine.westeros.common import (
    A_BIDDING,
    A_CHOOSE,
    A_EFFECT,
    A_IDLE,
    ALL_CARDS,
    ALL_HOUSES,
    R_ANY,
    R_CASTLE2,
    R_POINTS,
    RESULT_NESTED,
    RESULT_NW_WON,
    ROLE_HIGHEST,
    ROLE_LOWEST,
    ROLE_OTHER,
    SUB_CHOSEN,
    SUB_END,
    SUB_OTHERS,
    SUB_RECONCILE,
    TC_KING_BOTTOM,
    TC_KING_TOP,
    TC_PREEMPTIVE,
    WILDLINGS,
    WILDLINGS_1E,
    all_units,
    available,
    hand_size,
    is_participant,
    move_on_track,
    only_unit_type,
    remove_unit,
    replace_unit,
    unit_types_in,
    units_of,
)
from gotsim.engine.westeros.muster import can_muster, start_muster
from gotsim.engine.westeros.supply import reconcile_step
from gotsim.jit import njit
from gotsim.rules.ids import FOOTMAN, KNIGHT

# --- destroying units (wildling penalties) --------------------------------------------------------


@njit
def destroy_area_ok(g, t, house: int, a: int, where: int) -> bool:
    if g.owner[a] != house or unit_count(g, a) == 0:
        return False
    if where == R_ANY or where == R_POINTS:
        return True
    if where == R_CASTLE2:
        return is_fort(g, t, a) and unit_count(g, a) >= 2
    return a == where


@njit
def _any_destroy_area(g, t, house: int, where: int) -> bool:
    for a in range(t.n_areas):
        if destroy_area_ok(g, t, house, a, where):
            return True
    return False


@njit
def _start_destroy(g, t, house: int, n: int, where: int) -> None:
    """``house`` destroys ``n`` of its units (as many as it has), one DESTROY_UNIT at a time."""
    cap = all_units(g, t, house)
    if where == R_POINTS:  # units are worth their mustering cost (a 1e siege engine: K6)
        cap = 0
        for u in range(U):
            cap += t.muster_cost[u] * units_of(g, t, house, u)
    n = min(n, cap)
    if n > 0 and _any_destroy_area(g, t, house, where):
        ask(g, Decision.DESTROY_UNIT, house, n, where)


@njit
def destroy_and_continue(g, t, house: int, a: int, u: int, left: int, where: int) -> None:
    remove_unit(g, t, a, u)
    left -= t.muster_cost[u] if where == R_POINTS else 1
    if where == R_CASTLE2:
        where = a  # both units come from the same castle/stronghold area
    if left > 0 and _any_destroy_area(g, t, house, where):
        ask(g, Decision.DESTROY_UNIT, house, left, where)


@njit
def apply_destroy_unit(g, t, house: int, a: int) -> None:
    left = g.ctx[0]
    where = g.ctx[1]
    if unit_types_in(g, a) > 1:
        ask(g, Decision.DESTROY_UNIT_TYPE, house, a, left)
        g.ctx[2] = where
    else:
        destroy_and_continue(g, t, house, a, only_unit_type(g, a), left, where)


# --- wildling card effects ------------------------------------------------------------------------


@njit
def _has_castle_army(g, t, house: int) -> bool:
    return _any_destroy_area(g, t, house, R_CASTLE2)


@njit
def _knights_to_footmen(g, t, house: int) -> None:
    for a in range(t.n_areas):
        if g.owner[a] == house:
            while g.units[a, KNIGHT] > 0:
                replace_unit(g, a, KNIGHT, FOOTMAN)


@njit
def _destroy_all_knights(g, t, house: int) -> None:
    for a in range(t.n_areas):
        while g.owner[a] == house and g.units[a, KNIGHT] > 0:
            remove_unit(g, t, a, KNIGHT)


@njit
def _crow_killers_lowest(g, t, house: int) -> None:
    """Every knight becomes a footman; the knights no footman is left for are destroyed (the
    house picks which knights get the footmen)."""
    knights = units_of(g, t, house, KNIGHT)
    spare = available(g, t, house, FOOTMAN)
    if knights == 0:
        return
    if knights <= spare:
        _knights_to_footmen(g, t, house)
    elif spare <= 0:
        _destroy_all_knights(g, t, house)
    else:
        ask(g, Decision.CROW_KILLERS, house, ROLE_LOWEST, spare)


@njit
def _crow_killers_other(g, t, house: int) -> None:
    """2 knights of the house's choice become footmen (destroyed when no footman is left)."""
    knights = units_of(g, t, house, KNIGHT)
    n = min(2, knights)
    if n == 0:
        return
    if knights <= 2 and knights <= available(g, t, house, FOOTMAN):
        _knights_to_footmen(g, t, house)  # nothing to choose
    else:
        ask(g, Decision.CROW_KILLERS, house, ROLE_OTHER, n)


@njit
def _crow_killers_highest(g, t, house: int) -> None:
    """May upgrade up to 2 footmen (anywhere) to knights."""
    n = min(2, units_of(g, t, house, FOOTMAN), available(g, t, house, KNIGHT))
    if n > 0:
        ask(g, Decision.CROW_KILLERS, house, ROLE_HIGHEST, n)


@njit
def apply_crow_killers(g, t, house: int, action: int) -> None:
    role = g.ctx[0]
    left = g.ctx[1] - 1
    if role == ROLE_HIGHEST:
        if action == ACT_NONE:
            return
        replace_unit(g, action, FOOTMAN, KNIGHT)
        if left > 0 and units_of(g, t, house, FOOTMAN) > 0 and available(g, t, house, KNIGHT) > 0:
            ask(g, Decision.CROW_KILLERS, house, role, left)
    elif role == ROLE_LOWEST:
        replace_unit(g, action, KNIGHT, FOOTMAN)
        if left > 0:
            ask(g, Decision.CROW_KILLERS, house, role, left)
        else:
            _destroy_all_knights(g, t, house)  # no footman left for them
    else:
        if available(g, t, house, FOOTMAN) > 0:
            replace_unit(g, action, KNIGHT, FOOTMAN)
        else:
            remove_unit(g, t, action, KNIGHT)
        if left > 0 and units_of(g, t, house, KNIGHT) > 0:
            ask(g, Decision.CROW_KILLERS, house, role, left)


@njit
def _massing_lowest(g, t, house: int) -> None:
    """With 2+ cards in hand, discard every card of the highest printed strength — unless all the
    cards share it (S&R: then none)."""
    if hand_size(g, house) < 2:
        return
    best = -1
    low = 99
    for slot in range(7):
        if g.hand[house] & (1 << slot):
            s = t.card_strength[t.deck_card[house, slot]]
            best = max(best, s)
            low = min(low, s)
    if low == best:
        return
    for slot in range(7):
        if g.hand[house] & (1 << slot) and t.card_strength[t.deck_card[house, slot]] == best:
            g.hand[house] = g.hand[house] & (ALL_CARDS ^ (1 << slot))
            g.discard[house] = g.discard[house] | (1 << slot)


@njit
def horde_area_ok(g, t, house: int, a: int) -> bool:
    points = muster_points_at(g, t, a)
    return points > 0 and can_muster(g, t, house, a, points)


@njit
def _any_horde_area(g, t, house: int) -> bool:
    for a in range(t.n_areas):
        if horde_area_ok(g, t, house, a):
            return True
    return False


@njit
def _top_of_all(g, house: int) -> bool:
    return g.track[0, 0] == house and g.track[1, 0] == house and g.track[2, 0] == house


@njit
def highest_tracks(g, house: int) -> int:
    """Bit mask of the tracks on which ``house`` stands highest."""
    best = min(
        track_position(g, 0, house), track_position(g, 1, house), track_position(g, 2, house)
    )
    mask = 0
    for tr in range(3):
        if track_position(g, tr, house) == best:
            mask |= 1 << tr
    return mask


@njit
def _first_bit(mask: int) -> int:
    for i in range(8):
        if (mask >> i) & 1:
            return i
    return -1


@njit
def _drop_two(g, t, track: int, house: int) -> None:
    move_on_track(g, t, track, house, track_position(g, track, house) + 2)


@njit
def _lowest_effect(g, t, card: int, house: int) -> None:
    """The lowest bidder's penalty after a wildling victory."""
    if card == WildlingCard.PREEMPTIVE_RAID:
        ask(g, Decision.WILDLING_CHOICE, house, card, ROLE_LOWEST)
    elif card == WILDLINGS_1E:  # units worth 4 mustering points
        _start_destroy(g, t, house, 4, R_POINTS)
    elif card == WildlingCard.CROW_KILLERS:
        _crow_killers_lowest(g, t, house)
    elif card == WildlingCard.RATTLESHIRTS_RAIDERS:
        g.supply[house] = max(0, g.supply[house] - 2)
    elif card == WildlingCard.MASSING_ON_THE_MILKWATER:
        _massing_lowest(g, t, house)
    elif card == WildlingCard.A_KING_BEYOND_THE_WALL:
        for tr in range(3):
            move_on_track(g, t, tr, house, t.players - 1)
    elif card == WildlingCard.MAMMOTH_RIDERS:
        _start_destroy(g, t, house, 3, R_ANY)
    elif card == WildlingCard.THE_HORDE_DESCENDS:
        _start_destroy(g, t, house, 2, R_CASTLE2 if _has_castle_army(g, t, house) else R_ANY)
    elif card == WildlingCard.SKINCHANGER_SCOUT:
        lose_power(g, house, g.power[house])


@njit
def _other_effect(g, t, card: int, house: int) -> None:
    """The everyone-else penalty after a wildling victory (each house in turn order)."""
    if card == WILDLINGS_1E:  # units worth 2 mustering points
        _start_destroy(g, t, house, 2, R_POINTS)
    elif card == WildlingCard.CROW_KILLERS:
        _crow_killers_other(g, t, house)
    elif card == WildlingCard.RATTLESHIRTS_RAIDERS:
        g.supply[house] = max(0, g.supply[house] - 1)
    elif card == WildlingCard.MASSING_ON_THE_MILKWATER:
        if hand_size(g, house) >= 2:
            ask(g, Decision.WILDLING_CHOICE, house, card, ROLE_OTHER)
    elif card == WildlingCard.A_KING_BEYOND_THE_WALL:
        last = t.players - 1
        if track_position(g, 1, house) != last or track_position(g, 2, house) != last:
            ask(g, Decision.TRACK_CHOICE, house, TC_KING_BOTTOM, house)
    elif card == WildlingCard.MAMMOTH_RIDERS:
        _start_destroy(g, t, house, 2, R_ANY)
    elif card == WildlingCard.THE_HORDE_DESCENDS:
        _start_destroy(g, t, house, 1, R_ANY)
    elif card == WildlingCard.SKINCHANGER_SCOUT:
        lose_power(g, house, 2)


@njit
def _highest_effect(g, t, card: int, house: int) -> None:
    """The highest bidder's reward after a Night's Watch victory (Preemptive Raid's second attack
    is started when the attack ends)."""
    if card == WILDLINGS_1E:  # may take one house card back from the discards
        if g.discard[house] != 0:
            ask(g, Decision.WILDLING_CHOICE, house, card, ROLE_HIGHEST)
    elif card == WildlingCard.CROW_KILLERS:
        _crow_killers_highest(g, t, house)
    elif card == WildlingCard.RATTLESHIRTS_RAIDERS:
        g.supply[house] = min(t.supply_max, g.supply[house] + 1)
    elif card == WildlingCard.MASSING_ON_THE_MILKWATER:
        g.hand[house] = g.hand[house] | g.discard[house]
        g.discard[house] = 0
    elif card == WildlingCard.A_KING_BEYOND_THE_WALL:
        if not _top_of_all(g, house):
            ask(g, Decision.TRACK_CHOICE, house, TC_KING_TOP, house)
    elif card == WildlingCard.MAMMOTH_RIDERS:
        if g.discard[house] != 0:
            ask(g, Decision.WILDLING_CHOICE, house, card, ROLE_HIGHEST)
    elif card == WildlingCard.THE_HORDE_DESCENDS:
        if _any_horde_area(g, t, house):
            ask(g, Decision.WILDLING_CHOICE, house, card, ROLE_HIGHEST)
    elif card == WildlingCard.SKINCHANGER_SCOUT:
        gain_power(g, t, house, g.bid[house])


@njit
def apply_wildling_choice(g, t, house: int, action: int) -> None:
    card = g.ctx[0]
    if card == WildlingCard.PREEMPTIVE_RAID:
        if action == 0:
            _start_destroy(g, t, house, 2, R_ANY)
        else:
            tracks = highest_tracks(g, house)
            if tracks & (tracks - 1):  # tied: the Iron Throne holder picks the track
                ask(g, Decision.TRACK_CHOICE, dominance_holder(g, t, 0), TC_PREEMPTIVE, house)
            else:
                _drop_two(g, t, _first_bit(tracks), house)
    elif card == WildlingCard.MASSING_ON_THE_MILKWATER:
        g.hand[house] = g.hand[house] & (ALL_CARDS ^ (1 << action))
        g.discard[house] = g.discard[house] | (1 << action)
    elif card == WildlingCard.MAMMOTH_RIDERS or card == WILDLINGS_1E:
        if action != ACT_NONE:
            g.discard[house] = g.discard[house] & (ALL_CARDS ^ (1 << action))
            g.hand[house] = g.hand[house] | (1 << action)
    elif card == WildlingCard.THE_HORDE_DESCENDS:
        if action != ACT_NONE:
            start_muster(g, t, house, action)


@njit
def apply_track_choice(g, t, action: int) -> None:
    code = g.ctx[0]
    who = g.ctx[1]
    if code == TC_KING_TOP:
        move_on_track(g, t, action, who, 0)
    elif code == TC_KING_BOTTOM:
        move_on_track(g, t, action, who, t.players - 1)
    else:
        _drop_two(g, t, action, who)


# --- the wildling attack --------------------------------------------------------------------------


@njit
def _begin_attack(g, t, strength: int, participants: int, nested: bool) -> None:
    start_bidding(g, WILDLINGS, participants)
    g.wildling_strength = strength
    g.wildling_card = -1
    g.wildling_chosen = -1
    g.attack_result = RESULT_NESTED if nested else 0
    g.attack_step = A_BIDDING
    g.attack_loop = 0
    g.attack_sub = SUB_CHOSEN


@njit
def start_wildling_attack(g, t, strength: int) -> None:
    """Start a wildling attack of ``strength``; every house in play bids. Run it with
    ``wildling_attack_step``."""
    _begin_attack(g, t, strength, bidders_mask(g, t), False)


@njit
def _nw_won(g) -> bool:
    return (g.attack_result & RESULT_NW_WON) != 0


@njit
def _extreme_bid(g, highest: bool) -> int:
    best = -1
    for house in range(g.bid.shape[0]):
        if is_participant(g, house):
            b = g.bid[house]
            if best < 0 or (b > best if highest else b < best):
                best = b
    return best


@njit
def is_candidate(g, house: int, highest: bool) -> bool:
    return is_participant(g, house) and g.bid[house] == _extreme_bid(g, highest)


@njit
def _reveal_wildling_card(g) -> int:
    """The top wildling card is revealed and goes to the bottom of the deck."""
    card = g.wildlings[0]
    n = g.wildlings.shape[0]
    for i in range(n - 1):
        g.wildlings[i] = g.wildlings[i + 1]
    g.wildlings[n - 1] = card
    return card


@njit
def _choose_bidder(g, t) -> bool:
    """Fix the lowest (wildlings won) or highest (Night's Watch won) bidder; a tie goes to the
    Iron Throne holder (TIE_ORDER), except where the card makes it moot. True when fixed."""
    if g.wildling_chosen >= 0:
        return True
    highest = _nw_won(g)
    count = 0
    first = -1
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0 and is_candidate(g, house, highest):
            count += 1
            if first < 0:
                first = house
    if count == 1 or g.wildling_card == WildlingCard.SILENCE_AT_THE_WALL:
        g.wildling_chosen = first
        return True
    ask(
        g,
        Decision.TIE_ORDER,
        dominance_holder(g, t, 0),
        WILDLINGS,
        ROLE_HIGHEST if highest else ROLE_LOWEST,
    )
    return False


@njit
def _end_attack(g, t) -> bool:
    """Threat: 0 after a Night's Watch victory, 4 lower (not below 0) after a wildling victory.
    Preemptive Raid won by the Night's Watch then attacks again at strength 6 without the highest
    bidder. True when the attack is over."""
    card = g.wildling_card
    row = min(max(g.game_round, 1), 10) - 1
    g.history[row, H_ATTACKS] += 1
    g.history[row, H_ATTACK_RESULT] = 1 if _nw_won(g) else 2
    g.history[row, H_ATTACK_CARD] = card if card != WILDLINGS_1E else -1
    if card == WILDLINGS_1E:
        g.threat = 0  # 1e: back to 0 whatever the outcome (D9)
    elif _nw_won(g):
        g.threat = 0
    else:
        g.threat = max(0, g.threat - t.threat_drop)
    nested = (g.attack_result & RESULT_NESTED) != 0
    if card == WildlingCard.PREEMPTIVE_RAID and _nw_won(g) and not nested:
        others = g.participants & (ALL_HOUSES ^ (1 << g.wildling_chosen))
        _begin_attack(g, t, 6, others, True)
        return False
    g.attack_step = A_IDLE
    return True


@njit
def _attack_effect_step(g, t) -> bool:
    card = g.wildling_card
    chosen = g.wildling_chosen
    sub = g.attack_sub
    if sub == SUB_CHOSEN:
        if _nw_won(g):
            g.attack_sub = SUB_END
            _highest_effect(g, t, card, chosen)
        else:
            g.attack_sub = SUB_OTHERS
            g.attack_loop = 0
            _lowest_effect(g, t, card, chosen)
    elif sub == SUB_OTHERS:
        if g.attack_loop >= t.players:
            g.attack_sub = SUB_RECONCILE
            g.recon_pos = 0
        else:
            house = g.track[0, g.attack_loop]
            g.attack_loop += 1
            if house >= 0 and house != chosen and is_participant(g, house):
                _other_effect(g, t, card, house)
    elif sub == SUB_RECONCILE:
        # Rattleshirt's Raiders lowered supply levels: armies are reduced as with Supply
        if card == WildlingCard.RATTLESHIRTS_RAIDERS and not reconcile_step(g, t):
            return False
        g.attack_sub = SUB_END
    else:
        return _end_attack(g, t)
    return False


@njit
def wildling_attack_step(g, t) -> bool:
    """Run the wildling attack in progress until a decision is pending (False) or it is over
    (True): secret bids, bids paid, card revealed, lowest/highest bidder fixed, the card's effect
    (lowest bidder first, then everyone else in turn order; or the highest bidder's reward)."""
    while g.pending == Decision.NONE:
        step = g.attack_step
        if step == A_IDLE:
            return True
        if step == A_BIDDING:
            if not bidding_step(g, t):
                return False
            total = pay_bids(g, t)
            if t.edition == 1:
                g.wildling_card = WILDLINGS_1E  # no wildling deck: a fixed outcome
            else:
                g.wildling_card = _reveal_wildling_card(g)
            if total >= g.wildling_strength:
                g.attack_result |= RESULT_NW_WON
            g.attack_step = A_CHOOSE
        elif step == A_CHOOSE:
            if not _choose_bidder(g, t):
                return False
            g.attack_step = A_EFFECT
            g.attack_sub = SUB_CHOSEN
        elif _attack_effect_step(g, t):
            return True
    return False
