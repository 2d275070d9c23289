/* Batched Gazebo noise: see gznoise_batch.h. */
#include "gznoise_batch.h"

int fn_gz_batch_apply(fn_gz_channel *ch, size_t n, size_t t, const double *x,
                      const double *dt, size_t env_stride, size_t time_stride, double *out,
                      size_t *env) {
    for (size_t e = 0; e < n; e++)
        if (t > UINT64_MAX - ch[e].count) {
            *env = e;
            return -1;
        }
    for (size_t e = 0; e < n; e++)
        for (size_t k = 0; k < t; k++)
            out[e * t + k] = fn_gz_channel_apply_one(&ch[e], x[e * t + k],
                                                     dt[e * env_stride + k * time_stride]);
    return 0;
}
