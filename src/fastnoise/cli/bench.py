"""``fastnoise bench``: fastnoise beside the numpy code a user would otherwise write,
on this machine, and a regression gate that works on noisy machines.

Each workload times a fastnoise call and the numpy way of doing the same work,
interleaved in one process (fastnoise, numpy, fastnoise, numpy, ...), and reports
the ratio of the medians: numpy time / fastnoise time. A ratio measured this way
survives a busy machine far better than an absolute time, since a slowdown of the
machine slows both sides. ``--check`` compares each ratio with the baseline shipped
in ``fastnoise/data/bench_baseline.json`` (measured on the project's CI machine kind)
and fails when any ratio falls below ``baseline / tolerance`` (default 1.8) or when the
geometric mean of ratio / baseline over all workloads falls below 1 / 1.35: a 2x
slowdown of fastnoise fails, the usual noise of a shared machine passes.

    fastnoise bench                      # print the table
    fastnoise bench --check              # exit 1 on a regression against the baseline
    fastnoise bench --save-baseline F    # write the measured ratios to F
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastnoise.cli import Command, _args, _errors

BASELINE = Path(__file__).resolve().parent.parent / "data" / "bench_baseline.json"


@dataclass
class Workload:
    name: str
    what: str
    fastnoise: Callable[[], object]
    numpy: Callable[[], object]


def workloads(scale: float) -> list[Workload]:
    """The workloads, sized by ``scale`` (1.0: the full sizes; smaller for --quick)."""
    import numpy as np

    import fastnoise as fn

    rng = np.random.default_rng(12345)
    n = max(1024, int(1_000_000 * scale))
    buf64 = np.ones(n)
    buf32 = np.ones(n, np.float32)
    g = fn.GaussianNoiseGenerator(1)

    out: list[Workload] = [
        Workload(
            "normal-f64",
            f"{n} float64 normals",
            lambda: g.standard_normal(out=buf64),
            lambda: rng.standard_normal(out=buf64),
        ),
        Workload(
            "normal-f32",
            f"{n} float32 normals",
            lambda: g.standard_normal(out=buf32),
            lambda: rng.standard_normal(out=buf32, dtype=np.float32),
        ),
        Workload(
            "generate",
            "one float64 normal",
            lambda: [g.generate() for _ in range(100)],
            lambda: [rng.standard_normal() for _ in range(100)],
        ),
    ]

    m = max(1000, int(100_000 * scale))
    imu = fn.ImuNoise(
        gyro=fn.TriadNoise(noise_stddev=0.01), accel=fn.TriadNoise(noise_stddev=0.05), seed=2
    )
    w = np.zeros((m, 3))
    a = np.tile([0.0, 0.0, 9.81], (m, 1))
    sig = np.array([0.01, 0.01, 0.01, 0.05, 0.05, 0.05])
    out.append(
        Workload(
            "imu-apply",
            f"{m} samples x 6 axes, white noise",
            lambda: imu.apply(w, a, 0.01),
            lambda: (
                w + sig[:3] * rng.standard_normal((m, 3)),
                a + sig[3:] * rng.standard_normal((m, 3)),
            ),
        )
    )
    w1 = np.zeros(3)
    a1 = np.array([0.0, 0.0, 9.81])
    out.append(
        Workload(
            "imu-step",
            "one 6-axis sample (x100)",
            lambda: [imu.step(w1, a1, 0.01) for _ in range(100)],
            lambda: [
                (w1 + sig[:3] * rng.standard_normal(3), a1 + sig[3:] * rng.standard_normal(3))
                for _ in range(100)
            ],
        )
    )

    h, wd = max(64, int(1080 * math.sqrt(scale))), max(64, int(1920 * math.sqrt(scale)))
    img = rng.integers(0, 256, (h, wd, 3), dtype=np.uint8)
    cam = fn.ImageNoise(0.0, 0.007, seed=3)

    def numpy_camera() -> object:
        z = rng.standard_normal((h, wd), dtype=np.float32) * np.float32(0.007 * 255)
        return np.clip(img + np.rint(z)[..., None], 0, 255).astype(np.uint8)

    out.append(
        Workload("camera-u8", f"{h}x{wd} RGB uint8", lambda: cam.apply(img, frame=0), numpy_camera)
    )

    p = max(1024, int(262_144 * scale))
    pts = rng.uniform(-50, 50, (p, 3))
    lid = fn.LidarNoise(
        distance_noise_stddev_base=0.02, distance_noise_stddev_rise_per_meter=0.001, seed=4
    )

    def numpy_lidar() -> object:
        d = np.linalg.norm(pts, axis=1)
        e = 0.0 + (0.02 + 0.001 * d) * rng.standard_normal(p)
        return pts * ((d + e) / d)[:, None], d + e

    out.append(
        Workload(
            "lidar-distance",
            f"{p} points, distance noise",
            lambda: lid.apply(pts, frame=0),
            numpy_lidar,
        )
    )
    return out


def _time(func: Callable[[], object], repeat: int) -> float:
    """Seconds per call: the best of a few calls (the minimum filters out interruptions)."""
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - t0)
    return best


def measure(
    scale: float,
    rounds: int,
    plant_slowdown: int = 1,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Interleaved timings of every workload: per round, fastnoise then numpy; the
    ratio is median(numpy) / median(fastnoise)."""
    rows = []
    for wl in workloads(scale):
        wl.fastnoise()  # warm up (first-touch of buffers, lazy imports)
        wl.numpy()
        f = wl.fastnoise
        if plant_slowdown > 1:  # for checking the gate itself: the same work k times

            def f(wl: Workload = wl) -> None:
                for _ in range(plant_slowdown):
                    wl.fastnoise()

        fast, slow = [], []
        for _ in range(rounds):
            fast.append(_time(f, 3))
            slow.append(_time(wl.numpy, 3))
        tf, tn = statistics.median(fast), statistics.median(slow)
        rows.append(
            {"name": wl.name, "what": wl.what, "fastnoise_s": tf, "numpy_s": tn, "ratio": tn / tf}
        )
        if progress:
            progress(f"  {wl.name:<16} {tn / tf:6.1f}x")
    return rows


