"""Gaussian fills on the GPU: the canonical stream (csrc/normal.h), bit for bit."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.cuda._arrays import as_device, launch, model_arg, output
from fastnoise.cuda._compile import kernel

_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)


def _fill(key: int, stream: int, first: int, flat: Any, mean: float, stddev: float) -> None:
    n = int(flat.size)
    if n == 0:
        return
    g0, g1 = first >> 4, (first + n - 1) >> 4
    f64 = flat.dtype == _F64
    # float64: a thread per Philox block; float32: per two (csrc/device/kernels.cu)
    nthreads = (g1 - g0 + 1) * (4 if f64 else 2)
    k = kernel("fn_cuda_normal_f64" if f64 else "fn_cuda_normal_f32")
    real = np.float64 if f64 else np.float32
    args = (np.uint64(key), np.uint64(stream), np.uint64(first), np.uint64(n))
    launch(k, nthreads, (*args, np.uint64(nthreads), real(mean), real(stddev), flat))


def fill_normals(
    key: int, stream: int, first: int, out: Any, mean: float = 0.0, stddev: float = 1.0
) -> Any:
    """Fill the GPU array ``out`` with normals ``first, first + 1, ...`` of (key, stream),
    as ``fma(stddev, z, mean)``: the bits :func:`fastnoise.fill_normals` writes on the
    CPU.

    Parameters
    ----------
    key, stream, first : int
        Philox key, stream id and index of the first normal, each in [0, 2**64);
        ``first + out.size`` must not pass 2**64.
    out : GPU array
        C-contiguous float32 or float64 device array (CuPy, or anything with
        ``__cuda_array_interface__`` or CUDA DLPack), written in place, any shape.
    mean, stddev : float
        Mean and standard deviation of the values, in the caller's units (``stddev >= 0``).

    Returns
    -------
    out
    """
    k = _validate.counter("key", key)
    s = _validate.counter("stream", stream)
    f = _validate.counter("first", first)
    m = _validate.finite("mean", mean)
    sd = _validate.nonnegative("stddev", stddev)
    arr = as_device("out", out)
    if arr.dtype not in (_F64, _F32) or not arr.flags.c_contiguous:
        raise ValueError(
            f"out has dtype {arr.dtype}: it must be a C-contiguous float32 or float64 array"
        )
    if f + arr.size > 2**64:
        raise OverflowError(
            f"first={first} + {arr.size} values run past the end of the stream (2**64)"
        )
    _fill(k, s, f, arr.reshape(-1), m, sd)
    return out


def normal(
    generator: Any,
    loc: float = 0.0,
    scale: float = 1.0,
    size: int | tuple[int, ...] | None = None,
    *,
    dtype: Any = np.float32,
    out: Any = None,
) -> Any:
    """The generator's next normals on the GPU, ``fma(scale, z, loc)``: the same values
    ``generator.normal(loc, scale, size, dtype=dtype)`` returns on the CPU, and the
    generator advances past them the same way.

    Parameters
    ----------
    generator : GaussianNoiseGenerator
        Its key, stream and position say which normals; its position moves on by the
        number of values.
    loc, scale : float
        Mean and standard deviation (``scale >= 0``), in the caller's units. Scalars only
        (for arrays of them, broadcast on the GPU after a standard fill).
    size : int or tuple of int
        Output shape; ``None`` takes ``out.shape``.
    dtype : float32 or float64, keyword only
        Default float32 (GPU arithmetic is fastest there); ``out.dtype`` when given.
    out : GPU array, keyword only
        C-contiguous device array of that shape and dtype to fill.

    Returns
    -------
    cupy.ndarray (or ``out``)
    """
    model_arg("generator", generator, "generator")
    m = _validate.finite("loc", loc)
    sd = _validate.nonnegative("scale", scale)
    if out is not None:
        dev = as_device("out", out)
        dt = _validate.float_dtype("out.dtype", dev.dtype)
        shape = dev.shape if size is None else _validate.shape("size", size)
    else:
        dt = _validate.float_dtype("dtype", dtype)
        if size is None:
            raise TypeError("size=None is not allowed without out: give the output shape")
        shape = _validate.shape("size", size)
    arr = output("out", out, tuple(shape), dt)
    first = generator.position
    generator.advance(int(arr.size))  # checks the room left in the stream first
    _fill(generator.key, generator.stream, first, arr.reshape(-1), m, sd)
    return out if out is not None else arr


def standard_normal(
    generator: Any,
    size: int | tuple[int, ...] | None = None,
    *,
    dtype: Any = np.float32,
    out: Any = None,
) -> Any:
    """The generator's next standard normals on the GPU; see :func:`normal`."""
    return normal(generator, 0.0, 1.0, size, dtype=dtype, out=out)
