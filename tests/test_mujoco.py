"""fastnoise.mujoco.SensorNoise on an MJCF with a sensor of every type
(tests/data/mujoco/every_sensor.xml): sigma read back per sensor within 5 % (fixed
seed), untouched sensors bit-identical, unit quaternions to 1e-12, rangefinder misses
kept, batch environment i bit-identical to env=i, and resets of a subset."""

from pathlib import Path

import numpy as np
import pytest

mujoco = pytest.importorskip(
    "mujoco", reason="fastnoise.mujoco needs mujoco (pip install fastnoise[sim])"
)

from fastnoise.mujoco import SENSOR_KINDS, SensorNoise  # noqa: E402

XML = Path(__file__).parent / "data" / "mujoco" / "every_sensor.xml"
N = 4000  # environments for the statistics: a sample sd's relative error ~ 1/sqrt(2 N dim)


@pytest.fixture(scope="module")
def scene():
    model = mujoco.MjModel.from_xml_path(str(XML))
    data = mujoco.MjData(model)
    data.ctrl[:] = 0.3
    for _ in range(50):
        mujoco.mj_step(model, data)
    return model, data


def _sensor(model, name):
    s = model.sensor(name)
    return slice(int(s.adr[0]), int(s.adr[0] + s.dim[0])), float(s.noise[0])


def _kind(model, i):
    names = {
        int(v): n[len("mjSENS_") :]
        for n, v in vars(mujoco.mjtSensor).items()
        if n.startswith("mjSENS_")
    }
    return SENSOR_KINDS[names[int(model.sensor_type[i])]]


def _batch(model, data, noise, steps=1):
    clean = np.tile(data.sensordata, (N, 1))
    out = []
    for _ in range(steps):
        x = clean.copy()
        noise.apply(x)
        out.append(x)
    return clean, np.concatenate(out)


def _rotvec(q0, q1):
    """Rotation vectors (rad, in q0's frame) taking unit quaternions q0 to q1."""
    w0, v0 = q0[..., :1], q0[..., 1:]
    w1, v1 = q1[..., :1], q1[..., 1:]
    w = w0 * w1 + (v0 * v1).sum(-1, keepdims=True)
    v = w0 * v1 - w1 * v0 - np.cross(v0, v1)
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return 2 * np.arctan2(n, w) * v / np.where(n > 0, n, 1)


def test_every_mujoco_sensor_type_is_listed():
    listed = set(SENSOR_KINDS)
    enum = {n[len("mjSENS_") :] for n in vars(mujoco.mjtSensor) if n.startswith("mjSENS_")}
    assert enum <= listed


def test_sigma_read_back_per_sensor(scene):
    model, data = scene
    noise = SensorNoise(model, seed=7, num_envs=N)
    clean, noisy = _batch(model, data, noise, steps=2)
    clean = np.concatenate([clean, clean])
    checked = 0
    for i in range(model.nsensor):
        name = model.sensor(i).name
        sl, sigma = _sensor(model, name)
        kind = _kind(model, i)
        if sigma == 0 or kind in ("nonneg", "unit", "none"):
            continue
        if kind == "range" and data.sensordata[sl][0] < 0:
            continue
        if kind == "quat":
            got = _rotvec(clean[:, sl], noisy[:, sl]).std(axis=0)
        else:
            got = (noisy[:, sl] - clean[:, sl]).std(axis=0)
        np.testing.assert_allclose(got, sigma, rtol=0.05, err_msg=name)
        checked += 1
    assert checked >= 38


def test_untouched_sensors_are_bit_identical_and_rules_hold(scene):
    model, data = scene
    noise = SensorNoise(model, seed=3, num_envs=N)
    clean, noisy = _batch(model, data, noise)
    for name in ("insidesite", "contact", "clock", "quiet", "range_miss"):
        sl, _ = _sensor(model, name)
        assert clean[:, sl].tobytes() == noisy[:, sl].tobytes(), name
    assert (data.sensordata[_sensor(model, "range_miss")[0]] == -1).all()
    assert (noisy[:, _sensor(model, "touch")[0]] >= 0).all()
    for name in ("framequat", "ballquat"):
        q = noisy[:, _sensor(model, name)[0]]
        np.testing.assert_allclose(np.linalg.norm(q, axis=1), 1.0, rtol=0, atol=1e-12)
    for name in ("framexaxis", "frameyaxis", "framezaxis", "geomnormal"):
        v = noisy[:, _sensor(model, name)[0]]
        np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, rtol=0, atol=1e-12)


