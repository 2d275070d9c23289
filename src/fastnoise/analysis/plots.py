"""Pictures of the noise models and of fitted logs (matplotlib, ``pip install
fastnoise[plot]``).

Every function builds a :class:`matplotlib.figure.Figure` without pyplot (no global
state, no GUI backend needed), saves it to ``path`` when one is given (PNG by its
suffix), and returns it. The plotted arrays are the lines' and bars' data, so a caller
(or a test) can read them back: lines carry labels ("data", "white", "gauss_markov",
"random_walk", "quantization", "total", "configured", ...).

- :func:`plot_allan_fit`: a fitted log's Allan deviation with its intervals and the
  fitted model's lines per term.
- :func:`plot_allan_model`: the same for a configured ``TriadNoise``/``ImuNoise``: a
  simulated stationary log's Allan deviation and the theory per term.
- :func:`plot_lidar`: lidar range-error histogram against the configured sigma(d) =
  base + rise*d, the measured sigma per distance, and the angular error.
- :func:`plot_camera`: camera crops before and after the noise, and the noise histogram
  against the configured Gaussian.
- :func:`plot_dvl`: the error distribution of each DVL field against its configured
  bias and sigma, and the error of the composite velocities (vn, ve, vu).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np
import numpy.typing as npt

from fastnoise.analysis.allan import oadev, tau_grid
from fastnoise.analysis.theory import allan_deviation, allan_deviation_terms
from fastnoise.core import registry
from fastnoise.core import validate as _validate
from fastnoise.models.dvl.config import SENSORS
from fastnoise.models.dvl.dtypes import TRUTH_DTYPE
from fastnoise.models.imu.triad import TriadNoise

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from fastnoise.analysis.fit import NoiseFit

__all__ = [
    "plot_allan_fit",
    "plot_allan_model",
    "plot_camera",
    "plot_dvl",
    "plot_lidar",
]


FloatArray: TypeAlias = npt.NDArray[np.float64]
PathLike: TypeAlias = str | os.PathLike[str]

#: Colours of the model terms.
TERM_COLOURS = {
    "white": "tab:blue",
    "quantization": "tab:purple",
    "gauss_markov": "tab:green",
    "random_walk": "tab:red",
    "total": "black",
}


def _model_name(obj: object) -> str | None:
    """The registered name of ``obj``'s model (its class's declaration), or None."""
    return getattr(getattr(type(obj), "declaration", None), "name", None)


def _figure(nrows: int, ncols: int, size: tuple[float, float]) -> tuple[Figure, list[Axes]]:
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("the pictures need matplotlib: pip install 'fastnoise[plot]'") from exc
    fig = Figure(figsize=size)
    # fixed margins: a constrained layout measures every tick label and costs seconds
    fig.subplots_adjust(left=0.07, right=0.98, bottom=0.1, top=0.88, wspace=0.3, hspace=0.45)
    axes = fig.subplots(nrows, ncols, squeeze=False)
    return fig, [ax for row in axes for ax in row]


def _loglog(ax: Axes) -> None:
    """Log-log axes with decade ticks only (minor ticks cost most of the drawing)."""
    from matplotlib.ticker import LogLocator, NullLocator

    ax.set_xscale("log")
    ax.set_yscale("log")
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(LogLocator(base=10.0, numticks=8))
        axis.set_minor_locator(NullLocator())


def _save(fig: Figure, path: PathLike | None, dpi: int = 110) -> None:
    if path is not None:
        fig.savefig(os.fspath(path), dpi=dpi)


def _units(k: int, units: Sequence[str] | str | None) -> list[str]:
    if units is None:
        if k == 6:
            return ["rad/s"] * 3 + ["m/s²"] * 3
        return ["U"] * k
    if isinstance(units, str):
        return [units] * k
    out = list(units)
    if len(out) != k:
        raise ValueError(f"units={units!r} has {len(out)} entries: it must have {k}")
    return out


def _gauss_pdf(x: FloatArray, mean: float, sd: float) -> FloatArray:
    return np.exp(-0.5 * ((x - mean) / sd) ** 2) / (sd * math.sqrt(2.0 * math.pi))


def _tau_line(tau: FloatArray, rate: float, count: int = 120) -> FloatArray:
    """Whole-sample taus (s) spread log-evenly over [tau[0], tau[-1]]."""
    m = np.unique(np.round(np.geomspace(tau[0] * rate, tau[-1] * rate, count)))
    return np.asarray(m / rate, dtype=np.float64)


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
    (``gauss_markov_steady_state=False``) shows a lower Allan deviation at long tau in a short
    log; saturation and scale errors are not in the theory (see the theory module).
    """
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
        imu = registry.get("imu").cls(gyro=gyro, accel=accel, seed=seed)
        w, acc = imu.apply(zeros, zeros, step)
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


