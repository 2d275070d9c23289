/* Batched Gazebo noise: N environments of a Gazebo sensor (or of one GazeboNoise
 * channel), every environment noised by one call.
 *
 * Environment e holds nch whole fn_gz_channel structs, ch[e * nch + i] for component
 * i (its own parameters, key, bias and count), so its bits are those of a single
 * model with the same parameters and key: every sample is fn_gz_channel_apply_one's
 * arithmetic on the same normals (a long run goes through fn_gz_channel_apply, which
 * gives the same bits).
 *
 * Few readings per environment (a control loop's step) are where the time goes: one
 * normal per channel and reading. The step first refills, for a slab of environments,
 * the one-group normal cache of each channel (wz, dz of fn_gz_channel) that does not
 * hold the group of its next sample, all of them by one many-stream kernel call per
 * FN_NORMAL_MANY_MAX channels (normal_many.h: the Philox blocks of different keys
 * computed side by side in SIMD lanes); the samples then read their normals from the
 * caches. A cache holds normals of (key, stream, group), a pure function, so filling
 * it early or more than once changes no value.
 */
#ifndef FN_GZNOISE_BATCH_H
#define FN_GZNOISE_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "gznoise.h"

#define FN_GZ_BATCH_MAXCH 6 /* channels (and columns) of a reading, at most */

/* How a reading's columns meet the channels. */
enum {
    FN_GZ_LAYOUT_RUNS = 0,       /* the runs alone */
    FN_GZ_LAYOUT_NAVSAT_DEG = 1, /* NavSat: channel 0 on lat, lon (deg), then wrapped */
    FN_GZ_LAYOUT_NAVSAT_M = 2,   /* NavSat: channel 0 in metres, turned into degrees */
    FN_GZ_LAYOUT_HPA = 3         /* AirSpeed: channel 0 on column 0 in float32 hPa */
};

typedef struct {
    int nch;  /* channels per environment */
    int ncol; /* columns per reading */
    int nrun;
    int run[FN_GZ_BATCH_MAXCH][3];       /* (channel, first column, samples per row) */
    int on[FN_GZ_BATCH_MAXCH];           /* channel i has noise (in every environment) */
    uint64_t per_row[FN_GZ_BATCH_MAXCH]; /* samples a reading takes from channel i */
    int mode; /* FN_GZ_LAYOUT_* (NavSat's runs cover columns 2..) */
} fn_gz_layout;

/* A batch's tile of white-noise normals: row j holds normal 16 g_c + j of the white
 * stream of channel c (c = e * nch + i), for the group g_c = group[c] it holds
 * (UINT64_MAX: none). A step of one reading per environment reads row count % 16 of
 * it, contiguous when the environments step together, instead of each channel's own
 * cache inside its (large) fn_gz_channel. Its values are a pure function of the
 * channels' keys and streams, so it stays valid through resets and positions set. */
/* What such a step reads and writes of channel c, in one compact array (a step then
 * never touches the large fn_gz_channel structs but to refill a cache). */
typedef struct {
    double mean, stddev, precision; /* the channel's parameters (fn_gz_finish) */
    double bias;                    /* current bias */
    uint64_t count;                 /* samples applied */
    int dyn;                        /* the dynamic bias is on (it may move) */
} fn_gz_hot;

typedef struct {
    size_t m;        /* channels */
    double *z;       /* FN_GZ_CACHE * m */
    uint64_t *group; /* m */
    fn_gz_hot *hot;  /* m */
    int live;        /* hot's count and bias are the channels' (newer than the structs') */
} fn_gz_tile;

/* A tile for m channels, holding nothing; 0, or -1 when out of memory (t then holds
 * nothing). fn_gz_tile_free releases it (a zeroed or freed tile may be freed again). */
int fn_gz_tile_alloc(fn_gz_tile *t, size_t m);
void fn_gz_tile_free(fn_gz_tile *t);
/* The structs' count and bias brought up to date from the hot state (before they are
 * read). */
void fn_gz_tile_sync(fn_gz_tile *t, fn_gz_channel *ch);
/* Channels [c0, c1) were set in their structs (a reset, a position): the hot state
 * takes them (a tile that is not live reloads everything at its next step). */
void fn_gz_tile_push(fn_gz_tile *t, const fn_gz_channel *ch, size_t c0, size_t c1);

/* t readings of each of n environments, in place: x[(e * t + k) * ncol + c] is column
 * c of reading k of environment e, dt[e * env_stride + k * time_stride] its interval
 * (s, finite, >= 0: the caller checks). Returns -1, doing nothing, when a channel's
 * count would pass 2^64 - 1 (*env: the first such environment); else 0. */
int fn_gz_batch_rows(fn_gz_channel *ch, fn_gz_tile *tile, size_t n, const fn_gz_layout *lay,
                     size_t t, double *x, const double *dt, size_t env_stride,
                     size_t time_stride, size_t *env);

/* One channel per environment (GazeboNoise with num_envs): x[e * t + k] is sample k of
 * channel e, out the same layout (it may be x); as fn_gz_batch_rows otherwise (tile:
 * n channels). */
int fn_gz_batch_apply(fn_gz_channel *ch, fn_gz_tile *tile, size_t n, size_t t,
                      const double *x, const double *dt, size_t env_stride,
                      size_t time_stride, double *out, size_t *env);

#endif
