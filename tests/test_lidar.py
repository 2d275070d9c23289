"""Lidar noise: RGL's acceptance protocol, the geometry of each noise kind against an
independent numpy implementation of the documented rule, keying per point, and
Gazebo's range clamp rules."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys

import numpy as np
import pytest

from fastnoise.core import simd
from fastnoise.core.generator import fill_normals
from fastnoise.models.lidar.carla import CarlaLidarNoise
from fastnoise.models.lidar.lidar_noise import HITPOINT_BASED, RAY_BASED, LidarNoise, RangeNoise

MEAN, STD, RISE = 0.1, 0.01, 0.001
TOL = 0.002  # RGL's tolerance on sample mean and stddev


def _z(noise, frame, kind, n, first=0):
    """The documented draws: float32 normal i of stream 4 * frame + kind."""
    z = np.empty(n, dtype=np.float32)
    fill_normals(noise.key, 4 * frame + kind, first, z)
    return z.astype(np.float64)


def _rot(axis, e):
    """Rodrigues rotation matrices (n, 3, 3) about a unit axis."""
    k = np.asarray(axis, dtype=np.float64)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    c, s = np.cos(e)[:, None, None], np.sin(e)[:, None, None]
    return c * np.eye(3) + s * kx + (1 - c) * np.outer(k, k)


def _pose(seed=0):
    """A random rigid 4x4 lidar pose (lidar -> world)."""
    rng = np.random.default_rng(seed)
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    if np.linalg.det(q) < 0:
        q[:, 0] = -q[:, 0]
    t = np.eye(4)
    t[:3, :3] = q
    t[:3, 3] = rng.uniform(-20, 20, 3)
    return t


def _cloud(n, seed=1, dmin=1.0, dmax=60.0):
    rng = np.random.default_rng(seed)
    v = rng.normal(size=(n, 3))
    v /= np.linalg.norm(v, axis=1)[:, None]
    return v * rng.uniform(dmin, dmax, n)[:, None]


def _all_noise(seed=5, axis=(0.0, 1.0, 0.0)):
    return LidarNoise(
        ray_angular_noise_mean=MEAN,
        ray_angular_noise_stddev=STD,
        hitpoint_angular_noise_mean=MEAN,
        hitpoint_angular_noise_stddev=STD,
        distance_noise_mean=MEAN,
        distance_noise_stddev_base=STD,
        distance_noise_stddev_rise_per_meter=RISE,
        axis=axis,
        seed=seed,
    )


# ---- RGL's acceptance protocol: 100,000 rays over many frames --------------------------


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rgl_protocol_all_three_noises(dtype):
    noise = _all_noise()
    frames, per = 10, 10_000
    d0 = 5.0
    rays = np.tile(np.eye(4, dtype=dtype), (per, 1, 1))
    pts = np.tile(np.array([0.0, 0.0, d0], dtype=dtype), (per, 1))
    ray_e, hit_e, eps = [], [], []
    for f in range(frames):
        r = noise.perturb_rays(rays, frame=f)
        ray_e.append(np.arctan2(r[:, 0, 2], r[:, 2, 2]))  # direction (+Z) turned about Y
        res = noise.apply(pts, frame=f)
        # angular first, then distance: the direction carries the angle
        hit_e.append(np.arctan2(res.points[:, 0], res.points[:, 2]))
        eps.append(res.distances.astype(np.float64) - d0)
    for name, x, sd in [
        ("ray", np.concatenate(ray_e), STD),
        ("hitpoint", np.concatenate(hit_e), STD),
        ("distance", np.concatenate(eps), STD + RISE * d0),
    ]:
        assert abs(x.mean() - MEAN) < TOL, name
        assert abs(x.std() - sd) < TOL, name


def test_distance_stddev_rises_with_distance():
    noise = LidarNoise(
        distance_noise_stddev_base=STD, distance_noise_stddev_rise_per_meter=RISE, seed=2
    )
    for d0 in (1.0, 50.0):
        pts = np.tile([d0, 0.0, 0.0], (50_000, 1))
        eps = noise.apply(pts).distances - d0
        # sample std of 50,000 normals: relative error about 1/sqrt(2n) = 0.3 %
        assert eps.std() == pytest.approx(STD + RISE * d0, rel=0.02)
        assert abs(eps.mean()) < 4 * (STD + RISE * d0) / np.sqrt(50_000)


# ---- geometry against an independent implementation of the documented rule ------------


# (mean, stddev) of the angle: small angles take the kernel's octant-polynomial path,
# large ones (beyond pi/4) its range-reduced path
@pytest.mark.parametrize("with_pose", [False, True])
@pytest.mark.parametrize("ang_mean, ang_std", [(MEAN, STD), (-2.0, 1.5)])
def test_hitpoint_and_distance_match_reference(with_pose, ang_mean, ang_std):
    axis = np.array([1.0, 2.0, 2.0]) / 3.0
    noise = LidarNoise(
        hitpoint_angular_noise_mean=ang_mean,
        hitpoint_angular_noise_stddev=ang_std,
        distance_noise_mean=MEAN,
        distance_noise_stddev_base=STD,
        distance_noise_stddev_rise_per_meter=RISE,
        axis=axis,
        seed=11,
    )
    n, frame = 3001, 7
    local = _cloud(n)
    pose = _pose(3) if with_pose else np.eye(4)
    world = local @ pose[:3, :3].T + pose[:3, 3]
    res = noise.apply(world, lidar_pose=pose if with_pose else None, frame=frame)

    e = ang_mean + ang_std * _z(noise, frame, 1, n)
    z = _z(noise, frame, 2, n)
    rotated = np.einsum("nij,nj->ni", _rot(axis, e), local)  # R_axis(e) L p
    d = np.linalg.norm(local, axis=1)
    eps = MEAN + (STD + RISE * d) * z
    expected_local = rotated * (1 + eps / d)[:, None]
    expected_world = expected_local @ pose[:3, :3].T + pose[:3, 3]  # L^-1 (...)
    np.testing.assert_allclose(res.points, expected_world, rtol=0, atol=1e-11)
    np.testing.assert_allclose(res.distances, d + eps, rtol=1e-13)
    assert res.hit_mask.all()


def test_hitpoint_noise_keeps_distance_and_axis_component():
    axis = np.array([0.0, 0.6, 0.8])
    noise = LidarNoise(hitpoint_angular_noise_stddev=0.3, axis=axis, seed=4)
    pose = _pose(8)
    local = _cloud(2000)
    world = local @ pose[:3, :3].T + pose[:3, 3]
    res = noise.apply(world, lidar_pose=pose, return_local=True)
    q = res.local_points
    np.testing.assert_allclose(np.linalg.norm(q, axis=1), np.linalg.norm(local, axis=1), rtol=1e-13)
    np.testing.assert_allclose(q @ axis, local @ axis, atol=1e-12)
    # the distance is the rotated point's |q| (RGL), equal to |p - t| up to rounding
    np.testing.assert_allclose(
        res.distances, np.linalg.norm(world - pose[:3, 3], axis=1), rtol=1e-14
    )
    assert np.abs(q - local).max() > 0.1  # it did turn


def test_distance_noise_keeps_direction():
    noise = LidarNoise(distance_noise_mean=0.2, distance_noise_stddev_base=0.05, seed=9)
    pose = _pose(2)
    world = _cloud(2000) @ pose[:3, :3].T + pose[:3, 3]
    res = noise.apply(world, lidar_pose=pose)
    a = world - pose[:3, 3]
    b = res.points - pose[:3, 3]
    ua = a / np.linalg.norm(a, axis=1)[:, None]
    ub = b / np.linalg.norm(b, axis=1)[:, None]
    np.testing.assert_allclose(ub, ua, atol=1e-13)
    np.testing.assert_allclose(np.linalg.norm(b, axis=1), res.distances, rtol=1e-13)
    assert abs((res.distances - np.linalg.norm(a, axis=1)).mean() - 0.2) < 0.01


def test_ray_noise_matches_reference_and_keeps_origin_distance():
    axis = np.array([0.0, 0.0, 1.0])
    noise = LidarNoise(ray_angular_noise_mean=0.05, ray_angular_noise_stddev=0.2, axis=axis, seed=3)
    pose = _pose(5)
    n, frame = 500, 4
    rng = np.random.default_rng(0)
    rays_local = np.tile(np.eye(4), (n, 1, 1))
    rays_local[:, :3, :3] = _rot(np.array([0.0, 1.0, 0.0]), rng.uniform(-3, 3, n))
    rays_local[:, :3, 3] = rng.uniform(-0.2, 0.2, (n, 3))  # origins off the lidar origin
    rays_world = pose @ rays_local
    out = noise.perturb_rays(rays_world, lidar_pose=pose, frame=frame)

    e = 0.05 + 0.2 * _z(noise, frame, 0, n)
    rot4 = np.tile(np.eye(4), (n, 1, 1))
    rot4[:, :3, :3] = _rot(axis, e)
    expected = pose @ rot4 @ np.linalg.inv(pose) @ rays_world  # L^-1 R(e) L r
    np.testing.assert_allclose(out, expected, atol=1e-12)
    # origin keeps its distance from the lidar; direction (+Z) turns by |e| about the axis
    o_before = rays_world[:, :3, 3] - pose[:3, 3]
    o_after = out[:, :3, 3] - pose[:3, 3]
    np.testing.assert_allclose(
        np.linalg.norm(o_after, axis=1), np.linalg.norm(o_before, axis=1), rtol=1e-12
    )
    d0 = (np.linalg.inv(pose) @ rays_world)[:, :3, 2]
    d1 = (np.linalg.inv(pose) @ out)[:, :3, 2]
    turned = np.arctan2(
        d0[:, 0] * d1[:, 1] - d0[:, 1] * d1[:, 0], d0[:, 0] * d1[:, 0] + d0[:, 1] * d1[:, 1]
    )
    np.testing.assert_allclose(turned, np.angle(np.exp(1j * e)), atol=1e-9)
    np.testing.assert_array_equal(out[:, 3], rays_world[:, 3])


def test_ray_poses_3x4_and_in_place():
    noise = LidarNoise(ray_angular_noise_stddev=0.1, seed=1)
    rays = np.tile(np.eye(4)[:3], (10, 1, 1))
    before = rays.copy()
    full = noise.perturb_rays(np.tile(np.eye(4), (10, 1, 1)))
    out = noise.perturb_rays(rays)
    np.testing.assert_array_equal(rays, before)
    np.testing.assert_array_equal(out, full[:, :3])
    same = noise.perturb_rays(rays, out=rays)
    assert same is rays
    np.testing.assert_array_equal(rays, out)


def test_local_and_world_outputs_agree():
    noise = _all_noise(seed=21)
    pose = _pose(6)
    local = _cloud(1000)
    world = local @ pose[:3, :3].T + pose[:3, 3]
    res_w = noise.apply(world, lidar_pose=pose, frame=3, return_local=True)
    res_l = noise.apply(local, frame=3)
    back = (res_w.points - pose[:3, 3]) @ pose[:3, :3]
    np.testing.assert_allclose(back, res_w.local_points, atol=1e-11)
    np.testing.assert_allclose(res_l.points, res_w.local_points, atol=1e-11)
    np.testing.assert_allclose(res_l.distances, res_w.distances, rtol=1e-12)


# ---- non-hits, splitting, threads, dtypes, SIMD paths ----------------------------------


def test_non_hits_are_never_perturbed_and_can_be_dropped():
    noise = _all_noise(seed=1)
    pts = _cloud(8)
    pts[3] = [np.nan, 1.0, 2.0]
    pts[5] = [np.inf, 0.0, 0.0]
    dist = np.linalg.norm(pts, axis=1)
    dist[1] = np.inf
    dist[2] = np.nan
    mask = np.ones(8, dtype=bool)
    mask[6] = False
    res = noise.apply(pts, distances=dist, hit_mask=mask, frame=0)
    miss = np.array([1, 2, 3, 5, 6])
    hits = np.array([0, 4, 7])
    np.testing.assert_array_equal(res.hit_mask, np.isin(np.arange(8), hits))
    np.testing.assert_array_equal(res.points[miss], pts[miss])
    np.testing.assert_array_equal(res.distances[miss], dist[miss])
    assert np.all(np.abs(res.points[hits] - pts[hits]).max(axis=1) > 0)
    dropped = noise.apply(pts, distances=dist, hit_mask=mask, drop_non_hits=True, frame=0)
    np.testing.assert_array_equal(dropped.points, res.points[hits])
    np.testing.assert_array_equal(dropped.distances, res.distances[hits])
    np.testing.assert_array_equal(dropped.hit_mask, res.hit_mask)


def test_empty_inputs_give_empty_outputs():
    noise = _all_noise()
    res = noise.apply(np.empty((0, 3)), lidar_pose=np.eye(4), return_local=True)
    assert res.points.shape == (0, 3) and res.local_points.shape == (0, 3)
    assert res.distances.shape == (0,) and res.hit_mask.shape == (0,)
    assert noise.perturb_rays(np.empty((0, 4, 4))).shape == (0, 4, 4)
    assert RangeNoise(0.0, 0.1, 0.0, 1.0).apply(np.empty(0)).shape == (0,)


def test_point_at_lidar_origin_stays():
    noise = LidarNoise(distance_noise_stddev_base=0.1, seed=1)
    res = noise.apply(np.zeros((3, 3)))
    np.testing.assert_array_equal(res.points, 0.0)
    np.testing.assert_array_equal(res.distances, 0.0)


def test_split_cloud_equals_whole_cloud_and_threads_do_not_matter():
    noise = _all_noise(seed=13)
    pose = _pose(1)
    pts = _cloud(70_001) @ pose[:3, :3].T + pose[:3, 3]
    whole = noise.apply(pts, lidar_pose=pose, frame=2)
    cuts = [0, 1, 5, 1000, 33_333, 70_001]
    pieces = [
        noise.apply(pts[a:b], lidar_pose=pose, frame=2, first_index=a)
        for a, b in zip(cuts[:-1], cuts[1:], strict=True)
    ]
    np.testing.assert_array_equal(np.concatenate([p.points for p in pieces]), whole.points)
    np.testing.assert_array_equal(np.concatenate([p.distances for p in pieces]), whole.distances)
    threaded = noise.apply(pts, lidar_pose=pose, frame=2, threads=3)
    np.testing.assert_array_equal(threaded.points, whole.points)
    other_frame = noise.apply(pts, lidar_pose=pose, frame=3)
    assert not np.array_equal(other_frame.points, whole.points)
    rays = np.tile(np.eye(4), (1000, 1, 1))
    np.testing.assert_array_equal(
        noise.perturb_rays(rays[300:], first_index=300), noise.perturb_rays(rays)[300:]
    )


def test_same_seed_same_noise_other_seed_other_noise():
    pts = _cloud(100)
    a = _all_noise(seed=1).apply(pts).points
    np.testing.assert_array_equal(_all_noise(seed=1).apply(pts).points, a)
    assert not np.array_equal(_all_noise(seed=2).apply(pts).points, a)


@pytest.mark.parametrize("path", simd.simd_paths_available())
def test_every_simd_path_gives_the_same_bits(path):
    noise = _all_noise(seed=17)
    pose = _pose(4)
    pts = _cloud(5000)
    ranges = np.random.default_rng(0).uniform(0, 40, 5000)
    gz = RangeNoise(0.0, 0.05, 0.1, 30.0, precision=0.01, seed=1)
    wide = LidarNoise(hitpoint_angular_noise_stddev=1.5, seed=3)  # range-reduced sine
    ref = {}
    start = simd.simd_path()
    try:
        for p in ("scalar", path):
            simd.set_simd_path(p)
            ref[p] = (
                noise.apply(pts, lidar_pose=pose, frame=0).points,
                noise.apply(pts.astype(np.float32), frame=0).points,
                noise.perturb_rays(np.tile(np.eye(4), (300, 1, 1)), frame=0),
                wide.apply(pts, frame=0).points,
                wide.apply(pts.astype(np.float32), frame=0).points,
                gz.apply(ranges, frame=0),
                gz.apply(ranges.astype(np.float32), frame=0),
            )
    finally:
        simd.set_simd_path(start)
    for a, b in zip(ref["scalar"], ref[path], strict=True):
        np.testing.assert_array_equal(a, b)


def _bits(a):
    """The raw bits of an array (so -0.0 != 0.0 and NaN payloads count)."""
    a = np.ascontiguousarray(a)
    return a.view({8: np.uint64, 4: np.uint32, 1: np.uint8}[a.dtype.itemsize])


def _awkward_cloud(n, dtype, seed):
    """A cloud with the values that take every branch: non-finite coordinates, a
    point at the lidar origin, signed zeros, points beyond the maximum range, huge
    coordinates (whose squares overflow), tiny offsets."""
    p = _cloud(n, seed=seed)
    p[3] = np.nan
    p[5, 1] = np.inf
    p[7] = 0.0
    p[8] = (-0.0, 0.0, -0.0)
    p[9, 2] = -np.inf
    p[10] = (2e9, -1e9, 0.5)  # beyond the maximum range: a non-hit
    p[11] = (1e300, 1e300, 0.0) if dtype == np.float64 else (1e30, 1e30, 0.0)
    p[12] = (1e-30, -1e-30, 0.0)
    p[-1] = np.nan  # in the scalar tail
    return np.ascontiguousarray(p, dtype=dtype)


@pytest.mark.parametrize(
    "path",
    simd.simd_paths_available()[1:] or [pytest.param("none", marks=pytest.mark.skip)],
)
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_every_simd_path_gives_the_same_bits_on_every_branch(path, dtype):
    """The vector point loops against the scalar path: each noise kind alone and
    together, small and range-reduced angles, optional inputs, local outputs, special
    values, and sizes that leave a scalar tail after the vector loop."""
    models = [
        _all_noise(seed=17),
        LidarNoise(
            hitpoint_angular_noise_mean=-0.2,
            hitpoint_angular_noise_stddev=0.05,
            axis=(0.6, 0.0, 0.8),
            seed=4,
        ),
        LidarNoise(
            hitpoint_angular_noise_mean=2.0,
            hitpoint_angular_noise_stddev=1.5,
            distance_noise_mean=-0.1,
            distance_noise_stddev_base=0.05,
            distance_noise_stddev_rise_per_meter=0.01,
            seed=5,
        ),
        LidarNoise(distance_noise_stddev_base=0.05, seed=6),
        LidarNoise(seed=7),
    ]
    pose = _pose(4)
    start = simd.simd_path()
    res = {}
    try:
        for p in ("scalar", path):
            simd.set_simd_path(p)
            out = []
            for n in (13, 21, 515, 1031):
                pts = _awkward_cloud(n, dtype, n)
                rng = np.random.default_rng(n)
                with np.errstate(over="ignore", invalid="ignore"):
                    d = np.linalg.norm(pts.astype(np.float64), axis=1) * rng.uniform(0.9, 1.1, n)
                d[[2, 4, 6]] = (np.nan, -np.inf, 0.0)
                hm = rng.uniform(size=n) > 0.2
                for m in models:
                    for kw in (
                        {},
                        {"distances": d, "hit_mask": hm, "first_index": 7},
                        {"lidar_pose": pose, "return_local": True, "frame": 3},
                    ):
                        r = m.apply(pts, **{"frame": 0, **kw})
                        out += [r.points, r.distances, r.hit_mask]
                        if r.local_points is not None:
                            out.append(r.local_points)
            res[p] = out
    finally:
        simd.set_simd_path(start)
    for a, b in zip(res["scalar"], res[path], strict=True):
        np.testing.assert_array_equal(_bits(a), _bits(b))


def test_float32_stays_float32_with_the_same_draws():
    noise = _all_noise(seed=3)
    pts = _cloud(5000)
    r64 = noise.apply(pts, frame=0)
    r32 = noise.apply(pts.astype(np.float32), frame=0)
    assert r32.points.dtype == np.float32 and r32.distances.dtype == np.float32
    np.testing.assert_allclose(r32.points, r64.points, rtol=0, atol=2e-4)  # float32 at 60 m
    rays32 = noise.perturb_rays(np.tile(np.eye(4, dtype=np.float32), (10, 1, 1)), frame=0)
    assert rays32.dtype == np.float32
    ints = noise.apply(np.array([[0, 0, 5]]), frame=0)
    assert ints.points.dtype == np.float64


def test_inputs_are_not_modified_unless_out():
    noise = _all_noise(seed=3)
    pts = _cloud(100)
    dist = np.linalg.norm(pts, axis=1)
    mask = np.ones(100, dtype=bool)
    keep = (pts.copy(), dist.copy(), mask.copy())
    res = noise.apply(pts, distances=dist, hit_mask=mask, frame=0)
    np.testing.assert_array_equal(pts, keep[0])
    np.testing.assert_array_equal(dist, keep[1])
    np.testing.assert_array_equal(mask, keep[2])
    same = noise.apply(pts, out=pts, frame=0)
    assert same.points is pts
    np.testing.assert_array_equal(pts, res.points)
    strided = np.asfortranarray(keep[0])
    np.testing.assert_array_equal(noise.apply(strided, frame=0).points, res.points)


def test_pickle_copy_and_state_reproduce_the_noise():
    """Every rebuild (pickle, copies, from_state, the state setter) goes through the
    constructor and gives the same key, axis and noise, rays and points alike."""
    pts = _cloud(50)
    rays = np.tile(np.eye(4)[:3], (20, 1, 1))
    rays[:, :, 3] = pts[:20]
    noise = _all_noise(seed=8, axis=(0.0, 0.0, 1.0))
    other = _all_noise(seed=9)
    other.state = noise.state
    clones = (
        pickle.loads(pickle.dumps(noise)),
        copy.deepcopy(noise),
        copy.copy(noise),
        noise.copy(),
        LidarNoise.from_state(noise.state),
        other,
    )
    for clone in clones:
        assert clone is not noise and clone == noise and clone.key == noise.key
        np.testing.assert_array_equal(
            clone.apply(pts, frame=4).points, noise.apply(pts, frame=4).points
        )
        np.testing.assert_array_equal(
            clone.perturb_rays(rays, frame=4), noise.perturb_rays(rays, frame=4)
        )
        np.testing.assert_array_equal(clone.axis, noise.axis)


def test_lidar_state_is_the_constructor_arguments_and_the_frame_counter():
    axis = (0.0, 1.0 + 4e-7, 0.0)  # within the unit tolerance: renormalized, kept as given
    noise = LidarNoise(distance_noise_stddev_base=1, axis=axis, seed=3)
    s = noise.state
    assert s["position"] == {"frame": 0}
    assert s["params"]["axis"] == list(axis) and noise.axis.tolist() == [0.0, 1.0, 0.0]
    assert s["params"]["distance_noise_stddev_base"] == 1.0
    assert isinstance(s["params"]["distance_noise_stddev_base"], float)
    assert LidarNoise(**s["params"], seed=3) == noise
    assert repr(noise).startswith("LidarNoise(ray_angular_noise_mean=0.0, ")


def test_range_bias_is_a_function_of_the_seed_and_survives_every_rebuild():
    gz = RangeNoise(0.0, 0.1, 0.0, 100.0, bias_stddev=1.0, flip_bias_sign=True, seed=2)
    scan = np.linspace(1.0, 90.0, 40)
    assert gz.state["position"] == {"frame": 0}  # the bias is recomputed, not stored
    assert gz.state["params"]["flip_bias_sign"] is True
    other = RangeNoise(0.0, 0.0, 0.0, 1.0, seed=7)
    other.state = gz.state
    for g2 in (pickle.loads(pickle.dumps(gz)), copy.deepcopy(gz), gz.copy(), other):
        assert g2.bias == gz.bias and g2.flip_bias_sign and g2.key == gz.key
        np.testing.assert_array_equal(g2.apply(scan, frame=5), gz.apply(scan, frame=5))
        assert g2.apply_one(3.0, 5, 7) == gz.apply_one(3.0, 5, 7)
    # the same seed and parameters draw the same bias; another seed another one
    assert (
        RangeNoise(0.0, 0.1, 0.0, 100.0, bias_stddev=1.0, flip_bias_sign=True, seed=2).bias
        == gz.bias
    )
    assert RangeNoise(0.0, 0.1, 0.0, 100.0, bias_stddev=1.0, seed=3).bias != gz.bias


def _frame_model(name):
    """(model, data, its apply's output) of each lidar-family model."""
    if name == "lidar":
        return _all_noise(), _cloud(30), lambda r: r.points
    if name == "range":
        return (
            RangeNoise(0.0, 0.1, 0.0, 100.0, bias_stddev=1.0, seed=2),
            np.linspace(1.0, 90.0, 30),
            lambda r: r,
        )
    cloud = np.hstack([_cloud(30), np.ones((30, 1))])
    return CarlaLidarNoise(noise_stddev=0.1, seed=2), cloud, lambda r: r.points


@pytest.mark.parametrize("name", ["lidar", "range", "carla_lidar"])
def test_calls_without_frame_take_the_next_frame_and_reset_rewinds(name):
    # the camera's frame rule (docs/conventions.rst, rule 7): two calls without frame
    # are frames 0 and 1 (they were frame 0 twice before 0.3), frame=k leaves the
    # counter alone, and reset() rewinds it
    m, data, out = _frame_model(name)
    assert m.frame == 0 and m.state["position"] == {"frame": 0}
    first, second = out(m.apply(data)), out(m.apply(data))
    assert m.frame == 2 and m.state["position"] == {"frame": 2}
    np.testing.assert_array_equal(first, out(m.apply(data, frame=0)))
    np.testing.assert_array_equal(second, out(m.apply(data, frame=1)))
    assert not np.array_equal(first, second)
    assert m.frame == 2  # explicit frames do not move the counter
    m.reset()
    assert m.frame == 0 and m.state["position"] == {"frame": 0}
    np.testing.assert_array_equal(out(m.apply(data)), first)
    # the counter travels with the state, copies and pickles
    m.frame = 7
    for c in (m.copy(), pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
        assert c.frame == 7
        np.testing.assert_array_equal(out(c.apply(data)), out(m.apply(data, frame=7)))
    other, _, _ = _frame_model(name)
    other.state = m.state
    assert other.frame == 7


def test_perturb_rays_and_apply_one_read_the_counter_without_advancing_it():
    noise = _all_noise(seed=5)
    rays = np.tile(np.eye(4), (12, 1, 1))
    noise.frame = 4
    np.testing.assert_array_equal(noise.perturb_rays(rays), noise.perturb_rays(rays, frame=4))
    assert noise.frame == 4  # the rays of the scan that the next apply noises
    gz = RangeNoise(0.0, 0.1, 0.0, 100.0, bias_stddev=1.0, seed=2)
    scan = np.linspace(1.0, 90.0, 20)
    beams = [gz.apply_one(float(r), index=i) for i, r in enumerate(scan)]
    assert gz.frame == 0
    np.testing.assert_array_equal(beams, gz.apply(scan))  # apply noises frame 0, advances
    assert gz.frame == 1 and gz.apply_one(3.0, index=2) == gz.apply_one(3.0, frame=1, index=2)


@pytest.mark.parametrize("name", ["lidar", "range", "carla_lidar"])
def test_the_counter_stops_at_the_last_lidar_frame(name):
    m, data, out = _frame_model(name)
    last = 2**62 - 2  # frame 2**62 - 1 is reserved (RangeNoise's bias)
    with pytest.raises(ValueError, match="frame"):
        m.frame = last + 1
    m.frame = last
    with pytest.raises(OverflowError, match=r"frame: the frame counter is at 4611686018427387902"):
        m.apply(data)
    assert m.frame == last  # refused: the counter did not move
    np.testing.assert_array_equal(out(m.apply(data, frame=last)), out(m.apply(data, frame=last)))
    state = m.state
    with pytest.raises(ValueError, match="frame"):
        type(m).from_state({**state, "position": {"frame": last + 1}})


def test_a_carla_batch_without_frame_takes_one_frame_per_cloud():
    m, cloud, _ = _frame_model("carla_lidar")
    batch = np.stack([cloud, cloud, cloud])
    got = m.apply(batch)
    assert m.frame == 3
    np.testing.assert_array_equal(got.points, m.apply(batch, frame=0).points)
    m.frame = 2**62 - 4  # frames 2**62 - 4 .. 2**62 - 2 would leave the counter past the end
    with pytest.raises(OverflowError, match="frame"):
        m.apply(batch)
    assert m.frame == 2**62 - 4


@pytest.mark.parametrize("name", ["lidar", "range", "carla_lidar"])
def test_a_0_2_state_with_an_empty_position_loads_as_frame_0(name):
    m, _, _ = _frame_model(name)
    m.frame = 5
    old = {**m.state, "position": {}}
    assert type(m).from_state(old).frame == 0
    with pytest.raises(ValueError, match="bogus"):
        type(m).from_state({**old, "position": {"bogus": 1}})


def test_threads_sharing_a_lidar_get_distinct_frames():
    import threading

    noise = _all_noise(seed=8)
    pts = _cloud(50)
    got = []

    def work():
        for _ in range(50):
            got.append(noise.apply(pts).points)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert noise.frame == 200
    want = {noise.apply(pts, frame=f).points.tobytes() for f in range(200)}
    assert {g.tobytes() for g in got} == want


def test_a_refused_reinit_changes_nothing():
    noise = _all_noise(seed=4)
    before = noise.state
    with pytest.raises(ValueError, match="axis"):
        noise.__init__(distance_noise_mean=0.5, axis=(0.0, 2.0, 0.0), seed=1)
    assert noise.state == before
    gz = RangeNoise(0.0, 0.1, 0.0, 100.0, bias_stddev=1.0, seed=2)
    before = gz.state
    with pytest.raises(TypeError, match="flip_bias_sign"):
        gz.__init__(1.0, 0.2, 0.0, 50.0, flip_bias_sign="yes", seed=3)
    assert gz.state == before


def test_objects_never_initialised_refuse_to_run():
    for obj, call in (
        (LidarNoise.__new__(LidarNoise), lambda o: o.apply(np.zeros((3, 3)))),
        (LidarNoise.__new__(LidarNoise), lambda o: o.perturb_rays(np.zeros((2, 3, 4)))),
        (RangeNoise.__new__(RangeNoise), lambda o: o.apply(np.zeros(3))),
        (RangeNoise.__new__(RangeNoise), lambda o: o.apply_one(1.0)),
    ):
        with pytest.raises(RuntimeError, match="never initialised"):
            call(obj)


_INTERNALS_PROBE = """
import copy, pickle
import numpy as np
from fastnoise.models.lidar.call import _PointsCall
from fastnoise.models.lidar.range_noise import _RangeCall
from fastnoise.models.lidar.carla import _CarlaCall

for cls in (_PointsCall, _RangeCall, _CarlaCall):
    for make in (lambda: cls(), lambda: cls.__new__(cls), lambda: cls(None), lambda: cls(object())):
        try:
            obj = make()
        except TypeError as exc:
            assert "internal" in str(exc), exc
        else:
            raise SystemExit(f"{cls.__name__} was constructed")
    try:
        obj = cls.__new__(cls, object())
    except TypeError:
        pass
    else:
        raise SystemExit(f"{cls.__name__} was constructed")
print("done")
"""


def test_internal_call_objects_cannot_be_made_from_python():
    """_PointsCall and _RangeCall hold raw pointers' owners: from Python they cannot be
    made (so their run() can never read a NULL or stale array). In a child, so a crash
    fails only this test."""
    r = subprocess.run(
        [sys.executable, "-c", _INTERNALS_PROBE], capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, f"child died ({r.returncode}): {r.stdout[-500:]} {r.stderr[-2000:]}"
    assert r.stdout.strip() == "done"


def test_bools_are_refused_where_numbers_are_expected():
    gz = RangeNoise(0.0, 1.0, 0.0, 100.0, seed=1)
    for kw in ({"range_m": True}, {"frame": True}, {"index": False}):
        args = {"range_m": 5.0, **kw}
        with pytest.raises(TypeError, match=next(iter(kw))):
            gz.apply_one(**args)
    with pytest.raises(TypeError, match="flip_bias_sign"):
        RangeNoise(0.0, 1.0, 0.0, 100.0, flip_bias_sign=1)
    with pytest.raises(TypeError, match="stddev"):
        RangeNoise(0.0, True, 0.0, 100.0)
    with pytest.raises(TypeError, match="distance_noise_mean"):
        LidarNoise(distance_noise_mean=True)
    with pytest.raises(TypeError, match="axis"):
        LidarNoise(axis=(False, True, False))
    with pytest.raises(ValueError, match="angular_noise_type"):
        LidarNoise.from_rgl(True, 0.1, 0.0, 0.0, 0.0, 0.0)
    noise = _all_noise()
    with pytest.raises(TypeError, match="return_local"):
        noise.apply(_cloud(3), return_local=1)
    with pytest.raises(TypeError, match="frame"):
        noise.apply(_cloud(3), frame=True)


def test_apply_one_accepts_every_real_type_alike():
    gz = RangeNoise(0.0, 1.0, 0.5, 100.0, seed=1)
    ref = gz.apply_one(5.0, 3, 9)
    for r in (5, np.float64(5.0), np.float32(5.0), np.int64(5)):
        assert gz.apply_one(r, np.int64(3), np.uint64(9)) == ref
    assert gz.apply_one(np.float32(np.inf)) == np.inf
    assert gz.apply_one(-np.inf) == -np.inf
    assert gz.apply_one(np.float32(np.nan)) == 100.0
    with pytest.raises(ValueError, match="frame"):
        gz.apply_one(5.0, frame=2**62 - 1)  # the reserved bias frame
    with pytest.raises(ValueError, match="index"):
        gz.apply_one(5.0, index=2**64)


def test_caller_buffers_in_place_and_overlapping():
    noise = _all_noise(seed=6)
    pts = _cloud(300)
    pts[7] = np.nan
    dist = np.linalg.norm(pts, axis=1)
    mask = np.ones(300, dtype=bool)
    mask[3] = False
    ref = noise.apply(pts, distances=dist, hit_mask=mask, frame=0)
    bufs = (np.empty((300, 3)), np.empty(300), np.empty(300, dtype=bool))
    got = noise.apply(
        pts,
        distances=dist,
        hit_mask=mask,
        frame=0,
        out=bufs[0],
        out_distances=bufs[1],
        out_hit_mask=bufs[2],
    )
    assert got.points is bufs[0] and got.distances is bufs[1] and got.hit_mask is bufs[2]
    for a, b in zip(got, ref, strict=True):
        np.testing.assert_array_equal(a, b)
    # in place on every input
    p2, d2, m2 = pts.copy(), dist.copy(), mask.copy()
    noise.apply(p2, distances=d2, hit_mask=m2, out=p2, out_distances=d2, out_hit_mask=m2, frame=0)
    np.testing.assert_array_equal(p2, ref.points)
    np.testing.assert_array_equal(d2, ref.distances)
    np.testing.assert_array_equal(m2, ref.hit_mask)
    # an output overlapping the input one row further on is refused (it would read
    # points the call already wrote), and nothing is written
    big = np.vstack([pts, np.zeros((1, 3))])
    before = big.copy()
    with pytest.raises(ValueError, match="out overlaps points"):
        noise.apply(big[:-1], out=big[1:])
    np.testing.assert_array_equal(big, before)
    with pytest.raises(ValueError, match="out_distances"):
        noise.apply(pts, out_distances=np.empty(5))
    with pytest.raises(TypeError, match="out_hit_mask"):
        noise.apply(pts, out_hit_mask=np.empty(300))


# ---- RGL parameter mapping and errors ----------------------------------------------------


def test_from_rgl_maps_the_angular_type():
    ray = LidarNoise.from_rgl(RAY_BASED, 0.01, 0.1, 0.02, 0.001, 0.0, seed=1)
    hit = LidarNoise.from_rgl(HITPOINT_BASED, 0.01, 0.1, 0.02, 0.001, 0.0, seed=1)
    assert (ray.ray_angular_noise_stddev, ray.hitpoint_angular_noise_stddev) == (0.01, 0.0)
    # the legacy API turned by Rot_y(-angle): the constructor's mean is the negation
    assert (hit.ray_angular_noise_mean, hit.hitpoint_angular_noise_mean) == (0.0, -0.1)
    assert (ray.ray_angular_noise_mean, ray.hitpoint_angular_noise_mean) == (-0.1, 0.0)
    assert hit.distance_noise_stddev_base == 0.02
    assert hit.distance_noise_stddev_rise_per_meter == 0.001
    with pytest.raises(ValueError, match="angular_noise_type"):
        LidarNoise.from_rgl(2, 0.01, 0.1, 0.02, 0.001, 0.0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"hitpoint_angular_noise_stddev": -0.1}, "hitpoint_angular_noise_stddev"),
        ({"distance_noise_stddev_rise_per_meter": -1e-3}, "rise_per_meter"),
        ({"distance_noise_mean": float("nan")}, "distance_noise_mean"),
        ({"ray_angular_noise_mean": float("inf")}, "ray_angular_noise_mean"),
        ({"ray_angular_noise_stddev": 1e9}, "ray_angular_noise_stddev"),
        ({"axis": (0.0, 2.0, 0.0)}, "unit vector"),
        ({"axis": (0.0, 1.0)}, "axis"),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        LidarNoise(**kwargs)


def test_bad_call_arguments():
    noise = _all_noise()
    pts = _cloud(4)
    with pytest.raises(ValueError, match="points"):
        noise.apply(pts[:, :2])
    with pytest.raises(ValueError, match="distances"):
        noise.apply(pts, distances=np.ones(3))
    with pytest.raises(TypeError, match="hit_mask"):
        noise.apply(pts, hit_mask=np.ones(4))
    with pytest.raises(ValueError, match="frame"):
        noise.apply(pts, frame=-1)
    with pytest.raises(TypeError, match="points"):
        noise.apply(np.array([["a", "b", "c"]]))
    skew = np.eye(4)
    skew[0, 1] = 0.5
    with pytest.raises(ValueError, match="rigid"):
        noise.apply(pts, lidar_pose=skew)
    mirror = np.diag([1.0, 1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="rigid"):
        noise.apply(pts, lidar_pose=mirror)
    with pytest.raises(ValueError, match="lidar_pose"):
        noise.apply(pts, lidar_pose=np.eye(3))
    with pytest.raises(ValueError, match="ray_poses"):
        noise.perturb_rays(np.zeros((2, 3, 3)))
    with pytest.raises(ValueError, match="threads"):
        noise.apply(pts, threads=0)
    with pytest.raises(TypeError, match="out"):
        noise.apply(pts, out=np.empty((4, 3), dtype=np.float32))


# ---- Gazebo range noise ---------------------------------------------------------------


def test_gazebo_special_values_and_clamp():
    gz = RangeNoise(0.0, 0.01, 0.5, 10.0, seed=1)
    r = np.array([np.inf, -np.inf, np.nan, 0.0, 0.2, 100.0, -3.0, 5.0])
    before = r.copy()
    out = gz.apply(r)
    np.testing.assert_array_equal(r, before)
    assert out[0] == np.inf and out[1] == -np.inf
    assert out[2] == 10.0  # NaN -> max range
    np.testing.assert_array_equal(out[3:7], [0.5, 0.5, 10.0, 0.5])
    assert abs(out[7] - 5.0) < 0.1 and out[7] != 5.0


def test_gazebo_noise_statistics_bias_and_precision():
    r = np.full(200_000, 5.0)
    gz = RangeNoise(0.02, 0.01, 0.1, 30.0, seed=7)
    x = gz.apply(r) - 5.0
    assert abs(x.mean() - 0.02) < 4 * 0.01 / np.sqrt(r.size)
    assert x.std() == pytest.approx(0.01, rel=0.01)
    biased = RangeNoise(0.0, 0.0, 0.1, 30.0, bias_mean=0.25, flip_bias_sign=False, seed=7)
    np.testing.assert_array_equal(biased.apply(r[:10]), 5.25)
    assert biased.bias == 0.25
    q = RangeNoise(0.0, 0.05, 0.1, 30.0, precision=0.01, seed=7).apply(r)
    steps = q / 0.01
    np.testing.assert_allclose(steps, np.round(steps), atol=1e-9)
    # Gazebo's half-away-from-zero rounding, exact ties
    tie = RangeNoise(0.0, 0.0, 0.0, 30.0, precision=0.5, seed=1)
    np.testing.assert_array_equal(tie.apply(np.array([0.25, 0.75, 1.0])), [0.5, 1.0, 1.0])


def test_gazebo_bias_is_drawn_once_per_object():
    biases = np.array(
        [
            RangeNoise(
                0, 0, 0, 1, bias_mean=1.0, bias_stddev=0.1, flip_bias_sign=False, seed=s
            ).bias
            for s in range(400)
        ]
    )
    assert abs(biases.mean() - 1.0) < 4 * 0.1 / 20
    assert biases.std() == pytest.approx(0.1, rel=0.15)
    gz = RangeNoise(0, 0, 0, 10, bias_mean=1.0, bias_stddev=0.1, seed=3)
    np.testing.assert_array_equal(gz.apply(np.ones(3), frame=0), gz.apply(np.ones(3), frame=9))
    flips = np.array(
        [
            RangeNoise(0, 0, 0, 1, bias_mean=1.0, bias_stddev=0.1, seed=s).bias  # Gazebo's flip
            for s in range(400)
        ]
    )
    assert 0.4 < np.mean(flips < 0) < 0.6
    np.testing.assert_allclose(np.abs(flips), biases)


def test_gazebo_keying_dtype_and_threads():
    gz = RangeNoise(0.0, 0.05, 0.1, 30.0, seed=5)
    r = np.random.default_rng(1).uniform(0, 40, (64, 1024))
    whole = gz.apply(r, frame=3)
    flat = r.reshape(-1)
    part = gz.apply(flat[1000:], frame=3, first_index=1000)
    np.testing.assert_array_equal(part, whole.reshape(-1)[1000:])
    np.testing.assert_array_equal(gz.apply(r, frame=3, threads=2), whole)
    z = 0.05 * _z(gz, 3, 3, 10)
    np.testing.assert_allclose(
        whole.reshape(-1)[:10], np.clip(flat[:10] + z, 0.1, 30.0), atol=1e-15
    )
    assert gz.apply_one(flat[77], frame=3, index=77) == whole.reshape(-1)[77]
    assert gz.apply_one(np.nan) == 30.0
    r32 = gz.apply(r.astype(np.float32), frame=3)
    assert r32.dtype == np.float32
    np.testing.assert_allclose(r32, whole, atol=1e-5)


@pytest.mark.parametrize(
    "args, match",
    [
        ((0.0, -0.1, 0.1, 10.0), "stddev"),
        ((0.0, 0.1, 5.0, 1.0), "max_range"),
        ((0.0, 0.1, -1.0, 1.0), "min_range"),
        ((float("nan"), 0.1, 0.1, 1.0), "mean"),
        ((0.0, 0.1, 0.1, float("inf")), "max_range"),
    ],
)
def test_gazebo_bad_parameters(args, match):
    with pytest.raises(ValueError, match=match):
        RangeNoise(*args)


def test_indices_past_the_end_of_a_stream_are_refused():
    rn = RangeNoise(0.0, 1.0, 0.0, 100.0, seed=1)
    scan = np.full(300, 50.0)
    with pytest.raises(ValueError, match="first_index"):
        rn.apply(scan, first_index=2**64 - 100)
    rn.apply(scan, first_index=2**64 - 300)  # the last 300 indices exist


@pytest.mark.parametrize(("kw", "err"), [({"frame": 1.5}, TypeError), ({"index": -1}, ValueError)])
def test_apply_one_checks_its_indices_by_name(kw, err):
    with pytest.raises(err, match=next(iter(kw))):
        RangeNoise(0.0, 1.0, 0.0, 100.0, seed=1).apply_one(5.0, **kw)


# ---- hardening: limits, intake, overlap, ranges, threads --------------------------------

LAST_FRAME = 2**62 - 2  # frame 2**62 - 1 is RangeNoise's reserved bias frame


def test_frames_stop_below_the_reserved_bias_frame():
    noise, gz = _all_noise(), RangeNoise(0.0, 0.01, 0.0, 100.0, seed=1)
    pts, rays, scan = _cloud(5), np.tile(np.eye(4), (5, 1, 1)), np.full(5, 5.0)
    calls = [
        lambda f: noise.apply(pts, frame=f),
        lambda f: noise.perturb_rays(rays, frame=f),
        lambda f: gz.apply(scan, frame=f),
        lambda f: gz.apply_one(5.0, frame=f),
    ]
    for call in calls:
        call(LAST_FRAME)  # the last data frame exists
        with pytest.raises(ValueError, match="frame"):
            call(LAST_FRAME + 1)
        with pytest.raises(ValueError, match="frame"):
            call(2**62)
    # the last frame draws its own stream (4 f + kind), not frame 0's
    z = _z(noise, LAST_FRAME, 2, 5)
    ref = RangeNoise(0.0, 1.0, 0.0, 1e6, seed=1).apply(np.full(5, 500.0), frame=LAST_FRAME)
    np.testing.assert_allclose(ref - 500.0 - gz.bias, _z(gz, LAST_FRAME, 3, 5), atol=1e-12)
    assert not np.array_equal(z, _z(noise, 0, 2, 5))


def test_indices_never_pass_2_64_on_any_entry_point():
    noise = _all_noise(seed=3)
    gz = RangeNoise(0.0, 1.0, 0.0, 1e6, seed=2)
    n = 7
    pts, rays, scan = _cloud(n), np.tile(np.eye(4), (n, 1, 1)), np.full(n, 500.0)
    end = 2**64 - n  # first_index + n == 2**64: the last indices exist
    for call in (
        lambda fi: noise.apply(pts, first_index=fi, frame=0),
        lambda fi: noise.perturb_rays(rays, first_index=fi, frame=0),
        lambda fi: gz.apply(scan, first_index=fi, frame=0),
    ):
        call(end)
        with pytest.raises(ValueError, match="first_index"):
            call(end + 1)
        with pytest.raises(ValueError, match="first_index"):
            call(2**64)
    # the last beam of the stream is the stream's normal 2**64 - 1, never normal 0 again
    last = gz.apply(scan, first_index=end, frame=0)
    np.testing.assert_allclose(last - 500.0 - gz.bias, _z(gz, 0, 3, n, first=end), atol=1e-9)
    assert gz.apply_one(500.0, index=2**64 - 1, frame=0) == last[-1]
    with pytest.raises(ValueError, match="index"):
        gz.apply_one(500.0, index=2**64, frame=0)
    # empty calls may start anywhere in the stream
    assert noise.apply(np.zeros((0, 3)), first_index=2**64 - 1, frame=0).points.shape == (0, 3)
    assert gz.apply(np.zeros(0), first_index=2**64 - 1, frame=0).shape == (0,)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_far_points_are_non_hits_and_results_stay_finite(dtype):
    # the example: a distance of 1e308 made sigma = base + rise * d overflow
    noise = LidarNoise(
        hitpoint_angular_noise_stddev=0.01,
        distance_noise_mean=0.1,
        distance_noise_stddev_base=0.02,
        distance_noise_stddev_rise_per_meter=1.0,
        seed=4,
    )
    big = 1e308 if dtype == np.float64 else 3e38
    pts = np.array([[3.0, 4.0, 0.0], [1e9, 0.0, 0.0], [2e9, 0, 0], [big, 0, 0], [0, 1e-30, 0]])
    pts = pts.astype(dtype)
    dist = np.array([5.0, 1e9, 5.0, 5.0, 1e-30], dtype)
    far_pts = np.array([False, False, True, True, False])
    for d, far in (
        (None, far_pts),
        (dist, far_pts),
        (np.array([big, 5.0, 5.0, 5.0, 1e-30], dtype), far_pts | (np.arange(5) == 0)),
    ):
        res = noise.apply(pts, distances=d)
        assert np.all(np.isfinite(res.points)) and np.all(np.isfinite(res.distances))
        np.testing.assert_array_equal(res.hit_mask, ~far)
        np.testing.assert_array_equal(res.points[far], pts[far])  # copied unchanged
    # the default distance of the farthest point is its true |p| (its squares overflow)
    assert noise.apply(pts).distances[3] == pts[3, 0]
    # 1e9 m is still a hit, and noised
    assert noise.apply(pts[1:2]).hit_mask[0]


def test_noise_parameter_bounds_keep_results_finite():
    for kw in (
        {"distance_noise_mean": 1.1e9},
        {"distance_noise_mean": -1.1e9},
        {"distance_noise_stddev_base": 1.1e9},
        {"distance_noise_stddev_rise_per_meter": 1001.0},
    ):
        with pytest.raises(ValueError, match=next(iter(kw))):
            LidarNoise(**kw)
    # the extremes allowed: no inf or nan for any point in range, float32 included
    noise = LidarNoise(
        hitpoint_angular_noise_mean=1e3,
        hitpoint_angular_noise_stddev=1e3,
        distance_noise_mean=-1e9,
        distance_noise_stddev_base=1e9,
        distance_noise_stddev_rise_per_meter=1e3,
        seed=1,
    )
    tiny = np.float32(2.0**-75)  # its square is subnormal: the smallest |q| > 0
    pts = np.array([[1e9, 0, 0], [tiny, 0, 0], [1e-30, 1e-30, 0], [7.0, -2.0, 1.0]])
    for dt in (np.float64, np.float32):
        res = noise.apply(pts.astype(dt), return_local=True, lidar_pose=_pose(2))
        for a in (res.points, res.distances, res.local_points):
            assert np.all(np.isfinite(a)), a


def test_any_layout_of_the_inputs_gives_the_same_bits():
    noise = _all_noise(seed=8)
    pose = _pose(4)
    pts = _cloud(301, seed=3)
    dist = np.linalg.norm(pts, axis=1)
    mask = np.arange(301) % 7 != 0
    ref = noise.apply(pts, distances=dist, hit_mask=mask, lidar_pose=pose, frame=3)

    def unaligned(a):
        buf = np.zeros(a.nbytes + 1, np.uint8)
        v = buf[1:].view(a.dtype).reshape(a.shape)
        v[...] = a
        assert not v.flags.aligned
        return v

    variants = [
        (pts.astype(">f8"), dist.astype(">f8"), pose.astype(">f8")),
        (unaligned(pts), unaligned(dist), unaligned(pose)),
        (np.asfortranarray(pts), dist[::-1].copy()[::-1], pose.T.copy().T),
        (pts.tolist(), dist.tolist(), pose.tolist()),
    ]
    for p, d, ps in variants:
        got = noise.apply(p, distances=d, hit_mask=mask[::-1].copy()[::-1], lidar_pose=ps, frame=3)
        for a, b in zip(got[:3], ref[:3], strict=True):
            np.testing.assert_array_equal(a, b)
    # float32 data stays float32 in any byte order; ints become float64
    be32 = noise.apply(pts.astype(">f4"), frame=3).points
    assert be32.dtype == np.float32
    np.testing.assert_array_equal(be32, noise.apply(pts.astype(np.float32), frame=3).points)
    ints = np.round(pts).astype(np.int32)
    np.testing.assert_array_equal(
        noise.apply(ints, frame=0).points, noise.apply(ints.astype(float), frame=0).points
    )
    # rays and scans alike
    rays = np.tile(np.eye(4), (50, 1, 1))
    rays[:, :3, 3] = _cloud(50)
    got = noise.perturb_rays(unaligned(rays.astype(">f8")), frame=2)
    np.testing.assert_array_equal(got, noise.perturb_rays(rays, frame=2))
    gz = RangeNoise(0.0, 0.05, 0.1, 30.0, seed=5)
    scan = np.linspace(0.0, 40.0, 77)
    want = gz.apply(scan, frame=2)
    for s in (scan.astype(">f8"), unaligned(scan), scan[::-1].copy()[::-1], scan.tolist()):
        np.testing.assert_array_equal(gz.apply(s, frame=2), want)
    for v in (np.float16(5.0), np.float32(5.0), 5, np.int64(5)):
        assert gz.apply_one(v, frame=2, index=3) == gz.apply_one(5.0, frame=2, index=3)


def test_non_real_inputs_are_refused_by_name():
    noise, gz = _all_noise(), RangeNoise(0.0, 0.01, 0.0, 100.0, seed=1)
    pts = _cloud(4)
    bad = [
        np.ones((4, 3), bool),
        np.ones((4, 3), complex),
        np.ones((4, 3), object),
        np.ones((4, 3), "datetime64[s]"),
        np.ones((4, 3), "timedelta64[s]"),
        [["a", "b", "c"]] * 4,
        [[1.0, 2.0], [3.0]],
    ]
    for b in bad:
        with pytest.raises(TypeError, match="points"):
            noise.apply(b)
        b1 = np.asarray(b[0] if isinstance(b, list) else b[:, 0], dtype=object)
        with pytest.raises(TypeError, match="ranges"):
            gz.apply(b1 if isinstance(b, list) else b[:, 0])
    for b in (np.ones(4, bool), np.ones(4, complex), np.ones(4, object)):
        with pytest.raises(TypeError, match="distances"):
            noise.apply(pts, distances=b)
    with pytest.raises(TypeError, match="hit_mask"):
        noise.apply(pts, hit_mask=np.ones(4, np.uint8))
    for b in (np.ones((2, 3, 4), bool), np.ones((2, 3, 4), complex)):
        with pytest.raises(TypeError, match="ray_poses"):
            noise.perturb_rays(b)
    for b in (np.eye(4, dtype=complex), np.eye(4, dtype=bool), np.eye(4, dtype=object)):
        with pytest.raises(TypeError, match="lidar_pose"):
            noise.apply(pts, lidar_pose=b)
    for b in ((0, 1j, 0), (False, True, False), np.array([0, 1, 0], complex), "xyz"):
        with pytest.raises(TypeError, match="axis"):
            LidarNoise(axis=b)
    for v in (True, 1j, np.complex128(1.0), "5", None, np.array([5.0]), np.datetime64(5, "s")):
        with pytest.raises(TypeError, match="range_m"):
            gz.apply_one(v)


def test_lidar_pose_must_be_a_finite_rigid_transform():
    noise = _all_noise()
    pts = _cloud(4)
    nan = np.eye(4)
    nan[0, 3] = np.nan
    far = np.eye(4)
    far[2, 3] = 2e30
    skew = np.eye(4)
    skew[0, 1] = 1e-3
    for pose, word in (
        (np.eye(3), "shape"),
        (np.eye(5), "shape"),
        (nan, "non-finite"),
        (far, "translation"),
        (skew, "not a rotation"),
        (np.diag([1.0, 1.0, -1.0, 1.0]), "not a rotation"),
        (np.diag([2.0, 2.0, 2.0, 1.0]), "not a rotation"),
    ):
        with pytest.raises(ValueError, match=word) as info:
            noise.apply(pts, lidar_pose=pose)
        assert "rigid transform" in str(info.value) and "det R = +1" in str(info.value)
        with pytest.raises(ValueError, match="lidar_pose"):
            noise.perturb_rays(np.tile(np.eye(4), (2, 1, 1)), lidar_pose=pose)
    ok = np.eye(4)
    ok[:3, 3] = 1e30
    noise.apply(pts, lidar_pose=ok)


def test_ray_poses_must_be_finite_and_in_range():
    noise = _all_noise()
    rays = np.tile(np.eye(4), (3, 1, 1))
    for value in (np.nan, np.inf, 2e30):
        bad = rays.copy()
        bad[1, 2, 3] = value
        with pytest.raises(ValueError, match=r"ray_poses\[1\]"):
            noise.perturb_rays(bad)
    bottom = rays.copy()
    bottom[:, 3, :] = np.nan  # the bottom row is copied, never read
    out = noise.perturb_rays(bottom)
    assert np.all(np.isnan(out[:, 3])) and np.all(np.isfinite(out[:, :3]))
    extreme = rays.copy()
    extreme[:, :3, 3] = 1e30
    for dt in (np.float64, np.float32):
        assert np.all(np.isfinite(noise.perturb_rays(extreme.astype(dt))))


def test_partly_overlapping_outputs_are_refused_and_nothing_is_written():
    noise = _all_noise(seed=6)
    n = 200
    buf = np.zeros((n + 2, 3))
    buf[:n] = _cloud(n)
    dbuf = np.zeros(n + 1)
    dbuf[:n] = np.linalg.norm(buf[:n], axis=1)
    mbuf = np.ones(n + 1, bool)
    before = (buf.copy(), dbuf.copy(), mbuf.copy())
    pts, dist, mask = buf[:n], dbuf[:n], mbuf[:n]
    flat = buf.reshape(-1)
    cases = [
        ({"out": buf[1 : n + 1]}, "out overlaps points"),
        ({"distances": dist, "out_distances": dbuf[1:]}, "out_distances overlaps distances"),
        ({"hit_mask": mask, "out_hit_mask": mbuf[1:]}, "out_hit_mask overlaps hit_mask"),
        ({"out_distances": flat[: 3 * n : 3].copy(), "out": np.empty((n, 3))}, None),
        ({"out_distances": flat[n : 2 * n]}, "out_distances overlaps points"),
        ({"out": np.empty((n, 3)), "out_distances": np.empty((n, 3))[:, 0].copy()}, None),
    ]
    for kw, msg in cases:
        if msg is None:
            noise.apply(pts, **kw, frame=0)  # separate arrays: fine
            continue
        with pytest.raises(ValueError, match=msg):
            noise.apply(pts, **kw, frame=0)
        for a, b in zip((buf, dbuf, mbuf), before, strict=True):
            np.testing.assert_array_equal(a, b)
    # two outputs sharing memory
    shared = np.empty((n, 3))
    with pytest.raises(ValueError, match="overlaps"):
        noise.apply(pts, out=shared, out_distances=shared.reshape(-1)[:n], frame=0)
    # rays and scans
    rbuf = np.tile(np.eye(4), (11, 1, 1))
    with pytest.raises(ValueError, match="out overlaps ray_poses"):
        noise.perturb_rays(rbuf[:10], out=rbuf[1:], frame=0)
    sbuf = np.linspace(0.0, 40.0, 101)
    gz = RangeNoise(0.0, 0.05, 0.1, 30.0, seed=5)
    with pytest.raises(ValueError, match="out overlaps ranges"):
        gz.apply(sbuf[:100], out=sbuf[1:], frame=0)
    np.testing.assert_array_equal(sbuf, np.linspace(0.0, 40.0, 101))
    # in place (the very same array) stays allowed everywhere
    want = gz.apply(sbuf, frame=0)
    assert gz.apply(sbuf, out=sbuf, frame=0) is sbuf
    np.testing.assert_array_equal(sbuf, want)
    r2 = rbuf.copy()
    np.testing.assert_array_equal(
        noise.perturb_rays(r2, out=r2, frame=0), noise.perturb_rays(rbuf, frame=0)
    )


def test_bad_out_arrays_are_refused_by_name():
    noise, gz = _all_noise(), RangeNoise(0.0, 0.01, 0.0, 100.0, seed=1)
    pts = _cloud(4)
    ro = np.empty((4, 3))
    ro.flags.writeable = False
    for kw, exc, word in (
        ({"out": ro}, ValueError, "out"),
        ({"out": np.empty((4, 3), ">f8")}, TypeError, "out"),
        ({"out": np.empty((3, 4)).T}, ValueError, "out"),
        ({"out": np.empty((4, 3)).tolist()}, TypeError, "out"),
        ({"out_distances": np.empty(8)[::2]}, ValueError, "out_distances"),
        ({"out_hit_mask": np.empty(4, np.uint8)}, TypeError, "out_hit_mask"),
    ):
        with pytest.raises(exc, match=word):
            noise.apply(pts, **kw)
    with pytest.raises(ValueError, match="out"):
        gz.apply(np.ones(4), out=np.empty(8)[::2])
    with pytest.raises(ValueError, match="out"):
        noise.perturb_rays(np.tile(np.eye(4), (2, 1, 1)), out=np.empty((2, 4, 4)).T.copy().T)


def test_range_parameter_bounds_and_tiny_precision():
    for i, name in enumerate(("mean", "stddev", "min_range", "max_range")):
        args = [0.0, 0.1, 0.0, 10.0]
        args[i] = 1e31 if name != "max_range" else 2e30
        with pytest.raises(ValueError, match=name):
            RangeNoise(*args)
    for name in ("bias_mean", "bias_stddev", "precision"):
        with pytest.raises(ValueError, match=name):
            RangeNoise(0.0, 0.1, 0.0, 10.0, **{name: 1e31})
    # the extremes allowed give finite ranges for finite input, float32 included
    gz = RangeNoise(1e30, 1e30, 0.0, 1e30, bias_mean=-1e30, bias_stddev=1e30, precision=1e30)
    for dt in (np.float64, np.float32):
        x = np.array([0.0, 1.0, -1e30, 1e30, np.finfo(dt).max, -np.finfo(dt).max], dt)
        assert np.all(np.isfinite(gz.apply(x)))
    # a precision far below a range's resolution used to overflow r / precision to inf
    # (clamped to max_range); now the range is kept, as rounding could not change it
    for prec in (5e-324, 1e-300, 1e-50):
        fine = RangeNoise(0.0, 0.0, 0.0, 100.0, precision=prec, seed=1)
        np.testing.assert_array_equal(fine.apply(np.array([5.0, 0.0, 99.0])), [5.0, 0.0, 99.0])
        np.testing.assert_array_equal(
            fine.apply(np.array([5.0, 0.0, 99.0], np.float32)), np.float32([5.0, 0.0, 99.0])
        )
        assert fine.apply_one(5.0) == 5.0


def _run_threads(fn, jobs, nthreads=4):
    import threading

    results = [None] * len(jobs)
    barrier = threading.Barrier(nthreads)

    def worker(k):
        barrier.wait()
        for i in range(k, len(jobs), nthreads):
            results[i] = fn(jobs[i])

    ts = [threading.Thread(target=worker, args=(k,)) for k in range(nthreads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return results


def test_one_lidar_and_one_range_model_shared_by_four_threads():
    # explicit frames: each call reads the model only, so no lock is needed and each call
    # gives the bits it gives alone, whatever runs beside it
    noise = _all_noise(seed=12)
    gz = RangeNoise(0.0, 0.05, 0.1, 30.0, bias_mean=0.1, bias_stddev=0.05, seed=12)
    pts = _cloud(40_000, seed=5)
    scan = np.random.default_rng(3).uniform(0, 40, 40_000)
    jobs = list(range(24))
    lid = _run_threads(lambda f: noise.apply(pts, frame=f, threads=2).points.tobytes(), jobs)
    rng_ = _run_threads(lambda f: gz.apply(scan, frame=f).tobytes(), jobs)
    one = _run_threads(lambda f: gz.apply_one(5.0, frame=f, index=f), jobs)
    assert lid == [noise.apply(pts, frame=f).points.tobytes() for f in jobs]
    assert rng_ == [gz.apply(scan, frame=f).tobytes() for f in jobs]
    assert one == [gz.apply_one(5.0, frame=f, index=f) for f in jobs]


@pytest.mark.parametrize("name", ["lidar", "range", "carla_lidar", "camera"])
def test_the_gpu_calls_reserve_frames_through_the_model_lock(name):
    # fastnoise.cuda takes a model's next frame with _take_frames (the lock its CPU
    # apply takes), so CPU and GPU calls that share a model never share a frame
    from fastnoise.models.camera.image_noise import ImageNoise

    m = ImageNoise(seed=1) if name == "camera" else _frame_model(name)[0]
    assert m._take_frames() == 0 and m._take_frames(3) == 1 and m.frame == 4
    m.frame = type(m)._frame_end
    with pytest.raises(OverflowError, match="frame"):
        m._take_frames()
    assert m.frame == type(m)._frame_end
