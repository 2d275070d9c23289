"""ImageNoise: Gazebo's per-pixel camera noise shader on the CPU, reproducible.

Gazebo adds amplifier noise to camera images in a GLSL fragment shader whose random
numbers ignore the simulation seed. Here the standard normal of each pixel is a pure
function of (seed, frame, pixel index), drawn from the fastnoise Philox/Box-Muller
core and added in one pass over the image (no image-sized noise array).
"""


import numpy as np

cimport numpy as cnp
from libc.stdint cimport uint64_t

from fastnoise.core.model cimport (
    _FrameCounter,
    check_built,
    lock_model,
    take_frames,
    unlock_model,
)

from fastnoise.core import arrays as _arrays
from fastnoise.core import threads as _threads

from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.camera import declarations as _declarations
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.core.deprecation import positional_options
from fastnoise.models.camera import checks as _checks
from fastnoise.models.camera.depth import GAZEBO_UNIFORM_FLOOR, radius_cap

cnp.import_array()


cdef extern from "camera.h" nogil:
    int FN_CAM_U8
    int FN_CAM_U16
    int FN_CAM_F32
    int FN_CAM_F64
    int FN_CAM_GAZEBO
    int FN_CAM_OGRE2
    int FN_CAM_OGRE2_RGBD

    ctypedef struct fn_camera_job:
        uint64_t key
        uint64_t frame
        uint64_t pixel0
        double mean
        double stddev
        int per_channel
        int variant
        int linear_light
        int dtype
        size_t width
        size_t pitch
        size_t channels
        const void *in_ "in"
        Py_ssize_t in_row
        Py_ssize_t in_pix
        Py_ssize_t in_ch
        void *out
        Py_ssize_t out_row
        Py_ssize_t out_pix
        Py_ssize_t out_ch
        double radius_cap

    int fn_camera_apply(const fn_camera_job *job, size_t row0, size_t row1)


_DTYPE_CODES = {
    np.dtype(np.uint8): FN_CAM_U8,
    np.dtype(np.uint16): FN_CAM_U16,
    np.dtype(np.float32): FN_CAM_F32,
    np.dtype(np.float64): FN_CAM_F64,
}
_VARIANTS = {"gazebo": FN_CAM_GAZEBO, "ogre2": FN_CAM_OGRE2, "ogre2_rgbd": FN_CAM_OGRE2_RGBD}
# ogre2_rgbd: the partner of pixel j's normal is normal _PAIR + j (csrc/depth.c's rule),
# and the pair is capped as Gazebo's depth shader caps it (csrc/camera_rgbd.c)
_PAIR = 2**63
_RGBD_CAP = radius_cap(GAZEBO_UNIFORM_FLOOR)
# Fewest pixels a thread gets: below this a thread costs more than it saves.
_MIN_PIXELS_PER_THREAD = 1 << 16


cdef inline int _run_rows(fn_camera_job *job, size_t row0, size_t row1) noexcept:
    cdef int rc
    with nogil:
        rc = fn_camera_apply(job, row0, row1)
    return rc


cdef class _Job:
    """A filled fn_camera_job that worker threads share (read-only).

    Only ``ImageNoise.apply`` fills one; ``rows`` refuses rows outside the image it was
    filled for, so a job made from Python (empty: no rows) never touches memory.
    """
    cdef fn_camera_job job
    cdef size_t height  # rows of the image the job points into (0 until filled)
    cdef object keep  # the arrays the pointers point into

    def rows(self, size_t row0, size_t count):
        if count > self.height or row0 > self.height - count:
            raise ValueError(
                f"rows {row0}..{row0}+{count} are not allowed: the image has "
                f"{self.height} rows")
        if _run_rows(&self.job, row0, row0 + count) != 0:
            # checked by camera_checks.row_offset before: the C guard against wrapping indices
            raise OverflowError("row_offset: the pixel indices would pass 2**64 - 1")


cdef object _image_input(image):
    """The image as the kernel reads it: uint8, uint16, float32 or float64, native and
    aligned (any strides, negative ones too); a big-endian or unaligned image is
    copied (native result), anything else refused by name (camera_checks.image_input)."""
    if (isinstance(image, np.ndarray) and image.dtype in _DTYPE_CODES
            and cnp.PyArray_ISALIGNED(<cnp.ndarray>image)):
        _check_image_shape(image)
        return image  # the common case, read as it is
    return _checks.image_input(image, _DTYPE_CODES)


