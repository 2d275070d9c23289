"""The suite model ``carla_lidar`` (CarlaLidarNoise) in ``fastnoise apply``: PointCloud2
topics of real bags written by rosbags (ROS 1, ROS 2 sqlite3 and MCAP) and point-cloud
files (KITTI .bin, .pcd, .ply, .npy/.npz).

Checked: the probability-0 and probability-1 cases exactly (every point kept / none),
each message's kept points against ``CarlaLidarNoise.apply(cloud, frame=k)`` of the
topic's key bit for bit, every other byte of a kept point unchanged, big-endian clouds,
organized clouds (made unorganized; or kept as they were with ``keep_layout``), the
intensity field (written; absent: nothing written; integer: refused), ``--dry-run``,
keys (a subset of topics or files gets the same noise) and the refusals naming the
topic and message index or the file.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

rosbags = pytest.importorskip("rosbags")

from rosbags.typesys import Stores, get_typestore  # noqa: E402

from fastnoise import CarlaLidarNoise, cli  # noqa: E402
from fastnoise.io.apply.apply import ApplyError, apply  # noqa: E402
from fastnoise.io.suite import Suite, name_seed_sequence  # noqa: E402

TS1 = get_typestore(Stores.ROS1_NOETIC)
TS2 = get_typestore(Stores.ROS2_HUMBLE)
PC2 = "sensor_msgs/msg/PointCloud2"
SEED = 7
T0 = 1_700_000_000 * 10**9
N_MSG = 5
# every parameter set explicitly, so the expected noise below is built from the same
PARAMS = {
    "atmosphere_attenuation_rate": 0.05,
    "dropoff_general_rate": 0.3,
    "dropoff_intensity_limit": 0.8,
    "dropoff_zero_intensity": 0.4,
    "noise_stddev": 0.02,
}
KEEP_ALL = {**PARAMS, "dropoff_general_rate": 0.0, "dropoff_zero_intensity": 0.0}
DROP_ALL = {**PARAMS, "dropoff_general_rate": 1.0}


def model(topic_or_file: str, params=PARAMS, seed=SEED) -> CarlaLidarNoise:
    """The model a suite entry gives ``topic_or_file`` (its key: the suite seed, the name)."""
    return CarlaLidarNoise(**params, seed=name_seed_sequence(seed, topic_or_file))


# ---------------------------------------------------------------------------------------
# clouds and bags


def layout(dtype: str = "f4", big: bool = False, intensity: str | None = "f4", z: bool = True):
    """A point layout with fields scattered over a 40-byte point_step: x, y, z of
    ``dtype`` (not adjacent: y sits after a ring field), ``intensity`` (of its type, or
    none), ``ring`` uint16, and bytes no field names (padding)."""
    o = ">" if big else "<"
    codes = {"f4": 7, "f8": 8, "u1": 2, "u2": 4}
    fields = [("x", 0, dtype), ("ring", 8, "u2"), ("y", 12, dtype)]
    if z:
        fields.append(("z", 20, dtype))
    if intensity is not None:
        fields.append(("intensity", 28, intensity))
    np_dt = np.dtype(
        {
            "names": [f[0] for f in fields],
            "formats": [o + f[2] for f in fields],
            "offsets": [f[1] for f in fields],
            "itemsize": 40,
        }
    )
    return fields, np_dt, codes


def cloud_points(k: int, n: int, seed: int = 0) -> np.ndarray:
    """(n, 3) points 1..60 m away in random directions (message k)."""
    rng = np.random.default_rng(1000 * seed + k)
    u = rng.normal(size=(n, 3))
    u /= np.linalg.norm(u, axis=1)[:, None]
    return u * rng.uniform(1.0, 60.0, n)[:, None]


def cloud_msg(T, k, *, h=1, w=64, pad=0, nan=0, seed=0, **kw):
    """A PointCloud2 of h x w points (message k), ``pad`` bytes of row padding filled
    with 0xAB, every unnamed byte of a point filled with its own pattern, intensity -1,
    ring = point index; the first ``nan`` points NaN."""
    fields, dt, codes = layout(**kw)
    step = dt.itemsize
    row = w * step + pad
    buf = np.full(h * row, 0xAB, np.uint8)
    rng = np.random.default_rng(77 + k)
    body = np.ndarray((h, w, step), np.uint8, buf, strides=(row, step, 1))
    body[...] = rng.integers(0, 256, (h, w, step), dtype=np.uint8)  # unnamed bytes
    arr = np.ndarray((h, w), dt, buf, strides=(row, step))
    pts = cloud_points(k, h * w, seed).reshape(h, w, 3)
    pts.reshape(-1, 3)[:nan] = np.nan
    arr["x"], arr["y"] = pts[..., 0], pts[..., 1]
    if "z" in dt.names:
        arr["z"] = pts[..., 2]
    if "intensity" in dt.names:
        arr["intensity"] = -1 if dt["intensity"].kind == "f" else 5
    arr["ring"] = np.arange(h * w).reshape(h, w)
    PF = T["sensor_msgs/msg/PointField"]
    stamp = T["builtin_interfaces/msg/Time"](sec=T0 // 10**9 + k, nanosec=123 + k)
    hdr = T["std_msgs/msg/Header"]
    head = (
        hdr(seq=k, stamp=stamp, frame_id="lidar")
        if "seq" in hdr.__dataclass_fields__
        else hdr(stamp=stamp, frame_id="lidar")
    )
    return T[PC2](
        header=head,
        height=h,
        width=w,
        fields=[PF(name=n, offset=o, datatype=codes[c], count=1) for n, o, c in fields],
        is_bigendian=bool(kw.get("big", False)),
        point_step=step,
        row_step=row,
        data=buf,
        is_dense=nan == 0,
    )


def write_bag(path: Path, kind: str, topics: dict) -> Path:
    """A bag of ``kind`` ("ros1", "sqlite3", "mcap") with ``topics``: name -> list of
    PointCloud2 messages built by ``cloud_msg`` (given the kind's types); messages of
    the topics interleave."""
    if kind == "ros1":
        from rosbags.rosbag1 import Writer

        path = path.with_suffix(".bag")
        with Writer(path) as w:
            conns = {t: w.add_connection(t, PC2, typestore=TS1) for t in topics}
            for k in range(max(len(v) for v in topics.values())):
                for t, make in topics.items():
                    if k < len(make):
                        w.write(conns[t], T0 + k, TS1.serialize_ros1(make[k](TS1.types), PC2))
        return path
    from rosbags.rosbag2 import StoragePlugin, Writer

    plugin = StoragePlugin.SQLITE3 if kind == "sqlite3" else StoragePlugin.MCAP
    with Writer(path, version=9, storage_plugin=plugin) as w:
        conns = {t: w.add_connection(t, PC2, typestore=TS2) for t in topics}
        for k in range(max(len(v) for v in topics.values())):
            for t, make in topics.items():
                if k < len(make):
                    w.write(conns[t], T0 + k, TS2.serialize_cdr(make[k](TS2.types), PC2))
    return path


def read_topic(path: Path, topic: str) -> list:
    if path.suffix == ".bag":
        from rosbags.rosbag1 import Reader

        with Reader(path) as r:
            return [
                TS1.deserialize_ros1(raw, PC2) for c, _, raw in r.messages() if c.topic == topic
            ]
    from rosbags.rosbag2 import Reader

    with Reader(path) as r:
        return [TS2.deserialize_cdr(raw, PC2) for c, _, raw in r.messages() if c.topic == topic]


def makers(n=N_MSG, **kw):
    return [lambda T, k=k: cloud_msg(T, k, **kw) for k in range(n)]


def suite(topics: dict, seed=SEED) -> Suite:
    return Suite.from_dict({"seed": seed, "topics": topics})


def points_of(msg) -> np.ndarray:
    """The structured (height * width,) points of a message (a copy)."""
    from fastnoise.io.ros.messages import pointcloud2_array

    return pointcloud2_array(msg).reshape(-1).copy()


def raw_points(msg) -> np.ndarray:
    """(height * width, point_step) bytes of each point (row padding left out)."""
    h, w, step = int(msg.height), int(msg.width), int(msg.point_step)
    buf = np.asarray(msg.data, dtype=np.uint8)
    return np.ndarray((h, w, step), np.uint8, buf, strides=(int(msg.row_step), step, 1)).reshape(
        -1, step
    )


def expected(msg, topic, k, params=PARAMS):
    """CarlaLidarNoise.apply on the message's points (x, y, z in the field type, or
    float64 when they differ), frame k: (kept rows (M, 4), mask)."""
    p = points_of(msg)
    ftype = np.float32 if p.dtype["x"].itemsize == 4 else np.float64
    cloud = np.zeros((p.shape[0], 4), ftype)
    for i, n in enumerate("xyz"):
        cloud[:, i] = p[n]
    res = model(topic, params).apply(cloud, frame=k)
    return np.array(res.points), res.mask


def bytes_of(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a).view(np.uint8)


def check_message(src, out, topic, k, params=PARAMS, intensity=True):
    """``out`` is ``src`` with the carla_lidar noise of frame k, points removed."""
    pts, mask = expected(src, topic, k, params)
    m = int(mask.sum())
    assert (out.height, out.width) == (1, m)
    assert out.point_step == src.point_step and out.row_step == m * src.point_step
    assert len(out.data) == m * src.point_step
    assert out.header == src.header and out.fields == src.fields
    assert out.is_bigendian == src.is_bigendian and out.is_dense == src.is_dense
    got, before = points_of(out), points_of(src)[mask]
    for i, n in enumerate("xyz"):  # bit for bit, in the field's type and byte order
        want = pts[:, i].astype(got.dtype[n])
        np.testing.assert_array_equal(bytes_of(got[n]), bytes_of(want))
    if intensity:
        want = pts[:, 3].astype(got.dtype["intensity"])
        np.testing.assert_array_equal(bytes_of(got["intensity"]), bytes_of(want))
    np.testing.assert_array_equal(got["ring"], before["ring"])
    # every byte of a kept point outside x, y, z (and intensity) is the input's
    named = {"x", "y", "z"} | ({"intensity"} if intensity else set())
    free = np.ones(src.point_step, bool)
    for n in named:
        off = src.fields[[f.name for f in src.fields].index(n)].offset
        free[off : off + got.dtype[n].itemsize] = False
    np.testing.assert_array_equal(raw_points(out)[:, free], raw_points(src)[mask][:, free])
    return mask


# ---------------------------------------------------------------------------------------
# bags


@pytest.mark.parametrize("kind", ["ros1", "sqlite3", "mcap"])
def test_kept_points_are_carla_lidar_noise_per_frame(tmp_path, kind):
    topics = {"/velo": makers(), "/velo_be": makers(big=True, seed=1)}
    src = write_bag(tmp_path / "in", kind, topics)
    dst = tmp_path / ("out.bag" if kind == "ros1" else "out")
    s = suite({"/velo*": {"model": "carla_lidar", **PARAMS}})
    report = apply(s, src, dst)
    assert report.noised == 2 * N_MSG
    for topic in topics:
        ins, outs = read_topic(src, topic), read_topic(dst, topic)
        assert len(outs) == N_MSG
        kept = [
            check_message(a, b, topic, k) for k, (a, b) in enumerate(zip(ins, outs, strict=True))
        ]
        # 1 - 0.3 general drop-off and a little intensity drop-off beyond 4.5 m (I < 0.8):
        # some of the 64 points go, some stay, and the frames differ
        assert all(0 < m.sum() < 64 for m in kept)
        assert any((a != b).any() for a, b in zip(kept, kept[1:], strict=False))


def test_probability_zero_keeps_every_point_and_one_drops_every_point(tmp_path):
    src = write_bag(tmp_path / "in", "sqlite3", {"/a": makers(3), "/b": makers(3)})
    s = suite(
        {"/a": {"model": "carla_lidar", **KEEP_ALL}, "/b": {"model": "carla_lidar", **DROP_ALL}}
    )
    apply(s, src, tmp_path / "out")
    for k, (a, b) in enumerate(
        zip(read_topic(src, "/a"), read_topic(tmp_path / "out", "/a"), strict=True)
    ):
        assert check_message(a, b, "/a", k, KEEP_ALL).all()
        assert b.width == 64
        # no dropping: the intensity is e^(-a d) of each point's distance
        p = points_of(a)
        d = np.sqrt(p["x"].astype(np.float64) ** 2 + p["y"] ** 2 + p["z"] ** 2).astype(np.float32)
        np.testing.assert_allclose(points_of(b)["intensity"], np.exp(-0.05 * d), rtol=1e-6)
    for b in read_topic(tmp_path / "out", "/b"):
        assert (b.height, b.width, b.row_step, len(b.data)) == (1, 0, 0, 0)


def test_organized_cloud_becomes_unorganized_and_keep_layout_keeps_it(tmp_path):
    mk = makers(3, h=4, w=16, pad=12, nan=3)
    src = write_bag(tmp_path / "in", "sqlite3", {"/org": mk, "/org_keep": mk})
    s = suite(
        {
            "/org": {"model": "carla_lidar", **PARAMS},
            "/org_keep": {"model": "carla_lidar", "keep_layout": True, **PARAMS},
        }
    )
    apply(s, src, tmp_path / "out")
    ins = read_topic(src, "/org")
    for k, (a, b) in enumerate(zip(ins, read_topic(tmp_path / "out", "/org"), strict=True)):
        mask = check_message(a, b, "/org", k)
        assert not mask[:3].any()  # NaN points are dropped (and so removed)
    for k, (a, b) in enumerate(zip(ins, read_topic(tmp_path / "out", "/org_keep"), strict=True)):
        pts, mask = expected(a, "/org_keep", k)
        assert (b.height, b.width, b.row_step, len(b.data)) == (4, 16, a.row_step, len(a.data))
        assert b.is_dense is False and b.header == a.header
        got = points_of(b)
        for i, n in enumerate("xyz"):
            np.testing.assert_array_equal(got[n][mask], pts[:, i])
            assert np.isnan(got[n][~mask]).all()
        np.testing.assert_array_equal(got["intensity"][mask], pts[:, 3])
        np.testing.assert_array_equal(got["intensity"][~mask], -1.0)  # dropped: kept as was
        # every byte outside x, y, z, intensity, row padding included, is the input's
        da, db = np.asarray(a.data), np.asarray(b.data)
        changed = np.zeros(len(da), bool)
        for r in range(4):
            for c in range(16):
                base = r * a.row_step + c * a.point_step
                for off in (0, 12, 20, 28):
                    changed[base + off : base + off + 4] = True
        np.testing.assert_array_equal(db[~changed], da[~changed])


def test_float64_and_mixed_types_and_a_cloud_without_intensity(tmp_path):
    src = write_bag(
        tmp_path / "in",
        "ros1",
        {"/f8": makers(3, dtype="f8", intensity="f4"), "/noint": makers(3, intensity=None)},
    )
    apply(suite({"/*": {"model": "carla_lidar", **PARAMS}}), src, tmp_path / "out.bag")
    out = tmp_path / "out.bag"
    for k, (a, b) in enumerate(zip(read_topic(src, "/f8"), read_topic(out, "/f8"), strict=True)):
        check_message(a, b, "/f8", k)
    for k, (a, b) in enumerate(
        zip(read_topic(src, "/noint"), read_topic(out, "/noint"), strict=True)
    ):
        # no intensity field: the drop-off it drives still applies, nothing else is written
        check_message(a, b, "/noint", k, intensity=False)
        assert [f.name for f in b.fields] == ["x", "ring", "y", "z"]


def test_subset_of_topics_gets_the_same_noise(tmp_path):
    s = suite({"/*": {"model": "carla_lidar", **PARAMS}})
    full = write_bag(tmp_path / "full", "mcap", {"/a": makers(), "/b": makers(seed=3)})
    part = write_bag(tmp_path / "part", "mcap", {"/b": makers(seed=3)})
    apply(s, full, tmp_path / "o_full")
    apply(s, part, tmp_path / "o_part")
    x, y = read_topic(tmp_path / "o_full", "/b"), read_topic(tmp_path / "o_part", "/b")
    assert [bytes(m.data) for m in x] == [bytes(m.data) for m in y]
    other = suite({"/*": {"model": "carla_lidar", **PARAMS}}, seed=SEED + 1)
    apply(other, part, tmp_path / "o_other")
    z = read_topic(tmp_path / "o_other", "/b")
    assert [bytes(m.data) for m in z] != [bytes(m.data) for m in y]


def test_dry_run_lists_the_topic(tmp_path, capsys):
    src = write_bag(tmp_path / "in", "sqlite3", {"/velo": makers(2)})
    (tmp_path / "suite.toml").write_text(
        'seed = 3\n[topics."/velo"]\nmodel = "carla_lidar"\nnoise_stddev = 0.02\n'
    )
    cfg = ["--config", str(tmp_path / "suite.toml")]
    assert cli.main(["apply", *cfg, str(src), str(tmp_path / "o"), "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "/velo" in out and "sensor_msgs/PointCloud2" in out and "model carla_lidar" in out
    assert not (tmp_path / "o").exists()


def test_refusals_name_the_topic_and_message(tmp_path):
    good = makers(3)
    noz = [good[0], good[1], lambda T: cloud_msg(T, 2, z=False)]
    src = write_bag(tmp_path / "in", "sqlite3", {"/p": noz})
    s = suite({"/p": {"model": "carla_lidar"}})
    with pytest.raises(ApplyError, match=r"topic /p message 2 .*no field 'z'"):
        apply(s, src, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    src = write_bag(tmp_path / "in2", "sqlite3", {"/q": makers(2, intensity="u1")})
    with pytest.raises(ApplyError, match=r"topic /q message 0 .*'intensity' has datatype 2"):
        apply(suite({"/q": {"model": "carla_lidar"}}), src, tmp_path / "out2")
    with pytest.raises(ValueError, match=r"dropoff_general_rate=1.5 is not allowed"):
        suite({"/q": {"model": "carla_lidar", "dropoff_general_rate": 1.5}})
    with pytest.raises(ValueError, match=r"keep_layout='yes' is not allowed"):
        suite({"/q": {"model": "carla_lidar", "keep_layout": "yes"}})
    with pytest.raises(ValueError, match=r"frames = true needs keep_layout = true"):
        Suite.from_dict({"files": {"*.npy": {"model": "carla_lidar", "frames": True}}})


def test_topic_noise_out_and_keep_layout(tmp_path):
    """TopicNoise (what a node calls): ``out`` is taken with keep_layout only."""
    from fastnoise.io.ros.noise import TopicNoise

    s = suite({"/k": {"model": "carla_lidar", "keep_layout": True}, "/d": {"model": "carla_lidar"}})
    msg = cloud_msg(TS2.types, 0)
    buf = np.empty(len(msg.data), np.uint8)
    TopicNoise.from_suite(s, "/k", PC2).apply_inplace(msg, out=buf)
    assert msg.data is buf and msg.width == 64
    with pytest.raises(ValueError, match="out is not taken by carla_lidar without keep_layout"):
        TopicNoise.from_suite(s, "/d", PC2).apply_inplace(cloud_msg(TS2.types, 0), out=buf)


# ---------------------------------------------------------------------------------------
# files

FILE_PARAMS = {**PARAMS, "noise_stddev": 0.05}
RNG = np.random.default_rng(5)
CLOUD = np.column_stack([cloud_points(0, 400, 9), RNG.uniform(0, 1, 400)]).astype(np.float32)


def file_expected(rel: str, cloud: np.ndarray):
    res = model(rel, FILE_PARAMS).apply(cloud, frame=0)
    return np.array(res.points), res.mask


def write_pcd(path: Path, cloud: np.ndarray, kind: str, extra: bool = True) -> None:
    """x y z intensity (float32) and a uint16 ring; ``DATA kind``."""
    n = len(cloud)
    head = (
        "# .PCD v0.7\nVERSION 0.7\nFIELDS x y z intensity ring\nSIZE 4 4 4 4 2\n"
        f"TYPE F F F F U\nCOUNT 1 1 1 1 1\nWIDTH {n // 4}\nHEIGHT 4\n"
        f"VIEWPOINT 0 0 0 1 0 0 0\nPOINTS {n}\nDATA {kind}\n"
    )
    ring = np.arange(n) % 64
    if kind == "ascii":
        rows = "".join(
            " ".join(f"{v:.9g}" for v in p) + f" {r}\n" for p, r in zip(cloud, ring, strict=True)
        )
        path.write_text(head + rows)
        return
    dt = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("i", "<f4"), ("r", "<u2")])
    arr = np.empty(n, dt)
    for k, name in enumerate(("x", "y", "z", "i")):
        arr[name] = cloud[:, k]
    arr["r"] = ring
    path.write_bytes(head.encode() + arr.tobytes())


def write_ply(path: Path, cloud: np.ndarray, fmt: str, face: bool = False) -> None:
    n = len(cloud)
    head = (
        f"ply\nformat {fmt} 1.0\nelement vertex {n}\nproperty float x\nproperty float y\n"
        "property float z\nproperty float intensity\nproperty uchar tag\n"
        + ("element face 1\nproperty list uchar int vertex_indices\n" if face else "")
        + "end_header\n"
    )
    tag = (np.arange(n) % 256).astype(np.uint8)
    if fmt == "ascii":
        body = "".join(
            " ".join(f"{v:.9g}" for v in p) + f" {t}\n" for p, t in zip(cloud, tag, strict=True)
        )
        path.write_bytes(head.encode() + body.encode() + (b"3 0 1 2\n" if face else b""))
        return
    o = "<" if fmt == "binary_little_endian" else ">"
    dt = np.dtype([(c, o + "f4") for c in ("x", "y", "z", "i")] + [("t", "u1")])
    arr = np.empty(n, dt)
    for k, name in enumerate(("x", "y", "z", "i")):
        arr[name] = cloud[:, k]
    arr["t"] = tag
    faces = np.array([3], "u1").tobytes() + np.array([0, 1, 2], o + "i4").tobytes()
    path.write_bytes(head.encode() + arr.tobytes() + (faces if face else b""))


def parse_pcd(path: Path):
    from fastnoise.io.files.cloud_formats import pcd_header

    raw = path.read_bytes()
    hdr, start = pcd_header(raw)
    n = int(hdr["POINTS"][0])
    if hdr["DATA"][0] == "ascii":
        rows = np.array([ln.split() for ln in raw[start:].decode().splitlines()], dtype=np.float64)
        return hdr, rows[:, :4].astype(np.float32), rows[:, 4].astype(np.uint16)
    dt = np.dtype([("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("i", "<f4"), ("r", "<u2")])
    arr = np.frombuffer(raw, dt, count=n, offset=start)
    assert len(raw) == start + n * dt.itemsize
    return hdr, np.column_stack([arr[c] for c in ("x", "y", "z", "i")]), arr["r"]


def parse_ply(path: Path):
    raw = path.read_bytes()
    start = raw.index(b"end_header\n") + len(b"end_header\n")
    head = raw[:start].decode()
    n = int(head.split("element vertex ")[1].split()[0])
    if "format ascii" in head:
        rows = np.array([ln.split() for ln in raw[start:].decode().splitlines()[:n]], np.float64)
        return n, rows[:, :4].astype(np.float32), rows[:, 4].astype(np.uint8)
    o = "<" if "binary_little_endian" in head else ">"
    dt = np.dtype([(c, o + "f4") for c in ("x", "y", "z", "i")] + [("t", "u1")])
    arr = np.frombuffer(raw, dt, count=n, offset=start)
    assert len(raw) == start + n * dt.itemsize
    return n, np.column_stack([arr[c] for c in ("x", "y", "z", "i")]), arr["t"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A folder of clouds noised once by a carla_lidar suite: (input, output)."""
    root = tmp_path_factory.mktemp("files") / "in"
    (root / "velo").mkdir(parents=True)
    CLOUD.astype("<f4").tofile(root / "velo/000000.bin")
    write_pcd(root / "velo/b.pcd", CLOUD, "binary")
    write_pcd(root / "velo/a.pcd", CLOUD, "ascii")
    write_ply(root / "velo/le.ply", CLOUD, "binary_little_endian")
    write_ply(root / "velo/be.ply", CLOUD, "binary_big_endian")
    write_ply(root / "velo/asc.ply", CLOUD, "ascii")
    np.save(root / "velo/c.npy", CLOUD.astype(np.float64))
    np.savez(root / "velo/d.npz", a=CLOUD, b=CLOUD[:50])
    np.save(root / "velo/keep.npy", CLOUD)
    np.save(root / "velo/stack.npy", np.stack([CLOUD, CLOUD[::-1]]))
    s = Suite.from_dict(
        {
            "seed": SEED,
            "files": {
                "velo/keep.npy": {"model": "carla_lidar", "keep_layout": True, **FILE_PARAMS},
                "velo/stack.npy": {
                    "model": "carla_lidar",
                    "keep_layout": True,
                    "frames": True,
                    **FILE_PARAMS,
                },
                "velo/*": {"model": "carla_lidar", **FILE_PARAMS},
            },
        }
    )
    out = root.parent / "out"
    apply(s, root, out)
    return root, out, s


