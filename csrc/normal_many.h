/* One group of normals from each of many streams at once: the bulk form that batched
 * models use to refill per-environment caches. Values are the canonical stream's
 * (normal.h), so stream i's output is bit for bit what fn_normal_fill_* with mean 0
 * and stddev 1 writes for the same 16 indices (0 + 1 z: a -0 becomes +0).
 *
 * The Philox blocks of all the streams are generated together (one block per SIMD
 * lane, each lane with its own key and stream), so a refill of N short streams costs
 * about what one long fill does instead of N short calls.
 */
#ifndef FN_NORMAL_MANY_H
#define FN_NORMAL_MANY_H

#include <stddef.h>
#include <stdint.h>

#include "normal.h"

/* Longest run of streams one call takes (callers split longer lists). */
#define FN_NORMAL_MANY_MAX 32

/* For i < n (n <= FN_NORMAL_MANY_MAX): normals 16 group[i] .. 16 group[i] + 15 of
 * (key[i], stream[i]) to out[16 i .. 16 i + 15]. SIMD-dispatched; every target gives
 * the same bits. */
FN_DECLARE_KERNEL(void, fn_normal_group_many_f64,
                  (const uint64_t *key, const uint64_t *stream, const uint64_t *group,
                   size_t n, double *out))
FN_DECLARE_KERNEL(void, fn_normal_group_many_f32,
                  (const uint64_t *key, const uint64_t *stream, const uint64_t *group,
                   size_t n, float *out))
void fn_normal_group_many_f64(const uint64_t *key, const uint64_t *stream,
                              const uint64_t *group, size_t n, double *out);
void fn_normal_group_many_f32(const uint64_t *key, const uint64_t *stream,
                              const uint64_t *group, size_t n, float *out);

#endif
