/* One Box-Muller pair of the canonical normal stream (csrc/normal.h describes it), and
 * the four normals of one Philox block: the per-element form of the stream, shared by
 * the CPU kernels and the GPU kernels (csrc/device/), so both compute the same bits.
 */
#ifndef FN_NORMAL_PAIR_H
#define FN_NORMAL_PAIR_H

#include "fnhd.h"
#include "fnmath.h"
#include "philox.h"

/* Box-Muller radius sqrt(-2 ln u1) from the radius word: -2 ln u1 is taken as
 * -2 ln(wa + 1) + 64 ln 2, with the scaling folded into the log's constants. */
FN_INLINE double fn_bm_radius_f64(uint32_t wa) {
    /* exact u32 -> double without an unsigned conversion instruction */
    double v = (double)(int32_t)(wa ^ 0x80000000u) + (0x1p31 + 1.0);
    return sqrt(fn_scaled_log_f64(v, -32, -2.0));
}

FN_INLINE float fn_bm_radius_f32(uint32_t wa) {
    /* wa + 1 rounded once to float: both halves are exact, their sum is the one
     * rounding, so small values (the tail) keep all their bits (the halves converted
     * with integer and float adds: exact, and faster than a conversion on a GPU) */
    float v = fmaf(fn_small_u32_to_f32(wa >> 16), 0x1p16f,
                   fn_small_u32_to_f32((wa & 0xFFFFu) + 1u));
    return sqrtf(fn_scaled_log_f32(v, -32, -2.0f));
}

/* The direction (c, s) of a pair from its angle word, as described above. */
FN_INLINE void fn_bm_angle_f64(uint32_t wb, double *c, double *s) {
    double f = (double)(int32_t)(wb << 3) * 0x1p-34; /* turns, exact */
    double so, co;
    fn_sincos_octant_f64(f, &so, &co);
    double x = (wb & 0x20000000u) ? so : co;
    double y = (wb & 0x20000000u) ? co : so;
    *c = fn_f64(fn_bits64(x) ^ ((uint64_t)(wb >> 31) << 63));
    *s = fn_f64(fn_bits64(y) ^ ((uint64_t)((wb >> 30) & 1u) << 63));
}

FN_INLINE void fn_bm_angle_f32(uint32_t wb, float *c, float *s) {
    float f = (float)(int32_t)(wb << 3) * 0x1p-34f; /* turns (rounded to float) */
    float so, co;
    fn_sincos_octant_f32(f, &so, &co);
    float x = (wb & 0x20000000u) ? so : co;
    float y = (wb & 0x20000000u) ? co : so;
    *c = fn_f32(fn_bits32(x) ^ (wb & 0x80000000u));
    *s = fn_f32(fn_bits32(y) ^ ((wb << 1) & 0x80000000u));
}

/* The four standard normals of Philox block b of (key, stream). Block b = 4g + q holds
 * pairs 8g + 2q and 8g + 2q + 1, so its normals are, in this order, the indices
 *   16g + 2q, 16g + 2q + 1 (r c of each pair) and 16g + 2q + 8, 16g + 2q + 9 (r s);
 * fn_block_first_index gives 16g + 2q. Each is r * c or r * s rounded once, as the
 * bulk kernels compute it. */
FN_INLINE uint64_t fn_block_first_index(uint64_t block) {
    return (block >> 2) * 16u + (block & 3u) * 2u;
}

#define FN_DEFINE_BLOCK_NORMALS(T, SUF)                                                    \
    FN_INLINE void fn_block_normals_##SUF(uint64_t key, uint64_t stream, uint64_t block,   \
                                          T z[4]) {                                        \
        uint32_t w[4];                                                                     \
        fn_philox_block(key, stream, block, w);                                            \
        T r0 = fn_bm_radius_##SUF(w[0]), r1 = fn_bm_radius_##SUF(w[2]);                    \
        T c0, s0, c1, s1;                                                                  \
        fn_bm_angle_##SUF(w[1], &c0, &s0);                                                 \
        fn_bm_angle_##SUF(w[3], &c1, &s1);                                                 \
        z[0] = r0 * c0;                                                                    \
        z[1] = r1 * c1;                                                                    \
        z[2] = r0 * s0;                                                                    \
        z[3] = r1 * s1;                                                                    \
    }
FN_DEFINE_BLOCK_NORMALS(double, f64)
FN_DEFINE_BLOCK_NORMALS(float, f32)

#endif
