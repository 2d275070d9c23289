"""What each Gazebo sensor type does with its ``<noise>`` elements (gz-sensors), as the
constructor parameters of fastnoise models.

:func:`describe` turns one ``<sensor>`` node into a :class:`Plan`: its canonical type,
``params`` (registered model name -> constructor keyword arguments, without the seed)
and, when fastnoise builds nothing for it, the reason. The rules name models only by
their name in :mod:`fastnoise.core.registry`; the loader takes the class from there. The
rules, from gz-sensors (commit in ``docs/peers.rst``):

- ``imu``: one GaussianNoiseModel per axis (``ImuSensor.cc``) -> ``imu``.
- ``lidar``/``gpu_lidar`` (``ray``/``gpu_ray``; ``<lidar>`` or ``<ray>``): ``Lidar.cc``
  and ``CpuLidarSensor.cc`` build a model only for type ``gaussian`` and only if mean,
  stddev, bias_mean, dynamic_bias_stddev or dynamic_bias_correlation_time is non-zero
  (|x| > 1e-6), apply it with dt = 0 (no dynamic-bias step) and clamp with
  ``<range><min>``/``<max>`` -> ``range`` with ``flip_bias_sign=True`` and
  ``inf_outside_limits=True``: each sensor marks a true range outside [min, max] as
  -inf/+inf BEFORE the noise, so it is never noised nor clamped back in. The GPU lidar
  (``GpuLidarSensor.cc``) does it through gz-rendering's rays with ``SetClamp(false)``
  (``BaseGpuRays.hh``: data outside the clip planes near = min, far = max become
  ``-INF_D``/``INF_D``; the Ogre 2 shader tests ``l > far``, ``l < near``), then
  ``Lidar::ApplyNoise`` noises every beam and ``Lidar::Clamp`` turns NaN into max. The
  CPU lidar (``CpuLidarSensor::SetRaycastResults``) does it itself (``range < rMin``,
  ``range > rMax``) and noises and clamps finite ranges only; a NaN true range (which
  its raycast does not produce: no hit is an infinite fraction) would stay NaN there,
  and becomes max here (the GPU rule), unless ``lidar_nan="gazebo"`` (``load_sensors``),
  which gives each its own rule: ``nan_range="keep"`` (``lidar``/``ray``) or ``"max"``
  (``gpu_lidar``/``gpu_ray``).
- ``camera``: ``CameraSensor.cc``: type ``gaussian`` and mean or stddev non-zero ->
  ``camera`` (mean and stddev only; variant ``camera_variant``).
- ``depth_camera`` (``depth``): ``DepthCameraSensor.cc``, same rule -> ``depth``
  (metres, NaN/inf kept, no [0, 1] clamp; ``<camera><clip>`` near/far: gz-rendering's
  Ogre 2 depth camera turns noisy depths beyond them into -inf/+inf;
  ``uniform_floor=0.001``: its noise shader ``gaussian_noise_depth_fs.glsl`` floors
  its Box-Muller uniforms there, so no sample exceeds 3.7169 stddev).
- ``rgbd_camera`` (``rgbd``): ``RgbdCameraSensor.cc``: type ``gaussian`` -> one
  per-pixel normal for depth and colour: ``depth`` (as ``depth_camera``) and ``camera``
  with ``variant="ogre2_rgbd"`` on the same seed (they draw the same capped normal for
  a pixel; the colour noise is shaped and added to the sRGB-encoded value, and 8-bit
  colour truncated, as that shader does). With ``camera_variant="gazebo"`` the colour
  takes the plain ``"gazebo"`` variant.
- ``magnetometer`` (x, y, z), ``altimeter`` (vertical_position, vertical_velocity),
  ``air_pressure`` (pressure), ``air_speed`` (pressure), ``navsat`` (``gps``;
  position_sensing and velocity_sensing, horizontal and vertical) and ``force_torque``
  (force and torque x, y, z): one GaussianNoiseModel per component (type ``none`` ->
  None) -> the model of the same name (``air_speed``'s default
  ``pressure_units="hectopascals"``: the noise acts in hPa, as gz-sensors applies it;
  ``navsat`` with ``horizontal_units="degrees"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastnoise.io.sdf.imu import imu_triads
from fastnoise.io.sdf.noise import GZ_EPS, component, parse_noise
from fastnoise.io.sdf.xml import Node
from fastnoise.models.camera.depth import GAZEBO_UNIFORM_FLOOR

__all__ = ["ALIASES", "Plan", "describe", "noise_nodes"]

#: sdformat's alternative type names -> the canonical one (``Sensor::Load``).
ALIASES = {
    "gps": "navsat",
    "ray": "lidar",
    "gpu_ray": "gpu_lidar",
    "depth": "depth_camera",
    "rgbd": "rgbd_camera",
    "thermal": "thermal_camera",
    "segmentation": "segmentation_camera",
    "boundingbox": "boundingbox_camera",
    "wideanglecamera": "wide_angle_camera",
}
# sensor type -> (payload element(s), registered model name, ((component, path), ...))
_COMPONENTS: dict[str, tuple[tuple[str, ...], str, tuple[tuple[str, str], ...]]] = {
    "magnetometer": (("magnetometer",), "magnetometer", (("x", "x"), ("y", "y"), ("z", "z"))),
    "altimeter": (
        ("altimeter",),
        "altimeter",
        (("vertical_position", "vertical_position"), ("vertical_velocity", "vertical_velocity")),
    ),
    "air_pressure": (("air_pressure",), "air_pressure", (("pressure", "pressure"),)),
    "air_speed": (("air_speed",), "air_speed", (("pressure", "pressure"),)),
    "navsat": (
        ("navsat", "gps"),
        "navsat",
        (
            ("horizontal_position", "position_sensing/horizontal"),
            ("vertical_position", "position_sensing/vertical"),
            ("horizontal_velocity", "velocity_sensing/horizontal"),
            ("vertical_velocity", "velocity_sensing/vertical"),
        ),
    ),
    "force_torque": (
        ("force_torque",),
        "force_torque",
        tuple((f"{g}_{a}", f"{g}/{a}") for g in ("force", "torque") for a in "xyz"),
    ),
}


@dataclass
class Plan:
    """What fastnoise builds for one sensor: ``params[model] = kwargs`` (no seed), keyed
    by registered model name."""

    type: str
    params: dict[str, dict[str, Any]] = field(default_factory=dict)
    reason: str = ""


def noise_nodes(node: Node) -> list[Node]:
    """Every ``<noise>`` below ``node``, not looking inside ``<plugin>`` (a plugin's
    own elements are no sensor noise)."""
    out = []
    stack = list(reversed(node.children))
    while stack:
        n = stack.pop()
        if n.tag == "plugin":
            continue
        if n.tag == "noise":
            out.append(n)
        stack.extend(reversed(n.children))
    return out


def _payload(sensor: Node, names: tuple[str, ...]) -> Node | None:
    for name in names:  # sdformat: the first name present (navsat before gps, ...)
        found = sensor.find(name)
        if found is not None:
            return found
    return None


def _at(node: Node, path: str) -> Node | None:
    for part in path.split("/"):
        found = node.find(part)
        if found is None:
            return None
        node = found
    return node


def _nonzero(x: float) -> bool:
    return abs(x) > GZ_EPS  # not gz::math::equal(x, 0.0)


def describe(
    sensor: Node, notes: list[str], camera_variant: str, lidar_nan: str = "fastnoise"
) -> Plan:
    """The :class:`Plan` of the ``<sensor>`` node (its type attribute picks the rule;
    ``lidar_nan``: see :func:`fastnoise.io.sdf.load_sensors`)."""
    raw = sensor.attrib.get("type", "")
    stype = ALIASES.get(raw, raw)
    plan = Plan(stype)
    used: set[int] = set()
    if stype == "imu":
        imu = sensor.find("imu")
        if imu is None:
            raise sensor.error("a sensor of type imu needs an <imu> element")
        gyro, accel = imu_triads(imu, notes)
        used.update(id(n) for n in noise_nodes(imu))
        plan.params["imu"] = {"gyro": gyro, "accel": accel}
    elif stype in ("lidar", "gpu_lidar"):
        _lidar(sensor, plan, notes, used)
        if lidar_nan == "gazebo" and "range" in plan.params:
            # each lidar's own NaN rule: GPU Lidar::Clamp NaN -> max, CPU keeps NaN
            plan.params["range"]["nan_range"] = "max" if stype == "gpu_lidar" else "keep"
    elif stype in ("camera", "depth_camera", "rgbd_camera"):
        _camera(sensor, plan, notes, used, camera_variant)
    elif stype in _COMPONENTS:
        names, model, comps = _COMPONENTS[stype]
        payload = _payload(sensor, names)
        if payload is None:
            raise sensor.error(f"a sensor of type {raw} needs a <{names[0]}> element")
        kwargs: dict[str, Any] = {}
        for key, path in comps:
            holder = _at(payload, path)
            nnode = holder.find("noise") if holder is not None else None
            if nnode is None:
                kwargs[key] = None
                continue
            used.add(id(nnode))
            kwargs[key] = component(parse_noise(nnode, f"{payload.tag}/{path}/noise", notes=notes))
        if stype == "navsat":
            kwargs["horizontal_units"] = "degrees"  # gz-sensors: on latitude/longitude
        if all(v is None for k, v in kwargs.items() if k != "horizontal_units"):
            plan.reason = "every <noise> has type none"
        else:
            plan.params[model] = kwargs
    else:
        plan.reason = f"fastnoise has no model for Gazebo sensor type {raw!r}"
        return plan
    for n in noise_nodes(sensor):
        if id(n) not in used:
            raise n.error(
                f"a <noise> here is not read by Gazebo's {stype} sensor: move it or remove it"
            )
    return plan


def _lidar(sensor: Node, plan: Plan, notes: list[str], used: set[int]) -> None:
    payload = _payload(sensor, ("lidar", "ray"))
    if payload is None:
        raise sensor.error(f"a sensor of type {sensor.attrib.get('type')} needs <lidar> or <ray>")
    nnode = payload.find("noise")
    if nnode is None:
        plan.reason = "no <noise>"
        return
    used.add(id(nnode))
    v = parse_noise(nnode, f"{payload.tag}/noise", type_child=True, notes=notes)
    if v["type"] != "gaussian":
        plan.reason = (
            "type none: no noise"
            if v["type"] == "none"
            else "gz-sensors' lidar takes only type gaussian (it warns and adds no noise)"
        )
        return
    keys = ("mean", "stddev", "bias_mean", "dynamic_bias_stddev", "dynamic_bias_correlation_time")
    if not any(_nonzero(v[k]) for k in keys):
        plan.reason = (
            "gz-sensors' lidar builds no noise model when mean, stddev, bias_mean and the "
            "dynamic-bias fields are all zero"
        )
        return
    limits = _range_limits(payload)
    c = component(v)
    assert c is not None
    plan.params["range"] = {
        "mean": c["mean"],
        "stddev": c["stddev"],
        "min_range": limits[0],
        "max_range": limits[1],
        "bias_mean": c["bias_mean"],
        "bias_stddev": c["bias_stddev"],
        "precision": c["precision"],
        "flip_bias_sign": True,
        "inf_outside_limits": True,  # both gz-sensors lidars: see the module notes
    }


def _range_limits(payload: Node) -> tuple[float, float]:
    rng = payload.find("range")
    if rng is None:
        raise payload.error(f"<{payload.tag}> needs <range><min>/<max> (the clamp limits, m)")
    out = []
    for name in ("min", "max"):
        node = rng.find(name)
        if node is None:
            raise rng.error(f"<{payload.tag}/range> needs <{name}> (m)")
        try:
            out.append(float(node.text))
        except ValueError:
            raise node.error(
                f"malformed element <{payload.tag}/range/{name}>: {node.text!r} is not a number"
            ) from None
    lo, hi = out
    if not (0.0 <= lo < hi < float("inf")):
        raise rng.error(
            f"<{payload.tag}/range> has min={lo!r}, max={hi!r}: fastnoise needs "
            "0 <= min < max, finite (m)"
        )
    return lo, hi


def _camera(
    sensor: Node, plan: Plan, notes: list[str], used: set[int], camera_variant: str
) -> None:
    cams = sensor.findall("camera")
    if not cams:
        raise sensor.error(f"a sensor of type {sensor.attrib.get('type')} needs a <camera>")
    cam = cams[0]
    nnode = cam.find("noise")
    if nnode is None:
        plan.reason = "no <noise>"
        return
    used.add(id(nnode))
    v = parse_noise(nnode, "camera/noise", type_child=True, notes=notes)
    if v["type"] != "gaussian":
        plan.reason = (
            "type none: no noise"
            if v["type"] == "none"
            else f"gz-sensors' {plan.type} takes only type gaussian (it warns and adds no noise)"
        )
        return
    if plan.type != "rgbd_camera" and not (_nonzero(v["mean"]) or _nonzero(v["stddev"])):
        plan.reason = f"gz-sensors' {plan.type} adds no noise when mean and stddev are zero"
        return
    mean, stddev = float(v["mean"]), float(v["stddev"])
    if plan.type == "camera":
        plan.params["camera"] = {"mean": mean, "stddev": stddev, "variant": camera_variant}
    elif plan.type == "rgbd_camera":
        # Ogre 2: the colour noise of gaussian_noise_depth_fs.glsl (ImageNoise's
        # "ogre2_rgbd"); Ogre 1 ("gazebo") has no RGB-D noise shader, the plain one
        variant = "ogre2_rgbd" if camera_variant == "ogre2" else camera_variant
        plan.params["camera"] = {"mean": mean, "stddev": stddev, "variant": variant}
    if plan.type in ("depth_camera", "rgbd_camera"):
        near, far = _clip(cam)
        plan.params["depth"] = {
            "mean": mean,
            "stddev": stddev,
            "near": near,
            "far": far,
            "uniform_floor": GAZEBO_UNIFORM_FLOOR,
        }


def _clip(cam: Node) -> tuple[float, float]:
    """``<camera><clip><near>/<far>`` (m; camera.sdf defaults 0.1 and 100), which
    gz-sensors' depth camera sets as its clip planes."""
    out = {"near": 0.1, "far": 100.0}
    clip = cam.find("clip")
    for name in out:
        node = clip.find(name) if clip is not None else None
        if node is None:
            continue
        try:
            out[name] = float(node.text)
        except ValueError:
            raise node.error(
                f"malformed element <camera/clip/{name}>: {node.text!r} is not a number"
            ) from None
    if not (0.0 <= out["near"] < out["far"] < float("inf")):
        raise (clip or cam).error(
            f"<camera/clip> has near={out['near']!r}, far={out['far']!r}: fastnoise needs "
            "0 <= near < far, finite (m)"
        )
    return out["near"], out["far"]
