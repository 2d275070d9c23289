"""Noise type, EDF and confidence intervals (split out of
:mod:`fastnoise.analysis.allan`, which re-exports it)."""

from __future__ import annotations

import math
import numbers

import numpy as np
import numpy.typing as npt

from fastnoise.analysis import _stats
from fastnoise.analysis._allan_types import ONE_SIGMA_CI, AlphaSpec, FloatArray, IntArray
from fastnoise.core import validate as _validate


def _ci(ci: object) -> float:
    v = _validate.finite("ci", ci)
    if not 0.0 < v < 1.0:
        raise ValueError(f"ci={ci!r} is not allowed: it must lie in (0, 1)")
    return v


def noise_type_from_slope(avar: npt.ArrayLike, tau: npt.ArrayLike) -> IntArray:
    """Power-law noise type alpha per tau from the local log-log slope of an Allan
    variance curve: alpha = round(-mu - 1) with mu = d ln avar / d ln tau (centered
    differences; one-sided at the ends), clipped to [-2, 1].

    Parameters
    ----------
    avar : (T,) or (T, k) array, U^2
        Allan variance (zeros count as the smallest positive value).
    tau : (T,) array, s
        Averaging times, increasing.

    Returns
    -------
    (T,) or (T, k) int64 array: 0 white rate noise (slope -1), -1 flicker (flat), -2
    random walk of the rate (slope +1), +1 flicker phase noise.
    """
    v = np.asarray(avar, dtype=np.float64)
    t = np.asarray(tau, dtype=np.float64)
    if t.ndim != 1 or v.shape[0] != t.shape[0]:
        raise ValueError(f"avar has shape {v.shape} and tau {t.shape}: they must match in T")
    if t.size < 2:
        return np.zeros(v.shape, dtype=np.int64)
    tiny = np.finfo(np.float64).tiny
    lv = np.log(np.maximum(v, tiny))
    mu = np.gradient(lv, np.log(t), axis=0)
    return np.asarray(np.clip(np.round(-mu - 1.0), -2, 1), dtype=np.int64)


def _alphas(alpha: AlphaSpec, adev: FloatArray, tau: FloatArray) -> IntArray:
    if isinstance(alpha, str):
        if alpha != "slope":
            raise ValueError(f"alpha={alpha!r} is not allowed: use 'slope', an int or None")
        return noise_type_from_slope(np.square(adev), tau)
    if isinstance(alpha, numbers.Integral) and not isinstance(alpha, bool):
        a = np.full(adev.shape, int(alpha), dtype=np.int64)
    else:
        raw = np.asarray(alpha)
        if raw.dtype == np.bool_ or not np.issubdtype(raw.dtype, np.integer):
            raise TypeError(f"alpha={alpha!r} is not allowed: use 'slope', an int or ints")
        a = np.broadcast_to(raw.reshape(raw.shape + (1,) * (2 - raw.ndim)), adev.shape)
        a = a.astype(np.int64)
    if np.any((a < -2) | (a > 2)):
        raise ValueError(f"alpha={alpha!r} is not allowed: every value must lie in [-2, 2]")
    return a


# ---- Greenhall's EDF ---------------------------------------------------------------------
def _sw(t: FloatArray, alpha: int) -> FloatArray:
    """Greenhall 2004 eq. 7."""
    at = np.abs(t)
    with np.errstate(divide="ignore", invalid="ignore"):
        if alpha == 2:
            return -at
        if alpha == 1:
            return np.where(t == 0, 0.0, t**2 * np.log(np.where(t == 0, 1.0, at)))
        if alpha == 0:
            return at**3
        if alpha == -1:
            return np.where(t == 0, 0.0, t**4 * np.log(np.where(t == 0, 1.0, at)))
        if alpha == -2:
            return at**5
        if alpha == -3:
            return np.where(t == 0, 0.0, t**6 * np.log(np.where(t == 0, 1.0, at)))
        if alpha == -4:
            return at**7
    raise ValueError(f"alpha={alpha!r} is not allowed: it must lie in [-4, 2]")


def _sx(t: FloatArray, f: float, alpha: int) -> FloatArray:
    """Greenhall 2004 eq. 8."""
    if f == math.inf:
        return _sw(t, alpha + 2)
    a = 2 * _sw(t, alpha)
    b = _sw(t - 1.0 / f, alpha)
    c = _sw(t + 1.0 / f, alpha)
    return f**2 * (a - b - c)


def _sz(t: FloatArray, f: float, alpha: int) -> FloatArray:
    """Greenhall 2004 eq. 9, d = 2."""
    a = 6 * _sx(t, f, alpha)
    b = 4 * _sx(t - 1.0, f, alpha)
    c = 4 * _sx(t + 1.0, f, alpha)
    dd = _sx(t - 2.0, f, alpha)
    e = _sx(t + 2.0, f, alpha)
    return a - b - c + dd + e


def _basic_sum(jj: float, mm: float, s: float, f: float, alpha: int) -> float:
    """Greenhall 2004 eq. 10, summed in allantools' order."""
    first = float(_sz(np.array([0.0]), f, alpha)[0]) ** 2
    second = (1 - jj / mm) * float(_sz(np.array([jj / s]), f, alpha)[0]) ** 2
    j = np.arange(1, int(jj), dtype=np.float64)
    terms = 2 * (1.0 - j / mm) * _sz(j / s, f, alpha) ** 2
    third = 0.0
    for v in terms.tolist():
        third += v
    return first + second + third


