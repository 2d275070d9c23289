"""GaussianNoiseGenerator vs numpy's default Generator (PCG64 + ziggurat).

Targets (issue 2, single thread unless stated, 10**7 samples): float64 fill >= 5x numpy,
float32 fill >= 10x numpy, one generate() >= 4x one rng.standard_normal(), and two
threads >= 1.7x one thread on 10**7 float32.

Run:  python -m pytest bench/bench_generator.py --benchmark-enable --benchmark-min-rounds=5 -q
The conftest table gives numpy / fastnoise per group; the thread group has no numpy
case, so its 2-vs-1 thread ratio is printed by the ``thread_ratio`` fixture below.
"""

from __future__ import annotations

import numpy as np
import pytest

from fastnoise import GaussianNoiseGenerator

N = 10_000_000


@pytest.fixture(scope="module")
def buf64():
    return np.ones(N, dtype=np.float64)  # ones, not empty: pages touched before timing


@pytest.fixture(scope="module")
def buf32():
    return np.ones(N, dtype=np.float32)


@pytest.fixture
def gen():
    return GaussianNoiseGenerator(12345)


# ---- float64 fill ------------------------------------------------------------------------


@pytest.mark.benchmark(group="normal-f64-fill")
def test_fastnoise_f64_fill(benchmark, gen, buf64):
    benchmark(gen.normal, out=buf64)
    assert np.isfinite(buf64).all()


@pytest.mark.benchmark(group="normal-f64-fill")
def test_numpy_f64_fill(benchmark, rng, buf64):
    benchmark(rng.standard_normal, out=buf64)


# ---- float32 fill ------------------------------------------------------------------------


@pytest.mark.benchmark(group="normal-f32-fill")
def test_fastnoise_f32_fill(benchmark, gen, buf32):
    benchmark(gen.normal, out=buf32, dtype=np.float32)
    assert np.isfinite(buf32).all()


@pytest.mark.benchmark(group="normal-f32-fill")
def test_numpy_f32_fill(benchmark, rng, buf32):
    benchmark(rng.standard_normal, out=buf32, dtype=np.float32)


# ---- one value per call --------------------------------------------------------------------


# One call takes well under a microsecond, about what the timer itself costs, so each
# round times 10,000 calls and pytest-benchmark divides by that count.
_CALLS = 10_000


@pytest.mark.benchmark(group="normal-generate")
def test_fastnoise_generate(benchmark, gen):
    value = benchmark.pedantic(gen.generate, iterations=_CALLS, rounds=30, warmup_rounds=1)
    assert isinstance(value, float)


@pytest.mark.benchmark(group="normal-generate")
def test_numpy_generate(benchmark, rng):
    value = benchmark.pedantic(rng.standard_normal, iterations=_CALLS, rounds=30, warmup_rounds=1)
    assert isinstance(value, float)


# ---- threads: 2 vs 1 on float32 (no numpy counterpart: numpy fills on one thread) ------


@pytest.fixture(scope="module")
def thread_ratio(request):
    """Collects the median of each thread count and prints 1-thread / 2-thread time."""
    medians: dict[int, float] = {}
    yield medians
    if len(medians) == 2:
        plugins = request.config.pluginmanager
        reporter = plugins.get_plugin("terminalreporter")
        capture = plugins.get_plugin("capturemanager")
        line = (
            f"normal-f32-threads: 1 thread {medians[1] * 1e3:.2f} ms, "
            f"2 threads {medians[2] * 1e3:.2f} ms, speed-up {medians[1] / medians[2]:.2f}x"
        )
        if reporter is not None and capture is not None:
            with capture.global_and_fixture_disabled():  # past pytest's output capture
                reporter.write_line("\n" + line)


@pytest.mark.benchmark(group="normal-f32-threads")
@pytest.mark.parametrize("threads", [1, 2])
def test_fastnoise_f32_threads(benchmark, gen, buf32, thread_ratio, threads):
    benchmark(gen.normal, out=buf32, dtype=np.float32, threads=threads)
    if benchmark.stats is not None and getattr(benchmark.stats, "stats", None) is not None:
        thread_ratio[threads] = benchmark.stats.stats.median
