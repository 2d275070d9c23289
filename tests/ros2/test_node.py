"""The live node (fastnoise.ros2.NoiseNode, ``fastnoise node``) against real rclpy and
Fast DDS: the same bits as ``fastnoise apply``, QoS mismatch detection, malformed
messages survived, diagnostics, and a multi-process run shut down by SIGINT with
nothing lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from _ros2_support import (
    SUITE,
    bits,
    cloud,
    compressed,
    image,
    imu,
    magnetic,
    navsat,
    odometry,
    pressure,
    scan,
    sonar,
    spin_until,
)

from fastnoise.io.ros import TopicNoise
from fastnoise.io.suite import Suite, load_suite
from fastnoise.ros2 import NoiseNode, best_executor, output_topic, qos_profile
from fastnoise.ros2.qos import incompatible_text

HERE = Path(__file__).resolve().parent
T0 = 1_700_000_000 * 10**9


def counter(node: NoiseNode, topic: str, name: str) -> int:
    """A counter of the node's topic, 0 while the topic is not subscribed yet (a range
    topic waits for a publisher to tell LaserScan from Range)."""
    c = node.topics.get(topic)
    return 0 if c is None else getattr(c, name)


def write_suite(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "suite.toml"
    path.write_text(SUITE + extra)
    return path


class Client:
    """A test node: publishers of raw topics, subscribers of noised ones."""

    def __init__(self, context, name: str = "client") -> None:
        import rclpy

        self.node = rclpy.create_node(name, context=context)
        self.got: dict[str, list] = {}
        self.pubs: dict[str, object] = {}
        self.subs: dict[str, object] = {}

    def publisher(self, cls, topic: str, qos=None):
        self.pubs[topic] = self.node.create_publisher(cls, topic, qos or qos_profile(None))
        return self.pubs[topic]

    def subscribe(self, cls, topic: str, qos=None) -> list:
        box = self.got.setdefault(topic, [])
        self.subs[topic] = self.node.create_subscription(
            cls, topic, box.append, qos or qos_profile(None)
        )
        return box


def executor_with(context, *nodes):
    ex = best_executor(context)
    for n in nodes:
        ex.add_node(n)
    return ex


def matched(ex, client: Client, topics) -> None:
    """Wait until every publisher of ``client`` and its subscribers are matched."""
    assert spin_until(
        ex,
        lambda: (
            all(client.pubs[t].get_subscription_count() > 0 for t in topics)
            and all(client.node.count_publishers(t) > 0 for t in client.got)
        ),
    ), "the node's subscriptions and publishers were not discovered"


# ---------------------------------------------------------------------------------------
def test_output_topic_rule() -> None:
    entry = load_suite_text(SUITE).for_topic("/scan_raw")
    assert output_topic(entry, "/scan_raw") == "/scan"
    assert output_topic(entry, "/camera/image_raw") == "/camera/image"
    assert output_topic(entry, "/points") == "/points/noisy"


def load_suite_text(text: str) -> Suite:
    import tomllib

    return Suite.from_dict(tomllib.loads(text))


def test_suite_qos_option() -> None:
    suite = load_suite_text(SUITE)
    assert suite.for_topic("/fast/scan_raw").qos == "sensor_data"
    assert suite.for_topic("/scan_raw").qos is None
    with pytest.raises(ValueError, match=r"qos='fast' is not allowed: use one of"):
        load_suite_text('[topics."/a"]\nmodel = "camera"\nqos = "fast"\n')
    from rclpy.qos import ReliabilityPolicy

    assert qos_profile(None).reliability == ReliabilityPolicy.RELIABLE
    assert qos_profile(None).depth == 10
    assert qos_profile("sensor_data").reliability == ReliabilityPolicy.BEST_EFFORT
    with pytest.raises(ValueError, match=r"depth=0 is not allowed"):
        qos_profile("reliable", depth=0)


def test_bad_arguments(context, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"diagnostics_period=-1 is not allowed"):
        NoiseNode(write_suite(tmp_path), context=context, diagnostics_period=-1)
    with pytest.raises(ValueError, match=r"cannot read the suite"):
        NoiseNode(tmp_path / "missing.toml", context=context)


# ---------------------------------------------------------------------------------------
def _messages() -> dict[str, list]:
    """topic -> the raw messages the bit-identity test sends (several per topic, stamps
    10 ms apart)."""
    makers = {
        "/camera/image_raw": image,
        "/scan_raw": scan,
        "/points_raw": cloud,
        "/imu_raw": imu,
        "/sonar": sonar,
        "/gps/fix": navsat,
        "/mag": magnetic,
        "/baro": pressure,
        "/camera/image_raw/compressed": compressed,
        "/odom": odometry,
    }
    return {t: [make(k, T0 + k * 10**7) for k in range(6)] for t, make in makers.items()}


def _offline(suite_path: Path, msgs: dict[str, list], tmp_path: Path) -> dict[str, list[bytes]]:
    """``fastnoise apply`` of a ROS 2 bag holding ``msgs``: topic -> noised CDR records."""
    from rclpy.serialization import serialize_message
    from rosbags.rosbag2 import Reader, Writer
    from rosbags.typesys import Stores, get_typestore

    store = get_typestore(Stores.ROS2_KILTED)  # the rclpy wheels are Kilted (Range has variance)
    bag, out = tmp_path / "in", tmp_path / "out"
    with Writer(bag, version=9) as w:
        conns = {
            t: w.add_connection(
                t,
                f"{type(m[0]).__module__.split('.')[0]}/msg/{type(m[0]).__name__}",
                typestore=store,
            )
            for t, m in msgs.items()
        }
        rows = sorted(
            (T0 + k * 10**7 + i, t, serialize_message(m))
            for i, (t, ms) in enumerate(msgs.items())
            for k, m in enumerate(ms)
        )
        for ts, t, raw in rows:
            w.write(conns[t], ts, raw)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "fastnoise",
            "apply",
            "--config",
            str(suite_path),
            str(bag),
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    result: dict[str, list[bytes]] = {t: [] for t in msgs}
    with Reader(out) as r:
        for conn, _ts, raw in r.messages():
            result[conn.topic].append(bytes(raw))
    return result


def test_live_bits_equal_offline(context, tmp_path: Path) -> None:
    """A recorded bag noised by ``fastnoise apply`` and the same messages played live
    through the node give identical messages, field for field and bit for bit, on
    every topic and type (Image, LaserScan, PointCloud2, Imu, Range, NavSatFix,
    MagneticField, FluidPressure, CompressedImage (PNG), Odometry). The Range topic's
    type is known only once its publisher appears (the range model noises LaserScan
    and Range)."""
    from rclpy.serialization import deserialize_message

    suite_path = write_suite(tmp_path)
    msgs = _messages()
    offline = _offline(suite_path, msgs, tmp_path)

    node = NoiseNode(suite_path, context=context)
    client = Client(context)
    for t, ms in msgs.items():
        client.publisher(type(ms[0]), t)
        client.subscribe(type(ms[0]), output_topic(None, t))
    ex = executor_with(context, node, client.node)
    matched(ex, client, msgs)
    for k in range(len(next(iter(msgs.values())))):
        for t, ms in msgs.items():
            client.pubs[t].publish(ms[k])
        ex.spin_once(timeout_sec=0.01)
    total = sum(len(ms) for ms in msgs.values())
    assert spin_until(ex, lambda: sum(len(v) for v in client.got.values()) == total)
    for t, ms in msgs.items():
        cls = type(ms[0])
        live = [bits(m) for m in client.got[output_topic(None, t)]]
        assert len(live) == len(ms) == len(offline[t])
        assert live == [bits(deserialize_message(r, cls)) for r in offline[t]], (
            f"{t}: live and offline messages differ"
        )
        assert all(a != bits(b) for a, b in zip(live, ms, strict=True)), f"{t}: not noised"
    for t in msgs:
        c = node.topics[t]
        assert (c.received, c.published, c.skipped) == (len(msgs[t]), len(msgs[t]), 0)
    # Image and PointCloud2 went the serialized path (raw CDR in and out), the rest not
    serialized = {t for t, c in node.topics.items() if c.serialized}
    assert serialized == {"/camera/image_raw", "/points_raw"}
    ex.shutdown()
    node.destroy_node()


# ---------------------------------------------------------------------------------------
def test_malformed_messages_are_skipped_and_the_node_goes_on(context, tmp_path: Path) -> None:
    """An unknown image encoding and a truncated PointCloud2 are logged with topic and
    index and skipped; the node goes on. A skipped message keeps its index (message k
    received is frame k): the next good message is noised as message 1."""
    from sensor_msgs.msg import Image, PointCloud2

    suite_path = write_suite(tmp_path)
    node = NoiseNode(suite_path, context=context)
    client = Client(context)
    client.publisher(Image, "/camera/image_raw")
    client.publisher(PointCloud2, "/points_raw")
    images = client.subscribe(Image, "/camera/image")
    clouds = client.subscribe(PointCloud2, "/points")
    ex = executor_with(context, node, client.node)
    matched(ex, client, ["/camera/image_raw", "/points_raw"])

    bad_image = image(0, T0)
    bad_image.encoding = "yuv422"
    bad_cloud = cloud(0, T0)
    bad_cloud.data = bytes(bad_cloud.data)[:100]  # truncated: 64 points promised
    client.pubs["/camera/image_raw"].publish(bad_image)
    client.pubs["/points_raw"].publish(bad_cloud)
    assert spin_until(
        ex,
        lambda: (
            counter(node, "/camera/image_raw", "skipped") + counter(node, "/points_raw", "skipped")
            == 2
        ),
    )
    good_image, good_cloud = image(1, T0 + 10**7), cloud(1, T0 + 10**7)
    client.pubs["/camera/image_raw"].publish(good_image)
    client.pubs["/points_raw"].publish(good_cloud)
    assert spin_until(ex, lambda: len(images) == 1 and len(clouds) == 1)

    suite = load_suite(suite_path)
    want = TopicNoise.from_suite(
        suite, "/camera/image_raw", "sensor_msgs/Image", first_frame=1
    ).apply_inplace(image(1, T0 + 10**7))
    assert bytes(images[0].data) == bytes(np.asarray(want.data, dtype=np.uint8))
    assert images[0].header.stamp == good_image.header.stamp
    c = node.topics["/points_raw"]
    assert (c.received, c.published, c.skipped) == (2, 1, 1)
    ex.shutdown()
    node.destroy_node()


def test_malformed_serialized_messages_are_skipped(context, tmp_path: Path) -> None:
    """On the serialized path (Image, PointCloud2 taken as CDR bytes): a truncated
    record, a data length beyond the record and an unknown encoding are logged and
    skipped, each keeping its index; a record in another encapsulation (XCDR2) is
    deserialized by rclpy and noised; the node goes on, and every message it publishes
    has the bits of its index."""
    import struct

    from rclpy.serialization import serialize_message
    from sensor_msgs.msg import Image, PointCloud2

    suite_path = write_suite(tmp_path)
    node = NoiseNode(suite_path, context=context)
    client = Client(context)
    client.publisher(Image, "/camera/image_raw")
    client.publisher(PointCloud2, "/points_raw")
    images = client.subscribe(Image, "/camera/image")
    clouds = client.subscribe(PointCloud2, "/points")
    ex = executor_with(context, node, client.node)
    matched(ex, client, ["/camera/image_raw", "/points_raw"])
    assert node.topics["/camera/image_raw"].serialized and node.topics["/points_raw"].serialized

    def t(k: int) -> int:
        return T0 + k * 10**7

    too_long = bytearray(serialize_message(image(1, t(1))))
    struct.pack_into("<I", too_long, len(too_long) - 24 * 32 * 3 - 4, 10**6)  # data length
    yuv = image(2, t(2))
    yuv.encoding = "yuv422"
    xcdr2 = b"\x00\x07" + serialize_message(image(3, t(3)))[2:]
    for raw in (
        serialize_message(image(0, t(0)))[:-10],  # truncated record
        bytes(too_long),
        serialize_message(yuv),
        xcdr2,
        serialize_message(image(4, t(4))),
    ):
        client.pubs["/camera/image_raw"].publish(raw)
    client.pubs["/points_raw"].publish(serialize_message(cloud(0, t(0)))[:200])
    client.pubs["/points_raw"].publish(serialize_message(cloud(1, t(1))))
    assert spin_until(ex, lambda: len(images) == 2 and len(clouds) == 1)

    suite = load_suite(suite_path)
    cam = TopicNoise.from_suite(suite, "/camera/image_raw", "sensor_msgs/Image", first_frame=3)
    assert [bits(m) for m in images] == [
        bits(cam.apply_inplace(image(3, t(3)))),
        bits(cam.apply_inplace(image(4, t(4)))),
    ]
    lidar = TopicNoise.from_suite(suite, "/points_raw", "sensor_msgs/PointCloud2", first_frame=1)
    assert bits(clouds[0]) == bits(lidar.apply_inplace(cloud(1, t(1))))
    c = node.topics["/camera/image_raw"]
    assert (c.received, c.published, c.skipped) == (5, 2, 3)
    c = node.topics["/points_raw"]
    assert (c.received, c.published, c.skipped) == (2, 1, 1)
    ex.shutdown()
    node.destroy_node()


def test_incompatible_qos_is_detected(context, tmp_path: Path) -> None:
    """A BestEffort publisher on a Reliable input is reported through the QoS event;
    on a ``sensor_data`` entry it matches and its messages are noised."""
    from sensor_msgs.msg import LaserScan

    node = NoiseNode(write_suite(tmp_path), context=context)
    client = Client(context)
    best_effort = qos_profile("sensor_data")
    client.publisher(LaserScan, "/scan_raw", best_effort)
    client.publisher(LaserScan, "/fast/scan_raw", best_effort)
    fast = client.subscribe(LaserScan, "/fast/scan", best_effort)
    ex = executor_with(context, node, client.node)
    assert spin_until(ex, lambda: counter(node, "/scan_raw", "incompatible_qos") > 0)
    assert counter(node, "/fast/scan_raw", "incompatible_qos") == 0
    # the BestEffort entry receives: publish until one comes out (BestEffort may drop)
    end = time.monotonic() + 10
    while not fast and time.monotonic() < end:
        client.pubs["/fast/scan_raw"].publish(scan(0, T0))
        spin_until(ex, lambda: bool(fast), timeout=0.2)
    assert fast
    assert counter(node, "/scan_raw", "received") == 0
    ex.shutdown()
    node.destroy_node()


def test_incompatible_qos_text() -> None:
    from rclpy.qos import QoSPolicyKind

    text = incompatible_text(
        "/scan_raw",
        "publisher",
        QoSPolicyKind.RELIABILITY,
        qos_profile(None),
        [qos_profile("sensor_data")],
        1,
    )
    assert "topic /scan_raw" in text and "RELIABILITY" in text
    assert "this node: reliable, volatile, keep_last depth 10" in text
    assert "publisher(s): best_effort, volatile, keep_last depth 5" in text
    assert 'qos = "sensor_data"' in text


def test_diagnostics_and_sim_time(context, tmp_path: Path) -> None:
    """``/diagnostics`` carries the per-topic counters; ``use_sim_time`` is the
    standard parameter (the node's clock then follows /clock)."""
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.parameter import Parameter
    from sensor_msgs.msg import LaserScan

    node = NoiseNode(
        write_suite(tmp_path),
        context=context,
        diagnostics_period=0.2,
        parameter_overrides=[Parameter("use_sim_time", Parameter.Type.BOOL, True)],
    )
    assert node.get_parameter("use_sim_time").value is True
    assert node.get_clock().ros_time_is_active
    client = Client(context)
    client.publisher(LaserScan, "/scan_raw")
    client.subscribe(LaserScan, "/scan")
    diags = client.subscribe(DiagnosticArray, "/diagnostics")
    ex = executor_with(context, node, client.node)
    matched(ex, client, ["/scan_raw"])
    for k in range(3):
        client.pubs["/scan_raw"].publish(scan(k, T0 + k * 10**7))
    assert spin_until(ex, lambda: len(client.got["/scan"]) == 3)

    def counted() -> bool:
        for arr in diags:
            for st in arr.status:
                values = {kv.key: kv.value for kv in st.values}
                if st.name.endswith("/scan_raw") and values.get("messages_out") == "3":
                    return True
        return False

    assert spin_until(ex, counted)
    ex.shutdown()
    node.destroy_node()


def test_diagnostics_report_is_refreshed_in_place() -> None:
    """The node's reused ``/diagnostics`` message serializes to the same bytes as one
    built anew, follows the counters from one report to the next, and carries the
    latency values only when messages came since the last report."""
    from builtin_interfaces.msg import Time
    from rclpy.serialization import serialize_message

    from fastnoise.ros2.diagnostics import DiagnosticsReport, TopicCounters, diagnostic_array

    def counters() -> list[TopicCounters]:
        a = TopicCounters("/imu_raw", "/imu", "sensor_msgs/Imu", "imu", received=5, published=5)
        b = TopicCounters("/scan_raw", "/scan", "sensor_msgs/LaserScan", "lidar", skipped=2)
        a.latencies = [1e-4, 2e-4, 3e-4, 4e-4]  # s
        return [a, b]

    report = DiagnosticsReport("n")
    first = report.update(counters(), Time(sec=7))
    assert serialize_message(first) == serialize_message(
        diagnostic_array("n", counters(), Time(sec=7))
    )
    values = {kv.key: kv.value for kv in first.status[0].values}
    assert values["messages_in"] == "5"
    assert (values["latency_mean_us"], values["latency_p50_us"]) == ("250.0", "200.0")
    assert (values["latency_p99_us"], values["latency_max_us"]) == ("400.0", "400.0")
    assert first.status[1].level == first.status[1].WARN
    assert first.status[1].message.endswith("; 2 skipped")

    topics = counters()
    topics[0].received = topics[0].published = 9
    topics[0].latencies = []  # no message since the last report: no latency values
    topics[1].skipped = 0
    second = report.update(topics, Time(sec=8))
    assert second is first  # one message, refreshed
    assert second.header.stamp.sec == 8
    values = {kv.key: kv.value for kv in second.status[0].values}
    assert values["messages_in"] == values["messages_out"] == "9"
    assert not any(k.startswith("latency_") for k in values)
    assert second.status[1].level == second.status[1].OK
    assert serialize_message(second) == serialize_message(
        diagnostic_array("n", topics, Time(sec=8))
    )


# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("sig", "n"), [(signal.SIGINT, 400), (signal.SIGTERM, 100)])
def test_multiprocess_signal_loses_nothing(context, tmp_path: Path, sig, n) -> None:
    """publisher process -> ``fastnoise node`` process (in a namespace given with
    --ros-args) -> this process: every message the publisher sent comes out, in order,
    after the node is stopped with SIGINT (or SIGTERM) right after the last one was
    acknowledged.
    Depth 1000 everywhere: a KEEP_LAST queue of 10 overflows when a loaded CI machine
    stalls a process for 20 ms at 500 Hz (what the node did not take, it never saw)."""
    from sensor_msgs.msg import LaserScan

    suite_path = write_suite(tmp_path)
    ready = tmp_path / "ready"
    gate = tmp_path / "gate"
    node = subprocess.Popen(
        [
            sys.executable, "-m", "fastnoise", "node", "--config", str(suite_path),
            "--ready-file", str(ready), "--depth", "1000", "--ros-args", "-r", "__ns:=/robot",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        client = Client(context, "subscriber")
        got = client.subscribe(LaserScan, "/robot/scan", qos_profile(None, depth=1000))
        ex = executor_with(context, client.node)
        assert spin_until(ex, lambda: ready.exists() or node.poll() is not None, timeout=60)
        assert node.poll() is None, node.communicate()[1]
        publisher = subprocess.Popen(
            [sys.executable, str(HERE / "_publisher.py"), "/robot/scan_raw", str(n), "500",
             str(gate)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        # the node subscribes /robot/scan_raw (and creates its output) once it sees the
        # publisher's type; the publisher starts when this subscriber matched that output
        output = client.subs["/robot/scan"]
        assert spin_until(
            ex, lambda: output.get_publisher_count() > 0 or publisher.poll() is not None, 60
        )
        gate.touch()
        # collect while the publisher runs; it exits once the node acknowledged all
        assert spin_until(ex, lambda: publisher.poll() is not None, timeout=60)
        out, err = publisher.communicate()
        assert publisher.returncode == 0, err
        assert "acked" in out
        node.send_signal(sig)
        spin_until(ex, lambda: len(got) == n, timeout=20)
        node_out, node_err = node.communicate(timeout=30)
        assert node.returncode == 0, node_err
        assert len(got) == n, f"{len(got)} of {n} came out\n{node_err}"
        index = [m.header.stamp.nanosec // 10**6 for m in got]  # message k: stamp k ms
        assert index == list(range(n))
        assert f"/robot/scan_raw: {n} in, {n} out, 0 skipped" in node_err
        assert "EventsExecutor" in node_err or "SingleThreadedExecutor" in node_err
    finally:
        if node.poll() is None:
            node.kill()
            node.communicate()


def test_cli_without_config_is_a_usage_error() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "fastnoise", "node"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "--config" in proc.stderr
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-m", "fastnoise", "node", "--config", "/nonexistent.toml"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 1
    assert "cannot read the suite" in proc.stderr


def test_stamp_going_backwards_is_a_node_warning(context, tmp_path: Path) -> None:
    """An IMU stamp that repeats is the noise's StampWarning: counted, logged as a node
    warning, and the message is still noised and published."""
    from sensor_msgs.msg import Imu

    node = NoiseNode(write_suite(tmp_path), context=context)
    client = Client(context)
    client.publisher(Imu, "/imu_raw")
    out = client.subscribe(Imu, "/imu")
    ex = executor_with(context, node, client.node)
    matched(ex, client, ["/imu_raw"])
    for k, t in enumerate([0, 10, 10, 30]):
        client.pubs["/imu_raw"].publish(imu(k, T0 + t * 10**6))
    assert spin_until(ex, lambda: len(out) == 4)
    assert counter(node, "/imu_raw", "warnings") == 1
    assert counter(node, "/imu_raw", "skipped") == 0
    ex.shutdown()
    node.destroy_node()


def test_drain_publishes_what_was_acknowledged(context, tmp_path: Path) -> None:
    """Messages the node's Reliable reader acknowledged but no executor handed over yet
    are taken, noised and published by drain() (what shutdown runs)."""
    from rclpy.duration import Duration
    from sensor_msgs.msg import Image

    n = 30
    node = NoiseNode(write_suite(tmp_path), context=context, depth=n)
    client = Client(context)
    client.publisher(Image, "/camera/image_raw", qos_profile(None, depth=n))
    out = client.subscribe(Image, "/camera/image", qos_profile(None, depth=n))
    ex = executor_with(context, client.node)  # the node is in no executor
    matched(ex, client, ["/camera/image_raw"])
    for k in range(n):
        client.pubs["/camera/image_raw"].publish(image(k, T0 + k * 10**7))
    assert client.pubs["/camera/image_raw"].wait_for_all_acked(Duration(seconds=10))
    assert node.topics["/camera/image_raw"].serialized  # drain takes CDR bytes too
    assert node.drain(timeout=10.0) == n
    assert node.drain(timeout=1.0) == 0
    assert spin_until(ex, lambda: len(out) == n)
    assert [m.header.stamp.nanosec // 10**7 for m in out] == list(range(n))
    ex.shutdown()
    node.destroy_node()


SDF_WORLD = """<?xml version="1.0"?>
<sdf version="1.9"><world name="w"><model name="robot"><link name="base">
  <sensor name="imu_sensor" type="imu">
    <topic>imu</topic>
    <update_rate>100</update_rate>
    <imu><angular_velocity>
      <x><noise type="gaussian"><stddev>0.0002</stddev></noise></x>
      <z><noise type="gaussian"><stddev>0.0002</stddev></noise></z>
    </angular_velocity></imu>
  </sensor>
</link></model></world></sdf>
"""


def test_sdf_entries_run_live(context, tmp_path: Path) -> None:
    """An ``[sdf]`` suite: the world's IMU sensor, mapped to /imu_raw, gets its
    ``<noise>`` live (rate from ``<update_rate>``), the bits TopicNoise gives offline."""
    from sensor_msgs.msg import Imu

    (tmp_path / "world.sdf").write_text(SDF_WORLD)
    suite_path = tmp_path / "sdf.toml"
    suite_path.write_text(
        'seed = 5\n[sdf]\nfile = "world.sdf"\ntopics = { imu_sensor = "/imu_raw" }\n'
    )
    node = NoiseNode(suite_path, context=context)
    client = Client(context)
    client.publisher(Imu, "/imu_raw")
    out = client.subscribe(Imu, "/imu")
    ex = executor_with(context, node, client.node)
    matched(ex, client, ["/imu_raw"])
    sent = [imu(k, T0 + k * 10**7) for k in range(5)]
    for m in sent:
        client.pubs["/imu_raw"].publish(m)
    assert spin_until(ex, lambda: len(out) == 5)
    offline = TopicNoise.from_suite(load_suite(suite_path), "/imu_raw", "sensor_msgs/Imu")
    want = [bits(offline.apply_inplace(imu(k, T0 + k * 10**7))) for k in range(5)]
    assert [bits(m) for m in out] == want
    assert [bits(m) for m in out] != [bits(m) for m in sent]
    ex.shutdown()
    node.destroy_node()


def test_pattern_entries_follow_the_graph(context, tmp_path: Path) -> None:
    """A pattern entry subscribes the graph's topics it matches, as they appear, each
    keyed by its own name (the bits TopicNoise gives that name), not the node's outputs."""
    from sensor_msgs.msg import Image

    suite_path = tmp_path / "pattern.toml"
    suite_path.write_text('seed = 9\n[topics."/cam*/image_raw"]\nmodel = "camera"\nstddev = 0.05\n')
    node = NoiseNode(suite_path, context=context, discovery_period=0.1)
    client = Client(context)
    ex = executor_with(context, node, client.node)
    assert node.topics == {}
    client.publisher(Image, "/cam1/image_raw")
    client.publisher(Image, "/cam2/image_raw")
    out1 = client.subscribe(Image, "/cam1/image")
    out2 = client.subscribe(Image, "/cam2/image")
    matched(ex, client, ["/cam1/image_raw", "/cam2/image_raw"])
    assert sorted(node.topics) == ["/cam1/image_raw", "/cam2/image_raw"]
    client.pubs["/cam1/image_raw"].publish(image(0, T0))
    client.pubs["/cam2/image_raw"].publish(image(0, T0))
    assert spin_until(ex, lambda: len(out1) == 1 and len(out2) == 1)
    suite = load_suite(suite_path)
    for topic, got in (("/cam1/image_raw", out1), ("/cam2/image_raw", out2)):
        want = TopicNoise.from_suite(suite, topic, "sensor_msgs/Image").apply_inplace(image(0, T0))
        assert bits(got[0]) == bits(want)
    assert bits(out1[0]) != bits(out2[0])  # keyed by the topic name
    ex.shutdown()
    node.destroy_node()
