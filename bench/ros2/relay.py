"""The floor of bench/bench_ros2_node.py: a plain rclpy node that republishes each
topic's messages unchanged (``/x_raw`` -> ``/x``), Reliable KEEP_LAST DEPTH, on the
executor ``fastnoise node`` uses. It is the relay a user usually writes: a subscription
that hands rclpy's deserialized message to ``publish``, which serializes it again (no
``raw=True`` tricks; the node takes Image and PointCloud2 serialized, and that saving
is part of what is measured against this floor).

    python relay.py SCENARIO DEPTH
"""

from __future__ import annotations

import signal
import sys

import rclpy
from rclpy.signals import SignalHandlerOptions
from stream import SCENARIOS, message_class, qos


def main() -> int:
    scenario, depth = sys.argv[1], int(sys.argv[2])
    rclpy.init(signal_handler_options=SignalHandlerOptions.NO)
    node = rclpy.create_node("bench_relay")
    for t in SCENARIOS[scenario]:
        pub = node.create_publisher(message_class(t), t[: -len("_raw")], qos(depth))
        node.create_subscription(message_class(t), t, pub.publish, qos(depth))
    stop = []
    signal.signal(signal.SIGINT, lambda *a: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    from fastnoise.ros2 import best_executor

    ex = best_executor()
    ex.add_node(node)
    print("ready", flush=True)
    while not stop:
        ex.spin_once(timeout_sec=0.1)
    node.destroy_node()
    rclpy.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
