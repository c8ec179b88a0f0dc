"""Between board positions and engine records: a record to resume play from a position, and a
position read back from a record at a phase boundary.

``record_from_position(p, seed)`` builds a one-game record (``STATE_DTYPE``) that ``advance``
picks up at the start of the position's phase (or action step); the Westeros and wildling decks,
which a position does not fix, are shuffled from the seed's nature stream as in ``new_games``
(and so are Westeros deck IV's undrawn cards and the cards of the Iron Bank's loan deck, those
in neither its slots nor a house's loans).
``position_from_record(g, rules)`` reads a record back as a ``Position``; the record must stand at
a phase boundary: no decision pending at the start of a phase, or the first decision of a phase
whose answer nothing before it depends on. Playing on from a position (``play_from_position``,
``simulate_from_position``) is batch play: ``gotsim.play.simulate``.

What the record cannot hold is refused with a ``PositionError``: the action phase without its
step, a raven used before the action phase, a restriction at the start
of the Westeros phase. Read back, ``raven_used`` is always false (the record keeps no trace of the
raven once its moment has passed) and ``kings_court_swap`` is whatever the caller says. A
1st-edition position resumes (its absent houses' neutral armies become neutral forces of their
strength, as in ``new_games``), and a 1st-edition record reads back (such a neutral force as
the army of that strength, ``_neutral_army``), A Clash of Kings modules included: their
fortifications, one-time orders (placed and used), Lion's Cunning's house and the look-ahead
module's face-up Westeros cards (the rest of each deck shuffled from the seed) are the
position's.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from gotsim.engine import marches as mv
from gotsim.engine import one_time as ot
from gotsim.engine.board_state import unit_count
from gotsim.engine.counters import WESTEROS_COUNTERS, all_clear
from gotsim.engine.gifts import GIFTS_DONE
from gotsim.engine.init import new_games, place_neutral_forces
from gotsim.engine.machine import order_allowed
from gotsim.engine.objectives import DEALT, S_KEEP
from gotsim.engine.position import (
    RESTRICTIONS,
    ActionStep,
    Position,
    PositionError,
    RoundPhase,
    deck_iv_cards,
    dump_position,
    load_position,
    order_tokens,
)
from gotsim.engine.state import (
    N_ORDER_KINDS,
    OBJ_DECK,
    OBJ_SCORED,
    ONE_TIME_HOUSE,
    ONE_TIME_TYPE,
    ORDER_COUNT,
    ORDER_NAMES,
    ORDER_SEA_ONLY,
    ORDER_STAR,
    ORDER_TYPE,
    STATE_DTYPE,
    Decision,
    EndReason,
    OneTimeOrder,
    Phase,
    Restriction,
)
from gotsim.engine.tables import WesterosCard, board_of, expansion_of, rules_table
from gotsim.engine.vassals import CLAIMS_DONE
from gotsim.rules.cards import house_deck
from gotsim.rules.ids import House, OrderType, Unit
from gotsim.rules.iron_bank import LOAN_CARDS
from gotsim.rules.objectives import Objective
from gotsim.rules.one_time import ONE_TIME_ICON, ONE_TIME_KINDS, ONE_TIME_OWNER
from gotsim.rules.setup import load_setup
from gotsim.rules.units import unit_facts
from gotsim.rules.variants import CLASH_OF_KINGS_VARIANTS, played_card_set

EDITION = "2e"  # the edition whose order tokens the engine's order kinds are
PLAYABLE = ("1e", "2e")  # editions whose positions the engine resumes

# position vocabulary ↔ engine vocabulary
ORDER_KIND: Mapping[str, int] = {name: kind for kind, name in enumerate(ORDER_NAMES)}
RESTRICTION_BIT: Mapping[str, int] = {
    "no_defense": Restriction.NO_DEFENSE,
    "no_march_plus_one": Restriction.NO_MARCH_PLUS,
    "no_raid": Restriction.NO_RAID,
    "no_support": Restriction.NO_SUPPORT,
    "no_consolidate_power": Restriction.NO_CONSOLIDATE,
    "footmen_no_support": Restriction.FOOTMEN_NO_SUPPORT,
}
STEP_PHASE: Mapping[ActionStep, Phase] = {
    ActionStep.RAID: Phase.RAIDS,
    ActionStep.MARCH: Phase.MARCHES,
    ActionStep.CONSOLIDATE_POWER: Phase.CONSOLIDATE,
}
# the record fields a position sets; every other field keeps its ``new_games`` value
POSITION_FIELDS: tuple[str, ...] = (
    "game_round",
    "phase",
    "power",
    "supply",
    "track",
    "hand",
    "discard",
    "orders_used",
    "blade_used",
    "restrict",
    "owner",
    "units",
    "routed",
    "order",
    "power_token",
    "garrison",
    "neutral",
    "threat",
    "objective_at",
    "vp",
    # Mother of Dragons at 8 players (zero in every other game, as new_games leaves them)
    "loyalty",
    "loyalty_taken",
    "loyalty_placed",
    "dragon_boost",
    "deck4_next",
    "deck4_drawn",
    # the Iron Bank's improvements (zero unless a loan put them) and the flag that has the
    # readers look at them (board_state.add_improvement)
    "crown_bonus",
    "barrel_bonus",
    "castle_delta",
    "improved",
    # the Iron Bank's interest work space, as the engine leaves it at a phase boundary (set by
    # _position_fields; zero without the Iron Bank)
    "debt_pos",
    "debt_left",
    # gifts of power tokens (M19): done in a planning phase once an order stands
    "gift_turn",
    # 1st edition, A Clash of Kings: fortifications, one-time orders placed and used, the
    # house Lion's Cunning names (nothing, -1, as new_games leaves them, in other games)
    "fortification",
    "one_time",
    "one_time_used",
    "lions_cunning",
    "plan_one_time_done",
    # vassals: each vassal's commander and the claims' place (done in a planning position with
    # an order standing, V2; -1 and 0 without vassals, as new_games leaves them)
    "commander",
    "claim_turn",
    "claim_left",
)


def _check_vocabulary() -> None:
    """The engine's order kinds and restriction bits name exactly the position's tokens."""
    tokens = order_tokens(EDITION, sea_orders=True, iron_bank=True)
    assert set(ORDER_KIND) == set(tokens), "order names differ between engine and positions"
    for name, kind in ORDER_KIND.items():
        token = tokens[name]
        assert ORDER_COUNT[kind] == token.count and bool(ORDER_STAR[kind]) == token.special
        assert ORDER_TYPE[kind] == token.kind and bool(ORDER_SEA_ONLY[kind]) == token.sea_only
    assert set(RESTRICTION_BIT) == set(RESTRICTIONS)
    assert tuple(kind.name.lower() for kind in OneTimeOrder) == ONE_TIME_KINDS
    for k, one_time in enumerate(ONE_TIME_KINDS):
        owner = ONE_TIME_OWNER[one_time]
        assert ONE_TIME_HOUSE[k] == (-1 if owner is None else owner), one_time
        assert ONE_TIME_TYPE[k] == ONE_TIME_ICON[one_time], one_time


_check_vocabulary()


class NotAtBoundaryError(ValueError):
    """A record in the middle of a phase (or of a battle): no position describes it."""


Record = Any  # one game record (``np.record`` of ``STATE_DTYPE``); numba sees its fields
PositionSource = Position | Mapping[str, Any] | str | Path


def _one(value: Any) -> Any:
    """The record itself, from a record or a one-element record array."""
    if isinstance(value, np.ndarray) and value.shape == (1,):
        return value[0]
    return value


def _seed_sequence(seed: int | np.random.SeedSequence) -> np.random.SeedSequence:
    """An int seed means game 0 of that seed, as in ``Game`` and ``gotsim.simulate``. A
    ``SeedSequence`` is copied unspawned: ``new_games`` spawns the streams from it, which would
    otherwise change the caller's sequence (and the next record made from it)."""
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(
            seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size
        )
    return np.random.SeedSequence(seed, spawn_key=(0,))


