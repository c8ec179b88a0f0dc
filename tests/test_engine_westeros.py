"""The Westeros phase (2nd edition): a casebook per Westeros card and per wildling card role,
threat and attack timing, Winter Is Coming, Clash of Kings ties, supply reduction, mustering
limits, the power cap, and a random-play fuzz with invariants.

Games start from ``new_games`` records changed by hand; a small driver runs ``westeros_phase``
(or a wildling attack) until a decision is pending, checks it with ``westeros_legal`` and answers
it with ``westeros_apply`` after clearing ``pending`` the way ``machine.apply`` does.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pytest

from gotsim.engine.board_state import army_sizes_fit, barrels_held, power_tokens_on_board
from gotsim.engine.counters import PHASE_COUNTERS, WESTEROS_COUNTERS, all_clear
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.state import (
    ACT_FOOTMAN,
    ACT_KNIGHT,
    ACT_NONE,
    ACT_SIEGE,
    ACT_UPGRADE_KNIGHT,
    ACT_UPGRADE_SIEGE,
    N_ACTIONS,
    Decision,
    Phase,
    Restriction,
)
from gotsim.engine.tables import WesterosCard, WildlingCard, rules_table
from gotsim.engine.westeros import (
    R_ANY,
    R_CASTLE2,
    WILDLINGS,
    start_muster,
    start_wildling_attack,
    supply_excess,
    westeros_apply,
    westeros_legal,
    westeros_phase,
    wildling_attack_step,
)
from gotsim.rules.board import load_board
from gotsim.rules.ids import BASE_HOUSES, Unit

T = rules_table("2e", 6)[0]
A = load_board("2e").index
D = Decision
W = WesterosCard
WC = WildlingCard
BAR, LAN, STARK, GREY, TYR, MAR = (int(h) for h in BASE_HOUSES)
F, K, S, SE = (int(u) for u in Unit if u != Unit.DRAGON)  # footman, knight, ship, siege engine
WF, WH = A("winterfell"), A("white_harbor")
STARK_ORDER = [BAR, LAN, STARK, MAR, GREY, TYR]  # the 6-player Iron Throne track at the start


# --- harness --------------------------------------------------------------------------------------


def seeds(n: int, root: int = 0) -> list[np.random.SeedSequence]:
    return [np.random.SeedSequence(root, spawn_key=(i,)) for i in range(n)]


def fresh(seed: int = 0) -> np.record:
    """A 6-player game at the start of round 2's Westeros phase (round-1 board untouched)."""
    g = new_games(seeds(1, seed))[0]
    g.phase = Phase.WESTEROS
    g.game_round = 2
    return g


def set_decks(g: np.record, *cards: int) -> None:
    """Put ``cards[d]`` on top of deck ``d`` (swapped up from inside the deck)."""
    for d, card in enumerate(cards):
        deck = g.westeros[d]
        i = int(np.flatnonzero(deck == card)[0])
        deck[[0, i]] = deck[[i, 0]]
        g.westeros_next[d] = 0


def set_wildlings(g: np.record, *cards: int) -> None:
    """Put ``cards`` on top of the wildling deck, in that order."""
    rest = [c for c in g.wildlings if c not in cards]
    g.wildlings[:] = [*cards, *rest]


def set_units(g: np.record, area: int, house: int, footmen=0, knights=0, ships=0, sieges=0):
    g.units[area, :4] = (footmen, knights, ships, sieges)
    g.owner[area] = house if footmen + knights + ships + sieges else -1


def total_units(g: np.record, house: int, unit: int | None = None) -> int:
    mine = g.owner[: T.n_areas] == house
    units = g.units[: T.n_areas][mine]
    return int(units.sum() if unit is None else units[:, unit].sum())


Policy = Callable[[np.record, Decision, int, np.ndarray], int]


def passive(g: np.record, kind: Decision, house: int, mask: np.ndarray) -> int:
    """Bid 0, muster nothing, take the first legal option otherwise."""
    if kind == D.BID:
        return 0
    if mask[ACT_NONE]:
        return ACT_NONE
    return int(np.flatnonzero(mask)[0])


@dataclass
class Asked:
    kind: Decision
    house: int
    ctx: tuple[int, ...]
    legal: list[int]


@dataclass
class Driver:
    """Answers pending decisions: scripted (kind, house, action) entries first, in order, then
    ``default``. Every decision asked is recorded in ``asked``."""

    g: np.record
    script: list[tuple[int, int, int]] = field(default_factory=list)
    default: Policy | None = None
    asked: list[Asked] = field(default_factory=list)

    def answer(self) -> None:
        g = self.g
        mask = np.zeros(N_ACTIONS, np.bool_)
        assert westeros_legal(g, T, mask)
        assert mask.any(), "a decision without a legal option"
        kind, house = Decision(int(g.pending)), int(g.pending_house)
        seen = Asked(kind, house, tuple(int(c) for c in g.ctx[:3]), np.flatnonzero(mask).tolist())
        self.asked.append(seen)
        if self.script:
            want_kind, want_house, action = self.script.pop(0)
            assert (kind, house) == (want_kind, want_house), seen
        else:
            assert self.default is not None, f"unexpected decision {seen}"
            action = self.default(g, kind, house, mask)
        assert mask[action], (seen, action)
        g.pending = D.NONE  # as machine.apply clears it before applying
        g.pending_house = -1
        westeros_apply(g, T, int(kind), house, int(action))

    def of(self, kind: Decision) -> list[Asked]:
        return [a for a in self.asked if a.kind == kind]


def run_phase(g: np.record, script: Sequence = (), default: Policy | None = None) -> Driver:
    d = Driver(g, list(script), default)
    for _ in range(100_000):
        if g.phase != Phase.WESTEROS:
            break
        westeros_phase(g, T)
        if g.pending != D.NONE:
            d.answer()
    assert g.phase == Phase.PLANNING
    assert d.script == [], "scripted decisions never asked"
    assert all_clear(g, WESTEROS_COUNTERS + PHASE_COUNTERS) and g.turn == 0
    return d


def run_attack(
    g: np.record, card: int, strength: int, script: Sequence = (), default: Policy | None = None
) -> Driver:
    set_wildlings(g, card)
    start_wildling_attack(g, T, strength)
    d = Driver(g, list(script), default)
    while not wildling_attack_step(g, T):
        assert g.pending != D.NONE
        d.answer()
    assert g.pending == D.NONE and d.script == []
    assert g.wildlings[-1] == card  # revealed, then put at the bottom
    return d


