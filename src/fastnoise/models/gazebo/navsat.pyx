"""gz-sensors' NavSat noise (see :mod:`fastnoise.models.gazebo.sensors` for what every
Gazebo sensor model shares)."""

cimport numpy as cnp

from fastnoise.models.gazebo.capi cimport fn_gz_channel, fn_gz_navsat_horizontal
from fastnoise.models.gazebo.sensors cimport _GazeboSensor

from fastnoise.core.model import register_model
from fastnoise.models.gazebo import declarations as _declarations

cnp.import_array()


cdef class NavSatNoise(_GazeboSensor):
    """NavSatNoise(horizontal_position=None, vertical_position=None,
    horizontal_velocity=None, vertical_velocity=None, *, horizontal_units="degrees",
    seed=None, num_envs=None, env=None)
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
    num_envs : int or None
        A batch of ``num_envs`` environments (module docstring, :doc:`/batching`).
    env : int or None
        This model is environment ``env`` of a batch (bit for bit); not with
        ``num_envs``.

    dt (s), when given, moves the dynamic biases once per reading: it is the interval
    of the latitude (east) sample, the longitude (north) sample gets 0.
    """

    model_name = "navsat"
    declaration = _declarations.NAVSAT
    _components = ('horizontal_position', 'vertical_position', 'horizontal_velocity',
                   'vertical_velocity')
    _arguments = ('latitude', 'longitude', 'altitude', 'velocity_east', 'velocity_north',
                  'velocity_up')
    n_columns = 6
    # the horizontal position (channel 0, columns 0-1) runs in _row and _extra
    _runs = ((1, 2, 1), (2, 3, 2), (3, 5, 1))
    _units = ("horizontal_units", ("degrees", "metres"))
    _horizontal_model = True

    def __init__(self, horizontal_position=None, vertical_position=None,
                 horizontal_velocity=None, vertical_velocity=None, *,
                 horizontal_units="degrees", seed=None, num_envs=None, env=None):
        self._build((horizontal_position, vertical_position, horizontal_velocity,
                     vertical_velocity), seed, horizontal_units, num_envs, env)

    @property
    def horizontal_units(self):
        """"degrees" or "metres": the unit of the horizontal position noise (class
        docstring)."""
        return self._unit

    def apply_one(self, latitude, longitude, altitude, velocity_east=0.0,
                  velocity_north=0.0, velocity_up=0.0, dt=0.0):
        """The noised reading (latitude deg, longitude deg, altitude m, velocity east,
        north, up m/s) of one true reading; ``dt`` (s) as in the class docstring
        (gz-sensors: 0). Draws in gz-sensors' order: horizontal position (latitude,
        then longitude), vertical position, horizontal velocity (east, then north),
        vertical velocity."""
        return self._one(dt, latitude, longitude, altitude, velocity_east,
                         velocity_north, velocity_up)

    cdef int _rooms(self, size_t rows) except -1:
        self._ch.check_room(0, 2 * rows)
        return _GazeboSensor._rooms(self, rows)

    cdef void _row(self, double *v, double dt) noexcept nogil:
        cdef fn_gz_channel *hc = NULL
        if self._ch.on[0]:
            hc = &self._ch.ch[0]
        fn_gz_navsat_horizontal(hc, self._alt, v, 0, &dt, 0, 1, v, 0)
        _GazeboSensor._row(self, v, dt)

    cdef int _extra(self, grid, dts, Py_ssize_t stride) except -1:
        cdef cnp.ndarray g = grid
        cdef cnp.ndarray t = dts
        cdef double *p = <double *>cnp.PyArray_DATA(g)
        cdef const double *dp = <const double *>cnp.PyArray_DATA(t)
        cdef size_t n = <size_t>cnp.PyArray_DIM(g, 0)
        cdef fn_gz_channel *hc = NULL
        cdef int metres = self._alt
        cdef int rc
        if self._ch.on[0]:
            hc = &self._ch.ch[0]
        with nogil:
            rc = fn_gz_navsat_horizontal(hc, metres, p, 6, dp, stride, n, p, 6)
        if rc != 0:
            raise OverflowError("horizontal_position: the run passes the end of its streams")
        return 0


register_model(NavSatNoise)
