/* Run-time SIMD dispatch shared by every kernel.
 *
 * Kernel sources named *_kern.c are compiled once per target (scalar, avx2, avx512)
 * with -DFN_SUFFIX=_<target>; FN_KERNEL(name) gives each copy its own symbol.
 * Plain C without fast-math or contraction, so every copy computes the same bits.
 */
#ifndef FN_SIMD_H
#define FN_SIMD_H

#define FN_CAT_(a, b) a##b
#define FN_CAT(a, b) FN_CAT_(a, b)
#ifdef FN_SUFFIX
#define FN_KERNEL(name) FN_CAT(name, FN_SUFFIX)
#endif

enum { FN_SIMD_SCALAR = 0, FN_SIMD_AVX2 = 1, FN_SIMD_AVX512 = 2 };

#if defined(__x86_64__) || defined(_M_X64)
#define FN_X86 1
#else
#define FN_X86 0
#endif

/* Highest level this CPU (and this build) supports. */
int fn_simd_detected(void);
/* Level in use: detected level, lowered by FASTNOISE_SIMD or fn_simd_set. */
int fn_simd_level(void);
/* Ask for a level; it is capped at the detected one. Returns the level in use. */
int fn_simd_set(int level);
const char *fn_simd_name(int level);

/* Declare the per-target copies of a kernel and call the chosen one. */
#if FN_X86
#define FN_DECLARE_KERNEL(ret, name, params)                                               \
    ret name##_scalar params;                                                              \
    ret name##_avx2 params;                                                                \
    ret name##_avx512 params;
#define FN_DISPATCH(name, args)                                                            \
    do {                                                                                   \
        switch (fn_simd_level()) {                                                         \
        case FN_SIMD_AVX512:                                                               \
            name##_avx512 args;                                                            \
            break;                                                                         \
        case FN_SIMD_AVX2:                                                                 \
            name##_avx2 args;                                                              \
            break;                                                                         \
        default:                                                                           \
            name##_scalar args;                                                            \
            break;                                                                         \
        }                                                                                  \
    } while (0)
#else
#define FN_DECLARE_KERNEL(ret, name, params) ret name##_scalar params;
#define FN_DISPATCH(name, args) name##_scalar args
#endif

#endif