def bids(g: np.record, by_house: dict[int, int], skip: Sequence[int] = ()) -> list:
    """BID answers in turn order for every house with power (others bid 0 unasked)."""
    return [
        (D.BID, int(h), by_house.get(int(h), 0))
        for h in g.track[0][: T.players]
        if g.power[h] > 0 and h not in skip
    ]


# Stark is the lowest bidder (total 5 < 12) / Baratheon the highest (total 8 >= 4)
WILDLINGS_WIN = {BAR: 1, LAN: 1, STARK: 0, MAR: 1, GREY: 1, TYR: 1}
NIGHTS_WATCH_WIN = {BAR: 3, LAN: 1, STARK: 1, MAR: 1, GREY: 1, TYR: 1}


def wildlings_win(g: np.record, card: int, script: Sequence = (), default=None) -> Driver:
    return run_attack(g, card, 12, bids(g, WILDLINGS_WIN) + list(script), default)


def nights_watch_win(g: np.record, card: int, script: Sequence = (), default=None) -> Driver:
    return run_attack(g, card, 4, bids(g, NIGHTS_WATCH_WIN) + list(script), default)


# --- threat and timing ----------------------------------------------------------------------------


def test_last_days_of_summer_only_moves_the_threat() -> None:
    """Three icons (Last Days of Summer I and II, Storm of Swords): threat 2 -> 8, no decision."""
    g = fresh()
    set_decks(g, W.LAST_DAYS_OF_SUMMER, W.LAST_DAYS_OF_SUMMER, W.STORM_OF_SWORDS)
    before = g.copy()
    d = run_phase(g)
    assert d.asked == []
    assert g.threat == 8
    assert g.westeros_drawn.tolist() == [
        W.LAST_DAYS_OF_SUMMER,
        W.LAST_DAYS_OF_SUMMER,
        W.STORM_OF_SWORDS,
    ]
    assert g.westeros_next.tolist() == [1, 1, 1]
    assert (g.units == before.units).all() and (g.power == before.power).all()
    assert g.restrict == Restriction.NO_DEFENSE


def test_threat_stops_at_12_and_the_attack_comes_before_the_cards() -> None:
    """Threat 6 + 3 icons reaches 12: everyone bids at strength 12 before A Throne of Blades is
    resolved; the wildlings win (Silence at the Wall) and the threat drops to 8."""
    g = fresh()
    g.threat = 6
    set_decks(g, W.A_THRONE_OF_BLADES, W.LAST_DAYS_OF_SUMMER, W.STORM_OF_SWORDS)
    set_wildlings(g, WC.SILENCE_AT_THE_WALL)
    d = run_phase(g, [*bids(g, {}), (D.WESTEROS_CHOICE, BAR, 2)])
    kinds = [a.kind for a in d.asked]
    assert kinds == [D.BID] * 6 + [D.WESTEROS_CHOICE]
    assert all(a.ctx[:2] == (WILDLINGS, 12) for a in d.of(D.BID))
    assert g.threat == 8
    assert g.wildlings[-1] == WC.SILENCE_AT_THE_WALL


def test_threat_is_capped_at_12() -> None:
    g = fresh()
    g.threat = 10
    set_decks(g, W.LAST_DAYS_OF_SUMMER, W.LAST_DAYS_OF_SUMMER, W.STORM_OF_SWORDS)
    set_wildlings(g, WC.SILENCE_AT_THE_WALL)
    d = run_phase(g, bids(g, {h: 2 for h in range(6)}))  # 12 >= 12: Night's Watch
    assert [a.ctx[1] for a in d.of(D.BID)] == [12] * 6
    assert g.threat == 0


def test_no_icon_no_threat_change() -> None:
    g = fresh()
    g.threat = 4
    set_decks(g, W.SUPPLY, W.GAME_OF_THRONES, W.PUT_TO_THE_SWORD)
    run_phase(g, [(D.WESTEROS_CHOICE, GREY, 2)])
    assert g.threat == 4


@pytest.mark.parametrize("deck", [0, 1])
def test_winter_is_coming_reshuffles_and_its_replacement_counts(deck: int) -> None:
    """Winter Is Coming: the whole deck (this card included) is shuffled with the nature stream,
    the new top card is drawn and resolved, and its wildling icon moves the threat."""
    icon_seen = {False: 0, True: 0}
    for seed in range(30):
        g = fresh(seed)
        cards = [W.LAST_DAYS_OF_SUMMER, W.GAME_OF_THRONES, W.STORM_OF_SWORDS]
        cards[deck] = W.WINTER_IS_COMING
        set_decks(g, *cards)
        run_phase(g, default=passive)
        drawn = int(g.westeros_drawn[deck])
        assert drawn != W.WINTER_IS_COMING
        assert drawn == g.westeros[deck][g.westeros_next[deck] - 1]
        assert sorted(g.westeros[deck]) == sorted(T.westeros_start[deck])
        icons = sum(int(T.westeros_icon[c]) for c in g.westeros_drawn)
        assert g.threat == 2 + 2 * icons  # at most 8: no attack
        icon_seen[bool(T.westeros_icon[drawn])] += 1
    assert icon_seen[True] and icon_seen[False]


def test_spent_deck_is_reshuffled() -> None:
    g = fresh()
    g.westeros_next[:] = 10
    run_phase(g, default=passive)
    assert (g.westeros_next >= 1).all()
    for d in range(3):
        assert sorted(g.westeros[d]) == sorted(T.westeros_start[d])


# --- deck I ---------------------------------------------------------------------------------------


def stark_over_supply(g: np.record) -> None:
    """Stark armies [3, 2, 2, 2] (Winterfell F+K+K, Moat Cailin F+F, White Harbor F+K, Castle
    Black F+F); Stark's barrels (Winterfell 1) give supply 1 = armies [3, 2]."""
    set_units(g, WF, STARK, footmen=1, knights=2)
    set_units(g, A("moat_cailin"), STARK, footmen=2)
    set_units(g, WH, STARK, footmen=1, knights=1)
    set_units(g, A("castle_black"), STARK, footmen=2)
    g.supply[STARK] = 6


