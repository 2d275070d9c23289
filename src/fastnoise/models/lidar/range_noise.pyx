"""Gazebo's Gaussian range noise for scans (the Gazebo sensor noise tutorial, gz-sensors'
rules), keyed per beam.

Randomness rule: with the lidar's key (``fastnoise.core.seeding.model_key(seed,
"lidar")``; ``LidarNoise`` and ``RangeNoise`` share it and use different streams), the
standard normal behind beam ``i`` of frame ``f`` is normal ``i`` of stream ``4 f + 3``
(``csrc/lidar.h``; see ``fastnoise.models.lidar.lidar_noise``).

The bias Gazebo draws once per sensor is normal 0 of stream ``4 (2**62 - 1) + 3`` (the
reserved last frame), negated when normal 1 of that stream is negative and
``flip_bias_sign`` is set (the default, as Gazebo: probability 1/2). It is therefore a
pure function of the seed and the parameters: ``from_state``, ``copy`` and pickling
recompute the same bias, bit for bit. The model's ``state['position']`` is its frame
counter, ``{"frame": n}`` (the camera's frame rule, ``fastnoise.core.model``).
"""

cimport cython
cimport numpy as cnp
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint64_t

from fastnoise.core.model cimport (
    _FrameCounter,
    check_built,
    lock_model,
    take_frames,
    unlock_model,
)
from fastnoise.models.lidar.capi cimport (
    FN_LIDAR_RANGE,
    fn_lidar_stream,
    fn_range_noise_f32,
    fn_range_cache,
    fn_range_noise_f64,
    fn_range_noise_one_f64,
    fn_range_params,
)

import numpy as np

from fastnoise.core import threads as _threads

from fastnoise.core import validate as _validate
from fastnoise.core.generator import fill_normals
from fastnoise.core.model import register_model
from fastnoise.models.lidar import declarations as _declarations
from fastnoise.core import spec as _spec
from fastnoise.core.seeding import as_seed_sequence, env_model_key
from fastnoise.core.deprecation import positional_options
from fastnoise.models.lidar.geometry import (
    LAST_FRAME,
    MIN_PER_THREAD,
    RESERVED_FRAME,
    first_index as _first_index,
    float_data,
    frame_index,
    output_or_new,
    refuse_overlap,
)
from fastnoise.models.lidar.params import GAZEBO_ZERO, gazebo_noise_enabled

cnp.import_array()


cdef extern from "range_batch.h" nogil:
    int fn_range_batch_f64(const fn_range_params *p, size_t n, const uint64_t *frames,
                           uint64_t first_index, size_t m, const double *inp, double *out)
    int fn_range_batch_f32(const fn_range_params *p, size_t n, const uint64_t *frames,
                           uint64_t first_index, size_t m, const float *inp, float *out)

# the real parameters a batch may give per environment, (num_envs,)
_REALS = ("mean", "stddev", "min_range", "max_range", "bias_mean", "bias_stddev",
          "precision")


def _drawn_bias(key, bias_mean, bias_stddev, flip_bias_sign, enabled):
    """The bias Gazebo draws once: normal 0 of the reserved frame's range stream, its
    sign flipped when normal 1 is negative (see the module docstring)."""
    z = np.empty(2, dtype=np.float64)
    fill_normals(key, fn_lidar_stream(RESERVED_FRAME, FN_LIDAR_RANGE), 0, z)
    b = bias_mean + bias_stddev * float(z[0])
    if flip_bias_sign and z[1] < 0 and b != 0.0:
        b = -b
    return b if enabled else 0.0


# Only this module makes _RangeCall objects (see _RangeCall.__cinit__).
_TOKEN = object()
# apply_one's fast path takes ints in these bounds without further checks.
_LAST_FRAME = LAST_FRAME
cdef uint64_t _FRAME_END = LAST_FRAME  # the same, as C takes it
_LAST_INDEX = 2**64 - 1
# nan_range -> the C kernel's rule (csrc/lidar.h FN_RANGE_NAN_*)
_NAN_RULES = {None: 0, "max": 1, "keep": 2}


