/* Isaac Lab's noise vocabulary, keyed per environment (see simple.h). */
#include "simple.h"

#include "normal.h"
#include "philox.h"

void fn_simple_draw(const fn_simple_term *t, uint64_t key, uint64_t stream, size_t m,
                    double *v) {
    size_t j;
    if (t->kind == FN_SIMPLE_CONSTANT) {
        for (j = 0; j < m; j++)
            v[j] = t->a;
    } else if (t->kind == FN_SIMPLE_UNIFORM) {
        uint32_t w[4];
        double span = t->b - t->a;
        for (j = 0; j < m; j++) {
            if ((j & 1) == 0) fn_philox_block(key, stream, (uint64_t)(j >> 1), w);
            uint64_t bits = ((uint64_t)w[2 * (j & 1)] << 32 | w[2 * (j & 1) + 1]) >> 11;
            double u = (double)bits * 0x1p-53;
            v[j] = u * span + t->a;
        }
    } else {
        fn_normal_fill_f64(key, stream, 0, m, 0.0, 1.0, v);
        for (j = 0; j < m; j++)
            v[j] = t->a + t->b * v[j];
    }
}

static inline double simple_op(int op, double x, double v) {
    if (op == FN_SIMPLE_ADD) return x + v;
    if (op == FN_SIMPLE_SCALE) return x * v;
    return v;
}

void fn_simple_apply(const fn_simple_term *t, size_t ts, size_t nenv, const uint64_t *keys,
                     uint64_t *steps, size_t m, const double *bias, size_t mb,
                     const void *x, void *out, int dtype, double *scratch) {
    for (size_t e = 0; e < nenv; e++) {
        uint64_t stream = steps[e] << 1 | FN_STREAM_SIMPLE_NOISE;
        const double *be = bias ? bias + e * mb : NULL;
        const int op = t[e * ts].op;
        fn_simple_draw(&t[e * ts], keys[e], stream, m, scratch);
        if (dtype == FN_FLOAT32) {
            const float *xe = (const float *)x + e * m;
            float *oe = (float *)out + e * m;
            for (size_t j = 0; j < m; j++) {
                double y = simple_op(op, (double)xe[j], scratch[j]);
                if (be) y = y + be[mb > 1 ? j : 0];
                oe[j] = (float)y;
            }
        } else {
            const double *xe = (const double *)x + e * m;
            double *oe = (double *)out + e * m;
            for (size_t j = 0; j < m; j++) {
                double y = simple_op(op, xe[j], scratch[j]);
                if (be) y = y + be[mb > 1 ? j : 0];
                oe[j] = y;
            }
        }
        steps[e] += 1;
    }
}

void fn_simple_rebias(const fn_simple_term *t, size_t ts, size_t nids, const int64_t *ids,
                      const uint64_t *keys, const uint64_t *resets, size_t mb, double *bias,
                      double *scratch) {
    for (size_t i = 0; i < nids; i++) {
        size_t e = (size_t)ids[i];
        uint64_t stream = resets[e] << 1 | FN_STREAM_SIMPLE_BIAS;
        double *be = bias + e * mb;
        fn_simple_draw(&t[e * ts], keys[e], stream, mb, scratch);
        for (size_t j = 0; j < mb; j++)
            be[j] = simple_op(t[e * ts].op, be[j], scratch[j]);
    }
}
