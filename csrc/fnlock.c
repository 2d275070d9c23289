/* The waiting half of fnlock.h: yield until the holder releases the lock. */
#include "fnlock.h"

#if defined(_WIN32)
#include <windows.h>
static void fn_yield(void) {
    SwitchToThread();
}
#else
#include <sched.h>
static void fn_yield(void) {
    sched_yield();
}
#endif

void fn_lock_wait(fn_lock *l) {
    while (!fn_lock_try(l)) {
        /* read-only spin first: no cache-line ping-pong while the holder works */
        for (int i = 0; i < 64 && atomic_load_explicit(&l->held, memory_order_relaxed);
             i++) {
        }
        if (atomic_load_explicit(&l->held, memory_order_relaxed)) fn_yield();
    }
}
