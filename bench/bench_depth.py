"""Depth-camera noise (Gazebo's depth camera, metres) on whole frames: fastnoise beside
the numpy a user would write (normals from default_rng, added to the finite depths,
NaN/inf kept, Gazebo's clip after the noise). Frames per second = the OPS column."""

from __future__ import annotations

import numpy as np
import pytest

from fastnoise import DepthNoise

MEAN, STDDEV, NEAR, FAR = 0.0, 0.01, 0.1, 10.0  # m
SIZES = {"vga": (480, 640), "720p": (720, 1280)}


def numpy_depth_noise(depth, rng, mean=MEAN, stddev=STDDEV, near=NEAR, far=FAR):
    noise = rng.standard_normal(depth.shape, dtype=np.float32) * stddev + mean
    res = np.where(np.isfinite(depth), depth + noise, depth).astype(depth.dtype)
    res[res > far - 1e-6] = np.inf
    res[res < near + 1e-6] = -np.inf
    return res


def frame(size):
    rng = np.random.default_rng(0)
    d = rng.uniform(0.2, 12.0, SIZES[size]).astype(np.float32)
    d[::7, ::5] = np.nan  # no return
    return d


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.benchmark(group="depth-f32")
def test_fastnoise_depth(benchmark, size):
    d = frame(size)
    m = DepthNoise(MEAN, STDDEV, seed=1, near=NEAR, far=FAR)
    out = benchmark(m.apply, d, frame=0)
    assert out.shape == d.shape and out.dtype == np.float32


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.benchmark(group="depth-f32")
def test_numpy_depth(benchmark, size, rng):
    d = frame(size)
    out = benchmark(numpy_depth_noise, d, rng)
    assert out.shape == d.shape and out.dtype == np.float32
