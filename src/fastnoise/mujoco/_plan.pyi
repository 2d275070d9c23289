"""Type stubs for fastnoise.mujoco._plan (SensorNoise's compiled plan)."""

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

KINDS: dict[str, int]
ROW: np.dtype

@disjoint_base
class Plan:
    steps: np.ndarray
    state: np.ndarray
    nz: int
    nstate: int
    nenv: int
    nsensordata: int
    def __init__(
        self,
        rows: npt.ArrayLike,
        sd: npt.ArrayLike,
        nd: npt.ArrayLike,
        cb: npt.ArrayLike,
        rw: npt.ArrayLike,
        nz: int,
        nstate: int,
        keys: npt.ArrayLike,
        nsensordata: int,
    ) -> None: ...
    def run(self, data: np.ndarray, dt: float) -> np.ndarray: ...
