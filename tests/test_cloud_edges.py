"""Point-cloud files at the edges (issue 27): every header count and size is checked
against the data, a file that does not add up is refused with a message naming the file
and the header field and leaves no output, and every valid file comes back byte for
byte when its model adds no noise."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fastnoise.io.apply.apply import ApplyError, apply
from fastnoise.io.suite import Suite

RNG = np.random.default_rng(27)
CLOUD = np.column_stack([RNG.uniform(-20, 20, (12, 3)), np.ones(12)]).astype(np.float32)

#: the lidar and CARLA's lidar with every noise and drop rate zero: nothing changes
QUIET = Suite.from_dict(
    {
        "seed": 3,
        "files": {
            "carla/*": {
                "model": "carla_lidar",
                "atmosphere_attenuation_rate": 0.0,
                "dropoff_general_rate": 0.0,
                "dropoff_zero_intensity": 0.0,
                "keep_layout": True,
            },
            "*": {"model": "lidar"},
        },
    }
)
NOISY = Suite.from_dict({"seed": 3, "files": {"*": {"model": "lidar", "distance_noise_mean": 1}}})


def pcd(body: bytes | str, *, data: str = "ascii", **over: str) -> bytes:
    """A PCD of x y z intensity float32 whose header lines ``over`` replaces."""
    head = {
        "VERSION": "0.7",
        "FIELDS": "x y z intensity",
        "SIZE": "4 4 4 4",
        "TYPE": "F F F F",
        "COUNT": "1 1 1 1",
        "WIDTH": str(len(CLOUD)),
        "HEIGHT": "1",
        "VIEWPOINT": "0 0 0 1 0 0 0",
        "POINTS": str(len(CLOUD)),
    }
    head.update(over)
    text = "# .PCD v0.7\n" + "".join(f"{k} {v}\n" for k, v in head.items() if v is not None)
    text += f"DATA {data}\n"
    return text.encode() + (body.encode() if isinstance(body, str) else body)


def ascii_rows(cloud: np.ndarray, end: str = "\n") -> str:
    return "".join(" ".join(f"{v:.9g}" for v in p) + end for p in cloud)


PCD_ASCII = pcd(ascii_rows(CLOUD))
PCD_BINARY = pcd(CLOUD.astype("<f4").tobytes(), data="binary")


def ply(fmt: str, vertex_count: int | str = len(CLOUD), **kw: str) -> bytes:
    """A PLY with a 2-entry ``camera`` element before the vertices, the vertices
    (x y z float, red uchar) and one face after them."""
    head = (
        f"ply\nformat {fmt} 1.0\ncomment edges\nelement camera {kw.get('camera', 2)}\n"
        "property double f\nelement vertex "
        f"{vertex_count}\nproperty {kw.get('xtype', 'float')} x\nproperty float y\n"
        "property float z\nproperty uchar red\nelement face 1\n"
        "property list uchar int vertex_indices\nend_header\n"
    )
    red = np.arange(len(CLOUD), dtype=np.uint8)
    if fmt == "ascii":
        cams = "600.5\n601\n"
        verts = "".join(
            f"{p[0]:.9g} {p[1]:.9g} {p[2]:.9g} {r}\n" for p, r in zip(CLOUD, red, strict=True)
        )
        return (head + cams + verts + "3 0 1 2\n").encode()
    o = "<" if fmt == "binary_little_endian" else ">"
    dt = np.dtype([("x", o + "f4"), ("y", o + "f4"), ("z", o + "f4"), ("red", "u1")])
    arr = np.empty(len(CLOUD), dt)
    arr["x"], arr["y"], arr["z"], arr["red"] = CLOUD[:, 0], CLOUD[:, 1], CLOUD[:, 2], red
    cams = np.array([600.5, 601.0], o + "f8").tobytes()
    face = np.array([3], "u1").tobytes() + np.array([0, 1, 2], o + "i4").tobytes()
    return head.encode() + cams + arr.tobytes() + face


#: valid files of every handled layout, including the legal oddities of the formats
VALID = {
    "a.pcd": PCD_ASCII,
    "b.pcd": PCD_BINARY,
    "organized.pcd": pcd(CLOUD.astype("<f4").tobytes(), data="binary", WIDTH="4", HEIGHT="3"),
    "crlf.pcd": pcd(ascii_rows(CLOUD, "\r\n")),
    "spaced.pcd": pcd("\n" + ascii_rows(CLOUD).replace(" ", "  ") + "\n"),
    "trailing.pcd": PCD_BINARY + b"\x00\x00",  # bytes after the points are kept
    "double.pcd": pcd(
        ascii_rows(CLOUD.astype(np.float64) / 3), SIZE="8 8 8 8"
    ),  # 9 digits of a double: rewritten only where the model changes them
    "nopoints.pcd": pcd(CLOUD.astype("<f4").tobytes(), data="binary", POINTS=None),
    "empty.pcd": pcd(b"", data="binary", WIDTH="0", POINTS="0"),
    "asc.ply": ply("ascii"),
    "le.ply": ply("binary_little_endian"),
    "be.ply": ply("binary_big_endian"),
    "d.ply": ply("binary_little_endian").replace(b"property float x", b"property float32 x"),
    "k.bin": CLOUD.astype("<f4").tobytes(),
    "carla/k.bin": CLOUD.astype("<f4").tobytes(),
    "carla/a.pcd": PCD_ASCII,
    "carla/b.pcd": PCD_BINARY,
    "carla/asc.ply": ply("ascii"),
    "carla/be.ply": ply("binary_big_endian"),
}


def write(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)


def test_valid_files_without_noise_come_back_byte_for_byte(tmp_path):
    root = tmp_path / "in"
    write(root, VALID)
    np.save(root / "c.npy", CLOUD.astype(np.float64))
    report = apply(QUIET, root, tmp_path / "out")
    assert report.noised == len(VALID) + 1
    for name in [*VALID, "c.npy"]:
        assert (tmp_path / "out" / name).read_bytes() == (root / name).read_bytes(), name


def test_noised_ascii_files_change_only_the_noised_values(tmp_path):
    root = tmp_path / "in"
    write(root, {"crlf.pcd": VALID["crlf.pcd"], "asc.ply": VALID["asc.ply"]})
    apply(NOISY, root, tmp_path / "out")
    out = (tmp_path / "out/crlf.pcd").read_bytes()
    src = VALID["crlf.pcd"]
    assert out.count(b"\r\n") == src.count(b"\r\n")  # line ends kept
    rows = [ln.split() for ln in out.decode().splitlines()[-len(CLOUD) :]]
    assert [r[3] for r in rows] == ["1"] * len(CLOUD)  # intensity token untouched
    assert all(
        r[:3] != s.split()[:3] for r, s in zip(rows, ascii_rows(CLOUD).splitlines(), strict=True)
    )
    lines = (tmp_path / "out/asc.ply").read_text().splitlines()
    src_lines = VALID["asc.ply"].decode().splitlines()
    head = src_lines.index("end_header") + 1
    assert lines[: head + 2] == src_lines[: head + 2]  # header and camera lines
    assert lines[-1] == "3 0 1 2"
    assert [ln.split()[3] for ln in lines[head + 2 : -1]] == [str(i) for i in range(len(CLOUD))]


def _short(data: bytes, n: int) -> bytes:
    return data[:-n]


#: class -> [(file name, bytes, what the user is told)]
BAD: dict[str, list[tuple[str, bytes, str]]] = {
    "PCD negative or malformed counts": [
        (
            "neg_points.pcd",
            pcd(ascii_rows(CLOUD), POINTS="-5"),
            r"PCD POINTS is -5: it must be >= 0",
        ),
        (
            "neg_width.pcd",
            pcd(ascii_rows(CLOUD), WIDTH="-12"),
            r"PCD WIDTH is -12: it must be >= 0",
        ),
        (
            "neg_height.pcd",
            pcd(ascii_rows(CLOUD), HEIGHT="-1"),
            r"PCD HEIGHT is -1: it must be >= 0",
        ),
        ("word_points.pcd", pcd(ascii_rows(CLOUD), POINTS="ten"), r"PCD POINTS is 'ten'"),
        ("two_points.pcd", pcd(ascii_rows(CLOUD), POINTS="12 3"), r"PCD POINTS is '12 3'"),
        (
            "wh.pcd",
            pcd(ascii_rows(CLOUD), WIDTH="5"),
            r"PCD POINTS is 12 but WIDTH x HEIGHT is 5 x 1",
        ),
        ("neg_size.pcd", pcd(ascii_rows(CLOUD), SIZE="4 4 4 -4"), r"PCD SIZE is -4"),
        ("count0.pcd", pcd(ascii_rows(CLOUD), COUNT="1 1 1 0"), r"field 'intensity' has COUNT 0"),
        ("nodims.pcd", pcd(ascii_rows(CLOUD), POINTS=None, WIDTH=None), r"no POINTS"),
    ],
    "PCD fields and types": [
        ("f16.pcd", pcd(ascii_rows(CLOUD), SIZE="4 4 4 16"), r"'intensity' has TYPE F SIZE 16"),
        ("uint_x.pcd", pcd(ascii_rows(CLOUD), TYPE="U F F F"), r"field 'x' has TYPE U COUNT 1"),
        ("count_x.pcd", pcd(ascii_rows(CLOUD), COUNT="2 1 1 1"), r"field 'x' has TYPE F COUNT 2"),
        ("lens.pcd", pcd(ascii_rows(CLOUD), TYPE="F F F"), r"differ in length \(.*TYPE 3"),
        ("dup.pcd", pcd(ascii_rows(CLOUD), FIELDS="x y z x"), r"FIELDS name 'x' 2 times"),
        ("noz.pcd", pcd(ascii_rows(CLOUD), FIELDS="x y w intensity"), r"no field 'z'"),
        ("nosize.pcd", pcd(ascii_rows(CLOUD), SIZE=None), r"no SIZE line"),
        ("nodata.pcd", pcd(b"").replace(b"DATA ascii\n", b""), r"no DATA line"),
        ("twice.pcd", pcd(ascii_rows(CLOUD), VIEWPOINT="0\nPOINTS 12"), r"POINTS twice"),
        ("lzf.pcd", pcd(b"", data="binary_compressed"), r"PCD DATA binary_compressed"),
        ("utf.pcd", pcd(ascii_rows(CLOUD), VERSION="0.7\xe9"), r"not ascii text"),
    ],
    "PCD data against the header": [
        ("short.pcd", _short(PCD_BINARY, 1), r"POINTS is 12 \(192 bytes.* hold 191 bytes"),
        ("few.pcd", pcd(ascii_rows(CLOUD[:-1])), r"POINTS is 12 but the data have 11 lines"),
        ("many.pcd", pcd(ascii_rows(CLOUD) + "1 2 3 4\n"), r"POINTS is 12 but the data have 13"),
        (
            "ragged.pcd",
            pcd(ascii_rows(CLOUD).replace(" 1\n", "\n", 1)),
            r"PCD point 0 has 3 values",
        ),
        (
            "nan.pcd",
            pcd(ascii_rows(CLOUD).replace("1\n", "1\n1 x 3 1\n", 1), POINTS="13", WIDTH="13"),
            r"point 1: value 'x' is not a number",
        ),
        ("bytes.pcd", pcd(ascii_rows(CLOUD).encode() + b"\xff"), r"non-ascii byte at offset"),
    ],
    "PLY header": [
        ("neg.ply", ply("binary_little_endian", camera="-2"), r"element 'camera' count is -2"),
        ("negv.ply", ply("ascii", -1), r"element 'vertex' count is -1"),
        ("wordv.ply", ply("ascii", "many"), r"element 'vertex' count is 'many'"),
        ("f128.ply", ply("ascii", xtype="float128"), r"property 'x' has type 'float128'"),
        ("intx.ply", ply("ascii", xtype="int"), r"property 'x' has type 'int': x, y and z"),
        ("fmt.ply", ply("binary_middle_endian"), r"PLY format line is 'format binary_middle"),
        ("nofmt.ply", ply("ascii").replace(b"format ascii 1.0\n", b""), r"no format line"),
        ("noend.ply", ply("ascii").replace(b"end_header", b"end_headr"), r"no end_header"),
        ("magic.ply", b"plyx" + ply("ascii")[3:], r"not a PLY file"),
        ("junk.ply", ply("ascii").replace(b"comment", b"commentary"), r"not a PLY header keyword"),
        (
            "prop.ply",
            ply("ascii").replace(b"property double f", b"property f"),
            r"'property <type> <name>'",
        ),
    ],
    "PLY data against the header": [
        ("short_le.ply", ply("binary_little_endian")[: -13 * 5], r"count is 12 \(156 bytes"),
        (
            "short_be.ply",
            ply("binary_big_endian", 13),
            r"element 'face' \(count 1\) runs past the end",
        ),
        ("few.ply", ply("ascii", 20), r"'vertex' count is 20 but the data end after 13"),
        ("ragged.ply", ply("ascii").replace(b" 0\n", b"\n", 1), r"PLY vertex 0 has 3 values"),
        ("cams.ply", ply("ascii").replace(b"601\n", b"601 2\n"), r"'camera' line 1 has 2 values"),
        (
            "text.ply",
            ply("ascii").replace(b" 0\n", b" 0\n1 2 y 3\n", 1),
            r"value 'y' is not a number",
        ),
    ],
    "PLY elements after the vertices": [
        (
            "tail_le.ply",
            ply("binary_little_endian") + b"\0",
            r"element counts add up to 423 bytes but the file has 424 bytes",
        ),
        ("list_le.ply", ply("binary_little_endian")[:-4], r"element 'face' \(count 1\) runs past"),
        (
            "faces.ply",
            ply("ascii").replace(b"face 1", b"face 2"),
            r"'face' count is 2 but the data end after 1",
        ),
        (
            "listlen.ply",
            ply("ascii").replace(b"3 0 1 2", b"4 0 1 2"),
            r"'face' line 0 has 4 values: the header gives 5",
        ),
        ("extra.ply", ply("ascii") + b"1 2 3\n", r"1 lines after the last element"),
        (
            "fcount.ply",
            ply("ascii").replace(b"list uchar", b"list float"),
            r"list count of type 'float'",
        ),
    ],
    "KITTI sizes": [
        ("odd.bin", np.zeros(7, "<f4").tobytes(), r"7 float32 values: a KITTI .bin holds"),
        ("bytes.bin", bytes(30), r"30 bytes: a KITTI .bin holds N x 4"),
    ],
    "npy contents": [
        (
            "obj.npy",
            b"\x93NUMPY\x01\x00v\x00{'descr': '|O', 'fortran_order': False, "
            + b"'shape': (2,), }"
            + b" " * 75
            + b"\n"
            + bytes(16),
            r"allow_pickle",
        ),
        ("trunc.npy", b"\x93NUMPY\x01\x00", r"npy|header|EOF|truncated|read"),
    ],
}
CASES = [(cls, *case) for cls, cases in BAD.items() for case in cases]


@pytest.mark.parametrize(("cls", "name", "data", "told"), CASES, ids=[c[1] for c in CASES])
def test_bad_files_are_refused_by_name_and_field(tmp_path, cls, name, data, told):
    root = tmp_path / "in"
    write(root, {"ok.pcd": PCD_ASCII, name: data})
    with pytest.raises(ApplyError, match=rf"file {name}: .*{told}") as err:
        apply(NOISY, root, tmp_path / "out")
    assert "Traceback" not in str(err.value) and "\n" not in str(err.value)
    assert not (tmp_path / "out").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]
