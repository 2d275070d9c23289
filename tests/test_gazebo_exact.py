"""Gazebo-exact camera noise, each test ported from the peer's source with its numbers:
gz-rendering's depth-noise shader (``ogre2/src/media/materials/programs/GLSL/
gaussian_noise_depth_fs.glsl``: uniforms ``clamp(r, 0.001, 1.0)``, colour noise
``sign(z) |z|**2.1`` on the unpacked sRGB-encoded colour, ``pack`` with ``int(c * 255)``)
and its test ``test/integration/render_pass.cc`` (``DepthGaussianNoise``)."""

import math

import numpy as np
import pytest
from _libm import libm_pow

from fastnoise import DepthNoise, GazeboNoise, ImageNoise
from fastnoise.io.sdf import load_sensors
from fastnoise.models.camera.depth import GAZEBO_UNIFORM_FLOOR, radius_cap

# gaussian_noise_depth_fs.glsl: rand() floors at 0.001, so sqrt(-2 ln U) <= this
CAP = math.sqrt(-2.0 * math.log(0.001))


def test_the_shader_floor_and_its_radius_bound():
    assert GAZEBO_UNIFORM_FLOOR == 0.001
    assert radius_cap(0.001) == CAP and abs(CAP - 3.7169221888) < 1e-9
    assert radius_cap(None) == 0.0


def test_depth_gaussian_noise_port():
    # render_pass.cc DepthGaussianNoise: unit box at x = 1.8 (depth 1.8 - 0.5 = 1.3 m),
    # near 0.15, far 10, GaussianNoisePass mean 0.1, stddev 0.01; the mid point is
    # within noiseTol = 4 stddev of 1.3 + 0.1 and the misses are +inf. With the
    # shader's floor every pixel is within 3.7169 stddev: asserted for all of them
    depth = np.full((240, 320), np.inf, np.float32)
    depth[:, 80:240] = 1.3
    m = DepthNoise(0.1, 0.01, near=0.15, far=10.0, uniform_floor=0.001, seed=7)
    for frame in range(4):
        out = m.apply(depth, frame=frame)
        box = out[:, 80:240]
        assert np.all(np.abs(box - np.float32(1.4)) <= 4 * 0.01)
        assert np.max(np.abs(box.astype(np.float64) - 1.4)) <= CAP * 0.01 + 1e-6
        assert np.all(out[:, :80] == np.inf) and np.all(out[:, 240:] == np.inf)


def test_depth_gaussian_noise_port_colour():
    # render_pass.cc DepthGaussianNoise, colour: the mid pixel is the blue box: red and
    # green within colorNoiseTol = int(255 * 4 * 0.01) = 10 of 0, blue > 0. Mean 0.1,
    # stddev 0.01: z in [0.1 - 0.037, 0.1 + 0.037], n = z**2.1 <= 0.0155, so red and
    # green are int(n * 255) <= 3
    img = np.zeros((240, 320, 4), np.uint8)
    img[..., 2] = 255
    img[..., 3] = 255
    out = ImageNoise(0.1, 0.01, variant="ogre2_rgbd", seed=7).apply(img, frame=0)
    tol = int(255.0 * 4 * 0.01)
    assert tol == 10
    assert out[..., :2].max() <= 3 and out[..., :2].max() <= tol
    assert np.all(out[..., 2] == 255) and np.all(out[..., 3] == 255)


