"""fastnoise.io.ros message helpers and TopicNoise on single messages: PointCloud2
layouts (offsets, point_step, row padding, organized, big-endian, float64, NaN), Image
encodings (step padding, is_bigendian, channel orders, alpha, 32FC1 depth),
CompressedImage (JPEG quality, PNG exact, compressedDepth refused), LaserScan limits from
each message, Imu covariance conventions."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("rosbags")
from rosbags.typesys import Stores, get_typestore  # noqa: E402

from fastnoise import DepthNoise, ImageNoise, ImuNoise, LidarNoise, RangeNoise  # noqa: E402
from fastnoise.io.ros import (  # noqa: E402
    TopicNoise,
    fill_imu_covariance,
    image_array,
    pointcloud2_array,
    pointcloud2_xyz,
    set_image_array,
)
from fastnoise.io.suite import Suite, name_seed_sequence  # noqa: E402

T = get_typestore(Stores.ROS2_HUMBLE).types


def hdr(t_ns: int = 0):
    stamp = T["builtin_interfaces/msg/Time"](sec=t_ns // 10**9, nanosec=t_ns % 10**9)
    return T["std_msgs/msg/Header"](stamp=stamp, frame_id="f")


def noise_for(model: str, topic: str = "/t", **params) -> TopicNoise:
    suite = Suite.from_dict({"seed": 7, "topics": {topic: {"model": model, **params}}})
    return TopicNoise.from_suite(suite, topic)


# ---------------------------------------------------------------------------------------
# PointCloud2


def organized_cloud(big: bool):
    """3 rows x 7 points, point_step 40, row_step padded by 16 bytes: ring u16 @0,
    x/y/z float64 @4/12/20, intensity float32 @28; row 1 point 2 is NaN."""
    o = ">" if big else "<"
    dt = np.dtype(
        {
            "names": ["ring", "x", "y", "z", "intensity"],
            "formats": [o + "u2", o + "f8", o + "f8", o + "f8", o + "f4"],
            "offsets": [0, 4, 12, 20, 28],
            "itemsize": 40,
        }
    )
    h, w, row = 3, 7, 7 * 40 + 16
    buf = np.frombuffer(np.random.default_rng(1).bytes(h * row), np.uint8).copy()
    pts = np.ndarray((h, w), dtype=dt, buffer=buf, strides=(row, 40))
    pts["ring"] = np.arange(h)[:, None]
    pts["x"] = np.linspace(1, 30, h * w).reshape(h, w)
    pts["y"] = -2.0
    pts["z"] = 0.25
    pts["intensity"] = 3.5
    pts["x"][1, 2] = np.nan
    PF = T["sensor_msgs/msg/PointField"]
    fields = [
        PF(name="ring", offset=0, datatype=4, count=1),
        PF(name="x", offset=4, datatype=8, count=1),
        PF(name="y", offset=12, datatype=8, count=1),
        PF(name="z", offset=20, datatype=8, count=1),
        PF(name="intensity", offset=28, datatype=7, count=1),
    ]
    msg = T["sensor_msgs/msg/PointCloud2"](
        header=hdr(),
        height=h,
        width=w,
        fields=fields,
        is_bigendian=big,
        point_step=40,
        row_step=row,
        data=buf,
        is_dense=False,
    )
    return msg, buf.copy()


@pytest.mark.parametrize("big", [False, True])
def test_pointcloud2_layouts(big):
    msg, before = organized_cloud(big)
    xyz = pointcloud2_xyz(msg)
    assert xyz.dtype == np.float64 and xyz.shape == (21, 3) and xyz.dtype.isnative
    arr = pointcloud2_array(msg)
    np.testing.assert_array_equal(xyz[:, 0], arr["x"].reshape(-1))
    noise = noise_for("lidar", distance_noise_stddev_base=0.1, hitpoint_angular_noise_stddev=0.01)
    noise.apply_inplace(msg)
    noise.apply_inplace(msg)  # frame 1
    got = pointcloud2_xyz(msg)
    model = LidarNoise(
        distance_noise_stddev_base=0.1,
        hitpoint_angular_noise_stddev=0.01,
        seed=name_seed_sequence(7, "/t"),
    )
    exp = model.apply(model.apply(xyz, frame=0).points, frame=1).points
    np.testing.assert_array_equal(got, exp)
    assert np.isnan(got[9, 0])  # the NaN point (row 1, point 2) is kept
    # every byte outside x, y, z is kept: ring, intensity, gaps and row padding
    after = np.asarray(msg.data)
    mask = np.ones(before.size, bool)
    for r in range(3):
        for p in range(7):
            base = r * (7 * 40 + 16) + p * 40
            mask[base + 4 : base + 28] = False
    np.testing.assert_array_equal(after[mask], before[mask])


def test_pointcloud2_float32_fields_and_bad_layouts():
    msg, _ = organized_cloud(False)
    msg.fields[1].datatype = 5  # x as INT32
    with pytest.raises(ValueError, match="field 'x' has datatype 5"):
        pointcloud2_xyz(msg)
    msg, _ = organized_cloud(False)
    msg.fields = msg.fields[:2]
    with pytest.raises(ValueError, match="no field 'y'"):
        pointcloud2_xyz(msg)
    msg, _ = organized_cloud(False)
    msg.data = np.asarray(msg.data)[:100]
    with pytest.raises(ValueError, match="does not fit"):
        pointcloud2_xyz(msg)


# ---------------------------------------------------------------------------------------
# Image


def image(encoding: str, pixels: np.ndarray, pad: int = 0, big: bool = False):
    h, w = pixels.shape[:2]
    row = pixels.reshape(h, -1)
    if pixels.dtype.itemsize > 1:
        row = pixels.astype(pixels.dtype.newbyteorder(">" if big else "<")).reshape(h, w, -1)
        row = row.view(np.uint8).reshape(h, -1)
    else:
        row = row.view(np.uint8)
    data = np.full((h, row.shape[1] + pad), 0xAB, np.uint8)
    data[:, : row.shape[1]] = row
    return T["sensor_msgs/msg/Image"](
        header=hdr(),
        height=h,
        width=w,
        encoding=encoding,
        is_bigendian=int(big),
        step=data.shape[1],
        data=data.reshape(-1),
    )


def cam(**kw) -> ImageNoise:
    return ImageNoise(seed=name_seed_sequence(7, "/t"), **kw)


def test_mono8_and_padding_kept():
    px = np.random.default_rng(2).integers(0, 256, (9, 11), dtype=np.uint8)
    msg = image("mono8", px, pad=5)
    noise_for("camera", stddev=0.05).apply_inplace(msg)
    np.testing.assert_array_equal(image_array(msg), cam(stddev=0.05).apply(px, frame=0))
    assert np.all(np.asarray(msg.data).reshape(9, 16)[:, 11:] == 0xAB)


@pytest.mark.parametrize("big", [False, True])
def test_mono16_byte_order(big):
    px = np.random.default_rng(3).integers(0, 65536, (6, 8), dtype=np.uint16)
    msg = image("mono16", px, pad=4, big=big)
    assert np.array_equal(image_array(msg), px)
    noise_for("camera", stddev=0.01).apply_inplace(msg)
    np.testing.assert_array_equal(image_array(msg), cam(stddev=0.01).apply(px, frame=0))
    raw = np.asarray(msg.data).reshape(6, 20)[:, :16].copy().view(">u2" if big else "<u2")
    np.testing.assert_array_equal(raw, cam(stddev=0.01).apply(px, frame=0))


def test_colour_orders_get_the_same_noise_per_colour():
    rgb = np.random.default_rng(4).integers(0, 256, (5, 6, 3), dtype=np.uint8)
    alpha = np.arange(30, dtype=np.uint8).reshape(5, 6, 1)
    want = cam(stddev=0.04, per_channel=True).apply(rgb, frame=0)
    cases = {
        "rgb8": (rgb, lambda a: a),
        "bgr8": (rgb[..., ::-1], lambda a: a[..., ::-1]),
        "rgba8": (np.concatenate([rgb, alpha], 2), lambda a: a[..., :3]),
        "bgra8": (np.concatenate([rgb[..., ::-1], alpha], 2), lambda a: a[..., 2::-1]),
    }
    for enc, (px, colours) in cases.items():
        for pad in (0, 3):
            msg = image(enc, np.ascontiguousarray(px), pad=pad)
            noise_for("camera", stddev=0.04, per_channel=True).apply_inplace(msg)
            out = image_array(msg)
            np.testing.assert_array_equal(colours(out), want, err_msg=enc)
            if out.shape[-1] == 4:
                np.testing.assert_array_equal(out[..., 3:], alpha)  # alpha kept


def test_depth_32fc1_in_metres():
    d = np.linspace(0.3, 40.0, 12 * 10, dtype=np.float32).reshape(12, 10)
    d[0, 0], d[0, 1], d[0, 2] = np.nan, np.inf, -np.inf
    msg = image("32FC1", d, pad=8)
    noise_for("depth", stddev=0.05).apply_inplace(msg)
    got = image_array(msg)
    exp = DepthNoise(stddev=0.05, seed=name_seed_sequence(7, "/t")).apply(d, frame=0)
    np.testing.assert_array_equal(got, exp)
    assert np.isnan(got[0, 0]) and got[0, 1] == np.inf and got[0, 2] == -np.inf
    assert got[-1, -1] > 39.0  # no [0, 1] clamp
    fin = np.isfinite(d)
    diff = got[fin] - d[fin]
    assert 0.02 < np.std(diff) < 0.08  # 117 samples of sd 0.05 (loose: 6 sigma)


def test_image_refusals():
    px = np.zeros((2, 2), np.float32)
    with pytest.raises(ValueError, match="32FC1' takes model depth"):
        noise_for("camera").apply_inplace(image("32FC1", px))
    with pytest.raises(ValueError, match="'rgb8' takes model camera"):
        noise_for("depth").apply_inplace(image("rgb8", np.zeros((2, 2, 3), np.uint8)))
    msg = image("mono8", np.zeros((2, 2), np.uint8))
    msg.encoding = "16UC1"
    with pytest.raises(ValueError, match="'16UC1' is not handled"):
        noise_for("camera").apply_inplace(msg)


def test_a_refused_message_still_counts_as_received():
    """Message k received is frame k, also after a malformed message was refused."""
    px = np.full((4, 4), 100, np.uint8)
    node = noise_for("camera", stddev=0.1)
    bad = image("mono8", px)
    bad.encoding = "16UC1"
    with pytest.raises(ValueError, match="is not handled"):
        node.apply_inplace(bad)
    good = node.apply_inplace(image("mono8", px))
    ref = ImageNoise(stddev=0.1, seed=name_seed_sequence(7, "/t")).apply(px, frame=1)
    np.testing.assert_array_equal(image_array(good), ref)
    assert node.frame == 2


def test_set_image_array_round_trip():
    px = np.arange(24, dtype=np.uint16).reshape(4, 6)
    msg = image("mono16", px, pad=2, big=True)
    set_image_array(msg, px + 1)
    np.testing.assert_array_equal(image_array(msg), px + 1)


# ---------------------------------------------------------------------------------------
# CompressedImage


def compressed(fmt: str, px: np.ndarray, ext: str):
    cv2 = pytest.importorskip("cv2")
    ok, buf = cv2.imencode(ext, px)
    assert ok
    return T["sensor_msgs/msg/CompressedImage"](header=hdr(), format=fmt, data=buf.reshape(-1))


def test_compressed_png_is_exact_and_jpeg_quality_used():
    cv2 = pytest.importorskip("cv2")
    bgr = np.random.default_rng(5).integers(30, 220, (24, 32, 3), dtype=np.uint8)
    msg = compressed("bgr8; png compressed bgr8", bgr, ".png")
    noise_for("camera", stddev=0.03).apply_inplace(msg)
    got = cv2.imdecode(np.asarray(msg.data), cv2.IMREAD_UNCHANGED)
    exp = cam(stddev=0.03).apply(bgr[..., ::-1], frame=0)[..., ::-1]  # colours in RGB order
    np.testing.assert_array_equal(got, exp)
    assert msg.format == "bgr8; png compressed bgr8"
    sizes = {}
    for q in (40, 100):
        m = compressed("rgb8; jpeg compressed bgr8", bgr, ".jpg")
        noise_for("camera", stddev=0.03, quality=q).apply_inplace(m)
        sizes[q] = len(m.data)
        assert bytes(np.asarray(m.data)[:2]) == b"\xff\xd8"
    assert sizes[100] > sizes[40]
    # 16-bit grey PNG
    grey = np.random.default_rng(6).integers(0, 65536, (8, 8), dtype=np.uint16)
    m = compressed("mono16; png compressed mono16", grey, ".png")
    noise_for("camera", stddev=0.01).apply_inplace(m)
    got = cv2.imdecode(np.asarray(m.data), cv2.IMREAD_UNCHANGED)
    np.testing.assert_array_equal(got, cam(stddev=0.01).apply(grey, frame=0))


def test_compressed_depth_refused():
    pytest.importorskip("cv2")
    m = compressed("16UC1; compressedDepth png", np.zeros((4, 4), np.uint16), ".png")
    with pytest.raises(ValueError, match="compressedDepth"):
        noise_for("camera").apply_inplace(m)


# ---------------------------------------------------------------------------------------
# LaserScan and Imu


def scan(lo: float, hi: float, ranges):
    return T["sensor_msgs/msg/LaserScan"](
        header=hdr(),
        angle_min=0.0,
        angle_max=1.0,
        angle_increment=0.1,
        time_increment=0.0,
        scan_time=0.1,
        range_min=lo,
        range_max=hi,
        ranges=np.asarray(ranges, np.float32),
        intensities=np.zeros(0, np.float32),
    )


def test_laserscan_uses_each_messages_limits():
    noise = noise_for("range", stddev=0.5)
    r = np.array([0.3, 2.0, 4.9, np.nan, np.inf], np.float32)
    a = noise.apply_inplace(scan(0.2, 5.0, r))
    b = noise.apply_inplace(scan(1.0, 3.0, r))
    ss = name_seed_sequence(7, "/t")
    np.testing.assert_array_equal(
        a.ranges, RangeNoise(0.0, 0.5, 0.2, 5.0, seed=ss).apply(r, frame=0)
    )
    np.testing.assert_array_equal(
        b.ranges, RangeNoise(0.0, 0.5, 1.0, 3.0, seed=ss).apply(r, frame=1)
    )
    assert b.ranges[3] == np.float32(3.0) and b.ranges[4] == np.inf
    assert np.nanmin(b.ranges[:3]) >= 1.0 and np.nanmax(b.ranges[:3]) <= 3.0
    with pytest.raises(ValueError, match="range_min 4.0, range_max 3.0"):
        noise.apply_inplace(scan(4.0, 3.0, r))


def imu(t_ns):
    V, Q = T["geometry_msgs/msg/Vector3"], T["geometry_msgs/msg/Quaternion"]
    return T["sensor_msgs/msg/Imu"](
        header=hdr(t_ns),
        orientation=Q(x=0.0, y=0.0, z=0.0, w=1.0),
        orientation_covariance=np.full(9, -1.0),
        angular_velocity=V(x=0.0, y=0.0, z=0.0),
        angular_velocity_covariance=np.zeros(9),
        linear_acceleration=V(x=0.0, y=0.0, z=9.8),
        linear_acceleration_covariance=np.zeros(9),
    )


def test_imu_covariance_conventions_and_first_dt():
    gyro = {
        "noise_stddev": 0.01,
        "gauss_markov_stddev": 0.002,
        "gauss_markov_correlation_time": 100.0,
    }
    model = ImuNoise(gyro=gyro, accel={"noise_stddev": 0.1}, seed=1)
    m = imu(0)
    fill_imu_covariance(m, model, 0.01, "white_and_bias")
    np.testing.assert_allclose(m.angular_velocity_covariance[[0, 4, 8]], 0.01**2 + 0.002**2)
    fill_imu_covariance(m, model, 0.01, "gazebo")
    np.testing.assert_allclose(m.angular_velocity_covariance[[0, 4, 8]], 0.01**2)
    assert np.all(m.angular_velocity_covariance[[1, 2, 3, 5, 6, 7]] == 0)
    m2 = imu(0)
    fill_imu_covariance(m2, model, 0.01, "keep")
    assert np.all(m2.angular_velocity_covariance == 0)
    # the first step is 1 / rate (or first_dt, which overrides it); the later ones
    # the stamp differences
    table = {"model": "imu", "gyro": gyro, "covariance": "gazebo", "rate": 50}
    suite = Suite.from_dict({"seed": 3, "topics": {"/imu": table}})
    node = TopicNoise.from_suite(suite, "/imu")
    assert node.first_dt == 0.02
    out = [node.apply_inplace(imu(k * 10_000_000)) for k in range(3)]
    assert out[2].orientation_covariance[0] == -1.0
    np.testing.assert_allclose(out[2].angular_velocity_covariance[0], 0.01**2)
    ref = ImuNoise(gyro=gyro, seed=name_seed_sequence(3, "/imu"))
    w, _ = ref.apply(np.zeros((3, 3)), np.tile([0, 0, 9.8], (3, 1)), np.array([0.02, 0.01, 0.01]))
    np.testing.assert_array_equal([o.angular_velocity.z for o in out], w[:, 2])
    node = TopicNoise.from_suite(suite, "/imu", first_dt=0.01)
    out = [node.apply_inplace(imu(k * 10_000_000)) for k in range(3)]
    ref = ImuNoise(gyro=gyro, seed=name_seed_sequence(3, "/imu"))
    w, _ = ref.apply(np.zeros((3, 3)), np.tile([0, 0, 9.8], (3, 1)), 0.01)
    np.testing.assert_array_equal([o.angular_velocity.z for o in out], w[:, 2])
    for bad in (0.0, -1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match=r"first_dt=.* is not allowed"):
            TopicNoise.from_suite(suite, "/imu", first_dt=bad)


def test_imu_log_stamps_option():
    """stamps = "log": dt from the bag's record times, not header.stamp."""
    suite = Suite.from_dict(
        {
            "seed": 3,
            "topics": {
                "/imu": {
                    "model": "imu",
                    "gyro": {"noise_stddev": 0.01},
                    "stamps": "log",
                    "rate": 50,
                }
            },
        }
    )
    node = TopicNoise.from_suite(suite, "/imu")
    with pytest.raises(ValueError, match="needs the log time"):
        node.apply_inplace(imu(0))
    node = TopicNoise.from_suite(suite, "/imu")
    out = [node.apply_inplace(imu(0), log_time_ns=k * 20_000_000) for k in range(3)]  # stamps all 0
    ref = ImuNoise(gyro={"noise_stddev": 0.01}, seed=name_seed_sequence(3, "/imu"))
    w, _ = ref.apply(np.zeros((3, 3)), np.tile([0, 0, 9.8], (3, 1)), 0.02)
    np.testing.assert_array_equal([o.angular_velocity.x for o in out], w[:, 0])


