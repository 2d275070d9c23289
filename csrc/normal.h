/* Gaussian numbers keyed by (key, stream, index): the random core of fastnoise.
 *
 * The canonical stream, the same for float64 and float32. Philox block i of
 * (key, stream) has words (w0, w1, w2, w3); pair 2i is (wa, wb) = (w0, w1) and pair
 * 2i + 1 is (w2, w3). Each pair gives a radius and a direction:
 *   u1 = (wa + 1) / 2^32 in (0, 1],  r = sqrt(-2 ln u1);
 *   phi = 2 pi (int32)(wb << 3) / 2^34, uniform in [-pi/4, pi/4);
 *   (c, s) = (cos phi, sin phi), swapped if bit 29 of wb is set, then c negated if
 *   bit 31 is set and s negated if bit 30 is set.
 * The eight swaps and sign flips (the symmetries of the square) map the quarter arc
 * onto the whole circle evenly, so (c, s) is a uniform direction and (r c, r s) is
 * the trigonometric Box-Muller pair, with cheaper angle reduction.
 * Normals come in groups of 16 from 8 pairs (4 blocks): normal 16g + k is r c of
 * pair 8g + k for k < 8 and r s of pair 8g + k - 8 for k >= 8 (so SIMD code stores
 * cosines and sines without shuffling).
 * float64 computes in double, float32 in single precision (u1 rounded to float), so
 * the two dtypes agree to float32 accuracy. The smallest u1 is 2^-32, so
 * |z| <= sqrt(64 ln 2) = 6.6604 in both (P(|z| > 6.66) = 2.7e-11). With mean and
 * stddev a value is fma(stddev, z, mean).
 */
#ifndef FN_NORMAL_H
#define FN_NORMAL_H

#include <stddef.h>
#include <stdint.h>

#include "fnmath.h"
#include "normal_pair.h"
#include "philox.h"
#include "simd.h"

#define FN_GROUP 16 /* normals per group */
#define FN_GROUP_BLOCKS 4

enum { FN_FLOAT64 = 0, FN_FLOAT32 = 1 };

/* The 16 standard normals of group g (SIMD-dispatched like the bulk kernels, so
 * single draws use hardware fma where the CPU has it). */
FN_DECLARE_KERNEL(void, fn_group_normals_f64,
                  (uint64_t key, uint64_t stream, uint64_t group, double out[FN_GROUP]))
FN_DECLARE_KERNEL(void, fn_group_normals_f32,
                  (uint64_t key, uint64_t stream, uint64_t group, float out[FN_GROUP]))
void fn_group_normals_f64(uint64_t key, uint64_t stream, uint64_t group,
                          double out[FN_GROUP]);
void fn_group_normals_f32(uint64_t key, uint64_t stream, uint64_t group,
                          float out[FN_GROUP]);

/* Whole groups, SIMD-dispatched: out[i] = fma(stddev, z, mean) for the normals of
 * groups [group0, group0 + ngroups). */
FN_DECLARE_KERNEL(void, fn_normal_groups_f64,
                  (uint64_t key, uint64_t stream, uint64_t group0, size_t ngroups,
                   double mean, double stddev, double *out))
FN_DECLARE_KERNEL(void, fn_normal_groups_f32,
                  (uint64_t key, uint64_t stream, uint64_t group0, size_t ngroups,
                   float mean, float stddev, float *out))

/* Stateless fill: out[i] = fma(stddev, z_{first + i}, mean) of (key, stream), any first
 * and n. The result does not depend on how a range is split into calls. */
void fn_normal_fill_f64(uint64_t key, uint64_t stream, uint64_t first, size_t n,
                        double mean, double stddev, double *out);
void fn_normal_fill_f32(uint64_t key, uint64_t stream, uint64_t first, size_t n, float mean,
                        float stddev, float *out);

/* A position in a stream, plus the decoded block it is in (the "cached" values). */
typedef struct {
    uint64_t key;
    uint64_t stream;
    uint64_t position; /* index of the next normal */
    int dtype;         /* dtype of the cached block: FN_FLOAT64 or FN_FLOAT32 */
    int cache_ok;
    uint64_t cache_group;
    double c64[FN_GROUP];
    float c32[FN_GROUP];
} fn_stream;

void fn_stream_init(fn_stream *s, uint64_t key, uint64_t stream);
/* Values come from the same index whichever dtype asks; switching dtype only drops
 * the cached block. */
double fn_stream_next_f64(fn_stream *s);
float fn_stream_next_f32(fn_stream *s);
/* The next normal as a double, bit for bit what fn_normal_fill_* with mean 0 and
 * stddev 1 writes for it (0 + 1 * z: a -0 becomes +0), drawn in `dtype`
 * (FN_FLOAT32: the float32 normal, widened exactly). */
static inline double fn_stream_next_unit(fn_stream *s, int dtype) {
    if (dtype == FN_FLOAT32) return (double)(0.0f + 1.0f * fn_stream_next_f32(s));
    return 0.0 + 1.0 * fn_stream_next_f64(s);
}

/* Take the next n normals; returns the index of the first one, so the caller may
 * fill them later (or on other threads) with fn_normal_fill_*. */
uint64_t fn_stream_take(fn_stream *s, int dtype, uint64_t n);

#endif
