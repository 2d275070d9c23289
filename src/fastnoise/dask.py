"""Noise for dask arrays, chunk by chunk, with the bits of one in-memory call.

fastnoise's noise is a function of (seed, stream, index), so every chunk can compute
exactly the noise the whole array gets: each chunk rebuilds the model from its
``state`` (a small dict, sent to the workers instead of the object) and passes the
chunk's place in the whole array (frame, row and column offsets, first point or beam
index, first sample) to the kernel. The results do not depend on the chunking, on the
number of workers, or on a chunk being recomputed after a worker died.

Every function is lazy: it takes dask arrays and returns dask arrays. Needs the
optional extra ``fastnoise[dask]`` (``dask[array,distributed]``, ``zarr``).
"""

from __future__ import annotations

import copy
from typing import Any

import dask
import dask.array as da
import numpy as np
from dask import delayed

from fastnoise.core import registry
from fastnoise.core import validate as _validate
from fastnoise.models.dvl.dtypes import MESSAGE_DTYPE

__all__ = [
    "dvl_noise",
    "image_noise",
    "imu_noise",
    "lidar_noise",
    "range_noise",
    "worker_environ",
]


#: glibc thresholds for workers, bytes: buffers up to MMAP_THRESHOLD come from the heap,
#: and up to TRIM_THRESHOLD of freed heap is kept for the next chunk, instead of being
#: mapped (or grown), faulted in and handed back every chunk.
MMAP_THRESHOLD = 32 * 1024 * 1024
TRIM_THRESHOLD = 128 * 1024 * 1024


def worker_environ() -> dict[str, Any]:
    """Environment for Dask worker processes that handle frame-sized chunks.

    Dask starts its workers with ``MALLOC_TRIM_THRESHOLD_=65536`` (to hand freed memory
    back to the system at once), and setting any glibc malloc threshold also switches
    off glibc's adaptive mmap threshold: every buffer above 128 kB (each decoded and
    encoded chunk, each noised frame) is then a fresh mapping, page-faulted in and
    handed back again. Measured on 1080p RGB frames in a Zarr store, that made the same
    read → noise → write loop 1.5-1.75x slower in a worker than in a plain process.
    This returns Dask's variables with ``MALLOC_MMAP_THRESHOLD_`` (32 MiB) and
    ``MALLOC_TRIM_THRESHOLD_`` (128 MiB): frame buffers are reused, and a worker keeps
    at most 128 MiB of freed heap. Set it before starting a cluster::

        dask.config.set({"distributed.nanny.pre-spawn-environ": worker_environ()})

    Returns
    -------
    dict
        Variable name -> value: Dask's ``distributed.nanny.pre-spawn-environ`` with
        the two thresholds set.
    """
    import distributed  # noqa: F401  (optional; registers the distributed.* defaults)

    env = dict(dask.config.get("distributed.nanny.pre-spawn-environ", default={}))
    env["MALLOC_MMAP_THRESHOLD_"] = MMAP_THRESHOLD
    env["MALLOC_TRIM_THRESHOLD_"] = TRIM_THRESHOLD
    return env


def _state_of(model: Any, name: str) -> dict[str, Any]:
    """The state a chunk rebuilds the model from; TypeError unless ``model`` is one of
    the registered model ``name`` (the functions here call that model's methods)."""
    declared = getattr(getattr(type(model), "declaration", None), "name", None)
    if declared != name:
        cls = registry.get(name).cls
        raise TypeError(
            f"model={model!r} is not allowed: it must be a {cls.__module__.split('.')[0]}."
            f"{cls.__name__} (the registered model {name!r})"
        )
    return model.state


def _rebuild(state: dict[str, Any]) -> Any:
    return registry.get(state["model"]).cls.from_state(state)


def _start(block_info: dict | None, axis: int) -> int:
    if block_info is None:  # dask passes it to every block of a map_blocks call
        raise RuntimeError("map_blocks gave no block_info")
    return int(block_info[0]["array-location"][axis][0])


# ---- camera -------------------------------------------------------------------------


_IMAGE_DTYPES = tuple(np.dtype(t) for t in (np.uint8, np.uint16, np.float32, np.float64))


def _image_block(block, state, first_frame, full_width, block_info=None):
    model = _rebuild(state)
    f0 = first_frame + _start(block_info, 0)
    r0 = _start(block_info, 1)
    c0 = _start(block_info, 2)
    out = np.empty(block.shape, dtype=block.dtype)
    for k in range(block.shape[0]):
        model.apply(
            block[k], frame=f0 + k, out=out[k], row_offset=r0, col_offset=c0, full_width=full_width
        )
    return out


