"""Argument and state checks of :class:`fastnoise.models.motion.sensor_simulator.SensorSimulator`
that are not on the per-read path (plain Python, so they cost no compiled module): the
source given to the constructor and the ``position`` part of the state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.models.motion.rigid_body import RigidBodySimulator

#: What a source other than a RigidBodySimulator must have (attributes, properties or
#: zero-argument methods).
SOURCE_ATTRS = ("omega", "roll", "pitch", "yaw")
#: Largest magnitude of a noise stddev, a drift accumulator and a source value (rad/s
#: or rad) the sensor works with: a reading x + drift + stddev * z (|z| <= 6.67) then
#: stays finite.
VALUE_MAX = 1e300
_P = "state['position']"
_UNBUILT = "this SensorSimulator was never initialised (call __init__): it has no source"


def built(source: object) -> None:
    """Refuse a read of a SensorSimulator whose ``__init__`` never ran (no source)."""
    if source is None:
        raise RuntimeError(_UNBUILT)


def source_not_finite(label: str, x: float, y: float, z: float) -> ValueError:
    """The refusal of a read whose source values are not all finite."""
    return ValueError(
        f"{label}=({x!r}, {y!r}, {z!r}) is not finite: the source failed its numeric check"
    )


def source_out_of_range(label: str, x: float, y: float, z: float) -> ValueError:
    """The refusal of a read whose finite source values pass +/-VALUE_MAX."""
    return ValueError(
        f"{label}=({x!r}, {y!r}, {z!r}) is not allowed: finite source "
        f"values must lie within +/-{VALUE_MAX:g} (no noise was drawn)"
    )


def stream_end(position: int) -> OverflowError:
    """The refusal of a read at the end of the noise stream."""
    return OverflowError(
        f"the noise generator is at position {position} "
        "(state['position']['generator']['position']): the 3 normals of a read "
        "would run past the end of the stream (2**64 - 1)"
    )


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


def source_real(name: str, value: Any) -> float:
    """``source.<name>`` (an angle, rad) that is not a float, as a float: converted as
    C code reads a double (``__float__``, else ``__index__``; no strings), bools,
    complex numbers and other numpy scalars refused by name (TypeError)."""
    if isinstance(value, bool | np.bool_) or (
        isinstance(value, np.generic) and value.dtype.kind not in "iuf"
    ):
        raise TypeError(f"source.{name}={value!r} is not allowed: it must be a real number")
    kind = type(value)
    try:
        if not (hasattr(kind, "__float__") or hasattr(kind, "__index__")):
            raise TypeError(kind.__name__)
        return float(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise TypeError(
            f"source.{name}={value!r:.80} is not allowed: it must be a real number"
        ) from exc


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
