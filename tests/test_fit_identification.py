"""fit_noise finds the right terms (issue #26, item 3) and its intervals are calibrated
(item 4).

The cases, their detectability and what counts as correct are written down in
``_fit_grid.py`` before any fit runs (detectability: a term's Allan-variance
contribution, where it is most visible, is >= 3x the 1-sigma EDF-based uncertainty of
the Allan estimate there; see that module). The full grid and the 100-seed coverage run
in the slow step (``FASTNOISE_SLOW=1``, ``.ci/steps/42-fit-slow.sh``); the default suite
runs smoke versions of 30 seeds.

Statistical tolerances. Identification: 30 seeds x 3 axes per case (the default
``select="triad"``: each seed's x, y, z share one choice of term types, so the 90 axes
are 30 independent decisions); >= 95% correct in every case, where its terms are
detectable and where nothing is (then the white-only answer); >= 90% in the smoke run.
Coverage: 200 seeds, one axis each, the nominal level +/- 5 points (binomial sd 3.3
points at 68.3%, 1.5 at 95%); the smoke run: 30 seeds x 3 axes, +/- 12 points (2.4 sd at 68.3%).
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest
from _fit_grid import (
    COVERAGE,
    EXPECTED_DETECTABILITY,
    GRID,
    Case,
    coverage,
    detectability,
    identification,
    is_correct,
)

from fastnoise.analysis import fit_noise

# pure analysis code (numpy): the C sanitizer and scalar-path runs leave these out
pytestmark = pytest.mark.python_only

needs_slow = pytest.mark.skipif(
    os.environ.get("FASTNOISE_SLOW") != "1", reason="long statistical case: FASTNOISE_SLOW=1"
)
THREADS = max(2, min(4, os.cpu_count() or 2))


@pytest.mark.parametrize("case", GRID, ids=lambda c: c.name)
def test_detectability_is_the_stated_one(case):
    assert detectability(case) == EXPECTED_DETECTABILITY[case.name]


def test_correct_means_the_detectable_terms():
    assert is_correct(("white",), (False, False, False))
    assert not is_correct(("white", "random_walk"), (False, False, False))
    assert is_correct(("white", "gauss_markov"), (True, True, False))
    assert not is_correct(("white", "random_walk"), (True, True, False))
    # the identifiability limit: a random walk may stand in for the Gauss-Markov term
    assert is_correct(("white", "random_walk"), (True, False, False))
    assert is_correct(("white", "gauss_markov"), (True, False, False))
    assert not is_correct(("white",), (True, False, False))


# ---- smoke versions (default suite) ---------------------------------------------------------
SMOKE = (
    Case("white 10min", 100.0, 600.0, 2e-4),
    Case("white+RW 10min", 100.0, 600.0, 2e-4, k=5e-5),
    Case("white+GM tau 10s 10min", 100.0, 600.0, 2e-4, sigma_b=3e-4, tau_c=10.0),
)


@pytest.mark.parametrize("case", SMOKE, ids=lambda c: c.name)
def test_identification_smoke(case):
    assert detectability(case) == EXPECTED_DETECTABILITY[case.name]
    share = identification(case, 30, threads=THREADS, base=100)
    assert share >= 0.90, (case.name, share)


def test_coverage_smoke():
    case = Case("white+GM", 100.0, 300.0, 1e-3, sigma_b=2e-3, tau_c=2.0)
    got = coverage(case, 30, threads=THREADS, base=200, axes=3)
    for (key, level), share in got.items():
        assert abs(share - level) <= 0.12, (key, level, share)


def test_issue_example_finds_the_gauss_markov_bias():
    """The issue's log (1 h at 100 Hz, N = 2e-4, sigma_b = 3e-4, tau_c = 100 s, K =
    2e-6): the old Allan fit found the bias on 9 of 24 axes. Here it is found on at least
    9 of 12 (measured: 95.6% of axes over 90 fits; the rest report a random walk, see
    the grid's "white+GM+RW 1h (issue)"), the intervals hold sigma_b on most of
    those, and the tiny random walk (not detectable) is reported as not detected."""
    case = GRID[[c.name for c in GRID].index("white+GM+RW 1h (issue)")]
    found = held = 0
    for seed in range(4):
        res = fit_noise(case.log(300 + seed), case.rate)
        for ax in res.axes:
            if ax.terms != ("white", "gauss_markov"):
                continue
            found += 1
            held += ax.bias_stddev.low <= case.sigma_b <= ax.bias_stddev.high
            assert ax.not_detected == ("random_walk",)
            assert ax.random_walk_density.value == 0.0 < ax.random_walk_density.high
            assert ax.significance["gauss_markov"] > 10.0
    assert found >= 9
    assert held >= found // 2  # 68% intervals


def test_gauss_markov_longer_than_the_log_is_a_random_walk():
    """The identifiability limit: tau_c = 10 T. Over the log the bias is a random walk
    with K^2 = 2 sigma_b^2 / tau_c (its Allan variance K^2 tau / 3 for dt << tau <<
    tau_c). By the grid's rule the bias is detectable but not distinguishable from a
    random walk, so either term is a correct answer; the fit reports the random walk on
    most axes (measured 8 of 9; the ninth reports a Gauss-Markov term with tau_c = 27 s =
    T/22 and the same K^2 = 2 sigma_b^2 / tau_c to 2%), and K's 95% interval holds
    that value on most axes (K^2 is sigma_b^2 (1 - phi^2) / dt exactly, which differs by
    < 0.1%; measured 8 of 9)."""
    case = Case("long tau", 100.0, 600.0, 2e-4, sigma_b=3e-3, tau_c=6000.0)
    det = detectability(case)
    assert det == (True, False, False)
    k_equiv = math.sqrt(2.0 * case.sigma_b**2 / case.tau_c)
    walks = hits = 0
    for seed in range(3):
        res = fit_noise(case.log(400 + seed), case.rate, ci=0.95)
        for ax in res.axes:
            assert is_correct(ax.terms, det), ax
            walks += ax.terms == ("white", "random_walk")
            hits += ax.random_walk_density.low <= k_equiv <= ax.random_walk_density.high
    assert walks >= 7
    assert hits >= 7


def test_a_term_below_detection_is_reported_with_an_upper_limit():
    case = GRID[[c.name for c in GRID].index("white+GM faint 10min")]
    assert detectability(case) == (False, False, False)
    res = fit_noise(case.log(500), case.rate)
    for ax in res.axes:
        assert ax.not_detected == ("gauss_markov", "random_walk")
        assert ax.bias_stddev.value == 0.0 and ax.bias_stddev.high > 0.0
        assert math.isnan(ax.bias_correlation_time.value)
        assert ax.significance["gauss_markov"] < 3.7  # sqrt(13): the selection threshold
        d = ax.as_dict()
        assert d["not_detected"] == ["gauss_markov", "random_walk"]


# ---- the full grid and coverage (slow step) -------------------------------------------------
GRID_SEEDS = 30
COVERAGE_SEEDS = 200


@needs_slow
@pytest.mark.slow
@pytest.mark.parametrize("case", GRID, ids=lambda c: c.name)
def test_identification_grid(case):
    det = detectability(case)
    assert det == EXPECTED_DETECTABILITY[case.name]
    share = identification(case, GRID_SEEDS, threads=THREADS, base=5000)
    print(f"\n| {case.name} | {GRID_SEEDS} seeds x 3 axes | correct {100 * share:.1f}% |")
    assert share >= 0.95, (case.name, share)


@needs_slow
@pytest.mark.slow
@pytest.mark.parametrize("case", COVERAGE, ids=lambda c: c.name)
def test_coverage(case):
    got = coverage(case, COVERAGE_SEEDS, threads=THREADS, base=9000, axes=1)
    for (key, level), share in sorted(got.items()):
        print(f"\n| {case.name} | {key} | nominal {100 * level:.1f}% | {100 * share:.1f}% |")
    for (key, level), share in got.items():
        assert abs(share - level) <= 0.05, (case.name, key, level, share)
    assert np.isfinite(list(got.values())).all()
