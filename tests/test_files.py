"""fastnoise.io.files.files and apply() on folders: images (PNG/JPEG/TIFF, 8 and 16-bit, RGB
16-bit PNG), KITTI .bin, .pcd, .ply, .npy/.npz; keys per relative path (subsets and
order give the same noise); the in-memory batch calls equal the per-frame apply."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from fastnoise import DepthNoise, ImageNoise, ImuNoise, LidarNoise
from fastnoise.io.apply.apply import ApplyError, apply
from fastnoise.io.files import image_noise_batch, lidar_noise_columns
from fastnoise.io.suite import Suite, name_seed_sequence

cv2 = pytest.importorskip("cv2")

SUITE = Suite.from_dict(
    {
        "seed": 11,
        "files": {
            "img/skip_*.png": {"model": "copy"},
            "img/*": {"model": "camera", "stddev": 0.03, "quality": 90},
            "depth/*.tiff": {"model": "depth", "stddev": 0.05},
            "imu/*.npz": {"model": "imu", "gyro": {"noise_stddev": 0.01}},
            "lidar/*": {"model": "lidar", "distance_noise_stddev_base": 0.1},
            "*.bin": {"model": "lidar", "distance_noise_stddev_base": 0.1},
            "*.pcd": {"model": "lidar", "distance_noise_stddev_base": 0.1},
            "x.png": {"model": "lidar", "distance_noise_stddev_base": 0.1},
        },
    }
)
RNG = np.random.default_rng(0)
RGB8 = RNG.integers(20, 236, (12, 16, 3), dtype=np.uint8)
RGB16 = RNG.integers(1000, 64000, (12, 16, 3), dtype=np.uint16)
GREY8 = RNG.integers(0, 256, (10, 9), dtype=np.uint8)
CLOUD = np.column_stack([RNG.uniform(-20, 20, (300, 3)), RNG.uniform(0, 1, 300)]).astype(np.float32)


def cam(rel: str) -> ImageNoise:
    return ImageNoise(stddev=0.03, seed=name_seed_sequence(11, rel))


def lidar(rel: str) -> LidarNoise:
    return LidarNoise(distance_noise_stddev_base=0.1, seed=name_seed_sequence(11, rel))


def bgr_noised(rel: str, bgr: np.ndarray) -> np.ndarray:
    """What a colour image file gets: the camera's noise in R, G, B order."""
    out = bgr.copy()
    v = out[..., 2::-1] if out.ndim == 3 else out
    cam(rel).apply(v, frame=0, out=v)
    return out


def write_pcd_binary(path: Path, cloud: np.ndarray) -> None:
    head = (
        "# .PCD v0.7\nVERSION 0.7\nFIELDS x y z intensity\nSIZE 4 4 4 4\nTYPE F F F F\n"
        f"COUNT 1 1 1 1\nWIDTH {len(cloud)}\nHEIGHT 1\nVIEWPOINT 0 0 0 1 0 0 0\n"
        f"POINTS {len(cloud)}\nDATA binary\n"
    )
    path.write_bytes(head.encode() + cloud.astype("<f4").tobytes())


def write_pcd_ascii(path: Path, cloud: np.ndarray) -> None:
    head = (
        "VERSION 0.7\nFIELDS x y z intensity\nSIZE 4 4 4 4\nTYPE F F F F\nCOUNT 1 1 1 1\n"
        f"WIDTH {len(cloud)}\nHEIGHT 1\nPOINTS {len(cloud)}\nDATA ascii\n"
    )
    rows = "".join(" ".join(f"{v:.9g}" for v in p) + "\n" for p in cloud)
    path.write_text(head + rows)


