/* The AVX2 point loop of lidar_kern.c for one float type, included once per type
 * with VT (vector type), VS (scalar type), VOP(op) (its _mm256 operation), VNAME(name)
 * (the per-type name), V_LANES and V_LOAD_Z (float32 normals to a VT) defined, and
 * the per-type loads and stores of lidar_kern.c in scope; it undefines them at its
 * end. The operations are POINT_ONE's, in the same order, so each lane gives the scalar
 * path's bits. Returns how many points it did (a multiple of V_LANES); POINT_ONE does
 * the rest. No include guard: it is meant to be included twice. */

/* d = r with the lanes in `lanes` (r = inf) replaced by their scaled norm (see
 * lidar_far_norm): only far non-hits, so this is off the hot path. */
static VT VNAME(far_norms)(VT qx, VT qy, VT qz, VT r, int lanes) {
    VS x[V_LANES], y[V_LANES], z[V_LANES], d[V_LANES];
    VOP(storeu)(x, qx);
    VOP(storeu)(y, qy);
    VOP(storeu)(z, qz);
    VOP(storeu)(d, r);
    for (int k = 0; k < V_LANES; k++)
        if (lanes >> k & 1) d[k] = VNAME(lidar_far_norm)(x[k], y[k], z[k], d[k]);
    return VOP(loadu)(d);
}

static inline __attribute__((always_inline)) size_t VNAME(lidar_vec_body)(
    const fn_lidar_points_params *p, size_t n, const VS *points, const VS *dist_in,
    const uint8_t *mask_in, const float *za, const VS *sn, const VS *cs, const float *zd,
    VS *points_out, VS *dist_out, uint8_t *mask_out, VS *local_out, const int angular,
    const int octant, const int distance) {
    const VT t0 = VOP(set1)((VS)p->origin[0]), t1 = VOP(set1)((VS)p->origin[1]);
    const VT t2 = VOP(set1)((VS)p->origin[2]);
    const VT k0 = VOP(set1)((VS)p->axis[0]), k1 = VOP(set1)((VS)p->axis[1]);
    const VT k2 = VOP(set1)((VS)p->axis[2]);
    const VT mu = VOP(set1)((VS)p->distance_mean);
    const VT base = VOP(set1)((VS)p->distance_base);
    const VT rise = VOP(set1)((VS)p->distance_rise);
    const VT one = VOP(set1)((VS)1), zero = VOP(setzero)();
    const VT rmax = VOP(set1)((VS)FN_LIDAR_MAX_RANGE); /* hits: d, r <= max range */
    const VT inf = VOP(set1)((VS)INFINITY);
    const VT sign = VOP(set1)((VS)-0.0);
    const VT qnan = VOP(set1)((VS)NAN); /* the canonical quiet NaN, as fn_lidar_point's */
    const double *mt = p->to_local;     /* the caller's doubles */
    const VT vam = VOP(set1)((VS)p->angular_mean);
    const VT vas = VOP(set1)((VS)p->angular_stddev);
    const VT vturns = VOP(set1)((VS)0.15915494309189533577); /* 1 / (2 pi) */
    size_t i = 0;
    for (; i + V_LANES <= n; i += V_LANES) {
        VT x, y, z;
        VNAME(aos_load)(points + 3 * i, &x, &y, &z);
        VT qx = VOP(sub)(x, t0), qy = VOP(sub)(y, t1);
        VT qz = VOP(sub)(z, t2);
        VT r = VOP(sqrt)(
            VOP(add)(VOP(add)(VOP(mul)(qx, qx), VOP(mul)(qy, qy)), VOP(mul)(qz, qz)));
        VT d = dist_in ? VOP(loadu)(dist_in + i) : r;
        if (!dist_in) { /* squares that overflowed: the true |q| (a far non-hit's) */
            int far = VOP(movemask)(VOP(cmp)(r, inf, _CMP_EQ_OQ));
            if (far) d = VNAME(far_norms)(qx, qy, qz, r, far);
            d = VOP(blendv)(d, qnan, VOP(cmp)(d, d, _CMP_UNORD_Q)); /* as fn_lidar_point */
        }
        VT h = VOP (and)(VOP(cmp)(VOP(andnot)(sign, d), rmax, _CMP_LE_OQ),
                         VOP(cmp)(r, rmax, _CMP_LE_OQ));
        if (mask_in) h = VOP(andnot)(VNAME(mask_in_zero)(mask_in + i), h);
        VT vx = qx, vy = qy, vz = qz, dn = d, dd = d, rn = r;
        if (angular) {
            VT s, c;
            if (octant) {
                /* fn_sincos_octant of (am + as z) / (2 pi), as POINT_ONE */
                VT f = VOP(mul)(VOP(add)(vam, VOP(mul)(vas, V_LOAD_Z(za + i))), vturns);
                VNAME(fn_sincos_octant_avx2)(f, &s, &c);
            } else {
                s = VOP(loadu)(sn + i);
                c = VOP(loadu)(cs + i);
            }
            VT kq =
                VOP(add)(VOP(add)(VOP(mul)(k0, qx), VOP(mul)(k1, qy)), VOP(mul)(k2, qz));
            VT w = VOP(mul)(VOP(sub)(one, c), kq);
            vx = VOP(add)(
                VOP(add)(VOP(mul)(c, qx),
                         VOP(mul)(s, VOP(sub)(VOP(mul)(k1, qz), VOP(mul)(k2, qy)))),
                VOP(mul)(w, k0));
            vy = VOP(add)(
                VOP(add)(VOP(mul)(c, qy),
                         VOP(mul)(s, VOP(sub)(VOP(mul)(k2, qx), VOP(mul)(k0, qz)))),
                VOP(mul)(w, k1));
            vz = VOP(add)(
                VOP(add)(VOP(mul)(c, qz),
                         VOP(mul)(s, VOP(sub)(VOP(mul)(k0, qy), VOP(mul)(k1, qx)))),
                VOP(mul)(w, k2));
            /* RGL rewrites the distance to the rotated point's |v| */
            rn = VOP(sqrt)(
                VOP(add)(VOP(add)(VOP(mul)(vx, vx), VOP(mul)(vy, vy)), VOP(mul)(vz, vz)));
            dd = rn;
            dn = rn;
        }
        if (distance) {
            VT moves = VOP (and)(h, VOP(cmp)(rn, zero, _CMP_GT_OQ));
            VT zf = V_LOAD_Z(zd + i);
            VT eps = VOP(add)(mu, VOP(mul)(VOP(add)(base, VOP(mul)(rise, dd)), zf));
            eps = VOP(blendv)(zero, eps, moves);
            VT rs = VOP(blendv)(one, rn, moves);
            VT sc = VOP(div)(eps, rs);
            vx = VOP(add)(vx, VOP(mul)(vx, sc));
            vy = VOP(add)(vy, VOP(mul)(vy, sc));
            vz = VOP(add)(vz, VOP(mul)(vz, sc));
            dn = VOP(add)(dd, eps);
        }
        VT ox = VOP(add)(x, VOP(sub)(vx, qx));
        VT oy = VOP(add)(y, VOP(sub)(vy, qy));
        VT oz = VOP(add)(z, VOP(sub)(vz, qz));
        VNAME(aos_store)(points_out + 3 * i, VOP(blendv)(x, ox, h), VOP(blendv)(y, oy, h),
                         VOP(blendv)(z, oz, h));
        VOP(storeu)(dist_out + i, VOP(blendv)(d, dn, h));
        VNAME(mask_out_store)(mask_out + i, h);
        if (local_out) {
            VT ax = VOP(blendv)(qx, vx, h), ay = VOP(blendv)(qy, vy, h);
            VT az = VOP(blendv)(qz, vz, h);
            VT l[3];
            for (int row = 0; row < 3; row++)
                l[row] = VOP(add)(VOP(add)(VOP(mul)(VOP(set1)((VS)mt[3 * row]), ax),
                                           VOP(mul)(VOP(set1)((VS)mt[3 * row + 1]), ay)),
                                  VOP(mul)(VOP(set1)((VS)mt[3 * row + 2]), az));
            for (int row = 0; row < 3; row++)
                l[row] = VOP(blendv)(l[row], qnan, VOP(cmp)(l[row], l[row], _CMP_UNORD_Q));
            VNAME(aos_store)(local_out + 3 * i, l[0], l[1], l[2]);
        }
    }
    return i;
}

