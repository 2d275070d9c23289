"""From real sensor logs to noise models, and pictures of the noise.

- :func:`oadev`: overlapping Allan deviation of rate data (C kernel; the numbers of
  ``allantools.oadev(..., data_type="freq")``), with Greenhall's EDF
  (:func:`edf_greenhall`) and chi-square intervals (:func:`confidence_interval`).
- :func:`mdev`, :func:`ohdev`, :func:`tdev`, :func:`totdev`: modified Allan, overlapping
  Hadamard, time and total deviation (NIST SP 1065), in a :class:`Deviation`.
- :mod:`~fastnoise.analysis.theory`: the exact Allan deviation and the power spectral
  density of a configured ``TriadNoise``/``ImuNoise`` (:func:`allan_deviation`,
  :func:`allan_deviation_terms`, :func:`power_spectral_density`).
- :func:`fit_noise`: fit N, a Gauss-Markov bias (sigma_b, tau_c) and K to a stationary
  log, with intervals; returns a :class:`NoiseFit` holding ready ``TriadNoise``.
- :mod:`~fastnoise.analysis.plots` (``fastnoise[plot]``) and
  :mod:`~fastnoise.analysis.report`: PNG pictures and HTML pages (``fastnoise fit``,
  ``fastnoise report``).

The pictures load matplotlib only when called.
"""

from fastnoise.analysis.allan import (
    ONE_SIGMA_CI,
    AllanDeviation,
    confidence_interval,
    edf_greenhall,
    oadev,
    tau_grid,
)
from fastnoise.analysis.deviations import Deviation, mdev, ohdev, tdev, totdev
from fastnoise.analysis.fit import AxisFit, Estimate, NoiseFit, fit_noise
from fastnoise.analysis.logs import load_log
from fastnoise.analysis.theory import (
    allan_deviation,
    allan_deviation_terms,
    allan_variance_terms,
    bias_instability,
    power_spectral_density,
    power_spectral_density_terms,
)

__all__ = [
    "ONE_SIGMA_CI",
    "AllanDeviation",
    "AxisFit",
    "Deviation",
    "Estimate",
    "NoiseFit",
    "allan_deviation",
    "allan_deviation_terms",
    "allan_variance_terms",
    "bias_instability",
    "confidence_interval",
    "edf_greenhall",
    "fit_noise",
    "load_log",
    "mdev",
    "oadev",
    "ohdev",
    "power_spectral_density",
    "power_spectral_density_terms",
    "tau_grid",
    "tdev",
    "totdev",
]
