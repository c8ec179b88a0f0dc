"""A casebook of the Iron Bank's improvements as per-game board facts (``docs/rules.md`` IB9):
a record's ``crown_bonus``, ``barrel_bonus`` and ``castle_delta`` set by hand (with
``board_state.add_improvement``, which also sets the ``improved`` flag), and every reader of
the board's crowns, barrels and castle levels moved by them. Each case first shows the
board's own answer, then the improved one, so a reader that ignored the fields fails.

On the 2nd-edition board Harrenhal is a castle with a crown and no barrel, Moat Cailin a castle
with neither, The Reach a castle, Winterfell and Lannisport strongholds."""

from __future__ import annotations

import numpy as np
from enginecase import Case

from gotsim.engine import machine as mc
from gotsim.engine.board_state import (
    add_improvement,
    barrels_at,
    barrels_held,
    castle_level,
    castles_by_house,
    castles_held,
    crowns_at,
    is_fort,
    is_stronghold,
    muster_points_at,
)
from gotsim.engine.invariants import violations
from gotsim.engine.objectives import objective_met, special_objective_met
from gotsim.engine.state import Decision, H
from gotsim.engine.westeros.bidding import power_income
from gotsim.engine.westeros.common import R_CASTLE2
from gotsim.engine.westeros.muster import mustering_step, start_muster
from gotsim.engine.westeros.wildlings import destroy_area_ok
from gotsim.players import view
from gotsim.players.memo import new_memos
from gotsim.rules.ids import House
from gotsim.rules.objectives import Objective

STARK, LANNISTER = int(House.STARK), int(House.LANNISTER)


def board(text: str = "", players: int = 6) -> Case:
    c = Case(players)
    return c.place(text) if text.strip() else c


def at(c: Case, name: str) -> int:
    return c.board.index(name)


def test_ib9_accessors_read_the_board_then_the_improvements() -> None:
    """With no improvement each accessor answers the board's fact; a power and a supply
    improvement add a crown and a barrel; +1 makes a castle a stronghold (2 mustering points),
    -1 takes a castle away, and the level stays within 0..2."""
    c = board()
    g, t = c.g, c.t
    moat, winterfell = at(c, "moat_cailin"), at(c, "winterfell")
    assert (crowns_at(g, t, moat), barrels_at(g, t, moat)) == (0, 0)
    assert (castle_level(g, t, moat), muster_points_at(g, t, moat)) == (1, 1)
    assert castle_level(g, t, winterfell) == 2 and is_stronghold(g, t, winterfell)
    g.crown_bonus[moat] = 1
    g.barrel_bonus[moat] = 1
    g.improved = 1  # (set by hand: add_improvement sets it)
    assert (crowns_at(g, t, moat), barrels_at(g, t, moat)) == (1, 1)
    g.castle_delta[moat] = 1
    assert castle_level(g, t, moat) == 2 and is_stronghold(g, t, moat)
    assert muster_points_at(g, t, moat) == 2
    g.castle_delta[moat] = -1
    assert castle_level(g, t, moat) == 0 and not is_fort(g, t, moat)
    assert muster_points_at(g, t, moat) == 0
    g.castle_delta[winterfell] = -1
    assert castle_level(g, t, winterfell) == 1 and not is_stronghold(g, t, winterfell)
    assert is_fort(g, t, winterfell) and muster_points_at(g, t, winterfell) == 1
    g.castle_delta[winterfell] = 3  # (never set so; kept within the levels all the same)
    assert castle_level(g, t, winterfell) == 2


def test_ib9_a_supply_improvement_raises_the_supply_count() -> None:
    """Stark holds Moat Cailin (no barrel on the board): its barrels are Winterfell's 1. A
    supply improvement there makes them 2 — also in an area outside the board's barrel list."""
    c = board("moat_cailin stark F")
    g, t = c.g, c.t
    before = barrels_held(g, t, STARK)
    g.barrel_bonus[at(c, "moat_cailin")] = 1
    g.improved = 1  # (set by hand: add_improvement sets it)
    assert barrels_held(g, t, STARK) == before + 1
    assert barrels_held(g, t, LANNISTER) == 2  # (Lannisport's, untouched)
    g.barrel_bonus[at(c, "moat_cailin")] = 0
    g.barrel_bonus[at(c, "winterfell")] = 2  # on an area with barrels already
    assert barrels_held(g, t, STARK) == before + 2


