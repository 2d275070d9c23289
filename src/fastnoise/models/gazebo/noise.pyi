"""Type stubs for fastnoise.models.gazebo.noise (gz-sensors' GaussianNoiseModel)."""

from collections.abc import Mapping
from typing import Any, ClassVar, Never

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import Model

_Seed = int | np.random.SeedSequence | None
_Noise = Mapping[str, npt.ArrayLike] | None  # a batch: each value a scalar or (N,)

PARAM_KEYS: tuple[str, ...]
MAX_PARAM: float

def noise_params(name: str, value: _Noise) -> dict[str, float] | None: ...
def dt_array(dt: npt.ArrayLike, n: int) -> tuple[np.ndarray, int]: ...
def env_dt(dt: npt.ArrayLike, n: int, t: int, one: bool) -> tuple[np.ndarray, int, int]: ...

@disjoint_base
class GazeboNoise(Model):
    model_name: ClassVar[str]
    # typed as one model's; a batch (num_envs=N) gives (N,) arrays for the parameters
    # given per environment, ``bias`` and ``count`` (docs/batching.rst)
    @property
    def mean(self) -> float: ...  # unit of the channel
    @property
    def stddev(self) -> float: ...
    @property
    def bias_mean(self) -> float: ...
    @property
    def bias_stddev(self) -> float: ...
    @property
    def dynamic_bias_stddev(self) -> float: ...  # unit / sqrt(s)
    @property
    def dynamic_bias_correlation_time(self) -> float: ...  # s
    @property
    def precision(self) -> float: ...
    def __init__(
        self,
        mean: npt.ArrayLike = 0.0,
        stddev: npt.ArrayLike = 0.0,
        bias_mean: npt.ArrayLike = 0.0,
        bias_stddev: npt.ArrayLike = 0.0,
        dynamic_bias_stddev: npt.ArrayLike = 0.0,
        dynamic_bias_correlation_time: npt.ArrayLike = 0.0,
        precision: npt.ArrayLike = 0.0,
        *,
        seed: _Seed = None,
        num_envs: int | None = None,
        env: int | None = None,
    ) -> None: ...
    @property
    def bias(self) -> float: ...
    @property
    def count(self) -> int: ...
    def reset(self, env_ids: npt.ArrayLike | None = None) -> None: ...
    def apply_one(self, x: Any, dt: npt.ArrayLike = 0.0) -> Any: ...
    def apply(
        self, x: npt.ArrayLike, dt: npt.ArrayLike = 0.0, *args: Never, out: np.ndarray | None = None
    ) -> np.ndarray: ...