# ---- lidar ----------------------------------------------------------------------------------
def _perpendicular_basis(axis: FloatArray) -> tuple[FloatArray, FloatArray]:
    k = axis / np.linalg.norm(axis)
    helper = np.array([1.0, 0.0, 0.0]) if abs(k[0]) < 0.9 else np.array([0.0, 0.0, 1.0])
    u = np.cross(k, helper)
    u /= np.linalg.norm(u)
    v = np.cross(k, u)
    return u, v


def plot_lidar(
    model: Any,
    path: PathLike | None = None,
    *,
    distances: Sequence[float] = (1.0, 5.0, 10.0, 20.0, 50.0),
    points_per_distance: int = 20_000,
    title: str | None = None,
) -> Figure:
    """Lidar range error and angular error against the configured noise.

    For a ``LidarNoise`` (RGL): ``points_per_distance`` hit points at each distance (m)
    on rays perpendicular to the model's axis (so the angular noise is the full turn
    about it), lidar at the origin. Panels: the histogram of range errors normalized
    by the configured sigma(d) = base + rise*d ("measured", density) against the
    standard normal shifted by mean/sigma ("configured"); the measured standard
    deviation of the range error per distance ("measured", markers) against sigma(d)
    ("configured"); the histogram of the angular error (rad, the signed turn about the
    axis from the hitpoint noise, plus the ray noise applied to the same rays'
    directions) against N(mean, stddev) ("configured").

    For a ``RangeNoise`` (Gazebo): the range-error histogram against
    N(mean + bias, stddev) and its sigma per distance (no angular noise).

    Parameters
    ----------
    model : LidarNoise or RangeNoise
        Not changed: the pictures use a copy (same seed).
    path : str or PathLike, optional
    distances : sequence of float
        True distances, m (> 0).
    points_per_distance : int
        Points per distance (>= 100).
    title : str, optional
    """
    dist = np.asarray(distances, dtype=np.float64)
    if dist.ndim != 1 or dist.size == 0 or not np.all(np.isfinite(dist)) or np.any(dist <= 0):
        raise ValueError(f"distances={distances!r} is not allowed: give finite values > 0 m")
    per = _validate.integer("points_per_distance", points_per_distance, 100, 2**31)
    if _model_name(model) == "range":
        return _plot_range(model.copy(), dist, per, path, title)
    if _model_name(model) != "lidar":
        raise TypeError(f"model={model!r} is not allowed: use a LidarNoise or a RangeNoise")
    m = model.copy()
    axis = np.asarray(m.axis, dtype=np.float64)
    u, v = _perpendicular_basis(axis)
    phi = np.linspace(-math.pi / 3, math.pi / 3, per, endpoint=False)
    dirs = np.cos(phi)[:, None] * u[None, :] + np.sin(phi)[:, None] * v[None, :]
    true_d = np.repeat(dist, per)
    pts = np.tile(dirs, (dist.size, 1)) * true_d[:, None]
    res = m.apply(pts)
    err = np.asarray(res.distances, dtype=np.float64) - true_d
    sig = m.distance_noise_stddev_base + m.distance_noise_stddev_rise_per_meter * true_d
    mean = m.distance_noise_mean
    # angular error: signed turn about the axis, hitpoint noise
    p = pts / np.linalg.norm(pts, axis=1)[:, None]
    q = np.asarray(res.points, dtype=np.float64)
    q = q / np.linalg.norm(q, axis=1)[:, None]
    ang = np.arctan2(np.cross(p, q) @ axis, np.sum(p * q, axis=1))
    ang_mean = m.hitpoint_angular_noise_mean
    ang_sd = m.hitpoint_angular_noise_stddev
    if m.ray_angular_noise_stddev > 0 or m.ray_angular_noise_mean != 0:
        poses = np.zeros((dirs.shape[0], 3, 4))
        poses[:, :, 2] = dirs  # a ray's direction is its local +Z
        poses[:, :, 0] = u
        poses[:, :, 1] = np.cross(dirs, u)
        out = m.perturb_rays(poses)
        r = out[:, :, 2] / np.linalg.norm(out[:, :, 2], axis=1)[:, None]
        ray_ang = np.arctan2(np.cross(dirs, r) @ axis, np.sum(dirs * r, axis=1))
        ang = np.concatenate([ang, ray_ang])
        ang_kind = np.concatenate([np.zeros(q.shape[0]), np.ones(r.shape[0])])
    else:
        ang_kind = np.zeros(q.shape[0])
    fig, axes = _figure(1, 3, (13.5, 3.8))
    base = m.distance_noise_stddev_base
    rise = m.distance_noise_stddev_rise_per_meter
    _range_panels(axes[0], axes[1], err, sig, mean, true_d, dist, lambda d: base + rise * d)
    ax = axes[2]
    hit = ang[ang_kind == 0]
    if ang_sd > 0 or ang_mean != 0:
        _hist_with_pdf(ax, hit, ang_mean, ang_sd, "hitpoint")
    if np.any(ang_kind == 1):
        _hist_with_pdf(
            ax,
            ang[ang_kind == 1],
            m.ray_angular_noise_mean,
            m.ray_angular_noise_stddev,
            "ray",
        )
    if not np.any(ang_kind == 1) and ang_sd == 0 and ang_mean == 0:
        ax.text(0.5, 0.5, "no angular noise configured", ha="center", transform=ax.transAxes)
    ax.set_xlabel("angular error about the axis [rad]")
    ax.set_ylabel("density [1/rad]")
    ax.set_title("angular error")
    fig.suptitle(title or "Lidar noise (LidarNoise)")
    _save(fig, path)
    return fig


