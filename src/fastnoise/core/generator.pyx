"""GaussianNoiseGenerator: counter-keyed Box-Muller normals (the generator of the
SensorSimulator API document).

Every value is a pure function of (key, stream, index): see csrc/normal.h for the
canonical stream. The object holds only its position, so copies, pickles, resets and
multi-threaded fills all reproduce the same numbers.
"""

import numbers

import numpy as np

cimport cython
cimport numpy as cnp
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport fma, fmaf, isfinite
from libc.stdint cimport UINT64_MAX, uint64_t

from fastnoise.core.model cimport Model
from fastnoise.core.capi cimport (
    FN_FLOAT32,
    FN_FLOAT64,
    fn_normal_fill_f32,
    fn_normal_fill_f64,
    fn_stream_init,
    fn_stream_next_f32,
    fn_stream_next_f64,
    fn_stream_take,
)

from fastnoise.core import arrays as _arrays
from fastnoise.core import threads as _threads

from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.core import declarations as _declarations
from fastnoise.core import spec as _spec
from fastnoise.core.seeding import (
    as_seed_sequence,
    env_seed_sequence,
    key_from_seed_sequence,
)

cnp.import_array()


cdef extern from "normal_batch.h" nogil:
    void fn_normal_batch_take_fill(fn_stream *st, size_t n, int dtype, size_t count,
                                   double mean, double stddev, void *out)

_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)
# Smallest split a threaded fill makes; below it threads cost more than they give.
_MIN_PER_THREAD = 1 << 16


def _fill_part(uint64_t key, uint64_t stream, uint64_t first, Py_ssize_t start,
               Py_ssize_t n, double mean, double stddev, cnp.ndarray flat):
    """Fill flat[start:start+n] with normals first.. of (key, stream), GIL released."""
    cdef char *base = <char *>cnp.PyArray_DATA(flat)
    cdef float fmean = <float>mean
    cdef float fstd = <float>stddev
    if cnp.PyArray_TYPE(flat) == cnp.NPY_FLOAT64:
        with nogil:
            fn_normal_fill_f64(key, stream, first, <size_t>n, mean, stddev,
                               (<double *>base) + start)
    else:
        with nogil:
            fn_normal_fill_f32(key, stream, first, <size_t>n, fmean, fstd,
                               (<float *>base) + start)


def _fill_split(uint64_t key, uint64_t stream, uint64_t first, cnp.ndarray flat,
                double mean, double stddev, int threads):
    """fill_normals without the checks; parts start on group boundaries (16)."""
    cdef Py_ssize_t n = cnp.PyArray_SIZE(flat)
    _threads.run_split(
        lambda start, count: _fill_part(key, stream, first + start, start, count, mean,
                                        stddev, flat),
        n, _threads.parts(n, threads, _MIN_PER_THREAD), align=16)


def fill_normals(key, stream, first, flat, mean=0.0, stddev=1.0, threads=1):
    """Fill the float32/float64 array ``flat`` (C-contiguous, aligned, native-endian,
    writeable) with normals ``first, first + 1, ...`` of (key, stream), scaled as
    ``fma(stddev, z, mean)``, on up to ``threads`` threads.

    The values do not depend on ``threads``: each index has its own number.
    """
    if not isinstance(flat, np.ndarray):
        raise TypeError(f"flat={flat!r} is not allowed: it must be a numpy.ndarray")
    dt = _validate.float_dtype("flat.dtype", flat.dtype)
    _arrays.output("flat", flat, flat.shape, dt)
    cdef uint64_t k = _validate.counter("key", key)
    cdef uint64_t s = _validate.counter("stream", stream)
    cdef uint64_t f = _validate.counter("first", first)
    cdef double m = _validate.finite("mean", mean)
    cdef double sd = _validate.nonnegative("stddev", stddev)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(flat)
    cdef int nthreads = _threads.count(threads)
    if n and f + <uint64_t>(n - 1) < f:
        raise OverflowError(f"first={first} + {n} values run past the end of the stream (2**64)")
    _fill_split(k, s, f, flat, m, sd, nthreads)


