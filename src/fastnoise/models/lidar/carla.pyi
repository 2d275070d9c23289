"""Type stubs for fastnoise.models.lidar.carla (CARLA's ray-cast lidar noise)."""

from typing import ClassVar, Never

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import _FrameCounter
from fastnoise.models.lidar.carla_points import CarlaPoints as CarlaPoints

__all__ = ["CarlaLidarNoise", "CarlaPoints"]

_Seed = int | np.random.SeedSequence | None

@disjoint_base
class CarlaLidarNoise(_FrameCounter):
    model_name: ClassVar[str]
    atmosphere_attenuation_rate: float  # 1/m
    dropoff_general_rate: float  # probability
    dropoff_intensity_limit: float
    dropoff_zero_intensity: float  # probability
    noise_stddev: float  # m
    def __init__(
        self,
        *,
        atmosphere_attenuation_rate: float = 0.004,
        dropoff_general_rate: float = 0.45,
        dropoff_intensity_limit: float = 0.8,
        dropoff_zero_intensity: float = 0.4,
        noise_stddev: float = 0.0,
        seed: _Seed = None,
    ) -> None: ...
    def reset(self) -> None: ...
    def apply(
        self,
        points: npt.ArrayLike,
        *args: Never,
        frame: int | None = None,
        first_index: int = 0,
        drop: bool | None = None,
        out: np.ndarray | None = None,
        threads: int = 1,
    ) -> CarlaPoints: ...
