/* IMU error model: six axes (gyro x, y, z, then accel x, y, z), each with optional
 * white noise, constant and turn-on bias, first-order Gauss-Markov bias, bias random
 * walk, saturation and quantization; plus per-triad scale factor / misalignment and
 * gyro G-sensitivity.
 *
 * Order of operations for sample k (units: rad/s for the gyro, m/s^2 for the accel):
 *   1. linear:  x = C * true  (C = I + diag(scale) + misalignment)
 *               gyro only: x += G * accel_true  (G-sensitivity, (rad/s)/(m/s^2))
 *   2. bias states advance first, so b[k] is what sample k sees:
 *               gm[k] = alpha * gm[k-1] + gm_drive * z_gm[k]
 *               rw[k] = rw[k-1] + rw_step * z_rw[k]
 *   3. y = (((x + offset) + gm[k]) + rw[k]) + white * z_w[k]
 *               offset = constant bias + turn-on bias (unless the turn-on bias is
 *               the Gauss-Markov initial state, Gazebo's dynamic-bias form)
 *   4. saturate to [-full_scale, +full_scale]
 *   5. quantize: round(y * (1 / lsb)) * lsb, ties to even; or, on an axis with
 *      round_away (Gazebo's precision), round(y / lsb) * lsb, halves away from zero.
 * Coefficients for a step dt (single-sided densities, as Kalibr, RotorS, IEEE 952):
 *   white = sqrt(stddev^2 + density^2 / dt), alpha = exp(-dt / tau),
 *   gm_drive = sigma_b * sqrt(1 - alpha^2), rw_step = K * sqrt(dt).
 *
 * Randomness: normal number k of stream (FN_IMU_STREAM_TAG | axis << 8 | term) under
 * the model's key, term 0 white, 1 Gauss-Markov, 2 random walk; term 3 holds the
 * start-up draws (normal 0: turn-on bias, normal 1: steady-state Gauss-Markov start)
 * and term 4 the raw Philox word whose top bit flips the turn-on bias sign.
 * Terms whose coefficient is zero draw nothing. With normal_dtype FN_FLOAT64 the
 * normals are the float64 ones; with FN_FLOAT32 (the Python default) they are the
 * float32 normals of the same streams (twice as fast to make, float32 precision),
 * converted exactly to double; all the arithmetic stays in double.
 */
#ifndef FN_IMU_H
#define FN_IMU_H

#include "streams.h"

#include <float.h>
#include <stddef.h>
#include <stdint.h>

#include <math.h>

#include "normal.h"
#include "simd.h"

#define FN_IMU_AXES 6
#define FN_IMU_TERMS 3 /* per-sample random terms: white, Gauss-Markov, random walk */
#define FN_IMU_STREAM_TAG FN_STREAM_IMU_TAG

/* Magnitudes that keep every intermediate finite. Each term of
 * y = x + offset + gm + rw + white * z is kept within FN_IMU_TERM_MAX (the unit
 * normals come from 32-bit uniforms, so |z| <= 6.67 < FN_IMU_Z_MAX), so their sum
 * stays below 1e302 and never overflows:
 *   - x: finite true values are refused beyond +/- max_input, FN_IMU_TERM_MAX over the
 *     largest absolute row sum of the linear map and G-sensitivity (when above 1);
 *   - offset: the parameters are bounded at construction (1e150, imu_config.py);
 *   - white: refused for a step dt that would make it exceed FN_IMU_TERM_MAX;
 *   - gm, rw: a call of n samples is refused when |state| + n * FN_IMU_Z_MAX * (its
 *     per-sample drive) could exceed FN_IMU_TERM_MAX (states past it are refused
 *     too), so the bias states never pass it;
 * and the quantization keeps y where y / lsb would overflow (fn_imu_quantized). */
#define FN_IMU_TERM_MAX 1e300
#define FN_IMU_Z_MAX 8.0

