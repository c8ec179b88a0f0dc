"""The record's loop counters and work space, by name, and how each group is cleared.

A phase that can stop at any decision keeps where it stands in named fields of the record
(``engine/state.py``), grouped by who uses them:

- ``PHASE_COUNTERS``: the phase in progress (``machine.py``): the loop over houses and areas of
  the planning and consolidate power phases, the one-time order placement (1e), the raven, the
  march being resolved (``marches.py``) and the battle it started (``battle/``). Cleared
  together when a phase ends (``clear_phase_counters``).
- ``WESTEROS_COUNTERS``: the Westeros phase and the wildling attack (``westeros/``).
- ``WESTEROS_WORK``: the Westeros phase's work space (bidding, the rebuilt track, supply
  reconciliation, the attack's strength, card and result).
- ``ONE_TIME_COUNTERS``: the 1st-edition one-time order being resolved (``one_time.py``).
"""

from __future__ import annotations

from typing import Any

from gotsim.jit import njit

PHASE_COUNTERS: tuple[str, ...] = (
    "loop_house",  # planning, consolidate power: turn-order position of the house in the loop
    "loop_area",  # ... and the next area to consider
    "plan_one_time_done",  # 1e planning: the one-time order placement is over
    "plan_one_time_turn",  # ... the turn-order position of the house asked next
    "raven_asked",  # the raven's holder has been asked
    "march_stage",  # marches.PICK, ASSIGN, ASK_LEAVE, RESOLVE, COMBAT or NEUTRAL
    "march_origin",  # the area marched from
    "march_unit",  # the unit type being assigned a destination
    "march_next",  # how many units of that type have one
    "march_target",  # the area attacked, -1 none
    "march_leave",  # 1 if a power token is left behind
    "march_replanned",  # 1 once a plan attacking a neutral force fell short (planned again)
    "battle_cursor",  # the battle step's loop position
    "battle_winner",  # the winning side once known
    "battle_retreating",  # the side that retreats, -1 none
    "battle_retreat_to",  # where it retreats to
)
WESTEROS_COUNTERS: tuple[str, ...] = (
    "westeros_step",  # phase step: draw, attack at the top, resolve cards, finish
    "westeros_card",  # deck (0 I, 1 II, 2 III) of the card being resolved
    "westeros_effect",  # what that card is doing now (westeros.common.E_*)
    "westeros_loop",  # mustering, objective cards: turn-order position; Clash: track bid on
    "westeros_area",  # mustering: next area; Clash of Kings: 0 start, 1 bids, 2 ties
    "attack_step",  # wildling attack: idle, bidding, pick lowest/highest, card effect
    "attack_loop",  # turn-order position of the attack's "everyone else" loop
    "attack_sub",  # the attack's effect: chosen bidder, everyone else, reconcile, end
)
WESTEROS_WORK: tuple[str, ...] = (
    "bid_pos",  # next turn-order position to bid (Clash of Kings and wildlings)
    "bid_track",  # what is bid on: Track, or westeros.common.WILDLINGS
    "placed",  # houses placed so far on the track being rebuilt (Clash of Kings)
    "placed_mask",  # bit per house placed
    "new_track",  # the rebuilt track, top first (H slots)
    "recon_pos",  # supply reconciliation: next turn-order position to check
    "wildling_strength",  # the wildling attack's strength
    "participants",  # bit per house bidding (Clash, wildlings); Shifting Ambitions: card put
    "wildling_card",  # the wildling card this attack revealed (-1 before)
    "wildling_chosen",  # lowest bidder (wildlings won) or highest (Night's Watch won)
    "attack_result",  # bit 0: Night's Watch won; bit 1: Preemptive Raid's second attack
)
ONE_TIME_COUNTERS: tuple[str, ...] = (
    "one_time_stage",  # 0 none, 1 resolving
    "one_time_area",  # the order's area
    "one_time_source",  # the area whose units are walked
    "one_time_unit",  # the unit type being moved
    "one_time_next",  # how many of them are done
    "one_time_step",  # the order's own step
)


@njit
def clear_phase_counters(g) -> None:
    """Every ``PHASE_COUNTERS`` field to 0: the phase in progress is over."""
    g.loop_house = 0
    g.loop_area = 0
    g.plan_one_time_done = 0
    g.plan_one_time_turn = 0
    g.raven_asked = 0
    g.march_stage = 0
    g.march_origin = 0
    g.march_unit = 0
    g.march_next = 0
    g.march_target = 0
    g.march_leave = 0
    g.march_replanned = 0
    g.battle_cursor = 0
    g.battle_winner = 0
    g.battle_retreating = 0
    g.battle_retreat_to = 0


@njit
def clear_westeros(g) -> None:
    """Every ``WESTEROS_COUNTERS`` and ``WESTEROS_WORK`` field to 0: a Westeros phase starts."""
    g.westeros_step = 0
    g.westeros_card = 0
    g.westeros_effect = 0
    g.westeros_loop = 0
    g.westeros_area = 0
    g.attack_step = 0
    g.attack_loop = 0
    g.attack_sub = 0
    g.bid_pos = 0
    g.bid_track = 0
    g.placed = 0
    g.placed_mask = 0
    g.new_track[:] = 0
    g.recon_pos = 0
    g.wildling_strength = 0
    g.participants = 0
    g.wildling_card = 0
    g.wildling_chosen = 0
    g.attack_result = 0


@njit
def clear_one_time(g) -> None:
    """Every ``ONE_TIME_COUNTERS`` field to 0: no one-time order is being resolved."""
    g.one_time_stage = 0
    g.one_time_area = 0
    g.one_time_source = 0
    g.one_time_unit = 0
    g.one_time_next = 0
    g.one_time_step = 0


def all_clear(g: Any, fields: tuple[str, ...]) -> bool:
    """Whether every field of ``fields`` in the record ``g`` is 0 (Python side)."""
    return not any(bool((g[name] != 0).any()) for name in fields)


__all__ = [
    "ONE_TIME_COUNTERS",
    "PHASE_COUNTERS",
    "WESTEROS_COUNTERS",
    "WESTEROS_WORK",
    "all_clear",
    "clear_one_time",
    "clear_phase_counters",
    "clear_westeros",
]
