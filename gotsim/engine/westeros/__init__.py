"""The Westeros phase: Westeros cards, supply, mustering, bidding, wildlings (2nd edition, and
the 1st edition's differences where ``t.edition == 1``: Rains of Autumn, no attack at the top of
the track, the fixed wildling outcome with the track back to 0).

Compiled (numba) like ``machine.py`` and run unchanged as Python under ``NUMBA_DISABLE_JIT=1``.
The package, each module importing only those before it: ``common`` (constants, slots, small
helpers), ``supply``, ``muster``, ``bidding`` (Game of Thrones, bids, Clash of Kings),
``wildlings`` (penalties, card effects, the attack), ``feast`` (A Feast for Crows' deck I:
Famine, Ironborn Raid, Shifting Ambitions, New Information), ``phase`` (the decks, each card in
turn, the phase's flow) and ``decisions`` (legal options and applying answers). The names below
are its public ones.
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
consolidate power phase (machine's own counters). No return flag is needed for it.

Where the phase stands (``engine.counters.WESTEROS_COUNTERS``, named fields of the record)
  ``westeros_step``   phase step: 0 draw, 1 attack at the top, 2 resolve cards, 3 finish
  ``westeros_card``   deck (0 I, 1 II, 2 III) of the card being resolved
  ``westeros_effect`` what the card is doing now (``E_*`` below)
  ``westeros_loop``   mustering, Shifting Ambitions, New Information: turn-order position;
                      Clash of Kings: track being bid on
  ``westeros_area``   mustering: next area to consider; Clash of Kings: 0 start, 1 bids, 2 ties,
                      3 Targaryen hands its bid out (Mother of Dragons)
  ``attack_step``     wildling attack: 0 idle, 1 bidding, 2 pick lowest/highest, 3 card effect
  ``attack_loop``     wildling attack: turn-order position of the "everyone else" loop
  ``attack_sub``      wildling attack effect: 0 chosen bidder, 1 everyone else, 2 reconcile, 3 end

Work space (``engine.counters.WESTEROS_WORK``)
  ``bid_pos``           next turn-order position to bid (Clash of Kings and wildlings)
  ``bid_track``         what is bid on: Track, or 3 (``WILDLINGS``)
  ``placed``            houses placed so far on the track being rebuilt (Clash of Kings)
  ``placed_mask``       bit per house placed
  ``new_track``         the rebuilt track, top first
  ``recon_pos``         supply reconciliation: next turn-order position to check
  ``wildling_strength`` wildling attack strength
  ``participants``      bit per house bidding (Clash: all in play; wildlings: minus excluded);
                        Shifting Ambitions: bit per house that put a card into the pool
  ``wildling_card``     wildling card revealed by this attack (-1 before)
  ``wildling_chosen``   lowest bidder (wildlings won) or highest bidder (Night's Watch won)
  ``attack_result``     bit 0: Night's Watch won; bit 1: this is Preemptive Raid's second attack

A Feast for Crows' deck I also asks ``OBJECTIVE`` decisions (``engine.objectives``: ctx0
``ObjectiveStep`` POOL_PUT, POOL_TAKE, RETURN), answered by ``objectives.objective_apply``;
the Westeros driver then resumes its loop. The cards put into the Shifting Ambitions pool are
face down until every house has put one: a policy must not read the pool while POOL_PUT.

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
                    Thrones, 2 nothing; Put to the Sword: 0 no defense, 1 no march+1, 2 nothing;
                    The Burden of Power: 0 wildling threat to 0, 1 mustering)
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
Horde Descends with nowhere to muster), and the objective card of Shifting Ambitions when
there is one only (a hand of one card, the pool's last card). In a wildling attack only
participating houses bid and suffer "everyone else" (Preemptive Raid's second attack leaves out
the first highest bidder).

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

from gotsim.engine.westeros.bidding import power_income
from gotsim.engine.westeros.common import (
    R_ANY,
    R_CASTLE2,
    ROLE_LOWEST,
    ROLE_OTHER,
    TC_KING_BOTTOM,
    TC_KING_TOP,
    WILDLINGS,
    WILDLINGS_1E,
    is_westeros_decision,
)
from gotsim.engine.westeros.decisions import westeros_apply, westeros_legal
from gotsim.engine.westeros.muster import (
    can_muster,
    muster_actions,
    muster_allowed,
    muster_bit,
    start_muster,
)
from gotsim.engine.westeros.phase import draw_cards, westeros_phase
from gotsim.engine.westeros.supply import armies_within_supply, supply_excess
from gotsim.engine.westeros.wildlings import start_wildling_attack, wildling_attack_step

__all__ = [
    "ROLE_LOWEST",
    "ROLE_OTHER",
    "R_ANY",
    "R_CASTLE2",
    "TC_KING_BOTTOM",
    "TC_KING_TOP",
    "WILDLINGS",
    "WILDLINGS_1E",
    "armies_within_supply",
    "can_muster",
    "draw_cards",
    "is_westeros_decision",
    "muster_actions",
    "muster_allowed",
    "muster_bit",
    "power_income",
    "start_muster",
    "start_wildling_attack",
    "supply_excess",
    "westeros_apply",
    "westeros_legal",
    "westeros_phase",
    "wildling_attack_step",
]
