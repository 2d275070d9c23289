"""Lidar noise against its peers' own tests and source: RGL (RobotecGPULidar) for
``LidarNoise``, gz-sensors for ``RangeNoise``. Each test names the peer file and commit
its numbers come from; the scenes (a cube, a lidar, rays) are rebuilt here with numpy
raycasts, since fastnoise noises points the caller has already traced.

RGL commits read: 756eb122997f66e93a6a45e435e1ba00e9ff1d60 (HEAD,
``src/gpu/gaussianNoiseKernels.cu``), f9586a0b (``test/src/graph/gaussianStressTest.cpp``,
``gaussianPoseIndependentTest.cpp``), 9954c889ed9101f16b16f1a2c5f83664a5b3c2dc (the last
legacy test, ``test/src/features/gaussianNoise.cpp``), 523e6cedde87fe5e858755a0d97b51b7c99c1120
(the legacy kernels, ``src/gaussianNoise.cu``). gz-sensors:
9ba02f24108e57666d326e22317443034eb860f8 (``src/Lidar.cc``, ``src/CpuLidarSensor.cc``,
``src/GaussianNoiseModel.cc``, ``test/integration/cpu_lidar_sensor.cc``).
"""

import math

import numpy as np
import pytest

from fastnoise import LidarNoise, RangeNoise
from fastnoise.models.lidar import HITPOINT_BASED, RAY_BASED

# ---- RGL helpers -----------------------------------------------------------------------


def _translation(x, y, z):
    m = np.eye(4)
    m[:3, 3] = (x, y, z)
    return m


def _rotation_deg(x, y, z):
    """RGL's Mat3x4f::rotationRad(x, y, z) (degrees here): Rz(z) Ry(y) Rx(x)."""
    cr, sr = math.cos(math.radians(x)), math.sin(math.radians(x))
    cp, sp = math.cos(math.radians(y)), math.sin(math.radians(y))
    cy, sy = math.cos(math.radians(z)), math.sin(math.radians(z))
    return np.array(
        [
            [cp * cy, sr * sp * cy - cr * sy, sr * sy + cr * sp * cy],
            [cp * sy, cr * cy + sr * sp * sy, cr * sp * sy - sr * cy],
            [-sp, sr * cp, cr * cp],
        ]
    )


def _trs(t, r_deg):
    m = np.eye(4)
    m[:3, :3] = _rotation_deg(*r_deg)
    m[:3, 3] = t
    return m


def _angles(points):
    """RGL's computeAngles: atan2(z, x) of each point."""
    return np.arctan2(points[:, 2].astype(np.float64), points[:, 0].astype(np.float64))


def _mean_std(v):
    """RGL's calcMeanAndStdev: mean and population standard deviation."""
    v = np.asarray(v, dtype=np.float64)
    return v.mean(), v.std()


# ---- fix of issue #14: hitpoint noise rewrites the distance (gaussianNoiseKernels.cu) ----


