"""IMU noise, fastnoise beside the numpy/scipy code a user would write.

Case "apply": one million samples of a 6-axis IMU (gyro + accel) with white noise of a
given density, a first-order Gauss-Markov bias and 16-bit quantization with saturation.
The default ImuNoise draws its unit normals in float32 (the same streams at float32
accuracy); case "apply-f64normals" is the same with ImuNoise(normal_dtype="float64").
Case "step": one sample of the same model in a real-time loop.
Case "apply-gazebo-precision": white noise and Gazebo's precision rounding
(TriadNoise(rounding="gazebo"): round(y / precision) * precision, halves away from zero),
beside numpy's rng.normal and the same rounding written with np.floor.
Timings: python -m pytest bench/bench_imu.py --benchmark-enable
"""

import math

import numpy as np
import pytest
import scipy.signal
from _imu_formula import NumpyImu, coefficients

from fastnoise.models.imu.imu_noise import ImuNoise

N = 1_000_000
DT = 0.01
GYRO = dict(
    noise_density=2e-4,
    gauss_markov_stddev=3e-4,
    gauss_markov_correlation_time=400.0,
    full_scale=2000 * math.pi / 180,
    bits=16,
)
ACCEL = dict(
    noise_density=2e-3,
    gauss_markov_stddev=1e-2,
    gauss_markov_correlation_time=300.0,
    full_scale=16 * 9.81,
    bits=16,
)


@pytest.fixture(scope="module")
def motion():
    rng = np.random.default_rng(0)
    return rng.normal(0, 1.0, (N, 3)), rng.normal(0, 9.0, (N, 3))


@pytest.mark.benchmark(group="imu-apply-1e6x6")
def test_fastnoise_apply(benchmark, motion):
    omega, accel = motion
    m = ImuNoise(gyro=GYRO, accel=ACCEL, seed=1)
    w, a = benchmark(m.apply, omega, accel, DT)
    assert w.shape == a.shape == (N, 3)


def _numpy_apply(omega, accel):
    """What a numpy/scipy user writes, per triad: rng.normal for the white and the
    driving noise, lfilter along time for the Gauss-Markov bias, clip, round."""
    c = coefficients(GYRO, ACCEL, DT)
    sigma_w, alpha, drive, fs, lsb = (
        c[k] for k in ("white", "alpha", "drive", "full_scale", "lsb")
    )
    rng = np.random.default_rng(1)
    out = []
    for true, s in ((omega, slice(0, 3)), (accel, slice(3, 6))):
        white = rng.normal(size=(N, 3)) * sigma_w[s]
        drv = rng.normal(size=(N, 3)) * drive[s]
        bias = scipy.signal.lfilter([1.0], [1.0, -alpha[s][0]], drv, axis=0)  # b = a b + w
        y = np.clip(true + white + bias, -fs[s], fs[s])
        out.append(np.round(y / lsb[s]) * lsb[s])
    return out[0], out[1]


@pytest.mark.benchmark(group="imu-apply-1e6x6")
def test_numpy_apply(benchmark, motion):
    w, a = benchmark(_numpy_apply, *motion)
    assert w.shape == a.shape == (N, 3)


# The same model with float64 unit normals (ImuNoise(normal_dtype="float64")), beside
# the same numpy code.
@pytest.mark.benchmark(group="imu-apply-1e6x6-f64normals")
def test_fastnoise_apply_f64normals(benchmark, motion):
    omega, accel = motion
    m = ImuNoise(gyro=GYRO, accel=ACCEL, seed=1, normal_dtype="float64")
    w, a = benchmark(m.apply, omega, accel, DT)
    assert w.shape == a.shape == (N, 3)


@pytest.mark.benchmark(group="imu-apply-1e6x6-f64normals")
def test_numpy_apply_f64normals(benchmark, motion):
    w, a = benchmark(_numpy_apply, *motion)
    assert w.shape == a.shape == (N, 3)


@pytest.mark.benchmark(group="imu-step")
def test_fastnoise_step(benchmark):
    m = ImuNoise(gyro=GYRO, accel=ACCEL, seed=1)
    omega, accel = np.array([0.1, 0.2, 0.3]), np.array([0.0, 0.0, 9.81])
    w, a = benchmark(m.step, omega, accel, DT)
    assert w.shape == a.shape == (3,)


@pytest.mark.benchmark(group="imu-step")
def test_numpy_step(benchmark):
    """The formula of bench/_imu_formula.py for one IMU (its in-place numpy updates)."""
    imu = NumpyImu(coefficients(GYRO, ACCEL, DT), (), np.random.default_rng(1))
    omega, accel = np.array([0.1, 0.2, 0.3]), np.array([0.0, 0.0, 9.81])

    def step(omega, accel, dt):
        y = imu.step(np.concatenate([omega, accel]))
        return y[:3], y[3:]

    w, a = benchmark(step, omega, accel, DT)
    assert w.shape == a.shape == (3,)


# Gazebo's precision (rounding="gazebo": a division, halves away from zero)
GZ = dict(noise_stddev=0.01, resolution=1e-3, rounding="gazebo")


@pytest.mark.benchmark(group="imu-apply-1e6x6-gazebo-precision")
def test_fastnoise_apply_gazebo_precision(benchmark, motion):
    omega, accel = motion
    m = ImuNoise(gyro=GZ, accel=GZ, seed=1)
    w, a = benchmark(m.apply, omega, accel, DT)
    assert w.shape == a.shape == (N, 3)


def _numpy_gazebo(omega, accel):
    rng = np.random.default_rng(1)
    out = []
    for true in (omega, accel):
        q = (true + 0.01 * rng.normal(size=(N, 3))) / 1e-3
        out.append(np.copysign(np.floor(np.abs(q) + 0.5), q) * 1e-3)
    return out[0], out[1]


@pytest.mark.benchmark(group="imu-apply-1e6x6-gazebo-precision")
def test_numpy_apply_gazebo_precision(benchmark, motion):
    w, a = benchmark(_numpy_gazebo, *motion)
    assert w.shape == a.shape == (N, 3)
