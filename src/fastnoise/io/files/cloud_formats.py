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
        try:
            line = raw[pos:end].decode("ascii").strip()
        except UnicodeDecodeError:
            raise ValueError(
                f"PCD header line at byte {pos} is not ascii text (a PCD header is ascii)"
            ) from None
        pos = end + 1
        if not line or line.startswith("#"):
            continue
        key, *vals = line.split()
        if key.upper() in fields:
            raise ValueError(f"PCD header has the field {key.upper()} twice")
        fields[key.upper()] = vals
        if key.upper() == "DATA":
            return fields, pos


def _count(what: str, word: str) -> int:
    """``word`` as a count >= 0, or ValueError naming ``what`` (a header field)."""
    try:
        value = int(word)
    except ValueError:
        raise ValueError(f"{what} is {word!r}: it must be a whole number >= 0") from None
    if value < 0:
        raise ValueError(f"{what} is {value}: it must be >= 0")
    return value


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
    """The checked header of a PCD file's bytes ``raw``: ValueError naming the header
    field when a count, size or type is malformed or disagrees with another field."""
    hdr, start = pcd_header(raw)
    names = hdr.get("FIELDS", [])
    if not names:
        raise ValueError("PCD header has no FIELDS (or FIELDS names nothing)")
    for key in ("SIZE", "TYPE"):
        if key not in hdr:
            raise ValueError(f"PCD header has no {key} line")
    sizes = [_count("PCD SIZE", s) for s in hdr["SIZE"]]
    types = [t.upper() for t in hdr["TYPE"]]
    counts = [_count("PCD COUNT", c) for c in hdr.get("COUNT", ["1"] * len(names))]
    lengths = {k: len(v) for k, v in (("FIELDS", names), ("SIZE", sizes), ("TYPE", types))}
    lengths["COUNT"] = len(counts)
    if len(set(lengths.values())) != 1:
        have = ", ".join(f"{k} {n}" for k, n in lengths.items())
        raise ValueError(f"PCD header FIELDS, SIZE, TYPE and COUNT differ in length ({have})")
    for name, t, size, c in zip(names, types, sizes, counts, strict=True):
        if (t, size) not in PCD_TYPES:
            raise ValueError(
                f"PCD field {name!r} has TYPE {t} SIZE {size}: allowed are F 4/8, I or U 1/2/4/8"
            )
        if c < 1:
            raise ValueError(f"PCD field {name!r} has COUNT {c}: it must be >= 1")
    for n in ("x", "y", "z"):
        if n not in names:
            raise ValueError(f"PCD has no field {n!r} (FIELDS: {names})")
        if names.count(n) > 1:
            raise ValueError(f"PCD FIELDS name {n!r} {names.count(n)} times")
    xi = [names.index(n) for n in ("x", "y", "z")]
    for i in xi:
        if types[i] != "F" or counts[i] != 1:
            raise ValueError(
                f"PCD field {names[i]!r} has TYPE {types[i]} COUNT {counts[i]}: x, y and z "
                "must be TYPE F (float32 or float64) with COUNT 1"
            )
    ftype = np.float32 if all(sizes[i] == 4 for i in xi) else np.float64
    dims = {}
    for key in ("WIDTH", "HEIGHT", "POINTS"):
        if key in hdr:
            if len(hdr[key]) != 1:
                raise ValueError(f"PCD {key} is {' '.join(hdr[key])!r}: it must be one count")
            dims[key] = _count(f"PCD {key}", hdr[key][0])
    if "WIDTH" in dims and "HEIGHT" in dims:
        wh = dims["WIDTH"] * dims["HEIGHT"]
        if dims.setdefault("POINTS", wh) != wh:
            raise ValueError(
                f"PCD POINTS is {dims['POINTS']} but WIDTH x HEIGHT is "
                f"{dims['WIDTH']} x {dims['HEIGHT']} = {wh}"
            )
    if "POINTS" not in dims:
        raise ValueError("PCD header has no POINTS (nor WIDTH and HEIGHT)")
    n_pts = dims["POINTS"]
    if len(hdr["DATA"]) != 1:
        raise ValueError(f"PCD DATA is {' '.join(hdr['DATA'])!r}: it must be ascii or binary")
    kind = hdr["DATA"][0].lower()
    if kind not in ("binary", "ascii"):
        raise ValueError(
            f"PCD DATA {kind}: only ascii and binary are handled (convert binary_compressed "
            "with pcl_convert_pcd_ascii_binary)"
        )
    return Pcd(names, sizes, types, counts, start, n_pts, kind, xi, ftype)


