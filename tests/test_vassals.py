"""Vassals (variant ``vassals``; ``docs/rules.md`` V1-V12): setups checked against the reference,
refusals, and a casebook case per vassal rule in the engine and the heuristic's command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from enginecase import Case

from gotsim.engine import combat as cb
from gotsim.engine import machine as mc
from gotsim.engine import vassals as vs
from gotsim.engine.board_state import castles_held, gain_power
from gotsim.engine.state import Decision
from gotsim.players.vassals import command_filter
from gotsim.rules.ids import House, Unit
from gotsim.rules.setup import load_setup, vassal_players, vassal_track
from gotsim.rules.variants import Rules

REFERENCE = Path(__file__).parents[2] / "shared" / "reference" / "agot2e" / "expansions.json"
VASSALS = {"vassals": True}
B, L, S, G, T, M = (
    House.BARATHEON,
    House.LANNISTER,
    House.STARK,
    House.GREYJOY,
    House.TYRELL,
    House.MARTELL,
)


def _reference() -> dict:
    if not REFERENCE.exists():
        pytest.skip("the shared reference is not on this machine")
    return json.loads(REFERENCE.read_text())


# --- V1, V3, V4: setup -------------------------------------------------------------------------


def test_v1_players_are_the_base_setups_houses_the_rest_vassals() -> None:
    """V1: with 4 players the players are the base 4-player houses; Tyrell and Martell (and in
    Mother of Dragons Arryn too) are vassals; every house of the board is on it."""
    base = load_setup("2e", 4, vassals=True)
    assert vassal_players(4) == (B, L, S, G)
    assert base.vassals == (T, M) and len(base.houses) == 6 and base.players == 6
    mod = load_setup("2e", 4, expansion="mod", vassals=True)
    assert mod.vassals == (T, M, House.ARRYN) and mod.board == "mod7" and mod.players == 7
    assert load_setup("2e", 6, expansion="mod", vassals=True).vassals == (House.ARRYN,)


@pytest.mark.parametrize(
    ("edition", "players", "expansion", "words"),
    [
        ("2e", 6, None, "3-5 players"),
        ("2e", 2, None, "3-5 players"),
        ("2e", 7, "mod", "3-6 players"),
        ("1e", 4, None, "2nd-edition"),
        ("2e", 6, "adwd", "base game or Mother of Dragons"),
    ],
)
def test_v1_refusals(edition: str, players: int, expansion: str | None, words: str) -> None:
    """V1: vassals with 6 players in the base game, 7 in Mother of Dragons, the 1st edition or
    another expansion is refused with one line."""
    with pytest.raises(ValueError, match=words):
        Rules.of(edition, players, VASSALS, expansion)


def test_v3_vassal_supply_power_and_mod_units_from_the_reference() -> None:
    """V3: a vassal starts at supply 4 without power tokens; in Mother of Dragons with the
    scenario's ``starting_units_if_vassal``, in the base game with its own starting units."""
    ref = _reference()["scenarios"]["mother_of_dragons"]["starting_units_if_vassal"]
    mod = load_setup("2e", 3, expansion="mod", vassals=True)
    for house in mod.vassals:
        assert mod.supply[house] == 4 and mod.power[house] == 0 and mod.power_total[house] == 0
        want = {
            area: {Unit.from_id(u): n for u, n in counts.items() if n}
            for area, counts in ref[house.id].items()
        }
        assert {a: dict(c) for a, c in mod.units[house].items()} == want
    for house in set(mod.houses) - set(mod.vassals):
        assert mod.power[house] == 5 and mod.supply[house] != 0
    base = load_setup("2e", 4, vassals=True)
    six = load_setup("2e", 6)
    assert base.units[T] == six.units[T] and base.supply[T] == 4


