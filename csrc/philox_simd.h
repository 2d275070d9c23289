/* Philox4x32-10 on several consecutive blocks at once, for the SIMD copies of the
 * kernels. Integer arithmetic only, so every path gives fn_philox_block's words.
 *
 * One block per 64-bit lane, each 32-bit word in the low half of its lane:
 * mul_epu32 gives the full 64-bit product and reads only the low halves, so the high
 * halves may hold junk and no shuffles are needed inside the rounds. Two vectors of
 * blocks are interleaved for instruction-level parallelism. */
#ifndef FN_PHILOX_SIMD_H
#define FN_PHILOX_SIMD_H

#include "philox.h"

#if defined(__AVX2__)
#include <immintrin.h>

/* Round keys and stream words, set up once per call. */
typedef struct {
    __m256i rk0[10], rk1[10], s0, s1;
} fn_philox_avx2;

static inline void fn_philox_avx2_init(fn_philox_avx2 *p, uint64_t key, uint64_t stream) {
    uint32_t ka = (uint32_t)key, kb = (uint32_t)(key >> 32);
    for (int r = 0; r < 10; r++) {
        p->rk0[r] = _mm256_set1_epi64x(ka);
        p->rk1[r] = _mm256_set1_epi64x(kb);
        ka += FN_PHILOX_W0;
        kb += FN_PHILOX_W1;
    }
    p->s0 = _mm256_set1_epi64x((uint32_t)stream);
    p->s1 = _mm256_set1_epi64x((uint32_t)(stream >> 32));
}

/* One Philox round on four blocks, word j of each in the low halves of x[j]'s lanes,
 * with the round's keys k0, k1. */
static inline void fn_philox_avx2_round(__m256i x[4], __m256i k0, __m256i k1) {
    __m256i p0 = _mm256_mul_epu32(x[0], _mm256_set1_epi64x(FN_PHILOX_M0));
    __m256i p1 = _mm256_mul_epu32(x[2], _mm256_set1_epi64x(FN_PHILOX_M1));
    x[0] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p1, 32), x[1]), k0);
    x[2] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(p0, 32), x[3]), k1);
    x[1] = p1;
    x[3] = p0;
}

/* Blocks b .. b + 7: w[j] holds word j of blocks b .. b + 3 and w[4 + j] word j of
 * blocks b + 4 .. b + 7, in the low halves of the lanes. The two sets of four are
 * independent, so their rounds overlap. */
static inline void fn_philox_avx2_8(const fn_philox_avx2 *p, uint64_t b, __m256i w[8]) {
    __m256i bA =
        _mm256_add_epi64(_mm256_set1_epi64x((long long)b), _mm256_setr_epi64x(0, 1, 2, 3));
    __m256i bC = _mm256_add_epi64(bA, _mm256_set1_epi64x(4));
    w[0] = bA, w[1] = _mm256_srli_epi64(bA, 32), w[2] = p->s0, w[3] = p->s1;
    w[4] = bC, w[5] = _mm256_srli_epi64(bC, 32), w[6] = p->s0, w[7] = p->s1;
    for (int r = 0; r < 10; r++) {
        fn_philox_avx2_round(w, p->rk0[r], p->rk1[r]);
        fn_philox_avx2_round(w + 4, p->rk0[r], p->rk1[r]);
    }
}

/* Blocks b .. b + 3 as the first half of fn_philox_avx2_8 (w[j]: word j of each block,
 * in the low halves of the lanes), its round keys made on the way: a call for one
 * group of normals (4 blocks) would spend more on fn_philox_avx2_init's table than on
 * the rounds. The keys' high halves are junk, as the words' are; only low halves are
 * read. */
static inline void fn_philox_avx2_4(uint64_t key, uint64_t stream, uint64_t b,
                                    __m256i w[4]) {
    const __m256i bump0 = _mm256_set1_epi64x(FN_PHILOX_W0);
    const __m256i bump1 = _mm256_set1_epi64x(FN_PHILOX_W1);
    __m256i k0 = _mm256_set1_epi64x((uint32_t)key);
    __m256i k1 = _mm256_set1_epi64x((uint32_t)(key >> 32));
    w[0] =
        _mm256_add_epi64(_mm256_set1_epi64x((long long)b), _mm256_setr_epi64x(0, 1, 2, 3));
    w[1] = _mm256_srli_epi64(w[0], 32);
    w[2] = _mm256_set1_epi64x((uint32_t)stream);
    w[3] = _mm256_set1_epi64x((uint32_t)(stream >> 32));
    for (int r = 0; r < 10; r++) {
        fn_philox_avx2_round(w, k0, k1);
        k0 = _mm256_add_epi32(k0, bump0);
        k1 = _mm256_add_epi32(k1, bump1);
    }
}

