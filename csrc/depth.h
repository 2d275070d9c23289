/* Gazebo's depth-camera noise on depth images, in metres (fastnoise.models.camera.depth).
 *
 * Pixel j of frame f takes float32 normal j of stream f under the camera's key (the very
 * normal ImageNoise draws for that pixel, csrc/camera.h), and in the image's type T,
 * with contraction off (each operation rounds):
 *   n = T(z) * T(stddev) + T(mean);  y = d + n;
 *   a NaN depth is returned as it is (its own bits); +-inf plus the finite noise stays
 *   +-inf; then gz-rendering's clip: y > far -> +inf, y < near -> -inf (each only when
 *   set; far and near already moved by the shader's tolerance). Branch-free selects, so
 *   the loop vectorizes and the clip costs nothing for images with many far returns.
 * With radius_cap > 0 the normal is first capped as the shader's is (fn_depth_cap).
 */
#ifndef FN_DEPTH_H
#define FN_DEPTH_H

#include <stddef.h>
#include <stdint.h>

#include <math.h>

#include "fnhd.h" /* FN_INLINE */
#include "simd.h"

typedef struct {
    uint64_t key, frame;
    double mean, stddev; /* m */
    int clip_far, clip_near;
    double far, near;  /* m, the clip thresholds (tolerance included) */
    double radius_cap; /* > 0: the normal's Box-Muller radius is capped here (see below) */
} fn_depth_params;

/* gz-rendering's depth noise shader (gaussian_noise_depth_fs.glsl) draws its normal by
 * Box-Muller from uniforms clamped to [0.001, 1], so the radius sqrt(-2 ln U) never
 * exceeds sqrt(-2 ln 0.001). With radius_cap = that bound, pixel j's normal z1 is scaled
 * by radius_cap / r where r = hypot(z1, z2) > radius_cap, z2 being normal 2**63 + j of
 * the same stream (the Box-Muller pair's other coordinate): the shader's distribution
 * exactly. r in double from the exact products of the floats, one rounding each. */
FN_INLINE float fn_depth_cap(float z1, float z2, double cap) {
    double r = sqrt((double)z1 * (double)z1 + (double)z2 * (double)z2);
    return r > cap ? (float)((double)z1 * (cap / r)) : z1;
}

/* Pixels [first, first + n) of a flat, C-contiguous image d into out (which may be d). */
void fn_depth_noise_f32(const fn_depth_params *p, uint64_t first, size_t n, const float *d,
                        float *out);
void fn_depth_noise_f64(const fn_depth_params *p, uint64_t first, size_t n, const double *d,
                        double *out);

FN_DECLARE_KERNEL(void, fn_depth_chunk_f32,
                  (const fn_depth_params *p, size_t n, const float *d, const float *z,
                   float *out))
FN_DECLARE_KERNEL(void, fn_depth_chunk_f64,
                  (const fn_depth_params *p, size_t n, const double *d, const float *z,
                   double *out))

#endif
