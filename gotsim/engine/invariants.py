"""Invariants of a game record, recomputed from scratch (plain Python, for tests and fuzzing).

``violations(g, t)`` lists every broken invariant as a readable line; an empty list means the
record is consistent: owners match units, routed units are a subset, order-token counts match the
board, power in hand plus power tokens on the board stay within the house's tokens (20; A Feast
for Crows' Arryn 19), unit limits hold, objective cards lie where they may (A Feast for Crows:
never in the Shifting Ambitions pool after the Westeros phase, and no negative victory points),
ports hold at most 3 ships of the house controlling their land area (rulebook p.25), tracks
order exactly the houses in play, hands and discards never overlap; for the 1st edition also
every card in hand or discarded, no routed unit after the marches.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gotsim.engine.state import (
    N_LOANS,
    N_ORDER_KINDS,
    OBJ_DECK,
    OBJ_POOL,
    OBJ_SCORED,
    ONE_TIME_HOUSE,
    ORDER_COUNT,
    ORDER_SEA_ONLY,
    H,
    Order,
    Phase,
    Restriction,
    U,
)
from gotsim.engine.vassals import CLAIMS_DONE
from gotsim.rules.ids import SHIP, AreaKind, House, Unit

LAND, SEA, PORT = int(AreaKind.LAND), int(AreaKind.SEA), int(AreaKind.PORT)

# the order kinds each of a vassal's four tokens stands for (engine.vassals.vassal_token)
VASSAL_TOKENS = (
    (Order.MARCH_ZERO,),
    (Order.RAID, Order.SUPPORT_ONE),
    (Order.DEFENSE_ONE, Order.CONSOLIDATE),
    (Order.DEFENSE_TWO,),
)


def _controllers(g: np.void, t: np.void, n: int) -> np.ndarray:
    """Who controls each of the first ``n`` areas, from scratch: units, else a power token, else
    its home house (in play, no neutral force there), else -1."""
    owner = g["owner"][:n].astype(int)
    token = g["power_token"][:n].astype(int)
    home = t["home"][:n].astype(int)
    home_held = (home >= 0) & g["in_play"][np.maximum(home, 0)].astype(bool)
    home_held &= g["neutral"][:n] == 0
    return np.where(owner >= 0, owner, np.where(token >= 0, token, np.where(home_held, home, -1)))


def _iron_bank(g: np.void, t: np.void) -> list[str]:
    """The Iron Bank (IB2-IB7): every loan card exactly once, held, in a slot or in the deck;
    the deck's cards first, -1 after; a vassal holds none."""
    out: list[str] = []
    n = int(g["loan_deck_n"])
    deck = [int(c) for c in g["loan_deck"]]
    if not 0 <= n <= N_LOANS or any(c < 0 for c in deck[:n]) or any(c >= 0 for c in deck[n:]):
        out.append(f"loan deck {deck} with {n} cards")
    cards = deck[:n] + [int(c) for c in g["loan_slot"] if c >= 0]
    for h in range(H):
        held = int(g["loans_held"][h])
        cards += [c for c in range(N_LOANS) if held >> c & 1]
        if held and t["vassal"][h]:
            out.append(f"vassal {h}: holds loans")
    if sorted(cards) != list(range(N_LOANS)):
        out.append(f"loan cards held, in slots and in the deck: {sorted(cards)}")
    return out


def violations(g: np.void, t: np.void) -> list[str]:
    """Every invariant ``g`` breaks (empty when consistent)."""
    out = _areas(g, t)
    players = int(t["players"])
    in_play = [h for h in range(H) if g["in_play"][h]]
    for track in range(3):
        listed = [int(h) for h in g["track"][track][:players]]
        if sorted(listed) != sorted(in_play) or (g["track"][track][players:] != -1).any():
            out.append(f"track {track}: {g['track'][track].tolist()}")
    out.extend(_houses(g, t))
    if not 0 <= g["threat"] <= t["threat_max"] or g["threat"] % t["threat_step"]:
        out.append(f"wildling threat {g['threat']}")
    if int(t["edition"]) == 1:
        out.extend(_first_edition(g, t))
    out.extend(_objectives(g, t))
    if t["vassals"]:
        out.extend(_vassals(g, t))
    if t["iron_bank"]:
        out.extend(_iron_bank(g, t))
    out.extend(_mother_of_dragons(g, t))
    out.extend(_improvements(g, t))
    return out