def test_supply_sets_levels_and_reduces_armies_until_they_fit() -> None:
    g = fresh()
    stark_over_supply(g)
    set_decks(g, W.SUPPLY, W.LAST_DAYS_OF_SUMMER, W.STORM_OF_SWORDS)
    mc, cb = A("moat_cailin"), A("castle_black")
    d = run_phase(
        g,
        [
            (D.SUPPLY_CUT, STARK, mc),  # footmen only: destroyed without asking the type
            (D.SUPPLY_CUT, STARK, WH),
            (D.SUPPLY_CUT_UNIT, STARK, K),
        ],
    )
    # shrinking Winterfell (3 -> 2) would not help: [2, 2, 2, 2] still has two armies too many
    assert d.asked[0].legal == sorted([mc, WH, cb])
    assert d.asked[1].legal == sorted([WH, cb])
    assert d.asked[2].ctx[0] == WH and d.asked[2].legal == [F, K]
    assert g.units[mc, :4].tolist() == [1, 0, 0, 0] and g.units[WH, :4].tolist() == [1, 0, 0, 0]
    assert g.units[WF, :4].tolist() == [1, 2, 0, 0] and g.units[cb, :4].tolist() == [2, 0, 0, 0]
    assert g.supply[STARK] == 1
    for h in range(6):
        assert g.supply[h] == barrels_held(g, T, h)
    assert g.supply.tolist() == [2, 2, 1, 2, 2, 2, 0, 0]  # everyone else's starting barrels


def fits(sizes: Sequence[int], level: int) -> bool:
    armies = sorted((n for n in sizes if n >= 2), reverse=True)
    allowed = [int(n) for n in T.supply_table[level] if n]
    return len(armies) <= len(allowed) and all(
        a <= b for a, b in zip(armies, allowed[: len(armies)], strict=True)
    )


def test_supply_excess_is_the_fewest_units_to_destroy() -> None:
    """Against brute force over every way of shrinking up to 5 armies of up to 5 units."""
    rng = np.random.default_rng(5)
    areas = [A(n) for n in ("karhold", "castle_black", "moat_cailin", "the_twins", "seagard")]
    for _ in range(150):
        g = fresh()
        set_units(g, WF, -1)
        set_units(g, WH, -1)
        set_units(g, A("the_shivering_sea"), -1)
        sizes = rng.integers(1, 6, rng.integers(1, 6)).tolist()
        for area, n in zip(areas, sizes, strict=False):
            set_units(g, area, STARK, footmen=n)
        level = int(rng.integers(0, 7))
        best = min(
            sum(sizes) - sum(kept)
            for kept in itertools.product(*(range(1, n + 1) for n in sizes))
            if fits(kept, level)
        )
        assert supply_excess(g, T, STARK, level, -1) == best, (sizes, level)
        assert (best == 0) == army_sizes_fit(g, T, STARK, level, -1, 0)


def test_mustering_in_turn_order_with_points_supply_and_ship_rules() -> None:
    """Stark (supply 1: armies [3, 2]; Winterfell and Karhold already hold armies of 2) musters
    a ship into the Port of White Harbor (castle, 1 point) and a knight at Winterfell (stronghold,
    2 points); everyone else declines. A third army would break supply: no footman at White
    Harbor, no ship joining the Shivering Sea's ship."""
    g = fresh()
    set_units(g, A("karhold"), STARK, footmen=2)
    set_decks(g, W.MUSTERING, W.LAST_DAYS_OF_SUMMER, W.STORM_OF_SWORDS)
    stark = iter([A("port_of_white_harbor"), ACT_KNIGHT])

    def policy(g: np.record, kind: Decision, house: int, mask: np.ndarray) -> int:
        return next(stark) if house == STARK else ACT_NONE

    d = run_phase(g, default=policy)
    musters = d.of(D.MUSTER)
    houses = [a.house for a in musters]
    assert houses == [BAR, LAN, STARK, STARK, MAR, GREY, TYR]  # turn order, area by area
    at_wh, at_wf = musters[2], musters[3]
    assert at_wh.ctx[:2] == (WH, 1) and at_wf.ctx[:2] == (WF, 2)
    ships_wh = sorted([A("the_narrow_sea"), A("port_of_white_harbor")])
    assert at_wh.legal == [*ships_wh, ACT_UPGRADE_SIEGE, ACT_UPGRADE_KNIGHT, ACT_NONE]
    ships_wf = sorted([A("bay_of_ice"), A("port_of_winterfell")])
    units = [ACT_UPGRADE_SIEGE, ACT_SIEGE, ACT_UPGRADE_KNIGHT, ACT_KNIGHT, ACT_FOOTMAN, ACT_NONE]
    assert at_wf.legal == ships_wf + units
    assert g.units[WF, :4].tolist() == [1, 2, 0, 0]
    assert g.units[A("port_of_white_harbor"), :4].tolist() == [0, 0, 1, 0]
    assert g.owner[A("port_of_white_harbor")] == STARK


def muster_options(g: np.record, house: int, area: int) -> list[int]:
    assert start_muster(g, T, house, area)
    mask = np.zeros(N_ACTIONS, np.bool_)
    assert westeros_legal(g, T, mask)
    g.pending = D.NONE
    return np.flatnonzero(mask).tolist()


def test_muster_unit_limits() -> None:
    """5 knights, 2 siege engines and 6 ships on the board: only a footman can be mustered."""
    g = fresh()
    g.supply[STARK] = 6
    for name in ("karhold", "castle_black", "moat_cailin", "the_stony_shore"):
        set_units(g, A(name), STARK, knights=1)  # + Winterfell's knight = 5
    for name in ("seagard", "the_twins"):
        set_units(g, A(name), STARK, sieges=1)
    for name in ("bay_of_ice", "the_narrow_sea", "port_of_white_harbor"):
        set_units(g, A(name), STARK, ships=1)  # + the Shivering Sea's ship
    set_units(g, A("port_of_winterfell"), STARK, ships=2)
    assert muster_options(g, STARK, WF) == [ACT_FOOTMAN, ACT_NONE]


def test_muster_ship_targets() -> None:
    """Adjacent seas without enemy units and the area's own port; an enemy-held sea, a distant
    sea and a full port (3 ships) are refused."""
    g = fresh()
    g.supply[STARK] = 6
    set_units(g, A("bay_of_ice"), GREY, ships=1)
    set_units(g, A("port_of_winterfell"), STARK, ships=3)
    options = muster_options(g, STARK, WF)
    ships = [a for a in options if a < T.n_areas]
    assert ships == [A("the_shivering_sea")]
    set_units(g, A("port_of_winterfell"), STARK, ships=2)
    ships = [a for a in muster_options(g, STARK, WF) if a < T.n_areas]
    assert ships == sorted([A("the_shivering_sea"), A("port_of_winterfell")])


def test_muster_respects_supply() -> None:
    """At supply 0 (armies [2, 2]) Winterfell's army of 2 cannot grow, and a second army of 2 is
    the most allowed: a ship joining the Shivering Sea's ship is fine, a third army is not."""
    g = fresh()
    g.supply[STARK] = 0
    options = muster_options(g, STARK, WF)
    assert ACT_FOOTMAN not in options and ACT_KNIGHT not in options and ACT_SIEGE not in options
    assert ACT_UPGRADE_KNIGHT in options  # upgrades keep the army's size
    assert A("the_shivering_sea") in options
    set_units(g, A("karhold"), STARK, footmen=2)
    options = muster_options(g, STARK, WF)
    assert A("the_shivering_sea") not in options
    assert A("port_of_winterfell") in options  # a single ship is no army


