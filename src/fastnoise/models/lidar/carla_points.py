"""Checks and the result type of ``CarlaLidarNoise`` (``fastnoise.models.lidar.carla``):
its parameters and its ``apply`` arguments, in Python because they run once per call."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from fastnoise.core import threads as _threads
from fastnoise.core import validate as _validate
from fastnoise.models.lidar.geometry import (
    LAST_FRAME,
    first_index,
    float_data,
    frame_index,
    output_or_new,
    refuse_overlap,
)

# Largest attenuation rate (1/m) and intensity limit: beyond any physical value, and
# e^(-a d) stays a plain number (0 at worst).
MAX_RATE = 1.0e6
# Largest noise_stddev, m (as LidarNoise's distance noise).
MAX_NOISE = 1.0e9


class CarlaPoints(NamedTuple):
    """Result of ``CarlaLidarNoise.apply``.

    points : (M, C) the kept rows (M <= N), or every row (N, C) / (F, N, C); x, y, z
        in m (sensor frame) moved by the range noise, column 3 the intensity
        e^(-a d) of the noise-free distance, extra columns as given.
    mask : (N,) or (F, N) bool, True where the point is kept.
    """

    points: np.ndarray
    mask: np.ndarray


def carla_inputs(
    points: object, frame: object, first_index_: object, drop: object, out: object, threads: object
) -> tuple:
    """``CarlaLidarNoise.apply``'s arguments, checked: (points as the kernel reads them,
    first frame (None: the model's counter, read by the caller once every check has
    passed), first index, threads, result array holding nothing yet, mask, drop)."""
    pts = float_data("points", points)
    if pts.ndim not in (2, 3) or pts.shape[-1] < 4:
        raise ValueError(
            f"points has shape {pts.shape}: it must be (N, C) or (F, N, C) with C >= 4 "
            "(x, y, z, intensity, extra columns)"
        )
    nframes = pts.shape[0] if pts.ndim == 3 else 1
    fr = None if frame is None else frame_index("frame", frame, LAST_FRAME - max(nframes - 1, 0))
    first = first_index(first_index_, pts.shape[-2])
    nthreads = _threads.count(threads)
    if drop is None:
        drop = pts.ndim == 2
    drop = _validate.boolean("drop", drop)
    if drop and pts.ndim == 3:
        raise ValueError(
            "drop=True is not allowed for (F, N, C) points: the kept points of each frame "
            "differ in number; use the mask"
        )
    res = output_or_new("out", out, pts.shape, pts.dtype)
    refuse_overlap({"out": None if out is None else res}, {"points": pts})
    keep = np.empty(pts.shape[:-1], dtype=np.bool_)
    return pts, fr, first, nthreads, res, keep, drop
