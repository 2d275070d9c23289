"""Fit constants and model shapes (split out of :mod:`fastnoise.analysis.fit`, which
re-exports them)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

import numpy as np
import numpy.typing as npt

from fastnoise.analysis.theory import gauss_markov_avar

if TYPE_CHECKING:
    from fastnoise.analysis._fit_result import AxisFit

FloatArray: TypeAlias = npt.NDArray[np.float64]
#: Fewest samples ``fit_noise`` accepts.
MIN_FIT_SAMPLES = 256
#: Term names, in the order of the amplitude vector.
FIT_TERMS = ("white", "gauss_markov", "random_walk")
_GM_PEAK = 1.89  # the Gauss-Markov Allan deviation peaks near tau = 1.89 tau_c
#: Octaves of a Gauss-Markov term's falling side that must lie in the fitted taus (by
#: the ratio of the longest fitted tau to its peak at 1.89 tau_c).
GM_FALL = 4.0
#: The fit uses averaging factors m <= N / MAX_M_RATIO (Stable32's stop ratio).
MAX_M_RATIO = 4.0
#: B is read where the model's log-log slope is within this of 0 (else it is NaN).
FLAT_SLOPE = 0.25


def _three(values: Sequence[float]) -> tuple[float, float, float]:
    return (float(values[0]), float(values[1]), float(values[2]))


# ---- model pieces ---------------------------------------------------------------------------
def _shapes(m: FloatArray, dt: float, tau_c: float) -> FloatArray:
    """(T, 3) Allan variance per unit amplitude: white (N^2 = 1), Gauss-Markov
    (sigma_b^2 = 1) at tau_c, random walk (K^2 = 1)."""
    m = np.asarray(m, dtype=np.float64)
    g = np.empty((m.size, 3))
    g[:, 0] = 1.0 / (m * dt)
    g[:, 1] = gauss_markov_avar(m, 1.0, tau_c, dt) if math.isfinite(tau_c) else 0.0
    g[:, 2] = (2.0 * m * m + 1.0) * dt / (6.0 * m)
    return g


#: A Gauss-Markov term counts as random-walk noise (alpha = -2) for the EDF up to this
#: many tau_c: its Allan variance estimates scatter like a random walk's there, not like
#: the white noise its falling slope suggests (measured on simulated logs).
_GM_RED_SPAN = 30.0


def _mean_chi_ratio(nu: FloatArray) -> FloatArray:
    """E[sqrt(chi2_nu / nu)] = sqrt(2/nu) Gamma((nu+1)/2) / Gamma(nu/2): the factor by
    which a deviation estimated with nu degrees of freedom falls short on average."""
    out = np.empty(len(nu))
    for i, v in enumerate(np.asarray(nu, dtype=np.float64)):
        if v > 1e7:
            out[i] = 1.0 - 1.0 / (4.0 * v)
        else:
            out[i] = math.sqrt(2.0 / v) * math.exp(math.lgamma((v + 1) / 2) - math.lgamma(v / 2))
    return out


def _model_alpha(m: FloatArray, dt: float, tc: float, amp: FloatArray) -> npt.NDArray[np.int64]:
    """Noise type per point for the EDF: the terms' types (white 0, random walk -2,
    Gauss-Markov -2 up to 30 tau_c and 0 beyond) averaged with the terms' shares of the
    model variance, rounded."""
    g = _shapes(m, dt, tc) * amp[None, :]
    share = g / np.maximum(g.sum(axis=1), 1e-300)[:, None]
    gm_type = np.where(m * dt <= _GM_RED_SPAN * tc, -2.0, 0.0) if math.isfinite(tc) else 0.0
    mix = share[:, 1] * gm_type - 2.0 * share[:, 2]
    return np.asarray(np.clip(np.round(mix), -2, 0), dtype=np.int64)


def _amplitudes(ax: AxisFit) -> FloatArray:
    return np.array(
        [
            ax.noise_density.value**2,
            ax.bias_stddev.value**2 if math.isfinite(ax.bias_correlation_time.value) else 0.0,
            ax.random_walk_density.value**2,
        ]
    )
