/* Camera noise over image rows, compiled once per SIMD target (see camera.h for the
 * model). Each step takes up to CHUNK pixels of one row: their normals go into a stack
 * buffer, become one noise value per channel, and are added in a flat loop that the
 * compiler vectorizes. The arithmetic of each value is in camera_pixel.h (shared with
 * GPU ports): only +, -, *, /, selects, exact conversions, floor (exact) and the
 * fnmath.h functions, so every target writes the same bits. */
#include <math.h>
#include <string.h>
#if defined(__SSSE3__)
#include <tmmintrin.h>
#endif

#include "camera.h"
#include "camera_pixel.h"
#include "normal.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FN_LITTLE_ENDIAN 1
#else
#define FN_LITTLE_ENDIAN 0
#endif

#define CHUNK 512 /* pixels per step: the buffers stay in L1 */

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

/* RGB offsets of uint8 images, one value per pixel: (v, v, v) per pixel. With SSSE3
 * (the AVX2 and AVX-512 targets) 8 values become 24 by three byte shuffles; the
 * generic loop above stores them one by one. The same values either way. */
static const int16_t *spread_rgb_i16(const int16_t *v, size_t n, int16_t *out) {
    size_t i = 0;
#if defined(__SSSE3__)
    /* the int16 lanes of v each 128-bit third of the output takes, as byte pairs */
#define FN_LANE(k) (char)(2 * (k)), (char)(2 * (k) + 1)
    const __m128i s0 = _mm_setr_epi8(FN_LANE(0), FN_LANE(0), FN_LANE(0), FN_LANE(1),
                                     FN_LANE(1), FN_LANE(1), FN_LANE(2), FN_LANE(2));
    const __m128i s1 = _mm_setr_epi8(FN_LANE(2), FN_LANE(3), FN_LANE(3), FN_LANE(3),
                                     FN_LANE(4), FN_LANE(4), FN_LANE(4), FN_LANE(5));
    const __m128i s2 = _mm_setr_epi8(FN_LANE(5), FN_LANE(5), FN_LANE(6), FN_LANE(6),
                                     FN_LANE(6), FN_LANE(7), FN_LANE(7), FN_LANE(7));
#undef FN_LANE
    for (; i + 8 <= n; i += 8) {
        __m128i x = _mm_loadu_si128((const __m128i *)(v + i));
        _mm_storeu_si128((__m128i *)(out + 3 * i), _mm_shuffle_epi8(x, s0));
        _mm_storeu_si128((__m128i *)(out + 3 * i + 8), _mm_shuffle_epi8(x, s1));
        _mm_storeu_si128((__m128i *)(out + 3 * i + 16), _mm_shuffle_epi8(x, s2));
    }
#endif
    for (; i < n; i++) {
        out[3 * i] = v[i];
        out[3 * i + 1] = v[i];
        out[3 * i + 2] = v[i];
    }
    return out;
}

/* Integer images, noise on the stored levels: the noise in levels d (gazebo:
 * a + b * z with a = S * mean, b = S * stddev; ogre2: S * shape(mean + stddev * z)),
 * rounded half up to k = floor(d + 0.5); then y = clamp(x + k, 0, S), which equals
 * clamp(floor(x + d + 0.5), 0, S) because x is an integer, and an alpha offset of 0
 * leaves alpha as it was. Where |d| could be large it is limited to [-(S+1), S+1]
 * first (fn_cam_limit: no result changes); where it cannot (the usual gazebo case) the
 * limit is skipped. */
#define DEFINE_LEVELS(T, SUF)                                                              \
    static void levels_##SUF(const float *z, size_t cnt, float a, float b, float lim,      \
                             int limit, T *k) {                                            \
        if (limit) {                                                                       \
            for (size_t i = 0; i < cnt; i++)                                               \
                k[i] = (T)fn_cam_round_level(                                              \
                    fn_cam_limit(fn_cam_levels_gazebo(z[i], a, b), lim));                  \
        } else {                                                                           \
            for (size_t i = 0; i < cnt; i++)                                               \
                k[i] = (T)fn_cam_round_level(fn_cam_levels_gazebo(z[i], a, b));            \
        }                                                                                  \
    }                                                                                      \
    static void levels_ogre2_##SUF(const float *z, size_t cnt, float mean, float sd,       \
                                   float scale, float lim, T *k) {                         \
        for (size_t i = 0; i < cnt; i++)                                                   \
            k[i] = (T)fn_cam_round_level(                                                  \
                fn_cam_limit(fn_cam_levels_ogre2(z[i], mean, sd, scale), lim));            \
    }

