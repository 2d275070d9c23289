/* Gazebo's Gaussian noise model (gz-sensors GaussianNoiseModel), keyed.
 *
 * One channel is one gz-sensors noise object: a sensor component (magnetometer x,
 * altimeter vertical position, ...) or a GazeboNoise. gz-sensors semantics
 * (src/GaussianNoiseModel.cc, Load and ApplyImpl):
 *   Load:  bias = N(bias_mean, bias_stddev) (exactly bias_mean when bias_stddev is
 *          0), drawn once, then negated when a uniform draw is < 0.5.
 *   Apply(x, dt), in this order:
 *     1. white = N(mean, stddev) (exactly mean when stddev is 0);
 *     2. if dyn_stddev > 0, dyn_tau > 0 and dt > 0:
 *          bias = e^(-dt/tau) bias + N(0, sqrt(-sd^2 tau / 2 expm1(-2 dt / tau)));
 *     3. out = (x + bias) + white;
 *     4. if precision > 1e-6 (gz: precision >= 0 and not math::equal(precision, 0,
 *        1e-6)): out = round(out / precision) * precision, halves away from zero
 *        (where out / precision overflows, out is kept: it is already a multiple to
 *        double precision).
 *
 * Random numbers (keyed, so a sample's noise depends only on (key, stream, index)):
 * the channel's streams are base | term, base = FN_STREAM_GZ_TAG | component << 8
 * (csrc/streams.h). Sample k of the channel (k = samples applied before it) uses
 * float64 normal k of base | WHITE (when stddev > 0) and normal k of base | DYNAMIC
 * (when the dynamic bias moves at that sample). The turn-on bias is float64 normal 0
 * of base | BIAS; the sign uniform is u = w / 2^32 with w word 0 of Philox block 0 of
 * base | SIGN, so the bias is negated when w < 2^31.
 *
 * e^x is fn_exp_f64 and expm1 is fn_gz_expm1 below (no libm transcendental
 * functions), so every build and SIMD path gives the same bits; the step is static
 * inline and takes its normals as arguments, so it compiles for CUDA as well.
 */
#ifndef FN_GZNOISE_H
#define FN_GZNOISE_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "fnmath.h"
#include "simd.h"
#include "streams.h"

typedef struct {
    double mean, stddev;        /* white noise N(mean, stddev) */
    double dyn_stddev, dyn_tau; /* dynamic bias driving stddev and correlation time (s) */
    double precision;           /* quantization step; on when > 1e-6 */
} fn_gz_params;

#define FN_GZ_CACHE 16 /* one normal group */

typedef struct {
    fn_gz_params p;
    uint64_t key;
    uint64_t stream; /* base: FN_STREAM_GZ_TAG | component << 8 */
    uint64_t count;  /* samples applied so far (the position) */
    double bias;     /* current bias (turn-on bias, moved by the dynamic bias) */
    /* decoded normal groups for single samples (not part of the state) */
    uint64_t wgroup, dgroup;
    int wok, dok;
    double wz[FN_GZ_CACHE], dz[FN_GZ_CACHE];
} fn_gz_channel;

/* expm1(x) for x <= 0: the Taylor series (to 1/18!) for x > -0.5, where e^x - 1
 * would cancel, else fn_exp_f64(x) - 1 (no cancellation left: e^x - 1 <= -0.39). */
