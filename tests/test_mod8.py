"""Mother of Dragons at 8 players (``expansion="mod"``, ``players=8``): House Targaryen on the
Essos board, its dragons, loyalty tokens and its loyalty victory (``docs/rules.md`` M10-M14).
The setup is checked against the reference scenario; each rule has a case."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from gotsim.engine import combat as cb
from gotsim.engine import loyalty as ly
from gotsim.engine.dragons import dragon_strength
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.marches import march_destinations
from gotsim.engine.state import EndReason
from gotsim.engine.tables import rules_table
from gotsim.rules.board import load_board
from gotsim.rules.ids import DRAGON, House, Unit
from gotsim.rules.setup import load_setup
from gotsim.rules.variants import Rules

REFERENCE = Path(__file__).parents[2] / "shared" / "reference" / "agot2e" / "expansions.json"
BOARD = load_board("2e", board="mod8")
T = rules_table("2e", 8, None, "mod")[0]
TARGARYEN = int(House.TARGARYEN)


def scenario() -> dict:
    if REFERENCE.exists():
        return json.loads(REFERENCE.read_text())["scenarios"]["mother_of_dragons"]
    from gotsim.data import load_data

    return load_data("2e", "expansions.json")["scenarios"]["mother_of_dragons"]


def start() -> np.record:
    return new_games([np.random.SeedSequence(1)], players=8, expansion="mod")[0]


def area(name: str) -> int:
    return BOARD.index(name)


def test_mod8_setup_is_the_references_eight_player_start() -> None:
    ref = scenario()
    s = load_setup("2e", 8, expansion="mod")
    assert s.board == "mod8" and Rules.of("2e", 8, expansion="mod").board == "mod8"
    assert [h.id for h in s.houses] == sorted(ref["houses"]["8"], key=lambda h: House.from_id(h))
    for house in s.houses:
        want = {
            area: {Unit.from_id(u): n for u, n in counts.items()}
            for area, counts in ref["starting_units"][house.id].items()
        }
        assert {a: dict(c) for a, c in s.units[house].items()} == want
        assert s.supply[house] == ref["starting_supply"][house.id]
        assert s.power[house] == ref["starting_power_tokens_available"]["without_iron_bank"]
    for track, order in ref["influence_tracks"]["8"].items():
        assert [h.id for h in s.tracks[track]] == order
        assert s.tracks[track][-1] == House.TARGARYEN
    assert s.stars == tuple(ref["kings_court_special_orders_by_position"]["8"])
    assert s.stars[7] == 3  # Targaryen's King's Court space
    limits = {u.id: n for u, n in s.unit_limits[House.TARGARYEN].items() if n}
    assert limits == ref["unit_limits"]["targaryen"]
    assert s.garrisons["pentos"] == (House.TARGARYEN, 2)
    assert s.garrisons["the_eyrie"] == (House.ARRYN, 4)
    assert s.neutral_forces == {"kings_landing": 5, "braavos": 5}
    assert dict(s.loyalty) == ref["loyalty_tokens_at_start"]["8"] == {"kings_landing": 1}
    assert s.loyalty_to_win == 7 and s.castles_to_win == 7 and s.max_rounds == 10


def test_mod8_starting_record() -> None:
    g = start()
    assert g.in_play.sum() == 8
    assert g.units[area("norvos"), DRAGON] == 1 and g.units[area("the_rhoyne"), DRAGON] == 2
    assert g.owner[area("the_rhoyne")] == TARGARYEN
    assert g.neutral[area("braavos")] == 5 and g.neutral[area("kings_landing")] == 5
    assert g.garrison[area("pentos")] == 2
    assert g.loyalty[area("kings_landing")] == 1 and g.loyalty.sum() == 1
    assert g.loyalty_placed == 1 and g.loyalty_taken == 0
    assert violations(g, T) == []


def test_dragon_strength_goes_by_the_round() -> None:
    """M10: 0 in round 1, one more every second round, 5 in round 10 (S&R's default tokens on
    rounds 2, 4, 6, 8, 10); Fire Made Flesh's early tokens add, at most 5."""
    ref = scenario()["dragon_strength"]["by_round_default"]
    g = start()
    for r in range(1, 11):
        g.game_round = r
        assert dragon_strength(g, T) == ref[str(r)] == T.dragon_strength[r]
    g.dragon_boost = 3
    assert dragon_strength(g, T) == 5


