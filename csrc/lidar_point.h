/* The per-point arithmetic of the lidar models, one FN_INLINE function per point
 * (or beam) and float type, so that a later GPU build can compile the very same
 * functions for CUDA: plain scalars and pointers in and out, no SIMD intrinsics, only
 * +, -, *, /, sqrt, round and fnmath.h's functions (correctly rounded or exact, or the
 * project's own polynomials), no libm transcendental function. Functions are FN_INLINE
 * (csrc/fnhd.h): `static inline` in C, device functions under CUDA; infinities come
 * from bit patterns (NVRTC has no INFINITY), so the file compiles under NVRTC.
 *
 * The scalar kernels (lidar_kern.c, carla.c) call these functions; the AVX2 loops of
 * lidar_kern_avx2.h do the same operations in the same order on several points at
 * once, so every path writes the same bits.
 */
#ifndef FN_LIDAR_POINT_H
#define FN_LIDAR_POINT_H

#include "fnhd.h"
#include "fnmath.h"

/* Rot(k, e) q = c q + s (k x q) + (1 - c)(k . q) k (Rodrigues) for a unit axis k, s and
 * c the sine and cosine of e: the rotation of hit points (fn_lidar_hit) and of the
 * columns of ray poses (lidar.c). */
#define FN_DEFINE_LIDAR_ROTATE(T, SUF)                                                     \
    FN_INLINE void fn_lidar_rotate_##SUF(T k0, T k1, T k2, T s, T c, T qx, T qy, T qz,     \
                                         T *vx, T *vy, T *vz) {                            \
        T kq = k0 * qx + k1 * qy + k2 * qz;                                                \
        T w = (1 - c) * kq;                                                                \
        *vx = c * qx + s * (k1 * qz - k2 * qy) + w * k0;                                   \
        *vy = c * qy + s * (k2 * qx - k0 * qz) + w * k1;                                   \
        *vz = c * qz + s * (k0 * qy - k1 * qx) + w * k2;                                   \
    }
FN_DEFINE_LIDAR_ROTATE(double, f64)
FN_DEFINE_LIDAR_ROTATE(float, f32)

/* Hitpoint angular noise, then distance noise (RGL's gaussianNoiseKernels.cu), for one
 * hit at offset q = p - t from the lidar origin t, in the caller's frame:
 *   angular: v = Rot(k, e) q = c q + s (k x q) + (1 - c)(k . q) k (Rodrigues; s, c the
 *            sine and cosine of e), and the distance becomes |v| (RGL rewrites the
 *            DISTANCE field to the rotated point's length);
 *   distance: eps = mu + (base + rise d) zd, v moves by eps along v / |v|, and the
 *            distance becomes d + eps; a point at the origin (|v| = 0) has no
 *            direction and stays (eps = 0).
 * d is the point's distance on entry (given, or |q|), r = |q|, h its hit flag (only
 * hits move). Writes v and returns the new distance. */
#define FN_DEFINE_LIDAR_HIT(T, SUF, SQRT)                                                  \
    FN_INLINE T fn_lidar_hit_##SUF(int angular, int distance, T k0, T k1, T k2, T s, T c,  \
                                   T mu, T base, T rise, T zd, int h, T r, T qx, T qy,     \
                                   T qz, T d, T *vx, T *vy, T *vz) {                       \
        T ox = qx, oy = qy, oz = qz, rn = r;                                               \
        if (angular) {                                                                     \
            fn_lidar_rotate_##SUF(k0, k1, k2, s, c, qx, qy, qz, &ox, &oy, &oz);            \
            rn = SQRT(ox * ox + oy * oy + oz * oz);                                        \
            d = rn;                                                                        \
        }                                                                                  \
        if (distance) {                                                                    \
            int moves = h & (rn > 0);                                                      \
            T eps = mu + (base + rise * d) * zd;                                           \
            eps = moves ? eps : 0;                                                         \
            T rs = moves ? rn : 1;                                                         \
            T sc = eps / rs;                                                               \
            ox = ox + ox * sc;                                                             \
            oy = oy + oy * sc;                                                             \
            oz = oz + oz * sc;                                                             \
            d = d + eps;                                                                   \
        }                                                                                  \
        *vx = ox;                                                                          \
        *vy = oy;                                                                          \
        *vz = oz;                                                                          \
        return d;                                                                          \
    }
FN_DEFINE_LIDAR_HIT(double, f64, sqrt)
FN_DEFINE_LIDAR_HIT(float, f32, sqrtf)

/* |q| of a point whose squares overflowed (r = inf), scaled by its largest component:
 * finite unless |q| itself lies beyond the type's range; r itself for a point with a
 * non-finite coordinate. Such points are non-hits (far beyond the largest range): this
 * only makes their default distance the true one instead of inf. */
