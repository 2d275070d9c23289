"""Batched environments of RangeNoise (issue 24 item 1): row i of ``num_envs=N`` is
``RangeNoise(env=i)`` bit for bit, each environment with its own frame counter."""

import copy
import pickle

import numpy as np
import pytest

from fastnoise.core.seeding import as_seed_sequence, env_model_key, model_key
from fastnoise.models.lidar.range_noise import RangeNoise

N = 3
ARGS = (0.01, 0.05, 0.1, 30.0)
KW = dict(bias_mean=0.2, bias_stddev=0.1, precision=0.001)


def _scan(seed=0, dtype=np.float64, beams=50):
    return np.random.default_rng(seed).uniform(0.0, 35.0, (N, beams)).astype(dtype)


def test_keys_and_single_states():
    ss = as_seed_sequence(4)
    assert RangeNoise(*ARGS, seed=4, env=1).key == env_model_key(ss, "lidar", 1)
    assert RangeNoise(*ARGS, seed=4).key == model_key(ss, "lidar")
    assert "num_envs" not in RangeNoise(*ARGS, seed=4).state["params"]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_batch_equals_single_models(dtype):
    batch = RangeNoise(*ARGS, **KW, seed=4, num_envs=N)
    singles = [RangeNoise(*ARGS, **KW, seed=4, env=i) for i in range(N)]
    np.testing.assert_array_equal(batch.bias, [s.bias for s in singles])
    for r in range(3):
        x = _scan(r, dtype)
        got = batch.apply(x)
        assert got.dtype == dtype
        for i, s in enumerate(singles):
            assert np.array_equal(got[i], s.apply(x[i])), (r, i)
    assert list(batch.frame) == [3] * N
    got = batch.apply(_scan(9, dtype), frame=7, first_index=5)
    for i, s in enumerate(singles):
        assert np.array_equal(got[i], s.apply(_scan(9, dtype)[i], frame=7, first_index=5))
    one = batch.apply_one([1.0, 2.0, 3.0], index=4)
    assert list(one) == [
        s.apply_one(v, index=4) for s, v in zip(singles, [1.0, 2.0, 3.0], strict=True)
    ]


def test_per_env_parameters_and_reset():
    stddev = np.array([0.01, 0.02, 0.03])
    batch = RangeNoise(0.0, stddev, 0.1, [10.0, 20.0, 30.0], seed=2, num_envs=N)
    singles = [
        RangeNoise(0.0, float(stddev[i]), 0.1, 10.0 * (i + 1), seed=2, env=i) for i in range(N)
    ]
    got = batch.apply(_scan())
    for i, s in enumerate(singles):
        assert np.array_equal(got[i], s.apply(_scan()[i]))
    assert batch.state["params"]["stddev"] == stddev.tolist()
    batch.reset([1])
    assert list(batch.frame) == [1, 0, 1]
    with pytest.raises(ValueError, match=r"max_range\[1\]=0.1 is not allowed"):
        RangeNoise(0.0, 0.1, 0.1, [1.0, 0.1, 1.0], seed=2, num_envs=N)
    with pytest.raises(ValueError, match=r"ranges has shape \(2, 5\)"):
        batch.apply(np.zeros((2, 5)))
    with pytest.raises(TypeError, match="one model"):
        RangeNoise(*ARGS, seed=4).reset(env_ids=0)


@pytest.mark.parametrize("how", ["pickle", "copy", "from_state"])
def test_state_round_trips(how):
    batch = RangeNoise(*ARGS, **KW, seed=4, num_envs=N)
    batch.apply(_scan())
    batch.reset(2)
    other = {
        "pickle": lambda: pickle.loads(pickle.dumps(batch)),
        "copy": lambda: copy.copy(batch),
        "from_state": lambda: RangeNoise.from_state(batch.state),
    }[how]()
    assert other == batch and list(other.frame) == [1, 1, 0]
    assert np.array_equal(other.apply(_scan(3)), batch.apply(_scan(3)))


def test_per_env_sigma_is_honoured():
    """Sample sd of 20000 beams per environment, tolerance 5 % (the estimate's relative
    sd is 0.5 %), seed fixed."""
    sigma = np.array([0.01, 0.1, 0.5])
    batch = RangeNoise(0.0, sigma, 0.0, 100.0, seed=6, num_envs=N)
    y = batch.apply(np.full((N, 20000), 50.0))
    np.testing.assert_allclose(y.std(axis=1), sigma, rtol=0.05)