# --- position → record -------------------------------------------------------------------------


def resumable_position(source: PositionSource) -> Position:
    """The position, validated again by the loader, and checked for what a record can hold."""
    p = load_position(dump_position(source) if isinstance(source, Position) else source)
    if p.edition not in PLAYABLE:
        raise PositionError(f"edition: the engine cannot resume a {p.edition!r} position")
    if p.phase == RoundPhase.ACTION and p.step is None:
        raise PositionError(
            "step: resuming the action phase needs its step (raid, march or consolidate_power)"
        )
    if p.phase == RoundPhase.PLANNING and p.raven_used:
        raise PositionError(
            "raven_used: the raven is used after the planning phase; a planning position "
            "cannot have used it"
        )
    if p.phase == RoundPhase.WESTEROS and p.restriction is not None:
        raise PositionError(
            "restriction: at the start of the westeros phase no restriction is in force yet "
            "(deck III is drawn during the phase)"
        )
    return p


def _engine_phase(p: Position) -> Phase:
    if p.phase == RoundPhase.WESTEROS:
        return Phase.WESTEROS
    if p.phase == RoundPhase.PLANNING:
        return Phase.PLANNING
    assert p.step is not None
    return STEP_PHASE[p.step]


def _position_fields(p: Position) -> NDArray[np.void]:
    """A zero-dimensional record holding the ``POSITION_FIELDS`` of the position."""
    board = p.board
    g = np.zeros((), STATE_DTYPE)
    g["game_round"] = p.round
    g["phase"] = _engine_phase(p)
    g["track"][:] = -1
    for t, track in enumerate(("iron_throne", "fiefdoms", "kings_court")):
        for pos, house in enumerate(p.tracks[track]):
            g["track"][t, pos] = house
    for house in p.houses:
        g["power"][house] = p.power[house]
        g["supply"][house] = p.supply[house]
        deck = house_deck(p.edition, house, p.card_set)
        slots = {card.id: slot for slot, card in enumerate(deck)}
        g["hand"][house] = sum(1 << slots[c] for c in p.hands[house])
        g["discard"][house] = sum(1 << slots[c] for c in p.discards[house])
    g["owner"][:] = -1
    g["order"][:] = -1
    g["power_token"][:] = -1
    for area, house in p.occupants.items():
        a = board.index(area)
        g["owner"][a] = house
        for unit, n in p.units.get(area, {}).items():
            g["units"][a, unit] += n
        for unit, n in p.routed.get(area, {}).items():
            g["units"][a, unit] += n  # the record's units include the routed ones
            g["routed"][a, unit] = n
    for area, name in p.orders.items():
        a = board.index(area)
        kind = ORDER_KIND[name]
        g["order"][a] = kind
        g["orders_used"][g["owner"][a], kind] += 1
    for area, house in p.power_tokens.items():
        g["power_token"][board.index(area)] = house
    for area, strength in p.garrisons.items():
        g["garrison"][board.index(area)] = strength
    place_neutral_forces(g, board, p.edition, p.neutral_forces, p.neutral_armies)
    g["blade_used"] = p.blade_used
    g["restrict"] = RESTRICTION_BIT[p.restriction] if p.restriction else 0
    g["threat"] = p.wildling_threat
    g["objective_at"][:] = OBJ_DECK
    for house, n in p.victory_points.items():
        g["vp"][house] = n
    for house, cards in (p.objectives or {}).items():
        for card in cards:
            g["objective_at"][Objective[card.upper()]] = house
    for house, cards in p.objectives_scored.items():
        for card in cards:
            g["objective_at"][Objective[card.upper()]] = OBJ_SCORED + house
    for area, n in p.loyalty.items():
        g["loyalty"][board.index(area)] = n
    g["loyalty_taken"] = p.loyalty_taken
    g["loyalty_placed"] = p.loyalty_placed
    g["dragon_boost"] = p.dragon_boost
    g["deck4_next"] = len(p.deck_iv)
    this_round = p.deck_iv_this_round
    g["deck4_drawn"] = -1 if this_round is None else deck_iv_cards().index(this_round)
    for key in ("crown_bonus", "barrel_bonus", "castle_delta"):
        for area, n in getattr(p, key).items():
            g[key][board.index(area)] = n
            g["improved"] = 1  # (the readers then look at them, board_state.add_improvement)
    # The interest (IB6) is paid at the start of each Westeros phase from round 2: not begun
    # at the start of a Westeros phase (a boundary never stands in the middle of it), done
    # (every house in turn order charged) in the phases after it, not yet in round 1
    paid = p.iron_bank and p.round > 1 and p.phase != RoundPhase.WESTEROS
    g["debt_pos"] = len(p.houses) + 1 if paid else 0  # (every house on the tracks, vassals too)
    g["debt_left"] = 0
    # Gifts of power tokens (M19) open the planning phase, before any order is placed
    made = p.variants.get("gift_power") and p.phase == RoundPhase.PLANNING and p.orders
    g["gift_turn"] = GIFTS_DONE if made else 0
    # A Clash of Kings (1st edition): each fortification is its builder's, the house whose
    # units stand there (K3)
    for area in p.fortifications:
        g["fortification"][board.index(area)] = 1 + p.occupants[area]
    g["one_time"][:] = -1
    for area, one_time in p.one_time_orders.items():
        g["one_time"][board.index(area)] = ONE_TIME_KINDS.index(one_time)
    for house, kinds in p.one_time_used.items():
        g["one_time_used"][house] = sum(1 << ONE_TIME_KINDS.index(k) for k in kinds)
    g["lions_cunning"] = -1 if p.lions_cunning is None else p.lions_cunning
    # one-time orders (O2) are placed before the other orders: a planning position with orders
    # of either kind standing is past their placement
    planning = p.phase == RoundPhase.PLANNING
    modules = bool(p.variants.get("one_time_orders"))
    g["plan_one_time_done"] = modules and planning and bool(p.orders or p.one_time_orders)
    g["commander"][:] = -1
    for vassal, commander in p.commanders.items():
        g["commander"][vassal] = commander
    # the claims open the planning phase and their place goes back to 0 when it ends: done in a
    # planning position that names the commanders (an order stands), else not begun
    claimed = planning and bool(p.commanders)
    g["claim_turn"] = CLAIMS_DONE if claimed else 0
    g["claim_left"] = 0
    return g


