/* DVL sensors: per-sample and batch drivers around the chunk kernels (see dvl.h). */
#include "dvl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "normal.h"
#include "normal_many.h"
#include "philox.h"

#if FN_X86
#include <immintrin.h>
#endif

#define CHUNK 512 /* samples per pass: the chunk buffers stay in L1/L2 */
/* Row length of the chunk buffers: one cache line more than CHUNK, so the rows do not
 * all start 4 KiB apart (same L1 set: 13 rows thrash an 8-way cache in the transposes,
 * and loads alias the stores of other rows). */
#define ROW (CHUNK + 8)
#define STREAM_BYTES (8u << 20)
/* Records of the previous chunk streamed out after each sensor's draws (whole
 * staging blocks; CHUNK / FN_DVL_STAGE <= FN_DVL_NSENSORS). */
_Static_assert(CHUNK <= FN_DVL_STAGE * FN_DVL_NSENSORS,
               "a chunk's records must all be streamed out during the next chunk");

/* Software prefetch of the next chunk's truth records, a few lines before each piece
 * of the arithmetic: the reads then wait on memory while the arithmetic runs (the
 * hardware prefetchers stop at page ends, and one burst of prefetches for a whole
 * chunk waits on the few line-fill buffers). With a large batch's truth out of
 * cache this took ~3 ms off 1e6 samples (~53 -> ~50 ms). */
typedef struct {
    uintptr_t p, end; /* addresses, so stepping past the end is not pointer arithmetic */
} prefetcher;

#define PF_LINES 24 /* lines per step: 34 steps per chunk cover its 640 lines */
#define ROT_SPLIT 4 /* the rotation in four pieces, a step before each */
#define PREFETCH_BYTES (4u << 20) /* smaller truth is likely in cache already */

static inline void pf_step(prefetcher *pf) {
#if defined(__GNUC__)
    if (!pf) return;
    for (int k = 0; k < PF_LINES && pf->p < pf->end; k++, pf->p += 64)
        __builtin_prefetch((const void *)pf->p, 0, 3);
#else
    (void)pf;
#endif
}

/* Full unrolling of the per-message loop over the ten sensors. */
#if defined(__clang__)
#define FN_DVL_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define FN_DVL_UNROLL _Pragma("GCC unroll 10")
#else
#define FN_DVL_UNROLL
#endif

void fn_awn_init(fn_awn *s, uint64_t key) {
    memset(s, 0, sizeof *s);
    s->key = key;
    s->kind = 0; /* all four parameters 0 */
    fn_stream_init(&s->z, key, FN_AWN_NOISE_STREAM);
}

/* z_n and h_n of one sample through the group caches: z_n from the stream's cache,
 * h_n from the same kernel as the batch's words, so the bits are the batch's. */
static double sample_normal(fn_awn *s, uint64_t n) {
    s->z.position = n;
    return fn_stream_next_unit(&s->z, FN_FLOAT32);
}

static uint16_t sample_half(fn_awn *s, uint64_t n) {
    uint64_t group = n / FN_AWN_H_GROUP;
    if (!s->h_ok || s->h_group != group) {
        FN_DISPATCH(fn_awn_philox_halves,
                    (s->key, FN_AWN_ANCHOR_STREAM, group * (FN_AWN_H_GROUP / 8),
                     FN_AWN_H_GROUP / 8, s->h_cache));
        s->h_group = group;
        s->h_ok = 1;
    }
    return s->h_cache[n % FN_AWN_H_GROUP];
}

/* The anchor halves only matter for 0 < p < 1; elsewhere h = 0 gives the same answer
 * (F = 0 with R = 0 never anchors, F = 2^16 always does). */
static int needs_halves(double anchor_probability) {
    return anchor_probability > 0.0 && anchor_probability < 1.0;
}

/* A tie h_n == F anchors iff v_n < R (see dvl.h). */
static int tie_anchors(uint64_t key, uint64_t n, double r) {
    uint32_t w[4];
    fn_philox_block(key, FN_AWN_TIE_STREAM, n, w);
    return (fn_f64(0x4330000000000000ull | w[0]) - 0x1p52) * 0x1p-32 < r; /* exact */
}

/* A finite value beyond FN_DVL_VALUE_MAX (NaN compares false, so NaN and +-inf are
 * not; the same test as the batch kernel's). */
static int too_large(double x) {
    double a = fabs(x);
    return (a > FN_DVL_VALUE_MAX) & (a < INFINITY);
}

