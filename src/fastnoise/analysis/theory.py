"""Allan deviation and power spectral density of an IMU noise model, in closed form.

For an :class:`~fastnoise.models.imu.triad.TriadNoise` (one triad: 3 axes, unit U =
rad/s for a gyroscope, m/s^2 for an accelerometer) or an
:class:`~fastnoise.models.imu.imu_noise.ImuNoise` (6 axes: gyro x, y, z, then accel x, y, z),
sampled every ``dt`` seconds, the linear stationary terms have exact discrete-time Allan
variances at tau = m*dt (Zhang 2008, Metrologia 45:549; see ``../shared/REFERENCE.md``):

============== ============================== ======================================
term           per-sample process             Allan variance at m samples, U^2
============== ============================== ======================================
white          sigma^2 = noise_stddev^2       sigma^2 / m  (= N^2/tau for a density N)
               + N^2/dt
quantization   ~ white, LSB^2/12              LSB^2 / (12 m)  (approximate, see below)
gauss_markov   b[k] = phi b[k-1] + w,         q^2 (m - 3phi - m phi^2 + 4phi^(m+1)
               phi = exp(-dt/tau_c),          - phi^(2m+1)) / (m^2 (1-phi)^2 (1-phi^2)),
               q^2 = sigma_b^2 (1 - phi^2)    steady state (stationary variance sigma_b^2)
random_walk    r[k] = r[k-1] + w,             (2m^2 + 1) omega^2 / (6m)
               omega^2 = K^2 dt
============== ============================== ======================================

The terms are independent, so the Allan variances add. The power spectral densities
(one-sided, U^2/Hz, 0 <= f <= 1/(2 dt); the integral over [0, 1/(2 dt)] is the
variance) are 2 sigma^2 dt (white), 2 q^2 dt / ((1 - phi)^2 + 4 phi sin^2(pi f dt))
(Gauss-Markov) and 2 omega^2 dt / (4 sin^2(pi f dt)) (random walk, infinite at f = 0).
Two-sided densities are half of these (white: sigma^2 dt = N^2 for a density N).

What the theory leaves out
--------------------------
- A Gauss-Markov bias started at 0 (``gauss_markov_steady_state=False``, the default) is not
  stationary: its variance grows as sigma_b^2 (1 - phi^(2k)) over the first few tau_c;
  the formulas describe the steady state (``gauss_markov_steady_state=True``, or a log started
  long after power-on).
- The turn-on bias and the constant bias are constants during a run: they do not show
  in the Allan deviation at all (they move the mean only).
- Scale factor, misalignment and G-sensitivity act on the true input: their effect
  depends on the motion (none on a stationary gyro with no input rate; the
  accelerometer's gravity and the gyro's G-sensitivity give constant offsets then).
- Saturation at ``full_scale`` is nonlinear and is ignored (the theory holds while the
  signal stays well inside the range).
- Rate quantization to an LSB behaves roughly as white noise of variance LSB^2/12 only
  when the noise spans several LSBs; it depends on the signal (a constant input with
  noise far below one LSB gives a constant output). IEEE Std 952's 3Q^2/tau^2 is
  *angle* quantization (of integrated output), a different term.
"""

from __future__ import annotations

import math
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from fastnoise.core import validate as _validate
from fastnoise.models.imu.triad import TriadNoise

__all__ = [
    "BIAS_INSTABILITY_FACTOR",
    "TERMS",
    "allan_deviation",
    "allan_deviation_terms",
    "allan_variance_terms",
    "axis_parameters",
    "bias_instability",
    "gauss_markov_avar",
    "power_spectral_density",
    "power_spectral_density_terms",
]

FloatArray: TypeAlias = npt.NDArray[np.float64]

#: The terms the theory covers, in the order of the returned dicts.
TERMS = ("white", "quantization", "gauss_markov", "random_walk")
#: IEEE Std 952: the flat floor of a flicker bias's Allan deviation is
#: sqrt(2 ln 2 / pi) * B = 0.664 B.
BIAS_INSTABILITY_FACTOR = math.sqrt(2.0 * math.log(2.0) / math.pi)


# ---- parameters per axis -------------------------------------------------------------------
def _triads(model: object) -> tuple[TriadNoise, ...]:
    if isinstance(model, TriadNoise):
        return (model,)
    gyro = getattr(model, "gyro", None)
    accel = getattr(model, "accel", None)
    if isinstance(gyro, TriadNoise) and isinstance(accel, TriadNoise):
        return (gyro, accel)
    if isinstance(model, list | tuple) and model and all(isinstance(t, TriadNoise) for t in model):
        return tuple(model)
    raise TypeError(
        f"model={model!r} is not allowed: use a TriadNoise, an ImuNoise (or an object "
        "with .gyro and .accel TriadNoise), or a sequence of TriadNoise"
    )


