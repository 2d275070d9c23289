/* IMU error model: see imu.h for the order of operations and the streams.
 *
 * fn_imu_step and fn_imu_apply share fn_imu_linear and fn_imu_axis_sample, and draw
 * normal k of each stream for sample k (step one at a time, apply in chunks with the
 * stateless fill), so n steps and one apply of n samples give the same bits.
 */
#include "imu.h"

#include <math.h>
#include <string.h>

#include "imu_batch.h" /* the refill kernel of a batch env's normals (fn_imu_step_cached) */

static uint64_t stream_id(int axis, int term) {
    return FN_IMU_STREAM_TAG | ((uint64_t)axis << 8) | (uint64_t)term;
}

static int is_identity(const double l[3][3]) {
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (l[i][j] != (i == j ? 1.0 : 0.0)) return 0;
    return 1;
}

void fn_imu_blank(fn_imu *m) {
    memset(m, 0, sizeof *m);
    for (int a = 0; a < FN_IMU_AXES; a++)
        m->p[a].full_scale = INFINITY;
    for (int i = 0; i < 3; i++) {
        m->lin[0][i][i] = 1.0;
        m->lin[1][i][i] = 1.0;
    }
    fn_imu_init(m);
}

void fn_imu_init(fn_imu *m) {
    m->lin_on[0] = !is_identity(m->lin[0]);
    m->lin_on[1] = !is_identity(m->lin[1]);
    m->gsens_on = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            if (m->gsens[i][j] != 0.0) m->gsens_on = 1;
    m->on_mask = 0;
    m->n_on = 0;
    m->plain = !m->lin_on[0] && !m->lin_on[1] && !m->gsens_on;
    for (int a = 0; a < FN_IMU_AXES; a++) {
        const fn_imu_axis_params *p = &m->p[a];
        m->on[a][FN_IMU_WHITE] = p->noise_stddev > 0.0 || p->noise_density > 0.0;
        m->on[a][FN_IMU_GM] = p->gm_tau > 0.0 && p->gm_stddev > 0.0;
        m->on[a][FN_IMU_RW] = p->rw_density > 0.0;
        for (int t = 0; t < FN_IMU_TERMS; t++) {
            m->on_mask |= (uint32_t)(m->on[a][t] != 0) << (FN_IMU_AXES * t + a);
            if (m->on[a][t]) m->on_list[m->n_on++] = (unsigned char)(FN_IMU_TERMS * a + t);
        }
        /* fn_imu_axis_sample's clamp to +-inf and its quantization switch change
         * nothing then */
        m->plain &= p->full_scale == INFINITY && !(p->lsb > 0.0);
    }
    /* |x_i| <= (row sum of |C| and |G|) * max |true value| */
    double rows = 1.0;
    for (int i = 0; i < 3; i++) {
        double g = 0.0, acc = 0.0;
        for (int j = 0; j < 3; j++) {
            g += fabs(m->lin[0][i][j]) + fabs(m->gsens[i][j]);
            acc += fabs(m->lin[1][i][j]);
        }
        rows = g > rows ? g : rows;
        rows = acc > rows ? acc : rows;
    }
    m->max_input = FN_IMU_TERM_MAX / rows;
    fn_imu_reset(m);
}

void fn_imu_reset(fn_imu *m) {
    for (int a = 0; a < FN_IMU_AXES; a++) {
        const fn_imu_axis_params *p = &m->p[a];
        for (int t = 0; t < FN_IMU_TERMS; t++)
            fn_stream_init(&m->st[a][t], m->key, stream_id(a, t));
        double z[2];
        fn_normal_fill_f64(m->key, stream_id(a, FN_IMU_INIT), 0, 2, 0.0, 1.0, z);
        double tb = 0.0;
        if (p->turn_on_mean != 0.0 || p->turn_on_stddev != 0.0) {
            uint32_t w[4];
            tb = p->turn_on_mean + p->turn_on_stddev * z[0];
            fn_philox_block(m->key, stream_id(a, FN_IMU_SIGN), 0, w);
            if (w[0] >> 31) tb = -tb; /* probability exactly 1/2 */
        }
        m->turn_on[a] = tb;
        if (p->turn_on_in_gm)
            m->gm[a] = tb;
        else if (p->gm_steady_state && m->on[a][FN_IMU_GM])
            m->gm[a] = p->gm_stddev * z[1];
        else
            m->gm[a] = 0.0;
        m->rw[a] = 0.0;
    }
    m->count = 0;
    m->room = UINT64_MAX;
    m->coef_dt = 0.0; /* the offsets depend on the turn-on biases: recompute */
    m->clear = 0;
    m->aligned = 1;
}