def test_apply_noises_mjdata_in_place(scene):
    model, data = scene
    d = mujoco.MjData(model)
    mujoco.mj_forward(model, d)
    clean = d.sensordata.copy()
    out = SensorNoise(model, seed=1).apply(d)
    assert np.shares_memory(out, d.sensordata)
    assert not np.array_equal(d.sensordata, clean)


def test_batch_env_i_is_env_i_and_reset_subset(scene):
    model, data = scene
    cfg = {
        "gyro": {"noise_stddev": 0.01, "turn_on_bias_stddev": 0.1, "random_walk_density": 0.05},
        "accel": {"noise_density": 0.002, "bias": [0.1, 0.0, -0.1]},
    }
    batch = SensorNoise(model, seed=5, sensors=cfg, num_envs=3)
    singles = [SensorNoise(model, seed=5, sensors=cfg, env=i) for i in range(3)]
    ref = SensorNoise(model, seed=5, sensors=cfg, num_envs=3)
    for step in range(4):
        if step == 2:
            batch.reset(env_ids=[1])
            singles[1].reset(env_ids=[0])
        x = np.tile(data.sensordata, (3, 1))
        y = x.copy()
        batch.apply(x)
        ref.apply(y)
        for i, s in enumerate(singles):
            one = data.sensordata.copy()
            s.apply(one)
            assert one.tobytes() == x[i].tobytes()
        # the environments not reset continue their streams unchanged
        assert x[[0, 2]].tobytes() == y[[0, 2]].tobytes()
        if step >= 2:
            assert x[1].tobytes() != y[1].tobytes()
    again = SensorNoise(model, seed=5, sensors=cfg, num_envs=3)
    batch.reset()
    x, y = np.tile(data.sensordata, (3, 1)), np.tile(data.sensordata, (3, 1))
    batch.apply(x)
    again.apply(y)
    assert x.tobytes() == y.tobytes()


def test_turn_on_bias_and_random_walk_statistics(scene):
    model, data = scene
    dt, steps, k, b = 0.002, 100, 0.05, 0.1
    noise = SensorNoise(
        model,
        seed=9,
        sensors={"gyro": {"noise_stddev": 0.0, "turn_on_bias_stddev": b}},
        num_envs=N,
    )
    sl, _ = _sensor(model, "gyro")
    clean, noisy = _batch(model, data, noise)
    np.testing.assert_allclose((noisy - clean)[:, sl].std(axis=0), b, rtol=0.05)
    walk = SensorNoise(
        model,
        seed=9,
        sensors={"gyro": {"noise_stddev": 0.0, "random_walk_density": k}},
        num_envs=N,
    )
    for _ in range(steps):
        clean, noisy = _batch(model, data, walk)
    # after n steps the walk has variance K^2 n dt
    np.testing.assert_allclose(
        (noisy - clean)[:, sl].std(axis=0), k * np.sqrt(steps * dt), rtol=0.05
    )


def test_dt_defaults_to_timestep_times_steps(scene):
    model, data = scene
    cfg = {"gyro": {"noise_density": 0.01}}
    assert SensorNoise(model, steps=5).dt == pytest.approx(5 * model.opt.timestep)
    a = SensorNoise(model, seed=2, sensors=cfg, steps=5)
    b = SensorNoise(model, seed=2, sensors=cfg, dt=0.01)
    x, y = data.sensordata.copy(), data.sensordata.copy()
    a.apply(x)
    b.apply(y)
    assert x.tobytes() == y.tobytes()


