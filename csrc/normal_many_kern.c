/* Groups of normals from many streams (normal_many.h). Compiled once per SIMD target
 * (FN_KERNEL). Philox runs one block per 64-bit lane with per-lane counter, stream and
 * key (integer math, exact); the Box-Muller loops are normal_kern.c's: plain C on
 * fn_bm_radius / fn_bm_angle, the same operations in the same order on every target,
 * so every copy writes the same bits. */
#include "normal_many.h"

#include "philox_simd.h"

#define BLOCKS (FN_NORMAL_MANY_MAX * FN_GROUP_BLOCKS)
#define PAIRS (FN_NORMAL_MANY_MAX * (FN_GROUP / 2))

/* The Box-Muller words of every stream's group, in pair order: pair 8 i + p of stream
 * i is (w0, w1) of its block 4 group[i] + p / 2 for even p, (w2, w3) for odd p. */
static void many_pairs(const uint64_t *key, const uint64_t *stream, const uint64_t *group,
                       size_t n, uint32_t *wa, uint32_t *wb) {
    size_t nb = n * FN_GROUP_BLOCKS, j = 0;
#if defined(__AVX2__)
    /* the four blocks of one stream's group per vector (one per lane), two streams at
     * a time so that the two multiply chains overlap */
    const __m256i m0 = _mm256_set1_epi64x(FN_PHILOX_M0);
    const __m256i m1 = _mm256_set1_epi64x(FN_PHILOX_M1);
    const __m256i w0 = _mm256_set1_epi64x(FN_PHILOX_W0);
    const __m256i w1 = _mm256_set1_epi64x(FN_PHILOX_W1);
    for (; j + 4 <= nb; j += 8) {
        size_t i = j / FN_GROUP_BLOCKS;
        size_t i2 = j + 8 <= nb ? i + 1 : i; /* an odd last stream is computed twice */
        __m256i x[2][4], k[2][2];
        for (int v = 0; v < 2; v++) {
            size_t s = v ? i2 : i;
            __m256i blk = _mm256_add_epi64(
                _mm256_set1_epi64x((long long)(group[s] * FN_GROUP_BLOCKS)),
                _mm256_setr_epi64x(0, 1, 2, 3));
            x[v][0] = blk;
            x[v][1] = _mm256_srli_epi64(blk, 32);
            x[v][2] = _mm256_set1_epi64x((long long)(uint32_t)stream[s]);
            x[v][3] = _mm256_set1_epi64x((long long)(uint32_t)(stream[s] >> 32));
            k[v][0] = _mm256_set1_epi64x((long long)(uint32_t)key[s]);
            k[v][1] = _mm256_set1_epi64x((long long)(uint32_t)(key[s] >> 32));
        }
        for (int r = 0; r < 10; r++)
            for (int v = 0; v < 2; v++) {
                __m256i p0 = _mm256_mul_epu32(x[v][0], m0),
                        p1 = _mm256_mul_epu32(x[v][2], m1);
                x[v][0] = _mm256_xor_si256(
                    _mm256_xor_si256(_mm256_srli_epi64(p1, 32), x[v][1]), k[v][0]);
                x[v][2] = _mm256_xor_si256(
                    _mm256_xor_si256(_mm256_srli_epi64(p0, 32), x[v][3]), k[v][1]);
                x[v][1] = p1;
                x[v][3] = p0;
                /* the low words wrap mod 2^32, as uint32 key words do */
                k[v][0] = _mm256_add_epi32(k[v][0], w0);
                k[v][1] = _mm256_add_epi32(k[v][1], w1);
            }
        /* block q of a group holds pairs 2q (w0, w1) and 2q + 1 (w2, w3) */
        for (int v = 0; v < 2; v++) {
            size_t at = 2 * (v ? i2 : i) * FN_GROUP_BLOCKS;
            _mm256_storeu_si256((__m256i *)(wa + at),
                                fn_philox_avx2_pair(x[v][0], x[v][2]));
            _mm256_storeu_si256((__m256i *)(wb + at),
                                fn_philox_avx2_pair(x[v][1], x[v][3]));
        }
    }
#endif
    for (; j < nb; j++) {
        size_t i = j / FN_GROUP_BLOCKS;
        uint32_t w[4];
        fn_philox_block(key[i], stream[i], group[i] * FN_GROUP_BLOCKS + j % FN_GROUP_BLOCKS,
                        w);
        wa[2 * j] = w[0];
        wb[2 * j] = w[1];
        wa[2 * j + 1] = w[2];
        wb[2 * j + 1] = w[3];
    }
}

#define DEFINE_MANY(T, SUF)                                                                \
    void FN_KERNEL(fn_normal_group_many_##SUF)(const uint64_t *key,                        \
                                               const uint64_t *stream,                     \
                                               const uint64_t *group, size_t n, T *out) {  \
        uint32_t wa[PAIRS], wb[PAIRS];                                                     \
        T r[PAIRS];                                                                        \
        if (n > FN_NORMAL_MANY_MAX) n = FN_NORMAL_MANY_MAX;                                \
        size_t npairs = n * (FN_GROUP / 2);                                                \
        many_pairs(key, stream, group, n, wa, wb);                                         \
        for (size_t p = 0; p < npairs; p++)                                                \
            r[p] = fn_bm_radius_##SUF(wa[p]);                                              \
        for (size_t i = 0; i < n; i++) {                                                   \
            T *o = out + FN_GROUP * i;                                                     \
            for (size_t k = 0; k < FN_GROUP / 2; k++) {                                    \
                size_t p = i * (FN_GROUP / 2) + k;                                         \
                T c, s;                                                                    \
                fn_bm_angle_##SUF(wb[p], &c, &s);                                          \
                /* + 0: fma(1, z, 0) of the mean-0, stddev-1 fill, exactly */              \
                o[k] = r[p] * c + (T)0;                                                    \
                o[FN_GROUP / 2 + k] = r[p] * s + (T)0;                                     \
            }                                                                              \
        }                                                                                  \
    }

DEFINE_MANY(double, f64)
DEFINE_MANY(float, f32)
