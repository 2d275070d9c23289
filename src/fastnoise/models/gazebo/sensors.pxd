# The shared part of the Gazebo sensor models (gazebo_sensors.pyx): a set of GazeboNoise
# channels, one per component, run over the columns of a reading.

cimport cython

from fastnoise.core.model cimport Model
from fastnoise.models.gazebo.capi cimport fn_gz_channel, fn_gz_layout, fn_gz_tile
from fastnoise.models.gazebo.noise cimport _Channels


cdef class _GazeboSensor(Model):
    cdef readonly _Channels _ch
    cdef str _unit  # the unit switch's value (None for a model without one)
    cdef bint _alt  # the unit switch is at its second value ("pascals", "metres")
    cdef int _ncol
    cdef int _nrun
    cdef int _run[6][3]  # (channel, first column, samples per row) of _runs
    cdef tuple _args  # apply_one's reading arguments, in column order
    # a batch (num_envs=N; docs/batching.rst): environment e's component i is
    # _bch[e * _nch + i]; _ch is None. One model: _bch is NULL, _nenv 0.
    cdef fn_gz_channel *_bch
    cdef fn_gz_tile _tile  # a batch's white normals for one-reading steps (zeroed: none)
    cdef Py_ssize_t _nenv
    cdef int _nch
    cdef bint _bon[6]  # component i has noise (the same in every environment)
    cdef fn_gz_layout _lay  # a batch's reading layout for fn_gz_batch_rows (_layout)
    cdef bint _horizontal  # NavSat's horizontal position model runs on columns 0-1
    cdef bint _hpa  # AirSpeedNoise in hectopascals: the channel runs on float32 hPa
    cdef object _bvalues  # per component: None or its checked dict (floats or (N,) arrays)
    cdef object _benv  # per environment: (key, per component: None or its dict)

    # room for `rows` more readings in every channel (NavSat adds its horizontal one)
    cdef int _rooms(self, size_t rows) except -1
    # noise one reading v (n_columns values) in place; room checked, lock held
    cdef void _row(self, double *v, double dt) noexcept nogil
    # the batch's extra step under the lock, after the runs (NavSat's horizontal model)
    cdef int _extra(self, grid, dts, Py_ssize_t stride) except -1

    # apply_one's body: check dt and the reading (n_columns values a0, a1, ...), noise
    # it, return it (a float for one column, else a tuple)
    @cython.final
    cdef object _one(self, object dt, object a0, object a1=*, object a2=*, object a3=*,
                     object a4=*, object a5=*)
