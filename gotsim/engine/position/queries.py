"""Questions asked of a position: who controls each area, castles held, and the battle
spec of a march drawn from it (reach, support, the defender)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import numpy as np

from gotsim.data import load_data
from gotsim.engine.position.model import (
    Position,
    counts_out,
    fail,
    hint,
    order_tokens,
    read_house,
    read_int,
)
from gotsim.rules.board import Board
from gotsim.rules.ids import AreaKind, House, OrderType, Unit

MAX_DRAGON_STRENGTH = 5  # the round track's dragon strength tokens (M10)


def control(position: Position) -> dict[str, House]:
    """Who controls each area: the house whose units stand there, else the house whose power
    token stands there, else (for a home area of a house in play) that house. Areas nobody
    controls are left out.

    >>> from gotsim.engine.position import starting_position
    >>> held = control(starting_position("2e", 6))
    >>> held["pyke"].id, held["the_golden_sound"].id, "kings_landing" in held
    ('greyjoy', 'lannister', False)
    """
    p = position
    board = p.board
    out: dict[str, House] = {}
    for i, area in enumerate(board.area_ids):
        if area in p.occupants:
            out[area] = p.occupants[area]
        elif area in p.power_tokens:
            out[area] = p.power_tokens[area]
        elif (
            board.home[i] >= 0
            and House(int(board.home[i])) in p.houses
            and area not in p.neutral_forces
            and area not in p.neutral_armies
        ):
            out[area] = House(int(board.home[i]))
    return out


def castles_held(position: Position) -> dict[House, int]:
    """Castles and strongholds each house in play controls (the victory count).

    >>> from gotsim.engine.position import starting_position
    >>> castles_held(starting_position("2e", 6))[House.LANNISTER]
    1
    """
    board = position.board
    out = {h: 0 for h in position.houses}
    for area, house in control(position).items():
        if board.victory_area[board.index(area)]:
            out[house] += 1
    return out


# --- battles ---------------------------------------------------------------------------------


def _house_arg(value: House | str, where: str, position: Position) -> House:
    return read_house(value, where, position.houses, position.players)


def _area_arg(value: str, where: str, board: Board) -> int:
    if value not in board.area_index:
        raise fail(where, f"unknown area {value!r}{hint(value, board.area_ids)}")
    return board.index(value)


def _can_reach(
    p: Position, house: House, start: int, target: int, ships: bool, units: Collection[Unit] = ()
) -> bool:
    """Whether units marching from ``start`` can enter ``target``: next door, or for land units
    along a chain of seas holding the house's ships (never 1st-edition siege engines, K5); an
    army of dragons alone flies to any land area (Mother of Dragons, M11)."""
    board = p.board
    if board.adjacency[start, target]:
        return True
    if units and set(units) == {Unit.DRAGON}:
        return bool(board.kind[target] == AreaKind.LAND)
    if ships or (p.edition == "1e" and Unit.SIEGE_ENGINE in units):
        return False
    seen: set[int] = set()
    frontier = [
        int(j) for j in np.flatnonzero(board.adjacency[start]) if board.kind[j] == AreaKind.SEA
    ]
    while frontier:
        sea = frontier.pop()
        area = board.area_ids[sea]
        if sea in seen or p.occupants.get(area) != house:
            continue
        seen.add(sea)
        if board.adjacency[sea, target]:
            return True
        frontier.extend(
            int(j) for j in np.flatnonzero(board.adjacency[sea]) if board.kind[j] == AreaKind.SEA
        )
    return False


def battle_from_position(
    position: Position,
    area: str,
    *,
    attacker: House | str,
    from_area: str,
    units: Mapping[str, int] | Mapping[Unit, int] | None = None,
    support: Mapping[str, str] | Mapping[House, str] | None = None,
) -> dict[str, Any]:
    """The battle spec (``docs/combat.md``) of ``attacker`` marching from ``from_area`` into
    ``area`` in this position.

    ``units`` defaults to every standing unit in ``from_area``. Support orders next to ``area``
    back their own house when it fights; a third house's support counts only if ``support``
    names a side for it (``{"greyjoy": "attacker"}``); ``"none"`` keeps a house out.

    >>> from gotsim.engine.position import starting_position
    >>> spec = battle_from_position(starting_position("2e", 6), "kings_landing",
    ...     attacker="baratheon", from_area="kingswood")
    Traceback (most recent call last):
    ...
    gotsim.engine.position.PositionError: from_area: kingswood holds no baratheon march order
    """
    p = position
    board = p.board
    house = _house_arg(attacker, "attacker", p)
    target = _area_arg(area, "area", board)
    start = _area_arg(from_area, "from_area", board)
    if p.occupants.get(from_area) != house or from_area not in p.units:
        raise fail("from_area", f"no standing {house.id} units in {from_area}")
    order = p.orders.get(from_area, "")
    if not order.startswith("march"):
        raise fail("from_area", f"{from_area} holds no {house.id} march order")
    if target == start:
        raise fail("area", "units march out of from_area into another area")
    if area in p.impassable:
        raise fail("area", f"{area} cannot be entered with {p.players} players")
    marching = _marching_units(p, from_area, units)
    ships = Unit.SHIP in marching
    if board.kind[target] == AreaKind.PORT:
        raise fail("area", "ships enter only their own house's ports: no battle in a port")
    if ships != (board.kind[target] == AreaKind.SEA):
        what = "ships" if ships else "land units"
        raise fail("area", f"{what} cannot march into {area}")
    if not _can_reach(p, house, start, target, ships, marching):
        raise fail("area", f"{house.id} units in {from_area} cannot reach {area}")

    defender, defender_spec = _defender(p, area, house)
    sides = _support_sides(p, area, house, defender, support)
    supporters = []
    for j in np.flatnonzero(board.adjacency[target]):
        source = board.area_ids[j]
        token = order_tokens(p.edition, sea_orders=True).get(p.orders.get(source, ""))
        if token is None or token.kind != OrderType.SUPPORT or source not in p.units:
            continue
        if board.kind[j] == AreaKind.LAND and board.kind[target] != AreaKind.LAND:
            continue  # land units cannot support into a sea
        if board.kind[j] == AreaKind.PORT and board.port_land[j] == target:
            continue  # a port supports into its sea only
        side = sides.get(p.occupants[source], "none")
        if side != "none":
            supporters.append(
                {
                    "house": p.occupants[source].id,
                    "side": side,
                    "units": counts_out(p.units[source]),
                    "order": token.name,
                }
            )
    named = {h for h, s in sides.items() if s != "none"} | {house}
    for h in named - {house, defender}:
        if not any(s["house"] == h.id for s in supporters):
            raise fail(f"support.{h.id}", f"no {h.id} support order can reach {area}")

    attacker_spec: dict[str, Any] = {
        "house": house.id,
        "units": counts_out(marching),
        "order": order,
        "power": p.power[house],
    }
    if defender is not None:
        attacker_spec["hand"] = list(p.hands[house])
        attacker_spec["discards"] = list(p.discards[house])
    # vassals (V20): named; a vassal side fights with the vassal cards (all seven, dealt three
    # in the game) and holds no power
    in_battle = {house, *([defender] if defender is not None else [])}
    in_battle |= {House.from_id(str(s["house"])) for s in supporters}
    vassals = [h.id for h in p.vassals if h in in_battle]
    for side_spec in (attacker_spec, defender_spec):
        if side_spec.get("house") in vassals:
            for key in ("hand", "discards", "power"):
                side_spec.pop(key, None)
    fiefdoms = p.tracks["fiefdoms"]
    return {
        "name": f"{house.id} marches from {from_area} into {area}",
        "description": f"drawn from a position: round {p.round}, {p.phase.id} phase",
        "edition": p.edition,
        "area": area,
        "tides_of_battle": p.variants["tides_of_battle"],
        **({"adwd_house_cards": True} if p.card_set == "adwd" else {}),
        **_battle_rules(p, area, defender),
        **({"vassals": vassals} if vassals else {}),
        "attacker": attacker_spec,
        "defender": defender_spec,
        "support": supporters,
        "fiefdoms": [h.id for h in fiefdoms],
        "iron_throne": [h.id for h in p.tracks["iron_throne"]],
        "blade_holder": fiefdoms[0].id,
        "blade_used": p.blade_used,
    }


def _battle_rules(p: Position, area: str, defender: House | None) -> dict[str, Any]:
    """What of the position's round and rules a battle spec reads beside the sides: the wildling
    threat (Mance Rayder), a dragon's strength this round (Mother of Dragons), and in the 1st
    edition Rains of Autumn's supporting footmen and the A Clash of Kings modules that change a
    battle (the defender's own fortification, K2; siege engines, K5; three-card combat, T1)."""
    out: dict[str, Any] = {"wildling_threat": p.wildling_threat}
    if p.loyalty_game:
        out["dragon_strength"] = dragon_strength(p)
    if p.edition == "1e":
        if p.restriction == "footmen_no_support":
            out["rains_of_autumn"] = True
        if area in p.fortifications and defender is not None and p.occupants.get(area) == defender:
            out["fortification"] = True
        for key in ("siege_engines", "three_card_combat"):
            if p.variants.get(key):
                out[key] = True
    return out


def dragon_strength(p: Position) -> int:
    """A dragon's strength in the position's round (Mother of Dragons at 8 players, M10): the
    dragon strength tokens whose round has come and those moved early, at most 5.

    >>> from gotsim.engine.position import starting_position
    >>> dragon_strength(starting_position("2e", 8, expansion="mod"))
    0
    """
    scenario = load_data("2e", "expansions.json")["scenarios"]["mother_of_dragons"]
    by_round = scenario["dragon_strength"]["by_round_default"]
    return min(MAX_DRAGON_STRENGTH, int(by_round[str(p.round)]) + p.dragon_boost)


def _marching_units(
    p: Position, from_area: str, units: Mapping[str, int] | Mapping[Unit, int] | None
) -> dict[Unit, int]:
    standing = p.units[from_area]
    if units is None:
        return dict(standing)
    out: dict[Unit, int] = {}
    for key, n in units.items():
        try:
            unit = key if isinstance(key, Unit) else Unit.from_id(str(key))
        except ValueError:
            ids = [u.id for u in Unit]
            raise fail(f"units.{key}", f"unknown unit type{hint(key, ids)}") from None
        n = read_int(n, f"units.{unit.id}", 0, 99)
        if n > standing.get(unit, 0):
            raise fail(
                f"units.{unit.id}",
                f"only {standing.get(unit, 0)} standing {unit.id} in {from_area} (routed stay)",
            )
        if n:
            out[unit] = n
    if not out:
        raise fail("units", "march at least one unit")
    return {u: out[u] for u in sorted(out)}


def _defender(p: Position, area: str, attacker: House) -> tuple[House | None, dict[str, Any]]:
    board = p.board
    if area in p.neutral_forces:
        return None, {"neutral_force": p.neutral_forces[area]}
    if area in p.neutral_armies:
        raise fail("area", f"{area} holds a neutral army, which battle specs cannot describe")
    house = p.occupants.get(area)
    if house is None and area in p.garrisons:
        # the garrison defends for the area's controller (its home house, or the power token's
        # house at A Dance with Dragons' Storm's End and Oldtown)
        home = int(board.home[board.index(area)])
        house = p.power_tokens.get(area) if home < 0 else House(home)
    if house is None:
        owner = p.power_tokens.get(area)
        held = f" (only a {owner.id} power token)" if owner else ""
        raise fail("area", f"no battle: {area} is not defended{held}")
    if house == attacker:
        raise fail("area", f"{attacker.id} cannot attack its own area {area}")
    spec: dict[str, Any] = {"house": house.id, "units": counts_out(p.units.get(area, {}))}
    if area in p.routed:
        spec["routed"] = counts_out(p.routed[area])
    spec["order"] = p.orders.get(area, "none")
    if area in p.garrisons:
        spec["garrison"] = p.garrisons[area]
    if p.power_tokens.get(area) == house:
        spec["power_token"] = True
    spec.update(
        {"hand": list(p.hands[house]), "discards": list(p.discards[house]), "power": p.power[house]}
    )
    return house, spec


def _support_sides(
    p: Position,
    area: str,
    attacker: House,
    defender: House | None,
    support: Mapping[str, str] | Mapping[House, str] | None,
) -> dict[House, str]:
    sides: dict[House, str] = {attacker: "attacker"}
    if defender is not None:
        sides[defender] = "defender"
    for key, side in (support or {}).items():
        name = key.id if isinstance(key, House) else str(key)
        house = _house_arg(key, f"support.{name}", p)
        where = f"support.{house.id}"
        if side not in ("attacker", "defender", "none"):
            raise fail(where, f"must be 'attacker', 'defender' or 'none', got {side!r}")
        if side == "defender" and defender is None:
            raise fail(where, f"nobody can support the neutral force in {area}")
        if house in (attacker, defender) and side not in (sides[house], "none"):
            raise fail(where, f"{house.id} cannot support its own opponent")
        sides[house] = side
    return sides
