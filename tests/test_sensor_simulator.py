"""SensorSimulator: drift, read statistics, ordering, reset/copy semantics, errors."""

from __future__ import annotations

import copy
import math
import pickle

import numpy as np
import pytest
from scipy import stats

from fastnoise import GaussianNoiseGenerator
from fastnoise.core import simd
from fastnoise.core.seeding import model_seed_sequence
from fastnoise.models.motion.rigid_body import RigidBodySimulator
from fastnoise.models.motion.sensor_simulator import SensorSimulator


class AttrSource:
    """A plain Python source with attributes."""

    def __init__(self, omega=(1.0, -2.0, 0.5), roll=0.1, pitch=0.2, yaw=0.3):
        self.omega = omega
        self.roll, self.pitch, self.yaw = roll, pitch, yaw


class MethodSource:
    """A Python source with zero-argument methods and its own numeric check."""

    def __init__(self, ok=True):
        self.ok = ok

    def omega(self):
        return np.array([0.5, 0.25, -0.125])

    def roll(self):
        return -0.5

    def pitch(self):
        return 0.75

    def yaw(self):
        return 1.5

    def check_numerics(self):
        return self.ok


def _body():
    return RigidBodySimulator(
        (10.0, 8.0, 12.0), omega=(1.0, -2.0, 0.5), roll=0.1, pitch=0.2, yaw=0.3
    )


# ---- drift ------------------------------------------------------------------------------


def test_drift_accumulates_exactly_over_many_steps():
    # dyadic rates and step: every partial sum is exact in float64
    dt, n = 2.0**-7, 10000
    rate, angle_rate = np.array([0.25, -0.5, 2.0]), np.array([-0.125, 1.0, 0.0625])
    imu = SensorSimulator(
        AttrSource(omega=(0.0, 0.0, 0.0), roll=0.0, pitch=0.0, yaw=0.0),
        seed=1,
        drift_rate=rate,
        angle_drift_rate=angle_rate,
    )
    for _ in range(n):
        imu.update(dt)
    np.testing.assert_array_equal(imu.drift_omega, n * dt * rate)
    np.testing.assert_array_equal(imu.drift_angles, n * dt * angle_rate)
    # no noise: the reads are truth + drift exactly
    np.testing.assert_array_equal(imu.read_angular_velocity(), n * dt * rate)
    np.testing.assert_array_equal(imu.read_orientation(), n * dt * angle_rate)


def test_shared_drift_rate_drives_both_accumulators_like_the_seed():
    imu = SensorSimulator(_body(), seed=1)
    imu.set_drift_rate((1e-6, 2e-6, -3e-6))
    np.testing.assert_array_equal(imu.angle_drift_rate, imu.drift_rate)
    for _ in range(10000):
        imu.update(0.01)
    np.testing.assert_array_equal(imu.drift_angles, imu.drift_omega)
    np.testing.assert_allclose(imu.drift_omega, [1e-4, 2e-4, -3e-4], rtol=1e-12)


# ---- readings ---------------------------------------------------------------------------


@pytest.mark.parametrize("source", [AttrSource(), _body()], ids=["python", "rigid_body"])
def test_orientation_is_packed_pitch_yaw_roll(source):
    imu = SensorSimulator(source, seed=3)
    np.testing.assert_array_equal(imu.read_orientation(), [0.2, 0.3, 0.1])
    np.testing.assert_array_equal(imu.read_angular_velocity(), [1.0, -2.0, 0.5])


def test_python_protocol_with_methods():
    imu = SensorSimulator(MethodSource(), seed=3)
    np.testing.assert_array_equal(imu.read_angular_velocity(), [0.5, 0.25, -0.125])
    np.testing.assert_array_equal(imu.read_orientation(), [0.75, 1.5, -0.5])
    assert imu.check_numerics()


@pytest.mark.parametrize("omega", [[1.0, -2.0, 0.5], (1.0, -2.0, 0.5), np.array([1, -2, 0.5])])
def test_python_source_omega_may_be_any_length3_vector(omega):
    imu = SensorSimulator(AttrSource(omega=omega), seed=3)
    np.testing.assert_array_equal(imu.read_angular_velocity(), [1.0, -2.0, 0.5])


