"""ImuNoise: the IMU error model of seeds 002 and 003 (Gazebo), in C.

Gyroscope in rad/s, accelerometer in m/s^2, time in s. The terms, their order and the
density convention (single-sided: sigma = N/sqrt(dt)) are described in
``fastnoise.models.imu_config`` and ``csrc/imu.h``.
"""

import dataclasses
import math

import numpy as np

cimport numpy as cnp
from libc.math cimport isfinite, NAN
from libc.stdint cimport uint64_t

from fastnoise.core.buffers cimport recycled_empty
from fastnoise.core.capi cimport FN_FLOAT32, FN_FLOAT64, fn_stream
from fastnoise.core.vec3 cimport out_vec3

from fastnoise.core import validate as _validate
from fastnoise.core.seeding import (
    as_seed_sequence,
    model_key,
    seed_sequence_from_state,
    seed_sequence_state,
)
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
_FIELDS = frozenset(f.name for f in dataclasses.fields(TriadNoise))


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
    try:
        a = np.ascontiguousarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}={x!r} is not allowed: it must be 3 real numbers") from exc
    if a.shape != (3,):
        raise ValueError(f"{name} has shape {a.shape}: it must be (3,)")
    return a


def _split_keywords(kwargs):
    """{'gyro_noise_density': 1} -> {'gyro': {'noise_density': 1}, 'accel': {}}"""
    parts = {"gyro": {}, "accel": {}}
    for k, v in kwargs.items():
        triad, _, field = k.partition("_")
        if triad not in parts or field not in _FIELDS:
            raise TypeError(
                f"unknown keyword {k!r}: use gyro=/accel= or gyro_<field>=, accel_<field>= "
                "with the fields of fastnoise.models.imu_config.TriadNoise"
            )
        parts[triad][field] = v
    return parts


