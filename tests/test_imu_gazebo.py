"""IMU points of Gazebo fidelity (issue #14): Gazebo's rounding of ``precision``,
precision and dynamic bias on some axes only, the published covariance, and ports of
gz-sensors' noise assertions.

Peer files read (gazebosim/gz-sensors at commit 9ba02f24108e57666d326e22317443034eb860f8):
``src/GaussianNoiseModel.cc`` (``Load``, ``ApplyImpl``), ``src/ImuSensor.cc`` (the
covariance of the Imu message), ``src/Noise_TEST.cc``, ``src/ImuSensor_TEST.cc``.
"""

import math
from fractions import Fraction

import numpy as np
import pytest

from fastnoise import ImuNoise, TriadNoise
from fastnoise.models.imu import gauss_markov_stddev_from_gazebo, triad_covariance

Z3 = [0.0, 0.0, 0.0]


def gazebo_round(x: float, p: float) -> float:
    """An independent reference of C++ ``std::round(x / p) * p``: the quotient is the
    IEEE double x / p (Python's float division), rounded half away from zero exactly
    (with Fractions), then multiplied by p in double."""
    q = x / p
    if not math.isfinite(q):
        return q * p
    r = int(abs(Fraction(q)) + Fraction(1, 2))  # floor(|q| + 1/2) in exact arithmetic
    return math.copysign(float(r), q) * p


def even_round(x: float, p: float) -> float:
    """fastnoise's default: round(x * (1/p)) * p, ties to even (Python's round)."""
    q = x * (1.0 / p)
    return math.copysign(float(round(q)), q) * p


def quantizer(resolution, rounding):
    """An IMU whose gyro only quantizes: output = round(true) exactly."""
    return ImuNoise(gyro=dict(resolution=resolution, rounding=rounding), seed=0)


def run_step(m, xs):
    return np.array([m.step([x, x, x], Z3, 0.01)[0] for x in xs])


def run_apply(m, xs):
    xs = np.asarray(xs, dtype=np.float64)
    w, _ = m.apply(np.repeat(xs[:, None], 3, 1), np.zeros((xs.size, 3)), 0.01)
    return w


# ---- rounding ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "x, gazebo, even",
    [
        (0.25, 0.5, 0.0),
        (-0.25, -0.5, -0.0),
        (0.75, 1.0, 1.0),
        (-0.75, -1.0, -1.0),
        (1.25, 1.5, 1.0),
        (0.2, 0.0, 0.0),
        (0.3, 0.5, 0.5),
    ],
)
def test_rounding_of_halves_at_precision_half(x, gazebo, even, simd_path):
    for rounding, want in (("gazebo", gazebo), ("nearest_even", even)):
        for run in (run_step, run_apply):
            got = run(quantizer(0.5, rounding), [x])
            assert got.shape == (1, 3)
            assert all(math.copysign(1.0, v) == math.copysign(1.0, want) for v in got[0])
            assert got.tolist() == [[want] * 3]


def _division_cases():
    """Values x, step p where Gazebo's x / p and fastnoise's default x * (1/p) round to
    different multiples, found by search: x near a half-step of p."""
    found = []
    for p in (0.1, 0.3, 0.7, 1e-3, 0.01, 0.2, 3.0, 0.35):
        for k in range(-3000, 3000):
            x = (k + 0.5) * p
            for xx in (x, math.nextafter(x, math.inf), math.nextafter(x, -math.inf)):
                if gazebo_round(xx, p) != even_round(xx, p):
                    half_away = gazebo_round(xx, p)
                    # the product alone rounds elsewhere (not only the tie rule)
                    qm = xx * (1.0 / p)
                    by_product = math.copysign(float(int(abs(Fraction(qm)) + Fraction(1, 2))), qm)
                    if by_product * p != half_away:
                        found.append((xx, p))
    return found


DIVISION_CASES = _division_cases()


