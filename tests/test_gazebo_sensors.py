"""The Gazebo sensor noise models: gz-sensors' per-sensor use of GaussianNoiseModel.

Peer: gazebosim/gz-sensors at commit 9ba02f24108e57666d326e22317443034eb860f8. The
semantics are those of src/{Magnetometer,Altimeter,AirPressure,AirSpeed,NavSat,
ForceTorque}Sensor.cc (Update); the ported assertions are the noise checks of
test/integration/{magnetometer,altimeter,air_pressure,air_speed,navsat,force_torque}.cc,
on synthetic inputs (their noise: mean 1.0, stddev 0.2, bias_mean 10.0, except the
force-torque test's means with stddev 0).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import fastnoise as fn
from fastnoise.core import simd
from fastnoise.core.generator import fill_normals
from fastnoise.models.gazebo.noise import _wgs84_deg_per_m

GZ_TAG = 0x475A4E0000000000
# the integration tests' <noise>: mean 1.0, stddev 0.2, bias_mean 10.0
IT_NOISE = {"mean": 1.0, "stddev": 0.2, "bias_mean": 10.0}


def _gz_equal(a, b, tol=1e-6):
    """gz::math::equal(a, b) (default tolerance 1e-6)."""
    return abs(a - b) <= tol


def _white(model, component, n):
    z = np.empty(n)
    fill_normals(model.key, GZ_TAG | (component << 8), 0, z)
    return z


# ---- integration tests, ported ---------------------------------------------------------


def test_magnetometer_integration_noise():
    # magnetometer.cc SensorReadings: the noisy sensor's field differs from the world
    # field (identity pose); the noise-free one returns it unchanged
    field = (2.0, 1.0, -2.0)
    clean = fn.MagnetometerNoise(seed=1)
    assert clean.apply_one(*field) == field
    noisy = fn.MagnetometerNoise(x=IT_NOISE, y=IT_NOISE, z=IT_NOISE, seed=1)
    out = noisy.apply_one(*field)
    assert out != field
    for c, (o, f) in enumerate(zip(out, field, strict=True)):
        name = "xyz"[c]
        assert abs(noisy.bias(name)) == 10.0
        z = _white(noisy, c, 1)[0]
        assert o == pytest.approx(f + noisy.bias(name) + (1.0 + 0.2 * z), abs=1e-14)


def test_altimeter_integration_noise():
    # altimeter.cc SensorReadings: vertical reference 2, position 4 -> 2, velocity 5;
    # with noise neither value is gz::math::equal to the true one
    pos, vel = 4.0 - 2.0, 5.0
    assert fn.AltimeterNoise(seed=2).apply_one(pos, vel) == (pos, vel)
    m = fn.AltimeterNoise(vertical_position=IT_NOISE, vertical_velocity=IT_NOISE, seed=2)
    p, v = m.apply_one(pos, vel)
    assert not _gz_equal(pos, p)
    assert not _gz_equal(vel, v)


def test_air_pressure_integration_noise_and_reported_variance():
    # air_pressure.cc SensorReadings: the noise-free pressure is 101288.9657925308 Pa
    # with variance 0; with noise it differs and the message's variance is sqrt(0.2)
    p0 = 101288.9657925308
    clean = fn.AirPressureNoise(seed=3)
    assert clean.apply_one(p0) == p0
    assert clean.reported_variance == 0.0
    m = fn.AirPressureNoise(pressure=IT_NOISE, seed=3)
    assert not _gz_equal(p0, m.apply_one(p0))
    assert m.reported_variance == math.sqrt(0.2)


def test_air_speed_integration_noise():
    # air_speed.cc SensorReadings: at rest the differential pressure is exactly 0.0; with
    # noise it is not gz::math::equal to 0
    assert fn.AirSpeedNoise(seed=4).apply_one(0.0) == 0.0
    assert not _gz_equal(0.0, fn.AirSpeedNoise(pressure=IT_NOISE, seed=4).apply_one(0.0))


def test_navsat_integration_noise():
    # navsat.cc SensorReadings: latitude 40, longitude 0 (20 + 20, -20 + 20 degrees),
    # altitude 120 m, velocity (1, 2, 3): unchanged without noise, every value differs
    # with noise on all four models
    reading = (40.0, 0.0, 120.0, 1.0, 2.0, 3.0)
    assert fn.NavSatNoise(seed=5).apply_one(*reading) == reading
    m = fn.NavSatNoise(IT_NOISE, IT_NOISE, IT_NOISE, IT_NOISE, seed=5)
    out = m.apply_one(*reading)
    for o, r in zip(out, reading, strict=True):
        assert not _gz_equal(o, r)


@pytest.mark.parametrize("seed", range(4))
def test_force_torque_integration_means(seed):
    # force_torque.cc SensorReadings (frame "sensor", parent_to_child): force (0, 0, 1)
    # N and torque (0, 1, 0) N m with noise means (0.1, 0.2, 0.3) and (0.5, 0.6, 0.7),
    # stddev 0: the measured wrench is the true one plus the means
    means = (0.1, 0.2, 0.3, 0.5, 0.6, 0.7)
    names = ("force_x", "force_y", "force_z", "torque_x", "torque_y", "torque_z")
    m = fn.ForceTorqueNoise(
        **{n: {"mean": mu, "stddev": 0.0} for n, mu in zip(names, means, strict=True)},
        seed=seed,
    )
    wrench = (0.0, 0.0, 1.0, 0.0, 1.0, 0.0)
    out = m.apply_one(*wrench, dt=0.0)
    assert out == tuple(w + mu for w, mu in zip(wrench, means, strict=True))
    # gz: the next update 1 s later passes dt = 1; without a dynamic bias nothing moves
    assert m.apply_one(*wrench, dt=1.0) == out


# ---- NavSat: one horizontal model for lat and lon, units ----------------------------------


def test_navsat_latitude_and_longitude_share_one_model_and_bias():
    m = fn.NavSatNoise(
        horizontal_position={"stddev": 0.01, "bias_mean": 0.5},
        horizontal_velocity={"stddev": 0.1, "bias_mean": 2.0},
        seed=6,
    )
    zp, zv = _white(m, 0, 6), _white(m, 2, 6)
    bp, bv = m.bias("horizontal_position"), m.bias("horizontal_velocity")
    for k in range(3):
        lat, lon, alt, ve, vn, vu = m.apply_one(10.0, 20.0, 5.0, 1.0, 2.0, 3.0)
        # gz: Apply(lat), then Apply(lon) on the same model: normals 2k and 2k + 1
        assert lat == pytest.approx(10.0 + bp + 0.01 * zp[2 * k], abs=1e-13)
        assert lon == pytest.approx(20.0 + bp + 0.01 * zp[2 * k + 1], abs=1e-13)
        assert ve == pytest.approx(1.0 + bv + 0.1 * zv[2 * k], abs=1e-13)
        assert vn == pytest.approx(2.0 + bv + 0.1 * zv[2 * k + 1], abs=1e-13)
        assert (alt, vu) == (5.0, 3.0)
    assert m.state["position"]["horizontal_position"]["count"] == 6


def test_navsat_wraps_latitude_and_longitude_like_angle_normalize():
    m = fn.NavSatNoise(seed=0)
    assert m.apply_one(95.0, 190.0, 0.0)[:2] == (95.0, -170.0)
    assert m.apply_one(-200.0, 540.0, 0.0)[:2] == (160.0, 180.0 - 360.0)
    assert m.apply_one(45.0, 180.0, 0.0)[:2] == (45.0, 180.0)


def test_wgs84_degrees_per_metre():
    # WGS84 at the equator: 1 degree of latitude = 110574.27 m, of longitude 111319.49 m
    dlat, dlon = _wgs84_deg_per_m(0.0)
    assert 1 / dlat == pytest.approx(110574.27, abs=0.01)
    assert 1 / dlon == pytest.approx(111319.49, abs=0.01)
    a, f = 6378137.0, 1 / 298.257223563
    e2 = f * (2 - f)
    for lat in np.linspace(-89.9, 89.9, 37):
        s, c = math.sin(math.radians(lat)), math.cos(math.radians(lat))
        w = 1 - e2 * s * s
        big_m = a * (1 - e2) / w**1.5
        big_n = a / math.sqrt(w)
        got = _wgs84_deg_per_m(float(lat))
        assert got[0] == pytest.approx(math.degrees(1 / big_m), rel=1e-13)
        assert got[1] == pytest.approx(math.degrees(1 / (big_n * c)), rel=1e-12)
    assert _wgs84_deg_per_m(90.0)[1] == 0.0


def test_navsat_metres_mode_converts_at_the_true_latitude():
    m = fn.NavSatNoise(horizontal_position={"bias_mean": 1000.0}, horizontal_units="metres")
    b = m.bias("horizontal_position")
    dlat, dlon = _wgs84_deg_per_m(45.0)
    lat, lon = m.apply_one(45.0, 7.0, 0.0)[:2]
    assert lat == pytest.approx(45.0 + b * dlat, abs=1e-12)
    assert lon == pytest.approx(7.0 + b * dlon, abs=1e-12)
    assert abs(lat - 45.0) * 111132.95 == pytest.approx(1000.0, rel=1e-4)
    # degrees mode adds the same parameters to the degrees, as gz-sensors does
    d = fn.NavSatNoise(horizontal_position={"bias_mean": 1000.0}, seed=m.seed)
    assert d.apply_one(45.0, 7.0, 0.0)[0] == fn.NavSatNoise(seed=0).apply_one(45.0 + b, 0, 0)[0]


# ---- air speed: gz-sensors noises hPa in float32 -----------------------------------------


def test_air_speed_noise_acts_in_hectopascals_in_float32():
    m = fn.AirSpeedNoise(pressure={"bias_mean": 0.5})
    b = m.bias("pressure")
    p = 123.456
    f32 = np.float32
    expect = float(f32(f32(float(f32(p / 100.0)) + b) * f32(100.0)))
    assert m.apply_one(p) == expect
    assert abs(m.apply_one(p) - p) == pytest.approx(50.0, abs=1e-3)
    pa = fn.AirSpeedNoise(pressure={"bias_mean": 0.5}, pressure_units="pascals", seed=m.seed)
    assert pa.apply_one(p) == p + b


# ---- components, dt, reproducibility -------------------------------------------------------

_GZ = {
    "mean": 0.01,
    "stddev": 0.2,
    "bias_mean": 0.5,
    "bias_stddev": 0.1,
    "dynamic_bias_stddev": 0.05,
    "dynamic_bias_correlation_time": 3.0,
    "precision": 1e-4,
}

SENSORS = {
    "magnetometer": (lambda: fn.MagnetometerNoise(x=_GZ, z=_GZ, seed=1), 3),
    "altimeter": (lambda: fn.AltimeterNoise(_GZ, _GZ, seed=2), 2),
    "air_pressure": (lambda: fn.AirPressureNoise(_GZ, seed=3), 1),
    "air_speed": (lambda: fn.AirSpeedNoise(_GZ, seed=4), 1),
    "air_speed_pa": (lambda: fn.AirSpeedNoise(_GZ, pressure_units="pascals", seed=4), 1),
    "navsat": (lambda: fn.NavSatNoise(_GZ, _GZ, _GZ, _GZ, seed=5), 6),
    "navsat_m": (lambda: fn.NavSatNoise(_GZ, None, _GZ, horizontal_units="metres", seed=5), 6),
    "force_torque": (lambda: fn.ForceTorqueNoise(_GZ, None, _GZ, _GZ, _GZ, _GZ, seed=6), 6),
}


def _data(ncol, n=90):
    d = np.random.default_rng(ncol).uniform(-50, 50, (n, ncol))
    return d[:, 0] if ncol == 1 else d


@pytest.mark.parametrize("name", sorted(SENSORS))
def test_batch_equals_per_sample_bit_for_bit(name):
    make, ncol = SENSORS[name]
    data = _data(ncol)
    dt = np.random.default_rng(0).uniform(0, 0.1, len(data))
    dt[0] = 0.0  # gz-sensors' first update
    a = make()
    rows = [
        a.apply_one(*np.atleast_1d(r).tolist(), dt=float(d)) for r, d in zip(data, dt, strict=True)
    ]
    b = make()
    whole = b.apply(data, dt)
    c = make()
    parts = np.concatenate([c.apply(data[:31], dt[:31]), c.apply(data[31:], dt[31:])])
    assert np.array(rows).reshape(whole.shape).tobytes() == whole.tobytes() == parts.tobytes()
    assert a.state == b.state == c.state


@pytest.mark.parametrize("name", sorted(SENSORS))
def test_same_bits_on_every_simd_path(name):
    make, ncol = SENSORS[name]
    data = _data(ncol, 300)
    start = simd.simd_path()
    outs = []
    try:
        for p in simd.simd_paths_available():
            simd.set_simd_path(p)
            outs.append(make().apply(data, 0.01).tobytes())
    finally:
        simd.set_simd_path(start)
    assert len(set(outs)) == 1


def test_a_component_without_noise_passes_unchanged_and_draws_nothing():
    m = fn.MagnetometerNoise(x=IT_NOISE, seed=8)
    data = _data(3)
    out = m.apply(data)
    assert np.array_equal(out[:, 1:], data[:, 1:])
    assert set(m.state["position"]) == {"x"}
    # component x draws the same with or without the others
    full = fn.MagnetometerNoise(x=IT_NOISE, y=IT_NOISE, z=IT_NOISE, seed=8)
    assert np.array_equal(full.apply(data)[:, 0], out[:, 0])


def test_force_torque_dynamic_bias_moves_only_with_dt():
    m = fn.ForceTorqueNoise(
        force_x={"dynamic_bias_stddev": 1.0, "dynamic_bias_correlation_time": 1.0}, seed=9
    )
    b0 = m.bias("force_x")
    m.apply_one(0, 0, 0, 0, 0, 0, dt=0.0)  # gz: the first update has dt = 0
    assert m.bias("force_x") == b0
    m.apply_one(0, 0, 0, 0, 0, 0, dt=0.01)
    assert m.bias("force_x") != b0


@pytest.mark.parametrize(
    "make, word",
    [
        (lambda: fn.MagnetometerNoise(x={"sttdev": 1.0}), "sttdev"),
        (lambda: fn.MagnetometerNoise(x=1.0), "x"),
        (lambda: fn.AltimeterNoise(vertical_velocity={"stddev": -1.0}), "stddev"),
        (lambda: fn.NavSatNoise(horizontal_units="feet"), "horizontal_units"),
        (lambda: fn.AirSpeedNoise(pressure_units="psi"), "pressure_units"),
        (lambda: fn.ForceTorqueNoise(torque_z={"precision": math.inf}), "precision"),
    ],
)
def test_bad_arguments_are_refused_by_name(make, word):
    with pytest.raises((ValueError, TypeError), match=word):
        make()


def test_bad_data_is_refused_by_name_and_changes_nothing():
    m = fn.NavSatNoise(IT_NOISE, seed=1)
    st = m.state
    with pytest.raises(ValueError, match="data"):
        m.apply(np.zeros((4, 3)))
    with pytest.raises(TypeError, match="data"):
        m.apply(np.array([["a"] * 6]))
    with pytest.raises(ValueError, match="dt"):
        m.apply(np.zeros((2, 6)), [0.0, -1.0])
    with pytest.raises(ValueError, match="component"):
        m.bias("altitude")
    assert m.state == st


def test_a_run_past_the_end_changes_nothing():
    m = fn.NavSatNoise(IT_NOISE, IT_NOISE, seed=2)
    st = m.state
    st["position"]["vertical_position"]["count"] = 2**64 - 3
    m.state = st
    with pytest.raises(OverflowError):
        m.apply(np.zeros((3, 6)))
    assert m.state == st
    m.apply(np.zeros((2, 6)))
    assert m.state["position"]["vertical_position"]["count"] == 2**64 - 1
