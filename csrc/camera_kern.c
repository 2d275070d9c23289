/* Camera noise over image rows, compiled once per SIMD target (see camera.h for the
 * model). Each step takes up to CHUNK pixels of one row: their normals go into a stack
 * buffer, become one noise value per channel, and are added in a flat loop that the
 * compiler vectorizes. Only +, -, *, selects, exact conversions, floor (exact) and the
 * fnmath.h functions are used, so every target writes the same bits. */
#include <math.h>
#include <string.h>

#include "camera.h"
#include "fnmath.h"
#include "normal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FN_LITTLE_ENDIAN 1
#else
#define FN_LITTLE_ENDIAN 0
#endif

#define CHUNK 512 /* pixels per step: the buffers stay in L1 */

/* Ogre2's shaping sign(z) |z|^2.1, with 0 -> 0 (log is only taken of a positive). */
static inline float ogre2_shape(float z) {
    uint32_t sign = fn_bits32(z) & 0x80000000u;
    float a = fn_f32(fn_bits32(z) & 0x7FFFFFFFu);
    int pos = a > 0.0f;
    float p = fn_exp_f32(2.1f * fn_log_f32(pos ? a : 1.0f));
    p = pos ? p : 0.0f;
    return fn_f32(fn_bits32(p) | sign);
}

/* Spread per-pixel (or per colour channel) values v over the channel elements of n
 * pixels, out[p * C + c], alpha slots 0; returns where they are (v itself when the
 * layouts already agree). */
#define DEFINE_SPREAD(T, SUF)                                                              \
    static const T *spread_##SUF(const T *v, size_t n, size_t C, int per_channel,          \
                                 T *out) {                                                 \
        if (C == 1 || (C == 3 && per_channel)) {                                           \
            return v;                                                                      \
        } else if (C == 3) {                                                               \
            for (size_t i = 0; i < n; i++) {                                               \
                out[3 * i] = v[i];                                                         \
                out[3 * i + 1] = v[i];                                                     \
                out[3 * i + 2] = v[i];                                                     \
            }                                                                              \
        } else if (per_channel) {                                                          \
            for (size_t i = 0; i < n; i++) {                                               \
                out[4 * i] = v[3 * i];                                                     \
                out[4 * i + 1] = v[3 * i + 1];                                             \
                out[4 * i + 2] = v[3 * i + 2];                                             \
                out[4 * i + 3] = 0;                                                        \
            }                                                                              \
        } else {                                                                           \
            for (size_t i = 0; i < n; i++) {                                               \
                out[4 * i] = v[i];                                                         \
                out[4 * i + 1] = v[i];                                                     \
                out[4 * i + 2] = v[i];                                                     \
                out[4 * i + 3] = 0;                                                        \
            }                                                                              \
        }                                                                                  \
        return out;                                                                        \
    }

DEFINE_SPREAD(int16_t, i16)
DEFINE_SPREAD(int32_t, i32)
DEFINE_SPREAD(float, f32)
DEFINE_SPREAD(double, f64)

/* RGBA offsets of uint8 images, one value per pixel: (v, v, v, 0) as one 64-bit word
 * per pixel, which vectorizes (the generic loop above does not, for this layout). */
static const int16_t *spread_rgba_i16(const int16_t *v, size_t n, int16_t *out) {
    for (size_t i = 0; i < n; i++) {
        uint64_t w = (uint16_t)v[i];
        uint64_t q = w | w << 16 | w << 32; /* little-endian: lanes 0-2, alpha lane 0 */
        memcpy(out + 4 * i, &q, sizeof q);
    }
    return out;
}

/* floor(t) for |t| < 2^22, exact. With SSE4.1 (the AVX2 and AVX-512 targets) floorf
 * is one rounding instruction; elsewhere adding and removing 1.5 * 2^23 rounds to the
 * nearest integer and a select steps down where that went up. Same value either way. */
