"""Processes of bench/bench_ros2_node.py: a sensor publisher and a latency-recording
subscriber (the middle process is ``fastnoise node`` or :mod:`relay`).

    python stream.py publish SCENARIO SECONDS DEPTH
    python stream.py subscribe SCENARIO SECONDS DEPTH RESULT.json

Scenarios: ``imu`` (sensor_msgs/Imu at 1 kHz on /imu_raw), ``heavy`` (a 64 x 2048
PointCloud2 at 20 Hz on /points_raw and a 1280 x 720 rgb8 Image at 30 Hz on
/camera/image_raw). Every message carries its publish time (CLOCK_MONOTONIC, ns) in
``header.frame_id``; its ``header.stamp`` is the synthetic sensor time (k / rate). The
subscriber, on the same machine, subtracts that from its own CLOCK_MONOTONIC at
receipt: one clock. All Reliable, KEEP_LAST ``DEPTH``.

Both ends stay light, so that they leave the machine's cores to the process measured
(the middle): the publisher serializes each topic's message once
(``rclpy.serialization.serialize_message``) and publishes bytes, a copy of that record
with the stamp and a fixed-width (20-digit) ``frame_id`` patched in; the subscriber
takes the messages serialized (``raw=True``) and reads ``frame_id`` from the CDR header
(:func:`fastnoise.io.ros.cdr.header_of`). Neither builds a Python message of a frame.
The relay and the node are measured with the very same two ends, so the comparison
stays fair.
"""

from __future__ import annotations

import json
import signal
import struct
import sys
import time

import numpy as np
import rclpy
from rclpy.duration import Duration
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy
from rclpy.serialization import serialize_message

from fastnoise.io.ros.cdr import FRAME_ID_OFFSET, STAMP_OFFSET, header_of

T0 = 1_700_000_000 * 10**9
FRAME_ID_DIGITS = 20  # the publish time (ns) in frame_id, zero-padded: a fixed layout

SCENARIOS = {
    "imu": {"/imu_raw": 1000.0},
    "heavy": {"/points_raw": 20.0, "/camera/image_raw": 30.0},
}


def qos(depth: int) -> QoSProfile:
    return QoSProfile(
        depth=depth,
        history=HistoryPolicy.KEEP_LAST,
        reliability=ReliabilityPolicy.RELIABLE,
        durability=DurabilityPolicy.VOLATILE,
    )


def message_class(topic: str):
    from sensor_msgs.msg import Image, Imu, PointCloud2

    return {"/imu_raw": Imu, "/points_raw": PointCloud2, "/camera/image_raw": Image}[topic]


def template(topic: str):
    """One message of the topic, built once (the bench publishes it again and again,
    with a new stamp and publish time)."""
    cls = message_class(topic)
    msg = cls()
    if topic == "/imu_raw":
        msg.angular_velocity.x, msg.angular_velocity.z = 0.01, -0.02
        msg.linear_acceleration.z = 9.81
    elif topic == "/points_raw":
        from sensor_msgs.msg import PointField

        h, w = 64, 2048
        msg.height, msg.width, msg.point_step, msg.row_step = h, w, 16, 16 * w
        msg.fields = [
            PointField(name=c, offset=4 * i, datatype=PointField.FLOAT32, count=1)
            for i, c in enumerate(["x", "y", "z", "intensity"])
        ]
        pts = np.random.default_rng(1).uniform(-30.0, 30.0, (h * w, 4)).astype(np.float32)
        msg.data = pts.tobytes()
        msg.is_dense = True
    else:
        h, w = 720, 1280
        msg.height, msg.width, msg.encoding, msg.step = h, w, "rgb8", 3 * w
        msg.data = np.random.default_rng(2).integers(0, 256, h * w * 3, np.uint8).tobytes()
    return msg


class Record:
    """A topic's message serialized once; :meth:`at` gives the bytes to publish with a
    stamp and the publish time patched into a copy (one copy of the record)."""

    def __init__(self, msg) -> None:
        msg.header.frame_id = "0" * FRAME_ID_DIGITS
        raw = serialize_message(msg)
        order = "<" if raw[1] == 1 else ">"
        self.stamp = struct.Struct(order + "iI")
        chars = FRAME_ID_OFFSET + 4
        assert header_of(raw).frame_id == msg.header.frame_id
        self.head = bytearray(raw[: chars + FRAME_ID_DIGITS])
        self.tail = raw[chars + FRAME_ID_DIGITS :]
        self.chars = chars

    def at(self, stamp_ns: int) -> bytes:
        head = self.head
        self.stamp.pack_into(head, STAMP_OFFSET, *divmod(stamp_ns, 10**9))
        head[self.chars :] = b"%020d" % time.monotonic_ns()
        return bytes(head) + self.tail


