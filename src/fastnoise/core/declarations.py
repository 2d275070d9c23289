"""What the core's one model declares (:mod:`fastnoise.core.spec`): ``generator``
(:class:`~fastnoise.core.generator.GaussianNoiseGenerator`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core.spec import Declaration


def _generator_exercise(g: Any) -> np.ndarray:
    return np.concatenate([[g.generate()], g.normal(size=37, dtype=np.float32)])


GENERATOR = Declaration(
    name="generator",
    summary="the canonical stream of standard normals (Philox4x32-10 + Box-Muller); its "
    "key is the seed's own, streams are chosen by the caller",
    example=lambda cls: cls(seed=3, stream=5),
    exercise=_generator_exercise,
)