def axis_parameters(model: object, dt: float) -> dict[str, FloatArray]:
    """The discrete-time parameters of every axis, as the theory uses them.

    Parameters
    ----------
    model : TriadNoise, ImuNoise, or a sequence of TriadNoise
        3 axes per triad (ImuNoise: gyro x, y, z, accel x, y, z).
    dt : float
        Sample step, s (> 0).

    Returns
    -------
    dict of (A,) float64 arrays, A = 3 per triad:
        ``white_var`` sigma^2 (U^2), ``quant_var`` LSB^2/12 (U^2), ``gm_var``
        sigma_b^2 (U^2), ``gm_tau`` tau_c (s, inf where off), ``rw_var`` omega^2 =
        K^2 dt (U^2 per step).
    """
    step = _validate.positive("dt", dt)
    triads = _triads(model)
    white, quant, gm_var, gm_tau, rw = [], [], [], [], []
    for t in triads:
        white.append(np.square(t.white_stddev(step)))
        quant.append(np.square(t.lsb) / 12.0)
        gm_var.append(np.square(np.asarray(t.gauss_markov_stddev, dtype=np.float64)))
        if t.gauss_markov_correlation_time is None:
            gm_tau.append(np.full(3, math.inf))
        else:
            gm_tau.append(np.asarray(t.gauss_markov_correlation_time, dtype=np.float64))
        rw.append(np.square(np.asarray(t.random_walk_density, dtype=np.float64)) * step)
    return {
        "white_var": np.concatenate(white),
        "quant_var": np.concatenate(quant),
        "gm_var": np.concatenate(gm_var),
        "gm_tau": np.concatenate(gm_tau),
        "rw_var": np.concatenate(rw),
    }


def _cluster_sizes(tau: npt.ArrayLike, dt: float) -> tuple[FloatArray, FloatArray]:
    """m = tau/dt as floats, each a whole number within 1e-9 relative; (tau, m)."""
    t = np.atleast_1d(np.asarray(tau, dtype=np.float64))
    if t.ndim != 1 or t.size == 0:
        raise ValueError(f"tau has shape {np.shape(tau)}: it must be a scalar or a 1-D array")
    if not np.all(np.isfinite(t)) or np.any(t <= 0.0):
        raise ValueError(f"tau={t.tolist()!r} is not allowed: every value must be finite and > 0 s")
    m = np.round(t / dt)
    bad = (m < 1) | (np.abs(t / dt - m) > 1e-9 * np.maximum(m, 1.0))
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"tau[{i}]={float(t[i])!r} is not allowed: it must be a whole multiple m >= 1 "
            f"of dt={dt!r} s (the discrete Allan variance is defined at tau = m*dt)"
        )
    return t, m


# ---- Allan variance of each term ---------------------------------------------------------
_INV_FACT = tuple(1.0 / math.factorial(k) for k in range(3, 22))


def _expm1_3(z: FloatArray) -> FloatArray:
    """exp(z) - 1 - z - z^2/2, accurate for every z <= 0: z^3 sum_{k<19} z^k/(k+3)! by
    Horner for |z| < 0.5 (the next term is below 1e-26 |z|^3), expm1 beyond."""
    z = np.asarray(z, dtype=np.float64)
    poly = np.full_like(z, _INV_FACT[-1])
    for c in _INV_FACT[-2::-1]:
        poly = poly * z + c
    small = z**3 * poly
    with np.errstate(over="ignore"):
        big = np.expm1(z) - z - 0.5 * z * z
    return np.where(np.abs(z) < 0.5, small, big)


def gauss_markov_avar(m: FloatArray, var: float, tau_c: float, dt: float) -> FloatArray:
    """Allan variance (U^2) of a stationary first-order Gauss-Markov process of variance
    ``var`` (U^2) and correlation time ``tau_c`` (s) sampled every ``dt`` (s), at m
    samples: Zhang's AR(1) formula, evaluated without cancellation for every phi.

    With phi = exp(L), L = -dt/tau_c and E_k = phi^k - 1, the numerator
    m - 3phi - m phi^2 + 4phi^(m+1) - phi^(2m+1) equals
    -3E_1 - mE_2 + 4E_(m+1) - E_(2m+1); its terms of order L and L^2 cancel exactly, so
    for small (2m+1)|L| it is summed from exp(kL) - 1 - kL - (kL)^2/2 instead.
    """
    m = np.asarray(m, dtype=np.float64)
    if var == 0.0 or not math.isfinite(tau_c):
        return np.zeros_like(m)
    ll = -dt / tau_c
    eps = -math.expm1(ll)  # 1 - phi
    ks = (np.ones_like(m), 2.0 * np.ones_like(m), m + 1.0, 2.0 * m + 1.0)
    ws = (-3.0 * np.ones_like(m), -m, 4.0 * np.ones_like(m), -np.ones_like(m))
    small = (2.0 * m + 1.0) * abs(ll) <= 1.0
    num = np.zeros_like(m)
    for k, w in zip(ks, ws, strict=True):
        e = np.where(small, _expm1_3(k * ll), np.expm1(k * ll))
        num += w * e
    return var * num / (m * m * eps * eps)


