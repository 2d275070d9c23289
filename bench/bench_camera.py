"""Camera noise (Gazebo's per-pixel model) on whole frames: fastnoise beside numpy.

Two numpy baselines for the same model (H x W normals from default_rng, added to every
channel, clipped, rounded, cast back): the plain code a user writes (float64, as
``rng.normal`` gives), and a tuned float32, in-place version. Frames per second = the
OPS column.
"""

from __future__ import annotations

import numpy as np
import pytest

from fastnoise.models.camera.image_noise import ImageNoise

MEAN, STDDEV = 0.0, 0.007  # Gazebo's example values
SIZES = {"1080p": (1080, 1920), "4k": (2160, 3840)}


def numpy_camera_noise(img, rng, mean=MEAN, stddev=STDDEV):
    """Per-pixel Gaussian noise shared by the channels, uint8 in and out."""
    noise = rng.normal(mean, stddev, img.shape[:2])  # one value per pixel
    v = img / 255.0 + noise[..., None]  # to [0, 1], added to every channel
    return np.rint(np.clip(v, 0.0, 1.0) * 255.0).astype(np.uint8)


def numpy_camera_noise_tuned(img, rng, mean=MEAN, stddev=STDDEV):
    """The same in float32 with in-place steps, noise in levels."""
    z = rng.standard_normal(img.shape[:2], dtype=np.float32)
    z *= np.float32(255 * stddev)
    z += np.float32(255 * mean)
    v = img + z[..., None]  # float32, broadcast over the channels
    np.clip(v, 0, 255, out=v)
    np.rint(v, out=v)
    return v.astype(np.uint8)


def numpy_camera_noise_float(img, rng, mean=MEAN, stddev=STDDEV):
    noise = rng.normal(mean, stddev, img.shape[:2]).astype(img.dtype)
    return np.clip(img + noise[..., None], 0.0, 1.0)


def frame(size, dtype=np.uint8):
    rng = np.random.default_rng(0)
    h, w = SIZES[size]
    if dtype == np.uint8:
        return rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    return rng.random((h, w, 3), dtype=np.float32)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.benchmark(group="camera-rgb-u8")
def test_fastnoise_rgb_u8(benchmark, size):
    img = frame(size)
    noise = ImageNoise(MEAN, STDDEV, seed=1)
    out = benchmark(noise.apply, img)
    assert out.shape == img.shape and out.dtype == np.uint8


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.benchmark(group="camera-rgb-u8")
def test_numpy_rgb_u8(benchmark, size, rng):
    img = frame(size)
    out = benchmark(numpy_camera_noise, img, rng)
    assert out.shape == img.shape and out.dtype == np.uint8


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.benchmark(group="camera-rgb-u8-tuned-numpy")
def test_fastnoise_rgb_u8_tuned_numpy(benchmark, size):
    img = frame(size)
    benchmark(ImageNoise(MEAN, STDDEV, seed=1).apply, img)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.benchmark(group="camera-rgb-u8-tuned-numpy")
def test_numpy_rgb_u8_tuned_numpy(benchmark, size, rng):
    out = benchmark(numpy_camera_noise_tuned, frame(size), rng)
    assert out.dtype == np.uint8


@pytest.mark.benchmark(group="camera-rgb-u8-out")
def test_fastnoise_rgb_u8_out(benchmark):
    img = frame("1080p")
    buf = np.empty_like(img)
    benchmark(ImageNoise(MEAN, STDDEV, seed=1).apply, img, out=buf)


@pytest.mark.benchmark(group="camera-rgb-u8-out")
def test_numpy_rgb_u8_out(benchmark, rng):
    benchmark(numpy_camera_noise, frame("1080p"), rng)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.benchmark(group="camera-rgb-u8-2threads")
def test_fastnoise_rgb_u8_2threads(benchmark, size):
    img = frame(size)
    noise = ImageNoise(MEAN, STDDEV, seed=1)
    benchmark(noise.apply, img, threads=2)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.benchmark(group="camera-rgb-u8-2threads")
def test_numpy_rgb_u8_2threads(benchmark, size, rng):
    benchmark(numpy_camera_noise, frame(size), rng)


@pytest.mark.benchmark(group="camera-rgb-f32")
def test_fastnoise_rgb_f32(benchmark):
    img = frame("1080p", np.float32)
    benchmark(ImageNoise(MEAN, STDDEV, seed=1).apply, img)


