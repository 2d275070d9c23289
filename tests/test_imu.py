"""ImuNoise: exact behaviour of each term, bit-identity of apply/step/copies, statistics
with fixed seeds, Gazebo turn-on semantics, covariances, presets and bad input."""

import copy
import copyreg
import json
import math
import pickle
import sys
import threading

import numpy as np
import pytest

from fastnoise.core import simd
from fastnoise.models.imu.imu_noise import ImuNoise
from fastnoise.models.imu.triad import (
    TriadNoise,
    gauss_markov_stddev_from_gazebo,
    odometry_covariances,
    triad_covariance,
    wt901c,
)

FULL = dict(
    noise_density=1e-3,
    noise_stddev=2e-4,
    bias=[0.01, -0.02, 0.03],
    turn_on_bias_mean=0.05,
    turn_on_bias_stddev=0.01,
    gauss_markov_stddev=3e-3,
    gauss_markov_correlation_time=[50.0, 60.0, 70.0],
    gauss_markov_steady_state=True,
    random_walk_density=1e-4,
    scale_factor=[1e-3, -2e-3, 5e-4],
    misalignment=[[0, 1e-3, -2e-3], [5e-4, 0, 1e-3], [2e-3, -1e-3, 0]],
    full_scale=3.0,
    bits=12,
)


def _full_model(seed=7):
    gyro = TriadNoise(**FULL, g_sensitivity=[[1e-3, 2e-4, 0], [0, 1e-3, 0], [0, 0, 1e-3]])
    accel = TriadNoise(**{**FULL, "full_scale": 40.0, "bits": 16})
    return ImuNoise(gyro=gyro, accel=accel, seed=seed)


def _motion(n, seed=3):
    rng = np.random.default_rng(seed)
    return rng.normal(0, 1.0, (n, 3)), rng.normal(0, 9.0, (n, 3))


def _steps(m, omega, accel, dt):
    dts = np.broadcast_to(np.asarray(dt, dtype=float), (len(omega),))
    out = [m.step(omega[k], accel[k], dts[k]) for k in range(len(omega))]
    return np.array([o[0] for o in out]), np.array([o[1] for o in out])


# ---- bit-identity ------------------------------------------------------------------


def test_apply_equals_repeated_step_bit_for_bit():
    omega, accel = _motion(1000)  # not a multiple of the C chunk (128)
    a, b = _full_model(), _full_model()
    wo, ao = a.apply(omega, accel, 0.01)
    ws, as_ = _steps(b, omega, accel, 0.01)
    assert np.array_equal(wo, ws) and np.array_equal(ao, as_)
    assert a.state == b.state


def test_apply_with_varying_steps_equals_step():
    omega, accel = _motion(300)
    dt = np.random.default_rng(1).uniform(0.005, 0.02, 300)
    dt[100:200] = 0.01  # runs of equal steps as well
    a, b = _full_model(), _full_model()
    wo, ao = a.apply(omega, accel, dt)
    ws, as_ = _steps(b, omega, accel, dt)
    assert np.array_equal(wo, ws) and np.array_equal(ao, as_)


def test_apply_in_pieces_equals_one_call_and_timestamps_equal_steps():
    omega, accel = _motion(700)
    t = 0.01 * np.arange(700)
    whole = _full_model().apply(omega, accel, 0.01)
    m = _full_model()
    parts = [m.apply(omega[i:j], accel[i:j], 0.01) for i, j in ((0, 1), (1, 250), (250, 700))]
    assert np.array_equal(np.concatenate([p[0] for p in parts]), whole[0])
    assert np.array_equal(np.concatenate([p[1] for p in parts]), whole[1])
    m = _full_model()
    dts = np.diff(t, prepend=-0.01)
    ref = _full_model().apply(omega, accel, dts)
    got = [m.apply(omega[i:j], accel[i:j], timestamps=t[i:j]) for i, j in ((0, 300), (300, 700))]
    assert np.array_equal(np.concatenate([g[0] for g in got]), ref[0])


def test_same_bits_on_every_simd_path():
    omega, accel = _motion(600)
    before = simd.simd_path()
    results = []
    try:
        for path in simd.simd_paths_available():
            simd.set_simd_path(path)
            plain = ImuNoise(gyro=dict(noise_density=1e-3, random_walk_density=1e-3), seed=2)
            results.append(
                _full_model().apply(omega, accel, 0.01) + plain.apply(omega, accel, 0.01)
            )
    finally:
        simd.set_simd_path(before)
    for r in results[1:]:
        assert all(np.array_equal(x, y) for x, y in zip(r, results[0], strict=True))


def _plain_model(normal_dtype="float64", seed=5):
    """No scale, misalignment or G-sensitivity (apply's direct path); the gyro quantized,
    the accel not, no random walk, one accel axis without a Gauss-Markov term."""
    gyro = TriadNoise(
        noise_density=2e-4,
        gauss_markov_stddev=3e-4,
        gauss_markov_correlation_time=400.0,
        full_scale=0.5,
        bits=16,
    )
    accel = TriadNoise(
        noise_density=[2e-3, 0.0, 2e-3],
        gauss_markov_stddev=[1e-2, 1e-2, 0.0],
        gauss_markov_correlation_time=300.0,
        gauss_markov_steady_state=True,
        full_scale=20.0,
    )
    return ImuNoise(gyro=gyro, accel=accel, seed=seed, normal_dtype=normal_dtype)


@pytest.mark.parametrize("normal_dtype", ["float64", "float32"])
def test_direct_path_equals_step_on_every_simd_path(normal_dtype):
    # 1030 samples: two full chunks and a tail that is not a whole number of 4-sample
    # blocks; gyro values beyond full scale exercise the saturation
    omega, accel = _motion(1030)
    ref = _steps(_plain_model(normal_dtype), omega, accel, 0.01)
    assert np.any(np.abs(ref[0]) == 0.5)
    before = simd.simd_path()
    try:
        for path in simd.simd_paths_available():
            simd.set_simd_path(path)
            got = _plain_model(normal_dtype).apply(omega, accel, 0.01)
            assert np.array_equal(got[0], ref[0]) and np.array_equal(got[1], ref[1]), path
    finally:
        simd.set_simd_path(before)


def test_outputs_may_be_the_other_triads_inputs():
    omega, accel = _motion(1030)
    ref = _plain_model().apply(omega, accel, 0.01)
    w, a = omega.copy(), accel.copy()
    res = _plain_model().apply(w, a, 0.01, out_omega=a, out_accel=w)
    assert res[0] is a and res[1] is w
    assert np.array_equal(a, ref[0]) and np.array_equal(w, ref[1])
    w, a = omega.copy(), accel.copy()
    res = _plain_model().apply(w, a, 0.01, out_omega=w, out_accel=a)
    assert np.array_equal(w, ref[0]) and np.array_equal(a, ref[1])


