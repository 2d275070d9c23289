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

import dataclasses
import math
import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

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
    "matrix3": "a 3x3 matrix of real numbers (a scalar: that multiple of I; a length-3 "
    "vector: the diagonal)",
    "pose": "a 4x4 or 3x4 rigid transform",
    "triad": "a TriadNoise (or a dict of its parameters, or None)",
    "component": "a dict of Gazebo <noise> values, or None",
    "mapping": "a mapping",
    "seed": "an int >= 0, a numpy.random.SeedSequence or None",
    "array": "an array",
    "object": "an object",
}

#: Kinds whose values ``low``/``high`` bound (each component of a vector or matrix).
BOUNDED_KINDS = ("real", "int", "vector3", "matrix3")
#: The shape of a value of each kind once checked (None: no fixed shape).
SHAPES: dict[str, tuple[int, ...] | None] = {
    "real": (),
    "int": (),
    "bool": (),
    "choice": (),
    "vector3": (3,),
    "matrix3": (3, 3),
}

#: Kinds a batch of environments may give per environment (``num_envs=N``): a value of
#: shape ``(N, *shape)``, environment i's value at index i (:meth:`Param.env_values`).
BATCH_KINDS = ("real", "int", "vector3", "matrix3")


def format_number(x: float) -> str:
    """A bound as people write it: 1e30 and 1e-6 (not 1e+30, 1e-06), 2**64 for a large
    power of two, inf."""
    if isinstance(x, int) and not isinstance(x, bool) and x >= 2**32 and x & (x - 1) == 0:
        return f"2**{x.bit_length() - 1}"
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return re.sub(r"e\+?(-?)0*(\d)", r"e\1\2", f"{x:g}")


_LITERAL = re.compile(r"(``.*?``)")


def _rst(text: str) -> str:
    """Plain text as reStructuredText: ``*`` and ``|`` outside literals escaped."""
    parts = _LITERAL.split(text)
    return "".join(
        p if p.startswith("``") else p.replace("*", "\\*").replace("|", "\\|") for p in parts
    )