def test_hitpoint_noise_rewrites_the_distance_and_distance_noise_uses_it():
    # kAddGaussianNoiseAngularHitpoint writes |Rot(e) L p| into DISTANCE, and
    # kAddGaussianNoiseDistance then takes sigma = base + rise * DISTANCE and
    # DISTANCE + eps. Given distances differ from |p - origin| so the rule is visible.
    rng = np.random.default_rng(3)
    pts = rng.uniform(-40, 40, (5000, 3))
    true_d = np.linalg.norm(pts, axis=1)
    given = 1.3 * true_d + 0.5
    rotate = LidarNoise(hitpoint_angular_noise_mean=0.2, seed=9)
    res = rotate.apply(pts, distances=given, frame=4)
    np.testing.assert_allclose(res.distances, true_d, rtol=1e-14)
    np.testing.assert_allclose(res.distances, np.linalg.norm(res.points, axis=1), rtol=1e-14)
    assert np.all(np.abs(res.distances - given) > 0.4)

    # the distance draws z of frame 4, read with a distance-only model: 1 + 1 * z
    z = (
        LidarNoise(distance_noise_stddev_base=1.0, seed=9)
        .apply(pts, distances=np.ones(len(pts)), frame=4)
        .distances
        - 1.0
    )
    rise = 0.05
    both = LidarNoise(
        hitpoint_angular_noise_mean=0.2, distance_noise_stddev_rise_per_meter=rise, seed=9
    ).apply(pts, distances=given, frame=4)
    np.testing.assert_allclose(both.distances, true_d + rise * true_d * z, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(
        both.distances, np.linalg.norm(both.points, axis=1), rtol=1e-12, atol=1e-12
    )
    old_rule = given + rise * given * z
    assert np.all(np.abs(both.distances - old_rule) > 0.1)


def test_distance_noise_alone_keeps_the_given_distance():
    # without angular noise RGL's DISTANCE field is the raycast's: d' = d + eps
    pts = np.array([[0.0, 0.0, 3.0], [4.0, 0.0, 0.0]])
    res = LidarNoise(distance_noise_mean=0.1, seed=1).apply(pts, distances=[10.0, 20.0])
    np.testing.assert_array_equal(res.distances, [10.1, 20.1])
    np.testing.assert_allclose(res.points, [[0.0, 0.0, 3.1], [4.1, 0.0, 0.0]], rtol=1e-15)


# ---- RGL gaussianStressTest.cpp: 100,000 rays, 256 frames ------------------------------

RAYS = 100_000
FRAMES = 256
MEAN = 0.1
STD_DEV = 0.01
STD_DEV_PER_METER = 0.001
EPS_NOISE = 0.002  # EPSILON_NOISE
EPS_MUL = 2e-6  # EPSILON_MUL: |xyz| against DISTANCE
LIDAR_POSE = _translation(0, 0, 1)  # lidarPoseTf; the cube at z = 5 (half size 1)
HIT_LOCAL = np.array([0.0, 0.0, 3.0])  # noiselessHitpointInLidarFrame


def _hits_world():
    return np.tile((LIDAR_POSE[:3, 3] + HIT_LOCAL).astype(np.float32), (RAYS, 1))


def _expected_angle():
    # rotationRad(Y, MEAN) * translation(hit): R_y(MEAN) (0, 0, 3)
    c, s = math.cos(MEAN), math.sin(MEAN)
    p = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]) @ HIT_LOCAL
    return math.atan2(p[2], p[0])


def test_rgl_stress_distance():
    noise = LidarNoise(
        distance_noise_mean=MEAN,
        distance_noise_stddev_base=STD_DEV,
        distance_noise_stddev_rise_per_meter=STD_DEV_PER_METER,
        seed=256,
    )
    hits = _hits_world()
    for frame in range(FRAMES):
        res = noise.apply(hits, lidar_pose=LIDAR_POSE, frame=frame, return_local=True)
        norms = np.linalg.norm(res.local_points.astype(np.float64), axis=1)
        assert np.abs(norms - res.distances).max() <= EPS_MUL
        mean, std = _mean_std(res.distances)
        assert abs(mean - (HIT_LOCAL[2] + MEAN)) <= EPS_NOISE
        assert abs(std - (HIT_LOCAL[2] * STD_DEV_PER_METER + STD_DEV)) <= EPS_NOISE


def test_rgl_stress_angular_hitpoint():
    noise = LidarNoise(
        hitpoint_angular_noise_mean=MEAN, hitpoint_angular_noise_stddev=STD_DEV, seed=256
    )
    hits = _hits_world()
    expected = _expected_angle()
    for frame in range(FRAMES):
        res = noise.apply(hits, lidar_pose=LIDAR_POSE, frame=frame, return_local=True)
        norms = np.linalg.norm(res.local_points.astype(np.float64), axis=1)
        assert np.abs(norms - res.distances).max() <= EPS_MUL
        mean, std = _mean_std(_angles(res.local_points))
        assert abs(mean - expected) <= EPS_NOISE
        assert abs(std - STD_DEV) <= EPS_NOISE