def write_ply(path: Path, cloud: np.ndarray, fmt: str) -> None:
    head = (
        f"ply\nformat {fmt} 1.0\ncomment test\nelement vertex {len(cloud)}\n"
        "property float x\nproperty float y\nproperty float z\nproperty uchar red\n"
        "element face 1\nproperty list uchar int vertex_indices\nend_header\n"
    )
    red = (np.arange(len(cloud)) % 256).astype(np.uint8)
    if fmt == "ascii":
        body = "".join(
            f"{p[0]:.9g} {p[1]:.9g} {p[2]:.9g} {r}\n" for p, r in zip(cloud, red, strict=True)
        )
        path.write_bytes(head.encode() + body.encode() + b"3 0 1 2\n")
    else:
        o = "<" if fmt == "binary_little_endian" else ">"
        dt = np.dtype([("x", o + "f4"), ("y", o + "f4"), ("z", o + "f4"), ("red", "u1")])
        arr = np.empty(len(cloud), dt)
        arr["x"], arr["y"], arr["z"], arr["red"] = cloud[:, 0], cloud[:, 1], cloud[:, 2], red
        face = np.array([3], "u1").tobytes() + np.array([0, 1, 2], o + "i4").tobytes()
        path.write_bytes(head.encode() + arr.tobytes() + face)


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("data") / "in"
    (root / "img").mkdir(parents=True)
    (root / "depth").mkdir()
    (root / "lidar").mkdir()
    (root / "imu").mkdir()
    cv2.imwrite(str(root / "img/a.png"), RGB8)
    cv2.imwrite(str(root / "img/b16.png"), RGB16)
    cv2.imwrite(str(root / "img/grey.png"), GREY8)
    smooth = np.add.outer(np.arange(48), np.arange(64))[..., None] + np.array([20, 40, 60])
    cv2.imwrite(str(root / "img/c.jpg"), smooth.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 100])
    cv2.imwrite(str(root / "img/d16.tiff"), RGB16[..., 0])
    cv2.imwrite(str(root / "img/skip_me.png"), RGB8)
    depth = np.linspace(0.5, 30, 80, dtype=np.float32).reshape(8, 10)
    depth[0, 0] = np.nan
    cv2.imwrite(str(root / "depth/z.tiff"), depth)
    CLOUD.astype("<f4").tofile(root / "lidar/000001.bin")
    write_pcd_binary(root / "lidar/b.pcd", CLOUD)
    write_pcd_ascii(root / "lidar/a.pcd", CLOUD)
    write_ply(root / "lidar/le.ply", CLOUD[:, :3], "binary_little_endian")
    write_ply(root / "lidar/be.ply", CLOUD[:, :3], "binary_big_endian")
    write_ply(root / "lidar/asc.ply", CLOUD[:, :3], "ascii")
    np.save(root / "lidar/c.npy", CLOUD.astype(np.float64))
    np.savez_compressed(root / "lidar/m.npz", pts=CLOUD, names=np.array(["a", "b"]))
    t = np.arange(50) * 0.01
    np.savez(root / "imu/log.npz", omega=np.zeros((50, 3)), accel=np.zeros((50, 3)), timestamps=t)
    (root / "README.txt").write_text("kept as it is")
    out = root.parent / "out"
    report = apply(SUITE, root, out)
    assert report.messages == 17 and report.noised == 15
    return root, out


def test_images(tree):
    root, out = tree
    got = cv2.imread(str(out / "img/a.png"), cv2.IMREAD_UNCHANGED)
    np.testing.assert_array_equal(got, bgr_noised("img/a.png", RGB8))
    got16 = cv2.imread(str(out / "img/b16.png"), cv2.IMREAD_UNCHANGED)
    assert got16.dtype == np.uint16 and got16.shape == RGB16.shape  # 16-bit RGB PNG
    np.testing.assert_array_equal(got16, bgr_noised("img/b16.png", RGB16))
    grey = cv2.imread(str(out / "img/grey.png"), cv2.IMREAD_UNCHANGED)
    np.testing.assert_array_equal(grey, bgr_noised("img/grey.png", GREY8))
    tif = cv2.imread(str(out / "img/d16.tiff"), cv2.IMREAD_UNCHANGED)
    np.testing.assert_array_equal(tif, bgr_noised("img/d16.tiff", RGB16[..., 0]))
    jpg = cv2.imread(str(out / "img/c.jpg"), cv2.IMREAD_UNCHANGED)
    ref = cv2.imread(str(root / "img/c.jpg"), cv2.IMREAD_UNCHANGED)
    assert jpg.shape == ref.shape
    # JPEG of a smooth picture: the noise (sd 0.03 * 255 = 7.7 levels) survives
    # re-encoding at quality 90 (which smooths some of it away): loose bounds
    assert 3 < np.std(jpg.astype(float) - ref) < 9
    # unmatched and "copy" files are byte-identical
    for rel in ("img/skip_me.png", "README.txt"):
        assert (out / rel).read_bytes() == (root / rel).read_bytes()


