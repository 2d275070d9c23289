"""DVL truth in, messages out: the ground truth of one sample read into C doubles
(``fill_truth``, on the per-sample path), the ``DvlMeasurement`` record, and the column
pointers of a batch (``_Batch``) for ``DvlSimulator.measure_many``."""

from collections.abc import Mapping, Sequence

import numpy as np

cimport cython
cimport numpy as cnp

from libc.stddef cimport ptrdiff_t
from libc.string cimport memcpy

from fastnoise.models.dvl.capi cimport (
    FN_DVL_NFIELDS,
    FN_DVL_NSENSORS,
    FN_DVL_OK,
    fn_dvl_measure_span,
)
from fastnoise.models.dvl.sensor cimport real

from fastnoise.core import arrays as _arrays
from fastnoise.models.dvl.sensor import as_array, short_repr

from fastnoise.models.dvl.config import MESSAGE_FIELDS, TRUTH_FIELDS

cnp.import_array()

cdef tuple _FIELDS = TRUTH_FIELDS
cdef object _F64 = np.dtype(np.float64)
cdef object _MISSING = object()
cdef object _VOID = np.void


# The record layout last read in place: a dtype whose ten truth fields are native
# float64, and their byte offsets. Records of one array share their dtype object, so a
# loop over them computes the offsets once.
cdef object _rec_dtype = None
cdef Py_ssize_t _rec_off[FN_DVL_NSENSORS]
# The same for truth_in_place (measurement.pxd): the dtype's address, and whether the
# ten fields follow each other in table order (TRUTH_DTYPE's layout), so that one copy
# of 80 bytes reads them all.
cdef RecordLayout _layout
_layout.void_type = <const void *>np.void
_layout.dtype = NULL
_layout.first = 0
_layout.run = False


cdef RecordLayout *record_layout() noexcept:
    return &_layout


@cython.freelist(16)
cdef class DvlMeasurement:
    """DvlMeasurement(*values)
--

One DVL message: measured roll, pitch, yaw (deg), surge, sway, heave (m/s),
    depth, altitude (m), water_speed (m/s), rpm (rev/min), and the composite vn, ve,
    vu (m/s). Read-only; ``m["vn"]`` and ``m.as_dict()`` also work."""

    fields = MESSAGE_FIELDS

    def __init__(self, *values):
        if len(values) != FN_DVL_NFIELDS:
            raise TypeError(f"DvlMeasurement takes {FN_DVL_NFIELDS} values "
                            f"{MESSAGE_FIELDS}, got {len(values)}")
        cdef double v[FN_DVL_NFIELDS]
        for i, x in enumerate(values):
            v[i] = real(MESSAGE_FIELDS[i], x)
        self.v = v

    @property
    def roll(self):
        """Measured roll (deg)."""
        return self.v[0]

    @property
    def pitch(self):
        """Measured pitch (deg)."""
        return self.v[1]

    @property
    def yaw(self):
        """Measured yaw (deg)."""
        return self.v[2]

    @property
    def surge(self):
        """Measured surge velocity (m/s)."""
        return self.v[3]

    @property
    def sway(self):
        """Measured sway velocity (m/s)."""
        return self.v[4]

    @property
    def heave(self):
        """Measured heave velocity (m/s)."""
        return self.v[5]

    @property
    def depth(self):
        """Measured depth (m)."""
        return self.v[6]

    @property
    def altitude(self):
        """Measured altitude above the bottom (m)."""
        return self.v[7]

    @property
    def water_speed(self):
        """Measured water speed (m/s)."""
        return self.v[8]

    @property
    def rpm(self):
        """Measured propeller speed (rev/min)."""
        return self.v[9]

    @property
    def vn(self):
        """North velocity from the measured angles and body velocities (m/s)."""
        return self.v[10]

    @property
    def ve(self):
        """East velocity (m/s)."""
        return self.v[11]

    @property
    def vu(self):
        """Up velocity, -(R v)_down (m/s)."""
        return self.v[12]

    def __getitem__(self, name):
        try:
            i = MESSAGE_FIELDS.index(name)
        except ValueError:
            raise KeyError(f"{name!r} is not a DVL message field: use one of "
                           f"{MESSAGE_FIELDS}") from None
        return self.v[i]

    def as_dict(self):
        """{field: value} in message order."""
        return {f: self.v[i] for i, f in enumerate(MESSAGE_FIELDS)}

    def __iter__(self):
        return iter([self.v[i] for i in range(FN_DVL_NFIELDS)])

    def __len__(self):
        return FN_DVL_NFIELDS

    def __eq__(self, other):
        if not isinstance(other, DvlMeasurement):
            return NotImplemented
        return tuple(self) == tuple(other)

    def __hash__(self):
        return hash(tuple(self))

    def __reduce__(self):
        return (DvlMeasurement, tuple(self))

    def __repr__(self):
        body = ", ".join(f"{f}={self.v[i]!r}" for i, f in enumerate(MESSAGE_FIELDS))
        return f"DvlMeasurement({body})"


