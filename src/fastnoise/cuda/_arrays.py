# mypy: disable-error-code="import-not-found, import-untyped"
"""The arguments of the GPU functions: device arrays in and out (CuPy arrays, anything
with ``__cuda_array_interface__`` (Numba, PyTorch, JAX...) or DLPack, all viewed as CuPy
arrays without a copy), and the model a kernel serves, known by its registered name."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core import registry
from fastnoise.cuda._compile import cupy_module


def model_arg(arg: str, value: object, name: str) -> Any:
    """``value`` when its class declares the registered model ``name`` (a kernel reads
    that model's fields); TypeError naming the argument and the class otherwise."""
    declared = getattr(getattr(type(value), "declaration", None), "name", None)
    if declared != name:
        cls = registry.get(name).cls
        raise TypeError(
            f"{arg}={value!r} is not allowed: it must be a "
            f"{cls.__module__.split('.')[0]}.{cls.__name__}"
        )
    return value


def as_device(name: str, value: object) -> Any:
    """A CuPy view of a device array (no copy); TypeError naming ``name`` otherwise."""
    cp = cupy_module()
    if isinstance(value, cp.ndarray):
        return value
    if hasattr(value, "__cuda_array_interface__"):
        return cp.asarray(value)
    if hasattr(value, "__dlpack__") and hasattr(value, "__dlpack_device__"):
        dev_type, _ = value.__dlpack_device__()
        if int(dev_type) in (2, 13):  # kDLCUDA, kDLCUDAManaged
            return cp.from_dlpack(value)
    raise TypeError(
        f"{name}={type(value).__name__} object is not allowed: it must be a GPU array "
        "(a CuPy array, or an object with __cuda_array_interface__ or CUDA DLPack); "
        "numpy arrays go to the CPU models"
    )


def like_input(result: Any, template: object) -> Any:
    """``result`` (a CuPy array) as the kind of array the caller passed: a PyTorch
    tensor for a tensor (zero-copy, through DLPack), else the CuPy array."""
    if type(template).__module__.split(".")[0] == "torch":
        import torch

        return torch.from_dlpack(result)
    return result


def output(name: str, out: object, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    """``out`` checked (a C-contiguous device array of ``shape`` and ``dtype``), or a new
    CuPy array."""
    cp = cupy_module()
    if out is None:
        return cp.empty(shape, dtype=dtype)
    arr = as_device(name, out)
    if arr.shape != tuple(shape) or arr.dtype != dtype or not arr.flags.c_contiguous:
        raise ValueError(
            f"{name} has shape {arr.shape}, dtype {arr.dtype}"
            f"{'' if arr.flags.c_contiguous else ', not C-contiguous'}: it must be a "
            f"C-contiguous {np.dtype(dtype).name} array of shape {tuple(shape)}"
        )
    return arr


def launch(kernel: Any, nthreads: int, args: tuple[Any, ...], block: int = 256) -> None:
    """Run ``kernel`` on ``nthreads`` threads (it gets ``nthreads`` among ``args`` and
    returns early past it) on the current stream."""
    if nthreads <= 0:
        return
    grid = (nthreads + block - 1) // block
    if grid >= 2**31:
        raise ValueError(f"{nthreads} threads are more than one launch can run")
    kernel((grid,), (block,), args)


def launch_grid(kernel: Any, nblocks: int, args: tuple[Any, ...], block: int = 256) -> None:
    """Run ``kernel`` on ``nblocks`` thread blocks of ``block`` threads."""
    if nblocks <= 0:
        return
    if nblocks >= 2**31:
        raise ValueError(f"{nblocks} thread blocks are more than one launch can run")
    kernel((nblocks,), (block,), args)
