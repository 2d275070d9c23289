"""SDF sensor discovery for suites (split out of :mod:`fastnoise.io.suite.suite`, which
re-exports it), on :func:`fastnoise.io.sdf.load_sensors`."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

# SDF sensor type -> the suite model that applies its noise to a recorded topic
_SDF_TYPES = {
    "imu": "imu",
    "lidar": "range",
    "gpu_lidar": "range",
    "camera": "camera",
    "depth_camera": "depth",
}
# model_name of what _try_from_sdf returns -> suite model
_SDF_MODELS = {
    "imu": "imu",
    "lidar": "lidar",
    "range": "range",
    "camera": "camera",
    "depth": "depth",
}


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


def _load(path: str | os.PathLike[str]) -> Any:
    from fastnoise.io.sdf.imu import load_sensors

    try:
        return load_sensors(os.fspath(path), seed=0)
    except OSError as exc:
        raise ValueError(f"{os.fspath(path)}: cannot read the SDF: {exc.strerror}") from None


def _try_from_sdf(path: str | os.PathLike[str], sensor: str, seed: object) -> Any:
    """The model a suite applies for ``sensor`` (scoped name, or a unique plain name) of
    the SDF file, keyed by ``seed``; ValueError when there is none."""
    found = _load(path)
    try:
        rec = found[sensor]
    except KeyError as exc:
        raise ValueError(f"{os.fspath(path)}: {exc.args[0]}") from None
    model = _SDF_TYPES.get(rec.type)
    if model is None:
        raise ValueError(
            f"SDF sensor {rec.name!r} ({rec.type}): no suite model applies it to a topic"
        )
    models = rec.build(seed)
    if not models:
        raise ValueError(f"SDF sensor {rec.name!r} ({rec.type}): {rec.reason or 'no noise'}")
    return next(iter(models.values()))


def sdf_sensors(path: str | os.PathLike[str]) -> list[SdfSensor]:
    """Every ``<sensor>`` of an SDF model or world file that has a ``<noise>`` element,
    in file order, and whether a suite applies its noise to a topic (types imu, lidar,
    gpu_lidar, camera and depth_camera, when Gazebo adds noise)."""
    return _rows(_load(path))


def _rows(found: Any) -> list[SdfSensor]:
    out = []
    for rec in found.values():
        model = _SDF_TYPES.get(rec.type)
        if model is None:
            ok, reason = False, f"no suite model applies {rec.type} noise to a topic"
        elif not rec.models:
            ok, reason = False, rec.reason or "no noise"
        else:
            ok, reason = True, ""
        out.append(SdfSensor(rec.name, rec.type, rec.topic, rec.noisy, ok, reason, rec.sensor))
    return out
