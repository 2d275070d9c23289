"""What the core's one model declares (:mod:`fastnoise.core.spec`): ``generator``
(:class:`~fastnoise.core.generator.GaussianNoiseGenerator`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core.spec import ENV_PARAMS, Declaration, Param


def _generator_exercise(g: Any) -> np.ndarray:
    return np.concatenate([[g.generate()], g.normal(size=37, dtype=np.float32)])


GENERATOR = Declaration(
    name="generator",
    summary="the canonical stream of standard normals (Philox4x32-10 + Box-Muller); its "
    "key is the seed's own, streams are chosen by the caller",
    params=(
        Param(
            "stream",
            "int",
            "stream id: generators with one seed and different streams are independent",
            default=0,
            low=0,
            high=2**64,
            high_open=True,
            keyword_only=False,
        ),
        *ENV_PARAMS,
    ),
    example=lambda cls: cls(seed=3, stream=5),
    exercise=_generator_exercise,
)
