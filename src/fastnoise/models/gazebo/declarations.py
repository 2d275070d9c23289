"""What the Gazebo models declare (:mod:`fastnoise.core.spec`): ``gazebo_noise``
(:class:`GazeboNoise`, gz-sensors' Gaussian noise model) and the sensors built on it,
each keyed by its own name: ``magnetometer``, ``altimeter``, ``air_pressure``,
``air_speed``, ``navsat``, ``force_torque``."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core.spec import Declaration

_W = np.tile([0.1, -0.2, 0.3], (64, 1))
_A = np.tile([0.0, 0.1, 9.81], (64, 1))
# a noise component with every term on
_GZ = {
    "mean": 0.01,
    "stddev": 0.2,
    "bias_mean": 0.5,
    "bias_stddev": 0.1,
    "dynamic_bias_stddev": 0.05,
    "dynamic_bias_correlation_time": 3.0,
    "precision": 1e-4,
}
_NAV = np.column_stack(
    [np.linspace(-80, 80, 20), np.linspace(-179, 179, 20), np.full((20, 4), 1.0)]
)


def _noise_example(cls: type) -> Any:
    return cls(
        0.1,
        0.5,
        1.0,
        0.2,
        dynamic_bias_stddev=0.3,
        dynamic_bias_correlation_time=2.0,
        precision=0.01,
        seed=11,
    )


def _noise_exercise(m: Any) -> np.ndarray:
    return np.concatenate([[m.apply_one(1.0, 0.1)], m.apply(np.linspace(0, 1, 40), 0.05)])


GAZEBO_NOISE = Declaration(
    name="gazebo_noise",
    summary="gz-sensors' Gaussian noise model: white noise, turn-on bias with a random "
    "sign, dynamic bias, precision",
    tags=("gazebo_noise",),
    example=_noise_example,
    exercise=_noise_exercise,
)


def _magnetometer_exercise(m: Any) -> np.ndarray:
    return np.concatenate([m.apply_one(2e-5, 0.0, -4e-5), m.apply(_A * 1e-6).ravel()])


MAGNETOMETER = Declaration(
    name="magnetometer",
    summary="Gazebo's magnetometer: one noise model per axis (T)",
    tags=("magnetometer",),
    sdf_types=("magnetometer",),
    example=lambda cls: cls(x=_GZ, z={"stddev": 1e-6}, seed=12),
    exercise=_magnetometer_exercise,
)


def _altimeter_exercise(m: Any) -> np.ndarray:
    return np.concatenate([m.apply_one(10.0, 0.5, 0.1), m.apply(_A[:, 1:], 0.1).ravel()])


ALTIMETER = Declaration(
    name="altimeter",
    summary="Gazebo's altimeter: vertical position (m) and velocity (m/s) noise",
    tags=("altimeter",),
    sdf_types=("altimeter",),
    example=lambda cls: cls(vertical_position=_GZ, vertical_velocity=_GZ, seed=13),
    exercise=_altimeter_exercise,
)


def _pressure_exercise(m: Any) -> np.ndarray:
    return np.concatenate([[m.apply_one(101325.0)], m.apply(_A[:, 2] * 1e4)])


AIR_PRESSURE = Declaration(
    name="air_pressure",
    summary="Gazebo's air pressure sensor: pressure noise (Pa)",
    tags=("air_pressure",),
    sdf_types=("air_pressure",),
    example=lambda cls: cls(pressure=_GZ, seed=14),
    exercise=_pressure_exercise,
)


def _speed_exercise(m: Any) -> np.ndarray:
    return np.concatenate([[m.apply_one(300.0)], m.apply(_A[:, 2] * 50)])


AIR_SPEED = Declaration(
    name="air_speed",
    summary="Gazebo's air speed sensor: differential-pressure noise (hPa, as gz-sensors)",
    tags=("air_speed",),
    sdf_types=("air_speed",),
    example=lambda cls: cls(pressure=_GZ, seed=15),
    exercise=_speed_exercise,
)


def _navsat_exercise(m: Any) -> np.ndarray:
    return np.concatenate([m.apply_one(40.0, -3.0, 100.0), m.apply(_NAV, 0.5).ravel()])


NAVSAT = Declaration(
    name="navsat",
    summary="Gazebo's NavSat (GPS): horizontal and vertical position and velocity noise",
    tags=("navsat",),
    sdf_types=("navsat",),
    example=lambda cls: cls(_GZ, _GZ, _GZ, _GZ, horizontal_units="metres", seed=16),
    exercise=_navsat_exercise,
)


def _force_torque_exercise(m: Any) -> np.ndarray:
    one = m.apply_one(1.0, 2.0, 3.0, 0.1, 0.2, 0.3, 0.01)
    return np.concatenate([one, m.apply(np.hstack([_A, _W]), 0.01).ravel()])


FORCE_TORQUE = Declaration(
    name="force_torque",
    summary="Gazebo's force-torque sensor: force (N) and torque (N m) noise per axis",
    tags=("force_torque",),
    sdf_types=("force_torque",),
    example=lambda cls: cls(force_x=_GZ, torque_z=_GZ, seed=17),
    exercise=_force_torque_exercise,
)
