/* The project's own elementary functions.
 *
 * Branch-free, built only from IEEE operations that are correctly rounded
 * (+, -, *, /, sqrt, fma, exact conversions, bit moves), always in the same order.
 * So the scalar build and the AVX2/AVX-512 builds of a loop that uses them give the
 * same bits, which libm (and its vector variants) cannot promise. Accuracy: a few
 * ulp, far below what moment, KS or tail tests can see.
 */
#ifndef FN_MATH_H
#define FN_MATH_H

#include "fnhd.h"

/* Bit casts (CUDA has intrinsics for them; memcpy is the portable C spelling). */
#if defined(__CUDACC__)
FN_INLINE uint64_t fn_bits64(double x) {
    return (uint64_t)__double_as_longlong(x);
}
FN_INLINE double fn_f64(uint64_t u) {
    return __longlong_as_double((long long)u);
}
FN_INLINE uint32_t fn_bits32(float x) {
    return (uint32_t)__float_as_uint(x);
}
FN_INLINE float fn_f32(uint32_t u) {
    return __uint_as_float(u);
}
#else
FN_INLINE uint64_t fn_bits64(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}
FN_INLINE double fn_f64(uint64_t u) {
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}
FN_INLINE uint32_t fn_bits32(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}
FN_INLINE float fn_f32(uint32_t u) {
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}
#endif

/* Exact conversions of small integers (u < 2^23, |k| < 2^22) to float. On a GPU by
 * their bit patterns: 2^23 + u and 1.5 * 2^23 + k are floats whose low mantissa bits
 * are the integer, and subtracting the offset is exact; an integer and a float add,
 * which a GPU issues at full rate (its int -> float conversion runs at a quarter of
 * that or less). On a CPU the conversion instruction is as cheap. The same values
 * either way (tests/test_cuda_host.py checks the identity over the whole range). */
FN_INLINE float fn_small_u32_to_f32(uint32_t u) {
#if defined(__CUDA_ARCH__)
    return fn_f32(0x4B000000u | u) - 0x1p23f;
#else
    return (float)(int32_t)u;
#endif
}
FN_INLINE float fn_small_i32_to_f32(int32_t k) {
#if defined(__CUDA_ARCH__)
    return fn_f32(0x4B400000u + (uint32_t)k) - 0x1.8p23f;
#else
    return (float)k;
#endif
}

/* Exact conversion of a small signed integer (|k| < 2^51) to double, using only
 * integer operations and one exact subtraction (AVX2 has no int64->double). */
FN_INLINE double fn_i64_to_f64(int64_t k) {
    return fn_f64(0x4338000000000000ull + (uint64_t)k) - 0x1.8p52;
}

/* mult * ln(x * 2^kshift) for positive, finite, normal x. `mult` must be a power
 * of two (it scales every constant exactly, so the result is exactly mult times the
 * unscaled one); callers pass constants so the scaling costs nothing.
 * x = 2^k m with m in [sqrt(1/2), sqrt 2), found with integer operations only. */
FN_INLINE double fn_scaled_log_f64(double x, int64_t kshift, double mult) {
    const uint64_t off = 0x3FE6A09E667F3BCDull; /* sqrt(1/2) */
    uint64_t ix = fn_bits64(x);
    uint64_t tmp = ix - off;
    int64_t k = (int64_t)tmp >> 52;
    double m = fn_f64(ix - (tmp & 0xFFF0000000000000ull));
    double s = (m - 1.0) / (m + 1.0);
    double s2 = s * s;
    /* ln m = 2 atanh s = 2s + s^3 P(s^2), |s| < 0.172; P is a minimax fit of
     * (2 atanh s - 2s) / s^3 (relative error 3e-16, so ln m is good to ~1e-18) */
    double p = mult * 0x1.2b6776a1bf0b9p-3;
    p = fma(p, s2, mult * 0x1.39fd25d62ab23p-3);
    p = fma(p, s2, mult * 0x1.7462be245eae3p-3);
    p = fma(p, s2, mult * 0x1.c71c62c42db89p-3);
    p = fma(p, s2, mult * 0x1.2492492e0b70cp-2);
    p = fma(p, s2, mult * 0x1.99999999951f5p-2);
    p = fma(p, s2, mult * 0x1.5555555555558p-1);
    double lnm = fma(s * s2, p, (2.0 * mult) * s);
    double kd = fn_i64_to_f64(k + kshift);
    return fma(kd, mult * 0x1.62e42fefa39efp-1, fma(kd, mult * 0x1.abc9e3b39803fp-56, lnm));
}