def test_dragons_fight_at_their_strength_and_daenerys_sees_them() -> None:
    """M11: a dragon adds this round's strength where it fights or supports; Daenerys
    Targaryen (deck A) counts dragons in either fighting army, not supporting ones."""
    b = cb.new_battle()
    b[cb.UNITS + cb.FOOTMAN] = 1
    b[cb.SIDE + cb.UNITS + cb.FOOTMAN] = 1
    b[cb.DRAGON_STRENGTH] = 3
    b[cb.DRAGONS + cb.ATTACKER] = 2
    b[cb.DRAGON_SUPPORT + cb.DEFENDER] = 1
    table = cb.card_table("2e", "mod")
    cards = table.arrays()
    parts = np.zeros((2, cb.N_PARTS), np.int64)
    cb.board_and_card_strength(b, cards, parts)
    assert parts[0, cb.P_UNITS] == 1 + 2 * 3
    assert parts[1, cb.P_SUPPORT] == 3
    assert cb.dragons_in_combat(b) == 2
    b[cb.DRAGONS + cb.ATTACKER] = 0
    assert cb.dragons_in_combat(b) == 0  # a supporting dragon takes no part


def test_battle_spec_with_dragons() -> None:
    """A battle spec names dragons as House Targaryen's units and their strength."""
    from gotsim.odds import combat_odds

    spec = {
        "area": "the_twins",
        "house_cards": "mod",
        "dragon_strength": 2,
        "attacker": {"house": "targaryen", "units": {"dragon": 1}, "card": "daenerys_targaryen_a"},
        "defender": {"house": "stark", "units": {"footman": 1}, "card": "catelyn_stark"},
        "fiefdoms": ["stark", "targaryen"],
    }
    r = combat_odds(spec)
    assert r.breakdown.loc["attacker", "units"] == 2  # one dragon of strength 2
    bad = {**spec, "attacker": {**spec["attacker"], "house": "baratheon", "card": None}}
    with pytest.raises(ValueError, match="no dragons"):
        combat_odds(bad)


def test_dragons_alone_fly_to_any_land_area() -> None:
    """M11: a dragon marching without other units may go to any land area of the board; a
    knight from the same area only where its march reaches."""
    g = start()
    origin = area("norvos")
    g.order[origin] = 1  # a march +0
    g.march_origin = origin
    g.march_target = -1
    mask = np.zeros(128, np.bool_)
    march_destinations(g, T, TARGARYEN, origin, DRAGON, mask)
    assert mask[area("the_reach")] and mask[area("winterfell")]
    assert not mask[area("the_narrow_sea")]  # land areas only
    mask[:] = False
    g.units[origin, Unit.KNIGHT] = 1
    march_destinations(g, T, TARGARYEN, origin, int(Unit.KNIGHT), mask)
    assert not mask[area("the_reach")]


def test_targaryen_collects_loyalty_tokens_and_wins_with_seven() -> None:
    """M12, M13: Targaryen takes the tokens of the areas it controls; its points are those and
    1 for Pentos while it holds it; 7 win."""
    g = start()
    kl = area("kings_landing")
    g.neutral[kl] = 0
    g.owner[kl] = TARGARYEN
    g.units[kl, Unit.FOOTMAN] = 1
    ly.collect(g, T)
    assert g.loyalty[kl] == 0 and g.loyalty_taken == 1 and g.loyalty_placed == 1
    assert ly.targaryen_points(g, T) == 2  # and Pentos
    g.loyalty_taken = 5
    assert not ly.loyalty_victory(g, T)
    g.loyalty_taken = 6
    assert ly.loyalty_victory(g, T)
    assert int(EndReason.LOYALTY) == 4


def test_pentos_garrison_comes_back() -> None:
    g = start()
    pentos = area("pentos")
    g.garrison[pentos] = 0
    ly.collect(g, T)
    assert g.garrison[pentos] == 2


def test_loyalty_tokens_at_most_twenty() -> None:
    g = start()
    assert ly.place(g, T, area("the_reach"), 30) == 19
    assert ly.loyalty_on_board(g, T) == 20 and g.loyalty_placed == 20


