"""Type stubs for fastnoise.models.gazebo.noise (gz-sensors' GaussianNoiseModel)."""

from collections.abc import Mapping
from typing import ClassVar

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import Model

_Seed = int | np.random.SeedSequence | None
_Noise = Mapping[str, float] | None

PARAM_KEYS: tuple[str, ...]
MAX_PARAM: float

def noise_params(name: str, value: _Noise) -> dict[str, float] | None: ...
def dt_array(dt: npt.ArrayLike, n: int) -> tuple[np.ndarray, int]: ...

@disjoint_base
class GazeboNoise(Model):
    model_name: ClassVar[str]
    mean: float  # unit of the channel
    stddev: float
    bias_mean: float
    bias_stddev: float
    dynamic_bias_stddev: float  # unit / sqrt(s)
    dynamic_bias_correlation_time: float  # s
    precision: float
    def __init__(
        self,
        mean: float = 0.0,
        stddev: float = 0.0,
        bias_mean: float = 0.0,
        bias_stddev: float = 0.0,
        dynamic_bias_stddev: float = 0.0,
        dynamic_bias_correlation_time: float = 0.0,
        precision: float = 0.0,
        *,
        seed: _Seed = None,
    ) -> None: ...
    @property
    def bias(self) -> float: ...
    @property
    def count(self) -> int: ...
    def reset(self) -> None: ...
    def apply_one(self, x: float, dt: float = 0.0) -> float: ...
    def apply(
        self, x: npt.ArrayLike, dt: npt.ArrayLike = 0.0, *, out: np.ndarray | None = None
    ) -> np.ndarray: ...
