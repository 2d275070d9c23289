/* Camera amplifier noise: Gazebo's per-pixel Gaussian shader, on the CPU.
 *
 * Pixel j = y * width + x (y and x counted in the full frame) of frame f takes the standard
 * normal Z from the canonical float32 stream (csrc/normal.h) with stream id f:
 *   shared noise (default): Z = z_j, added to every colour channel;
 *   per-channel noise:      channel c takes z_{j * nc + c}, nc = colour channels.
 * The noise n, in the image's [0, 1] intensity units: gazebo n = mean + stddev * Z;
 * ogre2 n = sign(z) |z|^2.1 of the scaled sample z = mean + stddev * Z (gz-rendering's
 * Ogre 2 shader), with fn_exp/fn_log; float32, float64 for float64 images. Then
 *   stored values (linear_light 0):
 *   uint8/uint16 (full range S = 255/65535): the noise in levels d (gazebo a + b * Z
 *     with a = S * mean, b = S * stddev; ogre2 S * n), k = floor(d + 0.5), all in
 *     float32, then y = clamp(x + k, 0, S) in integers; in exact arithmetic that is
 *     S * clamp(x / S + n, 0, 1) rounded half up;
 *   float32: y = clamp(x + n, 0, 1) in float32; float64: the same in float64 (n too,
 *     from the float32 Z). NaN pixels stay NaN.
 *   linear light (linear_light 1, an sRGB render target as Ogre 2 uses): the stored
 *     value is decoded to linear light, the noise added there and clamped, and the
 *     result encoded back (IEC 61966-2-1 transfer functions); integer images use x / S
 *     and round S * enc(...) half up.
 * The per-value arithmetic is camera_pixel.h (plain scalars, for GPU ports too).
 * A fourth channel is alpha: copied unchanged. Normals are generated in small chunks
 * and applied at once, so no image-sized noise array exists, and the result does not
 * depend on how the rows are split (bands, threads) or on the SIMD path.
 */
#ifndef FN_CAMERA_H
#define FN_CAMERA_H

#include <stddef.h>
#include <stdint.h>

#include "simd.h"

enum { FN_CAM_U8 = 0, FN_CAM_U16 = 1, FN_CAM_F32 = 2, FN_CAM_F64 = 3 };
enum { FN_CAM_GAZEBO = 0, FN_CAM_OGRE2 = 1, FN_CAM_OGRE2_RGBD = 2 };

/* One image and the noise to apply to it. Strides are in bytes and may be negative;
 * `in` and `out` point at element [0, 0, 0] and may be the same array (in place). */
typedef struct {
    uint64_t key;
    uint64_t frame;   /* Philox stream id */
    uint64_t pixel0;  /* pixel index j of element [0, 0]: row_offset * pitch + col_offset */
    double mean;      /* added to Z * stddev, [0, 1] intensity units */
    double stddev;    /* >= 0 */
    int per_channel;  /* independent Z per colour channel */
    int variant;      /* FN_CAM_GAZEBO, FN_CAM_OGRE2 or FN_CAM_OGRE2_RGBD */
    int linear_light; /* add the noise in linear light (sRGB-encoded image) */
    int dtype;        /* FN_CAM_U8 ... FN_CAM_F64 */
    size_t width;     /* pixels per row */
    size_t pitch;     /* pixel indices per row (the full frame's width); 0: width */
    size_t channels;  /* 1, 3 or 4 (the 4th is alpha) */
    const void *in;
    ptrdiff_t in_row, in_pix, in_ch;
    void *out;
    ptrdiff_t out_row, out_pix, out_ch;
    double radius_cap; /* FN_CAM_OGRE2_RGBD: the normal's cap (fn_depth_cap) */
} fn_camera_job;

/* Noise rows [row0, row1) of the job's image (GIL-free, thread-safe for disjoint
 * row ranges). Returns 0, or -1 (nothing written) when a normal index of those rows,
 * (pixel0 + row1 * pitch) * normals per pixel, would reach 2^64 (it would wrap and
 * repeat the stream's first normals). */
int fn_camera_apply(const fn_camera_job *job, size_t row0, size_t row1);

/* FN_CAM_OGRE2_RGBD, which fn_camera_apply hands over to (camera_rgbd.c): the colour of
 * gz-sensors' RGB-D camera (gz-rendering gaussian_noise_depth_fs.glsl). Pixel j's normal
 * z is normal j capped by its partner, normal 2^63 + j (fn_depth_cap with radius_cap);
 * zs = mean + stddev z, n = sign(zs) |zs|^2.1, c = clamp(x + n, 0, 1) on the stored
 * value (integer images: x / S, then int(c S), truncated; NaN pixels kept), the same n
 * on every colour channel, alpha copied. Each step in the image's type (float32 but
 * for float64 images), so the bits are those of the numpy reference. Returns 0, or -1
 * (nothing written) when a pixel index of those rows would reach 2^63. */
int fn_camera_rgbd_rows(const fn_camera_job *job, size_t row0, size_t row1);

FN_DECLARE_KERNEL(void, fn_camera_rows,
                  (const fn_camera_job *job, size_t row0, size_t row1))

#endif
