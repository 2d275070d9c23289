"""Leak and soak test (slow: run with FASTNOISE_SLOW=1; out of the default CI run).

Per model: 10**6 per-sample calls and 10**3 batches of at least 1 MB, after a warm-up;
the resident set size must stay flat within a few MiB (the recycled result pool keeps
up to 256 MiB by design, so it is released before each reading).
"""

from __future__ import annotations

import gc
import os

import numpy as np
import pytest

import fastnoise as fn
from fastnoise.core import buffers

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("FASTNOISE_SLOW") != "1", reason="FASTNOISE_SLOW=1"),
    pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc"),
]

CALLS = int(os.environ.get("FASTNOISE_SOAK_CALLS", 10**6))
BATCHES = int(os.environ.get("FASTNOISE_SOAK_BATCHES", 10**3))
TOLERANCE_MIB = 8.0


def rss_mib() -> float:
    gc.collect()
    buffers.release_spare_memory()
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def _truth(n):
    from fastnoise.models.dvl.simulator import TRUTH_DTYPE

    t = np.zeros(n, dtype=TRUTH_DTYPE)
    for name in TRUTH_DTYPE.names:
        t[name] = 0.5
    return t


def _cases():
    w3, a3 = np.zeros(3), np.array([0.0, 0.0, 9.81])
    gyro, accel = fn.wt901c()
    imu = fn.ImuNoise(gyro=gyro, accel=accel, seed=1)
    w = np.zeros((50_000, 3))
    a = np.tile(a3, (50_000, 1))
    g = fn.GaussianNoiseGenerator(2)
    buf = np.empty(1 << 17)
    body = fn.RigidBodySimulator([10.0, 8.0, 12.0])
    sensor = fn.SensorSimulator(body, seed=3, noise_stddev=0.01)
    awn = fn.AugmentedWhiteNoise(0.1, 0.5, anchor_probability=0.01, seed=4)
    dvl = fn.DvlSimulator(seed=5)
    truth1 = {f: 0.5 for f in _truth(1).dtype.names}
    truth = _truth(12_000)
    pts = np.random.default_rng(0).uniform(-30, 30, (50_000, 3))
    lidar = fn.LidarNoise(distance_noise_stddev_base=0.02, seed=6)
    rng_ = fn.RangeNoise(0.0, 0.01, 0.5, 30.0, seed=7)
    ranges = np.linspace(0.0, 40.0, 1 << 17)
    cam = fn.ImageNoise(0.0, 0.01, seed=8)
    img = np.zeros((600, 600, 3), np.uint8)
    return {
        "generator": (g.generate, lambda: g.standard_normal(out=buf)),
        "imu": (lambda: imu.step(w3, a3, 0.01), lambda: imu.apply(w, a, 0.01)),
        "rigid_body+sensor": (
            lambda: (body.update(0.001, w3), sensor.update(0.001), sensor.read_orientation()),
            lambda: [sensor.read_angular_velocity() for _ in range(10)],
        ),
        "augmented_white_noise": (lambda: awn.measure(1.0), lambda: awn.measure_many(ranges)),
        "dvl": (lambda: dvl.measure(truth1), lambda: dvl.measure_many(truth)),
        "lidar": (lambda: lidar.apply(pts[:1], frame=1), lambda: lidar.apply(pts, frame=2)),
        "range": (
            lambda: rng_.apply_one(5.0, frame=1, index=2),
            lambda: rng_.apply(ranges, frame=3),
        ),
        "camera": (lambda: cam.apply(img[:1, :1]), lambda: cam.apply(img)),
    }


@pytest.mark.parametrize("name", sorted(_cases()))
def test_memory_stays_flat(name):
    one, batch = _cases()[name]
    for _ in range(1000):  # warm-up: caches, pools, lazily built objects
        one()
    for _ in range(20):
        batch()
    before = rss_mib()
    calls = CALLS if name != "rigid_body+sensor" else CALLS // 3
    for _ in range(calls):
        one()
    for _ in range(BATCHES):
        batch()
    after = rss_mib()
    assert after - before < TOLERANCE_MIB, f"{name}: RSS {before:.1f} -> {after:.1f} MiB"
