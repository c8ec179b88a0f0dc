"""The command's shared pieces: exit codes, the parser that fails with one line, checked
arguments (players, edition, variants, output files) and the compile notices."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, NoReturn

from gotsim.inputs import (
    InputError,
)
from gotsim.rules.iron_bank import iron_bank_refusal
from gotsim.rules.variants import (
    ADWD_HOUSE_CARDS,
    CLASH_OF_KINGS_VARIANTS,
    EIGHT_HOUSES,
    EXPANSIONS,
    EYRIE_PORT,
    IRON_BANK,
    VASSALS,
    Rules,
    expansion_name,
)

EXIT_BAD_INPUT = 2
PORTS = "ports"  # ``gotsim board --variant ports``: the 1st edition's A Clash of Kings ports
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a Unix tool killed by a closed pipe


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """``--help`` shows every option's default, except for flags and options without one."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default in (None, False, argparse.SUPPRESS) or action.nargs == 0:
            return action.help
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump), exit status 2, and defaults in help."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("gotsim").strip()  # "gotsim: error:" says gotsim
        fail(f"{command}: {message}" if command else message)


def fail(message: str) -> NoReturn:
    print(f"gotsim: error: {message}", file=sys.stderr)
    raise SystemExit(EXIT_BAD_INPUT)


def output(check: Any, path: str, flag: str) -> Path:
    """An output path checked before anything is computed (one line, exit 2 when it cannot
    be; a folder we may not write in is the environment's failure: exit 1, from ``main``)."""
    try:
        return Path(check(path, flag))
    except InputError as exc:
        fail(str(exc))


def player_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--players must be a whole number, got {text!r}"
        ) from None
    return value


def announce(group: str) -> None:
    """One line on stderr when the kernels of ``group`` (``gotsim.jit.KERNEL_GROUPS``) are about
    to compile in this process."""
    from gotsim.jit import announce_compile

    announce_compile(group)


def early_compile_notice(args: argparse.Namespace) -> None:
    """Say at once, before numba and the engine are imported, which kernels ``bench`` will
    compile when that is certain from the files (``gotsim.jit.surely_compiles``). Commands that
    read an input first (``run``, ``play``, ``combat``) announce their compile once the input is
    known to be good, so that bad input is still one line."""
    from gotsim.jit import announce_if_surely_compiles

    if args.command == "bench":
        check_edition(args)  # bad input stays one line
        announce_if_surely_compiles(getattr(args, "policy", "random"))


def say_status(args: argparse.Namespace, text: str) -> None:
    """A progress line on stderr, unless ``--quiet``."""
    if not getattr(args, "quiet", False):
        print(text, file=sys.stderr, flush=True)


def python_policy(name: str) -> Any:
    """The Python policy every house plays in ``gotsim play``."""
    from gotsim.players import make_policy

    return make_policy(name)


def check_edition(args: argparse.Namespace) -> None:
    """One line for a player count, policy or variant the edition does not have."""
    if VASSALS in (args.variant or ()):
        chosen = {VASSALS: True, **({EIGHT_HOUSES: True} if EIGHT_HOUSES in args.variant else {})}
        try:
            Rules.of(args.edition, args.players, chosen, args.expansion)
        except (ValueError, NotImplementedError) as error:
            fail(f"--variant {VASSALS}: {error}")
        return
    if EIGHT_HOUSES in (args.variant or ()):
        fail(f"--variant {EIGHT_HOUSES}: a vassals option (add --variant {VASSALS})")
    counts = (3, 4, 5) if args.edition == "1e" else (3, 4, 5, 6)
    name = "1st" if args.edition == "1e" else "2nd"
    if args.players not in counts and args.expansion is None:  # (an expansion: its own counts)
        fail(f"--players {args.players}: the {name} edition is played by 3 to {counts[-1]} players")
    if args.edition == "1e" and getattr(args, "tides", False):
        fail("--tides: Tides of Battle is a 2nd-edition variant")
    check_expansion(args)
    for module in args.variant or ():
        if module == EYRIE_PORT:
            if args.expansion != "affc":
                fail(f"--variant {module}: an A Feast for Crows option (--expansion affc)")
        elif module == IRON_BANK:
            refusal = iron_bank_refusal(args.expansion)
            if refusal:
                fail(f"--variant {module}: {refusal}")
        elif module == ADWD_HOUSE_CARDS:
            if args.edition != "2e":
                fail(f"--variant {module}: the A Dance with Dragons house cards are 2nd-edition")
        elif args.edition == "2e":
            fail(
                f"--variant {module}: an A Clash of Kings module of the 1st edition (--edition 1e)"
            )


