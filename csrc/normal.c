/* Stateless range fills and the stream position behind GaussianNoiseGenerator. */
#include "normal.h"

#include <string.h>

void fn_group_normals_f64(uint64_t key, uint64_t stream, uint64_t group,
                          double out[FN_GROUP]) {
    FN_DISPATCH(fn_group_normals_f64, (key, stream, group, out));
}

void fn_group_normals_f32(uint64_t key, uint64_t stream, uint64_t group,
                          float out[FN_GROUP]) {
    FN_DISPATCH(fn_group_normals_f32, (key, stream, group, out));
}

/* Partial groups at either end are computed whole and copied from; whole groups go
 * to the bulk kernel. Same arithmetic, same bits. */
#define DEFINE_FILL(T, SUF, PER, FMA)                                                      \
    void fn_normal_fill_##SUF(uint64_t key, uint64_t stream, uint64_t first, size_t n,     \
                              T mean, T stddev, T *out) {                                  \
        T tmp[PER];                                                                        \
        uint64_t block = first / PER;                                                      \
        size_t skip = (size_t)(first % PER);                                               \
        if (n == 0) return;                                                                \
        if (skip) {                                                                        \
            size_t take = PER - skip < n ? PER - skip : n;                                 \
            fn_group_normals_##SUF(key, stream, block, tmp);                               \
            for (size_t i = 0; i < take; i++)                                              \
                out[i] = FMA(stddev, tmp[skip + i], mean);                                 \
            out += take;                                                                   \
            n -= take;                                                                     \
            block++;                                                                       \
        }                                                                                  \
        size_t whole = n / PER;                                                            \
        if (whole) {                                                                       \
            FN_DISPATCH(fn_normal_groups_##SUF,                                            \
                        (key, stream, block, whole, mean, stddev, out));                   \
            out += whole * PER;                                                            \
            n -= whole * PER;                                                              \
            block += whole;                                                                \
        }                                                                                  \
        if (n) {                                                                           \
            fn_group_normals_##SUF(key, stream, block, tmp);                               \
            for (size_t i = 0; i < n; i++)                                                 \
                out[i] = FMA(stddev, tmp[i], mean);                                        \
        }                                                                                  \
    }

DEFINE_FILL(double, f64, FN_GROUP, fma)
DEFINE_FILL(float, f32, FN_GROUP, fmaf)

void fn_stream_init(fn_stream *s, uint64_t key, uint64_t stream) {
    memset(s, 0, sizeof *s);
    s->key = key;
    s->stream = stream;
    s->dtype = FN_FLOAT64;
}

static void use_dtype(fn_stream *s, int dtype) {
    if (dtype == s->dtype) return;
    s->dtype = dtype;
    s->cache_ok = 0;
}

double fn_stream_next_f64(fn_stream *s) {
    use_dtype(s, FN_FLOAT64);
    uint64_t group = s->position / FN_GROUP;
    if (!s->cache_ok || s->cache_group != group) {
        fn_group_normals_f64(s->key, s->stream, group, s->c64);
        s->cache_group = group;
        s->cache_ok = 1;
    }
    return s->c64[s->position++ % FN_GROUP];
}

float fn_stream_next_f32(fn_stream *s) {
    use_dtype(s, FN_FLOAT32);
    uint64_t group = s->position / FN_GROUP;
    if (!s->cache_ok || s->cache_group != group) {
        fn_group_normals_f32(s->key, s->stream, group, s->c32);
        s->cache_group = group;
        s->cache_ok = 1;
    }
    return s->c32[s->position++ % FN_GROUP];
}

uint64_t fn_stream_take(fn_stream *s, int dtype, uint64_t n) {
    use_dtype(s, dtype);
    uint64_t first = s->position;
    s->position += n;
    return first;
}