def test_reset_copy_pickle_state_reproduce_the_stream():
    omega, accel = _motion(400)
    m = _full_model()
    first = m.apply(omega[:200], accel[:200], 0.01)
    c, d, p = m.copy(), copy.deepcopy(m), pickle.loads(pickle.dumps(m))
    s = _full_model()
    s.state = m.state
    rest = m.apply(omega[200:], accel[200:], 0.01)
    for other in (c, d, p, s):
        got = other.apply(omega[200:], accel[200:], 0.01)
        assert np.array_equal(got[0], rest[0]) and np.array_equal(got[1], rest[1])
    m.reset()
    again = m.apply(omega[:200], accel[:200], 0.01)
    assert np.array_equal(again[0], first[0]) and np.array_equal(again[1], first[1])
    assert m.sample_count == 200


def test_state_records_the_precision_of_the_draws():
    m = _full_model()
    assert m.state["params"]["normal_dtype"] == m.normal_dtype
    other = "float64" if m.normal_dtype == "float32" else "float32"
    gyro = TriadNoise(noise_density=1e-2)
    # the precision is a parameter of the state: setting a state of the other
    # precision makes the model draw that way (it continues that model's stream)
    src = ImuNoise(gyro=gyro, seed=1)
    src.apply(np.zeros((5, 3)), np.zeros((5, 3)), 0.01)
    mismatched = ImuNoise(gyro=gyro, seed=1, normal_dtype=other)
    mismatched.state = src.state
    assert mismatched.normal_dtype == src.normal_dtype
    zeros = np.zeros((7, 3))
    assert np.array_equal(mismatched.apply(zeros, zeros, 0.01)[0], src.apply(zeros, zeros, 0.01)[0])
    # a precision that is not float32/float64 is refused by name and changes nothing
    target = ImuNoise(gyro=gyro, seed=1, normal_dtype=other)
    before = target.state
    for bad in ("float16", "int8", None, 32):
        state = src.state
        state["params"]["normal_dtype"] = bad
        with pytest.raises((TypeError, ValueError), match="normal_dtype"):
            target.state = state
        assert target.state == before


def test_state_has_the_contract_shape_and_round_trips():
    m = _full_model()
    omega, accel = _motion(50)
    m.apply(omega, accel, timestamps=np.arange(50) * 0.01)
    s = m.state
    assert s["model"] == "imu" and s["version"] == 1
    assert set(s["params"]) == {"gyro", "accel", "normal_dtype"}
    assert s["params"]["gyro"] == m.gyro.to_dict()
    assert TriadNoise(**s["params"]["accel"]) == m.accel
    p = s["position"]
    assert set(p) == {
        "stream_positions",
        "gauss_markov",
        "random_walk",
        "sample_count",
        "last_time",
    }
    assert p["sample_count"] == 50 and p["last_time"] == 0.49
    assert np.array_equal(p["gauss_markov"], m.gauss_markov_bias)
    assert np.array_equal(p["random_walk"], m.random_walk_bias)
    # the state is plain data: a JSON round trip rebuilds the same model
    c = ImuNoise.from_state(json.loads(json.dumps(s)))
    assert c.state == s and c.key == m.key
    # the last timestamp travels: the next timestamped call continues both alike
    t = 0.5 + np.arange(10) * 0.01
    got = c.apply(omega[:10], accel[:10], timestamps=t)
    want = m.apply(omega[:10], accel[:10], timestamps=t)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


def _with(state, where, value):
    s = copy.deepcopy(state)
    d = s["position"]
    for k in where[:-1]:
        d = d[k]
    d[where[-1]] = value
    return s


@pytest.mark.parametrize(
    "where, value, exc, name",
    [
        (("sample_count",), 1.5, TypeError, "sample_count"),
        (("sample_count",), "7", TypeError, "sample_count"),
        (("sample_count",), True, TypeError, "sample_count"),
        (("sample_count",), -1, ValueError, "sample_count"),
        (("sample_count",), 2**64, ValueError, "sample_count"),
        (("stream_positions", 2, 1), 1.5, TypeError, "['stream_positions'][2][1]"),
        (("stream_positions", 2, 1), "7", TypeError, "['stream_positions'][2][1]"),
        (("stream_positions", 5), [0, 0], ValueError, "['stream_positions'][5]"),
        (("stream_positions", 5), [0, 0, 0, 0], ValueError, "['stream_positions'][5]"),
        (("stream_positions",), [[0, 0, 0]] * 5, ValueError, "['stream_positions']"),
        (("stream_positions",), [[0, 0, 0]] * 7, ValueError, "['stream_positions']"),
        (("gauss_markov", 0, 2), math.nan, ValueError, "['gauss_markov'][0][2]"),
        (("gauss_markov", 1, 0), math.inf, ValueError, "['gauss_markov'][1][0]"),
        (("gauss_markov", 1, 0), "0.1", TypeError, "['gauss_markov'][1][0]"),
        (("gauss_markov", 1), [0.0, 0.0], ValueError, "['gauss_markov'][1]"),
        (("random_walk", 0, 0), None, TypeError, "['random_walk'][0][0]"),
        (("random_walk", 0, 0), False, TypeError, "['random_walk'][0][0]"),
        (("random_walk",), [[0.0] * 3] * 3, ValueError, "['random_walk']"),
        (("last_time",), math.nan, ValueError, "last_time"),
        (("last_time",), "1.0", TypeError, "last_time"),
    ],
)
def test_bad_state_entries_are_refused_by_name_and_change_nothing(where, value, exc, name):
    m = _full_model()
    m.apply(*_motion(20), 0.01)
    before = m.state
    with pytest.raises(exc) as info:
        m.state = _with(before, where, value)
    assert name in str(info.value)
    assert m.state == before
    with pytest.raises(exc):
        ImuNoise.from_state(_with(before, where, value))


def test_bad_parameters_in_a_state_are_refused_by_name():
    m = _full_model()
    before = m.state
    for triad, field, value in [
        ("gyro", "noise_stddev", [0.1, "x", 0.1]),
        ("gyro", "bias", [True, 0.0, 0.0]),
        ("accel", "full_scale", [40.0, math.nan, 40.0]),
        ("accel", "misalignment", [[0, 1e-3, "y"], [0, 0, 0], [0, 0, 0]]),
        ("gyro", "bits", 12.0),
        ("gyro", "gauss_markov_steady_state", "yes"),
    ]:
        s = copy.deepcopy(before)
        s["params"][triad][field] = value
        with pytest.raises((TypeError, ValueError), match=field):
            m.state = s
        assert m.state == before


