# The per-call object of LidarNoise.apply (lidar_call.pyx), shared with lidar.pyx.

cimport numpy as cnp
from libc.stdint cimport uint64_t

from fastnoise.models.lidar.capi cimport fn_lidar_points_params


cdef class _PointsCall:
    cdef fn_lidar_points_params prm
    cdef uint64_t first_index
    cdef bint f32
    cdef cnp.ndarray points, dist_in, mask_in, points_out, dist_out, mask_out, local_out


cdef _PointsCall new_points_call()
