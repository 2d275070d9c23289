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
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from fastnoise.analysis import _stats
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
from fastnoise.analysis.logs import load_log
from fastnoise.analysis.theory import BIAS_INSTABILITY_FACTOR, gauss_markov_avar
from fastnoise.core import registry
from fastnoise.core import validate as _validate
from fastnoise.models.imu.triad import TriadNoise

__all__ = ["AxisFit", "Estimate", "NoiseFit", "fit_noise", "MIN_FIT_SAMPLES"]


# ---- the model: constants and the Allan variance of each term -------------------------------
FloatArray: TypeAlias = npt.NDArray[np.float64]
#: Fewest samples ``fit_noise`` accepts.
MIN_FIT_SAMPLES = 256
#: Term names, in the order of the amplitude vector.
FIT_TERMS = ("white", "gauss_markov", "random_walk")
_GM_PEAK = 1.89  # the Gauss-Markov Allan deviation peaks near tau = 1.89 tau_c
#: Octaves of a Gauss-Markov term's falling side that must lie in the fitted taus (by
#: the ratio of the longest fitted tau to its peak at 1.89 tau_c).
GM_FALL = 4.0
#: The fit uses averaging factors m <= N / MAX_M_RATIO (Stable32's stop ratio).
MAX_M_RATIO = 4.0
#: B is read where the model's log-log slope is within this of 0 (else it is NaN).
FLAT_SLOPE = 0.25


def _three(values: Sequence[float]) -> tuple[float, float, float]:
    return (float(values[0]), float(values[1]), float(values[2]))


def _shapes(m: FloatArray, dt: float, tau_c: float) -> FloatArray:
    """(T, 3) Allan variance per unit amplitude: white (N^2 = 1), Gauss-Markov
    (sigma_b^2 = 1) at tau_c, random walk (K^2 = 1)."""
    m = np.asarray(m, dtype=np.float64)
    g = np.empty((m.size, 3))
    g[:, 0] = 1.0 / (m * dt)
    g[:, 1] = gauss_markov_avar(m, 1.0, tau_c, dt) if math.isfinite(tau_c) else 0.0
    g[:, 2] = (2.0 * m * m + 1.0) * dt / (6.0 * m)
    return g


#: A Gauss-Markov term counts as random-walk noise (alpha = -2) for the EDF up to this
#: many tau_c: its Allan variance estimates scatter like a random walk's there, not like
#: the white noise its falling slope suggests (measured on simulated logs).
_GM_RED_SPAN = 30.0


def _mean_chi_ratio(nu: FloatArray) -> FloatArray:
    """E[sqrt(chi2_nu / nu)] = sqrt(2/nu) Gamma((nu+1)/2) / Gamma(nu/2): the factor by
    which a deviation estimated with nu degrees of freedom falls short on average."""
    out = np.empty(len(nu))
    for i, v in enumerate(np.asarray(nu, dtype=np.float64)):
        if v > 1e7:
            out[i] = 1.0 - 1.0 / (4.0 * v)
        else:
            out[i] = math.sqrt(2.0 / v) * math.exp(math.lgamma((v + 1) / 2) - math.lgamma(v / 2))
    return out


def _model_alpha(m: FloatArray, dt: float, tc: float, amp: FloatArray) -> npt.NDArray[np.int64]:
    """Noise type per point for the EDF: the terms' types (white 0, random walk -2,
    Gauss-Markov -2 up to 30 tau_c and 0 beyond) averaged with the terms' shares of the
    model variance, rounded."""
    g = _shapes(m, dt, tc) * amp[None, :]
    share = g / np.maximum(g.sum(axis=1), 1e-300)[:, None]
    gm_type = np.where(m * dt <= _GM_RED_SPAN * tc, -2.0, 0.0) if math.isfinite(tc) else 0.0
    mix = share[:, 1] * gm_type - 2.0 * share[:, 2]
    return np.asarray(np.clip(np.round(mix), -2, 0), dtype=np.int64)


def _amplitudes(ax: AxisFit) -> FloatArray:
    return np.array(
        [
            ax.noise_density.value**2,
            ax.bias_stddev.value**2 if math.isfinite(ax.bias_correlation_time.value) else 0.0,
            ax.random_walk_density.value**2,
        ]
    )


