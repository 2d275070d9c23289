/* Dispatch of the many-stream group kernels: see normal_many.h. */
#include "normal_many.h"

void fn_normal_group_many_f64(const uint64_t *key, const uint64_t *stream,
                              const uint64_t *group, size_t n, double *out) {
    FN_DISPATCH(fn_normal_group_many_f64, (key, stream, group, n, out));
}

void fn_normal_group_many_f32(const uint64_t *key, const uint64_t *stream,
                              const uint64_t *group, size_t n, float *out) {
    FN_DISPATCH(fn_normal_group_many_f32, (key, stream, group, n, out));
}