def _face_up_first(games: np.recarray, face_up: tuple[tuple[str, ...], ...]) -> None:
    """The look-ahead module (K9): each Westeros deck with the position's face-up cards on top,
    next first, and its other cards after them in the order ``new_games`` shuffled them."""
    for g in games:
        for d, cards in enumerate(face_up):
            rest = [int(c) for c in g["westeros"][d]]
            top = [int(WesterosCard[card.upper()]) for card in cards]
            for card in top:
                rest.remove(card)
            g["westeros"][d] = top + rest
            g["westeros_next"][d] = 0


def _loans_in_place(games: np.recarray, p: Position) -> None:
    """The Iron Bank of the position: its slots and loans held, the other loan cards in the
    deck in the order ``new_games`` shuffled them (its first slot's card, then its deck). A
    position whose slots are not fixed keeps ``new_games``' slots, the setup's."""
    if p.loan_slots is None:
        return
    slots = [-1 if card is None else LOAN_CARDS.index(card) for card in p.loan_slots]
    held = {LOAN_CARDS.index(card) for cards in p.loans.values() for card in cards}
    for g in games:
        shuffled = [int(c) for c in g["loan_slot"] if c >= 0]
        shuffled += [int(c) for c in g["loan_deck"][: int(g["loan_deck_n"])]]
        deck = [c for c in shuffled if c not in slots and c not in held]
        g["loan_deck"][:] = -1
        g["loan_deck"][: len(deck)] = deck
        g["loan_deck_n"] = len(deck)
        g["loan_slot"][:] = slots
        g["loans_held"][:] = 0
        for house, cards in p.loans.items():
            g["loans_held"][house] = sum(1 << LOAN_CARDS.index(card) for card in cards)