@cython.auto_pickle(False)
cdef class _RangeCall:
    """One apply() call's arrays and parameters, so pieces can run on threads. Internal:
    made by RangeNoise.apply only (constructing one from Python raises)."""
    cdef fn_range_params prm
    cdef uint64_t first_index
    cdef cnp.ndarray inp, out

    def __cinit__(self, token=None):
        if token is not _TOKEN:
            raise TypeError("_RangeCall is internal to RangeNoise.apply and cannot be "
                            "constructed")

    def run(self, Py_ssize_t start, Py_ssize_t count):
        if self.inp is None or self.out is None:
            raise RuntimeError("_RangeCall has no arrays")
        if (start < 0 or count < 0 or start + count > cnp.PyArray_SIZE(self.inp)
                or start + count > cnp.PyArray_SIZE(self.out)):
            raise ValueError(f"start={start}, count={count} lie outside the arrays")
        cdef char *src = <char *>cnp.PyArray_DATA(self.inp)
        cdef char *dst = <char *>cnp.PyArray_DATA(self.out)
        cdef uint64_t first = self.first_index + <uint64_t>start
        cdef int rc
        if cnp.PyArray_TYPE(self.inp) == cnp.NPY_FLOAT32:
            with nogil:
                rc = fn_range_noise_f32(&self.prm, first, <size_t>count,
                                        (<float *>src) + start, (<float *>dst) + start)
        else:
            with nogil:
                rc = fn_range_noise_f64(&self.prm, first, <size_t>count,
                                        (<double *>src) + start, (<double *>dst) + start)
        if rc != 0:  # checked before: the C guard against wrapping indices
            raise OverflowError(f"frame={self.prm.frame} or first_index={first} + {count} "
                                "beams runs past the end of the lidar streams")