def test_seeds_and_axes_are_independent_streams():
    zeros = np.zeros((2000, 3))
    w1, _ = ImuNoise(gyro=dict(noise_stddev=1.0), seed=1).apply(zeros, zeros, 0.01)
    w2, _ = ImuNoise(gyro=dict(noise_stddev=1.0), seed=2).apply(zeros, zeros, 0.01)
    assert not np.array_equal(w1, w2)
    c = np.corrcoef(np.column_stack([w1, w2]).T)
    assert np.all(np.abs(c[np.triu_indices(6, 1)]) < 0.1)  # 4.5 sigma at n = 2000


def test_inputs_not_modified_and_outputs_may_alias_inputs():
    omega, accel = _motion(300)
    o0, a0 = omega.copy(), accel.copy()
    ref = _full_model().apply(omega, accel, 0.01)
    assert np.array_equal(omega, o0) and np.array_equal(accel, a0)
    m = _full_model()
    res = m.apply(omega, accel, 0.01, out_omega=omega, out_accel=accel)
    assert res[0] is omega and res[1] is accel
    assert np.array_equal(omega, ref[0]) and np.array_equal(accel, ref[1])
    w, a = o0[0].copy(), a0[0].copy()
    m2 = _full_model()
    m2.step(w, a, 0.01, out_omega=w, out_accel=a)
    assert np.array_equal(w, ref[0][0]) and np.array_equal(a, ref[1][0])


def test_nan_input_propagates_without_disturbing_the_noise():
    omega, accel = _motion(50)
    ref = _full_model().apply(omega, accel, 0.01)
    omega[10, 1] = np.nan
    got = _full_model().apply(omega, accel, 0.01)
    assert np.isnan(got[0][10, 1])
    mask = np.ones((50, 3), bool)
    mask[10, :] = False  # misalignment spreads the NaN over the sample
    assert np.array_equal(got[0][mask], ref[0][mask])
    assert np.array_equal(got[1], ref[1])
    m = ImuNoise(gyro=dict(noise_stddev=0.1, full_scale=2.0, bits=8), seed=0)
    w, _ = m.step([np.inf, -np.inf, np.nan], [0, 0, 0], 0.01)
    assert w[0] == 2.0 and w[1] == -2.0 and np.isnan(w[2])


# ---- exact behaviour of the deterministic terms -----------------------------------


def test_scale_misalignment_and_g_sensitivity_exact():
    gyro = TriadNoise(
        scale_factor=[0.5, -0.25, 0.0],
        misalignment=[[0, 0.125, 0], [0, 0, 0.5], [0.25, 0, 0]],
        g_sensitivity=0.0625,
    )
    m = ImuNoise(gyro=gyro, accel=dict(scale_factor=0.5), seed=0)
    w, a = m.step([1.0, 2.0, 4.0], [8.0, 16.0, -32.0], 0.01)
    # C = I + diag(s) + M;  gyro += 0.0625 * a
    assert w.tolist() == [1.5 + 0.25 + 0.5, 1.5 + 2.0 + 1.0, 0.25 + 4.0 - 2.0]
    assert a.tolist() == [12.0, 24.0, -48.0]


def test_constant_bias_exact_and_no_terms_is_identity():
    omega, accel = _motion(100)
    w, a = ImuNoise(seed=1).apply(omega, accel, 0.01)
    assert np.array_equal(w, omega) and np.array_equal(a, accel)
    w, _ = ImuNoise(gyro=dict(bias=[0.5, -0.25, 1.0]), seed=1).apply(omega, accel, 0.01)
    assert np.array_equal(w, omega + [0.5, -0.25, 1.0])


def test_quantization_multiples_of_lsb_and_saturation_at_full_scale():
    fs = 2000.0 * math.pi / 180.0
    m = ImuNoise(gyro=dict(noise_stddev=0.01, full_scale=fs, bits=16), seed=4)
    omega = np.random.default_rng(0).uniform(-2 * fs, 2 * fs, (5000, 3))
    w, _ = m.apply(omega, np.zeros((5000, 3)), 0.01)
    lsb = 2 * fs / 65536
    assert m.gyro.lsb[0] == lsb
    assert np.array_equal(np.rint(w / lsb) * lsb, w)
    assert np.all(np.abs(w) <= fs)
    big = np.abs(omega) > fs + 0.1
    assert np.array_equal(w[big], np.sign(omega[big]) * fs)  # clipped exactly at full scale
    inner = np.abs(omega) < fs - 0.1
    assert np.max(np.abs(w[inner] - omega[inner])) < 0.1  # noise 0.01 + lsb/2 away


def test_quantization_rounds_to_nearest_step():
    m = ImuNoise(gyro=dict(resolution=0.25), seed=0)
    w, _ = m.step([0.3, -0.37, 1.0], [0, 0, 0], 0.01)
    assert w.tolist() == [0.25, -0.25, 1.0]


# ---- statistics (fixed seeds, stated tolerances) -----------------------------------


def test_white_noise_density_gives_sigma_n_over_sqrt_dt():
    n, dt, nd = 100_000, 0.004, 2e-3
    zeros = np.zeros((n, 3))
    w, _ = ImuNoise(gyro=dict(noise_density=nd), seed=11).apply(zeros, zeros, dt)
    sigma = nd / math.sqrt(dt)
    # std error of a sample std is sigma/sqrt(2n) = 0.22 %: allow 1 %
    assert np.allclose(w.std(axis=0), sigma, rtol=0.01)
    assert np.all(np.abs(w.mean(axis=0)) < 4.5 * sigma / math.sqrt(n))


def test_gauss_markov_stationary_std_and_autocorrelation():
    n, dt, tau, sb = 400_000, 0.01, 0.5, 0.2
    zeros = np.zeros((n, 3))
    m = ImuNoise(
        gyro=dict(
            gauss_markov_stddev=sb,
            gauss_markov_correlation_time=tau,
            gauss_markov_steady_state=True,
        ),
        seed=5,
    )
    w, _ = m.apply(zeros, zeros, dt)
    alpha = math.exp(-dt / tau)
    # effective sample count n(1-a)/(1+a) = 4000 per axis: std within 4 %, acf within 0.06
    assert np.allclose(w.std(axis=0), sb, rtol=0.04)
    for lag in (10, 50, 100):
        acf = np.mean(w[:-lag] * w[lag:], axis=0) / np.mean(w * w, axis=0)
        assert np.allclose(acf, alpha**lag, atol=0.06)


def test_gauss_markov_starts_at_zero_unless_steady_state():
    m = ImuNoise(gyro=dict(gauss_markov_stddev=1.0, gauss_markov_correlation_time=100.0), seed=1)
    assert np.all(m.gauss_markov_bias == 0.0)
    firsts = np.array(
        [
            ImuNoise(
                gyro=dict(
                    gauss_markov_stddev=1.0,
                    gauss_markov_correlation_time=100.0,
                    gauss_markov_steady_state=True,
                ),
                seed=s,
            ).gauss_markov_bias[0]
            for s in range(300)
        ]
    ).ravel()
    assert abs(firsts.std() - 1.0) < 0.1  # 900 draws: std error 2.4 %
    assert abs(firsts.mean()) < 0.15


