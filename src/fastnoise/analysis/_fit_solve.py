"""Weighted least squares (split out of :mod:`fastnoise.analysis.fit`, which re-exports it)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fastnoise.analysis._fit_model import FIT_TERMS, FloatArray, _shapes


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