def test_ib9_a_power_improvement_raises_power_income() -> None:
    """A crown added to Moat Cailin (none on the board): the Game of Thrones card gives Stark
    one more power, a consolidate power order there 2 instead of 1, and the players' estimate
    of that order agrees."""
    c = board("moat_cailin stark F")
    g, t = c.g, c.t
    moat = at(c, "moat_cailin")
    before = power_income(g, t, STARK)
    assert mc.consolidate_income(g, t, moat) == 1
    assert view.power_income(g, t, STARK, moat) == 1
    add_improvement(g, moat, crowns=1)
    assert power_income(g, t, STARK) == before + 1
    assert mc.consolidate_income(g, t, moat) == 2
    assert view.power_income(g, t, STARK, moat) == 2


def test_ib9_an_upgraded_castle_musters_two_points() -> None:
    """Stark holds Harrenhal (a castle): mustering there asks with 1 point; upgraded to a
    stronghold, with 2. Rally the Men (castles only) then skips it, as a stronghold."""
    c = board("harrenhal stark F")
    g, t = c.g, c.t
    harrenhal = at(c, "harrenhal")
    assert start_muster(g, t, STARK, harrenhal)
    assert g.pending == Decision.MUSTER and g.ctx[1] == 1
    add_improvement(g, harrenhal, castle=1)
    assert start_muster(g, t, STARK, harrenhal)
    assert g.pending == Decision.MUSTER and g.ctx[1] == 2


def test_ib9_rally_the_men_skips_an_upgraded_castle() -> None:
    """Rally the Men musters in castle areas only, not strongholds: Stark musters in Harrenhal
    (Winterfell, a stronghold, is skipped); once Harrenhal is a stronghold Stark has no castle
    area left to muster in."""
    c = board("harrenhal stark F")
    g, t = c.g, c.t
    harrenhal = at(c, "harrenhal")

    def first_muster() -> int:
        g.pending = Decision.NONE
        g.westeros_loop = 0
        g.westeros_area = 0
        g.track[0, :] = -1
        g.track[0, 0] = STARK
        done = mustering_step(g, t, True)
        return -1 if done else int(g.ctx[0])

    assert first_muster() == harrenhal
    add_improvement(g, harrenhal, castle=1)
    assert first_muster() == -1


def test_ib9_a_lost_castle_no_longer_counts_for_victory() -> None:
    """Stark holds seven castles and strongholds and wins at once; with Harrenhal's castle
    taken away it holds six and plays on."""
    text = """
        moat_cailin  stark F
        white_harbor stark F
        harrenhal    stark F
        the_reach    stark F
        riverrun     stark F
        seagard      stark F
    """
    c = board(text)
    g, t = c.g, c.t
    assert castles_held(g, t, STARK) == 7  # with Winterfell, its home
    mc.check_castle_victory(g, t)
    assert g.done and g.winner == STARK
    c = board(text)
    g, t = c.g, c.t
    add_improvement(g, at(c, "harrenhal"), castle=-1)
    assert castles_held(g, t, STARK) == 6
    assert (castles_by_house(g, t) >> (8 * STARK)) & 0xFF == 6
    mc.check_castle_victory(g, t)
    assert not g.done


def test_ib9_a_lost_castle_no_longer_counts_in_the_ranking() -> None:
    """After round 10 Stark and Lannister hold three castles each and Lannister wins on land
    areas; with The Reach's castle taken away Lannister holds two and Stark wins."""
    text = """
        moat_cailin  stark F
        white_harbor stark F
        harrenhal    lannister F
        the_reach    lannister F
        stoney_sept  lannister F
    """
    c = board(text)
    mc.end_after_last_round(c.g, c.t)
    assert c.g.winner == LANNISTER
    c = board(text)
    add_improvement(c.g, at(c, "the_reach"), castle=-1)
    mc.end_after_last_round(c.g, c.t)
    assert c.g.winner == STARK


