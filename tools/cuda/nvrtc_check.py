"""Compile csrc/device/kernels.cu with NVRTC, as fastnoise.cuda does at run time, but
without CuPy or a GPU (NVRTC only translates to PTX): proves the sources build under
NVRTC, which has no standard headers. Used by tests/test_cuda_host.py and CI.

    python tools/cuda/nvrtc_check.py [--lib /path/to/libnvrtc.so.13] [--arch compute_90]

Exit status 0 when the program compiled; prints NVRTC's log otherwise.
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import os
import sys
import sysconfig


def find_nvrtc() -> str | None:
    """libnvrtc from the nvidia-cuda-nvrtc wheel, CUDA_HOME or the usual CUDA folders."""
    pats = []
    for sp in {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}:
        pats += [f"{sp}/nvidia/cu*/lib/libnvrtc.so*", f"{sp}/nvidia/cuda_nvrtc/lib/libnvrtc.so*"]
    for home in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if home:
            pats += [f"{home}/lib64/libnvrtc.so*", f"{home}/targets/*/lib/libnvrtc.so*"]
    for p in pats:
        hits = sorted(h for h in glob.glob(p) if "builtins" not in h and "alt" not in h)
        if hits:
            return hits[0]
    return None


def compile_ptx(lib: str, source: str, options: list[str]) -> tuple[bool, str, bytes]:
    """(ok, log, ptx) of one NVRTC compilation."""
    # libnvrtc opens its builtins library by name at compile time. In a venv that also
    # holds torch's CUDA wheels (the bench extra) that lookup failed ("failed to open
    # libnvrtc-builtins.so.13.0"; with the nvrtc wheel alone it works): loaded here
    # first, from libnvrtc's own folder, the name is already resolved.
    for builtins in sorted(glob.glob(os.path.join(os.path.dirname(lib), "libnvrtc-builtins.so*"))):
        if "alt" not in os.path.basename(builtins):
            ctypes.CDLL(builtins, mode=ctypes.RTLD_GLOBAL)
    nv = ctypes.CDLL(lib)
    prog = ctypes.c_void_p()
    rc = nv.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"kernels.cu", 0, None, None)
    if rc:
        return False, f"nvrtcCreateProgram failed ({rc})", b""
    opts = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    rc = nv.nvrtcCompileProgram(prog, len(options), opts)
    size = ctypes.c_size_t()
    nv.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    buf = ctypes.create_string_buffer(size.value)
    nv.nvrtcGetProgramLog(prog, buf)
    log = buf.value.decode(errors="replace")
    ptx = b""
    if rc == 0:
        nv.nvrtcGetPTXSize(prog, ctypes.byref(size))
        pbuf = ctypes.create_string_buffer(size.value)
        nv.nvrtcGetPTX(prog, pbuf)
        ptx = pbuf.raw
    nv.nvrtcDestroyProgram(ctypes.byref(prog))
    return rc == 0, log, ptx


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", default=None)
    ap.add_argument("--arch", default="compute_90")
    args = ap.parse_args()
    lib = args.lib or find_nvrtc()
    if lib is None:
        print("libnvrtc not found (pip install nvidia-cuda-nvrtc)", file=sys.stderr)
        return 2
    from fastnoise.cuda import COMPILE_OPTIONS, kernel_source, source_dir

    src = source_dir()
    opts = [*COMPILE_OPTIONS, f"-I{src / 'device'}", f"-I{src}", f"--gpu-architecture={args.arch}"]
    ok, log, ptx = compile_ptx(lib, kernel_source(), opts)
    print(f"{lib}: {'ok' if ok else 'FAILED'} ({len(ptx)} bytes of PTX)")
    if log.strip():
        print(log)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
