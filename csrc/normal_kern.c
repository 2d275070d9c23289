/* Box-Muller over whole Philox blocks. Compiled once per SIMD target (FN_KERNEL);
 * Philox is hand-vectorized (integer math, so exact), the floating-point loops are
 * plain C written so the compiler vectorizes them, with the same operations in the
 * same order on every target, so every copy writes the same bits. */
#include "normal.h"

#include "philox_simd.h"

#define CHUNK 256 /* blocks per pass: the work arrays stay in L1 */

/* The Box-Muller words of blocks [b, b + m), in pair order: pair 2i is
 * (wa, wb) = (w0, w1) of block b + i and pair 2i + 1 is (w2, w3). */
static void philox_pairs(uint64_t key, uint64_t stream, uint64_t b, size_t m, uint32_t *wa,
                         uint32_t *wb) {
    const uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
    const uint32_t s0 = (uint32_t)stream, s1 = (uint32_t)(stream >> 32);
    size_t i = 0;
#if defined(__AVX512F__) && defined(__AVX512BW__)
    fn_philox_avx512 P;
    if (m >= 16) fn_philox_avx512_init(&P, key, stream);
    for (; i + 16 <= m; i += 16) {
        __m512i w[8];
        fn_philox_avx512_16(&P, b + i, w);
        /* (w0, w2) and (w1, w3) of each block side by side, in pair order */
        _mm512_storeu_si512((void *)(wa + 2 * i), fn_philox_avx512_pair(w[0], w[2]));
        _mm512_storeu_si512((void *)(wb + 2 * i), fn_philox_avx512_pair(w[1], w[3]));
        _mm512_storeu_si512((void *)(wa + 2 * i + 16), fn_philox_avx512_pair(w[4], w[6]));
        _mm512_storeu_si512((void *)(wb + 2 * i + 16), fn_philox_avx512_pair(w[5], w[7]));
    }
#elif defined(__AVX2__)
    fn_philox_avx2 P;
    if (m >= 8) fn_philox_avx2_init(&P, key, stream);
    for (; i + 8 <= m; i += 8) {
        __m256i w[8];
        fn_philox_avx2_8(&P, b + i, w);
        _mm256_storeu_si256((__m256i *)(wa + 2 * i), fn_philox_avx2_pair(w[0], w[2]));
        _mm256_storeu_si256((__m256i *)(wb + 2 * i), fn_philox_avx2_pair(w[1], w[3]));
        _mm256_storeu_si256((__m256i *)(wa + 2 * i + 8), fn_philox_avx2_pair(w[4], w[6]));
        _mm256_storeu_si256((__m256i *)(wb + 2 * i + 8), fn_philox_avx2_pair(w[5], w[7]));
    }
#endif
#if defined(__AVX2__)
    /* four blocks at a time for the rest: one group of normals, the per-sample refill,
     * is four blocks, which the wide loops above never see */
    for (; i + 4 <= m; i += 4) {
        __m256i w[4];
        fn_philox_avx2_4(key, stream, b + i, w);
        _mm256_storeu_si256((__m256i *)(wa + 2 * i), fn_philox_avx2_pair(w[0], w[2]));
        _mm256_storeu_si256((__m256i *)(wb + 2 * i), fn_philox_avx2_pair(w[1], w[3]));
    }
#endif
    for (; i < m; i++) {
        uint32_t w[4];
        uint64_t bi = b + i;
        fn_philox4x32_10((uint32_t)bi, (uint32_t)(bi >> 32), s0, s1, k0, k1, w);
        wa[2 * i] = w[0];
        wb[2 * i] = w[1];
        wa[2 * i + 1] = w[2];
        wb[2 * i + 1] = w[3];
    }
}

/* Radius and angle in separate loops: each has short dependency chains, so the
 * out-of-order core overlaps many iterations. Cosines and sines of a group go to
 * two runs of 8, so vector code stores them without shuffles. `scale` = 0 stores
 * the standard normals themselves (no fma, so -0.0 stays -0.0). */
#define DEFINE_GROUPS(T, SUF, FMA)                                                         \
    static inline void groups_##SUF(uint64_t key, uint64_t stream, uint64_t group0,        \
                                    size_t ngroups, T mean, T stddev, int scale, T *out) { \
        uint32_t wa[2 * CHUNK], wb[2 * CHUNK];                                             \
        T r[2 * CHUNK];                                                                    \
        for (size_t done = 0; done < ngroups; done += CHUNK / FN_GROUP_BLOCKS) {           \
            size_t m = ngroups - done;                                                     \
            if (m > CHUNK / FN_GROUP_BLOCKS) m = CHUNK / FN_GROUP_BLOCKS;                  \
            size_t npairs = m * (FN_GROUP / 2);                                            \
            philox_pairs(key, stream, (group0 + done) * FN_GROUP_BLOCKS,                   \
                         m * FN_GROUP_BLOCKS, wa, wb);                                     \
            for (size_t p = 0; p < npairs; p++)                                            \
                r[p] = fn_bm_radius_##SUF(wa[p]);                                          \
            T *o = out + FN_GROUP * done;                                                  \
            for (size_t g = 0; g < m; g++) {                                               \
                for (size_t k = 0; k < FN_GROUP / 2; k++) {                                \
                    size_t p = g * (FN_GROUP / 2) + k;                                     \
                    T c, s;                                                                \
                    fn_bm_angle_##SUF(wb[p], &c, &s);                                      \
                    T zc = r[p] * c, zs = r[p] * s;                                        \
                    o[FN_GROUP * g + k] = scale ? FMA(stddev, zc, mean) : zc;              \
                    o[FN_GROUP * g + FN_GROUP / 2 + k] =                                   \
                        scale ? FMA(stddev, zs, mean) : zs;                                \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
    }                                                                                      \
                                                                                           \
    void FN_KERNEL(fn_normal_groups_##SUF)(uint64_t key, uint64_t stream, uint64_t group0, \
                                           size_t ngroups, T mean, T stddev, T *out) {     \
        groups_##SUF(key, stream, group0, ngroups, mean, stddev, 1, out);                  \
    }                                                                                      \
                                                                                           \
    void FN_KERNEL(fn_group_normals_##SUF)(uint64_t key, uint64_t stream, uint64_t group,  \
                                           T out[FN_GROUP]) {                              \
        groups_##SUF(key, stream, group, 1, (T)0, (T)1, 0, out);                           \
    }

DEFINE_GROUPS(double, f64, fma)
DEFINE_GROUPS(float, f32, fmaf)