def test_ib9_no_siege_engine_bonus_where_the_castle_was_taken_away() -> None:
    """Lannister marches a footman and a siege engine into Harrenhal (a Stark footman) with
    Cersei (0) against Roose Bolton (2): 1 + 4 against 3 wins. With Harrenhal's castle taken
    away the engine adds nothing: 1 against 3 loses (and the engine, beaten, is destroyed)."""

    def attack(castle_lost: bool) -> Case:
        c = Case(6).phase("marches")
        c.place("""
            stoney_sept  lannister F E march+0
            harrenhal    stark F
        """)
        if castle_lost:
            add_improvement(c.g, at(c, "harrenhal"), castle=-1)
        c.play("""
            lannister MARCH_FROM stoney_sept
            lannister MARCH_UNIT F harrenhal
            lannister MARCH_UNIT E harrenhal
            lannister HOUSE_CARD cersei_lannister
            stark HOUSE_CARD roose_bolton
        """)
        if not castle_lost:  # Cersei won (she may remove an order: none); Stark retreats
            c.play("lannister CERSEI none\nstark RETREAT riverrun")
        return c

    c = attack(False)
    assert c.at("harrenhal") == "lannister F E" and c.at("riverrun") == "stark Fr"
    c = attack(True)
    assert c.at("harrenhal").startswith("stark")
    assert c.count("lannister", "E") == 0


def test_ib9_objectives_count_this_games_castles_strongholds_and_crowns() -> None:
    """A Feast for Crows' objectives: with Harrenhal upgraded Lannister holds two strongholds
    (A Stalwart Position) and no castle any more (Friendly Confines); a crown added to Moat
    Cailin gives Stark its fourth crown area (The People's Chosen); and Stark's special
    objective counts castles and strongholds held in this game."""
    c = board("harrenhal lannister F", players=4)
    g, t = c.g, c.t
    points = np.zeros(H, np.int64)

    def met(house: int, objective: Objective) -> bool:
        return bool(objective_met(g, t, house, int(objective), points))

    assert not met(LANNISTER, Objective.A_STALWART_POSITION)
    assert met(LANNISTER, Objective.FRIENDLY_CONFINES)
    add_improvement(g, at(c, "harrenhal"), castle=1)
    assert met(LANNISTER, Objective.A_STALWART_POSITION)
    assert not met(LANNISTER, Objective.FRIENDLY_CONFINES)

    c = board("moat_cailin stark F\nkarhold stark F\nthe_twins stark F", players=4)
    g, t = c.g, c.t
    assert not met(STARK, Objective.THE_PEOPLES_CHOSEN)  # Winterfell, Karhold, The Twins
    add_improvement(g, at(c, "moat_cailin"), crowns=1)
    assert met(STARK, Objective.THE_PEOPLES_CHOSEN)

    text = "moat_cailin stark F\nwhite_harbor stark F\nharrenhal stark F\nriverrun stark F"
    c = board(text, players=4)
    g, t = c.g, c.t
    assert special_objective_met(g, t, STARK)  # Winterfell and 4 more: 5
    add_improvement(g, at(c, "white_harbor"), castle=-1)
    assert not special_objective_met(g, t, STARK)


def test_ib9_wildlings_castle_areas_follow_the_castle_level() -> None:
    """A wildling penalty destroying units in a castle or stronghold area holding two or more
    of the house's units: Moat Cailin qualifies, not once its castle is taken away."""
    c = board("moat_cailin stark 2F")
    g, t = c.g, c.t
    moat = at(c, "moat_cailin")
    assert destroy_area_ok(g, t, STARK, moat, R_CASTLE2)
    add_improvement(g, moat, castle=-1)
    assert not destroy_area_ok(g, t, STARK, moat, R_CASTLE2)