def _areas(g: np.void, t: np.void) -> list[str]:
    """The board, area by area: owners match units, routed units a subset, units where their
    kind may be, at most 3 ships in a port of their own land area, orders and garrisons only
    where they belong. Each check over every area at once; the lines of an area in the order
    of the checks."""
    n = int(t["n_areas"])
    owner = g["owner"][:n].astype(int)
    units = g["units"][:n].astype(int)
    routed = g["routed"][:n].astype(int)
    kind = t["kind"][:n]
    total = units.sum(axis=1)
    ships = units[:, SHIP]
    held = owner >= 0
    controller = _controllers(g, t, n)
    port = kind == PORT
    land_of_port = np.where(port, t["port_land"][:n], 0)
    checks: list[tuple[np.ndarray, Callable[[int], str]]] = [
        (held != (total > 0), lambda a: f"owner {owner[a]} but {total[a]} units"),
        (
            ((routed > units) | (units < 0)).any(axis=1),
            lambda a: f"units {units[a].tolist()} routed {routed[a].tolist()}",
        ),
        ((kind == LAND) & (ships != 0), lambda a: "ships on land"),
        ((kind != LAND) & (total != ships), lambda a: "land units at sea or in a port"),
        (port & (ships > 3), lambda a: f"{ships[a]} ships in a port"),
        ((g["order"][:n] >= 0) & ~held, lambda a: "an order without units"),
        ((g["neutral"][:n] != 0) & held, lambda a: "units beside a neutral force"),
        ((g["blocked"][:n] != 0) & held, lambda a: "units in an impassable area"),
        (
            (g["garrison"][:n] > 0) & (controller < 0),
            lambda a: "a garrison that defends no house",
        ),
        ((g["power_token"][:n] >= 0) & (kind != LAND), lambda a: "a power token off land"),
        (
            port & held & ((land_of_port < 0) | (controller[land_of_port] != owner)),
            lambda a: f"ships in a port whose land area {land_of_port[a]} is not theirs",
        ),
    ]
    broken = np.zeros(n, np.bool_)
    for mask, _ in checks:
        broken |= mask
    return [
        f"area {a}: {line(a)}"
        for a in np.flatnonzero(broken).tolist()
        for mask, line in checks
        if mask[a]
    ]


def _houses(g: np.void, t: np.void) -> list[str]:
    """Each house: power in hand and on the board within its tokens, units within its limits,
    order tokens as counted and allowed (sea order tokens at sea), no card both in hand and
    discarded, supply on the track."""
    n = int(t["n_areas"])
    owner = g["owner"][:n].astype(int)
    held = owner >= 0
    tokens = np.bincount(g["power_token"][:n][g["power_token"][:n] >= 0], minlength=H)
    on_board = np.zeros((H, U), int)
    np.add.at(on_board, owner[held], g["units"][:n][held].astype(int))
    order = g["order"][:n].astype(int)
    ordered = held & (order >= 0)
    counts = np.zeros((H, N_ORDER_KINDS), int)
    np.add.at(counts, (owner[ordered], order[ordered]), 1)
    # (Mother of Dragons' sea order tokens only with sea_orders, its Iron Bank token only with
    # iron_bank)
    allowed = np.where(ORDER_SEA_ONLY.astype(bool) & (not t["sea_orders"]), 0, ORDER_COUNT)
    allowed[Order.SEA_IRON_BANK] = ORDER_COUNT[Order.SEA_IRON_BANK] if t["iron_bank"] else 0
    misplaced = ordered & (ORDER_SEA_ONLY[np.maximum(order, 0)] != 0) & (t["kind"][:n] != SEA)
    power = g["power"].astype(int)
    used = g["orders_used"].astype(int)
    hand, discard, supply = g["hand"], g["discard"], g["supply"]
    over = on_board > t["unit_limits"][:, :U]
    wrong_orders = (counts != used).any(axis=1) | (counts > allowed).any(axis=1)
    sea_token = np.zeros(H, np.bool_)
    sea_token[owner[misplaced]] = True
    broken = (power < 0) | (power + tokens > t["power_total"]) | over.any(axis=1) | wrong_orders
    broken |= sea_token | ((hand & discard) != 0) | (supply < 0) | (supply > t["supply_max"])
    out: list[str] = []
    for h in np.flatnonzero(broken):
        if power[h] < 0 or power[h] + tokens[h] > t["power_total"][h]:
            out.append(f"house {h}: power {power[h]} + {tokens[h]} tokens on the board")
        for u in np.flatnonzero(over[h]):
            out.append(f"house {h}: {on_board[h, u]} units of type {u}")
        if wrong_orders[h]:
            out.append(f"house {h}: orders {counts[h].tolist()} vs {used[h].tolist()}")
        for area in np.flatnonzero(misplaced & (owner == h)):
            out.append(f"house {h}: a sea order token in area {area}, not a sea")
        if hand[h] & discard[h]:
            out.append(f"house {h}: a card both in hand and discarded")
        if not 0 <= supply[h] <= t["supply_max"]:
            out.append(f"house {h}: supply {supply[h]}")
    return out


