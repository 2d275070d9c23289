"""Field parsers of :class:`fastnoise.models.imu.triad.TriadNoise` (private): each
turns one constructor argument into its stored form, refusing a bad value by name."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from fastnoise.core import validate as _validate


def _triple(v: object) -> tuple[float, float, float]:
    """A field that __post_init__ has made a 3-tuple (typed for the checker)."""
    assert isinstance(v, tuple)
    return v  # type: ignore[return-value]


#: Largest magnitude of every noise, bias, scale, misalignment, G-sensitivity,
#: full-scale and resolution value (in its unit): so sigma**2 and every term of the
#: measurement stay finite (see csrc/imu.h). Far beyond any physical IMU.
PARAM_MAX = 1e150
#: Smallest finite full_scale and resolution: 1/lsb stays finite.
PARAM_MIN = 1e-150


def _real(name: str, value: object, *, allow_inf: bool = False, limit: bool = True) -> float:
    """One real number (not a bool or a string), finite unless ``allow_inf``; with
    ``limit``, a finite one has magnitude <= PARAM_MAX."""
    if isinstance(value, np.generic) and value.dtype.kind not in "iuf":
        raise TypeError(f"{name}={value!r} is not allowed: it must be a real number")
    if allow_inf and isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        try:
            v = float(value)
        except OverflowError:  # an int beyond the doubles: too large, as a finite value
            raise ValueError(
                f"{name}={value!r:.60} is not allowed: its magnitude must be at most "
                f"{PARAM_MAX:g} (or inf)"
            ) from None
        if math.isnan(v):
            raise ValueError(f"{name}={value!r} is not allowed: it must not be NaN")
    else:
        v = _validate.finite(name, value)
    if limit and math.isfinite(v) and abs(v) > PARAM_MAX:
        raise ValueError(
            f"{name}={value!r} is not allowed: its magnitude must be at most {PARAM_MAX:g}"
        )
    return v


def _positive(name: str, value: object) -> float:
    """A finite real number > 0; numpy timedeltas, datetimes, bools and complex
    numbers are refused by name (``numbers.Real`` lets a timedelta64 through)."""
    if isinstance(value, np.generic) and value.dtype.kind not in "iuf":
        raise TypeError(f"{name}={value!r} is not allowed: it must be a real number")
    return _validate.positive(name, value)


def _seq(name: str, value: object) -> list | None:
    """``value`` as a list (from a list, tuple or ndarray), or None for a scalar."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, list | tuple):
        return list(value)
    return None


def _vec(
    name: str,
    value: object,
    *,
    nonneg: bool = False,
    allow_inf: bool = False,
    limit: bool = True,
) -> tuple:
    """A scalar (all three axes) or a length-3 sequence, each entry checked by name."""
    items = _seq(name, value)
    if items is None:
        items = [_real(name, value, allow_inf=allow_inf, limit=limit)] * 3
    elif len(items) != 3:
        raise ValueError(
            f"{name}={value!r} has {len(items)} entries: it must be a scalar or a length-3 vector"
        )
    out = tuple(
        _real(f"{name}[{i}]", v, allow_inf=allow_inf, limit=limit) for i, v in enumerate(items)
    )
    if nonneg:
        for i, v in enumerate(out):
            if v < 0.0:
                raise ValueError(f"{name}[{i}]={v!r} is not allowed: it must be >= 0")
    return out


def _mat3(name: str, value: object, *, zero_diagonal: bool = False) -> tuple:
    """A 3x3 matrix (a scalar s means s*I, a length-3 vector a diagonal)."""
    rows = _seq(name, value)
    if rows is None:
        s = _real(name, value)
        arr = np.eye(3) * s
    elif len(rows) == 3 and all(_seq(name, r) is None for r in rows):
        arr = np.diag(_vec(name, rows))
    else:
        cells = [_seq(name, r) for r in rows]
        if len(rows) != 3 or any(c is None or len(c) != 3 for c in cells):
            raise ValueError(
                f"{name}={value!r} is not allowed: it must be a scalar, a length-3 vector or 3x3"
            )
        arr = np.array(
            [
                [_real(f"{name}[{i}][{j}]", v) for j, v in enumerate(c or ())]
                for i, c in enumerate(cells)
            ]
        )
    if zero_diagonal and np.any(np.diag(arr) != 0.0):
        raise ValueError(
            f"{name}={value!r} is not allowed: its diagonal must be zero "
            "(the diagonal is scale_factor)"
        )
    return tuple(tuple(float(v) for v in row) for row in arr)


#: Values of ``TriadNoise.rounding``: ties to even (``round(y * (1/lsb)) * lsb``), or
#: Gazebo's ``std::round(y / lsb) * lsb`` (halves away from zero).
ROUNDINGS = ("nearest_even", "gazebo")


def _rounding(value: object, bits: int | None) -> str:
    """``rounding``: one of ROUNDINGS; "gazebo" only without ``bits`` (the ADC
    quantization rounds ties to even)."""
    if not isinstance(value, str) or value not in ROUNDINGS:
        raise ValueError(f"rounding={value!r} is not allowed: use one of {list(ROUNDINGS)}")
    if value == "gazebo" and bits is not None:
        raise ValueError(
            f"rounding={value!r} is not allowed with bits={bits!r}: the ADC quantization "
            "of bits always rounds ties to even (use resolution= for Gazebo's precision)"
        )
    return value