cdef inline double _real(str name, value) except? -1.0:
    return real(f"truth[{name!r}]", value)


cdef int fill_truth(truth, double *t) except -1:
    """Ground truth of one message into t[0..10), any form: records, dicts, lists,
    tuples and arrays first (a per-sample call in a control loop), then any mapping,
    structured record, array (through ``fastnoise.core.arrays.intake``: big-endian,
    unaligned, strided and int arrays are read as numbers, never as raw bytes) or
    sequence. Values: real numbers (no bools, strings, complex, datetimes or objects),
    NaN/inf allowed. Errors name the field. ``DvlSimulator.measure`` tries
    ``truth_in_place`` (measurement.pxd) first and calls this for what it leaves, so
    the two fast forms are not tested again here; both still read correctly below."""
    cdef Py_ssize_t i
    cdef object v
    cdef dict d
    cdef cnp.ndarray arr
    cdef char *base
    cdef Py_ssize_t step
    if type(truth) is _VOID:  # a record
        return _fill_void(truth, t)
    if type(truth) is dict:
        d = <dict>truth
        for i in range(FN_DVL_NSENSORS):
            v = d.get(_FIELDS[i], _MISSING)
            if type(v) is float:
                t[i] = <double>v
            elif v is _MISSING:
                raise ValueError(f"truth lacks field {_FIELDS[i]!r}: it needs "
                                 f"{list(TRUTH_FIELDS)}")
            else:
                t[i] = _real(_FIELDS[i], v)
        return 0
    if type(truth) is list or type(truth) is tuple:
        _check_len(truth)
        for i in range(FN_DVL_NSENSORS):
            v = truth[i]
            t[i] = <double>v if type(v) is float else _real(_FIELDS[i], v)
        return 0
    if cnp.PyArray_Check(truth):
        arr = <cnp.ndarray>truth
        if cnp.PyArray_TYPE(arr) == cnp.NPY_VOID and arr.dtype.names is not None:
            if cnp.PyArray_NDIM(arr) == 0:
                return _fill_void(arr[()], t)
            raise TypeError(f"truth is a structured array of shape {truth.shape}: measure takes "
                            f"one record (a row, or a 0-d array); use measure_many for a batch")
        # cnp.ndarray: a pointer compare (np.ndarray would be a module attribute
        # lookup on every call, a quarter of this path's glue)
        if not (type(truth) is cnp.ndarray and cnp.PyArray_TYPE(arr) == cnp.NPY_FLOAT64
                and cnp.PyArray_NDIM(arr) == 1 and cnp.PyArray_ISNOTSWAPPED(arr)
                and cnp.PyArray_ISALIGNED(arr)):
            arr = _arrays.intake("truth", arr, _F64, ndim=1)
        if cnp.PyArray_DIM(arr, 0) != FN_DVL_NSENSORS:
            _check_len(arr)
        base = <char *>cnp.PyArray_DATA(arr)
        step = cnp.PyArray_STRIDE(arr, 0)
        if step == sizeof(double):  # contiguous: one copy
            memcpy(t, base, FN_DVL_NSENSORS * sizeof(double))
            return 0
        for i in range(FN_DVL_NSENSORS):
            t[i] = (<double *>(base + i * step))[0]
        return 0
    if isinstance(truth, _VOID):  # numpy.record and other subclasses
        return _fill_void(truth, t)
    if isinstance(truth, Mapping):
        return _fill_record(truth, t)
    if isinstance(truth, (str, bytes)) or not isinstance(truth, Sequence):
        raise TypeError(f"truth={short_repr(truth)} is not allowed: use a mapping of "
                        f"{TRUTH_FIELDS} or a sequence of 10 values")
    _check_len(truth)
    for i in range(FN_DVL_NSENSORS):
        t[i] = _real(_FIELDS[i], truth[i])
    return 0


