"""Argument checks of :meth:`fastnoise.models.camera.image_noise.ImageNoise.apply` that are not on
the per-frame path of an untiled image (plain Python, so they cost no compiled module):
the row and tile offsets, checked against the 2**64 normal indices of a frame, and the
``out`` array."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate


def image_input(image: Any, dtypes: Any) -> np.ndarray:
    """The image of ``ImageNoise.apply`` off its fast path: refused by name unless an
    ndarray of one of ``dtypes`` in any byte order; a big-endian or unaligned image is
    copied to a native, aligned one."""
    if not isinstance(image, np.ndarray):
        raise TypeError(f"image must be a numpy.ndarray, got {type(image).__name__}")
    dt = image.dtype
    native = dt.newbyteorder("=") if dt.kind in "uf" else dt
    if native not in dtypes:
        raise TypeError(f"image has dtype {dt}: it must be uint8, uint16, float32 or float64")
    image_shape(image)
    return _arrays.intake("image", image, native)


def image_shape(image: np.ndarray) -> None:
    """Refuse an image that is not H x W, H x W x 1, H x W x 3 or H x W x 4, by name."""
    if image.ndim == 3:
        if image.shape[2] not in (1, 3, 4):
            raise ValueError(
                f"image has shape {image.shape}: the channel axis must have 1, 3 or 4 "
                "entries (grey, RGB, RGBA)"
            )
    elif image.ndim != 2:
        raise ValueError(
            f"image has shape {image.shape}: it must be H x W, H x W x 1, H x W x 3 or H x W x 4"
        )


def row_offset(value: Any, image: np.ndarray, per_channel: bool) -> int:
    """``row_offset`` of an untiled image, checked by name (see ``ImageNoise.apply``)."""
    value = _validate.integer("row_offset", value, 0, 2**64)
    h, w = image.shape[0], image.shape[1]
    channels = image.shape[2] if image.ndim == 3 else 1
    per = min(channels, 3) if per_channel else 1
    # every normal index, below (row_offset + H) * W * per, must stay below 2**64
    if (value + h) * w * per > 2**64 - 1:
        top = (2**64 - 1) // (w * per) - h
        raise ValueError(
            f"row_offset={value!r} is not allowed: the normal indices (row_offset + {h}) * "
            f"{w} * {per} must stay below 2**64, so row_offset <= {max(top, 0)} here"
        )
    return value


def tile_offsets(
    row_offset: Any, col_offset: Any, full_width: Any, image: np.ndarray, per_channel: bool
) -> tuple[int, int, int]:
    """(row_offset, col_offset, pitch) of a tile of a wider frame, checked by name."""
    h, w = image.shape[0], image.shape[1]
    row = _validate.integer("row_offset", row_offset, 0, 2**64)
    col = _validate.integer("col_offset", col_offset, 0, 2**64)
    if full_width is None:
        pitch = w
    else:
        pitch = _validate.integer("full_width", full_width, 1, 2**64)
    if col + w > pitch:
        raise ValueError(
            f"col_offset={col!r} is not allowed: the tile's {w} columns must end within "
            f"full_width={pitch!r}, so col_offset <= {max(pitch - w, 0)} here"
        )
    channels = image.shape[2] if image.ndim == 3 else 1
    per = min(channels, 3) if per_channel else 1
    # every normal index, below ((row_offset + H) * pitch + col_offset) * per, < 2**64
    if ((row + h) * pitch + col) * per > 2**64 - 1:
        raise ValueError(
            f"row_offset={row!r} is not allowed: the normal indices ((row_offset + {h}) * "
            f"{pitch} + {col}) * {per} must stay below 2**64"
        )
    return row, col, (0 if pitch == w else pitch)


def overlaps_itself(a: np.ndarray) -> bool:
    """True when two elements of ``a`` may share memory (a zero or interleaved
    stride): sorted by |stride|, each axis must step past the span of the ones below."""
    if a.size == 0:
        return False
    extent = a.itemsize
    for st, n in sorted((abs(st), n) for st, n in zip(a.strides, a.shape, strict=True) if n > 1):
        if st < extent:
            return True
        extent += st * (n - 1)
    return False


def check_out(out: Any, image: np.ndarray) -> np.ndarray:
    """``out`` of ``ImageNoise.apply``: an aligned, writeable ndarray of the image's shape
    and dtype whose elements do not share memory."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy.ndarray, got {type(out).__name__}")
    if out.dtype != image.dtype:
        raise TypeError(
            f"out has dtype {out.dtype.str}: it must be {image.dtype} (the "
            "image's, native byte order)"
        )
    if out.shape != image.shape:
        raise ValueError(f"out has shape {out.shape}: it must be {image.shape} (the image's)")
    if not out.flags.writeable:
        raise ValueError("out must be writeable")
    if not out.flags.aligned:
        raise ValueError("out must be aligned")
    if overlaps_itself(out):
        raise ValueError(
            f"out has strides {out.strides} under which elements share "
            "memory: every element needs its own"
        )
    return out
