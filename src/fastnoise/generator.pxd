from fastnoise._core cimport fn_stream


cdef class GaussianNoiseGenerator:
    cdef fn_stream st
    cdef object _seed_seq
    cdef double next_f64(self) noexcept nogil
    cdef float next_f32(self) noexcept nogil
