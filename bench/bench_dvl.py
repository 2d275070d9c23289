"""DVL suite (the Metron DVL simulator): fastnoise beside the numpy code a user would
write for the same model (white noise + bias, anchor events, R = Rz Ry Rx composite, vU = -vD)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fastnoise.models.dvl import config as dc
from fastnoise.models.dvl.simulator import TRUTH_DTYPE, DvlSimulator

N = 1_000_000


def _params():
    """Every sensor noisy and anchored (the costliest case for both)."""
    sens = {}
    for name, spec in dc.SENSORS.items():
        sens[name] = dict(
            bias=spec.bias_range[1] / 4,
            noise_stddev=spec.noise_dev_range[1] / 4,
            anchor=0.0,
            anchor_probability=0.01,
        )
    cols = [sens[n] for n in dc.SENSOR_NAMES]
    vec = {k: np.array([c[k] for c in cols]) for k in cols[0]}
    return sens, vec


def _truth(n):
    rng = np.random.default_rng(1)
    t = np.zeros(n, TRUTH_DTYPE)
    t["roll"], t["pitch"] = rng.uniform(-20, 20, (2, n))
    t["yaw"] = rng.uniform(-180, 180, n)
    t["surge"], t["sway"], t["heave"] = rng.normal(0, 1, (3, n))
    t["depth"], t["altitude"] = rng.uniform(0, 50, (2, n))
    t["water_speed"] = rng.normal(1.5, 0.2, n)
    t["rpm"] = rng.uniform(500, 900, n)
    return t


def numpy_dvl(truth, bias, noise_stddev, anchor, p, rng):
    """truth: (n, 10) in table order. Returns the measured (n, 10) and vN, vE, vU."""
    n = truth.shape[0]
    meas = truth + bias + noise_stddev * rng.standard_normal((n, 10))
    meas = np.where(rng.random((n, 10)) < p, anchor, meas)
    ang = np.deg2rad(meas[:, :3])
    c, s = np.cos(ang), np.sin(ang)
    cr, cp, cy = c.T
    sr, sp, sy = s.T
    u, v, w = meas[:, 3], meas[:, 4], meas[:, 5]
    vn = cy * cp * u + (cy * sp * sr - sy * cr) * v + (cy * sp * cr + sy * sr) * w
    ve = sy * cp * u + (sy * sp * sr + cy * cr) * v + (sy * sp * cr - cy * sr) * w
    vd = -sp * u + cp * sr * v + cp * cr * w
    return meas, vn, ve, -vd


def numpy_dvl_one(t, bias, noise_stddev, anchor, p, rng):
    """One sample: t is a length-10 array in table order."""
    meas = t + bias + noise_stddev * rng.standard_normal(10)
    meas = np.where(rng.random(10) < p, anchor, meas)
    r, pi, y = (math.radians(a) for a in meas[:3])
    cr, sr, cp, sp, cy, sy = (
        math.cos(r), math.sin(r), math.cos(pi), math.sin(pi), math.cos(y), math.sin(y)
    )  # fmt: skip
    u, v, w = meas[3], meas[4], meas[5]
    vn = cy * cp * u + (cy * sp * sr - sy * cr) * v + (cy * sp * cr + sy * sr) * w
    ve = sy * cp * u + (sy * sp * sr + cy * cr) * v + (sy * sp * cr - cy * sr) * w
    vd = -sp * u + cp * sr * v + cp * cr * w
    return meas, vn, ve, -vd


@pytest.fixture(scope="module")
def truth():
    return _truth(N)


@pytest.mark.benchmark(group="dvl-measure_many-1e6")
def test_fastnoise_measure_many(benchmark, truth):
    sens, _ = _params()
    sim = DvlSimulator(sens, seed=1)
    res = benchmark(sim.measure_many, truth)
    assert res.shape == (N,)


@pytest.mark.benchmark(group="dvl-measure_many-1e6")
def test_numpy_measure_many(benchmark, truth):
    _, v = _params()
    rng = np.random.default_rng(1)
    plain = truth.view((np.float64, 10))  # same memory, (n, 10)
    meas, vn, ve, vu = benchmark(
        numpy_dvl, plain, v["bias"], v["noise_stddev"], v["anchor"], v["anchor_probability"], rng
    )
    assert vn.shape == (N,)


# The same batch split over two threads (measure_many(threads=2); the values do not
# depend on it). numpy has no threaded path for this code, so its case is the same
# single-threaded one; the group shows what a second core buys on this machine.
@pytest.mark.benchmark(group="dvl-measure_many-1e6-threads2")
def test_fastnoise_measure_many_threads2(benchmark, truth):
    sens, _ = _params()
    sim = DvlSimulator(sens, seed=1)
    res = benchmark(sim.measure_many, truth, threads=2)
    assert res.shape == (N,)


@pytest.mark.benchmark(group="dvl-measure_many-1e6-threads2")
def test_numpy_measure_many_threads2(benchmark, truth):
    test_numpy_measure_many(benchmark, truth)


@pytest.mark.benchmark(group="dvl-measure-one")
def test_fastnoise_measure_one(benchmark):
    sens, _ = _params()
    sim = DvlSimulator(sens, seed=1)
    row = {f: float(x) for f, x in zip(dc.TRUTH_FIELDS, _truth(1)[0], strict=True)}
    m = benchmark(sim.measure, row)
    assert math.isfinite(m.vn)


@pytest.mark.benchmark(group="dvl-measure-one")
def test_numpy_measure_one(benchmark):
    _, v = _params()
    rng = np.random.default_rng(1)
    row = _truth(1).view((np.float64, 10))[0].copy()
    meas, vn, ve, vu = benchmark(
        numpy_dvl_one, row, v["bias"], v["noise_stddev"], v["anchor"], v["anchor_probability"], rng
    )
    assert math.isfinite(vn)
