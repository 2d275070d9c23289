"""Per-sample fast paths (issue 28): each scalar call gives, bit for bit, what the
array path gives for the same state, and still refuses what it refused before."""

from __future__ import annotations

import numpy as np
import pytest

from fastnoise import (
    DvlSimulator,
    ForceTorqueNoise,
    GaussianNoiseGenerator,
    GazeboNoise,
    MagnetometerNoise,
)
from fastnoise.core.generator import generator_at_key
from fastnoise.models.dvl import TRUTH_DTYPE
from fastnoise.models.dvl.config import SENSOR_NAMES

TRUTH = (2.0, -1.0, 45.0, 1.5, 0.2, -0.1, 20.0, 5.0, 1.4, 900.0)
DVL_SENSORS = {
    name: {"bias": 0.01, "noise_stddev": 0.05, "anchor": 3.0, "anchor_probability": 0.2}
    for name in ("dvl_roll", "dvl_pitch", "dvl_yaw", "dvl_surge", "dvl_sway", "RPM")
}


def _bits(x):
    return np.asarray(x).view(np.uint64 if np.asarray(x).dtype == np.float64 else np.uint32)


# ---- the generator -----------------------------------------------------------------------


@pytest.mark.parametrize("skip", [0, 1, 15, 16, 17, 31])
def test_standard_normal_scalar_is_first_of_array(skip):
    """standard_normal() == standard_normal(1)[0] == standard_normal(5)[0] from the
    same state, at every place in a 16-value group."""
    g = GaussianNoiseGenerator(7, 3)
    g.advance(skip)
    a, b = g.copy(), g.copy()
    z = g.standard_normal()
    assert type(z) is float
    assert _bits(z) == _bits(a.standard_normal(1)[0])
    assert _bits(z) == _bits(b.standard_normal(5)[0])
    assert g.position == a.position == skip + 1


def test_standard_normal_scalar_run_equals_array():
    """n scalar calls give the same n values as one array call, mixed with generate."""
    g, h = GaussianNoiseGenerator(11), GaussianNoiseGenerator(11)
    got = [g.standard_normal() if k % 3 else g.generate() for k in range(40)]
    assert np.array_equal(_bits(np.array(got)), _bits(h.standard_normal(40)))


@pytest.mark.parametrize("start", [0, 4 * (2**32 - 8) + 5])
def test_one_group_refills_give_the_scalar_bits_on_every_simd_path(start):
    """A per-sample call refills one group of 16 normals (4 Philox blocks) at a time,
    which the vector paths compute 4 blocks to a vector (fn_philox_avx2_4): every
    path gives the scalar path's values, and one array call's, for both dtypes, up to
    and past block 2**32 (the block counter's high word)."""
    from fastnoise.core import simd

    def draws(dtype):
        g = GaussianNoiseGenerator(99, 4)
        g.advance(start)
        if dtype == np.float32:
            return np.array([g.standard_normal(dtype=np.float32) for _ in range(200)])
        return np.array([g.standard_normal() if k % 2 else g.generate() for k in range(200)])

    before = simd.simd_path()
    try:
        simd.set_simd_path("scalar")
        want = {dt: draws(dt) for dt in (np.float64, np.float32)}
        ref = GaussianNoiseGenerator(99, 4)
        ref.advance(start)
        assert np.array_equal(_bits(want[np.float64]), _bits(ref.standard_normal(200)))
        for path in simd.simd_paths_available():
            simd.set_simd_path(path)
            for dt, values in want.items():
                assert np.array_equal(_bits(draws(dt)), _bits(values)), (path, dt)
    finally:
        simd.set_simd_path(before)


def test_standard_normal_scalar_float32():
    g = GaussianNoiseGenerator(5)
    a = g.copy()
    z = g.standard_normal(dtype=np.float32)
    assert type(z) is np.float32
    assert _bits(z) == _bits(a.standard_normal(1, dtype=np.float32)[0])


@pytest.mark.parametrize(("loc", "scale"), [(0.0, 1.0), (0.5, 2.0), (-3.25, 1e-3), (1e10, 0.0)])
def test_normal_scalar_is_first_of_array(loc, scale):
    g = GaussianNoiseGenerator(9)
    g.advance(5)
    a, b = g.copy(), g.copy()
    z = g.normal(loc, scale)
    assert type(z) is float
    assert _bits(z) == _bits(a.normal(loc, scale, size=1)[0])
    assert _bits(z) == _bits(b.normal(np.full(3, loc), scale)[0])


def test_normal_scalar_keywords_and_numpy_scalars():
    """Keywords, ints and numpy scalars take the checked path: the same bits."""
    g, h = GaussianNoiseGenerator(2), GaussianNoiseGenerator(2)
    assert g.normal(loc=1.0, scale=2.0) == h.normal(1.0, 2.0, size=1)[0]
    assert g.normal(np.float64(1.0), 2) == h.normal(1.0, 2.0, size=1)[0]


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "match"),
    [
        ((float("nan"), 1.0), {}, ValueError, "loc"),
        ((0.0, -1.0), {}, ValueError, "scale"),
        ((0.0, float("inf")), {}, ValueError, "scale"),
        ((0.0, 1.0), {"threads": 0}, ValueError, "threads"),
        ((0.0, 1.0), {"threads": "2"}, TypeError, "threads"),
        ((0.0, 1.0), {"dtype": np.int32}, (TypeError, ValueError), "dtype"),
    ],
)
def test_normal_scalar_refusals_change_nothing(args, kwargs, exc, match):
    g = GaussianNoiseGenerator(1)
    with pytest.raises(exc, match=match):
        g.normal(*args, **kwargs)
    assert g.position == 0


