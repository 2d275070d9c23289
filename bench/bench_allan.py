"""Allan deviation and noise fit, fastnoise beside the maintained library a user would
otherwise call (allantools, pure numpy).

Case "oadev": the overlapping Allan deviation of 2^20 rate samples (one axis) on the
octave grid, fastnoise.analysis.oadev (C, blocked sums) beside
allantools.oadev(data_type="freq"); the same numbers to 1e-9 (tests/test_allan.py).
Case "oadev-6": six axes at once (threads over the columns) beside allantools per
column. Case "fit": the whole fit of a six-axis log (no counterpart).
Timings: python -m pytest bench/bench_allan.py --benchmark-enable
"""

import numpy as np
import pytest

from fastnoise.analysis import fit_noise, oadev
from fastnoise.models.imu.imu_noise import ImuNoise
from fastnoise.models.imu.triad import TriadNoise

allantools = pytest.importorskip("allantools")

N = 1 << 20
FS = 100.0


@pytest.fixture(scope="module")
def log6():
    gyro = TriadNoise(
        noise_density=2e-4,
        gauss_markov_stddev=3e-4,
        gauss_markov_correlation_time=20.0,
        gauss_markov_steady_state=True,
    )
    accel = TriadNoise(noise_density=2e-3, random_walk_density=2e-5)
    zeros = np.zeros((N, 3))
    w, a = ImuNoise(gyro=gyro, accel=accel, seed=1).apply(zeros, zeros, 1.0 / FS)
    return np.ascontiguousarray(np.concatenate([w, a], axis=1))


@pytest.mark.benchmark(group="allan-oadev-2^20")
def test_fastnoise_oadev(benchmark, log6):
    y = np.ascontiguousarray(log6[:, 0])
    res = benchmark(oadev, y, FS, "octave", alpha=None, threads=1)
    assert res.adev.shape == res.tau.shape


@pytest.mark.benchmark(group="allan-oadev-2^20")
def test_numpy_oadev(benchmark, log6):
    y = np.ascontiguousarray(log6[:, 0])
    t, dev, _, _ = benchmark(allantools.oadev, y, rate=FS, data_type="freq", taus="octave")
    assert dev.shape == t.shape


@pytest.mark.benchmark(group="allan-oadev-2^20x6")
def test_fastnoise_oadev_six_axes(benchmark, log6):
    res = benchmark(oadev, log6, FS, "octave", alpha=None)
    assert res.adev.shape[1] == 6


def _allantools_six(y):
    return [allantools.oadev(y[:, c], rate=FS, data_type="freq", taus="octave") for c in range(6)]


@pytest.mark.benchmark(group="allan-oadev-2^20x6")
def test_numpy_oadev_six_axes(benchmark, log6):
    out = benchmark(_allantools_six, log6)
    assert len(out) == 6


@pytest.mark.benchmark(group="allan-fit-2^20x6")
def test_fastnoise_fit(benchmark, log6):
    res = benchmark.pedantic(fit_noise, args=(log6, FS), rounds=1, iterations=1)
    assert len(res.axes) == 6
