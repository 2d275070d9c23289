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
"""

from __future__ import annotations

import json
import signal
import sys
import time

import numpy as np
import rclpy
from rclpy.duration import Duration
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

T0 = 1_700_000_000 * 10**9

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


def publish(scenario: str, seconds: float, depth: int) -> int:
    rclpy.init()
    node = rclpy.create_node("bench_publisher")
    rates = SCENARIOS[scenario]
    pubs = {t: node.create_publisher(message_class(t), t, qos(depth)) for t in rates}
    msgs = {t: template(t) for t in rates}
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
        msg = msgs[t]
        stamp = T0 + int(round(k * 1e9 / rates[t]))
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(stamp, 10**9)
        msg.header.frame_id = str(time.monotonic_ns())
        pubs[t].publish(msg)
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

    def record(out: str, msg) -> None:
        lat[out].append(time.monotonic_ns() - int(msg.header.frame_id))

    subs = {
        o: node.create_subscription(message_class(t), o, lambda m, o=o: record(o, m), qos(depth))
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
