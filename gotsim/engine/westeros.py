"""The Westeros phase: Westeros cards, supply, mustering, bidding, wildlings (2nd edition, and
the 1st edition's differences where ``t.edition == 1``: Rains of Autumn, no attack at the top of
the track, the fixed wildling outcome with the track back to 0).

Compiled (numba) like ``machine.py`` and run unchanged as Python under ``NUMBA_DISABLE_JIT=1``.
The developer wires five entry points into the machine:

* ``westeros_phase(g, t)`` runs while ``g.phase == Phase.WESTEROS`` until a decision is pending
  or the phase is over (then ``g.phase = Phase.PLANNING``);
* ``westeros_legal(g, t, mask)`` marks the legal actions of a pending decision of one of this
  module's kinds (``WESTEROS_DECISIONS``) and returns True, or returns False for other kinds;
* ``westeros_apply(g, t, kind, house, action)`` applies a legal action (pending already cleared);
* ``start_muster(g, t, house, area)`` starts the one-area muster (star consolidate power order);
* ``start_wildling_attack(g, t, strength)`` + ``wildling_attack_step(g, t)`` run an attack.

Flow convention: a loop over houses (or areas) advances its counter *before* it asks, and a
decision that needs a follow-up decision of the same house asks it from ``westeros_apply``
(chained, the follow-up's state in ``g.ctx``). So when nothing is pending the driver simply
resumes its loop. The one-area muster keeps its whole state in the MUSTER decision's ctx (area,
points left): when it ends nothing is pending and control goes back to whatever runs
``g.phase`` — the Westeros driver (whose counters already point past that area) or the
consolidate power phase (machine's own ``g.pc``). No return flag is needed for it.

``g.wpc`` (loop counters)
  0 ``W_STEP``   phase step: 0 draw, 1 attack at threat 12, 2 resolve cards, 3 finish
  1 ``W_CARD``   deck (0 I, 1 II, 2 III) of the card being resolved
  2 ``W_EFFECT`` what the card is doing now (``E_*`` below)
  3 ``W_LOOP``   mustering: turn-order position; Clash of Kings: track being bid on
  4 ``W_AREA``   mustering: next area to consider; Clash of Kings: 0 start, 1 bids, 2 ties
  5 ``A_STEP``   wildling attack: 0 idle, 1 bidding, 2 pick lowest/highest, 3 card effect
  6 ``A_LOOP``   wildling attack: turn-order position of the "everyone else" loop
  7 ``A_SUB``    wildling attack effect: 0 chosen bidder, 1 everyone else, 2 reconcile, 3 end

``g.wscratch``
  0 ``S_BID_POS``      next turn-order position to bid (Clash of Kings and wildlings)
  1 ``S_BID_TRACK``    what is bid on: Track, or 3 (``WILDLINGS``)
  2 ``S_PLACED``       houses placed so far on the track being rebuilt (Clash of Kings)
  3 ``S_PLACED_MASK``  bit per house placed
  4-9 ``S_ORDER``      the rebuilt track, top first
  10 ``S_RECON``       supply reconciliation: next turn-order position to check
  11 ``S_STRENGTH``    wildling attack strength
  12 ``S_PARTICIPANTS`` bit per house bidding (Clash: all in play; wildlings: minus excluded)
  13 ``S_WCARD``       wildling card revealed by this attack (-1 before)
  14 ``S_CHOSEN``      lowest bidder (wildlings won) or highest bidder (Night's Watch won)
  15 ``S_RESULT``      bit 0: Night's Watch won; bit 1: this is Preemptive Raid's second attack

Decisions (ctx / action)
  MUSTER            ctx0 area, ctx1 points left; action ACT_FOOTMAN (1), ACT_KNIGHT (2),
                    ACT_SIEGE (2), ACT_UPGRADE_KNIGHT (1), ACT_UPGRADE_SIEGE (1), a sea or port
                    area (a ship, 1), ACT_NONE (done with this area)
  SUPPLY_CUT        action = area of an army to shrink (only cuts that bring the armies closer
                    to fitting: see ``supply_excess``)
  SUPPLY_CUT_UNIT   ctx0 area; action = Unit (asked only if the area holds 2+ unit types)
  BID               ctx0 Track or 3 (wildlings), ctx1 wildling strength; action = bid 0..62;
                    houses with no power bid 0 without being asked. Bids are secret: a policy
                    must not read other houses' ``g.bid`` before bidding is over.
  TIE_ORDER         Clash of Kings: ctx0 Track, ctx1 tied bid; action = House placed next.
                    Wildlings: ctx0 3, ctx1 ROLE_LOWEST (0) / ROLE_HIGHEST (2); action = House
                    that is the lowest / highest bidder. Always the Iron Throne holder decides.
  WESTEROS_CHOICE   ctx0 WesterosCard; action = option (A Throne of Blades: 0 supply,
                    1 mustering, 2 nothing; Dark Wings, Dark Words: 0 Clash of Kings, 1 Game of
                    Thrones, 2 nothing; Put to the Sword: 0 no defense, 1 no march+1, 2 nothing)
  WILDLING_CHOICE   ctx0 WildlingCard, ctx1 role (0 lowest, 1 everyone else, 2 highest).
                    Preemptive Raid/lowest: 0 destroy 2 units, 1 drop 2 places on its highest
                    track; Massing on the Milkwater/other: deck slot of the hand card discarded;
                    Mammoth Riders/highest: deck slot taken back from the discards, ACT_NONE
                    none; The Horde Descends/highest: castle/stronghold area to muster in,
                    ACT_NONE none
  DESTROY_UNIT      ctx0 units left to destroy, ctx1 where (``R_ANY`` -1 anywhere, ``R_CASTLE2``
                    -2 a castle/stronghold area holding 2+ of its units, else that area only);
                    action = area
  DESTROY_UNIT_TYPE ctx0 area, ctx1 units left, ctx2 where; action = Unit (asked only if the
                    area holds 2+ unit types)
  CROW_KILLERS      ctx0 role, ctx1 picks left; action = area. Lowest (asked only when its
                    knights outnumber the footmen in its reserve; ctx1 = those footmen): each
                    pick turns a knight into a footman, the knights left over are destroyed.
                    Everyone else (asked unless all its 0-2 knights can simply be swapped): 2
                    picks, a knight becomes a footman, or is destroyed once the reserve has no
                    footman. Highest: a footman to upgrade to a knight, or ACT_NONE (stop)
  TRACK_CHOICE      ctx0 ``TC_KING_TOP`` (0: A King Beyond the Wall, highest: any track, moves
                    to its top), ``TC_KING_BOTTOM`` (1: everyone else: Fiefdoms or King's Court,
                    moves to its bottom), ``TC_PREEMPTIVE`` (2: the Iron Throne holder picks which
                    of the lowest bidder's equally-high tracks it drops 2 places on); ctx1 the
                    house that moves; action = Track

Not asked when there is nothing to choose: bids of houses without power (0), the tie order of
a single house, the unit type in an area holding one type, Crow Killers swaps that leave no
choice, A King Beyond the Wall moves for a house already first (highest) or already last on
both tracks (everyone else), rewards with nothing to take (Mammoth Riders with no discards, The
Horde Descends with nowhere to muster). In a wildling attack only participating houses bid and
suffer "everyone else" (Preemptive Raid's second attack leaves out the first highest bidder).

Rules readings (source: Swords and Ravens at the commit in ``data/2e/PROVENANCE.md`` unless
noted): Winter Is Coming is resolved as it is drawn, before the threat moves — the whole deck
(discards included) is shuffled and a replacement drawn, whose icon counts; the attack at 12
happens when icons were drawn and the threat then stands at 12; the wildling card is revealed
after the bids; Preemptive Raid's second attack comes after the first attack's threat reset (so
the threat ends at 0: the official reading, where S&R instead keeps the pre-attack threat);
Massing on the Milkwater discards nothing if all the lowest bidder's cards share the highest
strength (S&R); ties for lowest/highest bidder are not asked for Silence at the Wall.
"""