def test_targaryen_stays_last_on_every_track() -> None:
    """M14: Targaryen moved up (a wildling card, a house card) goes back to the last space."""
    g = start()
    g.track[0, :8] = [7, 0, 1, 2, 3, 4, 5, 6]
    ly.keep_targaryen_last(g, T, 0)
    assert list(g.track[0, :8]) == [0, 1, 2, 3, 4, 5, 6, 7]


@pytest.mark.parametrize("policies", ["random", "heuristic"])
def test_mod8_games_keep_every_invariant(policies: str) -> None:
    from gotsim.play.simulate import play_games

    games = play_games(60, players=8, expansion="mod", seed=8, policies=policies)
    assert games.done.all()
    bad = [v for g in games for v in violations(g, T)]
    assert bad == []
    assert set(np.unique(games.end_reason)) <= {1, 2, 4}


# --- Westeros deck IV (M15) ----------------------------------------------------------------------


def _deck4_game(card: int):
    """An 8-player game at its round-2 Westeros phase with ``card`` on top of deck IV."""
    from gotsim.engine.game import Game

    game = Game(players=8, seed=3, expansion="mod")
    g = game.record
    order = [card, *(c for c in range(10) if c != card)]
    g.deck4[:] = order
    return game


def _run_to_deck4(game) -> None:
    """Answer every decision at random until deck IV's card is drawn (round 2)."""
    rng = np.random.default_rng(0)
    while game.record.deck4_next == 0 and not game.record.done:
        game.step(int(rng.choice(game.pending.legal)))


def test_deck4_data_and_tables() -> None:
    from gotsim.engine.westeros.deck4 import Deck4Card

    cards = scenario()["westeros_deck_IV"]["cards"]
    assert [c["id"] for c in cards] == [c.name.lower() for c in Deck4Card]
    for k, c in enumerate(cards):
        fixed = [BOARD.area_ids[a] for a in T.deck4_fixed[k] if a >= 0]
        assert fixed == c.get("loyalty_tokens_placed_in", [])
        choice = [BOARD.area_ids[a] for a in T.deck4_choice[k] if a >= 0]
        assert choice == c.get("loyalty_token_choice", [])
    g = start()
    assert sorted(g.deck4) == list(range(10)) and g.deck4_next == 0


@pytest.mark.parametrize("card", range(10))
def test_each_deck4_card_places_its_tokens(card: int) -> None:
    """Each card of deck IV, drawn in round 2 after decks I-III, puts its printed loyalty
    tokens on the board (or Targaryen takes them at once where it stands) and is not drawn
    again; the game goes on keeping every invariant."""
    game = _deck4_game(card)
    before = int(game.record.loyalty_placed)
    _run_to_deck4(game)
    g = game.record
    assert g.deck4_next == 1 and g.deck4_drawn == card
    printed = int((T.deck4_fixed[card] >= 0).sum())
    assert g.loyalty_placed >= before + printed
    rng = np.random.default_rng(1)
    while not g.done and g.game_round < 4:
        game.step(int(rng.choice(game.pending.legal)))
        g = game.record
    assert violations(g, T) == []
    # one card a Westeros phase from round 2 (the loop stops early in round 4)
    assert g.deck4_next in (g.game_round - 2, g.game_round - 1) or g.done


# --- Targaryen's Clash of Kings bid (M14) and deck IV's paid options (M15) ----------------------


def _answer_clash(g, bids: dict[int, int], hand_to: int) -> list[int]:
    """Run a whole Clash of Kings: each house bids ``bids`` (else 0), Targaryen hands every
    power of its bid to ``hand_to``, ties go to the lowest house; returns the houses asked to
    hand out (one entry per power)."""
    from gotsim.engine.machine import apply, legal
    from gotsim.engine.state import Decision
    from gotsim.engine.westeros.bidding import clash_step

    handed = []
    g.westeros_loop = 0
    g.westeros_area = 0
    mask = np.zeros(128, np.bool_)
    while not clash_step(g, T):
        kind = int(g.pending)
        legal(g, T, mask)
        if kind == Decision.BID:
            action = bids.get(int(g.pending_house), 0)
        elif kind == Decision.TARGARYEN_BID:
            assert g.pending_house == TARGARYEN and not mask[TARGARYEN] and mask[hand_to]
            handed.append(int(g.ctx[1]))
            action = hand_to
        else:
            assert kind == Decision.TIE_ORDER
            action = int(np.flatnonzero(mask)[0])
        assert apply(g, T, action)
    return handed


