"""AugmentedWhiteNoise: the augmented white noise of one DVL sensor (seed 000).

Each sample reports the sensor's ``anchor`` value with probability
``anchor_probability``, else ``truth + bias + noise_dev * N(0, 1)``; the draws of
sample ``n`` are fixed by the sensor's key and ``n`` (see :mod:`fastnoise.models.dvl`
for the streams).
"""

import warnings

import numpy as np

cimport numpy as cnp

from fastnoise.core.buffers cimport recycled_empty
from fastnoise.core.model cimport Model
from fastnoise.models.dvl_capi cimport fn_awn_init, fn_awn_measure_many, fn_awn_measure_one

from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.io.dvl_config import DvlRangeWarning, check_noise_params

cnp.import_array()

_F64 = np.dtype(np.float64)


cpdef double real(str name, value) except? -1.0:
    """A real number (not a bool, not a string); NaN and inf are allowed, as ground
    truth may be non-finite. The type check is ``validate.finite``'s."""
    if type(value) is float:
        return <double>value
    try:
        return _validate.finite(name, value)
    except ValueError:  # a real number that is not finite: kept as it is
        return float(value)


def as_float_array(name, value):
    """``value`` as a float64 array (ints and floats only; bools and objects refused)."""
    arr = np.asarray(value)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} has dtype {arr.dtype}: it must hold real numbers")
    return arr.astype(np.float64, copy=False)


def _unbuilt(obj):
    return RuntimeError(f"this {type(obj).__name__} was never built (made with __new__ or "
                        f"left by a failed __init__): call __init__ or use from_state")


cdef class AugmentedWhiteNoise(Model):
    """AugmentedWhiteNoise(bias=0.0, noise_dev=0.0, anchor=0.0, anchor_probability=0.0,
                       *, seed=None, sensor=None, strict=False)
--

Augmented white noise of one sensor (seed 000).

    Parameters
    ----------
    bias : float
        Added to every non-anchored value (units of the measured quantity).
    noise_dev : float
        Standard deviation of the white noise (same units), >= 0.
    anchor : float
        Value sent instead of the measurement when the anchor event occurs (same
        units; any finite value).
    anchor_probability : float
        Probability of the anchor event per sample, in [0, 1].
    seed : int, numpy.random.SeedSequence or None
        Seeds the sensor's own streams (``None``: fresh entropy, kept in ``seed``).
    sensor : str or None
        A name from the sensor table (``fastnoise.io.dvl_config.SENSOR_NAMES``): enables
        the reasonable-range check of bias and noise_dev.
    strict : bool
        Out-of-range values raise ``ValueError`` instead of warning.

    Non-finite values, ``noise_dev < 0`` and ``anchor_probability`` outside [0, 1] are
    errors. Parameters may be changed between samples (e.g. a fault injected mid-run);
    the noise and anchor draws of sample ``n`` do not depend on them.

    ``state['params']`` holds the constructor's keywords (bias, noise_dev, anchor,
    anchor_probability, sensor, strict), ``state['position']`` is
    ``{"position": n}``, the index of the next sample.
    """

    def __cinit__(self, *args, **kwargs):
        # a safe empty sensor (key 0, all parameters 0) until __init__ commits one
        fn_awn_init(&self.s, 0)
        self._sensor = None
        self._strict = False

    def __init__(self, bias=0.0, noise_dev=0.0, anchor=0.0, anchor_probability=0.0, *,
                 seed=None, sensor=None, strict=False):
        # everything checked into locals first: a failed __init__ changes nothing
        strict = _validate.boolean("strict", strict)
        b, sd, a, p = check_noise_params(bias, noise_dev, anchor, anchor_probability,
                                         sensor=sensor, strict=strict)
        ss = as_seed_sequence(seed)
        key = model_key(ss, "dvl")
        self._strict = strict
        self._sensor = sensor
        self._seed_seq = ss
        fn_awn_init(&self.s, key)
        self.s.bias = b
        self.s.noise_dev = sd
        self.s.anchor = a
        self.s.anchor_probability = p

    cdef _set(self, str name, value):
        vals = {"bias": self.s.bias, "noise_dev": self.s.noise_dev,
                "anchor": self.s.anchor, "anchor_probability": self.s.anchor_probability}
        vals[name] = value
        b, sd, a, p = check_noise_params(**vals, sensor=self._sensor, strict=self._strict)
        self.s.bias = b
        self.s.noise_dev = sd
        self.s.anchor = a
        self.s.anchor_probability = p

    @property
    def bias(self):
        """Bias added to non-anchored values (units of the quantity)."""
        return self.s.bias

    @bias.setter
    def bias(self, value):
        self._set("bias", value)

    @property
    def noise_dev(self):
        """White-noise standard deviation (units of the quantity), >= 0."""
        return self.s.noise_dev

    @noise_dev.setter
    def noise_dev(self, value):
        self._set("noise_dev", value)

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
        self.s.position = _validate.counter("position", value)

    @property
    def key(self):
        """64-bit Philox key of this sensor."""
        return self.s.key

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
        the quantity). NaN/Inf truth propagate unless the anchor fires."""
        cdef double t = <double>truth if type(truth) is float else real("truth", truth)
        if self._seed_seq is None:
            raise _unbuilt(self)
        return fn_awn_measure_one(&self.s, t)

    def measure_many(self, truth, out=None):
        """Measured values of the next ``truth.size`` samples (float64, shape of
        ``truth``), equal to as many ``measure`` calls. ``out``: float64 C-contiguous
        array of that shape to fill. ``truth`` is not modified."""
        if self._seed_seq is None:
            raise _unbuilt(self)
        t = as_float_array("truth", truth)
        if out is None:
            out = recycled_empty(tuple(t.shape), _F64)
        else:
            _validate.output_array("out", out, t.shape, _F64)
        t = np.ascontiguousarray(t).reshape(-1)
        cdef double[::1] tv = t
        cdef cnp.ndarray o = out
        cdef double *op = <double *>cnp.PyArray_DATA(o)
        cdef size_t n = t.shape[0]
        cdef const double *tp = &tv[0] if n else NULL
        with nogil:
            fn_awn_measure_many(&self.s, n, tp, 1, op, 1)
        return out

    def reset(self):
        """Rewind to sample 0 (parameters are kept)."""
        self.s.position = 0

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    model_name = "augmented_white_noise"

    def _params(self):
        if self._seed_seq is None:
            raise _unbuilt(self)
        return {"bias": self.s.bias, "noise_dev": self.s.noise_dev, "anchor": self.s.anchor,
                "anchor_probability": self.s.anchor_probability, "sensor": self._sensor,
                "strict": bool(self._strict)}

    def _position(self):
        return {"position": int(self.s.position)}

    def _set_position(self, position):
        _validate.fields("state['position']", position, ("position",))
        self.s.position = _validate.counter("state['position']['position']",
                                            position["position"])

    def _take(self, other):
        if type(other) is not type(self):  # a typed None would be dereferenced
            raise TypeError(f"other={other!r} is not allowed: use a {type(self).__name__}")
        cdef AugmentedWhiteNoise o = other
        self.s = o.s
        self._sensor = o._sensor
        self._strict = o._strict
        self._seed_seq = o._seed_seq

    @classmethod
    def from_state(cls, state, **extras):
        """A new sensor from a ``state`` dict (see ``fastnoise.core.model``). Out-of-range
        values were warned about when the state's model was built: not again."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DvlRangeWarning)
            return super(AugmentedWhiteNoise, cls).from_state(state, **extras)


register_model(AugmentedWhiteNoise)