from __future__ import annotations

import numpy as np

from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    army_sizes_fit,
    ask,
    barrels_held,
    controller,
    enemy_ships_in,
    gain_power,
    lose_power,
    remove_order,
    settle_ports,
    summary_fits_with,
    track_position,
    unit_count,
)
from gotsim.engine.rng import shuffle
from gotsim.engine.state import (
    ACT_FOOTMAN,
    ACT_KNIGHT,
    ACT_NONE,
    ACT_SIEGE,
    ACT_UPGRADE_KNIGHT,
    ACT_UPGRADE_SIEGE,
    H_ATTACK_CARD,
    H_ATTACK_RESULT,
    H_ATTACKS,
    H_WINTER,
    NATURE,
    Decision,
    Phase,
    Restriction,
    U,
)
from gotsim.engine.tables import WesterosCard, WildlingCard
from gotsim.jit import njit
from gotsim.rules.board import PORT_SHIPS
from gotsim.rules.ids import FOOTMAN, KNIGHT, SHIP, SIEGE

WILDLINGS = 3  # BID / TIE_ORDER ctx0 for the wildling bidding (after the three Tracks)
MAX_THREAT = 12
MAX_BID = 62  # the largest bid an action number can express
DECK_SIZE = 10
MAX_SUPPLY = 6
ALL_CARDS = 0x7F  # the 7 deck slots of a house (hand / discard bit masks)
ALL_HOUSES = 0x3F

# wpc slots
W_STEP, W_CARD, W_EFFECT, W_LOOP, W_AREA, A_STEP, A_LOOP, A_SUB = range(8)
# W_STEP values
STEP_DRAW, STEP_ATTACK, STEP_CARDS, STEP_FINISH = range(4)
# W_EFFECT values
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
# A_STEP values
A_IDLE, A_BIDDING, A_CHOOSE, A_EFFECT = range(4)
# A_SUB values
SUB_CHOSEN, SUB_OTHERS, SUB_RECONCILE, SUB_END = range(4)

# wscratch slots
S_BID_POS = 0
S_BID_TRACK = 1
S_PLACED = 2
S_PLACED_MASK = 3
S_ORDER = 4
S_RECON = 10
S_STRENGTH = 11
S_PARTICIPANTS = 12
S_WCARD = 13
S_CHOSEN = 14
S_RESULT = 15
RESULT_NW_WON = 1
RESULT_NESTED = 2

# roles on a wildling card
ROLE_LOWEST, ROLE_OTHER, ROLE_HIGHEST = 0, 1, 2
# DESTROY_UNIT restrictions
R_ANY = -1
R_CASTLE2 = -2
R_POINTS = -3  # 1e wildling victory: anywhere, ctx0 counts mustering points (knight 2, else 1)
# the 1st edition's wildling attack has no card: this stands for its fixed outcome (``S_WCARD``)
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
    return Decision.MUSTER <= kind <= Decision.TRACK_CHOICE


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
def _all_units(g, t, house: int) -> int:
    n = 0
    for a in range(t.n_areas):
        if g.owner[a] == house:
            n += unit_count(g, a)
    return n


@njit
def _unit_types_in(g, a: int) -> int:
    n = 0
    for u in range(U):
        if g.units[a, u] > 0:
            n += 1
    return n


@njit
def _only_unit_type(g, a: int) -> int:
    for u in range(U):
        if g.units[a, u] > 0:
            return u
    return -1


@njit
def _add_unit(g, a: int, house: int, u: int) -> None:
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
    if unit_count(g, a) == 0:
        remove_order(g, a)
        g.one_time[a] = -1
        g.owner[a] = -1
        settle_ports(g, t)


@njit
def _replace_unit(g, a: int, old: int, new: int) -> None:
    """Swap one unit for another in place (upgrades, Crow Killers); the area's size is unchanged."""
    g.units[a, old] -= 1
    if g.routed[a, old] > g.units[a, old]:
        g.routed[a, old] = g.units[a, old]
    g.units[a, new] += 1


@njit
def _hand_size(g, house: int) -> int:
    n = 0
    for slot in range(7):
        if g.hand[house] & (1 << slot):
            n += 1
    return n


@njit
def _is_participant(g, house: int) -> bool:
    return (g.wscratch[S_PARTICIPANTS] >> house) & 1 == 1


@njit
def _in_play_mask(g, t) -> int:
    mask = 0
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0:
            mask |= 1 << house
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