/* What fn_imu_step_checked / fn_imu_apply_checked refuse (nothing changes then). */
enum {
    FN_IMU_OK = 0,
    FN_IMU_ERR_COUNT,  /* the sample count would pass 2^64 - 1 */
    FN_IMU_ERR_STREAM, /* a stream position would pass 2^64 - 1 (where: 3 axis + term) */
    FN_IMU_ERR_WHITE,  /* the white-noise sigma of axis `where` would pass TERM_MAX */
    FN_IMU_ERR_GM,     /* the Gauss-Markov state of axis `where` could pass TERM_MAX */
    FN_IMU_ERR_RW,     /* the random-walk state of axis `where` could pass TERM_MAX */
    FN_IMU_ERR_OMEGA,  /* omega value `where` (flat index) is finite but beyond max_input */
    FN_IMU_ERR_ACCEL   /* the same for accel */
};

enum {
    FN_IMU_WHITE = FN_STREAM_IMU_WHITE,
    FN_IMU_GM = FN_STREAM_IMU_GAUSS_MARKOV,
    FN_IMU_RW = FN_STREAM_IMU_RANDOM_WALK,
    FN_IMU_INIT = FN_STREAM_IMU_STARTUP,
    FN_IMU_SIGN = FN_STREAM_IMU_SIGN
};

/* Parameters of one axis (SI units of the axis). Zero disables a term. */
typedef struct {
    double noise_stddev;  /* per-sample white sigma */
    double noise_density; /* white density N, per sqrt(Hz) */
    double bias;          /* constant bias */
    double turn_on_mean;  /* turn-on bias ~ +/- N(mean, stddev), drawn once */
    double turn_on_stddev;
    double gm_stddev;    /* Gauss-Markov stationary sigma_b */
    double gm_tau;       /* Gauss-Markov correlation time, s (0: no GM term) */
    double rw_density;   /* bias random walk K, per sqrt(s) */
    double full_scale;   /* saturation, +inf for none */
    double lsb;          /* quantization step, 0 for none */
    int gm_steady_state; /* start the GM state from N(0, sigma_b^2) */
    int turn_on_in_gm;   /* turn-on bias is the GM initial state (Gazebo) */
    int round_away;      /* quantize as C's round(y / lsb) * lsb (Gazebo's precision) */
} fn_imu_axis_params;

/* What one sample of one axis needs, for a given dt. */
/* inv_lsb is 1 / lsb, or 0 on an axis with round_away (its rounding divides by lsb):
 * as 1 / lsb is never 0 (lsb <= 1e150), the eight doubles say it all in 64 bytes. */
typedef struct {
    double offset, white, alpha, gm_drive, rw_step, full_scale, lsb, inv_lsb;
} fn_imu_coefs;

typedef struct {
    fn_imu_axis_params p[FN_IMU_AXES];
    double lin[2][3][3]; /* C for gyro and accel */
    double gsens[3][3];  /* gyro G-sensitivity */
    int lin_on[2];       /* 0 when C is the identity */
    int gsens_on;
    int on[FN_IMU_AXES][FN_IMU_TERMS]; /* which terms draw normals */
    double max_input; /* largest finite |true value| accepted (see FN_IMU_TERM_MAX) */
    uint64_t key;
    int normal_dtype; /* FN_FLOAT64 or FN_FLOAT32: precision of the unit normals */
    /* state */
    fn_stream st[FN_IMU_AXES][FN_IMU_TERMS];
    double gm[FN_IMU_AXES];
    double rw[FN_IMU_AXES];
    double turn_on[FN_IMU_AXES];
    uint64_t count; /* samples produced since the start */
    /* samples left before the count or a drawing stream's position would pass
     * 2^64 - 1 (every one of them advances by one per sample); fn_imu_set_room */
    uint64_t room;
    /* What fn_imu_step_cached knows of the state, so that it skips work that gives
     * nothing new (kept by every function here that moves the state; the caller that
     * sets a state field itself calls fn_imu_set_room after, which resets both):
     *   clear: steps at coef_dt whose checks of the bias states and counters
     *          (FN_IMU_ERR_COUNT .. _RW) are sure to pass, 0 for unknown;
     *   aligned: every stream that draws stands at position `count` (a fresh or
     *          reset model, and every step, apply and fold keeps it so). */
    uint64_t clear;
    int aligned;
    uint32_t on_mask; /* bit 6 t + a: on[a][t] (the batch cache's slot order) */
    /* the streams that draw, as indices s = 3 a + t of the flat st[][] (n_on of them) */
    int n_on;
    unsigned char on_list[FN_IMU_AXES * FN_IMU_TERMS];
    /* no scale, misalignment, G-sensitivity, saturation or quantization: a sample is
     * steps 2-3 of imu.h alone (the others leave every value as it is) */
    int plain;
    /* cache of the coefficients for coef_dt (0: none) */
    double coef_dt;
    fn_imu_coefs c[FN_IMU_AXES];
    /* the same coefficients one array per field, for the vectorized plain step
     * (fn_imu_step_plain) */
    struct {
        double offset[FN_IMU_AXES], white[FN_IMU_AXES], alpha[FN_IMU_AXES];
        double gm_drive[FN_IMU_AXES], rw_step[FN_IMU_AXES];
    } rows;
} fn_imu;

