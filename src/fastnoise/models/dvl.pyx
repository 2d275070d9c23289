"""DVL sensor suite (seed 000): augmented white noise and the vN/vE/vU composite.

Each sensor reports, per sample, its ``anchor`` value with probability
``anchor_probability``, else ``truth + bias + noise_dev * N(0, 1)``. The normal is
drawn on every sample, anchored or not. Sample ``n`` of a sensor with key ``k`` uses
normal ``n`` of Philox stream ``(k, 0)``, drawn in float32 (the float64 normal to
float32 accuracy, about 1e-7 relative, at half the cost; the arithmetic stays
float64); it is anchored iff ``h < F``, or ``h == F``
and ``v < R``, where ``P = anchor_probability * 2**16``, ``F = floor(P)``, ``R = P - F``,
``h`` = 16-bit half ``n % 8`` of Philox block ``n // 8`` of stream ``(k, 1)`` (the
block's four words split low half first) and ``v`` = word 0 of block ``n`` of stream
``(k, 2)`` times ``2**-32`` (so the anchor rate is p to within 2**-48, p = 0 never
anchors and p = 1 always does). Everything about sample ``n`` is a function of
``(k, n)``, so ``measure_many`` over a batch equals the same number of ``measure``
calls bit for bit, on every SIMD path.

Units are those of the seed: angles in degrees, depth and altitude in m, velocities in
m/s, propeller speed in rev/min. The composite uses R = Rz(yaw) Ry(pitch) Rx(roll)
(body -> NED) built from the measured angles: (vN, vE, vD) = R (surge, sway, heave),
vU = -vD, all in m/s.
"""

from collections.abc import Mapping

import warnings

import numpy as np

cimport numpy as cnp
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport uint64_t

from fastnoise.core.buffers cimport recycled_empty


from fastnoise.core import threads as _threads


from fastnoise.core import validate as _validate
from fastnoise.core.seeding import (
    as_seed_sequence,
    child_seed_sequence,
    model_key,
    seed_sequence_from_state,
    seed_sequence_state,
)
from fastnoise.io.dvl_config import (
    MESSAGE_FIELDS,
    SENSOR_NAMES,
    TRUTH_FIELDS,
    DvlConfig,
    DvlRangeWarning,
    SensorNoise,
    check_noise_params,
    load_config,
)

cnp.import_array()


cdef extern from "dvl.h" nogil:
    enum:
        FN_DVL_NSENSORS
        FN_DVL_NFIELDS

    ctypedef struct fn_awn:
        double bias
        double noise_dev
        double anchor
        double anchor_probability
        uint64_t key
        uint64_t position

    void fn_awn_init(fn_awn *s, uint64_t key)
    double fn_awn_measure_one(fn_awn *s, double truth)
    void fn_awn_measure_many(fn_awn *s, size_t n, const double *truth,
                             ptrdiff_t truth_stride, double *out, ptrdiff_t out_stride)
    void fn_dvl_measure_one(fn_awn **sensors, const double *truth, double *out)
    void fn_dvl_measure_many(fn_awn **sensors, size_t n, const double **truth,
                             const ptrdiff_t *truth_stride, double *out,
                             ptrdiff_t out_stride)
    void fn_dvl_measure_span(fn_awn **sensors, uint64_t offset, size_t n,
                             const double **truth, const ptrdiff_t *truth_stride,
                             double *out, ptrdiff_t out_stride)


# The C core fixes the order of the sensors; the table in the package must agree.
_C_ORDER = ("roll", "pitch", "yaw", "surge", "sway", "heave", "depth", "altitude",
            "water_speed", "rpm")
if TRUTH_FIELDS != _C_ORDER or len(MESSAGE_FIELDS) != FN_DVL_NFIELDS:
    raise ImportError(f"dvl_sensors.json fields {TRUTH_FIELDS} do not match the C order "
                      f"{_C_ORDER}")