def _deck_iv_drawn_first(games: np.recarray, drawn: tuple[str, ...]) -> None:
    """Westeros deck IV with the position's drawn cards on top in the order drawn, the others
    after them in the order ``new_games`` shuffled them."""
    ids = deck_iv_cards()
    top = [ids.index(card) for card in drawn]
    for g in games:
        rest = [int(c) for c in g["deck4"] if int(c) not in top]
        g["deck4"][:] = top + rest


def position_records(p: Position, seeds: Sequence[np.random.SeedSequence]) -> np.recarray:
    """One record per seed: ``new_games``' decks and random streams, the position's board."""
    games = new_games(
        seeds,
        edition=p.edition,
        players=p.players,
        expansion=p.expansion,
        vassals=bool(p.variants.get("vassals")),
        eight_houses=bool(p.variants.get("eight_houses")),
        iron_bank=p.iron_bank,
    )
    fields = _position_fields(p)
    dealing = p.expansion == "affc" and p.objectives is None
    for name in POSITION_FIELDS:
        if not (dealing and name in ("phase", "objective_at")):
            games[name][:] = fields[name]
    # A Feast for Crows at the start: the cards new_games dealt, each house to keep 3 of 5;
    # otherwise the hands are the position's and the dealing step's counters go
    if p.expansion == "affc" and not dealing:
        games["loop_area"] = 0
        games["loop_house"] = 0
    if p.loyalty_game:
        _deck_iv_drawn_first(games, p.deck_iv)
    if p.iron_bank:
        _loans_in_place(games, p)
    if p.westeros_face_up is not None:
        _face_up_first(games, p.westeros_face_up)
    return games


def record_from_position(
    position: PositionSource, seed: int | np.random.SeedSequence = 0
) -> np.recarray:
    """A one-game record (``STATE_DTYPE``, shape (1,)) in the position's state, ready for
    ``advance`` at the start of its phase.

    Planning: the orders of the position stay placed and planning goes on with the areas still
    without an order. Action: the step (``raid``, ``march``, ``consolidate_power``) begins with
    the first house in turn order. Westeros: the phase begins (round ``position.round``). The
    Westeros and wildling decks are shuffled from the seed's nature stream exactly as
    ``new_games`` does; an int ``seed`` means ``SeedSequence(seed, spawn_key=(0,))`` like
    ``Game``. Pair it with ``position_rules(position)``.

    >>> from gotsim.engine.position import starting_position
    >>> g = record_from_position(starting_position("2e", 6), seed=1)
    >>> int(g[0].game_round), Phase(int(g[0].phase)).name, int(g[0].power[House.STARK])
    (1, 'PLANNING', 5)
    """
    p = resumable_position(position)
    return position_records(p, [_seed_sequence(seed)])


def position_rules(position: Position) -> np.recarray:
    """The rule table a record of this position plays under: ``tables.rules_for`` for its
    edition, player count and variants."""
    if position.edition not in PLAYABLE:
        raise PositionError(f"edition: the engine cannot play {position.edition!r}")
    return rules_table(
        position.edition, position.players, dict(position.variants), position.expansion
    )


# --- record → position -------------------------------------------------------------------------


def _house_at(g: Record, pos: int) -> int:
    return int(g.track[0, pos])


