"""The input layer shared by the ``gotsim`` command, scenario files and the Python API: reading
input files (encodings, size and nesting limits), whole numbers checked before anything is
allocated, output paths checked before anything is computed, and one way to report a failed
read or write: one line, exit status 2 for bad input, 1 for the environment (disk full, a
read-only file system, no permission).
"""

from __future__ import annotations

import errno

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_ENVIRONMENT",
    "os_error_text",
]

EXIT_BAD_INPUT = 2
EXIT_ENVIRONMENT = 1

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


def os_error_text(exc: OSError) -> tuple[int, str]:
    """The exit status and the one line for a failed read or write.

    >>> os_error_text(OSError(28, "No space left on device", "/x/games.parquet"))
    (1, '/x/games.parquet: no space left on the device')
    """
    name = exc.filename if exc.filename is not None else None
    where = f"{name}: " if name is not None else ""
    if exc.errno in _ENVIRONMENT:
        return EXIT_ENVIRONMENT, f"{where}{_ENVIRONMENT[exc.errno]}"
    if exc.errno in _INPUT:
        return EXIT_BAD_INPUT, f"{where}{_INPUT[exc.errno]}"
    return EXIT_ENVIRONMENT, f"{where}{exc.strerror or exc}"