def test_draw_order_is_x_y_z_then_pitch_yaw_roll():
    sigma = np.array([0.1, 0.2, 0.3])
    imu = SensorSimulator(_body(), seed=42, noise_stddev=sigma)
    z = GaussianNoiseGenerator(
        model_seed_sequence(np.random.SeedSequence(42), "sensor_simulator")
    ).normal(size=6)
    w = imu.read_angular_velocity()
    a = imu.read_orientation()
    np.testing.assert_allclose(w, np.array([1.0, -2.0, 0.5]) + sigma * z[:3], rtol=0, atol=1e-15)
    np.testing.assert_allclose(a, np.array([0.2, 0.3, 0.1]) + sigma * z[3:], rtol=0, atol=1e-15)


def test_zero_stddev_still_draws_so_streams_stay_aligned():
    a = SensorSimulator(_body(), seed=5, noise_stddev=(0.0, 1.0, 0.0))
    b = SensorSimulator(_body(), seed=5, noise_stddev=(1.0, 1.0, 1.0))
    for _ in range(5):
        a.read_angular_velocity()
        b.read_angular_velocity()
    assert a.generator_state == b.generator_state
    assert a.read_angular_velocity()[1] == b.read_angular_velocity()[1]


@pytest.mark.parametrize("which", ["omega", "angles"])
def test_read_statistics_match_truth_plus_drift_and_sigma(which):
    # 20000 reads with a fixed seed; bounds are 5 standard errors.
    n = 20000
    sigma = np.array([0.1, 0.2, 0.05])
    imu = SensorSimulator(_body(), seed=2024, noise_stddev=sigma, drift_rate=(0.5, -1.0, 2.0))
    for _ in range(4):
        imu.update(0.25)
    if which == "omega":
        truth, drift, read = np.array([1.0, -2.0, 0.5]), imu.drift_omega, imu.read_angular_velocity
    else:
        truth, drift, read = np.array([0.2, 0.3, 0.1]), imu.drift_angles, imu.read_orientation
    np.testing.assert_array_equal(drift, [0.5, -1.0, 2.0])
    buf = np.empty(3)
    x = np.array([read(out=buf).copy() for _ in range(n)])
    np.testing.assert_array_less(np.abs(x.mean(0) - (truth + drift)), 5 * sigma / math.sqrt(n))
    np.testing.assert_array_less(np.abs(x.std(0, ddof=1) / sigma - 1), 5 / math.sqrt(2 * n))
    z = (x - truth - drift) / sigma
    for i in range(3):
        assert stats.kstest(z[:, i], "norm").pvalue > 1e-3
    corr = np.corrcoef(z.T)
    assert np.all(np.abs(corr[np.triu_indices(3, 1)]) < 5 / math.sqrt(n))
    lag1 = np.corrcoef(z[:-1, 0], z[1:, 0])[0, 1]
    assert abs(lag1) < 5 / math.sqrt(n)


def test_out_is_filled_and_returned():
    imu = SensorSimulator(_body(), seed=7, noise_stddev=0.01)
    ref = SensorSimulator(_body(), seed=7, noise_stddev=0.01)
    buf = np.full(3, np.nan)
    assert imu.read_angular_velocity(out=buf) is buf
    np.testing.assert_array_equal(buf, ref.read_angular_velocity())
    assert imu.read_orientation(buf) is buf
    np.testing.assert_array_equal(buf, ref.read_orientation())


def test_same_readings_on_every_simd_path():
    before = simd.simd_path()
    results = []
    try:
        for path in simd.simd_paths_available():
            simd.set_simd_path(path)
            imu = SensorSimulator(_body(), seed=11, noise_stddev=0.3)
            results.append([imu.read_angular_velocity() for _ in range(50)])
    finally:
        simd.set_simd_path(before)
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


