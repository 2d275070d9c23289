"""cmake/cython_one.py, the Cython step of the CMake build (issue 29: a reinstall in a new
build environment compiles nothing that is unchanged): it writes the .c file, leaves it
untouched (same bytes, same mtime) when Cython gives the same text again, replaces it
when the .pyx changes, and passes a Cython error on without leaving a .c behind.
Needs Cython (a build requirement, not a test one): skipped without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("Cython")

SCRIPT = Path(__file__).resolve().parents[1] / "cmake" / "cython_one.py"
pytestmark = pytest.mark.python_only


def _transpile(pyx: Path, out: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(SCRIPT), str(out), "-X", "language_level=3", str(pyx)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


def test_same_text_keeps_the_file_and_a_change_replaces_it(tmp_path):
    pyx = tmp_path / "m.pyx"
    pyx.write_text("def f(double x):\n    return 2 * x\n")
    out = tmp_path / "m.c"
    assert _transpile(pyx, out).returncode == 0
    first = out.read_bytes()
    assert b"__pyx_pw_1m_1f" in first or b"PyInit_m" in first
    os.utime(out, ns=(1_000_000_000, 1_000_000_000))  # an old mtime, to see a rewrite

    assert _transpile(pyx, out).returncode == 0
    assert out.stat().st_mtime_ns == 1_000_000_000
    assert out.read_bytes() == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.c", "m.pyx"]

    pyx.write_text("def f(double x):\n    return 3 * x\n")
    assert _transpile(pyx, out).returncode == 0
    assert out.stat().st_mtime_ns != 1_000_000_000
    assert out.read_bytes() != first


def test_a_cython_error_fails_and_leaves_no_output(tmp_path):
    pyx = tmp_path / "bad.pyx"
    pyx.write_text("def f(:\n")
    out = tmp_path / "bad.c"
    run = _transpile(pyx, out)
    assert run.returncode != 0
    assert not out.exists() and not (tmp_path / "bad.c.new").exists()


def test_no_arguments_prints_the_usage():
    run = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=60, check=False
    )
    assert run.returncode == 2 and "Usage" in run.stderr
