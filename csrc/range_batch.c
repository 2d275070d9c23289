/* Batched environments of Gazebo range noise: see range_batch.h. */
#include "range_batch.h"

#define DEFINE_BATCH(SUF, T)                                                               \
    int fn_range_batch_##SUF(const fn_range_params *p, size_t n, const uint64_t *frames,   \
                             uint64_t first_index, size_t m, const T *in, T *out) {        \
        for (size_t e = 0; e < n; e++) {                                                   \
            fn_range_params q = p[e];                                                      \
            q.frame = frames[e];                                                           \
            int rc = fn_range_noise_##SUF(&q, first_index, m, in + e * m, out + e * m);    \
            if (rc != 0) return rc;                                                        \
        }                                                                                  \
        return 0;                                                                          \
    }

DEFINE_BATCH(f64, double)
DEFINE_BATCH(f32, float)
