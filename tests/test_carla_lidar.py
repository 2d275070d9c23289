"""CarlaLidarNoise against CARLA's rules (``RayCastLidar.cpp``: ``PreprocessRays``,
``ComputeDetection``, ``PostprocessDetection``; defaults of the ``sensor.lidar.ray_cast``
blueprint): exact where a probability is 0 or 1, statistical (fixed seeds, 4-sigma
binomial bounds) otherwise, and the intensity formula to the accuracy of the project's
exp (a few ulp)."""

import math

import numpy as np
import pytest

from fastnoise import CarlaLidarNoise

FLT_EPSILON = float(np.finfo(np.float32).eps)


def _cloud(n, *, dist=None, cols=6, seed=0, dtype=np.float64):
    """n points in random directions at distances ``dist`` (default 1..120 m), with an
    intensity column of -1 and extra columns 7, 8, ..."""
    rng = np.random.default_rng(seed)
    u = rng.normal(size=(n, 3))
    u /= np.linalg.norm(u, axis=1)[:, None]
    d = rng.uniform(1.0, 120.0, n) if dist is None else np.broadcast_to(dist, (n,))
    pts = np.empty((n, cols))
    pts[:, :3] = u * d[:, None]
    pts[:, 3] = -1.0
    for c in range(4, cols):
        pts[:, c] = c + 3.0
    return pts.astype(dtype)


def _binomial_ok(count, n, p):
    return abs(count - n * p) <= 4 * math.sqrt(n * p * (1 - p)) + 1


def test_defaults_are_carlas():
    m = CarlaLidarNoise(seed=1)
    assert m.atmosphere_attenuation_rate == 0.004
    assert m.dropoff_general_rate == 0.45
    assert m.dropoff_intensity_limit == 0.8
    assert m.dropoff_zero_intensity == 0.4
    assert m.noise_stddev == 0.0


def test_no_dropoff_keeps_every_point_and_writes_the_intensity():
    pts = _cloud(5000)
    m = CarlaLidarNoise(dropoff_general_rate=0.0, dropoff_zero_intensity=0.0, seed=2)
    res = m.apply(pts)
    assert res.mask.all() and res.points.shape == pts.shape
    np.testing.assert_array_equal(res.points[:, :3], pts[:, :3])  # no noise: unmoved
    np.testing.assert_array_equal(res.points[:, 4:], pts[:, 4:])  # extra columns kept
    d = np.linalg.norm(pts[:, :3], axis=1)
    np.testing.assert_allclose(res.points[:, 3], np.exp(-0.004 * d), rtol=4e-16 * 8)
    assert np.all(pts[:, 3] == -1.0)  # the input is not modified


def test_general_rate_one_drops_everything_and_tiny_rates_are_off():
    pts = _cloud(3000)
    gone = CarlaLidarNoise(dropoff_general_rate=1.0, dropoff_zero_intensity=0.0, seed=3)
    res = gone.apply(pts)
    assert not res.mask.any() and res.points.shape == (0, 6)
    # CARLA: DropOffGenActive only when the rate exceeds FLT_EPSILON
    off = CarlaLidarNoise(dropoff_general_rate=FLT_EPSILON, dropoff_zero_intensity=0.0, seed=3)
    assert off.apply(pts).mask.all()


def test_general_rate_keeps_one_minus_rate():
    n = 200_000
    pts = _cloud(n, seed=4)
    m = CarlaLidarNoise(dropoff_general_rate=0.45, dropoff_zero_intensity=0.0, seed=4)
    assert _binomial_ok(int(m.apply(pts).mask.sum()), n, 0.55)


def test_intensity_dropoff_rule():
    n = 200_000
    # points at 10 m with a = 0.1: I = e^-1 = 0.3679 <= 0.8, kept with 1 - p0 + p0 I / limit
    m = CarlaLidarNoise(
        atmosphere_attenuation_rate=0.1,
        dropoff_general_rate=0.0,
        dropoff_intensity_limit=0.8,
        dropoff_zero_intensity=0.4,
        seed=5,
    )
    res = m.apply(_cloud(n, dist=10.0, seed=5), drop=False)
    p = 1 - 0.4 + 0.4 / 0.8 * math.exp(-1.0)
    assert _binomial_ok(int(res.mask.sum()), n, p)
    # p0 = 1, limit = 1: kept with probability I exactly
    full = CarlaLidarNoise(
        atmosphere_attenuation_rate=0.1,
        dropoff_general_rate=0.0,
        dropoff_intensity_limit=1.0,
        dropoff_zero_intensity=1.0,
        seed=6,
    )
    assert _binomial_ok(int(full.apply(_cloud(n, dist=10.0, seed=6)).mask.sum()), n, math.exp(-1))


