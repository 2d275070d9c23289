"""The commented suite files of examples/suites/ (issue 29) work as shipped: each runs
through ``fastnoise apply --dry-run`` and through ``fastnoise apply`` on a small
generated ROS 2 bag holding every topic it names, and every one of those topics comes
out noised (or, for odometry, with its covariance table), message count kept."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("rosbags")
from test_ros_bags import cloud_msg, image_msg, imu_msg  # noqa: E402  (message builders)
from test_ros_gazebo_messages import baro_msg, mag_msg, navsat_msg, range_msg  # noqa: E402

from fastnoise import cli  # noqa: E402
from fastnoise.io.suite import load_suite  # noqa: E402

SUITES = sorted((Path(__file__).resolve().parents[1] / "examples" / "suites").glob("*.toml"))
N = 6  # messages per topic

# message type and builder (T, k) of each model's topics, as the suites use them
BUILDERS = {
    "imu": ("sensor_msgs/msg/Imu", lambda T, k: imu_msg(T, 10_000_000 * k, k)),
    "lidar": ("sensor_msgs/msg/PointCloud2", lambda T, k: cloud_msg(T, 0, k)),
    "carla_lidar": ("sensor_msgs/msg/PointCloud2", lambda T, k: cloud_msg(T, 0, k)),
    "camera": ("sensor_msgs/msg/Image", lambda T, k: image_msg(T, 0, k)),
    "range": ("sensor_msgs/msg/Range", range_msg),
    "navsat": ("sensor_msgs/msg/NavSatFix", navsat_msg),
    "magnetometer": ("sensor_msgs/msg/MagneticField", mag_msg),
    "air_pressure": ("sensor_msgs/msg/FluidPressure", baro_msg),
}


def _odom(T, k):
    from test_ros_bags import odom_msg

    return odom_msg(T, 0, k)


BUILDERS["odometry"] = ("nav_msgs/msg/Odometry", _odom)


def topics_of(path: Path) -> dict[str, str]:
    """topic -> model name of a suite file."""
    return {e.pattern: e.model for e in load_suite(path).entries if e.kind == "topic"}


def write_bag(path: Path, topics: dict[str, str]) -> Path:
    from rosbags.rosbag2 import StoragePlugin, Writer
    from rosbags.typesys import Stores, get_typestore

    ts = get_typestore(Stores.ROS2_HUMBLE)
    with Writer(path, version=9, storage_plugin=StoragePlugin.MCAP) as w:
        conns = {t: w.add_connection(t, BUILDERS[m][0], typestore=ts) for t, m in topics.items()}
        for k in range(N):
            for t, m in topics.items():
                msg = BUILDERS[m][1](ts.types, k)
                w.write(conns[t], 1_000_000 + 10_000_000 * k, ts.serialize_cdr(msg, BUILDERS[m][0]))
    return path


def read_raw(path: Path) -> dict[str, list[bytes]]:
    from rosbags.rosbag2 import Reader

    out: dict[str, list[bytes]] = {}
    with Reader(path) as r:
        for conn, _ts, raw in r.messages():
            out.setdefault(conn.topic, []).append(bytes(raw))
    return out


def test_there_is_a_suite_per_robot():
    names = {p.stem for p in SUITES}
    assert names == {"ground_robot", "drone", "car_carla", "underwater_dvl"}
    for p in SUITES:  # commented: a header that says what the robot carries and how to run
        head = p.read_text().splitlines()[:4]
        assert head[0].startswith("# ") and any(
            "fastnoise apply --config" in ln for ln in p.read_text().splitlines()
        )


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: p.stem)
def test_suite_dry_run_and_real_run(suite, tmp_path, capsys):
    topics = topics_of(suite)
    assert topics and set(topics.values()) <= set(BUILDERS)
    src = write_bag(tmp_path / "in", topics)
    cfg = ["--config", str(suite)]
    assert cli.main(["apply", *cfg, "--dry-run", str(src), str(tmp_path / "dry")]) == 0
    said = capsys.readouterr().out
    assert all(t in said for t in topics), said
    assert not (tmp_path / "dry").exists()  # a dry run writes nothing

    assert cli.main(["apply", *cfg, "--quiet", str(src), str(tmp_path / "out")]) == 0
    before, after = read_raw(src), read_raw(tmp_path / "out")
    assert set(after) == set(topics)
    for t, model in topics.items():
        assert len(after[t]) == N, t
        changed = sum(a != b for a, b in zip(before[t], after[t], strict=True))
        assert changed == noised_count(model), f"{t} ({model}): {changed} of {N} changed"


def noised_count(model: str) -> int:
    """Messages of a generated topic the model changes: all but the Range messages
    whose range is +-inf (REP 117's "too close" / "nothing detected", kept as they are)."""
    if model != "range":
        return N
    from rosbags.typesys import Stores, get_typestore

    T = get_typestore(Stores.ROS2_HUMBLE).types
    return sum(not np.isinf(range_msg(T, k).range) for k in range(N))
