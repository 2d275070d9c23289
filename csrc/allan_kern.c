/* The sums of the overlapping Allan variance (see allan.h), compiled once per SIMD
 * target (FN_KERNEL). Lane l of a block sums the terms i = l mod FN_ALLAN_LANES and the
 * lanes are added in a fixed order, so every target computes the same bits. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "allan.h"
#include "simd.h"

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#define LANES 8

/* Sum over i in [lo, hi) of ((x[i + 2m] - 2 x[i + m]) + x[i])^2. Lane l takes the
 * terms with (i - lo) = l mod 8; 2 x is formed as x + x (exact either way). The vector
 * paths do the same operations per lane in the same order (no fma). */
static double block_sum(const double *x, size_t lo, size_t hi, size_t m) {
    const double *x1 = x + m;
    const double *x2 = x + 2 * m;
    double s[LANES];
    size_t i = lo;
#if defined(__AVX512F__)
    __m512d acc = _mm512_setzero_pd();
    for (; i + LANES <= hi; i += LANES) {
        __m512d b = _mm512_loadu_pd(x1 + i);
        __m512d v = _mm512_sub_pd(_mm512_loadu_pd(x2 + i), _mm512_add_pd(b, b));
        v = _mm512_add_pd(v, _mm512_loadu_pd(x + i));
        acc = _mm512_add_pd(acc, _mm512_mul_pd(v, v));
    }
    _mm512_storeu_pd(s, acc);
#elif defined(__AVX2__)
    __m256d acc0 = _mm256_setzero_pd(), acc1 = _mm256_setzero_pd();
    for (; i + LANES <= hi; i += LANES) {
        __m256d b0 = _mm256_loadu_pd(x1 + i), b1 = _mm256_loadu_pd(x1 + i + 4);
        __m256d v0 = _mm256_sub_pd(_mm256_loadu_pd(x2 + i), _mm256_add_pd(b0, b0));
        __m256d v1 = _mm256_sub_pd(_mm256_loadu_pd(x2 + i + 4), _mm256_add_pd(b1, b1));
        v0 = _mm256_add_pd(v0, _mm256_loadu_pd(x + i));
        v1 = _mm256_add_pd(v1, _mm256_loadu_pd(x + i + 4));
        acc0 = _mm256_add_pd(acc0, _mm256_mul_pd(v0, v0));
        acc1 = _mm256_add_pd(acc1, _mm256_mul_pd(v1, v1));
    }
    _mm256_storeu_pd(s, acc0);
    _mm256_storeu_pd(s + 4, acc1);
#else
    for (size_t l = 0; l < LANES; l++)
        s[l] = 0.0;
    for (; i + LANES <= hi; i += LANES) {
        for (size_t l = 0; l < LANES; l++) {
            double b = x1[i + l];
            double v = (x2[i + l] - (b + b)) + x[i + l];
            s[l] += v * v;
        }
    }
#endif
    for (size_t l = 0; i < hi; i++, l++) {
        double b = x1[i];
        double v = (x2[i] - (b + b)) + x[i];
        s[l] += v * v;
    }
    return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

void FN_KERNEL(fn_allan_sums_kern)(const double *x, size_t np, const int64_t *m, size_t nm,
                                   double *out) {
    size_t longest = 0; /* terms of the smallest valid m */
    for (size_t j = 0; j < nm; j++) {
        if (np > 0 && m[j] >= 1 && (uint64_t)m[j] <= (np - 1) / 2) {
            out[j] = 0.0;
            size_t terms = np - 2 * (size_t)m[j];
            if (terms > longest) longest = terms;
        } else {
            out[j] = NAN;
        }
    }
    /* Outer loop over blocks of i, inner over m: for the small m the block's phases
     * stay in cache from one m to the next. */
    for (size_t lo = 0; lo < longest; lo += FN_ALLAN_BLOCK) {
        for (size_t j = 0; j < nm; j++) {
            if (isnan(out[j])) continue;
            size_t mj = (size_t)m[j];
            size_t terms = np - 2 * mj;
            if (lo >= terms) continue;
            size_t hi = lo + FN_ALLAN_BLOCK < terms ? lo + FN_ALLAN_BLOCK : terms;
            out[j] += block_sum(x, lo, hi, mj);
        }
    }
}
