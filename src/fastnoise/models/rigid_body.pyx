"""RigidBodySimulator: rotational dynamics of a rigid body with diagonal inertia (seed 004).

Units: inertia in kg m^2, torque in N m, time in s, angular velocity in rad/s, angles in rad.
"""

import numpy as np

cimport numpy as cnp
from libc.math cimport M_PI, floor, isfinite

from fastnoise.core.capi cimport fn_sincos_f64
from fastnoise.core.model cimport Model
from fastnoise.core.vec3 cimport read_vec3

from fastnoise.core import validate as _validate
from fastnoise.core.model import register_model

cnp.import_array()

_KINEMATICS = {"axis": 0, "zyx": 1}


cdef inline double _wrap_pi(double a) noexcept nogil:
    # into [-pi, pi); a value already inside is returned unchanged (bit for bit)
    cdef double r
    if -M_PI <= a < M_PI:
        return a
    r = a - 2.0 * M_PI * floor((a + M_PI) / (2.0 * M_PI))
    if r >= M_PI:  # rounding can land exactly on +pi ...
        r -= 2.0 * M_PI
    elif r < -M_PI:  # ... or just below -pi
        r += 2.0 * M_PI
    return r


cdef int _vec3(str name, object value, double out[3]) except -1:
    """read_vec3, but a list or tuple must have exactly 3 entries, each a finite real
    number (an error names the entry)."""
    cdef Py_ssize_t i, n
    if isinstance(value, (list, tuple)):
        n = len(value)
        if n != 3:
            raise ValueError(f"{name}={value!r} has {n} entries: it must have 3")
        for i in range(3):
            out[i] = _validate.finite(f"{name}[{i}]", value[i])
        return 0
    return read_vec3(name, value, out)


