"""gz-sensors' air pressure and air speed noise (see :mod:`fastnoise.models.gazebo.sensors`
for what every Gazebo sensor model shares)."""

cimport numpy as cnp

from fastnoise.core.model cimport check_built, lock_model, unlock_model
from fastnoise.models.gazebo.noise cimport dt_one, real_one
from fastnoise.models.gazebo.sensors cimport _GazeboSensor

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core.model import register_model
from fastnoise.core.deprecation import positional_options
from fastnoise.models.gazebo import declarations as _declarations

cnp.import_array()


cdef class AirPressureNoise(_GazeboSensor):
    """AirPressureNoise(pressure=None, *, seed=None, num_envs=None, env=None)
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
    num_envs : int or None
        A batch of ``num_envs`` environments (module docstring, :doc:`/batching`).
    env : int or None
        This model is environment ``env`` of a batch (bit for bit); not with
        ``num_envs``.
    """

    model_name = "air_pressure"
    declaration = _declarations.AIR_PRESSURE
    _components = ('pressure',)
    n_columns = 1
    _runs = ((0, 0, 1),)

    def __init__(self, pressure=None, *, seed=None, num_envs=None, env=None):
        self._build((pressure,), seed, None, num_envs, env)

    def apply_one(self, pressure, dt=0.0):
        """The noised pressure (Pa) of one reading of ``pressure`` (Pa); ``dt`` (s) as
        in the module docstring (gz-sensors: 0)."""
        return self._one(dt, pressure)

    @property
    def reported_variance(self):
        """What gz-sensors publishes as the FluidPressure message's variance:
        ``sqrt(stddev)`` (Pa) of the pressure noise, 0.0 without noise (a gz-sensors
        quirk, kept so a message can be rebuilt as Gazebo sends it); a batch with a
        per-environment stddev: (num_envs,)."""
        check_built(self)
        p = self._bvalues[0]
        if p is None:
            return 0.0
        s = p["stddev"]
        return np.sqrt(s) if isinstance(s, np.ndarray) else float(np.sqrt(s))


register_model(AirPressureNoise)


cdef class AirSpeedNoise(_GazeboSensor):
    """AirSpeedNoise(pressure=None, *, pressure_units="hectopascals", seed=None,
    num_envs=None, env=None)
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
    num_envs : int or None
        A batch of ``num_envs`` environments (module docstring, :doc:`/batching`).
    env : int or None
        This model is environment ``env`` of a batch (bit for bit); not with
        ``num_envs``.
    """

    model_name = "air_speed"
    declaration = _declarations.AIR_SPEED
    _components = ('pressure',)
    n_columns = 1
    _runs = ((0, 0, 1),)
    _units = ("pressure_units", ("hectopascals", "pascals"))
    _hpa_model = True

    def __init__(self, pressure=None, *, pressure_units="hectopascals", seed=None,
                 num_envs=None, env=None):
        self._build((pressure,), seed, pressure_units, num_envs, env)

    @property
    def pressure_units(self):
        """"hectopascals" or "pascals": the unit of the noise parameters (class
        docstring)."""
        return self._unit

    def apply_one(self, pressure, dt=0.0):
        """The noised differential pressure (Pa) of one reading of ``pressure`` (Pa);
        ``dt`` (s) as in the module docstring (gz-sensors: 0)."""
        cdef double v, d
        cdef float h
        if self._nenv or self._alt or not self._built or not self._ch.on[0]:
            return self._one(dt, pressure)
        v = real_one("pressure", pressure)
        d = dt_one(dt)
        self._ch.check_room(0, 1)
        lock_model(self)
        h = <float>(v / 100.0)
        h = <float>self._ch.one(0, <double>h, d)
        h = h * <float>100.0
        unlock_model(self)
        return <double>h

    def apply(self, data, dt=0.0, *args, out=None):
        """Noised successive readings: ``data`` (Pa) has shape (n,); reading k is bit for
        bit what ``apply_one`` gives for it after the readings before it. ``dt`` (s): a
        scalar or one per reading, finite and >= 0. float64 result; ``out`` (float64,
        shape (n,), C-contiguous, writeable; may be ``data`` itself) receives it."""
        if args:  # 0.2 callers passed these by position
            out, = positional_options(
                "AirSpeedNoise.apply", args, ('out',),
                (out,), (None,))
        check_built(self)
        if self._nenv:
            return self._env_apply(data, dt, out, False)
        if self._alt or not self._ch.on[0]:
            return self._batch(data, dt, out)
        arr = _arrays.intake("data", data, np.float64, ndim=1)
        if out is not None:
            res = _arrays.output("out", out, arr.shape, np.float64)
            _arrays.no_partial_overlap({"out": res}, {"data": arr})
        hpa = (arr / 100.0).astype(np.float32).astype(np.float64)
        r = self._batch(hpa, dt, hpa)
        pa = r.astype(np.float32) * np.float32(100.0)
        if out is None:
            return pa.astype(np.float64)
        res[...] = pa
        return res


register_model(AirSpeedNoise)
