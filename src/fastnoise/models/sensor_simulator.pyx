"""SensorSimulator: a gyro / attitude sensor with Gaussian noise and linear drift (seed 004).

Units: angular velocity in rad/s, angles in rad, time in s. See ``SensorSimulator``.
"""

import copy as _copy

import numpy as np

cimport numpy as cnp
from libc.math cimport isfinite

from fastnoise.core.capi cimport fn_stream_next_f64
from fastnoise.core.generator cimport GaussianNoiseGenerator
from fastnoise.core.vec3 cimport out_vec3, read_vec3
from fastnoise.models.rigid_body cimport RigidBodySimulator

from fastnoise.core import validate as _validate
from fastnoise.core.seeding import as_seed_sequence, model_seed_sequence

cnp.import_array()

_SOURCE_ATTRS = ("omega", "roll", "pitch", "yaw")


def _check_source(source):
    if source is None:
        raise TypeError(
            "source=None is not allowed: it must be a RigidBodySimulator or an object with "
            "omega, roll, pitch and yaw")
    if isinstance(source, RigidBodySimulator):
        return
    missing = [a for a in _SOURCE_ATTRS if not hasattr(source, a)]
    if missing:
        raise TypeError(
            f"source={source!r} is not allowed: it lacks {', '.join(missing)} (a source "
            "needs omega, roll, pitch and yaw)")


cdef inline object _get(object source, str name):
    value = getattr(source, name)
    if callable(value):
        value = value()
    return value


cdef int _source_omega(object source, double w[3]) except -1:
    """The source's angular velocity (rad/s) into ``w``; ValueError if not finite."""
    cdef RigidBodySimulator body
    if type(source) is not RigidBodySimulator:
        return read_vec3("source.omega", _get(source, "omega"), w)
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
    if type(source) is RigidBodySimulator:
        body = <RigidBodySimulator>source
        a[0] = body.angles_[1]
        a[1] = body.angles_[2]
        a[2] = body.angles_[0]
    else:
        a[0] = _get(source, "pitch")
        a[1] = _get(source, "yaw")
        a[2] = _get(source, "roll")
    if not (isfinite(a[0]) and isfinite(a[1]) and isfinite(a[2])):
        raise ValueError(
            f"source (pitch, yaw, roll)=({a[0]!r}, {a[1]!r}, {a[2]!r}) is not finite: the "
            "source failed its numeric check")
    return 0