def _hist_with_pdf(ax: Axes, x: FloatArray, mean: float, sd: float, name: str) -> None:
    if sd > 0:
        lo, hi = mean - 5 * sd, mean + 5 * sd
    else:
        lo, hi = float(np.min(x)) - 1e-9, float(np.max(x)) + 1e-9
    ax.hist(x, bins=80, range=(lo, hi), density=True, alpha=0.55, label=f"measured ({name})")
    if sd > 0:
        grid = np.linspace(lo, hi, 400)
        ax.plot(grid, _gauss_pdf(grid, mean, sd), "-", lw=1.5, label=f"configured ({name})")
    ax.legend(fontsize=7)


def _range_panels(
    ax0: Axes,
    ax1: Axes,
    err: FloatArray,
    sig: FloatArray,
    mean: float,
    true_d: FloatArray,
    dist: FloatArray,
    sigma_of: Callable[[FloatArray], FloatArray],
) -> None:
    if np.all(sig > 0):
        z = (err - mean) / sig
        ax0.hist(z, bins=80, range=(-5, 5), density=True, alpha=0.55, label="measured")
        grid = np.linspace(-5, 5, 400)
        ax0.plot(grid, _gauss_pdf(grid, 0.0, 1.0), "-", lw=1.5, label="configured")
        ax0.set_xlabel("(range error − mean) / σ(d)")
        ax0.set_ylabel("density")
    else:
        ax0.hist(err, bins=80, alpha=0.55, label="measured")
        ax0.set_xlabel("range error [m]")
        ax0.set_ylabel("count")
    ax0.set_title("range error")
    ax0.legend(fontsize=7)
    measured = np.array([np.std(err[true_d == d]) for d in dist])
    ax1.plot(dist, measured, "o", label="measured")
    grid_d = np.linspace(0.0, float(dist.max()) * 1.05, 200)
    ax1.plot(grid_d, sigma_of(grid_d), "-", label="configured")
    ax1.set_xlabel("distance d [m]")
    ax1.set_ylabel("σ of range error [m]")
    ax1.set_title("σ(d)")
    ax1.legend(fontsize=7)


