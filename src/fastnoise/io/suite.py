"""The sensor-suite file: which noise model each topic (or file) of a recording gets.

A suite is TOML (``tomllib``) or JSON with the same structure::

    seed = 42                 # the suite seed (int >= 0); omitted: fresh entropy, reported
    threads = 2               # threads per noise call (default 1); the bits do not depend on it

    [topics."/imu/data"]      # a topic name, or a shell-style pattern ("/cam*/image_raw")
    model = "imu"             # ImuNoise: every other key is a constructor parameter ...
    gyro = { noise_stddev = 0.002, bias_stddev = 0.0003, bias_correlation_time = 400.0 }
    accel = { noise_stddev = 0.02 }
    covariance = "seed002"    # ... except the handler's options (see OPTIONS)

    [topics."/points"]
    model = "lidar"           # LidarNoise on sensor_msgs/PointCloud2
    distance_noise_stddev_base = 0.02

    [files."images/*.png"]    # a pattern over POSIX paths relative to the input folder
    model = "camera"          # ImageNoise
    stddev = 0.007

    [sdf]                     # optional: sensors of an SDFormat model or world file
    file = "robot.sdf"        # relative to the suite file
    topics = { imu_sensor = "/imu/data" }   # sensor name -> topic (default: its <topic>)

Models (``model = ...``): ``imu`` (:class:`~fastnoise.models.imu.ImuNoise`), ``lidar``
(:class:`~fastnoise.models.lidar.LidarNoise`), ``range``
(:class:`~fastnoise.models.range_noise.RangeNoise`; ``min_range``/``max_range`` come from
each LaserScan message, ``mean`` defaults to 0), ``camera``
(:class:`~fastnoise.models.camera.ImageNoise`), ``depth``
(:class:`fastnoise.io.files.DepthNoise`: metres, no clamp), ``odometry`` (the source
document's covariance table, no noise) and ``copy`` (left byte-identical, to exclude a
topic that a later pattern would match). An entry may give ``seed`` (its own
suite seed) and, instead of parameters, ``sdf`` (a file) and ``sensor`` (a
``<sensor name=...>``): the model is then what :func:`fastnoise.from_sdf` builds.

The first entry whose pattern matches a topic (in file order; ``[sdf]`` sensors after the
``[topics]`` entries) decides; an unmatched topic or file is copied unchanged.

Keys. A topic's (or file's) model is seeded with
``child(child(seed, model_tag("suite")), name_tag(name))`` where ``name`` is the
normalized topic name (:func:`normalize_topic`: ``"imu//data/"`` is ``"/imu/data"``) or
the file's POSIX path relative to the input folder, and ``name_tag`` is the first four
bytes (little-endian) of its SHA-256. The model then takes its own tag below that, as
with any seed (``fastnoise.core.streams`` lists the row). So a topic's noise depends only
on the suite seed, its name and its messages: any subset of the topics or files, in any
order, gets the same noise as in the whole recording.

Frames. Message ``k`` of a topic (its index within the topic, counted from the topic's
first message in the file) is frame ``k`` of its model. The IMU, a recurrence, always
starts from the topic's first message. A bag cropped in time is a new recording: its
messages count from 0 again, so they get the noise of frames 0, 1, ..., not the noise they
had in the uncropped bag, and the IMU starts afresh. To keep the uncropped noise, noise
the whole bag first and crop the result.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import posixpath
import tomllib
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

import numpy as np

from fastnoise.core.seeding import as_seed_sequence, child_seed_sequence, model_tag

__all__ = [
    "MODELS",
    "OPTIONS",
    "Entry",
    "SdfSensor",
    "Suite",
    "load_suite",
    "name_seed_sequence",
    "name_tag",
    "normalize_relpath",
    "normalize_topic",
    "sdf_sensors",
]

#: The models a suite entry may name.
MODELS = ("imu", "lidar", "range", "camera", "depth", "odometry", "copy")

#: Options of each model that are not constructor parameters: name -> allowed values
#: (a tuple of choices, or a checking function).
OPTIONS: dict[str, dict[str, Any]] = {
    # covariance: "seed002" fills sigma_white^2 + sigma_bias^2 (the source document),
    # "gazebo" sigma_white^2 only (what gz-sensors publishes), "keep" leaves them.
    # stamps: "header" takes dt from header.stamp, "log" from the bag's record times.
    "imu": {"covariance": ("seed002", "gazebo", "keep"), "stamps": ("header", "log")},
    # pose: the lidar's pose in the cloud's frame (4x4 or 3x4); default: the cloud's
    # header frame is the sensor frame. frames: a .npy/.npz holds (N, M, >=3).
    "lidar": {"pose": "pose", "frames": "bool"},
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
_SUITE_TAG = model_tag("suite")
# model_name of what from_sdf returns -> suite model
_SDF_MODELS = {"imu": "imu", "lidar": "lidar", "range": "range", "camera": "camera"}


def normalize_topic(name: str) -> str:
    """A topic name in one spelling: absolute, no repeated or trailing ``/``
    (``"imu//data/"`` -> ``"/imu/data"``). ROS 1 and ROS 2 spellings of a topic agree."""
    if not isinstance(name, str) or not name.strip("/ "):
        raise ValueError(f"topic name {name!r} is not allowed: it must name a topic")
    return "/" + "/".join(p for p in name.strip().split("/") if p)


def normalize_relpath(path: str | os.PathLike[str]) -> str:
    """A relative file path in POSIX form without ``.`` parts (``"a\\\\b/./c.png"`` on
    Windows, ``"a/b/c.png"``); absolute paths and ``..`` are refused."""
    p = PurePath(path)
    if p.is_absolute():
        raise ValueError(f"path {str(path)!r} is not allowed: it must be relative")
    text = posixpath.normpath(p.as_posix())
    if text == "." or text.startswith("../") or text == "..":
        raise ValueError(f"path {str(path)!r} is not allowed: it must lie below the input")
    return text


def name_tag(name: str) -> int:
    """The 32-bit tag of a normalized topic name or relative path: the first four bytes
    (little-endian) of its UTF-8 SHA-256."""
    return int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:4], "little")


def name_seed_sequence(seed: object, name: str) -> np.random.SeedSequence:
    """The seed of the topic or file ``name`` (normalized) under the suite ``seed``:
    ``child(child(seed, model_tag("suite")), name_tag(name))``."""
    ss = as_seed_sequence(seed)
    return child_seed_sequence(child_seed_sequence(ss, _SUITE_TAG), name_tag(name))


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
        from fastnoise.models.lidar_geometry import rigid_pose

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
        from fastnoise.models.imu import ImuNoise

        return ImuNoise(**params, seed=ss)
    if m == "lidar":
        from fastnoise.models.lidar import LidarNoise

        return LidarNoise(**params, seed=ss)
    if m == "range":
        from fastnoise.models.range_noise import RangeNoise

        params.setdefault("mean", 0.0)  # a suite may leave the white-noise mean out
        return RangeNoise(**params, seed=ss)
    if m == "camera":
        from fastnoise.models.camera import ImageNoise

        return ImageNoise(**params, seed=ss)
    if m == "depth":
        from fastnoise.io.files import DepthNoise

        return DepthNoise(**params, seed=ss)
    if m == "odometry":
        from fastnoise.models.imu_config import odometry_covariances

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


@dataclass(frozen=True)
class Suite:
    """A loaded suite: its seed, threads and entries (see the module docstring)."""

    seed: np.random.SeedSequence
    threads: int = 1
    entries: tuple[Entry, ...] = ()
    source: str = "<suite>"
    notes: tuple[str, ...] = field(default=())

    def for_topic(self, topic: str) -> Entry | None:
        """The entry that decides ``topic`` (first match), or None."""
        name = normalize_topic(topic)
        for e in self.entries:
            if e.kind == "topic" and e.matches(name):
                return e
        return None

    def for_file(self, relpath: str) -> Entry | None:
        """The entry that decides the file ``relpath`` (first match), or None."""
        name = normalize_relpath(relpath)
        for e in self.entries:
            if e.kind == "file" and e.matches(name):
                return e
        return None

    @classmethod
    def from_dict(
        cls,
        data: Mapping[str, Any],
        *,
        base: str | os.PathLike[str] = ".",
        source: str = "<suite>",
        seed: object = None,
    ) -> Suite:
        """A suite from the parsed TOML/JSON structure. ``base``: the folder relative SDF
        paths start from; ``seed`` overrides the file's."""
        if not isinstance(data, Mapping):
            raise ValueError(f"{source}: the suite must be a table")
        unknown = set(data) - set(_SUITE_KEYS)
        if unknown:
            raise ValueError(f"{source}: unknown keys {sorted(unknown)}: use {_SUITE_KEYS}")
        try:
            ss = as_seed_sequence(data.get("seed") if seed is None else seed)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{source}: {exc}") from None
        threads = data.get("threads", 1)
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"{source}: threads={threads!r} is not allowed: use an int >= 1")
        basedir = Path(base)
        entries: list[Entry] = []
        for kind, key in (("topic", "topics"), ("file", "files")):
            tables = data.get(key, {})
            if not isinstance(tables, Mapping):
                raise ValueError(f"{source}: {key} must be a table of patterns")
            for pattern, table in tables.items():
                where = f"{source}: {key}.{json.dumps(pattern)}"
                if kind == "file":
                    try:
                        pattern = normalize_relpath(pattern)
                    except ValueError as exc:
                        raise ValueError(f"{where}: {exc}") from None
                else:
                    try:
                        pattern = normalize_topic(pattern)
                    except ValueError as exc:
                        raise ValueError(f"{where}: {exc}") from None
                entries.append(_entry(where, kind, pattern, table, ss, basedir))
        notes: list[str] = []
        if "sdf" in data:
            entries += _sdf_entries(data["sdf"], ss, basedir, source, notes)
        return cls(
            seed=ss, threads=threads, entries=tuple(entries), source=source, notes=tuple(notes)
        )

    @classmethod
    def from_sdf(
        cls,
        path: str | os.PathLike[str],
        topics: Mapping[str, str] | None = None,
        *,
        seed: object = None,
        threads: int = 1,
    ) -> Suite:
        """A suite of every sensor of an SDF file that :func:`fastnoise.from_sdf`
        imports, on the topic ``topics[sensor name]`` (default: the sensor's
        ``<topic>``)."""
        table: dict[str, Any] = {"file": os.fspath(Path(path).resolve())}
        if topics:
            table["topics"] = dict(topics)
        return cls.from_dict({"sdf": table, "threads": threads}, source=os.fspath(path), seed=seed)


