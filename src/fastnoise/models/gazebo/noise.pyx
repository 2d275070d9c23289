"""Gazebo's Gaussian noise model (gz-sensors ``GaussianNoiseModel``), keyed.

:class:`GazeboNoise` is one gz-sensors noise object on one scalar channel; the sensor
models of :mod:`fastnoise.models.gazebo.sensors` hold one channel per component. The
arithmetic and the random streams are in ``csrc/gznoise.h``: sample k of a channel
uses float64 normal k of its white stream and normal k of its dynamic-bias stream, the
turn-on bias normal 0 of its bias stream and the sign word 0 of its sign stream, so a
channel's output depends only on (seed, component, sample index) and the inputs.
"""

cimport numpy as cnp
from libc.stdint cimport uint64_t

from fastnoise.core.model cimport Model, check_built, lock_model, unlock_model
from fastnoise.models.gazebo.capi cimport (
    FN_STREAM_GZ_TAG,
    fn_gz_channel_apply,
    fn_gz_channel_apply_one,
    fn_gz_channel_init,
    fn_gz_expm1,
    fn_gz_params,
    fn_gz_wgs84_deg_per_m,
)

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.gazebo import declarations as _declarations
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.core.deprecation import positional_options

cnp.import_array()

#: The keys of a component's noise mapping (SDF's ``<noise>`` children), in order.
PARAM_KEYS = ("mean", "stddev", "bias_mean", "bias_stddev", "dynamic_bias_stddev",
              "dynamic_bias_correlation_time", "precision")
# Largest |value| of a parameter: sums of noise terms stay far from overflow.
MAX_PARAM = 1.0e30
_SIGNED = ("mean", "bias_mean")
_LAST = 2**64 - 1


def noise_params(name, value):
    """A component's noise mapping, checked against its spec (the Gazebo sensors'
    ``component`` parameters): None (no noise) or a dict with every key of
    :data:`PARAM_KEYS` (missing keys are 0.0). ``mean`` and ``bias_mean`` lie in
    [-1e30, 1e30], the others in [0, 1e30] (a negative precision, which gz-sensors
    reports as an error and then ignores, is refused)."""
    return _declarations.component(name).check(value)


def dt_array(dt, n):
    """``dt`` (s) for a run of n samples: (array, stride): a scalar gives stride 0, an
    array of shape (n,) stride 1. Every value finite and >= 0."""
    if np.ndim(dt) == 0:
        v = _validate.in_range("dt", dt, 0.0, MAX_PARAM)
        return np.array([v]), 0
    arr = _arrays.intake("dt", dt, np.float64, ndim=1)
    if arr.shape[0] != n:
        raise ValueError(f"dt has shape {arr.shape}: it must be a scalar or have shape ({n},)")
    bad = ~(np.isfinite(arr) & (arr >= 0))
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(f"dt[{i}]={arr[i]!r} is not allowed: every dt must be finite and >= 0")
    return arr, 1


cdef double dt_one(object dt) except? -1.0:
    if type(dt) is float and 0.0 <= <double>dt <= MAX_PARAM:
        return <double>dt
    return _validate.in_range("dt", dt, 0.0, MAX_PARAM)


cdef double real_one(str name, object v) except? -1.5:
    # any float (inf and nan pass through the noise arithmetic, as in gz-sensors), or
    # a real number (bools, strings, arrays are refused by name)
    if type(v) is float:
        return <double>v
    if isinstance(v, (float, np.floating)):
        return float(v)
    return _validate.finite(name, v)


