/* Large, huge-page-aligned allocations for result arrays. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* posix_memalign, madvise under -std=c11 */
#endif
#include "buffers.h"

#include <stdlib.h>
#if defined(_WIN32)
#include <malloc.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)

void *fn_buffer_alloc(size_t bytes) {
    if (bytes == 0) bytes = 1;
#if defined(_WIN32)
    return _aligned_malloc(bytes, 64);
#else
    void *p = NULL;
    if (posix_memalign(&p, HUGE_PAGE, bytes) != 0) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE) madvise(p, bytes - bytes % HUGE_PAGE, MADV_HUGEPAGE);
#endif
    return p;
#endif
}

void fn_buffer_free(void *p) {
#if defined(_WIN32)
    _aligned_free(p);
#else
    free(p);
#endif
}
