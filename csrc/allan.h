/* Overlapping Allan variance of rate ("frequency") data, the two O(N) passes behind
 * fastnoise.analysis.oadev.
 *
 * Rate samples y[0..n-1] (any unit U, sample step dt) become the phase
 *   x[0] = 0,  x[i+1] = x[i] + (y[i] - mean)          (n + 1 points, U * samples)
 * (the same arithmetic as numpy's cumsum(y - mean), and as allantools'
 * frequency2phase without its factor dt). For an averaging factor m (tau = m * dt) the
 * overlapping Allan variance is
 *   avar(m) = S(m) / (2 * m^2 * (n + 1 - 2m)),
 *   S(m)    = sum_{i = 0}^{n - 2m} ((x[i + 2m] - 2 x[i + m]) + x[i])^2,
 * with the second difference evaluated in that order (as allantools does).
 *
 * Sums run in blocks of FN_ALLAN_BLOCK terms with eight partial sums each (lane l takes
 * the terms i = l mod 8), the block sums added in order, so the rounding error stays
 * near (FN_ALLAN_BLOCK/8 + blocks) * eps relative instead of n * eps; the order is fixed,
 * so the scalar, AVX2 and AVX-512 copies (allan_kern.c) give the same bits. No
 * allocation, no global state, thread-safe.
 */
#ifndef FN_ALLAN_H
#define FN_ALLAN_H

#include <stddef.h>
#include <stdint.h>

#define FN_ALLAN_BLOCK 4096

/* Phases of k columns of a row-major table: column c of row i is
 * y[i * row_stride + c * col_stride] (strides in elements). Writes x[c * (n + 1) + i]
 * for i in [0, n]: k phase rows of n + 1 points each. */
void fn_allan_phases(const double *y, size_t n, size_t k, ptrdiff_t row_stride,
                     ptrdiff_t col_stride, const double *mean, double *x);

/* S(m[j]) of one phase row x of length np (np = n + 1), for j in [0, nm). Each m[j]
 * must satisfy 1 <= m[j] and 2 * m[j] < np; others give out[j] = NaN. */
void fn_allan_sums(const double *x, size_t np, const int64_t *m, size_t nm, double *out);

/* The sums behind fastnoise.analysis.mdev/tdev and ohdev (NIST SP 1065 eqs. 14 and 18),
 * on one phase row x of np points, for each m[j] (out[j] = NaN where m[j] is out of
 * range). Plain C, no allocation, thread-safe; the sums of squares run in blocks of
 * FN_ALLAN_BLOCK terms with eight partial sums each, added in a fixed order.
 *
 * fn_mdev_sums: with d[i] = (x[i + 2m] - 2 x[i + m]) + x[i] (i < np - 2m) and the
 *   running sums c[k] = d[0] + ... + d[k - 1] (added in index order, as numpy's cumsum),
 *   S(m) = sum_{j = 0}^{np - 3m} (c[j + m] - c[j])^2; needs 1 <= m[j] and 3 m[j] <= np.
 * fn_hadamard_sums: S(m) = sum_{i = 0}^{np - 3m - 1} (((x[i + 3m] - 3 x[i + 2m]) +
 *   3 x[i + m]) - x[i])^2; needs 1 <= m[j] and 3 m[j] < np. */
void fn_mdev_sums(const double *x, size_t np, const int64_t *m, size_t nm, double *out);
void fn_hadamard_sums(const double *x, size_t np, const int64_t *m, size_t nm, double *out);

#endif
