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
 */
#ifndef FN_DEPTH_H
#define FN_DEPTH_H

#include <stddef.h>
#include <stdint.h>

#include "simd.h"

typedef struct {
    uint64_t key, frame;
    double mean, stddev; /* m */
    int clip_far, clip_near;
    double far, near; /* m, the clip thresholds (tolerance included) */
} fn_depth_params;

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
