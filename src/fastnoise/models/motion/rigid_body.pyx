"""RigidBodySimulator: rotational dynamics of a rigid body with diagonal inertia, after
the SensorSimulator API document.

Units: inertia in kg m^2, torque in N m, time in s, angular velocity in rad/s, angles in rad.
"""

import numpy as np

cimport numpy as cnp
from libc.math cimport M_PI, fabs, floor, fmod, isfinite

from fastnoise.core.capi cimport fn_sincos_f64
from fastnoise.core.model cimport Model, check_built

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model
from fastnoise.models.motion import declarations as _declarations

cnp.import_array()

_KINEMATICS = {"axis": 0, "zyx": 1}

#: Largest moment of inertia (kg m^2) and body rate (rad/s) the simulator holds: with
#: them, I w, I w^2 and the gyroscopic term w x (I w) stay finite (below 1e301).
INERTIA_MAX = 1e100
OMEGA_MAX = 1e100
cdef double _OMEGA_MAX = OMEGA_MAX
# below it, the plain reduction (unchanged, bit for bit); from it on, the exact one
cdef double _EXACT_WRAP_FROM = 1048576.0  # 2**20 rad

# update's outcomes (the state changes only on _OK)
cdef enum:
    _OK = 0
    _OMEGA_TOO_LARGE = 1
    _ANGLE_OVERFLOW = 2


cdef inline double _wrap_pi(double a) noexcept nogil:
    # into [-pi, pi); a value already inside is returned unchanged (bit for bit). Up
    # to 2**20 rad the plain a - 2 pi floor((a + pi) / 2 pi); beyond it the exact
    # remainder fmod(a, 2 pi) (the plain form loses up to ulp(a) there and leaves
    # values past ~1e17 outside [-pi, pi))
    cdef double r
    if -M_PI <= a < M_PI:
        return a
    if fabs(a) < _EXACT_WRAP_FROM:
        r = a - 2.0 * M_PI * floor((a + M_PI) / (2.0 * M_PI))
    else:
        r = fmod(a, 2.0 * M_PI)  # exact, in (-2 pi, 2 pi)
        if r >= M_PI:
            r -= 2.0 * M_PI
        elif r < -M_PI:
            r += 2.0 * M_PI
    if r >= M_PI:  # rounding can land exactly on +pi ...
        r -= 2.0 * M_PI
    elif r < -M_PI:  # ... or just below -pi
        r += 2.0 * M_PI
    return r


cdef double _real(str name, object value) except? -1.0:
    """One finite real number; bools, complex numbers, strings, datetimes and
    timedeltas (numpy's too) are refused by name (fastnoise.core.validate)."""
    if type(value) is float and isfinite(<double>value):  # the common case, no call
        return <double>value
    return _validate.finite(name, value)


cdef double _positive(str name, object value) except? -1.0:
    """A finite real number > 0 (as _real)."""
    cdef double v = _real(name, value)
    if not v > 0.0:
        raise ValueError(f"{name}={value!r} is not allowed: it must be finite and > 0")
    return v