static inline double fn_gz_expm1(double x) {
    if (x > -0.5) {
        double p = 0x1.6827863b97d97p-53;     /* 1/18! */
        p = fma(p, x, 0x1.952c77030ad4ap-49); /* 1/17! */
        p = fma(p, x, 0x1.ae7f3e733b81fp-45); /* 1/16! */
        p = fma(p, x, 0x1.ae7f3e733b81fp-41); /* 1/15! */
        p = fma(p, x, 0x1.93974a8c07c9dp-37); /* 1/14! */
        p = fma(p, x, 0x1.6124613a86d09p-33); /* 1/13! */
        p = fma(p, x, 0x1.1eed8eff8d898p-29); /* 1/12! */
        p = fma(p, x, 0x1.ae64567f544e4p-26); /* 1/11! */
        p = fma(p, x, 0x1.27e4fb7789f5cp-22); /* 1/10! */
        p = fma(p, x, 0x1.71de3a556c734p-19); /* 1/9! */
        p = fma(p, x, 0x1.a01a01a01a01ap-16); /* 1/8! */
        p = fma(p, x, 0x1.a01a01a01a01ap-13); /* 1/7! */
        p = fma(p, x, 0x1.6c16c16c16c17p-10); /* 1/6! */
        p = fma(p, x, 0x1.1111111111111p-7);  /* 1/5! */
        p = fma(p, x, 0x1.5555555555555p-5);  /* 1/4! */
        p = fma(p, x, 0x1.5555555555555p-3);  /* 1/3! */
        p = fma(p, x, 0.5);
        p = fma(p, x, 1.0);
        return x * p;
    }
    return fn_exp_f64(x) - 1.0;
}

/* Whether sample with interval dt moves the dynamic bias (and draws its normal). */
static inline int fn_gz_moves(const fn_gz_params *p, double dt) {
    return p->dyn_stddev > 0 && p->dyn_tau > 0 && dt > 0;
}

/* The dynamic-bias factors of an interval dt: phi = e^(-dt/tau) and the drive's
 * stddev, in gz's order: sqrt(((((-sb) * sb) * tau) / 2) * expm1(-2 dt / tau)). A
 * pure function of (p, dt), so a run may compute them once per distinct dt. */
static inline void fn_gz_dyn_coef(const fn_gz_params *p, double dt, double *phi,
                                  double *sbd) {
    double sb = p->dyn_stddev, tau = p->dyn_tau;
    *sbd = sqrt(-sb * sb * tau / 2 * fn_gz_expm1(-2 * dt / tau));
    *phi = fn_exp_f64(-dt / tau);
}

/* std::round (halves away from zero), exactly, for finite q, without a data-dependent
 * branch (so loops of it vectorize): t = trunc(q) is exact and so is q - t; the sign is
 * q's (-0.3 gives -0, as std::round). */
static inline double fn_gz_round(double q) {
    double t = trunc(q);
    double f = q - t;
    t = f >= 0.5 ? t + 1.0 : t;
    t = f <= -0.5 ? t - 1.0 : t;
    return copysign(t, q);
}

/* The step after the bias update: (x + bias) + white, then the precision. */
static inline double fn_gz_finish(const fn_gz_params *p, double bias, double x, double zw) {
    double white = p->stddev > 0 ? fma(p->stddev, zw, p->mean) : p->mean;
    double out = x + bias + white;
    if (p->precision > 1e-6) {
        double q = out / p->precision;
        double r = fn_gz_round(q) * p->precision;
        out = q - q == 0 ? r : out; /* q finite */
    }
    return out;
}

/* One ApplyImpl step: zw and zd are the sample's standard normals (white, dynamic). */
static inline double fn_gz_step(const fn_gz_params *p, double *bias, double x, double dt,
                                double zw, double zd) {
    if (fn_gz_moves(p, dt)) {
        double phi, sbd;
        fn_gz_dyn_coef(p, dt, &phi, &sbd);
        *bias = phi * *bias + sbd * zd;
    }
    return fn_gz_finish(p, *bias, x, zw);
}

/* The turn-on bias from its normal z and the sign word w. */
static inline double fn_gz_turn_on_bias(double bias_mean, double bias_stddev, double z,
                                        uint32_t w) {
    double b = bias_stddev > 0 ? fma(bias_stddev, z, bias_mean) : bias_mean;
    return w < 0x80000000u ? -b : b;
}

