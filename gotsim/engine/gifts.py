"""Gifts of power tokens (Mother of Dragons' ``gift_power`` option; ``docs/rules.md`` M19).

A player may give power tokens from its hand to another player. The printed option and Swords
and Ravens allow it at any moment outside a battle; a compiled game asks at one fixed moment: at
the start of every planning phase (after the vassals are claimed, before any order is placed),
each player house in Iron Throne order that holds power may make one gift (``gift_step``). The
decision ``Decision.GIFT_POWER`` has two steps: the receiver (``ACT_NONE``: no gift), then how
many tokens. The receiver takes them from its own available tokens (``gain_power``), so it
gets at most what it has room for, and the giver loses exactly what the receiver gained (S&R
``IngameGameState``, ``gift-power-tokens``). Vassals never give or receive.
"""

from __future__ import annotations

from gotsim.engine.board_state import ask, gain_power, lose_power, power_tokens_on_board
from gotsim.engine.state import ACT_NONE, Decision, H
from gotsim.jit import njit

GIFTS_DONE = 100  # ``gift_turn`` once every player has had its chance this round
PICK_RECEIVER, PICK_AMOUNT = 0, 1  # the decision's steps (ctx0); ctx1 the receiver chosen


@njit
def room(g, t, house: int) -> int:
    """Power tokens ``house`` could still take into its hand (its available ones)."""
    return t.power_total[house] - g.power[house] - power_tokens_on_board(g, t, house)


@njit
def _may_receive(g, t, giver: int, house: int) -> bool:
    return (
        house != giver and g.in_play[house] != 0 and t.vassal[house] == 0 and room(g, t, house) > 0
    )


@njit
def _may_give(g, t, house: int) -> bool:
    if house < 0 or t.vassal[house] or g.power[house] <= 0:
        return False
    for other in range(H):
        if _may_receive(g, t, house, other):
            return True
    return False


@njit
def gift_step(g, t) -> bool:
    """The planning phase's gifts; True while a ``GIFT_POWER`` decision is pending (then
    ``gift_apply`` moves ``g.gift_turn`` on), False once every player has had its chance."""
    if g.gift_turn == GIFTS_DONE:
        return False
    while g.gift_turn < t.players:
        house = g.track[0, g.gift_turn]
        g.gift_turn += 1
        if _may_give(g, t, house):
            ask(g, Decision.GIFT_POWER, house, PICK_RECEIVER)
            return True
    g.gift_turn = GIFTS_DONE
    return False


@njit
def gift_legal(g, t, mask) -> None:
    house = g.pending_house
    if g.ctx[0] == PICK_RECEIVER:
        for other in range(H):
            mask[other] = _may_receive(g, t, house, other)
        mask[ACT_NONE] = True
        return
    most = min(int(g.power[house]), room(g, t, g.ctx[1]))
    for n in range(1, most + 1):
        mask[n] = True


@njit
def gift_apply(g, t, house: int, action: int) -> None:
    """The giver's answer: a receiver (then the amount is asked), ``ACT_NONE``, or the amount."""
    if g.ctx[0] == PICK_RECEIVER:
        if action != ACT_NONE:
            ask(g, Decision.GIFT_POWER, house, PICK_AMOUNT, action)
        return
    got = gain_power(g, t, g.ctx[1], action)
    lose_power(g, house, got)


@njit
def end_of_planning(g) -> None:
    """The gifts are offered anew at the next planning phase."""
    g.gift_turn = 0


__all__ = ["GIFTS_DONE", "end_of_planning", "gift_apply", "gift_legal", "gift_step", "room"]
