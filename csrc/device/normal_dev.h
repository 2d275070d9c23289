/* The normal fill on the GPU, one thread per Philox block.
 *
 * A fill of n normals starting at index `first` of (key, stream) covers the groups
 * first / 16 ... (first + n - 1) / 16, four blocks each. Thread t computes block
 * 4 * (first / 16) + t (csrc/normal_pair.h: its four normals and their indices) and
 * writes those inside [first, first + n) as fma(stddev, z, mean), as fn_normal_fill_*
 * does on the CPU. The thread bodies are plain functions so the host build
 * (tests/test_cuda_host.py) can run them in a loop and compare with the CPU kernels.
 */
#ifndef FN_NORMAL_DEV_H
#define FN_NORMAL_DEV_H

#include "../normal_pair.h"

/* Threads (Philox blocks) a fill of n normals from `first` needs; first + n <= 2^64. */
FN_INLINE uint64_t fn_dev_normal_threads(uint64_t first, uint64_t n) {
    if (n == 0) return 0;
    return (((first + (n - 1)) >> 4) - (first >> 4) + 1) * 4;
}

#define FN_DEV_NORMAL_FILL(T, SUF, FMA)                                                    \
    FN_INLINE void fn_dev_normal_fill_##SUF(uint64_t t, uint64_t key, uint64_t stream,     \
                                            uint64_t first, uint64_t n, T mean, T stddev,  \
                                            T *out) {                                      \
        uint64_t block = ((first >> 4) << 2) + t;                                          \
        uint64_t i0 = fn_block_first_index(block);                                         \
        T z[4];                                                                            \
        fn_block_normals_##SUF(key, stream, block, z);                                     \
        uint64_t idx[4] = {i0, i0 + 1, i0 + 8, i0 + 9};                                    \
        for (int k = 0; k < 4; k++) {                                                      \
            uint64_t j = idx[k] - first; /* wraps to a huge value below first */           \
            if (idx[k] >= first && j < n) out[j] = FMA(stddev, z[k], mean);                \
        }                                                                                  \
    }

FN_DEV_NORMAL_FILL(double, f64, fma)
FN_DEV_NORMAL_FILL(float, f32, fmaf)

#endif
