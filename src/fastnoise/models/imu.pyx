"""ImuNoise: the IMU error model of seeds 002 and 003 (Gazebo), in C.

Gyroscope in rad/s, accelerometer in m/s^2, time in s. The terms, their order and the
density convention (single-sided: sigma = N/sqrt(dt)) are described in
``fastnoise.models.imu_config`` and ``csrc/imu.h``.
"""

import math

import numpy as np

cimport numpy as cnp
from libc.math cimport isfinite, INFINITY, NAN
from libc.stdint cimport uint64_t
from libc.string cimport memset

from fastnoise.core.buffers cimport recycled_empty
from fastnoise.core.capi cimport FN_FLOAT32, FN_FLOAT64, fn_stream
from fastnoise.core.model cimport Model
from fastnoise.core.vec3 cimport out_vec3

from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.models import imu_checks as _checks
from fastnoise.models.imu_config import TriadNoise, triad_covariance

cnp.import_array()


cdef extern from "imu.h" nogil:
    int FN_IMU_AXES
    int FN_IMU_TERMS

    ctypedef struct fn_imu_axis_params:
        double noise_stddev
        double noise_density
        double bias
        double turn_on_mean
        double turn_on_stddev
        double gm_stddev
        double gm_tau
        double rw_density
        double full_scale
        double lsb
        int gm_steady_state
        int turn_on_in_gm

    ctypedef struct fn_imu:
        fn_imu_axis_params p[6]
        double lin[2][3][3]
        double gsens[3][3]
        uint64_t key
        int normal_dtype
        fn_stream st[6][3]
        double gm[6]
        double rw[6]
        double turn_on[6]
        uint64_t count
        double coef_dt

    void fn_imu_init(fn_imu *m)
    void fn_imu_reset(fn_imu *m)
    void fn_imu_step(fn_imu *m, const double *omega, const double *accel, double dt,
                     double *omega_out, double *accel_out)
    void fn_imu_apply(fn_imu *m, size_t n, const double *omega, const double *accel,
                      const double *dt, size_t dt_stride, double *omega_out,
                      double *accel_out)


_F64 = np.dtype(np.float64)
cdef inline bint _is_vec3(object x):
    """x is a C-contiguous float64 ndarray of shape (3,) (the fast path of step)."""
    cdef cnp.ndarray a
    if type(x) is not np.ndarray:
        return False
    a = <cnp.ndarray>x
    return (cnp.PyArray_TYPE(a) == cnp.NPY_FLOAT64 and cnp.PyArray_NDIM(a) == 1
            and cnp.PyArray_DIM(a, 0) == 3 and cnp.PyArray_IS_C_CONTIGUOUS(a))