#define FN_IMU_CHUNK 512 /* samples per chunk in fn_imu_apply */

/* The per-sample arithmetic, shared by fn_imu_step (imu.c) and the chunk kernels
 * (imu_kern.c), so that both give the same bits. */
/* Round to the nearest integer, ties to even, without libm (vectorizable). NaN stays. */
static inline double round_even(double q) {
    double t = fabs(q);
    double r = t < 0x1p52 ? (t + 0x1p52) - 0x1p52 : t; /* >= 2^52 is already integral */
    return copysign(r, q);
}

/* Round to the nearest integer, halves away from zero, as C's round() (Gazebo's
 * std::round), without libm: ties to even, then one up where |q| lay exactly halfway
 * (|q| - r is exact: r is the integer nearest |q|). NaN stays NaN, +/-inf stays. */
static inline double round_away(double q) {
    double t = fabs(q);
    double r = t < 0x1p52 ? (t + 0x1p52) - 0x1p52 : t;
    r = t - r == 0.5 ? r + 1.0 : r;
    return copysign(r, q);
}

/* Steps 1 of imu.h: the true values through scale/misalignment and G-sensitivity. */
static inline void fn_imu_linear(const fn_imu *m, const double *w, const double *acc,
                                 double x[FN_IMU_AXES]) {
    for (int s = 0; s < 2; s++) {
        const double *v = s == 0 ? w : acc;
        if (m->lin_on[s]) {
            const double (*l)[3] = m->lin[s];
            for (int i = 0; i < 3; i++)
                x[3 * s + i] = (l[i][0] * v[0] + l[i][1] * v[1]) + l[i][2] * v[2];
        } else {
            for (int i = 0; i < 3; i++)
                x[3 * s + i] = v[i];
        }
    }
    if (m->gsens_on) {
        const double (*g)[3] = m->gsens;
        for (int i = 0; i < 3; i++)
            x[i] = x[i] + ((g[i][0] * acc[0] + g[i][1] * acc[1]) + g[i][2] * acc[2]);
    }
}

/* Step 2 of imu.h for one axis: advance the bias states by one sample; zg, zr are
 * the unit normals of the sample (0 for terms that draw nothing). */
static inline double fn_imu_gm_next(double alpha, double gm_drive, double gm, double zg) {
    return alpha * gm + gm_drive * zg;
}

static inline double fn_imu_rw_next(double rw_step, double rw, double zr) {
    return rw + rw_step * zr;
}

static inline void fn_imu_advance(double alpha, double gm_drive, double rw_step, double *gm,
                                  double *rw, double zg, double zr) {
    *gm = fn_imu_gm_next(alpha, gm_drive, *gm, zg);
    *rw = fn_imu_rw_next(rw_step, *rw, zr);
}

/* Steps 3-4 of imu.h for one axis: biases, white noise, saturation. */
static inline double fn_imu_saturated(double x, double g, double r, double zw,
                                      double offset, double white, double full_scale) {
    double y = x + offset;
    y = y + g;
    y = y + r;
    y = y + white * zw;
    y = y < -full_scale ? -full_scale : y;
    y = y > full_scale ? full_scale : y;
    return y;
}

