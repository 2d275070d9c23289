"""mdev, ohdev and totdev (fastnoise.analysis.deviations) beside allantools, the library a
user would otherwise call, on the same data and grid (the same numbers to 1e-9:
tests/test_deviations.py).

Each case: one axis of 2^18 rate samples (white plus a rate random walk, rad/s at
100 Hz) on the octave grid, data_type="freq" for allantools.
Timings: python -m pytest bench/bench_deviations.py --benchmark-enable
"""

import numpy as np
import pytest

from fastnoise.analysis import mdev, ohdev, totdev

allantools = pytest.importorskip("allantools")

N = 1 << 18
FS = 100.0


@pytest.fixture(scope="module")
def rates():
    rng = np.random.default_rng(1)
    return 2e-4 * rng.standard_normal(N) + np.cumsum(2e-7 * rng.standard_normal(N))


@pytest.mark.parametrize("kind", ["mdev", "ohdev", "totdev"])
def test_fastnoise_deviation(benchmark, rates, kind):
    f = {"mdev": mdev, "ohdev": ohdev, "totdev": totdev}[kind]
    benchmark.group = f"deviation-{kind}-2^18"
    res = benchmark(f, rates, FS, "octave")
    assert res.dev.shape == res.tau.shape


@pytest.mark.parametrize("kind", ["mdev", "ohdev", "totdev"])
def test_allantools_deviation(benchmark, rates, kind):
    f = getattr(allantools, kind)
    benchmark.group = f"deviation-{kind}-2^18"
    t, dev, _, _ = benchmark(f, rates, rate=FS, data_type="freq", taus="octave")
    assert dev.shape == t.shape
