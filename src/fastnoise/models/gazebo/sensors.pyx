"""Gazebo's other noisy sensors, each as gz-sensors noises it: one
:class:`~fastnoise.models.gazebo.noise.GazeboNoise` channel (gz-sensors
``GaussianNoiseModel``) per component, in the component's SI unit.

Every component argument is None (no noise, the component passes unchanged) or a
mapping with any of the keys ``mean, stddev, bias_mean, bias_stddev,
dynamic_bias_stddev, dynamic_bias_correlation_time, precision`` (missing keys are 0).
Component i (the constructor's order) draws from the streams ``GZ_TAG | i << 8 | term``
under the key ``model_key(seed, model_name)`` (``csrc/gznoise.h``); sample k of a
component uses normal k of its streams, so the components are independent and the
order in which a reading's components are noised does not change any value.

``apply_one`` noises one reading, ``apply`` a batch of successive readings (n rows ×
components, float64), bit for bit as many ``apply_one`` calls. ``dt`` (s) is the
interval since the previous reading (a scalar, or one per row): gz-sensors passes dt
only for the force-torque sensor (0 on its first update); the others call ``Apply(x)``
(dt = 0), so their dynamic bias never moves in Gazebo: leave dt at 0 to reproduce
Gazebo, give it to have the dynamic bias move.

Every model takes ``num_envs=N`` (a batch of N environments, :doc:`/batching`) or
``env=i`` (environment i alone, keyed ``env_model_key(seed, model_name, i)``, bit for
bit environment i of a batch). A batch's ``apply`` takes (N, T, ``n_columns``) (one
column: (N, T)) and noises every environment in one nogil call; ``apply_one`` takes
each reading argument as (N,) (or a scalar for all) and returns (N,) arrays. A
component's values may be per environment, each key a scalar or (N,).
"""

cimport cython
cimport numpy as cnp
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_New, PyTuple_SET_ITEM

from libc.stdint cimport uint64_t

from fastnoise.core.model cimport check_built, hold_model, lock_model, unlock_model
from fastnoise.models.gazebo.capi cimport (
    FN_GZ_LAYOUT_HPA,
    FN_GZ_LAYOUT_NAVSAT_DEG,
    FN_GZ_LAYOUT_NAVSAT_M,
    FN_GZ_LAYOUT_RUNS,
    FN_STREAM_GZ_TAG,
    fn_gz_batch_rows,
    fn_gz_channel,
    fn_gz_channel_apply_one,
    fn_gz_runs_one,
    fn_gz_tile,
    fn_gz_tile_alloc,
    fn_gz_tile_free,
    fn_gz_tile_push,
    fn_gz_tile_sync,
)
from libc.string cimport memset
from fastnoise.models.gazebo.noise cimport dt_one, init_channel, out_of_room, real_one

import dataclasses
from collections.abc import Mapping

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.gazebo import declarations as _declarations
from fastnoise.core import spec as _spec
from fastnoise.core.seeding import as_seed_sequence, env_model_key
from fastnoise.core.deprecation import positional_options
from fastnoise.models.gazebo.noise import dt_array, env_dt

cnp.import_array()


def batch_values(declaration, values, num_envs):
    """A sensor's constructor ``values`` checked for a batch of ``num_envs``
    environments: a component's keys may each be a scalar or per environment, shape
    (num_envs,), by the spec batch rule (:meth:`fastnoise.core.spec.Param.check_batch`;
    an error names ``component['key'][i]``); other parameters as one model's."""
    out = {}
    for p in declaration.params:
        if p.name not in values:
            continue
        v = values[p.name]
        if p.kind != "component" or not isinstance(v, Mapping):
            out[p.name] = p.check(v)
            continue
        known = {f.name: f for f in p.fields}
        if any(k not in known for k in v):
            p.check(v)  # refuses the unknown keys by name
        out[p.name] = {
            k: dataclasses.replace(f, name=f"{p.name}[{k!r}]").check_batch(v[k], num_envs)
            if k in v else f.default
            for k, f in known.items()}
    return out


