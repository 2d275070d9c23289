"""The one array-intake path of every kernel entry.

Kernels read raw memory, so what reaches them is checked here once: inputs become
native-endian, aligned, C-contiguous arrays of the kernel's dtype (copied when they
are not; never modified), and outputs (``out=``) must already be exactly that, and
writeable, or they are refused. An output that overlaps an input other than as the
very same array (in place) is refused: a partial overlap would read values the call
has already overwritten.
"""

from __future__ import annotations

import numpy as np

# no_partial_overlap is compiled (fastnoise.core._arrays): every kernel entry calls it,
# and its common case, arrays in disjoint byte ranges, is decided there in C
from fastnoise.core._arrays import no_partial_overlap as no_partial_overlap

# dtype kinds a numeric input may have: bool, complex, str, bytes, object, datetime,
# timedelta and void are refused rather than reinterpreted.
_REAL_KINDS = "iuf"


def intake(
    name: str,
    value: object,
    dtype: np.dtype | type,
    *,
    ndim: int | None = None,
    last_dim: int | None = None,
) -> np.ndarray:
    """``value`` as a native-endian, aligned, C-contiguous array of ``dtype``.

    Refuses non-real dtypes (TypeError naming ``name``); checks ``ndim`` and the size
    of the last axis when given. The result is the input itself when it already
    qualifies, else a copy: the caller must not write to it.
    """
    arr = np.asarray(value)
    if arr.dtype.kind not in _REAL_KINDS:
        # a small value (a parameter) is shown; a large array only by its dtype
        shown = f"{name}={value!r}" if arr.size <= 16 else name
        raise TypeError(f"{shown} has dtype {arr.dtype}: it must hold real numbers (int or float)")
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} has shape {arr.shape}: it must have {ndim} dimensions")
    if last_dim is not None and (arr.ndim == 0 or arr.shape[-1] != last_dim):
        raise ValueError(f"{name} has shape {arr.shape}: its last axis must have {last_dim}")
    want = np.dtype(dtype).newbyteorder("=")
    if arr.dtype == want and arr.flags.c_contiguous and arr.flags.aligned:
        return arr
    return np.require(arr, dtype=want, requirements=["C", "A"])


def output(
    name: str,
    out: object,
    shape: tuple[int, ...],
    dtype: np.dtype | type,
    *,
    contiguous: bool = True,
) -> np.ndarray:
    """Check a caller's ``out``: an ndarray of exactly ``shape`` and native ``dtype``,
    C-contiguous, aligned and writeable (nothing is converted: the caller reads it).
    ``contiguous=False`` accepts any strides and alignment, for callers that write
    through numpy rather than a kernel."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"{name}={out!r} is not allowed: it must be a numpy.ndarray")
    want = np.dtype(dtype)
    if out.dtype != want or not out.dtype.isnative:
        raise TypeError(f"{name} has dtype {out.dtype.str}: it must be {want.name}, native-endian")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"{name} has shape {out.shape}: it must be {tuple(shape)}")
    if contiguous and (not out.flags.c_contiguous or not out.flags.aligned):
        raise ValueError(f"{name} must be C-contiguous and aligned")
    if not out.flags.writeable:
        raise ValueError(f"{name} is read-only: it must be writeable")
    return out
