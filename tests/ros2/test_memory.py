"""fastnoise.ros2.memory: the allocator settings ``fastnoise node`` makes, so that
frame-sized messages reuse freed heap memory instead of faulting new pages in."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

from fastnoise.ros2 import run_node
from fastnoise.ros2.memory import keep_freed_memory

# Four 3 MiB buffers made and freed again and again (as a node's messages are): the
# page faults of the last 20 rounds, with and without keep_freed_memory().
_ROUNDS = """
import resource, sys
from fastnoise.ros2.memory import keep_freed_memory
if sys.argv[1] == "1":
    assert keep_freed_memory()
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for i in range(30):
    if i == 10:
        f0 = faults()
    bufs = [bytearray(3 << 20) for _ in range(4)]
    del bufs
print(faults() - f0)
"""


def _faults(keep: bool) -> int:
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    run = subprocess.run(
        [sys.executable, "-c", _ROUNDS, "1" if keep else "0"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    return int(run.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(
    sys.platform != "linux" or platform.libc_ver()[0] != "glibc",
    reason="glibc's mallopt only",
)
def test_freed_buffers_are_reused_without_page_faults() -> None:
    """glibc by default trims the 12 MiB freed at the top of the heap every round, and
    the next round faults every page in again (3 MiB = 768 pages a buffer: ~60k
    faults in 20 rounds); with keep_freed_memory() the heap keeps them: (almost) none."""
    default, kept = _faults(False), _faults(True)
    assert default >= 20 * 4 * 768 * 0.9, default
    assert kept <= 0.01 * default, (kept, default)


def test_a_users_glibc_tunables_stand(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=1000000")
    assert keep_freed_memory() is False


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("mmap_threshold", -1),
        ("mmap_threshold", (32 << 20) + 1),
        ("mmap_threshold", 1.5),
        ("trim_threshold", True),
        ("trim_threshold", 2**31),
    ],
)
def test_bad_thresholds_are_refused(name: str, value: object) -> None:
    with pytest.raises(ValueError, match=rf"{name}={value!r} is not allowed: use an int"):
        keep_freed_memory(**{name: value})


def test_run_node_keep_memory_must_be_a_bool() -> None:
    with pytest.raises(TypeError, match=r"keep_memory='yes' is not allowed: .*True or False"):
        run_node("suite.toml", keep_memory="yes")
