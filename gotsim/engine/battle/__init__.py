"""A battle inside the engine: support, house cards and their abilities, Tides of Battle, the
Valyrian Steel Blade, casualties, retreat and the aftermath — on ``g.battle`` with the one combat
implementation of ``gotsim.engine.combat``.

Steps (``g.combat_step``): SUPPORT, CARDS, CANCEL, IMMEDIATELY, BEFORE_COMBAT (A Dance with
Dragons cards only), TIDES (and the blade's redraw), BLADE (its +1), RESOLVE, AFTER ("if you
win" abilities), CASUALTIES, RETREAT, RETREAT_LOSS, FINISH (the board settled; a vassal's Varys
and Beric Dondarrion), VASSALS_AFTER (a vassal's Jon Connington), LATE (Patchface and the A
Dance with Dragons and Mother of Dragons cards' choices after the combat), OVER. Cursors
(``engine.counters``):
``g.battle_cursor`` (the step's loop position), ``g.battle_winner`` (winner side once known),
``g.battle_retreating`` (the side that retreats, -1 none), ``g.battle_retreat_to`` (where it
retreats to). The attacking units are the march's
``g.moving[target]``; they stay in the march's origin until they win or retreat.

The package, each module importing only those before it: ``common`` (steps, cursors, hands,
support, the Tides of Battle draw), ``aftermath`` (casualties, retreats, finishing), ``affc``
(House Arryn's A Feast for Crows cards: its home area, Alayne Stone's payment, the power after
the combat), ``mod`` (House Arryn's and House Targaryen's Mother of Dragons cards: the board
around the battle, their choices, cards leaving the game), ``adwd`` (the A Dance with Dragons
cards' steps and the ``CARD_ABILITY`` decision they share with Alayne Stone and ``mod``'s),
``decisions`` (legal options and applying answers) and ``steps`` (the step machine);
``vassal_cards`` (Mother of Dragons' vassal house cards: a vassal's dealt cards, Jaqen H'ghar,
Bronn, and Beric Dondarrion, Varys and Jon Connington after the combat) imports ``common``
only, and ``adwd``, ``decisions`` and ``steps`` use it.
"""

from __future__ import annotations

from gotsim.engine.battle.aftermath import casualty_ok
from gotsim.engine.battle.common import (
    AFTER,
    BLADE_REDRAW_STAGE,
    RETREAT_LOSS_FLAG,
    card_arrays,
    next_undecided_supporter,
    recycle_by_rules,
    retreat_ok,
    side_house,
    start_battle,
    tides_arrays,
)
from gotsim.engine.battle.decisions import battle_apply, battle_legal
from gotsim.engine.battle.steps import battle_step

__all__ = [
    "AFTER",
    "BLADE_REDRAW_STAGE",
    "RETREAT_LOSS_FLAG",
    "battle_apply",
    "battle_legal",
    "battle_step",
    "card_arrays",
    "casualty_ok",
    "next_undecided_supporter",
    "recycle_by_rules",
    "retreat_ok",
    "side_house",
    "start_battle",
    "tides_arrays",
]
