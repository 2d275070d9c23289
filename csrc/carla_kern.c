/* CARLA chunk kernels, compiled once per SIMD target (see simd.h): one plain loop over
 * the points calling fn_carla_point (lidar_point.h). The targets differ only in what
 * the compiler may use for the same operations (hardware fma for fnmath's exp), so
 * every target writes the same bits. */
#include "carla.h"
#include "lidar_point.h"
#include "philox_simd.h"

/* Raw Philox words of blocks block0 .. block0 + nblocks - 1, in block order (word j of
 * block k at out[4 k + j]): eight blocks at a time on AVX2 builds
 * (fn_philox_avx2_blocks8, shared with dvl_kern.c), the rest with fn_philox_block. */
void FN_KERNEL(fn_carla_blocks)(uint64_t key, uint64_t stream, uint64_t block0,
                                size_t nblocks, uint32_t *out) {
    size_t i = 0;
#if defined(__AVX2__)
    fn_philox_avx2 P;
    fn_philox_avx2_init(&P, key, stream);
    for (; i + 8 <= nblocks; i += 8)
        fn_philox_avx2_blocks8(&P, block0 + i, out + 4 * i);
#endif
    for (; i < nblocks; i++)
        fn_philox_block(key, stream, block0 + i, out + 4 * i);
}

/* Three passes over the chunk (fn_carla_distance, fn_carla_intensity, fn_carla_point),
 * so the compiler can vectorize the first two (the exp is most of the work); each
 * point's operations and their order are those of one call after the other. */
#define DEFINE_CARLA_CHUNK(T, SUF)                                                         \
    void FN_KERNEL(fn_carla_chunk_##SUF)(                                                  \
        const fn_carla_params *p, size_t m, size_t cols, const T *in, T *out,              \
        uint8_t *keep, const uint32_t *wg, const float *zn, const uint32_t *wi) {          \
        T d[FN_CARLA_CHUNK];                                                               \
        double inten[FN_CARLA_CHUNK];                                                      \
        const int gen_active = fn_carla_general_active(p);                                 \
        const int noise_on = fn_carla_noise_on(p);                                         \
        const int intensity_draws = fn_carla_intensity_draws(p);                           \
        const double alpha = p->zero / p->limit, beta = 1.0 - p->zero;                     \
        const double atten = p->atten;                                                     \
        const T sd = (T)p->noise_stddev;                                                   \
        for (size_t j = 0; j < m; j++)                                                     \
            d[j] =                                                                         \
                fn_carla_distance_##SUF(in[j * cols], in[j * cols + 1], in[j * cols + 2]); \
        for (size_t j = 0; j < m; j++)                                                     \
            inten[j] = fn_carla_intensity_##SUF(atten, d[j]);                              \
        for (size_t j = 0; j < m; j++) {                                                   \
            const T *a = in + j * cols;                                                    \
            T *o = out + j * cols;                                                         \
            T ox, oy, oz, intensity;                                                       \
            double ug = gen_active ? fn_unit_from_u32(wg[j]) : 1.0;                        \
            double ui = intensity_draws ? fn_unit_from_u32(wi[j]) : 0.0;                   \
            int k = fn_carla_point_##SUF(a[0], a[1], a[2], d[j], inten[j], ug, ui,         \
                                         noise_on ? (T)zn[j] : 0, gen_active,              \
                                         p->general_rate, noise_on, sd, p->limit, alpha,   \
                                         beta, &ox, &oy, &oz, &intensity);                 \
            if (o != a)                                                                    \
                for (size_t c = 4; c < cols; c++)                                          \
                    o[c] = a[c];                                                           \
            o[0] = ox;                                                                     \
            o[1] = oy;                                                                     \
            o[2] = oz;                                                                     \
            o[3] = intensity;                                                              \
            keep[j] = (uint8_t)k;                                                          \
        }                                                                                  \
    }

DEFINE_CARLA_CHUNK(double, f64)
DEFINE_CARLA_CHUNK(float, f32)