def test_kitti_bin_rows_dropped_and_intensity_written(files):
    _, out, _ = files
    pts, mask = file_expected("velo/000000.bin", CLOUD)
    got = np.fromfile(out / "velo/000000.bin", "<f4").reshape(-1, 4)
    assert 0 < mask.sum() < len(CLOUD)
    np.testing.assert_array_equal(got.view(np.uint32), pts.view(np.uint32))


@pytest.mark.parametrize("name", ["b.pcd", "a.pcd"])
def test_pcd_rows_dropped_header_counts_and_other_fields_kept(files, name):
    _, out, _ = files
    pts, mask = file_expected(f"velo/{name}", CLOUD)
    hdr, got, ring = parse_pcd(out / "velo" / name)
    m = str(int(mask.sum()))
    assert (hdr["WIDTH"], hdr["HEIGHT"], hdr["POINTS"]) == ([m], ["1"], [m])
    assert hdr["VIEWPOINT"] == ["0", "0", "0", "1", "0", "0", "0"]
    np.testing.assert_array_equal(got, pts)  # ascii: %.9g round-trips float32 exactly
    np.testing.assert_array_equal(ring, (np.arange(len(CLOUD)) % 64)[mask])


@pytest.mark.parametrize("name", ["le.ply", "be.ply", "asc.ply"])
def test_ply_rows_dropped_and_vertex_count(files, name):
    _, out, _ = files
    pts, mask = file_expected(f"velo/{name}", CLOUD)
    n, got, tag = parse_ply(out / "velo" / name)
    assert n == mask.sum()
    np.testing.assert_array_equal(got, pts)
    np.testing.assert_array_equal(tag, (np.arange(len(CLOUD)) % 256).astype(np.uint8)[mask])


