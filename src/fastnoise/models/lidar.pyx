"""Lidar noise: RGL's angular and distance noise (seed 001) and Gazebo's range noise
(seed 003) for point clouds and scans, keyed per point.

Randomness rule: with the lidar's key (``fastnoise.core.seeding.model_key(seed, "lidar")``,
so other models given the same seed draw other noise), the standard normal z behind the noise of
point (ray, beam) ``i`` of frame ``f`` is float32 normal ``i`` of stream ``4 f + kind``
(kind 0 ray angular, 1 hitpoint angular, 2 distance, 3 range; ``csrc/normal.h``), and
the noise is ``mean + stddev * z`` in the data's dtype. So it depends only on
(seed, f, i): a cloud split into pieces (pass each piece's ``first_index``), any thread
count and any SIMD path give the same bits as the whole cloud at once.

The z are the float32 values of the canonical stream for float32 and float64 data
alike: a float32 and a float64 copy of a cloud get the same draws, and the draws cost
about half as much as float64 ones. They agree with the float64 values to float32
accuracy (|z| <= 6.66 in both), far below any lidar's noise.
"""


import numpy as np

cimport numpy as cnp
from libc.stdint cimport uint8_t, uint64_t

from fastnoise.core import threads as _threads

from fastnoise.core import validate as _validate
from fastnoise.models.lidar_geometry import (
    MAX_FRAME,
    NoisyPoints,
    float_data,
    frame_index,
    rigid_pose,
    unit_axis,
)
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.core.generator import fill_normals

cnp.import_array()


cdef extern from "lidar.h" nogil:
    int FN_LIDAR_RAY_ANGULAR
    int FN_LIDAR_HITPOINT_ANGULAR
    int FN_LIDAR_DISTANCE
    int FN_LIDAR_RANGE
    uint64_t fn_lidar_stream(uint64_t frame, int kind)

    ctypedef struct fn_lidar_points_params:
        uint64_t key
        uint64_t frame
        double axis[3]
        double origin[3]
        double to_local[9]
        int angular
        double angular_mean
        double angular_stddev
        int distance
        double distance_mean
        double distance_base
        double distance_rise

    void fn_lidar_points_f64(const fn_lidar_points_params *p, uint64_t first_index,
                             size_t n, const double *points, const double *dist_in,
                             const uint8_t *mask_in, double *points_out, double *dist_out,
                             uint8_t *mask_out, double *local_out)
    void fn_lidar_points_f32(const fn_lidar_points_params *p, uint64_t first_index,
                             size_t n, const float *points, const float *dist_in,
                             const uint8_t *mask_in, float *points_out, float *dist_out,
                             uint8_t *mask_out, float *local_out)
    void fn_lidar_rays_f64(uint64_t key, uint64_t frame, const double *axis,
                           const double *origin, double mean, double stddev,
                           uint64_t first_index, size_t n, size_t stride, double *rays)
    void fn_lidar_rays_f32(uint64_t key, uint64_t frame, const double *axis,
                           const double *origin, double mean, double stddev,
                           uint64_t first_index, size_t n, size_t stride, float *rays)

    ctypedef struct fn_range_params:
        uint64_t key
        uint64_t frame
        double bias
        double mean
        double stddev
        double precision
        double min_range
        double max_range

    void fn_range_noise_f64(const fn_range_params *p, uint64_t first_index, size_t n,
                            const double *inp, double *out)
    void fn_range_noise_f32(const fn_range_params *p, uint64_t first_index, size_t n,
                            const float *inp, float *out)


# Smallest piece a threaded call hands to one thread.
_MIN_PER_THREAD = 1 << 14

RAY_BASED = 0
HITPOINT_BASED = 1
# Largest angular mean or stddev accepted, rad.
_MAX_ANGLE = 1.0e3


def _rebuild(cls, kwargs):
    """Unpickle: the objects are fully defined by their parameters and seed."""
    return cls(**kwargs)


def _output(name, arr, shape, dtype):
    """A caller's output array (checked), or a new one."""
    if arr is None:
        return np.empty(shape, dtype=dtype)
    return _validate.output_array(name, arr, shape, dtype)


