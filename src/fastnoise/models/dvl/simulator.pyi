"""Type stubs for fastnoise.models.dvl.simulator (DVL sensor suite of the Metron DVL simulator
document). Units: angles deg, depth and altitude m, velocities m/s, propeller speed rev/min."""

from collections.abc import Iterator, Mapping, Sequence
from os import PathLike
from typing import IO, Any, ClassVar, Never

import numpy as np
import numpy.typing as npt
from typing_extensions import deprecated, disjoint_base

from fastnoise.core.model import Model
from fastnoise.models.dvl.config import DvlConfig, DvlSensorNoise

__all__ = ["TRUTH_DTYPE", "MESSAGE_DTYPE", "AugmentedWhiteNoise", "DvlMeasurement", "DvlSimulator"]

TRUTH_DTYPE: np.dtype[np.void]
MESSAGE_DTYPE: np.dtype[np.void]

_Seed = int | np.random.SeedSequence | None

@disjoint_base
class AugmentedWhiteNoise(Model):
    def __init__(
        self,
        bias: float = 0.0,
        noise_stddev: float = 0.0,
        anchor: float = 0.0,
        anchor_probability: float = 0.0,
        *,
        seed: _Seed = None,
        sensor: str | None = None,
        strict: bool = False,
    ) -> None: ...
    bias: float
    noise_stddev: float
    @property
    @deprecated("use noise_stddev")
    def noise_dev(self) -> float: ...
    @noise_dev.setter
    @deprecated("use noise_stddev")
    def noise_dev(self, value: float) -> None: ...
    anchor: float
    anchor_probability: float
    position: int
    @property
    def sensor(self) -> str | None: ...
    @property
    def strict(self) -> bool: ...
    def measure(self, truth: float) -> float: ...
    def measure_many(
        self, truth: npt.ArrayLike, *args: Never, out: npt.NDArray[np.float64] | None = None
    ) -> npt.NDArray[np.float64]: ...
    def reset(self) -> None: ...

@disjoint_base
class DvlMeasurement:
    fields: ClassVar[tuple[str, ...]]
    def __init__(self, *values: float) -> None: ...
    @property
    def roll(self) -> float: ...
    @property
    def pitch(self) -> float: ...
    @property
    def yaw(self) -> float: ...
    @property
    def surge(self) -> float: ...
    @property
    def sway(self) -> float: ...
    @property
    def heave(self) -> float: ...
    @property
    def depth(self) -> float: ...
    @property
    def altitude(self) -> float: ...
    @property
    def water_speed(self) -> float: ...
    @property
    def rpm(self) -> float: ...
    @property
    def vn(self) -> float: ...
    @property
    def ve(self) -> float: ...
    @property
    def vu(self) -> float: ...
    def __getitem__(self, name: str, /) -> float: ...
    def as_dict(self) -> dict[str, float]: ...
    def __iter__(self) -> Iterator[float]: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

_Truth = Mapping[str, float] | Sequence[float] | npt.NDArray[np.float64] | np.void
_SensorParams = DvlSensorNoise | Mapping[str, float]

@disjoint_base
class DvlSimulator(Model):
    def __init__(
        self,
        sensors: Mapping[str, _SensorParams] | None = None,
        *,
        seed: _Seed = None,
        strict: bool = False,
    ) -> None: ...
    @classmethod
    def from_config(
        cls,
        config: DvlConfig | str | PathLike[str] | IO[str] | Mapping[str, Any],
        *,
        seed: _Seed = ...,
        strict: bool = False,
    ) -> DvlSimulator: ...
    def to_config(self) -> DvlConfig: ...
    @property
    def sensors(self) -> dict[str, AugmentedWhiteNoise]: ...
    def __getitem__(self, name: str, /) -> AugmentedWhiteNoise: ...
    @property
    def strict(self) -> bool: ...
    def measure(self, truth: _Truth) -> DvlMeasurement: ...
    def measure_many(
        self,
        truth: npt.NDArray[np.void] | Mapping[str, npt.ArrayLike],
        *args: Never,
        out: npt.NDArray[np.void] | None = None,
        threads: int = 1,
    ) -> npt.NDArray[np.void]: ...
    def reset(self) -> None: ...
