"""fastnoise.analysis.fit_noise: round trips (simulate ImuNoise with known terms, fit,
recover each term within a tolerance stated as a function of the log's length), the
NoiseFit API, and the inputs (arrays, CSV, .npy, bags refused).

Tolerances (5 standard deviations of the estimate, ln scale), for a log of n samples,
T = n dt seconds:

- N: read at the shortest tau (m = 1), where white noise has Greenhall EDF
  nu_1 = edf(alpha=0, m=1) ~ 1.5 n. ln(avar) has sd sqrt(2/nu_1), ln N half of it:
  sd(ln N) = sqrt(2/nu_1)/2 ~ 0.58/sqrt(n).
- sigma_b: the variance of a Gauss-Markov process estimated over T has relative sd
  sqrt(2 tau_c/T) (sum of its autocorrelation, 2 tau_c, over T), so at best
  sd(ln sigma_b) = sqrt(tau_c/(2T)); the Allan-deviation fit reaches about
  1.2 sqrt(tau_c/T) (measured over 40 seeds at T/tau_c = 200 and 1000).
- tau_c: read from where the Gauss-Markov bump sits; the points on its flanks have the
  same relative sd, and a shift of the bump moves ln(avar) there by at most about
  1/2 per unit ln tau_c, so sd(ln tau_c) ~ 2 x 2 x sqrt(tau_c/(2T)) ~ 2.8 sqrt(tau_c/T);
  measured 2.7-3.3 sqrt(tau_c/T). We use 3.3.
- K: read where the random walk dominates; one point i gives sd(ln K) =
  sqrt(2/nu_i) / (2 f_i) (f_i the random walk's share of the model variance there, nu_i
  its EDF as a random walk, alpha = -2); the best point bounds the fit's sd.
- A term that is absent may come out non-zero only while it hides in the data's
  scatter: adding it moves ln(avar) by at most 3 sqrt(2/nu_i) at every fitted tau (3 sd
  of that point, nu_i its EDF as a random walk, the most scattered type).
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

from fastnoise.analysis import NoiseFit, fit_noise
from fastnoise.analysis.allan import edf_greenhall, tau_grid
from fastnoise.analysis.theory import allan_variance_terms
from fastnoise.models.imu.imu_noise import ImuNoise
from fastnoise.models.imu.triad import TriadNoise

# pure analysis code (numpy): the C sanitizer and scalar-path runs leave these out
pytestmark = pytest.mark.python_only

FS = 100.0
DT = 1.0 / FS
K_SIGMA = 5.0
needs_slow = pytest.mark.skipif(
    os.environ.get("FASTNOISE_SLOW") != "1", reason="long statistical case: FASTNOISE_SLOW=1"
)


def _log(triad: TriadNoise, n: int, seed: int, accel: TriadNoise | None = None) -> np.ndarray:
    zeros = np.zeros((n, 3))
    w, a = ImuNoise(gyro=triad, accel=accel, seed=seed).apply(zeros, zeros, DT)
    return w if accel is None else np.concatenate([w, a], axis=1)


def _fitted_m(n: int) -> np.ndarray:
    m, _ = tau_grid(n, FS, "octave")
    return m[m <= n / 4]


def _sd_ln_k(truth: TriadNoise, axis: int, n: int) -> float:
    m = _fitted_m(n)
    terms = allan_variance_terms(truth, m * DT, DT, quantization=False)
    total = sum(v[:, axis] for v in terms.values())
    f = terms["random_walk"][:, axis] / total
    nu = np.array([edf_greenhall(-2, int(mi), n + 1) for mi in m])
    return float(np.min(np.sqrt(2.0 / nu) / (2.0 * np.maximum(f, 1e-12))))


def _check_axis(res: NoiseFit, truth: TriadNoise, axis: int, col: int, n: int) -> None:
    t_len = n * DT
    ax = res.axes[col]
    name = ax.name
    # N
    nd = truth.noise_density[axis]
    if nd > 0:
        sd = math.sqrt(2.0 / edf_greenhall(0, 1, n + 1)) / 2.0
        assert abs(math.log(ax.noise_density.value / nd)) <= K_SIGMA * sd, (name, ax)
    # Gauss-Markov
    sb = truth.gauss_markov_stddev[axis]
    if sb > 0:
        tc = truth.gauss_markov_correlation_time[axis]
        assert "gauss_markov" in ax.terms, (name, ax)
        sd_sb = 1.2 * math.sqrt(tc / t_len)
        sd_tc = 3.3 * math.sqrt(tc / t_len)
        assert abs(math.log(ax.bias_stddev.value / sb)) <= K_SIGMA * sd_sb, (name, ax)
        assert abs(math.log(ax.bias_correlation_time.value / tc)) <= K_SIGMA * sd_tc, (name, ax)
    # random walk
    k = truth.random_walk_density[axis]
    if k > 0:
        assert "random_walk" in ax.terms, (name, ax)
        sd = _sd_ln_k(truth, axis, n)
        assert abs(math.log(ax.random_walk_density.value / k)) <= K_SIGMA * sd, (name, ax)
    # absent terms hide in the scatter
    m = _fitted_m(n)
    true_total = sum(
        v[:, axis] for v in allan_variance_terms(truth, m * DT, DT, quantization=False).values()
    )
    fitted = res.model_terms(m * DT)
    for term, present in (("gauss_markov", sb > 0), ("random_walk", k > 0), ("white", nd > 0)):
        if present or not np.any(true_total > 0):
            continue
        nu = np.array([edf_greenhall(-2, int(mi), n + 1) for mi in m])
        shift = np.log1p(fitted[term][:, col] ** 2 / true_total)  # in ln(avar)
        assert np.all(shift <= 3.0 * np.sqrt(2.0 / nu)), (
            name,
            term,
            ax,
        )
    # the intervals hold the value
    for e in (ax.noise_density, ax.bias_stddev, ax.random_walk_density):
        assert e.low <= e.value <= e.high


CASES = {
    "white": TriadNoise(noise_density=1e-3),
    "white+random_walk": TriadNoise(noise_density=1e-3, random_walk_density=1e-4),
    "white+gauss_markov": TriadNoise(
        noise_density=1e-3,
        gauss_markov_stddev=1e-3,
        gauss_markov_correlation_time=5.0,
        gauss_markov_steady_state=True,
    ),
    "all": TriadNoise(
        noise_density=1e-3,
        gauss_markov_stddev=2e-3,
        gauss_markov_correlation_time=2.0,
        gauss_markov_steady_state=True,
        random_walk_density=7e-5,
    ),
    # x: white + Gauss-Markov, y: white + random walk, z: no noise at all
    "sparse": TriadNoise(
        noise_density=(1e-3, 1e-3, 0.0),
        gauss_markov_stddev=(2e-3, 0.0, 0.0),
        gauss_markov_correlation_time=2.0,
        gauss_markov_steady_state=True,
        random_walk_density=(0.0, 1e-4, 0.0),
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_round_trip(case):
    n = 400_000  # 4000 s at 100 Hz
    truth = CASES[case]
    res = fit_noise(_log(truth, n, seed=11), FS)
    for axis in range(3):
        _check_axis(res, truth, axis, axis, n)
    fitted = res.triad
    assert isinstance(fitted, TriadNoise)


def test_sparse_axis_without_noise_fits_to_zero():
    res = fit_noise(_log(CASES["sparse"], 100_000, seed=12), FS)
    z = res.axes[2]
    assert z.terms == ()
    assert z.noise_density.value == z.bias_stddev.value == z.random_walk_density.value == 0.0
    assert math.isnan(z.bias_correlation_time.value)
    assert res.triad.noise_density[2] == 0.0


@needs_slow
@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_round_trip_long(case):
    n = 4_000_000  # 40000 s at 100 Hz: tolerances shrink as 1/sqrt(T)
    truth = CASES[case]
    res = fit_noise(_log(truth, n, seed=21), FS)
    for axis in range(3):
        _check_axis(res, truth, axis, axis, n)


@needs_slow
@pytest.mark.slow
def test_intervals_cover_the_truth():
    """68% intervals hold the true value in about 68% of fits (30 fits per term; the
    binomial sd is 0.085, so at least 0.45 is asked). Measured with all three terms:
    N 14/30, sigma_b 15/30, tau_c 22/30, K 24/30. sigma_b's interval is still somewhat
    narrow here (its z-score ln(est/true)/sd has mean 0.4 and sd 1.26 over these fits):
    see docs/fit.rst."""
    truth = CASES["all"]
    hits = {"N": 0, "sigma_b": 0, "tau_c": 0, "K": 0}
    count = 0
    for seed in range(10):
        res = fit_noise(_log(truth, 400_000, seed=100 + seed), FS)
        for ax in res.axes:
            count += 1
            for key, est, true in (
                ("N", ax.noise_density, 1e-3),
                ("sigma_b", ax.bias_stddev, 2e-3),
                ("tau_c", ax.bias_correlation_time, 2.0),
                ("K", ax.random_walk_density, 7e-5),
            ):
                hits[key] += est.low <= true <= est.high
    for key, h in hits.items():
        assert h / count >= 0.45, (key, h, count)


def test_six_axis_imu_round_trip_gives_a_ready_imu_noise():
    gyro = TriadNoise(
        noise_density=2e-4,
        gauss_markov_stddev=5e-4,
        gauss_markov_correlation_time=3.0,
        gauss_markov_steady_state=True,
    )
    accel = TriadNoise(noise_density=2e-3, random_walk_density=2e-4)
    n = 400_000
    res = fit_noise(_log(gyro, n, seed=13, accel=accel), FS)
    assert [a.name for a in res.axes] == [
        "gyro_x",
        "gyro_y",
        "gyro_z",
        "accel_x",
        "accel_y",
        "accel_z",
    ]
    for axis in range(3):
        _check_axis(res, gyro, axis, axis, n)
        _check_axis(res, accel, axis, 3 + axis, n)
    imu = res.imu_noise(seed=5)
    assert isinstance(imu, ImuNoise)
    assert imu.gyro == res.gyro and imu.accel == res.accel
    assert res.gyro.gauss_markov_steady_state and res.gyro.gauss_markov_correlation_time is not None
    assert res.accel.gauss_markov_correlation_time is None
    with pytest.raises(ValueError, match="exactly 3"):
        _ = res.triad


# ---- the result object ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def small_fit() -> NoiseFit:
    return fit_noise(_log(CASES["all"], 100_000, seed=14), FS)


def test_result_is_plain_data(small_fit):
    d = small_fit.to_dict()
    text = json.dumps(d)  # JSON-able (NaN is written as NaN)
    back = json.loads(text)
    assert back["rate"] == FS and len(back["axes"]) == 3
    assert TriadNoise(**back["triads"][0]) == small_fit.triad
    assert len(back["allan"]["adev"]) == small_fit.allan.tau.size


def test_table_and_model_terms(small_fit):
    table = small_fit.table()
    for name in ("x", "y", "z", "N [U/sqrt(Hz)]", "tau_c [s]", "68.3%"):
        assert name in table
    terms = small_fit.model_terms()
    total = terms["total"]
    parts = terms["white"] ** 2 + terms["gauss_markov"] ** 2 + terms["random_walk"] ** 2
    np.testing.assert_allclose(total**2, parts, rtol=1e-12)
    with pytest.raises(ValueError, match="tau"):
        small_fit.model_terms([0.015])
    # the data intervals come with the fit
    a = small_fit.allan
    assert np.all(a.low <= a.adev) and np.all(a.adev <= a.high)
    assert a.edf.shape == a.adev.shape


def test_bias_instability_is_read_on_the_flat_part(small_fit):
    for ax in small_fit.axes:
        b = ax.bias_instability
        assert b.low <= b.value <= b.high
        assert 0.1 < ax.bias_instability_tau < 1000.0
    white = fit_noise(_log(CASES["white"], 50_000, seed=15), FS)
    assert all(math.isnan(ax.bias_instability.value) for ax in white.axes)  # no floor


# ---- inputs ---------------------------------------------------------------------------------
def test_csv_and_npy_inputs(tmp_path):
    log = _log(CASES["white+random_walk"], 20_000, seed=16)
    npy = tmp_path / "log.npy"
    np.save(npy, log)
    ref = fit_noise(log, FS)
    from_npy = fit_noise(str(npy), FS)
    np.testing.assert_array_equal(from_npy.allan.adev, ref.allan.adev)
    # CSV with a header row, a comment and a time column (s): the rate comes from it
    t = np.arange(log.shape[0]) * DT
    csv = tmp_path / "log.csv"
    with open(csv, "w", encoding="utf-8") as f:
        f.write("# a stationary gyro\n")
        f.write("t,wx,wy,wz\n")
        for row in np.column_stack([t, log]):
            f.write(",".join(repr(float(v)) for v in row) + "\n")
    from_csv = fit_noise(csv, time_column=True)
    assert from_csv.rate == pytest.approx(FS, rel=1e-9)
    np.testing.assert_allclose(from_csv.allan.adev, ref.allan.adev, rtol=1e-12)
    one = fit_noise(csv, time_column=True, columns=[1])
    np.testing.assert_allclose(one.allan.adev[:, 0], ref.allan.adev[:, 1], rtol=1e-12)


def test_bags_are_refused_for_now(tmp_path):
    for name in ("imu.bag", "imu.mcap", "imu.db3"):
        p = tmp_path / name
        p.write_bytes(b"")
        with pytest.raises(NotImplementedError, match=r"\[ros\] extra"):
            fit_noise(p, FS)


def test_bad_inputs_are_named(tmp_path):
    log = np.random.default_rng(0).normal(size=(1000, 3))
    with pytest.raises(TypeError, match="rate"):
        fit_noise(log)
    with pytest.raises(ValueError, match="rate"):
        fit_noise(log, -1.0)
    with pytest.raises(ValueError, match="at least 256"):
        fit_noise(log[:100], FS)
    bad = log.copy()
    bad[500, 1] = np.nan
    with pytest.raises(ValueError, match=r"data\[500, 1\]"):
        fit_noise(bad, FS)
    with pytest.raises(ValueError, match="no such file"):
        fit_noise(tmp_path / "missing.npy", FS)
    (tmp_path / "x.txt2").write_text("1\n")
    with pytest.raises(ValueError, match="npy"):
        fit_noise(tmp_path / "x.txt2", FS)
    with pytest.raises(ValueError, match="columns"):
        fit_noise(log, FS, columns=[3])
    with pytest.raises(ValueError, match="ci"):
        fit_noise(log, FS, ci=1.5)
    with pytest.raises(ValueError, match="min_significance"):
        fit_noise(log, FS, min_significance=-1)
    with pytest.raises(ValueError, match="select='x'.*'triad'.*'axis'"):
        fit_noise(log, FS, select="x")


def test_select_axis_fits_each_column_on_its_own():
    """select="axis": a column's answer is the one it gets alone (same bits)."""
    truth = TriadNoise(
        noise_density=2e-4,
        gauss_markov_stddev=3e-4,
        gauss_markov_correlation_time=10.0,
        gauss_markov_steady_state=True,
    )
    log = _log(truth, 60_000, seed=31)
    both = fit_noise(log, FS, select="axis")
    for c in range(3):
        alone = fit_noise(log[:, c], FS)
        assert both.axes[c].terms == alone.axes[0].terms
        assert both.axes[c].bias_stddev == alone.axes[0].bias_stddev
        assert both.axes[c].noise_density == alone.axes[0].noise_density


