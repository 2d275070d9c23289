/* Camera noise on the GPU, element by element: the composition of csrc/camera_pixel.h
 * that the CPU kernel (camera_kern.c) applies, for one normal and one stored value.
 *
 * A pixel's normal, and so its noise term, depends only on its normal index
 * (csrc/camera.h): j = (pixel0 + row * pitch + x) * per_pixel + c, with per_pixel = 1
 * and c = 0 for shared noise, per_pixel = c-range = colour channels for per-channel
 * noise. fn_dev_cam_term turns a normal into the term the value needs (an integer
 * level offset, or the noise in intensity units in float32 or float64);
 * fn_dev_cam_value applies a term to one stored value. An alpha channel is copied.
 */
#ifndef FN_CAMERA_DEV_H
#define FN_CAMERA_DEV_H

#include "../camera_pixel.h"
#include "../fnhd.h"
#include "../normal_pair.h"

enum { FN_DEV_CAM_U8 = 0, FN_DEV_CAM_U16 = 1, FN_DEV_CAM_F32 = 2, FN_DEV_CAM_F64 = 3 };

/* The parameters of one call, as camera.h's job (without the arrays). */
typedef struct {
    double mean, stddev;
    int32_t ogre2, linear, dtype;
} fn_dev_camera;

/* A normal's noise term: `level` for integer images without linear light, `f` for
 * float32 images and integer images in linear light, `d` for float64 images. */
typedef union {
    int32_t level;
    float f;
    double d;
} fn_dev_cam_term;

FN_INLINE fn_dev_cam_term fn_dev_cam_term_of(const fn_dev_camera *p, float z) {
    fn_dev_cam_term t;
    const float mean32 = (float)p->mean, sd32 = (float)p->stddev;
    if (p->dtype == FN_DEV_CAM_F64) {
        t.d = fn_cam_noise_f64(z, p->mean, p->stddev, p->ogre2);
    } else if (p->dtype == FN_DEV_CAM_F32 || p->linear) {
        t.f = fn_cam_noise_f32(z, mean32, sd32, p->ogre2);
    } else {
        /* stored levels: the CPU kernel limits d to [-(S + 1), S + 1] where |d| could
         * reach S and skips it where it cannot; limiting always gives the same level
         * (the limit changes nothing below S + 1, and above it x + k clamps to S
         * either way) */
        const float full = p->dtype == FN_DEV_CAM_U8 ? 255.0f : 65535.0f;
        float d = p->ogre2 ? fn_cam_levels_ogre2(z, mean32, sd32, full)
                           : fn_cam_levels_gazebo(z, full * mean32, full * sd32);
        t.level = fn_cam_round_level(fn_cam_limit(d, full + 1.0f));
    }
    return t;
}

/* One stored value: read from `src`, written to `dst` (which may be `src`). */
FN_INLINE void fn_dev_cam_value(const fn_dev_camera *p, fn_dev_cam_term t, const void *src,
                                void *dst) {
    switch (p->dtype) {
    case FN_DEV_CAM_U8: {
        int32_t x = *(const uint8_t *)src;
        int32_t y = p->linear ? fn_cam_linear_level(fn_cam_level_to_linear(x, 255.0f), t.f,
                                                    255.0f, 255)
                              : fn_cam_clamp_level(x + t.level, 255);
        *(uint8_t *)dst = (uint8_t)y;
        break;
    }
    case FN_DEV_CAM_U16: {
        int32_t x = *(const uint16_t *)src;
        int32_t y = p->linear ? fn_cam_linear_level(fn_cam_level_to_linear(x, 65535.0f),
                                                    t.f, 65535.0f, 65535)
                              : fn_cam_clamp_level(x + t.level, 65535);
        *(uint16_t *)dst = (uint16_t)y;
        break;
    }
    case FN_DEV_CAM_F32: {
        float x = *(const float *)src;
        *(float *)dst = p->linear ? fn_cam_linear_add_f32(x, t.f) : fn_cam_add_f32(x, t.f);
        break;
    }
    default: {
        double x = *(const double *)src;
        *(double *)dst = p->linear ? fn_cam_linear_add_f64(x, t.d) : fn_cam_add_f64(x, t.d);
        break;
    }
    }
}

/* An alpha value, copied. */
FN_INLINE void fn_dev_cam_copy(int32_t dtype, const void *src, void *dst) {
    switch (dtype) {
    case FN_DEV_CAM_U8:
        *(uint8_t *)dst = *(const uint8_t *)src;
        break;
    case FN_DEV_CAM_U16:
        *(uint16_t *)dst = *(const uint16_t *)src;
        break;
    case FN_DEV_CAM_F32:
        *(uint32_t *)dst = *(const uint32_t *)src;
        break;
    default:
        *(uint64_t *)dst = *(const uint64_t *)src;
        break;
    }
}

/* The standard normal of index j of (key, frame) in float32, computed on its own (the
 * host check's way; the GPU kernel computes whole blocks into shared memory). */
FN_INLINE float fn_dev_normal_at_f32(uint64_t key, uint64_t stream, uint64_t j) {
    uint64_t g = j >> 4, k = j & 15;
    uint64_t pair = k & 7; /* pair 8g + pair; cosine for k < 8, sine for k >= 8 */
    float z[4];
    fn_block_normals_f32(key, stream, g * 4 + (pair >> 1), z);
    return z[(pair & 1) + (k >= 8 ? 2 : 0)];
}

#endif
