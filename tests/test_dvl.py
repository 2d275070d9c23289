"""DVL sensor suite of the Metron DVL simulator document (seeds/000_7cf09528fd13b2c6.txt):
augmented white noise, anchors, the vN/vE/vU composite, per-sample == batch,
configuration and range checks."""

from __future__ import annotations

import io
import json
import math
import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from scipy.spatial.transform import Rotation

from fastnoise.core import generator as fgen
from fastnoise.core import simd
from fastnoise.core.seeding import model_key
from fastnoise.models.dvl import config as dc
from fastnoise.models.dvl.simulator import (
    MESSAGE_DTYPE,
    TRUTH_DTYPE,
    AugmentedWhiteNoise,
    DvlMeasurement,
    DvlSimulator,
)

RAD = 180.0 / np.pi


def truth_array(n, seed=0):
    """Plausible ground truth: angles within +-180 deg, velocities ~ m/s."""
    rng = np.random.default_rng(seed)
    t = np.zeros(n, TRUTH_DTYPE)
    t["roll"] = rng.uniform(-30, 30, n)
    t["pitch"] = rng.uniform(-30, 30, n)
    t["yaw"] = rng.uniform(-180, 180, n)
    for f in ("surge", "sway", "heave", "water_speed"):
        t[f] = rng.normal(0, 1, n)
    t["depth"] = rng.uniform(0, 100, n)
    t["altitude"] = rng.uniform(0, 30, n)
    t["rpm"] = rng.uniform(0, 1500, n)
    return t


def bits(a):
    return np.ascontiguousarray(a).view(np.uint64)


def noisy_sensors(p=0.05):
    """Every sensor noisy, biased and anchored with probability p (in range)."""
    out = {}
    for name, spec in dc.SENSORS.items():
        out[name] = dict(
            bias=spec.bias_range[1] / 2,
            noise_stddev=spec.noise_dev_range[1] / 2,
            anchor=-7.25,
            anchor_probability=p,
        )
    return out


# ---- composite -------------------------------------------------------------------


def test_reference_vector():
    sim = DvlSimulator(seed=1)  # all parameters 0: a perfect sensor
    m = sim.measure(
        dict(
            roll=0.1 * RAD, pitch=0.2 * RAD, yaw=0.3 * RAD, surge=1.0, sway=0.0, heave=0.0,
            depth=0.0, altitude=0.0, water_speed=0.0, rpm=0.0,
        )
    )  # fmt: skip
    # R(0.1, 0.2, 0.3) (1, 0, 0) = (0.936293, 0.289629, -0.198669); vU = -vD
    assert m.vn == pytest.approx(0.936293, abs=1e-6)
    assert m.ve == pytest.approx(0.289629, abs=1e-6)
    assert m.vu == pytest.approx(0.198669, abs=1e-6)


def test_composite_matches_scipy_rotation():
    t = truth_array(2000, seed=3)
    t["yaw"][:10] = [0, 90, 180, -180, 270, 360, 725, -1000, 45, -45]  # wrap-around
    res = DvlSimulator(seed=2).measure_many(t)
    rot = Rotation.from_euler("ZYX", np.c_[t["yaw"], t["pitch"], t["roll"]], degrees=True)
    ned = rot.apply(np.c_[t["surge"], t["sway"], t["heave"]])
    np.testing.assert_allclose(res["vn"], ned[:, 0], rtol=0, atol=1e-13)
    np.testing.assert_allclose(res["ve"], ned[:, 1], rtol=0, atol=1e-13)
    np.testing.assert_allclose(res["vu"], -ned[:, 2], rtol=0, atol=1e-13)


