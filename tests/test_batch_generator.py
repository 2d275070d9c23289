"""Batched environments of GaussianNoiseGenerator (issue 24 item 1): row i of a draw of
``num_envs=N`` is what ``GaussianNoiseGenerator(env=i)`` draws, bit for bit."""

import copy
import pickle

import numpy as np
import pytest

from fastnoise.core.generator import GaussianNoiseGenerator
from fastnoise.core.seeding import (
    as_seed_sequence,
    child_seed_sequence,
    key_from_seed_sequence,
)

N = 4


def test_env_key_is_the_seed_child():
    ss = as_seed_sequence(9)
    assert GaussianNoiseGenerator(9, env=2).key == key_from_seed_sequence(
        child_seed_sequence(ss, 2)
    )
    assert GaussianNoiseGenerator(9).key == key_from_seed_sequence(ss)
    assert GaussianNoiseGenerator(9, num_envs=N).key == key_from_seed_sequence(ss)
    assert "num_envs" not in GaussianNoiseGenerator(9).state["params"]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rows_equal_single_generators(dtype):
    batch = GaussianNoiseGenerator(9, stream=3, num_envs=N)
    singles = [GaussianNoiseGenerator(9, stream=3, env=i) for i in range(N)]
    for size in [(5,), 1, (2, 7), 33, None]:
        got = batch.normal(0.5, 2.0, size, dtype=dtype)
        want = [np.asarray(s.normal(0.5, 2.0, size, dtype=dtype)) for s in singles]
        assert got.shape == ((N,) if size is None else (N, *np.empty(size).shape))
        for i in range(N):
            assert np.array_equal(got[i], want[i])
    g = batch.generate(1.0, 0.1)
    assert g.shape == (N,) and list(g) == [s.generate(1.0, 0.1) for s in singles]
    z = batch.standard_normal((3,))
    assert np.array_equal(z, [s.standard_normal(3) for s in singles])
    assert list(batch.position) == [s.position for s in singles]


def test_reset_some_envs_and_advance():
    batch = GaussianNoiseGenerator(9, num_envs=N)
    twin = GaussianNoiseGenerator(9, num_envs=N)
    batch.standard_normal(10)
    twin.standard_normal(10)
    batch.reset([1, 3])
    got, cont = batch.standard_normal(6), twin.standard_normal(6)
    fresh = GaussianNoiseGenerator(9, num_envs=N).standard_normal(6)
    for i in range(N):
        assert np.array_equal(got[i], fresh[i] if i in (1, 3) else cont[i])
    batch.reset(np.array([True, False, False, False]))
    assert list(batch.position) == [0, 6, 16, 6]
    batch.advance(5)
    assert list(batch.position) == [5, 11, 21, 11]
    with pytest.raises(IndexError, match="holds 7"):
        batch.reset([7])
    with pytest.raises(TypeError, match="scalars"):
        batch.normal(np.zeros(2), 1.0, 2)
    with pytest.raises(TypeError, match="spawn"):
        batch.spawn(2)
    with pytest.raises(TypeError, match="one stream"):
        GaussianNoiseGenerator(9).reset(env_ids=0)


@pytest.mark.parametrize("how", ["pickle", "copy", "from_state"])
def test_state_round_trips(how):
    batch = GaussianNoiseGenerator(9, stream=2, num_envs=N)
    batch.standard_normal(7)
    batch.reset(0)
    other = {
        "pickle": lambda: pickle.loads(pickle.dumps(batch)),
        "copy": lambda: copy.copy(batch),
        "from_state": lambda: GaussianNoiseGenerator.from_state(batch.state),
    }[how]()
    assert other == batch
    assert np.array_equal(other.standard_normal(40), batch.standard_normal(40))
