"""The ``gotsim`` command: board pictures, house-card lists and combat odds.

Bad input anywhere gives one line naming what is wrong and exit status 2; nothing is written.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from gotsim.rules.ids import EDITIONS

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        _fail(f"{self.prog}: {message}")


def _fail(message: str) -> NoReturn:
    print(f"gotsim: error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def _players(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--players must be a whole number, got {text!r}"
        ) from None
    return value


def _cmd_board(args: argparse.Namespace) -> int:
    from gotsim.rules.setup import SetupDataError, load_setup

    out = Path(args.out)
    if out.suffix.lower() != ".png":
        _fail(f"--out {args.out!r}: the board picture is a PNG, give a path ending in .png")
    if out.parent and not out.parent.exists():
        _fail(f"--out {args.out!r}: folder {str(out.parent)!r} does not exist")
    try:
        setup = load_setup(args.edition, args.players, kings_court_swap=args.kings_court_swap)
    except SetupDataError as exc:
        _fail(f"--players {args.players}: {exc}")

    import matplotlib

    matplotlib.use("Agg")
    from gotsim.analysis.board_plot import save_board_picture

    path = save_board_picture(out, setup, dpi=args.dpi)
    print(f"wrote {path} ({args.edition}, {args.players} players, starting position)")
    return 0


def _cmd_cards(args: argparse.Namespace) -> int:
    from gotsim.engine.combat import implemented_in
    from gotsim.rules.cards import house_cards

    rows: list[dict[str, Any]] = []
    for card in house_cards(args.edition):
        rows.append(
            {
                "house": card.house.id,
                "id": card.id,
                "name": card.name,
                "strength": card.strength,
                "swords": card.swords,
                "fortifications": card.fortifications,
                "ability": card.ability,
                "timing": card.timing,
                "effect": card.effect,
                "implemented_in": implemented_in(card.effect),
            }
        )
    if args.json:
        print(json.dumps(rows, indent=1, ensure_ascii=False))
        return 0
    house = None
    for row in rows:
        if row["house"] != house:
            house = row["house"]
            print(f"\n{house.capitalize()}")
        icons = f"{row['strength']}  swords {row['swords']}  forts {row['fortifications']}"
        print(f"  {row['name']:<22} {icons}  {row['ability'] or ''}")
    return 0


def _cmd_combat(args: argparse.Namespace) -> int:
    from gotsim.odds import BattleSpecError, combat_odds
    from gotsim.odds.report import format_odds

    if args.samples is not None and args.samples <= 0:
        _fail(f"--samples must be positive, got {args.samples}")
    try:
        result = combat_odds(
            Path(args.battle), model=args.model, samples=args.samples, seed=args.seed
        )
    except BattleSpecError as exc:
        message = str(exc)
        _fail(message if message.startswith(args.battle) else f"{args.battle}: {message}")
    if args.json:
        print(json.dumps(result.to_dict(), indent=1))
    else:
        print(format_odds(result))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gotsim", description="A Game of Thrones: The Board Game simulator.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    board = sub.add_parser("board", help="draw the starting position as a PNG")
    board.add_argument("--edition", choices=EDITIONS, default="2e")
    board.add_argument("--players", type=_players, default=6)
    board.add_argument("--out", default="board.png", help="PNG path (default board.png)")
    board.add_argument("--dpi", type=int, default=150)
    board.add_argument(
        "--kings-court-swap", action="store_true", help="swap Tyrell and Greyjoy on King's Court"
    )
    board.set_defaults(run=_cmd_board)

    cards = sub.add_parser("cards", help="list the house cards")
    cards.add_argument("--edition", choices=EDITIONS, default="2e")
    cards.add_argument("--json", action="store_true")
    cards.set_defaults(run=_cmd_cards)

    combat = sub.add_parser("combat", help="exact odds of a battle given as JSON")
    combat.add_argument("battle", help="battle spec (JSON file, see docs/combat.md)")
    combat.add_argument("--model", choices=("fixed", "uniform", "equilibrium"), default="uniform")
    combat.add_argument("--json", action="store_true")
    combat.add_argument("--samples", type=int, default=None, help="sample instead of enumerating")
    combat.add_argument("--seed", type=int, default=0)
    combat.set_defaults(run=_cmd_combat)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    raise SystemExit(main())
