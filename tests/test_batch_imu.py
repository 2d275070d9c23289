"""Batched environments of ImuNoise (issue 24 item 1): env i of ``num_envs=N`` is the
single model built with ``env=i``, bit for bit; partial resets, per-environment
parameters and their checks, states, and the randomization helper."""

import copy
import pickle

import numpy as np
import pytest

from fastnoise.core import randomization, spec
from fastnoise.core.seeding import (
    as_seed_sequence,
    child_seed_sequence,
    env_model_key,
    env_seed_sequence,
    key_from_seed_sequence,
    model_key,
    model_seed_sequence,
)
from fastnoise.models.imu import ImuNoise, TriadNoise

N = 5
GYRO = TriadNoise(
    noise_density=1e-3,
    gauss_markov_stddev=2e-3,
    gauss_markov_correlation_time=5.0,
    random_walk_density=1e-4,
    turn_on_bias_stddev=0.01,
    scale_factor=(1e-3, -2e-3, 0.0),
    g_sensitivity=1e-4,
)
ACCEL = TriadNoise(
    noise_stddev=0.02,
    random_walk_density=1e-3,
    gauss_markov_stddev=0.01,
    gauss_markov_correlation_time=50.0,
    gauss_markov_steady_state=True,
    bits=16,
    full_scale=100.0,
)


def _inputs(n, t=None, seed=0):
    rng = np.random.default_rng(seed)
    shape = (n, 3) if t is None else (n, t, 3)
    return rng.normal(size=shape), rng.normal(0.0, 9.0, size=shape)


def _singles(n, **kw):
    return [ImuNoise(GYRO, ACCEL, seed=7, env=i, **kw) for i in range(n)]


def _step_all(models, w, a, dt):
    outs = [
        m.step(w[i], a[i], float(np.broadcast_to(dt, (len(models),))[i]))
        for i, m in enumerate(models)
    ]
    return np.array([o[0] for o in outs]), np.array([o[1] for o in outs])


# ---- keys -------------------------------------------------------------------------------
def test_env_key_is_the_documented_child_of_the_model_sequence():
    ss = as_seed_sequence(7)
    want = key_from_seed_sequence(child_seed_sequence(model_seed_sequence(ss, "imu"), 3))
    assert env_model_key(ss, "imu", 3) == want
    assert key_from_seed_sequence(env_seed_sequence(model_seed_sequence(ss, "imu"), 3)) == want
    assert ImuNoise(GYRO, ACCEL, seed=7, env=3).key == want
    # env=None is the model's own key: single models keep their streams
    assert (
        ImuNoise(GYRO, ACCEL, seed=7).key == model_key(ss, "imu") == env_model_key(ss, "imu", None)
    )
    assert len({env_model_key(ss, "imu", e) for e in range(64)} | {model_key(ss, "imu")}) == 65


@pytest.mark.parametrize("bad", [-1, 2**31, 1.0, True])
def test_env_seed_sequence_refuses_bad_indices(bad):
    with pytest.raises((TypeError, ValueError), match="env="):
        env_seed_sequence(as_seed_sequence(1), bad)


# ---- batch env i == single env=i ----------------------------------------------------------
@pytest.mark.parametrize("normal_dtype", ["float32", "float64"])
def test_batch_steps_equal_single_models_bit_for_bit(normal_dtype):
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N, normal_dtype=normal_dtype)
    singles = _singles(N, normal_dtype=normal_dtype)
    rng = np.random.default_rng(1)
    for k in range(150):  # past two refills of the cached normals (64 samples each)
        w, a = _inputs(N, seed=k)
        dt = 0.01 if k % 3 == 0 else rng.uniform(1e-3, 2e-2, size=N)
        bw, ba = batch.step(w, a, dt)
        sw, sa = _step_all(singles, w, a, dt)
        assert np.array_equal(bw, sw) and np.array_equal(ba, sa), k
    assert list(batch.sample_count) == [150] * N
    np.testing.assert_array_equal(batch.turn_on_bias, [s.turn_on_bias for s in singles])
    np.testing.assert_array_equal(batch.gauss_markov_bias, [s.gauss_markov_bias for s in singles])
    np.testing.assert_array_equal(batch.random_walk_bias, [s.random_walk_bias for s in singles])