#define FN_DEFINE_LIDAR_FAR_NORM(T, SUF, FABS_, SQRT_, TMAX)                               \
    FN_INLINE T fn_lidar_far_norm_##SUF(T qx, T qy, T qz, T r) {                           \
        T ax = FABS_(qx), ay = FABS_(qy), az = FABS_(qz);                                  \
        T m = ax > ay ? ax : ay;                                                           \
        m = m > az ? m : az;                                                               \
        if (!(m <= TMAX) || ax != ax || ay != ay || az != az) return r;                    \
        T a = qx / m, b = qy / m, c = qz / m;                                              \
        return m * SQRT_(a * a + b * b + c * c);                                           \
    }
FN_DEFINE_LIDAR_FAR_NORM(double, f64, fabs, sqrt, 0x1.fffffffffffffp+1023)
FN_DEFINE_LIDAR_FAR_NORM(float, f32, fabsf, sqrtf, 0x1.fffffep+127f)

/* The sine and cosine of a point's hitpoint angle e = am + as * za (rad). When every
 * possible angle lies within an eighth of a turn (`octant`: |am| + 6.7 as <= 0.78, as
 * |z| <= 6.66 in the random core) the octant polynomial takes e in turns directly,
 * skipping the range reduction; the choice depends only on the parameters. */
#define FN_DEFINE_LIDAR_ANGLE(T, SUF)                                                      \
    FN_INLINE void fn_lidar_angle_##SUF(T am, T as, float za, int octant, T *sn, T *cs) {  \
        if (octant)                                                                        \
            fn_sincos_octant_##SUF((am + as * (T)za) * (T)0.15915494309189533577, sn, cs); \
        else                                                                               \
            fn_sincos_##SUF(am + as * (T)za, sn, cs);                                      \
    }
FN_DEFINE_LIDAR_ANGLE(double, f64)
FN_DEFINE_LIDAR_ANGLE(float, f32)

/* One point of LidarNoise.apply (lidar.h's fn_lidar_points_*), everything but the draws:
 * q = p - t; r = |q|; d = the given distance, or r (fn_lidar_far_norm where r
 * overflows); a hit is flagged with |d| and r at most rmax; fn_lidar_hit moves it; the
 * world output is p + (v - q) for a hit and p otherwise, the distance the new one or
 * d, and, when `local`, the noised offset in the lidar frame (m, row-major). A NaN the
 * arithmetic makes (the distance of a point with a NaN coordinate, a local coordinate
 * of a non-finite non-hit) is the one quiet NaN QNAN, not whatever payload the
 * hardware propagates (x86 keeps an operand's, a GPU makes its own). */
#define FN_DEFINE_LIDAR_POINT(T, SUF, SQRT_, FABS_, TMAX, QNAN)                            \
    typedef struct {                                                                       \
        T t0, t1, t2; /* lidar origin, caller's frame (m) */                               \
        T k0, k1, k2; /* unit rotation axis, caller's frame */                             \
        T mu, base, rise, rmax;                                                            \
        T m[9]; /* caller -> lidar rotation, row-major */                                  \
        int angular, distance, local;                                                      \
    } fn_lidar_point_params_##SUF;                                                         \
    FN_INLINE void fn_lidar_point_##SUF(                                                   \
        const fn_lidar_point_params_##SUF *p, T x, T y, T z, int has_dist, T dist,         \
        int flag, T sn, T cs, float zd, T *po, T *dout, uint8_t *mout, T *lout) {          \
        T qx = x - p->t0, qy = y - p->t1, qz = z - p->t2;                                  \
        T r = SQRT_(qx * qx + qy * qy + qz * qz);                                          \
        T d = has_dist ? dist : r <= TMAX ? r : fn_lidar_far_norm_##SUF(qx, qy, qz, r);    \
        d = !has_dist && d != d ? QNAN : d; /* computed NaNs: one canonical NaN */         \
        int h = flag & (FABS_(d) <= p->rmax) & (r <= p->rmax);                             \
        T vx, vy, vz;                                                                      \
        T dn = fn_lidar_hit_##SUF(p->angular, p->distance, p->k0, p->k1, p->k2,            \
                                  p->angular ? sn : 0, p->angular ? cs : 1, p->mu,         \
                                  p->base, p->rise, p->distance ? (T)zd : 0, h, r, qx, qy, \
                                  qz, d, &vx, &vy, &vz);                                   \
        T ox = x + (vx - qx), oy = y + (vy - qy), oz = z + (vz - qz);                      \
        po[0] = h ? ox : x;                                                                \
        po[1] = h ? oy : y;                                                                \
        po[2] = h ? oz : z;                                                                \
        *dout = h ? dn : d;                                                                \
        *mout = (uint8_t)h;                                                                \
        if (p->local) {                                                                    \
            T ax = h ? vx : qx, ay = h ? vy : qy, az = h ? vz : qz;                        \
            for (int j = 0; j < 3; j++) {                                                  \
                T l = p->m[3 * j] * ax + p->m[3 * j + 1] * ay + p->m[3 * j + 2] * az;      \
                lout[j] = l != l ? QNAN : l;                                               \
            }                                                                              \
        }                                                                                  \
    }
FN_DEFINE_LIDAR_POINT(double, f64, sqrt, fabs, 0x1.fffffffffffffp+1023,
                      fn_f64(UINT64_C(0x7FF8000000000000)))
