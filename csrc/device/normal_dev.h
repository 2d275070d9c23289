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

/* The four values of thread t's block, fma(stddev, z, mean), and the index of the first
 * (the others are +1, +8 and +9). */
#define FN_DEV_NORMAL_VALUES(T, SUF, FMA)                                                  \
    FN_INLINE uint64_t fn_dev_normal_values_##SUF(uint64_t t, uint64_t key,                \
                                                  uint64_t stream, uint64_t first, T mean, \
                                                  T stddev, T v[4]) {                      \
        uint64_t block = ((first >> 4) << 2) + t;                                          \
        T z[4];                                                                            \
        fn_block_normals_##SUF(key, stream, block, z);                                     \
        for (int k = 0; k < 4; k++)                                                        \
            v[k] = FMA(stddev, z[k], mean);                                                \
        return fn_block_first_index(block);                                                \
    }

/* Thread t's part of the fill: its values inside [first, first + n), stored one by one
 * (the GPU kernel stores pairs when the whole block is inside; same values). */
#define FN_DEV_NORMAL_FILL(T, SUF)                                                         \
    FN_INLINE void fn_dev_normal_fill_##SUF(uint64_t t, uint64_t key, uint64_t stream,     \
                                            uint64_t first, uint64_t n, T mean, T stddev,  \
                                            T *out) {                                      \
        T v[4];                                                                            \
        uint64_t i0 = fn_dev_normal_values_##SUF(t, key, stream, first, mean, stddev, v);  \
        uint64_t idx[4] = {i0, i0 + 1, i0 + 8, i0 + 9};                                    \
        for (int k = 0; k < 4; k++) {                                                      \
            uint64_t j = idx[k] - first; /* wraps to a huge value below first */           \
            if (idx[k] >= first && j < n) out[j] = v[k];                                   \
        }                                                                                  \
    }

FN_DEV_NORMAL_VALUES(double, f64, fma)
FN_DEV_NORMAL_VALUES(float, f32, fmaf)
FN_DEV_NORMAL_FILL(double, f64)
FN_DEV_NORMAL_FILL(float, f32)

#endif
