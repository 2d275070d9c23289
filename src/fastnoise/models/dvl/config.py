"""The DVL sensor table of the Metron DVL simulator document and its JSON configuration.

The table (sensor names, the quantity each measures, units, reasonable parameter ranges)
is package data (``fastnoise/data/dvl_sensors.json``). Angles are in degrees, depth and
altitude in m, velocities in m/s and the propeller speed in rev/min, as the Metron DVL
simulator document fixes.

A configuration file uses that document's field names per sensor, plus a top-level
``seed`` (the random seed)::

    {"seed": 7,
     "dvl_roll": {"bias": 0.2, "noiseDev": 0.5, "anchor": 0.0, "anchorProbability": 0.0},
     ...}

Sensors and fields left out default to 0 (a perfect sensor). Unknown sensors or fields,
values of the wrong type (strings such as "NaN", bools, objects, lists), non-finite
values and values beyond the bounds (``|bias|``, ``noiseDev``, ``|anchor|`` <=
``VALUE_MAX`` = 1e300) raise ValueError or TypeError naming the sensor and the field;
so does a file that is not JSON, or nests too deeply to read.
"""

from __future__ import annotations

import functools
import json
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType
from typing import IO, Any

from fastnoise.core import validate as _validate
from fastnoise.core.deprecation import renamed_attributes, renamed_keys
from fastnoise.core.seeding import as_seed_sequence

#: Largest magnitude of bias, noise_stddev and anchor, and of a finite truth value (C:
#: FN_DVL_VALUE_MAX): within it no finite input can overflow a measured value or the
#: composite to inf.
VALUE_MAX = 1e300
#: Seeds a configuration may give: what a model's state can record (SeedSequence
#: entropy below 2**128).
SEED_LIMIT = 2**128


class DvlRangeWarning(UserWarning):
    """A DVL noise parameter lies outside the Metron DVL simulator document's reasonable
    range."""


@dataclass(frozen=True)
class SensorSpec:
    """One row of the sensor table.

    ``field`` is the truth/message field the sensor measures, ``unit`` the unit of the
    field and of every parameter (bias, noise_stddev, anchor); the ranges are the Metron
    DVL simulator document's reasonable values, in that unit.
    """

    name: str
    field: str
    unit: str
    bias_range: tuple[float, float]
    noise_dev_range: tuple[float, float]


def _load_table() -> dict[str, SensorSpec]:
    text = resources.files("fastnoise").joinpath("data/dvl_sensors.json").read_text("utf-8")
    table = {}
    for row in json.loads(text)["sensors"]:
        table[row["name"]] = SensorSpec(
            name=row["name"],
            field=row["field"],
            unit=row["unit"],
            bias_range=(float(row["bias_range"][0]), float(row["bias_range"][1])),
            noise_dev_range=(float(row["noise_dev_range"][0]), float(row["noise_dev_range"][1])),
        )
    return table


#: Sensor name -> SensorSpec, in the order of draws of the original simulator.
SENSORS: Mapping[str, SensorSpec] = MappingProxyType(_load_table())
#: Sensor names, in table order (roll, pitch, yaw, surge, sway, heave, depth, ...).
SENSOR_NAMES: tuple[str, ...] = tuple(SENSORS)
#: Truth fields, one per sensor, in table order.
TRUTH_FIELDS: tuple[str, ...] = tuple(s.field for s in SENSORS.values())
#: Fields of a DVL message: the measured truth fields, then vn, ve, vu (m/s).
MESSAGE_FIELDS: tuple[str, ...] = (*TRUTH_FIELDS, "vn", "ve", "vu")
#: Seed-document field name -> Python parameter name.
JSON_FIELDS: Mapping[str, str] = MappingProxyType(
    {
        "bias": "bias",
        "noiseDev": "noise_stddev",
        "anchor": "anchor",
        "anchorProbability": "anchor_probability",
    }
)


