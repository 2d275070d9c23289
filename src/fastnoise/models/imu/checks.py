"""Argument and state checks of :class:`fastnoise.models.imu.imu_noise.ImuNoise` that are not on
the per-sample path (plain Python, so they cost no compiled module): the triads and
keywords of the constructor, the C model's parameters, recording inputs and steps,
the ``position`` part of its state, and the wording of the kernel's refusals."""

from __future__ import annotations

import math
import sys
from dataclasses import fields
from typing import Any

import numpy as np

from fastnoise.core import arrays as _arrays
from fastnoise.core import validate as _validate
from fastnoise.core.deprecation import renamed_keys
from fastnoise.models.imu.triad import RENAMED_FIELDS, TriadNoise

_FIELDS = frozenset(f.name for f in fields(TriadNoise))
_TRIADS = ("gyro", "accel")
#: The flat keywords 0.3 renamed with the triad fields: gyro_bias_stddev -> ...
_RENAMED_KEYWORDS = {f"{t}_{o}": f"{t}_{n}" for t in _TRIADS for o, n in RENAMED_FIELDS.items()}
_XYZ = "xyz"
_TERMS = ("white", "gauss_markov", "random_walk")
#: Keys of ``ImuNoise.state['position']``.
POSITION_KEYS = ("stream_positions", "gauss_markov", "random_walk", "sample_count", "last_time")
_P = "state['position']"


def split_keywords(kwargs: dict) -> dict:
    """{'gyro_noise_density': 1} -> {'gyro': {'noise_density': 1}, 'accel': {}}"""
    parts: dict = {"gyro": {}, "accel": {}}
    kwargs = renamed_keys("ImuNoise", kwargs, _RENAMED_KEYWORDS, stacklevel=4)
    for k, v in kwargs.items():
        triad, _, field = k.partition("_")
        if triad not in parts or field not in _FIELDS:
            raise TypeError(
                f"unknown keyword {k!r}: use gyro=/accel= or gyro_<field>=, accel_<field>= "
                "with the fields of fastnoise.models.imu.triad.TriadNoise"
            )
        parts[triad][field] = v
    return parts


def triads(gyro: object, accel: object, keywords: dict) -> tuple:
    """The checked (gyro, accel) TriadNoise of ``ImuNoise(gyro, accel, **keywords)``."""
    parts = split_keywords(keywords)
    g = TriadNoise.from_value("gyro", gyro)
    a = TriadNoise.from_value("accel", accel)
    if parts["gyro"]:
        g = g.replace(**parts["gyro"])
    if parts["accel"]:
        a = a.replace(**parts["accel"])
    g_sens: Any = a.g_sensitivity
    if any(v != 0.0 for row in g_sens for v in row):
        raise ValueError(
            f"accel.g_sensitivity={a.g_sensitivity!r} is not allowed: G-sensitivity "
            "is a gyroscope term (leave it 0 for the accelerometer)"
        )
    return g, a


def dtype_name(value: object) -> object:
    """A numpy dtype or scalar type (``np.float32``) as its name ("float32"), which is
    what ``normal_dtype``'s spec lists; any other value unchanged (for the spec to
    refuse by name)."""
    if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
        return np.dtype(value).name
    return value