def _improvements(g: np.void, t: np.void) -> list[str]:
    """The Iron Bank's improvements (IB9): crowns and barrels only added, on land areas of the
    board; a castle level changed within 0..2 and raised only where the board has a castle (so
    the board's castle and stronghold areas, ``t.forts``, list every area that can have one)."""
    out: list[str] = []
    n = int(t["n_areas"])
    crowns = g["crown_bonus"].astype(int)
    barrels = g["barrel_bonus"].astype(int)
    delta = g["castle_delta"].astype(int)
    if crowns[n:].any() or barrels[n:].any() or delta[n:].any():
        out.append("improvements beyond the board's areas")
    if (crowns.any() or barrels.any() or delta.any()) and not g["improved"]:
        out.append("improvements on the board without the improved flag")
    for a in np.flatnonzero((crowns[:n] != 0) | (barrels[:n] != 0) | (delta[:n] != 0)):
        if t["kind"][a] != AreaKind.LAND or crowns[a] < 0 or barrels[a] < 0:
            out.append(f"area {a}: improvements {crowns[a]} crowns, {barrels[a]} barrels")
        board = int(t["castle"][a]) + 2 * int(t["stronghold"][a])
        if not 0 <= board + delta[a] <= 2 or (delta[a] > 0 and board == 0):
            out.append(f"area {a}: castle level {board} changed by {delta[a]}")
    return out


def _vassals(g: np.void, t: np.void) -> list[str]:
    """Vassals (V1-V20): no power in hand or on the board, at most one of each of the four
    vassal order tokens and no other order, a player house commanding each vassal once the
    claims are made, never the winner."""
    out: list[str] = []
    n = int(t["n_areas"])
    vassal = t["vassal"].astype(bool)
    claimed = int(g["phase"]) != Phase.PLANNING or int(g["claim_turn"]) == CLAIMS_DONE
    for h in np.flatnonzero(vassal):
        if g["power"][h] or (g["power_token"][:n] == h).any():
            out.append(f"vassal {h}: power {g['power'][h]} or a power token")
        used = [int(sum(g["orders_used"][h][k] for k in kinds)) for kinds in VASSAL_TOKENS]
        others = int(g["orders_used"][h].sum()) - sum(used)
        if max(used) > 1 or others:
            out.append(f"vassal {h}: orders {g['orders_used'][h].tolist()}")
        boss = int(g["commander"][h])
        if (
            claimed
            and int(g["game_round"])
            and (boss < 0 or vassal[boss] or not g["in_play"][boss])
        ):
            out.append(f"vassal {h}: commander {boss}")
    if int(g["winner"]) >= 0 and vassal[int(g["winner"])]:
        out.append(f"vassal {int(g['winner'])} won")
    return out


