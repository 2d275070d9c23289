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

from fastnoise.analysis._plot_allan import (
    plot_allan_fit,  # noqa: F401
    plot_allan_model,  # noqa: F401
)
from fastnoise.analysis._plot_camera import (
    _test_image,  # noqa: F401
    plot_camera,  # noqa: F401
)
from fastnoise.analysis._plot_common import (
    TERM_COLOURS,  # noqa: F401
    FloatArray,  # noqa: F401
    PathLike,  # noqa: F401
    _figure,  # noqa: F401
    _gauss_pdf,  # noqa: F401
    _loglog,  # noqa: F401
    _save,  # noqa: F401
    _tau_line,  # noqa: F401
    _units,  # noqa: F401
)
from fastnoise.analysis._plot_dvl import (
    _dvl_truth,  # noqa: F401
    plot_dvl,  # noqa: F401
)
from fastnoise.analysis._plot_lidar import (
    _hist_with_pdf,  # noqa: F401
    _perpendicular_basis,  # noqa: F401
    _plot_range,  # noqa: F401
    _range_panels,  # noqa: F401
    plot_lidar,  # noqa: F401
)

__all__ = [
    "plot_allan_fit",
    "plot_allan_model",
    "plot_camera",
    "plot_dvl",
    "plot_lidar",
]
