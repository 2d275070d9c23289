"""Lidar noise beside the numpy code a user would write for it.

The frame is a 128 x 2048 scan (262,144 points, 1-80 m) in the lidar frame; the noise
is RGL's hitpoint angular noise about Y plus distance noise (mean 0.1, stddev 0.01,
rise 0.001 per m: the parameters of RGL's own test).
"""

from __future__ import annotations

import numpy as np
import pytest

from fastnoise.models.lidar.lidar_noise import LidarNoise, RangeNoise

ROWS, COLS = 128, 2048
N = ROWS * COLS
MEAN, STD, RISE = 0.1, 0.01, 0.001


def _frame(dtype):
    rng = np.random.default_rng(7)
    az = np.linspace(0.0, 2 * np.pi, COLS, endpoint=False)
    el = np.linspace(-0.4, 0.4, ROWS)
    a, e = np.meshgrid(az, el)
    d = rng.uniform(1.0, 80.0, a.shape)
    pts = np.stack([d * np.cos(e) * np.sin(a), d * np.sin(e), d * np.cos(e) * np.cos(a)], -1)
    return np.ascontiguousarray(pts.reshape(-1, 3), dtype=dtype)


def _noise():
    return LidarNoise(
        hitpoint_angular_noise_mean=MEAN,
        hitpoint_angular_noise_stddev=STD,
        distance_noise_mean=MEAN,
        distance_noise_stddev_base=STD,
        distance_noise_stddev_rise_per_meter=RISE,
        seed=1,
    )


def _numpy_hitpoint_and_distance(rng, pts):
    """What a numpy user writes: rotate about Y by e, then move along the ray by eps."""
    e = rng.normal(MEAN, STD, len(pts))
    c, s = np.cos(e), np.sin(e)
    x, y, z = pts[:, 0], pts[:, 1], pts[:, 2]
    out = np.empty_like(pts)
    out[:, 0] = c * x + s * z
    out[:, 1] = y
    out[:, 2] = c * z - s * x
    d = np.linalg.norm(pts, axis=1)
    eps = rng.normal(MEAN, STD + RISE * d)
    out *= (1.0 + eps / d)[:, None]
    return out, d + eps


@pytest.mark.benchmark(group="lidar-hitpoint+distance-262144-f64")
def test_fastnoise_hitpoint_distance_f64(benchmark):
    pts, noise = _frame(np.float64), _noise()
    frame = iter(range(10**9))
    res = benchmark(lambda: noise.apply(pts, frame=next(frame)))
    assert res.points.shape == (N, 3)


@pytest.mark.benchmark(group="lidar-hitpoint+distance-262144-f64")
def test_numpy_hitpoint_distance_f64(benchmark):
    pts, rng = _frame(np.float64), np.random.default_rng(1)
    out, _ = benchmark(_numpy_hitpoint_and_distance, rng, pts)
    assert out.shape == (N, 3)


@pytest.mark.benchmark(group="lidar-hitpoint+distance-262144-f32")
def test_fastnoise_hitpoint_distance_f32(benchmark):
    pts, noise = _frame(np.float32), _noise()
    frame = iter(range(10**9))
    res = benchmark(lambda: noise.apply(pts, frame=next(frame)))
    assert res.points.dtype == np.float32


@pytest.mark.benchmark(group="lidar-hitpoint+distance-262144-f32")
def test_numpy_hitpoint_distance_f32(benchmark):
    pts, rng = _frame(np.float32), np.random.default_rng(1)
    out, _ = benchmark(_numpy_hitpoint_and_distance, rng, pts)
    assert out.shape == (N, 3)


@pytest.mark.benchmark(group="lidar-hitpoint+distance-262144-f64-reused-buffers")
def test_fastnoise_hitpoint_distance_f64_reused_buffers(benchmark):
    """A per-frame loop that passes the same output buffers every frame."""
    pts, noise = _frame(np.float64), _noise()
    bufs = {
        "out": np.empty_like(pts),
        "out_distances": np.empty(N),
        "out_hit_mask": np.empty(N, dtype=bool),
    }
    frame = iter(range(10**9))
    res = benchmark(lambda: noise.apply(pts, frame=next(frame), **bufs))
    assert res.points is bufs["out"]


@pytest.mark.benchmark(group="lidar-hitpoint+distance-262144-f64-reused-buffers")
def test_numpy_hitpoint_distance_f64_reused_buffers(benchmark):
    pts, rng = _frame(np.float64), np.random.default_rng(1)
    out, _ = benchmark(_numpy_hitpoint_and_distance, rng, pts)
    assert out.shape == (N, 3)


@pytest.mark.benchmark(group="lidar-hitpoint+distance-262144-f64-2threads")
def test_fastnoise_hitpoint_distance_f64_2threads(benchmark):
    pts, noise = _frame(np.float64), _noise()
    res = benchmark(lambda: noise.apply(pts, threads=2))
    assert res.points.shape == (N, 3)


@pytest.mark.benchmark(group="lidar-hitpoint+distance-262144-f64-2threads")
def test_numpy_hitpoint_distance_f64_2threads(benchmark):
    pts, rng = _frame(np.float64), np.random.default_rng(1)
    out, _ = benchmark(_numpy_hitpoint_and_distance, rng, pts)
    assert out.shape == (N, 3)


def _numpy_gazebo_ranges(rng, r, lo, hi, sigma):
    out = r + rng.normal(0.0, sigma, r.shape)
    out = np.where(np.isfinite(r), np.clip(out, lo, hi), r)
    return np.where(np.isnan(r), hi, out)


def _scan():
    rng = np.random.default_rng(3)
    r = rng.uniform(0.0, 40.0, N)
    r[::97] = np.inf
    r[::101] = np.nan
    return r


@pytest.mark.benchmark(group="lidar-gazebo-range-262144")
def test_fastnoise_gazebo_range(benchmark):
    r, noise = _scan(), RangeNoise(0.0, 0.01, 0.08, 30.0, seed=1)
    out = benchmark(noise.apply, r)
    assert out.shape == r.shape


@pytest.mark.benchmark(group="lidar-gazebo-range-262144")
def test_numpy_gazebo_range(benchmark):
    r, rng = _scan(), np.random.default_rng(1)
    out = benchmark(_numpy_gazebo_ranges, rng, r, 0.08, 30.0, 0.01)
    assert out.shape == r.shape
