"""Isaac Lab's noise vocabulary (``isaaclab.utils.noise``) as keyed fastnoise models.

:class:`GaussianNoise`, :class:`UniformNoise` and :class:`ConstantNoise` are one term
each (``GaussianNoiseCfg``, ``UniformNoiseCfg``, ``ConstantNoiseCfg``), applied by
Isaac Lab's operations ``add``, ``scale`` and ``abs``. :class:`AdditiveBiasNoise` is
``NoiseModelWithAdditiveBiasCfg``: a term plus a bias per environment, redrawn when
that environment is reset. Where Isaac Lab draws from torch's global generator, these
draw keyed Philox numbers: step s of environment e is a pure function of (seed, e, s),
and the bias of its reset r of (seed, e, r) (``csrc/simple.h``). One C call noises
every environment of a batch.

With ``num_envs=N`` every real parameter (``mean``, ``stddev``, ``n_min``, ``n_max``,
``bias``, and those of ``AdditiveBiasNoise``'s ``noise`` and ``bias_noise`` terms) may
be per environment, an array of shape (N,) (domain randomization: environment i uses
element i, bit for bit what a single model with ``env=i`` and those values gives;
:func:`fastnoise.core.randomization.redraw` redraws them for reset environments).
The type and the operation are one for the whole batch.
"""

cimport numpy as cnp
from libc.stdint cimport int64_t, uint64_t

from fastnoise.core.capi cimport FN_FLOAT32, FN_FLOAT64
from fastnoise.core.model cimport Model, check_built, lock_model, unlock_model
from fastnoise.models.simple.capi cimport (
    FN_SIMPLE_ABS,
    FN_SIMPLE_ADD,
    FN_SIMPLE_CONSTANT,
    FN_SIMPLE_GAUSSIAN,
    FN_SIMPLE_SCALE,
    FN_SIMPLE_UNIFORM,
    fn_simple_apply,
    fn_simple_rebias,
    fn_simple_term,
)

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.core import spec as _spec
from fastnoise.core.seeding import as_seed_sequence, env_model_key
from fastnoise.models.simple import declarations as _d

cnp.import_array()

_KINDS = {"constant": FN_SIMPLE_CONSTANT, "uniform": FN_SIMPLE_UNIFORM,
          "gaussian": FN_SIMPLE_GAUSSIAN}
_OPS = {"add": FN_SIMPLE_ADD, "scale": FN_SIMPLE_SCALE, "abs": FN_SIMPLE_ABS}
# steps and resets count below 2**63 (their stream is count << 1 | kind)
_LAST = 2**63 - 1
# fn_simple_term as a numpy record (int kind, int op, double a, double b: C's layout)
_TERM = np.dtype([("kind", np.intc), ("op", np.intc), ("a", np.float64), ("b", np.float64)],
                 align=True)
_A_B = {"gaussian": ("mean", "stddev"), "uniform": ("n_min", "n_max"), "constant": ("bias", None)}


def _terms(kind, op, a, b=0.0):
    """The C terms of a checked (kind, operation, a, b): one record when a and b are
    scalars (every environment shares it), else one per environment (a per-environment
    array is (num_envs,))."""
    n = max(np.size(a), np.size(b))
    t = np.zeros(n, dtype=_TERM)
    if _TERM.itemsize != sizeof(fn_simple_term):
        raise RuntimeError("numpy's record differs from fn_simple_term")
    t["kind"] = _KINDS[kind]
    t["op"] = _OPS[op]
    t["a"] = a
    t["b"] = b
    return t


def _terms_of(d):
    """The C terms of a checked term dict (check_term)."""
    a, b = _A_B[d["type"]]
    return _terms(d["type"], d["operation"], d[a], 0.0 if b is None else d[b])


cdef inline const fn_simple_term *_tp(cnp.ndarray t):
    return <const fn_simple_term *>cnp.PyArray_DATA(t)


cdef inline size_t _ts(cnp.ndarray t):
    # the stride between environments' terms: 0 when they share one
    return 0 if cnp.PyArray_DIM(t, 0) == 1 else 1


