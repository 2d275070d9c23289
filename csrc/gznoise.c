/* Gazebo Gaussian noise channels: set-up, single samples and runs (see gznoise.h). */
#include "gznoise.h"

#include <string.h>

#include "normal.h"
#include "normal_many.h"
#include "philox.h"

#define CHUNK 512 /* normals decoded per step of a run (stack buffers) */

void fn_gz_channel_init(fn_gz_channel *c, const fn_gz_params *p, uint64_t key,
                        uint64_t stream, double bias_mean, double bias_stddev) {
    double z = 0.0;
    uint32_t w[4];
    memset(c, 0, sizeof *c);
    c->p = *p;
    c->key = key;
    c->stream = stream;
    fn_normal_fill_f64(key, stream | FN_STREAM_GZ_BIAS, 0, 1, 0.0, 1.0, &z);
    fn_philox_block(key, stream | FN_STREAM_GZ_SIGN, 0, w);
    c->bias = fn_gz_turn_on_bias(bias_mean, bias_stddev, z, w[0]);
}

/* Normal k of a term, through a one-group cache. */
static double cached(fn_gz_channel *c, uint64_t term, uint64_t k, uint64_t *group, int *ok,
                     double *z) {
    uint64_t g = k / FN_GZ_CACHE;
    if (!*ok || *group != g) {
        fn_normal_fill_f64(c->key, c->stream | term, g * FN_GZ_CACHE, FN_GZ_CACHE, 0.0, 1.0,
                           z);
        *group = g;
        *ok = 1;
    }
    return z[k % FN_GZ_CACHE];
}

/* The general sample: the dynamic bias moves, or the white normal's group is not the
 * one cached. Kept out of line, so the common sample below needs no stack frame. */
static __attribute__((noinline)) double apply_one_full(fn_gz_channel *c, double x,
                                                       double dt) {
    uint64_t k = c->count++;
    double zw = 0.0, zd = 0.0;
    if (c->p.stddev > 0) zw = cached(c, FN_STREAM_GZ_WHITE, k, &c->wgroup, &c->wok, c->wz);
    if (fn_gz_moves(&c->p, dt))
        zd = cached(c, FN_STREAM_GZ_DYNAMIC, k, &c->dgroup, &c->dok, c->dz);
    return fn_gz_step(&c->p, &c->bias, x, dt, zw, zd);
}

/* The common sample (a bias that does not move over dt, and the white normal, if
 * any, in the cached group) is fn_gz_step without the bias update: fn_gz_finish of
 * the same normal, so the same bits as apply_one_full. Inline, so that fn_gz_runs_one
 * makes no call per channel. */
static inline double apply_one(fn_gz_channel *c, double x, double dt) {
    uint64_t k = c->count;
    if (!fn_gz_moves(&c->p, dt)) {
        if (!(c->p.stddev > 0)) {
            c->count = k + 1;
            return fn_gz_finish(&c->p, c->bias, x, 0.0);
        }
        if (c->wok && c->wgroup == k / FN_GZ_CACHE) {
            c->count = k + 1;
            return fn_gz_finish(&c->p, c->bias, x, c->wz[k % FN_GZ_CACHE]);
        }
    }
    return apply_one_full(c, x, dt);
}

double fn_gz_channel_apply_one(fn_gz_channel *c, double x, double dt) {
    return apply_one(c, x, dt);
}

#define MAX_RUNS 6 /* the most runs of a sensor model (sensors.pxd: _run[6][3]) */

int fn_gz_runs_one(fn_gz_channel *ch, const int *on, int (*run)[3], int nrun, double *v,
                   double dt) {
    /* the channels of one-sample runs whose white normal is not in their cached group
     * (they all move on to a new group at the same reading, as a rule): refilled
     * together by the many-stream kernel, the values apply_one_full's fill gives */
    uint64_t key[MAX_RUNS], stream[MAX_RUNS], group[MAX_RUNS];
    fn_gz_channel *miss[MAX_RUNS];
    int nmiss = 0;
    for (int r = 0; r < nrun; r++) {
        int i = run[r][0];
        if (!on[i]) continue;
        const fn_gz_channel *c = &ch[i];
        uint64_t k = c->count;
        if ((uint64_t)run[r][2] > UINT64_MAX - k) return r;
        if (nmiss < MAX_RUNS && run[r][2] == 1 && c->p.stddev > 0 &&
            !(c->wok && c->wgroup == k / FN_GZ_CACHE)) {
            key[nmiss] = c->key;
            stream[nmiss] = c->stream | FN_STREAM_GZ_WHITE;
            group[nmiss] = k / FN_GZ_CACHE;
            miss[nmiss++] = &ch[i];
        }
    }
    if (nmiss > 1) { /* one alone: apply_one_full's own fill costs the same */
        double z[MAX_RUNS * FN_GZ_CACHE];
        fn_normal_group_many_f64(key, stream, group, (size_t)nmiss, z);
        for (int j = 0; j < nmiss; j++) {
            memcpy(miss[j]->wz, z + FN_GZ_CACHE * j, sizeof miss[j]->wz);
            miss[j]->wgroup = group[j];
            miss[j]->wok = 1;
        }
    }
    for (int r = 0; r < nrun; r++) {
        int i = run[r][0], c = run[r][1];
        if (!on[i]) continue;
        v[c] = apply_one(&ch[i], v[c], dt);
        for (int j = c + 1; j < c + run[r][2]; j++)
            v[j] = apply_one(&ch[i], v[j], 0.0);
    }
    return -1;
}

