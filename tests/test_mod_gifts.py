"""Gifts of power tokens (Mother of Dragons' ``gift_power`` option, ``docs/rules.md`` M19): when
they are offered, the receiver's room, vassals, refusals, the players, positions."""

from __future__ import annotations

import numpy as np
import pytest
from enginecase import Case

from gotsim.engine import gifts as gf
from gotsim.engine.convert import position_from_record, record_from_position
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.machine import advance, apply_legal, legal
from gotsim.engine.position import dump_position, load_position, starting_position
from gotsim.engine.rng import pick_from_mask
from gotsim.engine.state import ACT_NONE, N_ACTIONS, Decision
from gotsim.engine.tables import rules_table
from gotsim.players.heuristic import heuristic_action
from gotsim.players.memo import new_memos
from gotsim.players.params import DEFAULTS
from gotsim.rules.ids import House
from gotsim.rules.variants import Rules


def _case(**variants: bool) -> Case:
    c = Case(7, expansion="mod", variants=variants)
    c.auto.pop(Decision.GIFT_POWER)  # (the script answers them)
    c.place("winterfell stark F\nlannisport lannister F\nthe_eyrie arryn F")
    return c


def test_m19_on_by_default_in_mother_of_dragons_and_refused_elsewhere() -> None:
    """M19: S&R's Mother of Dragons games allow gifts unless switched off; other games refuse
    the option in one line (A Feast for Crows forbids it)."""
    assert Rules.of("2e", 7, None, "mod").on("gift_power")
    assert Rules.of("2e", 8, None, "mod").on("gift_power")
    assert not Rules.of("2e", 7, {"gift_power": False}, "mod").on("gift_power")
    assert not Rules.of("2e", 6).on("gift_power")
    for expansion in (None, "affc", "adwd"):
        players = {"affc": 4}.get(expansion or "", 6)
        refusal = r"gift_power \(gifts of power tokens\) is a Mother of Dragons option"
        with pytest.raises(ValueError, match=refusal):
            Rules.of("2e", players, {"gift_power": True}, expansion)


def test_m19_each_player_with_power_is_offered_one_gift_in_iron_throne_order() -> None:
    """M19: at the start of the planning phase, in Iron Throne order, each house holding power
    is asked; a house without power is passed over; then the orders are placed."""
    c = _case()
    c.power(stark=0)
    order = [House(int(h)).id for h in c.g.track[0, :7]]
    asked = []
    for _ in range(7):
        c.advance()
        if c.g.pending != Decision.GIFT_POWER:
            break
        asked.append(House(int(c.g.pending_house)).id)
        c.step(f"{asked[-1]} GIFT_POWER none")
    assert asked == [h for h in order if h != "stark"]
    c.advance()
    assert c.g.pending == Decision.PLACE_ORDER


def test_m19_a_gift_moves_tokens_from_hand_to_hand() -> None:
    """M19: the giver names the receiver, then how many: the giver's hand loses them, the
    receiver's gains them; the power a house owns is unchanged (it comes from and goes back
    to the houses' own available tokens)."""
    c = _case()
    c.power(stark=5, lannister=3)
    c.play("\n".join(f"{h} GIFT_POWER none" for h in _before(c, "stark")))
    c.step("stark GIFT_POWER lannister")
    assert c.pending == "stark GIFT_POWER"
    assert c.options() == {str(n) for n in range(1, 6)}
    c.step("stark GIFT_POWER 4")
    assert (c.power_of("stark"), c.power_of("lannister")) == (1, 7)
    assert violations(c.g, c.t) == []


def _before(c: Case, house: str) -> list[str]:
    """The houses ahead of ``house`` in Iron Throne order (each answers no gift)."""
    order = [House(int(h)).id for h in c.g.track[0, : int(c.t.players)]]
    return order[: order.index(house)]


def test_m19_the_receiver_takes_no_more_than_its_available_tokens() -> None:
    """M19: a receiver with only 2 tokens left in its available supply can be given at most 2
    (S&R: the giver loses what the receiver gained); a house with none left is not offered."""
    c = _case()
    total = int(c.t.power_total[House.LANNISTER])
    c.power(stark=6, lannister=total - 2, greyjoy=total)
    c.play("\n".join(f"{h} GIFT_POWER none" for h in _before(c, "stark")))
    c.expect("stark GIFT_POWER")
    assert "greyjoy" not in c.options() and "lannister" in c.options()
    c.step("stark GIFT_POWER lannister")
    assert c.options() == {"1", "2"}
    c.refuse("stark GIFT_POWER 3")
    c.step("stark GIFT_POWER 2")
    assert (c.power_of("stark"), c.power_of("lannister")) == (4, total)


