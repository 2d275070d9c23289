# The channel set shared by GazeboNoise and the Gazebo sensor models (gazebo_sensors.pyx).

from fastnoise.models.gazebo_capi cimport fn_gz_channel

import numpy as np

from fastnoise.core import validate as _validate


cdef class _Channels:
    cdef fn_gz_channel ch[6]
    cdef bint on[6]
    cdef int n
    cdef object names  # component names, in component (stream) order
    cdef object params  # per component: the full parameter dict, or None
    cdef object key

    cdef int check_room(self, int i, size_t samples) except -1
    cdef double one(self, int i, double x, double dt) noexcept nogil


# A per-sample input: any float (inf and nan pass through the noise arithmetic, as in
# gz-sensors), or a real number (bools, strings, arrays refused by name).
cdef inline double real_one(str name, object v) except? -1.5:
    if type(v) is float:
        return <double>v
    if isinstance(v, (float, np.floating)):
        return float(v)
    return _validate.finite(name, v)


# A per-sample dt (s): finite, in [0, 1e30].
cdef inline double dt_one(object dt) except? -1.0:
    if type(dt) is float and 0.0 <= <double>dt <= 1.0e30:
        return <double>dt
    return _validate.in_range("dt", dt, 0.0, 1.0e30)