static inline float floor_small(float t) {
#if defined(__SSE4_1__)
    return floorf(t);
#else
    float r = (t + 0x1.8p23f) - 0x1.8p23f;
    return r > t ? r - 1.0f : r;
#endif
}

/* Integer images: the noise in levels, d = a + b * z with a = S * mean and
 * b = S * stddev (float32), rounded half up to k = floor(d + 0.5). Then
 * y = clamp(x + k, 0, S), which equals clamp(floor(x + d + 0.5), 0, S) because x is an
 * integer, and an alpha offset of 0 leaves alpha as it was. Where |d| could be large
 * it is limited to [-(S+1), S+1] first: x is in [0, S], so that changes no result and
 * keeps the sums in range; where it cannot (the usual case) the limit is skipped. */
#define DEFINE_LEVELS(T, SUF)                                                              \
    static void levels_##SUF(const float *z, size_t cnt, float a, float b, float lim,      \
                             int limit, T *k) {                                            \
        if (limit) {                                                                       \
            for (size_t i = 0; i < cnt; i++) {                                             \
                float d = a + b * z[i];                                                    \
                d = d < -lim ? -lim : d;                                                   \
                d = d > lim ? lim : d;                                                     \
                k[i] = (T)(int32_t)floor_small(d + 0.5f);                                  \
            }                                                                              \
        } else {                                                                           \
            for (size_t i = 0; i < cnt; i++)                                               \
                k[i] = (T)(int32_t)floor_small((a + b * z[i]) + 0.5f);                     \
        }                                                                                  \
    }

DEFINE_LEVELS(int16_t, i16)
DEFINE_LEVELS(int32_t, i32)

static void apply_u8(const uint8_t *x, const int16_t *k, size_t m, uint8_t *y) {
    for (size_t i = 0; i < m; i++) {
        int16_t v = (int16_t)(x[i] + k[i]);
        v = v < 0 ? 0 : v;
        y[i] = (uint8_t)(v > 255 ? 255 : v);
    }
}

static void apply_u16(const uint16_t *x, const int32_t *k, size_t m, uint16_t *y) {
    for (size_t i = 0; i < m; i++) {
        int32_t v = x[i] + k[i];
        v = v < 0 ? 0 : v;
        y[i] = (uint16_t)(v > 65535 ? 65535 : v);
    }
}

/* Float images: y = clamp(x + n, 0, 1), n = mean + sd * z; a NaN pixel fails both
 * comparisons and stays NaN. Alpha is put back afterwards by the caller. */
#define DEFINE_FLOAT(T, SUF)                                                               \
    static void noise_##SUF(const float *z, size_t cnt, T mean, T sd, T *v) {              \
        for (size_t i = 0; i < cnt; i++)                                                   \
            v[i] = mean + sd * (T)z[i];                                                    \
    }                                                                                      \
    static void apply_##SUF(const T *x, const T *nz, size_t m, T *y) {                     \
        for (size_t i = 0; i < m; i++) {                                                   \
            T v = x[i] + nz[i];                                                            \
            v = v < (T)0 ? (T)0 : v;                                                       \
            y[i] = v > (T)1 ? (T)1 : v;                                                    \
        }                                                                                  \
    }                                                                                      \
    static void apply_alpha_##SUF(const T *x, const T *nz, size_t n, T *y) {               \
        T a[CHUNK];                                                                        \
        for (size_t i = 0; i < n; i++)                                                     \
            a[i] = x[4 * i + 3]; /* y may be x */                                          \
        apply_##SUF(x, nz, 4 * n, y);                                                      \
        for (size_t i = 0; i < n; i++)                                                     \
            y[4 * i + 3] = a[i];                                                           \
    }

DEFINE_FLOAT(float, f32)
DEFINE_FLOAT(double, f64)

/* Strided pixels <-> a contiguous buffer, for rows that are not contiguous. The item
 * size is a constant in each copy, so the byte moves compile to plain loads/stores. */