def check_noise_params(
    bias: object,
    noise_stddev: object,
    anchor: object,
    anchor_probability: object,
    *,
    sensor: str | None = None,
    strict: bool = False,
    prefix: str = "",
    json_names: bool = False,
) -> tuple[float, float, float, float]:
    """Validate one sensor's parameters and return them as floats.

    Errors (always): a non-real or non-finite value, ``noise_stddev < 0``, ``|bias|``,
    ``noise_stddev`` or ``|anchor|`` beyond ``VALUE_MAX`` (1e300), ``anchor_probability``
    outside [0, 1], an unknown ``sensor``. With a ``sensor`` name, a bias or noise_stddev
    outside the table's reasonable range warns (:class:`DvlRangeWarning`), or raises
    ``ValueError`` when ``strict``. ``prefix`` is put before parameter names in
    messages (e.g. ``"dvl_roll."``); ``json_names`` names the parameters as the Metron
    DVL simulator document's JSON fields (noiseDev, anchorProbability).
    """
    nm = {v: (k if json_names else v) for k, v in JSON_FIELDS.items()}
    b = _bounded(prefix + nm["bias"], bias, -VALUE_MAX, VALUE_MAX)
    sd = _bounded(prefix + nm["noise_stddev"], noise_stddev, 0.0, VALUE_MAX)
    a = _bounded(prefix + nm["anchor"], anchor, -VALUE_MAX, VALUE_MAX)
    p = _bounded(prefix + nm["anchor_probability"], anchor_probability, 0.0, 1.0)
    if sensor is not None:
        spec = sensor_spec(sensor)
        for pname, v, (lo, hi) in (
            ("bias", b, spec.bias_range),
            ("noise_stddev", sd, spec.noise_dev_range),
        ):
            if not lo <= v <= hi:
                msg = (
                    f"{prefix}{nm[pname]}={v!r} for sensor {sensor!r} is outside the reasonable "
                    f"range [{lo:g}, {hi:g}] {spec.unit}"
                )
                if strict:
                    raise ValueError(msg + " (strict=True)")
                warnings.warn(msg, DvlRangeWarning, stacklevel=3)
    return b, sd, a, p


def _bounded(name: str, value: object, lo: float, hi: float) -> float:
    """``validate.in_range``, with an int too large for a float64 refused by name too."""
    try:
        return _validate.in_range(name, value, lo, hi)
    except OverflowError:
        raise ValueError(
            f"{name}={_short(value)} is not allowed: it must lie in [{lo}, {hi}]"
        ) from None


def sensor_spec(sensor: object) -> SensorSpec:
    """The table row of ``sensor``, else ValueError listing the known names."""
    if not isinstance(sensor, str) or sensor not in SENSORS:
        raise ValueError(f"sensor={sensor!r} is not allowed: use one of {list(SENSOR_NAMES)}")
    return SENSORS[sensor]


#: One DVL sensor's parameters that 0.3 renamed (old -> new): a standard deviation is
#: ``..._stddev`` everywhere. The old name works for one release, with a warning.
RENAMED_NOISE_PARAMS = {"noise_dev": "noise_stddev"}


