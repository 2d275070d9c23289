"""Overlapping Allan deviation of rate data, Greenhall's equivalent degrees of freedom and
chi-square confidence intervals.

Rate ("frequency") data: samples y[k] of a rate in any unit U (rad/s for a gyroscope,
m/s^2 for an accelerometer) at ``rate`` Hz. The overlapping Allan variance at
tau = m/rate (s) is (NIST SP 1065 eq. 11, with the phase x = cumsum(y - mean(y)) * dt
and x[0] = 0, N + 1 phase points)::

    avar(tau) = sum_{i=0}^{N-2m} (x[i+2m] - 2 x[i+m] + x[i])^2 / (2 tau^2 (N + 1 - 2m))

the same numbers as ``allantools.oadev(y, rate=rate, data_type="freq", taus=...)``
(agreement to about 1e-13 relative, tested to 1e-9), on the same tau grids ("octave",
"decade", "log10", "all" or explicit taus rounded to whole samples). The sums run in C
(``csrc/allan.c``, ``csrc/allan_kern.c``: one copy per SIMD path, the same bits on
each), one column at a time per thread, without the GIL: a 10^7-sample six-axis log
on the octave grid (23 taus) takes about 1.1 s of CPU time for all six columns with
AVX2 (allantools.oadev: 2.3 s for one column), measured on this project's 2-core
machine.

Confidence intervals follow allantools: Greenhall's EDF (``edf_greenhall``, Greenhall
and Riley 2004, the overlapping unmodified case d = 2) for a power-law noise type
alpha (S_y(f) ~ f^alpha: 0 white rate noise, -1 flicker, -2 random walk of the rate;
+1, +2 the phase noises), then the chi-square interval of NIST SP 1065 eq. 45
(``confidence_interval``).
"""

from __future__ import annotations

from fastnoise.analysis._allan_ci import (
    _TABLE2,  # noqa: F401
    _alphas,  # noqa: F401
    _basic_sum,  # noqa: F401
    _ci,  # noqa: F401
    _sw,  # noqa: F401
    _sx,  # noqa: F401
    _sz,  # noqa: F401
    confidence_interval,  # noqa: F401
    edf_greenhall,  # noqa: F401
    noise_type_from_slope,  # noqa: F401
)
from fastnoise.analysis._allan_dev import (
    _column_sums,  # noqa: F401
    oadev,  # noqa: F401
    tau_grid,  # noqa: F401
)
from fastnoise.analysis._allan_types import (
    MIN_SAMPLES,  # noqa: F401
    ONE_SIGMA_CI,  # noqa: F401
    AllanDeviation,  # noqa: F401
    AlphaSpec,  # noqa: F401
    FloatArray,  # noqa: F401
    IntArray,  # noqa: F401
    Progress,  # noqa: F401
    TauSpec,  # noqa: F401
    _as_log,  # noqa: F401
    _first_bad,  # noqa: F401
    _rate,  # noqa: F401
)

__all__ = [
    "ONE_SIGMA_CI",
    "AllanDeviation",
    "confidence_interval",
    "edf_greenhall",
    "noise_type_from_slope",
    "oadev",
    "tau_grid",
]