def test_select_triad_chooses_the_term_types_once_per_triad():
    """select="triad" (the default for 3k columns): the x, y, z of a triad share the term
    types, while each axis keeps its own amplitudes; an axis whose own fit has no room
    for a shared term (here z: white noise only, so its Gauss-Markov amplitude is 0 or
    its tau_c at a bound) reports the term as not detected. On this log the x and y
    axes carry a Gauss-Markov bias 30x the white noise's Allan deviation at tau_c."""
    truth = TriadNoise(
        noise_density=2e-4,
        gauss_markov_stddev=(3e-4, 3e-4, 0.0),
        gauss_markov_correlation_time=10.0,
        gauss_markov_steady_state=True,
    )
    log = _log(truth, 60_000, seed=32)
    res = fit_noise(log, FS)
    assert [ax.terms for ax in res.axes] == [
        ("white", "gauss_markov"),
        ("white", "gauss_markov"),
        ("white",),
    ]
    assert res.axes[2].not_detected == ("gauss_markov", "random_walk")
    # a six-column log: two triads, each with its own choice
    six = np.concatenate([log, _log(CASES["white"], 60_000, seed=33)], axis=1)
    res6 = fit_noise(six, FS)
    assert [ax.terms for ax in res6.axes[3:]] == [("white",)] * 3
    assert [ax.terms for ax in res6.axes[:3]] == [ax.terms for ax in res.axes]


def test_the_log_is_not_modified():
    log = _log(CASES["white"], 5000, seed=17)
    log.flags.writeable = False
    before = log.copy()
    fit_noise(log, FS)
    np.testing.assert_array_equal(log, before)
