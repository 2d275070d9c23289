"""Hypothesis fuzz of the ROS message bytes (issue #27, item 5): the serialized CDR of
a valid message of every type a model declares (``registry`` ``messages``), damaged
(truncated, bytes overwritten, bytes inserted or removed, or random bytes after a CDR
header), goes through what ``fastnoise apply`` does with each record: ``Codec``
deserializes it, the topic's ``TopicNoise`` noises it (into the record where it can,
``_noise_in_record``), the codec serializes it. Each record either comes out or raises
an exception of the kinds ``apply`` turns into its one-line error with the topic and
message index; never another exception, never a crash or hang. Small by default
(seconds); ``FASTNOISE_SLOW=1`` runs 20 times as many examples."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("rosbags")
cv2 = pytest.importorskip("cv2")
from _fuzz_common import fuzz_settings  # noqa: E402
from hypothesis import HealthCheck, given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rosbags.interfaces import MessageDefinitionFormat, Nodetype  # noqa: E402
from rosbags.serde import SerdeError  # noqa: E402
from rosbags.typesys import Stores, get_typestore  # noqa: E402

from fastnoise.core import registry  # noqa: E402
from fastnoise.io.apply.bag import _noise_in_record  # noqa: E402
from fastnoise.io.ros import TopicNoise  # noqa: E402
from fastnoise.io.ros.bags import Codec  # noqa: E402
from fastnoise.io.suite import Suite  # noqa: E402

FUZZ = fuzz_settings(HealthCheck.data_too_large)
STORE = get_typestore(Stores.ROS2_HUMBLE)
C = {"stddev": 0.1}
# one model per message type, with the parameters its handler needs
MODELS = {
    "nav_msgs/Odometry": ("odometry", {}),
    "sensor_msgs/Imu": ("imu", {"gyro": {"noise_density": 1e-3}, "rate": 100}),
    "sensor_msgs/Image": ("camera", {"stddev": 0.1}),
    "sensor_msgs/CompressedImage": ("camera", {"stddev": 0.1}),
    "sensor_msgs/PointCloud2": ("lidar", {}),
    "sensor_msgs/LaserScan": ("range", {"stddev": 0.02}),
    "sensor_msgs/Range": ("range", {"stddev": 0.02}),
    "sensor_msgs/MagneticField": ("magnetometer", {"x": C}),
    "sensor_msgs/NavSatFix": ("navsat", {"horizontal_position": C}),
    "sensor_msgs/FluidPressure": ("air_pressure", {"pressure": C}),
}
# what a damaged record may raise (apply reports each as "topic T message I: ..."):
# rosbags' SerdeError ("Could not deserialize 'T': ..."), and ValueError from fastnoise's
# checks of what was read (an image or cloud whose sizes do not add up)
DAMAGE = (SerdeError, ValueError)


def _value(store, node):
    kind, detail = node
    if kind == Nodetype.BASE:
        t = detail[0]
        return "f" if t == "string" else False if t == "bool" else np.dtype(t).type(1)
    if kind == Nodetype.NAME:
        return _build(store, detail)
    sub, n = detail
    if sub[0] == Nodetype.BASE and sub[1][0] not in ("string", "bool"):
        return np.ones(n, dtype=sub[1][0])
    return [_value(store, sub) for _ in range(n)]


def _build(store, name):
    _, fields = store.fielddefs[name]
    return store.types[name](**{f: _value(store, node) for f, node in fields})


def _seed_message(typ):
    """A valid message of ``typ`` (ROS 2 name) that its handler noises."""
    name = typ.replace("/", "/msg/", 1)
    msg = _build(STORE, name)
    if typ == "sensor_msgs/Image":
        msg.height, msg.width, msg.encoding, msg.step = 3, 4, "rgb8", 12
        msg.data = np.arange(36, dtype=np.uint8)
    elif typ == "sensor_msgs/CompressedImage":
        ok, png = cv2.imencode(".png", np.arange(48, dtype=np.uint8).reshape(4, 4, 3))
        assert ok
        msg.format, msg.data = "png", png.reshape(-1)
    elif typ == "sensor_msgs/PointCloud2":
        field = STORE.types["sensor_msgs/msg/PointField"]
        msg.fields = [field(name=n, offset=4 * i, datatype=7, count=1) for i, n in enumerate("xyz")]
        msg.height, msg.width, msg.point_step, msg.row_step = 1, 5, 12, 60
        msg.is_bigendian = False
        msg.data = np.linspace(1.0, 9.0, 15, dtype=np.float32).view(np.uint8)
    elif typ == "sensor_msgs/LaserScan":
        msg.range_min, msg.range_max = 0.1, 30.0
        msg.ranges = np.linspace(0.0, 40.0, 9, dtype=np.float32)
        msg.intensities = np.zeros(9, dtype=np.float32)
    elif typ == "sensor_msgs/Range":
        msg.min_range, msg.max_range, msg.range = 0.1, 4.0, 1.5
    elif typ == "sensor_msgs/NavSatFix":
        msg.latitude, msg.longitude, msg.altitude = 47.0, 8.0, 400.0
    return STORE.serialize_cdr(msg, name)


SEEDS = {typ: bytes(_seed_message(typ)) for typ in MODELS}


def _codec(typ):
    fmt = SimpleNamespace(format=MessageDefinitionFormat.NONE, data="")
    return Codec(SimpleNamespace(msgtype=typ.replace("/", "/msg/", 1), msgdef=fmt), False)


def _record(typ, raw):
    """One record through apply's path (fastnoise.io.apply.bag): the bytes written out."""
    model, params = MODELS[typ]
    suite = Suite.from_dict({"seed": 5, "topics": {"/t": {"model": model, **params}}})
    noise = TopicNoise.from_suite(suite, "/t")
    codec = _codec(typ)
    msg = codec.deserialize(raw)
    data = _noise_in_record(noise, msg, 10**9, raw)
    if data is None:
        noise(msg, 10**9)
        data = codec.serialize(msg, raw)
    return bytes(data)