def test_pointcloud2_fields_in_any_order():
    """x, y, z not adjacent in x-y-z order: read and written field by field."""
    msg, _ = organized_cloud(False)
    msg.fields[2].offset, msg.fields[3].offset = 20, 12  # y after z
    xyz = pointcloud2_xyz(msg)
    arr = pointcloud2_array(msg)
    np.testing.assert_array_equal(xyz[:, 1], arr["y"].reshape(-1))
    np.testing.assert_array_equal(xyz[:, 2], arr["z"].reshape(-1))
    noise = noise_for("lidar", distance_noise_stddev_base=0.1)
    noise.apply_inplace(msg)
    model = LidarNoise(distance_noise_stddev_base=0.1, seed=name_seed_sequence(7, "/t"))
    np.testing.assert_array_equal(pointcloud2_xyz(msg), model.apply(xyz, frame=0).points)


def test_stamp_warning_for_a_live_node():
    """A stamp that repeats or goes backwards warns (pointing at the caller's line) and
    the message is noised with the last good step; the next step counts from it."""
    import dataclasses
    import warnings

    from fastnoise.io.ros import StampWarning

    gyro = {"noise_stddev": 0.01}
    suite = Suite.from_dict(
        {"seed": 4, "topics": {"/imu": {"model": "imu", "gyro": gyro, "rate": 100}}}
    )
    node = TopicNoise.from_suite(suite, "/imu")
    stamps = [0, 5, 5, 3, 8]  # ms: dt 0.01 (1/rate), 0.005, repeat, backwards, 0.005
    out = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for t in stamps:
            out.append(node.apply_inplace(imu(t * 1_000_000)).angular_velocity.x)
    assert [w.category for w in caught] == [StampWarning, StampWarning]
    assert all(w.filename == __file__ for w in caught)  # the caller's line
    assert "topic /imu message 2: stamp 5000000 ns repeats" in str(caught[0].message)
    assert "message 3: stamp 3000000 ns goes backwards from the previous message's 5000000" in str(
        caught[1].message
    )
    ref = ImuNoise(gyro=gyro, seed=name_seed_sequence(4, "/imu"))
    dt = np.array([0.01, 0.005, 0.005, 0.005, 0.005])
    w, _ = ref.apply(np.zeros((5, 3)), np.tile([0, 0, 9.8], (5, 1)), dt)
    np.testing.assert_array_equal(out, w[:, 0])
    # an IMU entry without a rate (only possible by building one by hand) is refused
    # with the fix named, unless first_dt is given
    entry = dataclasses.replace(suite.for_topic("/imu"), options={})
    with pytest.raises(ValueError, match=r"topic /imu .*give rate = <Hz> .* or first_dt"):
        TopicNoise(entry, "/imu", "sensor_msgs/msg/Imu")
    assert TopicNoise(entry, "/imu", "sensor_msgs/Imu", first_dt=0.01).first_dt == 0.01


