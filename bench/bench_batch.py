"""Batched environments: one step of 4096 IMUs, fastnoise beside what a user would write.

Model per environment and axis (gyro x, y, z, accel x, y, z): white noise of a given
density, a first-order Gauss-Markov bias and a bias random walk, step dt = 5 ms (the
Isaac Lab / RL control rate); float32 unit normals (ImuNoise's default).

* ``test_fastnoise_step``: ``ImuNoise(num_envs=4096).step`` with ``out_omega=`` and
  ``out_accel=``: one C call for every environment.
* ``test_numpy_step``: the vectorized numpy formula over all environments, with
  ``numpy.random.Generator.standard_normal`` (three (N, 6) draws: white, Gauss-Markov
  drive, random-walk step) and in-place updates.
* ``test_torch_step``: the same in torch on the CPU, Isaac Lab's style
  (``torch.randn_like(x) * std + bias``, the bias states updated in torch);
  skipped where torch is not installed (the ``bench`` extra installs it).

Each round runs 64 steps (the batch refills its cached normals once every 16 samples,
so a round holds whole refills and its time is the mean of every step); divide by 64
for one step.
Timings: python -m pytest bench/bench_batch.py --benchmark-enable -q
"""

import math

import numpy as np
import pytest

from fastnoise.models.imu.imu_noise import ImuNoise

N = 4096
DT = 0.005
STEPS = 64  # steps per benchmark round (times below are for 64 steps of all envs)
GYRO = dict(
    noise_density=2e-4,
    gauss_markov_stddev=3e-4,
    gauss_markov_correlation_time=400.0,
    random_walk_density=1e-5,
)
ACCEL = dict(
    noise_density=2e-3,
    gauss_markov_stddev=1e-2,
    gauss_markov_correlation_time=300.0,
    random_walk_density=1e-4,
)


def _coefficients():
    """Per-axis (6,) white sigma, Gauss-Markov alpha and drive, random-walk step."""
    p = [GYRO] * 3 + [ACCEL] * 3
    white = np.array([q["noise_density"] / math.sqrt(DT) for q in p])
    alpha = np.array([math.exp(-DT / q["gauss_markov_correlation_time"]) for q in p])
    drive = np.array([q["gauss_markov_stddev"] for q in p]) * np.sqrt(1 - alpha**2)
    walk = np.array([q["random_walk_density"] * math.sqrt(DT) for q in p])
    return white, alpha, drive, walk


def _steps(step):
    """STEPS steps of a control loop (one round): fastnoise refills its normals every
    16 samples, so a round holds whole refills and its time is the honest mean."""
    for _ in range(STEPS):
        out = step()
    return out


@pytest.fixture(scope="module")
def motion():
    rng = np.random.default_rng(0)
    return rng.normal(0, 1.0, (N, 3)), rng.normal(0, 9.0, (N, 3))


@pytest.mark.benchmark(group="batch-imu-step-4096")
def test_fastnoise_step(benchmark, motion):
    omega, accel = motion
    m = ImuNoise(gyro=GYRO, accel=ACCEL, seed=1, num_envs=N)
    wo, ao = np.empty((N, 3)), np.empty((N, 3))
    w, a = benchmark(_steps, lambda: m.step(omega, accel, DT, out_omega=wo, out_accel=ao))
    assert w is wo and a is ao
    assert np.all(np.isfinite(wo)) and np.all(np.isfinite(ao))
    # the batch is the single models, bit for bit (env 7 against ImuNoise(env=7))
    one = ImuNoise(gyro=GYRO, accel=ACCEL, seed=1, env=7)
    for _ in range(int(m.sample_count[7])):
        ow, oa = one.step(omega[7], accel[7], DT)
    assert np.array_equal(ow, wo[7]) and np.array_equal(oa, ao[7])


@pytest.mark.benchmark(group="batch-imu-step-4096")
def test_numpy_step(benchmark, motion):
    omega, accel = motion
    white, alpha, drive, walk = _coefficients()
    rng = np.random.default_rng(1)
    true = np.concatenate([omega, accel], axis=1)  # (N, 6)
    gm = np.zeros((N, 6))
    rw = np.zeros((N, 6))
    out = np.empty((N, 6))
    z = np.empty((N, 6))

    def step():
        rng.standard_normal(out=z)
        np.multiply(gm, alpha, out=gm)
        np.add(gm, drive * z, out=gm)
        rng.standard_normal(out=z)
        np.add(rw, walk * z, out=rw)
        rng.standard_normal(out=z)
        np.multiply(white, z, out=out)
        np.add(out, true, out=out)
        np.add(out, gm, out=out)
        np.add(out, rw, out=out)
        return out[:, :3], out[:, 3:]

    w, a = benchmark(_steps, step)
    assert w.shape == (N, 3) and np.all(np.isfinite(a))


@pytest.mark.benchmark(group="batch-imu-step-4096")
def test_torch_step(benchmark, motion):
    torch = pytest.importorskip("torch")
    omega, accel = motion
    white, alpha, drive, walk = (torch.from_numpy(c) for c in _coefficients())
    torch.manual_seed(1)
    true = torch.from_numpy(np.concatenate([omega, accel], axis=1))
    gm = torch.zeros((N, 6), dtype=torch.float64)
    rw = torch.zeros((N, 6), dtype=torch.float64)

    def step():
        # Isaac Lab's GaussianNoise: data + randn_like(data) * std + bias, the bias a
        # state of its own (here a Gauss-Markov term and a random walk, in torch)
        gm.mul_(alpha).add_(torch.randn_like(gm) * drive)
        rw.add_(torch.randn_like(rw) * walk)
        out = true + torch.randn_like(true) * white + gm + rw
        return out[:, :3], out[:, 3:]

    w, a = benchmark(_steps, step)
    assert tuple(w.shape) == (N, 3) and bool(torch.isfinite(a).all())
