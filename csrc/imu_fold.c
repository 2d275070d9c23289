/* The IMU's bias fold (fastnoise.dask.imu_noise): the Gauss-Markov and random-walk
 * recurrences alone over n samples, state in, state out, with the same arithmetic, order
 * and normals as fn_imu_apply (imu.c), so a fold over chunks followed by each chunk's
 * apply from its start state gives apply's bits. */
#include <string.h>

#include "imu.h"

/* The bias chains over len samples of a constant step, as the chunk kernels run them
 * (fn_imu_gm_next, fn_imu_rw_next on the same unit normals): the six (or twelve)
 * independent chains side by side, in registers, scalar (see imu_kern.c). */
#if defined(__GNUC__) && !defined(__clang__)
#define FOLD_CHAINS                                                                        \
    __attribute__((noinline, optimize("no-tree-slp-vectorize", "fp-contract=off")))
#else
#define FOLD_CHAINS
#endif

static FOLD_CHAINS void advance_chains(fn_imu *m, size_t len,
                                       const double (*z)[2][FN_IMU_CHUNK], int with_rw) {
    double gm[FN_IMU_AXES], rw[FN_IMU_AXES], al[FN_IMU_AXES], gd[FN_IMU_AXES],
        rs[FN_IMU_AXES];
    for (int a = 0; a < FN_IMU_AXES; a++) {
        gm[a] = m->gm[a];
        rw[a] = m->rw[a];
        al[a] = m->c[a].alpha;
        gd[a] = m->c[a].gm_drive;
        rs[a] = m->c[a].rw_step;
    }
    if (with_rw)
        for (size_t j = 0; j < len; j++)
            for (int a = 0; a < FN_IMU_AXES; a++) {
                gm[a] = fn_imu_gm_next(al[a], gd[a], gm[a], z[a][0][j]);
                rw[a] = fn_imu_rw_next(rs[a], rw[a], z[a][1][j]);
            }
    else
        for (size_t j = 0; j < len; j++)
            for (int a = 0; a < FN_IMU_AXES; a++)
                gm[a] = fn_imu_gm_next(al[a], gd[a], gm[a], z[a][0][j]);
    for (int a = 0; a < FN_IMU_AXES; a++) {
        m->gm[a] = gm[a];
        m->rw[a] = rw[a];
    }
}

void fn_imu_advance_biases(fn_imu *m, size_t n, const double *dt, size_t dt_stride) {
    /* unit normals of the Gauss-Markov (row 0) and random-walk (row 1) terms; rows of
     * terms that are off stay zeros, as in apply_impl */
    double buf[FN_IMU_AXES][2][FN_IMU_CHUNK];
    float fbuf[FN_IMU_CHUNK];
    int f32 = m->normal_dtype == FN_FLOAT32;
    static const int terms[2] = {FN_IMU_GM, FN_IMU_RW};

    if (n == 0) return;
    size_t rows = n < FN_IMU_CHUNK ? n : FN_IMU_CHUNK;
    for (int a = 0; a < FN_IMU_AXES; a++)
        for (int t = 0; t < 2; t++)
            if (!m->on[a][terms[t]]) memset(buf[a][t], 0, rows * sizeof(double));
    if (dt[0] != m->coef_dt) fn_imu_set_dt(m, dt[0]);
    for (size_t k0 = 0; k0 < n; k0 += FN_IMU_CHUNK) {
        size_t len = n - k0 < FN_IMU_CHUNK ? n - k0 : FN_IMU_CHUNK;
        for (int a = 0; a < FN_IMU_AXES; a++) {
            /* the white stream moves on as in apply, without its normals */
            if (m->on[a][FN_IMU_WHITE])
                fn_stream_take(&m->st[a][FN_IMU_WHITE], m->normal_dtype, len);
            for (int t = 0; t < 2; t++) {
                if (!m->on[a][terms[t]]) continue;
                fn_stream *s = &m->st[a][terms[t]];
                uint64_t first = fn_stream_take(s, m->normal_dtype, len);
                if (f32) { /* exact conversion, as the kernels' */
                    fn_normal_fill_f32(s->key, s->stream, first, len, 0.0f, 1.0f, fbuf);
                    for (size_t j = 0; j < len; j++)
                        buf[a][t][j] = (double)fbuf[j];
                } else {
                    fn_normal_fill_f64(s->key, s->stream, first, len, 0.0, 1.0, buf[a][t]);
                }
            }
        }
        if (dt_stride) { /* apply_varying_dt's order: the coefficients of each sample */
            for (size_t j = 0; j < len; j++) {
                double d = dt[(k0 + j) * dt_stride];
                if (d != m->coef_dt) fn_imu_set_dt(m, d);
                for (int a = 0; a < FN_IMU_AXES; a++)
                    fn_imu_advance(m->c[a].alpha, m->c[a].gm_drive, m->c[a].rw_step,
                                   &m->gm[a], &m->rw[a], buf[a][0][j], buf[a][1][j]);
            }
        } else {
            /* fn_imu_chunk leaves the walks alone when every one is off and +0 */
            int with_rw = 0;
            for (int a = 0; a < FN_IMU_AXES; a++)
                with_rw |= m->on[a][FN_IMU_RW] || fn_bits64(m->rw[a]) != 0;
            advance_chains(m, len, (const double (*)[2][FN_IMU_CHUNK])buf, with_rw);
        }
    }
    m->count += n;
    m->room -= n; /* the caller checked that there is room */
    m->clear = 0;
}

int fn_imu_advance_biases_checked(fn_imu *m, size_t n, const double *dt, size_t dt_stride,
                                  size_t *where) {
    if (n == 0) return FN_IMU_OK;
    int rc = fn_imu_check_steps(m, n, dt, dt_stride, where);
    if (rc == FN_IMU_OK) fn_imu_advance_biases(m, n, dt, dt_stride);
    return rc;
}