def _env_dict(d, Py_ssize_t e):
    """Environment e's component dict of a checked batch dict (None stays None)."""
    if d is None:
        return None
    return {k: (float(v[e]) if isinstance(v, np.ndarray) else v) for k, v in d.items()}


cdef class _GazeboSensor(Model):
    """The part every Gazebo sensor model shares (internal, not a model itself): one
    gz-sensors noise channel per component, run over the columns of a reading. A sensor
    class declares ``model_name``, ``_components`` (its constructor's noise arguments,
    in stream order), ``n_columns``, ``_arguments`` (``apply_one``'s reading arguments,
    in column order; default ``_components``), ``_runs`` ((channel, first column,
    samples per row): a channel noises that many successive columns, dt on the first
    only) and ``_units`` ((argument, allowed values) of a unit switch, or None)."""

    _arguments = None
    #: Columns of a row of ``apply``'s data.
    n_columns = 0
    _runs = ()
    _units = None

    #: NavSat's horizontal position model (channel 0 on columns 0-1, in _row/_extra).
    _horizontal_model = False
    #: AirSpeedNoise: in hectopascals the channel runs on float32 hPa.
    _hpa_model = False

    def _build(self, comps, seed, units=None, num_envs=None, env=None):
        cdef fn_gz_channel *bch = NULL
        cdef fn_gz_channel *old
        cdef fn_gz_tile tile, old_tile
        cdef Py_ssize_t e, nch
        cdef int i
        cls = type(self)
        if not (len(cls._runs) <= 6 and 0 < cls.n_columns <= 6):  # the C arrays' size
            raise TypeError(f"{cls.__name__}: at most 6 runs and 1 to 6 columns")
        num_envs, env = _spec.check_envs(num_envs, env)
        values = dict(zip(cls._components, comps))
        if cls._units is not None:
            values[cls._units[0]] = units
        # everything checked before self changes
        if num_envs is None:
            v = cls.declaration.check_params(values)
        else:
            v = batch_values(cls.declaration, values, num_envs)
        params = [v[name] for name in cls._components]
        ss = as_seed_sequence(seed)
        alt = False
        if cls._units is not None:
            name, allowed = cls._units
            alt = v[name] == allowed[1]
        nch = len(cls._components)
        memset(&tile, 0, sizeof(tile))
        ch = None
        benv = None
        if num_envs is None:
            ch = _Channels(env_model_key(ss, cls.model_name, env), cls._components, params)
            key = ch.key
        else:
            key = env_model_key(ss, cls.model_name, None)
            benv = [(env_model_key(ss, cls.model_name, e), [_env_dict(d, e) for d in params])
                    for e in range(num_envs)]
            bch = <fn_gz_channel *>PyMem_Malloc(num_envs * nch * sizeof(fn_gz_channel))
            if bch == NULL or fn_gz_tile_alloc(&tile, <size_t>(num_envs * nch)) != 0:
                PyMem_Free(bch)
                raise MemoryError(f"num_envs={num_envs}: no memory for the environments")
            memset(bch, 0, num_envs * nch * sizeof(fn_gz_channel))  # components off: zeros
            try:
                for e in range(num_envs):
                    for i in range(nch):
                        if params[i] is not None:
                            init_channel(&bch[e * nch + i], benv[e][1][i], benv[e][0],
                                         FN_STREAM_GZ_TAG | (<uint64_t>i << 8))
            except BaseException:
                PyMem_Free(bch)
                fn_gz_tile_free(&tile)
                raise
        lock_model(self)  # a rebuild (the state setter) must not pull it from a running apply
        old = self._bch
        old_tile = self._tile
        self._tile = tile
        if cls._units is not None:
            self._unit = v[cls._units[0]]
            self._alt = alt
        self._ch = ch
        self._bch = bch
        self._nenv = 0 if num_envs is None else num_envs
        self._nch = nch
        for i in range(nch):
            self._bon[i] = params[i] is not None
        self._horizontal = cls._horizontal_model
        self._hpa = cls._hpa_model and not alt
        self._layout()  # under the lock: a running batch reads the layout
        self._bvalues = params
        self._benv = benv
        self._num_envs = num_envs
        self._env = env
        unlock_model(self)
        PyMem_Free(old)
        fn_gz_tile_free(&old_tile)
        self._seed_seq = ss
        self._key = key
        self._built = True

    def __dealloc__(self):
        PyMem_Free(self._bch)
        self._bch = NULL
        fn_gz_tile_free(&self._tile)

    def _layout(self):
        # the class's reading layout, for one model (_run) and a batch (_lay); the
        # sizes were checked by _build
        cls = type(self)
        self._ncol = cls.n_columns
        self._args = cls._components if cls._arguments is None else cls._arguments
        self._nrun = len(cls._runs)
        self._lay.nch = self._nch
        self._lay.ncol = self._ncol
        self._lay.nrun = self._nrun
        for i in range(6):
            self._lay.per_row[i] = 0
            self._lay.on[i] = self._bon[i]
        for r, (i, c, m) in enumerate(cls._runs):
            self._run[r][0] = self._lay.run[r][0] = i
            self._run[r][1] = self._lay.run[r][1] = c
            self._run[r][2] = self._lay.run[r][2] = m
            self._lay.per_row[i] += m
        if cls._horizontal_model:
            self._lay.per_row[0] += 2
            self._lay.mode = FN_GZ_LAYOUT_NAVSAT_M if self._alt else FN_GZ_LAYOUT_NAVSAT_DEG
        elif self._hpa:
            self._lay.mode = FN_GZ_LAYOUT_HPA
        else:
            self._lay.mode = FN_GZ_LAYOUT_RUNS

    def bias(self, component):
        """The current bias of ``component`` (one of the constructor's component
        arguments; in its unit; 0.0 for a component without noise); a batch:
        (num_envs,), one per environment."""
        cdef Py_ssize_t e
        cdef int k
        check_built(self)
        c = _validate.choice("component", component, self._components)
        k = self._components.index(c)
        if self._nenv:
            lock_model(self)
            try:
                fn_gz_tile_sync(&self._tile, self._bch)
                return np.array([self._bch[e * self._nch + k].bias if self._bon[k] else 0.0
                                 for e in range(self._nenv)])
            finally:
                unlock_model(self)
        return self._ch.bias(k)

    def _model_params(self):
        # the components' checked dicts (per-environment arrays as lists) and the unit
        # switch; Model._params adds num_envs and env
        d = {n: None if v is None else
             {k: (x.tolist() if isinstance(x, np.ndarray) else x) for k, x in v.items()}
             for n, v in zip(self._components, self._bvalues)}
        if self._units is not None:
            d[self._units[0]] = self._unit
        return d

    def _position(self):
        cdef Py_ssize_t e
        cdef fn_gz_channel *c
        check_built(self)
        if self._nenv:
            envs = []
            lock_model(self)
            try:
                fn_gz_tile_sync(&self._tile, self._bch)
                for e in range(self._nenv):
                    p = {}
                    for i, name in enumerate(self._components):
                        if self._bon[i]:
                            c = &self._bch[e * self._nch + i]
                            p[name] = {"count": int(c.count), "bias": float(c.bias)}
                    envs.append(p)
            finally:
                unlock_model(self)
            return {"envs": envs}
        return self._ch.position()

    def _set_position(self, position):
        cdef Py_ssize_t e
        cdef fn_gz_channel *c
        check_built(self)
        if not self._nenv:
            self._ch.set_position("state['position']", position)
            return
        name = "state['position']"
        envs = _validate.fields(name, position, ("envs",))["envs"]
        if not isinstance(envs, list) or len(envs) != self._nenv:
            raise ValueError(f"{name}['envs'] is not allowed: it must be a list of "
                             f"{self._nenv} positions (num_envs)")
        on = tuple(n for i, n in enumerate(self._components) if self._bon[i])
        vals = []
        for e in range(self._nenv):
            where = f"{name}['envs'][{e}]"
            pe = _validate.fields(where, envs[e], on)
            for i, comp in enumerate(self._components):
                if self._bon[i]:
                    q = _validate.fields(f"{where}['{comp}']", pe[comp], ("count", "bias"))
                    vals.append((e, i,
                                 _validate.counter(f"{where}['{comp}']['count']", q["count"]),
                                 _validate.in_range(f"{where}['{comp}']['bias']", q["bias"],
                                                    -1e300, 1e300)))
        lock_model(self)
        try:  # all checked first: a refused position changes nothing
            for e, i, cnt, b in vals:
                c = &self._bch[e * self._nch + i]
                c.count = cnt
                c.bias = b
                c.wok = 0
                c.dok = 0
            fn_gz_tile_push(&self._tile, self._bch, 0, <size_t>(self._nenv * self._nch))
        finally:
            unlock_model(self)

    def reset(self, env_ids=None):
        """Back to sample 0 of every component and the turn-on biases (the same biases
        as after construction).

        A batch: ``env_ids`` (None: all; an int, int indices or a boolean mask of shape
        (num_envs,)) names the environments reset; the others continue unchanged."""
        cdef Py_ssize_t e
        cdef int i
        check_built(self)
        if self._nenv:
            ids = _spec.env_ids(env_ids, self._nenv)
            lock_model(self)
            try:
                for e in ids:
                    key, params = self._benv[e]
                    for i in range(self._nch):
                        if params[i] is not None:
                            init_channel(&self._bch[e * self._nch + i], params[i], key,
                                         FN_STREAM_GZ_TAG | (<uint64_t>i << 8))
                    fn_gz_tile_push(&self._tile, self._bch, <size_t>(e * self._nch),
                                    <size_t>((e + 1) * self._nch))
            finally:
                unlock_model(self)
            return
        if env_ids is not None:
            raise TypeError(f"env_ids={env_ids!r:.60} is not allowed: this "
                            f"{type(self).__name__} is one model (build it with num_envs=N "
                            "for a batch)")
        ch = _Channels(self._ch.key, self._ch.names, self._ch.params)
        lock_model(self)
        self._ch = ch
        unlock_model(self)

    def _env_apply(self, data, dt, out, bint one):
        """A batch's apply_one (``data`` (N, n_columns)) or apply (``data`` (N, T,
        n_columns)); one column: no last axis. One C call (fn_gz_batch_rows, nogil) for all
        environments."""
        cdef size_t env = 0
        cdef size_t es, ts, tt
        cdef cnp.ndarray r, d
        cdef int rc
        n = self._nenv
        ncol = self._ncol
        arr = _arrays.intake("data", data, np.float64)
        t = 1 if one else (arr.shape[1] if arr.ndim >= 2 else -1)
        tail = () if ncol == 1 else (ncol,)
        want = (n, *tail) if one else (n, t, *tail)
        if arr.shape != want:
            shown = ", ".join([str(n)] + ["T"] * (not one) + [str(ncol)] * (ncol > 1))
            raise ValueError(f"data has shape {arr.shape}: with num_envs={n} it must be "
                             f"({shown})")
        dts, es, ts = env_dt(dt, n, t, one)
        if out is None:
            res = arr.copy()
        else:
            res = _arrays.output("out", out, want, np.float64)
            _arrays.no_partial_overlap({"out": res}, {"data": arr})
            if res is not arr:
                np.copyto(res, arr)
        r = res
        d = dts
        tt = <size_t>t
        lock_model(self)
        try:
            with nogil:
                rc = fn_gz_batch_rows(self._bch, &self._tile, <size_t>self._nenv, &self._lay, tt,
                                      <double *>cnp.PyArray_DATA(r),
                                      <const double *>cnp.PyArray_DATA(d), es, ts, &env)
        finally:
            unlock_model(self)
        if rc != 0:
            raise OverflowError(f"environment {env}: {t} more readings would pass the end "
                                "of its streams (2**64 - 1 samples)")
        return res

    def _env_one(self, dt, cols):
        """A batch's apply_one: ``cols`` the reading arguments, each (N,) or a scalar."""
        n = self._nenv
        ncol = self._ncol
        data = np.empty((n, ncol))
        for k in range(ncol):
            name = self._args[k]
            col = _arrays.intake(name, cols[k], np.float64)
            if col.ndim != 0 and col.shape != (n,):
                raise ValueError(f"{name} has shape {col.shape}: with num_envs={n} it must "
                                 f"be ({n},) or a scalar")
            data[:, k] = col
        if ncol == 1:
            data = data.reshape(n)
        res = self._env_apply(data, dt, data, True)
        if ncol == 1:
            return res
        return tuple(res[:, k].copy() for k in range(ncol))

    cdef int _rooms(self, size_t rows) except -1:
        cdef int r, i
        cdef size_t m
        cdef _Channels ch = self._ch
        for r in range(self._nrun):
            i = self._run[r][0]
            m = rows * <size_t>self._run[r][2]
            if out_of_room(ch, i, m):
                ch.check_room(i, m)  # words the refusal
        return 0

    cdef void _row(self, double *v, double dt) noexcept nogil:
        cdef int r, i, c, j
        cdef fn_gz_channel *ch = self._ch.ch
        for r in range(self._nrun):
            i = self._run[r][0]
            if self._ch.on[i]:
                c = self._run[r][1]
                # _Channels.one's C call, made here directly (no method call a sample)
                v[c] = fn_gz_channel_apply_one(&ch[i], v[c], dt)
                for j in range(c + 1, c + self._run[r][2]):
                    v[j] = fn_gz_channel_apply_one(&ch[i], v[j], 0.0)

    cdef int _extra(self, grid, dts, Py_ssize_t stride) except -1:
        return 0

    cdef object _one(self, object dt, object a0, object a1=None, object a2=None,
                     object a3=None, object a4=None, object a5=None):
        cdef double v[6]
        cdef double d
        cdef int k
        cdef object x
        cdef PyObject *a[6]
        cdef int rc
        cdef bint taken
        if not self._built:
            check_built(self)
        if self._nenv:
            return self._env_one(dt, (a0, a1, a2, a3, a4, a5))
        a[0] = <PyObject *>a0
        a[1] = <PyObject *>a1
        a[2] = <PyObject *>a2
        a[3] = <PyObject *>a3
        a[4] = <PyObject *>a4
        a[5] = <PyObject *>a5
        for k in range(self._ncol):
            if type(<object>a[k]) is float:  # a float as it is: no call
                v[k] = <double><object>a[k]
            else:
                v[k] = real_one(<str>PyTuple_GET_ITEM(self._args, k), <object>a[k])
        d = dt_one(dt)
        rc = -1
        if not self._horizontal:
            # _rooms and _row in one C call (NavSat, whose horizontal model adds to
            # both, takes them as methods); a run without room is refused below
            taken = hold_model(self)  # one C call with the GIL held
            rc = fn_gz_runs_one(self._ch.ch, self._ch.on, self._run, self._nrun, v, d)
            if taken:
                unlock_model(self)
        if rc != -1 or self._horizontal:
            self._rooms(1)  # words the refusal
            lock_model(self)
            self._row(v, d)
            unlock_model(self)
        if self._ncol == 1:
            return v[0]
        t = PyTuple_New(self._ncol)
        for k in range(self._ncol):
            x = v[k]
            Py_INCREF(x)
            PyTuple_SET_ITEM(t, k, x)
        return t

    def apply(self, data, dt=0.0, *args, out=None):
        """Noised successive readings: ``data`` has shape (n, ``n_columns``) (shape
        (n,) for one column), the columns ``apply_one``'s reading arguments in their
        order and units; row k is reading k, bit for bit what ``apply_one`` gives for
        it after the readings before it. ``dt`` (s): a scalar or one per row (shape
        (n,)), finite and >= 0. float64 result of ``data``'s shape; ``out`` (float64,
        C-contiguous, writeable; may be ``data`` itself) receives it.

        A batch: ``data`` (num_envs, T, ``n_columns``) (one column: (num_envs, T)),
        row i environment i's readings; ``dt`` a scalar, (num_envs,) or (num_envs, T);
        ``out`` of ``data``'s shape."""
        if args:  # 0.2 callers passed these by position
            out, = positional_options(
                "apply", args, ('out',),
                (out,), (None,))
        check_built(self)
        if self._nenv:
            return self._env_apply(data, dt, out, False)
        return self._batch(data, dt, out)

    def _batch(self, data, dt, out):
        # every channel's room is checked before anything is done
        cdef _Channels ch = self._ch
        ncol = self._ncol
        if ncol == 1:
            arr = _arrays.intake("data", data, np.float64, ndim=1)
        else:
            arr = _arrays.intake("data", data, np.float64, ndim=2, last_dim=ncol)
        n = arr.shape[0]
        dts, stride = dt_array(dt, n)
        covered = sum(m for i, _c, m in self._runs if ch.on[i]) == ncol
        if out is None:
            res = np.empty_like(arr) if covered else arr.copy()
        else:
            res = _arrays.output("out", out, arr.shape, np.float64)
            _arrays.no_partial_overlap({"out": res}, {"data": arr})
            if res is not arr and not covered:
                res[...] = arr
        self._rooms(n)
        src = (arr if covered else res).reshape(n, ncol)
        grid = res.reshape(n, ncol)
        lock_model(self)
        try:
            for i, col, m in self._runs:
                ch.run(i, src, grid, col, m, dts, stride)
            self._extra(grid, dts, stride)
        finally:
            unlock_model(self)
        return res


