"""A model that exists only in the tests: proof that one declaration, and nothing else,
puts a model into every surface (suite files, ``fastnoise apply``, the docs' parameter
table, the contract suite). It subclasses the public base as a plugin would.

``ToyNoise(stddev=..., offset=..., seed=...)`` adds ``offset + stddev * z`` to every
element of an array, z being normal i of stream ``frame`` of its key
(``model_key(seed, "toy")``): stateless per call, like RangeNoise.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core.generator import fill_normals
from fastnoise.core.model import Model
from fastnoise.core.spec import Declaration, Param


def _example(cls: type) -> Any:
    return cls(stddev=0.25, offset=0.5, seed=99)


def _exercise(m: Any) -> np.ndarray:
    return m.apply(np.linspace(0.0, 10.0, 21), frame=4)


class ToyNoise(Model):
    """Additive Gaussian noise on any float array (test-only model)."""

    model_name = "toy"
    declaration = Declaration(
        name="toy",
        summary="additive Gaussian noise on any array (a model of the tests)",
        tags=("toy",),
        params=(
            Param(
                "stddev", "real", "standard deviation of the noise", unit="m", default=0.1, low=0.0
            ),
            Param("offset", "real", "a constant added to every value", unit="m", default=0.0),
        ),
        messages={"sensor_msgs/LaserScan": "scan"},
        files={"npy": "array"},
        example=_example,
        exercise=_exercise,
    )

    def __init__(self, *, stddev: float = 0.1, offset: float = 0.0, seed: object = None):
        v = type(self).declaration.check_params({"stddev": stddev, "offset": offset})
        self.stddev, self.offset = v["stddev"], v["offset"]
        self._set_seed(seed)  # last: the base takes the seed and derives the key

    def apply(self, values: Any, *, frame: int = 0, threads: int = 1, out: Any = None) -> Any:
        """``values + offset + stddev * z`` (float64, or float32 for float32 input)."""
        v = np.asarray(values)
        dtype = np.float32 if v.dtype == np.float32 else np.float64
        z = np.empty(v.shape, dtype=dtype)
        fill_normals(self.key, frame, 0, z.reshape(-1), self.offset, self.stddev, threads)
        res = v.astype(dtype) + z
        if out is None:
            return res
        out[...] = res
        return out

    def reset(self) -> None:
        """Nothing moves: every call names its frame."""