def test_castle_gives_one_point_and_stronghold_two() -> None:
    g = fresh()
    assert ACT_KNIGHT not in muster_options(g, STARK, WH)
    assert ACT_KNIGHT in muster_options(g, STARK, WF)
    assert not start_muster(g, T, STARK, A("pyke"))  # not Stark's
    assert not start_muster(g, T, STARK, A("karhold"))  # no castle
    assert g.pending == D.NONE


def test_single_area_muster_resumes_in_any_phase() -> None:
    """The star consolidate power muster: the MUSTER decision carries area and points, asks
    again while points remain, and leaves nothing pending (and the phase untouched) when done."""
    g = fresh()
    g.phase = Phase.CONSOLIDATE
    g.supply[STARK] = 6
    d = Driver(g, [(D.MUSTER, STARK, ACT_FOOTMAN), (D.MUSTER, STARK, A("port_of_winterfell"))])
    assert start_muster(g, T, STARK, WF)
    while g.pending != D.NONE:
        d.answer()
    assert [a.ctx[:2] for a in d.asked] == [(WF, 2), (WF, 1)]
    assert g.units[WF, :4].tolist() == [2, 1, 0, 0]
    assert g.units[A("port_of_winterfell"), :4].tolist() == [0, 0, 1, 0]
    assert g.phase == Phase.CONSOLIDATE


@pytest.mark.parametrize("option", [0, 1, 2])
def test_a_throne_of_blades(option: int) -> None:
    """The Iron Throne holder picks: 0 supply, 1 mustering, 2 nothing."""
    g = fresh()
    g.supply[STARK] = 6
    set_decks(g, W.A_THRONE_OF_BLADES, W.LAST_DAYS_OF_SUMMER, W.STORM_OF_SWORDS)
    d = run_phase(g, [(D.WESTEROS_CHOICE, BAR, option)], default=passive)
    assert d.asked[0].ctx[0] == W.A_THRONE_OF_BLADES
    assert g.supply[STARK] == (1 if option == 0 else 6)
    assert bool(d.of(D.MUSTER)) == (option == 1)
    assert g.threat == 8


# --- deck II --------------------------------------------------------------------------------------

# crowns held + ports with ships at the start: Baratheon Dragonstone + Kingswood; Lannister
# Stoney Sept + its port; Stark Winterfell; Greyjoy Pyke + its port; Tyrell Dornish Marches;
# Martell Sunspear
START_INCOME = {BAR: 2, LAN: 2, STARK: 1, GREY: 2, TYR: 1, MAR: 1}


def test_game_of_thrones_crowns_and_ports() -> None:
    g = fresh()
    set_decks(g, W.LAST_DAYS_OF_SUMMER, W.GAME_OF_THRONES, W.STORM_OF_SWORDS)
    run_phase(g)
    assert {h: int(g.power[h]) - 5 for h in range(6)} == START_INCOME


def test_game_of_thrones_port_needs_a_sea_free_of_enemies() -> None:
    g = fresh()
    set_units(g, A("the_golden_sound"), GREY, ships=1)  # instead of Lannister's ship
    set_decks(g, W.LAST_DAYS_OF_SUMMER, W.GAME_OF_THRONES, W.STORM_OF_SWORDS)
    run_phase(g)
    assert g.power[LAN] == 5 + 1  # Stoney Sept only


def test_game_of_thrones_respects_the_power_cap() -> None:
    """A house owns 20 tokens: power in hand plus tokens on the board never exceeds 20."""
    g = fresh()
    g.power[LAN] = 19
    g.power[STARK] = 18
    g.power_token[A("karhold")] = STARK  # tokens on the board count, and give control (crowns)
    g.power_token[A("castle_black")] = STARK
    set_decks(g, W.LAST_DAYS_OF_SUMMER, W.GAME_OF_THRONES, W.STORM_OF_SWORDS)
    run_phase(g)
    assert g.power[LAN] == 20
    assert g.power[STARK] == 18 and power_tokens_on_board(g, T, STARK) == 2
    assert g.power[BAR] == 5 + START_INCOME[BAR]


@pytest.mark.parametrize("option", [0, 1, 2])
def test_dark_wings_dark_words(option: int) -> None:
    """The Messenger Raven holder (top of King's Court: Lannister) picks: 0 Clash of Kings,
    1 Game of Thrones, 2 nothing."""
    g = fresh()
    set_decks(g, W.LAST_DAYS_OF_SUMMER, W.DARK_WINGS_DARK_WORDS, W.STORM_OF_SWORDS)
    d = run_phase(g, [(D.WESTEROS_CHOICE, LAN, option)], default=passive)
    assert d.asked[0].ctx[0] == W.DARK_WINGS_DARK_WORDS
    assert bool(d.of(D.BID)) == (option == 0)
    gained = {h: int(g.power[h]) - 5 for h in range(6)}
    assert gained == (START_INCOME if option == 1 else dict.fromkeys(range(6), 0))
    assert g.threat == 8


def test_dark_wings_game_of_thrones_pays_ports_like_the_card() -> None:
    """W12: Dark Wings, Dark Words' Game of Thrones option is the Game of Thrones card, port
    income included (S&R; an unofficial reading on BoardGameGeek says ports pay only with the
    card): Lannister's ship in the Port of Lannisport pays 1 either way while the Golden Sound
    holds no enemy ship, and neither way once a Greyjoy ship is there."""
    for enemy in (False, True):
        gains = []
        for card, script in (
            (W.DARK_WINGS_DARK_WORDS, [(D.WESTEROS_CHOICE, LAN, 1)]),
            (W.GAME_OF_THRONES, []),
        ):
            g = fresh()
            if enemy:
                set_units(g, A("the_golden_sound"), GREY, ships=1)
            set_decks(g, W.LAST_DAYS_OF_SUMMER, card, W.STORM_OF_SWORDS)
            run_phase(g, script, default=passive)
            gains.append(int(g.power[LAN]) - 5)
        assert gains[0] == gains[1] == (1 if enemy else START_INCOME[LAN])
    assert START_INCOME[LAN] == 2  # Stoney Sept's crown and the port


