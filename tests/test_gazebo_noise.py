"""GazeboNoise and the csrc/gznoise.h kernel: gz-sensors' GaussianNoiseModel semantics.

Ported peer tests are from gazebosim/gz-sensors, src/Noise_TEST.cc at commit
9ba02f24108e57666d326e22317443034eb860f8 (its sample size 100, its 5-sigma bounds and
its parameter sets); the semantics they check are those of src/GaussianNoiseModel.cc
(Load, ApplyImpl) at the same commit.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_philox import philox_ref

import fastnoise as fn
from fastnoise.core import simd
from fastnoise.core.generator import fill_normals
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.models.gazebo.noise import _expm1

GZ_TAG = 0x475A4E0000000000
WHITE, DYNAMIC, BIAS, SIGN = 0, 1, 2, 3

# Noise_TEST.cc: g_applyCount = 100, g_sigma = 5.0
APPLY_COUNT = 100
SIGMA = 5.0


def _normals(key, stream, n):
    z = np.empty(n)
    fill_normals(key, stream, 0, z)
    return z


# ---- exact values from the stream layout (independent of the kernel) -----------------


def test_turn_on_bias_is_normal_0_of_the_bias_stream_signed_by_the_sign_word():
    for seed in range(40):
        m = fn.GazeboNoise(bias_mean=2.0, bias_stddev=0.5, seed=seed)
        key = model_key(as_seed_sequence(seed), "gazebo_noise")
        z = _normals(key, GZ_TAG | BIAS, 1)[0]
        stream = GZ_TAG | SIGN
        w = philox_ref((0, 0, stream & 0xFFFFFFFF, stream >> 32), (key & 0xFFFFFFFF, key >> 32))[0]
        b = 2.0 + 0.5 * z
        expect = -b if w / 2**32 < 0.5 else b
        assert m.bias == pytest.approx(expect, rel=1e-15, abs=0)
        assert m.key == key


def test_white_noise_of_sample_k_is_normal_k_of_the_white_stream():
    m = fn.GazeboNoise(mean=0.25, stddev=3.0, bias_mean=1.5, seed=9)
    z = _normals(m.key, GZ_TAG | WHITE, 50)
    x = np.linspace(-5, 5, 50)
    got = m.apply(x)
    expect = (x + m.bias) + (0.25 + 3.0 * z)
    np.testing.assert_allclose(got, expect, rtol=0, atol=1e-14)
    assert abs(m.bias) == 1.5  # bias_stddev 0: exactly bias_mean, maybe negated


def test_dynamic_bias_step_follows_the_formula_with_normal_k_of_the_dynamic_stream():
    sd, tau, dt = 0.4, 2.5, 0.3
    m = fn.GazeboNoise(
        bias_mean=1.0, dynamic_bias_stddev=sd, dynamic_bias_correlation_time=tau, seed=4
    )
    zd = _normals(m.key, GZ_TAG | DYNAMIC, 5)
    b = m.bias
    for k in range(5):
        out = m.apply_one(0.0, dt)
        b = (
            math.exp(-dt / tau) * b
            + math.sqrt(-sd * sd * tau / 2 * math.expm1(-2 * dt / tau)) * zd[k]
        )
        assert out == pytest.approx(b, rel=1e-14)
        assert m.bias == out


def test_no_dynamic_bias_without_dt_tau_or_sigma():
    for kw, dt in (
        ({"dynamic_bias_stddev": 1.0, "dynamic_bias_correlation_time": 1.0}, 0.0),
        ({"dynamic_bias_stddev": 1.0, "dynamic_bias_correlation_time": 0.0}, 0.5),
        ({"dynamic_bias_stddev": 0.0, "dynamic_bias_correlation_time": 1.0}, 0.5),
    ):
        m = fn.GazeboNoise(bias_mean=0.7, **kw, seed=1)
        b = m.bias
        assert np.all(m.apply(np.zeros(20), dt) == b)
        assert m.bias == b


# ---- gz-sensors Noise_TEST.cc, ported ------------------------------------------------


def _check_gaussian(m, count=APPLY_COUNT):
    """Noise_TEST.cc GaussianNoise(): constant input 42, `count` samples; the sample
    mean within 5 sigma/sqrt(count) of 42 + Mean() + Bias(), the (population) sample
    variance within 5 sqrt(2 sigma^4 / (count - 1)) of sigma^2."""
    x = 42.0
    values = np.array([m.apply_one(x) for _ in range(count)])
    mean_values = values.mean()
    variance_values = np.mean((values - mean_values) ** 2)
    assert abs(mean_values - (x + m.mean + m.bias)) <= SIGMA * m.stddev / math.sqrt(count)
    variance = m.stddev**2
    assert abs(variance_values - variance) <= SIGMA * math.sqrt(2 * variance**2 / (count - 1))


@pytest.mark.parametrize("precision", [0.0, 1e-7])  # "gaussian" and "gaussian_quantized"
def test_noise_test_zero_parameters_are_no_noise(precision):
    # Noise_TEST.cc ApplyGaussian / ApplyGaussianQuantized, first case, via NoNoise():
    # 100 uniform inputs in [-1e6, 1e6] come back within 1e-6 (here: exactly).
    m = fn.GazeboNoise(precision=precision, seed=0)
    x = np.random.default_rng(0).uniform(-1e6, 1e6, APPLY_COUNT)
    assert np.array_equal([m.apply_one(float(v)) for v in x], x)
    np.testing.assert_allclose(m.apply(x), x, rtol=0, atol=1e-6)


@pytest.mark.parametrize("seed", range(10))
def test_noise_test_mean_and_stddev_without_bias(seed):
    # Noise_TEST.cc: mean 10, stddev 5, bias 0/0: Bias() within 1e-6 of 0, GaussianNoise()
    m = fn.GazeboNoise(mean=10.0, stddev=5.0, seed=seed)
    assert abs(m.bias) <= 1e-6
    _check_gaussian(m)


@pytest.mark.parametrize("seed", range(10))
def test_noise_test_mean_stddev_and_exact_bias(seed):
    # Noise_TEST.cc: mean 10, stddev 5, bias_mean 100, bias_stddev 0
    m = fn.GazeboNoise(mean=10.0, stddev=5.0, bias_mean=100.0, seed=seed)
    assert abs(m.bias) == 100.0
    _check_gaussian(m)


@pytest.mark.parametrize("block", range(5))
def test_noise_test_bias_generation(block):
    # Noise_TEST.cc "Test bias generation": 100 models with bias_stddev 5, mean and
    # stddev 0; the biases' mean within 5 * 5 / sqrt(100) of 0, their population
    # variance within 5 sqrt(2 * 25^2 / 99) of 25.
    bias_stddev = 5.0
    b = np.array(
        [
            fn.GazeboNoise(bias_stddev=bias_stddev, seed=1000 * block + i).bias
            for i in range(APPLY_COUNT)
        ]
    )
    assert abs(b.mean()) <= SIGMA * bias_stddev / math.sqrt(APPLY_COUNT)
    var = np.mean((b - b.mean()) ** 2)
    v = bias_stddev**2
    assert abs(var - v) <= SIGMA * math.sqrt(2 * v * v / (APPLY_COUNT - 1))


@pytest.mark.parametrize(
    "x, expect",
    [
        (0.32, 0.3),
        (0.31, 0.3),
        (0.30, 0.3),
        (0.29, 0.3),
        (0.28, 0.3),
        (-12.92, -12.9),
        (-12.91, -12.9),
        (-12.90, -12.9),
        (-12.89, -12.9),
        (-12.88, -12.9),
    ],
)
def test_noise_test_precision(x, expect):
    # Noise_TEST.cc ApplyGaussianQuantized "Test precision": precision 0.3, no noise
    m = fn.GazeboNoise(precision=0.3, seed=0)
    assert abs(m.apply_one(x) - expect) <= 1e-6


# ---- rounding, exact ---------------------------------------------------------------------


def test_rounding_is_half_away_from_zero_exactly():
    m = fn.GazeboNoise(precision=0.5, seed=0)
    assert m.apply_one(0.25) == 0.5
    assert m.apply_one(-0.25) == -0.5
    assert m.apply_one(0.75) == 1.0
    assert m.apply_one(-0.75) == -1.0
    assert m.apply_one(0.2) == 0.0
    assert list(m.apply(np.array([0.25, -0.25, 1.25]))) == [0.5, -0.5, 1.5]


def test_quantization_only_above_1e_minus_6():
    # gz: quantized when !math::equal(precision, 0, 1e-6), i.e. precision > 1e-6
    x = 0.12345678912345
    assert fn.GazeboNoise(precision=1e-6, seed=0).apply_one(x) == x
    assert fn.GazeboNoise(precision=4e-6, seed=0).apply_one(x) == round(x / 4e-6) * 4e-6


def test_negative_precision_is_refused_by_name():
    with pytest.raises(ValueError, match="precision"):
        fn.GazeboNoise(precision=-0.1)


# ---- statistics --------------------------------------------------------------------------


def test_bias_sign_flip_frequency():
    # the sign uniform < 0.5 negates: with 4000 seeds the negated fraction lies within
    # 5 sigma = 5 sqrt(0.25 / 4000) = 0.040 of 1/2
    neg = np.mean([fn.GazeboNoise(bias_mean=1.0, seed=s).bias < 0 for s in range(4000)])
    assert abs(neg - 0.5) <= 0.040


def test_dynamic_bias_stationary_variance_and_correlation():
    # stationary std sigma_d sqrt(tau / 2) and lag-1 correlation e^(-dt/tau); 10**6
    # samples of an AR(1) with phi = e^(-0.1): the variance estimate's relative std
    # is about sqrt(2 (1 + phi^2) / (N (1 - phi^2))) = 0.45 %, so 5 sigma = 2.3 %
    sd, tau, dt, n = 0.2, 1.0, 0.1, 10**6
    m = fn.GazeboNoise(dynamic_bias_stddev=sd, dynamic_bias_correlation_time=tau, seed=3)
    m.apply(np.zeros(1000), dt)  # forget the start (100 tau)
    b = m.apply(np.zeros(n), dt)
    stationary = sd**2 * tau / 2
    assert b.var() == pytest.approx(stationary, rel=0.023)
    phi = math.exp(-dt / tau)
    r1 = np.mean((b[1:] - b.mean()) * (b[:-1] - b.mean())) / b.var()
    # the lag-1 estimate's std is about sqrt((1 - phi^2) / N_eff) < 0.003 here
    assert r1 == pytest.approx(phi, abs=0.015)


def test_expm1_series_matches_math_expm1():
    xs = -np.concatenate([np.logspace(-300, 2, 2000), [0.0, 0.4999999, 0.5, 0.5000001]])
    for x in xs:
        got, ref = _expm1(float(x)), math.expm1(float(x))
        assert got == pytest.approx(ref, rel=4e-16, abs=0) or got == ref


# ---- reproducibility and position --------------------------------------------------------


def _busy(seed=7):
    return fn.GazeboNoise(0.1, 0.5, 1.0, 0.2, 0.3, 2.0, 0.001, seed=seed)


def test_batch_equals_per_sample_and_chunks_bit_for_bit():
    x = np.linspace(-3, 3, 300)
    dt = np.random.default_rng(1).uniform(0, 0.2, 300)
    dt[::7] = 0.0
    a = _busy()
    one = np.array([a.apply_one(float(v), float(d)) for v, d in zip(x, dt, strict=True)])
    b = _busy()
    whole = b.apply(x, dt)
    c = _busy()
    parts = np.concatenate([c.apply(x[:37], dt[:37]), c.apply(x[37:], dt[37:])])
    assert one.tobytes() == whole.tobytes() == parts.tobytes()
    assert a.state == b.state == c.state
    assert a.count == 300


def test_same_bits_on_every_simd_path():
    x = np.linspace(-3, 3, 1000)
    start = simd.simd_path()
    outs = []
    try:
        for p in simd.simd_paths_available():
            simd.set_simd_path(p)
            outs.append(_busy().apply(x, 0.01).tobytes())
    finally:
        simd.set_simd_path(start)
    assert len(set(outs)) == 1


def test_position_is_count_and_bias_and_round_trips():
    m = _busy()
    m.apply(np.zeros(10), 0.1)
    st = m.state
    assert st["position"] == {"count": 10, "bias": m.bias}
    nxt = m.apply(np.zeros(5), 0.1)
    r = fn.GazeboNoise.from_state(st)
    assert r.apply(np.zeros(5), 0.1).tobytes() == nxt.tobytes()
    m.reset()
    assert m.count == 0 and m.bias == _busy().bias


def test_inputs_are_not_modified_and_out_in_place():
    x = np.linspace(0, 1, 20)
    keep = x.copy()
    y = _busy().apply(x, 0.1)
    assert np.array_equal(x, keep)
    z = _busy().apply(x, 0.1, out=x)
    assert z is x and x.tobytes() == y.tobytes()


@pytest.mark.parametrize(
    "kw, word",
    [
        ({"stddev": -1.0}, "stddev"),
        ({"mean": math.nan}, "mean"),
        # a negative correlation time is accepted (no dynamic bias), as gz-sensors:
        # tests/test_gazebo_exact.py; a non-finite one is not
        ({"dynamic_bias_correlation_time": math.inf}, "dynamic_bias_correlation_time"),
        ({"bias_stddev": "x"}, "bias_stddev"),
    ],
)
def test_bad_parameters_are_refused_by_name(kw, word):
    with pytest.raises((ValueError, TypeError), match=word):
        fn.GazeboNoise(**kw)


def test_bad_dt_is_refused_by_name():
    m = _busy()
    for bad in (-0.1, math.inf, math.nan, "x"):
        with pytest.raises((ValueError, TypeError), match="dt"):
            m.apply_one(1.0, bad)
    with pytest.raises(ValueError, match="dt"):
        m.apply(np.zeros(3), np.array([0.1, -1.0, 0.1]))
    with pytest.raises(ValueError, match="dt"):
        m.apply(np.zeros(3), np.zeros(4))
    assert m.count == 0


def test_count_past_the_end_is_refused():
    m = _busy()
    st = m.state
    st["position"]["count"] = 2**64 - 2
    m.state = st
    m.apply_one(0.0)
    with pytest.raises(OverflowError):
        m.apply_one(0.0)
    with pytest.raises(OverflowError):
        m.apply(np.zeros(2))
    assert m.count == 2**64 - 1
    st["position"]["count"] = 2**64 - 4
    m.state = st
    m.apply(np.zeros(3))  # a run may end exactly at the last sample
    assert m.count == 2**64 - 1