cdef class SensorSimulator:
    """Noisy, drifting angular-velocity and orientation readings of a rigid body.

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
    """

    cdef object source_
    cdef GaussianNoiseGenerator gen
    cdef double drift_omega_[3]
    cdef double drift_angles_[3]
    cdef double rate_omega_[3]
    cdef double rate_angles_[3]
    cdef double sigma_[3]

    def __init__(self, source, seed=None, *, noise_stddev=0.0, drift_rate=0.0,
                 angle_drift_rate=None):
        _check_source(source)
        self.source_ = source
        self.gen = GaussianNoiseGenerator(
            model_seed_sequence(as_seed_sequence(seed), "sensor_simulator"))
        # checked under the constructor's own names, so errors name what was passed
        self.set_noise_stddev(_validate.vector3("noise_stddev", noise_stddev, nonneg=True))
        self.set_drift_rate(
            _validate.vector3("drift_rate", drift_rate),
            None if angle_drift_rate is None
            else _validate.vector3("angle_drift_rate", angle_drift_rate))

    # ---- configuration ------------------------------------------------------------
    def set_noise_stddev(self, stddev):
        """Per-axis noise standard deviation (scalar or length 3, finite, >= 0) for both
        reads: rad/s for angular velocity, rad for angles."""
        arr = _validate.vector3("stddev", stddev, nonneg=True)
        for i in range(3):
            self.sigma_[i] = arr[i]

    def set_drift_rate(self, rate, angle_rate=None):
        """Per-axis drift rates (scalar or length 3, finite).

        ``rate`` drives ``drift_omega`` (rad/s^2). Like the seed, it drives
        ``drift_angles`` too unless ``angle_rate`` (rad/s) is given.
        """
        arr = _validate.vector3("rate", rate)
        arr_a = arr if angle_rate is None else _validate.vector3("angle_rate", angle_rate)
        for i in range(3):
            self.rate_omega_[i] = arr[i]
            self.rate_angles_[i] = arr_a[i]

    # ---- core ---------------------------------------------------------------------
    def update(self, double dt):
        """Advance both drift accumulators by ``rate * dt``; ``dt`` in s, finite, > 0."""
        cdef double new_w[3]
        cdef double new_a[3]
        cdef int i
        if not (dt > 0.0 and isfinite(dt)):
            raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 (s)")
        for i in range(3):
            new_w[i] = self.drift_omega_[i] + self.rate_omega_[i] * dt
            new_a[i] = self.drift_angles_[i] + self.rate_angles_[i] * dt
            if not (isfinite(new_w[i]) and isfinite(new_a[i])):
                raise ValueError(
                    f"dt={dt!r} is not allowed: the drift would overflow to a non-finite "
                    "value")
        for i in range(3):
            self.drift_omega_[i] = new_w[i]
            self.drift_angles_[i] = new_a[i]

    cdef object _reading(self, const double *x, const double *drift, object out):
        """x + drift + N(0, sigma) per axis, into ``out`` (or a new array)."""
        cdef cnp.ndarray res = out_vec3("out", out)
        cdef double *dst = <double *>cnp.PyArray_DATA(res)
        cdef int i
        for i in range(3):
            dst[i] = x[i] + drift[i] + self.sigma_[i] * fn_stream_next_f64(&self.gen.st)
        return res

    def read_angular_velocity(self, out=None):
        """Measured body angular velocity in rad/s: ``omega + drift_omega + noise``.

        Returns a new float64 array of shape (3,), or fills and returns ``out`` (float64,
        shape (3,), C-contiguous, writeable). Raises ValueError if the source's omega is
        not finite (no noise is drawn then).
        """
        cdef double w[3]
        _source_omega(self.source_, w)
        return self._reading(w, self.drift_omega_, out)

    def read_orientation(self, out=None):
        """Measured angles in rad, packed (pitch, yaw, roll):
        ``(pitch, yaw, roll) + drift_angles + noise``.

        ``out`` as for ``read_angular_velocity``. Raises ValueError if the source's
        angles are not finite.
        """
        cdef double a[3]
        _source_angles(self.source_, a)
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
        self.gen.reset()

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
    def seed(self):
        """The numpy.random.SeedSequence this sensor was seeded with (its generator runs
        on the sensor's own child of it, so other models seeded alike draw other noise)."""
        ss = self.gen.seed
        return np.random.SeedSequence(ss.entropy, spawn_key=ss.spawn_key[:-1],
                                      pool_size=ss.pool_size)

    @property
    def generator_state(self):
        """The noise generator's state dict (see ``GaussianNoiseGenerator.state``)."""
        return self.gen.state

    # ---- copies and pickling ------------------------------------------------------
    cdef dict _config(self):
        return {
            "drift_omega": tuple(self.drift_omega_[i] for i in range(3)),
            "drift_angles": tuple(self.drift_angles_[i] for i in range(3)),
            "drift_rate": tuple(self.rate_omega_[i] for i in range(3)),
            "angle_drift_rate": tuple(self.rate_angles_[i] for i in range(3)),
            "noise_stddev": tuple(self.sigma_[i] for i in range(3)),
            "generator": self.gen.state,
        }

    def copy(self):
        """An independent sensor in the same state (same source, copied generator)."""
        cdef SensorSimulator s = _rebuild(self.source_, self._config())
        s.gen = self.gen.copy()
        return s

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        cdef SensorSimulator s = _rebuild(_copy.deepcopy(self.source_, memo), self._config())
        s.gen = self.gen.copy()
        return s

    def __reduce__(self):
        return (_rebuild, (self.source_, self._config()))

    def __repr__(self):
        return (f"SensorSimulator(source={self.source_!r}, "
                f"noise_stddev={tuple(self.sigma_)}, drift_rate={tuple(self.rate_omega_)}, "
                f"angle_drift_rate={tuple(self.rate_angles_)})")


def _rebuild(source, config):
    cdef SensorSimulator s = SensorSimulator.__new__(SensorSimulator)
    cdef int i
    _check_source(source)
    s.source_ = source
    s.gen = GaussianNoiseGenerator.__new__(GaussianNoiseGenerator)
    s.gen.state = config["generator"]
    for i in range(3):
        s.drift_omega_[i] = config["drift_omega"][i]
        s.drift_angles_[i] = config["drift_angles"][i]
        s.rate_omega_[i] = config["drift_rate"][i]
        s.rate_angles_[i] = config["angle_drift_rate"][i]
        s.sigma_[i] = config["noise_stddev"][i]
    return s
