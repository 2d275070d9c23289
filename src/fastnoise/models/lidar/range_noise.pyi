"""Type stubs for fastnoise.models.lidar.range_noise (Gazebo range noise)."""

from typing import ClassVar, Literal, Never

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import _FrameCounter

# names the module imports (the stub says so, as stubtest checks every public name)
from fastnoise.models.lidar.geometry import LAST_FRAME as LAST_FRAME
from fastnoise.models.lidar.geometry import MIN_PER_THREAD as MIN_PER_THREAD
from fastnoise.models.lidar.geometry import RESERVED_FRAME as RESERVED_FRAME
from fastnoise.models.lidar.params import GAZEBO_ZERO as GAZEBO_ZERO

_Seed = int | np.random.SeedSequence | None

@disjoint_base
class RangeNoise(_FrameCounter):
    model_name: ClassVar[str]
    mean: float  # m
    stddev: float  # m
    min_range: float  # m
    max_range: float  # m
    bias_mean: float  # m
    bias_stddev: float  # m
    precision: float  # m
    bias: float  # m, drawn once
    flip_bias_sign: bool
    inf_outside_limits: bool
    enabled: bool
    nan_range: Literal["max", "keep"] | None
    # a batch (num_envs=N): the real parameters given per environment and ``bias`` are
    # (N,) float64 arrays, ``frame`` a (N,) uint64 array
    def __init__(
        self,
        mean: float,
        stddev: float,
        min_range: float,
        max_range: float,
        bias_mean: float = 0.0,
        bias_stddev: float = 0.0,
        precision: float = 0.0,
        *,
        flip_bias_sign: bool = True,
        inf_outside_limits: bool = False,
        enabled: bool = True,
        nan_range: Literal["max", "keep"] | None = None,
        seed: _Seed = None,
        num_envs: int | None = None,
        env: int | None = None,
    ) -> None: ...
    @classmethod
    def from_gazebo(
        cls,
        min_range: float,
        max_range: float,
        *,
        noise_type: str = "gaussian",
        mean: float = 0.0,
        stddev: float = 0.0,
        bias_mean: float = 0.0,
        bias_stddev: float = 0.0,
        precision: float = 0.0,
        dynamic_bias_stddev: float = 0.0,
        dynamic_bias_correlation_time: float = 0.0,
        cpu_lidar: bool = False,
        nan_range: Literal["max", "keep"] | None = None,
        seed: _Seed = None,
    ) -> RangeNoise: ...
    def reset(self, env_ids: npt.ArrayLike | None = None) -> None: ...
    def apply_one(self, range_m: float, frame: int | None = None, index: int = 0) -> float: ...
    def apply(
        self,
        ranges: npt.ArrayLike,
        *args: Never,
        frame: int | None = None,
        first_index: int = 0,
        out: np.ndarray | None = None,
        threads: int = 1,
    ) -> np.ndarray: ...
