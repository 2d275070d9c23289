"""A user-style tour of the whole public API, checked by ``mypy --strict`` against the
installed package's stubs (CI step 35-typing) and run as a script there too, so the
stubs describe code that works. Every name in ``fastnoise.__all__`` is used here
(tests/test_typing.py checks that), and so is every name 0.3 moved from the top level to
the module of its concern.
"""

from __future__ import annotations

import copy
import io
import json
import pickle
import tempfile
from pathlib import Path

import numpy as np
import numpy.typing as npt

import fastnoise as fn
from fastnoise import (
    AdditiveBiasNoise,
    AirPressureNoise,
    AirSpeedNoise,
    AltimeterNoise,
    AugmentedWhiteNoise,
    CarlaLidarNoise,
    ConstantNoise,
    DepthNoise,
    DvlSensorNoise,
    DvlSimulator,
    ForceTorqueNoise,
    GaussianNoise,
    GaussianNoiseGenerator,
    GazeboNoise,
    ImageNoise,
    ImuNoise,
    LidarNoise,
    MagnetometerNoise,
    NavSatNoise,
    RangeNoise,
    RigidBodySimulator,
    SensorSimulator,
    TriadNoise,
    UniformNoise,
)
from fastnoise.core.buffers import release_spare_memory, spare_memory
from fastnoise.core.simd import set_simd_path, simd_path, simd_paths_available
from fastnoise.io.sdf import imu_noise_params_from_sdf
from fastnoise.models.dvl import (
    DvlConfig,
    DvlMeasurement,
    DvlRangeWarning,
    load_config,
    save_config,
)
from fastnoise.models.imu import (
    ImuSamples,
    gauss_markov_stddev_from_gazebo,
    odometry_covariances,
    triad_covariance,
)
from fastnoise.models.lidar import HITPOINT_BASED, RAY_BASED


def generator() -> float:
    g = GaussianNoiseGenerator(seed=42)
    x: float = g.generate(0.0, 0.01)
    z: npt.NDArray[np.float64] | npt.NDArray[np.float32] = g.normal(0.0, 1.0, 1000)
    s = g.standard_normal(16, dtype=np.float32, threads=2)
    h = g.copy()
    h.state = g.state
    assert pickle.loads(pickle.dumps(g)) == g
    kids: list[GaussianNoiseGenerator] = g.spawn(2)
    g.reset()
    return x + float(z[0]) + float(s[0]) + len(kids) + g.key % 2


def simd() -> str:
    path: str = simd_path()
    assert path in simd_paths_available()
    return set_simd_path(path)


def motion() -> npt.NDArray[np.float64]:
    body = RigidBodySimulator([10.0, 8.0, 12.0], omega=[0.1, 0.0, 0.0])
    sensor = SensorSimulator(body, seed=1, noise_stddev=0.001, drift_rate=1e-6)
    for _ in range(10):
        body.update(0.01, [0.1, -0.05, 0.02])
        sensor.update(0.01)
    rates = sensor.read_angular_velocity()
    angles = sensor.read_orientation()
    twin = SensorSimulator.from_state(sensor.state, source=body)
    assert twin.state == sensor.state
    return np.concatenate([rates, angles])


