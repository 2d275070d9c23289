"""Batched environments of the Gazebo sensor family (issue 24 item 1): environment i
of ``num_envs=N`` is the model built with ``env=i``, bit for bit, for every sensor;
partial resets, per-environment component values, states, refusals."""

import copy
import pickle

import numpy as np
import pytest

from fastnoise.core.seeding import as_seed_sequence, env_model_key, model_key
from fastnoise.models.gazebo.navsat import NavSatNoise
from fastnoise.models.gazebo.pressure import AirPressureNoise, AirSpeedNoise
from fastnoise.models.gazebo.sensors import AltimeterNoise, ForceTorqueNoise, MagnetometerNoise

N = 4
# a component with every term on
GZ = dict(
    mean=0.01,
    stddev=0.2,
    bias_mean=0.5,
    bias_stddev=0.1,
    dynamic_bias_stddev=0.05,
    dynamic_bias_correlation_time=3.0,
    precision=1e-4,
)

# (class, constructor keywords, scale of the inputs): every sensor, and both units of
# the sensors with a unit switch; some components off
CASES = {
    "magnetometer": (MagnetometerNoise, dict(x=GZ, z={"stddev": 1e-6}), 5e-5),
    "altimeter": (AltimeterNoise, dict(vertical_position=GZ, vertical_velocity=GZ), 10.0),
    "force_torque": (ForceTorqueNoise, dict(force_x=GZ, force_z=GZ, torque_y=GZ), 5.0),
    "navsat_degrees": (NavSatNoise, dict(horizontal_position=GZ, vertical_position=GZ), 60.0),
    "navsat_metres": (
        NavSatNoise,
        dict(
            horizontal_position=GZ,
            horizontal_velocity=GZ,
            vertical_velocity=GZ,
            horizontal_units="metres",
        ),
        60.0,
    ),
    "air_pressure": (AirPressureNoise, dict(pressure=GZ), 1e5),
    "air_speed_hpa": (AirSpeedNoise, dict(pressure=GZ), 300.0),
    "air_speed_pa": (AirSpeedNoise, dict(pressure=GZ, pressure_units="pascals"), 300.0),
    "air_speed_off": (AirSpeedNoise, dict(), 300.0),
}


def _data(cls, t, scale, seed=0):
    shape = (N, t) if cls.n_columns == 1 else (N, t, cls.n_columns)
    return np.random.default_rng(seed).normal(size=shape) * scale


def _batch_and_singles(case, seed=3):
    cls, kw, scale = CASES[case]
    return (
        cls(**kw, seed=seed, num_envs=N),
        [cls(**kw, seed=seed, env=i) for i in range(N)],
        scale,
    )


def test_keys():
    ss = as_seed_sequence(3)
    for cls, kw, _ in CASES.values():
        name = cls.model_name
        assert cls(**kw, seed=3, env=2).key == env_model_key(ss, name, 2)
        assert cls(**kw, seed=3).key == model_key(ss, name)
        assert cls(**kw, seed=3, num_envs=N).key == model_key(ss, name)
        assert "num_envs" not in cls(**kw, seed=3).state["params"]
        assert cls(**kw, seed=3, env=2).state["params"]["env"] == 2


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("dt_kind", ["scalar", "per_env", "per_reading"])
@pytest.mark.parametrize("t", [5, 23])  # below and above the sample-by-sample limit (16)
def test_batch_equals_single_models_bit_for_bit(case, dt_kind, t):
    batch, singles, scale = _batch_and_singles(case)
    cls = type(batch)
    rng = np.random.default_rng(4)
    for r in range(3):
        x = _data(cls, t, scale, r)
        dt = {
            "scalar": 0.05,
            "per_env": rng.uniform(0.0, 0.1, N),
            "per_reading": rng.uniform(0.0, 0.1, (N, t)),
        }[dt_kind]
        got = batch.apply(x, dt)
        assert got.shape == x.shape
        for i, s in enumerate(singles):
            if dt_kind == "scalar":
                d = dt
            else:
                d = np.full(t, dt[i]) if dt_kind == "per_env" else dt[i]
            assert np.array_equal(got[i], s.apply(x[i], d)), (case, r, i)
        # apply_one: each reading argument (N,); a scalar stands for every environment
        row = _data(cls, 1, scale, 10 + r)[:, 0]
        cols = [row] if cls.n_columns == 1 else list(row.T)
        one = batch.apply_one(*cols, dt=0.02)
        for i, s in enumerate(singles):
            want = s.apply_one(*[c[i] for c in cols], dt=0.02)
            if cls.n_columns == 1:
                assert one[i] == want
            else:
                assert tuple(c[i] for c in one) == want, (case, i)
    for comp in cls._components:
        np.testing.assert_array_equal(batch.bias(comp), [s.bias(comp) for s in singles])
    assert batch.state["position"]["envs"] == [s.state["position"] for s in singles]