def test_bad_input_is_refused_by_name(scene):
    model, data = scene
    with pytest.raises(ValueError, match="not sensors of the model"):
        SensorNoise(model, sensors={"gyroscope": {}})
    with pytest.raises(ValueError, match="unknown keys"):
        SensorNoise(model, sensors={"gyro": {"stddev": 1.0}})
    with pytest.raises(ValueError, match="noise_stddev only"):
        SensorNoise(model, sensors={"framequat": {"bias": 1.0}})
    with pytest.raises(ValueError, match="shape"):
        SensorNoise(model, num_envs=2).apply(data.sensordata.copy())
    with pytest.raises(ValueError, match="env=1 is not allowed"):
        SensorNoise(model, num_envs=2, env=1)


def test_noise_on_a_discrete_sensor_warns():
    model = mujoco.MjModel.from_xml_string(
        '<mujoco><worldbody/><sensor><clock name="t" noise="0.1"/></sensor></mujoco>'
    )
    with pytest.warns(UserWarning, match="'t' .clock. has noise=0.1"):
        SensorNoise(model)


def test_pickle_and_deepcopy_continue_the_streams(scene):
    import copy
    import pickle

    model, data = scene
    cfg = {"gyro": {"turn_on_bias_stddev": 0.1, "random_walk_density": 0.05}}
    noise = SensorNoise(model, seed=4, sensors=cfg, num_envs=2)
    noise.apply(np.tile(data.sensordata, (2, 1)))
    noise.reset(env_ids=[1])
    for other in (pickle.loads(pickle.dumps(noise)), copy.deepcopy(noise)):
        a, b = np.tile(data.sensordata, (2, 1)), np.tile(data.sensordata, (2, 1))
        other.apply(a)
        copy.deepcopy(noise).apply(b)
        assert a.tobytes() == b.tobytes()


def test_state_round_trip_continues_the_stream_bit_for_bit(scene):
    import json

    model, data = scene
    cfg = {"gyro": {"turn_on_bias_stddev": 0.1, "random_walk_density": [0.05, 0.02, 0.0]}}
    noise = SensorNoise(model, seed=4, sensors=cfg, num_envs=3, dt=0.004)
    for _ in range(3):
        noise.apply(np.tile(data.sensordata, (3, 1)))
    noise.reset(env_ids=[1])
    noise.apply(np.tile(data.sensordata, (3, 1)))
    state = noise.state
    again = SensorNoise.from_state(json.loads(json.dumps(state)), model)  # plain values
    assert again.state == state
    for _ in range(3):  # the walk and the resets' biases continue
        a, b = np.tile(data.sensordata, (3, 1)), np.tile(data.sensordata, (3, 1))
        noise.apply(a)
        again.apply(b)
        assert a.tobytes() == b.tobytes()
    noise.reset(env_ids=[0])
    again.reset(env_ids=[0])
    assert noise.state == again.state


def test_state_of_a_single_env_model_round_trips(scene):
    model, data = scene
    noise = SensorNoise(model, seed=9, env=5)
    noise.apply(data.sensordata.copy())
    again = SensorNoise.from_state(noise.state, model)
    a, b = data.sensordata.copy(), data.sensordata.copy()
    noise.apply(a)
    again.apply(b)
    assert a.tobytes() == b.tobytes() and again.env == 5


def test_from_state_refuses_another_model_and_bad_fields(scene):
    model, data = scene
    state = SensorNoise(model, seed=1, num_envs=2).state
    other = mujoco.MjModel.from_xml_string(
        '<mujoco><worldbody><site name="s"/></worldbody>'
        '<sensor><gyro site="s" noise="0.1"/></sensor></mujoco>'
    )
    with pytest.raises(ValueError, match="state\\['plan'\\] does not match"):
        SensorNoise.from_state(state, other)
    bad = dict(state, position=dict(state["position"], steps=[1]))
    with pytest.raises(ValueError, match="has 1 steps"):
        SensorNoise.from_state(bad, model)
    bad = dict(state, version=2)
    with pytest.raises(ValueError, match="version"):
        SensorNoise.from_state(bad, model)
    with pytest.raises(TypeError, match="state="):
        SensorNoise.from_state([1], model)
