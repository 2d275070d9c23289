"""Hypothesis fuzz of the point-cloud file headers and the suite files (issue 27, item
5): every header count, size, type and data length the strategies make is either
refused with a ValueError (never another exception, never a crash) or read, and a file
that is read comes back byte for byte when its model adds no noise. Small by default
(seconds); ``FASTNOISE_SLOW=1`` runs 20 times as many examples."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from fastnoise import LidarNoise  # noqa: E402
from fastnoise.io.files.cloud import noise_pcd, noise_ply  # noqa: E402
from fastnoise.io.files.cloud_formats import read_pcd, read_ply  # noqa: E402
from fastnoise.io.suite import load_suite  # noqa: E402

EXAMPLES = 2000 if os.environ.get("FASTNOISE_SLOW") else 100
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
QUIET = LidarNoise(seed=1)  # no noise: a file read must come back unchanged

counts = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from(["", "x", "1.5", "-0", "99999999999999999999", "1e3", "3 4"]),
)
types = st.sampled_from(["F", "I", "U", "f", "X", "F16"])
sizes = st.sampled_from(["1", "2", "4", "8", "16", "0", "-4", "a"])


@st.composite
def pcd_files(draw):
    n_fields = draw(st.integers(1, 5))
    names = draw(
        st.lists(st.sampled_from(["x", "y", "z", "intensity", "rgb", "_"]), min_size=n_fields,
                 max_size=n_fields)
    )  # fmt: skip
    if draw(st.booleans()):  # often a plausible x y z cloud
        names = ["x", "y", "z", *names[3:]]
    n = len(names)
    row = lambda s: " ".join(draw(st.lists(s, min_size=n, max_size=n)))  # noqa: E731
    header = {
        "FIELDS": " ".join(names),
        "SIZE": row(sizes) if draw(st.booleans()) else " ".join(["4"] * n),
        "TYPE": row(types) if draw(st.booleans()) else " ".join(["F"] * n),
        "COUNT": row(st.sampled_from(["1", "1", "2", "0"])) if draw(st.booleans()) else None,
        "WIDTH": draw(counts),
        "HEIGHT": draw(st.sampled_from(["1", "1", "2", "0", "-1"])),
        "POINTS": draw(st.one_of(st.none(), counts)),
    }
    order = draw(st.permutations(list(header)))
    kind = draw(st.sampled_from(["ascii", "binary", "binary", "binary_compressed", "x"]))
    text = "VERSION 0.7\n" + "".join(f"{k} {header[k]}\n" for k in order if header[k] is not None)
    text += f"DATA {kind}\n"
    rows = draw(st.integers(0, 14))
    if kind == "ascii":
        vals = st.sampled_from(["1", "-2.5", "nan", "inf", "1e30", "x", ""])
        body = "".join(
            " ".join(draw(st.lists(vals, min_size=0, max_size=n + 1))) + "\n" for _ in range(rows)
        ).encode()
    else:
        body = draw(st.binary(min_size=0, max_size=rows * 4 * n + 3))
    return text.encode() + body


@st.composite
def ply_files(draw):
    fmt = draw(st.sampled_from(["ascii", "binary_little_endian", "binary_big_endian", "x"]))
    pre = draw(st.one_of(st.none(), st.integers(-2, 3)))
    nv = draw(st.integers(-2, 10))
    xtype = draw(st.sampled_from(["float", "double", "float32", "int", "float128", "list"]))
    faces = draw(st.integers(-1, 3))
    head = f"ply\nformat {fmt} 1.0\n"
    if pre is not None:
        head += f"element cam {pre}\nproperty double f\n"
    head += f"element vertex {nv}\nproperty {xtype} x\nproperty float y\nproperty float z\n"
    head += f"element face {faces}\nproperty list uchar int vertex_indices\nend_header\n"
    if fmt == "ascii":
        vals = st.sampled_from(["0", "1.5", "-3", "3", "x", "nan", "2"])
        lines = draw(st.integers(0, 16))
        body = "".join(
            " ".join(draw(st.lists(vals, min_size=1, max_size=5))) + "\n" for _ in range(lines)
        ).encode()
    else:
        body = draw(st.binary(max_size=200))
    return head.encode() + body


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


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(), st.text(max_size=5)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=20,
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