def test_apply_one_takes_scalars_for_every_environment():
    batch, singles, _ = _batch_and_singles("navsat_metres")
    got = batch.apply_one(np.array([10.0, 20.0, 30.0, 40.0]), 5.0, 100.0)
    for i, s in enumerate(singles):
        assert tuple(c[i] for c in got) == s.apply_one(10.0 * (i + 1), 5.0, 100.0)


def test_in_place_and_out():
    batch, singles, scale = _batch_and_singles("force_torque")
    x = _data(ForceTorqueNoise, 12, scale)
    keep = x.copy()
    y = batch.apply(x, 0.01)
    assert np.array_equal(x, keep)  # the input is not modified
    out = np.empty_like(x)
    twin = ForceTorqueNoise(**CASES["force_torque"][1], seed=3, num_envs=N)
    assert twin.apply(x, 0.01, out=out) is out
    assert np.array_equal(out, y)
    same = ForceTorqueNoise(**CASES["force_torque"][1], seed=3, num_envs=N)
    assert same.apply(x, 0.01, out=x) is x
    assert np.array_equal(x, y)


@pytest.mark.parametrize("case", ["navsat_metres", "air_speed_hpa", "altimeter"])
@pytest.mark.parametrize("ids", [[0, 2], np.array([True, False, True, False]), 2])
def test_reset_of_some_envs_leaves_the_others_unchanged(case, ids):
    cls, kw, scale = CASES[case]
    batch, twin, fresh = (cls(**kw, seed=3, num_envs=N) for _ in range(3))
    batch.apply(_data(cls, 30, scale), 0.05)
    twin.apply(_data(cls, 30, scale), 0.05)
    batch.reset(ids)
    reset = set(np.flatnonzero(ids)) if np.ndim(ids) and len(ids) == N else set(np.ravel(ids))
    x = _data(cls, 40, scale, 9)
    got, cont, new = batch.apply(x, 0.05), twin.apply(x, 0.05), fresh.apply(x, 0.05)
    for i in range(N):
        assert np.array_equal(got[i], new[i] if i in reset else cont[i]), i


def test_reset_refusals():
    batch, _, _ = _batch_and_singles("magnetometer")
    with pytest.raises(IndexError, match="holds 4"):
        batch.reset([4])
    with pytest.raises(ValueError, match=r"mask of shape \(3,\)"):
        batch.reset(np.array([True, False, True]))
    with pytest.raises(TypeError, match="env_ids="):
        batch.reset([0.5])
    with pytest.raises(TypeError, match="is one model"):
        MagnetometerNoise(x=GZ, seed=3).reset(env_ids=[0])
    MagnetometerNoise(x=GZ, seed=3).reset()  # a single model's reset is unchanged


def test_per_env_component_values_and_their_checks():
    stddev = [0.1, 0.2, 0.3, 0.4]
    batch = AltimeterNoise(
        vertical_position={"stddev": stddev, "bias_mean": 1.0}, seed=5, num_envs=N
    )
    singles = [
        AltimeterNoise(vertical_position={"stddev": s, "bias_mean": 1.0}, seed=5, env=i)
        for i, s in enumerate(stddev)
    ]
    x = _data(AltimeterNoise, 20, 10.0)
    got = batch.apply(x, 0.01)
    for i, s in enumerate(singles):
        assert np.array_equal(got[i], s.apply(x[i], 0.01))
    params = batch.state["params"]
    assert params["vertical_position"]["stddev"] == stddev
    assert params["vertical_position"]["bias_mean"] == 1.0
    assert params["vertical_velocity"] is None
    assert params["num_envs"] == N
    press = AirPressureNoise(pressure={"stddev": stddev}, seed=5, num_envs=N)
    np.testing.assert_array_equal(press.reported_variance, np.sqrt(stddev))
    assert AirPressureNoise(pressure=GZ, seed=5, num_envs=N).reported_variance == np.sqrt(0.2)
    with pytest.raises(ValueError, match=r"x\['stddev'\]\[2\]=-1.0 is not allowed"):
        MagnetometerNoise(x={"stddev": [0.1, 0.1, -1.0, 0.1]}, seed=5, num_envs=N)
    with pytest.raises(ValueError, match=r"x\['stddev'\] of shape \(3,\) is not allowed"):
        MagnetometerNoise(x={"stddev": [0.1, 0.1, 0.1]}, seed=5, num_envs=N)
    with pytest.raises(ValueError, match="unknown keys"):
        MagnetometerNoise(x={"sigma": 0.1}, seed=5, num_envs=N)
    with pytest.raises(TypeError, match=r"x\['stddev'\]=\[0.1, 0.2\] is not allowed"):
        MagnetometerNoise(x={"stddev": [0.1, 0.2]}, seed=5)  # per env needs num_envs
    with pytest.raises(ValueError, match="not allowed with num_envs"):
        MagnetometerNoise(seed=5, num_envs=N, env=0)
    with pytest.raises(ValueError, match="num_envs=0 is not allowed"):
        MagnetometerNoise(seed=5, num_envs=0)
    with pytest.raises(ValueError, match="horizontal_units='feet' is not allowed"):
        NavSatNoise(seed=5, num_envs=N, horizontal_units="feet")