def imu() -> float:
    gyro, accel = fn.wt901c()
    m = ImuNoise(gyro=gyro, accel=accel, seed=5)
    w, a = m.step(np.zeros(3), np.array([0.0, 0.0, 9.81]), 0.01)
    ws, acs = m.apply(np.zeros((100, 3)), np.tile([0.0, 0.0, 9.81], (100, 1)), 0.01)
    rec_: ImuSamples = m.apply(np.zeros((2, 3)), np.zeros((2, 3)), 0.01)
    assert rec_.omega.shape == rec_.accel.shape == (2, 3)
    cov = triad_covariance(gyro, 0.01)
    odo = odometry_covariances()
    sigma = gauss_markov_stddev_from_gazebo(0.01, 100.0)
    t = TriadNoise(noise_stddev=0.01, bias=(0.1, 0.0, -0.1))
    assert copy.deepcopy(m).state == m.state
    sdf = """<sdf version="1.9"><model name="m"><link name="l"><sensor name="imu" type="imu">
      <imu><angular_velocity><x><noise type="gaussian"><stddev>0.009</stddev></noise></x>
      </angular_velocity></imu></sensor></link></model></sdf>"""
    from_sdf = fn.from_sdf(sdf, seed=3)
    g2, a2 = imu_noise_params_from_sdf(sdf)
    assert isinstance(from_sdf, ImuNoise) and isinstance(g2, TriadNoise)
    found = fn.load_sensors(sdf, seed=3, search_path=["."], camera_variant="ogre2")
    rec = found["m::l::imu"]
    assert rec.type == "imu" and rec.noisy and isinstance(rec.models["imu"], ImuNoise)
    assert found.by_type("imu") == [rec] and found.unresolved == () and rec.line == 1
    total = float(w[0] + a[0] + ws[0, 0] + acs[0, 0] + cov[0]) + sigma
    return total + len(odo) + float(np.sum(t.noise_stddev)) + float(np.sum(a2.bias))


def dvl() -> float:
    awn = AugmentedWhiteNoise(0.1, 0.5, anchor=-1.0, anchor_probability=0.01, seed=3)
    y: float = awn.measure(1.0)
    sim = DvlSimulator(seed=7)
    msg: DvlMeasurement = sim.measure(
        {
            f: 0.5
            for f in (
                "roll",
                "pitch",
                "yaw",
                "surge",
                "sway",
                "heave",
                "depth",
                "altitude",
                "water_speed",
                "rpm",
            )
        }
    )
    cfg: DvlConfig = sim.to_config()
    buf = io.StringIO()
    save_config(cfg, buf)
    again = load_config(io.StringIO(buf.getvalue()))
    noise = DvlSensorNoise(bias=0.1, noise_stddev=0.2)
    assert issubclass(DvlRangeWarning, UserWarning)
    return y + msg.vn + len(again.sensors) + noise.bias


def lidar() -> float:
    pts = np.random.default_rng(0).uniform(-20.0, 20.0, (64, 3))
    m = LidarNoise(hitpoint_angular_noise_stddev=0.002, distance_noise_stddev_base=0.02, seed=8)
    res = m.apply(pts, frame=2)
    nxt = m.apply(pts, out_distances=np.empty(64), out_hit_mask=np.empty(64, dtype=bool))
    counter: int = m.frame  # the frame counter: 1 after one apply without frame
    assert counter == 1 and nxt.distances.shape == (64,)
    m.reset()
    rgl = LidarNoise.from_rgl(HITPOINT_BASED, 0.001, 0.0, 0.02, 0.001, 0.0, seed=8)
    ray = LidarNoise.from_rgl(RAY_BASED, 0.001, 0.0, 0.0, 0.0, 0.0, seed=8)
    rays = ray.perturb_rays(np.tile(np.eye(4), (4, 1, 1)), frame=1)
    r = RangeNoise(0.0, 0.01, 0.5, 30.0, seed=9)
    scan = r.apply(np.linspace(0.0, 40.0, 16), frame=1)
    one: float = r.apply_one(5.0, frame=1, index=3)
    gz = RangeNoise.from_gazebo(0.1, 30.0, noise_type="gaussian", stddev=0.01, cpu_lidar=True)
    on: bool = gz.enabled and gz.inf_outside_limits
    return float(res.points[0, 0] + scan[0] + rays[0, 0, 0]) + one + rgl.key % 2 + on


def carla() -> int:
    cloud = np.random.default_rng(1).uniform(-30.0, 30.0, (64, 5)).astype(np.float32)
    m = CarlaLidarNoise(noise_stddev=0.02, seed=12)
    kept = m.apply(cloud, frame=3)
    batch = m.apply(np.stack([cloud, cloud]), frame=4)
    mask: npt.NDArray[np.bool_] = batch.mask
    return int(kept.points.shape[0]) + int(mask.sum()) + int(m.dropoff_general_rate > 0)