def _ordered(g: Record, t: Record) -> bool:
    """Whether any order stands on the board (in a planning phase: the gifts, the claims of
    vassals and the one-time orders are over)."""
    return bool((g.order[: int(t.n_areas)] >= 0).any())


def _order_at(g: Record, a: int, house: int, order_type: int) -> bool:
    """Whether ``house``'s units in ``a`` hold an order of ``order_type``, or a one-time order
    whose icon is that type (A Clash of Kings, O3)."""
    if g.owner[a] != house:
        return False
    if g.order[a] >= 0 and ORDER_TYPE[g.order[a]] == order_type:
        return True
    return bool(g.one_time[a] >= 0 and ONE_TIME_TYPE[g.one_time[a]] == order_type)


def _has_orders(g: Record, n_areas: int, house: int, order_type: int) -> bool:
    return any(_order_at(g, a, house, order_type) for a in range(n_areas))


def _turn_restartable(g: Record, t: Record, order_type: int) -> bool:
    """Raids and marches go one order per house in turn; restarting the step at turn 0 changes
    nothing if no house before ``g.turn`` still has an order of the step's type."""
    return not any(
        _has_orders(g, int(t.n_areas), _house_at(g, pos), order_type) for pos in range(g.turn)
    )


def _consolidate_restartable(g: Record, t: Record) -> bool:
    """No consolidate power order left in an area the loop has passed (the one a pending
    ``CONSOLIDATE_CHOICE`` asks about is still to be answered)."""
    asked = int(g.ctx[0]) if g.pending == Decision.CONSOLIDATE_CHOICE else -1
    for pos in range(int(t.players)):
        house = _house_at(g, pos)
        for a in range(int(t.n_areas)):
            passed = pos < g.loop_house or (pos == g.loop_house and a < g.loop_area)
            if passed and a != asked and _order_at(g, a, house, OrderType.CONSOLIDATE_POWER):
                return False
    return True


def _dealing(g: Record, t: Record) -> bool:
    """A Feast for Crows at the start: the objective cards dealt, none put back yet."""
    if not (t.victory_points and int(g.phase) == Phase.OBJECTIVES and g.game_round == 1):
        return False
    held = [int((g.objective_at == h).sum()) for h in range(len(House)) if g.in_play[h]]
    return g.loop_area == S_KEEP and g.loop_house == 0 and held == [DEALT] * len(held)


def boundary(g: Record, t: Record) -> tuple[RoundPhase, ActionStep | None]:
    """The position phase (and action step) the record stands at the start of.

    A record at the start of a phase with nothing pending is at a boundary; so is one whose
    pending decision is the first of its phase (or of its action step), such as the record
    ``Game`` holds right after a phase change. The raven (the record's ``RAVEN`` phase) counts
    as the end of planning until its holder has chosen. A finished game gives where it ended:
    the march step (castle victory) or the end of the action phase (after round 10).
    Anything else raises ``NotAtBoundaryError``.
    """
    g, t = _one(g), _one(t)
    phase, pending = int(g.phase), int(g.pending)
    action = RoundPhase.ACTION
    if g.done:
        if g.end_reason == EndReason.CASTLES:
            return action, ActionStep.MARCH
        return action, ActionStep.CONSOLIDATE_POWER
    if g.combat_area >= 0:
        raise NotAtBoundaryError("a battle is in progress")
    if t.one_time_orders and g.one_time_stage != 0:
        raise NotAtBoundaryError("a one-time order is being resolved")
    if (
        phase == Phase.WESTEROS
        and pending == Decision.NONE
        and all_clear(g, WESTEROS_COUNTERS)
        and (not t.iron_bank or g.debt_pos == 0)  # (the Iron Bank's interest not begun)
    ):
        return RoundPhase.WESTEROS, None
    if phase == Phase.OBJECTIVES and _dealing(g, t):
        return RoundPhase.PLANNING, None  # A Feast for Crows: the objective cards just dealt
    if t.victory_points and phase in (Phase.OBJECTIVES, Phase.CLEANUP):
        raise NotAtBoundaryError(
            "the record is in the steps after the action phase (A Feast for Crows' objectives); "
            "the next Westeros phase is the next boundary"
        )
    if phase == Phase.PLANNING and pending in (
        Decision.NONE,
        Decision.PLACE_ORDER,
        Decision.ONE_TIME_ORDER,
    ):
        _planning_reopens(g, t, False)
        if t.one_time_orders:
            _placement_reopens(g, t)
        if t.vassals:
            _claims_reopen(g, t)
        if t.gift_power and g.gift_turn != 0 and not _ordered(g, t):
            raise NotAtBoundaryError(
                "the gifts of power tokens of this planning phase are made and no order is "
                "placed yet (a position there would offer the gifts again); the first order "
                "placed is the next boundary"
            )
        return RoundPhase.PLANNING, None
    if phase == Phase.RAVEN:
        if (pending == Decision.NONE and g.raven_asked == 0) or pending == Decision.RAVEN:
            _planning_reopens(g, t, True)
            return RoundPhase.PLANNING, None  # every order placed, the raven still to come
        if pending == Decision.NONE:
            return action, ActionStep.RAID
    if (
        phase == Phase.RAIDS
        and pending in (Decision.NONE, Decision.RAID_FROM)
        and _turn_restartable(g, t, OrderType.RAID)
    ):
        return action, ActionStep.RAID
    if (
        phase == Phase.MARCHES
        and g.march_stage == mv.PICK
        and pending in (Decision.NONE, Decision.MARCH_FROM)
        and _turn_restartable(g, t, OrderType.MARCH)
    ):
        return action, ActionStep.MARCH
    if (
        phase == Phase.CONSOLIDATE
        and pending in (Decision.NONE, Decision.CONSOLIDATE_CHOICE)
        and _consolidate_restartable(g, t)
    ):
        return action, ActionStep.CONSOLIDATE_POWER
    if phase == Phase.CLEANUP and pending == Decision.NONE:
        return action, ActionStep.CONSOLIDATE_POWER  # the step is over, its orders all gone
    where = Phase(phase).name.lower()
    waiting = f", {Decision(pending).name} pending" if pending != Decision.NONE else ""
    raise NotAtBoundaryError(f"the record is in the middle of the {where} phase{waiting}")


