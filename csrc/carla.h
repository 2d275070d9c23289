/* CARLA's ray-cast lidar noise (RayCastLidar.cpp) on point clouds in the sensor frame.
 *
 * Per point i of frame f (fn_carla_point in lidar_point.h): the general drop-off
 * uniform is raw word i of stream (f << 2 | GENERAL), the range noise's standard normal
 * is float32 normal i of stream (f << 2 | NOISE), the intensity drop-off uniform is raw
 * word i of stream (f << 2 | INTENSITY), all under the carla_lidar key; a uniform is
 * word / 2^32. Draws a parameter makes unnecessary are skipped (general rate at most
 * FLT_EPSILON, noise stddev at most FLT_EPSILON, zero-intensity drop-off 0), which
 * changes nothing: such a draw would not change the result. So a point's result depends
 * only on (key, frame, i): split clouds give the same bits as whole ones.
 */
#ifndef FN_CARLA_H
#define FN_CARLA_H

#include <float.h>
#include <stddef.h>
#include <stdint.h>

#include "simd.h"
#include "streams.h"

/* The last frame is reserved (as the lidar's); data frames lie below. */
#define FN_CARLA_RESERVED_FRAME ((UINT64_C(1) << FN_STREAM_CARLA_FRAME_BITS) - 1u)

typedef struct {
    uint64_t key;
    uint64_t frame;
    double general_rate; /* dropoff_general_rate, in [0, 1] */
    double atten;        /* atmosphere_attenuation_rate, 1/m */
    double noise_stddev; /* m */
    double limit;        /* dropoff_intensity_limit, > 0 */
    double zero;         /* dropoff_zero_intensity, in [0, 1] */
} fn_carla_params;

/* Points [first_index, first_index + n) of a frame: n rows of `cols` (>= 4) values, x,
 * y, z (m, sensor frame), intensity, extra columns. Writes out (n x cols: the moved
 * point, its intensity e^(-atten d) from the noise-free distance, the extra columns
 * copied; out may be in itself) and keep (1 kept, 0 dropped). Returns 0, or -1 (nothing
 * written) when frame >= FN_CARLA_RESERVED_FRAME or first_index + n passes 2^64. */
/* Moves the kept rows (keep[i] != 0) of n rows of `cols` values to the front, in
 * order, in place; returns how many there are. */
size_t fn_carla_compact_f64(size_t n, size_t cols, const uint8_t *keep, double *rows);
size_t fn_carla_compact_f32(size_t n, size_t cols, const uint8_t *keep, float *rows);

/* Which draws a call makes: CARLA's DropOffGenActive and its noise need more than
 * FLT_EPSILON; the intensity drop-off can drop a point only when p0 > 0. */
static inline int fn_carla_general_active(const fn_carla_params *p) {
    return p->general_rate > FLT_EPSILON;
}
static inline int fn_carla_noise_on(const fn_carla_params *p) {
    return p->noise_stddev > FLT_EPSILON;
}
static inline int fn_carla_intensity_draws(const fn_carla_params *p) {
    return p->zero > 0;
}

int fn_carla_points_f64(const fn_carla_params *p, uint64_t first_index, size_t n,
                        size_t cols, const double *in, double *out, uint8_t *keep);
int fn_carla_points_f32(const fn_carla_params *p, uint64_t first_index, size_t n,
                        size_t cols, const float *in, float *out, uint8_t *keep);

/* Per-target chunk kernels (carla_kern.c) behind the functions above: m <= FN_CARLA_CHUNK
 * points, with their general words wg, normals zn and intensity words wi (each read
 * only when its draws are made). */
#define FN_CARLA_CHUNK 512
/* Raw words of Philox blocks block0 .. block0 + nblocks - 1, in block order. */
FN_DECLARE_KERNEL(void, fn_carla_blocks,
                  (uint64_t key, uint64_t stream, uint64_t block0, size_t nblocks,
                   uint32_t *out))
FN_DECLARE_KERNEL(void, fn_carla_chunk_f64,
                  (const fn_carla_params *p, size_t m, size_t cols, const double *in,
                   double *out, uint8_t *keep, const uint32_t *wg, const float *zn,
                   const uint32_t *wi))
FN_DECLARE_KERNEL(void, fn_carla_chunk_f32,
                  (const fn_carla_params *p, size_t m, size_t cols, const float *in,
                   float *out, uint8_t *keep, const uint32_t *wg, const float *zn,
                   const uint32_t *wi))

#endif
