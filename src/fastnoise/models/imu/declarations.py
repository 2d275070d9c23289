"""What the IMU models declare (:mod:`fastnoise.core.spec`): ``imu`` (:class:`ImuNoise`)
and ``odometry`` (the ROS 2 sensor pipeline document's covariance table, no noise)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core.registry import register
from fastnoise.core.spec import ENV_PARAMS, Declaration, Param
from fastnoise.models.imu.triad import TriadNoise, odometry_covariances
from fastnoise.models.imu.triad_fields import TRIAD_PARAMS

_W = np.tile([0.1, -0.2, 0.3], (64, 1))
_A = np.tile([0.0, 0.1, 9.81], (64, 1))


def _imu_example(cls: type) -> Any:
    return cls(
        gyro=TriadNoise(
            noise_stddev=0.01, gauss_markov_stddev=0.002, gauss_markov_correlation_time=5.0
        ),
        accel=TriadNoise(noise_density=0.003, random_walk_density=1e-4),
        seed=5,
    )


def _imu_exercise(m: Any) -> np.ndarray:
    return np.concatenate(m.apply(_W, _A, 0.01))


IMU = Declaration(
    name="imu",
    summary="IMU noise per axis: white noise, biases, random walk, scale, misalignment, "
    "G-sensitivity, saturation, quantization",
    tags=("imu",),
    params=(
        Param(
            "gyro",
            "triad",
            "the gyroscope's error terms (TriadNoise, in rad/s units); None: none",
            unit="rad/s",
            default=None,
            keyword_only=False,
            fields=TRIAD_PARAMS,
        ),
        Param(
            "accel",
            "triad",
            "the accelerometer's error terms (TriadNoise, in m/s^2 units); None: none",
            unit="m/s^2",
            default=None,
            keyword_only=False,
            fields=TRIAD_PARAMS,
        ),
        Param(
            "normal_dtype",
            "choice",
            "precision of the unit normal draws (float32: half the cost, float64: "
            "GaussianNoiseGenerator's float64 stream bit for bit); numpy's dtype of that "
            "name is taken too",
            default="float32",
            choices=("float32", "float64"),
            keyword_only=True,
        ),
        *ENV_PARAMS,
    ),
    messages={"sensor_msgs/Imu": "imu"},
    files={"npz": "imu"},
    sdf_types=("imu",),
    options=(
        Param(
            "covariance",
            "choice",
            "what fills an Imu message's covariances: white_and_bias (sigma_white^2 + "
            "sigma_bias^2, the ROS 2 sensor pipeline document), gazebo (sigma_white^2, as "
            "gz-sensors) or keep",
            default="white_and_bias",
            choices=("white_and_bias", "gazebo", "keep"),
        ),
        Param(
            "stamps",
            "choice",
            "where dt comes from: header.stamp, or the bag's log time",
            default="header",
            choices=("header", "log"),
        ),
        Param(
            "rate",
            "real",
            "the IMU's nominal message rate: a topic's first message has dt = 1 / rate "
            "(each later one the difference of its stamp and the previous one's); required "
            "for a topic, unless an SDF sensor's <update_rate> gives it",
            unit="Hz",
            default=None,
            low=0.0,
            low_open=True,
            high=1e9,
        ),
    ),
    example=_imu_example,
    exercise=_imu_exercise,
)


def _odometry_build(params: Any, seed: object) -> Any:
    if params:
        raise ValueError(f"odometry takes no parameters, got {sorted(params)}")
    return odometry_covariances()


ODOMETRY = Declaration(
    name="odometry",
    summary="the ROS 2 sensor pipeline document's nav_msgs/Odometry covariance table "
    "(no noise is added)",
    messages={"nav_msgs/Odometry": "odometry"},
    build=_odometry_build,
)

register(ODOMETRY)  # a model of its own, with no class: declared and registered here
