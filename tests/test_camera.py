"""ImageNoise: Gazebo's per-pixel camera noise on the CPU.

Exact tests rebuild the documented formula in numpy from the canonical float32 stream
(stream ``frame`` under the camera's model key); statistical tests use fixed seeds and
state their tolerances.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

from fastnoise.core import simd
from fastnoise.core.generator import fill_normals
from fastnoise.core.seeding import as_seed_sequence, model_key
from fastnoise.models.camera.image_noise import ImageNoise

FULL = {np.uint8: 255, np.uint16: 65535}
DTYPES = [np.uint8, np.uint16, np.float32, np.float64]
LAYOUTS = [None, 1, 3, 4]  # None: H x W


def random_image(rng, shape, dtype):
    if dtype in FULL:
        return rng.integers(0, FULL[dtype] + 1, shape).astype(dtype)
    return rng.random(shape).astype(dtype)


def shape_of(h, w, c):
    return (h, w) if c is None else (h, w, c)


def normals(seed, frame, count, row_offset=0, per_pixel=1, width=0):
    """The canonical float32 normals a frame uses, from the public generator."""
    key = model_key(as_seed_sequence(seed), "camera")
    out = np.empty(count, dtype=np.float32)
    fill_normals(key, frame, row_offset * width * per_pixel, out)
    return out


def reference(image, seed, frame, mean, stddev, per_channel, row_offset=0):
    """The documented arithmetic (camera.h / ImageNoise notes), in numpy."""
    h, w = image.shape[:2]
    img = image.reshape(h, w, -1)
    c = img.shape[2]
    nc = min(c, 3)
    per = nc if per_channel else 1
    z = normals(seed, frame, h * w * per, row_offset, per, w).reshape(h, w, per)
    out = img.copy()
    if image.dtype.type in FULL:
        s = np.float32(FULL[image.dtype.type])
        d = s * np.float32(mean) + (s * np.float32(stddev)) * z
        k = np.floor(d + np.float32(0.5)).astype(np.int64)
        out[..., :nc] = np.clip(img[..., :nc].astype(np.int64) + k, 0, int(s))
    else:
        f = image.dtype.type
        n = f(mean) + f(stddev) * z.astype(image.dtype)
        out[..., :nc] = np.clip(img[..., :nc] + n, 0, 1)
    return out.reshape(image.shape)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("channels", LAYOUTS)
@pytest.mark.parametrize("per_channel", [False, True])
def test_matches_documented_formula_exactly(dtype, channels, per_channel):
    rng = np.random.default_rng(3)
    img = random_image(rng, shape_of(19, 37, channels), dtype)
    noise = ImageNoise(mean=0.02, stddev=0.05, per_channel=per_channel, seed=11)
    got = noise.apply(img, frame=4)
    np.testing.assert_array_equal(got, reference(img, 11, 4, 0.02, 0.05, per_channel))


def test_ogre2_zero_stays_zero_and_sign_kept():
    # mean 0: the shaped noise has the sign of Z (stored values, float64 mid-grey)
    z = normals(8, 0, 4096).astype(np.float64)
    noise = ImageNoise(stddev=0.01, variant="ogre2", linear_light=False, seed=8)
    got = noise.apply(np.full((64, 64), 0.5), 0)
    assert np.array_equal(np.sign(got.ravel() - 0.5), np.sign(z))


@pytest.mark.parametrize("per_channel", [False, True])
def test_mid_grey_statistics_float(per_channel):
    mean, sd = 0.01, 0.05
    img = np.full((256, 256, 3), 0.5, np.float64)
    noise = ImageNoise(mean=mean, stddev=sd, per_channel=per_channel, seed=21)
    added = noise.apply(img, frame=0) - 0.5  # 10 sigma from the clamp: none clamped
    n = 256 * 256
    for c in range(3):
        x = added[..., c].ravel()
        # mean within 5 standard errors; std within 5 standard errors (sd / sqrt(2n))
        assert abs(x.mean() - mean) < 5 * sd / np.sqrt(n)
        assert abs(x.std() - sd) < 5 * sd / np.sqrt(2 * n)
    if not per_channel:  # one value per pixel, shared by the colour channels
        assert np.array_equal(added[..., 0], added[..., 1])
        assert np.array_equal(added[..., 0], added[..., 2])
    # Gaussian shape: KS against N(mean, sd), fixed seed, reject only below 1e-3
    assert stats.kstest(added[..., 0].ravel(), stats.norm(loc=mean, scale=sd).cdf).pvalue > 1e-3


def test_mid_grey_statistics_uint8():
    mean, sd = 0.004, 0.02  # 1.02 and 5.1 levels
    img = np.full((256, 256, 3), 128, np.uint8)
    added = ImageNoise(mean=mean, stddev=sd, seed=22).apply(img, 0).astype(float) - 128
    n = 256 * 256
    x = added[..., 1].ravel()
    s = 255 * sd
    # rounding to levels keeps the mean (floor(d + 0.5) is unbiased for smooth d) and
    # adds the variance of a uniform rounding error, 1/12
    assert abs(x.mean() - 255 * mean) < 5 * s / np.sqrt(n)
    assert abs(x.std() - np.sqrt(s**2 + 1 / 12)) < 5 * s / np.sqrt(2 * n)
    assert np.array_equal(added[..., 0], added[..., 2])


def test_per_channel_noise_is_uncorrelated():
    img = np.full((256, 256, 3), 0.5, np.float64)
    added = ImageNoise(stddev=0.05, per_channel=True, seed=23).apply(img, 0) - 0.5
    flat = added.reshape(-1, 3)
    bound = 5 / np.sqrt(flat.shape[0])  # 5 sigma of a sample correlation
    r = np.corrcoef(flat.T)
    assert abs(r[0, 1]) < bound and abs(r[0, 2]) < bound and abs(r[1, 2]) < bound


def test_nearby_pixels_are_uncorrelated():
    # both outputs of each Box-Muller pair feed pixels a few indices apart: every lag
    # up to 32 (which covers the pairing) must look uncorrelated
    img = np.full((256, 256), 0.5)
    x = (ImageNoise(stddev=0.05, seed=24).apply(img, 0) - 0.5).ravel()
    bound = 5 / np.sqrt(x.size)  # 5 sigma of a sample correlation
    for lag in range(1, 33):
        assert abs(np.corrcoef(x[:-lag], x[lag:])[0, 1]) < bound, lag


@pytest.mark.parametrize("dtype", DTYPES)
def test_clamping_at_black_and_white(dtype):
    full = FULL.get(dtype, 1.0)
    sd = 0.2
    noise = ImageNoise(stddev=sd, seed=25)
    black = noise.apply(np.zeros((64, 64, 3), dtype), frame=1)[..., 0]
    white = noise.apply(np.full((64, 64, 3), full, dtype), frame=1)[..., 0]
    z = normals(25, 1, 64 * 64).reshape(64, 64)
    # a level is 1/full: noise under half a level rounds to none for integer images
    step = 0.5 / (full * sd) if dtype in FULL else 0.0
    assert black.min() == 0 and black.max() <= full
    assert np.all(black[z < step] == 0) and np.all(black[z > step + 1e-3] > 0)
    assert white.min() >= 0 and white.max() == full
    assert np.all(white[z > -step] == full) and np.all(white[z < -step - 1e-3] < full)
    # about half the noise is negative (5 sigma of a binomial fraction, n = 4096)
    assert abs(np.mean(black == 0) - 0.5) < 5 * 0.5 / 64 + step * 0.4


@pytest.mark.parametrize("dtype", DTYPES)
def test_no_noise_returns_the_image(dtype):
    img = random_image(np.random.default_rng(4), (9, 11, 3), dtype)
    assert np.array_equal(ImageNoise(mean=0.0, stddev=0.0, seed=1).apply(img), img)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_integer_rounding_is_half_up(dtype):
    s = FULL[dtype]
    img = np.full((4, 4), 1000 % s, dtype)
    # a mean that is exactly half a level (or 1.5, -0.5, -1.5) in float32 levels
    for levels, expected in ((0.5, 1), (1.5, 2), (-0.5, 0), (-1.5, -1)):
        m = np.float32(levels / s)
        assert np.float32(s) * m == np.float32(levels)  # exact in float32
        got = ImageNoise(mean=float(m), stddev=0.0, seed=1).apply(img, 0)
        assert np.all(got.astype(int) == int(img[0, 0]) + expected), (levels, got[0, 0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_alpha_untouched(dtype):
    rng = np.random.default_rng(5)
    img = random_image(rng, (32, 48, 4), dtype)
    if dtype in (np.float32, np.float64):
        img[0, :4, 3] = [np.nan, -0.0, 7.5, -3.0]  # alpha outside [0, 1] is kept too
    for per_channel in (False, True):
        got = ImageNoise(stddev=0.1, per_channel=per_channel, seed=6).apply(img, 3)
        assert got[..., 3].tobytes() == img[..., 3].tobytes()
        # the colour channels get exactly the noise an RGB image gets
        rgb = ImageNoise(stddev=0.1, per_channel=per_channel, seed=6).apply(
            np.ascontiguousarray(img[..., :3]), 3
        )
        assert np.array_equal(got[..., :3], rgb)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("channels", LAYOUTS)
def test_dtype_and_shape_kept_input_unchanged(dtype, channels):
    img = random_image(np.random.default_rng(6), shape_of(5, 7, channels), dtype)
    before = img.copy()
    got = ImageNoise(seed=2).apply(img)
    assert got.dtype == img.dtype and got.shape == img.shape and got.flags.c_contiguous
    assert np.array_equal(img, before)


def test_nan_pixels_stay_nan():
    img = np.full((4, 4), 0.5, np.float32)
    img[1, 2] = np.nan
    got = ImageNoise(stddev=0.1, seed=3).apply(img, 0)
    assert np.isnan(got[1, 2]) and np.isnan(got).sum() == 1


def test_frames_differ_and_repeat():
    img = np.full((32, 32, 3), 0.5, np.float32)
    noise = ImageNoise(stddev=0.05, seed=7)
    assert noise.frame == 0
    f0 = noise.apply(img)
    f1 = noise.apply(img)
    assert noise.frame == 2
    assert not np.array_equal(f0, f1)
    again = noise.apply(img, frame=0)  # random access leaves the counter alone
    assert np.array_equal(again, f0) and noise.frame == 2
    noise.reset()
    assert np.array_equal(noise.apply(img), f0)
    noise.frame = 1
    assert np.array_equal(noise.apply(img), f1)
    # frame k of a video is the same however the video is processed
    other = ImageNoise(stddev=0.05, seed=7)
    assert np.array_equal(other.apply(img, frame=1), f1)


def test_shared_counter_gives_each_thread_its_own_frames():
    from concurrent.futures import ThreadPoolExecutor

    img = np.full((64, 64, 3), 0.5, np.float32)
    noise = ImageNoise(stddev=0.05, seed=19)
    with ThreadPoolExecutor(4) as pool:
        outs = list(pool.map(lambda _: noise.apply(img).tobytes(), range(24)))
    expected = {noise.apply(img, frame=k).tobytes() for k in range(24)}
    assert set(outs) == expected and noise.frame == 24


def test_seed_reproducibility():
    img = np.full((16, 16), 0.5)
    a = ImageNoise(stddev=0.05, seed=9).apply(img, 0)
    assert np.array_equal(a, ImageNoise(stddev=0.05, seed=9).apply(img, 0))
    ss = np.random.SeedSequence(9)
    assert np.array_equal(a, ImageNoise(stddev=0.05, seed=ss).apply(img, 0))
    assert not np.array_equal(a, ImageNoise(stddev=0.05, seed=10).apply(img, 0))
    fresh = ImageNoise(stddev=0.05)
    b = fresh.apply(img, 0)
    again = ImageNoise(stddev=0.05, seed=fresh.seed.entropy).apply(img, 0)
    assert np.array_equal(b, again)


@pytest.mark.parametrize("dtype", [np.uint8, np.float64])
@pytest.mark.parametrize("per_channel", [False, True])
def test_row_bands_equal_the_whole(dtype, per_channel):
    img = random_image(np.random.default_rng(8), (61, 45, 3), dtype)
    noise = ImageNoise(stddev=0.05, per_channel=per_channel, variant="ogre2", seed=12)
    whole = noise.apply(img, frame=6)
    bands = [noise.apply(img[a:b], frame=6, row_offset=a) for a, b in ((0, 7), (7, 40), (40, 61))]
    assert np.array_equal(np.concatenate(bands), whole)
    assert np.array_equal(noise.apply(img[20:30], frame=6, row_offset=20), whole[20:30])


def test_threads_do_not_change_the_result():
    img = random_image(np.random.default_rng(9), (512, 300, 3), np.uint8)
    noise = ImageNoise(stddev=0.05, seed=13)
    one = noise.apply(img, frame=1)
    for threads in (2, 3, 7):
        assert np.array_equal(noise.apply(img, frame=1, threads=threads), one)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_non_contiguous_input_and_output(dtype):
    rng = np.random.default_rng(10)
    big = random_image(rng, (40, 60, 4), dtype)
    noise = ImageNoise(stddev=0.05, per_channel=True, seed=14)
    views = [big[::2, 1::3, :3], big[:, ::-1, 2::-1], big.transpose(1, 0, 2), big[5:25, :, 1]]
    for view in views:
        expected = noise.apply(np.ascontiguousarray(view), frame=2)
        assert np.array_equal(noise.apply(view, frame=2), expected)
        if view.ndim == 3:  # every other channel of a wider array
            out = np.zeros(view.shape[:2] + (2 * view.shape[2],), dtype)[..., ::2]
        else:  # Fortran order
            out = np.zeros(view.shape[::-1], dtype).T
        assert noise.apply(view, frame=2, out=out) is out
        assert np.array_equal(out, expected)


@pytest.mark.parametrize("shape", [(50, 1, 3), (3, 2), (1, 700, 4), (2, 1000)])
def test_narrow_and_reversed_images_match_the_formula(shape):
    img = random_image(np.random.default_rng(12), shape, np.uint16)
    noise = ImageNoise(mean=-0.01, stddev=0.03, per_channel=True, seed=18)
    expected = reference(img, 18, 7, -0.01, 0.03, True)
    np.testing.assert_array_equal(noise.apply(img, frame=7), expected)
    flipped = np.ascontiguousarray(img[::-1, ::-1])[::-1, ::-1]  # negative strides
    np.testing.assert_array_equal(noise.apply(flipped, frame=7), expected)


def test_out_in_place_and_overlapping():
    rng = np.random.default_rng(11)
    img = random_image(rng, (20, 30, 3), np.uint8)
    noise = ImageNoise(stddev=0.05, seed=15)
    expected = noise.apply(img, frame=0)
    inplace = img.copy()
    assert noise.apply(inplace, frame=0, out=inplace) is inplace
    assert np.array_equal(inplace, expected)
    # an out that overlaps the input shifted by one row is refused (it would read
    # pixels the call already wrote), and nothing is written
    buf = np.zeros((21, 30, 3), np.uint8)
    buf[:20] = img
    before = buf.copy()
    with pytest.raises(ValueError, match="out overlaps image"):
        noise.apply(buf[:20], frame=0, out=buf[1:])
    assert np.array_equal(buf, before)
    # the very same view, reversed (negative strides), is in place: allowed
    rev = img.copy()[::-1, ::-1]
    want = noise.apply(np.ascontiguousarray(rev), frame=0)
    assert np.array_equal(noise.apply(rev, frame=0, out=rev), want)


def test_empty_image():
    noise = ImageNoise(seed=1)
    assert noise.apply(np.zeros((0, 5, 3), np.uint8)).shape == (0, 5, 3)
    assert noise.apply(np.zeros((4, 0), np.float32)).shape == (4, 0)
    assert noise.frame == 2


def test_read_only_input_and_large_frame_index():
    img = np.full((8, 8, 3), 100, np.uint8)
    img.flags.writeable = False
    noise = ImageNoise(stddev=0.05, seed=17)
    last = noise.apply(img, frame=2**64 - 1)
    np.testing.assert_array_equal(last, reference(img, 17, 2**64 - 1, 0.0, 0.05, False))


def test_copy_and_pickle_continue_identically():
    img = np.full((8, 8, 3), 0.5, np.float32)
    noise = ImageNoise(mean=0.01, stddev=0.05, per_channel=True, variant="ogre2", seed=16)
    noise.apply(img)
    for twin in (
        noise.copy(),
        copy.copy(noise),
        copy.deepcopy(noise),
        pickle.loads(pickle.dumps(noise)),
        ImageNoise.from_state(noise.state),
    ):
        assert twin is not noise and twin.state == noise.state
        assert twin.frame == 1 and twin.key == noise.key
        assert (twin.mean, twin.stddev, twin.per_channel, twin.variant) == (
            0.01,
            0.05,
            True,
            "ogre2",
        )
        assert np.array_equal(twin.apply(img), noise.copy().apply(img))
    assert "ImageNoise(" in repr(noise)


def test_state_is_the_parameters_and_the_frame_counter():
    noise = ImageNoise(mean=0.01, stddev=0.05, per_channel=True, variant="ogre2", seed=16)
    img = np.full((4, 5), 0.5)
    first = noise.apply(img)
    s = noise.state
    assert s["model"] == "camera"
    assert s["params"] == {
        "mean": 0.01,
        "stddev": 0.05,
        "per_channel": True,
        "variant": "ogre2",
        "linear_light": True,
    }
    assert s["position"] == {"frame": 1}
    s["position"]["frame"] = 0
    noise.state = s
    assert noise.frame == 0
    np.testing.assert_array_equal(noise.apply(img), first)


@pytest.mark.parametrize(
    ("part", "field", "value", "exc"),
    [
        ("position", "frame", -1, ValueError),
        ("position", "frame", True, TypeError),
        ("params", "per_channel", 1, TypeError),
        ("params", "variant", ["gazebo"], ValueError),
        ("params", "stddev", -0.1, ValueError),
    ],
)
def test_tampered_states_are_refused_by_name(part, field, value, exc):
    noise = ImageNoise(stddev=0.05, seed=1)
    before = noise.state
    bad = copy.deepcopy(before)
    bad[part][field] = value
    with pytest.raises(exc, match=field):
        noise.state = bad
    assert noise.state == before


def test_failed_reinit_changes_nothing():
    noise = ImageNoise(mean=0.01, stddev=0.05, seed=2)
    noise.apply(np.zeros((2, 2)))
    before = noise.state
    with pytest.raises(ValueError, match="variant"):
        noise.__init__(mean=0.5, stddev=0.5, per_channel=True, variant="bogus", seed=3)
    assert noise.state == before


def test_an_object_made_with_new_is_safe():
    noise = ImageNoise.__new__(ImageNoise)
    with pytest.raises(RuntimeError, match="initialised"):
        noise.apply(np.zeros((2, 2, 3), np.uint8))
    noise.reset()
    assert noise.frame == 0


def test_a_job_made_from_python_never_touches_memory():
    from fastnoise.models.camera.image_noise import _Job

    job = _Job()
    job.rows(0, 0)  # no rows: nothing happens
    for row0, count in ((0, 1), (5, 0), (2**63, 2**63)):
        with pytest.raises(ValueError, match="rows"):
            job.rows(row0, count)
    with pytest.raises(OverflowError):
        job.rows(-1, 1)


_SIMD_SCRIPT = """
import hashlib, numpy as np
from fastnoise.models.camera.image_noise import ImageNoise
rng = np.random.default_rng(0)
h = hashlib.sha256()
cases = [
    (np.uint8, (37, 531, 3), False, "gazebo"),
    (np.uint16, (20, 77, 4), True, "ogre2"),
    (np.float32, (33, 65), False, "ogre2"),
    (np.float64, (21, 300, 4), True, "gazebo"),
    (np.uint8, (37, 531, 4), False, "ogre2"),
    (np.float32, (13, 700, 3), True, "ogre2"),
    (np.float64, (9, 333, 3), False, "ogre2"),
]
for dtype, shape, pc, var in cases:
    img = (rng.random(shape) * (255 if dtype == np.uint8 else 65535 if dtype == np.uint16
                                else 1)).astype(dtype)
    for lin in (False, True):  # noise on the stored values, or in linear light
        noise = ImageNoise(mean=0.01, stddev=0.08, per_channel=pc, variant=var,
                           linear_light=lin, seed=99)
        h.update(noise.apply(img, frame=3).tobytes())
        h.update(noise.apply(img[:, ::2], frame=4).tobytes())
