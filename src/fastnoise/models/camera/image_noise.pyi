"""Type stubs for fastnoise.models.camera.image_noise (Gazebo's per-pixel camera noise)."""

from typing import Literal, Never, TypeVar

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import _FrameCounter
from fastnoise.models.camera.depth import GAZEBO_UNIFORM_FLOOR as GAZEBO_UNIFORM_FLOOR

_Image = TypeVar(
    "_Image",
    npt.NDArray[np.uint8],
    npt.NDArray[np.uint16],
    npt.NDArray[np.float32],
    npt.NDArray[np.float64],
)

@disjoint_base
class ImageNoise(_FrameCounter):
    """Additive Gaussian amplifier noise; intensities in full-scale units (1.0 = 255
    for uint8, 65535 for uint16, 1.0 for float images)."""

    @property
    def mean(self) -> float: ...
    @property
    def stddev(self) -> float: ...
    @property
    def per_channel(self) -> bool: ...
    @property
    def variant(self) -> Literal["gazebo", "ogre2", "ogre2_rgbd"]: ...
    @property
    def linear_light(self) -> bool: ...
    def __init__(
        self,
        mean: float = 0.0,
        stddev: float = 0.007,
        *,
        per_channel: bool = False,
        variant: Literal["gazebo", "ogre2", "ogre2_rgbd"] = "gazebo",
        seed: int | np.random.SeedSequence | None = None,
        linear_light: bool | None = None,
    ) -> None: ...
    def reset(self) -> None: ...
    def apply(
        self,
        image: _Image,
        *args: Never,
        frame: int | None = None,
        out: _Image | None = None,
        threads: int = 1,
        row_offset: int = 0,
        col_offset: int = 0,
        full_width: int | None = None,
    ) -> _Image: ...