_LAST_POSITION = 2**64 - 1  # the largest position a stream may reach
_SCALE_DEFAULT = 1.0  # identity tells "scale not given" (the 0.1 normal(size) trap)


def _real_array(name, value):
    """A float64 array of finite real values (no bools, complex, strings or objects)."""
    arr = np.asarray(value)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name}={value!r} is not allowed: it must be real numbers "
                        f"(got dtype {arr.dtype})")
    arr = arr.astype(np.float64)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}={value!r} is not allowed: every element must be finite")
    return arr


def _fma_f64(double[::1] z, const double[::1] scale, const double[::1] loc):
    cdef Py_ssize_t i
    with nogil:
        for i in range(z.shape[0]):
            z[i] = fma(scale[i], z[i], loc[i])


def _fma_f32(float[::1] z, const float[::1] scale, const float[::1] loc):
    cdef Py_ssize_t i
    with nogil:
        for i in range(z.shape[0]):
            z[i] = fmaf(scale[i], z[i], loc[i])


#: Largest finite float32 (numpy.finfo(numpy.float32).max).
_F32_MAX = float(np.finfo(np.float32).max)


def _fits_f32(name, value):
    """Refuse a finite ``loc``/``scale`` (scalar or array) that float32 cannot hold: it
    would become inf and every value drawn with it inf. What float32 rounds to a finite
    value passes unchanged, so no valid input changes its bits."""
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        return  # not a real number: the usual checks name it
    with np.errstate(over="ignore"):
        bad = np.isfinite(arr) & np.isinf(arr.astype(np.float32))
    if bad.any():
        v = float(arr[bad].flat[0])
        where = "" if arr.ndim == 0 else " holds"
        shown = f"{name}={v!r}" if arr.ndim == 0 else f"{name}{where} {v!r}, which"
        raise ValueError(f"{shown} is not allowed with dtype=float32: it overflows float32, "
                         f"whose largest value is {_F32_MAX!r}; use dtype=float64")


