# C declarations of the DVL core (csrc/dvl.h), shared by dvl_sensor, dvl_measurement
# and dvl (a .pxd only: nothing extra to build).

from libc.stddef cimport ptrdiff_t
from libc.stdint cimport uint64_t


cdef extern from "dvl.h" nogil:
    enum:
        FN_DVL_NSENSORS
        FN_DVL_NFIELDS
        FN_DVL_OK
        FN_DVL_NO_ROOM
        FN_DVL_TOO_LARGE

    double FN_DVL_VALUE_MAX

    ctypedef struct fn_awn:
        double bias
        double noise_dev
        double anchor
        double anchor_probability
        uint64_t key
        uint64_t position

    ctypedef struct fn_awn_params:
        double bias
        double noise_dev
        double anchor
        double anchor_probability
        uint64_t key
        uint64_t position

    fn_awn_params fn_awn_params_of(const fn_awn *s)
    void fn_awn_init(fn_awn *s, uint64_t key)
    void fn_awn_set_params(fn_awn *s, double bias, double noise_dev, double anchor,
                           double anchor_probability)
    int fn_awn_measure_one(fn_awn *s, double truth, double *out)
    int fn_awn_measure_span(const fn_awn_params *p, size_t n, const double *truth,
                            ptrdiff_t truth_stride, double *out, ptrdiff_t out_stride)
    int fn_dvl_measure_one(fn_awn **sensors, const double *truth, double *out, int *bad)
    int fn_dvl_measure_span(const fn_awn_params *sensors, uint64_t offset, size_t n,
                            const double **truth, const ptrdiff_t *truth_stride,
                            double *out, ptrdiff_t out_stride, int *bad)