def _sdf_entries(
    table: object, ss: np.random.SeedSequence, base: Path, source: str, notes: list[str]
) -> list[Entry]:
    where = f"{source}: sdf"
    if not isinstance(table, Mapping) or not isinstance(table.get("file"), str):
        raise ValueError(f'{where}: give file = "<model or world .sdf>" (and topics = {{...}})')
    unknown = set(table) - {"file", "topics"}
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}: use file, topics")
    path = Path(table["file"])
    if not path.is_absolute():
        path = base / path
    mapping = table.get("topics", {})
    if not isinstance(mapping, Mapping):
        raise ValueError(f"{where}: topics must map sensor names to topic names")
    sensors = {s.name: s for s in sdf_sensors(path)}
    for name in mapping:
        if name not in sensors:
            raise ValueError(
                f"{where}: topics names sensor {name!r}, which {path} does not have with "
                f"noise (it has {sorted(sensors)})"
            )
    entries = []
    for s in sensors.values():
        topic = mapping.get(s.name, s.topic)
        if not s.importable:
            notes.append(f"SDF sensor {s.name!r} ({s.type}): not imported: {s.reason}")
            continue
        if topic is None:
            notes.append(
                f"SDF sensor {s.name!r} ({s.type}) has no <topic>: map it with "
                f'topics = {{ {s.name} = "/its/topic" }}'
            )
            continue
        entries.append(
            _entry(
                f"{where}: sensor {s.name!r}",
                "topic",
                normalize_topic(topic),
                {"sdf": str(path), "sensor": s.name},
                ss,
                base,
            )
        )
    return entries


def load_suite(path: str | os.PathLike[str], *, seed: object = None) -> Suite:
    """Load a suite from a ``.toml`` or ``.json`` file, or build one from an ``.sdf``
    (``.world``) file (every importable sensor on its ``<topic>``). ``seed`` overrides
    the file's seed."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in (".sdf", ".world", ".xml"):
        return Suite.from_sdf(p, seed=seed)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise ValueError(f"{p}: cannot read the suite: {exc.strerror}") from None
    try:
        if suffix == ".json":
            data = json.loads(raw.decode("utf-8"))
        elif suffix == ".toml":
            data = tomllib.loads(raw.decode("utf-8"))
        else:
            raise ValueError(f"{p}: a suite is a .toml, .json or .sdf file")
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{p}: not a valid {suffix[1:].upper()} file: {exc}") from None
    return Suite.from_dict(data, base=p.parent, source=str(p), seed=seed)
