"""fastnoise: fast, reproducible sensor-noise models with a C core.

Every random number is a pure function of (seed, stream, index), so results are the
same across runs, copies, threads, chunkings and SIMD paths.

The top level holds the models and the SDF entry points; the rest lives with its
concern: the DVL's configuration and records in :mod:`fastnoise.models.dvl`, the lidar's
noise-kind constants in :mod:`fastnoise.models.lidar`, the IMU's covariances in
:mod:`fastnoise.models.imu`, the SDF parameter reader in :mod:`fastnoise.io.sdf`, the
SIMD path in :mod:`fastnoise.core.simd` and the recycled memory in
:mod:`fastnoise.core.buffers`.
"""

from fastnoise.core import buffers as _buffers
from fastnoise.core import moved as _moved
from fastnoise.core import simd as _simd
from fastnoise.core.deprecation import renamed_attributes
from fastnoise.core.generator import GaussianNoiseGenerator
from fastnoise.io import sdf as _sdf
from fastnoise.io.sdf import from_sdf, load_sensors
from fastnoise.models import dvl as _dvl
from fastnoise.models import imu as _imu
from fastnoise.models import lidar as _lidar
from fastnoise.models.camera import DepthNoise, ImageNoise
from fastnoise.models.dvl import AugmentedWhiteNoise, DvlSensorNoise, DvlSimulator
from fastnoise.models.gazebo import (
    AirPressureNoise,
    AirSpeedNoise,
    AltimeterNoise,
    ForceTorqueNoise,
    GazeboNoise,
    MagnetometerNoise,
    NavSatNoise,
)
from fastnoise.models.imu import ImuNoise, TriadNoise, wt901c
from fastnoise.models.lidar import CarlaLidarNoise, LidarNoise, RangeNoise
from fastnoise.models.motion import RigidBodySimulator, SensorSimulator
from fastnoise.models.simple import (
    AdditiveBiasNoise,
    ConstantNoise,
    GaussianNoise,
    UniformNoise,
)

_moved.install()  # 0.2 module paths (old pickles) keep importing, with a warning

__version__ = "0.3.0"

__all__ = [
    "GaussianNoiseGenerator",
    "SensorSimulator",
    "RigidBodySimulator",
    "ImuNoise",
    "TriadNoise",
    "wt901c",
    "from_sdf",
    "load_sensors",
    "AugmentedWhiteNoise",
    "DvlSimulator",
    "DvlSensorNoise",
    "LidarNoise",
    "RangeNoise",
    "CarlaLidarNoise",
    "ImageNoise",
    "DepthNoise",
    "GazeboNoise",
    "MagnetometerNoise",
    "AltimeterNoise",
    "AirPressureNoise",
    "AirSpeedNoise",
    "NavSatNoise",
    "ForceTorqueNoise",
    "GaussianNoise",
    "UniformNoise",
    "ConstantNoise",
    "AdditiveBiasNoise",
]

#: Names 0.3 moved from the top level to the module of their concern: old name ->
#: (new spelling, object). The top-level spelling warns for one release.
_MOVED_NAMES = {
    name: (f"{module.__name__}.{name}", getattr(module, name))
    for module, names in (
        (_dvl, ("DvlConfig", "DvlMeasurement", "DvlRangeWarning", "load_config", "save_config")),
        (_lidar, ("HITPOINT_BASED", "RAY_BASED")),
        (_imu, ("gauss_markov_stddev_from_gazebo", "odometry_covariances", "triad_covariance")),
        (_sdf, ("imu_noise_params_from_sdf",)),
        (_simd, ("set_simd_path", "simd_path", "simd_paths_available")),
        (_buffers, ("release_spare_memory", "spare_memory")),
    )
    for name in names
}

__getattr__ = renamed_attributes(
    __name__,
    {
        # 0.2's name of DvlSensorNoise (the generic name is left to the adapters)
        "SensorNoise": ("fastnoise.DvlSensorNoise", DvlSensorNoise),
        **_MOVED_NAMES,
    },
)