@dataclass
class DvlSensorNoise:
    """Augmented white noise parameters of one sensor (units of the sensor's field).
    ``noise_dev`` (0.2) is a deprecated spelling of ``noise_stddev``."""

    bias: float = 0.0
    noise_stddev: float = 0.0
    anchor: float = 0.0
    anchor_probability: float = 0.0

    @property
    def noise_dev(self) -> float:
        """Deprecated: ``noise_stddev``."""
        _warn_noise_dev("DvlSensorNoise.noise_dev")
        return self.noise_stddev

    @noise_dev.setter
    def noise_dev(self, value: float) -> None:
        _warn_noise_dev("DvlSensorNoise.noise_dev")
        self.noise_stddev = value

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Unpickle; a 0.2 pickle's ``noise_dev`` becomes ``noise_stddev`` (with a
        DeprecationWarning) rather than an instance attribute that the property hides."""
        self.__dict__.update(
            renamed_keys("DvlSensorNoise state", dict(state), RENAMED_NOISE_PARAMS, stacklevel=4)
        )


def _warn_noise_dev(where: str) -> None:
    warnings.warn(f"{where} is deprecated: use noise_stddev", DeprecationWarning, stacklevel=3)


_dataclass_init = DvlSensorNoise.__init__


@functools.wraps(_dataclass_init)
def _init(self: DvlSensorNoise, *args: Any, **kwargs: Any) -> None:
    """The dataclass constructor, also taking ``noise_dev=`` (0.2) with a warning."""
    _dataclass_init(self, *args, **renamed_keys("DvlSensorNoise", kwargs, RENAMED_NOISE_PARAMS))


DvlSensorNoise.__init__ = _init  # type: ignore[method-assign]
del _init  # (only the method: no module-level name for it)


def _default_sensors() -> dict[str, DvlSensorNoise]:
    return {name: DvlSensorNoise() for name in SENSOR_NAMES}


@dataclass
class DvlConfig:
    """Noise parameters of every DVL sensor plus the seed (int >= 0, or None for fresh
    entropy)."""

    sensors: dict[str, DvlSensorNoise] = field(default_factory=_default_sensors)
    seed: int | None = None

    @classmethod
    def from_dict(cls, data: object, *, strict: bool = False) -> DvlConfig:
        """Build from the JSON layout (seed field names); errors name the key."""
        if not isinstance(data, Mapping):
            raise TypeError(f"a DVL configuration must be a JSON object, got {type(data).__name__}")
        strict = _validate.boolean("strict", strict)
        cfg = cls()
        for key, value in data.items():
            if key == "seed":
                cfg.seed = _check_seed(value)
                continue
            if key not in SENSORS:
                raise ValueError(
                    f"unknown key {_short(key)} in DVL configuration: use 'seed' or one of "
                    f"{list(SENSOR_NAMES)}"
                )
            if not isinstance(value, Mapping):
                raise TypeError(
                    f"{key}={_short(value)} is not allowed: it must be an object with fields "
                    f"{list(JSON_FIELDS)}"
                )
            params = {"bias": 0.0, "noise_stddev": 0.0, "anchor": 0.0, "anchor_probability": 0.0}
            for fname, fvalue in value.items():
                if not isinstance(fname, str) or fname not in JSON_FIELDS:
                    raise ValueError(
                        f"unknown field {key}.{_name(fname)} in DVL configuration: use one of "
                        f"{list(JSON_FIELDS)}"
                    )
                params[JSON_FIELDS[fname]] = fvalue
            b, sd, a, p = check_noise_params(
                **params, sensor=key, strict=strict, prefix=key + ".", json_names=True
            )
            cfg.sensors[key] = DvlSensorNoise(b, sd, a, p)
        return cfg

    def to_dict(self) -> dict[str, Any]:
        """The JSON layout: ``seed`` then one object per sensor with the Metron DVL
        simulator document's names."""
        out: dict[str, Any] = {"seed": self.seed}
        for name in SENSOR_NAMES:
            s = self.sensors.get(name, DvlSensorNoise())
            out[name] = {jname: getattr(s, pname) for jname, pname in JSON_FIELDS.items()}
        return out


def _short(value: object) -> str:
    """repr(value) cut to 80 characters (hostile configurations can be huge)."""
    try:
        r = repr(value)
    except Exception:  # e.g. an int past sys.get_int_max_str_digits()
        return f"<{type(value).__name__}>"
    return r if len(r) <= 80 else r[:77] + "..."


def _name(key: object) -> str:
    """A key as it appears in messages: a short str as it is, anything else cut short."""
    return key if isinstance(key, str) and len(key) <= 80 else _short(key)