def _mother_of_dragons(g: np.void, t: np.void) -> list[str]:
    """Mother of Dragons at 8 players: only Targaryen has dragons (3 at most, on land, never
    more than began); Targaryen in the last space of every track; at most 20 loyalty tokens on
    the board, on land, and every token put on the board either there or taken by Targaryen.
    Elsewhere: no dragon and no loyalty token at all."""
    out: list[str] = []
    n = int(t["n_areas"])
    dragons = g["units"][:n, Unit.DRAGON].astype(int)
    owners = g["owner"][:n]
    loyalty = g["loyalty"][:n].astype(int)
    if not t["dragons"]:
        if dragons.any():
            out.append("dragons in a game without them")
        if loyalty.any() or g["loyalty_taken"]:
            out.append("loyalty tokens in a game without them")
        return out
    targaryen = int(House.TARGARYEN)
    if (owners[dragons > 0] != targaryen).any():
        out.append("dragons of a house other than Targaryen")
    if dragons.sum() > t["unit_limits"][targaryen, Unit.DRAGON]:
        out.append(f"{dragons.sum()} dragons")
    if (dragons[t["kind"][:n] != AreaKind.LAND] > 0).any():
        out.append("a dragon off land")
    players = int(t["players"])
    for track in range(3):
        if g["in_play"][targaryen] and g["track"][track][players - 1] != targaryen:
            out.append(f"track {track}: Targaryen not last ({g['track'][track].tolist()})")
    if (loyalty < 0).any() or loyalty.sum() > 20:
        out.append(f"loyalty tokens on the board: {loyalty.sum()}")
    if (loyalty[t["kind"][:n] != AreaKind.LAND] > 0).any():
        out.append("a loyalty token off land")
    deck = sorted(int(c) for c in g["deck4"])
    if deck != list(range(10)) or not 0 <= g["deck4_next"] <= 10:
        out.append(f"Westeros deck IV: {g['deck4'].tolist()}, {g['deck4_next']} drawn")
    if int(g["dragon_boost"]) < 0 or g["dragon_boost"] > 5:
        out.append(f"dragon strength tokens moved early: {g['dragon_boost']}")
    if loyalty.sum() + int(g["loyalty_taken"]) != int(g["loyalty_placed"]):
        out.append(
            f"loyalty tokens: {loyalty.sum()} on the board + {g['loyalty_taken']} taken "
            f"!= {g['loyalty_placed']} placed"
        )
    return out


def _objectives(g: np.void, t: np.void) -> list[str]:
    """A Feast for Crows: every objective card in the deck, a hand or scored by a house in play
    (in the pool only while Shifting Ambitions is resolved in the Westeros phase); at most 3 in
    a hand outside the start and the Westeros phase (New Information: 4); no negative points.
    No card leaves the deck and nobody scores without the expansion."""
    out: list[str] = []
    at = g["objective_at"].astype(int)
    if not t["victory_points"]:
        if (at != OBJ_DECK).any() or g["vp"].any():
            out.append("objective cards or victory points without A Feast for Crows")
        return out
    phase = int(g["phase"])
    start = int(g["game_round"]) == 1 and phase == Phase.OBJECTIVES and int(g["loop_area"]) == 1
    most = 5 if start else 4 if phase == Phase.WESTEROS else 3
    for h in range(H):
        held = int((at == h).sum())
        if held and not g["in_play"][h]:
            out.append(f"house {h}: objective cards but not in play")
        if held > most:
            out.append(f"house {h}: {held} objective cards in hand")
        if g["vp"][h] < 0:
            out.append(f"house {h}: {g['vp'][h]} victory points")
        if (at == OBJ_SCORED + h).any() and not g["in_play"][h]:
            out.append(f"house {h}: scored objectives but not in play")
    bad = (at < OBJ_DECK) | (at > OBJ_POOL)  # (hands 0 … H-1, scored H … 2H-1, the pool 2H)
    if bad.any():
        out.append(f"objective cards in no place: {at[bad].tolist()}")
    if (at == OBJ_POOL).any() and phase != Phase.WESTEROS:
        out.append("objective cards in the pool outside the Westeros phase")
    return out


