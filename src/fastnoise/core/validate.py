"""Parameter checks shared by every model: each error names the parameter, its value
and what is allowed."""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np


def _not_numeric(value: object) -> bool:
    """Bools, and numpy scalars that are no real number (numpy's timedelta64 passes
    for a ``numbers.Integral``, then fails inside float() with a message naming
    nothing)."""
    if isinstance(value, (bool, np.bool_)):
        return True
    return isinstance(value, np.generic) and value.dtype.kind not in "iuf"


def integer(name: str, value: object, lo: int, hi: int) -> int:
    """An int (not bool, not float) in [lo, hi)."""
    if _not_numeric(value) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}={value!r} is not allowed: it must be an int in [{lo}, {hi})")
    v = int(value)
    if not lo <= v < hi:
        raise ValueError(f"{name}={value!r} is not allowed: it must lie in [{lo}, {hi})")
    return v


def finite(name: str, value: object) -> float:
    """``value`` as a finite float, else ValueError/TypeError naming ``name``."""
    if _not_numeric(value) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}={value!r} is not allowed: it must be a real number")
    try:
        v = float(value)
    except OverflowError:  # an int beyond the doubles (10**400): name it, as for inf
        v = math.inf
    if not math.isfinite(v):
        raise ValueError(f"{name}={_short(value)} is not allowed: it must be finite")
    return v


def _short(value: object) -> str:
    """``repr(value)``, cut to 60 characters (a 400-digit int is no useful message)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def nonnegative(name: str, value: object) -> float:
    """A finite float >= 0."""
    v = finite(name, value)
    if v < 0.0:
        raise ValueError(f"{name}={value!r} is not allowed: it must be finite and >= 0")
    return v


def positive(name: str, value: object) -> float:
    """A finite float > 0."""
    v = finite(name, value)
    if v <= 0.0:
        raise ValueError(f"{name}={value!r} is not allowed: it must be finite and > 0")
    return v


def in_range(name: str, value: object, lo: float, hi: float) -> float:
    """A finite float in [lo, hi]."""
    v = finite(name, value)
    if not lo <= v <= hi:
        raise ValueError(f"{name}={value!r} is not allowed: it must lie in [{lo}, {hi}]")
    return v


def vector3(name: str, value: object, *, nonneg: bool = False) -> np.ndarray[Any, Any]:
    """A length-3 float64 vector of finite values (a scalar is broadcast to 3)."""
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 0:
        arr = np.full(3, float(arr))
    if arr.shape != (3,):
        raise ValueError(
            f"{name} has shape {arr.shape} ({value!r}): it must be a scalar or a length-3 vector"
        )
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name}={value!r} is not allowed: every component must be finite")
    if nonneg and np.any(arr < 0):
        raise ValueError(f"{name}={value!r} is not allowed: every component must be >= 0")
    return arr.copy()


def float_dtype(name: str, dtype: object) -> np.dtype[Any]:
    """float32 or float64, else TypeError."""
    try:
        dt: np.dtype[Any] = np.dtype(dtype)  # type: ignore[call-overload]
    except TypeError as exc:
        raise TypeError(f"{name}={dtype!r} is not allowed: use float64 or float32") from exc
    if dt not in (np.dtype(np.float64), np.dtype(np.float32)):
        raise TypeError(f"{name}={dtype!r} is not allowed: use float64 or float32")
    return dt


def output_array(
    name: str, out: object, shape: tuple[int, ...], dtype: np.dtype[Any]
) -> np.ndarray[Any, Any]:
    """Check a caller's ``out``: an ndarray of the given shape and dtype, C-contiguous
    and writeable."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name} must be a numpy.ndarray, got {type(out).__name__}")
    if out.dtype != dtype:
        raise TypeError(f"{name} has dtype {out.dtype}: it must be {dtype}")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"{name} has shape {out.shape}: it must be {tuple(shape)}")
    if not out.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous")
    if not out.flags.writeable:
        raise ValueError(f"{name} must be writeable")
    return out


def boolean(name: str, value: object) -> bool:
    """True or False (numpy bools too); ints, strings and None are refused."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}={value!r} is not allowed: use True or False")
    return bool(value)


def choice(name: str, value: object, allowed: tuple[object, ...]) -> object:
    """One of ``allowed`` (compared with ==, strings only where strings are listed)."""
    if not isinstance(value, str | int | float) or isinstance(value, bool) or value not in allowed:
        raise ValueError(f"{name}={value!r} is not allowed: use one of {list(allowed)}")
    return value


def counter(name: str, value: object) -> int:
    """A stream position, frame or sample counter: an int in [0, 2**64)."""
    return integer(name, value, 0, 2**64)


def fields(
    name: str, value: object, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A dict with exactly the keys ``required`` (plus any of ``optional``)."""
    if not isinstance(value, dict):
        raise TypeError(f"{name}={value!r} is not allowed: it must be a dict")
    missing = [k for k in required if k not in value]
    if missing:
        raise ValueError(f"{name} is missing the entries {missing}")
    extra = [k for k in value if k not in required and k not in optional]
    if extra:
        raise ValueError(
            f"{name} has unknown entries {extra}: allowed are {[*required, *optional]}"
        )
    return value


#: SeedSequence pool sizes a state may carry: numpy's default is 4; a huge pool would
#: make rebuilding the sequence take minutes.
SEED_POOL_SIZES = (4, 256)


def seed_sequence(name: str, value: object) -> np.random.SeedSequence:
    """A ``numpy.random.SeedSequence`` rebuilt from its state dict (as
    ``fastnoise.core.seeding.seed_sequence_state`` writes it), every field checked."""
    d = fields(name, value, ("entropy", "spawn_key", "pool_size", "n_children_spawned"))
    entropy = d["entropy"]
    if isinstance(entropy, list | tuple):
        if not entropy:
            raise ValueError(f"{name}['entropy']=[] is not allowed: give at least one int")
        entropy = [integer(f"{name}['entropy'][{i}]", e, 0, 2**128) for i, e in enumerate(entropy)]
    else:
        entropy = integer(f"{name}['entropy']", entropy, 0, 2**128)
    keys = d["spawn_key"]
    if not isinstance(keys, list | tuple):
        raise TypeError(f"{name}['spawn_key']={keys!r} is not allowed: it must be a list of ints")
    if len(keys) > 64:
        raise ValueError(f"{name}['spawn_key'] has {len(keys)} entries: at most 64 are allowed")
    keys = tuple(integer(f"{name}['spawn_key'][{i}]", k, 0, 2**32) for i, k in enumerate(keys))
    lo, hi = SEED_POOL_SIZES
    pool = integer(f"{name}['pool_size']", d["pool_size"], lo, hi + 1)
    # numpy keeps the count as a uint32 (spawn keys are 32-bit words)
    spawned = integer(f"{name}['n_children_spawned']", d["n_children_spawned"], 0, 2**32)
    return np.random.SeedSequence(
        entropy, spawn_key=keys, pool_size=pool, n_children_spawned=spawned
    )


def shape(name: str, value: object) -> tuple[int, ...]:
    """An array shape: an int or a tuple of ints, each in [0, 2**63) (no bools, no
    floats, no strings)."""
    items = value if isinstance(value, tuple | list) else (value,)
    return tuple(integer(name, v, 0, 2**63) for v in items)
