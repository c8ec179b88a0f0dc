"""What A Feast for Crows' objective cards are worth to the heuristic: the areas its objectives
and its special objective name (added to those areas' worth while it holds them), and its answers
to the ``OBJECTIVE`` decisions: always score the special objective and the card worth most, keep
the cards nearest to being met, give away and put back the others.

Compiled (numba). A house reads only its own hand (and the public board and points).
"""

from __future__ import annotations

import numpy as np

from gotsim.engine.board_state import controller
from gotsim.engine.objectives import (
    ALL_OF,
    BRIDGES,
    DRAGONSTONE,
    KINGS_LANDING,
    LANNISPORT,
    THE_EYRIE,
    WINTERFELL,
    objective_met,
)
from gotsim.engine.state import ACT_NONE, N_OBJECTIVES, H, ObjectiveStep
from gotsim.jit import njit
from gotsim.rules.ids import House
from gotsim.rules.objectives import Objective

POINT_VALUE = 3.0  # worth of a victory point in area worth (a castle's worth: 7 of them win)
SPECIAL_VALUE = 1.5  # worth of the special objective's areas, per area (scored every round)
OTHER_EASE = 0.35  # how near a card without named areas is to being met
MET_BONUS = 1.0  # a card met now is worth this much more (times its points)

ARRYN, BARATHEON = int(House.ARRYN), int(House.BARATHEON)
LANNISTER, STARK = int(House.LANNISTER), int(House.STARK)
HOME_INVASION = int(Objective.HOME_INVASION)
CROSSING_GUARD = int(Objective.CROSSING_GUARD)
BACKDOOR_POLITICS = int(Objective.BACKDOOR_POLITICS)


@njit
def _special_areas(house: int, out) -> int:
    """The areas ``house``'s special objective names (into ``out``); their number."""
    if house == ARRYN:
        out[0] = THE_EYRIE
        return 1
    if house == BARATHEON:
        out[0] = DRAGONSTONE
        out[1] = KINGS_LANDING
        return 2
    if house == LANNISTER:
        out[0] = LANNISPORT
        out[1] = KINGS_LANDING
        return 2
    if house == STARK:
        out[0] = WINTERFELL
        return 1
    return 0


@njit
def objective_values(g, t, memo) -> None:
    """``memo.objective_value``: per house in play, the worth its objectives add to each area:
    a card's points (``POINT_VALUE`` each) shared among the areas it names (Crossing Guard:
    either bridge; Home Invasion: the other houses' home areas), and ``SPECIAL_VALUE`` per area
    of the special objective."""
    memo.objective_value[:, :] = 0.0
    if not t.victory_points:
        return
    areas = np.empty(3, np.int64)
    for house in range(H):
        if not g.in_play[house]:
            continue
        n = _special_areas(house, areas)
        for i in range(n):
            memo.objective_value[house, areas[i]] += SPECIAL_VALUE
        for k in range(N_OBJECTIVES):
            if g.objective_at[k] != house:
                continue
            worth = POINT_VALUE * t.objective_points[k, house]
            if ALL_OF[k, 0] >= 0:
                named = 0
                for i in range(3):
                    named += 1 if ALL_OF[k, i] >= 0 else 0
                for i in range(named):
                    memo.objective_value[house, ALL_OF[k, i]] += worth / named
            elif k == CROSSING_GUARD:
                for b in range(2):
                    for i in range(2):
                        memo.objective_value[house, BRIDGES[b, i]] += worth / 4.0
            elif k == HOME_INVASION:
                homes = 0
                for a in range(t.n_areas):
                    homes += 1 if t.home[a] >= 0 and t.home[a] != house else 0
                for a in range(t.n_areas):
                    if t.home[a] >= 0 and t.home[a] != house and g.in_play[t.home[a]]:
                        memo.objective_value[house, a] += worth / max(1, homes)


@njit
def keep_value(g, t, memo, house: int, k: int) -> float:
    """How much ``house`` wants objective card ``k`` in its hand: its points, more when it is
    met now, less the further its named areas lie from the house's reach."""
    points = float(t.objective_points[k, house])
    if objective_met(g, t, house, k, g.vp):
        return points * (1.0 + MET_BONUS)
    if ALL_OF[k, 0] >= 0:
        ease = 1.0
        for i in range(3):
            a = ALL_OF[k, i]
            if a >= 0 and controller(g, t, a) != house:
                ease *= 0.6 * float(memo.reach_scale[house, a])
        return points * ease
    if k == BACKDOOR_POLITICS:
        return points * 0.2
    return points * OTHER_EASE


@njit
def objective_choice(g, t, house: int, mask, params, memo) -> int:
    """The heuristic's answer to an ``OBJECTIVE`` decision."""
    step = g.ctx[0]
    if step == ObjectiveStep.SPECIAL:
        return 1
    best = -1
    best_v = 0.0
    for k in range(N_OBJECTIVES):
        if not mask[k]:
            continue
        if step == ObjectiveStep.SCORE:
            v = float(t.objective_points[k, house])
        elif step == ObjectiveStep.POOL_TAKE:
            v = keep_value(g, t, memo, house, k)
        else:  # RETURN, POOL_PUT: the card least worth keeping goes
            v = -keep_value(g, t, memo, house, k)
        if best < 0 or v > best_v:
            best = k
            best_v = v
    if best < 0:
        return ACT_NONE
    return best


__all__ = ["keep_value", "objective_choice", "objective_values"]
