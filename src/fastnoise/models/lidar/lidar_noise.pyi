"""Type stubs for fastnoise.models.lidar.lidar_noise (RGL lidar noise; Gazebo range noise is
re-exported from fastnoise.models.lidar.range_noise)."""

from typing import ClassVar, Never

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import _FrameCounter
from fastnoise.models.lidar.geometry import NoisyPoints
from fastnoise.models.lidar.range_noise import RangeNoise as RangeNoise

__all__ = ["HITPOINT_BASED", "RAY_BASED", "LidarNoise", "RangeNoise"]

RAY_BASED: int
HITPOINT_BASED: int

_Seed = int | np.random.SeedSequence | None

@disjoint_base
class LidarNoise(_FrameCounter):
    model_name: ClassVar[str]
    ray_angular_noise_mean: float  # rad
    ray_angular_noise_stddev: float  # rad
    hitpoint_angular_noise_mean: float  # rad
    hitpoint_angular_noise_stddev: float  # rad
    distance_noise_mean: float  # m
    distance_noise_stddev_base: float  # m
    distance_noise_stddev_rise_per_meter: float  # m per m
    def __init__(
        self,
        *,
        ray_angular_noise_mean: float = 0.0,
        ray_angular_noise_stddev: float = 0.0,
        hitpoint_angular_noise_mean: float = 0.0,
        hitpoint_angular_noise_stddev: float = 0.0,
        distance_noise_mean: float = 0.0,
        distance_noise_stddev_base: float = 0.0,
        distance_noise_stddev_rise_per_meter: float = 0.0,
        axis: npt.ArrayLike = (0.0, 1.0, 0.0),
        seed: _Seed = None,
    ) -> None: ...
    @classmethod
    def from_rgl(
        cls,
        angular_noise_type: int,
        angular_noise_stddev: float,
        angular_noise_mean: float,
        distance_noise_stddev_base: float,
        distance_noise_stddev_rise_per_meter: float,
        distance_noise_mean: float,
        *,
        axis: npt.ArrayLike = (0.0, 1.0, 0.0),
        seed: _Seed = None,
    ) -> LidarNoise: ...
    @property
    def axis(self) -> np.ndarray: ...
    def reset(self) -> None: ...
    def perturb_rays(
        self,
        ray_poses: npt.ArrayLike,
        lidar_pose: npt.ArrayLike | None = None,
        frame: int | None = None,
        first_index: int = 0,
        out: np.ndarray | None = None,
    ) -> np.ndarray: ...
    def apply(
        self,
        points: npt.ArrayLike,
        distances: npt.ArrayLike | None = None,
        hit_mask: npt.ArrayLike | None = None,
        *args: Never,
        lidar_pose: npt.ArrayLike | None = None,
        frame: int | None = None,
        first_index: int = 0,
        out: np.ndarray | None = None,
        return_local: bool = False,
        drop_non_hits: bool = False,
        threads: int = 1,
        out_distances: np.ndarray | None = None,
        out_hit_mask: np.ndarray | None = None,
    ) -> NoisyPoints: ...
