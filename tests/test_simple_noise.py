"""Isaac Lab's noise vocabulary (fastnoise.models.simple): the operations' exact
arithmetic, the draws' statistics (fixed seeds, stated tolerances), batch environment i
bit-identical to a single model with env=i, and resets of a subset of environments."""

import pickle

import numpy as np
import pytest

from fastnoise import AdditiveBiasNoise, ConstantNoise, GaussianNoise, UniformNoise
from fastnoise.core import registry

X = np.linspace(-2.0, 3.0, 24).reshape(4, 6)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_constant_noise_is_exact(dtype):
    x = X.astype(dtype)
    add = ConstantNoise(bias=0.25, num_envs=4, seed=1).apply(x)
    scale = ConstantNoise(bias=0.25, operation="scale", num_envs=4, seed=1).apply(x)
    absolute = ConstantNoise(bias=0.25, operation="abs", num_envs=4, seed=1).apply(x)
    assert add.dtype == scale.dtype == absolute.dtype == dtype
    np.testing.assert_array_equal(add, (x.astype(np.float64) + 0.25).astype(dtype))
    np.testing.assert_array_equal(scale, (x.astype(np.float64) * 0.25).astype(dtype))
    np.testing.assert_array_equal(absolute, np.full_like(x, 0.25))


@pytest.mark.parametrize(
    "cls, params",
    [
        (GaussianNoise, {"mean": 0.3, "stddev": 0.7}),
        (UniformNoise, {"n_min": -0.4, "n_max": 0.9}),
    ],
)
def test_add_and_scale_are_the_abs_value_combined_with_x(cls, params):
    # one seed: the three operations draw the same v, so add is x + v and scale x * v
    v = cls(**params, operation="abs", num_envs=4, seed=5).apply(X)
    add = cls(**params, operation="add", num_envs=4, seed=5).apply(X)
    scale = cls(**params, operation="scale", num_envs=4, seed=5).apply(X)
    np.testing.assert_array_equal(add, X + v)
    np.testing.assert_array_equal(scale, X * v)
    assert len(np.unique(v)) == v.size  # a value per component


def test_gaussian_sample_mean_and_stddev():
    # 2e5 values: the mean's standard error is 0.7 / sqrt(2e5) = 1.6e-3 (4 of them:
    # 6.3e-3); the sample sd's relative standard error is 1 / sqrt(2 * 2e5) = 0.16 %
    m = GaussianNoise(mean=0.3, stddev=0.7, operation="abs", num_envs=1000, seed=7)
    v = np.concatenate([m.apply(np.zeros((1000, 50))) for _ in range(4)])
    assert abs(v.mean() - 0.3) < 6.3e-3
    assert abs(v.std() / 0.7 - 1) < 0.0064


def test_uniform_range_mean_and_variance():
    m = UniformNoise(n_min=-0.4, n_max=0.9, operation="abs", num_envs=500, seed=8)
    v = np.concatenate([m.apply(np.zeros((500, 100))) for _ in range(4)])
    assert v.min() >= -0.4 and v.max() < 0.9
    # 2e5 values of sd 1.3 / sqrt(12) = 0.375: the mean within 4 standard errors
    assert abs(v.mean() - 0.25) < 4 * 0.375 / np.sqrt(v.size)
    assert abs(v.var() / (1.3**2 / 12) - 1) < 0.01
    # ten equal bins hold 10 % each, within 0.5 % (a bin's sd is 0.067 %)
    counts = np.histogram(v, bins=10, range=(-0.4, 0.9))[0] / v.size
    assert np.abs(counts - 0.1).max() < 0.005


def _models(**kw):
    return [
        GaussianNoise(mean=0.1, stddev=0.5, **kw),
        UniformNoise(n_min=0.9, n_max=1.1, operation="scale", **kw),
        ConstantNoise(bias=-0.5, operation="abs", **kw),
        AdditiveBiasNoise(
            noise={"type": "uniform", "n_min": -0.05, "n_max": 0.05},
            bias_noise={"type": "gaussian", "stddev": 0.2, "operation": "add"},
            size=6,
            **kw,
        ),
    ]


@pytest.mark.parametrize("which", range(4))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_batch_env_i_is_the_single_model_with_env_i(which, dtype):
    batch = _models(num_envs=4, seed=11)[which]
    singles = [_models(env=i, seed=11)[which] for i in range(4)]
    x = X.astype(dtype)
    for step in range(3):
        if step == 2:
            batch.reset(env_ids=[2])
            singles[2].reset(env_ids=[0])
        got = batch.apply(x)
        for i, s in enumerate(singles):
            np.testing.assert_array_equal(got[i], s.apply(x[i]))


def test_environments_and_the_unkeyed_model_draw_apart():
    a = GaussianNoise(num_envs=3, seed=2).apply(np.zeros((3, 8)))
    own = GaussianNoise(seed=2).apply(np.zeros(8))
    assert len({tuple(r) for r in a} | {tuple(own)}) == 4


