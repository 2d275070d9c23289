"""Overlapping Allan deviation of rate data, Greenhall's equivalent degrees of freedom and
chi-square confidence intervals.

Rate ("frequency") data: samples y[k] of a rate in any unit U (rad/s for a gyroscope,
m/s^2 for an accelerometer) at ``rate`` Hz. The overlapping Allan variance at
tau = m/rate (s) is (NIST SP 1065 eq. 11, with the phase x = cumsum(y - mean(y)) * dt
and x[0] = 0, N + 1 phase points)::

    avar(tau) = sum_{i=0}^{N-2m} (x[i+2m] - 2 x[i+m] + x[i])^2 / (2 tau^2 (N + 1 - 2m))

the same numbers as ``allantools.oadev(y, rate=rate, data_type="freq", taus=...)``
(agreement to about 1e-13 relative, tested to 1e-9), on the same tau grids ("octave",
"decade", "log10", "all" or explicit taus rounded to whole samples). The sums run in C
(``csrc/allan.c``, ``csrc/allan_kern.c``: one copy per SIMD path, the same bits on
each), one column at a time per thread, without the GIL: a 10^7-sample six-axis log
on the octave grid (23 taus) takes about 1.1 s of CPU time for all six columns with
AVX2 (allantools.oadev: 2.3 s for one column), measured on this project's 2-core
machine.

Confidence intervals follow allantools: Greenhall's EDF (``edf_greenhall``, Greenhall
and Riley 2004, the overlapping unmodified case d = 2) for a power-law noise type
alpha (S_y(f) ~ f^alpha: 0 white rate noise, -1 flicker, -2 random walk of the rate;
+1, +2 the phase noises), then the chi-square interval of NIST SP 1065 eq. 45
(``confidence_interval``).
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from fastnoise.analysis import _allan, _stats
from fastnoise.core import validate as _validate

__all__ = [
    "ONE_SIGMA_CI",
    "AllanDeviation",
    "confidence_interval",
    "edf_greenhall",
    "noise_type_from_slope",
    "oadev",
    "tau_grid",
]


#: Probability content of +/- one standard deviation of a normal: erf(1/sqrt(2)).
ONE_SIGMA_CI = math.erf(1.0 / math.sqrt(2.0))
#: Fewest samples ``oadev`` accepts (the grid then has a few taus).
MIN_SAMPLES = 16

FloatArray: TypeAlias = npt.NDArray[np.float64]
IntArray: TypeAlias = npt.NDArray[np.int64]
TauSpec: TypeAlias = Literal["octave", "decade", "log10", "all"] | npt.ArrayLike
AlphaSpec: TypeAlias = Literal["slope"] | int | npt.ArrayLike | None
Progress: TypeAlias = Callable[[int, int], None]


@dataclass(frozen=True)
class AllanDeviation:
    """Overlapping Allan deviation of one or more rate columns.

    Attributes
    ----------
    tau : (T,) float64, s
        Averaging times, m / rate.
    m : (T,) int64
        Averaging factors (samples per cluster).
    adev : (T,) or (T, k) float64, U
        Overlapping Allan deviation per tau (and column), in the unit U of the data
        (rad/s, m/s^2, ...).
    n_terms : (T,) int64
        Second differences summed per tau: N + 1 - 2m.
    n_samples : int
        Samples N per column.
    rate : float, Hz
        Sample rate.
    alpha : (T,) or (T, k) int64, or None
        Power-law noise type used for the EDF (see ``edf_greenhall``).
    edf : (T,) or (T, k) float64, or None
        Greenhall's equivalent degrees of freedom.
    low, high : (T,) or (T, k) float64, U, or None
        Confidence interval of the deviation (chi-square with ``edf``) at ``ci``.
    ci : float
        Probability content of the interval (default ONE_SIGMA_CI = 0.683).
    """

    tau: FloatArray
    m: IntArray
    adev: FloatArray
    n_terms: IntArray
    n_samples: int
    rate: float
    alpha: IntArray | None
    edf: FloatArray | None
    low: FloatArray | None
    high: FloatArray | None
    ci: float

    @property
    def avar(self) -> FloatArray:
        """Overlapping Allan variance, U^2 (``adev**2``)."""
        return np.square(self.adev)


# ---- inputs ----------------------------------------------------------------------------
def _rate(rate: object) -> float:
    return _validate.positive("rate", rate)


def _as_log(name: str, data: object, min_samples: int = MIN_SAMPLES) -> FloatArray:
    """A 1-D (N,) or 2-D (N, k) float64 array of real samples (not copied when already
    float64); every sample is checked finite later, on the fly."""
    if isinstance(data, str | bytes) or data is None:
        raise TypeError(f"{name}={data!r} is not allowed: it must be an array of numbers")
    arr = np.asarray(data)
    if arr.dtype == np.bool_ or not (
        np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)
    ):
        raise TypeError(
            f"{name} has dtype {arr.dtype}: it must hold real numbers (float or int samples)"
        )
    if arr.ndim not in (1, 2):
        raise ValueError(f"{name} has shape {arr.shape}: it must be 1-D (N,) or 2-D (N, k)")
    if arr.ndim == 2 and arr.shape[1] < 1:
        raise ValueError(f"{name} has shape {arr.shape}: it needs at least one column")
    if arr.shape[0] < min_samples:
        raise ValueError(
            f"{name} has {arr.shape[0]} samples: at least {min_samples} are needed "
            f"(in [{min_samples}, inf))"
        )
    return np.asarray(arr, dtype=np.float64)


def _first_bad(name: str, col: FloatArray, c: int, two_d: bool) -> ValueError:
    bad = np.flatnonzero(~np.isfinite(col))
    if bad.size == 0:
        return ValueError(
            f"{name} column {c} is not allowed: its cumulative sum leaves the float64 "
            "range (samples too large)"
        )
    i = int(bad[0])
    where = f"[{i}, {c}]" if two_d else f"[{i}]"
    return ValueError(
        f"{name}{where}={float(col[i])!r} is not allowed: every sample must be finite"
    )


def _too_large(name: str, c: int, m: int) -> ValueError:
    """The Allan sums of column ``c`` overflowed float64 at an averaging length of ``m``
    samples: the squared second differences of the phase, ~ (m |y - mean|)^2, must stay
    below 1.8e308."""
    return ValueError(
        f"{name} column {c} is not allowed: its samples are too large for the Allan "
        f"variance in float64 (it overflowed at an averaging length of {m} samples): "
        "the deviations of the samples from their mean times the averaging length must "
        "stay below about 1e150; give the log in smaller units (e.g. mrad/s -> rad/s)"
    )


def _ci(ci: object) -> float:
    v = _validate.finite("ci", ci)
    if not 0.0 < v < 1.0:
        raise ValueError(f"ci={ci!r} is not allowed: it must lie in (0, 1)")
    return v


# ---- noise type -------------------------------------------------------------------------
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


# ---- tau grids -------------------------------------------------------------------------
def tau_grid(n_samples: int, rate: float, taus: TauSpec = "octave") -> tuple[IntArray, FloatArray]:
    """Averaging factors m and times tau = m / rate (s) of ``oadev``, as allantools'
    ``tau_generator`` picks them for rate data of ``n_samples`` samples.

    Parameters
    ----------
    n_samples : int
        Samples N of the rate data (the phase has N + 1 points).
    rate : float
        Sample rate, Hz (> 0).
    taus : "octave", "decade", "log10", "all" or array of float
        "octave": m = 1, 2, 4, ...; "decade": 1, 2, 4, 10, 20, 40, ...; "log10": about
        ten per decade; "all": every m; or explicit averaging times in s, each
        rounded to the nearest whole number of samples.

    Returns
    -------
    m : (T,) int64, sorted, unique, each with at least two second differences
        (2 <= N + 1 - 2m).
    tau : (T,) float64, s
    """
    n = _validate.integer("n_samples", n_samples, 1, 2**62)
    fs = _rate(rate)
    npts = n + 1
    if isinstance(taus, str):
        if taus == "octave":
            maxn = math.floor(math.log2(npts))
            t = (1.0 / fs) * np.logspace(0, maxn, maxn + 1, base=2.0)
        elif taus == "log10":
            maxn10 = math.log10(npts)
            t = (1.0 / fs) * np.logspace(0, maxn10, int(10 * maxn10), base=10.0)
        elif taus == "decade":
            maxd = math.floor(math.log10(npts))
            t = np.array(
                [f * (1.0 / fs) * 10.0**k for k in range(maxd + 1) for f in (1.0, 2.0, 4.0)]
            )
        elif taus == "all":
            t = (1.0 / fs) * np.linspace(1.0, npts, npts)
        else:
            raise ValueError(
                f"taus={taus!r} is not allowed: use 'octave', 'decade', 'log10', 'all' "
                "or an array of averaging times in s"
            )
    else:
        t = np.asarray(taus, dtype=np.float64).ravel()
        if t.size == 0:
            raise ValueError("taus=[] is not allowed: give at least one averaging time (s)")
        if not np.all(np.isfinite(t)) or np.any(t <= 0.0):
            raise ValueError(
                f"taus={np.asarray(taus).tolist()!r} is not allowed: every averaging time "
                "must be finite and > 0 s"
            )
    mr = np.round(t * fs)
    mr = mr[(mr < npts) & (mr > 0)]
    m: IntArray = np.unique(mr).astype(np.int64)
    m = m[npts - 2 * m > 1]  # allantools drops taus with a single second difference
    if m.size == 0:
        raise ValueError(
            f"taus={taus!r} leaves no averaging time for {n} samples at {fs} Hz: "
            f"tau must lie in [{1.0 / fs}, {(n - 1) // 2 / fs}] s"
        )
    return m, np.asarray(m / fs, dtype=np.float64)


# ---- the deviation -----------------------------------------------------------------------
def _column_sums(
    y: FloatArray,
    m: IntArray,
    name: str,
    threads: int,
    progress: Progress | None,
    two_d: bool = True,
) -> FloatArray:
    """S(m) per column of the 2-D ``y``: (T, k); ``two_d``: how errors name a sample."""
    n, k = y.shape
    with np.errstate(over="ignore", invalid="ignore"):
        mean = np.array([float(np.mean(y[:, c])) for c in range(k)])
    if not np.all(np.isfinite(mean)):
        c = int(np.flatnonzero(~np.isfinite(mean))[0])
        raise _first_bad(name, y[:, c], c, two_d)
    out = np.empty((m.size, k))
    workers = max(1, min(threads, k))
    done = [0]

    def work(cols: Sequence[int]) -> None:
        buf = np.empty((1, n + 1))  # one phase row per worker, reused
        for c in cols:
            _allan.phases(y[:, c : c + 1], mean[c : c + 1], out=buf)
            if not math.isfinite(buf[0, -1]):
                raise _first_bad(name, y[:, c], c, two_d)
            out[:, c] = _allan.sums(buf[0], m)
            if not np.all(np.isfinite(out[:, c])):
                raise _too_large(name, c, int(m[np.flatnonzero(~np.isfinite(out[:, c]))[0]]))
            done[0] += 1
            if progress is not None:
                progress(done[0], k)

    if workers == 1:
        work(range(k))
    else:
        with ThreadPoolExecutor(workers) as pool:
            jobs = [pool.submit(work, range(w, k, workers)) for w in range(workers)]
            for job in jobs:
                job.result()
    return out


def oadev(
    data: npt.ArrayLike,
    rate: float,
    taus: TauSpec = "octave",
    *,
    alpha: AlphaSpec = "slope",
    ci: float = ONE_SIGMA_CI,
    threads: int | None = None,
    progress: Progress | None = None,
) -> AllanDeviation:
    """Overlapping Allan deviation of rate data, with confidence intervals.

    Parameters
    ----------
    data : array_like, (N,) or (N, k)
        Rate samples in any unit U (rad/s, m/s^2, ...), one column per axis; at least
        16 samples, all finite. Not modified (float64 input is not copied).
    rate : float
        Sample rate, Hz (> 0, finite).
    taus : "octave" (default), "decade", "log10", "all" or array of float
        The averaging times, as ``tau_grid`` (and allantools) picks them; explicit
        values in s are rounded to whole samples.
    alpha : "slope" (default), int, array of int, or None
        Noise type for the EDF: "slope" reads it per tau from the local log-log slope
        mu of the Allan variance (alpha = round(-mu - 1), clipped to [-2, 1]); an int
        or a (T,) / (T, k) array sets it; None skips the intervals.
    ci : float
        Probability content of the confidence intervals, in (0, 1) (default 0.683).
    threads : int or None
        Columns computed at once (default: the CPU count, at most k).
    progress : callable(done, total) or None
        Called after each column.

    Returns
    -------
    AllanDeviation
        ``adev`` (T,) for 1-D data, (T, k) for 2-D data, in U.

    Examples
    --------
    >>> import numpy as np
    >>> from fastnoise.analysis import oadev
    >>> y = np.random.default_rng(1).normal(0.0, 0.01, 100_000)  # rad/s at 100 Hz
    >>> res = oadev(y, rate=100.0)
    >>> res.tau[:3], res.adev[:3]  # doctest: +SKIP
    """
    fs = _rate(rate)
    arr = _as_log("data", data)
    one_d = arr.ndim == 1
    y2 = arr[:, None] if one_d else arr
    ci = _ci(ci)
    m, tau = tau_grid(y2.shape[0], fs, taus)
    if threads is None:
        threads = os.cpu_count() or 1
    threads = _validate.integer("threads", threads, 1, 1025)
    sums = _column_sums(y2, m, "data", threads, progress, not one_d)
    n_terms = (y2.shape[0] + 1 - 2 * m).astype(np.int64)
    adev = np.sqrt(sums / (2.0 * n_terms[:, None])) / m[:, None]
    alphas = edf = low = high = None
    if alpha is not None:
        alphas = _alphas(alpha, adev, tau)
        edf = np.empty_like(adev)
        for j in range(adev.shape[0]):
            for c in range(adev.shape[1]):
                edf[j, c] = edf_greenhall(int(alphas[j, c]), int(m[j]), y2.shape[0] + 1)
        low, high = confidence_interval(adev, edf, ci)

    def shape(a: npt.NDArray[np.generic] | None) -> npt.NDArray[np.generic] | None:
        return None if a is None else (a[:, 0] if one_d else a)

    return AllanDeviation(
        tau=tau,
        m=m,
        adev=shape(adev),  # type: ignore[arg-type]
        n_terms=n_terms,
        n_samples=int(y2.shape[0]),
        rate=fs,
        alpha=shape(alphas),  # type: ignore[arg-type]
        edf=shape(edf),  # type: ignore[arg-type]
        low=shape(low),  # type: ignore[arg-type]
        high=shape(high),  # type: ignore[arg-type]
        ci=ci,
    )
