"""Type stubs for fastnoise.models.camera.depth (Gazebo's depth-camera noise, metres)."""

from typing import ClassVar, Never, TypeVar

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import _FrameCounter

_Depth = TypeVar("_Depth", npt.NDArray[np.float32], npt.NDArray[np.float64])

CLIP_TOLERANCE: float  # m
GAZEBO_UNIFORM_FLOOR: float  # gz-rendering's uniform floor, 0.001

def radius_cap(uniform_floor: float | None) -> float: ...

@disjoint_base
class DepthNoise(_FrameCounter):
    """Gaussian noise on depth images, in metres; NaN and +-inf kept, no clamp."""

    model_name: ClassVar[str]
    @property
    def mean(self) -> float: ...  # m
    @property
    def stddev(self) -> float: ...  # m
    @property
    def near(self) -> float | None: ...  # m
    @property
    def far(self) -> float | None: ...  # m
    @property
    def uniform_floor(self) -> float | None: ...
    def __init__(
        self,
        mean: float = 0.0,
        stddev: float = 0.0,
        *,
        seed: int | np.random.SeedSequence | None = None,
        near: float | None = None,
        far: float | None = None,
        uniform_floor: float | None = None,
    ) -> None: ...
    def reset(self) -> None: ...
    def apply(
        self,
        depth: _Depth,
        *args: Never,
        frame: int | None = None,
        out: _Depth | None = None,
        threads: int = 1,
    ) -> _Depth: ...
