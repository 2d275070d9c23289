cimport numpy as cnp
from cpython.object cimport Py_TYPE
from libc.stddef cimport ptrdiff_t
from libc.string cimport memcpy

from fastnoise.models.dvl.capi cimport FN_DVL_NFIELDS, FN_DVL_NSENSORS, fn_awn_params


cdef extern from "numpy/arrayscalars.h":
    # a structured record (numpy.void): its bytes and its dtype
    ctypedef struct PyVoidScalarObject:
        char *obval
        cnp.PyArray_Descr *descr


# The layout of the structured records fill_truth read last (measurement.pyx keeps
# their dtype alive): numpy.void, the address of that dtype, and, when its ten truth
# fields are native float64 in a row (TRUTH_DTYPE's layout), where they start.
ctypedef struct RecordLayout:
    const void *void_type
    const void *dtype
    Py_ssize_t first
    bint run


cdef RecordLayout *record_layout() noexcept


# fill_truth's two fast forms, inline where a per-sample call reads its truth: a record
# of the layout read last whose ten fields lie in a row, or a native, aligned,
# contiguous float64 (10,) array, each read with one copy (True). False: every other
# form, for fill_truth (which checks it in full).
cdef inline bint truth_in_place(const RecordLayout *lay, object truth, double *t) noexcept:
    cdef PyVoidScalarObject *rec
    cdef cnp.ndarray arr
    if <const void *>Py_TYPE(truth) == lay.void_type:
        rec = <PyVoidScalarObject *>truth
        if lay.run and <const void *>rec.descr == lay.dtype:
            memcpy(t, rec.obval + lay.first, FN_DVL_NSENSORS * sizeof(double))
            return True
        return False
    if type(truth) is cnp.ndarray:
        arr = <cnp.ndarray>truth
        if (cnp.PyArray_TYPE(arr) == cnp.NPY_FLOAT64 and cnp.PyArray_NDIM(arr) == 1
                and cnp.PyArray_DIM(arr, 0) == FN_DVL_NSENSORS
                and cnp.PyArray_STRIDE(arr, 0) == sizeof(double)
                and cnp.PyArray_ISNOTSWAPPED(arr) and cnp.PyArray_ISALIGNED(arr)):
            memcpy(t, cnp.PyArray_DATA(arr), FN_DVL_NSENSORS * sizeof(double))
            return True
    return False


cdef class DvlMeasurement:
    cdef double v[FN_DVL_NFIELDS]


cdef int fill_truth(truth, double *t) except -1


cdef class _Batch:
    # the sensors as they were when the batch reserved its span (position = its first
    # sample): the spans read these copies, never the live sensors
    cdef fn_awn_params snap[FN_DVL_NSENSORS]
    cdef const double *tp[FN_DVL_NSENSORS]
    cdef ptrdiff_t ts[FN_DVL_NSENSORS]
    cdef double *op
    cdef size_t n  # messages in the batch: run() stays within them
    cdef object keep
    cdef bint ready
    cdef int code  # first failure of a span (FN_DVL_OK if none) and its sensor
    cdef int bad


cdef _Batch new_batch()
cdef bint record_columns(truth, _Batch job) except -1
cdef tuple column_arrays(get, _Batch job)
