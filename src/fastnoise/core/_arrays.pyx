"""The overlap rule of the array intake (``fastnoise.core.arrays``), compiled: every
kernel entry asks it once per call, so its common case (arrays that lie in disjoint
byte ranges) is decided in C, without a Python call per pair of arrays."""

cimport numpy as cnp
from numpy cimport npy_intp

import numpy as np

cnp.import_array()


cdef inline bint _range(object x, char **lo, char **hi):
    """The bytes ``x`` can touch, [lo, hi) (empty for an array of no elements): an
    ndarray of any strides. False when ``x`` is not an ndarray (then the caller takes
    the full rule)."""
    cdef cnp.ndarray a
    cdef int d
    cdef npy_intp n, s
    cdef char *first
    cdef char *last
    if not isinstance(x, cnp.ndarray):
        return False
    a = <cnp.ndarray>x
    first = <char *>cnp.PyArray_DATA(a)
    if cnp.PyArray_SIZE(a) == 0:
        lo[0] = first
        hi[0] = first
        return True
    last = first
    for d in range(cnp.PyArray_NDIM(a)):
        n = cnp.PyArray_DIM(a, d) - 1
        s = cnp.PyArray_STRIDE(a, d)
        if s < 0:
            first += n * s
        else:
            last += n * s
    lo[0] = first
    hi[0] = last + cnp.PyArray_ITEMSIZE(a)
    return True


cdef bint _all_apart(list arrays):
    """Every two of ``arrays`` lie in disjoint byte ranges (so none shares memory with
    another): the common case of a call with separate outputs."""
    cdef Py_ssize_t i, j, k = len(arrays)
    cdef char *lo[8]
    cdef char *hi[8]
    if k > 8:
        return False
    for i in range(k):
        if not _range(arrays[i], &lo[i], &hi[i]):
            return False
    for i in range(k):
        for j in range(i + 1, k):
            if lo[i] < hi[j] and lo[j] < hi[i]:
                return False
    return True


def _same_view(a, b):
    return (
        a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
        and a.strides == b.strides
        and a.shape == b.shape
        and a.dtype == b.dtype
    )


def no_partial_overlap(dict outputs not None, dict inputs not None):
    """Refuse an output that shares memory with an input (or another output) unless
    it is the very same view (the in-place case every kernel supports): ValueError
    naming both. Arrays whose byte ranges are disjoint pass at once; the others are
    checked pair by pair (``numpy.may_share_memory``, then the same-view test)."""
    outs = [(k, v) for k, v in outputs.items() if v is not None]
    ins = [(k, v) for k, v in inputs.items() if v is not None]
    if _all_apart([v for _, v in outs] + [v for _, v in ins]):
        return
    for i, (ko, o) in enumerate(outs):
        for kx, x in ins + outs[i + 1:]:
            if np.may_share_memory(o, x) and not (_same_view(o, x) and (kx, x) in ins):
                raise ValueError(
                    f"{ko} overlaps {kx}: pass separate arrays (or the very same array "
                    f"for an in-place call where {kx} is an input)"
                )