def test_random_walk_variance_grows_as_k2_t():
    k, dt, n, runs = 0.01, 0.01, 1000, 200
    zeros = np.zeros((n, 3))
    ends = np.array(
        [
            ImuNoise(gyro=dict(random_walk_density=k), seed=s).apply(zeros, zeros, dt)[0][-1]
            for s in range(runs)
        ]
    ).ravel()
    # Var b(T) = K^2 T with T = n dt = 10 s; 600 draws: std error of the variance 5.8 %
    assert abs(ends.var() / (k * k * n * dt) - 1.0) < 0.25


def test_turn_on_bias_sign_flips_half_the_time_and_is_constant_over_a_run():
    signs, mags = [], []
    for s in range(400):
        m = ImuNoise(
            gyro=dict(turn_on_bias_mean=1.0, turn_on_bias_stddev=0.01),
            accel=dict(turn_on_bias_mean=1.0, turn_on_bias_stddev=0.01),
            seed=s,
        )
        tb = m.turn_on_bias.ravel()
        signs.extend(np.sign(tb))
        mags.extend(np.abs(tb))
    signs, mags = np.array(signs), np.array(mags)
    # 2400 axes: fraction negative within 4 sigma (0.041) of 1/2
    assert abs(np.mean(signs < 0) - 0.5) < 0.041
    assert abs(mags.mean() - 1.0) < 0.001 and abs(mags.std() - 0.01) < 0.001
    omega, accel = _motion(500)
    m = ImuNoise(gyro=dict(turn_on_bias_mean=0.3, turn_on_bias_stddev=0.1), seed=9)
    w, a = m.apply(omega, accel, 0.01)
    assert np.array_equal(w, omega + m.turn_on_bias[0])
    assert np.array_equal(a, accel)
    m.reset()
    assert np.array_equal(m.apply(omega, accel, 0.01)[0], w)


def test_gazebo_turn_on_bias_decays_as_gauss_markov_start():
    tau, dt, n = 2.0, 0.01, 300
    m = ImuNoise(
        gyro=dict(
            turn_on_bias_mean=1.0, gauss_markov_correlation_time=tau, turn_on_bias_decays=True
        ),
        seed=3,
    )
    b0 = m.turn_on_bias[0]
    assert np.array_equal(m.gauss_markov_bias[0], b0)
    w, _ = m.apply(np.zeros((n, 3)), np.zeros((n, 3)), dt)
    k = np.arange(1, n + 1)[:, None]
    assert np.allclose(w, b0 * np.exp(-k * dt / tau), rtol=1e-12, atol=0)


# ---- covariances, presets ----------------------------------------------------------


def test_covariances():
    t = TriadNoise(
        noise_density=0.02,
        noise_stddev=0.1,
        gauss_markov_stddev=0.3,
        gauss_markov_correlation_time=10.0,
        turn_on_bias_mean=0.5,
        turn_on_bias_stddev=0.25,
    )
    cov = triad_covariance(t, 0.01)
    var = 0.1**2 + 0.02**2 / 0.01 + 0.3**2 + 0.5**2 + 0.25**2
    assert cov.shape == (9,)
    assert np.allclose(cov[[0, 4, 8]], var, rtol=1e-14)
    assert np.all(cov[[1, 2, 3, 5, 6, 7]] == 0.0)
    m = ImuNoise(gyro=t, accel=dict(noise_stddev=0.5), seed=0)
    assert np.array_equal(m.angular_velocity_covariance(0.01), cov)
    assert np.allclose(m.linear_acceleration_covariance(0.01)[[0, 4, 8]], 0.25, rtol=1e-15)
    pose, twist = odometry_covariances()
    assert pose.shape == twist.shape == (36,)
    expect_pose = {0: 0.005, 7: 0.005, 14: 1e6, 21: 1e6, 28: 1e6, 35: 0.08}
    expect_twist = {0: 0.001, 7: 0.0001, 35: 0.05}
    for arr, exp in ((pose, expect_pose), (twist, expect_twist)):
        for i in range(36):
            assert arr[i] == exp.get(i, 0.0)


def test_wt901c_preset_has_the_seed_figures():
    gyro, accel = wt901c()
    assert gyro.lsb[0] == (2 * 2000 * math.pi / 180) / 65536
    assert accel.lsb[0] == (2 * 16 * 9.81) / 65536
    assert gyro.gauss_markov_correlation_time == (400.0,) * 3
    assert gyro.g_sensitivity[0][0] == 0.00175 / 9.81 and gyro.g_sensitivity[0][1] == 0.0
    m = ImuNoise(gyro=gyro, accel=accel, seed=0)
    w, a = m.step([0.0, 0.0, 0.0], [0.0, 0.0, 9.81], 0.01)
    assert np.all(np.abs(w) < 0.02) and abs(a[2] - 9.81) < 0.2


def test_gazebo_dynamic_bias_stationary_std():
    assert gauss_markov_stddev_from_gazebo(0.1, 8.0) == 0.1 * 2.0


def test_keywords_and_dicts():
    m = ImuNoise(gyro_noise_density=1e-3, accel_bits=8, accel_full_scale=16.0, seed=0)
    assert m.gyro.noise_density == (1e-3,) * 3
    assert m.accel.lsb[0] == 2 * 16.0 / 256


# ---- bad input ---------------------------------------------------------------------


@pytest.mark.parametrize("dt", [0.0, -0.01, math.nan, math.inf])
def test_bad_dt(dt):
    m = ImuNoise(seed=0)
    with pytest.raises(ValueError, match="dt"):
        m.step([0, 0, 0], [0, 0, 0], dt)
    with pytest.raises(ValueError, match="dt"):
        m.apply(np.zeros((3, 3)), np.zeros((3, 3)), dt)
    with pytest.raises(ValueError, match="dt"):
        m.apply(np.zeros((3, 3)), np.zeros((3, 3)), [0.01, dt, 0.01])


def test_bad_dt_type_and_timestamps():
    m = ImuNoise(seed=0)
    with pytest.raises(TypeError, match="dt"):
        m.step([0, 0, 0], [0, 0, 0], "0.01")
    with pytest.raises(TypeError, match="dt"):
        m.apply(np.zeros((3, 3)), np.zeros((3, 3)))
    with pytest.raises(ValueError, match="timestamps"):
        m.apply(np.zeros((3, 3)), np.zeros((3, 3)), timestamps=[0.0, 0.02, 0.01])


