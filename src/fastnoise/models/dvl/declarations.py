"""What the DVL models declare (:mod:`fastnoise.core.spec`): ``augmented_white_noise``
(:class:`AugmentedWhiteNoise`, one sensor) and ``dvl_simulator`` (:class:`DvlSimulator`,
the sensor table and the composite velocity)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core.spec import Declaration, Param
from fastnoise.models.dvl.config import SENSOR_NAMES, VALUE_MAX
from fastnoise.models.dvl.dtypes import TRUTH_DTYPE

#: Why the two DVL models may use one key tag: each sensor of a DvlSimulator keys with
#: child i of the simulator's seed (table order), so it never shares a key with an
#: AugmentedWhiteNoise made from that seed itself.
_DVL_TAG_REASON = (
    "sensor i of a DvlSimulator keys with child i of the simulator's seed, an "
    "AugmentedWhiteNoise with its own seed: the keys differ"
)


# Units of one sensor's values: deg, m/s, m or rev/min, as the sensor measures.
_UNIT = "the sensor's"

#: One DVL sensor's noise parameters (an AugmentedWhiteNoise's, and each entry of a
#: DvlSimulator's ``sensors``).
SENSOR_NOISE_PARAMS = (
    Param(
        "bias",
        "real",
        "added to every value that is not anchored",
        unit=_UNIT,
        default=0.0,
        low=-VALUE_MAX,
        high=VALUE_MAX,
        keyword_only=False,
        rule="with a sensor: in the table's reasonable range (else a warning, or an "
        "error when strict)",
    ),
    Param(
        "noise_stddev",
        "real",
        "standard deviation of the white noise",
        unit=_UNIT,
        default=0.0,
        low=0.0,
        high=VALUE_MAX,
        keyword_only=False,
        rule="with a sensor: in the table's reasonable range (else a warning, or an "
        "error when strict)",
    ),
    Param(
        "anchor",
        "real",
        "the value sent instead of the measurement when the anchor event occurs",
        unit=_UNIT,
        default=0.0,
        low=-VALUE_MAX,
        high=VALUE_MAX,
        keyword_only=False,
    ),
    Param(
        "anchor_probability",
        "real",
        "probability of the anchor event per sample",
        default=0.0,
        low=0.0,
        high=1.0,
        keyword_only=False,
    ),
)
_STRICT = Param(
    "strict",
    "bool",
    "a value outside the sensor table's reasonable range raises instead of warning",
    default=False,
    alters_bits=False,
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
    params=(
        *SENSOR_NOISE_PARAMS,
        Param(
            "sensor",
            "choice",
            "a name of the sensor table: enables the reasonable-range check of bias and "
            "noise_stddev",
            default=None,
            choices=(*SENSOR_NAMES, None),
            alters_bits=False,
        ),
        _STRICT,
    ),
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
    params=(
        Param(
            "sensors",
            "mapping",
            "sensor name -> its noise parameters (a DvlSensorNoise or a dict); sensors and "
            "keys left out are 0 (a perfect sensor)",
            default=None,
            keyword_only=False,
            fields=SENSOR_NOISE_PARAMS,
        ),
        _STRICT,
    ),
    example=_dvl_example,
    exercise=_dvl_exercise,
)
