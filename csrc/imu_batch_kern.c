/* The shared-row step of a batched IMU (imu_batch.h), compiled once per SIMD target:
 * every environment on one coefficient row, so the row sits in registers and a step
 * reads of each environment only the first three lines of its hot state and its
 * cached normals of the sample. Each operation is step_env's (imu_batch.c) in its
 * order, no contraction, so every target writes a single model's bits. */
#include "imu_batch.h"

#include <string.h>

#define SPAN ((size_t)FN_IMU_BATCH_SPAN)
#define ZN ((size_t)FN_IMU_BATCH_Z)
#define PREFETCH 4 /* envs ahead whose lines a step asks for */

void FN_KERNEL(fn_imu_batch_shared_step)(fn_imu_batch *b, const double *omega,
                                         const double *accel, double *omega_out,
                                         double *accel_out) {
    const fn_imu_row *r = &b->row;
    double white[FN_IMU_AXES], alpha[FN_IMU_AXES], drive[FN_IMU_AXES], walk[FN_IMU_AXES];
    memcpy(white, r->white, sizeof white);
    memcpy(alpha, r->alpha, sizeof alpha);
    memcpy(drive, r->gm_drive, sizeof drive);
    memcpy(walk, r->rw_step, sizeof walk);
    const int f32 = r->f32, plain = r->plain;
    const size_t n = b->n, size = f32 ? sizeof(float) : sizeof(double);
    for (size_t e = 0; e < n; e++) {
        fn_imu_hot *h = &b->hot[e];
#if defined(__GNUC__) || defined(__clang__)
        if (e + PREFETCH < n) { /* env e + PREFETCH's three lines and its normals */
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