def pcd_binary_body(raw: bytes, pcd: Pcd) -> tuple[np.ndarray, list[str], np.dtype]:
    """The points of a binary PCD as a writable structured array (fields named
    ``<name>__<i>``: PCD allows repeated ``_`` names), those names and the dtype.
    ValueError when the data hold fewer bytes than POINTS points need (bytes after
    them are the caller's to keep)."""
    formats: list[Any] = []
    for t, s, c in zip(pcd.types, pcd.sizes, pcd.counts, strict=True):
        code = PCD_TYPES[t.upper(), s]
        formats.append(("<" + code, (c,)) if c > 1 else "<" + code)
    uniq = [f"{n}__{i}" for i, n in enumerate(pcd.names)]
    dt = np.dtype({"names": uniq, "formats": formats})
    have = len(raw) - pcd.start
    if have < pcd.n_pts * dt.itemsize:
        raise ValueError(
            f"PCD POINTS is {pcd.n_pts} ({pcd.n_pts * dt.itemsize} bytes of {dt.itemsize} "
            f"per point) but the binary data hold {have} bytes"
        )
    body = np.frombuffer(raw, dtype=dt, count=pcd.n_pts, offset=pcd.start).copy()
    return body, uniq, dt


def _ascii_lines(raw: bytes, start: int, what: str) -> list[str]:
    try:
        return raw[start:].decode("ascii").splitlines(keepends=True)
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{what} ascii data hold a non-ascii byte at offset {start + exc.start}"
        ) from None


def _check_row(what: str, row: int, tokens: list[str], width: int, xyz: list[int]) -> None:
    if len(tokens) != width:
        raise ValueError(f"{what} {row} has {len(tokens)} values: the header gives {width}")
    for i in xyz:
        try:
            float(tokens[i])
        except ValueError:
            raise ValueError(f"{what} {row}: value {tokens[i]!r} is not a number") from None


def pcd_ascii_rows(raw: bytes, pcd: Pcd) -> tuple[list[list[str]], np.ndarray]:
    """The tokens of an ascii PCD's point lines, and each field's first token index:
    ValueError when the data lines are not POINTS lines of sum(COUNT) numbers each."""
    rows = [ln for ln in _ascii_lines(raw, pcd.start, "PCD") if ln.strip()]
    if len(rows) != pcd.n_pts:
        raise ValueError(f"PCD POINTS is {pcd.n_pts} but the data have {len(rows)} lines")
    first = np.cumsum([0, *pcd.counts[:-1]])
    tok = [ln.split() for ln in rows]
    xyz = [int(first[i]) for i in pcd.xi]
    for p, t in enumerate(tok):
        _check_row("PCD point", p, t, sum(pcd.counts), xyz)
    return tok, first


def ascii_data_lines(raw: bytes, start: int) -> tuple[list[str], list[int]]:
    """The lines after an ascii header at ``start`` as they are (line ends kept) and
    the indices of the non-blank ones."""
    lines = _ascii_lines(raw, start, "the")
    return lines, [j for j, ln in enumerate(lines) if ln.strip()]


def put_values(line: str, tokens: list[str], cells: list[tuple[int, float, Any]]) -> str:
    """``line`` with ``tokens[i]`` replaced by ``value`` (written with 9 significant
    digits for float32, 17 for float64) for each ``(i, value, ftype)``
    of ``cells`` whose value differs from the token's: a line whose values are all
    unchanged is returned as it was, so a file nothing noised keeps its bytes."""
    changed = False
    for i, value, ftype in cells:
        if ftype(float(tokens[i])).tobytes() != ftype(value).tobytes():
            fmt = "{:.9g}" if ftype == np.float32 else "{:.17g}"
            tokens[i] = fmt.format(float(value))
            changed = True
    if not changed:
        return line
    return " ".join(tokens) + line[len(line.rstrip("\r\n")) :]


class Ply(NamedTuple):
    """A PLY file's header, checked: where the data start, the format, the elements
    (name, count, [(type, property)]; a list's type is ``"list <count type> <item
    type>"``), the vertex element's index, its properties and
    the indices of x, y, z among them."""

    start: int
    fmt: str | None
    elements: list[tuple[str, int, list[tuple[str, str]]]]
    vi: int
    props: list[tuple[str, str]]
    xi: list[int]
    ftype: type  # float32 when x, y and z are all float32, else float64


