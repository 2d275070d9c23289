"""An IMU noise model (the registry's ``imu``) from one SDFormat ``<imu>``
(:func:`from_sdf`); :func:`imu_triads` is also the ``imu`` rule of
:func:`fastnoise.io.sdf.load_sensors`.

Each ``<noise>`` is read as sdformat ``Noise::Load`` reads it (``fastnoise.io.sdf.noise``:
the type lower-cased, a missing type attribute is ``none``, every value read for every
type) and means what gz-sensors ``GaussianNoiseModel`` does with it, per axis:

- ``mean``: mean of the white noise: a constant offset (rad/s or m/s^2 for the IMU);
- ``stddev``: per-sample white-noise sigma. Gazebo does not scale it with the update
  rate; neither does this importer (it becomes ``noise_stddev``, not a density);
- ``bias_mean``, ``bias_stddev``: turn-on bias, drawn once from N(bias_mean,
  bias_stddev) and negated with probability 1/2;
- ``dynamic_bias_stddev`` sigma, ``dynamic_bias_correlation_time`` tau (s): when both
  are > 0 the bias follows ``b = exp(-dt/tau)*b + sqrt(-sigma^2*tau/2*expm1(-2dt/tau))*w``
  starting from the turn-on bias, i.e. a Gauss-Markov bias with stationary std
  sigma*sqrt(tau/2) whose initial state is the turn-on bias (it decays); a tau <= 0
  turns it off;
- ``precision``: when > 1e-6, every output (``gaussian`` and ``gaussian_quantized``
  alike) is rounded to a multiple of it, ``std::round(y / precision) * precision``
  (halves away from zero: ``TriadNoise(rounding="gazebo")``).

Dynamic bias and precision may be given on some axes only (``gauss_markov_correlation_time``
and ``resolution`` are 0 on the others).

IMU layouts: ``<imu><angular_velocity><x><noise type=...>...`` (SDF >= 1.5) and
``<imu><noise><type>gaussian</type><rate>...</rate><accel>...</accel></noise>`` (SDF 1.4,
one set of figures for all three axes, type default ``gaussian``). Unknown or malformed
elements raise ValueError naming the element and its line.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np

from fastnoise.core import registry
from fastnoise.core.deprecation import positional_options
from fastnoise.io.sdf.noise import NOISE_KEYS, component, parse_noise
from fastnoise.io.sdf.xml import Node, SdfError, parse_text, read_source
from fastnoise.models.imu.triad import TriadNoise, gauss_markov_stddev_from_gazebo

__all__ = ["from_sdf", "imu_noise_params_from_sdf", "imu_triads"]

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


def _triad(axes: list[dict[str, Any] | None]) -> TriadNoise:
    """TriadNoise from the parsed ``<noise>`` of axes x, y, z (None: no element).

    Per axis, as gz-sensors: the dynamic bias where its stddev and correlation time are
    both > 0 (``gauss_markov_correlation_time`` 0 elsewhere), ``precision`` > 1e-6 rounded as
    ``std::round(y / precision) * precision`` (``rounding="gazebo"``; ``resolution`` 0
    elsewhere)."""
    comps = [component(v) for v in axes]
    zero = dict.fromkeys(NOISE_KEYS, 0.0)
    cs = [zero if c is None else c for c in comps]
    decays = [c["dynamic_bias_stddev"] > 0.0 for c in cs]
    res = [c["precision"] for c in cs]
    return TriadNoise(
        bias=_vec3([c["mean"] for c in cs]),
        noise_stddev=_vec3([c["stddev"] for c in cs]),
        turn_on_bias_mean=_vec3([c["bias_mean"] for c in cs]),
        turn_on_bias_stddev=_vec3([c["bias_stddev"] for c in cs]),
        gauss_markov_stddev=_vec3(
            [
                gauss_markov_stddev_from_gazebo(
                    c["dynamic_bias_stddev"], c["dynamic_bias_correlation_time"]
                )
                if d
                else 0.0
                for c, d in zip(cs, decays, strict=True)
            ]
        ),
        gauss_markov_correlation_time=_vec3([c["dynamic_bias_correlation_time"] for c in cs])
        if any(decays)
        else None,
        turn_on_bias_decays=any(decays),
        resolution=_vec3(res) if any(res) else None,
        rounding="gazebo",
    )


def _vec3(values: list[Any]) -> tuple[float, float, float]:
    x, y, z = (float(v) for v in values)
    return (x, y, z)


def imu_triads(imu: Node, notes: list[str] | None = None) -> tuple[TriadNoise, TriadNoise]:
    """(gyro, accel) TriadNoise of an ``<imu>`` node (both layouts, module docstring)."""
    axes: dict[str, list[dict[str, Any] | None]] = {
        "gyro": [None, None, None],
        "accel": [None, None, None],
    }
    for child in imu.children:
        if child.tag not in _IMU_CHILDREN:
            raise child.error(
                f"unknown element <imu/{child.tag}>: allowed are {', '.join(_IMU_CHILDREN)}"
            )
        if child.tag in _TRIADS:
            triad = _TRIADS[child.tag]
            for axis in child.children:
                if axis.tag not in ("x", "y", "z"):
                    raise axis.error(f"unknown element <imu/{child.tag}/{axis.tag}>: use x, y, z")
                i = "xyz".index(axis.tag)
                for sub in axis.children:
                    path = f"imu/{child.tag}/{axis.tag}/{sub.tag}"
                    if sub.tag != "noise":
                        raise sub.error(f"unknown element <{path}>: expected <noise>")
                    axes[triad][i] = parse_noise(sub, path, notes=notes)
        elif child.tag == "noise":  # SDF 1.4: one <noise> for the whole IMU
            tnode = child.find("type")
            raw = tnode.text if tnode is not None else child.attrib.get("type", "gaussian")
            ntype = raw.strip().lower()
            if ntype not in ("none", "gaussian", "gaussian_quantized"):
                raise (tnode or child).error(f"element <imu/noise> has noise type {raw!r}")
            for sub in child.children:
                if sub.tag == "type":
                    continue
                if sub.tag not in _OLD_TRIADS:
                    raise sub.error(f"unknown element <imu/noise/{sub.tag}>: use type, rate, accel")
                v = parse_noise(sub, f"imu/noise/{sub.tag}", type_child=True)
                v["type"] = ntype
                axes[_OLD_TRIADS[sub.tag]] = [v, dict(v), dict(v)]
    return _triad(axes["gyro"]), _triad(axes["accel"])


def _find_imu(root: Node, name: str | None) -> Node:
    if root.tag == "imu":
        return root
    if name is not None:
        for sensor in root.iter("sensor"):
            if sensor.attrib.get("name") == name:
                imu = sensor.find("imu")
                if imu is None:
                    raise sensor.error(f"sensor {name!r} has no <imu> element")
                return imu
        raise SdfError(f"no <sensor name={name!r}> in the SDF")
    found = list(root.iter("imu"))
    if not found:
        raise SdfError("no <imu> element in the SDF")
    if len(found) > 1:
        raise SdfError(
            f"the SDF has {len(found)} <imu> elements: choose one with name=<sensor name>"
        )
    return found[0]


def imu_noise_params_from_sdf(
    sdf: str | os.PathLike[str], name: str | None = None
) -> tuple[TriadNoise, TriadNoise]:
    """(gyro, accel) TriadNoise from an SDF string (XML text) or file path; ``name``
    picks a ``<sensor name=...>`` when the SDF has several IMUs. What sdformat ignores
    (a ``<type>`` child where the type is an attribute) is reported with
    ``warnings.warn``."""
    text, source = read_source(sdf)
    notes: list[str] = []
    triads = imu_triads(_find_imu(parse_text(text, source), name), notes)
    for note in notes:
        warnings.warn(note, stacklevel=2)
    return triads


def from_sdf(
    sdf: str | os.PathLike[str],
    *args: Any,
    seed: int | np.random.SeedSequence | None = None,
    name: str | None = None,
    normal_dtype: str = "float32",
) -> Any:
    """An ImuNoise (the registry's ``imu`` model) with the Gazebo noise of the SDF
    ``<imu>`` element (see the module docstring for the meaning of each element).
    ``sdf`` is XML text or a file path; ``seed`` and ``normal_dtype`` are passed to the
    model. For every sensor of a model or world file use
    :func:`fastnoise.io.sdf.load_sensors`. The options are keyword-only (by position
    they still work in 0.3, with a DeprecationWarning)."""
    if args:  # 0.2 callers passed these by position
        seed, name, normal_dtype = positional_options(
            "from_sdf",
            args,
            ("seed", "name", "normal_dtype"),
            (seed, name, normal_dtype),
            (None, None, "float32"),
            stacklevel=3,
        )
    gyro, accel = imu_noise_params_from_sdf(sdf, name)
    imu = registry.get("imu").cls
    return imu(gyro=gyro, accel=accel, seed=seed, normal_dtype=normal_dtype)
