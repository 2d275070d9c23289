"""Fit an IMU noise model to a stationary log: white noise N, first-order Gauss-Markov
bias (sigma_b, tau_c) and bias random walk K, per axis.

Method (docs/fit.rst says why)
------------------------------
1. The likelihood: a Whittle likelihood of each column's first difference (stationary
   for all three terms): every one of the lowest 48 Fourier bins untapered, with the
   leakage of a non-periodic log integrated out (a restricted likelihood), the log's
   end-to-end change as one more ordinate, and above them the Hann-tapered periodogram
   at the odd bins (nearly independent ordinates), averaged in bands; the model is the
   exact spectrum of the sampled terms (``fastnoise.analysis._whittle``).
2. The terms: white, white + Gauss-Markov, white + random walk and all three are fitted
   by maximum likelihood (amplitudes by Fisher scoring, tau_c searched from dt to T/4);
   the model with the smallest penalized negative log-likelihood is kept (2 ln L must
   rise by min_significance^2 for a random walk, min_significance^2 + 4 for a
   Gauss-Markov term; a Gauss-Markov tau_c at an end of its range is no candidate). By
   default (select="triad") the x, y, z of each triad share the term types: the set
   whose summed penalized likelihood over the three axes is smallest, each axis taking
   its best valid model within it (``_choose``).
3. The intervals (probability ``ci``, default 0.683): the inverse Fisher information in
   the log-parameters; an amplitude with var(ln a) gets the chi-square interval with
   nu = 2 / var(ln a), tau_c a log-normal one. A dropped term gets 0 with [0, upper], the
   upper limit z_ci times its amplitude's standard deviation at 0.
4. The overlapping Allan deviation of every column (``NoiseFit.allan``, with EDF and
   intervals from the fitted model's noise types) is still computed for plots and for
   the derived bias instability B: the fitted model's Allan deviation where its log-log
   slope is closest to 0, divided by 0.664 (IEEE Std 952), with the EDF interval at that
   tau; NaN when the slope stays beyond +/-0.25 (e.g. white noise alone).

A Gauss-Markov bias whose tau_c is not well inside the log cannot be told from a random
walk (K^2 = 2 sigma_b^2 / tau_c over the log): the fit then reports the random walk.

Not modeled: quantization (it shows as white noise), rate ramps, flicker noise (a
Gauss-Markov term stands in for a bias-instability floor), angle quantization. The log
must be stationary: the Gauss-Markov theory is its steady state.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from fastnoise.analysis import _stats, _whittle
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
#: The Gauss-Markov tau_c is searched from dt to the log's length over this ratio; a
#: best tau_c at either end drops the term (shorter: white noise; longer: a random walk).
GM_TAU_MAX_RATIO = 4.0
#: A Gauss-Markov term must raise 2 ln(likelihood) by min_significance^2 plus this (a
#: random walk by min_significance^2): so it is chosen over a random walk only when it
#: fits better by 4, which a random walk's data do by chance in about 3% of logs
#: (measured: 5 of 180 axes of the grid's two random-walk cases, seeds 7000-7029).
GM_EXTRA_PENALTY = 4.0
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
        Gamma deviance of the spectral fit per frequency band (about 1 for a good fit).
    significance : dict of str to float
        Per coloured term ("gauss_markov", "random_walk"): sqrt(2 x the log-likelihood
        ratio) of the chosen model against the same model without the term (a term kept)
        or with it added (a term dropped). A dropped term was not detectable in this
        log: its value is 0 and its interval [0, upper limit].
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
    significance: dict[str, float] = field(default_factory=dict)

    @property
    def not_detected(self) -> tuple[str, ...]:
        """The coloured terms the log does not support (see ``significance``)."""
        return tuple(t for t in ("gauss_markov", "random_walk") if t not in self.terms)

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
            "significance": dict(self.significance),
            "not_detected": list(self.not_detected),
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


# ---- term selection and intervals (Whittle likelihood, see _whittle) ------------------------
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


def _lognormal_interval(value: float, var_ln: float, ci: float) -> Estimate:
    """exp(ln value +/- z sd) with z the two-sided normal quantile of ``ci``."""
    z = math.sqrt(_stats.chi2_ppf(ci, 1.0))
    sd = math.sqrt(max(var_ln, 0.0))
    return Estimate(value, value * math.exp(-z * sd), value * math.exp(z * sd))


def _penalty(terms: frozenset[str], min_sig: float) -> float:
    """Half the information-criterion penalty of a set of terms (in negative
    log-likelihood units): min_sig^2 for the random walk (one amplitude), min_sig^2 +
    GM_EXTRA_PENALTY for a Gauss-Markov term (an amplitude and tau_c searched over a
    range; a random walk is its limit tau_c -> inf, so it must also beat that)."""
    c = 0.0
    if "random_walk" in terms:
        c += min_sig**2
    if "gauss_markov" in terms:
        c += min_sig**2 + GM_EXTRA_PENALTY
    return 0.5 * c


_MODELS = (
    frozenset({"white"}),
    frozenset({"white", "gauss_markov"}),
    frozenset({"white", "random_walk"}),
    frozenset({"white", "gauss_markov", "random_walk"}),
)


def _candidates(
    spec: _whittle.BandSpectrum, tau_bounds: tuple[float, float]
) -> dict[frozenset[str], _whittle.ModelFit]:
    """Maximum-likelihood fits of the four candidate models of one column."""
    return {t: _whittle.fit_terms(spec, t, tau_bounds) for t in _MODELS}


def _valid(fit: _whittle.ModelFit) -> bool:
    """A fit is a candidate when its Gauss-Markov tau_c is inside its search range and its
    coloured amplitudes are all > 0 (else a smaller model says the same)."""
    if fit.at_bound and "gauss_markov" in fit.terms:
        return False
    return all(
        fit.amp[j] > 0.0
        for j, name in enumerate(FIT_TERMS)
        if name in fit.terms and name != "white"
    )


def _best_within(
    fits: dict[frozenset[str], _whittle.ModelFit], allowed: frozenset[str]
) -> _whittle.ModelFit:
    """The valid fit of smallest negative log-likelihood among the models whose terms are
    all in ``allowed`` (white alone is always valid)."""
    ok = [f for t, f in fits.items() if t <= allowed and _valid(f)]
    return min(ok, key=lambda f: f.nll)


def _choose(
    group: Sequence[dict[frozenset[str], _whittle.ModelFit]], min_sig: float
) -> list[_whittle.ModelFit]:
    """The term set of a group of columns (one column, or the x, y, z of a triad) and each
    column's fit: the allowed set T minimizing sum over the columns of (nll of the
    column's best valid model within T) + the penalty of T, once per column; each
    column then reports its best valid model within T."""
    best: list[_whittle.ModelFit] = []
    score = math.inf
    for allowed in _MODELS:
        fits = [_best_within(g, allowed) for g in group]
        s = sum(f.nll for f in fits) + len(group) * _penalty(allowed, min_sig)
        if s < score:
            best, score = fits, s
    return best


def _significance(
    chosen: _whittle.ModelFit, fits: dict[frozenset[str], _whittle.ModelFit]
) -> dict[str, float]:
    """sqrt(2 (nll without - nll with)) of each coloured term against the chosen model:
    the term removed from it (kept terms) or added to it (dropped terms)."""
    out: dict[str, float] = {}
    for term in ("gauss_markov", "random_walk"):
        if term in chosen.terms:
            other = fits[chosen.terms - {term}]
            delta = other.nll - chosen.nll
        else:
            other = fits[chosen.terms | {term}]
            delta = chosen.nll - other.nll
        out[term] = math.sqrt(max(2.0 * delta, 0.0))
    return out


def _spectral_intervals(
    spec: _whittle.BandSpectrum,
    fit: _whittle.ModelFit,
    ci: float,
    tau_bounds: tuple[float, float],
) -> tuple[Estimate, Estimate, Estimate, Estimate]:
    """N, sigma_b, tau_c, K with intervals. Present terms: the inverse Fisher information
    of the Whittle likelihood in the log-parameters gives var(ln a) of each amplitude,
    and the chi-square interval with nu = 2 / var(ln a) (a Gamma-distributed variance
    estimate has exactly that); tau_c: log-normal. Absent terms: [0, z sd(a)] with sd(a)
    the amplitude's standard deviation at 0 from the Fisher information and z the
    one-sided normal quantile of ``ci`` (for the Gauss-Markov term the largest over
    tau_c in its search range)."""
    dt = spec.dt
    names, cov = _whittle.log_covariance(spec, fit)
    var = {n: float(cov[i, i]) for i, n in enumerate(names)}
    scale = (dt, 1.0, 1.0 / dt)  # a_w -> N^2, a_g -> sigma_b^2, a_r -> K^2
    z1 = math.sqrt(_stats.chi2_ppf(2.0 * ci - 1.0, 1.0)) if ci > 0.5 else 0.0
    g0 = _whittle.shapes(spec, fit.tau_c)
    out: list[Estimate] = []
    for j, name in enumerate(FIT_TERMS):
        if name == "gauss_markov":
            continue
        if name in var:
            out.append(_chi2_interval(math.sqrt(fit.amp[j] * scale[j]), 2.0 / var[name], ci, 0.5))
        else:
            up = z1 * _whittle.amplitude_sd(spec, fit, g0, j)
            out.append(Estimate(0.0, 0.0, math.sqrt(up * scale[j])))
    white, rw = out
    if "gauss_markov" in var:
        sb = _chi2_interval(math.sqrt(fit.amp[1]), 2.0 / var["gauss_markov"], ci, 0.5)
        tce = _lognormal_interval(fit.tau_c, var["tau_c"], ci)
    else:
        ups = [
            z1 * _whittle.amplitude_sd(spec, fit, _whittle.shapes(spec, float(t)), 1)
            for t in np.geomspace(tau_bounds[0], tau_bounds[1], 8)
        ]
        sb = Estimate(0.0, 0.0, math.sqrt(max(ups)))
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
    spec: _whittle.BandSpectrum | None,
    chosen: tuple[_whittle.ModelFit, dict[frozenset[str], _whittle.ModelFit]] | None,
    sigma: FloatArray,
    tau: FloatArray,
    dt: float,
    edf_of: Callable[[npt.NDArray[np.int64]], FloatArray],
    tau_bounds: tuple[float, float],
    ci: float,
) -> tuple[AxisFit, npt.NDArray[np.int64], FloatArray]:
    """Report one column from its band spectrum ``spec`` (None: a constant column) and
    its ``chosen`` fit with the candidate fits it was chosen from; its
    Allan deviation ``sigma`` (U) at ``tau`` (s) gives the EDF and the bias-instability
    figure. Returns the AxisFit, the noise type per point and the EDF per point."""
    mf = np.asarray(np.round(tau / dt), dtype=np.float64)
    nan = Estimate(math.nan, math.nan, math.nan)
    if spec is None or chosen is None or not np.any(sigma > 0) or not np.any(spec.power > 0):
        alpha0 = np.zeros(tau.size, dtype=np.int64)
        zero = Estimate(0.0, 0.0, 0.0)
        return AxisFit(name, zero, zero, nan, zero, nan, math.nan, (), 0.0), alpha0, edf_of(alpha0)
    fit, fits = chosen
    tc = fit.tau_c
    amp = np.array([fit.amp[0] * dt, fit.amp[1], fit.amp[2] / dt])  # N^2, sigma_b^2, K^2
    terms = {t for j, t in enumerate(FIT_TERMS) if t in fit.terms and amp[j] > 0}
    white, sb, tce, rw = _spectral_intervals(spec, fit, ci, tau_bounds)
    alpha = _model_alpha(mf, dt, tc, amp)
    # goodness of fit: the gamma deviance per band (about 1 for a good fit)
    ratio = spec.power / np.maximum(_whittle.shapes(spec, tc) @ fit.amp, 1e-300)
    dev = 2.0 * spec.count * (ratio - 1.0 - np.log(np.maximum(ratio, 1e-300)))
    chi2 = float(np.sum(dev)) / max(spec.power.size, 1)
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
    axis = AxisFit(
        name=name,
        noise_density=white,
        bias_stddev=sb,
        bias_correlation_time=tce,
        random_walk_density=rw,
        bias_instability=be,
        bias_instability_tau=b_tau,
        terms=tuple(t for t in FIT_TERMS if t in terms),
        reduced_chi2=chi2,
        significance=_significance(fit, fits),
    )
    return axis, alpha, edf_of(alpha)


def fit_noise(
    data: npt.ArrayLike | str | os.PathLike[str],
    rate: float | None = None,
    *,
    taus: TauSpec = "octave",
    ci: float = ONE_SIGMA_CI,
    min_significance: float = 3.0,
    select: str = "triad",
    columns: Sequence[int] | None = None,
    time_column: bool = False,
    threads: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> NoiseFit:
    """Fit white noise N, a Gauss-Markov bias (sigma_b, tau_c) and a rate random walk K
    to each axis of a stationary log, by maximum likelihood on its spectrum (the
    overlapping Allan deviation is computed too, for plots and the bias instability).

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
        A random walk is kept when it raises 2 ln(likelihood) by at least
        min_significance^2, a Gauss-Markov term by min_significance^2 + 4 (default 3,
        i.e. 9 and 13; >= 0). See docs/fit.rst.
    select : "triad" (default) or "axis"
        How the terms are chosen. "triad": when the column count is a multiple of 3,
        the three columns x, y, z of each triad (one sensor) share one set of term
        types, chosen by the summed penalized likelihood of the three (each axis still
        gets its own amplitudes, tau_c and intervals, and an axis whose fit has no room
        for a term reports it as not detected). Pooling the three axes' evidence is what
        tells a Gauss-Markov bias with tau_c near T/30 from a random walk (docs/fit.rst).
        "axis": every column on its own evidence (always so for other column counts).
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
    if select not in ("triad", "axis"):
        raise ValueError(
            f"select={select!r} is not allowed: use 'triad' (the terms chosen once per "
            "x, y, z) or 'axis' (per column)"
        )
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
    # the Gauss-Markov correlation time is searched from dt to T / 4
    tau_bounds = (dt, max(n * dt / GM_TAU_MAX_RATIO, 4.0 * dt))
    edf_cache: dict[tuple[int, int], float] = {}

    def edf_of(alpha: npt.NDArray[np.int64]) -> FloatArray:
        out = np.empty(m.size)
        for i in range(m.size):
            key = (int(alpha[i]), int(m[i]))
            if key not in edf_cache:
                edf_cache[key] = edf_greenhall(key[0], key[1], n + 1)
            out[i] = edf_cache[key]
        return out

    say("spectra")

    def spectrum(c: int) -> _whittle.BandSpectrum | None:
        col = y[:, c]
        if not np.any(col != col[0]):
            return None
        return _whittle.band_spectrum(col, dt)

    if threads > 1 and k > 1:
        with ThreadPoolExecutor(max_workers=min(threads, k)) as pool:
            spectra = list(pool.map(spectrum, range(k)))
    else:
        spectra = [spectrum(c) for c in range(k)]
    say("fitting")
    usable = [
        sp is not None and bool(np.any(adev[:, c] > 0)) and bool(np.any(sp.power > 0))
        for c, sp in enumerate(spectra)
    ]
    cands: list[dict[frozenset[str], _whittle.ModelFit] | None] = [
        _candidates(sp, tau_bounds) if ok and sp is not None else None
        for sp, ok in zip(spectra, usable, strict=True)
    ]
    width = 3 if select == "triad" and k % 3 == 0 else 1
    chosen: list[tuple[_whittle.ModelFit, dict[frozenset[str], _whittle.ModelFit]] | None]
    chosen = [None] * k
    for g0 in range(0, k, width):
        pairs = [(c, cd) for c in range(g0, g0 + width) if (cd := cands[c]) is not None]
        if not pairs:
            continue
        picks = _choose([cd for _, cd in pairs], min_sig)
        for (c, cd), f in zip(pairs, picks, strict=True):
            chosen[c] = (f, cd)
    axes: list[AxisFit] = []
    alphas = np.empty((m.size, k), dtype=np.int64)
    edfs = np.empty((m.size, k))
    for c, name in enumerate(_axis_names(k)):
        ax, alphas[:, c], edfs[:, c] = _fit_column(
            name, spectra[c], chosen[c], adev[:, c], tau, dt, edf_of, tau_bounds, ci
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
