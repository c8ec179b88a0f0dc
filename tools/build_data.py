"""Regenerate gotsim/data/2e/ from the project's shared reference facts.

The reference folder (``../shared/reference/agot2e``) holds the game's facts in
gotsim's own schema; this script re-writes them as the package's data files,
adds a provenance pointer to each, and folds the drawing positions into the
map. It is a developer tool: the installed package never needs ``../shared``.

Usage: ``python tools/build_data.py [REFERENCE_DIR]``
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "gotsim" / "data" / "2e"
FILES = {
    "map.json": "map.json",
    "setup.json": "setup.json",
    "house_cards.json": "house_cards.json",
    "westeros_cards.json": "westeros_cards.json",
    "wildling_cards.json": "wildling_cards.json",
    "tides_of_war.json": "tides_of_battle.json",
    "orders.json": "orders.json",
    "variants.json": "variants.json",
    "expansions.json": "expansions.json",
    "house_cards_variants.json": "house_cards_variants.json",
}


def main(reference: Path) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    positions = json.loads((reference / "positions.json").read_text())
    for src, dst in FILES.items():
        data = json.loads((reference / src).read_text())
        data = {"provenance": "see PROVENANCE.md beside this file", **data}
        if src == "map.json":
            aspect = positions["aspect_ratio"]
            for area in data["areas"]:
                x, y = positions["positions"][area["id"]]
                area["position"] = [x, round(y * aspect, 4)]
            data["drawing"] = {
                "aspect_ratio": aspect,
                "conventions": {
                    "x": "0 = left (west) edge of the board image, 1 = right (east) edge",
                    "y": "0 = top (north); measured in board widths, so it runs 0..aspect_ratio",
                    "method": positions["conventions"]["normalisation"],
                },
                "source": positions["source"],
            }
        (OUT / dst).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(FILES)} files to {OUT}")


if __name__ == "__main__":
    main(
        Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "reference" / "agot2e"
    )
