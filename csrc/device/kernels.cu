/* fastnoise's GPU kernels: thin __global__ wrappers around the per-thread bodies in
 * csrc/device/ (the *_dev.h headers), which use the arithmetic headers of the CPU kernels.
 * Compiled at run time by NVRTC through CuPy (fastnoise.cuda) and, in CI, by nvcc,
 * always with --fmad=false --prec-sqrt=true --prec-div=true. */
#include "normal_dev.h"

#define FN_TID() ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x)

extern "C" __global__ void fn_cuda_normal_f64(uint64_t key, uint64_t stream, uint64_t first,
                                              uint64_t n, uint64_t nthreads, double mean,
                                              double stddev, double *out) {
    uint64_t t = FN_TID();
    if (t < nthreads) fn_dev_normal_fill_f64(t, key, stream, first, n, mean, stddev, out);
}

extern "C" __global__ void fn_cuda_normal_f32(uint64_t key, uint64_t stream, uint64_t first,
                                              uint64_t n, uint64_t nthreads, float mean,
                                              float stddev, float *out) {
    uint64_t t = FN_TID();
    if (t < nthreads) fn_dev_normal_fill_f32(t, key, stream, first, n, mean, stddev, out);
}
