from libc.stddef cimport ptrdiff_t

from fastnoise.models.dvl.capi cimport FN_DVL_NFIELDS, FN_DVL_NSENSORS, fn_awn_params


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