/* Whether too_large holds for one of the ten truth values, the first one found by the
 * caller's loop. On x86 a first pass of one compare for two values (SSE2, part of every
 * x86-64) tests |x| > FN_DVL_VALUE_MAX alone, which also holds for +-inf (data, and
 * rare): only when it finds one are the values tested in full. */
static inline int any_too_large(const double truth[FN_DVL_NSENSORS]) {
#if FN_X86
    const __m128d abs_mask = _mm_castsi128_pd(_mm_set1_epi64x(INT64_MAX));
    const __m128d max = _mm_set1_pd(FN_DVL_VALUE_MAX);
    __m128d hit = _mm_setzero_pd();
    _Static_assert(FN_DVL_NSENSORS % 2 == 0, "the values are checked in pairs");
    for (int j = 0; j < FN_DVL_NSENSORS; j += 2) /* NaN compares false */
        hit = _mm_or_pd(hit,
                        _mm_cmplt_pd(max, _mm_and_pd(_mm_loadu_pd(truth + j), abs_mask)));
    if (!_mm_movemask_pd(hit)) return 0;
#endif
    int hit_one = 0;
    for (int j = 0; j < FN_DVL_NSENSORS; j++)
        hit_one |= too_large(truth[j]);
    return hit_one;
}

/* Room for n samples from `first` without passing sample 2^64 - 2 (no wrap). */
static int has_room(uint64_t first, uint64_t n) {
    return n <= UINT64_MAX - first;
}

/* Sensors from .. 9 of a message (none yet advanced): those with noise whose normal
 * for this message is not in their stream's cached group (the sensors move on to a
 * new group at the same message, as a rule) get their groups refilled together, one
 * SIMD lane per stream and key, by the many-stream kernel. Its
 * values are fn_group_normals_f32's but for a -0, which it stores as +0, and the cache
 * is only read through sample_normal_cached and fn_stream_next_unit, which make +0 of
 * either: the same bits. */
static void refill_groups(fn_awn *const sensors[FN_DVL_NSENSORS], int from) {
    uint64_t key[FN_DVL_NSENSORS], stream[FN_DVL_NSENSORS], group[FN_DVL_NSENSORS];
    fn_stream *miss[FN_DVL_NSENSORS];
    int n = 0;
    for (int j = from; j < FN_DVL_NSENSORS; j++) {
        fn_awn *s = sensors[j];
        fn_stream *z = &s->z;
        uint64_t g = s->position / FN_GROUP;
        if (s->noise_dev != 0.0 &&
            !(z->cache_ok && z->dtype == FN_FLOAT32 && z->cache_group == g)) {
            key[n] = z->key;
            stream[n] = z->stream;
            group[n] = g;
            miss[n++] = z;
        }
    }
    if (n < 2) return; /* one alone: its own refill costs the same */
    float v[FN_DVL_NSENSORS * FN_GROUP];
    fn_normal_group_many_f32(key, stream, group, (size_t)n, v);
    for (int i = 0; i < n; i++) {
        fn_stream *z = miss[i];
        memcpy(z->c32, v + FN_GROUP * i, sizeof z->c32);
        z->dtype = FN_FLOAT32;
        z->cache_group = group[i];
        z->cache_ok = 1;
    }
}

/* sample_normal_cached's miss (one call in 16 of a sensor), out of line: the hit path
 * then keeps its values in registers, with no call to save them across. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static double sample_normal_missed(fn_awn *const sensors[FN_DVL_NSENSORS], int j,
                                   uint64_t n) {
    fn_awn *s = sensors[j];
    fn_stream *z = &s->z;
    refill_groups(sensors, j); /* this sensor's and the later ones' */
    if (z->cache_ok && z->cache_group == n / FN_GROUP)
        return (double)(0.0f + 1.0f * z->c32[n % FN_GROUP]);
    return sample_normal(s, n);
}

/* Normal n of the noise stream: read straight from the stream's cached group when it
 * holds n (the common case: a sensor measured sample after sample), else through
 * sample_normal_missed. The value is the same either way: fn_stream_next_unit's float32
 * normal widened as it widens it (0 + 1 * z in float, then exactly to double). */
static inline double sample_normal_cached(fn_awn *const sensors[FN_DVL_NSENSORS], int j,
                                          uint64_t n) {
    fn_stream *z = &sensors[j]->z;
    /* A sensor's stream only ever holds float32 groups (sample_normal and
     * refill_groups fill it, both as float32), so cache_ok says its dtype; its
     * position is set by sample_normal before each use, so it is not kept here. */
    if (z->cache_ok && z->cache_group == n / FN_GROUP)
        return (double)(0.0f + 1.0f * z->c32[n % FN_GROUP]);
    return sample_normal_missed(sensors, j, n);
}

