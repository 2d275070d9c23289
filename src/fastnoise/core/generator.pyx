"""GaussianNoiseGenerator: counter-keyed Box-Muller normals (seed 004's generator).

Every value is a pure function of (key, stream, index): see csrc/normal.h for the
canonical stream. The object holds only its position, so copies, pickles, resets and
multi-threaded fills all reproduce the same numbers.
"""

import numpy as np

cimport numpy as cnp
from libc.math cimport fma, fmaf, isfinite
from libc.stdint cimport uint64_t

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

from fastnoise.core import threads as _threads

from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
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


def fill_normals(uint64_t key, uint64_t stream, uint64_t first, cnp.ndarray flat,
                 double mean=0.0, double stddev=1.0, threads=1):
    """Fill the C-contiguous float32/float64 array ``flat`` with normals
    ``first, first + 1, ...`` of (key, stream), on up to ``threads`` threads.

    The values do not depend on ``threads``: each index has its own number.
    """
    cdef Py_ssize_t n = cnp.PyArray_SIZE(flat)
    cdef int nthreads = _threads.count(threads)
    if n and first + <uint64_t>(n - 1) < first:
        raise OverflowError(f"first={first} + {n} values run past the end of the stream (2**64)")
    _fill_split(key, stream, first, flat, mean, stddev, nthreads)


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
    Normal ``j`` of a stream is fixed: ``normal(n)`` returns the next ``n`` of them and
    ``n`` calls of ``generate()`` return the same ``n`` values, bit for bit (normals
    are made 16 at a time from four Philox blocks; the values not yet returned are
    the "cached" values of seed 004). A draw of ``mean`` and ``stddev`` is ``fma(stddev, z, mean)``.
    float64 and float32 share one position: value ``j`` comes from the same random
    words in either dtype (computed in that dtype's precision), so mixing dtypes
    neither skips nor repeats values. Uniforms have 32 bits, so ``|z| <= 6.66`` in
    both dtypes (P(|z| > 6.66) = 2.7e-11). Values are the same on every SIMD path (see
    ``fastnoise.simd_path``), thread count and chunking.
    """

    def __init__(self, seed=None, stream=0):
        ss = as_seed_sequence(seed)
        stream = _validate.counter("stream", stream)
        self._seed_seq = ss
        fn_stream_init(&self.st, key_from_seed_sequence(ss), stream)

    def generate(self, double mean=0.0, double stddev=1.0):
        """One float64 draw ``fma(stddev, z, mean)`` (units of ``mean``)."""
        if not (stddev >= 0.0 and isfinite(stddev)):
            raise ValueError(
                f"stddev={stddev!r} is not allowed: it must be finite and >= 0")
        if not isfinite(mean):
            raise ValueError(f"mean={mean!r} is not allowed: it must be finite")
        return fma(stddev, fn_stream_next_f64(&self.st), mean)

    def normal(self, size=None, mean=0.0, stddev=1.0, dtype=None, out=None, threads=1):
        """Draw ``mean + stddev * z`` for the next normals of the stream.

        Parameters
        ----------
        size : int, tuple of int or None
            Output shape; ``None`` returns one float unless ``out`` is given.
        mean, stddev : float
            Location and scale (same units as the result); ``stddev >= 0``.
        dtype : float64 or float32, optional
            Default: ``out.dtype`` when ``out`` is given, else float64. float32 values
            are computed in float32 arithmetic (about twice the throughput).
        out : ndarray, optional
            C-contiguous array of ``dtype`` (and of shape ``size`` if given) to fill.
        threads : int
            Fill on this many threads; the values do not depend on it.
        """
        mean = _validate.finite("mean", mean)
        stddev = _validate.nonnegative("stddev", stddev)
        if dtype is None and isinstance(out, np.ndarray):
            dt = _validate.float_dtype("out.dtype", out.dtype)
        else:
            dt = _validate.float_dtype("dtype", _F64 if dtype is None else dtype)
        if out is None:
            if size is None:  # one value, as the fill would compute it
                self._check_room(1)
                if dt == _F64:
                    return fma(stddev, fn_stream_next_f64(&self.st), mean)
                return np.float32(fmaf(<float>stddev, fn_stream_next_f32(&self.st),
                                       <float>mean))
            arr = np.empty(size, dtype=dt)
        else:
            shape = out.shape if (size is None and isinstance(out, np.ndarray)) else size
            if isinstance(shape, int):
                shape = (shape,)
            arr = _validate.output_array("out", out, tuple(shape), dt)
        self._fill(arr, mean, stddev, threads)
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

    @property
    def key(self):
        """64-bit Philox key (from ``seed``)."""
        return self.st.key

    @property
    def stream(self):
        """Stream id (Philox counter words 2 and 3)."""
        return self.st.stream

    @property
    def position(self):
        """Index of the next normal in the stream."""
        return self.st.position

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    def _params(self):
        return {"stream": int(self.st.stream)}

    def _position(self):
        return {"position": int(self.st.position)}

    def _set_position(self, position):
        _validate.fields("state['position']", position, ("position",))
        self.st.position = _validate.counter("state['position']['position']",
                                             position["position"])

    def _take(self, other):
        cdef GaussianNoiseGenerator g = other
        self.st = g.st
        self._seed_seq = g._seed_seq

    def _check_room(self, n):
        if self.st.position + n > 2**64:
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
