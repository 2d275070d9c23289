/* The shared-row step of a batched IMU (imu_batch.h), compiled once per SIMD target:
 * every environment on one coefficient row, so the row sits in registers and a step
 * reads of each environment only the first three lines of its hot state and its
 * cached normals of the sample. Each operation is step_env's (imu_batch.c) in its
 * order, no contraction, so every target writes a single model's bits. */
#include "imu_batch.h"

#include <stdint.h>
#include <string.h>

#define SPAN ((size_t)FN_IMU_BATCH_SPAN)
#define ZN ((size_t)FN_IMU_BATCH_Z)
#define PREFETCH 4 /* envs ahead whose lines a step asks for */

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

/* The plain shared-row step (no clamp, no quantization) written out for AVX2: the six
 * axes of an env as a vector of axes 0..3 (gyro x, y, z, accel x) and one of axes 4, 5,
 * each operation the loop's below (and step_env's) in its order, so the bits are the
 * same; and no stack round trip of the normals or the outputs. */
static void plain_step_avx2(fn_imu_batch *b, size_t start, size_t end, const double *omega,
                            const double *accel, double *omega_out, double *accel_out) {
    const fn_imu_row *r = &b->row;
    const __m256d alA = _mm256_loadu_pd(r->alpha), drA = _mm256_loadu_pd(r->gm_drive);
    const __m256d wkA = _mm256_loadu_pd(r->rw_step), whA = _mm256_loadu_pd(r->white);
    const __m128d alB = _mm_loadu_pd(r->alpha + 4), drB = _mm_loadu_pd(r->gm_drive + 4);
    const __m128d wkB = _mm_loadu_pd(r->rw_step + 4), whB = _mm_loadu_pd(r->white + 4);
    const __m256i first3 = _mm256_setr_epi64x(-1, -1, -1, 0);
    const int f32 = r->f32;
    const size_t size = f32 ? sizeof(float) : sizeof(double);
    for (size_t e = start; e < end; e++) {
        fn_imu_hot *h = &b->hot[e];
        const uint64_t count = h->count;
        const size_t at = (e * SPAN + count % SPAN) * ZN;
        /* env e + PREFETCH's three lines, and its normals at env e's phase (the envs
         * usually step in phase): fixed distances from env e's, so no address is
         * read; integer arithmetic, as the lines may lie past the arrays (a prefetch
         * never faults) */
        const uintptr_t ph = (uintptr_t)h + PREFETCH * sizeof(fn_imu_hot);
        const uintptr_t pz = (uintptr_t)b->z + (at + PREFETCH * SPAN * ZN) * size;
        _mm_prefetch((const char *)ph, _MM_HINT_T0);
        _mm_prefetch((const char *)(ph + 64), _MM_HINT_T0);
        _mm_prefetch((const char *)(ph + 128), _MM_HINT_T0);
        _mm_prefetch((const char *)pz, _MM_HINT_T0);
        _mm_prefetch((const char *)(pz + ZN * size - 1), _MM_HINT_T0);
        if (h->zspan != count / SPAN) fn_imu_batch_fill_span(b, e, count / SPAN);
        __m256d zwA, zgA, zrA;
        __m128d zwB, zgB, zrB;
        if (f32) {
            const float *z = (const float *)b->z + at;
            term_f32(z, &zwA, &zwB);
            term_f32(z + FN_IMU_AXES, &zgA, &zgB);
            term_f32(z + 2 * FN_IMU_AXES, &zrA, &zrB);
        } else {
            const double *z = b->z + at;
            term_f64(z, &zwA, &zwB);
            term_f64(z + FN_IMU_AXES, &zgA, &zgB);
            term_f64(z + 2 * FN_IMU_AXES, &zrA, &zrB);
        }
        const double *w = omega + 3 * e, *acc = accel + 3 * e;
        const __m256d xA =
            _mm256_blend_pd(_mm256_maskload_pd(w, first3), _mm256_broadcast_sd(acc), 0x8);
        const __m128d xB = _mm_loadu_pd(acc + 1);
        /* fn_imu_gm_next, fn_imu_rw_next */
        const __m256d gA = _mm256_add_pd(_mm256_mul_pd(alA, _mm256_loadu_pd(h->gm)),
                                         _mm256_mul_pd(drA, zgA));
        const __m128d gB =
            _mm_add_pd(_mm_mul_pd(alB, _mm_loadu_pd(h->gm + 4)), _mm_mul_pd(drB, zgB));
        const __m256d qA = _mm256_add_pd(_mm256_loadu_pd(h->rw), _mm256_mul_pd(wkA, zrA));
        const __m128d qB = _mm_add_pd(_mm_loadu_pd(h->rw + 4), _mm_mul_pd(wkB, zrB));
        _mm256_storeu_pd(h->gm, gA);
        _mm_storeu_pd(h->gm + 4, gB);
        _mm256_storeu_pd(h->rw, qA);
        _mm_storeu_pd(h->rw + 4, qB);
        __m256d yA = _mm256_add_pd(xA, _mm256_loadu_pd(h->offset));
        yA = _mm256_add_pd(yA, gA);
        yA = _mm256_add_pd(yA, qA);
        yA = _mm256_add_pd(yA, _mm256_mul_pd(whA, zwA));
        __m128d yB = _mm_add_pd(xB, _mm_loadu_pd(h->offset + 4));
        yB = _mm_add_pd(yB, gB);
        yB = _mm_add_pd(yB, qB);
        yB = _mm_add_pd(yB, _mm_mul_pd(whB, zwB));
        /* after every read: an output may be its input */
        double *wo = omega_out + 3 * e, *ao = accel_out + 3 * e;
        const __m128d hiA = _mm256_extractf128_pd(yA, 1);
        _mm_storeu_pd(wo, _mm256_castpd256_pd128(yA));
        _mm_store_sd(wo + 2, hiA);
        _mm_storeh_pd(ao, hiA);
        _mm_storeu_pd(ao + 1, yB);
        h->count = count + 1;
        h->room--;
    }
}
#endif