def test_standard_normal_scalar_refusals():
    g = GaussianNoiseGenerator(1)
    with pytest.raises(ValueError, match="threads"):
        g.standard_normal(threads=0)
    with pytest.raises(TypeError, match="normal"):
        g.normal(100)  # the 0.2.0 size trap stays refused
    assert g.position == 0


def test_scalar_at_stream_end():
    g = generator_at_key(1, 0, 2**64 - 2)
    g.standard_normal()
    with pytest.raises(OverflowError, match="end of the stream"):
        g.standard_normal()
    with pytest.raises(OverflowError, match="end of the stream"):
        g.normal(1.0, 2.0)
    assert g.position == 2**64 - 1


def test_batch_generator_keeps_its_shape():
    """With num_envs the no-size draw is still one value per environment."""
    g = GaussianNoiseGenerator(3, num_envs=4)
    h = GaussianNoiseGenerator(3, num_envs=4)
    assert np.array_equal(g.standard_normal(), h.standard_normal(size=()))
    assert g.standard_normal().shape == (4,)


# ---- DvlSimulator.measure ------------------------------------------------------------------


def _dvl():
    return DvlSimulator(DVL_SENSORS, seed=4)


def _values(m):
    return np.array([m[f] for f in m.fields])


def _reference(n=6):
    """n messages of measure_many for the TRUTH row repeated."""
    truth = np.array([TRUTH] * n, dtype=TRUTH_DTYPE)
    res = _dvl().measure_many(truth)
    return res.view((np.float64, len(res.dtype.names)))


def _record_in(dtype):
    arr = np.zeros(3, dtype=dtype)
    for f, v in zip(TRUTH_DTYPE.names, TRUTH, strict=True):
        arr[f] = v
    return arr[1]


_FIELDS = list(TRUTH_DTYPE.names)

RECORD_DTYPES = {
    "truth_dtype": TRUTH_DTYPE,
    "reordered": np.dtype([(f, "<f8") for f in reversed(_FIELDS)]),
    "big_endian": np.dtype([(f, ">f8") for f in _FIELDS]),
    "float32": np.dtype([(f, "<f4") for f in _FIELDS]),
    "packed_unaligned": np.dtype([("flag", "u1")] + [(f, "<f8") for f in _FIELDS]),
    "extra_fields": np.dtype([(f, "<f8") for f in _FIELDS] + [("t", "<f8")]),
}


@pytest.mark.parametrize("kind", list(RECORD_DTYPES))
def test_measure_record_equals_measure_many(kind):
    """A record of any layout gives the values measure_many gives, sample by sample."""
    ref = _reference()
    dt = RECORD_DTYPES[kind]
    rec = _record_in(dt)
    truth = dict(zip(_FIELDS, TRUTH, strict=True))
    if kind == "float32":  # the record holds the float32 values
        truth = {f: float(np.float32(v)) for f, v in truth.items()}
        ref = np.array([_values(m) for m in [_dvl().measure(truth)]])
    sim = _dvl()
    keep = rec.copy()
    got = np.array([_values(sim.measure(rec)) for _ in range(len(ref))])
    assert np.array_equal(_bits(got), _bits(ref))
    assert rec == keep  # the input is not modified


def test_measure_forms_agree_bit_for_bit():
    """Record, 0-d structured array, float64 array, list, tuple and dict: one stream."""
    ref = _reference(7)
    rec = np.array([TRUTH], dtype=TRUTH_DTYPE)
    forms = [
        rec[0],
        rec.reshape(()),
        np.array(TRUTH),
        np.array(TRUTH)[::-1][::-1],
        list(TRUTH),
        TRUTH,
        dict(zip(_FIELDS, TRUTH, strict=True)),
    ]
    sim = _dvl()
    got = np.array([_values(sim.measure(f)) for f in forms])
    assert np.array_equal(_bits(got), _bits(ref))


def test_measure_record_refusals():
    sim = _dvl()
    short = np.zeros(1, dtype=[(f, "<f8") for f in _FIELDS[:-1]])[0]
    with pytest.raises(ValueError, match="rpm"):
        sim.measure(short)
    big = _record_in(TRUTH_DTYPE)
    big["depth"] = 1e301
    with pytest.raises(ValueError, match="depth"):
        sim.measure(big)
    for name in DVL_SENSORS:
        assert sim[name].position == 0  # a refused call changes nothing
    nan = _record_in(TRUTH_DTYPE)
    nan["yaw"] = np.nan
    assert np.isnan(sim.measure(nan).yaw)


# ---- Gazebo apply_one: the per-sample room and dt checks ----------------------------------

GZ = {"mean": 0.01, "stddev": 0.1, "bias_mean": 0.02, "bias_stddev": 0.01, "precision": 0.001}