def kernel_params(gyro: Any, accel: Any) -> tuple:
    """The C model's parameters of two checked triads: one dict of
    ``fn_imu_axis_params`` fields (``csrc/imu.h``) per axis (gyro x, y, z, then accel
    x, y, z), the two linear maps (2 x 3 x 3) and the gyro G-sensitivity (3 x 3)."""
    axes = []
    for t in (gyro, accel):
        lsb = t.lsb
        tau = t.gauss_markov_correlation_time
        for i in range(3):
            axes.append(
                {
                    "noise_stddev": t.noise_stddev[i],
                    "noise_density": t.noise_density[i],
                    "bias": t.bias[i],
                    "turn_on_mean": t.turn_on_bias_mean[i],
                    "turn_on_stddev": t.turn_on_bias_stddev[i],
                    "gm_stddev": t.gauss_markov_stddev[i],
                    "gm_tau": 0.0 if tau is None else tau[i],
                    "rw_density": t.random_walk_density[i],
                    "full_scale": t.full_scale[i],
                    "lsb": float(lsb[i]),
                    "gm_steady_state": int(t.gauss_markov_steady_state),
                    "turn_on_in_gm": int(t.turn_on_bias_decays),
                    "round_away": int(t.rounding == "gazebo"),
                }
            )
    lin = [t.linear_map.tolist() for t in (gyro, accel)]
    return axes, lin, [list(row) for row in gyro.g_sensitivity]


def _has_bool(value: object) -> bool:
    """Whether a (nested) list or tuple holds a bool, which numpy would turn into 1.0."""
    if isinstance(value, bool | np.bool_):
        return True
    return isinstance(value, list | tuple) and any(_has_bool(v) for v in value)


def _asarray(name: str, value: object) -> np.ndarray:
    """``value`` as an ndarray; what numpy cannot make one of (ragged lists, ...) and
    lists holding bools are a TypeError naming ``name``."""
    if isinstance(value, np.ndarray):
        return value
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise TypeError(
            f"{name}={value!r:.80} is not allowed: it must be an array of real numbers"
        ) from exc
    if arr.dtype.kind != "b" and _has_bool(value):
        raise TypeError(f"{name}={value!r:.80} is not allowed: it holds a bool, not a number")
    return arr


def real_in(name: str, value: object, *, ndim: int | None = None, last_dim: int | None = None):
    """An input array of a kernel, through the one intake path
    (``fastnoise.core.arrays.intake``): native-endian, aligned, C-contiguous float64,
    copied when it is not; bools, complex, strings, objects, datetimes refused by name.
    The result may be ``value`` itself: it is only read."""
    return _arrays.intake(name, _asarray(name, value), np.float64, ndim=ndim, last_dim=last_dim)


def vec3_in(name: str, x: object) -> np.ndarray:
    """One true-value vector of ``step``: 3 real numbers (the slow path of the
    per-sample fast check)."""
    a = real_in(name, x)
    if a.shape != (3,):
        raise ValueError(f"{name} has shape {a.shape}: it must be (3,)")
    return a


def rec_in(name: str, x: object) -> np.ndarray:
    """A recording of ``apply``: (N, 3) real numbers."""
    arr = real_in(name, x)
    if arr.ndim != 2 or arr.shape[1] != 3:
        raise ValueError(f"{name} has shape {arr.shape}: it must be (N, 3)")
    return arr


def positive_scalar(name: str, value: object) -> float:
    """A finite float > 0; numpy bools, datetimes, timedeltas and complex numbers are
    refused by name (``numbers.Real`` would let a timedelta64 through)."""
    if isinstance(value, np.ndarray | np.generic):
        if value.dtype.kind not in "iuf":
            raise TypeError(
                f"{name}={value!r} is not allowed: it must be a real number "
                f"(dtype {value.dtype} is not)"
            )
        if isinstance(value, np.ndarray):
            value = value.item()
    return _validate.positive(name, value)


def steps(dt: object, n: int) -> np.ndarray:
    """``apply``'s dt: a scalar (one step, shape (1,)) or N steps, each finite > 0 s."""
    if not isinstance(dt, str | bytes) and np.ndim(dt) == 0:  # type: ignore[arg-type]
        return np.array([positive_scalar("dt", dt)])
    arr = real_in("dt", dt)
    if arr.shape != (n,):
        raise ValueError(f"dt has shape {arr.shape}: it must be a scalar or ({n},)")
    ok = np.isfinite(arr) & (arr > 0.0)
    if not np.all(ok):
        raise ValueError(f"dt contains {arr[~ok][0]!r}: every step must be finite and > 0 s")
    if n == 0:  # no sample, no step read (an empty dt array goes with an empty call)
        return np.ones(1)
    return arr if n > 1 else arr.reshape(1).copy()


