"""fastnoise.analysis: the overlapping Allan deviation against allantools (the maintained
library), Greenhall's EDF and the chi-square intervals against allantools, the
chi-square quantiles against scipy, and the theory of fastnoise.analysis.theory against
closed forms and long ImuNoise simulations (fixed seeds, tolerances from the EDF).

Long statistical cases are marked slow and run with FASTNOISE_SLOW=1."""

from __future__ import annotations

import decimal
import math
import os

import numpy as np
import pytest

from fastnoise.analysis import _stats
from fastnoise.analysis.allan import (
    ONE_SIGMA_CI,
    confidence_interval,
    edf_greenhall,
    noise_type_from_slope,
    oadev,
    tau_grid,
)
from fastnoise.analysis.theory import (
    BIAS_INSTABILITY_FACTOR,
    allan_deviation,
    allan_deviation_terms,
    allan_variance_terms,
    axis_parameters,
    bias_instability,
    gauss_markov_avar,
    power_spectral_density,
    power_spectral_density_terms,
)
from fastnoise.models.imu.imu_noise import ImuNoise
from fastnoise.models.imu.triad import TriadNoise

allantools = pytest.importorskip("allantools")

slow = pytest.mark.slow
needs_slow = pytest.mark.skipif(
    os.environ.get("FASTNOISE_SLOW") != "1", reason="long statistical case: FASTNOISE_SLOW=1"
)

RTOL = 1e-9  # the agreement the issue asks for
FS = 100.0
DT = 1.0 / FS


