/* Camera noise, one pixel value at a time: the arithmetic of csrc/camera.h as
 * FN_INLINE functions of plain scalars.
 *
 * The CPU kernel (camera_kern.c, compiled once per SIMD target) calls these in its
 * loops, and the GPU kernel (csrc/device/camera_dev.h, nvcc and NVRTC) compiles the same
 * header: FN_INLINE functions (csrc/fnhd.h) of nothing but C operators, fixed-width
 * types and the project's own fnmath.h functions (no intrinsics, no libm
 * transcendentals; divisions by constants are products with their rounded
 * reciprocals), so every target that evaluates them in IEEE float32/float64 without
 * contraction gets the same bits.
 *
 * Names: S is the full scale of an integer image (255 or 65535); Z the standard normal
 * of a pixel (canonical float32 stream); mean and stddev in full-scale units.
 *
 *   noise n        gazebo: n = mean + stddev Z;  ogre2: n = sign(z) |z|^2.1 with
 *                  z = mean + stddev Z (gz-rendering's Ogre 2 shader shapes the scaled
 *                  sample, mean included); float32, or float64 for float64 images.
 *   stored values  (linear_light off) y = clamp(x + n, 0, 1), for integer images in
 *                  levels: k = floor(d + 0.5), y = clamp(x + k, 0, S) with d the noise
 *                  in levels (gazebo: a + b Z with a = S mean, b = S stddev; ogre2:
 *                  S n);
 *   linear light   (linear_light on) y = enc(clamp(dec(x) + n, 0, 1)) with the sRGB
 *                  transfer functions of IEC 61966-2-1; integer images use x / S and
 *                  round S enc(...) half up: what an sRGB render target does to a
 *                  fragment shader's output (gz-rendering Ogre 2).
 */
#ifndef FN_CAMERA_PIXEL_H
#define FN_CAMERA_PIXEL_H

#include "fnmath.h" /* and fnhd.h: FN_INLINE, the fixed-width types */

/* ---- Ogre 2 shaping ----------------------------------------------------------------- */

/* sign(z) |z|^2.1. |z| below the smallest normal float (where fn_log_f32 does not
 * apply, and the true power is below 1e-80) gives 0; z = 0 gives 0. */
FN_INLINE float fn_cam_shape_f32(float z) {
    float a = z < 0.0f ? -z : z;
    int pos = a >= 0x1p-126f;
    float p = fn_exp_f32(2.1f * fn_log_f32(pos ? a : 1.0f));
    p = pos ? p : 0.0f;
    return z < 0.0f ? -p : p;
}

FN_INLINE double fn_cam_shape_f64(double z) {
    double a = z < 0.0 ? -z : z;
    int pos = a >= 0x1p-1022;
    double p = fn_exp_f64(2.1 * fn_scaled_log_f64(pos ? a : 1.0, 0, 1.0));
    p = pos ? p : 0.0;
    return z < 0.0 ? -p : p;
}

/* The noise n of a pixel (or channel) in full-scale units. */
FN_INLINE float fn_cam_noise_f32(float z, float mean, float stddev, int ogre2) {
    float v = mean + stddev * z;
    return ogre2 ? fn_cam_shape_f32(v) : v;
}

FN_INLINE double fn_cam_noise_f64(float z, double mean, double stddev, int ogre2) {
    double v = mean + stddev * (double)z;
    return ogre2 ? fn_cam_shape_f64(v) : v;
}

/* ---- integer images, noise added to the stored levels ---------------------------------
 */

/* floor(t) for |t| < 2^22, exact. With SSE4.1 floorf is one rounding instruction;
 * elsewhere adding and removing 1.5 * 2^23 rounds to the nearest integer and a select
 * steps down where that went up. The same value either way. */
FN_INLINE float fn_cam_floor_small(float t) {
#if defined(__SSE4_1__) && !defined(__CUDACC__)
    return floorf(t);
#else
    float r = (t + 0x1.8p23f) - 0x1.8p23f;
    return r > t ? r - 1.0f : r;
#endif
}

/* d limited to [-lim, lim], lim = S + 1: x + k is then clamped to the same level as
 * without the limit (x is in [0, S]), and the sums stay small. A no-op for |d| < lim,
 * so a caller that knows |d| < S may skip it. */
FN_INLINE float fn_cam_limit(float d, float lim) {
    d = d < -lim ? -lim : d;
    return d > lim ? lim : d;
}

/* k = floor(d + 0.5): the level offset, rounded half up. */
FN_INLINE int32_t fn_cam_round_level(float d) {
    return (int32_t)fn_cam_floor_small(d + 0.5f);
}

/* The noise in levels before rounding: gazebo d = a + b z (a = S mean, b = S stddev,
 * float32); ogre2 d = S n. */
FN_INLINE float fn_cam_levels_gazebo(float z, float a, float b) {
    return a + b * z;
}

