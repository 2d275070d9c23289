/* Depth noise driver: the normals of a chunk of pixels with the stateless fill, then the
 * SIMD-dispatched chunk kernel, so the image is read and written once and the normals
 * stay in cache. */
#include "depth.h"

#include "normal.h"

#define CHUNK 2048 /* pixels per step: 8 kB of normals */
/* the Box-Muller partner of capped normal j is normal FN_DEPTH_PAIR + j */
#define FN_DEPTH_PAIR (UINT64_C(1) << 63)

#define DEFINE_DEPTH(T, SUF)                                                               \
    void fn_depth_noise_##SUF(const fn_depth_params *p, uint64_t first, size_t n,          \
                              const T *d, T *out) {                                        \
        float z[CHUNK], z2[CHUNK];                                                         \
        for (size_t done = 0; done < n; done += CHUNK) {                                   \
            size_t m = n - done < CHUNK ? n - done : CHUNK;                                \
            fn_normal_fill_f32(p->key, p->frame, first + done, m, 0.0f, 1.0f, z);          \
            if (p->radius_cap > 0.0) {                                                     \
                fn_normal_fill_f32(p->key, p->frame, FN_DEPTH_PAIR + first + done, m,      \
                                   0.0f, 1.0f, z2);                                        \
                for (size_t i = 0; i < m; i++)                                             \
                    z[i] = fn_depth_cap(z[i], z2[i], p->radius_cap);                       \
            }                                                                              \
            FN_DISPATCH(fn_depth_chunk_##SUF, (p, m, d + done, z, out + done));            \
        }                                                                                  \
    }

DEFINE_DEPTH(float, f32)
DEFINE_DEPTH(double, f64)