DEFINE_LEVELS(int16_t, i16)
DEFINE_LEVELS(int32_t, i32)

/* fn_cam_clamp_level in int16 (x + k is within +-511), so it vectorizes at 16 bits. */
static void apply_u8(const uint8_t *x, const int16_t *k, size_t m, uint8_t *y) {
    for (size_t i = 0; i < m; i++) {
        int16_t v = (int16_t)(x[i] + k[i]);
        v = v < 0 ? 0 : v;
        y[i] = (uint8_t)(v > 255 ? 255 : v);
    }
}

static void apply_u16(const uint16_t *x, const int32_t *k, size_t m, uint16_t *y) {
    for (size_t i = 0; i < m; i++)
        y[i] = (uint16_t)fn_cam_clamp_level(x[i] + k[i], 65535);
}

/* Integer images in linear light: y = round(S enc(clamp(dec(x / S) + n, 0, 1))), n in
 * full-scale units (float32); uint8 takes dec from a table of its 256 levels (the same
 * function, so the same bits). Alpha is put back afterwards by the caller. */
static void linear_u8(const uint8_t *x, const float *nz, size_t m, const float *lut,
                      uint8_t *y) {
    for (size_t i = 0; i < m; i++)
        y[i] = (uint8_t)fn_cam_linear_level(lut[x[i]], nz[i], 255.0f, 255);
}

static void linear_u16(const uint16_t *x, const float *nz, size_t m, uint16_t *y) {
    for (size_t i = 0; i < m; i++)
        y[i] = (uint16_t)fn_cam_linear_level(fn_cam_level_to_linear(x[i], 65535.0f), nz[i],
                                             65535.0f, 65535);
}

/* Noise values n = mean + sd * z, or their ogre2 shaping (two loops, so the gazebo
 * one stays a plain multiply-add). */
static void noise_f32(const float *z, size_t cnt, float mean, float sd, int ogre2,
                      float *v) {
    if (ogre2)
        for (size_t i = 0; i < cnt; i++)
            v[i] = fn_cam_noise_f32(z[i], mean, sd, 1);
    else
        for (size_t i = 0; i < cnt; i++)
            v[i] = fn_cam_noise_f32(z[i], mean, sd, 0);
}

static void noise_f64(const float *z, size_t cnt, double mean, double sd, int ogre2,
                      double *v) {
    if (ogre2)
        for (size_t i = 0; i < cnt; i++)
            v[i] = fn_cam_noise_f64(z[i], mean, sd, 1);
    else
        for (size_t i = 0; i < cnt; i++)
            v[i] = fn_cam_noise_f64(z[i], mean, sd, 0);
}

/* Float images: y = clamp(x + n, 0, 1) (a NaN pixel stays NaN), or in linear light
 * y = enc(clamp(dec(x) + n, 0, 1)). */
#define DEFINE_FLOAT(T, SUF)                                                               \
    static void apply_##SUF(const T *x, const T *nz, size_t m, int linear, T *y) {         \
        if (linear)                                                                        \
            for (size_t i = 0; i < m; i++)                                                 \
                y[i] = fn_cam_linear_add_##SUF(x[i], nz[i]);                               \
        else                                                                               \
            for (size_t i = 0; i < m; i++)                                                 \
                y[i] = fn_cam_add_##SUF(x[i], nz[i]);                                      \
    }

DEFINE_FLOAT(float, f32)
DEFINE_FLOAT(double, f64)

/* Alpha (every 4th element) of n pixels, saved before and put back after a pass that
 * may have changed it (y may be x). */
#define DEFINE_ALPHA(T, SUF)                                                               \
    static void save_alpha_##SUF(const T *x, size_t n, T *a) {                             \
        for (size_t i = 0; i < n; i++)                                                     \
            a[i] = x[4 * i + 3];                                                           \
    }                                                                                      \
    static void put_alpha_##SUF(const T *a, size_t n, T *y) {                              \
        for (size_t i = 0; i < n; i++)                                                     \
            y[4 * i + 3] = a[i];                                                           \
    }

