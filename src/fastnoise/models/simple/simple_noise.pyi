"""Type stubs for fastnoise.models.simple.simple_noise (Isaac Lab's noise vocabulary)."""

from collections.abc import Mapping
from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import Model

_Seed = int | np.random.SeedSequence | None
_Op = Literal["add", "scale", "abs"]
_EnvIds = npt.ArrayLike | None
# a float, or (with num_envs=N) one per environment, shape (N,)
_Real = float | npt.ArrayLike
_PerEnv = float | np.ndarray

@disjoint_base
class _TermNoise(Model):
    @property
    def step(self) -> np.ndarray: ...
    def apply(self, x: npt.ArrayLike, *, out: np.ndarray | None = None) -> np.ndarray: ...
    def reset(self, env_ids: _EnvIds = None) -> None: ...

@disjoint_base
class GaussianNoise(_TermNoise):
    model_name: ClassVar[str]
    mean: _PerEnv
    stddev: _PerEnv
    operation: str
    def __init__(
        self,
        *,
        mean: _Real = 0.0,
        stddev: _Real = 1.0,
        operation: _Op = "add",
        num_envs: int | None = None,
        env: int | None = None,
        seed: _Seed = None,
    ) -> None: ...

@disjoint_base
class UniformNoise(_TermNoise):
    model_name: ClassVar[str]
    n_min: _PerEnv
    n_max: _PerEnv
    operation: str
    def __init__(
        self,
        *,
        n_min: _Real = -1.0,
        n_max: _Real = 1.0,
        operation: _Op = "add",
        num_envs: int | None = None,
        env: int | None = None,
        seed: _Seed = None,
    ) -> None: ...

@disjoint_base
class ConstantNoise(_TermNoise):
    model_name: ClassVar[str]
    bias: _PerEnv
    operation: str
    def __init__(
        self,
        *,
        bias: _Real = 0.0,
        operation: _Op = "add",
        num_envs: int | None = None,
        env: int | None = None,
        seed: _Seed = None,
    ) -> None: ...

@disjoint_base
class AdditiveBiasNoise(_TermNoise):
    model_name: ClassVar[str]
    noise: dict[str, Any]
    bias_noise: dict[str, Any]
    per_component: bool
    size: int
    def __init__(
        self,
        *,
        noise: Mapping[str, Any] | None = None,
        bias_noise: Mapping[str, Any] | None = None,
        per_component: bool = True,
        size: int = 1,
        num_envs: int | None = None,
        env: int | None = None,
        seed: _Seed = None,
    ) -> None: ...
    @property
    def bias(self) -> np.ndarray: ...
