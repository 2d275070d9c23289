/* Lidar noise drivers: draw each chunk's normals with the stateless fills (keyed by
 * point index), then run the SIMD-dispatched chunk kernel. */
#include "lidar.h"

#include <string.h>

#include "fnmath.h"
#include "lidar_point.h"
#include "normal.h"

/* Points per chunk (FN_LIDAR_CHUNK), both dtypes: the kernel makes one pass over the
 * points, so a chunk only sizes the normal fills (fewer, larger calls) and the draws'
 * buffers, which stay in L1. 256-2048 measured alike (262,144 points, avx2); the old
 * 64-point float64 chunks made the draws markedly slower (many small fills). */
#define DEFINE_POINTS(T, SUF)                                                              \
    /* One chunk (m <= FN_LIDAR_CHUNK points, the first at index `first`): its normals,    \
     * then the kernel. */                                                                 \
    static void points_chunk_##SUF(const fn_lidar_points_params *p, uint64_t first,        \
                                   size_t m, const T *points, const T *dist_in,            \
                                   const uint8_t *mask_in, T *points_out, T *dist_out,     \
                                   uint8_t *mask_out, T *local_out) {                      \
        float za[FN_LIDAR_CHUNK], zd[FN_LIDAR_CHUNK];                                      \
        if (p->angular)                                                                    \
            fn_normal_fill_f32(p->key,                                                     \
                               fn_lidar_stream(p->frame, FN_LIDAR_HITPOINT_ANGULAR),       \
                               first, m, 0.0f, 1.0f, za);                                  \
        if (p->distance)                                                                   \
            fn_normal_fill_f32(p->key, fn_lidar_stream(p->frame, FN_LIDAR_DISTANCE),       \
                               first, m, 0.0f, 1.0f, zd);                                  \
        FN_DISPATCH(fn_lidar_points_chunk_##SUF,                                           \
                    (p, m, points, dist_in, mask_in, za, zd, points_out, dist_out,         \
                     mask_out, local_out));                                                \
    }                                                                                      \
    int fn_lidar_points_##SUF(const fn_lidar_points_params *p, uint64_t first_index,       \
                              size_t n, const T *points, const T *dist_in,                 \
                              const uint8_t *mask_in, T *points_out, T *dist_out,          \
                              uint8_t *mask_out, T *local_out) {                           \
        if (p->frame >= FN_LIDAR_RESERVED_FRAME || !fn_lidar_indices_ok(first_index, n))   \
            return -1;                                                                     \
        const size_t step = FN_LIDAR_CHUNK;                                                \
        for (size_t done = 0; done < n; done += step) {                                    \
            size_t m = n - done < step ? n - done : step;                                  \
            points_chunk_##SUF(p, first_index + done, m, points + 3 * done,                \
                               dist_in ? dist_in + done : NULL,                            \
                               mask_in ? mask_in + done : NULL, points_out + 3 * done,     \
                               dist_out + done, mask_out + done,                           \
                               local_out ? local_out + 3 * done : NULL);                   \
        }                                                                                  \
        return 0;                                                                          \
    }                                                                                      \
    /* Records: each chunk's x, y, z are gathered into an L1 buffer, noised there in       \
     * place (the kernel's outputs may alias its inputs element for element) and put       \
     * back; memcpy, so records of any alignment. */                                       \
    int fn_lidar_points_rows_##SUF(const fn_lidar_points_params *p, uint64_t first_index,  \
                                   size_t n, const char *points, size_t in_stride,         \
                                   const T *dist_in, const uint8_t *mask_in,               \
                                   char *points_out, size_t out_stride, T *dist_out,       \
                                   uint8_t *mask_out, T *local_out) {                      \
        T buf[3 * FN_LIDAR_CHUNK];                                                         \
        if (p->frame >= FN_LIDAR_RESERVED_FRAME || !fn_lidar_indices_ok(first_index, n))   \
            return -1;                                                                     \
        const size_t step = FN_LIDAR_CHUNK;                                                \
        for (size_t done = 0; done < n; done += step) {                                    \
            size_t m = n - done < step ? n - done : step;                                  \
            const char *src = points + done * in_stride;                                   \
            for (size_t i = 0; i < m; i++)                                                 \
                memcpy(buf + 3 * i, src + i * in_stride, 3 * sizeof(T));                   \
            points_chunk_##SUF(p, first_index + done, m, buf,                              \
                               dist_in ? dist_in + done : NULL,                            \
                               mask_in ? mask_in + done : NULL, buf, dist_out + done,      \
                               mask_out + done, local_out ? local_out + 3 * done : NULL);  \
            char *dst = points_out + done * out_stride;                                    \
            for (size_t i = 0; i < m; i++)                                                 \
                memcpy(dst + i * out_stride, buf + 3 * i, 3 * sizeof(T));                  \
        }                                                                                  \
        return 0;                                                                          \
    }

DEFINE_POINTS(double, f64)
DEFINE_POINTS(float, f32)

/* Rotation by e about unit axis k through o (fn_lidar_rotate, lidar_point.h), applied to
 * the three direction columns and the origin column of each ray pose. Not a hot path (rays
 * are set up once per scan pattern), so one plain loop serves every target. */