# --- supply ---------------------------------------------------------------------------------------


@njit
def supply_excess(g, t, house: int, level: int, minus_area: int) -> int:
    """The fewest units ``house`` must destroy for its armies to fit ``level`` of the supply table
    (with one unit fewer in ``minus_area``, -1 for none). 0 when they fit.

    Armies (2+ units in an area), largest first, take the allowed sizes largest first; an army
    beyond the allowed number must shrink to a single unit. Keeping the largest armies is optimal,
    so this is exact, and some cut lowers it by one whenever it is positive.
    """
    sizes = np.zeros(t.n_areas, np.int64)
    k = 0
    for a in range(t.n_areas):
        if g.owner[a] == house:
            n = unit_count(g, a)
            if a == minus_area:
                n -= 1
            if n >= 2:
                sizes[k] = n
                k += 1
    ordered = np.sort(sizes[:k])[::-1]
    allowed = t.supply_table[level]
    excess = 0
    for i in range(k):
        cap = allowed[i] if i < allowed.shape[0] else 0
        if cap >= 2:
            excess += max(0, ordered[i] - cap)
        else:
            excess += ordered[i] - 1
    return excess


@njit
def _cut_useful(g, t, house: int, a: int) -> bool:
    if g.owner[a] != house or unit_count(g, a) < 2:
        return False
    level = g.supply[house]
    return supply_excess(g, t, house, level, a) == supply_excess(g, t, house, level, -1) - 1


@njit
def _reconcile_step(g, t) -> bool:
    """Supply: in turn order, each house whose armies exceed its supply destroys units until they
    fit (SUPPLY_CUT / SUPPLY_CUT_UNIT, chained in ``westeros_apply``). True when all fit."""
    while g.wscratch[S_RECON] < t.players:
        house = g.track[0, g.wscratch[S_RECON]]
        g.wscratch[S_RECON] += 1
        if house >= 0 and not armies_within_supply(g, t, house):
            ask(g, Decision.SUPPLY_CUT, house)
            return False
    return True


@njit
def armies_within_supply(g, t, house: int) -> bool:
    """``supply_excess(...) == 0`` at the house's supply level, without sorting its armies: the
    armies fit exactly when they need no cut (``army_sizes_fit``; the supply rows are sorted,
    largest first)."""
    return army_sizes_fit(g, t, house, g.supply[house], -1, 0)


@njit
def _after_cut(g, t, house: int) -> None:
    if not armies_within_supply(g, t, house):
        ask(g, Decision.SUPPLY_CUT, house)


@njit
def _set_supply_levels(g, t) -> None:
    """Supply card: every house's supply level = barrels in the areas it controls (max 6)."""
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0:
            g.supply[house] = barrels_held(g, t, house)


# --- mustering ------------------------------------------------------------------------------------


@njit
def _ship_target_ok(g, t, house: int, area: int, s: int) -> bool:
    """A ship mustered at ``area`` may go to an adjacent sea or to the area's own port, neither
    holding another house's units; a port holds at most 3 ships."""
    if s == area or g.blocked[s]:
        return False
    if t.kind[s] == SEA:
        if not t.adjacent[area, s]:
            return False
    elif t.kind[s] == PORT:
        if t.port_land[s] != area:
            return False
    else:
        return False
    if (g.owner[s] >= 0 and g.owner[s] != house) or g.neutral[s] > 0:
        return False  # another house's units, or a 1e absent house's neutral ships
    return not (t.kind[s] == PORT and g.units[s, SHIP] >= PORT_SHIPS)


@njit
def muster_allowed(g, t, house: int, area: int, points: int, action: int) -> bool:
    """Whether ``house`` may spend ``points`` at ``area`` on ``action`` (a MUSTER action): cost,
    unit limits (the reserve), and supply (a new unit must not break it; upgrades keep sizes)."""
    if action < 0 or action >= ACT_NONE:
        return False
    return ((muster_actions(g, t, house, area, points) >> action) & 1) != 0


@njit
def muster_actions(g, t, house: int, area: int, points: int, first: bool = False) -> np.int64:
    """Every MUSTER action ``muster_allowed`` accepts, as a bit set (bit ``action``; the actions
    are below ``ACT_NONE`` = 63): the reserve and the house's armies are counted once, and only
    the area's ship targets (``t.ship_targets``) are looked at for ships. With ``first``, only
    until one is found (for asking whether there is any)."""
    if points < 1:
        return np.int64(0)
    one = np.int64(1)
    out = np.int64(0)
    reserve, army = _reserve_and_armies(g, t, house)
    allowed = t.supply_table[g.supply[house]]
    here = unit_count(g, area) if g.owner[area] == house else 0
    # a new unit in the area must keep the armies within supply (army_sizes_fit)
    new_unit_fits = summary_fits_with(army, here, 1, allowed)
    if reserve[FOOTMAN] > 0 and new_unit_fits:
        out |= one << ACT_FOOTMAN
    if points >= 2 and reserve[KNIGHT] > 0 and new_unit_fits:
        out |= one << ACT_KNIGHT
    if points >= 2 and reserve[SIEGE] > 0 and new_unit_fits:
        out |= one << ACT_SIEGE
    footman_here = g.owner[area] == house and g.units[area, FOOTMAN] > 0
    if footman_here and reserve[KNIGHT] > 0:
        out |= one << ACT_UPGRADE_KNIGHT
    if footman_here and reserve[SIEGE] > 0:
        out |= one << ACT_UPGRADE_SIEGE
    if first and out != 0:
        return out
    if reserve[SHIP] > 0:
        for j in range(t.ship_targets.shape[1]):
            s = t.ship_targets[area, j]
            if s < 0:
                break
            if _ship_target_ok(g, t, house, area, s):
                there = unit_count(g, s) if g.owner[s] == house else 0
                if summary_fits_with(army, there, 1, allowed):
                    out |= one << s
                    if first:
                        return out
    return out