#: Structured dtype of ground truth for ``DvlSimulator.measure_many`` (float64 fields).
TRUTH_DTYPE = np.dtype([(f, np.float64) for f in TRUTH_FIELDS])
#: Structured dtype of DVL messages: the measured fields, then vn, ve, vu (float64).
MESSAGE_DTYPE = np.dtype([(f, np.float64) for f in MESSAGE_FIELDS])
_PARAMS = ("bias", "noise_dev", "anchor", "anchor_probability")
cdef tuple _FIELDS = TRUTH_FIELDS
cdef object _F64 = np.dtype(np.float64)
_UNSET = object()
# Smallest part a threaded batch is split into; below it threads cost more than they give.
_MIN_PER_THREAD = 1 << 15


def _strict_flag(strict):
    if not isinstance(strict, (bool, np.bool_)):
        raise TypeError(f"strict={strict!r} is not allowed: it must be True or False")
    return bool(strict)


cdef class AugmentedWhiteNoise:
    """Augmented white noise of one sensor (seed 000).

    Parameters
    ----------
    bias : float
        Added to every non-anchored value (units of the measured quantity).
    noise_dev : float
        Standard deviation of the white noise (same units), >= 0.
    anchor : float
        Value sent instead of the measurement when the anchor event occurs (same
        units; any finite value).
    anchor_probability : float
        Probability of the anchor event per sample, in [0, 1].
    seed : int, numpy.random.SeedSequence or None
        Seeds the sensor's own streams (``None``: fresh entropy, kept in ``seed``).
    sensor : str or None
        A name from the sensor table (``fastnoise.io.dvl_config.SENSOR_NAMES``): enables
        the reasonable-range check of bias and noise_dev.
    strict : bool
        Out-of-range values raise ``ValueError`` instead of warning.

    Non-finite values, ``noise_dev < 0`` and ``anchor_probability`` outside [0, 1] are
    errors. Parameters may be changed between samples (e.g. a fault injected mid-run);
    the noise and anchor draws of sample ``n`` do not depend on them.
    """

    cdef fn_awn s
    cdef object _seed_seq
    cdef object _sensor
    cdef bint _strict

    def __init__(self, bias=0.0, noise_dev=0.0, anchor=0.0, anchor_probability=0.0, *,
                 seed=None, sensor=None, strict=False):
        self._strict = _strict_flag(strict)
        b, sd, a, p = check_noise_params(bias, noise_dev, anchor, anchor_probability,
                                         sensor=sensor, strict=self._strict)
        self._seed_seq = as_seed_sequence(seed)
        self._sensor = sensor
        fn_awn_init(&self.s, model_key(self._seed_seq, "dvl"))
        self.s.bias = b
        self.s.noise_dev = sd
        self.s.anchor = a
        self.s.anchor_probability = p

    cdef _set(self, str name, value):
        vals = {"bias": self.s.bias, "noise_dev": self.s.noise_dev,
                "anchor": self.s.anchor, "anchor_probability": self.s.anchor_probability}
        vals[name] = value
        b, sd, a, p = check_noise_params(**vals, sensor=self._sensor, strict=self._strict)
        self.s.bias = b
        self.s.noise_dev = sd
        self.s.anchor = a
        self.s.anchor_probability = p

    @property
    def bias(self):
        """Bias added to non-anchored values (units of the quantity)."""
        return self.s.bias

    @bias.setter
    def bias(self, value):
        self._set("bias", value)

    @property
    def noise_dev(self):
        """White-noise standard deviation (units of the quantity), >= 0."""
        return self.s.noise_dev

    @noise_dev.setter
    def noise_dev(self, value):
        self._set("noise_dev", value)

    @property
    def anchor(self):
        """Value sent on an anchor event (units of the quantity)."""
        return self.s.anchor

    @anchor.setter
    def anchor(self, value):
        self._set("anchor", value)

    @property
    def anchor_probability(self):
        """Probability of an anchor event per sample, in [0, 1]."""
        return self.s.anchor_probability

    @anchor_probability.setter
    def anchor_probability(self, value):
        self._set("anchor_probability", value)

    @property
    def position(self):
        """Index of the next sample (each sample's draws are fixed by it)."""
        return self.s.position

    @position.setter
    def position(self, value):
        self.s.position = _validate.integer("position", value, 0, 2**64)

    @property
    def key(self):
        """64-bit Philox key of this sensor."""
        return self.s.key

    @property
    def seed(self):
        """The numpy.random.SeedSequence the key came from."""
        return self._seed_seq

    @property
    def sensor(self):
        """Sensor-table name (or None): selects the reasonable ranges."""
        return self._sensor

    @property
    def strict(self):
        return self._strict

    def measure(self, double truth):
        """The measured value of ``truth`` for the next sample (units of the quantity).

        NaN/Inf truth propagate unless the anchor fires.
        """
        return fn_awn_measure_one(&self.s, truth)

    def measure_many(self, truth, out=None):
        """Measured values of the next ``truth.size`` samples (float64, shape of
        ``truth``), equal to as many ``measure`` calls. ``out``: float64 C-contiguous
        array of that shape to fill. ``truth`` is not modified."""
        t = _as_float_array("truth", truth)
        if out is None:
            out = recycled_empty(tuple(t.shape), np.float64)
        else:
            _validate.output_array("out", out, t.shape, np.dtype(np.float64))
        t = np.ascontiguousarray(t).reshape(-1)
        cdef double[::1] tv = t
        cdef cnp.ndarray o = out
        cdef double *op = <double *>cnp.PyArray_DATA(o)
        cdef size_t n = t.shape[0]
        cdef const double *tp = &tv[0] if n else NULL
        with nogil:
            fn_awn_measure_many(&self.s, n, tp, 1, op, 1)
        return out

    def reset(self):
        """Rewind to sample 0 (parameters are kept)."""
        self.s.position = 0

    @property
    def state(self):
        """A dict that rebuilds this object exactly (parameters, seed, position)."""
        return {"bias": self.s.bias, "noise_dev": self.s.noise_dev, "anchor": self.s.anchor,
                "anchor_probability": self.s.anchor_probability,
                "seed": seed_sequence_state(self._seed_seq), "sensor": self._sensor,
                "strict": self._strict, "position": self.s.position}

    @classmethod
    def from_state(cls, state):
        """Inverse of ``state`` (out-of-range values were warned about already)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DvlRangeWarning)
            obj = cls(state["bias"], state["noise_dev"], state["anchor"],
                      state["anchor_probability"],
                      seed=seed_sequence_from_state(state["seed"]),
                      sensor=state["sensor"], strict=state["strict"])
        obj.position = state["position"]
        return obj

    def copy(self):
        """An independent copy that continues with the same values."""
        return AugmentedWhiteNoise.from_state(self.state)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (AugmentedWhiteNoise.from_state, (self.state,))

    def __repr__(self):
        name = f"sensor={self._sensor!r}, " if self._sensor is not None else ""
        return (f"AugmentedWhiteNoise({name}bias={self.s.bias!r}, "
                f"noise_dev={self.s.noise_dev!r}, anchor={self.s.anchor!r}, "
                f"anchor_probability={self.s.anchor_probability!r}, "
                f"position={self.s.position})")


cdef class DvlMeasurement:
    """One DVL message: measured roll, pitch, yaw (deg), surge, sway, heave (m/s),
    depth, altitude (m), water_speed (m/s), rpm (rev/min), and the composite vn, ve,
    vu (m/s). Read-only; ``m["vn"]`` and ``m.as_dict()`` also work."""

    cdef double v[FN_DVL_NFIELDS]

    fields = MESSAGE_FIELDS

    def __init__(self, *values):
        if len(values) != FN_DVL_NFIELDS:
            raise TypeError(f"DvlMeasurement takes {FN_DVL_NFIELDS} values "
                            f"{MESSAGE_FIELDS}, got {len(values)}")
        for i, x in enumerate(values):
            self.v[i] = float(x)

    @property
    def roll(self):
        """Measured roll (deg)."""
        return self.v[0]

    @property
    def pitch(self):
        """Measured pitch (deg)."""
        return self.v[1]

    @property
    def yaw(self):
        """Measured yaw (deg)."""
        return self.v[2]

    @property
    def surge(self):
        """Measured surge velocity (m/s)."""
        return self.v[3]

    @property
    def sway(self):
        """Measured sway velocity (m/s)."""
        return self.v[4]

    @property
    def heave(self):
        """Measured heave velocity (m/s)."""
        return self.v[5]

    @property
    def depth(self):
        """Measured depth (m)."""
        return self.v[6]

    @property
    def altitude(self):
        """Measured altitude above the bottom (m)."""
        return self.v[7]

    @property
    def water_speed(self):
        """Measured water speed (m/s)."""
        return self.v[8]

    @property
    def rpm(self):
        """Measured propeller speed (rev/min)."""
        return self.v[9]

    @property
    def vn(self):
        """North velocity from the measured angles and body velocities (m/s)."""
        return self.v[10]

    @property
    def ve(self):
        """East velocity (m/s)."""
        return self.v[11]

    @property
    def vu(self):
        """Up velocity, -(R v)_down (m/s)."""
        return self.v[12]

    def __getitem__(self, name):
        try:
            i = MESSAGE_FIELDS.index(name)
        except ValueError:
            raise KeyError(f"{name!r} is not a DVL message field: use one of "
                           f"{MESSAGE_FIELDS}") from None
        return self.v[i]

    def as_dict(self):
        """{field: value} in message order."""
        return {f: self.v[i] for i, f in enumerate(MESSAGE_FIELDS)}

    def __iter__(self):
        return iter([self.v[i] for i in range(FN_DVL_NFIELDS)])

    def __len__(self):
        return FN_DVL_NFIELDS

    def __eq__(self, other):
        if not isinstance(other, DvlMeasurement):
            return NotImplemented
        return tuple(self) == tuple(other)

    def __hash__(self):
        return hash(tuple(self))

    def __reduce__(self):
        return (DvlMeasurement, tuple(self))

    def __repr__(self):
        body = ", ".join(f"{f}={self.v[i]!r}" for i, f in enumerate(MESSAGE_FIELDS))
        return f"DvlMeasurement({body})"


def _as_float_array(name, value):
    arr = np.asarray(value)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} has dtype {arr.dtype}: it must hold real numbers")
    return arr.astype(np.float64, copy=False)


def _sensor_params(name, value):
    """Keyword parameters of one sensor from a SensorNoise or a mapping."""
    if isinstance(value, SensorNoise):
        return {p: getattr(value, p) for p in _PARAMS}
    if isinstance(value, Mapping):
        extra = set(value) - set(_PARAMS)
        if extra:
            raise ValueError(f"unknown parameter(s) {sorted(extra)} for sensor {name!r}: "
                             f"use {list(_PARAMS)}")
        return dict(value)
    raise TypeError(f"sensors[{name!r}]={value!r} is not allowed: use a SensorNoise or a "
                    f"dict with keys {list(_PARAMS)}")


cdef class DvlSimulator:
    """The DVL of seed 000: ten noisy sensors and the vN/vE/vU composite.

    Parameters
    ----------
    sensors : mapping, optional
        Sensor name (``fastnoise.io.dvl_config.SENSOR_NAMES``) -> parameters, as a
        ``SensorNoise`` or a dict with keys bias, noise_dev, anchor,
        anchor_probability. Sensors left out are perfect (all parameters 0).
    seed : int, numpy.random.SeedSequence or None
        Sensor ``i`` (table order: roll, pitch, yaw, surge, sway, heave, depth,
        altitude, water_speed, RPM) uses child ``i`` of this seed, as
        ``SeedSequence.spawn`` makes them, and its key is
        ``model_key(child, "dvl")``; the given sequence is not changed.
    strict : bool
        Parameters outside the reasonable ranges raise instead of warning.

    Units: angles deg, depth/altitude m, velocities m/s, propeller speed rev/min.
    ``sim["dvl_yaw"]`` (or ``sim.sensors``) gives a sensor's ``AugmentedWhiteNoise``,
    whose parameters may be changed between samples (calling that sensor's own
    ``measure`` advances only that sensor).
    """

    cdef fn_awn *ps[FN_DVL_NSENSORS]
    cdef tuple _sensors
    cdef object _seed_seq
    cdef bint _strict

    def __init__(self, sensors=None, *, seed=None, strict=False):
        if sensors is None:
            sensors = {}
        if not isinstance(sensors, Mapping):
            raise TypeError(f"sensors must be a mapping of sensor name -> parameters, got "
                            f"{type(sensors).__name__}")
        unknown = [k for k in sensors if k not in SENSOR_NAMES]
        if unknown:
            raise ValueError(f"unknown sensor(s) {unknown}: use {list(SENSOR_NAMES)}")
        self._seed_seq = as_seed_sequence(seed)
        self._strict = _strict_flag(strict)
        objs = []
        cdef AugmentedWhiteNoise awn
        for i, name in enumerate(SENSOR_NAMES):
            params = _sensor_params(name, sensors.get(name, SensorNoise()))
            awn = AugmentedWhiteNoise(**params, seed=child_seed_sequence(self._seed_seq, i),
                                      sensor=name, strict=self._strict)
            self.ps[i] = &awn.s
            objs.append(awn)
        self._sensors = tuple(objs)

    @classmethod
    def from_config(cls, config, *, seed=_UNSET, strict=False):
        """Build from a DvlConfig, a JSON path, an open JSON file or a dict in the JSON
        layout. ``seed`` overrides the configuration's seed."""
        loaded = not isinstance(config, DvlConfig)
        if loaded:
            config = load_config(config, strict=strict)  # it warns about each range...
        with warnings.catch_warnings():
            if loaded:  # ... so the sensors need not warn again
                warnings.simplefilter("ignore", DvlRangeWarning)
            return cls(config.sensors, seed=config.seed if seed is _UNSET else seed,
                       strict=strict)

    def to_config(self):
        """The current parameters and seed as a DvlConfig (``save_config`` writes it).

        The seed is recorded when it is an int or a fresh (non-spawned) SeedSequence
        with int entropy; else it is None."""
        ss = self._seed_seq
        seed = ss.entropy if (not ss.spawn_key and isinstance(ss.entropy, int)) else None
        sensors = {name: SensorNoise(*(getattr(s, p) for p in _PARAMS))
                   for name, s in zip(SENSOR_NAMES, self._sensors)}
        return DvlConfig(sensors=sensors, seed=seed)

    @property
    def sensors(self):
        """{sensor name: AugmentedWhiteNoise} in table order (a new dict each time)."""
        return dict(zip(SENSOR_NAMES, self._sensors))

    def __getitem__(self, name):
        try:
            return self._sensors[SENSOR_NAMES.index(name)]
        except ValueError:
            raise KeyError(f"{name!r} is not a DVL sensor: use one of "
                           f"{list(SENSOR_NAMES)}") from None

    @property
    def seed(self):
        """The numpy.random.SeedSequence of the simulator."""
        return self._seed_seq

    @property
    def strict(self):
        return self._strict

    def measure(self, truth):
        """One DVL message from ground truth.

        ``truth``: a mapping (or structured-array row) with the fields roll, pitch,
        yaw (deg), surge, sway, heave (m/s), depth, altitude (m), water_speed (m/s),
        rpm (rev/min), or a sequence of these ten values in that order. Returns a
        ``DvlMeasurement``; every sensor advances by one sample.
        """
        cdef double t[FN_DVL_NSENSORS]
        cdef DvlMeasurement m = DvlMeasurement.__new__(DvlMeasurement)
        _fill_truth(truth, t)
        fn_dvl_measure_one(self.ps, t, m.v)
        return m

    def measure_many(self, truth, out=None, threads=1):
        """DVL messages for a whole recording, equal to as many ``measure`` calls.

        ``truth``: a structured array (e.g. of ``TRUTH_DTYPE``) or a mapping of field
        name -> array (scalars broadcast). Fields and units as in ``measure``. Returns a
        structured array of ``MESSAGE_DTYPE`` with the broadcast shape (``out``: such
        an array, C-contiguous, to fill). ``threads``: split the batch over this many
        threads (the GIL is released); the values do not depend on it. The input is
        not modified.

        The memory of a large result (4 to 256 MiB) is kept for later results once it
        and every view of it are gone, which spares the kernel zeroing fresh pages
        (``fastnoise.release_spare_memory()`` hands it back); pass ``out`` to reuse a
        buffer of your own instead.
        """
        cdef _Batch job = _Batch.__new__(_Batch)
        cdef int j
        cdef cnp.ndarray o
        cdef size_t n
        cdef int nthreads = _threads.count(threads)
        if isinstance(truth, np.ndarray) and truth.dtype.names is not None:
            names = truth.dtype.names
            get = truth.__getitem__
        elif isinstance(truth, Mapping):
            names = truth.keys()
            get = truth.__getitem__
        else:
            raise TypeError(f"truth must be a structured array or a mapping of field -> "
                            f"array, got {type(truth).__name__}")
        missing = [f for f in TRUTH_FIELDS if f not in names]
        if missing:
            raise ValueError(f"truth lacks field(s) {missing}: it needs {list(TRUTH_FIELDS)}")
        if _record_columns(truth, job):
            shape = (cnp.PyArray_DIM(truth, 0),)
            keep = truth
        else:
            shape, keep = _column_arrays(get, job)
        if out is None:
            out = recycled_empty(tuple(shape), MESSAGE_DTYPE)
        else:
            _validate.output_array("out", out, shape, MESSAGE_DTYPE)
        o = out
        n = <size_t>cnp.PyArray_SIZE(o)
        job.op = <double *>cnp.PyArray_DATA(o)
        job.sim = self
        job.keep = (keep, out)
        parts = _threads.parts(n, nthreads, _MIN_PER_THREAD)
        if parts == 1:
            with nogil:
                fn_dvl_measure_many(self.ps, n, job.tp, job.ts, job.op, FN_DVL_NFIELDS)
            return out
        _threads.run_split(job.run, n, parts)
        for j in range(FN_DVL_NSENSORS):
            self.ps[j].position += n
        return out

    def reset(self):
        """Rewind every sensor to sample 0 (parameters are kept)."""
        for s in self._sensors:
            s.reset()

    @property
    def state(self):
        """A dict that rebuilds this simulator exactly."""
        return {"seed": seed_sequence_state(self._seed_seq), "strict": self._strict,
                "sensors": {n: s.state for n, s in zip(SENSOR_NAMES, self._sensors)}}

    @classmethod
    def from_state(cls, state):
        """Inverse of ``state`` (out-of-range values were warned about already)."""
        sensors = {n: {p: st[p] for p in _PARAMS} for n, st in state["sensors"].items()}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DvlRangeWarning)
            sim = cls(sensors, seed=seed_sequence_from_state(state["seed"]),
                      strict=state["strict"])
        for n, st in state["sensors"].items():
            sim[n].position = st["position"]
        return sim

    def copy(self):
        """An independent copy that continues with the same messages."""
        return DvlSimulator.from_state(self.state)

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        return (DvlSimulator.from_state, (self.state,))

    def __repr__(self):
        return (f"DvlSimulator(seed={self._seed_seq.entropy!r}, "
                f"position={self._sensors[0].position})")