# ---- results -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """A fitted value with its confidence interval [low, high] (same unit)."""

    value: float
    low: float
    high: float

    def as_dict(self) -> dict[str, float]:
        """``{"value", "low", "high"}`` (floats; NaN where undefined)."""
        return {"value": self.value, "low": self.low, "high": self.high}


@dataclass(frozen=True)
class AxisFit:
    """Fitted noise terms of one axis (unit U of the data: rad/s, m/s^2, ...).

    Attributes
    ----------
    name : str
        Axis name ("gyro_x", ..., "accel_z" for six columns; "x", "y", "z" for three).
    noise_density : Estimate
        White-noise density N, U/sqrt(Hz) (single-sided, sigma = N/sqrt(dt)).
    bias_stddev : Estimate
        Gauss-Markov stationary standard deviation sigma_b, U (0 when not detected).
    bias_correlation_time : Estimate
        Gauss-Markov correlation time tau_c, s (NaN when not detected).
    random_walk_density : Estimate
        Rate random walk density K, U/sqrt(s) (0 when not detected).
    bias_instability : Estimate
        Derived figure B = sigma_model(tau_B) / 0.664, U, read where the model's
        log-log slope is flattest (NaN when no flat region lies in the data).
    bias_instability_tau : float
        That tau_B, s (NaN with B).
    terms : tuple of str
        The terms kept ("white", "gauss_markov", "random_walk").
    reduced_chi2 : float
        Weighted residual sum of squares per point (about 1 for a good fit with
        independent points; overlapping points make it smaller).
    """

    name: str
    noise_density: Estimate
    bias_stddev: Estimate
    bias_correlation_time: Estimate
    random_walk_density: Estimate
    bias_instability: Estimate
    bias_instability_tau: float
    terms: tuple[str, ...]
    reduced_chi2: float

    def as_dict(self) -> dict[str, Any]:
        """Plain data (JSON-able except NaN)."""
        return {
            "name": self.name,
            "noise_density": self.noise_density.as_dict(),
            "bias_stddev": self.bias_stddev.as_dict(),
            "bias_correlation_time": self.bias_correlation_time.as_dict(),
            "random_walk_density": self.random_walk_density.as_dict(),
            "bias_instability": self.bias_instability.as_dict(),
            "bias_instability_tau": self.bias_instability_tau,
            "terms": list(self.terms),
            "reduced_chi2": self.reduced_chi2,
        }


