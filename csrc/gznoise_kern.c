/* The vectorizable part of a Gazebo noise run (see gznoise.h), compiled once per SIMD
 * target (FN_KERNEL): out[i] = fn_gz_finish(p, b[i], v[i], zw[i]). Every target does
 * the same IEEE operations per element (explicit fma, division, trunc, selects), so
 * every target gives the same bits. */
#include <stddef.h>

#include "gznoise.h"
#include "simd.h"

void FN_KERNEL(fn_gz_finish_block)(const fn_gz_params *p, const double *restrict v,
                                   const double *restrict b, const double *restrict zw,
                                   size_t n, double *restrict out) {
    const fn_gz_params q = *p;
    for (size_t i = 0; i < n; i++)
        out[i] = fn_gz_finish(&q, b[i], v[i], zw[i]);
}
