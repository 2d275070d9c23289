"""The compiled part of :class:`fastnoise.mujoco.SensorNoise`: a plan made once from
the model, and one C call (``csrc/mjsensor.h``) that noises a whole sensordata vector,
or a batch of them, per step."""

cimport numpy as cnp
from libc.stdint cimport int32_t, uint64_t

import numpy as np

cnp.import_array()


cdef extern from "mjsensor.h" nogil:
    int FN_MJ_WHITE
    int FN_MJ_NONNEG
    int FN_MJ_RANGE
    int FN_MJ_UNIT
    int FN_MJ_QUAT

    ctypedef struct fn_mj_row:
        int32_t kind
        int32_t adr
        int32_t dim
        int32_t zoff
        int32_t poff
        int32_t soff

    void fn_mj_apply(const fn_mj_row *plan, size_t nrows, const double *sd,
                     const double *nd, const double *cb, const double *rw, size_t nz,
                     size_t nstate, size_t nenv, const uint64_t *keys, uint64_t *steps,
                     double dt, double *data, size_t stride, double *state, double *z)


#: The kernel's row kinds by name.
KINDS = {"white": FN_MJ_WHITE, "nonneg": FN_MJ_NONNEG, "range": FN_MJ_RANGE,
         "unit": FN_MJ_UNIT, "quat": FN_MJ_QUAT}

#: The dtype of a plan row (csrc/mjsensor.h fn_mj_row).
ROW = np.dtype([("kind", np.int32), ("adr", np.int32), ("dim", np.int32),
                ("zoff", np.int32), ("poff", np.int32), ("soff", np.int32)])


cdef class Plan:
    """Plan(rows, sd, nd, cb, rw, nz, nstate, keys, nsensordata)

    rows: a ROW array; sd, nd, cb, rw: float64 parameter arrays (white-noise standard
    deviation, white-noise density, constant bias, random-walk density, each in the
    sensor's unit); nz normals per step; nstate state slots per environment; keys:
    uint64 keys, one per environment. Holds the step counters and the state."""

    cdef cnp.ndarray rows, sd, nd, cb, rw, keys, z
    cdef readonly cnp.ndarray steps  # uint64 (nenv,)
    cdef readonly cnp.ndarray state  # float64 (nenv, nstate)
    cdef readonly Py_ssize_t nz, nstate, nenv, nsensordata

    def __init__(self, rows, sd, nd, cb, rw, Py_ssize_t nz, Py_ssize_t nstate, keys,
                 Py_ssize_t nsensordata):
        self.rows = np.ascontiguousarray(rows, dtype=ROW)
        self.sd = np.ascontiguousarray(sd, dtype=np.float64)
        self.nd = np.ascontiguousarray(nd, dtype=np.float64)
        self.cb = np.ascontiguousarray(cb, dtype=np.float64)
        self.rw = np.ascontiguousarray(rw, dtype=np.float64)
        self.keys = np.ascontiguousarray(keys, dtype=np.uint64)
        self.nz = nz
        self.nstate = nstate
        self.nenv = self.keys.shape[0]
        self.nsensordata = nsensordata
        self.z = np.empty(max(nz, 1), dtype=np.float64)
        self.steps = np.zeros(self.nenv, dtype=np.uint64)
        self.state = np.zeros((self.nenv, max(nstate, 1)), dtype=np.float64)

    def run(self, cnp.ndarray data, double dt):
        """Noise ``data`` in place: float64, C-contiguous, writeable, of shape
        (nsensordata,) for one environment or (nenv, nsensordata); dt > 0 (s).
        The caller checked the shape."""
        cdef size_t nenv = <size_t>self.nenv
        if self.rows.shape[0] == 0:
            self.steps += 1
            return data
        with nogil:
            fn_mj_apply(<const fn_mj_row *>cnp.PyArray_DATA(self.rows),
                        <size_t>cnp.PyArray_DIM(self.rows, 0),
                        <const double *>cnp.PyArray_DATA(self.sd),
                        <const double *>cnp.PyArray_DATA(self.nd),
                        <const double *>cnp.PyArray_DATA(self.cb),
                        <const double *>cnp.PyArray_DATA(self.rw),
                        <size_t>self.nz, <size_t>cnp.PyArray_DIM(self.state, 1), nenv,
                        <const uint64_t *>cnp.PyArray_DATA(self.keys),
                        <uint64_t *>cnp.PyArray_DATA(self.steps), dt,
                        <double *>cnp.PyArray_DATA(data), <size_t>self.nsensordata,
                        <double *>cnp.PyArray_DATA(self.state),
                        <double *>cnp.PyArray_DATA(self.z))
        return data
