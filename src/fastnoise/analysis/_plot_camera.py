"""Camera plots (split out of :mod:`fastnoise.analysis.plots`, which re-exports it)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from fastnoise.core import validate as _validate

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

from fastnoise.analysis._plot_common import PathLike, _figure, _gauss_pdf, _save


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
    from fastnoise.models.camera.image_noise import ImageNoise

    if not isinstance(model, ImageNoise):
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
