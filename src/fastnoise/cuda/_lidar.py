"""Lidar and range noise on GPU arrays: the bits of the ``lidar`` and ``range`` models
(LidarNoise.apply, RangeNoise.apply)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.cuda._arrays import as_device, launch, like_input, model_arg
from fastnoise.cuda._compile import cupy_module, kernel
from fastnoise.models.lidar.geometry import LAST_FRAME, frame_geometry
from fastnoise.models.lidar.params import GAZEBO_ZERO

_REALS = (np.dtype(np.float64), np.dtype(np.float32))
_MAX_RANGE = 1e9  # FN_LIDAR_MAX_RANGE (csrc/lidar.h): a hit is at most this far, m


class PointParams(NamedTuple):
    """The kernel's parameter array (csrc/device/lidar_dev.h) and switches."""

    prm: np.ndarray
    angular: bool
    distance: bool
    local: bool


def point_params(model: Any, lidar_pose: object) -> PointParams:
    """Parameters of one LidarNoise.apply call, as the CPU driver sets them."""
    kw, t, to_local = frame_geometry(model.axis, lidar_pose)
    am, asd = model.hitpoint_angular_noise_mean, model.hitpoint_angular_noise_stddev
    mu = model.distance_noise_mean
    base = model.distance_noise_stddev_base
    rise = model.distance_noise_stddev_rise_per_meter
    m = np.zeros(9) if to_local is None else np.asarray(to_local, np.float64).reshape(9)
    prm = np.array([*t, *kw, mu, base, rise, _MAX_RANGE, *m, am, asd], dtype=np.float64)
    return PointParams(
        prm, am != 0.0 or asd != 0.0, mu != 0.0 or base != 0.0 or rise != 0.0,
        to_local is not None,
    )  # fmt: skip


def range_params(model: Any) -> np.ndarray:
    """[bias, mean, stddev, precision, min_range, max_range] as the CPU model passes them
    (precision 0 unless above Gazebo's 1e-6)."""
    prec = model.precision if model.precision > GAZEBO_ZERO else 0.0
    return np.array(
        [model.bias, model.mean, model.stddev, prec, model.min_range, model.max_range],
        dtype=np.float64,
    )


def _index_range(first_index: object, n: int) -> int:
    first = _validate.integer("first_index", first_index, 0, 2**64)
    if first + n > 2**64:
        raise ValueError(
            f"first_index={first_index!r} is not allowed: first_index + {n} must not pass 2**64"
        )
    return first


def _threads(first: int, n: int) -> int:
    return 0 if n == 0 else (((first + n - 1) >> 4) - (first >> 4) + 1) * 4


def _new_or_out(name: str, out: object, shape: tuple[int, ...], dtype: Any) -> Any:
    cp = cupy_module()
    if out is None:
        return cp.empty(shape, dtype=dtype)
    arr = as_device(name, out)
    if arr.shape != shape or arr.dtype != dtype or not arr.flags.c_contiguous:
        raise ValueError(
            f"{name} has shape {arr.shape} and dtype {arr.dtype}: it must be a C-contiguous "
            f"{np.dtype(dtype).name} array of shape {shape}"
        )
    return arr


def _reals(name: str, value: object, shape_ok: Any, what: str) -> Any:
    arr = as_device(name, value)
    if arr.dtype not in _REALS:
        raise TypeError(f"{name} has dtype {arr.dtype}: it must be float32 or float64")
    if not shape_ok(arr.shape):
        raise ValueError(f"{name} has shape {arr.shape}: it must be {what}")
    return cupy_module().ascontiguousarray(arr)


class GpuNoisyPoints(NamedTuple):
    """What :func:`lidar_noise` returns (device arrays)."""

    points: Any
    distances: Any
    hit_mask: Any
    local_points: Any