# ---------------------------------------------------------------------------------------
# PointCloud2 points into a caller's array; a topic's reused points buffer


def packed_cloud(n: int, seed: int, dtype: str = "<f4"):
    """1 x n points, point_step 16 (x, y, z of ``dtype`` then a float32 intensity, or
    x, y, z float64 at a 32-byte step), as a driver packs them."""
    f64 = dtype.endswith("8")
    step = 32 if f64 else 16
    rng = np.random.default_rng(seed)
    xyz = rng.uniform(-20.0, 20.0, (n, 3))
    buf = np.zeros(n * step, np.uint8)
    cells = np.ndarray((n, 3), dtype=dtype, buffer=buf, strides=(step, 8 if f64 else 4))
    cells[...] = xyz
    tail = 24 if f64 else 12
    np.ndarray((n,), dtype="<f4", buffer=buf, offset=tail, strides=(step,))[...] = 7.0
    PF = T["sensor_msgs/msg/PointField"]
    kind, size = (8, 8) if f64 else (7, 4)
    fields = [PF(name=c, offset=size * i, datatype=kind, count=1) for i, c in enumerate("xyz")]
    fields.append(PF(name="intensity", offset=tail, datatype=7, count=1))
    msg = T["sensor_msgs/msg/PointCloud2"](
        header=hdr(),
        height=1,
        width=n,
        fields=fields,
        is_bigendian=False,
        point_step=step,
        row_step=step * n,
        data=buf,
        is_dense=True,
    )
    return msg, cells.astype(np.float64 if f64 else np.float32)


