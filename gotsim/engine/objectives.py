"""A Feast for Crows' objective cards in the compiled engine: whether a house meets one, and the
steps that deal, score and draw them.

``objective_met(g, t, house, objective, vp)`` answers for one objective card
(``gotsim.rules.objectives.Objective`` numbers) and ``special_objective_met(g, t, house)`` for the
house's special objective; ``vp`` holds every house's victory points (Backdoor Politics compares
them). Control is the engine's (``board_state.controller``: units, else a power token, else the
home area's house). "More than every other house" compares with the houses in play. The
conditions follow the card texts; where they leave a detail open, Swords and Ravens'
``objectiveCards.ts`` (commit ``0998e341``) decides (``docs/rules.md`` F1).

The cards' places are ``g.objective_at`` (``state.OBJ_*``: the deck, a hand, scored, the Shifting
Ambitions pool) and the points ``g.vp``. ``objectives_step`` runs ``Phase.OBJECTIVES``: at the
start every house keeps 3 of the 5 cards dealt to it (``deal_objectives``); after each action
phase the supply is updated, then in turn order each house may score its special objective, then
one objective card, then draws back up to 3; 7 points win (``docs/rules.md`` F2, F3).
"""

from __future__ import annotations

import numpy as np

from gotsim.engine.board_state import (
    LAND,
    PORT,
    SEA,
    ask,
    castle_level,
    castles_held,
    controller,
    crowns_at,
    land_areas_held,
    track_position,
)
from gotsim.engine.counters import clear_phase_counters
from gotsim.engine.rng import below
from gotsim.engine.state import (
    ACT_NONE,
    N_OBJECTIVES,
    NATURE,
    OBJ_DECK,
    OBJ_POOL,
    OBJ_SCORED,
    Decision,
    EndReason,
    H,
    ObjectiveStep,
    Phase,
)
from gotsim.engine.westeros.supply import reconcile_step, set_supply_levels
from gotsim.jit import njit
from gotsim.rules.board import load_board
from gotsim.rules.ids import KNIGHT, SHIP, House
from gotsim.rules.objectives import Objective

_BOARD = load_board("2e")


def _at(area: str) -> int:
    return _BOARD.index(area)


# the objectives met by controlling every area named (at most 3; -1 pads)
_ALL_OF: dict[Objective, tuple[str, ...]] = {
    Objective.STOP_THE_STORM: ("storms_end",),
    Objective.ARBOR_GOLD: ("the_arbor",),
    Objective.TAKE_THE_BLACK: ("castle_black",),
    Objective.HOLD_COURT: ("kings_landing",),
    Objective.PULL_THE_WEEDS: ("searoad_marches", "blackwater", "the_reach"),
    Objective.A_FIRM_GRIP: ("crackclaw_point", "kingswood"),
    Objective.PROTECT_THE_NECK: ("seagard", "greywater_watch", "flints_finger"),
    Objective.A_MOUNTAINOUS_TASK: ("the_eyrie",),
    Objective.A_RIPER_FRUIT: ("winterfell",),
}
ALL_OF = np.full((len(Objective), 3), -1, np.int64)
for _objective, _areas in _ALL_OF.items():
    ALL_OF[_objective, : len(_areas)] = [_at(a) for a in _areas]
# Crossing Guard: either bridge's two ends
BRIDGES = np.array(
    [
        [_at("the_mountains_of_the_moon"), _at("crackclaw_point")],
        [_at("the_twins"), _at("seagard")],
    ],
    np.int64,
)
CRACKCLAW_POINT = _at("crackclaw_point")
KINGS_LANDING = _at("kings_landing")
HARRENHAL = _at("harrenhal")
THE_EYRIE = _at("the_eyrie")
WINTERFELL = _at("winterfell")
DRAGONSTONE = _at("dragonstone")
LANNISPORT = _at("lannisport")

assert len(Objective) == N_OBJECTIVES  # (the points each card scores: t.objective_points)

# the house numbers of the special objectives
ARRYN, BARATHEON = int(House.ARRYN), int(House.BARATHEON)
LANNISTER, STARK = int(House.LANNISTER), int(House.STARK)

# what "more than every other house" counts (``_count``)
C_LAND, C_SEA, C_SHIPS, C_PORTS, C_STRONGHOLDS, C_CASTLES, C_TOKENS = range(7)


@njit
def _holds(g, t, house: int, a: int) -> bool:
    return controller(g, t, a) == house


@njit
def _holds_all(g, t, house: int, areas) -> bool:
    """Whether ``house`` controls every area of ``areas`` (-1 padded)."""
    for a in areas:
        if a >= 0 and controller(g, t, a) != house:
            return False
    return True


