/* Box-Muller over whole Philox blocks. Compiled once per SIMD target; the loops are
 * written so the compiler vectorizes them, and the arithmetic is the same in every
 * copy, so every copy writes the same bits. */
#include "normal.h"

#define CHUNK 256

#if defined(__AVX2__)
#include <immintrin.h>
#endif

/* Philox words of blocks [b, b + m) of a stream, one array per word. Integer
 * arithmetic, so the hand-vectorized copies equal the plain loop exactly. */
static void philox_words(uint64_t key, uint64_t stream, uint64_t b, size_t m,
                         uint32_t *x0, uint32_t *x1, uint32_t *x2, uint32_t *x3) {
    const uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
    const uint32_t s0 = (uint32_t)stream, s1 = (uint32_t)(stream >> 32);
    size_t i = 0;
#if defined(__AVX512F__) && defined(__AVX512BW__)
    const __m512i m0 = _mm512_set1_epi32((int)FN_PHILOX_M0);
    const __m512i m1 = _mm512_set1_epi32((int)FN_PHILOX_M1);
    const __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
                                           14, 15);
    for (; i + 16 <= m && (uint32_t)(b + i) <= 0xFFFFFFFFu - 15u; i += 16) {
        uint64_t bi = b + i;
        __m512i c0 = _mm512_add_epi32(_mm512_set1_epi32((int)(uint32_t)bi), lane);
        __m512i c1 = _mm512_set1_epi32((int)(uint32_t)(bi >> 32));
        __m512i c2 = _mm512_set1_epi32((int)s0), c3 = _mm512_set1_epi32((int)s1);
        uint32_t ka = k0, kb = k1;
        for (int r = 0; r < 10; r++) {
            __m512i pe0 = _mm512_mul_epu32(c0, m0);
            __m512i po0 = _mm512_mul_epu32(_mm512_srli_epi64(c0, 32), m0);
            __m512i pe1 = _mm512_mul_epu32(c2, m1);
            __m512i po1 = _mm512_mul_epu32(_mm512_srli_epi64(c2, 32), m1);
            __m512i hi0 = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(pe0, 32), po0);
            __m512i lo0 = _mm512_mask_blend_epi32(0xAAAA, pe0, _mm512_slli_epi64(po0, 32));
            __m512i hi1 = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(pe1, 32), po1);
            __m512i lo1 = _mm512_mask_blend_epi32(0xAAAA, pe1, _mm512_slli_epi64(po1, 32));
            c0 = _mm512_xor_si512(_mm512_xor_si512(hi1, c1), _mm512_set1_epi32((int)ka));
            c2 = _mm512_xor_si512(_mm512_xor_si512(hi0, c3), _mm512_set1_epi32((int)kb));
            c1 = lo1;
            c3 = lo0;
            ka += FN_PHILOX_W0;
            kb += FN_PHILOX_W1;
        }
        _mm512_storeu_si512((void *)(x0 + i), c0);
        _mm512_storeu_si512((void *)(x1 + i), c1);
        _mm512_storeu_si512((void *)(x2 + i), c2);
        _mm512_storeu_si512((void *)(x3 + i), c3);
    }
