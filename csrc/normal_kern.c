/* Box-Muller over whole Philox blocks. Compiled once per SIMD target (FN_KERNEL);
 * Philox is hand-vectorized (integer math, so exact), the floating-point loops are
 * plain C written so the compiler vectorizes them, with the same operations in the
 * same order on every target, so every copy writes the same bits. */
#include "normal.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#define CHUNK 256 /* blocks per pass: the work arrays stay in L1 */

/* The Box-Muller words of blocks [b, b + m), in pair order: pair 2i is
 * (wa, wb) = (w0, w1) of block b + i and pair 2i + 1 is (w2, w3). */
static void philox_pairs(uint64_t key, uint64_t stream, uint64_t b, size_t m, uint32_t *wa,
                         uint32_t *wb) {
    const uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
    const uint32_t s0 = (uint32_t)stream, s1 = (uint32_t)(stream >> 32);
    size_t i = 0;
#if defined(__AVX512F__) && defined(__AVX512BW__)
    /* as the AVX2 loop below, eight blocks per vector */
    const __m512i m0 = _mm512_set1_epi64(FN_PHILOX_M0);
    const __m512i m1 = _mm512_set1_epi64(FN_PHILOX_M1);
    const __m512i lane = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
    const __m512i vs0 = _mm512_set1_epi64(s0), vs1 = _mm512_set1_epi64(s1);
    __m512i rk0[10], rk1[10];
    {
        uint32_t ka = k0, kb = k1;
        for (int r = 0; r < 10; r++) {
            rk0[r] = _mm512_set1_epi64(ka);
            rk1[r] = _mm512_set1_epi64(kb);
            ka += FN_PHILOX_W0;
            kb += FN_PHILOX_W1;
        }
    }
    for (; i + 16 <= m; i += 16) {
        __m512i bA = _mm512_add_epi64(_mm512_set1_epi64((long long)(b + i)), lane);
        __m512i bC = _mm512_add_epi64(bA, _mm512_set1_epi64(8));
        __m512i a0 = bA, a1 = _mm512_srli_epi64(bA, 32), a2 = vs0, a3 = vs1;
        __m512i c0 = bC, c1 = _mm512_srli_epi64(bC, 32), c2 = vs0, c3 = vs1;
        for (int r = 0; r < 10; r++) {
            __m512i pa0 = _mm512_mul_epu32(a0, m0), pa1 = _mm512_mul_epu32(a2, m1);
            __m512i pc0 = _mm512_mul_epu32(c0, m0), pc1 = _mm512_mul_epu32(c2, m1);
            a0 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pa1, 32), a1), rk0[r]);
            a2 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pa0, 32), a3), rk1[r]);
            a1 = pa1;
            a3 = pa0;
            c0 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pc1, 32), c1), rk0[r]);
            c2 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pc0, 32), c3), rk1[r]);
            c1 = pc1;
            c3 = pc0;
        }
        _mm512_storeu_si512((void *)(wa + 2 * i),
                            _mm512_mask_blend_epi32(0xAAAA, a0, _mm512_slli_epi64(a2, 32)));
        _mm512_storeu_si512((void *)(wb + 2 * i),
                            _mm512_mask_blend_epi32(0xAAAA, a1, _mm512_slli_epi64(a3, 32)));
        _mm512_storeu_si512((void *)(wa + 2 * i + 16),
                            _mm512_mask_blend_epi32(0xAAAA, c0, _mm512_slli_epi64(c2, 32)));
        _mm512_storeu_si512((void *)(wb + 2 * i + 16),
                            _mm512_mask_blend_epi32(0xAAAA, c1, _mm512_slli_epi64(c3, 32)));
    }
#elif defined(__AVX2__)
    /* Four blocks per vector, one 32-bit word in the low half of each 64-bit lane:
     * _mm256_mul_epu32 gives the full product and ignores the high halves, so they
     * may hold garbage until the final blend. Two groups interleave for ILP. */
    const __m256i m0 = _mm256_set1_epi64x(FN_PHILOX_M0);
    const __m256i m1 = _mm256_set1_epi64x(FN_PHILOX_M1);
    const __m256i lane = _mm256_setr_epi64x(0, 1, 2, 3);
    const __m256i vs0 = _mm256_set1_epi64x(s0), vs1 = _mm256_set1_epi64x(s1);
    __m256i rk0[10], rk1[10];
    {
        uint32_t ka = k0, kb = k1;
        for (int r = 0; r < 10; r++) {
            rk0[r] = _mm256_set1_epi64x(ka);
            rk1[r] = _mm256_set1_epi64x(kb);
            ka += FN_PHILOX_W0;
            kb += FN_PHILOX_W1;
        }
    }
    for (; i + 8 <= m; i += 8) {
        __m256i bA = _mm256_add_epi64(_mm256_set1_epi64x((long long)(b + i)), lane);
        __m256i bC = _mm256_add_epi64(bA, _mm256_set1_epi64x(4));
        __m256i a0 = bA, a1 = _mm256_srli_epi64(bA, 32), a2 = vs0, a3 = vs1;
        __m256i c0 = bC, c1 = _mm256_srli_epi64(bC, 32), c2 = vs0, c3 = vs1;
        for (int r = 0; r < 10; r++) {
            __m256i pa0 = _mm256_mul_epu32(a0, m0), pa1 = _mm256_mul_epu32(a2, m1);
            __m256i pc0 = _mm256_mul_epu32(c0, m0), pc1 = _mm256_mul_epu32(c2, m1);
            a0 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pa1, 32), a1), rk0[r]);
            a2 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pa0, 32), a3), rk1[r]);
            a1 = pa1;
            a3 = pa0;
            c0 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pc1, 32), c1), rk0[r]);
            c2 = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(pc0, 32), c3), rk1[r]);
            c1 = pc1;
            c3 = pc0;
        }
        /* (w0, w2) and (w1, w3) of each block side by side, in pair order */
        _mm256_storeu_si256((__m256i *)(wa + 2 * i),
                            _mm256_blend_epi32(a0, _mm256_slli_epi64(a2, 32), 0xAA));
        _mm256_storeu_si256((__m256i *)(wb + 2 * i),
                            _mm256_blend_epi32(a1, _mm256_slli_epi64(a3, 32), 0xAA));
        _mm256_storeu_si256((__m256i *)(wa + 2 * i + 8),
                            _mm256_blend_epi32(c0, _mm256_slli_epi64(c2, 32), 0xAA));
        _mm256_storeu_si256((__m256i *)(wb + 2 * i + 8),
                            _mm256_blend_epi32(c1, _mm256_slli_epi64(c3, 32), 0xAA));
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