@pytest.mark.parametrize("dt_kind", ["scalar", "per_env", "per_sample"])
def test_batch_apply_equals_single_apply(dt_kind):
    t = 70
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    singles = _singles(N)
    batch.step(*_inputs(N, seed=9), 0.01)  # out of phase with the refills
    for s, (w, a) in zip(singles, zip(*_inputs(N, seed=9), strict=True), strict=True):
        s.step(w, a, 0.01)
    w, a = _inputs(N, t)
    rng = np.random.default_rng(2)
    dt = {
        "scalar": 0.005,
        "per_env": rng.uniform(1e-3, 1e-2, N),
        "per_sample": rng.uniform(1e-3, 1e-2, (N, t)),
    }[dt_kind]
    got = batch.apply(w, a, dt)
    assert got.omega.shape == (N, t, 3) and got.accel.shape == (N, t, 3)
    for i, s in enumerate(singles):
        d = dt if dt_kind == "scalar" else (dt[i] if dt_kind == "per_sample" else dt[i])
        one = s.apply(w[i], a[i], d)
        assert np.array_equal(got.omega[i], one.omega) and np.array_equal(got.accel[i], one.accel)


def test_step_with_out_and_in_place():
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    twin = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    w, a = _inputs(N)
    wo, ao = np.empty((N, 3)), np.empty((N, 3))
    r = batch.step(w, a, 0.01, out_omega=wo, out_accel=ao)
    assert r[0] is wo and r[1] is ao
    w2, a2 = w.copy(), a.copy()
    want = twin.step(w2, a2, 0.01)
    assert np.array_equal(wo, want[0]) and np.array_equal(ao, want[1])
    # exactly the input as the output
    w3, a3 = _inputs(N, seed=3)
    expect = copy.deepcopy(batch).step(w3, a3, 0.01)
    batch.step(w3, a3, 0.01, out_omega=w3, out_accel=a3)
    assert np.array_equal(w3, expect[0]) and np.array_equal(a3, expect[1])
    with pytest.raises(ValueError, match="overlaps"):
        batch.step(w, a, 0.01, out_omega=w[::-1][::-1], out_accel=w)


# ---- per-environment parameters -----------------------------------------------------------
def test_per_env_parameters_equal_single_models_with_those_parameters():
    nd = np.linspace(1e-3, 5e-3, N)[:, None] * np.array([1.0, 2.0, 3.0])
    bits = np.array([8, 10, 12, 14, 16])
    batch = ImuNoise(
        gyro={"noise_density": nd, "random_walk_density": 1e-4},
        seed=3,
        num_envs=N,
        accel_bits=bits,
        accel_full_scale=50.0,
        accel_noise_stddev=0.1,
    )
    assert isinstance(batch.gyro, tuple) and len(batch.gyro) == N
    singles = [
        ImuNoise(
            gyro={"noise_density": nd[i], "random_walk_density": 1e-4},
            seed=3,
            env=i,
            accel_bits=int(bits[i]),
            accel_full_scale=50.0,
            accel_noise_stddev=0.1,
        )
        for i in range(N)
    ]
    for k in range(80):
        w, a = _inputs(N, seed=k)
        bw, ba = batch.step(w, a, 0.01)
        sw, sa = _step_all(singles, w, a, 0.01)
        assert np.array_equal(bw, sw) and np.array_equal(ba, sa)
    p = batch.state["params"]
    assert p["gyro"]["noise_density"] == nd.tolist() and p["accel"]["bits"] == bits.tolist()
    assert p["gyro"]["random_walk_density"] == [1e-4] * 3 and p["num_envs"] == N


@pytest.mark.parametrize(
    ("kw", "err", "match"),
    [
        ({"gyro_noise_density": np.ones((N + 1, 3))}, ValueError, r"shape \(6, 3\).*num_envs=5"),
        ({"accel_bits": [8, 8]}, ValueError, r"gyro|accel_bits of shape \(2,\)"),
        ({"gyro_noise_density": -np.ones((N, 3))}, ValueError, "environment 0: .*noise_density"),
        (
            {"gyro_full_scale": np.r_[1.0, 1.0, 1.0, 1.0, -1.0][:, None] * np.ones(3)},
            ValueError,
            "environment 4",
        ),
        ({"gyro_misalignment": np.zeros((N, 2, 3, 3))}, (TypeError, ValueError), "misalignment"),
    ],
)
def test_per_env_parameter_shapes_are_checked(kw, err, match):
    with pytest.raises(err, match=match):
        ImuNoise(seed=1, num_envs=N, **kw)