def _check_seed(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(
            f"seed={_short(value)} is not allowed: it must be a non-negative int or null"
        )
    if not 0 <= value < SEED_LIMIT:
        raise ValueError(
            f"seed={_short(value)} is not allowed: it must lie in [0, 2**128) (what a "
            f"model's state records)"
        )
    as_seed_sequence(value)
    return int(value)


def _parse(read: Any, where: str) -> object:
    """json.load(s) with every failure a ValueError naming the source: not JSON, not
    UTF-8, an int past Python's digit limit, or nesting too deep to read."""
    try:
        return read()
    except RecursionError:
        raise ValueError(f"DVL configuration {where}: nested too deeply to read") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, int digit limit
        raise ValueError(f"DVL configuration {where} is not valid JSON: {exc}") from None


def load_config(
    source: str | os.PathLike[str] | IO[str] | Mapping[str, Any], *, strict: bool = False
) -> DvlConfig:
    """Read a DVL configuration from a JSON file path, an open text file, or a dict."""
    data: object
    if isinstance(source, Mapping):
        data = source
    elif isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as f:
            data = _parse(lambda: json.load(f), repr(os.fspath(source)))
    elif hasattr(source, "read"):
        data = _parse(lambda: json.load(source), "file")  # type: ignore[arg-type,union-attr]
    else:
        raise TypeError(
            f"source={source!r} is not allowed: use a path, an open text file or a dict"
        )
    return DvlConfig.from_dict(data, strict=strict)


def save_config(config: DvlConfig, dest: str | os.PathLike[str] | IO[str]) -> None:
    """Write ``config`` as JSON (seed field names) to a path or an open text file."""
    if not isinstance(config, DvlConfig):
        raise TypeError(f"config must be a DvlConfig, got {type(config).__name__}")
    text = json.dumps(_checked_layout(config), indent=2, allow_nan=False) + "\n"
    if isinstance(dest, (str, os.PathLike)):
        with open(dest, "w", encoding="utf-8") as f:
            f.write(text)
    elif hasattr(dest, "write"):
        dest.write(text)
    else:
        raise TypeError(f"dest={dest!r} is not allowed: use a path or an open text file")


def _checked_layout(config: DvlConfig) -> dict[str, Any]:
    """``config.to_dict()`` once every field is checked as a loaded file is (a
    DvlConfig's fields can be set to anything): so a saved file always loads again,
    and an error names the sensor and field rather than failing inside json."""
    sensors = config.sensors
    if not isinstance(sensors, Mapping):
        raise TypeError(
            f"config.sensors={_short(sensors)} is not allowed: it must be a dict of sensor "
            f"name -> DvlSensorNoise"
        )
    out: dict[str, Any] = {"seed": _check_seed(config.seed)}
    for name in sensors:
        sensor_spec(name)
    for name in SENSOR_NAMES:
        s = sensors.get(name, DvlSensorNoise())
        if not isinstance(s, DvlSensorNoise):
            raise TypeError(
                f"config.sensors[{name!r}]={_short(s)} is not allowed: it must be a DvlSensorNoise"
            )
        with warnings.catch_warnings():  # ranges warn when the file is loaded
            warnings.simplefilter("ignore", DvlRangeWarning)
            values = check_noise_params(
                s.bias, s.noise_stddev, s.anchor, s.anchor_probability,
                sensor=name, prefix=name + ".", json_names=True,
            )  # fmt: skip
        out[name] = dict(zip(JSON_FIELDS, values, strict=True))
    return out


def example_config(*, strict: bool = False) -> DvlConfig:
    """The sample configuration shipped with the package (data/dvl_example_config.json)."""
    text = resources.files("fastnoise").joinpath("data/dvl_example_config.json").read_text("utf-8")
    return DvlConfig.from_dict(json.loads(text), strict=strict)


# 0.2's name of DvlSensorNoise (the generic name is left to the adapters)
__getattr__ = renamed_attributes(
    __name__, {"SensorNoise": ("fastnoise.DvlSensorNoise", DvlSensorNoise)}
)
