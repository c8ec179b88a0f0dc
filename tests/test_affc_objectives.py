"""A casebook of the A Feast for Crows objectives: each card's condition met and not met, on the
2nd-edition board, by the compiled evaluator (``gotsim.engine.objectives``; ``docs/rules.md``
F1). Baratheon, Lannister and Stark stand in for any house (Arryn joins with its house)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from enginecase import Case

from gotsim.engine.objectives import objective_met, special_objective_met
from gotsim.engine.state import H
from gotsim.rules.ids import House
from gotsim.rules.objectives import Objective, objectives, special_objectives

Obj = Objective
BARATHEON, LANNISTER, STARK = int(House.BARATHEON), int(House.LANNISTER), int(House.STARK)
REFERENCE = Path(__file__).parents[2] / "shared" / "reference" / "agot2e" / "expansions.json"


def board(text: str = "", players: int = 4) -> Case:
    """An emptied 4-player board (Baratheon, Lannister, Stark, Greyjoy) with ``text`` placed."""
    c = Case(players)
    return c.place(text) if text.strip() else c


def met(c: Case, house: int, objective: Objective, vp=None) -> bool:
    points = np.zeros(H, np.int64) if vp is None else np.asarray(vp, np.int64)
    return bool(objective_met(c.g, c.t, house, int(objective), points))


def test_objective_cards_match_the_data() -> None:
    cards = objectives()
    assert len(cards) == 28 and [c.objective for c in cards] == list(Objective)
    storm = {"arryn": 1, "baratheon": 0, "lannister": 1, "stark": 3}
    assert cards[Obj.STOP_THE_STORM].points == storm
    assert {h: s.points for h, s in special_objectives().items()} == {
        "arryn": 1,
        "baratheon": 1,
        "lannister": 1,
        "stark": 1,
    }
    if REFERENCE.exists():
        reference = json.loads(REFERENCE.read_text())["scenarios"]["a_feast_for_crows"]
        assert [r["id"] for r in reference["objectives"]] == [o.id for o in Objective]
        assert [dict(c.points) for c in cards] == [
            r["victory_points"] for r in reference["objectives"]
        ]


@pytest.mark.parametrize(
    ("objective", "area"),
    [
        (Obj.STOP_THE_STORM, "storms_end"),
        (Obj.ARBOR_GOLD, "the_arbor"),
        (Obj.TAKE_THE_BLACK, "castle_black"),
        (Obj.HOLD_COURT, "kings_landing"),
        (Obj.A_MOUNTAINOUS_TASK, "the_eyrie"),
        (Obj.A_RIPER_FRUIT, "winterfell"),
    ],
)
def test_control_one_area(objective: Objective, area: str) -> None:
    """Units or a power token in the area meet it; another house's units there do not."""
    c = board(f"{area} lannister F")
    c.g.neutral[c.board.index(area)] = 0
    assert met(c, LANNISTER, objective)
    c.place(f"{area} baratheon F")
    assert not met(c, LANNISTER, objective)
    c.g.owner[c.board.index(area)] = -1
    c.g.units[c.board.index(area)] = 0
    c.token(area, "lannister")
    assert met(c, LANNISTER, objective)  # (in Winterfell: taken, and left with a token)


def test_cavalry_charge_every_knight_on_the_board() -> None:
    c = board("riverrun lannister 3K\nharrenhal lannister K")
    assert not met(c, LANNISTER, Obj.CAVALRY_CHARGE)
    c.place("blackwater lannister K F")
    assert met(c, LANNISTER, Obj.CAVALRY_CHARGE)


def test_backdoor_politics_every_other_house_ahead() -> None:
    c = board()
    vp = np.zeros(H, np.int64)
    vp[[BARATHEON, STARK, int(House.GREYJOY)]] = 2
    vp[LANNISTER] = 1
    assert met(c, LANNISTER, Obj.BACKDOOR_POLITICS, vp)
    vp[STARK] = 1
    assert not met(c, LANNISTER, Obj.BACKDOOR_POLITICS, vp)  # a tie is not "ahead"


def test_home_invasion_another_houses_home() -> None:
    c = board("lannisport lannister F")
    assert not met(c, LANNISTER, Obj.HOME_INVASION)  # its own home
    c.place("dragonstone lannister F")
    assert met(c, LANNISTER, Obj.HOME_INVASION)