def _unaliased(inp, outputs):
    """``inp``, or a copy of it if it overlaps an output without being that very array
    (the kernel reads each element before writing it, so exact aliasing is fine)."""
    for o in outputs:
        if np.shares_memory(inp, o) and not (
            inp.__array_interface__["data"][0] == o.__array_interface__["data"][0]
            and inp.strides == o.strides and inp.dtype.itemsize == o.dtype.itemsize
        ):
            return inp.copy()
    return inp


cdef inline const void *_ptr_or_null(object arr):
    if arr is None:
        return NULL
    return cnp.PyArray_DATA(<cnp.ndarray>arr)


cdef class _PointsCall:
    """One apply() call's arrays and parameters, so pieces can run on threads."""
    cdef fn_lidar_points_params prm
    cdef uint64_t first_index
    cdef bint f32
    cdef object points, dist_in, mask_in, points_out, dist_out, mask_out, local_out

    def run(self, Py_ssize_t start, Py_ssize_t count):
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
        if self.f32:
            with nogil:
                fn_lidar_points_f32(
                    &self.prm, first, n, (<float *>pts) + 3 * start,
                    (<const float *>din) + start if din != NULL else NULL, min_,
                    (<float *>pout) + 3 * start, (<float *>dout) + start, mout + start,
                    (<float *>lout) + 3 * start if lout != NULL else NULL)
        else:
            with nogil:
                fn_lidar_points_f64(
                    &self.prm, first, n, (<double *>pts) + 3 * start,
                    (<const double *>din) + start if din != NULL else NULL, min_,
                    (<double *>pout) + 3 * start, (<double *>dout) + start, mout + start,
                    (<double *>lout) + 3 * start if lout != NULL else NULL)