def test_inputs_are_checked():
    batch, _, _ = _batch_and_singles("magnetometer")
    with pytest.raises(ValueError, match=r"data has shape \(4, 3\): .* \(4, T, 3\)"):
        batch.apply(np.zeros((N, 3)))
    with pytest.raises(ValueError, match=r"data has shape \(4, 5, 2\)"):
        batch.apply(np.zeros((N, 5, 2)))
    with pytest.raises(ValueError, match=r"y has shape \(3,\): with num_envs=4"):
        batch.apply_one(np.zeros(N), np.zeros(3), np.zeros(N))
    with pytest.raises(ValueError, match=r"dt has shape \(2,\)"):
        batch.apply(np.zeros((N, 5, 3)), np.ones(2))
    with pytest.raises(ValueError, match="dt contains -1.0"):
        batch.apply_one(np.zeros(N), np.zeros(N), np.zeros(N), dt=np.r_[0.0, -1.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="x=.* has dtype"):
        batch.apply_one(np.array(["a"] * N), 0.0, 0.0)
    speed = AirSpeedNoise(pressure=GZ, seed=1, num_envs=N)
    with pytest.raises(ValueError, match=r"data has shape \(4, 2, 1\): .* \(4, T\)"):
        speed.apply(np.zeros((N, 2, 1)))
    before = speed.state
    with pytest.raises(ValueError, match="out overlaps data"):
        buf = np.zeros(2 * N * 3)
        speed.apply(buf[: N * 3].reshape(N, 3), out=buf[1 : N * 3 + 1].reshape(N, 3))
    assert speed.state == before  # a refused call changes nothing


@pytest.mark.parametrize("how", ["pickle", "copy", "deepcopy", "from_state"])
def test_state_round_trips_and_continues(how):
    kw = dict(horizontal_position={**GZ, "stddev": [0.1, 0.2, 0.3, 0.4]}, vertical_position=GZ)
    batch = NavSatNoise(**kw, horizontal_units="metres", seed=3, num_envs=N)
    batch.apply(_data(NavSatNoise, 25, 60.0), 0.05)
    other = {
        "pickle": lambda: pickle.loads(pickle.dumps(batch)),
        "copy": lambda: copy.copy(batch),
        "deepcopy": lambda: copy.deepcopy(batch),
        "from_state": lambda: NavSatNoise.from_state(batch.state),
    }[how]()
    assert other == batch
    x = _data(NavSatNoise, 30, 60.0, 2)
    assert np.array_equal(batch.apply(x, 0.05), other.apply(x, 0.05))
    bad = batch.state
    bad["position"]["envs"] = bad["position"]["envs"][:2]
    with pytest.raises(ValueError, match="list of 4 positions"):
        NavSatNoise.from_state(bad)
    bad = batch.state
    bad["position"]["envs"][1]["vertical_position"]["count"] = -1
    with pytest.raises(ValueError, match=r"\['envs'\]\[1\]\['vertical_position'\]\['count'\]"):
        NavSatNoise.from_state(bad)


def test_a_full_count_is_refused_naming_the_environment():
    batch = MagnetometerNoise(x=GZ, seed=3, num_envs=N)
    state = batch.state
    state["position"]["envs"][2]["x"]["count"] = 2**64 - 2
    full = MagnetometerNoise.from_state(state)
    before = full.state
    with pytest.raises(OverflowError, match="environment 2: 3 more readings"):
        full.apply(np.zeros((N, 3, 3)))
    assert full.state == before


@pytest.mark.parametrize(
    "cls, comp",
    [
        (MagnetometerNoise, "y"),
        (ForceTorqueNoise, "torque_x"),
        (AirPressureNoise, "pressure"),
        (AirSpeedNoise, "pressure"),
        (NavSatNoise, "vertical_position"),
    ],
)
def test_per_env_sigma_is_honoured(cls, comp):
    """Sample sd of 4000 readings per environment: relative sd of the estimate 1.1 %,
    tolerance 5 %, seed fixed. AirSpeedNoise's default units act in hPa: the output
    (Pa) has 100 times the sd."""
    sigma = np.array([1e-3, 0.1, 1.0, 30.0])
    kw = {comp: {"stddev": sigma}}
    if cls is AirSpeedNoise:
        kw["pressure_units"] = "pascals"
    batch = cls(**kw, seed=8, num_envs=N)
    y = batch.apply(_data(cls, 4000, 0.0), 0.01)
    col = y if cls.n_columns == 1 else y[:, :, list(cls._components).index(comp)]
    if cls is NavSatNoise:
        col = y[:, :, 2]  # the altitude
    np.testing.assert_allclose(col.std(axis=1), sigma, rtol=0.05)
    if cls is AirSpeedNoise:  # gz-sensors' hPa: 100 times in Pa (float32 arithmetic)
        hpa = cls(pressure={"stddev": sigma}, seed=8, num_envs=N)
        z = hpa.apply(_data(cls, 4000, 0.0), 0.01)
        np.testing.assert_allclose(z.std(axis=1), 100 * sigma, rtol=0.05)
