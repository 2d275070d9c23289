/* Batched Gazebo noise: see gznoise_batch.h. */
#include "gznoise_batch.h"

#include <stdlib.h>
#include <string.h>

#include "normal_many.h"

#define SLAB 64 /* environments whose caches are refilled before their samples run */

int fn_gz_tile_alloc(fn_gz_tile *t, size_t m) {
    memset(t, 0, sizeof *t);
    if (m == 0 || m > SIZE_MAX / (FN_GZ_CACHE * sizeof(double))) return -1;
    t->z = malloc(m * FN_GZ_CACHE * sizeof *t->z);
    t->group = malloc(m * sizeof *t->group);
    t->hot = malloc(m * sizeof *t->hot);
    if (!t->z || !t->group || !t->hot) {
        fn_gz_tile_free(t);
        return -1;
    }
    t->m = m;
    for (size_t c = 0; c < m; c++)
        t->group[c] = UINT64_MAX;
    return 0;
}

void fn_gz_tile_free(fn_gz_tile *t) {
    free(t->z);
    free(t->group);
    free(t->hot);
    memset(t, 0, sizeof *t);
}

static void take(fn_gz_hot *h, const fn_gz_channel *c) {
    h->mean = c->p.mean;
    h->stddev = c->p.stddev;
    h->precision = c->p.precision;
    h->bias = c->bias;
    h->count = c->count;
    h->dyn = c->p.dyn_stddev > 0 && c->p.dyn_tau > 0;
}

void fn_gz_tile_sync(fn_gz_tile *t, fn_gz_channel *ch) {
    if (!t->live) return;
    for (size_t c = 0; c < t->m; c++) {
        ch[c].count = t->hot[c].count;
        ch[c].bias = t->hot[c].bias;
    }
}

void fn_gz_tile_push(fn_gz_tile *t, const fn_gz_channel *ch, size_t c0, size_t c1) {
    if (!t->live) return;
    for (size_t c = c0; c < c1 && c < t->m; c++)
        take(&t->hot[c], &ch[c]);
}

/* Channels whose cache is to be refilled, FN_NORMAL_MANY_MAX at a time. */
typedef struct {
    size_t n;
    uint64_t key[FN_NORMAL_MANY_MAX], stream[FN_NORMAL_MANY_MAX], group[FN_NORMAL_MANY_MAX];
    double *z[FN_NORMAL_MANY_MAX];
    size_t zs[FN_NORMAL_MANY_MAX]; /* stride of z: 1 (a channel's cache), m (the tile) */
    uint64_t *zgroup[FN_NORMAL_MANY_MAX];
    int *zok[FN_NORMAL_MANY_MAX]; /* NULL for the tile */
} refills;

static void flush(refills *r) {
    double v[FN_NORMAL_MANY_MAX * FN_GZ_CACHE];
    if (r->n == 0) return;
    fn_normal_group_many_f64(r->key, r->stream, r->group, r->n, v);
    for (size_t i = 0; i < r->n; i++) {
        for (size_t j = 0; j < FN_GZ_CACHE; j++)
            r->z[i][j * r->zs[i]] = v[i * FN_GZ_CACHE + j];
        *r->zgroup[i] = r->group[i];
        if (r->zok[i]) *r->zok[i] = 1;
    }
    r->n = 0;
}

/* Queue the cache (z, zgroup, zok) of term `term` of channel c for group g, unless it
 * holds it already. */
