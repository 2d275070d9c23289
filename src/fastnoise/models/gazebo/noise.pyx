"""Gazebo's Gaussian noise model (gz-sensors ``GaussianNoiseModel``), keyed.

:class:`GazeboNoise` is one gz-sensors noise object on one scalar channel; the sensor
models of :mod:`fastnoise.models.gazebo.sensors` hold one channel per component. The
arithmetic and the random streams are in ``csrc/gznoise.h``: sample k of a channel
uses float64 normal k of its white stream and normal k of its dynamic-bias stream, the
turn-on bias normal 0 of its bias stream and the sign word 0 of its sign stream, so a
channel's output depends only on (seed, component, sample index) and the inputs.
"""

cimport numpy as cnp
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport uint64_t

from fastnoise.core.model cimport Model, check_built, hold_model, lock_model, unlock_model
from fastnoise.models.gazebo.capi cimport (
    FN_STREAM_GZ_TAG,
    fn_gz_channel_apply,
    fn_gz_batch_apply,
    fn_gz_channel,
    fn_gz_channel_apply_one,
    fn_gz_channel_init,
    fn_gz_expm1,
    fn_gz_tile,
    fn_gz_tile_alloc,
    fn_gz_tile_free,
    fn_gz_tile_push,
    fn_gz_tile_sync,
    fn_gz_params,
    fn_gz_wgs84_deg_per_m,
)

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.gazebo import declarations as _declarations
from fastnoise.core import spec as _spec
from fastnoise.core.seeding import as_seed_sequence, env_model_key
from fastnoise.core.deprecation import positional_options

cnp.import_array()

#: The keys of a component's noise mapping (SDF's ``<noise>`` children), in order.
PARAM_KEYS = ("mean", "stddev", "bias_mean", "bias_stddev", "dynamic_bias_stddev",
              "dynamic_bias_correlation_time", "precision")
# Largest |value| of a parameter: sums of noise terms stay far from overflow.
MAX_PARAM = 1.0e30
cdef double _MAX_DT = 1.0e30  # MAX_PARAM as a C double: the per-sample dt check
_SIGNED = ("mean", "bias_mean")


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


def env_dt(dt, n, t, one):
    """``dt`` (s) of a batch of ``n`` environments and ``t`` samples each: (float64
    array, env stride, time stride), environment e's sample k at [e * es + k * ts]. A
    scalar, (n,) or (only when not ``one``, a single sample per environment) (n, t);
    every value finite, in [0, 1e30]."""
    if np.ndim(dt) == 0:
        return np.array([_validate.in_range("dt", dt, 0.0, MAX_PARAM)]), 0, 0
    dts = _arrays.intake("dt", dt, np.float64)
    if dts.shape == (n,):
        es, ts = 1, 0
    elif not one and dts.shape == (n, t):
        es, ts = t, 1
    else:
        shapes = f"() or ({n},)" + ("" if one else f" or ({n}, {t})")
        raise ValueError(f"dt has shape {dts.shape}: with num_envs={n} it must be "
                         f"{shapes} (s)")
    bad = ~(np.isfinite(dts) & (dts >= 0) & (dts <= MAX_PARAM))
    if bad.any():
        raise ValueError(f"dt contains {float(dts[bad][0])!r}: every dt must be finite "
                         "and >= 0 s")
    return dts, es, ts


cdef double dt_one(object dt) except? -1.0:
    # C comparisons only (a Python bound would box the float on every sample)
    if type(dt) is float and 0.0 <= <double>dt <= _MAX_DT:
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
        cdef int i
        self.key = key
        self.names = tuple(names)
        self.params = tuple(params)
        self.n = len(self.names)
        for i in range(self.n):
            d = self.params[i]
            self.on[i] = d is not None
            if d is not None:
                init_channel(&self.ch[i], d, <uint64_t>key,
                             FN_STREAM_GZ_TAG | (<uint64_t>i << 8))

    cdef int check_room(self, int i, size_t samples) except -1:
        # uint64 arithmetic (count <= 2**64 - 1): no Python integers per sample
        if out_of_room(self, i, samples):
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


