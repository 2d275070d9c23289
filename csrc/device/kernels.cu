/* fastnoise's GPU kernels: thin __global__ wrappers around the per-thread bodies in
 * csrc/device/ (the *_dev.h headers), which use the arithmetic headers of the CPU kernels.
 * Compiled at run time by NVRTC through CuPy (fastnoise.cuda) and, in CI, by nvcc,
 * always with --fmad=false --prec-sqrt=true --prec-div=true. */
#include "camera_dev.h"
#include "lidar_dev.h"
#include "normal_dev.h"

#define FN_TID() ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x)

/* Normal fills. float64: one thread per Philox block; a block wholly inside the fill,
 * at an even offset of an aligned output, stores its values as two pairs
 * (z_i0, z_i0+1) and (z_i0+8, z_i0+9), so four neighbouring threads fill two whole
 * 32-byte sectors. float32: one thread per two neighbouring blocks (4g + 2h, 4g + 2h + 1),
 * whose cosines are the four normals 16g + 4h ... 16g + 4h + 3 and whose sines the four
 * eight places on: two 16-byte stores, two threads filling each 32-byte sector, and the
 * key schedule and index arithmetic shared by two blocks. Blocks at the ends of the
 * fill, or at offsets or addresses that do not allow the wide stores, store value by
 * value. The values are fn_dev_normal_values_* (csrc/device/normal_dev.h) either way. */
FN_INLINE void fn_cuda_store_part_f64(const double v[4], uint64_t i0, uint64_t first,
                                      uint64_t n, double *out) {
    uint64_t idx[4] = {i0, i0 + 1, i0 + 8, i0 + 9};
    for (int k = 0; k < 4; k++) {
        uint64_t jk = idx[k] - first; /* wraps to a huge value below first */
        if (idx[k] >= first && jk < n) out[jk] = v[k];
    }
}

FN_INLINE void fn_cuda_store_part_f32(const float v[4], uint64_t i0, uint64_t first,
                                      uint64_t n, float *out) {
    uint64_t idx[4] = {i0, i0 + 1, i0 + 8, i0 + 9};
    for (int k = 0; k < 4; k++) {
        uint64_t jk = idx[k] - first;
        if (idx[k] >= first && jk < n) out[jk] = v[k];
    }
}

extern "C" __global__ void __launch_bounds__(256)
    fn_cuda_normal_f64(uint64_t key, uint64_t stream, uint64_t first, uint64_t n,
                       uint64_t nthreads, double mean, double stddev, double *out) {
    uint64_t t = FN_TID();
    if (t >= nthreads) return;
    double v[4];
    uint64_t i0 = fn_dev_normal_values_f64(t, key, stream, first, mean, stddev, v);
    uint64_t j = i0 - first;
    if (i0 >= first && j + 9 < n && (j & 1) == 0 && ((uint64_t)out & 15) == 0) {
        double2 *p = (double2 *)(out + j);
        p[0] = make_double2(v[0], v[1]);
        p[4] = make_double2(v[2], v[3]);
        return;
    }
    fn_cuda_store_part_f64(v, i0, first, n, out);
}

/* nthreads = blocks / 2 (blocks = fn_dev_normal_threads, a multiple of 4). */
extern "C" __global__ void __launch_bounds__(256)
    fn_cuda_normal_f32(uint64_t key, uint64_t stream, uint64_t first, uint64_t n,
                       uint64_t nthreads, float mean, float stddev, float *out) {
    uint64_t t = FN_TID();
    if (t >= nthreads) return;
    float a[4], b[4];
    uint64_t ia = fn_dev_normal_values_f32(2 * t, key, stream, first, mean, stddev, a);
    uint64_t ib = fn_dev_normal_values_f32(2 * t + 1, key, stream, first, mean, stddev, b);
    uint64_t j = ia - first;
    if (ia >= first && j + 11 < n && (j & 3) == 0 && ((uint64_t)out & 15) == 0) {
        float4 *p = (float4 *)(out + j);
        p[0] = make_float4(a[0], a[1], b[0], b[1]);
        p[2] = make_float4(a[2], a[3], b[2], b[3]);
        return;
    }
    fn_cuda_store_part_f32(a, ia, first, n, out);
    fn_cuda_store_part_f32(b, ib, first, n, out);
}

/* Camera noise: a thread block per run of up to FN_CAM_TILE pixels of one row
 * (blockIdx.x = row * runs_per_row + run). Its normals are a contiguous range of the
 * frame's float32 stream (per pixel, or per colour channel); the threads compute them
 * a Philox block each into shared memory as noise terms (fn_dev_cam_term_of), then
 * walk the run's stored values in memory order, so neighbouring threads read and
 * write neighbouring bytes. The value loop is compiled per channel count and dtype
 * (the element -> pixel division becomes a multiply, the dtype switch disappears).
 * Alpha (a fourth channel) is copied. */
#define FN_CAM_TILE 1024

template <int C, int DT>
static __device__ __forceinline__ void
fn_cuda_camera_values(fn_dev_camera p, const fn_dev_cam_term *terms, int per_channel,
                      uint32_t npix, const char *irow, int64_t in_pix, int64_t in_ch,
                      char *orow, int64_t out_pix, int64_t out_ch) {
    p.dtype = DT; /* a constant the compiler folds into fn_dev_cam_value's switch */
    const uint32_t nc = C == 4 ? 3 : C;
    for (uint32_t e = threadIdx.x; e < npix * C; e += blockDim.x) {
        const uint32_t i = e / C, c = e - i * C;
        const char *s = irow + (int64_t)i * in_pix + (int64_t)c * in_ch;
        char *d = orow + (int64_t)i * out_pix + (int64_t)c * out_ch;
        if (C == 4 && c == 3)
            fn_dev_cam_copy(DT, s, d);
        else
            fn_dev_cam_value(&p, terms[per_channel ? i * nc + c : i], s, d);
    }
}

