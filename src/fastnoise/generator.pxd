from fastnoise._core cimport fn_stream


cdef class GaussianNoiseGenerator:
    cdef fn_stream st
    cdef object _seed_seq
