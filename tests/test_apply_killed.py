"""``fastnoise apply`` killed with SIGKILL halfway (issue 27, item 4): no OUT exists
afterwards, only its temporary folder ``.<OUT name>.<random>.fastnoise-tmp`` beside
it, which the next run writing OUT removes; that run's output is the same bits as a
run never interrupted."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from fastnoise.io.apply.apply import apply
from fastnoise.io.apply.output import OWNER_FILE, STAGING_SUFFIX, clean_stale

SUITE = 'seed = 9\n[files."*"]\nmodel = "lidar"\ndistance_noise_stddev_base = 0.05\n'

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")


def temporaries(folder: Path, out: str) -> list[Path]:
    return sorted(folder.glob(f".{out}.*{STAGING_SUFFIX}"))


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    """300 KITTI clouds of 20,000 points: a run of a few seconds."""
    root = tmp_path_factory.mktemp("killed")
    (root / "suite.toml").write_text(SUITE)
    (root / "in").mkdir()
    rng = np.random.default_rng(12)
    for k in range(300):
        rng.uniform(-50, 50, (20_000, 4)).astype("<f4").tofile(root / f"in/{k:04d}.bin")
    return root


def test_sigkill_leaves_only_the_documented_temporary_and_the_next_run_cleans_it(recording):
    root = recording
    out = root / "out"
    cmd = [sys.executable, "-m", "fastnoise", "apply", "--config", "suite.toml", "in", "out", "-q"]
    proc = subprocess.Popen(cmd, cwd=root, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        # wait until the run has written some files into its temporary folder
        while time.monotonic() < deadline:
            tmps = temporaries(root, "out")
            if tmps and len(list((tmps[0] / "out").glob("*.bin"))) >= 20:
                break
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.02)
        else:
            pytest.fail("the run wrote nothing in 120 s")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    assert not out.exists()  # no partial OUT
    left = temporaries(root, "out")
    assert len(left) == 1
    owner = (left[0] / OWNER_FILE).read_text().split()
    assert owner[1] == str(proc.pid)
    assert sorted(p.name for p in root.iterdir()) == sorted(["in", "suite.toml", left[0].name])
    # the next run removes it and writes the same bits as an uninterrupted run
    report = apply(root / "suite.toml", root / "in", out)
    assert report.noised == 300
    assert temporaries(root, "out") == []
    apply(root / "suite.toml", root / "in", root / "again")
    for k in (0, 150, 299):
        name = f"{k:04d}.bin"
        assert (out / name).read_bytes() == (root / "again" / name).read_bytes()


def test_a_live_runs_temporary_is_left_alone(tmp_path):
    live = tmp_path / f".out.abc{STAGING_SUFFIX}"
    live.mkdir()
    import socket

    (live / OWNER_FILE).write_text(f"{socket.gethostname()} {os.getpid()}\n")
    dead = tmp_path / f".out.def{STAGING_SUFFIX}"
    dead.mkdir()
    child = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    (dead / OWNER_FILE).write_text(f"{socket.gethostname()} {child.stdout.strip()}\n")
    other = tmp_path / f".out.ghi{STAGING_SUFFIX}"
    other.mkdir()
    (other / OWNER_FILE).write_text("some-other-host 1\n")
    unrelated = tmp_path / f".outer.x{STAGING_SUFFIX}"
    unrelated.mkdir()
    assert clean_stale(tmp_path / "out") == [dead]
    assert live.exists() and other.exists() and unrelated.exists() and not dead.exists()