cdef class _Batch:
    """Pointers of one measure_many call, so parts of it can run on several threads."""

    cdef DvlSimulator sim
    cdef const double *tp[FN_DVL_NSENSORS]
    cdef ptrdiff_t ts[FN_DVL_NSENSORS]
    cdef double *op
    cdef object keep

    def run(self, size_t start, size_t count):
        cdef const double *tp[FN_DVL_NSENSORS]
        cdef int j
        for j in range(FN_DVL_NSENSORS):
            tp[j] = self.tp[j] + <ptrdiff_t>start * self.ts[j]
        with nogil:
            fn_dvl_measure_span(self.sim.ps, start, count, tp, self.ts,
                                self.op + start * FN_DVL_NFIELDS, FN_DVL_NFIELDS)


cdef bint _record_columns(truth, _Batch job) except -1:
    """Column pointers straight into a 1-D structured array whose ten truth fields are
    aligned native float64 (no field views made: a small batch's set-up is mostly
    that). False when the layout needs the general path."""
    cdef cnp.ndarray arr
    cdef char *base
    cdef Py_ssize_t stride, off
    cdef int j
    if type(truth) is not np.ndarray or cnp.PyArray_NDIM(truth) != 1:
        return False
    arr = <cnp.ndarray>truth
    base = <char *>cnp.PyArray_DATA(arr)
    stride = cnp.PyArray_STRIDE(arr, 0)
    if stride % 8 or (<size_t>base) % 8:
        return False
    fields = arr.dtype.fields
    for j in range(FN_DVL_NSENSORS):
        ft = fields[_FIELDS[j]]
        if ft[0] != _F64:
            return False
        off = ft[1]
        if off % 8:
            return False
        job.tp[j] = <const double *>(base + off)
        job.ts[j] = stride // 8
    return True


