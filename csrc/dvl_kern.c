/* DVL chunk kernels, compiled once per SIMD target. The loops are plain and
 * branch-free so the compiler vectorizes them; Philox is written out with AVX2/AVX-512
 * integer intrinsics where available (integer arithmetic: same words on every path). */
#include "dvl.h"
#include "philox.h"
#include "philox_simd.h"

#include <math.h>

/* Philox blocks [block0, block0 + nblocks) of (key, stream) as 16-bit halves in block
 * order: out[8 * i + 2 * j] = low half of word j of block block0 + i, out[... + 1] =
 * its high half (the words' little-endian bytes, which the AVX2 stores write). */
void FN_KERNEL(fn_awn_philox_halves)(uint64_t key, uint64_t stream, uint64_t block0,
                                     size_t nblocks, uint16_t *out) {
    size_t i = 0;
#if defined(__AVX2__)
    fn_philox_avx2 P;
    fn_philox_avx2_init(&P, key, stream);
    for (; i + 8 <= nblocks; i += 8) {
        __m256i w[8];
        fn_philox_avx2_8(&P, block0 + i, w);
        /* lanes -> block order: (w0 w1) and (w2 w3) as 64-bit pairs, then interleave */
        uint16_t *o = out + 8 * i;
        __m256i a01 = fn_philox_avx2_pair(w[0], w[1]);
        __m256i a23 = fn_philox_avx2_pair(w[2], w[3]);
        __m256i c01 = fn_philox_avx2_pair(w[4], w[5]);
        __m256i c23 = fn_philox_avx2_pair(w[6], w[7]);
        __m256i alo = _mm256_unpacklo_epi64(a01, a23); /* blocks 0 | 2 */
        __m256i ahi = _mm256_unpackhi_epi64(a01, a23); /* blocks 1 | 3 */
        __m256i clo = _mm256_unpacklo_epi64(c01, c23);
        __m256i chi = _mm256_unpackhi_epi64(c01, c23);
        _mm256_storeu_si256((__m256i *)(o + 0), _mm256_permute2x128_si256(alo, ahi, 0x20));
        _mm256_storeu_si256((__m256i *)(o + 16), _mm256_permute2x128_si256(alo, ahi, 0x31));
        _mm256_storeu_si256((__m256i *)(o + 32), _mm256_permute2x128_si256(clo, chi, 0x20));
        _mm256_storeu_si256((__m256i *)(o + 48), _mm256_permute2x128_si256(clo, chi, 0x31));
    }
#endif
    for (; i < nblocks; i++) {
        uint32_t w[4];
        fn_philox_block(key, stream, block0 + i, w);
        for (int j = 0; j < 4; j++) {
            out[8 * i + 2 * j] = (uint16_t)w[j];
            out[8 * i + 2 * j + 1] = (uint16_t)(w[j] >> 16);
        }
    }
}

/* restrict: the buffers never overlap, and it lets the compiler vectorize without
 * run-time alias checks (too many of them for nine pointers). */
void FN_KERNEL(fn_awn_values)(size_t n, const double *restrict truth,
                              const double *restrict z, const uint16_t *restrict h,
                              double bias, double noise_dev, double anchor, double f,
                              double *restrict out, size_t *ties) {
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++) {
        out[i] = fn_awn_value(truth[i], bias, noise_dev, anchor, f, z[i], h[i]);
        t += (uint64_t)((double)h[i] == f);
    }
    *ties = (size_t)t;
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

/* Number of samples with an angle beyond the fast reduction (|angle| >= 2^50 deg;
 * NaN compares false, as in the per-sample path), counted branch-free so it
 * vectorizes. */
void FN_KERNEL(fn_dvl_count_huge)(size_t n, const double *restrict roll,
                                  const double *restrict pitch, const double *restrict yaw,
                                  size_t *count) {
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += (uint64_t)((fabs(roll[i]) >= 0x1p50) | (fabs(pitch[i]) >= 0x1p50) |
                        (fabs(yaw[i]) >= 0x1p50));
    *count = (size_t)c;
}