/* measure_at for a message (fn_dvl_measure_one), with the work that a sensor's
 * parameters make unnecessary skipped: the same value bit for bit.
 *   noise_dev == 0: no normal (measure_at adds none either);
 *   p <= 0 or NaN: never anchored (measure_at: F <= 0 or NaN, h = 0 is never below it,
 *     and a tie h == F = 0 has R = 0);
 *   p >= 1: always anchored (measure_at: h = 0 < F = floor(p 2^16) >= 2^16);
 *   0 < p < 1: measure_at's own test, with the anchor half and the tie. */
static inline double measure_fast(fn_awn *const sensors[FN_DVL_NSENSORS], int j,
                                  double truth) {
    fn_awn *s = sensors[j];
    int kind = s->kind;         /* the parameters' tests, made when they were set */
    double v = truth + s->bias; /* fn_awn_value's clean */
    if (!kind) return v;
    uint64_t n = s->position;
    if (kind & FN_AWN_NOISY) v = v + s->noise_dev * sample_normal_cached(sensors, j, n);
    double ap = s->anchor_probability;
    if (kind & FN_AWN_ANCHORS) {
        if (ap < 1.0) {
            double p16 = ap * 0x1p16, f = floor(p16), r = p16 - f;
            uint16_t h = sample_half(s, n);
            if ((double)h < f || ((double)h == f && r > 0.0 && tie_anchors(s->key, n, r)))
                v = s->anchor;
        } else {
            v = s->anchor;
        }
    }
    return v;
}

static double measure_at(fn_awn *s, uint64_t n, double truth) {
    double p16 = s->anchor_probability * 0x1p16, f = floor(p16), r = p16 - f;
    double z = s->noise_dev != 0.0 ? sample_normal(s, n) : 0.0;
    uint16_t h = needs_halves(s->anchor_probability) ? sample_half(s, n) : 0u;
    double v = fn_awn_value(truth, s->bias, s->noise_dev, s->anchor, f, z, h);
    if ((double)h == f && r > 0.0 && tie_anchors(s->key, n, r)) v = s->anchor;
    return v;
}

int fn_awn_measure_one(fn_awn *s, double truth, double *out) {
    if (too_large(truth)) return FN_DVL_TOO_LARGE; /* the value first, as in Python */
    if (!has_room(s->position, 1)) return FN_DVL_NO_ROOM;
    *out = measure_at(s, s->position, truth);
    s->position++;
    return FN_DVL_OK;
}

/* Values of samples first .. first + m - 1 (m <= CHUNK, first + m - 1 < 2^64: the
 * callers checked the span) of contiguous truth. Returns the number of finite truth
 * values beyond FN_DVL_VALUE_MAX. */
static size_t awn_chunk(const fn_awn_params *s, uint64_t first, size_t m,
                        const double *truth, double *out, prefetcher *pf) {
    double z[CHUNK];
    float zf[CHUNK];
    uint16_t halves[CHUNK + 16];
    const uint16_t *h = halves;
    double p16 = s->anchor_probability * 0x1p16, f = floor(p16), r = p16 - f;
    size_t ties, large;
    if (m > CHUNK) m = CHUNK; /* never past the buffers, whatever a caller passes */
    pf_step(pf);
    if (s->noise_dev != 0.0) {
        fn_normal_fill_f32(s->key, FN_AWN_NOISE_STREAM, first, m, 0.0f, 1.0f, zf);
        for (size_t i = 0; i < m; i++)
            z[i] = (double)zf[i]; /* exact */
    } else
        memset(z, 0, m * sizeof *z);
    pf_step(pf);
    if (needs_halves(s->anchor_probability)) {
        /* blocks first / 8 .. (first + m - 1) / 8, counted without forming first + m
         * (which wraps near 2^64): at most (7 + CHUNK + 7) / 8 blocks, 8 halves each,
         * within halves[CHUNK + 16] */
        size_t nblocks = ((size_t)(first % 8) + m + 7) / 8;
        FN_DISPATCH(fn_awn_philox_halves,
                    (s->key, FN_AWN_ANCHOR_STREAM, first / 8, nblocks, halves));
        h = halves + (first % 8);
    } else {
        memset(halves, 0, m * sizeof *halves);
    }
    pf_step(pf);
    FN_DISPATCH(fn_awn_values,
                (m, truth, z, h, s->bias, s->noise_dev, s->anchor, f, out, &ties, &large));
    if (ties && r > 0.0) /* about m / 2^16 of them */
        for (size_t i = 0; i < m; i++)
            if ((double)h[i] == f && tie_anchors(s->key, first + i, r)) out[i] = s->anchor;
    return large;
}

