"""Lidar and range noise: RGL's ray- and hitpoint-based angular and distance noise
(:class:`LidarNoise`), Gazebo's range noise (:class:`RangeNoise`) and CARLA's drop-off
and range noise (:class:`CarlaLidarNoise`)."""

from fastnoise.models.lidar.carla import CarlaLidarNoise, CarlaPoints
from fastnoise.models.lidar.lidar_noise import HITPOINT_BASED, RAY_BASED, LidarNoise
from fastnoise.models.lidar.range_noise import RangeNoise

__all__ = [
    "HITPOINT_BASED",
    "RAY_BASED",
    "CarlaLidarNoise",
    "CarlaPoints",
    "LidarNoise",
    "RangeNoise",
]
