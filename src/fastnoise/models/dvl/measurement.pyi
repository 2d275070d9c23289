"""Type stub for the compiled module fastnoise.models.dvl.measurement (measurement.pyx):
the DVL message record. The class is described in simulator.pyi, which re-exports it."""

from fastnoise.models.dvl.simulator import DvlMeasurement as DvlMeasurement

MESSAGE_FIELDS: tuple[str, ...]  # the message's fields, in DvlMeasurement order
TRUTH_FIELDS: tuple[str, ...]  # the truth fields measure_many reads