cdef class _TermNoise(Model):
    """The shared part of the Isaac Lab models (internal): keys, step counters, the
    optional bias, ``apply``, ``reset`` and the position."""

    cdef cnp.ndarray _t  # _TERM records: one shared, or one per environment
    cdef cnp.ndarray _bt  # the bias term's, likewise (None without a bias)
    cdef bint _has_bias
    cdef cnp.ndarray _keys  # uint64 (n,)
    cdef cnp.ndarray _steps  # uint64 (n,): steps applied per environment
    cdef cnp.ndarray _resets  # uint64 (n,): resets per environment
    cdef cnp.ndarray _bias  # float64 (n, mb), or None
    cdef Py_ssize_t _n
    cdef Py_ssize_t _mb

    cdef int _build(self, cnp.ndarray t, bint has_bias, cnp.ndarray bt, Py_ssize_t mb,
                    num_envs, env, seed) except -1:
        num_envs, env = _spec.check_envs(num_envs, env)
        ss = as_seed_sequence(seed)
        tag = type(self).declaration.tags[0]
        # environment i keys with child i of the model's sequence (the model's own
        # key with neither num_envs nor env), as every batched model
        keys = np.array([env_model_key(ss, tag, e)
                         for e in (range(num_envs) if num_envs is not None else (env,))],
                        dtype=np.uint64)
        n = keys.shape[0]
        steps = np.zeros(n, dtype=np.uint64)
        resets = np.zeros(n, dtype=np.uint64)
        bias = None
        if has_bias:
            bias = np.zeros((n, mb), dtype=np.float64)
            _rebias(bt, np.arange(n, dtype=np.int64), keys, resets, bias)
        lock_model(self)  # a rebuild (the state setter) must not pull arrays from an apply
        self._t = t
        self._bt = bt
        self._has_bias = has_bias
        self._keys = keys
        self._steps = steps
        self._resets = resets
        self._bias = bias
        self._n = n
        self._mb = mb
        self._num_envs = num_envs
        self._env = env
        unlock_model(self)
        self._set_seed(ss)
        return 0

    @property
    def step(self):
        """Steps applied so far, per environment (uint64 array of shape (num_envs,);
        (1,) for a single model)."""
        check_built(self)
        return self._steps.copy()

    def apply(self, x, *, out=None):
        """apply(x, *, out=None)

        One step: the noisy ``x``, same shape. ``x`` is float64 or float32 (float32
        stays float32, computed in float64 and rounded once; other dtypes become
        float64), in the data's unit (m, rad, m/s, ...). With ``num_envs=N`` its first
        axis holds the N environments and each row (of any shape) is one
        environment's components; a single model takes any shape as one
        environment's components. Every call is the next step of each environment.
        ``out``: an array of x's shape and result dtype (``x`` itself for in place).
        """
        check_built(self)
        cdef cnp.ndarray src, res, scratch
        cdef Py_ssize_t n = self._n, m
        cdef int dt
        arr = np.asarray(x)
        dtype = np.float32 if arr.dtype == np.float32 else np.float64
        src = _arrays.intake("x", arr, dtype)
        shape = (<object>src).shape
        if self._num_envs is not None and (src.ndim == 0 or shape[0] != n):
            raise ValueError(f"x has shape {shape}: its first axis must hold the "
                             f"num_envs={n} environments")
        m = src.size // n
        if self._has_bias and self._mb > 1 and m != self._mb:
            raise ValueError(f"x has shape {shape}: each environment must have "
                             f"size={self._mb} components (the per-component bias)")
        if out is None:
            res = np.empty(shape, dtype=dtype)
        else:
            res = _arrays.output("out", out, shape, dtype)
            _arrays.no_partial_overlap({"out": res}, {"x": src})
        scratch = np.empty(max(m, self._mb if self._has_bias else 1), dtype=np.float64)
        dt = FN_FLOAT32 if dtype is np.float32 else FN_FLOAT64
        lock_model(self)
        try:
            if (self._steps >= _LAST).any():
                raise OverflowError(f"step: {type(self).__name__} counts at most 2**63 - 1 "
                                    "steps per environment")
            self._run(src, res, m, dt, scratch)
        finally:
            unlock_model(self)
        return res

    cdef void _run(self, cnp.ndarray src, cnp.ndarray res, Py_ssize_t m, int dt,
                   cnp.ndarray scratch) noexcept:
        cdef const double *bp = NULL
        cdef const uint64_t *kp = <const uint64_t *>cnp.PyArray_DATA(self._keys)
        cdef uint64_t *sp = <uint64_t *>cnp.PyArray_DATA(self._steps)
        cdef const void *xp = cnp.PyArray_DATA(src)
        cdef void *op = cnp.PyArray_DATA(res)
        cdef double *wp = <double *>cnp.PyArray_DATA(scratch)
        cdef size_t n = <size_t>self._n
        cdef size_t mb = <size_t>self._mb
        cdef const fn_simple_term *tp = _tp(self._t)
        cdef size_t ts = _ts(self._t)
        if self._has_bias:
            bp = <const double *>cnp.PyArray_DATA(self._bias)
        with nogil:
            fn_simple_apply(tp, ts, n, kp, sp, <size_t>m, bp, mb, xp, op, dt, wp)

    def reset(self, env_ids=None):
        """reset(env_ids=None)

        ``reset()``: back to the state right after construction (every step counter
        at 0, every bias its construction draw). ``reset(env_ids)`` (indices, or a
        boolean mask of shape (num_envs,)) is Isaac Lab's reset of those
        environments: a model with a bias redraws theirs (reset r of an environment
        draws its bias from (seed, environment, r)); the other environments are not
        touched. Step counters are not rewound, so each episode draws new noise.
        """
        check_built(self)
        if env_ids is None:
            type(self).__init__(self, **self._params(), seed=self._seed_seq)
            return
        ids = _spec.env_ids(env_ids, self._n)
        if not self._has_bias or ids.shape[0] == 0:
            return
        lock_model(self)
        try:
            if (self._resets[ids] >= _LAST).any():
                raise OverflowError("reset: at most 2**63 - 1 resets per environment")
            self._resets[ids] += 1
            _rebias(self._bt, ids, self._keys, self._resets, self._bias)
        finally:
            unlock_model(self)

    def _position(self):
        check_built(self)
        pos = {"step": [int(s) for s in self._steps]}
        if self._has_bias:
            pos["reset"] = [int(r) for r in self._resets]
            pos["bias"] = self._bias.tolist()
        return pos

    def _set_position(self, position):
        keys = ("step", "reset", "bias") if self._has_bias else ("step",)
        _validate.fields("state['position']", position, keys)
        n = self._n
        steps = _counters("state['position']['step']", position["step"], n)
        if self._has_bias:
            resets = _counters("state['position']['reset']", position["reset"], n)
            bias = np.asarray(position["bias"], dtype=object)
            if bias.shape != (n, self._mb):
                raise ValueError(f"state['position']['bias'] has shape {bias.shape}: it "
                                 f"must be ({n}, {self._mb})")
            bias = np.array([[_validate.finite(f"state['position']['bias'][{i}][{j}]", v)
                              for j, v in enumerate(row)] for i, row in enumerate(bias)],
                            dtype=np.float64)
        lock_model(self)
        self._steps[:] = steps
        if self._has_bias:
            self._resets[:] = resets
            self._bias[:] = bias.reshape(n, self._mb)
        unlock_model(self)


