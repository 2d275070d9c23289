"""The io surfaces read the model registry: a model that exists only in the tests
(tests/toy_model.py, registered here and nowhere else) works in a suite file, through
``fastnoise apply`` on a ROS 2 bag and on a folder of .npy files, and in the generated
parameter table; the hand-kept model lists are gone."""

from __future__ import annotations

import numpy as np
import pytest
from toy_model import ToyNoise

import fastnoise.io.ros
import fastnoise.io.suite
import fastnoise.io.suite.entry
import fastnoise.io.suite.suite
from fastnoise import cli
from fastnoise.core import registry
from fastnoise.io.suite import Suite, load_suite, name_seed_sequence

# Python only (the registry's surfaces): it runs once, in the plain run; CI's
# scalar-path and sanitizer runs, which are there for the C code, leave it out
# (-m "not python_only").
pytestmark = pytest.mark.python_only

SEED = 17
SUITE = f"""seed = {SEED}

[topics."/scan"]
model = "toy"
stddev = 0.25
offset = 0.5

[files."arrays/*.npy"]
model = "toy"
stddev = 2.0
"""
N = 6  # LaserScan messages
RANGES = np.linspace(0.5, 9.5, 40, dtype=np.float32)


@pytest.fixture
def toy():
    registry.register(ToyNoise)
    yield ToyNoise
    registry.unregister("toy")


def test_the_hand_kept_lists_are_gone():
    for module in (fastnoise.io.suite, fastnoise.io.suite.suite, fastnoise.io.suite.entry):
        assert not hasattr(module, "MODELS") and not hasattr(module, "OPTIONS"), module
        assert not hasattr(module, "_construct"), module
    assert not hasattr(fastnoise.io.ros, "MESSAGE_MODELS")
    assert not hasattr(fastnoise.io.ros.noise, "MESSAGE_MODELS")


def test_toy_in_a_suite_file(toy, tmp_path):
    (tmp_path / "suite.toml").write_text(SUITE)
    suite = load_suite(tmp_path / "suite.toml")
    entry = suite.for_topic("/scan")
    assert entry.model == "toy" and dict(entry.params) == {"stddev": 0.25, "offset": 0.5}
    model = entry.build("/scan")
    assert isinstance(model, ToyNoise) and (model.stddev, model.offset) == (0.25, 0.5)
    assert model.key == ToyNoise(seed=name_seed_sequence(SEED, "/scan")).key
    # the declaration's specs and constructor refuse, naming the entry
    with pytest.raises(ValueError, match=r'topics\."/t": stddev=-1\.0 is not allowed'):
        Suite.from_dict({"topics": {"/t": {"model": "toy", "stddev": -1.0}}})
    # declared for .npy only: other formats name the models that take them
    s = Suite.from_dict({"seed": 1, "files": {"*": {"model": "toy"}}})
    from fastnoise.io.files import file_handler

    assert file_handler(s.for_file("a.npy"), "npy") == "array"
    with pytest.raises(ValueError, match=r"point clouds take model 'carla_lidar' or 'lidar'"):
        file_handler(s.for_file("a.pcd"), "cloud")


def test_unregistered_toy_is_refused():
    assert "toy" not in registry.names()
    with pytest.raises(ValueError, match=r"model='toy' is not allowed: use one of \["):
        Suite.from_dict({"topics": {"/t": {"model": "toy"}}})