cdef int read3(str name, object value, double out[3]) except -1:
    """A length-3 vector of finite reals (a scalar means all three) into ``out``. Fast
    paths: an exact native-endian, aligned, C-contiguous float64 ndarray of shape (3,),
    and a list or tuple of 3 entries; everything else goes through the intake path
    (``fastnoise.core.arrays.intake``), which refuses non-real dtypes by name."""
    cdef Py_ssize_t i
    cdef cnp.ndarray a
    cdef double *src
    if (type(value) is cnp.ndarray and cnp.PyArray_TYPE(<cnp.ndarray>value) == cnp.NPY_FLOAT64
            and cnp.PyArray_NDIM(<cnp.ndarray>value) == 1
            and cnp.PyArray_DIM(<cnp.ndarray>value, 0) == 3
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>value)
            and cnp.PyArray_ISBEHAVED_RO(<cnp.ndarray>value)):
        a = <cnp.ndarray>value
    elif type(value) is tuple or type(value) is list:
        if len(value) != 3:
            raise ValueError(f"{name}={value!r} has {len(value)} entries: it must have 3")
        for i in range(3):
            v = value[i]
            if type(v) is float and isfinite(<double>v):
                out[i] = <double>v
            else:
                out[i] = _real(f"{name}[{i}]", v)
        return 0
    else:
        if isinstance(value, (list, tuple)):  # subclasses: entry by entry, by name
            return read3(name, list(value), out)
        try:
            arr = np.asarray(value) if not isinstance(value, np.ndarray) else value
        except (TypeError, ValueError, OverflowError) as exc:
            raise TypeError(
                f"{name}={value!r:.80} is not allowed: it must be 3 real numbers") from exc
        arr = _arrays.intake(name, arr, np.float64)
        if arr.ndim == 0:
            arr = np.full(3, arr.item())
        if arr.shape != (3,):
            raise ValueError(
                f"{name} has shape {arr.shape}: it must be a scalar or a length-3 vector")
        a = arr
    src = <double *>cnp.PyArray_DATA(a)
    for i in range(3):
        out[i] = src[i]
    if not (isfinite(out[0]) and isfinite(out[1]) and isfinite(out[2])):
        raise ValueError(f"{name}={value!r} is not allowed: every component must be finite")
    return 0


cdef int _bounded3(str name, object value, double out[3], double lo, double hi,
                   str unit) except -1:
    """read3, each component in [lo, hi] (lo excluded when it is 0)."""
    cdef int i
    read3(name, value, out)
    for i in range(3):
        if not ((out[i] > lo if lo == 0.0 else out[i] >= lo) and out[i] <= hi):
            raise ValueError(
                f"{name}={value!r} is not allowed: every component must lie in "
                f"{'(' if lo == 0.0 else '['}{lo:g}, {hi:g}] ({unit})")
    return 0


cdef int _state_vec3(str name, object value, double out[3], double lo, double hi,
                     str unit) except -1:
    """A list (or tuple) of 3 floats from a state, each in [lo, hi], into ``out``."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{name}={value!r} is not allowed: it must be a list of 3 floats")
    return _bounded3(name, value, out, lo, hi, unit)


cdef inline list _list3(const double *a):
    return [a[0], a[1], a[2]]


cdef class RigidBodySimulator(Model):
    """RigidBodySimulator(inertia, omega=None, roll=0.0, pitch=0.0, yaw=0.0, kinematics='axis')
--