def apply_steps(w: np.ndarray, a: np.ndarray, dt: object, timestamps: object) -> tuple:
    """(timestamps, None) or (None, steps) of ``apply`` for the (N, 3) recordings
    ``w``, ``a`` (of the same length), from exactly one of ``dt`` and ``timestamps``."""
    n = w.shape[0]
    if a.shape[0] != n:
        raise ValueError(f"omega has {n} samples and accel {a.shape[0]}: they must be the same")
    if (dt is None) == (timestamps is None):
        raise TypeError("give exactly one of dt= (s) and timestamps= (s)")
    if timestamps is not None:
        return times_in(timestamps, n), None
    return None, steps(dt, n)


def outputs_apart(w, a, steps, out_omega, out_accel, wo, ao) -> None:
    """Refuse ``apply`` outputs ``wo``/``ao`` (given as ``out_omega``/``out_accel``)
    that share memory with an input or each other other than exactly (in place)."""
    if out_omega is None and out_accel is None:  # new arrays overlap nothing
        return
    _arrays.no_partial_overlap(
        {
            "out_omega": wo if out_omega is not None else None,
            "out_accel": ao if out_accel is not None else None,
        },
        {"omega": w, "accel": a, "dt": steps if steps is not None and steps.shape[0] > 1 else None},
    )


def times_in(timestamps: object, n: int) -> np.ndarray:
    """``apply``'s timestamps: N finite values (s)."""
    t = real_in("timestamps", timestamps)
    if t.shape != (n,):
        raise ValueError(f"timestamps has shape {t.shape}: it must be ({n},)")
    if not np.all(np.isfinite(t)):
        raise ValueError("timestamps must be finite (s)")
    return t