def test_rgl_stress_angular_ray():
    noise = LidarNoise(ray_angular_noise_mean=MEAN, ray_angular_noise_stddev=STD_DEV, seed=256)
    rays = np.tile(LIDAR_POSE[:3].astype(np.float32), (RAYS, 1, 1))  # identity rays, moved
    expected = _expected_angle()
    for frame in range(FRAMES):
        noisy = noise.perturb_rays(rays, lidar_pose=LIDAR_POSE, frame=frame)
        direction = noisy[:, :, 2].astype(np.float64)
        origin = noisy[:, :, 3]
        # the rotation keeps every ray at the lidar origin with a unit direction, so the
        # raycast's |xyz| equals its distance (EPSILON_MUL)
        assert np.array_equal(origin, rays[:, :, 3])
        assert np.abs(np.einsum("ij,ij->i", direction, direction) - 1.0).max() <= 2 * EPS_MUL
        # the cube face z = 4 (world) lies at z = 3 in front of every ray: the hit's
        # atan2(z, x) in the lidar frame is the direction's
        mean, std = _mean_std(np.arctan2(direction[:, 2], direction[:, 0]))
        assert abs(mean - expected) <= EPS_NOISE
        assert abs(std - STD_DEV) <= EPS_NOISE


# ---- RGL gaussianPoseIndependentTest.cpp: 32,761 rays, 5 poses --------------------------

POSES = [
    np.eye(4),
    _trs((100, 200, 300), (43, 123, 99)),
    _trs((5, 5, 5), (45, 45, 45)),
    _trs((123, 321, 10.5), (90, 0, 35.6)),
    np.eye(4),
]
EPS_DIFF = 1e-4


def _lidar3d_ray_dirs():
    """makeLidar3dRays(360, 180, 2, 1): rays rotationDeg(x, y, 0), x in -180..180 step 2,
    y in -90..90 step 1 (181 x 181 = 32,761); a ray's direction is its local +Z."""
    dirs = [
        _rotation_deg(-180.0 + 2.0 * i, -90.0 + j, 0.0)[:, 2]
        for i in range(181)
        for j in range(181)
    ]
    return np.array(dirs)


def _cube_hits(dirs):
    """Ray casts from the centre of the cube [-1, 1]^3, in its (and the lidar's) frame."""
    t = 1.0 / np.abs(dirs).max(axis=1)
    return dirs * t[:, None]


@pytest.mark.parametrize("kind", ["distance", "hitpoint", "ray"])
def test_rgl_results_do_not_depend_on_the_lidar_pose(kind):
    dirs = _lidar3d_ray_dirs()
    assert len(dirs) == 32_761
    if kind == "distance":
        noise = LidarNoise(distance_noise_mean=MEAN, seed=5)
    elif kind == "hitpoint":
        noise = LidarNoise(hitpoint_angular_noise_mean=MEAN, seed=5)
    else:
        noise = LidarNoise(ray_angular_noise_mean=MEAN, seed=5)
    results = []
    for pose in POSES:
        # cube and lidar share the pose; the raycast happens in the cube's frame
        if kind == "ray":
            rays = np.zeros((len(dirs), 3, 4))
            rays[:, :, 2] = dirs
            world_rays = np.einsum("ij,njk->nik", pose[:3, :3], rays)
            world_rays[:, :, 3] += pose[:3, 3]
            noisy = noise.perturb_rays(world_rays.astype(np.float32), lidar_pose=pose)
            local_dirs = noisy[:, :, 2].astype(np.float64) @ pose[:3, :3]
            local = _cube_hits(local_dirs)
            xyz, dist = local, np.linalg.norm(local, axis=1)
        else:
            world = (_cube_hits(dirs) @ pose[:3, :3].T + pose[:3, 3]).astype(np.float32)
            res = noise.apply(world, lidar_pose=pose, return_local=True)
            xyz, dist = res.local_points, res.distances
        results.append((np.asarray(xyz, dtype=np.float64), np.asarray(dist, dtype=np.float64)))
    first_xyz, first_d = results[0]
    for xyz, d in results[1:]:
        assert np.abs(xyz - first_xyz).max() <= EPS_DIFF
        assert np.abs(d - first_d).max() <= EPS_DIFF


# ---- RGL legacy API (<= 0.10), test/src/features/gaussianNoise.cpp ---------------------

