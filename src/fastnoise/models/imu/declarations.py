"""What the IMU models declare (:mod:`fastnoise.core.spec`): ``imu`` (:class:`ImuNoise`)
and ``odometry`` (the ROS 2 sensor pipeline document's covariance table, no noise)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from fastnoise.core.registry import register
from fastnoise.core.spec import Declaration, Param
from fastnoise.models.imu.triad import TriadNoise, odometry_covariances
from fastnoise.models.imu.triad_fields import PARAM_MAX, PARAM_MIN, ROUNDINGS

_W = np.tile([0.1, -0.2, 0.3], (64, 1))
_A = np.tile([0.0, 0.1, 9.81], (64, 1))


# Units of a triad's fields: the gyroscope's first, then the accelerometer's.
_U = "rad/s; m/s^2"


def _triad_vec(name: str, doc: str, unit: str = _U, *, signed: bool = False, **kw: Any) -> Param:
    """A per-axis field of TriadNoise: |value| <= PARAM_MAX, >= 0 unless ``signed``."""
    return Param(
        name,
        "vector3",
        doc,
        unit=unit,
        default=kw.pop("default", 0.0),
        low=kw.pop("low", -PARAM_MAX if signed else 0.0),
        high=kw.pop("high", PARAM_MAX),
        keyword_only=False,
        **kw,
    )


#: The fields of :class:`~fastnoise.models.imu.triad.TriadNoise` (an ImuNoise's
#: ``gyro`` and ``accel``), in its order. Units: gyroscope; accelerometer (each per axis).
TRIAD_PARAMS = (
    _triad_vec("noise_stddev", "per-sample white-noise standard deviation (Gazebo's stddev)"),
    _triad_vec(
        "noise_density",
        "white-noise density N, single-sided: per-sample sigma N/sqrt(dt)",
        "rad/s/sqrt(Hz); m/s^2/sqrt(Hz)",
    ),
    _triad_vec("bias", "constant bias (Gazebo's noise mean)", signed=True),
    _triad_vec(
        "turn_on_bias_mean",
        "Gazebo's turn-on bias: drawn once per axis from N(mean, stddev), negated with "
        "probability 1/2",
        signed=True,
    ),
    _triad_vec("turn_on_bias_stddev", "standard deviation of the turn-on bias"),
    _triad_vec(
        "gauss_markov_stddev",
        "stationary standard deviation of the first-order Gauss-Markov bias",
        rule="0 on an axis whose gauss_markov_correlation_time is 0 or None",
    ),
    _triad_vec(
        "gauss_markov_correlation_time",
        "correlation time tau of the Gauss-Markov bias; 0 on an axis: no Gauss-Markov "
        "term there; None: none on any axis",
        "s",
        default=None,
        high=None,
        rule="not None with gauss_markov_stddev, gauss_markov_steady_state or turn_on_bias_decays",
    ),
    Param(
        "gauss_markov_steady_state",
        "bool",
        "start the Gauss-Markov bias from its stationary distribution instead of 0",
        default=False,
        keyword_only=False,
        rule="not with turn_on_bias_decays",
    ),
    Param(
        "turn_on_bias_decays",
        "bool",
        "Gazebo's dynamic-bias form: the turn-on bias is the Gauss-Markov state's "
        "initial value, so it decays with tau",
        default=False,
        keyword_only=False,
        rule="not with gauss_markov_steady_state",
    ),
    _triad_vec(
        "random_walk_density",
        "bias random walk (rate random walk) density K: the bias moves K sqrt(dt) w per step",
        "rad/s/sqrt(s); m/s^2/sqrt(s)",
    ),
    _triad_vec(
        "scale_factor",
        "scale-factor error per axis (0.001 = 1000 ppm)",
        "",
        low=-1.0,
        low_open=True,
    ),
    Param(
        "misalignment",
        "matrix3",
        "cross-axis coupling",
        default=0.0,
        low=-PARAM_MAX,
        high=PARAM_MAX,
        keyword_only=False,
        rule="zero diagonal (the diagonal is scale_factor)",
    ),
    Param(
        "g_sensitivity",
        "matrix3",
        "gyroscope only: adds g_sensitivity @ accel_true",
        unit="(rad/s)/(m/s^2)",
        default=0.0,
        low=-PARAM_MAX,
        high=PARAM_MAX,
        keyword_only=False,
        rule="0 for the accelerometer",
    ),
    _triad_vec(
        "full_scale",
        "saturation limit: outputs are clipped to [-full_scale, full_scale]; inf: none",
        default=math.inf,
        low=PARAM_MIN,
        also=(math.inf,),
    ),
    Param(
        "bits",
        "int",
        "ADC resolution over [-full_scale, full_scale]: lsb = 2 full_scale / 2**bits",
        default=None,
        low=1,
        high=32,
        keyword_only=False,
        rule="needs a finite full_scale, not with resolution",
    ),
    _triad_vec(
        "resolution",
        "an explicit quantization step (Gazebo's precision); 0 on an axis: none there",
        default=None,
        low=PARAM_MIN,
        also=(0.0,),
        rule="not with bits",
    ),
    Param(
        "rounding",
        "choice",
        "how a resolution step rounds: ties to even, or Gazebo's std::round (halves "
        "away from zero)",
        default="nearest_even",
        choices=ROUNDINGS,
        keyword_only=False,
        rule="'gazebo' not with bits",
    ),
)


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
