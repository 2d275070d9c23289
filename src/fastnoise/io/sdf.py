"""Build an :class:`fastnoise.models.imu.ImuNoise` from Gazebo SDFormat ``<imu>`` noise elements.

Gazebo's meaning of each ``<noise>`` child (gz-sensors ``GaussianNoiseModel``), per axis:

- ``type``: ``none``, ``gaussian`` or ``gaussian_quantized`` (attribute, SDF >= 1.5, or
  a ``<type>`` child in the SDF 1.4 form);
- ``mean``: mean of the white noise: a constant bias (rad/s or m/s^2);
- ``stddev``: per-sample white-noise sigma. Gazebo does not scale it with the update
  rate; neither does this importer (it becomes ``noise_stddev``, not a density);
- ``bias_mean``, ``bias_stddev``: turn-on bias, drawn once from N(bias_mean,
  bias_stddev) and negated with probability 1/2;
- ``dynamic_bias_stddev`` sigma, ``dynamic_bias_correlation_time`` tau (s): when both
  are > 0 the bias follows ``b = exp(-dt/tau)*b + sqrt(-sigma^2*tau/2*expm1(-2dt/tau))*w``
  starting from the turn-on bias, i.e. a Gauss-Markov bias with stationary std
  sigma*sqrt(tau/2) whose initial state is the turn-on bias (it decays);
- ``precision``: with ``gaussian_quantized``, outputs are rounded to multiples of it
  (ties to even here; Gazebo's std::round sends ties away from zero). Gazebo ignores it
  for plain ``gaussian``, and so does this importer.

Accepted layouts: ``<imu><angular_velocity><x><noise type=...>...`` (SDF >= 1.5) and
``<imu><noise><type>gaussian</type><rate>...</rate><accel>...</accel></noise>`` (SDF 1.4,
one set of figures for all three axes). Unknown or malformed elements raise ValueError
naming the element.
"""

from __future__ import annotations

import math
import os
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any

import numpy as np

from fastnoise.models.imu_config import TriadNoise, gauss_markov_stddev_from_gazebo

if TYPE_CHECKING:
    from fastnoise.models.imu import ImuNoise

__all__ = ["from_sdf", "imu_noise_params_from_sdf"]

_NOISE_VALUES = (
    "mean",
    "stddev",
    "bias_mean",
    "bias_stddev",
    "dynamic_bias_stddev",
    "dynamic_bias_correlation_time",
    "precision",
)
_TYPES = ("none", "gaussian", "gaussian_quantized")
_IMU_CHILDREN = (
    "angular_velocity",
    "linear_acceleration",
    "noise",
    "orientation_reference_frame",
    "enable_orientation",
    "topic",
)
_TRIADS = {"angular_velocity": "gyro", "linear_acceleration": "accel"}
_OLD_TRIADS = {"rate": "gyro", "accel": "accel"}


def _where(path: str) -> str:
    return f"<{path}>"


def _parse_noise(elem: ET.Element, path: str, *, old_style: bool = False) -> dict[str, Any]:
    """Values of one Gazebo noise element: a dict of _NOISE_VALUES plus 'type'."""
    values: dict[str, Any] = dict.fromkeys(_NOISE_VALUES, 0.0)
    ntype = elem.get("type")
    for child in elem:
        name = child.tag
        if name == "type" and not old_style:
            ntype = (child.text or "").strip()
            continue
        if name not in _NOISE_VALUES:
            raise ValueError(
                f"unknown element {_where(path + '/' + name)}: a Gazebo <noise> takes "
                f"type, {', '.join(_NOISE_VALUES)}"
            )
        text = (child.text or "").strip()
        try:
            v = float(text)
        except ValueError:
            raise ValueError(
                f"malformed element {_where(path + '/' + name)}: {text!r} is not a number"
            ) from None
        if not math.isfinite(v):
            raise ValueError(
                f"malformed element {_where(path + '/' + name)}: {text!r} is not finite"
            )
        if name != "mean" and name != "bias_mean" and v < 0.0:
            raise ValueError(
                f"malformed element {_where(path + '/' + name)}: {text!r} must be >= 0"
            )
        values[name] = v
    values["type"] = ntype
    return values


def _check_type(ntype: object, path: str) -> str:
    if ntype is None:
        raise ValueError(f'element {_where(path)} has no noise type: give type="gaussian"')
    ntype = str(ntype).strip()
    if ntype not in _TYPES:
        raise ValueError(f"element {_where(path)} has noise type {ntype!r}: allowed are {_TYPES}")
    return ntype


