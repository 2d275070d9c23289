# The per-call object of LidarNoise.apply (lidar_call.pyx), shared with lidar.pyx.

cimport numpy as cnp
from libc.stdint cimport uint64_t

from fastnoise.models.lidar.capi cimport fn_lidar_points_params


cdef class _PointsCall:
    cdef fn_lidar_points_params prm
    cdef uint64_t first_index
    cdef bint f32
    # bytes from one point's x to the next one's, in points and points_out (3 items:
    # an (N, 3) C-contiguous array; more: records, as a PointCloud2's xyz view)
    cdef Py_ssize_t in_stride, out_stride
    cdef cnp.ndarray points, dist_in, mask_in, points_out, dist_out, mask_out, local_out

    cdef int _run_rows(self, Py_ssize_t start, Py_ssize_t count)


cdef _PointsCall new_points_call()
