"""CARLA's ray-cast lidar noise (``sensor.lidar.ray_cast``, ``RayCastLidar.cpp``) on point
clouds in the sensor frame, keyed per point.

Randomness rule: with the key ``fastnoise.core.seeding.model_key(seed, "carla_lidar")``,
point ``i`` of frame ``f`` uses raw word ``i`` of stream ``4 f`` (general drop-off),
float32 normal ``i`` of stream ``4 f + 1`` (range noise) and raw word ``i`` of stream
``4 f + 2`` (intensity drop-off); a uniform is word / 2**32 (``csrc/carla.h``). So a
point's result depends only on (seed, f, i): pieces (``first_index``), threads and
frames × points batches give the same bits as whole clouds.
"""

cimport cython
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint64_t

from fastnoise.core.model cimport _FrameCounter, check_built, take_frames

import numpy as np

from fastnoise.core import threads as _threads

from fastnoise.core.model import register_model
from fastnoise.models.lidar import declarations as _declarations
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.core.deprecation import positional_options
from fastnoise.models.lidar.carla_points import CarlaPoints, carla_inputs
from fastnoise.models.lidar.geometry import LAST_FRAME

cnp.import_array()

__all__ = ["CarlaLidarNoise", "CarlaPoints"]


cdef extern from "carla.h" nogil:
    ctypedef struct fn_carla_params:
        uint64_t key
        uint64_t frame
        double general_rate
        double atten
        double noise_stddev
        double limit
        double zero

    int fn_carla_points_f64(const fn_carla_params *p, uint64_t first_index, size_t n,
                            size_t cols, const double *inp, double *out, uint8_t *keep)
    int fn_carla_points_f32(const fn_carla_params *p, uint64_t first_index, size_t n,
                            size_t cols, const float *inp, float *out, uint8_t *keep)
    size_t fn_carla_compact_f64(size_t n, size_t cols, const uint8_t *keep, double *rows)
    size_t fn_carla_compact_f32(size_t n, size_t cols, const uint8_t *keep, float *rows)


cdef object _compact(cnp.ndarray res, cnp.ndarray keep):
    """res[keep] for a result array this call made: the kept rows moved to the front in
    place (one C pass, no second array), returned as a view of the first M rows."""
    cdef size_t n = <size_t>cnp.PyArray_DIM(res, 0)
    cdef size_t cols = <size_t>cnp.PyArray_DIM(res, 1)
    cdef const uint8_t *k = <const uint8_t *>cnp.PyArray_DATA(keep)
    cdef void *rows = cnp.PyArray_DATA(res)
    cdef size_t m
    if cnp.PyArray_TYPE(res) == cnp.NPY_FLOAT32:
        with nogil:
            m = fn_carla_compact_f32(n, cols, k, <float *>rows)
    else:
        with nogil:
            m = fn_carla_compact_f64(n, cols, k, <double *>rows)
    return res[:m]


# Only this module makes _CarlaCall objects (see _CarlaCall.__cinit__).
_TOKEN = object()
# Smallest piece a threaded call hands to one thread.
_MIN_PER_THREAD = 1 << 14
# The last frame of the streams (as the lidar's: frame 2**62 - 1 is reserved).
cdef uint64_t _FRAME_END = LAST_FRAME


@cython.auto_pickle(False)
cdef class _CarlaCall:
    """One frame's arrays and parameters, so pieces can run on threads. Internal: made
    by CarlaLidarNoise.apply only (constructing one from Python raises)."""
    cdef fn_carla_params prm
    cdef uint64_t first_index
    cdef cnp.ndarray inp, out, keep

    def __cinit__(self, token=None):
        if token is not _TOKEN:
            raise TypeError("_CarlaCall is internal to CarlaLidarNoise.apply and cannot be "
                            "constructed")

    def run(self, Py_ssize_t start, Py_ssize_t count):
        if self.inp is None or self.out is None or self.keep is None:
            raise RuntimeError("_CarlaCall has no arrays")
        if start < 0 or count < 0 or start + count > cnp.PyArray_DIM(self.inp, 0):
            raise ValueError(f"start={start}, count={count} lie outside the arrays")
        cdef size_t cols = <size_t>cnp.PyArray_DIM(self.inp, 1)
        cdef char *src = <char *>cnp.PyArray_DATA(self.inp)
        cdef char *dst = <char *>cnp.PyArray_DATA(self.out)
        cdef uint8_t *keep = (<uint8_t *>cnp.PyArray_DATA(self.keep)) + start
        cdef uint64_t first = self.first_index + <uint64_t>start
        cdef size_t n = <size_t>count
        cdef int rc
        if cnp.PyArray_TYPE(self.inp) == cnp.NPY_FLOAT32:
            with nogil:
                rc = fn_carla_points_f32(&self.prm, first, n, cols,
                                         (<float *>src) + start * cols,
                                         (<float *>dst) + start * cols, keep)
        else:
            with nogil:
                rc = fn_carla_points_f64(&self.prm, first, n, cols,
                                         (<double *>src) + start * cols,
                                         (<double *>dst) + start * cols, keep)
        if rc != 0:  # checked before: the C guard against wrapping indices
            raise OverflowError(f"frame={self.prm.frame} or first_index={first} + {n} points "
                                "runs past the end of the carla_lidar streams")