def test_rgbd_colour_on_the_encoded_value_truncated():
    # the shader: c = clamp(unpack(p.a) + n, 0, 1) with unpack = level / 255.0 (the
    # stored, sRGB-encoded value: depth_camera_fs.glsl packs toSRGB(color)), then
    # pack's int(c * 255.0). stddev 0: z = mean
    img = np.array([[[0, 100, 128]]], np.uint8)
    out = ImageNoise(0.2, 0.0, variant="ogre2_rgbd", seed=1).apply(img, frame=0)
    n = 0.2**2.1  # 0.034155...: 8.71 levels
    expect = [
        int((np.float32(v) / np.float32(255) + np.float32(n)) * np.float32(255))
        for v in (0, 100, 128)
    ]
    assert expect == [8, 108, 136]  # truncation (rounding would give 9, 109, 137)
    np.testing.assert_array_equal(out[0, 0], expect)
    # a negative mean: n = -(0.2**2.1); 0 stays 0 (the clamp), 128 -> int(119.29) = 119
    out = ImageNoise(-0.2, 0.0, variant="ogre2_rgbd", seed=1).apply(img, frame=0)
    np.testing.assert_array_equal(out[0, 0], [0, 91, 119])
    # no noise: every level comes back (level / 255 * 255 truncates to itself in float32)
    levels = np.arange(256, dtype=np.uint8).reshape(16, 16)
    same = ImageNoise(0.0, 0.0, variant="ogre2_rgbd", seed=1).apply(levels, frame=0)
    np.testing.assert_array_equal(same, levels)
    deep = np.arange(65536, dtype=np.uint16).reshape(256, 256)  # and every uint16 level
    same = ImageNoise(0.0, 0.0, variant="ogre2_rgbd", seed=1).apply(deep, frame=0)
    np.testing.assert_array_equal(same, deep)


def test_rgbd_colour_and_depth_share_the_capped_normal():
    # gaussian_noise_depth_fs.glsl draws one z per pixel and adds it to xyz and (shaped)
    # to the colour: float64 images show the same capped z in both, bit for bit
    shape = (300, 400)
    depth = DepthNoise(0.0, 1.0, uniform_floor=0.001, seed=3).apply(np.zeros(shape), frame=2)
    colour = ImageNoise(0.0, 1.0, variant="ogre2_rgbd", seed=3).apply(np.full(shape, 0.5), frame=2)
    expect = np.clip(0.5 + np.copysign(libm_pow(np.abs(depth), 2.1), depth), 0.0, 1.0)
    np.testing.assert_array_equal(colour, expect)
    # tiles and row bands get the noise they have in the whole frame
    full = ImageNoise(0.0, 0.3, variant="ogre2_rgbd", seed=3).apply(np.full(shape, 0.5), frame=1)
    m = ImageNoise(0.0, 0.3, variant="ogre2_rgbd", seed=3)
    tile = m.apply(np.full((50, 60), 0.5), frame=1, row_offset=100, col_offset=30, full_width=400)
    np.testing.assert_array_equal(tile, full[100:150, 30:90])
    band = m.apply(np.full((50, 400), 0.5), frame=1, row_offset=100)
    np.testing.assert_array_equal(band, full[100:150])


def test_the_capped_distribution_is_the_shaders():
    # Box-Muller with U >= u: the radius^2 -2 ln U is Exp(1/2) capped at -2 ln u, so
    # P(capped) = u and Var Z = E[min(R^2, -2 ln u)] / 2 = 1 - u exactly. u = 0.1 makes
    # the cap visible: |Z| <= 2.1460, Var 0.9
    n = 1_000_000
    plain = DepthNoise(0.0, 1.0, seed=11).apply(np.zeros((1000, 1000)), frame=0).ravel()
    z = (
        DepthNoise(0.0, 1.0, uniform_floor=0.1, seed=11)
        .apply(np.zeros((1000, 1000)), frame=0)
        .ravel()
    )
    assert np.max(np.abs(z)) <= math.sqrt(-2 * math.log(0.1)) + 1e-6
    frac = np.mean(z != plain)
    assert abs(frac - 0.1) <= 5 * math.sqrt(0.1 * 0.9 / n)
    assert abs(np.var(z) - 0.9) <= 0.006  # about 5 standard errors of the variance
    assert abs(np.mean(z)) <= 5 / math.sqrt(n)
    # Gazebo's floor: Var 0.999, capped on 0.1 % of the pixels
    g = (
        DepthNoise(0.0, 1.0, uniform_floor=0.001, seed=11)
        .apply(np.zeros((1000, 1000)), frame=0)
        .ravel()
    )
    assert abs(np.mean(g != plain) - 0.001) <= 5 * math.sqrt(0.001 * 0.999 / n)
    assert np.max(np.abs(g)) <= CAP + 1e-6


