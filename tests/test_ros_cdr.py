"""fastnoise.io.ros.cdr: the fields of serialized sensor_msgs/Image and PointCloud2
read straight from CDR bytes written by rosbags (both byte orders), the record the
noise writes into, and the refusals of malformed buffers.

Checked exactly: every parsed field against the message serialized; the data view is
the buffer's own bytes; for frame_id lengths 0..7 (every alignment of what follows),
odd image sizes, several encodings and PointField orders; a record noised through the
``out`` protocol equals the same message deserialized, noised and serialized again,
bit for bit; every truncation of a record is refused with a ValueError naming the
type and the field.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

rosbags = pytest.importorskip("rosbags")

from rosbags.typesys import Stores, get_typestore  # noqa: E402

from fastnoise.io.ros import TopicNoise  # noqa: E402
from fastnoise.io.ros.cdr import (  # noqa: E402
    FRAME_ID_OFFSET,
    PARSERS,
    STAMP_OFFSET,
    CdrImage,
    CdrPointCloud2,
    EncapsulationError,
    header_of,
    parse_image,
    parse_pointcloud2,
)
from fastnoise.io.suite import Suite  # noqa: E402

TS = get_typestore(Stores.ROS2_HUMBLE)
T = TS.types
IMG = "sensor_msgs/msg/Image"
PC2 = "sensor_msgs/msg/PointCloud2"
FLOAT32, FLOAT64, UINT16, UINT8 = 7, 8, 4, 2


def header(frame_id: str, sec: int = 1_700_000_000, nanosec: int = 123_456_789):
    stamp = T["builtin_interfaces/msg/Time"](sec=sec, nanosec=nanosec)
    return T["std_msgs/msg/Header"](stamp=stamp, frame_id=frame_id)


def image_msg(frame_id: str, h: int, w: int, encoding: str, *, pad: int = 0, big: int = 0):
    px = {"mono8": 1, "mono16": 2, "rgb8": 3, "bgra8": 4, "32FC1": 4}[encoding]
    step = w * px + pad
    rng = np.random.default_rng(h * 31 + w)
    data = rng.integers(0, 256, h * step, dtype=np.uint8)
    if encoding == "32FC1":  # depths of 0.5 to 10 m, not random bit patterns
        data = rng.uniform(0.5, 10.0, h * step // 4).astype(np.float32).view(np.uint8)
    return T[IMG](
        header=header(frame_id),
        height=h,
        width=w,
        encoding=encoding,
        is_bigendian=big,
        step=step,
        data=data,
    )


def field(name: str, offset: int, datatype: int = FLOAT32, count: int = 1):
    return T["sensor_msgs/msg/PointField"](name=name, offset=offset, datatype=datatype, count=count)


XYZI = [field("x", 0), field("y", 4), field("z", 8), field("intensity", 12)]
# another order, other types and names of other lengths (every alignment of the u32s)
SHUFFLED = [
    field("ring", 0, UINT16),
    field("intensity", 2, UINT8),
    field("t", 4, FLOAT32),
    field("z", 8),
    field("y", 12),
    field("x", 16),
]


def cloud_msg(frame_id: str, h: int, w: int, fields=XYZI, step: int = 16, dense: bool = True):
    rng = np.random.default_rng(h * 7 + w)
    data = rng.uniform(-20.0, 20.0, h * w * step // 4).astype(np.float32).view(np.uint8)
    return T[PC2](
        header=header(frame_id),
        height=h,
        width=w,
        fields=list(fields),
        is_bigendian=False,
        point_step=step,
        row_step=w * step,
        data=data,
        is_dense=dense,
    )


def serialize(msg, msgtype: str, little: bool = True) -> bytes:
    return bytes(TS.serialize_cdr(msg, msgtype, little_endian=little))


def fields_of(msg) -> list[tuple]:
    return [(f.name, f.offset, f.datatype, f.count) for f in msg.fields]


# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("little", [True, False])
@pytest.mark.parametrize("frame_id", ["", "a", "ab", "abc", "abcd", "abcde", "abcdef", "camera7"])
def test_image_fields_every_alignment(frame_id: str, little: bool) -> None:
    for h, w, enc, pad, big in [
        (3, 5, "rgb8", 0, 0),
        (2, 7, "mono8", 3, 0),
        (4, 3, "mono16", 2, 1),
        (1, 1, "bgra8", 0, 0),
        (5, 2, "32FC1", 0, 0),
        (0, 0, "rgb8", 0, 0),
    ]:
        msg = image_msg(frame_id, h, w, enc, pad=pad, big=big)
        raw = serialize(msg, IMG, little)
        got = parse_image(raw)
        assert isinstance(got, CdrImage)
        assert got.header.frame_id == frame_id
        assert (got.header.stamp.sec, got.header.stamp.nanosec) == (1_700_000_000, 123_456_789)
        assert (got.height, got.width, got.encoding, got.is_bigendian, got.step) == (
            h,
            w,
            enc,
            big,
            msg.step,
        )
        assert got.data.dtype == np.uint8 and not got.data.flags.writeable
        assert np.array_equal(got.data, msg.data)
        base = np.frombuffer(raw, dtype=np.uint8)
        assert got.data.size == 0 or np.shares_memory(got.data, base)
        assert raw[got.data_offset : got.data_offset + msg.data.size] == msg.data.tobytes()
        assert got.size == len(raw)


@pytest.mark.parametrize("little", [True, False])
@pytest.mark.parametrize("frame_id", ["", "a", "ab", "abc", "abcd", "abcde", "abcdef", "lidar_7"])
def test_pointcloud2_fields_every_alignment(frame_id: str, little: bool) -> None:
    for h, w, fields, step, dense in [
        (1, 9, XYZI, 16, True),
        (3, 5, SHUFFLED, 20, False),
        (2, 4, [field("x", 0, FLOAT64), field("y", 8, FLOAT64), field("z", 16, FLOAT64)], 24, True),
        (0, 0, XYZI, 16, True),
        (1, 3, [], 4, True),
    ]:
        msg = cloud_msg(frame_id, h, w, fields, step, dense)
        raw = serialize(msg, PC2, little)
        got = parse_pointcloud2(raw)
        assert isinstance(got, CdrPointCloud2)
        assert got.header.frame_id == frame_id
        assert (got.height, got.width, got.point_step, got.row_step) == (h, w, step, w * step)
        assert got.is_bigendian == 0 and got.is_dense is dense
        assert fields_of(got) == fields_of(msg)
        assert np.array_equal(got.data, msg.data)
        assert raw[got.data_offset : got.data_offset + msg.data.size] == msg.data.tobytes()


def test_big_cloud_is_a_view_and_parsers_are_listed() -> None:
    msg = cloud_msg("os_sensor", 64, 2048)  # 2 MiB of points
    raw = serialize(msg, PC2)
    got = PARSERS["sensor_msgs/PointCloud2"](raw)
    assert got.data.size == 64 * 2048 * 16
    assert got.data.ctypes.data == np.frombuffer(raw, np.uint8)[got.data_offset :].ctypes.data
    assert PARSERS["sensor_msgs/Image"] is parse_image
    writable = parse_pointcloud2(bytearray(raw))  # a writable buffer gives a writable view
    assert writable.data.flags.writeable


def test_header_offsets() -> None:
    raw = serialize(image_msg("cam", 2, 2, "rgb8"), IMG)
    sec, nanosec = struct.unpack_from("<iI", raw, STAMP_OFFSET)
    assert (sec, nanosec) == (1_700_000_000, 123_456_789)
    assert struct.unpack_from("<I", raw, FRAME_ID_OFFSET)[0] == 4  # "cam" and its NUL
    assert raw[FRAME_ID_OFFSET + 4 : FRAME_ID_OFFSET + 7] == b"cam"
    h = header_of(raw)
    assert (h.stamp.sec, h.stamp.nanosec, h.frame_id) == (1_700_000_000, 123_456_789, "cam")
    assert header_of(serialize(cloud_msg("x", 1, 1), PC2, little=False)).frame_id == "x"


# ---------------------------------------------------------------------------------------
def _noise(topic: str, spec: dict, msgtype: str) -> TopicNoise:
    return TopicNoise.from_suite(
        Suite.from_dict({"seed": 5, "topics": {topic: spec}}), topic, msgtype
    )


CASES = [
    ("sensor_msgs/Image", IMG, {"model": "camera", "stddev": 0.05}, image_msg("cam", 7, 9, "rgb8")),
    (
        "sensor_msgs/Image",
        IMG,
        {"model": "camera", "stddev": 0.05},
        image_msg("c", 5, 3, "mono16", pad=2, big=1),  # padded rows, big-endian pixels
    ),
    ("sensor_msgs/Image", IMG, {"model": "depth", "stddev": 0.02}, image_msg("dep", 4, 6, "32FC1")),
    (
        "sensor_msgs/PointCloud2",
        PC2,
        {"model": "lidar", "distance_noise_stddev_base": 0.05},
        cloud_msg("velodyne", 4, 33, SHUFFLED, 20),
    ),
    (
        "sensor_msgs/PointCloud2",
        PC2,
        {"model": "carla_lidar", "keep_layout": True, "dropoff_general_rate": 0.5},
        cloud_msg("carla", 2, 40),  # drops points: is_dense becomes False
    ),
]


@pytest.mark.parametrize("little", [True, False])
@pytest.mark.parametrize(("mtype", "rtype", "spec", "msg"), CASES)
def test_record_bits_equal_the_deserialized_path(mtype, rtype, spec, msg, little) -> None:
    """Three messages of a topic noised in their records (the out protocol) are the
    bytes of the same messages deserialized, noised in place and serialized again."""
    raw = serialize(msg, rtype, little)
    by_record, by_message = _noise("/t", spec, mtype), _noise("/t", spec, mtype)
    for _ in range(3):
        parsed = PARSERS[mtype](raw)
        record, out = parsed.new_record()
        by_record.apply_inplace(parsed, None, out)
        got = parsed.finish(record).tobytes()
        want_msg = TS.deserialize_cdr(raw, rtype)
        by_message.apply_inplace(want_msg, None)
        want = serialize(want_msg, rtype, little)
        assert got == want
        assert got != raw  # noised
    if spec["model"] == "carla_lidar":
        assert parse_pointcloud2(got).is_dense is False


def test_record_without_noise_is_the_input() -> None:
    for raw in (
        serialize(image_msg("abc", 3, 4, "rgb8"), IMG),
        serialize(cloud_msg("ab", 2, 3, SHUFFLED, 20, dense=False), PC2, little=False),
    ):
        msg = parse_image(raw) if raw[FRAME_ID_OFFSET + 4 : FRAME_ID_OFFSET + 7] == b"abc" else None
        msg = msg or parse_pointcloud2(raw)
        record, out = msg.new_record()
        out[...] = msg.data
        assert msg.finish(record).tobytes() == raw


def test_finish_refuses_what_the_record_cannot_hold() -> None:
    raw = serialize(cloud_msg("a", 2, 3), PC2)
    msg = parse_pointcloud2(raw)
    record, _ = msg.new_record()
    msg.data = np.zeros(5, np.uint8)
    with pytest.raises(ValueError, match=r"noised data \(\(5,\)\) does not fit the 96 bytes"):
        msg.finish(record)
    msg.data = np.full(96, 7, np.uint8)  # elsewhere, but the right size: copied in
    assert np.all(msg.finish(record)[msg.data_offset : msg.data_offset + 96] == 7)
    msg.height, msg.width = 1, 6
    with pytest.raises(ValueError, match=r"points cannot be removed in the serialized"):
        msg.finish(record)


# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "parse", "what"),
    [
        (serialize(image_msg("cam", 3, 4, "rgb8"), IMG), parse_image, "sensor_msgs/Image"),
        (serialize(cloud_msg("lidar", 1, 3), PC2), parse_pointcloud2, "sensor_msgs/PointCloud2"),
    ],
)
def test_every_truncation_is_refused(raw: bytes, parse, what: str) -> None:
    for n in range(len(raw)):
        with pytest.raises(ValueError, match=rf"serialized {what}: ") as err:
            parse(raw[:n])
        assert not isinstance(err.value, EncapsulationError) or n >= 2
    parse(raw + b"\0\0\0")  # up to 3 bytes of padding after the last field
    with pytest.raises(ValueError, match=r"4 bytes after the last field.*not this message"):
        parse(raw + b"\0\0\0\0")


def test_corrupt_buffers_are_refused_with_the_field() -> None:
    msg = image_msg("cam", 3, 4, "rgb8")
    raw = bytearray(serialize(msg, IMG))
    data_len_at = len(raw) - msg.data.size - 4
    bad = bytearray(raw)
    struct.pack_into("<I", bad, data_len_at, 10**9)
    with pytest.raises(ValueError, match=r"field 'data' announces 1000000000 x 1 bytes.*past"):
        parse_image(bytes(bad))
    bad = bytearray(raw)
    struct.pack_into("<I", bad, FRAME_ID_OFFSET, 2**31)  # frame_id longer than the buffer
    with pytest.raises(ValueError, match=r"field 'header.frame_id' announces"):
        parse_image(bytes(bad))
    bad = bytearray(raw)
    bad[FRAME_ID_OFFSET + 4 + 3] = ord("x")  # frame_id's NUL overwritten
    with pytest.raises(ValueError, match=r"string 'header.frame_id' at byte 16 does not end"):
        parse_image(bytes(bad))
    bad = bytearray(raw)
    bad[FRAME_ID_OFFSET + 4] = 0xFF  # not UTF-8
    with pytest.raises(ValueError, match=r"string 'header.frame_id' .* is not UTF-8"):
        parse_image(bytes(bad))
    for kind in (b"\x00\x07", b"\x00\x03", b"\x12\x34"):  # XCDR2, PL_CDR, garbage
        with pytest.raises(EncapsulationError, match=r"is not plain CDR"):
            parse_image(kind + bytes(raw[2:]))
    with pytest.raises(ValueError, match=r"fewer than the 4-byte encapsulation header"):
        parse_image(b"\x00\x01")
    with pytest.raises(TypeError, match=r"must be a bytes-like object, not str"):
        parse_image("\x00\x01\x00\x00")  # type: ignore[arg-type]
    cloud = bytearray(serialize(cloud_msg("ab", 1, 2), PC2))
    fields_at = FRAME_ID_OFFSET + 4 + 4 + 8  # "ab\0" padded to 4, height, width
    struct.pack_into("<I", cloud, fields_at, 10**8)
    with pytest.raises(ValueError, match=r"announces 100000000 PointFields"):
        parse_pointcloud2(bytes(cloud))


def test_no_rclpy_or_rosbags_import() -> None:
    import subprocess
    import sys

    code = (
        "import sys, fastnoise.io.ros.cdr; "
        "print([m for m in ('rclpy', 'rosbags') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
