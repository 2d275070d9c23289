"""CARLA's ray-cast lidar noise beside the numpy code a user would write for it.

The frame is a 64 x 2048 scan (131,072 points, 1-120 m) with x, y, z, intensity; the
parameters are CARLA's blueprint defaults plus noise_stddev 0.02 m, so every rule runs
(general drop-off, intensity, range noise, intensity drop-off). Single thread.
"""

from __future__ import annotations

import numpy as np
import pytest

from fastnoise import CarlaLidarNoise

ROWS, COLS = 64, 2048
N = ROWS * COLS
ATTEN, GENERAL, LIMIT, ZERO, SD = 0.004, 0.45, 0.8, 0.4, 0.02


def _frame(dtype):
    rng = np.random.default_rng(3)
    az = np.linspace(-np.pi, np.pi, COLS, endpoint=False)
    el = np.linspace(-0.4, 0.2, ROWS)
    a, e = np.meshgrid(az, el)
    d = rng.uniform(1.0, 120.0, a.shape)
    pts = np.zeros((N, 4))
    pts[:, 0] = (d * np.cos(e) * np.cos(a)).ravel()
    pts[:, 1] = (d * np.cos(e) * np.sin(a)).ravel()
    pts[:, 2] = (d * np.sin(e)).ravel()
    return pts.astype(dtype)


def _numpy_carla(rng, pts):
    """What a numpy user writes: the same four rules, vectorized."""
    xyz = pts[:, :3]
    d = np.linalg.norm(xyz, axis=1)
    keep = rng.random(len(pts)) >= GENERAL
    intensity = np.exp(-ATTEN * d)
    moved = xyz * (1.0 + rng.normal(0.0, SD, len(pts)) / d)[:, None]
    p_keep = np.where(intensity > LIMIT, 1.0, 1.0 - ZERO + ZERO / LIMIT * intensity)
    keep &= rng.random(len(pts)) < p_keep
    out = np.empty_like(pts)
    out[:, :3] = moved
    out[:, 3] = intensity
    return out[keep], keep


def _model():
    return CarlaLidarNoise(noise_stddev=SD, seed=1)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.benchmark(group="carla-lidar-131072")
def test_fastnoise_carla(benchmark, dtype):
    pts, m = _frame(dtype), _model()
    frame = iter(range(10**9))
    res = benchmark(lambda: m.apply(pts, frame=next(frame)))
    assert res.points.dtype == dtype and res.mask.shape == (N,)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["f64", "f32"])
@pytest.mark.benchmark(group="carla-lidar-131072")
def test_numpy_carla(benchmark, dtype):
    pts, rng = _frame(dtype), np.random.default_rng(1)
    out, keep = benchmark(_numpy_carla, rng, pts)
    assert keep.shape == (N,)