cdef int init_channel(fn_gz_channel *c, object d, uint64_t key, uint64_t stream) except -1:
    cdef fn_gz_params p
    p.mean = d["mean"]
    p.stddev = d["stddev"]
    p.dyn_stddev = d["dynamic_bias_stddev"]
    p.dyn_tau = d["dynamic_bias_correlation_time"]
    p.precision = d["precision"]
    fn_gz_channel_init(c, &p, key, stream, d["bias_mean"], d["bias_stddev"])
    return 0


cdef class _EnvChannels:
    """The channels of a batch of environments, one per environment (internal)."""

    cdef fn_gz_channel *ch
    cdef fn_gz_tile tile  # white normals for one-sample steps (fn_gz_batch_rows)
    cdef Py_ssize_t n
    cdef object keys    # per environment: its key
    cdef object params  # per environment: its checked parameter dict

    def __cinit__(self, keys, params):
        cdef Py_ssize_t e
        self.keys = tuple(keys)
        self.params = tuple(params)
        self.n = len(self.keys)
        self.ch = <fn_gz_channel *>PyMem_Malloc(self.n * sizeof(fn_gz_channel))
        if self.ch == NULL or fn_gz_tile_alloc(&self.tile, <size_t>self.n) != 0:
            raise MemoryError(f"num_envs={self.n}: no memory for the environments")
        for e in range(self.n):
            self.reset(e)

    def __dealloc__(self):
        PyMem_Free(self.ch)
        fn_gz_tile_free(&self.tile)

    def reset(self, Py_ssize_t e):
        init_channel(&self.ch[e], self.params[e], <uint64_t>self.keys[e], FN_STREAM_GZ_TAG)
        fn_gz_tile_push(&self.tile, self.ch, <size_t>e, <size_t>(e + 1))

    def bias(self):
        fn_gz_tile_sync(&self.tile, self.ch)
        return np.array([self.ch[e].bias for e in range(self.n)])

    def count(self):
        fn_gz_tile_sync(&self.tile, self.ch)
        return np.array([self.ch[e].count for e in range(self.n)],
                        dtype=np.uint64).astype(np.int64)

    def position(self):
        fn_gz_tile_sync(&self.tile, self.ch)
        return {"envs": [{"count": int(self.ch[e].count), "bias": float(self.ch[e].bias)}
                         for e in range(self.n)]}

    def set_position(self, position):
        cdef Py_ssize_t e
        name = "state['position']"
        p = _validate.fields(name, position, ("envs",))
        envs = p["envs"]
        if not isinstance(envs, list) or len(envs) != self.n:
            raise ValueError(f"{name}['envs'] is not allowed: it must be a list of {self.n} "
                             "positions (num_envs)")
        vals = []
        for e in range(self.n):
            q = _validate.fields(f"{name}['envs'][{e}]", envs[e], ("count", "bias"))
            vals.append((_validate.counter(f"{name}['envs'][{e}]['count']", q["count"]),
                         _validate.in_range(f"{name}['envs'][{e}]['bias']", q["bias"],
                                            -1e300, 1e300)))
        for e in range(self.n):  # all checked first: a refused position changes nothing
            self.ch[e].count = vals[e][0]
            self.ch[e].bias = vals[e][1]
            self.ch[e].wok = 0
            self.ch[e].dok = 0
        fn_gz_tile_push(&self.tile, self.ch, 0, <size_t>self.n)

    def run(self, x, out, dt, size_t es, size_t ts):
        """Channel e on row e of the (n, t) float64 C-contiguous ``x`` into ``out``
        (same shape; may be ``x``), ``dt`` read at [e * es + k * ts]. One C call. The
        caller holds the owner's lock."""
        cdef cnp.ndarray a = x
        cdef cnp.ndarray o = out
        cdef cnp.ndarray d = dt
        cdef size_t t = <size_t>cnp.PyArray_DIM(a, 1)
        cdef size_t env = 0
        cdef int rc
        cdef const double *px = <const double *>cnp.PyArray_DATA(a)
        cdef const double *pd = <const double *>cnp.PyArray_DATA(d)
        cdef double *po = <double *>cnp.PyArray_DATA(o)
        with nogil:
            rc = fn_gz_batch_apply(self.ch, &self.tile, <size_t>self.n, t, px, pd, es, ts, po,
                                   &env)
        if rc != 0:
            raise OverflowError(f"environment {env}: {t} more samples would pass the end "
                                "of its streams (2**64 - 1 samples)")


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
    seed=None, num_envs=None, env=None)
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
    num_envs : int or None
        A batch of ``num_envs`` environments (:doc:`/batching`): ``apply_one`` takes
        and returns (num_envs,) arrays, ``apply`` (num_envs, T); every parameter above
        may be per environment, shape (num_envs,); ``reset(env_ids)``.
    env : int or None
        This model is environment ``env`` of a batch (bit for bit); not with
        ``num_envs``.

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
    cdef _EnvChannels _envs  # a batch's channels (None: one model, in _ch)
    # floats; in a batch, (num_envs,) float64 arrays where given per environment
    cdef readonly object mean, stddev, bias_mean, bias_stddev, precision
    cdef readonly object dynamic_bias_stddev, dynamic_bias_correlation_time

    def __init__(self, mean=0.0, stddev=0.0, bias_mean=0.0, bias_stddev=0.0,
                 dynamic_bias_stddev=0.0, dynamic_bias_correlation_time=0.0, precision=0.0,
                 *, seed=None, num_envs=None, env=None):
        num_envs, env = _spec.check_envs(num_envs, env)
        d = _declarations.GAZEBO_NOISE.check_params({
            "mean": mean, "stddev": stddev, "bias_mean": bias_mean,
            "bias_stddev": bias_stddev, "dynamic_bias_stddev": dynamic_bias_stddev,
            "dynamic_bias_correlation_time": dynamic_bias_correlation_time,
            "precision": precision}, num_envs=num_envs)
        ss = as_seed_sequence(seed)
        envs = None
        if num_envs is None:
            ch = _Channels(env_model_key(ss, self.model_name, env), ("value",), (d,))
            key = ch.key
        else:
            ch = None
            key = env_model_key(ss, self.model_name, None)
            per = [{k: (float(v[e]) if isinstance(v, np.ndarray) else v) for k, v in d.items()}
                   for e in range(num_envs)]
            envs = _EnvChannels([env_model_key(ss, self.model_name, e)
                                 for e in range(num_envs)], per)
        self.mean = d["mean"]
        self.stddev = d["stddev"]
        self.bias_mean = d["bias_mean"]
        self.bias_stddev = d["bias_stddev"]
        self.dynamic_bias_stddev = d["dynamic_bias_stddev"]
        self.dynamic_bias_correlation_time = d["dynamic_bias_correlation_time"]
        self.precision = d["precision"]
        self._num_envs = num_envs
        self._env = env
        lock_model(self)  # a rebuild (the state setter) must not pull it from a running apply
        self._ch = ch
        self._envs = envs
        unlock_model(self)
        self._seed_seq = ss
        self._key = key
        self._built = True

    @property
    def bias(self):
        """The current bias (u): the turn-on bias, moved by the dynamic bias; a batch:
        (num_envs,)."""
        check_built(self)
        if self._envs is not None:
            lock_model(self)
            try:
                return self._envs.bias()
            finally:
                unlock_model(self)
        return self._ch.bias(0)

    @property
    def count(self):
        """Samples applied since construction or ``reset()``; a batch: (num_envs,)."""
        check_built(self)
        if self._envs is not None:
            lock_model(self)
            try:
                return self._envs.count()
            finally:
                unlock_model(self)
        return self._ch.count(0)

    def _position(self):
        check_built(self)
        if self._envs is not None:
            lock_model(self)
            try:
                return self._envs.position()
            finally:
                unlock_model(self)
        return dict(self._ch.position()["value"])

    def _set_position(self, position):
        check_built(self)
        if self._envs is not None:
            lock_model(self)
            try:
                self._envs.set_position(position)
            finally:
                unlock_model(self)
            return
        self._ch.set_position("state['position']", {"value": position})

    def reset(self, env_ids=None):
        """Back to sample 0 and the turn-on bias (the same bias as after construction).

        A batch: ``env_ids`` (None: all; an int, int indices or a boolean mask of shape
        (num_envs,)) names the environments reset; the others continue unchanged."""
        check_built(self)
        if self._envs is not None:
            ids = _spec.env_ids(env_ids, self.num_envs)
            lock_model(self)
            try:
                for e in ids:
                    self._envs.reset(int(e))
            finally:
                unlock_model(self)
            return
        if env_ids is not None:
            raise TypeError(f"env_ids={env_ids!r:.60} is not allowed: this GazeboNoise is "
                            "one model (build it with num_envs=N for a batch)")
        ch = _Channels(self._ch.key, self._ch.names, self._ch.params)
        lock_model(self)
        self._ch = ch
        unlock_model(self)

    def _batch_run(self, x, dt, out, bint one):
        """A batch's apply_one (x (N,)) or apply (x (N, T)): one C call for all."""
        n = self.num_envs
        arr = _arrays.intake("x", x, np.float64)
        t = 1 if one else (arr.shape[1] if arr.ndim == 2 else -1)
        want = (n,) if one else (n, t)
        if arr.shape != want:
            shown = f"({n},)" if one else f"({n}, T)"
            raise ValueError(f"x has shape {arr.shape}: with num_envs={n} it must be {shown}")
        dts, es, ts = env_dt(dt, n, t, one)
        if out is None:
            res = np.empty(want)
        else:
            res = _arrays.output("out", out, want, np.float64)
            _arrays.no_partial_overlap({"out": res}, {"x": arr})
        lock_model(self)
        try:
            self._envs.run(arr.reshape(n, t), res.reshape(n, t), dts, es, ts)
        finally:
            unlock_model(self)
        return res

    def apply_one(self, x, dt=0.0):
        """One noised sample (u) of input ``x`` (u) after an interval ``dt`` (s, finite,
        >= 0; 0 leaves the dynamic bias where it is), as gz-sensors' ``Noise::Apply(x,
        dt)``. A batch: ``x`` (num_envs,), ``dt`` a scalar or (num_envs,); returns
        (num_envs,), one C call for every environment."""
        cdef double v, d, r
        cdef bint taken
        check_built(self)
        if self._envs is not None:
            return self._batch_run(x, dt, None, True)
        v = real_one("x", x)
        d = dt_one(dt)
        self._ch.check_room(0, 1)
        taken = hold_model(self)  # one is C code (nogil), run with the GIL held
        r = self._ch.one(0, v, d)
        if taken:
            unlock_model(self)
        return r

    def apply(self, x, dt=0.0, *args, out=None):
        """Noised successive samples (u) of the 1-D array ``x`` (u), in order, as that
        many ``apply_one`` calls would give them, bit for bit. ``dt`` (s): a scalar for
        every sample or an array of shape (n,). float64 result; ``out`` (float64,
        shape (n,), C-contiguous, writeable; may be ``x`` itself) receives it.

        A batch: ``x`` (num_envs, T), row i environment i's samples; ``dt`` a scalar,
        (num_envs,) or (num_envs, T); ``out`` (num_envs, T)."""
        if args:  # 0.2 callers passed these by position
            out, = positional_options(
                "GazeboNoise.apply", args, ('out',),
                (out,), (None,))
        check_built(self)
        if self._envs is not None:
            return self._batch_run(x, dt, out, False)
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