def test_search_finds_values_where_division_and_product_differ():
    # the search above must find such values, or the next test proves nothing
    assert len(DIVISION_CASES) >= 50
    assert len({p for _, p in DIVISION_CASES}) >= 3


@pytest.mark.parametrize("run", [run_step, run_apply])
def test_gazebo_rounding_is_the_division_bit_for_bit(run, simd_path):
    by_p: dict = {}
    for x, p in DIVISION_CASES:
        by_p.setdefault(p, []).append(x)
    for p, xs in by_p.items():
        got = run(quantizer(p, "gazebo"), xs)[:, 0]
        want = np.array([gazebo_round(x, p) for x in xs])
        assert got.tobytes() == want.tobytes(), p
        # and the default still rounds the product, ties to even
        got_even = run(quantizer(p, "nearest_even"), xs)[:, 0]
        assert got_even.tobytes() == np.array([even_round(x, p) for x in xs]).tobytes()
        assert np.any(got != got_even)


def test_gazebo_rounding_random_values_match_reference(simd_path):
    rng = np.random.default_rng(14)
    for p in (0.3, 1e-3, 0.0625, 7.0):
        xs = rng.uniform(-50, 50, 4000) * p
        xs[::5] = (np.round(xs[::5] / p) + 0.5) * p  # near-ties
        want = np.array([gazebo_round(float(x), p) for x in xs])
        assert run_apply(quantizer(p, "gazebo"), xs)[:, 0].tobytes() == want.tobytes()
        assert run_step(quantizer(p, "gazebo"), xs[:200])[:, 0].tobytes() == want[:200].tobytes()


def test_gazebo_rounding_keeps_huge_and_non_finite_values():
    m = quantizer(1e-150, "gazebo")
    w = run_step(m, [1e200, math.inf, -math.inf])
    assert w[:, 0].tolist() == [1e200, math.inf, -math.inf]  # y / lsb overflows: y kept
    assert math.isnan(run_step(m, [math.nan])[0, 0])


def test_rounding_field_checks():
    assert TriadNoise().rounding == "nearest_even"
    assert TriadNoise(resolution=0.1, rounding="gazebo").to_dict()["rounding"] == "gazebo"
    with pytest.raises(ValueError, match="rounding='gazebo' is not allowed with bits=16"):
        TriadNoise(full_scale=1.0, bits=16, rounding="gazebo")
    with pytest.raises(ValueError, match=r"rounding=None is not allowed: it must be one of"):
        TriadNoise(rounding=None)
    with pytest.raises(TypeError, match="rounding"):
        ImuNoise(gyro_rounding_mode="gazebo")
    m = ImuNoise(gyro_resolution=0.5, gyro_rounding="gazebo", seed=3)
    back = ImuNoise.from_state(m.state)
    assert back.gyro.rounding == "gazebo"
    assert run_step(back, [0.25]).tolist() == [[0.5] * 3]


def test_bits_round_ties_to_even_always():
    # 16-bit ADC over +/-1: lsb 2**-15; 2.5 lsb rounds to 2 lsb (ties to even)
    m = ImuNoise(gyro=dict(full_scale=1.0, bits=16), seed=0)
    lsb = 2.0**-15
    assert run_step(m, [2.5 * lsb, 3.5 * lsb])[:, 0].tolist() == [2 * lsb, 4 * lsb]


# ---- precision and dynamic bias on some axes only ------------------------------------
def test_precision_on_some_axes_only(simd_path):
    g = TriadNoise(resolution=(0.5, 0.0, 0.25), rounding="gazebo")
    assert g.resolution == (0.5, 0.0, 0.25)
    assert g.lsb.tolist() == [0.5, 0.0, 0.25]
    m = ImuNoise(gyro=g, seed=0)
    true = [0.3, 0.3, 0.3]
    w, _ = m.step(true, Z3, 0.01)
    assert w.tolist() == [0.5, 0.3, 0.25]
    W, _ = m.apply(np.tile([0.125, 0.125, 0.125], (40, 1)), np.zeros((40, 3)), 0.01)
    assert W.tolist() == [[0.0, 0.125, 0.25]] * 40  # 0.25 half away; 0.5 half away