def _write_scan_bag(path):
    from rosbags.rosbag2 import Writer
    from rosbags.typesys import Stores, get_typestore

    ts = get_typestore(Stores.ROS2_HUMBLE)
    T = ts.types
    typ = "sensor_msgs/msg/LaserScan"
    with Writer(path, version=9) as w:
        conn = w.add_connection("/scan", typ, typestore=ts)
        for k in range(N):
            t = 1_700_000_000 * 10**9 + k * 10**8
            stamp = T["builtin_interfaces/msg/Time"](sec=t // 10**9, nanosec=t % 10**9)
            msg = T[typ](
                header=T["std_msgs/msg/Header"](stamp=stamp, frame_id="laser"),
                angle_min=0.0,
                angle_max=1.0,
                angle_increment=0.025,
                time_increment=0.0,
                scan_time=0.1,
                range_min=0.1,
                range_max=10.0,
                ranges=RANGES + k,
                intensities=np.arange(40, dtype=np.float32),
            )
            w.write(conn, t, ts.serialize_cdr(msg, typ))
    return ts


def test_toy_through_fastnoise_apply_on_a_ros2_bag(toy, tmp_path):
    pytest.importorskip("rosbags")
    from rosbags.rosbag2 import Reader

    (tmp_path / "suite.toml").write_text(SUITE)
    ts = _write_scan_bag(tmp_path / "in")
    args = ["apply", "--config", str(tmp_path / "suite.toml"), "-q"]
    assert cli.main([*args, str(tmp_path / "in"), str(tmp_path / "out")]) == 0
    ref = ToyNoise(stddev=0.25, offset=0.5, seed=name_seed_sequence(SEED, "/scan"))
    with Reader(tmp_path / "out") as r:
        msgs = [ts.deserialize_cdr(raw, c.msgtype) for c, _, raw in r.messages()]
    assert len(msgs) == N
    for k, m in enumerate(msgs):
        np.testing.assert_array_equal(m.ranges, ref.apply(RANGES + k, frame=k))
        np.testing.assert_array_equal(m.intensities, np.arange(40, dtype=np.float32))
        assert (m.range_min, m.range_max) == (np.float32(0.1), np.float32(10.0))


def test_toy_through_fastnoise_apply_on_npy_files(toy, tmp_path):
    (tmp_path / "suite.toml").write_text(SUITE)
    src = tmp_path / "in"
    (src / "arrays").mkdir(parents=True)
    a = np.arange(12.0).reshape(3, 4)
    b = np.linspace(-1, 1, 7, dtype=np.float32)
    np.save(src / "arrays" / "a.npy", a)
    np.save(src / "arrays" / "b.npy", b)
    np.save(src / "other.npy", a)  # matches no entry: copied
    args = ["apply", "--config", str(tmp_path / "suite.toml"), "-q"]
    assert cli.main([*args, str(src), str(tmp_path / "out")]) == 0
    for rel, arr in (("arrays/a.npy", a), ("arrays/b.npy", b)):
        got = np.load(tmp_path / "out" / rel)
        exp = ToyNoise(stddev=2.0, seed=name_seed_sequence(SEED, rel)).apply(arr, frame=0)
        assert got.dtype == arr.dtype
        np.testing.assert_array_equal(got, exp)
    assert (tmp_path / "out" / "other.npy").read_bytes() == (src / "other.npy").read_bytes()


def test_toy_in_the_cli_model_list_and_the_parameter_table(toy, capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["apply", "--models"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "  toy: additive Gaussian noise" in out
    assert "sensor_msgs/LaserScan (scan)" in out and "npy (array)" in out
    table = registry.get("toy").params_table()
    assert "``stddev``" in table and "``offset``" in table and "standard deviation" in table


def test_message_params_are_checked_where_the_message_type_is_known():
    """range takes min_range/max_range from each LaserScan: a suite refuses them, and
    its other parameters are checked when a topic of a known type is planned."""
    with pytest.raises(ValueError, match="min_range come from each LaserScan or Range message"):
        Suite.from_dict({"topics": {"/s": {"model": "range", "min_range": 0.2}}})
    suite = Suite.from_dict({"seed": 1, "topics": {"/s": {"model": "range", "stddev": -1}}})
    from fastnoise.io.ros import TopicNoise

    with pytest.raises(ValueError, match=r'topics\."/s": stddev=-1 is not allowed'):
        TopicNoise.from_suite(suite, "/s", "sensor_msgs/msg/LaserScan")


def test_an_old_model_name_warns_and_names_the_new_one():
    with pytest.warns(DeprecationWarning, match="'image' is deprecated: use 'camera'"):
        suite = Suite.from_dict({"seed": 1, "topics": {"/c": {"model": "image"}}})
    assert suite.for_topic("/c").model == "camera"
