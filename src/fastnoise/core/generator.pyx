"""GaussianNoiseGenerator: counter-keyed Box-Muller normals (seed 004's generator).

Every value is a pure function of (key, stream, index): see csrc/normal.h for the
canonical stream. The object holds only its position, so copies, pickles, resets and
multi-threaded fills all reproduce the same numbers.
"""

import os
import warnings

import numpy as np

cimport numpy as cnp
from libc.math cimport fma, fmaf, isfinite
from libc.stdint cimport uint64_t

from fastnoise.core.capi cimport (
    FN_FLOAT32,
    FN_FLOAT64,
    fn_normal_fill_f32,
    fn_normal_fill_f64,
    fn_simd_detected,
    fn_simd_level,
    fn_simd_name,
    fn_simd_set,
    fn_stream_init,
    fn_stream_next_f32,
    fn_stream_next_f64,
    fn_stream_take,
)

from fastnoise.core import threads as _threads

from fastnoise.core import validate as _validate
from fastnoise.core.seeding import (
    as_seed_sequence,
    key_from_seed_sequence,
    seed_sequence_from_state,
    seed_sequence_state,
)

cnp.import_array()

_SIMD_LEVELS = {"scalar": 0, "avx2": 1, "avx512": 2}  # the names dispatch.c reads

if os.environ.get("FASTNOISE_SIMD", "") not in ("", *_SIMD_LEVELS):
    warnings.warn(
        f"FASTNOISE_SIMD={os.environ['FASTNOISE_SIMD']!r} is not one of "
        f"{', '.join(_SIMD_LEVELS)}: it is ignored and the best path for this CPU is used",
        RuntimeWarning, stacklevel=2)
_F64 = np.dtype(np.float64)
_F32 = np.dtype(np.float32)
# Smallest split a threaded fill makes; below it threads cost more than they give.
_MIN_PER_THREAD = 1 << 16


def simd_path():
    """Name of the SIMD path the kernels use: "scalar", "avx2" or "avx512"."""
    return fn_simd_name(fn_simd_level()).decode()


def simd_paths_available():
    """Every path this CPU can run, lowest first."""
    return [n for n, lv in _SIMD_LEVELS.items() if lv <= fn_simd_detected()]


def set_simd_path(name):
    """Use a lower SIMD path (for tests and comparisons); returns the path in use.

    The environment variable FASTNOISE_SIMD (scalar, avx2, avx512) does the same at
    import. A path above what the CPU supports is capped. Every path gives the same
    bits; only speed differs.
    """
    if name not in _SIMD_LEVELS:
        raise ValueError(f"name={name!r} is not allowed: use one of {list(_SIMD_LEVELS)}")
    return fn_simd_name(fn_simd_set(_SIMD_LEVELS[name])).decode()


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


cdef class GaussianNoiseGenerator:
    """Gaussian noise from Philox4x32-10 and the Box-Muller transform.

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
        stream = _validate.integer("stream", stream, 0, 2**64)
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
    @property
    def seed(self):
        """The numpy.random.SeedSequence the key came from."""
        return self._seed_seq

    @property
    def key(self):
        """64-bit Philox key."""
        return self.st.key

    @property
    def stream(self):
        """Stream id (Philox counter words 2 and 3)."""
        return self.st.stream

    @property
    def position(self):
        """Index of the next normal in the stream."""
        return self.st.position

    @property
    def state(self):
        """The whole state as a dict (settable); integers only, so it is exact.

        ``key``, ``stream`` and ``position`` define the numbers; ``seed_seq`` records
        where the key came from (``seed``). Setting a state with a key of your own (to
        read another model's stream, say) is allowed; ``seed`` then reports the
        recorded sequence, not one that makes that key.
        """
        return {
            "bit_generator": "Philox4x32-10",
            "transform": "box-muller",
            "key": int(self.st.key),
            "stream": int(self.st.stream),
            "position": int(self.st.position),
            "seed_seq": seed_sequence_state(self._seed_seq),
        }

    @state.setter
    def state(self, value):
        if not isinstance(value, dict):
            raise TypeError(f"state must be a dict, got {type(value).__name__}")
        if value.get("bit_generator") != "Philox4x32-10":
            raise ValueError(
                f"state['bit_generator']={value.get('bit_generator')!r} is not allowed: "
                "it must be 'Philox4x32-10'")
        missing = {"key", "stream", "position", "seed_seq"} - value.keys()
        if missing:
            raise ValueError(f"state is missing the entries {sorted(missing)}")
        key = _validate.integer("state['key']", value["key"], 0, 2**64)
        stream = _validate.integer("state['stream']", value["stream"], 0, 2**64)
        position = _validate.integer("state['position']", value["position"], 0, 2**64)
        if not isinstance(value["seed_seq"], dict):
            raise TypeError(
                f"state['seed_seq']={value['seed_seq']!r} is not allowed: it must be a dict "
                "as the state property returns")
        try:
            ss = seed_sequence_from_state(value["seed_seq"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"state['seed_seq'] is not a valid seed sequence state: {exc}") \
                from None
        fn_stream_init(&self.st, key, stream)
        self.st.position = position
        self._seed_seq = ss

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

    # ---- copies and pickling ------------------------------------------------------
    def copy(self):
        """An independent generator at the same position, cache included."""
        cdef GaussianNoiseGenerator g = GaussianNoiseGenerator.__new__(
            GaussianNoiseGenerator)
        g.st = self.st
        g._seed_seq = seed_sequence_from_state(seed_sequence_state(self._seed_seq))
        return g

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_from_state, (self.state,))

    def __eq__(self, other):
        if not isinstance(other, GaussianNoiseGenerator):
            return NotImplemented
        return self.state == other.state

    __hash__ = None

    def __repr__(self):
        return (f"GaussianNoiseGenerator(key=0x{self.st.key:016x}, stream={self.st.stream}, "
                f"position={self.st.position})")


def _from_state(state):
    cdef GaussianNoiseGenerator g = GaussianNoiseGenerator.__new__(GaussianNoiseGenerator)
    g.state = state
    return g
