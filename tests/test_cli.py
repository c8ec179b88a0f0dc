"""The gotsim command: board picture, card list and combat odds output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gotsim.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "battles"


def test_board_writes_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["board", "--edition", "2e", "--players", "6", "--out", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "6 players" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["board", "--players", "7"], "7 players"),
        (["board", "--players", "six"], "whole number"),
        (["board", "--edition", "3e"], "invalid choice"),
        (["board", "--out", "board.jpg"], "PNG"),
        (["board", "--out", "no/such/folder/board.png"], "does not exist"),
        (["board", "--edition", "1e", "--players", "6"], "6 players"),
        (["board", "--variant", "ports"], "--variant ports: a 1st-edition option"),
        # Mother of Dragons: 7 or 8 players
        (["board", "--expansion", "mod", "--players", "6"], "played by 7 or 8 players, not 6"),
        (["board", "--expansion", "mod", "--players", "9"], "played by 7 or 8 players, not 9"),
        (["board", "--expansion", "mod", "--players", "7", "--edition", "1e"], "2nd-edition"),
        (["board", "--expansion", "mod", "--players", "8", "--kings-court-swap"], "base-game"),
        (["board", "--expansion", "mod", "--players", "8", "--out", "x.jpg"], "PNG"),
        (["board", "--expansion", "affc", "--players", "6"], "played by 4 players, not 6"),
        (["play", "--expansion", "mod", "--players", "9"], "played by 7 or 8 players, not 9"),
        (["play", "--expansion", "mod", "--players", "6"], "played by 7 or 8 players, not 6"),
        (["bench", "--expansion", "mod", "--players", "5"], "played by 7 or 8 players, not 5"),
        (["cards", "--edition", "4e"], "invalid choice"),
        (["bogus"], "invalid choice"),
    ],
)
def test_bad_arguments(
    argv: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bad arguments: one line, exit status 2, and no file written."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert list(tmp_path.iterdir()) == []


def test_cards_json_lists_all_42(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--edition", "2e", "--json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    assert len(cards) == 42
    tywin = next(c for c in cards if c["id"] == "tywin_lannister")
    assert (tywin["house"], tywin["strength"], tywin["swords"], tywin["fortifications"]) == (
        "lannister",
        4,
        0,
        0,
    )
    assert tywin["implemented_in"] == ["combat", "engine"]
    assert all("engine" in card["implemented_in"] for card in cards)
    patchface = next(c for c in cards if c["id"] == "patchface")
    assert patchface["implemented_in"] == ["engine"]  # after the battle: no effect on odds


def test_cards_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards"]) == 0
    out = capsys.readouterr().out
    assert "Ser Gregor Clegane" in out and "Martell" in out


def test_combat_equilibrium_prints_both_strategies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["combat", str(EXAMPLES / "riverrun.json"), "--model", "equilibrium"]) == 0
    out = capsys.readouterr().out
    assert "P(attacker wins)" in out and "attacker plays:" in out and "defender plays:" in out


def test_combat_json_has_the_contract_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["combat", str(EXAMPLES / "highgarden_tides.json"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in (
        "p_attacker_wins",
        "p_defender_wins",
        "model",
        "exact",
        "matrix",
        "attacker_strategy",
        "defender_strategy",
        "breakdown",
        "casualties",
    ):
        assert key in data
    assert data["exact"] is True and data["model"] == "uniform"
    assert data["p_attacker_wins"] + data["p_defender_wins"] == pytest.approx(1.0)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_every_example_battle_runs(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for model in ("uniform", "equilibrium"):
        assert main(["combat", str(path), "--model", model, "--json"]) == 0
        assert 0.0 <= json.loads(capsys.readouterr().out)["p_attacker_wins"] <= 1.0


def test_board_first_edition_ports_variant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--variant ports`` draws A Clash of Kings' ports on the 1st-edition board (a 2nd-edition
    board has its ports: refused, ``test_bad_arguments``)."""
    out = tmp_path / "board.png"
    argv = ["board", "--edition", "1e", "--players", "5", "--variant", "ports", "--out", str(out)]
    assert main(argv) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "A Clash of Kings' ports" in capsys.readouterr().out
