"""Fit an IMU noise model to a stationary log: white noise N, first-order Gauss-Markov
bias (sigma_b, tau_c) and bias random walk K, per axis, from the overlapping Allan
deviation, with the exact discrete-time formulas of ``fastnoise.analysis.theory``.

Method
------
1. The overlapping Allan deviation sigma_i of each column at the taus of ``taus``
   (default "octave": m = 1, 2, 4, ... samples), computed in C (``oadev``); the fit uses
   the taus with m <= N/4 (Stable32's stop ratio; the longer ones have fewer than about
   three degrees of freedom and are only drawn).
2. Model Allan variance at tau_i = m_i dt:
   ``N^2/tau + sigma_b^2 g(m; tau_c) + K^2 (2m^2 + 1) dt / (6m)`` (g: Zhang's AR(1)
   formula for unit variance, steady state). The amplitudes N^2, sigma_b^2, K^2 >= 0.
3. Weighted least squares in the Allan *deviation* domain: minimize ``sum_i r_i^2`` with
   ``r_i = sqrt(2 nu_i) (sigma_model_i - sigma_i / c_i) / s_i``, where nu_i is
   Greenhall's EDF of point i (the relative variance of sigma_i is about 1/(2 nu_i)),
   c_i = E[sqrt(chi2_nu / nu)] (a deviation with few degrees of freedom is low on
   average: c = 0.89 at nu = 2; dividing by it makes the points unbiased) and s_i the
   model deviation of the pass before (the data on the first). For a fixed tau_c the
   amplitudes come from Gauss-Newton steps on a non-negative least-squares problem;
   tau_c is searched on a log grid over [tau_min, tau_max/(4 * 1.89)] (the
   Gauss-Markov peak and two octaves of its falling side must lie in the fitted taus:
   a later peak leaves a rising side that a random walk describes as well, K^2 =
   2 sigma_b^2 / tau_c) and refined by golden section. The noise type alpha of each
   point (for its EDF) is read from the data's slope on the first pass, then from the
   fitted model: each term's type (white 0, random walk -2, Gauss-Markov -2 up to 30
   tau_c, where its estimates scatter like a random walk's, and 0 beyond) averaged with
   the terms' shares of the variance at that tau.
4. Passes: every term is fitted (3.); then the terms are chosen (5.); then the chosen
   ones are fitted twice more, each time with the noise types and weights of the
   model before.
5. Terms that the data do not support are dropped: an amplitude that comes out 0, a
   term whose significance sqrt(cost without it - cost with it) is below
   ``min_significance`` (default 3, a chi-square test at about 0.3% for one parameter),
   and a Gauss-Markov term whose tau_c sits at the end of the search range. For this
   choice the residuals are decorrelated (generalized least squares, ``r' R^-1 r``)
   with R the correlation of overlapping estimates at different taus (a table per noise
   type, measured on simulated series; adjacent octaves: 0.52 white, 0.69 flicker, 0.88
   random walk), so that the cost differences behave as chi-square; correlated points
   otherwise make wiggles of the curve look significant. Measured: a Gauss-Markov or
   random-walk term that is absent was reported in 0-2% of 45 fits of 4000 s logs.

Confidence intervals (probability ``ci``, default 0.683)
--------------------------------------------------------
From the equivalent degrees of freedom and chi-square. The fit's covariance in the
log-parameters (ln N^2, ln sigma_b^2, ln tau_c, ln K^2) is the weighted least-squares
sandwich (J'WJ)^-1 J'W S W J (J'WJ)^-1, with J the derivatives of the model's ln(avar)
at the fitted taus, W = diag(nu_i / 2) and S the covariance of the points' ln(avar):
2/nu_i on the diagonal (chi-square with Greenhall's nu_i), the tabled correlations
between taus off it. An
amplitude's variance is never taken below that of reading it off its single best point,
2 / (nu_i f_i^2) (IEEE Std 952's way of reading an Allan plot). Each parameter p then
gets the EDF nu_p = 2 / var(ln p^2) (N, sigma_b, K) or 2 / var(ln tau_c) and the
chi-square interval ``p * (nu_p / chi2.ppf((1 +/- ci)/2, nu_p))^(1/2)`` (power 1 for
tau_c). Measured over round trips of white + Gauss-Markov + random walk (N = 1e-3,
sigma_b = 1e-3, tau_c = 10 s, K = 5e-5; 12 seeds x 3 axes of 10000 s at 100 Hz): the
68% intervals held the truth in 72% of the fits for N, 64% for tau_c, 67% for K and
only 47% for sigma_b (its intervals are about 25% too narrow). With 2000 s the random
walk was found in 3 of 90 fits only (it dominates less than two octaves), and the
Gauss-Markov term that takes it over misses its own truth (about 24%).

A term that was dropped gets 0 with the interval [0, upper]: the largest amplitude
the data's upper confidence limits allow. Bias
instability B (derived, IEEE 952): the fitted model's Allan deviation where its log-log
slope is closest to 0 (the flat floor of a white + random-walk curve, or a Gauss-Markov
plateau) divided by 0.664, its interval from the EDF at that tau; NaN when the slope
stays beyond +/-0.25 (e.g. white noise alone: no floor in the data).

Not modeled: quantization (it shows as white noise), rate ramps, flicker noise (a
Gauss-Markov term stands in for a bias-instability floor), angle quantization. The log
must be stationary: the Gauss-Markov theory is its steady state.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from fastnoise.analysis._fit_intervals import (
    _chi2_interval,  # noqa: F401
    _intervals,  # noqa: F401
    _upper_limit,  # noqa: F401
)
from fastnoise.analysis._fit_model import (
    _GM_PEAK,  # noqa: F401
    _GM_RED_SPAN,  # noqa: F401
    FIT_TERMS,  # noqa: F401
    FLAT_SLOPE,  # noqa: F401
    GM_FALL,  # noqa: F401
    MAX_M_RATIO,  # noqa: F401
    MIN_FIT_SAMPLES,  # noqa: F401
    FloatArray,  # noqa: F401
    _amplitudes,  # noqa: F401
    _mean_chi_ratio,  # noqa: F401
    _model_alpha,  # noqa: F401
    _shapes,  # noqa: F401
    _three,  # noqa: F401
)
from fastnoise.analysis._fit_result import (
    AxisFit,  # noqa: F401
    Estimate,  # noqa: F401
    NoiseFit,  # noqa: F401
)
from fastnoise.analysis._fit_solve import (
    _CORR,  # noqa: F401
    _CORR_D,  # noqa: F401
    _SUBSETS,  # noqa: F401
    _correlation,  # noqa: F401
    _Data,  # noqa: F401
    _fit_axis,  # noqa: F401
    _fit_terms,  # noqa: F401
    _nnls,  # noqa: F401
    _solve_amplitudes,  # noqa: F401
    _solve_small,  # noqa: F401
    _whitener,  # noqa: F401
)
from fastnoise.analysis.allan import (
    ONE_SIGMA_CI,
    AllanDeviation,
    TauSpec,
    _as_log,
    _ci,
    _column_sums,
    _rate,
    confidence_interval,
    edf_greenhall,
    noise_type_from_slope,
    tau_grid,
)
from fastnoise.analysis.theory import BIAS_INSTABILITY_FACTOR
from fastnoise.core import validate as _validate

__all__ = ["AxisFit", "Estimate", "NoiseFit", "fit_noise", "MIN_FIT_SAMPLES"]


# ---- the fit -------------------------------------------------------------------------------
def _axis_names(k: int) -> list[str]:
    if k == 6:
        return [f"{s}_{a}" for s in ("gyro", "accel") for a in "xyz"]
    if k == 3:
        return ["x", "y", "z"]
    return [f"axis{i}" for i in range(k)]


def _fit_column(
    name: str,
    n_samples: int,
    sigma: FloatArray,
    tau: FloatArray,
    dt: float,
    edf_of: Callable[[npt.NDArray[np.int64]], FloatArray],
    tau_bounds: tuple[float, float],
    min_sig: float,
    ci: float,
) -> tuple[AxisFit, npt.NDArray[np.int64], FloatArray]:
    """Fit one column's Allan deviation ``sigma`` (U) at ``tau`` (s); returns the
    AxisFit, the noise type per point and the EDF per point."""
    mf = np.asarray(np.round(tau / dt), dtype=np.float64)
    nan = Estimate(math.nan, math.nan, math.nan)
    if not np.any(sigma > 0):  # a constant column: nothing to fit
        alpha0 = np.zeros(tau.size, dtype=np.int64)
        zero = Estimate(0.0, 0.0, 0.0)
        return AxisFit(name, zero, zero, nan, zero, nan, math.nan, (), 0.0), alpha0, edf_of(alpha0)
    # the fit uses the taus up to N/4 (Stable32's stop ratio for the overlapping
    # deviation): beyond, a point has fewer than ~3 degrees of freedom
    keep = (sigma > 0) & (mf <= n_samples / MAX_M_RATIO)
    if np.count_nonzero(keep) < 3:
        keep = sigma > 0

    def data(alpha: npt.NDArray[np.int64], ref: FloatArray) -> _Data:
        nu = edf_of(alpha)
        unbiased = sigma / _mean_chi_ratio(nu)  # E[sigma_hat] = c(nu) sigma
        wh = _whitener(tau[keep], alpha[keep])
        return _Data(mf[keep], unbiased[keep], nu[keep], ref[keep], dt, alpha[keep], wh)

    alpha = noise_type_from_slope(np.square(np.maximum(sigma, 1e-300)), tau)
    ref = sigma
    amp, tc, terms = np.zeros(3), math.inf, set(FIT_TERMS)
    # 1. every term, weighted least squares: a model for the noise types and weights
    eye = np.eye(int(np.count_nonzero(keep)))
    amp, tc, _cost, _ = _fit_terms(
        replace(data(alpha, ref), whiten=eye), set(FIT_TERMS), tau_bounds
    )
    alpha = _model_alpha(mf, dt, tc, amp)
    ref = np.sqrt(np.maximum(_shapes(mf, dt, tc) @ amp, 1e-300))
    # 2. which terms: decorrelated (generalized) least squares, so that the cost
    # differences behave as chi-square
    _amp, _tc, terms, _cost = _fit_axis(data(alpha, ref), tau_bounds, min_sig)
    # 3. their values: weighted least squares, twice (noise types and weights from the
    # model of the pass before)
    for _ in range(2):
        amp, tc, _cost, _ = _fit_terms(replace(data(alpha, ref), whiten=eye), terms, tau_bounds)
        alpha = _model_alpha(mf, dt, tc, amp)
        ref = np.sqrt(np.maximum(_shapes(mf, dt, tc) @ amp, 1e-300))
    d = data(alpha, ref)
    corr = np.linalg.inv(d.whiten) @ np.linalg.inv(d.whiten).T  # the correlation of the points
    d = replace(d, whiten=np.eye(d.m.size))
    r = d.c * (np.sqrt(np.maximum(_shapes(d.m, dt, tc) @ amp, 0.0)) - d.sigma)
    chi2 = float(r @ r) / max(d.m.size, 1)
    white, sb, tce, rw = _intervals(d, corr, amp, tc, terms, ci, tau_bounds)
    # bias instability: read where the model's curve is flattest, on a fine grid
    fine = np.asarray(np.unique(np.round(np.geomspace(mf[0], mf[-1], 200))), dtype=np.float64)
    fine_dev = np.sqrt(np.maximum(_shapes(fine, dt, tc) @ amp, 1e-300))
    slope = np.gradient(np.log(fine_dev), np.log(fine)) if fine.size > 1 else np.ones(1)
    ib = int(np.argmin(np.abs(slope)))
    be, b_tau = nan, math.nan
    if abs(float(slope[ib])) <= FLAT_SLOPE and np.any(amp[1:] > 0):
        b_val = float(fine_dev[ib]) / BIAS_INSTABILITY_FACTOR
        j = int(np.argmin(np.abs(np.log(mf) - math.log(fine[ib]))))
        be = _chi2_interval(b_val, float(edf_of(alpha)[j]), ci, 0.5)
        b_tau = float(fine[ib] * dt)
    fit = AxisFit(
        name=name,
        noise_density=white,
        bias_stddev=sb,
        bias_correlation_time=tce,
        random_walk_density=rw,
        bias_instability=be,
        bias_instability_tau=b_tau,
        terms=tuple(t for t in FIT_TERMS if t in terms),
        reduced_chi2=chi2,
    )
    return fit, alpha, edf_of(alpha)


def fit_noise(
    data: npt.ArrayLike | str | os.PathLike[str],
    rate: float | None = None,
    *,
    taus: TauSpec = "octave",
    ci: float = ONE_SIGMA_CI,
    min_significance: float = 3.0,
    columns: Sequence[int] | None = None,
    time_column: bool = False,
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> NoiseFit:
    """Fit white noise N, a Gauss-Markov bias (sigma_b, tau_c) and a rate random walk K
    to each axis of a stationary log, from its overlapping Allan deviation.

    Parameters
    ----------
    data : array_like (N,) or (N, k), or a path to a ``.npy`` / ``.csv`` file
        Rate samples of a sensor at rest, in its unit U: rad/s for gyroscope axes, m/s^2
        for accelerometer axes. Six columns are read as gyro x, y, z then accel x, y, z
        (``NoiseFit.gyro``/``.accel``/``.imu_noise()``); three as one triad. At least
        256 samples; every sample finite. Files: see ``fastnoise.analysis.logs``
        (ROS bags are not supported yet and raise NotImplementedError). Not modified.
    rate : float or None
        Sample rate, Hz (> 0). None only with ``time_column=True`` (taken from the
        times).
    taus : "octave" (default), "decade", "log10" or array of float
        Averaging times of the Allan deviation (see ``tau_grid``), s.
    ci : float
        Probability content of the intervals, in (0, 1) (default 0.683, one sigma).
    min_significance : float
        A term is kept when sqrt(cost without it - cost with it) reaches this
        (default 3; >= 0).
    columns, time_column
        Column selection and a leading time column (s) of a file or array.
    threads : int or None
        Columns computed at once (default: the CPU count).
    progress : callable(str) or None
        Receives a line per stage (e.g. ``print`` to stderr).

    Returns
    -------
    NoiseFit
        Per-axis estimates with intervals, the Allan deviation data, and the fitted
        ``TriadNoise`` (``.triad``, ``.triads``, ``.gyro``, ``.accel``).

    Examples
    --------
    >>> import numpy as np
    >>> from fastnoise import ImuNoise, TriadNoise
    >>> from fastnoise.analysis import fit_noise
    >>> truth = TriadNoise(noise_density=1e-3, random_walk_density=1e-5)
    >>> zeros = np.zeros((400_000, 3))
    >>> w, _ = ImuNoise(gyro=truth, seed=1).apply(zeros, zeros, 0.01)  # rad/s
    >>> res = fit_noise(w, rate=100.0)
    >>> print(res.table())  # doctest: +SKIP
    >>> res.triad  # a TriadNoise ready for ImuNoise  # doctest: +SKIP
    """
    from fastnoise.analysis.logs import load_log

    ci = _ci(ci)
    min_sig = _validate.nonnegative("min_significance", min_significance)
    arr, file_rate = load_log(
        data,
        columns=None if columns is None else list(columns),
        time_column=time_column,
    )
    if rate is None:
        if file_rate is None:
            raise TypeError("rate=None is not allowed without time_column=True: give the rate, Hz")
        rate = file_rate
    fs = _rate(rate)
    dt = 1.0 / fs
    y = _as_log("data", arr, MIN_FIT_SAMPLES)
    n, k = y.shape
    m, tau = tau_grid(n, fs, taus)
    if m.size < 3:
        raise ValueError(
            f"taus={taus!r} gives {m.size} averaging time(s) for {n} samples: at least 3 "
            "are needed for a fit"
        )
    say = progress or (lambda _line: None)
    say(f"allan deviation: {n} samples x {k} column(s), {m.size} taus")
    if threads is None:
        threads = os.cpu_count() or 1
    threads = _validate.integer("threads", threads, 1, 1025)

    def col_done(done: int, total: int) -> None:
        say(f"  column {done}/{total}")

    sums = _column_sums(y, m, "data", threads, col_done)
    n_terms = (n + 1 - 2 * m).astype(np.int64)
    adev = np.sqrt(sums / (2.0 * n_terms[:, None])) / m[:, None]
    fit_max = float(tau[m <= n / MAX_M_RATIO][-1]) if np.any(m <= n / MAX_M_RATIO) else tau[-1]
    # a Gauss-Markov term must show its peak and two octaves of its falling side in the
    # fitted taus; with a later peak its rising side is a random walk's (K^2 = 2
    # sigma_b^2 / tau_c) and the few long-tau points cannot tell the two apart
    tau_bounds = (float(tau[0]), float(max(fit_max / (_GM_PEAK * GM_FALL), tau[0] * 4.0)))
    edf_cache: dict[tuple[int, int], float] = {}

    def edf_of(alpha: npt.NDArray[np.int64]) -> FloatArray:
        out = np.empty(m.size)
        for i in range(m.size):
            key = (int(alpha[i]), int(m[i]))
            if key not in edf_cache:
                edf_cache[key] = edf_greenhall(key[0], key[1], n + 1)
            out[i] = edf_cache[key]
        return out

    say("fitting")
    axes: list[AxisFit] = []
    alphas = np.empty((m.size, k), dtype=np.int64)
    edfs = np.empty((m.size, k))
    for c, name in enumerate(_axis_names(k)):
        ax, alphas[:, c], edfs[:, c] = _fit_column(
            name, n, adev[:, c], tau, dt, edf_of, tau_bounds, min_sig, ci
        )
        axes.append(ax)
        say(f"  {name}: terms {', '.join(ax.terms) or 'none'}")
    low, high = confidence_interval(adev, edfs, ci)
    allan = AllanDeviation(
        tau=tau,
        m=m,
        adev=adev,
        n_terms=n_terms,
        n_samples=n,
        rate=fs,
        alpha=alphas,
        edf=edfs,
        low=low,
        high=high,
        ci=ci,
    )
    return NoiseFit(allan=allan, axes=tuple(axes), rate=fs, ci=ci)
