# C declarations of csrc/simple.h (Isaac Lab's noise vocabulary), for simple_noise.pyx.
# Declarations only: no module is built from this file.

from libc.stdint cimport int64_t, uint64_t


cdef extern from "simple.h" nogil:
    int FN_SIMPLE_CONSTANT
    int FN_SIMPLE_UNIFORM
    int FN_SIMPLE_GAUSSIAN
    int FN_SIMPLE_ADD
    int FN_SIMPLE_SCALE
    int FN_SIMPLE_ABS

    ctypedef struct fn_simple_term:
        int kind
        int op
        double a
        double b

    void fn_simple_draw(const fn_simple_term *t, uint64_t key, uint64_t stream, size_t m,
                        double *v)
    void fn_simple_apply(const fn_simple_term *t, size_t ts, size_t nenv, const uint64_t *keys,
                         uint64_t *steps, size_t m, const double *bias, size_t mb,
                         const void *x, void *out, int dtype, double *scratch)
    void fn_simple_rebias(const fn_simple_term *t, size_t ts, size_t nids, const int64_t *ids,
                          const uint64_t *keys, const uint64_t *resets, size_t mb,
                          double *bias, double *scratch)