FN_INLINE float fn_scaled_log_f32(float x, int32_t kshift, float mult) {
    const uint32_t off = 0x3F3504F4u; /* sqrt(1/2), rounded up */
    uint32_t ix = fn_bits32(x);
    uint32_t tmp = ix - off;
    int32_t k = (int32_t)tmp >> 23;
    float m = fn_f32(ix - (tmp & 0xFF800000u));
    float s = (m - 1.0f) / (m + 1.0f);
    float s2 = s * s;
    float p = mult * 0x1.2eebdap-2f; /* minimax, as in fn_scaled_log_f64 */
    p = fmaf(p, s2, mult * 0x1.997c10p-2f);
    p = fmaf(p, s2, mult * 0x1.55555cp-1f);
    float lnm = fmaf(s * s2, p, (2.0f * mult) * s);
    float kd = fn_small_i32_to_f32(k + kshift); /* exact */
    return fmaf(kd, mult * 0x1.62e430p-1f, fmaf(kd, mult * -0x1.05c610p-29f, lnm));
}

FN_INLINE float fn_log_f32(float x) {
    return fn_scaled_log_f32(x, 0, 1.0f);
}

/* sin and cos of 2*pi*f for |f| <= 1/8 (f in turns): minimax polynomials in f^2
 * (float64: relative error 2e-17 for sin, absolute 5e-17 for cos; float32: 2e-8).
 * Coefficients from the highest power down; sin = f * P(f^2), cos = 1 + f^2 Q(f^2).
 * The SIMD copies (fnmath_avx2.h) read the same tables. */
FN_TABLE double fn_sin_octant_f64[7] = {0x1.e3f38399551bfp+1, -0x1.e30071afc3e59p+3,
                                        0x1.50782fda12d96p+5, -0x1.32d2cce2e5b19p+6,
                                        0x1.466bc677587f8p+6, -0x1.4abbce625be41p+5,
                                        0x1.921fb54442d18p+2};
FN_TABLE double fn_cos_octant_f64[6] = {0x1.f3dbcea61b1a4p+2, -0x1.a6c9c1be9eb49p+4,
                                        0x1.e1f4fb60281f6p+5, -0x1.55d3c7dbfd139p+6,
                                        0x1.03c1f081b0780p+6, -0x1.3bd3cc9be458bp+4};
FN_TABLE float fn_sin_octant_f32[4] = {-0x1.2d9b40p+6f, 0x1.465ec4p+6f, -0x1.4abbbap+5f,
                                       0x1.921fb6p+2f};
FN_TABLE float fn_cos_octant_f32[3] = {-0x1.4e5e06p+6f, 0x1.03af58p+6f, -0x1.3bd392p+4f};

FN_INLINE void fn_sincos_octant_f64(double f, double *s, double *c) {
    double f2 = f * f;
    double ps = fn_sin_octant_f64[0];
    ps = fma(ps, f2, fn_sin_octant_f64[1]);
    ps = fma(ps, f2, fn_sin_octant_f64[2]);
    ps = fma(ps, f2, fn_sin_octant_f64[3]);
    ps = fma(ps, f2, fn_sin_octant_f64[4]);
    ps = fma(ps, f2, fn_sin_octant_f64[5]);
    ps = fma(ps, f2, fn_sin_octant_f64[6]);
    double pc = fn_cos_octant_f64[0];
    pc = fma(pc, f2, fn_cos_octant_f64[1]);
    pc = fma(pc, f2, fn_cos_octant_f64[2]);
    pc = fma(pc, f2, fn_cos_octant_f64[3]);
    pc = fma(pc, f2, fn_cos_octant_f64[4]);
    pc = fma(pc, f2, fn_cos_octant_f64[5]);
    *s = f * ps;
    *c = fma(pc, f2, 1.0);
}

FN_INLINE void fn_sincos_octant_f32(float f, float *s, float *c) {
    float f2 = f * f;
    float ps = fn_sin_octant_f32[0];
    ps = fmaf(ps, f2, fn_sin_octant_f32[1]);
    ps = fmaf(ps, f2, fn_sin_octant_f32[2]);
    ps = fmaf(ps, f2, fn_sin_octant_f32[3]);
    float pc = fn_cos_octant_f32[0];
    pc = fmaf(pc, f2, fn_cos_octant_f32[1]);
    pc = fmaf(pc, f2, fn_cos_octant_f32[2]);
    *s = f * ps;
    *c = fmaf(pc, f2, 1.0f);
}

/* Rotate (s, c) of the octant angle by q quarter turns: branch-free selects. */
FN_INLINE void fn_quadrant_f64(uint64_t q, double s, double c, double *sin_out,
                               double *cos_out) {
    double sw_s = (q & 1) ? c : s;
    double sw_c = (q & 1) ? s : c;
    *sin_out = fn_f64(fn_bits64(sw_s) ^ ((q & 2) << 62));
    *cos_out = fn_f64(fn_bits64(sw_c) ^ (((q + 1) & 2) << 62));
}

