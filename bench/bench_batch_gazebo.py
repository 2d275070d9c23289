"""Batched environments of a Gazebo sensor: one step of 4096 force-torque sensors,
fastnoise beside what a user would write.

Each of the 6 wrench components (N, N m) gets gz-sensors' noise with white noise
(stddev) and a turn-on bias (bias_mean, bias_stddev), drawn once per environment.

* ``test_fastnoise_step``: ``ForceTorqueNoise(num_envs=4096).apply`` of one reading per
  environment ((N, 1, 6), in place): one C call for every environment
  (``fn_gz_batch_rows``: the hot state and the tile of white normals).
* ``test_numpy_step``: the vectorized numpy formula over all environments,
  ``x + bias + stddev * rng.standard_normal((N, 6))``, in place.

Each round runs 64 steps; divide by 64 for one step.
Timings: python -m pytest bench/bench_batch_gazebo.py --benchmark-enable -q
"""

import numpy as np

from fastnoise.models.gazebo.sensors import ForceTorqueNoise

N = 4096
STEPS = 64
NAMES = ("force_x", "force_y", "force_z", "torque_x", "torque_y", "torque_z")
STDDEV = np.array([0.5, 0.5, 0.5, 0.02, 0.02, 0.02])  # N, N m
BIAS = np.array([0.1, 0.1, 0.1, 0.005, 0.005, 0.005])


def _wrench():
    return np.random.default_rng(0).normal(size=(N, 1, 6)) * 10.0


def test_fastnoise_step(benchmark):
    comps = {
        n: {"stddev": s, "bias_mean": b, "bias_stddev": b / 10}
        for n, s, b in zip(NAMES, STDDEV, BIAS, strict=True)
    }
    ft = ForceTorqueNoise(**comps, seed=1, num_envs=N)
    x = _wrench()

    def steps():
        for _ in range(STEPS):
            ft.apply(x, 0.005, out=x)
        return x

    out = benchmark(steps)
    assert out.shape == (N, 1, 6) and np.isfinite(out).all()


def test_numpy_step(benchmark):
    rng = np.random.default_rng(1)
    sign = np.where(rng.random((N, 6)) < 0.5, -1.0, 1.0)
    bias = sign * (BIAS + BIAS / 10 * rng.standard_normal((N, 6)))
    x = _wrench()[:, 0]
    z = np.empty((N, 6))

    def steps():
        for _ in range(STEPS):
            rng.standard_normal(out=z)
            np.multiply(z, STDDEV, out=z)
            np.add(x, bias, out=x)
            np.add(x, z, out=x)
        return x

    out = benchmark(steps)
    assert out.shape == (N, 6) and np.isfinite(out).all()