def publish(scenario: str, seconds: float, depth: int) -> int:
    rclpy.init()
    node = rclpy.create_node("bench_publisher")
    rates = SCENARIOS[scenario]
    pubs = {t: node.create_publisher(message_class(t), t, qos(depth)) for t in rates}
    records = {t: Record(template(t)) for t in rates}
    end = time.monotonic() + 60
    while any(p.get_subscription_count() == 0 for p in pubs.values()):
        if time.monotonic() > end:
            print("no subscriber", file=sys.stderr)
            return 1
        time.sleep(0.01)
    time.sleep(1.0)  # the middle process's output and the subscriber match meanwhile
    # one schedule over all topics: (due time, topic, k)
    start = time.monotonic()
    due = {t: 0 for t in rates}
    counts = dict.fromkeys(rates, 0)
    while True:
        t, k = min(((t, k) for t, k in due.items()), key=lambda tk: tk[1] / rates[tk[0]])
        at = k / rates[t]
        if at >= seconds:
            break
        wait = start + at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        pubs[t].publish(records[t].at(T0 + int(round(k * 1e9 / rates[t]))))
        counts[t] += 1
        due[t] = k + 1
    acked = all(p.wait_for_all_acked(Duration(seconds=20)) for p in pubs.values())
    print(json.dumps({"sent": counts, "acked": acked}))
    node.destroy_node()
    rclpy.shutdown()
    return 0


def subscribe(scenario: str, seconds: float, depth: int, result: str) -> int:
    rclpy.init()
    node = rclpy.create_node("bench_subscriber")
    outs = {t: t[: -len("_raw")] for t in SCENARIOS[scenario]}
    lat: dict[str, list[int]] = {o: [] for o in outs.values()}
    stop = []

    def record(out: str, raw: bytes) -> None:
        lat[out].append(time.monotonic_ns() - int(header_of(raw).frame_id))

    subs = {
        o: node.create_subscription(
            message_class(t), o, lambda m, o=o: record(o, m), qos(depth), raw=True
        )
        for t, o in outs.items()
    }
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    signal.signal(signal.SIGINT, lambda *a: stop.append(1))
    from rclpy.experimental import EventsExecutor

    ex = EventsExecutor()
    ex.add_node(node)
    print("ready", flush=True)
    # "matched" once every reader has matched a writer (the middle's output): the
    # publisher starts only then, or the middle's first outputs (Volatile) are sent
    # before discovery ends and missed, as a loaded CI machine showed (~1.2 s of them)
    matched = False
    while not stop:
        ex.spin_once(timeout_sec=0.05)
        if not matched and all(s.get_publisher_count() > 0 for s in subs.values()):
            matched = True
            print("matched", flush=True)
    # What the reader acknowledged but this process did not take yet, until 2 s quiet.
    # Besides the executor, take from each reader directly: a Reliable writer counts a
    # message delivered once the reader's history holds it, and an executor event that
    # never fires (seen under load on a 2-core CI machine) must not turn into "lost".
    count, quiet, direct = -1, time.monotonic(), 0
    while time.monotonic() - quiet < 2.0:
        ex.spin_once(timeout_sec=0.05)
        for o, sub in subs.items():
            while True:
                with sub.handle:
                    got = sub.handle.take_message(sub.msg_type, sub.raw)
                if got is None:
                    break
                record(o, got[0])
                direct += 1
        now = sum(len(v) for v in lat.values())
        if now != count:
            count, quiet = now, time.monotonic()
    with open(result, "w", encoding="utf-8") as f:
        json.dump({"latency_ns": lat, "taken_after_stop": direct}, f)
    node.destroy_node()
    rclpy.shutdown()
    return 0


if __name__ == "__main__":
    what = sys.argv[1]
    if what == "publish":
        sys.exit(publish(sys.argv[2], float(sys.argv[3]), int(sys.argv[4])))
    sys.exit(subscribe(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]))