cdef class MagnetometerNoise(_GazeboSensor):
    """MagnetometerNoise(x=None, y=None, z=None, *, seed=None, num_envs=None,
    env=None)
--

    gz-sensors' ``MagnetometerSensor`` noise: one Gaussian noise model per body-frame
    axis of the field, in tesla (gz-sensors names them ``MAGNETOMETER_*_NOISE_TESLA``
    and publishes ``field_tesla``). ``Update`` calls ``Apply(field)`` with dt = 0.

    Parameters
    ----------
    x, y, z : mapping or None
        Noise of each axis of the field, T (keys as in the module docstring).
    seed : int, numpy.random.SeedSequence or None
    num_envs : int or None
        A batch of ``num_envs`` environments (module docstring, :doc:`/batching`).
    env : int or None
        This model is environment ``env`` of a batch (bit for bit); not with
        ``num_envs``.
    """

    model_name = "magnetometer"
    declaration = _declarations.MAGNETOMETER
    _components = ('x', 'y', 'z')
    n_columns = 3
    _runs = ((0, 0, 1), (1, 1, 1), (2, 2, 1))

    def __init__(self, x=None, y=None, z=None, *, seed=None, num_envs=None, env=None):
        self._build((x, y, z), seed, None, num_envs, env)

    def apply_one(self, x, y, z, dt=0.0):
        """The noised field (T) of one reading: (x, y, z) in the body frame, T;
        ``dt`` (s) as in the module docstring (gz-sensors: 0). Draws: x, then y, then
        z."""
        return self._one(dt, x, y, z)