@pytest.mark.parametrize(
    "field, value, match",
    [
        ("gauss_markov_correlation_time", 0.0, "gauss_markov_correlation_time"),
        ("gauss_markov_correlation_time", -1.0, "gauss_markov_correlation_time"),
        ("noise_stddev", -1.0, "noise_stddev"),
        ("noise_density", math.nan, "noise_density"),
        ("gauss_markov_stddev", -0.1, "gauss_markov_stddev"),
        ("random_walk_density", -1.0, "random_walk_density"),
        ("bits", 0, "bits"),
        ("bits", 33, "bits"),
        ("full_scale", -1.0, "full_scale"),
        ("noise_stddev", [1.0, 2.0], "noise_stddev"),
        ("misalignment", [[1, 0, 0], [0, 0, 0], [0, 0, 0]], "misalignment"),
        ("resolution", -0.5, "resolution"),
        ("resolution", (0.5, 1e-200, 0.0), "resolution"),
        ("gauss_markov_correlation_time", (10.0, 0.0, 10.0), "gauss_markov_correlation_time"),
        ("rounding", "half_up", "rounding"),
    ],
)
def test_bad_parameters(field, value, match):
    kw = {field: value}
    if field == "bits":
        kw["full_scale"] = 10.0
    if field == "gauss_markov_correlation_time":
        kw["gauss_markov_stddev"] = 1.0
    with pytest.raises(ValueError, match=match):
        TriadNoise(**kw)
    with pytest.raises(ValueError, match=match):
        ImuNoise(gyro=kw)


def test_bad_combinations_and_types():
    with pytest.raises(ValueError, match="full_scale"):
        TriadNoise(bits=16)
    with pytest.raises(ValueError, match="gauss_markov_correlation_time"):
        TriadNoise(gauss_markov_stddev=1.0)
    with pytest.raises(TypeError, match="bits"):
        TriadNoise(bits=16.0, full_scale=1.0)
    with pytest.raises(ValueError, match="g_sensitivity"):
        ImuNoise(accel=dict(g_sensitivity=1e-3))
    with pytest.raises(TypeError, match="gyro_nonsense"):
        ImuNoise(gyro_nonsense=1.0)
    with pytest.raises(TypeError, match="gyro"):
        ImuNoise(gyro=3.0)


def test_bad_shapes():
    m = ImuNoise(seed=0)
    with pytest.raises(ValueError, match="omega"):
        m.step([0, 0], [0, 0, 0], 0.01)
    with pytest.raises(ValueError, match="accel"):
        m.step([0, 0, 0], np.zeros((3, 3)), 0.01)
    with pytest.raises(ValueError, match="omega"):
        m.apply(np.zeros((4, 2)), np.zeros((4, 3)), 0.01)
    with pytest.raises(ValueError, match="samples"):
        m.apply(np.zeros((4, 3)), np.zeros((5, 3)), 0.01)
    with pytest.raises(ValueError, match="out_omega"):
        m.apply(np.zeros((4, 3)), np.zeros((4, 3)), 0.01, out_omega=np.zeros((5, 3)))
    with pytest.raises(TypeError, match="out_accel"):
        m.step([0, 0, 0], [0, 0, 0], 0.01, out_accel=np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="dt"):
        m.apply(np.zeros((4, 3)), np.zeros((4, 3)), np.full(3, 0.01))


def test_float32_normals_by_default_same_streams_to_float32_precision_apply_equals_step():
    omega, accel = _motion(500)
    gyro = TriadNoise(
        noise_density=1e-2, gauss_markov_stddev=1e-2, gauss_markov_correlation_time=5.0
    )
    m64 = ImuNoise(gyro=gyro, seed=8, normal_dtype="float64")
    m32 = ImuNoise(gyro=gyro, seed=8)
    assert m32.normal_dtype == "float32"  # the default
    assert m64.normal_dtype == "float64"
    w64, _ = m64.apply(omega, accel, 0.01)
    c = m32.copy()
    w32, a32 = m32.apply(omega, accel, 0.01)
    ws, as_ = _steps(c, omega, accel, 0.01)
    assert np.array_equal(w32, ws) and np.array_equal(a32, as_)
    assert not np.array_equal(w32, w64)
    # the same normals at float32 accuracy (a few 1e-7 relative): with sigma 0.1 per
    # sample the outputs differ by well under 1e-5 sigma
    assert np.max(np.abs(w32 - w64)) < 1e-5 * 0.1
    p = pickle.loads(pickle.dumps(m32))
    assert p.normal_dtype == "float32"
    assert np.array_equal(p.apply(omega, accel, 0.01)[0], m32.apply(omega, accel, 0.01)[0])
    with pytest.raises(ValueError, match="normal_dtype"):
        ImuNoise(normal_dtype="int8")  # a wrong choice, as for every choice


def test_bools_and_strings_are_not_numbers():
    m = ImuNoise(seed=0)
    for bad in (True, "0.01"):
        with pytest.raises(TypeError, match="dt"):
            m.step([0, 0, 0], [0, 0, 0], bad)
        with pytest.raises(TypeError, match="dt"):
            m.apply(np.zeros((3, 3)), np.zeros((3, 3)), bad)
    with pytest.raises(TypeError, match="dt"):
        m.apply(np.zeros((3, 3)), np.zeros((3, 3)), [True] * 3)
    with pytest.raises(TypeError, match="omega"):
        m.step(np.ones(3, bool), [0, 0, 0], 0.01)
    with pytest.raises(ValueError, match="normal_dtype"):
        ImuNoise(normal_dtype=None)  # a wrong choice, as for every choice
    assert m.sample_count == 0
    # numpy floats and ints are real numbers
    m.step([0, 0, 0], [0, 0, 0], np.float64(0.01))
    m.step([0, 0, 0], [0, 0, 0], 1)
    assert m.sample_count == 2


def test_failed_reinit_changes_nothing_and_new_objects_are_safe():
    m = _full_model()
    m.apply(*_motion(10), 0.01)
    before = m.state
    for kw in ({"no_such_parameter": 1}, {"gyro": {"bits": 0, "full_scale": 1.0}}):
        with pytest.raises((TypeError, ValueError)):
            m.__init__(**kw)
        assert m.state == before
    blank = ImuNoise.__new__(ImuNoise)
    w, a = blank.step([0.1, 0.2, 0.3], [0.0, 0.0, 9.81], 0.01)  # no noise at all
    assert w.tolist() == [0.1, 0.2, 0.3] and a.tolist() == [0.0, 0.0, 9.81]
    with pytest.raises(RuntimeError, match="never initialised"):
        blank.copy()


# ---- hardening (issue 12): intake, overlap, counters, ranges, threads, pickles ------


def _wt901c_model(seed=11):
    gyro, accel = wt901c()
    return ImuNoise(gyro=gyro, accel=accel, seed=seed)


