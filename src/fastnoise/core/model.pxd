# The base of every model (see model.pyx for the contract).

from libc.stdint cimport uint64_t

cdef extern from "fnlock.h" nogil:
    ctypedef struct fn_lock:
        pass
    bint fn_lock_try(fn_lock *l)
    bint fn_lock_held(fn_lock *l)
    void fn_lock_release(fn_lock *l)
    void fn_lock_wait(fn_lock *l)


cdef class Model:
    cdef object _seed_seq  # numpy.random.SeedSequence, or None for a deterministic model
    cdef fn_lock _lock  # guards positions and states shared by threads (zeroed: unlocked)
    cdef uint64_t _key  # the Philox key of the model's first key tag (0 until built)
    cdef bint _built  # __init__ completed: the C state is the model's, not the blank one
    cdef object _num_envs  # a batch's size (num_envs=N), or None: one model
    cdef object _env  # the environment a single model is (env=i), or None


# The base of the models whose one moving part is a frame counter (the camera models,
# the lidar, range and CARLA lidar models).
cdef class _FrameCounter(Model):
    cdef uint64_t _frame  # the frame the next call without a frame uses


# The per-object lock: taken around every read-and-advance of a model's position (and
# for a whole call where the model has a recurrence). Uncontended, it costs one atomic
# compare-exchange; contended, it waits with the GIL released, so the holder can
# finish. Not reentrant: a locked section must not call another locked method of the
# same object.
cdef inline int lock_model(Model m) except -1:
    if fn_lock_try(&m._lock):
        return 0
    with nogil:
        fn_lock_wait(&m._lock)
    return 0


cdef inline void unlock_model(Model m) noexcept:
    fn_lock_release(&m._lock)


# The lock of a per-sample call whose locked section is C code run with the GIL held
# from start to end (no Python code, nothing that could let the GIL go): a free lock
# is only tested, not taken, which spares the atomic compare-exchange (it drains the
# store buffer: about 5 ns of a 40-80 ns call). Sound because every holder takes the
# lock with the GIL held (lock_model; its wait may take it without the GIL, but returns
# only once it has the GIL back) and reaches the model only after that, so while this
# call holds the GIL nobody can be inside the model unless the lock is already held.
# A held lock is waited for and taken as lock_model does: True is returned, and the
# caller then releases it with unlock_model. Free-threaded CPython is not supported.
cdef inline bint hold_model(Model m) except -1:
    if not fn_lock_held(&m._lock):
        return False
    lock_model(m)
    return True


# Refuses an object whose __init__ never completed (made with cls.__new__, or left by a
# failed __init__): its C state is the blank one, safe but not a model. Each public
# entry point that reads the model's parameters calls it first.
cdef inline int check_built(Model m) except -1:
    if not m._built:
        raise RuntimeError(f"this {type(m).__name__} was never initialised (made with "
                           "__new__, or left by a failed __init__): call __init__ or use "
                           "from_state")
    return 0


# Reserve ``count`` frames of a frame counter, under the model's lock: ``first[0]`` gets
# the counter's frame and the counter advances by ``count``, so threads that share the
# model each get their own frames, once. ``last`` is the model's last frame: the
# counter never passes it (reserving would) and the call raises OverflowError naming
# ``frame`` instead, leaving the counter as it was. Nothing that can raise runs while
# the lock is held.
cdef inline int take_frames(_FrameCounter m, uint64_t count, uint64_t last,
                            uint64_t *first) except -1:
    cdef uint64_t f
    cdef bint full
    lock_model(m)
    f = m._frame
    full = last - f < count  # f <= last always holds
    if not full:
        m._frame = f + count
    unlock_model(m)
    if full:
        raise OverflowError(
            f"frame: the frame counter is at {f}, and {count} more frame(s) would pass "
            f"the last frame of a {type(m).__name__}, {last}; pass frame= explicitly, or "
            "reset() it")
    first[0] = f
    return 0
