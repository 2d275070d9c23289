"""Gazebo's other noisy sensors, each as gz-sensors noises it: one
:class:`~fastnoise.models.gazebo.noise.GazeboNoise` channel (gz-sensors
``GaussianNoiseModel``) per component, in the component's SI unit.

Every component argument is None (no noise, the component passes unchanged) or a
mapping with any of the keys ``mean, stddev, bias_mean, bias_stddev,
dynamic_bias_stddev, dynamic_bias_correlation_time, precision`` (missing keys are 0).
Component i (the constructor's order) draws from the streams ``GZ_TAG | i << 8 | term``
under the key ``model_key(seed, model_name)`` (``csrc/gznoise.h``); sample k of a
component uses normal k of its streams, so the components are independent and the
order in which a reading's components are noised does not change any value.

``apply_one`` noises one reading, ``apply`` a batch of successive readings (n rows ×
components, float64), bit for bit as many ``apply_one`` calls. ``dt`` (s) is the
interval since the previous reading (a scalar, or one per row): gz-sensors passes dt
only for the force-torque sensor (0 on its first update); the others call ``Apply(x)``
(dt = 0), so their dynamic bias never moves in Gazebo: leave dt at 0 to reproduce
Gazebo, give it to have the dynamic bias move.
"""

cimport numpy as cnp
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_New, PyTuple_SET_ITEM

from fastnoise.core.model cimport check_built, lock_model, unlock_model
from fastnoise.models.gazebo.noise cimport dt_one, real_one

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.gazebo import declarations as _declarations
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.core.deprecation import positional_options
from fastnoise.models.gazebo.noise import dt_array

cnp.import_array()