LEGACY_POINTS = 20_000  # the peer used 500,000 rays; the zero-stddev cases are exact
LEGACY_HIT_Z = 4.0  # expected_hitpoint_z
LEGACY_ANGLE = 1.57  # expected_angle_in_radians (pi/2 to 0.0008)
LEGACY_ERR = 0.002  # abs_error
LEGACY_MEANS = (-0.1, 0.0, 0.1)


def _legacy_hits():
    return np.tile(np.array([0.0, 0.0, LEGACY_HIT_Z], dtype=np.float32), (LEGACY_POINTS, 1))


def test_legacy_distance_noise_mean_is_exact():
    for mean in LEGACY_MEANS:
        noise = LidarNoise.from_rgl(RAY_BASED, 0.0, 0.0, 0.0, 0.0, mean, seed=1)
        res = noise.apply(_legacy_hits())
        assert np.all(res.points[:, 0] == 0.0) and np.all(res.points[:, 1] == 0.0)
        assert np.all(res.points[:, 2] == np.float32(LEGACY_HIT_Z) + np.float32(mean))


def test_legacy_distance_standard_deviation():
    noise = LidarNoise.from_rgl(RAY_BASED, 0.0, 0.0, 0.1, 0.0, 0.0, seed=2)
    d = np.linalg.norm(noise.apply(_legacy_hits(), frame=1).points.astype(np.float64), axis=1)
    mean, std = _mean_std(d)
    assert abs(mean - LEGACY_HIT_Z) <= LEGACY_ERR
    assert abs(std - 0.1) <= LEGACY_ERR


def test_legacy_angle_noise_hitpoint_based_standard_deviation():
    noise = LidarNoise.from_rgl(HITPOINT_BASED, 0.01, 0.0, 0.0, 0.0, 0.0, seed=3)
    mean, std = _mean_std(_angles(noise.apply(_legacy_hits(), frame=2).points))
    assert abs(mean - LEGACY_ANGLE) <= LEGACY_ERR
    assert abs(std - 0.01) <= LEGACY_ERR


def test_legacy_angle_noise_hitpoint_based_mean():
    # AngleNoiseHitpointBasedMean: atan2(z, x) = pi/2 + mean (Rot_y(-angle) in
    # src/gaussianNoise.cu's rotatePointAroundY), stddev 0
    for mean in LEGACY_MEANS:
        noise = LidarNoise.from_rgl(HITPOINT_BASED, 0.0, mean, 0.0, 0.0, 0.0, seed=4)
        angle_mean, angle_std = _mean_std(_angles(noise.apply(_legacy_hits()).points))
        assert abs(angle_mean - (LEGACY_ANGLE + mean)) <= LEGACY_ERR
        assert angle_std <= LEGACY_ERR
        # and the sign: the plain constructor's +mean turns the other way (RGL today)
        plain = LidarNoise(hitpoint_angular_noise_mean=mean, seed=4)
        plain_mean, _ = _mean_std(_angles(plain.apply(_legacy_hits()).points))
        assert abs(plain_mean - (math.pi / 2 - mean)) <= 1e-6


def test_legacy_angle_noise_ray_based():
    # AngleNoiseRayBasedStandardDeviation, and the legacy Rot_y(-angle) of the rays
    # (yAxisRotation3x4Matrix(angle) = [[c, 0, -s], [0, 1, 0], [s, 0, c]] on the left)
    rays = np.tile(np.eye(4)[:3].astype(np.float32), (LEGACY_POINTS, 1, 1))
    for std, mean in ((0.01, 0.0), (0.0, 0.1), (0.0, -0.1)):
        noise = LidarNoise.from_rgl(RAY_BASED, std, mean, 0.0, 0.0, 0.0, seed=5)
        direction = noise.perturb_rays(rays)[:, :, 2]
        hits = direction * (LEGACY_HIT_Z / direction[:, 2:3])
        angle_mean, angle_std = _mean_std(_angles(hits))
        assert abs(angle_mean - (LEGACY_ANGLE + mean)) <= LEGACY_ERR
        assert abs(angle_std - std) <= LEGACY_ERR


# ---- gz-sensors: Lidar.cc, CpuLidarSensor.cc, cpu_lidar_sensor.cc ------------------------