def test_seed_none_records_entropy_for_reproduction():
    a = SensorSimulator(_body(), noise_stddev=1.0)
    b = SensorSimulator(_body(), seed=a.seed.entropy, noise_stddev=1.0)
    np.testing.assert_array_equal(a.read_angular_velocity(), b.read_angular_velocity())


# ---- reset and copies -------------------------------------------------------------------


def _run(imu, body, n=30):
    out = []
    for _ in range(n):
        body.update(0.01, (0.1, -0.05, 0.02))
        imu.update(0.01)
        out.append(np.concatenate([imu.read_angular_velocity(), imu.read_orientation()]))
    return np.array(out)


def test_reset_zeroes_drifts_and_rates_keeps_stddev_and_rewinds_noise():
    body = RigidBodySimulator((10.0, 8.0, 12.0))
    imu = SensorSimulator(body, seed=9, noise_stddev=(0.1, 0.2, 0.3))
    imu.set_drift_rate(0.5, angle_rate=-0.25)
    first = _run(imu, body)
    imu.reset()
    for name in ("drift_omega", "drift_angles", "drift_rate", "angle_drift_rate"):
        np.testing.assert_array_equal(getattr(imu, name), 0.0)
    np.testing.assert_array_equal(imu.noise_stddev, [0.1, 0.2, 0.3])
    assert imu.generator_state["position"] == {"position": 0}
    imu.update(1.0)  # the rates are zero now
    np.testing.assert_array_equal(imu.drift_omega, 0.0)
    # same configuration, same calls, same readings (the body is rewound too)
    body.reset()
    imu.set_drift_rate(0.5, angle_rate=-0.25)
    np.testing.assert_array_equal(_run(imu, body), first)


@pytest.mark.parametrize("how", ["method", "copy.copy"])
def test_copy_continues_exactly_and_independently(how):
    body = RigidBodySimulator((10.0, 8.0, 12.0))
    imu = SensorSimulator(body, seed=13, noise_stddev=0.05, drift_rate=1e-3)
    _run(imu, body, 5)
    twin = imu.copy() if how == "method" else copy.copy(imu)
    assert twin.source is body  # shared, like the seed's pointer
    readings = [imu.read_angular_velocity() for _ in range(20)]
    imu.update(0.5)  # must not move the twin
    np.testing.assert_array_equal([twin.read_angular_velocity() for _ in range(20)], readings)
    assert not np.array_equal(twin.drift_omega, imu.drift_omega)


@pytest.mark.parametrize(
    "how", [copy.deepcopy, lambda x: pickle.loads(pickle.dumps(x))], ids=["deepcopy", "pickle"]
)
def test_deepcopy_and_pickle_copy_the_source_with_the_sensor(how):
    body = RigidBodySimulator((10.0, 8.0, 12.0))
    imu = SensorSimulator(body, seed=17, noise_stddev=0.05, drift_rate=1e-3, angle_drift_rate=-2e-3)
    _run(imu, body, 5)
    body2, imu2 = how((body, imu))
    assert imu2.source is body2 and body2 is not body
    for name in ("drift_omega", "drift_angles", "drift_rate", "angle_drift_rate"):
        np.testing.assert_array_equal(getattr(imu2, name), getattr(imu, name))
    np.testing.assert_array_equal(_run(imu2, body2), _run(imu, body))


# ---- errors -----------------------------------------------------------------------------


def test_source_must_exist_and_provide_the_accessors():
    with pytest.raises(TypeError, match="source=None"):
        SensorSimulator(None)

    class NoYaw:
        omega, roll, pitch = (0.0, 0.0, 0.0), 0.0, 0.0

    with pytest.raises(TypeError, match="yaw"):
        SensorSimulator(NoYaw())


@pytest.mark.parametrize("dt", [0.0, -1.0, float("nan"), float("inf")])
def test_bad_dt_is_rejected(dt):
    imu = SensorSimulator(_body(), seed=1, drift_rate=1.0)
    with pytest.raises(ValueError, match="dt"):
        imu.update(dt)
    np.testing.assert_array_equal(imu.drift_omega, 0.0)