def test_pointcloud2_xyz_into_out():
    """``out`` receives exactly what a new array would hold and is returned; an out
    of another shape, dtype or layout is refused, naming out and what it must be."""
    from fastnoise.io.ros.messages import pointcloud2_xyz_dtype

    msg, xyz = packed_cloud(50, 1)
    assert pointcloud2_xyz_dtype(msg) == np.float32
    out = np.full((50, 3), np.nan, np.float32)
    assert pointcloud2_xyz(msg, out=out) is out
    np.testing.assert_array_equal(out, xyz)
    np.testing.assert_array_equal(out, pointcloud2_xyz(msg))
    for bad in (
        np.empty((49, 3), np.float32),
        np.empty((50, 3), np.float64),
        np.empty((3, 50), np.float32).T,
        np.empty((50, 3), np.float32)[::-1],
        [[0.0] * 3] * 50,
    ):
        with pytest.raises(ValueError, match=r"out \(.*\) is not allowed: .*float32 .*\(50, 3\)"):
            pointcloud2_xyz(msg, out=bad)
    readonly = np.empty((50, 3), np.float32)
    readonly.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        pointcloud2_xyz(msg, out=readonly)
    msg64, xyz64 = packed_cloud(5, 2, "<f8")
    assert pointcloud2_xyz_dtype(msg64) == np.float64
    np.testing.assert_array_equal(pointcloud2_xyz(msg64, out=np.empty((5, 3))), xyz64)