def test_v4_track_rule() -> None:
    """V4: a vassal in the top three spaces of a starting track sends every vassal of that
    track to its bottom in their order; tracks without one there stay."""
    assert vassal_track((M, B, T, L), (M, T)) == (B, L, M, T)
    assert vassal_track((B, L, S, M, T), (M, T)) == (B, L, S, M, T)
    mod = load_setup("2e", 5, expansion="mod", vassals=True)  # fiefdoms: martell was third
    assert mod.tracks["fiefdoms"][-2:] == (M, House.ARRYN)
    for track in mod.tracks.values():
        assert not set(track[:3]) & set(mod.vassals)


# --- V2: claiming ------------------------------------------------------------------------------


def _case() -> Case:
    return Case(4, variants=VASSALS)


def test_v2_claims_in_iron_throne_order_by_shares() -> None:
    """V2: 2 vassals, 4 players: Baratheon and Lannister (first in Iron Throne order) may
    claim one each; the claimer commands the vassal for the round."""
    c = _case()
    c.place("highgarden tyrell F")
    c.play("baratheon CLAIM_VASSAL tyrell\nlannister CLAIM_VASSAL martell")
    assert c.g.commander[T] == B and c.g.commander[M] == L
    assert c.pending == "tyrell PLACE_ORDER"
    assert vs.deciding_house(c.g, c.t, int(T)) == B


def test_v2_passed_claims_carry_on_and_the_last_player_takes_the_rest() -> None:
    """V2: claims passed on go to the next player; the last player takes what is left."""
    c = _case()
    c.place("highgarden tyrell F")
    c.play("baratheon CLAIM_VASSAL none\nlannister CLAIM_VASSAL none\nstark CLAIM_VASSAL none")
    assert c.g.commander[T] == G and c.g.commander[M] == G
    c = _case()
    c.place("highgarden tyrell F")
    c.play("baratheon CLAIM_VASSAL none\nlannister CLAIM_VASSAL tyrell")
    c.play("lannister CLAIM_VASSAL martell")  # its own claim and Baratheon's
    assert c.g.commander[T] == L and c.g.commander[M] == L


# --- V5, V6: vassal order tokens -----------------------------------------------------------------


def test_v5_vassal_order_tokens() -> None:
    """V5: a vassal has march +0, one raid / support +1 token, one defense +1 / muster token
    and defense +3: no star, no other order; each token once."""
    c = _case()
    c.place("highgarden tyrell F")
    c.place("the_reach tyrell F")
    c.play("baratheon CLAIM_VASSAL tyrell\nlannister CLAIM_VASSAL martell")
    assert c.options() == {
        "march+0",
        "raid",
        "support+1",
        "defense+1",
        "consolidate_power",
        "defense+2",
    }
    c.step("tyrell PLACE_ORDER raid")
    c.expect("tyrell PLACE_ORDER")
    assert c.options() == {"march+0", "defense+1", "consolidate_power", "defense+2"}


def test_v5_the_muster_token_musters() -> None:
    """V5: the defense +1 / muster token placed as a consolidate power order musters in a
    castle area (the choice a star consolidate order has) and brings no power."""
    c = _case()
    c.place("highgarden tyrell F consolidate_power")
    c.g.commander[T] = B
    c.g.commander[M] = L
    c.phase("consolidate")
    c.expect("tyrell CONSOLIDATE_CHOICE")
    assert c.options() == {"power", "muster"}
    c.play("tyrell CONSOLIDATE_CHOICE muster\ntyrell MUSTER footman\ntyrell MUSTER footman")
    assert c.at("highgarden") == "tyrell 3F"  # Highgarden's two mustering points
    assert c.power_of("tyrell") == 0 and c.order_at("highgarden") is None
    c = _case()  # the same token taken as power: nothing mustered, no power either
    c.place("highgarden tyrell F consolidate_power")
    c.g.commander[T] = B
    c.g.commander[M] = L
    c.phase("consolidate")
    c.play("tyrell CONSOLIDATE_CHOICE power")
    assert c.power_of("tyrell") == 0 and c.at("highgarden") == "tyrell F"


