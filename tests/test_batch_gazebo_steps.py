"""Batched Gazebo noise, step by step (issue 24: each step is one C call for all
environments): many environments (more than one refill slab of 64, more than one
many-stream call of 32 channels) stepped one reading at a time across several normal
groups of 16, with environments at different counts (after partial resets, after a
state set mid-group), stay bit for bit the single models built with ``env=i``."""

import numpy as np
import pytest

from fastnoise.models.gazebo.navsat import NavSatNoise
from fastnoise.models.gazebo.noise import GazeboNoise
from fastnoise.models.gazebo.pressure import AirSpeedNoise
from fastnoise.models.gazebo.sensors import ForceTorqueNoise

N = 70  # two slabs (64 + 6)
STEPS = 40  # across groups 0, 1 and 2 of every channel
GZ = dict(
    mean=0.01,
    stddev=0.2,
    bias_mean=0.5,
    bias_stddev=0.1,
    dynamic_bias_stddev=0.05,
    dynamic_bias_correlation_time=3.0,
)
CASES = {
    "force_torque": (ForceTorqueNoise, dict(force_x=GZ, force_y={"stddev": 0.3}, torque_z=GZ), 5.0),
    "navsat_degrees": (NavSatNoise, dict(horizontal_position=GZ, vertical_position=GZ), 60.0),
    "navsat_metres": (
        NavSatNoise,
        dict(horizontal_position=GZ, vertical_velocity=GZ, horizontal_units="metres"),
        60.0,
    ),
    "air_speed_hpa": (AirSpeedNoise, dict(pressure=GZ), 300.0),
}


def _reading(cls, rng, scale):
    shape = (N, 1) if cls.n_columns == 1 else (N, 1, cls.n_columns)
    return rng.normal(size=shape) * scale


@pytest.mark.parametrize("case", sorted(CASES))
def test_single_readings_of_many_envs_equal_single_models(case):
    cls, kw, scale = CASES[case]
    batch = cls(**kw, seed=11, num_envs=N)
    singles = [cls(**kw, seed=11, env=i) for i in range(N)]
    rng = np.random.default_rng(5)
    for step in range(STEPS):
        if step == 7:  # some environments restart: their counts leave the others'
            ids = np.arange(0, N, 3)
            batch.reset(env_ids=ids)
            for i in ids:
                singles[i].reset()
        x = _reading(cls, rng, scale)
        # per-environment dt, some 0 (the dynamic bias then does not move)
        dt = np.where(rng.random(N) < 0.3, 0.0, rng.uniform(0.001, 0.1, N))
        got = batch.apply(x, dt)
        for i, s in enumerate(singles):
            want = s.apply(x[i], dt[i : i + 1])
            assert np.array_equal(got[i], want), (case, step, i)
    for comp in cls._components:
        np.testing.assert_array_equal(batch.bias(comp), [s.bias(comp) for s in singles])


def test_a_state_set_mid_group_continues_bit_for_bit():
    cls, kw, scale = CASES["force_torque"]
    batch = cls(**kw, seed=2, num_envs=N)
    rng = np.random.default_rng(6)
    for _ in range(5):
        batch.apply(_reading(cls, rng, scale), 0.01)
    again = cls.from_state(batch.state)  # counts at 5: inside group 0
    for _ in range(30):
        x = _reading(cls, rng, scale)
        assert np.array_equal(batch.apply(x, 0.01), again.apply(x, 0.01))


def test_gazebo_noise_steps_of_many_envs_equal_single_models():
    stddev = np.linspace(0.1, 0.8, N)  # per environment
    batch = GazeboNoise(**{**GZ, "stddev": stddev}, seed=4, num_envs=N)
    singles = [GazeboNoise(**{**GZ, "stddev": stddev[i]}, seed=4, env=i) for i in range(N)]
    rng = np.random.default_rng(7)
    for _ in range(STEPS):
        x = rng.normal(size=N)
        got = batch.apply_one(x, dt=0.02)
        assert [s.apply_one(x[i], dt=0.02) for i, s in enumerate(singles)] == got.tolist()
