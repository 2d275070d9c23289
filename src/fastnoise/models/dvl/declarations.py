"""What the DVL models declare (:mod:`fastnoise.core.spec`): ``augmented_white_noise``
(:class:`AugmentedWhiteNoise`, one sensor) and ``dvl_simulator`` (:class:`DvlSimulator`,
the sensor table and the composite velocity)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core.spec import Declaration
from fastnoise.models.dvl.dtypes import TRUTH_DTYPE

#: Why the two DVL models may use one key tag: each sensor of a DvlSimulator keys with
#: child i of the simulator's seed (table order), so it never shares a key with an
#: AugmentedWhiteNoise made from that seed itself.
_DVL_TAG_REASON = (
    "sensor i of a DvlSimulator keys with child i of the simulator's seed, an "
    "AugmentedWhiteNoise with its own seed: the keys differ"
)


def _awn_example(cls: type) -> Any:
    return cls(0.1, 0.5, anchor=-1.0, anchor_probability=0.2, seed=6)


def _awn_exercise(s: Any) -> np.ndarray:
    return np.concatenate([[s.measure(1.0)], s.measure_many(np.linspace(0, 1, 50))])


AUGMENTED_WHITE_NOISE = Declaration(
    name="augmented_white_noise",
    summary="one DVL sensor: bias + white noise, or with a probability a fixed anchor value",
    tags=("dvl",),
    shared_tags={"dvl": _DVL_TAG_REASON},
    example=_awn_example,
    exercise=_awn_exercise,
)


def _truth(n: int) -> np.ndarray:
    t = np.zeros(n, dtype=TRUTH_DTYPE)
    for j, f in enumerate(TRUTH_DTYPE.names or ()):
        t[f] = np.linspace(-1.0, 1.0, n) * (j + 1)
    return t


def _dvl_example(cls: type) -> Any:
    return cls(seed=7)


def _dvl_exercise(d: Any) -> np.ndarray:
    return np.array(d.measure_many(_truth(20)).tolist())


DVL_SIMULATOR = Declaration(
    name="dvl_simulator",
    summary="the Metron DVL simulator: every sensor of the table, and the vN/vE/vU "
    "composite from the measured angles",
    tags=("dvl",),
    shared_tags={"dvl": _DVL_TAG_REASON},
    example=_dvl_example,
    exercise=_dvl_exercise,
)
