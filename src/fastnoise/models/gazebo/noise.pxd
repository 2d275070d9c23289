# The channel set shared by GazeboNoise and the Gazebo sensor models (gazebo_sensors.pxd).

from fastnoise.models.gazebo.capi cimport fn_gz_channel


cdef class _Channels:
    cdef fn_gz_channel ch[6]
    cdef bint on[6]
    cdef int n
    cdef object names  # component names, in component (stream) order
    cdef object params  # per component: the full parameter dict, or None
    cdef object key

    cdef int check_room(self, int i, size_t samples) except -1
    cdef double one(self, int i, double x, double dt) noexcept nogil


# A per-sample input (gazebo_noise.pyx): any float, or a real number refused by name.
cdef double real_one(str name, object v) except? -1.5
# A per-sample dt (s): finite, in [0, 1e30].
cdef double dt_one(object dt) except? -1.0
