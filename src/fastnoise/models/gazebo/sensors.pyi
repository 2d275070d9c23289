"""Type stubs for fastnoise.models.gazebo.sensors (gz-sensors magnetometer, altimeter and
force-torque noise)."""

from typing import Any, ClassVar, Never

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import Model
from fastnoise.models.gazebo.noise import _Noise, _Seed

_F6 = tuple[float, float, float, float, float, float]

def batch_values(declaration: Any, values: dict[str, Any], num_envs: int) -> dict[str, Any]: ...

# Typed as one model's: a batch (num_envs=N) takes each reading argument of apply_one
# as (N,) and returns (N,) arrays, and bias() is (N,) (docs/batching.rst).
@disjoint_base
class _GazeboSensor(Model):
    n_columns: ClassVar[int]
    def bias(self, component: str) -> float: ...
    def reset(self, env_ids: npt.ArrayLike | None = None) -> None: ...
    def apply(
        self,
        data: npt.ArrayLike,
        dt: npt.ArrayLike = 0.0,
        *args: Never,
        out: np.ndarray | None = None,
    ) -> np.ndarray: ...

class MagnetometerNoise(_GazeboSensor):
    model_name: ClassVar[str]
    def __init__(
        self,
        x: _Noise = None,
        y: _Noise = None,
        z: _Noise = None,
        *,
        seed: _Seed = None,
        num_envs: int | None = None,
        env: int | None = None,
    ) -> None: ...
    def apply_one(
        self, x: npt.ArrayLike, y: npt.ArrayLike, z: npt.ArrayLike, dt: npt.ArrayLike = 0.0
    ) -> tuple[float, float, float]: ...  # T

class AltimeterNoise(_GazeboSensor):
    model_name: ClassVar[str]
    def __init__(
        self,
        vertical_position: _Noise = None,
        vertical_velocity: _Noise = None,
        *,
        seed: _Seed = None,
        num_envs: int | None = None,
        env: int | None = None,
    ) -> None: ...
    def apply_one(
        self,
        vertical_position: npt.ArrayLike,
        vertical_velocity: npt.ArrayLike,
        dt: npt.ArrayLike = 0.0,
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
        num_envs: int | None = None,
        env: int | None = None,
    ) -> None: ...
    def apply_one(
        self,
        force_x: npt.ArrayLike,
        force_y: npt.ArrayLike,
        force_z: npt.ArrayLike,
        torque_x: npt.ArrayLike,
        torque_y: npt.ArrayLike,
        torque_z: npt.ArrayLike,
        dt: npt.ArrayLike = 0.0,
    ) -> _F6: ...  # N, N m
