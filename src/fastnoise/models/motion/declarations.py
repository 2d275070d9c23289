"""What the motion models declare (:mod:`fastnoise.core.spec`): ``rigid_body``
(:class:`RigidBodySimulator`, no noise) and ``sensor_simulator``
(:class:`SensorSimulator`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core import registry
from fastnoise.core.spec import Declaration, Param

# rigid_body's INERTIA_MAX and OMEGA_MAX; the sensor's VALUE_MAX
_INERTIA_MAX = _OMEGA_MAX = 1e100
_VALUE_MAX = 1e300


def _angle(name: str) -> Param:
    return Param(
        name,
        "real",
        f"initial {name}, wrapped to [-pi, pi)",
        unit="rad",
        default=0.0,
        keyword_only=False,
    )


#: RigidBodySimulator's parameters (its initial state, what reset() returns to).
RIGID_BODY_PARAMS = (
    Param(
        "inertia",
        "vector3",
        "principal moments of inertia (I_x, I_y, I_z)",
        unit="kg m^2",
        low=0.0,
        low_open=True,
        high=_INERTIA_MAX,
        keyword_only=False,
    ),
    Param(
        "omega",
        "vector3",
        "initial body angular velocity (p, q, r); None: 0",
        unit="rad/s",
        default=None,
        low=-_OMEGA_MAX,
        high=_OMEGA_MAX,
        keyword_only=False,
    ),
    _angle("roll"),
    _angle("pitch"),
    _angle("yaw"),
    Param(
        "kinematics",
        "choice",
        "how the angles follow the body rates: axis (the SensorSimulator API document: "
        "each angle integrates its rate) or zyx (exact ZYX Euler-angle kinematics)",
        default="axis",
        choices=("axis", "zyx"),
        keyword_only=False,
    ),
)

#: SensorSimulator's parameters.
SENSOR_SIMULATOR_PARAMS = (
    Param(
        "source",
        "object",
        "the true motion: a RigidBodySimulator, or any object with omega (rad/s) and "
        "roll, pitch, yaw (rad); kept by reference, not in the state (from_state takes "
        "it again)",
        keyword_only=False,
        in_state=False,
    ),
    Param(
        "noise_stddev",
        "vector3",
        "per-axis noise standard deviation of both reads",
        unit="rad/s; rad",
        default=0.0,
        low=0.0,
        high=_VALUE_MAX,
    ),
    Param(
        "drift_rate",
        "vector3",
        "per-axis drift rate of the angular velocity (and of the angles, unless "
        "angle_drift_rate is given)",
        unit="rad/s^2",
        default=0.0,
        low=-_VALUE_MAX,
        high=_VALUE_MAX,
    ),
    Param(
        "angle_drift_rate",
        "vector3",
        "per-axis drift rate of the angles; None: drift_rate",
        unit="rad/s",
        default=None,
        low=-_VALUE_MAX,
        high=_VALUE_MAX,
    ),
)


def _body_example(cls: type) -> Any:
    return cls([1.0, 2.0, 3.0], omega=[0.3, -0.2, 0.1])


def _body_exercise(b: Any) -> np.ndarray:
    b.update(0.01, [0.1, 0.0, -0.1])
    return np.array([*b.omega, b.roll, b.pitch, b.yaw])


RIGID_BODY = Declaration(
    name="rigid_body",
    summary="rotation of a rigid body about its principal axes (Euler's equations); "
    "draws no random numbers",
    params=RIGID_BODY_PARAMS,
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
    params=SENSOR_SIMULATOR_PARAMS,
    example=_sensor_example,
    exercise=_sensor_exercise,
)
