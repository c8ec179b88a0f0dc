"""The compiled engine's read-only rule tables: one record per (edition, player count, variants).

``rules_table(Rules(edition, players, variants))`` folds the board, the setup and the card and
deck data into a single numpy record (``RULES_DTYPE``), the one argument through which compiled
code reads the rules. Nothing in it changes during a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import IntEnum
from functools import lru_cache
from typing import Any

import numpy as np

from gotsim.data import load_data
from gotsim.engine.state import A_MAX, N_OBJECTIVES, H, U
from gotsim.rules.board import Board, load_board
from gotsim.rules.cards import card_table, house_deck, tides_deck
from gotsim.rules.ids import AreaKind, House, Unit
from gotsim.rules.iron_bank import BRAAVOS
from gotsim.rules.objectives import Objective, objectives
from gotsim.rules.setup import load_setup
from gotsim.rules.units import unit_facts
from gotsim.rules.variants import (
    CLASH_OF_KINGS_VARIANTS,
    EIGHT_HOUSES,
    EXPANSIONS,
    EYRIE_PORT,
    GIFT_POWER,
    IRON_BANK,
    SEA_ORDERS,
    VASSALS,
    Rules,
    expansion_board,
)

MAX_NEIGHBOURS = 12
MAX_ARMIES = 6
MAX_CARDS = 64
N_TIDES = 6


class WesterosCard(IntEnum):
    """Westeros card kinds (both editions; the 1st edition uses a subset), the values stored
    in a game's decks."""

    LAST_DAYS_OF_SUMMER = 0
    SUPPLY = 1
    MUSTERING = 2
    A_THRONE_OF_BLADES = 3
    WINTER_IS_COMING = 4
    GAME_OF_THRONES = 5
    DARK_WINGS_DARK_WORDS = 6
    CLASH_OF_KINGS = 7
    PUT_TO_THE_SWORD = 8
    STORM_OF_SWORDS = 9
    RAINS_OF_AUTUMN = 10
    SEA_OF_STORMS = 11
    WEB_OF_LIES = 12
    FEAST_FOR_CROWS = 13
    WILDLINGS_ATTACK = 14
    # A Feast for Crows' deck I (in place of the base deck I)
    MUSTERING_AFFC = 15  # Mustering with a wildling icon
    RALLY_THE_MEN = 16
    THE_BURDEN_OF_POWER = 17
    FAMINE = 18
    IRONBORN_RAID = 19
    SHIFTING_AMBITIONS = 20
    NEW_INFORMATION = 21


class WildlingCard(IntEnum):
    SILENCE_AT_THE_WALL = 0
    PREEMPTIVE_RAID = 1
    CROW_KILLERS = 2
    RATTLESHIRTS_RAIDERS = 3
    MASSING_ON_THE_MILKWATER = 4
    A_KING_BEYOND_THE_WALL = 5
    MAMMOTH_RIDERS = 6
    THE_HORDE_DESCENDS = 7
    SKINCHANGER_SCOUT = 8


N_WESTEROS_KINDS = len(WesterosCard)