def test_targaryen_bids_and_hands_its_bid_out() -> None:
    """M14: Targaryen bids on each track and pays its bid, hands the whole of it out to other
    houses' bids, one power at a time (the receivers pay nothing), and stays last."""
    g = start()
    baratheon, stark = int(House.BARATHEON), int(House.STARK)
    g.power[:] = 10
    handed = _answer_clash(g, {TARGARYEN: 3, stark: 2}, baratheon)
    assert handed == [3, 2, 1] * 3  # the power left to hand out, asked once per power
    assert g.power[TARGARYEN] == 10 - 9 and g.power[baratheon] == 10 and g.power[stark] == 10 - 6
    for track in range(3):
        assert g.track[track, 0] == baratheon and g.track[track, 1] == stark  # 3 beats 2
        assert g.track[track, 7] == TARGARYEN


def test_targaryen_bidding_nothing_hands_nothing_out() -> None:
    g = start()
    stark = int(House.STARK)
    g.power[:] = 5
    assert _answer_clash(g, {stark: 1}, int(House.BARATHEON)) == []
    assert g.track[0, 0] == stark and g.track[0, 7] == TARGARYEN and g.power[TARGARYEN] == 5


def _draw_deck4(card: int, power: int = 5):
    """A fresh 8-player record whose deck IV card ``card`` is drawn now (round 2)."""
    from gotsim.engine.westeros.deck4 import deck4_step

    g = start()
    g.game_round = 2
    g.deck4[:] = [card, *(c for c in range(10) if c != card)]
    g.westeros_effect = 0
    g.power[TARGARYEN] = power
    done = deck4_step(g, T)
    return g, done


def _loyalty_mask(g) -> np.ndarray:
    from gotsim.engine.machine import legal

    mask = np.zeros(128, np.bool_)
    legal(g, T, mask)
    return mask


def _answer(g, action: int) -> None:
    from gotsim.engine.machine import apply

    assert apply(g, T, action)


def test_playing_with_fire_puts_a_token_and_another_houses_unit() -> None:
    """M15: Targaryen pays 1 for a token in an uncontrolled land area of Westeros without a
    garrison or neutral force; a house it names (not itself) puts a footman, knight or siege
    engine of its own there."""
    from gotsim.engine.state import ACT_NONE, Decision
    from gotsim.engine.westeros.deck4 import Deck4Card, LoyaltyStep, deck4_step

    g, done = _draw_deck4(Deck4Card.PLAYING_WITH_FIRE)
    assert not done and g.pending == Decision.LOYALTY and g.ctx[0] == LoyaltyStep.PLAY_AREA
    mask = _loyalty_mask(g)
    reach = area("the_reach")
    assert mask[reach] and mask[ACT_NONE]
    assert not mask[area("kings_landing")]  # a neutral force
    assert not mask[area("winterfell")]  # Stark's
    assert not mask[area("the_disputed_lands")]  # Essos
    _answer(g, reach)
    assert g.power[TARGARYEN] == 4 and g.loyalty[reach] == 1
    assert g.ctx[0] == LoyaltyStep.PLAY_HOUSE and g.pending_house == TARGARYEN
    mask = _loyalty_mask(g)
    assert not mask[TARGARYEN] and mask[int(House.STARK)]
    _answer(g, int(House.STARK))
    assert g.ctx[0] == LoyaltyStep.PLAY_UNIT and g.pending_house == int(House.STARK)
    mask = _loyalty_mask(g)
    assert mask[int(Unit.KNIGHT)] and mask[int(Unit.FOOTMAN)] and not mask[int(Unit.SHIP)]
    _answer(g, int(Unit.KNIGHT))
    assert g.owner[reach] == int(House.STARK) and g.units[reach, Unit.KNIGHT] == 1
    assert deck4_step(g, T) and violations(g, T) == []
    g, _ = _draw_deck4(Deck4Card.PLAYING_WITH_FIRE)
    _answer(g, ACT_NONE)  # declined: nothing paid
    assert g.power[TARGARYEN] == 5 and deck4_step(g, T)
    g, done = _draw_deck4(Deck4Card.PLAYING_WITH_FIRE, power=0)
    assert done and g.pending == Decision.NONE  # no power, no option