cdef int _state_vec3(str name, object value, double out[3]) except -1:
    """A list (or tuple) of 3 finite floats from a state, into ``out``."""
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"{name}={value!r} is not allowed: it must be a list of 3 floats")
    return _vec3(name, value, out)


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
        How the angles follow the body rates (see Notes). "axis" (default) is the seed's
        model; "zyx" uses the exact ZYX Euler-angle kinematics.

    Notes
    -----
    Dynamics: Euler's rotational equations with the gyroscopic term,
    ``I dw/dt = tau - w x (I w)``, integrated by the explicit (forward) Euler method,
    ``w[n+1] = w[n] + dt * I^-1 (tau - w[n] x (I w[n]))``, in float64. This is the scheme
    that reproduces the true angular velocities printed in seed 004's usage example
    (I = (10, 8, 12) kg m^2, tau = (0.1, -0.05, 0.02) N m, dt = 0.01 s) to their 6
    decimals over 9001 steps; RK4 or a sequential (Gauss-Seidel) update differ from them
    by up to 1e-3 rad/s. Like every explicit Euler scheme it is first order: with zero
    torque the kinetic energy and |L| grow by a relative O(dt |w|^2) per unit time
    (both are exactly conserved only as dt -> 0). Choose dt with dt |w| << 1.

    Angles, after the rates are updated, using the new rates ``(p, q, r)``:

    - "axis" (seed 004): ``roll += p dt``, ``pitch += q dt``, ``yaw += r dt``. Each angle
      integrates its own body rate; this is exact for rotation about one principal axis
      and a small-angle approximation otherwise. It is the model behind the measured
      angles in the seed's example (they agree with it to within the example's noise,
      while ZYX kinematics differs from them by radians).
    - "zyx" (yaw-pitch-roll, body to world ``R = Rz(yaw) Ry(pitch) Rx(roll)``):
      ``roll' = p + (q sin(roll) + r cos(roll)) tan(pitch)``,
      ``pitch' = q cos(roll) - r sin(roll)``,
      ``yaw' = (q sin(roll) + r cos(roll)) / cos(pitch)``, integrated by explicit
      Euler; singular at pitch = +-pi/2 (gimbal lock).

    All three angles are wrapped to [-pi, pi) after every step.

    The body draws no random numbers (``stochastic = False``): its ``seed`` is None and
    it has no ``key``. ``state['params']`` is the initial state given to the
    constructor (what ``reset()`` returns to); ``state['position']`` is the current
    ``omega`` (rad/s) and ``angles`` (roll, pitch, yaw in rad, each in [-pi, pi)).
    """

    def __init__(self, inertia, omega=None, roll=0.0, pitch=0.0, yaw=0.0,
                 kinematics="axis"):
        cdef double inertia_[3]
        cdef double omega0[3]
        cdef double angles0[3]
        cdef int i
        # everything is checked into locals first: a failed call changes nothing
        _vec3("inertia", inertia, inertia_)
        for i in range(3):
            if not inertia_[i] > 0.0:
                raise ValueError(
                    f"inertia={inertia!r} is not allowed: every component must be > 0 "
                    "(kg m^2)")
        if omega is None:
            omega0[0] = omega0[1] = omega0[2] = 0.0
        else:
            _vec3("omega", omega, omega0)
        angles0[0] = _wrap_pi(_validate.finite("roll", roll))
        angles0[1] = _wrap_pi(_validate.finite("pitch", pitch))
        angles0[2] = _wrap_pi(_validate.finite("yaw", yaw))
        kinematics = _validate.choice("kinematics", kinematics, tuple(_KINEMATICS))
        for i in range(3):
            self.inertia_[i] = inertia_[i]
            self.omega0_[i] = omega0[i]
            self.angles0_[i] = angles0[i]
        self.zyx_ = _KINEMATICS[kinematics]
        self.reset()

    # ---- dynamics -----------------------------------------------------------------
    cdef void step(self, double dt, const double *tau) noexcept nogil:
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
        cdef double p, q, r, sr, cr, sp, tp, cp, s
        w[0] = w[0] + (tau[0] - gx) / inertia[0] * dt
        w[1] = w[1] + (tau[1] - gy) / inertia[1] * dt
        w[2] = w[2] + (tau[2] - gz) / inertia[2] * dt
        p = w[0]
        q = w[1]
        r = w[2]
        if self.zyx_:
            # the project's own sin/cos (csrc/fnmath.h): the same bits on every machine
            fn_sincos_f64(a[0], &sr, &cr)
            fn_sincos_f64(a[1], &sp, &cp)
            tp = sp / cp
            s = q * sr + r * cr
            a[0] = a[0] + (p + s * tp) * dt
            a[1] = a[1] + (q * cr - r * sr) * dt
            a[2] = a[2] + s / cp * dt
        else:
            a[0] = a[0] + p * dt
            a[1] = a[1] + q * dt
            a[2] = a[2] + r * dt
        a[0] = _wrap_pi(a[0])
        a[1] = _wrap_pi(a[1])
        a[2] = _wrap_pi(a[2])

    def update(self, dt, torque):
        """Advance by ``dt`` seconds (finite, > 0) under a constant body-frame ``torque``
        (length 3, N m, finite)."""
        cdef double h
        cdef double tau[3]
        if type(dt) is float:  # the common case, without the Python-level checks
            h = dt
            if not (h > 0.0 and isfinite(h)):
                raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 (s)")
        else:
            h = _validate.positive("dt", dt)
        if not self.inertia_[0] > 0.0:
            raise RuntimeError("this RigidBodySimulator was never initialised (call __init__)")
        read_vec3("torque", torque, tau)
        self.step(h, tau)

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
    stochastic = False

    def _params(self):
        return {
            "inertia": _list3(self.inertia_),
            "omega": _list3(self.omega0_),
            "roll": self.angles0_[0],
            "pitch": self.angles0_[1],
            "yaw": self.angles0_[2],
            "kinematics": self.kinematics,
        }

    def _position(self):
        return {"omega": _list3(self.omega_), "angles": _list3(self.angles_)}

    def _set_position(self, position):
        cdef double w[3]
        cdef double a[3]
        cdef int i
        _validate.fields("state['position']", position, ("omega", "angles"))
        _state_vec3("state['position']['omega']", position["omega"], w)
        _state_vec3("state['position']['angles']", position["angles"], a)
        for i in range(3):
            if not -M_PI <= a[i] < M_PI:
                raise ValueError(
                    f"state['position']['angles'][{i}]={a[i]!r} is not allowed: it must "
                    "lie in [-pi, pi)")
        for i in range(3):
            self.omega_[i] = w[i]
            self.angles_[i] = a[i]

    def _take(self, other):
        cdef RigidBodySimulator b = other
        cdef int i
        for i in range(3):
            self.inertia_[i] = b.inertia_[i]
            self.omega_[i] = b.omega_[i]
            self.angles_[i] = b.angles_[i]
            self.omega0_[i] = b.omega0_[i]
            self.angles0_[i] = b.angles0_[i]
        self.zyx_ = b.zyx_


register_model(RigidBodySimulator)
