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
    cdef void step(self, double dt, const double *torque) noexcept nogil
