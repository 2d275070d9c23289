/* Batched IMU: see imu_batch.h. One nogil loop over the environments' hot states; the
 * per-sample arithmetic is imu.h's, so each environment's bits are a single model's. */
#include "imu_batch.h"

#include <math.h>
#if defined(_WIN32)
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>

#define SPAN ((size_t)FN_IMU_BATCH_SPAN)
#define ZN ((size_t)FN_IMU_BATCH_Z)

/* Where sample j of env e's span starts in the cache (in elements). */
static inline size_t zat(size_t e, size_t j) {
    return (e * SPAN + j) * ZN;
}

/* The hot states on cache-line boundaries (a shared-row step reads 3 whole lines). */
static fn_imu_hot *hot_alloc(size_t n) {
#if defined(_WIN32)
    return _aligned_malloc(n * sizeof(fn_imu_hot), 64);
#else
    return aligned_alloc(64, n * sizeof(fn_imu_hot)); /* 384 n: a multiple of 64 */
#endif
}

static void hot_free(fn_imu_hot *p) {
#if defined(_WIN32)
    _aligned_free(p);
#else
    free(p);
#endif
}

int fn_imu_batch_alloc(fn_imu_batch *b, size_t n) {
    memset(b, 0, sizeof *b);
    if (n == 0 || n > SIZE_MAX / (SPAN * ZN * sizeof(double))) return -1;
    b->env = malloc(n * sizeof *b->env);
    b->hot = hot_alloc(n);
    b->z = malloc(n * SPAN * ZN * sizeof *b->z);
    b->gate = malloc(n * sizeof *b->gate);
    b->cold = malloc(n * sizeof *b->cold);
    if (!b->env || !b->hot || !b->z || !b->gate || !b->cold) {
        fn_imu_batch_free(b);
        return -1;
    }
    b->n = n;
    for (size_t e = 0; e < n; e++) {
        fn_imu_blank(&b->env[e]);
        fn_imu_batch_push(b, e);
    }
    return 0;
}

void fn_imu_batch_free(fn_imu_batch *b) {
    free(b->env);
    hot_free(b->hot);
    free(b->z);
    free(b->gate);
    free(b->cold);
    memset(b, 0, sizeof *b);
}

/* The hot coefficients from env e's fn_imu cache (field by field over the axes). */
static void take_coefs(fn_imu_batch *b, size_t e) {
    const fn_imu *m = &b->env[e];
    fn_imu_hot *h = &b->hot[e];
    fn_imu_cold *k = &b->cold[e];
    int plain = 1;
    for (int a = 0; a < FN_IMU_AXES; a++) {
        const fn_imu_coefs *c = &m->c[a];
        h->offset[a] = c->offset;
        h->white[a] = c->white;
        h->alpha[a] = c->alpha;
        h->gm_drive[a] = c->gm_drive;
        h->rw_step[a] = c->rw_step;
        k->full_scale[a] = c->full_scale;
        k->lsb[a] = c->lsb;
        k->inv_lsb[a] = c->inv_lsb;
        plain = plain && c->full_scale == INFINITY && !(c->lsb > 0.0);
    }
    h->plain = plain;
    b->shared_known = 0; /* the shared row is found again before its next use */
    b->clear = 0;
}

void fn_imu_batch_push(fn_imu_batch *b, size_t e) {
    const fn_imu *m = &b->env[e];
    fn_imu_hot *h = &b->hot[e];
    take_coefs(b, e);
    memcpy(h->gm, m->gm, sizeof h->gm);
    memcpy(h->rw, m->rw, sizeof h->rw);
    h->count = m->count;
    h->room = m->room;
    b->gate[e].coef_dt = m->coef_dt;
    b->gate[e].max_input = m->max_input;
    b->gate[e].ok = 0; /* checked in full at the next step */
    h->linear = m->lin_on[0] || m->lin_on[1] || m->gsens_on;
    h->f32 = m->normal_dtype == FN_FLOAT32;
    h->key = m->key;
    h->on = 0;
    for (int a = 0; a < FN_IMU_AXES; a++)
        for (int t = 0; t < FN_IMU_TERMS; t++)
            if (m->on[a][t]) h->on |= 1u << (FN_IMU_AXES * t + a);
    h->zspan = UINT64_MAX;
    b->clear = 0;
}