register_model(MagnetometerNoise)


cdef class AltimeterNoise(_GazeboSensor):
    """AltimeterNoise(vertical_position=None, vertical_velocity=None, *, seed=None,
    num_envs=None, env=None)
--

    gz-sensors' ``AltimeterSensor`` noise: vertical position (m) and vertical velocity
    (m/s), one Gaussian noise model each. ``Update`` calls ``Apply(x)`` (dt = 0) on the
    values last set (gz-sensors overwrites its stored value with the noised one, so an
    update without a new ``SetPosition`` noises the noised value again; here every
    reading is noised from the input given).

    Parameters
    ----------
    vertical_position : mapping or None
        Noise of the vertical position, m.
    vertical_velocity : mapping or None
        Noise of the vertical velocity, m/s.
    seed : int, numpy.random.SeedSequence or None
    num_envs : int or None
        A batch of ``num_envs`` environments (module docstring, :doc:`/batching`).
    env : int or None
        This model is environment ``env`` of a batch (bit for bit); not with
        ``num_envs``.
    """

    model_name = "altimeter"
    declaration = _declarations.ALTIMETER
    _components = ('vertical_position', 'vertical_velocity')
    n_columns = 2
    _runs = ((0, 0, 1), (1, 1, 1))

    def __init__(self, vertical_position=None, vertical_velocity=None, *, seed=None,
                 num_envs=None, env=None):
        self._build((vertical_position, vertical_velocity), seed, None, num_envs, env)

    def apply_one(self, vertical_position, vertical_velocity, dt=0.0):
        """The noised (vertical position m, vertical velocity m/s) of one reading;
        ``dt`` (s) as in the module docstring (gz-sensors: 0). Draws: position, then
        velocity."""
        return self._one(dt, vertical_position, vertical_velocity)


