"""Rigid-body motion and the drifting gyro and attitude sensor of the SensorSimulator
API document (:class:`RigidBodySimulator`, :class:`SensorSimulator`)."""

from fastnoise.models.motion.rigid_body import RigidBodySimulator
from fastnoise.models.motion.sensor_simulator import SensorSimulator

__all__ = ["RigidBodySimulator", "SensorSimulator"]
