"""fastnoise beside the libraries a user could pick instead, on this machine.

Not run in CI: the peers (mkl_random, torch, OpenCV, numba) stay out of the project's
dependencies. Install what you want compared, then run from the repository root:

    pip install mkl_random torch opencv-python-headless numba scipy
    python docs/perf/measure_peers.py            # full sizes, 3 runs: about five minutes
    python docs/perf/measure_peers.py --quick    # small sizes, a smoke test

Prints a Markdown table (median time per call over interleaved rounds, and the time
relative to fastnoise, measured within each run: above 1 means the peer is slower; the
median and the range over ``--runs`` whole measurements) and the host: CPU model,
cores, Python, numpy and the peers' versions, fastnoise's SIMD path. Every
implementation runs on one thread (fastnoise's ``threads=1``, ``torch.set_num_threads(1)``,
``cv2.setNumThreads(1)``, MKL_NUM_THREADS=1, numba without ``parallel``), writes into
a preallocated output where its API allows, and is checked for plausible statistics
before it is timed. A peer that is not installed is reported as such.

Workloads: 1e7 float64 and float32 standard normals; a 1080p RGB uint8 camera frame with
Gaussian noise of 0.007 full scale (clamped and rounded back to uint8); a lidar cloud of
262,144 points with distance noise eps ~ N(0, 0.01 m + 0.001 * d) along each ray; IMU
noise (WT901C: white noise, Gauss-Markov bias, G-sensitivity, saturation, 16-bit ADC) on
1e6 samples of 6 axes; DVL messages (ten sensors with anchors, and the vN/vE/vU
composite) for 1e5 samples.
"""

from __future__ import annotations

import argparse
import importlib
import math
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

