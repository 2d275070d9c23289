"""CarlaLidarNoise (suite model "carla_lidar") on point-cloud files: KITTI .bin, .pcd,
.ply (split out of :mod:`fastnoise.io._files_cloud`, which dispatches here)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.io._files_cloud_formats import _PCD_TYPES, _PLY_TYPES, _pcd_header


def is_carla(model: Any) -> bool:
    from fastnoise.models.carla_lidar import CarlaLidarNoise

    return isinstance(model, CarlaLidarNoise)


def carla_noise_rows(
    model: Any, cloud: np.ndarray, frame: int = 0, keep_layout: bool = False, threads: int = 1
) -> np.ndarray:
    """CarlaLidarNoise on an (N, >=4) float32/float64 cloud (x, y, z in m, intensity,
    extra columns): by default the kept rows (``model.apply(cloud, frame)``'s points);
    with ``keep_layout`` all N rows, the kept ones as the model gives them, the dropped
    ones as they were with x, y, z = NaN. A stack (F, N, >=4) (``keep_layout`` only) is
    frames ``frame``, ``frame + 1``, ..."""
    arr = np.asarray(cloud)
    if arr.ndim not in (2, 3) or arr.shape[-1] < 4:
        raise ValueError(
            f"cloud has shape {arr.shape}: carla_lidar takes N x >=4 (x, y, z, intensity, ...)"
        )
    if arr.dtype not in (np.float32, np.float64):
        raise TypeError(f"cloud has dtype {arr.dtype}: it must be float32 or float64")
    if arr.ndim == 3 and not keep_layout:
        raise ValueError("a stack of clouds needs keep_layout = true (kept counts differ)")
    if arr.shape[-2] == 0:
        return arr.copy()
    if not keep_layout:
        return np.array(model.apply(arr, frame=frame, threads=threads).points)
    pts, mask = model.apply(arr, frame=frame, drop=False, threads=threads)
    res = arr.copy()
    res[mask] = pts[mask]
    res[..., :3][~mask] = np.nan
    return res


def carla_kitti(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    raw = np.fromfile(src, dtype="<f4")
    if raw.size % 4:
        raise ValueError(f"{raw.size} float32 values: a KITTI .bin holds N x 4 (x, y, z, i)")
    cloud = raw.reshape(-1, 4).astype(np.float32)
    res = carla_noise_rows(model, cloud, 0, bool(options.get("keep_layout")), threads)
    res.astype("<f4").tofile(dst)


def _carla_fields(
    model: Any,
    cols: list[np.ndarray],
    ftype: Any,
    threads: int,
) -> tuple[np.ndarray, np.ndarray]:
    """(points (N, 4), mask (N,)) of CarlaLidarNoise on x, y, z columns of a file
    (frame 0); dropped rows of ``points`` hold NaN x, y, z."""
    n = cols[0].shape[0]
    cloud = np.zeros((n, 4), dtype=ftype)
    for k in range(3):
        cloud[:, k] = cols[k]
    if n == 0:
        return cloud, np.zeros(0, dtype=bool)
    pts, mask = model.apply(cloud, frame=0, drop=False, threads=threads)
    pts = np.array(pts)
    pts[~mask, :3] = np.nan
    return pts, mask


def _set_header_counts(header: str, values: dict[str, str]) -> str:
    """``header`` with the first word of each line in ``values`` given a new value."""
    lines = header.splitlines(keepends=True)
    for i, line in enumerate(lines):
        words = line.split()
        if words and words[0].upper() in values:
            end = line[len(line.rstrip("\r\n")) :]
            lines[i] = f"{words[0]} {values[words[0].upper()]}{end}"
    return "".join(lines)


def _float_field(what: str, name: str, code: str) -> None:
    if code not in ("f4", "f8"):
        raise ValueError(
            f"{what} {name!r} is not a float32/float64: carla_lidar writes the intensity "
            "e^(-a d) in (0, 1] there"
        )


def carla_pcd(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    raw = src.read_bytes()
    hdr, start = _pcd_header(raw)
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
    ii = names.index("intensity") if "intensity" in names else None
    if ii is not None:
        code = _PCD_TYPES.get((types[ii].upper(), sizes[ii]), "?")
        _float_field("PCD field", "intensity", code if counts[ii] == 1 else "?")
    n_pts = int(hdr.get("POINTS", ["0"])[0])
    kind = hdr["DATA"][0].lower()
    keep_layout = bool(options.get("keep_layout"))
    ftype = np.float32 if all(sizes[i] == 4 for i in xi) else np.float64
    head = raw[:start].decode("ascii")
    if kind == "binary":
        formats = []
        for t, s, c in zip(types, sizes, counts, strict=True):
            code = _PCD_TYPES.get((t.upper(), s))
            if code is None:
                raise ValueError(f"PCD TYPE {t} SIZE {s} is not a known type")
            formats.append(("<" + code, (c,)) if c > 1 else "<" + code)
        uniq = [f"{n}__{i}" for i, n in enumerate(names)]
        dt = np.dtype({"names": uniq, "formats": formats})
        body = np.frombuffer(raw, dtype=dt, count=n_pts, offset=start).copy()
        for i in xi:
            if body.dtype[uniq[i]].kind != "f":
                raise ValueError(f"PCD field {names[i]!r} must be a float (TYPE F)")
        pts, mask = _carla_fields(model, [body[uniq[i]] for i in xi], ftype, threads)
        for k, i in enumerate(xi):
            body[uniq[i]] = pts[:, k]
        if ii is not None:  # a dropped point keeps its intensity
            body[uniq[ii]] = np.where(mask, pts[:, 3], body[uniq[ii]])
        tail = raw[start + n_pts * dt.itemsize :]
        if not keep_layout:
            body = body[mask]
            m = str(body.shape[0])
            head = _set_header_counts(head, {"WIDTH": m, "HEIGHT": "1", "POINTS": m})
        dst.write_bytes(head.encode("ascii") + body.tobytes() + tail)
    elif kind == "ascii":
        lines = raw[start:].decode("ascii").splitlines(keepends=True)
        rows = [ln for ln in lines if ln.strip()]
        if len(rows) < n_pts:
            raise ValueError(f"PCD says {n_pts} points but has {len(rows)} data lines")
        first = np.cumsum([0, *counts[:-1]])
        tok = [ln.split() for ln in rows[:n_pts]]
        cols = [np.array([float(t[first[i]]) for t in tok], dtype=ftype) for i in xi]
        pts, mask = _carla_fields(model, cols, ftype, threads)
        fmt = "{:.9g}" if ftype == np.float32 else "{:.17g}"
        ifmt = "{:.9g}" if ii is None or sizes[ii] == 4 else "{:.17g}"
        out_lines = []
        for p, t in enumerate(tok):
            if not keep_layout and not mask[p]:
                continue
            for k, i in enumerate(xi):
                t[first[i]] = fmt.format(float(pts[p, k]))
            if ii is not None and mask[p]:
                t[first[ii]] = ifmt.format(float(pts[p, 3]))
            out_lines.append(" ".join(t) + "\n")
        if not keep_layout:
            m = str(len(out_lines))
            head = _set_header_counts(head, {"WIDTH": m, "HEIGHT": "1", "POINTS": m})
        dst.write_bytes(head.encode("ascii") + "".join(out_lines).encode("ascii"))
    else:
        raise ValueError(
            f"PCD DATA {kind}: only ascii and binary are handled (convert binary_compressed "
            "with pcl_convert_pcd_ascii_binary)"
        )


def carla_ply(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    raw = src.read_bytes()
    end = raw.find(b"end_header")
    if not raw.startswith(b"ply") or end < 0:
        raise ValueError("not a PLY file (no 'ply' magic or no end_header)")
    start = raw.index(b"\n", end) + 1
    header = raw[:start].decode("ascii")
    fmt = None
    elements: list[tuple[str, int, list[tuple[str, str]]]] = []
    for line in header.splitlines():
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
    keep_layout = bool(options.get("keep_layout"))
    if not keep_layout:
        for e in elements[vi + 1 :]:
            if e[1] and (e[0] in ("face", "edge") or any(t == "list" for t, _ in e[2])):
                raise ValueError(
                    f"PLY element {e[0]!r} may index the vertices: removing dropped points "
                    "would break it; use keep_layout = true"
                )
    props = elements[vi][2]
    pnames = [p for _, p in props]
    for n in ("x", "y", "z"):
        if n not in pnames:
            raise ValueError(f"PLY vertex has no property {n!r} (it has {pnames})")
    xi = [pnames.index(n) for n in ("x", "y", "z")]
    ii = pnames.index("intensity") if "intensity" in pnames else None
    if ii is not None:
        _float_field("PLY vertex property", "intensity", _PLY_TYPES.get(props[ii][0], "?"))
    ftype = np.float32 if all(_PLY_TYPES[props[i][0]] == "f4" for i in xi) else np.float64
    n = elements[vi][1]
    if fmt in ("binary_little_endian", "binary_big_endian"):
        order = "<" if fmt == "binary_little_endian" else ">"
        offset = start
        for e in elements[:vi]:
            offset += e[1] * np.dtype([(p, order + _PLY_TYPES[t]) for t, p in e[2]]).itemsize
        dt = np.dtype([(f"{p}__{i}", order + _PLY_TYPES[t]) for i, (t, p) in enumerate(props)])
        body = np.frombuffer(raw, dtype=dt, count=n, offset=offset).copy()
        keys = [dt.names[i] for i in xi]
        pts, mask = _carla_fields(model, [body[k] for k in keys], ftype, threads)
        for k, key in enumerate(keys):
            body[key] = pts[:, k]
        if ii is not None:  # a dropped point keeps its intensity
            body[dt.names[ii]] = np.where(mask, pts[:, 3], body[dt.names[ii]])
        tail = raw[offset + n * dt.itemsize :]
        head = raw[:offset]
        if not keep_layout:
            body = body[mask]
            head = _ply_vertex_count(raw[:start], body.shape[0]) + raw[start:offset]
        dst.write_bytes(head + body.tobytes() + tail)
    elif fmt == "ascii":
        lines = raw[start:].decode("ascii").splitlines(keepends=True)
        skip = sum(e[1] for e in elements[:vi])
        tok = [ln.split() for ln in lines[skip : skip + n]]
        cols = [np.array([float(t[i]) for t in tok], dtype=ftype) for i in xi]
        pts, mask = _carla_fields(model, cols, ftype, threads)
        f = "{:.9g}" if ftype == np.float32 else "{:.17g}"
        fi = "{:.9g}" if ii is None or _PLY_TYPES[props[ii][0]] == "f4" else "{:.17g}"
        vert = []
        for p, t in enumerate(tok):
            if not keep_layout and not mask[p]:
                continue
            for k, i in enumerate(xi):
                t[i] = f.format(float(pts[p, k]))
            if ii is not None and mask[p]:
                t[ii] = fi.format(float(pts[p, 3]))
            vert.append(" ".join(t) + "\n")
        head = raw[:start] if keep_layout else _ply_vertex_count(raw[:start], len(vert))
        body = "".join(lines[:skip] + vert + lines[skip + n :])
        dst.write_bytes(head + body.encode("ascii"))
    else:
        raise ValueError(f"PLY format {fmt!r} is not handled")


def _ply_vertex_count(header: bytes, m: int) -> bytes:
    lines = header.decode("ascii").splitlines(keepends=True)
    for i, line in enumerate(lines):
        words = line.split()
        if words[:2] == ["element", "vertex"]:
            lines[i] = f"element vertex {m}" + line[len(line.rstrip("\r\n")) :]
            break
    return "".join(lines).encode("ascii")