cdef class ImuNoise:
    """Noise, biases, scale/misalignment, saturation and quantization of a 6-axis IMU.

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
    cdef object _gyro
    cdef object _accel
    cdef object _seed_seq
    cdef double _last_time

    def __init__(self, gyro=None, accel=None, seed=None, normal_dtype="float32", **keywords):
        parts = _split_keywords(keywords)
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
        self._setup(g, a, as_seed_sequence(seed), _normal_dtype_code(normal_dtype))

    cdef _setup(self, gyro, accel, ss, int dtype_code):
        cdef int s, i, j, axis
        cdef fn_imu_axis_params *p
        self._gyro = gyro
        self._accel = accel
        self._seed_seq = ss
        self._last_time = NAN
        self.m.key = model_key(ss, "imu")
        self.m.normal_dtype = dtype_code
        for s, t in enumerate((gyro, accel)):
            lin = t.linear_map
            lsb = t.lsb
            for i in range(3):
                for j in range(3):
                    self.m.lin[s][i][j] = lin[i, j]
                axis = 3 * s + i
                p = &self.m.p[axis]
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
                self.m.gsens[i][j] = gyro.g_sensitivity[i][j]
        fn_imu_init(&self.m)

    # ---- per sample -------------------------------------------------------------
    def step(self, omega, accel, dt, out_omega=None, out_accel=None):
        """One sample: true angular velocity ``omega`` (3, rad/s) and acceleration
        ``accel`` (3, m/s^2), step ``dt`` (s, > 0) since the previous sample.

        Returns ``(omega_measured, accel_measured)``, float64 arrays of shape (3,),
        written into ``out_omega`` / ``out_accel`` when given (they may be the inputs).
        """
        cdef double d
        try:
            d = dt
        except TypeError:
            raise TypeError(f"dt={dt!r} is not allowed: it must be a real number (s)") from None
        if not (d > 0.0 and isfinite(d)):
            raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 s")
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
        w = self._rec_in("omega", omega)
        a = self._rec_in("accel", accel)
        cdef Py_ssize_t n = w.shape[0]
        if a.shape[0] != n:
            raise ValueError(
                f"omega has {n} samples and accel {a.shape[0]}: they must be the same")
        last = math.nan
        if (dt is None) == (timestamps is None):
            raise TypeError("give exactly one of dt= (s) and timestamps= (s)")
        if timestamps is not None:
            steps, last = self._steps_from_times(timestamps, n)
        else:
            steps = self._steps(dt, n)
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
    def _rec_in(name, x):
        try:
            arr = np.ascontiguousarray(x, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"{name} must be an (N, 3) array of real numbers") from exc
        if arr.ndim != 2 or arr.shape[1] != 3:
            raise ValueError(f"{name} has shape {arr.shape}: it must be (N, 3)")
        return arr

    @staticmethod
    def _rec_out(name, out, n):
        if out is None:  # large results reuse the memory of dropped ones
            return recycled_empty((n, 3), np.float64)
        return _validate.output_array(name, out, (n, 3), _F64)

    @staticmethod
    def _steps(dt, n):
        try:
            if isinstance(dt, (str, bytes)):
                raise TypeError
            arr = np.asarray(dt, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"dt={dt!r} is not allowed: it must be real numbers (s)") from None
        if arr.ndim == 0:
            _validate.positive("dt", float(arr))
            return arr.reshape(1).copy()
        if arr.shape != (n,):
            raise ValueError(f"dt has shape {arr.shape}: it must be a scalar or ({n},)")
        ok = np.isfinite(arr) & (arr > 0.0)
        if not np.all(ok):
            raise ValueError(
                f"dt contains {arr[~ok][0]!r}: every step must be finite and > 0 s")
        return np.ascontiguousarray(arr) if n > 1 else arr.reshape(1).copy()

    def _steps_from_times(self, timestamps, n):
        t = np.asarray(timestamps, dtype=np.float64)
        if t.shape != (n,):
            raise ValueError(f"timestamps has shape {t.shape}: it must be ({n},)")
        if not np.all(np.isfinite(t)):
            raise ValueError("timestamps must be finite (s)")
        if n == 0:
            return np.ones(1), self._last_time
        if isfinite(self._last_time):
            first = t[0] - self._last_time
        elif n >= 2:
            first = t[1] - t[0]
        else:
            raise ValueError(
                "timestamps with one sample need a previous apply(timestamps=...) call "
                "to give its step; use dt= instead")
        steps = np.empty(n)
        steps[0] = first
        steps[1:] = np.diff(t)
        if not np.all(steps > 0.0):
            raise ValueError(
                "timestamps must be strictly increasing (also after the previous call's "
                f"last timestamp {self._last_time!r})")
        return steps, float(t[-1])

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
    def seed(self):
        """The numpy.random.SeedSequence the key came from."""
        return self._seed_seq

    @property
    def key(self):
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
    def state(self):
        """Position of every stream, the bias states and the precision of the draws,
        as a dict (settable on a model with the same normal_dtype)."""
        cdef int i, t
        return {
            "model": "fastnoise.ImuNoise",
            "key": int(self.m.key),
            "normal_dtype": self.normal_dtype,
            "positions": [[int(self.m.st[i][t].position) for t in range(3)]
                          for i in range(6)],
            "gauss_markov": [float(self.m.gm[i]) for i in range(6)],
            "random_walk": [float(self.m.rw[i]) for i in range(6)],
            "count": int(self.m.count),
            "last_time": float(self._last_time) if isfinite(self._last_time) else None,
            "seed_seq": seed_sequence_state(self._seed_seq),
        }

    @state.setter
    def state(self, value):
        cdef int i, t
        if not isinstance(value, dict):
            raise TypeError(f"state must be a dict, got {type(value).__name__}")
        if value.get("model") != "fastnoise.ImuNoise":
            raise ValueError(
                f"state['model']={value.get('model')!r} is not allowed: it must be "
                "'fastnoise.ImuNoise'")
        try:
            key = int(value["key"])
            pos = np.asarray(value["positions"], dtype=np.uint64)
            gm = np.asarray(value["gauss_markov"], dtype=np.float64)
            rw = np.asarray(value["random_walk"], dtype=np.float64)
            count = int(value["count"])
            last = value["last_time"]
            last = NAN if last is None else float(last)
            ss = seed_sequence_from_state(value["seed_seq"])
        except KeyError as exc:
            raise ValueError(f"state is missing the entry {exc.args[0]!r}") from None
        if pos.shape != (6, 3) or gm.shape != (6,) or rw.shape != (6,):
            raise ValueError("state['positions'] must be 6x3, 'gauss_markov' and "
                             "'random_walk' 6 values each")
        if not 0 <= key < 2**64:
            raise ValueError(f"state['key']={key!r} is not allowed: it must lie in [0, 2**64)")
        # the draws' precision is part of the stream: a state continues only a model
        # that draws the same way
        if value.get("normal_dtype", self.normal_dtype) != self.normal_dtype:
            raise ValueError(
                f"state['normal_dtype']={value['normal_dtype']!r} is not allowed: this "
                f"model draws {self.normal_dtype!r} normals (set normal_dtype= when "
                "constructing it)")
        self.m.key = key
        fn_imu_reset(&self.m)
        for i in range(6):
            for t in range(3):
                self.m.st[i][t].position = pos[i, t]
            self.m.gm[i] = gm[i]
            self.m.rw[i] = rw[i]
        self.m.count = count
        self._last_time = last
        self._seed_seq = ss

    def copy(self):
        """An independent model at the same point: it continues identically."""
        cdef ImuNoise c = ImuNoise.__new__(ImuNoise)
        c.m = self.m
        c._gyro = self._gyro
        c._accel = self._accel
        c._seed_seq = seed_sequence_from_state(seed_sequence_state(self._seed_seq))
        c._last_time = self._last_time
        return c

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    @property
    def normal_dtype(self):
        """Precision of the unit normal draws: "float64" or "float32"."""
        return "float32" if self.m.normal_dtype == FN_FLOAT32 else "float64"

    def __reduce__(self):
        return (_rebuild, (self._gyro, self._accel, self.normal_dtype, self.state))

    def __repr__(self):
        return (f"ImuNoise(gyro={self._gyro!r}, accel={self._accel!r}, "
                f"key=0x{self.m.key:016x}, sample_count={self.m.count})")


def _normal_dtype_code(value):
    return FN_FLOAT64 if _validate.float_dtype("normal_dtype", value) == _F64 else FN_FLOAT32


def _rebuild(gyro, accel, normal_dtype, state):
    cdef ImuNoise m = ImuNoise.__new__(ImuNoise)
    m._setup(gyro, accel, seed_sequence_from_state(state["seed_seq"]),
             _normal_dtype_code(normal_dtype))
    m.state = state
    return m
