"""Checks and small helpers for the lidar noise models (``LidarNoise`` in
``fastnoise.models.lidar``, ``RangeNoise`` in ``fastnoise.models.range_noise``): rigid
poses, unit axes, clouds, output buffers.

Kept in Python because they run once per call, not per point.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from fastnoise.core import validate as _validate

# Tolerance on R^T R = I, det R = 1, |axis| = 1 and the 4x4 bottom row.
RIGID_TOL = 1e-6
# Frames index the noise streams: stream = frame << 2 | kind, so frame < 2**62.
MAX_FRAME = 2**62 - 1
# Smallest piece a threaded call hands to one thread.
MIN_PER_THREAD = 1 << 14


class NoisyPoints(NamedTuple):
    """Result of ``LidarNoise.apply``.

    points : (M, 3) noised points in the caller's frame (m), M = N unless non-hits
        were dropped.
    distances : (M,) noised distances from the lidar origin (m).
    hit_mask : (N,) bool, True where the input point was a hit (and so was noised).
    local_points : (M, 3) the same noised points in the lidar frame (m), or None when
        not asked for.
    """

    points: np.ndarray
    distances: np.ndarray
    hit_mask: np.ndarray
    local_points: np.ndarray | None


def unit_axis(name: str, value: object) -> np.ndarray:
    """A unit-length 3-vector (within RIGID_TOL), renormalized to 1."""
    if isinstance(value, str | bytes) or (
        isinstance(value, list | tuple)
        and any(isinstance(v, bool | np.bool_ | str | bytes) or v is None for v in value)
    ):
        raise TypeError(f"{name}={value!r} is not allowed: it must be 3 real numbers")
    try:
        k = _validate.vector3(name, value)
    except (TypeError, ValueError) as exc:
        if name in str(exc):
            raise
        # numpy could not convert it
        raise TypeError(f"{name}={value!r} is not allowed: it must be 3 real numbers") from exc
    norm = float(np.sqrt(k @ k))
    if abs(norm - 1.0) > RIGID_TOL:
        raise ValueError(
            f"{name}={value!r} is not allowed: it must be a unit vector (its length is {norm})"
        )
    return k / norm


def rigid_pose(name: str, value: object) -> tuple[np.ndarray, np.ndarray]:
    """(R, t) of a 4x4 or 3x4 rigid transform: R orthonormal with det +1, finite."""
    try:
        m = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a 4x4 or 3x4 array of real numbers") from exc
    if m.shape not in ((4, 4), (3, 4)):
        raise ValueError(f"{name} has shape {m.shape}: it must be (4, 4) or (3, 4)")
    if not np.all(np.isfinite(m)):
        raise ValueError(f"{name}={m.tolist()!r} is not allowed: every entry must be finite")
    if m.shape == (4, 4) and np.max(np.abs(m[3] - (0.0, 0.0, 0.0, 1.0))) > RIGID_TOL:
        raise ValueError(
            f"{name} bottom row is {m[3].tolist()}: a rigid transform has (0, 0, 0, 1)"
        )
    rot = m[:3, :3]
    err = float(np.max(np.abs(rot.T @ rot - np.eye(3))))
    det = float(np.linalg.det(rot))
    if err > RIGID_TOL or det <= 0:
        raise ValueError(
            f"{name} rotation part {rot.tolist()} is not a rotation (R^T R - I max error "
            f"{err:.3g}, det {det:.6g}): the pose must be a rigid transform"
        )
    return rot.copy(), m[:3, 3].copy()


def frame_index(name: str, value: object, limit: int = MAX_FRAME) -> int:
    """A frame or point index: an int in [0, limit]."""
    return _validate.integer(name, value, 0, limit + 1)


def float_data(name: str, value: object) -> np.ndarray:
    """A C-contiguous float32 or float64 array; float32 stays float32, other real
    types become float64. Never the caller's array if a copy is needed."""
    arr = np.asarray(value)
    if arr.dtype == np.float32 or arr.dtype == np.float64:
        return np.ascontiguousarray(arr)
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} has dtype {arr.dtype}: it must hold real numbers")
    return np.ascontiguousarray(arr, dtype=np.float64)


def output_or_new(name: str, arr: object, shape: tuple, dtype: np.dtype) -> np.ndarray:
    """A caller's output array (checked), or a new one."""
    if arr is None:
        return np.empty(shape, dtype=dtype)
    return _validate.output_array(name, arr, shape, dtype)


def unaliased(inp: np.ndarray, outputs: tuple) -> np.ndarray:
    """``inp``, or a copy of it if it overlaps an output without being that very array
    (the kernel reads each element before writing it, so exact aliasing is fine)."""
    for o in outputs:
        if np.shares_memory(inp, o) and not (
            inp.__array_interface__["data"][0] == o.__array_interface__["data"][0]
            and inp.strides == o.strides
            and inp.dtype.itemsize == o.dtype.itemsize
        ):
            return inp.copy()
    return inp


def cloud_inputs(
    points: object, distances: object, hit_mask: object
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """``LidarNoise.apply``'s inputs checked: (N, 3) points (float32 or float64), the
    optional (N,) distances in the points' dtype and the optional (N,) bool hit mask
    as uint8, all C-contiguous."""
    pts = float_data("points", points)
    if pts.ndim != 2 or pts.shape[1] != 3:
        raise ValueError(f"points has shape {pts.shape}: it must be (N, 3)")
    n = pts.shape[0]
    dist_in = None
    if distances is not None:
        dist_in = float_data("distances", distances)
        if dist_in.shape != (n,):
            raise ValueError(f"distances has shape {dist_in.shape}: it must be ({n},) like points")
        dist_in = np.ascontiguousarray(dist_in, dtype=pts.dtype)
    mask_in = None
    if hit_mask is not None:
        mask_in = np.asarray(hit_mask)
        if mask_in.dtype != np.bool_:
            raise TypeError(f"hit_mask has dtype {mask_in.dtype}: it must be bool")
        if mask_in.shape != (n,):
            raise ValueError(f"hit_mask has shape {mask_in.shape}: it must be ({n},) like points")
        mask_in = np.ascontiguousarray(mask_in).view(np.uint8)
    return pts, dist_in, mask_in


def ray_poses_input(ray_poses: object) -> np.ndarray:
    """``LidarNoise.perturb_rays``' poses checked: (N, 3, 4) or (N, 4, 4) floats."""
    poses = float_data("ray_poses", ray_poses)
    if poses.ndim != 3 or poses.shape[1:] not in ((3, 4), (4, 4)):
        raise ValueError(f"ray_poses has shape {poses.shape}: it must be (N, 3, 4) or (N, 4, 4)")
    return poses


def copy_into_output(name: str, arr: np.ndarray, out: object) -> np.ndarray:
    """A copy of ``arr`` in the caller's ``out`` (checked; may be ``arr`` itself or
    overlap it), or in a new array."""
    if out is None:
        return arr.copy()
    res = _validate.output_array(name, out, arr.shape, arr.dtype)
    if res is not arr and not np.shares_memory(res, arr):
        np.copyto(res, arr)
    elif res is not arr:
        res[...] = arr.copy()
    return res
