from libc.stdint cimport uint64_t

from fastnoise.core.model cimport Model
from fastnoise.models.dvl.capi cimport fn_awn, fn_awn_params


cdef class AugmentedWhiteNoise(Model):
    cdef fn_awn s
    cdef object _sensor
    cdef bint _strict
    cdef _set(self, str name, value)
    cdef _refused(self, int rc, uint64_t n, str name, double value)
    cdef int _reserve(self, uint64_t n, fn_awn_params *snap) except -1


cpdef double real(str name, value) except? -1.0
