# The fast path of the array intake (fastnoise.core.arrays) for small per-call arrays:
# an inline test, compiled into each module that cimports it (no module of its own).
cimport numpy as cnp


cdef inline bint behaved_f64(object x, int ndim, cnp.npy_intp last, bint writeable):
    """``x`` is an exact ndarray (no subclass) of float64 with ``ndim`` axes, the last of
    ``last`` entries, native-endian, aligned and C-contiguous (and writeable if asked):
    such an array is read or written as it is; anything else goes through
    ``fastnoise.core.arrays`` (intake or output), which copies or refuses it by name."""
    cdef cnp.ndarray a
    if type(x) is not cnp.ndarray:
        return False
    a = <cnp.ndarray>x
    return (cnp.PyArray_TYPE(a) == cnp.NPY_FLOAT64 and cnp.PyArray_NDIM(a) == ndim
            and cnp.PyArray_DIM(a, ndim - 1) == last and cnp.PyArray_IS_C_CONTIGUOUS(a)
            and cnp.PyArray_ISBEHAVED_RO(a)
            and (not writeable or cnp.PyArray_ISWRITEABLE(a)))


cdef inline bint read3_fast(object x, double out[3]):
    """Copy ``x`` into ``out`` when it is a list or tuple of 3 Python floats or a
    behaved float64 (3,) array (``behaved_f64``) and return True; else return False,
    and the caller takes the intake path (``fastnoise.core.arrays``)."""
    cdef const double *src
    if type(x) is list or type(x) is tuple:
        if len(x) != 3:
            return False
        x0, x1, x2 = x
        if type(x0) is float and type(x1) is float and type(x2) is float:
            out[0] = x0
            out[1] = x1
            out[2] = x2
            return True
        return False
    if not behaved_f64(x, 1, 3, False):
        return False
    src = <const double *>cnp.PyArray_DATA(<cnp.ndarray>x)
    out[0] = src[0]
    out[1] = src[1]
    out[2] = src[2]
    return True


cdef inline double *f64x3(object x, bint writeable) noexcept:
    """The data of ``x`` when it is an exact ndarray of native float64 (3,), C-contiguous
    and aligned (and writeable if asked), else NULL: ``behaved_f64(x, 1, 3, writeable)``
    in a few loads, for the arrays of a per-sample call (NULL: the caller takes its
    general path, which gives the same answer for every array that passes here)."""
    cdef cnp.ndarray a
    cdef int need = cnp.NPY_ARRAY_C_CONTIGUOUS | cnp.NPY_ARRAY_ALIGNED
    if type(x) is not cnp.ndarray:
        return NULL
    a = <cnp.ndarray>x
    if writeable:
        need |= cnp.NPY_ARRAY_WRITEABLE
    if (cnp.PyArray_FLAGS(a) & need) != need or cnp.PyArray_NDIM(a) != 1:
        return NULL
    if cnp.PyArray_DIM(a, 0) != 3 or cnp.PyArray_TYPE(a) != cnp.NPY_FLOAT64:
        return NULL
    if not cnp.PyArray_ISNOTSWAPPED(a):
        return NULL
    return <double *>cnp.PyArray_DATA(a)
