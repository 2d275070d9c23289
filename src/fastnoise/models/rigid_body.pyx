"""RigidBodySimulator: rotational dynamics of a rigid body with diagonal inertia (seed 004).

Units: inertia in kg m^2, torque in N m, time in s, angular velocity in rad/s, angles in rad.
"""

import numpy as np

cimport numpy as cnp
from libc.math cimport M_PI, floor, isfinite

from fastnoise.core.capi cimport fn_sincos_f64
from fastnoise.core.vec3 cimport read_vec3

from fastnoise.core import validate as _validate

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


cdef class RigidBodySimulator:
    """Rotation of a rigid body about its principal axes, driven by a body-frame torque.

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
    """

    def __init__(self, inertia, omega=None, double roll=0.0, double pitch=0.0,
                 double yaw=0.0, kinematics="axis"):
        cdef int i
        read_vec3("inertia", inertia, self.inertia_)
        for i in range(3):
            if not self.inertia_[i] > 0.0:
                raise ValueError(
                    f"inertia={inertia!r} is not allowed: every component must be > 0 "
                    "(kg m^2)")
        if omega is None:
            self.omega0_[0] = self.omega0_[1] = self.omega0_[2] = 0.0
        else:
            read_vec3("omega", omega, self.omega0_)
        for name, v in (("roll", roll), ("pitch", pitch), ("yaw", yaw)):
            _validate.finite(name, v)
        self.angles0_[0] = _wrap_pi(roll)
        self.angles0_[1] = _wrap_pi(pitch)
        self.angles0_[2] = _wrap_pi(yaw)
        if kinematics not in _KINEMATICS:
            raise ValueError(
                f"kinematics={kinematics!r} is not allowed: use one of {list(_KINEMATICS)}")
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

    def update(self, double dt, torque):
        """Advance by ``dt`` seconds (finite, > 0) under a constant body-frame ``torque``
        (length 3, N m, finite)."""
        cdef double tau[3]
        if not (dt > 0.0 and isfinite(dt)):
            raise ValueError(f"dt={dt!r} is not allowed: it must be finite and > 0 (s)")
        read_vec3("torque", torque, tau)
        self.step(dt, tau)

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

    @property
    def state(self):
        """Everything that defines the body, as a dict of floats (exact)."""
        return {
            "inertia": tuple(self.inertia_[i] for i in range(3)),
            "omega": tuple(self.omega_[i] for i in range(3)),
            "angles": tuple(self.angles_[i] for i in range(3)),
            "omega0": tuple(self.omega0_[i] for i in range(3)),
            "angles0": tuple(self.angles0_[i] for i in range(3)),
            "kinematics": self.kinematics,
        }

    # ---- copies and pickling ------------------------------------------------------
    def copy(self):
        """An independent body in the same state."""
        return _from_state(self.state)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (_from_state, (self.state,))

    def __repr__(self):
        return (f"RigidBodySimulator(inertia={tuple(self.inertia_)}, "
                f"omega={tuple(self.omega_)}, roll={self.angles_[0]!r}, "
                f"pitch={self.angles_[1]!r}, yaw={self.angles_[2]!r}, "
                f"kinematics={self.kinematics!r})")


def _from_state(state):
    cdef RigidBodySimulator b = RigidBodySimulator.__new__(RigidBodySimulator)
    cdef int i
    for i in range(3):
        b.inertia_[i] = state["inertia"][i]
        b.omega_[i] = state["omega"][i]
        b.angles_[i] = state["angles"][i]
        b.omega0_[i] = state["omega0"][i]
        b.angles0_[i] = state["angles0"][i]
    b.zyx_ = _KINEMATICS[state["kinematics"]]
    return b