cdef class _Channels:
    """The noise channels of one model (internal)."""

    def __cinit__(self, key, names, params):
        cdef fn_gz_params p
        cdef int i
        self.key = key
        self.names = tuple(names)
        self.params = tuple(params)
        self.n = len(self.names)
        for i in range(self.n):
            d = self.params[i]
            self.on[i] = d is not None
            if d is None:
                continue
            p.mean = d["mean"]
            p.stddev = d["stddev"]
            p.dyn_stddev = d["dynamic_bias_stddev"]
            p.dyn_tau = d["dynamic_bias_correlation_time"]
            p.precision = d["precision"]
            fn_gz_channel_init(&self.ch[i], &p, <uint64_t>key,
                               FN_STREAM_GZ_TAG | (<uint64_t>i << 8),
                               d["bias_mean"], d["bias_stddev"])

    cdef int check_room(self, int i, size_t samples) except -1:
        if self.on[i] and samples > _LAST - self.ch[i].count:
            raise OverflowError(f"{self.names[i]}: {samples} more samples would pass the "
                                f"end of its streams (2**64 - 1 samples)")
        return 0

    cdef double one(self, int i, double x, double dt) noexcept nogil:
        return fn_gz_channel_apply_one(&self.ch[i], x, dt)

    def position(self):
        return {self.names[i]: {"count": int(self.ch[i].count), "bias": float(self.ch[i].bias)}
                for i in range(self.n) if self.on[i]}

    def set_position(self, name, position):
        on = [self.names[i] for i in range(self.n) if self.on[i]]
        _validate.fields(name, position, tuple(on))
        vals = []
        for i in range(self.n):
            if self.on[i]:
                p = _validate.fields(f"{name}['{self.names[i]}']", position[self.names[i]],
                                     ("count", "bias"))
                vals.append((i, _validate.counter(f"{name}['{self.names[i]}']['count']",
                                                  p["count"]),
                             _validate.in_range(f"{name}['{self.names[i]}']['bias']",
                                                p["bias"], -1e300, 1e300)))
        for i, c, b in vals:  # all checked first: a refused position changes nothing
            self.ch[i].count = c
            self.ch[i].bias = b
            self.ch[i].wok = 0
            self.ch[i].dok = 0

    def bias(self, int i):
        return float(self.ch[i].bias) if self.on[i] else 0.0

    def count(self, int i):
        return int(self.ch[i].count) if self.on[i] else 0

    def run(self, int i, src, dst, Py_ssize_t col, size_t m, dt, Py_ssize_t dts):
        """Apply channel i to ``m`` successive columns from ``col`` of the 2-D float64
        C-contiguous ``src`` (rows are successive updates), writing the same places of
        ``dst`` (same shape; may be ``src``); ``dt`` a float64 array read with stride
        ``dts``. The caller checked the room and holds the owner's lock."""
        cdef cnp.ndarray a = src
        cdef cnp.ndarray o = dst
        cdef cnp.ndarray d = dt
        cdef size_t n = <size_t>cnp.PyArray_DIM(a, 0)
        cdef Py_ssize_t ncol = cnp.PyArray_DIM(a, 1)
        cdef const double *p = (<const double *>cnp.PyArray_DATA(a)) + col
        cdef double *q = (<double *>cnp.PyArray_DATA(o)) + col
        cdef const double *dp = <const double *>cnp.PyArray_DATA(d)
        cdef int rc
        if not self.on[i] or n == 0:
            return
        if cnp.PyArray_DIM(o, 0) != <Py_ssize_t>n or cnp.PyArray_DIM(o, 1) != ncol:
            raise ValueError("src and dst differ in shape")
        with nogil:
            rc = fn_gz_channel_apply(&self.ch[i], m, p, ncol, 1, dp, dts, n, q, ncol)
        if rc != 0:
            raise OverflowError(f"{self.names[i]}: the run passes the end of its streams")


def _expm1(double x):
    """The kernel's expm1 for x <= 0 (for tests)."""
    if not x <= 0:
        raise ValueError(f"x={x!r} is not allowed: the kernel's expm1 takes x <= 0")
    return fn_gz_expm1(x)


def _wgs84_deg_per_m(double lat_deg):
    """(degrees of latitude, degrees of longitude) per metre north, east (for tests)."""
    cdef double a, b
    fn_gz_wgs84_deg_per_m(lat_deg, &a, &b)
    return a, b


