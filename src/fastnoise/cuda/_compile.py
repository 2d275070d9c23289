# mypy: disable-error-code="import-not-found, import-untyped"
"""Finding the C sources of the GPU path and compiling them once per process.

The kernels are compiled from the same headers as the CPU kernels (csrc/*.h, shipped
in the wheel under ``fastnoise/_csrc``) by NVRTC through CuPy, with contraction off
and correctly rounded sqrt and division: the options that make the GPU compute the
CPU's bits.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

#: NVRTC options: no fused multiply-add unless the source writes fma (so every
#: operation is the one the C code names), IEEE sqrt and division, no flush to zero.
COMPILE_OPTIONS = (
    "--fmad=false",
    "--prec-sqrt=true",
    "--prec-div=true",
    "--ftz=false",
    "--std=c++17",
)

_lock = threading.Lock()


def source_dir() -> Path:
    """Folder holding ``device/kernels.cu`` and the headers it includes.

    The installed package's ``_csrc`` (the wheel ships the C sources), or, in a source
    checkout, the repository's ``csrc``.
    """
    pkg = Path(__file__).resolve().parent.parent  # the fastnoise package
    for cand in (pkg / "_csrc", pkg.parent.parent / "csrc"):
        if (cand / "device" / "kernels.cu").is_file():
            return cand
    raise FileNotFoundError(
        f"the C sources of fastnoise's GPU path were not found under {pkg / '_csrc'}; "
        "reinstall fastnoise"
    )


def kernel_source() -> str:
    """The text NVRTC compiles (kernels.cu, which includes the shared headers)."""
    return (source_dir() / "device" / "kernels.cu").read_text()


def cupy_module() -> Any:
    """CuPy, or ImportError saying how to get it."""
    try:
        import cupy
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError(
            "fastnoise.cuda needs CuPy: pip install 'fastnoise[cuda12]' or "
            "'fastnoise[cuda13]' (by the CUDA major version of your driver), or your "
            "own CuPy build"
        ) from e
    return cupy


_modules: dict[int, Any] = {}  # compiled module per device id


def _module_for_device(device_id: int) -> Any:
    if device_id in _modules:
        return _modules[device_id]
    cp = cupy_module()
    src = source_dir()
    options = (*COMPILE_OPTIONS, f"-I{src / 'device'}", f"-I{src}")
    mod = cp.RawModule(code=kernel_source(), options=options, backend="nvrtc")
    mod.compile()
    _modules[device_id] = mod
    return mod


def kernel(name: str) -> Any:
    """The compiled ``extern "C"`` kernel ``name`` for the current device."""
    cp = cupy_module()
    with _lock:
        mod = _module_for_device(cp.cuda.Device().id)
    return mod.get_function(name)
