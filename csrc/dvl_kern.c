/* DVL chunk kernels, compiled once per SIMD target. The loops are plain and
 * branch-free so the compiler vectorizes them; Philox is written out with AVX2/AVX-512
 * integer intrinsics where available (integer arithmetic: same words on every path). */
#include "dvl.h"
#include "philox.h"
#include "philox_simd.h"

#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) || defined(__AVX2__)
#include <immintrin.h>
#endif

/* Philox blocks [block0, block0 + nblocks) of (key, stream) as 16-bit halves in block
 * order: out[8 * i + 2 * j] = low half of word j of block block0 + i, out[... + 1] =
 * its high half (the words' little-endian bytes, which the AVX2 stores write). */
void FN_KERNEL(fn_awn_philox_halves)(uint64_t key, uint64_t stream, uint64_t block0,
                                     size_t nblocks, uint16_t *out) {
    size_t i = 0;
#if defined(__AVX2__)
    fn_philox_avx2 P;
    fn_philox_avx2_init(&P, key, stream);
    /* the words in block order, little-endian: their 16-bit halves in the order above */
    for (; i + 8 <= nblocks; i += 8)
        fn_philox_avx2_blocks8(&P, block0 + i, out + 8 * i);
#endif
    for (; i < nblocks; i++) {
        uint32_t w[4];
        fn_philox_block(key, stream, block0 + i, w);
        for (int j = 0; j < 4; j++) {
            out[8 * i + 2 * j] = (uint16_t)w[j];
            out[8 * i + 2 * j + 1] = (uint16_t)(w[j] >> 16);
        }
    }
}

/* Also counts the finite truth values beyond FN_DVL_VALUE_MAX (the kernel reads every
 * truth value anyway, so the check costs no pass of its own).
 * restrict: the buffers never overlap, and it lets the compiler vectorize without
 * run-time alias checks (too many of them for nine pointers). */
void FN_KERNEL(fn_awn_values)(size_t n, const double *restrict truth,
                              const double *restrict z, const uint16_t *restrict h,
                              double bias, double noise_dev, double anchor, double f,
                              double *restrict out, size_t *ties, size_t *too_large) {
    uint64_t t = 0, big = 0;
    for (size_t i = 0; i < n; i++) {
        double a = fabs(truth[i]); /* NaN compares false: data, not too large */
        out[i] = fn_awn_value(truth[i], bias, noise_dev, anchor, f, z[i], h[i]);
        t += (uint64_t)((double)h[i] == f);
        big += (uint64_t)((a > FN_DVL_VALUE_MAX) & (a < INFINITY));
    }
    *ties = (size_t)t;
    *too_large = (size_t)big;
}

void FN_KERNEL(fn_dvl_rotate_many)(size_t n, const double *restrict roll,
                                   const double *restrict pitch, const double *restrict yaw,
                                   const double *restrict u, const double *restrict v,
                                   const double *restrict w, double *restrict vn,
                                   double *restrict ve, double *restrict vu) {
    for (size_t i = 0; i < n; i++) {
        double a, b, c;
        fn_dvl_rotate(roll[i], pitch[i], yaw[i], u[i], v[i], w[i], &a, &b, &c);
        vn[i] = a;
        ve[i] = b;
        vu[i] = c;
    }
}

/* fn_dvl_rotate with the three angles side by side: the loop over them (and a fourth,
 * idle lane) is the same operations per angle, so the compiler runs it as one vector of
 * sines and cosines; the products after it are fn_dvl_rotate's, in its order. */
