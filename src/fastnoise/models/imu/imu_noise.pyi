import os
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from typing_extensions import disjoint_base

from fastnoise.core.model import Model
from fastnoise.models.imu.samples import ImuSamples
from fastnoise.models.imu.triad import TriadNoise

@disjoint_base
class ImuNoise(Model):
    model_name: ClassVar[str]
    def __init__(
        self,
        gyro: TriadNoise | dict[str, Any] | None = None,
        accel: TriadNoise | dict[str, Any] | None = None,
        *,
        seed: int | np.random.SeedSequence | None = None,
        normal_dtype: str | type | np.dtype[Any] = "float32",
        num_envs: int | None = None,
        env: int | None = None,
        **keywords: Any,
    ) -> None: ...
    def step(
        self,
        omega: ArrayLike,
        accel: ArrayLike,
        dt: float | ArrayLike,
        out_omega: NDArray[np.float64] | None = None,
        out_accel: NDArray[np.float64] | None = None,
        *,
        threads: int | None = None,
    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]: ...
    def apply(
        self,
        omega: ArrayLike,
        accel: ArrayLike,
        dt: float | ArrayLike | None = None,
        *,
        timestamps: ArrayLike | None = None,
        out_omega: NDArray[np.float64] | None = None,
        out_accel: NDArray[np.float64] | None = None,
    ) -> ImuSamples: ...
    # typed as one model's; a batch (num_envs=N) gives a tuple of N TriadNoise for gyro
    # and accel, and (N, ...) arrays for sample_count and the bias states (docs/batching)
    @property
    def gyro(self) -> TriadNoise: ...
    @property
    def accel(self) -> TriadNoise: ...
    @property
    def normal_dtype(self) -> str: ...
    @property
    def sample_count(self) -> int: ...
    @property
    def turn_on_bias(self) -> NDArray[np.float64]: ...
    @property
    def gauss_markov_bias(self) -> NDArray[np.float64]: ...
    @property
    def random_walk_bias(self) -> NDArray[np.float64]: ...
    def angular_velocity_covariance(
        self, dt: float, convention: str = "white_and_bias"
    ) -> NDArray[np.float64]: ...
    def linear_acceleration_covariance(
        self, dt: float, convention: str = "white_and_bias"
    ) -> NDArray[np.float64]: ...
    def reset(self, env_ids: ArrayLike | None = None) -> None: ...
    # files and datasheets (fastnoise.models.imu.formats, .datasheet, .catalogue)
    @classmethod
    def from_kalibr(
        cls,
        source: str | os.PathLike[str] | Mapping[str, object],
        *,
        seed: int | np.random.SeedSequence | None = None,
        normal_dtype: str | type | np.dtype[Any] = "float32",
    ) -> ImuNoise: ...
    def to_kalibr(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        update_rate: float,
        rostopic: str = "/imu0",
    ) -> dict[str, object]: ...
    @classmethod
    def from_allan_variance_ros(
        cls,
        source: str | os.PathLike[str] | Mapping[str, object],
        *,
        seed: int | np.random.SeedSequence | None = None,
        normal_dtype: str | type | np.dtype[Any] = "float32",
    ) -> ImuNoise: ...
    def to_allan_variance_ros(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        update_rate: float,
        rostopic: str = "/imu0",
    ) -> dict[str, object]: ...
    @classmethod
    def from_openvins(
        cls,
        source: str | os.PathLike[str] | Mapping[str, object],
        *,
        seed: int | np.random.SeedSequence | None = None,
        normal_dtype: str | type | np.dtype[Any] = "float32",
    ) -> ImuNoise: ...
    def to_openvins(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        update_rate: float | None = None,
        g_norm: float | None = None,
    ) -> dict[str, object]: ...
    @classmethod
    def from_datasheet(
        cls,
        *,
        seed: int | np.random.SeedSequence | None = None,
        normal_dtype: str | type | np.dtype[Any] = "float32",
        **figures: float | int | None,
    ) -> ImuNoise: ...
    @classmethod
    def preset(
        cls,
        name: str,
        *,
        seed: int | np.random.SeedSequence | None = None,
        normal_dtype: str | type | np.dtype[Any] = "float32",
    ) -> ImuNoise: ...