def check_expansion(args: argparse.Namespace) -> None:
    """One line for an expansion the edition, player count or variants do not allow."""
    if args.expansion is None:
        return
    try:
        Rules.of(args.edition, args.players, None, args.expansion)
        if getattr(args, "kings_court_swap", False):
            raise ValueError("kings_court_swap is a base-game setup change")
    except ValueError as error:
        fail(f"--expansion {args.expansion}: {error}")


def chosen_variants(args: argparse.Namespace) -> dict[str, bool]:
    """The engine variants of ``gotsim play`` and ``gotsim bench``."""
    return {
        "tides_of_battle": getattr(args, "tides", False),
        **dict.fromkeys(args.variant or (), True),
    }


def output_file(value: str | None, flag: str, suffix: str) -> Path | None:
    """The file an option writes, checked before the game is played."""
    if value is None:
        return None
    path = Path(value)
    if path.is_dir():
        fail(f"{flag} {value!r} is a folder; give a file name such as game{suffix}")
    if not path.parent.exists():
        fail(f"{flag} {value!r}: folder {str(path.parent)!r} does not exist")
    return path


def write_text_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (a temporary file, then a rename)."""
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def write_bytes_file(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".part")
    tmp.write_bytes(data)
    tmp.replace(path)


def expansion_text(text: str) -> str | None:
    """``--expansion``'s value: an expansion name, ``None`` for ``base``."""
    try:
        return expansion_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("expansion: ")) from None


def expansion_argument(parser: argparse.ArgumentParser, *, board_only: bool = False) -> None:
    """``--expansion``; with ``board_only`` (``gotsim board``) the help says that the board of
    a player count not playable yet (Mother of Dragons' 8) is drawn alone."""
    extra = "; with mod and 8 players the 8-player board alone, without a starting position"
    parser.add_argument(
        "--expansion",
        type=expansion_text,
        default=None,
        metavar="NAME",
        help="a 2nd-edition expansion: base (the default) or "
        + ", ".join(EXPANSIONS)
        + " (A Dance with Dragons: 6 players, its own start, 6 rounds, its house cards; A Feast"
        " for Crows: 4 players with Arryn, objectives, 7 victory points; mod, Mother of"
        " Dragons: 7 players with Arryn on the Eyrie and Bite board)"
        + (extra if board_only else ""),
    )


def variant_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        action="append",
        choices=(
            *CLASH_OF_KINGS_VARIANTS,
            ADWD_HOUSE_CARDS,
            EYRIE_PORT,
            IRON_BANK,
            VASSALS,
            EIGHT_HOUSES,
        ),
        metavar="MODULE",
        help="an A Clash of Kings module of the 1st edition (repeat for several): "
        + ", ".join(CLASH_OF_KINGS_VARIANTS)
        + "; or, in the 2nd edition, adwd_house_cards (the A Dance with Dragons house cards)"
        + " or, with --expansion affc, eyrie_port (The Eyrie has a port)"
        + " or, with --expansion mod, iron_bank (the Iron Bank); or vassals"
        + " (--players player houses, the board's other houses vassals: base game 3-5,"
        + " --expansion mod 3-6) and with it eight_houses (Mother of Dragons' 8-house board,"
        + " Targaryen a player: 4-7)",
    )
