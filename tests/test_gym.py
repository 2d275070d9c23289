"""fastnoise.gym wrappers on Gymnasium's own environments (Ant-v5, Humanoid-v5,
Pendulum-v1): check_env, Gymnasium's seeding (reset(seed=s) reseeds the noise; sub-env i
of a vector env uses s with env=i), clipping or widening bounded spaces, and the noise
of an autoreset environment alone being reset."""

import warnings

import numpy as np
import pytest

gym = pytest.importorskip(
    "gymnasium", reason="fastnoise.gym needs gymnasium (pip install fastnoise[sim])"
)
pytest.importorskip("mujoco", reason="the MuJoCo environments need mujoco (fastnoise[sim])")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from fastnoise import AdditiveBiasNoise, GaussianNoise  # noqa: E402
from fastnoise.core.seeding import child_seed_sequence  # noqa: E402
from fastnoise.gym import ObservationNoise, VectorObservationNoise  # noqa: E402

NOISE = [(slice(0, 13), {"model": "gaussian_noise", "stddev": 0.01})]


def _model_seed(s):
    # slice 0 of the wrapper's noise: child 0 of child 0 of the seed
    return child_seed_sequence(child_seed_sequence(np.random.SeedSequence(s), 0), 0)


def test_observation_noise_passes_check_env():
    env = ObservationNoise(gym.make("Ant-v5"), noise=NOISE, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Gymnasium's notes on wrappers, inf
        check_env(env, skip_render_check=True)


def test_reset_seed_reseeds_the_noise():
    clean = gym.make("Ant-v5")
    env = ObservationNoise(gym.make("Ant-v5"), noise=NOISE)
    x, _ = clean.reset(seed=7)
    y, _ = env.reset(seed=7)
    want = GaussianNoise(stddev=0.01, env=0, seed=_model_seed(7)).apply(x[:13])
    np.testing.assert_array_equal(y[:13], want)
    np.testing.assert_array_equal(y[13:], x[13:])
    again, _ = env.reset(seed=7)
    np.testing.assert_array_equal(again, y)
    other, _ = env.reset(seed=8)
    assert not np.array_equal(other[:13], y[:13])
    # the same seed and actions give the same noisy episode
    runs = []
    for _ in range(2):
        env.reset(seed=3)
        env.action_space.seed(0)
        runs.append([env.step(env.action_space.sample())[0] for _ in range(5)])
    np.testing.assert_array_equal(runs[0], runs[1])


def test_bounded_spaces_are_clipped_or_widened():
    noise = [(slice(0, 3), {"model": "gaussian_noise", "stddev": 10.0})]
    env = ObservationNoise(gym.make("Pendulum-v1"), noise=noise, seed=0)
    assert env.observation_space == gym.make("Pendulum-v1").observation_space
    obs = [env.reset(seed=0)[0]] + [env.step(np.zeros(1))[0] for _ in range(20)]
    assert all(env.observation_space.contains(o) for o in obs)
    wide = ObservationNoise(gym.make("Pendulum-v1"), noise=noise, seed=0, clip=False)
    assert np.isinf(wide.observation_space.low).all()
    assert np.isinf(wide.observation_space.high).all()
    o = wide.reset(seed=0)[0]
    assert np.abs(o).max() > 8  # sd 10: well outside the unclipped bounds


def test_vector_sub_env_i_uses_the_seed_with_env_i():
    n = 2
    clean = gym.make_vec("Humanoid-v5", num_envs=n, vectorization_mode="sync")
    vec = VectorObservationNoise(
        gym.make_vec("Humanoid-v5", num_envs=n, vectorization_mode="sync"), noise=NOISE
    )
    assert vec.single_observation_space == clean.single_observation_space
    assert vec.observation_space.shape == (n, *clean.single_observation_space.shape)
    x, _ = clean.reset(seed=11)
    y, _ = vec.reset(seed=11)
    assert vec.observation_space.contains(y)
    for i in range(n):
        want = GaussianNoise(stddev=0.01, env=i, seed=_model_seed(11)).apply(x[i, :13])
        np.testing.assert_array_equal(y[i, :13], want)
    np.testing.assert_array_equal(y[:, 13:], x[:, 13:])


def test_autoreset_resets_that_envs_noise_only():
    n = 3
    noise = [
        (
            slice(0, 13),
            {
                "model": "additive_bias_noise",
                "noise": {"type": "gaussian", "stddev": 0.01},
                "bias_noise": {"type": "uniform", "n_min": -1, "n_max": 1, "operation": "abs"},
            },
        )
    ]

    def run():
        base = gym.make_vec("Ant-v5", num_envs=n, vectorization_mode="sync", max_episode_steps=4)
        vec = VectorObservationNoise(base, noise=noise, seed=0)
        vec.reset(seed=2)
        vec.action_space.seed(0)
        model = vec._slices.models[0]
        assert isinstance(model, AdditiveBiasNoise)
        biases, obs = [model.bias], []
        for _ in range(6):
            obs.append(vec.step(vec.action_space.sample())[0])
            biases.append(model.bias)
        return np.array(biases), np.array(obs)

    biases, obs = run()
    # every env truncates at step 4; the next step returns its first observation and
    # draws its noise's new bias (next-step autoreset), the steps before keep theirs
    for k in range(1, 5):
        np.testing.assert_array_equal(biases[k], biases[0])
    assert (biases[5] != biases[4]).all()
    again_biases, again_obs = run()
    np.testing.assert_array_equal(again_biases, biases)
    np.testing.assert_array_equal(again_obs, obs)


def test_bad_noise_is_refused():
    with pytest.raises(TypeError, match="give pairs"):
        ObservationNoise(gym.make("Pendulum-v1"), noise=[slice(0, 1)])
    with pytest.raises(ValueError, match="must be a dict with 'model'"):
        ObservationNoise(gym.make("Pendulum-v1"), noise=[(slice(0, 1), {"stddev": 1.0})])


def _ant_with_imu(folder):
    """Gymnasium's ant.xml with a gyro and an accelerometer on the torso (MjSpec)."""
    from pathlib import Path

    import mujoco

    assets = Path(gym.__file__).parent / "envs" / "mujoco" / "assets"
    spec = mujoco.MjSpec.from_file(str(assets / "ant.xml"))
    spec.body("torso").add_site(name="imu", pos=[0.0, 0.0, 0.0])
    site = mujoco.mjtObj.mjOBJ_SITE
    spec.add_sensor(name="gyro", type=mujoco.mjtSensor.mjSENS_GYRO, objtype=site, objname="imu")
    spec.add_sensor(
        name="accel", type=mujoco.mjtSensor.mjSENS_ACCELEROMETER, objtype=site, objname="imu"
    )
    path = folder / "ant_imu.xml"
    path.write_text(spec.to_xml())
    return str(path)


SENSORS = {
    "sensors": {
        "gyro": {"noise_stddev": 0.02, "turn_on_bias_stddev": 0.01, "random_walk_density": 0.001},
        "accel": {"noise_stddev": 0.1},
    }
}


def test_vector_noises_sensordata_as_single_wrappers_with_env_i(tmp_path):
    xml = _ant_with_imu(tmp_path)
    n, steps = 3, 6
    vec = VectorObservationNoise(
        gym.make_vec("Ant-v5", num_envs=n, vectorization_mode="sync", xml_file=xml),
        noise=NOISE,
        sensordata=SENSORS,
    )
    vec.reset(seed=7)
    sims = [e.unwrapped for e in vec.env.unwrapped.envs]
    singles = []
    for i in range(n):
        w = ObservationNoise(
            gym.make("Ant-v5", xml_file=xml), noise=NOISE, seed=7, env_index=i, sensordata=SENSORS
        )
        w.env.reset(seed=7 + i)  # the physics of sub-env i (Gymnasium seeds it s + i)
        singles.append(w)
    clean = gym.make("Ant-v5", xml_file=xml)
    clean.reset(seed=7)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        actions = rng.uniform(-1, 1, size=(n, 8))
        vec.step(actions)
        clean.step(actions[0])
        for i, w in enumerate(singles):
            w.step(actions[i])
            assert sims[i].data.sensordata.tobytes() == w.unwrapped.data.sensordata.tobytes()
    # the noise is there: sub-env 0 differs from the clean run by about the set sigma
    gyro = slice(0, 3)
    diff = sims[0].data.sensordata[gyro] - clean.unwrapped.data.sensordata[gyro]
    assert np.all(diff != 0.0) and np.all(np.abs(diff) < 0.2)


def test_vector_sensordata_resets_with_the_autoreset_env(tmp_path):
    xml = _ant_with_imu(tmp_path)
    base = gym.make_vec(
        "Ant-v5", num_envs=2, vectorization_mode="sync", max_episode_steps=3, xml_file=xml
    )
    vec = VectorObservationNoise(base, noise=NOISE, sensordata=SENSORS, seed=1)
    vec.reset(seed=1)
    for _ in range(5):
        vec.step(np.zeros((2, 8)))
    # both truncated at step 3 and autoreset at step 4 (next-step mode): each sensor
    # environment was reset once
    assert vec._sensor.state["position"]["resets"] == [1, 1]
