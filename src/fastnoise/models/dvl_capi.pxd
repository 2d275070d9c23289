# C declarations of the DVL core (csrc/dvl.h), shared by dvl_sensor, dvl_measurement
# and dvl (a .pxd only: nothing extra to build).

from libc.stddef cimport ptrdiff_t
from libc.stdint cimport uint64_t


cdef extern from "dvl.h" nogil:
    enum:
        FN_DVL_NSENSORS
        FN_DVL_NFIELDS

    ctypedef struct fn_awn:
        double bias
        double noise_dev
        double anchor
        double anchor_probability
        uint64_t key
        uint64_t position

    void fn_awn_init(fn_awn *s, uint64_t key)
    double fn_awn_measure_one(fn_awn *s, double truth)
    void fn_awn_measure_many(fn_awn *s, size_t n, const double *truth,
                             ptrdiff_t truth_stride, double *out, ptrdiff_t out_stride)
    void fn_dvl_measure_one(fn_awn **sensors, const double *truth, double *out)
    void fn_dvl_measure_many(fn_awn **sensors, size_t n, const double **truth,
                             const ptrdiff_t *truth_stride, double *out,
                             ptrdiff_t out_stride)
    void fn_dvl_measure_span(fn_awn **sensors, uint64_t offset, size_t n,
                             const double **truth, const ptrdiff_t *truth_stride,
                             double *out, ptrdiff_t out_stride)
