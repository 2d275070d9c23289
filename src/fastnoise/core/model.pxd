# The base of every model (see model.pyx for the contract).
from cpython.pythread cimport (
    NOWAIT_LOCK,
    WAIT_LOCK,
    PyThread_acquire_lock,
    PyThread_release_lock,
    PyThread_type_lock,
)


cdef class Model:
    cdef object _seed_seq  # numpy.random.SeedSequence, or None for a deterministic model
    cdef PyThread_type_lock _lock  # guards positions and states shared by threads


# The per-object lock: taken around every read-and-advance of a model's position (and
# for a whole call where the model has a recurrence). Uncontended, it costs one atomic
# operation; contended, it waits with the GIL released, so the holder can finish.
# Not reentrant: a locked section must not call another locked method of the same
# object.
cdef inline int lock_model(Model m) except -1:
    if PyThread_acquire_lock(m._lock, NOWAIT_LOCK):
        return 0
    with nogil:
        PyThread_acquire_lock(m._lock, WAIT_LOCK)
    return 0


cdef inline void unlock_model(Model m) noexcept:
    PyThread_release_lock(m._lock)
