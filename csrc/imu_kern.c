/* The chunk pass of fn_imu_apply, compiled once per SIMD target. The arithmetic is
 * the shared inline code of imu.h (no contraction), so every target writes the same
 * bits as fn_imu_step.
 *
 * Two passes per chunk, laid out for the (N, 3) arrays:
 *   1. the bias recursions, sample by sample (six independent chains side by side),
 *      writing the biases and the white-noise normals interleaved like the data;
 *   2. steps 3-5 as one flat loop over each triad's 3 * len values, whose per-value
 *      coefficients repeat every 3 values: in blocks of 12 (4 samples) every
 *      coefficient sits at a fixed place, so the loop vectorizes without shuffles.
 * An axis whose term is off reads zeros (its coefficient is 0 too), which gives the
 * same bits as fn_imu_step's update: alpha * (+0) + 0 * 0 = +0, rw + 0 * 0 = rw + 0.
 */
#include "imu.h"

#define TRIAD_VALUES (3 * FN_IMU_CHUNK)

/* Pass 1 (bias chains) for one normal dtype T; z[(3 a + t) * FN_IMU_CHUNK + j] is the unit
 * normal of term t of axis a at sample j (rows of terms that are off hold zeros). with_rw 0
 * when no axis has a random walk (every state +0, every row zeros): the walk rows are
 * then left unwritten. One base pointer and fixed offsets keep the six chains in
 * registers. */
/* GCC's straight-line vectorizer packs the six chains into partial vectors with
 * more shuffles than arithmetic; plain scalar code runs faster here. fp-contract=off
 * restated, in case a compiler's optimize attribute resets it. */
#if defined(__GNUC__) && !defined(__clang__)
#define SCALAR_CHAINS                                                                      \
    __attribute__((noinline, optimize("no-tree-slp-vectorize", "fp-contract=off")))
#else
#define SCALAR_CHAINS
#endif

#define ZROW(a, t) ((size_t)(3 * (a) + (t)) * FN_IMU_CHUNK)
#define AT(a) ((size_t)((a) / 3) * TRIAD_VALUES + (size_t)((a) % 3))
#define DEFINE_RECURSIONS(NAME, T, WITH_WHITE)                                             \
    static SCALAR_CHAINS void NAME(fn_imu *m, size_t len, const T *restrict z,             \
                                   double *restrict g, double *restrict r,                 \
                                   double *restrict w, int with_rw) {                      \
        double gm[FN_IMU_AXES], rw[FN_IMU_AXES], al[FN_IMU_AXES], gd[FN_IMU_AXES],         \
            rs[FN_IMU_AXES];                                                               \
        for (int a = 0; a < FN_IMU_AXES; a++) {                                            \
            gm[a] = m->gm[a];                                                              \
            rw[a] = m->rw[a];                                                              \
            al[a] = m->c[a].alpha;                                                         \
            gd[a] = m->c[a].gm_drive;                                                      \
            rs[a] = m->c[a].rw_step;                                                       \
        }                                                                                  \
        /* value i of triad s at sample j sits at [s * TRIAD_VALUES + 3 j + i] */          \
        for (size_t j = 0; j < len; j++) {                                                 \
            for (int a = 0; a < FN_IMU_AXES; a++) {                                        \
                gm[a] = fn_imu_gm_next(al[a], gd[a], gm[a], (double)z[ZROW(a, 1) + j]);    \
                g[AT(a) + 3 * j] = gm[a];                                                  \
            }                                                                              \
            if (WITH_WHITE)                                                                \
                for (int a = 0; a < FN_IMU_AXES; a++)                                      \
                    w[AT(a) + 3 * j] = (double)z[ZROW(a, 0) + j];                          \
        }                                                                                  \
        if (with_rw)                                                                       \
            for (size_t j = 0; j < len; j++)                                               \
                for (int a = 0; a < FN_IMU_AXES; a++) {                                    \
                    rw[a] = fn_imu_rw_next(rs[a], rw[a], (double)z[ZROW(a, 2) + j]);       \
                    r[AT(a) + 3 * j] = rw[a];                                              \
                }                                                                          \
        for (int a = 0; a < FN_IMU_AXES; a++) {                                            \
            m->gm[a] = gm[a];                                                              \
            m->rw[a] = rw[a];                                                              \
        }                                                                                  \
    }

/* The white normals are copied interleaved here for float32 normals (where it was
 * measured faster) and by interleave_white_f64 for float64 ones. */
DEFINE_RECURSIONS(recursions_f64, double, 0)
DEFINE_RECURSIONS(recursions_f32, float, 1)

/* Per-value coefficients of one triad, repeated to a period of 12 values. */
typedef struct {
    double offset[12], white[12], full_scale[12], lsb[12], inv_lsb[12], quantize[12];
    double away[12]; /* 1: Gazebo's rounding (round_away), else ties to even */
} triad_coefs;

/* away_any: a compile-time constant at each call (triad_outputs is inlined twice), so a
 * triad without Gazebo rounding runs the plain loop, without the division. */
