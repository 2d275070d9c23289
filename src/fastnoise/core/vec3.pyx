"""Length-3 float64 vectors in and out of the per-sample calls, with fast paths that
keep a 1 kHz read well under a microsecond and errors that name the parameter."""

import numpy as np

cimport numpy as cnp
from libc.math cimport isfinite

from fastnoise.core import validate as _validate

cnp.import_array()

_F64 = np.dtype(np.float64)


cdef int read_vec3(str name, object value, double out[3]) except -1:
    """Copy a length-3 finite real vector into ``out`` (fast paths for a float64 array,
    a tuple or a list)."""
    cdef Py_ssize_t i
    cdef double *src
    if (type(value) is cnp.ndarray and cnp.PyArray_TYPE(<cnp.ndarray>value) == cnp.NPY_FLOAT64
            and cnp.PyArray_NDIM(<cnp.ndarray>value) == 1
            and cnp.PyArray_DIM(<cnp.ndarray>value, 0) == 3
            and cnp.PyArray_ISCARRAY_RO(<cnp.ndarray>value)):
        src = <double *>cnp.PyArray_DATA(<cnp.ndarray>value)
        out[0] = src[0]
        out[1] = src[1]
        out[2] = src[2]
        if isfinite(out[0]) and isfinite(out[1]) and isfinite(out[2]):
            return 0
    elif (type(value) is tuple or type(value) is list) and len(value) == 3:
        try:
            for i in range(3):
                out[i] = value[i]
        except TypeError:
            pass
        else:
            if isfinite(out[0]) and isfinite(out[1]) and isfinite(out[2]):
                return 0
    arr = _validate.vector3(name, value)
    for i in range(3):
        out[i] = arr[i]
    return 0


cdef cnp.ndarray out_vec3(str name, object out):
    cdef cnp.npy_intp n = 3
    if out is None:
        return cnp.PyArray_EMPTY(1, &n, cnp.NPY_FLOAT64, 0)
    if (type(out) is cnp.ndarray and cnp.PyArray_TYPE(<cnp.ndarray>out) == cnp.NPY_FLOAT64
            and cnp.PyArray_NDIM(<cnp.ndarray>out) == 1
            and cnp.PyArray_DIM(<cnp.ndarray>out, 0) == 3
            and cnp.PyArray_ISCARRAY(<cnp.ndarray>out)):
        return <cnp.ndarray>out
    return _validate.output_array(name, out, (3,), _F64)