@njit
def _count(g, t, house: int, what: int) -> int:
    """The house's count of ``what``: land areas, sea areas or ports controlled, ships on the
    board, strongholds or castles (not strongholds) controlled, power tokens on the board."""
    if what == C_LAND:
        return land_areas_held(g, t, house)
    n = 0
    for a in range(t.n_areas):
        if what == C_SHIPS:
            n += g.units[a, SHIP] if g.owner[a] == house else 0
        elif what == C_TOKENS:
            n += 1 if g.power_token[a] == house else 0
        elif controller(g, t, a) == house:
            if what == C_SEA:
                n += 1 if t.kind[a] == SEA else 0
            elif what == C_PORTS:
                n += 1 if t.kind[a] == PORT else 0
            elif what == C_STRONGHOLDS:
                n += 1 if t.kind[a] == LAND and castle_level(g, t, a) == 2 else 0
            elif what == C_CASTLES:
                n += 1 if t.kind[a] == LAND and castle_level(g, t, a) == 1 else 0
    return n


@njit
def _most(g, t, house: int, what: int) -> bool:
    """Strictly more of ``what`` than every other house in play."""
    own = _count(g, t, house, what)
    for other in range(H):
        if other != house and g.in_play[other] and _count(g, t, other, what) >= own:
            return False
    return True


@njit
def _units_of(g, house: int, a: int) -> int:
    if g.owner[a] != house:
        return 0
    return g.units[a, 0] + g.units[a, 1] + g.units[a, 2] + g.units[a, 3]


@njit
def _cards_in_hand(g, house: int) -> int:
    n = 0
    for slot in range(7):
        n += (g.hand[house] >> slot) & 1
    return n


@njit
def objective_met(g, t, house: int, objective: int, vp) -> bool:
    """Whether ``house`` meets objective card ``objective`` now (``vp``: victory points by
    house)."""
    if ALL_OF[objective, 0] >= 0:
        return _holds_all(g, t, house, ALL_OF[objective])
    if objective == Objective.CAVALRY_CHARGE:
        knights = 0
        for a in range(t.n_areas):
            knights += g.units[a, KNIGHT] if g.owner[a] == house else 0
        return knights == t.unit_limits[house, KNIGHT]
    if objective == Objective.BACKDOOR_POLITICS:
        for other in range(H):
            if other != house and g.in_play[other] and vp[other] <= vp[house]:
                return False
        return True
    if objective == Objective.HOME_INVASION:
        for a in range(t.n_areas):
            home = t.home[a]
            if home >= 0 and home != house and controller(g, t, a) == house:
                return True
        return False
    if objective == Objective.LAND_GRAB:
        return _most(g, t, house, C_LAND)
    if objective == Objective.EXTEND_YOUR_REACH:
        return _most(g, t, house, C_SEA)
    if objective == Objective.THE_RAVEN:
        return g.track[2, 0] == house
    if objective == Objective.SUPPORT_THE_CROWN:
        return (
            _holds(g, t, house, CRACKCLAW_POINT)
            and _units_of(g, house, CRACKCLAW_POINT) == 3
            and _units_of(g, house, KINGS_LANDING) == 0
        )
    if objective == Objective.THE_THRONE:
        return g.track[0, 0] == house
    if objective == Objective.THE_BLADE:
        return g.track[1, 0] == house
    if objective == Objective.CROSSING_GUARD:
        return _holds_all(g, t, house, BRIDGES[0]) or _holds_all(g, t, house, BRIDGES[1])
    if objective == Objective.NAVAL_SUPERIORITY:
        return _most(g, t, house, C_SHIPS)
    if objective == Objective.AMPLE_HARVEST:
        return g.supply[house] >= 5
    if objective == Objective.MERCANTILE_VENTURES:
        return _most(g, t, house, C_PORTS)
    if objective == Objective.A_STALWART_POSITION:
        return _most(g, t, house, C_STRONGHOLDS)
    if objective == Objective.SPREADING_THE_WEALTH:
        return _most(g, t, house, C_TOKENS)
    if objective == Objective.NOTHING_BUT_GHOSTS:
        if g.owner[HARRENHAL] != house or _units_of(g, house, HARRENHAL) != 1:
            return False
        for j in range(t.neighbours.shape[1]):
            x = t.neighbours[HARRENHAL, j]
            if x < 0:
                break
            if _units_of(g, house, x) > 0:
                return False
        return True
    if objective == Objective.THE_FINAL_HOUR:
        return _cards_in_hand(g, house) == 1
    if objective == Objective.THE_PEOPLES_CHOSEN:
        n = 0
        for a in range(t.n_areas):
            n += 1 if crowns_at(g, t, a) > 0 and controller(g, t, a) == house else 0
        return n >= 4
    if objective == Objective.FRIENDLY_CONFINES:
        return _most(g, t, house, C_CASTLES)
    return False


