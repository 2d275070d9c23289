"""Every noisy sensor of an SDF model or world file (:func:`load_sensors`).

The per-type rules are in ``fastnoise.io.sdf.sensors``; they name each model by its
registered name, and the class comes from :mod:`fastnoise.core.registry`.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.core import registry
from fastnoise.core.seeding import as_seed_sequence, child_seed_sequence, model_tag, name_tag
from fastnoise.io.sdf.sensors import ALIASES, Plan, describe, noise_nodes
from fastnoise.io.sdf.xml import Node, SdfError, parse_text, read_source

__all__ = ["SdfSensorNoise", "SdfSensors", "load_sensors", "sensor_seed_sequence"]

_SDF_TAG = model_tag("sdf")
_MAX_DEPTH = 32
_CAMERA_VARIANTS = ("ogre2", "gazebo")
_LIDAR_NAN = ("fastnoise", "gazebo")


def sensor_seed_sequence(seed: object, scoped_name: str) -> np.random.SeedSequence:
    """The seed of the sensor ``scoped_name`` (``"model::link::sensor"``) under the
    file's ``seed``: ``child(child(seed, model_tag("sdf")), name_tag(scoped_name))``
    (``name_tag``: the first four bytes, little-endian, of the name's UTF-8 SHA-256)."""
    ss = as_seed_sequence(seed)
    return child_seed_sequence(child_seed_sequence(ss, _SDF_TAG), name_tag(scoped_name))


class _ByModel(dict[str, Any]):
    """A dict keyed by registered model name where a former name (a registry alias,
    such as ``"image"`` for ``"camera"``) still reads, with a DeprecationWarning."""

    def _renamed(self, key: object) -> Any:
        if isinstance(key, str):
            for d in registry.models():
                if key in d.aliases and super().__contains__(d.name):
                    warnings.warn(
                        f"the model name {key!r} is deprecated: use {d.name!r} (load_sensors "
                        "keys params and models by registered model name)",
                        DeprecationWarning,
                        stacklevel=3,
                    )
                    return d.name
        return None

    def __missing__(self, key: object) -> Any:
        new = self._renamed(key)
        if new is None:
            raise KeyError(key)
        return self[new]

    def __contains__(self, key: object) -> bool:
        return super().__contains__(key) or self._renamed(key) is not None

    def get(self, key: str, default: Any = None) -> Any:
        if super().__contains__(key):
            return super().__getitem__(key)
        new = self._renamed(key)  # same depth as __missing__: the warning names the caller
        return default if new is None else super().__getitem__(new)


@dataclass(frozen=True)
class SdfSensorNoise:
    """One ``<sensor>`` of an SDF file with a ``<noise>`` element, and its models."""

    name: str  #: scoped name, ``model::link::sensor`` (nested models: ``a::b::link::s``)
    sensor: str  #: its ``name`` attribute
    type: str  #: canonical SDF type (``gps`` -> ``navsat``, ``ray`` -> ``lidar``, ...)
    sdf_type: str  #: the type attribute as written
    topic: str | None  #: its ``<topic>``, if given
    source: str  #: the file it is in (``"<string>"`` for XML text)
    line: int  #: line of its ``<sensor>`` tag
    #: registered model name -> constructor keyword arguments (no seed): ``imu``,
    #: ``range``, ``camera``, ``depth``, ``magnetometer``, ``altimeter``,
    #: ``air_pressure``, ``air_speed``, ``navsat``, ``force_torque``; noise components
    #: are dicts of the ``<noise>`` values in SI units, or None for type ``none``. The
    #: former key ``image`` still reads ``camera``, with a DeprecationWarning.
    params: Mapping[str, Mapping[str, Any]]
    seed: np.random.SeedSequence  #: its seed (:func:`sensor_seed_sequence`)
    models: Mapping[str, Any]  #: registered model name -> the fastnoise model (as params)
    reason: str = ""  #: why Gazebo adds no noise to it (``params`` and ``models`` empty)
    #: its ``<update_rate>`` (Hz), None when absent or 0 (Gazebo: as fast as possible)
    update_rate: float | None = None

    @property
    def noisy(self) -> bool:
        """Gazebo adds noise to this sensor (``params`` is not empty)."""
        return bool(self.params)

    @property
    def model(self) -> Any:
        """The one model of the sensor (None if it has none; ValueError for an RGBD
        camera, which has ``camera`` and ``depth``)."""
        if len(self.models) > 1:
            raise ValueError(f"sensor {self.name!r} has models {sorted(self.models)}: pick one")
        return next(iter(self.models.values()), None)

    def build(self, seed: object) -> dict[str, Any]:
        """The models of this sensor for another ``seed`` (the suite keys by topic)."""
        return _build(self.params, as_seed_sequence(seed))


def _build(params: Mapping[str, Mapping[str, Any]], ss: np.random.SeedSequence) -> dict[str, Any]:
    out = _ByModel()
    for name, kwargs in params.items():
        cls = registry.get(name).cls
        if cls is None:
            raise TypeError(f"model {name!r} has no class to build from SDF parameters")
        out[name] = cls(**kwargs, seed=ss)
    return out


@dataclass(frozen=True)
class SdfSensors(Mapping[str, SdfSensorNoise]):
    """The sensors of an SDF file with noise, by scoped name (a read-only mapping in
    file order), plus ``unresolved`` includes and ``notes`` (what sdformat ignores)."""

    sensors: Mapping[str, SdfSensorNoise]
    seed: np.random.SeedSequence
    unresolved: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=())

    def __getitem__(self, name: str) -> SdfSensorNoise:
        try:
            return self.sensors[name]
        except KeyError:
            matches = [s for s in self.sensors.values() if s.sensor == name]
            if len(matches) == 1:
                return matches[0]
            what = "no" if not matches else f"{len(matches)}"
            raise KeyError(
                f"{what} sensor named {name!r}: give one of {list(self.sensors)}"
            ) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self.sensors)

    def __len__(self) -> int:
        return len(self.sensors)

    def by_type(self, sensor_type: str) -> list[SdfSensorNoise]:
        """The sensors of one type (aliases accepted: ``gps`` is ``navsat``), file order."""
        t = ALIASES.get(sensor_type, sensor_type)
        return [s for s in self.sensors.values() if s.type == t]

    @property
    def types(self) -> dict[str, list[SdfSensorNoise]]:
        """Type -> the sensors of that type, file order."""
        out: dict[str, list[SdfSensorNoise]] = {}
        for s in self.sensors.values():
            out.setdefault(s.type, []).append(s)
        return out