def test_clash_of_kings_with_ties() -> None:
    """Ties on the Iron Throne track are ordered by the previous holder (Baratheon), those on
    Fiefdoms and King's Court by the new one (Stark). Bids are paid; the blade's flag stays."""
    g = fresh()
    g.blade_used = 1
    set_decks(g, W.LAST_DAYS_OF_SUMMER, W.CLASH_OF_KINGS, W.STORM_OF_SWORDS)
    script = [
        # Iron Throne, in the old turn order
        *bids(g, {BAR: 0, LAN: 3, STARK: 3, MAR: 1, GREY: 1, TYR: 0}),
        (D.TIE_ORDER, BAR, STARK),  # Stark before Lannister (both 3)
        (D.TIE_ORDER, BAR, GREY),  # Greyjoy before Martell (both 1)
        (D.TIE_ORDER, BAR, TYR),  # Tyrell before Baratheon (both 0)
        # Fiefdoms, in the new turn order: Stark, Lannister, Greyjoy, Martell, Tyrell, Baratheon
        (D.BID, STARK, 2),
        (D.BID, LAN, 2),
        (D.BID, GREY, 0),
        (D.BID, MAR, 0),
        (D.BID, TYR, 0),
        (D.BID, BAR, 0),
        (D.TIE_ORDER, STARK, LAN),
        (D.TIE_ORDER, STARK, BAR),
        (D.TIE_ORDER, STARK, TYR),
        (D.TIE_ORDER, STARK, MAR),  # Greyjoy is placed last without asking
        # King's Court: Stark and Lannister have no power left and bid 0 unasked
        (D.BID, GREY, 1),
        (D.BID, MAR, 0),
        (D.BID, TYR, 4),
        (D.BID, BAR, 0),
        (D.TIE_ORDER, STARK, MAR),
        (D.TIE_ORDER, STARK, BAR),
        (D.TIE_ORDER, STARK, LAN),
    ]
    d = run_phase(g, script)
    ties = d.of(D.TIE_ORDER)
    assert ties[0].legal == sorted([LAN, STARK]) and ties[0].ctx[:2] == (0, 3)
    assert ties[1].legal == sorted([MAR, GREY])
    assert ties[3].legal == sorted([LAN, STARK]) and ties[3].ctx[:2] == (1, 2)
    assert ties[4].legal == sorted([BAR, GREY, TYR, MAR])
    assert g.track[0].tolist() == [STARK, LAN, GREY, MAR, TYR, BAR, -1, -1]
    assert g.track[1].tolist() == [LAN, STARK, BAR, TYR, MAR, GREY, -1, -1]
    assert g.track[2].tolist() == [TYR, GREY, MAR, BAR, LAN, STARK, -1, -1]
    assert g.power.tolist() == [5, 0, 0, 3, 1, 4, 0, 0]  # Baratheon, Lannister, Stark, Greyjoy, …
    assert g.blade_used == 1


# --- deck III -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "restriction"),
    [(0, Restriction.NO_DEFENSE), (1, Restriction.NO_MARCH_PLUS), (2, 0)],
)
def test_put_to_the_sword(option: int, restriction: int) -> None:
    """The Valyrian Steel Blade holder (top of Fiefdoms: Greyjoy) picks the restriction."""
    g = fresh()
    set_decks(g, W.LAST_DAYS_OF_SUMMER, W.LAST_DAYS_OF_SUMMER, W.PUT_TO_THE_SWORD)
    run_phase(g, [(D.WESTEROS_CHOICE, GREY, option)])
    assert g.restrict == restriction
    assert g.threat == 6


@pytest.mark.parametrize(
    ("card", "restriction"),
    [
        (W.STORM_OF_SWORDS, Restriction.NO_DEFENSE),
        (W.RAINS_OF_AUTUMN, Restriction.NO_MARCH_PLUS),
        (W.SEA_OF_STORMS, Restriction.NO_RAID),
        (W.WEB_OF_LIES, Restriction.NO_SUPPORT),
        (W.FEAST_FOR_CROWS, Restriction.NO_CONSOLIDATE),
    ],
)
def test_restriction_cards(card: int, restriction: int) -> None:
    g = fresh()
    set_decks(g, W.SUPPLY, W.GAME_OF_THRONES, card)
    run_phase(g)
    assert g.restrict == restriction
    assert g.threat == 4  # one icon


def test_wildlings_attack_card_uses_the_current_threat_after_cards_i_and_ii() -> None:
    g = fresh()
    g.threat = 6
    set_decks(g, W.SUPPLY, W.GAME_OF_THRONES, W.WILDLINGS_ATTACK)
    set_wildlings(g, WC.SILENCE_AT_THE_WALL)
    script = [(D.BID, h, 1) for h in STARK_ORDER]
    d = run_phase(g, script)
    assert all(a.ctx[:2] == (WILDLINGS, 6) for a in d.asked)
    assert g.threat == 0  # 6 >= 6: Night's Watch (no tie asked for Silence at the Wall)
    assert {h: int(g.power[h]) for h in range(6)} == {h: 5 + START_INCOME[h] - 1 for h in range(6)}
    assert g.wildlings[-1] == WC.SILENCE_AT_THE_WALL


# --- wildling attacks: bidding and ties -----------------------------------------------------------


def test_wildling_bids_are_paid_and_the_deck_turns() -> None:
    g = fresh()
    g.threat = 10
    g.power[TYR] = 0
    set_wildlings(g, WC.SILENCE_AT_THE_WALL)
    rest = g.wildlings[1:].tolist()
    d = wildlings_win(g, WC.SILENCE_AT_THE_WALL)
    assert TYR not in [a.house for a in d.asked]  # no power: bids 0 unasked
    assert g.power.tolist() == [4, 4, 5, 4, 0, 4, 0, 0]
    assert g.threat == 6  # Stark and Tyrell tie for lowest: not asked for Silence at the Wall
    assert g.wildlings.tolist() == [*rest, WC.SILENCE_AT_THE_WALL]


def test_silence_at_the_wall_night_watch_resets_threat() -> None:
    g = fresh()
    g.threat = 10
    before = g.copy()
    nights_watch_win(g, WC.SILENCE_AT_THE_WALL)
    assert g.threat == 0
    assert (g.units == before.units).all() and (g.track == before.track).all()


def test_lowest_bidder_tie_is_broken_by_the_iron_throne_holder() -> None:
    g = fresh()
    d = run_attack(g, WC.SKINCHANGER_SCOUT, 12, [*bids(g, {}), (D.TIE_ORDER, BAR, GREY)])
    tie = d.of(D.TIE_ORDER)[0]
    assert tie.ctx[:2] == (WILDLINGS, 0) and tie.legal == list(range(6))
    assert g.power[GREY] == 0
    assert all(g.power[h] == 3 for h in range(6) if h != GREY)


