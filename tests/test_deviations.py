"""mdev, ohdev, tdev and totdev (fastnoise.analysis.deviations) against NIST SP 1065's
published values on the NBS14 test sets, and against allantools.

The reference values are NIST SP 1065 (W. J. Riley, "Handbook of Frequency Stability
Analysis", 2008), section 12.3 (the NBS14 10-point and 1000-point test suites, the
tables of page 107-108), as transcribed in allantools' tests
(github.com/aewallin/allantools, tests/nbs14/test_nbs14_1000point.py and
tests/nbs14/test_nbs14_10point.py): the 1000-point row "TOTDEV" is the doubly
reflected TOTVAR of SP 1065 page 108. The published tables carry 7 significant digits;
the tests ask for 1e-6 relative (allantools asks for 1e-4).
"""

from __future__ import annotations

import numpy as np
import pytest

from fastnoise.analysis import mdev, oadev, ohdev, tdev, totdev

# pure analysis code (numpy): the C sanitizer and scalar-path runs leave these out
pytestmark = pytest.mark.python_only

# ---- the NBS14 data sets -------------------------------------------------------------------


def nbs14_1000() -> np.ndarray:
    """NIST SP 1065's 1000-point frequency data: the minimal-standard generator
    n[i+1] = 16807 n[i] mod (2^31 - 1) from n[0] = 1234567890, divided by 2^31 - 1."""
    n = [1234567890]
    for _ in range(999):
        n.append((16807 * n[-1]) % 2147483647)
    assert n[1:4] == [395529916, 1209410747, 633705974]  # the first three, as published
    return np.array(n, dtype=np.float64) / 2147483647.0


#: The 10-point set as 9 fractional-frequency values (NIST SP 1065 page 107).
NBS14_10 = np.array([892.0, 809.0, 823.0, 798.0, 671.0, 644.0, 883.0, 903.0, 677.0])

#: Published deviations at tau = 1, 10, 100 (1000-point set, rate 1 Hz).
PUBLISHED_1000 = {
    "oadev": (2.922319e-01, 9.159953e-02, 3.241343e-02),
    "mdev": (2.922319e-01, 6.172376e-02, 2.170921e-02),
    "totdev": (2.922319e-01, 9.134743e-02, 3.406530e-02),
    "ohdev": (2.943883e-01, 9.581083e-02, 3.237638e-02),
    "tdev": (1.687202e-01, 3.563623e-01, 1.253382e00),
}
#: Published deviations at tau = 1, 2 (10-point set; oadev takes 16 samples or more).
PUBLISHED_10 = {
    "mdev": (91.22945, 74.78849),
    "totdev": (91.22945, 93.90379),
    "ohdev": (70.80607, 85.61487),
    "tdev": (52.67135, 86.35831),
}
FUNCS = {"mdev": mdev, "ohdev": ohdev, "tdev": tdev, "totdev": totdev}


def _dev(kind: str, y: np.ndarray, taus: list[float]) -> np.ndarray:
    if kind == "oadev":
        return oadev(y, rate=1.0, taus=taus, alpha=None).adev
    return FUNCS[kind](y, rate=1.0, taus=taus).dev


@pytest.mark.parametrize("kind", sorted(PUBLISHED_1000))
def test_nbs14_1000_point_published_values(kind):
    got = _dev(kind, nbs14_1000(), [1.0, 10.0, 100.0])
    np.testing.assert_allclose(got, PUBLISHED_1000[kind], rtol=1e-6)


@pytest.mark.parametrize("kind", sorted(PUBLISHED_10))
def test_nbs14_10_point_published_values(kind):
    # the published 10-point values carry 7 digits: 91.22945 vs 91.229446...
    got = _dev(kind, NBS14_10, [1.0, 2.0])
    np.testing.assert_allclose(got, PUBLISHED_10[kind], rtol=1e-6)


@pytest.mark.parametrize("kind", sorted(FUNCS))
@pytest.mark.parametrize("grid", ["octave", "decade"])
def test_matches_allantools_on_a_long_log(kind, grid):
    allantools = pytest.importorskip("allantools")
    rng = np.random.default_rng(5)
    # white plus a random walk of the rate, in rad/s at 100 Hz
    y = 1e-3 * rng.standard_normal(20_000) + np.cumsum(1e-6 * rng.standard_normal(20_000))
    ours = FUNCS[kind](y, rate=100.0, taus=grid)
    theirs = getattr(allantools, kind)(y, rate=100.0, data_type="freq", taus=ours.tau)
    np.testing.assert_allclose(theirs[0], ours.tau, rtol=0, atol=0)
    np.testing.assert_allclose(ours.dev, theirs[1], rtol=1e-9)


def test_columns_are_independent_and_the_input_is_left_alone():
    rng = np.random.default_rng(2)
    y = rng.standard_normal((3000, 3)) * [1.0, 2.0, 3.0]
    before = y.copy()
    for f in FUNCS.values():
        both = f(y, rate=10.0)
        assert both.dev.shape == (both.tau.size, 3)
        for c in range(3):
            np.testing.assert_array_equal(both.dev[:, c], f(y[:, c].copy(), rate=10.0).dev)
    np.testing.assert_array_equal(y, before)


