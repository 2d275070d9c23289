"""The lidar models' parameter limits (their declarations' bounds), the conversion of
``LidarNoise.from_rgl`` (``fastnoise.models.lidar.lidar_noise``) and
``RangeNoise.from_gazebo``'s rule for when gz-sensors makes a noise model
(``fastnoise.models.lidar.range_noise``)."""

from __future__ import annotations

from fastnoise.core import validate as _validate
from fastnoise.models.lidar.geometry import _show

# RGL's angular noise types (rgl_angular_noise_type_t).
RAY_BASED = 0
HITPOINT_BASED = 1
# Largest angular mean or stddev accepted, rad: beyond it the sine leaves the range
# where it is accurate.
MAX_ANGLE = 1.0e3
# Largest |distance_noise_mean| and distance_noise_stddev_base, m, and largest
# distance_noise_stddev_rise_per_meter: with hits at most MAX_RANGE away, the distance
# noise eps stays below 1e9 + 7 (1e9 + 1e3 * 1e9) ~ 7e12 m, so eps / |q| (|q| >= 3.7e-23
# when not 0 in float32) and every result stay finite in float32 and float64.
MAX_DISTANCE_NOISE = 1.0e9
MAX_RISE = 1.0e3


def rgl_kwargs(
    angular_noise_type: object,
    angular_noise_stddev: object,
    angular_noise_mean: object,
    distance_noise_stddev_base: object,
    distance_noise_stddev_rise_per_meter: object,
    distance_noise_mean: object,
) -> dict:
    """``LidarNoise``'s keyword arguments for the parameters of RGL's legacy
    ``rgl_lidar_set_gaussian_noise_params`` (see ``LidarNoise.from_rgl``): the angular
    mean negated, since that API turned by ``Rot_y(-angle)``."""
    ray = _validate.choice("angular_noise_type", angular_noise_type, (RAY_BASED, HITPOINT_BASED))
    kind = "ray" if ray == RAY_BASED else "hitpoint"
    return {
        "distance_noise_mean": distance_noise_mean,
        "distance_noise_stddev_base": distance_noise_stddev_base,
        "distance_noise_stddev_rise_per_meter": distance_noise_stddev_rise_per_meter,
        # the legacy API turned by Rot_y(-angle): the constructor's convention is +angle
        f"{kind}_angular_noise_mean": 0.0
        - _validate.finite("angular_noise_mean", angular_noise_mean),
        f"{kind}_angular_noise_stddev": angular_noise_stddev,
    }


# Gazebo's tolerance for "zero" (gz::math::equal's default epsilon): a noise parameter
# within it of 0 counts as 0, and a precision within it of 0 turns quantization off.
GAZEBO_ZERO = 1e-6
# The noise types sdformat reads (lower-cased), and the one gz-sensors' lidar applies.
GAZEBO_NOISE_TYPES = ("none", "gaussian", "gaussian_quantized", "custom")


def gazebo_noise_enabled(
    noise_type: object,
    mean: float,
    stddev: float,
    bias_mean: float,
    dynamic_bias_stddev: object,
    dynamic_bias_correlation_time: object,
) -> bool:
    """Whether gz-sensors' ``Lidar::Load`` makes a noise model (``src/Lidar.cc``): only
    for type ``gaussian``, and only when mean, stddev, bias_mean or a dynamic-bias
    field differs from 0 by more than 1e-6 (``bias_stddev`` alone gives none)."""
    if not isinstance(noise_type, str):
        raise TypeError(
            f"noise_type={_show(noise_type)} is not allowed: it must be one of "
            f"{GAZEBO_NOISE_TYPES} (a string, any case)"
        )
    kind = _validate.choice("noise_type", noise_type.lower(), GAZEBO_NOISE_TYPES)
    dyn_sd = _validate.finite("dynamic_bias_stddev", dynamic_bias_stddev)
    dyn_tau = _validate.finite("dynamic_bias_correlation_time", dynamic_bias_correlation_time)
    fields = (mean, stddev, bias_mean, dyn_sd, dyn_tau)
    return kind == "gaussian" and any(abs(v) > GAZEBO_ZERO for v in fields)
