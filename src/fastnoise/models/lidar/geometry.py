"""Checks and small helpers for the lidar noise models (``LidarNoise`` in
``fastnoise.models.lidar.lidar_noise``, ``RangeNoise`` in
``fastnoise.models.lidar.range_noise``): rigid
poses, unit axes, clouds, the calls' arguments, output buffers. The constructors'
parameter checks are in ``fastnoise.models.lidar.params``.

Kept in Python because they run once per call, not per point. Every array a kernel
reads comes through ``fastnoise.core.arrays.intake`` (native-endian, aligned,
C-contiguous copies when needed; bool, complex, object, string and datetime data
refused by name), every ``out=`` through ``fastnoise.core.arrays.output``, and an
output that shares memory with an input the kernel reads, other than being that very
array (in place), is refused.
"""

from __future__ import annotations

from typing import NamedTuple, TypeGuard

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core import threads as _threads
from fastnoise.core import validate as _validate

# Tolerance on R^T R = I, det R = 1, |axis| = 1 and the 4x4 bottom row.
RIGID_TOL = 1e-6
# Frames index the noise streams: stream = frame << 2 | kind, so frame < 2**62, and the
# last one, 2**62 - 1, is reserved: its range stream holds RangeNoise's once-drawn bias.
RESERVED_FRAME = 2**62 - 1
# The last frame a call may use.
LAST_FRAME = RESERVED_FRAME - 1
# Largest distance of a hit, m (csrc/lidar.h FN_LIDAR_MAX_RANGE): a point farther
# from the lidar origin, or with a larger given distance, is a non-hit.
MAX_RANGE = 1e9
# Largest |value| of a ray pose entry (top three rows) and of a pose translation, m:
# rotating such values about the lidar origin stays far inside float32 (and float64).
MAX_COORD = 1e30
# Smallest piece a threaded call hands to one thread.
MIN_PER_THREAD = 1 << 14

_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)


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