def test_v6_defense_three() -> None:
    """V6: a vassal's defense token is worth +3 in the battle (the engine's defense+2 kind)."""
    c = _case()
    c.place("highgarden tyrell F defense+2")
    c.place("the_reach lannister 2K march+0")
    c.g.commander[T] = B
    c.g.commander[M] = L
    c.phase("marches")
    c.step("lannister MARCH_FROM the_reach")
    c.step("lannister MARCH_UNIT K highgarden")
    c.step("lannister MARCH_UNIT K highgarden")
    for _ in range(20):  # (leave no power token; no support around)
        c.advance()
        if c.g.pending == Decision.HOUSE_CARD:
            break
        assert c._answer_auto(None), c.pending
    assert c.g.pending == Decision.HOUSE_CARD
    assert c.g.battle[cb.DEFENDER * cb.SIDE + cb.ORDER_BONUS] == 3


# --- V7-V10: restrictions ------------------------------------------------------------------------


def test_v7_dominance_tokens_go_to_the_best_placed_player() -> None:
    """V7: with a vassal atop the King's Court track the Messenger Raven is the best-placed
    player house's, likewise the Valyrian Steel Blade and the Iron Throne."""
    c = _case()
    c.track("kings_court", "tyrell stark lannister baratheon greyjoy martell")
    c.track("fiefdoms", "martell tyrell greyjoy stark baratheon lannister")
    assert vs.dominance_holder(c.g, c.t, 2) == S
    assert vs.dominance_holder(c.g, c.t, 1) == G
    assert vs.dominance_holder(c.g, c.t, 0) == B
    c.play("baratheon CLAIM_VASSAL tyrell\nlannister CLAIM_VASSAL martell")
    c.phase("raven")
    c.expect("stark RAVEN")


def test_v8_vassals_do_not_bid_against_the_wildlings() -> None:
    """V8: the wildling bidders are the player houses only."""
    c = _case()
    mask = vs.bidders_mask(c.g, c.t)
    assert mask == sum(1 << h for h in (B, L, S, G))


def test_v9_a_vassal_never_wins() -> None:
    """V9: a vassal holding seven castles and strongholds does not win; after the last round
    a player house wins even where a vassal holds the most castles."""
    c = _case()
    south = ("highgarden", "oldtown", "sunspear", "dornish_marches", "starfall", "three_towers")
    for area in (*south, "yronwood", "the_reach", "storms_end", "kings_landing"):
        c.place(f"{area} tyrell F")
    assert castles_held(c.g, c.t, int(T)) >= 7
    mc.check_castle_victory(c.g, c.t)
    assert not c.g.done
    mc.end_after_last_round(c.g, c.t)
    assert c.g.done and int(c.g.winner) in (B, L, S, G)


def test_v10_a_vassal_gains_no_power() -> None:
    """V10: a vassal never holds power tokens (it has none: its power pool is empty)."""
    c = _case()
    assert gain_power(c.g, c.t, int(T), 3) == 0 and c.g.power[T] == 0
    assert gain_power(c.g, c.t, int(B), 1) == 1


# --- V11: the heuristic's command ---------------------------------------------------------------


def test_v11_a_vassal_does_not_march_on_or_raid_its_commander() -> None:
    """V11: the heuristic turns a vassal's march into its commander's area into staying put,
    and a raid on its commander into no raid; support goes to the commander's side."""
    c = _case()
    c.place("highgarden tyrell F")
    c.place("the_reach baratheon F")
    c.g.commander[T] = B
    c.g.commander[M] = L
    g, t = c.g, c.t
    highgarden, reach = c.board.index("highgarden"), c.board.index("the_reach")
    mask = np.zeros(81, np.bool_)
    g.pending, g.pending_house, g.ctx[0] = Decision.MARCH_UNIT, T, highgarden
    assert command_filter(g, t, int(T), reach, mask) == highgarden
    g.pending = Decision.RAID_TARGET
    assert command_filter(g, t, int(T), reach, mask) == 80
    g.pending = Decision.SUPPORT_SIDE
    g.battle[cb.DEFENDER * cb.SIDE + cb.HOUSE] = B
    g.battle[cb.HOUSE] = S
    mask[:3] = True
    assert command_filter(g, t, int(T), 1, mask) == 2
    assert vs.allied(g, t, int(T), int(B)) and not vs.allied(g, t, int(T), int(L))