/* A contiguous copy of m strided values (or the values themselves when contiguous). */
static const double *gather(const double *src, ptrdiff_t stride, size_t m, double *buf) {
    if (stride == 1) return src;
    for (size_t i = 0; i < m; i++)
        buf[i] = src[(ptrdiff_t)i * stride];
    return buf;
}

static void gather_rows(const double *const truth[FN_DVL_NSENSORS],
                        const ptrdiff_t stride[FN_DVL_NSENSORS], size_t first, size_t m,
                        double (*rows)[ROW]) {
    for (size_t i = 0; i < m; i++)
        for (int j = 0; j < FN_DVL_NSENSORS; j++)
            rows[j][i] = truth[j][(ptrdiff_t)(first + i) * stride[j]];
}

int fn_awn_measure_span(const fn_awn_params *p, size_t n, const double *truth,
                        ptrdiff_t truth_stride, double *out, ptrdiff_t out_stride) {
    double tbuf[CHUNK], obuf[CHUNK];
    uint64_t first = p->position;
    if (!has_room(first, n)) return FN_DVL_NO_ROOM;
    for (size_t done = 0; done < n; done += CHUNK) {
        size_t m = n - done < CHUNK ? n - done : CHUNK;
        const double *t =
            gather(truth + (ptrdiff_t)done * truth_stride, truth_stride, m, tbuf);
        double *o = out_stride == 1 ? out + done : obuf;
        size_t large = awn_chunk(p, first + done, m, t, o, NULL);
        if (out_stride != 1)
            for (size_t i = 0; i < m; i++)
                out[(ptrdiff_t)(done + i) * out_stride] = obuf[i];
        if (large) return FN_DVL_TOO_LARGE;
    }
    return FN_DVL_OK;
}

/* An angle's stand-in for the fast reduction: huge angles are first reduced exactly
 * with fmod (exact in IEEE arithmetic, so the same everywhere). */
static double tame_angle(double d) {
    return fabs(d) < FN_DVL_HUGE_DEG ? d : fmod(d, 360.0);
}

static int angle_is_huge(double d) {
    return fabs(d) >= FN_DVL_HUGE_DEG;
}

/* angle_is_huge for one of the measured roll, pitch and yaw (meas[0..2]): on x86
 * three compares as two (SSE2; NaN compares false, as in angle_is_huge). */
static inline int angles_are_huge(const double *meas) {
    _Static_assert(FN_DVL_ROLL == 0 && FN_DVL_PITCH == 1 && FN_DVL_YAW == 2,
                   "the angles lead the message");
#if FN_X86
    const __m128d abs_mask = _mm_castsi128_pd(_mm_set1_epi64x(INT64_MAX));
    const __m128d lim = _mm_set1_pd(FN_DVL_HUGE_DEG);
    __m128d rp = _mm_and_pd(_mm_loadu_pd(meas), abs_mask);
    __m128d y0 = _mm_and_pd(_mm_load_sd(meas + 2), abs_mask); /* upper lane 0 */
    return _mm_movemask_pd(_mm_or_pd(_mm_cmpge_pd(rp, lim), _mm_cmpge_pd(y0, lim))) != 0;
#else
    return angle_is_huge(meas[0]) | angle_is_huge(meas[1]) | angle_is_huge(meas[2]);
#endif
}

/* The composite again, through fn_dvl_compose_one, for the samples of a chunk with a
 * measured angle beyond the fast reduction (rare: |angle| >= 2^50 deg). */
static void fix_huge_angles(double (*meas)[ROW], size_t m) {
    for (size_t i = 0; i < m; i++) {
        if (angle_is_huge(meas[FN_DVL_ROLL][i]) | angle_is_huge(meas[FN_DVL_PITCH][i]) |
            angle_is_huge(meas[FN_DVL_YAW][i])) {
            double rec[FN_DVL_NSENSORS];
            for (int j = 0; j < FN_DVL_NSENSORS; j++)
                rec[j] = meas[j][i];
            fn_dvl_compose_one(rec, &meas[FN_DVL_VN][i], &meas[FN_DVL_VE][i],
                               &meas[FN_DVL_VU][i]);
        }
    }
}