def _signals(n: int, seed: int) -> dict[str, np.ndarray]:
    """Random and structured rate signals (U), n samples each."""
    rng = np.random.default_rng(seed)
    t = np.arange(n) * DT
    return {
        "white": rng.normal(0.0, 0.3, n),
        "random_walk": np.cumsum(rng.normal(0.0, 0.01, n)),
        "offset": 1e3 + rng.normal(0.0, 1e-3, n),  # a large mean, small fluctuations
        "sine": np.sin(2 * np.pi * 0.37 * t) + rng.normal(0.0, 0.05, n),
        "ramp": 1e-3 * t + rng.normal(0.0, 0.1, n),
        "steps": np.repeat(rng.normal(0.0, 1.0, n // 50 + 1), 50)[:n],
        "integers": rng.integers(-1000, 1000, n).astype(np.float64),
    }


def _max_rel(a: np.ndarray, b: np.ndarray) -> float:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return float(np.max(np.abs(a - b) / np.abs(b)))


# ---- the deviation against allantools -------------------------------------------------------
@pytest.mark.parametrize("grid", ["octave", "decade", "log10"])
@pytest.mark.parametrize("seed", [1, 2])
def test_oadev_matches_allantools_on_its_tau_grids(grid, seed):
    worst = 0.0
    for name, y in _signals(50_000 + 17 * seed, seed).items():
        res = oadev(y, FS, grid, alpha=None)
        t, dev, _, ns = allantools.oadev(y, rate=FS, data_type="freq", taus=grid)
        np.testing.assert_array_equal(res.tau, t, err_msg=name)
        np.testing.assert_array_equal(res.n_terms, ns, err_msg=name)
        worst = max(worst, _max_rel(res.adev, dev))
    assert worst <= RTOL


def test_oadev_matches_allantools_on_every_tau_and_explicit_taus():
    rng = np.random.default_rng(3)
    y = rng.normal(2.0, 1.0, 777)
    res = oadev(y, 10.0, "all", alpha=None)
    t, dev, _, _ = allantools.oadev(y, rate=10.0, data_type="freq", taus="all")
    np.testing.assert_array_equal(res.tau, t)
    assert _max_rel(res.adev, dev) <= RTOL
    # explicit taus, some off the sample grid (rounded to whole samples), unsorted, repeated
    taus = [0.1, 0.25, 1.0, 0.3, 7.77, 1.0, 30.0]
    res = oadev(y, 10.0, taus, alpha=None)
    t, dev, _, _ = allantools.oadev(y, rate=10.0, data_type="freq", taus=taus)
    np.testing.assert_array_equal(res.tau, t)
    assert _max_rel(res.adev, dev) <= RTOL


def test_oadev_long_log_matches_allantools():
    """10^6 samples: the blocked sums stay as accurate as allantools' pairwise sum."""
    rng = np.random.default_rng(4)
    y = 5.0 + rng.normal(0.0, 1e-2, 1_000_000) + np.cumsum(rng.normal(0.0, 1e-5, 1_000_000))
    res = oadev(y, FS, "octave", alpha=None)
    _, dev, _, _ = allantools.oadev(y, rate=FS, data_type="freq", taus="octave")
    assert _max_rel(res.adev, dev) <= RTOL


def test_oadev_columns_are_independent_and_dtypes_convert():
    rng = np.random.default_rng(5)
    y = rng.normal(0.0, 1.0, (4000, 4))
    two_d = oadev(y, FS, alpha=None)
    for c in range(4):
        one = oadev(np.ascontiguousarray(y[:, c]), FS, alpha=None)
        np.testing.assert_array_equal(two_d.adev[:, c], one.adev)
    # a strided view, a Fortran array, float32 and int inputs
    np.testing.assert_array_equal(oadev(np.asfortranarray(y), FS, alpha=None).adev, two_d.adev)
    np.testing.assert_array_equal(
        oadev(y[::2], FS, alpha=None).adev, oadev(y[::2].copy(), FS, alpha=None).adev
    )
    y32 = y.astype(np.float32)
    np.testing.assert_array_equal(
        oadev(y32, FS, alpha=None).adev, oadev(y32.astype(np.float64), FS, alpha=None).adev
    )
    yi = np.round(y * 100).astype(np.int32)
    _, dev, _, _ = allantools.oadev(yi[:, 0].astype(float), rate=FS, data_type="freq")
    assert _max_rel(oadev(yi, FS, alpha=None).adev[:, 0], dev) <= RTOL


def test_oadev_threads_give_the_same_bits():
    y = np.random.default_rng(6).normal(0.0, 1.0, (20_000, 6))
    a = oadev(y, FS, threads=1, alpha=None).adev
    b = oadev(y, FS, threads=4, alpha=None).adev
    np.testing.assert_array_equal(a, b)


def test_oadev_leaves_the_input_alone():
    y = np.random.default_rng(7).normal(0.0, 1.0, (5000, 3))
    y.flags.writeable = False  # a read-only input works and stays as it was
    before = y.copy()
    oadev(y, FS)
    np.testing.assert_array_equal(y, before)


def test_oadev_constant_data_is_zero():
    res = oadev(np.full(1000, 3.25), FS)
    assert np.all(res.adev == 0.0)


# ---- validation -----------------------------------------------------------------------------
@pytest.mark.parametrize("rate", [0.0, -1.0, math.inf, math.nan])
def test_rate_must_be_finite_and_positive(rate):
    with pytest.raises(ValueError, match="rate"):
        oadev(np.zeros(100), rate)


def test_rate_must_be_a_number():
    with pytest.raises(TypeError, match="rate"):
        oadev(np.zeros(100), "100")


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_samples_are_named(bad):
    y = np.zeros((100, 3))
    y[41, 2] = bad
    with pytest.raises(ValueError, match=r"data\[41, 2\]"):
        oadev(y, FS)
    y1 = np.zeros(100)
    y1[7] = bad
    with pytest.raises(ValueError, match=r"data\[7\]"):
        oadev(y1, FS)


def test_overflowing_cumulative_sum_is_refused():
    y = np.full(100, 1e307)
    y[::2] = -1e307
    y[0] = 1.7e308
    y[1] = 1.7e308
    with pytest.raises(ValueError, match="data"):
        oadev(y, FS)


@pytest.mark.parametrize(
    ("data", "kind", "match"),
    [
        (np.zeros(15), ValueError, "at least 16"),
        (np.zeros((2, 3, 4)), ValueError, "1-D"),
        (np.zeros((100, 0)), ValueError, "column"),
        (np.zeros(100, dtype=bool), TypeError, "dtype"),
        (np.zeros(100, dtype=complex), TypeError, "dtype"),
        ("1,2,3", TypeError, "data"),
        (None, TypeError, "data"),
    ],
)
def test_bad_data_is_refused(data, kind, match):
    with pytest.raises(kind, match=match):
        oadev(data, FS)


@pytest.mark.parametrize(
    ("taus", "match"),
    [("weekly", "taus"), ([], "taus"), ([-1.0], "taus"), ([math.nan], "taus"), ([1e9], "taus")],
)
def test_bad_taus_are_refused(taus, match):
    with pytest.raises(ValueError, match=match):
        oadev(np.zeros(1000), FS, taus)


def test_bad_alpha_and_ci_are_refused():
    y = np.random.default_rng(0).normal(size=1000)
    with pytest.raises(ValueError, match="alpha"):
        oadev(y, FS, alpha=5)
    with pytest.raises(ValueError, match="alpha"):
        oadev(y, FS, alpha="guess")
    with pytest.raises(TypeError, match="alpha"):
        oadev(y, FS, alpha=[0.5])
    with pytest.raises(ValueError, match="ci"):
        oadev(y, FS, ci=1.0)
    with pytest.raises(ValueError, match="threads"):
        oadev(y, FS, threads=0)


def test_tau_grid_is_allantools_tau_generator():
    for n in (16, 100, 1023, 1024, 99_999):
        for grid in ("octave", "decade", "log10"):
            m, tau = tau_grid(n, FS, grid)
            phase = np.zeros(n + 1)
            _, m_ref, tau_ref = allantools.tau_generator(phase, FS, grid)
            keep = n + 1 - 2 * m_ref > 1
            np.testing.assert_array_equal(m, m_ref[keep])
            np.testing.assert_array_equal(tau, tau_ref[keep])


# ---- EDF and intervals ----------------------------------------------------------------------
@pytest.mark.parametrize("alpha", [2, 1, 0, -1, -2])
def test_edf_matches_allantools(alpha):
    worst = 0.0
    n = 100_001
    for m in (1, 2, 3, 7, 20, 33, 34, 50, 100, 512, 5000, 16_666, 24_000, 33_000, 49_999):
        if alpha == 2 and math.ceil((n - 2 * m) / m) <= 2:
            continue
        ours = edf_greenhall(alpha, m, n)
        ref = allantools.edf_greenhall(alpha, 2, m, n, overlapping=True, modified=False)
        worst = max(worst, abs(ours / ref - 1.0))
    assert worst <= 1e-10


def test_edf_is_refused_outside_its_domain():
    with pytest.raises(ValueError, match="alpha"):
        edf_greenhall(-3, 4, 1000)
    with pytest.raises(ValueError, match="n_phase"):
        edf_greenhall(0, 500, 1000)
    with pytest.raises(ValueError, match="alpha=2"):
        edf_greenhall(2, 300, 1000)


@pytest.mark.parametrize("ci", [ONE_SIGMA_CI, 0.9, 0.95, 0.99])
def test_confidence_interval_matches_allantools(ci):
    worst = 0.0
    for edf in (0.3, 1.0, 1.7, 4.0, 11.5, 150.0, 3999.0, 4001.0, 2.5e4, 3e5, 1.3e7):
        lo, hi = confidence_interval(0.0123, edf, ci)
        ref_lo, ref_hi = allantools.confidence_interval(0.0123, edf, ci)
        worst = max(worst, abs(float(lo) / ref_lo - 1), abs(float(hi) / ref_hi - 1))
    assert worst <= 1e-9


def test_oadev_intervals_match_allantools_for_the_same_noise_type():
    y = np.random.default_rng(8).normal(0.0, 0.1, 30_000)
    res = oadev(y, FS, alpha=0, ci=0.9)
    for j, m in enumerate(res.m):
        edf = allantools.edf_greenhall(0, 2, int(m), y.size + 1, overlapping=True)
        lo, hi = allantools.confidence_interval(res.adev[j], edf, 0.9)
        assert res.edf[j] == pytest.approx(edf, rel=1e-10)
        assert res.low[j] == pytest.approx(lo, rel=1e-9)
        assert res.high[j] == pytest.approx(hi, rel=1e-9)


def test_chi2_quantiles_match_scipy():
    stats = pytest.importorskip("scipy.stats")
    worst = 0.0
    for nu in (0.05, 0.3, 1.0, 2.0, 3.5, 10.0, 55.5, 300.0, 3999.0, 4001.0, 1e4, 3e5, 1e7, 1e12):
        for p in (5e-4, 0.025, 0.15865525393145707, 0.5, 0.8413447460685429, 0.975, 0.9995):
            worst = max(worst, abs(_stats.chi2_ppf(p, nu) / stats.chi2.ppf(p, nu) - 1.0))
    assert worst <= 1e-11


def test_noise_type_from_slope_reads_the_power_laws():
    tau = np.geomspace(0.01, 100.0, 9)
    assert np.all(noise_type_from_slope(1.0 / tau, tau) == 0)  # white rate noise
    assert np.all(noise_type_from_slope(np.ones(9), tau) == -1)  # flicker
    assert np.all(noise_type_from_slope(tau, tau) == -2)  # random walk


# ---- theory: closed forms -------------------------------------------------------------------
def _zhang(m: int, var: float, tau_c: float, dt: float) -> float:
    """Zhang's AR(1) formula in 60-digit decimal arithmetic."""
    decimal.getcontext().prec = 60
    d = decimal.Decimal
    phi = (d(-dt) / d(tau_c)).exp()
    mm = d(m)
    num = mm - 3 * phi - mm * phi**2 + 4 * phi ** (m + 1) - phi ** (2 * m + 1)
    return float(d(var) * num / (mm * mm * (1 - phi) ** 2))


def test_white_noise_is_sigma_over_sqrt_m_exactly():
    g = TriadNoise(noise_stddev=(0.01, 0.02, 0.0), noise_density=(1e-3, 0.0, 2e-3))
    m = np.array([1, 2, 3, 10, 1000, 123_456])
    adev = allan_deviation(g, m * DT, DT)
    sigma = np.sqrt(np.square([0.01, 0.02, 0.0]) + np.square([1e-3, 0.0, 2e-3]) / DT)
    np.testing.assert_allclose(adev, sigma[None, :] / np.sqrt(m)[:, None], rtol=1e-15)
    # a density N reads N at tau = 1 s (IEEE 952)
    assert allan_deviation(TriadNoise(noise_density=1e-3), 1.0, DT)[0, 0] == pytest.approx(
        1e-3, rel=1e-14
    )


def test_random_walk_is_zhangs_formula():
    k = 2e-5
    m = np.array([1.0, 2.0, 5.0, 300.0, 1e6])
    avar = allan_variance_terms(TriadNoise(random_walk_density=k), m * DT, DT)["random_walk"]
    np.testing.assert_allclose(avar[:, 1], (2 * m * m + 1) * k * k * DT / (6 * m), rtol=1e-15)
    # K is read at tau = 3 s, up to the discrete 1 + 1/(2 m^2)
    assert math.sqrt(avar[-1, 0] * 3.0 / (m[-1] * DT)) == pytest.approx(k, rel=1e-12)


@pytest.mark.parametrize("tau_c", [1e-3, 0.01, 0.05, 1.0, 400.0, 1e6])
def test_gauss_markov_is_zhangs_ar1_formula_for_every_phi(tau_c):
    for m in (1, 2, 3, 10, 77, 1000, 12_345, 10**6):
        ours = gauss_markov_avar(np.array([float(m)]), 2.5e-3, tau_c, DT)[0]
        assert ours == pytest.approx(_zhang(m, 2.5e-3, tau_c, DT), rel=1e-13)


def test_gauss_markov_limits():
    sb, tc = 1e-3, 50.0
    phi = math.exp(-DT / tc)
    q2 = sb * sb * (1 - phi * phi)
    # tau << tau_c: a random walk of per-step variance q^2
    m = np.array([1.0, 2.0, 10.0])
    ours = gauss_markov_avar(m, sb * sb, tc, DT)
    np.testing.assert_allclose(ours, (2 * m * m + 1) * q2 / (6 * m), rtol=2e-3)
    # tau >> tau_c: white noise with the summed autocovariance sigma^2 (1+phi)/(1-phi)
    # (the next order is -1.5 tau_c / tau relative)
    m = np.array([1e7, 1e8])
    ours = gauss_markov_avar(m, sb * sb, tc, DT)
    np.testing.assert_allclose(ours, sb * sb * (1 + phi) / (1 - phi) / m, rtol=2 * tc / (1e7 * DT))
    # the peak: about 0.62 sigma near 1.89 tau_c (REFERENCE.md)
    m = np.round(np.geomspace(1, 1e6, 4000))
    dev = np.sqrt(gauss_markov_avar(m, sb * sb, tc, DT))
    i = int(np.argmax(dev))
    assert dev[i] == pytest.approx(0.62 * sb, rel=0.01)
    assert m[i] * DT == pytest.approx(1.89 * tc, rel=0.02)


def test_terms_add_and_imu_has_six_axes():
    g = TriadNoise(
        noise_density=1e-3,
        gauss_markov_stddev=2e-4,
        gauss_markov_correlation_time=20.0,
        random_walk_density=1e-5,
    )
    a = TriadNoise(noise_density=2e-3, full_scale=156.96, bits=12)
    imu = ImuNoise(gyro=g, accel=a, seed=1)
    tau = np.array([0.01, 0.1, 1.0, 10.0, 100.0])
    terms = allan_deviation_terms(imu, tau, DT)
    total = allan_deviation(imu, tau, DT)
    assert total.shape == (5, 6)
    np.testing.assert_allclose(total**2, sum(v**2 for v in terms.values()), rtol=1e-14)
    np.testing.assert_array_equal(allan_deviation(g, tau, DT), total[:, :3])
    np.testing.assert_array_equal(allan_deviation(a, tau, DT), total[:, 3:])
    # quantization as white LSB^2/12, and off on request
    lsb = 2 * 156.96 / 2**12
    np.testing.assert_allclose(terms["quantization"][:, 3], lsb / np.sqrt(12 * tau / DT))
    no_q = allan_deviation(imu, tau, DT, quantization=False)
    np.testing.assert_allclose(no_q[:, 3], 2e-3 / np.sqrt(tau), rtol=1e-14)
    # the constant and turn-on biases, scale factor and misalignment do not show
    off = [[0.0, 1e-3, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    other = g.replace(bias=0.3, turn_on_bias_mean=0.1, scale_factor=0.01, misalignment=off)
    np.testing.assert_array_equal(allan_deviation(other, tau, DT), total[:, :3])


def test_theory_inputs_are_checked():
    g = TriadNoise(noise_density=1e-3)
    with pytest.raises(ValueError, match=r"tau\[1\]"):
        allan_deviation(g, [0.01, 0.015], DT)  # 1.5 samples
    with pytest.raises(ValueError, match="tau"):
        allan_deviation(g, [0.0], DT)
    with pytest.raises(ValueError, match="dt"):
        allan_deviation(g, [1.0], -0.01)
    with pytest.raises(TypeError, match="model"):
        allan_deviation("gyro", [1.0], DT)
    with pytest.raises(ValueError, match="f="):
        power_spectral_density(g, [60.0], DT)  # above Nyquist (50 Hz)
    assert axis_parameters([g, g], DT)["white_var"].shape == (6,)


def test_psd_levels_and_integrals():
    sb, tc, nd, k = 1e-3, 0.5, 1e-3, 1e-4
    g = TriadNoise(
        noise_density=nd,
        gauss_markov_stddev=sb,
        gauss_markov_correlation_time=tc,
        random_walk_density=k,
    )
    f = np.linspace(0.0, 0.5 / DT, 200_001)
    terms = power_spectral_density_terms(g, f, DT)
    # white: one-sided 2 sigma^2 dt = 2 N^2; two-sided N^2
    np.testing.assert_allclose(terms["white"][:, 0], 2 * nd * nd, rtol=1e-14)
    two = power_spectral_density_terms(g, f[:5], DT, onesided=False)
    np.testing.assert_allclose(two["white"][:, 0], nd * nd, rtol=1e-14)
    # each stationary term integrates to its variance over [0, Nyquist]
    var_white = float(np.trapezoid(terms["white"][:, 0], f))
    var_gm = float(np.trapezoid(terms["gauss_markov"][:, 0], f))
    assert var_white == pytest.approx(nd * nd / DT, rel=1e-9)
    assert var_gm == pytest.approx(sb * sb, rel=1e-4)
    # random walk: infinite at 0, 2 w^2 dt / (4 sin^2(pi f dt)) elsewhere
    assert math.isinf(terms["random_walk"][0, 0])
    j = 1234
    expect = 2 * k * k * DT * DT / (4 * math.sin(math.pi * f[j] * DT) ** 2)
    assert terms["random_walk"][j, 0] == pytest.approx(expect, rel=1e-12)
    total = power_spectral_density(g, f[1:10], DT)
    np.testing.assert_allclose(total, sum(v[1:10] for v in terms.values()), rtol=1e-15)


def test_bias_instability_of_white_plus_random_walk():
    nd, k = 1e-3, 1e-5
    g = TriadNoise(noise_density=nd, random_walk_density=k)
    b, tau_min = bias_instability(g, DT)
    # min over tau of N^2/tau + K^2 tau/3 is at tau* = sqrt(3) N/K: sigma^2 = 2 N K / sqrt(3)
    tau_star = math.sqrt(3.0) * nd / k
    expect = math.sqrt(2 * nd * k / math.sqrt(3.0)) / BIAS_INSTABILITY_FACTOR
    np.testing.assert_allclose(b, expect, rtol=1e-4)
    np.testing.assert_allclose(tau_min, tau_star, rtol=0.06)  # 40 points per decade


# ---- theory against simulations -------------------------------------------------------------
def _check_against_simulation(triad: TriadNoise, n: int, seed: int, k_sigma: float) -> None:
    """Every axis's Allan variance estimate lies within k_sigma EDF standard deviations
    of the theory: |ln(avar_hat / avar)| <= k_sigma sqrt(2/nu) (chi-square with nu
    degrees of freedom: var(ln(chi2/nu)) ~ 2/nu), nu from Greenhall's EDF with the most
    conservative noise type of the terms present (random walk, alpha = -2, for a
    Gauss-Markov or random-walk term; white noise otherwise), for taus up to N dt/8."""
    zeros = np.zeros((n, 3))
    w, _ = ImuNoise(gyro=triad, seed=seed).apply(zeros, zeros, DT)
    res = oadev(w, FS, alpha=None)
    keep = res.m <= n // 8
    tau = res.tau[keep]
    theory = allan_deviation(triad, tau, DT)
    red = any(triad.gauss_markov_stddev) or any(triad.random_walk_density)
    alpha = -2 if red else 0
    nu = np.array([edf_greenhall(alpha, int(m), n + 1) for m in res.m[keep]])
    z = np.abs(np.log(res.adev[keep] ** 2 / theory**2)) / np.sqrt(2.0 / nu)[:, None]
    assert np.max(z) <= k_sigma, (tau, z)


def test_theory_matches_a_simulated_white_and_quantized_log():
    # white noise spanning many LSBs: quantization adds LSB^2/12
    g = TriadNoise(noise_density=1e-3, resolution=2e-3)
    _check_against_simulation(g, 200_000, 31, 4.5)


def test_theory_matches_a_simulated_log_with_every_term():
    g = TriadNoise(
        noise_density=1e-3,
        gauss_markov_stddev=1e-3,
        gauss_markov_correlation_time=1.0,
        gauss_markov_steady_state=True,
        random_walk_density=1e-4,
    )
    _check_against_simulation(g, 400_000, 32, 4.5)


@slow
@needs_slow
def test_theory_matches_long_simulated_logs():
    cases = [
        TriadNoise(noise_stddev=0.01),
        TriadNoise(random_walk_density=1e-4),
        TriadNoise(
            gauss_markov_stddev=1e-3,
            gauss_markov_correlation_time=5.0,
            gauss_markov_steady_state=True,
        ),
        TriadNoise(
            noise_density=2e-4,
            gauss_markov_stddev=3e-4,
            gauss_markov_correlation_time=40.0,
            gauss_markov_steady_state=True,
            random_walk_density=2e-6,
        ),
    ]
    for i, g in enumerate(cases):
        _check_against_simulation(g, 4_000_000, 40 + i, 4.5)
