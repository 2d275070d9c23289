"""Helpers shared by the hypothesis suites (tests/test_fuzz_*.py): arrays of any dtype
filled with given values, in every memory layout the kernels must read by value."""

from __future__ import annotations

import warnings

import numpy as np

LAYOUTS = ["plain", "strided", "reversed", "unaligned", "readonly"]


def fill(arr: np.ndarray, values: list[float]) -> None:
    """Write float values into arr of any dtype (cast; object and str arrays too); a
    value the dtype cannot hold becomes 0."""
    flat = arr.reshape(-1)
    for i, v in enumerate(values[: flat.size]):
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                flat[i] = v if arr.dtype.kind in "fO" else np.array(v).astype(arr.dtype)
        except (ValueError, OverflowError, TypeError):
            flat[i] = 0


def zeros_in_layout(kind: str, n: int, dt: np.dtype, step: int = 2) -> np.ndarray:
    """n zeros of dt laid out as ``kind`` (read-only is left to the caller, which sets
    it after filling)."""
    if kind == "strided":
        return np.zeros(n * step, dt)[::step]
    if kind == "reversed":
        return np.zeros(n, dt)[::-1]
    if kind == "unaligned" and dt.kind not in "OUMm?" and dt.itemsize > 1:
        return np.zeros(n * dt.itemsize + 1, np.uint8)[1:].view(dt)
    return np.zeros(n, dt)