def test_the_long_plan_has_another_house_put_two_tokens() -> None:
    """M15: Targaryen pays 1 and names another house, which puts a loyalty token in each of two
    different land areas of Westeros."""
    from gotsim.engine.state import ACT_NONE
    from gotsim.engine.westeros.deck4 import Deck4Card, LoyaltyStep, deck4_step

    g, done = _draw_deck4(Deck4Card.THE_LONG_PLAN)
    assert not done and g.ctx[0] == LoyaltyStep.PLAN_HOUSE
    mask = _loyalty_mask(g)
    assert mask[ACT_NONE] and not mask[TARGARYEN] and mask[int(House.LANNISTER)]
    placed = int(g.loyalty_placed)
    _answer(g, int(House.LANNISTER))
    assert g.power[TARGARYEN] == 4
    assert g.ctx[0] == LoyaltyStep.PLAN_AREA and g.pending_house == int(House.LANNISTER)
    mask = _loyalty_mask(g)
    assert mask[area("winterfell")] and not mask[area("pentos")] and not mask[ACT_NONE]
    _answer(g, area("winterfell"))
    mask = _loyalty_mask(g)
    assert not mask[area("winterfell")] and mask[area("riverrun")]
    _answer(g, area("riverrun"))
    assert g.loyalty[area("winterfell")] == 1 and g.loyalty_placed == placed + 2
    assert deck4_step(g, T) and violations(g, T) == []


def test_watering_the_seed_costs_targaryens_victory_points() -> None:
    """M15: Targaryen may pay its victory points in power for a token on each of two different
    land areas next to a river (S&R's list) that it does not control; once paid, both go."""
    from gotsim.engine.state import ACT_NONE
    from gotsim.engine.westeros.deck4 import Deck4Card, LoyaltyStep, deck4_step

    g, done = _draw_deck4(Deck4Card.WATERING_THE_SEED)
    assert not done and g.ctx[0] == LoyaltyStep.WATER and g.ctx[2] == 1  # Pentos: 1 point
    mask = _loyalty_mask(g)
    assert mask[ACT_NONE] and mask[area("harrenhal")] and not mask[area("the_reach")]
    _answer(g, area("harrenhal"))
    assert g.power[TARGARYEN] == 4
    mask = _loyalty_mask(g)
    assert not mask[ACT_NONE] and not mask[area("harrenhal")] and mask[area("riverrun")]
    _answer(g, area("riverrun"))
    assert g.loyalty[area("harrenhal")] == 1 and g.loyalty[area("riverrun")] == 1
    assert deck4_step(g, T) and violations(g, T) == []
    g = start()
    g.loyalty_taken = 5  # 6 points: more than its power
    g.game_round = 2
    g.deck4[:] = [Deck4Card.WATERING_THE_SEED, *(c for c in range(10) if c != 8)]
    g.westeros_effect = 0
    g.power[TARGARYEN] = 5
    assert deck4_step(g, T)


def test_heuristic_flies_dragons_alone_anywhere() -> None:
    """The heuristic's march list for an army of dragons alone holds every land area (M11);
    with a knight beside them only the knight's reach."""
    from gotsim.players.marching import reach_list
    from gotsim.players.memo import new_memos
    from gotsim.players.view import init_memo

    g = start()
    memo = new_memos(1)[0]
    init_memo(T, memo)
    origin = area("norvos")
    n = reach_list(g, T, TARGARYEN, origin, memo)
    listed = set(memo.reach[:n].tolist())
    assert area("winterfell") in listed and area("the_reach") in listed
    assert area("the_narrow_sea") not in listed
    g.units[origin, Unit.KNIGHT] = 1
    n = reach_list(g, T, TARGARYEN, origin, memo)
    assert area("winterfell") not in set(memo.reach[:n].tolist())