@njit
def special_objective_met(g, t, house: int) -> bool:
    """Whether ``house`` meets its special objective: Arryn holds The Eyrie with more power
    tokens in hand than every other house; Baratheon holds Dragonstone and King's Landing;
    Lannister Lannisport and King's Landing; Stark Winterfell and 5 or more areas with a castle
    or stronghold. Other houses have none."""
    if house == ARRYN:
        if not _holds(g, t, house, THE_EYRIE):
            return False
        for other in range(H):
            if other != house and g.in_play[other] and g.power[other] >= g.power[house]:
                return False
        return True
    if house == BARATHEON:
        return _holds(g, t, house, DRAGONSTONE) and _holds(g, t, house, KINGS_LANDING)
    if house == LANNISTER:
        return _holds(g, t, house, LANNISPORT) and _holds(g, t, house, KINGS_LANDING)
    if house == STARK:
        return _holds(g, t, house, WINTERFELL) and castles_held(g, t, house) >= 5
    return False


# --- the cards' flow ---------------------------------------------------------------------------

HAND = 3  # objective cards a house holds after drawing
DEALT = 5  # cards dealt at the start, of which HAND are kept
# ``Phase.OBJECTIVES`` steps (``g.loop_area``; ``g.loop_house`` is the turn-order position)
S_KEEP = 1  # the start: each house puts back the cards it does not keep
S_SUPPLY = 2  # after the action phase: supply levels, then armies brought within them
S_RECONCILE = 3
S_SPECIAL = 4
S_SCORE = 5
S_DRAW = 6


@njit
def cards_at(g, where: int) -> int:
    """Objective cards at ``where`` (an ``objective_at`` place: the deck, a hand, ...)."""
    n = 0
    for k in range(N_OBJECTIVES):
        n += 1 if g.objective_at[k] == where else 0
    return n


@njit
def in_hand(g, house: int) -> int:
    """Objective cards in ``house``'s hand."""
    return cards_at(g, house)


@njit
def scored(g, house: int) -> int:
    """Objective cards ``house`` has scored."""
    return cards_at(g, OBJ_SCORED + house)


@njit
def draw_objective(g, house: int) -> bool:
    """Draw a card of the objective deck into ``house``'s hand (the deck is shuffled: any card
    left in it is equally likely; nature's stream). False when the deck is empty."""
    left = cards_at(g, OBJ_DECK)
    if left == 0:
        return False
    pick = below(g.rng, NATURE, left)
    for k in range(N_OBJECTIVES):
        if g.objective_at[k] == OBJ_DECK:
            if pick == 0:
                g.objective_at[k] = house
                return True
            pick -= 1
    return False


@njit
def deal_objectives(g, t) -> None:
    """The start of A Feast for Crows: in turn order each house is dealt ``DEALT`` cards; the
    game then waits in ``Phase.OBJECTIVES`` for each to put back all but ``HAND``."""
    for p in range(t.players):
        house = g.track[0, p]
        for _ in range(DEALT):
            draw_objective(g, house)
    g.phase = Phase.OBJECTIVES
    clear_phase_counters(g)
    g.loop_area = S_KEEP


@njit
def can_score(g, t, house: int, objective: int) -> bool:
    """Whether ``house`` may score ``objective`` now: the card is in its hand and met."""
    return g.objective_at[objective] == house and objective_met(g, t, house, objective, g.vp)


@njit
def objective_legal(g, t, mask) -> None:
    """The legal answers of the pending ``OBJECTIVE`` decision (``ObjectiveStep`` in ctx0)."""
    house = g.pending_house
    step = g.ctx[0]
    if step == ObjectiveStep.SPECIAL:
        mask[0] = True
        mask[1] = True
        return
    for k in range(N_OBJECTIVES):
        if step == ObjectiveStep.SCORE:
            mask[k] = can_score(g, t, house, k)
        elif step == ObjectiveStep.POOL_TAKE:
            mask[k] = g.objective_at[k] == OBJ_POOL
        else:  # RETURN, POOL_PUT: a card of the hand
            mask[k] = g.objective_at[k] == house
    mask[ACT_NONE] = step == ObjectiveStep.SCORE


