/* Overlapping Allan variance kernels: see allan.h. */
#include "allan.h"

#include <math.h>

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

/* Eight partial sums of squares, flushed into *total once per FN_ALLAN_BLOCK terms. */
typedef struct {
    double lane[8];
    double total;
    size_t count;
} fn_square_sum;

static void square_sum_init(fn_square_sum *s) {
    for (int l = 0; l < 8; l++)
        s->lane[l] = 0.0;
    s->total = 0.0;
    s->count = 0;
}

static double square_sum_flush(fn_square_sum *s) {
    double b = ((s->lane[0] + s->lane[1]) + (s->lane[2] + s->lane[3])) +
               ((s->lane[4] + s->lane[5]) + (s->lane[6] + s->lane[7]));
    s->total += b;
    for (int l = 0; l < 8; l++)
        s->lane[l] = 0.0;
    s->count = 0;
    return s->total;
}

static inline void square_sum_add(fn_square_sum *s, double v) {
    s->lane[s->count & 7] += v * v;
    if (++s->count == FN_ALLAN_BLOCK) square_sum_flush(s);
}

static inline double second_difference(const double *x, size_t i, size_t m) {
    double b = x[i + m];
    return (x[i + 2 * m] - (b + b)) + x[i];
}

void fn_mdev_sums(const double *x, size_t np, const int64_t *m, size_t nm, double *out) {
    for (size_t j = 0; j < nm; j++) {
        if (m[j] < 1 || (uint64_t)m[j] > np / 3) {
            out[j] = NAN;
            continue;
        }
        size_t mj = (size_t)m[j];
        size_t terms = np - 3 * mj + 1;
        double lo = 0.0, hi = 0.0; /* c[k] and c[k + m] */
        for (size_t i = 0; i < mj; i++)
            hi = hi + second_difference(x, i, mj);
        fn_square_sum s;
        square_sum_init(&s);
        for (size_t k = 0; k < terms; k++) {
            square_sum_add(&s, hi - lo);
            if (k + 1 < terms) {
                hi = hi + second_difference(x, k + mj, mj);
                lo = lo + second_difference(x, k, mj);
            }
        }
        out[j] = square_sum_flush(&s);
    }
}

void fn_hadamard_sums(const double *x, size_t np, const int64_t *m, size_t nm,
                      double *out) {
    for (size_t j = 0; j < nm; j++) {
        if (m[j] < 1 || np == 0 || (uint64_t)m[j] > (np - 1) / 3) {
            out[j] = NAN;
            continue;
        }
        size_t mj = (size_t)m[j];
        size_t terms = np - 3 * mj;
        const double *x1 = x + mj, *x2 = x + 2 * mj, *x3 = x + 3 * mj;
        fn_square_sum s;
        square_sum_init(&s);
        for (size_t i = 0; i < terms; i++) {
            double v = ((x3[i] - 3.0 * x2[i]) + 3.0 * x1[i]) - x[i];
            square_sum_add(&s, v);
        }
        out[j] = square_sum_flush(&s);
    }
}