@dataclass
class _Ctx:
    search_path: tuple[Path, ...]
    seed: np.random.SeedSequence
    camera_variant: str
    lidar_nan: str = "fastnoise"
    sensors: dict[str, SdfSensorNoise] = field(default_factory=dict)
    unresolved: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # include stack, for cycles


def load_sensors(
    sdf: str | os.PathLike[str],
    *,
    search_path: Sequence[str | os.PathLike[str]] = (),
    seed: object = None,
    camera_variant: str = "ogre2",
    use_environment: bool = False,
    lidar_nan: str = "fastnoise",
) -> SdfSensors:
    """Every sensor of an SDF model or world file that has a ``<noise>`` element, with
    the fastnoise models of what Gazebo (gz-sensors) does with it.

    Parameters
    ----------
    sdf : str or os.PathLike
        XML text, or the path of an ``.sdf``/``.world`` file (root ``<sdf>``,
        ``<world>``, ``<model>`` or ``<sensor>``).
    search_path : sequence of paths
        Folders ``<include><uri>model://NAME</uri>`` is looked up in (``NAME/model.config``
        names the SDF file, else ``NAME/model.sdf``). Relative URIs are taken from the
        including file's folder first. An include that is not found (or an http(s)
        Fuel URI, never fetched) is listed in ``unresolved``, not an error.
    seed : int, numpy.random.SeedSequence or None
        The file's seed; sensor ``s`` gets ``sensor_seed_sequence(seed, s.name)``, so a
        sensor's noise depends only on the seed and its scoped name.
    camera_variant : {"ogre2", "gazebo"}
        ``ImageNoise`` variant of camera noise. Gazebo (gz-sim) renders with ogre2 by
        default, whose shader shapes the noise as sign(z)*|z|**2.1 ("ogre2");
        "gazebo" is the Ogre 1 shader (gazebo-classic, gz-sim's ogre engine).
    use_environment : bool
        Also search the folders of the ``GZ_SIM_RESOURCE_PATH`` environment variable
        (``os.pathsep``-separated), after ``search_path``. Default False: the result
        depends only on the arguments.
    lidar_nan : {"fastnoise", "gazebo"}
        What the ``range`` model of a lidar with noise does with a NaN true range.
        "fastnoise" (default): max_range (m) for every lidar type. "gazebo": each
        lidar's own rule in gz-sensors: ``lidar``/``ray`` keep NaN
        (``CpuLidarSensor::SetRaycastResults`` noises finite ranges only;
        ``RangeNoise(nan_range="keep")``), ``gpu_lidar``/``gpu_ray`` give max_range
        (``Lidar::Clamp``; ``nan_range="max"``). A lidar whose ``<noise>`` gives no
        noise model gets no model either way (see ``RangeNoise.from_gazebo`` with
        ``nan_range="max"`` for the GPU lidar's NaN -> max_range without noise).

    Returns
    -------
    SdfSensors
        A mapping scoped name (``model::link::sensor``; ``model::joint::sensor`` for a
        force/torque sensor on a joint) -> :class:`SdfSensorNoise`; ``by_type(t)``
        lists one type.

    Raises
    ------
    SdfError (a ValueError)
        Malformed XML or a malformed or misplaced noise element: the message names the
        file, line and element.
    OSError
        ``sdf`` names a file that cannot be read (an include that cannot be read is
        listed in ``unresolved`` instead).
    """
    if camera_variant not in _CAMERA_VARIANTS:
        raise ValueError(
            f"camera_variant={camera_variant!r} is not allowed: use one of {_CAMERA_VARIANTS}"
        )
    if lidar_nan not in _LIDAR_NAN:
        raise ValueError(f"lidar_nan={lidar_nan!r} is not allowed: use one of {_LIDAR_NAN}")
    if isinstance(search_path, (str, os.PathLike)):
        search_path = (search_path,)
    dirs = [Path(p) for p in search_path]
    if use_environment:
        env = os.environ.get("GZ_SIM_RESOURCE_PATH", "")
        dirs += [Path(p) for p in env.split(os.pathsep) if p]
    ctx = _Ctx(tuple(dirs), as_seed_sequence(seed), camera_variant, lidar_nan)
    text, source = read_source(sdf)
    root = parse_text(text, source)
    base = Path(source).parent if source != "<string>" else Path.cwd()
    if source != "<string>":
        ctx.files.append(os.path.abspath(source))
    _walk_root(root, ctx, base)
    return SdfSensors(dict(ctx.sensors), ctx.seed, tuple(ctx.unresolved), tuple(ctx.notes))