void fn_imu_set_room(fn_imu *m) {
    uint64_t top = m->count;
    int aligned = 1;
    for (int a = 0; a < FN_IMU_AXES; a++)
        for (int t = 0; t < FN_IMU_TERMS; t++)
            if (m->on[a][t]) {
                uint64_t p = m->st[a][t].position;
                top = p > top ? p : top;
                aligned &= p == m->count;
            }
    m->room = UINT64_MAX - top;
    m->clear = 0; /* the state was set: its checks are unknown */
    m->aligned = aligned;
}

/* The coefficients of axis a for step dt. */
static void coefs_of(const fn_imu *m, int a, double dt, fn_imu_coefs *c) {
    const fn_imu_axis_params *p = &m->p[a];
    c->offset = p->bias + (p->turn_on_in_gm ? 0.0 : m->turn_on[a]);
    double var =
        p->noise_stddev * p->noise_stddev + p->noise_density * p->noise_density / dt;
    c->white = sqrt(var);
    if (!(var <= DBL_MAX)) {
        /* density^2 / dt overflows (a tiny dt): the scaled form, with t = N / sqrt(dt)
         * > 1e154 > stddev (<= 1e150), in correctly rounded operations only */
        double t = p->noise_density / sqrt(dt), r = p->noise_stddev / t;
        c->white = t * sqrt(1.0 + r * r);
    }
    if (p->gm_tau > 0.0) {
        double alpha = fn_exp_f64(-dt / p->gm_tau);
        c->alpha = alpha;
        /* (1 - a)(1 + a): 1 - a is exact for a in [1/2, 1], unlike 1 - a*a */
        c->gm_drive = p->gm_stddev * sqrt((1.0 - alpha) * (1.0 + alpha));
    } else {
        c->alpha = 1.0;
        c->gm_drive = 0.0;
    }
    c->rw_step = p->rw_density * sqrt(dt);
    c->full_scale = p->full_scale;
    c->lsb = p->lsb;
    c->inv_lsb = p->lsb > 0.0 && !p->round_away ? 1.0 / p->lsb : 0.0;
}

void fn_imu_set_dt(fn_imu *m, double dt) {
    for (int a = 0; a < FN_IMU_AXES; a++) {
        fn_imu_coefs *c = &m->c[a];
        coefs_of(m, a, dt, c);
        m->rows.offset[a] = c->offset;
        m->rows.white[a] = c->white;
        m->rows.alpha[a] = c->alpha;
        m->rows.gm_drive[a] = c->gm_drive;
        m->rows.rw_step[a] = c->rw_step;
    }
    m->coef_dt = dt;
    m->clear = 0; /* the bound was for the old coefficients */
}

/* The checks of n more samples whose coefficients lie between lo (the smallest step:
 * the largest white sigma) and hi (the largest step: the largest bias drives); every
 * coefficient is monotonic in dt. */
static int check_samples(const fn_imu *m, uint64_t n, const fn_imu_coefs *lo,
                         const fn_imu_coefs *hi, size_t *where) {
    if (n > m->room) { /* which counter, for the message */
        if (n > UINT64_MAX - m->count) return FN_IMU_ERR_COUNT;
        for (int a = 0; a < FN_IMU_AXES; a++)
            for (int t = 0; t < FN_IMU_TERMS; t++)
                if (m->on[a][t] && n > UINT64_MAX - m->st[a][t].position) {
                    *where = (size_t)(3 * a + t);
                    return FN_IMU_ERR_STREAM;
                }
    }
    double k = (double)n * FN_IMU_Z_MAX;
    for (int a = 0; a < FN_IMU_AXES; a++) {
        *where = (size_t)a;
        if (!(lo[a].white <= FN_IMU_TERM_MAX)) return FN_IMU_ERR_WHITE;
        if (!(fabs(m->gm[a]) + k * hi[a].gm_drive <= FN_IMU_TERM_MAX)) return FN_IMU_ERR_GM;
        if (!(fabs(m->rw[a]) + k * hi[a].rw_step <= FN_IMU_TERM_MAX)) return FN_IMU_ERR_RW;
    }
    return FN_IMU_OK;
}

