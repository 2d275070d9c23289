"""mdev, ohdev and totdev (fastnoise.analysis.deviations) beside allantools, the library a
user would otherwise call, on the same data and grid (the same numbers to 1e-9:
tests/test_deviations.py).

Each case: one axis of 2^18 rate samples (white plus a rate random walk, rad/s at
100 Hz) on the octave grid, data_type="freq" for allantools. The sums run in C
(csrc/allan.c).
Timings: python -m pytest bench/bench_deviations.py --benchmark-enable, or
``python bench/bench_deviations.py``: the two calls alternated 15 times, so each ratio
compares timings taken moments apart on a shared machine. Measured that way, two runs
(2 shared cores, load 7-10; ratio of the minima of 15): mdev 3.4-3.6x, ohdev 4.1-6.1x,
totdev 4.9-6.8x faster than allantools (mdev 17-34 ms); the numpy sums this replaced
were 1.3-5x slower than allantools.
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


if __name__ == "__main__":  # alternated calls, min and median of 15 each
    import time

    rng = np.random.default_rng(1)
    y = 2e-4 * rng.standard_normal(N) + np.cumsum(2e-7 * rng.standard_normal(N))
    for kind, ours in (("mdev", mdev), ("ohdev", ohdev), ("totdev", totdev)):
        theirs = getattr(allantools, kind)
        a: list[float] = []
        b: list[float] = []
        for _ in range(15):
            t0 = time.perf_counter()
            ours(y, FS, "octave")
            a.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            theirs(y, rate=FS, data_type="freq", taus="octave")
            b.append(time.perf_counter() - t0)
        print(
            f"{kind}: fastnoise {1e3 * min(a):.1f} ms (median {1e3 * np.median(a):.1f}), "
            f"allantools {1e3 * min(b):.1f} ms (median {1e3 * np.median(b):.1f}), "
            f"ratio of minima {min(b) / min(a):.2f}"
        )