def test_gazebo_apply_one_equals_apply():
    ft, ft2 = (ForceTorqueNoise(GZ, None, GZ, GZ, None, GZ, seed=2) for _ in range(2))
    x = np.random.default_rng(0).normal(size=(40, 6))
    got = np.array([ft.apply_one(*row, dt=0.01) for row in x])
    assert np.array_equal(_bits(got), _bits(ft2.apply(x, 0.01)))
    mag, mag2 = (MagnetometerNoise(GZ, GZ, GZ, seed=3) for _ in range(2))
    got = np.array([mag.apply_one(*row) for row in x[:, :3]])
    assert np.array_equal(_bits(got), _bits(mag2.apply(x[:, :3])))


def test_gazebo_apply_one_at_stream_end():
    """The last sample of a channel's streams is handed out, the next one refused by
    name, and the refusal changes nothing."""
    g = GazeboNoise(**GZ, seed=1)
    st = g.state
    st["position"]["count"] = 2**64 - 2
    g.state = st
    g.apply_one(1.0)
    with pytest.raises(OverflowError, match="end of its streams"):
        g.apply_one(1.0)
    assert g.state["position"]["count"] == 2**64 - 1
    ft = ForceTorqueNoise(GZ, None, GZ, seed=1)
    st = ft.state
    st["position"]["force_z"]["count"] = 2**64 - 1
    ft.state = st
    with pytest.raises(OverflowError, match="force_z"):
        ft.apply_one(1.0, 2.0, 3.0, 0.1, 0.2, 0.3)
    assert ft.state["position"]["force_x"]["count"] == 0


_GZ_DYN = {**GZ, "dynamic_bias_stddev": 0.05, "dynamic_bias_correlation_time": 2.0}


@pytest.mark.parametrize(
    "make",
    [
        lambda: ForceTorqueNoise(GZ, None, _GZ_DYN, GZ, {"mean": 0.5}, GZ, seed=2),
        lambda: MagnetometerNoise(GZ, _GZ_DYN, GZ, seed=3),
    ],
    ids=["force_torque", "magnetometer"],
)
def test_gazebo_sensor_apply_one_fast_form_equals_apply_on_every_simd_path(make):
    """Python floats (the fast form: the white normals of the channels that move on to
    a new group refilled together) mixed with numpy scalars (the general form), the
    channels at different places in their 16-normal groups, dt 0 and > 0 (a dynamic
    bias that moves), a reset part-way: apply's rows and state, bit for bit, on every
    SIMD path."""
    from fastnoise.core import simd

    ref = make()
    ncol = ref.n_columns
    st = ref.state
    for k, name in enumerate(st["position"]):
        st["position"][name]["count"] = 5 * k  # the channels' groups out of step
    ref.state = st
    x = np.random.default_rng(1).normal(size=(70, ncol))
    dt = np.where(np.arange(70) % 4 == 0, 0.0, 0.01)
    want = np.concatenate(
        [ref.apply(x[:40], dt[:40])] + [ref.reset() or ref.apply(x[40:], dt[40:])]
    )
    before = simd.simd_path()
    try:
        for path in simd.simd_paths_available():
            simd.set_simd_path(path)
            m = make()
            m.state = st
            rows = []
            for k in range(70):
                if k == 40:
                    m.reset()
                args = x[k].tolist() if k % 5 else list(x[k])  # floats / numpy scalars
                rows.append(m.apply_one(*args, dt=float(dt[k])))
            assert np.array_equal(_bits(np.array(rows)), _bits(want)), path
            assert m.state == ref.state, path
    finally:
        simd.set_simd_path(before)


@pytest.mark.parametrize("dt", [-1e-9, 1.5e30, float("nan"), float("inf"), True, "0.1"])
def test_gazebo_apply_one_refuses_dt(dt):
    g = GazeboNoise(**GZ, seed=1)
    with pytest.raises((ValueError, TypeError), match="dt"):
        g.apply_one(1.0, dt)
    assert g.state["position"]["count"] == 0


def test_gazebo_apply_one_dt_bounds_taken():
    g, h = GazeboNoise(**GZ, seed=1), GazeboNoise(**GZ, seed=1)
    assert g.apply_one(1.0, 1e30) == h.apply(np.array([1.0]), 1e30)[0]
    assert g.apply_one(1.0, 0.0) == h.apply(np.array([1.0]), 0.0)[0]


# ---- RangeNoise.apply_one: the per-beam group cache ---------------------------------------


def _range(**kw):
    from fastnoise import RangeNoise

    params = {"bias_mean": 0.02, "bias_stddev": 0.01, "precision": 0.0, "seed": 5}
    params.update(kw)
    return RangeNoise(0.01, 0.05, 0.1, 30.0, **params)


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"precision": 0.004},
        {"inf_outside_limits": True},
        {"nan_range": "keep"},
        {"nan_range": "max"},
        {"enabled": False},
    ],
)
def test_range_apply_one_equals_apply(kw):
    """Beam by beam, in order, backwards and at random, over several frames and group
    boundaries: each beam is what apply gives for it, bit for bit."""
    rng = np.random.default_rng(3)
    scan = rng.uniform(-1.0, 40.0, 70)
    scan[[3, 17, 40]] = [np.nan, np.inf, -np.inf]
    ref_model = _range(**kw)
    refs = [ref_model.apply(scan, frame=f) for f in (0, 1, 7)]
    m = _range(**kw)
    orders = [np.arange(70), np.arange(70)[::-1], rng.permutation(70)]
    for f, ref in zip((0, 1, 7), refs, strict=True):
        for order in orders:
            got = np.array([m.apply_one(float(scan[i]), f, int(i)) for i in order])
            assert np.array_equal(_bits(got), _bits(ref[order]))


