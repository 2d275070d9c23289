"""Type stubs for fastnoise.analysis._allan (the overlapping Allan deviation kernels)."""

import numpy as np
import numpy.typing as npt

def phases(
    y: npt.NDArray[np.float64],
    mean: npt.NDArray[np.float64],
    out: npt.NDArray[np.float64] | None = None,
) -> npt.NDArray[np.float64]: ...
def sums(x: npt.NDArray[np.float64], m: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]: ...
def mdev_sums(x: npt.NDArray[np.float64], m: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]: ...
def hadamard_sums(
    x: npt.NDArray[np.float64], m: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]: ...
