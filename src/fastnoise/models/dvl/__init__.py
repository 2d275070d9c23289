"""The Metron DVL simulator: augmented white noise per sensor, the composite velocity,
and the sensor table and JSON configuration."""

from fastnoise.models.dvl.config import (
    DvlConfig,
    DvlRangeWarning,
    SensorNoise,
    load_config,
    save_config,
)
from fastnoise.models.dvl.measurement import DvlMeasurement
from fastnoise.models.dvl.sensor import AugmentedWhiteNoise
from fastnoise.models.dvl.simulator import MESSAGE_DTYPE, TRUTH_DTYPE, DvlSimulator

__all__ = [
    "MESSAGE_DTYPE",
    "TRUTH_DTYPE",
    "AugmentedWhiteNoise",
    "DvlConfig",
    "DvlMeasurement",
    "DvlRangeWarning",
    "DvlSimulator",
    "SensorNoise",
    "load_config",
    "save_config",
]