#define DEFINE_MOVES(T, SUF)                                                               \
    static void gather_##SUF(const char *src, ptrdiff_t ps, ptrdiff_t cs, size_t n,        \
                             size_t C, T *dst) {                                           \
        for (size_t i = 0; i < n; i++)                                                     \
            for (size_t c = 0; c < C; c++)                                                 \
                memcpy(dst + i * C + c, src + (ptrdiff_t)i * ps + (ptrdiff_t)c * cs,       \
                       sizeof(T));                                                         \
    }                                                                                      \
    static void scatter_##SUF(const T *src, size_t n, size_t C, char *dst, ptrdiff_t ps,   \
                              ptrdiff_t cs) {                                              \
        for (size_t i = 0; i < n; i++)                                                     \
            for (size_t c = 0; c < C; c++)                                                 \
                memcpy(dst + (ptrdiff_t)i * ps + (ptrdiff_t)c * cs, src + i * C + c,       \
                       sizeof(T));                                                         \
    }

DEFINE_MOVES(uint8_t, 1)
DEFINE_MOVES(uint16_t, 2)
DEFINE_MOVES(uint32_t, 4)
DEFINE_MOVES(uint64_t, 8)

static void gather(const char *src, ptrdiff_t ps, ptrdiff_t cs, size_t n, size_t C,
                   size_t isz, void *dst) {
    switch (isz) {
    case 1:
        gather_1(src, ps, cs, n, C, (uint8_t *)dst);
        break;
    case 2:
        gather_2(src, ps, cs, n, C, (uint16_t *)dst);
        break;
    case 4:
        gather_4(src, ps, cs, n, C, (uint32_t *)dst);
        break;
    default:
        gather_8(src, ps, cs, n, C, (uint64_t *)dst);
        break;
    }
}

static void scatter(const void *src, size_t n, size_t C, size_t isz, char *dst,
                    ptrdiff_t ps, ptrdiff_t cs) {
    switch (isz) {
    case 1:
        scatter_1((const uint8_t *)src, n, C, dst, ps, cs);
        break;
    case 2:
        scatter_2((const uint16_t *)src, n, C, dst, ps, cs);
        break;
    case 4:
        scatter_4((const uint32_t *)src, n, C, dst, ps, cs);
        break;
    default:
        scatter_8((const uint64_t *)src, n, C, dst, ps, cs);
        break;
    }
}

static const size_t item_size[4] = {1, 2, 4, 8};