def test_highest_bidder_tie_is_broken_by_the_iron_throne_holder() -> None:
    g = fresh()
    script = [*bids(g, {BAR: 2, LAN: 2}), (D.TIE_ORDER, BAR, LAN)]
    d = run_attack(g, WC.SKINCHANGER_SCOUT, 4, script)
    tie = d.of(D.TIE_ORDER)[0]
    assert tie.ctx[:2] == (WILDLINGS, 2) and tie.legal == [BAR, LAN]
    assert g.power[LAN] == 5 and g.power[BAR] == 3


# --- wildling cards -------------------------------------------------------------------------------


def test_preemptive_raid_lowest_destroys_two_units() -> None:
    g = fresh()
    g.threat = 10
    shiver = A("the_shivering_sea")
    script = [
        (D.WILDLING_CHOICE, STARK, 0),
        (D.DESTROY_UNIT, STARK, WF),
        (D.DESTROY_UNIT_TYPE, STARK, K),
        (D.DESTROY_UNIT, STARK, shiver),  # one ship: no type to choose
    ]
    d = wildlings_win(g, WC.PREEMPTIVE_RAID, script)
    assert d.of(D.WILDLING_CHOICE)[0].ctx[:2] == (WC.PREEMPTIVE_RAID, 0)
    first = d.of(D.DESTROY_UNIT)[0]
    assert first.ctx[:2] == (2, R_ANY) and first.legal == sorted([WF, WH, shiver])
    assert d.of(D.DESTROY_UNIT)[1].ctx[0] == 1
    assert g.units[WF, :4].tolist() == [1, 0, 0, 0]
    assert g.owner[shiver] == -1 and g.units[shiver].sum() == 0
    assert total_units(g, STARK) == 2
    assert g.threat == 6


def test_preemptive_raid_lowest_drops_two_on_its_highest_track() -> None:
    g = fresh()  # Stark: Iron Throne 3rd, Fiefdoms 4th, King's Court 2nd
    wildlings_win(g, WC.PREEMPTIVE_RAID, [(D.WILDLING_CHOICE, STARK, 1)])
    assert g.track[2].tolist() == [LAN, MAR, BAR, STARK, TYR, GREY, -1, -1]


def test_preemptive_raid_tied_highest_tracks_go_to_the_iron_throne_holder() -> None:
    g = fresh()
    g.track[1, :6] = [GREY, STARK, TYR, MAR, BAR, LAN]  # Stark 2nd on Fiefdoms and King's Court
    script = [(D.WILDLING_CHOICE, STARK, 1), (D.TRACK_CHOICE, BAR, 1)]
    d = wildlings_win(g, WC.PREEMPTIVE_RAID, script)
    choice = d.of(D.TRACK_CHOICE)[0]
    assert choice.ctx[:2] == (2, STARK) and choice.legal == [1, 2]
    assert g.track[1].tolist() == [GREY, TYR, MAR, STARK, BAR, LAN, -1, -1]
    assert g.track[2].tolist() == [LAN, STARK, MAR, BAR, TYR, GREY, -1, -1]


def test_preemptive_raid_highest_triggers_a_second_attack_without_the_highest_bidder() -> None:
    """The Night's Watch wins; the wildlings attack again at strength 6 without Baratheon (no
    bid, no penalty). The second card, Skinchanger Scout, is won by the wildlings."""
    g = fresh()
    g.threat = 10
    set_wildlings(g, WC.PREEMPTIVE_RAID, WC.SKINCHANGER_SCOUT)
    start_wildling_attack(g, T, 4)
    after_first = {BAR: 2, LAN: 4, STARK: 4, MAR: 4, GREY: 4, TYR: 4}
    second = {LAN: 1, STARK: 0, MAR: 1, GREY: 1, TYR: 1}  # 4 < 6, Stark lowest
    script = bids(g, NIGHTS_WATCH_WIN) + [(D.BID, h, second[h]) for h in STARK_ORDER if h != BAR]
    d = Driver(g, script)
    while not wildling_attack_step(g, T):
        d.answer()
    assert d.script == []
    assert [a.ctx[1] for a in d.of(D.BID)] == [4] * 6 + [6] * 5
    assert g.power[BAR] == after_first[BAR]  # excluded: keeps its power
    assert g.power[STARK] == 0
    assert all(g.power[h] == after_first[h] - 1 - 2 for h in (LAN, MAR, GREY, TYR))
    assert g.threat == 0
    assert g.wildlings[-2:].tolist() == [WC.PREEMPTIVE_RAID, WC.SKINCHANGER_SCOUT]


def test_crow_killers_lowest_and_everyone_else_with_footmen_to_spare() -> None:
    """Every house has one knight and footmen to spare: all knights become footmen, unasked."""
    g = fresh()
    footmen = {h: total_units(g, h, F) for h in range(6)}
    d = wildlings_win(g, WC.CROW_KILLERS)
    assert d.of(D.CROW_KILLERS) == []
    for h in range(6):
        assert total_units(g, h, K) == 0
        assert total_units(g, h, F) == footmen[h] + 1
    assert g.units[WF, :4].tolist() == [2, 0, 0, 0]


def test_crow_killers_lowest_without_enough_footmen() -> None:
    """Stark: 3 knights, 1 footman in reserve: it picks the knight that becomes a footman; the
    other two are destroyed."""
    g = fresh()
    set_units(g, WF, STARK, footmen=3, knights=1)
    set_units(g, WH, STARK, footmen=3, knights=1)
    set_units(g, A("moat_cailin"), STARK, footmen=3, knights=1)
    d = wildlings_win(g, WC.CROW_KILLERS, [(D.CROW_KILLERS, STARK, WH)])
    ask = d.of(D.CROW_KILLERS)[0]
    assert ask.ctx[:2] == (0, 1) and ask.legal == sorted([WF, WH, A("moat_cailin")])
    assert g.units[WH, :4].tolist() == [4, 0, 0, 0]
    assert g.units[WF, :4].tolist() == [3, 0, 0, 0]
    assert total_units(g, STARK, K) == 0 and total_units(g, STARK, F) == 10


def test_crow_killers_everyone_else_picks_two_knights() -> None:
    """Lannister has 3 knights and 1 footman in reserve: its first pick becomes a footman, its
    second is destroyed (no footman left)."""
    g = fresh()
    set_units(g, A("lannisport"), LAN, footmen=3, knights=1)
    set_units(g, A("stoney_sept"), LAN, footmen=3, knights=1)
    set_units(g, A("riverrun"), LAN, footmen=3, knights=1)
    script = [(D.CROW_KILLERS, LAN, A("riverrun")), (D.CROW_KILLERS, LAN, A("lannisport"))]
    d = wildlings_win(g, WC.CROW_KILLERS, script)
    asks = d.of(D.CROW_KILLERS)
    assert [a.ctx[:2] for a in asks] == [(1, 2), (1, 1)]
    assert g.units[A("riverrun"), :4].tolist() == [4, 0, 0, 0]
    assert g.units[A("lannisport"), :4].tolist() == [3, 0, 0, 0]
    assert g.units[A("stoney_sept"), :4].tolist() == [3, 1, 0, 0]


