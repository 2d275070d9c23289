/* Batched environments of the canonical normal stream (normal.h): N streams, one per
 * environment, each taking the next `count` normals by one call. Environment e's
 * values are what a single fn_stream of the same key and stream position gives:
 * fn_stream_take then the stateless fill, as GaussianNoiseGenerator's draws. */
#ifndef FN_NORMAL_BATCH_H
#define FN_NORMAL_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "normal.h"

/* out[e * count + i] = fma(stddev, z, mean) for the next `count` normals of st[e], in
 * `dtype` (FN_FLOAT64: double out, FN_FLOAT32: float out, mean and stddev rounded to
 * float as the single fill does). The caller checks that no position passes
 * 2^64 - 1. */
void fn_normal_batch_take_fill(fn_stream *st, size_t n, int dtype, size_t count,
                               double mean, double stddev, void *out);

#endif
