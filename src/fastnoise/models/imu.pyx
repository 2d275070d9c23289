"""ImuNoise: the IMU error model of seeds 002 and 003 (Gazebo), in C.

Gyroscope in rad/s, accelerometer in m/s^2, time in s. The terms, their order and the
density convention (single-sided: sigma = N/sqrt(dt)) are described in
``fastnoise.models.imu_config`` and ``csrc/imu.h``.
"""

import math

import numpy as np

cimport cython
cimport numpy as cnp
from libc.math cimport isfinite, INFINITY, NAN
from libc.stdint cimport uint64_t
from libc.string cimport memset

from fastnoise.core.buffers cimport recycled_empty
from fastnoise.core.capi cimport FN_FLOAT32, FN_FLOAT64
from fastnoise.core.model cimport Model, lock_model, unlock_model
from fastnoise.models.imu_capi cimport (
    FN_IMU_AXES,
    FN_IMU_ERR_ACCEL,
    FN_IMU_ERR_COUNT,
    FN_IMU_ERR_GM,
    FN_IMU_ERR_OMEGA,
    FN_IMU_ERR_RW,
    FN_IMU_ERR_STREAM,
    FN_IMU_ERR_WHITE,
    FN_IMU_OK,
    fn_imu,
    fn_imu_apply_checked,
    fn_imu_init,
    fn_imu_reset,
    fn_imu_set_room,
    fn_imu_step_checked,
)

from fastnoise.core import arrays as _arrays
from fastnoise.core.model import register_model
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.models import imu_checks as _checks
from fastnoise.models.imu_config import triad_covariance

cnp.import_array()


_F64 = np.dtype(np.float64)
# the FN_IMU_ERR_* codes by the names imu_checks.refusal words them with
_ERRORS = {FN_IMU_ERR_COUNT: "count", FN_IMU_ERR_STREAM: "stream", FN_IMU_ERR_WHITE: "white",
           FN_IMU_ERR_GM: "gm", FN_IMU_ERR_RW: "rw", FN_IMU_ERR_OMEGA: "omega",
           FN_IMU_ERR_ACCEL: "accel"}


cdef inline bint _is_vec3(object x, bint writeable):
    """x is an exact ndarray of 3 native-endian, aligned, C-contiguous float64 values
    (writeable too if asked): the fast path of step; anything else goes through the
    intake path (``fastnoise.core.arrays``)."""
    cdef cnp.ndarray a
    if type(x) is not cnp.ndarray:
        return False
    a = <cnp.ndarray>x
    return (cnp.PyArray_TYPE(a) == cnp.NPY_FLOAT64 and cnp.PyArray_NDIM(a) == 1
            and cnp.PyArray_DIM(a, 0) == 3 and cnp.PyArray_IS_C_CONTIGUOUS(a)
            and cnp.PyArray_ISBEHAVED_RO(a)
            and (not writeable or cnp.PyArray_ISWRITEABLE(a)))


cdef int _vec3_in(str name, object x, double out[3]) except -1:
    """The 3 true values of step into ``out`` (copied, so the outputs may share memory
    with the inputs in any way). Fast paths: a behaved float64 ndarray (see _is_vec3)
    and a list or tuple of 3 floats; anything else goes through the intake path."""
    cdef const double *src
    cdef cnp.ndarray a
    if (type(x) is list or type(x) is tuple) and len(x) == 3:
        x0, x1, x2 = x
        if type(x0) is float and type(x1) is float and type(x2) is float:
            out[0] = x0
            out[1] = x1
            out[2] = x2
            return 0
    if _is_vec3(x, False):
        a = <cnp.ndarray>x
    else:
        a = _checks.vec3_in(name, x)
    src = <const double *>cnp.PyArray_DATA(a)
    out[0] = src[0]
    out[1] = src[1]
    out[2] = src[2]
    return 0


cdef object _rec_in(str name, object x):
    """A recording of apply: an exact native-endian, aligned, C-contiguous float64
    ndarray of shape (N, 3) as it is, anything else through the intake path."""
    cdef cnp.ndarray a
    if type(x) is cnp.ndarray:
        a = <cnp.ndarray>x
        if (cnp.PyArray_TYPE(a) == cnp.NPY_FLOAT64 and cnp.PyArray_NDIM(a) == 2
                and cnp.PyArray_DIM(a, 1) == 3 and cnp.PyArray_IS_C_CONTIGUOUS(a)
                and cnp.PyArray_ISBEHAVED_RO(a)):
            return a
    return _checks.rec_in(name, x)


