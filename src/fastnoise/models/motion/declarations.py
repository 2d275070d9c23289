"""What the motion models declare (:mod:`fastnoise.core.spec`): ``rigid_body``
(:class:`RigidBodySimulator`, no noise) and ``sensor_simulator``
(:class:`SensorSimulator`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core import registry
from fastnoise.core.spec import Declaration


def _body_example(cls: type) -> Any:
    return cls([1.0, 2.0, 3.0], omega=[0.3, -0.2, 0.1])


def _body_exercise(b: Any) -> np.ndarray:
    b.update(0.01, [0.1, 0.0, -0.1])
    return np.array([*b.omega, b.roll, b.pitch, b.yaw])


RIGID_BODY = Declaration(
    name="rigid_body",
    summary="rotation of a rigid body about its principal axes (Euler's equations); "
    "draws no random numbers",
    example=_body_example,
    exercise=_body_exercise,
)


def _sensor_example(cls: type) -> Any:
    body = _body_example(registry.get("rigid_body").cls)
    return cls(body, seed=4, noise_stddev=0.01, drift_rate=1e-3)


def _sensor_exercise(s: Any) -> np.ndarray:
    s.update(0.01)
    return np.concatenate([s.read_angular_velocity(), s.read_orientation()])


SENSOR_SIMULATOR = Declaration(
    name="sensor_simulator",
    summary="the SensorSimulator API document's drifting gyro and attitude readings of a "
    "rigid body",
    tags=("sensor_simulator",),
    example=_sensor_example,
    exercise=_sensor_exercise,
)
