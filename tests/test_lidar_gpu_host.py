"""The GPU lidar and range kernels' arithmetic (csrc/device/lidar_dev.h over
csrc/lidar_point.h), built as host C and run thread by thread, against LidarNoise.apply
and RangeNoise.apply: the same bits, with the parameters fastnoise.cuda passes. No GPU
needed (tests/test_cuda.py runs the kernels themselves on one)."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest
from _host_shim import host_shim

import fastnoise as fn
from fastnoise.cuda._lidar import point_params, range_params

u64, i32, vp = ctypes.c_uint64, ctypes.c_int32, ctypes.c_void_p


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    dll = host_shim(tmp_path_factory.mktemp("shim"))
    for suf in ("f64", "f32"):
        f = getattr(dll, f"fn_host_lidar_points_{suf}")
        f.argtypes = [u64, u64, u64, u64, vp, i32, i32, vp, vp, vp, vp, vp, vp, vp]
        f.restype = None
        g = getattr(dll, f"fn_host_range_{suf}")
        g.argtypes = [u64, u64, u64, u64, vp, i32, i32, vp, vp]
        g.restype = None
    return dll


def _ptr(a):
    return None if a is None else a.ctypes.data


def _cloud(rng, n, dtype):
    pts = rng.normal(0.0, 20.0, (n, 3)).astype(dtype)
    pts[::31] = np.nan  # non-hits
    pts[5] = 0.0  # a hit at the origin
    pts[::53] *= 1e10  # beyond the largest range
    dist = (np.linalg.norm(pts.astype(np.float64), axis=1) * 1.3 + 0.5).astype(dtype)
    mask = rng.random(n) > 0.1
    return pts, dist, mask


POSE = np.array([[0.0, -1.0, 0.0, 1.5], [1.0, 0.0, 0.0, -2.0], [0.0, 0.0, 1.0, 0.25], [0, 0, 0, 1]])
MODELS = {
    "hitpoint+distance": dict(
        hitpoint_angular_noise_mean=0.01, hitpoint_angular_noise_stddev=0.02,
        distance_noise_mean=0.05, distance_noise_stddev_base=0.02,
        distance_noise_stddev_rise_per_meter=0.001,
    ),
    "large angles": dict(hitpoint_angular_noise_mean=2.0, hitpoint_angular_noise_stddev=0.5),
    "distance only": dict(distance_noise_stddev_base=0.1),
}  # fmt: skip


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", list(MODELS))
@pytest.mark.parametrize("pose", [None, POSE])
@pytest.mark.parametrize("given", [False, True])
def test_lidar_points_match_cpu(shim, dtype, name, pose, given):
    rng = np.random.default_rng(4)
    n, first, frame = 1003, 13, 2**40 + 5
    pts, dist, mask = _cloud(rng, n, dtype)
    m = fn.LidarNoise(**MODELS[name], axis=(0.6, 0.8, 0.0), seed=12)
    kw = {"distances": dist, "hit_mask": mask} if given else {}
    cpu = m.apply(pts, lidar_pose=pose, frame=frame, first_index=first,
                  return_local=True, **kw)  # fmt: skip
    pp = point_params(m, pose)
    po, do = np.full_like(pts, -1), np.full(n, -1, dtype)
    mo = np.full(n, 7, np.uint8)
    lo = np.full_like(pts, -1) if pp.local else None
    suf = "f64" if dtype == np.float64 else "f32"
    getattr(shim, f"fn_host_lidar_points_{suf}")(
        m.key, frame, first, n, _ptr(pp.prm), pp.angular, pp.distance, _ptr(pts),
        _ptr(dist) if given else None, _ptr(mask.view(np.uint8)) if given else None,
        _ptr(po), _ptr(do), _ptr(mo), _ptr(lo),
    )  # fmt: skip
    assert po.tobytes() == cpu.points.tobytes()
    assert do.tobytes() == cpu.distances.tobytes()
    assert mo.astype(bool).tobytes() == cpu.hit_mask.tobytes()
    if pp.local:
        assert lo.tobytes() == cpu.local_points.tobytes()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"bias_mean": 0.3, "bias_stddev": 0.1, "precision": 0.05},
        {"precision": 0.25, "inf_outside_limits": True},
        {"enabled": False, "inf_outside_limits": True},
    ],
)
def test_ranges_match_cpu(shim, dtype, kw):
    rng = np.random.default_rng(8)
    r = rng.uniform(-5.0, 40.0, 2051).astype(dtype)
    r[::7] = np.nan
    r[::11] = np.inf
    r[::13] = -np.inf
    r[::17] = np.round(r[::17] * 4) / 4 + 0.125  # ties of a 0.25 grid
    m = fn.RangeNoise(0.01, 0.02, 0.5, 30.0, seed=3, **kw)
    cpu = m.apply(r, frame=9, first_index=2**33 + 1)
    out = np.full_like(r, -1)
    suf = "f64" if dtype == np.float64 else "f32"
    getattr(shim, f"fn_host_range_{suf}")(
        m.key, 9, 2**33 + 1, r.size, _ptr(range_params(m)), m.enabled,
        m.inf_outside_limits, _ptr(r), _ptr(out),
    )  # fmt: skip
    assert out.tobytes() == cpu.tobytes()


def test_nan_bits_are_defined(shim):
    # Arithmetic on a NaN keeps an operand's payload on x86 and makes a canonical NaN
    # on a GPU, so the CPU and GPU paths agree only where fastnoise fixes the bits:
    # a NaN pixel comes back as itself; a distance or local coordinate computed from a
    # NaN is the one quiet NaN (0x7fc00000 / 0x7ff8000000000000).
    odd32 = np.array([0x7FC12345], np.uint32).view(np.float32)[0]
    odd64 = np.array([0x7FF8000012345678], np.uint64).view(np.float64)[0]
    for dt, odd, quiet in ((np.float32, odd32, 0x7FC00000), (np.float64, odd64, 0x7FF8 << 48)):
        img = np.full((2, 3), 0.5, dt)
        img[1, 2] = odd
        for kw in ({}, {"variant": "ogre2"}):
            out = fn.ImageNoise(stddev=0.1, seed=1, **kw).apply(img, frame=0)
            assert out[1, 2].tobytes() == img[1, 2].tobytes()
        pts = np.array([[1.0, 2.0, 3.0], [odd, 1.0, 1.0], [np.inf, 0.0, 1.0]], dt)
        m = fn.LidarNoise(distance_noise_stddev_base=0.1, seed=2)
        pose = np.array([[0.0, -1.0, 0.0, 1.5], [1.0, 0.0, 0.0, -2.0], [0.0, 0.0, 1.0, 0.0]])
        for simd_pts in (pts, np.repeat(pts, 11, axis=0)):  # scalar tail and vector loop
            res = m.apply(simd_pts, lidar_pose=pose, frame=1, return_local=True)
            bits = res.distances.view(np.uint32 if dt == np.float32 else np.uint64)
            nan_rows = np.isnan(res.distances)
            assert nan_rows.any() and np.all(bits[nan_rows] == quiet)
            lbits = res.local_points.view(bits.dtype)
            assert np.all(lbits[np.isnan(res.local_points)] == quiet)
            assert res.points[nan_rows].tobytes() == simd_pts[nan_rows].tobytes()
