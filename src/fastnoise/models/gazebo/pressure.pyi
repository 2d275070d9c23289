"""Type stubs for fastnoise.models.gazebo.pressure (gz-sensors air pressure and air speed
noise)."""

from typing import ClassVar

import numpy.typing as npt

from fastnoise.models.gazebo.noise import _Noise, _Seed
from fastnoise.models.gazebo.sensors import _GazeboSensor

class AirPressureNoise(_GazeboSensor):
    model_name: ClassVar[str]
    def __init__(
        self,
        pressure: _Noise = None,
        *,
        seed: _Seed = None,
        num_envs: int | None = None,
        env: int | None = None,
    ) -> None: ...
    def apply_one(self, pressure: npt.ArrayLike, dt: npt.ArrayLike = 0.0) -> float: ...  # Pa
    @property
    def reported_variance(self) -> float: ...

class AirSpeedNoise(_GazeboSensor):
    model_name: ClassVar[str]
    @property
    def pressure_units(self) -> str: ...
    def __init__(
        self,
        pressure: _Noise = None,
        *,
        pressure_units: str = "hectopascals",
        seed: _Seed = None,
        num_envs: int | None = None,
        env: int | None = None,
    ) -> None: ...
    def apply_one(self, pressure: npt.ArrayLike, dt: npt.ArrayLike = 0.0) -> float: ...  # Pa
