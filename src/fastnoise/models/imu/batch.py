"""The batch side of :class:`~fastnoise.models.imu.imu_noise.ImuNoise` (``num_envs=N``),
in plain Python: per-environment triads from the constructor's arguments (the shape rule
of :meth:`fastnoise.core.spec.Param.env_values` on each triad field), the state's
per-environment parameters and positions, and the batch inputs' shapes."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import fields
from typing import Any

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.models.imu import checks as _checks
from fastnoise.models.imu.triad import TriadNoise
from fastnoise.models.imu.triad_fields import TRIAD_PARAMS

_SPECS = {p.name: p for p in TRIAD_PARAMS}
_F64 = np.dtype(np.float64)


def _fields_of(name: str, value: object) -> dict[str, Any]:
    """A triad argument as a dict of fields (per-environment values kept as given)."""
    if isinstance(value, dict):
        return dict(value)
    return TriadNoise.from_value(name, value).to_dict()


def env_triads(
    gyro: object, accel: object, keywords: dict, num_envs: int
) -> tuple[list[TriadNoise], list[TriadNoise]]:
    """The checked (gyro, accel) TriadNoise of each of ``num_envs`` environments. A
    triad field (in a ``gyro``/``accel`` dict or a ``gyro_<field>=`` keyword) with one
    more leading axis than its kind, e.g. ``(N,)`` for ``bits`` or ``(N, 3)`` for a
    per-axis field, is per environment; every environment's triads are then checked
    as one model's (an error names the environment)."""
    parts = _checks.split_keywords(keywords)
    per: dict[str, dict[str, list[Any]]] = {"gyro": {}, "accel": {}}
    base: dict[str, dict[str, Any]] = {}
    for triad, value in (("gyro", gyro), ("accel", accel)):
        d = {**_fields_of(triad, value), **parts[triad]} if isinstance(value, dict) else None
        if d is None:
            d = dict(parts[triad])
        for k, v in list(d.items()):
            spec = _SPECS.get(k)
            items = None
            if spec is not None:
                named = dataclasses.replace(spec, name=f"{triad}_{k}")
                items = named.env_values(v, num_envs)
            if items is not None:
                per[triad][k] = items
                del d[k]
        base[triad] = d
    plain_g = gyro if not isinstance(gyro, dict) else None
    plain_a = accel if not isinstance(accel, dict) else None

    def one(e: int | None) -> tuple[TriadNoise, TriadNoise]:
        g_kw = {f"gyro_{k}": v for k, v in base["gyro"].items()}
        a_kw = {f"accel_{k}": v for k, v in base["accel"].items()}
        if e is not None:
            g_kw.update({f"gyro_{k}": v[e] for k, v in per["gyro"].items()})
            a_kw.update({f"accel_{k}": v[e] for k, v in per["accel"].items()})
        return _checks.triads(plain_g, plain_a, {**g_kw, **a_kw})

    if not per["gyro"] and not per["accel"]:
        g, a = one(None)
        return [g] * num_envs, [a] * num_envs
    gs, accs = [], []
    for e in range(num_envs):
        try:
            g, a = one(e)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"environment {e}: {exc}") from exc
        gs.append(g)
        accs.append(a)
    return gs, accs


def batch_params(triads: list[TriadNoise] | tuple[TriadNoise, ...]) -> dict[str, Any]:
    """A batch's triads as one dict of fields for ``state['params']``: a field equal in
    every environment as a single triad's ``to_dict`` has it, one that differs as the
    list of the environments' values (the per-environment form the constructor takes)."""
    dicts = [t.to_dict() for t in triads]
    out: dict[str, Any] = {}
    for f in fields(TriadNoise):
        values = [d[f.name] for d in dicts]
        first = values[0]
        out[f.name] = first if all(v == first for v in values[1:]) else values
    return out


def position_of(envs: list[dict[str, Any]]) -> dict[str, Any]:
    """``state['position']`` of a batch: each environment's position as one model's."""
    return {"envs": envs}


def check_position(position: object, num_envs: int) -> list[tuple]:
    """Each environment's position of a batch's ``state['position']`` checked as one
    model's (:func:`fastnoise.models.imu.checks.check_position`); in a batch every
    stream whose term is on stands at the environment's sample count (the caller
    checks that against the terms), and ``last_time`` is None."""
    if not isinstance(position, dict) or set(position) != {"envs"}:
        raise ValueError(
            f"state['position']={position!r:.80} is not allowed: a batch's position is "
            "{'envs': [one position per environment]}"
        )
    envs = position["envs"]
    if not isinstance(envs, list) or len(envs) != num_envs:
        raise ValueError(
            f"state['position']['envs'] is not allowed: it must be a list of {num_envs} "
            "positions (num_envs)"
        )
    out = []
    for e, p in enumerate(envs):
        try:
            out.append(_checks.check_position(p))
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"environment {e}: {exc}") from exc
    return out


def rows_in(name: str, x: object, num_envs: int, t: int | None = None) -> np.ndarray:
    """A batch's true values as a behaved float64 array: ``(num_envs, 3)`` for a step,
    ``(num_envs, T, 3)`` for an apply (``t`` not None: any T, or exactly ``t``)."""
    arr = _checks.real_in(name, x)
    want = (num_envs, 3) if t is None else (num_envs, arr.shape[1] if arr.ndim == 3 else -1, 3)
    if arr.shape != want:
        shown = f"({num_envs}, 3)" if t is None else f"({num_envs}, T, 3)"
        raise ValueError(
            f"{name} has shape {arr.shape}: it must be {shown} with num_envs={num_envs}"
        )
    return arr


def out_rows(name: str, out: object, shape: tuple[int, ...]) -> np.ndarray:
    """A batch's ``out_*``: a new array, or the caller's exactly ``shape`` float64."""
    if out is None:
        return np.empty(shape)
    return _arrays.output(name, out, shape, _F64)


def steps_in(dt: object, num_envs: int, t: int | None = None) -> tuple[np.ndarray, int, int]:
    """A batch's steps dt (s, finite, > 0): a scalar, one per environment ``(N,)``, or
    (``apply`` of t samples) one per environment and sample ``(N, t)``. Returns the
    float64 array and its environment and time strides (in elements)."""
    if type(dt) is float and 0.0 < dt < math.inf:  # the common case, already valid
        return np.array([dt]), 0, 0
    if not isinstance(dt, str | bytes) and np.ndim(dt) == 0:  # type: ignore[arg-type]
        return np.array([_checks.positive_scalar("dt", dt)]), 0, 0
    a = _checks.real_in("dt", dt)
    if a.shape == (num_envs,) or (t is not None and a.shape == (num_envs, t)):
        ok = np.isfinite(a) & (a > 0.0)
        if not np.all(ok):
            raise ValueError(
                f"dt contains {float(a[~ok][0])!r}: every step must be finite and > 0 s"
            )
        if a.ndim == 1:
            return a, 1, 0
        return a, t or 0, 1
    shapes = f"() or ({num_envs},)" + (f" or ({num_envs}, {t})" if t is not None else "")
    raise ValueError(f"dt has shape {a.shape}: with num_envs={num_envs} it must be {shapes} (s)")
