"""fastnoise for MuJoCo: :class:`SensorNoise` noises a model's ``sensordata`` (the MJCF
``noise`` attribute, which MuJoCo no longer applies, and richer per-sensor models), for
one environment or a batch, one C call per step. Needs the ``sim`` extra
(``pip install fastnoise[sim]``) only to build a model; docs/mujoco.rst lists what
each sensor type gets."""

from fastnoise.mujoco.sensor_noise import SENSOR_KINDS, SensorNoise

__all__ = ["SENSOR_KINDS", "SensorNoise"]
