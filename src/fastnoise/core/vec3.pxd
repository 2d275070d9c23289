cimport numpy as cnp

# A finite length-3 vector into ``out`` (fast paths for float64 arrays, tuples, lists);
# errors name ``name``.
cdef int read_vec3(str name, object value, double out[3]) except -1

# ``out`` itself when it is a writeable C-contiguous float64 array of shape (3,), a new
# one when it is None; anything else raises an error naming ``name``.
cdef cnp.ndarray out_vec3(str name, object out)