FN_DEFINE_LIDAR_POINT(float, f32, sqrtf, fabsf, 0x1.fffffep+127f, fn_f32(0x7FC00000u))

/* Gazebo's range noise for one beam x (m), z its standard normal (gz-sensors
 * Lidar::ApplyNoise, GaussianNoiseModel::ApplyImpl with dt = 0, Lidar::Clamp):
 *   inf_outside: a finite x below lo becomes -inf, above hi +inf (CpuLidarSensor);
 *   noise off: x as it is (then);
 *   finite x -> (x + bias) + (mean + sd z), rounded to a multiple of prec when
 *   quantize (std::round: half away from zero; where y / prec overflows y is a
 *   multiple already and is kept), clamped to [lo, hi]; +-inf kept; NaN -> hi.
 * round() is exact, so it is the same on every target. */
#define FN_DEFINE_RANGE_BEAM(T, SUF, ROUND, FABS, T_MAX, T_INF)                            \
    FN_INLINE T fn_range_beam_##SUF(T x, T z, T bias, T mean, T sd, int quantize, T prec,  \
                                    T lo, T hi, int noise, int inf_outside) {              \
        if (inf_outside) {                                                                 \
            x = x < lo ? -(T_INF) : x;                                                     \
            x = x > hi ? (T_INF) : x;                                                      \
        }                                                                                  \
        if (!noise) return x;                                                              \
        T y = (x + bias) + (mean + sd * z);                                                \
        if (quantize) {                                                                    \
            T u = y / prec;                                                                \
            T q = ROUND(u) * prec;                                                         \
            y = FABS(u) <= T_MAX ? q : y;                                                  \
        }                                                                                  \
        y = y < lo ? lo : y;                                                               \
        y = y > hi ? hi : y;                                                               \
        T res = FABS(x) <= T_MAX ? y : x;                                                  \
        return x != x ? hi : res;                                                          \
    }
FN_DEFINE_RANGE_BEAM(double, f64, round, fabs, 0x1.fffffffffffffp+1023,
                     fn_f64(UINT64_C(0x7FF0000000000000)))
FN_DEFINE_RANGE_BEAM(float, f32, roundf, fabsf, 0x1.fffffep+127f, fn_f32(0x7F800000u))

/* A uniform in [0, 1) from a 32-bit word: w / 2^32, exact in double. u < p is then
 * never true for p = 0 and always for p = 1. */
FN_INLINE double fn_unit_from_u32(uint32_t w) {
    return (double)w * 0x1p-32;
}

/* CARLA's ray-cast lidar for one point (x, y, z) in the sensor frame (m)
 * (RayCastLidar.cpp: PreprocessRays, ComputeDetection, PostprocessDetection), in three
 * steps a kernel may run in separate passes (same operations, same bits):
 *   fn_carla_distance: d = |p| (inf or NaN for a point with a non-finite coordinate or
 *     overflowing squares: such a point is dropped and copied unchanged);
 *   fn_carla_intensity: I = e^(-atten d) from that noise-free distance (fn_exp_f64);
 *   fn_carla_point: general drop-off (lost when gen_active and ug < general_rate),
 *     noise (when noise_on, p moves by sd zn along p / d, not for d = 0), intensity
 *     drop-off (kept when I > limit, else when ui < alpha I + beta, alpha = p0 / limit,
 *     beta = 1 - p0). Writes the point and its intensity; returns 1 when it is kept. */
#define FN_DEFINE_CARLA_POINT(T, SUF, SQRT, T_MAX)                                         \
    FN_INLINE T fn_carla_distance_##SUF(T x, T y, T z) {                                   \
        return SQRT(x * x + y * y + z * z);                                                \
    }                                                                                      \
    FN_INLINE double fn_carla_intensity_##SUF(double atten, T d) {                         \
        int finite = d <= T_MAX; /* false for NaN, inf and overflowed squares */           \
        return fn_exp_f64(-atten * (double)(finite ? d : 0));                              \
    }                                                                                      \
    FN_INLINE int fn_carla_point_##SUF(                                                    \
        T x, T y, T z, T d, double in, double ug, double ui, T zn, int gen_active,         \
        double general_rate, int noise_on, T sd, double limit, double alpha, double beta,  \
        T *ox, T *oy, T *oz, T *intensity) {                                               \
        int finite = d <= T_MAX;                                                           \
        int keep = finite & !(gen_active & (ug < general_rate));                           \
        T sc = (noise_on & finite & (d > 0)) ? sd * zn / d : 0;                            \
        *ox = finite ? x + x * sc : x;                                                     \
        *oy = finite ? y + y * sc : y;                                                     \
        *oz = finite ? z + z * sc : z;                                                     \
        *intensity = (T)in;                                                                \
        keep &= (in > limit) | (ui < alpha * in + beta);                                   \
        return keep;                                                                       \
    }
FN_DEFINE_CARLA_POINT(double, f64, sqrt, 0x1.fffffffffffffp+1023)
FN_DEFINE_CARLA_POINT(float, f32, sqrtf, 0x1.fffffep+127f)

#endif