def test_options_are_checked_by_name():
    with pytest.raises(ValueError, match="uniform_floor"):
        DepthNoise(0.0, 1.0, uniform_floor=0.0)
    with pytest.raises(ValueError, match="uniform_floor"):
        DepthNoise(0.0, 1.0, uniform_floor=1.0)
    with pytest.raises(ValueError, match="per_channel=True is not allowed"):
        ImageNoise(0.0, 0.1, variant="ogre2_rgbd", per_channel=True)
    with pytest.raises(ValueError, match="linear_light=True is not allowed"):
        ImageNoise(0.0, 0.1, variant="ogre2_rgbd", linear_light=True)
    assert not ImageNoise(0.0, 0.1, variant="ogre2_rgbd").linear_light
    # the default stays the plain Gaussian
    assert DepthNoise(0.0, 1.0).uniform_floor is None


def test_load_sensors_builds_the_gazebo_exact_cameras():
    noise = "<noise><type>gaussian</type><mean>0.1</mean><stddev>0.01</stddev></noise>"
    for kind in ("depth_camera", "depth"):
        sdf = (
            '<sdf version="1.9"><model name="m"><link name="l"><sensor name="c" '
            f'type="{kind}"><camera>{noise}</camera></sensor></link></model></sdf>'
        )
        assert load_sensors(sdf)["c"].model.uniform_floor == 0.001
    rgbd = load_sensors(sdf.replace(f'type="{kind}"', 'type="rgbd_camera"'), seed=4)["c"]
    assert rgbd.models["camera"].variant == "ogre2_rgbd"
    assert rgbd.models["depth"].uniform_floor == 0.001
    img = np.zeros((8, 8, 3), np.uint8)
    # the depth noise (1 m, inside the default clip 0.1 .. 100 m) is z = 0.1 + 0.01 Z;
    # the colour level int(255 z**2.1) (float32 in the shader: within one level here)
    z = rgbd.models["depth"].apply(np.ones((8, 8)), frame=0) - 1.0
    col = rgbd.models["camera"].apply(img, frame=0)
    assert np.all(np.abs(col[..., 0].astype(int) - (z**2.1 * 255).astype(int)) <= 1)
    assert np.all(col[..., 0] == col[..., 1]) and np.all(col[..., 1] == col[..., 2])
    ogre1 = load_sensors(sdf.replace(f'type="{kind}"', 'type="rgbd"'), camera_variant="gazebo")
    assert ogre1["c"].models["camera"].variant == "gazebo"


# ---- dynamic-bias correlation time <= 0 (gz-sensors src/GaussianNoiseModel.cc) ----------


def test_correlation_time_zero_or_negative_means_no_dynamic_bias():
    # GaussianNoiseModel::ApplyImpl moves the bias only if dynamicBiasStdDev > 0 &&
    # dynamicBiasCorrTime > 0 && _dt > 0; Load refuses neither 0 nor a negative tau
    # (sdformat noise.sdf: no min). Numbers of gz-sensors src/ImuSensor_TEST.cc: the
    # ADIS accelerometer, random walk 2 * 3.0e-3, correlation time 300 s, turn-on bias
    # sigma 20.0e-3 * 9.8, sampled at 1000 Hz
    walk, sigma, dt = 2.0 * 3.0e-3, 20.0e-3 * 9.8, 1.0 / 1000.0
    x = np.zeros(2000)
    moving = GazeboNoise(0.0, 0.0, 0.0, sigma, walk, 300.0, seed=6)
    out = moving.apply(x, dt=dt)
    assert np.unique(out).size > 1000  # tau 300 s: the bias moves every sample
    for tau in (0.0, -300.0):
        m = GazeboNoise(0.0, 0.0, 0.0, sigma, walk, tau, seed=6)
        assert m.dynamic_bias_correlation_time == tau
        out = m.apply(x, dt=dt)
        # the turn-on bias only: every sample the same, the draw of the same seed
        assert np.all(out == out[0])
        assert out[0] == GazeboNoise(0.0, 0.0, 0.0, sigma, seed=6).bias == m.bias
