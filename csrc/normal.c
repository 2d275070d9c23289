/* Stateless range fills and the stream position behind GaussianNoiseGenerator. */
#include "normal.h"

#include <string.h>

void fn_block_normals_f64(uint64_t key, uint64_t stream, uint64_t block, double out[4]) {
    FN_DISPATCH(fn_block_normals_f64, (key, stream, block, out));
}

void fn_block_normals_f32(uint64_t key, uint64_t stream, uint64_t block, float out[4]) {
    FN_DISPATCH(fn_block_normals_f32, (key, stream, block, out));
}

/* Partial blocks at either end are done one block at a time on the scalar path;
 * whole blocks go to the dispatched kernel. Same arithmetic, same bits. */
#define DEFINE_FILL(T, SUF, PER, FMA)                                                       \
    void fn_normal_fill_##SUF(uint64_t key, uint64_t stream, uint64_t first, size_t n, \
                              T mean, T stddev, T *out) {                              \
        T tmp[PER];                                                                    \
        uint64_t block = first / PER;                                                  \
        size_t skip = (size_t)(first % PER);                                           \
        if (n == 0) return;                                                            \
        if (skip) {                                                                    \
            size_t take = PER - skip < n ? PER - skip : n;                             \
            fn_block_normals_##SUF(key, stream, block, tmp);                           \
            for (size_t i = 0; i < take; i++) out[i] = FMA(stddev, tmp[skip + i], mean);  \
            out += take;                                                               \
            n -= take;                                                                 \
            block++;                                                                   \
        }                                                                              \
        size_t whole = n / PER;                                                        \
        if (whole) {                                                                   \
            FN_DISPATCH(fn_normal_blocks_##SUF,                                        \
                        (key, stream, block, whole, mean, stddev, out));               \
            out += whole * PER;                                                        \
            n -= whole * PER;                                                          \
            block += whole;                                                            \
        }                                                                              \
        if (n) {                                                                       \
            fn_block_normals_##SUF(key, stream, block, tmp);                           \
            for (size_t i = 0; i < n; i++) out[i] = FMA(stddev, tmp[i], mean);            \
        }                                                                              \
    }

DEFINE_FILL(double, f64, FN_PER_BLOCK, fma)
DEFINE_FILL(float, f32, FN_PER_BLOCK, fmaf)

void fn_stream_init(fn_stream *s, uint64_t key, uint64_t stream) {
    memset(s, 0, sizeof *s);
    s->key = key;
    s->stream = stream;
    s->dtype = FN_FLOAT64;
}

void fn_stream_use_dtype(fn_stream *s, int dtype) {
    if (dtype == s->dtype) return;
    s->dtype = dtype;
    s->cache_ok = 0;
}

double fn_stream_next_f64(fn_stream *s) {
    fn_stream_use_dtype(s, FN_FLOAT64);
    uint64_t block = s->position / FN_F64_PER_BLOCK;
    if (!s->cache_ok || s->cache_block != block) {
        fn_block_normals_f64(s->key, s->stream, block, s->c64);
        s->cache_block = block;
        s->cache_ok = 1;
    }
    return s->c64[s->position++ % FN_F64_PER_BLOCK];
}

float fn_stream_next_f32(fn_stream *s) {
    fn_stream_use_dtype(s, FN_FLOAT32);
    uint64_t block = s->position / FN_F32_PER_BLOCK;
    if (!s->cache_ok || s->cache_block != block) {
        fn_block_normals_f32(s->key, s->stream, block, s->c32);
        s->cache_block = block;
        s->cache_ok = 1;
    }
    return s->c32[s->position++ % FN_F32_PER_BLOCK];
}

uint64_t fn_stream_take(fn_stream *s, int dtype, uint64_t n) {
    fn_stream_use_dtype(s, dtype);
    uint64_t first = s->position;
    s->position += n;
    return first;
}

void fn_stream_fill_f64(fn_stream *s, double *out, size_t n, double mean, double stddev) {
    uint64_t first = fn_stream_take(s, FN_FLOAT64, n);
    fn_normal_fill_f64(s->key, s->stream, first, n, mean, stddev, out);
}

void fn_stream_fill_f32(fn_stream *s, float *out, size_t n, float mean, float stddev) {
    uint64_t first = fn_stream_take(s, FN_FLOAT32, n);
    fn_normal_fill_f32(s->key, s->stream, first, n, mean, stddev, out);
}
