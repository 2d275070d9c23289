/* Lidar noise (the GPU lidar (RGL) Gaussian noise document; the Gazebo sensor noise
 * tutorial's ray noise) on point clouds and scans.
 *
 * Geometry is done in the caller's frame. With the lidar pose T = (R_T, t) (lidar ->
 * caller), a rotation by e about the lidar axis k through the lidar origin is, in the
 * caller's frame, a rotation about k_w = R_T k through t:
 *     p' = t + Rot(k_w, e) (p - t),
 * which equals RGL's L^-1 R_axis(e) L p with L = T^-1, without the two transforms.
 * Rot(k, e) q = c q + s (k x q) + (1 - c)(k . q) k (Rodrigues).
 *
 * Randomness: the standard normal behind the noise of point (or ray, or beam) i of
 * a frame is float32 normal i of stream (frame << 2 | kind) of the key, for float32
 * and float64 data alike (csrc/normal.h); the noise is mean + stddev * z in the
 * data's type. So a point's result depends only on (key, frame, i): split clouds give
 * the same bits as whole ones.
 *
 * Limits (checked by the drivers, which return -1 and do nothing when they fail):
 * frames are below FN_LIDAR_RESERVED_FRAME (2^62 - 1, whose streams hold RangeNoise's
 * once-drawn bias), and first_index + n never passes 2^64, so no index wraps.
 *
 * Range: a hit is at most FN_LIDAR_MAX_RANGE from the lidar origin (both |p - t| as
 * computed in the data's type and the given distance); a farther point is a non-hit,
 * as a non-finite one is, and is copied unchanged. With the noise parameters' bounds
 * (lidar.pyx) that keeps every intermediate and every result of a hit finite, and it
 * costs nothing: it is the comparison that already finds non-finite points.
 */
#ifndef FN_LIDAR_H
#define FN_LIDAR_H

#include <stddef.h>
#include <stdint.h>

#include "simd.h"
#include "streams.h"

enum {
    FN_LIDAR_RAY_ANGULAR = FN_STREAM_LIDAR_RAY_ANGULAR, /* angular noise of rays, rad */
    FN_LIDAR_HITPOINT_ANGULAR = FN_STREAM_LIDAR_HITPOINT_ANGULAR, /* of hit points, rad */
    FN_LIDAR_DISTANCE = FN_STREAM_LIDAR_DISTANCE,                 /* distance noise, m */
    FN_LIDAR_RANGE = FN_STREAM_LIDAR_RANGE                        /* Gazebo beam noise, m */
};

/* Largest distance of a hit, m (exactly representable in float32 too). */
#define FN_LIDAR_MAX_RANGE 1e9
/* Largest |entry| of a ray pose's top three rows (and of the lidar origin), m:
 * rotating such values stays far inside float32 and float64. */
#define FN_LIDAR_MAX_COORD 1e30
/* The last frame, 2^62 - 1, is reserved (RangeNoise's bias); data frames lie below. */
#define FN_LIDAR_RESERVED_FRAME ((UINT64_C(1) << FN_STREAM_LIDAR_FRAME_BITS) - 1u)

/* 1 when indices first .. first + n - 1 all exist (first + n <= 2^64). */
static inline int fn_lidar_indices_ok(uint64_t first, size_t n) {
    return n == 0 || (uint64_t)(n - 1) <= UINT64_MAX - first;
}

/* The stream of one noise kind in one frame (frame < 2^62). */
static inline uint64_t fn_lidar_stream(uint64_t frame, int kind) {
    return (frame << 2) | (uint64_t)kind;
}

typedef struct {
    uint64_t key;
    uint64_t frame;
    double axis[3];     /* unit rotation axis in the caller's frame (k_w) */
    double origin[3];   /* lidar origin in the caller's frame (t) */
    double to_local[9]; /* caller -> lidar rotation R_T^T, row-major (local output) */
    int angular;        /* apply hitpoint angular noise */
    double angular_mean, angular_stddev;                /* rad */
    int distance;                                       /* apply distance noise */
    double distance_mean, distance_base, distance_rise; /* m, m, m/m */
} fn_lidar_points_params;

/* Hitpoint angular noise, then distance noise, on points[first_index, +n) of a frame.
 *   points:    n x 3, caller's frame (m)
 *   dist_in:   n distances (m) or NULL to use |p - t|
 *   mask_in:   n hit flags (0/1) or NULL for all hits
 * Writes points_out (n x 3), dist_out (n), mask_out (n) and, if local_out is not NULL,
 * the noised points in the lidar frame (n x 3). A point is a hit when its flag is set
 * and both its distance and |p - t| are at most FN_LIDAR_MAX_RANGE (so finite); other
 * points are copied unchanged. Outputs may alias the matching inputs (the very same
 * array, element for element), nothing else. Returns 0, or -1 (nothing written) when
 * frame >= FN_LIDAR_RESERVED_FRAME or first_index + n passes 2^64. */
int fn_lidar_points_f64(const fn_lidar_points_params *p, uint64_t first_index, size_t n,
                        const double *points, const double *dist_in, const uint8_t *mask_in,
                        double *points_out, double *dist_out, uint8_t *mask_out,
                        double *local_out);
int fn_lidar_points_f32(const fn_lidar_points_params *p, uint64_t first_index, size_t n,
                        const float *points, const float *dist_in, const uint8_t *mask_in,
                        float *points_out, float *dist_out, uint8_t *mask_out,
                        float *local_out);

