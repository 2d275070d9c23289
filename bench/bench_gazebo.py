"""Gazebo noise (gz-sensors GaussianNoiseModel) and the Gazebo sensor models: fastnoise
beside the numpy code a user would write for the same semantics.

Per sample: a Python object whose ``apply`` calls numpy's Generator for each sample
(``rng.normal``), with ``math`` for the dynamic-bias factors, as gz-sensors' C++ does.
Per batch: vectorized numpy (all normals at once; the dynamic-bias recurrence, an AR(1)
with constant dt, through ``scipy.signal.lfilter``; rounding half away from zero).
Single thread throughout.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.signal import lfilter

import fastnoise as fn

N = 1_000_000
ROWS = 200_000
FULL = {
    "mean": 0.01,
    "stddev": 0.2,
    "bias_mean": 0.5,
    "bias_stddev": 0.1,
    "dynamic_bias_stddev": 0.05,
    "dynamic_bias_correlation_time": 3.0,
    "precision": 1e-4,
}
# what gz-sensors runs for every sensor but the force-torque one (dt = 0: no dynamic bias)
STATIC = {"mean": 0.01, "stddev": 0.2, "bias_mean": 0.5, "bias_stddev": 0.1, "precision": 1e-4}


def _round_away(q):
    return np.copysign(np.floor(np.abs(q) + 0.5), q)


class NumpyGazeboNoise:
    """gz-sensors GaussianNoiseModel, one sample per call, on numpy's Generator."""

    def __init__(self, p, rng):
        self.rng = rng
        self.mean, self.stddev = p.get("mean", 0.0), p.get("stddev", 0.0)
        self.sd = p.get("dynamic_bias_stddev", 0.0)
        self.tau = p.get("dynamic_bias_correlation_time", 0.0)
        self.precision = p.get("precision", 0.0)
        bs = p.get("bias_stddev", 0.0)
        b = rng.normal(p.get("bias_mean", 0.0), bs) if bs > 0 else p.get("bias_mean", 0.0)
        self.bias = -b if rng.random() < 0.5 else b

    def apply(self, x, dt=0.0):
        white = self.rng.normal(self.mean, self.stddev) if self.stddev > 0 else self.mean
        if self.sd > 0 and self.tau > 0 and dt > 0:
            sbd = math.sqrt(-self.sd * self.sd * self.tau / 2 * math.expm1(-2 * dt / self.tau))
            self.bias = math.exp(-dt / self.tau) * self.bias + self.rng.normal(0.0, sbd)
        out = x + self.bias + white
        if self.precision > 1e-6:
            q = out / self.precision
            out = math.copysign(math.floor(abs(q) + 0.5), q) * self.precision
        return out


def numpy_gazebo_batch(x, dt, p, bias0, rng):
    """The same over an array of successive samples, constant dt, vectorized."""
    n = x.shape[-1] if x.ndim == 1 else x.shape[0]
    shape = x.shape
    white = rng.normal(p["mean"], p["stddev"], shape) if p["stddev"] > 0 else p["mean"]
    sd, tau = p.get("dynamic_bias_stddev", 0.0), p.get("dynamic_bias_correlation_time", 0.0)
    if sd > 0 and tau > 0 and dt > 0:
        phi = math.exp(-dt / tau)
        sbd = math.sqrt(-sd * sd * tau / 2 * math.expm1(-2 * dt / tau))
        drive = rng.normal(0.0, sbd, shape)
        # b[k] = phi b[k-1] + w[k], b[-1] = bias0, along the sample axis
        bias, _ = lfilter(
            [1.0], [1.0, -phi], drive, axis=0, zi=np.full((1, *shape[1:]), phi * bias0)
        )
    else:
        bias = bias0
    out = x + bias + white
    if p.get("precision", 0.0) > 1e-6:
        out = _round_away(out / p["precision"]) * p["precision"]
    assert out.shape[0] == n
    return out


# ---- GazeboNoise ---------------------------------------------------------------------------


@pytest.mark.benchmark(group="gazebo-noise-apply_one")
def test_fastnoise_gazebo_apply_one(benchmark):
    m = fn.GazeboNoise(**FULL, seed=1)
    y = benchmark(m.apply_one, 1.0, 0.01)
    assert math.isfinite(y)


@pytest.mark.benchmark(group="gazebo-noise-apply_one")
def test_numpy_gazebo_apply_one(benchmark):
    m = NumpyGazeboNoise(FULL, np.random.default_rng(1))
    y = benchmark(m.apply, 1.0, 0.01)
    assert math.isfinite(y)


@pytest.mark.benchmark(group="gazebo-noise-apply-1e6")
def test_fastnoise_gazebo_apply(benchmark):
    m = fn.GazeboNoise(**FULL, seed=1)
    x = np.zeros(N)
    out = np.empty(N)
    benchmark(m.apply, x, 0.01, out=out)


