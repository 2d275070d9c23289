"""gz-sensors' NavSat noise (see :mod:`fastnoise.models.gazebo_sensors` for what every
Gazebo sensor model shares)."""

cimport numpy as cnp

from fastnoise.core.model cimport Model, lock_model, unlock_model
from fastnoise.models.gazebo_capi cimport fn_gz_channel, fn_gz_navsat_horizontal
from fastnoise.models.gazebo_noise cimport _Channels, dt_one, real_one

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.gazebo_noise import build_channels, run_batch

cnp.import_array()


cdef class NavSatNoise(Model):
    """NavSatNoise(horizontal_position=None, vertical_position=None,
    horizontal_velocity=None, vertical_velocity=None, *, horizontal_units="degrees",
    seed=None)
--

    gz-sensors' ``NavSatSensor`` noise. A reading is latitude and longitude (degrees),
    altitude (m) and the ENU velocity (east, north, up; m/s). gz-sensors' ``Update``
    (dt = 0 for all): ONE horizontal position model applied to the latitude and then
    to the longitude, in degrees (so they share one bias, and each draws its own white
    noise); the vertical position model on the altitude; ONE horizontal velocity model
    applied to east and then north (one shared bias); the vertical velocity model on
    up. Then latitude and longitude are wrapped into [-180, 180] (gz math's
    ``Angle::Normalize``; the latitude too, it is not clamped to ±90), noise or not.

    Parameters
    ----------
    horizontal_position : mapping or None
        Noise of latitude and longitude, in ``horizontal_units``.
    vertical_position : mapping or None
        Noise of the altitude, m.
    horizontal_velocity : mapping or None
        Noise of the east and north velocities, m/s.
    vertical_velocity : mapping or None
        Noise of the up velocity, m/s.
    horizontal_units : {"degrees", "metres"}
        "degrees" (default, gz-sensors exactly: SDF documents metres, gz-sensors adds
        the values to degrees). "metres": the model runs on 0 and its value, m north
        for the latitude and m east for the longitude, becomes degrees at the reading's
        true latitude on the WGS84 ellipsoid (a = 6378137 m, f = 1/298.257223563):
        dlat = n / M, dlon = n / (N cos lat) (M, N the meridian and prime-vertical
        radii; at |cos lat| < 1e-12 the longitude gets no noise).
    seed : int, numpy.random.SeedSequence or None

    dt (s), when given, moves the dynamic biases once per reading: it is the interval
    of the latitude (east) sample, the longitude (north) sample gets 0.
    """

    model_name = "navsat"
    _components = ('horizontal_position', 'vertical_position', 'horizontal_velocity',
                   'vertical_velocity')
    #: Columns of a row of ``apply``'s data.
    n_columns = 6
    _runs = ((1, 2, 1), (2, 3, 2), (3, 5, 1))

    cdef readonly _Channels _ch
    cdef bint _built
    cdef readonly str horizontal_units

    def __init__(self, horizontal_position=None, vertical_position=None,
                 horizontal_velocity=None, vertical_velocity=None, *,
                 horizontal_units="degrees", seed=None):
        units = _validate.choice("horizontal_units", horizontal_units, ("degrees", "metres"))
        ss, ch = build_channels(type(self), (horizontal_position, vertical_position,
                                             horizontal_velocity, vertical_velocity), seed)
        self._ch = ch
        self._seed_seq = ss
        self.horizontal_units = units
        self._built = True

    cdef inline int _check_built(self) except -1:
        if not self._built:
            raise RuntimeError(f"this {type(self).__name__} was never initialised (made "
                               "with __new__ or by a failed __init__)")
        return 0

    @property
    def key(self):
        """64-bit Philox key (``model_key(seed, "navsat")``)."""
        self._check_built()
        return self._ch.key

    def bias(self, component):
        """The current bias of ``component`` (one of ``"horizontal_position"``,
        ``"vertical_position"``, ``"horizontal_velocity"``, ``"vertical_velocity"``; in
        its unit; 0.0 for a component without noise)."""
        self._check_built()
        i = _validate.choice("component", component, self._components)
        return self._ch.bias(self._components.index(i))

    def _params(self):
        self._check_built()
        d = {n: None if v is None else dict(v)
             for n, v in zip(self._components, self._ch.params)}
        d["horizontal_units"] = self.horizontal_units
        return d

    def _position(self):
        self._check_built()
        return self._ch.position()

    def _set_position(self, position):
        self._check_built()
        self._ch.set_position("state['position']", position)

    def _take(self, other):
        cdef NavSatNoise o = other
        lock_model(self)
        self._ch = o._ch
        unlock_model(self)
        self.horizontal_units = o.horizontal_units
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

    def apply_one(self, latitude, longitude, altitude, velocity_east=0.0,
                  velocity_north=0.0, velocity_up=0.0, dt=0.0):
        """The noised reading (latitude deg, longitude deg, altitude m, velocity east,
        north, up m/s) of one true reading; ``dt`` (s) as in the class docstring
        (gz-sensors: 0). Draws in gz-sensors' order: horizontal position (latitude,
        then longitude), vertical position, horizontal velocity (east, then north),
        vertical velocity."""
        cdef double v[6]
        cdef double d
        cdef fn_gz_channel *hc = NULL
        self._check_built()
        v[0] = real_one("latitude", latitude)
        v[1] = real_one("longitude", longitude)
        v[2] = real_one("altitude", altitude)
        v[3] = real_one("velocity_east", velocity_east)
        v[4] = real_one("velocity_north", velocity_north)
        v[5] = real_one("velocity_up", velocity_up)
        d = dt_one(dt)
        self._ch.check_room(0, 2)
        self._ch.check_room(1, 1)
        self._ch.check_room(2, 2)
        self._ch.check_room(3, 1)
        lock_model(self)
        if self._ch.on[0]:
            hc = &self._ch.ch[0]
        fn_gz_navsat_horizontal(hc, self.horizontal_units == "metres", v, 0, &d, 0, 1, v, 0)
        if self._ch.on[1]:
            v[2] = self._ch.one(1, v[2], d)
        if self._ch.on[2]:
            v[3] = self._ch.one(2, v[3], d)
            v[4] = self._ch.one(2, v[4], 0.0)
        if self._ch.on[3]:
            v[5] = self._ch.one(3, v[5], d)
        unlock_model(self)
        return (v[0], v[1], v[2], v[3], v[4], v[5])

    def apply(self, data, dt=0.0, out=None):
        """Noised successive readings: ``data`` has shape (n, 6) with the columns
        latitude, longitude (deg), altitude (m), velocity east, north, up (m/s); row k
        is bit for bit what ``apply_one`` gives for it after the rows before it. ``dt``
        (s): a scalar or one per row (shape (n,)), finite and >= 0. float64 result of
        ``data``'s shape; ``out`` (float64, C-contiguous, writeable; may be ``data``
        itself) receives it."""
        self._check_built()
        self._ch.check_room(0, 2 * np.shape(data)[0] if np.ndim(data) == 2 else 0)
        return run_batch(self, self._ch, data, dt, out, self._runs, self._horizontal)

    def _horizontal(self, grid, dts, stride):
        self._check_built()
        cdef cnp.ndarray g = grid
        cdef cnp.ndarray t = dts
        cdef double *p = <double *>cnp.PyArray_DATA(g)
        cdef const double *dp = <const double *>cnp.PyArray_DATA(t)
        cdef size_t n = <size_t>cnp.PyArray_DIM(g, 0)
        cdef Py_ssize_t st = stride
        cdef fn_gz_channel *hc = NULL
        cdef int metres = self.horizontal_units == "metres"
        cdef int rc
        if self._ch.on[0]:
            hc = &self._ch.ch[0]
        with nogil:
            rc = fn_gz_navsat_horizontal(hc, metres, p, 6, dp, st, n, p, 6)
        if rc != 0:
            raise OverflowError("horizontal_position: the run passes the end of its streams")

register_model(NavSatNoise)
