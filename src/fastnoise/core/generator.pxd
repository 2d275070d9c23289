from fastnoise.core.capi cimport fn_stream
from fastnoise.core.model cimport Model


cdef class GaussianNoiseGenerator(Model):
    cdef fn_stream st
