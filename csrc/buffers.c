/* Large, huge-page-aligned allocations for result arrays. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* mmap's MAP_ANONYMOUS and madvise under -std=c11 */
#endif
#include "buffers.h"

#include <stdint.h>
#include <stdlib.h>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define FN_BUFFERS_MMAP 1
#else
#define FN_BUFFERS_MMAP 0
#if defined(_WIN32)
#include <malloc.h>
#endif
#endif

#define HUGE_PAGE ((size_t)2 << 20)

#if FN_BUFFERS_MMAP
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

static size_t mapped_size(size_t bytes) {
    return (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE; /* whole huge pages */
}
#endif

void *fn_buffer_alloc(size_t bytes) {
    if (bytes == 0) bytes = 1;
#if FN_BUFFERS_MMAP
    size_t size = mapped_size(bytes);
    if (size < bytes || size + HUGE_PAGE < size) return NULL; /* overflow */
    /* map a huge page more than needed and unmap the ends, to align the start */
    char *m = mmap(NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) return NULL;
    uintptr_t start = ((uintptr_t)m + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
    char *p = (char *)start;
    size_t head = (size_t)(p - m);
    if (head) munmap(m, head);
    if (HUGE_PAGE - head) munmap(p + size, HUGE_PAGE - head);
#if defined(MADV_HUGEPAGE)
    madvise(p, size, MADV_HUGEPAGE);
#endif
    return p;
#elif defined(_WIN32)
    return _aligned_malloc(bytes, 64);
#else
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
#endif
}

void fn_buffer_free(void *p, size_t bytes) {
    if (p == NULL) return;
#if FN_BUFFERS_MMAP
    if (bytes == 0) bytes = 1;
    munmap(p, mapped_size(bytes));
#elif defined(_WIN32)
    (void)bytes;
    _aligned_free(p);
#else
    (void)bytes;
    free(p);
#endif
}
