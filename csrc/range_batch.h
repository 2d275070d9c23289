/* Batched environments of Gazebo range noise (lidar.h, fn_range_noise_*): N scans, one
 * per environment, each with its own parameters (key, bias, ...) and frame, noised by
 * one call. Environment e's bits are fn_range_noise_* of its parameters at its frame. */
#ifndef FN_RANGE_BATCH_H
#define FN_RANGE_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "lidar.h"

/* Scan e is in[e * m .. e * m + m) (out the same; it may be in), beams first_index..
 * of frame frames[e] under p[e]. Returns 0, or the first environment's -1 of
 * fn_range_noise_* (an index or frame past the streams: the caller checks first). */
int fn_range_batch_f64(const fn_range_params *p, size_t n, const uint64_t *frames,
                       uint64_t first_index, size_t m, const double *in, double *out);
int fn_range_batch_f32(const fn_range_params *p, size_t n, const uint64_t *frames,
                       uint64_t first_index, size_t m, const float *in, float *out);

#endif
