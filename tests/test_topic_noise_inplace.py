"""TopicNoise changes a message only when asked (issue 29): ``apply_inplace(msg)`` and
``noise(msg, inplace=True)`` noise the message itself, ``noise(msg, inplace=False)``
returns a noised copy and leaves the message as it was, and a call that does not say
which still noises in place, after a DeprecationWarning naming both spellings."""

from __future__ import annotations

import copy

import numpy as np
import pytest

pytest.importorskip("rosbags")
from rosbags.typesys import Stores, get_typestore  # noqa: E402

from fastnoise.io.ros import TopicNoise, image_array  # noqa: E402
from fastnoise.io.suite import Suite  # noqa: E402

T = get_typestore(Stores.ROS2_HUMBLE).types
SUITE = Suite.from_dict(
    {
        "seed": 3,
        "topics": {
            "/cam": {"model": "camera", "stddev": 0.05},
            "/imu": {"model": "imu", "rate": 100.0, "gyro": {"noise_stddev": 0.01}},
        },
    }
)


def image(k: int):
    px = np.random.default_rng(k).integers(0, 256, (6, 8), dtype=np.uint8)
    stamp = T["builtin_interfaces/msg/Time"](sec=k, nanosec=0)
    return T["sensor_msgs/msg/Image"](
        header=T["std_msgs/msg/Header"](stamp=stamp, frame_id="cam"),
        height=6,
        width=8,
        encoding="mono8",
        is_bigendian=0,
        step=8,
        data=px.reshape(-1),
    )


def imu(k: int):
    V, Q = T["geometry_msgs/msg/Vector3"], T["geometry_msgs/msg/Quaternion"]
    stamp = T["builtin_interfaces/msg/Time"](sec=0, nanosec=10_000_000 * k)
    return T["sensor_msgs/msg/Imu"](
        header=T["std_msgs/msg/Header"](stamp=stamp, frame_id="imu"),
        orientation=Q(x=0.0, y=0.0, z=0.0, w=1.0),
        orientation_covariance=np.full(9, -1.0),
        angular_velocity=V(x=0.1, y=0.2, z=0.3),
        angular_velocity_covariance=np.zeros(9),
        linear_acceleration=V(x=0.0, y=0.0, z=9.8),
        linear_acceleration_covariance=np.zeros(9),
    )


def test_copy_leaves_the_message_and_gives_the_in_place_bits():
    by_copy = TopicNoise.from_suite(SUITE, "/cam")
    in_place = TopicNoise.from_suite(SUITE, "/cam")
    for k in range(3):
        msg = image(k)
        before = msg.data.copy()
        got = by_copy(msg, inplace=False)
        assert got is not msg and got.data is not msg.data
        assert np.array_equal(msg.data, before)  # the input is untouched
        want = in_place.apply_inplace(image(k))
        assert np.array_equal(got.data, want.data)
        assert not np.array_equal(got.data, before)  # and it was noised
    assert by_copy.frame == in_place.frame == 3  # a copy is still the topic's next frame


def test_copy_of_a_recurrence_topic():
    # the IMU's biases and time steps advance the same way whichever spelling is used
    a, b = TopicNoise.from_suite(SUITE, "/imu"), TopicNoise.from_suite(SUITE, "/imu")
    for k in range(4):
        msg = imu(k)
        got = a(msg, inplace=False)
        want = b.apply_inplace(imu(k))
        assert msg.angular_velocity.x == 0.1 and np.all(msg.angular_velocity_covariance == 0)
        assert got.angular_velocity.x == want.angular_velocity.x != 0.1
        assert np.array_equal(got.angular_velocity_covariance, want.angular_velocity_covariance)


def test_inplace_true_is_apply_inplace():
    a, b = TopicNoise.from_suite(SUITE, "/cam"), TopicNoise.from_suite(SUITE, "/cam")
    msg = image(0)
    assert a(msg, inplace=True) is msg
    other = image(0)
    assert b.apply_inplace(other) is other
    assert np.array_equal(msg.data, other.data)
    assert not np.array_equal(msg.data, image(0).data)


def test_out_with_a_copy_becomes_the_copys_data():
    noise = TopicNoise.from_suite(SUITE, "/cam", "sensor_msgs/Image")
    msg = image(0)
    buf = np.empty(48, np.uint8)
    got = noise(msg, out=buf, inplace=False)
    assert got.data is buf and msg.data is not buf
    want = TopicNoise.from_suite(SUITE, "/cam").apply_inplace(image(0))
    assert np.array_equal(image_array(got), image_array(want))


def test_the_old_default_warns_and_still_noises_in_place():
    noise = TopicNoise.from_suite(SUITE, "/cam")
    msg = image(0)
    with pytest.warns(DeprecationWarning, match=r"noise\.apply_inplace\(msg\).*inplace=False"):
        got = noise(msg)
    assert got is msg
    want = TopicNoise.from_suite(SUITE, "/cam").apply_inplace(image(0))
    assert np.array_equal(msg.data, want.data)


def test_the_warning_points_at_the_callers_line():
    noise = TopicNoise.from_suite(SUITE, "/cam")
    with pytest.warns(DeprecationWarning) as rec:
        noise(image(0))
    assert rec[0].filename == __file__


def test_inplace_must_be_a_bool():
    noise = TopicNoise.from_suite(SUITE, "/cam")
    msg = image(0)
    before = copy.deepcopy(msg)
    with pytest.raises(TypeError, match=r"inplace='yes' is not allowed: it must be True or False"):
        noise(msg, inplace="yes")
    assert np.array_equal(msg.data, before.data) and noise.frame == 0