def _first_edition(g: np.void, t: np.void) -> list[str]:
    """What the 1st edition adds: no card ever leaves the game (all seven return, D10) and a
    hand is never empty; routed units stand up once the marches are over (D3); no port,
    garrison or 2nd-edition-only restriction exists."""
    out: list[str] = []
    n = int(t["n_areas"])
    for h in range(H):
        if g["in_play"][h] and (int(g["hand"][h]) | int(g["discard"][h])) != 0x7F:
            out.append(f"house {h}: cards out of the game (hand {g['hand'][h]}, ...)")
        if g["in_play"][h] and g["hand"][h] == 0:
            out.append(f"house {h}: an empty hand")
    after_marches = int(g["phase"]) in (Phase.CONSOLIDATE, Phase.CLEANUP, Phase.WESTEROS)
    if after_marches and g["routed"][:n].any():
        out.append("routed units after the marches")
    if g["garrison"][:n].any():
        out.append("a garrison on the 1st-edition board")
    ports = np.flatnonzero(t["kind"][:n] == AreaKind.PORT)
    if not t["ports"]:
        if (g["owner"][ports] >= 0).any() or t["adjacent"][ports].any():
            out.append("a port in use without the ports variant")
    out.extend(_one_time_orders(g, t))
    if t["three_card_combat"] and int(g["combat_area"]) < 0:
        for h in range(H):
            if g["in_play"][h] and bin(int(g["hand"][h])).count("1") < 3:
                out.append(f"house {h}: fewer than three cards in hand (three-card combat)")
    if (g["card_picks"] != 0).any() and int(g["combat_area"]) < 0:
        out.append("cards face down outside a battle")
    if int(g["restrict"]) & int(Restriction.NO_MARCH_PLUS):
        out.append("a 2nd-edition Rains of Autumn restriction")
    forts = g["fortification"][:n]
    if forts.any() and not t["fortifications"]:
        out.append("a fortification without the fortifications variant")
    if int((forts > 0).sum()) > 9:
        out.append(f"{int((forts > 0).sum())} fortifications (9 tokens)")
    if (forts[t["kind"][:n] != AreaKind.LAND] > 0).any():
        out.append("a fortification at sea")
    settled = int(g["phase"]) in (Phase.CONSOLIDATE, Phase.CLEANUP, Phase.GAME_OVER)
    for a in np.flatnonzero(forts > 0):
        if settled and g["owner"][a] != forts[a] - 1:
            out.append(f"area {a}: a fortification of house {forts[a] - 1} held by {g['owner'][a]}")
    return out


def _one_time_orders(g: np.void, t: np.void) -> list[str]:
    """One-time orders: only with the variant, on an area of the house whose kind it is, never
    in a port, each kind placed by a house at most once (and then marked used), at most one a
    house on the board."""
    out: list[str] = []
    n = int(t["n_areas"])
    placed = np.flatnonzero(g["one_time"][:n] >= 0)
    if not t["one_time_orders"]:
        if placed.size or g["one_time_used"].any() or int(g["lions_cunning"]) >= 0:
            out.append("one-time orders without the one_time_orders variant")
        return out
    seen: set[int] = set()
    for a in placed:
        kind, house = int(g["one_time"][a]), int(g["owner"][a])
        if house < 0:
            out.append(f"area {a}: a one-time order without units")
            continue
        if ONE_TIME_HOUSE[kind] not in (-1, house):
            out.append(f"area {a}: house {house} holds another house's one-time order {kind}")
        if not (int(g["one_time_used"][house]) >> kind) & 1:
            out.append(f"area {a}: one-time order {kind} not marked used")
        if t["kind"][a] == AreaKind.PORT:
            out.append(f"area {a}: a one-time order in a port")
        if house in seen:
            out.append(f"house {house}: two one-time orders on the board")
        seen.add(house)
    return out
