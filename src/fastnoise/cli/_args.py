"""argparse ``type=`` converters shared by the subcommands.

Each parses one option value; a value that is not allowed raises
:class:`argparse.ArgumentTypeError` naming the value and the allowed range, which
argparse prints after the option's name (``argument --dt: '-1' is not allowed: ...``).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T", int, float)


def _convert(text: str, parse: Callable[[str], T], ok: Callable[[T], bool], allowed: str) -> T:
    try:
        value = parse(text)
    except ValueError:
        value = None
    if value is None or not ok(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not allowed: it must be {allowed}")
    return value


def finite_float(text: str) -> float:
    """A finite float, in (-inf, inf)."""
    return _convert(text, float, math.isfinite, "a finite number, in (-inf, inf)")


def positive_float(text: str) -> float:
    """A finite float > 0, in (0, inf)."""
    return _convert(
        text, float, lambda v: math.isfinite(v) and v > 0, "a finite number > 0, in (0, inf)"
    )


def nonnegative_float(text: str) -> float:
    """A finite float >= 0, in [0, inf)."""
    return _convert(
        text, float, lambda v: math.isfinite(v) and v >= 0, "a finite number >= 0, in [0, inf)"
    )


def nonnegative_int(text: str) -> int:
    """An integer >= 0."""
    return _convert(text, int, lambda v: v >= 0, "an integer >= 0")


def positive_int(text: str) -> int:
    """An integer >= 1."""
    return _convert(text, int, lambda v: v >= 1, "an integer >= 1")


def progress(quiet: bool) -> Callable[[str], None]:
    """A ``say(line)`` that prints ``[elapsed s] line`` to stderr, or nothing with
    ``--quiet``: the progress lines of the long subcommands."""
    import sys
    import time

    start = time.perf_counter()

    def say(line: str) -> None:
        if not quiet:
            print(f"[{time.perf_counter() - start:6.2f} s] {line}", file=sys.stderr, flush=True)

    return say