@dataclass(frozen=True)
class Param:
    """One parameter of a model (or one option of a model's handler in a suite file).

    ``low``/``high`` bound a real, int, vector3 or matrix3 (each component; ``None``:
    unbounded on that side; ``low_open``/``high_open`` exclude the bound), and ``also``
    lists values allowed besides the bounds (``inf`` for "no limit", ``0`` for "off").
    A ``None`` default means None is allowed too (the doc says what it means). ``unit``
    is the SI unit (``""`` for a dimensionless number). ``alters_bits``: a change of
    this parameter changes the output bits (False for ``threads``-like parameters
    that change only the speed, or only whether a doubtful value warns or raises).
    ``keyword_only``: the constructor takes it by keyword only. ``fields`` are the
    entries of a ``component``, ``triad`` or ``mapping`` value, as specs. ``rule``
    states, in words, a condition across parameters that the spec cannot check (the
    constructor does). ``in_state``: the value is kept in ``state['params']`` (False
    for what ``from_state`` is given again, as SensorSimulator's ``source``).
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
    also: tuple[Any, ...] = ()
    fields: tuple[Param, ...] = ()
    rule: str = ""
    in_state: bool = True

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(
                f"Param {self.name!r}: kind={self.kind!r} is not allowed: use one of "
                f"{sorted(KINDS)}"
            )
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"Param {self.name!r}: a choice needs its choices")
        if (self.low is not None or self.high is not None) and self.kind not in BOUNDED_KINDS:
            raise ValueError(
                f"Param {self.name!r}: a {self.kind} has no bounds (only {list(BOUNDED_KINDS)})"
            )

    @property
    def required(self) -> bool:
        """The parameter has no default."""
        return self.default is REQUIRED

    @property
    def shape(self) -> tuple[int, ...] | None:
        """The shape of the checked value (``()`` a scalar, ``(3,)`` a vector3, ...);
        None where the kind fixes none."""
        return SHAPES.get(self.kind)

    def bounds(self) -> str:
        """The bounds in words: ``in [0, 1e30]``, ``> 0``, ``""`` for none."""
        lo, hi = self.low, self.high
        if lo is not None and hi is not None:
            return (
                f"in {'(' if self.low_open else '['}{format_number(lo)}, "
                f"{format_number(hi)}{')' if self.high_open else ']'}"
            )
        if lo is not None:
            return f"{'>' if self.low_open else '>='} {format_number(lo)}"
        if hi is not None:
            return f"{'<' if self.high_open else '<='} {format_number(hi)}"
        return ""

    def allowed(self, *, unit: bool = True) -> str:
        """What the parameter allows, in words (the tail of its error messages; the
        docs' tables give the unit a column of its own: ``unit=False``)."""
        if self.kind == "choice":
            parts = [f"one of {list(self.choices)}"]
        else:
            parts = [KINDS[self.kind]]
        if self.fields and self.kind in ("component", "mapping"):
            parts[0] += f" with any of the keys {[f.name for f in self.fields]}"
        if self.kind in BOUNDED_KINDS:
            # "in [a, b]" says finite; one bound or none needs the word
            bounds = self.bounds()
            if self.kind != "int" and not (self.low is not None and self.high is not None):
                bounds = " and ".join(b for b in ("finite", bounds) if b)
            if self.also:
                bounds += " or " + " or ".join(format_number(v) for v in self.also)
            if bounds:
                each = "each " if self.kind in ("vector3", "matrix3") else ""
                sep = " " if bounds.startswith("in ") and not each else ", "
                parts[0] += f"{sep}{each}{bounds}"
        if self.rule:
            parts.append(self.rule)
        text = ", ".join(parts)
        if self.default is None and "None" not in text:
            text += ", or None"
        if unit and self.unit:
            text += f" ({self.unit})"
        return text

    def plain(self, value: object) -> Any:
        """``value`` (a model's attribute of this name) as ``state['params']`` keeps it:
        plain Python values that JSON, ``==`` and the constructor all take (a float, an
        int, a bool, a list for a vector or matrix, a dict for a triad or component)."""
        if value is None:
            return None
        kind = self.kind
        if kind == "real":
            return float(value)  # type: ignore[arg-type]
        if kind == "int":
            return int(value)  # type: ignore[call-overload]
        if kind == "bool":
            return bool(value)
        if kind in ("vector3", "matrix3", "pose", "array"):
            return np.asarray(value).tolist()
        if kind == "triad":
            return value.to_dict()  # type: ignore[attr-defined]
        if kind in ("component", "mapping"):
            return dict(value)  # type: ignore[call-overload]
        if isinstance(value, np.generic):
            return value.item()
        return value

    def is_per_env(self, value: object) -> bool:
        """Whether ``value`` has the shape of a per-environment value of this spec: one
        more (leading) axis than a checked value of its kind (``(N,)`` for a real or
        int, ``(N, 3)`` for a vector3, ``(N, 3, 3)`` for a matrix3). Other kinds have
        no per-environment form."""
        shape = self.shape
        if self.kind not in BATCH_KINDS or shape is None or isinstance(value, (str, bytes)):
            return False
        try:
            return int(np.ndim(value)) == len(shape) + 1  # type: ignore[arg-type]
        except (TypeError, ValueError):  # ragged nested sequences
            return False

    def env_values(self, value: object, num_envs: int) -> list[Any] | None:
        """The batch rule: ``value`` split into its ``num_envs`` per-environment values
        when it is one (:meth:`is_per_env`), else None (one value for every
        environment). A leading axis of another length is refused (ValueError naming
        the parameter, the shape and ``num_envs``); each element is then checked by
        the caller (:meth:`check`, or the model's own checks for fields of a triad)."""
        if not self.is_per_env(value):
            return None
        try:
            arr = np.asarray(value, dtype=object)
        except (TypeError, ValueError):
            raise self._refuse(value) from None
        want = (num_envs, *(self.shape or ()))
        if arr.shape != want:
            raise ValueError(
                f"{self.name} of shape {arr.shape} is not allowed with num_envs={num_envs}: "
                f"a per-environment value has shape {want} (environment i's value at [i])"
            )
        return [arr[i].tolist() if arr.ndim > 1 else arr[i] for i in range(num_envs)]

    def check_batch(self, value: object, num_envs: int) -> Any:
        """``value`` checked for a batch of ``num_envs`` environments: a per-environment
        value (:meth:`env_values`) is checked element by element (each error names
        ``name[i]``) and returned as a float64 (int64 for an int) array of shape
        ``(num_envs, *shape)``; anything else as :meth:`check`."""
        items = self.env_values(value, num_envs)
        if items is None:
            return self.check(value)
        checked = [
            dataclasses.replace(self, name=f"{self.name}[{i}]").check(v)
            for i, v in enumerate(items)
        ]
        return np.array(checked, dtype=np.int64 if self.kind == "int" else np.float64)

    def _refuse(self, value: object, error: type[Exception] = ValueError) -> Exception:
        shown = repr(value)
        if len(shown) > 80:  # a huge int or array: its start says enough
            shown = shown[:60] + "..."
        return error(f"{self.name}={shown} is not allowed: it must be {self.allowed()}")

    def _in_bounds(self, v: float) -> bool:
        if v in self.also:
            return True
        if not math.isfinite(v):
            return False
        if self.low is not None and (v <= self.low if self.low_open else v < self.low):
            return False
        return not (self.high is not None and (v >= self.high if self.high_open else v > self.high))

    def _reals(self, value: object) -> np.ndarray:
        """``value`` as a float64 array of real numbers; a bool, a string or an object
        anywhere in it is refused (TypeError naming the parameter), not converted."""
        try:
            items = np.asarray(value, dtype=object)
        except (TypeError, ValueError):
            raise self._refuse(value) from None
        for x in items.flat:
            # numpy's timedelta64 passes for a numbers.Real: refused by its dtype
            if (
                isinstance(x, (bool, np.bool_))
                or not isinstance(x, numbers.Real)
                or (isinstance(x, np.generic) and x.dtype.kind not in "iuf")
            ):
                raise self._refuse(value, TypeError)
        try:
            return np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):  # ragged, or an int beyond the doubles
            raise self._refuse(value) from None

    def check(self, value: object) -> Any:
        """``value`` checked against this spec (and converted: a real to float, a
        vector3 to a float64 array of shape (3,), a matrix3 to (3, 3), a component to
        a dict with every key of its fields); TypeError or ValueError naming the
        parameter, the value and what is allowed. The ``rule`` across parameters, and
        kinds whose rules a spec cannot express (triad, mapping, pose, seed, array,
        object), are left to the model's constructor."""
        kind = self.kind
        if value is None and (self.default is None or None in self.choices):
            return None
        if kind == "real":
            try:
                v = validate.finite(self.name, value)
            except TypeError:
                raise self._refuse(value, TypeError) from None
            except (ValueError, OverflowError):  # not finite, or an int beyond the doubles
                v = float(value) if isinstance(value, (float, np.floating)) else math.nan
                if v in self.also:
                    return v  # inf where inf means "no limit"
                raise self._refuse(value) from None
            if not self._in_bounds(v):
                raise self._refuse(value)
            return v
        if kind == "int":
            if (
                isinstance(value, (bool, np.bool_))
                or not isinstance(value, numbers.Integral)
                or (isinstance(value, np.generic) and value.dtype.kind not in "iu")
            ):
                raise self._refuse(value, TypeError)
            v = int(value)
            if v not in self.also and (
                (self.low is not None and (v <= self.low if self.low_open else v < self.low))
                or (self.high is not None and (v >= self.high if self.high_open else v > self.high))
            ):
                raise self._refuse(value)
            return v
        if kind == "bool":
            try:
                return validate.boolean(self.name, value)
            except TypeError:
                raise self._refuse(value, TypeError) from None
        if kind == "choice":
            if value is None or isinstance(value, bool) or value not in self.choices:
                raise self._refuse(value)
            return value
        if kind == "vector3":
            arr = self._reals(value)
            if arr.ndim == 0:
                arr = np.full(3, float(arr))
            if arr.shape != (3,) or not all(self._in_bounds(float(x)) for x in arr):
                raise self._refuse(value)
            return arr
        if kind == "matrix3":
            arr = self._reals(value)
            if arr.ndim == 0:
                arr = np.eye(3) * float(arr)
            elif arr.shape == (3,):
                arr = np.diag(arr)
            if arr.shape != (3, 3) or not all(self._in_bounds(float(x)) for x in arr.flat):
                raise self._refuse(value)
            return arr
        if kind == "component" and self.fields:
            if not isinstance(value, Mapping):
                raise self._refuse(value, TypeError)
            known = {f.name: f for f in self.fields}
            unknown = [k for k in value if k not in known]
            if unknown:
                raise ValueError(
                    f"{self.name}={dict(value)!r} is not allowed: it has the unknown keys "
                    f"{unknown} (allowed are {list(known)})"
                )
            return {
                k: dataclasses.replace(f, name=f"{self.name}[{k!r}]").check(value[k])
                if k in value
                else f.default
                for k, f in known.items()
            }
        return value


