/* Memory for large result arrays (see fastnoise/_buffers.pyx, which recycles it). */
#ifndef FN_BUFFERS_H
#define FN_BUFFERS_H

#include <stddef.h>

/* `bytes` of memory aligned to 2 MiB and, where the system has them, backed by
 * transparent huge pages (fewer page faults on first touch). NULL when out of
 * memory; fn_buffer_free(NULL) does nothing. */
void *fn_buffer_alloc(size_t bytes);
void fn_buffer_free(void *p);

#endif