@pytest.mark.benchmark(group="camera-rgb-f32")
def test_numpy_rgb_f32(benchmark, rng):
    benchmark(numpy_camera_noise_float, frame("1080p", np.float32), rng)


def srgb_to_linear(s):
    return np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(v):
    return np.where(v <= 0.0031308, 12.92 * v, 1.055 * v ** (1 / 2.4) - 0.055)


def numpy_ogre2(img, rng, mean=MEAN, stddev=STDDEV, linear_light=True):
    """Gazebo's Ogre 2 camera noise: the scaled sample shaped, sign(z)|z|^2.1, added in
    linear light (decode, add, clamp, encode) or to the stored values."""
    z = mean + stddev * rng.standard_normal(img.shape[:2], dtype=np.float32)
    n = (np.sign(z) * np.abs(z) ** np.float32(2.1))[..., None]
    s = img * np.float32(1 / 255)
    if linear_light:
        lut = srgb_to_linear(np.arange(256) / 255.0).astype(np.float32)  # decode: a table
        v = linear_to_srgb(np.clip(lut[img] + n, 0.0, 1.0))
    else:
        v = np.clip(s + n, 0.0, 1.0)
    return np.floor(v * 255 + 0.5).astype(np.uint8)


@pytest.mark.parametrize("linear_light", [True, False])
@pytest.mark.benchmark(group="camera-rgb-u8-ogre2")
def test_fastnoise_rgb_u8_ogre2(benchmark, linear_light):
    img = frame("1080p")
    noise = ImageNoise(MEAN, STDDEV, variant="ogre2", seed=1, linear_light=linear_light)
    out = benchmark(noise.apply, img)
    assert out.shape == img.shape and out.dtype == np.uint8


@pytest.mark.parametrize("linear_light", [True, False])
@pytest.mark.benchmark(group="camera-rgb-u8-ogre2")
def test_numpy_rgb_u8_ogre2(benchmark, rng, linear_light):
    out = benchmark(numpy_ogre2, frame("1080p"), rng, linear_light=linear_light)
    assert out.dtype == np.uint8


@pytest.mark.benchmark(group="camera-rgb-f32-ogre2")
def test_fastnoise_rgb_f32_ogre2(benchmark):
    img = frame("1080p", np.float32)
    benchmark(ImageNoise(MEAN, STDDEV, variant="ogre2", seed=1).apply, img)


@pytest.mark.benchmark(group="camera-rgb-f32-ogre2")
def test_numpy_rgb_f32_ogre2(benchmark, rng):
    img = frame("1080p", np.float32)

    def ogre2(img):
        z = MEAN + STDDEV * rng.standard_normal(img.shape[:2], dtype=np.float32)
        n = (np.sign(z) * np.abs(z) ** np.float32(2.1))[..., None]
        v = linear_to_srgb(np.clip(srgb_to_linear(img) + n, 0.0, 1.0))
        return np.clip(v, 0.0, 1.0).astype(np.float32)

    benchmark(ogre2, img)


# ---- Gazebo's RGB-D colour (variant="ogre2_rgbd", gaussian_noise_depth_fs.glsl) ------------


def numpy_rgbd_colour(img, rng, mean=0.1, stddev=0.2):
    """The shader as a user would write it: Box-Muller from uniforms floored at 0.001,
    z = mean + stddev Z shaped sign(z)|z|**2.1, on the stored value, int(c * 255)."""
    u = np.maximum(rng.random(img.shape[:2], dtype=np.float32), np.float32(0.001))
    v = rng.random(img.shape[:2], dtype=np.float32)
    z = np.sqrt(-2.0 * np.log(u)) * np.cos(np.float32(2.0 * np.pi) * v) * stddev + mean
    n = np.copysign(np.abs(z) ** np.float32(2.1), z)
    c = np.clip(img / np.float32(255) + n[..., None], 0, 1)
    return (c * np.float32(255)).astype(np.uint8)


@pytest.mark.benchmark(group="camera-rgbd-colour-u8")
def test_fastnoise_rgbd_colour_u8(benchmark):
    img = frame("1080p")
    m = ImageNoise(0.1, 0.2, variant="ogre2_rgbd", seed=1)
    out = benchmark(m.apply, img, frame=0)
    assert out.shape == img.shape and out.dtype == np.uint8


@pytest.mark.benchmark(group="camera-rgbd-colour-u8")
def test_numpy_rgbd_colour_u8(benchmark, rng):
    img = frame("1080p")
    out = benchmark(numpy_rgbd_colour, img, rng)
    assert out.shape == img.shape and out.dtype == np.uint8