_TABLE2 = {2: (35.0 / 18.0, 1.0), 1: (790.0, 410.0), 0: (2.0 / 3.0, 1.0 / 3.0)}
_TABLE2.update({-1: (0.852, 0.375), -2: (1.079, 0.368)})


def edf_greenhall(alpha: int, m: int, n_phase: int) -> float:
    """Equivalent degrees of freedom of the overlapping Allan variance at averaging
    factor ``m`` (tau = m*dt) of ``n_phase`` phase points (N rate samples give N + 1),
    for power-law noise type ``alpha`` (Greenhall and Riley 2004, "Uncertainty of
    stability variances based on finite differences"), as
    ``allantools.edf_greenhall(alpha, 2, m, n_phase, overlapping=True)`` computes it.

    Parameters
    ----------
    alpha : int in [-2, 2]
        S_y(f) ~ f^alpha: 0 white rate noise (sigma ~ tau^-1/2), -1 flicker
        (flat), -2 random-walk rate (tau^+1/2), +1 flicker phase, +2 white phase.
    m : int >= 1
        Averaging factor.
    n_phase : int
        Phase points, > 2m.

    Returns
    -------
    float, dimensionless (> 0).
    """
    a = _validate.integer("alpha", alpha, -2, 3)
    mi = _validate.integer("m", m, 1, 2**62)
    n = _validate.integer("n_phase", n_phase, 2 * mi + 1, 2**62)
    d = 2
    f = float(mi)
    s = float(mi)
    ll = mi / f + mi * d
    big_m = 1 + math.floor(s * (n - ll) / mi)
    jj = min(big_m, (d + 1) * s)
    j_max = 100
    r = big_m / s
    if a <= 0:
        if jj <= j_max:
            mp = float(mi) if mi * (d + 1) <= j_max else math.inf
            inv = (1.0 / (float(_sz(np.array([0.0]), mp, a)[0]) ** 2 * big_m)) * _basic_sum(
                jj, big_m, s, mp, a
            )
        elif r > d + 1:
            a0, a1 = _TABLE2[a]
            inv = (1.0 / r) * (a0 - a1 / r)
        else:
            mp = j_max / r
            inv = (1.0 / (float(_sz(np.array([0.0]), math.inf, a)[0]) ** 2 * j_max)) * (
                _basic_sum(j_max, j_max, mp, math.inf, a)
            )
        return 1.0 / inv
    if a == 1:
        b0, b1 = 15.23, 12.0
        if jj <= j_max:
            inv = (1.0 / (float(_sz(np.array([0.0]), f, 1)[0]) ** 2 * big_m)) * _basic_sum(
                jj, big_m, s, f, 1
            )
        elif r > d + 1:
            a0, a1 = _TABLE2[1]
            inv = (1.0 / ((b0 + b1 * math.log(mi)) ** 2 * r)) * (a0 - a1 / r)
        else:
            mp = j_max / r
            inv = (1.0 / ((b0 + b1 * math.log(mi)) ** 2 * j_max)) * _basic_sum(
                j_max, j_max, mp, mp, 1
            )
        return 1.0 / inv
    # alpha == 2
    if math.ceil(r) <= d:
        raise ValueError(
            f"alpha=2 with m={mi} and n_phase={n} is not allowed: Greenhall's EDF for white "
            "phase noise needs N - 2m > 2m (a shorter tau)"
        )
    a0, a1 = _TABLE2[2]
    return 1.0 / ((1.0 / big_m) * (a0 - a1 / r))


def confidence_interval(
    dev: npt.ArrayLike, edf: npt.ArrayLike, ci: float = ONE_SIGMA_CI
) -> tuple[FloatArray, FloatArray]:
    """Chi-square confidence interval of a deviation with ``edf`` equivalent degrees of
    freedom (NIST SP 1065 eq. 45; ``allantools.confidence_interval``).

    Parameters
    ----------
    dev : array_like
        Deviations (e.g. Allan deviations, in their unit U), >= 0.
    edf : array_like
        Equivalent degrees of freedom (> 0), broadcast against ``dev``.
    ci : float
        Probability content in (0, 1) (default 0.683, one sigma).

    Returns
    -------
    (low, high) : float64 arrays of the broadcast shape, in U:
        ``dev * sqrt(edf / chi2.ppf(1 - p, edf))`` and ``dev * sqrt(edf / chi2.ppf(p,
        edf))`` with p = min(ci, 1 - ci) / 2.
    """
    c = _ci(ci)
    d = np.asarray(dev, dtype=np.float64)
    e = np.asarray(edf, dtype=np.float64)
    d, e = np.broadcast_arrays(d, e)
    if not np.all(np.isfinite(e)) or np.any(e <= 0.0):
        raise ValueError(f"edf={e.tolist()!r} is not allowed: every value must be finite and > 0")
    p_low = min(abs(c), abs(c - 1.0)) / 2.0
    p_high = 1.0 - p_low
    low = np.empty(d.shape)
    high = np.empty(d.shape)
    cache: dict[float, tuple[float, float]] = {}
    for idx in np.ndindex(d.shape):
        nu = float(e[idx])
        if nu not in cache:
            cache[nu] = (_stats.chi2_ppf(p_low, nu), _stats.chi2_ppf(p_high, nu))
        chi_l, chi_h = cache[nu]
        var = float(d[idx]) ** 2
        low[idx] = math.sqrt(nu * var / chi_h)
        high[idx] = math.sqrt(nu * var / chi_l)
    return low, high
