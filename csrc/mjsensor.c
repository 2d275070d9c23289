/* MuJoCo sensor noise, one call per step for every sensor (see mjsensor.h). */
#include "mjsensor.h"

#include <math.h>

#include "normal.h"

static void quat_noise(double *q, const double *sd, const double *z) {
    double r0 = sd[0] * z[0], r1 = sd[1] * z[1], r2 = sd[2] * z[2];
    double angle = sqrt(r0 * r0 + r1 * r1 + r2 * r2);
    double w, f;
    if (angle < 1e-8) {
        w = 1.0 - angle * angle / 8.0;
        f = 0.5 - angle * angle / 48.0;
    } else {
        w = cos(0.5 * angle);
        f = sin(0.5 * angle) / angle;
    }
    double x = f * r0, y = f * r1, zz = f * r2;
    double a = q[0], b = q[1], c = q[2], d = q[3];
    double n0 = a * w - b * x - c * y - d * zz;
    double n1 = a * x + b * w + c * zz - d * y;
    double n2 = a * y - b * zz + c * w + d * x;
    double n3 = a * zz + b * y - c * x + d * w;
    double norm = sqrt(n0 * n0 + n1 * n1 + n2 * n2 + n3 * n3);
    if (!(norm > 0.0)) return; /* a zero (uninitialised) quaternion stays as it is */
    q[0] = n0 / norm;
    q[1] = n1 / norm;
    q[2] = n2 / norm;
    q[3] = n3 / norm;
}

void fn_mj_apply(const fn_mj_row *plan, size_t nrows, const double *sd, const double *nd,
                 const double *cb, const double *rw, size_t nz, size_t nstate, size_t nenv,
                 const uint64_t *keys, uint64_t *steps, double dt, double *data,
                 size_t stride, double *state, double *z) {
    double sqdt = sqrt(dt);
    for (size_t e = 0; e < nenv; e++) {
        double *x = data + e * stride;
        double *st = state + e * nstate;
        fn_normal_fill_f64(keys[e], steps[e] << 1 | FN_MJ_STREAM_NOISE, 0, nz, 0.0, 1.0, z);
        for (size_t i = 0; i < nrows; i++) {
            const fn_mj_row *r = &plan[i];
            double *v = x + r->adr;
            const double *zr = z + r->zoff;
            if (r->kind == FN_MJ_QUAT) {
                quat_noise(v, sd + r->poff, zr);
                continue;
            }
            for (int32_t k = 0; k < r->dim; k++) {
                int32_t p = r->poff + k;
                double sigma = sd[p];
                if (nd[p] != 0.0) sigma = sqrt(sd[p] * sd[p] + nd[p] * nd[p] / dt);
                double b = cb[p];
                if (r->soff >= 0) {
                    double *walk = st + r->soff + r->dim + k;
                    *walk = *walk + rw[p] * sqdt * zr[r->dim + k];
                    b = b + st[r->soff + k] + *walk;
                }
                if (r->kind == FN_MJ_RANGE && v[k] < 0.0) continue;
                double y = v[k] + b + sigma * zr[k];
                if ((r->kind == FN_MJ_NONNEG || r->kind == FN_MJ_RANGE) && y < 0.0) y = 0.0;
                v[k] = y;
            }
            if (r->kind == FN_MJ_UNIT) {
                double n2 = 0.0;
                for (int32_t k = 0; k < r->dim; k++)
                    n2 += v[k] * v[k];
                double n = sqrt(n2);
                if (n > 0.0)
                    for (int32_t k = 0; k < r->dim; k++)
                        v[k] = v[k] / n;
            }
        }
        steps[e] += 1;
    }
}
