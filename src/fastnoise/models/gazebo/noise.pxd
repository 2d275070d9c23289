# The channel set shared by GazeboNoise and the Gazebo sensor models (gazebo_sensors.pxd).

from libc.stdint cimport UINT64_MAX, uint64_t

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


# Whether `samples` more samples of channel i would pass the end of its streams (the
# test of _Channels.check_room, which words the refusal): inline, so the sensor models'
# per-reading path tests room without a method call.
cdef inline bint out_of_room(_Channels ch, int i, size_t samples) noexcept:
    return ch.on[i] and samples > UINT64_MAX - ch.ch[i].count


# A per-sample input (gazebo_noise.pyx): any float, or a real number refused by name.
cdef double real_one(str name, object v) except? -1.5
# A per-sample dt (s): finite, in [0, 1e30].
cdef double dt_one(object dt) except? -1.0
# Set up channel c from a checked component dict (every key of PARAM_KEYS) under `key`
# on the stream base `stream` (FN_STREAM_GZ_TAG | component << 8): the one place a
# dict becomes fn_gz_params, for GazeboNoise, its batches and the sensor models.
cdef int init_channel(fn_gz_channel *c, object d, uint64_t key, uint64_t stream) except -1