@dataclass(frozen=True)
class NoiseFit:
    """Result of :func:`fit_noise`.

    Attributes
    ----------
    allan : AllanDeviation
        The data's Allan deviation (T, k), U, with the EDF (noise type from the fitted
        model's slope) and confidence intervals.
    axes : tuple of AxisFit
        One per column.
    rate : float
        Sample rate, Hz.
    ci : float
        Probability content of every interval.
    """

    allan: AllanDeviation
    axes: tuple[AxisFit, ...]
    rate: float
    ci: float

    @property
    def dt(self) -> float:
        """Sample step, s."""
        return 1.0 / self.rate

    @property
    def triads(self) -> tuple[TriadNoise, ...]:
        """One ready :class:`TriadNoise` per three columns (x, y, z): noise_density N,
        gauss_markov_stddev sigma_b (the fit's bias_stddev) with
        gauss_markov_correlation_time tau_c (its bias_correlation_time) and
        ``gauss_markov_steady_state=True`` (a stationary log), random_walk_density K. Where an
        axis has no Gauss-Markov term but another axis of the triad has one, that axis
        gets sigma_b = 0 and its tau_c is taken from the others (it then has no
        effect)."""
        k = len(self.axes)
        if k % 3:
            raise ValueError(
                f"the log has {k} columns: triads need a multiple of 3 (x, y, z per triad)"
            )
        out = []
        for t in range(k // 3):
            ax = self.axes[3 * t : 3 * t + 3]
            nd = _three([a.noise_density.value for a in ax])
            sb = _three([a.bias_stddev.value for a in ax])
            kk = _three([a.random_walk_density.value for a in ax])
            taus = [a.bias_correlation_time.value for a in ax]
            present = [v for v, s in zip(taus, sb, strict=True) if s > 0 and math.isfinite(v)]
            if present:
                fill = float(np.exp(np.mean(np.log(present))))
                tc = _three(
                    [
                        v if (s > 0 and math.isfinite(v)) else fill
                        for v, s in zip(taus, sb, strict=True)
                    ]
                )
                out.append(
                    TriadNoise(
                        noise_density=nd,
                        gauss_markov_stddev=sb,
                        gauss_markov_correlation_time=tc,
                        gauss_markov_steady_state=True,
                        random_walk_density=kk,
                    )
                )
            else:
                out.append(TriadNoise(noise_density=nd, random_walk_density=kk))
        return tuple(out)

    @property
    def triad(self) -> TriadNoise:
        """The fitted :class:`TriadNoise` of a three-column log."""
        if len(self.axes) != 3:
            raise ValueError(f"the log has {len(self.axes)} columns: .triad needs exactly 3")
        return self.triads[0]

    @property
    def gyro(self) -> TriadNoise:
        """Columns 0-2 of a six-column IMU log (rad/s)."""
        return self._imu_triads()[0]

    @property
    def accel(self) -> TriadNoise:
        """Columns 3-5 of a six-column IMU log (m/s^2)."""
        return self._imu_triads()[1]

    def _imu_triads(self) -> tuple[TriadNoise, ...]:
        if len(self.axes) != 6:
            raise ValueError(
                f"the log has {len(self.axes)} columns: gyro/accel need six (gyro x, y, z "
                "in rad/s, then accel x, y, z in m/s^2)"
            )
        return self.triads

    def imu_noise(self, seed: int | np.random.SeedSequence | None = None, **kw: Any) -> Any:
        """An :class:`~fastnoise.models.imu.imu_noise.ImuNoise` with the fitted gyro and accel
        triads (six-column logs); ``kw`` goes to its constructor."""
        g, a = self._imu_triads()
        return registry.get("imu").cls(gyro=g, accel=a, seed=seed, **kw)

    def model_terms(self, tau: npt.ArrayLike | None = None) -> dict[str, FloatArray]:
        """The fitted model's Allan deviation per term ("white", "gauss_markov",
        "random_walk") and "total", each (T, k) in U, at ``tau`` (s, whole multiples of
        dt; default the data's taus)."""
        t = self.allan.tau if tau is None else np.atleast_1d(np.asarray(tau, dtype=np.float64))
        m = np.round(t * self.rate)
        if np.any(m < 1) or np.any(np.abs(t * self.rate - m) > 1e-9 * np.maximum(m, 1)):
            raise ValueError(f"tau={t.tolist()!r} is not allowed: use whole multiples of dt")
        out = {name: np.zeros((t.size, len(self.axes))) for name in FIT_TERMS}
        for c, ax in enumerate(self.axes):
            g = _shapes(m, self.dt, ax.bias_correlation_time.value)
            amp = _amplitudes(ax)
            for j, name in enumerate(FIT_TERMS):
                out[name][:, c] = np.sqrt(np.maximum(g[:, j] * amp[j], 0.0))
        total = np.sqrt(sum(np.square(v) for v in out.values()))
        out["total"] = total
        return out

    def table(self) -> str:
        """A plain-text table of every axis's fitted terms and intervals."""
        pct = f"{100 * self.ci:.1f}%"
        head = (
            f"{'axis':<8} {'N [U/sqrt(Hz)]':>34} {'sigma_b [U]':>34} {'tau_c [s]':>34} "
            f"{'K [U/sqrt(s)]':>34} {'B [U]':>34}"
        )
        rows = [f"fitted terms with {pct} intervals [low, high]; rate {self.rate:g} Hz", head]

        def cell(e: Estimate) -> str:
            if not math.isfinite(e.value):
                return f"{'-':>34}"
            return f"{e.value:>11.4g} [{e.low:>9.3g}, {e.high:>9.3g}]"

        for ax in self.axes:
            rows.append(
                f"{ax.name:<8} {cell(ax.noise_density)} {cell(ax.bias_stddev)} "
                f"{cell(ax.bias_correlation_time)} {cell(ax.random_walk_density)} "
                f"{cell(ax.bias_instability)}"
            )
        return "\n".join(rows)

    def to_dict(self) -> dict[str, Any]:
        """Plain data: rate, ci, per-axis fits, the Allan deviation with its intervals,
        and the fitted TriadNoise fields (where the columns make triads)."""
        a = self.allan
        out: dict[str, Any] = {
            "rate": self.rate,
            "ci": self.ci,
            "n_samples": a.n_samples,
            "axes": [ax.as_dict() for ax in self.axes],
            "allan": {
                "tau": a.tau.tolist(),
                "adev": np.asarray(a.adev).tolist(),
                "low": None if a.low is None else a.low.tolist(),
                "high": None if a.high is None else a.high.tolist(),
                "edf": None if a.edf is None else a.edf.tolist(),
                "alpha": None if a.alpha is None else a.alpha.tolist(),
            },
        }
        if len(self.axes) % 3 == 0:
            out["triads"] = [t.to_dict() for t in self.triads]
        return out


# ---- weighted least squares ----------------------------------------------------------------
def _solve_small(g: list[list[float]], r: list[float]) -> list[float] | None:
    """Solve the k x k system g x = r (k <= 3) by Gaussian elimination with partial
    pivoting, in Python floats; None when singular."""
    k = len(r)
    a = [row[:] + [r[i]] for i, row in enumerate(g)]
    for col in range(k):
        piv = max(range(col, k), key=lambda i: abs(a[i][col]))
        if abs(a[piv][col]) < 1e-14:
            return None
        a[col], a[piv] = a[piv], a[col]
        for i in range(col + 1, k):
            f = a[i][col] / a[col][col]
            for j in range(col, k + 1):
                a[i][j] -= f * a[col][j]
    x = [0.0] * k
    for i in range(k - 1, -1, -1):
        x[i] = (a[i][k] - sum(a[i][j] * x[j] for j in range(i + 1, k))) / a[i][i]
    return x


_SUBSETS = {
    p: [[j for j in range(p) if mask >> j & 1] for mask in range(1, 2**p)] for p in (1, 2, 3)
}


def _nnls(a: FloatArray, b: FloatArray) -> FloatArray:
    """Non-negative least squares for at most 3 unknowns: the best of the unconstrained
    solutions on every subset of free variables that comes out non-negative (exact for
    this convex problem). Columns are scaled to unit norm; each subset is solved from its
    Gram matrix, and the costs are evaluated from the residuals."""
    p = a.shape[1]
    norms = np.sqrt(np.sum(a * a, axis=0))
    norms[norms == 0] = 1.0
    an = a / norms
    gram = (an.T @ an).tolist()
    rhs = (an.T @ b).tolist()
    best = np.zeros(p)
    best_cost = float(b @ b)
    for cols in _SUBSETS[p]:
        x = _solve_small([[gram[i][j] for j in cols] for i in cols], [rhs[i] for i in cols])
        if x is None or min(x) < 0.0 or not all(math.isfinite(v) for v in x):
            continue
        r = an[:, cols] @ np.array(x) - b
        cost = float(r @ r)
        if cost < best_cost:
            best_cost = cost
            best = np.zeros(p)
            best[cols] = x
    return np.asarray(best / norms, dtype=np.float64)


#: Correlation of ln(avar) estimates (overlapping, m << N) at two taus d octaves apart,
#: for white (alpha 0), flicker (-1) and random-walk (-2) rate noise; measured here on
#: 1500 simulated series of 2^16 samples each (m from 2 to 4096), d = 0, 0.5, 1, ..., 8.
_CORR_D = np.array([0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
_CORR = {
    0: np.array([1.0, 0.83, 0.52, 0.17, 0.04, 0.0, 0.0, 0.0, 0.0, 0.0]),
    -1: np.array([1.0, 0.905, 0.69, 0.32, 0.13, 0.05, 0.02, 0.0, 0.0, 0.0]),
    -2: np.array([1.0, 0.968, 0.88, 0.67, 0.48, 0.34, 0.24, 0.17, 0.12, 0.085]),
}


def _correlation(tau: FloatArray, alpha: npt.NDArray[np.int64]) -> FloatArray:
    """(T, T) correlation of the ln(avar) estimates: the table row of the mean noise type
    of the two points (interpolated between rows), at their distance in octaves."""
    d = np.abs(np.log2(tau)[:, None] - np.log2(tau)[None, :])
    a = np.clip(0.5 * (alpha[:, None] + alpha[None, :]), -2.0, 0.0)
    rows = {k: np.interp(d, _CORR_D, v, right=0.0) for k, v in _CORR.items()}
    lo = np.floor(a)
    frac = a - lo
    out = np.zeros_like(d)
    for k in (0, -1, -2):
        out += np.where(lo == k, (1.0 - frac) * rows[k], 0.0)
        out += np.where(lo + 1 == k, frac * rows[k], 0.0)
    return np.asarray(out, dtype=np.float64)


def _whitener(tau: FloatArray, alpha: npt.NDArray[np.int64]) -> FloatArray:
    """L^-1 with L L' the (positive definite) correlation matrix of the points' ln(avar)
    estimates: whitened residuals are independent with unit variance."""
    r = _correlation(tau, alpha)
    lam, vec = np.linalg.eigh(r)
    r = (vec * np.maximum(lam, 0.05)) @ vec.T
    sd = np.sqrt(np.diag(r))
    r = r / sd[:, None] / sd[None, :]
    return np.linalg.inv(np.linalg.cholesky(r))


@dataclass
class _Data:
    m: FloatArray
    sigma: FloatArray  # data Allan deviation
    nu: FloatArray  # EDF
    ref: FloatArray  # the deviation the residuals are relative to
    dt: float
    alpha: npt.NDArray[np.int64]  # noise type per point
    whiten: FloatArray  # (T, T): decorrelates the standardized residuals

    @property
    def c(self) -> FloatArray:
        return np.sqrt(2.0 * self.nu) / self.ref


def _solve_amplitudes(d: _Data, g: FloatArray, free: Sequence[int]) -> tuple[FloatArray, float]:
    """Amplitudes >= 0 of the ``free`` terms minimizing the deviation-domain residuals
    c_i (sigma_model_i - sigma_i), decorrelated with ``d.whiten``; returns (amplitudes
    (3,), cost)."""
    c = d.c
    wh = d.whiten
    cols = list(free)
    amp = np.zeros(3)
    if not cols:
        r = wh @ (c * (0.0 - d.sigma))
        return amp, float(r @ r)
    gs = g[:, cols]
    # start: the variance-domain linearization sqrt(G a) - s ~ (G a - s^2) / (2 s)
    w = c / (2.0 * d.sigma)
    x = _nnls(wh @ (gs * w[:, None]), wh @ (w * d.sigma**2))

    def cost(xv: FloatArray) -> float:
        r = wh @ (c * (np.sqrt(np.maximum(gs @ xv, 0.0)) - d.sigma))
        return float(r @ r)

    cur = cost(x)
    for _ in range(6):  # Gauss-Newton on a >= 0
        s = np.sqrt(np.maximum(gs @ x, 1e-300))
        jac = wh @ ((c / (2.0 * s))[:, None] * gs)
        r = wh @ (c * (s - d.sigma))
        x_new = _nnls(jac, jac @ x - r)
        step = 1.0
        new = cost(x_new)
        while new > cur and step > 1e-3:
            step *= 0.5
            x_try = x + step * (x_new - x)
            new = cost(x_try)
            if new <= cur:
                x_new = x_try
        if new > cur:
            break
        done = abs(cur - new) <= 1e-9 * max(cur, 1e-300)
        x, cur = x_new, new
        if done:
            break
    amp[cols] = x
    return amp, cur


def _fit_terms(
    d: _Data, terms: set[str], tau_bounds: tuple[float, float]
) -> tuple[FloatArray, float, float, bool]:
    """Best amplitudes (3,), tau_c (inf without GM), cost, and whether tau_c hit a bound."""
    free = [j for j, t in enumerate(FIT_TERMS) if t in terms]
    if "gauss_markov" not in terms:
        g = _shapes(d.m, d.dt, math.inf)
        amp, cost = _solve_amplitudes(d, g, free)
        return amp, math.inf, cost, False
    lo, hi = math.log(tau_bounds[0]), math.log(tau_bounds[1])
    grid = np.linspace(lo, hi, max(8, min(25, int(4 * (hi - lo)) + 2)))  # ~4 per e-fold

    def at(log_tc: float) -> tuple[float, FloatArray]:
        amp, cost = _solve_amplitudes(d, _shapes(d.m, d.dt, math.exp(log_tc)), free)
        return cost, amp

    results = [at(float(v)) for v in grid]
    costs = np.array([r[0] for r in results])
    i = int(np.argmin(costs))
    a, b = float(grid[max(i - 1, 0)]), float(grid[min(i + 1, grid.size - 1)])
    gr = (math.sqrt(5.0) - 1.0) / 2.0
    x1, x2 = b - gr * (b - a), a + gr * (b - a)
    f1, f2 = at(x1)[0], at(x2)[0]
    for _ in range(30):
        if f1 < f2:
            b, x2, f2 = x2, x1, f1
            x1 = b - gr * (b - a)
            f1 = at(x1)[0]
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + gr * (b - a)
            f2 = at(x2)[0]
        if b - a < 5e-3:  # tau_c to 0.5%
            break
    best = 0.5 * (a + b)
    cost, amp = at(best)
    if costs[i] < cost:
        best, cost, amp = float(grid[i]), float(costs[i]), results[i][1]
    span = (hi - lo) / (grid.size - 1)
    at_bound = best - lo < 0.5 * span or hi - best < 0.5 * span
    return amp, math.exp(best), cost, at_bound


def _fit_axis(
    d: _Data, tau_bounds: tuple[float, float], min_significance: float
) -> tuple[FloatArray, float, set[str], float]:
    """Fit every term, then drop the least significant one while its significance
    sqrt(cost without it - cost with it) is below ``min_significance``."""
    terms = set(FIT_TERMS)
    fits: dict[frozenset[str], tuple[FloatArray, float, float, bool]] = {}

    def fit(ts: set[str]) -> tuple[FloatArray, float, float, bool]:
        key = frozenset(ts)
        if key not in fits:
            fits[key] = _fit_terms(d, ts, tau_bounds)
        return fits[key]

    while True:
        amp, tc, cost, at_bound = fit(terms)
        if "gauss_markov" in terms and (at_bound or amp[1] == 0.0):
            terms.discard("gauss_markov")
            continue
        zero = [t for j, t in enumerate(FIT_TERMS) if t in terms and amp[j] == 0.0]
        if zero and len(terms) > 1:
            terms.discard(zero[0])
            continue
        if len(terms) == 1:
            return amp, tc, terms, cost
        weakest, z = "", math.inf
        for t in sorted(terms):
            delta = fit(terms - {t})[2] - cost
            zt = math.sqrt(max(delta, 0.0))
            if zt < z:
                weakest, z = t, zt
        if z < min_significance:
            terms.discard(weakest)
            continue
        return amp, tc, terms, cost


# ---- intervals -----------------------------------------------------------------------------
def _chi2_interval(value: float, nu: float, ci: float, power: float) -> Estimate:
    """value * (nu / chi2)^power at the two tails (power 1/2 for an amplitude read from a
    variance, 1 for a variance-like quantity)."""
    if not (math.isfinite(nu) and nu > 0.0) or value == 0.0:
        return Estimate(value, value, value)
    nu = min(nu, 1e12)
    p = min(ci, 1.0 - ci) / 2.0
    lo = value * (nu / _stats.chi2_ppf(1.0 - p, nu)) ** power
    hi = value * (nu / _stats.chi2_ppf(p, nu)) ** power
    return Estimate(value, lo, hi)


def _upper_limit(d: _Data, g_col: FloatArray, model_avar: FloatArray, ci: float) -> float:
    """Largest amplitude (variance units) a term of shape g_col can have before the model
    passes the data's upper confidence limit at some point."""
    p = min(ci, 1.0 - ci) / 2.0
    room = np.array(
        [
            mv * (nu / _stats.chi2_ppf(p, min(nu, 1e12)) - 1.0)
            for mv, nu in zip(model_avar, d.nu, strict=True)
        ]
    )
    ok = g_col > 0
    if not np.any(ok):
        return math.inf
    return float(np.min(room[ok] / g_col[ok]))


def _intervals(
    d: _Data,
    corr: FloatArray,
    amp: FloatArray,
    tc: float,
    terms: set[str],
    ci: float,
    tau_bounds: tuple[float, float],
) -> tuple[Estimate, Estimate, Estimate, Estimate]:
    """Intervals of N, sigma_b, tau_c and K from the linearized covariance of the
    weighted least-squares estimate in the log-parameters: the sandwich
    (J'WJ)^-1 J'W S W J (J'WJ)^-1 with W = diag(nu/2) and S the covariance of the
    points' ln(avar) (2/nu on the diagonal, the ``corr`` correlations off it); each
    parameter then gets the EDF nu = 2 / var(ln p) of its variance-like form and a
    chi-square interval."""
    g = _shapes(d.m, d.dt, tc)
    parts = g * amp[None, :]
    model = parts.sum(axis=1)
    f = parts / np.maximum(model, 1e-300)[:, None]
    cols: list[tuple[str, FloatArray]] = []
    for j, name in enumerate(FIT_TERMS):
        if name in terms and amp[j] > 0:
            cols.append((name, f[:, j]))
    gm = "gauss_markov" in terms and amp[1] > 0
    if gm:
        h = 1e-4
        g_hi = gauss_markov_avar(d.m, 1.0, tc * math.exp(h), d.dt)
        g_lo = gauss_markov_avar(d.m, 1.0, tc * math.exp(-h), d.dt)
        with np.errstate(divide="ignore", invalid="ignore"):
            s = (np.log(g_hi) - np.log(g_lo)) / (2 * h)  # d ln g / d ln tau_c
        cols.append(("tau_c", f[:, 1] * np.where(np.isfinite(s), s, 0.0)))
    var: dict[str, float] = {}
    if cols:
        jac = np.stack([c for _, c in cols], axis=1)  # d ln(avar) / d ln(parameter)
        v = 2.0 / d.nu  # var ln(avar_hat)
        sj = jac / np.sqrt(v)[:, None]  # standardized: the points then have correlation corr
        a_inv = np.linalg.pinv(sj.T @ sj)
        pcov = a_inv @ (sj.T @ corr @ sj) @ a_inv  # the sandwich of weighted least squares
        for i, (name, col) in enumerate(cols):
            var[name] = float(max(pcov[i, i], 1e-300))
            if name != "tau_c":
                # never narrower than reading the term off its single best point
                var[name] = max(var[name], float(np.min(v / np.maximum(col * col, 1e-300))))
    out: list[Estimate] = []
    for j, name in ((0, "white"), (2, "random_walk")):
        value = math.sqrt(amp[j])
        if name in var:
            out.append(_chi2_interval(value, 2.0 / var[name], ci, 0.5))
        else:
            up = _upper_limit(d, g[:, j], model, ci)
            out.append(Estimate(0.0, 0.0, math.sqrt(max(up, 0.0))))
    white, rw = out
    if gm:
        sb = _chi2_interval(math.sqrt(amp[1]), 2.0 / var["gauss_markov"], ci, 0.5)
        tce = _chi2_interval(tc, 2.0 / var["tau_c"], ci, 1.0)
    else:
        ups = []
        for tcv in np.geomspace(tau_bounds[0], tau_bounds[1], 12):
            gcol = gauss_markov_avar(d.m, 1.0, float(tcv), d.dt)
            ups.append(_upper_limit(d, gcol, model, ci))
        sb = Estimate(0.0, 0.0, math.sqrt(max(max(ups), 0.0)))
        tce = Estimate(math.nan, math.nan, math.nan)
    return white, sb, tce, rw


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
