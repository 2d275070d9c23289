# C-level view of RigidBodySimulator, so SensorSimulator reads its state without Python calls.

from fastnoise.core.model cimport Model


cdef class RigidBodySimulator(Model):
    cdef double inertia_[3]
    cdef double omega_[3]
    cdef double angles_[3]        # roll, pitch, yaw (rad)
    cdef double omega0_[3]        # initial state, restored by reset()
    cdef double angles0_[3]
    cdef int zyx_                 # 0: per-axis integration (seed), 1: ZYX Euler-angle kinematics
    cdef bint finite_state(self) noexcept nogil
    # 0, or (state unchanged) 1: a rate would leave +/-OMEGA_MAX, 2: an angle overflows
    cdef int step(self, double dt, const double *torque) noexcept nogil


# A length-3 vector of finite reals (a scalar means all three) into ``out``, through
# the intake path for anything but the fast cases; errors name ``name``.
cdef int read3(str name, object value, double out[3]) except -1
