"""Positions of Mother of Dragons' 8-player game (loyalty tokens, Targaryen's taken tokens, the
dragon strength moved early, Westeros deck IV drawn so far) and of the Iron Bank's improvements:
written, read back, checked, resumed and read back from engine records; and the board pictures
that draw them (``docs/positions.md``, ``docs/rules.md`` M16-M17)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.colors import to_hex
from positioncase import differ_when_played_out, phase_starts, resumed_copy

from gotsim.analysis.board_plot import draw_board, draw_position, draw_setup
from gotsim.cli import main
from gotsim.engine.convert import (
    position_from_record,
    position_spec,
    record_from_position,
)
from gotsim.engine.init import new_games
from gotsim.engine.invariants import violations
from gotsim.engine.position import (
    PositionError,
    RoundPhase,
    dump_position,
    load_position,
    starting_position,
)
from gotsim.engine.position.model import deck_iv_cards
from gotsim.engine.state import Phase
from gotsim.engine.tables import rules_table
from gotsim.rules.board import load_board
from gotsim.rules.ids import Unit
from gotsim.rules.setup import load_setup

BOARD8 = load_board("2e", board="mod8")
RULES8 = rules_table("2e", 8, expansion="mod")  # (with the Iron Bank, on at 8 players: IB1)


def start8() -> dict[str, Any]:
    return dump_position(starting_position("2e", 8, expansion="mod"))


def round3(**changes: Any) -> dict[str, Any]:
    """A hand-made round-3 planning position of the 8-player game: loyalty tokens on three
    areas, 3 taken, one dragon strength token moved early, two deck IV cards drawn."""
    spec = start8()
    spec["round"] = 3
    spec["areas"]["pentos"]["loyalty"] = 0  # (Targaryen takes tokens where it stands)
    spec["areas"]["harrenhal"] = {"loyalty": 2}
    spec["areas"]["storms_end"] = {"loyalty": 1}
    spec["loyalty_taken"] = 3
    spec["dragon_boost"] = 1
    spec["westeros_deck_iv"] = ["fire_made_flesh", "the_long_plan"]
    # the Iron Bank's slots (the start leaves them to be dealt; by round 3 they are fixed)
    spec["iron_bank"] = {"slots": ["spymaster", None, "customs_officer"], "loans": {}}
    spec.update(changes)
    return spec


# --- written and read back ---------------------------------------------------------------------


def test_the_eight_player_start_carries_its_loyalty_token_and_an_empty_deck_iv() -> None:
    spec = start8()
    assert spec["areas"]["kings_landing"] == {"neutral_force": 5, "loyalty": 1}
    assert spec["loyalty_taken"] == 0 and spec["dragon_boost"] == 0
    assert spec["westeros_deck_iv"] == []
    assert spec["areas"]["the_rhoyne"] == {"house": "targaryen", "units": {"dragon": 2}}
    p = load_position(spec)
    assert dict(p.loyalty) == {"kings_landing": 1} and p.loyalty_placed == 1
    assert p.units["norvos"] == {Unit.DRAGON: 1}
    assert load_position(p.to_json()) == p


def test_a_mid_game_position_round_trips_with_every_mother_of_dragons_fact() -> None:
    spec = round3()
    spec["areas"]["storms_end"]["crown_bonus"] = 1
    spec["areas"]["seagard"] = {"barrel_bonus": 2, "castle_delta": -1}
    spec["areas"]["myr"]["castle_delta"] = 1
    p = load_position(spec)
    assert dict(p.loyalty) == {"kings_landing": 1, "harrenhal": 2, "storms_end": 1}
    assert (p.loyalty_taken, p.loyalty_placed, p.dragon_boost) == (3, 7, 1)
    assert p.deck_iv == ("fire_made_flesh", "the_long_plan")
    assert p.deck_iv_this_round == "the_long_plan"
    assert dict(p.crown_bonus) == {"storms_end": 1}
    assert dict(p.barrel_bonus) == {"seagard": 2}
    assert dict(p.castle_delta) == {"seagard": -1, "myr": 1}
    again = load_position(p.to_json())
    assert again == p
    written = json.loads(p.to_json())
    assert "loyalty" not in written["areas"]["pentos"]  # zero counts are dropped
    assert written["areas"]["seagard"] == {"barrel_bonus": 2, "castle_delta": -1}
    assert "loyalty_placed" not in written  # derived: on the board and taken


def test_the_westeros_phase_has_not_drawn_this_rounds_card() -> None:
    p = load_position(round3(phase="westeros", westeros_deck_iv=["fire_made_flesh"]))
    assert p.deck_iv_this_round is None
    assert load_position(start8()).deck_iv_this_round is None


def test_other_games_write_nothing_new() -> None:
    for p in (starting_position("2e", 6), starting_position("2e", 7, expansion="mod")):
        spec = dump_position(p)
        assert not {"loyalty_taken", "dragon_boost", "westeros_deck_iv", "iron_bank"} & set(spec)
        assert not any(
            {"loyalty", "crown_bonus", "barrel_bonus", "castle_delta"} & set(r)
            for r in spec["areas"].values()
        )


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(spec: dict[str, Any]) -> None:
        *where, key = path.split(".")
        target = spec
        for part in where:
            target = target.setdefault(part, {})
        target[key] = value

    return change


BAD: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_set("areas.harrenhal.loyalty", 21), "areas.harrenhal.loyalty: must be a whole number"),
    (_set("areas.bay_of_pentos.loyalty", 1), "loyalty tokens lie on land areas only"),
    (_set("areas.port_of_pentos.loyalty", 1), "loyalty tokens lie on land areas only"),
    (
        lambda s: s["areas"].update({a: {"loyalty": 6} for a in ("the_reach", "karhold", "pyke")}),
        "areas: 22 loyalty tokens on the board, at most 20",
    ),
    (_set("loyalty_taken", -1), "loyalty_taken: must be a whole number"),
    (_set("loyalty_placed", 6), "loyalty_placed: 6, but 4 on the board and 3 taken make 7"),
    (_set("dragon_boost", 6), "dragon_boost: must be a whole number from 0 to 5"),
    (_set("westeros_deck_iv", ["fire_made_flesh"]), "2 deck IV cards are drawn by now"),
    (_set("westeros_deck_iv", "fire_made_flesh"), "must be the list of deck IV card ids"),
    (
        _set("westeros_deck_iv", ["fire_made_flesh", "fire_made_flesh"]),
        "westeros_deck_iv[1]: fire_made_flesh is drawn once",
    ),
    (
        _set("westeros_deck_iv", ["fire_made_flesh", "the_long_pan"]),
        "unknown deck IV card 'the_long_pan' (did you mean 'the_long_plan'?)",
    ),
    (_set("areas.myr.crown_bonus", 10), "areas.myr.crown_bonus: must be a whole number"),
    (_set("areas.myr.barrel_bonus", -1), "areas.myr.barrel_bonus: must be a whole number"),
    (_set("areas.bay_of_pentos.crown_bonus", 1), "improvements stand on land areas only"),
    (_set("areas.pentos.castle_delta", 1), "castle level 2 changed by +1 is outside 0-2"),
    (_set("areas.the_reach.castle_delta", -2), "castle level 1 changed by -2 is outside 0-2"),
    (_set("areas.harrenhal.loyalty_tokens", 1), "areas.harrenhal.loyalty_tokens: unknown"),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_bad_values_are_one_clear_line(change: Callable[..., None], message: str) -> None:
    spec = round3()
    change(spec)
    with pytest.raises(PositionError) as caught:
        load_position(spec)
    text = str(caught.value)
    assert message in text and "\n" not in text, text


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            lambda: _with(dump_position(starting_position("2e", 6)), "areas.winterfell.loyalty", 1),
            "areas.winterfell.loyalty: loyalty tokens come with Mother of Dragons' 8-player game",
        ),
        (
            lambda: _with(
                dump_position(starting_position("2e", 7, expansion="mod")), "loyalty_taken", 1
            ),
            "loyalty_taken: only Mother of Dragons' 8-player game has it (Targaryen)",
        ),
        (
            lambda: _with(
                dump_position(starting_position("2e", 6)), "areas.winterfell.crown_bonus", 1
            ),
            "areas.winterfell.crown_bonus: improvements come with the Iron Bank's loans",
        ),
    ],
)
def test_targaryen_absent_refuses_its_fields(spec: Callable[[], dict], message: str) -> None:
    with pytest.raises(PositionError) as caught:
        load_position(spec())
    assert str(caught.value).startswith(message)


def _with(spec: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    _set(path, value)(spec)
    return spec


def test_improvements_in_a_seven_player_game() -> None:
    spec = dump_position(starting_position("2e", 7, expansion="mod"))
    spec["areas"]["harrenhal"] = {"crown_bonus": 2, "castle_delta": 1}
    p = load_position(spec)
    assert dict(p.crown_bonus) == {"harrenhal": 2} and dict(p.castle_delta) == {"harrenhal": 1}
    assert load_position(p.to_json()) == p


def test_the_command_line_refuses_a_bad_position(tmp_path: Path, capsys: Any) -> None:
    spec = round3()
    spec["areas"]["the_golden_sound"]["loyalty"] = 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(spec))
    with pytest.raises(SystemExit) as caught:
        main(["board", "--position", str(path), "--out", str(tmp_path / "x.png")])
    assert caught.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"gotsim: error: {path}: areas.the_golden_sound.loyalty: loyalty tokens lie on land "
        "areas only"
    ]
    good = tmp_path / "good.json"
    good.write_text(json.dumps(round3()))
    out = tmp_path / "good.png"
    assert main(["board", "--position", str(good), "--out", str(out), "--dpi", "20"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


# --- positions and engine records ---------------------------------------------------------------


def test_a_position_resumes_with_its_loyalty_tokens_deck_iv_and_improvements() -> None:
    spec = round3()
    spec["areas"]["storms_end"]["crown_bonus"] = 1
    spec["areas"]["seagard"] = {"barrel_bonus": 1, "castle_delta": -1}
    p = load_position(spec)
    g = record_from_position(p, seed=4)[0]
    kl, harrenhal = BOARD8.index("kings_landing"), BOARD8.index("harrenhal")
    assert (g.loyalty[kl], g.loyalty[harrenhal]) == (1, 2)
    assert (g.loyalty_taken, g.loyalty_placed, g.dragon_boost) == (3, 7, 1)
    ids = deck_iv_cards()
    assert [ids[c] for c in g.deck4[:2]] == ["fire_made_flesh", "the_long_plan"]
    assert sorted(g.deck4) == list(range(10)) and g.deck4_next == 2
    assert ids[g.deck4_drawn] == "the_long_plan"
    assert g.crown_bonus[BOARD8.index("storms_end")] == 1
    assert g.barrel_bonus[BOARD8.index("seagard")] == 1
    assert g.castle_delta[BOARD8.index("seagard")] == -1
    assert int(np.abs(g.crown_bonus).sum() + np.abs(g.barrel_bonus).sum()) == 2
    assert g.improved == 1  # (the readers look at them)
    assert position_from_record(record_from_position(p, seed=9), RULES8) == p
    # the undrawn cards keep the order new_games shuffled them in
    fresh = new_games([np.random.SeedSequence(4, spawn_key=(0,))], players=8, expansion="mod")
    assert [c for c in fresh[0].deck4 if c not in g.deck4[:2]] == list(g.deck4[2:])


def boundaries8(seed: int) -> Iterator[np.recarray]:
    """A random 8-player game, a copy of the record at each phase start (``phase_starts``)."""
    games = new_games([np.random.SeedSequence(seed, spawn_key=(0,))], players=8, expansion="mod")
    return phase_starts(games, RULES8[0])


@pytest.mark.parametrize("seed", [1, 2])
def test_eight_player_records_round_trip_at_every_phase_boundary(seed: int) -> None:
    """At each phase start of a random 8-player game: the record's position reads back the
    record's loyalty tokens, taken and placed tokens, dragon boost and deck IV; position →
    record → position is the identity; and the game resumed from the position (hidden decks
    and streams copied over) plays out exactly like the original."""
    t = RULES8[0]
    ids = deck_iv_cards()
    seen_tokens = seen_deck = 0
    for games in boundaries8(seed):
        g = games[0]
        where = f"round {int(g.game_round)}, {Phase(int(g.phase)).name}"
        p = position_from_record(games, RULES8)
        on_board = {BOARD8.area_ids[a]: int(n) for a, n in enumerate(g.loyalty) if n}
        assert dict(p.loyalty) == on_board, where
        assert (p.loyalty_taken, p.loyalty_placed) == (g.loyalty_taken, g.loyalty_placed)
        assert p.dragon_boost == g.dragon_boost
        assert list(p.deck_iv) == [ids[c] for c in g.deck4[: g.deck4_next]], where
        if p.phase != RoundPhase.WESTEROS and p.round > 1 and not g.done:
            assert p.deck_iv_this_round == ids[g.deck4_drawn], where
        seen_tokens += len(on_board) > 1
        seen_deck += len(p.deck_iv) > 2
        assert position_from_record(record_from_position(p, seed=5), RULES8) == p, where
        if g.done:
            continue
        again = resumed_copy(games, p)
        differ = differ_when_played_out(games.copy(), again, t)
        assert differ == [], f"{where}: resumed game differs in {differ}"
        assert violations(again[0], t) == []
    assert seen_tokens and seen_deck


def test_a_record_spec_states_placed_tokens_for_the_loader_to_check() -> None:
    games = new_games([np.random.SeedSequence(3, spawn_key=(0,))], players=8, expansion="mod")
    spec = position_spec(games, RULES8)
    assert spec["loyalty_placed"] == 1 and spec["westeros_deck_iv"] == []
    games[0].loyalty_placed = 2  # a record breaking the invariant is refused, not hidden
    with pytest.raises(PositionError, match="loyalty_placed: 2, but 1 on the board"):
        position_from_record(games, RULES8)


# --- pictures ----------------------------------------------------------------------------------


def _texts(fig: Any) -> list[str]:
    ax = fig.axes[0]
    return [t.get_text() for t in ax.texts]


def _legend(fig: Any) -> list[str]:
    return [t.get_text() for t in fig.legends[0].get_texts()]


def test_the_picture_draws_loyalty_dragons_and_improvements() -> None:
    spec = round3()
    spec["areas"]["storms_end"]["crown_bonus"] = 1
    p = load_position(spec)
    fig = draw_position(p)
    texts = _texts(fig)
    legend = _legend(fig)
    assert "dragons (count)" in legend
    assert "loyalty tokens (count)" in legend
    assert "Iron Bank improvement" in legend
    # the dragons' counts (The Rhoyne 2, Norvos 1) stand apart from the unit letters
    assert "2" in texts and "1" in texts
    assert not any(t.endswith("D") for t in texts)  # no "2D" unit box
    assert "1F 1K" in texts  # Pentos's other units keep their box
    assert p.name == "" and fig.axes[0].get_title().endswith("round 3, planning")


def test_the_starting_picture_shows_king_landings_loyalty_token() -> None:
    setup = load_setup("2e", 8, expansion="mod")
    legend = _legend(draw_setup(setup))
    assert "loyalty tokens (count)" in legend and "dragons (count)" in legend
    base = _legend(draw_setup(load_setup("2e", 6)))
    assert not {"loyalty tokens (count)", "dragons (count)", "Iron Bank improvement"} & set(base)


def test_improvement_marks_are_green_edged() -> None:
    board = load_board("2e", board="mod7")
    plain = draw_board(board)
    improved = draw_board(board, improvements={"harrenhal": (1, 1, 1)})
    green = "#12a150"

    def green_marks(fig: Any) -> int:
        return sum(1 for line in fig.axes[0].lines if to_hex(line.get_markeredgecolor()) == green)

    assert green_marks(plain) == 0
    assert green_marks(improved) == 3  # the crown, the barrel, the stronghold's mark


def test_the_game_picture_reads_the_records_loyalty_tokens() -> None:
    from gotsim.analysis.board_plot import draw_record
    from gotsim.engine.game import Game

    game = Game(players=8, seed=2, expansion="mod")
    game.record.loyalty[BOARD8.index("harrenhal")] = 3
    game.record.crown_bonus[BOARD8.index("harrenhal")] = 1
    fig = draw_record(game)
    assert "3" in _texts(fig) and "Iron Bank improvement" in _legend(fig)
    assert "loyalty tokens (count)" in _legend(fig)
