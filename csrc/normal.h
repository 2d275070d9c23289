/* Gaussian numbers keyed by (key, stream, index): the random core of fastnoise.
 *
 * The canonical stream: normal number j of (key, stream) is
 *   float64: output j % 2 of Philox block j / 2 (one Box-Muller pair per block);
 *   float32: output j % 4 of Philox block j / 4 (two pairs per block).
 * Each pair is the trigonometric Box-Muller transform
 *   r = sqrt(-2 ln u1), (z0, z1) = (r cos 2 pi u2, r sin 2 pi u2),
 * with u1 in (0, 1] so the log is finite. float64 uses 52-bit uniforms, so
 * |z| <= sqrt(104 ln 2) = 8.49; float32 uses 24-bit uniforms, so |z| <= 5.77.
 */
#ifndef FN_NORMAL_H
#define FN_NORMAL_H

#include <stddef.h>
#include <stdint.h>

#include "fnmath.h"
#include "philox.h"
#include "simd.h"

#define FN_F64_PER_BLOCK 2
#define FN_F32_PER_BLOCK 4

enum { FN_FLOAT64 = 0, FN_FLOAT32 = 1 };

/* One float64 Box-Muller pair from the four words of a block. */
static inline void fn_box_muller_f64(uint32_t x0, uint32_t x1, uint32_t x2, uint32_t x3,
                                     double *z0, double *z1) {
    uint64_t a1 = ((uint64_t)x0 << 20) | (x1 >> 12); /* 52 random bits */
    uint64_t a2 = ((uint64_t)x2 << 20) | (x3 >> 12);
    double u1 = 2.0 - fn_f64(0x3FF0000000000000ull | a1); /* (0, 1], exact */
    double r = sqrt(-2.0 * fn_log_f64(u1));
    double t = fn_f64(0x3FF0000000000000ull | a2) - 1.0; /* turns, [0, 1) */
    uint64_t q = (a2 + (1ull << 49)) >> 50;              /* nearest quarter turn */
    double f = t - fn_i64_to_f64((int64_t)q) * 0.25;     /* exact, |f| <= 1/8 */
    double so, co, s, c;
    fn_sincos_octant_f64(f, &so, &co);
    fn_quadrant_f64(q, so, co, &s, &c);
    *z0 = r * c;
    *z1 = r * s;
}

/* One float32 Box-Muller pair from two words. */
static inline void fn_box_muller_f32(uint32_t xa, uint32_t xb, float *z0, float *z1) {
    int32_t a1 = (int32_t)(xa >> 8); /* 24 random bits */
    int32_t a2 = (int32_t)(xb >> 8);
    float u1 = (float)(a1 + 1) * 0x1p-24f; /* (0, 1], exact */
    float r = sqrtf(-2.0f * fn_log_f32(u1));
    int32_t q = (a2 + (1 << 21)) >> 22;
    float f = (float)(a2 - (q << 22)) * 0x1p-24f; /* exact, |f| <= 1/8 */
    float so, co, s, c;
    fn_sincos_octant_f32(f, &so, &co);
    fn_quadrant_f32((uint32_t)q, so, co, &s, &c);
    *z0 = r * c;
    *z1 = r * s;
}

/* The normals of one block, scalar: out[0..2) or out[0..4). */
void fn_block_normals_f64(uint64_t key, uint64_t stream, uint64_t block, double out[2]);
void fn_block_normals_f32(uint64_t key, uint64_t stream, uint64_t block, float out[4]);

/* Whole blocks, SIMD-dispatched: out[i] = mean + stddev * z for the normals of
 * blocks [block0, block0 + nblocks). */
FN_DECLARE_KERNEL(void, fn_normal_blocks_f64,
                  (uint64_t key, uint64_t stream, uint64_t block0, size_t nblocks,
                   double mean, double stddev, double *out))
FN_DECLARE_KERNEL(void, fn_normal_blocks_f32,
                  (uint64_t key, uint64_t stream, uint64_t block0, size_t nblocks,
                   float mean, float stddev, float *out))

/* Stateless fill: out[i] = mean + stddev * z_{first + i} of (key, stream), any first
 * and n. The result does not depend on how a range is split into calls. */
void fn_normal_fill_f64(uint64_t key, uint64_t stream, uint64_t first, size_t n,
                        double mean, double stddev, double *out);
void fn_normal_fill_f32(uint64_t key, uint64_t stream, uint64_t first, size_t n,
                        float mean, float stddev, float *out);

/* A position in a stream, plus the decoded block it is in (the "cached" values). */
typedef struct {
    uint64_t key;
    uint64_t stream;
    uint64_t position; /* index of the next normal, counted in `dtype` units */
    int dtype;         /* FN_FLOAT64 or FN_FLOAT32 */
    int cache_ok;
    uint64_t cache_block;
    double c64[2];
    float c32[4];
} fn_stream;

void fn_stream_init(fn_stream *s, uint64_t key, uint64_t stream);
/* Count position in `dtype` units. A change of dtype moves to the next unused
 * block: values left in a partly used block are skipped. */
void fn_stream_use_dtype(fn_stream *s, int dtype);
double fn_stream_next_f64(fn_stream *s);
float fn_stream_next_f32(fn_stream *s);
/* Take the next n normals; returns the index of the first one, so the caller may
 * fill them later (or on other threads) with fn_normal_fill_*. */
uint64_t fn_stream_take(fn_stream *s, int dtype, uint64_t n);
void fn_stream_fill_f64(fn_stream *s, double *out, size_t n, double mean, double stddev);
void fn_stream_fill_f32(fn_stream *s, float *out, size_t n, float mean, float stddev);

#endif