@njit
def _reserve_and_armies(g, t, house: int):
    """Units of each type left in the house's reserve (its unit limits minus those on the
    board, ``available``) and the ``army_summary`` of its units per area (what
    ``army_sizes_fit`` counts), in one pass over the board."""
    n0 = 0
    n1 = 0
    n2 = 0
    n3 = 0
    a2 = 0
    a3 = 0
    a4 = 0
    biggest = 0
    for a in range(t.n_areas):
        if g.owner[a] == house:
            f, k, s, e = g.units[a, 0], g.units[a, 1], g.units[a, 2], g.units[a, 3]
            n0 += f
            n1 += k
            n2 += s
            n3 += e
            n = f + k + s + e
            a2 += n >= 2
            a3 += n >= 3
            a4 += n >= 4
            biggest = max(biggest, n)
    limits = t.unit_limits[house]
    reserve = (limits[0] - n0, limits[1] - n1, limits[2] - n2, limits[3] - n3)
    return reserve, (a2, a3, a4, biggest)


@njit
def can_muster(g, t, house: int, area: int, points: int) -> bool:
    """Whether ``house`` controls ``area`` and has anything to spend ``points`` on there."""
    if points <= 0 or controller(g, t, area) != house:
        return False
    return muster_actions(g, t, house, area, points, True) != 0


@njit
def start_muster(g, t, house: int, area: int) -> bool:
    """Muster in one castle/stronghold area (Mustering card, star consolidate power order, The
    Horde Descends): asks MUSTER with the area's points (castle 1, stronghold 2). False, and
    nothing asked, when there is nothing to muster there."""
    points = t.muster_points[area]
    if not can_muster(g, t, house, area, points):
        return False
    ask(g, Decision.MUSTER, house, area, points)
    return True


@njit
def _apply_muster(g, t, house: int, action: int) -> None:
    area = g.ctx[0]
    points = g.ctx[1]
    if action == ACT_NONE:
        return
    cost = 1
    if action == ACT_FOOTMAN:
        _add_unit(g, area, house, FOOTMAN)
    elif action == ACT_KNIGHT:
        _add_unit(g, area, house, KNIGHT)
        cost = 2
    elif action == ACT_SIEGE:
        _add_unit(g, area, house, SIEGE)
        cost = 2
    elif action == ACT_UPGRADE_KNIGHT:
        _replace_unit(g, area, FOOTMAN, KNIGHT)
    elif action == ACT_UPGRADE_SIEGE:
        _replace_unit(g, area, FOOTMAN, SIEGE)
    else:
        _add_unit(g, action, house, SHIP)
    points -= cost
    if can_muster(g, t, house, area, points):
        ask(g, Decision.MUSTER, house, area, points)


@njit
def _mustering_step(g, t) -> bool:
    """Mustering card: in turn order, each house musters in every castle/stronghold area it
    controls, area by area. True when every house is done."""
    while g.wpc[W_LOOP] < t.players:
        house = g.track[0, g.wpc[W_LOOP]]
        while house >= 0 and g.wpc[W_AREA] < t.n_areas:
            a = g.wpc[W_AREA]
            g.wpc[W_AREA] += 1
            if t.muster_points[a] > 0 and start_muster(g, t, house, a):
                return False
        g.wpc[W_LOOP] += 1
        g.wpc[W_AREA] = 0
    return True


# --- Game of Thrones ------------------------------------------------------------------------------


@njit
def power_income(g, t, house: int) -> int:
    """Game of Thrones: crowns in the areas ``house`` controls, plus 1 per port holding its ships
    whose sea holds no enemy ships."""
    n = 0
    for a in range(t.n_areas):
        if t.kind[a] == LAND:
            if t.crowns[a] > 0 and controller(g, t, a) == house:
                n += t.crowns[a]
        elif t.kind[a] == PORT:
            if (
                g.owner[a] == house
                and g.units[a, SHIP] > 0
                and not enemy_ships_in(g, t.port_sea[a], house)
            ):
                n += 1
    return n


@njit
def _game_of_thrones(g, t) -> None:
    # incomes first, then gains, so every house is counted on the same board
    income = np.zeros(g.power.shape[0], np.int64)
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0:
            income[house] = power_income(g, t, house)
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0:
            gain_power(g, t, house, income[house])


# --- bidding (Clash of Kings and the wildlings) ---------------------------------------------------


@njit
def _start_bidding(g, what: int, participants: int) -> None:
    g.wscratch[S_BID_POS] = 0
    g.wscratch[S_BID_TRACK] = what
    g.wscratch[S_PARTICIPANTS] = participants
    g.bid[:] = 0


@njit
def _bidding_step(g, t) -> bool:
    """Secret bids, asked in turn order (a house without power bids 0 unasked). True when done."""
    while g.wscratch[S_BID_POS] < t.players:
        house = g.track[0, g.wscratch[S_BID_POS]]
        g.wscratch[S_BID_POS] += 1
        if house < 0 or not _is_participant(g, house):
            continue
        if g.power[house] <= 0:
            g.bid[house] = 0
            continue
        what = g.wscratch[S_BID_TRACK]
        ask(g, Decision.BID, house, what, g.wscratch[S_STRENGTH] if what == WILDLINGS else 0)
        return False
    return True


@njit
def _pay_bids(g, t) -> int:
    """All bids go to the pool; returns their total."""
    total = 0
    for house in range(g.bid.shape[0]):
        if _is_participant(g, house):
            total += lose_power(g, house, g.bid[house])
    return total


# --- Clash of Kings -------------------------------------------------------------------------------


@njit
def _top_unplaced_bid(g) -> int:
    best = -1
    for house in range(g.bid.shape[0]):
        if _is_participant(g, house) and not (g.wscratch[S_PLACED_MASK] >> house) & 1:
            best = max(best, g.bid[house])
    return best


@njit
def _place(g, house: int) -> None:
    g.wscratch[S_ORDER + g.wscratch[S_PLACED]] = house
    g.wscratch[S_PLACED] += 1
    g.wscratch[S_PLACED_MASK] |= 1 << house


@njit
def _order_step(g, t, track: int) -> bool:
    """Rebuild a track by bids, highest first; each tie is ordered by the Iron Throne holder (for
    the Iron Throne track the previous holder: the track is written only when complete)."""
    while g.wscratch[S_PLACED] < t.players:
        best = _top_unplaced_bid(g)
        count = 0
        first = -1
        for house in range(g.bid.shape[0]):
            if (
                _is_participant(g, house)
                and not (g.wscratch[S_PLACED_MASK] >> house) & 1
                and g.bid[house] == best
            ):
                count += 1
                if first < 0:
                    first = house
        if count == 1:
            _place(g, first)
        else:
            ask(g, Decision.TIE_ORDER, g.track[0, 0], track, best)
            return False
    return True