def _planning_reopens(g: Record, t: Record, planned: bool) -> None:
    """A record read as a planning position resumes planning from its start. In the 1st
    edition an area may be left without an order, and planning would ask for it again: once
    planning has passed such an area (``planned``: the phase is over, every area passed) the
    record is no boundary."""
    if t.edition == 1 and _left_without_order(g, t, planned):
        raise NotAtBoundaryError(
            "1st edition: an area was left without an order, which a position cannot tell from "
            "an area still to be given one (planning would ask again); the raid step is the "
            "next boundary"
        )


def _claims_reopen(g: Record, t: Record) -> None:
    """Vassals are claimed at the start of each planning phase (V2), and a planning position
    names their commanders, the claims made, only once an order stands (``position_records``):
    a record in the middle of the claims, or past them with no order placed, is no boundary."""
    if g.claim_turn == 0:
        return
    if g.claim_turn != CLAIMS_DONE:
        raise NotAtBoundaryError(
            "the vassals are being claimed; the first order placed is the next boundary"
        )
    if not _ordered(g, t):
        raise NotAtBoundaryError(
            "the vassals are claimed and no order is placed yet (a position there would claim "
            "them again); the first order placed is the next boundary"
        )


def _placement_reopens(g: Record, t: Record) -> None:
    """A Clash of Kings' one-time orders are placed before the other orders (O2), and a
    planning position resumes past their placement only when an order of either kind stands
    (``position_records``): a record whose placement went on without leaving one, while some
    house could have placed one, is no boundary (the houses already asked would be asked
    again)."""
    n = int(t.n_areas)
    placed = bool((g.one_time[:n] >= 0).any())
    if g.plan_one_time_done:
        if placed or _ordered(g, t):
            return
        asked = range(int(t.players))
    else:
        if placed:
            raise NotAtBoundaryError(
                "the one-time orders are being placed (a position would resume past their "
                "placement); the first other order placed is the next boundary"
            )
        asked = range(int(g.plan_one_time_turn))
    if any(_house_at(g, pos) >= 0 and ot.can_place(g, t, _house_at(g, pos)) for pos in asked):
        raise NotAtBoundaryError(
            "houses have passed on placing a one-time order and no order stands yet (a "
            "position there would ask them again); the first order placed is the next boundary"
        )


def _left_without_order(g: Record, t: Record, planned: bool) -> bool:
    """Whether the planning phase already passed an area of a house's units that could take an
    order and was left without one (``planned``: every area passed)."""
    turn = {int(g.track[0, k]): k for k in range(int(t.players))}
    for a in range(int(t.n_areas)):
        house = int(g.owner[a])
        if house < 0 or g.order[a] >= 0 or unit_count(g, a) == 0 or house not in turn:
            continue
        passed = planned or turn[house] < g.loop_house
        passed = passed or (turn[house] == g.loop_house and a < g.loop_area)
        if passed and any(order_allowed(g, t, house, a, k, -1) for k in range(N_ORDER_KINDS)):
            return True
    return False


def _counts(row: NDArray[np.int8]) -> dict[str, int]:
    return {Unit(u).id: int(n) for u, n in enumerate(row) if n}


