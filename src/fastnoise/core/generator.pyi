"""Type stub for the compiled module fastnoise.core.generator (generator.pyx)."""

from typing import Literal, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from fastnoise.core.model import Model

_FloatArray = npt.NDArray[np.float64] | npt.NDArray[np.float32]
_Size = int | tuple[int, ...] | None
_Seed = int | np.random.SeedSequence | None
# the spellings of float32 and float64 that ``dtype=`` takes (numpy's names for them)
_DType32 = (
    type[np.float32] | np.dtype[np.float32] | Literal["float32", "f4", "<f4", "=f4", "single"]
)
_DType64 = (
    type[np.float64]
    | type[float]
    | np.dtype[np.float64]
    | Literal["float64", "f8", "<f8", "=f8", "double", "float", "d"]
)

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
    # Overloads by dtype: float32 (as a type, a dtype or its name) gives np.float32 or
    # float32 arrays; None (the default) or float64 gives float or float64 arrays; an
    # ``out`` array sets the result's type. A dtype known only at run time gets the
    # last, general overload. mypy's overlap check counts a class deriving from both
    # float64 and float32 (impossible) as a possible match of two overloads, hence the
    # ignores (numpy's own stubs do the same).
    @overload
    def normal(  # type: ignore[overload-overlap]
        self,
        loc: float = 0.0,
        scale: float = 1.0,
        size: None = None,
        *,
        dtype: _DType64 | None = None,
        out: None = None,
        threads: int = 1,
    ) -> float: ...
    @overload
    def normal(  # type: ignore[overload-overlap]
        self,
        loc: float = 0.0,
        scale: float = 1.0,
        size: None = None,
        *,
        dtype: _DType32,
        out: None = None,
        threads: int = 1,
    ) -> np.float32: ...
    @overload
    def normal(  # type: ignore[overload-overlap]
        self,
        loc: npt.ArrayLike = 0.0,
        scale: npt.ArrayLike = 1.0,
        size: _Size = None,
        *,
        dtype: _DType64 | None = None,
        out: None = None,
        threads: int = 1,
    ) -> npt.NDArray[np.float64]: ...
    @overload
    def normal(
        self,
        loc: npt.ArrayLike = 0.0,
        scale: npt.ArrayLike = 1.0,
        size: _Size = None,
        *,
        dtype: _DType32,
        out: None = None,
        threads: int = 1,
    ) -> npt.NDArray[np.float32]: ...
    @overload
    def normal(  # type: ignore[overload-overlap]
        self,
        loc: npt.ArrayLike = 0.0,
        scale: npt.ArrayLike = 1.0,
        size: _Size = None,
        *,
        dtype: _DType32 | None = None,
        out: npt.NDArray[np.float32],
        threads: int = 1,
    ) -> npt.NDArray[np.float32]: ...
    @overload
    def normal(
        self,
        loc: npt.ArrayLike = 0.0,
        scale: npt.ArrayLike = 1.0,
        size: _Size = None,
        *,
        dtype: _DType64 | None = None,
        out: npt.NDArray[np.float64],
        threads: int = 1,
    ) -> npt.NDArray[np.float64]: ...
    @overload
    def normal(
        self,
        loc: npt.ArrayLike = 0.0,
        scale: npt.ArrayLike = 1.0,
        size: _Size = None,
        *,
        dtype: npt.DTypeLike | None = None,
        out: _FloatArray | None = None,
        threads: int = 1,
    ) -> float | np.float32 | _FloatArray: ...
    @overload
    def standard_normal(  # type: ignore[overload-overlap]
        self,
        size: None = None,
        *,
        dtype: _DType64 | None = None,
        out: None = None,
        threads: int = 1,
    ) -> float: ...
    @overload
    def standard_normal(
        self,
        size: None = None,
        *,
        dtype: _DType32,
        out: None = None,
        threads: int = 1,
    ) -> np.float32: ...
    @overload
    def standard_normal(  # type: ignore[overload-overlap]
        self,
        size: int | tuple[int, ...],
        *,
        dtype: _DType64 | None = None,
        out: None = None,
        threads: int = 1,
    ) -> npt.NDArray[np.float64]: ...
    @overload
    def standard_normal(
        self,
        size: int | tuple[int, ...],
        *,
        dtype: _DType32,
        out: None = None,
        threads: int = 1,
    ) -> npt.NDArray[np.float32]: ...
    @overload
    def standard_normal(  # type: ignore[overload-overlap]
        self,
        size: _Size = None,
        *,
        dtype: _DType32 | None = None,
        out: npt.NDArray[np.float32],
        threads: int = 1,
    ) -> npt.NDArray[np.float32]: ...
    @overload
    def standard_normal(
        self,
        size: _Size = None,
        *,
        dtype: _DType64 | None = None,
        out: npt.NDArray[np.float64],
        threads: int = 1,
    ) -> npt.NDArray[np.float64]: ...
    @overload
    def standard_normal(
        self,
        size: _Size = None,
        *,
        dtype: npt.DTypeLike | None = None,
        out: _FloatArray | None = None,
        threads: int = 1,
    ) -> float | np.float32 | _FloatArray: ...
    @property
    def stream(self) -> int: ...
    @property
    def position(self) -> int: ...
    def reset(self, env_ids: npt.ArrayLike | None = None) -> None: ...
    def advance(self, n: int) -> None: ...
    def spawn(self, n: int) -> list[GaussianNoiseGenerator]: ...
    def check_numerics(self) -> bool: ...

def generator_at_key(key: int, stream: int, position: int) -> GaussianNoiseGenerator: ...
