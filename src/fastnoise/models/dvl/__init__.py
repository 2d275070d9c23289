"""The Metron DVL simulator: augmented white noise per sensor, the composite velocity,
and the sensor table and JSON configuration."""

from fastnoise.core.deprecation import renamed_attributes
from fastnoise.models.dvl.config import (
    DvlConfig,
    DvlRangeWarning,
    DvlSensorNoise,
    load_config,
    save_config,
)
from fastnoise.models.dvl.simulator import (
    MESSAGE_DTYPE,
    TRUTH_DTYPE,
    AugmentedWhiteNoise,
    DvlMeasurement,
    DvlSimulator,
)

__all__ = [
    "MESSAGE_DTYPE",
    "TRUTH_DTYPE",
    "AugmentedWhiteNoise",
    "DvlConfig",
    "DvlMeasurement",
    "DvlRangeWarning",
    "DvlSimulator",
    "DvlSensorNoise",
    "load_config",
    "save_config",
]


# 0.2's name of DvlSensorNoise (the generic name is left to the adapters)
__getattr__ = renamed_attributes(
    __name__, {"SensorNoise": ("fastnoise.DvlSensorNoise", DvlSensorNoise)}
)