def test_gz_noise_clamping_port():
    # CpuLidarSensorTest.NoiseClamping: gaussian, mean 5, stddev 0, range [0.1, 10]:
    # a raw range of 8 becomes 13, clamped to 10
    gz = RangeNoise.from_gazebo(0.1, 10.0, noise_type="gaussian", mean=5.0, cpu_lidar=True, seed=1)
    assert gz.enabled
    assert abs(gz.apply(np.array([8.0]))[0] - 10.0) <= 1e-6
    assert abs(gz.apply_one(8.0) - 10.0) <= 1e-6


def test_gz_noise_applied_port():
    # CpuLidarSensorTest.NoiseApplied: 10 rays at fraction 0.5 of [0.1, 10] (5.05 m),
    # gaussian mean 0, stddev 0.5: every range in (0, 15), at least one differs
    gz = RangeNoise.from_gazebo(
        0.1, 10.0, noise_type="gaussian", stddev=0.5, cpu_lidar=True, seed=42
    )
    ranges = gz.apply(np.full(10, 0.1 + 0.5 * 9.9))
    assert np.all((ranges > 0.0) & (ranges < 15.0))
    assert np.sum(np.abs(ranges - 5.05) > 1e-6) > 0


def test_gz_a_noise_model_exists_only_for_gaussian_with_a_nonzero_field():
    r = np.array([-1.0, 0.05, 3.0, 50.0, np.inf, -np.inf, np.nan])
    # Lidar::Load: no model for bias_stddev alone, for "none", "gaussian_quantized"
    # (only GAUSSIAN is supported there), or for fields within 1e-6 of 0
    for kw in (
        {"bias_stddev": 0.3},
        {"noise_type": "none", "mean": 1.0},
        {"noise_type": "gaussian_quantized", "mean": 1.0},
        {"noise_type": "Gaussian", "mean": 1e-7, "stddev": 5e-7},
    ):
        gz = RangeNoise.from_gazebo(0.1, 10.0, **kw, seed=2)
        assert not gz.enabled and gz.bias == 0.0
        # no noise, no clamp; only the limits' +-inf (before any noise, in both lidars)
        np.testing.assert_array_equal(gz.apply(r), [-np.inf, -np.inf, 3.0, np.inf, *r[4:]])
    # each of mean, stddev, bias_mean and a dynamic-bias field makes one
    for kw in (
        {"mean": 2e-6},
        {"stddev": 0.1},
        {"bias_mean": 0.2},
        {"dynamic_bias_stddev": 0.1},
        {"dynamic_bias_correlation_time": 3.0},
    ):
        assert RangeNoise.from_gazebo(0.1, 10.0, noise_type="GAUSSIAN", **kw, seed=2).enabled
    # the dynamic bias never moves (Apply(range) has dt = 0): a model with only those
    # fields returns the true ranges, those outside [0.1, 10] as -inf/+inf (both Gazebo
    # lidars: GpuLidarSensor.cc SetClamp(false), CpuLidarSensor::SetRaycastResults)
    # and NaN as max (Lidar::Clamp)
    dyn = RangeNoise.from_gazebo(
        0.1, 10.0, dynamic_bias_stddev=0.5, dynamic_bias_correlation_time=2.0, seed=3
    )
    np.testing.assert_array_equal(
        dyn.apply(r), [-np.inf, -np.inf, 3.0, np.inf, np.inf, -np.inf, 10.0]
    )
    assert dyn.inf_outside_limits


def test_gz_cpu_lidar_turns_out_of_limit_ranges_into_inf_before_the_noise():
    # CpuLidarSensor::SetRaycastResults: range < min -> -inf, > max -> +inf, then noise
    # and the clamp only for finite ranges
    r = np.array([0.05, 0.1, 5.0, 10.0, 10.5, np.inf])
    cpu = RangeNoise.from_gazebo(0.1, 10.0, mean=0.5, cpu_lidar=True, seed=4)
    np.testing.assert_array_equal(cpu.apply(r), [-np.inf, 0.6, 5.5, 10.0, np.inf, np.inf])
    # the GPU lidar the same (gz-sensors GpuLidarSensor.cc: SetClamp(false); gz-rendering
    # BaseGpuRays.hh: dataMinVal/dataMaxVal -INF_D/INF_D outside near 0.1 / far 10)
    gpu = RangeNoise.from_gazebo(0.1, 10.0, mean=0.5, seed=4)
    np.testing.assert_array_equal(gpu.apply(r), [-np.inf, 0.6, 5.5, 10.0, np.inf, np.inf])
    # with no noise model the CPU lidar still reports +-inf
    quiet = RangeNoise.from_gazebo(0.1, 10.0, noise_type="none", cpu_lidar=True, seed=4)
    np.testing.assert_array_equal(quiet.apply(r), [-np.inf, 0.1, 5.0, 10.0, np.inf, np.inf])


