"""fastnoise.io.apply.apply on real bags: ROS 1, ROS 2 (sqlite3, mcap) and bare MCAP files
written by rosbags itself, read back with rosbags.

Checked: noise statistics per topic (fixed seeds; tolerances stated beside each check),
the exact bits of each noised topic against the models' own calls, topics without a
model byte-identical, definitions/hashes/QoS/latching/compression/message order kept,
the same noise for a subset of topics and for a rerun, interruption safety, and the
refusals. The module also holds the bag builders the other bag tests import.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import numpy as np
import pytest

rosbags = pytest.importorskip("rosbags")

from rosbags.interfaces import (  # noqa: E402
    Qos,
    QosDurability,
    QosHistory,
    QosLiveliness,
    QosReliability,
    QosTime,
)
from rosbags.typesys import Stores, get_typestore  # noqa: E402

from fastnoise import ImageNoise, ImuNoise, LidarNoise  # noqa: E402
from fastnoise.io.apply.apply import ApplyError, apply  # noqa: E402
from fastnoise.io.suite import Suite, name_seed_sequence  # noqa: E402

TS1 = get_typestore(Stores.ROS1_NOETIC)
TS2 = get_typestore(Stores.ROS2_HUMBLE)
SEED = 42
N_IMU = 300  # IMU messages (100 Hz)
N = 24  # messages of every other topic
IMU_RATE_NS = 10_000_000
# the suite's nominal IMU rate (Hz): not the recording's 100 Hz, so the first message's
# time step (1 / rate) shows in the noise
IMU_FIRST_RATE = 250.0
T0 = 1_700_000_000 * 10**9

SUITE = {
    "seed": SEED,
    "topics": {
        "/imu": {
            "model": "imu",
            "gyro": {"noise_stddev": 0.01},
            "accel": {"noise_stddev": 0.1},
            "rate": IMU_FIRST_RATE,
        },
        "/points": {"model": "lidar", "distance_noise_stddev_base": 0.05},
        "/cam": {"model": "camera", "stddev": 0.02},
        "/scan": {"model": "range", "mean": 0.0, "stddev": 0.03},
        "/odom": {"model": "odometry"},
    },
}
QOS = Qos(
    QosHistory.KEEP_LAST,
    7,
    QosReliability.RELIABLE,
    QosDurability.TRANSIENT_LOCAL,
    QosTime(0, 0),
    QosTime(0, 0),
    QosLiveliness.AUTOMATIC,
    QosTime(0, 0),
    False,
)


# ---------------------------------------------------------------------------------------
# builders


def header(T, t_ns: int, k: int, frame: str = "base"):
    stamp = T["builtin_interfaces/msg/Time"](sec=t_ns // 10**9, nanosec=t_ns % 10**9)
    if "seq" in T["std_msgs/msg/Header"].__dataclass_fields__:
        return T["std_msgs/msg/Header"](seq=k, stamp=stamp, frame_id=frame)
    return T["std_msgs/msg/Header"](stamp=stamp, frame_id=frame)


def imu_msg(T, t_ns, k):
    V, Q = T["geometry_msgs/msg/Vector3"], T["geometry_msgs/msg/Quaternion"]
    return T["sensor_msgs/msg/Imu"](
        header=header(T, t_ns, k),
        orientation=Q(x=0.0, y=0.0, z=0.0, w=1.0),
        orientation_covariance=np.full(9, 0.5),
        angular_velocity=V(x=0.1, y=-0.2, z=0.3 + 1e-3 * k),
        angular_velocity_covariance=np.zeros(9),
        linear_acceleration=V(x=0.0, y=0.5, z=9.81),
        linear_acceleration_covariance=np.zeros(9),
    )


def cloud_array(k: int, n: int = 200) -> np.ndarray:
    """x, y, z, pad, intensity (float32), the last two points NaN."""
    arr = np.zeros((n, 5), np.float32)
    arr[:, 0] = np.linspace(1.0, 20.0, n) + 0.01 * k
    arr[:, 1] = 2.0
    arr[:, 2] = -0.5
    arr[:, 4] = np.arange(n)
    arr[-2:, :3] = np.nan
    return arr


def cloud_msg(T, t_ns, k):
    PF = T["sensor_msgs/msg/PointField"]
    fields = [
        PF(name="x", offset=0, datatype=7, count=1),
        PF(name="y", offset=4, datatype=7, count=1),
        PF(name="z", offset=8, datatype=7, count=1),
        PF(name="intensity", offset=16, datatype=7, count=1),
    ]
    arr = cloud_array(k)
    return T["sensor_msgs/msg/PointCloud2"](
        header=header(T, t_ns, k, "lidar"),
        height=1,
        width=arr.shape[0],
        fields=fields,
        is_bigendian=False,
        point_step=20,
        row_step=20 * arr.shape[0],
        data=arr.view(np.uint8).reshape(-1),
        is_dense=False,
    )


def cam_pixels(k: int) -> np.ndarray:
    rng = np.random.default_rng(k)
    return rng.integers(40, 216, size=(16, 20, 3), dtype=np.uint8)


def image_msg(T, t_ns, k):
    px = cam_pixels(k)
    return T["sensor_msgs/msg/Image"](
        header=header(T, t_ns, k, "cam"),
        height=16,
        width=20,
        encoding="rgb8",
        is_bigendian=0,
        step=60,
        data=px.reshape(-1),
    )


def scan_msg(T, t_ns, k):
    ranges = np.linspace(0.5, 9.5, 90, dtype=np.float32)
    ranges[5] = np.inf
    ranges[6] = np.nan
    return T["sensor_msgs/msg/LaserScan"](
        header=header(T, t_ns, k, "laser"),
        angle_min=-1.0,
        angle_max=1.0,
        angle_increment=2.0 / 89,
        time_increment=0.0,
        scan_time=0.1,
        range_min=0.2,
        range_max=8.0,
        ranges=ranges,
        intensities=np.arange(90, dtype=np.float32),
    )


def odom_msg(T, t_ns, k):
    P, Tw = T["geometry_msgs/msg/PoseWithCovariance"], T["geometry_msgs/msg/TwistWithCovariance"]
    pose = T["geometry_msgs/msg/Pose"](
        position=T["geometry_msgs/msg/Point"](x=float(k), y=0.0, z=0.0),
        orientation=T["geometry_msgs/msg/Quaternion"](x=0.0, y=0.0, z=0.0, w=1.0),
    )
    V = T["geometry_msgs/msg/Vector3"]
    twist = T["geometry_msgs/msg/Twist"](linear=V(x=1.0, y=0.0, z=0.0), angular=V(x=0, y=0, z=0))
    return T["nav_msgs/msg/Odometry"](
        header=header(T, t_ns, k, "odom"),
        child_frame_id="base",
        pose=P(pose=pose, covariance=np.zeros(36)),
        twist=Tw(twist=twist, covariance=np.zeros(36)),
    )


def string_msg(T, t_ns, k):
    return T["std_msgs/msg/String"](data=f"untouched {k}")


TOPICS = {
    "/imu": ("sensor_msgs/msg/Imu", imu_msg),
    "/points": ("sensor_msgs/msg/PointCloud2", cloud_msg),
    "/cam": ("sensor_msgs/msg/Image", image_msg),
    "/scan": ("sensor_msgs/msg/LaserScan", scan_msg),
    "/odom": ("nav_msgs/msg/Odometry", odom_msg),
    "/chatter": ("std_msgs/msg/String", string_msg),
}


def schedule(topics=None) -> list[tuple[str, int, int]]:
    """(topic, log time ns, index) in write order; /chatter shares the /cam times (ties)."""
    topics = list(TOPICS) if topics is None else topics
    out = []
    for k in range(N_IMU):
        t = T0 + k * IMU_RATE_NS
        if "/imu" in topics:
            out.append(("/imu", t, k))
        if k % 10 == 0 and k // 10 < N:
            for name in ("/cam", "/chatter", "/points", "/scan", "/odom"):
                if name in topics:
                    out.append((name, t, k // 10))
    return out


def write_bag(
    path: Path,
    kind: str,
    topics=None,
    compression: str | None = None,
    fail_at: tuple[str, int] | None = None,
) -> Path:
    """A bag of ``kind`` ("ros1", "sqlite3", "mcap", "bare-mcap") at ``path``; returns
    its path. ``fail_at=(topic, k)`` writes message k of that topic with an encoding no
    model takes (for the interruption test)."""
    topics = list(TOPICS) if topics is None else topics
    if kind == "ros1":
        from rosbags.rosbag1 import Writer as W1

        T = TS1.types
        w = W1(path)
        if compression:
            w.set_compression(W1.CompressionFormat[compression.upper()])
        with w:
            conns = {
                t: w.add_connection(
                    t,
                    TOPICS[t][0],
                    typestore=TS1,
                    callerid="/rec",
                    latching=1 if t == "/odom" else None,
                )
                for t in topics
            }
            for t, ts, k in schedule(topics):
                msg = TOPICS[t][1](T, ts, k)
                if fail_at == (t, k):
                    msg.encoding = "yuv422"
                w.write(conns[t], ts, TS1.serialize_ros1(msg, TOPICS[t][0]))
        return path
    from rosbags.rosbag2 import StoragePlugin
    from rosbags.rosbag2 import Writer as W2
    from rosbags.rosbag2.enums import CompressionFormat, CompressionMode

    T = TS2.types
    plugin = StoragePlugin.SQLITE3 if kind == "sqlite3" else StoragePlugin.MCAP
    target = path if kind != "bare-mcap" else path.parent / (path.stem + "_dir")
    w = W2(target, version=9, storage_plugin=plugin)
    if compression:
        w.set_compression(CompressionMode[compression.upper()], CompressionFormat.ZSTD)
    with w:
        conns = {
            t: w.add_connection(
                t,
                TOPICS[t][0],
                typestore=TS2,
                offered_qos_profiles=[QOS] if t in ("/odom", "/chatter") else [],
            )
            for t in topics
        }
        for t, ts, k in schedule(topics):
            msg = TOPICS[t][1](T, ts, k)
            if fail_at == (t, k):
                msg.encoding = "yuv422"
            w.write(conns[t], ts, TS2.serialize_cdr(msg, TOPICS[t][0]))
    if kind == "bare-mcap":
        shutil.move(target / f"{target.name}.mcap", path)
        shutil.rmtree(target)
    return path


def bag_path(tmp: Path, kind: str, name: str = "in") -> Path:
    return tmp / (
        f"{name}.bag" if kind == "ros1" else f"{name}.mcap" if kind == "bare-mcap" else name
    )


def read_bag(path: Path) -> tuple[list, list]:
    """(messages as (topic, log time, raw bytes), connections) read back with rosbags."""
    if path.suffix == ".bag":
        from rosbags.rosbag1 import Reader
    else:
        from rosbags.rosbag2 import Reader
    with Reader(path) as r:
        msgs = [(c.topic, ts, bytes(raw)) for c, ts, raw in r.messages()]
        conns = sorted(r.connections, key=lambda c: c.topic)
        extra = {}
        if path.suffix != ".bag":
            extra = {"mode": r.compression_mode, "format": r.compression_format}
    return msgs, conns, extra


def decode(path: Path, topic: str) -> list:
    msgs, _, _ = read_bag(path)
    ros1 = path.suffix == ".bag"
    store = TS1 if ros1 else TS2
    msgtype = TOPICS[topic][0]
    out = []
    for t, _, raw in msgs:
        if t == topic:
            out.append(
                store.deserialize_ros1(raw, msgtype)
                if ros1
                else store.deserialize_cdr(raw, msgtype)
            )
    return out


def suite(**changes) -> Suite:
    data = {**SUITE, **changes}
    return Suite.from_dict(data)


def tree_digest(path: Path) -> str:
    h = hashlib.sha256()
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    for p in files:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


KINDS = ["ros1", "sqlite3", "mcap", "bare-mcap"]


@pytest.fixture(scope="module", params=KINDS)
def noised(request, tmp_path_factory):
    """(kind, input path, output path): the full bag of each kind, noised once."""
    tmp = tmp_path_factory.mktemp(request.param)
    src = write_bag(bag_path(tmp, request.param), request.param)
    dst = bag_path(tmp, request.param, "out")
    before = tree_digest(src)
    report = apply(suite(), src, dst)
    assert tree_digest(src) == before  # the input is never modified
    assert report.messages == len(schedule())
    return request.param, src, dst


# ---------------------------------------------------------------------------------------
# what must not change


def test_untouched_topics_byte_identical_and_order_kept(noised):
    kind, src, dst = noised
    a, ca, _ = read_bag(src)
    b, cb, _ = read_bag(dst)
    assert [(t, ts) for t, ts, _ in a] == [(t, ts) for t, ts, _ in b]  # order, ties included
    for (t, _, ra), (_, _, rb) in zip(a, b, strict=True):
        if t == "/chatter":
            assert ra == rb
        else:
            assert ra != rb  # noised (odometry: covariances filled)
    assert [(c.topic, c.msgtype, c.msgdef, c.digest) for c in ca] == [
        (c.topic, c.msgtype, c.msgdef, c.digest) for c in cb
    ]
    if kind == "ros1":  # latching and caller id
        assert [c.ext for c in ca] == [c.ext for c in cb]
        assert {c.topic: c.ext.latching for c in cb}["/odom"] == 1
    else:  # QoS profiles and serialization format
        assert [c.ext for c in ca] == [c.ext for c in cb]
        assert {c.topic: c.ext.offered_qos_profiles for c in cb}["/odom"] == [QOS]


@pytest.mark.parametrize(
    ("kind", "compression"),
    [
        ("ros1", "lz4"),
        ("ros1", "bz2"),
        ("sqlite3", "file"),
        ("sqlite3", "message"),
        ("mcap", "storage"),
        ("mcap", "message"),
    ],
)
def test_compression_setting_kept(tmp_path, kind, compression):
    src = write_bag(
        bag_path(tmp_path, kind), kind, topics=["/cam", "/chatter"], compression=compression
    )
    dst = bag_path(tmp_path, kind, "out")
    apply(suite(), src, dst)
    if kind == "ros1":
        from rosbags.rosbag1 import Reader
        from rosbags.rosbag1.reader import decompressors

        names = {id(f): n for n, f in decompressors.items()}
        with Reader(dst) as r:
            kinds = {names[id(c.decompressor)] for c in r.chunks.values()}
        assert kinds == {compression}
    else:
        from rosbags.rosbag2 import Reader

        with Reader(dst) as r:
            if compression == "storage":
                assert {ch.compression for ch in r.storage.storages[0].chunks} == {"zstd"}
            else:
                assert (r.compression_mode, r.compression_format) == (compression, "zstd")
    a, _, _ = read_bag(src)
    b, _, _ = read_bag(dst)
    assert [x[2] for x in a if x[0] == "/chatter"] == [x[2] for x in b if x[0] == "/chatter"]


# ---------------------------------------------------------------------------------------
# the noise: exact bits and statistics


def _imu_inputs(msgs):
    w = np.array([[m.angular_velocity.x, m.angular_velocity.y, m.angular_velocity.z] for m in msgs])
    a = np.array(
        [[m.linear_acceleration.x, m.linear_acceleration.y, m.linear_acceleration.z] for m in msgs]
    )
    t = np.array([m.header.stamp.sec * 10**9 + m.header.stamp.nanosec for m in msgs])
    return w, a, t


def test_imu_topic_is_imu_noise_from_the_first_message(noised):
    """The whole topic equals one ImuNoise.apply over it, dt from the integer-ns stamps
    (message 0 takes 1 / the entry's rate: causal, as a live node), keyed by the topic's
    name."""
    kind, src, dst = noised
    w, a, t = _imu_inputs(decode(src, "/imu"))
    out = decode(dst, "/imu")
    wo, ao, _ = _imu_inputs(out)
    dt = np.concatenate([[1.0 / IMU_FIRST_RATE], np.diff(t) / 1e9])
    assert dt[0] == 0.004 and np.all(dt[1:] == 0.01)
    model = ImuNoise(
        gyro={"noise_stddev": 0.01},
        accel={"noise_stddev": 0.1},
        seed=name_seed_sequence(SEED, "/imu"),
    )
    ew, ea = model.apply(w, a, dt)
    np.testing.assert_array_equal(wo, ew)
    np.testing.assert_array_equal(ao, ea)
    # statistics: 900 samples per triad, the sample std within 10% of the figure
    # (its relative standard error is 1/sqrt(2 * 900) = 2.4%)
    assert abs(np.std(wo - w) / 0.01 - 1) < 0.10
    assert abs(np.std(ao - a) / 0.1 - 1) < 0.10
    # covariances: the white_and_bias convention (white + bias variance), orientation untouched
    np.testing.assert_allclose(out[0].angular_velocity_covariance[[0, 4, 8]], 1e-4)
    np.testing.assert_allclose(out[0].linear_acceleration_covariance[[0, 4, 8]], 1e-2)
    assert np.all(out[0].orientation_covariance == 0.5)
    assert out[0].orientation.w == 1.0


def test_noised_records_are_what_rosbags_serializes(noised):
    """Image and PointCloud2 records are written by replacing the data bytes of the
    input record: they equal a fresh serialization of the noised message."""
    kind, src, dst = noised
    msgs, _, _ = read_bag(dst)
    for topic in ("/cam", "/points", "/imu"):
        msgtype = TOPICS[topic][0]
        for t, _, raw in msgs:
            if t != topic:
                continue
            if kind == "ros1":
                again = TS1.serialize_ros1(TS1.deserialize_ros1(raw, msgtype), msgtype)
            else:
                again = TS2.serialize_cdr(TS2.deserialize_cdr(raw, msgtype), msgtype)
            assert bytes(again) == raw


def test_cloud_topic_is_lidar_noise_per_frame(noised):
    kind, src, dst = noised
    model = LidarNoise(distance_noise_stddev_base=0.05, seed=name_seed_sequence(SEED, "/points"))
    errs = []
    for k, m in enumerate(decode(dst, "/points")):
        got = np.frombuffer(m.data.tobytes(), np.float32).reshape(-1, 5)
        src_pts = cloud_array(k)
        exp = model.apply(np.ascontiguousarray(src_pts[:, :3]), frame=k).points
        np.testing.assert_array_equal(got[:, :3], exp)
        np.testing.assert_array_equal(got[:, 3:], src_pts[:, 3:])  # pad and intensity kept
        assert np.all(np.isnan(got[-2:, :3]))  # NaN points stay NaN
        d0 = np.linalg.norm(src_pts[:-2, :3], axis=1)
        errs.append(np.linalg.norm(got[:-2, :3], axis=1) - d0)
    # 24 x 198 distance errors: std within 5% of 0.05 m (standard error 1.0%)
    assert abs(np.std(np.concatenate(errs)) / 0.05 - 1) < 0.05


def test_image_topic_is_image_noise_per_frame(noised):
    kind, src, dst = noised
    model = ImageNoise(stddev=0.02, seed=name_seed_sequence(SEED, "/cam"))
    diffs = []
    for k, m in enumerate(decode(dst, "/cam")):
        got = np.asarray(m.data).reshape(16, 20, 3)
        np.testing.assert_array_equal(got, model.apply(cam_pixels(k), frame=k))
        diffs.append(got.astype(int) - cam_pixels(k))
    # 24 x 320 pixels (one normal per pixel, shared by its channels): std of the level
    # change within 5% of sqrt((0.02 * 255)^2 + 1/12) (rounding); standard error 0.8%
    d = np.concatenate([x[..., 0].ravel() for x in diffs])
    assert abs(np.std(d) / np.sqrt((0.02 * 255) ** 2 + 1 / 12) - 1) < 0.05


def test_scan_and_odometry_topics(noised):
    from fastnoise import RangeNoise

    kind, src, dst = noised
    for k, m in enumerate(decode(dst, "/scan")):
        ranges = scan_msg(TS2.types, 0, k).ranges
        model = RangeNoise(0.0, 0.03, 0.2, 8.0, seed=name_seed_sequence(SEED, "/scan"))
        np.testing.assert_array_equal(m.ranges, model.apply(ranges, frame=k))
        assert m.ranges[5] == np.inf and m.ranges[6] == np.float32(8.0)  # Gazebo's rules
        fin = m.ranges[np.isfinite(m.ranges)]
        assert fin.max() <= np.float32(8.0) and fin.min() >= np.float32(0.2)
        np.testing.assert_array_equal(m.intensities, np.arange(90, dtype=np.float32))
    from fastnoise.models.imu import odometry_covariances

    pose, twist = odometry_covariances()
    for m in decode(dst, "/odom"):
        np.testing.assert_array_equal(m.pose.covariance, pose)
        np.testing.assert_array_equal(m.twist.covariance, twist)


# ---------------------------------------------------------------------------------------
# reproducibility


@pytest.mark.parametrize("kind", ["ros1", "sqlite3"])
def test_subset_of_topics_and_rerun_give_the_same_noise(tmp_path, kind):
    full = write_bag(bag_path(tmp_path, kind, "full"), kind)
    part = write_bag(bag_path(tmp_path, kind, "part"), kind, topics=["/cam", "/imu"][::-1])
    apply(suite(), full, bag_path(tmp_path, kind, "full_out"))
    apply(suite(), part, bag_path(tmp_path, kind, "part_out"))
    apply(suite(), full, bag_path(tmp_path, kind, "again"))
    a, _, _ = read_bag(bag_path(tmp_path, kind, "full_out"))
    b, _, _ = read_bag(bag_path(tmp_path, kind, "part_out"))
    c, _, _ = read_bag(bag_path(tmp_path, kind, "again"))
    assert a == c
    for topic in ("/cam", "/imu"):
        assert [x[2] for x in a if x[0] == topic] == [x[2] for x in b if x[0] == topic]
    # a ROS 1 and a ROS 2 bag of the same images get the same pixels (same topic key)
    other = "sqlite3" if kind == "ros1" else "ros1"
    src2 = write_bag(bag_path(tmp_path, other, "x"), other, topics=["/cam"])
    apply(suite(), src2, bag_path(tmp_path, other, "x_out"))
    pa = [np.asarray(m.data) for m in decode(bag_path(tmp_path, kind, "full_out"), "/cam")]
    pb = [np.asarray(m.data) for m in decode(bag_path(tmp_path, other, "x_out"), "/cam")]
    for x, y in zip(pa, pb, strict=True):
        np.testing.assert_array_equal(x, y)


def test_other_seed_gives_other_noise(tmp_path):
    src = write_bag(tmp_path / "in", "sqlite3", topics=["/cam"])
    apply(suite(), src, tmp_path / "a")
    apply(suite(seed=43), src, tmp_path / "b")
    a, _, _ = read_bag(tmp_path / "a")
    b, _, _ = read_bag(tmp_path / "b")
    assert a != b


# ---------------------------------------------------------------------------------------
# safety and refusals


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if "fastnoise-tmp" in p.name]


@pytest.mark.parametrize("kind", ["ros1", "sqlite3", "bare-mcap"])
def test_failure_midway_leaves_no_output(tmp_path, kind):
    src = write_bag(
        bag_path(tmp_path, kind), kind, topics=["/cam", "/chatter"], fail_at=("/cam", 7)
    )
    dst = bag_path(tmp_path, kind, "out")
    with pytest.raises(ApplyError, match=r"topic /cam message 7 .*yuv422"):
        apply(suite(), src, dst)
    assert not dst.exists() and not _leftovers(tmp_path)


def test_interrupt_leaves_no_output_and_keeps_an_old_one(tmp_path, monkeypatch):
    from fastnoise.io.ros import noise

    src = write_bag(tmp_path / "in", "mcap", topics=["/cam"])
    dst = tmp_path / "out"
    dst.mkdir()
    (dst / "old.txt").write_text("old")
    real = noise.TopicNoise.apply_inplace

    def interrupted(self, msg, t=None, out=None):
        if self.frame == 5:
            raise KeyboardInterrupt
        return real(self, msg, t, out)

    monkeypatch.setattr(noise.TopicNoise, "apply_inplace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        apply(suite(), src, dst, overwrite=True)
    assert (dst / "old.txt").read_text() == "old" and not _leftovers(tmp_path)
    monkeypatch.undo()
    apply(suite(), src, dst, overwrite=True)
    assert not (dst / "old.txt").exists() and (dst / "metadata.yaml").exists()


def test_paths_refused(tmp_path):
    src = write_bag(tmp_path / "in", "sqlite3", topics=["/chatter"])
    with pytest.raises(ApplyError, match="same path"):
        apply(suite(), src, src)
    with pytest.raises(ApplyError, match="same path"):
        apply(suite(), src, tmp_path / "." / "in", overwrite=True)
    with pytest.raises(ApplyError, match="inside IN"):
        apply(suite(), src, src / "out")
    (tmp_path / "out").mkdir()
    with pytest.raises(ApplyError, match="exists: remove it or give --overwrite"):
        apply(suite(), src, tmp_path / "out")
    with pytest.raises(ApplyError, match="does not exist"):
        apply(suite(), tmp_path / "nothing.bag", tmp_path / "x.bag")


def test_model_type_mismatch_and_bad_stamps_warn(tmp_path):
    src = write_bag(tmp_path / "in", "sqlite3", topics=["/imu", "/chatter"])
    bad = Suite.from_dict({"seed": 1, "topics": {"/imu": {"model": "camera"}}})
    with pytest.raises(ApplyError, match=r"topic /imu \(sensor_msgs/Imu\).*takes imu"):
        apply(bad, src, tmp_path / "out")
    bad = Suite.from_dict({"seed": 1, "topics": {"/chatter": {"model": "camera"}}})
    with pytest.raises(ApplyError, match=r"topic /chatter \(std_msgs/String\)"):
        apply(bad, src, tmp_path / "out", dry_run=True)
    # IMU stamps that repeat and go backwards: a StampWarning names the topic, the index
    # and both stamps; the message takes the last good step, the next counts from it
    from rosbags.rosbag2 import Writer

    from fastnoise.io.ros import StampWarning

    path = tmp_path / "stamps"
    stamps_ms = [0, 10, 20, 20, 30, 25, 35]
    with Writer(path, version=9) as w:
        c = w.add_connection("/imu", TOPICS["/imu"][0], typestore=TS2)
        for k, t in enumerate(stamps_ms):
            w.write(
                c,
                T0 + k,
                TS2.serialize_cdr(imu_msg(TS2.types, T0 + t * 10**6, k), TOPICS["/imu"][0]),
            )
    with pytest.warns(StampWarning) as caught:
        report = apply(suite(), path, tmp_path / "out2")
    assert "note: topic /imu: 2 stamps repeated or went backwards" in report.text()
    texts = [str(c.message) for c in caught if c.category is StampWarning]
    t3, t5 = T0 + 20 * 10**6, T0 + 25 * 10**6
    assert texts == [
        f"topic /imu message 3: stamp {t3} ns repeats the previous message's {t3} ns: "
        "noised with the last time step, 0.01 s",
        f"topic /imu message 5: stamp {t5} ns goes backwards from the previous message's "
        f"{T0 + 30 * 10**6} ns: noised with the last time step, 0.01 s",
    ]
    w_in, a_in, _ = _imu_inputs(decode(path, "/imu"))
    w_out, a_out, _ = _imu_inputs(decode(tmp_path / "out2", "/imu"))
    # 1/rate, then the stamp steps; 3 and 5 repeat the last good step; 6 counts from 5
    dt = [1 / IMU_FIRST_RATE, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01]
    model = ImuNoise(
        gyro={"noise_stddev": 0.01},
        accel={"noise_stddev": 0.1},
        seed=name_seed_sequence(SEED, "/imu"),
    )
    ew, ea = model.apply(w_in, a_in, np.array(dt))
    np.testing.assert_array_equal(w_out, ew)
    np.testing.assert_array_equal(a_out, ea)


def test_dry_run_writes_nothing(tmp_path):
    src = write_bag(tmp_path / "in", "sqlite3", topics=["/cam", "/chatter"])
    report = apply(suite(), src, tmp_path / "out", dry_run=True)
    assert not (tmp_path / "out").exists()
    text = report.text()
    assert "/cam" in text and "model camera" in text and "copied unchanged" in text