static inline double output_value(const triad_coefs *c, int e, double x, double g, double r,
                                  double zw, int away_any) {
    double y = fn_imu_saturated(x, g, r, zw, c->offset[e], c->white[e], c->full_scale[e]);
    double q = fn_imu_quantized(y, c->lsb[e], c->inv_lsb[e]);
    if (away_any) q = c->away[e] != 0.0 ? fn_imu_quantized_away(y, c->lsb[e]) : q;
    return c->quantize[e] != 0.0 ? q : y;
}

/* Pass 2 for one triad: nv = 3 * len values; r NULL for a walk that is +0 throughout.
 * (Measured: one 12-value body beats three 4-value phases that spill no registers.) */
static inline void triad_outputs(const triad_coefs *c, size_t nv, const double *x,
                                 const double *g, const double *r, const double *w,
                                 double *y, int away_any) {
    size_t nb = nv / 12 * 12;
    if (r) {
        for (size_t b = 0; b < nb; b += 12)
            for (int e = 0; e < 12; e++)
                y[b + e] =
                    output_value(c, e, x[b + e], g[b + e], r[b + e], w[b + e], away_any);
    } else {
        for (size_t b = 0; b < nb; b += 12)
            for (int e = 0; e < 12; e++)
                y[b + e] = output_value(c, e, x[b + e], g[b + e], 0.0, w[b + e], away_any);
    }
    for (size_t i = nb; i < nv; i++)
        y[i] = output_value(c, (int)(i - nb), x[i], g[i], r ? r[i] : 0.0, w[i], away_any);
}

/* The white-noise normals, interleaved like the data (a loop GCC vectorizes). */
#define DEFINE_INTERLEAVE(NAME, T)                                                         \
    static inline void NAME(size_t len, const T *restrict z, double *restrict w) {         \
        for (int s = 0; s < 2; s++)                                                        \
            for (size_t j = 0; j < len; j++)                                               \
                for (int i = 0; i < 3; i++)                                                \
                    w[AT(3 * s + i) + 3 * j] = (double)z[ZROW(3 * s + i, 0) + j];          \
    }

DEFINE_INTERLEAVE(interleave_white_f64, double)

void FN_KERNEL(fn_imu_chunk)(fn_imu *m, size_t k0, size_t len, const double *omega,
                             const double *accel, double *omega_out, double *accel_out,
                             const double *zd, const float *zf, int buffered) {
    double g[2 * TRIAD_VALUES], w[2 * TRIAD_VALUES], r[2 * TRIAD_VALUES];
    double xb[2 * TRIAD_VALUES];
    int with_rw = 0;
    for (int a = 0; a < FN_IMU_AXES; a++)
        with_rw |= m->on[a][FN_IMU_RW] || fn_bits64(m->rw[a]) != 0;

    if (m->normal_dtype == FN_FLOAT32) {
        recursions_f32(m, len, zf, g, r, w, with_rw);
    } else {
        recursions_f64(m, len, zd, g, r, w, with_rw);
        interleave_white_f64(len, zd, w);
    }

    const double *x[2] = {omega + 3 * k0, accel + 3 * k0};
    if (buffered || m->lin_on[0] || m->lin_on[1] || m->gsens_on) {
        for (size_t j = 0; j < len; j++) {
            double v[FN_IMU_AXES];
            fn_imu_linear(m, x[0] + 3 * j, x[1] + 3 * j, v);
            for (int a = 0; a < FN_IMU_AXES; a++)
                xb[AT(a) + 3 * j] = v[a];
        }
        x[0] = xb;
        x[1] = xb + TRIAD_VALUES;
    }

    double *y[2] = {omega_out + 3 * k0, accel_out + 3 * k0};
    for (int s = 0; s < 2; s++) {
        triad_coefs c;
        int away_any = 0;
        for (int e = 0; e < 12; e++) {
            const fn_imu_coefs *ca = &m->c[3 * s + e % 3];
            c.offset[e] = ca->offset;
            c.white[e] = ca->white;
            c.full_scale[e] = ca->full_scale;
            c.lsb[e] = ca->lsb;
            c.inv_lsb[e] = ca->inv_lsb;
            c.quantize[e] = ca->lsb > 0.0 ? 1.0 : 0.0;
            c.away[e] = ca->lsb > 0.0 && ca->inv_lsb == 0.0 ? 1.0 : 0.0;
            away_any |= c.away[e] != 0.0;
        }
        const double *rs = with_rw ? r + s * TRIAD_VALUES : NULL;
        if (away_any)
            triad_outputs(&c, 3 * len, x[s], g + s * TRIAD_VALUES, rs, w + s * TRIAD_VALUES,
                          y[s], 1);
        else
            triad_outputs(&c, 3 * len, x[s], g + s * TRIAD_VALUES, rs, w + s * TRIAD_VALUES,
                          y[s], 0);
    }
}

/* *bad = whether v[0..n) holds a finite value beyond max_input (> 0): on the bits, so
 * the loop vectorizes (NaN and +/-inf have the largest magnitudes' bits). */
void FN_KERNEL(fn_imu_any_too_large)(const double *v, size_t n, double max_input,
                                     int *bad) {
    const int64_t lim = (int64_t)fn_bits64(max_input), inf = (int64_t)0x7ff0000000000000;
    int64_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        int64_t u = (int64_t)(fn_bits64(v[i]) & 0x7fffffffffffffffull);
        acc |= (int64_t)(u > lim) & (int64_t)(u < inf);
    }
    *bad = acc != 0;
}