def test_num_envs_and_env_are_checked():
    with pytest.raises(ValueError, match="env=1 is not allowed with num_envs=4"):
        ImuNoise(seed=1, num_envs=4, env=1)
    for bad in (0, -2, 2**31):
        with pytest.raises(ValueError, match="num_envs="):
            ImuNoise(seed=1, num_envs=bad)
    with pytest.raises(TypeError, match="num_envs="):
        ImuNoise(seed=1, num_envs=2.0)
    with pytest.raises(ValueError, match="env="):
        ImuNoise(seed=1, env=-1)


def test_batch_inputs_are_checked():
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    w, a = _inputs(N)
    with pytest.raises(ValueError, match=r"omega has shape \(3,\)"):
        batch.step(w[0], a, 0.01)
    with pytest.raises(ValueError, match=r"dt has shape \(4,\)"):
        batch.step(w, a, np.ones(4) * 0.01)
    with pytest.raises(ValueError, match="dt contains"):
        batch.step(w, a, np.r_[0.01, 0.01, 0.0, 0.01, 0.01])
    with pytest.raises(TypeError, match="timestamps"):
        batch.apply(w[:, None], a[:, None], timestamps=np.zeros((N, 1)))
    with pytest.raises(TypeError, match="dt is required"):
        batch.apply(w[:, None], a[:, None])
    with pytest.raises(TypeError, match="one model"):
        ImuNoise(GYRO, ACCEL, seed=7).reset(env_ids=[0])


def test_a_refused_step_names_the_environment_and_changes_nothing():
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    twin = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    w, a = _inputs(N)
    bad = w.copy()
    bad[3, 1] = 1e305
    with pytest.raises(ValueError, match=r"environment 3: omega\[1\]=1e\+305"):
        batch.step(bad, a, 0.01)
    assert batch.state == twin.state
    got, want = batch.step(w, a, 0.01), twin.step(w, a, 0.01)
    assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1])


# ---- reset(env_ids) -----------------------------------------------------------------------
@pytest.mark.parametrize(
    "ids", [[1, 3], np.array([3, 1, 3]), np.array([False, True, False, True, False]), (1, 3)]
)
def test_reset_of_some_envs_leaves_the_others_unchanged(ids):
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    twin = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    fresh = _singles(N)
    for k in range(40):
        w, a = _inputs(N, seed=k)
        batch.step(w, a, 0.01)
        twin.step(w, a, 0.01)
    batch.reset(ids)
    assert list(batch.sample_count) == [40, 0, 40, 0, 40]
    for k in range(90):
        w, a = _inputs(N, seed=100 + k)
        bw, ba = batch.step(w, a, 0.01)
        tw, ta = twin.step(w, a, 0.01)
        fw, fa = _step_all(fresh, w, a, 0.01)
        for i in range(N):
            want = (fw[i], fa[i]) if i in (1, 3) else (tw[i], ta[i])
            assert np.array_equal(bw[i], want[0]) and np.array_equal(ba[i], want[1]), (k, i)


def test_reset_all_and_by_int():
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    w, a = _inputs(N)
    first = batch.step(w, a, 0.01)
    batch.step(w, a, 0.01)
    batch.reset()
    again = batch.step(w, a, 0.01)
    assert np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])
    batch.reset(2)
    assert list(batch.sample_count) == [1, 1, 0, 1, 1]
    batch.reset(np.array([], dtype=np.int64))
    assert list(batch.sample_count) == [1, 1, 0, 1, 1]


@pytest.mark.parametrize(
    ("ids", "err", "match"),
    [
        ([0, 5], IndexError, r"holds 5.*\[0, 5\)"),
        ([-1], IndexError, "holds -1"),
        (np.ones(4, dtype=bool), ValueError, r"mask of shape \(4,\).*\(5,\)"),
        ([0.5], TypeError, "env_ids="),
        ([[0, 1]], ValueError, "1-D"),
        ("0", TypeError, "env_ids="),
    ],
)
def test_reset_refuses_bad_env_ids(ids, err, match):
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    with pytest.raises(err, match=match):
        batch.reset(ids)


