"""Gazebo SDFormat files: the noise of every sensor (:func:`load_sensors`) and an
:class:`~fastnoise.ImuNoise` from one ``<imu>`` (:func:`from_sdf`)."""

from fastnoise.io.sdf.imu import from_sdf, imu_noise_params_from_sdf
from fastnoise.io.sdf.load import SdfSensorNoise, SdfSensors, load_sensors, sensor_seed_sequence
from fastnoise.io.sdf.xml import SdfError

__all__ = [
    "SdfError",
    "SdfSensorNoise",
    "SdfSensors",
    "from_sdf",
    "imu_noise_params_from_sdf",
    "load_sensors",
    "sensor_seed_sequence",
]
