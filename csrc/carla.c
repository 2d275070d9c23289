/* CARLA's ray-cast lidar noise driver: draws each chunk's random numbers (keyed by
 * point index), then runs the SIMD-dispatched chunk kernel (carla_kern.c). */
#include "carla.h"

#include "normal.h"
#include "philox.h"

/* Raw words first .. first + m - 1 of a stream (word i is word i % 4 of block i / 4),
 * m <= FN_CARLA_CHUNK: the whole blocks that hold them go to buf (FN_CARLA_CHUNK + 8
 * words), and the returned pointer is the first one's place there. */
static const uint32_t *carla_words(uint64_t key, uint64_t stream, uint64_t first, size_t m,
                                   uint32_t *buf) {
    uint64_t b0 = first >> 2;
    size_t nblocks = (size_t)(((first + (m - 1)) >> 2) - b0) + 1;
    FN_DISPATCH(fn_carla_blocks, (key, stream, b0, nblocks, buf));
    return buf + (first & 3u);
}

static int carla_indices_ok(uint64_t first, size_t n) {
    return n == 0 || (uint64_t)(n - 1) <= UINT64_MAX - first;
}

#define DEFINE_CARLA(T, SUF)                                                               \
    int fn_carla_points_##SUF(const fn_carla_params *p, uint64_t first_index, size_t n,    \
                              size_t cols, const T *in, T *out, uint8_t *keep) {           \
        uint32_t bg[FN_CARLA_CHUNK + 8], bi[FN_CARLA_CHUNK + 8];                           \
        const uint32_t *wg = bg, *wi = bi;                                                 \
        float zn[FN_CARLA_CHUNK];                                                          \
        if (p->frame >= FN_CARLA_RESERVED_FRAME || !carla_indices_ok(first_index, n) ||    \
            cols < 4)                                                                      \
            return -1;                                                                     \
        const uint64_t s_gen = (p->frame << 2) | FN_STREAM_CARLA_GENERAL;                  \
        const uint64_t s_noise = (p->frame << 2) | FN_STREAM_CARLA_NOISE;                  \
        const uint64_t s_int = (p->frame << 2) | FN_STREAM_CARLA_INTENSITY;                \
        for (size_t done = 0; done < n; done += FN_CARLA_CHUNK) {                          \
            size_t m = n - done < FN_CARLA_CHUNK ? n - done : FN_CARLA_CHUNK;              \
            uint64_t first = first_index + done;                                           \
            if (fn_carla_general_active(p)) wg = carla_words(p->key, s_gen, first, m, bg); \
            if (fn_carla_noise_on(p))                                                      \
                fn_normal_fill_f32(p->key, s_noise, first, m, 0.0f, 1.0f, zn);             \
            if (fn_carla_intensity_draws(p))                                               \
                wi = carla_words(p->key, s_int, first, m, bi);                             \
            FN_DISPATCH(fn_carla_chunk_##SUF,                                              \
                        (p, m, cols, in + done * cols, out + done * cols, keep + done, wg, \
                         zn, wi));                                                         \
        }                                                                                  \
        return 0;                                                                          \
    }

DEFINE_CARLA(double, f64)
DEFINE_CARLA(float, f32)

#define DEFINE_COMPACT(T, SUF)                                                             \
    size_t fn_carla_compact_##SUF(size_t n, size_t cols, const uint8_t *keep, T *rows) {   \
        size_t m = 0;                                                                      \
        for (size_t i = 0; i < n; i++) {                                                   \
            if (!keep[i]) continue;                                                        \
            if (m != i)                                                                    \
                for (size_t c = 0; c < cols; c++)                                          \
                    rows[m * cols + c] = rows[i * cols + c];                               \
            m++;                                                                           \
        }                                                                                  \
        return m;                                                                          \
    }

DEFINE_COMPACT(double, f64)
DEFINE_COMPACT(float, f32)