def test_depth_tiff(tree):
    root, out = tree
    d = cv2.imread(str(root / "depth/z.tiff"), cv2.IMREAD_UNCHANGED)
    got = cv2.imread(str(out / "depth/z.tiff"), cv2.IMREAD_UNCHANGED)
    exp = DepthNoise(stddev=0.05, seed=name_seed_sequence(11, "depth/z.tiff")).apply(d)
    np.testing.assert_array_equal(got, exp)
    assert np.isnan(got[0, 0]) and np.nanmax(got) > 29


def test_point_cloud_files(tree):
    root, out = tree
    xyz = np.ascontiguousarray(CLOUD[:, :3])
    kitti = np.fromfile(out / "lidar/000001.bin", "<f4").reshape(-1, 4)
    np.testing.assert_array_equal(kitti[:, :3], lidar("lidar/000001.bin").apply(xyz).points)
    np.testing.assert_array_equal(kitti[:, 3], CLOUD[:, 3])  # intensity kept
    raw = (out / "lidar/b.pcd").read_bytes()
    body = np.frombuffer(raw[raw.index(b"DATA binary\n") + 12 :], "<f4").reshape(-1, 4)
    np.testing.assert_array_equal(body[:, :3], lidar("lidar/b.pcd").apply(xyz).points)
    np.testing.assert_array_equal(body[:, 3], CLOUD[:, 3])
    lines = (out / "lidar/a.pcd").read_text().splitlines()
    vals = np.array([[float(v) for v in ln.split()] for ln in lines[9:]], np.float32)
    np.testing.assert_array_equal(vals[:, :3], lidar("lidar/a.pcd").apply(xyz).points)
    np.testing.assert_array_equal(vals[:, 3], CLOUD[:, 3])
    for name, o in (("le", "<"), ("be", ">")):
        raw = (out / f"lidar/{name}.ply").read_bytes()
        start = raw.index(b"end_header\n") + 11
        dt = np.dtype([("x", o + "f4"), ("y", o + "f4"), ("z", o + "f4"), ("red", "u1")])
        arr = np.frombuffer(raw, dt, count=300, offset=start)
        got = np.column_stack([arr["x"], arr["y"], arr["z"]])
        np.testing.assert_array_equal(got, lidar(f"lidar/{name}.ply").apply(xyz).points)
        np.testing.assert_array_equal(arr["red"], np.arange(300) % 256)
        src = (root / f"lidar/{name}.ply").read_bytes()
        assert raw[start + 300 * 13 :] == src[start + 300 * 13 :]  # the face element kept
    text = (out / "lidar/asc.ply").read_text().splitlines()
    start = text.index("end_header") + 1
    vals = np.array([[float(v) for v in ln.split()] for ln in text[start : start + 300]])
    np.testing.assert_array_equal(
        vals[:, :3].astype(np.float32), lidar("lidar/asc.ply").apply(xyz).points
    )
    assert text[-1] == "3 0 1 2"


def test_numpy_files(tree):
    root, out = tree
    c = np.load(out / "lidar/c.npy")
    assert c.dtype == np.float64
    np.testing.assert_array_equal(
        c, lidar_noise_columns(lidar("lidar/c.npy"), CLOUD.astype(np.float64))
    )
    with np.load(out / "lidar/m.npz") as m:
        np.testing.assert_array_equal(m["names"], ["a", "b"])  # non-numeric member kept
        np.testing.assert_array_equal(
            m["pts"], lidar_noise_columns(lidar("lidar/m.npz:pts"), CLOUD)
        )
    with np.load(out / "imu/log.npz") as m:
        ref = ImuNoise(gyro={"noise_stddev": 0.01}, seed=name_seed_sequence(11, "imu/log.npz"))
        w, a = ref.apply(np.zeros((50, 3)), np.zeros((50, 3)), timestamps=np.arange(50) * 0.01)
        np.testing.assert_array_equal(m["omega"], w)
        np.testing.assert_array_equal(m["timestamps"], np.arange(50) * 0.01)