/* Chunk rows -> records with any stride (plain copies: same bits); contiguous records
 * go through fn_dvl_store_records. */
static void store_records_strided(double (*rows)[ROW], size_t m, double *rec0,
                                  ptrdiff_t stride) {
    for (size_t i = 0; i < m; i++) {
        double *rec = rec0 + (ptrdiff_t)i * stride;
        for (int j = 0; j < FN_DVL_NFIELDS; j++)
            rec[j] = rows[j][i];
    }
}

void fn_dvl_compose_one(const double meas[FN_DVL_NSENSORS], double *vn, double *ve,
                        double *vu) {
    double r = tame_angle(meas[FN_DVL_ROLL]), p = tame_angle(meas[FN_DVL_PITCH]);
    double y = tame_angle(meas[FN_DVL_YAW]);
    /* the dispatched kernel for one sample: hardware FMA where there is one */
    FN_DISPATCH(fn_dvl_rotate_many, (1, &r, &p, &y, &meas[FN_DVL_SURGE], &meas[FN_DVL_SWAY],
                                     &meas[FN_DVL_HEAVE], vn, ve, vu));
}

int fn_dvl_measure_one(fn_awn *const sensors[FN_DVL_NSENSORS], const double *truth,
                       double *out, int *bad) {
    /* every check before anything moves: all sensors advance, or none; the values
     * first, then the positions */
    if (any_too_large(truth)) {
        for (int j = 0; j < FN_DVL_NSENSORS; j++) {
            if (too_large(truth[j])) {
                *bad = j;
                return FN_DVL_TOO_LARGE;
            }
        }
    }
    for (int j = 0; j < FN_DVL_NSENSORS; j++) {
        if (!has_room(sensors[j]->position, 1)) {
            *bad = j;
            return FN_DVL_NO_ROOM;
        }
    }
    /* unrolled: each sensor's pointer stays in a register from its value to its
     * position (the refill's call made the compiler keep a rolled loop, reloading it) */
    FN_DVL_UNROLL
    for (int j = 0; j < FN_DVL_NSENSORS; j++) {
        fn_awn *s = sensors[j];
        out[j] = measure_fast(sensors, j, truth[j]);
        s->position++;
    }
    if (angles_are_huge(out)) {
        fn_dvl_compose_one(out, &out[FN_DVL_VN], &out[FN_DVL_VE], &out[FN_DVL_VU]);
    } else { /* fn_dvl_compose_one without the reduction it would not make; the
              * angles read after the dispatch's level query, not kept across it */
        FN_DISPATCH(fn_dvl_rotate_one,
                    (out[FN_DVL_ROLL], out[FN_DVL_PITCH], out[FN_DVL_YAW],
                     out[FN_DVL_SURGE], out[FN_DVL_SWAY], out[FN_DVL_HEAVE],
                     &out[FN_DVL_VN], &out[FN_DVL_VE], &out[FN_DVL_VU]));
    }
    return FN_DVL_OK;
}

