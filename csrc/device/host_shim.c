/* The GPU kernels' thread bodies built as host C (tests/test_cuda_host.py compiles this
 * with the system C compiler, contraction off, and compares with the CPU kernels): a
 * loop over thread indices stands in for the grid. */
#include "camera_dev.h"
#include "lidar_dev.h"
#include "normal_dev.h"

#define FN_HOST_NORMAL(T, SUF)                                                             \
    void fn_host_normal_##SUF(uint64_t key, uint64_t stream, uint64_t first, uint64_t n,   \
                              T mean, T stddev, T *out) {                                  \
        uint64_t nt = fn_dev_normal_threads(first, n);                                     \
        for (uint64_t t = 0; t < nt; t++)                                                  \
            fn_dev_normal_fill_##SUF(t, key, stream, first, n, mean, stddev, out);         \
    }

FN_HOST_NORMAL(double, f64)
FN_HOST_NORMAL(float, f32)

/* The camera kernel's arithmetic, one stored value at a time (its normal computed on
 * its own): the same terms and values the GPU kernel computes in tiles. */
void fn_host_camera(uint64_t key, uint64_t frame, uint64_t pixel0, uint64_t pitch,
                    double mean, double stddev, int32_t per_channel, int32_t ogre2,
                    int32_t linear, int32_t dtype, uint64_t width, uint64_t height,
                    uint64_t channels, const char *in, int64_t in_row, int64_t in_pix,
                    int64_t in_ch, char *out, int64_t out_row, int64_t out_pix,
                    int64_t out_ch) {
    const fn_dev_camera p = {mean, stddev, ogre2, linear, dtype};
    const uint64_t C = channels, nc = C == 4 ? 3 : C, per = per_channel ? nc : 1;
    for (uint64_t row = 0; row < height; row++)
        for (uint64_t x = 0; x < width; x++)
            for (uint64_t c = 0; c < C; c++) {
                const char *s =
                    in + (int64_t)row * in_row + (int64_t)x * in_pix + (int64_t)c * in_ch;
                char *d = out + (int64_t)row * out_row + (int64_t)x * out_pix +
                          (int64_t)c * out_ch;
                if (c == 3) {
                    fn_dev_cam_copy(dtype, s, d);
                    continue;
                }
                uint64_t j = (pixel0 + row * pitch + x) * per + (per_channel ? c : 0);
                float z = fn_dev_normal_at_f32(key, frame, j);
                fn_dev_cam_value(&p, fn_dev_cam_term_of(&p, z), s, d);
            }
}

/* Lidar points and ranges, thread by thread. */
#define FN_HOST_LIDAR(T, SUF)                                                              \
    void fn_host_lidar_points_##SUF(uint64_t key, uint64_t frame, uint64_t first,          \
                                    uint64_t n, const double *prm, int32_t angular,        \
                                    int32_t distance, const T *points, const T *dist_in,   \
                                    const uint8_t *mask_in, T *points_out, T *dist_out,    \
                                    uint8_t *mask_out, T *local_out) {                     \
        uint64_t nt = fn_dev_normal_threads(first, n);                                     \
        for (uint64_t t = 0; t < nt; t++)                                                  \
            fn_dev_lidar_points_##SUF(t, key, frame, first, n, prm, angular, distance,     \
                                      points, dist_in, mask_in, points_out, dist_out,      \
                                      mask_out, local_out);                                \
    }                                                                                      \
    void fn_host_range_##SUF(uint64_t key, uint64_t frame, uint64_t first, uint64_t n,     \
                             const double *prm, int32_t noise, int32_t inf_outside,        \
                             const T *in, T *out) {                                        \
        uint64_t nt = fn_dev_normal_threads(first, n);                                     \
        for (uint64_t t = 0; t < nt; t++)                                                  \
            fn_dev_range_##SUF(t, key, frame, first, n, prm, noise, inf_outside, in, out); \
    }

FN_HOST_LIDAR(double, f64)
FN_HOST_LIDAR(float, f32)
