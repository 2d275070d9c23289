"""Live ROS 2: a synthetic IMU (200 Hz), lidar scan (10 Hz) and camera (5 Hz) published
on ``/imu_raw``, ``/scan_raw`` and ``/camera/image_raw``; ``fastnoise.ros2.NoiseNode``
noises them in-process, in the same executor, and republishes on ``/imu``, ``/scan`` and
``/camera/image``; this script prints what comes out.

Needs ``pip install 'fastnoise[ros2]'`` (a venv of its own: see the Live ROS 2 page).
It runs on loopback in a DDS domain of its own (ROS_DOMAIN_ID from the process id
unless set).
"""

import os
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("ROS_DOMAIN_ID", str(1 + (os.getpid() + 23) % 101))
os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")

import numpy as np  # noqa: E402
import rclpy  # noqa: E402
from sensor_msgs.msg import Image, Imu, LaserScan  # noqa: E402

from fastnoise.ros2 import NoiseNode, best_executor, qos_profile  # noqa: E402

SUITE = """seed = 42
[topics."/imu_raw"]
model = "imu"
rate = 200.0                                  # Hz: message 0 takes dt = 1 / rate
gyro = { noise_stddev = 0.002 }               # rad/s
accel = { noise_stddev = 0.02 }               # m/s^2

[topics."/scan_raw"]
model = "range"
stddev = 0.01                                 # m

[topics."/camera/image_raw"]
model = "camera"
stddev = 0.02                                 # of the full scale
"""

T0 = 1_700_000_000 * 10**9  # ns, the first stamp


def stamped(msg: Any, t_ns: int) -> Any:
    msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(t_ns, 10**9)
    msg.header.frame_id = "base_link"
    return msg


def imu(k: int) -> Any:
    msg = stamped(Imu(), T0 + k * 5_000_000)  # 200 Hz
    msg.angular_velocity.z = 0.1  # rad/s, a slow turn
    msg.linear_acceleration.z = 9.81  # m/s^2, at rest in gravity
    return msg


def scan(k: int) -> Any:
    msg = stamped(LaserScan(range_min=0.1, range_max=30.0), T0 + k * 100_000_000)
    msg.angle_min, msg.angle_increment = -np.pi, 2 * np.pi / 360  # rad
    msg.ranges = [5.0] * 360  # m: a round room
    return msg


def image(k: int) -> Any:
    msg = stamped(Image(height=48, width=64, encoding="rgb8", step=64 * 3), T0 + k * 200_000_000)
    msg.data = np.full(48 * 64 * 3, 128, dtype=np.uint8).tobytes()  # mid grey
    return msg


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    suite = folder / "suite.toml"
    suite.write_text(SUITE)
    rclpy.init()
    node = NoiseNode(suite, depth=100)  # 40 IMU messages at once: more than 10 queued
    demo = rclpy.create_node("demo_sensors")
    qos = qos_profile("reliable", depth=100)
    pubs = {
        "/imu_raw": demo.create_publisher(Imu, "/imu_raw", qos),
        "/scan_raw": demo.create_publisher(LaserScan, "/scan_raw", qos),
        "/camera/image_raw": demo.create_publisher(Image, "/camera/image_raw", qos),
    }
    got: dict[str, list[Any]] = {"/imu": [], "/scan": [], "/camera/image": []}
    demo.create_subscription(Imu, "/imu", got["/imu"].append, qos)
    demo.create_subscription(LaserScan, "/scan", got["/scan"].append, qos)
    demo.create_subscription(Image, "/camera/image", got["/camera/image"].append, qos)
    executor = best_executor()
    executor.add_node(node)
    executor.add_node(demo)

    def spin_until(done: Any, seconds: float = 20.0) -> None:
        import time

        end = time.monotonic() + seconds
        while not done() and time.monotonic() < end:
            executor.spin_once(timeout_sec=0.02)

    # the range model takes LaserScan or Range: the node subscribes once it sees ours
    spin_until(
        lambda: (
            all(p.get_subscription_count() > 0 for p in pubs.values())
            and all(demo.count_publishers(t) > 0 for t in got)
        )
    )
    for k in range(40):  # 0.2 s of sensor time: 40 IMU, 2 scans, 1 image
        pubs["/imu_raw"].publish(imu(k))
        if k % 20 == 0:
            pubs["/scan_raw"].publish(scan(k // 20))
        if k % 40 == 0:
            pubs["/camera/image_raw"].publish(image(k // 40))
        executor.spin_once(timeout_sec=0.0)
    spin_until(
        lambda: (len(got["/imu"]), len(got["/scan"]), len(got["/camera/image"])) == (40, 2, 1)
    )

    imus, scans, images = got["/imu"], got["/scan"], got["/camera/image"]
    assert (len(imus), len(scans), len(images)) == (40, 2, 1)
    w = np.array([[m.angular_velocity.x, m.angular_velocity.y, m.angular_velocity.z] for m in imus])
    cov = np.asarray(imus[0].angular_velocity_covariance)[::4]  # (rad/s)^2
    print(f"/imu: {len(imus)} messages, gyro z mean {w[:, 2].mean():.4f} rad/s (true 0.1)")
    print(f"      angular_velocity_covariance diagonal {cov} (rad/s)^2")
    r = np.asarray(scans[0].ranges)
    print(
        f"/scan: {len(scans)} messages, ranges mean {r.mean():.3f} m, sd {r.std():.4f} m (true 5)"
    )
    px = np.frombuffer(bytes(images[0].data), dtype=np.uint8).astype(float)
    print(f"/camera/image: 1 message, pixel mean {px.mean():.1f}, sd {px.std():.2f} (true 128)")
    stamps_kept = got["/imu"][5].header.stamp == imu(5).header.stamp
    assert stamps_kept
    print("headers and stamps kept: ok")
    for name, c in node.topics.items():
        print(f"{name} -> {c.output}: {c.received} in, {c.published} out, {c.skipped} skipped")
    executor.shutdown()
    node.destroy_node()
    demo.destroy_node()
    rclpy.shutdown()


if __name__ == "__main__":
    main()