cdef class LidarNoise:
    """RGL's Gaussian lidar noise (seed 001), all three kinds at once, seeded.

    Parameters (all keyword-only; angles in rad, |angle| <= 1000; lengths in m)
    ----------
    ray_angular_noise_mean, ray_angular_noise_stddev : float
        Ray-based angular noise e ~ N(mean, stddev) rad, used by ``perturb_rays``
        (before the caller raycasts).
    hitpoint_angular_noise_mean, hitpoint_angular_noise_stddev : float
        Hitpoint-based angular noise, used by ``apply``: each hit point turns by
        e ~ N(mean, stddev) rad about the lidar axis through the lidar origin.
    distance_noise_mean, distance_noise_stddev_base : float
        Distance noise eps ~ N(mean, base + rise * d) m, used by ``apply``.
    distance_noise_stddev_rise_per_meter : float
        rise, in m of standard deviation per m of distance d (>= 0).
    axis : 3-vector
        Unit rotation axis in the lidar frame; RGL uses the lidar's Y axis (default).
    seed : int, numpy.random.SeedSequence or None
        ``None`` draws fresh entropy, kept in ``.seed`` to reproduce the run.

    Unlike RGL, ray-based and hitpoint-based angular noise may both be active. In
    ``apply`` the order is hitpoint angular noise, then distance noise (RGL's pipeline
    order). Noise of point i of frame f depends only on (seed, f, i): see the module
    docstring for the streams.
    """

    cdef readonly double ray_angular_noise_mean, ray_angular_noise_stddev
    cdef readonly double hitpoint_angular_noise_mean, hitpoint_angular_noise_stddev
    cdef readonly double distance_noise_mean, distance_noise_stddev_base
    cdef readonly double distance_noise_stddev_rise_per_meter
    cdef readonly uint64_t key
    cdef object _axis, _seed_seq

    def __init__(self, *, ray_angular_noise_mean=0.0, ray_angular_noise_stddev=0.0,
                 hitpoint_angular_noise_mean=0.0, hitpoint_angular_noise_stddev=0.0,
                 distance_noise_mean=0.0, distance_noise_stddev_base=0.0,
                 distance_noise_stddev_rise_per_meter=0.0, axis=(0.0, 1.0, 0.0),
                 seed=None):
        # angles beyond _MAX_ANGLE would leave the range where the sine is accurate
        self.ray_angular_noise_mean = _validate.in_range(
            "ray_angular_noise_mean", ray_angular_noise_mean, -_MAX_ANGLE, _MAX_ANGLE)
        self.ray_angular_noise_stddev = _validate.in_range(
            "ray_angular_noise_stddev", ray_angular_noise_stddev, 0.0, _MAX_ANGLE)
        self.hitpoint_angular_noise_mean = _validate.in_range(
            "hitpoint_angular_noise_mean", hitpoint_angular_noise_mean, -_MAX_ANGLE, _MAX_ANGLE)
        self.hitpoint_angular_noise_stddev = _validate.in_range(
            "hitpoint_angular_noise_stddev", hitpoint_angular_noise_stddev, 0.0, _MAX_ANGLE)
        self.distance_noise_mean = _validate.finite("distance_noise_mean", distance_noise_mean)
        self.distance_noise_stddev_base = _validate.nonnegative(
            "distance_noise_stddev_base", distance_noise_stddev_base)
        self.distance_noise_stddev_rise_per_meter = _validate.nonnegative(
            "distance_noise_stddev_rise_per_meter", distance_noise_stddev_rise_per_meter)
        self._axis = unit_axis("axis", axis)
        self._seed_seq = as_seed_sequence(seed)
        self.key = model_key(self._seed_seq, "lidar")

    @classmethod
    def from_rgl(cls, angular_noise_type, angular_noise_stddev, angular_noise_mean,
                 distance_noise_stddev_base, distance_noise_stddev_rise_per_meter,
                 distance_noise_mean, *, axis=(0.0, 1.0, 0.0), seed=None):
        """The parameters of RGL's ``rgl_lidar_set_gaussian_noise_params``, in its
        order: ``angular_noise_type`` is ``RAY_BASED`` (0) or ``HITPOINT_BASED`` (1);
        angles in rad, lengths in m."""
        if angular_noise_type == RAY_BASED:
            ang = {"ray_angular_noise_mean": angular_noise_mean,
                   "ray_angular_noise_stddev": angular_noise_stddev}
        elif angular_noise_type == HITPOINT_BASED:
            ang = {"hitpoint_angular_noise_mean": angular_noise_mean,
                   "hitpoint_angular_noise_stddev": angular_noise_stddev}
        else:
            raise ValueError(
                f"angular_noise_type={angular_noise_type!r} is not allowed: use "
                "RAY_BASED (0) or HITPOINT_BASED (1)")
        return cls(distance_noise_mean=distance_noise_mean,
                   distance_noise_stddev_base=distance_noise_stddev_base,
                   distance_noise_stddev_rise_per_meter=distance_noise_stddev_rise_per_meter,
                   axis=axis, seed=seed, **ang)

    @property
    def axis(self):
        """Unit rotation axis in the lidar frame (copy)."""
        return self._axis.copy()

    @property
    def seed(self):
        """The numpy.random.SeedSequence the key came from."""
        return self._seed_seq

    def __repr__(self):
        return (
            f"LidarNoise(ray_angular_noise_mean={self.ray_angular_noise_mean!r}, "
            f"ray_angular_noise_stddev={self.ray_angular_noise_stddev!r}, "
            f"hitpoint_angular_noise_mean={self.hitpoint_angular_noise_mean!r}, "
            f"hitpoint_angular_noise_stddev={self.hitpoint_angular_noise_stddev!r}, "
            f"distance_noise_mean={self.distance_noise_mean!r}, "
            f"distance_noise_stddev_base={self.distance_noise_stddev_base!r}, "
            f"distance_noise_stddev_rise_per_meter="
            f"{self.distance_noise_stddev_rise_per_meter!r}, axis={self._axis.tolist()!r})")

    def _params(self):
        return {
            "ray_angular_noise_mean": self.ray_angular_noise_mean,
            "ray_angular_noise_stddev": self.ray_angular_noise_stddev,
            "hitpoint_angular_noise_mean": self.hitpoint_angular_noise_mean,
            "hitpoint_angular_noise_stddev": self.hitpoint_angular_noise_stddev,
            "distance_noise_mean": self.distance_noise_mean,
            "distance_noise_stddev_base": self.distance_noise_stddev_base,
            "distance_noise_stddev_rise_per_meter": self.distance_noise_stddev_rise_per_meter,
            "axis": tuple(self._axis.tolist()),
            "seed": self._seed_seq,
        }

    def __reduce__(self):
        return _rebuild, (LidarNoise, self._params())

    def _frame_geometry(self, lidar_pose):
        """(world axis, lidar origin, caller -> lidar rotation or None)."""
        if lidar_pose is None:
            return self._axis, np.zeros(3), None
        rot, t = rigid_pose("lidar_pose", lidar_pose)
        return rot @ self._axis, t, rot.T.copy()

    def perturb_rays(self, ray_poses, lidar_pose=None, frame=0, first_index=0, out=None):
        """Ray-based angular noise: turn each ray pose about the lidar axis through the
        lidar origin by e ~ N(ray_angular_noise_mean, ray_angular_noise_stddev) rad.

        Parameters
        ----------
        ray_poses : (N, 3, 4) or (N, 4, 4) array
            Ray transforms (ray -> caller's frame; translations in m). A ray's direction
            is its local +Z (third column), its origin the translation.
        lidar_pose : (4, 4) or (3, 4) rigid transform, optional
            The lidar's pose in the caller's frame (lidar -> caller). ``None``: the rays
            are given in the lidar frame. In the lidar frame the rotation is applied on
            the left: r' = R_axis(e) r, i.e. r' = L^-1 R_axis(e) L r with L its inverse.
        frame : int
            Frame number (selects the noise; 0 <= frame < 2**62).
        first_index : int
            Index of ``ray_poses[0]`` in the frame's full ray list (for pieces).
        out : ndarray, optional
            Same shape and dtype as the result; may be ``ray_poses`` itself.

        Returns the noised poses (same shape; float32 stays float32, else float64). The
        bottom row of 4x4 poses is copied unchanged.
        """
        poses = float_data("ray_poses", ray_poses)
        if poses.ndim != 3 or poses.shape[1:] not in ((3, 4), (4, 4)):
            raise ValueError(
                f"ray_poses has shape {poses.shape}: it must be (N, 3, 4) or (N, 4, 4)")
        cdef uint64_t fr = frame_index("frame", frame)
        # the indices first .. first + N - 1 must all exist
        cdef uint64_t first = frame_index(
            "first_index", first_index, 2**64 - max(poses.shape[0], 1))
        kw, t, _ = self._frame_geometry(lidar_pose)
        if out is None:
            res = poses.copy()
        else:
            res = _validate.output_array("out", out, poses.shape, poses.dtype)
            if res is not poses and not np.shares_memory(res, poses):
                np.copyto(res, poses)
            elif res is not poses:
                res[...] = poses.copy()
        cdef cnp.ndarray[double, ndim=1] kv = np.ascontiguousarray(kw, dtype=np.float64)
        cdef cnp.ndarray[double, ndim=1] tv = np.ascontiguousarray(t, dtype=np.float64)
        cdef size_t n = <size_t>poses.shape[0]
        cdef size_t stride = 4 * <size_t>poses.shape[1]
        cdef double mean = self.ray_angular_noise_mean
        cdef double sd = self.ray_angular_noise_stddev
        cdef uint64_t key = self.key
        cdef void *data = cnp.PyArray_DATA(<cnp.ndarray>res)
        if mean == 0.0 and sd == 0.0:
            return res
        if res.dtype == np.float32:
            with nogil:
                fn_lidar_rays_f32(key, fr, &kv[0], &tv[0], mean, sd, first, n, stride,
                                  <float *>data)
        else:
            with nogil:
                fn_lidar_rays_f64(key, fr, &kv[0], &tv[0], mean, sd, first, n, stride,
                                  <double *>data)
        return res

    def apply(self, points, distances=None, hit_mask=None, lidar_pose=None, frame=0,
              first_index=0, out=None, return_local=False, drop_non_hits=False, threads=1,
              distances_out=None, hit_mask_out=None):
        """Hitpoint angular noise, then distance noise, on a cloud of hit points.

        Parameters
        ----------
        points : (N, 3) array
            Hit points (m) in the caller's frame (the lidar frame if ``lidar_pose`` is
            None). float32 stays float32; other real types become float64.
        distances : (N,) array, optional
            Distances (m) from the lidar origin; default ``|p - lidar origin|``. A
            non-finite distance marks a non-hit.
        hit_mask : (N,) bool array, optional
            False marks a non-hit. Points with non-finite coordinates are non-hits too.
        lidar_pose : (4, 4) or (3, 4) rigid transform, optional
            The lidar's pose in the caller's frame (lidar -> caller); ``None`` means the
            points are in the lidar frame.
        frame : int
            Frame number, 0 <= frame < 2**62.
        first_index : int
            Index of ``points[0]`` in the frame's full cloud (for pieces).
        out : (N, 3) array, optional
            Receives the noised points (may be ``points`` itself, to work in place). It
            always holds all N points, also with ``drop_non_hits``.
        return_local : bool
            Also return the noised cloud in the lidar frame, from the same draws (the
            same array as ``points`` when ``lidar_pose`` is None). Non-finite non-hits
            may map to NaN there.
        drop_non_hits : bool
            Return only the hits' points and distances, as new arrays (``hit_mask``
            keeps length N, so the rows can be traced back).
        distances_out, hit_mask_out : (N,) arrays, optional
            Receive the distances (points' dtype) and the hit mask (bool); with ``out``
            they let a real-time loop reuse its buffers every frame (no allocation).
        threads : int
            Split the points across this many threads; the result does not depend on it.

        Returns
        -------
        NoisyPoints(points, distances, hit_mask, local_points)

        Hit i, at offset q = p - t from the lidar origin t, with axis k (in the caller's
        frame), e_i ~ N(hitpoint mean, stddev), z_i ~ N(0, 1):
        ``q' = Rot(k, e_i) q`` (distance unchanged), then
        ``eps = distance_noise_mean + (base + rise * d) z_i``, ``q'' = q' (1 + eps / |q|)``,
        ``d' = d + eps``. Non-hits are copied unchanged. A hit at the lidar origin has no
        direction and is left in place (eps = 0).
        """
        pts = float_data("points", points)
        if pts.ndim != 2 or pts.shape[1] != 3:
            raise ValueError(f"points has shape {pts.shape}: it must be (N, 3)")
        dt = pts.dtype
        cdef Py_ssize_t n = pts.shape[0]
        dist_in = None
        if distances is not None:
            dist_in = float_data("distances", distances)
            if dist_in.shape != (n,):
                raise ValueError(
                    f"distances has shape {dist_in.shape}: it must be ({n},) like points")
            dist_in = np.ascontiguousarray(dist_in, dtype=dt)
        mask_in = None
        if hit_mask is not None:
            mask_in = np.asarray(hit_mask)
            if mask_in.dtype != np.bool_:
                raise TypeError(f"hit_mask has dtype {mask_in.dtype}: it must be bool")
            if mask_in.shape != (n,):
                raise ValueError(
                    f"hit_mask has shape {mask_in.shape}: it must be ({n},) like points")
            mask_in = np.ascontiguousarray(mask_in).view(np.uint8)
        fr = frame_index("frame", frame)
        first = frame_index("first_index", first_index, 2**64 - max(n, 1))
        nthreads = _threads.count(threads)
        kw, t, to_local = self._frame_geometry(lidar_pose)

        pout = _output("out", out, (n, 3), dt)
        dout = _output("distances_out", distances_out, (n,), dt)
        mout = _output("hit_mask_out", hit_mask_out, (n,), np.dtype(np.bool_))
        # an output that partly overlaps an input would be read after being written
        pts = _unaliased(pts, (pout, dout, mout))
        if dist_in is not None:
            dist_in = _unaliased(dist_in, (pout, dout, mout))
        if mask_in is not None:
            mask_in = _unaliased(mask_in, (pout, dout, mout.view(np.uint8)))
        lout = np.empty((n, 3), dtype=dt) if (return_local and to_local is not None) else None

        cdef _PointsCall call = _PointsCall()
        cdef int i
        call.prm.key = self.key
        call.prm.frame = fr
        for i in range(3):
            call.prm.axis[i] = kw[i]
            call.prm.origin[i] = t[i]
        if to_local is not None:
            for i in range(9):
                call.prm.to_local[i] = to_local.flat[i]
        call.prm.angular = (self.hitpoint_angular_noise_mean != 0.0
                            or self.hitpoint_angular_noise_stddev != 0.0)
        call.prm.angular_mean = self.hitpoint_angular_noise_mean
        call.prm.angular_stddev = self.hitpoint_angular_noise_stddev
        call.prm.distance = (self.distance_noise_mean != 0.0
                             or self.distance_noise_stddev_base != 0.0
                             or self.distance_noise_stddev_rise_per_meter != 0.0)
        call.prm.distance_mean = self.distance_noise_mean
        call.prm.distance_base = self.distance_noise_stddev_base
        call.prm.distance_rise = self.distance_noise_stddev_rise_per_meter
        call.first_index = first
        call.f32 = dt == np.float32
        call.points = pts
        call.dist_in = dist_in
        call.mask_in = mask_in
        call.points_out = pout
        call.dist_out = dout
        call.mask_out = mout.view(np.uint8)
        call.local_out = lout
        _threads.run_split(call.run, n, _threads.parts(n, nthreads, _MIN_PER_THREAD))

        if return_local and lout is None:
            lout = pout
        if drop_non_hits:
            keep = mout
            return NoisyPoints(pout[keep], dout[keep], mout,
                               None if lout is None else lout[keep])
        return NoisyPoints(pout, dout, mout, lout)