/* Step 5: quantization to multiples of lsb (inv_lsb = 1 / lsb). Where y / lsb is
 * beyond the doubles (a huge y on a fine grid), y is kept: it is a multiple of lsb to
 * far below its own precision (the plain formula would give +/-inf). Non-finite y stay
 * as they are, as before. */
static inline double fn_imu_quantized(double y, double lsb, double inv_lsb) {
    double q = y * inv_lsb;
    double r = round_even(q) * lsb;
    return fabs(q) <= DBL_MAX ? r : y;
}

/* Step 5 as Gazebo's precision: std::round(y / lsb) * lsb (a division, halves away
 * from zero), bit for bit; y is kept where y / lsb is beyond the doubles, as above. */
static inline double fn_imu_quantized_away(double y, double lsb) {
    double q = y / lsb;
    double r = round_away(q) * lsb;
    return fabs(q) <= DBL_MAX ? r : y;
}

/* Steps 2-5 of imu.h for one axis. Branch-free apart from the quantization switch. */
static inline double fn_imu_axis_sample(const fn_imu_coefs *c, double *gm, double *rw,
                                        double x, double zw, double zg, double zr) {
    fn_imu_advance(c->alpha, c->gm_drive, c->rw_step, gm, rw, zg, zr);
    double y = fn_imu_saturated(x, *gm, *rw, zw, c->offset, c->white, c->full_scale);
    if (c->lsb > 0.0)
        y = c->inv_lsb != 0.0 ? fn_imu_quantized(y, c->lsb, c->inv_lsb)
                              : fn_imu_quantized_away(y, c->lsb);
    return y;
}

/* After filling p, lin, gsens and key: set the flags and start from the seed. */
void fn_imu_init(fn_imu *m);
/* A valid model with no error terms (identity maps, no saturation, key 0): what an
 * ImuNoise holds before (and after a failed) __init__. */
void fn_imu_blank(fn_imu *m);
/* Back to the seeded start (same turn-on biases, same streams). */
void fn_imu_reset(fn_imu *m);
/* Recompute m->room after the count or a stream position was set. */
void fn_imu_set_room(fn_imu *m);
/* Coefficients of every axis for step dt (> 0). */
void fn_imu_set_dt(fn_imu *m, double dt);

/* One sample: omega[3], accel[3] true values in; measured values out. */
void fn_imu_step(fn_imu *m, const double omega[3], const double accel[3], double dt,
                 double omega_out[3], double accel_out[3]);
/* fn_imu_step after every check of the FN_IMU_ERR_* list: returns FN_IMU_OK, or the
 * error (with *where) and then changes nothing but the coefficient cache. */
int fn_imu_step_checked(fn_imu *m, const double omega[3], const double accel[3], double dt,
                        double omega_out[3], double accel_out[3], size_t *where);

/* The unit normals of one group (FN_GROUP samples) of every stream of a single model,
 * in the layout of a batch environment's cache (imu_batch.h): sample j of the group,
 * term t of axis a at [FN_IMU_ZSLOTS j + 6 t + a], zero where the term is off; float
 * for float32 normals, double for float64 ones. The values are a function of the tag
 * (key, on, dtype, group) alone, so a cache stays right whatever the model does; a
 * model whose tag differs refills it. fn_imu_zcache_clear empties it. */
#define FN_IMU_ZSLOTS (FN_IMU_AXES * FN_IMU_TERMS)
typedef struct {
    uint64_t group; /* UINT64_MAX: empty */
    uint64_t key;
    uint32_t on;
    int dtype;
    union {
        double d[FN_GROUP * FN_IMU_ZSLOTS];
        float f[FN_GROUP * FN_IMU_ZSLOTS];
    } z;
} fn_imu_zcache;

void fn_imu_zcache_clear(fn_imu_zcache *zc);
/* fn_imu_step_checked, the same bits and the same refusals, for a model stepped one
 * sample at a time: the normals of all its streams come from zc, refilled a group at
 * a time by the batch's SIMD kernel (all 18 streams share the key: one set of round
 * keys, four streams to a vector); the checks of the bias states run once for many
 * steps (m->clear). A model whose streams stand apart (a state set so) takes
 * fn_imu_step_checked's path. */