def _triad(axes: list[dict[str, Any] | None]) -> TriadNoise:
    """TriadNoise from the Gazebo figures of axes x, y, z (None: no noise)."""
    cols: dict[str, list[Any]] = {
        k: []
        for k in (
            "bias",
            "noise_stddev",
            "turn_on_bias_mean",
            "turn_on_bias_stddev",
            "bias_stddev",
            "tau",
            "resolution",
        )
    }
    decays = []
    for v in axes:
        if v is None or v["type"] == "none":
            v = dict.fromkeys(_NOISE_VALUES, 0.0)
            v["type"] = "none"
        dyn = v["dynamic_bias_stddev"] > 0.0 and v["dynamic_bias_correlation_time"] > 0.0
        tau = v["dynamic_bias_correlation_time"] if dyn else math.inf
        cols["bias"].append(v["mean"])
        cols["noise_stddev"].append(v["stddev"])
        cols["turn_on_bias_mean"].append(v["bias_mean"])
        cols["turn_on_bias_stddev"].append(v["bias_stddev"])
        cols["bias_stddev"].append(
            gauss_markov_stddev_from_gazebo(v["dynamic_bias_stddev"], tau) if dyn else 0.0
        )
        cols["tau"].append(tau)
        q = v["precision"] if v["type"] == "gaussian_quantized" else 0.0
        cols["resolution"].append(q)
        decays.append(dyn)
    if any(decays) and not all(decays):
        raise ValueError(
            "Gazebo dynamic bias on some axes of a triad only is not supported: give "
            "dynamic_bias_stddev and dynamic_bias_correlation_time on all three"
        )
    res = cols["resolution"]
    if any(res) and not all(res):
        raise ValueError(
            "precision (gaussian_quantized) on some axes of a triad only is not "
            "supported: quantize all three"
        )
    return TriadNoise(
        bias=_vec3(cols["bias"]),
        noise_stddev=_vec3(cols["noise_stddev"]),
        turn_on_bias_mean=_vec3(cols["turn_on_bias_mean"]),
        turn_on_bias_stddev=_vec3(cols["turn_on_bias_stddev"]),
        bias_stddev=_vec3(cols["bias_stddev"]),
        bias_correlation_time=_vec3(cols["tau"]) if all(decays) else None,
        turn_on_bias_decays=all(decays),
        resolution=_vec3(res) if all(res) else None,
    )


def _vec3(values: list[Any]) -> tuple[float, float, float]:
    x, y, z = (float(v) for v in values)
    return (x, y, z)


def _find_imu(root: ET.Element, name: str | None) -> ET.Element:
    if root.tag == "imu":
        return root
    if name is not None:
        for sensor in root.iter("sensor"):
            if sensor.get("name") == name:
                imu = sensor.find("imu")
                if imu is None:
                    raise ValueError(f"sensor {name!r} has no <imu> element")
                return imu
        raise ValueError(f"no <sensor name={name!r}> in the SDF")
    found = list(root.iter("imu"))
    if not found:
        raise ValueError("no <imu> element in the SDF")
    if len(found) > 1:
        raise ValueError(
            f"the SDF has {len(found)} <imu> elements: choose one with name=<sensor name>"
        )
    return found[0]


def imu_noise_params_from_sdf(
    sdf: str | os.PathLike[str], name: str | None = None
) -> tuple[TriadNoise, TriadNoise]:
    """(gyro, accel) TriadNoise from an SDF string (XML text) or file path; ``name``
    picks a ``<sensor name=...>`` when the SDF has several IMUs."""
    if isinstance(sdf, os.PathLike) or (isinstance(sdf, str) and "<" not in sdf):
        with open(sdf, encoding="utf-8") as fh:
            text = fh.read()
    elif isinstance(sdf, str):
        text = sdf
    else:
        raise TypeError(f"sdf={sdf!r} is not allowed: give XML text or a file path")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ValueError(f"the SDF is not well-formed XML: {exc}") from None
    imu = _find_imu(root, name)
    axes: dict[str, list[dict[str, Any] | None]] = {
        "gyro": [None, None, None],
        "accel": [None, None, None],
    }
    for child in imu:
        if child.tag not in _IMU_CHILDREN:
            raise ValueError(
                f"unknown element <imu/{child.tag}>: allowed are {', '.join(_IMU_CHILDREN)}"
            )
        if child.tag in _TRIADS:
            triad = _TRIADS[child.tag]
            for axis in child:
                if axis.tag not in ("x", "y", "z"):
                    raise ValueError(f"unknown element <imu/{child.tag}/{axis.tag}>: use x, y, z")
                i = "xyz".index(axis.tag)
                for sub in axis:
                    path = f"imu/{child.tag}/{axis.tag}/{sub.tag}"
                    if sub.tag != "noise":
                        raise ValueError(f"unknown element <{path}>: expected <noise>")
                    v = _parse_noise(sub, path)
                    v["type"] = _check_type(v["type"], path)
                    axes[triad][i] = v
        elif child.tag == "noise":  # SDF 1.4: one <noise> for the whole IMU
            tnode = child.find("type")
            ntype = _check_type(child.get("type") if tnode is None else tnode.text, "imu/noise")
            for sub in child:
                if sub.tag == "type":
                    continue
                if sub.tag not in _OLD_TRIADS:
                    raise ValueError(
                        f"unknown element <imu/noise/{sub.tag}>: use type, rate, accel"
                    )
                v = _parse_noise(sub, f"imu/noise/{sub.tag}", old_style=True)
                v["type"] = ntype
                axes[_OLD_TRIADS[sub.tag]] = [v, dict(v), dict(v)]
    return _triad(axes["gyro"]), _triad(axes["accel"])


def from_sdf(
    sdf: str | os.PathLike[str],
    seed: int | np.random.SeedSequence | None = None,
    name: str | None = None,
    normal_dtype: str = "float32",
) -> ImuNoise:
    """An ImuNoise with the Gazebo noise of the SDF ``<imu>`` element (see the module
    docstring for the meaning of each element). ``sdf`` is XML text or a file path;
    ``seed`` and ``normal_dtype`` are passed to ``ImuNoise``."""
    from fastnoise.models.imu import ImuNoise

    gyro, accel = imu_noise_params_from_sdf(sdf, name)
    return ImuNoise(gyro=gyro, accel=accel, seed=seed, normal_dtype=normal_dtype)
