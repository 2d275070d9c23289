"""Publish N LaserScans (scan(k) of _ros2_support) on a topic at a rate (Hz), Reliable
depth 1000, once a subscriber is matched and the gate file (argv[4]) exists; print
"acked" when every message was acknowledged. Run as a separate process by test_node.py,
which creates the gate once its own subscriber matched the node's output: a noised
message published before that match would be lost (Volatile), which is not the node's
loss. A fixed sleep in its place failed on a loaded machine."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import rclpy
from _ros2_support import scan
from rclpy.duration import Duration
from sensor_msgs.msg import LaserScan

from fastnoise.ros2 import qos_profile


def main() -> int:
    topic, n, rate, gate = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), Path(sys.argv[4])
    rclpy.init()
    node = rclpy.create_node("publisher")
    pub = node.create_publisher(LaserScan, topic, qos_profile(None, depth=1000))
    end = time.monotonic() + 30
    while pub.get_subscription_count() == 0 and time.monotonic() < end:
        time.sleep(0.01)
    if pub.get_subscription_count() == 0:
        print("no subscriber", file=sys.stderr)
        return 1
    end = time.monotonic() + 60
    while not gate.exists() and time.monotonic() < end:
        time.sleep(0.01)
    if not gate.exists():
        print(f"no gate file {gate}", file=sys.stderr)
        return 1
    t0 = time.monotonic()
    for k in range(n):
        pub.publish(scan(k, 1_700_000_000 * 10**9 + k * 10**6))
        wait = t0 + (k + 1) / rate - time.monotonic()
        if wait > 0:
            time.sleep(wait)
    ok = pub.wait_for_all_acked(Duration(seconds=10))
    print("acked" if ok else "not acked")
    node.destroy_node()
    rclpy.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