def test_precision_zero_on_every_axis_is_no_quantization():
    xs = [0.123456789, -7.25, 1e-9]
    a = run_step(ImuNoise(gyro=dict(resolution=0.0), seed=0), xs)
    assert a[:, 0].tolist() == xs


def test_dynamic_bias_on_some_axes_only():
    tau = 2.0
    sigma_b = gauss_markov_stddev_from_gazebo(0.05, tau)
    g = TriadNoise(
        turn_on_bias_mean=(0.1, 0.2, 0.3),
        gauss_markov_stddev=(sigma_b, 0.0, 0.0),
        gauss_markov_correlation_time=(tau, 0.0, 0.0),
        turn_on_bias_decays=True,
    )
    assert g.gauss_markov_correlation_time == (2.0, 0.0, 0.0)
    m = ImuNoise(gyro=g, seed=9)
    tb = m.turn_on_bias[0]
    assert np.abs(tb).tolist() == [0.1, 0.2, 0.3]  # the sign is random, the size exact
    W, _ = m.apply(np.zeros((2000, 3)), np.zeros((2000, 3)), 0.01)
    # axes without dynamic bias: the turn-on bias stays, exactly, as on a Gazebo axis
    # whose dynamic_bias_stddev or correlation time is 0
    assert np.all(W[:, 1] == tb[1]) and np.all(W[:, 2] == tb[2])
    # the x axis decays from its turn-on value and moves
    assert W[0, 0] != W[-1, 0] and len(set(W[:, 0].tolist())) > 1000
    pos = m.state["position"]["stream_positions"]
    assert [pos[i][1] for i in range(3)] == [2000, 0, 0]  # no Gauss-Markov draws on y, z
    # bias_variance: the turn-on second moment counts where it does not decay
    var = g.bias_variance()
    assert var.tolist() == [sigma_b**2, 0.2**2, 0.3**2]


def test_dynamic_bias_on_some_axes_decays_with_its_own_tau():
    # a constant turn-on bias of 1 (stddev 0) on x decays as exp(-t/tau), no noise
    g = TriadNoise(
        turn_on_bias_mean=1.0,
        gauss_markov_correlation_time=(0.5, 0.0, 0.0),
        turn_on_bias_decays=True,
    )
    m = ImuNoise(gyro=g, seed=1)
    s = m.turn_on_bias[0][0]
    w = [m.step(Z3, Z3, 0.25)[0] for _ in range(4)]
    want = [s * math.exp(-0.5) ** k for k in range(1, 5)]
    assert np.allclose([v[0] for v in w], want, rtol=1e-13, atol=0)
    assert [v[1] for v in w] == [m.turn_on_bias[0][1]] * 4


def test_per_axis_tau_checks():
    with pytest.raises(ValueError, match=r"gauss_markov_stddev\[1\]=0.2 is not allowed with "):
        TriadNoise(
            gauss_markov_stddev=(0.1, 0.2, 0.0), gauss_markov_correlation_time=(1.0, 0.0, 0.0)
        )
    tau = r"gauss_markov_correlation_time=\(1.0, -1.0, 0.0\) is not allowed: .* >= 0"
    with pytest.raises(ValueError, match=tau):
        TriadNoise(gauss_markov_correlation_time=(1.0, -1.0, 0.0))
    with pytest.raises(ValueError, match=r"resolution=\(0.5, -0.5, 0.0\) is not allowed: .* or 0"):
        TriadNoise(resolution=(0.5, -0.5, 0.0))


