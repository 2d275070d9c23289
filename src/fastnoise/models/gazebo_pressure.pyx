"""gz-sensors' air pressure and air speed noise (see :mod:`fastnoise.models.gazebo_sensors`
for what every Gazebo sensor model shares)."""

cimport numpy as cnp

from fastnoise.core.model cimport Model, lock_model, unlock_model
from fastnoise.models.gazebo_noise cimport _Channels, dt_one, real_one

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.gazebo_noise import build_channels, run_batch

cnp.import_array()


cdef class AirPressureNoise(Model):
    """AirPressureNoise(pressure=None, *, seed=None)
--

    gz-sensors' ``AirPressureSensor`` noise on the static pressure, Pa
    (``AIR_PRESSURE_NOISE_PASCALS``; ``Update`` calls ``Apply(pressure)``, dt = 0).
    gz-sensors publishes ``sqrt(stddev)`` as the message's variance
    (:attr:`reported_variance`; the variance of the white noise is stddev²).

    Parameters
    ----------
    pressure : mapping or None
        Noise of the pressure, Pa.
    seed : int, numpy.random.SeedSequence or None
    """

    model_name = "air_pressure"
    _components = ('pressure',)
    #: Columns of a row of ``apply``'s data.
    n_columns = 1
    _runs = ((0, 0, 1),)

    cdef readonly _Channels _ch
    cdef bint _built

    def __init__(self, pressure=None, *, seed=None):
        ss, ch = build_channels(type(self), (pressure,), seed)
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
        """64-bit Philox key (``model_key(seed, "air_pressure")``)."""
        self._check_built()
        return self._ch.key

    def bias(self, component):
        """The current bias of ``component`` (``"pressure"``), Pa (0.0 without
        noise)."""
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
        cdef AirPressureNoise o = other
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

    def apply_one(self, pressure, dt=0.0):
        """The noised pressure (Pa) of one reading of ``pressure`` (Pa); ``dt`` (s) as
        in the module docstring (gz-sensors: 0)."""
        cdef double d
        cdef double v0
        self._check_built()
        v0 = real_one("pressure", pressure)
        d = dt_one(dt)
        self._ch.check_room(0, 1)
        lock_model(self)
        if self._ch.on[0]:
            v0 = self._ch.one(0, v0, d)
        unlock_model(self)
        return v0

    def apply(self, data, dt=0.0, out=None):
        """Noised successive readings: ``data`` has shape (n, 1) with the columns
        pressure (Pa); row k
        is reading k, bit for bit what ``apply_one`` gives for it after the readings
        before it. ``dt`` (s): a scalar or one per row (shape (n,)),
        finite and >= 0. float64 result of ``data``'s shape; ``out`` (float64,
        C-contiguous, writeable; may be ``data`` itself) receives it."""
        self._check_built()
        return run_batch(self, self._ch, data, dt, out, self._runs)

    @property
    def reported_variance(self):
        """What gz-sensors publishes as the FluidPressure message's variance:
        ``sqrt(stddev)`` (Pa) of the pressure noise, 0.0 without noise (a gz-sensors
        quirk, kept so a message can be rebuilt as Gazebo sends it)."""
        self._check_built()
        p = self._ch.params[0]
        return 0.0 if p is None else float(np.sqrt(p["stddev"]))


register_model(AirPressureNoise)


