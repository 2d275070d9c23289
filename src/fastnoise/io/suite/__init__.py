"""The sensor-suite file: which noise model each topic (or file) of a recording gets
(the format: :mod:`fastnoise.io.suite.suite`)."""

from fastnoise.io.suite.entry import RATE_HANDLERS, Entry, output_topic, suite_models
from fastnoise.io.suite.names import (
    name_seed_sequence,
    name_tag,
    normalize_relpath,
    normalize_topic,
)
from fastnoise.io.suite.sdf_sensors import SdfSensor, sdf_sensors, sdf_type_models
from fastnoise.io.suite.suite import Suite, load_suite

__all__ = [
    "RATE_HANDLERS",
    "Entry",
    "SdfSensor",
    "Suite",
    "load_suite",
    "name_seed_sequence",
    "name_tag",
    "normalize_relpath",
    "normalize_topic",
    "output_topic",
    "sdf_sensors",
    "sdf_type_models",
    "suite_models",
]