# ---- covariance ------------------------------------------------------------------------
def test_covariance_conventions_exact():
    # white sigma^2 = 0.375^2 + 0.5^2/1 = 0.390625 (= 0.625^2, so the sqrt is exact);
    # bias: Gauss-Markov 0.25^2 + turn-on 0.125^2 + 0.0625^2
    t = TriadNoise(
        noise_stddev=0.375,
        noise_density=0.5,
        gauss_markov_stddev=0.25,
        gauss_markov_correlation_time=10.0,
        turn_on_bias_mean=0.125,
        turn_on_bias_stddev=0.0625,
    )
    white_and_bias = 0.390625 + 0.0625 + 0.015625 + 0.00390625
    diag = [0, 4, 8]
    for conv, want in (("white_and_bias", white_and_bias), ("gazebo", 0.390625)):
        c = triad_covariance(t, 1.0, conv)
        assert c.shape == (9,)
        assert c[diag].tolist() == [want] * 3
        assert np.count_nonzero(c) == 3
    assert triad_covariance(t, 1.0).tolist() == triad_covariance(t, 1.0, "white_and_bias").tolist()
    m = ImuNoise(
        gyro=t,
        accel=dict(noise_stddev=0.5, gauss_markov_stddev=1.0, gauss_markov_correlation_time=3.0),
    )
    assert m.angular_velocity_covariance(1.0, "gazebo")[diag].tolist() == [0.390625] * 3
    assert m.linear_acceleration_covariance(1.0, "gazebo")[diag].tolist() == [0.25] * 3
    assert m.linear_acceleration_covariance(1.0)[diag].tolist() == [1.25] * 3
    with pytest.raises(ValueError, match=r"convention='ros' is not allowed: use one of"):
        m.angular_velocity_covariance(1.0, "ros")


# ---- ports of gz-sensors' noise tests ------------------------------------------------
def test_port_noise_test_precision_0_3():
    # gz-sensors src/Noise_TEST.cc, TEST(NoiseTest, ApplyGaussianQuantized), "Test
    # precision": precision 0.3, no noise; each value within 1e-6 of the expected one
    m = quantizer(0.3, "gazebo")
    for x, want in [(0.32, 0.3), (0.31, 0.3), (0.30, 0.3), (0.29, 0.3), (0.28, 0.3)]:
        assert abs(m.step([x] * 3, Z3, 0.01)[0][0] - want) <= 1e-6
    for x in (-12.92, -12.91, -12.90, -12.89, -12.88):
        assert abs(m.step([x] * 3, Z3, 0.01)[0][0] - (-12.9)) <= 1e-6


def test_port_noise_test_no_noise():
    # gz-sensors src/Noise_TEST.cc NoNoise: 100 uniform values in [-1e6, 1e6] come back
    # within 1e-6 for a zero Gaussian model (here: exactly)
    rng = np.random.default_rng(100)
    x = rng.uniform(-1e6, 1e6, (100, 3))
    w, a = ImuNoise(seed=1).apply(x, x, 0.01)
    assert np.array_equal(w, x) and np.array_equal(a, x)


def _gz_stats(values):
    """Noise_TEST.cc GaussianNoise: sample mean and (population) variance."""
    values = np.asarray(values)
    return values.mean(), np.mean((values - values.mean()) ** 2)


G_SIGMA = 5.0  # Noise_TEST.cc g_sigma: 5 sigma bounds
COUNT = 100  # Noise_TEST.cc g_applyCount


@pytest.mark.parametrize("bias_mean", [0.0, 100.0])
def test_port_noise_test_gaussian(bias_mean):
    # TEST(NoiseTest, ApplyGaussian): mean 10, stddev 5, bias_mean 0 or 100 (bias
    # stddev 0): 100 noisy copies of 42 have a mean within 5 stddev/sqrt(100) of
    # 42 + mean + bias and a variance within 5 sqrt(2 stddev^4/99) of stddev^2
    for seed in range(5):
        m = ImuNoise(gyro=dict(bias=10.0, noise_stddev=5.0, turn_on_bias_mean=bias_mean), seed=seed)
        w, _ = m.apply(np.full((COUNT, 3), 42.0), np.zeros((COUNT, 3)), 0.01)
        bias = 10.0 + m.turn_on_bias[0][0]
        assert abs(m.turn_on_bias[0][0]) == bias_mean
        mean, var = _gz_stats(w[:, 0])
        assert abs(mean - (42.0 + bias)) <= G_SIGMA * 5.0 / math.sqrt(COUNT)
        assert abs(var - 25.0) <= G_SIGMA * math.sqrt(2 * 25.0**2 / (COUNT - 1))