void fn_imu_batch_pull(fn_imu_batch *b, size_t e) {
    fn_imu *m = &b->env[e];
    const fn_imu_hot *h = &b->hot[e]; /* (its coefficients are m->c's copy) */
    memcpy(m->gm, h->gm, sizeof m->gm);
    memcpy(m->rw, h->rw, sizeof m->rw);
    m->count = h->count;
    m->room = h->room;
    m->coef_dt = b->gate[e].coef_dt;
    /* the env's own streams stay at their start (imu_batch.h): not a single model's
     * aligned state, whatever fn_imu_step_cached would assume */
    m->clear = 0;
    m->aligned = 0;
}

void fn_imu_batch_reset(fn_imu_batch *b, size_t e) {
    fn_imu_reset(&b->env[e]);
    fn_imu_batch_push(b, e);
}

/* Env e's coefficients for step dt (through its fn_imu, which holds the parameters
 * and turn-on biases: fn_imu_set_dt, so the bits are a single model's). */
static void set_dt(fn_imu_batch *b, size_t e, double dt) {
    fn_imu *m = &b->env[e];
    fn_imu_set_dt(m, dt);
    take_coefs(b, e);
    b->gate[e].coef_dt = dt;
    b->gate[e].ok = 0;
}

/* The unit normals of span s of env e's streams into the cache, as
 * fn_stream_next_unit returns them (the bulk fill's bits with mean 0 and stddev 1),
 * zeros for terms that are off: one kernel call straight into the cache's layout
 * (imu_batch_fill_kern.c). Float32 normals are kept as floats (the step widens them
 * exactly, as fn_stream_next_unit does). */
void fn_imu_batch_fill_span(fn_imu_batch *b, size_t e, uint64_t s) {
    fn_imu_hot *h = &b->hot[e];
    size_t at = zat(e, 0);
    if (h->f32)
        FN_DISPATCH(fn_imu_batch_fill_f32, (h->key, h->on, s, (float *)b->z + at));
    else
        FN_DISPATCH(fn_imu_batch_fill_f64, (h->key, h->on, s, b->z + at));
    h->zspan = s;
}

/* The checks of fn_imu_step_checked for one sample at the current coefficients (the
 * batch keeps every stream position at the count, so the count's room is the only
 * counter to check). */
static int check_one(const fn_imu_hot *h, size_t *where) {
    if (h->room < 1) return FN_IMU_ERR_COUNT;
    for (int a = 0; a < FN_IMU_AXES; a++) {
        *where = (size_t)a;
        if (!(h->white[a] <= FN_IMU_TERM_MAX)) return FN_IMU_ERR_WHITE;
        if (!(fabs(h->gm[a]) + FN_IMU_Z_MAX * h->gm_drive[a] <= FN_IMU_TERM_MAX))
            return FN_IMU_ERR_GM;
        if (!(fabs(h->rw[a]) + FN_IMU_Z_MAX * h->rw_step[a] <= FN_IMU_TERM_MAX))
            return FN_IMU_ERR_RW;
    }
    return FN_IMU_OK;
}

/* check_one's verdict alone, branch-free over the axes (it vectorizes). */
static inline int checks_pass(const fn_imu_hot *h) {
    int bad = h->room < 1;
    for (int a = 0; a < FN_IMU_AXES; a++)
        bad |= !(h->white[a] <= FN_IMU_TERM_MAX) |
               !(fabs(h->gm[a]) + FN_IMU_Z_MAX * h->gm_drive[a] <= FN_IMU_TERM_MAX) |
               !(fabs(h->rw[a]) + FN_IMU_Z_MAX * h->rw_step[a] <= FN_IMU_TERM_MAX);
    return !bad;
}

/* The first finite true value beyond max_input among w[0..n), then acc[0..n), as
 * imu.c's check. */
static int check_values(double max_input, const double *w, const double *acc, size_t n,
                        size_t *where) {
    for (size_t i = 0; i < n; i++) {
        double x = fabs(w[i]);
        if (x > max_input && x != INFINITY) {
            *where = i;
            return FN_IMU_ERR_OMEGA;
        }
    }
    for (size_t i = 0; i < n; i++) {
        double x = fabs(acc[i]);
        if (x > max_input && x != INFINITY) {
            *where = i;
            return FN_IMU_ERR_ACCEL;
        }
    }
    return FN_IMU_OK;
}

