"""Lidar noise: RGL's angular and distance noise (the GPU lidar (RGL) Gaussian noise
document) and Gazebo's range noise (the Gazebo sensor noise tutorial) for point clouds
and scans, keyed per point. ``RangeNoise`` lives in
``fastnoise.models.lidar.range_noise`` and is re-exported here.

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


cimport numpy as cnp
from libc.stdint cimport uint64_t

from fastnoise.core.model cimport _FrameCounter, check_built, take_frames
from fastnoise.models.lidar.call cimport _PointsCall, new_points_call
from fastnoise.models.lidar.capi cimport (
    fn_lidar_rays_check_f32,
    fn_lidar_rays_check_f64,
    fn_lidar_rays_f32,
    fn_lidar_rays_f64,
)

import numpy as np

from fastnoise.core import threads as _threads

from fastnoise.core.model import register_model
from fastnoise.models.lidar import declarations as _declarations
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.core.deprecation import positional_options, renamed_keywords
from fastnoise.models.lidar.geometry import (
    LAST_FRAME,
    MIN_PER_THREAD,
    apply_inputs,
    bad_ray,
    first_index as _first_index,
    frame_geometry,
    frame_index,
    noisy_points,
    unit_axis,
    ray_poses_input,
    rays_output,
)
from fastnoise.models.lidar.params import (
    HITPOINT_BASED,
    RAY_BASED,
    rgl_kwargs,
)
from fastnoise.models.lidar.range_noise import RangeNoise

cnp.import_array()

__all__ = ["HITPOINT_BASED", "RAY_BASED", "LidarNoise", "RangeNoise"]

# The last frame of the lidar streams (frame 2**62 - 1 is reserved), as C takes it.
cdef uint64_t _FRAME_END = LAST_FRAME
# The 0.2 names of apply's extra outputs (rule: out_<name>), still taken for a release.
_RENAMED_OUTPUTS = {"distances_out": "out_distances", "hit_mask_out": "out_hit_mask"}

cdef class LidarNoise(_FrameCounter):
    """LidarNoise(*, ray_angular_noise_mean=0.0, ray_angular_noise_stddev=0.0,
    hitpoint_angular_noise_mean=0.0, hitpoint_angular_noise_stddev=0.0,
    distance_noise_mean=0.0, distance_noise_stddev_base=0.0,
    distance_noise_stddev_rise_per_meter=0.0, axis=(0.0, 1.0, 0.0), seed=None)
--

