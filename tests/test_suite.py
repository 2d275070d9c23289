"""Sensor-suite files (fastnoise.io.suite.suite): TOML and JSON, keys per normalized topic name
or relative path, first-match patterns, refusals that name the entry, SDF sensors."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest

import fastnoise
from fastnoise.core.seeding import model_tag
from fastnoise.core.streams import RESERVED_TAGS, STREAMS
from fastnoise.io.suite import (
    Suite,
    load_suite,
    name_seed_sequence,
    name_tag,
    normalize_relpath,
    normalize_topic,
    output_topic,
    sdf_sensors,
)

TOML = """
seed = 42
threads = 2

[topics."/imu/data"]
model = "imu"
covariance = "gazebo"
rate = 200
output = "/imu/noised"
gyro = { noise_stddev = 0.002 }

[topics."/cam*/image_raw"]
model = "camera"
stddev = 0.01
quality = 80

[topics."/cam_left/image_raw"]
model = "copy"

[files."images/*.png"]
model = "camera"
seed = 7
stddev = 0.02
"""


def test_toml_and_json_are_the_same_suite(tmp_path):
    import tomllib

    (tmp_path / "s.toml").write_text(TOML)
    (tmp_path / "s.json").write_text(json.dumps(tomllib.loads(TOML)))
    a, b = load_suite(tmp_path / "s.toml"), load_suite(tmp_path / "s.json")
    assert a.threads == b.threads == 2 and a.seed.entropy == b.seed.entropy == 42
    fields = [(e.pattern, e.kind, e.model, dict(e.params), dict(e.options)) for e in a.entries]
    assert fields == [
        (e.pattern, e.kind, e.model, dict(e.params), dict(e.options)) for e in b.entries
    ]
    assert a.for_topic("imu//data/").model == "imu"
    assert a.for_topic("/imu/data").options["rate"] == 200.0
    assert a.for_topic("/imu/data").output == b.for_topic("/imu/data").output == "/imu/noised"
    assert a.for_topic("/cam_left/image_raw").model == "camera"  # the first match decides
    assert a.for_topic("/nothing") is None
    assert a.for_file("./images/a.png").seed.entropy == 7  # an entry's own seed
    assert a.for_file("other/a.png") is None
    assert load_suite(tmp_path / "s.toml", seed=5).seed.entropy == 5  # --seed overrides


def test_key_derivation_is_the_documented_one():
    name = "/imu/data"
    tag = int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "little")
    assert name_tag(name) == tag
    ss = name_seed_sequence(42, name)
    assert ss.entropy == 42 and ss.spawn_key == (model_tag("suite"), tag)
    suite = Suite.from_dict({"seed": 42, "topics": {"imu/data": {"model": "camera"}}})
    model = suite.for_topic(name).build(name)
    assert model.key == fastnoise.ImageNoise(seed=ss).key
    # the stream registry lists the derivation, and "suite" is no longer only reserved
    row = [s for s in STREAMS if s.model == "suite"]
    assert row and row[0].key_tag == "suite" and "sha256" in row[0].draws
    assert "suite" not in RESERVED_TAGS
    # different names, different keys; ROS 1 and ROS 2 spellings of a name, the same key
    assert name_seed_sequence(42, "/a").spawn_key != name_seed_sequence(42, "/b").spawn_key
    assert normalize_topic("a//b/") == normalize_topic("/a/b") == "/a/b"


def test_normalized_paths():
    assert normalize_relpath("./a/../b/c.png") == "b/c.png"
    for bad in ("/abs/c.png", "../c.png", "."):
        with pytest.raises(ValueError, match="not allowed"):
            normalize_relpath(bad)
    with pytest.raises(ValueError, match="must name a topic"):
        normalize_topic("//")


@pytest.mark.parametrize(
    ("data", "match"),
    [
        ({"seed": 1, "topics": {"/a": {"model": "sonar"}}}, r'topics\."/a": model=.sonar.'),
        ({"seed": 1, "topics": {"/a": {}}}, r'topics\."/a": no model'),
        (
            {"seed": 1, "topics": {"/a": {"model": "camera", "stddev": -1}}},
            r'topics\."/a": stddev=-1 is not allowed',
        ),
        ({"seed": 1, "topics": {"/a": {"model": "camera", "sigma": 1}}}, r'topics\."/a": .*sigma'),
        (
            {"seed": 1, "topics": {"/a": {"model": "camera", "quality": 101}}},
            r"quality=101 is not allowed",
        ),
        (
            {"seed": 1, "topics": {"/a": {"model": "imu", "covariance": "zero"}}},
            r"covariance='zero' is not allowed",
        ),
        (
            {"seed": 1, "topics": {"/a": {"model": "range", "stddev": 0.1, "max_range": 3}}},
            r"come from each LaserScan or Range message",
        ),
        ({"seed": 1, "files": {"*.bin": {"model": "range"}}}, r"not files"),
        (
            {"seed": 1, "topics": {"/a": {"model": "lidar", "pose": [[1, 0], [0, 1]]}}},
            r"pose has shape",
        ),
        ({"seed": -1}, r"seed=-1 is not allowed"),
        ({"seed": 1, "threads": 0}, r"threads=0"),
        ({"seed": 1, "topic": {}}, r"unknown keys \['topic'\]"),
        ({"seed": 1, "files": {"/abs/*.png": {"model": "camera"}}}, r"must be relative"),
        # an IMU topic needs its rate; the message names the entry, the topic and the fix
        (
            {"seed": 1, "topics": {"/imu*": {"model": "imu"}}},
            r'topics\."/imu\*": topic /imu\*: model .imu. needs the Imu messages. rate: '
            r".*e\.g\. rate = 200",
        ),
        ({"seed": 1, "topics": {"/a": {"model": "imu", "rate": 0}}}, r"rate=0 is not allowed"),
        # output: a topic name, for an entry of one topic, not its own input
        (
            {"seed": 1, "topics": {"/cam*": {"model": "copy", "output": "/c"}}},
            r"entry matches several topics",
        ),
        ({"seed": 1, "topics": {"/a": {"model": "copy", "output": 5}}}, r"output=5 .*topic name"),
        ({"seed": 1, "topics": {"/a": {"model": "copy", "output": "//"}}}, r"output: topic name"),
        ({"seed": 1, "topics": {"/a": {"model": "copy", "output": "/b*"}}}, r"must be a topic"),
        ({"seed": 1, "topics": {"/a": {"model": "copy", "output": "a/"}}}, r"is the input topic"),
        (
            {"seed": 1, "files": {"a.png": {"model": "camera", "output": "/x"}}},
            r"output is for topics",
        ),
        # an output that is another noised entry's input: noised twice by a node
        (
            {
                "seed": 1,
                "topics": {"/a_raw": {"model": "camera"}, "/a": {"model": "camera"}},
            },
            r'topics\."/a_raw": its default output topic /a is the input topic of .*topics\."/a"',
        ),
        (
            {
                "seed": 1,
                "topics": {
                    "/a": {"model": "camera", "output": "/b"},
                    "/b": {"model": "camera"},
                },
            },
            r"its output /b is the input topic",
        ),
    ],
)
def test_refusals_name_the_entry(data, match):
    with pytest.raises(ValueError, match=match):
        Suite.from_dict(data)


def test_unreadable_and_malformed_files(tmp_path):
    (tmp_path / "bad.toml").write_text("seed = = 1")
    with pytest.raises(ValueError, match="bad.toml: not a valid TOML"):
        load_suite(tmp_path / "bad.toml")
    with pytest.raises(ValueError, match="cannot read the suite"):
        load_suite(tmp_path / "missing.toml")
    (tmp_path / "s.yaml").write_text("seed: 1")
    with pytest.raises(ValueError, match="a suite is a .toml, .json or .sdf"):
        load_suite(tmp_path / "s.yaml")


def test_no_seed_draws_entropy_that_reproduces():
    a = Suite.from_dict({"topics": {"/a": {"model": "camera"}}})
    b = Suite.from_dict({"seed": a.seed.entropy, "topics": {"/a": {"model": "camera"}}})
    assert a.for_topic("/a").build("/a").key == b.for_topic("/a").build("/a").key


SDF = """<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><model name="robot"><link name="base">
  <sensor name="imu_sensor" type="imu">
    <topic>imu</topic>
    <update_rate>400</update_rate>
    <imu><angular_velocity>
      <x><noise type="gaussian"><stddev>0.0002</stddev></noise></x>
      <y><noise type="gaussian"><stddev>0.0002</stddev></noise></y>
      <z><noise type="gaussian"><stddev>0.0002</stddev></noise></z>
    </angular_velocity></imu>
  </sensor>
  <sensor name="cam" type="camera"><topic>camera</topic>
    <camera><noise><type>gaussian</type><mean>0</mean><stddev>0.007</stddev></noise></camera>
  </sensor>
  <sensor name="quiet" type="imu"><topic>quiet</topic><imu/></sensor>
