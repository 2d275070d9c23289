"""What a model declares about itself, once: its name, key tags, parameters, and the
messages, files and SDF sensors it serves.

A model class carries one :class:`Declaration` as its ``declaration`` attribute; the
registry (:mod:`fastnoise.core.registry`) collects them, and every surface that
enumerates models (suite files, SDF import, ROS message and file dispatch, the command
line, Dask, the contract suite, the pinned digests, the docs' parameter tables) reads
the registry instead of a list of its own.

Parameters are :class:`Param` specs in the manner of scikit-learn's declared parameter
constraints: a name, a kind, bounds, a unit, a default and a line of doc, and whether a
change alters the output bits. :meth:`Param.check` validates a value with the one error
format of :mod:`fastnoise.core.validate` ("``name=value`` is not allowed: ...").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fastnoise.core import validate


class _Required:
    """The default of a parameter that has none (it must be given)."""

    def __repr__(self) -> str:
        return "REQUIRED"


#: The ``default`` of a parameter that must be given.
REQUIRED: Any = _Required()

#: Parameter kinds and what each accepts.
KINDS = {
    "real": "a real number",
    "int": "an int",
    "bool": "True or False",
    "choice": "one of the listed choices",
    "vector3": "a scalar or a length-3 vector of real numbers",
    "matrix3": "a 3x3 matrix of real numbers",
    "pose": "a 4x4 or 3x4 rigid transform",
    "triad": "a TriadNoise (or a dict of its parameters, or None)",
    "component": "a dict of Gazebo <noise> values, or None",
    "seed": "an int >= 0, a numpy.random.SeedSequence or None",
    "array": "an array",
    "object": "an object",
}


@dataclass(frozen=True)
class Param:
    """One parameter of a model (or one option of a model's handler in a suite file).

    ``low``/``high`` bound a real, int or vector3 (``None``: unbounded on that side;
    ``low_open``/``high_open`` exclude the bound). ``unit`` is the SI unit (``""`` for
    a dimensionless number). ``alters_bits``: a change of this parameter changes the
    output bits (False for ``threads``-like parameters that change only the speed).
    """

    name: str
    kind: str
    doc: str
    unit: str = ""
    default: Any = REQUIRED
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    choices: tuple[Any, ...] = ()
    alters_bits: bool = True
    keyword_only: bool = True

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(
                f"Param {self.name!r}: kind={self.kind!r} is not allowed: use one of "
                f"{sorted(KINDS)}"
            )
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"Param {self.name!r}: a choice needs its choices")

    @property
    def required(self) -> bool:
        """The parameter has no default."""
        return self.default is REQUIRED

    def allowed(self) -> str:
        """What the parameter allows, in words (the tail of its error messages)."""
        if self.kind == "choice":
            return f"one of {list(self.choices)}"
        text = KINDS[self.kind]
        if self.kind in ("real", "int", "vector3"):
            lo = "" if self.low is None else f"{'>' if self.low_open else '>='} {self.low:g}"
            hi = "" if self.high is None else f"{'<' if self.high_open else '<='} {self.high:g}"
            bounds = " and ".join(b for b in (lo, hi) if b)
            if self.kind != "int":
                text += ", finite"
            if bounds:
                text += f", {bounds}"
            if self.unit:
                text += f" ({self.unit})"
        return text

    def _refuse(self, value: object, error: type[Exception] = ValueError) -> Exception:
        return error(f"{self.name}={value!r} is not allowed: it must be {self.allowed()}")

    def _in_bounds(self, v: float) -> bool:
        if self.low is not None and (v <= self.low if self.low_open else v < self.low):
            return False
        return not (self.high is not None and (v >= self.high if self.high_open else v > self.high))

    def check(self, value: object) -> Any:
        """``value`` checked against this spec (and converted: a real to float, a
        vector3 to a float64 array); TypeError or ValueError naming the parameter, the
        value and what is allowed. Kinds whose rules a spec cannot express (triad,
        component, pose, seed, array, object) are left to the model's constructor."""
        kind = self.kind
        if kind == "real":
            try:
                v = validate.finite(self.name, value)
            except TypeError:
                raise self._refuse(value, TypeError) from None
            except ValueError:
                raise self._refuse(value) from None
            if not self._in_bounds(v):
                raise self._refuse(value)
            return v
        if kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise self._refuse(value, TypeError)
            if not self._in_bounds(value):
                raise self._refuse(value)
            return int(value)
        if kind == "bool":
            try:
                return validate.boolean(self.name, value)
            except TypeError:
                raise self._refuse(value, TypeError) from None
        if kind == "choice":
            try:
                return validate.choice(self.name, value, self.choices)
            except ValueError:
                raise self._refuse(value) from None
        if kind == "vector3":
            try:
                arr = validate.vector3(self.name, value)
            except (TypeError, ValueError):
                raise self._refuse(value) from None
            if not all(self._in_bounds(float(x)) for x in arr):
                raise self._refuse(value)
            return arr
        return value


@dataclass(frozen=True)
class Declaration:
    """Everything a model says about itself, once (see the module docstring).

    ``messages`` maps a ROS message type (``"sensor_msgs/Imu"``) to the handler that
    noises it (a name of :mod:`fastnoise.io.ros`'s handlers: ``imu``, ``scan``,
    ``points``, ``points_drop``, ``image``, ``depth_image``, ``compressed_image``,
    ``odometry``); ``files`` maps a file kind (``image``, ``cloud``, ``array``,
    ``imu_npz``) to the handler of :mod:`fastnoise.io.files`. ``sdf_types`` are the
    SDFormat sensor types whose ``<noise>`` this model applies to a recorded topic.
    ``options`` are the suite-file options of those handlers (not constructor
    parameters). ``shared_tags`` names the key tags this model shares with another
    model on purpose, with the reason (the stream table keeps their streams apart, or
    says why they are the same). ``aliases`` are former names: they still load, with a
    DeprecationWarning naming ``name``.

    ``example(cls)`` builds a model of class ``cls`` with every term on, and
    ``exercise(model)`` runs it (advancing it) and returns an array: the contract suite
    (:mod:`fastnoise.testing`) and the pinned digests use them. ``build`` makes a
    model from suite parameters and a seed (default:
    ``cls(**params, seed=seed)``); ``message_params`` are constructor parameters that
    each message supplies (a LaserScan's range limits), not the suite file.
    """

    name: str
    summary: str
    tags: tuple[str, ...] = ()
    params: tuple[Param, ...] = ()
    messages: Mapping[str, str] = field(default_factory=dict)
    files: Mapping[str, str] = field(default_factory=dict)
    sdf_types: tuple[str, ...] = ()
    options: tuple[Param, ...] = ()
    shared_tags: Mapping[str, str] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    message_params: tuple[str, ...] = ()
    example: Callable[[type], Any] | None = None
    exercise: Callable[[Any], Any] | None = None
    build: Callable[[Mapping[str, Any], Any], Any] | None = None
    check_options: Callable[[Mapping[str, Any]], None] | None = None
    cls: Any = None  #: the model class (set by the registry)

    def param(self, name: str) -> Param:
        """The spec of parameter ``name`` (KeyError naming the known ones)."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(
            f"model {self.name!r} has no parameter {name!r}: it has {[p.name for p in self.params]}"
        )

    def option(self, name: str) -> Param | None:
        """The spec of suite option ``name``, or None."""
        for p in self.options:
            if p.name == name:
                return p
        return None

    def make(self, params: Mapping[str, Any], seed: object) -> Any:
        """A model from suite ``params`` (constructor keywords, no seed) and ``seed``."""
        if self.build is not None:
            return self.build(params, seed)
        if self.cls is None:
            raise TypeError(f"model {self.name!r} has neither a class nor a build function")
        return self.cls(**params, seed=seed)

    def params_table(self) -> str:
        """The parameters as a reStructuredText list-table (the docs' model pages)."""
        rows = [
            f".. list-table:: Parameters of ``{self.name}``",
            "   :header-rows: 1",
            "",
            "   * - name",
            "     - allowed",
            "     - unit",
            "     - default",
            "     - alters bits",
            "     - meaning",
        ]
        for p in self.params:
            default = "(required)" if p.required else f"``{p.default!r}``"
            rows += [
                f"   * - ``{p.name}``",
                f"     - {p.allowed()}",
                f"     - {p.unit or '-'}",
                f"     - {default}",
                f"     - {'yes' if p.alters_bits else 'no'}",
                f"     - {p.doc}",
            ]
        return "\n".join(rows) + "\n"
