"""The two O(N) passes of the overlapping Allan deviation (``csrc/allan.c``), without
the GIL. Checked inputs only: ``fastnoise.analysis.allan`` validates everything."""

import numpy as np

cimport numpy as cnp
from libc.stdint cimport int64_t

cnp.import_array()


cdef extern from "allan.h" nogil:
    void fn_allan_phases(const double *y, size_t n, size_t k, Py_ssize_t row_stride,
                         Py_ssize_t col_stride, const double *mean, double *x)
    void fn_allan_sums(const double *x, size_t npts, const int64_t *m, size_t nm,
                       double *out)
    void fn_mdev_sums(const double *x, size_t npts, const int64_t *m, size_t nm,
                      double *out)
    void fn_hadamard_sums(const double *x, size_t npts, const int64_t *m, size_t nm,
                          double *out)


def phases(const double[:, :] y, const double[::1] mean, out=None):
    """Phases of the columns of ``y`` (n, k), float64, any strides: a (k, n + 1)
    float64 array, row c = [0, cumsum(y[:, c] - mean[c])] (U * samples), written into
    ``out`` (C-contiguous float64 (k, n + 1)) when given."""
    cdef Py_ssize_t n = y.shape[0], k = y.shape[1]
    if mean.shape[0] != k:
        raise ValueError(f"mean has {mean.shape[0]} entries: it must have {k}")
    if out is None:
        out = np.empty((k, n + 1), dtype=np.float64)
    elif out.shape != (k, n + 1):
        raise ValueError(f"out has shape {out.shape}: it must be {(k, n + 1)}")
    cdef double[:, ::1] x = out
    cdef Py_ssize_t rs = y.strides[0] // sizeof(double)
    cdef Py_ssize_t cs = y.strides[1] // sizeof(double)
    if y.strides[0] % sizeof(double) or y.strides[1] % sizeof(double):
        raise ValueError("y must have strides that are multiples of 8 bytes")
    if n == 0 or k == 0:
        out[:, 0] = 0.0
        return out
    with nogil:
        fn_allan_phases(&y[0, 0], <size_t>n, <size_t>k, rs, cs, &mean[0], &x[0, 0])
    return out


def sums(const double[::1] x, const int64_t[::1] m):
    """S(m) = sum_i ((x[i+2m] - 2 x[i+m]) + x[i])^2 for each m (NaN where 2m >= len(x))."""
    cdef Py_ssize_t nm = m.shape[0]
    out = np.empty(nm, dtype=np.float64)
    cdef double[::1] o = out
    if nm == 0:
        return out
    if x.shape[0] == 0:
        out[:] = np.nan
        return out
    with nogil:
        fn_allan_sums(&x[0], <size_t>x.shape[0], &m[0], <size_t>nm, &o[0])
    return out


ctypedef void (*sums_kernel)(const double *x, size_t npts, const int64_t *m, size_t nm,
                             double *out) noexcept nogil


cdef object _nan_filled_sums(sums_kernel kernel, const double[::1] x, const int64_t[::1] m):
    # one C pass over x per list m, NaN where the kernel leaves a lag out
    cdef Py_ssize_t nm = m.shape[0]
    out = np.full(nm, np.nan, dtype=np.float64)
    cdef double[::1] o = out
    if nm == 0 or x.shape[0] == 0:
        return out
    with nogil:
        kernel(&x[0], <size_t>x.shape[0], &m[0], <size_t>nm, &o[0])
    return out


def mdev_sums(const double[::1] x, const int64_t[::1] m):
    """sum_j (c[j+m] - c[j])^2 of the running sums c of the second differences of x,
    per m (NaN where 3m > len(x)): the modified Allan variance's numerator."""
    return _nan_filled_sums(fn_mdev_sums, x, m)


def hadamard_sums(const double[::1] x, const int64_t[::1] m):
    """sum_i (((x[i+3m] - 3 x[i+2m]) + 3 x[i+m]) - x[i])^2 per m (NaN where 3m >= len(x))."""
    return _nan_filled_sums(fn_hadamard_sums, x, m)