@njit
def _clash_step(g, t) -> bool:
    """Clash of Kings: bid for the Iron Throne, then Fiefdoms, then King's Court. The top house
    of each track holds its dominance token (the Blade keeps its used flag)."""
    while g.wpc[W_LOOP] < 3:
        track = g.wpc[W_LOOP]
        sub = g.wpc[W_AREA]
        if sub == 0:
            _start_bidding(g, track, _in_play_mask(g, t))
            g.wscratch[S_PLACED] = 0
            g.wscratch[S_PLACED_MASK] = 0
            g.wpc[W_AREA] = 1
        elif sub == 1:
            if not _bidding_step(g, t):
                return False
            _pay_bids(g, t)
            g.wpc[W_AREA] = 2
        else:
            if not _order_step(g, t, track):
                return False
            for i in range(t.players):
                g.track[track, i] = g.wscratch[S_ORDER + i]
            g.wpc[W_LOOP] += 1
            g.wpc[W_AREA] = 0
    return True


# --- destroying units (wildling penalties) --------------------------------------------------------


@njit
def _destroy_area_ok(g, t, house: int, a: int, where: int) -> bool:
    if g.owner[a] != house or unit_count(g, a) == 0:
        return False
    if where == R_ANY or where == R_POINTS:
        return True
    if where == R_CASTLE2:
        return (t.castle[a] or t.stronghold[a]) and unit_count(g, a) >= 2
    return a == where


@njit
def _any_destroy_area(g, t, house: int, where: int) -> bool:
    for a in range(t.n_areas):
        if _destroy_area_ok(g, t, house, a, where):
            return True
    return False


@njit
def _start_destroy(g, t, house: int, n: int, where: int) -> None:
    """``house`` destroys ``n`` of its units (as many as it has), one DESTROY_UNIT at a time."""
    cap = _all_units(g, t, house)
    if where == R_POINTS:  # mustering points: a knight (or a 1e siege engine, K6) is worth 2
        cap += units_of(g, t, house, KNIGHT) + units_of(g, t, house, SIEGE)
    n = min(n, cap)
    if n > 0 and _any_destroy_area(g, t, house, where):
        ask(g, Decision.DESTROY_UNIT, house, n, where)


@njit
def _destroy_and_continue(g, t, house: int, a: int, u: int, left: int, where: int) -> None:
    remove_unit(g, t, a, u)
    left -= 2 if (where == R_POINTS and (u == KNIGHT or u == SIEGE)) else 1
    if where == R_CASTLE2:
        where = a  # both units come from the same castle/stronghold area
    if left > 0 and _any_destroy_area(g, t, house, where):
        ask(g, Decision.DESTROY_UNIT, house, left, where)


@njit
def _apply_destroy_unit(g, t, house: int, a: int) -> None:
    left = g.ctx[0]
    where = g.ctx[1]
    if _unit_types_in(g, a) > 1:
        ask(g, Decision.DESTROY_UNIT_TYPE, house, a, left)
        g.ctx[2] = where
    else:
        _destroy_and_continue(g, t, house, a, _only_unit_type(g, a), left, where)


# --- wildling card effects ------------------------------------------------------------------------


@njit
def _has_castle_army(g, t, house: int) -> bool:
    return _any_destroy_area(g, t, house, R_CASTLE2)


@njit
def _knights_to_footmen(g, t, house: int) -> None:
    for a in range(t.n_areas):
        if g.owner[a] == house:
            while g.units[a, KNIGHT] > 0:
                _replace_unit(g, a, KNIGHT, FOOTMAN)


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
def _apply_crow_killers(g, t, house: int, action: int) -> None:
    role = g.ctx[0]
    left = g.ctx[1] - 1
    if role == ROLE_HIGHEST:
        if action == ACT_NONE:
            return
        _replace_unit(g, action, FOOTMAN, KNIGHT)
        if left > 0 and units_of(g, t, house, FOOTMAN) > 0 and available(g, t, house, KNIGHT) > 0:
            ask(g, Decision.CROW_KILLERS, house, role, left)
    elif role == ROLE_LOWEST:
        _replace_unit(g, action, KNIGHT, FOOTMAN)
        if left > 0:
            ask(g, Decision.CROW_KILLERS, house, role, left)
        else:
            _destroy_all_knights(g, t, house)  # no footman left for them
    else:
        if available(g, t, house, FOOTMAN) > 0:
            _replace_unit(g, action, KNIGHT, FOOTMAN)
        else:
            remove_unit(g, t, action, KNIGHT)
        if left > 0 and units_of(g, t, house, KNIGHT) > 0:
            ask(g, Decision.CROW_KILLERS, house, role, left)


@njit
def _massing_lowest(g, t, house: int) -> None:
    """With 2+ cards in hand, discard every card of the highest printed strength — unless all the
    cards share it (S&R: then none)."""
    if _hand_size(g, house) < 2:
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
def _horde_area_ok(g, t, house: int, a: int) -> bool:
    return t.muster_points[a] > 0 and can_muster(g, t, house, a, t.muster_points[a])


@njit
def _any_horde_area(g, t, house: int) -> bool:
    for a in range(t.n_areas):
        if _horde_area_ok(g, t, house, a):
            return True
    return False


@njit
def _top_of_all(g, house: int) -> bool:
    return g.track[0, 0] == house and g.track[1, 0] == house and g.track[2, 0] == house


@njit
def _highest_tracks(g, house: int) -> int:
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
        if _hand_size(g, house) >= 2:
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
        g.supply[house] = min(MAX_SUPPLY, g.supply[house] + 1)
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
def _apply_wildling_choice(g, t, house: int, action: int) -> None:
    card = g.ctx[0]
    if card == WildlingCard.PREEMPTIVE_RAID:
        if action == 0:
            _start_destroy(g, t, house, 2, R_ANY)
        else:
            tracks = _highest_tracks(g, house)
            if tracks & (tracks - 1):  # tied: the Iron Throne holder picks the track
                ask(g, Decision.TRACK_CHOICE, g.track[0, 0], TC_PREEMPTIVE, house)
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
def _apply_track_choice(g, t, action: int) -> None:
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
    _start_bidding(g, WILDLINGS, participants)
    g.wscratch[S_STRENGTH] = strength
    g.wscratch[S_WCARD] = -1
    g.wscratch[S_CHOSEN] = -1
    g.wscratch[S_RESULT] = RESULT_NESTED if nested else 0
    g.wpc[A_STEP] = A_BIDDING
    g.wpc[A_LOOP] = 0
    g.wpc[A_SUB] = SUB_CHOSEN