def test_crow_killers_highest_may_upgrade_two_footmen() -> None:
    g = fresh()
    ds, kw = A("dragonstone"), A("kingswood")
    script = [(D.CROW_KILLERS, BAR, kw), (D.CROW_KILLERS, BAR, ACT_NONE)]
    d = nights_watch_win(g, WC.CROW_KILLERS, script)
    asks = d.of(D.CROW_KILLERS)
    assert asks[0].ctx[:2] == (2, 2) and asks[0].legal == [ds, kw, ACT_NONE]
    assert asks[1].legal == [ds, ACT_NONE]
    assert g.units[kw, :4].tolist() == [0, 1, 0, 0] and g.units[ds, :4].tolist() == [1, 1, 0, 0]


def test_rattleshirts_raiders_lowest_and_everyone_else_then_armies_are_reduced() -> None:
    g = fresh()
    set_units(g, WF, STARK, footmen=1, knights=2)  # an army of 3: too big at supply 0
    script = [(D.SUPPLY_CUT, STARK, WF), (D.SUPPLY_CUT_UNIT, STARK, F)]
    d = wildlings_win(g, WC.RATTLESHIRTS_RAIDERS, script)
    assert g.supply.tolist() == [1, 1, 0, 1, 1, 1, 0, 0]  # Stark 1 - 2 stops at 0
    assert d.of(D.SUPPLY_CUT)[0].legal == [WF]
    assert g.units[WF, :4].tolist() == [0, 2, 0, 0]


@pytest.mark.parametrize(("start", "end"), [(2, 3), (6, 6)])
def test_rattleshirts_raiders_highest_gains_one_supply(start: int, end: int) -> None:
    g = fresh()
    g.supply[BAR] = start
    nights_watch_win(g, WC.RATTLESHIRTS_RAIDERS)
    assert g.supply[BAR] == end
    assert g.supply[LAN] == 2


def test_massing_on_the_milkwater_lowest_and_everyone_else() -> None:
    """Stark (7 cards) discards its strength-4 card; each other house holding 2+ cards discards
    one of its choice; a house with one card keeps it."""
    g = fresh()
    g.hand[:6] = [0b0000011, 0b0000100, 0x7F, 0b0001100, 0b0000001, 0b1010000]
    g.discard[:6] = 0x7F ^ g.hand[:6]
    script = [
        (D.WILDLING_CHOICE, BAR, 1),
        (D.WILDLING_CHOICE, MAR, 6),
        (D.WILDLING_CHOICE, GREY, 2),
    ]
    d = wildlings_win(g, WC.MASSING_ON_THE_MILKWATER, script)
    assert [a.legal for a in d.of(D.WILDLING_CHOICE)] == [[0, 1], [4, 6], [2, 3]]
    assert g.hand.tolist() == [0b0000001, 0b0000100, 0x7E, 0b0001000, 0b0000001, 0b0010000, 0, 0]
    assert (g.hand & g.discard == 0).all() and (g.hand[:6] | g.discard[:6] == 0x7F).all()


@pytest.mark.parametrize(
    ("hand", "after"),
    [(0b0001100, 0b0001100), (0b1000000, 0b1000000), (0b1110000, 0b1000000)],
)
def test_massing_on_the_milkwater_lowest_edge_cases(hand: int, after: int) -> None:
    """All cards of one strength (two 2s): none discarded; a single card: kept; two 1s and a 0:
    both 1s discarded."""
    g = fresh()
    g.hand[STARK] = hand
    g.discard[STARK] = 0x7F ^ hand
    wildlings_win(g, WC.MASSING_ON_THE_MILKWATER, default=passive)
    assert g.hand[STARK] == after and g.discard[STARK] == 0x7F ^ after


def test_massing_on_the_milkwater_highest_takes_back_its_discards() -> None:
    g = fresh()
    g.hand[BAR] = 0b0000001
    g.discard[BAR] = 0b1111110
    nights_watch_win(g, WC.MASSING_ON_THE_MILKWATER)
    assert g.hand[BAR] == 0x7F and g.discard[BAR] == 0


def test_a_king_beyond_the_wall_lowest_and_everyone_else() -> None:
    g = fresh()
    script = [
        (D.TRACK_CHOICE, BAR, 1),
        (D.TRACK_CHOICE, LAN, 2),
        (D.TRACK_CHOICE, MAR, 1),
        (D.TRACK_CHOICE, GREY, 2),
        (D.TRACK_CHOICE, TYR, 1),
    ]
    d = wildlings_win(g, WC.A_KING_BEYOND_THE_WALL, script)
    assert all(a.legal == [1, 2] and a.ctx[:2] == (1, a.house) for a in d.of(D.TRACK_CHOICE))
    assert g.track[0].tolist() == [BAR, LAN, MAR, GREY, TYR, STARK, -1, -1]
    assert g.track[1].tolist() == [GREY, LAN, STARK, BAR, MAR, TYR, -1, -1]
    assert g.track[2].tolist() == [MAR, BAR, TYR, STARK, LAN, GREY, -1, -1]


def test_a_king_beyond_the_wall_highest_takes_the_top_of_a_track() -> None:
    g = fresh()
    d = nights_watch_win(g, WC.A_KING_BEYOND_THE_WALL, [(D.TRACK_CHOICE, BAR, 2)])
    assert d.of(D.TRACK_CHOICE)[0].legal == [0, 1, 2]
    assert g.track[2].tolist() == [BAR, LAN, STARK, MAR, TYR, GREY, -1, -1]
    g = fresh()
    g.track[1, :6] = [BAR, GREY, TYR, MAR, STARK, LAN]
    g.track[2, :6] = [BAR, LAN, STARK, MAR, TYR, GREY]
    d = nights_watch_win(g, WC.A_KING_BEYOND_THE_WALL)
    assert d.of(D.TRACK_CHOICE) == []  # already first everywhere


def test_mammoth_riders_lowest_three_everyone_else_two() -> None:
    g = fresh()
    before = {h: total_units(g, h) for h in range(6)}
    d = wildlings_win(g, WC.MAMMOTH_RIDERS, default=passive)
    lost = {h: before[h] - total_units(g, h) for h in range(6)}
    assert lost == {h: 3 if h == STARK else 2 for h in range(6)}
    order: list[int] = []
    for a in d.of(D.DESTROY_UNIT):
        if not order or order[-1] != a.house:
            order.append(a.house)
    assert order == [STARK, BAR, LAN, MAR, GREY, TYR]  # lowest bidder first, then turn order
    assert violations(g, T) == []