cdef int _fill_void(truth, double *t) except -1:
    """A numpy.void record: read in place when its truth fields are native float64
    (the layout of its dtype is learnt once), else field by field."""
    global _rec_dtype
    cdef PyVoidScalarObject *rec = <PyVoidScalarObject *>truth
    cdef object dtype = <object>rec.descr
    cdef Py_ssize_t i
    if dtype is not _rec_dtype and not _learn_layout(dtype):
        return _fill_record(truth, t)
    if _layout.run:
        memcpy(t, rec.obval + _layout.first, FN_DVL_NSENSORS * sizeof(double))
        return 0
    for i in range(FN_DVL_NSENSORS):  # memcpy: a packed record may be unaligned
        memcpy(&t[i], rec.obval + _rec_off[i], sizeof(double))
    return 0


cdef bint _learn_layout(dtype) except -1:
    """Cache the offsets of the truth fields of ``dtype`` when all ten are native
    float64 (the other layouts are read field by field, by value)."""
    global _rec_dtype
    cdef Py_ssize_t off[FN_DVL_NSENSORS]
    cdef Py_ssize_t i
    cdef bint run = True
    fields = dtype.fields
    if fields is None:
        return False
    for i in range(FN_DVL_NSENSORS):
        f = fields.get(_FIELDS[i])
        if f is None or f[0] != _F64:
            return False
        off[i] = f[1]
        run = run and off[i] == off[0] + i * <Py_ssize_t>sizeof(double)
    for i in range(FN_DVL_NSENSORS):
        _rec_off[i] = off[i]
    _rec_dtype = dtype  # keeps the dtype whose address _layout holds alive
    _layout.dtype = <const void *>dtype
    _layout.first = off[0]
    _layout.run = run
    return True


cdef int _fill_record(truth, double *t) except -1:
    """A mapping or a structured record (np.void): each field by name."""
    cdef Py_ssize_t i
    if isinstance(truth, np.void) and truth.dtype.names is None:
        raise TypeError(f"truth is a void scalar of dtype {truth.dtype} without fields: "
                        f"use a record with the fields {TRUTH_FIELDS}")
    for i in range(FN_DVL_NSENSORS):
        try:
            v = truth[_FIELDS[i]]
        except (KeyError, ValueError, IndexError):
            raise ValueError(f"truth lacks field {_FIELDS[i]!r}: it needs "
                             f"{list(TRUTH_FIELDS)}") from None
        t[i] = _real(_FIELDS[i], v)
    return 0


cdef int _check_len(truth) except -1:
    if len(truth) != FN_DVL_NSENSORS:
        raise ValueError(f"truth has {len(truth)} values: it needs 10, in the order "
                         f"{TRUTH_FIELDS}")
    return 0


# ---- a batch of truth: column pointers for the C core ---------------------------------

# Only new_batch (for DvlSimulator.measure_many) makes _Batch objects.
cdef object _BATCH_TOKEN = object()


