"""Type stub for the compiled module fastnoise.models.dvl.sensor (sensor.pyx): one
augmented white-noise sensor channel. The class is described in simulator.pyi, which
re-exports it."""

import numpy as np

from fastnoise.models.dvl.simulator import AugmentedWhiteNoise as AugmentedWhiteNoise

LAST_POSITION: int  # the largest stream position a channel can reach, 2**64 - 1
RENAMED_NOISE_PARAMS: dict[str, str]  # 0.2 parameter name -> current name
VALUE_MAX: float  # largest magnitude a parameter or measured value may have, 1e300

# helpers the DVL modules share (checks and error messages)
def short_repr(value: object) -> str: ...  # repr cut to 80 characters
def real(name: str, value: object) -> float: ...  # a real number, NaN and inf allowed
def as_array(name: str, value: object) -> np.ndarray: ...
def too_large_error(name: str, value: float) -> ValueError: ...
def no_room_error(who: str, position: int, n: int) -> OverflowError: ...
