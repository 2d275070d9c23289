# C declarations of the fastnoise core (csrc/), shared by every binding module.
from libc.stdint cimport uint32_t, uint64_t


cdef extern from "simd.h" nogil:
    int FN_SIMD_SCALAR
    int FN_SIMD_AVX2
    int FN_SIMD_AVX512
    int fn_simd_detected()
    int fn_simd_level()
    int fn_simd_set(int level)
    const char *fn_simd_name(int level)


cdef extern from "fnmath.h" nogil:
    void fn_sincos_f64(double x, double *s, double *c)


cdef extern from "philox.h" nogil:
    void fn_philox4x32_10(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                          uint32_t k0, uint32_t k1, uint32_t out[4])
    void fn_philox_block(uint64_t key, uint64_t stream, uint64_t block, uint32_t out[4])


cdef extern from "normal.h" nogil:
    int FN_FLOAT64
    int FN_FLOAT32
    int FN_GROUP

    ctypedef struct fn_stream:
        uint64_t key
        uint64_t stream
        uint64_t position
        int dtype
        int cache_ok
        uint64_t cache_group
        double c64[16]
        float c32[16]

    void fn_normal_fill_f64(uint64_t key, uint64_t stream, uint64_t first, size_t n,
                            double mean, double stddev, double *out)
    void fn_normal_fill_f32(uint64_t key, uint64_t stream, uint64_t first, size_t n,
                            float mean, float stddev, float *out)
    void fn_stream_init(fn_stream *s, uint64_t key, uint64_t stream)
    double fn_stream_next_f64(fn_stream *s)
    float fn_stream_next_f32(fn_stream *s)
    uint64_t fn_stream_take(fn_stream *s, int dtype, uint64_t n)