def test_points_above_the_limit_are_always_kept_and_below_it_follow_the_rule():
    # limit 0.5, p0 = 1: I > 0.5 always kept, I <= 0.5 kept with probability 2 I
    n = 100_000
    near = _cloud(n, dist=5.0, seed=7)  # I = e^-0.5 = 0.607 > 0.5
    far = _cloud(n, dist=20.0, seed=8)  # I = e^-2 = 0.135
    m = CarlaLidarNoise(
        atmosphere_attenuation_rate=0.1,
        dropoff_general_rate=0.0,
        dropoff_intensity_limit=0.5,
        dropoff_zero_intensity=1.0,
        seed=9,
    )
    assert m.apply(near).mask.all()
    assert _binomial_ok(int(m.apply(far).mask.sum()), n, 2 * math.exp(-2.0))
    # p0 = 1 and a point of (nearly) zero intensity: kept with probability 2 I ~ 1e-307
    zero = CarlaLidarNoise(
        atmosphere_attenuation_rate=100.0,
        dropoff_general_rate=0.0,
        dropoff_intensity_limit=0.5,
        dropoff_zero_intensity=1.0,
        seed=9,
    )
    res = zero.apply(_cloud(1000, dist=50.0), drop=False)
    assert not res.mask.any() and np.all(res.points[:, 3] <= 1e-300)


def test_noise_moves_points_along_their_ray_and_intensity_uses_the_clean_distance():
    n = 100_000
    pts = _cloud(n, seed=10)
    m = CarlaLidarNoise(noise_stddev=0.05, dropoff_general_rate=0.0, dropoff_zero_intensity=0.0)
    res = m.apply(pts)
    d0 = np.linalg.norm(pts[:, :3], axis=1)
    d1 = np.linalg.norm(res.points[:, :3], axis=1)
    cross = np.cross(pts[:, :3], res.points[:, :3])
    assert np.abs(cross).max() <= 1e-9 * d0.max() ** 2  # same direction
    dr = d1 - d0
    assert abs(dr.mean()) <= 4 * 0.05 / math.sqrt(n)
    assert dr.std() == pytest.approx(0.05, rel=0.02)
    np.testing.assert_allclose(res.points[:, 3], np.exp(-0.004 * d0), rtol=4e-15)
    # at or below FLT_EPSILON the noise is off (CARLA's test), exactly
    quiet = CarlaLidarNoise(noise_stddev=FLT_EPSILON, dropoff_general_rate=0.0)
    np.testing.assert_array_equal(quiet.apply(pts, drop=False).points[:, :3], pts[:, :3])


def test_keyed_per_point_pieces_frames_threads_and_in_place():
    pts = _cloud(70_000, seed=11)
    m = CarlaLidarNoise(noise_stddev=0.03, seed=12)
    whole = m.apply(pts, frame=7, drop=False)
    a = m.apply(pts[:30_001], frame=7, drop=False)
    b = m.apply(pts[30_001:], frame=7, first_index=30_001, drop=False)
    np.testing.assert_array_equal(np.concatenate([a.points, b.points]), whole.points)
    np.testing.assert_array_equal(np.concatenate([a.mask, b.mask]), whole.mask)
    threaded = m.apply(pts, frame=7, drop=False, threads=4)
    np.testing.assert_array_equal(threaded.points, whole.points)
    batch = m.apply(np.stack([pts, pts]), frame=6)
    np.testing.assert_array_equal(batch.points[1], whole.points)
    np.testing.assert_array_equal(batch.mask[1], whole.mask)
    assert (batch.mask[0] != batch.mask[1]).mean() > 0.2  # another frame, other draws
    kept = m.apply(pts, frame=7)
    np.testing.assert_array_equal(kept.points, whole.points[whole.mask])
    buf = np.empty_like(pts)
    kept_out = m.apply(pts, frame=7, out=buf)  # drop with out: out keeps every row
    np.testing.assert_array_equal(kept_out.points, whole.points[whole.mask])
    np.testing.assert_array_equal(buf, whole.points)
    kept32 = m.apply(pts.astype(np.float32), frame=7)
    full32 = m.apply(pts.astype(np.float32), frame=7, drop=False)
    np.testing.assert_array_equal(kept32.points, full32.points[full32.mask])
    inplace = pts.copy()
    res = m.apply(inplace, frame=7, drop=False, out=inplace)
    assert res.points is inplace
    np.testing.assert_array_equal(inplace, whole.points)
    same = CarlaLidarNoise(noise_stddev=0.03, seed=12).apply(pts, frame=7, drop=False)
    np.testing.assert_array_equal(same.points, whole.points)