RULES_DTYPE = np.dtype(
    [
        ("edition", np.int8),  # 1 or 2
        ("players", np.int8),
        ("n_areas", np.int8),
        ("castles_to_win", np.int8),
        ("max_rounds", np.int8),
        ("tides_of_battle", np.uint8),
        ("fortifications", np.uint8),  # 1e A Clash of Kings fortifications (9 tokens)
        ("siege_engines", np.uint8),  # 1e A Clash of Kings siege engines (3 per house)
        ("westeros_lookahead", np.uint8),  # 1e A Clash of Kings: three face-up cards per deck
        (
            "ports",
            np.uint8,
        ),  # 1e A Clash of Kings ports (without them the 8 port areas are cut off)
        ("one_time_orders", np.uint8),  # 1e A Clash of Kings one-time orders
        (
            "three_card_combat",
            np.uint8,
        ),  # 1e A Clash of Kings battle variant: three cards, one drawn
        ("adwd_house_cards", np.uint8),  # 2e: the houses play the A Dance with Dragons decks
        ("expansion", np.int8),  # 0: the base game; k: the k-th of ``EXPANSIONS``
        # victory points that win (A Feast for Crows: 7, scored with objectives; no castle
        # victory, castles_to_win is then out of reach); 0: castles win
        ("victory_points", np.int8),
        ("eyrie_port", np.uint8),  # A Feast for Crows: The Eyrie has a port (59 areas)
        # Mother of Dragons: each house also has the sea order tokens (Order.SEA_*)
        ("sea_orders", np.uint8),
        # Mother of Dragons' Iron Bank (``iron_bank``; engine.iron_bank): 1 when played, and the
        # area whose controller pays 1 less for a loan (Braavos, IB3; -1 none on the board)
        ("iron_bank", np.uint8),
        ("braavos", np.int8),
        # Mother of Dragons' gifts of power tokens (``gift_power``; engine.gifts): 1 when allowed
        ("gift_power", np.uint8),
        # the vassals variant (gotsim.engine.vassals): 1 in a vassal game, and per House 1 for
        # a vassal (a house on the board no player takes)
        ("vassals", np.uint8),
        ("vassal", np.uint8, (H,)),
        # the points each objective card scores, by House (A Feast for Crows; with the Eyrie port
        # Mercantile Ventures is worth 1 to Arryn)
        ("objective_points", np.int8, (N_OBJECTIVES, H)),
        ("kind", np.int8, (A_MAX,)),  # AreaKind
        ("castle", np.int8, (A_MAX,)),
        ("stronghold", np.int8, (A_MAX,)),
        ("barrels", np.int8, (A_MAX,)),
        ("crowns", np.int8, (A_MAX,)),
        ("muster_points", np.int8, (A_MAX,)),
        ("home", np.int8, (A_MAX,)),  # House, -1
        # the castle and stronghold areas listed (-1 padded), for loops that visit only them
        ("forts", np.int8, (A_MAX,)),
        ("n_forts", np.int8),
        # per area, where a ship mustered there may be placed: the adjacent seas and the area's
        # own port, in area order (-1 padded)
        ("ship_targets", np.int8, (A_MAX, MAX_NEIGHBOURS + 1)),
        # the sea areas listed (-1 padded)
        ("seas", np.int8, (A_MAX,)),
        ("n_seas", np.int8),
        # the land areas with supply barrels listed (-1 padded)
        ("barrel_areas", np.int8, (A_MAX,)),
        ("n_barrel_areas", np.int8),
        # per area, its neighbours that are castle or stronghold areas, in neighbour order
        ("fort_neighbours", np.int8, (A_MAX, MAX_NEIGHBOURS)),
        ("adjacent", np.uint8, (A_MAX, A_MAX)),
        ("neighbours", np.int8, (A_MAX, MAX_NEIGHBOURS)),  # -1 padded
        ("port_of_area", np.int8, (A_MAX,)),
        ("port_land", np.int8, (A_MAX,)),
        ("port_sea", np.int8, (A_MAX,)),
        ("stars", np.int8, (H,)),  # special orders allowed per King's Court position
        ("supply_table", np.int8, (7, MAX_ARMIES)),  # allowed army sizes per level, 0 padded
        ("unit_limits", np.int8, (H, U)),
        ("deck_card", np.int8, (H, 7)),  # card number (rules.cards.card_table) of each deck slot
        ("westeros_start", np.int8, (3, 10)),  # the three decks' cards (WesterosCard)
        ("westeros_icon", np.uint8, (N_WESTEROS_KINDS,)),  # card kind shows a wildling icon
        # house cards by card number (rules.cards.card_table layout) and the Tides of Battle deck
        ("card_strength", np.int64, (MAX_CARDS,)),
        ("card_swords", np.int64, (MAX_CARDS,)),
        ("card_forts", np.int64, (MAX_CARDS,)),
        ("card_ability", np.int64, (MAX_CARDS,)),
        ("card_ref", np.int64, (MAX_CARDS,)),
        ("tides_count", np.int64, (N_TIDES,)),
        ("tides_strength", np.int64, (N_TIDES,)),
        ("tides_swords", np.int64, (N_TIDES,)),
        ("tides_forts", np.int64, (N_TIDES,)),
        ("tides_skulls", np.int64, (N_TIDES,)),
        # unit facts (rules.units, from the edition's setup.json): strength by Unit, a siege
        # engine attacking a castle or stronghold, an attacking knight against a fortification
        ("unit_strength", np.int64, (U,)),
        ("siege_castle_strength", np.int64),
        ("fortified_knight_strength", np.int64),
        ("muster_cost", np.int64, (U,)),  # mustering points a new unit costs
        ("upgrade_cost", np.int64, (U,)),  # points to turn a footman into it (0: not possible)
        ("port_ships", np.int64),  # ships a port holds at most
        # the wildling track (setup.json wildling_track): its top, what an icon adds, what a
        # wildling victory takes off; the supply track's top; the power tokens each house owns
        ("threat_max", np.int64),
        ("threat_step", np.int64),
        ("threat_drop", np.int64),
        ("supply_max", np.int64),
        ("power_total", np.int64, (H,)),
        # Mother of Dragons at 8 players: dragons in play, a dragon's strength by round (index
        # 1 … 10), loyalty tokens that win for Targaryen, the home area whose garrison comes
        # back when Targaryen retakes it (Pentos) and that garrison's strength
        ("dragons", np.uint8),
        ("dragon_strength", np.int64, (11,)),
        ("loyalty_to_win", np.int64),
        ("restored_garrison_area", np.int64),
        ("restored_garrison", np.int64),
        # Westeros deck IV (Deck4Card order): the areas each card puts a loyalty token on, and
        # the two areas of Targaryen's paid choice (-1 none)
        ("deck4_fixed", np.int64, (10, 2)),
        ("deck4_choice", np.int64, (10, 2)),
        # the land areas of Westeros (not Essos) and those next to a river (Watering the Seed)
        ("westeros_land", np.uint8, (A_MAX,)),
        ("river_land", np.uint8, (A_MAX,)),
    ]
)