cdef cnp.ndarray _vec3_out(str name, object out):
    cdef cnp.npy_intp n = 3
    if out is None:
        return cnp.PyArray_EMPTY(1, &n, cnp.NPY_FLOAT64, 0)
    if _is_vec3(out, True):
        return <cnp.ndarray>out
    return _arrays.output(name, out, (3,), _F64)


# The lock (see the class notes): apply holds the object lock and marks the object
# busy for its whole call, since it releases the GIL; every other access runs under
# the GIL without releasing it, so it only has to wait (on the lock) while an apply
# is busy. _busy is read and written only with the GIL held.
cdef inline bint _enter(ImuNoise m) except -1:
    if m._busy:
        lock_model(m)  # waits, with the GIL released, for the apply to finish
        return True
    return False


cdef inline void _leave(ImuNoise m, bint locked) noexcept:
    if locked:
        unlock_model(m)


cdef class ImuNoise(Model):
    """ImuNoise(gyro=None, accel=None, seed=None, normal_dtype='float32', **keywords)
--

Noise, biases, scale/misalignment, saturation and quantization of a 6-axis IMU.

    Parameters
    ----------
    gyro, accel : TriadNoise, dict of its fields, or None
        Error terms of the gyroscope (rad/s) and the accelerometer (m/s^2); see
        ``fastnoise.models.imu_config.TriadNoise`` for every field and its unit.
    seed : int, numpy.random.SeedSequence or None
        Fixes every random number (``None`` draws entropy, kept in ``seed``).
    normal_dtype : "float32" (default) or "float64"
        Precision of the unit normal draws; all the arithmetic stays float64 and the
        outputs are float64. Both read the same streams: a float32 draw is the float64
        draw to float32 accuracy (about 1e-7 relative, the same largest |z| of 6.66),
        so the two settings give outputs that differ by about 1e-7 of the noise's
        sigma, far below any IMU's noise floor or ADC step, and float32 draws cost
        about half as much. "float64" gives draws identical, bit for bit, to
        ``GaussianNoiseGenerator``'s float64 stream.
    **keywords
        ``gyro_<field>=`` / ``accel_<field>=`` set single fields, e.g.
        ``ImuNoise(gyro_noise_density=1e-4, accel_bits=16, accel_full_scale=156.96)``.

    Examples
    --------
    >>> from fastnoise.models.imu import ImuNoise
    >>> from fastnoise.models.imu_config import wt901c
    >>> gyro, accel = wt901c()
    >>> imu = ImuNoise(gyro=gyro, accel=accel, seed=42)
    >>> w, a = imu.step([0.0, 0.0, 0.1], [0.0, 0.0, 9.81], dt=0.01)  # rad/s, m/s^2
    >>> W, A = imu.apply(omega_true, accel_true, dt=0.01)  # (N, 3) each  # doctest: +SKIP

    Notes
    -----
    The order of operations, the density convention (single-sided, as Kalibr, RotorS,
    IEEE 952: white sigma N/sqrt(dt)) and what non-finite true values do are set out
    in ``fastnoise.models.imu_config``. Each axis and term has its own random stream
    (normal k of stream ``0x494D55 << 40 | axis << 8 | term``, axis 0-2 gyro, 3-5
    accel; term 0 white, 1 Gauss-Markov, 2 random walk, 3 start-up draws, under the
    seed's key), so ``apply`` of N samples equals N calls of ``step`` bit for bit, on
    every SIMD path.

    Limits (refused with an error naming the value, and nothing changed): finite true
    values beyond +/-1e300 (divided by the linear map's largest absolute row sum when
    above 1), a step so small that a white-noise sigma passes 1e300, a call that could
    take a Gauss-Markov or random-walk bias state past +/-1e300, and counters
    (``sample_count``, stream positions) past 2**64 - 1 (OverflowError); the parameter
    bounds are listed in ``fastnoise.models.imu_config``. So every output is finite
    where the true values are finite.

    Threads: one ImuNoise may be shared; calls never interleave. ``apply`` holds the
    object's lock (``fastnoise.core.model.lock_model``) for its whole call, releasing
    the GIL only inside its kernel, and marks the object busy meanwhile. Every other
    call (``step``, ``reset``, ``state``, the bias properties) runs whole under the GIL,
    which it never releases, and waits on the lock while an ``apply`` is busy; so the
    per-sample ``step`` pays no atomic operation when no ``apply`` runs (the lock
    costs about 30 ns here, a tenth of a step). Concurrent calls thus run one after
    another, each continuing the streams where the previous one stopped: no noise is
    handed out twice or skipped. Which thread's call goes first is up to the
    scheduler. (Free-threaded CPython, without a GIL, is not supported.)
    """

    cdef fn_imu m
    cdef bint _busy        # an apply holds the lock (and may have released the GIL)
    cdef object _gyro      # TriadNoise, None until __init__ has run
    cdef object _accel
    cdef double _last_time

    def __cinit__(self, *args, **kwargs):
        # a valid model before __init__ runs (and after a failed one): no noise, no
        # saturation, key 0, so cls.__new__(cls) is safe to call
        cdef int i
        for i in range(FN_IMU_AXES):
            self.m.p[i].full_scale = INFINITY
        for i in range(3):
            self.m.lin[0][i][i] = 1.0
            self.m.lin[1][i][i] = 1.0
        fn_imu_init(&self.m)
        self._last_time = NAN

    def __init__(self, gyro=None, accel=None, seed=None, normal_dtype="float32", **keywords):
        # everything is checked and built before self changes: a failed __init__
        # leaves the object as it was
        cdef fn_imu built
        g, a = _checks.triads(gyro, accel, keywords)
        code = FN_FLOAT64 if _checks.normal_dtype_is64(normal_dtype) else FN_FLOAT32
        ss = as_seed_sequence(seed)
        _fill(&built, g, a, model_key(ss, "imu"), code)
        cdef bint locked = _enter(self)  # a second __init__ must not tear an apply
        self.m = built
        self._last_time = NAN
        _leave(self, locked)
        self._gyro = g
        self._accel = a
        self._seed_seq = ss

    # ---- per sample -------------------------------------------------------------
    def step(self, omega, accel, dt, out_omega=None, out_accel=None):
        """One sample: true angular velocity ``omega`` (3, rad/s) and acceleration
        ``accel`` (3, m/s^2), step ``dt`` (s, > 0) since the previous sample.

        Returns ``(omega_measured, accel_measured)``, float64 arrays of shape (3,),
        written into ``out_omega`` / ``out_accel`` when given: native float64 (3,)
        arrays, C-contiguous, aligned and writeable. Every input is read before any
        output is written, so an output may share memory with ``omega`` or ``accel`` in
        any way (in place included); the two outputs must not share memory with each
        other (ValueError).

        Refused, with nothing changed: finite true values beyond +/-1e300 (less with
        a large linear map, see ``csrc/imu.h``), a ``dt`` so small that the white-noise
        sigma would pass 1e300, and a sample past the end of the counters
        (OverflowError).
        """
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
        cdef bint locked = _enter(self)
        rc = fn_imu_step_checked(&self.m, w, a, d, pwo, pao, &where)
        if rc == FN_IMU_OK:
            self._last_time = NAN
        _leave(self, locked)
        if rc != FN_IMU_OK:
            raise _refusal(self, rc, where, 1, d, [w[0], w[1], w[2]], [a[0], a[1], a[2]],
                           True)
        return wo, ao

    # ---- whole recordings -------------------------------------------------------
    def apply(self, omega, accel, dt=None, *, timestamps=None, out_omega=None,
              out_accel=None):
        """Noise a whole recording: ``omega`` (N, 3) rad/s and ``accel`` (N, 3) m/s^2.

        Give either ``dt`` (s, > 0): a scalar or a length-N array of per-sample steps
        (``dt[k]`` is the time since the previous sample), or ``timestamps`` (N, s,
        strictly increasing): the step of sample 0 is the time since the last timestamp
        of the previous ``apply(timestamps=...)`` call, or ``t[1] - t[0]`` on a first
        call (after construction, ``reset``, ``step`` or an ``apply`` with ``dt``).
        Inputs of any real dtype, byte order, alignment or layout are read through
        ``fastnoise.core.arrays.intake`` (copied where needed, never modified).

        Returns ``(omega_measured, accel_measured)``, float64 (N, 3); equal bit for bit
        to N calls of ``step``. ``out_omega``/``out_accel`` (native float64 (N, 3),
        C-contiguous, aligned, writeable) receive the results. Each may be exactly
        ``omega`` or ``accel`` (in place, either way round); any other sharing of memory
        with an input (``omega``, ``accel``, ``dt``) or with each other, such as a view
        shifted by a row, is refused (ValueError): the kernel would read values it has
        already overwritten. Without them, large results (4 MiB or more) take the
        memory of dropped ones, which spares the kernel zeroing fresh pages
        (``fastnoise.release_spare_memory()`` hands it back).

        Refused, with the model unchanged: finite true values beyond +/-1e300 (less
        with a large linear map), a step so small that a white-noise sigma would pass
        1e300, steps between timestamps that overflow, and a call that could take a
        bias state past 1e300 or a counter past 2**64 - 1 (OverflowError). Given
        ``out_`` arrays that are not inputs may then hold partial results.
        """
        cdef size_t where = 0
        cdef int rc
        w = _rec_in("omega", omega)
        a = _rec_in("accel", accel)
        cdef Py_ssize_t n = w.shape[0]
        times, steps = _checks.apply_steps(w, a, dt, timestamps)
        wo = self._rec_out("out_omega", out_omega, n)
        ao = self._rec_out("out_accel", out_accel, n)
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
        self._busy = True
        try:
            last = math.nan
            if steps is None:
                steps, last = _checks.steps_from_times(times, self._last_time)
            ps = <const double *>cnp.PyArray_DATA(steps)
            stride = 1 if steps.shape[0] > 1 else 0
            if n > 0:
                with nogil:
                    rc = fn_imu_apply_checked(&self.m, <size_t>n, pw, pa, ps, stride, pwo,
                                              pao, &where)
                if rc != FN_IMU_OK:
                    raise _refusal(self, rc, where, n, steps, w, a, False)
            self._last_time = last
        finally:
            self._busy = False
            unlock_model(self)
        return wo, ao

    @staticmethod
    def _rec_out(name, out, n):
        if out is None:  # large results reuse the memory of dropped ones
            return recycled_empty((n, 3), np.float64)
        return _arrays.output(name, out, (n, 3), _F64)

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
    def key(self):
        """64-bit Philox key (from ``seed``)."""
        return int(self.m.key)

    @property
    def sample_count(self):
        """Samples produced since the start (or the last reset)."""
        cdef bint locked = _enter(self)
        n = self.m.count
        _leave(self, locked)
        return int(n)

    @property
    def turn_on_bias(self):
        """The turn-on biases drawn for this seed, shape (2, 3): row 0 gyro (rad/s),
        row 1 accel (m/s^2)."""
        return np.array([self.m.turn_on[i] for i in range(6)]).reshape(2, 3)

    @property
    def gauss_markov_bias(self):
        """Current Gauss-Markov bias state, (2, 3): gyro (rad/s), accel (m/s^2)."""
        return self._bias_state(0)

    @property
    def random_walk_bias(self):
        """Current random-walk bias state, (2, 3): gyro (rad/s), accel (m/s^2)."""
        return self._bias_state(1)

    cdef object _bias_state(self, int which):
        cdef double v[6]
        cdef int i
        cdef bint locked = _enter(self)  # not in the middle of another thread's apply
        for i in range(6):
            v[i] = self.m.gm[i] if which == 0 else self.m.rw[i]
        _leave(self, locked)
        return np.array([v[i] for i in range(6)]).reshape(2, 3)

    def angular_velocity_covariance(self, dt, convention="seed002"):
        """Row-major 3x3 (9 floats), (rad/s)^2, for step ``dt`` (s): ``convention``
        "seed002" (default) sigma_white^2 + sigma_bias^2, "gazebo" sigma_white^2 only
        (``fastnoise.models.imu_config.triad_covariance``)."""
        self._params()  # (refuses an ImuNoise made with __new__ alone)
        return triad_covariance(self._gyro, dt, convention)

    def linear_acceleration_covariance(self, dt, convention="seed002"):
        """Row-major 3x3 (9 floats), (m/s^2)^2, for step ``dt`` (s); ``convention`` as
        for ``angular_velocity_covariance``."""
        self._params()
        return triad_covariance(self._accel, dt, convention)

    # ---- state, copies, pickling -------------------------------------------------
    def reset(self):
        """Back to the seeded start: same turn-on biases, same noise sequence."""
        cdef bint locked = _enter(self)
        fn_imu_reset(&self.m)
        self._last_time = NAN
        _leave(self, locked)

    @property
    def normal_dtype(self):
        """Precision of the unit normal draws: "float64" or "float32"."""
        return "float32" if self.m.normal_dtype == FN_FLOAT32 else "float64"

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    model_name = "imu"

    def _params(self):
        if self._gyro is None:
            raise RuntimeError("this ImuNoise was never initialized (call ImuNoise(...))")
        return {"gyro": self._gyro.to_dict(), "accel": self._accel.to_dict(),
                "normal_dtype": self.normal_dtype}

    def _position(self):
        cdef int i, t
        cdef fn_imu snap
        cdef double last
        cdef bint locked = _enter(self)  # not in the middle of another thread's apply
        snap = self.m
        last = self._last_time
        _leave(self, locked)
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
        fn_imu_reset(&self.m)  # streams at their start, caches dropped, turn-on drawn
        for i in range(6):
            for t in range(3):
                self.m.st[i][t].position = <uint64_t>st[i][t]
            self.m.gm[i] = gm[i // 3][i % 3]
            self.m.rw[i] = rw[i // 3][i % 3]
        self.m.count = <uint64_t>count
        fn_imu_set_room(&self.m)
        self._last_time = last

    def _take(self, other):
        cdef ImuNoise o = other  # freshly built by from_state: no other thread has it
        cdef bint locked = _enter(self)
        self.m = o.m
        self._last_time = o._last_time
        _leave(self, locked)
        self._gyro = o._gyro
        self._accel = o._accel
        self._seed_seq = o._seed_seq


register_model(ImuNoise)


cdef object _refusal(ImuNoise m, int rc, size_t where, size_t n, steps, w, acc,
                     bint per_sample):
    """The exception for an FN_IMU_ERR_* code of a call of n samples, worded by
    ``imu_checks.refusal`` from the values of the C model it names."""
    info = {"max_input": m.m.max_input, "count": int(m.m.count)}
    if rc == FN_IMU_ERR_STREAM and where < 3 * FN_IMU_AXES:
        info["position"] = int(m.m.st[where // 3][where % 3].position)
    elif (rc == FN_IMU_ERR_WHITE or rc == FN_IMU_ERR_GM or rc == FN_IMU_ERR_RW) and \
            where < FN_IMU_AXES:
        info.update(noise_density=m.m.p[where].noise_density, gm=m.m.gm[where],
                    rw=m.m.rw[where])
    return _checks.refusal(_ERRORS.get(rc, rc), where, n, steps, w, acc, per_sample, info)


@cython.boundscheck(True)
cdef int _fill(fn_imu *m, gyro, accel, uint64_t key, int dtype_code) except -1:
    """Set up ``m`` from the triads (through ``imu_checks.kernel_params``: a dict of
    fn_imu_axis_params fields per axis, the linear maps, the G-sensitivity), the key
    and the precision of the draws, from zero (bounds-checked: a wrong length is an
    IndexError, a missing field a ValueError, never a read past a list)."""
    cdef int s, i, j
    axes, lin, gsens = _checks.kernel_params(gyro, accel)
    memset(m, 0, sizeof(fn_imu))
    m.key = key
    m.normal_dtype = dtype_code
    for i in range(FN_IMU_AXES):
        m.p[i] = axes[i]
    for i in range(3):
        for j in range(3):
            for s in range(2):
                m.lin[s][i][j] = lin[s][i][j]
            m.gsens[i][j] = gsens[i][j]
    fn_imu_init(m)
    return 0
