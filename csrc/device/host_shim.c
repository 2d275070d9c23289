/* The GPU kernels' thread bodies built as host C (tests/test_cuda_host.py compiles this
 * with the system C compiler, contraction off, and compares with the CPU kernels): a
 * loop over thread indices stands in for the grid. */
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
