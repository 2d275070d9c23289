"""From the figures an IMU datasheet prints to a (gyro, accel) pair of :class:`TriadNoise`
(:func:`datasheet_triads`, behind ``ImuNoise.from_datasheet``).

The mapping (IEEE Std 952-1997 Annex C and IEEE Std 1293-1998 for the Allan-variance
terms, NIST SP 1065 section 5 for the Allan variance itself):

* **White noise.** A rate noise density printed in deg/s/sqrt(Hz) (or mdps/sqrt(Hz)
  divided by 1000) or an angle random walk ARW in deg/sqrt(h) is the single-sided
  density N of :class:`TriadNoise` (rad/s/sqrt(Hz)): ``N = density * pi/180`` and
  ``N = ARW * pi/180 / 60`` (1 sqrt(h) = 60 sqrt(s)). The Allan deviation at tau = 1 s
  is N (IEEE 952 C.3). For the accelerometer, ug/sqrt(Hz) gives
  ``N = density * 1e-6 * g0`` (g0 = 9.80665 m/s^2, standard gravity) and a velocity
  random walk VRW in m/s/sqrt(h) gives ``N = VRW / 60``. Kalibr takes the datasheet
  density as its ``noise_density`` without a factor, as fastnoise does: per-sample
  sigma ``N / sqrt(dt)``.
* **An RMS noise** at a bandwidth (deg/s rms, mg rms) gives ``N = rms / sqrt(B)`` with
  B the noise-equivalent bandwidth in Hz; without ``bandwidth``, ``odr / 2`` (the
  Nyquist band of the output data rate) is used.
* **Bias instability.** IEEE 952's bias-instability coefficient B (deg/h, ug) belongs
  to a flicker floor whose Allan deviation is ``sqrt(2 ln 2 / pi) * B = 0.664 B``.
  Datasheets that print an "in-run bias stability" (Analog Devices, Bosch) quote the
  Allan minimum itself; give that as ``*_in_run_bias_stability``. fastnoise has no
  flicker term: the floor is modelled by a first-order Gauss-Markov bias whose Allan
  deviation peaks at that minimum. Its Allan deviation peaks at
  tau = 1.8926 tau_c with the value 0.61736 sigma_b (the maximum of
  ``sigma_b^2 (2/x)(1 - (3 - 4e^-x + e^-2x)/(2x))``, x = tau/tau_c), so
  ``sigma_b = minimum / 0.61736``, with ``tau_c = gauss_markov_correlation_time``
  (datasheets do not print it; read the tau of the minimum off the datasheet's Allan
  plot and divide by 1.8926). Away from the peak the Gauss-Markov curve falls where a
  flicker floor stays flat.
* **Rate random walk** K (deg/h/sqrt(h)): ``K = RRW * pi/180 / 3600 / 60``
  (rad/s/sqrt(s)).
* **Range and resolution.** ``*_range`` (deg/s, g) is the saturation ``full_scale``;
  ``*_bits`` the ADC (lsb = 2 range / 2^bits) or ``*_resolution`` (deg/s, g per LSB)
  an explicit step. Datasheets that print a sensitivity in LSB/(deg/s) give
  ``resolution = 1 / sensitivity``.
"""

from __future__ import annotations

import math
from typing import Any

from fastnoise.models.imu.triad import TriadNoise

__all__ = [
    "ALLAN_MINIMUM_PER_BIAS_INSTABILITY",
    "GAUSS_MARKOV_PEAK_ADEV",
    "GAUSS_MARKOV_PEAK_TAU",
    "STANDARD_GRAVITY",
    "datasheet_triads",
]

#: Standard gravity g0, m/s^2 (the conversion of g and ug to m/s^2).
STANDARD_GRAVITY = 9.80665
#: Allan deviation of a flicker floor per bias-instability coefficient B:
#: sqrt(2 ln 2 / pi) = 0.6643 (IEEE Std 952-1997 C.4; NIST SP 1065 table 11).
ALLAN_MINIMUM_PER_BIAS_INSTABILITY = math.sqrt(2.0 * math.log(2.0) / math.pi)
#: tau / tau_c where a first-order Gauss-Markov bias's Allan deviation peaks.
GAUSS_MARKOV_PEAK_TAU = 1.8926
#: That peak Allan deviation per sigma_b.
GAUSS_MARKOV_PEAK_ADEV = 0.61736
_DEG = math.pi / 180.0


