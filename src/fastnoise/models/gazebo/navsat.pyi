"""Type stubs for fastnoise.models.gazebo.navsat (gz-sensors NavSat noise)."""

from typing import ClassVar

import numpy.typing as npt

from fastnoise.models.gazebo.noise import _Noise, _Seed
from fastnoise.models.gazebo.sensors import _GazeboSensor

class NavSatNoise(_GazeboSensor):
    model_name: ClassVar[str]
    @property
    def horizontal_units(self) -> str: ...
    def __init__(
        self,
        horizontal_position: _Noise = None,
        vertical_position: _Noise = None,
        horizontal_velocity: _Noise = None,
        vertical_velocity: _Noise = None,
        *,
        horizontal_units: str = "degrees",
        seed: _Seed = None,
        num_envs: int | None = None,
        env: int | None = None,
    ) -> None: ...
    def apply_one(
        self,
        latitude: npt.ArrayLike,
        longitude: npt.ArrayLike,
        altitude: npt.ArrayLike,
        velocity_east: npt.ArrayLike = 0.0,
        velocity_north: npt.ArrayLike = 0.0,
        velocity_up: npt.ArrayLike = 0.0,
        dt: npt.ArrayLike = 0.0,
    ) -> tuple[float, float, float, float, float, float]: ...  # deg, deg, m, m/s x3
