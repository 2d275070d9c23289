"""Type stubs for fastnoise.models.gazebo_pressure (gz-sensors air pressure and air speed
noise)."""

from typing import ClassVar

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import Model
from fastnoise.models.gazebo_noise import _Noise, _Seed

@disjoint_base
class AirPressureNoise(Model):
    model_name: ClassVar[str]
    n_columns: ClassVar[int]
    @property
    def key(self) -> int: ...
    def bias(self, component: str) -> float: ...
    def reset(self) -> None: ...
    def apply(
        self, data: npt.ArrayLike, dt: npt.ArrayLike = 0.0, out: np.ndarray | None = None
    ) -> np.ndarray: ...
    def __init__(self, pressure: _Noise = None, *, seed: _Seed = None) -> None: ...
    def apply_one(self, pressure: float, dt: float = 0.0) -> float: ...  # Pa
    @property
    def reported_variance(self) -> float: ...

@disjoint_base
class AirSpeedNoise(Model):
    model_name: ClassVar[str]
    n_columns: ClassVar[int]
    @property
    def key(self) -> int: ...
    def bias(self, component: str) -> float: ...
    def reset(self) -> None: ...
    def apply(
        self, data: npt.ArrayLike, dt: npt.ArrayLike = 0.0, out: np.ndarray | None = None
    ) -> np.ndarray: ...
    pressure_units: str
    def __init__(
        self, pressure: _Noise = None, *, pressure_units: str = "hectopascals", seed: _Seed = None
    ) -> None: ...
    def apply_one(self, pressure: float, dt: float = 0.0) -> float: ...  # Pa
