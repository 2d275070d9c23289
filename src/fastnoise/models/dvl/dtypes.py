"""Record layouts of the DVL (the Metron DVL simulator document): ground truth in,
messages out, and the names of one sensor's noise parameters. Plain Python: nothing
here is on a hot path."""

from __future__ import annotations

import numpy as np

from fastnoise.models.dvl.config import MESSAGE_FIELDS, TRUTH_FIELDS

#: Structured dtype of ground truth for ``DvlSimulator.measure_many`` (float64 fields).
TRUTH_DTYPE = np.dtype([(f, np.float64) for f in TRUTH_FIELDS])
#: Structured dtype of DVL messages: the measured fields, then vn, ve, vu (float64).
MESSAGE_DTYPE = np.dtype([(f, np.float64) for f in MESSAGE_FIELDS])
#: One sensor's noise parameters, in constructor order.
NOISE_PARAMS = ("bias", "noise_stddev", "anchor", "anchor_probability")
#: Truth fields in the order the C core reads them (csrc/dvl.h).
C_ORDER = (
    "roll", "pitch", "yaw", "surge", "sway", "heave", "depth", "altitude", "water_speed", "rpm",
)  # fmt: skip
if TRUTH_FIELDS != C_ORDER:
    raise ImportError(f"dvl_sensors.json fields {TRUTH_FIELDS} do not match the C order {C_ORDER}")