def test_heuristic_targaryen_bids_small_and_feeds_the_weakest() -> None:
    from gotsim.players.loyalty import clash_bid, hand_out_to

    g = start()
    mask = np.ones(128, np.bool_)
    g.power[TARGARYEN] = 6
    assert clash_bid(g, T, mask) == 1
    g.power[TARGARYEN] = 5
    assert clash_bid(g, T, mask) == 0
    houses = np.zeros(128, np.bool_)
    houses[[int(House.STARK), int(House.LANNISTER)]] = True
    from gotsim.engine.board_state import castles_held

    for name in ("riverrun", "harrenhal", "seagard"):  # Stark takes three more castles
        g.owner[area(name)] = int(House.STARK)
        g.units[area(name), Unit.FOOTMAN] = 1
    stark, lannister = (
        castles_held(g, T, int(House.STARK)),
        castles_held(g, T, int(House.LANNISTER)),
    )
    assert stark > lannister
    assert hand_out_to(g, T, houses) == int(House.LANNISTER)


def test_targaryens_new_decisions_in_words() -> None:
    from gotsim.engine.game import Game, Pending
    from gotsim.engine.state import Decision
    from gotsim.engine.westeros.deck4 import LoyaltyStep

    game = Game(players=8, seed=3, expansion="mod")
    tg = House.TARGARYEN

    def words(kind: Decision, ctx: tuple[int, ...], action: int, house: House = tg) -> str:
        return game.describe(Pending(kind, house, (*ctx, 0, 0, 0, 0)[:8], ()), action)

    assert "Stark" in words(Decision.TARGARYEN_BID, (0, 3), int(House.STARK))
    assert "Stark" in words(Decision.LOYALTY, (LoyaltyStep.PLAY_HOUSE, 5), int(House.STARK))
    knight = words(Decision.LOYALTY, (LoyaltyStep.PLAY_UNIT, area("the_reach")), int(Unit.KNIGHT))
    assert "knight" in knight and "Reach" in knight
    assert "2 power" in words(Decision.LOYALTY, (LoyaltyStep.WATER, -1, 2), area("riverrun"))


def test_heuristic_sees_dragons_alone_threaten_every_land_area() -> None:
    """The heuristic's view: an army of dragons alone threatens every land area at its strength
    (the two dragons of The Rhoyne, 2 each in round 4), as a transported army would."""
    from gotsim.players.memo import new_memos
    from gotsim.players.view import init_memo, refresh_view

    g = start()
    g.game_round = 4
    memo = new_memos(1)[0]
    init_memo(T, memo)
    refresh_view(g, T, memo)
    far = area("winterfell")
    assert (memo.marcher[far] >> TARGARYEN) & 1
    assert memo.threat[TARGARYEN, far] == 4
    assert not (memo.marcher[area("bay_of_ice")] >> TARGARYEN) & 1


def test_dragons_count_for_supply_when_mustering() -> None:
    """M10: a dragon is a unit for supply. Targaryen at supply level 0 (armies 2, 2) with two
    armies of a dragon and a footman may not muster a footman next to a lone dragon, which
    would make a third army; with the dragons left out of the count it could."""
    from gotsim.engine.westeros.muster import _reserve_and_armies

    board = load_board("2e", board="mod8")
    t = rules_table("2e", 8, {"iron_bank": False}, expansion="mod")[0]
    g = new_games([np.random.SeedSequence(1)], players=8, expansion="mod", iron_bank=False)[0]
    tg = int(House.TARGARYEN)
    for a in range(int(t.n_areas)):
        if g.owner[a] == tg:
            g.units[a, :] = 0
            g.owner[a] = -1
    for name, units in (
        ("pentos", (1, 0, 0, 0, 1)),
        ("myr", (1, 0, 0, 0, 1)),
        ("norvos", (0,) * 4 + (1,)),
    ):
        a = board.index(name)
        g.units[a, :] = units
        g.owner[a] = tg
    g.supply[tg] = 0
    _, armies = _reserve_and_armies(g, t, tg)
    assert tuple(int(x) for x in armies) == (2, 0, 0, 2)  # two armies of 2, dragons counted