/* Two words side by side: the low half of x's lanes, then the low half of y's. */
static inline __m256i fn_philox_avx2_pair(__m256i x, __m256i y) {
    return _mm256_blend_epi32(x, _mm256_slli_epi64(y, 32), 0xAA);
}

/* Blocks b .. b + 7 as 32 words in block order (word j of block k at word 4 k + j of
 * the 128 bytes at out, little-endian; unaligned): the lanes' (w0 w1) and (w2 w3)
 * paired as 64-bit values, then interleaved. */
static inline void fn_philox_avx2_blocks8(const fn_philox_avx2 *p, uint64_t b, void *out) {
    __m256i w[8];
    fn_philox_avx2_8(p, b, w);
    __m256i *o = (__m256i *)out;
    __m256i a01 = fn_philox_avx2_pair(w[0], w[1]);
    __m256i a23 = fn_philox_avx2_pair(w[2], w[3]);
    __m256i c01 = fn_philox_avx2_pair(w[4], w[5]);
    __m256i c23 = fn_philox_avx2_pair(w[6], w[7]);
    __m256i alo = _mm256_unpacklo_epi64(a01, a23); /* blocks 0 | 2 */
    __m256i ahi = _mm256_unpackhi_epi64(a01, a23); /* blocks 1 | 3 */
    __m256i clo = _mm256_unpacklo_epi64(c01, c23);
    __m256i chi = _mm256_unpackhi_epi64(c01, c23);
    _mm256_storeu_si256(o + 0, _mm256_permute2x128_si256(alo, ahi, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(alo, ahi, 0x31));
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(clo, chi, 0x20));
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(clo, chi, 0x31));
}
#endif

#if defined(__AVX512F__) && defined(__AVX512BW__)
typedef struct {
    __m512i rk0[10], rk1[10], s0, s1;
} fn_philox_avx512;

static inline void fn_philox_avx512_init(fn_philox_avx512 *p, uint64_t key,
                                         uint64_t stream) {
    uint32_t ka = (uint32_t)key, kb = (uint32_t)(key >> 32);
    for (int r = 0; r < 10; r++) {
        p->rk0[r] = _mm512_set1_epi64(ka);
        p->rk1[r] = _mm512_set1_epi64(kb);
        ka += FN_PHILOX_W0;
        kb += FN_PHILOX_W1;
    }
    p->s0 = _mm512_set1_epi64((uint32_t)stream);
    p->s1 = _mm512_set1_epi64((uint32_t)(stream >> 32));
}

/* As fn_philox_avx2_8, for blocks b .. b + 15. */
static inline void fn_philox_avx512_16(const fn_philox_avx512 *p, uint64_t b,
                                       __m512i w[8]) {
    const __m512i m0 = _mm512_set1_epi64(FN_PHILOX_M0);
    const __m512i m1 = _mm512_set1_epi64(FN_PHILOX_M1);
    __m512i bA = _mm512_add_epi64(_mm512_set1_epi64((long long)b),
                                  _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7));
    __m512i bC = _mm512_add_epi64(bA, _mm512_set1_epi64(8));
    __m512i a0 = bA, a1 = _mm512_srli_epi64(bA, 32), a2 = p->s0, a3 = p->s1;
    __m512i c0 = bC, c1 = _mm512_srli_epi64(bC, 32), c2 = p->s0, c3 = p->s1;
    for (int r = 0; r < 10; r++) {
        __m512i pa0 = _mm512_mul_epu32(a0, m0), pa1 = _mm512_mul_epu32(a2, m1);
        __m512i pc0 = _mm512_mul_epu32(c0, m0), pc1 = _mm512_mul_epu32(c2, m1);
        a0 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pa1, 32), a1), p->rk0[r]);
        a2 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pa0, 32), a3), p->rk1[r]);
        a1 = pa1;
        a3 = pa0;
        c0 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pc1, 32), c1), p->rk0[r]);
        c2 = _mm512_xor_si512(_mm512_xor_si512(_mm512_srli_epi64(pc0, 32), c3), p->rk1[r]);
        c1 = pc1;
        c3 = pc0;
    }
    w[0] = a0, w[1] = a1, w[2] = a2, w[3] = a3;
    w[4] = c0, w[5] = c1, w[6] = c2, w[7] = c3;
}

static inline __m512i fn_philox_avx512_pair(__m512i x, __m512i y) {
    return _mm512_mask_blend_epi32(0xAAAA, x, _mm512_slli_epi64(y, 32));
}
#endif

#endif