/* octant: s and c from za with the octant polynomial here (else from sn, cs) */
static size_t VNAME(lidar_vec)(const fn_lidar_points_params *p, int octant, size_t n,
                               const VS *points, const VS *dist_in, const uint8_t *mask_in,
                               const float *za, const VS *sn, const VS *cs, const float *zd,
                               VS *points_out, VS *dist_out, uint8_t *mask_out,
                               VS *local_out) {
    const int a = p->angular != 0, dd = p->distance != 0;
#define LIDAR_VEC_CASE(A, O, D)                                                            \
    return VNAME(lidar_vec_body)(p, n, points, dist_in, mask_in, za, sn, cs, zd,           \
                                 points_out, dist_out, mask_out, local_out, A, O, D)
    if (a && octant && dd) LIDAR_VEC_CASE(1, 1, 1);
    if (a && dd) LIDAR_VEC_CASE(1, 0, 1);
    if (a && octant) LIDAR_VEC_CASE(1, 1, 0);
    if (a) LIDAR_VEC_CASE(1, 0, 0);
    if (dd) LIDAR_VEC_CASE(0, 0, 1);
    LIDAR_VEC_CASE(0, 0, 0);
#undef LIDAR_VEC_CASE
}

#undef VT
#undef VS
#undef VOP
#undef VNAME
#undef V_LANES
#undef V_LOAD_Z
