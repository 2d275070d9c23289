/* The refill of one environment's cached unit normals (imu_batch.h), compiled once per
 * SIMD target (FN_KERNEL). The values are the canonical stream's (normal.h), as
 * fn_normal_group_many_* gives them (0 + 1 z: a -0 becomes +0); what differs is only
 * where each lands and how the Philox blocks are grouped, so every target writes the
 * same bits:
 *
 * - All 18 streams of an environment share its key, so the round keys are set up once
 *   per refill, and the streams of the cache's first 16 slots run four to a vector
 *   (one block per 64-bit lane, all lanes at the same block of the group): lanes
 *   x = slots 8g + 0, 2, 4, 6 and y = slots 8g + 1, 3, 5, 7. Pairing x's and y's words
 *   (fn_philox_avx2_pair) lays the radius and angle words of one Box-Muller pair index
 *   out in slot order, so the Box-Muller loop writes straight into the sample-major
 *   cache (sample j, slot 6 t + a at z[18 j + 6 t + a]) with no reordering pass.
 * - The last two slots (16, 17) run one stream to a vector (its four blocks), then are
 *   copied to their places.
 *
 * Pair k of a group (k < 8) gives sample k (r c) and sample k + 8 (r s); pair 2q is
 * (w0, w1) of the group's block q and pair 2q + 1 is (w2, w3) (normal.h). */
#include "imu_batch.h"

#include "philox_simd.h"

#include <string.h>

#define SPAN FN_IMU_BATCH_SPAN     /* samples per refill (one group) */
#define ZN FN_IMU_BATCH_Z          /* slots per sample */
#define HEAD 16                    /* slots that run four to a vector */
#define PAIRS (FN_GROUP / 2)       /* Box-Muller pairs per stream and group */
#define TAIL ((ZN - HEAD) * PAIRS) /* pairs of the last two slots */

_Static_assert(ZN == HEAD + 2 && SPAN == FN_GROUP, "imu_batch_fill: 18 slots, one group");

#if !defined(__AVX2__)
/* The Philox stream of slot 6 t + a (imu.h's stream of axis a, term t); the AVX2 path
 * builds the same words in vectors (SLOT_LO), so only the plain C path calls this. */
static inline uint64_t slot_stream(int slot) {
    return FN_IMU_STREAM_TAG | ((uint64_t)(slot % FN_IMU_AXES) << 8) |
           (uint64_t)(slot / FN_IMU_AXES);
}
#endif

#if defined(__AVX2__)
/* The low word of slot s's stream (the high word is the tag's, the same for all). */
#define SLOT_LO(s) ((uint64_t)((s) % FN_IMU_AXES) << 8 | (uint64_t)((s) / FN_IMU_AXES))
/* A head run's first round, where it depends on the stream alone: M1 times the stream's
 * low word, and that product's high half, for the lanes of each head run (x of run g
 * holds slots 8 g + 0, 2, 4, 6, y slots 8 g + 1, 3, 5, 7). */
#define P1(s) (long long)((uint64_t)FN_PHILOX_M1 * SLOT_LO(s))
#define H1(s) (long long)(((uint64_t)FN_PHILOX_M1 * SLOT_LO(s)) >> 32)
#define LANES(F, s) {F(s), F((s) + 2), F((s) + 4), F((s) + 6)}
static const long long head_p1[4][4] = {LANES(P1, 0), LANES(P1, 1), LANES(P1, 8),
                                        LANES(P1, 9)};
static const long long head_h1[4][4] = {LANES(H1, 0), LANES(H1, 1), LANES(H1, 8),
                                        LANES(H1, 9)};

/* Rounds `from` .. 9 of two vectors of blocks (x, y: words in the low halves of the
 * lanes, fn_philox_avx2_8's layout) under the round keys rk0, rk1. */
