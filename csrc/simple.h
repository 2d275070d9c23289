/* Isaac Lab's noise vocabulary (isaaclab.utils.noise), keyed: a noise term is
 * constant, uniform or Gaussian, applied to the data by one of three operations, for
 * a batch of environments in one call.
 *
 * A term draws one value v per component:
 *   constant: v = a                      (a: bias)
 *   uniform:  v = u (b - a) + a          (a: n_min, b: n_max, u uniform in [0, 1))
 *   gaussian: v = a + b z                (a: mean, b: standard deviation, z normal)
 * and the operation makes the output from the input x: add x + v, scale x v, abs v.
 * Environment e keys its draws with its own key keys[e]. Step s of environment e
 * draws stream s << 1 | FN_STREAM_SIMPLE_NOISE: component j takes normal j (gaussian)
 * or the uniform of block j / 2, words 2 (j % 2) and 2 (j % 2) + 1 (uniform,
 * u = (w_lo << 32 | w_hi) >> 11 times 2^-53). The additive bias of the bias model is
 * redrawn with stream r << 1 | FN_STREAM_SIMPLE_BIAS at the environment's reset r
 * (r = 0: at construction).
 */
#ifndef FN_SIMPLE_H
#define FN_SIMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "streams.h"

enum { FN_SIMPLE_CONSTANT = 0, FN_SIMPLE_UNIFORM = 1, FN_SIMPLE_GAUSSIAN = 2 };
enum { FN_SIMPLE_ADD = 0, FN_SIMPLE_SCALE = 1, FN_SIMPLE_ABS = 2 };

typedef struct {
    int kind; /* FN_SIMPLE_CONSTANT, _UNIFORM or _GAUSSIAN */
    int op;   /* FN_SIMPLE_ADD, _SCALE or _ABS */
    double a; /* bias, n_min or mean */
    double b; /* unused, n_max or standard deviation */
} fn_simple_term;

/* The m values of one draw of term t (key, stream) into v. */
void fn_simple_draw(const fn_simple_term *t, uint64_t key, uint64_t stream, size_t m,
                    double *v);

/* One step of nenv environments of m components each: out[e m + j] =
 * op(x[e m + j], v_j) (+ bias[e mb + j * (mb > 1)] when bias is not NULL), with v
 * drawn by term t[e * ts] (ts = 0: one term for every environment, 1: one per
 * environment, for domain randomization) at step steps[e] of key keys[e]; then every
 * steps[e] advances by one.
 * x and out are float64 (dtype FN_FLOAT64) or float32 (FN_FLOAT32, computed in
 * double and rounded once); out may be x. scratch holds m doubles. */
void fn_simple_apply(const fn_simple_term *t, size_t ts, size_t nenv, const uint64_t *keys,
                     uint64_t *steps, size_t m, const double *bias, size_t mb,
                     const void *x, void *out, int dtype, double *scratch);

/* The bias of environments ids[0..nids): bias[e mb + j] = op(bias[e mb + j], v_j)
 * with v drawn by term t[e * ts] at reset resets[e] of key keys[e] (bias stream).
 * scratch holds mb doubles. */
void fn_simple_rebias(const fn_simple_term *t, size_t ts, size_t nids, const int64_t *ids,
                      const uint64_t *keys, const uint64_t *resets, size_t mb, double *bias,
                      double *scratch);

#endif
