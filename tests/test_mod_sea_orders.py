"""Mother of Dragons' sea order tokens (``sea_orders``, on by default in ``expansion="mod"``):
a march -1 and a support +0 for each house, placed in sea areas only (``docs/rules.md`` M9)."""

from __future__ import annotations

import pytest
from enginecase import Case

from gotsim.engine import combat as cb
from gotsim.engine.game import Game
from gotsim.engine.invariants import violations
from gotsim.engine.position import PositionError, dump_position, load_position
from gotsim.engine.state import N_BASE_ORDER_KINDS, ORDER_COUNT, ORDER_SEA_ONLY, Decision, Order
from gotsim.engine.tables import rules_table
from gotsim.rules.ids import AreaKind, Unit
from gotsim.rules.variants import Rules


def mod(*, sea_orders: bool = True) -> Case:
    return Case(7, expansion="mod", variants={"sea_orders": sea_orders})


def planning(c: Case, house: str) -> Case:
    """``c`` at ``house``'s first order decision of round 1."""
    c.phase("planning", 1).settle()  # (no gift of power tokens)
    assert c.pending == f"{house} PLACE_ORDER", c.pending
    return c


def test_sea_order_tokens_are_one_march_and_one_support_for_seas() -> None:
    assert [int(Order.SEA_MARCH_MINUS), int(Order.SEA_SUPPORT_ZERO)] == [11, 12]
    assert N_BASE_ORDER_KINDS == 11
    assert ORDER_COUNT[11] == ORDER_COUNT[12] == 1
    assert ORDER_SEA_ONLY.tolist() == [0] * 11 + [1, 1, 1]  # (and the Iron Bank's token)
    assert Rules.of("2e", 7, expansion="mod").on("sea_orders")  # on unless switched off
    assert not Rules.of("2e", 7, {"sea_orders": False}, expansion="mod").on("sea_orders")
    assert rules_table("2e", 7, expansion="mod")[0].sea_orders == 1
    assert rules_table("2e", 6)[0].sea_orders == 0
    with pytest.raises(ValueError, match="Mother of Dragons option"):
        Rules.of("2e", 6, {"sea_orders": True})


def test_a_fleet_may_take_a_sea_order_and_an_army_may_not() -> None:
    c = mod()
    c.place("""
        the_shivering_sea  stark S
        winterfell         stark F
    """)
    planning(c, "stark")
    first = c.board.area_ids[int(c.g.ctx[0])]
    options = c.options()
    if first == "winterfell":
        assert "sea_march-1" not in options and "sea_support+0" not in options
        c.step("stark PLACE_ORDER march+0").expect("stark PLACE_ORDER")
        options = c.options()
    assert {"sea_march-1", "sea_support+0", "march-1", "support+0"} <= options


def test_without_the_option_no_sea_order_is_offered() -> None:
    c = mod(sea_orders=False)
    c.place("the_shivering_sea  stark S")
    planning(c, "stark")
    assert not {"sea_march-1", "sea_support+0"} & c.options()


def test_each_sea_token_once_a_round() -> None:
    c = mod()
    c.place("""
        the_shivering_sea  stark S
        the_bite           stark S
        bay_of_ice         stark S
    """)
    planning(c, "stark")
    c.step("stark PLACE_ORDER sea_march-1").expect("stark PLACE_ORDER")
    assert "sea_march-1" not in c.options() and "sea_support+0" in c.options()
    c.step("stark PLACE_ORDER sea_support+0").expect("stark PLACE_ORDER")
    assert not {"sea_march-1", "sea_support+0"} & c.options()
    assert c.orders_used("stark", "sea_march-1") == 1
    assert c.orders_used("stark", "sea_support+0") == 1