def test_gz_clamp_rules():
    # Lidar::Clamp: NaN -> max, finite -> [min, max], +-inf kept; a true 0.0 is below
    # min 1.0, so -inf before the noise
    gz = RangeNoise.from_gazebo(1.0, 20.0, mean=0.25, seed=5)
    out = gz.apply(np.array([np.nan, 0.0, 19.9, np.inf, -np.inf, 7.0, 1.0]))
    np.testing.assert_array_equal(out, [20.0, -np.inf, 20.0, np.inf, -np.inf, 7.25, 1.25])


def test_gz_bias_sign_is_flipped_with_probability_one_half():
    # GaussianNoiseModel::Load: bias = N(bias_mean, bias_stddev), negated when a
    # uniform draw is < 0.5; plain bias_mean when the stddev is 0
    biases = np.array(
        [RangeNoise.from_gazebo(0, 1, bias_mean=0.5, seed=s).bias for s in range(2000)]
    )
    assert set(np.unique(biases)) == {-0.5, 0.5}
    frac = np.mean(biases < 0)
    assert abs(frac - 0.5) <= 4 * 0.5 / math.sqrt(2000)


def test_gz_precision_threshold_and_rounding():
    # quantized only when |precision| > 1e-6 (math::equal(precision, 0, 1e-6)), then
    # std::round(out / precision) * precision, halves away from zero
    r = np.array([1.0000004, 2.5000001])
    tiny = RangeNoise(0.0, 0.0, 0.0, 10.0, precision=1e-6, seed=1)
    np.testing.assert_array_equal(tiny.apply(r), r)
    fine = RangeNoise(0.0, 0.0, 0.0, 10.0, precision=2e-6, seed=1)
    np.testing.assert_array_equal(fine.apply(r), np.round(r / 2e-6) * 2e-6)
    half = RangeNoise(0.0, 0.0, 0.0, 10.0, precision=0.5, seed=1)
    np.testing.assert_array_equal(half.apply(np.array([0.25, 0.75, 1.25])), [0.5, 1.0, 1.5])
    # a division, as std::round(out / precision): 0.15 / 0.1 = 1.4999999999999998 rounds
    # to 1 (0.1), while 0.15 * (1 / 0.1) = 1.5 would round to 2 (0.2)
    p = RangeNoise(0.0, 0.0, 0.0, 10.0, precision=0.1, seed=1)
    assert 0.15 / 0.1 < 1.5 and 0.15 * (1 / 0.1) == 1.5
    assert p.apply_one(0.15) == 0.1
    # 0.35 / 0.1 = 3.4999999999999996: 3 * 0.1; -0.15 rounds to -0.1, clamped to min 0
    np.testing.assert_array_equal(p.apply(np.array([0.15, 0.35, -0.15])), [0.1, 3 * 0.1, 0.0])


def test_from_gazebo_refuses_bad_fields_by_name():
    with pytest.raises(ValueError, match="noise_type"):
        RangeNoise.from_gazebo(0.1, 10.0, noise_type="uniform")
    with pytest.raises(TypeError, match="noise_type"):
        RangeNoise.from_gazebo(0.1, 10.0, noise_type=3)
    with pytest.raises(ValueError, match="dynamic_bias_stddev"):
        RangeNoise.from_gazebo(0.1, 10.0, dynamic_bias_stddev=float("nan"))
    with pytest.raises(ValueError, match="precision"):
        RangeNoise.from_gazebo(0.1, 10.0, precision=-0.1)
