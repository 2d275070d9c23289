"""Argument and state checks of :class:`fastnoise.models.dvl.simulator.DvlSimulator` that are not
on the per-sample path (plain Python, so they cost no compiled module): the sensors'
parameters, the truth of a batch and the size of its result, the ``position`` part of
the state, and the value beyond ``VALUE_MAX`` a refused batch met."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.core.deprecation import renamed_keys
from fastnoise.models.dvl.config import (
    RENAMED_NOISE_PARAMS,
    SENSOR_NAMES,
    TRUTH_FIELDS,
    VALUE_MAX,
    DvlSensorNoise,
    check_noise_params,
)
from fastnoise.models.dvl.dtypes import NOISE_PARAMS

_P = "state['position']"


def check_sensors(sensors: object) -> Mapping:
    """The ``sensors`` mapping of the constructor (None: every sensor perfect); unknown
    sensor names are refused."""
    if sensors is None:
        return {}
    if not isinstance(sensors, Mapping):
        raise TypeError(
            f"sensors must be a mapping of sensor name -> parameters, got {type(sensors).__name__}"
        )
    unknown = [k for k in sensors if k not in SENSOR_NAMES]
    if unknown:
        raise ValueError(f"unknown sensor(s) {unknown}: use {list(SENSOR_NAMES)}")
    return sensors


def sensor_params(name: str, value: object) -> dict:
    """One sensor's noise parameters as checked floats, from a DvlSensorNoise or a mapping
    with (some of) the keys bias, noise_stddev, anchor, anchor_probability
    (``noise_dev``, 0.2's spelling, warns). Errors name
    the sensor (``dvl_roll.bias=...``); ranges are checked by the sensor itself."""
    if isinstance(value, DvlSensorNoise):
        params = {p: getattr(value, p) for p in NOISE_PARAMS}
    elif isinstance(value, Mapping):
        value = renamed_keys(f"sensors[{name!r}]", dict(value), RENAMED_NOISE_PARAMS, stacklevel=4)
        extra = [k for k in value if k not in NOISE_PARAMS]
        if extra:
            raise ValueError(
                f"unknown parameter(s) {extra} for sensor {name!r}: use {list(NOISE_PARAMS)}"
            )
        params = {p: value.get(p, 0.0) for p in NOISE_PARAMS}
    else:
        raise TypeError(
            f"sensors[{name!r}]={value!r} is not allowed: use a DvlSensorNoise or "
            f"a dict with keys {list(NOISE_PARAMS)}"
        )
    return dict(zip(NOISE_PARAMS, check_noise_params(**params, prefix=name + "."), strict=True))


def truth_fields(truth: object) -> Callable[[str], Any]:
    """The field getter of a batch's ``truth`` (a structured array or a mapping of
    field -> array) after checking that it has every truth field."""
    if isinstance(truth, np.ndarray) and truth.dtype.names is not None:
        names: Any = truth.dtype.names
    elif isinstance(truth, Mapping):
        names = truth.keys()
    else:
        raise TypeError(
            f"truth must be a structured array or a mapping of field -> "
            f"array, got {type(truth).__name__}"
        )
    missing = [f for f in TRUTH_FIELDS if f not in names]
    if missing:
        raise ValueError(f"truth lacks field(s) {missing}: it needs {list(TRUTH_FIELDS)}")
    return truth.__getitem__  # type: ignore[union-attr]


def check_scalar_fields(truth: object) -> None:
    """A structured truth holds one value per field and record (no subarray dtype)."""
    if isinstance(truth, np.ndarray):
        for f in TRUTH_FIELDS:
            if truth.dtype[f].shape != ():
                raise TypeError(
                    f"truth[{f!r}] has the subarray dtype {truth.dtype[f]}: a truth "
                    f"record holds one value per field"
                )


def check_result_size(shape: tuple, nfields: int) -> None:
    """Refuse a result too large to address (a broadcast truth can claim any shape):
    the bytes of its messages (``nfields`` doubles each) must stay below 2**63."""
    limit = (1 << 63) // (nfields * 8)
    count = 1
    for d in shape:
        d = int(d)
        if d == 0:
            return
        count *= d
    if count > limit:
        raise ValueError(
            f"truth has the shape {tuple(shape)}: its messages would take more than 2**63 bytes"
        )


def check_position(position: object) -> list:
    """Validate ``DvlSimulator.state['position']``; return the ten sensor positions in
    table order."""
    _validate.fields(_P, position, ("sensors",))
    sensors = _validate.fields(f"{_P}['sensors']", position["sensors"], SENSOR_NAMES)  # type: ignore[index]
    pos = []
    for name in SENSOR_NAMES:
        w = f"{_P}['sensors'][{name!r}]"
        _validate.fields(w, sensors[name], ("position",))
        pos.append(_validate.counter(f"{w}['position']", sensors[name]["position"]))
    return pos


def too_large_value(bad: int, get: Callable[[str], Any], shape: tuple) -> tuple[str, float]:
    """(name, value) of the first finite truth value beyond VALUE_MAX in field ``bad``
    of a batch that met one (found again here, on the error path only), for
    ``dvl_sensor.too_large_error``."""
    field = TRUTH_FIELDS[bad]
    col = np.broadcast_to(np.asarray(get(field), dtype=np.float64), shape).reshape(-1)
    hits = np.flatnonzero(np.isfinite(col) & (np.abs(col) > VALUE_MAX))
    i = int(hits[0]) if hits.size else -1
    return f"truth[{field!r}][{i}] (flat index)", float(col[i]) if hits.size else float("nan")