def test_npy_npz_keys_keep_layout_and_frames(files):
    _, out, _ = files
    pts, _ = CarlaLidarNoise(**FILE_PARAMS, seed=name_seed_sequence(SEED, "velo/c.npy")).apply(
        CLOUD.astype(np.float64)
    )
    got = np.load(out / "velo/c.npy")
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, pts)
    with np.load(out / "velo/d.npz") as z:
        for key, src in (("a", CLOUD), ("b", CLOUD[:50])):
            want, _ = file_expected(f"velo/d.npz:{key}", src)
            np.testing.assert_array_equal(z[key], want)
    # keep_layout: every row, dropped ones with NaN x, y, z and their old intensity
    pts, mask = model("velo/keep.npy", FILE_PARAMS).apply(CLOUD, drop=False)
    got = np.load(out / "velo/keep.npy")
    assert got.shape == CLOUD.shape
    np.testing.assert_array_equal(got[mask], pts[mask])
    assert np.isnan(got[~mask, :3]).all()
    np.testing.assert_array_equal(got[~mask, 3], CLOUD[~mask, 3])
    # frames: entry k of the stack is frame k
    got = np.load(out / "velo/stack.npy")
    for k, src in enumerate((CLOUD, CLOUD[::-1])):
        pts, mask = model("velo/stack.npy", FILE_PARAMS).apply(src, frame=k, drop=False)
        np.testing.assert_array_equal(got[k][mask], pts[mask])
        assert np.isnan(got[k][~mask, :3]).all()


