/* Batched IMU: see imu_batch.h. One nogil loop over the environments' models; the
 * per-sample arithmetic is imu.h's, so each environment's bits are a single model's. */
#include "imu_batch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ZSTRIDE ((size_t)FN_GROUP * FN_IMU_BATCH_Z) /* cached normals per env */

static uint64_t stream_id(int axis, int term) {
    return FN_IMU_STREAM_TAG | ((uint64_t)axis << 8) | (uint64_t)term;
}

int fn_imu_batch_alloc(fn_imu_batch *b, size_t n) {
    memset(b, 0, sizeof *b);
    if (n == 0 || n > SIZE_MAX / (ZSTRIDE * sizeof(double))) return -1;
    b->env = malloc(n * sizeof *b->env);
    b->z = malloc(n * ZSTRIDE * sizeof *b->z);
    b->zgroup = malloc(n * sizeof *b->zgroup);
    if (!b->env || !b->z || !b->zgroup) {
        fn_imu_batch_free(b);
        return -1;
    }
    b->n = n;
    for (size_t e = 0; e < n; e++) {
        fn_imu_blank(&b->env[e]);
        b->zgroup[e] = UINT64_MAX;
    }
    return 0;
}

void fn_imu_batch_free(fn_imu_batch *b) {
    free(b->env);
    free(b->z);
    free(b->zgroup);
    memset(b, 0, sizeof *b);
}

void fn_imu_batch_reset(fn_imu_batch *b, size_t e) {
    fn_imu_reset(&b->env[e]);
    b->zgroup[e] = UINT64_MAX;
}

void fn_imu_batch_forget(fn_imu_batch *b, size_t e) {
    b->zgroup[e] = UINT64_MAX;
}

/* The unit normals of group g of env e's streams into its cache, as fn_stream_next_unit
 * returns them (0 + 1 * z: a -0 becomes +0); zeros for terms that are off. */
static void fill_group(fn_imu *m, uint64_t g, double *z) {
    for (int a = 0; a < FN_IMU_AXES; a++)
        for (int t = 0; t < FN_IMU_TERMS; t++) {
            double *col = z + 3 * a + t;
            if (!m->on[a][t]) {
                for (int j = 0; j < FN_GROUP; j++)
                    col[(size_t)j * FN_IMU_BATCH_Z] = 0.0;
            } else if (m->normal_dtype == FN_FLOAT32) {
                float v[FN_GROUP];
                fn_group_normals_f32(m->key, stream_id(a, t), g, v);
                for (int j = 0; j < FN_GROUP; j++)
                    col[(size_t)j * FN_IMU_BATCH_Z] = (double)(0.0f + 1.0f * v[j]);
            } else {
                double v[FN_GROUP];
                fn_group_normals_f64(m->key, stream_id(a, t), g, v);
                for (int j = 0; j < FN_GROUP; j++)
                    col[(size_t)j * FN_IMU_BATCH_Z] = 0.0 + 1.0 * v[j];
            }
        }
}

/* The checks of fn_imu_step_checked for one sample at the current coefficients (the
 * batch keeps every stream position at the count, so the count's room is the only
 * counter to check). */
static int check_one(const fn_imu *m, size_t *where) {
    if (m->room < 1) return FN_IMU_ERR_COUNT;
    for (int a = 0; a < FN_IMU_AXES; a++) {
        *where = (size_t)a;
        if (!(m->c[a].white <= FN_IMU_TERM_MAX)) return FN_IMU_ERR_WHITE;
        if (!(fabs(m->gm[a]) + FN_IMU_Z_MAX * m->c[a].gm_drive <= FN_IMU_TERM_MAX))
            return FN_IMU_ERR_GM;
        if (!(fabs(m->rw[a]) + FN_IMU_Z_MAX * m->c[a].rw_step <= FN_IMU_TERM_MAX))
            return FN_IMU_ERR_RW;
    }
    return FN_IMU_OK;
}

