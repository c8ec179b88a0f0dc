"""The input layer shared by the ``gotsim`` command, scenario files and the Python API: reading
input files (encodings, size and nesting limits), whole numbers checked before anything is
allocated, the field checks the three readers (positions, battle specs, scenarios) share
(``FieldChecks``, ``did_you_mean``), output paths checked before anything is computed, and one
way to report a failed read or write: one line, exit status 2 for bad input, 1 for the
environment (disk full, a read-only file system, no permission).
"""

from __future__ import annotations

import codecs
import contextlib
import difflib
import errno
import json
import os
import stat
import tomllib
from collections.abc import Callable, Iterable, Mapping
from numbers import Integral
from pathlib import Path
from typing import Any

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_ENVIRONMENT",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "FieldChecks",
    "InputError",
    "atomic_write",
    "check_output_file",
    "check_output_folder",
    "decode_text",
    "did_you_mean",
    "os_error_text",
    "parse_json",
    "parse_toml",
    "read_text_file",
    "seed_value",
    "whole_number",
]

EXIT_BAD_INPUT = 2
EXIT_ENVIRONMENT = 1
MAX_FILE_BYTES = 16 * 1024 * 1024  # a scenario, battle or position is a few kilobytes
MAX_DEPTH = 64  # levels of nesting in a JSON or TOML input (positions use 4)
MAX_DIGITS = 30  # digits of an integer in an input file (seeds have at most 19)
MAX_SEED = 2**63 - 1
# places that are not for results: writing there is refused as bad input
SYSTEM_FOLDERS = ("/proc", "/sys", "/dev")

# failures of the machine, not of what was asked: exit status 1
_ENVIRONMENT = {
    errno.ENOSPC: "no space left on the device",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "read-only file system",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.EIO: "input/output error",
    errno.EMFILE: "too many open files",
}
# a path that cannot be what was asked of it: exit status 2
_INPUT = {
    errno.ENOENT: "no such file or folder",
    errno.EISDIR: "is a folder",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.ENAMETOOLONG: "name too long",
    errno.EEXIST: "already exists",
}


class InputError(ValueError):
    """Input that cannot be used: the message is one line naming what and why."""


def os_error_text(exc: OSError) -> tuple[int, str]:
    """The exit status and the one line for a failed read or write.

    >>> os_error_text(OSError(28, "No space left on device", "/x/games.parquet"))
    (1, '/x/games.parquet: no space left on the device')
    """
    where = f"{exc.filename}: " if exc.filename is not None else ""
    if exc.errno in _ENVIRONMENT:
        return EXIT_ENVIRONMENT, f"{where}{_ENVIRONMENT[exc.errno]}"
    if exc.errno in _INPUT:
        return EXIT_BAD_INPUT, f"{where}{_INPUT[exc.errno]}"
    return EXIT_ENVIRONMENT, f"{where}{exc.strerror or exc}"


# --- numbers --------------------------------------------------------------------------------


def _kind(value: Any) -> str:
    names = {bool: "a boolean", float: "a number with a fraction", str: "a string"}
    return names.get(type(value), type(value).__name__)


def whole_number(value: Any, what: str, low: int, high: int) -> int:
    """``value`` as an ``int`` when it is a whole number (``int`` or a numpy integer, not a
    boolean, string or float) from ``low`` to ``high``, else ``InputError``.

    >>> whole_number(3, "games", 1, 10)
    3
    >>> whole_number(True, "games", 1, 10)
    Traceback (most recent call last):
    ...
    gotsim.inputs.InputError: games: expected a whole number, got a boolean (True)
    """
    if isinstance(value, bool) or not isinstance(value, Integral):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise InputError(f"{what}: expected a whole number, got {_kind(value)} ({shown})")
    number = int(value)
    if not low <= number <= high:
        shown = str(number) if number.bit_length() < 128 else f"a {number.bit_length()}-bit number"
        raise InputError(f"{what}: must be from {low:,} to {high:,}, got {shown}")
    return number


def did_you_mean(value: object, choices: Iterable[str], *, prefix: bool = False) -> str:
    """`` (did you mean 'x'?)`` for the closest choice (with ``prefix``, else one the value
    begins when it has 3 characters or more), or ``""``.

    >>> did_you_mean("winterfel", ["winterfell", "white_harbor"])
    " (did you mean 'winterfell'?)"
    """
    text, options = str(value), list(choices)
    close = difflib.get_close_matches(text, options, n=1)
    if not close and prefix and len(text) >= 3:
        close = [c for c in options if c.startswith(text)][:1]
    return f" (did you mean {close[0]!r}?)" if close else ""


