/* Batched Gazebo noise: N environments of one gz-sensors noise channel (gznoise.h),
 * applied by one call. Environment e is a whole fn_gz_channel (its own parameters,
 * key, bias and count), so its bits are those of a single channel with the same
 * parameters and key: each sample is fn_gz_channel_apply_one. */
#ifndef FN_GZNOISE_BATCH_H
#define FN_GZNOISE_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "gznoise.h"

/* t samples of each of n channels: x[e * t + k] is sample k of channel e (out the
 * same layout; it may be x), dt[e * env_stride + k * time_stride] its interval (s,
 * finite, >= 0: the caller checks). Returns -1, doing nothing, when a channel's count
 * would pass 2^64 - 1 (*env: the first such channel); else 0. */
int fn_gz_batch_apply(fn_gz_channel *ch, size_t n, size_t t, const double *x,
                      const double *dt, size_t env_stride, size_t time_stride, double *out,
                      size_t *env);

#endif
