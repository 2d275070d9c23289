"""GaussianNoiseGenerator: counter-keyed Box-Muller normals (the generator of the
SensorSimulator API document).

Every value is a pure function of (key, stream, index): see csrc/normal.h for the
canonical stream. The object holds only its position, so copies, pickles, resets and
multi-threaded fills all reproduce the same numbers.
"""

import numbers

import numpy as np

cimport numpy as cnp
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
from fastnoise.core.seeding import as_seed_sequence, key_from_seed_sequence

cnp.import_array()

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


cdef class GaussianNoiseGenerator(Model):
    """GaussianNoiseGenerator(seed=None, stream=0)
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

    def __init__(self, seed=None, stream=0):
        stream = type(self).declaration.check_params({"stream": stream})["stream"]
        ss = as_seed_sequence(seed)
        self._seed_seq = ss
        fn_stream_init(&self.st, key_from_seed_sequence(ss), stream)
        self._key = self.st.key
        self._built = True

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
        if self.st.position == UINT64_MAX:
            self._check_room(1)
        return fma(sd, fn_stream_next_f64(&self.st), m)

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
        """
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

    def standard_normal(self, size=None, *, dtype=None, out=None, threads=1):
        """The next standard normals (numpy's ``standard_normal``); see :meth:`normal`."""
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
        """Index of the next normal in the stream."""
        return self.st.position

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    def _position(self):
        return {"position": int(self.st.position)}

    def _set_position(self, position):
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

    def reset(self):
        """Back to the seeded start: position 0, cached values dropped."""
        fn_stream_init(&self.st, self.st.key, self.st.stream)

    def advance(self, n):
        """Skip ``n`` values in O(1)."""
        n = _validate.integer("n", n, 0, 2**64)
        self._check_room(n)
        self.st.position += <uint64_t>n

    def spawn(self, n):
        """``n`` new generators on independent keys (numpy's SeedSequence.spawn)."""
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