@njit
def start_wildling_attack(g, t, strength: int) -> None:
    """Start a wildling attack of ``strength``; every house in play bids. Run it with
    ``wildling_attack_step``."""
    _begin_attack(g, t, strength, _in_play_mask(g, t), False)


@njit
def _nw_won(g) -> bool:
    return (g.wscratch[S_RESULT] & RESULT_NW_WON) != 0


@njit
def _extreme_bid(g, highest: bool) -> int:
    best = -1
    for house in range(g.bid.shape[0]):
        if _is_participant(g, house):
            b = g.bid[house]
            if best < 0 or (b > best if highest else b < best):
                best = b
    return best


@njit
def _is_candidate(g, house: int, highest: bool) -> bool:
    return _is_participant(g, house) and g.bid[house] == _extreme_bid(g, highest)


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
    if g.wscratch[S_CHOSEN] >= 0:
        return True
    highest = _nw_won(g)
    count = 0
    first = -1
    for p in range(t.players):
        house = g.track[0, p]
        if house >= 0 and _is_candidate(g, house, highest):
            count += 1
            if first < 0:
                first = house
    if count == 1 or g.wscratch[S_WCARD] == WildlingCard.SILENCE_AT_THE_WALL:
        g.wscratch[S_CHOSEN] = first
        return True
    ask(g, Decision.TIE_ORDER, g.track[0, 0], WILDLINGS, ROLE_HIGHEST if highest else ROLE_LOWEST)
    return False


@njit
def _end_attack(g, t) -> bool:
    """Threat: 0 after a Night's Watch victory, 4 lower (not below 0) after a wildling victory.
    Preemptive Raid won by the Night's Watch then attacks again at strength 6 without the highest
    bidder. True when the attack is over."""
    card = g.wscratch[S_WCARD]
    row = min(max(g.game_round, 1), 10) - 1
    g.history[row, H_ATTACKS] += 1
    g.history[row, H_ATTACK_RESULT] = 1 if _nw_won(g) else 2
    g.history[row, H_ATTACK_CARD] = card if card != WILDLINGS_1E else -1
    if card == WILDLINGS_1E:
        g.threat = 0  # 1e: back to 0 whatever the outcome (D9)
    elif _nw_won(g):
        g.threat = 0
    else:
        g.threat = max(0, g.threat - 4)
    nested = (g.wscratch[S_RESULT] & RESULT_NESTED) != 0
    if card == WildlingCard.PREEMPTIVE_RAID and _nw_won(g) and not nested:
        others = g.wscratch[S_PARTICIPANTS] & (ALL_HOUSES ^ (1 << g.wscratch[S_CHOSEN]))
        _begin_attack(g, t, 6, others, True)
        return False
    g.wpc[A_STEP] = A_IDLE
    return True


@njit
def _attack_effect_step(g, t) -> bool:
    card = g.wscratch[S_WCARD]
    chosen = g.wscratch[S_CHOSEN]
    sub = g.wpc[A_SUB]
    if sub == SUB_CHOSEN:
        if _nw_won(g):
            g.wpc[A_SUB] = SUB_END
            _highest_effect(g, t, card, chosen)
        else:
            g.wpc[A_SUB] = SUB_OTHERS
            g.wpc[A_LOOP] = 0
            _lowest_effect(g, t, card, chosen)
    elif sub == SUB_OTHERS:
        if g.wpc[A_LOOP] >= t.players:
            g.wpc[A_SUB] = SUB_RECONCILE
            g.wscratch[S_RECON] = 0
        else:
            house = g.track[0, g.wpc[A_LOOP]]
            g.wpc[A_LOOP] += 1
            if house >= 0 and house != chosen and _is_participant(g, house):
                _other_effect(g, t, card, house)
    elif sub == SUB_RECONCILE:
        # Rattleshirt's Raiders lowered supply levels: armies are reduced as with Supply
        if card == WildlingCard.RATTLESHIRTS_RAIDERS and not _reconcile_step(g, t):
            return False
        g.wpc[A_SUB] = SUB_END
    else:
        return _end_attack(g, t)
    return False


@njit
def wildling_attack_step(g, t) -> bool:
    """Run the wildling attack in progress until a decision is pending (False) or it is over
    (True): secret bids, bids paid, card revealed, lowest/highest bidder fixed, the card's effect
    (lowest bidder first, then everyone else in turn order; or the highest bidder's reward)."""
    while g.pending == Decision.NONE:
        step = g.wpc[A_STEP]
        if step == A_IDLE:
            return True
        if step == A_BIDDING:
            if not _bidding_step(g, t):
                return False
            total = _pay_bids(g, t)
            if t.edition == 1:
                g.wscratch[S_WCARD] = WILDLINGS_1E  # no wildling deck: a fixed outcome
            else:
                g.wscratch[S_WCARD] = _reveal_wildling_card(g)
            if total >= g.wscratch[S_STRENGTH]:
                g.wscratch[S_RESULT] |= RESULT_NW_WON
            g.wpc[A_STEP] = A_CHOOSE
        elif step == A_CHOOSE:
            if not _choose_bidder(g, t):
                return False
            g.wpc[A_STEP] = A_EFFECT
            g.wpc[A_SUB] = SUB_CHOSEN
        elif _attack_effect_step(g, t):
            return True
    return False


# --- the Westeros phase ---------------------------------------------------------------------------


@njit
def _reshuffle(g, d: int) -> None:
    shuffle(g.rng, NATURE, g.westeros[d], DECK_SIZE)
    g.westeros_next[d] = 0