def _opt(name: str, value: object) -> float | None:
    """A datasheet figure: None, or a finite real number >= 0."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name}={value!r} is not allowed: it must be a real number or None")
    v = float(value)
    if not math.isfinite(v) or v < 0.0:
        raise ValueError(f"{name}={value!r} is not allowed: it must be finite and >= 0")
    return v


def _one_of(names: tuple[str, ...], values: dict[str, float | None]) -> str | None:
    given = [n for n in names if values[n] is not None]
    if len(given) > 1:
        raise ValueError(
            f"{given} are given together: they state the same quantity, give one of {list(names)}"
        )
    return given[0] if given else None


def _white(
    prefix: str,
    v: dict[str, float | None],
    density_scale: float,
    walk_scale: float,
    rms_scale: float,
    odr: float | None,
    bandwidth: float | None,
) -> float:
    names = (
        f"{prefix}_noise_density",
        f"{prefix}_{'arw' if prefix == 'gyro' else 'vrw'}",
        f"{prefix}_rms_noise",
    )
    which = _one_of(names, v)
    if which is None:
        return 0.0
    x = v[which]
    assert x is not None
    if which == names[0]:
        return x * density_scale
    if which == names[1]:
        return x * walk_scale
    band = bandwidth if bandwidth is not None else (odr / 2.0 if odr else None)
    if not band:
        raise TypeError(
            f"{which}={x!r} needs the bandwidth it was measured in: give bandwidth (Hz) or "
            "odr (Hz, then odr/2 is used)"
        )
    return x * rms_scale / math.sqrt(band)


def _bias(prefix: str, v: dict[str, float | None], scale: float) -> float:
    names = (f"{prefix}_bias_instability", f"{prefix}_in_run_bias_stability")
    which = _one_of(names, v)
    if which is None:
        return 0.0
    x = v[which]
    assert x is not None
    minimum = x * scale
    if which == names[0]:
        minimum *= ALLAN_MINIMUM_PER_BIAS_INSTABILITY
    return minimum / GAUSS_MARKOV_PEAK_ADEV


def _quant(
    prefix: str, rng: float | None, bits: object, resolution: float | None, scale: float
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if rng is not None:
        if rng == 0.0:
            raise ValueError(f"{prefix}_range=0.0 is not allowed: it must be > 0 (or None)")
        out["full_scale"] = rng * scale
    if bits is not None:
        if isinstance(bits, bool) or not isinstance(bits, int) or not 1 <= bits <= 32:
            raise ValueError(f"{prefix}_bits={bits!r} is not allowed: it must be an int in [1, 32]")
        if rng is None:
            raise TypeError(f"{prefix}_bits={bits!r} needs {prefix}_range: lsb = 2 range / 2^bits")
        if resolution is not None:
            raise ValueError(f"{prefix}_bits and {prefix}_resolution are given together: give one")
        out["bits"] = bits
    elif resolution is not None and resolution > 0.0:
        out["resolution"] = resolution * scale
    return out


def datasheet_triads(
    *,
    gyro_noise_density: float | None = None,
    gyro_arw: float | None = None,
    gyro_rms_noise: float | None = None,
    gyro_bias_instability: float | None = None,
    gyro_in_run_bias_stability: float | None = None,
    gyro_rate_random_walk: float | None = None,
    gyro_range: float | None = None,
    gyro_bits: int | None = None,
    gyro_resolution: float | None = None,
    accel_noise_density: float | None = None,
    accel_vrw: float | None = None,
    accel_rms_noise: float | None = None,
    accel_bias_instability: float | None = None,
    accel_in_run_bias_stability: float | None = None,
    accel_range: float | None = None,
    accel_bits: int | None = None,
    accel_resolution: float | None = None,
    odr: float | None = None,
    bandwidth: float | None = None,
    gauss_markov_correlation_time: float = 100.0,
) -> tuple[TriadNoise, TriadNoise]:
    """(gyro, accel) :class:`TriadNoise` from datasheet figures, in the units datasheets
    print (the same value on the three axes). Every figure is optional; of those that
    state one quantity (noise density, ARW, RMS noise; bias instability, in-run bias
    stability) give at most one per sensor.

    Parameters
    ----------
    gyro_noise_density : deg/s/sqrt(Hz) (rate noise density; mdps/sqrt(Hz) / 1000).
    gyro_arw : deg/sqrt(h), angle random walk.
    gyro_rms_noise : deg/s rms over ``bandwidth``.
    gyro_bias_instability : deg/h, IEEE 952's coefficient B (Allan minimum 0.664 B).
    gyro_in_run_bias_stability : deg/h, the Allan-deviation minimum itself.
    gyro_rate_random_walk : deg/h/sqrt(h).
    gyro_range : deg/s, full scale (saturation).
    gyro_bits : ADC bits over [-range, range]; or ``gyro_resolution`` in deg/s per LSB.
    accel_noise_density : ug/sqrt(Hz).
    accel_vrw : m/s/sqrt(h), velocity random walk.
    accel_rms_noise : mg rms over ``bandwidth``.
    accel_bias_instability : ug, IEEE coefficient B; accel_in_run_bias_stability : ug,
        the Allan minimum.
    accel_range : g, full scale; accel_bits, or accel_resolution in g per LSB.
    odr : Hz, output data rate (for an RMS figure without ``bandwidth``: odr/2).
    bandwidth : Hz, noise-equivalent bandwidth of the RMS figures.
    gauss_markov_correlation_time : s, tau_c of the Gauss-Markov bias that stands in
        for the bias instability (default 100 s: its Allan peak at 189 s).

    Returns
    -------
    (gyro, accel) : TriadNoise in rad/s and m/s^2; the Gauss-Markov bias starts from
    its stationary distribution (``gauss_markov_steady_state=True``), as in a log of a
    warmed-up sensor.
    """
    v = {k: _opt(k, val) for k, val in locals().items() if k not in ("gyro_bits", "accel_bits")}
    odr_v, band_v = v["odr"], v["bandwidth"]
    if odr_v == 0.0 or band_v == 0.0:
        raise ValueError("odr and bandwidth must be > 0 (Hz) when given")
    tau_c = v["gauss_markov_correlation_time"]
    if tau_c is None or tau_c <= 0.0:
        raise ValueError(
            f"gauss_markov_correlation_time={gauss_markov_correlation_time!r} is not "
            "allowed: it must be finite and > 0 (s)"
        )
    g0 = STANDARD_GRAVITY
    gyro_n = _white("gyro", v, _DEG, _DEG / 60.0, _DEG, odr_v, band_v)
    accel_n = _white("accel", v, 1e-6 * g0, 1.0 / 60.0, 1e-3 * g0, odr_v, band_v)
    gyro_sb = _bias("gyro", v, _DEG / 3600.0)
    accel_sb = _bias("accel", v, 1e-6 * g0)
    rrw = v["gyro_rate_random_walk"]
    gyro_k = 0.0 if rrw is None else rrw * _DEG / 3600.0 / 60.0
    triads = []
    for n, sb, k, q in (
        (
            gyro_n,
            gyro_sb,
            gyro_k,
            _quant("gyro", v["gyro_range"], gyro_bits, v["gyro_resolution"], _DEG),
        ),
        (
            accel_n,
            accel_sb,
            0.0,
            _quant("accel", v["accel_range"], accel_bits, v["accel_resolution"], g0),
        ),
    ):
        kw: dict[str, Any] = dict(q, noise_density=n, random_walk_density=k)
        if sb > 0.0:
            kw.update(
                gauss_markov_stddev=sb,
                gauss_markov_correlation_time=tau_c,
                gauss_markov_steady_state=True,
            )
        triads.append(TriadNoise(**kw))
    return triads[0], triads[1]
