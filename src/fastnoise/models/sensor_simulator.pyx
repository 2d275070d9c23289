"""SensorSimulator: a gyro / attitude sensor with Gaussian noise and linear drift (seed 004).

Units: angular velocity in rad/s, angles in rad, time in s. See ``SensorSimulator``.
"""

import numpy as np

cimport numpy as cnp
from libc.math cimport fabs, isfinite
from libc.stdint cimport UINT64_MAX, uint64_t

from fastnoise.core.capi cimport fn_stream_init, fn_stream_next_f64
from fastnoise.core.generator cimport GaussianNoiseGenerator
from fastnoise.core.model cimport Model
from fastnoise.models.rigid_body cimport RigidBodySimulator, read3

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.core.seeding import as_seed_sequence, model_seed_sequence
from fastnoise.models import sensor_simulator_checks as _checks

cnp.import_array()

_F64 = np.dtype(np.float64)

#: Largest magnitude of a noise stddev, a drift accumulator and a source value (rad/s
#: or rad) the sensor works with: a reading x + drift + stddev * z (|z| <= 6.67) then
#: stays finite.
VALUE_MAX = 1e300
cdef double _VALUE_MAX = VALUE_MAX
_UNBUILT = "this SensorSimulator was never initialised (call __init__): it has no source"


cdef double _real(str name, object value) except? -1.0:
    """One finite real number; bools, complex numbers, strings, datetimes and
    timedeltas (numpy's too) are refused by name (fastnoise.core.validate)."""
    if type(value) is float and isfinite(<double>value):  # the common case, no call
        return <double>value
    return _validate.finite(name, value)


def _vector3(name, value, nonneg=False):
    """A scalar or length-3 vector of finite reals, each within +/-VALUE_MAX (and
    ``>= 0`` with ``nonneg``), as a float64 array (through the intake path: bools,
    complex numbers, strings and objects are refused by name)."""
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
    """``out`` of a read: an exact native-endian, aligned, C-contiguous, writeable
    float64 ndarray of shape (3,) on the fast path, else checked by
    ``fastnoise.core.arrays.output`` (big-endian, unaligned, read-only refused)."""
    cdef cnp.ndarray a
    if not (type(out) is cnp.ndarray and cnp.PyArray_TYPE(<cnp.ndarray>out) == cnp.NPY_FLOAT64
            and cnp.PyArray_NDIM(<cnp.ndarray>out) == 1
            and cnp.PyArray_DIM(<cnp.ndarray>out, 0) == 3
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>out)
            and cnp.PyArray_ISBEHAVED(<cnp.ndarray>out)):
        _arrays.output("out", out, (3,), _F64)
    a = <cnp.ndarray>out
    dst[0] = <double *>cnp.PyArray_DATA(a)
    return 0


cdef inline list _list3(const double *a):
    return [a[0], a[1], a[2]]


cdef inline object _get(object source, str name):
    value = getattr(source, name)
    if callable(value):
        value = value()
    return value


cdef int _in_range(str name, const double *v) except -1:
    cdef int i
    for i in range(3):
        if not fabs(v[i]) <= _VALUE_MAX:
            raise ValueError(
                f"{name}=({v[0]!r}, {v[1]!r}, {v[2]!r}) is not allowed: finite source "
                f"values must lie within +/-{VALUE_MAX:g} (no noise was drawn)")
    return 0


cdef int _source_omega(object source, double w[3]) except -1:
    """The source's angular velocity (rad/s) into ``w``; ValueError if not finite."""
    cdef RigidBodySimulator body
    if type(source) is not RigidBodySimulator:
        if source is None:
            raise RuntimeError(_UNBUILT)
        return read3("source.omega", _get(source, "omega"), w)
    body = <RigidBodySimulator>source
    w[0] = body.omega_[0]
    w[1] = body.omega_[1]
    w[2] = body.omega_[2]
    if not (isfinite(w[0]) and isfinite(w[1]) and isfinite(w[2])):
        raise ValueError(
            f"source.omega=({w[0]!r}, {w[1]!r}, {w[2]!r}) is not finite: the source "
            "failed its numeric check")
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
            raise RuntimeError(_UNBUILT)
        for i, name in enumerate(("pitch", "yaw", "roll")):
            value = _get(source, name)
            if type(value) is float:
                a[i] = <double>value
            elif isinstance(value, (bool, np.bool_)) or (
                    isinstance(value, np.generic) and value.dtype.kind not in "iuf"):
                raise TypeError(
                    f"source.{name}={value!r} is not allowed: it must be a real number")
            else:
                try:
                    a[i] = value
                except (TypeError, ValueError, OverflowError) as exc:
                    raise TypeError(
                        f"source.{name}={value!r:.80} is not allowed: it must be a real "
                        "number") from exc
    if not (isfinite(a[0]) and isfinite(a[1]) and isfinite(a[2])):
        raise ValueError(
            f"source (pitch, yaw, roll)=({a[0]!r}, {a[1]!r}, {a[2]!r}) is not finite: the "
            "source failed its numeric check")
    return 0