class FieldChecks:
    """The checks a reader of JSON-shaped input makes of its fields, each failing with the
    reader's own error (``error(line)``) and a line that names the field:
    ``areas.winterfell.garrison: must be a whole number from 1 to 9, got 0``.

    >>> checks = FieldChecks(ValueError)
    >>> checks.whole(3, "round", 1, 10)
    3
    >>> checks.keys({"rond": 1}, ("round",), "")
    Traceback (most recent call last):
    ...
    ValueError: rond: unknown field (did you mean 'round'?)
    """

    def __init__(self, error: Callable[[str], Exception]) -> None:
        self.error = error

    def fail(self, where: str, message: str) -> Exception:
        """The error to raise: ``where: message`` (the message alone without a field)."""
        return self.error(f"{where}: {message}" if where else message)

    def keys(self, obj: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
        """Every key of ``obj`` is one of ``allowed`` (``where`` prefixes the field's name)."""
        allowed = tuple(allowed)
        for key in obj:
            if key not in allowed:
                raise self.fail(f"{where}{key}", f"unknown field{did_you_mean(key, allowed)}")

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, f"must be an object, got {type(value).__name__}")
        return value

    def whole(self, value: Any, where: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(where, f"must be a whole number from {low} to {high}, got {value!r}")
        return value

    def boolean(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"must be true or false, got {value!r}")
        return value


def seed_value(value: Any, what: str = "seed") -> int:
    """A seed: a whole number from 0 to 2**63 - 1, the same rule for every command and call."""
    return whole_number(value, what, 0, MAX_SEED)


def int_argument(what: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type`` reading a whole number from ``low`` to ``high`` (ASCII digits)."""
    import argparse

    def parse(text: str) -> int:
        # (argparse puts "argument --flag:" in front of the message)
        digits = text[1:] if text[:1] in "+-" else text
        if not digits.isascii() or not digits.isdigit() or len(digits) > MAX_DIGITS:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
        try:
            return whole_number(int(text), what, low, high)
        except InputError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix(f"{what}: ")) from None

    parse.__name__ = what  # argparse names the type in its message
    return parse


# --- reading input files --------------------------------------------------------------------


def decode_text(data: bytes) -> str:
    """UTF-8 text (a byte-order mark is dropped), or ``InputError`` saying what it is instead."""
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or (
        len(data) >= 4 and (data[1::2][:2] == b"\0\0" or data[0::2][:2] == b"\0\0")
    ):
        raise InputError("UTF-16 text: save the file as UTF-8")
    if b"\0" in data:
        raise InputError("a binary file, not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}; Latin-1 or "
            "another encoding? save the file as UTF-8)"
        ) from None


def read_text_file(path: str | Path) -> str:
    """The text of an input file, refusing (``InputError``, message without the path) folders,
    devices and pipes, files over ``MAX_FILE_BYTES``, unreadable files and anything but UTF-8."""
    path = Path(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise InputError("no such file") from None
    except OSError as exc:
        raise InputError(f"cannot read: {os_error_text(exc)[1].split(': ')[-1]}") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError("is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError("not a regular file (a device, pipe or socket)")
    if info.st_size > MAX_FILE_BYTES:
        raise InputError(f"too large ({info.st_size:,} bytes; at most {MAX_FILE_BYTES:,})")
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InputError(f"cannot read: {os_error_text(exc)[1].split(': ')[-1]}") from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"too large (more than {MAX_FILE_BYTES:,} bytes)")
    return decode_text(data)


def _nesting(text: str) -> int:
    """The deepest bracket nesting of JSON or TOML text, outside strings and comments."""
    depth = deepest = 0
    quote = ""
    escaped = comment = False
    for char in text:
        if comment:
            comment = char != "\n"
        elif quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote or (char == "\n" and quote == "'"):
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            comment = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        digits = len(text.lstrip("-"))
        raise InputError(f"a {digits:,}-digit number (at most {MAX_DIGITS} digits)")
    return int(text)


def parse_json(text: str) -> Any:
    """JSON text as data, with nesting and integer-size limits (``InputError``)."""
    if _nesting(text) > MAX_DEPTH:
        raise InputError(f"nested more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(text, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except (RecursionError, ValueError) as exc:
        raise InputError(f"not valid JSON ({exc})") from None


def _check_integers(value: Any, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise InputError(f"nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, int) and not isinstance(value, bool):
        _bounded_int(str(value))
    elif isinstance(value, dict):
        for item in value.values():
            _check_integers(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_integers(item, depth + 1)


def parse_toml(text: str) -> dict[str, Any]:
    """TOML text as data, with nesting and integer-size limits. ``tomllib.TOMLDecodeError``
    passes through (its message names line and column)."""
    if _nesting(text) > MAX_DEPTH:
        raise InputError(f"nested more than {MAX_DEPTH} levels deep")
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise InputError(f"nested more than {MAX_DEPTH} levels deep") from None
    except ValueError as exc:
        if isinstance(exc, tomllib.TOMLDecodeError):
            raise
        if "digits" in str(exc):  # Python's limit on converting long integers
            raise InputError(f"a number with too many digits (at most {MAX_DIGITS})") from None
        raise InputError(str(exc)) from None
    _check_integers(data)
    return data


def read_json_file(path: str | Path, kind: str = "") -> Any:
    """``read_text_file`` and ``parse_json``; ``InputError`` messages start with the path (and
    say ``no such <kind> file`` for a missing one)."""
    try:
        return parse_json(read_text_file(path))
    except InputError as exc:
        reason = str(exc)
        if reason == "no such file" and kind:
            reason = f"no such {kind} file"
        raise InputError(f"{path}: {reason}") from None


# --- output paths ---------------------------------------------------------------------------


def _system(path: Path) -> str | None:
    resolved = str(path.resolve())
    for folder in SYSTEM_FOLDERS:
        if resolved == folder or resolved.startswith(folder + "/"):
            return folder
    return None


def _writable_folder(folder: Path, flag: str, shown: str) -> None:
    """The nearest existing folder at or above ``folder`` must be a folder we may write in."""
    probe = folder
    while not probe.exists() and probe != probe.parent:
        if probe.is_symlink():
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise InputError(f"{flag} {shown!r}: {str(probe)!r} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        read_only = False
        with contextlib.suppress(OSError):
            read_only = bool(os.statvfs(probe).f_flag & os.ST_RDONLY)
        code = errno.EROFS if read_only else errno.EACCES
        raise OSError(code, os.strerror(code), str(probe))


def check_output_file(path: str | Path, flag: str, *, make_parents: bool = False) -> Path:
    """Refuse an output file path that cannot be written before anything is computed: a folder,
    under a file, in /proc, /sys or /dev, a missing folder (unless ``make_parents``) — all
    ``InputError`` — or a folder we may not write in (``OSError``: the environment)."""
    out = Path(path)
    shown = str(path)
    system = _system(out)
    if system is not None:
        raise InputError(f"{flag} {shown!r}: {system} is not a place for files")
    if out.is_dir():
        raise InputError(f"{flag} {shown!r}: is a folder; give a file name")
    parent = out.parent
    if not make_parents and not parent.exists():
        probe = parent
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        if probe.exists() and not probe.is_dir():
            raise InputError(f"{flag} {shown!r}: {str(probe)!r} is a file, not a folder")
        raise InputError(f"{flag} {shown!r}: folder {str(parent)!r} does not exist")
    _writable_folder(parent, flag, shown)
    return out


def check_output_folder(path: str | Path, flag: str) -> Path:
    """Refuse an output folder that cannot be made or written: a file, under a file, in /proc,
    /sys or /dev (``InputError``) or not writable (``OSError``)."""
    out = Path(path)
    shown = str(path)
    system = _system(out)
    if system is not None:
        raise InputError(f"{flag} {shown!r}: {system} is not a place for results")
    if out.exists() and not out.is_dir():
        raise InputError(f"{flag} {shown!r}: is a file, not a folder")
    _writable_folder(out, flag, shown)
    return out


def atomic_write(path: Path, write: Callable[[Path], object]) -> Path:
    """Call ``write(tmp)`` on a temporary name beside ``path``, flush it to disk, then rename it
    over ``path`` in one step, so readers (and a resumed run) see the old file or the new one,
    never half of one; a failed write leaves neither (``OSError`` names ``path``)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        write(tmp)
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:  # name the file being written, not its temporary name
        if exc.errno is None or exc.filename not in (str(tmp), tmp):
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from None
    finally:
        if tmp.exists():
            tmp.unlink()
    return path
