/* Overlapping Allan variance kernels: see allan.h. */
#include "allan.h"

#include "simd.h"

#define PHASE_GROUP 8 /* columns integrated together, running sums in registers */

void fn_allan_phases(const double *y, size_t n, size_t k, ptrdiff_t row_stride,
                     ptrdiff_t col_stride, const double *mean, double *x) {
    size_t np = n + 1;
    for (size_t c0 = 0; c0 < k; c0 += PHASE_GROUP) {
        size_t g = k - c0 < PHASE_GROUP ? k - c0 : PHASE_GROUP;
        double acc[PHASE_GROUP], mu[PHASE_GROUP];
        double *out[PHASE_GROUP];
        for (size_t c = 0; c < g; c++) {
            acc[c] = 0.0;
            mu[c] = mean[c0 + c];
            out[c] = x + (c0 + c) * np;
            out[c][0] = 0.0;
        }
        const double *col = y + (ptrdiff_t)c0 * col_stride;
        for (size_t i = 0; i < n; i++) {
            const double *row = col + (ptrdiff_t)i * row_stride;
            for (size_t c = 0; c < g; c++) {
                acc[c] = acc[c] + (row[(ptrdiff_t)c * col_stride] - mu[c]);
                out[c][i + 1] = acc[c];
            }
        }
    }
}

FN_DECLARE_KERNEL(void, fn_allan_sums_kern,
                  (const double *x, size_t np, const int64_t *m, size_t nm, double *out))

void fn_allan_sums(const double *x, size_t np, const int64_t *m, size_t nm, double *out) {
    FN_DISPATCH(fn_allan_sums_kern, (x, np, m, nm, out));
}
