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
