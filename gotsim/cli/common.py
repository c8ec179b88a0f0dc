"""The command's shared pieces: exit codes, the parser that fails with one line, checked
arguments (players, edition, variants, output files) and the compile notices."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, NoReturn

from gotsim.inputs import (
    InputError,
    atomic_write,
    check_output_file,
    check_output_folder,
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


MAX_MESSAGE = 400  # characters of an error line; a longer one is cut in the middle


def short(message: str) -> str:
    """``message`` on one line of at most about ``MAX_MESSAGE`` characters: an echoed value of
    megabytes (a name in a bad file) is cut in the middle, saying how much was left out."""
    line = " ".join(message.split("\n"))
    if len(line) <= MAX_MESSAGE:
        return line
    keep = MAX_MESSAGE // 2
    return f"{line[:keep]} … ({len(line) - 2 * keep:,} characters left out) … {line[-keep:]}"


def fail(message: str) -> NoReturn:
    print(f"gotsim: error: {short(message)}", file=sys.stderr)
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


def output_file(value: str | None, flag: str, *, folder: bool = False) -> Path | None:
    """The file (with ``folder``: the folder) an option writes (``None``: the option is not
    given), checked before anything is computed: an empty name, a path under a file, in /proc,
    /sys or /dev, a folder for a file or a missing folder is one line, exit 2
    (``inputs.check_output_file``, ``check_output_folder``)."""
    if value is None:
        return None
    if not value.strip():
        fail(f"{flag}: an empty {'folder' if folder else 'file'} name")
    return output(check_output_folder if folder else check_output_file, value, flag)


def distinct_outputs(**paths: Path | None) -> None:
    """Refuse two options writing the same file (the second would replace the first)."""
    seen: dict[Path, str] = {}
    for flag, path in paths.items():
        if path is None:
            continue
        key = path.resolve()
        if key in seen:
            fail(f"{seen[key]} and {flag} name the same file {str(path)!r}; give each its own")
        seen[key] = flag


def write_text_file(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (``inputs.atomic_write``: a failed write,
    a full disk say, leaves neither a part of it nor a temporary file, and names ``path``)."""
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_bytes_file(path: Path, data: bytes) -> None:
    """``write_text_file`` for bytes."""
    atomic_write(path, lambda tmp: tmp.write_bytes(data))


def expansion_text(text: str) -> str | None:
    """``--expansion``'s value: an expansion name, ``None`` for ``base``."""
    try:
        return expansion_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("expansion: ")) from None


def expansion_argument(parser: argparse.ArgumentParser) -> None:
    """``--expansion``: the base game or a 2nd-edition expansion."""
    parser.add_argument(
        "--expansion",
        type=expansion_text,
        default=None,
        metavar="NAME",
        help="a 2nd-edition expansion: base (the default) or "
        + ", ".join(EXPANSIONS)
        + " (A Dance with Dragons: 6 players, its own start, 6 rounds, its house cards; A Feast"
        " for Crows: 4 players with Arryn, objectives, 7 victory points; mod, Mother of"
        " Dragons: 7 players with Arryn on the Eyrie and Bite board, or 8 with Targaryen in"
        " Essos)",
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
