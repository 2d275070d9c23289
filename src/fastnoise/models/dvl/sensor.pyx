"""AugmentedWhiteNoise: the augmented white noise of one DVL sensor, after the Metron
DVL simulator document.

Each sample reports the sensor's ``anchor`` value with probability
``anchor_probability``, else ``truth + bias + noise_stddev * N(0, 1)``; the draws of
sample ``n`` are fixed by the sensor's key and ``n`` (see :mod:`fastnoise.models.dvl.simulator`
for the streams).
"""

import warnings

import numpy as np

cimport numpy as cnp
from libc.stdint cimport uint64_t

from fastnoise.core.buffers cimport recycled_empty
from fastnoise.core.model cimport Model, check_built, lock_model, unlock_model
from fastnoise.models.dvl.capi cimport (
    FN_DVL_NO_ROOM,
    FN_DVL_OK,
    FN_DVL_VALUE_MAX,
    fn_awn_init,
    fn_awn_set_params,
    fn_awn_params,
    fn_awn_params_of,
    fn_awn_measure_one,
    fn_awn_measure_span,
)

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.dvl import declarations as _declarations
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.core.deprecation import positional_options, renamed_keys
from fastnoise.models.dvl.config import (
    RENAMED_NOISE_PARAMS, VALUE_MAX, DvlRangeWarning, check_noise_params,
)

cnp.import_array()

if FN_DVL_VALUE_MAX != VALUE_MAX:
    raise ImportError(f"dvl_config.VALUE_MAX={VALUE_MAX!r} does not match the C core's "
                      f"FN_DVL_VALUE_MAX={FN_DVL_VALUE_MAX!r}")

_F64 = np.dtype(np.float64)
#: A sensor's last position: sample 2**64 - 1 is never drawn, so a position never wraps.
LAST_POSITION = 2**64 - 1


def short_repr(value):
    """repr(value) cut to 80 characters (a 5000-digit int has no repr at all)."""
    try:
        r = repr(value)
    except Exception:  # e.g. an int past sys.get_int_max_str_digits()
        return f"<{type(value).__name__}>"
    return r if len(r) <= 80 else r[:77] + "..."


cpdef double real(str name, value) except? -1.0:
    """A real number (not a bool, not a string, not complex); NaN and inf are allowed,
    as ground truth may be non-finite. The type check is ``validate.finite``'s; an int
    too large for a float64 is a ValueError naming ``name``."""
    if type(value) is float:
        return <double>value
    try:
        return _validate.finite(name, value)
    except ValueError:  # NaN or inf: kept as it is; an int beyond the doubles: refused
        try:
            return float(value)
        except OverflowError:
            raise ValueError(f"{name}={short_repr(value)} is not allowed: it is beyond "
                             f"the float64 range") from None


def as_array(name, value):
    """``np.asarray(value)``, with the errors of ragged or odd sequences naming ``name``."""
    if isinstance(value, np.ndarray):
        return value
    try:
        return np.asarray(value)
    except (ValueError, TypeError, OverflowError) as exc:
        raise TypeError(f"{name}={short_repr(value)} is not allowed: it must be an array of "
                        f"real numbers ({exc})") from None


def too_large_error(name, value):
    """The error for a finite truth value beyond VALUE_MAX."""
    return ValueError(f"{name}={value!r} is not allowed: finite truth must lie in "
                      f"[-{VALUE_MAX:g}, {VALUE_MAX:g}] (beyond it the measured value or the "
                      f"composite could overflow to inf; NaN and +-inf pass through as data)")


def no_room_error(who, position, n):
    """The error for a batch that would take a sensor past its last position."""
    return OverflowError(f"{who} is at position {position}: {n} more samples would pass its "
                         f"last position 2**64 - 1 (positions never wrap)")


#: The default of ``noise_stddev``: told apart by identity from a 0.0 that a caller
#: gives, so that ``noise_stddev`` and the deprecated ``noise_dev`` together are refused.
_ZERO = 0.0


