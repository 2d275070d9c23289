/* DVL chunk kernels, compiled once per SIMD target. The loops are plain and
 * branch-free so the compiler vectorizes them; Philox is written out with AVX2/AVX-512
 * integer intrinsics where available (integer arithmetic: same words on every path). */
#include "dvl.h"
#include "philox.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

/* Philox blocks [block0, block0 + nblocks) of (key, stream), words in block order:
 * out[4 * i + j] = word j of block block0 + i. */
void FN_KERNEL(fn_awn_philox_words)(uint64_t key, uint64_t stream, uint64_t block0,
                                    size_t nblocks, uint32_t *out) {
    size_t i = 0;
#if defined(__AVX2__)
    const uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
    const __m256i mul0 = _mm256_set1_epi32((int)FN_PHILOX_M0);
    const __m256i mul1 = _mm256_set1_epi32((int)FN_PHILOX_M1);
    const __m256i step = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    /* 8 blocks at a time while the low counter word does not wrap inside the group */
    for (; i + 8 <= nblocks && (uint32_t)(block0 + i) <= 0xFFFFFFF8u; i += 8) {
        uint64_t b = block0 + i;
        __m256i x0 = _mm256_add_epi32(_mm256_set1_epi32((int)(uint32_t)b), step);
        __m256i x1 = _mm256_set1_epi32((int)(uint32_t)(b >> 32));
        __m256i x2 = _mm256_set1_epi32((int)(uint32_t)stream);
        __m256i x3 = _mm256_set1_epi32((int)(uint32_t)(stream >> 32));
        uint32_t ka = k0, kb = k1;
        for (int r = 0; r < 10; r++) {
            /* 32x32 -> 64 products of even and odd lanes */
            __m256i e0 = _mm256_mul_epu32(x0, mul0);
            __m256i o0 = _mm256_mul_epu32(_mm256_srli_epi64(x0, 32), mul0);
            __m256i e2 = _mm256_mul_epu32(x2, mul1);
            __m256i o2 = _mm256_mul_epu32(_mm256_srli_epi64(x2, 32), mul1);
            __m256i hi0 = _mm256_blend_epi32(_mm256_srli_epi64(e0, 32), o0, 0xAA);
            __m256i lo0 = _mm256_blend_epi32(e0, _mm256_slli_epi64(o0, 32), 0xAA);
            __m256i hi2 = _mm256_blend_epi32(_mm256_srli_epi64(e2, 32), o2, 0xAA);
            __m256i lo2 = _mm256_blend_epi32(e2, _mm256_slli_epi64(o2, 32), 0xAA);
            __m256i n0 =
                _mm256_xor_si256(_mm256_xor_si256(hi2, x1), _mm256_set1_epi32((int)ka));
            __m256i n2 =
                _mm256_xor_si256(_mm256_xor_si256(hi0, x3), _mm256_set1_epi32((int)kb));
            x1 = lo2;
            x3 = lo0;
            x0 = n0;
            x2 = n2;
            ka += FN_PHILOX_W0;
            kb += FN_PHILOX_W1;
        }
        /* transpose 4 word vectors (8 blocks each) into block order */
        __m256i t0 = _mm256_unpacklo_epi32(x0, x1); /* b0w0 b0w1 b1w0 b1w1 | b4.. b5.. */
        __m256i t1 = _mm256_unpackhi_epi32(x0, x1); /* b2.. b3.. | b6.. b7.. */
        __m256i t2 = _mm256_unpacklo_epi32(x2, x3);
        __m256i t3 = _mm256_unpackhi_epi32(x2, x3);
        __m256i q0 = _mm256_unpacklo_epi64(t0, t2); /* b0 | b4 */
        __m256i q1 = _mm256_unpackhi_epi64(t0, t2); /* b1 | b5 */
        __m256i q2 = _mm256_unpacklo_epi64(t1, t3); /* b2 | b6 */
        __m256i q3 = _mm256_unpackhi_epi64(t1, t3); /* b3 | b7 */
        uint32_t *o = out + 4 * i;
        _mm256_storeu_si256((__m256i *)(o + 0), _mm256_permute2x128_si256(q0, q1, 0x20));
        _mm256_storeu_si256((__m256i *)(o + 8), _mm256_permute2x128_si256(q2, q3, 0x20));
        _mm256_storeu_si256((__m256i *)(o + 16), _mm256_permute2x128_si256(q0, q1, 0x31));
        _mm256_storeu_si256((__m256i *)(o + 24), _mm256_permute2x128_si256(q2, q3, 0x31));
    }
#endif
    for (; i < nblocks; i++)
        fn_philox_block(key, stream, block0 + i, out + 4 * i);
}

/* restrict: the buffers never overlap, and it lets the compiler vectorize without
 * run-time alias checks (too many of them for nine pointers). */
void FN_KERNEL(fn_awn_values)(size_t n, const double *restrict truth,
                              const double *restrict z, const uint32_t *restrict w,
                              double bias, double noise_dev, double anchor, double p,
                              double *restrict out) {
    for (size_t i = 0; i < n; i++)
        out[i] = fn_awn_value(truth[i], bias, noise_dev, anchor, p, z[i], w[i]);
}

void FN_KERNEL(fn_dvl_rotate_many)(size_t n, const double *restrict roll,
                                   const double *restrict pitch, const double *restrict yaw,
                                   const double *restrict u, const double *restrict v,
                                   const double *restrict w, double *restrict vn,
                                   double *restrict ve, double *restrict vu) {
    for (size_t i = 0; i < n; i++) {
        double a, b, c;
        fn_dvl_rotate(roll[i], pitch[i], yaw[i], u[i], v[i], w[i], &a, &b, &c);
        vn[i] = a;
        ve[i] = b;
        vu[i] = c;
    }
}