cdef cnp.ndarray _vec3_in(str name, object x):
    if _is_vec3(x):
        return <cnp.ndarray>x
    return _checks.vec3_in(name, x)


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
    Per sample: scale/misalignment (and gyro G-sensitivity from the true acceleration),
    then the bias states advance (Gauss-Markov ``b = alpha*b + sigma_b*sqrt(1-alpha^2)*w``,
    ``alpha = exp(-dt/tau)``; random walk ``r += K*sqrt(dt)*w``), then
    ``y = x + constant and turn-on bias + b + r + white``, then saturation at
    +/- full_scale, then quantization (ties to even). White noise of density N has the
    per-sample sigma N/sqrt(dt) (single-sided, as Kalibr, RotorS, IEEE 952; MATLAB's
    default is sqrt(2) larger). Each axis and term has its own random stream, so
    ``apply`` of N samples equals N calls of ``step`` bit for bit, on every SIMD path.
    Non-finite true values never disturb the noise state (NaN stays NaN; see
    ``fastnoise.models.imu_config`` for +/-inf). Streams: normal k of stream
    ``0x494D55 << 40 | axis << 8 | term`` (axis 0-2 gyro, 3-5 accel; term 0 white, 1
    Gauss-Markov, 2 random walk, 3 start-up draws) under the seed's key.
    """

    cdef fn_imu m
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
        parts = _checks.split_keywords(keywords)
        g = TriadNoise.from_value("gyro", gyro)
        a = TriadNoise.from_value("accel", accel)
        if parts["gyro"]:
            g = g.replace(**parts["gyro"])
        if parts["accel"]:
            a = a.replace(**parts["accel"])
        if any(v != 0.0 for row in a.g_sensitivity for v in row):
            raise ValueError(
                f"accel.g_sensitivity={a.g_sensitivity!r} is not allowed: G-sensitivity "
                "is a gyroscope term (leave it 0 for the accelerometer)")
        code = _normal_dtype_code(normal_dtype)
        ss = as_seed_sequence(seed)
        _fill(&built, g, a, model_key(ss, "imu"), code)
        self.m = built
        self._gyro = g
        self._accel = a
        self._seed_seq = ss
        self._last_time = NAN

    # ---- per sample -------------------------------------------------------------
    def step(self, omega, accel, dt, out_omega=None, out_accel=None):
        """One sample: true angular velocity ``omega`` (3, rad/s) and acceleration
        ``accel`` (3, m/s^2), step ``dt`` (s, > 0) since the previous sample.

        Returns ``(omega_measured, accel_measured)``, float64 arrays of shape (3,),
        written into ``out_omega`` / ``out_accel`` when given (they may be the inputs).
        """
        cdef double d
        if type(dt) is float:  # fast path; anything else (bools too) is checked in full
            d = dt
            if not (d > 0.0 and isfinite(d)):
                raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 s")
        else:
            d = _validate.positive("dt", dt)
        cdef cnp.ndarray w = _vec3_in("omega", omega)
        cdef cnp.ndarray a = _vec3_in("accel", accel)
        cdef cnp.ndarray wo = out_vec3("out_omega", out_omega)
        cdef cnp.ndarray ao = out_vec3("out_accel", out_accel)
        fn_imu_step(&self.m, <double *>cnp.PyArray_DATA(w), <double *>cnp.PyArray_DATA(a),
                    d, <double *>cnp.PyArray_DATA(wo), <double *>cnp.PyArray_DATA(ao))
        self._last_time = NAN
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

        Returns ``(omega_measured, accel_measured)``, float64 (N, 3); equal bit for bit
        to N calls of ``step``. ``out_omega``/``out_accel`` (C-contiguous float64 (N, 3))
        receive the results and may be the inputs themselves. Without them, large
        results (4 MiB or more) take the memory of dropped ones, which spares the kernel
        zeroing fresh pages (``fastnoise.release_spare_memory()`` hands it back).
        """
        w = _checks.rec_in("omega", omega)
        a = _checks.rec_in("accel", accel)
        cdef Py_ssize_t n = w.shape[0]
        if a.shape[0] != n:
            raise ValueError(
                f"omega has {n} samples and accel {a.shape[0]}: they must be the same")
        last = math.nan
        if (dt is None) == (timestamps is None):
            raise TypeError("give exactly one of dt= (s) and timestamps= (s)")
        if timestamps is not None:
            steps, last = _checks.steps_from_times(timestamps, n, self._last_time)
        else:
            steps = _checks.steps(dt, n)
        wo = self._rec_out("out_omega", out_omega, n)
        ao = self._rec_out("out_accel", out_accel, n)
        cdef double[::1] sv = steps
        cdef size_t stride = 1 if steps.shape[0] > 1 else 0
        cdef const double *pw = <const double *>cnp.PyArray_DATA(w)
        cdef const double *pa = <const double *>cnp.PyArray_DATA(a)
        cdef double *pwo = <double *>cnp.PyArray_DATA(wo)
        cdef double *pao = <double *>cnp.PyArray_DATA(ao)
        if n > 0:
            with nogil:
                fn_imu_apply(&self.m, <size_t>n, pw, pa, &sv[0], stride, pwo, pao)
        self._last_time = last
        return wo, ao

    @staticmethod
    def _rec_out(name, out, n):
        if out is None:  # large results reuse the memory of dropped ones
            return recycled_empty((n, 3), np.float64)
        return _validate.output_array(name, out, (n, 3), _F64)

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
        return int(self.m.count)

    @property
    def turn_on_bias(self):
        """The turn-on biases drawn for this seed, shape (2, 3): row 0 gyro (rad/s),
        row 1 accel (m/s^2)."""
        return np.array([self.m.turn_on[i] for i in range(6)]).reshape(2, 3)

    @property
    def gauss_markov_bias(self):
        """Current Gauss-Markov bias state, (2, 3): gyro (rad/s), accel (m/s^2)."""
        return np.array([self.m.gm[i] for i in range(6)]).reshape(2, 3)

    @property
    def random_walk_bias(self):
        """Current random-walk bias state, (2, 3): gyro (rad/s), accel (m/s^2)."""
        return np.array([self.m.rw[i] for i in range(6)]).reshape(2, 3)

    def angular_velocity_covariance(self, dt):
        """Row-major 3x3 (9 floats), (rad/s)^2: sigma_white^2 + sigma_bias^2 for step dt."""
        return triad_covariance(self._gyro, dt)

    def linear_acceleration_covariance(self, dt):
        """Row-major 3x3 (9 floats), (m/s^2)^2: sigma_white^2 + sigma_bias^2 for step dt."""
        return triad_covariance(self._accel, dt)

    # ---- state, copies, pickling -------------------------------------------------
    def reset(self):
        """Back to the seeded start: same turn-on biases, same noise sequence."""
        fn_imu_reset(&self.m)
        self._last_time = NAN

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
        return {
            "stream_positions": [[int(self.m.st[i][t].position) for t in range(3)]
                                 for i in range(6)],
            "gauss_markov": [[float(self.m.gm[3 * i + t]) for t in range(3)] for i in range(2)],
            "random_walk": [[float(self.m.rw[3 * i + t]) for t in range(3)] for i in range(2)],
            "sample_count": int(self.m.count),
            "last_time": float(self._last_time) if isfinite(self._last_time) else None,
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
        self._last_time = last

    def _take(self, other):
        cdef ImuNoise o = other
        self.m = o.m
        self._gyro = o._gyro
        self._accel = o._accel
        self._seed_seq = o._seed_seq
        self._last_time = o._last_time


register_model(ImuNoise)


cdef int _fill(fn_imu *m, gyro, accel, uint64_t key, int dtype_code) except -1:
    """Set up ``m`` from the parameters, key and precision of the draws, from zero."""
    cdef int s, i, j, axis
    cdef fn_imu_axis_params *p
    memset(m, 0, sizeof(fn_imu))
    m.key = key
    m.normal_dtype = dtype_code
    for s, t in enumerate((gyro, accel)):
        lin = t.linear_map
        lsb = t.lsb
        for i in range(3):
            for j in range(3):
                m.lin[s][i][j] = lin[i, j]
            axis = 3 * s + i
            p = &m.p[axis]
            p.noise_stddev = t.noise_stddev[i]
            p.noise_density = t.noise_density[i]
            p.bias = t.bias[i]
            p.turn_on_mean = t.turn_on_bias_mean[i]
            p.turn_on_stddev = t.turn_on_bias_stddev[i]
            p.gm_stddev = t.bias_stddev[i]
            p.gm_tau = 0.0 if t.bias_correlation_time is None else t.bias_correlation_time[i]
            p.rw_density = t.random_walk_density[i]
            p.full_scale = t.full_scale[i]
            p.lsb = lsb[i]
            p.gm_steady_state = t.bias_steady_state
            p.turn_on_in_gm = t.turn_on_bias_decays
    for i in range(3):
        for j in range(3):
            m.gsens[i][j] = gyro.g_sensitivity[i][j]
    fn_imu_init(m)
    return 0


def _normal_dtype_code(value):
    if value is None:  # np.dtype(None) is float64: no silent default here
        raise TypeError("normal_dtype=None is not allowed: use 'float32' or 'float64'")
    return FN_FLOAT64 if _validate.float_dtype("normal_dtype", value) == _F64 else FN_FLOAT32
