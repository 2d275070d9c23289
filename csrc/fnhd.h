/* Portability for the headers that are shared with the GPU path.
 *
 * The arithmetic headers (philox.h, fnmath.h, normal_pair.h and the per-element model
 * headers) are compiled three ways: as C11 for the CPU kernels, as CUDA C++ by nvcc
 * (CI checks that they compile) and by NVRTC at run time (fastnoise.cuda). NVRTC has no
 * standard headers at all, so the fixed-width integer types and the few library
 * functions used (sqrt, fma, memcpy-style bit casts) come from here.
 *
 *   FN_INLINE  a small function: `static inline` in C, a device function under CUDA.
 *   FN_TABLE   a constant coefficient table: `static const` in C, constant memory under
 *              CUDA (a plain const array is not readable from device code; constant
 *              entries at fixed indices become immediate operands).
 *
 * With CUDA the kernels are built with contraction off (--fmad=false) and correctly
 * rounded sqrt and division (--prec-sqrt=true --prec-div=true), so every operation is
 * the same IEEE operation as in C and the bits agree.
 */
#ifndef FN_HD_H
#define FN_HD_H

#if defined(__CUDACC__)
#define FN_INLINE static __device__ __forceinline__
#define FN_TABLE static __constant__ const
#else
#define FN_INLINE static inline
#define FN_TABLE static const
#endif

#if defined(__CUDACC_RTC__)
/* NVRTC: no <stdint.h> or <math.h>; sqrt, sqrtf, fma and fmaf are built in. Device
 * code uses the fixed-width types only (no size_t: NVRTC has its own). */
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#define INFINITY __int_as_float(0x7f800000)
#define UINT64_MAX 0xFFFFFFFFFFFFFFFFull
#define UINT64_C(c) c##ull
#else
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#endif

#endif