# Watering the Seed's "land areas next to a river": S&R's list (``World.regionsAdjacentToARiver``)
RIVER_AREAS = (
    "winterfell",
    "moat_cailin",
    "greywater_watch",
    "seagard",
    "the_twins",
    "riverrun",
    "the_mountains_of_the_moon",
    "harrenhal",
    "crackclaw_point",
    "three_towers",
    "princes_pass",
    "starfall",
)

_WESTEROS_IDS = {card.name.lower(): card for card in WesterosCard}


def rules_table(
    rules: Rules | str = "2e",
    players: int = 6,
    variants: Mapping[str, bool] | Iterable[str] | None = None,
    expansion: str | None = None,
) -> np.recarray:
    """The read-only rule record of a ``Rules`` value, or of ``Rules.of(edition, players,
    variants, expansion)``, as a one-element record array (``rules[0]`` is the record; the array
    form crosses into compiled parallel loops, and records read as attributes in uncompiled
    Python too). ``kings_court_swap`` changes the setup, not this table."""
    if not isinstance(rules, Rules):
        rules = Rules.of(rules, players, variants, expansion)
    return _rules_table(rules)


@lru_cache(maxsize=32)
def _rules_table(chosen: Rules) -> np.recarray:
    edition, players = chosen.edition, chosen.players
    board = load_board(edition, board=chosen.board)
    setup = load_setup(
        edition,
        players,
        expansion=chosen.expansion,
        vassals=chosen.on(VASSALS),
        eight_houses=chosen.on(EIGHT_HOUSES),
    )
    if board.n_areas > A_MAX:
        raise ValueError(f"{edition} board has {board.n_areas} areas, the engine holds {A_MAX}")
    if int(board.n_neighbours.max()) > MAX_NEIGHBOURS:
        raise ValueError("an area has more neighbours than the engine's table holds")
    rules = np.zeros(1, RULES_DTYPE).view(np.recarray)
    t = rules[0]
    n = board.n_areas
    t["edition"] = 1 if edition == "1e" else 2
    t["players"] = setup.players  # with vassals: every house on the board's tracks
    t["vassals"] = chosen.on(VASSALS)
    for house in setup.vassals:
        t["vassal"][house] = 1
    t["n_areas"] = n
    t["castles_to_win"] = 127 if setup.victory_points else setup.castles_to_win
    t["victory_points"] = setup.victory_points
    t["eyrie_port"] = chosen.on(EYRIE_PORT)
    t["sea_orders"] = chosen.on(SEA_ORDERS)
    t["iron_bank"] = chosen.on(IRON_BANK)
    t["gift_power"] = chosen.on(GIFT_POWER)
    t["braavos"] = board.area_index.get(BRAAVOS, -1)
    if setup.victory_points:
        for objective in objectives():
            for house_id, points in objective.points.items():
                t["objective_points"][objective.objective, House.from_id(house_id)] = points
        if chosen.on(EYRIE_PORT):  # Mercantile Ventures is worth less to Arryn with its port
            option = _scenario(chosen.expansion)["eyrie_port_option"]
            mercantile = t["objective_points"][Objective.MERCANTILE_VENTURES]
            mercantile[House.ARRYN] = option["mercantile_ventures_vp_for_arryn"]
    t["max_rounds"] = setup.max_rounds
    for name in ("tides_of_battle", *CLASH_OF_KINGS_VARIANTS):
        t[name] = chosen.on(name)
    t["ports"] = chosen.on("ports") or edition == "2e"
    t["adwd_house_cards"] = chosen.card_set == "adwd"
    t["expansion"] = 1 + list(EXPANSIONS).index(chosen.expansion) if chosen.expansion else 0
    units = unit_facts(edition)
    t["unit_strength"][:] = units.strength
    t["siege_castle_strength"] = units.siege_against_castle
    t["fortified_knight_strength"] = units.knight_against_fortification
    t["muster_cost"][:] = units.muster_cost
    t["upgrade_cost"][:] = units.upgrade_cost
    t["port_ships"] = units.port_capacity
    t["threat_max"] = setup.threat_max
    t["threat_step"] = setup.threat_step
    t["threat_drop"] = setup.threat_drop
    t["supply_max"] = len(setup.supply_table) - 1
    for house, total in setup.power_total.items():
        t["power_total"][house] = total
    t["restored_garrison_area"] = -1
    t["deck4_fixed"][:, :] = -1
    t["deck4_choice"][:, :] = -1
    if House.TARGARYEN in setup.houses:  # Mother of Dragons at 8 players
        scenario = _scenario(chosen.expansion)
        t["dragons"] = 1
        for r, strength in scenario["dragon_strength"]["by_round_default"].items():
            t["dragon_strength"][int(r)] = strength
        t["loyalty_to_win"] = setup.loyalty_to_win
        home = setup.home_areas.get(House.TARGARYEN) or "pentos"
        t["restored_garrison_area"] = board.index(home)
        t["restored_garrison"] = setup.garrisons[home][1]
        for k, card in enumerate(scenario["westeros_deck_IV"]["cards"]):
            for j, a in enumerate(card.get("loyalty_tokens_placed_in", [])):
                t["deck4_fixed"][k, j] = board.index(a)
            for j, a in enumerate(card.get("loyalty_token_choice", [])):
                t["deck4_choice"][k, j] = board.index(a)
        essos = {a["id"] for a in load_data("2e", "expansions.json")["maps"]["essos"]["areas"]}
        for a, area_id in enumerate(board.area_ids):
            land = board.kind[a] == AreaKind.LAND
            t["westeros_land"][a] = land and area_id not in essos
            t["river_land"][a] = land and area_id in RIVER_AREAS
    t["kind"][:n] = board.kind
    t["castle"][:n] = board.castle
    t["stronghold"][:n] = board.stronghold
    t["barrels"][:n] = board.supply
    t["crowns"][:n] = board.crowns
    t["muster_points"][:n] = board.mustering_points
    t["home"][:] = -1
    t["home"][:n] = board.home
    for house, area in setup.home_areas.items():  # A Feast for Crows: Arryn's The Eyrie
        t["home"][board.index(area)] = house
    _listed(t, "forts", "n_forts", [a for a in range(n) if board.castle[a] or board.stronghold[a]])
    t["ship_targets"][:] = -1
    for a in range(n):
        targets = [
            s
            for s in range(n)
            if (board.kind[s] == AreaKind.SEA and board.adjacency[a, s])
            or (board.kind[s] == AreaKind.PORT and board.port_land[s] == a)
        ]
        t["ship_targets"][a, : len(targets)] = targets
    _listed(t, "seas", "n_seas", [a for a in range(n) if board.kind[a] == AreaKind.SEA])
    barrel_areas = [a for a in range(n) if board.kind[a] == AreaKind.LAND and board.supply[a] > 0]
    _listed(t, "barrel_areas", "n_barrel_areas", barrel_areas)
    t["fort_neighbours"][:] = -1
    for a in range(n):
        near = [
            b
            for b in board.neighbours[a]
            if b >= 0
            and board.kind[b] == AreaKind.LAND
            and (board.castle[b] or board.stronghold[b])
        ]
        t["fort_neighbours"][a, : len(near)] = near
    t["adjacent"][:n, :n] = board.adjacency
    t["neighbours"][:] = -1
    t["neighbours"][:n, : board.neighbours.shape[1]] = board.neighbours
    for key, source in (
        ("port_of_area", board.port_of_area),
        ("port_land", board.port_land),
        ("port_sea", board.port_sea),
    ):
        t[key][:] = -1
        t[key][:n] = source
    if not t["ports"]:
        _detach_ports(t, n)
    t["stars"][: len(setup.stars)] = setup.stars
    for level, sizes in enumerate(setup.supply_table):
        t["supply_table"][level, : len(sizes)] = sizes
    table = card_table(edition, chosen.card_set)
    for house in House:
        limits = setup.unit_limits.get(house)
        if limits:
            for unit, count in limits.items():
                t["unit_limits"][house, unit] = count
        if chosen.on("siege_engines") and limits:
            siege = load_data(edition, "setup.json")["houses"][house.id]
            t["unit_limits"][house, Unit.SIEGE_ENGINE] = siege["unit_limits_with_clash_of_kings"][
                "siege_engine"
            ]
        for slot, card in enumerate(house_deck(edition, house, chosen.card_set)):
            t["deck_card"][house, slot] = table.number(card.id)
    for key, column in zip(
        ("card_strength", "card_swords", "card_forts", "card_ability", "card_ref"),
        table.arrays(),
        strict=True,
    ):
        t[key][: len(column)] = column
    for key, column in zip(
        ("tides_count", "tides_strength", "tides_swords", "tides_forts", "tides_skulls"),
        tides_deck().arrays(),
        strict=True,
    ):
        t[key][: len(column)] = column
    decks = list(load_data(edition, "westeros_cards.json")["decks"])
    if chosen.expansion is not None:
        scenario = _scenario(chosen.expansion)
        if "westeros_deck_I_replacement" in scenario:  # A Feast for Crows
            decks[0] = scenario["westeros_deck_I_replacement"]
    for d, deck in enumerate(decks):
        cards = [_WESTEROS_IDS[c["id"]] for c in deck["cards"] for _ in range(c["count"])]
        t["westeros_start"][d, : len(cards)] = cards
        for c in deck["cards"]:
            t["westeros_icon"][_WESTEROS_IDS[c["id"]]] = c["wildling_icon"]
    rules.setflags(write=False)
    return rules