cdef tuple _column_arrays(get, _Batch job):
    """Columns of any mapping or structured array as float64 arrays broadcast to one
    shape; their pointers into job. Returns (shape, arrays to keep alive)."""
    cdef int j
    cdef cnp.ndarray col
    cols = [_as_float_array(f"truth[{f!r}]", get(f)) for f in TRUTH_FIELDS]
    shape = cols[0].shape
    same = all([c.shape == shape for c in cols])
    if not same:
        shape = np.broadcast_shapes(*(c.shape for c in cols))
    keep = []
    for j in range(FN_DVL_NSENSORS):
        c = cols[j] if same else np.broadcast_to(cols[j], shape)
        if c.ndim > 1 or not c.flags.aligned or (c.ndim == 1 and c.strides[0] % 8):
            c = np.ascontiguousarray(c).reshape(-1)
        col = c
        keep.append(col)
        job.tp[j] = <const double *>cnp.PyArray_DATA(col)
        job.ts[j] = col.strides[0] // 8 if col.ndim == 1 else 0
    return shape, keep


cdef double _real(str name, value) except? -1.0:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"truth[{name!r}]={value!r} is not allowed: it must be a real number")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"truth[{name!r}]={value!r} is not allowed: it must be a real "
                        f"number") from None


cdef int _fill_truth(truth, double *t) except -1:
    """Ground truth of one message into t[0..10): fast paths for dict, list, tuple and
    float64 arrays (a per-sample call in a control loop), then any mapping, structured
    row or sequence."""
    cdef Py_ssize_t i
    cdef object v
    cdef dict d
    cdef cnp.ndarray arr
    cdef char *base
    cdef Py_ssize_t step
    if type(truth) is dict:
        d = <dict>truth
        for i in range(FN_DVL_NSENSORS):
            v = d.get(_FIELDS[i])
            if type(v) is float:
                t[i] = <double>v
            elif v is None:
                raise ValueError(f"truth lacks field {_FIELDS[i]!r}: it needs "
                                 f"{list(TRUTH_FIELDS)}")
            else:
                t[i] = _real(_FIELDS[i], v)
        return 0
    if type(truth) is list or type(truth) is tuple:
        _check_len(truth)
        for i in range(FN_DVL_NSENSORS):
            v = truth[i]
            t[i] = <double>v if type(v) is float else _real(_FIELDS[i], v)
        return 0
    if (type(truth) is np.ndarray and cnp.PyArray_TYPE(truth) == cnp.NPY_FLOAT64
            and cnp.PyArray_NDIM(truth) == 1):
        _check_len(truth)
        arr = <cnp.ndarray>truth
        base = <char *>cnp.PyArray_DATA(arr)
        step = cnp.PyArray_STRIDE(arr, 0)
        for i in range(FN_DVL_NSENSORS):
            t[i] = (<double *>(base + i * step))[0]
        return 0
    if isinstance(truth, (Mapping, np.void)):
        for i in range(FN_DVL_NSENSORS):
            try:
                v = truth[_FIELDS[i]]
            except (KeyError, ValueError, IndexError):
                raise ValueError(f"truth lacks field {_FIELDS[i]!r}: it needs "
                                 f"{list(TRUTH_FIELDS)}") from None
            t[i] = _real(_FIELDS[i], v)
        return 0
    if isinstance(truth, (str, bytes)):
        raise TypeError(f"truth={truth!r} is not allowed: use a mapping of "
                        f"{TRUTH_FIELDS} or a sequence of 10 values")
    _check_len(truth)
    for i in range(FN_DVL_NSENSORS):
        t[i] = _real(_FIELDS[i], truth[i])
    return 0


cdef int _check_len(truth) except -1:
    if len(truth) != FN_DVL_NSENSORS:
        raise ValueError(f"truth has {len(truth)} values: it needs 10, in the order "
                         f"{TRUTH_FIELDS}")
    return 0