/* WGS84 (a = 6378137 m, f = 1/298.257223563): degrees of latitude and of longitude
 * per metre north and east at geodetic latitude lat_deg: 180/pi / M and
 * 180/pi / (N cos lat), M = a (1 - e^2) / w^1.5, N = a / w^0.5, w = 1 - e^2 sin^2 lat.
 * Where |cos lat| < 1e-12 (the poles) *dlon is 0: no east displacement is defined. */
static inline void fn_gz_wgs84_deg_per_m(double lat_deg, double *dlat, double *dlon) {
    const double a = 6378137.0, f = 1.0 / 298.257223563;
    const double e2 = f * (2.0 - f);
    const double rad = 0x1.1df46a2529d39p-6; /* pi / 180 */
    const double deg = 0x1.ca5dc1a63c1f8p+5; /* 180 / pi */
    double s, c;
    fn_sincos_f64(lat_deg * rad, &s, &c);
    double w = 1.0 - e2 * (s * s);
    double rw = sqrt(w);
    *dlat = deg / (a * (1.0 - e2) / (w * rw));
    *dlon = fabs(c) < 1e-12 ? 0.0 : deg / (a / rw * c);
}

/* gz math::Angle::Normalize of a value in degrees: into [-180, 180]. */
static inline double fn_gz_wrap180(double d) {
    if (d < -180.0 || d > 180.0) d -= 360.0 * floor((d + 180.0) / 360.0);
    return d;
}

/* out[i] = fn_gz_finish(p, b[i], v[i], zw[i]), i < n: SIMD-dispatched (gznoise_kern.c). */
FN_DECLARE_KERNEL(void, fn_gz_finish_block,
                  (const fn_gz_params *p, const double *restrict v,
                   const double *restrict b, const double *restrict zw, size_t n,
                   double *restrict out))

/* Set up a channel: parameters, key, stream base, and the turn-on bias drawn. */
void fn_gz_channel_init(fn_gz_channel *c, const fn_gz_params *p, uint64_t key,
                        uint64_t stream, double bias_mean, double bias_stddev);

/* One sample (gz Noise::Apply(x, dt)). The caller checks count < 2^64 - 1. */
double fn_gz_channel_apply_one(fn_gz_channel *c, double x, double dt);

/* One reading v of a sensor model (the Gazebo sensors' apply_one): run r < nrun is
 * (channel, first column, columns) = run[r]; where on[channel], its columns are
 * noised by that channel in order, the first with interval dt, the others with 0.
 * Every channel's room is checked first: returns the first run whose channel has no
 * room for its samples, with nothing changed, or -1 once the reading is noised. */
int fn_gz_runs_one(fn_gz_channel *ch, const int *on, int (*run)[3], int nrun, double *v,
                   double dt);

/* n rows of m successive samples each: row k's samples are x[k*xs + j*es], j < m, and
 * sample j of a row gets interval dt[k*dts] when j == 0 and 0 otherwise (dts = 0: one
 * dt for all rows). Results go to out[k*os + j*es] (may equal x). Returns -1, doing
 * nothing, if the count would pass 2^64 - 1; else 0. */
int fn_gz_channel_apply(fn_gz_channel *c, size_t m, const double *x, ptrdiff_t xs,
                        ptrdiff_t es, const double *dt, ptrdiff_t dts, size_t n,
                        double *out, ptrdiff_t os);

/* NavSat horizontal position, n rows: lat at x[k*xs], lon at x[k*xs + 1] (degrees).
 * With a channel (c != NULL) the samples are lat then lon of each row (dt on lat);
 * metres != 0 applies the channel to 0 and turns the noise (m) into degrees at the
 * row's true latitude (fn_gz_wgs84_deg_per_m). Both results are then wrapped into
 * [-180, 180] as gz-sensors does. Returns -1 on count overflow (nothing done). */
int fn_gz_navsat_horizontal(fn_gz_channel *c, int metres, const double *x, ptrdiff_t xs,
                            const double *dt, ptrdiff_t dts, size_t n, double *out,
                            ptrdiff_t os);

#endif
