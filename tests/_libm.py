"""The C library's pow and powf for test references of kernels that call them.

numpy's ``np.power`` (and ``**`` on arrays) has SIMD versions of its own, chosen by the
CPU (on an AVX-512 machine, for instance), whose last bit differs from the C library's
for about one value in five in float32 and one in twenty in float64. A reference that
must give a kernel's bits calls what the kernel calls."""

from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np

_LIBM = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
_LIBM.pow.restype, _LIBM.pow.argtypes = ctypes.c_double, [ctypes.c_double, ctypes.c_double]
_LIBM.powf.restype, _LIBM.powf.argtypes = ctypes.c_float, [ctypes.c_float, ctypes.c_float]


def libm_pow(x: np.ndarray, y: float) -> np.ndarray:
    """``x**y`` element by element by the C library, in x's float type (float32 through
    ``powf``, with y rounded to float32 as a C ``2.1f`` is; float64 through ``pow``)."""
    x = np.asarray(x)
    if x.dtype == np.float32:
        f, ft = _LIBM.powf, np.float32
    else:
        f, ft = _LIBM.pow, np.float64
    values = [f(float(v), y) for v in x.ravel()]
    return np.array(values, dtype=ft).reshape(x.shape)
