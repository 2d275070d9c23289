"""Depth and image files (split out of
:mod:`fastnoise.io.files`, which re-exports it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.core.seeding import as_seed_sequence, model_key

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
_CLIP_TOL = 1e-6  # gz-rendering depth_camera_final_fs.glsl: tolerance of its clip tests


# ---------------------------------------------------------------------------------------
# in memory


class DepthNoise:
    """DepthNoise(mean=0.0, stddev=0.0, seed=None, *, near=None, far=None): Gaussian
    noise on depth images, in metres.

    Every finite depth ``d`` of pixel ``j = y * W + x`` in frame ``f`` becomes
    ``d + mean + stddev * Z`` where ``Z`` is the very normal that
    :class:`~fastnoise.models.camera.ImageNoise` with the same seed draws for that pixel
    (float32 normal ``j`` of stream ``f`` under ``model_key(seed, "camera")``): depth is
    keyed like the camera. NaN and +-inf (no return) are kept; there is no clamp (depth
    is not an intensity in [0, 1]). Arithmetic in the image's dtype (float32 or float64).

    ``near``, ``far`` (m, optional; Gazebo's ``<camera><clip>``): gz-rendering's Ogre 2
    depth camera clips again after its noise pass (``depth_camera_final_fs.glsl``): a
    noisy depth ``> far - 1e-6`` becomes +inf and one ``< near + 1e-6`` becomes -inf.
    Gazebo tests the point's distance against ``far``; a depth image has only the depth
    along the optical axis, which is tested here (the same on the axis, fewer clipped
    off it).
    """

    model_name = "depth"

    def __init__(
        self,
        mean: float = 0.0,
        stddev: float = 0.0,
        seed: object = None,
        *,
        near: float | None = None,
        far: float | None = None,
    ) -> None:
        self.mean = _validate.finite("mean", mean)
        self.stddev = _validate.nonnegative("stddev", stddev)
        self.near = None if near is None else _validate.finite("near", near)
        self.far = None if far is None else _validate.finite("far", far)
        if self.near is not None and self.far is not None and not self.near < self.far:
            raise ValueError(f"near={near!r}, far={far!r} are not allowed: near must be < far")
        self.seed = as_seed_sequence(seed)
        self.key = model_key(self.seed, "camera")

    def __repr__(self) -> str:
        clip = (
            ""
            if self.near is None and self.far is None
            else f", near={self.near!r}, far={self.far!r}"
        )
        return f"DepthNoise(mean={self.mean!r}, stddev={self.stddev!r}{clip})"

    def apply(
        self, depth: np.ndarray, frame: int = 0, out: np.ndarray | None = None, threads: int = 1
    ) -> np.ndarray:
        """``depth`` (H, W) or (H, W, 1), float32 or float64 (m), with noise; ``out``
        (same shape and dtype, may be ``depth``) receives it."""
        from fastnoise.core.generator import fill_normals

        if not isinstance(depth, np.ndarray) or depth.dtype not in (np.float32, np.float64):
            raise TypeError("depth must be a float32 or float64 numpy array (m)")
        if depth.ndim not in (2, 3) or (depth.ndim == 3 and depth.shape[2] != 1):
            raise ValueError(f"depth has shape {depth.shape}: it must be H x W or H x W x 1")
        f = _validate.integer("frame", frame, 0, 2**64)
        z = np.empty(depth.shape[0] * depth.shape[1], dtype=np.float32)
        if z.size:
            fill_normals(self.key, f, 0, z, 0.0, 1.0, threads)
        noise = z.astype(depth.dtype, copy=False).reshape(depth.shape)
        noise *= depth.dtype.type(self.stddev)
        noise += depth.dtype.type(self.mean)
        finite = np.isfinite(depth)
        res = np.where(finite, depth + noise, depth)
        if self.far is not None:
            res[finite & (res > depth.dtype.type(self.far - _CLIP_TOL))] = np.inf
        if self.near is not None:
            res[finite & (res < depth.dtype.type(self.near + _CLIP_TOL))] = -np.inf
        if out is None:
            return res
        out[...] = res
        return out


def image_noise_batch(
    model: Any,
    frames: np.ndarray,
    first_frame: int = 0,
    out: np.ndarray | None = None,
    threads: int = 1,
) -> np.ndarray:
    """ImageNoise (or DepthNoise) on a stack of images (N, H, W[, C]): image ``k`` is
    frame ``first_frame + k``, the same bits as ``model.apply(frames[k], frame=first_frame
    + k)``. ``out`` (same shape and dtype, may be ``frames``) receives the result."""
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


def _image_noise(model: Any, img: np.ndarray, frame: int, threads: int) -> np.ndarray:
    """Noise an image as OpenCV holds it (B, G, R[, A]): colours in R, G, B order."""
    from fastnoise.models.camera import ImageNoise

    if isinstance(model, DepthNoise):
        if img.dtype not in (np.float32, np.float64):
            raise ValueError(f"depth images must be float32 or float64 (m), not {img.dtype}")
        return model.apply(img, frame=frame, threads=threads)
    if not isinstance(model, ImageNoise):
        raise TypeError(f"images take model 'camera' or 'depth', not {type(model).__name__}")
    if img.dtype not in (np.uint8, np.uint16):
        raise ValueError(f"camera noise takes 8 or 16-bit images, not {img.dtype}")
    out = img.copy()
    view = out if out.ndim == 2 else out[..., 2::-1]
    model.apply(view, frame=frame, out=view, threads=threads)
    return out


def _noise_image_file(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    cv2 = _cv2()
    img = cv2.imread(str(src), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise ValueError("OpenCV cannot read it as an image")
    res = _image_noise(model, img, 0, threads)
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
