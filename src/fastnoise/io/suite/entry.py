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
from fastnoise.io.suite.sdf_sensors import sdf_sensor_model, sdf_sensor_model_and_rate
from fastnoise.models.lidar.geometry import rigid_pose

__all__ = ["COPY", "RATE_HANDLERS", "Entry", "make_entry", "output_topic", "suite_models"]

#: The values of an entry's ``qos`` (the live node's QoS, :mod:`fastnoise.ros2`).
QOS_CHOICES = ("reliable", "sensor_data")

#: The one suite ``model`` that is no registered model: the topic or file is copied.
COPY = "copy"

#: Handlers (:mod:`fastnoise.io.ros.noise`) whose first message's time step is 1 / the
#: entry's ``rate`` option (Hz): a ``[topics]`` entry of a model with one must give
#: ``rate`` (an SDF sensor's ``<update_rate>`` gives it for the sensor's entry).
RATE_HANDLERS = ("imu",)

_GLOB = frozenset("*?[")


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
    #: the ``output`` topic given (normalized), None when left out (see
    #: :func:`output_topic`)
    output: str | None = None
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
    output = _output(where, kind, pattern, table.pop("output", None))
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
    sdf_rate: float | None = None
    if sdf_file is not None:
        if not isinstance(sdf_file, str) or not isinstance(sensor, str):
            raise ValueError(f"{where}: sdf and sensor must both be strings")
        sdf_path = str((base / sdf_file) if not Path(sdf_file).is_absolute() else sdf_file)
        sdf = (sdf_path, sensor)
        try:
            built, sdf_rate = sdf_sensor_model_and_rate(sdf_path, sensor, 0)
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
    if decl is not None and sdf is not None and sdf_rate is not None and "rate" not in options:
        if decl.option("rate") is not None:
            options["rate"] = sdf_rate
    if decl is not None and kind == "topic":
        _check_rate(where, pattern, decl, options, sdf)
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
        output=output,
        qos=qos,
    )
    # build one now so a bad parameter is refused before any data is read; a model that
    # takes parameters from each message is checked where the message type is known
    if decl is not None and not decl.message_params:
        entry.build(entry.pattern if kind == "topic" else "check")
    return entry


def _output(where: str, kind: str, pattern: str, value: object) -> str | None:
    """A checked ``output`` key: None, or a topic name (normalized) for an entry of one
    topic."""
    if value is None:
        return None
    if kind != "topic":
        raise ValueError(f"{where}: output={value!r} is not allowed: output is for topics")
    if not isinstance(value, str):
        raise ValueError(f"{where}: output={value!r} is not allowed: give a topic name (str)")
    try:
        out = normalize_topic(value)
    except ValueError as exc:
        raise ValueError(f"{where}: output: {exc}") from None
    if _GLOB & set(out):
        raise ValueError(f"{where}: output={value!r} is not allowed: it must be a topic name")
    if _GLOB & set(pattern):
        raise ValueError(
            f"{where}: output={value!r} is not allowed: the entry matches several topics "
            f"({pattern!r}), which cannot share one output topic; give each topic its own "
            "entry, or leave output out (the default rule names each output)"
        )
    if out == normalize_topic(pattern):
        raise ValueError(
            f"{where}: output={value!r} is not allowed: it is the input topic (the noised "
            "messages would be noised again)"
        )
    return out


def _check_rate(
    where: str,
    pattern: str,
    decl: Declaration,
    options: Mapping[str, Any],
    sdf: tuple[str, str] | None,
) -> None:
    """Refuse a topic entry whose handler needs ``rate`` (:data:`RATE_HANDLERS`)
    without one."""
    needs = [t for t, h in decl.messages.items() if h in RATE_HANDLERS]
    if not needs or options.get("rate") is not None:
        return
    kinds = " or ".join(t.rsplit("/", 1)[-1] for t in needs)
    fix = (
        "give the sensor an <update_rate> in the SDF, or a [topics] entry with sdf, sensor "
        "and rate = <Hz>"
        if sdf is not None
        else "give the sensor's nominal rate in Hz, e.g. rate = 200"
    )
    raise ValueError(
        f"{where}: topic {pattern}: model {decl.name!r} needs the {kinds} messages' rate: "
        f"the first message's time step is 1 / rate (no earlier stamp to take it from); "
        f"{fix}"
    )


def output_topic(entry: Entry | None, topic: str) -> str:
    """The topic a live node republishes ``topic``'s noised messages on: the entry's
    ``output`` when it gives one; else ``topic`` without a trailing ``_raw``
    (``/imu_raw`` -> ``/imu``); else ``topic`` + ``/noisy`` (``/imu`` -> ``/imu/noisy``).
    ``fastnoise apply`` does not use it (an output bag keeps the topic names)."""
    name = normalize_topic(topic)
    if entry is not None and entry.output is not None:
        return entry.output
    head, _, last = name.rpartition("/")
    if last.endswith("_raw") and len(last) > len("_raw"):
        return f"{head}/{last[: -len('_raw')]}"
    return f"{name}/noisy"
