"""House Arryn's A Feast for Crows cards in a battle, beside the combat code's own part (Bronze
Yohn Royce's strength, the power sums of ``gotsim.engine.combat``): whether Arryn holds its home
area, Alayne Stone's choice once the winner is known (a ``Decision.CARD_ABILITY``, asked in
``adwd.after_winner_step``) and Littlefinger's and Lysa Arryn's power after the combat.

A house's home area is the rules record's (``t.home[a] == house``; The Eyrie for Arryn, set by
the A Feast for Crows setup). Sources and rulings: docs/rules.md F2.
"""

from __future__ import annotations

from gotsim.engine import combat as cb
from gotsim.engine.battle.common import side_house
from gotsim.engine.board_state import controller, gain_power, lose_power
from gotsim.jit import njit
from gotsim.rules.ids import House

ARRYN = int(House.ARRYN)
ALAYNE_PAYS = 1  # CARD_ABILITY action of Alayne Stone: pay 2 power (ACT_NONE: not used)


@njit
def holds_home(g, t, house: int) -> bool:
    """Whether ``house`` controls its home area (some area ``a`` with ``t.home[a] == house``)."""
    if house < 0:
        return False
    for a in range(t.n_areas):
        if t.home[a] == house and controller(g, t, a) == house:
            return True
    return False


@njit
def alayne_holds_home(g, t, side: int) -> bool:
    """Alayne Stone's condition on the home area, asked before the victorious attacker moves
    in: the winner controls its home area, or the battle is fought for it (S&R
    ``AlayneStoneHouseCardAbility``)."""
    house = side_house(g, side)
    return holds_home(g, t, house) or (house >= 0 and t.home[g.combat_area] == house)


@njit
def alayne_asked(g, t, side: int) -> bool:
    """Alayne Stone's choice is ``side``'s to make: it won with her, holds its home area and
    has the 2 power tokens to pay."""
    b = g.battle
    if cb.active_ability(b, side, t.card_ability) != cb.Ability.ALAYNE_STONE:
        return False
    holds = alayne_holds_home(g, t, side)
    return cb.alayne_may_pay(b, side, g.battle_winner, t.card_ability, holds)


@njit
def alayne_pays(g, side: int) -> None:
    """Alayne Stone used: her house pays 2 power tokens, the opponent loses all of its own."""
    house, opponent = side_house(g, side), side_house(g, 1 - side)
    cb.alayne_pays(g.battle, side)
    lose_power(g, house, 2)
    lose_power(g, opponent, g.power[opponent])


@njit
def arryn_after_combat(g, t) -> None:
    """Littlefinger and Lysa Arryn, once the combat is over (the winner moved in): the power
    they take from the pool (up to the house's tokens, ``gain_power``)."""
    b = g.battle
    cards = (t.card_strength, t.card_swords, t.card_forts, t.card_ability, t.card_ref)
    for side in (cb.ATTACKER, cb.DEFENDER):
        mine = cb.active_ability(b, side, t.card_ability)
        if mine != cb.Ability.LITTLEFINGER and mine != cb.Ability.LYSA_ARRYN_FFC:
            continue
        house, opponent = side_house(g, side), side_house(g, 1 - side)
        theirs = g.power[opponent] if opponent >= 0 else 0
        holds = holds_home(g, t, house)
        gain = cb.power_after_combat(b, side, cards, holds, g.power[house], theirs)
        if gain > 0:
            gain_power(g, t, house, gain)