int fn_gz_channel_apply(fn_gz_channel *c, size_t m, const double *x, ptrdiff_t xs,
                        ptrdiff_t es, const double *dt, ptrdiff_t dts, size_t n,
                        double *out, ptrdiff_t os) {
    double zw[CHUNK], zd[CHUNK], v[CHUNK], b[CHUNK], o[CHUNK];
    if (m == 0 || n == 0) return 0;
    if (m > CHUNK || n > (UINT64_MAX - c->count) / m) return -1;
    /* locals, so the compiler keeps them in registers (out may alias nothing of c) */
    const fn_gz_params p = c->p;
    const uint64_t key = c->key, stream = c->stream;
    uint64_t count = c->count;
    double bias = c->bias;
    const int white = p.stddev > 0;
    const int dyn = p.dyn_stddev > 0 && p.dyn_tau > 0;
    const size_t rows = CHUNK / m; /* rows per chunk */
    double last_dt = -1.0, phi = 0.0, sbd = 0.0;
    if (!white)
        for (size_t i = 0; i < CHUNK; i++)
            zw[i] = 0.0;
    /* one contiguous column (GazeboNoise, one-component sensors): no gather */
    const int flat = m == 1 && xs == 1 && os == 1;
    if (!dyn)
        for (size_t i = 0; i < CHUNK; i++)
            b[i] = bias; /* the bias does not move in this run */
    for (size_t k0 = 0; k0 < n; k0 += rows) {
        size_t r = n - k0 < rows ? n - k0 : rows;
        const double *src = v;
        if (white)
            fn_normal_fill_f64(key, stream | FN_STREAM_GZ_WHITE, count, r * m, 0.0, 1.0,
                               zw);
        if (dyn) {
            fn_normal_fill_f64(key, stream | FN_STREAM_GZ_DYNAMIC, count, r * m, 0.0, 1.0,
                               zd);
            /* the bias of every sample, the recurrence in order; the row's first
             * sample gets dt, the others 0 */
            for (size_t k = 0; k < r; k++) {
                const double d = dt[(ptrdiff_t)(k0 + k) * dts];
                if (d > 0) {
                    if (d != last_dt) { /* the factors of the previous dt still hold */
                        fn_gz_dyn_coef(&p, d, &phi, &sbd);
                        last_dt = d;
                    }
                    bias = phi * bias + sbd * zd[k * m];
                }
                for (size_t j = 0; j < m; j++)
                    b[k * m + j] = bias;
            }
        }
        if (flat) {
            src = x + k0;
        } else { /* gather; the first sample spelt out, so no memcpy call per row */
            for (size_t k = 0; k < r; k++) {
                const double *xr = x + (ptrdiff_t)(k0 + k) * xs;
                v[k * m] = xr[0];
                if (m == 2)
                    v[k * m + 1] = xr[es];
                else
                    for (size_t j = 1; j < m; j++)
                        v[k * m + j] = xr[(ptrdiff_t)j * es];
            }
        }
        FN_DISPATCH(fn_gz_finish_block, (&p, src, b, zw, r * m, o));
        if (flat) {
            memcpy(out + k0, o, r * sizeof *o);
        } else {
            for (size_t k = 0; k < r; k++) {
                double *orow = out + (ptrdiff_t)(k0 + k) * os;
                orow[0] = o[k * m];
                if (m == 2)
                    orow[es] = o[k * m + 1];
                else
                    for (size_t j = 1; j < m; j++)
                        orow[(ptrdiff_t)j * es] = o[k * m + j];
            }
        }
        count += (uint64_t)(r * m);
    }
    c->count = count;
    c->bias = bias;
    c->wok = c->dok = 0; /* the bulk path does not keep the caches current */
    return 0;
}

int fn_gz_navsat_horizontal(fn_gz_channel *c, int metres, const double *x, ptrdiff_t xs,
                            const double *dt, ptrdiff_t dts, size_t n, double *out,
                            ptrdiff_t os) {
    if (c != NULL && !metres) {
        if (fn_gz_channel_apply(c, 2, x, xs, 1, dt, dts, n, out, os) != 0) return -1;
        for (size_t k = 0; k < n; k++) {
            out[(ptrdiff_t)k * os] = fn_gz_wrap180(out[(ptrdiff_t)k * os]);
            out[(ptrdiff_t)k * os + 1] = fn_gz_wrap180(out[(ptrdiff_t)k * os + 1]);
        }
        return 0;
    }
    if (c != NULL && n > (UINT64_MAX - c->count) / 2) return -1;
    for (size_t k = 0; k < n; k++) {
        double lat = x[(ptrdiff_t)k * xs], lon = x[(ptrdiff_t)k * xs + 1];
        if (c != NULL) {
            double dlat, dlon;
            double nlat = fn_gz_channel_apply_one(c, 0.0, dt[(ptrdiff_t)k * dts]);
            double nlon = fn_gz_channel_apply_one(c, 0.0, 0.0);
            fn_gz_wgs84_deg_per_m(lat, &dlat, &dlon);
            lat = lat + nlat * dlat;
            lon = lon + nlon * dlon;
        }
        out[(ptrdiff_t)k * os] = fn_gz_wrap180(lat);
        out[(ptrdiff_t)k * os + 1] = fn_gz_wrap180(lon);
    }
    return 0;
}
