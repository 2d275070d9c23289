"""One SDFormat ``<noise>`` element, read as sdformat ``Noise::Load`` and gz-sensors
``GaussianNoiseModel::Load`` read it.

Two spellings of the type exist in the SDF specification (sdformat ``sdf/1.12``):

- ``noise.sdf`` (IMU axes, magnetometer, altimeter, air pressure and speed, navsat,
  force/torque): a ``type`` ATTRIBUTE, required (``required="1"``): sdformat refuses a
  ``<noise>`` without it (``parser.cc``: "Required attribute[type] in element[noise] is
  not specified in SDF."), and so does fastnoise, naming the element's path. A
  ``<type>`` child is not part of that element: sdformat copies it as an unknown
  element and ignores it.
- the ``<noise>`` of ``lidar.sdf``/``ray.sdf`` and ``camera.sdf``: a ``<type>`` CHILD,
  required, default ``gaussian``. A ``type`` attribute is not part of that element:
  sdformat warns and ignores it.

``Noise::Load`` lower-cases the type (``Gaussian`` is ``gaussian``); anything but
``none``, ``gaussian``, ``gaussian_quantized`` is an error in sdformat (refused here).
Every value child is read for every type. ``stddev``, ``bias_stddev`` and
``dynamic_bias_stddev`` must be >= 0 (the specification's ``min="0.0"``); a negative
``precision`` is refused (gz-sensors reports it as an error and ignores it). A
``dynamic_bias_correlation_time`` <= 0 (zero or negative) is allowed, as in
``noise.sdf`` (no ``min``): gz-sensors' ``GaussianNoiseModel::ApplyImpl`` moves the
dynamic bias only when ``dynamicBiasStdDev > 0 && dynamicBiasCorrTime > 0 && dt > 0``,
so such a model has no dynamic bias (:func:`component` zeroes both fields).
"""

from __future__ import annotations

import math
from typing import Any

from fastnoise.io.sdf.xml import Node

__all__ = ["NOISE_KEYS", "component", "parse_noise"]

#: The value children of ``<noise>``, in the order of ``noise.sdf``.
NOISE_KEYS = (
    "mean",
    "stddev",
    "bias_mean",
    "bias_stddev",
    "dynamic_bias_stddev",
    "dynamic_bias_correlation_time",
    "precision",
)
TYPES = ("none", "gaussian", "gaussian_quantized")
_NONNEGATIVE = ("stddev", "bias_stddev", "dynamic_bias_stddev", "precision")
#: gz-math ``equal(x, 0.0)`` and gz-sensors' precision test use this tolerance.
GZ_EPS = 1e-6


def parse_noise(
    node: Node, path: str, *, type_child: bool = False, notes: list[str] | None = None
) -> dict[str, Any]:
    """``{"type": ..., "mean": ..., ...}`` of the ``<noise>`` ``node`` (every key of
    :data:`NOISE_KEYS`, 0.0 when absent; values exactly as written). ``type_child``:
    the element takes a ``<type>`` child (lidar, camera) instead of the attribute.
    ``path`` names the element in messages; a type spelling that sdformat ignores and
    that differs from the type it reads is reported in ``notes``."""
    values: dict[str, Any] = dict.fromkeys(NOISE_KEYS, 0.0)
    seen: set[str] = set()
    attr = node.attrib.get("type")
    child_type: Node | None = None
    for child in node.children:
        name = child.tag
        if name in seen:
            raise child.error(
                f"element <{path}/{name}> appears twice: give each <noise> value once"
            )
        seen.add(name)
        if name == "type":
            child_type = child
            continue
        if name not in NOISE_KEYS:
            raise child.error(
                f"unknown element <{path}/{name}>: a Gazebo <noise> takes "
                f"type, {', '.join(NOISE_KEYS)}"
            )
        values[name] = _number(child, f"{path}/{name}")
    if type_child:
        raw = child_type.text if child_type is not None else "gaussian"
        if attr is not None and attr.strip().lower() != raw.strip().lower() and notes is not None:
            notes.append(
                f"{node.where()}: <{path} type={attr!r}> ignored: sdformat reads this "
                f"element's type from a <type> child (type is {raw.strip().lower()!r})"
            )
        where = child_type if child_type is not None else node
    else:
        if attr is None:
            # noise.sdf: <attribute name="type" ... required="1">; sdformat's readXml
            # refuses the element ("Required attribute[type] in element[noise] is not
            # specified in SDF.") and the whole file with it
            hint = (
                f" (a <type> child, {child_type.text!r}, is not read here)"
                if child_type is not None
                else ""
            )
            raise node.error(
                f"element <{path}> has no type attribute{hint}: sdformat requires one; "
                f'write <noise type="gaussian"> (or one of {TYPES})'
            )
        raw = attr
        if (
            child_type is not None
            and child_type.text.lower() != raw.strip().lower()
            and notes is not None
        ):
            notes.append(
                f"{child_type.where()}: <{path}/type> ignored: sdformat reads this "
                f"element's type from its type attribute (type is {raw.strip().lower()!r})"
            )
        where = node
    ntype = raw.strip().lower()
    if ntype not in TYPES:
        raise where.error(f"element <{path}> has noise type {raw!r}: allowed are {TYPES}")
    values["type"] = ntype
    return values


def _number(node: Node, path: str) -> float:
    text = node.text
    try:
        v = float(text)
    except ValueError:
        raise node.error(f"malformed element <{path}>: {text!r} is not a number") from None
    if not math.isfinite(v):
        raise node.error(f"malformed element <{path}>: {text!r} is not finite")
    if node.tag in _NONNEGATIVE and v < 0.0:
        raise node.error(f"malformed element <{path}>: {text!r} must be >= 0")
    return v


def component(values: dict[str, Any] | None) -> dict[str, float] | None:
    """The gz-sensors ``GaussianNoiseModel`` of a parsed ``<noise>``: None for type
    ``none`` (and for no element), else a dict of :data:`NOISE_KEYS` in SI units where
    what gz-sensors does not apply is zero: ``precision`` <= 1e-6 (no quantization, as
    ``math::equal(precision, 0, 1e-6)``) and, when ``dynamic_bias_stddev`` or
    ``dynamic_bias_correlation_time`` is <= 0, both (no dynamic bias). ``gaussian`` and
    ``gaussian_quantized`` give the same model (gz-sensors ``NoiseFactory``)."""
    if values is None or values["type"] == "none":
        return None
    out = {k: float(values[k]) for k in NOISE_KEYS}
    if out["precision"] <= GZ_EPS:
        out["precision"] = 0.0
    if out["dynamic_bias_stddev"] <= 0.0 or out["dynamic_bias_correlation_time"] <= 0.0:
        out["dynamic_bias_stddev"] = 0.0
        out["dynamic_bias_correlation_time"] = 0.0
    return out