def _counters(name, value, Py_ssize_t n):
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise ValueError(f"{name}={value!r} is not allowed: it must be a list of {n} "
                         "counters")
    return np.array([_validate.integer(f"{name}[{i}]", v, 0, _LAST + 1)
                     for i, v in enumerate(value)], dtype=np.uint64)


cdef _rebias(cnp.ndarray bt, cnp.ndarray ids, cnp.ndarray keys, cnp.ndarray resets,
             cnp.ndarray bias):
    cdef Py_ssize_t mb = bias.shape[1]
    cdef cnp.ndarray scratch = np.empty(mb, dtype=np.float64)
    fn_simple_rebias(_tp(bt), _ts(bt), <size_t>ids.shape[0], <const int64_t *>cnp.PyArray_DATA(ids),
                     <const uint64_t *>cnp.PyArray_DATA(keys),
                     <const uint64_t *>cnp.PyArray_DATA(resets), <size_t>mb,
                     <double *>cnp.PyArray_DATA(bias), <double *>cnp.PyArray_DATA(scratch))


def _checked(declaration, values, per_env=True):
    """A constructor's arguments checked by ``declaration``: num_envs and env first,
    then the rest, with ``per_env`` per environment where ``num_envs`` is given (each
    real may be a scalar or (num_envs,); an error names ``name[i]``)."""
    envs = declaration.check_params({"num_envs": values.pop("num_envs"),
                                     "env": values.pop("env")})
    _spec.check_envs(envs["num_envs"], envs["env"])
    d = declaration.check_params(values, num_envs=envs["num_envs"] if per_env else None)
    d.update(envs)
    return d