void FN_KERNEL(fn_dvl_rotate_one)(double roll, double pitch, double yaw, double u, double v,
                                  double w, double *vn, double *ve, double *vu) {
    _Alignas(32) double ang[4];
    double sn[4], cs[4];
#if defined(__AVX2__)
    /* the four lanes put together in registers and stored as one vector: an array
     * initializer's two narrow stores read back as one 32-byte load cannot be
     * forwarded: a stall that took about a tenth of a DvlSimulator.measure call */
    __m128d rp = _mm_unpacklo_pd(_mm_set_sd(roll), _mm_set_sd(pitch));
    _mm256_store_pd(ang,
                    _mm256_insertf128_pd(_mm256_castpd128_pd256(rp), _mm_set_sd(yaw), 1));
#else
    ang[0] = roll, ang[1] = pitch, ang[2] = yaw, ang[3] = 0.0;
#endif
    for (int i = 0; i < 4; i++)
        fn_sincos_f64(fn_dvl_deg_to_rad(ang[i]), &sn[i], &cs[i]);
    double sr = sn[0], cr = cs[0], sp = sn[1], cp = cs[1], sy = sn[2], cy = cs[2];
    double a = u * cp + (v * sr + w * cr) * sp; /* x after pitch */
    double b = v * cr - w * sr;                 /* y after roll */
    double d = (v * sr + w * cr) * cp - u * sp; /* down */
    *vn = a * cy - b * sy;
    *ve = a * sy + b * cy;
    *vu = -d;
}

/* Number of samples with an angle beyond the fast reduction (|angle| >= 2^50 deg;
 * NaN compares false, as in the per-sample path), counted branch-free so it
 * vectorizes. */
void FN_KERNEL(fn_dvl_count_huge)(size_t n, const double *restrict roll,
                                  const double *restrict pitch, const double *restrict yaw,
                                  size_t *count) {
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += (uint64_t)((fabs(roll[i]) >= FN_DVL_HUGE_DEG) |
                        (fabs(pitch[i]) >= FN_DVL_HUGE_DEG) |
                        (fabs(yaw[i]) >= FN_DVL_HUGE_DEG));
    *count = (size_t)c;
}

/* Record <-> row transposes (plain copies: the bits are moved, never computed). */

#if defined(__AVX2__)
/* 4 x 4 transpose: in a0..a3 (one record each) -> out c0..c3 (one field each). */
static inline void transpose4(__m256d a0, __m256d a1, __m256d a2, __m256d a3, __m256d *c0,
                              __m256d *c1, __m256d *c2, __m256d *c3) {
    __m256d t0 = _mm256_unpacklo_pd(a0, a1); /* a0[0] a1[0] a0[2] a1[2] */
    __m256d t1 = _mm256_unpackhi_pd(a0, a1); /* a0[1] a1[1] a0[3] a1[3] */
    __m256d t2 = _mm256_unpacklo_pd(a2, a3);
    __m256d t3 = _mm256_unpackhi_pd(a2, a3);
    *c0 = _mm256_permute2f128_pd(t0, t2, 0x20);
    *c1 = _mm256_permute2f128_pd(t1, t3, 0x20);
    *c2 = _mm256_permute2f128_pd(t0, t2, 0x31);
    *c3 = _mm256_permute2f128_pd(t1, t3, 0x31);
}
#endif

/* rows[j * row_len + i] = rec[i * stride + j] for the ten truth fields j, i < m
 * (stride >= FN_DVL_NSENSORS doubles between records). */
void FN_KERNEL(fn_dvl_load_records)(size_t m, const double *restrict rec, ptrdiff_t stride,
                                    double *restrict rows, size_t row_len) {
    size_t i = 0;
#if defined(__AVX2__)
    for (; i + 4 <= m; i += 4) {
        const double *r0 = rec + (ptrdiff_t)i * stride, *r1 = r0 + stride;
        const double *r2 = r1 + stride, *r3 = r2 + stride;
        for (int f = 0; f < 8; f += 4) {
            __m256d c0, c1, c2, c3;
            transpose4(_mm256_loadu_pd(r0 + f), _mm256_loadu_pd(r1 + f),
                       _mm256_loadu_pd(r2 + f), _mm256_loadu_pd(r3 + f), &c0, &c1, &c2,
                       &c3);
            _mm256_storeu_pd(rows + (f + 0) * row_len + i, c0);
            _mm256_storeu_pd(rows + (f + 1) * row_len + i, c1);
            _mm256_storeu_pd(rows + (f + 2) * row_len + i, c2);
            _mm256_storeu_pd(rows + (f + 3) * row_len + i, c3);
        }
        /* fields 8, 9: two records per 128-bit pair */
        __m256d p02 =
            _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(r0 + 8)),
                                 _mm_loadu_pd(r2 + 8), 1); /* r0[8] r0[9] r2[8] r2[9] */
        __m256d p13 = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(r1 + 8)),
                                           _mm_loadu_pd(r3 + 8), 1);
        /* unpacklo: r0[8] r1[8] r2[8] r3[8]; unpackhi: the 9s */
        _mm256_storeu_pd(rows + 8 * row_len + i, _mm256_unpacklo_pd(p02, p13));
        _mm256_storeu_pd(rows + 9 * row_len + i, _mm256_unpackhi_pd(p02, p13));
    }
