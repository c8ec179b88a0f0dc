"""The Westeros phase's shared vocabulary: its constants (the values of its counters, card
effects, wildling roles) and the small helpers every step uses (units of a house,
hand size, moving a house on a track)."""

from __future__ import annotations

from gotsim.engine.board_state import (
    track_position,
    unit_count,
    vacate_and_settle,
)
from gotsim.engine.loyalty import keep_targaryen_last
from gotsim.engine.state import (
    Decision,
    H,
    Restriction,
    U,
)
from gotsim.jit import njit

WILDLINGS = 3  # BID / TIE_ORDER ctx0 for the wildling bidding (after the three Tracks)
MAX_BID = 62  # the largest bid an action number can express (the encoding, not a rule)
DECK_SIZE = 10
ALL_CARDS = 0x7F  # the 7 deck slots of a house (hand / discard bit masks)
ALL_HOUSES = (1 << H) - 1  # every house (bit masks of houses)

# westeros_step values
STEP_DRAW, STEP_ATTACK, STEP_CARDS, STEP_FINISH = range(4)
# westeros_effect values
E_START = 0
E_SUPPLY = 1  # set every house's supply level, then reconcile
E_RECONCILE = 2
E_MUSTER_START = 3
E_MUSTER = 4
E_GAME_OF_THRONES = 5
E_CLASH_START = 6
E_CLASH = 7
E_ATTACK = 8
E_WAIT = 9  # a WESTEROS_CHOICE is pending; its apply sets the next effect
E_DONE = 10
E_ATTACK_OVER = 11  # a wildling attack card is done: control is checked before the next card
# A Feast for Crows' deck I (``westeros.feast``)
E_RALLY_START = 12  # Rally the Men: mustering in castles only (not strongholds)
E_RALLY = 13
E_FAMINE = 14  # every house one space down the supply track, then reconcile
E_SHIFT_START = 15  # Shifting Ambitions: each house puts a card into the pool ...
E_SHIFT_PUT = 16
E_SHIFT_TAKE = 17  # ... then takes one from it
E_NEW_INFO = 18  # New Information: each house draws an objective card ...
E_NEW_INFO_RETURN = 19  # ... then returns one to the deck
# attack_step values
A_IDLE, A_BIDDING, A_CHOOSE, A_EFFECT = range(4)
# attack_sub values
SUB_CHOSEN, SUB_OTHERS, SUB_RECONCILE, SUB_END = range(4)

# attack_result bits
RESULT_NW_WON = 1
RESULT_NESTED = 2

# roles on a wildling card
ROLE_LOWEST, ROLE_OTHER, ROLE_HIGHEST = 0, 1, 2
# DESTROY_UNIT restrictions
R_ANY = -1
R_CASTLE2 = -2
R_POINTS = -3  # 1e wildling victory: anywhere, ctx0 counts mustering points (knight 2, else 1)
# the 1st edition's wildling attack has no card: this stands for its fixed outcome
# (``wildling_card``)
WILDLINGS_1E = 9
# TRACK_CHOICE contexts
TC_KING_TOP, TC_KING_BOTTOM, TC_PREEMPTIVE = 0, 1, 2

NO_DEFENSE = int(Restriction.NO_DEFENSE)
NO_MARCH_PLUS = int(Restriction.NO_MARCH_PLUS)
NO_RAID = int(Restriction.NO_RAID)
NO_SUPPORT = int(Restriction.NO_SUPPORT)
NO_CONSOLIDATE = int(Restriction.NO_CONSOLIDATE)
FOOTMEN_NO_SUPPORT = int(Restriction.FOOTMEN_NO_SUPPORT)

WESTEROS_DECISIONS = (
    int(Decision.MUSTER),
    int(Decision.SUPPLY_CUT),
    int(Decision.SUPPLY_CUT_UNIT),
    int(Decision.BID),
    int(Decision.TIE_ORDER),
    int(Decision.WESTEROS_CHOICE),
    int(Decision.WILDLING_CHOICE),
    int(Decision.DESTROY_UNIT),
    int(Decision.DESTROY_UNIT_TYPE),
    int(Decision.CROW_KILLERS),
    int(Decision.TRACK_CHOICE),
)


# --- small helpers ------------------------------------------------------------------------------


@njit
def is_westeros_decision(kind: int) -> bool:
    return Decision.MUSTER <= kind <= Decision.TRACK_CHOICE or kind == Decision.TARGARYEN_BID


@njit
def units_of(g, t, house: int, u: int) -> int:
    """Units of type ``u`` that ``house`` has on the board."""
    n = 0
    for a in range(t.n_areas):
        if g.owner[a] == house:
            n += g.units[a, u]
    return n


@njit
def available(g, t, house: int, u: int) -> int:
    """Units of type ``u`` left in the house's reserve (its unit limit minus those on the board)."""
    return t.unit_limits[house, u] - units_of(g, t, house, u)


@njit
def all_units(g, t, house: int) -> int:
    n = 0
    for a in range(t.n_areas):
        if g.owner[a] == house:
            n += unit_count(g, a)
    return n


@njit
def unit_types_in(g, a: int) -> int:
    n = 0
    for u in range(U):
        if g.units[a, u] > 0:
            n += 1
    return n


@njit
def only_unit_type(g, a: int) -> int:
    for u in range(U):
        if g.units[a, u] > 0:
            return u
    return -1


@njit
def add_unit(g, a: int, house: int, u: int) -> None:
    g.owner[a] = house
    g.units[a, u] += 1


@njit
def remove_unit(g, t, a: int, u: int) -> None:
    """Destroy one unit of type ``u`` in ``a``; an emptied area loses its owner (and order), and
    the ports follow its control at once (B12: orphaned ships destroyed, a home area's port
    handed back)."""
    g.units[a, u] -= 1
    if g.routed[a, u] > g.units[a, u]:
        g.routed[a, u] = g.units[a, u]
    vacate_and_settle(g, t, a)


@njit
def replace_unit(g, a: int, old: int, new: int) -> None:
    """Swap one unit for another in place (upgrades, Crow Killers); the area's size is unchanged."""
    g.units[a, old] -= 1
    if g.routed[a, old] > g.units[a, old]:
        g.routed[a, old] = g.units[a, old]
    g.units[a, new] += 1


@njit
def hand_size(g, house: int) -> int:
    n = 0
    for slot in range(7):
        if g.hand[house] & (1 << slot):
            n += 1
    return n


@njit
def is_participant(g, house: int) -> bool:
    return (g.participants >> house) & 1 == 1


@njit
def in_play_mask(g, t) -> int:
    mask = 0
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0:
            mask |= 1 << int(house)
    return mask


@njit
def move_on_track(g, t, track: int, house: int, pos: int) -> None:
    """Move ``house`` to position ``pos`` (clamped to the track) of ``track``; the houses between
    shift by one place."""
    n = t.players
    cur = track_position(g, track, house)
    if cur >= n:
        return
    pos = max(0, min(pos, n - 1))
    if cur < pos:
        for i in range(cur, pos):
            g.track[track, i] = g.track[track, i + 1]
    else:
        for i in range(cur, pos, -1):
            g.track[track, i] = g.track[track, i - 1]
    g.track[track, pos] = house
    keep_targaryen_last(g, t, track)
