"""fastnoise: fast, reproducible sensor-noise models with a C core.

Every random number is a pure function of (seed, stream, index), so results are the
same across runs, copies, threads, chunkings and SIMD paths.
"""

from fastnoise.core import moved as _moved
from fastnoise.core.buffers import release_spare_memory, spare_memory
from fastnoise.core.deprecation import renamed_attributes
from fastnoise.core.generator import GaussianNoiseGenerator
from fastnoise.core.simd import set_simd_path, simd_path, simd_paths_available
from fastnoise.io.sdf import from_sdf, imu_noise_params_from_sdf, load_sensors
from fastnoise.models.camera import DepthNoise, ImageNoise
from fastnoise.models.dvl import (
    AugmentedWhiteNoise,
    DvlConfig,
    DvlMeasurement,
    DvlRangeWarning,
    DvlSensorNoise,
    DvlSimulator,
    load_config,
    save_config,
)
from fastnoise.models.gazebo import (
    AirPressureNoise,
    AirSpeedNoise,
    AltimeterNoise,
    ForceTorqueNoise,
    GazeboNoise,
    MagnetometerNoise,
    NavSatNoise,
)
from fastnoise.models.imu import (
    ImuNoise,
    TriadNoise,
    gauss_markov_stddev_from_gazebo,
    odometry_covariances,
    triad_covariance,
    wt901c,
)
from fastnoise.models.lidar import (
    HITPOINT_BASED,
    RAY_BASED,
    CarlaLidarNoise,
    LidarNoise,
    RangeNoise,
)
from fastnoise.models.motion import RigidBodySimulator, SensorSimulator

_moved.install()  # 0.2 module paths (old pickles) keep importing, with a warning

__version__ = "0.2.0"

__all__ = [
    "AugmentedWhiteNoise",
    "DvlConfig",
    "DvlMeasurement",
    "DvlRangeWarning",
    "DvlSimulator",
    "GaussianNoiseGenerator",
    "DvlSensorNoise",
    "load_config",
    "save_config",
    "ImageNoise",
    "DepthNoise",
    "GazeboNoise",
    "MagnetometerNoise",
    "AltimeterNoise",
    "AirPressureNoise",
    "AirSpeedNoise",
    "NavSatNoise",
    "ForceTorqueNoise",
    "ImuNoise",
    "LidarNoise",
    "RangeNoise",
    "CarlaLidarNoise",
    "HITPOINT_BASED",
    "RAY_BASED",
    "TriadNoise",
    "from_sdf",
    "gauss_markov_stddev_from_gazebo",
    "imu_noise_params_from_sdf",
    "load_sensors",
    "odometry_covariances",
    "triad_covariance",
    "wt901c",
    "RigidBodySimulator",
    "SensorSimulator",
    "set_simd_path",
    "simd_path",
    "simd_paths_available",
    "release_spare_memory",
    "spare_memory",
]


# 0.2's name of DvlSensorNoise (the generic name is left to the adapters)
__getattr__ = renamed_attributes(
    __name__, {"SensorNoise": ("fastnoise.DvlSensorNoise", DvlSensorNoise)}
)