/* Index of the first finite value of v[0..n) beyond max_input, or n: a vectorized
 * test of the whole, then a plain search only when it fails. */
static size_t first_too_large(const double *v, size_t n, double max_input) {
    int bad = 1; /* a few values (a step): the plain search right away */
    if (n >= 64) FN_DISPATCH(fn_imu_any_too_large, (v, n, max_input, &bad));
    if (bad)
        for (size_t i = 0; i < n; i++) {
            double x = fabs(v[i]);
            if (x > max_input && x != INFINITY) return i;
        }
    return n;
}

static int check_inputs(const fn_imu *m, size_t n, const double *omega, const double *accel,
                        size_t *where) {
    *where = first_too_large(omega, 3 * n, m->max_input);
    if (*where < 3 * n) return FN_IMU_ERR_OMEGA;
    *where = first_too_large(accel, 3 * n, m->max_input);
    if (*where < 3 * n) return FN_IMU_ERR_ACCEL;
    return FN_IMU_OK;
}

/* fn_stream_next_unit, with the normal read straight from the stream's cached group
 * when it holds the next one (every sample but one in FN_GROUP): the same value, as
 * fn_stream_next_unit widens it (0 + 1 * z: a -0 becomes +0). */
static inline double next_unit(fn_stream *s, int dtype) {
    uint64_t n = s->position;
    if (s->cache_ok && s->dtype == dtype && s->cache_group == n / FN_GROUP) {
        s->position = n + 1;
        if (dtype == FN_FLOAT32) return (double)(0.0f + 1.0f * s->c32[n % FN_GROUP]);
        return 0.0 + 1.0 * s->c64[n % FN_GROUP];
    }
    return fn_stream_next_unit(s, dtype);
}

void fn_imu_step(fn_imu *m, const double omega[3], const double accel[3], double dt,
                 double omega_out[3], double accel_out[3]) {
    if (dt != m->coef_dt) fn_imu_set_dt(m, dt);
    double x[FN_IMU_AXES], y[FN_IMU_AXES];
    fn_imu_linear(m, omega, accel, x);
    for (int a = 0; a < FN_IMU_AXES; a++) {
        double zw = m->on[a][FN_IMU_WHITE]
                        ? next_unit(&m->st[a][FN_IMU_WHITE], m->normal_dtype)
                        : 0.0;
        double zg =
            m->on[a][FN_IMU_GM] ? next_unit(&m->st[a][FN_IMU_GM], m->normal_dtype) : 0.0;
        double zr =
            m->on[a][FN_IMU_RW] ? next_unit(&m->st[a][FN_IMU_RW], m->normal_dtype) : 0.0;
        y[a] = fn_imu_axis_sample(&m->c[a], &m->gm[a], &m->rw[a], x[a], zw, zg, zr);
    }
    /* write after every read, so the outputs may alias the inputs */
    for (int i = 0; i < 3; i++) {
        omega_out[i] = y[i];
        accel_out[i] = y[3 + i];
    }
    m->count++;
    m->room--; /* the caller checked that there is room (fn_imu_step_checked) */
    m->clear -= m->clear != 0;
}

int fn_imu_step_checked(fn_imu *m, const double omega[3], const double accel[3], double dt,
                        double omega_out[3], double accel_out[3], size_t *where) {
    if (dt != m->coef_dt) fn_imu_set_dt(m, dt);
    int rc = check_samples(m, 1, m->c, m->c, where);
    if (rc == FN_IMU_OK) rc = check_inputs(m, 1, omega, accel, where);
    if (rc == FN_IMU_OK) fn_imu_step(m, omega, accel, dt, omega_out, accel_out);
    return rc;
}

void fn_imu_zcache_clear(fn_imu_zcache *zc) {
    memset(zc, 0, sizeof *zc);
    zc->group = UINT64_MAX;
}

/* The most steps (at most 2^20) at the current coefficients for which check_samples of
 * one sample is sure to pass, the current one included; 0 when it fails now. A step
 * moves |gm| by at most Z_MAX gm_drive (alpha <= 1) and |rw| by at most Z_MAX rw_step,
 * so k steps pass while the state after them stays within TERM_MAX / 2 (the roundings
 * add far less than that factor 2); each step uses one unit of room. imu_batch.c's
 * clear_steps, for one model. */