def test_range_apply_one_follows_frame_and_reinit():
    """The cache never serves another frame's or another seed's normals: frame=None
    reads the counter as apply advances it, and __init__ with a new seed changes
    the values apply_one gives at once."""
    m, ref = _range(), _range()
    for _ in range(3):
        want = ref.apply(np.full(20, 5.0))  # frame k, then the counter moves on
        got = [m.apply_one(5.0, None, i) for i in range(20)]
        assert np.array_equal(_bits(np.array(got)), _bits(want))
        m.frame += 1
    a = m.apply_one(5.0, 0, 3)
    m.__init__(0.01, 0.05, 0.1, 30.0, bias_mean=0.02, bias_stddev=0.01, seed=6)
    other = _range(seed=6)
    assert _bits(m.apply_one(5.0, 0, 3)) == _bits(other.apply(np.full(4, 5.0), frame=0)[3])
    assert m.apply_one(5.0, 0, 3) != a


def test_range_apply_one_last_index_and_refusals():
    m, ref = _range(), _range()
    last = 2**64 - 1
    got = m.apply_one(5.0, 2, last)
    want = ref.apply(np.full(1, 5.0), frame=2, first_index=last)[0]
    assert _bits(got) == _bits(want)
    with pytest.raises((ValueError, OverflowError), match="index"):
        m.apply_one(5.0, 2, 2**64)
    with pytest.raises((ValueError, OverflowError), match="frame"):
        m.apply_one(5.0, 2**62 - 1, 0)
    with pytest.raises((TypeError, ValueError), match="range_m"):
        m.apply_one("5", 0, 0)


# ---- DvlSimulator.measure: the per-sensor shortcuts of the C path --------------------------
#
# fn_dvl_measure_one skips the work a sensor's parameters make unnecessary (no normal for
# noise_stddev 0, no anchor half for p = 0 or 1) and reads the normal from its group
# cache; the batch kernel does neither, so agreeing with measure_many checks the
# shortcuts bit for bit.

DVL_MIXED = {
    "dvl_roll": {"bias": 0.01, "noise_stddev": 0.05},  # noise, never anchored
    "dvl_pitch": {"bias": -0.2, "noise_stddev": 0.0, "anchor_probability": 0.0},
    "dvl_yaw": {"noise_stddev": 0.3, "anchor": 7.0, "anchor_probability": 1.0},
    "dvl_surge": {"bias": 0.1, "anchor": -1.0, "anchor_probability": 0.5},  # no noise
    "dvl_sway": {"noise_stddev": 0.02, "anchor": 2.0, "anchor_probability": 0.25},
    "dvl_heave": {"noise_stddev": 1e-3, "anchor": 0.0, "anchor_probability": 1e-5},
    "dvl_depth": {"noise_stddev": 0.5, "anchor": 9.0, "anchor_probability": 0.999},
    # anchor_probability * 2^16 with a fraction: h == floor(p 2^16) ties, settled by
    # the tie stream, about once in 2^16 samples
    "dvl_altitude": {"noise_stddev": 0.1, "anchor": -3.0, "anchor_probability": 0.30001},
    "water_speed": {"noise_stddev": 0.0, "anchor": 4.0, "anchor_probability": 0.7},
}


def _dvl_message_bits(messages):
    return _bits(np.array([_values(m) for m in messages]))


@pytest.mark.parametrize("n", [1, 17, 300])
def test_measure_mixed_sensors_equals_measure_many(n):
    """Sensors with and without noise, never, sometimes and always anchored: n
    messages of measure (across several normal groups and anchor-half groups) equal
    measure_many's rows, bit for bit."""
    rng = np.random.default_rng(8)
    truth = np.zeros(n, dtype=TRUTH_DTYPE)
    for f in _FIELDS:
        truth[f] = rng.normal(0.0, 50.0, n)
    want = DvlSimulator(DVL_MIXED, seed=12).measure_many(truth)
    want = want.view((np.float64, len(want.dtype.names)))
    sim = DvlSimulator(DVL_MIXED, seed=12)
    got = _dvl_message_bits([sim.measure(truth[i]) for i in range(n)])
    assert np.array_equal(got, _bits(want))


def test_measure_ties_equal_measure_many():
    """Enough samples that the tie h == floor(p 2^16) comes up (p 2^16 has a
    fraction on every sensor): the per-sample tie test gives measure_many's values."""
    sensors = {
        name: {"noise_stddev": 0.1, "anchor": 100.0 + k, "anchor_probability": 0.5 + 1e-6 * k}
        for k, name in enumerate(SENSOR_NAMES)
    }
    n = 20_000
    truth = np.zeros(n, dtype=TRUTH_DTYPE)
    want = DvlSimulator(sensors, seed=3).measure_many(truth)
    want = want.view((np.float64, len(want.dtype.names)))
    sim = DvlSimulator(sensors, seed=3)
    rec = truth[0]
    got = np.array([_values(sim.measure(rec)) for _ in range(n)])
    # 2e5 sensor samples: about 3 ties expected
    assert np.array_equal(_bits(got), _bits(want))
    # about half anchored (bounds of 5 standard errors, 0.0035 each)
    assert 0.48 < np.mean(got[:, 0] >= 100.0) < 0.52


