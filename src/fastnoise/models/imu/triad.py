"""Parameters of the IMU error model: one :class:`TriadNoise` per sensor triad (gyroscope
in rad/s, accelerometer in m/s^2), the WT901C preset of the ROS 2 sensor pipeline
document, and the covariance helpers a ROS ``sensor_msgs/Imu`` or ``nav_msgs/Odometry``
message needs.

Conventions
-----------
Densities are single-sided, as in Kalibr, RotorS and IEEE Std 952: a white-noise
density N (rad/s/sqrt(Hz) or m/s^2/sqrt(Hz)) gives the per-sample standard deviation
``N / sqrt(dt)``, and a bias random walk of density K (rad/s/sqrt(s) or
m/s^2/sqrt(s)) moves the bias by ``K * sqrt(dt) * w`` per step. MATLAB's ``imuSensor``
default ("double-sided") differs by a factor sqrt(2) in both.

Order of operations, per sample (see ``csrc/imu.h``):

1. scale factor and misalignment: ``x = (I + diag(scale_factor) + misalignment) @ true``;
   gyroscope only: ``x += g_sensitivity @ accel_true``;
2. bias states advance: Gauss-Markov ``b = alpha*b + sigma_b*sqrt(1 - alpha^2)*w`` with
   ``alpha = exp(-dt/tau)``; random walk ``r = r + K*sqrt(dt)*w``;
3. ``y = x + (bias + turn_on_bias) + b + r + sigma_white*w``;
4. saturation to ``[-full_scale, full_scale]``;
5. quantization ``round(y * (1/lsb)) * lsb`` (ties to even), ``lsb = 2*full_scale/2**bits``
   or ``resolution``; with ``rounding="gazebo"`` a ``resolution`` rounds as Gazebo's
   ``precision``, ``std::round(y / lsb) * lsb`` (a division, halves away from zero).
   With ``bits`` the full scale is 2**(bits-1) steps, so a saturated value stays
   exactly +/-full_scale (one code beyond a two's-complement ADC's top code on the
   positive side); with ``resolution`` an output may pass full_scale by < lsb/2 when
   full_scale is not a multiple of it.

Non-finite true values never touch the noise and bias states. NaN stays NaN; +/-inf
saturates to +/-full_scale when one is set and the triad has no scale factor,
misalignment or G-sensitivity (with them, 0 * inf may turn it into NaN).
"""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from fastnoise.core.deprecation import renamed_keys
from fastnoise.models.imu.triad_fields import (
    _positive,
    _real,
    _triple,
    parse_fields,
)

__all__ = [
    "COVARIANCE_CONVENTIONS",
    "STANDARD_GRAVITY_WT901C",
    "TriadNoise",
    "gauss_markov_stddev_from_gazebo",
    "odometry_covariances",
    "triad_covariance",
    "wt901c",
]

#: The value of g that the ROS 2 sensor pipeline document uses for the WT901C figures
#: (m/s^2).
STANDARD_GRAVITY_WT901C = 9.81

#: TriadNoise fields that 0.3 renamed (old -> new): the first-order Gauss-Markov bias
#: (``bias_stddev`` is Gazebo's turn-on bias sd everywhere else). The old names still
#: work for one release, with a DeprecationWarning (keywords, dicts, states, pickles).
RENAMED_FIELDS = {
    "bias_stddev": "gauss_markov_stddev",
    "bias_correlation_time": "gauss_markov_correlation_time",
    "bias_steady_state": "gauss_markov_steady_state",
}

#: A per-axis field: one value for all three axes, or (x, y, z). Stored as a 3-tuple.
_Vec3 = float | tuple[float, float, float]
#: A 3x3 field: a scalar s (s*I), a diagonal (x, y, z) or three rows. Stored as 3x3 tuples.
_Mat3 = float | tuple[float, float, float] | tuple[tuple[float, float, float], ...]


