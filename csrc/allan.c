/* Overlapping Allan variance kernels: see allan.h. */
#include "allan.h"

#include <math.h>

#define PHASE_GROUP 8 /* columns integrated together, running sums in registers */
#define LANES 8       /* partial sums per block: lane l takes the terms i = l mod 8 */

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

/* Sum over i in [lo, hi) of ((x[i + 2m] - 2 x[i + m]) + x[i])^2. Lane l sums the terms
 * with (i - lo) = l mod LANES; the lanes are then added pairwise. The order is fixed, so
 * every build gives the same bits (no reassociation is left to the compiler). */
static double block_sum(const double *x, size_t lo, size_t hi, size_t m) {
    const double *x1 = x + m;
    const double *x2 = x + 2 * m;
    double s[LANES] = {0.0};
    size_t i = lo;
    for (; i + LANES <= hi; i += LANES) {
        for (size_t l = 0; l < LANES; l++) {
            double v = (x2[i + l] - 2.0 * x1[i + l]) + x[i + l];
            s[l] += v * v;
        }
    }
    for (size_t l = 0; i < hi; i++, l++) {
        double v = (x2[i] - 2.0 * x1[i]) + x[i];
        s[l] += v * v;
    }
    return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

void fn_allan_sums(const double *x, size_t np, const int64_t *m, size_t nm, double *out) {
    size_t longest = 0; /* terms of the smallest valid m */
    for (size_t j = 0; j < nm; j++) {
        if (np > 0 && m[j] >= 1 && (uint64_t)m[j] <= (np - 1) / 2) {
            out[j] = 0.0;
            size_t terms = np - 2 * (size_t)m[j];
            if (terms > longest) longest = terms;
        } else {
            out[j] = NAN;
        }
    }
    /* Outer loop over blocks of i, inner over m: for the small m the block's phases
     * stay in cache from one m to the next. */
    for (size_t lo = 0; lo < longest; lo += FN_ALLAN_BLOCK) {
        for (size_t j = 0; j < nm; j++) {
            if (isnan(out[j])) continue;
            size_t mj = (size_t)m[j];
            size_t terms = np - 2 * mj;
            if (lo >= terms) continue;
            size_t hi = lo + FN_ALLAN_BLOCK < terms ? lo + FN_ALLAN_BLOCK : terms;
            out[j] += block_sum(x, lo, hi, mj);
        }
    }
}