# --- simulate and the command line -------------------------------------------------------------


def test_simulate_with_vassals_never_names_a_vassal_winner() -> None:
    """``simulate(..., variants={"vassals": True})``: the player count is the player houses;
    the winner is one of them; the ``vassal_houses`` column names the vassals."""
    from gotsim import simulate

    df = simulate(40, players=4, expansion="mod", variants=VASSALS, seed=3)
    assert set(df["vassal_houses"]) == {"tyrell,martell,arryn"}
    assert set(df["winner"].dropna()) <= {"baratheon", "lannister", "stark", "greyjoy"}
    assert (df["players"] == 4).all()


@pytest.mark.parametrize(
    ("kw", "words"),
    [
        ({"players": 6}, "3-5 players"),
        ({"players": 4, "edition": "1e"}, "2nd-edition"),
        ({"players": 4, "policies": {"tyrell": "heuristic"}}, "tyrell is a vassal"),
    ],
)
def test_simulate_refuses_bad_vassal_input(kw: dict, words: str) -> None:
    from gotsim import simulate
    from gotsim.inputs import InputError

    with pytest.raises(InputError, match=words):
        simulate(1, variants=VASSALS, **kw)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["bench", "--variant", "vassals", "--players", "6"], "3-5 players"),
        (["play", "--variant", "vassals", "--edition", "1e", "--players", "4"], "2nd-edition"),
        (["bench", "--variant", "vassals", "--expansion", "mod"], "3-6 players"),
        (["play", "--variant", "vassals", "--expansion", "adwd"], "Mother of Dragons"),
    ],
)
def test_cli_refuses_bad_vassal_input(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bad vassal input on the command line: one line, exit status 2, no traceback."""
    from gotsim.cli import main

    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err


def test_scenario_accepts_vassals_and_refuses_six_players() -> None:
    """Scenarios: ``[variants] vassals = true`` (or a ``[grid]`` axis) with the player count of
    the player houses; a policy for a vassal or 6 players in the base game is refused."""
    from gotsim.study.scenario import ScenarioError, load_scenario

    base = {"name": "v", "seed": 1, "games": 10, "players": 4, "variants": {"vassals": True}}
    cells = load_scenario(base).cells
    assert cells[0].variants["vassals"] and cells[0].players == 4
    mod = {k: v for k, v in base.items() if k != "players"}
    mod = {**mod, "expansion": "mod", "grid": {"players": [3, 6]}}
    assert [c.players for c in load_scenario(mod).cells] == [3, 6]
    with pytest.raises(ScenarioError, match="3-5 players"):
        load_scenario({**base, "players": 6})
    with pytest.raises(ScenarioError, match="tyrell"):
        load_scenario({**base, "policies": {"tyrell": "heuristic"}})


@pytest.mark.parametrize(("players", "expansion"), [(3, None), (5, "mod")])
def test_random_vassal_games_keep_every_invariant_after_every_decision(
    players: int, expansion: str | None
) -> None:
    """A whole random game with vassals through the Python driver: every invariant holds after
    every decision outside a battle, every claim is made by a player house, a vassal's
    decisions are its commander's to take, and the winner is a player house."""
    from gotsim.engine.game import Game
    from gotsim.engine.invariants import violations

    game = Game(players=players, seed=11, variants=VASSALS, expansion=expansion)
    rng = np.random.default_rng(5)
    claims = 0
    while (pending := game.pending) is not None:
        g, t = game.record, game.t
        if pending.kind == Decision.CLAIM_VASSAL:
            claims += 1
            assert not t.vassal[pending.house]
        elif t.vassal[pending.house]:
            boss = vs.deciding_house(g, t, int(pending.house))
            assert boss != pending.house and not t.vassal[boss]
        game.step(int(rng.choice(pending.legal)))
        if game.record.combat_area < 0:
            assert violations(game.record, t) == []
    assert claims > 0 and game.winner is not None and not game.t.vassal[game.winner]


def test_search_policy_searches_a_vassals_decisions_for_its_commander() -> None:
    """V11: a searching commander answers its vassal's decisions legally, by a search of its
    own for the vassal (the vassal's heuristic makes the candidates, the commander's win scores
    them); without the vassals' bit of ``points`` (32) by the heuristic, unsearched."""
    from gotsim.engine.game import Game
    from gotsim.players.search import SearchPolicy

    for points, searching in ((63, True), (31, False)):
        game = Game(players=4, seed=2, variants=VASSALS)
        rng = np.random.default_rng(1)
        search = SearchPolicy({"rollouts": 2, "horizon": 1, "points": points})
        answered = 0
        while (pending := game.pending) is not None and answered < 12:
            if game.t.vassal[pending.house]:
                action = search(game, pending)
                assert action in pending.legal
                answered += 1
            else:
                action = int(rng.choice(pending.legal))
            game.step(action)
        assert answered == 12
        searchers = search._searchers.values()
        assert {s.view for s in searchers} <= {int(h) for h in vassal_players(4)}
        assert (sum(s.searches for s in searchers) > 0) == searching


def test_a_vassals_search_reads_nothing_its_commander_may_not_see() -> None:
    """V11: at every search point of a vassal the commander's choice for it is the same when
    everything the commander may not see is scrambled first; the choices stay within the
    ally rules (a march never into an ally's area); some depart from the heuristic's."""
    from test_search import scrambled_answers

    from gotsim.engine.game import Game
    from gotsim.players import HeuristicPolicy
    from gotsim.players.params import HEURISTIC, defaults_for
    from gotsim.players.search import Searcher, SearchSettings, can_search

    rng = np.random.default_rng(8)
    settings = SearchSettings(rollouts=2, candidates=4, horizon=1)
    game = Game(players=4, seed=7, variants=VASSALS)
    t = game.t
    heuristic = HeuristicPolicy()
    kinds = np.full(6, HEURISTIC, np.int8)
    params = np.array([defaults_for(h) for h in range(6)])
    checked: dict[int, int] = {}
    departures = 0
    while (pending := game.pending) is not None and game.record.game_round <= 6:
        house = int(pending.house)
        boss = int(vs.deciding_house(game.record, t, house))
        if boss != house and can_search(game.record, t) and checked.get(int(pending.kind), 0) < 8:
            answers, searchers = scrambled_answers(
                game,
                house,
                boss,
                lambda h=house, b=boss: Searcher(settings, defaults_for(h).copy(), b),
                rng,
                kinds,
                params,
            )
            departures += sum(v != 0 for s in searchers for _, _, v in s.choices)
            assert answers[0] == answers[1], (pending.kind.name, int(game.record.game_round))
            checked[int(pending.kind)] = checked.get(int(pending.kind), 0) + 1
        game.step(heuristic(game, pending))
    assert checked.get(Decision.PLACE_ORDER, 0) >= 4, checked
    assert checked.get(Decision.MARCH_FROM, 0) >= 4, checked
    assert departures > 0


def test_search_commanders_play_legal_reproducible_vassal_games() -> None:
    """A vassal game with a searching commander: legal, the same whatever ``n_jobs``, and not
    the games of a heuristic commander."""
    import gotsim

    cheap = {"kind": "search", "rollouts": 2, "candidates": 3, "horizon": 1}
    policies = {"greyjoy": cheap, "default": "heuristic"}
    one = gotsim.simulate(2, players=4, policies=policies, seed=5, n_jobs=1, variants=VASSALS)
    two = gotsim.simulate(2, players=4, policies=policies, seed=5, n_jobs=2, variants=VASSALS)
    pd.testing.assert_frame_equal(one, two)
    plain = gotsim.simulate(2, players=4, policies="heuristic", seed=5, variants=VASSALS)
    assert one.winner.notna().all() and not one.equals(plain)


def test_standings_put_the_vassals_last_and_say_so() -> None:
    """V9: a vassal is ranked last: ``gotsim play``'s standings list the player houses first
    (the winner on top), then the vassals, each marked."""
    from gotsim.cli.commands import _standings_text, standings
    from gotsim.engine.game import Game
    from gotsim.players import HeuristicPolicy

    game = Game(players=4, seed=5, variants={"vassals": True})
    policy = HeuristicPolicy()
    while game.pending is not None:
        game.step(policy(game, game.pending))
    rows = standings(game)
    assert [r["vassal"] for r in rows] == [False] * 4 + [True] * 2
    assert {r["house"] for r in rows if r["vassal"]} == {"tyrell", "martell"}
    assert rows[0]["winner"]
    text = _standings_text(game).splitlines()
    assert text[-1].endswith("(vassal)") and text[-2].endswith("(vassal)")
    assert not text[-3].endswith("(vassal)")


# --- V21: Mother of Dragons' 8-house board (Targaryen a player) -------------------------------

EIGHT = {"vassals": True, "eight_houses": True}
TG, AR = House.TARGARYEN, House.ARRYN


@pytest.mark.parametrize(
    ("players", "vassals"),
    [(4, (G, T, M, AR)), (5, (T, M, AR)), (6, (M, AR)), (7, (AR,))],
)
def test_v21_the_eight_house_board_with_targaryen_a_player(
    players: int, vassals: tuple[House, ...]
) -> None:
    """V21: ``eight_houses`` puts the vassal game on the 8-house board: Targaryen and the base
    setup's houses for one player fewer play, the other houses are vassals (supply 4, no power,
    their ``starting_units_if_vassal``); Targaryen stays last on every track; the 8-player
    game's loyalty token, dragons and loyalty victory come with it."""
    setup = load_setup("2e", players, expansion="mod", vassals=True, eight_houses=True)
    assert setup.board == "mod8" and setup.players == 8 and len(setup.houses) == 8
    assert setup.vassals == vassals and TG not in setup.vassals
    assert (*vassal_players(players - 1), TG) == tuple(
        h for h in setup.houses if h not in setup.vassals
    )
    for track in setup.tracks.values():
        assert track[-1] == TG and not set(track[:3]) & set(setup.vassals)
    ref = _reference()["scenarios"]["mother_of_dragons"]["starting_units_if_vassal"]
    for house in vassals:
        assert setup.supply[house] == 4 and setup.power[house] == 0
        want = {
            area: {Unit.from_id(u): n for u, n in counts.items() if n}
            for area, counts in ref[house.id].items()
        }
        assert {a: dict(c) for a, c in setup.units[house].items()} == want
    assert setup.power[TG] == 5 and setup.units[TG]["norvos"] == {Unit.DRAGON: 1}
    assert dict(setup.loyalty) == {"kings_landing": 1} and setup.loyalty_to_win == 7
    rules = Rules.of("2e", players, EIGHT, "mod")
    assert rules.board == "mod8" and rules.board_houses == 8


@pytest.mark.parametrize(
    ("players", "variants", "expansion", "words"),
    [
        (3, EIGHT, "mod", "4-7 players"),
        (8, EIGHT, "mod", "4-7 players"),
        (8, {"eight_houses": True}, "mod", "a vassals option"),
        (4, EIGHT, None, "expansion mod"),
    ],
)
def test_v21_refusals(players: int, variants: dict, expansion: str | None, words: str) -> None:
    """V21: 3 or 8 players, ``eight_houses`` without vassals or outside Mother of Dragons are
    refused with one line; so are they by ``simulate``."""
    from gotsim import simulate
    from gotsim.inputs import InputError

    with pytest.raises(ValueError, match=words):
        Rules.of("2e", players, variants, expansion)
    with pytest.raises(InputError, match=words):
        simulate(1, players=players, variants=variants, expansion=expansion)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["bench", "--variant", "vassals", "--variant", "eight_houses", "--expansion", "mod",
          "--players", "8"], "4-7 players"),
        (["play", "--variant", "eight_houses", "--expansion", "mod", "--players", "8"],
         "a vassals option"),
    ],
)  # fmt: skip
def test_v21_cli_refusals(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    from gotsim.cli import main

    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0], err