@pytest.mark.parametrize("angle", [2.0**50, -(2.0**53), 1e300, float("nan"), float("inf")])
def test_measure_huge_and_non_finite_angles_equal_measure_many(angle):
    """Angles beyond the fast reduction (|angle| >= 2^50 deg) take the exact fmod
    reduction; NaN and inf pass through. The per-sample composite equals the batch's."""
    truth = np.array([TRUTH] * 3, dtype=TRUTH_DTYPE)
    truth["yaw"][1] = angle
    truth["roll"][2] = angle
    want = DvlSimulator(DVL_MIXED, seed=2).measure_many(truth)
    want = want.view((np.float64, len(want.dtype.names)))
    sim = DvlSimulator(DVL_MIXED, seed=2)
    got = _dvl_message_bits([sim.measure(truth[i]) for i in range(3)])
    assert np.array_equal(got, _bits(want), equal_nan=True)


def test_measure_after_sensor_changes_equals_measure_many():
    """Parameters changed between messages, and a sensor measured on its own (its
    position moves apart): the next messages use the new values, bit for bit."""
    sim, ref = DvlSimulator(DVL_MIXED, seed=6), DvlSimulator(DVL_MIXED, seed=6)
    rec = np.array([TRUTH], dtype=TRUTH_DTYPE)
    for s in (sim, ref):
        s.measure(rec[0])
        s["dvl_pitch"].noise_stddev = 0.4
        s["dvl_yaw"].anchor_probability = 0.0
        s["dvl_surge"].anchor_probability = 1.0
        s["dvl_roll"].measure(1.0)
    got = _dvl_message_bits([sim.measure(rec[0]) for _ in range(20)])
    want = ref.measure_many(np.repeat(rec, 20))
    assert np.array_equal(got, _bits(want.view((np.float64, len(want.dtype.names)))))


@pytest.mark.parametrize("field", range(10))
def test_measure_refuses_a_too_large_value_in_any_field_by_its_name(field):
    """The ten values are checked two to a compare: a finite value beyond 1e300 in
    any of them (either lane) is refused by its name, the first one when two are,
    with nothing advanced; 1e300 itself, NaN and +-inf in the others pass."""
    sim = DvlSimulator(DVL_MIXED, seed=9)
    rec = np.array([TRUTH], dtype=TRUTH_DTYPE)[0]
    for k, f in enumerate(_FIELDS):
        if k != field:
            rec[f] = (1e300, -1e300, np.nan, np.inf, -np.inf)[k % 5]
    rec[_FIELDS[field]] = -1.0000001e300 if field % 2 else 1e308
    if field < 9:
        rec[_FIELDS[9]] = 1e305  # a later too-large value: the first one is named
    with pytest.raises(ValueError, match=rf"truth\['{_FIELDS[field]}'\]"):
        sim.measure(rec)
    assert all(s.position == 0 for s in sim.sensors.values())
    rec[_FIELDS[field]] = 1e300
    rec[_FIELDS[9]] = 1e300
    m = sim.measure(rec)
    assert sim["dvl_roll"].position == 1 and len(tuple(m)) == 13


def test_measure_after_sensors_turn_plain_and_back_equals_measure_many():
    """A sensor with no noise that is never anchored takes the shortest path (truth +
    bias); the flag behind it follows every parameter change, both ways, for
    sensors that start plain and sensors that start noisy or anchored."""
    sim, ref = DvlSimulator(DVL_MIXED, seed=16), DvlSimulator(DVL_MIXED, seed=16)
    rec = np.array([TRUTH], dtype=TRUTH_DTYPE)
    changes = [
        {
            ("dvl_roll", "noise_stddev"): 0.0,
            ("water_speed", "anchor_probability"): 0.0,
            ("RPM", "bias"): 3.0,
        },  # roll and water_speed turn plain, rpm stays plain
        {
            ("dvl_roll", "anchor_probability"): 1.0,
            ("dvl_pitch", "noise_stddev"): 0.2,
            ("water_speed", "noise_stddev"): 0.1,
        },  # all three leave it
        {
            ("dvl_roll", "anchor_probability"): 0.0,
            ("dvl_pitch", "noise_stddev"): 0.0,
            ("RPM", "noise_stddev"): 1.0,
        },
    ]
    got, want = [], []
    for change in changes:
        for s in (sim, ref):
            for (name, param), value in change.items():
                setattr(s[name], param, value)
        got += [sim.measure(rec[0]) for _ in range(19)]
        want.append(ref.measure_many(np.repeat(rec, 19)))
    want = np.concatenate(want)
    assert np.array_equal(
        _dvl_message_bits(got), _bits(want.view((np.float64, len(want.dtype.names))))
    )