@dataclass(frozen=True)
class TriadNoise:
    """Error terms of one sensor triad (three axes). Every term defaults to off.

    Units: the triad's unit U is rad/s for a gyroscope and m/s^2 for an accelerometer.
    Each per-axis field takes a scalar (all axes) or a length-3 sequence (x, y, z).

    Parameters
    ----------
    noise_stddev : per-sample white-noise standard deviation, U (Gazebo's ``stddev``:
        not scaled by the step).
    noise_density : white-noise density N, U/sqrt(Hz), single-sided: per-sample
        sigma = N/sqrt(dt). Combined with ``noise_stddev`` as independent terms:
        sigma^2 = noise_stddev^2 + N^2/dt.
    bias : constant bias, U (Gazebo's noise ``mean``).
    turn_on_bias_mean, turn_on_bias_stddev : Gazebo's turn-on bias, U: drawn once per
        axis from N(mean, stddev) and negated with probability 1/2.
    gauss_markov_stddev : stationary standard deviation sigma_b of the first-order Gauss-Markov
        bias, U (the ROS 2 sensor pipeline document); scalar or per axis (x, y, z).
    gauss_markov_correlation_time : its correlation time tau, s: a scalar (every axis) or per
        axis (x, y, z), each finite and > 0, or 0 for no Gauss-Markov term on that axis
        (whose ``gauss_markov_stddev`` must then be 0: Gazebo's dynamic bias on some axes
        only); ``None`` turns the term off on every axis.
    gauss_markov_steady_state : start the Gauss-Markov bias from its stationary distribution
        N(0, sigma_b^2) instead of 0.
    turn_on_bias_decays : Gazebo's dynamic-bias form: the turn-on bias is the
        Gauss-Markov state's initial value (so it decays with tau) instead of a constant.
        On an axis whose ``gauss_markov_correlation_time`` is 0 it stays constant, as on a
        Gazebo axis without dynamic bias.
    random_walk_density : bias random walk (rate random walk) density K, U/sqrt(s).
    scale_factor : dimensionless scale-factor error per axis (0.001 = 1000 ppm).
    misalignment : 3x3 cross-axis coupling with zero diagonal, dimensionless.
    g_sensitivity : gyroscope only: (rad/s)/(m/s^2), scalar, per axis or 3x3; adds
        ``g_sensitivity @ accel_true``.
    full_scale : saturation limit, U (> 0; ``inf`` for none).
    bits : ADC resolution in 1..32 bits over [-full_scale, full_scale]:
        lsb = 2*full_scale/2**bits. Needs a finite ``full_scale``.
    resolution : an explicit quantization step, U (Gazebo's ``precision``); not with
        ``bits``. A scalar (every axis) or per axis (x, y, z), each in [1e-150, 1e150]
        or 0 for no quantization on that axis (Gazebo's precision on some axes only;
        Gazebo itself treats ``|precision| <= 1e-6`` as none, which a converter maps
        to 0).
    rounding : how a ``resolution`` step rounds: ``"nearest_even"`` (the default)
        ``round(y * (1/lsb)) * lsb``, ties to even; ``"gazebo"``
        ``std::round(y / lsb) * lsb``, a division with halves away from zero, bit for
        bit as Gazebo's ``precision`` (0.25 at resolution 0.5 gives 0.5, where
        ``"nearest_even"`` gives 0). The ADC quantization of ``bits`` always rounds
        ties to even (``"gazebo"`` with ``bits`` is refused).

    Bounds (so that sigma**2 and every term of a measurement stay finite): every value
    but ``gauss_markov_correlation_time`` has magnitude at most ``PARAM_MAX`` = 1e150;
    ``full_scale`` is inf or lies in [1e-150, 1e150], ``resolution`` in [1e-150, 1e150].
    A TriadNoise is checked when built, when unpickled and when an ImuNoise takes it.
    """

    noise_stddev: _Vec3 = 0.0
    noise_density: _Vec3 = 0.0
    bias: _Vec3 = 0.0
    turn_on_bias_mean: _Vec3 = 0.0
    turn_on_bias_stddev: _Vec3 = 0.0
    gauss_markov_stddev: _Vec3 = 0.0
    gauss_markov_correlation_time: _Vec3 | None = None
    gauss_markov_steady_state: bool = False
    turn_on_bias_decays: bool = False
    random_walk_density: _Vec3 = 0.0
    scale_factor: _Vec3 = 0.0
    misalignment: _Mat3 = 0.0
    g_sensitivity: _Mat3 = 0.0
    full_scale: _Vec3 = math.inf
    bits: int | None = None
    resolution: _Vec3 | None = None
    rounding: str = "nearest_even"

    def __post_init__(self) -> None:
        parse_fields(self)  # every field checked, stored in its canonical form

    # ---- derived quantities --------------------------------------------------------
    @property
    def lsb(self) -> np.ndarray:
        """Quantization step per axis, U (0 where there is none)."""
        if self.bits is not None:
            return np.array([2.0 * fs / 2.0**self.bits for fs in _triple(self.full_scale)])
        if self.resolution is not None:
            return np.array(self.resolution)
        return np.zeros(3)

    @property
    def linear_map(self) -> np.ndarray:
        """The 3x3 matrix ``I + diag(scale_factor) + misalignment`` (dimensionless)."""
        return np.eye(3) + np.diag(self.scale_factor) + np.array(self.misalignment)

    def white_stddev(self, dt: float) -> np.ndarray:
        """Per-sample white-noise sigma for step ``dt`` (s): sqrt(stddev^2 + N^2/dt), U
        (where N^2/dt overflows, the same value in a scaled form, as the C model does).
        A sigma beyond the doubles is refused (ValueError naming ``dt``)."""
        dt = _positive("dt", dt)
        s, n = np.array(self.noise_stddev), np.array(self.noise_density)
        with np.errstate(over="ignore"):
            var = np.square(s) + np.square(n) / dt
            t = n / math.sqrt(dt)
            r = np.divide(s, t, out=np.zeros(3), where=t > 0.0)
            sigma = np.where(var <= sys.float_info.max, np.sqrt(var), t * np.sqrt(1.0 + r * r))
        if not np.all(np.isfinite(sigma)):
            raise ValueError(
                f"dt={dt!r} is not allowed with noise_density={self.noise_density!r}: "
                "the white-noise sigma noise_density/sqrt(dt) overflows"
            )
        return sigma

    def bias_variance(self) -> np.ndarray:
        """Variance of the random bias per axis, U^2: the Gauss-Markov sigma_b^2 plus the
        turn-on bias's second moment mean^2 + stddev^2 (its mean is zero because of the
        random sign), unless it decays (``turn_on_bias_decays``, on the axes whose
        ``gauss_markov_correlation_time`` is > 0). The random walk has no
        stationary variance and is left out; the constant ``bias`` is not random."""
        var = np.square(self.gauss_markov_stddev)
        turn_on = np.square(self.turn_on_bias_mean) + np.square(self.turn_on_bias_stddev)
        if not self.turn_on_bias_decays:
            return var + turn_on
        # it decays only on the axes with a Gauss-Markov term (tau > 0)
        tau = np.array(self.gauss_markov_correlation_time or (0.0, 0.0, 0.0))
        return np.where(tau > 0.0, var, var + turn_on)

    def variance(self, dt: float) -> np.ndarray:
        """sigma_white^2 + sigma_bias^2 per axis for step ``dt`` (s), U^2. A variance
        beyond the doubles (a tiny ``dt`` with a large density) is refused (ValueError
        naming ``dt``) rather than returned as inf."""
        white = self.white_stddev(dt)
        with np.errstate(over="ignore"):
            var = np.square(white) + self.bias_variance()
        if not np.all(np.isfinite(var)):
            raise ValueError(
                f"dt={dt!r} is not allowed with noise_density={self.noise_density!r}: "
                f"the white-noise variance noise_stddev**2 + noise_density**2/dt "
                f"({max(white)!r}**2) overflows"
            )
        return var

    def replace(self, **changes) -> TriadNoise:
        """A copy with some fields changed (validated again)."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        changes = renamed_keys("TriadNoise.replace", changes, RENAMED_FIELDS)
        unknown = set(changes) - set(d)
        if unknown:
            raise TypeError(f"unknown TriadNoise field(s): {sorted(unknown)}")
        d.update(changes)
        return TriadNoise(**d)

    def to_dict(self) -> dict:
        """Every field as plain data (lists, floats, ints, bools, None) that
        ``TriadNoise(**d)`` and ``TriadNoise.from_value`` rebuild exactly (JSON-able;
        ``full_scale`` may be ``inf``)."""

        def plain(v: object) -> object:
            if isinstance(v, tuple):
                return [plain(x) for x in v]
            return v

        return {f.name: plain(getattr(self, f.name)) for f in fields(self)}

    # ---- pickling: through the validating constructor --------------------------------
    def __reduce__(self) -> tuple:
        return (_triad_from_dict, (self.to_dict(),))

    def __setstate__(self, state: object) -> None:
        """Restore a pickle of the default dataclass form (``object.__new__`` and the
        field dict) through the constructor's checks, so a tampered one (a short list,
        NaN, a negative sigma) raises instead of reaching the C model unchecked."""
        fresh = TriadNoise.from_value("TriadNoise state", state)
        for f in fields(TriadNoise):
            object.__setattr__(self, f.name, getattr(fresh, f.name))

    @classmethod
    def from_value(cls, name: str, value: object) -> TriadNoise:
        """Accept a TriadNoise, a dict of its fields, or None (no errors). A TriadNoise
        is checked again (a new one is built from its fields), so one whose fields were
        changed behind the frozen dataclass's back is refused too."""
        if value is None:
            return cls()
        if isinstance(value, TriadNoise):
            try:
                items = {f.name: getattr(value, f.name) for f in fields(cls)}
            except AttributeError as exc:
                raise TypeError(
                    f"{name} is a TriadNoise that lacks fields ({exc}): build it with "
                    "TriadNoise(...)"
                ) from exc
            return cls(**items)
        if isinstance(value, dict):
            value = renamed_keys(name, value, RENAMED_FIELDS, stacklevel=4)
            known = {f.name for f in fields(cls)}
            unknown = sorted(set(value) - known)
            if unknown:
                raise TypeError(
                    f"{name} has unknown field(s) {unknown}: allowed are {sorted(known)}"
                )
            return cls(**value)
        raise TypeError(
            f"{name}={value!r} is not allowed: use a fastnoise.models.imu.triad.TriadNoise, "
            "a dict of its fields, or None"
        )


