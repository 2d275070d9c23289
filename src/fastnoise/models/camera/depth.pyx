"""Gazebo's depth-camera noise: Gaussian noise on depth images, in metres.

Randomness rule: the depth noise of pixel ``j = y * W + x`` in frame ``f`` uses float32
normal ``j`` of stream ``f`` under ``model_key(seed, "camera")``, the very normal that
:class:`~fastnoise.models.camera.image_noise.ImageNoise` with the same seed draws for that pixel.
The key is the camera's on purpose: gz-rendering's Ogre 2 RGB-D noise pass
(``gaussian_noise_depth_fs.glsl``) draws one Gaussian per pixel and adds it to the
point and (shaped) to the colour, so an RGB-D camera's colour and depth noise share a
pixel's normal. The key tag ``depth_camera`` stays reserved
(``fastnoise.core.streams.RESERVED_TAGS``) for a depth noise keyed apart from the
colour, should one be wanted.

This is a Cython module, not plain Python, because the model contract's base
(``fastnoise.core.model.Model``) keeps the seed sequence and the object's lock in C
fields that a Python subclass cannot set or take: a Python subclass would report no
seed in its ``state`` and could not reserve frames under the lock.
"""

from libc.stdint cimport uint64_t

from fastnoise.core.model cimport (
    _FrameCounter,
    check_built,
    lock_model,
    take_frames,
    unlock_model,
)

import math

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core import threads as _threads
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.camera import declarations as _declarations
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.core.deprecation import positional_options

# gz-rendering depth_camera_final_fs.glsl: tolerance of its clip tests, m
CLIP_TOLERANCE = 1e-6
#: gz-rendering gaussian_noise_depth_fs.glsl: rand() returns clamp(r, 0.001, 1.0)
GAZEBO_UNIFORM_FLOOR = 0.001


def radius_cap(uniform_floor):
    """The Box-Muller radius bound ``sqrt(-2 ln u)`` of a uniform floor ``u`` (0.0, no
    cap, for None)."""
    if uniform_floor is None:
        return 0.0
    return math.sqrt(-2.0 * math.log(uniform_floor))
# The frame counter stops here: apply() without frame= refuses to take it (no wrap).


cdef extern from "depth.h" nogil:
    ctypedef struct fn_depth_params:
        uint64_t key, frame
        double mean, stddev
        int clip_far, clip_near
        double far, near
        double radius_cap
    void fn_depth_noise_f32(const fn_depth_params *p, uint64_t first, size_t n,
                            const float *d, float *out)
    void fn_depth_noise_f64(const fn_depth_params *p, uint64_t first, size_t n,
                            const double *d, double *out)


# The arithmetic is csrc/depth.h's (one vectorized pass per pixel, the normals drawn a
# chunk at a time); these hand it pixels [first, first + len(d)) of a frame.
cdef fn_depth_params _params(uint64_t key, uint64_t frame, double mean, double sd,
                             bint clip_far, double far, bint clip_near, double near,
                             double cap):
    cdef fn_depth_params p
    p.key, p.frame, p.mean, p.stddev = key, frame, mean, sd
    p.clip_far, p.far, p.clip_near, p.near = clip_far, far, clip_near, near
    p.radius_cap = cap
    return p


def _noise_f32(uint64_t key, uint64_t frame, uint64_t first, const float[::1] d,
               float[::1] out, double mean, double sd, bint clip_far, double far,
               bint clip_near, double near, double cap):
    cdef fn_depth_params p = _params(key, frame, mean, sd, clip_far, far, clip_near, near,
                                     cap)
    if d.shape[0] == 0:
        return
    with nogil:
        fn_depth_noise_f32(&p, first, <size_t>d.shape[0], &d[0], &out[0])


def _noise_f64(uint64_t key, uint64_t frame, uint64_t first, const double[::1] d,
               double[::1] out, double mean, double sd, bint clip_far, double far,
               bint clip_near, double near, double cap):
    cdef fn_depth_params p = _params(key, frame, mean, sd, clip_far, far, clip_near, near,
                                     cap)
    if d.shape[0] == 0:
        return
    with nogil:
        fn_depth_noise_f64(&p, first, <size_t>d.shape[0], &d[0], &out[0])


