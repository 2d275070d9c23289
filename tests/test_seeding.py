"""Seeds to keys: one user seed drives every model, and the models stay independent."""

import hashlib

import numpy as np
import pytest

import fastnoise as fn
from fastnoise.core.generator import fill_normals
from fastnoise.core.seeding import as_seed_sequence, model_key, model_tag


def test_model_key_is_the_documented_rule():
    # tag: first 4 bytes of sha256(name), little-endian, top bit set; the model's
    # sequence is the user's with the tag appended to its spawn key
    ss = np.random.SeedSequence(77, spawn_key=(3,))
    tag = int.from_bytes(hashlib.sha256(b"camera").digest()[:4], "little") | 1 << 31
    child = np.random.SeedSequence(77, spawn_key=(3, tag))
    words = child.generate_state(2, np.uint32)
    assert model_tag("camera") == tag
    assert model_key(ss, "camera") == int(words[0]) | int(words[1]) << 32


def test_model_tags_never_equal_spawn_indices():
    for name in ("camera", "lidar", "dvl", "imu", "sensor_simulator"):
        assert model_tag(name) >= 2**31


def _first_draws(seed):
    """The first standard normals each model draws for ``seed`` (noise scale 1)."""
    out = {}
    out["generator"] = fn.GaussianNoiseGenerator(seed).normal(size=8)
    img = np.full((1, 8), 0.5)
    out["camera"] = (fn.ImageNoise(stddev=1e-3, seed=seed).apply(img, frame=0)[0] - 0.5) * 1e3
    rng = fn.RangeNoise(0.0, 1.0, 0.0, 1e9, seed=seed)
    out["range"] = rng.apply(np.full(8, 1e3), frame=0) - 1e3
    awn = fn.AugmentedWhiteNoise(0.0, 1.0, 0.0, 0.0, seed=seed)
    out["dvl"] = np.array([awn.measure(0.0) for _ in range(8)])
    body = fn.RigidBodySimulator((1.0, 1.0, 1.0))
    sensor = fn.SensorSimulator(body, seed=seed, noise_stddev=1.0)
    out["sensor"] = np.concatenate([sensor.read_angular_velocity() for _ in range(3)])[:8]
    return out


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_models_seeded_alike_draw_different_noise(seed):
    draws = _first_draws(seed)
    names = list(draws)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            # float32 vs float64 draws of one stream agree to ~1e-7: compare loosely
            assert not np.allclose(draws[a], draws[b], rtol=0, atol=1e-3), (a, b)


def test_each_model_is_still_a_function_of_the_seed():
    a, b = _first_draws(5), _first_draws(5)
    for name in a:
        np.testing.assert_array_equal(a[name], b[name])


def test_camera_noise_is_its_documented_stream():
    img = np.full((2, 4), 0.5)
    got = fn.ImageNoise(stddev=0.01, seed=9).apply(img, frame=3)
    z = np.empty(8, np.float32)
    fill_normals(model_key(as_seed_sequence(9), "camera"), 3, 0, z)
    want = np.clip(0.5 + 0.0 + 0.01 * z.astype(np.float64), 0, 1).reshape(2, 4)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