cdef class CarlaLidarNoise(_FrameCounter):
    """CarlaLidarNoise(*, atmosphere_attenuation_rate=0.004, dropoff_general_rate=0.45,
    dropoff_intensity_limit=0.8, dropoff_zero_intensity=0.4, noise_stddev=0.0,
    seed=None)
--

CARLA's ray-cast lidar noise (``sensor.lidar.ray_cast``), with CARLA's blueprint
    defaults, seeded. Parameters keep CARLA's attribute names.

    Parameters
    ----------
    atmosphere_attenuation_rate : float
        a in I = e^(-a d), 1/m (0 <= a <= 1e6).
    dropoff_general_rate : float
        Probability that a ray is lost before raycasting, in [0, 1]; active only above
        FLT_EPSILON (1.19e-7), as in CARLA.
    dropoff_intensity_limit : float
        Points with I above it are always kept, in (0, 1e6].
    dropoff_zero_intensity : float
        p0: a point with I <= limit is kept with probability 1 - p0 + (p0 / limit) I,
        in [0, 1].
    noise_stddev : float
        Standard deviation (m) of the noise that moves each point along its ray from
        the sensor origin (0 <= sd <= 1e9); active only above FLT_EPSILON, as in CARLA.
    seed : int, numpy.random.SeedSequence or None

    Per point p (sensor frame, m), as ``RayCastLidar.cpp`` (``PreprocessRays``,
    ``ComputeDetection``, ``PostprocessDetection``; ``fn_carla_point`` in
    ``csrc/lidar_point.h``): the general drop-off (u1 < rate), then I = e^(-a |p|)
    from the noise-free distance, then p += sd z p / |p|, then the intensity drop-off
    (kept if I > limit, else if u2 < 1 - p0 + (p0 / limit) I). CARLA drops rays
    before it traces them; for a traced cloud that is a per-point drop. A point with a
    non-finite coordinate (or whose |p| overflows the dtype) is dropped and copied
    unchanged: |p|^2 is computed in the cloud's dtype, so a float32 cloud drops every
    point farther than sqrt(FLT_MAX) ~ 1.8e19 m from the origin, while float64 keeps
    points up to ~1.3e154 m (pass float64 for such clouds). The intensity is e^(-a d)
    to a few ulp (fastnoise's own exp, floored at e^-708 like ``fn_exp_f64``).

    Frames lie in [0, 2**62 - 2]; a call's point indices ``first_index .. first_index
    + N - 1`` lie below 2**64. ``apply(points)`` without ``frame`` noises the model's
    next frame, the frame counter ``model.frame``, and advances it (by F for F frames
    at once); ``frame=k`` is random access and leaves the counter alone.
    ``state['position']`` is the counter, ``{"frame": n}``; ``reset()`` sets it to 0;
    the counter stops at frame 2**62 - 2 (``apply`` without ``frame`` that would pass
    it raises OverflowError naming ``frame``). One object may be shared by threads: a
    call with ``frame=k`` takes no lock, each call without ``frame`` takes its own
    frames under the object's lock; the kernels run with the GIL released.
    """

    model_name = "carla_lidar"
    declaration = _declarations.CARLA_LIDAR
    _frame_end = LAST_FRAME  # frame 2**62 - 1 is reserved, as for the lidar
    _frame_optional = True  # 0.2 states had no frame counter: they load as frame 0

    cdef readonly double atmosphere_attenuation_rate, dropoff_general_rate
    cdef readonly double dropoff_intensity_limit, dropoff_zero_intensity, noise_stddev
    cdef fn_carla_params prm

    def __init__(self, *, atmosphere_attenuation_rate=0.004, dropoff_general_rate=0.45,
                 dropoff_intensity_limit=0.8, dropoff_zero_intensity=0.4, noise_stddev=0.0,
                 seed=None):
        # everything is checked before anything is set: a refused call changes nothing
        v = _declarations.CARLA_LIDAR.check_params({
            "atmosphere_attenuation_rate": atmosphere_attenuation_rate,
            "dropoff_general_rate": dropoff_general_rate,
            "dropoff_intensity_limit": dropoff_intensity_limit,
            "dropoff_zero_intensity": dropoff_zero_intensity,
            "noise_stddev": noise_stddev})
        ss = as_seed_sequence(seed)
        key = model_key(ss, "carla_lidar")
        # nothing below can fail
        self.atmosphere_attenuation_rate = v["atmosphere_attenuation_rate"]
        self.dropoff_general_rate = v["dropoff_general_rate"]
        self.dropoff_intensity_limit = v["dropoff_intensity_limit"]
        self.dropoff_zero_intensity = v["dropoff_zero_intensity"]
        self.noise_stddev = v["noise_stddev"]
        self.prm.key = key
        self.prm.frame = 0
        self.prm.general_rate = self.dropoff_general_rate
        self.prm.atten = self.atmosphere_attenuation_rate
        self.prm.noise_stddev = self.noise_stddev
        self.prm.limit = self.dropoff_intensity_limit
        self.prm.zero = self.dropoff_zero_intensity
        self._seed_seq = ss
        self._key = key
        self._frame = 0  # a new model (or one built again) starts at frame 0
        self._built = True

    # ---- noise -----------------------------------------------------------------------
    def apply(self, points, *args, frame=None, first_index=0, drop=None, out=None, threads=1):
        """CARLA's drop-off, intensity and range noise on a point cloud.

        Parameters
        ----------
        points : (N, C) or (F, N, C) array, C >= 4
            Rows x, y, z (m, sensor frame), intensity, then any extra columns (kept as
            they are). (F, N, C): F frames ``frame .. frame + F - 1`` at once. float32
            stays float32; other real types become float64. Never modified unless
            passed as ``out``.
        frame : int or None
            Frame number (of the first frame), 0 <= frame <= 2**62 - 2 (all frames).
            ``None`` (default): the frame counter's frame, which the call advances by
            one (by F for (F, N, C) points), under the object's lock.
        first_index : int
            Index of the first point in its frame's full cloud (for pieces);
            ``first_index + N <= 2**64``.
        drop : bool or None
            Return only the kept points (only for (N, C) input; default there): without
            ``out``, the first M rows of the call's own N-row array (kept rows moved to
            the front in place); with ``out``, a new array. False or (F, N, C) input:
            every row, with the mask.
        out : array, optional
            Receives every row (same shape and dtype as the result; may be ``points``
            itself, in place). Rows whose mask is False hold what the point would
            have been.
        threads : int
            Split each frame's points across this many threads (same bits).

        Returns
        -------
        CarlaPoints(points, mask)
            points: the kept rows (M, C), or all rows; column 3 is the intensity
            e^(-a d) of the noise-free distance, x, y, z moved by the noise. mask: (N,)
            or (F, N) bool, True where the point is kept.
        """
        if args:  # 0.2 callers passed these by position
            frame, first_index, drop, out, threads = positional_options(
                "CarlaLidarNoise.apply", args, ('frame', 'first_index', 'drop', 'out', 'threads'),
                (frame, first_index, drop, out, threads), (None, 0, None, None, 1))
        check_built(self)
        cdef uint64_t fr
        pts, frame, first, nthreads, res, keep, drop = carla_inputs(
            points, frame, first_index, drop, out, threads)
        # (no negative indices here: the module is built with wraparound=False)
        n = int(pts.shape[pts.ndim - 2])
        cols = int(pts.shape[pts.ndim - 1])
        frames = pts.reshape(-1, n, cols)
        if frame is None:  # every check passed: take the counter's frames
            take_frames(self, <uint64_t>frames.shape[0], _FRAME_END, &fr)
        else:
            fr = frame
        outs = res.reshape(-1, n, cols)
        keeps = keep.reshape(-1, n).view(np.uint8)
        cdef _CarlaCall call
        for f in range(frames.shape[0]):
            call = _CarlaCall(_TOKEN)
            call.prm = self.prm
            call.prm.frame = fr + f
            call.first_index = first
            call.inp = frames[f]
            call.out = outs[f]
            call.keep = keeps[f]
            _threads.run_split(call.run, n, _threads.parts(n, nthreads, _MIN_PER_THREAD))
        if drop:
            # a caller's out keeps every row; an array of our own is compacted in place
            kept = res[keep] if out is not None else _compact(res, keep)
            return CarlaPoints(kept, keep)
        return CarlaPoints(res, keep)


register_model(CarlaLidarNoise)
