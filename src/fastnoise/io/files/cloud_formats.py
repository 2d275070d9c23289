"""Point-cloud file formats shared by the ``points`` and ``points_drop`` readers and
writers: the PCD and PLY field types, their checked headers and their point data."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

#: PCD (TYPE, SIZE) -> numpy type
PCD_TYPES = {
    ("F", 4): "f4",
    ("F", 8): "f8",
    ("I", 1): "i1",
    ("I", 2): "i2",
    ("I", 4): "i4",
    ("I", 8): "i8",
    ("U", 1): "u1",
    ("U", 2): "u2",
    ("U", 4): "u4",
    ("U", 8): "u8",
}


def pcd_header(raw: bytes) -> tuple[dict[str, list[str]], int]:
    """A PCD header's lines (upper-case key -> words) and where the data start."""
    fields: dict[str, list[str]] = {}
    pos = 0
    while True:
        end = raw.find(b"\n", pos)
        if end < 0:
            raise ValueError("PCD header has no DATA line")
        line = raw[pos:end].decode("ascii", "replace").strip()
        pos = end + 1
        if not line or line.startswith("#"):
            continue
        key, *vals = line.split()
        fields[key.upper()] = vals
        if key.upper() == "DATA":
            return fields, pos


#: PLY property type -> numpy type
PLY_TYPES = {
    "char": "i1",
    "uchar": "u1",
    "short": "i2",
    "ushort": "u2",
    "int": "i4",
    "uint": "u4",
    "float": "f4",
    "double": "f8",
    "int8": "i1",
    "uint8": "u1",
    "int16": "i2",
    "uint16": "u2",
    "int32": "i4",
    "uint32": "u4",
    "float32": "f4",
    "float64": "f8",
}


class Pcd(NamedTuple):
    """A PCD file's header, checked: its fields, where the data start, how many points,
    ``binary`` or ``ascii``, and the indices of x, y, z among the fields."""

    names: list[str]
    sizes: list[int]
    types: list[str]
    counts: list[int]
    start: int
    n_pts: int
    kind: str
    xi: list[int]
    ftype: type  # float32 when x, y and z are all 4 bytes, else float64


def read_pcd(raw: bytes) -> Pcd:
    hdr, start = pcd_header(raw)
    names = hdr.get("FIELDS", [])
    sizes = [int(s) for s in hdr.get("SIZE", [])]
    types = hdr.get("TYPE", [])
    counts = [int(c) for c in hdr.get("COUNT", ["1"] * len(names))]
    if not (len(names) == len(sizes) == len(types) == len(counts)):
        raise ValueError("PCD header FIELDS, SIZE, TYPE and COUNT differ in length")
    for n in ("x", "y", "z"):
        if n not in names:
            raise ValueError(f"PCD has no field {n!r} (fields: {names})")
    xi = [names.index(n) for n in ("x", "y", "z")]
    ftype = np.float32 if all(sizes[i] == 4 for i in xi) else np.float64
    n_pts = int(hdr.get("POINTS", ["0"])[0])
    kind = hdr["DATA"][0].lower()
    if kind not in ("binary", "ascii"):
        raise ValueError(
            f"PCD DATA {kind}: only ascii and binary are handled (convert binary_compressed "
            "with pcl_convert_pcd_ascii_binary)"
        )
    return Pcd(names, sizes, types, counts, start, n_pts, kind, xi, ftype)


def pcd_binary_body(raw: bytes, pcd: Pcd) -> tuple[np.ndarray, list[str], np.dtype]:
    """The points of a binary PCD as a writable structured array (fields named
    ``<name>__<i>``: PCD allows repeated ``_`` names), those names and the dtype."""
    formats: list[Any] = []
    for t, s, c in zip(pcd.types, pcd.sizes, pcd.counts, strict=True):
        code = PCD_TYPES.get((t.upper(), s))
        if code is None:
            raise ValueError(f"PCD TYPE {t} SIZE {s} is not a known type")
        formats.append(("<" + code, (c,)) if c > 1 else "<" + code)
    uniq = [f"{n}__{i}" for i, n in enumerate(pcd.names)]
    dt = np.dtype({"names": uniq, "formats": formats})
    body = np.frombuffer(raw, dtype=dt, count=pcd.n_pts, offset=pcd.start).copy()
    for i in pcd.xi:
        if body.dtype[uniq[i]].kind != "f":
            raise ValueError(f"PCD field {pcd.names[i]!r} must be a float (TYPE F)")
    return body, uniq, dt