static uint64_t clear_steps(const fn_imu *m) {
    size_t where;
    uint64_t k = (uint64_t)1 << 20;
    if (check_samples(m, 1, m->c, m->c, &where) != FN_IMU_OK) return 0;
    if (m->room < k) k = m->room;
    const double lim = 0.5 * FN_IMU_TERM_MAX;
    for (int a = 0; a < FN_IMU_AXES; a++) {
        const fn_imu_coefs *c = &m->c[a];
        if (!(c->white <= FN_IMU_TERM_MAX) || !(c->alpha <= 1.0)) return 0;
        const double d[2] = {FN_IMU_Z_MAX * c->gm_drive, FN_IMU_Z_MAX * c->rw_step};
        const double s[2] = {fabs(m->gm[a]), fabs(m->rw[a])};
        for (int i = 0; i < 2; i++) {
            if (!(s[i] <= lim)) return 0;
            if (d[i] > 0.0) {
                double steps = floor((lim - s[i]) / d[i]) - 1.0;
                if (!(steps >= 1.0)) return 0;
                if (steps < (double)k) k = (uint64_t)steps;
            }
        }
    }
    return k;
}

int fn_imu_step_cached(fn_imu *m, fn_imu_zcache *zc, const double omega[3],
                       const double accel[3], double dt, double omega_out[3],
                       double accel_out[3], size_t *where) {
    if (dt != m->coef_dt) fn_imu_set_dt(m, dt);
    if (m->clear == 0) { /* the bound of clear steps, else this step's own checks */
        m->clear = clear_steps(m);
        if (m->clear == 0) {
            int rc = check_samples(m, 1, m->c, m->c, where);
            if (rc != FN_IMU_OK) return rc;
        }
    }
    if (!m->aligned) { /* streams set apart: fn_imu_step_checked's path from here */
        int rc = check_inputs(m, 1, omega, accel, where);
        if (rc == FN_IMU_OK) fn_imu_step(m, omega, accel, dt, omega_out, accel_out);
        return rc;
    }
    const uint64_t n = m->count, group = n / FN_GROUP;
    const int f32 = m->normal_dtype == FN_FLOAT32;
    if (zc->group != group || zc->key != m->key || zc->on != m->on_mask ||
        zc->dtype != m->normal_dtype) {
        if (f32)
            FN_DISPATCH(fn_imu_batch_fill_f32, (m->key, m->on_mask, group, zc->z.f));
        else
            FN_DISPATCH(fn_imu_batch_fill_f64, (m->key, m->on_mask, group, zc->z.d));
        zc->group = group;
        zc->key = m->key;
        zc->on = m->on_mask;
        zc->dtype = m->normal_dtype;
    }
    /* the sample's normals: [6 t + a] for term t of axis a (zero where off), the values
     * next_unit reads */
    const size_t at = (size_t)(n % FN_GROUP) * FN_IMU_ZSLOTS;
    if (m->plain) {
        int bad;
        FN_DISPATCH(fn_imu_step_plain,
                    (m, f32 ? zc->z.f + at : NULL, f32 ? NULL : zc->z.d + at, omega, accel,
                     omega_out, accel_out, &bad));
        if (bad) return check_inputs(m, 1, omega, accel, where);
    } else { /* fn_imu_step's sample, its normals from the cache */
        int rc = check_inputs(m, 1, omega, accel, where);
        if (rc != FN_IMU_OK) return rc;
        double z[FN_IMU_ZSLOTS], x[FN_IMU_AXES], y[FN_IMU_AXES];
        for (int k = 0; k < FN_IMU_ZSLOTS; k++) /* float32 normals widen exactly */
            z[k] = f32 ? (double)zc->z.f[at + k] : zc->z.d[at + k];
        fn_imu_linear(m, omega, accel, x);
        for (int a = 0; a < FN_IMU_AXES; a++)
            y[a] = fn_imu_axis_sample(&m->c[a], &m->gm[a], &m->rw[a], x[a], z[a],
                                      z[FN_IMU_AXES + a], z[2 * FN_IMU_AXES + a]);
        for (int i = 0; i < 3; i++) { /* after every read: outputs may alias inputs */
            omega_out[i] = y[i];
            accel_out[i] = y[3 + i];
        }
    }
    /* every drawing stream moves on by one, as next_unit moves it */
    fn_stream *st = &m->st[0][0];
    for (int i = 0; i < m->n_on; i++)
        st[m->on_list[i]].position++;
    m->count = n + 1;
    m->room--;
    m->clear -= m->clear != 0;
    return FN_IMU_OK;
}

