"""1,000 steps of Gymnasium's Ant with a noisy IMU, clean vs noisy gyro plotted.

Gymnasium's Ant has no IMU, so a gyro and an accelerometer are added to its torso with
``mujoco.MjSpec``; ``fastnoise.mujoco.SensorNoise`` noises them (white noise, a turn-on
bias and a random walk on the gyro) and ``fastnoise.gym.ObservationNoise`` noises the
observation's first 13 values (torso pose). Nothing is trained: the actions are random.

    python examples/noisy_ant.py [out.png]    # needs fastnoise[sim] and matplotlib
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import gymnasium as gym
import matplotlib
import mujoco
import numpy as np

from fastnoise.gym import ObservationNoise
from fastnoise.mujoco import SensorNoise

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STEPS = 1000
GYRO_SD = 0.02  # rad/s, white noise per sample


def ant_with_imu(folder: Path) -> Path:
    """Gymnasium's ant.xml with a gyro and an accelerometer at the torso's centre."""
    assets = Path(gym.__file__).parent / "envs" / "mujoco" / "assets"
    spec = mujoco.MjSpec.from_file(str(assets / "ant.xml"))
    torso = spec.body("torso")
    torso.add_site(name="imu", pos=[0.0, 0.0, 0.0])
    obj = mujoco.mjtObj.mjOBJ_SITE
    spec.add_sensor(name="gyro", type=mujoco.mjtSensor.mjSENS_GYRO, objtype=obj, objname="imu")
    spec.add_sensor(
        name="accel", type=mujoco.mjtSensor.mjSENS_ACCELEROMETER, objtype=obj, objname="imu"
    )
    path = folder / "ant_imu.xml"
    path.write_text(spec.to_xml())
    return path


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = gym.make("Ant-v5", xml_file=str(ant_with_imu(Path(tmp))))
        env = ObservationNoise(
            base, noise=[(slice(0, 13), {"model": "gaussian_noise", "stddev": 0.01})], seed=0
        )
        ant: Any = base.unwrapped  # Gymnasium's MujocoEnv: its model, data, frame_skip
        model, data = ant.model, ant.data
        imu = SensorNoise(
            model,
            seed=0,
            steps=ant.frame_skip,
            sensors={
                "gyro": {
                    "noise_stddev": GYRO_SD,
                    "turn_on_bias_stddev": 0.01,
                    "random_walk_density": 0.002,
                },
                "accel": {"noise_stddev": 0.05},
            },
        )
        gyro = slice(int(model.sensor("gyro").adr[0]), int(model.sensor("gyro").adr[0]) + 3)
        env.reset(seed=0)
        env.action_space.seed(0)
        clean, noisy = np.empty((STEPS, 3)), np.empty((STEPS, 3))
        for k in range(STEPS):
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            clean[k] = data.sensordata[gyro]
            imu.apply(data)
            noisy[k] = data.sensordata[gyro]
            if terminated or truncated:
                env.reset()
    err = noisy - clean
    white = np.diff(err, axis=0).std() / np.sqrt(2)  # the bias moves slowly
    print(f"gyro noise sd: {white:.4f} rad/s (white noise sd {GYRO_SD})")
    assert abs(white / GYRO_SD - 1) < 0.1
    t = np.arange(STEPS) * imu.dt
    zoom = slice(0, 100)  # the first 100 steps, where the noise can be seen
    fig, axes = plt.subplots(3, 2, sharex="col", figsize=(11, 6))
    for i in range(3):
        left, right = axes[i]
        left.plot(t[zoom], clean[zoom, i], lw=1.2, label="clean")
        left.plot(t[zoom], noisy[zoom, i], lw=0.8, label="noisy")
        left.set_ylabel(f"gyro {'xyz'[i]} (rad/s)")
        right.plot(t, err[:, i], lw=0.5)
        right.set_ylabel("noisy - clean (rad/s)")
    axes[0, 0].legend(loc="upper right")
    axes[-1, 0].set_xlabel("time (s)")
    axes[-1, 1].set_xlabel("time (s): bias, random walk and white noise")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"plot written to {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("noisy_ant.png"))