void FN_KERNEL(fn_imu_batch_shared_step)(fn_imu_batch *b, size_t start, size_t end,
                                         const double *omega, const double *accel,
                                         double *omega_out, double *accel_out) {
#if defined(__AVX2__)
    if (b->row.plain) {
        plain_step_avx2(b, start, end, omega, accel, omega_out, accel_out);
        return;
    }
#endif
    const fn_imu_row *r = &b->row;
    double white[FN_IMU_AXES], alpha[FN_IMU_AXES], drive[FN_IMU_AXES], walk[FN_IMU_AXES];
    memcpy(white, r->white, sizeof white);
    memcpy(alpha, r->alpha, sizeof alpha);
    memcpy(drive, r->gm_drive, sizeof drive);
    memcpy(walk, r->rw_step, sizeof walk);
    const int f32 = r->f32, plain = r->plain;
    const size_t size = f32 ? sizeof(float) : sizeof(double);
    for (size_t e = start; e < end; e++) {
        fn_imu_hot *h = &b->hot[e];
#if defined(__GNUC__) || defined(__clang__)
        if (e + PREFETCH < end) { /* env e + PREFETCH's lines and normals (in range: it
                                   * reads that env's count, which no other part steps) */
            const fn_imu_hot *p = &b->hot[e + PREFETCH];
            __builtin_prefetch(p, 1);
            __builtin_prefetch((const char *)p + 64, 1);
            __builtin_prefetch((const char *)p + 128, 1);
            const char *z =
                (const char *)b->z + ((e + PREFETCH) * SPAN + p->count % SPAN) * ZN * size;
            __builtin_prefetch(z, 0);
            __builtin_prefetch(z + ZN * size - 1, 0);
        }
#endif
        uint64_t s = h->count / SPAN;
        if (h->zspan != s) fn_imu_batch_fill_span(b, e, s);
        size_t at = (e * SPAN + h->count % SPAN) * ZN;
        double z[FN_IMU_BATCH_Z], x[FN_IMU_AXES], y[FN_IMU_AXES];
        if (f32) { /* float32 normals widen exactly, as fn_stream_next_unit does */
            const float *zf = (const float *)b->z + at;
            for (size_t k = 0; k < ZN; k++)
                z[k] = (double)zf[k];
        } else {
            memcpy(z, b->z + at, sizeof z);
        }
        const double *w = omega + 3 * e, *acc = accel + 3 * e;
        for (int i = 0; i < 3; i++) {
            x[i] = w[i];
            x[3 + i] = acc[i];
        }
        const double *zw = z, *zg = z + FN_IMU_AXES, *zr = z + 2 * FN_IMU_AXES;
        for (int a = 0; a < FN_IMU_AXES; a++) {
            double g = fn_imu_gm_next(alpha[a], drive[a], h->gm[a], zg[a]);
            double q = fn_imu_rw_next(walk[a], h->rw[a], zr[a]);
            h->gm[a] = g;
            h->rw[a] = q;
            double v = x[a] + h->offset[a];
            v = v + g;
            v = v + q;
            y[a] = v + white[a] * zw[a];
        }
        if (!plain) fn_imu_cold_finish(&r->cold, y);
        double *wo = omega_out + 3 * e, *ao = accel_out + 3 * e;
        for (int i = 0; i < 3; i++) { /* after every read: an output may be its input */
            wo[i] = y[i];
            ao[i] = y[3 + i];
        }
        h->count++;
        h->room--;
    }
}
