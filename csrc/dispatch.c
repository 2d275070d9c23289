/* CPU detection for the kernel copies; FASTNOISE_SIMD=scalar|avx2|avx512 lowers it. */
#include "simd.h"

#include <stdlib.h>
#include <string.h>

static int detected = -1;
static int level = -1;

static int detect(void) {
#if FN_X86 && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
        return FN_SIMD_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return FN_SIMD_AVX2;
#endif
    return FN_SIMD_SCALAR;
}

static int parse_env(void) {
    const char *v = getenv("FASTNOISE_SIMD");
    if (v == NULL || *v == '\0') return FN_SIMD_AVX512;
    if (strcmp(v, "scalar") == 0) return FN_SIMD_SCALAR;
    if (strcmp(v, "avx2") == 0) return FN_SIMD_AVX2;
    return FN_SIMD_AVX512; /* unknown or "avx512": no cap */
}

int fn_simd_detected(void) {
    if (detected < 0) detected = detect();
    return detected;
}

int fn_simd_set(int want) {
    int top = fn_simd_detected();
    if (want < FN_SIMD_SCALAR) want = FN_SIMD_SCALAR;
    level = want < top ? want : top;
    return level;
}

int fn_simd_level(void) {
    if (level < 0) fn_simd_set(parse_env());
    return level;
}

const char *fn_simd_name(int l) {
    switch (l) {
    case FN_SIMD_AVX512:
        return "avx512";
    case FN_SIMD_AVX2:
        return "avx2";
    default:
        return "scalar";
    }
}