/* A step of env e reads its hot state (a few cache lines) and its cached normals of
 * the sample; the steps walk the envs in order, but each touches too little for the
 * hardware to prefetch it in time, so a step asks for env e + PREFETCH's lines. */
#define PREFETCH 4
static inline void prefetch_env(const fn_imu_batch *b, size_t e, size_t j, int f32) {
#if defined(__GNUC__) || defined(__clang__)
    const char *h = (const char *)&b->hot[e];
    for (size_t o = 0; o < sizeof(fn_imu_hot); o += 64)
        __builtin_prefetch(h + o, 1);
    __builtin_prefetch(h + sizeof(fn_imu_hot) - 1, 1);
    /* sample j (the envs usually step in phase: the caller's own sample and dtype) */
    size_t size = f32 ? sizeof(float) : sizeof(double);
    const char *z = (const char *)b->z + zat(e, j) * size;
    __builtin_prefetch(z, 0);
    __builtin_prefetch(z + ZN * size - 1, 0);
#else
    (void)b, (void)e, (void)j, (void)f32;
#endif
}

/* One sample of env e (checked), at its current coefficients: fn_imu_step's
 * arithmetic on the cached normals (fn_imu_axis_sample's operations in its order, on
 * the six axes at once; no contraction, so the bits are the same). */
static inline void step_env(fn_imu_batch *b, size_t e, const double *w, const double *acc,
                            double *w_out, double *acc_out) {
    fn_imu_hot *h = &b->hot[e];
    uint64_t s = h->count / SPAN;
    if (h->zspan != s) fn_imu_batch_fill_span(b, e, s);
    size_t at = zat(e, (size_t)(h->count % SPAN));
    double z[FN_IMU_BATCH_Z], x[FN_IMU_AXES], y[FN_IMU_AXES];
    if (h->f32) {
        const float *zf = (const float *)b->z + at;
        for (size_t k = 0; k < ZN; k++)
            z[k] = (double)zf[k];
    } else {
        memcpy(z, b->z + at, sizeof z);
    }
    if (h->linear) {
        fn_imu_linear(&b->env[e], w, acc, x);
    } else {
        for (int i = 0; i < 3; i++) {
            x[i] = w[i];
            x[3 + i] = acc[i];
        }
    }
    const double *zw = z, *zg = z + FN_IMU_AXES, *zr = z + 2 * FN_IMU_AXES;
    for (int a = 0; a < FN_IMU_AXES; a++) {
        double g = fn_imu_gm_next(h->alpha[a], h->gm_drive[a], h->gm[a], zg[a]);
        double r = fn_imu_rw_next(h->rw_step[a], h->rw[a], zr[a]);
        h->gm[a] = g;
        h->rw[a] = r;
        double v = x[a] + h->offset[a];
        v = v + g;
        v = v + r;
        y[a] = v + h->white[a] * zw[a];
    }
    if (!h->plain) fn_imu_cold_finish(&b->cold[e], y);
    for (int i = 0; i < 3; i++) { /* after every read: an output may be its input */
        w_out[i] = y[i];
        acc_out[i] = y[3 + i];
    }
    h->count++;
    h->room--;
    b->gate[e].ok = checks_pass(h); /* the next step's checks */
}

/* The general path steps the envs one by one: the bound of shared-row steps no longer
 * holds, and after shared-row steps no gate's verdict does. */
static void forget_gates(fn_imu_batch *b) {
    b->clear = 0;
    if (!b->gates_stale) return;
    for (size_t e = 0; e < b->n; e++)
        b->gate[e].ok = 0;
    b->gates_stale = 0;
}

/* ---- the shared-row step ----------------------------------------------------------
 * When every environment has the same coefficients (same parameters, same step; only
 * the key, the turn-on offsets, the bias states and the counts differ), no linear step
 * and one normal dtype, a step reads the coefficients once (b->row) and of each env
 * only its counters, bias states, offsets and its cached normals of the sample. The
 * arithmetic is step_env's, operation for operation, so the bits are the same. */