def params_table(params: tuple[Param, ...], caption: str) -> str:
    """``params`` as a reStructuredText list-table (the docs' model pages)."""
    rows = [
        f".. list-table:: {caption}",
        "   :header-rows: 1",
        "   :widths: 18 30 10 12 6 24",
        "",
        "   * - name",
        "     - allowed",
        "     - unit",
        "     - default",
        "     - alters bits",
        "     - meaning",
    ]
    for p in params:
        if p.required:
            default = "(required)"
        elif isinstance(p.default, float) and math.isinf(p.default):
            default = format_number(p.default)
        else:
            default = f"``{p.default!r}``"
        rows += [
            f"   * - ``{p.name}``",
            f"     - {_rst(p.allowed(unit=False))}",
            f"     - {_rst(p.unit) or '-'}",
            f"     - {default}",
            f"     - {'yes' if p.alters_bits else 'no'}",
            f"     - {_rst(p.doc)}",
        ]
    return "\n".join(rows) + "\n"


@dataclass(frozen=True)
class Declaration:
    """Everything a model says about itself, once (see the module docstring).

    ``messages`` maps a ROS message type (``"sensor_msgs/Imu"``) to the handler that
    noises it (a name of :mod:`fastnoise.io.ros`'s handlers: ``imu``, ``scan``,
    ``points``, ``points_drop``, ``image``, ``depth_image``, ``compressed_image``,
    ``odometry``); ``files`` maps a file format (``image``, ``cloud``, ``npy``,
    ``npz``) to the handler of :mod:`fastnoise.io.files` (``image``, ``depth_image``,
    ``points``, ``points_drop``, ``imu``, ``array``). ``sdf_types`` are the
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

    def check_params(
        self, values: Mapping[str, Any], *, num_envs: int | None = None
    ) -> dict[str, Any]:
        """``values`` (constructor arguments by name) checked against their specs, in
        declaration order, each converted as :meth:`Param.check` converts it: the one
        validation of every model's constructor. Only the specs' ``rule`` across
        parameters, and kinds a spec cannot check in full (triad, mapping, pose, seed,
        array, object), are left to the constructor. A name that is not declared is a
        TypeError (a constructor bug, not a user's). With ``num_envs`` (a batch of
        environments) a value may be per environment (:meth:`Param.check_batch`)."""
        known = {p.name: p for p in self.params}
        unknown = [k for k in values if k not in known]
        if unknown:
            raise TypeError(f"model {self.name!r} declares no parameters {unknown}")
        if num_envs is not None:
            return {
                p.name: p.check_batch(values[p.name], num_envs)
                for p in self.params
                if p.name in values
            }
        return {p.name: p.check(values[p.name]) for p in self.params if p.name in values}

    def state_params(self, model: object) -> dict[str, Any]:
        """``state['params']`` of ``model``: each declared parameter kept in the state,
        read from the model's attribute of that name (:meth:`Param.plain`). A model whose
        attribute of a parameter's name is something else (a current value, not the
        constructor's) writes its own ``_params``."""
        return {p.name: p.plain(getattr(model, p.name)) for p in self.params if p.in_state}

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
        return params_table(self.params, f"Parameters of ``{self.name}``")


