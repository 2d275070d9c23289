from fastnoise.core.capi cimport fn_stream
from fastnoise.core.model cimport Model


cdef class GaussianNoiseGenerator(Model):
    cdef fn_stream st
    cdef fn_stream *envs      # a batch's streams, one per environment (NULL: one stream)
    cdef Py_ssize_t n_envs    # 0: one stream, in st
    cdef object _env          # None, or the environment this generator is
