"""Per-message noise of ``fastnoise apply`` (TopicNoise) beside the numpy a user writes in
a bag script: a 1080p rgb8 Image, a 128k-point PointCloud2 (x, y, z, intensity, ring,
time; point_step 32) and an Imu message. Both sides start from the deserialized message
and leave a noised message (its ``data`` replaced), single thread.

The whole-bag figure (rosbags read + deserialize + serialize + write, with and without
the noise) is ``tools/bench_apply.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("rosbags")
from rosbags.typesys import Stores, get_typestore  # noqa: E402

from fastnoise.io.ros import TopicNoise  # noqa: E402
from fastnoise.io.suite.suite import Suite  # noqa: E402

T = get_typestore(Stores.ROS2_HUMBLE).types
STDDEV = 0.007
POINTS = 1 << 17
SUITE = Suite.from_dict(
    {
        "seed": 1,
        "topics": {
            "/image": {"model": "camera", "stddev": STDDEV},
            "/points": {"model": "lidar", "distance_noise_stddev_base": 0.02},
            "/carla": {"model": "carla_lidar", "noise_stddev": 0.02},
            "/imu": {
                "model": "imu",
                "rate": 100,
                "gyro": {"noise_stddev": 0.01},
                "accel": {"noise_stddev": 0.1},
            },
        },
    }
)


def _hdr():
    return T["std_msgs/msg/Header"](
        stamp=T["builtin_interfaces/msg/Time"](sec=1, nanosec=0), frame_id="s"
    )


def image_msg():
    data = np.random.default_rng(0).integers(0, 256, 1080 * 1920 * 3, dtype=np.uint8)
    data.flags.writeable = False  # as rosbags deserializes it: a view of the raw bytes
    return T["sensor_msgs/msg/Image"](
        header=_hdr(),
        height=1080,
        width=1920,
        encoding="rgb8",
        is_bigendian=0,
        step=5760,
        data=data,
    )


def cloud_msg():
    arr = np.zeros((POINTS, 8), np.float32)
    arr[:, :3] = np.random.default_rng(0).uniform(-50, 50, (POINTS, 3))
    data = arr.view(np.uint8).reshape(-1)
    data.flags.writeable = False
    PF = T["sensor_msgs/msg/PointField"]
    fields = [
        PF(name=n, offset=4 * i, datatype=7, count=1)
        for i, n in enumerate(("x", "y", "z", "intensity", "ring", "time"))
    ]
    return T["sensor_msgs/msg/PointCloud2"](
        header=_hdr(),
        height=1,
        width=POINTS,
        fields=fields,
        is_bigendian=False,
        point_step=32,
        row_step=32 * POINTS,
        data=data,
        is_dense=True,
    )


def imu_msg():
    V, Q = T["geometry_msgs/msg/Vector3"], T["geometry_msgs/msg/Quaternion"]
    return T["sensor_msgs/msg/Imu"](
        header=_hdr(),
        orientation=Q(x=0.0, y=0.0, z=0.0, w=1.0),
        orientation_covariance=np.zeros(9),
        angular_velocity=V(x=0.1, y=0.2, z=0.3),
        angular_velocity_covariance=np.zeros(9),
        linear_acceleration=V(x=0.0, y=0.0, z=9.8),
        linear_acceleration_covariance=np.zeros(9),
    )


# ---- Image ------------------------------------------------------------------------------
@pytest.mark.benchmark(group="apply-image-1080p-msg")
def test_fastnoise_image_message(benchmark):
    msg, noise = image_msg(), TopicNoise.from_suite(SUITE, "/image")
    src = msg.data

    def run():
        msg.data = src
        noise(msg)

    benchmark(run)
    assert msg.data.shape == src.shape


@pytest.mark.benchmark(group="apply-image-1080p-msg")
def test_numpy_image_message(benchmark):
    msg, rng = image_msg(), np.random.default_rng(1)
    src = msg.data

    def run():
        img = src.reshape(msg.height, msg.step)[:, : msg.width * 3].reshape(
            msg.height, msg.width, 3
        )
        z = rng.standard_normal((msg.height, msg.width), dtype=np.float32)
        z *= np.float32(255 * STDDEV)
        v = img + z[..., None]
        np.clip(v, 0, 255, out=v)
        np.rint(v, out=v)
        msg.data = v.astype(np.uint8).reshape(-1)

    benchmark(run)


# ---- PointCloud2 ------------------------------------------------------------------------
@pytest.mark.benchmark(group="apply-cloud-128k-msg")
def test_fastnoise_cloud_message(benchmark):
    msg, noise = cloud_msg(), TopicNoise.from_suite(SUITE, "/points")
    src = msg.data

    def run():
        msg.data = src
        noise(msg)

    benchmark(run)


@pytest.mark.benchmark(group="apply-cloud-128k-msg")
def test_numpy_cloud_message(benchmark):
    msg, rng = cloud_msg(), np.random.default_rng(1)
    src = msg.data

    def run():
        data = src.copy()
        pts = data.view(np.float32).reshape(-1, 8)
        xyz = pts[:, :3].astype(np.float64)
        d = np.linalg.norm(xyz, axis=1)
        eps = rng.normal(0.0, 0.02, d.shape)
        ok = np.isfinite(d) & (d > 0)
        xyz[ok] *= (1 + eps[ok] / d[ok])[:, None]
        pts[:, :3] = xyz
        msg.data = data

    benchmark(run)


# ---- PointCloud2, carla_lidar (CARLA's defaults, noise_stddev 0.02 m) ---------------------
@pytest.mark.benchmark(group="apply-carla-cloud-128k-msg")
def test_fastnoise_carla_cloud_message(benchmark):
    msg, noise = cloud_msg(), TopicNoise.from_suite(SUITE, "/carla")
    src = msg.data

    def run():
        msg.data, msg.height, msg.width, msg.row_step = src, 1, POINTS, 32 * POINTS
        noise(msg)

    benchmark(run)
    assert 0 < msg.width < POINTS


@pytest.mark.benchmark(group="apply-carla-cloud-128k-msg")
def test_numpy_carla_cloud_message(benchmark):
    msg, rng = cloud_msg(), np.random.default_rng(1)
    src = msg.data

    def run():
        rows = src.reshape(-1, 32)
        pts = rows.view(np.float32)
        xyz = pts[:, :3].astype(np.float64)
        d = np.linalg.norm(xyz, axis=1)
        keep = np.isfinite(d) & (rng.random(d.shape) >= 0.45)
        inten = np.exp(-0.004 * d)
        xyz *= (1 + rng.normal(0.0, 0.02, d.shape) / d)[:, None]
        low = inten <= 0.8
        keep[low] &= rng.random(int(low.sum())) < 1 - 0.4 + (0.4 / 0.8) * inten[low]
        out = rows[keep].copy()
        o = out.view(np.float32)
        o[:, :3] = xyz[keep]
        o[:, 3] = inten[keep]
        msg.data, msg.height, msg.width = out.reshape(-1), 1, int(keep.sum())
        msg.row_step = 32 * msg.width

    benchmark(run)


# ---- Imu --------------------------------------------------------------------------------
@pytest.mark.benchmark(group="apply-imu-msg")
def test_fastnoise_imu_message(benchmark):
    msg, noise = imu_msg(), TopicNoise.from_suite(SUITE, "/imu")
    t = [0]

    def run():
        t[0] += 10_000_000
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(t[0], 10**9)
        noise(msg)

    benchmark(run)


@pytest.mark.benchmark(group="apply-imu-msg")
def test_numpy_imu_message(benchmark):
    msg, rng = imu_msg(), np.random.default_rng(1)
    prev = [0]
    t = [0]

    def run():
        t[0] += 10_000_000
        msg.header.stamp.sec, msg.header.stamp.nanosec = divmod(t[0], 10**9)
        stamp = msg.header.stamp.sec * 10**9 + msg.header.stamp.nanosec
        dt = (stamp - prev[0]) / 1e9 if prev[0] else 0.01  # noqa: F841 - a user's dt
        prev[0] = stamp
        av, la = msg.angular_velocity, msg.linear_acceleration
        w = np.array([av.x, av.y, av.z]) + rng.normal(0.0, 0.01, 3)
        a = np.array([la.x, la.y, la.z]) + rng.normal(0.0, 0.1, 3)
        av.x, av.y, av.z = w
        la.x, la.y, la.z = a
        cov = np.zeros(9)
        cov[[0, 4, 8]] = 0.01**2
        msg.angular_velocity_covariance = cov
        cov = np.zeros(9)
        cov[[0, 4, 8]] = 0.1**2
        msg.linear_acceleration_covariance = cov

    benchmark(run)
