"""ImuNoise: the IMU error model of the ROS 2 sensor pipeline document and the Gazebo
sensor noise tutorial, in C (rad/s, m/s^2, s; see ``fastnoise.models.imu.triad``)."""

import math

import numpy as np

cimport cython
cimport numpy as cnp
from cpython.object cimport PyObject, PyTypeObject
from libc.math cimport isfinite, NAN
from libc.stdint cimport uint64_t
from libc.string cimport memset

from fastnoise.core.capi cimport FN_FLOAT32, FN_FLOAT64
from fastnoise.core.buffers cimport recycled_empty
from fastnoise.core.fast_arrays cimport behaved_f64, f64x3, read3_fast
from fastnoise.core.model cimport Model, hold_model, lock_model, unlock_model
from fastnoise.models.imu cimport capi
from fastnoise.models.imu.capi cimport (
    fn_imu,
    fn_imu_zcache,
    fn_imu_batch,
    fn_imu_batch_step_begin,
    fn_imu_batch_step_range,
)


# Fewest environments a thread of a batch step takes: an env steps in about 0.06 us,
# and a hand-off to the pool and back costs some 60 us of wall time (measured on a
# busy 2-core host), so a part of fewer than about 1000 envs costs more than it saves.
_MIN_ENVS_PER_THREAD = 1024

from fastnoise.core import arrays as _arrays
from fastnoise.core import threads as _threads
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.imu import declarations as _declarations
from fastnoise.core import spec as _spec
from fastnoise.core.seeding import as_seed_sequence, env_model_key
from fastnoise.core.deprecation import positional_options
from fastnoise.models.imu import batch as _batch
from fastnoise.models.imu import checks as _checks
from fastnoise.models.imu.samples import ImuSamples
from fastnoise.models.imu.triad import triad_covariance

cnp.import_array()


cdef extern from "Python.h":
    PyTypeObject PyTuple_Type

# ImuNoise.apply's result type, as the C call below takes it.
cdef type _IMU_SAMPLES = ImuSamples


cdef inline object _samples(object omega, object accel):
    # ImuSamples(omega, accel) through tuple's C constructor slot, as ImuSamples._make
    # and tuple.__new__(ImuSamples, ...) build it: the NamedTuple's Python-level
    # __new__ parses its arguments in Python, which costs a small apply several
    # percent (issue 22 item 5 keeps per-call times)
    cdef tuple args = ((omega, accel),)  # the arguments of tuple(iterable)
    return PyTuple_Type.tp_new(_IMU_SAMPLES, <PyObject *>args, NULL)


_F64 = np.dtype(np.float64)
# the FN_IMU_ERR_* codes by the names imu_checks.refusal words them with
_ERRORS = {capi.FN_IMU_ERR_COUNT: "count", capi.FN_IMU_ERR_STREAM: "stream",
           capi.FN_IMU_ERR_WHITE: "white", capi.FN_IMU_ERR_GM: "gm", capi.FN_IMU_ERR_RW: "rw",
           capi.FN_IMU_ERR_OMEGA: "omega", capi.FN_IMU_ERR_ACCEL: "accel"}


cdef int _vec3_in(str name, object x, double out[3]) except -1:
    """The 3 true values of step into ``out`` (copied, so the outputs may share memory
    with the inputs in any way): the fast paths of ``read3_fast``, else intake."""
    cdef const double *src
    if read3_fast(x, out):
        return 0
    src = <const double *>cnp.PyArray_DATA(<cnp.ndarray>_checks.vec3_in(name, x))
    out[0] = src[0]
    out[1] = src[1]
    out[2] = src[2]
    return 0


cdef cnp.ndarray _vec3_out(str name, object out):
    cdef cnp.npy_intp n = 3
    if out is None:
        return cnp.PyArray_EMPTY(1, &n, cnp.NPY_FLOAT64, 0)
    if behaved_f64(out, 1, 3, True):
        return <cnp.ndarray>out
    return _arrays.output(name, out, (3,), _F64)


cdef object _rec_out(str name, object out, Py_ssize_t n):
    if out is None:  # large results reuse the memory of dropped ones
        return recycled_empty((n, 3), np.float64)
    return _arrays.output(name, out, (n, 3), _F64)