def test_points_topic_reuses_its_buffer_across_sizes_and_dtypes():
    """One TopicNoise over clouds of changing size and dtype (its points buffer is
    reused, then replaced) gives frame k of the lidar model on cloud k, in place in
    the message's own bytes or into a separate ``out`` alike; the intensity bytes are
    kept."""
    noise = noise_for("lidar", distance_noise_stddev_base=0.05)
    model = LidarNoise(distance_noise_stddev_base=0.05, seed=name_seed_sequence(7, "/t"))
    plan = [(40, "<f4"), (40, "<f4"), (25, "<f4"), (25, "<f8"), (40, "<f4")]
    for k, (n, dtype) in enumerate(plan):
        msg, xyz = packed_cloud(n, 10 + k, dtype)
        before = np.asarray(msg.data).copy()
        if k % 2:  # the node's way: out is the message's own buffer
            out = np.asarray(msg.data)
            noise.apply_inplace(msg, None, out)
            assert np.asarray(msg.data) is out
        else:
            noise.apply_inplace(msg)
        np.testing.assert_array_equal(pointcloud2_xyz(msg), model.apply(xyz, frame=k).points)
        after = np.asarray(msg.data).reshape(n, -1)
        tail = 24 if dtype.endswith("8") else 12
        np.testing.assert_array_equal(after[:, tail:], before.reshape(n, -1)[:, tail:])
    # a separate out receives the noised cloud and every other byte; the input's
    # own bytes are left as they were
    msg, xyz = packed_cloud(30, 99)
    src = np.asarray(msg.data)
    before = src.copy()
    out = np.zeros_like(src)
    noise.apply_inplace(msg, None, out)
    assert np.asarray(msg.data) is out
    np.testing.assert_array_equal(src, before)
    np.testing.assert_array_equal(pointcloud2_xyz(msg), model.apply(xyz, frame=len(plan)).points)