def _walk_root(root: Node, ctx: _Ctx, base: Path) -> None:
    if root.tag == "sdf":
        for c in root.children:
            if c.tag == "world":
                _world(c, ctx, base)
            elif c.tag == "model":
                _model(c, [], ctx, base)
    elif root.tag == "world":
        _world(root, ctx, base)
    elif root.tag == "model":
        _model(root, [], ctx, base)
    elif root.tag == "sensor":
        _sensor(root, [], ctx)
    else:
        raise root.error(f"<{root.tag}> is not an SDF root: give <sdf>, <world> or <model>")


def _world(node: Node, ctx: _Ctx, base: Path) -> None:
    for c in node.children:
        if c.tag == "model":
            _model(c, [], ctx, base)
        elif c.tag == "include":
            _include(c, [], ctx, base)


def _model(node: Node, scope: list[str], ctx: _Ctx, base: Path, name: str | None = None) -> None:
    here = scope + [name or node.attrib.get("name", "")]
    if len(here) > _MAX_DEPTH:
        raise node.error(f"models nested more than {_MAX_DEPTH} deep: {'::'.join(here[:4])}::...")
    for c in node.children:
        if c.tag in ("link", "joint"):
            for s in c.findall("sensor"):
                _sensor(s, here + [c.attrib.get("name", "")], ctx)
        elif c.tag == "model":
            _model(c, here, ctx, base)
        elif c.tag == "include":
            _include(c, here, ctx, base)


