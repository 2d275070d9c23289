"""What the lidar models declare (:mod:`fastnoise.core.spec`): ``lidar``
(:class:`LidarNoise`), ``range`` (:class:`RangeNoise`) and ``carla_lidar``
(:class:`CarlaLidarNoise`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from fastnoise.core.spec import ENV_PARAMS, Declaration, Param, format_number
from fastnoise.models.lidar.carla_points import MAX_NOISE, MAX_RATE
from fastnoise.models.lidar.geometry import RIGID_TOL
from fastnoise.models.lidar.params import MAX_ANGLE, MAX_DISTANCE_NOISE, MAX_RISE

_PTS = np.random.default_rng(0).uniform(-20, 20, (257, 3))


_ANGLE, _DIST, _RISE = MAX_ANGLE, MAX_DISTANCE_NOISE, MAX_RISE


def _real(name: str, doc: str, unit: str, low: float, high: float, **kw: Any) -> Param:
    return Param(name, "real", doc, unit=unit, default=0.0, low=low, high=high, **kw)


#: LidarNoise's parameters (all keyword-only).
LIDAR_PARAMS = (
    _real(
        "ray_angular_noise_mean",
        "mean of the ray-based angular noise (perturb_rays, before the raycast)",
        "rad",
        -_ANGLE,
        _ANGLE,
    ),
    _real("ray_angular_noise_stddev", "its standard deviation", "rad", 0.0, _ANGLE),
    _real(
        "hitpoint_angular_noise_mean",
        "mean of the hitpoint-based angular noise (apply): each hit turns about the axis "
        "through the lidar origin",
        "rad",
        -_ANGLE,
        _ANGLE,
    ),
    _real("hitpoint_angular_noise_stddev", "its standard deviation", "rad", 0.0, _ANGLE),
    _real(
        "distance_noise_mean",
        "mean of the distance noise N(mean, base + rise d)",
        "m",
        -_DIST,
        _DIST,
    ),
    _real("distance_noise_stddev_base", "base of its standard deviation", "m", 0.0, _DIST),
    _real(
        "distance_noise_stddev_rise_per_meter",
        "rise of its standard deviation per metre of distance d",
        "m/m",
        0.0,
        _RISE,
    ),
    Param(
        "axis",
        "vector3",
        "rotation axis of the angular noise in the lidar frame (RGL: the lidar's Y axis)",
        default=(0.0, 1.0, 0.0),
        rule=f"of unit length (within {format_number(RIGID_TOL)})",
    ),
)

# Largest |value| of every RangeNoise parameter, m: the bias, the noise and the clamp
# limits stay far inside float32 (3.4e38), so no sum of them can overflow or give NaN,
# for float32 and float64 scans alike.
_RANGE_MAX = 1e30

#: RangeNoise's parameters.
RANGE_PARAMS = (
    Param(
        "mean",
        "real",
        "mean of the per-beam white noise N(mean, stddev)",
        unit="m",
        low=-_RANGE_MAX,
        high=_RANGE_MAX,
        keyword_only=False,
    ),
    Param(
        "stddev",
        "real",
        "its standard deviation",
        unit="m",
        low=0.0,
        high=_RANGE_MAX,
        keyword_only=False,
    ),
    Param(
        "min_range",
        "real",
        "lower clamp limit",
        unit="m",
        low=0.0,
        high=_RANGE_MAX,
        keyword_only=False,
        rule="< max_range",
    ),
    Param(
        "max_range",
        "real",
        "upper clamp limit (NaN ranges become max_range)",
        unit="m",
        low=-_RANGE_MAX,
        high=_RANGE_MAX,
        keyword_only=False,
        rule="> min_range",
    ),
    _real(
        "bias_mean",
        "mean of the bias N(bias_mean, bias_stddev) drawn once and added to every finite range",
        "m",
        -_RANGE_MAX,
        _RANGE_MAX,
        keyword_only=False,
    ),
    _real(
        "bias_stddev", "standard deviation of the bias", "m", 0.0, _RANGE_MAX, keyword_only=False
    ),
    _real(
        "precision",
        "when > 1e-6: results are rounded to a multiple of it (halves away from zero)",
        "m",
        0.0,
        _RANGE_MAX,
        keyword_only=False,
    ),
    Param(
        "flip_bias_sign",
        "bool",
        "negate the drawn bias with probability 1/2, as Gazebo's GaussianNoiseModel",
        default=True,
    ),
    Param(
        "inf_outside_limits",
        "bool",
        "finite true ranges below min_range become -inf, above max_range +inf, before the "
        "noise (gz-sensors' CPU lidar)",
        default=False,
    ),
    Param(
        "enabled",
        "bool",
        "False: no noise model (Gazebo's lidar without one): ranges pass unchanged, no bias",
        default=True,
    ),
    Param(
        "nan_range",
        "choice",
        "what a NaN true range becomes: None, max_range with a noise model and NaN without; "
        "max: max_range always (gz-sensors' GPU lidar); keep: NaN always (its CPU lidar)",
        default=None,
        choices=("max", "keep", None),
    ),
)

#: CarlaLidarNoise's parameters (CARLA's attribute names and blueprint defaults).
CARLA_PARAMS = (
    Param(
        "atmosphere_attenuation_rate",
        "real",
        "a in the intensity I = exp(-a d)",
        unit="1/m",
        default=0.004,
        low=0.0,
        high=MAX_RATE,
    ),
    Param(
        "dropoff_general_rate",
        "real",
        "probability that a ray is lost (active above FLT_EPSILON, as in CARLA)",
        default=0.45,
        low=0.0,
        high=1.0,
    ),
    Param(
        "dropoff_intensity_limit",
        "real",
        "points with an intensity above it are always kept",
        default=0.8,
        low=0.0,
        low_open=True,
        high=MAX_RATE,
    ),
    Param(
        "dropoff_zero_intensity",
        "real",
        "p0: a point with I <= limit is kept with probability 1 - p0 + (p0 / limit) I",
        default=0.4,
        low=0.0,
        high=1.0,
    ),
    Param(
        "noise_stddev",
        "real",
        "standard deviation of the noise that moves each point along its ray (active "
        "above FLT_EPSILON, as in CARLA)",
        unit="m",
        default=0.0,
        low=0.0,
        high=MAX_NOISE,
    ),
)


def _lidar_example(cls: type) -> Any:
    return cls(
        ray_angular_noise_stddev=0.01,
        hitpoint_angular_noise_stddev=0.002,
        distance_noise_stddev_base=0.02,
        seed=8,
    )


def _lidar_exercise(m: Any) -> np.ndarray:
    return np.asarray(m.apply(_PTS, frame=2).points)


LIDAR = Declaration(
    name="lidar",
    summary="RGL's ray- and hitpoint-based angular noise and range-dependent distance "
    "noise on point clouds",
    tags=("lidar",),
    params=LIDAR_PARAMS,
    messages={"sensor_msgs/PointCloud2": "points"},
    files={"cloud": "points", "npy": "points", "npz": "points"},
    options=(
        Param(
            "pose",
            "pose",
            "the lidar's pose in the cloud's frame (4x4 or 3x4); default: the cloud's "
            "frame is the sensor frame",
            default=None,
        ),
        Param("frames", "bool", "a .npy/.npz holds (N, M, >=3), entry k frame k", default=False),
    ),
    example=_lidar_example,
    exercise=_lidar_exercise,
)


def _range_build(params: Mapping[str, Any], seed: object) -> Any:
    from fastnoise.core import registry

    # a suite may leave the white-noise mean out
    return registry.get("range").cls(**{"mean": 0.0, **params}, seed=seed)


def _range_example(cls: type) -> Any:
    return cls(0.0, 0.01, 0.5, 30.0, bias_mean=0.1, bias_stddev=0.05, seed=9)


def _range_exercise(m: Any) -> np.ndarray:
    return np.asarray(m.apply(np.linspace(0.0, 40.0, 33), frame=1))


RANGE = Declaration(
    name="range",
    summary="Gazebo's Gaussian range noise for scans, with its clamping rules",
    tags=("lidar",),
    shared_tags={
        "lidar": "RangeNoise draws stream 4 f + 3 (LIDAR_RANGE) of the lidar key, which "
        "LidarNoise never draws (its streams are 4 f + 0, 1, 2)"
    },
    params=RANGE_PARAMS + ENV_PARAMS,
    messages={"sensor_msgs/LaserScan": "scan", "sensor_msgs/Range": "range"},
    sdf_types=("lidar", "gpu_lidar"),
    message_params=("min_range", "max_range"),
    build=_range_build,
    example=_range_example,
    exercise=_range_exercise,
)


def _carla_options(options: Mapping[str, Any]) -> None:
    if options.get("frames") and not options.get("keep_layout"):
        raise ValueError(
            "frames = true needs keep_layout = true (each frame keeps a different "
            "number of points, so dropped points must stay as NaN rows)"
        )


def _carla_example(cls: type) -> Any:
    return cls(noise_stddev=0.02, seed=11)


def _carla_exercise(m: Any) -> np.ndarray:
    cloud = np.hstack([_PTS, np.zeros((len(_PTS), 2))])
    return np.asarray(m.apply(cloud, frame=3, drop=False).points)


CARLA_LIDAR = Declaration(
    name="carla_lidar",
    summary="CARLA's lidar: atmospheric intensity, general and intensity drop-off, range "
    "noise along the ray",
    tags=("carla_lidar",),
    params=CARLA_PARAMS,
    messages={"sensor_msgs/PointCloud2": "points_drop"},
    files={"cloud": "points_drop", "npy": "points_drop", "npz": "points_drop"},
    options=(
        Param(
            "keep_layout",
            "bool",
            "dropped points stay in place with x, y, z = NaN instead of being removed",
            default=False,
        ),
        Param(
            "frames",
            "bool",
            "a .npy/.npz holds (N, M, >=4), entry k frame k (needs keep_layout)",
            default=False,
        ),
    ),
    check_options=_carla_options,
    example=_carla_example,
    exercise=_carla_exercise,
)
