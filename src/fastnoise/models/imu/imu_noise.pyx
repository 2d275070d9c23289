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
from fastnoise.core.fast_arrays cimport behaved_f64, read3_fast
from fastnoise.core.model cimport Model, lock_model, unlock_model
from fastnoise.models.imu cimport capi
from fastnoise.models.imu.capi cimport fn_imu

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.imu import declarations as _declarations
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.core.deprecation import positional_options
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
    """ImuNoise(gyro=None, accel=None, *, seed=None, normal_dtype='float32', **keywords)
--

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
    """

    cdef fn_imu m
    cdef object _gyro      # TriadNoise, None until __init__ has run
    cdef object _accel
    cdef double _last_time

    def __cinit__(self, *args, **kwargs):
        # a valid model before __init__ runs (and after a failed one): no noise, no
        # saturation, key 0, so cls.__new__(cls) is safe to call
        capi.fn_imu_blank(&self.m)
        self._last_time = NAN

    def __init__(self, gyro=None, accel=None, *args, seed=None, normal_dtype="float32",
                 **keywords):
        if args:  # 0.2 callers passed these by position
            seed, normal_dtype = positional_options(
                "ImuNoise()", args, ('seed', 'normal_dtype'),
                (seed, normal_dtype), (None, 'float32'))
        # everything is checked and built before self changes: a failed __init__
        # leaves the object as it was
        cdef fn_imu built
        g, a = _checks.triads(gyro, accel, keywords)
        normal_dtype = _declarations.IMU.check_params(
            {"normal_dtype": _checks.dtype_name(normal_dtype)})["normal_dtype"]
        code = FN_FLOAT64 if normal_dtype == "float64" else FN_FLOAT32
        ss = as_seed_sequence(seed)
        _fill(&built, g, a, model_key(ss, "imu"), code)
        lock_model(self)  # a second __init__ must not tear an apply
        self.m = built
        self._last_time = NAN
        unlock_model(self)
        self._gyro = g
        self._accel = a
        self._seed_seq = ss
        self._key = built.key
        self._built = True

    # ---- per sample -------------------------------------------------------------
    def step(self, omega, accel, dt, out_omega=None, out_accel=None):
        """One sample: true angular velocity ``omega`` (3, rad/s) and acceleration
        ``accel`` (3, m/s^2), step ``dt`` (s, > 0) since the previous sample.

        Returns ``(omega_measured, accel_measured)``, float64 (3,) in rad/s and m/s^2,
        or ``out_omega`` / ``out_accel`` (native float64 (3,), C-contiguous, aligned,
        writeable; not sharing memory with each other). Refusals: :doc:`/models/imu`."""
        cdef double d
        cdef size_t where = 0
        cdef int rc
        if type(dt) is float:  # fast path; anything else (bools too) is checked in full
            d = dt
            if not (d > 0.0 and isfinite(d)):
                raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 s")
        else:
            d = _checks.positive_scalar("dt", dt)
        cdef double w[3]
        cdef double a[3]
        _vec3_in("omega", omega, w)
        _vec3_in("accel", accel, a)
        cdef cnp.ndarray wo = _vec3_out("out_omega", out_omega)
        cdef cnp.ndarray ao = _vec3_out("out_accel", out_accel)
        cdef double *pwo = <double *>cnp.PyArray_DATA(wo)
        cdef double *pao = <double *>cnp.PyArray_DATA(ao)
        if pwo < pao + 3 and pao < pwo + 3:
            raise ValueError("out_omega overlaps out_accel: pass separate arrays")
        lock_model(self)
        rc = capi.fn_imu_step_checked(&self.m, w, a, d, pwo, pao, &where)
        if rc == capi.FN_IMU_OK:
            self._last_time = NAN
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
        or ``accel``). Refusals and buffers: :doc:`/models/imu`."""
        cdef size_t where = 0
        cdef int rc
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

    def _advance_biases(self, n, dt):
        """The state ``apply`` of ``n`` samples with steps ``dt`` (s) would leave, bit
        for bit, without true values or outputs (csrc/imu_fold.c): the fold of
        ``fastnoise.dask.imu_noise``. Refuses what ``apply`` refuses for the steps and
        counters, changing nothing."""
        cdef size_t where = 0
        cdef int rc
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
        """TriadNoise of the gyroscope (rad/s)."""
        return self._gyro

    @property
    def accel(self):
        """TriadNoise of the accelerometer (m/s^2)."""
        return self._accel

    @property
    def sample_count(self):
        """Samples produced since the start (or the last reset)."""
        lock_model(self)
        n = self.m.count
        unlock_model(self)
        return int(n)

    @property
    def turn_on_bias(self):
        """Turn-on biases drawn for this seed, (2, 3): gyro (rad/s), accel (m/s^2)."""
        return np.array([self.m.turn_on[i] for i in range(6)]).reshape(2, 3)

    @property
    def gauss_markov_bias(self):
        """Current Gauss-Markov bias state, (2, 3): gyro (rad/s), accel (m/s^2)."""
        return np.array(self._position()["gauss_markov"])

    @property
    def random_walk_bias(self):
        """Current random-walk bias state, (2, 3): gyro (rad/s), accel (m/s^2)."""
        return np.array(self._position()["random_walk"])

    def angular_velocity_covariance(self, dt, convention="white_and_bias"):
        """Row-major 3x3 (9 floats), (rad/s)^2, for step ``dt`` (s): "white_and_bias"
        sigma_white^2 + sigma_bias^2 or "gazebo" sigma_white^2 (``triad_covariance``)."""
        self._params()  # (refuses an ImuNoise made with __new__ alone)
        return triad_covariance(self._gyro, dt, convention)

    def linear_acceleration_covariance(self, dt, convention="white_and_bias"):
        """As ``angular_velocity_covariance``, (m/s^2)^2."""
        self._params()
        return triad_covariance(self._accel, dt, convention)

    # ---- state, copies, pickling -------------------------------------------------
    def reset(self):
        """Back to the seeded start: same turn-on biases, same noise sequence."""
        lock_model(self)
        capi.fn_imu_reset(&self.m)
        self._last_time = NAN
        unlock_model(self)

    @property
    def normal_dtype(self):
        """Precision of the unit normal draws: "float64" or "float32"."""
        return "float32" if self.m.normal_dtype == FN_FLOAT32 else "float64"

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    model_name = "imu"
    declaration = _declarations.IMU

    def _position(self):
        cdef int i, t
        cdef fn_imu snap
        cdef double last
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


register_model(ImuNoise)


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
