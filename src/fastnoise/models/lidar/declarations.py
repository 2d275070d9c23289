"""What the lidar models declare (:mod:`fastnoise.core.spec`): ``lidar``
(:class:`LidarNoise`), ``range`` (:class:`RangeNoise`) and ``carla_lidar``
(:class:`CarlaLidarNoise`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from fastnoise.core.spec import Declaration, Param

_PTS = np.random.default_rng(0).uniform(-20, 20, (257, 3))


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
    messages={"sensor_msgs/LaserScan": "scan"},
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
