/* Depth noise over one chunk, compiled once per SIMD target (see depth.h): plain C the
 * compiler vectorizes, the same operations in the same order on every target. */
#include <math.h>

#include "depth.h"

#define DEFINE_CHUNK(T, SUF)                                                               \
    void FN_KERNEL(fn_depth_chunk_##SUF)(const fn_depth_params *p, size_t n, const T *d,   \
                                         const float *z, T *out) {                         \
        const T mean = (T)p->mean, sd = (T)p->stddev, inf = (T)INFINITY;                   \
        /* nothing is above +inf or below -inf: an unset clip is a select never taken */   \
        const T far = p->clip_far ? (T)p->far : inf;                                       \
        const T near = p->clip_near ? (T)p->near : -inf;                                   \
        for (size_t i = 0; i < n; i++) {                                                   \
            T x = d[i];                                                                    \
            T v = x + ((T)z[i] * sd + mean);                                               \
            v = x != x ? x : v;                                                            \
            v = v > far ? inf : v;                                                         \
            out[i] = v < near ? -inf : v;                                                  \
        }                                                                                  \
    }

DEFINE_CHUNK(float, f32)
DEFINE_CHUNK(double, f64)