def test_every_declared_message_type_is_fuzzed():
    declared = {t for d in registry.models() for t in (d.messages or {})}
    assert declared == set(MODELS)


@pytest.mark.parametrize("typ", sorted(MODELS))
def test_the_undamaged_records_are_noised(typ):
    out = _record(typ, SEEDS[typ])
    assert len(out) >= 4 and out[:4] == SEEDS[typ][:4]


@st.composite
def damaged(draw):
    typ = draw(st.sampled_from(sorted(MODELS)))
    raw = bytearray(SEEDS[typ])
    how = draw(st.sampled_from(["truncate", "overwrite", "insert", "delete", "random"]))
    if how == "truncate":
        raw = raw[: draw(st.integers(0, len(raw) - 1))]
    elif how == "overwrite":
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(raw) - 1))
            word = draw(st.sampled_from([b"\xff", b"\x00", b"\x7f\xff\xff\xff", b"\xff" * 4]))
            raw[at : at + len(word)] = word
            raw = raw[: len(SEEDS[typ])] if len(raw) > len(SEEDS[typ]) else raw
    elif how == "insert":
        at = draw(st.integers(0, len(raw)))
        raw[at:at] = draw(st.binary(min_size=1, max_size=8))
    elif how == "delete":
        at = draw(st.integers(0, len(raw) - 1))
        del raw[at : at + draw(st.integers(1, 8))]
    else:
        raw = bytearray(b"\x00\x01\x00\x00") + bytearray(draw(st.binary(max_size=200)))
    return typ, bytes(raw)


@FUZZ
@given(case=damaged())
def test_damaged_records_are_written_or_refused(case):
    typ, raw = case
    try:
        out = _record(typ, raw)
    except DAMAGE:
        return
    assert isinstance(out, bytes)