_dataclass_init = TriadNoise.__init__


@functools.wraps(_dataclass_init)
def _init(self: TriadNoise, *args: Any, **kwargs: Any) -> None:
    """The dataclass constructor, also taking the 0.2 names (RENAMED_FIELDS) with a
    DeprecationWarning; an old name given with its new one is a TypeError."""
    _dataclass_init(self, *args, **renamed_keys("TriadNoise", kwargs, RENAMED_FIELDS))


TriadNoise.__init__ = _init  # type: ignore[method-assign]
del _init  # (only the method: no module-level name for it)


def _triad_from_dict(d: object) -> TriadNoise:
    """Unpickle a TriadNoise (its ``to_dict()``) through the checks."""
    return TriadNoise.from_value("TriadNoise state", d)


#: Values of ``convention`` in :func:`triad_covariance`.
COVARIANCE_CONVENTIONS = ("white_and_bias", "gazebo")


def triad_covariance(
    params: TriadNoise, dt: float, convention: str = "white_and_bias"
) -> np.ndarray:
    """Row-major 3x3 covariance (9 floats, U^2) for a ROS ``sensor_msgs/Imu`` field at
    step ``dt`` (s), zero off the diagonal; ``angular_velocity_covariance`` (gyro,
    (rad/s)^2) and ``linear_acceleration_covariance`` (accel, (m/s^2)^2).

    ``convention``: ``"white_and_bias"`` (the default) sigma_white^2 + sigma_bias^2 (see
    :meth:`TriadNoise.variance`), the rule of the ROS 2 sensor pipeline document, kept
    as the default because an estimator that trusts the covariance then also allows for
    the turn-on and Gauss-Markov bias, which one sample cannot show; ``"gazebo"``
    sigma_white^2 only, what gz-sensors' ``ImuSensor`` publishes (its noise
    ``stddev`` squared; Gazebo sends it as a float32)."""
    if not isinstance(params, TriadNoise):
        params = TriadNoise.from_value("params", params)
    if convention == "white_and_bias":
        var = params.variance(dt)
    elif convention == "gazebo":
        var = np.square(params.white_stddev(dt))
    else:
        raise ValueError(
            f"convention={convention!r} is not allowed: use one of {list(COVARIANCE_CONVENTIONS)}"
        )
    cov = np.zeros((3, 3))
    cov[np.diag_indices(3)] = var
    return cov.reshape(9)