def test_the_sea_march_attacks_at_minus_one() -> None:
    """Two Stark ships march with the sea march -1 on a Greyjoy ship: the attack carries -1
    (Eddard Stark 4 + 2 - 1 against Theon Greyjoy 2 + 1); Eddard's two swords sink the ship."""
    c = mod().phase("marches")
    c.place("""
        the_shivering_sea  stark 2S sea_march-1
        the_narrow_sea     greyjoy S
    """)
    c.play("""
        stark MARCH_FROM the_shivering_sea
        stark MARCH_UNIT S the_narrow_sea
        stark MARCH_UNIT S the_narrow_sea
    """)
    c.expect("stark HOUSE_CARD")
    assert c.g.battle[cb.ORDER_BONUS] == -1 and c.g.battle[cb.SIDE + cb.ORDER_BONUS] == 0
    c.play("""
        stark HOUSE_CARD eddard_stark
        greyjoy HOUSE_CARD theon_greyjoy
        greyjoy CASUALTY S
    """)
    assert c.at("the_narrow_sea") == "stark 2S"
    assert c.order_at("the_shivering_sea") is None  # the march token is spent


def test_the_sea_support_backs_a_battle_on_the_coast() -> None:
    """Stark marches from White Harbor into Widow's Watch; its ship in The Bite supports with the
    sea support +0: one ship (strength 1), no bonus."""
    c = mod().phase("marches")
    c.place("""
        white_harbor  stark F march+0
        the_bite      stark S sea_support+0
        widows_watch  greyjoy F
    """)
    c.play("""
        stark MARCH_FROM white_harbor
        stark MARCH_UNIT F widows_watch
    """)
    c.expect("stark HOUSE_CARD")
    b = c.g.battle
    assert b[cb.SUPPORT_OWN + Unit.SHIP] == 1 and b[cb.SUPPORTERS] == 1
    assert b[cb.SUPPORT_BONUS] == 0


def test_a_raid_removes_a_sea_support() -> None:
    c = mod().phase("raids")
    c.place("""
        the_narrow_sea  greyjoy S raid
        the_bite        stark S sea_support+0
    """)
    c.play("greyjoy RAID_FROM the_narrow_sea")
    c.expect("greyjoy RAID_TARGET")
    assert "the_bite" in c.options()
    c.play("greyjoy RAID_TARGET the_bite")
    assert c.order_at("the_bite") is None
    assert c.orders_used("stark", "sea_support+0") == 0


def test_sea_tokens_in_positions() -> None:
    from gotsim.engine.position import starting_position

    spec = dump_position(starting_position("2e", 7, expansion="mod"))
    assert spec["variants"]["sea_orders"] is True
    p = load_position(spec)
    assert p.variants["sea_orders"]
    bad = {**spec, "phase": "action", "step": "raid"}
    bad["areas"] = {**spec["areas"]}
    bad["areas"]["winterfell"] = {**bad["areas"]["winterfell"], "order": "sea_march-1"}
    with pytest.raises(PositionError, match="sea order token"):
        load_position(bad)
    off = {**spec, "variants": {**spec["variants"], "sea_orders": False}}
    off["phase"] = "action"
    off["step"] = "raid"
    off["areas"] = {**spec["areas"]}
    off["areas"]["the_shivering_sea"] = {**off["areas"]["the_shivering_sea"]}
    off["areas"]["the_shivering_sea"]["order"] = "sea_march-1"
    with pytest.raises(PositionError, match="unknown order"):
        load_position(off)


def test_heuristic_and_random_players_use_sea_orders_legally() -> None:
    """Seven-player Mother of Dragons games: every order each player places is legal (the
    engine asks), sea order tokens stand in sea areas only (the invariants), and both players
    place them."""
    from gotsim.players import HeuristicPolicy, RandomPolicy

    t = rules_table("2e", 7, expansion="mod")[0]
    for policy in (RandomPolicy(), HeuristicPolicy()):
        game = Game(players=7, seed=3, expansion="mod")
        sea = 0
        while game.pending is not None and game.record.game_round <= 6:
            pending = game.pending
            action = policy(game, pending)
            assert action in pending.legal
            if pending.kind == Decision.PLACE_ORDER and action in (11, 12):
                sea += 1
                assert game.board.kind[pending.context[0]] == AreaKind.SEA
            game.step(action)
            assert violations(game.record, t) == []
        assert sea >= 4, (policy, sea)
