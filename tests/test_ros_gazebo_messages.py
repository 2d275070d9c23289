"""The Gazebo sensors' ROS messages in ``fastnoise apply`` and TopicNoise: Range (the
``range`` model, REP 117's +-inf kept), NavSatFix, MagneticField and FluidPressure (the
Gazebo models), on real bags written and read back by rosbags (ROS 1 and ROS 2).

Checked: each noised value equals the model called directly on the same reading (bit
for bit), the covariances equal sigma^2 worked out here from the suite's parameters,
header, stamp and every other field are unchanged, and the noise statistics (fixed
seed; tolerance beside the check).
"""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

pytest.importorskip("rosbags")

from rosbags.typesys import Stores, get_typestore  # noqa: E402

from fastnoise import RangeNoise  # noqa: E402
from fastnoise.io.apply.apply import apply  # noqa: E402
from fastnoise.io.ros import TopicNoise  # noqa: E402
from fastnoise.io.suite import Suite, name_seed_sequence  # noqa: E402
from fastnoise.models.gazebo.navsat import NavSatNoise  # noqa: E402
from fastnoise.models.gazebo.pressure import AirPressureNoise  # noqa: E402
from fastnoise.models.gazebo.sensors import MagnetometerNoise  # noqa: E402

TS1 = get_typestore(Stores.ROS1_NOETIC)
TS2 = get_typestore(Stores.ROS2_HUMBLE)
SEED = 17
N = 400  # messages per topic
T0 = 1_700_000_000 * 10**9
STEP_NS = 20_000_000

# horizontal in degrees (gz-sensors' unit), the others in metres, tesla and pascals
H_POS = {"stddev": 2e-5, "bias_mean": 1e-5, "bias_stddev": 3e-6}
V_POS = {"stddev": 1.5, "bias_mean": 0.5}
MAG_X = {"stddev": 2e-6, "bias_stddev": 1e-6}
MAG_Z = {"stddev": 4e-6}
PRESSURE = {"stddev": 12.0, "bias_mean": -3.0, "bias_stddev": 2.0, "precision": 0.5}
RANGE = {"mean": 0.0, "stddev": 0.02, "bias_mean": 0.01}

SUITE = {
    "seed": SEED,
    "topics": {
        "/sonar": {"model": "range", **RANGE},
        "/gps/fix": {"model": "navsat", "horizontal_position": H_POS, "vertical_position": V_POS},
        "/mag": {"model": "magnetometer", "x": MAG_X, "z": MAG_Z},
        "/baro": {"model": "air_pressure", "pressure": PRESSURE},
    },
}
TYPES = {
    "/sonar": "sensor_msgs/msg/Range",
    "/gps/fix": "sensor_msgs/msg/NavSatFix",
    "/mag": "sensor_msgs/msg/MagneticField",
    "/baro": "sensor_msgs/msg/FluidPressure",
}

# true ranges: in range, REP 117's -inf (too close) and +inf (nothing), NaN, and below
# min_range / above max_range (clamped by the model)
RANGES = [1.0, 2.5, -np.inf, np.inf, np.nan, 0.05, 7.0]