def _plot_range(
    m: Any, dist: FloatArray, per: int, path: PathLike | None, title: str | None
) -> Figure:
    true_d = np.repeat(dist, per)
    inside = (true_d >= m.min_range) & (true_d <= m.max_range)
    if not np.any(inside):
        raise ValueError(
            f"distances={dist.tolist()!r} all lie outside [min_range, max_range] = "
            f"[{m.min_range}, {m.max_range}] m"
        )
    true_d = true_d[inside]
    dist = dist[(dist >= m.min_range) & (dist <= m.max_range)]
    noisy = np.asarray(m.apply(true_d), dtype=np.float64)
    err = noisy - true_d
    sig = np.full_like(true_d, m.stddev)
    mean = m.mean + m.bias
    fig, axes = _figure(1, 2, (9.5, 3.8))
    sd = float(m.stddev)
    _range_panels(axes[0], axes[1], err, sig, mean, true_d, dist, lambda d: np.full_like(d, sd))
    fig.suptitle(title or "Range noise (RangeNoise, Gazebo)")
    _save(fig, path)
    return fig


# ---- camera ---------------------------------------------------------------------------------
def _test_image(size: int = 256) -> npt.NDArray[np.uint8]:
    """A uint8 RGB test pattern in the middle of the range (no clamping at 0 or 255)."""
    y, x = np.mgrid[0:size, 0:size] / (size - 1)
    r = 0.25 + 0.5 * x
    g = 0.25 + 0.5 * y
    b = 0.5 + 0.2 * np.sin(6 * math.pi * x) * np.cos(4 * math.pi * y)
    img = np.stack([r, g, b], axis=-1)
    return np.asarray(np.round(img * 255.0), dtype=np.uint8)


def plot_camera(
    model: Any,
    path: PathLike | None = None,
    *,
    image: npt.ArrayLike | None = None,
    crop: int = 48,
    title: str | None = None,
) -> Figure:
    """Camera noise: a crop of the image before and after, and the noise histogram.

    Panels: the top-left ``crop`` x ``crop`` pixels before and after ``model.apply``
    (nearest-neighbour, so single pixels show); the histogram of the noise (after -
    before, in full-scale units: 1.0 = 255 for uint8) over the whole image ("measured",
    density) against the configured N(mean, stddev) ("configured"; for the "ogre2"
    variant the noise is sign(z)|z|^2.1 of z = mean + stddev * Z, and with linear light
    it is added to the decoded values: no Gaussian is drawn for either).

    Parameters
    ----------
    model : ImageNoise
        Not changed: the picture uses a copy.
    path : str or PathLike, optional
    image : array, optional
        (H, W) or (H, W, C) uint8, uint16 or float image; default a 256 x 256 RGB test
        pattern between 25% and 75% grey (little clamping).
    crop : int
        Crop size, pixels (>= 4).
    title : str, optional
    """
    if _model_name(model) != "camera":
        raise TypeError(f"model={model!r} is not allowed: use an ImageNoise")
    img = _test_image() if image is None else np.asarray(image)
    c = _validate.integer("crop", crop, 4, 1 << 16)
    m = model.copy()
    noisy = m.apply(img)
    scale = 1.0
    if img.dtype == np.uint8:
        scale = 255.0
    elif img.dtype == np.uint16:
        scale = 65535.0
    diff = (noisy.astype(np.float64) - img.astype(np.float64)) / scale
    fig, axes = _figure(1, 3, (13.0, 4.0))
    for ax, im, name in ((axes[0], img, "before"), (axes[1], noisy, "after")):
        piece = np.asarray(im[:c, :c], dtype=np.float64) / scale
        ax.imshow(np.clip(piece, 0, 1), interpolation="nearest", cmap="gray", vmin=0, vmax=1)
        ax.set_title(f"{name} ({c}×{c} crop)")
        ax.set_xticks([])
        ax.set_yticks([])
    ax = axes[2]
    sd = float(m.stddev)
    mean = float(m.mean)
    half = max(5 * sd, 3.0 / scale) if sd > 0 else 3.0 / scale
    if scale > 1.0:  # integer images: one bin per level, centred on it
        levels = math.ceil((abs(mean) + half) * scale)
        bins: Any = (np.arange(-levels, levels + 2) - 0.5) / scale
    else:
        bins = np.linspace(mean - half, mean + half, 102)
    ax.hist(diff.ravel(), bins=bins, density=True, alpha=0.55, label="measured")
    if sd > 0 and m.variant == "gazebo" and not m.linear_light:
        grid = np.linspace(mean - half, mean + half, 400)
        ax.plot(grid, _gauss_pdf(grid, mean, sd), "-", lw=1.5, label="configured")
    ax.set_xlabel("noise (after − before) [full scale]")
    ax.set_ylabel("density")
    ax.set_title(f"noise: mean {mean:g}, σ {sd:g} (configured)")
    ax.legend(fontsize=7)
    fig.suptitle(title or f"Camera noise (ImageNoise, {m.variant})")
    _save(fig, path)
    return fig