static inline void rounds(__m256i x[4], __m256i y[4], const __m256i *rk0,
                          const __m256i *rk1, int from) {
    const __m256i m0 = _mm256_set1_epi64x(FN_PHILOX_M0);
    const __m256i m1 = _mm256_set1_epi64x(FN_PHILOX_M1);
    for (int r = from; r < 10; r++) {
        __m256i px0 = _mm256_mul_epu32(x[0], m0), px1 = _mm256_mul_epu32(x[2], m1);
        __m256i py0 = _mm256_mul_epu32(y[0], m0), py1 = _mm256_mul_epu32(y[2], m1);
        x[0] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(px1, 32), x[1]), rk0[r]);
        x[2] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(px0, 32), x[3]), rk1[r]);
        x[1] = px1;
        x[3] = px0;
        y[0] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(py1, 32), y[1]), rk0[r]);
        y[2] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(py0, 32), y[3]), rk1[r]);
        y[1] = py1;
        y[3] = py0;
    }
}
#endif

/* Where pair k of tail slot 16 + t sits in the tail arrays: the even pairs (w0, w1) of
 * blocks 0..3 first, then the odd ones (w2, w3), each as (slot 16, slot 17) of a block. */
static inline int tail_at(int k, int t) {
    return (k & 1) * PAIRS + (k >> 1) * 2 + t;
}

/* The radius words (wa) and angle words (wb) of group `group` of every slot's stream:
 * pair k of head slot s at [HEAD k + s], of tail slot 16 + t at [tail_at(k, t)]. */
static void words(uint64_t key, uint64_t group, uint32_t *wa, uint32_t *wb, uint32_t *ta,
                  uint32_t *tb) {
    const uint64_t b0 = group * FN_GROUP_BLOCKS;
#if defined(__AVX2__)
    __m256i rk0[10], rk1[10];
    uint32_t ka = (uint32_t)key, kb = (uint32_t)(key >> 32);
    for (int r = 0; r < 10; r++) {
        rk0[r] = _mm256_set1_epi64x(ka);
        rk1[r] = _mm256_set1_epi64x(kb);
        ka += FN_PHILOX_W0;
        kb += FN_PHILOX_W1;
    }
    const uint32_t shi = (uint32_t)(FN_IMU_STREAM_TAG >> 32);
    /* head runs: block q of slots 8 g + 0..7. Every lane has the same block, so the
     * first round's product of the block word is one scalar, and the product of the
     * stream word is a constant of the lane (head_p1, head_h1). */
    for (int q = 0; q < FN_GROUP_BLOCKS; q++) {
        const uint64_t blk = b0 + (uint64_t)q;
        const uint64_t p0 = (uint64_t)FN_PHILOX_M0 * (uint32_t)blk;
        const __m256i c0 = _mm256_set1_epi64x((uint32_t)(blk >> 32) ^ (uint32_t)key);
        const __m256i c2 =
            _mm256_set1_epi64x((uint32_t)(p0 >> 32) ^ shi ^ (uint32_t)(key >> 32));
        const __m256i c3 = _mm256_set1_epi64x((uint32_t)p0);
        for (int g = 0; g < 2; g++) {
            __m256i x[4], y[4];
            x[0] =
                _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)head_h1[2 * g]), c0);
            y[0] = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)head_h1[2 * g + 1]),
                                    c0);
            x[1] = _mm256_loadu_si256((const __m256i *)head_p1[2 * g]);
            y[1] = _mm256_loadu_si256((const __m256i *)head_p1[2 * g + 1]);
            x[2] = y[2] = c2;
            x[3] = y[3] = c3;
            rounds(x, y, rk0, rk1, 1);
            uint32_t *a0 = wa + HEAD * (2 * q) + 8 * g, *b0w = wb + HEAD * (2 * q) + 8 * g;
            _mm256_storeu_si256((__m256i *)a0, fn_philox_avx2_pair(x[0], y[0]));
            _mm256_storeu_si256((__m256i *)b0w, fn_philox_avx2_pair(x[1], y[1]));
            _mm256_storeu_si256((__m256i *)(a0 + HEAD), fn_philox_avx2_pair(x[2], y[2]));
            _mm256_storeu_si256((__m256i *)(b0w + HEAD), fn_philox_avx2_pair(x[3], y[3]));
        }
    }
    /* the tail run: blocks 0..3 of slot 16 (x) and of slot 17 (y); b0 is a multiple of
     * 4, so adding 0..3 never carries into the high word */
    __m256i x[4], y[4];
    x[0] = y[0] =
        _mm256_add_epi64(_mm256_set1_epi64x((uint32_t)b0), _mm256_setr_epi64x(0, 1, 2, 3));
    x[1] = y[1] = _mm256_set1_epi64x((uint32_t)(b0 >> 32));
    x[2] = _mm256_set1_epi64x((long long)SLOT_LO(HEAD));
    y[2] = _mm256_set1_epi64x((long long)SLOT_LO(HEAD + 1));
    x[3] = y[3] = _mm256_set1_epi64x(shi);
    rounds(x, y, rk0, rk1, 0);
    _mm256_storeu_si256((__m256i *)ta, fn_philox_avx2_pair(x[0], y[0]));
    _mm256_storeu_si256((__m256i *)tb, fn_philox_avx2_pair(x[1], y[1]));
    _mm256_storeu_si256((__m256i *)(ta + PAIRS), fn_philox_avx2_pair(x[2], y[2]));
    _mm256_storeu_si256((__m256i *)(tb + PAIRS), fn_philox_avx2_pair(x[3], y[3]));
