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


# ---- Gazebo's bounded normal (uniform_floor=0.001, gaussian_noise_depth_fs.glsl) ---------

FLOOR = 0.001
RMAX = float(np.sqrt(-2.0 * np.log(FLOOR)))


def numpy_gazebo_depth_noise(depth, rng, mean=MEAN, stddev=STDDEV, near=NEAR, far=FAR):
    # the shader's Box-Muller with uniforms floored at 0.001, as a user would write it
    u = np.maximum(rng.random(depth.shape, dtype=np.float32), np.float32(FLOOR))
    v = rng.random(depth.shape, dtype=np.float32)
    z = np.sqrt(-2.0 * np.log(u)) * np.cos(np.float32(2.0 * np.pi) * v)
    res = np.where(np.isfinite(depth), depth + (z * stddev + mean), depth).astype(depth.dtype)
    res[res > far - 1e-6] = np.inf
    res[res < near + 1e-6] = -np.inf
    return res


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.benchmark(group="depth-f32-gazebo-floor")
def test_fastnoise_depth_gazebo_floor(benchmark, size):
    d = frame(size)
    m = DepthNoise(MEAN, STDDEV, seed=1, near=NEAR, far=FAR, uniform_floor=FLOOR)
    out = benchmark(m.apply, d, frame=0)
    finite = np.isfinite(out) & np.isfinite(d)
    assert np.all(np.abs(out[finite] - d[finite]) <= RMAX * STDDEV + 1e-5)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.benchmark(group="depth-f32-gazebo-floor")
def test_numpy_depth_gazebo_floor(benchmark, size, rng):
    d = frame(size)
    out = benchmark(numpy_gazebo_depth_noise, d, rng)
    assert out.shape == d.shape and out.dtype == np.float32
