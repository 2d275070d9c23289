"""Allan constants and result type (split out of
:mod:`fastnoise.analysis.allan`, which re-exports it)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np
import numpy.typing as npt

from fastnoise.core import validate as _validate

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