def test_m19_vassals_neither_give_nor_receive() -> None:
    """M19 (V5): a vassal is never offered a gift and never receives one."""
    c = Case(4, expansion="mod", variants={"vassals": True})
    c.auto.pop(Decision.GIFT_POWER)
    assert c.t.gift_power
    c.place("winterfell stark F\nhighgarden tyrell F")
    c.play(
        "baratheon CLAIM_VASSAL tyrell\nlannister CLAIM_VASSAL martell\nstark CLAIM_VASSAL arryn"
    )
    c.expect(f"{House(int(_first_player_with_power(c))).id} GIFT_POWER")
    assert not {"tyrell", "martell", "arryn"} & c.options()


def _first_player_with_power(c: Case) -> int:
    for p in range(int(c.t.players)):
        house = int(c.g.track[0, p])
        if not c.t.vassal[house] and c.g.power[house] > 0:
            return house
    raise AssertionError("no player with power")


def test_m19_switched_off_no_gift_is_offered() -> None:
    """M19: without the option the planning phase starts with the orders."""
    c = _case(gift_power=False)
    c.advance()
    assert c.g.pending == Decision.PLACE_ORDER


def test_m19_the_heuristic_never_gives_power_away() -> None:
    """M19 (modelling): the heuristic answers no gift, and draws no random number for it."""
    c = _case()
    c.advance()
    assert c.g.pending == Decision.GIFT_POWER
    memos = new_memos(1)
    mask = c.mask()
    rng_before = c.g.rng.copy()
    house = np.int64(c.g.pending_house)
    action = heuristic_action(c.g, c.t, house, mask, DEFAULTS.copy(), memos[0])
    assert action == ACT_NONE and (c.g.rng == rng_before).all()


def test_m19_random_games_give_and_keep_every_invariant() -> None:
    """M19: random players make gifts in 7- and 8-player games; every record stays within the
    invariants (the fuzz plays many more: benchmarks/fuzz_engine.py --expansion mod)."""
    for players in (7, 8):
        rules = rules_table("2e", players, None, expansion="mod")
        t = rules[0]
        games = new_games(
            [np.random.SeedSequence(5, spawn_key=(players, i)) for i in range(3)],
            players=players,
            expansion="mod",
        )
        gifts, givers = 0, set()
        mask = np.zeros(N_ACTIONS, np.bool_)
        for g in games:
            while not g.done:
                advance(g, t)
                if g.done:
                    break
                gift = g.pending == Decision.GIFT_POWER
                amount = gift and g.ctx[0] == gf.PICK_AMOUNT
                gifts += amount
                giver, receiver, before = g.pending_house, g.ctx[1], g.power.copy()
                legal(g, t, mask)
                action = pick_from_mask(g.rng, 1 + g.pending_house, mask)
                apply_legal(g, t, action)
                if amount:  # (conserved: the giver loses exactly what the receiver gains)
                    change = g.power.astype(int) - before
                    assert change[receiver] == action and change[giver] == -action
                    assert change.sum() == 0
                    givers.add(int(giver))
                if gift:
                    assert violations(g, t) == []
            assert violations(g, t) == []
        assert gifts > 10, players
        # Targaryen, a player house at 8 players, gives as any other (S&R: it always may)
        assert (int(House.TARGARYEN) in givers) == (players == 8)


def test_m19_positions_carry_the_option() -> None:
    """M19: a Mother of Dragons position has ``variants.gift_power`` (on unless switched off);
    a base-game position refuses it in one line; records from positions ask the gifts."""
    p = starting_position("2e", 7, expansion="mod")
    assert p.variants["gift_power"]
    spec = dump_position(p)
    assert spec["variants"]["gift_power"] is True
    games = record_from_position(p, seed=3)
    rules = rules_table("2e", 7, dict(p.variants), expansion="mod")
    assert rules[0].gift_power
    assert position_from_record(games, rules) == p
    spec["variants"]["gift_power"] = False
    assert not load_position(spec).variants["gift_power"]
    base = dump_position(starting_position("2e", 6))
    base["variants"]["gift_power"] = True
    with pytest.raises(Exception, match="gift_power: a Mother of Dragons option"):
        load_position(base)
