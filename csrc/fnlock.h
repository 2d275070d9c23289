/* A small lock for one model object shared by threads.
 *
 * Uncontended, taking and dropping it is one atomic compare-exchange and one atomic
 * store (a few ns: a per-sample call of 30-60 ns cannot afford an OS semaphore).
 * Contended, fn_lock_wait yields the CPU until the holder is done; callers release
 * the GIL around it so the holder can finish. Not reentrant. A zeroed struct is an
 * unlocked lock. */
#ifndef FN_LOCK_H
#define FN_LOCK_H

#include <stdatomic.h>

typedef struct {
    atomic_int held;
} fn_lock;

static inline int fn_lock_try(fn_lock *l) {
    int expected = 0;
    return atomic_compare_exchange_strong_explicit(
        &l->held, &expected, 1, memory_order_acquire, memory_order_relaxed);
}

static inline void fn_lock_release(fn_lock *l) {
    atomic_store_explicit(&l->held, 0, memory_order_release);
}

/* Whether some caller holds the lock (an acquire load: a plain load on x86). */
static inline int fn_lock_held(fn_lock *l) {
    return atomic_load_explicit(&l->held, memory_order_acquire);
}

/* Wait until the lock is taken (by this caller). */
void fn_lock_wait(fn_lock *l);

#endif