def lidar_noise(
    model: Any,
    points: Any,
    distances: Any = None,
    hit_mask: Any = None,
    lidar_pose: object = None,
    frame: int | None = None,
    first_index: int = 0,
    out: Any = None,
    return_local: bool = False,
) -> GpuNoisyPoints:
    """``model.apply(points, ...)`` on GPU arrays: the same bits, on the device.

    Parameters
    ----------
    model : LidarNoise
        Its hitpoint angular noise (rad), distance noise (m, m/m), axis and key; its
        frame counter when ``frame`` is None.
    points : GPU array, (N, 3) float32 or float64
        Hit points (m) in the caller's frame; a non-contiguous array is copied on the
        device first.
    distances : GPU array (N,), optional
        Distances from the lidar origin (m), the points' dtype; default ``|p - origin|``.
    hit_mask : GPU array (N,) of bool, optional
        False marks a non-hit.
    lidar_pose : (4, 4) or (3, 4) array-like (host), optional
        The lidar's pose in the caller's frame, as for :meth:`LidarNoise.apply`.
    frame : int or None
        Frame in [0, 2**62 - 2]; ``None`` (default) takes the model's next frame and
        advances its counter, as :meth:`LidarNoise.apply` does.
    first_index : int
        The index of ``points[0]`` in the frame's cloud.
    out : GPU array (N, 3), optional
        Receives the points; may be ``points`` itself.
    return_local : bool
        Also return the noised points in the lidar frame.

    Returns
    -------
    GpuNoisyPoints(points, distances, hit_mask, local_points)
        Device arrays of the input's kind; ``local_points`` is None unless asked for
        (``points`` itself when ``lidar_pose`` is None, as on the CPU).
    """
    model_arg("model", model, "lidar")
    pts = _reals("points", points, lambda s: len(s) == 2 and s[1] == 3, "(N, 3)")
    n, dt = pts.shape[0], pts.dtype
    cp = cupy_module()
    din = None
    if distances is not None:
        din = _reals("distances", distances, lambda s: s == (n,), f"({n},)").astype(dt)
    mask = None
    if hit_mask is not None:
        mask = as_device("hit_mask", hit_mask)
        if mask.shape != (n,):
            raise ValueError(f"hit_mask has shape {mask.shape}: it must be ({n},)")
        mask = cp.ascontiguousarray(mask.astype(cp.bool_)).view(cp.uint8)
    fr = None if frame is None else _validate.integer("frame", frame, 0, LAST_FRAME + 1)
    first = _index_range(first_index, n)
    return_local = _validate.boolean("return_local", return_local)
    pp = point_params(model, lidar_pose)
    pout = _new_or_out("out", out, (n, 3), dt)
    if fr is None:  # every check passed: the model's next frame, under its lock
        fr = model._take_frames(1)
    dout = cp.empty(n, dtype=dt)
    mout = cp.empty(n, dtype=cp.bool_)
    lout = cp.empty((n, 3), dtype=dt) if (return_local and pp.local) else None
    nt = _threads(first, n)
    f64 = dt == np.float64
    k = kernel("fn_cuda_lidar_points_f64" if f64 else "fn_cuda_lidar_points_f32")
    null = np.uint64(0)
    launch(k, nt, (
        np.uint64(model.key), np.uint64(fr), np.uint64(first), np.uint64(n), np.uint64(nt),
        cp.asarray(pp.prm), np.int32(pp.angular), np.int32(pp.distance), pts,
        null if din is None else din, null if mask is None else mask, pout, dout,
        mout.view(cp.uint8), null if lout is None else lout,
    ))  # fmt: skip
    local = (pout if pp.local is False else lout) if return_local else None
    return GpuNoisyPoints(
        out if out is not None else like_input(pout, points),
        like_input(dout, points),
        like_input(mout, points),
        None if local is None else like_input(local, points),
    )


def range_noise(
    model: Any, ranges: Any, frame: int | None = None, first_index: int = 0, out: Any = None
) -> Any:
    """``model.apply(ranges, ...)`` on a GPU array: the same bits, on the device.

    Parameters
    ----------
    model : RangeNoise
        Gazebo's ray noise: mean, stddev, bias (m), precision (m), limits (m); its
        frame counter when ``frame`` is None.
    ranges : GPU array, any shape, float32 or float64
        Ranges (m), beam i is ``ranges.flat[i]``; a non-contiguous array is copied on
        the device first.
    frame : int or None
        Frame in [0, 2**62 - 2]; ``None`` (default) takes the model's next frame and
        advances its counter, as :meth:`RangeNoise.apply` does.
    first_index : int
        The index of the first beam in the frame's scan.
    out : GPU array, optional
        Same shape and dtype, C-contiguous; may be ``ranges`` itself.

    Returns
    -------
    GPU array of the input's kind (``out`` when given).
    """
    model_arg("model", model, "range")
    if model.nan_range is not None:  # the device kernel has only the default NaN rule
        raise ValueError(
            f"model.nan_range={model.nan_range!r} is not allowed on the GPU: apply that "
            "model with RangeNoise.apply (CPU), or use nan_range=None"
        )
    arr = _reals("ranges", ranges, lambda s: True, "any shape")
    fr = None if frame is None else _validate.integer("frame", frame, 0, LAST_FRAME + 1)
    first = _index_range(first_index, arr.size)
    res = _new_or_out("out", out, arr.shape, arr.dtype)
    if fr is None:  # every check passed: the model's next frame, under its lock
        fr = model._take_frames(1)
    nt = _threads(first, arr.size)
    f64 = arr.dtype == np.float64
    k = kernel("fn_cuda_range_f64" if f64 else "fn_cuda_range_f32")
    cp = cupy_module()
    launch(k, nt, (
        np.uint64(model.key), np.uint64(fr), np.uint64(first), np.uint64(arr.size),
        np.uint64(nt), cp.asarray(range_params(model)), np.int32(model.enabled),
        np.int32(model.inf_outside_limits), arr, res,
    ))  # fmt: skip
    return out if out is not None else like_input(res, ranges)