@njit
def objective_apply(g, t, house: int, action: int) -> None:
    """Carry out the answer to an ``OBJECTIVE`` decision (already cleared from ``g.pending``;
    the step it answered is ``g.ctx[0]``, read before ``ask`` clears it)."""
    step = g.ctx[0]
    if step == ObjectiveStep.SPECIAL:
        if action == 1:
            g.vp[house] += 1
    elif step == ObjectiveStep.SCORE:
        if action != ACT_NONE:
            g.objective_at[action] = OBJ_SCORED + house
            g.vp[house] += t.objective_points[action, house]
    elif step == ObjectiveStep.RETURN:
        g.objective_at[action] = OBJ_DECK
    elif step == ObjectiveStep.POOL_PUT:
        g.objective_at[action] = OBJ_POOL
    else:  # POOL_TAKE
        g.objective_at[action] = house


@njit
def _any_scorable(g, t, house: int) -> bool:
    for k in range(N_OBJECTIVES):
        if can_score(g, t, house, k):
            return True
    return False


@njit
def objectives_step(g, t) -> None:
    """Run ``Phase.OBJECTIVES`` until a decision is pending, the game is won, or the phase ends
    (then planning at the start, the clean-up after the action phase)."""
    while g.pending == Decision.NONE and not g.done:
        step = g.loop_area
        if step == S_KEEP:
            while g.loop_house < t.players and in_hand(g, g.track[0, g.loop_house]) <= HAND:
                g.loop_house += 1
            if g.loop_house < t.players:
                ask(g, Decision.OBJECTIVE, g.track[0, g.loop_house], ObjectiveStep.RETURN)
                return
            g.phase = Phase.PLANNING
            clear_phase_counters(g)
            return
        if step == S_SUPPLY:
            set_supply_levels(g, t)
            g.recon_pos = 0
            g.loop_area = S_RECONCILE
        elif step == S_RECONCILE:
            if not reconcile_step(g, t):
                return
            g.recon_pos = 0
            g.loop_area = S_SPECIAL
        elif step == S_SPECIAL or step == S_SCORE:
            if g.loop_house >= t.players:
                g.loop_house = 0
                g.loop_area = S_SCORE if step == S_SPECIAL else S_DRAW
                continue
            house = g.track[0, g.loop_house]
            g.loop_house += 1
            if step == S_SPECIAL and special_objective_met(g, t, house):
                ask(g, Decision.OBJECTIVE, house, ObjectiveStep.SPECIAL)
                return
            if step == S_SCORE and _any_scorable(g, t, house):
                ask(g, Decision.OBJECTIVE, house, ObjectiveStep.SCORE)
                return
        else:  # S_DRAW, then the victory check
            for p in range(t.players):
                house = g.track[0, p]
                while in_hand(g, house) < HAND and draw_objective(g, house):
                    pass
            g.phase = Phase.CLEANUP  # which checks the points victory (machine._cleanup)
            clear_phase_counters(g)
            return


@njit
def after_action_phase(g, t) -> None:
    """The action phase is over: A Feast for Crows' steps follow (``Phase.OBJECTIVES``)."""
    g.phase = Phase.OBJECTIVES
    clear_phase_counters(g)
    g.loop_area = S_SUPPLY


@njit
def points_leader(g, t, least: int, lands: bool) -> int:
    """The house with the most victory points among those with at least ``least``; ties go to
    more land areas controlled (``lands``), then the higher place on the Iron Throne track. -1
    if no house has ``least``."""
    best = -1
    best_key = (-1, -1, -1)
    for house in range(H):
        if not g.in_play[house] or g.vp[house] < least:
            continue
        key = (
            int(g.vp[house]),
            land_areas_held(g, t, house) if lands else 0,
            -track_position(g, 0, house),
        )
        if key > best_key:
            best_key = key
            best = house
    return best


@njit
def check_points_victory(g, t) -> bool:
    """A house with ``t.victory_points`` points wins at once (several: the most points, then
    more land areas, then the Iron Throne track). True when the game is over."""
    winner = points_leader(g, t, t.victory_points, True)
    if winner >= 0:
        g.done = 1
        g.winner = winner
        g.end_reason = EndReason.OBJECTIVES
        g.phase = Phase.GAME_OVER
    return winner >= 0


__all__ = [
    "after_action_phase",
    "cards_at",
    "check_points_victory",
    "deal_objectives",
    "draw_objective",
    "in_hand",
    "objective_apply",
    "objective_legal",
    "objective_met",
    "objectives_step",
    "points_leader",
    "scored",
    "special_objective_met",
]
