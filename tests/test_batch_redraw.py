"""Domain randomization beyond ImuNoise (issue 24): ``randomization.redraw`` on
GazeboNoise, a Gazebo sensor and RangeNoise, through the state (no ``_set_env_params``
of their own). Redrawn env i is bit for bit the single model ``env=i`` built with the
drawn parameters; the other environments continue unchanged; the draws are
reproducible; a refusal changes nothing."""

import numpy as np
import pytest

from fastnoise import AirPressureNoise, RangeNoise
from fastnoise.core import randomization
from fastnoise.models.gazebo.noise import GazeboNoise

N = 4
IDS = [1, 3]


def _gazebo(**kw):
    return GazeboNoise(
        stddev=0.1,
        bias_stddev=0.2,
        dynamic_bias_stddev=0.05,
        dynamic_bias_correlation_time=2.0,
        seed=5,
        **kw,
    )


def _run(m, k):
    x = np.linspace(0.0, 1.0, N) + k
    return m.apply_one(x, 0.01)


def test_gazebo_noise_redraw_is_env_i_with_those_params_and_leaves_the_others():
    batch, twin = _gazebo(num_envs=N), _gazebo(num_envs=N)
    for k in range(5):
        _run(batch, k)
        _run(twin, k)
    got = randomization.redraw(batch, IDS, ranges={"stddev": (0.2, 0.4)}, episode=1)
    again = randomization.draw({"stddev": (0.2, 0.4)}, IDS, N, seed=5, episode=1)
    np.testing.assert_array_equal(got["stddev"], again["stddev"])  # reproducible
    assert np.all((got["stddev"] >= 0.2) & (got["stddev"] <= 0.4))
    singles = {
        e: GazeboNoise(
            stddev=float(s),
            bias_stddev=0.2,
            dynamic_bias_stddev=0.05,
            dynamic_bias_correlation_time=2.0,
            seed=5,
            env=e,
        )
        for e, s in zip(IDS, got["stddev"], strict=True)
    }
    for k in range(6):
        b, t = _run(batch, 10 + k), _run(twin, 10 + k)
        for e in (0, 2):  # not redrawn: unchanged streams
            assert b[e] == t[e]
        for e in IDS:
            assert b[e] == singles[e].apply_one(float(np.linspace(0.0, 1.0, N)[e] + 10 + k), 0.01)


def test_range_noise_redraw():
    def make(**kw):
        return RangeNoise(0.0, 0.05, 0.1, 30.0, bias_stddev=0.1, seed=2, **kw)

    batch = make(num_envs=N)
    ranges = np.full((N, 8), 5.0)
    batch.apply(ranges)
    got = randomization.redraw(batch, IDS, ranges={"stddev": (0.1, 0.2)}, episode=0)
    out = batch.apply(ranges)
    for i, e in enumerate(IDS):
        one = RangeNoise(0.0, float(got["stddev"][i]), 0.1, 30.0, bias_stddev=0.1, seed=2, env=e)
        assert np.array_equal(out[e], one.apply(ranges[e]))


def test_gazebo_sensor_component_field_redraw():
    batch = AirPressureNoise(pressure={"stddev": 1.0}, num_envs=N, seed=3)
    got = randomization.redraw(batch, [2], ranges={"pressure_stddev": (5.0, 6.0)}, episode=4)
    out = batch.apply_one(np.full(N, 101325.0))
    one = AirPressureNoise(pressure={"stddev": float(got["pressure_stddev"][0])}, seed=3, env=2)
    assert out[2] == one.apply_one(101325.0)


def test_a_refused_redraw_changes_nothing():
    batch = _gazebo(num_envs=N)
    _run(batch, 0)
    before = batch.state
    with pytest.raises(ValueError, match="stddev"):
        randomization.redraw(batch, IDS, ranges={"stddev": (-2.0, -1.0)}, episode=0)
    with pytest.raises(ValueError, match="not a parameter of GazeboNoise"):
        randomization.redraw(batch, IDS, ranges={"nope": (0.0, 1.0)}, episode=0)
    assert batch.state == before