def test_composite_uses_measured_and_anchored_values():
    sens = noisy_sensors(p=0.3)
    t = truth_array(3000, seed=4)
    res = DvlSimulator(sens, seed=5).measure_many(t)
    rot = Rotation.from_euler("ZYX", np.c_[res["yaw"], res["pitch"], res["roll"]], degrees=True)
    ned = rot.apply(np.c_[res["surge"], res["sway"], res["heave"]])
    np.testing.assert_allclose(res["vn"], ned[:, 0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(res["ve"], ned[:, 1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(res["vu"], -ned[:, 2], rtol=0, atol=1e-12)
    assert np.any(res["yaw"] == -7.25)  # anchored angles were among them


def test_huge_and_nonfinite_angles():
    sim = DvlSimulator(seed=1)
    base = dict(surge=1.0, sway=2.0, heave=3.0, depth=0, altitude=0, water_speed=0, rpm=0)
    big = 3.0 * 2.0**55  # beyond the fast reduction: reduced exactly with fmod
    m = sim.measure(dict(base, roll=-big, pitch=big * 3, yaw=big))
    ang = [math.fmod(big, 360.0), math.fmod(big * 3, 360.0), math.fmod(-big, 360.0)]
    ned = Rotation.from_euler("ZYX", ang, degrees=True).apply([1.0, 2.0, 3.0])
    assert (m.vn, m.ve, -m.vu) == pytest.approx(tuple(ned), abs=1e-12)
    assert m.yaw == big  # the message keeps the measured value
    m = sim.measure(dict(base, roll=np.nan, pitch=0.0, yaw=0.0))
    assert np.isnan(m.roll) and np.isnan(m.vu)


def test_batch_with_huge_and_nonfinite_angles_equals_per_sample():
    """The batch recomputes the composite of samples with |angle| >= 2^50 deg (in any
    chunk) by the per-sample route: same bits, NaN and inf included."""
    t = truth_array(1100, seed=43)
    big = 3.0 * 2.0**55
    t["roll"][[5, 700]] = -big
    t["pitch"][[6, 1099]] = big * 3
    t["yaw"][[7, 512]] = big
    t["yaw"][8] = np.inf
    t["roll"][9] = np.nan
    batch = DvlSimulator(noisy_sensors(), seed=44).measure_many(t)
    sim = DvlSimulator(noisy_sensors(), seed=44)
    single = np.array([tuple(sim.measure(row)) for row in t], dtype=MESSAGE_DTYPE)
    assert np.array_equal(bits(batch), bits(single))
    assert np.isfinite(batch["vn"][[5, 6, 7, 512, 700, 1099]]).all()
    assert np.isnan(batch["vn"][[8, 9]]).all()


# ---- augmented white noise ------------------------------------------------------


def test_zero_noise_is_truth_plus_bias_exactly():
    sens = {n: dict(bias=s.bias_range[0] / 3) for n, s in dc.SENSORS.items()}
    t = truth_array(500, seed=6)
    res = DvlSimulator(sens, seed=7).measure_many(t)
    for name, spec in dc.SENSORS.items():
        assert np.array_equal(res[spec.field], t[spec.field] + sens[name]["bias"])


def test_anchor_probability_zero_and_one():
    n = 20000
    t = truth_array(n, seed=8)
    never = DvlSimulator(noisy_sensors(p=0.0), seed=9).measure_many(t)
    always = DvlSimulator(noisy_sensors(p=1.0), seed=9).measure_many(t)
    for f in dc.TRUTH_FIELDS:
        assert not np.any(never[f] == -7.25)
        assert np.all(always[f] == -7.25)
    # every input anchored at -7.25: the composite is fixed
    rot = Rotation.from_euler("ZYX", [-7.25] * 3, degrees=True)
    ned = rot.apply([-7.25] * 3)
    np.testing.assert_allclose(always["vn"], ned[0], atol=1e-12)
    np.testing.assert_allclose(always["vu"], -ned[2], atol=1e-12)


def test_anchor_frequency_and_independence():
    n, p = 100_000, 0.1
    res = DvlSimulator(noisy_sensors(p=p), seed=10).measure_many(truth_array(n, seed=11))
    anchored = np.stack([res[f] == -7.25 for f in dc.TRUTH_FIELDS])
    sigma = np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(anchored.mean(axis=1) - p) < 5 * sigma)
    # sensors anchor independently: joint rate p^2 (binomial, 5 sigma)
    joint = (anchored[0] & anchored[1]).mean()
    assert abs(joint - p * p) < 5 * np.sqrt(p * p * (1 - p * p) / n)
    # consecutive samples of one sensor too
    lag = (anchored[2, 1:] & anchored[2, :-1]).mean()
    assert abs(lag - p * p) < 5 * np.sqrt(p * p * (1 - p * p) / n)


@pytest.mark.parametrize("name", dc.SENSOR_NAMES)
def test_bias_and_sigma_per_sensor(name):
    spec = dc.SENSORS[name]
    b, sd = spec.bias_range[0] * 0.7, spec.noise_dev_range[1] * 0.9
    n = 40000
    t = truth_array(n, seed=12)
    res = DvlSimulator({name: dict(bias=b, noise_stddev=sd)}, seed=13).measure_many(t)
    err = res[spec.field] - t[spec.field]
    # mean within 5 standard errors; std within 5 of its standard errors (~sd/sqrt(2n))
    assert abs(err.mean() - b) < 5 * sd / np.sqrt(n)
    assert abs(err.std(ddof=1) - sd) < 5 * sd / np.sqrt(2 * n)
    assert stats.kstest((err - b) / sd, "norm").pvalue > 1e-3
    # the other sensors stay exact
    other = "depth" if spec.field != "depth" else "roll"
    assert np.array_equal(res[other], t[other])


def test_noise_is_drawn_even_when_anchored():
    t = truth_array(5000, seed=14)
    plain = DvlSimulator(noisy_sensors(p=0.0), seed=15).measure_many(t)
    anch = DvlSimulator(noisy_sensors(p=0.4), seed=15).measure_many(t)
    for f in dc.TRUTH_FIELDS:
        keep = anch[f] != -7.25
        assert 0.5 < keep.mean() < 0.7
        assert np.array_equal(anch[f][keep], plain[f][keep])


def test_normals_are_the_documented_stream():
    seed = 12345
    sim = DvlSimulator({"dvl_sway": dict(noise_stddev=0.5)}, seed=seed)
    child = np.random.SeedSequence(seed).spawn(10)[dc.SENSOR_NAMES.index("dvl_sway")]
    assert sim["dvl_sway"].key == model_key(child, "dvl")
    t = np.zeros(100, TRUTH_DTYPE)
    res = sim.measure_many(t)
    z = np.empty(100, np.float32)  # the float32 draws of stream (key, 0), widened exactly
    fgen.fill_normals(sim["dvl_sway"].key, 0, 0, z)
    assert np.array_equal(res["sway"], 0.5 * z.astype(np.float64))
    z64 = np.empty(100)
    fgen.fill_normals(sim["dvl_sway"].key, 0, 0, z64)
    assert np.max(np.abs(z - z64)) < 1e-6  # the float64 stream to float32 accuracy


M32 = 0xFFFFFFFF


def philox4x32_10(key, stream, block):
    """Reference Philox4x32-10 (Salmon et al. 2011): counter (block, stream), 64-bit key."""
    c = [block & M32, block >> 32, stream & M32, stream >> 32]
    k0, k1 = key & M32, key >> 32
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k0, p1 & M32, (p0 >> 32) ^ c[3] ^ k1, p0 & M32]
        k0, k1 = (k0 + 0x9E3779B9) & M32, (k1 + 0xBB67AE85) & M32
    return c


def test_anchor_rule_is_the_documented_one():
    """Sample n anchors iff h_n < F, or h_n == F and v_n < R (P = p 2^16, F = floor P,
    R = P - F; h_n = half n % 8 of Philox block n // 8 of stream 1, v_n = word 0 of
    block n of stream 2 times 2^-32). Each sample in turn is made the tie, R = 1/2."""
    seed, n = 2024, 40
    key = model_key(np.random.SeedSequence(seed), "dvl")
    halves = [(philox4x32_10(key, 1, i // 8)[(i % 8) // 2] >> (16 * (i % 2))) & 0xFFFF
              for i in range(n)]  # fmt: skip
    tie_outcomes = set()
    for k in range(16):
        f = halves[k]
        expected = [
            h < f or (h == f and philox4x32_10(key, 2, i)[0] / 2**32 < 0.5)
            for i, h in enumerate(halves)
        ]
        tie_outcomes.add(expected[k])
        p = (f + 0.5) / 2**16
        batch = AugmentedWhiteNoise(0.0, 0.0, 1.0, p, seed=seed).measure_many(np.zeros(n))
        one = AugmentedWhiteNoise(0.0, 0.0, 1.0, p, seed=seed)
        single = [one.measure(0.0) for _ in range(n)]
        assert list(batch == 1.0) == expected
        assert single == list(batch)
    assert tie_outcomes == {True, False}  # both ways of settling a tie were checked


def test_streams_are_independent_across_sensors():
    n = 50000
    res = DvlSimulator(noisy_sensors(p=0.0), seed=16).measure_many(np.zeros(n, TRUTH_DTYPE))
    errs = np.stack([res[f] for f in dc.TRUTH_FIELDS])
    c = np.corrcoef(errs)
    off = c[~np.eye(10, dtype=bool)]
    assert np.max(np.abs(off)) < 5 / np.sqrt(n)


# ---- per-sample == batch, reproducibility ---------------------------------------


def test_per_sample_equals_batch_bitwise():
    t = truth_array(777, seed=17)
    batch = DvlSimulator.from_config(dc.example_config()).measure_many(t)
    sim = DvlSimulator.from_config(dc.example_config())
    single = np.array([tuple(sim.measure(row)) for row in t], dtype=MESSAGE_DTYPE)
    assert np.array_equal(bits(batch), bits(single))


def test_split_batches_and_mid_run_fault_match_per_sample():
    t = truth_array(1500, seed=18)
    a = DvlSimulator(noisy_sensors(p=0.02), seed=19)
    parts = [a.measure_many(t[:3]), a.measure_many(t[3:700])]
    a["dvl_yaw"].anchor_probability = 1.0  # fault injected at sample 700
    a["dvl_surge"].bias = 0.1
    parts.append(a.measure_many(t[700:]))
    b = DvlSimulator(noisy_sensors(p=0.02), seed=19)
    rows = []
    for i, row in enumerate(t):
        if i == 700:
            b["dvl_yaw"].anchor_probability = 1.0
            b["dvl_surge"].bias = 0.1
        rows.append(tuple(b.measure(row)))
    single = np.array(rows, dtype=MESSAGE_DTYPE)
    assert np.array_equal(bits(np.concatenate(parts)), bits(single))
    assert np.all(single["yaw"][700:] == -7.25)


@settings(max_examples=25, deadline=None)
@given(
    split=st.integers(0, 300),
    p=st.sampled_from([0.0, 0.3, 1.0]),
    sd=st.sampled_from([0.0, 0.4]),
    seed=st.integers(0, 2**32),
    start=st.integers(0, 100),
)
def test_any_split_equals_per_sample(split, p, sd, seed, start):
    t = truth_array(300, seed=seed % 7)
    sens = {n: dict(noise_stddev=sd, anchor=2.5, anchor_probability=p) for n in dc.SENSOR_NAMES}
    a = DvlSimulator(sens, seed=seed)
    b = DvlSimulator(sens, seed=seed)
    for s in (a, b):
        for name in dc.SENSOR_NAMES:
            s[name].position = start  # any starting sample, e.g. inside a Philox block
    batch = np.concatenate([a.measure_many(t[:split]), a.measure_many(t[split:])])
    single = np.array([tuple(b.measure(row)) for row in t], dtype=MESSAGE_DTYPE)
    assert np.array_equal(bits(batch), bits(single))


def test_threads_give_the_same_bits():
    t = truth_array(70_001, seed=31)
    one = DvlSimulator(noisy_sensors(), seed=32)
    three = DvlSimulator(noisy_sensors(), seed=32)
    a = one.measure_many(t)
    b = three.measure_many(t, threads=3)
    assert np.array_equal(bits(a), bits(b))
    assert three["RPM"].position == 70_001
    assert np.array_equal(bits(one.measure_many(t[:5])), bits(three.measure_many(t[:5])))
    with pytest.raises(ValueError, match="threads"):
        one.measure_many(t[:5], threads=0)


def test_same_seed_same_output_other_seed_differs():
    t = truth_array(100, seed=20)
    r1 = DvlSimulator(noisy_sensors(), seed=21).measure_many(t)
    r2 = DvlSimulator(noisy_sensors(), seed=21).measure_many(t)
    r3 = DvlSimulator(noisy_sensors(), seed=22).measure_many(t)
    assert np.array_equal(bits(r1), bits(r2))
    assert not np.array_equal(r1["roll"], r3["roll"])


def test_seed_sequence_is_not_consumed():
    ss = np.random.SeedSequence(5)
    t = truth_array(10)
    a = DvlSimulator(noisy_sensors(), seed=ss).measure_many(t)
    b = DvlSimulator(noisy_sensors(), seed=ss).measure_many(t)
    assert np.array_equal(bits(a), bits(b)) and ss.n_children_spawned == 0


def test_copy_reset_pickle_continue_identically():
    t = truth_array(300, seed=23)
    sim = DvlSimulator(noisy_sensors(), seed=24)
    sim.measure_many(t[:100])
    twin, pick = sim.copy(), pickle.loads(pickle.dumps(sim))
    rest = sim.measure_many(t[100:])
    assert np.array_equal(bits(twin.measure_many(t[100:])), bits(rest))
    assert np.array_equal(bits(pick.measure_many(t[100:])), bits(rest))
    sim.reset()
    first = DvlSimulator(noisy_sensors(), seed=24).measure_many(t[:100])
    assert np.array_equal(bits(sim.measure_many(t[:100])), bits(first))


_SIMD_SCRIPT = """
import hashlib, numpy as np
from fastnoise.models.dvl import config as dc
from fastnoise.core import generator as fgen
from fastnoise.models.dvl.simulator import DvlSimulator, TRUTH_DTYPE
rng = np.random.default_rng(0)
t = np.zeros(1003, TRUTH_DTYPE)
for f in dc.TRUTH_FIELDS:
    t[f] = rng.uniform(-50, 50, t.size)
sens = {n: dict(noise_stddev=0.1, anchor=1.0, anchor_probability=0.2) for n in dc.SENSOR_NAMES}
print(hashlib.sha256(DvlSimulator(sens, seed=3).measure_many(t).tobytes()).hexdigest())
"""


def test_same_bits_on_every_simd_path():
    paths = simd.simd_paths_available()
    digests = set()
    for path in paths:
        env = dict(os.environ, FASTNOISE_SIMD=path)
        out = subprocess.run(
            [sys.executable, "-c", _SIMD_SCRIPT], env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        digests.add(out.stdout.strip())
    assert len(digests) == 1, (paths, digests)


def test_same_bits_on_every_simd_level_in_process():
    t = truth_array(1003, seed=33)
    before = simd.simd_path()
    outs = []
    try:
        for path in simd.simd_paths_available():
            assert simd.set_simd_path(path) == path
            outs.append(DvlSimulator(noisy_sensors(0.2), seed=34).measure_many(t))
    finally:
        simd.set_simd_path(before)
    assert all(np.array_equal(bits(o), bits(outs[0])) for o in outs[1:])


# ---- inputs and outputs -----------------------------------------------------------


def test_measure_accepts_mapping_sequence_and_row():
    t = truth_array(1, seed=25)
    t["rpm"] = 640.0  # an integer value, so the int form below is the same number
    forms = [
        {f: float(t[f][0]) for f in dc.TRUTH_FIELDS},
        [float(t[f][0]) for f in dc.TRUTH_FIELDS],
        tuple(int(t[f][0]) if f == "rpm" else t[f][0] for f in dc.TRUTH_FIELDS),
        np.array([t[f][0] for f in dc.TRUTH_FIELDS]),
        t[0],
    ]
    outs = [DvlSimulator(noisy_sensors(), seed=26).measure(x) for x in forms]
    assert all(o == outs[0] for o in outs[1:])
    m = outs[0]
    assert isinstance(m, DvlMeasurement)
    assert m["vn"] == m.vn and m.as_dict()["rpm"] == m.rpm and len(m) == 13
    assert pickle.loads(pickle.dumps(m)) == m


def test_measure_many_mapping_broadcast_and_out():
    t = truth_array(64, seed=27)
    cols = {f: np.ascontiguousarray(t[f]) for f in dc.TRUTH_FIELDS}
    cols["rpm"] = 900.0  # a scalar broadcasts
    t2 = t.copy()
    t2["rpm"] = 900.0
    before = t2.copy()
    out = np.empty(64, MESSAGE_DTYPE)
    r1 = DvlSimulator(noisy_sensors(), seed=28).measure_many(cols, out=out)
    r2 = DvlSimulator(noisy_sensors(), seed=28).measure_many(t2)
    assert r1 is out
    assert np.array_equal(bits(r1), bits(r2))
    assert np.array_equal(bits(t2), bits(before))  # input untouched


def test_every_truth_layout_gives_the_same_bits():
    """Record layouts take their own gather path in C: table-order records (stride 10),
    wider records, strided slices, other field orders and separate columns must all
    give the bits of the plain columns."""
    t = truth_array(1203, seed=41)
    cols = {f: np.ascontiguousarray(t[f]) for f in dc.TRUTH_FIELDS}
    wide = np.zeros(1203, [("time", np.float64)] + [(f, np.float64) for f in dc.TRUTH_FIELDS])
    rev = np.zeros(1203, [(f, np.float64) for f in reversed(dc.TRUTH_FIELDS)])
    twice = np.zeros(2406, TRUTH_DTYPE)
    packed = np.zeros(1203, [("flag", np.int8)] + [(f, np.float64) for f in dc.TRUTH_FIELDS])
    swapped = np.zeros(1203, [(f, ">f8") for f in dc.TRUTH_FIELDS])
    for f in dc.TRUTH_FIELDS:
        wide[f] = rev[f] = twice[f][::2] = packed[f] = swapped[f] = t[f]
    expected = DvlSimulator(noisy_sensors(), seed=42).measure_many(cols)
    for layout in (t, wide, rev, twice[::2], packed, swapped):
        got = DvlSimulator(noisy_sensors(), seed=42).measure_many(layout)
        assert np.array_equal(bits(got), bits(expected))
    # float32 fields are converted, not reinterpreted
    single = np.zeros(1203, [(f, np.float32) for f in dc.TRUTH_FIELDS])
    for f in dc.TRUTH_FIELDS:
        single[f] = t[f]
    got = DvlSimulator(noisy_sensors(), seed=42).measure_many(single)
    as64 = {f: single[f].astype(np.float64) for f in dc.TRUTH_FIELDS}
    assert np.array_equal(
        bits(got), bits(DvlSimulator(noisy_sensors(), seed=42).measure_many(as64))
    )


def test_measure_many_input_errors():
    sim = DvlSimulator(seed=1)
    t = truth_array(4)
    with pytest.raises(ValueError, match="altitude"):
        sim.measure_many({f: t[f] for f in dc.TRUTH_FIELDS if f != "altitude"})
    with pytest.raises(TypeError, match="structured array or a mapping"):
        sim.measure_many(np.zeros((4, 10)))
    with pytest.raises(TypeError, match="roll"):
        sim.measure_many(dict({f: t[f] for f in dc.TRUTH_FIELDS}, roll=["a"] * 4))
    with pytest.raises(TypeError, match="dtype"):
        sim.measure_many(t, out=np.empty(4))
    with pytest.raises(ValueError, match="depth"):
        sim.measure({f: 0.0 for f in dc.TRUTH_FIELDS if f != "depth"})
    with pytest.raises(TypeError, match="pitch"):
        sim.measure({f: ("x" if f == "pitch" else 0.0) for f in dc.TRUTH_FIELDS})
    with pytest.raises(ValueError, match="10"):
        sim.measure([0.0] * 9)
    with pytest.raises(KeyError, match="dvl_foo"):
        sim["dvl_foo"]


def test_augmented_white_noise_alone():
    awn = AugmentedWhiteNoise(0.5, 2.0, 99.0, 0.25, seed=30)
    twin = awn.copy()
    x = np.linspace(-5, 5, 1001)
    before = x.copy()
    batch = awn.measure_many(x)
    single = np.array([twin.measure(v) for v in x])
    assert np.array_equal(bits(batch), bits(single))
    assert np.array_equal(x, before)
    assert awn.position == 1001
    awn.reset()
    assert np.array_equal(bits(awn.measure_many(x)), bits(batch))
    frac = np.mean(batch == 99.0)
    assert abs(frac - 0.25) < 5 * np.sqrt(0.25 * 0.75 / 1001)
    with pytest.raises(TypeError, match="position"):
        awn.position = 1.5  # not silently truncated
    with pytest.raises(ValueError, match="position"):
        awn.position = -1
    awn.position = 7
    assert awn.position == 7
    again = pickle.loads(pickle.dumps(twin))
    assert again.measure(1.0) == twin.measure(1.0)


@pytest.mark.parametrize(
    ("kwargs", "exc", "match"),
    [
        (dict(noise_stddev=-1.0), ValueError, "noise_stddev"),
        (dict(anchor_probability=1.5), ValueError, "anchor_probability"),
        (dict(anchor_probability=-0.1), ValueError, "anchor_probability"),
        (dict(anchor=float("nan")), ValueError, "anchor"),
        (dict(anchor=float("inf")), ValueError, "anchor"),
        (dict(bias=float("inf")), ValueError, "bias"),
        (dict(bias="1"), TypeError, "bias"),
        (dict(sensor="dvl_nope"), ValueError, "sensor"),
    ],
)
def test_parameter_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        AugmentedWhiteNoise(**kwargs)


def test_setter_errors_keep_old_values():
    awn = AugmentedWhiteNoise(1.0, 1.0, 0.0, 0.5)
    with pytest.raises(ValueError, match="anchor_probability"):
        awn.anchor_probability = 2.0
    with pytest.raises(ValueError, match="noise_stddev"):
        awn.noise_stddev = float("nan")
    assert (awn.anchor_probability, awn.noise_stddev) == (0.5, 1.0)


def test_range_warning_and_strict():
    with pytest.warns(dc.DvlRangeWarning, match="dvl_roll"):
        DvlSimulator({"dvl_roll": dict(bias=11.0)})
    with pytest.warns(dc.DvlRangeWarning, match="noise_stddev"):
        DvlSimulator({"RPM": dict(noise_stddev=31.0)})
    with pytest.raises(ValueError, match="strict"):
        DvlSimulator({"dvl_yaw": dict(bias=-20.5)}, strict=True)
    sim = DvlSimulator(strict=False)
    with pytest.warns(dc.DvlRangeWarning, match="dvl_depth"):
        sim["dvl_depth"].noise_stddev = 3.5
    strict = DvlSimulator(strict=True)
    with pytest.raises(ValueError, match="reasonable"):
        strict["water_speed"].bias = 1.5
    assert strict["water_speed"].bias == 0.0
    with pytest.warns(dc.DvlRangeWarning):
        odd = DvlSimulator({"dvl_pitch": dict(bias=12.0)}, seed=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        DvlSimulator({"dvl_yaw": dict(bias=20.0, noise_stddev=10.0, anchor=1e9)})  # edges ok
        AugmentedWhiteNoise(bias=1e6)  # no sensor: no table
        twin = pickle.loads(pickle.dumps(odd))  # warned once, at construction
    assert twin["dvl_pitch"].bias == 12.0


# ---- configuration ----------------------------------------------------------------


def test_sensor_table_is_the_seed_table():
    assert dc.SENSOR_NAMES == (
        "dvl_roll", "dvl_pitch", "dvl_yaw", "dvl_surge", "dvl_sway", "dvl_heave",
        "dvl_depth", "dvl_altitude", "water_speed", "RPM",
    )  # fmt: skip
    assert dc.SENSORS["dvl_yaw"].bias_range == (-20.0, 20.0)
    assert dc.SENSORS["dvl_yaw"].noise_dev_range == (0.0, 10.0)
    assert dc.SENSORS["water_speed"].noise_dev_range == (0.0, 1.2)
    assert dc.SENSORS["RPM"].unit == "rev/min"
    assert dc.SENSORS["dvl_altitude"].unit == "m"


def test_config_round_trip(tmp_path):
    cfg = dc.example_config()
    path = tmp_path / "dvl.json"
    dc.save_config(cfg, path)
    again = dc.load_config(path)
    assert again == cfg
    raw = json.loads(path.read_text())
    assert set(raw["dvl_roll"]) == {"bias", "noiseDev", "anchor", "anchorProbability"}
    sim = DvlSimulator.from_config(path)
    assert sim.to_config() == cfg
    buf = io.StringIO()
    dc.save_config(sim.to_config(), buf)
    buf.seek(0)
    assert dc.load_config(buf) == cfg
    t = truth_array(50)
    a = DvlSimulator.from_config(cfg).measure_many(t)
    b = DvlSimulator.from_config(str(path)).measure_many(t)
    assert np.array_equal(bits(a), bits(b))


def test_config_defaults_and_seed_override():
    cfg = dc.load_config({"dvl_yaw": {"noiseDev": 2.0}})
    assert cfg.seed is None
    assert cfg.sensors["dvl_yaw"] == dc.DvlSensorNoise(0.0, 2.0, 0.0, 0.0)
    assert cfg.sensors["dvl_roll"] == dc.DvlSensorNoise()
    sim = DvlSimulator.from_config({"seed": 3}, seed=4)
    assert sim.seed.entropy == 4


@pytest.mark.parametrize(
    ("data", "exc", "match"),
    [
        ({"dvl_foo": {}}, ValueError, "dvl_foo"),
        ({"dvl_roll": {"noise_stddev": 1.0}}, ValueError, "dvl_roll.noise_stddev"),
        ({"dvl_roll": {"bias": "1.0"}}, TypeError, "dvl_roll.bias"),
        ({"dvl_roll": {"bias": True}}, TypeError, "dvl_roll.bias"),
        ({"dvl_roll": {"anchor": None}}, TypeError, "dvl_roll.anchor"),
        ({"dvl_roll": {"anchor": float("nan")}}, ValueError, "dvl_roll.anchor"),
        ({"dvl_pitch": {"noiseDev": float("inf")}}, ValueError, "dvl_pitch.noiseDev"),
        ({"dvl_pitch": {"noiseDev": -0.5}}, ValueError, "dvl_pitch.noiseDev"),
        ({"RPM": {"anchorProbability": 1.01}}, ValueError, "RPM.anchorProbability"),
        ({"dvl_sway": [1, 2]}, TypeError, "dvl_sway"),
        ({"seed": -1}, ValueError, "seed"),
        ({"seed": 1.5}, TypeError, "seed"),
        ({"seed": "7"}, TypeError, "seed"),
    ],
)
def test_config_errors(data, exc, match):
    with pytest.raises(exc, match=match):
        dc.load_config(data)


def test_config_top_level_must_be_object(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2]")
    with pytest.raises(TypeError, match="JSON object"):
        dc.load_config(path)


def test_config_file_with_nan_literal_is_rejected(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"dvl_depth": {"anchor": NaN}}')
    with pytest.raises(ValueError, match="dvl_depth.anchor"):
        dc.load_config(path)
    path.write_text('{"dvl_depth": {"anchor": 1e999}}')
    with pytest.raises(ValueError, match="dvl_depth.anchor"):
        dc.load_config(path)


def test_config_range_warning_and_strict():
    with pytest.warns(dc.DvlRangeWarning, match="dvl_altitude.bias"):
        dc.load_config({"dvl_altitude": {"bias": 2.5}})
    with pytest.raises(ValueError, match="dvl_altitude.bias"):
        dc.load_config({"dvl_altitude": {"bias": 2.5}}, strict=True)


def test_from_config_warns_once_per_value_out_of_range():
    with pytest.warns(dc.DvlRangeWarning) as record:
        DvlSimulator.from_config({"dvl_altitude": {"bias": 2.5}, "seed": 1})
    assert len([w for w in record if issubclass(w.category, dc.DvlRangeWarning)]) == 1


@pytest.mark.parametrize("strict", ["no", 1, None])
def test_strict_must_be_a_bool(strict):
    with pytest.raises(TypeError, match="strict"):
        DvlSimulator(strict=strict)


# ---- the model contract: state shape, unbuilt objects, failed re-init ----------------


def test_sensor_state_is_the_contract_shape():
    awn = AugmentedWhiteNoise(0.5, 2.0, 99.0, 0.25, seed=30, sensor="dvl_yaw", strict=True)
    awn.measure_many(np.zeros(13))
    s = awn.state
    assert s["model"] == "augmented_white_noise" and s["version"] == 1
    assert s["params"] == dict(
        bias=0.5, noise_stddev=2.0, anchor=99.0, anchor_probability=0.25, sensor="dvl_yaw",
        strict=True,
    )  # fmt: skip
    assert s["position"] == {"position": 13}
    twin = AugmentedWhiteNoise.from_state(s)
    assert twin.key == awn.key and twin == awn
    x = np.linspace(-1, 1, 50)
    assert np.array_equal(bits(twin.measure_many(x)), bits(awn.measure_many(x)))


def test_simulator_state_nests_each_sensor():
    sim = DvlSimulator(noisy_sensors(), seed=24, strict=False)
    sim.measure_many(truth_array(5))
    sim["dvl_yaw"].measure(1.0)  # one sensor ahead of the others
    s = sim.state
    assert s["model"] == "dvl_simulator"
    assert set(s["params"]) == {"sensors", "strict"} and s["params"]["strict"] is False
    assert list(s["params"]["sensors"]) == list(dc.SENSOR_NAMES)
    assert s["params"]["sensors"]["dvl_roll"] == noisy_sensors()["dvl_roll"]
    assert s["position"] == {
        "sensors": {n: {"position": 6 if n == "dvl_yaw" else 5} for n in dc.SENSOR_NAMES}
    }
    twin = pickle.loads(pickle.dumps(sim))
    assert twin.state == s and twin["dvl_yaw"].position == 6
    t = truth_array(40, seed=3)
    assert np.array_equal(bits(twin.measure_many(t)), bits(sim.measure_many(t)))


def test_state_setter_leaves_no_pointer_into_dropped_sensors():
    import gc

    t = truth_array(30, seed=5)
    src = DvlSimulator(noisy_sensors(0.3), seed=50)
    src.measure_many(t)
    sim = DvlSimulator(seed=51)
    sim.state = src.state
    gc.collect()  # the sensors sim had before are gone
    assert np.array_equal(bits(sim.measure_many(t)), bits(src.measure_many(t)))
    assert sim.measure(t[0]) == src.measure(t[0])


@pytest.mark.parametrize("cls", [AugmentedWhiteNoise, DvlSimulator])
def test_objects_made_with_new_raise_cleanly(cls):
    obj = cls.__new__(cls)
    calls = [lambda: obj.state, lambda: obj.copy(), lambda: pickle.dumps(obj), repr]
    if cls is DvlSimulator:
        calls += [
            lambda: obj.measure(dict.fromkeys(dc.TRUTH_FIELDS, 0.0)),
            lambda: obj.measure_many(truth_array(3)),
            lambda: obj.measure_many(truth_array(70_000), threads=2),
            lambda: obj["dvl_yaw"],
            lambda: obj.sensors,
            lambda: obj.reset(),
            lambda: obj.to_config(),
            lambda: obj.key,
        ]
    else:
        calls += [lambda: obj.measure(1.0), lambda: obj.measure_many(np.zeros(4))]
    for call in calls:
        with pytest.raises(RuntimeError, match="never initialised"):
            call(obj) if call is repr else call()
    obj.__init__(seed=3)  # and it can still be built
    assert obj.state == cls(seed=3).state


@pytest.mark.parametrize(
    "bad",
    [
        dict(sensors={"dvl_roll": dict(bias="x")}),
        dict(sensors={"dvl_roll": dict(noise_stddev=-1.0)}),
        dict(sensors={"dvl_nope": {}}),
        dict(sensors={"dvl_yaw": dict(bias=-20.5)}, strict=True),
        dict(strict="no"),
        dict(seed=-1),
    ],
)
def test_failed_reinit_leaves_the_simulator_unchanged_and_usable(bad):
    t = truth_array(40, seed=7)
    sim = DvlSimulator(noisy_sensors(0.2), seed=60)
    sim.measure_many(t[:10])
    yaw = sim["dvl_yaw"]
    before = sim.state
    with pytest.raises((TypeError, ValueError)):
        sim.__init__(**bad)
    assert sim.state == before and sim["dvl_yaw"] is yaw
    ref = DvlSimulator.from_state(before)
    assert np.array_equal(bits(sim.measure_many(t)), bits(ref.measure_many(t)))
    assert sim.measure(t[0]) == ref.measure(t[0])


def test_failed_reinit_leaves_the_sensor_unchanged():
    awn = AugmentedWhiteNoise(0.5, 2.0, 99.0, 0.25, seed=30, sensor="dvl_yaw")
    awn.measure(1.0)
    before = awn.state
    for bad in (dict(strict=1), dict(bias="1"), dict(noise_stddev=-1.0), dict(sensor="x")):
        with pytest.raises((TypeError, ValueError)):
            awn.__init__(**bad)
        assert awn.state == before


def test_batch_helper_cannot_be_made_from_python():
    from fastnoise.models.dvl import measurement as dvl_measurement

    for make in (
        lambda: dvl_measurement._Batch(),
        lambda: dvl_measurement._Batch.__new__(dvl_measurement._Batch),
        lambda: dvl_measurement._Batch.__new__(dvl_measurement._Batch, object()),
    ):
        with pytest.raises(TypeError, match="internal"):
            make()


def test_numbers_are_validated_bools_and_strings_refused():
    awn = AugmentedWhiteNoise(seed=1)
    for bad in (True, np.bool_(False), "1.0", None):
        with pytest.raises(TypeError, match="truth"):
            awn.measure(bad)
    assert awn.position == 0  # a refused value draws nothing
    assert awn.measure(2) == 2.0 and awn.measure(np.float32(0.5)) == 0.5
    assert math.isnan(awn.measure(math.nan))  # non-finite truth propagates
    sim = DvlSimulator(seed=1)
    row = dict.fromkeys(dc.TRUTH_FIELDS, 0.0)
    for bad in (True, "0.5"):
        with pytest.raises(TypeError, match="yaw"):
            sim.measure(dict(row, yaw=bad))
        with pytest.raises(TypeError, match="yaw"):
            sim.measure([bad if f == "yaw" else 0.0 for f in dc.TRUTH_FIELDS])
    assert sim["RPM"].position == 0
    with pytest.raises(TypeError, match="position"):
        awn.position = True
    with pytest.raises(ValueError, match="position"):
        awn.position = 2**64
    with pytest.raises(TypeError, match="bias"):
        awn.bias = True
    with pytest.raises(TypeError, match="threads"):
        sim.measure_many(truth_array(3), threads=True)


# ---- hardening: positions never wrap -------------------------------------------------

LAST = 2**64 - 1


def test_batch_up_to_the_last_position_is_computed_and_past_it_refused():
    """A sensor at 2**64 - 100 with anchors on took (first + m + 7) / 8 with a wrapped
    sum: a stack overflow in csrc/dvl.c. Now the batch up to the last position is
    computed, bit for bit as per-sample calls, and one sample more is refused."""
    awn = AugmentedWhiteNoise(0.5, 2.0, 99.0, 0.3, seed=3, sensor="dvl_yaw")
    twin = awn.copy()
    awn.position = twin.position = LAST - 99
    x = np.linspace(-1, 1, 99)
    got = awn.measure_many(x)
    assert np.array_equal(bits(got), bits(np.array([twin.measure(v) for v in x])))
    assert awn.position == twin.position == LAST
    for call in (lambda: awn.measure(0.0), lambda: awn.measure_many(np.zeros(1))):
        with pytest.raises(OverflowError, match=rf"'dvl_yaw' is at position {LAST}"):
            call()
    assert awn.position == LAST
    awn.position = LAST - 3
    with pytest.raises(OverflowError, match=rf"position {LAST - 3}: 4 more"):
        awn.measure_many(np.zeros(4))
    assert awn.position == LAST - 3
    assert awn.measure_many(np.zeros(0)).shape == (0,)


@pytest.mark.parametrize("threads", [1, 2])
def test_simulator_refuses_a_batch_past_any_sensors_last_position(threads):
    sim = DvlSimulator(noisy_sensors(0.3), seed=8)
    n = 70_000 if threads == 2 else 300
    for s in sim.sensors.values():
        s.position = LAST - n - 5
    sim["dvl_depth"].position = LAST - n + 1
    before = sim.state
    t = truth_array(n, seed=1)
    with pytest.raises(OverflowError, match=rf"'dvl_depth' is at position {LAST - n + 1}"):
        sim.measure_many(t, threads=threads)
    assert sim.state == before  # all or nothing: no sensor moved
    sim["dvl_depth"].position = LAST - n
    ref = DvlSimulator.from_state(sim.state)
    got = sim.measure_many(t, threads=threads)
    single = np.array([tuple(ref.measure(row)) for row in t[:50]], dtype=MESSAGE_DTYPE)
    assert np.array_equal(bits(got[:50]), bits(single))
    assert sim["dvl_depth"].position == LAST
    with pytest.raises(OverflowError, match="'dvl_depth'"):
        sim.measure(t[0])
    assert sim["dvl_roll"].position == LAST - 5  # refused per-sample call: none moved


# ---- hardening: threads sharing one object -------------------------------------------


def _shared_run(calls_per_thread, call, nthreads=4):
    """Run call() calls_per_thread times on each of nthreads threads at once."""
    import threading

    barrier = threading.Barrier(nthreads)
    results = [[] for _ in range(nthreads)]

    def work(i):
        barrier.wait()
        for _ in range(calls_per_thread):
            results[i].append(call())

    threads = [threading.Thread(target=work, args=(i,)) for i in range(nthreads)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return [r for rs in results for r in rs]


def _sorted_records(arrays):
    """The messages of all arrays as rows of 13 words, sorted."""
    rows = np.concatenate([np.ravel(a) for a in arrays]).view(np.uint64).reshape(-1, 13)
    return np.sort(np.ascontiguousarray(rows).view("V104").ravel())


def _sorted_bits(arrays):
    return np.sort(np.concatenate([np.ravel(bits(np.asarray(a))) for a in arrays]))


def test_one_sensor_shared_by_four_threads_hands_out_each_sample_once():
    """Before, the position was read and advanced with the GIL released: threads got
    the same span twice and skipped others. Together, four threads must give exactly
    the samples of one thread making all the calls (as a multiset). (Four trials: on
    the old code a single trial failed 4 times in 5 on a loaded 2-core machine.)"""
    x = np.full(50_000, 0.25)
    for trial in range(4):
        shared = AugmentedWhiteNoise(0.5, 2.0, 99.0, 0.2, seed=31 + trial)
        got = _shared_run(8, lambda s=shared: s.measure_many(x))
        got += _shared_run(500, lambda s=shared: [s.measure(0.25)])
        ref = AugmentedWhiteNoise(0.5, 2.0, 99.0, 0.2, seed=31 + trial)
        expected = [ref.measure_many(np.full(32 * 50_000 + 2000, 0.25))]
        assert shared.position == ref.position
        assert np.array_equal(_sorted_bits(got), _sorted_bits(expected)), trial


@pytest.mark.parametrize("trial", range(3))
def test_one_simulator_shared_by_four_threads_hands_out_each_message_once(trial):
    t = np.zeros(8000, TRUTH_DTYPE)  # equal truth: a message depends on its position only
    t["depth"] = 10.0
    shared = DvlSimulator(noisy_sensors(0.2), seed=32 + trial)
    got = _shared_run(10, lambda: shared.measure_many(t))
    got += _shared_run(3, lambda: shared.measure_many(t[:2], threads=2))
    got += _shared_run(2, lambda: shared.measure_many(np.resize(t, 70_000), threads=2))
    got += _shared_run(100, lambda: np.array([tuple(shared.measure(t[0]))], MESSAGE_DTYPE))
    ref = DvlSimulator(noisy_sensors(0.2), seed=32 + trial)
    expected = [ref.measure_many(np.resize(t, 40 * 8000 + 24 + 8 * 70_000 + 400))]
    assert shared.state == ref.state
    # whole messages compared, so a message mixing two positions would show too
    assert np.array_equal(_sorted_records(got), _sorted_records(expected))


@pytest.mark.parametrize("trial", range(3))
def test_threads_measuring_the_simulator_and_its_sensors_share_positions_rightly(trial):
    """The simulator's batches and a sensor's own batches draw on the same positions:
    every sample of the sensor is used exactly once across both."""
    t = np.zeros(20_000, TRUTH_DTYPE)
    shared = DvlSimulator(noisy_sensors(0.2), seed=33 + trial)
    yaw = shared["dvl_yaw"]
    x = np.zeros(20_000)
    rng = np.random.default_rng(trial)
    which = iter(rng.integers(0, 2, 40).tolist())

    def call():
        return shared.measure_many(t)["yaw"] if next(which) else yaw.measure_many(x)

    got = _shared_run(10, call)
    ref = DvlSimulator(noisy_sensors(0.2), seed=33 + trial)["dvl_yaw"]
    assert yaw.position == 40 * 20_000
    assert np.array_equal(_sorted_bits(got), _sorted_bits([ref.measure_many(np.zeros(800_000))]))


# ---- hardening: out= overlapping the input -------------------------------------------


def test_sensor_out_overlapping_truth_is_refused_in_place_is_allowed():
    awn = AugmentedWhiteNoise(0.5, 2.0, 99.0, 0.2, seed=34)
    base = np.linspace(-3, 3, 2001)
    expected = awn.copy().measure_many(base[:2000])
    buf = base.copy()
    with pytest.raises(ValueError, match="out overlaps truth"):
        awn.measure_many(buf[:2000], out=buf[1:])
    assert np.array_equal(buf, base) and awn.position == 0  # nothing changed
    inplace = base[:2000].copy()
    assert awn.measure_many(inplace, out=inplace) is inplace
    assert np.array_equal(bits(inplace), bits(expected))


def test_simulator_out_overlapping_truth_is_refused_in_place_is_allowed():
    t = truth_array(3000, seed=35)
    expected = DvlSimulator(noisy_sensors(0.2), seed=36).measure_many(t)
    sim = DvlSimulator(noisy_sensors(0.2), seed=36)
    out = np.zeros(3001, MESSAGE_DTYPE)
    for f in dc.TRUTH_FIELDS:
        out[f][1:] = t[f]
    cols = {f: out[f][1:] for f in dc.TRUTH_FIELDS}  # views into out, one record on
    with pytest.raises(ValueError, match="out overlaps truth"):
        sim.measure_many(cols, out=out[:3000])
    assert sim["dvl_roll"].position == 0
    shifted = out[:3000]
    with pytest.raises(ValueError, match="out overlaps truth"):
        sim.measure_many(out[1:], out=shifted)
    inplace = out[1:].copy()  # a MESSAGE_DTYPE array as its own truth: in place
    assert sim.measure_many(inplace, out=inplace) is inplace
    assert np.array_equal(bits(inplace), bits(expected))


# ---- hardening: truth of any layout is read by value ---------------------------------


def test_per_sample_truth_arrays_are_read_by_value_not_as_raw_bytes():
    """A big-endian array gave roll 1.0 read as 3e-319; an unaligned one was read
    through a misaligned pointer."""
    row = np.arange(1.0, 11.0)
    ref = DvlSimulator(seed=37).measure(row)
    raw = np.zeros(81, np.uint8)[1:].view(np.float64)  # unaligned
    raw[:] = row
    for arr in (
        row.astype(">f8"),
        raw,
        row.astype(np.int32),
        row.astype(np.float16),
        np.repeat(row, 2)[::2],
        row[::-1][::-1],
    ):
        assert DvlSimulator(seed=37).measure(arr) == ref
    assert DvlSimulator(seed=37).measure(np.array(tuple(row), TRUTH_DTYPE)) == ref  # 0-d
    for arr, exc in (
        (row.astype(complex), TypeError),
        (row.astype(bool), TypeError),
        (row.astype(object), TypeError),
        (row.reshape(2, 5), ValueError),
        (row.astype("M8[s]"), TypeError),
        (np.zeros(3, TRUTH_DTYPE), TypeError),
    ):
        sim = DvlSimulator(seed=37)
        with pytest.raises(exc, match="truth"):
            sim.measure(arr)
        assert sim["dvl_roll"].position == 0


def test_batch_truth_records_of_any_layout_are_read_by_value():
    t = truth_array(700, seed=38)
    ref = DvlSimulator(noisy_sensors(0.1), seed=39).measure_many(t)
    layouts = {
        "big-endian": [(f, ">f8") for f in dc.TRUTH_FIELDS],
        "packed, unaligned": [("pad", "i1")] + [(f, "<f8") for f in dc.TRUTH_FIELDS],
        "int and float32": [(f, "<i4" if f == "rpm" else "<f4") for f in dc.TRUTH_FIELDS],
    }
    for name, fields in layouts.items():
        rec = np.zeros(700, np.dtype(fields))
        for f in dc.TRUTH_FIELDS:
            rec[f] = t[f] if "f4" not in dict(fields)[f] else t[f].astype(np.float32)
        want = DvlSimulator(noisy_sensors(0.1), seed=39).measure_many(
            {f: np.asarray(rec[f], np.float64) for f in dc.TRUTH_FIELDS}
        )
        got = DvlSimulator(noisy_sensors(0.1), seed=39).measure_many(rec)
        assert np.array_equal(bits(got), bits(want)), name
        if name != "int and float32":
            assert np.array_equal(bits(got), bits(ref)), name
    unaligned = np.zeros(700 * 80 + 1, np.uint8)[1:].view(TRUTH_DTYPE)
    unaligned[:] = t
    got = DvlSimulator(noisy_sensors(0.1), seed=39).measure_many(unaligned)
    assert np.array_equal(bits(got), bits(ref))
    got = DvlSimulator(noisy_sensors(0.1), seed=39).measure_many(t[::-1].copy()[::-1])
    assert np.array_equal(bits(got), bits(ref))


@pytest.mark.parametrize(
    ("ftype", "exc"),
    [
        ("?", TypeError),
        ("c16", TypeError),
        ("O", TypeError),
        ("M8[s]", TypeError),
        ("U3", TypeError),
        ("(2,)f8", TypeError),
    ],
)
def test_batch_truth_fields_of_a_wrong_type_are_refused_by_name(ftype, exc):
    rec = np.zeros(5, [(f, ftype if f == "heave" else "f8") for f in dc.TRUTH_FIELDS])
    sim = DvlSimulator(seed=40)
    with pytest.raises(exc, match="heave"):
        sim.measure_many(rec)
    cols = {f: np.zeros(5, ftype if f == "heave" else "f8") for f in dc.TRUTH_FIELDS}
    if ftype != "(2,)f8":
        with pytest.raises(exc, match="heave"):
            sim.measure_many(cols)
    if ftype == "O":  # per sample a record's values are read one by one: a real one is fine
        rec["heave"][0] = object()
    with pytest.raises(TypeError, match="heave"):
        sim.measure(rec[0])
    assert sim["dvl_heave"].position == 0


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros(4, bool),
        np.zeros(4, complex),
        np.zeros(4, object),
        np.zeros(4, "M8[s]"),
        np.array(["a"] * 4),
        [[1.0, 2.0], [3.0]],
    ],
    ids=["bool", "complex", "object", "datetime", "str", "ragged"],
)
def test_sensor_batch_refuses_non_real_truth_by_name(bad):
    awn = AugmentedWhiteNoise(seed=41)
    with pytest.raises(TypeError, match="truth"):
        awn.measure_many(bad)
    assert awn.position == 0


def test_sensor_batch_reads_any_real_layout_by_value():
    x = np.linspace(-4, 4, 301)
    ref = AugmentedWhiteNoise(0.5, 2.0, 99.0, 0.2, seed=42).measure_many(x)
    raw = np.zeros(301 * 8 + 3, np.uint8)[3:].view(np.float64)
    raw[:] = x
    for arr in (x.astype(">f8"), raw, np.repeat(x, 3)[::3], x[::-1].copy()[::-1]):
        got = AugmentedWhiteNoise(0.5, 2.0, 99.0, 0.2, seed=42).measure_many(arr)
        assert np.array_equal(bits(got), bits(ref))
    ro = x.copy()
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        AugmentedWhiteNoise(seed=42).measure_many(x, out=ro)
    with pytest.raises(TypeError, match="out"):
        AugmentedWhiteNoise(seed=42).measure_many(x, out=np.empty(301, ">f8"))


# ---- hardening: malformed truth names what is wrong ----------------------------------


def test_truth_with_missing_fields_or_odd_values_names_them():
    from collections import OrderedDict

    row = dict.fromkeys(dc.TRUTH_FIELDS, 0.0)
    sim = DvlSimulator(seed=43)
    del row["altitude"]
    for truth in (row, OrderedDict(row), np.zeros((), [(f, "f8") for f in row])[()]):
        with pytest.raises(ValueError, match="altitude"):
            sim.measure(truth)
    with pytest.raises(ValueError, match="altitude"):
        sim.measure_many({f: np.zeros(3) for f in row})
    row["altitude"] = None
    with pytest.raises(TypeError, match="altitude"):
        sim.measure(row)
    for bad in (1j, np.complex128(1), np.datetime64(1, "s"), object(), [1.0], 10**400):
        row["altitude"] = bad
        with pytest.raises((TypeError, ValueError), match="altitude"):
            sim.measure(row)
    for truth in (5.0, None, {1, 2}, (v for v in range(10)), "0123456789"):
        with pytest.raises(TypeError, match="truth"):
            sim.measure(truth)
    assert sim["dvl_roll"].position == 0
    awn = AugmentedWhiteNoise(seed=43)
    for bad in (1j, np.datetime64(1, "s"), object(), np.zeros(1), 10**400):
        with pytest.raises((TypeError, ValueError), match="truth"):
            awn.measure(bad)
    assert awn.position == 0


# ---- hardening: no inf from finite accepted values -----------------------------------


@pytest.mark.parametrize("param", ["bias", "noise_stddev", "anchor"])
@pytest.mark.parametrize("value", [1.0000001e300, 1e308, 10**400])
def test_parameters_beyond_1e300_are_refused_by_name(param, value):
    v = value if param == "noise_stddev" or isinstance(value, int) else -value
    with pytest.raises(ValueError, match=param):
        AugmentedWhiteNoise(**{param: v})
    awn = AugmentedWhiteNoise()
    with pytest.raises(ValueError, match=param):
        setattr(awn, param, v)
    assert getattr(awn, param) == 0.0
    with pytest.raises(ValueError, match=f"dvl_sway.{param}"):
        DvlSimulator({"dvl_sway": {param: v}})


def test_extreme_accepted_values_give_finite_messages():
    big = {
        name: dict(bias=1e300, noise_stddev=1e300, anchor=-1e300, anchor_probability=0.5)
        for name in dc.SENSOR_NAMES
    }
    t = np.full(2000, 1e300, TRUTH_DTYPE.descr[0][1])
    rec = np.zeros(2000, TRUTH_DTYPE)
    for f in dc.TRUTH_FIELDS:
        rec[f] = t * (-1) ** dc.TRUTH_FIELDS.index(f)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dc.DvlRangeWarning)
        sim = DvlSimulator(big, seed=44)
    res = sim.measure_many(rec)
    assert all(np.isfinite(res[f]).all() for f in MESSAGE_DTYPE.names)
    m = sim.measure(rec[0])
    assert all(math.isfinite(v) for v in m)


def test_finite_truth_beyond_1e300_is_refused_by_name():
    sim = DvlSimulator(noisy_sensors(0.1), seed=45)
    row = dict.fromkeys(dc.TRUTH_FIELDS, 1.0)
    with pytest.raises(ValueError, match=r"truth\['sway'\]=1e\+308"):
        sim.measure(dict(row, sway=1e308))
    assert sim["dvl_roll"].position == 0  # per sample: refused before anything moved
    m = sim.measure(dict(row, sway=np.inf, depth=np.nan))  # non-finite: data, kept
    assert m.sway == np.inf and np.isnan(m.depth)
    t = truth_array(1500, seed=46)
    t["depth"][1234] = -1e308
    with pytest.raises(ValueError, match=r"truth\['depth'\]\[1234\]"):
        sim.measure_many(t)
    assert sim["dvl_roll"].position == 1501  # a batch's samples are used
    with pytest.raises(ValueError, match=r"truth\['depth'\]\[1234\]"):
        sim.measure_many(t, threads=2)
    awn = AugmentedWhiteNoise(seed=45)
    with pytest.raises(ValueError, match="truth"):
        awn.measure(-1e301)
    assert awn.position == 0
    with pytest.raises(ValueError, match=r"truth\[7\]"):
        awn.measure_many(np.r_[np.zeros(7), 2e300])
    assert awn.measure(1e300) == 1e300


# ---- hardening: hostile configurations -----------------------------------------------


@pytest.mark.parametrize(
    ("text", "exc", "match"),
    [
        ('{"dvl_roll": {"bias": 1e999}}', ValueError, "dvl_roll.bias"),
        ('{"dvl_roll": {"noiseDev": 1e301}}', ValueError, "dvl_roll.noiseDev"),
        ('{"dvl_yaw": {"anchor": ' + "9" * 400 + "}}", ValueError, "dvl_yaw.anchor"),
        ('{"dvl_yaw": {"anchor": -' + "9" * 5000 + "}}", ValueError, "not valid JSON"),
        ('{"dvl_pitch": {"bias": "NaN"}}', TypeError, "dvl_pitch.bias"),
        ('{"dvl_pitch": {"bias": NaN}}', ValueError, "dvl_pitch.bias"),
        ('{"dvl_pitch": {"bias": -Infinity}}', ValueError, "dvl_pitch.bias"),
        ('{"dvl_pitch": {"anchorProbability": [0.5]}}', TypeError, "dvl_pitch.anchorProb"),
        ('{"dvl_pitch": {"noiseDev": {"a": {"b": 1}}}}', TypeError, "dvl_pitch.noiseDev"),
        ('{"dvl_pitch": {"noiseDev": true}}', TypeError, "dvl_pitch.noiseDev"),
        ('{"dvl_pitch": {"bias": 1, "extra": {}}}', ValueError, "dvl_pitch.extra"),
        ('{"dvl_pitch": "junk"}', TypeError, "dvl_pitch"),
        ('{"dvl_pitch": null}', TypeError, "dvl_pitch"),
        ('{"seed": ' + str(2**200) + "}", ValueError, "seed"),
        ('{"seed": [1, 2]}', TypeError, "seed"),
        ("[" * 100_000 + "]" * 100_000, ValueError, "nested too deeply"),
        ("{'dvl_roll': 1}", ValueError, "not valid JSON"),
        ("[]", TypeError, "JSON object"),
    ],
)
def test_hostile_configurations_are_refused_by_sensor_and_field(text, exc, match):
    with pytest.raises(exc, match=match):
        DvlSimulator.from_config(io.StringIO(text))
    with pytest.raises(exc, match=match):
        dc.load_config(io.StringIO(text))


def test_hostile_configuration_files_and_dicts(tmp_path):
    p = tmp_path / "bad.json"
    p.write_bytes(b'{"dvl_roll": {"bias": \xff}}')
    with pytest.raises(ValueError, match="bad.json"):
        DvlSimulator.from_config(p)
    with pytest.raises(ValueError, match="dvl_roll.bias"):
        DvlSimulator.from_config({"dvl_roll": {"bias": 10**400}})
    with pytest.raises(TypeError, match="strict"):
        dc.load_config({}, strict="yes")
    cfg = dc.DvlConfig(sensors={"dvl_surge": dc.DvlSensorNoise(noise_stddev=float("nan"))})
    with pytest.raises(ValueError, match="dvl_surge.noise_stddev"):
        DvlSimulator.from_config(cfg)


def test_saving_a_tampered_configuration_names_the_field():
    buf = io.StringIO()
    for cfg, exc, match in (
        (dc.DvlConfig(sensors={"dvl_roll": dc.DvlSensorNoise(bias=float("nan"))}), ValueError,
         "dvl_roll.bias"),
        (dc.DvlConfig(sensors={"dvl_roll": dc.DvlSensorNoise(noise_stddev="1")}), TypeError,
         "dvl_roll.noiseDev"),
        (dc.DvlConfig(sensors={"dvl_nope": dc.DvlSensorNoise()}), ValueError, "dvl_nope"),
        (dc.DvlConfig(sensors={"dvl_roll": {"bias": 1.0}}), TypeError, "dvl_roll"),
        (dc.DvlConfig(sensors=[1, 2]), TypeError, "sensors"),
        (dc.DvlConfig(seed=-3), ValueError, "seed"),
    ):  # fmt: skip
        with pytest.raises(exc, match=match):
            dc.save_config(cfg, buf)
    assert buf.getvalue() == ""
    dc.save_config(dc.DvlConfig(sensors={"RPM": dc.DvlSensorNoise(bias=1e300)}, seed=5), buf)
    with pytest.warns(dc.DvlRangeWarning, match="RPM.bias"):
        assert dc.load_config(io.StringIO(buf.getvalue())).sensors["RPM"].bias == 1e300