print(h.hexdigest())
"""


def test_simd_paths_give_identical_bits():
    # each extension module keeps its own dispatch level, so force it per process
    digests = {}
    for path in simd.simd_paths_available():
        env = dict(os.environ, FASTNOISE_SIMD=path)
        res = subprocess.run(
            [sys.executable, "-c", _SIMD_SCRIPT], env=env, capture_output=True, text=True
        )
        assert res.returncode == 0, res.stderr
        digests[path] = res.stdout.strip()
    assert len(set(digests.values())) == 1, digests


@pytest.mark.parametrize(
    "kwargs, exc, word",
    [
        ({"stddev": -0.1}, ValueError, "stddev"),
        ({"stddev": float("nan")}, ValueError, "stddev"),
        ({"stddev": float("inf")}, ValueError, "stddev"),
        ({"mean": float("nan")}, ValueError, "mean"),
        ({"mean": "0.1"}, TypeError, "mean"),
        ({"variant": "ogre"}, ValueError, "variant"),
        ({"per_channel": 1}, TypeError, "per_channel"),
        ({"seed": -1}, ValueError, "seed"),
    ],
)
def test_bad_parameters(kwargs, exc, word):
    with pytest.raises(exc, match=word):
        ImageNoise(**kwargs)


@pytest.mark.parametrize(
    "image, exc, word",
    [
        (np.zeros((4, 4), np.int32), TypeError, "dtype"),
        (np.zeros((4, 4), np.float16), TypeError, "dtype"),
        (np.zeros((4, 4), bool), TypeError, "dtype"),
        (np.zeros((4, 4), np.complex64), TypeError, "dtype"),
        (np.zeros((4, 4), object), TypeError, "dtype"),
        (np.zeros((4, 4), "datetime64[s]"), TypeError, "dtype"),
        (np.zeros((4, 4, 2), np.uint8), ValueError, "shape"),
        (np.zeros(4, np.uint8), ValueError, "shape"),
        (np.zeros((2, 4, 4, 3), np.uint8), ValueError, "shape"),
        ([[0.5, 0.5]], TypeError, "ndarray"),
    ],
)
def test_bad_images(image, exc, word):
    with pytest.raises(exc, match=word):
        ImageNoise(seed=1).apply(image)


def test_bad_apply_arguments():
    img = np.zeros((4, 5, 3), np.uint8)
    noise = ImageNoise(seed=1)
    cases = [
        ({"out": np.zeros((4, 5, 3), np.float32)}, TypeError, "out"),
        ({"out": np.zeros((4, 5, 4), np.uint8)}, ValueError, "out"),
        ({"out": [0]}, TypeError, "out"),
        ({"frame": -1}, ValueError, "frame"),
        ({"frame": 2**64}, ValueError, "frame"),
        ({"frame": 1.0}, TypeError, "frame"),
        ({"threads": 0}, ValueError, "threads"),
        ({"row_offset": -2}, ValueError, "row_offset"),
        ({"row_offset": 1.5}, TypeError, "row_offset"),
    ]
    for kwargs, exc, word in cases:
        with pytest.raises(exc, match=word):
            noise.apply(img, **kwargs)
    ro = np.zeros((4, 5, 3), np.uint8)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        noise.apply(img, out=ro)
    with pytest.raises(TypeError, match="frame"):
        noise.frame = -1.0
    assert noise.frame == 0  # failed calls do not advance the counter


def test_a_filled_job_refuses_rows_outside_its_image(monkeypatch):
    from fastnoise.core import threads

    captured = []
    real = threads.run_split

    def spy(fn, n, parts, **kw):
        captured.append((fn, n))
        return real(fn, n, parts, **kw)

    monkeypatch.setattr(threads, "run_split", spy)
    ImageNoise(stddev=0.1, seed=1).apply(np.zeros((3, 4), np.uint8))
    rows, height = captured[0]
    assert height == 3
    rows(0, 3)  # the whole image again: allowed
    with pytest.raises(ValueError, match="rows"):
        rows(0, 4)
    with pytest.raises(ValueError, match="rows"):
        rows(3, 1)


# ---- hardening: counter and index limits, parameter bounds, intake, threads -------------


def test_the_frame_counter_stops_at_its_end_and_never_wraps():
    img = np.full((4, 5, 3), 100, np.uint8)
    noise = ImageNoise(stddev=0.05, seed=21)
    noise.frame = 2**64 - 2
    last = noise.apply(img)  # frame 2**64 - 2, the counter moves to 2**64 - 1
    np.testing.assert_array_equal(last, reference(img, 21, 2**64 - 2, 0.0, 0.05, False))
    assert noise.frame == 2**64 - 1
    with pytest.raises(OverflowError, match="frame"):
        noise.apply(img)  # would hand out frame 2**64 - 1 and wrap to frame 0
    assert noise.frame == 2**64 - 1  # a refused call changes nothing
    # explicit frames reach the very last one; reset() starts again
    np.testing.assert_array_equal(
        noise.apply(img, frame=2**64 - 1), reference(img, 21, 2**64 - 1, 0.0, 0.05, False)
    )
    noise.reset()
    assert noise.frame == 0
    with pytest.raises(ValueError, match="frame"):
        noise.frame = 2**64


@pytest.mark.parametrize(
    ("channels", "per_channel", "per"), [(3, False, 1), (3, True, 3), (4, True, 3)]
)
def test_row_offset_keeps_every_normal_index_below_2_64(channels, per_channel, per):
    h, w = 3, 5
    img = np.full((h, w, channels), 0.5, np.float32)
    noise = ImageNoise(stddev=0.05, per_channel=per_channel, seed=22)
    top = (2**64 - 1) // (w * per) - h  # (row_offset + H) * W * per <= 2**64 - 1
    got = noise.apply(img, frame=1, row_offset=top)
    np.testing.assert_array_equal(got, reference(img, 22, 1, 0.0, 0.05, per_channel, top))
    with pytest.raises(ValueError, match="row_offset") as info:
        noise.apply(img, frame=1, row_offset=top + 1)
    assert str(top) in str(info.value)
    with pytest.raises(ValueError, match="row_offset"):
        noise.apply(img, frame=1, row_offset=2**64 - 1)
    assert noise.apply(np.zeros((3, 0), np.uint8), row_offset=2**64 - 1).shape == (3, 0)


def test_parameters_whose_noise_would_overflow_are_refused():
    # the example: mean=1e39 is inf in float32 and gave NaN float32 pixels
    for kw, word in (
        ({"mean": 1e39, "stddev": 1e39}, "mean"),
        ({"mean": -1.1e30}, "mean"),
        ({"stddev": 1.1e30}, "stddev"),
        ({"mean": 1e308}, "mean"),
    ):
        with pytest.raises(ValueError, match=word) as info:
            ImageNoise(**kw)
        assert "1e30]" in str(info.value)  # the spec's bound, as the error states it
    # the extremes allowed: every pixel finite and clamped, every dtype and variant
    rng = np.random.default_rng(23)
    for mean, sd in ((1e30, 1e30), (-1e30, 1e30), (0.0, 1e30), (1e30, 0.0)):
        for variant in ("gazebo", "ogre2"):
            for per_channel in (False, True):
                noise = ImageNoise(mean, sd, per_channel=per_channel, variant=variant, seed=3)
                for dt in DTYPES:
                    img = random_image(rng, (9, 7, 4), dt)
                    out = noise.apply(img, frame=0)
                    full = FULL.get(dt, 1)
                    if dt in FULL:
                        assert out.min() >= 0 and out.max() <= full
                    else:
                        assert np.all(np.isfinite(out)), (mean, sd, variant, dt)
                        assert out.min() >= 0 and out.max() <= 1
                    np.testing.assert_array_equal(out[..., 3], img[..., 3])


def _unaligned(a):
    buf = np.zeros(a.nbytes + 1, np.uint8)
    v = buf[1:].view(a.dtype).reshape(a.shape)
    v[...] = a
    return v


@pytest.mark.parametrize("dtype", [np.uint16, np.float32, np.float64])
def test_big_endian_and_unaligned_images_are_read_as_values(dtype):
    rng = np.random.default_rng(24)
    img = random_image(rng, (11, 13, 3), dtype)
    noise = ImageNoise(stddev=0.03, seed=24)
    want = noise.apply(img, frame=5)
    be = img.astype(img.dtype.newbyteorder(">"))
    ua = _unaligned(img)
    assert not ua.flags.aligned
    for view in (be, ua, be[::-1][::-1], ua[:, ::-1][:, ::-1]):
        got = noise.apply(view, frame=5)
        assert got.dtype == np.dtype(dtype) and got.dtype.isnative
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(be, img)  # the inputs are never modified
    # outputs must be native and aligned: refused, never written as raw bytes
    with pytest.raises(TypeError, match="out"):
        noise.apply(img, frame=5, out=np.empty_like(be))
    with pytest.raises(ValueError, match="aligned"):
        noise.apply(img, frame=5, out=_unaligned(np.empty_like(img)))


def test_outs_that_overlap_themselves_are_refused():
    img = np.zeros((4, 6, 3), np.uint8)
    noise = ImageNoise(stddev=0.1, seed=25)
    flat = np.zeros(6 * 3, np.uint8)
    for bad in (
        np.lib.stride_tricks.as_strided(flat, (4, 6, 3), (0, 3, 1), writeable=True),
        np.lib.stride_tricks.as_strided(flat, (4, 6, 3), (3, 3, 1), writeable=True),
    ):
        with pytest.raises(ValueError, match="out"):
            noise.apply(img, frame=0, out=bad)
    assert not flat.any()
    # any honest layout is fine: transposed, reversed, every other column
    big = np.zeros((6, 8, 3), np.uint8)
    for out in (big[:4, :6], big.transpose(1, 0, 2)[:4, :6], big[::-1, ::-1][:4, :6]):
        np.testing.assert_array_equal(noise.apply(img, frame=0, out=out), noise.apply(img, frame=0))


def test_one_image_noise_shared_by_four_threads_hands_out_each_frame_once():
    # apply() without frame= reserves its frame under the object's lock, then adds the
    # noise with the GIL released: concurrent calls get distinct frames, all of them
    import collections
    import threading

    img = np.full((120, 160, 3), 0.5, np.float32)  # large enough to release the GIL
    noise = ImageNoise(stddev=0.05, seed=26)
    calls, nthreads = 64, 4
    outs = []
    barrier = threading.Barrier(nthreads)

    def worker():
        barrier.wait()
        mine = [noise.apply(img, threads=2).tobytes() for _ in range(calls // nthreads)]
        outs.extend(mine)

    ts = [threading.Thread(target=worker) for _ in range(nthreads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert noise.frame == calls
    solo = ImageNoise(stddev=0.05, seed=26)
    expected = collections.Counter(solo.apply(img).tobytes() for _ in range(calls))
    assert collections.Counter(outs) == expected  # each frame exactly once