def allan_variance_terms(
    model: object, tau: npt.ArrayLike, dt: float, *, quantization: bool = True
) -> dict[str, FloatArray]:
    """Allan variance of each noise term, per axis.

    Parameters
    ----------
    model : TriadNoise, ImuNoise or a sequence of TriadNoise
        The configuration (axes: 3 per triad; ImuNoise: gyro x, y, z, accel x, y, z).
    tau : float or (T,) array
        Averaging times, s: whole multiples m*dt.
    dt : float
        Sample step, s (> 0).
    quantization : bool
        Include the quantization step as white noise of variance LSB^2/12 (approximate:
        see the module notes).

    Returns
    -------
    dict term -> (T, A) float64, U^2 (rad^2/s^2 or m^2/s^4), keys ``TERMS``.
    """
    step = _validate.positive("dt", dt)
    _validate.boolean("quantization", quantization)
    t, m = _cluster_sizes(tau, step)
    p = axis_parameters(model, step)
    mm = m[:, None]
    out = {
        "white": p["white_var"][None, :] / mm,
        "quantization": (p["quant_var"] if quantization else 0.0 * p["quant_var"])[None, :] / mm,
        "random_walk": (2.0 * mm * mm + 1.0) * p["rw_var"][None, :] / (6.0 * mm),
    }
    gm = np.zeros((m.size, p["gm_var"].size))
    for a in range(gm.shape[1]):
        gm[:, a] = gauss_markov_avar(m, float(p["gm_var"][a]), float(p["gm_tau"][a]), step)
    out["gauss_markov"] = gm
    return {k: np.ascontiguousarray(out[k]) for k in TERMS}


def allan_deviation_terms(
    model: object, tau: npt.ArrayLike, dt: float, *, quantization: bool = True
) -> dict[str, FloatArray]:
    """Allan deviation of each noise term alone, per axis: sqrt of
    ``allan_variance_terms`` (U: rad/s or m/s^2), dict term -> (T, A)."""
    return {
        k: np.sqrt(v)
        for k, v in allan_variance_terms(model, tau, dt, quantization=quantization).items()
    }


def allan_deviation(
    model: object, tau: npt.ArrayLike, dt: float, *, quantization: bool = True
) -> FloatArray:
    """Allan deviation of a configured IMU noise model, per axis, exact for the linear
    stationary terms (white, Gauss-Markov in steady state, random walk; quantization
    approximated as white LSB^2/12).

    Parameters
    ----------
    model : TriadNoise, ImuNoise or a sequence of TriadNoise
        Axes: 3 per triad (ImuNoise: gyro x, y, z in rad/s, accel x, y, z in m/s^2).
    tau : float or (T,) array
        Averaging times, s, whole multiples of ``dt``.
    dt : float
        Sample step, s (> 0), e.g. 0.01 for 100 Hz.
    quantization : bool
        Include quantization as white noise LSB^2/12 (default True).

    Returns
    -------
    (T, A) float64 array, U (rad/s for gyro axes, m/s^2 for accel axes).

    Examples
    --------
    >>> from fastnoise.models.imu.triad import TriadNoise
    >>> from fastnoise.analysis.theory import allan_deviation
    >>> g = TriadNoise(noise_density=1e-3, random_walk_density=1e-5)
    >>> allan_deviation(g, [0.01, 1.0, 100.0], dt=0.01)[:, 0]  # doctest: +SKIP
    """
    terms = allan_variance_terms(model, tau, dt, quantization=quantization)
    total = terms["white"] + terms["quantization"] + terms["gauss_markov"] + terms["random_walk"]
    return np.sqrt(total)