def test_drift_overflow_is_rejected_and_leaves_state():
    imu = SensorSimulator(_body(), seed=1, drift_rate=1e300)
    with pytest.raises(ValueError, match="dt"):
        imu.update(1e10)
    np.testing.assert_array_equal(imu.drift_omega, 0.0)
    assert imu.check_numerics()


@pytest.mark.parametrize("bad", [-0.1, (0.1, -0.1, 0.1), float("nan"), (0.1, 0.2), np.inf])
def test_bad_stddev_is_rejected(bad):
    imu = SensorSimulator(_body(), seed=1, noise_stddev=0.5)
    with pytest.raises(ValueError, match="stddev"):
        imu.set_noise_stddev(bad)
    np.testing.assert_array_equal(imu.noise_stddev, 0.5)


@pytest.mark.parametrize("bad", [(0.1, 0.2), float("nan"), (0.0, np.inf, 0.0)])
def test_bad_drift_rates_are_rejected(bad):
    imu = SensorSimulator(_body(), seed=1)
    with pytest.raises(ValueError, match="rate"):
        imu.set_drift_rate(bad)
    with pytest.raises(ValueError, match="angle_rate"):
        imu.set_drift_rate(0.0, angle_rate=bad)


@pytest.mark.parametrize(
    "out, exc",
    [
        (np.empty(3, np.float32), TypeError),
        (np.empty(4), ValueError),
        (np.empty((3, 1)), ValueError),
        (np.empty(6)[::2], ValueError),
        ([0.0, 0.0, 0.0], TypeError),
    ],
)
def test_bad_out_is_rejected(out, exc):
    imu = SensorSimulator(_body(), seed=1)
    with pytest.raises(exc, match="out"):
        imu.read_angular_velocity(out=out)
    with pytest.raises(exc, match="out"):
        imu.read_orientation(out=out)


def test_read_only_out_is_rejected():
    buf = np.zeros(3)
    buf.flags.writeable = False
    with pytest.raises(ValueError, match="out"):
        SensorSimulator(_body(), seed=1).read_angular_velocity(out=buf)


def test_a_rigid_body_source_stays_finite_and_reads_stay_finite():
    # the body used to overflow to inf (and the reads then raised); it now refuses
    body = RigidBodySimulator((1.0, 1.0, 1.0))
    imu = SensorSimulator(body, seed=1, noise_stddev=0.1)
    assert imu.check_numerics()
    with pytest.raises(ValueError, match="rad/s"):
        body.update(1e300, (1e300, 0.0, 0.0))
    assert imu.check_numerics()
    assert np.all(np.isfinite(imu.read_angular_velocity()))
    assert np.all(np.isfinite(imu.read_orientation()))


def test_non_finite_python_source_fails_check_and_reads_raise():
    src = AttrSource(omega=(0.0, np.nan, 0.0))
    imu = SensorSimulator(src, seed=1)
    assert not imu.check_numerics()
    with pytest.raises(ValueError, match="finite"):
        imu.read_angular_velocity()
    src.omega, src.yaw = (0.0, 0.0, 0.0), np.inf
    with pytest.raises(ValueError, match="finite"):
        imu.read_orientation()
    assert not SensorSimulator(MethodSource(ok=False), seed=1).check_numerics()


