"""Camera noise on GPU images: the bits of the ``camera`` model (ImageNoise), per pixel
and per frame."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.cuda._arrays import as_device, launch_grid, like_input, model_arg
from fastnoise.cuda._compile import cupy_module, kernel
from fastnoise.models.camera.checks import tile_offsets

_DTYPES = {
    np.dtype(np.uint8): 0,
    np.dtype(np.uint16): 1,
    np.dtype(np.float32): 2,
    np.dtype(np.float64): 3,
}
_TILE = 1024  # pixels of a row per thread block (FN_CAM_TILE in csrc/device/kernels.cu)


def _image(name: str, value: object) -> Any:
    img = as_device(name, value)
    if img.dtype not in _DTYPES:
        raise TypeError(
            f"{name} has dtype {img.dtype}: it must be uint8, uint16, float32 or float64"
        )
    if img.ndim not in (2, 3) or (img.ndim == 3 and img.shape[2] not in (1, 3, 4)):
        raise ValueError(
            f"{name} has shape {img.shape}: it must be H x W or H x W x C with C = 1, 3 "
            "or 4 (alpha last)"
        )
    return img


def _span(a: Any) -> tuple[int, int]:
    """[lo, hi) of the bytes an array's elements occupy."""
    lo = hi = a.data.ptr
    for n, st in zip(a.shape, a.strides, strict=True):
        if n > 1:
            if st < 0:
                lo += st * (n - 1)
            else:
                hi += st * (n - 1)
    return lo, hi + a.itemsize


def image_noise(
    model: Any,
    image: Any,
    frame: int | None = None,
    out: Any = None,
    row_offset: int = 0,
    col_offset: int = 0,
    full_width: int | None = None,
) -> Any:
    """``model.apply(image, ...)`` on a GPU image: the same bits, on the device.

    Parameters
    ----------
    model : ImageNoise
        Its mean, stddev (intensity units, full scale 1.0), per_channel, variant,
        linear_light and key; its frame counter when ``frame`` is None.
    image : GPU array
        H x W, H x W x 1, H x W x 3 or H x W x 4 (alpha last), uint8, uint16, float32
        or float64, any strides: a CuPy array, or anything with
        ``__cuda_array_interface__`` or CUDA DLPack (a PyTorch CUDA tensor, ...).
    frame : int or None
        Frame index in [0, 2**64); None takes the model's counter and advances it, as
        :meth:`ImageNoise.apply` does.
    out : GPU array, optional
        Of the image's shape and dtype; may be ``image`` itself (in place), must not
        overlap it otherwise.
    row_offset, col_offset, full_width
        The tile's place in a larger frame, as in :meth:`ImageNoise.apply`.

    Returns
    -------
    GPU array
        ``out``, or a new array of the input's kind (a tensor for a tensor).
    """
    model_arg("model", model, "camera")
    if model.variant == "ogre2_rgbd":  # a CPU kernel only (csrc/camera_rgbd.c)
        raise ValueError(
            "model.variant='ogre2_rgbd' is not allowed on the GPU: apply that model "
            "with ImageNoise.apply (CPU), or use variant 'gazebo' or 'ogre2'"
        )
    img = _image("image", image)
    per_channel = bool(model.per_channel)
    if frame is not None:
        f = _validate.integer("frame", frame, 0, 2**64)
    row, col, pitch = tile_offsets(row_offset, col_offset, full_width, img, per_channel)
    if out is None:
        dst = cupy_module().empty(img.shape, dtype=img.dtype)
    else:
        dst = _image("out", out)
        if dst.shape != img.shape or dst.dtype != img.dtype:
            raise ValueError(
                f"out has shape {dst.shape} and dtype {dst.dtype}: it must match the "
                f"image's {img.shape} and {img.dtype}"
            )
        same = dst.data.ptr == img.data.ptr and dst.strides == img.strides
        (a0, a1), (b0, b1) = _span(img), _span(dst)
        if not same and a0 < b1 and b0 < a1:
            raise ValueError(
                "out shares memory with image: it must be image itself (in place) or not overlap it"
            )
    if frame is None:
        # the model's next frame, reserved under the model's own lock (the one its CPU
        # apply takes), so CPU and GPU calls that share a model never share a frame
        f = model._take_frames(1)
    h, w = img.shape[0], img.shape[1]
    c = img.shape[2] if img.ndim == 3 else 1
    p = pitch if pitch else w
    if h == 0 or w == 0:
        return out if out is not None else like_input(dst, image)
    runs = (w + _TILE - 1) // _TILE
    st_in = (*img.strides[:2], img.strides[2] if img.ndim == 3 else 0)
    st_out = (*dst.strides[:2], dst.strides[2] if dst.ndim == 3 else 0)
    args = (
        np.uint64(model.key), np.uint64(f), np.uint64(row * p + col), np.uint64(p),
        np.float64(model.mean), np.float64(model.stddev), np.int32(per_channel),
        np.int32(model.variant == "ogre2"), np.int32(bool(model.linear_light)),
        np.int32(_DTYPES[img.dtype]), np.uint64(w), np.uint64(c), np.uint64(runs),
        np.uint64(img.data.ptr), *(np.int64(s) for s in st_in),
        np.uint64(dst.data.ptr), *(np.int64(s) for s in st_out),
    )  # fmt: skip
    launch_grid(kernel("fn_cuda_camera"), h * runs, args)
    return out if out is not None else like_input(dst, image)
