"""The sensor-suite file: which noise model each topic (or file) of a recording gets.

A suite is TOML (``tomllib``) or JSON with the same structure::

    seed = 42                 # the suite seed (int >= 0); omitted: fresh entropy, reported
    threads = 2               # threads per noise call (default 1); the bits do not depend on it

    [topics."/imu/data_raw"]  # a topic name, or a shell-style pattern ("/cam*/image_raw")
    model = "imu"             # a registered model: every other key is a parameter ...
    gyro = { noise_stddev = 0.002, gauss_markov_stddev = 3e-4, gauss_markov_correlation_time = 400 }
    accel = { noise_stddev = 0.02 }
    covariance = "white_and_bias"  # ... except the options it declares for its handlers
    rate = 200                # Hz, required for an IMU: the first message's dt is 1 / rate
    output = "/imu/data"      # optional: where a live node republishes (default below)

    [topics."/points"]
    model = "lidar"           # RGL's lidar noise on sensor_msgs/PointCloud2
    distance_noise_stddev_base = 0.02

    [topics."/carla/lidar"]
    model = "carla_lidar"     # CARLA's drop-off, intensity and range noise
    noise_stddev = 0.02       # m; the other parameters keep CARLA's defaults

    [files."images/*.png"]    # a pattern over POSIX paths relative to the input folder
    model = "camera"          # Gazebo's per-pixel image noise
    stddev = 0.007

    [sdf]                     # optional: sensors of an SDFormat model or world file
    file = "robot.sdf"        # relative to the suite file
    topics = { imu_sensor = "/imu/data" }   # sensor -> topic (default: its <topic>)

Models (``model = ...``): the name of any registered model
(:mod:`fastnoise.core.registry`) that declares ROS message types or file formats, or
``copy`` (left byte-identical, to exclude a topic that a later pattern would match);
``fastnoise apply --models`` lists them with their messages, files and options. Built
in: ``imu`` (Imu), ``range`` (LaserScan, Range), ``lidar`` and ``carla_lidar``
(PointCloud2), ``camera``/``depth`` (Image, CompressedImage), ``odometry`` (Odometry),
and Gazebo's ``navsat`` (NavSatFix), ``magnetometer`` (MagneticField) and
``air_pressure`` (FluidPressure); what each handler reads and writes is listed in
:mod:`fastnoise.io.ros.noise`. Every other key of the table is a constructor
parameter, except ``output`` (below), the options the model declares for its handlers
(``covariance``, ``rate`` above) and its ``message_params``, which each message
supplies (a ``range`` model's ``min_range``/``max_range`` come from each LaserScan or
Range; the suite refuses them). A model without files is refused in ``[files]``,
one with neither messages nor files everywhere. Parameters are checked when the suite
is loaded, by building one model; those of a model with ``message_params`` when a topic
of a known message type is planned (``fastnoise apply``, also with ``--dry-run``, and
:class:`~fastnoise.io.ros.TopicNoise`). An entry may give ``seed`` (its own
suite seed), ``qos`` (``"reliable"``, the default, or ``"sensor_data"``: the live node's
QoS for the topic, :mod:`fastnoise.ros2`; ``fastnoise apply`` ignores it) and, instead
of parameters, ``sdf`` (a file) and ``sensor`` (a ``<sensor name=...>``, or its scoped
name ``"model::link::sensor"``): the model is then
what :func:`fastnoise.io.sdf.load_sensors` reads for it. SDF sensors of the types that
a model with ROS messages declares are applied (:func:`~fastnoise.io.suite.sdf_type_models`;
built in: ``imu``, ``lidar``/``gpu_lidar`` as ``range``, ``camera``, ``depth_camera``,
``navsat``, ``magnetometer``, ``air_pressure``); other types, and sensors to which
Gazebo adds no noise, are listed in ``Suite.notes`` (with includes that were not found:
a suite does not search a model path).

IMU rate. An IMU's time step is the difference of its message stamps, and message 0
has no earlier stamp, so its ``dt`` is ``1 / rate``: a ``[topics]`` entry of an IMU
model must give ``rate`` (Hz, its nominal message rate); an SDF IMU sensor takes it from
its ``<update_rate>`` (a ``rate`` in the entry wins), and one without (or with 0, "as
fast as possible") is refused. The refusal names the entry, the topic and the fix. The
rule is causal, so ``fastnoise apply`` and a live node give message ``k`` the same
noise from messages ``0..k`` (:mod:`fastnoise.io.ros.noise`, "Time steps"; a stamp
that repeats or goes backwards is a :class:`~fastnoise.io.ros.noise.StampWarning`).

Output topics. ``output`` (a topic name) is where a live node republishes the entry's
noised messages; :func:`~fastnoise.io.suite.entry.output_topic` gives it, or without it
the input topic with a trailing ``_raw`` dropped (``/imu_raw`` -> ``/imu``), else with
``/noisy`` appended (``/imu`` -> ``/imu/noisy``). An entry whose pattern matches several
topics cannot take one ``output`` (each topic then gets the default rule), ``output``
cannot be the input topic, nor (given or by default) the input topic of another entry
that noises, and ``[files]`` entries take none. ``fastnoise apply``
ignores ``output``: the output bag keeps every topic's name, so the same suite file
serves both.

The first entry whose pattern matches a topic (in file order; ``[sdf]`` sensors after the
``[topics]`` entries) decides; an unmatched topic or file is copied unchanged.

Keys. A topic's (or file's) model is seeded with
``child(child(seed, model_tag("suite")), name_tag(name))`` where ``name`` is the
normalized topic name (:func:`~fastnoise.io.suite.names.normalize_topic`:
``"imu//data/"`` is ``"/imu/data"``) or the file's POSIX path relative to the input
folder, and ``name_tag`` is the first four bytes (little-endian) of its SHA-256. The
model then takes its own tag below that, as with any seed (``fastnoise.core.streams``
lists the row). So a topic's noise depends only on the suite seed, its name and its
messages: any subset of the topics or files, in any order, gets the same noise as in
the whole recording.

CARLA drop-off (``model = "carla_lidar"``): the parameters are CarlaLidarNoise's
(``atmosphere_attenuation_rate`` 1/m, ``dropoff_general_rate``,
``dropoff_intensity_limit``, ``dropoff_zero_intensity``, ``noise_stddev`` m; CARLA's
defaults where left out), applied to the points in the cloud's own frame (the sensor
frame: there is no ``pose`` option). The intensity e^(-a d) is written to the field
(PCD field, PLY vertex property) named ``intensity``, which must then be a float32 or
float64 (an integer one is refused), or to column 3 of a KITTI ``.bin`` and of an
``.npy``/``.npz`` (N, >=4) array; a PointCloud2, PCD or PLY without an ``intensity``
field still gets the drop-off that the intensity drives, and nothing is stored for it.
Dropped points (and points with a NaN or infinite coordinate, which CARLA's rules drop)
are removed: a PointCloud2 becomes ``height = 1``, ``width`` = the kept count,
``row_step = width * point_step`` (an organized cloud becomes unorganized, row padding
goes), a PCD gets ``WIDTH`` = ``POINTS`` = the kept count and ``HEIGHT 1``, a PLY the
kept vertex count (a PLY with faces is refused: they index the vertices); every other
byte of a kept point is unchanged. With ``keep_layout = true`` nothing is removed: a
dropped point stays where it was with x, y, z = NaN and its other values (intensity
included) unchanged, and a PointCloud2 with a dropped point gets ``is_dense = false``;
``frames = true`` (an ``.npy``/``.npz`` stack (F, N, >=4), entry k frame k) needs it.

Frames. Message ``k`` of a topic (its index within the topic, counted from the topic's
first message in the file, or received by a live node) is frame ``k`` of its model. A
message missing from the recording (or lost upstream of a node) shifts the noise of the
later ones. The IMU and the Gazebo sensors (``navsat``, ``magnetometer``,
``air_pressure``), recurrences, always start from the topic's first message. A bag
cropped in time is a new recording: its messages count from 0 again, so they get the
noise of frames 0, 1, ..., not the noise they had in the uncropped bag, and the IMU
starts afresh. To keep the uncropped noise, noise the whole bag first and crop the
result.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.core.seeding import as_seed_sequence
from fastnoise.io.suite.entry import COPY, Entry, make_entry, output_topic
from fastnoise.io.suite.names import normalize_relpath, normalize_topic
from fastnoise.io.suite.sdf_sensors import load_sdf, sensor_rows

__all__ = ["Suite", "load_suite"]

_SUITE_KEYS = ("seed", "threads", "topics", "files", "sdf")
_GLOB = frozenset("*?[")


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
                entries.append(make_entry(where, kind, pattern, table, ss, basedir))
        notes: list[str] = []
        if "sdf" in data:
            entries += _sdf_entries(data["sdf"], ss, basedir, source, notes)
        _check_outputs(entries)
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


def _check_outputs(entries: list[Entry]) -> None:
    """Refuse an entry of one topic whose output topic (given or by the default rule)
    is the input topic of another entry that noises: a node would noise its own output
    again."""
    exact = {e.pattern: e for e in entries if e.kind == "topic" and not _GLOB & set(e.pattern)}
    for e in exact.values():
        out = output_topic(e, e.pattern)
        other = exact.get(out)
        if other is not None and other is not e and other.model != COPY and e.model != COPY:
            how = "its output" if e.output is not None else "its default output topic"
            raise ValueError(
                f"{e.where}: {how} {out} is the input topic of {other.where}, so a node "
                f"would noise its messages twice: give {e.pattern} another output = "
                '"/topic"'
            )


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
    found = load_sdf(path)
    notes.extend(f"SDF include not resolved: {u}" for u in found.unresolved)
    notes.extend(found.notes)
    sensors = {s.name: s for s in sensor_rows(found)}
    chosen: dict[str, str] = {}  # scoped name -> topic
    for name, topic in mapping.items():
        hits = [s for s in sensors.values() if name in (s.name, s.sensor)]
        if len(hits) != 1:
            what = "does not have with noise" if not hits else f"has {len(hits)} times"
            raise ValueError(
                f"{where}: topics names sensor {name!r}, which {path} {what} (it has "
                f"{sorted(sensors)}; give the scoped name model::link::sensor)"
            )
        chosen[hits[0].name] = topic
    entries = []
    for s in sensors.values():
        topic = chosen.get(s.name, s.topic)
        if not s.importable:
            notes.append(f"SDF sensor {s.name!r} ({s.type}): not imported: {s.reason}")
            continue
        if topic is None:
            notes.append(
                f"SDF sensor {s.name!r} ({s.type}) has no <topic>: map it with "
                f'topics = {{ "{s.name}" = "/its/topic" }}'
            )
            continue
        entries.append(
            make_entry(
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
    except RecursionError:
        raise ValueError(
            f"{p}: nested too deeply to be read: a suite file allows at most "
            f"{MAX_SUITE_DEPTH} levels of tables and arrays"
        ) from None
    check_depth(data, str(p))
    return Suite.from_dict(data, base=p.parent, source=str(p), seed=seed)


#: the most levels of tables and arrays a suite file may nest (a suite needs about 6)
MAX_SUITE_DEPTH = 32


def check_depth(data: object, source: str, limit: int = MAX_SUITE_DEPTH) -> None:
    """ValueError naming ``source`` and the key path when ``data`` (parsed TOML or
    JSON) nests tables and arrays more than ``limit`` levels deep; iterative, so any
    depth is checked without recursion."""
    stack: list[tuple[object, int, str]] = [(data, 0, "")]
    while stack:
        node, depth, where = stack.pop()
        if not isinstance(node, dict | list):
            continue
        if depth >= limit:
            at = where if len(where) <= 60 else where[:60] + "..."
            raise ValueError(
                f"{source}: {at} nests deeper than {limit} levels of tables and arrays: a "
                f"suite file allows at most {limit}"
            )
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for k, v in items:
            key = f"{where}.{k}" if isinstance(node, dict) else f"{where}[{k}]"
            stack.append((v, depth + 1, key.lstrip(".")))