int fn_dvl_measure_span(const fn_awn_params sensors[FN_DVL_NSENSORS], uint64_t offset,
                        size_t n, const double *const truth[FN_DVL_NSENSORS],
                        const ptrdiff_t truth_stride[FN_DVL_NSENSORS], double *out,
                        ptrdiff_t out_stride, int *bad) {
    /* two sets of rows: a streamed chunk is written out while the next is computed */
    static _Thread_local _Alignas(64) double meas2[2][FN_DVL_NFIELDS][ROW];
    static _Thread_local _Alignas(64) double rows[FN_DVL_NSENSORS][ROW];
    const double *t[FN_DVL_NSENSORS];
    int all_contiguous = 1, records = 1;
    for (int j = 0; j < FN_DVL_NSENSORS; j++) {
        all_contiguous &= truth_stride[j] == 1;
        records &= truth_stride[j] == truth_stride[0] && truth[j] == truth[0] + j;
    }
    records &= truth_stride[0] >= FN_DVL_NSENSORS;
    /* Large outputs bypass the cache: no read-for-ownership of lines we overwrite. */
    int stream_out = FN_X86 && out_stride == FN_DVL_NFIELDS &&
                     n * FN_DVL_NFIELDS * sizeof(double) > STREAM_BYTES;
    int prefetch = records && n * (size_t)truth_stride[0] * sizeof(double) > PREFETCH_BYTES;
    int cur = 0, code = FN_DVL_OK;
    size_t prev_m = 0, prev_done = 0;
    for (int j = 0; j < FN_DVL_NSENSORS; j++) {
        uint64_t pos = sensors[j].position;
        if (!has_room(pos, offset) || !has_room(pos + offset, n)) {
            *bad = j;
            return FN_DVL_NO_ROOM;
        }
    }
    for (size_t done = 0; done < n; done += CHUNK) {
        size_t m = n - done < CHUNK ? n - done : CHUNK;
        double (*meas)[ROW] = meas2[cur];
        double (*prev)[ROW] = meas2[cur ^ 1];
        if (all_contiguous) {
            for (int j = 0; j < FN_DVL_NSENSORS; j++)
                t[j] = truth[j] + done;
        } else {
            if (records) /* record by record: memory is read in order */
                FN_DISPATCH(fn_dvl_load_records,
                            (m, truth[0] + (ptrdiff_t)done * truth_stride[0],
                             truth_stride[0], rows[0], ROW));
            else
                gather_rows(truth, truth_stride, done, m, rows);
            for (int j = 0; j < FN_DVL_NSENSORS; j++)
                t[j] = rows[j];
        }
        prefetcher pf = {0, 0};
        int prefetching = prefetch && n - done > CHUNK;
        if (prefetching) {
            size_t m2 = n - done - CHUNK < CHUNK ? n - done - CHUNK : CHUNK;
            pf.p = (uintptr_t)(truth[0] + (ptrdiff_t)(done + CHUNK) * truth_stride[0]);
            pf.end = pf.p + m2 * (size_t)truth_stride[0] * sizeof(double);
        }
        for (int j = 0; j < FN_DVL_NSENSORS; j++) {
            size_t large = awn_chunk(&sensors[j], sensors[j].position + offset + done, m,
                                     t[j], meas[j], prefetching ? &pf : NULL);
            if (large && code == FN_DVL_OK) {
                code = FN_DVL_TOO_LARGE;
                *bad = j;
            }
            /* a slice of the previous chunk out between the sensors: the streaming
             * stores drain to memory while the next sensor's draws are computed */
            size_t lo = j * FN_DVL_STAGE,
                   hi = lo + FN_DVL_STAGE < prev_m ? lo + FN_DVL_STAGE : prev_m;
            if (lo < hi)
                FN_DISPATCH(fn_dvl_store_records,
                            (hi - lo, prev[0] + lo, ROW,
                             out + (prev_done + lo) * FN_DVL_NFIELDS, 1));
        }
        size_t piece = prefetching ? CHUNK / ROT_SPLIT : CHUNK;
        for (size_t q = 0; q < m; q += piece) {
            size_t mq = m - q < piece ? m - q : piece;
            if (prefetching) pf_step(&pf);
            FN_DISPATCH(fn_dvl_rotate_many,
                        (mq, meas[FN_DVL_ROLL] + q, meas[FN_DVL_PITCH] + q,
                         meas[FN_DVL_YAW] + q, meas[FN_DVL_SURGE] + q,
                         meas[FN_DVL_SWAY] + q, meas[FN_DVL_HEAVE] + q, meas[FN_DVL_VN] + q,
                         meas[FN_DVL_VE] + q, meas[FN_DVL_VU] + q));
        }
        size_t huge;
        FN_DISPATCH(fn_dvl_count_huge,
                    (m, meas[FN_DVL_ROLL], meas[FN_DVL_PITCH], meas[FN_DVL_YAW], &huge));
        if (huge) fix_huge_angles(meas, m);
        if (code != FN_DVL_OK) break; /* out stays partly written: the caller raises */
        if (stream_out) {
            prev_m = m;
            prev_done = done;
            cur ^= 1;
        } else if (out_stride == FN_DVL_NFIELDS) {
            FN_DISPATCH(fn_dvl_store_records,
                        (m, meas[0], ROW, out + done * FN_DVL_NFIELDS, 0));
        } else {
            store_records_strided(meas, m, out + (ptrdiff_t)done * out_stride, out_stride);
        }
    }
    if (prev_m) /* the last streamed chunk */
        FN_DISPATCH(fn_dvl_store_records,
                    (prev_m, meas2[cur ^ 1][0], ROW, out + prev_done * FN_DVL_NFIELDS, 1));
#if FN_X86
    if (stream_out) _mm_sfence();
#endif
    return code;
}
