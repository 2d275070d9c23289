"""``DemoRangeNoise``: Gaussian noise on ranges, clamped at zero, keyed by its own tag.

Written against the public base only, as any third-party model would be: it subclasses
:class:`fastnoise.core.model.Model`, carries a :class:`fastnoise.core.spec.Declaration`,
and draws its normals with :func:`fastnoise.core.generator.fill_normals` under the key
``model_key(seed, "demo_range")``: normal i of stream ``frame`` is the noise of range i.
It is stateless per call (every call names its frame), so its position is empty.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core.generator import fill_normals
from fastnoise.core.model import Model
from fastnoise.core.spec import Declaration, Param


def _example(cls: type) -> Any:
    return cls(stddev=0.05, bias=0.01, seed=2024)


def _exercise(m: Any) -> np.ndarray:
    return m.apply(np.linspace(0.0, 30.0, 31), frame=7)


class DemoRangeNoise(Model):
    """Range noise of a demo plugin: ``max(r + bias + stddev * z, 0)`` per range."""

    model_name = "demo_range"
    declaration = Declaration(
        name="demo_range",
        summary="Gaussian range noise clamped at zero (the demo plugin of the tests)",
        tags=("demo_range",),
        params=(
            Param(
                "stddev", "real", "standard deviation of the noise", unit="m", default=0.01, low=0.0
            ),
            Param("bias", "real", "a constant added to every range", unit="m", default=0.0),
        ),
        files={"npy": "array"},
        example=_example,
        exercise=_exercise,
    )

    def __init__(self, *, stddev: float = 0.01, bias: float = 0.0, seed: object = None):
        v = type(self).declaration.check_params({"stddev": stddev, "bias": bias})
        self.stddev, self.bias = v["stddev"], v["bias"]
        self._set_seed(seed)  # last: the base takes the seed and derives the key

    def apply(self, ranges: Any, *, frame: int = 0, threads: int = 1, out: Any = None) -> Any:
        """The noisy ranges (float64, or float32 for float32 input)."""
        r = np.asarray(ranges)
        dtype = np.float32 if r.dtype == np.float32 else np.float64
        z = np.empty(r.shape, dtype=dtype)
        fill_normals(self.key, frame, 0, z.reshape(-1), self.bias, self.stddev, threads)
        res = np.maximum(r.astype(dtype) + z, 0)
        if out is None:
            return res
        out[...] = res
        return out

    def reset(self) -> None:
        """Nothing moves: every call names its frame."""