def test_port_noise_test_bias_generation():
    # TEST(NoiseTest, ApplyGaussian), "Test bias generation": bias_stddev 5 over 100
    # models: the biases' mean within 5*5/sqrt(100) of 0 (the random sign), their
    # variance within 5 sqrt(2*25^2/99) of 25
    biases = [
        ImuNoise(gyro_turn_on_bias_stddev=5.0, seed=s).turn_on_bias[0][0] for s in range(COUNT)
    ]
    mean, var = _gz_stats(biases)
    assert abs(mean) <= G_SIGMA * 5.0 / math.sqrt(COUNT)
    assert abs(var - 25.0) <= G_SIGMA * math.sqrt(2 * 25.0**2 / (COUNT - 1))


# ADIS16448 figures of gz-sensors src/ImuSensor_TEST.cc (from RotorS)
ADIS_GYRO_DENSITY = 2.0 * 35.0 / 3600.0 / 180.0 * math.pi
ADIS_GYRO_RW = 2.0 * 4.0 / 3600.0 / 180.0 * math.pi
ADIS_GYRO_TAU = 1.0e3
ADIS_GYRO_TURN_ON = 0.5 / 180.0 * math.pi
ADIS_ACCEL_DENSITY = 2.0 * 2.0e-3
ADIS_ACCEL_RW = 2.0 * 3.0e-3
ADIS_ACCEL_TAU = 300.0
ADIS_ACCEL_TURN_ON = 20.0e-3 * 9.8


def _adis(density, rw, tau, turn_on, rate):
    # ImuSensor_TEST.cc accelerometerParameters/gyroscopeParameters: stddev =
    # density/sqrt(dt), bias_stddev = turn-on sigma, dynamic bias (rw, tau); the
    # ComputeNoise test adds bias_mean 0.01
    dt = 1.0 / rate
    return TriadNoise(
        noise_stddev=density / math.sqrt(dt),
        turn_on_bias_mean=0.01,
        turn_on_bias_stddev=turn_on,
        gauss_markov_stddev=gauss_markov_stddev_from_gazebo(rw, tau),
        gauss_markov_correlation_time=tau,
        turn_on_bias_decays=True,
    )


def test_port_imu_sensor_compute_noise():
    # TEST(ImuSensor_TEST, ComputeNoise): at 100 Hz, zero input and no gravity, an IMU
    # without noise reads exactly 0 on both updates; the ADIS16448 one reads a vector of
    # non-zero squared length on both
    rate = 100.0
    truth = ImuNoise(seed=1)
    noisy = ImuNoise(
        gyro=_adis(ADIS_GYRO_DENSITY, ADIS_GYRO_RW, ADIS_GYRO_TAU, ADIS_GYRO_TURN_ON, rate),
        accel=_adis(ADIS_ACCEL_DENSITY, ADIS_ACCEL_RW, ADIS_ACCEL_TAU, ADIS_ACCEL_TURN_ON, rate),
        seed=1,
    )
    for _ in range(2):
        w0, a0 = truth.step(Z3, Z3, 0.01)
        assert w0.tolist() == Z3 and a0.tolist() == Z3
        w, a = noisy.step(Z3, Z3, 0.01)
        assert float(w @ w) > 0.0 and float(a @ a) > 0.0
    # what this IMU would publish as Gazebo: stddev^2 = density^2 / dt per axis
    cov = noisy.angular_velocity_covariance(0.01, "gazebo")
    assert np.allclose(cov[[0, 4, 8]], ADIS_GYRO_DENSITY**2 * rate, rtol=1e-15)
