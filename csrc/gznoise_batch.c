/* Batched Gazebo noise: see gznoise_batch.h. */
#include "gznoise_batch.h"

#include <string.h>

#include "normal_many.h"

#define SLAB 64 /* environments whose caches are refilled before their samples run */

/* Channels whose cache is to be refilled, FN_NORMAL_MANY_MAX at a time. */
typedef struct {
    size_t n;
    uint64_t key[FN_NORMAL_MANY_MAX], stream[FN_NORMAL_MANY_MAX], group[FN_NORMAL_MANY_MAX];
    double *z[FN_NORMAL_MANY_MAX];
    uint64_t *zgroup[FN_NORMAL_MANY_MAX];
    int *zok[FN_NORMAL_MANY_MAX];
} refills;

static void flush(refills *r) {
    double v[FN_NORMAL_MANY_MAX * FN_GZ_CACHE];
    if (r->n == 0) return;
    fn_normal_group_many_f64(r->key, r->stream, r->group, r->n, v);
    for (size_t i = 0; i < r->n; i++) {
        memcpy(r->z[i], v + i * FN_GZ_CACHE, FN_GZ_CACHE * sizeof *v);
        *r->zgroup[i] = r->group[i];
        *r->zok[i] = 1;
    }
    r->n = 0;
}

/* Queue the cache (z, zgroup, zok) of term `term` of channel c for group g, unless it
 * holds it already. */
static void want(refills *r, const fn_gz_channel *c, uint64_t term, uint64_t g, double *z,
                 uint64_t *zgroup, int *zok) {
    if (*zok && *zgroup == g) return;
    size_t i = r->n++;
    r->key[i] = c->key;
    r->stream[i] = c->stream | term;
    r->group[i] = g;
    r->z[i] = z;
    r->zgroup[i] = zgroup;
    r->zok[i] = zok;
    if (r->n == FN_NORMAL_MANY_MAX) flush(r);
}

/* The caches of environments [e0, e1) for their next sample, as apply_one reads them
 * (its later samples in this call refill through apply_one when they cross a group). */
static void prefetch(fn_gz_channel *ch, const fn_gz_layout *lay, size_t e0, size_t e1,
                     const double *dt, size_t es) {
    refills r;
    r.n = 0;
    for (size_t e = e0; e < e1; e++) {
        const int moves = dt[e * es] > 0;
        for (int i = 0; i < lay->nch; i++) {
            fn_gz_channel *c = &ch[e * (size_t)lay->nch + (size_t)i];
            if (!lay->on[i] || lay->per_row[i] == 0) continue;
            uint64_t g = c->count / FN_GZ_CACHE;
            if (c->p.stddev > 0)
                want(&r, c, FN_STREAM_GZ_WHITE, g, c->wz, &c->wgroup, &c->wok);
            if (moves && fn_gz_moves(&c->p, dt[e * es]))
                want(&r, c, FN_STREAM_GZ_DYNAMIC, g, c->dz, &c->dgroup, &c->dok);
        }
    }
    flush(&r);
}

/* AirSpeedNoise in hectopascals: the channel runs on float32 hPa. */
static inline double hpa_one(fn_gz_channel *c, double v, double dt) {
    float h = (float)(v / 100.0);
    h = (float)fn_gz_channel_apply_one(c, (double)h, dt);
    h = h * 100.0f;
    return (double)h;
}

/* One reading v of an environment (channels c), sample by sample. */
static void one_reading(fn_gz_channel *c, const fn_gz_layout *lay, double *v, double dt) {
    if (lay->mode == FN_GZ_LAYOUT_HPA) {
        if (lay->on[0]) v[0] = hpa_one(&c[0], v[0], dt);
        return;
    }
    if (lay->mode == FN_GZ_LAYOUT_NAVSAT_DEG && lay->on[0]) {
        v[0] = fn_gz_wrap180(fn_gz_channel_apply_one(&c[0], v[0], dt));
        v[1] = fn_gz_wrap180(fn_gz_channel_apply_one(&c[0], v[1], 0.0));
    } else if (lay->mode != FN_GZ_LAYOUT_RUNS) {
        fn_gz_navsat_horizontal(lay->on[0] ? &c[0] : NULL,
                                lay->mode == FN_GZ_LAYOUT_NAVSAT_M, v, 0, &dt, 0, 1, v, 0);
    }
    for (int r = 0; r < lay->nrun; r++) {
        const int i = lay->run[r][0], col = lay->run[r][1], m = lay->run[r][2];
        if (!lay->on[i]) continue;
        v[col] = fn_gz_channel_apply_one(&c[i], v[col], dt);
        for (int j = col + 1; j < col + m; j++)
            v[j] = fn_gz_channel_apply_one(&c[i], v[j], 0.0);
    }
}

