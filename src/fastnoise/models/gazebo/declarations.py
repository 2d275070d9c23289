"""What the Gazebo models declare (:mod:`fastnoise.core.spec`): ``gazebo_noise``
(:class:`GazeboNoise`, gz-sensors' Gaussian noise model) and the sensors built on it,
each keyed by its own name: ``magnetometer``, ``altimeter``, ``air_pressure``,
``air_speed``, ``navsat``, ``force_torque``."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastnoise.core.spec import ENV_PARAMS, Declaration, Param

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


# Largest |value| of a noise parameter (gazebo.noise.MAX_PARAM): sums stay finite.
_MAX = 1e30


def _gz(name: str, doc: str, unit: str, *, signed: bool = False) -> Param:
    return Param(
        name,
        "real",
        doc,
        unit=unit,
        default=0.0,
        low=-_MAX if signed else 0.0,
        high=_MAX,
        keyword_only=False,
    )


#: gz-sensors' Gaussian noise model's parameters (SDF's ``<noise>`` children): a
#: GazeboNoise's, and the keys of every component of the Gazebo sensors. Unit u: the
#: channel's own (m, Pa, T, ...).
GAZEBO_NOISE_PARAMS = (
    _gz("mean", "mean of the white noise N(mean, stddev)", "u", signed=True),
    _gz("stddev", "standard deviation of the white noise", "u"),
    _gz(
        "bias_mean",
        "mean of the turn-on bias N(bias_mean, bias_stddev), drawn once and negated with "
        "probability 1/2",
        "u",
        signed=True,
    ),
    _gz("bias_stddev", "standard deviation of the turn-on bias", "u"),
    _gz(
        "dynamic_bias_stddev",
        "driving density of the dynamic bias (stationary std: it times sqrt(tau/2)); it "
        "moves on samples with dt > 0",
        "u/sqrt(s)",
    ),
    _gz(
        "dynamic_bias_correlation_time",
        "correlation time tau of the dynamic bias; tau <= 0 (zero or negative): no dynamic "
        "bias, as gz-sensors' GaussianNoiseModel",
        "s",
        signed=True,
    ),
    _gz(
        "precision",
        "when > 1e-6: results are rounded to a multiple of it (halves away from zero)",
        "u",
    ),
)


def component(name: str, doc: str = "a Gazebo <noise> component", unit: str = "") -> Param:
    """The spec of a Gazebo sensor's component ``name``: None (no noise) or its <noise>
    values."""
    return Param(
        name,
        "component",
        doc + "; None: no noise",
        unit=unit,
        default=None,
        keyword_only=False,
        fields=GAZEBO_NOISE_PARAMS,
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
    params=GAZEBO_NOISE_PARAMS + ENV_PARAMS,
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
    messages={"sensor_msgs/MagneticField": "magnetic_field"},
    params=tuple(component(a, f"noise of the field's {a} axis", "T") for a in "xyz") + ENV_PARAMS,
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
    params=(
        component("vertical_position", "noise of the vertical position", "m"),
        component("vertical_velocity", "noise of the vertical velocity", "m/s"),
        *ENV_PARAMS,
    ),
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
    messages={"sensor_msgs/FluidPressure": "fluid_pressure"},
    params=(component("pressure", "noise of the static pressure", "Pa"), *ENV_PARAMS),
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
    params=(
        component(
            "pressure",
            "noise of the differential pressure, in pressure_units",
            "hPa or Pa",
        ),
        Param(
            "pressure_units",
            "choice",
            "hectopascals: as gz-sensors, the noise acts on float32 hPa; pascals: on Pa, "
            "in float64, as the SDF element's name says",
            default="hectopascals",
            choices=("hectopascals", "pascals"),
        ),
        *ENV_PARAMS,
    ),
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
    messages={"sensor_msgs/NavSatFix": "navsat_fix"},
    params=(
        component(
            "horizontal_position",
            "noise of latitude and longitude (one model, one bias), in horizontal_units",
            "deg or m",
        ),
        component("vertical_position", "noise of the altitude", "m"),
        component(
            "horizontal_velocity",
            "noise of the east and north velocities (one model, one bias)",
            "m/s",
        ),
        component("vertical_velocity", "noise of the up velocity", "m/s"),
        Param(
            "horizontal_units",
            "choice",
            "degrees: as gz-sensors, the noise is added to degrees; metres: north and east "
            "metres, turned into degrees on the WGS84 ellipsoid",
            default="degrees",
            choices=("degrees", "metres"),
        ),
        *ENV_PARAMS,
    ),
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
    params=(
        *(component(f"force_{a}", f"noise of the force's {a} component", "N") for a in "xyz"),
        *(component(f"torque_{a}", f"noise of the torque's {a} component", "N m") for a in "xyz"),
        *ENV_PARAMS,
    ),
    example=lambda cls: cls(force_x=_GZ, torque_z=_GZ, seed=17),
    exercise=_force_torque_exercise,
)
