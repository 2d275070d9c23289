"""Build csrc/device/host_shim.c (the GPU kernels' thread bodies as host C) once per
test session, with the flags of the CPU build (contraction off), and load it."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

from fastnoise.cuda import source_dir

_BUILT: dict[str, ctypes.CDLL] = {}


def host_shim(tmp: Path) -> ctypes.CDLL:
    """The loaded shim (skips the test without a C compiler)."""
    if "dll" in _BUILT:
        return _BUILT["dll"]
    cc = shutil.which(sysconfig.get_config_var("CC").split()[0] or "cc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler to build the GPU sources as host C")
    src = source_dir()
    lib = tmp / "host_shim.so"
    flags = ["-O2", "-std=c11", "-ffp-contract=off", "-fno-math-errno", "-fno-trapping-math"]
    cmd = [cc, *flags, "-Wall", "-Wextra", "-Werror", "-shared", "-fPIC", f"-I{src}"]
    cmd += [str(src / "device" / "host_shim.c"), "-o", str(lib), "-lm"]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    _BUILT["dll"] = ctypes.CDLL(str(lib))
    return _BUILT["dll"]