@pytest.mark.benchmark(group="gazebo-noise-apply-1e6")
def test_numpy_gazebo_apply(benchmark):
    rng = np.random.default_rng(1)
    x = np.zeros(N)
    res = benchmark(numpy_gazebo_batch, x, 0.01, FULL, 0.5, rng)
    assert res.shape == (N,)


# ---- the sensors --------------------------------------------------------------------------

# name -> (fastnoise model, per-component parameters, dt, columns): the numpy user code
# runs one NumpyGazeboNoise per gz-sensors noise object (NavSat's horizontal models
# serve two columns each, as in gz-sensors).
SENSORS = {
    "magnetometer": (lambda: fn.MagnetometerNoise(STATIC, STATIC, STATIC, seed=1), 3, 0.0),
    "altimeter": (lambda: fn.AltimeterNoise(STATIC, STATIC, seed=1), 2, 0.0),
    "air_pressure": (lambda: fn.AirPressureNoise(STATIC, seed=1), 1, 0.0),
    "air_speed_pa": (lambda: fn.AirSpeedNoise(STATIC, pressure_units="pascals", seed=1), 1, 0.0),
    "navsat": (lambda: fn.NavSatNoise(STATIC, STATIC, STATIC, STATIC, seed=1), 6, 0.0),
    "force_torque": (lambda: fn.ForceTorqueNoise(*[FULL] * 6, seed=1), 6, 0.001),
}
# NavSat: columns (lat, lon) share model 0, (ve, vn) model 2
_NAV_MODEL = (0, 0, 1, 2, 2, 3)


def _params(name):
    return FULL if name == "force_torque" else STATIC


def _numpy_one(name, models, row, dt):
    if name == "navsat":
        out = [
            models[_NAV_MODEL[j]].apply(v, dt if j in (0, 3) else 0.0) for j, v in enumerate(row)
        ]
        out[0] = (out[0] + 180.0) % 360.0 - 180.0 if abs(out[0]) > 180.0 else out[0]
        out[1] = (out[1] + 180.0) % 360.0 - 180.0 if abs(out[1]) > 180.0 else out[1]
        return tuple(out)
    return tuple(m.apply(v, dt) for m, v in zip(models, row, strict=True))


@pytest.mark.parametrize("name", sorted(SENSORS))
@pytest.mark.benchmark(group="gazebo-sensor-apply_one")
def test_fastnoise_sensor_apply_one(benchmark, name):
    make, ncol, dt = SENSORS[name]
    m = make()
    row = tuple(float(v) for v in np.linspace(1.0, 2.0, ncol))
    out = benchmark(m.apply_one, *row, dt)
    assert len(np.atleast_1d(out)) == ncol


@pytest.mark.parametrize("name", sorted(SENSORS))
@pytest.mark.benchmark(group="gazebo-sensor-apply_one")
def test_numpy_sensor_apply_one(benchmark, name):
    _, ncol, dt = SENSORS[name]
    rng = np.random.default_rng(1)
    nmod = 4 if name == "navsat" else ncol
    models = [NumpyGazeboNoise(_params(name), rng) for _ in range(nmod)]
    row = tuple(float(v) for v in np.linspace(1.0, 2.0, ncol))
    out = benchmark(_numpy_one, name, models, row, dt)
    assert len(out) == ncol


def _numpy_sensor_batch(name, data, dt, rng, biases):
    p = _params(name)
    if name == "navsat":
        out = np.empty_like(data)
        # one model per pair: its samples interleave lat, lon (ve, vn) in time
        for model, cols in ((0, [0, 1]), (1, [2]), (2, [3, 4]), (3, [5])):
            seq = data[:, cols].reshape(-1)
            res = numpy_gazebo_batch(seq, dt, p, biases[model], rng)
            out[:, cols] = res.reshape(-1, len(cols))
        for c in (0, 1):
            wrap = np.abs(out[:, c]) > 180.0
            out[wrap, c] = (out[wrap, c] + 180.0) % 360.0 - 180.0
        return out
    return numpy_gazebo_batch(
        data, dt, p, biases[: data.shape[1]] if data.ndim == 2 else biases[0], rng
    )


@pytest.mark.parametrize("name", sorted(SENSORS))
@pytest.mark.benchmark(group="gazebo-sensor-apply-2e5-rows")
def test_fastnoise_sensor_apply(benchmark, name):
    make, ncol, dt = SENSORS[name]
    m = make()
    data = np.ones((ROWS, ncol)) if ncol > 1 else np.ones(ROWS)
    out = np.empty_like(data)
    benchmark(m.apply, data, dt, out=out)


@pytest.mark.parametrize("name", sorted(SENSORS))
@pytest.mark.benchmark(group="gazebo-sensor-apply-2e5-rows")
def test_numpy_sensor_apply(benchmark, name):
    _, ncol, dt = SENSORS[name]
    rng = np.random.default_rng(1)
    data = np.ones((ROWS, ncol)) if ncol > 1 else np.ones(ROWS)
    biases = np.full(6, 0.5)
    res = benchmark(_numpy_sensor_batch, name, data, dt, rng, biases)
    assert res.shape == data.shape