def test_ib9_the_players_see_the_improvements() -> None:
    """The heuristic players' memo starts from the board (``init_memo``); the improvements of
    the game update the castle flag and the worth of the areas they changed, and a siege
    engine's attack on a castle that was taken away counts 0 for it."""
    c = board("moat_cailin stark F\nthe_twins lannister E")
    g, t = c.g, c.t
    moat, twins = at(c, "moat_cailin"), at(c, "the_twins")
    memo = new_memos(1)[0]
    view.init_memo(t, memo)
    view.refresh_counts(g, t, memo)
    assert memo.fort[moat] == 1
    worth = float(memo.base_value[moat])
    castles = int(memo.castles[STARK])
    siege = view.attack_strength(g, t, twins, moat)
    add_improvement(g, moat, barrels=1)
    view.refresh_counts(g, t, memo)
    assert memo.base_value[moat] > worth
    worth = float(memo.base_value[moat])
    add_improvement(g, moat, castle=-1)
    view.refresh_counts(g, t, memo)
    assert memo.fort[moat] == 0 and memo.base_value[moat] < worth
    assert memo.castles[STARK] == castles - 1
    assert view.attack_strength(g, t, twins, moat) == siege - 4


def test_ib9_invariants_refuse_impossible_improvements() -> None:
    """Improvements the loans can make pass; a castle raised where the board has none, a
    negative crown, a barrel at sea, a level beyond a stronghold and an improvement set
    without the ``improved`` flag (which keeps the readers on the board's facts) are
    violations."""
    c = board("moat_cailin stark F")
    g, t = c.g, c.t
    add_improvement(g, at(c, "moat_cailin"), crowns=1)
    add_improvement(g, at(c, "karhold"), barrels=1)
    add_improvement(g, at(c, "harrenhal"), castle=1)
    add_improvement(g, at(c, "the_reach"), castle=-1)
    assert violations(g, t) == []
    for field, name, value in (
        ("castle_delta", "karhold", 1),
        ("castle_delta", "winterfell", 1),
        ("crown_bonus", "karhold", -1),
        ("barrel_bonus", "the_shivering_sea", 1),
    ):
        c = board()
        c.g[field][at(c, name)] = value
        c.g.improved = 1
        assert any("improvement" in v or "castle level" in v for v in violations(c.g, c.t)), (
            field,
            name,
        )
    c = board()
    c.g.crown_bonus[at(c, "karhold")] = 1
    assert violations(c.g, c.t) == ["improvements on the board without the improved flag"]


def _improve(games, t, seed: int) -> None:
    """Put the improvements a game's loans could make on each record: two power and three
    supply improvements on land, two castles upgraded and one taken away."""
    rng = np.random.default_rng(seed)
    n = int(t.n_areas)
    land = np.flatnonzero(t.kind[:n] == 0)
    castles = np.flatnonzero((t.castle[:n] == 1) & (t.stronghold[:n] == 0))
    for g in games:
        for a in rng.choice(land, 2, replace=False):
            add_improvement(g, a, crowns=1)
        for a in rng.choice(land, 3, replace=False):
            add_improvement(g, a, barrels=1)
        up = rng.choice(castles, 3, replace=False)
        add_improvement(g, up[0], castle=1)
        add_improvement(g, up[1], castle=1)
        add_improvement(g, up[2], castle=-1)


def test_ib9_games_with_improvements_play_to_the_end() -> None:
    """Random and heuristic games from starts carrying improvements finish with every
    invariant kept, and the castle counts they end with are this game's."""
    from gotsim.engine.init import new_games
    from gotsim.engine.tables import rules_table
    from gotsim.play.runner import play_policies, play_random
    from gotsim.players.params import DEFAULTS, policy_kind

    rules = rules_table("2e", 6, {})
    t = rules[0]
    seeds = [np.random.SeedSequence(7, spawn_key=(i,)) for i in range(24)]
    games = new_games(seeds, edition="2e", players=6)
    _improve(games, t, 1)
    assert all(violations(g, t) == [] for g in games)
    assert (play_random(games, rules, 1_000_000) > 0).all()
    heuristic = new_games(seeds[:4], edition="2e", players=6)
    _improve(heuristic, t, 2)
    kinds = np.full((4, H), policy_kind("heuristic"), np.int8)
    params = np.tile(DEFAULTS, (4, H, 1))
    assert (play_policies(heuristic, rules, kinds, params, new_memos(4), 1_000_000) > 0).all()
    for batch in (games, heuristic):
        assert (batch.done == 1).all()
        for g in batch:
            assert violations(g, t) == []
            won = int(g.winner)
            if g.end_reason == 1:  # (castles: the winner holds enough of this game's)
                assert castles_held(g, t, won) >= t.castles_to_win