def test_subset_in_any_order_gets_the_same_noise(tree, tmp_path):
    root, out = tree
    part = tmp_path / "part"
    for rel in ("lidar/b.pcd", "img/a.png"):
        (part / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(root / rel, part / rel)
    apply(SUITE, part, tmp_path / "part_out")
    for rel in ("lidar/b.pcd", "img/a.png"):
        assert (tmp_path / "part_out" / rel).read_bytes() == (out / rel).read_bytes()
    # one file alone: its key is its name, so it matches the folder's top level only
    apply(SUITE, root / "lidar/000001.bin", tmp_path / "one.bin")
    one = np.fromfile(tmp_path / "one.bin", "<f4").reshape(-1, 4)
    xyz = np.ascontiguousarray(CLOUD[:, :3])
    np.testing.assert_array_equal(one[:, :3], lidar("000001.bin").apply(xyz).points)


def test_failures_name_the_file_and_leave_no_output(tmp_path):
    root = tmp_path / "in"
    root.mkdir()
    np.zeros(7, "<f4").tofile(root / "bad.bin")  # 7 floats: not N x 4
    with pytest.raises(ApplyError, match=r"file bad.bin: 7 float32 values"):
        apply(SUITE, root, tmp_path / "out")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]
    (root / "bad.bin").unlink()
    (root / "c.pcd").write_text(
        "VERSION 0.7\nFIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nCOUNT 1 1 1\nWIDTH 0\n"
        "HEIGHT 1\nPOINTS 0\nDATA binary_compressed\n"
    )
    with pytest.raises(ApplyError, match=r"file c.pcd: PCD DATA binary_compressed"):
        apply(SUITE, root, tmp_path / "out")
    (root / "c.pcd").unlink()
    cv2.imwrite(str(root / "x.png"), RGB8)
    with pytest.raises(ApplyError, match=r"file x.png: images take model 'camera' or 'depth'"):
        apply(SUITE, root, tmp_path / "out")


def test_batch_calls_equal_per_frame_apply():
    model = ImageNoise(stddev=0.05, per_channel=True, seed=4)
    frames = np.random.default_rng(1).integers(0, 256, (5, 7, 9, 3), dtype=np.uint8)
    got = image_noise_batch(model, frames, first_frame=10, threads=2)
    for k in range(5):
        np.testing.assert_array_equal(got[k], model.apply(frames[k], frame=10 + k))
    depth = np.random.default_rng(2).uniform(0, 5, (3, 6, 6)).astype(np.float32)
    dn = DepthNoise(stddev=0.1, seed=4)
    got = image_noise_batch(dn, depth, 2)
    for k in range(3):
        np.testing.assert_array_equal(got[k], dn.apply(depth[k], frame=2 + k))
    lid = LidarNoise(distance_noise_stddev_base=0.2, hitpoint_angular_noise_stddev=0.01, seed=4)
    stack = np.random.default_rng(3).uniform(-9, 9, (4, 50, 5))
    got = lidar_noise_columns(lid, stack, frame=3)
    for k in range(4):
        exp = lid.apply(np.ascontiguousarray(stack[k, :, :3]), frame=3 + k).points
        np.testing.assert_array_equal(got[k, :, :3], exp)
        np.testing.assert_array_equal(got[k, :, 3:], stack[k, :, 3:])


def test_depth_noise_uses_the_cameras_normals():
    """DepthNoise's Z of pixel j, frame f, is ImageNoise's (same seed): keyed like the
    camera."""
    cam_ = ImageNoise(mean=0.0, stddev=1e-3, seed=8)
    z_cam = (cam_.apply(np.full((6, 7), 0.5), frame=5) - 0.5) / 1e-3
    z_depth = DepthNoise(stddev=1.0, seed=8).apply(np.zeros((6, 7)), frame=5)
    np.testing.assert_allclose(z_depth, z_cam, atol=1e-9)