def image_noise(images: da.Array, model: Any, first_frame: int = 0) -> da.Array:
    """Camera noise for frames x H x W [x C] (``ImageNoise``), lazily.

    Any chunking of the frame, row and column axes: frame ``first_frame + i`` of the
    array gets exactly ``model.apply(images[i], frame=first_frame + i)`` (a tile
    passes its row and column offsets and the full width to the kernel). A channel
    axis is made whole (a pixel's colour channels share one normal index range).
    The model itself is not advanced.
    """
    if images.ndim not in (3, 4):
        raise ValueError(f"images must be frames x H x W [x C], got {images.ndim} axes")
    if images.dtype not in _IMAGE_DTYPES:
        # refused here, naming the dask array, rather than later inside a worker
        raise ValueError(
            f"images has dtype {images.dtype}: it must be uint8, uint16, float32 or float64"
        )
    if images.ndim == 4 and len(images.chunks[3]) > 1:
        images = images.rechunk({3: -1})
    return da.map_blocks(
        _image_block,
        images,
        dtype=images.dtype,
        state=_state_of(model, "camera"),
        first_frame=int(first_frame),
        full_width=int(images.shape[2]),
        meta=np.empty((0,) * images.ndim, dtype=images.dtype),
    )


# ---- lidar and range ------------------------------------------------------------------


def _result_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype ``LidarNoise.apply`` and ``RangeNoise.apply`` return for input of
    ``dtype``: float32 stays float32 (KITTI ``.bin`` and PointCloud2 clouds), any other
    real type becomes float64. The block's ``out`` must have exactly that dtype."""
    return np.dtype(np.float32) if np.dtype(dtype) == np.float32 else np.dtype(np.float64)


def _lidar_block(points, mask, state, first_frame, block_info=None):
    model = _rebuild(state)
    f0 = first_frame + _start(block_info, 0)
    i0 = _start(block_info, 1)
    out = np.empty(points.shape, dtype=_result_dtype(points.dtype))
    for k in range(points.shape[0]):
        hits = None if mask is None else mask[k, :, 0]
        model.apply(points[k], hit_mask=hits, frame=f0 + k, first_index=i0, out=out[k])
    return out


def _lidar_block_nomask(points, state, first_frame, block_info=None):
    return _lidar_block(points, None, state, first_frame, block_info)


def lidar_noise(
    points: da.Array, model: Any, hit_mask: da.Array | None = None, first_frame: int = 0
) -> da.Array:
    """RGL lidar noise (``LidarNoise``) for frames x points x 3 clouds, lazily.

    Frame ``first_frame + i`` gets ``model.apply(points[i], hit_mask=hit_mask[i],
    frame=first_frame + i).points``, whatever the chunking of the frame and point axes
    (each chunk passes its first point index). Frames of different lengths: pad them
    to one length and mark the padding ``False`` in ``hit_mask`` (frames x points,
    bool); padded points keep their input values. Points are in metres. Returns the
    noisy points: float32 for float32 input (half the memory, as ``apply`` gives),
    float64 for any other real dtype.
    """
    if points.ndim != 3 or points.shape[2] != 3:
        raise ValueError(f"points must be frames x points x 3, got shape {points.shape}")
    points = points.rechunk({2: -1})
    result = _result_dtype(points.dtype)
    kw = {
        "state": _state_of(model, "lidar"),
        "first_frame": int(first_frame),
        "dtype": result,
        "meta": np.empty((0, 0, 0), dtype=result),
    }
    if hit_mask is None:
        return da.map_blocks(_lidar_block_nomask, points, **kw)
    if hit_mask.shape != points.shape[:2]:
        raise ValueError(
            f"hit_mask has shape {hit_mask.shape}: it must be {points.shape[:2]} (frames x points)"
        )
    hit_mask = hit_mask.rechunk(points.chunks[:2])
    return da.map_blocks(_lidar_block, points, hit_mask[:, :, None], **kw)


def _range_block(ranges, state, first_frame, block_info=None):
    model = _rebuild(state)
    f0 = first_frame + _start(block_info, 0)
    b0 = _start(block_info, 1)
    out = np.empty(ranges.shape, dtype=_result_dtype(ranges.dtype))
    for k in range(ranges.shape[0]):
        model.apply(ranges[k], frame=f0 + k, first_index=b0, out=out[k])
    return out


def range_noise(ranges: da.Array, model: Any, first_frame: int = 0) -> da.Array:
    """Gazebo range noise (``RangeNoise``) for frames x beams (metres), lazily, any
    chunking: frame ``first_frame + i`` gets ``model.apply(ranges[i], frame=first_frame
    + i)``. float32 ranges give float32 (as ``apply`` does), other real types float64."""
    if ranges.ndim != 2:
        raise ValueError(f"ranges must be frames x beams, got shape {ranges.shape}")
    result = _result_dtype(ranges.dtype)
    return da.map_blocks(
        _range_block,
        ranges,
        dtype=result,
        state=_state_of(model, "range"),
        first_frame=int(first_frame),
        meta=np.empty((0, 0), dtype=result),
    )


# ---- DVL ----------------------------------------------------------------------------


