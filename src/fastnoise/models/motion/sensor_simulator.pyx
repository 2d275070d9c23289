"""SensorSimulator: a gyro / attitude sensor with Gaussian noise and linear drift, after
the SensorSimulator API document (rad/s, rad, s). See ``SensorSimulator``."""

import numpy as np

cimport cython
cimport numpy as cnp
from libc.math cimport fabs, isfinite
from libc.stdint cimport UINT64_MAX, uint64_t

from fastnoise.core.capi cimport FN_FLOAT64, fn_stream, fn_stream_init, fn_stream_next_f64
from fastnoise.core.fast_arrays cimport behaved_f64, f64x3
from fastnoise.core.generator cimport GaussianNoiseGenerator
from fastnoise.core.model cimport Model
from fastnoise.models.motion.rigid_body cimport RigidBodySimulator, read3

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.motion import declarations as _declarations
from fastnoise.core.seeding import as_seed_sequence, model_seed_sequence
from fastnoise.core.deprecation import positional_options
from fastnoise.models.motion import sensor_simulator_checks as _checks

cnp.import_array()

_F64 = np.dtype(np.float64)

from fastnoise.models.motion.sensor_simulator_checks import VALUE_MAX  # (rad/s or rad)

cdef double _VALUE_MAX = VALUE_MAX


def _vector3(name, value, nonneg=False):
    """A scalar or length-3 vector of finite reals within +/-VALUE_MAX (and ``>= 0`` with
    ``nonneg``) as a float64 array; bools, strings and objects refused by name."""
    cdef double v[3]
    cdef int i
    read3(name, value, v)
    for i in range(3):
        if nonneg and not v[i] >= 0.0:
            raise ValueError(f"{name}={value!r} is not allowed: every component must be >= 0")
        if not fabs(v[i]) <= _VALUE_MAX:
            raise ValueError(
                f"{name}={value!r} is not allowed: every component must lie within "
                f"+/-{VALUE_MAX:g}")
    return np.array([v[0], v[1], v[2]])


cdef int _out3(object out, double **dst) except -1:
    """``out`` of a read: a behaved, writeable float64 (3,) ndarray (``behaved_f64``),
    else checked by ``fastnoise.core.arrays.output``, which refuses it by name."""
    if not behaved_f64(out, 1, 3, True):
        _arrays.output("out", out, (3,), _F64)
    dst[0] = <double *>cnp.PyArray_DATA(<cnp.ndarray>out)
    return 0


cdef inline list _list3(const double *a):
    return [a[0], a[1], a[2]]


cdef inline bint _within3(const double *v) noexcept nogil:
    # finite and within +/-VALUE_MAX, all three (NaN and inf fail the bound)
    return (fabs(v[0]) <= _VALUE_MAX and fabs(v[1]) <= _VALUE_MAX
            and fabs(v[2]) <= _VALUE_MAX)


cdef int _in_range(str name, const double *v) except -1:
    if not _within3(v):
        raise _checks.source_out_of_range(name, v[0], v[1], v[2])
    return 0


cdef int _source_omega(object source, double w[3]) except -1:
    """The source's angular velocity (rad/s) into ``w``; ValueError if not finite."""
    cdef RigidBodySimulator body
    if type(source) is not RigidBodySimulator:
        if source is None:
            _checks.built(source)  # (raises)
        value = getattr(source, "omega")
        if callable(value):
            value = value()
        return read3("source.omega", value, w)
    body = <RigidBodySimulator>source
    w[0] = body.omega_[0]
    w[1] = body.omega_[1]
    w[2] = body.omega_[2]
    if not (isfinite(w[0]) and isfinite(w[1]) and isfinite(w[2])):
        raise _checks.source_not_finite("source.omega", w[0], w[1], w[2])
    return 0


cdef int _source_angles(object source, double a[3]) except -1:
    """The source's (pitch, yaw, roll) in rad into ``a``; ValueError if not finite."""
    cdef RigidBodySimulator body
    cdef int i
    if type(source) is RigidBodySimulator:
        body = <RigidBodySimulator>source
        a[0] = body.angles_[1]
        a[1] = body.angles_[2]
        a[2] = body.angles_[0]
    else:
        if source is None:
            _checks.built(source)  # (raises)
        for i, name in enumerate(("pitch", "yaw", "roll")):
            value = getattr(source, name)
            if callable(value):
                value = value()
            # a float (numpy's too) as it is; anything else checked and converted
            a[i] = value if isinstance(value, float) else _checks.source_real(name, value)
    if not (isfinite(a[0]) and isfinite(a[1]) and isfinite(a[2])):
        raise _checks.source_not_finite("source (pitch, yaw, roll)", a[0], a[1], a[2])
    return 0


