"""Transpile one .pyx with Cython for the CMake build, so that a rebuild in a new
build environment (``pip install .`` makes one per install) compiles nothing that is
unchanged.

Usage (the build's custom command)::

    python cython_one.py OUTPUT.c CYTHON_ARGS... SOURCE.pyx

* Cython runs as ``python -m cython`` with the interpreter that builds, never as the
  ``cython`` script of the build environment, whose temporary path would change the
  command line, and so rerun the command, on every build.
* ``OUTPUT.c`` is replaced only when its text changes. The build marks the command
  ``restat``, so when a .pyx is transpiled again to the same text, nothing that is
  compiled from it is rebuilt.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        sys.stderr.write(__doc__ or "")
        return 2
    output = Path(argv[0])
    fresh = output.with_name(output.name + ".new")
    status = subprocess.call(
        [sys.executable, "-m", "cython", *argv[1:], "--output-file", str(fresh)]
    )
    if status != 0:
        fresh.unlink(missing_ok=True)
        return status
    if output.exists() and output.read_bytes() == fresh.read_bytes():
        fresh.unlink()
    else:
        os.replace(fresh, output)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