#: The two parameters of every model that takes a batch of environments (docs/batching):
#: ``num_envs=N`` steps N environments at once; ``env=i`` is environment i alone, keyed
#: as environment i of a batch (:func:`fastnoise.core.seeding.env_seed_sequence`).
#: ``state['params']`` holds them only when they are set (the model's ``_params`` adds
#: them), so the states of single models stay as they were before batches.
ENV_PARAMS = (
    Param(
        "num_envs",
        "int",
        "number of environments stepped at once (inputs and outputs gain a leading axis "
        "of this length); None: one model, no env axis",
        default=None,
        low=1,
        high=2**31,
        high_open=True,
        rule="not with env",
        in_state=False,
    ),
    Param(
        "env",
        "int",
        "this model is environment env of a batch: it draws what environment env of a "
        "model built with num_envs draws; None: the model's own key",
        default=None,
        low=0,
        high=2**31,
        high_open=True,
        rule="not with num_envs",
        in_state=False,
    ),
)


def check_envs(num_envs: object, env: object) -> tuple[int | None, int | None]:
    """``num_envs`` and ``env`` checked by :data:`ENV_PARAMS` (both given is refused:
    an environment of a batch is chosen by indexing the batch, not by an offset)."""
    n = ENV_PARAMS[0].check(num_envs)
    e = ENV_PARAMS[1].check(env)
    if n is not None and e is not None:
        raise ValueError(
            f"env={env!r} is not allowed with num_envs={num_envs!r}: give num_envs for a "
            "batch (environments 0..num_envs-1) or env for one environment, not both"
        )
    return n, e