cdef class _GazeboSensor(Model):
    """The part every Gazebo sensor model shares (internal, not a model itself): one
    gz-sensors noise channel per component, run over the columns of a reading. A sensor
    class declares ``model_name``, ``_components`` (its constructor's noise arguments,
    in stream order), ``n_columns``, ``_arguments`` (``apply_one``'s reading arguments,
    in column order; default ``_components``), ``_runs`` ((channel, first column,
    samples per row): a channel noises that many successive columns, dt on the first
    only) and ``_units`` ((argument, allowed values) of a unit switch, or None)."""

    _arguments = None
    #: Columns of a row of ``apply``'s data.
    n_columns = 0
    _runs = ()
    _units = None

    def _build(self, comps, seed, units=None):
        cls = type(self)
        values = dict(zip(cls._components, comps))
        if cls._units is not None:
            values[cls._units[0]] = units
        v = cls.declaration.check_params(values)  # everything, before self changes
        params = [v[name] for name in cls._components]
        ss = as_seed_sequence(seed)
        if cls._units is not None:
            name, allowed = cls._units
            self._unit = v[name]
            self._alt = self._unit == allowed[1]
        ch = _Channels(model_key(ss, cls.model_name), cls._components, params)
        lock_model(self)  # a rebuild (the state setter) must not pull it from a running apply
        self._ch = ch
        unlock_model(self)
        self._seed_seq = ss
        self._key = self._ch.key
        self._layout()
        self._built = True

    def _layout(self):
        cls = type(self)
        if not (len(cls._runs) <= 6 and 0 < cls.n_columns <= 6):  # the C arrays' size
            raise TypeError(f"{cls.__name__}: at most 6 runs and 1 to 6 columns")
        self._ncol = cls.n_columns
        self._args = cls._components if cls._arguments is None else cls._arguments
        self._nrun = len(cls._runs)
        for r, (i, c, m) in enumerate(cls._runs):
            self._run[r][0] = i
            self._run[r][1] = c
            self._run[r][2] = m

    def bias(self, component):
        """The current bias of ``component`` (one of the constructor's component
        arguments; in its unit; 0.0 for a component without noise)."""
        check_built(self)
        i = _validate.choice("component", component, self._components)
        return self._ch.bias(self._components.index(i))

    def _params(self):
        check_built(self)
        d = {n: None if v is None else dict(v)
             for n, v in zip(self._components, self._ch.params)}
        if self._units is not None:
            d[self._units[0]] = self._unit
        return d

    def _position(self):
        check_built(self)
        return self._ch.position()

    def _set_position(self, position):
        check_built(self)
        self._ch.set_position("state['position']", position)

    def reset(self):
        """Back to sample 0 of every component and the turn-on biases (the same biases
        as after construction)."""
        check_built(self)
        ch = _Channels(self._ch.key, self._ch.names, self._ch.params)
        lock_model(self)
        self._ch = ch
        unlock_model(self)

    cdef int _rooms(self, size_t rows) except -1:
        cdef int r
        for r in range(self._nrun):
            self._ch.check_room(self._run[r][0], rows * <size_t>self._run[r][2])
        return 0

    cdef void _row(self, double *v, double dt) noexcept nogil:
        cdef int r, i, c, j
        for r in range(self._nrun):
            i = self._run[r][0]
            if self._ch.on[i]:
                c = self._run[r][1]
                v[c] = self._ch.one(i, v[c], dt)
                for j in range(c + 1, c + self._run[r][2]):
                    v[j] = self._ch.one(i, v[j], 0.0)

    cdef int _extra(self, grid, dts, Py_ssize_t stride) except -1:
        return 0

    cdef object _one(self, object dt, object a0, object a1=None, object a2=None,
                     object a3=None, object a4=None, object a5=None):
        cdef double v[6]
        cdef double d
        cdef int k
        cdef object x
        cdef PyObject *a[6]
        if not self._built:
            check_built(self)
        a[0] = <PyObject *>a0
        a[1] = <PyObject *>a1
        a[2] = <PyObject *>a2
        a[3] = <PyObject *>a3
        a[4] = <PyObject *>a4
        a[5] = <PyObject *>a5
        for k in range(self._ncol):
            v[k] = real_one(<str>PyTuple_GET_ITEM(self._args, k), <object>a[k])
        d = dt_one(dt)
        self._rooms(1)
        lock_model(self)
        self._row(v, d)
        unlock_model(self)
        if self._ncol == 1:
            return v[0]
        t = PyTuple_New(self._ncol)
        for k in range(self._ncol):
            x = v[k]
            Py_INCREF(x)
            PyTuple_SET_ITEM(t, k, x)
        return t

    def apply(self, data, dt=0.0, *args, out=None):
        """Noised successive readings: ``data`` has shape (n, ``n_columns``) (shape
        (n,) for one column), the columns ``apply_one``'s reading arguments in their
        order and units; row k is reading k, bit for bit what ``apply_one`` gives for
        it after the readings before it. ``dt`` (s): a scalar or one per row (shape
        (n,)), finite and >= 0. float64 result of ``data``'s shape; ``out`` (float64,
        C-contiguous, writeable; may be ``data`` itself) receives it."""
        if args:  # 0.2 callers passed these by position
            out, = positional_options(
                "apply", args, ('out',),
                (out,), (None,))
        check_built(self)
        return self._batch(data, dt, out)

    def _batch(self, data, dt, out):
        # every channel's room is checked before anything is done
        cdef _Channels ch = self._ch
        ncol = self._ncol
        if ncol == 1:
            arr = _arrays.intake("data", data, np.float64, ndim=1)
        else:
            arr = _arrays.intake("data", data, np.float64, ndim=2, last_dim=ncol)
        n = arr.shape[0]
        dts, stride = dt_array(dt, n)
        covered = sum(m for i, _c, m in self._runs if ch.on[i]) == ncol
        if out is None:
            res = np.empty_like(arr) if covered else arr.copy()
        else:
            res = _arrays.output("out", out, arr.shape, np.float64)
            _arrays.no_partial_overlap({"out": res}, {"data": arr})
            if res is not arr and not covered:
                res[...] = arr
        self._rooms(n)
        src = (arr if covered else res).reshape(n, ncol)
        grid = res.reshape(n, ncol)
        lock_model(self)
        try:
            for i, col, m in self._runs:
                ch.run(i, src, grid, col, m, dts, stride)
            self._extra(grid, dts, stride)
        finally:
            unlock_model(self)
        return res


