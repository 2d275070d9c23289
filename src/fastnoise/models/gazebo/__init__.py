"""gz-sensors' Gaussian noise model (:class:`GazeboNoise`) and the Gazebo sensors built
on it: magnetometer, altimeter, air pressure and speed, NavSat, force-torque."""

from fastnoise.models.gazebo.navsat import NavSatNoise
from fastnoise.models.gazebo.noise import GazeboNoise
from fastnoise.models.gazebo.pressure import AirPressureNoise, AirSpeedNoise
from fastnoise.models.gazebo.sensors import AltimeterNoise, ForceTorqueNoise, MagnetometerNoise

__all__ = [
    "AirPressureNoise",
    "AirSpeedNoise",
    "AltimeterNoise",
    "ForceTorqueNoise",
    "GazeboNoise",
    "MagnetometerNoise",
    "NavSatNoise",
]