cdef class SensorSimulator(Model):
    """SensorSimulator(source, seed=None, *, noise_stddev=0.0, drift_rate=0.0,
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
    noise_stddev, drift_rate, angle_drift_rate
        Initial configuration, as for ``set_noise_stddev`` and ``set_drift_rate``
        (default: no noise, no drift).

    Notes
    -----
    Model (per axis, independent):

    - ``read_angular_velocity() = omega + drift_omega + noise_stddev * z``  (rad/s)
    - ``read_orientation() = (pitch, yaw, roll) + drift_angles + noise_stddev * z``  (rad)
    - ``update(dt)``: ``drift_omega += drift_rate * dt``,
      ``drift_angles += angle_drift_rate * dt``.

    The orientation is packed as (pitch, yaw, roll), the seed's order, and is not
    wrapped. Each read draws exactly three normals from the generator, for the output
    components in order (x, y, z, resp. pitch, yaw, roll), even where a stddev is 0, so
    the stream position depends only on the number of reads. ``reset()`` zeroes both
    drift accumulators and both drift rates and rewinds the generator to its seeded
    start (the noise stddev is kept): after a reset and the same configuration the same
    calls give the same readings. ``copy()`` continues exactly as the original would,
    independently of it, and shares the source (as the seed's C++ copy shares its
    pointer); ``copy.deepcopy`` and pickling copy the source too.

    State (see :mod:`fastnoise.core.model`): ``params`` are the current
    ``noise_stddev``, ``drift_rate`` and ``angle_drift_rate``; ``position`` the drift
    accumulators ``drift_omega`` and ``drift_angles`` and ``generator``, the noise
    generator's own position (its ``state['position']``, ``{"position": n}``). The
    source is not part of the state: ``SensorSimulator.from_state(state, source=...)``.

    Range: noise stddevs, drift accumulators and the source's values are kept within
    +/-1e300 (``VALUE_MAX``): larger ones are refused by name (a source value at the
    read, with nothing drawn; an ``update`` that would take an accumulator past it,
    with nothing changed), so every reading is finite. A read at the end of the noise
    stream (position 2**64 - 1) raises OverflowError.

    Threads: one sensor may be shared. Each call's work on the sensor's own state (the
    drift, the three normals of a read, a state or configuration change) is C code
    that runs whole under the GIL, which none of it releases, so the GIL serializes
    the calls: they run one after another, in the order they get the GIL, no normal
    is handed out twice or skipped, and every read uses three consecutive ones. (The
    object lock of ``fastnoise.core.model`` is not taken: it would cost more than the
    calls, and nothing here runs without the GIL. Free-threaded CPython is not
    supported.) The source is read first, as the caller's object: a source that moves
    while another thread reads gives that read whichever value it had.
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

    def __init__(self, source, seed=None, *, noise_stddev=0.0, drift_rate=0.0,
                 angle_drift_rate=None):
        cdef int i
        # everything is checked into locals first: a failed call changes nothing;
        # errors use the constructor's own names, so they name what was passed
        _checks.check_source(source)
        ss = as_seed_sequence(seed)
        sigma = _vector3("noise_stddev", noise_stddev, nonneg=True)
        rate = _vector3("drift_rate", drift_rate)
        if angle_drift_rate is None:
            rate_a = rate
        else:
            rate_a = _vector3("angle_drift_rate", angle_drift_rate)
        gen = GaussianNoiseGenerator(model_seed_sequence(ss, "sensor_simulator"))
        # the old source and generator are dropped once the new state is whole (a
        # source's __del__ may call back into this object)
        old = (self.source_, self.gen)
        self.source_ = source
        self._seed_seq = ss
        self.gen = gen
        for i in range(3):
            self.sigma_[i] = sigma[i]
            self.rate_omega_[i] = rate[i]
            self.rate_angles_[i] = rate_a[i]
            self.drift_omega_[i] = 0.0
            self.drift_angles_[i] = 0.0
        del old

    # ---- configuration ------------------------------------------------------------
    def set_noise_stddev(self, stddev):
        """Per-axis noise standard deviation (scalar or length 3, finite, >= 0) for both
        reads: rad/s for angular velocity, rad for angles."""
        arr = _vector3("stddev", stddev, nonneg=True)
        for i in range(3):
            self.sigma_[i] = arr[i]

    def set_drift_rate(self, rate, angle_rate=None):
        """Per-axis drift rates (scalar or length 3, finite).

        ``rate`` drives ``drift_omega`` (rad/s^2). Like the seed, it drives
        ``drift_angles`` too unless ``angle_rate`` (rad/s) is given.
        """
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
        if type(dt) is float:  # the common case, without the Python-level checks
            h = dt
            if not (h > 0.0 and isfinite(h)):
                raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 (s)")
        else:
            h = _real("dt", dt)
            if not h > 0.0:
                raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 (s)")
        for i in range(3):
            new_w[i] = self.drift_omega_[i] + self.rate_omega_[i] * h
            new_a[i] = self.drift_angles_[i] + self.rate_angles_[i] * h
            ok = ok and fabs(new_w[i]) <= _VALUE_MAX and fabs(new_a[i]) <= _VALUE_MAX
        if ok:
            for i in range(3):
                self.drift_omega_[i] = new_w[i]
                self.drift_angles_[i] = new_a[i]
        if not ok:
            raise ValueError(
                f"dt={dt!r} is not allowed: a drift accumulator would pass "
                f"+/-{VALUE_MAX:g} (nothing was changed)")

    cdef object _reading(self, const double *x, const double *drift, object out):
        """x + drift + N(0, sigma) per axis, into ``out`` (or a new array)."""
        cdef cnp.npy_intp n = 3
        cdef double *dst
        cdef int i
        cdef uint64_t pos
        if out is None:
            res = cnp.PyArray_EMPTY(1, &n, cnp.NPY_FLOAT64, 0)
        else:
            res = out
        _out3(res, &dst)
        pos = self.gen.st.position
        if pos > UINT64_MAX - 3:
            raise OverflowError(
                f"the noise generator is at position {pos} "
                "(state['position']['generator']['position']): the 3 normals of a read "
                "would run past the end of the stream (2**64 - 1)")
        for i in range(3):
            dst[i] = x[i] + drift[i] + self.sigma_[i] * fn_stream_next_f64(&self.gen.st)
        return res

    def read_angular_velocity(self, out=None):
        """Measured body angular velocity in rad/s: ``omega + drift_omega + noise``.

        Returns a new float64 array of shape (3,), or fills and returns ``out`` (native
        float64, shape (3,), C-contiguous, aligned, writeable; anything else is refused
        by name). The source is read before ``out`` is written, so ``out`` may be the
        source's own array. Raises ValueError if the source's omega is not finite or
        beyond +/-1e300 (no noise is drawn then), and OverflowError at the end of the
        noise stream.
        """
        cdef double w[3]
        _source_omega(self.source_, w)
        _in_range("source.omega", w)
        return self._reading(w, self.drift_omega_, out)

    def read_orientation(self, out=None):
        """Measured angles in rad, packed (pitch, yaw, roll):
        ``(pitch, yaw, roll) + drift_angles + noise``.

        ``out`` as for ``read_angular_velocity``. Raises ValueError if the source's
        angles are not finite or beyond +/-1e300.
        """
        cdef double a[3]
        _source_angles(self.source_, a)
        _in_range("source (pitch, yaw, roll)", a)
        return self._reading(a, self.drift_angles_, out)

    def check_numerics(self):
        """True when the drifts, rates, stddevs and the generator are finite and the
        source passes its own check (its ``check_numerics()`` if it has one, else
        finite omega and angles)."""
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
        return np.array([self.drift_angles_[0], self.drift_angles_[1],
                         self.drift_angles_[2]])

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

    @property
    def key(self):
        """64-bit Philox key of the noise generator."""
        return self.gen.key

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    model_name = "sensor_simulator"

    def _params(self):
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

    def _take(self, other):
        cdef SensorSimulator o = other
        cdef int i
        old = (self.source_, self.gen)  # dropped once the new state is whole
        self.source_ = o.source_
        self._seed_seq = o._seed_seq
        self.gen = o.gen
        for i in range(3):
            self.drift_omega_[i] = o.drift_omega_[i]
            self.drift_angles_[i] = o.drift_angles_[i]
            self.rate_omega_[i] = o.rate_omega_[i]
            self.rate_angles_[i] = o.rate_angles_[i]
            self.sigma_[i] = o.sigma_[i]
        del old

    def _state_extras(self):
        return {"source": self.source_}


register_model(SensorSimulator)