Rotation of a rigid body about its principal axes, driven by a body-frame torque.

    Parameters
    ----------
    inertia : array_like, shape (3,)
        Principal moments of inertia (I_x, I_y, I_z) in kg m^2, each finite and > 0.
    omega : array_like, shape (3,), optional
        Initial body angular velocity (p, q, r) in rad/s (default 0).
    roll, pitch, yaw : float
        Initial angles in rad (default 0); wrapped to [-pi, pi).
    kinematics : {"axis", "zyx"}
        How the angles follow the body rates (see Notes). "axis" (default) is the
        SensorSimulator API document's model; "zyx" the exact ZYX Euler-angle kinematics.

    Notes
    -----
    Euler's rotational equations with the gyroscopic term, ``I dw/dt = tau - w x (I w)``,
    integrated by the explicit (forward) Euler method in float64 (first order: choose
    dt with dt |w| << 1); then the angles from the new rates: "axis" ``roll += p dt``,
    ``pitch += q dt``, ``yaw += r dt``; "zyx" the yaw-pitch-roll kinematics of
    ``R = Rz(yaw) Ry(pitch) Rx(roll)`` (singular at pitch = +-pi/2). All three angles
    are wrapped to [-pi, pi) after every step. Inertia lies in (0, 1e100] kg m^2
    (``INERTIA_MAX``) and body rates within +/-1e100 rad/s (``OMEGA_MAX``): an update
    that would leave them is refused with nothing changed. The body draws no random
    numbers (``stochastic = False``: no ``seed``, no ``key``); ``state['params']`` is
    the constructor's initial state (what ``reset()`` returns to), ``state['position']``
    the current ``omega`` (rad/s) and ``angles`` (roll, pitch, yaw, rad). The scheme's
    choice, the range and the thread rules: :doc:`/models/sensor-simulator`.
    """

    def __init__(self, inertia, omega=None, roll=0.0, pitch=0.0, yaw=0.0,
                 kinematics="axis"):
        cdef double inertia_[3]
        cdef double omega0[3]
        cdef double angles0[3]
        cdef int i
        # everything is checked into locals first: a failed call changes nothing
        v = _declarations.RIGID_BODY.check_params({
            "inertia": inertia, "omega": omega, "roll": roll, "pitch": pitch, "yaw": yaw,
            "kinematics": kinematics})
        w0 = (0.0, 0.0, 0.0) if v["omega"] is None else v["omega"]
        for i in range(3):
            inertia_[i] = v["inertia"][i]
            omega0[i] = w0[i]
        angles0[0] = _wrap_pi(v["roll"])
        angles0[1] = _wrap_pi(v["pitch"])
        angles0[2] = _wrap_pi(v["yaw"])
        kinematics = v["kinematics"]
        for i in range(3):  # (no Python call from here on: one step under the GIL)
            self.inertia_[i] = inertia_[i]
            self.omega0_[i] = omega0[i]
            self.angles0_[i] = angles0[i]
            self.omega_[i] = omega0[i]
            self.angles_[i] = angles0[i]
        self.zyx_ = _KINEMATICS[kinematics]
        self._built = True

    # ---- dynamics -----------------------------------------------------------------
    cdef int step(self, double dt, const double *tau) noexcept nogil:
        # the new state is computed aside (scalars: no arrays for the compiler to pack)
        # and taken only when it is in range, so a refused step changes nothing
        cdef double *w = self.omega_
        cdef double *inertia = self.inertia_
        cdef double *a = self.angles_
        cdef double lx = inertia[0] * w[0]
        cdef double ly = inertia[1] * w[1]
        cdef double lz = inertia[2] * w[2]
        # w x L, the gyroscopic term, from the rates at the start of the step
        cdef double gx = w[1] * lz - w[2] * ly
        cdef double gy = w[2] * lx - w[0] * lz
        cdef double gz = w[0] * ly - w[1] * lx
        cdef double sr, cr, sp, tp, cp, s, a0, a1, a2
        cdef double p = w[0] + (tau[0] - gx) / inertia[0] * dt
        cdef double q = w[1] + (tau[1] - gy) / inertia[1] * dt
        cdef double r = w[2] + (tau[2] - gz) / inertia[2] * dt
        if not (fabs(p) <= _OMEGA_MAX and fabs(q) <= _OMEGA_MAX and fabs(r) <= _OMEGA_MAX):
            return _OMEGA_TOO_LARGE  # (NaN too)
        if self.zyx_:
            # the project's own sin/cos (csrc/fnmath.h): the same bits on every machine
            fn_sincos_f64(a[0], &sr, &cr)
            fn_sincos_f64(a[1], &sp, &cp)
            tp = sp / cp
            s = q * sr + r * cr
            a0 = a[0] + (p + s * tp) * dt
            a1 = a[1] + (q * cr - r * sr) * dt
            a2 = a[2] + s / cp * dt
        else:
            a0 = a[0] + p * dt
            a1 = a[1] + q * dt
            a2 = a[2] + r * dt
        if not (isfinite(a0) and isfinite(a1) and isfinite(a2)):
            return _ANGLE_OVERFLOW
        w[0] = p
        w[1] = q
        w[2] = r
        a[0] = _wrap_pi(a0)
        a[1] = _wrap_pi(a1)
        a[2] = _wrap_pi(a2)
        return _OK

    def update(self, dt, torque):
        """Advance by ``dt`` seconds (finite, > 0) under a constant body-frame ``torque``
        (length 3, N m, finite).

        Refused (ValueError, nothing changed): a step that would take a body rate past
        +/-1e100 rad/s (``OMEGA_MAX``) or an angle increment past the doubles.
        """
        cdef double h
        cdef double tau[3]
        cdef int rc
        if type(dt) is float:  # the common case, without the Python-level checks
            h = dt
            if not (h > 0.0 and isfinite(h)):
                raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 (s)")
        else:
            h = _positive("dt", dt)
        check_built(self)
        read3("torque", torque, tau)
        rc = self.step(h, tau)
        if rc == _OMEGA_TOO_LARGE:
            raise ValueError(
                f"update(dt={dt!r}, torque={torque!r}) is not allowed: a body rate would "
                f"leave [-{OMEGA_MAX:g}, {OMEGA_MAX:g}] rad/s, the simulator's range "
                "(nothing was changed)")
        if rc == _ANGLE_OVERFLOW:
            raise ValueError(
                f"update(dt={dt!r}, torque={torque!r}) is not allowed: an angle increment "
                "(rate * dt) overflows the doubles (nothing was changed)")

    def reset(self):
        """Return to the initial state given to the constructor (rates and angles)."""
        cdef int i
        for i in range(3):
            self.omega_[i] = self.omega0_[i]
            self.angles_[i] = self.angles0_[i]

    cdef bint finite_state(self) noexcept nogil:
        cdef int i
        for i in range(3):
            if not (isfinite(self.omega_[i]) and isfinite(self.angles_[i])):
                return False
        return True

    def check_numerics(self):
        """True when the angular velocity and the angles are all finite."""
        return bool(self.finite_state())

    # ---- state --------------------------------------------------------------------
    @property
    def omega(self):
        """Body angular velocity (p, q, r) in rad/s (a new float64 array)."""
        return np.array([self.omega_[0], self.omega_[1], self.omega_[2]])

    @property
    def roll(self):
        """Roll angle in rad, in [-pi, pi)."""
        return self.angles_[0]

    @property
    def pitch(self):
        """Pitch angle in rad, in [-pi, pi)."""
        return self.angles_[1]

    @property
    def yaw(self):
        """Yaw angle in rad, in [-pi, pi)."""
        return self.angles_[2]

    @property
    def inertia(self):
        """Principal moments of inertia in kg m^2 (a new float64 array)."""
        return np.array([self.inertia_[0], self.inertia_[1], self.inertia_[2]])

    @property
    def kinematics(self):
        """"axis" or "zyx" (see the class notes)."""
        return "zyx" if self.zyx_ else "axis"

    @property
    def angular_momentum(self):
        """Body-frame angular momentum I w in kg m^2/s (a new float64 array)."""
        return np.array([self.inertia_[i] * self.omega_[i] for i in range(3)])

    @property
    def kinetic_energy(self):
        """Rotational kinetic energy w . (I w) / 2 in J."""
        return 0.5 * sum(self.inertia_[i] * self.omega_[i] * self.omega_[i]
                         for i in range(3))

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    model_name = "rigid_body"
    declaration = _declarations.RIGID_BODY
    stochastic = False

    def _model_params(self):
        return {
            "inertia": _list3(self.inertia_),
            "omega": _list3(self.omega0_),
            "roll": self.angles0_[0],
            "pitch": self.angles0_[1],
            "yaw": self.angles0_[2],
            "kinematics": self.kinematics,
        }

    def _position(self):
        cdef double w[3]
        cdef double a[3]
        cdef int i
        for i in range(3):
            w[i] = self.omega_[i]
            a[i] = self.angles_[i]
        return {"omega": _list3(w), "angles": _list3(a)}

    def _set_position(self, position):
        cdef double w[3]
        cdef double a[3]
        cdef int i
        _validate.fields("state['position']", position, ("omega", "angles"))
        _state_vec3("state['position']['omega']", position["omega"], w, -OMEGA_MAX,
                    OMEGA_MAX, "rad/s")
        _state_vec3("state['position']['angles']", position["angles"], a, -M_PI, M_PI,
                    "rad")
        for i in range(3):
            if not -M_PI <= a[i] < M_PI:
                raise ValueError(
                    f"state['position']['angles'][{i}]={a[i]!r} is not allowed: it must "
                    "lie in [-pi, pi)")
        for i in range(3):
            self.omega_[i] = w[i]
            self.angles_[i] = a[i]


register_model(RigidBodySimulator)
