"""SDF sensor discovery (split out of
:mod:`fastnoise.io.suite`, which re-exports it)."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

# model_name of what from_sdf returns -> suite model
_SDF_MODELS = {"imu": "imu", "lidar": "lidar", "range": "range", "camera": "camera"}


# ---------------------------------------------------------------------------------------
# SDF sensors


@dataclass(frozen=True)
class SdfSensor:
    """One ``<sensor>`` of an SDF file that carries noise."""

    name: str
    type: str  #: the SDF sensor type (imu, gpu_lidar, camera, ...)
    topic: str | None  #: its ``<topic>``, if given
    noisy: bool  #: it has at least one ``<noise>`` element
    importable: bool  #: :func:`fastnoise.from_sdf` builds a model for it
    reason: str = ""  #: why not, when it is not importable


def _sdf_root(path: str | os.PathLike[str]) -> ET.Element:
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as exc:
        raise ValueError(f"{os.fspath(path)}: not well-formed XML: {exc}") from None


def _try_from_sdf(path: str | os.PathLike[str], sensor: str, seed: object) -> Any:
    import fastnoise

    return fastnoise.from_sdf(os.fspath(path), seed=seed, name=sensor)


def sdf_sensors(path: str | os.PathLike[str]) -> list[SdfSensor]:
    """Every ``<sensor>`` of an SDF model or world file that has a ``<noise>`` element,
    in file order, and whether :func:`fastnoise.from_sdf` builds a model for it."""
    root = _sdf_root(path)
    out = []
    for sensor in root.iter("sensor"):
        noisy = sensor.find(".//noise") is not None
        if not noisy:
            continue
        name = sensor.get("name") or ""
        stype = sensor.get("type") or ""
        topic_el = sensor.find("topic")
        topic = (topic_el.text or "").strip() if topic_el is not None else None
        try:
            model = _try_from_sdf(path, name, 0)
            ok = getattr(type(model), "model_name", None) in _SDF_MODELS
            reason = "" if ok else f"from_sdf returns {type(model).__name__}, not handled"
        except (ValueError, TypeError) as exc:
            ok, reason = False, str(exc)
        out.append(SdfSensor(name, stype, topic or None, noisy, ok, reason))
    return out