# ---- state, pickle, copy ------------------------------------------------------------------
@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy", "from_state", "setter"])
def test_batch_state_round_trips_and_continues_bit_for_bit(how):
    batch = ImuNoise(
        GYRO, ACCEL, seed=7, num_envs=N, gyro_noise_stddev=np.arange(N)[:, None] * 1e-3 * np.ones(3)
    )
    for k in range(37):
        batch.step(*_inputs(N, seed=k), 0.01)
    batch.reset([0])
    if how == "pickle":
        other = pickle.loads(pickle.dumps(batch))
    elif how == "copy":
        other = copy.copy(batch)
    elif how == "deepcopy":
        other = copy.deepcopy(batch)
    elif how == "from_state":
        other = ImuNoise.from_state(batch.state)
    else:
        other = ImuNoise(seed=1)
        other.state = batch.state
    assert other == batch and other.num_envs == N
    for k in range(70):
        w, a = _inputs(N, seed=200 + k)
        x, y = batch.step(w, a, 0.01), other.step(w, a, 0.01)
        assert np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1])


def test_batch_state_refuses_positions_off_the_count():
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=2)
    batch.step(*_inputs(2), 0.01)
    state = batch.state
    state["position"]["envs"][1]["stream_positions"][0][0] = 5
    with pytest.raises(ValueError, match="stands at the sample count"):
        ImuNoise.from_state(state)
    state = batch.state
    state["position"]["envs"] = state["position"]["envs"][:1]
    with pytest.raises(ValueError, match="list of 2 positions"):
        ImuNoise.from_state(state)


def test_single_model_states_are_unchanged_by_batches():
    m = ImuNoise(GYRO, ACCEL, seed=7)
    assert "num_envs" not in m.state["params"] and "env" not in m.state["params"]
    e = ImuNoise(GYRO, ACCEL, seed=7, env=2)
    assert e.state["params"]["env"] == 2
    assert ImuNoise.from_state(e.state).key == e.key


# ---- statistics ---------------------------------------------------------------------------
def test_per_env_white_sigma_is_honoured():
    """Sample standard deviation of 4000 samples per environment and axis against the
    per-environment sigma: relative sd of the estimate sqrt(1/(2*4000)) = 1.1 %, the
    tolerance 5 % (4.4 of those), seed fixed."""
    n, t = 16, 4000
    sigma = np.geomspace(1e-3, 1.0, n)
    batch = ImuNoise(
        seed=11,
        num_envs=n,
        gyro_noise_stddev=sigma[:, None] * np.ones(3),
        accel_noise_stddev=2 * sigma[:, None] * np.ones(3),
    )
    zeros = np.zeros((n, t, 3))
    w, a = batch.apply(zeros, zeros, 0.01)
    np.testing.assert_allclose(w.std(axis=1), sigma[:, None] * np.ones(3), rtol=0.05)
    np.testing.assert_allclose(a.std(axis=1), 2 * sigma[:, None] * np.ones(3), rtol=0.05)
    # and the environments are independent: correlation of env 0 and 1 is ~ N(0, 1/t)
    c = np.corrcoef(w[0, :, 0], w[1, :, 0])[0, 1]
    assert abs(c) < 5 / np.sqrt(t)


