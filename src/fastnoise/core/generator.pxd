from fastnoise.core.capi cimport fn_stream


cdef class GaussianNoiseGenerator:
    cdef fn_stream st
    cdef object _seed_seq
