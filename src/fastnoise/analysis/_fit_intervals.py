"""Confidence intervals (split out of :mod:`fastnoise.analysis.fit`, which re-exports it)."""

from __future__ import annotations

import math

import numpy as np

from fastnoise.analysis import _stats
from fastnoise.analysis._fit_model import FIT_TERMS, FloatArray, _shapes
from fastnoise.analysis._fit_result import Estimate
from fastnoise.analysis._fit_solve import _Data
from fastnoise.analysis.theory import gauss_markov_avar


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
