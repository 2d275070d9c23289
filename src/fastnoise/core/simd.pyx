"""SIMD dispatch: which copy of the kernels runs (scalar, AVX2 or AVX-512).

Every path computes the same bits; only the speed differs. The best path the CPU
supports is chosen at import; ``FASTNOISE_SIMD=scalar|avx2|avx512`` or
:func:`set_simd_path` forces a lower one (for tests and comparisons).
"""

import os
import warnings

from fastnoise.core.capi cimport fn_simd_detected, fn_simd_level, fn_simd_name, fn_simd_set

_SIMD_LEVELS = {"scalar": 0, "avx2": 1, "avx512": 2}  # the names dispatch.c reads

if os.environ.get("FASTNOISE_SIMD", "") not in ("", *_SIMD_LEVELS):
    warnings.warn(
        f"FASTNOISE_SIMD={os.environ['FASTNOISE_SIMD']!r} is not one of "
        f"{', '.join(_SIMD_LEVELS)}: it is ignored and the best path for this CPU is used",
        RuntimeWarning, stacklevel=2)


def simd_path():
    """Name of the SIMD path the kernels use: "scalar", "avx2" or "avx512"."""
    return fn_simd_name(fn_simd_level()).decode()


def simd_paths_available():
    """Every path this CPU can run, lowest first."""
    return [n for n, lv in _SIMD_LEVELS.items() if lv <= fn_simd_detected()]


def set_simd_path(name):
    """Use a lower SIMD path (for tests and comparisons); returns the path in use.

    The environment variable FASTNOISE_SIMD (scalar, avx2, avx512) does the same at
    import. A path above what the CPU supports is capped. Every path gives the same
    bits; only speed differs.
    """
    if not isinstance(name, str) or name not in _SIMD_LEVELS:
        raise ValueError(f"name={name!r} is not allowed: use one of {list(_SIMD_LEVELS)}")
    return fn_simd_name(fn_simd_set(_SIMD_LEVELS[name])).decode()
