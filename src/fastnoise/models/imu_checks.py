"""Argument and state checks of :class:`fastnoise.models.imu.ImuNoise` that are not on
the per-sample path (plain Python, so they cost no compiled module): keyword
splitting, recording inputs and steps, and the ``position`` part of its state."""

from __future__ import annotations

import math
from dataclasses import fields

import numpy as np

from fastnoise.core import validate as _validate
from fastnoise.models.imu_config import TriadNoise

_FIELDS = frozenset(f.name for f in fields(TriadNoise))
#: Keys of ``ImuNoise.state['position']``.
POSITION_KEYS = ("stream_positions", "gauss_markov", "random_walk", "sample_count", "last_time")
_P = "state['position']"


def split_keywords(kwargs: dict) -> dict:
    """{'gyro_noise_density': 1} -> {'gyro': {'noise_density': 1}, 'accel': {}}"""
    parts: dict = {"gyro": {}, "accel": {}}
    for k, v in kwargs.items():
        triad, _, field = k.partition("_")
        if triad not in parts or field not in _FIELDS:
            raise TypeError(
                f"unknown keyword {k!r}: use gyro=/accel= or gyro_<field>=, accel_<field>= "
                "with the fields of fastnoise.models.imu_config.TriadNoise"
            )
        parts[triad][field] = v
    return parts


def _real_array(name: str, value: object) -> np.ndarray:
    """``value`` as a float64 array; bools, strings and objects are refused."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be real numbers") from exc
    if arr.dtype.kind not in "fiu":
        raise TypeError(
            f"{name} has dtype {arr.dtype} ({value!r:.80}): it must be real numbers "
            "(not bools or strings)"
        )
    return arr.astype(np.float64, copy=False)


def vec3_in(name: str, x: object) -> np.ndarray:
    """One true-value vector of ``step``: 3 real numbers, C-contiguous float64."""
    a = np.ascontiguousarray(_real_array(name, x))
    if a.shape != (3,):
        raise ValueError(f"{name} has shape {a.shape}: it must be (3,)")
    return a


def rec_in(name: str, x: object) -> np.ndarray:
    """A recording of ``apply``: (N, 3) real numbers, C-contiguous float64."""
    arr = np.ascontiguousarray(_real_array(name, x))
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"{name} has shape {arr.shape}: it must be (N, 3)")
    return arr


def steps(dt: object, n: int) -> np.ndarray:
    """``apply``'s dt: a scalar (one step, shape (1,)) or N steps, each finite > 0 s."""
    if np.ndim(dt) == 0 and not isinstance(dt, str | bytes):
        d = dt.item() if isinstance(dt, np.ndarray | np.generic) else dt
        return np.array([_validate.positive("dt", d)])
    arr = _real_array("dt", dt)
    if arr.shape != (n,):
        raise ValueError(f"dt has shape {arr.shape}: it must be a scalar or ({n},)")
    ok = np.isfinite(arr) & (arr > 0.0)
    if not np.all(ok):
        raise ValueError(f"dt contains {arr[~ok][0]!r}: every step must be finite and > 0 s")
    return np.ascontiguousarray(arr) if n > 1 else arr.reshape(1).copy()


def steps_from_times(timestamps: object, n: int, last_time: float) -> tuple:
    """(steps, last timestamp) of ``apply(timestamps=...)``; ``last_time`` is the last
    timestamp of the previous such call (NaN for none)."""
    t = _real_array("timestamps", timestamps)
    if t.shape != (n,):
        raise ValueError(f"timestamps has shape {t.shape}: it must be ({n},)")
    if not np.all(np.isfinite(t)):
        raise ValueError("timestamps must be finite (s)")
    if n == 0:
        return np.ones(1), last_time
    if math.isfinite(last_time):
        first = t[0] - last_time
    elif n >= 2:
        first = t[1] - t[0]
    else:
        raise ValueError(
            "timestamps with one sample need a previous apply(timestamps=...) call "
            "to give its step; use dt= instead"
        )
    out = np.empty(n)
    out[0] = first
    out[1:] = np.diff(t)
    if not np.all(out > 0.0):
        raise ValueError(
            "timestamps must be strictly increasing (also after the previous call's "
            f"last timestamp {last_time!r})"
        )
    return out, float(t[-1])


def _rows(name: str, value: object, n: int) -> list:
    if not isinstance(value, list | tuple):
        raise TypeError(f"{name}={value!r} is not allowed: it must be a list of {n} entries")
    if len(value) != n:
        raise ValueError(f"{name} has {len(value)} entries ({value!r}): it must have {n}")
    return list(value)


def _grid(name: str, value: object, n: int, m: int, check) -> list:
    """An n x m nested list, each entry checked by ``check(name, entry)``."""
    return [
        [check(f"{name}[{i}][{j}]", v) for j, v in enumerate(_rows(f"{name}[{i}]", row, m))]
        for i, row in enumerate(_rows(name, value, n))
    ]


def check_position(position: object) -> tuple:
    """Validate ``ImuNoise.state['position']``; return (stream positions 6x3, Gauss-Markov
    2x3, random walk 2x3, sample count, last time or NaN), all plain Python values."""
    p = _validate.fields(_P, position, POSITION_KEYS)
    st = _grid(f"{_P}['stream_positions']", p["stream_positions"], 6, 3, _validate.counter)
    gm = _grid(f"{_P}['gauss_markov']", p["gauss_markov"], 2, 3, _validate.finite)
    rw = _grid(f"{_P}['random_walk']", p["random_walk"], 2, 3, _validate.finite)
    count = _validate.counter(f"{_P}['sample_count']", p["sample_count"])
    last = p["last_time"]
    last = math.nan if last is None else _validate.finite(f"{_P}['last_time']", last)
    return st, gm, rw, count, last