#else
    for (int s = 0; s < ZN; s++)
        for (int q = 0; q < FN_GROUP_BLOCKS; q++) {
            uint32_t w[4];
            fn_philox_block(key, slot_stream(s), b0 + (uint64_t)q, w);
            for (int h = 0; h < 2; h++) { /* pair 2q + h is (w[2h], w[2h + 1]) */
                int k = 2 * q + h;
                if (s < HEAD) {
                    wa[HEAD * k + s] = w[2 * h];
                    wb[HEAD * k + s] = w[2 * h + 1];
                } else {
                    ta[tail_at(k, s - HEAD)] = w[2 * h];
                    tb[tail_at(k, s - HEAD)] = w[2 * h + 1];
                }
            }
        }
#endif
}

/* Zeros for the slots whose term is off (bit 6 t + a of `on` clear). */
#define DEFINE_FILL(T, SUF)                                                                \
    void FN_KERNEL(fn_imu_batch_fill_##SUF)(uint64_t key, uint32_t on, uint64_t group,     \
                                            T *z) {                                        \
        uint32_t wa[HEAD * PAIRS], wb[HEAD * PAIRS], ta[TAIL], tb[TAIL];                   \
        T tc[TAIL], ts[TAIL];                                                              \
        words(key, group, wa, wb, ta, tb);                                                 \
        for (int k = 0; k < PAIRS; k++) {                                                  \
            T *zc = z + ZN * k, *zs = z + ZN * (k + PAIRS);                                \
            const uint32_t *a = wa + HEAD * k, *b = wb + HEAD * k;                         \
            for (int s = 0; s < HEAD; s++) {                                               \
                T r = fn_bm_radius_##SUF(a[s]), c, sn;                                     \
                fn_bm_angle_##SUF(b[s], &c, &sn);                                          \
                zc[s] = r * c + (T)0;                                                      \
                zs[s] = r * sn + (T)0;                                                     \
            }                                                                              \
        }                                                                                  \
        for (int i = 0; i < TAIL; i++) {                                                   \
            T r = fn_bm_radius_##SUF(ta[i]), c, sn;                                        \
            fn_bm_angle_##SUF(tb[i], &c, &sn);                                             \
            tc[i] = r * c + (T)0;                                                          \
            ts[i] = r * sn + (T)0;                                                         \
        }                                                                                  \
        for (int k = 0; k < PAIRS; k++)                                                    \
            for (int t = 0; t < 2; t++) {                                                  \
                z[ZN * k + HEAD + t] = tc[tail_at(k, t)];                                  \
                z[ZN * (k + PAIRS) + HEAD + t] = ts[tail_at(k, t)];                        \
            }                                                                              \
        if (on != (1u << ZN) - 1u)                                                         \
            for (int s = 0; s < ZN; s++)                                                   \
                if (!(on >> s & 1u))                                                       \
                    for (int j = 0; j < SPAN; j++)                                         \
                        z[ZN * j + s] = (T)0;                                              \
    }

DEFINE_FILL(double, f64)
DEFINE_FILL(float, f32)