@njit
def _lookahead_winter(g, d: int) -> None:
    """1e look-ahead variant, Winter Is Coming just drawn: the deck is shuffled without the two
    cards still face up, and the next draw (position 0) is the replacement; the two face-up
    cards follow it (K9). Afterwards the deck cycles as usual."""
    first = g.westeros_next[d] % DECK_SIZE
    up1 = g.westeros[d, first]
    up2 = g.westeros[d, (first + 1) % DECK_SIZE]
    pool = np.empty(DECK_SIZE - 2, np.int8)
    for i in range(DECK_SIZE - 2):
        pool[i] = g.westeros[d, (first + 2 + i) % DECK_SIZE]
    shuffle(g.rng, NATURE, pool, DECK_SIZE - 2)
    g.westeros[d, 0] = pool[0]
    g.westeros[d, 1] = up1
    g.westeros[d, 2] = up2
    for i in range(1, DECK_SIZE - 2):
        g.westeros[d, 2 + i] = pool[i]
    g.westeros_next[d] = 0


@njit
def _draw(g, d: int, lookahead: bool = False) -> int:
    """The top card of deck ``d``. Drawn cards stay below ``westeros_next``; a spent deck (not
    reached in 10 rounds) is reshuffled whole. With the 1e look-ahead variant a resolved card
    goes under its deck, so the deck is a cycle starting at ``westeros_next`` (K9)."""
    if g.westeros_next[d] >= DECK_SIZE:
        if lookahead:
            g.westeros_next[d] = 0
        else:
            _reshuffle(g, d)
    card = g.westeros[d, g.westeros_next[d]]
    g.westeros_next[d] += 1
    return card


@njit
def _draw_cards(g, t) -> int:
    """Draw the top card of decks I, II, III. Winter Is Coming is resolved at once: its deck is
    shuffled whole (this card included) and a replacement drawn. Returns the wildling icons."""
    icons = 0
    lookahead = t.westeros_lookahead != 0
    for d in range(3):
        card = _draw(g, d, lookahead)
        while card == WesterosCard.WINTER_IS_COMING:
            g.history[g.game_round - 1, H_WINTER + d] += 1
            if lookahead:
                _lookahead_winter(g, d)
            else:
                _reshuffle(g, d)
            card = _draw(g, d, lookahead)
        g.westeros_drawn[d] = card
        if t.westeros_icon[card]:
            icons += 1
    return icons


@njit
def _ask_choice(g, card: int, house: int) -> int:
    ask(g, Decision.WESTEROS_CHOICE, house, card)
    return E_WAIT


@njit
def _start_card(g, t, card: int) -> int:
    """Begin resolving a Westeros card; returns the effect to run next (``E_*``)."""
    if card == WesterosCard.SUPPLY:
        return E_SUPPLY
    if card == WesterosCard.MUSTERING:
        return E_MUSTER_START
    if card == WesterosCard.A_THRONE_OF_BLADES:
        return _ask_choice(g, card, g.track[0, 0])  # Iron Throne holder
    if card == WesterosCard.GAME_OF_THRONES:
        return E_GAME_OF_THRONES
    if card == WesterosCard.DARK_WINGS_DARK_WORDS:
        return _ask_choice(g, card, g.track[2, 0])  # Messenger Raven holder
    if card == WesterosCard.CLASH_OF_KINGS:
        return E_CLASH_START
    if card == WesterosCard.PUT_TO_THE_SWORD:
        return _ask_choice(g, card, g.track[1, 0])  # Valyrian Steel Blade holder
    if card == WesterosCard.STORM_OF_SWORDS:
        g.restrict |= NO_DEFENSE
    elif card == WesterosCard.RAINS_OF_AUTUMN:
        # 2e: no March +1 orders; 1e: supporting footmen add no strength (E12)
        g.restrict |= NO_MARCH_PLUS if t.edition == 2 else FOOTMEN_NO_SUPPORT
    elif card == WesterosCard.SEA_OF_STORMS:
        g.restrict |= NO_RAID
    elif card == WesterosCard.WEB_OF_LIES:
        g.restrict |= NO_SUPPORT
    elif card == WesterosCard.FEAST_FOR_CROWS:
        g.restrict |= NO_CONSOLIDATE
    elif card == WesterosCard.WILDLINGS_ATTACK:
        start_wildling_attack(g, t, g.threat)
        return E_ATTACK
    return E_DONE  # Last Days of Summer (Winter Is Coming was resolved when drawn)


@njit
def _resolve_card(g, t) -> bool:
    """Resolve the card of deck ``wpc[W_CARD]``; True when it is done."""
    while g.pending == Decision.NONE:
        effect = g.wpc[W_EFFECT]
        if effect == E_START:
            g.wpc[W_EFFECT] = _start_card(g, t, g.westeros_drawn[g.wpc[W_CARD]])
        elif effect == E_SUPPLY:
            _set_supply_levels(g, t)
            g.wscratch[S_RECON] = 0
            g.wpc[W_EFFECT] = E_RECONCILE
        elif effect == E_RECONCILE:
            if not _reconcile_step(g, t):
                return False
            g.wpc[W_EFFECT] = E_DONE
        elif effect == E_MUSTER_START:
            g.wpc[W_LOOP] = 0
            g.wpc[W_AREA] = 0
            g.wpc[W_EFFECT] = E_MUSTER
        elif effect == E_MUSTER:
            if not _mustering_step(g, t):
                return False
            g.wpc[W_EFFECT] = E_DONE
        elif effect == E_GAME_OF_THRONES:
            _game_of_thrones(g, t)
            g.wpc[W_EFFECT] = E_DONE
        elif effect == E_CLASH_START:
            g.wpc[W_LOOP] = 0
            g.wpc[W_AREA] = 0
            g.wpc[W_EFFECT] = E_CLASH
        elif effect == E_CLASH:
            if not _clash_step(g, t):
                return False
            g.wpc[W_EFFECT] = E_DONE
        elif effect == E_ATTACK:
            if not wildling_attack_step(g, t):
                return False
            g.wpc[W_EFFECT] = E_ATTACK_OVER
        elif effect == E_WAIT:
            return False
        else:
            return True
    return False


@njit
def _finish(g) -> None:
    g.phase = Phase.PLANNING
    g.pc[:] = 0
    g.wpc[:] = 0
    g.wscratch[:] = 0
    g.bid[:] = 0
    g.turn = 0