cdef int _check_image_shape(object image) except -1:
    cdef int ndim = cnp.PyArray_NDIM(<cnp.ndarray>image)
    cdef cnp.npy_intp c = cnp.PyArray_DIMS(<cnp.ndarray>image)[2] if ndim == 3 else 0
    if ndim == 2 or (ndim == 3 and (c == 1 or c == 3 or c == 4)):
        return 0  # the common case, without Python attribute lookups
    _checks.image_shape(image)
    return 0


cdef class ImageNoise(_FrameCounter):
    """ImageNoise(mean=0.0, stddev=0.007, *, per_channel=False, variant='gazebo',
                  seed=None, linear_light=None)
--

Additive Gaussian amplifier noise for camera images (Gazebo's camera noise).

    Each pixel gets one standard normal ``Z``; the noise ``Z * stddev + mean`` (or its
    Ogre 2 shaping) is added to every colour channel (or an independent ``Z`` per
    channel with ``per_channel=True``), to the stored value or in linear light, and the
    result is clamped to [0, 1]. Intensities are in
    image units: 1.0 is full scale (255 for uint8, 65535 for uint16, 1.0 for float).

    Parameters
    ----------
    mean : float
        Noise mean, in full-scale units (dimensionless, fraction of full scale);
        ``|mean| <= 1e30``.
    stddev : float
        Noise standard deviation, full-scale units, ``0 <= stddev <= 1e30``. Gazebo's
        example uses 0.007 (about 1.8 levels of an 8-bit image). The bounds keep the
        noise finite (no pixel becomes inf or NaN).
    per_channel : bool
        An independent normal per colour channel (the Gazebo sensor noise tutorial's
        prose), not one per pixel shared by all channels (Gazebo's shader).
    variant : {"gazebo", "ogre2", "ogre2_rgbd"}
        ``"gazebo"``: the noise is ``n = mean + stddev * Z`` (gz-rendering's Ogre 1
        shader). ``"ogre2"``: the scaled sample ``z = mean + stddev * Z`` is shaped,
        ``n = sign(z) * |z|**2.1``, as gz-rendering's Ogre 2 shader does (so a small
        stddev gives far smaller noise: at stddev 0.2 the sd of ``n`` is about 0.063;
        at Gazebo's 0.007 it is about 3e-5, below half a level of an 8-bit image).
        ``"ogre2_rgbd"``: the colour of gz-sensors' RGB-D camera, from gz-rendering's
        depth-noise shader (``gaussian_noise_depth_fs.glsl``): ``Z`` is the pixel's
        normal capped as ``DepthNoise(uniform_floor=0.001)`` caps it (the same ``Z``
        as that DepthNoise with the same seed), shaped as ``"ogre2"``, added to the
        stored (sRGB-encoded) value, which the shader reads from the packed colour, and
        clamped to [0, 1]; an integer image then takes ``int(c * S)``, truncation (the
        shader's ``pack``), not rounding. Computed with numpy in float32 (float64 for
        float64 images); one normal per pixel (``per_channel`` is refused), no
        ``linear_light``.
    seed : int, numpy.random.SeedSequence or None
        ``None`` draws fresh entropy, kept in ``seed`` so the run can be reproduced.
    linear_light : bool or None (keyword only)
        Add the noise in linear light (the stored value taken as sRGB-encoded, IEC
        61966-2-1, decoded, noised, clamped to [0, 1] and encoded back), as an sRGB
        render target does with a shader's output. ``None`` (default) follows the
        variant: on for ``"ogre2"`` (Gazebo's Ogre 2 cameras render to
        ``PFG_RGBA8_UNORM_SRGB``), off for ``"gazebo"`` (Ogre 1 renders to a plain
        ``PF_R8G8B8`` target). ``True``/``False`` force it either way.

    Notes
    -----
    Pixel ``j = y * W + x`` of frame ``f`` (row-major, ``y`` counted from
    ``row_offset``) uses normal ``j`` (with ``per_channel``, ``j * nc + c``) of the
    float32 stream ``f`` under ``model_key(seed, "camera")``; so the result does not
    depend on the SIMD path, on ``threads`` or on how the image is split into row bands.
    Integer images are noised in whole levels rounded half up; without noise every level
    comes back unchanged. A fourth channel is alpha, copied unchanged; NaN pixels stay
    NaN. ``state['position']`` is the frame counter, ``{"frame": n}``: it stops at
    2**64 - 1 (``apply`` without ``frame`` then raises OverflowError naming ``frame``).
    One ImageNoise may be shared by threads: each ``apply`` without ``frame`` takes its
    own frame under the object's lock. The arithmetic per dtype, the stream layout, the
    limits and the thread rules are on the model's page, :doc:`/models/camera`.

    Examples
    --------
    >>> import numpy as np
    >>> from fastnoise.models.camera.image_noise import ImageNoise
    >>> noise = ImageNoise(stddev=0.007, seed=42)
    >>> rgb = np.full((480, 640, 3), 128, np.uint8)
    >>> first = noise.apply(rgb)  # frame 0; the next call uses frame 1
    >>> bool(np.array_equal(noise.apply(rgb, frame=0), first))  # random access
    True
    """

    cdef readonly double mean
    cdef readonly double stddev
    cdef readonly bint per_channel
    cdef readonly str variant
    cdef readonly bint linear_light
    cdef int _variant_code

    def __init__(self, mean=0.0, stddev=0.007, *args, per_channel=False, variant="gazebo",
                 seed=None, linear_light=None):
        if args:  # 0.2 callers passed these by position
            per_channel, variant, seed = positional_options(
                "ImageNoise()", args, ('per_channel', 'variant', 'seed'),
                (per_channel, variant, seed), (False, 'gazebo', None))
        # everything is checked into locals first: a failed call changes nothing
        v = _declarations.CAMERA.check_params({
            "mean": mean, "stddev": stddev, "per_channel": per_channel, "variant": variant,
            "linear_light": linear_light})
        mean, stddev, per_channel, variant = v["mean"], v["stddev"], v["per_channel"], v["variant"]
        linear_light = v["linear_light"]
        if variant == "ogre2_rgbd":
            if per_channel:
                raise ValueError("per_channel=True is not allowed with variant='ogre2_rgbd': "
                                 "Gazebo's RGB-D shader draws one normal per pixel")
            if linear_light:
                raise ValueError("linear_light=True is not allowed with variant="
                                 "'ogre2_rgbd': Gazebo's RGB-D shader noises the stored "
                                 "(sRGB-encoded) value; give None or False")
            linear_light = False
        if linear_light is None:
            linear_light = variant == "ogre2"  # Gazebo's Ogre 2 renders to sRGB targets
        ss = as_seed_sequence(seed)
        key = model_key(ss, "camera")
        lock_model(self)  # a rebuild (the state setter) must not tear a running apply
        self.mean = mean
        self.stddev = stddev
        self.per_channel = per_channel
        self.variant = variant
        self.linear_light = linear_light
        self._variant_code = _VARIANTS[variant]
        self._frame = 0
        unlock_model(self)
        self._seed_seq = ss
        self._key = key
        self._built = True

    def apply(self, image, *args, frame=None, out=None, threads=1, row_offset=0, col_offset=0,
              full_width=None):
        """Return ``image`` with camera noise added (the input is left unchanged).

        Parameters
        ----------
        image : ndarray
            H x W, H x W x 1, H x W x 3 or H x W x 4 (alpha last), uint8, uint16,
            float32 or float64 (intensity, full scale 1.0 as described in the class
            notes), any strides (negative ones too). A big-endian or unaligned image is
            copied first (the result is native-endian); other dtypes are refused.
        frame : int or None
            Frame index in [0, 2**64). ``None`` uses the internal counter and advances
            it by one (refused with OverflowError once the counter is at 2**64 - 1); an
            explicit index gives random access (frame k of a video is the same however
            the video is processed) and leaves the counter alone.
        out : ndarray, optional
            Array of the image's shape and (native) dtype to write to: any strides,
            aligned, writeable, no two elements sharing memory. It may be ``image``
            itself (the very same view: in-place noise); an ``out`` that shares memory
            with ``image`` any other way is refused (ValueError), as it would read
            pixels the call already wrote.
        threads : int
            Split the rows over this many threads; the result does not depend on it.
        row_offset : int
            Row of the full frame that ``image[0]`` is, when a frame is noised in row
            bands (each band gets the noise it has in the whole frame). Default 0;
            ``(row_offset + H) * W * k < 2**64`` (see the class notes).
        col_offset : int
            Column of the full frame that ``image[:, 0]`` is, when a frame is noised in
            tiles (chunks along the width too). Default 0; needs ``full_width``.
        full_width : int or None
            Width of the full frame the image is a tile of (``None``: the image's own
            width). A tile ``frame[r:r+h, c:c+w]`` noised with ``row_offset=r,
            col_offset=c, full_width=W`` gets exactly the noise it has in the whole
            frame; ``col_offset + w <= full_width`` and ``((row_offset + h) *
            full_width + col_offset) * k < 2**64``.

        Returns
        -------
        ndarray
            ``out``, or a new C-contiguous array of the image's shape and dtype.
        """
        if args:  # 0.2 callers passed these by position
            frame, out, threads, row_offset, col_offset, full_width = positional_options(
                "ImageNoise.apply", args,
                ("frame", "out", "threads", "row_offset", "col_offset", "full_width"),
                (frame, out, threads, row_offset, col_offset, full_width),
                (None, None, 1, 0, 0, None))
        cdef _Job j = _Job.__new__(_Job)
        cdef cnp.ndarray src, dst
        cdef uint64_t f
        cdef Py_ssize_t height, width, parts
        check_built(self)
        img = _image_input(image)
        cdef int nthreads = _threads.count(threads)
        if frame is not None:
            f = _validate.integer("frame", frame, 0, 2**64)
        if full_width is None and type(col_offset) is int and col_offset == 0:
            pitch = 0
            col = 0
            if type(row_offset) is int and row_offset == 0:
                offset = 0  # the common case, without the checks
            else:
                offset = _checks.row_offset(row_offset, img, self.per_channel)
        else:
            offset, col, pitch = _checks.tile_offsets(row_offset, col_offset, full_width,
                                                      img, self.per_channel)
        if out is None:
            dst = np.empty(img.shape, dtype=img.dtype)
        else:
            dst = _checks.check_out(out, img)
            _arrays.no_partial_overlap({"out": dst}, {"image": img})
        src = img
        if self.variant == "ogre2_rgbd":
            last = (offset + cnp.PyArray_DIMS(img)[0]) * (pitch if pitch else
                                                          cnp.PyArray_DIMS(img)[1])
            if last > _PAIR:
                raise OverflowError(f"row_offset={row_offset!r}: with variant='ogre2_rgbd' "
                                    "the pixel indices must stay below 2**63")
        if frame is None:  # the counter's frame, reserved under the model's lock (model.pxd)
            take_frames(self, 1, type(self)._frame_end, &f)
        cdef int ndim = cnp.PyArray_NDIM(src)
        cdef cnp.npy_intp *dims = cnp.PyArray_DIMS(src)
        cdef cnp.npy_intp *sst = cnp.PyArray_STRIDES(src)
        cdef cnp.npy_intp *dst_st = cnp.PyArray_STRIDES(dst)
        height, width = dims[0], dims[1]
        j.job.key = self._key
        j.job.frame = f
        j.job.pixel0 = offset * (pitch if pitch else width) + col
        j.job.mean = self.mean
        j.job.stddev = self.stddev
        j.job.per_channel = self.per_channel
        j.job.variant = self._variant_code
        j.job.linear_light = self.linear_light
        j.job.dtype = _DTYPE_CODES[src.dtype]
        j.job.width = width
        j.job.pitch = pitch
        j.job.channels = dims[2] if ndim == 3 else 1
        j.job.in_ = cnp.PyArray_DATA(src)
        j.job.in_row = sst[0]
        j.job.in_pix = sst[1]
        j.job.in_ch = sst[2] if ndim == 3 else 0
        j.job.out = cnp.PyArray_DATA(dst)
        j.job.out_row = dst_st[0]
        j.job.out_pix = dst_st[1]
        j.job.out_ch = dst_st[2] if ndim == 3 else 0
        j.job.radius_cap = _RGBD_CAP
        j.keep = (src, dst)
        j.height = height

        parts = min(nthreads, height, max(1, height * width // _MIN_PIXELS_PER_THREAD))
        _threads.run_split(j.rows, height, parts)
        return dst

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    model_name = "camera"
    declaration = _declarations.CAMERA


register_model(ImageNoise)
