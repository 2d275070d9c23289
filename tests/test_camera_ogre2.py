"""ImageNoise: Gazebo's Ogre 2 camera noise (shaped scaled sample, linear light).

Peer: gz-rendering (gazebosim/gz-rendering, commit
dafbffa6f63593515965a50eb05927ba2f8d6362), ``ogre2/src/media/materials/programs/GLSL/
gaussian_noise_fs.glsl`` ``main``: ``z = gaussrand(uv).x`` is already ``Z * stddev +
mean``, then ``n = pow(abs(z), 2.1)`` with z's sign, added to R, G, B and clamped to
[0, 1]; the Ogre 2 camera renders to ``PFG_RGBA8_UNORM_SRGB`` textures
(``ogre2/src/Ogre2RenderTarget.cc``, ``Ogre2RenderTarget::BuildTargetImpl``), so the
shader reads and writes linear light. The expected values below come from numpy/scipy
and the IEC 61966-2-1 formulas, not from fastnoise.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special, stats

from fastnoise.core.generator import fill_normals
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.models.camera.image_noise import ImageNoise


def normals(seed, frame, count):
    key = model_key(as_seed_sequence(seed), "camera")
    out = np.empty(count, dtype=np.float32)
    fill_normals(key, frame, 0, out)
    return out.astype(np.float64)


def shaped(z):
    return np.sign(z) * np.abs(z) ** 2.1


def srgb_to_linear(s):
    s = np.asarray(s, dtype=np.float64)
    return np.where(s <= 0.04045, s / 12.92, ((s + 0.055) / 1.055) ** 2.4)


def linear_to_srgb(v):
    v = np.asarray(v, dtype=np.float64)
    return np.where(v <= 0.0031308, 12.92 * v, 1.055 * v ** (1 / 2.4) - 0.055)


# ---- item 1: the Ogre 2 shader shapes the scaled sample ----------------------------------


@pytest.mark.parametrize("dtype, rtol", [(np.float64, 1e-12), (np.float32, 3e-6)])
def test_ogre2_shapes_the_scaled_sample_mean_included(dtype, rtol):
    # stored values, mid-grey: |n| < 0.5 for |Z| < 7, so nothing clamps and y - 0.5 = n
    mean, sd = 0.002, 0.1
    z = mean + sd * normals(5, 2, 64 * 64)
    noise = ImageNoise(mean, sd, variant="ogre2", linear_light=False, seed=5)
    got = noise.apply(np.full((64, 64), 0.5, dtype), frame=2).ravel().astype(np.float64)
    # float64: own exp/log in float64 (~1e-15 relative) plus the rounding of 0.5 + n;
    # float32: own float32 exp/log and float32 arithmetic (~1e-6 relative)
    atol = 1e-15 if dtype == np.float64 else 1e-7
    np.testing.assert_allclose(got - 0.5, shaped(z), rtol=rtol, atol=atol)
    assert np.abs(shaped(z)).max() > 0.05  # the heavy tail is exercised


def test_ogre2_noise_sd_at_stddev_0_2_is_about_0_063():
    # E|sZ|^4.2 = s^4.2 2^2.1 Gamma(2.6) / sqrt(pi): sd = 0.0633 at s = 0.2, where
    # shaping the unit normal first (the old fastnoise) gave 0.2 * 1.187 = 0.237
    sd = 0.2
    expected = np.sqrt(sd**4.2 * 2**2.1 * special.gamma(2.6) / np.sqrt(np.pi))
    assert abs(expected - 0.0633) < 5e-5
    noise = ImageNoise(0.0, sd, variant="ogre2", linear_light=False, seed=31)
    n = noise.apply(np.full((512, 512), 0.5), frame=0).ravel() - 0.5
    # the sample sd of 262144 values of this heavy-tailed noise (kurtosis 13.4) has a
    # relative standard error of 0.34%; clamping (|n| > 0.5, 0.035% of the pixels)
    # lowers it by 0.5%: 3% is far outside both and far from 0.237
    assert abs(n.std() / expected - 1) < 0.03
    assert abs(n.mean()) < 5 * expected / np.sqrt(n.size)


@pytest.mark.parametrize("linear_light", [False, True])
@pytest.mark.parametrize("level", [127, 128])
def test_ogre2_at_gazebo_default_stddev_leaves_mid_grey_untouched(linear_light, level):
    # gz-sensors test/sdf/camera_sensor_builtin.sdf (gazebosim/gz-sensors, commit
    # 9ba02f24108e57666d326e22317443034eb860f8): mean 0, stddev 0.007. The shaped noise
    # stays below (7 * 0.007)**2.1 = 0.0018 for |Z| < 7 (the stream's bound): under half
    # a level of a uint8 image, stored or (slope ~1.08 at mid-grey) in linear light
    img = np.full((480, 640, 3), level, np.uint8)
    noise = ImageNoise(0.0, 0.007, variant="ogre2", linear_light=linear_light, seed=2)
    for frame in range(3):
        np.testing.assert_array_equal(noise.apply(img, frame=frame), img)
    # Ogre 1 (variant "gazebo") moves it by about 1.8 levels per sigma
    assert not np.array_equal(ImageNoise(0.0, 0.007, seed=2).apply(img, frame=0), img)


def test_ogre2_zero_sample_gives_zero_noise():
    # mean 0, stddev 0: z = 0 everywhere, n = 0 (no log of 0), every image unchanged
    for img in (
        np.arange(256, dtype=np.uint8).reshape(16, 16),
        np.linspace(0.0, 1.0, 101).reshape(1, 101),
    ):
        out = ImageNoise(0.0, 0.0, variant="ogre2", linear_light=False, seed=1).apply(img, 0)
        np.testing.assert_array_equal(out, img)


# ---- item 2: linear light -------------------------------------------------------------


def test_linear_light_follows_the_variant_by_default():
    assert ImageNoise(variant="ogre2").linear_light is True
    assert ImageNoise().linear_light is False
    assert ImageNoise(variant="ogre2", linear_light=False).linear_light is False
    assert ImageNoise(linear_light=True).linear_light is True
    noise = ImageNoise(variant="ogre2", linear_light=False, seed=3)
    assert noise.state["params"]["linear_light"] is False
    assert ImageNoise.from_state(noise.state).linear_light is False
    with pytest.raises(TypeError, match="linear_light"):
        ImageNoise(linear_light="yes")


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-15), (np.float32, 3e-7)])
def test_srgb_encoding_of_known_linear_values(dtype, tol):
    # black decodes to 0, so with stddev 0 the result is enc(mean); relative
    # tolerance: float64 a few ulp, float32 a few ulp of the own float32 exp/log
    black = np.zeros((1, 1), dtype)
    for lin, srgb in (
        (0.5, 0.7353569830524495),  # 1.055 * 0.5**(1/2.4) - 0.055
        (0.0031308, 0.040449936),  # the breakpoint, on the 12.92 segment
        (0.002, 0.02584),
        (0.2, 0.48452920448170694),
        (1.0, 1.0),
    ):
        got = ImageNoise(lin, 0.0, linear_light=True, seed=1).apply(black, 0)[0, 0]
        assert abs(float(got) - srgb) <= tol * max(srgb, 1e-3) + 1e-17, (lin, got)
    # white stays white exactly (no noise)
    white = np.ones((2, 3), dtype)
    np.testing.assert_array_equal(ImageNoise(0, 0, linear_light=True).apply(white, 0), white)


def test_srgb_decoding_of_known_values():
    # dec(0.7353569830524495) = 0.5: minus 0.4 gives 0.1, encoded 0.3491902126...
    img = np.full((1, 1), 0.7353569830524495)
    got = ImageNoise(-0.4, 0.0, linear_light=True, seed=1).apply(img, 0)[0, 0]
    assert abs(got - linear_to_srgb(0.1)) < 1e-14
    assert abs(linear_to_srgb(0.1) - 0.34919021262) < 1e-10
    # dec(0.04045) = 0.04045 / 12.92 (the 12.92 segment includes the breakpoint):
    # minus 0.0031308 leaves 4.95e-9, encoded times 12.92
    img = np.full((1, 1), 0.04045)
    got = ImageNoise(-0.0031308, 0.0, linear_light=True, seed=1).apply(img, 0)[0, 0]
    assert abs(got - 12.92 * (0.04045 / 12.92 - 0.0031308)) < 1e-15


@pytest.mark.parametrize("variant", ["gazebo", "ogre2"])
def test_every_integer_level_round_trips_without_noise(variant):
    u8 = np.arange(256, dtype=np.uint8).reshape(16, 16)
    u16 = np.arange(65536, dtype=np.uint16).reshape(256, 256)
    rgba = np.stack([u8, u8[::-1], u8.T, u8[:, ::-1]], axis=-1)
    for img in (u8, u16, rgba):
        noise = ImageNoise(0.0, 0.0, variant=variant, linear_light=True, seed=4)
        np.testing.assert_array_equal(noise.apply(img, 0), img)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_round_trip_without_noise(dtype):
    x = np.linspace(-0.0, 1.0, 200001).astype(dtype).reshape(1, -1)
    got = ImageNoise(0.0, 0.0, linear_light=True, seed=4).apply(x, 0)
    near = np.abs(x.astype(np.float64) - 0.04045) < 1e-3
    # float32: a few ulp of the own exp/log; float64: ~1e-16, except beside the
    # breakpoint where the standard's two segments differ by 4.5e-9 in linear light
    # (its constants are rounded), 5.8e-8 once encoded
    far_tol, near_tol = (3e-7, 3e-7) if dtype == np.float32 else (1e-15, 6e-8)
    err = np.abs(got.astype(np.float64) - x)
    assert err[~near].max() <= far_tol
    assert err[near].max() <= near_tol


def test_linear_light_float64_noise_is_added_to_the_decoded_value():
    # ogre2 + linear light on float64: dec(y) - dec(x) is the shaped noise (no clamp:
    # x in [0.3, 0.7], |n| < 0.19 for |Z| < 7)
    mean, sd = 0.001, 0.06
    rng = np.random.default_rng(6)
    x = rng.uniform(0.3, 0.7, (48, 64))
    z = mean + sd * normals(9, 3, 48 * 64)
    got = ImageNoise(mean, sd, variant="ogre2", seed=9).apply(x, frame=3)
    added = srgb_to_linear(got) - srgb_to_linear(x)
    np.testing.assert_allclose(added.ravel(), shaped(z), rtol=1e-9, atol=1e-14)


def test_linear_light_uint8_matches_the_formula_in_float64():
    # y = round(255 enc(clamp(dec(x / 255) + n, 0, 1))): float64 numpy against the
    # own float32 arithmetic, so a value within ~1e-5 of a half level may round the
    # other way: at most one level, on a tiny fraction of the pixels
    mean, sd = 0.0, 0.1
    rng = np.random.default_rng(7)
    img = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    z = (mean + sd * normals(12, 0, 120 * 160)).reshape(120, 160, 1)
    lin = np.clip(srgb_to_linear(img / 255.0) + shaped(z), 0.0, 1.0)
    expected = np.floor(255.0 * linear_to_srgb(lin) + 0.5)
    got = ImageNoise(mean, sd, variant="ogre2", seed=12).apply(img, frame=0)
    diff = np.abs(got.astype(np.int64) - expected)
    assert diff.max() <= 1
    assert np.count_nonzero(diff) <= 5  # of 57600 values
    assert np.count_nonzero(got != img) > 10000  # the noise is visible


@pytest.mark.parametrize("per_channel", [False, True])
def test_linear_light_statistics_gazebo_variant(per_channel):
    # linear light, unshaped noise: dec(y) - dec(x) ~ N(mean, sd) (float64, no clamp)
    mean, sd = 0.01, 0.03
    x = np.full((256, 256, 3), 0.6)
    noise = ImageNoise(mean, sd, per_channel=per_channel, linear_light=True, seed=21)
    added = srgb_to_linear(noise.apply(x, frame=0)) - srgb_to_linear(0.6)
    n = 256 * 256
    for c in range(3):
        v = added[..., c].ravel()
        # mean within 5 standard errors, sd within 5 standard errors (sd / sqrt(2n))
        assert abs(v.mean() - mean) < 5 * sd / np.sqrt(n)
        assert abs(v.std() - sd) < 5 * sd / np.sqrt(2 * n)
        assert stats.kstest((v - mean) / sd, "norm").pvalue > 1e-4
    assert np.array_equal(added[..., 0], added[..., 1]) != per_channel


def test_ogre2_one_value_for_r_g_b_like_the_shader():
    # the shader adds vec4(n, n, n, 0): equal R, G, B stay equal, alpha is kept, and
    # different channels of one pixel move in the same direction
    rng = np.random.default_rng(4)
    grey = np.repeat(rng.integers(0, 256, (40, 50, 1), dtype=np.uint8), 3, axis=2)
    out = ImageNoise(0.0, 0.3, variant="ogre2", seed=6).apply(grey, frame=1)
    assert np.array_equal(out[..., 0], out[..., 1]) and np.array_equal(out[..., 1], out[..., 2])
    assert np.count_nonzero(out != grey) > 1000
    rgb = np.stack([np.full((40, 50), v, np.uint8) for v in (60, 128, 200)], axis=-1)
    d = ImageNoise(0.0, 0.3, variant="ogre2", seed=6).apply(rgb, frame=1).astype(int) - rgb
    signs = np.sign(d)
    moved = np.all(signs != 0, axis=-1)
    assert moved.sum() > 100
    assert np.all(signs[moved] == signs[moved][:, :1])


def test_linear_light_keeps_alpha_and_nan():
    rng = np.random.default_rng(8)
    for dtype in (np.uint8, np.uint16, np.float32, np.float64):
        full = {np.uint8: 255, np.uint16: 65535}.get(dtype, 1)
        img = (rng.random((9, 11, 4)) * full).astype(dtype)
        out = ImageNoise(0.0, 0.2, variant="ogre2", seed=3).apply(img, 0)
        np.testing.assert_array_equal(out[..., 3], img[..., 3])
    img = np.full((4, 4), 0.5)
    img[1, 2] = np.nan
    out = ImageNoise(0.0, 0.2, linear_light=True, seed=3).apply(img, 0)
    assert np.isnan(out[1, 2]) and np.isfinite(np.delete(out.ravel(), 6)).all()


# ---- ported peer test -----------------------------------------------------------------


@pytest.mark.parametrize(
    "variant, linear_light, passes",
    [("gazebo", False, True), ("ogre2", True, True), ("ogre2", False, False)],
)
def test_gz_rendering_render_pass_gaussian_noise(variant, linear_light, passes):
    # gz-rendering test/integration/render_pass.cc, TEST_F(RenderPassTest, GaussianNoise)
    # (commit dafbffa6f63593515965a50eb05927ba2f8d6362): a 100 x 100 camera, noise mean
    # 0.1, stddev 0.01; the mean absolute difference over all channels, in whole levels
    # (integer division) / 255, must lie within 3 stddev of the mean, and the images
    # must differ. The scene is mostly the default (black) background: a black RGB
    # image here. Ogre 1 passes as is; Ogre 2 passes because its shaped noise
    # (0.1**2.1 = 0.008) is added in linear light, where it encodes to ~0.085;
    # shaped but added to the stored values it would give 2 levels, 0.008, and fail.
    mean, sd = 0.1, 0.01
    img = np.zeros((100, 100, 3), np.uint8)
    noise = ImageNoise(mean, sd, variant=variant, linear_light=linear_light, seed=77)
    out = noise.apply(img, frame=0)
    diff = np.abs(out.astype(np.int64) - img.astype(np.int64))
    diff_sum = int(diff.sum())
    diff_avg = diff_sum // diff.size
    assert diff_sum != 0
    assert (abs(diff_avg / 255.0 - mean) <= 3 * sd) == passes