def test_apply_refuses_an_out_that_is_a_shifted_view_of_its_input():
    # the example: out_omega one row ahead of omega, dt an array (1999 of 2000
    # rows used to come out wrong); now refused, the model unchanged
    rng = np.random.default_rng(0)
    buf = rng.normal(size=(2001, 3))
    accel, dt = rng.normal(size=(2000, 3)), np.full(2000, 0.01)
    m = _full_model()
    before = m.state
    for w, out in ((buf[:2000], buf[1:]), (buf[1:], buf[:2000])):
        with pytest.raises(ValueError, match="out_omega overlaps omega"):
            m.apply(w, accel, dt, out_omega=out)
    assert m.state == before
    o = np.zeros((2001, 3))
    with pytest.raises(ValueError, match="out_omega overlaps out_accel"):
        m.apply(buf[:2000], accel, dt, out_omega=o[:2000], out_accel=o[1:])
    spare = np.zeros(2 * 3 * 2000)
    d = spare[:2000]
    d[:] = 0.01
    with pytest.raises(ValueError, match="out_omega overlaps dt"):
        m.apply(buf[:2000], accel, d, out_omega=spare[1000 : 1000 + 6000].reshape(2000, 3))
    assert m.state == before
    # the exact in-place forms stay allowed (and equal the plain call)
    ref = _full_model().apply(buf[:2000], accel, dt)
    w, a = buf[:2000].copy(), accel.copy()
    m.apply(w, a, dt, out_omega=w, out_accel=a)
    assert np.array_equal(w, ref[0]) and np.array_equal(a, ref[1])


def test_step_outputs_may_share_inputs_but_not_each_other():
    buf = np.arange(7.0)
    ref = _full_model().step(buf[0:3].copy(), buf[3:6].copy(), 0.01)
    got = _full_model().step(buf[0:3], buf[3:6], 0.01, out_omega=buf[1:4], out_accel=buf[4:7])
    assert np.array_equal(got[0], ref[0]) and np.array_equal(buf[4:7], ref[1])
    m = _full_model()
    before = m.state
    out = np.zeros(5)
    with pytest.raises(ValueError, match="out_omega overlaps out_accel"):
        m.step(np.zeros(3), np.zeros(3), 0.01, out_omega=out[:3], out_accel=out[2:])
    assert m.state == before


def _layouts(a):
    """a (float64) in other layouts with the same values."""
    a = np.asarray(a, dtype=np.float64)
    raw = np.zeros(a.nbytes + 1, np.uint8)
    unaligned = raw[1:].view(np.float64).reshape(a.shape)
    unaligned[...] = a
    big = a.astype(">f8")
    strided = np.repeat(a[..., None], 2, axis=-1)[..., 0]
    readonly = a.copy()
    readonly.flags.writeable = False
    return {
        "big-endian": big,
        "unaligned": unaligned,
        "strided": strided,
        "read-only": readonly,
        "float32-exact": a.astype(np.float32).astype(np.float64),
    }


def test_step_and_apply_read_any_layout_by_value():
    # big-endian arrays used to be read as raw bytes on step's fast path (1.0 -> 3e-319)
    omega, accel = _motion(40)
    omega[:] = omega.astype(np.float32)  # so that the float32 layout holds the same values
    ref = _full_model().apply(omega, accel, 0.01)
    for name, w in _layouts(omega).items():
        got = _full_model().apply(w, accel, 0.01)
        assert np.array_equal(got[0], ref[0]) and np.array_equal(got[1], ref[1]), name
        m = _full_model()
        rows = [m.step(w[k], _layouts(accel[k])[name], 0.01) for k in range(3)]
        assert np.array_equal(np.array([r[0] for r in rows]), ref[0][:3]), name
        assert np.array_equal(np.array([r[1] for r in rows]), ref[1][:3]), name
    # and one big-endian 1.0 reads as 1.0
    m = ImuNoise(seed=1)
    w, _ = m.step(np.array([1.0, 2.0, 3.0], ">f8"), np.zeros(3), 0.01)
    assert w.tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    "out, exc, word",
    [
        (np.zeros(3, ">f8"), TypeError, "native"),
        (np.zeros(25, np.uint8)[1:].view(np.float64), ValueError, "aligned"),
        (np.zeros(3, np.float32), TypeError, "float64"),
        (np.zeros(6)[::2], ValueError, "C-contiguous"),
        ([0.0, 0.0, 0.0], TypeError, "ndarray"),
    ],
    ids=["big-endian", "unaligned", "float32", "strided", "list"],
)
def test_bad_step_outputs_are_refused_by_name(out, exc, word):
    m = _full_model()
    before = m.state
    with pytest.raises(exc, match=word) as info:
        m.step(np.zeros(3), np.zeros(3), 0.01, out_omega=out)
    assert "out_omega" in str(info.value)
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out_accel is read-only"):
        m.step(np.zeros(3), np.zeros(3), 0.01, out_accel=ro)
    assert m.state == before


@pytest.mark.parametrize(
    "value",
    [
        np.array([True, False, True]),
        np.array([1 + 0j, 0, 0]),
        np.array(["a", "b", "c"]),
        np.array([0.0, None, 0.0], dtype=object),
        np.array(["2020-01-01"] * 3, dtype="datetime64[ns]"),
        [[0.0], 0.0, 0.0],
        "abc",
        [0.0, True, 0.0],
    ],
    ids=["bool", "complex", "str", "object", "datetime", "ragged", "string", "bool-entry"],
)
def test_non_real_inputs_are_refused_by_name(value):
    m = _full_model()
    before = m.state
    with pytest.raises((TypeError, ValueError), match="omega"):
        m.step(value, np.zeros(3), 0.01)
    rec = [value] * 4 if isinstance(value, list) else value
    if isinstance(value, np.ndarray):
        rec = np.broadcast_to(value, (4, 3))
    with pytest.raises((TypeError, ValueError), match="omega"):
        m.apply(rec, np.zeros((4, 3)), 0.01)
    assert m.state == before


@pytest.mark.parametrize(
    "dt",
    [np.timedelta64(1, "s"), np.datetime64("2020-01-01", "ns"), np.array([True]), 1 + 0j],
    ids=["timedelta", "datetime", "bool-array", "complex"],
)
def test_non_real_steps_are_refused_by_name(dt):
    m = _full_model()
    with pytest.raises(TypeError, match="dt"):
        m.step(np.zeros(3), np.zeros(3), dt)
    with pytest.raises((TypeError, ValueError), match="dt"):
        m.apply(np.zeros((1, 3)), np.zeros((1, 3)), dt)
    with pytest.raises(ValueError, match="dt has shape"):
        m.apply(np.zeros((2, 3)), np.zeros((2, 3)), np.zeros(0))


