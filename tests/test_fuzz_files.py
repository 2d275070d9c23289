"""Hypothesis fuzz of the point-cloud file headers and the suite files (issue 27, item
5): every header count, size, type and data length the strategies make is either
refused with a ValueError (never another exception, never a crash) or read, and a file
that is read comes back byte for byte when its model adds no noise. Small by default
(seconds); ``FASTNOISE_SLOW=1`` runs 20 times as many examples."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
from _fuzz_common import fuzz_settings
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from fastnoise import LidarNoise
from fastnoise.io.files.cloud import noise_pcd, noise_ply
from fastnoise.io.files.cloud_formats import read_pcd, read_ply
from fastnoise.io.suite import load_suite

FUZZ = fuzz_settings(HealthCheck.function_scoped_fixture)
QUIET = LidarNoise(seed=1)  # no noise: a file read must come back unchanged

counts = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from(["", "x", "1.5", "-0", "99999999999999999999", "1e3", "3 4"]),
)
types = st.sampled_from(["F", "I", "U", "f", "X", "F16"])
sizes = st.sampled_from(["1", "2", "4", "8", "16", "0", "-4", "a"])


@st.composite
def pcd_files(draw):
    """A consistent PCD (x y z and extra fields, ascii or binary, organized or not),
    then, most of the time, one header word or the data changed."""
    extra = draw(st.lists(st.sampled_from(["intensity", "rgb", "_", "ring"]), max_size=2))
    names = ["x", "y", "z", *extra]
    n = len(names)
    size = [draw(st.sampled_from(["4", "8"])) for _ in names]
    typ = ["F"] * n
    width, height = draw(st.integers(0, 6)), draw(st.integers(1, 2))
    pts = width * height
    kind = draw(st.sampled_from(["ascii", "binary"]))
    header = {
        "FIELDS": " ".join(names),
        "SIZE": " ".join(size),
        "TYPE": " ".join(typ),
        "COUNT": " ".join(["1"] * n),
        "WIDTH": str(width),
        "HEIGHT": str(height),
        "POINTS": str(pts),
        "DATA": kind,
    }
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    vals = rng.normal(0, 10, (pts, n))
    if kind == "ascii":
        body = "".join(" ".join(f"{v:.6g}" for v in r) + "\n" for r in vals).encode()
    else:
        dt = np.dtype([(f"f{i}", "<f" + size[i]) for i in range(n)])
        arr = np.zeros(pts, dt)
        for i in range(n):
            arr[f"f{i}"] = vals[:, i]
        body = arr.tobytes()
    mutation = draw(st.sampled_from(["none", "header", "header", "drop", "body", "body"]))
    if mutation == "header":
        key = draw(st.sampled_from(sorted(header)))
        header[key] = draw(st.one_of(counts, types, sizes, st.just("ascii binary")))
    elif mutation == "drop":
        del header[draw(st.sampled_from(sorted(header)))]
    elif mutation == "body":
        cut = draw(st.integers(-9, 9))
        body = body[:cut] if cut < 0 else body + draw(st.binary(min_size=cut, max_size=cut))
    order = [*draw(st.permutations([k for k in header if k != "DATA"]))]
    text = "VERSION 0.7\n" + "".join(f"{k} {header[k]}\n" for k in order)
    if "DATA" in header:
        text += f"DATA {header['DATA']}\n"
    return text.encode() + body


@st.composite
def ply_files(draw):
    """A consistent PLY (an element before the vertices, x y z, faces after them) in
    any format, then, most of the time, one count, type or the data changed."""
    fmt = draw(st.sampled_from(["ascii", "binary_little_endian", "binary_big_endian"]))
    pre, nv, nf = draw(st.integers(0, 2)), draw(st.integers(0, 6)), draw(st.integers(0, 2))
    xtype = draw(st.sampled_from(["float", "double", "float32"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    cams, verts = rng.normal(0, 1, pre), rng.normal(0, 10, (nv, 3))
    o = "<" if fmt == "binary_little_endian" else ">"
    if fmt == "ascii":
        body = "".join(f"{c:.6g}\n" for c in cams) + "".join(
            " ".join(f"{v:.6g}" for v in r) + "\n" for r in verts
        )
        body += "".join("3 0 1 2\n" for _ in range(nf))
        data = body.encode()
    else:
        xt = "f8" if xtype == "double" else "f4"
        dt = np.dtype([("x", o + xt), ("y", o + "f4"), ("z", o + "f4")])
        arr = np.zeros(nv, dt)
        arr["x"], arr["y"], arr["z"] = verts[:, 0], verts[:, 1], verts[:, 2]
        face = np.array([3], "u1").tobytes() + np.array([0, 1, 2], o + "i4").tobytes()
        data = cams.astype(o + "f8").tobytes() + arr.tobytes() + face * nf
    words = {"fmt": fmt, "pre": str(pre), "nv": str(nv), "xtype": xtype, "nf": str(nf)}
    mutation = draw(st.sampled_from(["none", "word", "word", "body", "body"]))
    if mutation == "word":
        key = draw(st.sampled_from(sorted(words)))
        words[key] = draw(
            st.one_of(counts, st.sampled_from(["int", "float128", "list", "x", "ascii"]))
        )
    elif mutation == "body":
        cut = draw(st.integers(-9, 9))
        data = data[:cut] if cut < 0 else data + draw(st.binary(min_size=cut, max_size=cut))
    head = (
        f"ply\nformat {words['fmt']} 1.0\nelement cam {words['pre']}\nproperty double f\n"
        f"element vertex {words['nv']}\nproperty {words['xtype']} x\nproperty float y\n"
        f"property float z\nelement face {words['nf']}\n"
        "property list uchar int vertex_indices\nend_header\n"
    )
    return head.encode() + data


def _roundtrip(data: bytes, suffix: str, reader, writer) -> None:
    with tempfile.TemporaryDirectory() as d:
        src, dst = Path(d) / f"a{suffix}", Path(d) / f"b{suffix}"
        src.write_bytes(data)
        try:
            writer(src, dst, QUIET, {}, 1)
        except ValueError:
            return  # refused: the message is checked in test_cloud_edges.py
        assert dst.read_bytes() == data
        reader(dst.read_bytes())  # and what was written reads back


@FUZZ
@given(pcd_files())
def test_pcd_headers_are_refused_or_round_trip(data):
    _roundtrip(data, ".pcd", read_pcd, noise_pcd)


@FUZZ
@given(ply_files())
def test_ply_headers_are_refused_or_round_trip(data):
    _roundtrip(data, ".ply", read_ply, noise_ply)


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_are_refused_with_a_value_error(data):
    for suffix, writer in ((".pcd", noise_pcd), (".ply", noise_ply)):
        _roundtrip(data, suffix, read_pcd if suffix == ".pcd" else read_ply, writer)


_leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(), st.text(max_size=5))
_level = st.one_of(
    _leaf,
    st.lists(_leaf, max_size=3),
    st.dictionaries(st.text(max_size=6), _leaf, max_size=3),
)
json_values = st.one_of(
    _level,
    st.lists(_level, max_size=3),
    st.dictionaries(st.text(max_size=6), _level, max_size=3),
)
suite_dicts = st.fixed_dictionaries(
    {},
    optional={
        "seed": st.one_of(st.integers(-2, 2**70), st.text(max_size=3), st.floats()),
        "threads": st.one_of(st.integers(-1, 3), st.none()),
        "topics": st.dictionaries(
            st.sampled_from(["/cam", "/imu", "", "*", "/a/*"]),
            st.one_of(
                json_values,
                st.fixed_dictionaries(
                    {"model": st.sampled_from(["camera", "lidar", "imu", "copy", "nope"])},
                    optional={"stddev": json_values, "rate": json_values, "seed": json_values},
                ),
            ),
            max_size=3,
        ),
        "files": st.dictionaries(st.sampled_from(["*", "*.png", "a/**"]), json_values, max_size=2),
        "x": json_values,
    },
)


@FUZZ
@given(suite_dicts)
def test_suite_files_load_or_are_refused_with_a_value_error(doc):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "s.json"
        path.write_text(json.dumps(doc))
        try:
            load_suite(path)
        except ValueError as exc:
            assert "s.json" in str(exc) or "suite" in str(exc).lower(), str(exc)


def test_the_fuzz_reads_real_files_too():
    """The strategies are not all refusals: a plain file is read and kept."""
    cloud = np.arange(12, dtype="<f4").reshape(4, 3)
    head = "FIELDS x y z\nSIZE 4 4 4\nTYPE F F F\nWIDTH 4\nHEIGHT 1\nPOINTS 4\nDATA binary\n"
    _roundtrip(head.encode() + cloud.tobytes(), ".pcd", read_pcd, noise_pcd)