def header(T, k: int):
    t = T0 + k * STEP_NS
    stamp = T["builtin_interfaces/msg/Time"](sec=t // 10**9, nanosec=t % 10**9)
    if "seq" in T["std_msgs/msg/Header"].__dataclass_fields__:
        return T["std_msgs/msg/Header"](seq=k, stamp=stamp, frame_id=f"frame{k % 3}")
    return T["std_msgs/msg/Header"](stamp=stamp, frame_id=f"frame{k % 3}")


def range_msg(T, k):
    cls = T["sensor_msgs/msg/Range"]
    kw = {}
    if "variance" in cls.__dataclass_fields__:  # newer distributions carry it
        kw["variance"] = 0.0
    return cls(
        header=header(T, k),
        radiation_type=1,
        field_of_view=0.3,
        min_range=0.1 if k % 2 else 0.2,
        max_range=5.0,
        range=RANGES[k % len(RANGES)],
        **kw,
    )


def navsat_msg(T, k):
    status = T["sensor_msgs/msg/NavSatStatus"](status=0, service=1)
    return T["sensor_msgs/msg/NavSatFix"](
        header=header(T, k),
        status=status,
        latitude=48.1 + 1e-6 * k,
        longitude=11.5,
        altitude=520.0,
        position_covariance=np.zeros(9),
        position_covariance_type=0,
    )


def mag_msg(T, k):
    V = T["geometry_msgs/msg/Vector3"]
    return T["sensor_msgs/msg/MagneticField"](
        header=header(T, k),
        magnetic_field=V(x=2e-5, y=-1e-6, z=-4.3e-5),
        magnetic_field_covariance=np.zeros(9),
    )


def baro_msg(T, k):
    return T["sensor_msgs/msg/FluidPressure"](
        header=header(T, k), fluid_pressure=101325.0 - 0.1 * k, variance=0.0
    )


BUILD = {"/sonar": range_msg, "/gps/fix": navsat_msg, "/mag": mag_msg, "/baro": baro_msg}


def write(path, kind):
    if kind == "ros1":
        from rosbags.rosbag1 import Writer

        with Writer(path) as w:
            conns = {t: w.add_connection(t, TYPES[t], typestore=TS1) for t in TYPES}
            for k in range(N):
                for t in TYPES:
                    raw = TS1.serialize_ros1(BUILD[t](TS1.types, k), TYPES[t])
                    w.write(conns[t], T0 + k * STEP_NS, raw)
        return path
    from rosbags.rosbag2 import Writer

    with Writer(path, version=9) as w:
        conns = {t: w.add_connection(t, TYPES[t], typestore=TS2) for t in TYPES}
        for k in range(N):
            for t in TYPES:
                w.write(
                    conns[t], T0 + k * STEP_NS, TS2.serialize_cdr(BUILD[t](TS2.types, k), TYPES[t])
                )
    return path


def read(path, kind) -> dict[str, list]:
    if kind == "ros1":
        from rosbags.rosbag1 import Reader

        def de(raw, t):
            return TS1.deserialize_ros1(raw, t)
    else:
        from rosbags.rosbag2 import Reader

        def de(raw, t):
            return TS2.deserialize_cdr(raw, t)

    out: dict[str, list] = {t: [] for t in TYPES}
    with Reader(path) as r:
        for c, _, raw in r.messages():
            out[c.topic].append(de(bytes(raw), TYPES[c.topic]))
    return out


@pytest.fixture(scope="module", params=["ros1", "sqlite3"])
def noised(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(request.param)
    name = "in.bag" if request.param == "ros1" else "in"
    src = write(tmp / name, request.param)
    dst = tmp / ("out.bag" if request.param == "ros1" else "out")
    report = apply(Suite.from_dict(SUITE), src, dst)
    assert report.noised == 4 * N
    return read(src, request.param), read(dst, request.param)


def _stamp(m):
    return (m.header.stamp.sec, m.header.stamp.nanosec, m.header.frame_id)


@pytest.mark.parametrize("topic", list(TYPES))
def test_header_and_stamp_kept(noised, topic):
    src, dst = noised
    assert [_stamp(m) for m in dst[topic]] == [_stamp(m) for m in src[topic]]


def test_range_is_the_range_model_per_frame_with_rep117_infinities_kept(noised):
    src, dst = noised
    ss = name_seed_sequence(SEED, "/sonar")
    models = {}
    for k, (a, b) in enumerate(zip(src["/sonar"], dst["/sonar"], strict=True)):
        key = (a.min_range, a.max_range)  # the model takes each message's limits
        if key not in models:
            models[key] = RangeNoise(**RANGE, min_range=a.min_range, max_range=5.0, seed=ss)
        want = models[key].apply(np.array([a.range], np.float32), frame=k)[0]
        assert np.float32(b.range).tobytes() == np.float32(want).tobytes()
        if np.isinf(a.range):
            assert b.range == a.range  # REP 117: -inf too close, +inf nothing detected
        elif np.isnan(a.range):
            assert b.range == np.float32(5.0)  # Gazebo's rule: NaN becomes max_range
        else:
            assert a.min_range <= b.range <= a.max_range
        assert (b.radiation_type, b.field_of_view, b.min_range, b.max_range) == (
            a.radiation_type,
            a.field_of_view,
            a.min_range,
            a.max_range,
        )
    # statistics on the in-range 1.0 m readings: mean 1.0 + bias (+-0.01), std 0.02
    # within 20% (about 57 samples: relative standard error 1/sqrt(2 * 57) = 9.4%)
    err = np.array(
        [b.range - 1.0 for a, b in zip(src["/sonar"], dst["/sonar"], strict=True) if a.range == 1.0]
    )
    assert abs(np.std(err) / 0.02 - 1) < 0.2
    assert abs(abs(np.mean(err)) - 0.01) < 0.01


def _wgs84_radii(lat_deg: float) -> tuple[float, float]:
    """Meridian and prime-vertical radii (m) of the WGS84 ellipsoid at a latitude."""
    a, f = 6378137.0, 1 / 298.257223563
    e2 = f * (2 - f)
    s = math.sin(math.radians(lat_deg))
    return a * (1 - e2) / (1 - e2 * s * s) ** 1.5, a / math.sqrt(1 - e2 * s * s)


def test_navsat_fix_is_the_navsat_model_with_a_known_diagonal_covariance(noised):
    src, dst = noised
    model = NavSatNoise(H_POS, V_POS, seed=name_seed_sequence(SEED, "/gps/fix"))
    var_h_deg = 2e-5**2 + 1e-5**2 + 3e-6**2  # stddev^2 + bias_mean^2 + bias_stddev^2
    var_v = 1.5**2 + 0.5**2
    for a, b in zip(src["/gps/fix"], dst["/gps/fix"], strict=True):
        lat, lon, alt = model.apply_one(a.latitude, a.longitude, a.altitude)[:3]
        assert (b.latitude, b.longitude, b.altitude) == (lat, lon, alt)
        m, n = _wgs84_radii(a.latitude)  # the true latitude's metres per radian
        east = var_h_deg * (n * math.cos(math.radians(a.latitude)) * math.pi / 180) ** 2
        north = var_h_deg * (m * math.pi / 180) ** 2
        want = np.diag([east, north, var_v]).reshape(9)
        np.testing.assert_allclose(b.position_covariance, want, rtol=1e-12, atol=0)
        assert b.position_covariance_type == 2  # COVARIANCE_TYPE_DIAGONAL_KNOWN
        assert (b.status.status, b.status.service) == (a.status.status, a.status.service)
    # a rough check of the units: a degree is about 111.2 km north and 111.3 km * cos(48.1)
    # = 74.3 km east, so sigma = 2.26e-5 deg is about 2.5 m north and 1.7 m east
    cov = dst["/gps/fix"][0].position_covariance
    assert 1.6 < math.sqrt(cov[0]) < 1.75 and 2.45 < math.sqrt(cov[4]) < 2.57


def test_navsat_fix_in_metres_takes_sigma_directly():
    T = TS2.types
    table = {"model": "navsat", "horizontal_position": {"stddev": 3.0, "bias_stddev": 4.0}}
    table["horizontal_units"] = "metres"
    suite = Suite.from_dict({"seed": 2, "topics": {"/fix": table}})
    noise = TopicNoise.from_suite(suite, "/fix", "sensor_msgs/msg/NavSatFix")
    out = noise.apply_inplace(navsat_msg(T, 0))
    np.testing.assert_array_equal(out.position_covariance, np.diag([25.0, 25.0, 0.0]).reshape(9))
    # a receiver without a fix sends NaN: it stays NaN, the covariance is unknown
    nofix = navsat_msg(T, 1)
    nofix.latitude = nofix.longitude = nofix.altitude = math.nan
    nofix.position_covariance = np.full(9, 7.0)
    out2 = noise.apply_inplace(nofix)
    assert math.isnan(out2.latitude) and math.isnan(out2.altitude)
    assert out2.position_covariance_type == 0 and not out2.position_covariance.any()
    ref = NavSatNoise(
        {"stddev": 3.0, "bias_stddev": 4.0},
        horizontal_units="metres",
        seed=name_seed_sequence(2, "/fix"),
    )
    assert out.latitude == ref.apply_one(48.1, 11.5, 520.0)[0]


def test_magnetic_field_is_the_magnetometer_model(noised):
    src, dst = noised
    model = MagnetometerNoise(x=MAG_X, z=MAG_Z, seed=name_seed_sequence(SEED, "/mag"))
    want_cov = np.diag([2e-6**2 + 1e-6**2, 0.0, 4e-6**2]).reshape(9)
    errs = []
    for a, b in zip(src["/mag"], dst["/mag"], strict=True):
        f, g = a.magnetic_field, b.magnetic_field
        assert (g.x, g.y, g.z) == model.apply_one(f.x, f.y, f.z)
        assert g.y == f.y  # no noise on y
        np.testing.assert_array_equal(b.magnetic_field_covariance, want_cov)
        errs.append(g.z - f.z)
    # z: white noise only, std 4e-6 T within 15% (400 samples: standard error 3.5%)
    assert abs(np.std(errs) / 4e-6 - 1) < 0.15


def test_fluid_pressure_is_the_air_pressure_model(noised):
    src, dst = noised
    model = AirPressureNoise(PRESSURE, seed=name_seed_sequence(SEED, "/baro"))
    for a, b in zip(src["/baro"], dst["/baro"], strict=True):
        assert b.fluid_pressure == model.apply_one(a.fluid_pressure)
        assert b.variance == 12.0**2 + 3.0**2 + 2.0**2  # not gz-sensors' sqrt(stddev) quirk
        assert b.fluid_pressure % 0.5 == 0.0  # precision: multiples of 0.5 Pa


def test_topic_noise_on_messages_matches_apply(noised):
    """The live path: TopicNoise fed the same messages one by one gives the bag's bits."""
    src, dst = noised
    suite = Suite.from_dict(SUITE)
    for topic in TYPES:
        noise = TopicNoise.from_suite(suite, topic)
        for a, b in zip(src[topic][:50], dst[topic][:50], strict=True):
            msg = copy.deepcopy(a)
            got = noise.apply_inplace(msg)
            assert got is msg
            assert repr(got) == repr(b)


def test_range_variance_field_of_newer_distributions(tmp_path):
    """A Jazzy Range (with ``variance``) in a real bag gets sigma^2 = stddev^2 +
    bias_mean^2 + bias_stddev^2 (m^2); the range itself is noised as without it."""
    from rosbags.rosbag2 import Writer

    ts = get_typestore(Stores.ROS2_JAZZY)
    path = tmp_path / "jazzy"
    with Writer(path, version=9) as w:
        c = w.add_connection("/sonar", TYPES["/sonar"], typestore=ts)
        for k in range(3):
            msg = range_msg(ts.types, k)
            w.write(c, T0 + k, ts.serialize_cdr(msg, TYPES["/sonar"]))
    suite = Suite.from_dict({"seed": SEED, "topics": {"/sonar": {"model": "range", **RANGE}}})
    apply(suite, path, tmp_path / "out")
    from rosbags.rosbag2 import Reader

    with Reader(tmp_path / "out") as r:
        out = [ts.deserialize_cdr(bytes(raw), TYPES["/sonar"]) for _, _, raw in r.messages()]
    assert [m.variance for m in out] == [np.float32(0.02**2 + 0.01**2)] * 3  # a float32 field
    ss = name_seed_sequence(SEED, "/sonar")
    first = RangeNoise(**RANGE, min_range=0.2, max_range=5.0, seed=ss)
    assert out[0].range == first.apply(np.array([1.0], np.float32), frame=0)[0]