cdef class GazeboNoise(Model):
    """GazeboNoise(mean=0.0, stddev=0.0, bias_mean=0.0, bias_stddev=0.0,
    dynamic_bias_stddev=0.0, dynamic_bias_correlation_time=0.0, precision=0.0, *,
    seed=None)
--

    gz-sensors' ``GaussianNoiseModel`` on one scalar channel, in the channel's own unit
    (called "u" below: m, Pa, T, ...). Every parameter is finite, with
    ``|value| <= 1e30``; all but ``mean`` and ``bias_mean`` are >= 0.

    Parameters
    ----------
    mean, stddev : float
        White noise N(mean, stddev) u per sample (exactly ``mean`` when stddev is 0).
    bias_mean, bias_stddev : float
        Turn-on bias N(bias_mean, bias_stddev) u (exactly ``bias_mean`` when
        bias_stddev is 0), drawn once and negated with probability 1/2, as gz-sensors'
        ``GaussianNoiseModel::Load`` does.
    dynamic_bias_stddev : float
        Driving density sigma_d of the bias (u/sqrt(s)): when it and the correlation
        time are > 0, a sample with dt > 0 moves the bias:
        ``bias = e^(-dt/tau) bias + N(0, sqrt(-sigma_d^2 tau/2 expm1(-2 dt/tau)))``
        (stationary std sigma_d sqrt(tau/2)).
    dynamic_bias_correlation_time : float
        tau, s. Any finite value: tau <= 0 (zero or negative) gives no dynamic bias, as
        gz-sensors' ``GaussianNoiseModel::ApplyImpl`` (it moves the bias only when
        sigma_d > 0, tau > 0 and dt > 0; sdformat's ``noise.sdf`` has no minimum).
    precision : float
        When > 1e-6, results are rounded to a multiple of it (``round(out /
        precision) * precision``, halves away from zero), u.
    seed : int, numpy.random.SeedSequence or None

    ``out = (x + bias) + white``, then the rounding. Sample k (k = samples applied
    before it) draws float64 normal k of its white and dynamic-bias streams; the
    turn-on bias and its sign come from the seed alone (``csrc/gznoise.h``). The
    position is the sample count and the current bias (``state['position']``);
    ``reset()`` goes back to sample 0 and the turn-on bias. inf and nan inputs pass
    through the arithmetic (as in gz-sensors).
    """

    model_name = "gazebo_noise"
    declaration = _declarations.GAZEBO_NOISE

    cdef _Channels _ch
    cdef readonly double mean, stddev, bias_mean, bias_stddev, precision
    cdef readonly double dynamic_bias_stddev, dynamic_bias_correlation_time

    def __init__(self, mean=0.0, stddev=0.0, bias_mean=0.0, bias_stddev=0.0,
                 dynamic_bias_stddev=0.0, dynamic_bias_correlation_time=0.0, precision=0.0,
                 *, seed=None):
        d = _declarations.GAZEBO_NOISE.check_params({
            "mean": mean, "stddev": stddev, "bias_mean": bias_mean,
            "bias_stddev": bias_stddev, "dynamic_bias_stddev": dynamic_bias_stddev,
            "dynamic_bias_correlation_time": dynamic_bias_correlation_time,
            "precision": precision})
        ss = as_seed_sequence(seed)
        ch = _Channels(model_key(ss, self.model_name), ("value",), (d,))
        self.mean = d["mean"]
        self.stddev = d["stddev"]
        self.bias_mean = d["bias_mean"]
        self.bias_stddev = d["bias_stddev"]
        self.dynamic_bias_stddev = d["dynamic_bias_stddev"]
        self.dynamic_bias_correlation_time = d["dynamic_bias_correlation_time"]
        self.precision = d["precision"]
        lock_model(self)  # a rebuild (the state setter) must not pull it from a running apply
        self._ch = ch
        unlock_model(self)
        self._seed_seq = ss
        self._key = ch.key
        self._built = True

    @property
    def bias(self):
        """The current bias (u): the turn-on bias, moved by the dynamic bias."""
        check_built(self)
        return self._ch.bias(0)

    @property
    def count(self):
        """Samples applied since construction or ``reset()``."""
        check_built(self)
        return self._ch.count(0)

    def _position(self):
        check_built(self)
        return dict(self._ch.position()["value"])

    def _set_position(self, position):
        check_built(self)
        self._ch.set_position("state['position']", {"value": position})

    def reset(self):
        """Back to sample 0 and the turn-on bias (the same bias as after construction)."""
        check_built(self)
        ch = _Channels(self._ch.key, self._ch.names, self._ch.params)
        lock_model(self)
        self._ch = ch
        unlock_model(self)

    def apply_one(self, x, dt=0.0):
        """One noised sample (u) of input ``x`` (u) after an interval ``dt`` (s, finite,
        >= 0; 0 leaves the dynamic bias where it is), as gz-sensors' ``Noise::Apply(x,
        dt)``."""
        cdef double v, d, r
        check_built(self)
        v = real_one("x", x)
        d = dt_one(dt)
        self._ch.check_room(0, 1)
        lock_model(self)
        r = self._ch.one(0, v, d)
        unlock_model(self)
        return r

    def apply(self, x, dt=0.0, *args, out=None):
        """Noised successive samples (u) of the 1-D array ``x`` (u), in order, as that
        many ``apply_one`` calls would give them, bit for bit. ``dt`` (s): a scalar for
        every sample or an array of shape (n,). float64 result; ``out`` (float64,
        shape (n,), C-contiguous, writeable; may be ``x`` itself) receives it."""
        if args:  # 0.2 callers passed these by position
            out, = positional_options(
                "GazeboNoise.apply", args, ('out',),
                (out,), (None,))
        check_built(self)
        arr = _arrays.intake("x", x, np.float64, ndim=1)
        n = arr.shape[0]
        dts, stride = dt_array(dt, n)
        if out is None:
            res = np.empty_like(arr)
        else:
            res = _arrays.output("out", out, arr.shape, np.float64)
            _arrays.no_partial_overlap({"out": res}, {"x": arr})
        self._ch.check_room(0, n)
        lock_model(self)
        try:
            self._ch.run(0, arr.reshape(n, 1), res.reshape(n, 1), 0, 1, dts, stride)
        finally:
            unlock_model(self)
        return res


register_model(GazeboNoise)