def odometry_covariances() -> tuple[np.ndarray, np.ndarray]:
    """The ROS 2 sensor pipeline document's ``nav_msgs/Odometry`` covariances for a
    planar differential-drive robot: ``(pose.covariance, twist.covariance)``, each 36
    floats, row-major 6x6 over (x, y, z, roll, pitch, yaw). Units m^2 and rad^2
    (pose), (m/s)^2 and (rad/s)^2 (twist). Unmeasured pose axes (z, roll, pitch) carry
    1e6; the yaw variance 0.08 is high so an EKF trusts the IMU for heading."""
    pose = np.zeros(36)
    pose[[0, 7]] = 0.005
    pose[[14, 21, 28]] = 1e6
    pose[35] = 0.08
    twist = np.zeros(36)
    twist[0] = 0.001
    twist[7] = 0.0001
    twist[35] = 0.05
    return pose, twist


def gauss_markov_stddev_from_gazebo(dynamic_bias_stddev: float, correlation_time: float) -> float:
    """Stationary std of Gazebo's dynamic bias: its ``dynamic_bias_stddev`` sigma is a
    driving density (U/sqrt(s)), discretized as
    sqrt(-sigma^2*tau/2*expm1(-2*dt/tau)), so the stationary std is sigma*sqrt(tau/2), U."""
    sigma = _real("dynamic_bias_stddev", dynamic_bias_stddev, limit=False)
    if sigma < 0.0:
        raise ValueError(
            f"dynamic_bias_stddev={dynamic_bias_stddev!r} is not allowed: it must be >= 0"
        )
    tau = _positive("dynamic_bias_correlation_time", correlation_time)
    out = sigma * math.sqrt(tau / 2.0)
    if not math.isfinite(out):
        raise ValueError(
            f"dynamic_bias_stddev={dynamic_bias_stddev!r} with "
            f"dynamic_bias_correlation_time={correlation_time!r}: the stationary std "
            "sigma*sqrt(tau/2) overflows"
        )
    return out


