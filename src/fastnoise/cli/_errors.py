"""The one error path of the ``fastnoise`` command line.

Every subcommand runs under :func:`run_command`: an exception that reaches it becomes
one line on stderr, ``fastnoise <cmd>: error: <what went wrong>``, and exit status 1.
The message names the path (an :class:`OSError`'s file), and what the subcommands raise
already names the option, topic, message index or file. A traceback is printed only
with the global option ``--debug`` (``fastnoise --debug apply ...`` or ``fastnoise apply
... --debug``). Errors that are not a user's or the environment's (a bug) get the same
one line plus a hint to rerun with ``--debug``.

:func:`writable_dir` and :func:`writable_file` check an output path before the long
work starts, so that a run is refused at once rather than after minutes of computing.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "CommandError",
    "describe",
    "readable_file",
    "run_command",
    "writable_dir",
    "writable_file",
]


class CommandError(Exception):
    """A refusal whose message is complete: printed after ``fastnoise <cmd>: error: ``."""


#: exceptions that come from what the user gave or from the machine, not from a bug
USER_ERRORS: tuple[type[BaseException], ...] = (
    CommandError,
    OSError,
    ValueError,
    TypeError,
    LookupError,
    ImportError,
    RecursionError,
    MemoryError,
    OverflowError,
    NotImplementedError,
    UnicodeError,
)


def describe(exc: BaseException) -> str:
    """One line saying what ``exc`` means to a user: an :class:`OSError` as ``PATH:
    reason``, a :class:`RecursionError` as nesting too deep, anything else as its
    message (line breaks joined with ``; ``)."""
    if isinstance(exc, RecursionError):
        text = (
            "the input is nested too deeply to be read (Python's recursion limit was "
            "reached); flatten the file"
        )
    elif isinstance(exc, MemoryError):
        text = "out of memory: the input or the requested output is too large"
    elif isinstance(exc, OSError) and exc.strerror:
        reason = exc.strerror
        if exc.errno == errno.ENOSPC:
            reason = "no space left on the device (disk full)"
        names = [str(f) for f in (exc.filename, exc.filename2) if f is not None]
        text = f"{' -> '.join(names)}: {reason}" if names else reason
    else:
        text = str(exc) or type(exc).__name__
        if isinstance(exc, KeyError) and len(exc.args) == 1:
            text = f"missing key {exc.args[0]!r}"
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return "; ".join(lines) or type(exc).__name__


def run_command(name: str, run: Callable[[Any], int], args: Any, debug: bool) -> int:
    """``run(args)``, its errors turned into one line on stderr and exit status 1
    (130 on Ctrl-C, 141 when stdout's reader went away); ``debug`` re-raises them."""
    try:
        return run(args)
    except BrokenPipeError:
        # the reader went away (``fastnoise demo | head``): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
    except KeyboardInterrupt:
        if debug:
            raise
        print(f"fastnoise {name}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if debug:
            raise
        line = describe(exc)
        if not isinstance(exc, USER_ERRORS):
            line += f" ({type(exc).__name__}: an internal error; rerun with --debug and report it)"
        try:
            print(f"fastnoise {name}: error: {line}", file=sys.stderr, flush=True)
        except OSError:
            pass
        return 1


def _nearest_existing(path: Path) -> Path:
    p = path.absolute()
    while not p.exists() and p != p.parent:
        if p.is_symlink():  # a dangling link: its target's folder decides
            return p.parent
        p = p.parent
    return p


def writable_dir(path: Path | str, option: str) -> Path:
    """``path`` if it is a folder that can be written to or created; else
    :class:`CommandError` naming ``option`` and the path."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise CommandError(f"{option} {path}: exists and is not a folder")
    base = _nearest_existing(path)
    if not base.is_dir():
        raise CommandError(f"{option} {path}: cannot be created: {base} is not a folder")
    if not os.access(base, os.W_OK | os.X_OK):
        raise CommandError(f"{option} {path}: cannot be written: {base} is not writable")
    return path


def writable_file(path: Path | str, option: str) -> Path:
    """``path`` if it is a file that can be written (it exists and is writable, or its
    folder exists and is writable); else :class:`CommandError` naming ``option``."""
    path = Path(path)
    if path.is_dir():
        raise CommandError(f"{option} {path}: is a folder, not a file")
    if path.exists():
        if not os.access(path, os.W_OK):
            raise CommandError(f"{option} {path}: cannot be written (no permission)")
        return path
    parent = path.absolute().parent
    if not parent.is_dir():
        raise CommandError(f"{option} {path}: its folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CommandError(f"{option} {path}: cannot be written: {parent} is not writable")
    return path


def readable_file(path: Path | str, option: str) -> Path:
    """``path`` if it is a readable file; else :class:`CommandError` naming ``option``."""
    path = Path(path)
    if not path.exists():
        raise CommandError(f"{option} {path}: no such file")
    if not path.is_file():
        raise CommandError(f"{option} {path}: is not a file")
    if not os.access(path, os.R_OK):
        raise CommandError(f"{option} {path}: cannot be read (no permission)")
    return path