def _plain(v):
    # a checked real: a float, or a per-environment (num_envs,) float64 array (read-only,
    # so a caller cannot change a running model's parameters through it)
    if isinstance(v, np.ndarray):
        v = v.copy()
        v.flags.writeable = False
    return v


cdef class GaussianNoise(_TermNoise):
    """GaussianNoise(*, mean=0.0, stddev=1.0, operation='add', num_envs=None, env=None,
    seed=None)
--

    Isaac Lab's ``GaussianNoiseCfg``: each step draws v = mean + stddev * z per
    component (z standard normal) and gives ``x + v`` (``add``), ``x * v``
    (``scale``) or ``v`` (``abs``).

    Parameters
    ----------
    mean : float
        Mean of v, in the data's unit (m, rad, ...; dimensionless for ``scale``).
    stddev : float
        Standard deviation of v (Isaac Lab's ``std``), same unit, >= 0.
    operation : {'add', 'scale', 'abs'}
    num_envs : int or None
        A batch of environments: data has a leading axis of this length, one C call
        per step noises them all, environment i gives the bits of ``env=i``.
    env : int or None
        A single model keyed as environment ``env`` of a batch.
    seed : int, numpy.random.SeedSequence or None

    Component j of step s of environment e is normal j of stream s << 1 of that
    environment's key.
    """

    model_name = "gaussian_noise"
    declaration = _d.GAUSSIAN_NOISE

    cdef readonly object mean, stddev  # floats, or (num_envs,) arrays per environment
    cdef readonly str operation

    def __init__(self, *, mean=0.0, stddev=1.0, operation="add", num_envs=None, env=None,
                 seed=None):
        d = _checked(self.declaration, {"mean": mean, "stddev": stddev,
                                        "operation": operation, "num_envs": num_envs,
                                        "env": env})
        self._build(_terms("gaussian", d["operation"], d["mean"], d["stddev"]), False,
                    None, 1, d["num_envs"], d["env"], seed)
        self.mean = _plain(d["mean"])
        self.stddev = _plain(d["stddev"])
        self.operation = d["operation"]


cdef class UniformNoise(_TermNoise):
    """UniformNoise(*, n_min=-1.0, n_max=1.0, operation='add', num_envs=None, env=None,
    seed=None)
--

    Isaac Lab's ``UniformNoiseCfg``: each step draws v = u (n_max - n_min) + n_min per
    component (u uniform in [0, 1), 53 bits) and gives ``x + v``, ``x * v`` or ``v``.

    Parameters
    ----------
    n_min, n_max : float
        Ends of v, in the data's unit (dimensionless for ``scale``); n_max >= n_min.
    operation : {'add', 'scale', 'abs'}
    num_envs, env, seed
        As :class:`GaussianNoise`.
    """

    model_name = "uniform_noise"
    declaration = _d.UNIFORM_NOISE

    cdef readonly object n_min, n_max  # floats, or (num_envs,) arrays per environment
    cdef readonly str operation

    def __init__(self, *, n_min=-1.0, n_max=1.0, operation="add", num_envs=None, env=None,
                 seed=None):
        d = _checked(self.declaration, {"n_min": n_min, "n_max": n_max,
                                        "operation": operation, "num_envs": num_envs,
                                        "env": env})
        _d.check_range(d["n_min"], d["n_max"])
        self._build(_terms("uniform", d["operation"], d["n_min"], d["n_max"]), False,
                    None, 1, d["num_envs"], d["env"], seed)
        self.n_min = _plain(d["n_min"])
        self.n_max = _plain(d["n_max"])
        self.operation = d["operation"]