# ---- randomization ------------------------------------------------------------------------
def test_redraw_is_reproducible_and_resets_only_those_envs():
    ranges = {
        "gyro_noise_density": (1e-4, 1e-3),
        "accel_noise_stddev": ([0.0, 0.1, 0.2], [0.1, 0.2, 0.3]),
    }
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    twin = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    for k in range(10):
        batch.step(*_inputs(N, seed=k), 0.01)
        twin.step(*_inputs(N, seed=k), 0.01)
    vals = randomization.redraw(batch, [4, 1], ranges=ranges, episode=3)
    assert vals["gyro_noise_density"].shape == (2,) and vals["accel_noise_stddev"].shape == (2, 3)
    assert np.all((vals["gyro_noise_density"] >= 1e-4) & (vals["gyro_noise_density"] <= 1e-3))
    # the same seed, env and episode draw the same, whichever other envs are reset
    again = randomization.draw(ranges, [1], N, seed=batch.seed, episode=3)
    assert np.array_equal(again["gyro_noise_density"][0], vals["gyro_noise_density"][0])
    other = randomization.draw(ranges, [1], N, seed=batch.seed, episode=4)
    assert not np.array_equal(other["gyro_noise_density"], again["gyro_noise_density"])
    assert list(batch.sample_count) == [10, 0, 10, 10, 0]
    assert batch.gyro[1].noise_density == (vals["gyro_noise_density"][0],) * 3
    # env 1 is now the single model with the drawn parameters, the others continue
    one = ImuNoise(
        GYRO.replace(noise_density=vals["gyro_noise_density"][0]),
        ACCEL.replace(noise_stddev=vals["accel_noise_stddev"][0]),
        seed=7,
        env=1,
    )
    for k in range(20):
        w, a = _inputs(N, seed=50 + k)
        bw, ba = batch.step(w, a, 0.01)
        tw, ta = twin.step(w, a, 0.01)
        ow, oa = one.step(w[1], a[1], 0.01)
        assert np.array_equal(bw[1], ow) and np.array_equal(ba[1], oa)
        for i in (0, 2, 3):
            assert np.array_equal(bw[i], tw[i]) and np.array_equal(ba[i], ta[i])
    # the state keeps the drawn parameters
    assert ImuNoise.from_state(batch.state) == batch


def test_redraw_refusals_change_nothing():
    batch = ImuNoise(GYRO, ACCEL, seed=7, num_envs=N)
    before = batch.state
    with pytest.raises(ValueError, match="environment 2: .*noise_density"):
        randomization.redraw(batch, [2], ranges={"gyro_noise_density": (-2.0, -1.0)}, episode=0)
    with pytest.raises(ValueError, match="low <= high"):
        randomization.redraw(batch, [2], ranges={"gyro_noise_density": (2.0, 1.0)}, episode=0)
    with pytest.raises(ValueError, match="episode="):
        randomization.redraw(batch, [2], ranges={"gyro_noise_density": (1.0, 2.0)}, episode=-1)
    with pytest.raises(TypeError, match="batch model"):
        randomization.redraw(ImuNoise(seed=1), [0], ranges={"gyro_bias": (0, 1)}, episode=0)
    assert batch.state == before


# ---- the spec's batch rule ----------------------------------------------------------------
def test_param_batch_rule():
    real = spec.Param("x", "real", "a value", low=0.0)
    assert real.env_values(1.0, 3) is None
    assert real.env_values([1.0, 2.0, 3.0], 3) == [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(real.check_batch([1.0, 2.0], 2), [1.0, 2.0])
    with pytest.raises(ValueError, match=r"x\[1\]=-1.0 is not allowed"):
        real.check_batch([1.0, -1.0], 2)
    vec = spec.Param("v", "vector3", "a vector")
    assert vec.env_values([1.0, 2.0, 3.0], 3) is None  # (3,) is per axis, always
    assert vec.check_batch(np.ones((3, 3)), 3).shape == (3, 3)
    with pytest.raises(ValueError, match=r"v of shape \(2, 3\) is not allowed with num_envs=3"):
        vec.env_values(np.ones((2, 3)), 3)
    choice = spec.Param("c", "choice", "a choice", choices=("a", "b"))
    assert choice.env_values(["a", "b"], 2) is None


def test_num_envs_and_env_are_the_model_base_properties():
    """One definition (fastnoise.core.model.Model) for every batched model; a model
    that is not a batch reads None."""
    from fastnoise import AirPressureNoise, ImageNoise, RangeNoise
    from fastnoise.core.model import Model
    from fastnoise.models.gazebo.noise import GazeboNoise
    from fastnoise.models.simple import GaussianNoise

    for cls in (ImuNoise, GaussianNoise, GazeboNoise, AirPressureNoise, RangeNoise):
        for name in ("num_envs", "env"):
            assert getattr(cls, name) is getattr(Model, name), (cls, name)
    assert ImuNoise(GYRO, ACCEL, seed=1, num_envs=3).num_envs == 3
    assert ImuNoise(GYRO, ACCEL, seed=1, env=2).env == 2
    g = GaussianNoise(num_envs=4, seed=1)
    assert (g.num_envs, g.env) == (4, None)
    assert (ImageNoise(seed=1).num_envs, ImageNoise(seed=1).env) == (None, None)
