"""The 0.2 spellings that 0.3 renamed still work for one release: each warns with a
DeprecationWarning that names the new spelling, and gives exactly what the new
spelling gives (CHANGELOG, "Deprecated")."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

import fastnoise as fn
from fastnoise.core import registry

# Python only (the old spellings' warnings): it runs once, in the plain run; CI's
# scalar-path and sanitizer runs, which are there for the C code, leave it out
# (-m "not python_only").
pytestmark = pytest.mark.python_only

_PTS = np.random.default_rng(0).uniform(-20, 20, (64, 3))
_IMG = np.random.default_rng(1).integers(0, 256, (6, 7, 3), dtype=np.uint8)
_DEPTH = np.random.default_rng(2).uniform(0.5, 9.0, (6, 7)).astype(np.float32)
_W = np.tile([0.1, -0.2, 0.3], (8, 1))
_A = np.tile([0.0, 0.1, 9.81], (8, 1))
_GZ = {"stddev": 0.2, "bias_stddev": 0.1}


def _same(a, b):
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _same(x, y)
        return
    a, b = np.asarray(getattr(a, "points", a)), np.asarray(getattr(b, "points", b))
    assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _gazebo():
    return fn.MagnetometerNoise(x=_GZ, seed=3)


# (label, old call, new call, the keywords the warning must name)
CASES = [
    (
        "ImuNoise(seed)",
        lambda: fn.ImuNoise({"noise_stddev": 0.01}, None, 5).apply(_W, _A, 0.01),
        lambda: fn.ImuNoise({"noise_stddev": 0.01}, None, seed=5).apply(_W, _A, 0.01),
        ("seed=",),
    ),
    (
        "ImuNoise(seed, normal_dtype)",
        lambda: fn.ImuNoise(None, {"noise_stddev": 0.1}, 5, "float64").apply(_W, _A, 0.01),
        lambda: fn.ImuNoise(None, {"noise_stddev": 0.1}, seed=5, normal_dtype="float64").apply(
            _W, _A, 0.01
        ),
        ("seed=", "normal_dtype="),
    ),
    (
        "ImageNoise(per_channel, variant, seed)",
        lambda: fn.ImageNoise(0.0, 0.05, True, "gazebo", 7).apply(_IMG),
        lambda: fn.ImageNoise(0.0, 0.05, per_channel=True, variant="gazebo", seed=7).apply(_IMG),
        ("per_channel=", "variant=", "seed="),
    ),
    (
        "ImageNoise.apply(frame)",
        lambda: fn.ImageNoise(0.0, 0.05, seed=7).apply(_IMG, 4),
        lambda: fn.ImageNoise(0.0, 0.05, seed=7).apply(_IMG, frame=4),
        ("frame=",),
    ),
    (
        "DepthNoise(seed) and apply(frame)",
        lambda: fn.DepthNoise(0.0, 0.1, 8).apply(_DEPTH, 2),
        lambda: fn.DepthNoise(0.0, 0.1, seed=8).apply(_DEPTH, frame=2),
        ("seed=",),
    ),
    (
        "SensorSimulator(seed)",
        lambda: fn.SensorSimulator(fn.RigidBodySimulator([1, 2, 3]), 4).read_orientation(),
        lambda: fn.SensorSimulator(fn.RigidBodySimulator([1, 2, 3]), seed=4).read_orientation(),
        ("seed=",),
    ),
    (
        "LidarNoise.apply(lidar_pose, frame)",
        lambda: fn.LidarNoise(distance_noise_stddev_base=0.02, seed=1).apply(
            _PTS, None, None, None, 3
        ),
        lambda: fn.LidarNoise(distance_noise_stddev_base=0.02, seed=1).apply(_PTS, frame=3),
        ("lidar_pose=", "frame="),
    ),
    (
        "RangeNoise.apply(frame, first_index)",
        lambda: fn.RangeNoise(0.0, 0.01, 0.1, 30.0, seed=2).apply(np.linspace(1, 9, 9), 5, 2),
        lambda: fn.RangeNoise(0.0, 0.01, 0.1, 30.0, seed=2).apply(
            np.linspace(1, 9, 9), frame=5, first_index=2
        ),
        ("frame=", "first_index="),
    ),
    (
        "CarlaLidarNoise.apply(frame)",
        lambda: fn.CarlaLidarNoise(noise_stddev=0.02, seed=1).apply(
            np.hstack([_PTS, np.zeros((64, 1))]), 6, 0, False
        ),
        lambda: fn.CarlaLidarNoise(noise_stddev=0.02, seed=1).apply(
            np.hstack([_PTS, np.zeros((64, 1))]), frame=6, first_index=0, drop=False
        ),
        ("frame=", "first_index=", "drop="),
    ),
    (
        "MagnetometerNoise.apply(out)",
        lambda: _gazebo().apply(_A * 1e-6, 0.01, np.empty((8, 3))),
        lambda: _gazebo().apply(_A * 1e-6, 0.01, out=np.empty((8, 3))),
        ("out=",),
    ),
    (
        "AugmentedWhiteNoise.measure_many(out)",
        lambda: fn.AugmentedWhiteNoise(0.1, 0.5, seed=6).measure_many(np.ones(5), np.empty(5)),
        lambda: fn.AugmentedWhiteNoise(0.1, 0.5, seed=6).measure_many(np.ones(5), out=np.empty(5)),
        ("out=",),
    ),
]


@pytest.mark.parametrize(("label", "old", "new", "names"), CASES, ids=[c[0] for c in CASES])
def test_options_by_position_warn_and_give_the_same_bits(label, old, new, names):
    with pytest.warns(DeprecationWarning, match="by position are deprecated") as caught:
        got = old()
    message = " ".join(str(w.message) for w in caught)
    for n in names:
        assert n in message, message
    # each warning points at the call itself (a line of ``old``), not at its caller:
    # Python's default filters show a DeprecationWarning only where it points into
    # __main__, so a script would not see one pointing a frame too far
    lines = {line for _, _, line in old.__code__.co_lines() if line is not None}
    for w in caught:
        assert (w.filename, w.lineno in lines) == (__file__, True), (w.filename, w.lineno)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the new spelling is quiet
        want = new()
    _same(got, want)


def test_an_option_by_position_and_by_keyword_is_refused():
    with pytest.raises(TypeError, match="frame both by position and by keyword"):
        fn.RangeNoise(0.0, 0.01, 0.1, 30.0, seed=2).apply(np.ones(3), 5, frame=4)


def test_too_many_positions_are_refused_by_name():
    with pytest.raises(TypeError, match=r"at most 1 options by position.*seed"):
        fn.DepthNoise(0.0, 0.1, 8, 9)


def test_from_sdf_seed_by_position():
    sdf = (
        '<sdf version="1.6"><model name="m"><link name="l"><sensor name="s" type="imu"><imu>'
        "<angular_velocity><x><noise type='gaussian'><stddev>0.01</stddev></noise></x>"
        "</angular_velocity></imu></sensor></link></model></sdf>"
    )
    with pytest.warns(DeprecationWarning, match="seed=") as caught:
        old = fn.from_sdf(sdf, 4)
    assert caught[0].filename == __file__  # the warning points at the caller
    assert old.state == fn.from_sdf(sdf, seed=4).state


@pytest.mark.parametrize(
    "where", ["fastnoise", "fastnoise.models.dvl", "fastnoise.models.dvl.config"]
)
def test_sensor_noise_is_now_dvl_sensor_noise(where):
    module = importlib.import_module(where)
    with pytest.warns(DeprecationWarning, match="use fastnoise.DvlSensorNoise"):
        old = module.SensorNoise
    assert old is fn.DvlSensorNoise
    assert "SensorNoise" not in fn.__all__ and "DvlSensorNoise" in fn.__all__


#: The names 0.3 moved from the top level, each with the module of its concern.
MOVED_FROM_THE_TOP = {
    "DvlConfig": "fastnoise.models.dvl",
    "DvlMeasurement": "fastnoise.models.dvl",
    "DvlRangeWarning": "fastnoise.models.dvl",
    "load_config": "fastnoise.models.dvl",
    "save_config": "fastnoise.models.dvl",
    "HITPOINT_BASED": "fastnoise.models.lidar",
    "RAY_BASED": "fastnoise.models.lidar",
    "gauss_markov_stddev_from_gazebo": "fastnoise.models.imu",
    "odometry_covariances": "fastnoise.models.imu",
    "triad_covariance": "fastnoise.models.imu",
    "imu_noise_params_from_sdf": "fastnoise.io.sdf",
    "set_simd_path": "fastnoise.core.simd",
    "simd_path": "fastnoise.core.simd",
    "simd_paths_available": "fastnoise.core.simd",
    "release_spare_memory": "fastnoise.core.buffers",
    "spare_memory": "fastnoise.core.buffers",
}


@pytest.mark.parametrize(("name", "where"), sorted(MOVED_FROM_THE_TOP.items()))
def test_a_name_moved_from_the_top_level_warns_naming_its_module(name, where):
    new = getattr(importlib.import_module(where), name)
    with pytest.warns(DeprecationWarning) as caught:
        old = getattr(fn, name)
    assert [str(w.message) for w in caught] == [
        f"fastnoise.{name} is deprecated: use {where}.{name}"
    ]
    assert caught[0].filename == __file__  # the warning points at the caller
    assert old is new
    assert name not in fn.__all__ and name not in dir(fn)
    with pytest.warns(DeprecationWarning, match=rf"use {where}\.{name}$"):
        exec(f"from fastnoise import {name} as old", {})


def test_the_top_level_is_the_models_and_the_sdf_entry_points():
    models = {d.cls.__name__ for d in registry.models() if d.cls is not None}
    models = {n for n in models if getattr(fn, n, None) is not None}
    assert set(fn.__all__) == models | {"TriadNoise", "DvlSensorNoise"} | {
        "wt901c",
        "from_sdf",
        "load_sensors",
    }
    assert set(fn._MOVED_NAMES) == set(MOVED_FROM_THE_TOP)
    with pytest.raises(AttributeError, match="no_such_name"):
        fn.no_such_name  # noqa: B018


def test_the_model_name_image_is_camera():
    with pytest.warns(DeprecationWarning, match="use 'camera'"):
        decl = registry.get("image")
    assert decl is registry.get("camera")
    state = fn.ImageNoise(0.0, 0.05, seed=1).state
    state["model"] = "image"
    with pytest.warns(DeprecationWarning, match="now named 'camera'"):
        m = fn.ImageNoise.from_state(state)
    assert m.state["model"] == "camera"


# ---- TriadNoise: the Gauss-Markov fields (bias_stddev is Gazebo's turn-on bias sd) ----
_GM_OLD = {"bias_stddev": 2e-3, "bias_correlation_time": 5.0, "bias_steady_state": True}
_GM_NEW = {
    "gauss_markov_stddev": 2e-3,
    "gauss_markov_correlation_time": 5.0,
    "gauss_markov_steady_state": True,
}


def _warned_names(caught):
    return " ".join(str(w.message) for w in caught)


def _warns_naming(call, *names):
    """``call()`` after checking that its DeprecationWarnings name each of ``names``."""
    with pytest.warns(DeprecationWarning) as caught:
        got = call()
    message = _warned_names(caught)
    for n in names:
        assert n in message, message
    return got


def test_triad_noise_old_gauss_markov_keywords_warn_and_give_the_same_triad():
    old = _warns_naming(lambda: fn.TriadNoise(noise_stddev=0.01, **_GM_OLD), *map(repr, _GM_NEW))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        new = fn.TriadNoise(noise_stddev=0.01, **_GM_NEW)
        assert old == new and old.to_dict() == new.to_dict()
        assert set(_GM_NEW) <= set(new.to_dict()) and not set(_GM_OLD) & set(new.to_dict())
        want = fn.ImuNoise(gyro=new, seed=5).apply(_W, _A, 0.01)
    with pytest.warns(DeprecationWarning, match="gauss_markov_stddev"):
        assert old.replace(bias_stddev=1e-3) == new.replace(gauss_markov_stddev=1e-3)
    _same(fn.ImuNoise(gyro=old, seed=5).apply(_W, _A, 0.01), want)


def test_imu_noise_takes_the_old_gauss_markov_names_in_a_dict_with_a_warning():
    m_old = _warns_naming(lambda: fn.ImuNoise(gyro=dict(_GM_OLD), seed=5), *map(repr, _GM_NEW))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        m_new = fn.ImuNoise(gyro=_GM_NEW, seed=5)
        assert m_old.state == m_new.state
    _same(m_old.apply(_W, _A, 0.01), m_new.apply(_W, _A, 0.01))


def test_the_old_flat_imu_keywords_warn_naming_the_new_flat_ones():
    old = {f"accel_{k}": v for k, v in _GM_OLD.items()}
    new = {f"accel_{k}": v for k, v in _GM_NEW.items()}
    m_old = _warns_naming(lambda: fn.ImuNoise(**old, seed=5), *map(repr, new))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        m_new = fn.ImuNoise(**new, seed=5)
        assert m_old.state == m_new.state
    _same(m_old.apply(_W, _A, 0.01), m_new.apply(_W, _A, 0.01))


def test_old_and_new_gauss_markov_names_together_are_refused_naming_both():
    with pytest.raises(TypeError, match=r"'bias_stddev'.*'gauss_markov_stddev'"):
        fn.TriadNoise(bias_stddev=1.0, gauss_markov_stddev=1.0, gauss_markov_correlation_time=2.0)
    with pytest.raises(
        TypeError, match=r"'gyro_bias_steady_state'.*'gyro_gauss_markov_steady_state'"
    ):
        fn.ImuNoise(gyro_bias_steady_state=True, gyro_gauss_markov_steady_state=True)
    with pytest.raises(TypeError, match=r"'accel_bias_stddev'.*'accel_gauss_markov_stddev'"):
        fn.wt901c(accel_bias_stddev=0.1, accel_gauss_markov_stddev=0.2)


def test_an_imu_state_with_the_old_names_loads_and_is_written_with_the_new():
    m = fn.ImuNoise(gyro=_GM_NEW, seed=5)
    m.apply(_W, _A, 0.01)
    state = m.state
    old_state = {**state, "params": {**state["params"]}}
    old_state["params"]["gyro"] = {
        {"gauss_markov_" + k[5:]: k for k in _GM_OLD}.get(k, k): v
        for k, v in state["params"]["gyro"].items()
    }
    assert "bias_stddev" in old_state["params"]["gyro"]
    loaded = _warns_naming(lambda: fn.ImuNoise.from_state(old_state), *map(repr, _GM_NEW))
    assert loaded.state == state
    _same(loaded.apply(_W, _A, 0.01), m.apply(_W, _A, 0.01))


def test_a_suite_table_with_the_old_gauss_markov_names_warns():
    from fastnoise.io.suite import Suite

    table = {"seed": 3, "topics": {"/imu": {"model": "imu", "rate": 100, "gyro": dict(_GM_OLD)}}}
    old = _warns_naming(
        lambda: Suite.from_dict(table).for_topic("/imu").build("/imu"), *map(repr, _GM_NEW)
    )
    table["topics"]["/imu"]["gyro"] = dict(_GM_NEW)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        new = Suite.from_dict(table).for_topic("/imu").build("/imu")
    assert old.state == new.state


def test_wt901c_old_keywords_warn_and_give_the_same_triads():
    old = _warns_naming(
        lambda: fn.wt901c(gyro_bias_stddev=1e-3, accel_bias_correlation_time=100.0),
        "'gyro_gauss_markov_stddev'",
        "'accel_gauss_markov_correlation_time'",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        new = fn.wt901c(gyro_gauss_markov_stddev=1e-3, accel_gauss_markov_correlation_time=100.0)
    assert old == new


# ---- the DVL: noise_dev is noise_stddev (a standard deviation is ..._stddev) ----------
_TRUTH = np.linspace(-1.0, 1.0, 16)


def test_augmented_white_noise_noise_dev_warns_and_gives_the_same_bits():
    old = _warns_naming(
        lambda: fn.AugmentedWhiteNoise(0.1, noise_dev=0.5, anchor=2.0, seed=6), "noise_stddev"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        new = fn.AugmentedWhiteNoise(0.1, noise_stddev=0.5, anchor=2.0, seed=6)
        assert old.state == new.state and "noise_stddev" in new.state["params"]
        assert "noise_dev" not in new.state["params"] and new.noise_stddev == 0.5
        want = new.measure_many(_TRUTH)
    _same(old.measure_many(_TRUTH), want)
    assert _warns_naming(lambda: new.noise_dev, "noise_stddev") == 0.5
    _warns_naming(lambda: setattr(new, "noise_dev", 0.25), "noise_stddev")
    assert new.noise_stddev == 0.25


def test_a_0_2_dvl_state_with_noise_dev_loads():
    new = fn.AugmentedWhiteNoise(0.1, 0.5, seed=6)
    new.measure_many(_TRUTH)
    state = new.state
    old_state = {**state, "params": {**state["params"]}}
    old_state["params"]["noise_dev"] = old_state["params"].pop("noise_stddev")
    loaded = _warns_naming(lambda: fn.AugmentedWhiteNoise.from_state(old_state), "'noise_stddev'")
    assert loaded.state == state
    _same(loaded.measure_many(_TRUTH), new.measure_many(_TRUTH))


def test_dvl_sensor_noise_and_simulator_dicts_take_noise_dev_with_a_warning():
    old = _warns_naming(lambda: fn.DvlSensorNoise(bias=0.1, noise_dev=0.2), "noise_stddev")
    assert old == fn.DvlSensorNoise(bias=0.1, noise_stddev=0.2)
    assert _warns_naming(lambda: old.noise_dev, "noise_stddev") == 0.2
    sim_old = _warns_naming(
        lambda: fn.DvlSimulator({"dvl_yaw": {"noise_dev": 0.5}}, seed=2), "'noise_stddev'"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        sim_new = fn.DvlSimulator({"dvl_yaw": {"noise_stddev": 0.5}}, seed=2)
        assert sim_old.state == sim_new.state
        assert sim_new.state["params"]["sensors"]["dvl_yaw"]["noise_stddev"] == 0.5


def test_a_0_2_dvl_sensor_noise_pickle_loads_its_noise_dev():
    import pickle

    new = fn.DvlSensorNoise(bias=0.1, noise_stddev=0.2)
    text = pickle.dumps(new, protocol=0)  # text: the field names as b"V<name>\n"
    assert text.count(b"Vnoise_stddev\n") == 1
    old = text.replace(b"Vnoise_stddev\n", b"Vnoise_dev\n")
    loaded = _warns_naming(lambda: pickle.loads(old), "'noise_stddev'")
    assert loaded == new and "noise_dev" not in vars(loaded)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        assert pickle.loads(pickle.dumps(new)) == new


def test_noise_dev_and_noise_stddev_together_are_refused_naming_both():
    for call in (
        lambda: fn.AugmentedWhiteNoise(noise_stddev=0.0, noise_dev=0.5),
        lambda: fn.AugmentedWhiteNoise(0.1, 0.5, noise_dev=0.5),
        lambda: fn.DvlSensorNoise(noise_stddev=0.1, noise_dev=0.5),
        lambda: fn.DvlSimulator({"dvl_yaw": {"noise_stddev": 0.1, "noise_dev": 0.5}}),
    ):
        with pytest.raises(TypeError, match=r"noise_dev.*noise_stddev"):
            call()
    with pytest.raises(TypeError, match="unexpected keyword argument 'noise_sd'"):
        fn.AugmentedWhiteNoise(noise_sd=0.5)


def test_the_dvl_json_keeps_noise_dev_as_noisedev():
    cfg = fn.DvlSimulator({"dvl_yaw": {"noise_stddev": 0.5}}, seed=2).to_config()
    assert cfg.to_dict()["dvl_yaw"]["noiseDev"] == 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        sim = fn.DvlSimulator.from_config({"dvl_yaw": {"noiseDev": 0.5}, "seed": 2})
    assert sim["dvl_yaw"].noise_stddev == 0.5


def test_lidar_distances_out_and_hit_mask_out_warn_and_fill_the_same_buffers():
    # extra outputs are out_<name> (docs/conventions.rst, rule 8)
    noise = fn.LidarNoise(distance_noise_stddev_base=0.02, seed=1)
    old = (np.empty(64), np.empty(64, bool))
    new = (np.empty(64), np.empty(64, bool))
    with pytest.warns(DeprecationWarning) as caught:
        got = noise.apply(_PTS, frame=2, distances_out=old[0], hit_mask_out=old[1])
    message = " ".join(str(w.message) for w in caught)
    assert "'distances_out' is deprecated: use 'out_distances'" in message
    assert "'hit_mask_out' is deprecated: use 'out_hit_mask'" in message
    assert all(w.filename == __file__ for w in caught), [w.filename for w in caught]
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # the new spelling is quiet
        want = noise.apply(_PTS, frame=2, out_distances=new[0], out_hit_mask=new[1])
    assert got.distances is old[0] and got.hit_mask is old[1]
    _same(tuple(got[:3]), tuple(want[:3]))


def test_lidar_old_and_new_output_names_together_are_refused_naming_both():
    noise = fn.LidarNoise(seed=1)
    with pytest.raises(TypeError, match="'distances_out'.*'out_distances'"):
        noise.apply(_PTS, distances_out=np.empty(64), out_distances=np.empty(64))
    with pytest.raises(TypeError, match="unexpected keyword argument 'mask_out'"):
        noise.apply(_PTS, mask_out=np.empty(64, bool))
