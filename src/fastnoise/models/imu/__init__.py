"""IMU noise: per-axis white noise, biases, random walk, scale, misalignment,
G-sensitivity, saturation and quantization (:class:`ImuNoise`, :class:`TriadNoise`);
Kalibr / allan_variance_ros / OpenVINS files (:mod:`.formats`), datasheet figures
(:mod:`.datasheet`) and a catalogue of real IMUs (:func:`presets`, :mod:`.catalogue`)."""

from fastnoise.models.imu.catalogue import presets
from fastnoise.models.imu.formats import FormatLossWarning
from fastnoise.models.imu.imu_noise import ImuNoise
from fastnoise.models.imu.samples import ImuSamples
from fastnoise.models.imu.triad import (
    COVARIANCE_CONVENTIONS,
    STANDARD_GRAVITY_WT901C,
    TriadNoise,
    gauss_markov_stddev_from_gazebo,
    odometry_covariances,
    triad_covariance,
    wt901c,
)

__all__ = [
    "COVARIANCE_CONVENTIONS",
    "STANDARD_GRAVITY_WT901C",
    "FormatLossWarning",
    "ImuNoise",
    "ImuSamples",
    "TriadNoise",
    "gauss_markov_stddev_from_gazebo",
    "odometry_covariances",
    "presets",
    "triad_covariance",
    "wt901c",
]