int fn_imu_step_cached(fn_imu *m, fn_imu_zcache *zc, const double omega[3],
                       const double accel[3], double dt, double omega_out[3],
                       double accel_out[3], size_t *where);
/* n samples of (n, 3) C-contiguous arrays; dt[k * dt_stride] is the step of sample k
 * (dt_stride 0 for a constant step). Bit-identical to n calls of fn_imu_step. The
 * outputs may alias the inputs. */
void fn_imu_apply(fn_imu *m, size_t n, const double *omega, const double *accel,
                  const double *dt, size_t dt_stride, double *omega_out, double *accel_out);
/* fn_imu_apply after every check of the FN_IMU_ERR_* list, for steps dt[k * dt_stride]
 * that are finite and > 0: returns FN_IMU_OK, or the error (with *where) and then
 * changes nothing but the coefficient cache. */
int fn_imu_apply_checked(fn_imu *m, size_t n, const double *omega, const double *accel,
                         const double *dt, size_t dt_stride, double *omega_out,
                         double *accel_out, size_t *where);

/* The state fn_imu_apply of n samples of steps dt[k * dt_stride] leaves (bias states,
 * stream positions, sample count), without the true values or the outputs: the same
 * bias recurrences in the same order on the same unit normals, so the bits are the
 * same; the white-noise streams only move on. A fold over chunks runs this alone in
 * order, and each chunk's outputs then come from its start state in parallel. */
void fn_imu_advance_biases(fn_imu *m, size_t n, const double *dt, size_t dt_stride);
/* fn_imu_advance_biases after the checks of fn_imu_apply_checked that do not read the
 * true values (FN_IMU_ERR_COUNT, _STREAM, _WHITE, _GM, _RW): returns FN_IMU_OK, or
 * the error (with *where) and then changes nothing but the coefficient cache. */
int fn_imu_advance_biases_checked(fn_imu *m, size_t n, const double *dt, size_t dt_stride,
                                  size_t *where);
/* Internal (imu.c, imu_fold.c): the checks of fn_imu_apply_checked that do not read the
 * true values, for n > 0 samples of steps dt[k * dt_stride]. */
int fn_imu_check_steps(const fn_imu *m, size_t n, const double *dt, size_t dt_stride,
                       size_t *where);

/* Chunk pass of fn_imu_apply over samples [k0, k0 + len), len <= FN_IMU_CHUNK, for
 * the current coefficients (constant step). The unit normal of term t of axis a at
 * sample j is zd[(3 a + t) * FN_IMU_CHUNK + j] (float64 normals) or the same element
 * of zf (float32 normals), by m->normal_dtype; rows of terms that are off hold zeros.
 * buffered: read the true values into a buffer before writing any output (outputs
 * that overlap the other triad's input, or a linear step). */
FN_DECLARE_KERNEL(void, fn_imu_chunk,
                  (fn_imu * m, size_t k0, size_t len, const double *omega,
                   const double *accel, double *omega_out, double *accel_out,
                   const double *zd, const float *zf, int buffered))

/* fn_imu_step_cached's sample of a plain model (m->plain) whose checks of the bias
 * states passed: *bad = whether a true value is one check_inputs refuses (nothing is
 * then written or changed); else the sample of fn_imu_axis_sample's steps 2-3 on each
 * axis, in its order of operations, with the unit normals z[6 t + a] (float32 ones
 * widened exactly: zf, else zd), the bias states updated and the outputs written after
 * every read. The count and streams are the caller's. */
FN_DECLARE_KERNEL(void, fn_imu_step_plain,
                  (fn_imu * m, const float *zf, const double *zd, const double *omega,
                   const double *accel, double *omega_out, double *accel_out, int *bad))

/* *bad = whether v[0..n) holds a finite value beyond max_input (the check of the true
 * values; the first such value is then found by a plain loop). */
FN_DECLARE_KERNEL(void, fn_imu_any_too_large,
                  (const double *v, size_t n, double max_input, int *bad))

#endif
