/* AVX2 copies of fnmath.h functions that hand-written vector loops need: the same
 * coefficient tables and the same operations in the same order as the scalar code,
 * so a lane gives the scalar function's bits. */
#ifndef FN_MATH_AVX2_H
#define FN_MATH_AVX2_H

#include "fnmath.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>

static inline void fn_sincos_octant_avx2_f64(__m256d f, __m256d *s, __m256d *c) {
    __m256d f2 = _mm256_mul_pd(f, f);
    __m256d ps = _mm256_set1_pd(fn_sin_octant_f64[0]);
    ps = _mm256_fmadd_pd(ps, f2, _mm256_set1_pd(fn_sin_octant_f64[1]));
    ps = _mm256_fmadd_pd(ps, f2, _mm256_set1_pd(fn_sin_octant_f64[2]));
    ps = _mm256_fmadd_pd(ps, f2, _mm256_set1_pd(fn_sin_octant_f64[3]));
    ps = _mm256_fmadd_pd(ps, f2, _mm256_set1_pd(fn_sin_octant_f64[4]));
    ps = _mm256_fmadd_pd(ps, f2, _mm256_set1_pd(fn_sin_octant_f64[5]));
    ps = _mm256_fmadd_pd(ps, f2, _mm256_set1_pd(fn_sin_octant_f64[6]));
    __m256d pc = _mm256_set1_pd(fn_cos_octant_f64[0]);
    pc = _mm256_fmadd_pd(pc, f2, _mm256_set1_pd(fn_cos_octant_f64[1]));
    pc = _mm256_fmadd_pd(pc, f2, _mm256_set1_pd(fn_cos_octant_f64[2]));
    pc = _mm256_fmadd_pd(pc, f2, _mm256_set1_pd(fn_cos_octant_f64[3]));
    pc = _mm256_fmadd_pd(pc, f2, _mm256_set1_pd(fn_cos_octant_f64[4]));
    pc = _mm256_fmadd_pd(pc, f2, _mm256_set1_pd(fn_cos_octant_f64[5]));
    *s = _mm256_mul_pd(f, ps);
    *c = _mm256_fmadd_pd(pc, f2, _mm256_set1_pd(1.0));
}

static inline void fn_sincos_octant_avx2_f32(__m256 f, __m256 *s, __m256 *c) {
    __m256 f2 = _mm256_mul_ps(f, f);
    __m256 ps = _mm256_set1_ps(fn_sin_octant_f32[0]);
    ps = _mm256_fmadd_ps(ps, f2, _mm256_set1_ps(fn_sin_octant_f32[1]));
    ps = _mm256_fmadd_ps(ps, f2, _mm256_set1_ps(fn_sin_octant_f32[2]));
    ps = _mm256_fmadd_ps(ps, f2, _mm256_set1_ps(fn_sin_octant_f32[3]));
    __m256 pc = _mm256_set1_ps(fn_cos_octant_f32[0]);
    pc = _mm256_fmadd_ps(pc, f2, _mm256_set1_ps(fn_cos_octant_f32[1]));
    pc = _mm256_fmadd_ps(pc, f2, _mm256_set1_ps(fn_cos_octant_f32[2]));
    *s = _mm256_mul_ps(f, ps);
    *c = _mm256_fmadd_ps(pc, f2, _mm256_set1_ps(1.0f));
}
#endif

#endif
