"""The other stability deviations that Allan-variance users compare beside ``oadev``:
modified Allan (:func:`mdev`), overlapping Hadamard (:func:`ohdev`), time (:func:`tdev`)
and total (:func:`totdev`) deviation, of rate data, as NIST SP 1065 (Riley 2008,
"Handbook of Frequency Stability Analysis") defines them.

Rate samples y[k] (unit U: rad/s, m/s^2, ...) at ``rate`` Hz become the phase
x = [0, cumsum(y - mean(y)) * dt] (U*s, N = n + 1 points, dt = 1/rate); with
tau = m * dt (NIST SP 1065 section 5.2, 1-based indices as there):

* ``mdev``, eq. (14): Mod sigma^2(tau) = sum_{j=1}^{N-3m+1}
  (sum_{i=j}^{j+m-1} x[i+2m] - 2 x[i+m] + x[i])^2 / (2 m^2 tau^2 (N - 3m + 1));
* ``tdev``, eq. (15): sigma_x(tau) = tau / sqrt(3) * Mod sigma(tau), in U*s (a time
  deviation of the phase, the integrated rate: rad for a gyroscope, m/s for an
  accelerometer);
* ``ohdev``, eq. (18): H sigma^2(tau) = sum_{i=1}^{N-3m}
  (x[i+3m] - 3 x[i+2m] + 3 x[i+m] - x[i])^2 / (6 tau^2 (N - 3m)); insensitive to a
  constant rate drift;
* ``totdev``, eq. (25): Tot var(tau) = sum_{i=2}^{N-1}
  (x*[i-m] - 2 x*[i] + x*[i+m])^2 / (2 tau^2 (N - 2)), on the phase extended by
  reflection at both ends, x*[1-j] = 2 x[1] - x[1+j] and x*[N+j] = 2 x[N] - x[N-j]
  (j = 1 .. N-2): more terms at long tau than ``oadev``.

Removing the mean rate adds a straight line to the phase, which every second and third
difference cancels (and the reflections keep), so the numbers equal allantools' on the
same data (``data_type="freq"``); the tests check NIST SP 1065's published values on
the NBS14 data sets. Each tau's sum is one O(N) pass in C (``csrc/allan.c``: the
modified Allan sums as running sums of the second differences, the Hadamard third
differences, and the total deviation's second differences of the reflected phase through
the ``oadev`` kernel); intervals are not computed here (``oadev`` has Greenhall's EDF).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from fastnoise.analysis import _allan
from fastnoise.analysis.allan import (
    FloatArray,
    IntArray,
    TauSpec,
    _as_log,
    _first_bad,
    _rate,
    tau_grid,
)

__all__ = ["Deviation", "mdev", "ohdev", "tdev", "totdev"]

#: Fewest rate samples the deviations accept (NIST SP 1065's 10-point test set has 9).
MIN_DEV_SAMPLES = 4


@dataclass(frozen=True)
class Deviation:
    """A stability deviation of one or more rate columns.

    Attributes
    ----------
    kind : str
        "mdev", "ohdev", "tdev" or "totdev".
    tau : (T,) float64, s
        Averaging times m / rate.
    m : (T,) int64
        Averaging factors.
    dev : (T,) or (T, k) float64
        The deviation per tau (and column): in U for mdev, ohdev and totdev, in U*s
        for tdev.
    n_terms : (T,) int64
        Squared differences averaged per tau.
    n_samples : int
        Rate samples per column.
    rate : float, Hz
    """

    kind: str
    tau: FloatArray
    m: IntArray
    dev: FloatArray
    n_terms: IntArray
    n_samples: int
    rate: float


def _phases(y: FloatArray, dt: float, one_d: bool) -> FloatArray:
    """(N + 1, k) phases x = [0, cumsum(y - mean) * dt] of the (N, k) rates."""
    x = np.zeros((y.shape[0] + 1, y.shape[1]))
    with np.errstate(over="ignore", invalid="ignore"):
        for c in range(y.shape[1]):  # column by column: the same bits alone or in a table
            col = np.ascontiguousarray(y[:, c])
            x[1:, c] = np.cumsum(col - np.mean(col)) * dt
    bad = ~np.isfinite(x[-1])
    if np.any(bad):
        c = int(np.flatnonzero(bad)[0])
        raise _first_bad("data", y[:, c], c, not one_d)
    return x


# Each sum takes one column's phase (1-D, contiguous) and every m at once, so a column
# gives the same bits alone or in a table. The C kernels are csrc/allan.c's.
def _mod_sums(x: FloatArray, m: IntArray) -> FloatArray:
    return np.asarray(_allan.mdev_sums(x, m))


def _had_sums(x: FloatArray, m: IntArray) -> FloatArray:
    return np.asarray(_allan.hadamard_sums(x, m))


def _tot_sums(x: FloatArray, m: IntArray) -> FloatArray:
    n = x.shape[0]
    # reflected extension: N - 2 points before and after (NIST SP 1065 eq. 25)
    before = 2.0 * x[0] - x[n - 2 : 0 : -1]  # x*[1-j], j = N-2 .. 1
    after = 2.0 * x[-1] - x[-2:0:-1]  # x*[N+j], j = 1 .. N-2
    xe = np.concatenate([before, x, after])
    # i = 2 .. N-1 (1-based) sit at xe positions p = N-1 .. 2N-4: the second differences
    # xe[p-m] - 2 xe[p] + xe[p+m] are the Allan kernel's terms on xe[N-1-m : 2N-2+m]
    out = np.empty(m.size)
    for j, mj in enumerate(m.tolist()):
        part = xe[n - 1 - mj : 2 * n - 2 + mj]
        out[j] = _allan.sums(part, np.array([mj], dtype=np.int64))[0]
    return out


def _n_terms(kind: str, n_phase: int, m: IntArray) -> IntArray:
    if kind == "mdev":
        return np.asarray(n_phase - 3 * m + 1, dtype=np.int64)
    if kind == "ohdev":
        return np.asarray(n_phase - 3 * m, dtype=np.int64)
    return np.full(m.size, n_phase - 2, dtype=np.int64)


# kind -> (sums, largest m for N phase points, denominator factor c: var = S / (c tau^2 n))
_Sums = Callable[[FloatArray, IntArray], FloatArray]
_KINDS: dict[str, tuple[_Sums, Callable[[int], int], float]] = {
    "mdev": (_mod_sums, lambda n: n // 3, 2.0),
    "ohdev": (_had_sums, lambda n: (n - 1) // 3, 6.0),
    "totdev": (_tot_sums, lambda n: n - 1, 2.0),
}


def _deviation(kind: str, data: object, rate: object, taus: TauSpec) -> Deviation:
    fs = _rate(rate)
    arr = _as_log("data", data, MIN_DEV_SAMPLES)
    one_d = arr.ndim == 1
    y = arr[:, None] if one_d else arr
    n_phase = y.shape[0] + 1
    base = "mdev" if kind == "tdev" else kind
    summ, m_max, factor = _KINDS[base]
    m, tau = tau_grid(y.shape[0], fs, taus)
    keep = m <= m_max(n_phase)
    m, tau = m[keep], tau[keep]
    if m.size == 0:
        raise ValueError(
            f"taus={taus!r} leaves no averaging time for {kind} of {y.shape[0]} samples: "
            f"m = tau * rate must be at most {m_max(n_phase)}"
        )
    x = _phases(y, 1.0 / fs, one_d)
    dev = np.empty((m.size, y.shape[1]))
    m = np.asarray(m, dtype=np.int64)
    n_terms = _n_terms(base, n_phase, m)
    mf = m.astype(np.float64)
    t = mf / fs
    scale = mf * mf if base == "mdev" else np.ones(m.size)  # eq. 14 has m^2 tau^2
    for c in range(y.shape[1]):
        s = summ(np.ascontiguousarray(x[:, c]), m)
        dev[:, c] = np.sqrt(s / (factor * scale * t * t * n_terms))
    if kind == "tdev":
        dev = dev * (tau[:, None] / np.sqrt(3.0))
    if not np.all(np.isfinite(dev)):
        raise ValueError(
            "data is not allowed: its samples are too large for the deviation in float64; "
            "give the log in smaller units"
        )
    return Deviation(
        kind=kind,
        tau=tau,
        m=m,
        dev=dev[:, 0] if one_d else dev,
        n_terms=n_terms,
        n_samples=int(y.shape[0]),
        rate=fs,
    )


_DOC = """{title} of rate data (NIST SP 1065 eq. {eq}).

    Parameters
    ----------
    data : array_like, (N,) or (N, k)
        Rate samples in any unit U (rad/s, m/s^2, ...), one column per axis; at least
        4 samples, all finite. Not modified.
    rate : float
        Sample rate, Hz (> 0).
    taus : "octave" (default), "decade", "log10", "all" or array of float
        Averaging times as ``oadev`` picks them (``tau_grid``), s; those beyond this
        deviation's longest ({longest}) are dropped.

    Returns
    -------
    Deviation
        ``dev`` (T,) for 1-D data, (T, k) for 2-D data, in {unit}.
    """


def mdev(data: object, rate: float, taus: TauSpec = "octave") -> Deviation:
    return _deviation("mdev", data, rate, taus)


def tdev(data: object, rate: float, taus: TauSpec = "octave") -> Deviation:
    return _deviation("tdev", data, rate, taus)


def ohdev(data: object, rate: float, taus: TauSpec = "octave") -> Deviation:
    return _deviation("ohdev", data, rate, taus)


def totdev(data: object, rate: float, taus: TauSpec = "octave") -> Deviation:
    return _deviation("totdev", data, rate, taus)


mdev.__doc__ = _DOC.format(
    title="Modified Allan deviation", eq="14", longest="m <= (N + 1) / 3", unit="U"
)
tdev.__doc__ = _DOC.format(
    title="Time deviation tau / sqrt(3) * mdev",
    eq="15",
    longest="m <= (N + 1) / 3",
    unit="U*s (rad for rad/s data, m/s for m/s^2 data)",
)
ohdev.__doc__ = _DOC.format(
    title="Overlapping Hadamard deviation", eq="18", longest="m <= N / 3", unit="U"
)
totdev.__doc__ = _DOC.format(
    title="Total deviation (reflected phase)", eq="25", longest="m <= N", unit="U"
)