def test_counters_stop_at_the_end_instead_of_wrapping():
    m = _full_model()
    s = m.state
    s["position"]["sample_count"] = 2**64 - 2
    m.state = s
    m.step(np.zeros(3), np.zeros(3), 0.01)
    assert m.sample_count == 2**64 - 1
    before = m.state
    with pytest.raises(OverflowError, match="sample_count"):
        m.step(np.zeros(3), np.zeros(3), 0.01)
    with pytest.raises(OverflowError, match="sample_count"):
        m.apply(np.zeros((1, 3)), np.zeros((1, 3)), 0.01)
    assert m.state == before
    # a drawing stream near its end: the call that would pass it is refused whole
    m = _full_model()
    s = m.state
    s["position"]["stream_positions"][4][0] = 2**64 - 600  # accel y, white
    m.state = s
    before = m.state
    with pytest.raises(OverflowError, match=r"white stream of accel y.*\[4\]\[0\]"):
        m.apply(np.zeros((700, 3)), np.zeros((700, 3)), 0.01)
    assert m.state == before
    m.apply(np.zeros((599, 3)), np.zeros((599, 3)), 0.01)
    assert m.state["position"]["stream_positions"][4][0] == 2**64 - 1
    with pytest.raises(OverflowError, match="white stream of accel y"):
        m.step(np.zeros(3), np.zeros(3), 0.01)
    # a stream that draws nothing never runs out
    m = ImuNoise(gyro=dict(noise_stddev=0.1), seed=3)
    s = m.state
    s["position"]["stream_positions"][5][2] = 2**64 - 1  # accel z random walk: off
    m.state = s
    m.apply(np.zeros((10, 3)), np.zeros((10, 3)), 0.01)


def test_extreme_timestamps_are_refused_not_turned_into_an_infinite_step():
    m = ImuNoise(gyro=dict(noise_density=1e-3), seed=2)
    before = m.state
    with pytest.raises(ValueError, match=r"timestamps\[1\].*overflows"):
        m.apply(np.zeros((2, 3)), np.zeros((2, 3)), timestamps=[-1.7e308, 1.7e308])
    assert m.state == before
    m.apply(np.zeros((2, 3)), np.zeros((2, 3)), timestamps=[-1.7e308, -1.6e308])
    with pytest.raises(ValueError, match=r"timestamps\[0\].*previous call"):
        m.apply(np.zeros((1, 3)), np.zeros((1, 3)), timestamps=[1.7e308])
    # a huge but finite step is fine and finite
    w, _ = m.apply(np.zeros((2, 3)), np.zeros((2, 3)), timestamps=[0.0, 1e308])
    assert np.all(np.isfinite(w))


@pytest.mark.parametrize(
    "field, value",
    [
        ("noise_stddev", 1e155),
        ("noise_density", 1e155),
        ("bias", -1e151),
        ("turn_on_bias_mean", 1e200),
        ("turn_on_bias_stddev", 1e160),
        ("random_walk_density", 1e300),
        ("scale_factor", 1e151),
        ("misalignment", [[0, 1e151, 0], [0, 0, 0], [0, 0, 0]]),
        ("g_sensitivity", 1e151),
        ("full_scale", 1e151),
        ("full_scale", 1e-151),
        ("resolution", 1e-151),
        ("resolution", 1e151),
    ],
)
def test_parameter_bounds_keep_sigma_squared_finite(field, value):
    # noise_stddev 1e200 used to give sigma**2 = inf: inf/NaN measurements
    with pytest.raises(ValueError, match=field):
        TriadNoise(**{field: value})
    with pytest.raises(ValueError, match=field):
        ImuNoise(**{f"gyro_{field}": value})
    TriadNoise(
        gauss_markov_stddev=1e150, gauss_markov_correlation_time=1e-300
    )  # at the bounds: fine


def test_tiny_steps_use_the_scaled_sigma_or_are_refused_by_name():
    # density**2/dt overflows for dt = 5e-324, but sigma = N/sqrt(dt) does not
    m = ImuNoise(gyro=dict(noise_density=1e-3, noise_stddev=1.0), seed=4)
    w, _ = m.step(np.zeros(3), np.zeros(3), 5e-324)
    sigma = m.gyro.white_stddev(5e-324)
    assert np.all(np.isfinite(w)) and np.all(np.isfinite(sigma))
    assert sigma[0] == pytest.approx(1e-3 / math.sqrt(5e-324))
    assert np.all(np.abs(w) <= 6.7 * sigma)
    with pytest.raises(ValueError, match="dt"):
        m.angular_velocity_covariance(5e-324)  # the variance itself is beyond the doubles
    # a sigma past 1e300 is refused, naming dt, with nothing changed
    m = ImuNoise(gyro=dict(noise_density=1e150), seed=4)
    before = m.state
    with pytest.raises(ValueError, match=r"dt=1e-301 .*noise_density"):
        m.step(np.zeros(3), np.zeros(3), 1e-301)
    with pytest.raises(ValueError, match="dt=1e-301"):
        m.apply(np.zeros((3, 3)), np.zeros((3, 3)), np.array([0.01, 1e-301, 0.01]))
    assert m.state == before
    m.step(np.zeros(3), np.zeros(3), 1e-300)  # sigma exactly 1e300: the bound itself


def test_true_values_beyond_the_range_are_refused_and_finite_ones_give_finite_outputs():
    m = ImuNoise(gyro=dict(noise_stddev=1e150, scale_factor=0.5), seed=4)
    before = m.state
    with pytest.raises(ValueError, match=r"omega\[1\]=1e\+300"):
        m.step([0.0, 1e300, 0.0], [0.0, 0.0, 0.0], 0.01)
    rec = np.zeros((1000, 3))
    rec[777, 2] = -1.7e308
    with pytest.raises(ValueError, match=r"accel\[777, 2\]"):
        m.apply(np.zeros((1000, 3)), rec, 0.01)
    assert m.state == before
    w, a = m.step([6e299, -6e299, 1.0], [6e299, -6e299, 1.0], 0.01)
    assert np.all(np.isfinite(w)) and np.all(np.isfinite(a))
    w, _ = ImuNoise(gyro=dict(noise_stddev=1e150), seed=4).step([1e300, np.inf, np.nan], a, 0.01)
    assert np.isfinite(w[0]) and w[1] == np.inf and np.isnan(w[2])  # data rules kept
    # quantization of a huge value on a fine grid keeps it (y / lsb overflows)
    q = ImuNoise(gyro=dict(resolution=1e-150), seed=1)
    w, _ = q.step([1e300, -1e300, 0.25], [0.0, 0.0, 0.0], 0.01)
    assert w.tolist() == [1e300, -1e300, 0.25]


def test_bias_states_stay_within_their_range():
    m = ImuNoise(gyro=dict(random_walk_density=[0.0, 1e150, 0.0]), seed=4)
    s = m.state
    s["position"]["random_walk"][0][1] = 9.9e299
    m.state = s
    before = m.state
    with pytest.raises(OverflowError, match=r"random-walk bias of gyro y"):
        m.step(np.zeros(3), np.zeros(3), 1e298)  # a step of up to 8 * 1e150 * 1e149
    with pytest.raises(OverflowError, match=r"random-walk bias of gyro y"):
        m.apply(np.zeros((2, 3)), np.zeros((2, 3)), np.array([1.0, 1e298]))
    assert m.state == before
    w, _ = m.step(np.zeros(3), np.zeros(3), 1.0)
    assert np.all(np.isfinite(w))
    s["position"]["gauss_markov"][1][0] = -1.5e300
    with pytest.raises(ValueError, match=r"\['gauss_markov'\]\[1\]\[0\]"):
        m.state = s


