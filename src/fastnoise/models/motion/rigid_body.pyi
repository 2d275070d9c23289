from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from typing_extensions import disjoint_base

from fastnoise.core.model import Model

INERTIA_MAX: float
OMEGA_MAX: float

@disjoint_base
class RigidBodySimulator(Model):
    def __init__(
        self,
        inertia: ArrayLike,
        omega: ArrayLike | None = ...,
        roll: float = ...,
        pitch: float = ...,
        yaw: float = ...,
        kinematics: Literal["axis", "zyx"] = ...,
    ) -> None: ...
    def update(self, dt: float, torque: ArrayLike) -> None: ...
    def reset(self) -> None: ...
    def check_numerics(self) -> bool: ...
    @property
    def omega(self) -> NDArray[np.float64]: ...
    @property
    def roll(self) -> float: ...
    @property
    def pitch(self) -> float: ...
    @property
    def yaw(self) -> float: ...
    @property
    def inertia(self) -> NDArray[np.float64]: ...
    @property
    def kinematics(self) -> Literal["axis", "zyx"]: ...
    @property
    def angular_momentum(self) -> NDArray[np.float64]: ...
    @property
    def kinetic_energy(self) -> float: ...
