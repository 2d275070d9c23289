"""Memory for large results, recycled between calls.

A fresh result of many megabytes costs the kernel about as much time to zero, page by
page on first touch, as a whole batch takes to compute. So the memory of large
results (``recycled_empty``) is kept when they die and serves later ones: at most
four blocks and 256 MiB stay held, and
``fastnoise.core.buffers.release_spare_memory()`` hands them back to the system. A block is reused
only after its array and every view of it are gone, so a live result never changes.
Everything here runs under the GIL. Spare blocks left at exit go with the process.

``bytes_with_view`` makes a result that leaves as ``bytes`` (a serialized message for
a middleware) writable while it is filled, so it needs no copy at the end.
"""

cimport numpy as cnp
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.ref cimport Py_INCREF

import numpy as np

cnp.import_array()

cdef extern from "buffers.h":
    void *fn_buffer_alloc(size_t nbytes)
    void fn_buffer_free(void *p, size_t nbytes)
    int FN_BUFFERS_SANITIZED

cdef extern from "numpy/arrayobject.h":
    # the type and the dtype as raw pointers (it steals a reference to the dtype)
    object PyArray_NewFromDescr "PyArray_NewFromDescr" (
        void *subtype, void *descr, int nd, cnp.npy_intp *dims, cnp.npy_intp *strides,
        void *data, int flags, void *obj)

cdef size_t _recycle_bytes = 4 << 20  # smaller results use np.empty
cdef size_t _recycle_max = 256 << 20  # larger blocks go back to the system, as do spares
cdef Py_ssize_t _max_spares = 4

#: True in a sanitizer build: every result has its own malloc block, nothing recycled.
SANITIZED = bool(FN_BUFFERS_SANITIZED)

cdef list _spares = []  # [(address, nbytes)], most recently freed last


def _set_limits(recycle_max=None):
    """For tests: the largest block kept (bytes). Returns the previous value."""
    global _recycle_max
    old = _recycle_max
    if recycle_max is not None:
        _recycle_max = recycle_max
    return old


cdef size_t _spare_total():
    cdef size_t total = 0
    for _, nb in _spares:
        total += <size_t>nb
    return total


cdef class _Block:
    """Owner of one result's memory (the array's base); when the result and its views
    are gone the memory becomes a spare block."""

    cdef void *p
    cdef size_t nbytes

    def __dealloc__(self):
        if self.p == NULL:
            return
        if self.nbytes <= _recycle_max:
            _spares.append((<size_t>self.p, self.nbytes))
            # keep the newest blocks within both limits
            while len(_spares) > _max_spares or _spare_total() > _recycle_max:
                addr, nb = _spares.pop(0)
                fn_buffer_free(<void *><size_t>addr, <size_t>nb)
        else:
            fn_buffer_free(self.p, self.nbytes)
        self.p = NULL


cdef void *_take_spare(size_t nbytes, size_t *got):
    """A spare block of nbytes to 2 * nbytes, or NULL."""
    cdef Py_ssize_t k
    for k in range(len(_spares) - 1, -1, -1):
        addr, nb = _spares[k]
        if nbytes <= <size_t>nb <= 2 * nbytes:
            del _spares[k]
            got[0] = <size_t>nb
            return <void *><size_t>addr
    return NULL


cdef cnp.ndarray recycled_empty(tuple shape, object dtype):
    """An uninitialized C-contiguous array (like np.empty) whose memory, when large,
    comes from and goes back to the spare blocks."""
    cdef cnp.npy_intp dims[32]
    cdef cnp.npy_intp count = 1
    cdef int nd = len(shape), k
    cdef size_t nbytes, got = 0
    cdef _Block block
    descr = np.dtype(dtype)
    if nd > 32:
        return np.empty(shape, dtype=descr)
    for k in range(nd):
        dims[k] = shape[k]
        if dims[k] < 0:
            raise ValueError(f"shape={shape!r} is not allowed: negative dimensions")
        if dims[k] and count > (<cnp.npy_intp>1 << 62) // dims[k]:
            raise ValueError(f"shape={shape!r} is not allowed: too many elements")
        count *= dims[k]
    if count and <size_t>count > (<size_t>1 << 62) // <size_t>descr.itemsize:
        raise ValueError(f"shape={shape!r} is not allowed: more than 2**62 bytes")
    nbytes = <size_t>count * <size_t>descr.itemsize
    if nbytes < _recycle_bytes or FN_BUFFERS_SANITIZED:
        return np.empty(shape, dtype=descr)
    block = _Block.__new__(_Block)
    block.p = _take_spare(nbytes, &got)
    if block.p != NULL:
        block.nbytes = got
    else:
        block.p = fn_buffer_alloc(nbytes)
        if block.p == NULL:
            raise MemoryError(f"no memory for an array of {nbytes} bytes")
        block.nbytes = nbytes
    Py_INCREF(descr)  # PyArray_NewFromDescr steals a reference to the dtype
    arr = PyArray_NewFromDescr(<void *>np.ndarray, <void *>descr, nd, dims, NULL, block.p,
                               cnp.NPY_ARRAY_CARRAY, NULL)
    cnp.set_array_base(arr, block)
    return arr


def release_spare_memory():
    """Hand the memory kept from dropped large results back to the system.

    fastnoise keeps the memory of up to four dropped results of 4 MiB to 256 MiB
    (256 MiB in all) for later ones, which saves the kernel zeroing fresh pages.
    Returns the number of bytes released."""
    cdef size_t total = _spare_total()
    while _spares:
        addr, nb = _spares.pop()
        fn_buffer_free(<void *><size_t>addr, <size_t>nb)
    return total


def spare_memory():
    """Bytes kept from dropped large results (see ``release_spare_memory``)."""
    return _spare_total()


def bytes_with_view(Py_ssize_t nbytes):
    """``(record, view)``: a new ``bytes`` object of ``nbytes`` bytes (contents not
    set) and a writable 1-D uint8 array over its memory, which keeps it alive.

    For a result handed on as ``bytes`` (rclpy's ``Publisher.publish`` takes a
    serialized message as ``bytes`` only): the caller fills ``view`` and passes
    ``record``, with no ``tobytes`` copy of a whole camera frame. Python treats bytes
    as immutable, so every write through ``view`` must come before ``record`` is
    hashed, compared or given to anyone; a ``bytes`` object fresh from here has been
    seen by no one else."""
    if nbytes < 0:
        raise ValueError(f"nbytes={nbytes} is not allowed: it must be >= 0")
    # NULL contents: a new object even for 1 byte (only 0 gives the shared empty one,
    # which no write can reach)
    record = PyBytes_FromStringAndSize(NULL, nbytes)
    cdef cnp.npy_intp dims[1]
    dims[0] = nbytes
    view = cnp.PyArray_SimpleNewFromData(1, dims, cnp.NPY_UINT8, PyBytes_AS_STRING(record))
    Py_INCREF(record)  # the array's base holds a reference
    cnp.PyArray_SetBaseObject(view, record)
    return record, view
