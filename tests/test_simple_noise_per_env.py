"""Isaac Lab's vocabulary with per-environment parameters (issue 24: domain
randomization): every real parameter of GaussianNoise, UniformNoise, ConstantNoise and
of AdditiveBiasNoise's terms may be an array of shape (num_envs,); environment i is bit
for bit the single model built with ``env=i`` and element i; refusals name the
parameter and the environment; the state keeps the arrays; ``randomization.redraw``
varies them for reset environments."""

import copy
import pickle

import numpy as np
import pytest

from fastnoise import AdditiveBiasNoise, ConstantNoise, GaussianNoise, UniformNoise
from fastnoise.core import randomization

N = 4
X = np.linspace(-2.0, 3.0, N * 5).reshape(N, 5)
MEAN = np.array([0.0, 0.1, -0.2, 0.3])
STD = np.array([0.5, 1.0, 0.0, 2.0])


def _pick(v, i):
    return float(v[i]) if isinstance(v, np.ndarray) else v


def _term(d, i):
    return {k: _pick(v, i) for k, v in d.items()}


# (class, per-environment keywords, how environment i's single model is made)
CASES = {
    "gaussian": (GaussianNoise, dict(mean=MEAN, stddev=STD)),
    "gaussian_scale": (GaussianNoise, dict(mean=1.0, stddev=STD / 10, operation="scale")),
    "uniform": (UniformNoise, dict(n_min=MEAN - 1.0, n_max=MEAN + STD)),
    "constant": (ConstantNoise, dict(bias=MEAN * 7, operation="abs")),
    "additive_bias": (
        AdditiveBiasNoise,
        dict(
            noise={"type": "gaussian", "mean": MEAN, "stddev": STD},
            bias_noise={"type": "uniform", "n_min": -STD, "n_max": STD, "operation": "add"},
            size=5,
        ),
    ),
}


def _single(cls, kw, i, seed):
    one = {}
    for k, v in kw.items():
        one[k] = _term(v, i) if isinstance(v, dict) else _pick(v, i)
    return cls(**one, env=i, seed=seed)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_env_i_with_per_env_params_is_the_single_model(case, dtype):
    cls, kw = CASES[case]
    batch = cls(**kw, num_envs=N, seed=21)
    singles = [_single(cls, kw, i, 21) for i in range(N)]
    x = X.astype(dtype)
    for step in range(4):
        if step == 2:
            batch.reset(env_ids=[1, 3])
            singles[1].reset(env_ids=[0])
            singles[3].reset(env_ids=[0])
        got = batch.apply(x)
        assert got.dtype == dtype
        for i, s in enumerate(singles):
            np.testing.assert_array_equal(got[i], s.apply(x[i]), err_msg=f"{case} {step} {i}")


def test_shared_and_per_env_values_give_the_same_bits():
    # an array of equal values is the scalar, bit for bit
    a = GaussianNoise(mean=0.2, stddev=0.7, num_envs=N, seed=3).apply(X)
    b = GaussianNoise(mean=np.full(N, 0.2), stddev=np.full(N, 0.7), num_envs=N, seed=3)
    np.testing.assert_array_equal(a, b.apply(X))


def test_per_env_stddev_is_honoured():
    # 20000 draws per environment: the sample sd within 2 % (its relative sd is 0.5 %)
    std = np.array([0.1, 1.0, 3.0])
    v = GaussianNoise(mean=0.0, stddev=std, num_envs=3, seed=8).apply(np.zeros((3, 20000)))
    np.testing.assert_allclose(v.std(axis=1), std, rtol=0.02)


def test_state_keeps_the_arrays_and_round_trips():
    cls, kw = CASES["additive_bias"]
    m = cls(**kw, num_envs=N, seed=4)
    m.apply(X)
    p = m.state["params"]
    assert p["noise"]["stddev"] == STD.tolist() and p["num_envs"] == N
    assert GaussianNoise(mean=MEAN, num_envs=N).state["params"]["mean"] == MEAN.tolist()
    for other in (pickle.loads(pickle.dumps(m)), copy.copy(m), copy.deepcopy(m)):
        np.testing.assert_array_equal(other.apply(X), m.copy().apply(X))
    # the attribute is a read-only copy: it cannot change the running model
    g = GaussianNoise(stddev=STD, num_envs=N)
    with pytest.raises(ValueError):
        g.stddev[0] = 5.0
    np.testing.assert_array_equal(m.noise["stddev"], STD)


@pytest.mark.parametrize(
    "make, error, match",
    [
        (
            lambda: GaussianNoise(mean=np.zeros(3), num_envs=4),
            ValueError,
            r"mean of shape \(3,\) is not allowed with num_envs=4",
        ),
        (
            lambda: GaussianNoise(stddev=[1.0, -1.0], num_envs=2),
            ValueError,
            r"stddev\[1\]=-1.0 is not allowed",
        ),
        (
            lambda: UniformNoise(n_min=[0.0, 2.0], n_max=[1.0, 1.0], num_envs=2),
            ValueError,
            r"n_max\[1\]=1.0 is not allowed: it must be >= n_min\[1\]=2.0",
        ),
        (lambda: ConstantNoise(bias=[1.0, 2.0]), TypeError, r"bias=\[1.0, 2.0\] is not allowed"),
        (
            lambda: AdditiveBiasNoise(
                noise={"type": "gaussian", "stddev": [0.1, float("nan")]}, num_envs=2
            ),
            ValueError,
            r"noise\['stddev'\]\[1\]=nan is not allowed",
        ),
        (lambda: AdditiveBiasNoise(size=[2, 2], num_envs=2), TypeError, r"size=\[2, 2\]"),
    ],
)
def test_bad_per_env_values_name_the_parameter_and_env(make, error, match):
    with pytest.raises(error, match=match):
        make()


@pytest.mark.parametrize(
    "cls, kw, name, rng",
    [
        (GaussianNoise, dict(stddev=0.5), "stddev", (0.1, 0.9)),
        (
            AdditiveBiasNoise,
            dict(bias_noise={"type": "gaussian", "stddev": 0.2, "operation": "add"}, size=5),
            "noise_stddev",
            (0.5, 2.0),
        ),
    ],
)
def test_redraw_gives_env_i_the_drawn_params_and_leaves_the_others(cls, kw, name, rng):
    ids = [0, 2]
    batch, twin = cls(**kw, num_envs=N, seed=9), cls(**kw, num_envs=N, seed=9)
    for _ in range(3):
        batch.apply(X)
        twin.apply(X)
    got = randomization.redraw(batch, ids, ranges={name: rng}, episode=2)
    again = randomization.draw({name: rng}, ids, N, seed=9, episode=2)
    np.testing.assert_array_equal(got[name], again[name])
    assert np.all((got[name] >= rng[0]) & (got[name] <= rng[1]))
    singles = {}
    for e, v in zip(ids, got[name], strict=True):
        one = dict(kw)
        if name == "noise_stddev":
            one["noise"] = {"type": "gaussian", "stddev": float(v)}
        else:
            one[name] = float(v)
        s = cls(**one, env=e, seed=9)
        for _ in range(3):  # the same steps; the reset that redraw makes
            s.apply(X[e])
        s.reset(env_ids=[0])
        singles[e] = s
    for _ in range(3):
        b, t = batch.apply(X), twin.apply(X)
        for e in (1, 3):  # not redrawn: unchanged streams
            np.testing.assert_array_equal(b[e], t[e])
        for e in ids:
            np.testing.assert_array_equal(b[e], singles[e].apply(X[e]))