/* Whether every env shares env 0's coefficients (b->row, taken from env 0). */
static void find_shared(fn_imu_batch *b) {
    const fn_imu_hot *h0 = &b->hot[0];
    fn_imu_row *r = &b->row;
    memcpy(r->white, h0->white, sizeof r->white);
    memcpy(r->alpha, h0->alpha, sizeof r->alpha);
    memcpy(r->gm_drive, h0->gm_drive, sizeof r->gm_drive);
    memcpy(r->rw_step, h0->rw_step, sizeof r->rw_step);
    r->cold = b->cold[0];
    r->coef_dt = b->gate[0].coef_dt;
    r->max_input = b->gate[0].max_input;
    r->f32 = h0->f32;
    r->plain = h0->plain;
    int shared = 1;
    for (size_t e = 0; e < b->n && shared; e++) {
        const fn_imu_hot *h = &b->hot[e];
        /* bitwise equality: -0 and +0, or two NaNs, count as different rows */
        shared = !h->linear && h->f32 == r->f32 && h->plain == r->plain &&
                 memcmp(h->white, r->white, sizeof r->white) == 0 &&
                 memcmp(h->alpha, r->alpha, sizeof r->alpha) == 0 &&
                 memcmp(h->gm_drive, r->gm_drive, sizeof r->gm_drive) == 0 &&
                 memcmp(h->rw_step, r->rw_step, sizeof r->rw_step) == 0 &&
                 (h->plain || memcmp(&b->cold[e], &r->cold, sizeof r->cold) == 0) &&
                 memcmp(&b->gate[e].coef_dt, &r->coef_dt, sizeof r->coef_dt) == 0 &&
                 memcmp(&b->gate[e].max_input, &r->max_input, sizeof r->max_input) == 0;
    }
    b->shared = shared;
    b->shared_known = 1;
}

/* The most steps (at most 2^20) for which every env's checks (check_one) are sure to
 * pass, 0 when one fails now. A step moves |gm| by at most Z_MAX gm_drive (alpha <= 1,
 * |z| < Z_MAX, the roundings add far less than the factor 2 kept below) and |rw| by
 * at most Z_MAX rw_step, so from the largest |gm| and |rw| over the envs, k more steps
 * pass while the state after them stays within TERM_MAX / 2; and each step uses one
 * unit of room. */
static uint64_t clear_steps(const fn_imu_batch *b) {
    const fn_imu_row *r = &b->row;
    double gmax[FN_IMU_AXES] = {0}, rmax[FN_IMU_AXES] = {0};
    uint64_t k = (uint64_t)1 << 20;
    for (int a = 0; a < FN_IMU_AXES; a++)
        if (!(r->white[a] <= FN_IMU_TERM_MAX) || !(r->alpha[a] <= 1.0)) return 0;
    for (size_t e = 0; e < b->n; e++) {
        const fn_imu_hot *h = &b->hot[e];
        if (!checks_pass(h)) return 0;
        if (h->room < k) k = h->room;
        for (int a = 0; a < FN_IMU_AXES; a++) {
            gmax[a] = fmax(gmax[a], fabs(h->gm[a]));
            rmax[a] = fmax(rmax[a], fabs(h->rw[a]));
        }
    }
    for (int a = 0; a < FN_IMU_AXES; a++) {
        const double lim = 0.5 * FN_IMU_TERM_MAX;
        const double d[2] = {FN_IMU_Z_MAX * r->gm_drive[a], FN_IMU_Z_MAX * r->rw_step[a]};
        const double m[2] = {gmax[a], rmax[a]};
        for (int i = 0; i < 2; i++) {
            if (!(m[i] <= lim)) return 0;
            if (d[i] > 0.0) {
                double steps = floor((lim - m[i]) / d[i]) - 1.0;
                if (!(steps >= 1.0)) return 0;
                if (steps < (double)k) k = (uint64_t)steps;
            }
        }
    }
    return k;
}

/* Any finite true value beyond max_input in v[0..n) (then the general path finds and
 * words it): imu.h's SIMD kernel. */
static int any_too_large(const double *v, size_t n, double max_input) {
    int bad = 0;
    FN_DISPATCH(fn_imu_any_too_large, (v, n, max_input, &bad));
    return bad;
}

/* Whether the shared-row step applies (one step dt for all, every env on the row, the
 * checks sure to pass, no true value out of range): 1 when it does, and the bound of
 * clear steps is then taken for it; 0 when the general path must run (nothing changed
 * then but the shared row's cache). */
