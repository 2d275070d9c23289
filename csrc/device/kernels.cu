/* fastnoise's GPU kernels: thin __global__ wrappers around the per-thread bodies in
 * csrc/device/ (the *_dev.h headers), which use the arithmetic headers of the CPU kernels.
 * Compiled at run time by NVRTC through CuPy (fastnoise.cuda) and, in CI, by nvcc,
 * always with --fmad=false --prec-sqrt=true --prec-div=true. */
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