def _dvl_block(truth, state, fields, block_info=None):
    s0 = _start(block_info, 0)
    st = copy.deepcopy(state)
    for entry in st["position"]["sensors"].values():
        entry["position"] += s0
    model = _rebuild(st)
    if fields is None:
        return model.measure_many(truth)
    rec = model.measure_many({name: truth[:, i] for i, name in enumerate(fields)})
    return np.stack([rec[name] for name in rec.dtype.names], axis=1)


def dvl_noise(truth: da.Array, model: Any, fields: tuple[str, ...] | None = None) -> da.Array:
    """DVL noise (``DvlSimulator.measure_many``) for a truth record chunked by samples.

    ``truth`` is 1-D with the structured dtype ``measure_many`` takes (the result: its
    message dtype), or N x F float64 with ``fields`` naming the F columns (the result:
    N x M float64, one column per message field, ``MESSAGE_DTYPE.names`` of
    ``fastnoise.models.dvl.dtypes``). Sample ``s`` of the array gets exactly what a
    single ``measure_many`` call over the whole record gives it (each chunk starts the
    sensors at the model's positions plus its first sample). The model is not advanced.
    """
    state = _state_of(model, "dvl_simulator")
    if fields is None:
        if truth.ndim != 1 or truth.dtype.names is None:
            raise ValueError("truth must be 1-D structured, or N x F with fields=")
        return da.map_blocks(
            _dvl_block,
            truth,
            dtype=MESSAGE_DTYPE,
            state=state,
            fields=None,
            meta=np.empty((0,), dtype=MESSAGE_DTYPE),
        )
    fields = tuple(fields)
    if truth.ndim != 2 or truth.shape[1] != len(fields):
        raise ValueError(f"truth must be N x {len(fields)} (one column per field)")
    truth = truth.rechunk({1: -1})
    m = len(MESSAGE_DTYPE.names or ())
    return da.map_blocks(
        _dvl_block,
        truth,
        dtype=np.float64,
        state=state,
        fields=fields,
        chunks=(truth.chunks[0], (m,)),
        meta=np.empty((0, 0), dtype=np.float64),
    )


# ---- IMU ----------------------------------------------------------------------------


def _imu_advance(state, n, dt):
    """The fold's step: the state after ``n`` samples, from the bias recurrences
    alone (``ImuNoise._advance_biases``; no true values read, no output made)."""
    model = _rebuild(state)
    model._advance_biases(n, dt)
    return model.state


def _imu_outputs(state, omega, accel, dt):
    """A chunk's outputs from its start state (``from_state`` then ``apply``): the
    white noise, linear step, saturation and quantization, and the biases again."""
    model = _rebuild(state)
    return model.apply(np.asarray(omega), np.asarray(accel), dt)


def imu_noise(omega: da.Array, accel: da.Array, dt: float, model: Any, return_state: bool = False):
    """IMU noise (``ImuNoise.apply``) for N x 3 rates (rad/s) and accelerations
    (m/s^2) chunked by samples, lazily, with the bits of one sequential ``apply`` of
    the whole record at step ``dt`` (s, > 0).

    Two parts. A fold over the chunks in order carries the model's exact state
    (biases, stream positions, sample count): each of its steps runs only the
    Gauss-Markov and random-walk recurrences of one chunk (``_advance_biases``, the
    same arithmetic in the same order as ``apply``, 0.25 to 0.65 of its
    cost). Then every chunk's outputs are computed from its own start state, in
    parallel: each output chunk depends on its input chunks and on one small state
    of the fold, never on another output chunk.

    Returns ``(omega_noisy, accel_noisy)``, float64 N x 3, plus the final state (a
    ``Delayed`` dict, equal to ``model.state`` after the sequential ``apply``) when
    ``return_state``. The model is not advanced.
    """
    if omega.shape != accel.shape or omega.ndim != 2 or omega.shape[1] != 3:
        raise ValueError(
            f"omega and accel must both be N x 3, got shapes {omega.shape} and {accel.shape}"
        )
    dt = _validate.positive("dt", dt)
    omega = omega.rechunk({1: -1})
    accel = accel.rechunk(omega.chunks)
    state = delayed(_state_of(model, "imu"), traverse=True)
    outs_o, outs_a = [], []
    for blk_o, blk_a, n in zip(
        omega.to_delayed().ravel(), accel.to_delayed().ravel(), omega.chunks[0], strict=True
    ):
        o, a = delayed(_imu_outputs, nout=2, pure=True)(state, blk_o, blk_a, dt)
        outs_o.append(da.from_delayed(o, (n, 3), dtype=np.float64))
        outs_a.append(da.from_delayed(a, (n, 3), dtype=np.float64))
        state = delayed(_imu_advance, pure=True)(state, int(n), dt)
    res = (da.concatenate(outs_o), da.concatenate(outs_a))
    return (*res, state) if return_state else res
