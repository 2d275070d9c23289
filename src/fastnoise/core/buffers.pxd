cimport numpy as cnp

cdef cnp.ndarray recycled_empty(tuple shape, object dtype)
