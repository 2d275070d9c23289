/* The column pass of fn_imu_apply, compiled once per SIMD target. Each stage runs
 * over a chunk of samples so the compiler vectorizes it; the arithmetic is the
 * shared inline code of imu.h (no contraction), so every target writes the same
 * bits as fn_imu_step. */
#include "imu.h"

void FN_KERNEL(fn_imu_chunk)(fn_imu *m, size_t k0, size_t len, const double *omega,
                             const double *accel, double *omega_out, double *accel_out,
                             const double *z[FN_IMU_AXES][FN_IMU_TERMS]) {
    double x[FN_IMU_AXES][FN_IMU_CHUNK], g[FN_IMU_AXES][FN_IMU_CHUNK];
    double r[FN_IMU_AXES][FN_IMU_CHUNK], y[FN_IMU_AXES][FN_IMU_CHUNK];
    const double *w = omega + 3 * k0, *acc = accel + 3 * k0;

    /* step 1: true values, deinterleaved into one row per axis */
    if (!m->lin_on[0] && !m->lin_on[1] && !m->gsens_on) {
        for (size_t j = 0; j < len; j++)
            for (int i = 0; i < 3; i++) {
                x[i][j] = w[3 * j + i];
                x[3 + i][j] = acc[3 * j + i];
            }
    } else {
        for (size_t j = 0; j < len; j++) {
            double v[FN_IMU_AXES];
            fn_imu_linear(m, w + 3 * j, acc + 3 * j, v);
            for (int a = 0; a < FN_IMU_AXES; a++)
                x[a][j] = v[a];
        }
    }

    /* step 2: the bias recursions. The axes are independent chains: run the moving
     * ones side by side so their latencies overlap. A state that is +0 and draws no
     * normals stays +0 (alpha * 0 + c * 0 = +0 exactly), so its row is constant;
     * the Gauss-Markov and random-walk updates of fn_imu_advance are independent, so
     * they may run in separate loops. */
    int ng = 0, nr = 0, ig[FN_IMU_AXES], ir[FN_IMU_AXES];
    double gm[FN_IMU_AXES], rw[FN_IMU_AXES], al[FN_IMU_AXES], gd[FN_IMU_AXES],
        rs[FN_IMU_AXES];
    const double *zg[FN_IMU_AXES], *zr[FN_IMU_AXES];
    double *ga[FN_IMU_AXES], *ra[FN_IMU_AXES];
    for (int a = 0; a < FN_IMU_AXES; a++) {
        const fn_imu_coefs *c = &m->c[a];
        if (!m->on[a][FN_IMU_GM] && fn_bits64(m->gm[a]) == 0) {
            for (size_t j = 0; j < len; j++)
                g[a][j] = 0.0;
        } else {
            ig[ng] = a;
            gm[ng] = m->gm[a];
            al[ng] = c->alpha;
            gd[ng] = c->gm_drive;
            zg[ng] = z[a][FN_IMU_GM];
            ga[ng++] = g[a];
        }
        if (!m->on[a][FN_IMU_RW] && fn_bits64(m->rw[a]) == 0) {
            for (size_t j = 0; j < len; j++)
                r[a][j] = 0.0;
        } else {
            ir[nr] = a;
            rw[nr] = m->rw[a];
            rs[nr] = c->rw_step;
            zr[nr] = z[a][FN_IMU_RW];
            ra[nr++] = r[a];
        }
    }
    if (ng == FN_IMU_AXES) { /* the common case, with a constant trip count */
        for (size_t j = 0; j < len; j++)
            for (int k = 0; k < FN_IMU_AXES; k++)
                ga[k][j] = gm[k] = fn_imu_gm_next(al[k], gd[k], gm[k], zg[k][j]);
    } else {
        for (size_t j = 0; j < len; j++)
            for (int k = 0; k < ng; k++)
                ga[k][j] = gm[k] = fn_imu_gm_next(al[k], gd[k], gm[k], zg[k][j]);
    }
    for (size_t j = 0; j < len; j++)
        for (int k = 0; k < nr; k++)
            ra[k][j] = rw[k] = fn_imu_rw_next(rs[k], rw[k], zr[k][j]);
    for (int k = 0; k < ng; k++)
        m->gm[ig[k]] = gm[k];
    for (int k = 0; k < nr; k++)
        m->rw[ir[k]] = rw[k];

    /* steps 3-5 */
    for (int a = 0; a < FN_IMU_AXES; a++) {
        const fn_imu_coefs c = m->c[a];
        const double *zw = z[a][FN_IMU_WHITE], *xa = x[a], *ga = g[a], *ra = r[a];
        double *ya = y[a];
        if (c.lsb > 0.0) {
            for (size_t j = 0; j < len; j++)
                ya[j] = fn_imu_output(xa[j], ga[j], ra[j], zw[j], c.offset, c.white,
                                      c.full_scale, c.lsb, c.inv_lsb, 1);
        } else {
            for (size_t j = 0; j < len; j++)
                ya[j] = fn_imu_output(xa[j], ga[j], ra[j], zw[j], c.offset, c.white,
                                      c.full_scale, c.lsb, c.inv_lsb, 0);
        }
    }

    double *wo = omega_out + 3 * k0, *ao = accel_out + 3 * k0;
    for (size_t j = 0; j < len; j++)
        for (int i = 0; i < 3; i++) {
            wo[3 * j + i] = y[i][j];
            ao[3 * j + i] = y[3 + i][j];
        }
}