cdef class SensorSimulator(Model):
    """SensorSimulator(source, *, seed=None, noise_stddev=0.0, drift_rate=0.0,
    angle_drift_rate=None)
--

Noisy, drifting angular-velocity and orientation readings of a rigid body.

    Parameters
    ----------
    source : RigidBodySimulator or object
        Provides the true motion. Any object works that has ``omega`` (length-3 body
        angular velocity, rad/s) and ``roll``, ``pitch``, ``yaw`` (floats, rad), each an
        attribute, property or zero-argument method; ``check_numerics()`` is used if it
        has one. The sensor keeps a reference (it does not copy the source). A
        RigidBodySimulator is read through its C fields (no Python calls).
    seed : int, numpy.random.SeedSequence or None
        Seed of the noise generator (a ``GaussianNoiseGenerator``); ``None`` draws fresh
        entropy, kept in ``seed.entropy`` for reproduction.
    noise_stddev, drift_rate, angle_drift_rate : float or length-3 array_like
        Initial configuration, as for ``set_noise_stddev`` (rad/s for rates, rad for
        angles) and ``set_drift_rate`` (rad/s^2, rad/s); default no noise, no drift.

    Notes
    -----
    Per axis, independently: ``read_angular_velocity() = omega + drift_omega +
    noise_stddev * z`` (rad/s), ``read_orientation() = (pitch, yaw, roll) +
    drift_angles + noise_stddev * z`` (rad, not wrapped), and ``update(dt)`` adds
    ``drift_rate * dt`` and ``angle_drift_rate * dt`` to the drifts. Each read draws
    exactly three normals. The source is not part of the state
    (``SensorSimulator.from_state(state, source=...)``) and a copy shares it. Values
    beyond +/-1e300 (``VALUE_MAX``) are refused by name, so every reading is finite.
    The state, the limits and the thread rules: :doc:`/models/sensor-simulator`.
    """

    cdef object source_
    cdef GaussianNoiseGenerator gen
    cdef double drift_omega_[3]
    cdef double drift_angles_[3]
    cdef double rate_omega_[3]
    cdef double rate_angles_[3]
    cdef double sigma_[3]

    def __cinit__(self, *args, **kwargs):
        # never None, so C-level reads of an object made with __new__ cannot crash
        self.gen = GaussianNoiseGenerator.__new__(GaussianNoiseGenerator)

    def __init__(self, source, *args, seed=None, noise_stddev=0.0, drift_rate=0.0,
                 angle_drift_rate=None):
        if args:  # 0.2 callers passed these by position
            seed, = positional_options(
                "SensorSimulator()", args, ('seed',),
                (seed,), (None,))
        cdef int i
        # everything is checked into locals first: a failed call changes nothing;
        # errors use the constructor's own names, so they name what was passed
        _checks.check_source(source)
        ss = as_seed_sequence(seed)
        v = _declarations.SENSOR_SIMULATOR.check_params({
            "noise_stddev": noise_stddev, "drift_rate": drift_rate,
            "angle_drift_rate": angle_drift_rate})
        sigma, rate = v["noise_stddev"], v["drift_rate"]
        rate_a = rate if v["angle_drift_rate"] is None else v["angle_drift_rate"]
        gen = GaussianNoiseGenerator(model_seed_sequence(ss, "sensor_simulator"))
        # the old source and generator are dropped once the new state is whole (a
        # source's __del__ may call back into this object)
        old = (self.source_, self.gen)
        self.source_ = source
        self._seed_seq = ss
        self._key = gen.key
        self.gen = gen
        for i in range(3):
            self.sigma_[i] = sigma[i]
            self.rate_omega_[i] = rate[i]
            self.rate_angles_[i] = rate_a[i]
            self.drift_omega_[i] = 0.0
            self.drift_angles_[i] = 0.0
        self._built = True
        del old

    # ---- configuration ------------------------------------------------------------
    def set_noise_stddev(self, stddev):
        """Per-axis noise standard deviation (scalar or length 3, finite, >= 0) for both
        reads: rad/s for angular velocity, rad for angles."""
        arr = _vector3("stddev", stddev, nonneg=True)
        for i in range(3):
            self.sigma_[i] = arr[i]

    def set_drift_rate(self, rate, angle_rate=None):
        """Per-axis drift rates (scalar or length 3, finite): ``rate`` drives
        ``drift_omega`` (rad/s^2), and ``drift_angles`` too (as in the SensorSimulator
        API document) unless ``angle_rate`` (rad/s) is given."""
        arr = _vector3("rate", rate)
        arr_a = arr if angle_rate is None else _vector3("angle_rate", angle_rate)
        for i in range(3):
            self.rate_omega_[i] = arr[i]
            self.rate_angles_[i] = arr_a[i]

    # ---- core ---------------------------------------------------------------------
    def update(self, dt):
        """Advance both drift accumulators by ``rate * dt``; ``dt`` in s, finite, > 0.
        An update that would take an accumulator past +/-1e300 (``VALUE_MAX``) is
        refused (ValueError) and changes nothing."""
        cdef double h
        cdef double new_w[3]
        cdef double new_a[3]
        cdef int i
        cdef bint ok = True
        h = dt if type(dt) is float else _validate.finite("dt", dt)  # a float: no call
        if not (h > 0.0 and isfinite(h)):
            raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 (s)")
        for i in range(3):
            new_w[i] = self.drift_omega_[i] + self.rate_omega_[i] * h
            new_a[i] = self.drift_angles_[i] + self.rate_angles_[i] * h
            ok = ok and fabs(new_w[i]) <= _VALUE_MAX and fabs(new_a[i]) <= _VALUE_MAX
        if not ok:
            raise ValueError(
                f"dt={dt!r} is not allowed: a drift accumulator would pass "
                f"+/-{VALUE_MAX:g} (nothing was changed)")
        for i in range(3):
            self.drift_omega_[i] = new_w[i]
            self.drift_angles_[i] = new_a[i]

    cdef object _reading(self, const double *x, const double *drift, object out):
        """x + drift + N(0, sigma) per axis, into ``out`` (or a new array)."""
        cdef cnp.npy_intp n = 3
        cdef double *dst
        cdef int i
        cdef uint64_t pos
        cdef fn_stream *st = &self.gen.st
        cdef const double *z
        if out is None:
            res = cnp.PyArray_EMPTY(1, &n, cnp.NPY_FLOAT64, 0)
            dst = <double *>cnp.PyArray_DATA(<cnp.ndarray>res)
        else:
            res = out
            dst = f64x3(out, True)  # _out3's test in a few loads
            if dst == NULL:
                _out3(res, &dst)
        pos = st.position
        if pos > UINT64_MAX - 3:
            raise _checks.stream_end(pos)
        # the three normals straight from the stream's cached group (16 normals) when
        # they all lie in it, else one by one through fn_stream_next_f64: the same values
        if (st.cache_ok and st.dtype == FN_FLOAT64 and st.cache_group == (pos >> 4)
                and (pos & 15) <= 13):
            z = &st.c64[pos & 15]
            st.position = pos + 3
            for i in range(3):
                dst[i] = x[i] + drift[i] + self.sigma_[i] * z[i]
        else:
            for i in range(3):
                dst[i] = x[i] + drift[i] + self.sigma_[i] * fn_stream_next_f64(st)
        return res

    # the per-tick reads are method descriptors, not bound function objects: a call
    # through a bound method (``read = sim.read_angular_velocity``) passes its
    # arguments on as they are (issue 28)
    @cython.binding(False)
    def read_angular_velocity(self, out=None):
        """Measured body angular velocity in rad/s: ``omega + drift_omega + noise``.

        Returns a new float64 (3,) array in rad/s, or fills and returns ``out``
        (native float64 (3,), C-contiguous, aligned, writeable; it may be the source's
        own array). ValueError if the source's omega is not finite or beyond +/-1e300
        (nothing drawn), OverflowError at the end of the noise stream."""
        cdef double w[3]
        cdef RigidBodySimulator body
        if type(self.source_) is RigidBodySimulator:
            # a rigid body's omega read in place, finite and in range tested at once
            # (NaN and inf fail the bound); a failure is worded by the full checks
            body = <RigidBodySimulator>self.source_
            w[0] = body.omega_[0]
            w[1] = body.omega_[1]
            w[2] = body.omega_[2]
            if _within3(w):
                return self._reading(w, self.drift_omega_, out)
        _source_omega(self.source_, w)
        _in_range("source.omega", w)
        return self._reading(w, self.drift_omega_, out)

    @cython.binding(False)
    def read_orientation(self, out=None):
        """Measured angles in rad, packed (pitch, yaw, roll):
        ``(pitch, yaw, roll) + drift_angles + noise``; ``out`` and errors as for
        ``read_angular_velocity``."""
        cdef double a[3]
        cdef RigidBodySimulator body
        if type(self.source_) is RigidBodySimulator:  # as read_angular_velocity's
            body = <RigidBodySimulator>self.source_
            a[0] = body.angles_[1]
            a[1] = body.angles_[2]
            a[2] = body.angles_[0]
            if _within3(a):
                return self._reading(a, self.drift_angles_, out)
        _source_angles(self.source_, a)
        _in_range("source (pitch, yaw, roll)", a)
        return self._reading(a, self.drift_angles_, out)

    def check_numerics(self):
        """True when the drifts, rates, stddevs and the generator are finite and the
        source passes its ``check_numerics()`` (if none: finite omega and angles)."""
        cdef double v[3]
        cdef int i
        for i in range(3):
            if not (isfinite(self.drift_omega_[i]) and isfinite(self.drift_angles_[i])
                    and isfinite(self.rate_omega_[i]) and isfinite(self.rate_angles_[i])
                    and isfinite(self.sigma_[i])):
                return False
        if not self.gen.check_numerics():
            return False
        src = self.source_
        if src is None:
            return False
        if isinstance(src, RigidBodySimulator):
            return bool((<RigidBodySimulator>src).finite_state())
        check = getattr(src, "check_numerics", None)
        if check is not None:
            return bool(check())
        try:
            _source_omega(src, v)
            _source_angles(src, v)
        except (ValueError, TypeError):
            return False
        return True

    def reset(self):
        """Zero both drift accumulators and both drift rates and rewind the noise
        generator to its seeded start. The noise stddev is kept."""
        cdef int i
        for i in range(3):
            self.drift_omega_[i] = 0.0
            self.drift_angles_[i] = 0.0
            self.rate_omega_[i] = 0.0
            self.rate_angles_[i] = 0.0
        # the generator's own reset, in C (no Python call: no other thread in between)
        fn_stream_init(&self.gen.st, self.gen.st.key, self.gen.st.stream)

    # ---- read-only state ----------------------------------------------------------
    @property
    def source(self):
        """The object the true motion comes from."""
        return self.source_

    @property
    def drift_omega(self):
        """Accumulated angular-velocity drift in rad/s (a new array)."""
        return np.array([self.drift_omega_[0], self.drift_omega_[1], self.drift_omega_[2]])

    @property
    def drift_angles(self):
        """Accumulated angle drift in rad, (pitch, yaw, roll) order (a new array)."""
        return np.array(_list3(self.drift_angles_))

    @property
    def drift_rate(self):
        """Rate of ``drift_omega`` in rad/s^2 (a new array)."""
        return np.array([self.rate_omega_[0], self.rate_omega_[1], self.rate_omega_[2]])

    @property
    def angle_drift_rate(self):
        """Rate of ``drift_angles`` in rad/s (a new array)."""
        return np.array([self.rate_angles_[0], self.rate_angles_[1], self.rate_angles_[2]])

    @property
    def noise_stddev(self):
        """Per-axis noise standard deviation (rad/s for rates, rad for angles)."""
        return np.array([self.sigma_[0], self.sigma_[1], self.sigma_[2]])

    @property
    def generator_state(self):
        """The noise generator's state dict (see ``GaussianNoiseGenerator.state``): its
        ``seed_seq`` is the sensor's own child of ``seed``; its ``position`` is
        ``state['position']['generator']`` of the sensor."""
        return self.gen.state

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    model_name = "sensor_simulator"
    declaration = _declarations.SENSOR_SIMULATOR

    def _model_params(self):
        return {
            "noise_stddev": _list3(self.sigma_),
            "drift_rate": _list3(self.rate_omega_),
            "angle_drift_rate": _list3(self.rate_angles_),
        }

    def _position(self):
        cdef double w[3]
        cdef double a[3]
        cdef int i
        for i in range(3):
            w[i] = self.drift_omega_[i]
            a[i] = self.drift_angles_[i]
        pos = self.gen.st.position
        return {
            "drift_omega": _list3(w),
            "drift_angles": _list3(a),
            "generator": {"position": int(pos)},
        }

    def _set_position(self, position):
        cdef int i
        w, a, n = _checks.check_position(position, _vector3)  # all checked first
        for i in range(3):
            self.drift_omega_[i] = w[i]
            self.drift_angles_[i] = a[i]
        self.gen.st.position = n

    def _state_extras(self):
        return {"source": self.source_}


register_model(SensorSimulator)