cdef class ImuNoise(Model):
    ("ImuNoise(gyro=None, accel=None, *, seed=None, normal_dtype='float32', num_envs=None, "
     "env=None, **keywords)\n--\n"
     """

Noise, biases, scale/misalignment, saturation and quantization of a 6-axis IMU.

    Parameters
    ----------
    gyro, accel : TriadNoise, dict of its fields, or None
        Error terms of the gyroscope (rad/s) and the accelerometer (m/s^2); see
        ``fastnoise.models.imu.triad.TriadNoise`` for every field and its unit.
    seed : int, numpy.random.SeedSequence or None
        Fixes every random number (``None`` draws entropy, kept in ``seed``).
    normal_dtype : "float32" (default) or "float64"
        Precision of the unit normal draws (dimensionless); the arithmetic and the
        outputs are float64. float32 draws are the float64 draws to about 1e-7
        relative, at half the cost; "float64" equals ``GaussianNoiseGenerator``'s
        float64 stream bit for bit.
    num_envs : int or None
        A batch of ``num_envs`` environments stepped by one C call: ``step`` takes and
        returns (num_envs, 3) arrays, ``apply`` (num_envs, T, 3); any triad field may
        be per environment, shape (num_envs,) + its shape (e.g. ``(N, 3)`` for
        ``gyro_noise_density``); ``reset(env_ids)`` resets some. :doc:`/batching`.
    env : int or None
        This model is environment ``env`` of a batch: it gives bit for bit what
        environment ``env`` of ``ImuNoise(..., num_envs=N)`` gives (not with
        ``num_envs``).
    **keywords
        ``gyro_<field>=`` / ``accel_<field>=`` set single fields, e.g.
        ``ImuNoise(gyro_noise_density=1e-4, accel_bits=16, accel_full_scale=156.96)``.

    Examples
    --------
    >>> from fastnoise.models.imu.imu_noise import ImuNoise
    >>> from fastnoise.models.imu.triad import wt901c
    >>> gyro, accel = wt901c()
    >>> imu = ImuNoise(gyro=gyro, accel=accel, seed=42)
    >>> w, a = imu.step([0.0, 0.0, 0.1], [0.0, 0.0, 9.81], dt=0.01)  # rad/s, m/s^2
    >>> W, A = imu.apply(omega_true, accel_true, dt=0.01)  # (N, 3) each  # doctest: +SKIP

    Notes
    -----
    Order of operations and density convention (single-sided: white sigma N/sqrt(dt)):
    ``fastnoise.models.imu.triad``. ``apply`` of N samples equals N ``step`` calls bit
    for bit on every SIMD path; out-of-range values are refused by name, nothing
    changed; threads may share one ImuNoise. Streams, limits, threads: :doc:`/models/imu`.
    """)

    cdef fn_imu m
    cdef fn_imu_batch b    # the environments of a batch (b.n == 0: one model, in m)
    cdef fn_imu_zcache zc  # step's normals of the current group (one model)
    cdef object _gyro      # TriadNoise (a batch: a tuple of one per env), None until __init__
    cdef object _accel
    cdef double _last_time

    def __cinit__(self, *args, **kwargs):
        # a valid model before __init__ runs (and after a failed one): no noise, no
        # saturation, key 0, so cls.__new__(cls) is safe to call
        capi.fn_imu_blank(&self.m)
        capi.fn_imu_zcache_clear(&self.zc)
        memset(&self.b, 0, sizeof(fn_imu_batch))
        self._last_time = NAN

    def __dealloc__(self):
        capi.fn_imu_batch_free(&self.b)

    def __init__(self, gyro=None, accel=None, *args, seed=None, normal_dtype="float32",
                 num_envs=None, env=None, **keywords):
        if args:  # 0.2 callers passed these by position
            seed, normal_dtype = positional_options(
                "ImuNoise()", args, ('seed', 'normal_dtype'),
                (seed, normal_dtype), (None, 'float32'))
        # everything is checked and built before self changes: a failed __init__
        # leaves the object as it was
        cdef fn_imu built
        cdef fn_imu_batch nb
        cdef fn_imu_batch old
        cdef Py_ssize_t e
        num_envs, env = _spec.check_envs(num_envs, env)
        normal_dtype = _declarations.IMU.check_params(
            {"normal_dtype": _checks.dtype_name(normal_dtype)})["normal_dtype"]
        code = FN_FLOAT64 if normal_dtype == "float64" else FN_FLOAT32
        ss = as_seed_sequence(seed)
        memset(&nb, 0, sizeof(fn_imu_batch))
        if num_envs is None:
            g, a = _checks.triads(gyro, accel, keywords)
            _fill(&built, g, a, env_model_key(ss, "imu", env), code)
        else:
            g, a = _batch.env_triads(gyro, accel, keywords, num_envs)
            capi.fn_imu_blank(&built)
            built.key = env_model_key(ss, "imu", None)
            built.normal_dtype = code
            if capi.fn_imu_batch_alloc(&nb, <size_t>num_envs) != 0:
                raise MemoryError(f"num_envs={num_envs!r}: no memory for the environments")
            try:
                for e in range(num_envs):
                    if e > 0 and g[e] is g[e - 1] and a[e] is a[e - 1]:
                        nb.env[e] = nb.env[e - 1]  # the same triads: only the key differs
                        nb.env[e].key = env_model_key(ss, "imu", e)
                        capi.fn_imu_init(&nb.env[e])
                    else:
                        _fill(&nb.env[e], g[e], a[e], env_model_key(ss, "imu", e), code)
                    capi.fn_imu_batch_push(&nb, <size_t>e)
            except BaseException:
                capi.fn_imu_batch_free(&nb)
                raise
            g, a = tuple(g), tuple(a)
        lock_model(self)  # a second __init__ must not tear an apply
        self.m = built
        old = self.b
        self.b = nb
        self._last_time = NAN
        unlock_model(self)
        capi.fn_imu_batch_free(&old)
        self._gyro = g
        self._accel = a
        self._num_envs = num_envs
        self._env = env
        self._seed_seq = ss
        self._key = built.key
        self._built = True

    # ---- per sample -------------------------------------------------------------
    @cython.binding(False)
    def step(self, omega, accel, dt, out_omega=None, out_accel=None, *, threads=None):
        """One sample: true angular velocity ``omega`` (3, rad/s) and acceleration
        ``accel`` (3, m/s^2), step ``dt`` (s, > 0) since the previous sample.

        Returns ``(omega_measured, accel_measured)``, float64 (3,) in rad/s and m/s^2,
        or ``out_omega`` / ``out_accel`` (native float64 (3,), C-contiguous, aligned,
        writeable; not sharing memory with each other). Refusals: :doc:`/models/imu`.

        A batch (``num_envs=N``): ``omega``, ``accel`` and the outputs are (N, 3),
        ``dt`` a scalar or (N,) steps (s), one per environment; one C call steps every
        environment (each output may be exactly its input). ``threads`` (keyword only,
        an int >= 1; None is 1) splits the environments into ranges stepped on up to
        that many threads of the pool, after every environment is checked; the
        outputs and states are the same bits for any ``threads``. A single model
        checks ``threads`` and steps on the calling thread."""
        cdef double d
        cdef size_t where = 0
        cdef int rc
        cdef double w[3]
        cdef double a[3]
        cdef const double *p
        cdef double *pwo
        cdef double *pao
        cdef cnp.npy_intp three = 3
        cdef bint taken
        if self.b.n != 0:
            return self._batch_step(omega, accel, dt, out_omega, out_accel, threads)
        if threads is not None:
            _threads.count(threads)
        if type(dt) is float:  # fast path; anything else (bools too) is checked in full
            d = dt
            if not (d > 0.0 and isfinite(d)):
                raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 s")
        else:
            d = _checks.positive_scalar("dt", dt)
        # the true values copied (so the outputs may share memory with the inputs in
        # any way): straight from a native float64 (3,) array, else _vec3_in
        p = f64x3(omega, False)
        if p != NULL:
            w[0] = p[0]
            w[1] = p[1]
            w[2] = p[2]
        else:
            _vec3_in("omega", omega, w)
        p = f64x3(accel, False)
        if p != NULL:
            a[0] = p[0]
            a[1] = p[1]
            a[2] = p[2]
        else:
            _vec3_in("accel", accel, a)
        if out_omega is None:
            wo = cnp.PyArray_EMPTY(1, &three, cnp.NPY_FLOAT64, 0)
            pwo = <double *>cnp.PyArray_DATA(<cnp.ndarray>wo)
        else:
            pwo = f64x3(out_omega, True)
            wo = out_omega
            if pwo == NULL:
                wo = _vec3_out("out_omega", out_omega)
                pwo = <double *>cnp.PyArray_DATA(<cnp.ndarray>wo)
        if out_accel is None:
            ao = cnp.PyArray_EMPTY(1, &three, cnp.NPY_FLOAT64, 0)
            pao = <double *>cnp.PyArray_DATA(<cnp.ndarray>ao)
        else:
            pao = f64x3(out_accel, True)
            ao = out_accel
            if pao == NULL:
                ao = _vec3_out("out_accel", out_accel)
                pao = <double *>cnp.PyArray_DATA(<cnp.ndarray>ao)
        if pwo < pao + 3 and pao < pwo + 3:
            raise ValueError("out_omega overlaps out_accel: pass separate arrays")
        taken = hold_model(self)  # the step below is C code with the GIL held
        rc = capi.fn_imu_step_cached(&self.m, &self.zc, w, a, d, pwo, pao, &where)
        if rc == capi.FN_IMU_OK:
            self._last_time = NAN
        if taken:
            unlock_model(self)
        if rc != capi.FN_IMU_OK:
            raise _refusal(self, rc, where, 1, d, [w[0], w[1], w[2]], [a[0], a[1], a[2]],
                           True)
        return wo, ao

    # ---- whole recordings -------------------------------------------------------
    def apply(self, omega, accel, dt=None, *, timestamps=None, out_omega=None,
              out_accel=None):
        """Noise a whole recording: ``omega`` (N, 3) rad/s and ``accel`` (N, 3) m/s^2.

        Either ``dt`` (s, > 0; scalar or N per-sample steps) or ``timestamps`` (N, s,
        increasing; the first step is the time since the previous call's last
        timestamp, else ``t[1] - t[0]``). Inputs of any real dtype and layout.

        Returns ``ImuSamples(omega, accel)`` (a NamedTuple: it unpacks as ``omega,
        accel = ...``), the measured values, float64 (N, 3) in rad/s and m/s^2
        (N calls of ``step``, bit for bit), or ``out_omega``/``out_accel`` (native
        float64 (N, 3), C-contiguous, aligned, writeable; each may be exactly ``omega``
        or ``accel``). Refusals and buffers: :doc:`/models/imu`.

        A batch (``num_envs=N``): ``omega``, ``accel`` and the outputs are (N, T, 3),
        ``dt`` a scalar, (N,) (one step per environment) or (N, T) (s); environment i's
        rows are what environment i's model gives for its (T, 3) recording, bit for
        bit; ``timestamps`` are not taken."""
        cdef size_t where = 0
        cdef int rc
        if self.b.n != 0:
            if timestamps is not None:
                raise TypeError("timestamps= is not allowed with num_envs: give dt, a "
                                "scalar, (num_envs,) or (num_envs, T) steps (s)")
            return self._batch_apply(omega, accel, dt, out_omega, out_accel)
        # a recording: a behaved float64 (N, 3) ndarray as it is, else the intake
        w = omega if behaved_f64(omega, 2, 3, False) else _checks.rec_in("omega", omega)
        a = accel if behaved_f64(accel, 2, 3, False) else _checks.rec_in("accel", accel)
        cdef Py_ssize_t n = w.shape[0]
        times, steps = _checks.apply_steps(w, a, dt, timestamps)
        wo = _rec_out("out_omega", out_omega, n)
        ao = _rec_out("out_accel", out_accel, n)
        _checks.outputs_apart(w, a, steps, out_omega, out_accel, wo, ao)
        cdef const double *pw = <const double *>cnp.PyArray_DATA(w)
        cdef const double *pa = <const double *>cnp.PyArray_DATA(a)
        cdef double *pwo = <double *>cnp.PyArray_DATA(wo)
        cdef double *pao = <double *>cnp.PyArray_DATA(ao)
        cdef const double *ps
        cdef size_t stride
        # the recurrence (bias states, positions, last timestamp) is the object's: the
        # lock is held for the whole call, the GIL released for the kernel
        lock_model(self)
        try:
            last = math.nan
            if steps is None:
                steps, last = _checks.steps_from_times(times, self._last_time)
            ps = <const double *>cnp.PyArray_DATA(steps)
            stride = 1 if steps.shape[0] > 1 else 0
            if n > 0:
                with nogil:
                    rc = capi.fn_imu_apply_checked(&self.m, <size_t>n, pw, pa, ps, stride,
                                                   pwo, pao, &where)
                if rc != capi.FN_IMU_OK:
                    raise _refusal(self, rc, where, n, steps, w, a, False)
            self._last_time = last
        finally:
            unlock_model(self)
        return _samples(wo, ao)

    # ---- a batch of environments -------------------------------------------------
    def _batch_step(self, omega, accel, dt, out_omega, out_accel, threads):
        cdef Py_ssize_t n = <Py_ssize_t>self.b.n
        cdef size_t env = 0, where = 0
        cdef int rc
        cdef int shared = 0
        cdef int nthreads = 1 if threads is None else _threads.count(threads)
        w = _batch.rows_in("omega", omega, n)
        a = _batch.rows_in("accel", accel, n)
        steps, stride, _ = _batch.steps_in(dt, n)
        wo = _batch.out_rows("out_omega", out_omega, (n, 3))
        ao = _batch.out_rows("out_accel", out_accel, (n, 3))
        _arrays.no_partial_overlap({"out_omega": wo, "out_accel": ao},
                                   {"omega": w, "accel": a})
        cdef const double *pw = <const double *>cnp.PyArray_DATA(w)
        cdef const double *pa = <const double *>cnp.PyArray_DATA(a)
        cdef const double *ps = <const double *>cnp.PyArray_DATA(steps)
        cdef double *pwo = <double *>cnp.PyArray_DATA(wo)
        cdef double *pao = <double *>cnp.PyArray_DATA(ao)
        cdef size_t st = <size_t>stride
        cdef int nparts = _threads.parts(n, nthreads, _MIN_ENVS_PER_THREAD)
        lock_model(self)
        try:
            if nparts <= 1:  # today's single call
                with nogil:
                    rc = capi.fn_imu_batch_step_checked(&self.b, pw, pa, ps, st, pwo, pao,
                                                        &env, &where)
            else:  # every env checked first, then the ranges on the pool
                with nogil:
                    rc = fn_imu_batch_step_begin(&self.b, pw, pa, ps, st, &shared, &env,
                                                 &where)
                if rc == capi.FN_IMU_OK:
                    _threads.run_split(
                        lambda start, count: _step_part(self, shared, w, a, wo, ao, start,
                                                        count),
                        n, nparts)
            if rc != capi.FN_IMU_OK:
                raise _batch_refusal(self, rc, env, where, 1, steps, w, a, True)
        finally:
            unlock_model(self)
        return wo, ao

    def _batch_apply(self, omega, accel, dt, out_omega, out_accel):
        cdef Py_ssize_t n = <Py_ssize_t>self.b.n
        cdef size_t env = 0, where = 0
        cdef int rc
        if dt is None:
            raise TypeError("dt is required with num_envs: a scalar, (num_envs,) or "
                            "(num_envs, T) steps (s)")
        w = _batch.rows_in("omega", omega, n, 0)
        cdef Py_ssize_t t = w.shape[1]
        a = _batch.rows_in("accel", accel, n, t)
        if a.shape != w.shape:
            raise ValueError(f"accel has shape {a.shape}: it must be omega's {w.shape}")
        steps, es, ts = _batch.steps_in(dt, n, t)
        wo = _batch.out_rows("out_omega", out_omega, (n, t, 3))
        ao = _batch.out_rows("out_accel", out_accel, (n, t, 3))
        _arrays.no_partial_overlap({"out_omega": wo, "out_accel": ao},
                                   {"omega": w, "accel": a})
        cdef const double *pw = <const double *>cnp.PyArray_DATA(w)
        cdef const double *pa = <const double *>cnp.PyArray_DATA(a)
        cdef const double *ps = <const double *>cnp.PyArray_DATA(steps)
        cdef double *pwo = <double *>cnp.PyArray_DATA(wo)
        cdef double *pao = <double *>cnp.PyArray_DATA(ao)
        cdef size_t env_stride = <size_t>es, time_stride = <size_t>ts
        lock_model(self)
        try:
            if t > 0:
                with nogil:
                    rc = capi.fn_imu_batch_apply_checked(&self.b, <size_t>t, pw, pa, ps,
                                                         env_stride, time_stride, pwo, pao,
                                                         &env, &where)
                if rc != capi.FN_IMU_OK:
                    raise _batch_refusal(self, rc, env, where, t, steps, w, a, False)
        finally:
            unlock_model(self)
        return _samples(wo, ao)

    def _set_env_params(self, env_ids, changes):
        """Give environments ``env_ids`` (sorted unique indices) new triad fields
        (``changes``: ``{"gyro_<field>": values}``, values of shape
        (len(env_ids),) + the field's shape) and reset them (their constructed state
        with the new parameters): what ``fastnoise.core.randomization.redraw`` calls."""
        cdef Py_ssize_t i, e
        cdef fn_imu built
        self._need_batch("_set_env_params")
        ids = [int(e) for e in env_ids]
        gyros, accels = list(self._gyro), list(self._accel)
        new = {}
        for i, e in enumerate(ids):  # everything checked before anything changes
            kw = {k: (v[i].tolist() if hasattr(v[i], "tolist") else v[i])
                  for k, v in changes.items()}
            try:
                new[e] = _checks.triads(gyros[e], accels[e], kw)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"environment {e}: {exc}") from exc
        code = self.b.env[0].normal_dtype
        for e, (g, a) in new.items():
            _fill(&built, g, a, self.b.env[e].key, code)
            lock_model(self)
            self.b.env[e] = built
            capi.fn_imu_batch_push(&self.b, <size_t>e)
            unlock_model(self)
            gyros[e], accels[e] = g, a
        self._gyro, self._accel = tuple(gyros), tuple(accels)

    cdef int _need_batch(self, str what) except -1:
        if self.b.n == 0:
            raise TypeError(f"{what} needs a batch: build the ImuNoise with num_envs=N")
        return 0

    def _advance_biases(self, n, dt):
        """The state ``apply`` of ``n`` samples with steps ``dt`` (s) would leave, bit
        for bit, without true values or outputs (csrc/imu_fold.c): the fold of
        ``fastnoise.dask.imu_noise``. Refuses what ``apply`` refuses for the steps and
        counters, changing nothing."""
        cdef size_t where = 0
        cdef int rc
        if self.b.n != 0:
            raise TypeError("_advance_biases is not allowed with num_envs (one model only)")
        cdef size_t count = <size_t>_validate.counter("n", n)
        steps = _checks.steps(dt, count)
        cdef const double *ps = <const double *>cnp.PyArray_DATA(steps)
        cdef size_t stride = 1 if steps.shape[0] > 1 else 0
        lock_model(self)
        try:
            if count > 0:
                with nogil:
                    rc = capi.fn_imu_advance_biases_checked(&self.m, count, ps, stride,
                                                            &where)
                if rc != capi.FN_IMU_OK:
                    raise _refusal(self, rc, where, count, steps, None, None, False)
            self._last_time = NAN
        finally:
            unlock_model(self)

    # ---- parameters and derived values ------------------------------------------
    @property
    def gyro(self):
        """TriadNoise of the gyroscope (rad/s); a batch: a tuple of one per environment."""
        return self._gyro

    @property
    def accel(self):
        """TriadNoise of the accelerometer (m/s^2); a batch: a tuple of one per
        environment."""
        return self._accel

    @property
    def sample_count(self):
        """Samples produced since the start (or the last reset); a batch: an int64
        array (num_envs,), one count per environment."""
        cdef Py_ssize_t e
        if self.b.n != 0:
            lock_model(self)
            for e in range(<Py_ssize_t>self.b.n):
                capi.fn_imu_batch_pull(&self.b, <size_t>e)
            out = np.array([self.b.env[e].count for e in range(<Py_ssize_t>self.b.n)],
                           dtype=np.uint64).astype(np.int64)
            unlock_model(self)
            return out
        lock_model(self)
        n = self.m.count
        unlock_model(self)
        return int(n)

    @property
    def turn_on_bias(self):
        """Turn-on biases drawn for this seed, (2, 3): gyro (rad/s), accel (m/s^2);
        a batch: (num_envs, 2, 3)."""
        cdef Py_ssize_t e
        if self.b.n != 0:
            return np.array([[self.b.env[e].turn_on[i] for i in range(6)]
                             for e in range(<Py_ssize_t>self.b.n)]).reshape(-1, 2, 3)
        return np.array([self.m.turn_on[i] for i in range(6)]).reshape(2, 3)

    @property
    def gauss_markov_bias(self):
        """Current Gauss-Markov bias state, (2, 3): gyro (rad/s), accel (m/s^2); a
        batch: (num_envs, 2, 3)."""
        return self._bias_state("gauss_markov")

    @property
    def random_walk_bias(self):
        """Current random-walk bias state, (2, 3): gyro (rad/s), accel (m/s^2); a
        batch: (num_envs, 2, 3)."""
        return self._bias_state("random_walk")

    def _bias_state(self, name):
        position = self._position()
        if self.b.n != 0:
            return np.array([p[name] for p in position["envs"]])
        return np.array(position[name])

    def angular_velocity_covariance(self, dt, convention="white_and_bias"):
        """Row-major 3x3 (9 floats), (rad/s)^2, for step ``dt`` (s): "white_and_bias"
        sigma_white^2 + sigma_bias^2 or "gazebo" sigma_white^2 (``triad_covariance``).
        A batch: (num_envs, 9), one row per environment."""
        self._params()  # (refuses an ImuNoise made with __new__ alone)
        if self.b.n != 0:
            return np.array([triad_covariance(g, dt, convention) for g in self._gyro])
        return triad_covariance(self._gyro, dt, convention)

    def linear_acceleration_covariance(self, dt, convention="white_and_bias"):
        """As ``angular_velocity_covariance``, (m/s^2)^2."""
        self._params()
        if self.b.n != 0:
            return np.array([triad_covariance(a, dt, convention) for a in self._accel])
        return triad_covariance(self._accel, dt, convention)

    # ---- state, copies, pickling -------------------------------------------------
    def reset(self, env_ids=None):
        """Back to the seeded start: same turn-on biases, same noise sequence.

        A batch: ``env_ids`` (None: all; an int, int indices or a boolean mask of shape
        (num_envs,)) names the environments that go back to their constructed state;
        the others continue their streams unchanged. Refused for one model."""
        cdef Py_ssize_t e
        if self.b.n == 0:
            if env_ids is not None:
                raise TypeError(f"env_ids={env_ids!r:.60} is not allowed: this ImuNoise "
                                "is one model (build it with num_envs=N for a batch)")
            lock_model(self)
            capi.fn_imu_reset(&self.m)
            self._last_time = NAN
            unlock_model(self)
            return
        ids = _spec.env_ids(env_ids, <Py_ssize_t>self.b.n)
        lock_model(self)
        for e in ids:
            capi.fn_imu_batch_reset(&self.b, <size_t>e)
        unlock_model(self)

    @property
    def normal_dtype(self):
        """Precision of the unit normal draws: "float64" or "float32"."""
        return "float32" if self.m.normal_dtype == FN_FLOAT32 else "float64"

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    model_name = "imu"
    declaration = _declarations.IMU

    def _model_params(self):
        # a batch's triads hold per-environment values (Model._params adds num_envs
        # and env)
        if self.b.n == 0:
            return Model._model_params(self)
        return {"gyro": _batch.batch_params(self._gyro),
                "accel": _batch.batch_params(self._accel),
                "normal_dtype": self.normal_dtype}

    def _position(self):
        cdef int i, t
        cdef fn_imu snap
        cdef double last
        cdef Py_ssize_t e
        if self.b.n != 0:
            lock_model(self)
            for e in range(<Py_ssize_t>self.b.n):
                capi.fn_imu_batch_pull(&self.b, <size_t>e)
            envs = [_env_position(&self.b.env[e]) for e in range(<Py_ssize_t>self.b.n)]
            unlock_model(self)
            return _batch.position_of(envs)
        lock_model(self)  # not in the middle of another thread's apply
        snap = self.m
        last = self._last_time
        unlock_model(self)
        return {
            "stream_positions": [[int(snap.st[i][t].position) for t in range(3)]
                                 for i in range(6)],
            "gauss_markov": [[float(snap.gm[3 * i + t]) for t in range(3)] for i in range(2)],
            "random_walk": [[float(snap.rw[3 * i + t]) for t in range(3)] for i in range(2)],
            "sample_count": int(snap.count),
            "last_time": float(last) if isfinite(last) else None,
        }

    def _set_position(self, position):
        cdef int i, t
        cdef Py_ssize_t e
        cdef fn_imu *m
        if self.b.n != 0:
            envs = _batch.check_position(position, <Py_ssize_t>self.b.n)
            for e in range(<Py_ssize_t>self.b.n):  # all checked first
                st, gm, rw, count, last = envs[e]
                m = &self.b.env[e]
                for i in range(6):
                    for t in range(3):
                        if st[i][t] != (count if m.on[i][t] else 0):
                            raise ValueError(
                                f"state['position']['envs'][{e}]['stream_positions'] is not "
                                f"allowed: in a batch, every stream whose term is on stands "
                                f"at the sample count ({count}) and the others at 0")
                if last is not None and isfinite(last):
                    raise ValueError(f"state['position']['envs'][{e}]['last_time'] is "
                                     "not allowed: a batch keeps no last time (None)")
            lock_model(self)
            for e in range(<Py_ssize_t>self.b.n):
                st, gm, rw, count, last = envs[e]
                m = &self.b.env[e]
                capi.fn_imu_batch_reset(&self.b, <size_t>e)
                for i in range(6):
                    m.gm[i] = gm[i // 3][i % 3]
                    m.rw[i] = rw[i // 3][i % 3]
                m.count = <uint64_t>count
                capi.fn_imu_set_room(m)
                capi.fn_imu_batch_push(&self.b, <size_t>e)
            unlock_model(self)
            return
        st, gm, rw, count, last = _checks.check_position(position)  # all checked first
        lock_model(self)  # the state setter sets it on a model other threads may use
        capi.fn_imu_reset(&self.m)  # streams at their start, caches dropped, turn-on drawn
        for i in range(6):
            for t in range(3):
                self.m.st[i][t].position = <uint64_t>st[i][t]
            self.m.gm[i] = gm[i // 3][i % 3]
            self.m.rw[i] = rw[i // 3][i % 3]
        self.m.count = <uint64_t>count
        capi.fn_imu_set_room(&self.m)
        self._last_time = last
        unlock_model(self)

    # ---- files and datasheets (fastnoise.models.imu.formats, .datasheet, .catalogue) ----

    @classmethod
    def from_kalibr(cls, source, *, seed=None, normal_dtype="float32"):
        """An ImuNoise from a Kalibr ``imu.yaml`` (a path, or a dict of its keys): white
        noise and bias random walk densities, continuous time (rad/s/sqrt(Hz),
        rad/s^2/sqrt(Hz), m/s^2/sqrt(Hz), m/s^3/sqrt(Hz)). ``update_rate`` (Hz) and
        ``rostopic`` are not part of the model (``formats.read`` returns them).
        :doc:`/imu-workflow`."""
        g, a, _ = _imu_formats().read(source, "kalibr")
        return cls(gyro=g, accel=a, seed=seed, normal_dtype=normal_dtype)

    def to_kalibr(self, path=None, *, update_rate, rostopic="/imu0"):
        """This model as Kalibr ``imu.yaml`` entries (a dict), written to ``path`` when
        given. ``update_rate`` (Hz) is the IMU's rate: Kalibr discretizes the densities
        with it; a per-sample ``noise_stddev`` is folded in at it. Terms Kalibr cannot
        hold (Gauss-Markov bias, constant biases, scale, quantization, ...) warn
        (``FormatLossWarning``)."""
        return _to_format(self, "kalibr", path, update_rate=update_rate, rostopic=rostopic)

    @classmethod
    def from_allan_variance_ros(cls, source, *, seed=None, normal_dtype="float32"):
        """An ImuNoise from the ``imu.yaml`` that allan_variance_ros writes (Kalibr's keys
        and units)."""
        g, a, _ = _imu_formats().read(source, "allan_variance_ros")
        return cls(gyro=g, accel=a, seed=seed, normal_dtype=normal_dtype)

    def to_allan_variance_ros(self, path=None, *, update_rate, rostopic="/imu0"):
        """This model as allan_variance_ros' ``imu.yaml`` (Kalibr's keys; the largest
        axis of each term, as that tool writes it)."""
        return _to_format(self, "allan_variance_ros", path, update_rate=update_rate,
                          rostopic=rostopic)

    @classmethod
    def from_openvins(cls, source, *, seed=None, normal_dtype="float32"):
        """An ImuNoise from the VINS-Fusion / OpenVINS keys ``gyr_n``, ``gyr_w``,
        ``acc_n``, ``acc_w`` (continuous-time densities, Kalibr's units) of a YAML file
        (OpenCV ``%YAML:1.0`` allowed; other keys are ignored) or a dict."""
        g, a, _ = _imu_formats().read(source, "openvins")
        return cls(gyro=g, accel=a, seed=seed, normal_dtype=normal_dtype)

    def to_openvins(self, path=None, *, update_rate=None, g_norm=None):
        """This model as ``acc_n``, ``acc_w``, ``gyr_n``, ``gyr_w`` (and ``g_norm``,
        m/s^2, when given), a dict, written as ``%YAML:1.0`` to ``path`` when given.
        ``update_rate`` (Hz) is needed only to fold a per-sample ``noise_stddev`` in."""
        return _to_format(self, "openvins", path, update_rate=update_rate, g_norm=g_norm)

    @classmethod
    def from_datasheet(cls, *, seed=None, normal_dtype="float32", **figures):
        """An ImuNoise from datasheet figures in datasheet units (ARW deg/sqrt(h), VRW
        m/s/sqrt(h), bias instability deg/h and ug, noise densities deg/s/sqrt(Hz) and
        ug/sqrt(Hz), ranges deg/s and g, bits, ODR and bandwidth Hz): see
        ``fastnoise.models.imu.datasheet.datasheet_triads`` for every keyword and the
        mapping (IEEE Std 952/1293, NIST SP 1065, the 0.664 factor)."""
        from fastnoise.models.imu.datasheet import datasheet_triads
        g, a = datasheet_triads(**figures)
        return cls(gyro=g, accel=a, seed=seed, normal_dtype=normal_dtype)

    @classmethod
    def preset(cls, name, *, seed=None, normal_dtype="float32"):
        """An ImuNoise of a catalogued IMU (``fastnoise.models.imu.presets()`` lists
        them: "adis16470", "bmi088", "bno085", "icm42688p", "mpu6050", "wt901c"), each
        figure cited to its datasheet in ``fastnoise.models.imu.catalogue``."""
        from fastnoise.models.imu.catalogue import preset_triads
        g, a = preset_triads(name)
        return cls(gyro=g, accel=a, seed=seed, normal_dtype=normal_dtype)


register_model(ImuNoise)


def _imu_formats():
    from fastnoise.models.imu import formats
    return formats


def _to_format(ImuNoise self, fmt, path, **options):
    """``to_<fmt>``: one model's triads (not a batch) as the format's entries."""
    if self._num_envs is not None:
        raise ValueError(f"to_{fmt} is not allowed on a batch (num_envs={self._num_envs}): "
                         "export one environment's ImuNoise(env=e)")
    formats = _imu_formats()
    entries = formats.to_mapping(self._gyro, self._accel, fmt, **options)
    if path is not None:
        formats.write(entries, fmt, path)
    return entries


cdef object _refusal(ImuNoise m, int rc, size_t where, size_t n, steps, w, acc,
                     bint per_sample):
    """The exception for an FN_IMU_ERR_* code of a call of n samples, worded by
    ``imu_checks.refusal`` from the values of the C model it names."""
    info = {"max_input": m.m.max_input, "count": int(m.m.count)}
    if rc == capi.FN_IMU_ERR_STREAM and where < 3 * capi.FN_IMU_AXES:
        info["position"] = int(m.m.st[where // 3][where % 3].position)
    elif (rc == capi.FN_IMU_ERR_WHITE or rc == capi.FN_IMU_ERR_GM or rc == capi.FN_IMU_ERR_RW) and \
            where < capi.FN_IMU_AXES:
        info.update(noise_density=m.m.p[where].noise_density, gm=m.m.gm[where],
                    rw=m.m.rw[where])
    return _checks.refusal(_ERRORS.get(rc, rc), where, n, steps, w, acc, per_sample, info)


cdef dict _env_position(fn_imu *m):
    """One environment's position of a batch, as one model's (its on-streams stand at
    the sample count, csrc/imu_batch.h)."""
    cdef int i, t
    return {
        "stream_positions": [[int(m.count) if m.on[i][t] else 0 for t in range(3)]
                             for i in range(6)],
        "gauss_markov": [[float(m.gm[3 * i + t]) for t in range(3)] for i in range(2)],
        "random_walk": [[float(m.rw[3 * i + t]) for t in range(3)] for i in range(2)],
        "sample_count": int(m.count),
        "last_time": None,
    }


cdef object _batch_refusal(ImuNoise self, int rc, size_t env, size_t where, size_t n,
                           steps, w, acc, bint per_sample):
    """The exception for an FN_IMU_ERR_* code of environment ``env`` of a batch: the
    single model's wording (``imu_checks.refusal``), prefixed with the environment."""
    capi.fn_imu_batch_pull(&self.b, env)
    cdef fn_imu *m = &self.b.env[env]
    info = {"max_input": m.max_input, "count": int(m.count)}
    if (rc == capi.FN_IMU_ERR_WHITE or rc == capi.FN_IMU_ERR_GM or rc == capi.FN_IMU_ERR_RW) and \
            where < capi.FN_IMU_AXES:
        info.update(noise_density=m.p[where].noise_density, gm=m.gm[where], rw=m.rw[where])
    if rc == capi.FN_IMU_ERR_STREAM:
        info["position"] = int(m.count)
    d = steps if steps.shape[0] == 1 else steps.reshape(self.b.n, -1)[env]
    exc = _checks.refusal(_ERRORS.get(rc, rc), where, n, d, w[env], acc[env], per_sample, info)
    return type(exc)(f"environment {env}: {exc}")


@cython.boundscheck(True)
cdef int _fill(fn_imu *m, gyro, accel, uint64_t key, int dtype_code) except -1:
    """``m`` from zero: the triads (``imu_checks.kernel_params``' layout), key, dtype."""
    cdef int s, i, j
    axes, lin, gsens = _checks.kernel_params(gyro, accel)
    memset(m, 0, sizeof(fn_imu))
    m.key = key
    m.normal_dtype = dtype_code
    for i in range(capi.FN_IMU_AXES):
        m.p[i] = axes[i]
    for i in range(3):
        for j in range(3):
            for s in range(2):
                m.lin[s][i][j] = lin[s][i][j]
            m.gsens[i][j] = gsens[i][j]
    capi.fn_imu_init(m)
    return 0


def _step_part(ImuNoise self, int shared, cnp.ndarray w, cnp.ndarray a, cnp.ndarray wo,
               cnp.ndarray ao, Py_ssize_t start, Py_ssize_t count):
    """Envs [start, start + count) of a checked batch step (fn_imu_batch_step_begin
    passed), GIL released; the caller holds the model's lock for every part."""
    cdef const double *pw = <const double *>cnp.PyArray_DATA(w)
    cdef const double *pa = <const double *>cnp.PyArray_DATA(a)
    cdef double *pwo = <double *>cnp.PyArray_DATA(wo)
    cdef double *pao = <double *>cnp.PyArray_DATA(ao)
    with nogil:
        fn_imu_batch_step_range(&self.b, shared, pw, pa, pwo, pao, <size_t>start,
                                <size_t>count)