cdef class RangeNoise:
    """Gazebo's Gaussian range noise for scans (seed 003, gz-sensors' rules).

    Parameters (m)
    ----------
    mean, stddev : float
        Per-beam white noise N(mean, stddev) m, drawn independently for each beam.
    min_range, max_range : float
        Clamp limits (m), 0 <= min_range < max_range, finite.
    bias_mean, bias_stddev : float
        A bias drawn once per RangeNoise from N(bias_mean, bias_stddev) m and added to
        every finite range.
    precision : float
        If > 0, results are rounded to a multiple of it (half away from zero), m.
    flip_bias_sign : bool
        Gazebo's GaussianNoiseModel negates the drawn bias with probability 1/2; set
        True to do the same (default False: the bias is N(bias_mean, bias_stddev)).
    seed : int, numpy.random.SeedSequence or None

    Per beam: finite r -> r + bias + N(mean, stddev), rounded to ``precision``, then
    clamped to [min_range, max_range]; +inf and -inf pass through; NaN becomes
    max_range. Beam i of frame f uses normal i of stream 4 f + 3 (0 <= f < 2**62 - 1);
    the bias is normal 0 of stream 2**64 - 1 (the reserved last frame), the flip is
    taken when normal 1 of that stream is negative.
    """

    cdef fn_range_params prm
    cdef object _seed_seq
    cdef readonly double mean, stddev, min_range, max_range
    cdef readonly double bias_mean, bias_stddev, precision, bias
    cdef readonly bint flip_bias_sign

    def __init__(self, mean, stddev, min_range, max_range, bias_mean=0.0, bias_stddev=0.0,
                 precision=0.0, *, flip_bias_sign=False, seed=None):
        self.mean = _validate.finite("mean", mean)
        self.stddev = _validate.nonnegative("stddev", stddev)
        self.min_range = _validate.nonnegative("min_range", min_range)
        self.max_range = _validate.finite("max_range", max_range)
        if not self.max_range > self.min_range:
            raise ValueError(
                f"max_range={max_range!r} is not allowed: it must be > min_range={min_range!r}")
        self.bias_mean = _validate.finite("bias_mean", bias_mean)
        self.bias_stddev = _validate.nonnegative("bias_stddev", bias_stddev)
        self.precision = _validate.nonnegative("precision", precision)
        self.flip_bias_sign = bool(flip_bias_sign)
        self._seed_seq = as_seed_sequence(seed)
        key = model_key(self._seed_seq, "lidar")
        z = np.empty(2, dtype=np.float64)
        fill_normals(key, fn_lidar_stream(MAX_FRAME, FN_LIDAR_RANGE), 0, z)
        b = self.bias_mean + self.bias_stddev * float(z[0])
        if self.flip_bias_sign and z[1] < 0:
            b = -b
        self.bias = b
        self.prm.key = key
        self.prm.bias = b
        self.prm.mean = self.mean
        self.prm.stddev = self.stddev
        self.prm.precision = self.precision
        self.prm.min_range = self.min_range
        self.prm.max_range = self.max_range

    @property
    def seed(self):
        """The numpy.random.SeedSequence the key came from."""
        return self._seed_seq

    @property
    def key(self):
        """64-bit Philox key."""
        return self.prm.key

    def __reduce__(self):
        return _rebuild, (RangeNoise, {
            "mean": self.mean, "stddev": self.stddev, "min_range": self.min_range,
            "max_range": self.max_range, "bias_mean": self.bias_mean,
            "bias_stddev": self.bias_stddev, "precision": self.precision,
            "flip_bias_sign": self.flip_bias_sign, "seed": self._seed_seq})

    def __repr__(self):
        return (f"RangeNoise(mean={self.mean!r}, stddev={self.stddev!r}, "
                f"min_range={self.min_range!r}, max_range={self.max_range!r}, "
                f"bias_mean={self.bias_mean!r}, bias_stddev={self.bias_stddev!r}, "
                f"precision={self.precision!r}, flip_bias_sign={self.flip_bias_sign!r}); "
                f"bias={self.bias!r}")

    def apply_one(self, double range_m, frame=0, index=0):
        """One noised range (m): beam ``index`` of ``frame``, the same value ``apply``
        gives for that beam of a float64 scan. For per-beam loops (Gazebo's
        ``Noise::Apply``)."""
        cdef fn_range_params prm = self.prm
        cdef double out
        prm.frame = frame_index("frame", frame, MAX_FRAME - 1)
        index = frame_index("index", index, 2**64 - 1)
        fn_range_noise_f64(&prm, index, 1, &range_m, &out)
        return out

    def apply(self, ranges, frame=0, first_index=0, out=None, threads=1):
        """Noised ranges (m) of one scan, any shape; beam i is ``ranges.flat[i]``.

        float32 stays float32; other real types become float64. ``first_index`` is the
        index of the first beam in the frame's full scan (for pieces); ``out`` (same
        shape and dtype, may be ``ranges`` itself) receives the result.
        """
        arr = float_data("ranges", ranges)
        fr = frame_index("frame", frame, MAX_FRAME - 1)
        first = frame_index("first_index", first_index, 2**64 - max(arr.size, 1))
        nthreads = _threads.count(threads)
        if out is None:
            res = np.empty(arr.shape, dtype=arr.dtype)
        else:
            res = _validate.output_array("out", out, arr.shape, arr.dtype)
            if res is not arr and np.shares_memory(res, arr):
                arr = arr.copy()
        call = _RangeCall()
        call.prm = self.prm
        call.prm.frame = fr
        call.first_index = first
        call.inp = arr.reshape(-1)
        call.out = res.reshape(-1)
        _threads.run_split(call.run, arr.size,
                           _threads.parts(arr.size, nthreads, _MIN_PER_THREAD))
        return res


cdef class _RangeCall:
    cdef fn_range_params prm
    cdef uint64_t first_index
    cdef object inp, out

    def run(self, Py_ssize_t start, Py_ssize_t count):
        cdef char *src = <char *>cnp.PyArray_DATA(self.inp)
        cdef char *dst = <char *>cnp.PyArray_DATA(self.out)
        cdef uint64_t first = self.first_index + <uint64_t>start
        if cnp.PyArray_TYPE(self.inp) == cnp.NPY_FLOAT32:
            with nogil:
                fn_range_noise_f32(&self.prm, first, <size_t>count, (<float *>src) + start,
                                   (<float *>dst) + start)
        else:
            with nogil:
                fn_range_noise_f64(&self.prm, first, <size_t>count, (<double *>src) + start,
                                   (<double *>dst) + start)