PLY_FORMATS = ("ascii", "binary_little_endian", "binary_big_endian")


def _ply_type(t: str, where: str) -> str:
    if t not in PLY_TYPES:
        raise ValueError(f"PLY {where} has type {t!r}: allowed are {', '.join(PLY_TYPES)}")
    return t


def read_ply(raw: bytes) -> Ply:
    """The checked header of a PLY file's bytes ``raw``: ValueError naming the header
    line when the format, an element count or a property type is malformed."""
    if not raw.startswith((b"ply\n", b"ply\r\n")):
        raise ValueError("not a PLY file (its first line is not 'ply')")
    lines = []
    pos = 0
    while True:
        end = raw.find(b"\n", pos)
        if end < 0:
            raise ValueError("PLY header has no end_header line")
        try:
            line = raw[pos:end].decode("ascii")
        except UnicodeDecodeError:
            raise ValueError(f"PLY header line at byte {pos} is not ascii text") from None
        pos = end + 1
        if line.strip() == "end_header":
            break
        lines.append(line)
    start = pos
    fmt = None
    elements: list[tuple[str, int, list[tuple[str, str]]]] = []
    for line in lines[1:]:
        words = line.split()
        if not words or words[0] in ("comment", "obj_info"):
            continue
        if words[0] == "format":
            if fmt is not None:
                raise ValueError("PLY header has two format lines")
            if len(words) != 3 or words[1] not in PLY_FORMATS or words[2] != "1.0":
                raise ValueError(
                    f"PLY format line is {line.strip()!r}: it must be 'format <f> 1.0' with "
                    f"<f> one of {', '.join(PLY_FORMATS)}"
                )
            fmt = words[1]
        elif words[0] == "element":
            if len(words) != 3:
                raise ValueError(f"PLY line {line.strip()!r}: it must be 'element <name> <count>'")
            if words[1] in [e[0] for e in elements]:
                raise ValueError(f"PLY header has element {words[1]!r} twice")
            elements.append((words[1], _count(f"PLY element {words[1]!r} count", words[2]), []))
        elif words[0] == "property":
            if not elements:
                raise ValueError("PLY property before any element")
            where = f"element {elements[-1][0]!r} property"
            if len(words) == 5 and words[1] == "list":
                if PLY_TYPES[_ply_type(words[2], where + f" {words[4]!r} (list count)")][0] == "f":
                    raise ValueError(
                        f"PLY {where} {words[4]!r} has a list count of type {words[2]!r}"
                    )
                _ply_type(words[3], where + f" {words[4]!r} (list item)")
                elements[-1][2].append((f"list {words[2]} {words[3]}", words[4]))
            elif len(words) == 3 and words[1] != "list":
                elements[-1][2].append((_ply_type(words[1], where + f" {words[2]!r}"), words[2]))
            else:
                raise ValueError(
                    f"PLY line {line.strip()!r}: it must be 'property <type> <name>' or "
                    "'property list <count type> <item type> <name>'"
                )
        else:
            raise ValueError(f"PLY header line {line.strip()!r} is not a PLY header keyword")
    if fmt is None:
        raise ValueError("PLY header has no format line")
    names = [e[0] for e in elements]
    if "vertex" not in names:
        raise ValueError("PLY has no vertex element")
    vi = names.index("vertex")
    for e in elements[: vi + 1]:
        if any(t.startswith("list") for t, _ in e[2]):
            raise ValueError(
                f"PLY element {e[0]!r} (at or before vertex) has list properties: not handled"
            )
    props = elements[vi][2]
    pnames = [p for _, p in props]
    for n in ("x", "y", "z"):
        if n not in pnames:
            raise ValueError(f"PLY vertex has no property {n!r} (it has {pnames})")
        if pnames.count(n) > 1:
            raise ValueError(f"PLY vertex has the property {n!r} {pnames.count(n)} times")
    xi = [pnames.index(n) for n in ("x", "y", "z")]
    for i in xi:
        if PLY_TYPES[props[i][0]] not in ("f4", "f8"):
            raise ValueError(
                f"PLY vertex property {pnames[i]!r} has type {props[i][0]!r}: x, y and z "
                "must be float or double"
            )
    ftype = np.float32 if all(PLY_TYPES[props[i][0]] == "f4" for i in xi) else np.float64
    return Ply(start, fmt, elements, vi, props, xi, ftype)


