"""Lidar and range plots (split out of :mod:`fastnoise.analysis.plots`, which re-exports it)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from fastnoise.core import validate as _validate

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

from fastnoise.analysis._plot_common import FloatArray, PathLike, _figure, _gauss_pdf, _save


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
    from fastnoise.models.lidar.lidar_noise import LidarNoise, RangeNoise

    dist = np.asarray(distances, dtype=np.float64)
    if dist.ndim != 1 or dist.size == 0 or not np.all(np.isfinite(dist)) or np.any(dist <= 0):
        raise ValueError(f"distances={distances!r} is not allowed: give finite values > 0 m")
    per = _validate.integer("points_per_distance", points_per_distance, 100, 2**31)
    if isinstance(model, RangeNoise):
        return _plot_range(model.copy(), dist, per, path, title)
    if not isinstance(model, LidarNoise):
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