static void want(refills *r, const fn_gz_channel *c, uint64_t term, uint64_t g, double *z,
                 size_t zs, uint64_t *zgroup, int *zok) {
    if ((zok == NULL || *zok) && *zgroup == g) return;
    size_t i = r->n++;
    r->key[i] = c->key;
    r->stream[i] = c->stream | term;
    r->group[i] = g;
    r->z[i] = z;
    r->zs[i] = zs;
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
                want(&r, c, FN_STREAM_GZ_WHITE, g, c->wz, 1, &c->wgroup, &c->wok);
            if (moves && fn_gz_moves(&c->p, dt[e * es]))
                want(&r, c, FN_STREAM_GZ_DYNAMIC, g, c->dz, 1, &c->dgroup, &c->dok);
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

/* Whether a step can run from the tile: one reading, the runs alone, one sample per
 * run. */
static int tiled(const fn_gz_tile *tile, const fn_gz_layout *lay, size_t n, size_t t) {
    if (tile == NULL || tile->m != n * (size_t)lay->nch || t != 1 ||
        lay->mode != FN_GZ_LAYOUT_RUNS)
        return 0;
    for (int r = 0; r < lay->nrun; r++)
        if (lay->run[r][2] != 1) return 0;
    return 1;
}

/* One reading of environments [e0, e1) from the tile: refill the rows of the channels
 * whose next normal lies outside the group they hold (and the dynamic-bias caches
 * where the bias moves), then every sample as fn_gz_channel_apply_one makes it. */
static void tiled_slab(fn_gz_channel *ch, fn_gz_tile *tile, const fn_gz_layout *lay,
                       size_t e0, size_t e1, double *x, const double *dt, size_t es) {
    const size_t nch = (size_t)lay->nch, ncol = (size_t)lay->ncol, m = tile->m;
    refills r;
    r.n = 0;
    for (size_t e = e0; e < e1; e++) {
        const double d = dt[e * es];
        for (int k = 0; k < lay->nrun; k++) {
            const size_t i = (size_t)lay->run[k][0], cn = e * nch + i;
            const fn_gz_hot *h = &tile->hot[cn];
            if (!lay->on[i]) continue;
            const uint64_t g = h->count / FN_GZ_CACHE;
            if (h->stddev > 0 && tile->group[cn] != g)
                want(&r, &ch[cn], FN_STREAM_GZ_WHITE, g, tile->z + cn, m, &tile->group[cn],
                     NULL);
            if (h->dyn && d > 0) {
                fn_gz_channel *c = &ch[cn];
                want(&r, c, FN_STREAM_GZ_DYNAMIC, g, c->dz, 1, &c->dgroup, &c->dok);
            }
        }
    }
    flush(&r);
    for (size_t e = e0; e < e1; e++) {
        const double d = dt[e * es];
        double *v = x + e * ncol;
        for (int k = 0; k < lay->nrun; k++) {
            const size_t i = (size_t)lay->run[k][0], cn = e * nch + i;
            fn_gz_hot *h = &tile->hot[cn];
            if (!lay->on[i]) continue;
            const uint64_t j = h->count++ % FN_GZ_CACHE;
            fn_gz_params p; /* what fn_gz_finish reads */
            p.mean = h->mean;
            p.stddev = h->stddev;
            p.precision = h->precision;
            const double zw = p.stddev > 0 ? tile->z[j * m + cn] : 0.0;
            if (h->dyn && d > 0) { /* fn_gz_step's bias update, with the struct's p */
                const fn_gz_channel *c = &ch[cn];
                double phi, sbd;
                fn_gz_dyn_coef(&c->p, d, &phi, &sbd);
                h->bias = phi * h->bias + sbd * c->dz[j];
            }
            const int col = lay->run[k][1];
            v[col] = fn_gz_finish(&p, h->bias, v[col], zw);
        }
    }
}

int fn_gz_batch_rows(fn_gz_channel *ch, fn_gz_tile *tile, size_t n, const fn_gz_layout *lay,
                     size_t t, double *x, const double *dt, size_t env_stride,
                     size_t time_stride, size_t *env) {
    const size_t nch = (size_t)lay->nch, ncol = (size_t)lay->ncol;
    const int fast = tiled(tile, lay, n, t);
    if (fast && !tile->live) { /* the hot state from the structs */
        for (size_t c = 0; c < tile->m; c++)
            take(&tile->hot[c], &ch[c]);
        tile->live = 1;
    }
    if (!fast && tile != NULL && tile->live) { /* the structs from the hot state */
        fn_gz_tile_sync(tile, ch);
        tile->live = 0;
    }
    for (size_t e = 0; e < n; e++) /* room in every channel first */
        for (size_t i = 0; i < nch; i++) {
            const uint64_t count =
                fast ? tile->hot[e * nch + i].count : ch[e * nch + i].count;
            if (lay->on[i] && lay->per_row[i] > 0 &&
                t > (UINT64_MAX - count) / lay->per_row[i]) {
                *env = e;
                return -1;
            }
        }
    if (t >= FN_GZ_CACHE) {
        for (size_t e = 0; e < n; e++)
            env_bulk(ch + e * nch, lay, t, x + e * t * ncol, dt + e * env_stride,
                     time_stride);
        return 0;
    }
    for (size_t e0 = 0; e0 < n; e0 += SLAB) {
        const size_t e1 = n - e0 < SLAB ? n : e0 + SLAB;
        if (fast) {
            tiled_slab(ch, tile, lay, e0, e1, x, dt, env_stride);
            continue;
        }
        prefetch(ch, lay, e0, e1, dt, env_stride);
        for (size_t e = e0; e < e1; e++)
            for (size_t k = 0; k < t; k++)
                one_reading(ch + e * nch, lay, x + (e * t + k) * ncol,
                            dt[e * env_stride + k * time_stride]);
    }
    return 0;
}

int fn_gz_batch_apply(fn_gz_channel *ch, fn_gz_tile *tile, size_t n, size_t t,
                      const double *x, const double *dt, size_t env_stride,
                      size_t time_stride, double *out, size_t *env) {
    fn_gz_layout lay;
    memset(&lay, 0, sizeof lay);
    lay.nch = lay.ncol = lay.nrun = 1;
    lay.run[0][2] = 1;
    lay.on[0] = 1;
    lay.per_row[0] = 1;
    lay.mode = FN_GZ_LAYOUT_RUNS;
    if (out != x) memmove(out, x, n * t * sizeof *out);
    return fn_gz_batch_rows(ch, tile, n, &lay, t, out, dt, env_stride, time_stride, env);
}