def position_spec(g: Record, rules: Any, *, kings_court_swap: bool = False) -> dict[str, Any]:
    """The position JSON dict of a record at a phase boundary (``position_from_record``
    before validation)."""
    g, t = _one(g), _one(rules)
    phase, step = boundary(g, t)
    edition = "2e" if t.edition == 2 else "1e"
    modules = [name for name in CLASH_OF_KINGS_VARIANTS if edition == "1e" and t[name]]
    expansion = expansion_of(t)
    card_set = played_card_set(expansion, bool(t.adwd_house_cards))
    board = board_of(t)
    houses = [House(h) for h in range(len(House)) if g.in_play[h]]
    vassals = [h for h in houses if t.vassals and t.vassal[h]]
    on_tracks = int(t.players)  # (with vassals: every house of the board)
    players = on_tracks - len(vassals)
    # (1st edition, 3 and 4 players: the absent houses' units, neutral forces in the record)
    armies = load_setup(edition, players).neutral_armies if edition == "1e" else {}
    areas: dict[str, dict[str, Any]] = {}
    for a in range(int(t.n_areas)):
        record: dict[str, Any] = {}
        if g.owner[a] >= 0:
            record["house"] = House(int(g.owner[a])).id
            standing = _counts(g.units[a] - g.routed[a])
            routed = _counts(g.routed[a])
            if standing:
                record["units"] = standing
            if routed:
                record["routed"] = routed
            if g.order[a] >= 0:
                record["order"] = ORDER_NAMES[int(g.order[a])]
        if g.power_token[a] >= 0:
            record["power_token"] = House(int(g.power_token[a])).id
        if g.garrison[a] > 0:
            record["garrison"] = int(g.garrison[a])
        if g.neutral[a] > 0 and board.area_ids[a] in armies:
            record["neutral_army"] = _neutral_army(armies[board.area_ids[a]], int(g.neutral[a]))
        elif g.neutral[a] > 0:
            record["neutral_force"] = int(g.neutral[a])
        if g.loyalty[a] > 0:
            record["loyalty"] = int(g.loyalty[a])
        for key in ("crown_bonus", "barrel_bonus", "castle_delta"):
            if g[key][a] != 0:
                record[key] = int(g[key][a])
        if g.fortification[a] > 0:
            record["fortification"] = True
        if g.one_time[a] >= 0:
            record["one_time_order"] = ONE_TIME_KINDS[int(g.one_time[a])]
        if record:
            areas[board.area_ids[a]] = record
    restrict = int(g.restrict)
    names = [name for name, bit in RESTRICTION_BIT.items() if restrict & bit]
    if len(names) > 1 or restrict & ~sum(RESTRICTION_BIT.values()):
        raise PositionError(f"restriction: the record holds restriction bits {restrict:#x}")
    hands: dict[str, list[str]] = {}
    discards: dict[str, list[str]] = {}
    out_of_game: dict[str, list[str]] = {}  # Mother of Dragons: in neither hand nor discards
    for house in houses:
        if house in vassals and not g.discard[house]:
            continue  # (a vassal's own house cards, never played, left out while whole: V12)
        deck = [card.id for card in house_deck(edition, house, card_set)]
        held = int(g.hand[house])
        hands[house.id] = [c for i, c in enumerate(deck) if (held >> i) & 1]
        discards[house.id] = [c for i, c in enumerate(deck) if (int(g.discard[house]) >> i) & 1]
        gone = [c for i, c in enumerate(deck) if not ((held | int(g.discard[house])) >> i) & 1]
        if gone:
            out_of_game[house.id] = gone
    spec: dict[str, Any] = {
        "edition": edition,
        **({"expansion": expansion} if expansion else {}),
        "players": players,
        "variants": {
            "tides_of_battle": bool(t.tides_of_battle),
            "kings_court_swap": kings_court_swap,
            "adwd_house_cards": card_set == "adwd",
            **({"eyrie_port": True} if t.eyrie_port else {}),
            **({"sea_orders": bool(t.sea_orders)} if expansion == "mod" else {}),
            **({"iron_bank": bool(t.iron_bank)} if expansion == "mod" else {}),
            **({"gift_power": bool(t.gift_power)} if expansion == "mod" else {}),
            **dict.fromkeys(modules, True),
            **({"vassals": True} if vassals else {}),
            # (the 8-house board with vassals: Mother of Dragons' board for 8, fewer playing)
            **({"eight_houses": True} if vassals and board.name == "mod8" else {}),
        },
        "round": int(g.game_round),
        "phase": phase.id,
    }
    if step is not None:
        spec["step"] = step.id
    spec.update(
        {
            "areas": areas,
            "tracks": {
                track: [House(int(h)).id for h in g.track[i, :on_tracks]]
                for i, track in enumerate(("iron_throne", "fiefdoms", "kings_court"))
            },
            "blade_used": bool(g.blade_used),
            "raven_used": False,
            "power": {h.id: int(g.power[h]) for h in houses if h not in vassals},
            "supply": {h.id: int(g.supply[h]) for h in houses},
            "hands": hands,
            "discards": discards,
            "wildling_threat": int(g.threat),
            "restriction": names[0] if names else None,
        }
    )
    if out_of_game:
        spec["out_of_game"] = out_of_game
    # vassals (V2): their commanders, in a planning phase once an order stands (the claims
    # open the phase; before them the record still holds last round's) and in every other phase
    if vassals and (phase != RoundPhase.PLANNING or _ordered(g, t)):
        spec["commanders"] = {v.id: House(int(g.commander[v])).id for v in vassals}
    if t.loyalty_to_win:  # Mother of Dragons at 8 players (checked: placed = board + taken)
        ids = deck_iv_cards()
        spec["loyalty_taken"] = int(g.loyalty_taken)
        spec["loyalty_placed"] = int(g.loyalty_placed)
        spec["dragon_boost"] = int(g.dragon_boost)
        spec["westeros_deck_iv"] = [ids[int(c)] for c in g.deck4[: int(g.deck4_next)]]
    if t.iron_bank:  # the slots and the loans held; the loan deck's order is hidden
        spec["iron_bank"] = _iron_bank_spec(g, t, houses)
    if "one_time_orders" in modules:  # the kinds placed so far, Lion's Cunning's house
        spec["one_time_used"] = {
            h.id: [k for i, k in enumerate(ONE_TIME_KINDS) if (int(g.one_time_used[h]) >> i) & 1]
            for h in houses
        }
        spec["lions_cunning"] = None if g.lions_cunning < 0 else House(int(g.lions_cunning)).id
    if "westeros_lookahead" in modules:  # each deck's three face-up cards, next first (K9)
        size = g.westeros.shape[1]
        spec["westeros_face_up"] = [
            [
                WesterosCard(int(g.westeros[d, (int(g.westeros_next[d]) + i) % size])).name.lower()
                for i in range(3)
            ]
            for d in range(3)
        ]
    if t.victory_points:  # A Feast for Crows: points and objective cards
        spec["victory_points"] = {h.id: int(g.vp[h]) for h in houses}
        if not _dealing(g, t):
            spec["objectives"] = {
                h.id: [o.id for o in Objective if g.objective_at[o] == h] for h in houses
            }
        spec["objectives_scored"] = {
            h.id: [o.id for o in Objective if g.objective_at[o] == OBJ_SCORED + h] for h in houses
        }
    return spec