FN_INLINE void fn_quadrant_f32(uint32_t q, float s, float c, float *sin_out,
                               float *cos_out) {
    float sw_s = (q & 1) ? c : s;
    float sw_c = (q & 1) ? s : c;
    *sin_out = fn_f32(fn_bits32(sw_s) ^ ((q & 2) << 30));
    *cos_out = fn_f32(fn_bits32(sw_c) ^ (((q + 1) & 2) << 30));
}

/* sin and cos of x radians, |x| < 2^48. For models (lidar angles, rotations). */
FN_INLINE void fn_sincos_f64(double x, double *s, double *c) {
    double t4 = x * 0x1.45f306dc9c883p-1;  /* 4x / (2 pi): quarter turns */
    double r = (t4 + 0x1.8p52) - 0x1.8p52; /* nearest integer */
    uint64_t q = fn_bits64(t4 + 0x1.8p52);
    double f = (t4 - r) * 0.25; /* exact (Sterbenz), |f| <= 1/8 turn */
    double so, co;
    fn_sincos_octant_f64(f, &so, &co);
    fn_quadrant_f64(q, so, co, s, c);
}

FN_INLINE void fn_sincos_f32(float x, float *s, float *c) {
    float t4 = x * 0x1.45f306p-1f;
    float r = (t4 + 0x1.8p23f) - 0x1.8p23f;
    uint32_t q = fn_bits32(t4 + 0x1.8p23f);
    float f = (t4 - r) * 0.25f;
    float so, co;
    fn_sincos_octant_f32(f, &so, &co);
    fn_quadrant_f32(q, so, co, s, c);
}

/* e^x for finite x; underflows to 0 below about -708, overflows to inf above 709. */
FN_INLINE double fn_exp_f64(double x) {
    x = x < -708.0 ? -708.0 : x;
    x = x > 709.0 ? 709.0 : x;
    double kd = (x * 0x1.71547652b82fep0 + 0x1.8p52) - 0x1.8p52;
    int64_t k =
        (int64_t)(fn_bits64(x * 0x1.71547652b82fep0 + 0x1.8p52) - fn_bits64(0x1.8p52));
    double r = fma(kd, -0x1.62e42fefa39efp-1, x);
    r = fma(kd, -0x1.abc9e3b39803fp-56, r);
    /* Taylor series of e^r, |r| <= 0.347 */
    double p = 0x1.6124613a86d09p-33;     /* 1/13! */
    p = fma(p, r, 0x1.1eed8eff8d898p-29); /* 1/12! */
    p = fma(p, r, 0x1.ae64567f544e4p-26); /* 1/11! */
    p = fma(p, r, 0x1.27e4fb7789f5cp-22); /* 1/10! */
    p = fma(p, r, 0x1.71de3a556c734p-19); /* 1/9! */
    p = fma(p, r, 0x1.a01a01a01a01ap-16); /* 1/8! */
    p = fma(p, r, 0x1.a01a01a01a01ap-13); /* 1/7! */
    p = fma(p, r, 0x1.6c16c16c16c17p-10); /* 1/6! */
    p = fma(p, r, 0x1.1111111111111p-7);  /* 1/5! */
    p = fma(p, r, 0x1.5555555555555p-5);  /* 1/4! */
    p = fma(p, r, 0x1.5555555555555p-3);  /* 1/3! */
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    /* 2^k in two halves so k down to -1022-52 and up to 1023 stay exact */
    int64_t k1 = k >> 1;
    int64_t k2 = k - k1;
    return p * fn_f64((uint64_t)(k1 + 1023) << 52) * fn_f64((uint64_t)(k2 + 1023) << 52);
}

FN_INLINE float fn_exp_f32(float x) {
    x = x < -87.0f ? -87.0f : x;
    x = x > 88.0f ? 88.0f : x;
    float kd = (x * 0x1.715476p0f + 0x1.8p23f) - 0x1.8p23f;
    int32_t k = (int32_t)(fn_bits32(x * 0x1.715476p0f + 0x1.8p23f) - fn_bits32(0x1.8p23f));
    float r = fmaf(kd, -0x1.62e430p-1f, x);
    r = fmaf(kd, 0x1.05c610p-29f, r);
    float p = 0x1.a01a02p-13f;       /* 1/7! */
    p = fmaf(p, r, 0x1.6c16c2p-10f); /* 1/6! */
    p = fmaf(p, r, 0x1.111112p-7f);  /* 1/5! */
    p = fmaf(p, r, 0x1.555556p-5f);  /* 1/4! */
    p = fmaf(p, r, 0x1.555556p-3f);  /* 1/3! */
    p = fmaf(p, r, 0.5f);
    p = fmaf(p, r, 1.0f);
    p = fmaf(p, r, 1.0f);
    int32_t k1 = k >> 1;
    int32_t k2 = k - k1;
    return p * fn_f32((uint32_t)(k1 + 127) << 23) * fn_f32((uint32_t)(k2 + 127) << 23);
}

#endif