#define DEFINE_RAYS(T, SUF)                                                                \
    int fn_lidar_rays_##SUF(uint64_t key, uint64_t frame, const double axis[3],            \
                            const double origin[3], double mean, double stddev,            \
                            uint64_t first_index, size_t n, size_t stride, T *rays) {      \
        float z[FN_LIDAR_CHUNK];                                                           \
        const T k[3] = {(T)axis[0], (T)axis[1], (T)axis[2]};                               \
        const T o[3] = {(T)origin[0], (T)origin[1], (T)origin[2]};                         \
        if (frame >= FN_LIDAR_RESERVED_FRAME || !fn_lidar_indices_ok(first_index, n))      \
            return -1;                                                                     \
        uint64_t s = fn_lidar_stream(frame, FN_LIDAR_RAY_ANGULAR);                         \
        for (size_t done = 0; done < n; done += FN_LIDAR_CHUNK) {                          \
            size_t m = n - done < FN_LIDAR_CHUNK ? n - done : FN_LIDAR_CHUNK;              \
            fn_normal_fill_f32(key, s, first_index + done, m, 0.0f, 1.0f, z);              \
            for (size_t i = 0; i < m; i++) {                                               \
                T *a = rays + (done + i) * stride; /* rows a[0..3], a[4..7], a[8..11] */   \
                T sn, c;                                                                   \
                fn_sincos_##SUF((T)mean + (T)stddev * (T)z[i], &sn, &c);                   \
                for (int col = 0; col < 4; col++) {                                        \
                    T off0 = col == 3 ? o[0] : 0, off1 = col == 3 ? o[1] : 0;              \
                    T off2 = col == 3 ? o[2] : 0;                                          \
                    T q0 = a[col] - off0, q1 = a[4 + col] - off1, q2 = a[8 + col] - off2;  \
                    T v0, v1, v2;                                                          \
                    fn_lidar_rotate_##SUF(k[0], k[1], k[2], sn, c, q0, q1, q2, &v0, &v1,   \
                                          &v2);                                            \
                    a[col] = v0 + off0;                                                    \
                    a[4 + col] = v1 + off1;                                                \
                    a[8 + col] = v2 + off2;                                                \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
        return 0;                                                                          \
    }

DEFINE_RAYS(double, f64)
DEFINE_RAYS(float, f32)

#define DEFINE_RAYS_CHECK(T, SUF)                                                          \
    size_t fn_lidar_rays_check_##SUF(const T *rays, size_t n, size_t stride) {             \
        const T lim = (T)FN_LIDAR_MAX_COORD;                                               \
        for (size_t i = 0; i < n; i++) {                                                   \
            int ok = 1;                                                                    \
            for (int j = 0; j < 12; j++) { /* false for NaN too */                         \
                T a = rays[i * stride + j];                                                \
                ok &= (a <= lim) & (a >= -lim);                                            \
            }                                                                              \
            if (!ok) return i;                                                             \
        }                                                                                  \
        return n;                                                                          \
    }

DEFINE_RAYS_CHECK(double, f64)
DEFINE_RAYS_CHECK(float, f32)

#define DEFINE_RANGE(T, SUF)                                                               \
    int fn_range_noise_##SUF(const fn_range_params *p, uint64_t first_index, size_t n,     \
                             const T *in, T *out) {                                        \
        float z[FN_LIDAR_CHUNK];                                                           \
        if (p->frame >= FN_LIDAR_RESERVED_FRAME || !fn_lidar_indices_ok(first_index, n))   \
            return -1;                                                                     \
        uint64_t s = fn_lidar_stream(p->frame, FN_LIDAR_RANGE);                            \
        for (size_t done = 0; done < n; done += FN_LIDAR_CHUNK) {                          \
            size_t m = n - done < FN_LIDAR_CHUNK ? n - done : FN_LIDAR_CHUNK;              \
            fn_normal_fill_f32(p->key, s, first_index + done, m, 0.0f, 1.0f, z);           \
            FN_DISPATCH(fn_range_chunk_##SUF, (p, m, in + done, z, out + done));           \
        }                                                                                  \
        return 0;                                                                          \
    }

DEFINE_RANGE(double, f64)

_Static_assert(FN_GROUP == sizeof(((fn_range_cache *)0)->z) / sizeof(float),
               "fn_range_cache holds one group of normals");

int fn_range_noise_one_f64(const fn_range_params *p, uint64_t index, double in, double *out,
                           fn_range_cache *cache) {
    if (p->frame >= FN_LIDAR_RESERVED_FRAME) return -1; /* any index has room for 1 */
    uint64_t group = index / FN_GROUP;
    if (!cache->ok || cache->group != group || cache->frame != p->frame ||
        cache->key != p->key) {
        fn_group_normals_f32(p->key, fn_lidar_stream(p->frame, FN_LIDAR_RANGE), group,
                             cache->z);
        cache->key = p->key;
        cache->frame = p->frame;
        cache->group = group;
        cache->ok = 1;
    }
    /* what the fill writes for it: fma(1, z, 0), so a -0 becomes +0 */
    float z = 0.0f + 1.0f * cache->z[index % FN_GROUP];
    /* the chunk kernel's arithmetic for one beam (plain operations: the same bits on
     * every target) */
    double y = fn_range_beam_f64(in, (double)z, p->bias, p->mean, p->stddev,
                                 p->precision > 0, p->precision, p->min_range, p->max_range,
                                 p->noise != 0, p->inf_outside != 0);
    if (p->nan_rule != FN_RANGE_NAN_DEFAULT && in != in)
        y = p->nan_rule == FN_RANGE_NAN_MAX ? p->max_range : in;
    *out = y;
    return 0;
}
DEFINE_RANGE(float, f32)
