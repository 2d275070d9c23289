/* The sample of a plain single IMU (imu.h: no linear step, saturation or
 * quantization) for fn_imu_step_cached, compiled once per SIMD target: the six axes
 * side by side, one array per coefficient (m->rows), so each line below is one or two
 * vector operations. The operations are fn_imu_axis_sample's in its order (no
 * contraction), so every target writes fn_imu_step's bits. */
#include "imu.h"

#define AX FN_IMU_AXES

#if defined(__AVX2__)
#include <immintrin.h>

/* The six normals of one term at zt: axes 0..3 and axes 4, 5 (floats widen exactly). */
static inline void term_f32(const float *zt, __m256d *lo, __m128d *hi) {
    *lo = _mm256_cvtps_pd(_mm_loadu_ps(zt));
    *hi = _mm_cvtps_pd(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(zt + 4))));
}

static inline void term_f64(const double *zt, __m256d *lo, __m128d *hi) {
    *lo = _mm256_loadu_pd(zt);
    *hi = _mm_loadu_pd(zt + 4);
}

/* The loop below written out for AVX2: axes 0..3 (gyro x, y, z, accel x) in one
 * vector, axes 4, 5 in another, each operation the loop's in its order. */
static void step_avx2(fn_imu *m, const float *zf, const double *zd, const double *omega,
                      const double *accel, double *omega_out, double *accel_out, int *bad) {
    const __m256i first3 = _mm256_setr_epi64x(-1, -1, -1, 0);
    const __m256d xA =
        _mm256_blend_pd(_mm256_maskload_pd(omega, first3), _mm256_broadcast_sd(accel), 0x8);
    const __m128d xB = _mm_loadu_pd(accel + 1);
    /* check_inputs' test: a finite value beyond max_input */
    const __m256d absA = _mm256_set1_pd(-0.0), limA = _mm256_set1_pd(m->max_input);
    const __m256d infA = _mm256_set1_pd(INFINITY);
    const __m256d vA = _mm256_andnot_pd(absA, xA);
    const __m128d vB = _mm_andnot_pd(_mm256_castpd256_pd128(absA), xB);
    const __m256d oA = _mm256_and_pd(_mm256_cmp_pd(vA, limA, _CMP_GT_OQ),
                                     _mm256_cmp_pd(vA, infA, _CMP_LT_OQ));
    const __m128d oB = _mm_and_pd(_mm_cmp_pd(vB, _mm256_castpd256_pd128(limA), _CMP_GT_OQ),
                                  _mm_cmp_pd(vB, _mm256_castpd256_pd128(infA), _CMP_LT_OQ));
    *bad = (_mm256_movemask_pd(oA) | _mm_movemask_pd(oB)) != 0;
    if (*bad) return;
    __m256d zwA, zgA, zrA;
    __m128d zwB, zgB, zrB;
    if (zf) {
        term_f32(zf, &zwA, &zwB);
        term_f32(zf + AX, &zgA, &zgB);
        term_f32(zf + 2 * AX, &zrA, &zrB);
    } else {
        term_f64(zd, &zwA, &zwB);
        term_f64(zd + AX, &zgA, &zgB);
        term_f64(zd + 2 * AX, &zrA, &zrB);
    }
    /* fn_imu_gm_next, fn_imu_rw_next */
    const __m256d gA =
        _mm256_add_pd(_mm256_mul_pd(_mm256_loadu_pd(m->rows.alpha), _mm256_loadu_pd(m->gm)),
                      _mm256_mul_pd(_mm256_loadu_pd(m->rows.gm_drive), zgA));
    const __m128d gB =
        _mm_add_pd(_mm_mul_pd(_mm_loadu_pd(m->rows.alpha + 4), _mm_loadu_pd(m->gm + 4)),
                   _mm_mul_pd(_mm_loadu_pd(m->rows.gm_drive + 4), zgB));
    const __m256d qA = _mm256_add_pd(_mm256_loadu_pd(m->rw),
                                     _mm256_mul_pd(_mm256_loadu_pd(m->rows.rw_step), zrA));
    const __m128d qB = _mm_add_pd(_mm_loadu_pd(m->rw + 4),
                                  _mm_mul_pd(_mm_loadu_pd(m->rows.rw_step + 4), zrB));
    _mm256_storeu_pd(m->gm, gA);
    _mm_storeu_pd(m->gm + 4, gB);
    _mm256_storeu_pd(m->rw, qA);
    _mm_storeu_pd(m->rw + 4, qB);
    __m256d yA = _mm256_add_pd(xA, _mm256_loadu_pd(m->rows.offset));
    yA = _mm256_add_pd(yA, gA);
    yA = _mm256_add_pd(yA, qA);
    yA = _mm256_add_pd(yA, _mm256_mul_pd(_mm256_loadu_pd(m->rows.white), zwA));
    __m128d yB = _mm_add_pd(xB, _mm_loadu_pd(m->rows.offset + 4));
    yB = _mm_add_pd(yB, gB);
    yB = _mm_add_pd(yB, qB);
    yB = _mm_add_pd(yB, _mm_mul_pd(_mm_loadu_pd(m->rows.white + 4), zwB));
    /* after every read: an output may be an input */
    const __m128d hiA = _mm256_extractf128_pd(yA, 1);
    _mm_storeu_pd(omega_out, _mm256_castpd256_pd128(yA));
    _mm_store_sd(omega_out + 2, hiA);
    _mm_storeh_pd(accel_out, hiA);
    _mm_storeu_pd(accel_out + 1, yB);
}
#endif

void FN_KERNEL(fn_imu_step_plain)(fn_imu *m, const float *zf, const double *zd,
                                  const double *omega, const double *accel,
                                  double *omega_out, double *accel_out, int *bad) {
#if defined(__AVX2__)
    step_avx2(m, zf, zd, omega, accel, omega_out, accel_out, bad);
#else
    double x[AX], z[3 * AX], y[AX];
    const double lim = m->max_input;
    int over = 0;
    for (int i = 0; i < 3; i++) {
        x[i] = omega[i];
        x[3 + i] = accel[i];
    }
    for (int a = 0; a < AX; a++) { /* check_inputs' test: finite and beyond max_input */
        double v = fabs(x[a]);
        over |= (v > lim) & (v < INFINITY);
    }
    *bad = over;
    if (over) return;
    if (zf)
        for (int k = 0; k < 3 * AX; k++)
            z[k] = (double)zf[k];
    else
        for (int k = 0; k < 3 * AX; k++)
            z[k] = zd[k];
    for (int a = 0; a < AX; a++) {
        double g =
            fn_imu_gm_next(m->rows.alpha[a], m->rows.gm_drive[a], m->gm[a], z[AX + a]);
        double r = fn_imu_rw_next(m->rows.rw_step[a], m->rw[a], z[2 * AX + a]);
        m->gm[a] = g;
        m->rw[a] = r;
        double v = x[a] + m->rows.offset[a];
        v = v + g;
        v = v + r;
        y[a] = v + m->rows.white[a] * z[a];
    }
    for (int i = 0; i < 3; i++) {
        omega_out[i] = y[i];
        accel_out[i] = y[3 + i];
    }
#endif
}