cdef class _Batch:
    """Pointers of one DvlSimulator.measure_many call, so parts of it can run on several
    threads. Made by ``new_batch`` only (a private token guards construction); ``keep``
    holds everything the pointers lead into, and ``run`` refuses until ``ready``."""

    def __cinit__(self, token=None):
        if token is not _BATCH_TOKEN:
            raise TypeError("_Batch is internal to DvlSimulator.measure_many")
        self.ready = False
        self.n = 0
        self.code = FN_DVL_OK
        self.bad = -1

    def run(self, size_t start, size_t count):
        """Messages start .. start + count - 1 of the batch (GIL released). A span's
        failure is recorded in ``code`` and ``bad`` (the first one wins) for the caller
        to raise, once every span has finished."""
        cdef const double *tp[FN_DVL_NSENSORS]
        cdef int j, rc, bad = -1
        if not self.ready:
            raise RuntimeError("_Batch is not set up")
        if start > self.n or count > self.n - start:
            raise ValueError(f"start={start}, count={count} is not allowed: the batch has "
                             f"{self.n} messages")
        for j in range(FN_DVL_NSENSORS):
            tp[j] = self.tp[j] + <ptrdiff_t>start * self.ts[j]
        with nogil:
            rc = fn_dvl_measure_span(self.snap, start, count, tp, self.ts,
                                     self.op + start * FN_DVL_NFIELDS, FN_DVL_NFIELDS, &bad)
        if rc != FN_DVL_OK and self.code == FN_DVL_OK:  # under the GIL again
            self.code = rc
            self.bad = bad


cdef _Batch new_batch():
    return _Batch.__new__(_Batch, _BATCH_TOKEN)


cdef bint record_columns(truth, _Batch job) except -1:
    """Column pointers straight into a 1-D structured array whose ten truth fields are
    aligned native float64 (no field views made: a small batch's set-up is mostly
    that). False when the layout needs the general path."""
    cdef cnp.ndarray arr
    cdef char *base
    cdef Py_ssize_t stride, off
    cdef int j
    if type(truth) is not cnp.ndarray or cnp.PyArray_NDIM(truth) != 1:
        return False
    arr = <cnp.ndarray>truth
    base = <char *>cnp.PyArray_DATA(arr)
    stride = cnp.PyArray_STRIDE(arr, 0)
    if stride % 8 or (<size_t>base) % 8:
        return False
    fields = arr.dtype.fields
    for j in range(FN_DVL_NSENSORS):
        ft = fields[_FIELDS[j]]
        if ft[0] != _F64:
            return False
        off = ft[1]
        if off % 8:
            return False
        job.tp[j] = <const double *>(base + off)
        job.ts[j] = stride // 8
    return True


cdef _column(str name, value):
    """One truth column for the kernel: a native aligned float64 array of at most one
    dimension and any stride (a multiple of 8 bytes; 0 broadcasts) is read in place,
    anything else goes through ``fastnoise.core.arrays.intake`` (copied, or refused by
    name for bool, complex, str, object and datetime dtypes)."""
    arr = as_array(name, value)
    if (arr.dtype == _F64 and arr.ndim <= 1 and arr.flags.aligned
            and (arr.ndim == 0 or arr.strides[0] % 8 == 0)):
        return arr
    return _arrays.intake(name, arr, _F64)


cdef tuple column_arrays(get, _Batch job):
    """Columns of any mapping or structured array as float64 arrays broadcast to one
    shape; their pointers into job. Returns (shape, arrays to keep alive, the columns
    as given, for the overlap check of ``out``)."""
    cdef int j
    cdef cnp.ndarray col
    given = []
    cols = []
    for f in TRUTH_FIELDS:
        name = f"truth[{f!r}]"
        try:
            v = get(f)
        except (KeyError, IndexError, ValueError):
            raise ValueError(f"truth lacks field {f!r}: it needs {list(TRUTH_FIELDS)}") from None
        v = as_array(name, v)
        given.append(v)
        cols.append(_column(name, v))
    shape = cols[0].shape
    same = all([c.shape == shape for c in cols])
    if not same:
        try:
            shape = np.broadcast_shapes(*(c.shape for c in cols))
        except ValueError:
            shapes = {f: c.shape for f, c in zip(TRUTH_FIELDS, cols)}
            raise ValueError(f"truth's fields have shapes {shapes} that do not broadcast to "
                             f"one shape") from None
    keep = []
    for j in range(FN_DVL_NSENSORS):
        c = cols[j] if same else np.broadcast_to(cols[j], shape)
        if c.ndim > 1:
            c = np.ascontiguousarray(c).reshape(-1)
        col = c
        keep.append(col)
        job.tp[j] = <const double *>cnp.PyArray_DATA(col)
        job.ts[j] = col.strides[0] // 8 if col.ndim == 1 else 0
    return shape, keep, given
