"""Image files and image stacks: the ``image`` handler (8 and 16-bit images, colours in
R, G, B order) and the ``depth_image`` handler (float depth in metres) of
:mod:`fastnoise.io.files.files`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.core import validate as _validate

__all__ = [
    "IMAGE_SUFFIXES",
    "image_noise_batch",
    "noise_bgr",
    "noise_depth",
    "noise_image_file",
]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")


# ---------------------------------------------------------------------------------------
# in memory


def image_noise_batch(
    model: Any,
    frames: np.ndarray,
    first_frame: int = 0,
    out: np.ndarray | None = None,
    threads: int = 1,
) -> np.ndarray:
    """An image model (``image`` or ``depth_image`` handler) on a stack of images
    (N, H, W[, C]): image ``k`` is frame ``first_frame + k``, the same bits as
    ``model.apply(frames[k], frame=first_frame + k)``. ``out`` (same shape and dtype,
    may be ``frames``) receives the result."""
    arr = np.asarray(frames)
    if arr.ndim not in (3, 4):
        raise ValueError(f"frames has shape {arr.shape}: it must be N x H x W[ x C]")
    first = _validate.integer("first_frame", first_frame, 0, 2**64 - max(arr.shape[0], 1) + 1)
    res = np.empty_like(arr) if out is None else out
    if res.shape != arr.shape or res.dtype != arr.dtype:
        raise ValueError(f"out must have shape {arr.shape} and dtype {arr.dtype}")
    for k in range(arr.shape[0]):
        model.apply(arr[k], frame=first + k, out=res[k], threads=threads)
    return res


# ---------------------------------------------------------------------------------------
# files


def _cv2() -> Any:
    try:
        import cv2
    except ImportError:
        raise ImportError("image files need OpenCV: pip install 'fastnoise[files]'") from None
    return cv2


def noise_bgr(model: Any, img: np.ndarray, frame: int, threads: int) -> np.ndarray:
    """The ``image`` handler on an image as OpenCV holds it (B, G, R[, A]): a copy with
    ``model.apply(view, frame=frame, out=view, threads=threads)`` on its colours in R,
    G, B order (8 or 16-bit)."""
    if img.dtype not in (np.uint8, np.uint16):
        raise ValueError(f"image noise takes 8 or 16-bit images, not {img.dtype}")
    out = img.copy()
    view = out if out.ndim == 2 else out[..., 2::-1]
    model.apply(view, frame=frame, out=view, threads=threads)
    return out


def noise_depth(model: Any, img: np.ndarray, frame: int, threads: int) -> np.ndarray:
    """The ``depth_image`` handler on a float32/float64 depth image (m):
    ``model.apply(img, frame=frame, threads=threads)``."""
    if img.dtype not in (np.float32, np.float64):
        raise ValueError(f"depth images must be float32 or float64 (m), not {img.dtype}")
    return model.apply(img, frame=frame, threads=threads)


def noise_image_file(
    handler: str, src: Path, dst: Path, model: Any, options: dict, threads: int
) -> None:
    """Write image file ``src`` with the noise of ``handler`` (``image`` or
    ``depth_image``) to ``dst``, in ``src``'s format (JPEG at ``quality``, PNG at
    ``png_compression``)."""
    cv2 = _cv2()
    img = cv2.imread(str(src), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise ValueError("OpenCV cannot read it as an image")
    noise = noise_depth if handler == "depth_image" else noise_bgr
    res = noise(model, img, 0, threads)
    suffix = src.suffix.lower()
    params: list[int] = []
    if suffix in (".jpg", ".jpeg"):
        params = [cv2.IMWRITE_JPEG_QUALITY, int(options.get("quality", 95))]
    elif suffix == ".png":
        params = [cv2.IMWRITE_PNG_COMPRESSION, int(options.get("png_compression", 3))]
    ok, buf = cv2.imencode(suffix, res, params)
    if not ok:
        raise ValueError("OpenCV cannot write the noised image")
    dst.write_bytes(buf.tobytes())
