"""The C kernel of Gazebo's RGB-D colour (``ImageNoise(variant="ogre2_rgbd")``,
csrc/camera_rgbd.c) against the numpy rule it replaced, bit for bit: every dtype,
channel count, memory layout, tile, thread count and special value. CI runs this file
on the baseline (no-SIMD) path too; the model digests pin the same bits."""

from __future__ import annotations

import math

import numpy as np
import pytest
from _libm import libm_pow

from fastnoise import ImageNoise
from fastnoise.core.generator import fill_normals
from fastnoise.models.camera.depth import GAZEBO_UNIFORM_FLOOR, radius_cap

PAIR = 2**63


def numpy_rgbd(img, key, frame, offset=0, col=0, pitch=0, mean=0.0, stddev=0.007):
    """gz-rendering's gaussian_noise_depth_fs.glsl colour rule in numpy (fastnoise's
    path up to 0.4): pixel j's normal capped by its partner 2**63 + j, z = mean +
    stddev Z, n = sign(z) |z|**2.1 in the image's float type, c = clip(x + n, 0, 1) on
    the stored value (x / S for integers, then int(c S)); NaN pixels kept, alpha kept."""
    h, w = img.shape[:2]
    z1 = np.empty((h, w), np.float32)
    z2 = np.empty((h, w), np.float32)
    for y in range(h):
        first = (offset + y) * (pitch or w) + col
        fill_normals(key, frame, first, z1[y])
        fill_normals(key, frame, PAIR + first, z2[y])
    cap = radius_cap(GAZEBO_UNIFORM_FLOOR)
    a = z1.astype(np.float64)
    r = np.sqrt(a * a + z2.astype(np.float64) ** 2)
    z = (a * (cap / np.maximum(r, cap))).astype(np.float32)
    ft = np.float64 if img.dtype == np.float64 else np.float32
    zs = ft(mean) + ft(stddev) * z.astype(ft)
    with np.errstate(over="ignore", invalid="ignore"):
        n = np.copysign(libm_pow(np.abs(zs), 2.1), zs)  # the kernel's pow/powf
        out = img.copy()
        nc = 1 if img.ndim == 2 else min(img.shape[2], 3)
        x = img if img.ndim == 2 else img[:, :, :nc]
        if img.ndim == 3:
            n = n[:, :, None]
        if img.dtype.kind == "u":
            s = np.float32(np.iinfo(img.dtype).max)
            c = np.clip(x.astype(np.float32) / s + n, np.float32(0), np.float32(1))
            res = (c * s).astype(img.dtype)
        else:
            res = np.where(np.isnan(x), x, np.clip(x + n, ft(0), ft(1)))
    if img.ndim == 2:
        out[...] = res
    else:
        out[:, :, :nc] = res
    return out


def _image(dtype, shape, rng):
    if np.dtype(dtype).kind == "u":
        img = rng.integers(0, np.iinfo(dtype).max + 1, shape, dtype=dtype)
        img.flat[:4] = [0, np.iinfo(dtype).max, 1, 0][: min(4, img.size)]
        return img
    img = rng.uniform(-0.2, 1.2, shape).astype(dtype)
    specials = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, 0.5]
    img.flat[: len(specials)] = specials
    return img


DTYPES = [np.uint8, np.uint16, np.float32, np.float64]
SHAPES = [(7, 9), (7, 9, 1), (7, 9, 3), (5, 1030, 4), (1, 2100, 3)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("noise", [(0.0, 0.007), (0.1, 0.2), (-0.3, 1.5), (0.0, 0.0), (0, 1e18)])
def test_the_kernel_gives_the_numpy_bits(dtype, shape, noise):
    rng = np.random.default_rng(hash((np.dtype(dtype).name, shape)) % 2**32)
    img = _image(dtype, shape, rng)
    m = ImageNoise(*noise, variant="ogre2_rgbd", seed=11)
    got = m.apply(img, frame=5)
    want = numpy_rgbd(img, m.key, 5, mean=noise[0], stddev=noise[1])
    assert got.dtype == img.dtype and got.shape == img.shape
    assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["strided", "reversed", "fortran", "inplace", "out"])
def test_every_layout(dtype, layout):
    rng = np.random.default_rng(3)
    base = _image(dtype, (12, 40, 4), rng)
    m = ImageNoise(0.05, 0.1, variant="ogre2_rgbd", seed=2)
    want = None
    if layout == "strided":
        img = base[::2, ::3, :3]
    elif layout == "reversed":
        img = base[::-1, ::-1, ::-1]
    elif layout == "fortran":
        img = np.asfortranarray(base)
    else:
        img = base.copy()
    want = numpy_rgbd(np.ascontiguousarray(img), m.key, 9, mean=0.05, stddev=0.1)
    if layout == "inplace":
        before = img.copy()
        got = m.apply(img, frame=9, out=img)
        assert got is img
        assert numpy_rgbd(before, m.key, 9, mean=0.05, stddev=0.1).tobytes() == img.tobytes()
        return
    if layout == "out":
        out = np.empty_like(img)[:, ::-1][:, ::-1]
        got = m.apply(img, frame=9, out=out)
        assert got is out
    else:
        keep = img.copy()
        got = m.apply(img, frame=9)
        assert np.array_equal(img, keep, equal_nan=True)  # the input is not modified
    assert np.ascontiguousarray(got).tobytes() == want.tobytes()


@pytest.mark.parametrize("threads", [1, 3])
def test_tiles_and_threads(threads):
    rng = np.random.default_rng(8)
    full = _image(np.uint8, (300, 500, 3), rng)
    m = ImageNoise(0.0, 0.05, variant="ogre2_rgbd", seed=4)
    whole = m.apply(full, frame=2, threads=threads)
    assert whole.tobytes() == numpy_rgbd(full, m.key, 2, stddev=0.05).tobytes()
    tile = m.apply(
        full[100:180, 200:330], frame=2, row_offset=100, col_offset=200, full_width=500,
        threads=threads,
    )  # fmt: skip
    assert np.array_equal(tile, whole[100:180, 200:330])
    rows = m.apply(full[40:90], frame=2, row_offset=40, threads=threads)
    assert np.array_equal(rows, whole[40:90])


def test_the_last_pixel_index_is_checked():
    m = ImageNoise(0.0, 0.05, variant="ogre2_rgbd", seed=4)
    img = np.zeros((2, 4), np.uint8)
    last_ok = PAIR // 4 - 2  # rows last_ok, last_ok + 1: indices up to 2**63 - 1
    m.apply(img, frame=0, row_offset=last_ok)
    with pytest.raises(OverflowError, match="below 2\\*\\*63"):
        m.apply(img, frame=0, row_offset=last_ok + 1)
    assert math.isfinite(float(m.apply(np.ones((1, 1)), frame=1)[0, 0]))