@njit
def westeros_phase(g, t) -> bool:
    """The Westeros phase: draw I, II, III; the threat rises 2 per wildling icon (max 12) and the
    wildlings attack at once if it reaches 12; the cards are resolved I, II, III; then planning.

    Returns True when it stops after a wildling attack or at the phase's end, so that the
    machine checks ports and the castle victory again (supply and wildling losses can hand an
    area back, S&R issue #1626); called again, it goes on where it stopped."""
    while g.pending == Decision.NONE and g.phase == Phase.WESTEROS:
        step = g.wpc[W_STEP]
        if step == STEP_DRAW:
            icons = _draw_cards(g, t)
            g.wpc[W_STEP] = STEP_CARDS
            g.wpc[W_CARD] = 0
            g.wpc[W_EFFECT] = E_START
            if icons > 0:
                g.threat = min(MAX_THREAT, g.threat + 2 * icons)
                if g.threat >= MAX_THREAT and t.edition == 2:  # 1e: no attack at the top (D9)
                    start_wildling_attack(g, t, g.threat)
                    g.wpc[W_STEP] = STEP_ATTACK
        elif step == STEP_ATTACK:
            if not wildling_attack_step(g, t):
                return False
            g.wpc[W_STEP] = STEP_CARDS
            return True
        elif step == STEP_CARDS:
            if g.wpc[W_CARD] >= 3:
                g.wpc[W_STEP] = STEP_FINISH
            elif _resolve_card(g, t):
                attacked = g.wpc[W_EFFECT] == E_ATTACK_OVER
                g.wpc[W_CARD] += 1
                g.wpc[W_EFFECT] = E_START
                if attacked:
                    return True
            else:
                return False
        else:
            _finish(g)
            return True
    return False


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
            mask[a] = _horde_area_ok(g, t, house, a)
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
        tracks = _highest_tracks(g, g.ctx[1])
        for tr in range(3):
            mask[tr] = (tracks >> tr) & 1 == 1


@njit
def _legal_tie(g, t, mask) -> None:
    if g.ctx[0] == WILDLINGS:
        highest = g.ctx[1] == ROLE_HIGHEST
        for house in range(g.bid.shape[0]):
            mask[house] = _is_candidate(g, house, highest)
    else:
        best = _top_unplaced_bid(g)
        for house in range(g.bid.shape[0]):
            mask[house] = (
                _is_participant(g, house)
                and not (g.wscratch[S_PLACED_MASK] >> house) & 1
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
            mask[action] = ((allowed >> action) & 1) != 0
        mask[ACT_NONE] = True
    elif kind == Decision.SUPPLY_CUT:
        for a in range(t.n_areas):
            mask[a] = _cut_useful(g, t, house, a)
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
        mask[2] = True
    elif kind == Decision.WILDLING_CHOICE:
        _legal_wildling_choice(g, t, house, mask)
    elif kind == Decision.DESTROY_UNIT:
        for a in range(t.n_areas):
            mask[a] = _destroy_area_ok(g, t, house, a, g.ctx[1])
    elif kind == Decision.CROW_KILLERS:
        u = FOOTMAN if g.ctx[0] == ROLE_HIGHEST else KNIGHT
        for a in range(t.n_areas):
            mask[a] = g.owner[a] == house and g.units[a, u] > 0
        if g.ctx[0] == ROLE_HIGHEST:
            mask[ACT_NONE] = True
    elif kind == Decision.TRACK_CHOICE:
        _legal_track_choice(g, mask)
    return True


@njit
def _apply_westeros_choice(g, action: int) -> None:
    card = g.ctx[0]
    if card == WesterosCard.A_THRONE_OF_BLADES:
        g.wpc[W_EFFECT] = E_SUPPLY if action == 0 else (E_MUSTER_START if action == 1 else E_DONE)
    elif card == WesterosCard.DARK_WINGS_DARK_WORDS:
        g.wpc[W_EFFECT] = (
            E_CLASH_START if action == 0 else (E_GAME_OF_THRONES if action == 1 else E_DONE)
        )
    else:  # Put to the Sword
        if action == 0:
            g.restrict |= NO_DEFENSE
        elif action == 1:
            g.restrict |= NO_MARCH_PLUS
        g.wpc[W_EFFECT] = E_DONE


@njit
def westeros_apply(g, t, kind: int, house: int, action: int) -> None:
    """Apply a legal ``action`` of ``house`` to a decision of ``kind`` (``g.pending`` already
    cleared, ``g.ctx`` still that decision's). Follow-up decisions of the same house are asked
    here; loops resume in the drivers."""
    if kind == Decision.BID:
        g.bid[house] = action
    elif kind == Decision.TIE_ORDER:
        if g.ctx[0] == WILDLINGS:
            g.wscratch[S_CHOSEN] = action
        else:
            _place(g, action)
    elif kind == Decision.WESTEROS_CHOICE:
        _apply_westeros_choice(g, action)
    elif kind == Decision.WILDLING_CHOICE:
        _apply_wildling_choice(g, t, house, action)
    elif kind == Decision.MUSTER:
        _apply_muster(g, t, house, action)
    elif kind == Decision.SUPPLY_CUT:
        if _unit_types_in(g, action) > 1:
            ask(g, Decision.SUPPLY_CUT_UNIT, house, action)
        else:
            remove_unit(g, t, action, _only_unit_type(g, action))
            _after_cut(g, t, house)
    elif kind == Decision.SUPPLY_CUT_UNIT:
        remove_unit(g, t, g.ctx[0], action)
        _after_cut(g, t, house)
    elif kind == Decision.DESTROY_UNIT:
        _apply_destroy_unit(g, t, house, action)
    elif kind == Decision.DESTROY_UNIT_TYPE:
        _destroy_and_continue(g, t, house, g.ctx[0], action, g.ctx[1], g.ctx[2])
    elif kind == Decision.CROW_KILLERS:
        _apply_crow_killers(g, t, house, action)
    elif kind == Decision.TRACK_CHOICE:
        _apply_track_choice(g, t, action)


__all__ = [
    "WESTEROS_DECISIONS",
    "start_muster",
    "start_wildling_attack",
    "westeros_apply",
    "westeros_legal",
    "westeros_phase",
    "wildling_attack_step",
]