static int shared_step_ok(fn_imu_batch *b, const double *omega, const double *accel,
                          double dt) {
    if (!b->shared_known) find_shared(b);
    if (!b->shared || dt != b->row.coef_dt) return 0;
    if (b->clear == 0 && (b->clear = clear_steps(b)) == 0) return 0;
    if (any_too_large(omega, 3 * b->n, b->row.max_input) ||
        any_too_large(accel, 3 * b->n, b->row.max_input))
        return 0;
    b->clear--;
    b->gates_stale = 1;
    return 1;
}

int fn_imu_batch_step_begin(fn_imu_batch *b, const double *omega, const double *accel,
                            const double *dt, size_t dt_stride, int *shared, size_t *env,
                            size_t *where) {
    *shared = dt_stride == 0 && shared_step_ok(b, omega, accel, dt[0]);
    if (*shared) return FN_IMU_OK;
    forget_gates(b);
    for (size_t e = 0; e < b->n; e++) {
        fn_imu_gate *g = &b->gate[e];
        double d = dt[e * dt_stride];
        if (d != g->coef_dt) set_dt(b, e, d);
        int rc = FN_IMU_OK;
        if (!g->ok) { /* else the last step found the bias states fine for this dt */
            rc = check_one(&b->hot[e], where);
            g->ok = rc == FN_IMU_OK;
        }
        if (rc == FN_IMU_OK)
            rc = check_values(g->max_input, omega + 3 * e, accel + 3 * e, 3, where);
        if (rc != FN_IMU_OK) {
            *env = e;
            return rc;
        }
    }
    return FN_IMU_OK;
}

void fn_imu_batch_step_range(fn_imu_batch *b, int shared, const double *omega,
                             const double *accel, double *omega_out, double *accel_out,
                             size_t start, size_t count) {
    size_t end = start + count;
    if (shared) {
        FN_DISPATCH(fn_imu_batch_shared_step,
                    (b, start, end, omega, accel, omega_out, accel_out));
        return;
    }
    for (size_t e = start; e < end; e++) {
        if (e + PREFETCH < end) /* not past the range: another thread may step it */
            prefetch_env(b, e + PREFETCH, (size_t)(b->hot[e].count % SPAN), b->hot[e].f32);
        step_env(b, e, omega + 3 * e, accel + 3 * e, omega_out + 3 * e, accel_out + 3 * e);
    }
}

int fn_imu_batch_step_checked(fn_imu_batch *b, const double *omega, const double *accel,
                              const double *dt, size_t dt_stride, double *omega_out,
                              double *accel_out, size_t *env, size_t *where) {
    int shared = 0;
    int rc = fn_imu_batch_step_begin(b, omega, accel, dt, dt_stride, &shared, env, where);
    if (rc == FN_IMU_OK)
        fn_imu_batch_step_range(b, shared, omega, accel, omega_out, accel_out, 0, b->n);
    return rc;
}

int fn_imu_batch_apply_checked(fn_imu_batch *b, size_t t, const double *omega,
                               const double *accel, const double *dt, size_t env_stride,
                               size_t time_stride, double *omega_out, double *accel_out,
                               size_t *env, size_t *where) {
    if (t == 0) return FN_IMU_OK;
    forget_gates(b);
    for (size_t e = 0; e < b->n; e++) {
        fn_imu_batch_pull(b, e); /* the bias states and count that the checks read */
        fn_imu *m = &b->env[e];
        int rc = fn_imu_check_steps(m, t, dt + e * env_stride, time_stride, where);
        if (rc == FN_IMU_OK)
            rc = check_values(m->max_input, omega + 3 * t * e, accel + 3 * t * e, 3 * t,
                              where);
        take_coefs(b, e); /* the checks may have moved the cache */
        b->gate[e].coef_dt = m->coef_dt;
        b->gate[e].ok = 0;
        if (rc != FN_IMU_OK) {
            *env = e;
            return rc;
        }
    }
    /* sample by sample, every env at each (the envs are independent) */
    for (size_t k = 0; k < t; k++)
        for (size_t e = 0; e < b->n; e++) {
            size_t o = 3 * (t * e + k);
            double d = dt[e * env_stride + k * time_stride];
            if (d != b->gate[e].coef_dt) set_dt(b, e, d);
            step_env(b, e, omega + o, accel + o, omega_out + o, accel_out + o);
        }
    return FN_IMU_OK;
}
