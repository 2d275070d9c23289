"""Suite entries and options (split out of
:mod:`fastnoise.io.suite.suite`, which re-exports it)."""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.core.seeding import as_seed_sequence
from fastnoise.io.suite.names import name_seed_sequence, normalize_topic
from fastnoise.io.suite.sdf_sensors import _SDF_MODELS, _try_from_sdf

#: The models a suite entry may name.
MODELS = ("imu", "lidar", "carla_lidar", "range", "camera", "depth", "odometry", "copy")

#: Options of each model that are not constructor parameters: name -> allowed values
#: (a tuple of choices, or a checking function).
OPTIONS: dict[str, dict[str, Any]] = {
    # covariance: "white_and_bias" fills sigma_white^2 + sigma_bias^2 (the ROS 2 sensor
    # pipeline document's rule), "gazebo" sigma_white^2 only (what gz-sensors
    # publishes), "keep" leaves them.
    # stamps: "header" takes dt from header.stamp, "log" from the bag's record times.
    "imu": {"covariance": ("white_and_bias", "gazebo", "keep"), "stamps": ("header", "log")},
    # pose: the lidar's pose in the cloud's frame (4x4 or 3x4); default: the cloud's
    # header frame is the sensor frame. frames: a .npy/.npz holds (N, M, >=3).
    "lidar": {"pose": "pose", "frames": "bool"},
    # keep_layout: dropped points stay in place with x, y, z = NaN (the cloud keeps its
    # size, height, width, row_step) instead of being removed. frames: a .npy/.npz holds
    # (N, M, >=4) (needs keep_layout: the frames' kept counts differ).
    "carla_lidar": {"keep_layout": "bool", "frames": "bool"},
    "range": {},
    # quality: JPEG quality of re-encoded CompressedImage/JPEG files (0..100, default 95);
    # png_compression: PNG compression level (0..9, default 3); frames: a .npy/.npz
    # holds (N, H, W[, C]).
    "camera": {"quality": "quality", "png_compression": "png_level", "frames": "bool"},
    "depth": {"frames": "bool"},
    "odometry": {},
    "copy": {},
}
_COMMON = ("model", "seed", "sdf", "sensor")
_SUITE_KEYS = ("seed", "threads", "topics", "files", "sdf")


# ---------------------------------------------------------------------------------------
# entries


def _check_option(where: str, model: str, key: str, value: object) -> object:
    rule = OPTIONS[model][key]
    if isinstance(rule, tuple):
        if value not in rule:
            raise ValueError(f"{where}: {key}={value!r} is not allowed: use one of {rule}")
        return value
    if rule == "bool":
        if not isinstance(value, bool):
            raise ValueError(f"{where}: {key}={value!r} is not allowed: use true or false")
        return value
    if rule in ("quality", "png_level"):
        hi = 100 if rule == "quality" else 9
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
            raise ValueError(f"{where}: {key}={value!r} is not allowed: use an int in [0, {hi}]")
        return value
    if rule == "pose":
        from fastnoise.models.lidar.geometry import rigid_pose

        try:
            rigid_pose(key, value)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{where}: {exc}") from None
        return np.asarray(value, dtype=np.float64)
    raise AssertionError(rule)  # pragma: no cover


@dataclass(frozen=True)
class Entry:
    """One suite entry: a topic or file pattern and what it gets."""

    pattern: str  #: topic name or pattern (normalized), or a relative-path pattern
    kind: str  #: "topic" or "file"
    model: str  #: one of MODELS
    params: Mapping[str, Any]  #: constructor parameters
    options: Mapping[str, Any]  #: the model's OPTIONS given
    seed: np.random.SeedSequence  #: the suite seed this entry keys from
    where: str  #: where it was defined, for messages ("suite.toml: topics./imu")
    sdf: tuple[str, str] | None = None  #: (file, sensor name) when built by from_sdf

    def matches(self, name: str) -> bool:
        """The normalized ``name`` matches this entry's pattern."""
        return name == self.pattern or fnmatch.fnmatchcase(name, self.pattern)

    def seed_for(self, name: str) -> np.random.SeedSequence:
        """The seed of ``name``'s model (see the module docstring)."""
        return name_seed_sequence(self.seed, name)

    def build(self, name: str, **extra: Any) -> Any:
        """The model for topic or file ``name`` (normalized), keyed by its name. ``extra``
        adds constructor parameters (``min_range``/``max_range`` of a range model)."""
        ss = self.seed_for(name)
        try:
            return _construct(self, ss, extra)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{self.where}: {exc}") from None


