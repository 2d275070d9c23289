/* Gazebo's RGB-D colour noise (FN_CAM_OGRE2_RGBD): see fn_camera_rgbd_rows in camera.h.
 * One scalar path, compiled once: the normals come from the stateless fill (the same
 * bits on every SIMD target), and every step below is plain IEEE arithmetic in the
 * image's type with no contraction (CMakeLists.txt), so every CPU gives the same bits. */
#include <math.h>

#include "camera.h"
#include "depth.h"
#include "normal.h"

#define CHUNK 1024 /* pixels per step: 8 kB of normals */
#define PAIR (UINT64_C(1) << 63)

/* numpy's clip(v, 0, 1): NaN kept, -0 -> +0 (max(v, 0) takes 0 unless v > 0) */
#define CLAMP01(v) ((v) != (v) ? (v) : ((v) > 0 ? ((v) < 1 ? (v) : 1) : 0))

#define AT(base, y, x, c, row, pix, ch)                                                    \
    ((base) + (ptrdiff_t)(y) * (row) + (ptrdiff_t)(x) * (pix) + (ptrdiff_t)(c) * (ch))

/* One chunk of m pixels of row y from column x0: n[] holds their shaped noise. */
#define DEFINE_UINT(T, SUF, SCALE)                                                         \
    static void rgbd_##SUF(const fn_camera_job *j, size_t y, size_t x0, size_t m,          \
                           const float *n, size_t nc) {                                    \
        const char *in = (const char *)j->in;                                              \
        char *out = (char *)j->out;                                                        \
        for (size_t i = 0; i < m; i++) {                                                   \
            for (size_t c = 0; c < nc; c++) {                                              \
                T x = *(const T *)AT(in, y, x0 + i, c, j->in_row, j->in_pix, j->in_ch);    \
                float v = (float)x / (SCALE) + n[i];                                       \
                v = CLAMP01(v);                                                            \
                *(T *)AT(out, y, x0 + i, c, j->out_row, j->out_pix, j->out_ch) =           \
                    (T)(v * (SCALE));                                                      \
            }                                                                              \
            if (j->channels == 4)                                                          \
                *(T *)AT(out, y, x0 + i, 3, j->out_row, j->out_pix, j->out_ch) =           \
                    *(const T *)AT(in, y, x0 + i, 3, j->in_row, j->in_pix, j->in_ch);      \
        }                                                                                  \
    }

#define DEFINE_FLOAT(T, SUF)                                                               \
    static void rgbd_##SUF(const fn_camera_job *j, size_t y, size_t x0, size_t m,          \
                           const T *n, size_t nc) {                                        \
        const char *in = (const char *)j->in;                                              \
        char *out = (char *)j->out;                                                        \
        for (size_t i = 0; i < m; i++) {                                                   \
            for (size_t c = 0; c < nc; c++) {                                              \
                T x = *(const T *)AT(in, y, x0 + i, c, j->in_row, j->in_pix, j->in_ch);    \
                T v = x + n[i];                                                            \
                v = CLAMP01(v);                                                            \
                *(T *)AT(out, y, x0 + i, c, j->out_row, j->out_pix, j->out_ch) =           \
                    x != x ? x : v;                                                        \
            }                                                                              \
            if (j->channels == 4)                                                          \
                *(T *)AT(out, y, x0 + i, 3, j->out_row, j->out_pix, j->out_ch) =           \
                    *(const T *)AT(in, y, x0 + i, 3, j->in_row, j->in_pix, j->in_ch);      \
        }                                                                                  \
    }

DEFINE_UINT(uint8_t, u8, 255.0f)
DEFINE_UINT(uint16_t, u16, 65535.0f)
DEFINE_FLOAT(float, f32)
DEFINE_FLOAT(double, f64)

int fn_camera_rgbd_rows(const fn_camera_job *job, size_t row0, size_t row1) {
    if (row0 >= row1 || job->width == 0) return 0;
    const uint64_t w = job->pitch ? job->pitch : job->width;
    /* the last pixel index, pixel0 + (row1 - 1) w + width - 1, must lie below 2^63 */
    if ((uint64_t)(row1 - 1) > (PAIR - job->width) / w) return -1;
    if (job->pixel0 > PAIR - ((uint64_t)(row1 - 1) * w + job->width)) return -1;
    const size_t nc = job->channels == 4 ? 3 : job->channels;
    float z[CHUNK], z2[CHUNK], n32[CHUNK];
    double n64[CHUNK];
    for (size_t y = row0; y < row1; y++) {
        const uint64_t first = job->pixel0 + (uint64_t)y * w;
        for (size_t x0 = 0; x0 < job->width; x0 += CHUNK) {
            const size_t m = job->width - x0 < CHUNK ? job->width - x0 : CHUNK;
            fn_normal_fill_f32(job->key, job->frame, first + x0, m, 0.0f, 1.0f, z);
            fn_normal_fill_f32(job->key, job->frame, PAIR + first + x0, m, 0.0f, 1.0f, z2);
            for (size_t i = 0; i < m; i++)
                z[i] = fn_depth_cap(z[i], z2[i], job->radius_cap);
            if (job->dtype == FN_CAM_F64) {
                for (size_t i = 0; i < m; i++) {
                    double zs = job->mean + job->stddev * (double)z[i];
                    n64[i] = copysign(pow(fabs(zs), 2.1), zs);
                }
                rgbd_f64(job, y, x0, m, n64, nc);
                continue;
            }
            const float mean = (float)job->mean, sd = (float)job->stddev;
            for (size_t i = 0; i < m; i++) {
                float zs = mean + sd * z[i];
                n32[i] = copysignf(powf(fabsf(zs), 2.1f), zs);
            }
            if (job->dtype == FN_CAM_U8)
                rgbd_u8(job, y, x0, m, n32, nc);
            else if (job->dtype == FN_CAM_U16)
                rgbd_u16(job, y, x0, m, n32, nc);
            else
                rgbd_f32(job, y, x0, m, n32, nc);
        }
    }
    return 0;
}