/* Per-sample path of apply, for a step that changes from sample to sample. */
static void apply_varying_dt(fn_imu *m, size_t k0, size_t len, const double *omega,
                             const double *accel, const double *dt, size_t dt_stride,
                             double *omega_out, double *accel_out,
                             const double *z[FN_IMU_AXES][FN_IMU_TERMS]) {
    for (size_t j = 0; j < len; j++) {
        size_t k = k0 + j;
        double d = dt[k * dt_stride];
        if (d != m->coef_dt) fn_imu_set_dt(m, d);
        double x[FN_IMU_AXES], y[FN_IMU_AXES];
        fn_imu_linear(m, omega + 3 * k, accel + 3 * k, x);
        for (int a = 0; a < FN_IMU_AXES; a++)
            y[a] = fn_imu_axis_sample(&m->c[a], &m->gm[a], &m->rw[a], x[a], z[a][0][j],
                                      z[a][1][j], z[a][2][j]);
        for (int i = 0; i < 3; i++) {
            omega_out[3 * k + i] = y[i];
            accel_out[3 * k + i] = y[3 + i];
        }
    }
}

/* Whether [p, p + n) and [q, q + n) share memory. */
static int overlap(const double *p, const double *q, size_t n) {
    return (uintptr_t)p < (uintptr_t)(q + n) && (uintptr_t)q < (uintptr_t)(p + n);
}

/* fn_imu_apply; with scan, each chunk's true values are checked (check_inputs) just
 * before the chunk is computed, where they are in the cache: on a refusal the error
 * is returned part-way, and the caller restores the model it saved. */
static int apply_impl(fn_imu *m, size_t n, const double *omega, const double *accel,
                      const double *dt, size_t dt_stride, double *omega_out,
                      double *accel_out, int scan, size_t *where) {
    /* unit normals: row 3 a + t for term t of axis a; rows of terms that are off stay
     * zeros (the fills write only the rows of terms that are on) */
    double buf[FN_IMU_AXES][FN_IMU_TERMS][FN_IMU_CHUNK];
    float fbuf[FN_IMU_AXES][FN_IMU_TERMS][FN_IMU_CHUNK];
    const double *z[FN_IMU_AXES][FN_IMU_TERMS];
    int f32 = m->normal_dtype == FN_FLOAT32;

    if (n == 0) return FN_IMU_OK;
    size_t rows = n < FN_IMU_CHUNK ? n : FN_IMU_CHUNK; /* the length of the longest chunk */
    for (int a = 0; a < FN_IMU_AXES; a++)
        for (int t = 0; t < FN_IMU_TERMS; t++) {
            z[a][t] = buf[a][t];
            if (!m->on[a][t]) {
                memset(buf[a][t], 0, rows * sizeof(double));
                memset(fbuf[a][t], 0, rows * sizeof(float));
            }
        }
    /* An output may be its own triad's input (read and written value by value), but
     * one that overlaps anything else is written only after the chunk is read. */
    size_t nv = 3 * n;
    int buffered = overlap(omega_out, accel, nv) || overlap(accel_out, omega, nv) ||
                   overlap(omega_out, accel_out, nv) ||
                   (omega_out != omega && overlap(omega_out, omega, nv)) ||
                   (accel_out != accel && overlap(accel_out, accel, nv));
    if (dt[0] != m->coef_dt) fn_imu_set_dt(m, dt[0]);
    for (size_t k0 = 0; k0 < n; k0 += FN_IMU_CHUNK) {
        size_t len = n - k0 < FN_IMU_CHUNK ? n - k0 : FN_IMU_CHUNK;
        /* The normals take most of the time and touch only the stack: meanwhile,
         * bring the chunk's data into the cache, a share after each fill. */
        const char *pf[4] = {(const char *)(omega + 3 * k0), (const char *)(accel + 3 * k0),
                             (const char *)(omega_out + 3 * k0),
                             (const char *)(accel_out + 3 * k0)};
        size_t bytes = 3 * len * sizeof(double), off = 0;
        size_t share = (bytes / (FN_IMU_AXES * FN_IMU_TERMS) + 63) / 64 * 64;
        for (int a = 0; a < FN_IMU_AXES; a++)
            for (int t = 0; t < FN_IMU_TERMS; t++, off += share) {
                for (size_t o = off; o < off + share && o < bytes; o += 64) {
                    __builtin_prefetch(pf[0] + o, 0);
                    __builtin_prefetch(pf[1] + o, 0);
                    __builtin_prefetch(pf[2] + o, 1);
                    __builtin_prefetch(pf[3] + o, 1);
                }
                if (m->on[a][t]) {
                    fn_stream *s = &m->st[a][t];
                    uint64_t first = fn_stream_take(s, m->normal_dtype, len);
                    if (f32)
                        fn_normal_fill_f32(s->key, s->stream, first, len, 0.0f, 1.0f,
                                           fbuf[a][t]);
                    else
                        fn_normal_fill_f64(s->key, s->stream, first, len, 0.0, 1.0,
                                           buf[a][t]);
                }
            }
        if (scan) {
            int rc = check_inputs(m, len, omega + 3 * k0, accel + 3 * k0, where);
            if (rc != FN_IMU_OK) {
                *where += 3 * k0;
                return rc;
            }
        }
        if (dt_stride) {
            if (f32) /* exact conversion, as fn_imu_step's */
                for (int a = 0; a < FN_IMU_AXES; a++)
                    for (int t = 0; t < FN_IMU_TERMS; t++)
                        for (size_t j = 0; j < len; j++)
                            buf[a][t][j] = (double)fbuf[a][t][j];
            apply_varying_dt(m, k0, len, omega, accel, dt, dt_stride, omega_out, accel_out,
                             z);
        } else {
            FN_DISPATCH(fn_imu_chunk, (m, k0, len, omega, accel, omega_out, accel_out,
                                       &buf[0][0][0], &fbuf[0][0][0], buffered));
        }
    }
    m->count += n;
    m->room -= n; /* the caller checked that there is room (fn_imu_apply_checked) */
    m->clear = 0;
    return FN_IMU_OK;
}

