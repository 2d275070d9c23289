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


def check_camera() -> None:
    import cupy as cp

    print("image noise")
    rng = np.random.default_rng(7)
    for dtype in (np.uint8, np.uint16, np.float32, np.float64):
        for shape in [(2160, 3840, 3), (31, 1025, 4), (17, 29)]:
            if np.dtype(dtype).kind == "u":
                img = rng.integers(0, np.iinfo(dtype).max + 1, size=shape, dtype=dtype)
            else:
                img = rng.random(shape).astype(dtype)
            for variant, linear, per in [
                ("gazebo", False, False), ("gazebo", True, True), ("ogre2", None, True),
            ]:  # fmt: skip
                kw = {"variant": variant, "linear_light": linear, "per_channel": per}
                m = fn.ImageNoise(mean=0.02, stddev=0.1, seed=3, **kw)
                for frame in (0, 2**63 + 1):
                    gpu = fcuda.image_noise(m, cp.asarray(img), frame=frame)
                    cpu = m.apply(img, frame=frame)
                    check(f"{np.dtype(dtype).name} {shape} {variant} linear={linear} "
                          f"per_channel={per} frame={frame}", gpu, cpu)  # fmt: skip
    m = fn.ImageNoise(stddev=0.05, per_channel=True, seed=9)
    full = rng.integers(0, 256, (64, 3000, 3), dtype=np.uint8)
    tile = fcuda.image_noise(
        m,
        cp.asarray(full[8:40, 1000:2900]),
        frame=2,
        row_offset=8,
        col_offset=1000,
        full_width=3000,
    )
    check("uint8 tile of a wider frame", tile, m.apply(full, frame=2)[8:40, 1000:2900])
    view = cp.asarray(full)[::-1, ::-3]
    check("uint8 reversed, strided view", fcuda.image_noise(m, view, frame=4),
          m.apply(full[::-1, ::-3], frame=4))  # fmt: skip


def check_lidar() -> None:
    import cupy as cp

    print("lidar and range noise")
    rng = np.random.default_rng(11)
    pose = np.array([[0.0, -1.0, 0.0, 1.5], [1.0, 0.0, 0.0, -2.0], [0.0, 0.0, 1.0, 0.25]])
    for dtype in (np.float32, np.float64):
        for n in (1, 17, 262_147):
            pts = rng.normal(0.0, 30.0, (n, 3)).astype(dtype)
            pts[::29] = np.nan
            dist = (np.linalg.norm(pts.astype(np.float64), axis=1) + 0.7).astype(dtype)
            m = fn.LidarNoise(
                hitpoint_angular_noise_mean=0.01, hitpoint_angular_noise_stddev=0.02,
                distance_noise_mean=0.05, distance_noise_stddev_base=0.02,
                distance_noise_stddev_rise_per_meter=0.001, seed=21,
            )  # fmt: skip
            for pose_ in (None, pose):
                cpu = m.apply(pts, distances=dist, lidar_pose=pose_, frame=9, first_index=3,
                              return_local=True)  # fmt: skip
                gpu = fcuda.lidar_noise(m, cp.asarray(pts), cp.asarray(dist), lidar_pose=pose_,
                                        frame=9, first_index=3, return_local=True)  # fmt: skip
                for name, a, b in zip(gpu._fields, gpu, cpu, strict=True):
                    check(f"lidar {np.dtype(dtype).name} n={n} pose={pose_ is not None} {name}",
                          a, np.asarray(b))  # fmt: skip
            r = rng.uniform(-1.0, 40.0, n).astype(dtype)
            r[::7] = np.nan
            rm = fn.RangeNoise(0.01, 0.02, 0.5, 30.0, bias_mean=0.1, precision=0.01, seed=3)
            check(f"range {np.dtype(dtype).name} n={n}",
                  fcuda.range_noise(rm, cp.asarray(r), frame=4, first_index=2**40),
                  rm.apply(r, frame=4, first_index=2**40))  # fmt: skip


CHECKS: list[Callable[[], None]] = [check_normals, check_camera, check_lidar]


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


def table_camera() -> list[tuple[str, float, int]]:
    import cupy as cp

    rows = []
    img = cp.asarray(np.random.default_rng(0).integers(0, 256, (2160, 3840, 3), dtype=np.uint8))
    out = cp.empty_like(img)
    for label, kw in [
        ("gazebo", {}),
        ("gazebo per-channel", {"per_channel": True}),
        ("ogre2 linear light", {"variant": "ogre2"}),
    ]:
        m = fn.ImageNoise(stddev=0.01, seed=1, **kw)
        sec = timed(lambda m=m: fcuda.image_noise(m, img, frame=1, out=out))
        rows.append((f"image_noise 4K RGB uint8 {label}", sec, img.nbytes))
    rows.append(("device-to-device copy of the 4K frame", timed(lambda: cp.copyto(out, img)),
                 img.nbytes))  # fmt: skip
    return rows


def table_lidar() -> list[tuple[str, float, int]]:
    import cupy as cp

    n = 1 << 20
    pts = cp.asarray(np.random.default_rng(0).normal(0.0, 30.0, (n, 3)).astype(np.float32))
    out = cp.empty_like(pts)
    m = fn.LidarNoise(hitpoint_angular_noise_stddev=0.01, distance_noise_stddev_base=0.02,
                      seed=1)  # fmt: skip
    rows = [
        (
            "lidar_noise 1M points f32 (hitpoint + distance)",
            timed(lambda: fcuda.lidar_noise(m, pts, frame=1, out=out)),
            pts.nbytes,
        )
    ]
    r = cp.asarray(np.random.default_rng(1).uniform(0.0, 40.0, 1 << 22).astype(np.float32))
    ro = cp.empty_like(r)
    rm = fn.RangeNoise(0.0, 0.02, 0.1, 30.0, seed=2)
    rows.append(
        (
            "range_noise 4M beams f32",
            timed(lambda: fcuda.range_noise(rm, r, frame=1, out=ro)),
            r.nbytes,
        )
    )
    return rows


TABLES: list[Callable[[bool], list[tuple[str, float, int]]]] = [
    lambda quick: table_normals(1 << (24 if quick else 28)),
    lambda quick: table_camera(),
    lambda quick: table_lidar(),
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
