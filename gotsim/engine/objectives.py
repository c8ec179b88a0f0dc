"""Whether a house meets an A Feast for Crows objective, from a game record (compiled).

``objective_met(g, t, house, objective, vp)`` answers for one objective card
(``gotsim.rules.objectives.Objective`` numbers) and ``special_objective_met(g, t, house)`` for the
house's special objective; ``vp`` holds every house's victory points (Backdoor Politics compares
them). Control is the engine's (``board_state.controller``: units, else a power token, else the
home area's house). "More than every other house" compares with the houses in play. The
conditions follow the card texts; where they leave a detail open, Swords and Ravens'
``objectiveCards.ts`` (commit ``0998e341``) decides (``docs/rules.md`` F1).
"""

from __future__ import annotations

import numpy as np

from gotsim.engine.board_state import LAND, PORT, SEA, controller, land_areas_held
from gotsim.engine.state import H
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
                n += 1 if t.kind[a] == LAND and t.stronghold[a] else 0
            elif what == C_CASTLES:
                n += 1 if t.kind[a] == LAND and t.castle[a] and not t.stronghold[a] else 0
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
            n += 1 if t.crowns[a] > 0 and controller(g, t, a) == house else 0
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
        forts = 0
        for i in range(t.n_forts):
            forts += 1 if controller(g, t, t.forts[i]) == house else 0
        return _holds(g, t, house, WINTERFELL) and forts >= 5
    return False


__all__ = ["objective_met", "special_objective_met"]
