"""Allan deviation of long stationary ImuNoise recordings, computed with the independent
``allantools`` package, against IEEE 952 / Kalibr relations and the exact discrete
formulas of Zhang (2008, Metrologia 45:549). Fixed seeds, stated tolerances."""

import math

import numpy as np
import pytest

from fastnoise.models.imu.imu_noise import ImuNoise

allantools = pytest.importorskip("allantools")

FS = 100.0  # Hz
DT = 1.0 / FS


def _record(n, seed, **gyro):
    zeros = np.zeros((n, 3))
    w, _ = ImuNoise(gyro=gyro, seed=seed).apply(zeros, zeros, DT)
    return w


def _oadev(x, taus):
    t, dev, _, _ = allantools.oadev(x, rate=FS, data_type="freq", taus=taus)
    assert np.allclose(t, taus)
    return dev


def test_white_noise_reads_its_density_at_one_second_with_slope_minus_half():
    nd = 2e-3  # rad/s/sqrt(Hz)
    w = _record(200_000, 21, noise_density=nd)  # 2000 s
    for axis in range(3):
        dev = _oadev(w[:, axis], [0.1, 1.0, 10.0])
        # ~2000 independent 1 s clusters: estimate within ~2 %; allow 6 %
        assert dev[1] == pytest.approx(nd, rel=0.06)
        slope = np.polyfit(np.log10([0.1, 1.0, 10.0]), np.log10(dev), 1)[0]
        assert slope == pytest.approx(-0.5, abs=0.06)


def test_random_walk_reads_its_density_at_three_seconds_with_slope_plus_half():
    k = 1e-3  # rad/s/sqrt(s)
    w = _record(400_000, 22, random_walk_density=k)  # 4000 s
    taus = [0.3, 3.0, 30.0]
    for axis in range(3):
        dev = _oadev(w[:, axis], taus)
        # exact discrete value (2m^2+1) w^2/(6m), w^2 = K^2 dt, is K^2 (1 + 1/(2 m^2))
        m = 3.0 / DT
        exact = math.sqrt((2 * m * m + 1) * k * k * DT / (6 * m))
        assert exact == pytest.approx(k, rel=1e-4)
        # random-walk Allan estimates scatter more (few degrees of freedom at 30 s):
        # allow 15 % at 3 s and 0.12 on the slope
        assert dev[1] == pytest.approx(k, rel=0.15)
        slope = np.polyfit(np.log10(taus), np.log10(dev), 1)[0]
        assert slope == pytest.approx(0.5, abs=0.12)


def test_gauss_markov_allan_deviation_matches_the_exact_ar1_formula():
    sb, tau_c = 0.01, 1.0
    w = _record(
        400_000,
        23,
        gauss_markov_stddev=sb,
        gauss_markov_correlation_time=tau_c,
        gauss_markov_steady_state=True,
    )
    phi = math.exp(-DT / tau_c)
    q2 = sb * sb * (1 - phi * phi)
    taus = [0.1, 1.0, 1.89, 5.0]
    for axis in range(3):
        dev = _oadev(w[:, axis], taus)
        for t, d in zip(taus, dev, strict=True):
            m = round(t / DT)
            avar = (
                q2
                * (m - 3 * phi - m * phi**2 + 4 * phi ** (m + 1) - phi ** (2 * m + 1))
                / (m * m * (1 - phi) ** 2 * (1 - phi * phi))
            )
            # 4000 s = 4000 correlation times: within ~3 %; allow 10 %
            assert d == pytest.approx(math.sqrt(avar), rel=0.10)
        # the peak of a Gauss-Markov Allan deviation: about 0.62 sigma near 1.89 tau_c
        assert dev[2] == pytest.approx(0.62 * sb, rel=0.10)