# ---- spectra -------------------------------------------------------------------------------
def power_spectral_density_terms(
    model: object,
    f: npt.ArrayLike,
    dt: float,
    *,
    onesided: bool = True,
    quantization: bool = True,
) -> dict[str, FloatArray]:
    """Power spectral density of each term of the sampled noise, per axis.

    Parameters
    ----------
    model : TriadNoise, ImuNoise or a sequence of TriadNoise
    f : float or (F,) array
        Frequencies, Hz, in [0, 1/(2 dt)].
    dt : float
        Sample step, s (> 0).
    onesided : bool
        One-sided densities (default; they integrate to the variance over
        [0, 1/(2 dt)]); False gives the two-sided ones (half).
    quantization : bool
        Include quantization as white noise LSB^2/12.

    Returns
    -------
    dict term -> (F, A) float64, U^2/Hz ((rad/s)^2/Hz or (m/s^2)^2/Hz). The random
    walk is infinite at f = 0.
    """
    step = _validate.positive("dt", dt)
    _validate.boolean("onesided", onesided)
    _validate.boolean("quantization", quantization)
    fr = np.atleast_1d(np.asarray(f, dtype=np.float64))
    if fr.ndim != 1:
        raise ValueError(f"f has shape {np.shape(f)}: it must be a scalar or a 1-D array")
    nyq = 0.5 / step
    if not np.all(np.isfinite(fr)) or np.any(fr < 0.0) or np.any(fr > nyq * (1 + 1e-12)):
        raise ValueError(
            f"f={fr.tolist()!r} is not allowed: every frequency must lie in [0, {nyq}] Hz "
            "(0 to the Nyquist frequency 1/(2 dt))"
        )
    p = axis_parameters(model, step)
    scale = 2.0 * step if onesided else step
    s2 = np.square(np.sin(np.pi * fr * step))[:, None]
    out: dict[str, FloatArray] = {}
    shape = (fr.size, p["white_var"].size)
    out["white"] = np.broadcast_to(scale * p["white_var"][None, :], shape).copy()
    qv = p["quant_var"] if quantization else 0.0 * p["quant_var"]
    out["quantization"] = np.broadcast_to(scale * qv[None, :], shape).copy()
    phi = np.where(np.isfinite(p["gm_tau"]), np.exp(-step / p["gm_tau"]), 0.0)[None, :]
    q2 = p["gm_var"][None, :] * (1.0 - phi * phi)
    with np.errstate(divide="ignore"):
        out["gauss_markov"] = scale * q2 / (np.square(1.0 - phi) + 4.0 * phi * s2)
        rw = scale * p["rw_var"][None, :] / (4.0 * s2)
    out["random_walk"] = np.where(p["rw_var"][None, :] == 0.0, 0.0, rw)
    return {k: out[k] for k in TERMS}


def power_spectral_density(
    model: object,
    f: npt.ArrayLike,
    dt: float,
    *,
    onesided: bool = True,
    quantization: bool = True,
) -> FloatArray:
    """Power spectral density of the sampled noise of a configured IMU model, per axis:
    the sum of ``power_spectral_density_terms`` (independent terms), (F, A) float64 in
    U^2/Hz. See that function for the parameters; the Gauss-Markov term is its steady
    state."""
    terms = power_spectral_density_terms(model, f, dt, onesided=onesided, quantization=quantization)
    return terms["white"] + terms["quantization"] + terms["gauss_markov"] + terms["random_walk"]


# ---- derived figures -----------------------------------------------------------------------
def bias_instability(
    model: object,
    dt: float,
    tau_range: tuple[float, float] | None = None,
    *,
    quantization: bool = True,
) -> tuple[FloatArray, FloatArray]:
    """Bias instability B per axis, read as IEEE Std 952 does: the minimum of the
    model's Allan deviation over ``tau_range`` divided by 0.664 (sqrt(2 ln 2 / pi)).

    Parameters
    ----------
    model : TriadNoise, ImuNoise or a sequence of TriadNoise
    dt : float
        Sample step, s.
    tau_range : (float, float) or None
        Averaging times searched, s (default dt to 1e6 dt), on 40 points per decade.
    quantization : bool
        Include quantization as white LSB^2/12.

    Returns
    -------
    (B, tau_min) : (A,) arrays: B in U (rad/s or m/s^2), and the tau (s) of the minimum.
    A minimum at the end of the range means the curve had not turned up yet.
    """
    step = _validate.positive("dt", dt)
    lo, hi = (step, 1e6 * step) if tau_range is None else tau_range
    lo = _validate.positive("tau_range[0]", lo)
    hi = _validate.positive("tau_range[1]", hi)
    if hi < lo:
        raise ValueError(f"tau_range={tau_range!r} is not allowed: it must be (low, high)")
    m_lo, m_hi = max(1.0, math.ceil(lo / step - 1e-9)), max(1.0, math.floor(hi / step + 1e-9))
    count = max(2, int(40 * math.log10(max(m_hi / m_lo, 10.0))))
    m = np.unique(np.round(np.geomspace(m_lo, max(m_hi, m_lo), count)))
    adev = allan_deviation(model, m * step, step, quantization=quantization)
    idx = np.argmin(adev, axis=0)
    cols = np.arange(adev.shape[1])
    return adev[idx, cols] / BIAS_INSTABILITY_FACTOR, m[idx] * step
