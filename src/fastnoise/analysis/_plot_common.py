"""Shared plot helpers (split out of :mod:`fastnoise.analysis.plots`, which re-exports it)."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


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