def _include(node: Node, scope: list[str], ctx: _Ctx, base: Path) -> None:
    uri_node = node.find("uri")
    if uri_node is None or not uri_node.text:
        raise node.error("<include> needs a <uri>")
    uri = uri_node.text
    path = _resolve(uri, ctx.search_path, base)
    if path is None:
        where = ", ".join(str(p) for p in ctx.search_path) or "no search path given"
        ctx.unresolved.append(f"{node.where()}: <include> {uri}: not found ({where})")
        return
    key = os.path.abspath(path)
    if key in ctx.files or len(ctx.files) >= _MAX_DEPTH:
        raise node.error(f"<include> {uri} includes itself (through {ctx.files[-1]})")
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        ctx.unresolved.append(f"{node.where()}: <include> {uri}: {path}: {exc.strerror}")
        return
    root = parse_text(text, str(path))
    model = root.find("model") if root.tag == "sdf" else (root if root.tag == "model" else None)
    if model is None:
        ctx.notes.append(f"{node.where()}: <include> {uri}: no <model> in {path}: skipped")
        return
    name_node = node.find("name")
    name = name_node.text if name_node is not None and name_node.text else None
    ctx.files.append(key)
    try:
        if node.attrib.get("merge", "").strip().lower() in ("true", "1") and scope:
            # merged: the included model's links and models become the parent's
            _model(model, scope[:-1], ctx, path.parent, name=scope[-1])
        else:
            _model(model, scope, ctx, path.parent, name=name)
    finally:
        ctx.files.pop()


def _resolve(uri: str, search_path: tuple[Path, ...], base: Path) -> Path | None:
    if uri.startswith(("http://", "https://")):
        return None  # a Fuel URI: fastnoise never downloads
    if uri.startswith("model://"):
        rel = uri[len("model://") :]
        candidates = [d / rel for d in search_path]
    elif uri.startswith("file://"):
        candidates = [Path(uri[len("file://") :])]
    else:
        p = Path(uri)
        candidates = [p] if p.is_absolute() else [base / p] + [d / p for d in search_path]
    for c in candidates:
        if c.is_dir():
            found = _model_dir_file(c)
            if found is not None:
                return found
        elif c.is_file():
            return c
    return None


def _model_dir_file(folder: Path) -> Path | None:
    """The SDF file of a model folder: the highest-version ``<sdf>`` of its
    ``model.config``, else ``model.sdf``."""
    config = folder / "model.config"
    if config.is_file():
        try:
            root = parse_text(config.read_text(encoding="utf-8"), str(config))
        except (OSError, SdfError):
            root = None
        if root is not None:
            best: tuple[tuple[int, ...], str] | None = None
            for s in root.findall("sdf"):
                try:
                    ver = tuple(int(x) for x in s.attrib.get("version", "0").split("."))
                except ValueError:
                    ver = (0,)
                if s.text and (best is None or ver > best[0]):
                    best = (ver, s.text)
            if best is not None and (folder / best[1]).is_file():
                return folder / best[1]
    plain = folder / "model.sdf"
    return plain if plain.is_file() else None


def _sensor(node: Node, scope: list[str], ctx: _Ctx) -> None:
    if not noise_nodes(node):
        return
    plain = node.attrib.get("name", "")
    scoped = "::".join([*scope, plain])
    if scoped in ctx.sensors:
        first = ctx.sensors[scoped]
        raise node.error(
            f"a second sensor named {scoped!r} (the first is at {first.source}, line "
            f"{first.line}): sensor names must be unique in their link"
        )
    plan: Plan = describe(node, ctx.notes, ctx.camera_variant, ctx.lidar_nan)
    ss = sensor_seed_sequence(ctx.seed, scoped)
    try:
        models = _build(plan.params, ss)
    except (TypeError, ValueError) as exc:
        raise node.error(f"sensor {scoped!r}: {exc}") from None
    topic_node = node.find("topic")
    ctx.sensors[scoped] = SdfSensorNoise(
        update_rate=_update_rate(node, scoped),
        name=scoped,
        sensor=plain,
        type=plan.type,
        sdf_type=node.attrib.get("type", ""),
        topic=(topic_node.text or None) if topic_node is not None else None,
        source=node.source,
        line=node.line,
        params=_ByModel(plan.params),
        seed=ss,
        models=models,
        reason=plan.reason,
    )


def _update_rate(node: Node, scoped: str) -> float | None:
    """The sensor's ``<update_rate>`` in Hz (None when absent or 0)."""
    rate_node = node.find("update_rate")
    if rate_node is None or not rate_node.text:
        return None
    try:
        rate = float(rate_node.text)
    except ValueError:
        raise rate_node.error(
            f"sensor {scoped!r}: <update_rate> {rate_node.text!r} is not a number (Hz)"
        ) from None
    if not math.isfinite(rate) or rate < 0.0:
        raise rate_node.error(
            f"sensor {scoped!r}: <update_rate> {rate_node.text!r} is not allowed: it must be "
            "a finite rate >= 0 (Hz; 0: as fast as possible)"
        )
    return rate or None