def camera() -> int:
    img = np.zeros((4, 6, 3), dtype=np.uint8)
    cam = ImageNoise(0.0, 0.05, seed=10)
    out = cam.apply(img)
    ogre2 = ImageNoise(0.0, 0.2, variant="ogre2", seed=10, linear_light=False)
    lit: bool = ogre2.linear_light
    return int(out.sum()) + cam.frame + int(ogre2.apply(img).sum()) + int(lit)


def depth() -> float:
    d = np.full((4, 6), 2.5, dtype=np.float32)
    m = DepthNoise(0.0, 0.01, seed=10, near=0.1, far=10.0)
    noisy: npt.NDArray[np.float32] = m.apply(d)  # frame 0, then the counter moves on
    m.apply(d, frame=0, out=d)  # in place, random access
    clip: float | None = m.far
    back = DepthNoise.from_state(m.state)
    back.reset()
    return float(noisy.sum()) + m.frame + float(clip or 0.0) + back.key % 2


def gazebo() -> float:
    g = GazeboNoise(
        0.0,
        0.1,
        bias_mean=0.2,
        dynamic_bias_stddev=0.01,
        dynamic_bias_correlation_time=5.0,
        precision=0.01,
        seed=11,
    )
    y: float = g.apply_one(1.0, dt=0.01)
    ys = g.apply(np.zeros(8), dt=np.full(8, 0.01))
    noise = {"stddev": 1e-6, "bias_mean": 1e-7}
    mag = MagnetometerNoise(x=noise, y=noise, z=None, seed=12)
    fx, fy, fz = mag.apply_one(2e-5, 0.0, -4e-5)
    alt = AltimeterNoise(vertical_position={"stddev": 0.1}, seed=13)
    p, v = alt.apply_one(10.0, 0.5)
    air = AirPressureNoise(pressure={"stddev": 2.0}, seed=14)
    pa: float = air.apply_one(101325.0) + air.reported_variance
    spd = AirSpeedNoise(pressure={"stddev": 0.01}, pressure_units="pascals", seed=15)
    dp: float = spd.apply_one(300.0) + float(spd.apply(np.full(4, 300.0))[0])
    nav = NavSatNoise({"stddev": 2.0}, horizontal_units="metres", seed=16)
    lat, lon, h, ve, vn, vu = nav.apply_one(48.1, 11.6, 520.0)
    rows = nav.apply(np.zeros((3, 6)), dt=0.1)
    ft = ForceTorqueNoise(force_z={"stddev": 0.5}, seed=17)
    w = ft.apply_one(0.0, 0.0, 9.81, 0.0, 0.0, 0.0, dt=0.001)
    total = y + float(ys[0]) + fx + fy + fz + p + v + pa + dp + lat + lon + h + ve + vn + vu
    return total + float(rows[0, 0]) + w[2] + g.bias + mag.bias("x") + g.count


def isaac_lab() -> float:
    """Isaac Lab's noise terms, a batch of 4 environments of 3 components."""
    obs = np.zeros((4, 3))
    g = GaussianNoise(stddev=0.1, num_envs=4, seed=18)
    u = UniformNoise(n_min=0.9, n_max=1.1, operation="scale", env=2, seed=19)
    c = ConstantNoise(bias=0.5, operation="abs", seed=20)
    b = AdditiveBiasNoise(noise={"type": "gaussian", "stddev": 0.01}, size=3, num_envs=4, seed=21)
    y: np.ndarray = g.apply(obs) + b.apply(obs)
    b.reset(env_ids=[1, 3])
    return float(y[0, 0] + u.apply(np.ones(3))[0] + c.apply(np.ones(3))[0] + b.bias[0, 0])


def memory() -> int:
    n: int = spare_memory()
    release_spare_memory()
    return n


def main() -> None:
    with tempfile.TemporaryDirectory() as d:
        Path(d, "tour.json").write_text(json.dumps({"generator": generator()}))
    print(
        simd(),
        motion().shape,
        imu() != 0.0,
        dvl() != 0.0,
        lidar() != 0.0,
        gazebo() != 0.0,
        carla(),
        camera(),
        depth() != 0.0,
        isaac_lab() != 0.0,
        memory() >= 0,
    )
    print("api tour: ok")


if __name__ == "__main__":
    main()
