/* Per-chunk lidar kernels, compiled once per SIMD target (see simd.h). Each chunk is
 * copied into structure-of-arrays buffers first, then every pass is a plain,
 * branch-free loop over the chunk that the compiler vectorizes. Only +, -, *, /,
 * sqrt and fnmath.h's sincos are used, so every target writes the same bits.
 *
 * The body is written once for a generic float type T and included twice (float64,
 * float32) by this file itself. */
#ifndef FN_LIDAR_KERN_BODY
#define FN_LIDAR_KERN_BODY

#include <math.h>
#include <stdint.h>

#include "fnmath.h"
#include "lidar.h"

#define T double
#define SUF f64
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

#define T float
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
/* v_i = Rot(k, e) q_i = c q + s (k x q) + (1 - c)(k . q) k, with s, c of e_i */
#define ROTATE(i)                                                                          \
    do {                                                                                   \
        T kq = k0 * qx[i] + k1 * qy[i] + k2 * qz[i];                                       \
        T w = (1 - c) * kq;                                                                \
        vx[i] = c * qx[i] + s * (k1 * qz[i] - k2 * qy[i]) + w * k0;                        \
        vy[i] = c * qy[i] + s * (k2 * qx[i] - k0 * qz[i]) + w * k1;                        \
        vz[i] = c * qz[i] + s * (k0 * qy[i] - k1 * qx[i]) + w * k2;                        \
    } while (0)
#define RANGE_CHUNK FN_KERNEL(NAME(fn_range_chunk, SUF))