FN_INLINE float fn_cam_levels_ogre2(float z, float mean, float stddev, float scale) {
    return scale * fn_cam_shape_f32(mean + stddev * z);
}

/* y = clamp(x + k, 0, S). */
FN_INLINE int32_t fn_cam_clamp_level(int32_t v, int32_t full) {
    v = v < 0 ? 0 : v;
    return v > full ? full : v;
}

/* ---- float images, noise added to the stored values -----------------------------------
 */

/* y = clamp(x + n, 0, 1); a NaN x is returned as it is (its own bits: arithmetic on a
 * NaN gives the operand's payload on x86 but a canonical NaN on a GPU). */
FN_INLINE float fn_cam_add_f32(float x, float n) {
    float v = x + n;
    v = v < 0.0f ? 0.0f : v;
    v = v > 1.0f ? 1.0f : v;
    return x != x ? x : v; /* the pixel's own NaN, bit for bit on every target */
}

FN_INLINE double fn_cam_add_f64(double x, double n) {
    double v = x + n;
    v = v < 0.0 ? 0.0 : v;
    v = v > 1.0 ? 1.0 : v;
    return x != x ? x : v;
}

/* ---- sRGB transfer functions (IEC 61966-2-1) -------------------------------------------
 */

/* Stored (encoded) value s to linear light: s / 12.92 for s <= 0.04045, else
 * ((s + 0.055) / 1.055)^2.4, written 1 + (s - 1) / 1.055 so that s = 1 gives exactly 1
 * (white stays white). Any finite s (negative ones on the linear segment); NaN stays
 * NaN; +inf gives a large finite value. The standard's two segments meet only to
 * ~5e-9 (its constants are rounded), so floats near 0.04045 round-trip to that. */
FN_INLINE float fn_srgb_to_linear_f32(float s) {
    int pw = s > 0.04045f;
    float t = pw ? s : 1.0f;
    float p = fn_exp_f32(2.4f * fn_log_f32(1.0f + (t - 1.0f) * (1.0f / 1.055f)));
    return pw ? p : s * (1.0f / 12.92f);
}

FN_INLINE double fn_srgb_to_linear_f64(double s) {
    int pw = s > 0.04045;
    double t = pw ? s : 1.0;
    double p = fn_exp_f64(2.4 * fn_scaled_log_f64(1.0 + (t - 1.0) * (1.0 / 1.055), 0, 1.0));
    return pw ? p : s * (1.0 / 12.92);
}

/* Linear light l in [0, 1] (or NaN) to the stored value: 12.92 l for l <= 0.0031308,
 * else 1.055 r - 0.055 with r = l^(1/2.4), written r + 0.055 (r - 1) (exactly 1 at
 * l = 1). */
FN_INLINE float fn_linear_to_srgb_f32(float l) {
    int pw = l > 0.0031308f;
    float t = pw ? l : 1.0f;
    float r = fn_exp_f32(fn_log_f32(t) * (1.0f / 2.4f));
    float p = r + 0.055f * (r - 1.0f);
    return pw ? p : 12.92f * l;
}

FN_INLINE double fn_linear_to_srgb_f64(double l) {
    int pw = l > 0.0031308;
    double t = pw ? l : 1.0;
    double r = fn_exp_f64(fn_scaled_log_f64(t, 0, 1.0) * (1.0 / 2.4));
    double p = r + 0.055 * (r - 1.0);
    return pw ? p : 12.92 * l;
}

/* ---- linear light: decode, add, clamp, encode ------------------------------------------
 */

/* Float images: y = clamp(enc(clamp(dec(x) + n, 0, 1)), 0, 1); NaN stays NaN (the
 * outer clamp only guards the last rounding of enc near 1). */
FN_INLINE float fn_cam_linear_add_f32(float x, float n) {
    float y = fn_cam_add_f32(
        fn_linear_to_srgb_f32(fn_cam_add_f32(fn_srgb_to_linear_f32(x), n)), 0.0f);
    return x != x ? x : y;
}

FN_INLINE double fn_cam_linear_add_f64(double x, double n) {
    double y = fn_cam_add_f64(
        fn_linear_to_srgb_f64(fn_cam_add_f64(fn_srgb_to_linear_f64(x), n)), 0.0);
    return x != x ? x : y;
}

/* Integer images, from the level's linear value lin = dec(x / S) (a caller may take
 * it from a table of dec over the levels): y = clamp(floor(S enc(clamp(lin + n, 0, 1))
 * + 0.5), 0, S). */
FN_INLINE int32_t fn_cam_linear_level(float lin, float n, float scale, int32_t full) {
    float e = fn_linear_to_srgb_f32(fn_cam_add_f32(lin, n));
    return fn_cam_clamp_level(fn_cam_round_level(scale * e), full);
}

/* The linear value of level x of an integer image with full scale S. */
FN_INLINE float fn_cam_level_to_linear(int32_t x, float scale) {
    return fn_srgb_to_linear_f32((float)x * (1.0f / scale));
}

#endif
