"""SensorSimulator reads and a full simulation step, beside the numpy a user would write.

Target (issue 3): ``read_angular_velocity(out=buf)`` at least 3x faster than
``omega + drift + rng.normal(0, sigma, 3)``.
"""

from __future__ import annotations

import numpy as np
import pytest

from fastnoise.models.motion.rigid_body import RigidBodySimulator
from fastnoise.models.motion.sensor_simulator import SensorSimulator

INERTIA = np.array([10.0, 8.0, 12.0])
TORQUE = (0.1, -0.05, 0.02)
SIGMA = np.full(3, 1e-3)
DT = 0.01


class PythonBody:
    """A plain Python source (the documented protocol)."""

    def __init__(self):
        self.omega = np.array([0.1, -0.06, 0.01])
        self.roll, self.pitch, self.yaw = 0.5, -0.3, 0.07


def _imu(source):
    return SensorSimulator(source, seed=1, noise_stddev=SIGMA, drift_rate=1e-6)


@pytest.mark.benchmark(group="sensor_simulator-read_omega_rigid_body")
def test_fastnoise_read_omega_rigid_body(benchmark):
    imu = _imu(RigidBodySimulator(INERTIA, omega=(0.1, -0.06, 0.01)))
    buf = np.empty(3)
    benchmark(imu.read_angular_velocity, buf)


@pytest.mark.benchmark(group="sensor_simulator-read_omega_rigid_body")
def test_numpy_read_omega_rigid_body(benchmark, rng):
    omega = np.array([0.1, -0.06, 0.01])  # the true rate, already at hand
    drift = np.full(3, 1e-6)
    benchmark(lambda: omega + drift + rng.normal(0, SIGMA, 3))


@pytest.mark.benchmark(group="sensor_simulator-read_omega_python_source")
def test_fastnoise_read_omega_python_source(benchmark):
    imu = _imu(PythonBody())
    buf = np.empty(3)
    benchmark(imu.read_angular_velocity, buf)


@pytest.mark.benchmark(group="sensor_simulator-read_omega_python_source")
def test_numpy_read_omega_python_source(benchmark, rng):
    body = PythonBody()
    drift = np.full(3, 1e-6)
    benchmark(lambda: body.omega + drift + rng.normal(0, SIGMA, 3))


@pytest.mark.benchmark(group="sensor_simulator-read_orientation")
def test_fastnoise_read_orientation(benchmark):
    imu = _imu(RigidBodySimulator(INERTIA, roll=0.5, pitch=-0.3, yaw=0.07))
    buf = np.empty(3)
    benchmark(imu.read_orientation, buf)


@pytest.mark.benchmark(group="sensor_simulator-read_orientation")
def test_numpy_read_orientation(benchmark, rng):
    body = PythonBody()
    drift = np.full(3, 1e-6)
    benchmark(lambda: np.array([body.pitch, body.yaw, body.roll]) + drift + rng.normal(0, SIGMA, 3))


@pytest.mark.benchmark(group="sensor_simulator-simulation_step")
def test_fastnoise_simulation_step(benchmark):
    body = RigidBodySimulator(INERTIA)
    imu = _imu(body)
    w, a = np.empty(3), np.empty(3)

    def step():
        body.update(DT, TORQUE)
        imu.update(DT)
        imu.read_angular_velocity(w)
        imu.read_orientation(a)

    benchmark(step)


@pytest.mark.benchmark(group="sensor_simulator-simulation_step")
def test_numpy_simulation_step(benchmark, rng):
    torque = np.array(TORQUE)
    rate = np.full(3, 1e-6)
    s = {"omega": np.zeros(3), "angles": np.zeros(3), "drift": np.zeros(3)}

    def step():
        omega = s["omega"]
        omega += (torque - np.cross(omega, INERTIA * omega)) / INERTIA * DT
        angles = s["angles"]
        angles += omega * DT
        s["angles"] = (angles + np.pi) % (2 * np.pi) - np.pi
        s["drift"] += rate * DT
        omega + s["drift"] + rng.normal(0, SIGMA, 3)
        s["angles"][[1, 2, 0]] + s["drift"] + rng.normal(0, SIGMA, 3)

    benchmark(step)
