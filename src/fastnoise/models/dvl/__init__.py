"""The Metron DVL simulator: augmented white noise per sensor, the composite velocity,
and the sensor table and JSON configuration."""

from fastnoise.models.dvl.config import (
    DvlConfig,
    DvlRangeWarning,
    DvlSensorNoise,
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
    "DvlSensorNoise",
    "load_config",
    "save_config",
]


def __getattr__(name: str) -> object:
    # 0.2's name of DvlSensorNoise (the generic name is left to the adapters)
    if name == "SensorNoise":
        import warnings

        warnings.warn(
            "fastnoise.SensorNoise is deprecated: use fastnoise.DvlSensorNoise",
            DeprecationWarning,
            stacklevel=2,
        )
        return DvlSensorNoise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