def test_measure_refills_the_groups_of_sensors_out_of_step_on_every_simd_path():
    """Sensors at different places in their 16-normal groups (a state sets them), so
    the message-by-message refills of several sensors' groups together meet groups
    that other sensors are in the middle of; records, on every SIMD path: what
    measure_many gives from the same state, bit for bit."""
    from fastnoise.core import simd

    ref = DvlSimulator(DVL_MIXED, seed=5)
    st = ref.state
    for k, name in enumerate(SENSOR_NAMES):
        st["position"]["sensors"][name]["position"] = 3 * k + (1 << 36)
    ref.state = st
    rng = np.random.default_rng(7)
    truth = np.zeros(60, dtype=TRUTH_DTYPE)
    for f in TRUTH_DTYPE.names:
        truth[f] = rng.uniform(-10, 10, 60)
    want = ref.measure_many(truth)
    want = _bits(want.view((np.float64, len(want.dtype.names))))
    before = simd.simd_path()
    try:
        for path in simd.simd_paths_available():
            simd.set_simd_path(path)
            sim = DvlSimulator(DVL_MIXED, seed=5)
            sim.state = st
            got = _bits(np.array([tuple(sim.measure(truth[k])) for k in range(60)]))
            assert np.array_equal(got, want), path
            assert sim.state == ref.state, path
    finally:
        simd.set_simd_path(before)


# ---- ImuNoise.step: normals read from the group caches -------------------------------------


@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
def test_imu_step_equals_apply_across_groups(normal_dtype):
    """Every error term on (so every stream draws), 70 steps (past several 16-normal
    groups), out= and new arrays alternating: apply's rows, bit for bit."""
    from fastnoise import ImuNoise
    from fastnoise.models.imu import TriadNoise

    gyro = TriadNoise(
        noise_density=1e-3,
        random_walk_density=1e-4,
        turn_on_bias_stddev=0.01,
        gauss_markov_stddev=2e-3,
        gauss_markov_correlation_time=50.0,
    )
    accel = TriadNoise(noise_stddev=0.02, random_walk_density=1e-3, resolution=1e-3)
    rng = np.random.default_rng(4)
    w, a = rng.normal(size=(70, 3)), rng.normal(size=(70, 3))
    m = ImuNoise(gyro, accel, seed=9, normal_dtype=normal_dtype)
    ref = ImuNoise(gyro, accel, seed=9, normal_dtype=normal_dtype)
    wo, ao = np.empty(3), np.empty(3)
    got_w, got_a = [], []
    for k in range(70):
        if k % 2:
            x, y = m.step(w[k], a[k], 0.01, wo, ao)
        else:
            x, y = m.step(w[k], a[k], 0.01)
        got_w.append(x.copy())
        got_a.append(y.copy())
    want_w, want_a = ref.apply(w, a, 0.01)
    assert np.array_equal(_bits(np.array(got_w)), _bits(want_w))
    assert np.array_equal(_bits(np.array(got_a)), _bits(want_a))
    assert m.state == ref.state


# ---- ImuNoise.step: the single model's cached step (fn_imu_step_cached) -----------------------

# The benchmark's triads (white noise and random walk: a plain model, the vectorized
# sample) and one with every stage on (turn-on bias, Gauss-Markov, misalignment,
# saturation, quantization: the general sample on the cached normals).
_IMU_PLAIN = (
    {"noise_density": 1e-3, "random_walk_density": 1e-4, "turn_on_bias_stddev": 0.01},
    {"noise_stddev": 0.02, "random_walk_density": 1e-3},
)
_IMU_FULL = (
    {
        "noise_density": 1e-3,
        "random_walk_density": 1e-4,
        "gauss_markov_stddev": 2e-3,
        "gauss_markov_correlation_time": 50.0,
        "misalignment": [[0.0, 1e-3, 0.0], [0.0, 0.0, 2e-3], [1e-3, 0.0, 0.0]],
        "full_scale": 2.0,
    },
    {
        "noise_stddev": 0.02,
        "gauss_markov_stddev": 1e-3,
        "gauss_markov_correlation_time": 9.0,
        "resolution": 1e-3,
    },
)


def _imu(triads, normal_dtype, seed=9):
    from fastnoise import ImuNoise
    from fastnoise.models.imu import TriadNoise

    g, a = triads
    return ImuNoise(TriadNoise(**g), TriadNoise(**a), seed=seed, normal_dtype=normal_dtype)


def _imu_script(m, w, a, dts):
    """Steps with out= and new arrays alternating, an apply of three samples and a
    reset part-way: the rows of every call, in order."""
    rows = []
    wo, ao = np.empty(3), np.empty(3)
    for k in range(len(w)):
        if k == 37:
            r = m.apply(w[k : k + 3], a[k : k + 3], dts[k])  # a few samples by apply
            rows += list(zip(r[0], r[1], strict=True))
            continue
        if 37 < k < 40:
            continue
        if k == 61:
            m.reset()
        if k % 3:
            x, y = m.step(w[k], a[k], dts[k], wo, ao)
            rows.append((x.copy(), y.copy()))
        else:
            rows.append(m.step(w[k], a[k], dts[k]))
    return rows


def _imu_reference(m, w, a, dts):
    """_imu_script's rows through apply alone (the chunked path, one sample a call)."""
    rows = []
    for k in range(len(w)):
        if 37 < k < 40:
            continue
        if k == 61:
            m.reset()
        n = 3 if k == 37 else 1
        r = m.apply(w[k : k + n], a[k : k + n], dts[k])
        rows += list(zip(r[0], r[1], strict=True))
    return rows