def compare(
    rows: list[dict[str, Any]],
    baseline: dict[str, float],
    tolerance: float,
    overall_tolerance: float | None = None,
) -> list[str]:
    """The regressions: every workload whose ratio is below baseline / tolerance, every
    workload of the baseline that was not measured, and, when ``overall_tolerance`` is
    given, a geometric mean of the ratios (relative to the baseline's) below
    1 / overall_tolerance. The mean averages out one noisy workload, so it can be
    tighter than the per-workload rule and still pass unchanged builds."""
    problems = []
    measured = {str(r["name"]): float(r["ratio"]) for r in rows}
    rel = []
    for name, base in baseline.items():
        if name not in measured:
            problems.append(f"{name}: in the baseline but not measured")
            continue
        rel.append(measured[name] / base)
        if measured[name] < base / tolerance:
            problems.append(
                f"{name}: ratio {measured[name]:.2f}x < baseline {base:.2f}x / "
                f"{tolerance:g} = {base / tolerance:.2f}x"
            )
    if overall_tolerance is not None and rel:
        gmean = math.exp(sum(math.log(r) for r in rel) / len(rel))
        if gmean < 1.0 / overall_tolerance:
            problems.append(
                f"all workloads: geometric mean of ratio / baseline {gmean:.2f} < "
                f"1 / {overall_tolerance:g} = {1.0 / overall_tolerance:.2f}"
            )
    return problems


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true", help="small sizes (a few seconds)")
    p.add_argument(
        "--rounds",
        type=_args.positive_int,
        default=7,
        help="interleaved rounds per workload (median over rounds)",
    )
    p.add_argument(
        "--check", action="store_true", help="exit 1 when a ratio falls below baseline / tolerance"
    )
    p.add_argument("--baseline", type=Path, default=BASELINE, help="baseline ratios (JSON)")
    p.add_argument(
        "--tolerance",
        type=_args.positive_float,
        default=1.8,
        help="allowed factor below the baseline ratio, per workload (> 1)",
    )
    p.add_argument(
        "--overall-tolerance",
        type=_args.positive_float,
        default=1.35,
        help="allowed factor below the baseline for the geometric mean of all ratios (> 1)",
    )
    p.add_argument(
        "--save-baseline", type=Path, metavar="FILE", help="write the measured ratios as a baseline"
    )
    p.add_argument("--json", action="store_true", help="print the rows as JSON")
    p.add_argument(
        "--plant-slowdown", type=_args.positive_int, default=1, help=argparse.SUPPRESS
    )  # runs fastnoise's side k times: tests the gate