def _race(target, nthreads=4):
    barrier = threading.Barrier(nthreads)
    results = [None] * nthreads
    errors = []

    def run(i):
        try:
            barrier.wait()
            results[i] = target(i)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(nthreads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return results


def _rows(*arrays):
    return sorted(map(tuple, np.concatenate(arrays).tolist()))


def _busy_imu():
    """Every term drawing, nothing quantized: any repeated or skipped noise shows."""
    return ImuNoise(
        gyro=dict(
            noise_stddev=1.0,
            gauss_markov_stddev=0.5,
            gauss_markov_correlation_time=1.0,
            random_walk_density=0.1,
        ),
        accel=dict(noise_density=0.1, random_walk_density=0.2),
        seed=11,
    )


def test_threads_sharing_one_imu_get_the_calls_of_one_thread():
    # 4 threads, each 12 apply calls of the same 3000 zero rows at the same step: the
    # 48 results must be exactly the 48 blocks of one single-threaded run, in some
    # order. Before the fix apply read and advanced the stream positions with the GIL
    # released, so concurrent calls took interleaved chunks (or the same ones).
    n, calls = 20000, 6
    zeros = np.zeros((n, 3))
    shared = _busy_imu()

    def work(i):
        return [np.concatenate(shared.apply(zeros, zeros, 0.01)).tobytes() for _ in range(calls)]

    got = [block for blocks in _race(work) for block in blocks]
    single = _busy_imu()
    want = [np.concatenate(single.apply(zeros, zeros, 0.01)).tobytes() for _ in range(4 * calls)]
    assert sorted(got) == sorted(want)
    assert shared.state == single.state


def test_threads_mixing_step_and_apply_share_every_sample_once():
    # the same inputs and step for every sample, so sample k has one value whichever
    # call draws it: together the rows are exactly those of one single-threaded run,
    # and each apply's rows are one contiguous block of it (no step slipped into an
    # apply whose kernel runs with the GIL released)
    n, zeros = 20000, np.zeros((20000, 3))
    shared = _busy_imu()

    def work(i):
        blocks, singles = [], []
        for _ in range(4):
            if i % 2:
                singles += [
                    np.concatenate(shared.step(zeros[0], zeros[0], 0.01)) for _ in range(1000)
                ]
            else:
                blocks.append(np.hstack(shared.apply(zeros, zeros, 0.01)))
        return blocks, singles

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # the step threads take turns with everything
    try:
        got = _race(work)
    finally:
        sys.setswitchinterval(interval)
    blocks = [b for g in got for b in g[0]]
    singles = [r for g in got for r in g[1]]
    total = n * len(blocks) + len(singles)
    ref = np.hstack(_busy_imu().apply(np.zeros((total, 3)), np.zeros((total, 3)), 0.01))
    assert shared.sample_count == total
    assert _rows(*blocks, np.array(singles).reshape(-1, 6)) == _rows(ref)
    index = {row.tobytes(): k for k, row in enumerate(ref)}
    for b in blocks:
        k = index[b[0].tobytes()]
        assert np.array_equal(ref[k : k + n], b)


def test_a_triad_noise_cannot_be_tampered_past_its_checks():
    # a frozen dataclass restored without __post_init__ (pickle's default form, or
    # object.__new__ and object.__setattr__) used to reach the C fill with short lists
    bad = TriadNoise().to_dict()
    bad["noise_stddev"] = [0.1]
    payload = pickle.dumps(_NewObj(TriadNoise, bad))
    with pytest.raises((TypeError, ValueError), match="noise_stddev"):
        pickle.loads(payload)
    t = object.__new__(TriadNoise)
    for k, v in bad.items():
        object.__setattr__(t, k, v)
    with pytest.raises((TypeError, ValueError), match="noise_stddev"):
        ImuNoise(gyro=t)
    half = object.__new__(TriadNoise)  # no fields of its own: the class defaults
    assert ImuNoise(gyro=half).gyro == TriadNoise()
    # and a hand-made ImuNoise pickle that carries such a TriadNoise in its state
    from fastnoise.core.model import _restore

    state = _full_model().state
    state["params"]["gyro"] = _NewObj(TriadNoise, bad)
    with pytest.raises((TypeError, ValueError), match="noise_stddev"):
        pickle.loads(pickle.dumps(_Reduce(_restore, (ImuNoise, state, {}))))
    state["params"]["gyro"] = t
    with pytest.raises((TypeError, ValueError), match="noise_stddev"):
        ImuNoise.from_state(state)
    # a short list in the position part of a pickled state
    state = _full_model().state
    state["position"]["gauss_markov"][1] = [0.0]
    with pytest.raises(ValueError, match="gauss_markov"):
        pickle.loads(pickle.dumps(_Reduce(_restore, (ImuNoise, state, {}))))
    # a TriadNoise's own pickle and copies still round-trip
    g, _ = wt901c()
    assert pickle.loads(pickle.dumps(g)) == g and copy.copy(g) == g


class _NewObj:
    """Pickles as cls.__new__(cls) plus a state dict (a dataclass's default form)."""

    def __init__(self, cls, state):
        self.cls, self.state = cls, state

    def __reduce__(self):
        return (copyreg._reconstructor, (self.cls, object, None), self.state)


class _Reduce:
    """Pickles as any call."""

    def __init__(self, func, args):
        self.func, self.args = func, args

    def __reduce__(self):
        return (self.func, self.args)


def test_apply_returns_imu_samples_that_unpack_as_the_old_tuple():
    # a whole-array call with several outputs returns a NamedTuple (docs/conventions.rst,
    # rule 9); step, a per-sample call, keeps its plain tuple
    from fastnoise.models.imu import ImuSamples

    w = np.tile([0.1, -0.2, 0.3], (6, 1))
    a = np.tile([0.0, 0.1, 9.81], (6, 1))
    res = ImuNoise({"noise_stddev": 0.01}, {"noise_stddev": 0.02}, seed=5).apply(w, a, 0.01)
    assert type(res) is ImuSamples and res._fields == ("omega", "accel")
    omega, accel = res
    assert omega is res.omega is res[0] and accel is res.accel is res[1]
    steps = ImuNoise({"noise_stddev": 0.01}, {"noise_stddev": 0.02}, seed=5)
    one = steps.step(w[0], a[0], 0.01)
    assert type(one) is tuple
    np.testing.assert_array_equal(one[0], omega[0])