cdef class MagnetometerNoise(_GazeboSensor):
    """MagnetometerNoise(x=None, y=None, z=None, *, seed=None)
--

    gz-sensors' ``MagnetometerSensor`` noise: one Gaussian noise model per body-frame
    axis of the field, in tesla (gz-sensors names them ``MAGNETOMETER_*_NOISE_TESLA``
    and publishes ``field_tesla``). ``Update`` calls ``Apply(field)`` with dt = 0.

    Parameters
    ----------
    x, y, z : mapping or None
        Noise of each axis of the field, T (keys as in the module docstring).
    seed : int, numpy.random.SeedSequence or None
    """

    model_name = "magnetometer"
    declaration = _declarations.MAGNETOMETER
    _components = ('x', 'y', 'z')
    n_columns = 3
    _runs = ((0, 0, 1), (1, 1, 1), (2, 2, 1))

    def __init__(self, x=None, y=None, z=None, *, seed=None):
        self._build((x, y, z), seed)

    def apply_one(self, x, y, z, dt=0.0):
        """The noised field (T) of one reading: (x, y, z) in the body frame, T;
        ``dt`` (s) as in the module docstring (gz-sensors: 0). Draws: x, then y, then
        z."""
        return self._one(dt, x, y, z)


register_model(MagnetometerNoise)


cdef class AltimeterNoise(_GazeboSensor):
    """AltimeterNoise(vertical_position=None, vertical_velocity=None, *, seed=None)
--

    gz-sensors' ``AltimeterSensor`` noise: vertical position (m) and vertical velocity
    (m/s), one Gaussian noise model each. ``Update`` calls ``Apply(x)`` (dt = 0) on the
    values last set (gz-sensors overwrites its stored value with the noised one, so an
    update without a new ``SetPosition`` noises the noised value again; here every
    reading is noised from the input given).

    Parameters
    ----------
    vertical_position : mapping or None
        Noise of the vertical position, m.
    vertical_velocity : mapping or None
        Noise of the vertical velocity, m/s.
    seed : int, numpy.random.SeedSequence or None
    """

    model_name = "altimeter"
    declaration = _declarations.ALTIMETER
    _components = ('vertical_position', 'vertical_velocity')
    n_columns = 2
    _runs = ((0, 0, 1), (1, 1, 1))

    def __init__(self, vertical_position=None, vertical_velocity=None, *, seed=None):
        self._build((vertical_position, vertical_velocity), seed)

    def apply_one(self, vertical_position, vertical_velocity, dt=0.0):
        """The noised (vertical position m, vertical velocity m/s) of one reading;
        ``dt`` (s) as in the module docstring (gz-sensors: 0). Draws: position, then
        velocity."""
        return self._one(dt, vertical_position, vertical_velocity)


register_model(AltimeterNoise)


cdef class ForceTorqueNoise(_GazeboSensor):
    """ForceTorqueNoise(force_x=None, force_y=None, force_z=None, torque_x=None,
    torque_y=None, torque_z=None, *, seed=None)
--

    gz-sensors' ``ForceTorqueSensor`` noise: one Gaussian noise model per component of
    the measured wrench, force in N (``FORCE_*_NOISE_N``), torque in N·m
    (``TORQUE_*_NOISE_N_M``), applied after the frame and direction transforms (give
    the measured wrench). gz-sensors' ``Update`` passes dt: 0 on the first update (and
    after time went backwards), else the time since the previous update (computed in
    float32 seconds); pass the same ``dt`` to reproduce it.

    Parameters
    ----------
    force_x, force_y, force_z : mapping or None
        Noise of each force component, N.
    torque_x, torque_y, torque_z : mapping or None
        Noise of each torque component, N·m.
    seed : int, numpy.random.SeedSequence or None
    """

    model_name = "force_torque"
    declaration = _declarations.FORCE_TORQUE
    _components = ('force_x', 'force_y', 'force_z', 'torque_x', 'torque_y', 'torque_z')
    n_columns = 6
    _runs = ((0, 0, 1), (1, 1, 1), (2, 2, 1), (3, 3, 1), (4, 4, 1), (5, 5, 1))

    def __init__(self, force_x=None, force_y=None, force_z=None, torque_x=None, torque_y=None,
                 torque_z=None, *, seed=None):
        self._build((force_x, force_y, force_z, torque_x, torque_y, torque_z), seed)

    def apply_one(self, force_x, force_y, force_z, torque_x, torque_y, torque_z,
                  dt=0.0):
        """The noised wrench of one reading: (force_x, force_y, force_z) N and
        (torque_x, torque_y, torque_z) N·m; ``dt`` (s) the interval since the previous
        update (gz-sensors: 0 on the first). Draws in gz-sensors' order: force x, y, z,
        then torque x, y, z."""
        return self._one(dt, force_x, force_y, force_z, torque_x, torque_y, torque_z)


register_model(ForceTorqueNoise)