void FN_KERNEL(fn_camera_rows)(const fn_camera_job *job, size_t row0, size_t row1) {
    const size_t W = job->width, C = job->channels;
    const size_t P = job->pitch ? job->pitch : W; /* pixel indices per row */
    const size_t nc = C == 4 ? 3 : C;
    const size_t per_pixel = job->per_channel ? nc : 1; /* normals per pixel */
    const size_t isz = item_size[job->dtype];
    const int alpha = C == 4;
    const int ogre2 = job->variant == FN_CAM_OGRE2;
    const float mean32 = (float)job->mean, sd32 = (float)job->stddev;
    /* Levels of integer images. The range limit is only a guard against overflow
     * (int16/int32 sums, floor_small's |t| < 2^22): a d somewhat beyond S + 1 still
     * clamps correctly. Bound |z| generously (the float32 stream keeps |z| < 7, see
     * normal.h; 9 covers any stream layout) and skip the limit when |d| < S. */
    const float a8 = 255.0f * mean32, b8 = 255.0f * sd32;
    const float a16 = 65535.0f * mean32, b16 = 65535.0f * sd32;
    const double zmax = ogre2 ? 101.0 : 9.0; /* 9^2.1 < 101 */
    const int limit8 = fabs((double)a8) + (double)b8 * zmax >= 255.0;
    const int limit16 = fabs((double)a16) + (double)b16 * zmax >= 65535.0;
    const ptrdiff_t pix = (ptrdiff_t)(C * isz);
    const int in_flat = job->in_pix == pix && (C == 1 || job->in_ch == (ptrdiff_t)isz);
    const int out_flat = job->out_pix == pix && (C == 1 || job->out_ch == (ptrdiff_t)isz);

    float z[CHUNK * 3];
    union {
        int16_t i16[CHUNK * 3];
        int32_t i32[CHUNK * 3];
        float f32[CHUNK * 3];
        double f64[CHUNK * 3];
    } buf; /* one noise value per normal */
    union {
        int16_t i16[CHUNK * 4];
        int32_t i32[CHUNK * 4];
        float f32[CHUNK * 4];
        double f64[CHUNK * 4];
    } spread; /* one per channel element */
    union {
        const int16_t *i16;
        const int32_t *i32;
        const float *f32;
        const double *f64;
    } nz;
    double tin[CHUNK * 4], tout[CHUNK * 4]; /* gather buffers, any item size */

    for (size_t row = row0; row < row1; row++) {
        const char *irow = (const char *)job->in + (ptrdiff_t)row * job->in_row;
        char *orow = (char *)job->out + (ptrdiff_t)row * job->out_row;
        for (size_t x0 = 0; x0 < W; x0 += CHUNK) {
            const size_t n = W - x0 < CHUNK ? W - x0 : CHUNK;
            const size_t m = n * C;
            const size_t nz_count = n * per_pixel;
            fn_normal_fill_f32(job->key, job->frame,
                               (job->pixel0 + row * P + x0) * per_pixel, nz_count, 0.0f,
                               1.0f, z);
            if (ogre2)
                for (size_t i = 0; i < nz_count; i++)
                    z[i] = ogre2_shape(z[i]);

            const void *src;
            void *dst = out_flat ? (void *)(orow + (ptrdiff_t)x0 * job->out_pix) : tout;
            if (in_flat) {
                src = irow + (ptrdiff_t)x0 * job->in_pix;
            } else {
                gather(irow + (ptrdiff_t)x0 * job->in_pix, job->in_pix, job->in_ch, n, C,
                       isz, tin);
                src = tin;
            }
            switch (job->dtype) {
            case FN_CAM_U8:
                levels_i16(z, nz_count, a8, b8, 256.0f, limit8, buf.i16);
                nz.i16 = C == 4 && !job->per_channel && FN_LITTLE_ENDIAN
                             ? spread_rgba_i16(buf.i16, n, spread.i16)
                             : spread_i16(buf.i16, n, C, job->per_channel, spread.i16);
                apply_u8((const uint8_t *)src, nz.i16, m, (uint8_t *)dst);
                break;
            case FN_CAM_U16:
                levels_i32(z, nz_count, a16, b16, 65536.0f, limit16, buf.i32);
                nz.i32 = spread_i32(buf.i32, n, C, job->per_channel, spread.i32);
                apply_u16((const uint16_t *)src, nz.i32, m, (uint16_t *)dst);
                break;
            case FN_CAM_F32:
                noise_f32(z, nz_count, mean32, sd32, buf.f32);
                nz.f32 = spread_f32(buf.f32, n, C, job->per_channel, spread.f32);
                if (alpha)
                    apply_alpha_f32((const float *)src, nz.f32, n, (float *)dst);
                else
                    apply_f32((const float *)src, nz.f32, m, (float *)dst);
                break;
            default:
                noise_f64(z, nz_count, job->mean, job->stddev, buf.f64);
                nz.f64 = spread_f64(buf.f64, n, C, job->per_channel, spread.f64);
                if (alpha)
                    apply_alpha_f64((const double *)src, nz.f64, n, (double *)dst);
                else
                    apply_f64((const double *)src, nz.f64, m, (double *)dst);
                break;
            }
            if (!out_flat)
                scatter(tout, n, C, isz, orow + (ptrdiff_t)x0 * job->out_pix, job->out_pix,
                        job->out_ch);
        }
    }
}