def test_heuristic_raids_the_iron_bank_order() -> None:
    """A raid may remove the Iron Bank order (IB5), which stops its loan: the heuristic counts it
    among the orders a raid takes, worth a little less than a consolidate power order, and its
    planner counts a predicted Iron Bank order as raidable."""
    from gotsim.engine.area_bits import no_bits
    from gotsim.engine.machine import raid_reaches
    from gotsim.engine.state import Order
    from gotsim.players.memo import new_memos
    from gotsim.players.orders import RAIDABLE_IF_PREDICTED, _raidable_chance
    from gotsim.players.raids import IRON_BANK_RAID, _raid_value, raid_takes

    g = start()
    stark, lannister = int(House.STARK), int(House.LANNISTER)
    a = area("the_narrow_sea")
    x = next(
        int(y)
        for y in T.neighbours[a]
        if y >= 0 and T.kind[y] == T.kind[a] and g.owner[y] < 0 and raid_reaches(T, a, y)
    )
    for b, house in ((a, stark), (x, lannister)):
        g.owner[b] = house
        g.units[b, Unit.SHIP] = 1
    g.order[a] = int(Order.RAID)
    g.order[x] = int(Order.SEA_IRON_BANK)
    assert raid_takes(g, T, stark, a, x)
    assert _raid_value(g, T, stark, a, x, new_memos(1)[0], no_bits()) == IRON_BANK_RAID
    g.order[x] = int(Order.MARCH_ZERO)
    assert not raid_takes(g, T, stark, a, x)
    memo = new_memos(1)[0]
    memo.pred_key[lannister] = g.game_round
    memo.pred[lannister, x] = int(Order.SEA_IRON_BANK)
    assert _raidable_chance(g, T, memo, x, True) == RAIDABLE_IF_PREDICTED[0]


def test_other_houses_value_keeping_loyalty_tokens_from_targaryen() -> None:
    """An area with loyalty tokens is worth more to every other house (held by it, by nobody or
    by Targaryen), the more so as Targaryen nears 7 victory points and most where the tokens
    would win it the game; tokens another house holds are kept from Targaryen already."""
    from gotsim.players.memo import new_memos
    from gotsim.players.view import DENY_VALUE, DENY_WIN, init_memo, value_for

    g = start()
    memo = new_memos(1)[0]
    init_memo(T, memo)
    stark, lannister = int(House.STARK), int(House.LANNISTER)
    x = area("the_twins")
    g.owner[x] = -1
    bare = value_for(g, T, memo, stark, x)
    g.loyalty[x] = 1
    g.loyalty_placed += 1
    early = value_for(g, T, memo, stark, x)
    assert early > bare + DENY_VALUE - 1e-6
    g.loyalty_taken = 3
    later = value_for(g, T, memo, stark, x)
    assert later > early
    g.loyalty_taken = 5  # with Pentos 6 points: this token wins
    assert value_for(g, T, memo, stark, x) > later + DENY_WIN - 1e-6
    g.owner[x] = lannister
    g.units[x, Unit.FOOTMAN] = 1
    assert abs(value_for(g, T, memo, stark, x) - bare) < 1e-6
    g.owner[x] = TARGARYEN
    assert value_for(g, T, memo, stark, x) > later


def test_other_houses_weigh_targaryens_lead_more() -> None:
    """In the loyalty race every other house weighs Targaryen's castle lead ``TARGARYEN_LEAD``
    times another house's of the same size, unless Targaryen is a vassal (docs/players.md)."""
    from gotsim.players.memo import new_memos
    from gotsim.players.values import TARGARYEN_LEAD, lead_of
    from gotsim.players.view import init_memo

    g = start()
    memo = new_memos(1)[0]
    init_memo(T, memo)
    stark, greyjoy = int(House.STARK), int(House.GREYJOY)
    memo.castles[:] = 2
    memo.castles[TARGARYEN] = 5
    memo.castles[greyjoy] = 5
    plain = lead_of(g, T, memo, stark, greyjoy)
    assert plain > 0.0
    assert TARGARYEN_LEAD > 1.0
    assert lead_of(g, T, memo, stark, TARGARYEN) == pytest.approx(TARGARYEN_LEAD * plain)
    assert lead_of(g, T, memo, TARGARYEN, TARGARYEN) == 0.0
    vassal_rules = rules_table("2e", 8, None, "mod").copy()  # (a copy: the table is shared)
    tv = vassal_rules[0]
    tv.vassals = 1
    tv.vassal[TARGARYEN] = 1  # a vassal wins nothing: its lead counts as another house's
    assert lead_of(g, tv, memo, stark, TARGARYEN) == pytest.approx(plain)
