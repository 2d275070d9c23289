"""ROS messages at the edges (issue 27): a CompressedImage with no bytes or bytes OpenCV
cannot read is a ValueError naming the message's format, never a cv2.error, and the
message is left as it was."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("rosbags")
pytest.importorskip("cv2")
from rosbags.typesys import Stores, get_typestore  # noqa: E402

from fastnoise.io.ros import TopicNoise  # noqa: E402
from fastnoise.io.suite import Suite  # noqa: E402

T = get_typestore(Stores.ROS2_HUMBLE).types


def image(fmt: str, data: bytes):
    stamp = T["builtin_interfaces/msg/Time"](sec=0, nanosec=0)
    hdr = T["std_msgs/msg/Header"](stamp=stamp, frame_id="cam")
    return T["sensor_msgs/msg/CompressedImage"](
        header=hdr, format=fmt, data=np.frombuffer(data, np.uint8).copy()
    )


@pytest.mark.parametrize(
    ("fmt", "data", "told"),
    [
        ("rgb8; jpeg compressed bgr8", b"", r"\('rgb8; jpeg compressed bgr8'\) has empty data"),
        ("png", b"", r"\('png'\) has empty data"),
        ("", b"", r"\(''\) has empty data"),
        ("png", b"\x89PNG\r\n\x1a\n" + bytes(40), r"\('png'\) could not be decoded"),
        ("jpeg", b"\xff\xd8\xff" + bytes(3), r"\('jpeg'\) could not be decoded"),
    ],
)
def test_undecodable_compressed_image_is_a_clear_value_error(fmt, data, told):
    suite = Suite.from_dict({"seed": 1, "topics": {"/c": {"model": "camera", "stddev": 0.1}}})
    noise = TopicNoise.from_suite(suite, "/c")
    msg = image(fmt, data)
    with pytest.raises(ValueError, match=told):
        noise.apply_inplace(msg)
    assert bytes(msg.data) == data and msg.format == fmt