@pytest.mark.parametrize(("players", "seed"), [(4, 3), (7, 5)])
def test_v21_random_games_keep_every_invariant_and_commanders_answer_deck_iv(
    players: int, seed: int
) -> None:
    """V21: whole random 8-house vassal games: every invariant after every decision outside a
    battle (Targaryen last, loyalty tokens counted, vassals without power), Targaryen is never
    claimed, a vassal's decisions (deck IV's loyalty token moves too) are its commander's, and
    the winner is a player house."""
    from gotsim.engine.game import Game
    from gotsim.engine.invariants import violations

    game = Game(players=players, seed=seed, variants=EIGHT, expansion="mod")
    rng = np.random.default_rng(seed)
    claims = 0
    while (pending := game.pending) is not None:
        g, t = game.record, game.t
        assert not t.vassal[TG]
        if pending.kind == Decision.CLAIM_VASSAL:
            claims += 1
            assert not t.vassal[pending.house]
            assert not any(int(a) == TG for a in pending.legal)
        elif t.vassal[pending.house]:
            boss = vs.deciding_house(g, t, int(pending.house))
            assert boss != pending.house and not t.vassal[boss]
        game.step(int(rng.choice(pending.legal)))
        if game.record.combat_area < 0:
            assert violations(game.record, t) == []
    g = game.record
    assert claims > 0 and game.winner is not None and not game.t.vassal[game.winner]
    assert g.deck4_next >= 1 or g.game_round <= 2
    assert int(g.loyalty.sum()) + int(g.loyalty_taken) == int(g.loyalty_placed) >= 1