def test_file_subset_gets_the_same_noise(files, tmp_path):
    root, out, s = files
    (tmp_path / "in/velo").mkdir(parents=True)
    (tmp_path / "in/velo/b.pcd").write_bytes((root / "velo/b.pcd").read_bytes())
    apply(s, tmp_path / "in", tmp_path / "out")
    assert (tmp_path / "out/velo/b.pcd").read_bytes() == (out / "velo/b.pcd").read_bytes()


def test_probability_one_empties_the_files(tmp_path):
    root = tmp_path / "in"
    root.mkdir()
    CLOUD.astype("<f4").tofile(root / "x.bin")
    write_pcd(root / "x.pcd", CLOUD, "binary")
    write_ply(root / "x.ply", CLOUD, "binary_little_endian")
    s = Suite.from_dict({"files": {"*": {"model": "carla_lidar", **DROP_ALL}}})
    apply(s, root, tmp_path / "o")
    assert (tmp_path / "o/x.bin").stat().st_size == 0
    hdr, got, _ = parse_pcd(tmp_path / "o/x.pcd")
    assert hdr["POINTS"] == ["0"] and got.shape == (0, 4)
    assert parse_ply(tmp_path / "o/x.ply")[0] == 0


def test_file_refusals_name_the_file(tmp_path):
    root = tmp_path / "in"
    root.mkdir()
    s = Suite.from_dict({"files": {"*": {"model": "carla_lidar"}}})
    np.save(root / "three.npy", CLOUD[:, :3])
    with pytest.raises(ApplyError, match=r"file three.npy: .*shape \(400, 3\).*N x >=4"):
        apply(s, root, tmp_path / "o")
    (root / "three.npy").unlink()
    np.arange(10, dtype="<f4").tofile(root / "odd.bin")
    with pytest.raises(ApplyError, match=r"file odd.bin: 10 float32 values"):
        apply(s, root, tmp_path / "o")
    (root / "odd.bin").unlink()
    write_ply(root / "mesh.ply", CLOUD, "binary_little_endian", face=True)
    with pytest.raises(ApplyError, match=r"file mesh.ply: PLY element 'face' .*keep_layout"):
        apply(s, root, tmp_path / "o")
    # with keep_layout the faces stay valid: nothing is removed
    keep = Suite.from_dict({"files": {"*": {"model": "carla_lidar", "keep_layout": True}}})
    apply(keep, root, tmp_path / "o")
    a, b = (root / "mesh.ply").read_bytes(), (tmp_path / "o/mesh.ply").read_bytes()
    assert len(a) == len(b) and b"element vertex 400\n" in b
    assert a[-13:] == b[-13:]  # the face (count byte, three int32 indices) unchanged
    shutil.rmtree(tmp_path / "o")
    (root / "mesh.ply").unlink()
    (root / "c.pcd").write_text(
        "VERSION 0.7\nFIELDS x y z intensity\nSIZE 4 4 4 1\nTYPE F F F U\nCOUNT 1 1 1 1\n"
        "WIDTH 1\nHEIGHT 1\nPOINTS 1\nDATA ascii\n1 2 3 4\n"
    )
    with pytest.raises(ApplyError, match=r"file c.pcd: PCD field 'intensity' is not a float"):
        apply(s, root, tmp_path / "o")