void fn_imu_apply(fn_imu *m, size_t n, const double *omega, const double *accel,
                  const double *dt, size_t dt_stride, double *omega_out,
                  double *accel_out) {
    size_t where;
    apply_impl(m, n, omega, accel, dt, dt_stride, omega_out, accel_out, 0, &where);
}

/* The checks of check_samples for n > 0 samples of steps dt[k * dt_stride] (also the
 * fold's, imu_fold.c). */
int fn_imu_check_steps(const fn_imu *m, size_t n, const double *dt, size_t dt_stride,
                       size_t *where) {
    double lo = dt[0], hi = dt[0];
    if (dt_stride)
        for (size_t k = 1; k < n; k++) {
            double d = dt[k * dt_stride];
            lo = d < lo ? d : lo;
            hi = d > hi ? d : hi;
        }
    fn_imu_coefs clo[FN_IMU_AXES], chi[FN_IMU_AXES];
    for (int a = 0; a < FN_IMU_AXES; a++) {
        coefs_of(m, a, lo, &clo[a]);
        coefs_of(m, a, hi, &chi[a]);
    }
    return check_samples(m, (uint64_t)n, clo, chi, where);
}

int fn_imu_apply_checked(fn_imu *m, size_t n, const double *omega, const double *accel,
                         const double *dt, size_t dt_stride, double *omega_out,
                         double *accel_out, size_t *where) {
    if (n == 0) return FN_IMU_OK;
    int rc = fn_imu_check_steps(m, n, dt, dt_stride, where);
    if (rc != FN_IMU_OK) return rc;
    /* The true values are checked before anything changes: all at once for short
     * calls and where an output is an input (in place: a refusal part-way would have
     * overwritten it); otherwise chunk by chunk, where they are in the cache anyway,
     * with the model saved first and restored on a refusal (the outputs then hold
     * partial results). */
    size_t nv = 3 * n;
    if (n < FN_IMU_CHUNK || overlap(omega_out, omega, nv) ||
        overlap(omega_out, accel, nv) || overlap(accel_out, omega, nv) ||
        overlap(accel_out, accel, nv)) {
        rc = check_inputs(m, n, omega, accel, where);
        if (rc == FN_IMU_OK)
            fn_imu_apply(m, n, omega, accel, dt, dt_stride, omega_out, accel_out);
        return rc;
    }
    fn_imu saved = *m;
    rc = apply_impl(m, n, omega, accel, dt, dt_stride, omega_out, accel_out, 1, where);
    if (rc != FN_IMU_OK) *m = saved;
    return rc;
}