#define FN_CAM_DTYPES(C)                                                                   \
    switch (dtype) {                                                                       \
    case FN_DEV_CAM_U8:                                                                    \
        fn_cuda_camera_values<C, FN_DEV_CAM_U8>(FN_CAM_ARGS);                              \
        break;                                                                             \
    case FN_DEV_CAM_U16:                                                                   \
        fn_cuda_camera_values<C, FN_DEV_CAM_U16>(FN_CAM_ARGS);                             \
        break;                                                                             \
    case FN_DEV_CAM_F32:                                                                   \
        fn_cuda_camera_values<C, FN_DEV_CAM_F32>(FN_CAM_ARGS);                             \
        break;                                                                             \
    default:                                                                               \
        fn_cuda_camera_values<C, FN_DEV_CAM_F64>(FN_CAM_ARGS);                             \
        break;                                                                             \
    }

extern "C" __global__ void __launch_bounds__(256)
    fn_cuda_camera(uint64_t key, uint64_t frame, uint64_t pixel0, uint64_t pitch,
                   double mean, double stddev, int32_t per_channel, int32_t ogre2,
                   int32_t linear, int32_t dtype, uint64_t width, uint64_t channels,
                   uint64_t runs_per_row, const char *in, int64_t in_row, int64_t in_pix,
                   int64_t in_ch, char *out, int64_t out_row, int64_t out_pix,
                   int64_t out_ch) {
    __shared__ fn_dev_cam_term terms[FN_CAM_TILE * 3];
    const uint64_t row = blockIdx.x / runs_per_row;
    const uint64_t x0 = (blockIdx.x - row * runs_per_row) * (uint64_t)FN_CAM_TILE;
    const uint64_t npix = width - x0 < FN_CAM_TILE ? width - x0 : FN_CAM_TILE;
    const uint64_t C = channels, nc = C == 4 ? 3 : C, per = per_channel ? nc : 1;
    const fn_dev_camera p = {mean, stddev, ogre2, linear, dtype};

    const uint64_t j0 = (pixel0 + row * pitch + x0) * per, len = npix * per;
    const uint64_t b0 = (j0 >> 4) << 2, nb = fn_dev_normal_threads(j0, len);
    for (uint64_t t = threadIdx.x; t < nb; t += blockDim.x) {
        float z[4];
        fn_block_normals_f32(key, frame, b0 + t, z);
        uint64_t i0 = fn_block_first_index(b0 + t);
        uint64_t idx[4] = {i0, i0 + 1, i0 + 8, i0 + 9};
        for (int k = 0; k < 4; k++) {
            uint64_t r = idx[k] - j0;
            if (idx[k] >= j0 && r < len) terms[r] = fn_dev_cam_term_of(&p, z[k]);
        }
    }
    __syncthreads();

    const char *irow = in + (int64_t)row * in_row + (int64_t)x0 * in_pix;
    char *orow = out + (int64_t)row * out_row + (int64_t)x0 * out_pix;
#define FN_CAM_ARGS                                                                        \
    p, terms, per_channel, (uint32_t)npix, irow, in_pix, in_ch, orow, out_pix, out_ch
    if (C == 1) {
        FN_CAM_DTYPES(1)
    } else if (C == 3) {
        FN_CAM_DTYPES(3)
    } else {
        FN_CAM_DTYPES(4)
    }
#undef FN_CAM_ARGS
}

/* Lidar points (hitpoint angular and distance noise) and Gazebo range noise: a thread
 * per Philox block, up to four points or beams each (csrc/device/lidar_dev.h). */
#define FN_CUDA_LIDAR(T, SUF)                                                              \
    extern "C" __global__ void __launch_bounds__(256) fn_cuda_lidar_points_##SUF(          \
        uint64_t key, uint64_t frame, uint64_t first, uint64_t n, uint64_t nthreads,       \
        const double *prm, int32_t angular, int32_t distance, const T *points,             \
        const T *dist_in, const uint8_t *mask_in, T *points_out, T *dist_out,              \
        uint8_t *mask_out, T *local_out) {                                                 \
        uint64_t t = FN_TID();                                                             \
        if (t < nthreads)                                                                  \
            fn_dev_lidar_points_##SUF(t, key, frame, first, n, prm, angular, distance,     \
                                      points, dist_in, mask_in, points_out, dist_out,      \
                                      mask_out, local_out);                                \
    }                                                                                      \
    extern "C" __global__ void __launch_bounds__(256) fn_cuda_range_##SUF(                 \
        uint64_t key, uint64_t frame, uint64_t first, uint64_t n, uint64_t nthreads,       \
        const double *prm, int32_t noise, int32_t inf_outside, const T *in, T *out) {      \
        uint64_t t = FN_TID();                                                             \
        if (t < nthreads)                                                                  \
            fn_dev_range_##SUF(t, key, frame, first, n, prm, noise, inf_outside, in, out); \
    }

FN_CUDA_LIDAR(double, f64)
FN_CUDA_LIDAR(float, f32)