def test_float32_stays_float32_with_the_same_draws():
    pts = _cloud(20_000, seed=13)
    m = CarlaLidarNoise(dropoff_zero_intensity=0.0, seed=14)
    r64 = m.apply(pts, drop=False, frame=0)
    r32 = m.apply(pts.astype(np.float32), drop=False, frame=0)
    assert r32.points.dtype == np.float32
    np.testing.assert_array_equal(r32.mask, r64.mask)  # the general drop-off only
    np.testing.assert_allclose(r32.points, r64.points, rtol=1e-6, atol=1e-6)


def test_non_finite_points_are_dropped_and_copied():
    pts = _cloud(6, seed=15)
    pts[1, 0] = np.nan
    pts[4, 2] = np.inf
    m = CarlaLidarNoise(dropoff_general_rate=0.0, dropoff_zero_intensity=0.0, noise_stddev=0.1)
    res = m.apply(pts, drop=False)
    np.testing.assert_array_equal(res.mask, [True, False, True, True, False, True])
    np.testing.assert_array_equal(res.points[[1, 4], :3], pts[[1, 4], :3])


def test_bad_arguments_are_refused_by_name():
    for kw, name in (
        ({"dropoff_general_rate": 1.5}, "dropoff_general_rate"),
        ({"dropoff_zero_intensity": -0.1}, "dropoff_zero_intensity"),
        ({"dropoff_intensity_limit": 0.0}, "dropoff_intensity_limit"),
        ({"atmosphere_attenuation_rate": float("nan")}, "atmosphere_attenuation_rate"),
        ({"noise_stddev": -1.0}, "noise_stddev"),
    ):
        with pytest.raises(ValueError, match=name):
            CarlaLidarNoise(**kw)
    m = CarlaLidarNoise(seed=1)
    with pytest.raises(ValueError, match="points"):
        m.apply(np.zeros((5, 3)))
    with pytest.raises(ValueError, match="drop"):
        m.apply(np.zeros((2, 5, 4)), drop=True)
    with pytest.raises(ValueError, match="frame"):
        m.apply(np.zeros((2, 5, 4)), frame=2**62 - 2)
    with pytest.raises(TypeError, match="points"):
        m.apply(np.zeros((5, 4), dtype=complex))


def test_one_model_shared_by_four_threads():
    # explicit frames: each call reads the model only (no lock) and gives its solo bits
    import threading

    m = CarlaLidarNoise(noise_stddev=0.02, seed=21)
    pts = _cloud(30_000, seed=22)
    jobs = list(range(16))
    results = [None] * len(jobs)
    barrier = threading.Barrier(4)

    def worker(k):
        barrier.wait()
        for i in range(k, len(jobs), 4):
            r = m.apply(pts, frame=jobs[i], threads=2)
            results[i] = r.points.tobytes() + r.mask.tobytes()

    ts = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    solo = [m.apply(pts, frame=f) for f in jobs]
    assert results == [r.points.tobytes() + r.mask.tobytes() for r in solo]


def test_an_object_never_initialised_refuses_to_run():
    m = CarlaLidarNoise.__new__(CarlaLidarNoise)
    with pytest.raises(RuntimeError, match="never initialised"):
        m.apply(np.zeros((3, 4)))