def _scenario(expansion: str | None) -> Mapping[str, Any]:
    """An expansion's scenario in ``data/2e/expansions.json``."""
    return load_data("2e", "expansions.json")["scenarios"][EXPANSIONS[expansion or ""]]


def board_of(t: np.record) -> Board:
    """The board a rule record was made for (the edition's, A Feast for Crows' with The Eyrie's
    port, or Mother of Dragons' by its player count)."""
    edition = "1e" if int(t["edition"]) == 1 else "2e"
    board = expansion_board(expansion_of(t), int(t["players"]), bool(t["eyrie_port"]))
    return load_board(edition, board=board)


def expansion_of(t: np.record) -> str | None:
    """The expansion a rule record was made for (``EXPANSIONS`` name; None: the base game)."""
    k = int(t["expansion"])
    return list(EXPANSIONS)[k - 1] if k else None


def _listed(t: np.record, field: str, count: str, areas: list[int]) -> None:
    """Store ``areas`` in the -1-padded list ``field`` of the rules record, their number in
    ``count``."""
    t[field][:] = -1
    t[field][: len(areas)] = areas
    t[count] = len(areas)


def _detach_ports(t: np.record, n: int) -> None:
    """The 1st-edition base board has no ports: its 8 port areas (the A Clash of Kings ports
    module's) stay in the tables but border nothing and belong to no land area, so no ship,
    order, raid, support or income ever reaches them."""
    for a in range(n):
        if t["kind"][a] == int(AreaKind.PORT):
            for b in range(n):
                t["adjacent"][a, b] = 0
                t["adjacent"][b, a] = 0
            t["port_land"][a] = -1
            t["port_sea"][a] = -1
    t["port_of_area"][:] = -1
    for a in range(n):
        row = [b for b in range(n) if t["adjacent"][a, b]]
        t["neighbours"][a, :] = -1
        t["neighbours"][a, : len(row)] = row