/* t readings of one environment by runs (fn_gz_channel_apply: a long run's set-up
 * is paid once per channel). */
static void env_bulk(fn_gz_channel *c, const fn_gz_layout *lay, size_t t, double *o,
                     const double *d, size_t ts) {
    const ptrdiff_t ncol = lay->ncol;
    if (lay->mode == FN_GZ_LAYOUT_HPA) {
        if (lay->on[0])
            for (size_t k = 0; k < t; k++)
                o[k] = hpa_one(&c[0], o[k], d[k * ts]);
        return;
    }
    if (lay->mode != FN_GZ_LAYOUT_RUNS)
        fn_gz_navsat_horizontal(lay->on[0] ? &c[0] : NULL,
                                lay->mode == FN_GZ_LAYOUT_NAVSAT_M, o, ncol, d,
                                (ptrdiff_t)ts, t, o, ncol);
    for (int r = 0; r < lay->nrun; r++) {
        const int i = lay->run[r][0], col = lay->run[r][1];
        if (lay->on[i])
            fn_gz_channel_apply(&c[i], (size_t)lay->run[r][2], o + col, ncol, 1, d,
                                (ptrdiff_t)ts, t, o + col, ncol);
    }
}

int fn_gz_batch_rows(fn_gz_channel *ch, size_t n, const fn_gz_layout *lay, size_t t,
                     double *x, const double *dt, size_t env_stride, size_t time_stride,
                     size_t *env) {
    const size_t nch = (size_t)lay->nch, ncol = (size_t)lay->ncol;
    for (size_t e = 0; e < n; e++) /* room in every channel first */
        for (size_t i = 0; i < nch; i++)
            if (lay->on[i] && lay->per_row[i] > 0 &&
                t > (UINT64_MAX - ch[e * nch + i].count) / lay->per_row[i]) {
                *env = e;
                return -1;
            }
    if (t >= FN_GZ_CACHE) {
        for (size_t e = 0; e < n; e++)
            env_bulk(ch + e * nch, lay, t, x + e * t * ncol, dt + e * env_stride,
                     time_stride);
        return 0;
    }
    for (size_t e0 = 0; e0 < n; e0 += SLAB) {
        const size_t e1 = n - e0 < SLAB ? n : e0 + SLAB;
        prefetch(ch, lay, e0, e1, dt, env_stride);
        for (size_t e = e0; e < e1; e++)
            for (size_t k = 0; k < t; k++)
                one_reading(ch + e * nch, lay, x + (e * t + k) * ncol,
                            dt[e * env_stride + k * time_stride]);
    }
    return 0;
}

int fn_gz_batch_apply(fn_gz_channel *ch, size_t n, size_t t, const double *x,
                      const double *dt, size_t env_stride, size_t time_stride, double *out,
                      size_t *env) {
    fn_gz_layout lay;
    memset(&lay, 0, sizeof lay);
    lay.nch = lay.ncol = lay.nrun = 1;
    lay.run[0][2] = 1;
    lay.on[0] = 1;
    lay.per_row[0] = 1;
    lay.mode = FN_GZ_LAYOUT_RUNS;
    for (size_t e = 0; e < n; e++)
        if (t > UINT64_MAX - ch[e].count) {
            *env = e;
            return -1;
        }
    if (out != x) memmove(out, x, n * t * sizeof *out);
    return fn_gz_batch_rows(ch, n, &lay, t, out, dt, env_stride, time_stride, env);
}