cdef class GaussianNoiseGenerator(Model):
    """GaussianNoiseGenerator(seed=None, stream=0, *, num_envs=None, env=None)
--

Gaussian noise from Philox4x32-10 and the Box-Muller transform.

    Parameters
    ----------
    seed : int, numpy.random.SeedSequence or None
        ``None`` draws fresh entropy; it is kept in ``seed`` (``seed.entropy``) so the
        run can be reproduced.
    stream : int
        Stream id in [0, 2**64): generators with the same seed and different streams
        are independent.
    num_envs : int or None
        A batch of ``num_envs`` environments (:doc:`/batching`): each draw gains a
        leading axis, ``standard_normal(size)`` gives ``(num_envs, *size)``, row i what a
        generator built with ``env=i`` draws; ``loc``/``scale`` are scalars;
        ``reset(env_ids)``; ``position`` is (num_envs,).
    env : int or None
        This generator is environment ``env``: its key is that of the seed's child
        ``env`` (``env_seed_sequence(seed, env)``; the generator's key is the seed's
        own, so its environments are the seed's children, as ``spawn`` makes them on
        a fresh sequence). Not with ``num_envs``.

    Notes
    -----
    Normal ``j`` of a stream is fixed: ``standard_normal(n)`` returns the next ``n`` of them and
    ``n`` calls of ``generate()`` return the same ``n`` values, bit for bit (normals
    are made 16 at a time from four Philox blocks; the values not yet returned are
    the "cached" values of the SensorSimulator API document). A draw of ``mean`` and
    ``stddev`` is ``fma(stddev, z, mean)``.
    float64 and float32 share one position: value ``j`` comes from the same random
    words in either dtype (computed in that dtype's precision), so mixing dtypes
    neither skips nor repeats values. Uniforms have 32 bits, so ``|z| <= 6.66`` in
    both dtypes (P(|z| > 6.66) = 2.7e-11). Values are the same on every SIMD path (see
    ``fastnoise.core.simd.simd_path``), thread count and chunking.
    """

    def __cinit__(self, *args, **kwargs):
        self.envs = NULL
        self.n_envs = 0

    def __dealloc__(self):
        PyMem_Free(self.envs)

    def __init__(self, seed=None, stream=0, *, num_envs=None, env=None):
        cdef Py_ssize_t e
        cdef fn_stream *envs = NULL
        num_envs, env = _spec.check_envs(num_envs, env)
        stream = type(self).declaration.check_params({"stream": stream})["stream"]
        ss = as_seed_sequence(seed)
        key = key_from_seed_sequence(ss if env is None else env_seed_sequence(ss, env))
        if num_envs is not None:
            envs = <fn_stream *>PyMem_Malloc(num_envs * sizeof(fn_stream))
            if envs == NULL:
                raise MemoryError(f"num_envs={num_envs!r}: no memory for the environments")
            for e in range(num_envs):
                fn_stream_init(&envs[e], key_from_seed_sequence(env_seed_sequence(ss, e)),
                               stream)
        PyMem_Free(self.envs)
        self.envs = envs
        self.n_envs = 0 if num_envs is None else num_envs
        self._env = env
        self._seed_seq = ss
        fn_stream_init(&self.st, key, stream)
        self._key = self.st.key
        self._built = True

    @property
    def num_envs(self):
        """Number of environments of a batch, or None (one stream)."""
        return None if self.n_envs == 0 else int(self.n_envs)

    @property
    def env(self):
        """The environment this generator is (``env=``), or None."""
        return self._env

    def _batch_draw(self, double mean, double stddev, size, dt, out):
        """The next normals of every environment: (num_envs, *size), one C call."""
        cdef int code = FN_FLOAT64 if dt == _F64 else FN_FLOAT32
        cdef Py_ssize_t e
        shape = (self.n_envs,) + (() if size is None else tuple(size))
        if out is None:
            arr = np.empty(shape, dtype=dt)
        else:
            arr = _validate.output_array("out", out, shape, dt)
        cdef size_t count = <size_t>(arr.size // self.n_envs)
        for e in range(self.n_envs):
            if self.envs[e].position + count > _LAST_POSITION:
                raise OverflowError(f"environment {e}: {count} more values would run past "
                                    f"the end of the stream (position "
                                    f"{self.envs[e].position}, length 2**64)")
        cdef void *p = cnp.PyArray_DATA(<cnp.ndarray>arr)
        with nogil:
            fn_normal_batch_take_fill(self.envs, <size_t>self.n_envs, code, count, mean,
                                      stddev, p)
        return arr

    # a method descriptor, as the other per-sample calls (docs/realtime.rst): a bound
    # method kept in a variable is then called without a bound function object
    @cython.binding(False)
    def generate(self, mean=0.0, stddev=1.0):
        """One float64 draw ``fma(stddev, z, mean)`` (units of ``mean``): the source
        API; ``normal(loc, scale)`` is the numpy-shaped one."""
        cdef double m, sd
        if type(mean) is float and type(stddev) is float:  # the common case, no calls
            m = mean
            sd = stddev
            if not (isfinite(m) and isfinite(sd) and sd >= 0.0):
                _validate.finite("mean", mean)
                _validate.nonnegative("stddev", stddev)
        else:
            m = _validate.finite("mean", mean)
            sd = _validate.nonnegative("stddev", stddev)
        if self.n_envs:  # (num_envs,): each environment's draw
            return self._batch_draw(m, sd, None, _F64, None)
        if self.st.position == UINT64_MAX:
            self._check_room(1)
        return fma(sd, fn_stream_next_f64(&self.st), m)

    # a function object, not a method descriptor as generate and standard_normal: a
    # descriptor's signature is read from its text, where the default of scale is a
    # name (_SCALE_DEFAULT, whose identity tells "scale not given") that
    # inspect.signature cannot evaluate
    def normal(self, loc=0.0, scale=_SCALE_DEFAULT, size=None, *, dtype=None, out=None,
               threads=1):
        """Draw ``fma(scale, z, loc)`` for the next normals of the stream, as
        ``numpy.random.Generator.normal`` does.

        Parameters
        ----------
        loc, scale : float or array_like of floats
            Mean and standard deviation (same units as the result); ``scale >= 0``.
            Arrays broadcast against each other and against ``size``, element by
            element, in the order of the output.
        size : int, tuple of int or None
            Output shape. ``None``: one value when ``loc`` and ``scale`` are scalars
            (a float64 float or a numpy.float32), else their broadcast shape, or
            ``out.shape`` when ``out`` is given.
        dtype : float64 or float32, keyword only
            Default: ``out.dtype`` when ``out`` is given, else float64. float32 values
            are computed in float32 arithmetic (about twice the throughput); a
            deliberate extension beyond numpy's ``normal``.
        out : ndarray, keyword only
            C-contiguous, writeable array of ``dtype`` (and of shape ``size``) to fill.
        threads : int, keyword only
            Fill on this many threads; the values do not depend on it.

        Notes
        -----
        Before fastnoise 0.2.0 the first argument was ``size``: a lone integer
        argument, ``normal(100)``, raises TypeError instead of silently drawing one
        value of mean 100. Write ``normal(size=100)`` or ``standard_normal(100)``.

        One value (``loc`` and ``scale`` Python floats, no ``size``, ``dtype`` or
        ``out``) takes a scalar path as fast as :meth:`generate`, with the same bits
        as the first value of ``normal(loc, scale, size=1)``.
        """
        cdef double m, sd
        if (size is None and out is None and dtype is None and self.n_envs == 0
                and type(loc) is float and type(scale) is float
                and type(threads) is int and threads == 1):
            # the per-sample path (docs/realtime.rst): no conversions, no lookups;
            # anything it does not take goes the checked way below, which names it
            m = loc
            sd = scale
            if (isfinite(m) and isfinite(sd) and sd >= 0.0
                    and self.st.position != UINT64_MAX):
                return fma(sd, fn_stream_next_f64(&self.st), m)
        if (scale is _SCALE_DEFAULT and size is None and out is None
                and isinstance(loc, numbers.Integral) and not isinstance(loc, (bool, np.bool_))):
            raise TypeError(
                f"normal({loc!r}): since fastnoise 0.2.0 the first argument is loc, as in "
                f"numpy (normal(loc, scale, size)); for {loc!r} values write "
                f"normal(size={loc!r}) or standard_normal({loc!r}), for one value of "
                f"mean {loc!r} write normal({float(loc)!r})")
        if out is not None and not isinstance(out, np.ndarray):
            raise TypeError(f"out={out!r} is not allowed: it must be a numpy.ndarray")
        if dtype is None and out is not None:
            dt = _validate.float_dtype("out.dtype", out.dtype)
        else:
            dt = _validate.float_dtype("dtype", _F64 if dtype is None else dtype)
        if size is not None:
            size = _validate.shape("size", size)
        _threads.count(threads)  # checked with or without a size (issue 27)
        if dt != _F64:
            _fits_f32("loc", loc)
            _fits_f32("scale", scale)
        if self.n_envs:
            if np.ndim(loc) != 0 or np.ndim(scale) != 0:
                raise TypeError("loc and scale are scalars with num_envs (each "
                                "environment draws fma(scale, z, loc))")
            return self._batch_draw(_validate.finite("loc", loc),
                                    _validate.nonnegative("scale", scale), size, dt, out)
        if np.ndim(loc) == 0 and np.ndim(scale) == 0:
            return self._normal_scalar(_validate.finite("loc", loc),
                                       _validate.nonnegative("scale", scale), size, dt, out,
                                       threads)
        locs = _real_array("loc", loc)
        scales = _real_array("scale", scale)
        if np.any(scales < 0.0):
            raise ValueError(f"scale={scale!r} is not allowed: every element must be >= 0")
        try:
            bshape = np.broadcast_shapes(locs.shape, scales.shape)
            if size is None:
                size = out.shape if isinstance(out, np.ndarray) else bshape
            if np.broadcast_shapes(size, bshape) != tuple(size):
                raise ValueError
        except ValueError:
            raise ValueError(
                f"loc (shape {locs.shape}), scale (shape {scales.shape}) and size={size!r} "
                "do not broadcast to the output shape") from None
        arr = self._normal_scalar(0.0, 1.0, size, dt, out, threads)
        flat = arr.reshape(-1)
        lb = np.ascontiguousarray(np.broadcast_to(locs.astype(dt), arr.shape)).reshape(-1)
        sb = np.ascontiguousarray(np.broadcast_to(scales.astype(dt), arr.shape)).reshape(-1)
        if dt == _F64:
            _fma_f64(flat, sb, lb)
        else:
            _fma_f32(flat, sb, lb)
        return arr

    @cython.binding(False)
    def standard_normal(self, size=None, *, dtype=None, out=None, threads=1):
        """The next standard normals (numpy's ``standard_normal``); see :meth:`normal`.

        ``standard_normal()`` (one float64 value) takes a scalar path as fast as
        :meth:`generate`; its value is bit for bit the first of ``standard_normal(1)``."""
        if (size is None and out is None and dtype is None and self.n_envs == 0
                and type(threads) is int and threads == 1
                and self.st.position != UINT64_MAX):
            return fma(1.0, fn_stream_next_f64(&self.st), 0.0)  # what the fill computes
        return self.normal(0.0, 1.0, size, dtype=dtype, out=out, threads=threads)

    def _normal_scalar(self, double loc, double scale, size, dt, out, threads):
        if out is None:
            if size is None:  # one value, as the fill would compute it
                self._check_room(1)
                if dt == _F64:
                    return fma(scale, fn_stream_next_f64(&self.st), loc)
                return np.float32(fmaf(<float>scale, fn_stream_next_f32(&self.st),
                                       <float>loc))
            arr = np.empty(size, dtype=dt)
        else:
            shape = out.shape if (size is None and isinstance(out, np.ndarray)) else size
            arr = _validate.output_array("out", out, tuple(shape), dt)
        self._fill(arr, loc, scale, threads)
        return arr

    def _fill(self, cnp.ndarray arr, double mean, double stddev, threads):
        cdef int code = FN_FLOAT64 if arr.dtype == _F64 else FN_FLOAT32
        cdef int nthreads = _threads.count(threads)
        self._check_room(arr.size)  # so the range below cannot wrap
        cdef uint64_t first = fn_stream_take(&self.st, code, <uint64_t>arr.size)
        _fill_split(self.st.key, self.st.stream, first, arr.reshape(-1), mean, stddev,
                    nthreads)

    # ---- position and state -----------------------------------------------------
    model_name = "generator"
    declaration = _declarations.GENERATOR

    @property
    def stream(self):
        """Stream id (Philox counter words 2 and 3)."""
        return self.st.stream

    @property
    def position(self):
        """Index of the next normal in the stream; a batch: (num_envs,) uint64."""
        cdef Py_ssize_t e
        if self.n_envs:
            return np.array([self.envs[e].position for e in range(self.n_envs)],
                            dtype=np.uint64)
        return self.st.position

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    def _position(self):
        cdef Py_ssize_t e
        if self.n_envs:
            return {"envs": [{"position": int(self.envs[e].position)}
                             for e in range(self.n_envs)]}
        return {"position": int(self.st.position)}

    def _set_position(self, position):
        cdef Py_ssize_t e
        if self.n_envs:
            _validate.fields("state['position']", position, ("envs",))
            envs = position["envs"]
            if not isinstance(envs, list) or len(envs) != self.n_envs:
                raise ValueError(f"state['position']['envs'] is not allowed: it must be a "
                                 f"list of {self.n_envs} positions (num_envs)")
            ps = []
            for e in range(self.n_envs):
                q = _validate.fields(f"state['position']['envs'][{e}]", envs[e],
                                     ("position",))
                ps.append(_validate.counter(f"state['position']['envs'][{e}]['position']",
                                            q["position"]))
            for e in range(self.n_envs):  # all checked first
                fn_stream_init(&self.envs[e], self.envs[e].key, self.envs[e].stream)
                self.envs[e].position = ps[e]
            return
        _validate.fields("state['position']", position, ("position",))
        self.st.position = _validate.counter("state['position']['position']",
                                             position["position"])

    def _check_room(self, n):
        # the position must stay below 2**64: at 2**64 it would wrap to 0 and hand
        # out the stream's first values again
        if self.st.position + n > _LAST_POSITION:
            raise OverflowError(
                f"{n} more values would run past the end of the stream (position "
                f"{self.st.position}, length 2**64)")

    def reset(self, env_ids=None):
        """Back to the seeded start: position 0, cached values dropped. A batch:
        ``env_ids`` (None: all; an int, int indices or a boolean mask of shape
        (num_envs,)) names the environments reset; the others continue unchanged."""
        if self.n_envs:
            for e in _spec.env_ids(env_ids, self.n_envs):
                fn_stream_init(&self.envs[e], self.envs[e].key, self.envs[e].stream)
            return
        if env_ids is not None:
            raise TypeError(f"env_ids={env_ids!r:.60} is not allowed: this generator is "
                            "one stream (build it with num_envs=N for a batch)")
        fn_stream_init(&self.st, self.st.key, self.st.stream)

    def advance(self, n):
        """Skip ``n`` values in O(1) (a batch: in every environment)."""
        cdef Py_ssize_t e
        n = _validate.integer("n", n, 0, 2**64)
        if self.n_envs:
            for e in range(self.n_envs):
                if self.envs[e].position + n > _LAST_POSITION:
                    raise OverflowError(f"environment {e}: {n} more values would run "
                                        "past the end of the stream (length 2**64)")
            for e in range(self.n_envs):
                self.envs[e].position += <uint64_t>n
            return
        self._check_room(n)
        self.st.position += <uint64_t>n

    def spawn(self, n):
        """``n`` new generators on independent keys (numpy's SeedSequence.spawn)."""
        if self.n_envs:
            raise TypeError("spawn is not allowed with num_envs: a batch's environments "
                            "are the seed's children already")
        n = _validate.integer("n", n, 0, 2**31)
        return [GaussianNoiseGenerator(child, self.st.stream)
                for child in self._seed_seq.spawn(n)]

    def check_numerics(self):
        """True when the cached values, if any, are finite (they always should be)."""
        cdef int i
        if not self.st.cache_ok:
            return True
        for i in range(16):
            if self.st.dtype == FN_FLOAT64 and not isfinite(self.st.c64[i]):
                return False
            if self.st.dtype == FN_FLOAT32 and not isfinite(self.st.c32[i]):
                return False
        return True

    def __repr__(self):
        if self.n_envs:
            return (f"GaussianNoiseGenerator(key=0x{self.st.key:016x}, "
                    f"stream={self.st.stream}, num_envs={self.n_envs})")
        return (f"GaussianNoiseGenerator(key=0x{self.st.key:016x}, stream={self.st.stream}, "
                f"position={self.st.position})")


register_model(GaussianNoiseGenerator)


def generator_at_key(key, stream, position):
    """A generator reading (key, stream) from ``position``, for tools and tests that
    address a stream by its raw Philox key (another model's stream, say). Its ``seed``
    is a placeholder: the state of such a generator does not rebuild the key."""
    cdef GaussianNoiseGenerator g = GaussianNoiseGenerator(0)
    fn_stream_init(&g.st, _validate.counter("key", key), _validate.counter("stream", stream))
    g.st.position = _validate.counter("position", position)
    return g