def steps_from_times(t: np.ndarray, last_time: float) -> tuple:
    """(steps, last timestamp) of ``apply(timestamps=t)`` (``t`` from ``times_in``);
    ``last_time`` is the last timestamp of the previous such call (NaN for none)."""
    n = t.shape[0]
    if n == 0:
        return np.ones(1), last_time
    if not math.isfinite(last_time) and n < 2:
        raise ValueError(
            "timestamps with one sample need a previous apply(timestamps=...) call "
            "to give its step; use dt= instead"
        )
    out = np.empty(n)
    with np.errstate(over="ignore"):  # an overflowing step is refused below
        out[0] = t[0] - last_time if math.isfinite(last_time) else t[1] - t[0]
        out[1:] = np.diff(t)
    if not np.all(out > 0.0):
        raise ValueError(
            "timestamps must be strictly increasing (also after the previous call's "
            f"last timestamp {last_time!r})"
        )
    if not np.all(np.isfinite(out)):
        k = int(np.argmax(~np.isfinite(out)))
        if k == 0 and math.isfinite(last_time):
            where = f"timestamps[0]={float(t[0])!r} after the previous call's last one"
            where += f" {last_time!r}"
        else:
            k = max(k, 1)  # on a first call, step 0 is timestamps[1] - timestamps[0]
            where = f"timestamps[{k}]={float(t[k])!r} after {float(t[k - 1])!r}"
        raise ValueError(
            f"{where} is not allowed: the step between them overflows (steps must be "
            f"at most {sys.float_info.max!r} s)"
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


#: Largest |Gauss-Markov| and |random-walk| bias state (csrc/imu.h FN_IMU_TERM_MAX):
#: a call that could take a state past it is refused, so no state reaches it.
BIAS_STATE_MAX = 1e300


def _bias_state(name: str, value: object) -> float:
    return _validate.in_range(name, value, -BIAS_STATE_MAX, BIAS_STATE_MAX)


def check_position(position: object) -> tuple:
    """Validate ``ImuNoise.state['position']``; return (stream positions 6x3, Gauss-Markov
    2x3, random walk 2x3, sample count, last time or NaN), all plain Python values."""
    p = _validate.fields(_P, position, POSITION_KEYS)
    st = _grid(f"{_P}['stream_positions']", p["stream_positions"], 6, 3, _validate.counter)
    gm = _grid(f"{_P}['gauss_markov']", p["gauss_markov"], 2, 3, _bias_state)
    rw = _grid(f"{_P}['random_walk']", p["random_walk"], 2, 3, _bias_state)
    count = _validate.counter(f"{_P}['sample_count']", p["sample_count"])
    last = p["last_time"]
    last = math.nan if last is None else _validate.finite(f"{_P}['last_time']", last)
    return st, gm, rw, count, last


def refusal(
    kind: object,
    where: int,
    n: int,
    steps: Any,
    w: Any,
    acc: Any,
    per_sample: bool,
    info: dict,
) -> Exception:
    """The exception for a refused call of ``n`` samples, by the kernel's error
    ``kind`` (``imu.pyx`` _ERRORS: "count", "stream", "white", "gm", "rw", "omega",
    "accel"); ``steps`` the call's steps (s), ``w``/``acc`` its true values, ``where``
    an axis (0-5), 3 axis + term, or a flat index into the true values, by the kind;
    ``info`` the C model's values the message names (max_input, count, and position,
    or noise_density, gm and rw of the axis)."""
    if kind in ("omega", "accel"):
        x = w if kind == "omega" else acc
        at = f"{where}" if per_sample else f"{where // 3}, {where % 3}"
        return ValueError(
            f"{kind}[{at}]={float(np.reshape(x, -1)[where])!r} is not allowed: it is "
            f"beyond +/-{info['max_input']:.17g}: finite true values must lie within "
            f"+/-{BIAS_STATE_MAX:g} divided by the largest absolute row sum of this "
            "IMU's linear map (I + scale_factor + misalignment, plus the gyro's "
            "G-sensitivity), where that exceeds 1"
        )
    if kind == "count":
        return OverflowError(
            f"sample_count={info['count']} is at its end: {n} more samples would pass "
            "2**64 - 1 (an ImuNoise counts at most 2**64 - 1 samples)"
        )
    if kind == "stream":
        a, t = where // 3, where % 3
        return OverflowError(
            f"the {_TERMS[t]} stream of {_TRIADS[a // 3]} {_XYZ[a % 3]} is at position "
            f"{info['position']} (state['position']['stream_positions'][{a}][{t}]): "
            f"{n} more samples would run past the end of the stream (2**64 - 1)"
        )
    if kind not in ("white", "gm", "rw"):
        raise AssertionError(f"unknown IMU error code {kind}")
    axis = f"{_TRIADS[where // 3]} {_XYZ[where % 3]}"
    if kind == "white":
        dt = float(np.min(steps))
        nd = info["noise_density"]
        return ValueError(
            f"dt={dt!r} is not allowed with noise_density={nd!r} "
            f"({axis}): the white-noise sigma sqrt(noise_stddev**2 + "
            f"noise_density**2/dt) would pass {BIAS_STATE_MAX:g}; dt must be at least "
            f"(noise_density/{BIAS_STATE_MAX:g})**2 = "
            f"{(nd / BIAS_STATE_MAX) ** 2:.17g} s"
        )
    name, v = ("Gauss-Markov", info["gm"]) if kind == "gm" else ("random-walk", info["rw"])
    return OverflowError(
        f"the {name} bias of {axis} ({v!r}) could pass {BIAS_STATE_MAX:g} within "
        f"these {n} samples (dt up to {float(np.max(steps))!r} s): bias states are "
        f"kept within +/-{BIAS_STATE_MAX:g}"
    )