def test_points_header_claiming_more_than_its_data_is_refused_before_allocating():
    """A PointCloud2 whose height x width would need far more bytes than it carries
    (2**40 points claimed, 16 sent) is refused with the layout error, without
    allocating a buffer of the claimed size; the topic's next message is frame 1."""
    noise = noise_for("lidar", distance_noise_stddev_base=0.05)
    msg, _ = packed_cloud(1, 3)
    msg.height, msg.width, msg.row_step = 2**20, 2**20, 16 * 2**20
    with pytest.raises(ValueError, match="does not fit"):
        noise.apply_inplace(msg)
    assert noise.frame == 1
    msg, xyz = packed_cloud(8, 4)
    noise.apply_inplace(msg)
    model = LidarNoise(distance_noise_stddev_base=0.05, seed=name_seed_sequence(7, "/t"))
    np.testing.assert_array_equal(pointcloud2_xyz(msg), model.apply(xyz, frame=1).points)


def three_layouts(n: int):
    """The same points as a packed little-endian cloud, a big-endian one and one whose
    record holds x, z, y (each with a float32 intensity 7.0 at byte 12)."""
    msg, xyz = packed_cloud(n, 4)
    big = packed_cloud(n, 4)[0]
    np.ndarray((n, 3), ">f4", buffer=big.data, strides=(16, 4))[...] = xyz
    np.ndarray((n,), ">f4", buffer=big.data, offset=12, strides=(16,))[...] = 7.0
    big.is_bigendian = True
    swapped = packed_cloud(n, 4)[0]
    swapped.fields[1].offset, swapped.fields[2].offset = 8, 4
    np.ndarray((n, 3), "<f4", buffer=swapped.data, strides=(16, 4))[...] = xyz[:, [0, 2, 1]]
    return (msg, big, swapped), xyz


