"""Gazebo's other noisy sensors, each as gz-sensors noises it: one
:class:`~fastnoise.models.gazebo_noise.GazeboNoise` channel (gz-sensors
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

from fastnoise.core.model cimport Model, lock_model, unlock_model
from fastnoise.models.gazebo_noise cimport _Channels, dt_one, real_one

from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.gazebo_noise import build_channels, run_batch

cnp.import_array()


cdef class MagnetometerNoise(Model):
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
    _components = ('x', 'y', 'z')
    #: Columns of a row of ``apply``'s data.
    n_columns = 3
    _runs = ((0, 0, 1), (1, 1, 1), (2, 2, 1))

    cdef readonly _Channels _ch
    cdef bint _built

    def __init__(self, x=None, y=None, z=None, *, seed=None):
        ss, ch = build_channels(type(self), (x, y, z), seed)
        self._ch = ch
        self._seed_seq = ss
        self._built = True

    cdef inline int _check_built(self) except -1:
        if not self._built:
            raise RuntimeError(f"this {type(self).__name__} was never initialised (made "
                               "with __new__ or by a failed __init__)")
        return 0

    @property
    def key(self):
        """64-bit Philox key (``model_key(seed, "magnetometer")``)."""
        self._check_built()
        return self._ch.key

    def bias(self, component):
        """The current bias of ``component`` (one of ``"x"``, ``"y"``, ``"z"``; in its
        unit; 0.0 for a component without noise)."""
        self._check_built()
        i = _validate.choice("component", component, self._components)
        return self._ch.bias(self._components.index(i))

    def _params(self):
        self._check_built()
        d = {n: None if v is None else dict(v)
             for n, v in zip(self._components, self._ch.params)}
        return d

    def _position(self):
        self._check_built()
        return self._ch.position()

    def _set_position(self, position):
        self._check_built()
        self._ch.set_position("state['position']", position)

    def _take(self, other):
        cdef MagnetometerNoise o = other
        lock_model(self)
        self._ch = o._ch
        unlock_model(self)
        self._seed_seq = o._seed_seq
        self._built = o._built

    def reset(self):
        """Back to sample 0 of every component and the turn-on biases (the same biases
        as after construction)."""
        self._check_built()
        ch = _Channels(self._ch.key, self._ch.names, self._ch.params)
        lock_model(self)
        self._ch = ch
        unlock_model(self)

    def apply_one(self, x, y, z, dt=0.0):
        """The noised field (T) of one reading: (x, y, z) in the body frame, T;
        ``dt`` (s) as in the module docstring (gz-sensors: 0). Draws: x, then y, then
        z."""
        cdef double d
        cdef double v0
        cdef double v1
        cdef double v2
        self._check_built()
        v0 = real_one("x", x)
        v1 = real_one("y", y)
        v2 = real_one("z", z)
        d = dt_one(dt)
        self._ch.check_room(0, 1)
        self._ch.check_room(1, 1)
        self._ch.check_room(2, 1)
        lock_model(self)
        if self._ch.on[0]:
            v0 = self._ch.one(0, v0, d)
        if self._ch.on[1]:
            v1 = self._ch.one(1, v1, d)
        if self._ch.on[2]:
            v2 = self._ch.one(2, v2, d)
        unlock_model(self)
        return (v0, v1, v2)

    def apply(self, data, dt=0.0, out=None):
        """Noised successive readings: ``data`` has shape (n, 3) with the columns
        x, y, z (T); row k
        is reading k, bit for bit what ``apply_one`` gives for it after the readings
        before it. ``dt`` (s): a scalar or one per row (shape (n,)),
        finite and >= 0. float64 result of ``data``'s shape; ``out`` (float64,
        C-contiguous, writeable; may be ``data`` itself) receives it."""
        self._check_built()
        return run_batch(self, self._ch, data, dt, out, self._runs)


register_model(MagnetometerNoise)


cdef class AltimeterNoise(Model):
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
    _components = ('vertical_position', 'vertical_velocity')
    #: Columns of a row of ``apply``'s data.
    n_columns = 2
    _runs = ((0, 0, 1), (1, 1, 1))

    cdef readonly _Channels _ch
    cdef bint _built

    def __init__(self, vertical_position=None, vertical_velocity=None, *, seed=None):
        ss, ch = build_channels(type(self), (vertical_position, vertical_velocity), seed)
        self._ch = ch
        self._seed_seq = ss
        self._built = True

    cdef inline int _check_built(self) except -1:
        if not self._built:
            raise RuntimeError(f"this {type(self).__name__} was never initialised (made "
                               "with __new__ or by a failed __init__)")
        return 0

    @property
    def key(self):
        """64-bit Philox key (``model_key(seed, "altimeter")``)."""
        self._check_built()
        return self._ch.key

    def bias(self, component):
        """The current bias of ``component`` (one of ``"vertical_position"``,
        ``"vertical_velocity"``; in its unit; 0.0 for a component without noise)."""
        self._check_built()
        i = _validate.choice("component", component, self._components)
        return self._ch.bias(self._components.index(i))

    def _params(self):
        self._check_built()
        d = {n: None if v is None else dict(v)
             for n, v in zip(self._components, self._ch.params)}
        return d

    def _position(self):
        self._check_built()
        return self._ch.position()

    def _set_position(self, position):
        self._check_built()
        self._ch.set_position("state['position']", position)

    def _take(self, other):
        cdef AltimeterNoise o = other
        lock_model(self)
        self._ch = o._ch
        unlock_model(self)
        self._seed_seq = o._seed_seq
        self._built = o._built

    def reset(self):
        """Back to sample 0 of every component and the turn-on biases (the same biases
        as after construction)."""
        self._check_built()
        ch = _Channels(self._ch.key, self._ch.names, self._ch.params)
        lock_model(self)
        self._ch = ch
        unlock_model(self)

    def apply_one(self, vertical_position, vertical_velocity, dt=0.0):
        """The noised (vertical position m, vertical velocity m/s) of one reading;
        ``dt`` (s) as in the module docstring (gz-sensors: 0). Draws: position, then
        velocity."""
        cdef double d
        cdef double v0
        cdef double v1
        self._check_built()
        v0 = real_one("vertical_position", vertical_position)
        v1 = real_one("vertical_velocity", vertical_velocity)
        d = dt_one(dt)
        self._ch.check_room(0, 1)
        self._ch.check_room(1, 1)
        lock_model(self)
        if self._ch.on[0]:
            v0 = self._ch.one(0, v0, d)
        if self._ch.on[1]:
            v1 = self._ch.one(1, v1, d)
        unlock_model(self)
        return (v0, v1)

    def apply(self, data, dt=0.0, out=None):
        """Noised successive readings: ``data`` has shape (n, 2) with the columns
        vertical position (m), vertical velocity (m/s); row k
        is reading k, bit for bit what ``apply_one`` gives for it after the readings
        before it. ``dt`` (s): a scalar or one per row (shape (n,)),
        finite and >= 0. float64 result of ``data``'s shape; ``out`` (float64,
        C-contiguous, writeable; may be ``data`` itself) receives it."""
        self._check_built()
        return run_batch(self, self._ch, data, dt, out, self._runs)


register_model(AltimeterNoise)


cdef class ForceTorqueNoise(Model):
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
    _components = ('force_x', 'force_y', 'force_z', 'torque_x', 'torque_y', 'torque_z')
    #: Columns of a row of ``apply``'s data.
    n_columns = 6
    _runs = ((0, 0, 1), (1, 1, 1), (2, 2, 1), (3, 3, 1), (4, 4, 1), (5, 5, 1))

    cdef readonly _Channels _ch
    cdef bint _built

    def __init__(self, force_x=None, force_y=None, force_z=None, torque_x=None, torque_y=None,
                 torque_z=None, *, seed=None):
        ss, ch = build_channels(type(self), (force_x, force_y, force_z, torque_x,
                                             torque_y, torque_z), seed)
        self._ch = ch
        self._seed_seq = ss
        self._built = True

    cdef inline int _check_built(self) except -1:
        if not self._built:
            raise RuntimeError(f"this {type(self).__name__} was never initialised (made "
                               "with __new__ or by a failed __init__)")
        return 0

    @property
    def key(self):
        """64-bit Philox key (``model_key(seed, "force_torque")``)."""
        self._check_built()
        return self._ch.key

    def bias(self, component):
        """The current bias of ``component`` (one of ``"force_x"``, ...,
        ``"torque_z"``; in its unit; 0.0
        for a component without noise)."""
        self._check_built()
        i = _validate.choice("component", component, self._components)
        return self._ch.bias(self._components.index(i))

    def _params(self):
        self._check_built()
        d = {n: None if v is None else dict(v)
             for n, v in zip(self._components, self._ch.params)}
        return d

    def _position(self):
        self._check_built()
        return self._ch.position()

    def _set_position(self, position):
        self._check_built()
        self._ch.set_position("state['position']", position)

    def _take(self, other):
        cdef ForceTorqueNoise o = other
        lock_model(self)
        self._ch = o._ch
        unlock_model(self)
        self._seed_seq = o._seed_seq
        self._built = o._built

    def reset(self):
        """Back to sample 0 of every component and the turn-on biases (the same biases
        as after construction)."""
        self._check_built()
        ch = _Channels(self._ch.key, self._ch.names, self._ch.params)
        lock_model(self)
        self._ch = ch
        unlock_model(self)

    def apply_one(self, force_x, force_y, force_z, torque_x, torque_y, torque_z,
                  dt=0.0):
        """The noised wrench of one reading: (force_x, force_y, force_z) N and
        (torque_x, torque_y, torque_z) N·m; ``dt`` (s) the interval since the previous
        update (gz-sensors: 0 on the first). Draws in gz-sensors' order: force x, y, z,
        then torque x, y, z."""
        cdef double v[6]
        cdef double d
        cdef int i
        self._check_built()
        v[0] = real_one("force_x", force_x)
        v[1] = real_one("force_y", force_y)
        v[2] = real_one("force_z", force_z)
        v[3] = real_one("torque_x", torque_x)
        v[4] = real_one("torque_y", torque_y)
        v[5] = real_one("torque_z", torque_z)
        d = dt_one(dt)
        for i in range(6):
            self._ch.check_room(i, 1)
        lock_model(self)
        for i in range(6):
            if self._ch.on[i]:
                v[i] = self._ch.one(i, v[i], d)
        unlock_model(self)
        return (v[0], v[1], v[2], v[3], v[4], v[5])

    def apply(self, data, dt=0.0, out=None):
        """Noised successive readings: ``data`` has shape (n, 6) with the columns
        force x, y, z (N), torque x, y, z (N·m); row k
        is reading k, bit for bit what ``apply_one`` gives for it after the readings
        before it. ``dt`` (s): a scalar or one per row (shape (n,)),
        finite and >= 0. float64 result of ``data``'s shape; ``out`` (float64,
        C-contiguous, writeable; may be ``data`` itself) receives it."""
        self._check_built()
        return run_batch(self, self._ch, data, dt, out, self._runs)


register_model(ForceTorqueNoise)
