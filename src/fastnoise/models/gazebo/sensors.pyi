"""Type stubs for fastnoise.models.gazebo.sensors (gz-sensors magnetometer, altimeter and
force-torque noise)."""

from typing import ClassVar

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import Model
from fastnoise.models.gazebo.noise import _Noise, _Seed

_F6 = tuple[float, float, float, float, float, float]

@disjoint_base
class _GazeboSensor(Model):
    n_columns: ClassVar[int]
    def bias(self, component: str) -> float: ...
    def reset(self) -> None: ...
    def apply(
        self, data: npt.ArrayLike, dt: npt.ArrayLike = 0.0, *, out: np.ndarray | None = None
    ) -> np.ndarray: ...

class MagnetometerNoise(_GazeboSensor):
    model_name: ClassVar[str]
    def __init__(
        self, x: _Noise = None, y: _Noise = None, z: _Noise = None, *, seed: _Seed = None
    ) -> None: ...
    def apply_one(
        self, x: float, y: float, z: float, dt: float = 0.0
    ) -> tuple[float, float, float]: ...  # T

class AltimeterNoise(_GazeboSensor):
    model_name: ClassVar[str]
    def __init__(
        self,
        vertical_position: _Noise = None,
        vertical_velocity: _Noise = None,
        *,
        seed: _Seed = None,
    ) -> None: ...
    def apply_one(
        self, vertical_position: float, vertical_velocity: float, dt: float = 0.0
    ) -> tuple[float, float]: ...  # m, m/s

class ForceTorqueNoise(_GazeboSensor):
    model_name: ClassVar[str]
    def __init__(
        self,
        force_x: _Noise = None,
        force_y: _Noise = None,
        force_z: _Noise = None,
        torque_x: _Noise = None,
        torque_y: _Noise = None,
        torque_z: _Noise = None,
        *,
        seed: _Seed = None,
    ) -> None: ...
    def apply_one(
        self,
        force_x: float,
        force_y: float,
        force_z: float,
        torque_x: float,
        torque_y: float,
        torque_z: float,
        dt: float = 0.0,
    ) -> _F6: ...  # N, N m
