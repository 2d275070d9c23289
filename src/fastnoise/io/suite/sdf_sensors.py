"""SDF sensor discovery for suites (:mod:`fastnoise.io.suite.suite` reads SDF files
through it), on :func:`fastnoise.io.sdf.load_sensors`.

Which SDF sensor types a suite applies to a recorded topic comes from the model
declarations (:func:`sdf_type_models`), not from a list kept here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from fastnoise.core import registry
from fastnoise.io.sdf import SdfSensors, load_sensors

__all__ = [
    "SdfSensor",
    "load_sdf",
    "sdf_sensor_model",
    "sdf_sensor_model_and_rate",
    "sdf_sensors",
    "sdf_type_models",
    "sensor_rows",
]


def sdf_type_models() -> dict[str, str]:
    """SDF sensor type -> the registered model a suite applies its noise with to a
    recorded topic: every ``sdf_types`` entry of a declaration that noises ROS messages
    (the first such declaration, when two name one type)."""
    out: dict[str, str] = {}
    for d in registry.models():
        if d.messages:
            for t in d.sdf_types:
                out.setdefault(t, d.name)
    return out


# ---------------------------------------------------------------------------------------
# SDF sensors


@dataclass(frozen=True)
class SdfSensor:
    """One ``<sensor>`` of an SDF file that carries noise."""

    name: str  #: scoped name, ``model::link::sensor``
    type: str  #: the SDF sensor type, canonical (imu, gpu_lidar, camera, navsat, ...)
    topic: str | None  #: its ``<topic>``, if given
    noisy: bool  #: Gazebo adds noise to it
    importable: bool  #: a suite applies its noise to a topic
    reason: str = ""  #: why not, when it is not importable
    sensor: str = ""  #: its ``name`` attribute


def load_sdf(path: str | os.PathLike[str]) -> SdfSensors:
    try:
        return load_sensors(os.fspath(path), seed=0)
    except OSError as exc:
        raise ValueError(f"{os.fspath(path)}: cannot read the SDF: {exc.strerror}") from None


def sdf_sensor_model(path: str | os.PathLike[str], sensor: str, seed: object) -> Any:
    """The model a suite applies for ``sensor`` (scoped name, or a unique plain name) of
    the SDF file, keyed by ``seed``: the one of :func:`sdf_type_models` for its type;
    ValueError when there is none."""
    return sdf_sensor_model_and_rate(path, sensor, seed)[0]


def sdf_sensor_model_and_rate(
    path: str | os.PathLike[str], sensor: str, seed: object
) -> tuple[Any, float | None]:
    """:func:`sdf_sensor_model` and the sensor's ``<update_rate>`` (Hz; None when absent
    or 0), from one reading of the file."""
    found = load_sdf(path)
    try:
        rec = found[sensor]
    except KeyError as exc:
        raise ValueError(f"{os.fspath(path)}: {exc.args[0]}") from None
    name = sdf_type_models().get(rec.type)
    if name is None:
        raise ValueError(
            f"SDF sensor {rec.name!r} ({rec.type}): no suite model applies it to a topic"
        )
    model = rec.build(seed).get(name)
    if model is None:
        raise ValueError(f"SDF sensor {rec.name!r} ({rec.type}): {rec.reason or 'no noise'}")
    return model, rec.update_rate


def sdf_sensors(path: str | os.PathLike[str]) -> list[SdfSensor]:
    """Every ``<sensor>`` of an SDF model or world file that has a ``<noise>`` element,
    in file order, and whether a suite applies its noise to a topic (the sensor types
    of :func:`sdf_type_models`, when Gazebo adds noise)."""
    return sensor_rows(load_sdf(path))


def sensor_rows(found: SdfSensors) -> list[SdfSensor]:
    types = sdf_type_models()
    out = []
    for rec in found.values():
        name = types.get(rec.type)
        if name is None:
            ok, reason = False, f"no suite model applies {rec.type} noise to a topic"
        elif name not in rec.models:
            ok, reason = False, rec.reason or "no noise"
        else:
            ok, reason = True, ""
        out.append(SdfSensor(rec.name, rec.type, rec.topic, rec.noisy, ok, reason, rec.sensor))
    return out