void POINTS_CHUNK(const fn_lidar_points_params *p, size_t n, const T *points,
                  const T *dist_in, const uint8_t *mask_in, const float *za,
                  const float *zd, T *points_out, T *dist_out, uint8_t *mask_out,
                  T *local_out) {
    /* original point, its offset q from the lidar origin, the noised offset v */
    T px[FN_LIDAR_CHUNK], py[FN_LIDAR_CHUNK], pz[FN_LIDAR_CHUNK];
    T qx[FN_LIDAR_CHUNK], qy[FN_LIDAR_CHUNK], qz[FN_LIDAR_CHUNK];
    T vx[FN_LIDAR_CHUNK], vy[FN_LIDAR_CHUNK], vz[FN_LIDAR_CHUNK];
    T r[FN_LIDAR_CHUNK], d[FN_LIDAR_CHUNK], dn[FN_LIDAR_CHUNK], hit[FN_LIDAR_CHUNK];
    const T t0 = (T)p->origin[0], t1 = (T)p->origin[1], t2 = (T)p->origin[2];
    const T k0 = (T)p->axis[0], k1 = (T)p->axis[1], k2 = (T)p->axis[2];

    /* hit: flagged, finite distance, finite offset (|x| <= MAX is false for inf, NaN).
     * The two optional inputs are loop-invariant choices; the compiler unswitches. */
    for (size_t i = 0; i < n; i++) {
        T x = points[3 * i], y = points[3 * i + 1], z = points[3 * i + 2];
        T ax = x - t0, ay = y - t1, az = z - t2;
        T ri = SQRT(ax * ax + ay * ay + az * az);
        T di = dist_in ? dist_in[i] : ri;
        int flag = mask_in ? mask_in[i] != 0 : 1;
        px[i] = x;
        py[i] = y;
        pz[i] = z;
        qx[i] = ax;
        qy[i] = ay;
        qz[i] = az;
        r[i] = ri;
        d[i] = di;
        hit[i] = flag & (FABS(di) <= T_MAX) & (ri <= T_MAX);
    }

    /* hitpoint angular noise: v = Rot(k, e) q. When every possible angle lies within
     * an eighth of a turn (|z| <= 6.66 in the random core, so |e| <= |mean| + 6.7 sd),
     * the octant polynomial is used directly, skipping the range reduction. The choice
     * depends only on the parameters, so split clouds still give the same bits. */
    if (p->angular) {
        const T am = (T)p->angular_mean, as = (T)p->angular_stddev;
        if (fabs(p->angular_mean) + 6.7 * p->angular_stddev <= 0.78) {
            const T turns = (T)0.15915494309189533577; /* 1 / (2 pi) */
            for (size_t i = 0; i < n; i++) {
                T s, c;
                SINCOS_OCTANT((am + as * (T)za[i]) * turns, &s, &c);
                ROTATE(i);
            }
        } else {
            for (size_t i = 0; i < n; i++) {
                T s, c;
                SINCOS(am + as * (T)za[i], &s, &c);
                ROTATE(i);
            }
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            vx[i] = qx[i];
            vy[i] = qy[i];
            vz[i] = qz[i];
        }
    }

    /* distance noise: eps = mu + (base + rise d) z along v / |v| (|v| = r); a point at
     * the origin has no direction and keeps its place and distance */
    if (p->distance) {
        const T mu = (T)p->distance_mean, base = (T)p->distance_base;
        const T rise = (T)p->distance_rise;
        for (size_t i = 0; i < n; i++) {
            int moves = (hit[i] != 0) & (r[i] > 0);
            T eps = mu + (base + rise * d[i]) * (T)zd[i];
            eps = moves ? eps : 0;
            T rs = moves ? r[i] : 1;
            T sc = eps / rs;
            vx[i] = vx[i] + vx[i] * sc;
            vy[i] = vy[i] + vy[i] * sc;
            vz[i] = vz[i] + vz[i] * sc;
            dn[i] = d[i] + eps;
        }
    } else {
        for (size_t i = 0; i < n; i++)
            dn[i] = d[i];
    }

    /* world output p + (v - q): exact copy for a point nothing moved */
    for (size_t i = 0; i < n; i++) {
        int h = hit[i] != 0;
        T ox = px[i] + (vx[i] - qx[i]);
        T oy = py[i] + (vy[i] - qy[i]);
        T oz = pz[i] + (vz[i] - qz[i]);
        points_out[3 * i] = h ? ox : px[i];
        points_out[3 * i + 1] = h ? oy : py[i];
        points_out[3 * i + 2] = h ? oz : pz[i];
        dist_out[i] = h ? dn[i] : d[i];
        mask_out[i] = (uint8_t)h;
    }
    if (local_out) {
        const double *m = p->to_local;
        const T m00 = (T)m[0], m01 = (T)m[1], m02 = (T)m[2];
        const T m10 = (T)m[3], m11 = (T)m[4], m12 = (T)m[5];
        const T m20 = (T)m[6], m21 = (T)m[7], m22 = (T)m[8];
        for (size_t i = 0; i < n; i++) {
            int h = hit[i] != 0;
            T ax = h ? vx[i] : qx[i], ay = h ? vy[i] : qy[i], az = h ? vz[i] : qz[i];
            local_out[3 * i] = m00 * ax + m01 * ay + m02 * az;
            local_out[3 * i + 1] = m10 * ax + m11 * ay + m12 * az;
            local_out[3 * i + 2] = m20 * ax + m21 * ay + m22 * az;
        }
    }
}

/* Gazebo ranges: z holds standard normals. */
void RANGE_CHUNK(const fn_range_params *p, size_t n, const T *in, const float *z, T *out) {
    const T mean = (T)p->mean, sd = (T)p->stddev;
    const T bias = (T)p->bias, prec = (T)p->precision;
    const T lo = (T)p->min_range, hi = (T)p->max_range;
    const int quantize = p->precision > 0;
    for (size_t i = 0; i < n; i++) {
        T x = in[i];
        T y = (x + bias) + (mean + sd * (T)z[i]);
        if (quantize) {
            /* std::round's rule (half away from zero); round() is exact, so it is
             * the same on every target, unlike the transcendental functions */
            T u = y / prec;
            y = ROUND(u) * prec;
        }
        y = y < lo ? lo : y;
        y = y > hi ? hi : y;
        /* +-inf pass through, NaN becomes the maximum range */
        T res = FABS(x) <= T_MAX ? y : x;
        out[i] = x != x ? hi : res;
    }
}

#undef POINTS_CHUNK
#undef ROTATE
#undef RANGE_CHUNK
#undef NAME
#undef NAME_
#endif