def test_land_grab_strictly_the_most_land() -> None:
    """Home areas count for their houses (held by the home marker): each house starts at 1."""
    c = board("riverrun lannister F")
    assert met(c, LANNISTER, Obj.LAND_GRAB)
    c.place("moat_cailin stark F")
    assert not met(c, LANNISTER, Obj.LAND_GRAB)


def test_extend_your_reach_and_naval_superiority() -> None:
    """Sea areas (ports do not count) and ships on the board, strictly the most."""
    c = board("""
        the_golden_sound  lannister 2S
        port_of_lannisport lannister S
        bay_of_ice        stark S
    """)
    assert not met(c, LANNISTER, Obj.EXTEND_YOUR_REACH)  # one sea each
    assert met(c, LANNISTER, Obj.NAVAL_SUPERIORITY)  # 3 ships against 1
    c.place("sunset_sea lannister S")
    assert met(c, LANNISTER, Obj.EXTEND_YOUR_REACH)
    c.place("shipbreaker_bay baratheon 4S")
    assert not met(c, LANNISTER, Obj.NAVAL_SUPERIORITY)  # 4 against 4


def test_track_tokens() -> None:
    c = board()
    c.track("iron_throne", "lannister baratheon stark greyjoy")
    c.track("fiefdoms", "stark lannister baratheon greyjoy")
    c.track("kings_court", "baratheon lannister stark greyjoy")
    assert met(c, LANNISTER, Obj.THE_THRONE) and not met(c, STARK, Obj.THE_THRONE)
    assert met(c, STARK, Obj.THE_BLADE) and not met(c, LANNISTER, Obj.THE_BLADE)
    assert met(c, BARATHEON, Obj.THE_RAVEN) and not met(c, LANNISTER, Obj.THE_RAVEN)


def test_support_the_crown() -> None:
    c = board("crackclaw_point stark 2F K")
    c.g.neutral[c.board.index("kings_landing")] = 0
    assert met(c, STARK, Obj.SUPPORT_THE_CROWN)
    c.place("kings_landing stark F")
    assert not met(c, STARK, Obj.SUPPORT_THE_CROWN)
    c.place("kings_landing baratheon F\ncrackclaw_point stark 2F")
    assert not met(c, STARK, Obj.SUPPORT_THE_CROWN)  # two units, not three


def test_crossing_guard_either_bridge() -> None:
    c = board("the_twins stark F")
    assert not met(c, STARK, Obj.CROSSING_GUARD)
    c.place("seagard stark F")
    assert met(c, STARK, Obj.CROSSING_GUARD)
    c2 = board("the_mountains_of_the_moon baratheon F\ncrackclaw_point baratheon F")
    assert met(c2, BARATHEON, Obj.CROSSING_GUARD)
    assert not met(c2, BARATHEON, Obj.PULL_THE_WEEDS)


@pytest.mark.parametrize(
    ("objective", "areas"),
    [
        (Obj.PULL_THE_WEEDS, ("searoad_marches", "blackwater", "the_reach")),
        (Obj.A_FIRM_GRIP, ("crackclaw_point", "kingswood")),
        (Obj.PROTECT_THE_NECK, ("seagard", "greywater_watch", "flints_finger")),
    ],
)
def test_control_every_area_named(objective: Objective, areas: tuple[str, ...]) -> None:
    c = board("\n".join(f"{a} baratheon F" for a in areas[:-1]))
    assert not met(c, BARATHEON, objective)
    c.token(areas[-1], "baratheon")
    assert met(c, BARATHEON, objective)


def test_ample_harvest_supply_five_or_six() -> None:
    c = board().supply(lannister=4)
    assert not met(c, LANNISTER, Obj.AMPLE_HARVEST)
    c.supply(lannister=5)
    assert met(c, LANNISTER, Obj.AMPLE_HARVEST)


def test_mercantile_ventures_most_ports() -> None:
    c = board("""
        port_of_lannisport lannister S
        port_of_winterfell stark S
    """)
    assert not met(c, LANNISTER, Obj.MERCANTILE_VENTURES)  # one port each
    a = c.board.index("port_of_winterfell")
    c.g.owner[a] = -1
    c.g.units[a] = 0
    assert met(c, LANNISTER, Obj.MERCANTILE_VENTURES)