def wt901c(
    *,
    gyro_noise_stddev: float = 0.00175,
    gyro_gauss_markov_stddev: float = 0.0003,
    accel_noise_stddev: float = 0.020,
    accel_gauss_markov_stddev: float = 0.010,
    accel_gauss_markov_correlation_time: float = 300.0,
    **deprecated: float,
) -> tuple[TriadNoise, TriadNoise]:
    """(gyro, accel) parameters of the WitMotion WT901C (MPU-9250 inside).

    From the ROS 2 sensor pipeline document: gyro Gauss-Markov bias with tau = 400 s; G-sensitivity
    0.00175/9.81 (rad/s)/(m/s^2); 16-bit ADCs over +/-2000 deg/s and +/-16 g (g = 9.81),
    so lsb = 2*2000*pi/180/65536 rad/s and 2*16*9.81/65536 m/s^2.
    The noise levels are not in that document: the defaults are the per-sample figures of the
    public WT901C noise nodes behind it (at 100 Hz): white 0.00175 rad/s and 0.020 m/s^2,
    Gauss-Markov sigma_b 0.0003 rad/s and 0.010 m/s^2 (accel tau 300 s). Override them
    with your own Allan-variance figures.
    """
    if deprecated:  # the 0.2 keywords (gyro_bias_stddev, ...)
        renamed = {
            f"{t}_{o}": f"{t}_{n}" for t in ("gyro", "accel") for o, n in RENAMED_FIELDS.items()
        }
        values = {
            "gyro_gauss_markov_stddev": gyro_gauss_markov_stddev,
            "accel_gauss_markov_stddev": accel_gauss_markov_stddev,
            "accel_gauss_markov_correlation_time": accel_gauss_markov_correlation_time,
        }
        defaults = {
            "gyro_gauss_markov_stddev": 0.0003,
            "accel_gauss_markov_stddev": 0.010,
            "accel_gauss_markov_correlation_time": 300.0,
        }
        for old in deprecated:  # everything refused before anything warns
            new = renamed.get(old)
            if new not in values:
                raise TypeError(f"wt901c() got an unexpected keyword argument {old!r}")
            if values[new] != defaults[new]:
                raise TypeError(
                    f"wt901c got both {old!r} (deprecated) and {new!r}: give {new!r} only"
                )
        values.update(renamed_keys("wt901c", deprecated, renamed))
        gyro_gauss_markov_stddev = values["gyro_gauss_markov_stddev"]
        accel_gauss_markov_stddev = values["accel_gauss_markov_stddev"]
        accel_gauss_markov_correlation_time = values["accel_gauss_markov_correlation_time"]
    g = STANDARD_GRAVITY_WT901C
    gyro = TriadNoise(
        noise_stddev=gyro_noise_stddev,
        gauss_markov_stddev=gyro_gauss_markov_stddev,
        gauss_markov_correlation_time=400.0,
        g_sensitivity=0.00175 / g,
        full_scale=2000.0 * math.pi / 180.0,
        bits=16,
    )
    accel = TriadNoise(
        noise_stddev=accel_noise_stddev,
        gauss_markov_stddev=accel_gauss_markov_stddev,
        gauss_markov_correlation_time=accel_gauss_markov_correlation_time,
        full_scale=16.0 * g,
        bits=16,
    )
    return gyro, accel