def load_baseline(path: Path) -> dict[str, float]:
    """The ``ratios`` of a baseline file: :class:`~fastnoise.cli._errors.CommandError`
    naming ``--baseline`` and the path when it cannot be read or is not a baseline."""
    _errors.readable_file(path, "--baseline")
    try:
        ratios = json.loads(path.read_text(encoding="utf-8"))["ratios"]
    except (ValueError, KeyError, TypeError) as exc:
        raise _errors.CommandError(
            f'--baseline {path}: not a baseline file (JSON with "ratios": '
            f"{{workload: ratio}}): {_errors.describe(exc)}"
        ) from None
    if not isinstance(ratios, dict) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in ratios.values()
    ):
        raise _errors.CommandError(f'--baseline {path}: "ratios" must map names to numbers')
    return {str(k): float(v) for k, v in ratios.items()}


def _run(args: argparse.Namespace) -> int:
    import platform

    for opt, value in (
        ("--tolerance", args.tolerance),
        ("--overall-tolerance", args.overall_tolerance),
    ):
        if value <= 1.0:
            print(f"{opt}={value} is not allowed: it must be > 1", file=sys.stderr)
            return 2
    # the paths first: a missing baseline or an unwritable output is refused before the run
    baseline = None
    if args.check or args.baseline != BASELINE:
        baseline = load_baseline(args.baseline)
    if args.save_baseline:
        _errors.writable_file(args.save_baseline, "--save-baseline")
    scale = 0.05 if args.quick else 1.0
    print(
        f"fastnoise bench on {platform.machine()} ({platform.processor() or 'cpu'}), "
        f"{args.rounds} interleaved rounds per workload",
        file=sys.stderr,
    )
    rows = measure(
        scale, args.rounds, args.plant_slowdown, progress=lambda s: print(s, file=sys.stderr)
    )
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'workload':<16}{'what':<34}{'fastnoise':>12}{'numpy':>12}{'speed-up':>10}")
        for r in rows:
            print(
                f"{r['name']:<16}{r['what']:<34}{float(r['fastnoise_s']) * 1e6:>10.1f}us"
                f"{float(r['numpy_s']) * 1e6:>10.1f}us{float(r['ratio']):>9.1f}x"
            )
    if args.save_baseline:
        doc = {
            "host": platform.platform(),
            "quick": args.quick,
            "ratios": {str(r["name"]): round(float(r["ratio"]), 3) for r in rows},
        }
        args.save_baseline.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"wrote {args.save_baseline}", file=sys.stderr)
    if args.check:
        assert baseline is not None
        problems = compare(rows, baseline, args.tolerance, args.overall_tolerance)
        if problems:
            print("regressions:", *problems, sep="\n  ", file=sys.stderr)
            return 1
        print(
            f"no regression against {args.baseline} (tolerance {args.tolerance:g})", file=sys.stderr
        )
    return 0


COMMAND = Command(
    name="bench",
    help="time fastnoise beside numpy on this machine; --check gates regressions",
    add_arguments=_add_arguments,
    run=_run,
    description=__doc__,
)