def test_strongholds_castles_and_power_tokens_on_the_board() -> None:
    """A Stalwart Position counts strongholds, Friendly Confines castles that are not
    strongholds (home areas count for their houses), Spreading the Wealth tokens."""
    c = board("riverrun lannister F")  # a stronghold: Lannisport and Riverrun against 1 each
    assert met(c, LANNISTER, Obj.A_STALWART_POSITION)
    assert not met(c, LANNISTER, Obj.FRIENDLY_CONFINES)  # no castle for anyone
    c.place("moat_cailin stark F")
    assert met(c, STARK, Obj.FRIENDLY_CONFINES)
    c.place("harrenhal lannister F")
    assert not met(c, STARK, Obj.FRIENDLY_CONFINES)  # one castle each
    c.token("blackwater", "lannister")
    assert met(c, LANNISTER, Obj.SPREADING_THE_WEALTH)
    c.token("karhold", "stark")
    assert not met(c, LANNISTER, Obj.SPREADING_THE_WEALTH)


def test_nothing_but_ghosts() -> None:
    c = board("harrenhal lannister F")
    assert met(c, LANNISTER, Obj.NOTHING_BUT_GHOSTS)
    c.place("stoney_sept baratheon F")
    assert met(c, LANNISTER, Obj.NOTHING_BUT_GHOSTS)  # other houses' units next to it are fine
    c.place("riverrun lannister F")
    assert not met(c, LANNISTER, Obj.NOTHING_BUT_GHOSTS)
    c2 = board("harrenhal lannister 2F")
    assert not met(c2, LANNISTER, Obj.NOTHING_BUT_GHOSTS)


def test_the_final_hour_one_card_in_hand() -> None:
    c = board()
    c.hand("stark", "eddard_stark", "robb_stark")
    assert not met(c, STARK, Obj.THE_FINAL_HOUR)
    c.hand("stark", "eddard_stark")
    assert met(c, STARK, Obj.THE_FINAL_HOUR)


def test_the_peoples_chosen_four_crown_areas() -> None:
    """Winterfell (Stark's home), Karhold and Castle Black show crowns: 3; The Twins makes 4."""
    crowns = {a for i, a in enumerate(Case(4).board.area_ids) if Case(4).board.crowns[i] > 0}
    assert {"winterfell", "karhold", "castle_black", "the_twins"} <= crowns
    c = board("karhold stark F\ncastle_black stark F")
    assert not met(c, STARK, Obj.THE_PEOPLES_CHOSEN)
    c.place("the_twins stark F")
    assert met(c, STARK, Obj.THE_PEOPLES_CHOSEN)


def test_special_objectives() -> None:
    c = board("kings_landing baratheon F")
    c.g.neutral[c.board.index("kings_landing")] = 0
    assert special_objective_met(c.g, c.t, BARATHEON)  # with Dragonstone, its home
    assert not special_objective_met(c.g, c.t, LANNISTER)
    c.place("kings_landing lannister F")
    assert special_objective_met(c.g, c.t, LANNISTER)
    c.place("seagard stark F\nmoat_cailin stark F\nwhite_harbor stark F")
    assert not special_objective_met(c.g, c.t, STARK)  # Winterfell and 3 more: 4
    c.place("riverrun stark F")
    assert special_objective_met(c.g, c.t, STARK)
    assert not special_objective_met(c.g, c.t, int(House.GREYJOY))  # none in A Feast for Crows


def test_arryn_special_objective_the_eyrie_and_the_most_power() -> None:
    """Arryn (put in play on this board by hand) holds The Eyrie with more power tokens in hand
    than every other house; a tie is not more."""
    arryn = int(House.ARRYN)
    c = board("the_eyrie arryn K")
    c.g.neutral[c.board.index("the_eyrie")] = 0
    c.g.in_play[arryn] = 1
    c.power(arryn=6, baratheon=5, lannister=5, stark=5, greyjoy=5)
    assert special_objective_met(c.g, c.t, arryn)
    c.power(stark=6)
    assert not special_objective_met(c.g, c.t, arryn)