def _construct(entry: Entry, ss: np.random.SeedSequence, extra: dict[str, Any]) -> Any:
    if entry.sdf is not None:
        model = _try_from_sdf(entry.sdf[0], entry.sdf[1], ss)
        if extra:  # rebuild with the message's figures (a range model's limits)
            params = {**model.state["params"], **extra}
            model = type(model)(**params, seed=ss)
        return model
    params = {**entry.params, **extra}
    m = entry.model
    if m == "imu":
        from fastnoise.models.imu.imu_noise import ImuNoise

        return ImuNoise(**params, seed=ss)
    if m == "lidar":
        from fastnoise.models.lidar.lidar_noise import LidarNoise

        return LidarNoise(**params, seed=ss)
    if m == "carla_lidar":
        from fastnoise.models.lidar.carla import CarlaLidarNoise

        return CarlaLidarNoise(**params, seed=ss)
    if m == "range":
        from fastnoise.models.lidar.range_noise import RangeNoise

        params.setdefault("mean", 0.0)  # a suite may leave the white-noise mean out
        return RangeNoise(**params, seed=ss)
    if m == "camera":
        from fastnoise.models.camera.image_noise import ImageNoise

        return ImageNoise(**params, seed=ss)
    if m == "depth":
        from fastnoise.io.files.files import DepthNoise

        return DepthNoise(**params, seed=ss)
    if m == "odometry":
        from fastnoise.models.imu.triad import odometry_covariances

        if params:
            raise ValueError(f"odometry takes no parameters, got {sorted(params)}")
        return odometry_covariances()
    return None  # copy


def _entry(
    where: str,
    kind: str,
    pattern: str,
    table: object,
    suite_seed: np.random.SeedSequence,
    base: Path,
) -> Entry:
    if not isinstance(table, Mapping):
        raise ValueError(f"{where}: must be a table (model = ..., parameters)")
    table = dict(table)
    model = table.pop("model", None)
    sdf_file = table.pop("sdf", None)
    sensor = table.pop("sensor", None)
    if model is None and sdf_file is None:
        raise ValueError(f"{where}: no model: give model = one of {MODELS}, or sdf and sensor")
    if model is not None and model not in MODELS:
        raise ValueError(f"{where}: model={model!r} is not allowed: use one of {MODELS}")
    seed = suite_seed
    if "seed" in table:
        try:
            seed = as_seed_sequence(table.pop("seed"))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{where}: {exc}") from None
    sdf = None
    if sdf_file is not None:
        if not isinstance(sdf_file, str) or not isinstance(sensor, str):
            raise ValueError(f"{where}: sdf and sensor must both be strings")
        sdf_path = str((base / sdf_file) if not Path(sdf_file).is_absolute() else sdf_file)
        sdf = (sdf_path, sensor)
        try:
            built = _try_from_sdf(sdf_path, sensor, 0)
        except (OSError, TypeError, ValueError) as exc:
            raise ValueError(f"{where}: {exc}") from None
        sdf_model = _SDF_MODELS.get(getattr(type(built), "model_name", ""))
        if sdf_model is None:
            raise ValueError(f"{where}: from_sdf built {type(built).__name__}: not handled")
        if model is not None and model != sdf_model:
            raise ValueError(f"{where}: model={model!r} but the SDF sensor is {sdf_model!r}")
        model = sdf_model
    elif sensor is not None:
        raise ValueError(f"{where}: sensor={sensor!r} needs sdf = <file>")
    assert model is not None
    options = {}
    for key in list(table):
        if key in OPTIONS[model]:
            options[key] = _check_option(where, model, key, table.pop(key))
    if sdf is not None and table:
        raise ValueError(f"{where}: parameters {sorted(table)} beside sdf: the SDF gives them")
    if model == "range" and ({"min_range", "max_range"} & set(table)):
        raise ValueError(
            f"{where}: min_range and max_range come from each LaserScan message "
            "(its range_min, range_max): leave them out"
        )
    if model == "carla_lidar" and options.get("frames") and not options.get("keep_layout"):
        raise ValueError(
            f"{where}: frames = true needs keep_layout = true (each frame keeps a different "
            "number of points, so dropped points must stay as NaN rows)"
        )
    if model == "range" and kind == "file":
        raise ValueError(f"{where}: model 'range' is for LaserScan topics, not files")
    entry = Entry(
        pattern=normalize_topic(pattern) if kind == "topic" else pattern,
        kind=kind,
        model=model,
        params=table,
        options=options,
        seed=seed,
        where=where,
        sdf=sdf,
    )
    # build one now so a bad parameter is refused before any data is read
    extra = {"min_range": 0.0, "max_range": 1.0} if model == "range" else {}
    entry.build(entry.pattern if kind == "topic" else "check", **extra)
    return entry
