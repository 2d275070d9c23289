"""The result types of ``normal`` and ``standard_normal`` by dtype, as a type checker
sees them (checked by mypy --strict in CI step 35-typing; run as a script, the same
calls are checked at run time). Each ``assert_type`` states what a user's code gets."""

from typing import assert_type

import numpy as np
import numpy.typing as npt

from fastnoise import GaussianNoiseGenerator

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]


def check(g: GaussianNoiseGenerator, runtime_dtype: npt.DTypeLike) -> None:
    # one value
    assert_type(g.normal(), float)
    assert_type(g.normal(1.0, 2.0), float)
    assert_type(g.normal(dtype=np.float64), float)
    assert_type(g.normal(dtype=np.float32), np.float32)
    assert_type(g.normal(0.5, dtype="float32"), np.float32)
    assert_type(g.normal(dtype=np.dtype(np.float32)), np.float32)
    assert_type(g.standard_normal(), float)
    assert_type(g.standard_normal(dtype=np.float32), np.float32)
    # arrays
    assert_type(g.normal(size=3), F64)
    assert_type(g.normal(size=(2, 3), dtype=np.float32), F32)
    assert_type(g.normal(0.0, 1.0, 4, dtype="f4"), F32)
    assert_type(g.normal(np.zeros(3)), F64)
    assert_type(g.normal(np.zeros(3), dtype=np.float32), F32)
    assert_type(g.standard_normal(5), F64)
    assert_type(g.standard_normal((2, 2), dtype=np.float32), F32)
    # out sets the type
    out32 = np.empty(4, dtype=np.float32)
    out64 = np.empty(4, dtype=np.float64)
    assert_type(g.normal(out=out32), F32)
    assert_type(g.normal(out=out64), F64)
    assert_type(g.standard_normal(out=out32), F32)
    assert_type(g.standard_normal(4, out=out64, threads=2), F64)
    # a dtype known only at run time: the general overload
    assert_type(g.standard_normal(4, dtype=runtime_dtype), float | np.float32 | F32 | F64)


def run() -> None:
    g = GaussianNoiseGenerator(1)
    check(g, np.float32)
    # the run-time types agree with the declared ones
    assert type(g.normal()) is float
    assert type(g.normal(dtype=np.float32)) is np.float32
    assert g.normal(size=(2, 3), dtype=np.float32).dtype == np.float32
    assert g.standard_normal(5).dtype == np.float64
    assert g.normal(np.zeros(3), dtype="f4").dtype == np.float32


if __name__ == "__main__":
    run()