DEFINE_ALPHA(uint8_t, u8)
DEFINE_ALPHA(uint16_t, u16)
DEFINE_ALPHA(float, f32)
DEFINE_ALPHA(double, f64)

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
    const int linear = job->linear_light != 0;
    const float mean32 = (float)job->mean, sd32 = (float)job->stddev;
    /* Levels of integer images (gazebo, stored values). The range limit is only a
     * guard against overflow (int16/int32 sums, fn_cam_floor_small's |t| < 2^22): a d
     * somewhat beyond S + 1 still clamps correctly. Bound |z| generously (the float32
     * stream keeps |z| < 7, see normal.h; 9 covers any stream layout) and skip the
     * limit when |d| < S. The ogre2 levels are always limited. */
    const float a8 = 255.0f * mean32, b8 = 255.0f * sd32;
    const float a16 = 65535.0f * mean32, b16 = 65535.0f * sd32;
    const int limit8 = fabs((double)a8) + (double)b8 * 9.0 >= 255.0;
    const int limit16 = fabs((double)a16) + (double)b16 * 9.0 >= 65535.0;
    const ptrdiff_t pix = (ptrdiff_t)(C * isz);
    const int in_flat = job->in_pix == pix && (C == 1 || job->in_ch == (ptrdiff_t)isz);
    const int out_flat = job->out_pix == pix && (C == 1 || job->out_ch == (ptrdiff_t)isz);

    float lut8[256]; /* linear light of the uint8 levels */
    if (linear && job->dtype == FN_CAM_U8)
        for (int32_t i = 0; i < 256; i++)
            lut8[i] = fn_cam_level_to_linear(i, 255.0f);

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
    union {
        uint8_t u8[CHUNK];
        uint16_t u16[CHUNK];
        float f32[CHUNK];
        double f64[CHUNK];
    } saved;                                /* alpha of the chunk's pixels */
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
                if (linear) {
                    noise_f32(z, nz_count, mean32, sd32, ogre2, buf.f32);
                    nz.f32 = spread_f32(buf.f32, n, C, job->per_channel, spread.f32);
                    if (alpha) save_alpha_u8((const uint8_t *)src, n, saved.u8);
                    linear_u8((const uint8_t *)src, nz.f32, m, lut8, (uint8_t *)dst);
                    if (alpha) put_alpha_u8(saved.u8, n, (uint8_t *)dst);
                    break;
                }
                if (ogre2)
                    levels_ogre2_i16(z, nz_count, mean32, sd32, 255.0f, 256.0f, buf.i16);
                else
                    levels_i16(z, nz_count, a8, b8, 256.0f, limit8, buf.i16);
                if (C == 4 && !job->per_channel && FN_LITTLE_ENDIAN)
                    nz.i16 = spread_rgba_i16(buf.i16, n, spread.i16);
                else if (C == 3 && !job->per_channel)
                    nz.i16 = spread_rgb_i16(buf.i16, n, spread.i16);
                else
                    nz.i16 = spread_i16(buf.i16, n, C, job->per_channel, spread.i16);
                apply_u8((const uint8_t *)src, nz.i16, m, (uint8_t *)dst);
                break;
            case FN_CAM_U16:
                if (linear) {
                    noise_f32(z, nz_count, mean32, sd32, ogre2, buf.f32);
                    nz.f32 = spread_f32(buf.f32, n, C, job->per_channel, spread.f32);
                    if (alpha) save_alpha_u16((const uint16_t *)src, n, saved.u16);
                    linear_u16((const uint16_t *)src, nz.f32, m, (uint16_t *)dst);
                    if (alpha) put_alpha_u16(saved.u16, n, (uint16_t *)dst);
                    break;
                }
                if (ogre2)
                    levels_ogre2_i32(z, nz_count, mean32, sd32, 65535.0f, 65536.0f,
                                     buf.i32);
                else
                    levels_i32(z, nz_count, a16, b16, 65536.0f, limit16, buf.i32);
                nz.i32 = spread_i32(buf.i32, n, C, job->per_channel, spread.i32);
                apply_u16((const uint16_t *)src, nz.i32, m, (uint16_t *)dst);
                break;
            case FN_CAM_F32:
                noise_f32(z, nz_count, mean32, sd32, ogre2, buf.f32);
                nz.f32 = spread_f32(buf.f32, n, C, job->per_channel, spread.f32);
                if (alpha) save_alpha_f32((const float *)src, n, saved.f32);
                apply_f32((const float *)src, nz.f32, m, linear, (float *)dst);
                if (alpha) put_alpha_f32(saved.f32, n, (float *)dst);
                break;
            default:
                noise_f64(z, nz_count, job->mean, job->stddev, ogre2, buf.f64);
                nz.f64 = spread_f64(buf.f64, n, C, job->per_channel, spread.f64);
                if (alpha) save_alpha_f64((const double *)src, n, saved.f64);
                apply_f64((const double *)src, nz.f64, m, linear, (double *)dst);
                if (alpha) put_alpha_f64(saved.f64, n, (double *)dst);
                break;
            }
            if (!out_flat)
                scatter(tout, n, C, isz, orow + (ptrdiff_t)x0 * job->out_pix, job->out_pix,
                        job->out_ch);
        }
    }
}
