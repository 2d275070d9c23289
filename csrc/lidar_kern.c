/* Per-chunk lidar kernels, compiled once per SIMD target (see simd.h). A chunk of
 * points is done in one pass over the points (POINT_ONE, in plain C); on AVX2 and
 * AVX-512 builds, hand-written AVX2 loops do the same operations in the same order on
 * 4 (float64) or 8 (float32) points at once, with shuffles for the N x 3 layout. Only
 * +, -, *, /, sqrt, fma and fnmath.h's sincos are used, so every target writes the
 * same bits.
 *
 * The body is written once for a generic float type T and included twice (float64,
 * float32) by this file itself. */
#ifndef FN_LIDAR_KERN_BODY
#define FN_LIDAR_KERN_BODY

#include <math.h>
#include <stdint.h>

#include "fnmath.h"
#include "lidar.h"
#include "lidar_point.h"

/* lidar_far_norm: csrc/lidar_point.h (shared with the GPU path). */
#define lidar_far_norm_f64 fn_lidar_far_norm_f64
#define lidar_far_norm_f32 fn_lidar_far_norm_f32

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#include <string.h>

#include "fnmath_avx2.h"

/* The vector loops (lidar_kern_avx2.h, included once per type below) do POINT_ONE's
 * operations in the same order on 4 (float64) or 8 (float32) points at once. What
 * differs between the types is here: the loads and stores of the N x 3 layout
 * (three vectors hold 4 or 8 points, shuffled to x, y, z) and of the hit masks. */

/* 4 hit flags (movemask bits) -> 4 bytes 0/1, little-endian */
static const uint32_t lidar_mask_bytes[16] = {
    0x00000000, 0x00000001, 0x00000100, 0x00000101, 0x00010000, 0x00010001,
    0x00010100, 0x00010101, 0x01000000, 0x01000001, 0x01000100, 0x01000101,
    0x01010000, 0x01010001, 0x01010100, 0x01010101};

/* (x0 y0 z0 x1) (y1 z1 x2 y2) (z2 x3 y3 z3) -> x, y, z */
static inline __attribute__((always_inline)) void
aos_load_f64(const double *src, __m256d *x, __m256d *y, __m256d *z) {
    __m256d a = _mm256_loadu_pd(src), b = _mm256_loadu_pd(src + 4);
    __m256d c = _mm256_loadu_pd(src + 8);
    __m256d u = _mm256_blend_pd(a, b, 0xC);         /* x0 y0 x2 y2 */
    __m256d v = _mm256_permute2f128_pd(a, c, 0x21); /* z0 x1 z2 x3 */
    __m256d w = _mm256_blend_pd(b, c, 0xC);         /* y1 z1 y3 z3 */
    *x = _mm256_blend_pd(u, v, 0xA);
    *y = _mm256_shuffle_pd(u, w, 0x5);
    *z = _mm256_blend_pd(v, w, 0xA);
}

static inline __attribute__((always_inline)) void aos_store_f64(double *dst, __m256d x,
                                                                __m256d y, __m256d z) {
    __m256d u = _mm256_unpacklo_pd(x, y);   /* x0 y0 x2 y2 */
    __m256d w = _mm256_unpackhi_pd(y, z);   /* y1 z1 y3 z3 */
    __m256d v = _mm256_blend_pd(z, x, 0xA); /* z0 x1 z2 x3 */
    _mm256_storeu_pd(dst, _mm256_permute2f128_pd(u, v, 0x20));
    _mm256_storeu_pd(dst + 4, _mm256_blend_pd(w, u, 0xC));
    _mm256_storeu_pd(dst + 8, _mm256_permute2f128_pd(v, w, 0x31));
}

/* all ones in the lanes whose input mask byte is 0 */
static inline __m256d mask_in_zero_f64(const uint8_t *m) {
    uint32_t m4;
    memcpy(&m4, m, 4);
    __m256i f = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128((int)m4));
    return _mm256_castsi256_pd(_mm256_cmpeq_epi64(f, _mm256_setzero_si256()));
}

static inline void mask_out_store_f64(uint8_t *dst, __m256d h) {
    uint32_t mb = lidar_mask_bytes[_mm256_movemask_pd(h)];
    memcpy(dst, &mb, 4);
}

/* float32 points eight at a time: three vectors hold eight points; blends gather
 * each coordinate (in a fixed lane order), one lane permute puts it in order. */