def _rows_bits(rows):
    return _bits(np.array([np.concatenate(r) for r in rows]))


@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
@pytest.mark.parametrize("triads", [_IMU_PLAIN, _IMU_FULL], ids=["plain", "full"])
def test_imu_cached_step_equals_apply_on_every_simd_path(triads, normal_dtype):
    """100 steps (several 16-sample groups), out= and new arrays, a step that changes
    part-way, an apply in between and a reset: apply's rows and state, bit for bit, on
    every SIMD path (the refill and the plain sample are dispatched kernels)."""
    from fastnoise.core import simd

    rng = np.random.default_rng(5)
    w, a = rng.normal(size=(100, 3)), rng.normal(size=(100, 3))
    dts = [0.01 if k < 50 else 0.004 for k in range(100)]
    want_m = _imu(triads, normal_dtype)
    want = _rows_bits(_imu_reference(want_m, w, a, dts))
    before = simd.simd_path()
    try:
        for path in simd.simd_paths_available():
            simd.set_simd_path(path)
            m = _imu(triads, normal_dtype)
            assert np.array_equal(_rows_bits(_imu_script(m, w, a, dts)), want), path
            assert m.state == want_m.state, path
    finally:
        simd.set_simd_path(before)


@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
def test_imu_cached_step_after_a_state_far_into_the_streams(normal_dtype):
    """A state set far into the streams (block counters past 2^32, a group boundary
    ahead) and one whose streams stand apart (each stream at its own position: the
    per-stream path): steps equal apply from the same state, bit for bit."""
    rng = np.random.default_rng(8)
    w, a = rng.normal(size=(40, 3)), rng.normal(size=(40, 3))
    for shift in ([0] * 6, [0, 5, 0, 1, 0, 17]):
        src = _imu(_IMU_FULL, normal_dtype)
        state = src.state
        count = (1 << 40) + 9
        pos = state["position"]
        pos["sample_count"] = count
        pos["stream_positions"] = [
            [count + shift[i] if p else 0 for p in row]
            for i, row in enumerate(pos["stream_positions"])
        ]
        on = _imu(_IMU_FULL, normal_dtype)
        on.apply(w[:1], a[:1], 0.01)  # which streams draw: those that moved
        pos["stream_positions"] = [
            [count + shift[i] if p else 0 for p in row]
            for i, row in enumerate(on.state["position"]["stream_positions"])
        ]
        m, ref = _imu(_IMU_FULL, normal_dtype), _imu(_IMU_FULL, normal_dtype)
        m.state = state
        ref.state = state
        got = [m.step(w[k], a[k], 0.01) for k in range(40)]
        want = ref.apply(w, a, 0.01)
        assert np.array_equal(_bits(np.array([g[0] for g in got])), _bits(want[0]))
        assert np.array_equal(_bits(np.array([g[1] for g in got])), _bits(want[1]))
        assert m.state == ref.state


def test_imu_cached_step_follows_a_new_init_and_equals_an_env_of_a_batch():
    """__init__ again with another seed or dtype refills the cache (its values are
    keyed); a single model with env=i gives the batch's env i bit for bit."""
    from fastnoise import ImuNoise
    from fastnoise.models.imu import TriadNoise

    rng = np.random.default_rng(2)
    w, a = rng.normal(size=(20, 3)), rng.normal(size=(20, 3))
    g, acc = (TriadNoise(**t) for t in _IMU_PLAIN)
    m = ImuNoise(g, acc, seed=1)
    for k in range(5):
        m.step(w[k], a[k], 0.01)
    for seed, dtype in ((2, "float32"), (2, "float64"), (3, "float64")):
        m.__init__(g, acc, seed=seed, normal_dtype=dtype)
        want = ImuNoise(g, acc, seed=seed, normal_dtype=dtype).apply(w, a, 0.01)
        got = np.array([m.step(w[k], a[k], 0.01)[0] for k in range(20)])
        assert np.array_equal(_bits(got), _bits(want[0]))
    batch = ImuNoise(g, acc, seed=4, num_envs=3)
    singles = [ImuNoise(g, acc, seed=4, env=i) for i in range(3)]
    for k in range(20):
        bw, ba = batch.step(np.tile(w[k], (3, 1)), np.tile(a[k], (3, 1)), 0.01)
        for i, s in enumerate(singles):
            x, y = s.step(w[k], a[k], 0.01)
            assert np.array_equal(_bits(x), _bits(bw[i])) and np.array_equal(_bits(y), _bits(ba[i]))


