/* Lidar and range noise on the GPU, a thread per Philox block.
 *
 * A point's (or beam's) draws are float32 normal i of its frame's streams
 * (csrc/lidar.h: stream frame << 2 | kind), so thread t takes block
 * 4 * (first / 16) + t of each stream it needs and handles the up to four points
 * whose indices that block holds (csrc/normal_pair.h), with the per-point arithmetic
 * of the CPU kernels (csrc/lidar_point.h).
 *
 * The parameters come as one float64 array, cast to the data's type as the CPU
 * drivers cast them:
 *   points: [t0 t1 t2 k0 k1 k2 mu base rise rmax m0..m8 angular_mean angular_stddev]
 *   ranges: [bias mean stddev precision min_range max_range]
 */
#ifndef FN_LIDAR_DEV_H
#define FN_LIDAR_DEV_H

#include "../fnhd.h"
#include "../lidar_point.h"
#include "../normal_pair.h"
#include "../streams.h"

enum { FN_DEV_LIDAR_NPRM = 21, FN_DEV_RANGE_NPRM = 6 };

#define FN_DEV_LIDAR(T, SUF)                                                               \
    FN_INLINE void fn_dev_lidar_points_##SUF(                                              \
        uint64_t t, uint64_t key, uint64_t frame, uint64_t first, uint64_t n,              \
        const double *prm, int angular, int distance, const T *points, const T *dist_in,   \
        const uint8_t *mask_in, T *points_out, T *dist_out, uint8_t *mask_out,             \
        T *local_out) {                                                                    \
        fn_lidar_point_params_##SUF pp;                                                    \
        pp.t0 = (T)prm[0], pp.t1 = (T)prm[1], pp.t2 = (T)prm[2];                           \
        pp.k0 = (T)prm[3], pp.k1 = (T)prm[4], pp.k2 = (T)prm[5];                           \
        pp.mu = (T)prm[6], pp.base = (T)prm[7], pp.rise = (T)prm[8];                       \
        pp.rmax = (T)prm[9];                                                               \
        for (int j = 0; j < 9; j++)                                                        \
            pp.m[j] = (T)prm[10 + j];                                                      \
        pp.angular = angular, pp.distance = distance, pp.local = local_out != 0;           \
        const T am = (T)prm[19], as = (T)prm[20];                                          \
        const int octant = fabs(prm[19]) + 6.7 * prm[20] <= 0.78;                          \
        uint64_t block = ((first >> 4) << 2) + t;                                          \
        uint64_t i0 = fn_block_first_index(block);                                         \
        float za[4] = {0, 0, 0, 0}, zd[4] = {0, 0, 0, 0};                                  \
        if (angular)                                                                       \
            fn_block_normals_f32(key, (frame << 2) | FN_STREAM_LIDAR_HITPOINT_ANGULAR,     \
                                 block, za);                                               \
        if (distance)                                                                      \
            fn_block_normals_f32(key, (frame << 2) | FN_STREAM_LIDAR_DISTANCE, block, zd); \
        uint64_t idx[4] = {i0, i0 + 1, i0 + 8, i0 + 9};                                    \
        for (int k = 0; k < 4; k++) {                                                      \
            uint64_t i = idx[k] - first; /* wraps to a huge value below first */           \
            if (idx[k] < first || i >= n) continue;                                        \
            T sn = 0, cs = 1;                                                              \
            if (angular) fn_lidar_angle_##SUF(am, as, za[k], octant, &sn, &cs);            \
            fn_lidar_point_##SUF(&pp, points[3 * i], points[3 * i + 1], points[3 * i + 2], \
                                 dist_in != 0, dist_in ? dist_in[i] : 0,                   \
                                 mask_in ? mask_in[i] != 0 : 1, sn, cs, zd[k],             \
                                 points_out + 3 * i, dist_out + i, mask_out + i,           \
                                 local_out ? local_out + 3 * i : 0);                       \
        }                                                                                  \
    }                                                                                      \
                                                                                           \
    FN_INLINE void fn_dev_range_##SUF(uint64_t t, uint64_t key, uint64_t frame,            \
                                      uint64_t first, uint64_t n, const double *prm,       \
                                      int noise, int inf_outside, const T *in, T *out) {   \
        const T bias = (T)prm[0], mean = (T)prm[1], sd = (T)prm[2], prec = (T)prm[3];      \
        const T lo = (T)prm[4], hi = (T)prm[5];                                            \
        const int quantize = prm[3] > 0;                                                   \
        uint64_t block = ((first >> 4) << 2) + t;                                          \
        uint64_t i0 = fn_block_first_index(block);                                         \
        float z[4];                                                                        \
        fn_block_normals_f32(key, (frame << 2) | FN_STREAM_LIDAR_RANGE, block, z);         \
        uint64_t idx[4] = {i0, i0 + 1, i0 + 8, i0 + 9};                                    \
        for (int k = 0; k < 4; k++) {                                                      \
            uint64_t i = idx[k] - first;                                                   \
            if (idx[k] < first || i >= n) continue;                                        \
            out[i] = fn_range_beam_##SUF(in[i], (T)z[k], bias, mean, sd, quantize, prec,   \
                                         lo, hi, noise, inf_outside);                      \
        }                                                                                  \
    }

FN_DEV_LIDAR(double, f64)
FN_DEV_LIDAR(float, f32)

#endif