# ---- DVL ------------------------------------------------------------------------------------
def _dvl_truth(n: int, seed: int) -> npt.NDArray[np.void]:
    rng = np.random.default_rng(seed)
    t = np.zeros(n, dtype=TRUTH_DTYPE)
    t["roll"] = rng.uniform(-10, 10, n)  # deg
    t["pitch"] = rng.uniform(-10, 10, n)  # deg
    t["yaw"] = rng.uniform(0, 360, n)  # deg
    t["surge"] = rng.uniform(0.5, 2.0, n)  # m/s
    t["sway"] = rng.uniform(-0.3, 0.3, n)  # m/s
    t["heave"] = rng.uniform(-0.2, 0.2, n)  # m/s
    t["depth"] = rng.uniform(5, 50, n)  # m
    t["altitude"] = rng.uniform(2, 30, n)  # m
    t["water_speed"] = rng.uniform(0.5, 2.0, n)  # m/s
    t["rpm"] = rng.uniform(200, 1200, n)  # rev/min
    return t


def plot_dvl(
    sim: Any,
    path: PathLike | None = None,
    *,
    truth: npt.NDArray[np.void] | None = None,
    n: int = 20_000,
    seed: int = 0,
    title: str | None = None,
) -> Figure:
    """DVL error distributions: every measured field and the composite velocities.

    One panel per field (roll, pitch, yaw in deg; surge, sway, heave, water_speed in
    m/s; depth, altitude in m; rpm in rev/min): the histogram of measured - true
    ("measured", density) against the configured N(bias, noise_stddev) ("configured";
    anchor events, if any, show apart from it). Three more panels: the error of the
    composite NED velocities vn, ve, vu (m/s) computed by the simulator from the noisy
    attitude and body velocities, against the same composites from the true values.

    Parameters
    ----------
    sim : DvlSimulator
        Not changed: the picture uses a copy.
    path : str or PathLike, optional
    truth : structured array of ``TRUTH_DTYPE``, optional
        The true values; default ``n`` random values in plausible ranges.
    n : int
        Samples when ``truth`` is not given (>= 100).
    seed : int
        Seed of the default truth.
    title : str, optional
    """
    if _model_name(sim) != "dvl_simulator":
        raise TypeError(f"sim={sim!r} is not allowed: use a DvlSimulator")
    if truth is None:
        count = _validate.integer("n", n, 100, 2**31)
        truth = _dvl_truth(count, _validate.integer("seed", seed, 0, 2**63))
    noisy = sim.copy().measure_many(truth)
    clean = registry.get("dvl_simulator").cls().measure_many(truth)
    fig, axes = _figure(3, 5, (17.0, 9.5))
    i = 0
    for name, spec in SENSORS.items():
        field = spec.field
        err = np.asarray(noisy[field], dtype=np.float64) - np.asarray(
            truth[field], dtype=np.float64
        )
        if spec.field == "yaw":
            err = (err + 180.0) % 360.0 - 180.0
        noise = sim[name]
        ax = axes[i]
        _hist_with_pdf(ax, err, float(noise.bias), float(noise.noise_stddev), "error")
        ax.set_title(f"{name} ({field})")
        ax.set_xlabel(f"error [{spec.unit}]")
        i += 1
    for comp in ("vn", "ve", "vu"):
        ax = axes[i]
        err = np.asarray(noisy[comp], dtype=np.float64) - np.asarray(clean[comp])
        finite = err[np.isfinite(err)]
        sd = float(np.std(finite)) if finite.size else 0.0
        lo, hi = np.percentile(finite, [0.5, 99.5]) if finite.size else (-1.0, 1.0)
        if hi <= lo:
            lo, hi = lo - 1e-9, hi + 1e-9
        ax.hist(finite, bins=80, range=(lo, hi), density=True, alpha=0.55, label="measured")
        ax.set_title(f"composite {comp} (σ {sd:.3g} m/s; 99% shown)")
        ax.set_xlabel("error [m/s]")
        ax.legend(fontsize=7)
        i += 1
    for ax in axes[i:]:
        ax.set_visible(False)
    fig.suptitle(title or "DVL noise (DvlSimulator): error of each field and of the composites")
    _save(fig, path)
    return fig