def test_imu_cached_step_refusals_change_nothing():
    """A true value beyond the range, a bad dt or bad outputs are refused by name with
    nothing changed, the next steps as if the refused call never came."""
    m, ref = _imu(_IMU_PLAIN, "float32"), _imu(_IMU_PLAIN, "float32")
    w, a = np.array([0.1, -0.2, 0.05]), np.array([0.3, 0.1, 9.81])
    for _ in range(3):
        m.step(w, a, 0.01)
    state = m.state
    with pytest.raises(ValueError, match=r"omega\[1\]"):
        m.step(np.array([0.0, 1e305, 0.0]), a, 0.01)
    with pytest.raises(ValueError, match=r"accel\[2\]"):
        m.step(w, np.array([0.0, 0.0, -1e305]), 0.01, np.empty(3), np.empty(3))
    with pytest.raises(ValueError, match="dt="):
        m.step(w, a, -0.01)
    with pytest.raises(ValueError, match="out_accel"):
        m.step(w, a, 0.01, np.empty(3), np.empty(4))
    out = np.empty(6)
    with pytest.raises(ValueError, match="overlaps"):
        m.step(w, a, 0.01, out[:3], out[:3])
    assert m.state == state
    got = np.array([m.step(w, a, 0.01)[1] for _ in range(20)])
    ref.apply(np.tile(w, (3, 1)), np.tile(a, (3, 1)), 0.01)
    want = ref.apply(np.tile(w, (20, 1)), np.tile(a, (20, 1)), 0.01)
    assert np.array_equal(_bits(got), _bits(want[1]))


# ---- SensorSimulator reads: three normals straight from the group cache -------------------


def test_sensor_simulator_reads_equal_the_generator_stream():
    """Reads with and without out=, omega and orientation interleaved, over group
    boundaries (3 normals a read, 16 a group): reading k is truth + drift + sigma * z
    with z normals 3k .. 3k + 2 of the sensor's stream, bit for bit."""
    from fastnoise import RigidBodySimulator, SensorSimulator
    from fastnoise.core.seeding import model_seed_sequence

    sigma = np.array([0.1, 0.2, 0.3])
    body = RigidBodySimulator(np.array([10.0, 8.0, 12.0]), omega=(0.1, -0.06, 0.01))
    sim = SensorSimulator(body, seed=42, noise_stddev=sigma)
    z = GaussianNoiseGenerator(
        model_seed_sequence(np.random.SeedSequence(42), "sensor_simulator")
    ).standard_normal(3 * 40)
    omega = np.array([0.1, -0.06, 0.01])
    angles = np.array([body.pitch, body.yaw, body.roll])
    buf = np.empty(3)
    for k in range(40):
        orient = k % 3 == 1
        read = sim.read_orientation if orient else sim.read_angular_velocity
        got = read(buf) if k % 2 else read()
        assert (got is buf) == bool(k % 2)
        want = (angles if orient else omega) + 0.0 + sigma * z[3 * k : 3 * k + 3]
        assert np.array_equal(_bits(got), _bits(want))
    assert sim.generator_state["position"]["position"] == 120


# ---- _model_params: the Model base adds num_envs / env ------------------------------------


class _Sub(np.ndarray):
    pass


def test_sensor_simulator_read_out_forms_give_the_same_bits():
    """out as a native float64 (3,) array (read in place), as an ndarray subclass (the
    full output check) and None: the same values from the same state; a read-only,
    big-endian, strided, float32 or wrong-shape out refused by name, nothing drawn."""
    from fastnoise import RigidBodySimulator, SensorSimulator

    def sim():
        body = RigidBodySimulator(np.array([10.0, 8.0, 12.0]), omega=(0.1, -0.06, 0.01))
        return SensorSimulator(body, seed=3, noise_stddev=np.full(3, 1e-3), drift_rate=1e-6)

    ref, m = sim(), sim()
    want = np.array([ref.read_angular_velocity() for _ in range(40)])
    sub = np.empty(3).view(_Sub)
    got = []
    for k in range(40):
        if k % 3 == 0:
            got.append(m.read_angular_velocity(np.empty(3)).copy())
        elif k % 3 == 1:
            got.append(np.array(m.read_angular_velocity(sub)))
        else:
            got.append(m.read_angular_velocity())
    assert np.array_equal(_bits(np.array(got)), _bits(want))
    ro = np.empty(3)
    ro.flags.writeable = False
    st = m.state
    bads = (ro, np.empty(3, dtype=">f8"), np.empty(6)[::2], np.empty(4), np.empty(3, "f4"))
    for bad in bads:
        with pytest.raises((ValueError, TypeError), match="out"):
            m.read_angular_velocity(bad)
    assert m.state == st


def test_models_give_their_own_params_through_the_base():
    """DvlSimulator, SensorSimulator and RigidBodySimulator override _model_params,
    not _params: the base's _params is the one that runs, and state, repr, copy and
    pickle still rebuild the same model."""
    import pickle

    from fastnoise import RigidBodySimulator, SensorSimulator

    body = RigidBodySimulator(np.array([10.0, 8.0, 12.0]), omega=(0.1, -0.06, 0.01))
    models = [
        _dvl(),
        body,
        SensorSimulator(body, seed=1, noise_stddev=np.full(3, 1e-3), drift_rate=1e-6),
    ]
    for m in models:
        cls = type(m)
        assert "_params" not in vars(cls) and "_model_params" in vars(cls)
        assert m.state["params"] == m._model_params()
        assert "num_envs" not in m.state["params"]
        assert repr(m).startswith(cls.__name__ + "(")
    dvl, body2 = pickle.loads(pickle.dumps(models[0])), pickle.loads(pickle.dumps(body))
    assert dvl == models[0] and body2 == body
    assert models[2].copy().state == models[2].state
