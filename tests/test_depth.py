"""DepthNoise: Gazebo's depth-camera noise in metres (the model contract runs over it in
test_contract.py; keying shared with ImageNoise in test_files.py, SDF import in
test_sdf_sensors.py)."""

from __future__ import annotations

import pickle
import threading

import numpy as np
import pytest

import fastnoise as fn
from fastnoise.core.generator import fill_normals
from fastnoise.core.seeding import as_seed_sequence, model_key

TOL = 1e-6  # gz-rendering depth_camera_final_fs.glsl: `float tolerance = 1e-6;`


def _z(seed, frame, n):
    """The float32 camera normals of pixels 0..n-1 of ``frame`` (the generator's
    own stream, independently of DepthNoise)."""
    z = np.empty(n, dtype=np.float32)
    fill_normals(model_key(as_seed_sequence(seed), "camera"), frame, 0, z)
    return z


def test_import_paths_name_one_class():
    from fastnoise.models.camera.depth import DepthNoise as c

    with pytest.warns(DeprecationWarning, match="use fastnoise.DepthNoise"):
        from fastnoise.io.files import DepthNoise as b  # where 0.2 had it
    assert fn.DepthNoise is b is c
    assert "DepthNoise" in fn.__all__


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_noise_is_mean_plus_stddev_z_in_metres_in_the_image_dtype(dtype):
    d = np.linspace(0.2, 80.0, 6 * 7, dtype=dtype).reshape(6, 7)
    m = fn.DepthNoise(0.125, 0.5, seed=21)
    got = m.apply(d, frame=9)
    z = _z(21, 9, d.size).astype(dtype).reshape(d.shape)
    exp = d + (z * dtype(0.5) + dtype(0.125))
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, exp)
    # metres, no [0, 1] clamp: far depths keep their scale
    assert got.max() > 75.0


def test_mean_only_shifts_exactly_and_values_above_one_are_not_clamped():
    d = np.array([[0.5, 1.0, 3.0, 250.0]])
    got = fn.DepthNoise(mean=0.75, stddev=0.0, seed=1).apply(d)
    np.testing.assert_array_equal(got, [[1.25, 1.75, 3.75, 250.75]])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_nan_and_infinite_depths_are_kept(dtype):
    d = np.array([[np.nan, np.inf, -np.inf, 2.0]], dtype=dtype)
    for clip in ({}, {"near": 0.1, "far": 10.0}):
        got = fn.DepthNoise(0.3, 2.0, seed=5, **clip).apply(d)
        assert np.isnan(got[0, 0]) and got[0, 1] == np.inf and got[0, 2] == -np.inf
        assert np.isfinite(got[0, 3]) or clip


def test_gz_sensors_depth_camera_clip_numbers():
    """gz-sensors test/integration/depth_camera.cc (commit 9ba02f24108e): clip near 0.1,
    far 10 (test/sdf/depth_camera_sensor_builtin.sdf), unit box at x = 3: the mid pixel
    reads 2.5 m (DEPTH_TOL 1e-4); the box at x = 0.5 + near * 0.5 (depth 0.05) reads
    -inf; at x = 0.5 + far * 1.5 (depth 15) reads +inf; the sides (no hit) read +inf.
    Noise-free here (the test's SDF has none): only the final clip pass acts."""
    m = fn.DepthNoise(0.0, 0.0, seed=0, near=0.1, far=10.0)
    got = m.apply(np.array([[2.5, 0.05, 15.0, np.inf]], dtype=np.float32))
    assert abs(got[0, 0] - 2.5) < 1e-4
    assert got[0, 1] == -np.inf and got[0, 2] == np.inf and got[0, 3] == np.inf


def test_clip_limits_are_the_shaders_strict_tests_with_its_tolerance():
    # depth_camera_final_fs.glsl: `length(point) > far - tolerance` -> max (+inf),
    # else `point.x < near + tolerance` -> min (-inf); noise-free, float64
    near, far = 0.5, 2.0
    d = np.array([[far - TOL, far - TOL / 2, far, near + TOL, near + TOL / 2, near]])
    got = fn.DepthNoise(near=near, far=far, seed=0).apply(d)
    np.testing.assert_array_equal(got, [[far - TOL, np.inf, np.inf, near + TOL, -np.inf, -np.inf]])


def test_clip_acts_on_the_noisy_depth():
    # the clip pass runs after the noise pass: a true depth inside the limits that the
    # noise moves outside is clipped, and one moved inside is kept
    m = fn.DepthNoise(mean=0.2, near=0.5, far=2.0, seed=0)
    got = m.apply(np.array([[1.9, 0.2, 0.25, 0.35]]))
    np.testing.assert_array_equal(got, [[np.inf, -np.inf, -np.inf, 0.35 + 0.2]])
    m = fn.DepthNoise(mean=-0.2, near=0.5, far=2.0, seed=0)
    got = m.apply(np.array([[0.6, 2.1, 2.5]]))
    np.testing.assert_array_equal(got, [[-np.inf, 2.1 - 0.2, np.inf]])


def test_noise_statistics():
    # 512 x 512 normals, seed fixed: the sample sd's standard error is
    # 0.1 / sqrt(2 * 262144) = 1.4e-4 and the mean's 2e-4; bounds at about 7 SE
    d = np.full((512, 512), 5.0)
    n = fn.DepthNoise(0.05, 0.1, seed=77).apply(d) - 5.0
    assert abs(n.mean() - 0.05) < 1.5e-3
    assert abs(n.std() - 0.1) < 1e-3


