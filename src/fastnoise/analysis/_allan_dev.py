"""Tau grid and overlapping Allan deviation (split out of
:mod:`fastnoise.analysis.allan`, which re-exports it)."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import numpy.typing as npt

from fastnoise.analysis._allan_ci import _alphas, _ci, confidence_interval, edf_greenhall
from fastnoise.analysis._allan_types import (
    ONE_SIGMA_CI,
    AllanDeviation,
    AlphaSpec,
    FloatArray,
    IntArray,
    Progress,
    TauSpec,
    _as_log,
    _first_bad,
    _rate,
)
from fastnoise.core import validate as _validate


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
    from fastnoise.analysis import _allan

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