static inline __attribute__((always_inline)) void aos_load_f32(const float *src, __m256 *x,
                                                               __m256 *y, __m256 *z) {
    __m256 a = _mm256_loadu_ps(src), b = _mm256_loadu_ps(src + 8);
    __m256 c = _mm256_loadu_ps(src + 16);
    __m256 tx = _mm256_blend_ps(_mm256_blend_ps(a, b, 0x92), c, 0x24);
    __m256 ty = _mm256_blend_ps(_mm256_blend_ps(a, b, 0x24), c, 0x49);
    __m256 tz = _mm256_blend_ps(_mm256_blend_ps(a, b, 0x49), c, 0x92);
    *x = _mm256_permutevar8x32_ps(tx, _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    *y = _mm256_permutevar8x32_ps(ty, _mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
    *z = _mm256_permutevar8x32_ps(tz, _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
}

static inline __attribute__((always_inline)) void aos_store_f32(float *dst, __m256 x,
                                                                __m256 y, __m256 z) {
    __m256 tx = _mm256_permutevar8x32_ps(x, _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    __m256 ty = _mm256_permutevar8x32_ps(y, _mm256_setr_epi32(5, 0, 3, 6, 1, 4, 7, 2));
    __m256 tz = _mm256_permutevar8x32_ps(z, _mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
    _mm256_storeu_ps(dst, _mm256_blend_ps(_mm256_blend_ps(tx, ty, 0x92), tz, 0x24));
    _mm256_storeu_ps(dst + 8, _mm256_blend_ps(_mm256_blend_ps(tx, ty, 0x24), tz, 0x49));
    _mm256_storeu_ps(dst + 16, _mm256_blend_ps(_mm256_blend_ps(tx, ty, 0x49), tz, 0x92));
}

static inline __m256 mask_in_zero_f32(const uint8_t *m) {
    __m256i f = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)m));
    return _mm256_castsi256_ps(_mm256_cmpeq_epi32(f, _mm256_setzero_si256()));
}

static inline void mask_out_store_f32(uint8_t *dst, __m256 h) {
    int hb = _mm256_movemask_ps(h);
    uint32_t mb[2] = {lidar_mask_bytes[hb & 15], lidar_mask_bytes[hb >> 4]};
    memcpy(dst, mb, 8);
}

#define VT __m256d
#define VS double
#define VOP(op) _mm256_##op##_pd
#define VNAME(name) name##_f64
#define V_LANES 4
#define V_LOAD_Z(ptr) _mm256_cvtps_pd(_mm_loadu_ps(ptr))
#include "lidar_kern_avx2.h"

#define VT __m256
#define VS float
#define VOP(op) _mm256_##op##_ps
#define VNAME(name) name##_f32
#define V_LANES 8
#define V_LOAD_Z(ptr) _mm256_loadu_ps(ptr)
#include "lidar_kern_avx2.h"
#define LIDAR_VEC 1
#else
#define LIDAR_VEC 0
#endif

#define T double
#define SUF f64
#define VEC_LOOP lidar_vec_f64
#define SINCOS fn_sincos_f64
#define SINCOS_OCTANT fn_sincos_octant_f64
#define ROUND round
#define FABS fabs
#define SQRT sqrt
#define T_MAX 0x1.fffffffffffffp+1023
#include "lidar_kern.c"
#undef T
#undef SUF
#undef SINCOS
#undef SINCOS_OCTANT
#undef ROUND
#undef FABS
#undef SQRT
#undef T_MAX
#undef VEC_LOOP

#define T float
#define VEC_LOOP lidar_vec_f32
#define SUF f32
#define SINCOS fn_sincos_f32
#define SINCOS_OCTANT fn_sincos_octant_f32
#define ROUND roundf
#define FABS fabsf
#define SQRT sqrtf
#define T_MAX 0x1.fffffep+127f
#include "lidar_kern.c"
#undef T
#undef SUF
#undef SINCOS
#undef SINCOS_OCTANT
#undef ROUND
#undef FABS
#undef SQRT
#undef T_MAX

#else /* ---- body, for one T ---- */

#define NAME_(a, b) a##_##b
#define NAME(a, b) NAME_(a, b)
#define POINTS_CHUNK FN_KERNEL(NAME(fn_lidar_points_chunk, SUF))
#define RANGE_CHUNK FN_KERNEL(NAME(fn_range_chunk, SUF))

/* One point, plain C: the reference arithmetic (fn_lidar_point, csrc/lidar_point.h,
 * which the GPU path compiles too). The vector loops below do these very operations,
 * in this order, on several points at once. sn and cs hold the sines and cosines of
 * the points' angles (angular noise only), zd their distance draws. */
#define POINT_ONE(i)                                                                       \
    NAME(fn_lidar_point, SUF)(                                                             \
        &pp, points[3 * (i)], points[3 * (i) + 1], points[3 * (i) + 2], dist_in != NULL,   \
        dist_in ? dist_in[i] : 0, mask_in ? mask_in[i] != 0 : 1, angular ? sn[i] : 0,      \
        angular ? cs[i] : 1, distance ? zd[i] : 0.0f, points_out + 3 * (i),                \
        dist_out + (i), mask_out + (i), local_out ? local_out + 3 * (i) : NULL)

/* sn, cs of points [lo, hi): when every possible angle lies within an eighth of a
 * turn (|z| <= 6.66 in the random core, so |e| <= |mean| + 6.7 sd), the octant
 * polynomial is used directly, skipping the range reduction. The choice depends only
 * on the parameters, so split clouds still give the same bits. */
#define SINCOS_LOOP(lo, hi)                                                                \
    do {                                                                                   \
        for (size_t j = (lo); j < (hi); j++)                                               \
            NAME(fn_lidar_angle, SUF)(am, as, za[j], octant, &sn[j], &cs[j]);              \
    } while (0)

/* Hitpoint angular noise, then distance noise, on one chunk:
 *   hit: flagged, distance and |q| (q = p - t) at most FN_LIDAR_MAX_RANGE (false for
 *        inf, NaN, and for an |q| whose squares overflow), which with the parameters'
 *        bounds keeps eps, eps / |q| and every result finite;
 *   angular: v = Rot(k, e) q = c q + s (k x q) + (1 - c)(k . q) k;
 *   distance: eps = mu + (base + rise d) z along v / |v| (|v| = r); a point at the
 *        origin has no direction and keeps its place and distance;
 *   output p + (v - q) for hits, p unchanged otherwise.
 * Everything is one pass over the points; the AVX2 loops compute small angles'
 * sines and cosines in that pass, and the other sines and cosines (the scalar
 * tail's, and large angles) come from their own branch-free loop first. */
void POINTS_CHUNK(const fn_lidar_points_params *p, size_t n, const T *points,
                  const T *dist_in, const uint8_t *mask_in, const float *za,
                  const float *zd, T *points_out, T *dist_out, uint8_t *mask_out,
                  T *local_out) {
    T sn[FN_LIDAR_CHUNK], cs[FN_LIDAR_CHUNK];
    const T t0 = (T)p->origin[0], t1 = (T)p->origin[1], t2 = (T)p->origin[2];
    const T k0 = (T)p->axis[0], k1 = (T)p->axis[1], k2 = (T)p->axis[2];
    const T mu = (T)p->distance_mean, base = (T)p->distance_base;
    const T rise = (T)p->distance_rise;
    const double *m = p->to_local;
    const T m00 = (T)m[0], m01 = (T)m[1], m02 = (T)m[2];
    const T m10 = (T)m[3], m11 = (T)m[4], m12 = (T)m[5];
    const T m20 = (T)m[6], m21 = (T)m[7], m22 = (T)m[8];
    const int angular = p->angular != 0, distance = p->distance != 0;

    const T am = (T)p->angular_mean, as = (T)p->angular_stddev;
    const int octant = fabs(p->angular_mean) + 6.7 * p->angular_stddev <= 0.78;
    const T RMAX = (T)FN_LIDAR_MAX_RANGE;
    const NAME(fn_lidar_point_params, SUF)
        pp = {t0,
              t1,
              t2,
              k0,
              k1,
              k2,
              mu,
              base,
              rise,
              RMAX,
              {m00, m01, m02, m10, m11, m12, m20, m21, m22},
              angular,
              distance,
              local_out != NULL};
    size_t i = 0;
#if LIDAR_VEC
    /* the octant case computes its sines and cosines inside the vector loop */
    if (angular && !octant) SINCOS_LOOP(0, n);
    i = VEC_LOOP(p, octant, n, points, dist_in, mask_in, za, sn, cs, zd, points_out,
                 dist_out, mask_out, local_out);
    if (angular && octant) SINCOS_LOOP(i, n);
#else
    if (angular) SINCOS_LOOP(0, n);
#endif
    for (; i < n; i++)
        POINT_ONE(i);
}

/* Gazebo ranges: z holds standard normals. */
void RANGE_CHUNK(const fn_range_params *p, size_t n, const T *in, const float *z, T *out) {
    const T mean = (T)p->mean, sd = (T)p->stddev;
    const T bias = (T)p->bias, prec = (T)p->precision;
    const T lo = (T)p->min_range, hi = (T)p->max_range;
    const int quantize = p->precision > 0;
    const int noise = p->noise != 0, inf_outside = p->inf_outside != 0;
    const int nan_rule = p->nan_rule;
    for (size_t i = 0; i < n; i++) {
        const T x = in[i]; /* read first: out may alias in */
        T y = NAME(fn_range_beam, SUF)(x, (T)z[i], bias, mean, sd, quantize, prec, lo, hi,
                                       noise, inf_outside);
        if (nan_rule != FN_RANGE_NAN_DEFAULT && x != x)
            y = nan_rule == FN_RANGE_NAN_MAX ? hi : x;
        out[i] = y;
    }
}

#undef POINTS_CHUNK
#undef POINT_ONE
#undef SINCOS_LOOP
#undef RANGE_CHUNK
#undef NAME
#undef NAME_
#endif
