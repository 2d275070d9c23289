"""ImuNoise.from_datasheet (fastnoise.models.imu.datasheet) and the preset catalogue
(ImuNoise.preset, fastnoise.models.imu.presets, fastnoise.models.imu.catalogue)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from fastnoise import ImuNoise, TriadNoise, wt901c
from fastnoise.analysis import fit_noise
from fastnoise.analysis.theory import gauss_markov_avar
from fastnoise.models.imu import catalogue, datasheet, presets

DEG = math.pi / 180.0
G0 = 9.80665


# ---- the unit mapping: exact where the arithmetic is -----------------------------------------
def test_white_noise_figures_map_to_the_density():
    g, a = datasheet.datasheet_triads(gyro_noise_density=0.014, accel_noise_density=175.0)
    assert g.noise_density == (0.014 * DEG,) * 3
    assert a.noise_density[0] == pytest.approx(175.0 * 1e-6 * G0, rel=1e-15)
    g, a = datasheet.datasheet_triads(gyro_arw=0.34, accel_vrw=0.037)
    assert g.noise_density == (0.34 * DEG / 60.0,) * 3  # 1 sqrt(h) = 60 sqrt(s)
    assert a.noise_density == (0.037 / 60.0,) * 3
    # an ARW of 60 deg/sqrt(h) is a density of 1 deg/s/sqrt(Hz)
    g1, _ = datasheet.datasheet_triads(gyro_arw=60.0)
    g2, _ = datasheet.datasheet_triads(gyro_noise_density=1.0)
    assert g1.noise_density[0] == pytest.approx(g2.noise_density[0], rel=1e-15)


def test_rms_noise_uses_the_bandwidth_or_half_the_odr():
    g, a = datasheet.datasheet_triads(
        gyro_rms_noise=0.05, bandwidth=100.0, accel_rms_noise=8.0, odr=1000.0
    )
    assert g.noise_density[0] == 0.05 * DEG / math.sqrt(100.0)
    assert a.noise_density[0] == 8.0 * 1e-3 * G0 / math.sqrt(100.0)
    g, _ = datasheet.datasheet_triads(gyro_rms_noise=0.05, odr=200.0)
    assert g.noise_density[0] == 0.05 * DEG / math.sqrt(100.0)
    with pytest.raises(TypeError, match="bandwidth"):
        datasheet.datasheet_triads(gyro_rms_noise=0.05)


def test_bias_instability_sets_the_gauss_markov_peak_at_0664_b():
    b = 8.0  # deg/h
    g, _ = datasheet.datasheet_triads(gyro_bias_instability=b, gauss_markov_correlation_time=50.0)
    assert g.gauss_markov_correlation_time == (50.0,) * 3
    assert g.gauss_markov_steady_state
    sb = g.gauss_markov_stddev[0]
    # the peak of the Gauss-Markov term's Allan deviation (fastnoise's exact AR(1) formula,
    # at dt << tau_c) is 0.664 B
    dt = 0.01
    m = np.unique(np.round(np.geomspace(1, 1e5, 4000)))
    adev = np.sqrt(gauss_markov_avar(m, sb * sb, 50.0, dt))
    assert adev.max() == pytest.approx(0.6643 * b * DEG / 3600.0, rel=2e-4)
    assert m[adev.argmax()] * dt / 50.0 == pytest.approx(datasheet.GAUSS_MARKOV_PEAK_TAU, rel=5e-3)
    assert datasheet.ALLAN_MINIMUM_PER_BIAS_INSTABILITY == pytest.approx(0.664, abs=5e-4)
    # an in-run bias stability is the minimum itself: no 0.664
    g2, _ = datasheet.datasheet_triads(
        gyro_in_run_bias_stability=b * 0.6643, gauss_markov_correlation_time=50.0
    )
    assert g2.gauss_markov_stddev[0] == pytest.approx(sb, rel=2e-4)
    _, a = datasheet.datasheet_triads(accel_in_run_bias_stability=13.0)
    assert a.gauss_markov_stddev[0] == 13.0e-6 * G0 / datasheet.GAUSS_MARKOV_PEAK_ADEV


def test_rate_random_walk_range_and_bits():
    g, a = datasheet.datasheet_triads(
        gyro_rate_random_walk=3600.0 * 60.0 / DEG * 1e-5,
        gyro_range=2000.0,
        gyro_bits=16,
        accel_range=16.0,
        accel_resolution=1.0 / 2048.0,
    )
    assert g.random_walk_density[0] == pytest.approx(1e-5, rel=1e-15)
    assert g.full_scale == (2000.0 * DEG,) * 3 and g.bits == 16
    assert g.lsb[0] == pytest.approx(4000.0 * DEG / 65536.0, rel=1e-15)
    assert a.full_scale == (16.0 * G0,) * 3 and a.resolution == (G0 / 2048.0,) * 3


def test_datasheet_figures_are_checked_by_name():
    with pytest.raises(ValueError, match="same quantity"):
        datasheet.datasheet_triads(gyro_arw=0.3, gyro_noise_density=0.01)
    with pytest.raises(ValueError, match="same quantity"):
        datasheet.datasheet_triads(accel_bias_instability=1.0, accel_in_run_bias_stability=1.0)
    with pytest.raises(ValueError, match=r"gyro_arw=-0\.3 is not allowed"):
        datasheet.datasheet_triads(gyro_arw=-0.3)
    with pytest.raises(TypeError, match="accel_vrw='1'"):
        datasheet.datasheet_triads(accel_vrw="1")
    with pytest.raises(TypeError, match="gyro_range"):
        datasheet.datasheet_triads(gyro_bits=16)
    with pytest.raises(ValueError, match="gyro_bits=40"):
        datasheet.datasheet_triads(gyro_range=250.0, gyro_bits=40)
    with pytest.raises(ValueError, match="gauss_markov_correlation_time"):
        datasheet.datasheet_triads(gauss_markov_correlation_time=0.0)
    with pytest.raises(TypeError, match="unexpected keyword"):
        ImuNoise.from_datasheet(gyro_noise=1.0)
    with pytest.raises(TypeError):
        ImuNoise.from_datasheet(0.01)  # type: ignore[misc]  # keyword-only


def test_from_datasheet_builds_the_model():
    imu = ImuNoise.from_datasheet(gyro_arw=0.34, accel_vrw=0.037, seed=5)
    g, a = datasheet.datasheet_triads(gyro_arw=0.34, accel_vrw=0.037)
    assert imu.gyro == g and imu.accel == a


# ---- the catalogue ----------------------------------------------------------------------------
def test_presets_lists_the_catalogue_and_each_entry_is_cited():
    names = presets()
    # bno085 and bmi088 were removed in issue 26: their noise figures are not in (or
    # could not be confirmed in) their datasheets
    assert names == ["adis16470", "icm42688p", "mpu6050", "wt901c"]
    for name in names:
        p = catalogue.CATALOGUE[name]
        assert p.source and p.notes
        if name != "wt901c":
            assert "rev" in p.source.lower()  # document revision named
        imu = ImuNoise.preset(name, seed=1)
        assert isinstance(imu.gyro, TriadNoise)
    assert ImuNoise.preset("ICM-42688-P").gyro == ImuNoise.preset("icm42688p").gyro
    with pytest.raises(ValueError, match="name='bmi999' is not allowed: use one of"):
        ImuNoise.preset("bmi999")
    with pytest.raises(TypeError, match="name=3"):
        ImuNoise.preset(3)


def test_wt901c_preset_is_wt901c_bit_for_bit():
    g, a = wt901c()
    p = ImuNoise.preset("wt901c", seed=9)
    assert p.gyro == g and p.accel == a
    ref = ImuNoise(gyro=g, accel=a, seed=9)
    w = np.tile([0.0, 0.0, 0.1], (500, 1))
    acc = np.tile([0.0, 0.0, 9.81], (500, 1))
    x, y = p.apply(w, acc, 0.01)
    u, v = ref.apply(w, acc, 0.01)
    assert np.array_equal(x, u) and np.array_equal(y, v)


#: Each preset is simulated at rest and fitted with fit_noise (the fit of 0.3; issue 26
#: part 2 replaces it). Checked: the fitted white-noise density N against the
#: datasheet's, on every axis that has one, within 3 % (the 16-bit quantization adds up
#: to 2 %: its variance lsb^2/12 beside sigma^2; an axis whose preset has no white
#: noise, the ADIS16470's accelerometer, is not checked for N); and, where the
#: datasheet prints a bias instability
#: that a log of this length can show, the fitted Gauss-Markov sigma_b against the
#: datasheet's (in-run stability / 0.61736) within 25 % on each axis where the fit keeps
#: the term, with the term kept on at least 4 of the 6 axes. "Can show": the
#: Gauss-Markov peak Allan variance is at least the white noise's Allan variance at the
#: peak's tau (computed below from the preset, not chosen after the fit). Rates: 1 kHz
#: for 10 minutes for the presets without a bias term (at 100 Hz the MPU-6050's 16-bit
#: step over +/-2000 deg/s, 1.07e-3 rad/s, exceeds its per-sample sigma), 100 Hz
#: for 2 hours for those with one (its Allan peak sits at 189 s).
ROUND_TRIP = {
    # name: (rate Hz, seconds)
    "adis16470": (100.0, 7200.0),
    "icm42688p": (1000.0, 600.0),
    "mpu6050": (1000.0, 600.0),
}


def _datasheet_figures(name: str) -> tuple[list[float], list[float]]:
    """Per column (gyro x, y, z, accel x, y, z): the datasheet's N (rad/s/sqrt(Hz),
    m/s^2/sqrt(Hz)) and its Allan minimum (rad/s, m/s^2; 0 where none is printed)."""
    f = catalogue.CATALOGUE[name].figures
    gn = f.get("gyro_noise_density", 0.0) * DEG or f.get("gyro_arw", 0.0) * DEG / 60.0
    an = f.get("accel_noise_density", 0.0) * 1e-6 * G0 or f.get("accel_vrw", 0.0) / 60.0
    k = datasheet.ALLAN_MINIMUM_PER_BIAS_INSTABILITY
    gmin = (f.get("gyro_bias_instability", 0.0) * k + f.get("gyro_in_run_bias_stability", 0.0)) * (
        DEG / 3600.0
    )
    amin = (
        f.get("accel_bias_instability", 0.0) * k + f.get("accel_in_run_bias_stability", 0.0)
    ) * (1e-6 * G0)
    return [gn] * 3 + [an] * 3, [gmin] * 3 + [amin] * 3


def _visible(n: float, minimum: float, tau_c: float = 100.0) -> bool:
    """The Gauss-Markov peak (minimum^2 at 1.8926 tau_c) stands at or above the white
    noise's Allan variance n^2 / tau there."""
    return minimum > 0.0 and minimum**2 >= n**2 / (datasheet.GAUSS_MARKOV_PEAK_TAU * tau_c)


@pytest.mark.parametrize("name", sorted(ROUND_TRIP))
def test_preset_round_trip_through_fit_noise(name):
    rate, seconds = ROUND_TRIP[name]
    n = int(rate * seconds)
    imu = ImuNoise.preset(name, seed=2026)
    zeros = np.zeros((n, 3))
    w, a = imu.apply(zeros, zeros, 1.0 / rate)
    fit = fit_noise(np.hstack([w, a]), rate=rate, threads=1)
    ns, minima = _datasheet_figures(name)
    kept = visible = 0
    for ax, n_true, minimum in zip(fit.axes, ns, minima, strict=True):
        if n_true > 0.0:
            assert ax.noise_density.value == pytest.approx(n_true, rel=0.03), ax.name
        if not _visible(n_true, minimum):
            continue
        visible += 1
        sb = ax.bias_stddev.value
        if sb > 0.0:
            kept += 1
            assert sb == pytest.approx(minimum / datasheet.GAUSS_MARKOV_PEAK_ADEV, rel=0.25)
    if visible:
        assert kept >= 4, f"the fit kept the bias on {kept} of {visible} axes"
    # which presets have a visible bias term, fixed here
    assert visible == {"adis16470": 6}.get(name, 0)
