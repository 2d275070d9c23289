"""One suite entry: a topic or file pattern, the registered model it gets, that model's
parameters and its handler options, checked against the model's declaration
(:mod:`fastnoise.core.registry`)."""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.core import registry
from fastnoise.core.seeding import as_seed_sequence
from fastnoise.core.spec import Declaration
from fastnoise.io.suite.names import name_seed_sequence, normalize_topic
from fastnoise.io.suite.sdf_sensors import sdf_sensor_model
from fastnoise.models.lidar.geometry import rigid_pose

__all__ = ["COPY", "Entry", "make_entry", "suite_models"]

#: The values of an entry's ``qos`` (the live node's QoS, :mod:`fastnoise.ros2`).
QOS_CHOICES = ("reliable", "sensor_data")

#: The one suite ``model`` that is no registered model: the topic or file is copied.
COPY = "copy"


def suite_models() -> list[str]:
    """The names a suite entry may give as ``model``: every registered model that
    noises a ROS message type or a file format, and ``copy``."""
    return sorted([d.name for d in registry.models() if d.messages or d.files] + [COPY])


@dataclass(frozen=True)
class Entry:
    """One suite entry: a topic or file pattern and what it gets."""

    pattern: str  #: topic name or pattern (normalized), or a relative-path pattern
    kind: str  #: "topic" or "file"
    model: str  #: a registered model's name (see :func:`suite_models`), or "copy"
    params: Mapping[str, Any]  #: constructor parameters
    options: Mapping[str, Any]  #: the handler options given (the declaration's options)
    seed: np.random.SeedSequence  #: the suite seed this entry keys from
    where: str  #: where it was defined, for messages ("suite.toml: topics./imu")
    sdf: tuple[str, str] | None = None  #: (file, sensor name) when built by from_sdf
    #: the live node's QoS for the topic ("reliable" or "sensor_data"; None: reliable);
    #: ``fastnoise apply`` ignores it
    qos: str | None = None

    @property
    def decl(self) -> Declaration | None:
        """The model's declaration (None for ``copy``)."""
        return None if self.model == COPY else registry.get(self.model)

    def option_values(self) -> dict[str, Any]:
        """The handler options: those given, over the declared defaults."""
        decl = self.decl
        values = {} if decl is None else {p.name: p.default for p in decl.options if not p.required}
        values.update(self.options)
        return values

    def matches(self, name: str) -> bool:
        """The normalized ``name`` matches this entry's pattern."""
        return name == self.pattern or fnmatch.fnmatchcase(name, self.pattern)

    def seed_for(self, name: str) -> np.random.SeedSequence:
        """The seed of ``name``'s model (see :mod:`fastnoise.io.suite.suite`)."""
        return name_seed_sequence(self.seed, name)

    def build(self, name: str, **extra: Any) -> Any:
        """The model for topic or file ``name`` (normalized), keyed by its name; None for
        ``copy``. ``extra`` are the declaration's ``message_params`` (a LaserScan's
        range limits), given by each message."""
        decl = self.decl
        if decl is None:
            return None
        ss = self.seed_for(name)
        try:
            if self.sdf is None:
                return decl.make({**self.params, **extra}, ss)
            model = sdf_sensor_model(self.sdf[0], self.sdf[1], ss)
            if extra:  # rebuilt with the message's figures
                model = type(model)(**{**model.state["params"], **extra}, seed=ss)
            return model
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{self.where}: {exc}") from None


def _declaration(where: str, model: object) -> Declaration:
    """The declaration of a suite ``model`` name (an old alias warns)."""
    allowed = suite_models()
    try:
        decl = registry.get(model)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{where}: model={model!r} is not allowed: use one of {allowed}") from None
    if not (decl.messages or decl.files):
        raise ValueError(
            f"{where}: model={model!r} is not allowed: it noises no ROS message and no file "
            f"(use one of {allowed})"
        )
    return decl


