"""Per-message noise of the Gazebo sensors' ROS messages (TopicNoise, what ``fastnoise
apply`` and a node run) beside the numpy a user writes in a callback: a NavSatFix
(latitude, longitude, altitude and the diagonal position covariance) and a
MagneticField (three axes and their covariance). Both sides start from the
deserialized rosbags message and leave it noised, single thread.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("rosbags")
from rosbags.typesys import Stores, get_typestore  # noqa: E402

from fastnoise.io.ros import TopicNoise  # noqa: E402
from fastnoise.io.suite.suite import Suite  # noqa: E402

T = get_typestore(Stores.ROS2_HUMBLE).types
H = {"stddev": 2e-5, "bias_mean": 1e-5}  # deg
V = {"stddev": 1.5}  # m
MAG = {"stddev": 2e-6}  # T
SUITE = Suite.from_dict(
    {
        "seed": 1,
        "topics": {
            "/fix": {"model": "navsat", "horizontal_position": H, "vertical_position": V},
            "/mag": {"model": "magnetometer", "x": MAG, "y": MAG, "z": MAG},
        },
    }
)


def _header():
    stamp = T["builtin_interfaces/msg/Time"](sec=1, nanosec=0)
    return T["std_msgs/msg/Header"](stamp=stamp, frame_id="gps")


def navsat_msg():
    return T["sensor_msgs/msg/NavSatFix"](
        header=_header(),
        status=T["sensor_msgs/msg/NavSatStatus"](status=0, service=1),
        latitude=48.1,
        longitude=11.5,
        altitude=520.0,
        position_covariance=np.zeros(9),
        position_covariance_type=0,
    )


def mag_msg():
    V3 = T["geometry_msgs/msg/Vector3"]
    return T["sensor_msgs/msg/MagneticField"](
        header=_header(),
        magnetic_field=V3(x=2e-5, y=-1e-6, z=-4.3e-5),
        magnetic_field_covariance=np.zeros(9),
    )


# ---- NavSatFix --------------------------------------------------------------------------
@pytest.mark.benchmark(group="ros-navsat-msg")
def test_fastnoise_navsat_message(benchmark):
    msg, noise = navsat_msg(), TopicNoise.from_suite(SUITE, "/fix")

    def run():
        msg.latitude, msg.longitude, msg.altitude = 48.1, 11.5, 520.0
        noise(msg)

    benchmark(run)


@pytest.mark.benchmark(group="ros-navsat-msg")
def test_numpy_navsat_message(benchmark):
    msg, rng = navsat_msg(), np.random.default_rng(1)
    bias = rng.normal(1e-5, 0.0) * (1 if rng.random() < 0.5 else -1)

    def run():
        msg.latitude, msg.longitude, msg.altitude = 48.1, 11.5, 520.0
        e = rng.normal(0.0, [2e-5, 2e-5, 1.5])
        msg.latitude += e[0] + bias
        msg.longitude += e[1] + bias
        msg.altitude += e[2]
        var = 2e-5**2 + 1e-5**2
        lat = math.radians(msg.latitude)
        w = math.sqrt(1 - 0.00669437999014 * math.sin(lat) ** 2)
        deg = math.pi / 180
        cov = np.zeros(9)
        cov[0] = var * (6378137.0 / w * math.cos(lat) * deg) ** 2
        cov[4] = var * (6378137.0 * (1 - 0.00669437999014) / w**3 * deg) ** 2
        cov[8] = 1.5**2
        msg.position_covariance = cov
        msg.position_covariance_type = 2

    benchmark(run)


# ---- MagneticField ----------------------------------------------------------------------
@pytest.mark.benchmark(group="ros-magnetic-field-msg")
def test_fastnoise_magnetic_field_message(benchmark):
    msg, noise = mag_msg(), TopicNoise.from_suite(SUITE, "/mag")
    benchmark(noise, msg)


@pytest.mark.benchmark(group="ros-magnetic-field-msg")
def test_numpy_magnetic_field_message(benchmark):
    msg, rng = mag_msg(), np.random.default_rng(1)

    def run():
        f = msg.magnetic_field
        e = rng.normal(0.0, 2e-6, 3)
        f.x, f.y, f.z = f.x + e[0], f.y + e[1], f.z + e[2]
        cov = np.zeros(9)
        cov[[0, 4, 8]] = 2e-6**2
        msg.magnetic_field_covariance = cov

    benchmark(run)