RGL's Gaussian lidar noise (the RGL GPU lidar noise document), all three kinds at
    once, seeded. All parameters are keyword-only; angles are in rad with
    ``|angle| <= 1000``; lengths in m with ``|distance_noise_mean|`` and
    ``distance_noise_stddev_base`` ``<= 1e9`` m and
    ``distance_noise_stddev_rise_per_meter <= 1000``.

    Parameters
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

    Angles turn right-handed about ``axis`` (``Rot(axis, +e)``, RGL's current
    kernels: about Y a positive angle decreases atan2(z, x)); ``from_rgl`` mirrors the
    legacy API, which turned the other way. Unlike RGL, ray-based and hitpoint-based
    angular noise may both be active. ``apply`` does hitpoint angular noise, then
    distance noise (RGL's order). Noise of point i of frame f depends only on
    (seed, f, i): see the module docstring for the streams.

    Frames: ``apply(points)`` without ``frame`` noises the model's next frame, the
    frame counter ``model.frame``, and advances it by one; ``perturb_rays`` without
    ``frame`` uses the counter's current frame and does not advance it (the rays of
    the scan that the next ``apply`` noises: perturb, raycast, then ``apply``, and the
    scan has one frame). ``frame=k`` is frame k (random access) and leaves the counter
    alone. ``state['position']`` is the counter, ``{"frame": n}``; ``reset()`` sets
    it to 0. The counter stops at frame 2**62 - 2, the last one: ``apply`` without
    ``frame`` there raises OverflowError naming ``frame``.

    Limits: frames lie in [0, 2**62 - 2] (frame 2**62 - 1 is reserved: its streams
    hold ``RangeNoise``'s bias), and a call's indices ``first_index .. first_index +
    N - 1`` must all lie below 2**64 (nothing wraps). A hit is at most 1e9 m
    (``lidar_geometry.MAX_RANGE``) from the lidar origin; a point farther away (by
    ``|p - t|`` or by its given distance) is a non-hit, as a non-finite one is. With
    the parameters' bounds this keeps every result of a hit finite, for float32 and
    float64 data.

    Threads: one ``LidarNoise`` may be shared by any number of threads. A call with
    ``frame=k`` reads the model only and takes no lock; each ``apply`` without
    ``frame`` takes its own frame under the object's lock. Each call gives the same
    bits as it would alone (for the frame it got), whatever runs beside it, and the
    kernels run with the GIL released.
    """

    model_name = "lidar"
    declaration = _declarations.LIDAR
    _frame_end = LAST_FRAME  # frame 2**62 - 1 is reserved (RangeNoise's bias)
    _frame_optional = True  # 0.2 states had no frame counter: they load as frame 0

    cdef readonly double ray_angular_noise_mean, ray_angular_noise_stddev
    cdef readonly double hitpoint_angular_noise_mean, hitpoint_angular_noise_stddev
    cdef readonly double distance_noise_mean, distance_noise_stddev_base
    cdef readonly double distance_noise_stddev_rise_per_meter
    cdef object _axis       # unit axis (float64 array), renormalized
    cdef object _axis_arg   # the axis as given (list of 3 floats), for params

    def __init__(self, *, ray_angular_noise_mean=0.0, ray_angular_noise_stddev=0.0,
                 hitpoint_angular_noise_mean=0.0, hitpoint_angular_noise_stddev=0.0,
                 distance_noise_mean=0.0, distance_noise_stddev_base=0.0,
                 distance_noise_stddev_rise_per_meter=0.0, axis=(0.0, 1.0, 0.0),
                 seed=None):
        # everything is checked before anything is set: a refused call changes nothing
        vals = _declarations.LIDAR.check_params({
            "ray_angular_noise_mean": ray_angular_noise_mean,
            "ray_angular_noise_stddev": ray_angular_noise_stddev,
            "hitpoint_angular_noise_mean": hitpoint_angular_noise_mean,
            "hitpoint_angular_noise_stddev": hitpoint_angular_noise_stddev,
            "distance_noise_mean": distance_noise_mean,
            "distance_noise_stddev_base": distance_noise_stddev_base,
            "distance_noise_stddev_rise_per_meter": distance_noise_stddev_rise_per_meter,
            "axis": axis})
        k = unit_axis("axis", vals["axis"])  # the rule the spec states: of unit length
        ss = as_seed_sequence(seed)
        key = model_key(ss, "lidar")
        # nothing below can fail
        self.ray_angular_noise_mean = vals["ray_angular_noise_mean"]
        self.ray_angular_noise_stddev = vals["ray_angular_noise_stddev"]
        self.hitpoint_angular_noise_mean = vals["hitpoint_angular_noise_mean"]
        self.hitpoint_angular_noise_stddev = vals["hitpoint_angular_noise_stddev"]
        self.distance_noise_mean = vals["distance_noise_mean"]
        self.distance_noise_stddev_base = vals["distance_noise_stddev_base"]
        self.distance_noise_stddev_rise_per_meter = vals["distance_noise_stddev_rise_per_meter"]
        self._axis = k
        self._axis_arg = vals["axis"].tolist()  # as given: the state rebuilds from it
        self._seed_seq = ss
        self._key = key
        self._frame = 0  # a new model (or one built again) starts at frame 0
        self._built = True

    @classmethod
    def from_rgl(cls, angular_noise_type, angular_noise_stddev, angular_noise_mean,
                 distance_noise_stddev_base, distance_noise_stddev_rise_per_meter,
                 distance_noise_mean, *, axis=(0.0, 1.0, 0.0), seed=None):
        """The parameters of RGL's legacy ``rgl_lidar_set_gaussian_noise_params`` (RGL
        <= 0.10), in its order: ``angular_noise_type`` is ``RAY_BASED`` (0) or
        ``HITPOINT_BASED`` (1); angles in rad, lengths in m.

        That API turned rays and hit points by ``Rot_y(-angle)``, so a positive
        ``angular_noise_mean`` increases atan2(z, x); the plain constructor follows
        RGL's current kernels (``Rot(axis, +angle)``, right-handed), so this maps the
        angular mean to ``-angular_noise_mean`` (the stddev keeps its sign: the draws
        are symmetric)."""
        return cls(axis=axis, seed=seed, **rgl_kwargs(
            angular_noise_type, angular_noise_stddev, angular_noise_mean,
            distance_noise_stddev_base, distance_noise_stddev_rise_per_meter,
            distance_noise_mean))

    @property
    def axis(self):
        """Unit rotation axis in the lidar frame (copy)."""
        check_built(self)
        return self._axis.copy()

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    def _model_params(self):
        # the axis as given, not the renormalized ``axis``: a rebuild then gives the
        # same renormalization, bit for bit
        return {**_declarations.LIDAR.state_params(self), "axis": list(self._axis_arg)}

    # ---- noise -----------------------------------------------------------------------
    def perturb_rays(self, ray_poses, lidar_pose=None, frame=None, first_index=0, out=None):
        """Ray-based angular noise: turn each ray pose about the lidar axis through the
        lidar origin by e ~ N(ray_angular_noise_mean, ray_angular_noise_stddev) rad.

        Parameters
        ----------
        ray_poses : (N, 3, 4) or (N, 4, 4) array
            Ray transforms (ray -> caller's frame; translations in m). A ray's direction
            is its local +Z (third column), its origin the translation. The top three
            rows must be finite, every entry within +-1e30. float32 data (any byte
            order) stays float32; other real types become float64.
        lidar_pose : (4, 4) or (3, 4) rigid transform, optional
            The lidar's pose in the caller's frame (lidar -> caller). ``None``: the rays
            are given in the lidar frame. In the lidar frame the rotation is applied on
            the left: r' = R_axis(e) r, i.e. r' = L^-1 R_axis(e) L r with L its inverse.
        frame : int or None
            Frame number (selects the noise; 0 <= frame <= 2**62 - 2). ``None``
            (default): the frame counter's current frame, not advanced, so the next
            ``apply`` without ``frame`` noises the same scan's hits with the same frame.
        first_index : int
            Index of ``ray_poses[0]`` in the frame's full ray list (for pieces);
            ``first_index + N <= 2**64``.
        out : ndarray, optional
            Same shape and dtype as the result, C-contiguous, aligned, writeable; may
            be ``ray_poses`` itself (in place). An ``out`` that shares memory with
            ``ray_poses`` any other way is refused (ValueError).

        Returns the noised poses (same shape; float32 stays float32, else float64). The
        bottom row of 4x4 poses is copied unchanged.
        """
        check_built(self)
        poses = ray_poses_input(ray_poses)
        cdef uint64_t fr = self._frame if frame is None else frame_index("frame", frame)
        cdef uint64_t first = _first_index(first_index, poses.shape[0])
        kw, t, _ = frame_geometry(self._axis, lidar_pose)
        cdef size_t n = <size_t>poses.shape[0]
        cdef size_t stride = 4 * <size_t>poses.shape[1]
        cdef const void *src = cnp.PyArray_DATA(<cnp.ndarray>poses)
        cdef size_t bad
        if poses.dtype == np.float32:
            bad = fn_lidar_rays_check_f32(<const float *>src, n, stride)
        else:
            bad = fn_lidar_rays_check_f64(<const double *>src, n, stride)
        if bad < n:
            raise bad_ray(poses, bad)
        res = rays_output(out, poses)
        cdef cnp.ndarray[double, ndim=1] kv = np.ascontiguousarray(kw, dtype=np.float64)
        cdef cnp.ndarray[double, ndim=1] tv = np.ascontiguousarray(t, dtype=np.float64)
        cdef double mean = self.ray_angular_noise_mean
        cdef double sd = self.ray_angular_noise_stddev
        cdef uint64_t key = self._key
        cdef void *data = cnp.PyArray_DATA(<cnp.ndarray>res)
        cdef int rc = 0
        if mean == 0.0 and sd == 0.0:
            return res
        if res.dtype == np.float32:
            with nogil:
                rc = fn_lidar_rays_f32(key, fr, &kv[0], &tv[0], mean, sd, first, n, stride,
                                       <float *>data)
        else:
            with nogil:
                rc = fn_lidar_rays_f64(key, fr, &kv[0], &tv[0], mean, sd, first, n, stride,
                                       <double *>data)
        if rc != 0:  # checked above: the C guard against wrapping indices
            raise OverflowError(f"frame={fr} or first_index={first} + {n} rays runs past the "
                                "end of the lidar streams")
        return res

    def apply(self, points, distances=None, hit_mask=None, *args, lidar_pose=None, frame=None,
              first_index=0, out=None, return_local=False, drop_non_hits=False, threads=1,
              out_distances=None, out_hit_mask=None, **renamed):
        """Hitpoint angular noise, then distance noise, on a cloud of hit points.

        Parameters
        ----------
        points : (N, 3) array
            Hit points (m) in the caller's frame (the lidar frame if ``lidar_pose`` is
            None). float32 data (any byte order) stays float32; other real types
            become float64. Any strides, byte order and alignment (copied when the
            kernel cannot read them as they are; never written unless also ``out``).
            Native float32 or float64 rows of records (each point's x, y, z adjacent,
            rows ``strides[0]`` bytes apart, any alignment: a view of a PointCloud2's
            data) are read where they are.
        distances : (N,) array, optional
            Distances (m) from the lidar origin, read in the points' dtype (a value
            beyond float32's range is inf there); default ``|p - lidar origin|``
            (scaled where its squares would overflow, so a finite point's distance is
            finite unless it exceeds the dtype's range). A non-finite distance, or one
            above 1e9 m, marks a non-hit.
        hit_mask : (N,) bool array, optional
            False marks a non-hit. Points with non-finite coordinates, or farther than
            1e9 m from the lidar origin, are non-hits too.
        lidar_pose : (4, 4) or (3, 4) rigid transform, optional
            The lidar's pose in the caller's frame (lidar -> caller); ``None`` means the
            points are in the lidar frame. Finite; rotation part orthonormal with
            det +1 (within 1e-6); translation within +-1e30 m.
        frame : int or None
            Frame number, 0 <= frame <= 2**62 - 2. ``None`` (default): the frame
            counter's frame, which the call advances by one (under the object's lock);
            OverflowError naming ``frame`` at its end, frame 2**62 - 2.
        first_index : int
            Index of ``points[0]`` in the frame's full cloud (for pieces);
            ``first_index + N <= 2**64``.
        out : (N, 3) array, optional
            Receives the noised points (may be ``points`` itself, to work in place). It
            always holds all N points, also with ``drop_non_hits``. C-contiguous and
            aligned, or rows of records as for ``points`` (only x, y, z of each record
            are written).
        return_local : bool
            Also return the noised cloud in the lidar frame, from the same draws (the
            same array as ``points`` when ``lidar_pose`` is None). Non-finite non-hits
            may map to NaN there, and a non-hit within a factor ~2 of the dtype's
            largest value to inf.
        drop_non_hits : bool
            Return only the hits' points and distances, as new arrays (``hit_mask``
            keeps length N, so the rows can be traced back).
        out_distances, out_hit_mask : (N,) arrays, optional
            Receive the distances (points' dtype) and the hit mask (bool); with ``out``
            they let a real-time loop reuse its buffers every frame (no allocation).
            (0.2 named them ``distances_out`` and ``hit_mask_out``: those spellings
            still work for one release, with a DeprecationWarning.)
        threads : int
            Split the points across this many threads; the result does not depend on it.

        Every ``out``-type array must be exactly the result's shape and native dtype,
        C-contiguous (``out`` may also be rows of records), aligned and writeable. Each
        may be the very input it replaces (``out`` is ``points``, ``out_distances`` is
        ``distances``, ``out_hit_mask`` is ``hit_mask``: in place, element for
        element); any other sharing of memory between an output and an input, or
        between two outputs, is refused (ValueError): a partial overlap would read
        values the call already wrote.

        Returns
        -------
        NoisyPoints(points, distances, hit_mask, local_points)

        Hit i, at offset q = p - t from the lidar origin t, with axis k (in the caller's
        frame), e_i ~ N(hitpoint mean, stddev), z_i ~ N(0, 1) (``fn_lidar_hit`` in
        ``csrc/lidar_point.h``): ``q' = Rot(k, e_i) q`` and, as RGL rewrites its
        DISTANCE field, ``d = |q'|`` (the given distance is used only without angular
        noise); then ``eps = distance_noise_mean + (base + rise * d) z_i``,
        ``q'' = q' (1 + eps / |q'|)``, ``d' = d + eps``. Non-hits are copied unchanged.
        A hit at the lidar origin has no direction and is left in place (eps = 0).
        """
        if renamed:  # the 0.2 names of the extra outputs
            out_distances, out_hit_mask = renamed_keywords(
                "LidarNoise.apply", renamed, _RENAMED_OUTPUTS,
                {"out_distances": out_distances, "out_hit_mask": out_hit_mask})
        if args:  # 0.2 callers passed these by position
            (lidar_pose, frame, first_index, out, return_local, drop_non_hits, threads,
             out_distances, out_hit_mask) = positional_options(
                "LidarNoise.apply", args,
                ("lidar_pose", "frame", "first_index", "out", "return_local",
                 "drop_non_hits", "threads", "out_distances", "out_hit_mask"),
                (lidar_pose, frame, first_index, out, return_local, drop_non_hits, threads,
                 out_distances, out_hit_mask),
                (None, None, 0, None, False, False, 1, None, None))
        check_built(self)
        cdef uint64_t fr
        (pts, dist_in, mask_in, frame, first, nthreads, kw, t, to_local, pout, dout, mout,
         lout, return_local, drop_non_hits) = apply_inputs(
            self._axis, points, distances, hit_mask, lidar_pose, frame, first_index, out,
            return_local, drop_non_hits, threads, out_distances, out_hit_mask)
        if frame is None:  # every check passed: take the counter's frame
            take_frames(self, 1, _FRAME_END, &fr)
        else:
            fr = frame
        dt = pts.dtype
        cdef Py_ssize_t n = pts.shape[0]
        cdef _PointsCall call = new_points_call()
        cdef int i
        call.prm.key = self._key
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
        call.mask_in = None if mask_in is None else mask_in.view(np.uint8)
        call.points_out = pout
        call.in_stride = pts.strides[0] if n > 1 else 3 * dt.itemsize
        call.out_stride = pout.strides[0] if n > 1 else 3 * dt.itemsize
        call.dist_out = dout
        call.mask_out = mout.view(np.uint8)
        call.local_out = lout
        _threads.run_split(call.run, n, _threads.parts(n, nthreads, MIN_PER_THREAD))

        return noisy_points(pout, dout, mout, lout, return_local, drop_non_hits)


register_model(LidarNoise)