cdef class AirSpeedNoise(Model):
    """AirSpeedNoise(pressure=None, *, pressure_units="hectopascals", seed=None)
--

    gz-sensors' ``AirSpeedSensor`` noise on the differential pressure. Input and output
    are in Pa (the message's ``diff_pressure``). gz-sensors computes the differential
    pressure in hPa as a float32, applies the noise to that value
    (``AIR_SPEED_NOISE_PASCALS``, dt = 0) and publishes it times 100: its noise
    parameters act in hPa, and the published noise is 100 times them in Pa.

    Parameters
    ----------
    pressure : mapping or None
        Noise of the differential pressure, in ``pressure_units``.
    pressure_units : {"hectopascals", "pascals"}
        "hectopascals" (default, what gz-sensors does, and what an SDF imported as
        Gazebo runs it gives): ``out = float32(float32(Apply(float32(p / 100))) * 100)``
        Pa. "pascals": the parameters are in Pa, as the SDF element's name says:
        ``out = Apply(p)`` in float64.
    seed : int, numpy.random.SeedSequence or None
    """

    model_name = "air_speed"
    _components = ('pressure',)
    #: Columns of a row of ``apply``'s data.
    n_columns = 1
    _runs = ((0, 0, 1),)

    cdef readonly _Channels _ch
    cdef bint _built
    cdef readonly str pressure_units

    def __init__(self, pressure=None, *, pressure_units="hectopascals", seed=None):
        units = _validate.choice("pressure_units", pressure_units,
                                 ("hectopascals", "pascals"))
        ss, ch = build_channels(type(self), (pressure,), seed)
        self._ch = ch
        self._seed_seq = ss
        self.pressure_units = units
        self._built = True

    cdef inline int _check_built(self) except -1:
        if not self._built:
            raise RuntimeError(f"this {type(self).__name__} was never initialised (made "
                               "with __new__ or by a failed __init__)")
        return 0

    @property
    def key(self):
        """64-bit Philox key (``model_key(seed, "air_speed")``)."""
        self._check_built()
        return self._ch.key

    def bias(self, component):
        """The current bias of ``component`` (``"pressure"``), Pa (0.0 without
        noise)."""
        self._check_built()
        i = _validate.choice("component", component, self._components)
        return self._ch.bias(self._components.index(i))

    def _params(self):
        self._check_built()
        d = {n: None if v is None else dict(v)
             for n, v in zip(self._components, self._ch.params)}
        d["pressure_units"] = self.pressure_units
        return d

    def _position(self):
        self._check_built()
        return self._ch.position()

    def _set_position(self, position):
        self._check_built()
        self._ch.set_position("state['position']", position)

    def _take(self, other):
        cdef AirSpeedNoise o = other
        lock_model(self)
        self._ch = o._ch
        unlock_model(self)
        self.pressure_units = o.pressure_units
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

    def apply_one(self, pressure, dt=0.0):
        """The noised differential pressure (Pa) of one reading of ``pressure`` (Pa);
        ``dt`` (s) as in the module docstring (gz-sensors: 0)."""
        cdef double v, d
        cdef float h
        self._check_built()
        v = real_one("pressure", pressure)
        d = dt_one(dt)
        self._ch.check_room(0, 1)
        if not self._ch.on[0]:
            return v
        lock_model(self)
        if self.pressure_units == "pascals":
            v = self._ch.one(0, v, d)
        else:
            h = <float>(v / 100.0)
            h = <float>self._ch.one(0, <double>h, d)
            h = h * <float>100.0
            v = <double>h
        unlock_model(self)
        return v

    def apply(self, data, dt=0.0, out=None):
        """Noised successive readings: ``data`` (Pa) has shape (n,); reading k is bit for
        bit what ``apply_one`` gives for it after the readings before it. ``dt`` (s): a
        scalar or one per reading, finite and >= 0. float64 result; ``out`` (float64,
        shape (n,), C-contiguous, writeable; may be ``data`` itself) receives it."""
        self._check_built()
        if self.pressure_units == "pascals" or not self._ch.on[0]:
            return run_batch(self, self._ch, data, dt, out, self._runs)
        arr = _arrays.intake("data", data, np.float64, ndim=1)
        if out is not None:
            res = _arrays.output("out", out, arr.shape, np.float64)
            _arrays.no_partial_overlap({"out": res}, {"data": arr})
        hpa = (arr / 100.0).astype(np.float32).astype(np.float64)
        r = run_batch(self, self._ch, hpa, dt, hpa, self._runs)
        pa = r.astype(np.float32) * np.float32(100.0)
        if out is None:
            return pa.astype(np.float64)
        res[...] = pa
        return res

register_model(AirSpeedNoise)