def _old_noise_dev(where, deprecated, noise_stddev):
    """``noise_stddev`` from 0.2's ``noise_dev=`` (a DeprecationWarning naming the new
    name); another unknown keyword, or both spellings, is a TypeError."""
    for k in deprecated:
        if k not in RENAMED_NOISE_PARAMS:
            raise TypeError(f"{where}() got an unexpected keyword argument {k!r}")
    if noise_stddev is not _ZERO:
        raise TypeError(f"{where} got both 'noise_dev' (deprecated) and 'noise_stddev': "
                        "give 'noise_stddev' only")
    # stacklevel 2: the frames of this compiled module are not Python's
    return renamed_keys(where, deprecated, RENAMED_NOISE_PARAMS, stacklevel=2)["noise_stddev"]


cdef class AugmentedWhiteNoise(Model):
    """AugmentedWhiteNoise(bias=0.0, noise_stddev=0.0, anchor=0.0, anchor_probability=0.0,
                       *, seed=None, sensor=None, strict=False)
--

Augmented white noise of one sensor (the Metron DVL simulator document).

    Parameters
    ----------
    bias : float
        Added to every non-anchored value (units of the measured quantity).
    noise_stddev : float
        Standard deviation of the white noise (same units), >= 0 (the Metron document's
        ``noiseDev``; ``noise_dev=``, 0.2's keyword, still works with a
        DeprecationWarning).
    anchor : float
        Value sent instead of the measurement when the anchor event occurs (same
        units; any finite value).
    anchor_probability : float
        Probability of the anchor event per sample, in [0, 1].
    seed : int, numpy.random.SeedSequence or None
        Seeds the sensor's own streams (``None``: fresh entropy, kept in ``seed``).
    sensor : str or None
        A name from the sensor table (``fastnoise.models.dvl.config.SENSOR_NAMES``): enables
        the reasonable-range check of bias and noise_stddev.
    strict : bool
        Out-of-range values raise ``ValueError`` instead of warning.

    Non-finite values, ``noise_stddev < 0``, ``|bias|``, ``noise_stddev`` or ``|anchor|``
    beyond 1e300 (``fastnoise.models.dvl.config.VALUE_MAX``: so no finite input overflows)
    and ``anchor_probability`` outside [0, 1] are errors. Parameters may be changed
    between samples (e.g. a fault injected mid-run); the noise and anchor draws of
    sample ``n`` do not depend on them.

    Positions: the last is 2**64 - 1; a call that would pass it raises OverflowError
    naming the sensor and its position, and changes nothing.

    Threads: one sensor may be shared; no sample is handed out twice or skipped.
    ``measure_many`` reserves its span (reads and advances the position, and copies
    the parameters it uses) under the sensor's lock, then computes from that copy with
    the GIL released. ``measure`` reads and advances the position in one C step with
    the GIL held and no Python code inside; a locked call's reservation, once the lock
    is taken, is such a step too, so the two cannot interleave (the lock itself would
    double the cost of a ``measure`` call). Parameter, position and state changes take
    the lock. Concurrent calls get consecutive spans in the order they run; the values
    of a span depend only on its positions, parameters and truth. (Free-threaded
    CPython is not supported.)

    ``state['params']`` holds the constructor's keywords (bias, noise_stddev, anchor,
    anchor_probability, sensor, strict), ``state['position']`` is
    ``{"position": n}``, the index of the next sample.
    """

    def __cinit__(self, *args, **kwargs):
        # a safe empty sensor (key 0, all parameters 0) until __init__ commits one
        fn_awn_init(&self.s, 0)
        self._sensor = None
        self._strict = False

    def __init__(self, bias=0.0, noise_stddev=_ZERO, anchor=0.0, anchor_probability=0.0, *,
                 seed=None, sensor=None, strict=False, **deprecated):
        # everything checked into locals first: a failed __init__ changes nothing
        if deprecated:
            noise_stddev = _old_noise_dev("AugmentedWhiteNoise", deprecated, noise_stddev)
        v = _declarations.AUGMENTED_WHITE_NOISE.check_params({
            "bias": bias, "noise_stddev": noise_stddev, "anchor": anchor,
            "anchor_probability": anchor_probability, "sensor": sensor, "strict": strict})
        strict, sensor = v["strict"], v["sensor"]
        # the sensor table's reasonable ranges: the rule the specs state in words
        b, sd, a, p = check_noise_params(v["bias"], v["noise_stddev"], v["anchor"],
                                         v["anchor_probability"], sensor=sensor, strict=strict)
        ss = as_seed_sequence(seed)
        key = model_key(ss, "dvl")
        self._strict = strict
        self._sensor = sensor
        self._seed_seq = ss
        self._key = key
        fn_awn_init(&self.s, key)
        fn_awn_set_params(&self.s, b, sd, a, p)
        self._built = True

    cdef _set(self, str name, value):
        vals = {"bias": self.s.bias, "noise_stddev": self.s.noise_dev,
                "anchor": self.s.anchor, "anchor_probability": self.s.anchor_probability}
        vals[name] = _declarations.AUGMENTED_WHITE_NOISE.check_params({name: value})[name]
        b, sd, a, p = check_noise_params(**vals, sensor=self._sensor, strict=self._strict)
        lock_model(self)  # a batch takes all four at once, never a mix
        fn_awn_set_params(&self.s, b, sd, a, p)
        unlock_model(self)

    @property
    def bias(self):
        """Bias added to non-anchored values (units of the quantity)."""
        return self.s.bias

    @bias.setter
    def bias(self, value):
        self._set("bias", value)

    @property
    def noise_stddev(self):
        """White-noise standard deviation (units of the quantity), >= 0."""
        return self.s.noise_dev

    @noise_stddev.setter
    def noise_stddev(self, value):
        self._set("noise_stddev", value)

    @property
    def noise_dev(self):
        """Deprecated (0.2): ``noise_stddev``."""
        warnings.warn("AugmentedWhiteNoise.noise_dev is deprecated: use noise_stddev",
                      DeprecationWarning, stacklevel=2)
        return self.s.noise_dev

    @noise_dev.setter
    def noise_dev(self, value):
        warnings.warn("AugmentedWhiteNoise.noise_dev is deprecated: use noise_stddev",
                      DeprecationWarning, stacklevel=2)
        self._set("noise_stddev", value)

    @property
    def anchor(self):
        """Value sent on an anchor event (units of the quantity)."""
        return self.s.anchor

    @anchor.setter
    def anchor(self, value):
        self._set("anchor", value)

    @property
    def anchor_probability(self):
        """Probability of an anchor event per sample, in [0, 1]."""
        return self.s.anchor_probability

    @anchor_probability.setter
    def anchor_probability(self, value):
        self._set("anchor_probability", value)

    @property
    def position(self):
        """Index of the next sample (each sample's draws are fixed by it)."""
        return self.s.position

    @position.setter
    def position(self, value):
        cdef uint64_t p = _validate.counter("position", value)
        lock_model(self)
        self.s.position = p
        unlock_model(self)

    @property
    def sensor(self):
        """Sensor-table name (or None): selects the reasonable ranges."""
        return self._sensor

    @property
    def strict(self):
        """Out-of-range parameters raise instead of warning."""
        return self._strict

    def measure(self, truth):
        """The measured value of ``truth`` (a real number) for the next sample (units of
        the quantity). NaN/Inf truth propagate unless the anchor fires; a finite truth
        beyond 1e300 in magnitude is refused (ValueError), as is a sample past the last
        position (OverflowError); a refused call changes nothing."""
        cdef double t = <double>truth if type(truth) is float else real("truth", truth)
        cdef double v = 0.0
        cdef int rc
        check_built(self)
        # One sample, read and advanced in one C call with the GIL held and no Python
        # code inside: under the GIL as atomic as a locked reservation (also one such
        # step once the lock is taken), at no cost. The lock, 27 ns a pair here, would
        # double this 30 ns call (see the class docstring).
        rc = fn_awn_measure_one(&self.s, t, &v)
        if rc != FN_DVL_OK:
            raise self._refused(rc, 1, "truth", t)
        return v

    def _who(self):
        return f"sensor {self._sensor!r}" if self._sensor is not None else "this sensor"

    cdef _refused(self, int rc, uint64_t n, str name, double value):
        if rc == FN_DVL_NO_ROOM:
            return no_room_error(self._who(), self.s.position, n)
        return too_large_error(name, value)

    def measure_many(self, truth, *args, out=None):
        """Measured values of the next ``truth.size`` samples (float64, shape of
        ``truth``), equal to as many ``measure`` calls.

        ``truth``: real numbers of any shape, dtype (ints and floats; bool, complex,
        object, str and datetime are refused), byte order or layout: copied when the
        kernel cannot read it as it is, never modified. ``out``: a float64, native,
        C-contiguous, aligned, writeable array of that shape to fill. ``out`` may be
        ``truth`` itself (in place: the truth is copied first); any other overlap of
        ``out`` with ``truth`` is refused (ValueError), as a partial overlap would read
        values already overwritten.

        Refused before anything changes: a batch that would pass the last position
        (OverflowError naming the sensor and position). A finite truth value beyond
        1e300 in magnitude raises ValueError naming its index once the batch has run:
        its samples are then used (the position has moved past them) and ``out`` holds
        partial results.
        """
        if args:  # 0.2 callers passed these by position
            out, = positional_options(
                "AugmentedWhiteNoise.measure_many", args, ('out',),
                (out,), (None,))
        cdef fn_awn_params snap
        cdef cnp.ndarray o
        cdef double *op
        cdef const double *tp
        cdef size_t n
        cdef int rc
        check_built(self)
        given = as_array("truth", truth)
        t = _arrays.intake("truth", given, _F64)
        if out is None:
            out = recycled_empty(tuple(t.shape), _F64)
        else:
            _arrays.output("out", out, t.shape, _F64)
            _arrays.no_partial_overlap({"out": out}, {"truth": given})
            if np.may_share_memory(out, t):  # in place: read from a copy
                t = t.copy()
        o = out
        op = <double *>cnp.PyArray_DATA(o)
        n = <size_t>t.size
        tp = <const double *>cnp.PyArray_DATA(t)
        self._reserve(n, &snap)
        with nogil:
            rc = fn_awn_measure_span(&snap, n, tp, 1, op, 1)
        if rc != FN_DVL_OK:
            flat = t.reshape(-1)
            i = int(np.flatnonzero(np.isfinite(flat) & (np.abs(flat) > VALUE_MAX))[0])
            raise too_large_error(f"truth[{i}] (flat index)", float(flat[i]))
        return out

    cdef int _reserve(self, uint64_t n, fn_awn_params *snap) except -1:
        """Take samples [p, p + n) and the parameters they use (snap, with position p),
        under the lock."""
        cdef uint64_t pos
        cdef bint room
        lock_model(self)
        pos = self.s.position
        room = n <= <uint64_t>LAST_POSITION - pos
        if room:
            snap[0] = fn_awn_params_of(&self.s)
            self.s.position = pos + n
        unlock_model(self)
        if not room:
            raise no_room_error(self._who(), pos, n)
        return 0

    def reset(self):
        """Rewind to sample 0 (parameters are kept)."""
        lock_model(self)
        self.s.position = 0
        unlock_model(self)

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    model_name = "augmented_white_noise"
    declaration = _declarations.AUGMENTED_WHITE_NOISE

    def _position(self):
        return {"position": int(self.s.position)}

    def _set_position(self, position):
        _validate.fields("state['position']", position, ("position",))
        cdef uint64_t p = _validate.counter("state['position']['position']",
                                            position["position"])
        lock_model(self)
        self.s.position = p
        unlock_model(self)

    @classmethod
    def from_state(cls, state, **extras):
        """A new sensor from a ``state`` dict (see ``fastnoise.core.model``). Out-of-range
        values were warned about when the state's model was built: not again."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DvlRangeWarning)
            return super(AugmentedWhiteNoise, cls).from_state(state, **extras)


register_model(AugmentedWhiteNoise)