def pcd_ascii_rows(raw: bytes, pcd: Pcd) -> tuple[list[list[str]], np.ndarray]:
    """The tokens of an ascii PCD's point lines, and each field's first token index."""
    lines = raw[pcd.start :].decode("ascii").splitlines(keepends=True)
    rows = [ln for ln in lines if ln.strip()]
    if len(rows) < pcd.n_pts:
        raise ValueError(f"PCD says {pcd.n_pts} points but has {len(rows)} data lines")
    first = np.cumsum([0, *pcd.counts[:-1]])
    return [ln.split() for ln in rows[: pcd.n_pts]], first


class Ply(NamedTuple):
    """A PLY file's header, checked: where the data start, the format, the elements
    (name, count, [(type, property)]), the vertex element's index, its properties and
    the indices of x, y, z among them."""

    start: int
    fmt: str | None
    elements: list[tuple[str, int, list[tuple[str, str]]]]
    vi: int
    props: list[tuple[str, str]]
    xi: list[int]
    ftype: type  # float32 when x, y and z are all float32, else float64


def read_ply(raw: bytes) -> Ply:
    end = raw.find(b"end_header")
    if not raw.startswith(b"ply") or end < 0:
        raise ValueError("not a PLY file (no 'ply' magic or no end_header)")
    start = raw.index(b"\n", end) + 1
    fmt = None
    elements: list[tuple[str, int, list[tuple[str, str]]]] = []
    for line in raw[:start].decode("ascii").splitlines():
        words = line.split()
        if not words:
            continue
        if words[0] == "format":
            fmt = words[1]
        elif words[0] == "element":
            elements.append((words[1], int(words[2]), []))
        elif words[0] == "property":
            if not elements:
                raise ValueError("PLY property before any element")
            if words[1] == "list":
                elements[-1][2].append(("list", words[-1]))
            else:
                elements[-1][2].append((words[1], words[2]))
    names = [e[0] for e in elements]
    if "vertex" not in names:
        raise ValueError("PLY has no vertex element")
    vi = names.index("vertex")
    for e in elements[: vi + 1]:
        if any(t == "list" for t, _ in e[2]):
            raise ValueError(
                f"PLY element {e[0]!r} (at or before vertex) has list properties: not handled"
            )
    props = elements[vi][2]
    pnames = [p for _, p in props]
    for n in ("x", "y", "z"):
        if n not in pnames:
            raise ValueError(f"PLY vertex has no property {n!r} (it has {pnames})")
    xi = [pnames.index(n) for n in ("x", "y", "z")]
    ftype = np.float32 if all(PLY_TYPES[props[i][0]] == "f4" for i in xi) else np.float64
    return Ply(start, fmt, elements, vi, props, xi, ftype)


def ply_binary_body(raw: bytes, ply: Ply) -> tuple[np.ndarray, np.dtype, int]:
    """The vertices of a binary PLY as a writable structured array (properties named
    ``<name>__<i>``), its dtype and the byte offset of the vertex element."""
    order = "<" if ply.fmt == "binary_little_endian" else ">"
    offset = ply.start
    for e in ply.elements[: ply.vi]:
        offset += e[1] * np.dtype([(p, order + PLY_TYPES[t]) for t, p in e[2]]).itemsize
    dt = np.dtype([(f"{p}__{i}", order + PLY_TYPES[t]) for i, (t, p) in enumerate(ply.props)])
    n = ply.elements[ply.vi][1]
    return np.frombuffer(raw, dtype=dt, count=n, offset=offset).copy(), dt, offset


def ply_ascii_rows(raw: bytes, ply: Ply) -> tuple[list[str], int, list[list[str]]]:
    """The lines after an ascii PLY's header, the index of the first vertex line, and
    the vertex lines' tokens."""
    lines = raw[ply.start :].decode("ascii").splitlines(keepends=True)
    skip = sum(e[1] for e in ply.elements[: ply.vi])
    rows = lines[skip : skip + ply.elements[ply.vi][1]]
    return lines, skip, [ln.split() for ln in rows]