def env_ids(value: object, num_envs: int) -> np.ndarray:
    """The environments a ``reset(env_ids=...)`` names, as sorted unique int64 indices:
    None (all), an int, int indices (any array-like; repeats allowed, negative ones
    refused) or a boolean mask of shape ``(num_envs,)``. Refusals name ``env_ids``."""
    if value is None:
        return np.arange(num_envs, dtype=np.int64)
    arr = np.asarray(value)
    if arr.dtype == np.bool_:
        if arr.shape != (num_envs,):
            raise ValueError(
                f"env_ids, a boolean mask of shape {arr.shape}, is not allowed: a mask "
                f"has shape ({num_envs},) (num_envs)"
            )
        return np.flatnonzero(arr).astype(np.int64)
    if arr.dtype.kind not in "iu" and not (arr.size == 0 and arr.dtype.kind == "f"):
        raise TypeError(
            f"env_ids={value!r:.80} is not allowed: use None, an int, int indices or a "
            f"boolean mask of shape ({num_envs},)"
        )
    if arr.ndim > 1:
        raise ValueError(
            f"env_ids of shape {arr.shape} is not allowed: indices are a scalar or 1-D"
        )
    ids = arr.astype(np.int64).reshape(-1)
    bad = ids[(ids < 0) | (ids >= num_envs)]
    if bad.size:
        raise IndexError(
            f"env_ids holds {int(bad[0])}, which is not allowed: indices must be in "
            f"[0, {num_envs}) (num_envs={num_envs})"
        )
    return np.unique(ids)
