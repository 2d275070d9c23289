"""DVL sensor suite of the Metron DVL simulator document: augmented white noise and
the vN/vE/vU composite (angles in deg, depth and altitude in m, velocities in m/s,
propeller speed in rev/min).

Each sensor reports its ``anchor`` value with probability ``anchor_probability``, else
``truth + bias + noise_stddev * N(0, 1)``; everything about sample ``n`` of a sensor is a
function of its key and ``n``, so ``measure_many`` over a batch equals the same number
of ``measure`` calls bit for bit, on every SIMD path. The streams each sample draws and
the composite's rotation are on the model's page (docs/models/dvl.rst).

The module is split by concern: ``dvl_sensor`` (AugmentedWhiteNoise),
``dvl_measurement`` (DvlMeasurement and the per-sample truth), ``dvl_dtypes`` (record
layouts) and this module (DvlSimulator and its batches); every public name is
importable from here.
"""
import warnings

import numpy as np

cimport cython
cimport numpy as cnp
from libc.stdint cimport uint64_t

from fastnoise.core.buffers cimport recycled_empty
from fastnoise.core.model cimport Model, check_built, lock_model, unlock_model
from fastnoise.models.dvl.capi cimport (
    FN_DVL_NFIELDS,
    FN_DVL_NO_ROOM,
    FN_DVL_NSENSORS,
    FN_DVL_OK,
    fn_awn,
    fn_awn_init,
    fn_awn_params_of,
    fn_dvl_measure_one,
    fn_dvl_measure_span,
)
from fastnoise.models.dvl.measurement cimport (
    DvlMeasurement,
    RecordLayout,
    _Batch,
    column_arrays,
    fill_truth,
    new_batch,
    record_columns,
    record_layout,
    truth_in_place,
)
from fastnoise.models.dvl.sensor cimport AugmentedWhiteNoise

from fastnoise.core import arrays as _arrays
from fastnoise.core import threads as _threads
from fastnoise.core.model import register_model
from fastnoise.models.dvl import declarations as _declarations
from fastnoise.core.seeding import as_seed_sequence, child_seed_sequence, model_key
from fastnoise.core.deprecation import positional_options
from fastnoise.models.dvl.config import (
    MESSAGE_FIELDS,
    SENSOR_NAMES,
    TRUTH_FIELDS,
    DvlConfig,
    DvlRangeWarning,
    DvlSensorNoise,
    load_config,
)
from fastnoise.models.dvl.dtypes import MESSAGE_DTYPE, NOISE_PARAMS, TRUTH_DTYPE
from fastnoise.models.dvl import checks as _checks
from fastnoise.models.dvl import measurement as _dvl_measurement
from fastnoise.models.dvl import sensor as _dvl_sensor
from fastnoise.models.dvl.sensor import (
    LAST_POSITION,
    no_room_error,
    too_large_error,
)

__all__ = ["TRUTH_DTYPE", "MESSAGE_DTYPE", "AugmentedWhiteNoise", "DvlMeasurement",
           "DvlSimulator"]

cnp.import_array()

# measurement.pyx's record layout, for truth_in_place in measure
cdef const RecordLayout *_LAYOUT = record_layout()

# The classes made in the other dvl_* modules are public from here too (a cimported
# name is not a module attribute by itself).
globals().update(AugmentedWhiteNoise=_dvl_sensor.AugmentedWhiteNoise,
                 DvlMeasurement=_dvl_measurement.DvlMeasurement)

if len(MESSAGE_FIELDS) != FN_DVL_NFIELDS or len(TRUTH_FIELDS) != FN_DVL_NSENSORS:
    raise ImportError(f"dvl_sensors.json fields {MESSAGE_FIELDS} do not match the C core")

_UNSET = object()
# Smallest part a threaded batch is split into; below it threads cost more than they give.
_MIN_PER_THREAD = 1 << 15


