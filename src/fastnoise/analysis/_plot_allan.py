"""IMU / Allan plots (split out of :mod:`fastnoise.analysis.plots`, which re-exports it)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from fastnoise.core import validate as _validate

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from fastnoise.analysis.fit import NoiseFit
from fastnoise.analysis._plot_common import (
    TERM_COLOURS,
    FloatArray,
    PathLike,
    _figure,
    _loglog,
    _save,
    _tau_line,
    _units,
)


# ---- Allan deviation ------------------------------------------------------------------------
def plot_allan_fit(
    fit: NoiseFit,
    path: PathLike | None = None,
    *,
    units: Sequence[str] | str | None = None,
    title: str | None = None,
) -> Figure:
    """Allan deviation of a fitted log with the fitted model's lines per term.

    One panel per column (gyro x, y, z over accel x, y, z for an IMU log): the data's
    overlapping Allan deviation (label "data", markers, with its confidence interval as
    error bars), each fitted term alone ("white", "gauss_markov", "random_walk",
    dashed) and their sum ("total"), on log-log axes: tau in s, sigma(tau) in the data's
    unit (rad/s for a gyroscope, m/s^2 for an accelerometer).

    Parameters
    ----------
    fit : NoiseFit
        From :func:`fastnoise.analysis.fit_noise`.
    path : str or PathLike, optional
        Save the figure here (PNG).
    units : str, sequence of str, or None
        Unit per column for the labels (default: rad/s and m/s^2 for six columns).
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure
    """
    a = fit.allan
    k = len(fit.axes)
    unit = _units(k, units)
    ncols = 3 if k % 3 == 0 else min(k, 3)
    nrows = math.ceil(k / ncols)
    fig, axes = _figure(nrows, ncols, (4.2 * ncols, 3.4 * nrows))
    t_line = _tau_line(a.tau, fit.rate)
    terms = fit.model_terms(t_line)
    adev = np.asarray(a.adev).reshape(a.tau.size, -1)
    for c in range(k):
        ax = axes[c]
        y = adev[:, c]
        if not np.any(y > 0):
            ax.set_title(fit.axes[c].name)
            ax.text(0.5, 0.5, "constant: no noise", ha="center", transform=ax.transAxes)
            continue
        if a.low is not None and a.high is not None:
            lo = np.asarray(a.low).reshape(adev.shape)[:, c]
            hi = np.asarray(a.high).reshape(adev.shape)[:, c]
            ax.errorbar(a.tau, y, yerr=[y - lo, hi - y], fmt="none", ecolor="0.6", elinewidth=1)
        ax.plot(a.tau, y, "o", ms=3.5, color="0.25", label="data")
        for name in ("white", "gauss_markov", "random_walk"):
            v = terms[name][:, c]
            if np.any(v > 0):
                ax.plot(t_line, v, "--", color=TERM_COLOURS[name], lw=1.2, label=name)
        ax.plot(t_line, terms["total"][:, c], "-", color="black", lw=1.4, label="total")
        _loglog(ax)
        ax.set_title(fit.axes[c].name)
        ax.set_xlabel("τ [s]")
        ax.set_ylabel(f"σ(τ) [{unit[c]}]")
        ax.grid(True, which="major", alpha=0.3)
        positive = y[y > 0]
        if positive.size:
            ax.set_ylim(positive.min() / 3.0, positive.max() * 3.0)
        ax.legend(fontsize=7)
    for ax in axes[k:]:
        ax.set_visible(False)
    pct = f"{100 * fit.ci:.0f}%"
    fig.suptitle(title or f"Allan deviation and fitted model ({pct} intervals)")
    _save(fig, path)
    return fig


def plot_allan_model(
    model: Any,
    dt: float,
    path: PathLike | None = None,
    *,
    n_samples: int = 2**18,
    seed: int = 0,
    taus: str | npt.ArrayLike = "octave",
    title: str | None = None,
) -> Figure:
    """Allan deviation of a configured IMU model: a simulated stationary log and the
    theory per term.

    The log is ``n_samples`` samples of ``ImuNoise`` at rest (zero true rate and
    acceleration), step ``dt``; its overlapping Allan deviation ("data") is drawn with
    the exact theory of :mod:`fastnoise.analysis.theory` per term ("white",
    "quantization", "gauss_markov", "random_walk") and in total ("total").

    Parameters
    ----------
    model : TriadNoise or ImuNoise
        A TriadNoise is simulated as the gyroscope (rad/s), 3 panels; an ImuNoise gives
        6 panels (gyro rad/s, accel m/s^2). The model object is not used or changed:
        a fresh ImuNoise with its parameters and ``seed`` makes the log.
    dt : float
        Sample step, s (> 0).
    path : str or PathLike, optional
        Save the figure here (PNG).
    n_samples : int
        Simulated samples (>= 64); 0 draws the theory only.
    seed : int
        Seed of the simulation.
    taus : "octave", "decade", "log10" or array
        Averaging times of the data (see ``tau_grid``), s.
    title : str, optional

    Notes
    -----
    The theory is the steady state: a Gauss-Markov bias started at 0
    (``bias_steady_state=False``) shows a lower Allan deviation at long tau in a short
    log; saturation and scale errors are not in the theory (see the theory module).
    """
    from fastnoise.analysis.allan import oadev, tau_grid
    from fastnoise.analysis.theory import allan_deviation, allan_deviation_terms
    from fastnoise.models.imu.imu_noise import ImuNoise
    from fastnoise.models.imu.triad import TriadNoise

    step = _validate.positive("dt", dt)
    n = _validate.integer("n_samples", n_samples, 0, 2**40)
    if 0 < n < 64:
        raise ValueError(f"n_samples={n_samples!r} is not allowed: use 0 or at least 64")
    if isinstance(model, TriadNoise):
        gyro, accel, k = model, TriadNoise(), 3
    elif isinstance(getattr(model, "gyro", None), TriadNoise):
        gyro, accel, k = model.gyro, model.accel, 6
    else:
        raise TypeError(f"model={model!r} is not allowed: use a TriadNoise or an ImuNoise")
    if n:
        zeros = np.zeros((n, 3))
        w, acc = ImuNoise(gyro=gyro, accel=accel, seed=seed).apply(zeros, zeros, step)
        log = w if k == 3 else np.concatenate([w, acc], axis=1)
        res = oadev(log, 1.0 / step, taus)
        tau = res.tau
        data: FloatArray | None = np.asarray(res.adev)
    else:
        _, tau = tau_grid(2**20, 1.0 / step, taus)
        data = None
    t_line = _tau_line(tau, 1.0 / step)
    target: Any = gyro if k == 3 else (gyro, accel)
    triads = (gyro,) if k == 3 else (gyro, accel)
    lsb = np.concatenate([t.lsb for t in triads])
    white_sd = np.concatenate([t.white_stddev(step) for t in triads])
    terms = allan_deviation_terms(target, t_line, step)
    total = allan_deviation(target, t_line, step)
    unit = _units(k, None if k == 6 else "rad/s")
    names = ["x", "y", "z"] if k == 3 else [f"{s}_{a}" for s in ("gyro", "accel") for a in "xyz"]
    fig, axes = _figure(k // 3, 3, (12.6, 3.4 * (k // 3)))
    for c in range(k):
        ax = axes[c]
        ax.set_title(names[c])
        if not np.any(total[:, c] > 0) and (data is None or not np.any(data[:, c] > 0)):
            ax.text(0.5, 0.5, "no noise configured", ha="center", transform=ax.transAxes)
            continue
        if data is not None:
            ax.plot(tau, data[:, c], "o", ms=3.5, color="0.25", label="data")
        for name in ("white", "quantization", "gauss_markov", "random_walk"):
            v = terms[name][:, c]
            if np.any(v > 0):
                ax.plot(t_line, v, "--", color=TERM_COLOURS[name], lw=1.2, label=name)
        ax.plot(t_line, total[:, c], "-", color="black", lw=1.4, label="total")
        if lsb[c] > 0 and white_sd[c] < lsb[c]:
            ax.text(
                0.02,
                0.02,
                "noise σ < LSB: quantization is not white,\nthe theory is approximate here",
                transform=ax.transAxes,
                fontsize=7,
                color="tab:purple",
            )
        _loglog(ax)
        ax.set_xlabel("τ [s]")
        ax.set_ylabel(f"σ(τ) [{unit[c]}]")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(title or f"Allan deviation of the configured model (dt = {step:g} s)")
    _save(fig, path)
    return fig