</link></model></world></sdf>
"""


def test_sdf_sensors_and_suites(tmp_path):
    path = tmp_path / "world.sdf"
    path.write_text(SDF)
    sensors = {s.name: s for s in sdf_sensors(path)}
    # scoped names; "quiet" has no <noise>
    assert set(sensors) == {"robot::base::imu_sensor", "robot::base::cam"}
    imu = sensors["robot::base::imu_sensor"]
    assert imu.importable and imu.topic == "imu" and imu.sensor == "imu_sensor"
    assert sensors["robot::base::cam"].importable  # camera noise is applied to images
    suite = load_suite(path, seed=3)
    assert [e.pattern for e in suite.entries] == ["/imu", "/camera"]
    assert suite.for_topic("/imu").options == {"rate": 400.0}  # from <update_rate>
    model = suite.for_topic("/imu").build("/imu")
    ref = fastnoise.from_sdf(str(path), seed=name_seed_sequence(3, "/imu"), name="imu_sensor")
    assert model.key == ref.key and model.gyro == ref.gyro
    cam = suite.for_topic("/camera").build("/camera")
    cam_seed = name_seed_sequence(3, "/camera")
    ref_cam = fastnoise.ImageNoise(0.0, 0.007, variant="ogre2", seed=cam_seed)
    assert (cam.key, cam.stddev, cam.variant) == (ref_cam.key, 0.007, "ogre2")
    # a TOML suite with an [sdf] table mapping sensors to bag topics
    (tmp_path / "s.toml").write_text(
        'seed = 3\n[sdf]\nfile = "world.sdf"\ntopics = { imu_sensor = "/robot/imu" }\n'
    )
    suite = load_suite(tmp_path / "s.toml")
    assert suite.for_topic("/robot/imu").build("/robot/imu").gyro == ref.gyro
    # the scoped name works as well
    (tmp_path / "u.toml").write_text(
        'seed = 3\n[sdf]\nfile = "world.sdf"\ntopics = { "robot::base::imu_sensor" = "/r/imu" }\n'
    )
    assert load_suite(tmp_path / "u.toml").for_topic("/r/imu").model == "imu"
    (tmp_path / "t.toml").write_text('seed = 3\n[sdf]\nfile = "world.sdf"\ntopics = { x = "/y" }')
    with pytest.raises(ValueError, match="names sensor 'x'"):
        load_suite(tmp_path / "t.toml")
    # an entry that picks one SDF sensor for a topic
    suite = Suite.from_dict(
        {"seed": 3, "topics": {"/i": {"sdf": "world.sdf", "sensor": "imu_sensor"}}}, base=tmp_path
    )
    assert suite.for_topic("/i").model == "imu"
    assert suite.for_topic("/i").options["rate"] == 400.0
    # rate given in the entry wins over <update_rate>
    suite = Suite.from_dict(
        {"seed": 3, "topics": {"/i": {"sdf": "world.sdf", "sensor": "imu_sensor", "rate": 50}}},
        base=tmp_path,
    )
    assert suite.for_topic("/i").options["rate"] == 50.0
    # without <update_rate> (or with 0: "as fast as possible") the IMU sensor is refused
    for rate in ("", "<update_rate>0</update_rate>"):
        (tmp_path / "norate.sdf").write_text(SDF.replace("<update_rate>400</update_rate>", rate))
        with pytest.raises(ValueError, match=r"sensor 'robot::base::imu_sensor'.*<update_rate>"):
            load_suite(tmp_path / "norate.sdf")
    (tmp_path / "bad.sdf").write_text(SDF.replace(">400<", ">fast<"))
    with pytest.raises(ValueError, match=r"<update_rate> 'fast' is not a number"):
        load_suite(tmp_path / "bad.sdf")
    with pytest.raises(ValueError, match="beside sdf"):
        Suite.from_dict(
            {"seed": 3, "topics": {"/i": {"sdf": "world.sdf", "sensor": "imu_sensor", "a": 1}}},
            base=tmp_path,
        )


def test_sdf_lidar_and_depth_sensors_become_range_and_depth_entries(tmp_path):
    (tmp_path / "w.sdf").write_text(
        '<sdf version="1.9"><model name="m"><link name="l">'
        '<sensor name="scan" type="gpu_lidar"><topic>/scan</topic><lidar><range><min>0.2'
        "</min><max>12</max></range><noise><type>gaussian</type><stddev>0.01</stddev>"
        "</noise></lidar></sensor>"
        '<sensor name="d" type="depth_camera"><topic>/depth</topic><camera><noise>'
        "<type>gaussian</type><stddev>0.02</stddev></noise></camera></sensor>"
        '<sensor name="mag" type="magnetometer"><topic>/mag</topic><magnetometer><x>'
        '<noise type="gaussian"><stddev>1</stddev></noise></x></magnetometer></sensor>'
        "</link></model></sdf>"
    )
    suite = load_suite(tmp_path / "w.sdf", seed=5)
    # the magnetometer's MagneticField is noised too (its model declares the message)
    assert [(e.pattern, e.model) for e in suite.entries] == [
        ("/scan", "range"),
        ("/depth", "depth"),
        ("/mag", "magnetometer"),
    ]
    # LaserScan limits replace the SDF's; the noise and Gazebo's bias flip stay
    r = suite.for_topic("/scan").build("/scan", min_range=0.1, max_range=30.0)
    assert (r.stddev, r.min_range, r.max_range, r.flip_bias_sign) == (0.01, 0.1, 30.0, True)
    assert r.key == fastnoise.RangeNoise(0, 1, 0, 1, seed=name_seed_sequence(5, "/scan")).key
    d = suite.for_topic("/depth").build("/depth")
    assert (d.stddev, d.near, d.far) == (0.02, 0.1, 100.0)


def test_entry_models_are_built_per_name():
    suite = Suite.from_dict({"seed": 9, "topics": {"/c*": {"model": "camera", "stddev": 0.1}}})
    e = suite.for_topic("/c1")
    a, b = e.build("/c1"), e.build("/c2")
    assert a.key != b.key and a.stddev == b.stddev == 0.1
    img = np.full((4, 4), 100, np.uint8)
    assert not np.array_equal(a.apply(img, frame=0), b.apply(img, frame=0))


def test_output_topic_rule():
    """output if given; else a trailing _raw dropped; else /noisy appended."""
    suite = Suite.from_dict(
        {
            "seed": 1,
            "topics": {
                "/imu_raw": {"model": "imu", "rate": 100, "output": "imu/filtered/"},
                "/cam*": {"model": "camera"},
            },
        }
    )
    imu, cam = suite.entries
    assert imu.output == "/imu/filtered"
    assert output_topic(imu, "/imu_raw") == "/imu/filtered"
    assert output_topic(cam, "/cam/image_raw") == "/cam/image"
    assert output_topic(cam, "/cam/image") == "/cam/image/noisy"
    assert output_topic(cam, "cam//raw_depth/") == "/cam/raw_depth/noisy"  # normalized
    assert output_topic(None, "/_raw") == "/_raw/noisy"  # nothing left to name
    assert output_topic(None, "/ns/scan_raw") == "/ns/scan"
    # an output onto a copied topic is no loop
    Suite.from_dict({"seed": 1, "topics": {"/a_raw": {"model": "camera"}, "/a": {"model": "copy"}}})