def _neutral_army(start: Mapping[Unit, int], strength: int) -> dict[str, int]:
    """A 1st-edition neutral army read back from the record, which keeps only its strength:
    the units it started with when they make that strength (a beaten one is gone whole, D8),
    else the largest part of them that does (a position may start it smaller)."""
    facts = unit_facts("1e")
    kinds = sorted(start, key=int)
    best: dict[Unit, int] | None = None
    for counts in itertools.product(*(range(start[u], -1, -1) for u in kinds)):
        army = {u: n for u, n in zip(kinds, counts, strict=True) if n}
        if army and facts.army_strength(army) == strength:
            if best is None or sum(army.values()) > sum(best.values()):
                best = army
    if best is None:
        raise PositionError(f"neutral army: no part of {dict(start)} has strength {strength}")
    return {u.id: n for u, n in best.items()}


def _iron_bank_spec(g: Record, t: Record, houses: list[House]) -> dict[str, Any]:
    """The record's Iron Bank as a position writes it (``iron_bank``): the slots' cards and
    each house's loans. A vassal holding loans (which the engine never lets happen) is refused:
    a position has no vassals to hold them."""
    for house in House:
        if g.loans_held[house] and t.vassal[house]:
            raise PositionError(f"iron_bank.loans.{house.id}: a vassal holds no loans")
    loans: dict[str, list[str]] = {}
    for house in houses:
        held = int(g.loans_held[house])
        if held:
            loans[house.id] = [card for c, card in enumerate(LOAN_CARDS) if (held >> c) & 1]
    slots = [None if c < 0 else LOAN_CARDS[int(c)] for c in g.loan_slot]
    return {"slots": slots, "loans": loans}


def position_from_record(g: Record, rules: Any, *, kings_court_swap: bool = False) -> Position:
    """The position of a record at a phase boundary (see ``boundary``), validated by
    ``load_position``: a state the loader refuses raises ``PositionError``.

    ``rules`` is the record's rule table (``rules_table(...)`` or its record); it gives the
    player count and the Tides of Battle variant. ``raven_used`` reads false; the record does
    not remember ``kings_court_swap``, so say it if the game started swapped.

    >>> from gotsim.engine.position import starting_position
    >>> p = starting_position("2e", 4)
    >>> position_from_record(record_from_position(p), position_rules(p)) == p
    True
    """
    return load_position(position_spec(g, rules, kings_court_swap=kings_court_swap))


__all__ = [
    "NotAtBoundaryError",
    "boundary",
    "position_from_record",
    "position_records",
    "position_rules",
    "position_spec",
    "record_from_position",
    "resumable_position",
]