os.environ.setdefault("MKL_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import fastnoise as fn  # noqa: E402
from fastnoise.core import simd  # noqa: E402

Fn = Callable[[], object]


@dataclass
class Case:
    """One implementation of a workload: ``run`` is timed, ``check`` validates its
    output first (returns an error message or None)."""

    label: str
    run: Fn
    check: Callable[[object], str | None] = lambda out: None
    note: str = ""


@dataclass
class Workload:
    name: str
    size: str
    elements: int
    unit: str
    cases: list[Case] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


def optional(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except Exception:  # not installed, or broken against this numpy
        return None


def sd_check(expected: float, tol: float = 0.03) -> Callable[[object], str | None]:
    def check(out: object) -> str | None:
        sd = float(np.std(np.asarray(out, dtype=np.float64)))
        if not abs(sd - expected) <= tol * expected:
            return f"sd {sd:.4g}, expected {expected:.4g}"
        return None

    return check


# ---- normals ---------------------------------------------------------------------------


def normals(n: int, dtype: type, peers: dict[str, Any]) -> Workload:
    w = Workload(f"normals, {np.dtype(dtype).name}", f"{n:.0e} values", n, "value")
    buf = np.empty(n, dtype)
    g = fn.GaussianNoiseGenerator(1)
    w.cases.append(Case("fastnoise", lambda: g.standard_normal(out=buf), sd_check(1.0)))
    rng = np.random.default_rng(1)
    w.cases.append(
        Case(
            "numpy Generator (PCG64, ziggurat)",
            lambda: rng.standard_normal(out=buf, dtype=dtype),
            sd_check(1.0),
        )
    )
    mkl = peers["mkl_random"]
    if mkl is not None and dtype is np.float64:
        rs = mkl.MKLRandomState(1, brng="ARS5")
        for method in ("ICDF", "BoxMuller2"):
            w.cases.append(
                Case(
                    f"mkl_random ARS5, {method}",
                    lambda method=method: rs.standard_normal(n, method=method),
                    sd_check(1.0),
                    "allocates (no out=)",
                )
            )
    elif mkl is None:
        w.missing.append("mkl_random")
    torch = peers["torch"]
    if torch is not None:
        tdt = torch.float64 if dtype is np.float64 else torch.float32
        t = torch.empty(n, dtype=tdt)
        tg = torch.Generator().manual_seed(1)
        w.cases.append(
            Case(
                "torch.randn",
                lambda: torch.randn(n, dtype=tdt, out=t, generator=tg),
                lambda out: sd_check(1.0)(t.numpy()),
            )
        )
    else:
        w.missing.append("torch")
    cv2 = peers["cv2"]
    if cv2 is not None:
        mat = np.empty((n // 1000, 1000), dtype)
        w.cases.append(Case("cv2.randn", lambda: cv2.randn(mat, 0.0, 1.0), sd_check(1.0)))
    else:
        w.missing.append("cv2")
    return w


# ---- camera ----------------------------------------------------------------------------


def camera(peers: dict[str, Any]) -> Workload:
    h, wd = 1080, 1920
    sigma = 0.007
    frame = np.random.default_rng(0).integers(40, 216, (h, wd, 3), dtype=np.uint8)
    out = np.empty_like(frame)
    w = Workload("camera frame, uint8 RGB", "1920 x 1080 x 3", h * wd, "pixel")
    levels = sigma * 255.0

    def diff_check(res: object) -> str | None:
        d = np.asarray(res).astype(np.int16) - frame
        sd = float(d.std())
        return None if abs(sd - levels) < 0.1 * levels else f"sd {sd:.3f} levels"

    cam = fn.ImageNoise(stddev=sigma, seed=1)
    cam_c = fn.ImageNoise(stddev=sigma, per_channel=True, seed=1)
    w.cases.append(
        Case(
            "fastnoise",
            lambda: cam.apply(frame, frame=0, out=out),
            diff_check,
            "one normal per pixel, shared by R, G, B (Gazebo)",
        )
    )
    w.cases.append(
        Case(
            "fastnoise, per_channel=True",
            lambda: cam_c.apply(frame, frame=0, out=out),
            diff_check,
            "one normal per channel value",
        )
    )
    rng = np.random.default_rng(1)
    z = np.empty((h, wd, 1), np.float32)
    tmp = np.empty((h, wd, 3), np.float32)

    def numpy_cam() -> np.ndarray:
        rng.standard_normal(out=z, dtype=np.float32)
        np.multiply(z, np.float32(levels), out=z)
        np.add(frame, z, out=tmp)
        np.clip(tmp, 0, 255, out=tmp)
        np.rint(tmp, out=tmp)
        return tmp.astype(np.uint8)

    w.cases.append(
        Case(
            "numpy (float32 normals, add, clip, rint)",
            numpy_cam,
            diff_check,
            "one normal per pixel",
        )
    )
    cv2 = peers["cv2"]
    if cv2 is not None:
        noise = np.empty((h, wd, 3), np.int16)

        def cv2_cam() -> np.ndarray:
            cv2.randn(noise, (0.0,) * 3, (levels,) * 3)  # per channel; int16: whole levels
            return cv2.add(frame, noise, dtype=cv2.CV_8U)  # saturating add

        w.cases.append(
            Case("cv2.randn + cv2.add", cv2_cam, diff_check, "one int16 normal per channel value")
        )
    else:
        w.missing.append("cv2")
    torch = peers["torch"]
    if torch is not None:
        tf = torch.from_numpy(frame)
        tz = torch.empty((h, wd, 1), dtype=torch.float32)
        tg = torch.Generator().manual_seed(1)

        def torch_cam() -> object:
            torch.randn((h, wd, 1), out=tz, generator=tg)
            return (tf + tz * levels).clamp_(0, 255).round_().to(torch.uint8).numpy()

        w.cases.append(
            Case("torch (randn, add, clamp, round)", torch_cam, diff_check, "one normal per pixel")
        )
    else:
        w.missing.append("torch")
    return w


# ---- lidar -----------------------------------------------------------------------------


BASE, RISE = 0.01, 0.001  # m, m per m


def lidar(n: int, peers: dict[str, Any]) -> Workload:
    rng0 = np.random.default_rng(0)
    d = rng0.uniform(1.0, 80.0, n)
    u = rng0.normal(size=(n, 3))
    pts = u / np.linalg.norm(u, axis=1, keepdims=True) * d[:, None]
    w = Workload("lidar distance noise", f"{n:,} points", n, "point")
    expect = float(np.sqrt(np.mean((BASE + RISE * d) ** 2)))

    def err_check(res: object) -> str | None:
        p = res[0] if isinstance(res, tuple) else res
        p = np.asarray(p)
        return sd_check(expect, 0.05)(np.linalg.norm(p, axis=1) - d)

    model = fn.LidarNoise(
        distance_noise_stddev_base=BASE, distance_noise_stddev_rise_per_meter=RISE, seed=1
    )
    p_out = np.empty_like(pts)
    d_out = np.empty(n)
    m_out = np.empty(n, bool)
    w.cases.append(
        Case(
            "fastnoise",
            lambda: model.apply(pts, out=p_out, out_distances=d_out, out_hit_mask=m_out).points,
            err_check,
        )
    )
    rng = np.random.default_rng(1)

    def numpy_lidar() -> np.ndarray:
        dist = np.linalg.norm(pts, axis=1)
        eps = (BASE + RISE * dist) * rng.standard_normal(n)
        return pts * (1.0 + eps / dist)[:, None]

    w.cases.append(Case("numpy", numpy_lidar, err_check))
    numba = peers["numba"]
    if numba is not None:

        @numba.njit(cache=False)
        def lidar_loop(p, gen, out):  # type: ignore[no-untyped-def]
            for i in range(p.shape[0]):
                x, y, z = p[i, 0], p[i, 1], p[i, 2]
                dist = math.sqrt(x * x + y * y + z * z)
                if not (dist > 0.0 and dist < math.inf):
                    out[i, 0], out[i, 1], out[i, 2] = x, y, z
                    continue
                f = 1.0 + (BASE + RISE * dist) * gen.standard_normal() / dist
                out[i, 0], out[i, 1], out[i, 2] = x * f, y * f, z * f
            return out

        nrng = np.random.default_rng(1)
        nout = np.empty_like(pts)
        w.cases.append(
            Case(
                "numba loop over numpy's Generator", lambda: lidar_loop(pts, nrng, nout), err_check
            )
        )
    else:
        w.missing.append("numba")
    torch = peers["torch"]
    if torch is not None:
        tp = torch.from_numpy(pts)
        tz = torch.empty(n, dtype=torch.float64)
        tg = torch.Generator().manual_seed(1)

        def torch_lidar() -> object:
            dist = torch.linalg.vector_norm(tp, dim=1)
            torch.randn(n, out=tz, generator=tg, dtype=torch.float64)
            return (tp * (1.0 + (BASE + RISE * dist) * tz / dist)[:, None]).numpy()

        w.cases.append(Case("torch", torch_lidar, err_check))
    else:
        w.missing.append("torch")
    return w


# ---- IMU -------------------------------------------------------------------------------


def imu(n: int, peers: dict[str, Any]) -> Workload:
    dt = 0.01
    gyro, accel = fn.wt901c()
    w = Workload("IMU apply (WT901C model)", f"{n:.0e} samples x 6 axes", n, "sample")
    t = np.arange(n) * dt
    omega = np.column_stack([0.1 * np.sin(t), 0.05 * np.cos(t), 0.2 * np.ones(n)])
    acc = np.tile([0.1, -0.2, 9.81], (n, 1))
    w_out = np.empty_like(omega)
    a_out = np.empty_like(acc)
    model = fn.ImuNoise(gyro=gyro, accel=accel, seed=1)

    def fastnoise_imu() -> tuple[np.ndarray, np.ndarray]:
        model.reset()
        return model.apply(omega, acc, dt=dt, out_omega=w_out, out_accel=a_out)

    sd_g = float(np.sqrt(gyro.noise_stddev[0] ** 2 + gyro.gauss_markov_stddev[0] ** 2))

    def imu_check(res: object) -> str | None:
        wo = np.asarray(res[0])  # type: ignore[index]
        g_lin = omega + acc @ np.array(gyro.g_sensitivity).T
        return sd_check(sd_g, 0.25)((wo - g_lin)[:, 0])

    w.cases.append(Case("fastnoise", fastnoise_imu, imu_check))

    # the same model in plain arrays: per axis white sigma, GM (alpha, drive), lsb, fs
    par = []
    for tri in (gyro, accel):
        for i in range(3):
            tau = tri.gauss_markov_correlation_time[i]
            alpha = math.exp(-dt / tau)
            par.append(
                (
                    tri.noise_stddev[i],
                    alpha,
                    tri.gauss_markov_stddev[i] * math.sqrt(1 - alpha**2),
                    float(tri.lsb[i]),
                    tri.full_scale[i],
                )
            )
    par_arr = np.array(par)
    gs = np.array(gyro.g_sensitivity)
    scipy_signal = optional("scipy.signal")
    rng = np.random.default_rng(1)

    def numpy_imu() -> tuple[np.ndarray, np.ndarray]:
        x = np.hstack([omega + acc @ gs.T, acc])
        z = rng.standard_normal((2, n, 6))
        y = x + par_arr[:, 0] * z[0]
        for k in range(6):  # Gauss-Markov bias: b[j] = alpha b[j-1] + drive w[j]
            _, alpha, drive, _, _ = par_arr[k]
            y[:, k] += scipy_signal.lfilter([drive], [1.0, -alpha], z[1][:, k])
        np.clip(y, -par_arr[:, 4], par_arr[:, 4], out=y)
        y = np.round(y / par_arr[:, 3]) * par_arr[:, 3]
        return y[:, :3], y[:, 3:]

    if scipy_signal is not None:
        w.cases.append(Case("numpy + scipy.signal.lfilter (bias)", numpy_imu, imu_check))
    else:
        w.missing.append("scipy")
    numba = peers["numba"]
    if numba is not None:

        @numba.njit(cache=False)
        def imu_loop(om, ac, gsm, prm, gen, wo, ao):  # type: ignore[no-untyped-def]
            b = np.zeros(6)
            x = np.empty(6)
            for j in range(om.shape[0]):
                for i in range(3):
                    x[i] = (
                        om[j, i]
                        + gsm[i, 0] * ac[j, 0]
                        + gsm[i, 1] * ac[j, 1]
                        + gsm[i, 2] * ac[j, 2]
                    )
                    x[3 + i] = ac[j, i]
                for k in range(6):
                    b[k] = prm[k, 1] * b[k] + prm[k, 2] * gen.standard_normal()
                    y = x[k] + b[k] + prm[k, 0] * gen.standard_normal()
                    y = min(max(y, -prm[k, 4]), prm[k, 4])
                    y = np.round(y / prm[k, 3]) * prm[k, 3]
                    if k < 3:
                        wo[j, k] = y
                    else:
                        ao[j, k - 3] = y
            return wo, ao

        nrng = np.random.default_rng(1)
        nw = np.empty_like(omega)
        na = np.empty_like(acc)
        w.cases.append(
            Case(
                "numba loop over numpy's Generator",
                lambda: imu_loop(omega, acc, gs, par_arr, nrng, nw, na),
                imu_check,
            )
        )
    else:
        w.missing.append("numba")
    return w


# ---- DVL -------------------------------------------------------------------------------


def dvl(n: int, peers: dict[str, Any]) -> Workload:
    from fastnoise.models.dvl.config import example_config
    from fastnoise.models.dvl.simulator import MESSAGE_DTYPE, TRUTH_DTYPE

    cfg = example_config()
    names = list(cfg.sensors)
    prm = np.array(
        [[s.bias, s.noise_stddev, s.anchor, s.anchor_probability] for s in cfg.sensors.values()]
    )
    truth = np.zeros(n, TRUTH_DTYPE)
    values = (1.0, -2.0, 45.0, 1.5, 0.1, 0.0, 20.0, 5.0, 1.5, 600.0)
    for f, v in zip(TRUTH_DTYPE.names, values, strict=True):
        truth[f] = v
    cols = np.stack([truth[f] for f in TRUTH_DTYPE.names], axis=1)  # (n, 10)
    w = Workload("DVL messages (10 sensors + vN/vE/vU)", f"{n:.0e} messages", n, "message")
    sim = fn.DvlSimulator.from_config(cfg)
    out = np.empty(n, MESSAGE_DTYPE)
    sd_surge = float(prm[names.index("dvl_surge"), 1])

    def dvl_check(res: object) -> str | None:
        arr = np.asarray(res)
        surge = arr["surge"] if arr.dtype.names else arr[:, 3]
        ok = surge != prm[names.index("dvl_surge"), 2]
        return sd_check(sd_surge, 0.05)(surge[ok])

    w.cases.append(Case("fastnoise", lambda: sim.measure_many(truth, out=out), dvl_check))
    rng = np.random.default_rng(1)

    def numpy_dvl() -> np.ndarray:
        z = rng.standard_normal((n, 10))
        u = rng.random((n, 10))
        m = cols + prm[:, 0] + prm[:, 1] * z
        m = np.where(u < prm[:, 3], prm[:, 2], m)
        r, p, y = np.radians(m[:, 0]), np.radians(m[:, 1]), np.radians(m[:, 2])
        cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
        v = m[:, 3:6]
        vn = (
            cy * cp * v[:, 0]
            + (cy * sp * sr - sy * cr) * v[:, 1]
            + (cy * sp * cr + sy * sr) * v[:, 2]
        )
        ve = (
            sy * cp * v[:, 0]
            + (sy * sp * sr + cy * cr) * v[:, 1]
            + (sy * sp * cr - cy * sr) * v[:, 2]
        )
        vd = -sp * v[:, 0] + cp * sr * v[:, 1] + cp * cr * v[:, 2]
        return np.column_stack([m, vn, ve, -vd])

    w.cases.append(Case("numpy", numpy_dvl, dvl_check))
    numba = peers["numba"]
    if numba is not None:

        @numba.njit(cache=False)
        def dvl_loop(c, pr, gen, o):  # type: ignore[no-untyped-def]
            for j in range(c.shape[0]):
                for k in range(10):
                    z = gen.standard_normal()
                    if gen.random() < pr[k, 3]:
                        o[j, k] = pr[k, 2]
                    else:
                        o[j, k] = c[j, k] + pr[k, 0] + pr[k, 1] * z
                r = math.radians(o[j, 0])
                p = math.radians(o[j, 1])
                y = math.radians(o[j, 2])
                cr, sr, cp, sp = math.cos(r), math.sin(r), math.cos(p), math.sin(p)
                cy, sy = math.cos(y), math.sin(y)
                a, b, d = o[j, 3], o[j, 4], o[j, 5]
                o[j, 10] = cy * cp * a + (cy * sp * sr - sy * cr) * b + (cy * sp * cr + sy * sr) * d
                o[j, 11] = sy * cp * a + (sy * sp * sr + cy * cr) * b + (sy * sp * cr - cy * sr) * d
                o[j, 12] = -(-sp * a + cp * sr * b + cp * cr * d)
            return o

        nrng = np.random.default_rng(1)
        nout = np.empty((n, 13))
        w.cases.append(
            Case(
                "numba loop over numpy's Generator",
                lambda: dvl_loop(cols, prm, nrng, nout),
                dvl_check,
            )
        )
    else:
        w.missing.append("numba")
    return w


# ---- timing and report -----------------------------------------------------------------


def check_workload(w: Workload) -> None:
    """Run every case once: a warm-up (numba compiles here) and a plausibility check."""
    for c in w.cases:
        err = c.check(c.run())
        if err:
            raise SystemExit(f"{w.name} / {c.label}: implausible output: {err}")


def time_workload(w: Workload, rounds: int) -> dict[str, float]:
    """Median seconds per call of each case over interleaved rounds (a busy moment
    slows every case of the round alike)."""
    times: dict[str, list[float]] = {c.label: [] for c in w.cases}
    for _ in range(rounds):
        for c in w.cases:
            t0 = time.perf_counter()
            c.run()
            times[c.label].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def host(peers: dict[str, Any]) -> list[str]:
    def ver(name: str, mod: Any) -> str:
        return (
            f"{name} {getattr(mod, '__version__', '?')}"
            if mod is not None
            else f"{name}: not installed"
        )

    scipy = optional("scipy")
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    flags = ""
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
        flags = ", ".join(x for x in ("avx2", "avx512f") if f" {x} " in text)
    except OSError:
        pass
    return [
        f"CPU: {cpu_model()} ({flags or 'flags unknown'}); {os.cpu_count()} logical cores "
        f"visible, {usable} usable",
        f"OS: {platform.platform()}",
        f"Python {platform.python_version()}; numpy {np.__version__}; "
        f"fastnoise {fn.__version__} (SIMD path {simd.simd_path()})",
        "peers: "
        + "; ".join(
            [
                ver("mkl_random", peers["mkl_random"]),
                ver("torch", peers["torch"]),
                ver("opencv", peers["cv2"]),
                ver("numba", peers["numba"]),
                ver("scipy", scipy),
            ]
        ),
        "threads: one for every implementation",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, 3 rounds")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds per run (median)")
    ap.add_argument("--runs", type=int, default=3, help="whole measurements (ratios: median)")
    args = ap.parse_args(argv)
    scale = 0.01 if args.quick else 1.0
    rounds = 3 if args.quick else args.rounds
    if args.quick:
        args.runs = 1
    peers = {name: optional(name) for name in ("mkl_random", "torch", "cv2", "numba")}
    if peers["torch"] is not None:
        peers["torch"].set_num_threads(1)
    if peers["cv2"] is not None:
        peers["cv2"].setNumThreads(1)
    simd.set_simd_path(simd.simd_path())

    n_norm = int(10_000_000 * scale)
    workloads = [
        normals(n_norm, np.float64, peers),
        normals(n_norm, np.float32, peers),
        camera(peers),
        lidar(max(1024, int(262_144 * (scale if args.quick else 1))), peers),
        imu(max(1000, int(1_000_000 * scale)), peers),
        dvl(max(1000, int(100_000 * scale)), peers),
    ]
    for w in workloads:
        check_workload(w)
    # runs[r][workload][case] = median seconds; the ratios are taken within a run
    runs = [{w.name: time_workload(w, rounds) for w in workloads} for _ in range(args.runs)]
    print(
        "| workload | implementation | time per call | per item | vs fastnoise "
        f"(median of {args.runs} runs) | range over runs | note |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for w in workloads:
        for c in w.cases:
            sec = statistics.median(r[w.name][c.label] for r in runs)
            ratios = [r[w.name][c.label] / r[w.name]["fastnoise"] for r in runs]
            if c.label == "fastnoise":
                rel, spread = "1 (reference)", ""
            else:
                rel = f"{statistics.median(ratios):.2f}x"
                spread = f"{min(ratios):.2f}-{max(ratios):.2f}x"
            print(
                f"| {w.name}, {w.size} | {c.label} | {sec * 1e3:.2f} ms | "
                f"{sec / w.elements * 1e9:.2f} ns/{w.unit} | {rel} | {spread} | {c.note} |"
            )
        for m in w.missing:
            print(f"| {w.name}, {w.size} | {m} | not installed | | | | |")
    print()
    print("Host:")
    print()
    for line in host(peers):
        print(f"- {line}")
    print(
        f"- command: python docs/perf/measure_peers.py{' --quick' if args.quick else ''}"
        f" ({args.runs} run(s) of {rounds} interleaved rounds; times: median over runs of"
        " the per-run medians; ratios: within each run, median over runs)"
    )
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    if load is not None:
        print(
            f"- load average (1, 5, 15 min) at the end: {load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
