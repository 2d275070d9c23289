"""Type stub for the compiled module fastnoise.core.generator (generator.pyx)."""

from typing import overload

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import Model

_FloatArray = npt.NDArray[np.float64] | npt.NDArray[np.float32]
_Size = int | tuple[int, ...] | None
_Seed = int | np.random.SeedSequence | None

def fill_normals(
    key: int,
    stream: int,
    first: int,
    flat: _FloatArray,
    mean: float = 0.0,
    stddev: float = 1.0,
    threads: int = 1,
) -> None: ...

@disjoint_base
class GaussianNoiseGenerator(Model):
    def __init__(
        self,
        seed: _Seed = None,
        stream: int = 0,
        *,
        num_envs: int | None = None,
        env: int | None = None,
    ) -> None: ...
    @property
    def num_envs(self) -> int | None: ...
    @property
    def env(self) -> int | None: ...
    def generate(self, mean: float = 0.0, stddev: float = 1.0) -> float: ...
    @overload
    def normal(
        self,
        loc: float = 0.0,
        scale: float = 1.0,
        size: None = None,
        *,
        dtype: npt.DTypeLike | None = None,
        out: None = None,
        threads: int = 1,
    ) -> float | np.float32: ...
    @overload
    def normal(
        self,
        loc: float | npt.ArrayLike = 0.0,
        scale: float | npt.ArrayLike = 1.0,
        size: int | tuple[int, ...] | None = None,
        *,
        dtype: npt.DTypeLike | None = None,
        out: _FloatArray | None = None,
        threads: int = 1,
    ) -> _FloatArray: ...
    @overload
    def standard_normal(
        self,
        size: None = None,
        *,
        dtype: npt.DTypeLike | None = None,
        out: None = None,
        threads: int = 1,
    ) -> float | np.float32: ...
    @overload
    def standard_normal(
        self,
        size: int | tuple[int, ...] | None = None,
        *,
        dtype: npt.DTypeLike | None = None,
        out: _FloatArray | None = None,
        threads: int = 1,
    ) -> _FloatArray: ...
    @property
    def stream(self) -> int: ...
    @property
    def position(self) -> int: ...
    def reset(self, env_ids: npt.ArrayLike | None = None) -> None: ...
    def advance(self, n: int) -> None: ...
    def spawn(self, n: int) -> list[GaussianNoiseGenerator]: ...
    def check_numerics(self) -> bool: ...

def generator_at_key(key: int, stream: int, position: int) -> GaussianNoiseGenerator: ...
