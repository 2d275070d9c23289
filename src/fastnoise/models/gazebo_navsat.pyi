"""Type stubs for fastnoise.models.gazebo_navsat (gz-sensors NavSat noise)."""

from typing import ClassVar

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import Model
from fastnoise.models.gazebo_noise import _Noise, _Seed

@disjoint_base
class NavSatNoise(Model):
    model_name: ClassVar[str]
    n_columns: ClassVar[int]
    @property
    def key(self) -> int: ...
    def bias(self, component: str) -> float: ...
    def reset(self) -> None: ...
    def apply(
        self, data: npt.ArrayLike, dt: npt.ArrayLike = 0.0, out: np.ndarray | None = None
    ) -> np.ndarray: ...
    horizontal_units: str
    def __init__(
        self,
        horizontal_position: _Noise = None,
        vertical_position: _Noise = None,
        horizontal_velocity: _Noise = None,
        vertical_velocity: _Noise = None,
        *,
        horizontal_units: str = "degrees",
        seed: _Seed = None,
    ) -> None: ...
    def apply_one(
        self,
        latitude: float,
        longitude: float,
        altitude: float,
        velocity_east: float = 0.0,
        velocity_north: float = 0.0,
        velocity_up: float = 0.0,
        dt: float = 0.0,
    ) -> tuple[float, float, float, float, float, float]: ...  # deg, deg, m, m/s x3
