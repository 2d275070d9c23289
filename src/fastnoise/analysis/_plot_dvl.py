"""DVL plots (split out of :mod:`fastnoise.analysis.plots`, which re-exports it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from fastnoise.core import validate as _validate

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

from fastnoise.analysis._plot_common import PathLike, _figure, _save
from fastnoise.analysis._plot_lidar import _hist_with_pdf


# ---- DVL ------------------------------------------------------------------------------------
def _dvl_truth(n: int, seed: int) -> npt.NDArray[np.void]:
    from fastnoise.models.dvl.simulator import TRUTH_DTYPE

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
    ("measured", density) against the configured N(bias, noise_dev) ("configured";
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
    from fastnoise.models.dvl.config import SENSORS
    from fastnoise.models.dvl.simulator import DvlSimulator

    if not isinstance(sim, DvlSimulator):
        raise TypeError(f"sim={sim!r} is not allowed: use a DvlSimulator")
    if truth is None:
        count = _validate.integer("n", n, 100, 2**31)
        truth = _dvl_truth(count, _validate.integer("seed", seed, 0, 2**63))
    noisy = sim.copy().measure_many(truth)
    clean = DvlSimulator().measure_many(truth)
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
        _hist_with_pdf(ax, err, float(noise.bias), float(noise.noise_dev), "error")
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