def test_points_noised_in_place_and_gathered_give_the_same_points():
    """A packed little-endian cloud is noised where its x, y, z lie (no copy out and
    back); the same points in a big-endian cloud or with y and z swapped in the record
    (copied out, noised, written back) get the same noise, frame for frame, into
    ``out`` or in the message's own bytes; the intensity is kept."""
    from fastnoise.io.ros.messages import pointcloud2_xyz_rows

    n = 700
    (msg, big, swapped), xyz = three_layouts(n)
    rows = pointcloud2_xyz_rows(msg, msg.data)
    assert rows is not None and rows.strides == (16, 4)
    assert np.shares_memory(rows, msg.data)
    assert pointcloud2_xyz_rows(big, big.data) is None
    assert pointcloud2_xyz_rows(swapped, swapped.data) is None
    for frame in range(3):
        for into in (True, False):
            clouds, _ = three_layouts(n)
            got = []
            for m in clouds:
                noise = noise_for("lidar", distance_noise_stddev_base=0.05)
                noise.frame = frame
                out = np.empty_like(m.data) if into else None
                noise.apply_inplace(m, None, out)
                if into:
                    assert m.data is out
                got.append(pointcloud2_xyz(m))
                order = ">" if m.is_bigendian else "<"
                intensity = np.ndarray((n,), order + "f4", buffer=m.data, offset=12, strides=(16,))
                np.testing.assert_array_equal(intensity, 7.0)
            np.testing.assert_array_equal(got[0], got[1])
            np.testing.assert_array_equal(got[0], got[2])
            assert (got[0] != xyz).mean() > 0.9