def test_reset_of_a_subset_redraws_only_their_bias():
    kw = {
        "noise": {"type": "gaussian", "stddev": 0.01},
        "bias_noise": {"type": "uniform", "n_min": -1.0, "n_max": 1.0, "operation": "abs"},
        "size": 6,
        "num_envs": 4,
        "seed": 3,
    }
    m, ref = AdditiveBiasNoise(**kw), AdditiveBiasNoise(**kw)
    m.apply(X)
    ref.apply(X)
    before = m.bias
    m.reset(env_ids=[1, 3])
    after = m.bias
    np.testing.assert_array_equal(after[[0, 2]], before[[0, 2]])
    assert (after[[1, 3]] != before[[1, 3]]).all()
    # the others' streams continue unchanged
    got, want = m.apply(X), ref.apply(X)
    np.testing.assert_array_equal(got[[0, 2]], want[[0, 2]])
    # a boolean mask is the same reset; reset r of an env is a pure function of (seed, env, r)
    mask = AdditiveBiasNoise(**kw)
    mask.reset(env_ids=np.array([False, True, False, True]))
    np.testing.assert_array_equal(mask.bias, after)
    single = AdditiveBiasNoise(**{**kw, "num_envs": None, "env": 3})
    single.reset(env_ids=[0])
    np.testing.assert_array_equal(single.bias, after[3])


@pytest.mark.parametrize("op, after_two_resets", [("add", 3 * 0.5), ("abs", 0.5), ("scale", 0.0)])
def test_bias_operation_at_reset_follows_isaac_lab(op, after_two_resets):
    # Isaac Lab: bias[ids] = bias_cfg.func(bias[ids]) from a zero bias, once at the
    # start and at every reset; a constant term makes the arithmetic exact
    m = AdditiveBiasNoise(
        noise={"type": "constant", "bias": 0.0},
        bias_noise={"type": "constant", "bias": 0.5, "operation": op},
        size=2,
        num_envs=2,
        seed=0,
    )
    m.reset(env_ids=[0])
    m.reset(env_ids=[0])
    first = 0.0 if op == "scale" else 0.5
    np.testing.assert_array_equal(m.bias, [[after_two_resets] * 2, [first] * 2])
    np.testing.assert_array_equal(m.apply(np.ones((2, 2))), 1.0 + m.bias)


def test_shared_bias_is_one_value_per_environment():
    m = AdditiveBiasNoise(
        noise={"type": "constant", "bias": 0.0},
        bias_noise={"type": "gaussian", "stddev": 1.0},
        per_component=False,
        num_envs=3,
        seed=4,
    )
    assert m.bias.shape == (3, 1)
    out = m.apply(np.zeros((3, 2, 5)))
    np.testing.assert_array_equal(out, np.broadcast_to(m.bias[:, :, None], (3, 2, 5)))


def test_reset_without_ids_rewinds_and_state_round_trips():
    m = _models(num_envs=4, seed=9)[3]
    first = m.apply(X)
    m.reset(env_ids=[0, 2])
    second = m.apply(X)
    copy = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(copy.apply(X), m.apply(X))
    m.reset()
    np.testing.assert_array_equal(m.apply(X), first)
    assert not np.array_equal(second, first)


def test_inputs_are_not_modified_and_out_works_in_place():
    x = X.copy()
    m = GaussianNoise(num_envs=4, seed=1)
    y = m.apply(x)
    np.testing.assert_array_equal(x, X)
    m.reset()
    assert m.apply(x, out=x) is x
    np.testing.assert_array_equal(x, y)


def test_registry_holds_the_vocabulary():
    for name in ("gaussian_noise", "uniform_noise", "constant_noise", "additive_bias_noise"):
        assert registry.get(name).cls.model_name == name


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: GaussianNoise(operation="add_noise"), "operation='add_noise' is not allowed"),
        (lambda: GaussianNoise(stddev=-1.0), "stddev=-1.0 is not allowed"),
        (lambda: UniformNoise(n_min=1.0, n_max=0.0), "n_max=0.0 is not allowed"),
        (lambda: GaussianNoise(num_envs=2, env=1), "env=1 is not allowed with num_envs=2"),
        (lambda: GaussianNoise(num_envs=2).apply(np.zeros((3, 2))), "num_envs=2"),
        (lambda: AdditiveBiasNoise(size=3).apply(np.zeros(4)), "size=3"),
        (lambda: AdditiveBiasNoise(noise={"type": "laplace"}), r"noise\['type'\]='laplace'"),
        (lambda: AdditiveBiasNoise(bias_noise={"type": "uniform", "std": 1.0}), "unknown keys"),
        (lambda: GaussianNoise(num_envs=2).reset(env_ids=[True]), "boolean mask"),
    ],
)
def test_bad_input_names_the_parameter(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_reset_refuses_an_index_outside_the_batch():
    # the one env_ids rule of every batched model (fastnoise.core.spec.env_ids)
    with pytest.raises(IndexError, match=r"env_ids holds 2, which is not allowed.*\[0, 2\)"):
        GaussianNoise(num_envs=2).reset(env_ids=[2])