register_model(AltimeterNoise)


cdef class ForceTorqueNoise(_GazeboSensor):
    """ForceTorqueNoise(force_x=None, force_y=None, force_z=None, torque_x=None,
    torque_y=None, torque_z=None, *, seed=None, num_envs=None, env=None)
--

    gz-sensors' ``ForceTorqueSensor`` noise: one Gaussian noise model per component of
    the measured wrench, force in N (``FORCE_*_NOISE_N``), torque in N·m
    (``TORQUE_*_NOISE_N_M``), applied after the frame and direction transforms (give
    the measured wrench). gz-sensors' ``Update`` passes dt: 0 on the first update (and
    after time went backwards), else the time since the previous update (computed in
    float32 seconds); pass the same ``dt`` to reproduce it.

    Parameters
    ----------
    force_x, force_y, force_z : mapping or None
        Noise of each force component, N.
    torque_x, torque_y, torque_z : mapping or None
        Noise of each torque component, N·m.
    seed : int, numpy.random.SeedSequence or None
    num_envs : int or None
        A batch of ``num_envs`` environments (module docstring, :doc:`/batching`).
    env : int or None
        This model is environment ``env`` of a batch (bit for bit); not with
        ``num_envs``.
    """

    model_name = "force_torque"
    declaration = _declarations.FORCE_TORQUE
    _components = ('force_x', 'force_y', 'force_z', 'torque_x', 'torque_y', 'torque_z')
    n_columns = 6
    _runs = ((0, 0, 1), (1, 1, 1), (2, 2, 1), (3, 3, 1), (4, 4, 1), (5, 5, 1))

    def __init__(self, force_x=None, force_y=None, force_z=None, torque_x=None, torque_y=None,
                 torque_z=None, *, seed=None, num_envs=None, env=None):
        self._build((force_x, force_y, force_z, torque_x, torque_y, torque_z), seed, None,
                    num_envs, env)

    # a method descriptor, not a bound function object: a call through a bound method
    # (``f = sensor.apply_one``) then passes its seven arguments on as they are
    @cython.binding(False)
    def apply_one(self, force_x, force_y, force_z, torque_x, torque_y, torque_z,
                  dt=0.0):
        """The noised wrench of one reading: (force_x, force_y, force_z) N and
        (torque_x, torque_y, torque_z) N·m; ``dt`` (s) the interval since the previous
        update (gz-sensors: 0 on the first). Draws in gz-sensors' order: force x, y, z,
        then torque x, y, z."""
        cdef double v[6]
        cdef double d
        cdef int rc
        # The real-time form (one model, six Python floats, a float dt): read in place,
        # the room test and the six channels in one C call. Anything else, or a reading
        # a channel has no room for (nothing changed then), takes _one, which checks
        # every argument by name and words the refusal.
        if (self._nenv == 0 and self._built and type(force_x) is float
                and type(force_y) is float and type(force_z) is float
                and type(torque_x) is float and type(torque_y) is float
                and type(torque_z) is float):
            d = dt_one(dt)
            v[0] = <double>force_x
            v[1] = <double>force_y
            v[2] = <double>force_z
            v[3] = <double>torque_x
            v[4] = <double>torque_y
            v[5] = <double>torque_z
            taken = hold_model(self)  # one C call with the GIL held
            rc = fn_gz_runs_one(self._ch.ch, self._ch.on, self._run, self._nrun, v, d)
            if taken:
                unlock_model(self)
            if rc == -1:
                return (v[0], v[1], v[2], v[3], v[4], v[5])
        return self._one(dt, force_x, force_y, force_z, torque_x, torque_y, torque_z)


register_model(ForceTorqueNoise)
