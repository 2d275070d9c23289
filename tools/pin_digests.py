"""Compute the pinned output digests of every model (tests/data/model_digests.json).

Each case runs one model through its public API with fixed seeds and parameters and
hashes the exact output bytes (SHA-256 of little-endian arrays). Besides the cases
written here, every model class of the registry gets ``<name>/contract``: its
declaration's exercise, run 3 times on its example. A refactor must keep every digest;
a deliberate change to a stream regenerates the file with ``--stream-change`` and says
why in the CHANGELOG.

    python tools/pin_digests.py            # print the digests as JSON
    python tools/pin_digests.py --write    # add new cases to tests/data/model_digests.json
    python tools/pin_digests.py --write --stream-change   # also replace changed ones

Only keyword arguments that survive API changes are used (``size=``, ``dtype=``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

import fastnoise as fn
from fastnoise.core import registry
from fastnoise.core.spec import Declaration
from fastnoise.io.sdf import load_sensors
from fastnoise.models.dvl.simulator import TRUTH_DTYPE

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "model_digests.json"


def _digest(*arrays: object) -> str:
    h = hashlib.sha256()
    for a in arrays:
        if a is None:  # an absent optional output
            h.update(b"none")
            continue
        arr = np.asarray(a)
        if arr.dtype == object:
            raise TypeError("object arrays have no stable bytes")
        if arr.dtype.names is None:
            arr = arr.astype(arr.dtype.newbyteorder("<"), copy=False)
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()


# ---- generator -----------------------------------------------------------------------
def _generator() -> Iterator[tuple[str, Callable[[], str]]]:
    for seed in (0, 12345, 2**63 + 17):
        for stream in (0, 7):

            def run(seed: int = seed, stream: int = stream) -> str:
                g = fn.GaussianNoiseGenerator(seed, stream)
                one = [g.generate() for _ in range(37)]
                scaled = [g.generate(0.25, 3.0) for _ in range(5)]
                a64 = g.normal(size=1000, dtype=np.float64)
                a32 = g.normal(size=1001, dtype=np.float32)
                return _digest(np.array(one), np.array(scaled), a64, a32)

            yield f"generator/seed={seed}/stream={stream}", run


# ---- rigid body and SensorSimulator ------------------------------------------------------
def _torques(n: int) -> np.ndarray:
    t = np.arange(n, dtype=np.float64)
    return np.stack([0.1 * np.sin(0.01 * t), 0.05 * np.cos(0.02 * t), 0.02 * np.ones(n)], 1)


def _rigid_body() -> Iterator[tuple[str, Callable[[], str]]]:
    for kin in ("axis", "zyx"):

        def run(kin: str = kin) -> str:
            b = fn.RigidBodySimulator([1.0, 2.0, 3.0], omega=[0.3, -0.2, 0.1], kinematics=kin)
            rows = []
            for tau in _torques(500):
                b.update(0.01, tau)
                rows.append([*b.omega, b.roll, b.pitch, b.yaw])
            return _digest(np.array(rows))

        yield f"rigid_body/kinematics={kin}", run


def _sensor_simulator() -> Iterator[tuple[str, Callable[[], str]]]:
    for seed, sigma, drift in ((1, 0.01, 0.001), (99, (0.02, 0.03, 0.04), (0.0, 1e-3, -2e-3))):

        def run(seed: int = seed, sigma: object = sigma, drift: object = drift) -> str:
            b = fn.RigidBodySimulator([1.0, 2.0, 3.0], omega=[0.3, -0.2, 0.1])
            s = fn.SensorSimulator(b, seed=seed, noise_stddev=sigma, drift_rate=drift)
            rows = []
            for tau in _torques(300):
                b.update(0.01, tau)
                s.update(0.01)
                rows.append(np.concatenate([s.read_angular_velocity(), s.read_orientation()]))
            return _digest(np.array(rows))

        yield f"sensor_simulator/seed={seed}", run


# ---- IMU --------------------------------------------------------------------------------
def _imu_models() -> Iterator[tuple[str, dict]]:
    gyro, accel = fn.wt901c()
    yield "wt901c", {"gyro": gyro, "accel": accel}
    full = fn.TriadNoise(
        noise_stddev=0.01,
        noise_density=(1e-3, 2e-3, 3e-3),
        bias=(0.1, -0.1, 0.05),
        turn_on_bias_mean=0.02,
        turn_on_bias_stddev=0.01,
        gauss_markov_stddev=0.005,
        gauss_markov_correlation_time=(10.0, 20.0, 30.0),
        random_walk_density=1e-4,
        scale_factor=(1e-3, -2e-3, 5e-4),
        misalignment=[[0, 1e-3, 0], [-1e-3, 0, 2e-3], [0, 0, 0]],
        g_sensitivity=1e-4,
        full_scale=4.0,
        bits=16,
    )
    acc = fn.TriadNoise(
        noise_stddev=0.05,
        gauss_markov_stddev=0.01,
        gauss_markov_correlation_time=5.0,
        gauss_markov_steady_state=True,
        full_scale=30.0,
        resolution=1e-3,
    )
    yield "full", {"gyro": full, "accel": acc}
    gz = fn.TriadNoise(
        noise_stddev=0.009,
        turn_on_bias_mean=0.1,
        turn_on_bias_stddev=0.05,
        gauss_markov_stddev=0.01,
        gauss_markov_correlation_time=3.0,
        turn_on_bias_decays=True,
    )
    yield "gazebo_decay", {"gyro": gz, "accel": fn.TriadNoise(noise_density=0.002)}
    # Gazebo's precision rounding (a division, halves away from zero), precision and
    # dynamic bias on some axes only
    gz_axes = fn.TriadNoise(
        noise_stddev=0.009,
        turn_on_bias_mean=(0.1, 0.2, 0.3),
        turn_on_bias_stddev=0.05,
        gauss_markov_stddev=(0.01, 0.0, 0.02),
        gauss_markov_correlation_time=(3.0, 0.0, 5.0),
        turn_on_bias_decays=True,
        resolution=(0.01, 0.0, 0.025),
        rounding="gazebo",
    )
    gz_acc = fn.TriadNoise(noise_stddev=0.05, resolution=0.02, rounding="gazebo")
    yield "gazebo_axes", {"gyro": gz_axes, "accel": gz_acc}


def _imu_inputs(n: int) -> tuple[np.ndarray, np.ndarray]:
    t = np.arange(n, dtype=np.float64) * 0.01
    omega = np.stack([np.sin(t), 0.5 * np.cos(t), 0.1 * t / (1 + t)], 1)
    accel = np.stack([0.2 * np.sin(2 * t), np.zeros(n), 9.81 + 0.1 * np.cos(t)], 1)
    return omega, accel


def _imu() -> Iterator[tuple[str, Callable[[], str]]]:
    for name, kw in _imu_models():
        for nd in ("float32", "float64"):

            def run(kw: dict = kw, nd: str = nd) -> str:
                omega, accel = _imu_inputs(2000)
                m = fn.ImuNoise(**kw, seed=5, normal_dtype=nd)
                w1, a1 = m.apply(omega, accel, 0.01)
                dts = np.full(2000, 0.01)
                dts[::7] = 0.02
                w2, a2 = m.apply(omega, accel, dts)
                steps = []
                for i in range(50):
                    w, a = m.step(omega[i], accel[i], 0.005)
                    steps.append(np.concatenate([w, a]))
                return _digest(w1, a1, w2, a2, np.array(steps))

            yield f"imu/{name}/normal_dtype={nd}", run


# ---- DVL ---------------------------------------------------------------------------------
def _dvl() -> Iterator[tuple[str, Callable[[], str]]]:
    def awn() -> str:
        s = fn.AugmentedWhiteNoise(0.1, 0.5, anchor=-1.0, anchor_probability=0.2, seed=3)
        one = [s.measure(float(i)) for i in range(100)]
        many = s.measure_many(np.linspace(-5, 5, 3001))
        return _digest(np.array(one), many)

    yield "augmented_white_noise", awn

    cfg = Path(fn.__file__).parent / "data" / "dvl_example_config.json"

    for threads in (1, 2):

        def dvl(threads: int = threads) -> str:
            sim = fn.DvlSimulator.from_config(cfg, seed=11)
            n = 2500
            truth = np.zeros(n, dtype=TRUTH_DTYPE)
            for j, f in enumerate(truth.dtype.names):
                truth[f] = np.linspace(-1.0, 1.0, n) * (j + 1)
            first = [tuple(sim.measure(truth[i])) for i in range(20)]
            many = sim.measure_many(truth, threads=threads)
            return _digest(np.array(first), many)

        yield f"dvl_simulator/threads={threads}", dvl


# ---- lidar and range ---------------------------------------------------------------------
def _cloud(n: int, dtype: type) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    d = rng.uniform(1.0, 80.0, n)
    az = rng.uniform(-np.pi, np.pi, n)
    el = rng.uniform(-0.3, 0.3, n)
    p = np.stack([d * np.cos(el) * np.sin(az), d * np.sin(el), d * np.cos(el) * np.cos(az)], 1)
    # given distances differ from |p| so a rewrite of the distance field is visible
    return p.astype(dtype), (d * 1.01 + 0.5).astype(dtype)


def _lidar() -> Iterator[tuple[str, Callable[[], str]]]:
    params = {
        "ray": {"ray_angular_noise_stddev": 0.01, "ray_angular_noise_mean": 0.001},
        "hitpoint": {
            "hitpoint_angular_noise_stddev": 0.002,
            "hitpoint_angular_noise_mean": -0.001,
        },
        "all": {
            "ray_angular_noise_stddev": 0.003,
            "hitpoint_angular_noise_stddev": 0.002,
            "distance_noise_mean": 0.01,
            "distance_noise_stddev_base": 0.02,
            "distance_noise_stddev_rise_per_meter": 0.001,
        },
    }
    pose = np.eye(4)
    pose[:3, :3] = [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    pose[:3, 3] = [1.0, 2.0, 0.5]
    for name, kw in params.items():
        for dt in (np.float64, np.float32):

            def run(kw: dict = kw, dt: type = dt) -> str:
                m = fn.LidarNoise(**kw, seed=21)
                pts, dist = _cloud(4099, dt)
                mask = np.ones(len(pts), dtype=bool)
                mask[::11] = False
                r1 = m.apply(pts, distances=dist, hit_mask=mask, frame=3)
                r2 = m.apply(pts, lidar_pose=pose, frame=2**40, first_index=5)
                rays = np.tile(np.eye(4), (64, 1, 1))
                rays[:, 0, 3] = np.arange(64)
                r3 = m.perturb_rays(rays, lidar_pose=pose, frame=9)
                return _digest(*r1, *r2, r3)

            yield f"lidar/{name}/{np.dtype(dt).name}", run

    for name, kw in (
        ("plain", {"mean": 0.0, "stddev": 0.01}),
        ("bias", {"mean": 0.01, "stddev": 0.02, "bias_mean": 0.05, "bias_stddev": 0.01}),
        ("precision", {"mean": 0.0, "stddev": 0.05, "precision": 0.01}),
    ):

        def rng_run(kw: dict = kw) -> str:
            m = fn.RangeNoise(min_range=0.5, max_range=30.0, **kw, seed=8)
            r = np.linspace(0.0, 40.0, 2049)
            r[::13] = np.inf
            r[::17] = np.nan
            out = [m.apply(r, frame=f) for f in range(3)]
            one = [m.apply_one(5.0, frame=4, index=i) for i in range(20)]
            return _digest(*out, np.array(one), np.array([m.bias]))

        yield f"range/{name}", rng_run

    for name, kw in (
        ("gazebo_cpu", {"noise_type": "gaussian", "mean": 0.01, "stddev": 0.02, "cpu_lidar": True}),
        ("gazebo_off", {"noise_type": "gaussian", "bias_stddev": 0.3, "cpu_lidar": True}),
    ):

        def gz_run(kw: dict = kw) -> str:
            m = fn.RangeNoise.from_gazebo(0.5, 30.0, **kw, bias_mean=0.0, seed=8)
            r = np.linspace(0.0, 40.0, 2049)
            r[::17] = np.nan
            return _digest(*(m.apply(r, frame=f) for f in range(3)), np.array([m.bias]))

        yield f"range/{name}", gz_run


def _carla() -> Iterator[tuple[str, Callable[[], str]]]:
    for name, kw in (
        ("defaults", {}),
        ("noise", {"noise_stddev": 0.05, "dropoff_general_rate": 0.1}),
    ):
        for dt in (np.float64, np.float32):

            def run(kw: dict = kw, dt: type = dt) -> str:
                m = fn.CarlaLidarNoise(**kw, seed=31)
                pts, _ = _cloud(4099, dt)
                cloud = np.hstack([pts, np.zeros((len(pts), 2), dtype=dt)])
                cloud[::13, 0] = np.nan
                r1 = m.apply(cloud, frame=3, drop=False)
                r2 = m.apply(np.stack([cloud[:700], cloud[700:1400]]), frame=2**40, first_index=9)
                r3 = m.apply(cloud, frame=5)
                return _digest(*r1, *r2, *r3)

            yield f"carla_lidar/{name}/{np.dtype(dt).name}", run


# ---- Gazebo noise (gz-sensors GaussianNoiseModel) and its sensors ----------------------
_GZ_FULL = {
    "mean": 0.01,
    "stddev": 0.2,
    "bias_mean": 0.5,
    "bias_stddev": 0.1,
    "dynamic_bias_stddev": 0.05,
    "dynamic_bias_correlation_time": 3.0,
    "precision": 1e-4,
}


def _gazebo() -> Iterator[tuple[str, Callable[[], str]]]:
    for name, kw in (
        ("white", {"mean": 0.1, "stddev": 0.5}),
        ("full", _GZ_FULL),
    ):

        def run(kw: dict = kw) -> str:
            m = fn.GazeboNoise(**kw, seed=31)
            x = np.linspace(-5.0, 5.0, 1031)
            a = m.apply(x, 0.01)
            b = m.apply(x, np.linspace(0.0, 0.2, 1031))
            one = [m.apply_one(1.0, 0.05) for _ in range(20)]
            return _digest(a, b, np.array(one), np.array([m.bias]))

        yield f"gazebo_noise/{name}", run

    rows = np.random.default_rng(3).uniform(-60.0, 60.0, (517, 6))
    sensors = {
        "magnetometer": lambda: fn.MagnetometerNoise(_GZ_FULL, None, _GZ_FULL, seed=32),
        "altimeter": lambda: fn.AltimeterNoise(_GZ_FULL, _GZ_FULL, seed=33),
        "air_pressure": lambda: fn.AirPressureNoise(_GZ_FULL, seed=34),
        "air_speed/hectopascals": lambda: fn.AirSpeedNoise(_GZ_FULL, seed=35),
        "air_speed/pascals": lambda: fn.AirSpeedNoise(_GZ_FULL, pressure_units="pascals", seed=35),
        "navsat/degrees": lambda: fn.NavSatNoise(_GZ_FULL, _GZ_FULL, _GZ_FULL, _GZ_FULL, seed=36),
        "navsat/metres": lambda: fn.NavSatNoise(
            _GZ_FULL, _GZ_FULL, _GZ_FULL, _GZ_FULL, horizontal_units="metres", seed=36
        ),
        "force_torque": lambda: fn.ForceTorqueNoise(*[_GZ_FULL] * 6, seed=37),
    }
    for name, make in sensors.items():

        def srun(make: Callable[[], fn.core.model.Model] = make) -> str:
            m = make()
            ncol = m.n_columns
            data = rows[:, 0] if ncol == 1 else rows[:, :ncol]
            a = m.apply(data, 0.02)
            one = [m.apply_one(*np.atleast_1d(data[i]).tolist(), dt=0.02) for i in range(9)]
            return _digest(a, np.array(one))

        yield f"{name}", srun


# ---- camera --------------------------------------------------------------------------
def _camera() -> Iterator[tuple[str, Callable[[], str]]]:
    rng = np.random.default_rng(1)
    images = {
        "uint8_rgb": rng.integers(0, 256, (37, 53, 3), dtype=np.uint8),
        "uint8_rgba": rng.integers(0, 256, (16, 20, 4), dtype=np.uint8),
        "uint8_gray": rng.integers(0, 256, (31, 29), dtype=np.uint8),
        "uint16_rgb": rng.integers(0, 65536, (21, 33, 3), dtype=np.uint16),
        "float32_rgb": rng.random((19, 23, 3), dtype=np.float32),
        "float64_gray": rng.random((17, 41)),
    }
    # (case label, variant, linear_light, per_channel); linear_light None: the variant's
    # default (ogre2: linear light, as Gazebo's sRGB render targets)
    modes = (
        ("gazebo", "gazebo", None, False),
        ("gazebo", "gazebo", None, True),
        ("ogre2", "ogre2", None, False),
        ("ogre2-stored", "ogre2", False, False),
        ("gazebo-linear", "gazebo", True, True),
    )
    for name, img in images.items():
        for label, variant, linear, per_channel in modes:

            def run(
                img: np.ndarray = img,
                variant: str = variant,
                linear: bool | None = linear,
                pc: bool = per_channel,
            ) -> str:
                m = fn.ImageNoise(
                    0.01, 0.05, per_channel=pc, variant=variant, linear_light=linear, seed=4
                )
                outs = [m.apply(img) for _ in range(3)]
                outs.append(m.apply(img, frame=2**33))
                outs.append(m.apply(img[5:], frame=1, row_offset=5))
                return _digest(*outs)

            yield f"camera/{name}/{label}/per_channel={per_channel}", run


def _depth() -> Iterator[tuple[str, Callable[[], str]]]:
    rng = np.random.default_rng(3)
    for dt in (np.float32, np.float64):
        d = rng.uniform(0.05, 40.0, (23, 31)).astype(dt)
        d.flat[::17] = np.nan
        d.flat[3::29] = np.inf
        d.flat[5::31] = -np.inf
        for label, clip in (("noclip", {}), ("clip", {"near": 0.5, "far": 30.0})):

            def run(d: np.ndarray = d, clip: dict = clip) -> str:
                m = fn.DepthNoise(0.02, 0.3, seed=6, **clip)
                outs = [m.apply(d) for _ in range(3)]
                outs.append(m.apply(d[..., None], frame=2**40))
                return _digest(*outs)

            yield f"depth/{np.dtype(dt).name}/{label}", run


# ---- load_sensors: SDF files -> models ------------------------------------------------
SDF_DATA = DATA.parent / "sdf"
# one sensor of each lidar and camera type, with Gazebo's noise and limits
_SDF_RENDERED = """<sdf version="1.9"><world name="w"><model name="m"><link name="l">
<sensor name="cpu" type="ray"><ray><range><min>0.5</min><max>30</max></range>
<noise><type>gaussian</type><mean>0.01</mean><stddev>0.05</stddev></noise></ray></sensor>
<sensor name="gpu" type="gpu_lidar"><lidar><range><min>0.5</min><max>30</max></range>
<noise><type>gaussian</type><mean>0.01</mean><stddev>0.05</stddev></noise></lidar></sensor>
<sensor name="cam" type="camera"><camera><image><width>8</width><height>6</height></image>
<noise><type>gaussian</type><mean>0.01</mean><stddev>0.07</stddev></noise></camera></sensor>
<sensor name="depth" type="depth_camera"><camera><clip><near>0.1</near><far>20</far></clip>
<noise><type>gaussian</type><mean>0.0</mean><stddev>0.02</stddev></noise></camera></sensor>
<sensor name="rgbd" type="rgbd_camera"><camera><clip><near>0.1</near><far>20</far></clip>
<noise><type>gaussian</type><mean>0.0</mean><stddev>0.03</stddev></noise></camera></sensor>
</link></model></world></sdf>"""


def _sdf() -> Iterator[tuple[str, Callable[[], str]]]:
    """``sdf/<file>/<variant>``: every model ``load_sensors`` builds from a real SDF file
    (or the inline one above), each run by its declaration's ``exercise``, so a change
    to the SDF-to-parameters mapping or to the per-sensor seeds changes a digest."""
    files = (("gz-sim", "non_rendering_sensors"), ("gz-sim", "sensors"), ("sdformat", "sensors"))
    sources: dict[str, str | Path] = {f"{p}/{f}": SDF_DATA / p / f"{f}.sdf" for p, f in files}
    sources["inline"] = _SDF_RENDERED
    for label, src in sources.items():
        # the camera variant matters only where there are cameras
        variants = ("ogre2", "gazebo") if label in ("sdformat/sensors", "inline") else ("ogre2",)
        for variant in variants:

            def run(src: str | Path = src, variant: str = variant) -> str:
                found = load_sensors(src, seed=2024, camera_variant=variant)
                outs = []
                for rec in found.values():
                    for name in sorted(rec.models):
                        ex = registry.get(name).exercise
                        assert ex is not None
                        outs += [ex(rec.models[name]) for _ in range(2)]
                return _digest(*outs)

            yield f"sdf/{label}/{variant}", run


# ---- every registered model, from its declaration -------------------------------------
def _contract() -> Iterator[tuple[str, Callable[[], str]]]:
    """``<name>/contract``: the declaration's ``exercise`` run 3 times on its
    ``example``, for every model class fastnoise defines (a new model is pinned without
    an edit here; a plugin's or a test's model is not fastnoise's to pin)."""
    for decl in registry.models():
        cls = decl.cls
        if cls is None or not cls.__module__.startswith("fastnoise."):
            continue

        def run(decl: Declaration = decl) -> str:
            assert decl.example is not None and decl.exercise is not None
            m = decl.example(decl.cls)
            return _digest(*(decl.exercise(m) for _ in range(3)))

        yield f"{decl.name}/contract", run


def _all_cases() -> list[list[tuple[str, Callable[[], str]]]]:
    return [
        list(g())
        for g in (
            _generator,
            _rigid_body,
            _sensor_simulator,
            _imu,
            _dvl,
            _lidar,
            _carla,
            _gazebo,
            _camera,
            _depth,
            _sdf,
            _contract,
        )
    ]


def all_cases() -> list[tuple[str, Callable[[], str]]]:
    return [case for group in _all_cases() for case in group]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"add the digests of new cases to {DATA}")
    ap.add_argument(
        "--stream-change",
        action="store_true",
        help="with --write: also replace digests that changed (a deliberate stream change)",
    )
    args = ap.parse_args()
    digests = {name: run() for name, run in all_cases()}
    old = json.loads(DATA.read_text()) if DATA.exists() else {"digests": {}}
    changed = sorted(n for n, d in old["digests"].items() if digests.get(n, d) != d)
    gone = sorted(set(old["digests"]) - set(digests))
    if args.write and (changed or gone) and not args.stream_change:
        print(
            f"refused: digests changed {changed} or cases are gone {gone}; a refactor keeps "
            "every digest (a deliberate stream change: --stream-change, and a CHANGELOG line)",
            file=sys.stderr,
        )
        return 1
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent,
    ).stdout.strip()
    if args.stream_change or "pinned_at_commit" not in old:
        doc = {"pinned_at_commit": commit, "stream_version": 2, "digests": digests}
    else:  # only additions: the old digests and the commit they were pinned at stay
        doc = {**old, "digests": {**digests, **old["digests"]}}
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    if args.write:
        added = sorted(set(digests) - set(old["digests"]))
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(text)
        print(f"wrote {len(digests)} digests to {DATA} ({len(added)} new: {added})")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