def _resolution(value: object) -> tuple:
    """``resolution``: per axis in [PARAM_MIN, PARAM_MAX], or 0 (no quantization on
    that axis)."""
    res = _vec("resolution", value)
    for i, r in enumerate(res):
        if r != 0.0 and not r >= PARAM_MIN:
            raise ValueError(
                f"resolution[{i}]={r!r} is not allowed: every component must lie in "
                f"[{PARAM_MIN:g}, {PARAM_MAX:g}], or be 0 (no quantization on that axis)"
            )
    return tuple(abs(r) for r in res)  # (-0.0 stored as 0.0)


def _axis_taus(value: object, gauss_markov_stddev: tuple) -> tuple:
    """``gauss_markov_correlation_time``: per axis finite and > 0 s, or 0 (no Gauss-Markov term
    on that axis, whose ``gauss_markov_stddev`` must then be 0)."""
    tau = _vec("gauss_markov_correlation_time", value, limit=False)
    if any(t < 0.0 for t in tau):  # (any finite tau: exp(-dt/tau) stays in [0, 1])
        raise ValueError(
            f"gauss_markov_correlation_time={value!r} is not allowed: every component must be "
            "finite and > 0 s, or 0 (no Gauss-Markov term on that axis)"
        )
    for i, (t, s) in enumerate(zip(tau, gauss_markov_stddev, strict=True)):
        if t == 0.0 and s != 0.0:
            raise ValueError(
                f"gauss_markov_stddev[{i}]={s!r} is not allowed with "
                f"gauss_markov_correlation_time[{i}]=0: "
                "a Gauss-Markov bias needs tau > 0 s on its axis (0 turns the term off there)"
            )
    return tuple(abs(t) for t in tau)


def parse_fields(t: Any) -> None:
    """Check every field of the TriadNoise ``t`` (in its ``__post_init__``) and store
    it in its canonical form (3-tuples, 3x3 tuples, bools, an int), refusing a bad
    value by name."""
    put = object.__setattr__
    for name in ("noise_stddev", "noise_density", "turn_on_bias_stddev", "gauss_markov_stddev"):
        put(t, name, _vec(name, getattr(t, name), nonneg=True))
    put(
        t,
        "random_walk_density",
        _vec("random_walk_density", t.random_walk_density, nonneg=True),
    )
    for name in ("bias", "turn_on_bias_mean", "scale_factor"):
        put(t, name, _vec(name, getattr(t, name)))
    if any(s <= -1.0 for s in _triple(t.scale_factor)):
        raise ValueError(
            f"scale_factor={t.scale_factor!r} is not allowed: every component must be > -1"
        )
    # the flags first: the checks below take their truth values
    for name in ("gauss_markov_steady_state", "turn_on_bias_decays"):
        if not isinstance(getattr(t, name), (bool, np.bool_)):
            raise TypeError(f"{name}={getattr(t, name)!r} is not allowed: use True/False")
        put(t, name, bool(getattr(t, name)))
    put(t, "misalignment", _mat3("misalignment", t.misalignment, zero_diagonal=True))
    put(t, "g_sensitivity", _mat3("g_sensitivity", t.g_sensitivity))
    if t.gauss_markov_correlation_time is not None:
        put(
            t,
            "gauss_markov_correlation_time",
            _axis_taus(t.gauss_markov_correlation_time, _triple(t.gauss_markov_stddev)),
        )
    elif (
        any(_triple(t.gauss_markov_stddev)) or t.turn_on_bias_decays or t.gauss_markov_steady_state
    ):
        raise ValueError(
            "gauss_markov_correlation_time=None is not allowed with a Gauss-Markov bias "
            "(gauss_markov_stddev, gauss_markov_steady_state or turn_on_bias_decays): "
            "give tau in s, > 0"
        )
    if t.gauss_markov_steady_state and t.turn_on_bias_decays:
        raise ValueError(
            "gauss_markov_steady_state=True is not allowed with turn_on_bias_decays=True: "
            "the Gauss-Markov state can start from one of them only"
        )
    fs = _vec("full_scale", t.full_scale, allow_inf=True)
    for i, v in enumerate(fs):
        if not v >= PARAM_MIN:
            raise ValueError(
                f"full_scale[{i}]={v!r} is not allowed: it must be inf (no saturation) "
                f"or lie in [{PARAM_MIN:g}, {PARAM_MAX:g}]"
            )
    put(t, "full_scale", fs)
    if t.bits is not None:
        if isinstance(t.bits, np.generic) and t.bits.dtype.kind not in "iu":
            raise TypeError(f"bits={t.bits!r} is not allowed: it must be an int")
        b = _validate.integer("bits", t.bits, 1, 33)
        if not all(math.isfinite(v) for v in _triple(t.full_scale)):
            raise ValueError(
                f"bits={b!r} is not allowed with full_scale={t.full_scale!r}: "
                "ADC quantization needs a finite full_scale"
            )
        if t.resolution is not None:
            raise ValueError(
                f"resolution={t.resolution!r} is not allowed together with "
                f"bits={b!r}: give one quantization step"
            )
        put(t, "bits", int(b))
    if t.resolution is not None:
        put(t, "resolution", _resolution(t.resolution))
    put(t, "rounding", _rounding(t.rounding, t.bits))
