"""TopicNoise on ``rclpy`` messages (what a live node receives) gives the same bits as
on the ``rosbags`` messages ``fastnoise apply`` reads, for every handled message type,
and assigns values of the types rclpy's setters accept.

rclpy is not part of ``.[test]``: this module runs where the ROS 2 wheels are installed
(the ``ros2`` extra's venv) with rosbags beside them, and is skipped elsewhere.
"""

from __future__ import annotations

import array
import copy
import importlib

import numpy as np
import pytest

pytest.importorskip("rosbags")
pytest.importorskip("sensor_msgs.msg", reason="needs the ROS 2 wheels (the ros2 extra)")

from test_ros_bags import TS2, cloud_msg, image_msg, imu_msg, odom_msg, scan_msg  # noqa: E402
from test_ros_gazebo_messages import baro_msg, mag_msg, navsat_msg, range_msg  # noqa: E402

from fastnoise.io.ros import TopicNoise  # noqa: E402
from fastnoise.io.suite import Suite  # noqa: E402

SUITE = Suite.from_dict(
    {
        "seed": 23,
        "topics": {
            "/imu": {"model": "imu", "gyro": {"noise_stddev": 0.01}, "rate": 100},
            "/scan": {"model": "range", "stddev": 0.03},
            "/sonar": {"model": "range", "stddev": 0.02, "bias_mean": 0.01},
            "/points": {"model": "lidar", "distance_noise_stddev_base": 0.05},
            "/carla": {"model": "carla_lidar", "noise_stddev": 0.02},
            "/cam": {"model": "camera", "stddev": 0.02},
            "/odom": {"model": "odometry"},
            "/fix": {"model": "navsat", "horizontal_position": {"stddev": 1e-5}},
            "/mag": {"model": "magnetometer", "x": {"stddev": 1e-6}},
            "/baro": {"model": "air_pressure", "pressure": {"stddev": 10.0}},
        },
    }
)
T = TS2.types
# topic -> builder of message k as rosbags gives it
BUILD = {
    "/imu": lambda k: imu_msg(T, 10_000_000 * k, k),
    "/scan": lambda k: scan_msg(T, 0, k),
    "/sonar": lambda k: range_msg(T, k),
    "/points": lambda k: cloud_msg(T, 0, k),
    "/carla": lambda k: cloud_msg(T, 0, k),
    "/cam": lambda k: image_msg(T, 0, k),
    "/odom": lambda k: odom_msg(T, 0, k),
    "/fix": lambda k: navsat_msg(T, k),
    "/mag": lambda k: mag_msg(T, k),
    "/baro": lambda k: baro_msg(T, k),
}


def _rclpy_class(typename: str):
    pkg, name = typename.split("/")[0], typename.split("/")[-1]
    return getattr(importlib.import_module(f"{pkg}.msg"), name)


def to_rclpy(src, cls):
    """The rclpy message of class ``cls`` with the values of the rosbags message ``src``."""
    dst = cls()
    for name, typ in cls.get_fields_and_field_types().items():
        if not hasattr(src, name):  # a field newer than the rosbags type (Range.variance)
            continue
        value = getattr(src, name)
        if typ.startswith("sequence<") and "/" in typ:
            elem = _rclpy_class(typ[len("sequence<") : -1])
            setattr(dst, name, [to_rclpy(v, elem) for v in value])
        elif "/" in typ:
            setattr(dst, name, to_rclpy(value, _rclpy_class(typ)))
        else:
            setattr(dst, name, value)
    return dst


def plain(msg, fields=None):
    """A message as nested tuples of (field, value), arrays as (dtype kind, bytes)."""
    if fields is None:
        fields = (
            list(type(msg).get_fields_and_field_types())
            if hasattr(type(msg), "get_fields_and_field_types")
            else [f for f in msg.__dataclass_fields__ if f != "__msgtype__" and not f.isupper()]
        )
    out = []
    for name in fields:
        v = getattr(msg, name)
        if hasattr(v, "__dataclass_fields__") or hasattr(type(v), "get_fields_and_field_types"):
            v = plain(v)
        elif isinstance(v, list) and v and not isinstance(v[0], (int, float)):
            v = tuple(plain(x) for x in v)
        elif isinstance(v, (np.ndarray, array.array, bytes, list)):
            a = np.asarray(v)
            v = (a.dtype.kind, a.astype(a.dtype.newbyteorder("<")).tobytes())
        elif isinstance(v, float):
            v = np.float64(v).tobytes()
        out.append((name, v))
    return tuple(out)


@pytest.mark.parametrize("topic", list(BUILD))
def test_rclpy_messages_get_the_bits_of_rosbags_messages(topic):
    offline = TopicNoise.from_suite(SUITE, topic)
    live = TopicNoise.from_suite(SUITE, topic)
    for k in range(4):
        src = BUILD[topic](k)
        msg = to_rclpy(src, _rclpy_class(src.__msgtype__))
        want = offline.apply_inplace(copy.deepcopy(src))
        got = live.apply_inplace(msg)
        assert got is msg
        common = [f for f in type(msg).get_fields_and_field_types() if hasattr(want, f)]
        assert plain(got, common) == plain(want, common)
        if topic == "/sonar":  # Range.variance (ROS 2 Jazzy and later): sigma^2 in m^2
            assert got.variance == 0.02**2 + 0.01**2


def test_rclpy_field_types_after_noise():
    """What the handlers assign passed rclpy's setters, and reads back in its types."""
    imu = TopicNoise.from_suite(SUITE, "/imu")
    m = imu.apply_inplace(to_rclpy(BUILD["/imu"](0), _rclpy_class("sensor_msgs/Imu")))
    assert isinstance(m.angular_velocity_covariance, np.ndarray)
    assert m.angular_velocity_covariance.dtype == np.float64
    scan = TopicNoise.from_suite(SUITE, "/scan")
    s = scan.apply_inplace(to_rclpy(BUILD["/scan"](0), _rclpy_class("sensor_msgs/LaserScan")))
    assert isinstance(s.ranges, array.array) and s.ranges.typecode == "f"
    cam = TopicNoise.from_suite(SUITE, "/cam")
    c = cam.apply_inplace(to_rclpy(BUILD["/cam"](0), _rclpy_class("sensor_msgs/Image")))
    assert isinstance(c.data, array.array) and c.data.typecode == "B"
    fix = TopicNoise.from_suite(SUITE, "/fix")
    f = fix.apply_inplace(to_rclpy(BUILD["/fix"](0), _rclpy_class("sensor_msgs/NavSatFix")))
    assert f.position_covariance_type == f.COVARIANCE_TYPE_DIAGONAL_KNOWN
    assert isinstance(f.latitude, float)