def test_v21_vassals_move_loyalty_tokens_by_their_commanders_policy() -> None:
    """V21: Scattering Dissent asks every house, vassals too, to move a loyalty token; a
    vassal's move is its commander's decision."""
    from gotsim.engine.game import Game
    from gotsim.engine.westeros.deck4 import Deck4Card

    game = Game(players=4, seed=7, variants=EIGHT, expansion="mod")
    g = game.record
    order = [int(Deck4Card.SCATTERING_DISSENT)]
    g.deck4[:] = order + [c for c in range(10) if c not in order]
    rng = np.random.default_rng(2)
    asked: set[int] = set()
    while game.pending is not None and g.deck4_next <= 1 and g.game_round <= 2:
        pending = game.pending
        if pending.kind == Decision.LOYALTY and game.t.vassal[pending.house]:
            boss = vs.deciding_house(g, game.t, int(pending.house))
            assert not game.t.vassal[boss]
            asked.add(int(pending.house))
        game.step(int(rng.choice(pending.legal)))
        g = game.record
    assert asked, "no vassal was asked to move a loyalty token"


def test_v21_simulate_and_its_columns() -> None:
    """V21 through ``simulate``: the vassals named, a player house (Targaryen included) wins."""
    from gotsim import simulate

    df = simulate(30, players=5, expansion="mod", variants=EIGHT, seed=4)
    assert set(df["vassal_houses"]) == {"tyrell,martell,arryn"}
    players = {"baratheon", "lannister", "stark", "greyjoy", "targaryen"}
    assert set(df["winner"].dropna()) <= players