cdef class DvlSimulator(Model):
    """DvlSimulator(sensors=None, *, seed=None, strict=False)
--

The DVL of the Metron DVL simulator document: ten noisy sensors and the vN/vE/vU composite.

    Parameters
    ----------
    sensors : mapping, optional
        Sensor name (``fastnoise.models.dvl.config.SENSOR_NAMES``) -> parameters, as a
        ``DvlSensorNoise`` or a dict with keys bias, noise_stddev, anchor,
        anchor_probability. Sensors and keys left out are 0 (a perfect sensor).
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

    State: the sensors nest in it. ``state['params']`` is ``{"sensors": {name:
    {bias, noise_stddev, anchor, anchor_probability}}, "strict": bool}`` (a sensor's own
    ``sensor`` and ``strict`` are fixed by the simulator: its name and ``strict``),
    ``state['position']`` is ``{"sensors": {name: {"position": n}}}``, each sensor's
    own position (they move apart when a sensor is measured on its own).

    A sensor's position stops at 2**64 - 1 (OverflowError naming the sensor), and
    ``|bias|``, ``noise_stddev``, ``|anchor|`` and finite truth values are at most 1e300,
    so finite inputs never give an inf. One simulator (and its sensors) may be shared
    by threads; no sample is handed out twice or skipped. The limits and the thread
    rules are on the model's page, :doc:`/models/dvl`.
    """

    cdef fn_awn *ps[FN_DVL_NSENSORS]
    cdef fn_awn _empty[FN_DVL_NSENSORS]
    cdef tuple _sensors
    cdef bint _strict

    def __cinit__(self, *args, **kwargs):
        # a safe empty configuration until __init__ commits one: the pointers lead to
        # this object's own zeroed sensors, never to another object's memory
        cdef int i
        for i in range(FN_DVL_NSENSORS):
            fn_awn_init(&self._empty[i], 0)
            self.ps[i] = &self._empty[i]
        self._sensors = None
        self._strict = False
        self._key = 0

    def __init__(self, sensors=None, *, seed=None, strict=False):
        # everything is built into locals and committed at the end: a failed __init__
        # leaves the simulator as it was
        sensors = _checks.check_sensors(sensors)
        ss = as_seed_sequence(seed)
        strict = _declarations.DVL_SIMULATOR.check_params({"strict": strict})["strict"]
        objs = []
        for i, name in enumerate(SENSOR_NAMES):
            params = _checks.sensor_params(name, sensors.get(name, DvlSensorNoise()))
            objs.append(AugmentedWhiteNoise(**params, seed=child_seed_sequence(ss, i),
                                            sensor=name, strict=strict))
        self._commit(tuple(objs), ss, strict, model_key(ss, "dvl"))

    cdef _commit(self, tuple sensors, ss, bint strict, uint64_t key):
        """Install fully built sensors (cannot fail): the pointers lead into objects
        this simulator holds. Under the simulator's lock, so a call never sees half
        of the old sensors and half of the new."""
        cdef int i
        _old = self._sensors  # the old sensors die after the lock is let go
        lock_model(self)
        for i in range(FN_DVL_NSENSORS):
            self.ps[i] = &(<AugmentedWhiteNoise>sensors[i]).s
        self._sensors = sensors
        unlock_model(self)
        self._seed_seq = ss
        self._strict = strict
        self._key = key
        self._built = True

    cdef tuple _sensor_objects(self):
        check_built(self)
        return self._sensors

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
        sensors = self._sensor_objects()
        ss = self._seed_seq
        seed = ss.entropy if (not ss.spawn_key and isinstance(ss.entropy, int)) else None
        return DvlConfig(sensors={name: DvlSensorNoise(*(getattr(s, p) for p in NOISE_PARAMS))
                                  for name, s in zip(SENSOR_NAMES, sensors)}, seed=seed)

    @property
    def sensors(self):
        """{sensor name: AugmentedWhiteNoise} in table order (a new dict each time)."""
        return dict(zip(SENSOR_NAMES, self._sensor_objects()))

    def __getitem__(self, name):
        sensors = self._sensor_objects()
        if not isinstance(name, str) or name not in SENSOR_NAMES:
            raise KeyError(f"{name!r} is not a DVL sensor: use one of {list(SENSOR_NAMES)}")
        return sensors[SENSOR_NAMES.index(name)]

    @property
    def strict(self):
        """Out-of-range parameters raise instead of warning."""
        return self._strict

    # a method descriptor, not a bound function object (a call through a bound method,
    # ``f = sim.measure``, then costs no argument copy)
    @cython.binding(False)
    def measure(self, truth):
        """One DVL message from ground truth.

        ``truth``: a mapping (or structured-array row) with the fields roll, pitch,
        yaw (deg), surge, sway, heave (m/s), depth, altitude (m), water_speed (m/s),
        rpm (rev/min), or a sequence of these ten values in that order (an array of
        any real dtype, byte order or stride is read by value). Values: real numbers;
        NaN and +-inf pass through, a finite value beyond 1e300 in magnitude is
        refused. Returns a ``DvlMeasurement``; every sensor advances by one sample, or
        none (a refused call changes nothing).
        """
        cdef double t[FN_DVL_NSENSORS]
        cdef DvlMeasurement m
        cdef int rc, bad = -1
        check_built(self)
        # a record or a plain array inline; any other form through fill_truth, which
        # may run Python code (a value's __float__)
        if not truth_in_place(_LAYOUT, truth, t):
            fill_truth(truth, t)
        m = <DvlMeasurement>DvlMeasurement.__new__(DvlMeasurement)  # no type test
        # Read and advance all ten positions in one C call with the GIL held and no
        # Python code inside (see the class docstring): as atomic as a locked
        # reservation, without the lock's 30-40 ns on this 0.17 us call. No Python
        # code runs between it and the error below either, so self._sensors there
        # are the sensors the call read.
        rc = fn_dvl_measure_one(self.ps, t, m.v, &bad)
        if rc != FN_DVL_OK:
            sensors = self._sensors
            if rc == FN_DVL_NO_ROOM:
                raise no_room_error(f"sensor {SENSOR_NAMES[bad]!r}",
                                    (<AugmentedWhiteNoise>sensors[bad]).s.position, 1)
            raise too_large_error(f"truth[{TRUTH_FIELDS[bad]!r}]", t[bad])
        return m

    def measure_many(self, truth, *args, out=None, threads=1):
        """DVL messages for a whole recording, equal to as many ``measure`` calls.

        ``truth``: a structured array (e.g. of ``TRUTH_DTYPE``) or a mapping of field
        name -> array (scalars broadcast). Fields and units as in ``measure``; fields
        of any real dtype, byte order, alignment or stride are read by value (copied
        when the kernel cannot read them in place), bool, complex, str, object and
        datetime fields are refused by name. Returns a structured array of
        ``MESSAGE_DTYPE`` with the broadcast shape. ``out``: such an array, native,
        C-contiguous, aligned and writeable, to fill; it may be ``truth`` itself when
        ``truth`` is a ``MESSAGE_DTYPE`` array (in place: each record is read before it
        is written), and any other overlap with the truth is refused (ValueError).
        ``threads``: split the batch over this many threads (the GIL is released); the
        values do not depend on it. The input is not modified.

        Refused before anything changes: a batch that would take a sensor past its last
        position (OverflowError naming the sensor and its position). A finite truth
        value beyond 1e300 in magnitude raises ValueError naming the field and index
        once the batch has run: its samples are then used (every position has moved
        past them) and ``out`` holds partial results.

        The memory of a large result (4 to 256 MiB) is kept for later results once it
        and every view of it are gone, which spares the kernel zeroing fresh pages
        (``fastnoise.core.buffers.release_spare_memory()`` hands it back); pass ``out`` to reuse a
        buffer of your own instead.
        """
        if args:  # 0.2 callers passed these by position
            out, threads = positional_options(
                "DvlSimulator.measure_many", args, ('out', 'threads'),
                (out, threads), (None, 1))
        self._sensor_objects()
        cdef _Batch job = new_batch()
        cdef cnp.ndarray o
        cdef size_t n
        cdef int rc, bad = -1
        cdef int nthreads = _threads.count(threads)
        get = _checks.truth_fields(truth)
        cols = None
        if record_columns(truth, job):
            shape = (cnp.PyArray_DIM(truth, 0),)
            keep = truth
        else:
            _checks.check_scalar_fields(truth)  # a record is one sample: one value a field
            shape, keep, cols = column_arrays(get, job)
        if out is None:
            _checks.check_result_size(shape, FN_DVL_NFIELDS)
            out = recycled_empty(tuple(shape), MESSAGE_DTYPE)
        else:
            _arrays.output("out", out, tuple(shape), MESSAGE_DTYPE)
            given = ({"truth": truth} if isinstance(truth, np.ndarray) else
                     {f"truth[{f!r}]": c for f, c in zip(TRUTH_FIELDS, cols)})
            _arrays.no_partial_overlap({"out": out}, given)
        o = out
        n = <size_t>cnp.PyArray_SIZE(o)
        job.op = <double *>cnp.PyArray_DATA(o)
        job.n = n
        job.keep = (keep, out)
        self._reserve(n, job)
        job.ready = True
        parts = _threads.parts(n, nthreads, _MIN_PER_THREAD)
        if parts == 1:
            with nogil:
                rc = fn_dvl_measure_span(job.snap, 0, n, job.tp, job.ts, job.op,
                                         FN_DVL_NFIELDS, &bad)
            if rc != FN_DVL_OK:
                job.code = rc
                job.bad = bad
        else:
            _threads.run_split(job.run, n, parts)
        if job.code != FN_DVL_OK:
            raise too_large_error(*_checks.too_large_value(job.bad, get, shape))
        return out

    cdef int _reserve(self, size_t n, _Batch job) except -1:
        """Reserve samples [p_j, p_j + n) of every sensor j at once, under the
        simulator's lock and in one C step with the GIL held (so no other reservation,
        the simulator's or a sensor's, can come between): the batch computes from
        copies of the sensors' parameters taken here (job.snap, with position p_j), so
        it neither reads nor writes the live sensors while the GIL is released."""
        cdef int j, bad = -1
        cdef uint64_t pos = 0
        lock_model(self)
        for j in range(FN_DVL_NSENSORS):
            if n > <uint64_t>LAST_POSITION - self.ps[j].position:
                bad = j
                pos = self.ps[j].position
                break
        if bad < 0:
            for j in range(FN_DVL_NSENSORS):
                job.snap[j] = fn_awn_params_of(self.ps[j])
                self.ps[j].position += n
        unlock_model(self)
        if bad >= 0:
            raise no_room_error(f"sensor {SENSOR_NAMES[bad]!r}", pos, n)
        return 0

    def reset(self):
        """Rewind every sensor to sample 0 (parameters are kept), all at once."""
        cdef int j
        self._sensor_objects()
        lock_model(self)
        for j in range(FN_DVL_NSENSORS):
            self.ps[j].position = 0
        unlock_model(self)

    # ---- the model contract (fastnoise.core.model) ---------------------------------
    model_name = "dvl_simulator"
    declaration = _declarations.DVL_SIMULATOR

    def _model_params(self):
        sensors = self._sensor_objects()
        return {"sensors": {name: {p: getattr(s, p) for p in NOISE_PARAMS}
                            for name, s in zip(SENSOR_NAMES, sensors)},
                "strict": bool(self._strict)}

    def _position(self):
        return {"sensors": {name: {"position": int(s.position)}
                            for name, s in zip(SENSOR_NAMES, self._sensor_objects())}}

    def _set_position(self, position):
        pos = _checks.check_position(position)
        for s, p in zip(self._sensor_objects(), pos):  # all checked: now applied
            s.position = p

    @classmethod
    def from_state(cls, state, **extras):
        """A new simulator from a ``state`` dict (see ``fastnoise.core.model``).
        Out-of-range values were warned about when the state's model was built: not
        again."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DvlRangeWarning)
            return super(DvlSimulator, cls).from_state(state, **extras)


register_model(DvlSimulator)
