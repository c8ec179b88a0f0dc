"""Golden engine counts (perft-style order assignments and march destinations from the 2e
starts) and golden playthroughs (three base games and one A Dance with Dragons game),
recomputed and compared exactly with ``tests/golden/``.

After an intended rule change, regenerate with ``.venv/bin/python tools/regen_golden.py`` and
review the diff of ``tests/golden/``.
"""

from __future__ import annotations

import difflib
import itertools
import json
from typing import Any

import pytest
from scripts import load_script

from gotsim.engine.position import load_position, starting_position
from gotsim.engine.state import N_BASE_ORDER_KINDS, ORDER_COUNT, ORDER_NAMES, ORDER_STAR

REGEN_HINT = "if the change is intended, run: .venv/bin/python tools/regen_golden.py"


regen = load_script("tools/regen_golden.py")


def golden_counts() -> dict[str, Any]:
    return json.loads(regen.COUNTS.read_text(encoding="utf-8"))


def json_diff(expected: Any, got: Any, where: str = "") -> list[str]:
    """Readable differences between two JSON values, one line per differing leaf."""
    if isinstance(expected, dict) and isinstance(got, dict):
        out = []
        for key in sorted(set(expected) | set(got), key=str):
            here = f"{where}.{key}" if where else str(key)
            if key not in got:
                out.append(f"{here}: missing now (golden: {json.dumps(expected[key])[:120]})")
            elif key not in expected:
                out.append(f"{here}: new (now: {json.dumps(got[key])[:120]})")
            else:
                out.extend(json_diff(expected[key], got[key], here))
        return out
    if (
        isinstance(expected, list)
        and isinstance(got, list)
        and expected != got
        and all(isinstance(x, str) for x in expected + got)
    ):
        gone = [x for x in expected if x not in got]
        new = [x for x in got if x not in expected]
        return [f"{where}: lost {gone}, gained {new}" if gone or new else f"{where}: reordered"]
    if expected != got:
        return [f"{where}: golden {json.dumps(expected)}, now {json.dumps(got)}"]
    return []


def assert_same_json(expected: Any, got: Any, what: str) -> None:
    diff = json_diff(expected, got)
    if diff:
        shown = "\n  ".join(diff[:40])
        more = f"\n  … and {len(diff) - 40} more" if len(diff) > 40 else ""
        pytest.fail(f"{what} differs from the golden file:\n  {shown}{more}\n{REGEN_HINT}")


def assert_same_text(expected: str, got: str, what: str) -> None:
    if expected != got:
        diff = difflib.unified_diff(
            expected.splitlines(), got.splitlines(), "golden", "now", lineterm="", n=2
        )
        lines = list(diff)
        shown = "\n".join(lines[:80])
        more = f"\n… and {len(lines) - 80} more diff lines" if len(lines) > 80 else ""
        pytest.fail(f"{what} differs from the golden file:\n{shown}{more}\n{REGEN_HINT}")


# --- counts ------------------------------------------------------------------------------------


def test_golden_counts_header() -> None:
    """The counts name order kinds in the engine's order (``Order``), for readers of the file."""
    golden = golden_counts()
    assert golden["order_kinds"] == list(ORDER_NAMES[:N_BASE_ORDER_KINDS])  # (base games)


@pytest.mark.parametrize("players", regen.PLAYER_COUNTS)
def test_order_assignments(players: int) -> None:
    expected = golden_counts()["order_assignments"][str(players)]
    assert_same_json(
        expected, regen.order_assignment_counts_for(players), f"order assignments ({players}p)"
    )


@pytest.mark.parametrize("players", regen.PLAYER_COUNTS)
def test_march_destinations(players: int) -> None:
    expected = golden_counts()["march_destinations"][str(players)]
    assert_same_json(
        expected, regen.march_destinations_for(players), f"march destinations ({players}p)"
    )


def _assignments_by_hand(areas: int, stars: int) -> int:
    """Sequences of order kinds, one per area, within each kind's token count and the stars."""
    n = 0
    base = N_BASE_ORDER_KINDS  # (no sea order tokens in base games)
    for kinds in itertools.product(range(base), repeat=areas):
        used = [kinds.count(k) for k in range(base)]
        if all(u <= c for u, c in zip(used, ORDER_COUNT[:base], strict=True)) and (
            sum(u for u, s in zip(used, ORDER_STAR[:base], strict=True) if s) <= stars
        ):
            n += 1
    return n


def test_order_assignments_match_the_combinatorics() -> None:
    """Orders do not depend on the area, so the golden counts are a product count: 180 / 690 /
    1050 / 1110 for 3 areas with 0–3 stars, 876 … 9996 for 4 areas."""
    for players, table in golden_counts()["order_assignments"].items():
        start = starting_position("2e", int(players))
        for house, row in table.items():
            placed = [a for a, h in start.occupants.items() if h.id == house]
            assert row["areas"] == placed, (players, house)
            assert row["assignments"] == _assignments_by_hand(len(placed), row["stars"])


def test_march_destinations_by_hand() -> None:
    """A few read off the board: Winterfell's footman reaches Widow's Watch only by the ship in
    The Shivering Sea; Pyke's army goes nowhere without Ironman's Bay's ships."""
    table = golden_counts()["march_destinations"]["6"]
    assert table["winterfell"]["unit"] == "footman"
    assert table["winterfell"]["no_transport"] == [
        "castle_black",
        "karhold",
        "moat_cailin",
        "the_stony_shore",
        "white_harbor",
    ]
    assert set(table["winterfell"]["transport"]) - set(table["winterfell"]["no_transport"]) == {
        "widows_watch"
    }
    assert table["pyke"]["no_transport"] == []
    assert table["pyke"]["transport"] == ["flints_finger", "greywater_watch", "riverrun", "seagard"]
    assert table["the_golden_sound"]["unit"] == "ship"
    assert table["port_of_pyke"]["transport"] == ["ironmans_bay"]


# --- playthroughs -------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", regen.PLAYTHROUGHS, ids=lambda s: s.name)
def test_playthrough(spec: Any) -> None:
    log, position = regen.playthrough(spec)
    assert_same_text(spec.log_path.read_text(encoding="utf-8"), log, f"{spec.name} log")
    assert_same_text(
        spec.position_path.read_text(encoding="utf-8"), position, f"{spec.name} final position"
    )
    load_position(spec.position_path)  # the golden final position is a valid position