def _check_option(where: str, decl: Declaration, key: str, value: object) -> object:
    spec = decl.option(key)
    assert spec is not None
    try:
        value = spec.check(value)
        if spec.kind == "pose":  # a rule the spec cannot express: a rigid transform
            rigid_pose(key, value)
            value = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from None
    return value


def _messages_of(decl: Declaration) -> str:
    return " or ".join(t.rsplit("/", 1)[-1] for t in decl.messages) or "message"


def make_entry(
    where: str,
    kind: str,
    pattern: str,
    table: object,
    suite_seed: np.random.SeedSequence,
    base: Path,
) -> Entry:
    """The entry of one ``[topics]``/``[files]`` table (checked; ValueError naming
    ``where``, the key, the value and what is allowed)."""
    if not isinstance(table, Mapping):
        raise ValueError(f"{where}: must be a table (model = ..., parameters)")
    table = dict(table)
    model = table.pop("model", None)
    sdf_file = table.pop("sdf", None)
    sensor = table.pop("sensor", None)
    if model is None and sdf_file is None:
        raise ValueError(
            f"{where}: no model: give model = one of {suite_models()}, or sdf and sensor"
        )
    decl = None if model is None or model == COPY else _declaration(where, model)
    seed = suite_seed
    if "seed" in table:
        try:
            seed = as_seed_sequence(table.pop("seed"))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{where}: {exc}") from None
    qos = table.pop("qos", None)
    if qos is not None and (kind != "topic" or qos not in QOS_CHOICES):
        allowed = f"use one of {list(QOS_CHOICES)}" if kind == "topic" else "topics only"
        raise ValueError(f"{where}: qos={qos!r} is not allowed: {allowed}")
    sdf = None
    if sdf_file is not None:
        if not isinstance(sdf_file, str) or not isinstance(sensor, str):
            raise ValueError(f"{where}: sdf and sensor must both be strings")
        sdf_path = str((base / sdf_file) if not Path(sdf_file).is_absolute() else sdf_file)
        sdf = (sdf_path, sensor)
        try:
            built = sdf_sensor_model(sdf_path, sensor, 0)
        except (OSError, TypeError, ValueError) as exc:
            raise ValueError(f"{where}: {exc}") from None
        name = getattr(type(built), "model_name", None)
        if name not in registry.names():
            raise ValueError(f"{where}: from_sdf built {type(built).__name__}: not handled")
        sdf_decl = _declaration(where, name)
        if model is not None and (decl is None or decl.name != sdf_decl.name):
            raise ValueError(f"{where}: model={model!r} but the SDF sensor is {sdf_decl.name!r}")
        decl = sdf_decl
    elif sensor is not None:
        raise ValueError(f"{where}: sensor={sensor!r} needs sdf = <file>")
    options = {}
    if decl is not None:
        for key in list(table):
            if decl.option(key) is not None:
                options[key] = _check_option(where, decl, key, table.pop(key))
    if sdf is not None and table:
        raise ValueError(f"{where}: parameters {sorted(table)} beside sdf: the SDF gives them")
    if decl is not None:
        given = [p for p in decl.message_params if p in table]
        if given:
            raise ValueError(
                f"{where}: {' and '.join(given)} come from each {_messages_of(decl)} message: "
                "leave them out"
            )
        if decl.check_options is not None:
            try:
                decl.check_options(options)
            except (TypeError, ValueError) as exc:
                raise ValueError(f"{where}: {exc}") from None
        if kind == "file" and not decl.files:
            types = " or ".join(decl.messages)
            raise ValueError(f"{where}: model {decl.name!r} is for {types} topics, not files")
    entry = Entry(
        pattern=normalize_topic(pattern) if kind == "topic" else pattern,
        kind=kind,
        model=COPY if decl is None else decl.name,
        params=table,
        options=options,
        seed=seed,
        where=where,
        sdf=sdf,
        qos=qos,
    )
    # build one now so a bad parameter is refused before any data is read; a model that
    # takes parameters from each message is checked where the message type is known
    if decl is not None and not decl.message_params:
        entry.build(entry.pattern if kind == "topic" else "check")
    return entry
