/* Memory for large result arrays (see src/fastnoise/core/buffers.pyx, which recycles
 * it). */
#ifndef FN_BUFFERS_H
#define FN_BUFFERS_H

#include <stddef.h>

/* `bytes` of memory straight from the system (mmap on POSIX, so freeing it really
 * gives it back), aligned to 2 MiB and advised to use transparent huge pages where
 * the system has them (fewer page faults on first touch); 64-byte aligned heap
 * memory elsewhere. NULL when out of memory. fn_buffer_free takes the same `bytes`;
 * fn_buffer_free(NULL, n) does nothing. */
void *fn_buffer_alloc(size_t bytes);

/* 1 in a sanitizer build (-DFN_SANITIZE): result arrays then come from plain malloc,
 * one exact-size block each, so AddressSanitizer sees an overflow past their end. */
#ifdef FN_SANITIZE
#define FN_BUFFERS_SANITIZED 1
#else
#define FN_BUFFERS_SANITIZED 0
#endif
void fn_buffer_free(void *p, size_t bytes);

#endif