#elif defined(__AVX2__)
    const __m256i m0 = _mm256_set1_epi32((int)FN_PHILOX_M0);
    const __m256i m1 = _mm256_set1_epi32((int)FN_PHILOX_M1);
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (; i + 8 <= m && (uint32_t)(b + i) <= 0xFFFFFFFFu - 7u; i += 8) {
        uint64_t bi = b + i;
        __m256i c0 = _mm256_add_epi32(_mm256_set1_epi32((int)(uint32_t)bi), lane);
        __m256i c1 = _mm256_set1_epi32((int)(uint32_t)(bi >> 32));
        __m256i c2 = _mm256_set1_epi32((int)s0), c3 = _mm256_set1_epi32((int)s1);
        uint32_t ka = k0, kb = k1;
        for (int r = 0; r < 10; r++) {
            __m256i pe0 = _mm256_mul_epu32(c0, m0);
            __m256i po0 = _mm256_mul_epu32(_mm256_srli_epi64(c0, 32), m0);
            __m256i pe1 = _mm256_mul_epu32(c2, m1);
            __m256i po1 = _mm256_mul_epu32(_mm256_srli_epi64(c2, 32), m1);
            __m256i hi0 = _mm256_blend_epi32(_mm256_srli_epi64(pe0, 32), po0, 0xAA);
            __m256i lo0 = _mm256_blend_epi32(pe0, _mm256_slli_epi64(po0, 32), 0xAA);
            __m256i hi1 = _mm256_blend_epi32(_mm256_srli_epi64(pe1, 32), po1, 0xAA);
            __m256i lo1 = _mm256_blend_epi32(pe1, _mm256_slli_epi64(po1, 32), 0xAA);
            c0 = _mm256_xor_si256(_mm256_xor_si256(hi1, c1), _mm256_set1_epi32((int)ka));
            c2 = _mm256_xor_si256(_mm256_xor_si256(hi0, c3), _mm256_set1_epi32((int)kb));
            c1 = lo1;
            c3 = lo0;
            ka += FN_PHILOX_W0;
            kb += FN_PHILOX_W1;
        }
        _mm256_storeu_si256((__m256i *)(x0 + i), c0);
        _mm256_storeu_si256((__m256i *)(x1 + i), c1);
        _mm256_storeu_si256((__m256i *)(x2 + i), c2);
        _mm256_storeu_si256((__m256i *)(x3 + i), c3);
    }
#endif
    for (; i < m; i++) {
        uint32_t w[4];
        uint64_t bi = b + i;
        fn_philox4x32_10((uint32_t)bi, (uint32_t)(bi >> 32), s0, s1, k0, k1, w);
        x0[i] = w[0];
        x1[i] = w[1];
        x2[i] = w[2];
        x3[i] = w[3];
    }
}

void FN_KERNEL(fn_normal_blocks_f64)(uint64_t key, uint64_t stream, uint64_t block0,
                                     size_t nblocks, double mean, double stddev,
                                     double *out) {
    uint32_t x0[CHUNK], x1[CHUNK], x2[CHUNK], x3[CHUNK];
    for (size_t done = 0; done < nblocks; done += CHUNK) {
        size_t m = nblocks - done < CHUNK ? nblocks - done : CHUNK;
        philox_words(key, stream, block0 + done, m, x0, x1, x2, x3);
        double *o = out + 2 * done;
        for (size_t i = 0; i < m; i++) {
            double z0, z1;
            fn_box_muller_f64(x0[i], x1[i], x2[i], x3[i], &z0, &z1);
            o[2 * i] = mean + stddev * z0;
            o[2 * i + 1] = mean + stddev * z1;
        }
    }
}

void FN_KERNEL(fn_normal_blocks_f32)(uint64_t key, uint64_t stream, uint64_t block0,
                                     size_t nblocks, float mean, float stddev,
                                     float *out) {
    uint32_t x0[CHUNK], x1[CHUNK], x2[CHUNK], x3[CHUNK];
    for (size_t done = 0; done < nblocks; done += CHUNK) {
        size_t m = nblocks - done < CHUNK ? nblocks - done : CHUNK;
        philox_words(key, stream, block0 + done, m, x0, x1, x2, x3);
        float *o = out + 4 * done;
        for (size_t i = 0; i < m; i++) {
            float z0, z1, z2, z3;
            fn_box_muller_f32(x0[i], x1[i], &z0, &z1);
            fn_box_muller_f32(x2[i], x3[i], &z2, &z3);
            o[4 * i] = mean + stddev * z0;
            o[4 * i + 1] = mean + stddev * z1;
            o[4 * i + 2] = mean + stddev * z2;
            o[4 * i + 3] = mean + stddev * z3;
        }
    }
}
