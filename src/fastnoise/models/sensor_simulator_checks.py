"""Argument and state checks of :class:`fastnoise.models.sensor_simulator.SensorSimulator`
that are not on the per-read path (plain Python, so they cost no compiled module): the
source given to the constructor and the ``position`` part of the state."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.models.rigid_body import RigidBodySimulator

#: What a source other than a RigidBodySimulator must have (attributes, properties or
#: zero-argument methods).
SOURCE_ATTRS = ("omega", "roll", "pitch", "yaw")
_P = "state['position']"


def check_source(source: object) -> None:
    """Refuse a ``source`` that is None or lacks one of ``SOURCE_ATTRS`` (TypeError)."""
    if source is None:
        raise TypeError(
            "source=None is not allowed: it must be a RigidBodySimulator or an object with "
            "omega, roll, pitch and yaw"
        )
    if isinstance(source, RigidBodySimulator):
        return
    missing = [a for a in SOURCE_ATTRS if not hasattr(source, a)]
    if missing:
        raise TypeError(
            f"source={source!r} is not allowed: it lacks {', '.join(missing)} (a source "
            "needs omega, roll, pitch and yaw)"
        )


def state_vector3(name: str, value: object, vector3: Callable[..., np.ndarray]) -> np.ndarray:
    """A list (or tuple) of 3 floats within +/-VALUE_MAX from a state, checked by
    ``vector3`` (the sensor's own vector check)."""
    if not isinstance(value, list | tuple):
        raise TypeError(f"{name}={value!r} is not allowed: it must be a list of 3 floats")
    return vector3(name, value)


def check_position(position: object, vector3: Callable[..., np.ndarray]) -> tuple:
    """Validate ``SensorSimulator.state['position']``; return (drift_omega,
    drift_angles, generator position), the vectors checked by ``vector3``."""
    p = _validate.fields(_P, position, ("drift_omega", "drift_angles", "generator"))
    w = state_vector3(f"{_P}['drift_omega']", p["drift_omega"], vector3)
    a = state_vector3(f"{_P}['drift_angles']", p["drift_angles"], vector3)
    g = _validate.fields(f"{_P}['generator']", p["generator"], ("position",))
    n = _validate.counter(f"{_P}['generator']['position']", g["position"])
    return w, a, n