def test_frame_counter_is_the_position():
    d = np.full((3, 4), 1.0)
    m = fn.DepthNoise(0.0, 0.1, seed=3)
    a, b = m.apply(d), m.apply(d)
    assert m.frame == 2 and m.state["position"] == {"frame": 2}
    np.testing.assert_array_equal(a, m.apply(d, frame=0))
    np.testing.assert_array_equal(b, m.apply(d, frame=1))
    assert m.frame == 2  # an explicit frame leaves the counter alone
    assert not np.array_equal(a, b)
    m.reset()
    assert m.frame == 0
    np.testing.assert_array_equal(m.apply(d), a)
    m.frame = 2**64 - 1
    with pytest.raises(OverflowError, match="frame"):
        m.apply(d)
    assert m.frame == 2**64 - 1
    m.apply(d, frame=2**64 - 1)  # the last frame itself, by index
    with pytest.raises(ValueError, match="frame"):
        m.apply(d, frame=2**64)


def test_threads_share_one_model_and_each_call_gets_its_own_frame():
    d = np.full((8, 8), 2.0, dtype=np.float32)
    m = fn.DepthNoise(0.0, 0.1, seed=4)
    got = []
    lock = threading.Lock()

    def work():
        for _ in range(25):
            r = m.apply(d)
            with lock:
                got.append(r.tobytes())

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert m.frame == 100
    ref = fn.DepthNoise(0.0, 0.1, seed=4)
    assert sorted(got) == sorted(ref.apply(d, frame=f).tobytes() for f in range(100))


def test_results_do_not_depend_on_threads_and_input_is_not_modified():
    d = np.random.default_rng(0).uniform(0.1, 9.0, (300, 301))
    keep = d.copy()
    a = fn.DepthNoise(0.0, 0.2, seed=9).apply(d, frame=4, threads=1)
    b = fn.DepthNoise(0.0, 0.2, seed=9).apply(d, frame=4, threads=4)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(d, keep)


def test_out_in_place_strided_and_hxwx1():
    rng = np.random.default_rng(1)
    d = rng.uniform(0.1, 9.0, (5, 6)).astype(np.float32)
    exp = fn.DepthNoise(0.0, 0.2, seed=2).apply(d, frame=3)
    m = fn.DepthNoise(0.0, 0.2, seed=2)
    inplace = d.copy()
    assert m.apply(inplace, frame=3, out=inplace) is inplace
    np.testing.assert_array_equal(inplace, exp)
    big = np.zeros((5, 12), dtype=np.float32)  # a strided view (a padded row step)
    view = big[:, ::2]
    assert m.apply(d, frame=3, out=view) is view
    np.testing.assert_array_equal(view, exp)
    assert not big[:, 1::2].any()
    np.testing.assert_array_equal(m.apply(d[..., None], frame=3)[..., 0], exp)
    np.testing.assert_array_equal(m.apply(np.asfortranarray(d), frame=3), exp)


def test_bad_input_is_refused_by_name():
    m = fn.DepthNoise(0.0, 0.1, seed=1)
    d = np.ones((2, 3))
    with pytest.raises(TypeError, match="depth"):
        m.apply(np.ones((2, 3), dtype=np.uint16))
    with pytest.raises(TypeError, match="depth"):
        m.apply([[1.0]])
    with pytest.raises(TypeError, match="depth"):
        m.apply(d.astype(">f8"))
    with pytest.raises(ValueError, match="depth"):
        m.apply(np.ones((2, 3, 3)))
    with pytest.raises(TypeError, match="out"):
        m.apply(d, out=np.ones((2, 3), dtype=np.float32))
    with pytest.raises(ValueError, match="out"):
        m.apply(d, out=np.ones((3, 2)))
    ro = np.ones((2, 3))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="out"):
        m.apply(d, out=ro)
    with pytest.raises(ValueError, match="threads"):
        m.apply(d, threads=0)
    assert m.frame == 0  # refused calls take no frame
    with pytest.raises(ValueError, match="stddev"):
        fn.DepthNoise(0.0, -0.1)
    with pytest.raises(ValueError, match="mean"):
        fn.DepthNoise(np.nan, 0.1)
    with pytest.raises(ValueError, match="far"):
        fn.DepthNoise(near=2.0, far=2.0)
    with pytest.raises(TypeError, match="near"):
        fn.DepthNoise(near="x")


def test_never_initialised_object_raises():
    m = fn.DepthNoise.__new__(fn.DepthNoise)
    with pytest.raises(RuntimeError, match="initialised"):
        m.apply(np.ones((2, 2)))


def test_pickle_continues_the_stream_and_keeps_the_clip():
    m = fn.DepthNoise(0.0, 0.3, seed=8, near=0.2, far=5.0)
    d = np.full((4, 4), 4.9)
    m.apply(d)
    c = pickle.loads(pickle.dumps(m))
    assert (c.near, c.far, c.frame) == (0.2, 5.0, 1)
    np.testing.assert_array_equal(c.apply(d), m.apply(d))
    assert "near=0.2" in repr(m) and "far=5.0" in repr(m)