def test_white_noise_levels():
    # white rate noise of sd s: mdev(tau0) = oadev(tau0) = s (exactly the same sum at m=1)
    # and, at large m, mdev^2 = oadev^2 / 2 * (1 + 1/(2 m^2)) ~ oadev^2 / 2 (SP 1065 table 7)
    rng = np.random.default_rng(11)
    y = 0.5 * rng.standard_normal(400_000)
    md = mdev(y, rate=1.0, taus=[1.0, 64.0]).dev
    oa = oadev(y, rate=1.0, taus=[1.0, 64.0], alpha=None).adev
    assert md[0] == pytest.approx(oa[0], rel=1e-12)
    assert md[1] / oa[1] == pytest.approx(np.sqrt(0.5), rel=0.05)
    # tdev = tau / sqrt(3) * mdev, in U*s
    td = tdev(y, rate=1.0, taus=[1.0, 64.0]).dev
    np.testing.assert_allclose(td, np.array([1.0, 64.0]) / np.sqrt(3.0) * md, rtol=1e-14)


def test_hadamard_ignores_a_rate_drift():
    # a linear drift of the rate (a ramp in y) is a quadratic phase: its third
    # differences vanish, so ohdev of ramp + noise equals ohdev of the noise
    rng = np.random.default_rng(3)
    noise = rng.standard_normal(10_000)
    ramp = 1e-3 * np.arange(10_000)
    a = ohdev(noise, rate=1.0).dev
    b = ohdev(noise + ramp, rate=1.0).dev
    np.testing.assert_allclose(b, a, rtol=1e-6)


@pytest.mark.parametrize("f", list(FUNCS.values()))
def test_bad_input_is_refused_by_name(f):
    with pytest.raises(ValueError, match=r"data\[2\]=nan is not allowed"):
        f(np.array([1.0, 2.0, np.nan, 4.0, 5.0, 6.0]), rate=1.0)
    with pytest.raises(ValueError, match="rate"):
        f(np.zeros(100), rate=-1.0)
    with pytest.raises(ValueError, match="at least 4 are needed"):
        f(np.zeros(3), rate=1.0)
    with pytest.raises(TypeError, match="data"):
        f("abc", rate=1.0)
    with pytest.raises(ValueError, match="taus"):
        f(np.zeros(100), rate=1.0, taus=[1e6])


def _definition(kind: str, y: np.ndarray, m: int) -> float:
    """The deviation at tau = m (rate 1) straight from NIST SP 1065's sums, in numpy."""
    x = np.concatenate([[0.0], np.cumsum(y - y.mean())])
    n = x.size
    if kind == "mdev":
        d = x[2 * m :] - 2.0 * x[m:-m] + x[: -2 * m]
        inner = np.array([d[j : j + m].sum() for j in range(n - 3 * m + 1)])
        return float(np.sqrt(np.sum(inner**2) / (2.0 * m**4 * (n - 3 * m + 1))))
    if kind == "ohdev":
        k = n - 3 * m
        d = x[3 * m :] - 3.0 * x[2 * m : 2 * m + k] + 3.0 * x[m : m + k] - x[:k]
        return float(np.sqrt(np.sum(d**2) / (6.0 * m**2 * k)))
    j = np.arange(1, n - 1)  # totdev: x* reflected at both ends
    xe = {i: x[i] for i in range(n)}
    xe |= {-i: 2.0 * x[0] - x[i] for i in j}
    xe |= {n - 1 + i: 2.0 * x[-1] - x[n - 1 - i] for i in j}
    d = [xe[i - m] - 2.0 * xe[i] + xe[i + m] for i in range(1, n - 1)]
    return float(np.sqrt(np.sum(np.square(d)) / (2.0 * m**2 * (n - 2))))


@pytest.mark.parametrize("kind", ["mdev", "ohdev", "totdev"])
@pytest.mark.parametrize("n", [9, 10, 11, 50])
def test_the_c_sums_match_the_definitions_at_every_tau(kind, n):
    """csrc/allan.c's sums against the textbook sums, every m up to each deviation's
    longest (mdev: 3m <= N + 1 phase points; ohdev: 3m < N + 1), to rounding (1e-12 relative)."""
    y = np.random.default_rng(n).standard_normal(n)
    # totdev's own limit is m <= N, but the tau grid (shared with oadev) stops at
    # 2m <= N - 1
    longest = {"mdev": (n + 1) // 3, "ohdev": n // 3, "totdev": (n - 1) // 2}[kind]
    res = FUNCS[kind](y, rate=1.0, taus=np.arange(1.0, longest + 2.0))
    assert res.m.tolist() == list(range(1, longest + 1))  # the one beyond is dropped
    want = [_definition(kind, y, m) for m in res.m.tolist()]
    np.testing.assert_allclose(res.dev, want, rtol=1e-12)