/* The first finite true value beyond max_input among v[0..n), as imu.c's check. */
static int check_values(const fn_imu *m, const double *w, const double *acc, size_t n,
                        size_t *where) {
    for (size_t i = 0; i < n; i++) {
        double x = fabs(w[i]);
        if (x > m->max_input && x != INFINITY) {
            *where = i;
            return FN_IMU_ERR_OMEGA;
        }
    }
    for (size_t i = 0; i < n; i++) {
        double x = fabs(acc[i]);
        if (x > m->max_input && x != INFINITY) {
            *where = i;
            return FN_IMU_ERR_ACCEL;
        }
    }
    return FN_IMU_OK;
}

/* One sample of env e (checked), at step dt: fn_imu_step's arithmetic on the cache. */
static inline void step_env(fn_imu_batch *b, size_t e, const double *w, const double *acc,
                            double dt, double *w_out, double *acc_out) {
    fn_imu *m = &b->env[e];
    if (dt != m->coef_dt) fn_imu_set_dt(m, dt);
    uint64_t g = m->count / FN_GROUP;
    double *zc = b->z + e * ZSTRIDE;
    if (b->zgroup[e] != g) {
        fill_group(m, g, zc);
        b->zgroup[e] = g;
    }
    const double *z = zc + (size_t)(m->count % FN_GROUP) * FN_IMU_BATCH_Z;
    double x[FN_IMU_AXES], y[FN_IMU_AXES];
    fn_imu_linear(m, w, acc, x);
    for (int a = 0; a < FN_IMU_AXES; a++)
        y[a] = fn_imu_axis_sample(&m->c[a], &m->gm[a], &m->rw[a], x[a], z[3 * a],
                                  z[3 * a + 1], z[3 * a + 2]);
    for (int i = 0; i < 3; i++) { /* after every read: an output may be its input */
        w_out[i] = y[i];
        acc_out[i] = y[3 + i];
    }
    m->count++;
    m->room--;
}

int fn_imu_batch_step_checked(fn_imu_batch *b, const double *omega, const double *accel,
                              const double *dt, size_t dt_stride, double *omega_out,
                              double *accel_out, size_t *env, size_t *where) {
    for (size_t e = 0; e < b->n; e++) {
        fn_imu *m = &b->env[e];
        double d = dt[e * dt_stride];
        if (d != m->coef_dt) fn_imu_set_dt(m, d);
        int rc = check_one(m, where);
        if (rc == FN_IMU_OK) rc = check_values(m, omega + 3 * e, accel + 3 * e, 3, where);
        if (rc != FN_IMU_OK) {
            *env = e;
            return rc;
        }
    }
    for (size_t e = 0; e < b->n; e++)
        step_env(b, e, omega + 3 * e, accel + 3 * e, dt[e * dt_stride], omega_out + 3 * e,
                 accel_out + 3 * e);
    return FN_IMU_OK;
}

int fn_imu_batch_apply_checked(fn_imu_batch *b, size_t t, const double *omega,
                               const double *accel, const double *dt, size_t env_stride,
                               size_t time_stride, double *omega_out, double *accel_out,
                               size_t *env, size_t *where) {
    if (t == 0) return FN_IMU_OK;
    for (size_t e = 0; e < b->n; e++) {
        fn_imu *m = &b->env[e];
        int rc = fn_imu_check_steps(m, t, dt + e * env_stride, time_stride, where);
        if (rc == FN_IMU_OK)
            rc = check_values(m, omega + 3 * t * e, accel + 3 * t * e, 3 * t, where);
        if (rc != FN_IMU_OK) {
            *env = e;
            return rc;
        }
    }
    /* env by env (each env's samples in order; the envs are independent) */
    for (size_t e = 0; e < b->n; e++)
        for (size_t k = 0; k < t; k++) {
            size_t o = 3 * (t * e + k);
            step_env(b, e, omega + o, accel + o, dt[e * env_stride + k * time_stride],
                     omega_out + o, accel_out + o);
        }
    return FN_IMU_OK;
}