def frame_geometry(
    axis: np.ndarray, lidar_pose: object
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(axis in the caller's frame, lidar origin there, caller -> lidar rotation or
    None) for ``LidarNoise``'s unit ``axis`` and a call's ``lidar_pose``."""
    if lidar_pose is None:
        return axis, np.zeros(3), None
    rot, t = rigid_pose("lidar_pose", lidar_pose)
    return rot @ axis, t, rot.T.copy()


def apply_inputs(
    axis: np.ndarray,
    points: object,
    distances: object,
    hit_mask: object,
    lidar_pose: object,
    frame: object,
    first_index_: object,
    out: object,
    return_local: object,
    drop_non_hits: object,
    threads: object,
    out_distances: object,
    out_hit_mask: object,
) -> tuple:
    """``LidarNoise.apply``'s arguments (its unit ``axis`` first), checked, as the
    kernel takes them: (points, distances or None, hit mask or None, frame (None:
    the model's counter, which the caller reads once every check has passed), first
    index, threads, axis in the caller's frame, lidar origin, caller -> lidar rotation
    or None, points out, distances out, hit mask out, local out or None, return_local,
    drop_non_hits)."""
    pts, dist_in, mask_in = cloud_inputs(points, distances, hit_mask)
    dt = pts.dtype
    n = pts.shape[0]
    fr = None if frame is None else frame_index("frame", frame)
    first = first_index(first_index_, n)
    nthreads = _threads.count(threads)
    return_local = _validate.boolean("return_local", return_local)
    drop_non_hits = _validate.boolean("drop_non_hits", drop_non_hits)
    kw, t, to_local = frame_geometry(axis, lidar_pose)
    pout = points_output(out, n, dt)
    dout = output_or_new("out_distances", out_distances, (n,), dt)
    mout = output_or_new("out_hit_mask", out_hit_mask, (n,), np.dtype(np.bool_))
    # the arrays the kernel reads (after intake): an output may be the very same
    # array (in place, element for element), nothing else
    refuse_overlap(
        {
            "out": None if out is None else pout,
            "out_distances": None if out_distances is None else dout,
            "out_hit_mask": None if out_hit_mask is None else mout,
        },
        {"points": pts, "distances": dist_in, "hit_mask": mask_in},
    )
    lout = np.empty((n, 3), dtype=dt) if (return_local and to_local is not None) else None
    return (
        pts,
        dist_in,
        mask_in,
        fr,
        first,
        nthreads,
        kw,
        t,
        to_local,
        pout,
        dout,
        mout,
        lout,
        return_local,
        drop_non_hits,
    )


def noisy_points(
    pout: np.ndarray,
    dout: np.ndarray,
    mout: np.ndarray,
    lout: np.ndarray | None,
    return_local: bool,
    drop_non_hits: object,
) -> NoisyPoints:
    """``LidarNoise.apply``'s result from the kernel's outputs."""
    if return_local and lout is None:
        lout = pout
    if drop_non_hits:
        keep = mout
        return NoisyPoints(pout[keep], dout[keep], mout, None if lout is None else lout[keep])
    return NoisyPoints(pout, dout, mout, lout)


def _show(value: object) -> str:
    """A short repr for an error message."""
    text = repr(value)
    return text if len(text) <= 120 else text[:117] + "..."


def _real_array(name: str, value: object) -> np.ndarray:
    """``value`` as an array of real numbers (int or float), else TypeError naming
    ``name`` (bool, complex, object, string, datetime and ragged data)."""
    if isinstance(value, str | bytes):
        raise TypeError(f"{name}={_show(value)} is not allowed: it must hold real numbers")
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:  # ragged lists and the like
        raise TypeError(
            f"{name}={_show(value)} is not allowed: it must be an array of real numbers"
        ) from exc
    if arr.dtype.kind not in "iuf":
        raise TypeError(
            f"{name}={_show(value)} has dtype {arr.dtype}: it must hold real numbers (int or float)"
        )
    return arr


def unit_axis(name: str, value: object) -> np.ndarray:
    """A unit-length 3-vector (within RIGID_TOL), renormalized to 1."""
    arr = _real_array(name, value)
    k = _validate.vector3(name, arr.astype(np.float64))
    scale = float(np.max(np.abs(k)))  # scaled, so a huge component cannot overflow
    norm = scale * float(np.sqrt((k / scale) @ (k / scale))) if scale > 0.0 else 0.0
    if abs(norm - 1.0) > RIGID_TOL:
        raise ValueError(
            f"{name}={value!r} is not allowed: it must be a unit vector (its length is {norm})"
        )
    return k / norm


def rigid_pose(name: str, value: object) -> tuple[np.ndarray, np.ndarray]:
    """(R, t) of a 4x4 or 3x4 rigid transform: finite, R orthonormal with det +1
    (within RIGID_TOL), |t| <= MAX_COORD per axis, a 4x4's bottom row (0, 0, 0, 1)."""
    allowed = (
        f"{name} must be a rigid transform: a (4, 4) or (3, 4) array of finite real "
        f"numbers whose rotation part R has R^T R = I and det R = +1 (within {RIGID_TOL}), "
        f"whose translation lies within +-{MAX_COORD:g} m, and (4 x 4) whose bottom row "
        "is (0, 0, 0, 1)"
    )
    m = _real_array(name, value).astype(np.float64)
    if m.shape not in ((4, 4), (3, 4)):
        raise ValueError(f"{name} has shape {m.shape}: {allowed}")
    if not np.all(np.isfinite(m)):
        raise ValueError(f"{name}={m.tolist()!r} has non-finite entries: {allowed}")
    if m.shape == (4, 4) and np.max(np.abs(m[3] - (0.0, 0.0, 0.0, 1.0))) > RIGID_TOL:
        raise ValueError(f"{name} has the bottom row {m[3].tolist()}: {allowed}")
    rot = m[:3, :3]
    err = float(np.max(np.abs(rot.T @ rot - np.eye(3))))
    det = float(np.linalg.det(rot))
    if not (err <= RIGID_TOL and det > 0):
        raise ValueError(
            f"{name} rotation part {rot.tolist()} is not a rotation (R^T R - I max error "
            f"{err:.3g}, det {det:.6g}): {allowed}"
        )
    if np.max(np.abs(m[:3, 3])) > MAX_COORD:
        raise ValueError(f"{name} has the translation {m[:3, 3].tolist()}: {allowed}")
    return rot.copy(), m[:3, 3].copy()


def frame_index(name: str, value: object, limit: int = LAST_FRAME) -> int:
    """A frame or point index: an int in [0, limit]."""
    if type(value) is int and 0 <= value <= limit:
        return value  # the common case, without the checks' cost
    return _validate.integer(name, value, 0, limit + 1)


def first_index(value: object, n: int) -> int:
    """The index of a call's first point, beam or ray: an int such that first_index +
    n <= 2**64, so every index of the call exists (none wraps)."""
    last = 2**64 - max(n, 1)
    if type(value) is int and 0 <= value <= last:
        return value  # the common case, without the checks' cost
    v = _validate.integer("first_index", value, 0, 2**64)
    if v > last:
        raise ValueError(
            f"first_index={value!r} is not allowed: with {n} items it must be <= {last}, so "
            "that first_index + N <= 2**64 (indices past 2**64 - 1 would wrap)"
        )
    return v


def float_data(name: str, value: object, *, ndim: int | None = None) -> np.ndarray:
    """``value`` as the kernels read it: float32 data (any byte order) stays float32,
    other real types become float64; native-endian, aligned and C-contiguous (a copy
    when needed: the caller's array is never written). Bool, complex, object, string
    and datetime data are refused (TypeError naming ``name``)."""
    if (
        type(value) is np.ndarray
        and (value.dtype is _F64 or value.dtype is _F32)
        and value.flags.c_contiguous
        and value.flags.aligned
        and (ndim is None or value.ndim == ndim)
    ):
        return value  # the common case: read as it is
    arr = _real_array(name, value)
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} has shape {arr.shape}: it must have {ndim} dimensions")
    dt = np.float32 if arr.dtype.kind == "f" and arr.dtype.itemsize == 4 else np.float64
    return _arrays.intake(name, arr, dt)


def point_rows(arr: object) -> TypeGuard[np.ndarray]:
    """True for an (N, 3) native float32 or float64 array whose rows are records: each
    row's x, y, z adjacent, rows ``strides[0]`` bytes apart (at least a row's size, any
    alignment), as a view of a PointCloud2's data. The kernel reads and writes such
    points where they are (``fn_lidar_points_rows_*``), without a contiguous copy."""
    if type(arr) is not np.ndarray or arr.ndim != 2 or arr.shape[1] != 3:
        return False
    dt = arr.dtype
    if dt is not _F32 and dt is not _F64:
        return False
    step, item = arr.strides
    if item != dt.itemsize:
        return False
    if arr.shape[0] > 1 and step != 3 * item:
        return step > 3 * item  # records (read with memcpy); overlapping rows are copied
    return bool(arr.flags.aligned)  # one row or C-contiguous: the plain kernel reads it


def points_output(out: object, n: int, dtype: np.dtype) -> np.ndarray:
    """``LidarNoise.apply``'s points result: a new (N, 3) array, or the caller's
    ``out`` (checked: (N, 3), native ``dtype``, writeable, and C-contiguous and
    aligned or rows of records as :func:`point_rows` says)."""
    if out is None:
        return np.empty((n, 3), dtype=dtype)
    if point_rows(out) and out.dtype == dtype and out.shape[0] == n and out.flags.writeable:
        return out
    if isinstance(out, np.ndarray) and out.dtype == dtype and out.shape == (n, 3):
        if out.flags.writeable and not (out.flags.c_contiguous and out.flags.aligned):
            raise ValueError(
                f"out has strides {out.strides}: it must be C-contiguous and aligned, or "
                f"hold each point's x, y, z as adjacent items ({dtype.itemsize} bytes apart) "
                "with rows at least a row's size apart"
            )
    return _arrays.output("out", out, (n, 3), dtype)


def output_or_new(name: str, arr: object, shape: tuple, dtype: np.dtype) -> np.ndarray:
    """A caller's output array (checked: exactly ``shape``, native ``dtype``,
    C-contiguous, aligned, writeable), or a new one."""
    if arr is None:
        return np.empty(shape, dtype=dtype)
    return _arrays.output(name, arr, shape, dtype)


def cloud_inputs(
    points: object, distances: object, hit_mask: object
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """``LidarNoise.apply``'s inputs as the kernel reads them: (N, 3) points (float32
    or float64; C-contiguous and aligned, or rows of records as :func:`point_rows`
    says), the optional (N,) distances in the points' dtype and the optional (N,)
    bool hit mask, all native, aligned and C-contiguous."""
    pts = points if point_rows(points) else float_data("points", points)
    if pts.ndim != 2 or pts.shape[1] != 3:
        raise ValueError(f"points has shape {pts.shape}: it must be (N, 3)")
    n = pts.shape[0]
    dist_in = None
    if distances is not None:
        dist_in = _real_array("distances", distances)
        if dist_in.shape != (n,):
            raise ValueError(f"distances has shape {dist_in.shape}: it must be ({n},) like points")
        with np.errstate(over="ignore"):  # beyond float32: inf there, a non-hit
            dist_in = _arrays.intake("distances", dist_in, pts.dtype)
    mask_in = None
    if hit_mask is not None:
        mask_in = np.asarray(hit_mask) if not isinstance(hit_mask, str | bytes) else None
        if mask_in is None or mask_in.dtype != np.bool_:
            what = type(hit_mask).__name__ if mask_in is None else mask_in.dtype
            raise TypeError(f"hit_mask has dtype {what}: it must be bool")
        if mask_in.shape != (n,):
            raise ValueError(f"hit_mask has shape {mask_in.shape}: it must be ({n},) like points")
        mask_in = np.ascontiguousarray(mask_in)
    return pts, dist_in, mask_in


def ray_poses_input(ray_poses: object) -> np.ndarray:
    """``LidarNoise.perturb_rays``' poses: (N, 3, 4) or (N, 4, 4) real numbers as the
    kernel reads them. (Their top three rows must also be finite and within
    +-MAX_COORD: the C check ``fn_lidar_rays_check`` finds the first that is not.)"""
    poses = float_data("ray_poses", ray_poses)
    if poses.ndim != 3 or poses.shape[1:] not in ((3, 4), (4, 4)):
        raise ValueError(f"ray_poses has shape {poses.shape}: it must be (N, 3, 4) or (N, 4, 4)")
    return poses


def rays_output(out: object, poses: np.ndarray) -> np.ndarray:
    """``LidarNoise.perturb_rays``' result array holding a copy of ``poses``: a new
    array, or the caller's ``out`` (checked; ``poses`` itself works in place)."""
    if out is None:
        return poses.copy()
    res = output_or_new("out", out, poses.shape, poses.dtype)
    refuse_overlap({"out": res}, {"ray_poses": poses})
    if res is not poses:
        np.copyto(res, poses)
    return res


def bad_ray(poses: np.ndarray, i: int) -> ValueError:
    """The error for ray pose ``i``, whose top rows are not finite or too large."""
    return ValueError(
        f"ray_poses[{i}] has the entries {poses[i, :3].tolist()}: the top three rows of "
        f"every ray pose must be finite and within +-{MAX_COORD:g}"
    )


def refuse_overlap(outputs: dict, inputs: dict) -> None:
    """Refuse an output that shares memory with an input the kernel reads (or with
    another output), unless it is that very array (the in-place case). ``outputs``
    holds the caller's arrays only (None for those the call makes: a new array
    shares memory with nothing)."""
    if any(o is not None for o in outputs.values()):
        _arrays.no_partial_overlap(outputs, inputs)