#endif
    for (; i < m; i++) {
        const double *r = rec + (ptrdiff_t)i * stride;
        for (int j = 0; j < FN_DVL_NSENSORS; j++)
            rows[j * row_len + i] = r[j];
    }
}

/* Records i0 .. i0 + k - 1: out[(i - i0) * 13 + j] = rows[j * row_len + i], j < 13. */
static void records_from_rows(const double *restrict rows, size_t row_len, size_t i0,
                              size_t k, double *restrict out) {
    size_t i = 0;
#if defined(__AVX2__)
    for (; i + 4 <= k; i += 4) {
        const double *s = rows + i0 + i;
        double *o = out + i * FN_DVL_NFIELDS;
        for (int f = 0; f < 12; f += 4) {
            __m256d c0, c1, c2, c3;
            transpose4(_mm256_loadu_pd(s + (f + 0) * row_len),
                       _mm256_loadu_pd(s + (f + 1) * row_len),
                       _mm256_loadu_pd(s + (f + 2) * row_len),
                       _mm256_loadu_pd(s + (f + 3) * row_len), &c0, &c1, &c2, &c3);
            _mm256_storeu_pd(o + 0 * FN_DVL_NFIELDS + f, c0);
            _mm256_storeu_pd(o + 1 * FN_DVL_NFIELDS + f, c1);
            _mm256_storeu_pd(o + 2 * FN_DVL_NFIELDS + f, c2);
            _mm256_storeu_pd(o + 3 * FN_DVL_NFIELDS + f, c3);
        }
        for (int r = 0; r < 4; r++)
            o[r * FN_DVL_NFIELDS + 12] = s[12 * row_len + r];
    }
#endif
    for (; i < k; i++)
        for (int j = 0; j < FN_DVL_NFIELDS; j++)
            out[i * FN_DVL_NFIELDS + j] = rows[j * row_len + i0 + i];
}

/* Rows -> m contiguous records of FN_DVL_NFIELDS doubles at out. stream: write with
 * non-temporal stores (large outputs: no read-for-ownership of lines that are
 * overwritten whole); the caller issues the fence. */
void FN_KERNEL(fn_dvl_store_records)(size_t m, const double *restrict rows, size_t row_len,
                                     double *restrict out, int stream) {
#if defined(__AVX2__)
    if (stream) {
        /* Records go through an L1 staging block, then out with 32-byte aligned
         * streaming stores (a record is 104 bytes, so records themselves are not
         * aligned); the partial 32 bytes at either end are plain stores. */
        double stage[FN_DVL_STAGE * FN_DVL_NFIELDS];
        for (size_t i0 = 0; i0 < m; i0 += FN_DVL_STAGE) {
            size_t k = m - i0 < FN_DVL_STAGE ? m - i0 : FN_DVL_STAGE;
            double *o = out + i0 * FN_DVL_NFIELDS;
            size_t len = k * FN_DVL_NFIELDS, p = 0;
            records_from_rows(rows, row_len, i0, k, stage);
            while (p < len && ((uintptr_t)(o + p) & 31u)) {
                o[p] = stage[p];
                p++;
            }
            for (; p + 4 <= len; p += 4)
                _mm256_stream_pd(o + p, _mm256_loadu_pd(stage + p));
            for (; p < len; p++)
                o[p] = stage[p];
        }
        return;
    }
#elif defined(__SSE2__)
    if (stream) {
        for (size_t i = 0; i < m; i++) {
            long long *rec = (long long *)(out + i * FN_DVL_NFIELDS);
            for (int j = 0; j < FN_DVL_NFIELDS; j++) {
                long long b;
                memcpy(&b, &rows[j * row_len + i], sizeof b);
                _mm_stream_si64(rec + j, b);
            }
        }
        return;
    }
#endif
    (void)stream;
    records_from_rows(rows, row_len, 0, m, out);
}