cdef class ConstantNoise(_TermNoise):
    """ConstantNoise(*, bias=0.0, operation='add', num_envs=None, env=None, seed=None)
--

    Isaac Lab's ``ConstantNoiseCfg``: ``x + bias`` (``add``), ``x * bias``
    (``scale``) or ``bias`` (``abs``), exactly. It draws nothing; ``seed``, ``env``
    and ``num_envs`` are kept for the shared contract.

    Parameters
    ----------
    bias : float
        In the data's unit (dimensionless for ``scale``).
    operation : {'add', 'scale', 'abs'}
    num_envs, env, seed
        As :class:`GaussianNoise`.
    """

    model_name = "constant_noise"
    declaration = _d.CONSTANT_NOISE

    cdef readonly object bias  # a float, or a (num_envs,) array per environment
    cdef readonly str operation

    def __init__(self, *, bias=0.0, operation="add", num_envs=None, env=None, seed=None):
        d = _checked(self.declaration, {"bias": bias, "operation": operation,
                                        "num_envs": num_envs, "env": env})
        self._build(_terms("constant", d["operation"], d["bias"]), False, None, 1,
                    d["num_envs"], d["env"], seed)
        self.bias = _plain(d["bias"])
        self.operation = d["operation"]


cdef class AdditiveBiasNoise(_TermNoise):
    """AdditiveBiasNoise(*, noise=None, bias_noise=None, per_component=True, size=1,
    num_envs=None, env=None, seed=None)
--

    Isaac Lab's ``NoiseModelWithAdditiveBiasCfg``: every step gives the ``noise``
    term's output plus the environment's bias, ``op(x, v) + bias``. The bias of each
    environment is drawn from ``bias_noise`` at construction (Isaac Lab draws it at
    the first call; the values are those of a reset from zero) and again at each
    ``reset(env_ids)`` of that environment: ``bias = op_b(bias, v_b)``, so a
    ``bias_noise`` with ``operation='add'`` (Isaac Lab's default) accumulates over
    resets and ``'abs'`` draws a fresh bias each episode.

    Parameters
    ----------
    noise : dict or None
        ``{'type': 'gaussian' | 'uniform' | 'constant', 'operation': 'add' | 'scale' |
        'abs', ...the type's parameters}``, as :class:`GaussianNoise`,
        :class:`UniformNoise` or :class:`ConstantNoise` take them, in the data's unit.
        None: a standard normal, added (``DEFAULT_NOISE``).
    bias_noise : dict or None
        The term the bias is drawn from, same form; the bias is in the data's unit.
        None: a standard normal, ``operation='abs'`` (``DEFAULT_BIAS_NOISE``).
    per_component : bool
        One bias per component (Isaac Lab's ``sample_bias_per_component``), else one
        per environment shared by its components.
    size : int
        Components per environment; with ``per_component`` each call must give
        exactly this many.
    num_envs, env, seed
        As :class:`GaussianNoise`.

    The bias of reset r of environment e draws its values from stream r << 1 | 1 of
    that environment's key (r = 0 at construction).
    """

    model_name = "additive_bias_noise"
    declaration = _d.ADDITIVE_BIAS_NOISE

    cdef readonly dict noise, bias_noise
    cdef readonly bint per_component
    cdef readonly Py_ssize_t size

    def __init__(self, *, noise=None, bias_noise=None, per_component=True, size=1,
                 num_envs=None, env=None, seed=None):
        if noise is None:
            noise = _d.DEFAULT_NOISE
        if bias_noise is None:
            bias_noise = _d.DEFAULT_BIAS_NOISE
        d = _checked(self.declaration, {"per_component": per_component, "size": size,
                                        "num_envs": num_envs, "env": env}, per_env=False)
        tn = _d.check_term("noise", noise, d["num_envs"])
        tb = _d.check_term("bias_noise", bias_noise, d["num_envs"])
        mb = d["size"] if d["per_component"] else 1
        self._build(_terms_of(tn), True, _terms_of(tb), mb, d["num_envs"], d["env"], seed)
        self.noise = {k: _plain(v) for k, v in tn.items()}
        self.bias_noise = {k: _plain(v) for k, v in tb.items()}
        self.per_component = d["per_component"]
        self.size = d["size"]

    @property
    def bias(self):
        """The current bias (float64, the data's unit): shape (num_envs, size) with
        ``per_component``, else (num_envs, 1); a single model drops the env axis."""
        check_built(self)
        b = self._bias.copy()
        return b if self._num_envs is not None else b[0]


register_model(GaussianNoise)
register_model(UniformNoise)
register_model(ConstantNoise)
register_model(AdditiveBiasNoise)
