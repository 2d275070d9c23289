"""Helpers of the live-node tests: synthetic sensor messages (rclpy), spinning until a
condition holds, and the suite the tests use."""

from __future__ import annotations

import array
import struct
import time
from collections.abc import Callable
from typing import Any

import numpy as np

SUITE = """seed = 11
[topics."/camera/image_raw"]
model = "camera"
stddev = 0.05

[topics."/scan_raw"]
model = "range"
stddev = 0.01

[topics."/points_raw"]
model = "lidar"
distance_noise_stddev_base = 0.02

[topics."/fast/scan_raw"]
model = "range"
stddev = 0.01
qos = "sensor_data"

[topics."/imu_raw"]
model = "imu"
rate = 100.0
gyro = { noise_stddev = 0.002 }
accel = { noise_stddev = 0.02 }

[topics."/sonar"]
model = "range"
stddev = 0.02

[topics."/gps/fix"]
model = "navsat"
horizontal_position = { stddev = 2e-5, bias_stddev = 3e-6 }
vertical_position = { stddev = 1.5 }

[topics."/mag"]
model = "magnetometer"
x = { stddev = 2e-6 }
z = { stddev = 4e-6 }

[topics."/baro"]
model = "air_pressure"
pressure = { stddev = 12.0, precision = 0.5 }

[topics."/camera/image_raw/compressed"]
model = "camera"
stddev = 0.05

[topics."/odom"]
model = "odometry"
"""


def bits(msg: Any) -> tuple:
    """Every field of an rclpy message, floats and arrays as their bytes (a record's
    CDR padding is not compared: rclpy leaves it uninitialized)."""
    out = []
    for name in msg.get_fields_and_field_types():
        v = getattr(msg, name)
        if hasattr(v, "get_fields_and_field_types"):
            out.append(bits(v))
        elif isinstance(v, float):
            out.append(struct.pack("<d", v))
        elif isinstance(v, array.array | np.ndarray):
            out.append(bytes(v.tobytes()))
        elif isinstance(v, list):
            out.append(tuple(bits(x) if hasattr(x, "get_fields_and_field_types") else x for x in v))
        else:
            out.append(v)
    return tuple(out)


def stamp(msg: Any, t_ns: int) -> Any:
    msg.header.stamp.sec = t_ns // 10**9
    msg.header.stamp.nanosec = t_ns % 10**9
    msg.header.frame_id = "sensor"
    return msg


def image(k: int, t_ns: int, h: int = 24, w: int = 32) -> Any:
    from sensor_msgs.msg import Image

    rng = np.random.default_rng(k)
    msg = stamp(Image(height=h, width=w, encoding="rgb8", step=w * 3), t_ns)
    msg.data = rng.integers(0, 256, h * w * 3, dtype=np.uint8).tobytes()
    return msg


def scan(k: int, t_ns: int, n: int = 90) -> Any:
    from sensor_msgs.msg import LaserScan

    msg = stamp(LaserScan(range_min=0.1, range_max=20.0, angle_increment=0.01), t_ns)
    msg.ranges = (1.0 + 0.01 * k + np.linspace(0.0, 5.0, n, dtype=np.float32)).tolist()
    return msg


def cloud(k: int, t_ns: int, n: int = 64) -> Any:
    from sensor_msgs.msg import PointCloud2, PointField

    msg = stamp(PointCloud2(height=1, width=n, point_step=16, row_step=16 * n), t_ns)
    msg.fields = [
        PointField(name=c, offset=4 * i, datatype=PointField.FLOAT32, count=1)
        for i, c in enumerate(["x", "y", "z", "intensity"])
    ]
    rng = np.random.default_rng(100 + k)
    pts = rng.uniform(-10.0, 10.0, (n, 4)).astype(np.float32)
    msg.data = pts.tobytes()
    msg.is_dense = True
    return msg


def imu(k: int, t_ns: int) -> Any:
    from sensor_msgs.msg import Imu

    msg = stamp(Imu(), t_ns)
    msg.angular_velocity.x, msg.angular_velocity.y, msg.angular_velocity.z = 0.1, -0.2, 0.01 * k
    a = msg.linear_acceleration
    a.x, a.y, a.z = 0.0, 0.1, 9.81
    return msg


def spin_until(executor: Any, done: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Spin ``executor`` until ``done()`` or ``timeout`` seconds; ``done()``'s last value."""
    end = time.monotonic() + timeout
    while not done() and time.monotonic() < end:
        executor.spin_once(timeout_sec=0.02)
    return done()


def sonar(k: int, t_ns: int) -> Any:
    from sensor_msgs.msg import Range

    return stamp(Range(min_range=0.05, max_range=4.0, range=1.0 + 0.01 * k), t_ns)


def navsat(k: int, t_ns: int) -> Any:
    from sensor_msgs.msg import NavSatFix

    return stamp(NavSatFix(latitude=47.0 + 1e-6 * k, longitude=8.5, altitude=400.0), t_ns)


def magnetic(k: int, t_ns: int) -> Any:
    from sensor_msgs.msg import MagneticField

    msg = stamp(MagneticField(), t_ns)
    msg.magnetic_field.x, msg.magnetic_field.y, msg.magnetic_field.z = 2e-5, 1e-6 * k, -4e-5
    return msg


def pressure(k: int, t_ns: int) -> Any:
    from sensor_msgs.msg import FluidPressure

    return stamp(FluidPressure(fluid_pressure=101325.0 - k), t_ns)


def compressed(k: int, t_ns: int, h: int = 24, w: int = 32) -> Any:
    """A PNG CompressedImage (lossless, so its decoded pixels are what was sent)."""
    import cv2
    from sensor_msgs.msg import CompressedImage

    rng = np.random.default_rng(100 + k)
    ok, png = cv2.imencode(".png", rng.integers(0, 256, (h, w, 3), dtype=np.uint8))
    assert ok
    msg = stamp(CompressedImage(format="png"), t_ns)
    msg.data = png.tobytes()
    return msg


def odometry(k: int, t_ns: int) -> Any:
    from nav_msgs.msg import Odometry

    msg = stamp(Odometry(child_frame_id="base_link"), t_ns)
    msg.pose.pose.position.x = 0.1 * k
    msg.pose.pose.orientation.w = 1.0
    msg.twist.twist.linear.x = 1.0
    return msg