/* fn_lidar_points_* on points kept in records (a PointCloud2's data): point i's x, y, z
 * are three adjacent T at byte `points + i * in_stride`, any alignment, and are written
 * at `points_out + i * out_stride`; no other byte of a record is read or written.
 * dist_in, mask_in, dist_out, mask_out and local_out are plain arrays as above. The
 * same bits as fn_lidar_points_* on the points gathered into an n x 3 array.
 * points_out may be points with the same stride (in place); no other overlap. */
int fn_lidar_points_rows_f64(const fn_lidar_points_params *p, uint64_t first_index,
                             size_t n, const char *points, size_t in_stride,
                             const double *dist_in, const uint8_t *mask_in,
                             char *points_out, size_t out_stride, double *dist_out,
                             uint8_t *mask_out, double *local_out);
int fn_lidar_points_rows_f32(const fn_lidar_points_params *p, uint64_t first_index,
                             size_t n, const char *points, size_t in_stride,
                             const float *dist_in, const uint8_t *mask_in, char *points_out,
                             size_t out_stride, float *dist_out, uint8_t *mask_out,
                             float *local_out);

/* Ray-based angular noise, in place, on n ray poses starting at rays (row-major 3x4
 * transforms, `stride` elements apart: 12 for N x 3 x 4, 16 for N x 4 x 4; only the
 * top three rows are touched). Returns 0, or -1 (nothing written) as above. */
int fn_lidar_rays_f64(uint64_t key, uint64_t frame, const double axis[3],
                      const double origin[3], double mean, double stddev,
                      uint64_t first_index, size_t n, size_t stride, double *rays);
int fn_lidar_rays_f32(uint64_t key, uint64_t frame, const double axis[3],
                      const double origin[3], double mean, double stddev,
                      uint64_t first_index, size_t n, size_t stride, float *rays);

/* Index of the first of n ray poses (layout as above) whose top three rows hold an
 * entry that is not finite or beyond FN_LIDAR_MAX_COORD in magnitude (in the data's
 * type), or n when there is none. */
size_t fn_lidar_rays_check_f64(const double *rays, size_t n, size_t stride);
size_t fn_lidar_rays_check_f32(const float *rays, size_t n, size_t stride);

/* Gazebo range noise on n ranges (m), per beam fn_range_beam (lidar_point.h): finite
 * r -> r + bias + N(mean, stddev), rounded to a multiple of precision if precision > 0
 * (half away from zero; where r / precision overflows, r is already a multiple to the
 * type's precision and is kept), clamped to [min_range, max_range]; +-inf unchanged;
 * NaN -> max_range. With inf_outside, finite ranges outside [min, max] become -inf /
 * +inf first; with noise 0 nothing else happens. nan_rule then decides a NaN true
 * range: FN_RANGE_NAN_DEFAULT as above (max_range with noise, NaN without),
 * FN_RANGE_NAN_MAX max_range always (gz-sensors' GPU lidar, whose Lidar::Clamp runs
 * with or without a noise model), FN_RANGE_NAN_KEEP NaN always (its CPU lidar noises
 * and clamps finite ranges only). out may alias in (the very same array). Returns 0,
 * or -1 (nothing written) as above. */
enum { FN_RANGE_NAN_DEFAULT = 0, FN_RANGE_NAN_MAX = 1, FN_RANGE_NAN_KEEP = 2 };
typedef struct {
    uint64_t key;
    uint64_t frame;
    double bias, mean, stddev, precision, min_range, max_range;
    int noise;       /* 0: no noise model (Gazebo's "none"): ranges pass unchanged */
    int inf_outside; /* finite ranges outside [min, max] become -inf / +inf first */
    int nan_rule;    /* FN_RANGE_NAN_*: what a NaN true range becomes */
} fn_range_params;

int fn_range_noise_f64(const fn_range_params *p, uint64_t first_index, size_t n,
                       const double *in, double *out);

/* The normals of one group of a frame's range stream, kept by a caller between
 * per-beam calls (a scan's beams are visited in order: one group serves 16 beams). */
typedef struct {
    uint64_t key, frame, group;
    int ok; /* 0: empty (zero the struct to make it so) */
    float z[16];
} fn_range_cache;

/* One beam: fn_range_noise_f64 with n = 1 at first_index = index, bit for bit, its
 * normal read through *cache (refilled when key, frame or group differ). Returns 0,
 * or -1 (nothing written, cache untouched) for a reserved frame. */
int fn_range_noise_one_f64(const fn_range_params *p, uint64_t index, double in, double *out,
                           fn_range_cache *cache);
int fn_range_noise_f32(const fn_range_params *p, uint64_t first_index, size_t n,
                       const float *in, float *out);

/* Per-target kernels behind the functions above (chunks of at most FN_LIDAR_CHUNK). */
#define FN_LIDAR_CHUNK 512
FN_DECLARE_KERNEL(void, fn_lidar_points_chunk_f64,
                  (const fn_lidar_points_params *p, size_t n, const double *points,
                   const double *dist_in, const uint8_t *mask_in, const float *za,
                   const float *zd, double *points_out, double *dist_out, uint8_t *mask_out,
                   double *local_out))
FN_DECLARE_KERNEL(void, fn_lidar_points_chunk_f32,
                  (const fn_lidar_points_params *p, size_t n, const float *points,
                   const float *dist_in, const uint8_t *mask_in, const float *za,
                   const float *zd, float *points_out, float *dist_out, uint8_t *mask_out,
                   float *local_out))
FN_DECLARE_KERNEL(void, fn_range_chunk_f64,
                  (const fn_range_params *p, size_t n, const double *in, const float *z,
                   double *out))
FN_DECLARE_KERNEL(void, fn_range_chunk_f32,
                  (const fn_range_params *p, size_t n, const float *in, const float *z,
                   float *out))

#endif