def test_mammoth_riders_highest_takes_back_one_card() -> None:
    g = fresh()
    g.hand[BAR] = 0b1110110
    g.discard[BAR] = 0b0001001
    d = nights_watch_win(g, WC.MAMMOTH_RIDERS, [(D.WILDLING_CHOICE, BAR, 3)])
    assert d.of(D.WILDLING_CHOICE)[0].legal == [0, 3, ACT_NONE]
    assert g.hand[BAR] == 0b1111110 and g.discard[BAR] == 0b0000001
    g = fresh()
    d = nights_watch_win(g, WC.MAMMOTH_RIDERS)
    assert d.of(D.WILDLING_CHOICE) == []  # nothing discarded


def test_the_horde_descends_lowest_loses_two_units_at_one_castle() -> None:
    g = fresh()
    script = [
        (D.DESTROY_UNIT, STARK, WF),
        (D.DESTROY_UNIT_TYPE, STARK, F),
        (D.DESTROY_UNIT, STARK, WF),
    ]
    d = wildlings_win(g, WC.THE_HORDE_DESCENDS, script, default=passive)
    stark = [a for a in d.of(D.DESTROY_UNIT) if a.house == STARK]
    assert stark[0].ctx[:2] == (2, R_CASTLE2) and stark[0].legal == [WF]
    assert stark[1].ctx[:2] == (1, WF) and stark[1].legal == [WF]
    assert g.owner[WF] == -1 and total_units(g, STARK) == 2
    others = [a for a in d.of(D.DESTROY_UNIT) if a.house != STARK]
    assert [a.house for a in others] == [BAR, LAN, MAR, GREY, TYR]
    assert all(a.ctx[:2] == (1, R_ANY) for a in others)


def test_the_horde_descends_lowest_without_a_castle_army_loses_two_anywhere() -> None:
    g = fresh()
    set_units(g, WF, STARK, footmen=1)
    shiver = A("the_shivering_sea")
    script = [(D.DESTROY_UNIT, STARK, shiver), (D.DESTROY_UNIT, STARK, WH)]
    d = wildlings_win(g, WC.THE_HORDE_DESCENDS, script, default=passive)
    assert d.of(D.DESTROY_UNIT)[0].ctx[:2] == (2, R_ANY)
    assert d.of(D.DESTROY_UNIT)[0].legal == sorted([WF, WH, shiver])
    assert total_units(g, STARK) == 1


def test_the_horde_descends_highest_musters_in_one_castle() -> None:
    g = fresh()
    ds = A("dragonstone")
    script = [
        (D.WILDLING_CHOICE, BAR, ds),
        (D.MUSTER, BAR, ACT_FOOTMAN),
        (D.MUSTER, BAR, ACT_NONE),
    ]
    d = nights_watch_win(g, WC.THE_HORDE_DESCENDS, script)
    assert d.of(D.WILDLING_CHOICE)[0].legal == [ds, ACT_NONE]
    assert [a.ctx[:2] for a in d.of(D.MUSTER)] == [(ds, 2), (ds, 1)]
    assert g.units[ds, :4].tolist() == [2, 1, 0, 0]


def test_skinchanger_scout_lowest_and_everyone_else() -> None:
    g = fresh()
    wildlings_win(g, WC.SKINCHANGER_SCOUT)
    assert g.power.tolist() == [2, 2, 0, 2, 2, 2, 0, 0]


def test_skinchanger_scout_highest_gets_its_bid_back() -> None:
    g = fresh()
    nights_watch_win(g, WC.SKINCHANGER_SCOUT)
    assert g.power.tolist() == [5, 4, 4, 4, 4, 4, 0, 0]


# --- interface ------------------------------------------------------------------------------------


def test_legal_ignores_other_decisions() -> None:
    g = fresh()
    g.pending = D.PLACE_ORDER
    mask = np.ones(N_ACTIONS, np.bool_)
    assert not westeros_legal(g, T, mask)
    assert mask.all()


def test_bids_are_capped_at_62_and_at_the_power_held() -> None:
    g = fresh()
    g.power[BAR] = 7
    start_wildling_attack(g, T, 12)
    assert not wildling_attack_step(g, T)
    mask = np.zeros(N_ACTIONS, np.bool_)
    assert westeros_legal(g, T, mask)
    assert np.flatnonzero(mask).tolist() == list(range(8))
    g.power[BAR] = 100  # impossible in play; the action range still ends at 62
    assert westeros_legal(g, T, mask)
    assert np.flatnonzero(mask).tolist() == list(range(63))


# --- random play ----------------------------------------------------------------------------------


def random_policy(rng: np.random.Generator) -> Policy:
    def pick(g: np.record, kind: Decision, house: int, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    return pick


def test_random_westeros_phases_keep_every_invariant() -> None:
    """200 Westeros phases (20 games x 10 rounds, decks running out included) with random legal
    answers from random power, threat, hands and supply: every decision has a legal option and
    afterwards units stay within limits, power + tokens on the board <= 20, supply 0..6, the
    threat even in 0..12 and every track a permutation of the houses in play."""
    rng = np.random.default_rng(2024)
    policy = random_policy(rng)
    kinds: set[Decision] = set()
    phases = 0
    for g in new_games(seeds(20, 99)):
        g.power[:6] = rng.integers(0, 21, 6)
        g.threat = 2 * rng.integers(0, 7)
        g.hand[:6] = rng.integers(0, 128, 6)
        g.discard[:6] = rng.integers(0, 128, 6) & (0x7F ^ g.hand[:6])
        g.supply[:6] = [barrels_held(g, T, h) for h in range(6)]
        for round_ in range(2, 12):
            g.phase = Phase.WESTEROS
            g.game_round = round_
            g.restrict = 0
            d = run_phase(g, default=policy)
            kinds |= {a.kind for a in d.asked}
            phases += 1
            assert violations(g, T) == [], (round_, violations(g, T))
            for h in range(6):
                for u in range(4):
                    assert total_units(g, h, u) <= T.unit_limits[h, u]
                assert g.power[h] + power_tokens_on_board(g, T, h) <= 20
                assert 0 <= g.supply[h] <= 6
            assert 0 <= g.threat <= 12 and g.threat % 2 == 0
            for track in range(3):
                assert sorted(g.track[track][: T.players]) == list(range(6))
    assert phases == 200
    assert {D.MUSTER, D.BID, D.TIE_ORDER, D.WESTEROS_CHOICE} <= kinds