def test_inputs_are_not_modified_nor_aliased():
    sigma = np.array([0.1, 0.2, 0.3])
    rate = np.array([1.0, 2.0, 3.0])
    imu = SensorSimulator(_body(), seed=1, noise_stddev=sigma, drift_rate=rate)
    imu.update(0.5)
    imu.read_angular_velocity()
    np.testing.assert_array_equal(sigma, [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(rate, [1.0, 2.0, 3.0])
    sigma[:] = 9.0
    rate[:] = 9.0
    np.testing.assert_array_equal(imu.noise_stddev, [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(imu.drift_rate, [1.0, 2.0, 3.0])
    d = imu.drift_omega
    d[:] = 7.0
    np.testing.assert_array_equal(imu.drift_omega, [0.5, 1.0, 1.5])


def test_python_source_omega_any_array_layout():
    for omega in (np.array([1.0, 0, -2.0, 0, 0.5, 0])[::2], np.array([1, -2, 0.5], np.float32)):
        imu = SensorSimulator(AttrSource(omega=omega), seed=3)
        np.testing.assert_array_equal(imu.read_angular_velocity(), [1.0, -2.0, 0.5])
    with pytest.raises(ValueError, match="omega"):
        SensorSimulator(AttrSource(omega=np.zeros(4)), seed=3).read_angular_velocity()


@pytest.mark.parametrize(
    ("kw", "name"),
    [
        ({"noise_stddev": -1.0}, "noise_stddev"),
        ({"drift_rate": math.nan}, "drift_rate"),
        ({"angle_drift_rate": (1.0, 2.0)}, "angle_drift_rate"),
    ],
)
def test_constructor_errors_name_the_keyword(kw, name):
    with pytest.raises(ValueError, match=name):
        SensorSimulator(_body(), **kw)


# ---- the model contract ----------------------------------------------------------------


def test_state_holds_the_configuration_drifts_and_generator_position():
    body = _body()
    imu = SensorSimulator(body, seed=21, noise_stddev=(0.1, 0.2, 0.3), drift_rate=0.5)
    imu.set_drift_rate(0.5, angle_rate=-0.25)
    imu.update(0.5)
    imu.read_angular_velocity()
    s = imu.state
    assert s["model"] == "sensor_simulator"
    assert s["params"] == {
        "noise_stddev": [0.1, 0.2, 0.3],
        "drift_rate": [0.5, 0.5, 0.5],
        "angle_drift_rate": [-0.25, -0.25, -0.25],
    }
    assert s["position"] == {
        "drift_omega": [0.25, 0.25, 0.25],
        "drift_angles": [-0.125, -0.125, -0.125],
        "generator": {"position": 3},
    }
    # the generator's own state nests by its position
    assert imu.generator_state["position"] == s["position"]["generator"]
    gen = GaussianNoiseGenerator(
        model_seed_sequence(np.random.SeedSequence(21), "sensor_simulator")
    )
    assert imu.key == gen.key
    assert imu.seed.entropy == 21
    twin = SensorSimulator.from_state(s, source=body)
    assert twin.source is body and twin.state == s
    assert twin.generator_state == imu.generator_state
    np.testing.assert_array_equal(twin.read_orientation(), imu.read_orientation())


def test_from_state_needs_the_source():
    imu = SensorSimulator(_body(), seed=1)
    with pytest.raises(TypeError):
        SensorSimulator.from_state(imu.state)
    with pytest.raises(TypeError, match="source=None"):
        SensorSimulator.from_state(imu.state, source=None)


@pytest.mark.parametrize(
    ("where", "value", "exc", "word"),
    [
        (("position", "drift_omega"), [0.1, 0.2], ValueError, "drift_omega"),
        (("position", "drift_angles"), [], ValueError, "drift_angles"),
        (("position", "drift_omega"), np.zeros(3), TypeError, "drift_omega"),
        (("position", "drift_angles"), [0.0, math.inf, 0.0], ValueError, "drift_angles"),
        (("position", "generator"), {"position": -1}, ValueError, "generator"),
        (("position", "generator"), {}, ValueError, "generator"),
        (("position", "generator"), 5, TypeError, "generator"),
        (("params", "noise_stddev"), [0.1], ValueError, "noise_stddev"),
        (("params", "noise_stddev"), [0.1, -0.1, 0.1], ValueError, "noise_stddev"),
        (("params", "drift_rate"), [0.1, "x", 0.1], TypeError, "drift_rate"),
        (("params", "angle_drift_rate"), [0.1, 0.2], ValueError, "angle_drift_rate"),
    ],
)
def test_tampered_states_are_refused_by_name_and_change_nothing(where, value, exc, word):
    imu = SensorSimulator(_body(), seed=5, noise_stddev=0.1, drift_rate=1e-3)
    imu.update(0.1)
    imu.read_angular_velocity()
    before = imu.state
    bad = copy.deepcopy(before)
    bad[where[0]][where[1]] = value
    with pytest.raises(exc, match=word):
        imu.state = bad
    assert imu.state == before


def test_failed_reinit_changes_nothing():
    body = _body()
    imu = SensorSimulator(body, seed=5, noise_stddev=0.1, drift_rate=1e-3)
    imu.update(0.1)
    imu.read_angular_velocity()
    before = imu.state
    with pytest.raises(ValueError, match="angle_drift_rate"):
        imu.__init__(_body(), seed=6, noise_stddev=0.5, drift_rate=1.0, angle_drift_rate=[1.0])
    assert imu.state == before and imu.source is body


def test_an_object_made_with_new_is_safe():
    imu = SensorSimulator.__new__(SensorSimulator)
    for read in (imu.read_angular_velocity, imu.read_orientation):
        with pytest.raises(RuntimeError, match="initialised"):
            read()
    assert not imu.check_numerics()
    imu.update(0.01)
    imu.reset()
    with pytest.raises(RuntimeError, match="initialised"):  # its blank generator too
        _ = imu.generator_state
    with pytest.raises(RuntimeError, match="initialised"):
        imu.copy()  # it has no state to copy (the Model base's _params says so)


def test_dt_must_be_a_real_number_not_a_bool():
    imu = SensorSimulator(_body(), seed=1, drift_rate=1.0)
    with pytest.raises(TypeError, match="dt"):
        imu.update(True)
    with pytest.raises(TypeError, match="dt"):
        imu.update(None)
    np.testing.assert_array_equal(imu.drift_omega, 0.0)
    imu.update(np.float64(0.5))
    imu.update(1)
    np.testing.assert_array_equal(imu.drift_omega, 1.5)


# ---- hardening (issue 12) ---------------------------------------------------------------


def test_reads_stop_at_the_end_of_the_noise_stream():
    imu = SensorSimulator(_body(), seed=1, noise_stddev=0.1)
    s = imu.state
    s["position"]["generator"]["position"] = 2**64 - 4
    imu.state = s
    imu.read_angular_velocity()
    assert imu.state["position"]["generator"]["position"] == 2**64 - 1
    before = imu.state
    for read in (imu.read_angular_velocity, imu.read_orientation):
        with pytest.raises(OverflowError, match=r"\['generator'\]\['position'\]"):
            read()
    assert imu.state == before


@pytest.mark.parametrize(
    "out, exc, word",
    [
        (np.zeros(3, ">f8"), TypeError, "native"),
        (np.zeros(25, np.uint8)[1:].view(np.float64), ValueError, "aligned"),
        (np.zeros(6)[::2], ValueError, "C-contiguous"),
        (np.zeros(3, np.float32), TypeError, "float64"),
    ],
    ids=["big-endian", "unaligned", "strided", "float32"],
)
def test_outputs_the_kernel_cannot_write_are_refused(out, exc, word):
    # a big-endian out used to be written with native bytes
    imu = SensorSimulator(_body(), seed=1, noise_stddev=0.1)
    before = imu.state
    with pytest.raises(exc, match=word):
        imu.read_angular_velocity(out=out)
    assert imu.state == before


def test_source_vectors_are_read_by_value_in_any_layout():
    ref = SensorSimulator(AttrSource(omega=(1.0, -2.0, 0.5)), seed=3, noise_stddev=0.1)
    want = ref.read_angular_velocity()
    raw = np.zeros(25, np.uint8)
    unaligned = raw[1:].view(np.float64)
    unaligned[:] = (1.0, -2.0, 0.5)
    for omega in (np.array([1.0, -2.0, 0.5], ">f8"), unaligned, np.array([0.5, -2.0, 1.0])[::-1]):
        got = SensorSimulator(AttrSource(omega=omega), seed=3, noise_stddev=0.1)
        assert np.array_equal(got.read_angular_velocity(), want)


@pytest.mark.parametrize(
    ("attr", "value"),
    [
        ("omega", np.array([True, False, True])),
        ("omega", np.array([1j, 0, 0])),
        ("omega", [0.0, "x", 0.0]),
        ("yaw", True),
        ("yaw", 1j),
        ("yaw", np.datetime64("2020-01-01")),
        ("yaw", "0.1"),
    ],
)
def test_non_real_source_values_are_refused_by_name(attr, value):
    src = AttrSource()
    setattr(src, attr, value)
    imu = SensorSimulator(src, seed=1, noise_stddev=0.1)
    before = imu.state
    read = imu.read_angular_velocity if attr == "omega" else imu.read_orientation
    with pytest.raises((TypeError, ValueError), match=f"source.{attr}"):
        read()
    assert imu.state == before


def test_values_beyond_the_range_are_refused_so_readings_stay_finite():
    imu = SensorSimulator(AttrSource(omega=(1e301, 0.0, 0.0)), seed=1, noise_stddev=1e300)
    before = imu.state
    with pytest.raises(ValueError, match=r"source.omega.*1e\+300"):
        imu.read_angular_velocity()
    assert imu.state == before  # nothing drawn
    imu.source.omega = (1e300, -1e300, 0.0)
    assert np.all(np.isfinite(imu.read_angular_velocity()))
    for kw in ({"noise_stddev": 2e300}, {"drift_rate": -1e301}, {"angle_drift_rate": 1e308}):
        with pytest.raises(ValueError, match=next(iter(kw))):
            SensorSimulator(_body(), seed=1, **kw)
    imu = SensorSimulator(_body(), seed=1, drift_rate=1e300)
    imu.update(1.0)
    before = imu.state
    with pytest.raises(ValueError, match="drift accumulator"):
        imu.update(1.0)  # 2e300: past the range, though finite
    assert imu.state == before
    s = imu.state
    s["position"]["drift_angles"] = [0.0, 1.5e300, 0.0]
    with pytest.raises(ValueError, match="drift_angles"):
        imu.state = s


@pytest.mark.parametrize(
    "value",
    [np.array([True, True, True]), True, 1j, np.array([1j, 0, 0]), [0.1, None, 0.1]],
)
def test_non_real_configuration_is_refused_by_name(value):
    imu = SensorSimulator(_body(), seed=1)
    with pytest.raises((TypeError, ValueError), match="stddev"):
        imu.set_noise_stddev(value)
    with pytest.raises((TypeError, ValueError), match="rate"):
        imu.set_drift_rate(value)
    with pytest.raises(TypeError, match="dt"):
        imu.update(np.timedelta64(1, "s"))


def test_a_hand_made_pickle_with_short_lists_is_refused():
    from fastnoise.core.model import _restore

    class Payload:
        def __init__(self, state):
            self.state = state

        def __reduce__(self):
            return (_restore, (SensorSimulator, self.state, {"source": _body()}))

    good = SensorSimulator(_body(), seed=1, noise_stddev=0.1).state
    for where, value in [
        (("position", "drift_omega"), [0.1]),
        (("position", "drift_angles"), []),
        (("params", "noise_stddev"), [0.1, 0.2]),
        (("params", "drift_rate"), (0.5,)),
    ]:
        bad = copy.deepcopy(good)
        bad[where[0]][where[1]] = value
        with pytest.raises(ValueError, match=where[1]):
            pickle.loads(pickle.dumps(Payload(bad)))


def test_threads_sharing_one_sensor_get_every_normal_once():
    # 4 threads read one sensor; together the readings are those of one thread's
    # reads (this held before as well: a read never releases the GIL)
    import threading

    src = AttrSource(omega=(0.0, 0.0, 0.0))
    shared = SensorSimulator(src, seed=9, noise_stddev=1.0)
    barrier = threading.Barrier(4)
    results = [[] for _ in range(4)]

    def work(i):
        barrier.wait()
        for _ in range(3000):
            results[i].append(shared.read_angular_velocity().tobytes())

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    single = SensorSimulator(src, seed=9, noise_stddev=1.0)
    want = [single.read_angular_velocity().tobytes() for _ in range(12000)]
    assert sorted(r for rs in results for r in rs) == sorted(want)
