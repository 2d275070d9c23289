"""The per-call object of ``LidarNoise.apply`` (``fastnoise.models.lidar.lidar_noise``): one call's
arrays and parameters, so pieces of a cloud can run on threads with the GIL released.
Internal: only Cython code makes one (``new_points_call``); from Python the class
cannot be constructed, so ``run`` never reads a missing array."""

cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint64_t

from fastnoise.models.lidar.capi cimport (
    fn_lidar_points_f32,
    fn_lidar_points_f64,
    fn_lidar_points_rows_f32,
    fn_lidar_points_rows_f64,
)

cnp.import_array()

# Only new_points_call makes _PointsCall objects (see _PointsCall.__cinit__).
_TOKEN = object()


cdef inline const void *_ptr_or_null(cnp.ndarray arr):
    if arr is None:
        return NULL
    return cnp.PyArray_DATA(arr)


@cython.auto_pickle(False)
cdef class _PointsCall:
    """One apply() call's arrays and parameters, so pieces can run on threads. Internal:
    made by LidarNoise.apply only (constructing one from Python raises)."""

    def __cinit__(self, token=None):
        if token is not _TOKEN:
            raise TypeError("_PointsCall is internal to LidarNoise.apply and cannot be "
                            "constructed")

    def run(self, Py_ssize_t start, Py_ssize_t count):
        if self.points is None or self.points_out is None or self.dist_out is None \
                or self.mask_out is None:
            raise RuntimeError("_PointsCall has no arrays")
        if start < 0 or count < 0 or start + count > cnp.PyArray_DIM(self.points, 0):
            raise ValueError(f"start={start}, count={count} lie outside the arrays")
        cdef char *pts = <char *>cnp.PyArray_DATA(self.points)
        cdef char *pout = <char *>cnp.PyArray_DATA(self.points_out)
        cdef char *dout = <char *>cnp.PyArray_DATA(self.dist_out)
        cdef uint8_t *mout = <uint8_t *>cnp.PyArray_DATA(self.mask_out)
        cdef const char *din = <const char *>_ptr_or_null(self.dist_in)
        cdef const uint8_t *min_ = <const uint8_t *>_ptr_or_null(self.mask_in)
        cdef char *lout = <char *>_ptr_or_null(self.local_out)
        cdef uint64_t first = self.first_index + <uint64_t>start
        cdef size_t n = <size_t>count
        if min_ != NULL:
            min_ += start
        cdef int rc
        cdef Py_ssize_t item = 4 if self.f32 else 8
        if self.in_stride != 3 * item or self.out_stride != 3 * item:
            rc = self._run_rows(start, count)
        elif self.f32:
            with nogil:
                rc = fn_lidar_points_f32(
                    &self.prm, first, n, (<float *>pts) + 3 * start,
                    (<const float *>din) + start if din != NULL else NULL, min_,
                    (<float *>pout) + 3 * start, (<float *>dout) + start, mout + start,
                    (<float *>lout) + 3 * start if lout != NULL else NULL)
        else:
            with nogil:
                rc = fn_lidar_points_f64(
                    &self.prm, first, n, (<double *>pts) + 3 * start,
                    (<const double *>din) + start if din != NULL else NULL, min_,
                    (<double *>pout) + 3 * start, (<double *>dout) + start, mout + start,
                    (<double *>lout) + 3 * start if lout != NULL else NULL)
        if rc != 0:  # checked before: the C guard against wrapping indices
            raise OverflowError(f"frame={self.prm.frame} or first_index={first} + {n} points "
                                "runs past the end of the lidar streams")

    cdef int _run_rows(self, Py_ssize_t start, Py_ssize_t count):
        """run() on points (and points_out) whose rows are records, in_stride
        (out_stride) bytes apart: fn_lidar_points_rows_*, the same bits."""
        cdef const char *pts = <const char *>cnp.PyArray_DATA(self.points) + start * self.in_stride
        cdef char *pout = <char *>cnp.PyArray_DATA(self.points_out) + start * self.out_stride
        cdef char *dout = <char *>cnp.PyArray_DATA(self.dist_out)
        cdef uint8_t *mout = <uint8_t *>cnp.PyArray_DATA(self.mask_out) + start
        cdef const char *din = <const char *>_ptr_or_null(self.dist_in)
        cdef const uint8_t *min_ = <const uint8_t *>_ptr_or_null(self.mask_in)
        cdef char *lout = <char *>_ptr_or_null(self.local_out)
        cdef uint64_t first = self.first_index + <uint64_t>start
        cdef size_t n = <size_t>count
        cdef size_t si = <size_t>self.in_stride, so = <size_t>self.out_stride
        if min_ != NULL:
            min_ += start
        cdef int rc
        if self.f32:
            with nogil:
                rc = fn_lidar_points_rows_f32(
                    &self.prm, first, n, pts, si,
                    (<const float *>din) + start if din != NULL else NULL, min_, pout, so,
                    (<float *>dout) + start, mout,
                    (<float *>lout) + 3 * start if lout != NULL else NULL)
        else:
            with nogil:
                rc = fn_lidar_points_rows_f64(
                    &self.prm, first, n, pts, si,
                    (<const double *>din) + start if din != NULL else NULL, min_, pout, so,
                    (<double *>dout) + start, mout,
                    (<double *>lout) + 3 * start if lout != NULL else NULL)
        return rc


cdef _PointsCall new_points_call():
    return _PointsCall(_TOKEN)
