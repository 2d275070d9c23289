from fastnoise.core.model cimport Model
from fastnoise.models.dvl_capi cimport fn_awn


cdef class AugmentedWhiteNoise(Model):
    cdef fn_awn s
    cdef object _sensor
    cdef bint _strict
    cdef _set(self, str name, value)


cpdef double real(str name, value) except? -1.0