cdef class RangeNoise(_FrameCounter):
    """RangeNoise(mean, stddev, min_range, max_range, bias_mean=0.0, bias_stddev=0.0,
    precision=0.0, *, flip_bias_sign=True, inf_outside_limits=False, enabled=True,
    nan_range=None, seed=None, num_envs=None, env=None)
--

Gazebo's Gaussian range noise for scans (the Gazebo sensor noise tutorial,
    gz-sensors' rules). Every parameter is in m, finite, with ``|value| <= 1e30``.

    Parameters
    ----------
    mean, stddev : float
        Per-beam white noise N(mean, stddev) m, drawn independently for each beam.
    min_range, max_range : float
        Clamp limits (m), 0 <= min_range < max_range, finite.
    bias_mean, bias_stddev : float
        A bias drawn once per RangeNoise from N(bias_mean, bias_stddev) m and added to
        every finite range.
    precision : float
        If > 1e-6 m, results are rounded to a multiple of it (``round(y / precision) *
        precision``, half away from zero), m; Gazebo's threshold: a precision within
        1e-6 of 0 does nothing.
    flip_bias_sign : bool
        Negate the drawn bias with probability 1/2, as Gazebo's GaussianNoiseModel
        does (default True); False keeps the bias N(bias_mean, bias_stddev).
    inf_outside_limits : bool
        First turn finite true ranges below ``min_range`` into -inf and above
        ``max_range`` into +inf, as gz-sensors' CPU lidar does before its noise (those
        beams then pass through unchanged). Default False: they are noised and clamped.
    enabled : bool
        False: no noise model at all (Gazebo's lidar without one): ranges pass
        unchanged (after ``inf_outside_limits``), not clamped, and no bias is drawn.
        See ``from_gazebo``.
    nan_range : {None, "max", "keep"}
        What a NaN true range becomes. None (default): max_range (m) with a noise
        model, NaN unchanged without one (``enabled=False``). "max": max_range always,
        as gz-sensors' GPU lidar (``Lidar::PublishLidarScan`` runs ``Lidar::Clamp``,
        NaN -> max, with or without a noise model). "keep": NaN always, as its CPU
        lidar (``CpuLidarSensor::SetRaycastResults`` noises and clamps finite ranges
        only). Finite and infinite ranges are not affected.
    seed : int, numpy.random.SeedSequence or None
    num_envs : int or None
        A batch of ``num_envs`` environments (:doc:`/batching`): ``apply`` takes
        (num_envs, ...) scans, row i environment i's, by one C call; each environment
        has its own frame counter (``frame`` is then a (num_envs,) array) and bias;
        the real parameters may be per environment, shape (num_envs,);
        ``reset(env_ids)``.
    env : int or None
        This model is environment ``env`` of a batch (bit for bit); not with
        ``num_envs``.

    Per beam (``fn_range_beam`` in ``csrc/lidar_point.h``): finite r -> r + bias +
    N(mean, stddev), rounded to ``precision``, then
    clamped to [min_range, max_range]; +inf and -inf pass through; NaN becomes
    max_range (see ``nan_range``). Where r / precision overflows (a precision far below r's own
    resolution) the rounding changes nothing and r is kept. Beam i of frame f uses
    normal i of stream 4 f + 3 (0 <= f <= 2**62 - 2); the bias is normal 0 of stream
    2**64 - 1 (the reserved last frame), the flip is taken when normal 1 of that
    stream is negative. A call's beam indices ``first_index .. first_index + N - 1``
    must lie below 2**64 (nothing wraps).

    Frames: ``apply(ranges)`` without ``frame`` noises the model's next frame, the
    frame counter ``model.frame``, and advances it by one; ``apply(ranges, frame=k)``
    is frame k (random access) and leaves the counter alone. ``apply_one`` without
    ``frame`` reads the counter's current frame and does not advance it (per-beam
    loops: advance it with ``model.frame += 1``, or with one ``apply``).
    ``state['position']`` is the counter, ``{"frame": n}``; ``reset()`` sets it to 0.
    The counter stops at frame 2**62 - 2, the last one: ``apply`` without ``frame``
    there raises OverflowError naming ``frame``. The bias is a pure function of the
    seed and the parameters, so a rebuilt model draws the same bias.

    Threads: one ``RangeNoise`` may be shared by any number of threads. A call with
    ``frame=k`` reads the model only and takes no lock; each ``apply`` without
    ``frame`` takes its own frame under the object's lock. Each call gives the same
    bits as it would alone (for the frame it got), and the kernels run with the GIL
    released.
    """

    model_name = "range"
    declaration = _declarations.RANGE
    _frame_end = LAST_FRAME  # frame 2**62 - 1 is reserved: its streams hold the bias
    _frame_optional = True  # 0.2 states had no frame counter: they load as frame 0

    cdef fn_range_params prm
    # apply_one's normals: the last group of the range stream it read (zeroed by the
    # allocation: empty; keyed by key, frame and group, so it never serves stale values)
    cdef fn_range_cache _zc
    cdef fn_range_params *envp  # a batch's parameters, one per environment (else NULL)
    cdef object _frames         # a batch's frame counters, (num_envs,) uint64
    # floats; in a batch, (num_envs,) float64 arrays where per environment
    cdef readonly object mean, stddev, min_range, max_range
    cdef readonly object bias_mean, bias_stddev, precision, bias
    cdef readonly bint flip_bias_sign, inf_outside_limits, enabled
    cdef readonly object nan_range

    def __cinit__(self, *args, **kwargs):
        self.envp = NULL

    def __dealloc__(self):
        PyMem_Free(self.envp)

    def __init__(self, mean, stddev, min_range, max_range, bias_mean=0.0, bias_stddev=0.0,
                 precision=0.0, *, flip_bias_sign=True, inf_outside_limits=False,
                 enabled=True, nan_range=None, seed=None, num_envs=None, env=None):
        cdef Py_ssize_t e
        cdef fn_range_params *envp = NULL
        cdef int nan_rule
        # everything is checked before anything is set: a refused call changes nothing
        num_envs, env = _spec.check_envs(num_envs, env)
        v = _declarations.RANGE.check_params({
            "mean": mean, "stddev": stddev, "min_range": min_range, "max_range": max_range,
            "bias_mean": bias_mean, "bias_stddev": bias_stddev, "precision": precision,
            "flip_bias_sign": flip_bias_sign, "inf_outside_limits": inf_outside_limits,
            "enabled": enabled, "nan_range": nan_range}, num_envs=num_envs)
        flip_bias_sign, inf_outside_limits, enabled = (
            v["flip_bias_sign"], v["inf_outside_limits"], v["enabled"])
        nan_range = v["nan_range"]
        nan_rule = _NAN_RULES[nan_range]
        ss = as_seed_sequence(seed)
        if num_envs is not None:
            per = [{k: (float(v[k][e]) if isinstance(v[k], np.ndarray) else v[k])
                    for k in _REALS} for e in range(num_envs)]
            for e in range(num_envs):
                if not per[e]["max_range"] > per[e]["min_range"]:
                    raise ValueError(
                        f"max_range[{e}]={per[e]['max_range']!r} is not allowed: it must be "
                        f"> min_range[{e}]={per[e]['min_range']!r}")
            keys = [env_model_key(ss, "lidar", e) for e in range(num_envs)]
            biases = [_drawn_bias(keys[e], per[e]["bias_mean"], per[e]["bias_stddev"],
                                  flip_bias_sign, enabled) for e in range(num_envs)]
            envp = <fn_range_params *>PyMem_Malloc(num_envs * sizeof(fn_range_params))
            if envp == NULL:
                raise MemoryError(f"num_envs={num_envs!r}: no memory for the environments")
            for e in range(num_envs):
                d = per[e]
                envp[e].key = keys[e]
                envp[e].frame = 0
                envp[e].bias = biases[e]
                envp[e].mean = d["mean"]
                envp[e].stddev = d["stddev"]
                envp[e].precision = d["precision"] if d["precision"] > GAZEBO_ZERO else 0.0
                envp[e].min_range = d["min_range"]
                envp[e].max_range = d["max_range"]
                envp[e].noise = enabled
                envp[e].inf_outside = inf_outside_limits
                envp[e].nan_rule = nan_rule
            PyMem_Free(self.envp)
            self.envp = envp
            self._frames = np.zeros(num_envs, dtype=np.uint64)
            # the attributes: as given (a float, or a (num_envs,) array), biases (N,)
            mean, stddev, precision = v["mean"], v["stddev"], v["precision"]
            bias_mean, bias_stddev = v["bias_mean"], v["bias_stddev"]
            min_range, max_range = v["min_range"], v["max_range"]
            key = env_model_key(ss, "lidar", None)
            b = np.array(biases)
        else:
            mean, stddev, precision = v["mean"], v["stddev"], v["precision"]
            bias_mean, bias_stddev = v["bias_mean"], v["bias_stddev"]
            min_range, max_range = v["min_range"], v["max_range"]
            if not max_range > min_range:  # the rule across parameters the specs state
                raise ValueError(
                    f"max_range={max_range!r} is not allowed: it must be > "
                    f"min_range={min_range!r}")
            key = env_model_key(ss, "lidar", env)
            b = _drawn_bias(key, bias_mean, bias_stddev, flip_bias_sign, enabled)
            PyMem_Free(self.envp)
            self.envp = NULL
            self._frames = None
        self._num_envs = num_envs
        self._env = env
        # nothing below can fail
        self.mean = mean
        self.stddev = stddev
        self.min_range = min_range
        self.max_range = max_range
        self.bias_mean = bias_mean
        self.bias_stddev = bias_stddev
        self.precision = precision
        self.flip_bias_sign = flip_bias_sign
        self.inf_outside_limits = inf_outside_limits
        self.enabled = enabled
        self.nan_range = nan_range
        self.bias = b
        self._seed_seq = ss
        self._key = key
        if num_envs is not None:
            self.prm = self.envp[0]  # (a batch reads envp; prm is unused)
        else:
            self.prm.key = key
            self.prm.frame = 0
            self.prm.bias = b
            self.prm.mean = mean
            self.prm.stddev = stddev
            # Gazebo quantizes only when the precision is not 0 within 1e-6
            self.prm.precision = precision if precision > GAZEBO_ZERO else 0.0
            self.prm.min_range = min_range
            self.prm.max_range = max_range
            self.prm.noise = enabled
            self.prm.inf_outside = inf_outside_limits
            self.prm.nan_rule = nan_rule
        self._frame = 0  # a new model (or one built again) starts at frame 0
        self._built = True

    # ---- a batch of environments ---------------------------------------------------
    @property
    def frame(self):
        """Frame index that the next call without ``frame`` uses; a batch: (num_envs,)
        uint64, one counter per environment (settable to an int or such an array)."""
        if self.envp != NULL:
            return self._frames.copy()
        return self._frame

    @frame.setter
    def frame(self, value):
        if self.envp == NULL:
            _FrameCounter.frame.__set__(self, value)
            return
        if np.ndim(value) == 0:
            f = np.full(self.num_envs, frame_index("frame", value, _LAST_FRAME),
                        dtype=np.uint64)
        else:
            f = np.array([frame_index(f"frame[{i}]", x, _LAST_FRAME)
                          for i, x in enumerate(np.asarray(value, dtype=object).reshape(-1))],
                         dtype=np.uint64)
            if f.shape != (self.num_envs,):
                raise ValueError(f"frame of shape {np.shape(value)} is not allowed: it must "
                                 f"be an int or ({self.num_envs},)")
        lock_model(self)
        self._frames[:] = f
        unlock_model(self)

    def reset(self, env_ids=None):
        """Start the frame counter again at 0. A batch: ``env_ids`` (None: all; an
        int, int indices or a boolean mask of shape (num_envs,)) names the
        environments whose counters restart; the others continue unchanged."""
        if self.envp == NULL:
            if env_ids is not None:
                raise TypeError(f"env_ids={env_ids!r:.60} is not allowed: this RangeNoise "
                                "is one model (build it with num_envs=N for a batch)")
            _FrameCounter.reset(self)
            return
        ids = _spec.env_ids(env_ids, self.num_envs)
        lock_model(self)
        self._frames[ids] = 0
        unlock_model(self)

    def _position(self):
        if self.envp == NULL:
            return _FrameCounter._position(self)
        lock_model(self)
        try:
            return {"envs": [{"frame": int(f)} for f in self._frames]}
        finally:
            unlock_model(self)

    def _set_position(self, position):
        if self.envp == NULL:
            _FrameCounter._set_position(self, position)
            return
        _validate.fields("state['position']", position, ("envs",))
        envs = position["envs"]
        if not isinstance(envs, list) or len(envs) != self.num_envs:
            raise ValueError(f"state['position']['envs'] is not allowed: it must be a list "
                             f"of {self.num_envs} positions (num_envs)")
        fs = []
        for e, q in enumerate(envs):
            q = _validate.fields(f"state['position']['envs'][{e}]", q, ("frame",))
            fs.append(_validate.integer(f"state['position']['envs'][{e}]['frame']",
                                        q["frame"], 0, _LAST_FRAME + 1))
        lock_model(self)
        self._frames[:] = np.array(fs, dtype=np.uint64)
        unlock_model(self)

    def _batch_run(self, ranges, frame, first_index, out, bint one):
        """A batch's apply (ranges (num_envs, ...)) or apply_one (ranges (num_envs,),
        beam ``first_index``): one C call for every environment."""
        cdef Py_ssize_t n = self.num_envs
        arr = float_data("ranges", ranges)
        if arr.ndim == 0 or arr.shape[0] != n or (one and arr.ndim != 1):
            shown = f"({n},)" if one else f"({n}, ...)"
            raise ValueError(f"ranges has shape {arr.shape}: with num_envs={n} it must be "
                             f"{shown}")
        cdef size_t m = <size_t>(arr.size // n) if n else 0
        if one:
            first = frame_index("index", first_index, _LAST_INDEX)
        else:
            first = _first_index(first_index, m)
        res = output_or_new("out", out, arr.shape, arr.dtype)
        refuse_overlap({"out": None if out is None else res}, {"ranges": arr})
        lock_model(self)
        try:
            if frame is not None:
                frames = np.full(n, frame_index("frame", frame, _LAST_FRAME), dtype=np.uint64)
            else:
                frames = self._frames.copy()
                if not one:
                    if np.any(frames >= np.uint64(_LAST_FRAME)):
                        e = int(np.argmax(frames >= np.uint64(_LAST_FRAME)))
                        raise OverflowError(f"frame[{e}]={int(frames[e])} is the last frame "
                                            "(2**62 - 2): the counter cannot advance")
                    self._frames += np.uint64(1)
            self._run(arr, res, frames, first, m)
        finally:
            unlock_model(self)
        return res

    cdef int _run(self, cnp.ndarray arr, cnp.ndarray res, cnp.ndarray frames,
                  uint64_t first, size_t m) except -1:
        cdef const uint64_t *pf = <const uint64_t *>cnp.PyArray_DATA(frames)
        cdef size_t n = <size_t>self.num_envs
        cdef int rc
        cdef char *src = <char *>cnp.PyArray_DATA(arr)
        cdef char *dst = <char *>cnp.PyArray_DATA(res)
        if cnp.PyArray_TYPE(arr) == cnp.NPY_FLOAT32:
            with nogil:
                rc = fn_range_batch_f32(self.envp, n, pf, first, m, <const float *>src,
                                        <float *>dst)
        else:
            with nogil:
                rc = fn_range_batch_f64(self.envp, n, pf, first, m, <const double *>src,
                                        <double *>dst)
        if rc != 0:
            raise OverflowError(f"first_index={first} + {m} beams runs past the end of the "
                                "lidar streams")
        return 0

    @classmethod
    def from_gazebo(cls, min_range, max_range, *, noise_type="gaussian", mean=0.0,
                    stddev=0.0, bias_mean=0.0, bias_stddev=0.0, precision=0.0,
                    dynamic_bias_stddev=0.0, dynamic_bias_correlation_time=0.0,
                    cpu_lidar=False, nan_range=None, seed=None):
        """gz-sensors' lidar noise for an SDF ``<ray>``/``<lidar>`` with its ``<range>``
        limits and ``<noise>`` fields (m, s), exactly as ``Lidar::Load`` and
        ``Lidar::ApplyNoise`` use them (``src/Lidar.cc``):

        - a noise model exists only for ``noise_type`` "gaussian" (any case; "none",
          "gaussian_quantized" and "custom" give none) and only when ``mean``,
          ``stddev``, ``bias_mean``, ``dynamic_bias_stddev`` or
          ``dynamic_bias_correlation_time`` differs from 0 by more than 1e-6
          (``bias_stddev`` alone gives none); without one, ranges pass unchanged and
          are not clamped (``enabled=False``);
        - with one: bias drawn once from N(bias_mean, bias_stddev), sign flipped with
          probability 1/2; per beam ``Apply(range)`` with dt = 0, so the dynamic bias
          never moves; rounding to ``precision`` when it exceeds 1e-6; then the clamp
          (NaN -> max, finite -> [min, max], +-inf kept);
        - true ranges outside [min_range, max_range] become -inf / +inf before the
          noise (``inf_outside_limits=True``), as both Gazebo lidars do: the GPU lidar
          (``GpuLidarSensor.cc``) through gz-rendering's rays with ``SetClamp(false)``
          (``BaseGpuRays.hh``: outside the clip planes min/max is -inf/+inf), the CPU
          lidar in ``CpuLidarSensor::SetRaycastResults``. ``cpu_lidar`` is accepted for
          compatibility and changes nothing since 0.4 (before, False clamped those
          ranges into [min_range, max_range]); a NaN true range becomes max_range (the
          GPU rule; the CPU lidar, whose raycasts give none, would keep it).

        ``nan_range`` selects Gazebo's exact NaN rule of one lidar: "max" for the GPU
        lidar (NaN -> max_range, with or without a noise model), "keep" for the CPU
        lidar (NaN stays NaN); None (default) keeps fastnoise's rule above, which
        passes NaN unchanged when there is no noise model. See the class docstring.
        """
        enabled = gazebo_noise_enabled(noise_type, _validate.finite("mean", mean),
                                       _validate.finite("stddev", stddev),
                                       _validate.finite("bias_mean", bias_mean),
                                       dynamic_bias_stddev, dynamic_bias_correlation_time)
        return cls(mean, stddev, min_range, max_range, bias_mean, bias_stddev, precision,
                   flip_bias_sign=True, inf_outside_limits=True, enabled=enabled,
                   nan_range=nan_range, seed=seed)

    # ---- noise -----------------------------------------------------------------------
    def apply_one(self, range_m, frame=None, index=0):
        """One noised range (m): beam ``index`` of ``frame``, the same value ``apply``
        gives for that beam of a float64 scan. For per-beam loops (Gazebo's
        ``Noise::Apply``). ``range_m`` is a real number (bools, complex numbers,
        strings and arrays are refused; inf and nan are special values, see the class
        docstring); ``frame`` is in [0, 2**62 - 2], ``index`` in [0, 2**64 - 1].
        ``frame=None`` (default) is the frame counter's current frame, not advanced:
        a loop over the beams of one scan reads the same frame; advance it with
        ``model.frame += 1`` or one ``apply``."""
        cdef fn_range_params prm
        cdef double r, out
        cdef uint64_t idx
        cdef int rc
        check_built(self)
        if self.envp != NULL:
            return self._batch_run(np.asarray(range_m, dtype=np.float64), frame, index, None,
                                   True)
        # fast path: a float and in-range ints; anything else is checked by name
        if type(range_m) is float:
            r = range_m
        elif isinstance(range_m, (float, np.floating)):
            r = float(range_m)
        else:
            r = _validate.finite("range_m", range_m)
        prm = self.prm
        if frame is None:
            prm.frame = self._frame  # read, not advanced: no lock needed
        elif type(frame) is int and 0 <= frame <= _LAST_FRAME:
            prm.frame = frame
        else:
            prm.frame = frame_index("frame", frame, _LAST_FRAME)
        if type(index) is int and 0 <= index <= _LAST_INDEX:
            idx = index
        else:
            idx = frame_index("index", index, _LAST_INDEX)
        # one beam through the group cache: a loop over a scan's beams computes each
        # group of 16 normals once (the values are fn_range_noise_f64's, bit for bit)
        rc = fn_range_noise_one_f64(&prm, idx, r, &out, &self._zc)
        if rc != 0:  # checked above: the C guard against a reserved frame
            raise OverflowError(f"frame={prm.frame}, index={idx} lies past the end of the "
                                "lidar streams")
        return out

    def apply(self, ranges, *args, frame=None, first_index=0, out=None, threads=1):
        """Noised ranges (m) of one scan, any shape; beam i is ``ranges.flat[i]``.

        float32 data (any byte order) stays float32; other real types become float64
        (bool, complex, object, string and datetime data are refused). Any strides,
        byte order and alignment (copied when the kernel cannot read them as they
        are). ``frame`` is in [0, 2**62 - 2]; ``None`` (default) uses the frame counter
        and advances it by one (OverflowError naming ``frame`` at its end, 2**62 - 2).
        ``first_index`` is the index of the first
        beam in the frame's full scan (for pieces), with ``first_index + N <= 2**64``.
        ``out`` (same shape and dtype, native, C-contiguous, aligned, writeable)
        receives the result; it may be ``ranges`` itself (in place), and any other
        sharing of memory with ``ranges`` is refused (ValueError).
        """
        if args:  # 0.2 callers passed these by position
            frame, first_index, out, threads = positional_options(
                "RangeNoise.apply", args, ('frame', 'first_index', 'out', 'threads'),
                (frame, first_index, out, threads), (None, 0, None, 1))
        check_built(self)
        if self.envp != NULL:
            _threads.count(threads)  # checked; a batch runs on the calling thread
            return self._batch_run(ranges, frame, first_index, out, False)
        cdef uint64_t fr
        arr = float_data("ranges", ranges)
        if frame is not None:
            fr = frame_index("frame", frame, _LAST_FRAME)
        first = _first_index(first_index, arr.size)
        nthreads = _threads.count(threads)
        res = output_or_new("out", out, arr.shape, arr.dtype)
        refuse_overlap({"out": None if out is None else res}, {"ranges": arr})
        if frame is None:  # every check passed: take the counter's frame
            take_frames(self, 1, _FRAME_END, &fr)
        cdef _RangeCall call = _RangeCall(_TOKEN)
        call.prm = self.prm
        call.prm.frame = fr
        call.first_index = first
        call.inp = arr.reshape(-1)
        call.out = res.reshape(-1)
        _threads.run_split(call.run, arr.size,
                           _threads.parts(arr.size, nthreads, MIN_PER_THREAD))
        return res


register_model(RangeNoise)