def ply_binary_body(raw: bytes, ply: Ply) -> tuple[np.ndarray, np.dtype, int]:
    """The vertices of a binary PLY as a writable structured array (properties named
    ``<name>__<i>``), its dtype and the byte offset of the vertex element. ValueError
    when the data end before the last vertex."""
    order = "<" if ply.fmt == "binary_little_endian" else ">"
    offset = ply.start
    for e in ply.elements[: ply.vi]:
        offset += e[1] * np.dtype([(p, order + PLY_TYPES[t]) for t, p in e[2]]).itemsize
    dt = np.dtype([(f"{p}__{i}", order + PLY_TYPES[t]) for i, (t, p) in enumerate(ply.props)])
    n = ply.elements[ply.vi][1]
    if len(raw) < offset + n * dt.itemsize:
        raise ValueError(
            f"PLY element 'vertex' count is {n} ({n * dt.itemsize} bytes from byte {offset}) "
            f"but the file has {len(raw)} bytes"
        )
    _ply_binary_rest(raw, offset + n * dt.itemsize, ply.elements[ply.vi + 1 :], order)
    return np.frombuffer(raw, dtype=dt, count=n, offset=offset).copy(), dt, offset


def _ply_binary_rest(
    raw: bytes, pos: int, elements: list[tuple[str, int, list[tuple[str, str]]]], order: str
) -> None:
    """Check that the binary elements after the vertices, from byte ``pos``, end
    exactly where the file does (list properties are walked entry by entry)."""
    for name, count, props in elements:
        past = ValueError(
            f"PLY element {name!r} (count {count}) runs past the end of the file ({len(raw)} bytes)"
        )
        if not any(t.startswith("list") for t, _ in props):
            pos += count * sum(np.dtype(PLY_TYPES[t]).itemsize for t, _ in props)
            if pos > len(raw):
                raise past
            continue
        for _ in range(count):
            for t, _p in props:
                if not t.startswith("list"):
                    pos += np.dtype(PLY_TYPES[t]).itemsize
                    continue
                ct, it = t.split()[1:]
                size = np.dtype(PLY_TYPES[ct]).itemsize
                if pos + size > len(raw):
                    raise past
                k = int(np.frombuffer(raw, order + PLY_TYPES[ct], 1, pos)[0])
                if k < 0:
                    raise ValueError(f"PLY element {name!r} has a list of length {k}")
                pos += size + k * np.dtype(PLY_TYPES[it]).itemsize
            if pos > len(raw):
                raise past
    if pos != len(raw):
        raise ValueError(
            f"PLY element counts add up to {pos} bytes but the file has {len(raw)} bytes"
        )


def ply_ascii_rows(raw: bytes, ply: Ply) -> tuple[list[str], int, list[list[str]]]:
    """The lines after an ascii PLY's header, the index of the first vertex line, and
    the vertex lines' tokens: ValueError when a line of an element up to the vertices
    is missing or does not hold one number per property."""
    lines = _ascii_lines(raw, ply.start, "PLY")
    skip = 0
    for name, count, props in ply.elements[: ply.vi + 1]:
        if len(lines) < skip + count:
            raise ValueError(
                f"PLY element {name!r} count is {count} but the data end after "
                f"{len(lines) - skip} of its lines"
            )
        if name != "vertex":
            for r in range(skip, skip + count):
                _check_row(f"PLY element {name!r} line", r - skip, lines[r].split(), len(props), [])
            skip += count
    n = ply.elements[ply.vi][1]
    tok = [ln.split() for ln in lines[skip : skip + n]]
    for p, t in enumerate(tok):
        _check_row("PLY vertex", p, t, len(ply.props), ply.xi)
    pos = skip + n
    for name, count, props in ply.elements[ply.vi + 1 :]:
        if len(lines) < pos + count:
            raise ValueError(
                f"PLY element {name!r} count is {count} but the data end after "
                f"{len(lines) - pos} of its lines"
            )
        for r in range(count):
            words = lines[pos + r].split()
            need = 0
            for ptype, _p in props:
                if ptype.startswith("list"):
                    try:
                        k = _count(f"PLY element {name!r} line {r} list length", words[need])
                    except IndexError:
                        k = 0
                    need += 1 + k
                else:
                    need += 1
            if len(words) != need:
                raise ValueError(
                    f"PLY element {name!r} line {r} has {len(words)} values: the header "
                    f"gives {need}"
                )
        pos += count
    rest = [ln for ln in lines[pos:] if ln.strip()]
    if rest:
        raise ValueError(f"PLY data have {len(rest)} lines after the last element's count")
    return lines, skip, tok
