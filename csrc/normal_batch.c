/* Batched environments of the canonical normal stream: see normal_batch.h. */
#include "normal_batch.h"

void fn_normal_batch_take_fill(fn_stream *st, size_t n, int dtype, size_t count,
                               double mean, double stddev, void *out) {
    if (count == 0) return;
    for (size_t e = 0; e < n; e++) {
        uint64_t first = fn_stream_take(&st[e], dtype, (uint64_t)count);
        if (dtype == FN_FLOAT32)
            fn_normal_fill_f32(st[e].key, st[e].stream, first, count, (float)mean,
                               (float)stddev, (float *)out + e * count);
        else
            fn_normal_fill_f64(st[e].key, st[e].stream, first, count, mean, stddev,
                               (double *)out + e * count);
    }
}