cdef class DepthNoise(_FrameCounter):
    """DepthNoise(mean=0.0, stddev=0.0, *, near=None, far=None, uniform_floor=None,
               seed=None)
--

Gaussian noise on depth images, in metres (Gazebo's depth camera).

    Every finite depth ``d`` (m) becomes ``d + mean + stddev * Z``. NaN and +-inf (no
    return) are kept; there is no clamp to [0, 1] (depth is not an intensity).

    Parameters
    ----------
    mean : float
        Noise mean, m, ``|mean| <= 1e30``.
    stddev : float
        Noise standard deviation, m, ``0 <= stddev <= 1e30``.
    seed : int, numpy.random.SeedSequence or None
        ``None`` draws fresh entropy, kept in ``seed`` so the run can be reproduced.
    near, far : float or None (keyword only)
        Clip distances, m (Gazebo's ``<camera><clip>``), ``near < far`` when both are
        given, ``|value| <= 1e30``. gz-rendering's Ogre 2 depth camera clips again
        after its noise pass (``depth_camera_final_fs.glsl``): a noisy depth
        ``> far - 1e-6`` becomes +inf, one ``< near + 1e-6`` becomes -inf (its
        min/max default to -inf/+inf). Gazebo tests the point's distance against
        ``far``; a depth image has only the depth along the optical axis, which is
        tested here (the same on the axis, fewer clipped off it). ``None``: no clip.
    uniform_floor : float or None (keyword only)
        ``None`` (default): ``Z`` is a plain standard normal. A number ``u`` in (0, 1):
        ``Z`` is drawn as by Box-Muller from uniforms floored at ``u``, as
        gz-rendering's depth-noise shader (``gaussian_noise_depth_fs.glsl``,
        ``clamp(r, 0.001, 1.0)``) does with ``u = 0.001``: the radius never exceeds
        ``sqrt(-2 ln u)`` (3.7169 at 0.001), so ``|Z| <= 3.7169`` and ``|d' - d - mean|
        <= 3.7169 stddev``. The distribution is the shader's exactly: where the pair
        ``(Z, Z2)`` (``Z2`` normal ``2**63 + j`` of the same stream) lies outside that
        radius, ``Z`` is scaled onto it; 0.1 % of the pixels. ``load_sensors`` sets
        0.001 (:data:`GAZEBO_UNIFORM_FLOOR`) for Gazebo's depth and RGB-D cameras.

    Notes
    -----
    Pixel ``j = y * W + x`` of frame ``f`` uses float32 normal ``j`` of stream ``f``
    under ``model_key(seed, "camera")``: the same ``Z`` as :class:`ImageNoise` with the
    same seed, so an RGB-D camera's depth and colour noise share a pixel's normal, as
    gz-rendering's ``gaussian_noise_depth_fs.glsl`` does. ``Z`` is converted to the
    image's dtype, then ``n = Z * stddev + mean`` and ``d + n`` are computed in that
    dtype (float32 or float64), with no fused multiply-add.

    ``state['position']`` is the frame counter, ``{"frame": n}``: ``apply`` without
    ``frame`` uses it and advances it; it stops at 2**64 - 1 (``apply`` without
    ``frame`` then raises OverflowError naming ``frame``). One DepthNoise may be
    shared by threads: each ``apply`` without ``frame`` takes its own frame under the
    object's lock. ``reset()`` sets the counter back to 0.

    Examples
    --------
    >>> import numpy as np
    >>> from fastnoise import DepthNoise
    >>> noise = DepthNoise(stddev=0.01, seed=42, near=0.1, far=10.0)
    >>> depth = np.full((480, 640), 2.5, np.float32)
    >>> first = noise.apply(depth)  # frame 0; the next call uses frame 1
    >>> bool(np.array_equal(noise.apply(depth, frame=0), first))  # random access
    True
    """

    model_name = "depth"
    declaration = _declarations.DEPTH

    cdef readonly double mean
    cdef readonly double stddev
    cdef readonly object near
    cdef readonly object far
    cdef readonly object uniform_floor
    cdef double _cap

    def __init__(self, mean=0.0, stddev=0.0, *args, near=None, far=None, seed=None,
                 uniform_floor=None):
        if args:  # 0.2 callers passed these by position
            seed, = positional_options(
                "DepthNoise()", args, ('seed',),
                (seed,), (None,))
        # everything is checked into locals first: a refused call changes nothing
        v = _declarations.DEPTH.check_params(
            {"mean": mean, "stddev": stddev, "near": near, "far": far,
             "uniform_floor": uniform_floor})
        mean, stddev, near, far = v["mean"], v["stddev"], v["near"], v["far"]
        uniform_floor = v["uniform_floor"]
        cap = radius_cap(uniform_floor)
        if near is not None and far is not None and not near < far:
            raise ValueError(f"far={far!r} is not allowed: it must be > near={near!r} (m)")
        ss = as_seed_sequence(seed)
        key = model_key(ss, "camera")  # the camera's key: see the module notes
        # nothing below can fail
        lock_model(self)  # a rebuild (the state setter) must not tear a running apply
        self.mean = mean
        self.stddev = stddev
        self.near = near
        self.far = far
        self.uniform_floor = uniform_floor
        self._cap = cap
        self._frame = 0
        unlock_model(self)
        self._seed_seq = ss
        self._key = key
        self._built = True

    def apply(self, depth, *args, frame=None, out=None, threads=1):
        """Noise a depth image.

        Parameters
        ----------
        depth : numpy.ndarray
            Depth image, m, shape (H, W) or (H, W, 1), float32 or float64 (native byte
            order); any strides. Not modified unless it is also ``out``.
        frame : int or None
            Frame index in [0, 2**64). ``None`` (default) uses the frame counter and
            advances it; an explicit index gives random access and leaves the counter
            alone.
        out : numpy.ndarray or None
            Receives the result: same shape and dtype as ``depth``, writeable, any
            strides; may be ``depth`` itself (in place).
        threads : int
            Threads drawing the normals, in [1, 65536); the values do not depend on it.

        Returns
        -------
        numpy.ndarray
            The noisy depth, m (``out`` when given).
        """
        if args:  # 0.2 callers passed these by position
            frame, out, threads = positional_options(
                "DepthNoise.apply", args, ('frame', 'out', 'threads'),
                (frame, out, threads), (None, None, 1))
        check_built(self)
        if not isinstance(depth, np.ndarray):
            raise TypeError(f"depth={depth!r} is not allowed: it must be a numpy.ndarray (m)")
        if depth.dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise TypeError(f"depth has dtype {depth.dtype.str}: it must be float32 or float64 "
                            "(m), native byte order")
        if depth.ndim not in (2, 3) or (depth.ndim == 3 and depth.shape[2] != 1):
            raise ValueError(f"depth has shape {depth.shape}: it must be H x W or H x W x 1")
        dt = depth.dtype
        if out is not None:
            _arrays.output("out", out, depth.shape, dt, contiguous=False)
        cdef int nthreads = _threads.count(threads)
        cdef uint64_t f
        if frame is not None:
            f = _validate.integer("frame", frame, 0, 2**64)
        else:  # the counter's frame, reserved under the model's lock (model.pxd)
            take_frames(self, 1, type(self)._frame_end, &f)
        src = np.ascontiguousarray(depth).reshape(-1)  # a copy only when strided
        res = np.empty(depth.shape, dtype=dt)
        cdef bint clip_far = self.far is not None
        cdef bint clip_near = self.near is not None
        cdef double far = self.far - CLIP_TOLERANCE if clip_far else 0.0
        cdef double near = self.near + CLIP_TOLERANCE if clip_near else 0.0
        noise = _noise_f32 if dt == np.float32 else _noise_f64
        flat = res.reshape(-1)
        key, mean, sd, cap = self._key, self.mean, self.stddev, self._cap

        def part(start, count):  # pixels [start, start + count): their own normals
            noise(key, f, start, src[start:start + count], flat[start:start + count],
                  mean, sd, clip_far, far, clip_near, near, cap)

        _threads.run_split(part, src.shape[0], _threads.parts(src.shape[0], nthreads, 65536))
        if out is None:
            return res
        out[...] = res
        return out

    # ---- the model contract (fastnoise.core.model) ---------------------------------


register_model(DepthNoise)
