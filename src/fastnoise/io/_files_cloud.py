"""Point-cloud files (split out of
:mod:`fastnoise.io.files`, which re-exports it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from fastnoise.io import _files_cloud_carla as _carla
from fastnoise.io._files_cloud_formats import _PCD_TYPES, _PLY_TYPES, _pcd_header

CLOUD_SUFFIXES = (".bin", ".pcd", ".ply")


def lidar_noise_columns(
    model: Any,
    cloud: np.ndarray,
    frame: int = 0,
    lidar_pose: Any = None,
    threads: int = 1,
    columns: tuple[int, int, int] = (0, 1, 2),
) -> np.ndarray:
    """LidarNoise on an (N, >=3) cloud whose ``columns`` are x, y, z (m): a copy with
    those columns noised (``model.apply`` on them as a contiguous (N, 3) array, frame
    ``frame``) and every other column (intensity, ring, time) kept. A stack (F, N, >=3)
    is frames ``frame``, ``frame + 1``, ..."""
    arr = np.asarray(cloud)
    if arr.ndim == 3:
        res = np.empty_like(arr)
        for k in range(arr.shape[0]):
            res[k] = lidar_noise_columns(model, arr[k], frame + k, lidar_pose, threads, columns)
        return res
    if arr.ndim != 2 or arr.shape[1] < 3:
        raise ValueError(f"cloud has shape {arr.shape}: it must be N x >=3 (x, y, z, ...)")
    if arr.dtype.kind != "f":
        raise TypeError(f"cloud has dtype {arr.dtype}: it must be float32 or float64")
    dt = np.float32 if arr.dtype == np.float32 else np.float64
    xyz = np.ascontiguousarray(arr[:, list(columns)], dtype=dt)
    model.apply(xyz, lidar_pose=lidar_pose, frame=frame, out=xyz, threads=threads)
    res = arr.copy()
    res[:, list(columns)] = xyz
    return res


def _lidar_model(model: Any) -> Any:
    from fastnoise.models.lidar import LidarNoise

    if not isinstance(model, LidarNoise):
        raise TypeError(
            f"point clouds take model 'lidar' or 'carla_lidar', not {type(model).__name__}"
        )
    return model


def _noise_kitti(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    if _carla.is_carla(model):
        return _carla.carla_kitti(src, dst, model, options, threads)
    raw = np.fromfile(src, dtype="<f4")
    if raw.size % 4:
        raise ValueError(f"{raw.size} float32 values: a KITTI .bin holds N x 4 (x, y, z, i)")
    cloud = raw.reshape(-1, 4)
    res = lidar_noise_columns(_lidar_model(model), cloud, 0, options.get("pose"), threads)
    res.astype("<f4").tofile(dst)


def _noise_pcd(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    if _carla.is_carla(model):
        return _carla.carla_pcd(src, dst, model, options, threads)
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
    n_pts = int(hdr.get("POINTS", ["0"])[0])
    kind = hdr["DATA"][0].lower()
    lidar = _lidar_model(model)
    xi = [names.index(n) for n in ("x", "y", "z")]
    if kind == "binary":
        formats = []
        for t, s, c in zip(types, sizes, counts, strict=True):
            code = _PCD_TYPES.get((t.upper(), s))
            if code is None:
                raise ValueError(f"PCD TYPE {t} SIZE {s} is not a known type")
            formats.append(("<" + code, (c,)) if c > 1 else "<" + code)
        uniq = [f"{n}__{i}" for i, n in enumerate(names)]  # PCD allows repeated "_" names
        dt = np.dtype({"names": uniq, "formats": formats})
        body = np.frombuffer(raw, dtype=dt, count=n_pts, offset=start).copy()
        for i in xi:
            if body.dtype[uniq[i]].kind != "f":
                raise ValueError(f"PCD field {names[i]!r} must be a float (TYPE F)")
        ftype = np.float32 if all(sizes[i] == 4 for i in xi) else np.float64
        xyz = np.stack([body[uniq[i]] for i in xi], axis=1).astype(ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        for k, i in enumerate(xi):
            body[uniq[i]] = xyz[:, k]
        tail = raw[start + n_pts * dt.itemsize :]
        dst.write_bytes(raw[:start] + body.tobytes() + tail)
    elif kind == "ascii":
        lines = raw[start:].decode("ascii").splitlines(keepends=True)
        rows = [ln for ln in lines if ln.strip()]
        if len(rows) < n_pts:
            raise ValueError(f"PCD says {n_pts} points but has {len(rows)} data lines")
        # token index of each field's first value
        first = np.cumsum([0, *counts[:-1]])
        tok = [ln.split() for ln in rows[:n_pts]]
        xyz = np.array([[float(t[first[i]]) for i in xi] for t in tok], dtype=np.float64)
        ftype = np.float32 if all(sizes[i] == 4 for i in xi) else np.float64
        xyz = xyz.astype(ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        fmt = "{:.9g}" if ftype == np.float32 else "{:.17g}"
        out_lines = []
        for p, t in enumerate(tok):
            for k, i in enumerate(xi):
                t[first[i]] = fmt.format(float(xyz[p, k]))
            out_lines.append(" ".join(t) + "\n")
        dst.write_bytes(raw[:start] + "".join(out_lines).encode("ascii"))
    else:
        raise ValueError(
            f"PCD DATA {kind}: only ascii and binary are handled (convert binary_compressed "
            "with pcl_convert_pcd_ascii_binary)"
        )


def _noise_ply(src: Path, dst: Path, model: Any, options: dict, threads: int) -> None:
    if _carla.is_carla(model):
        return _carla.carla_ply(src, dst, model, options, threads)
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
    props = elements[vi][2]
    pnames = [p for _, p in props]
    for n in ("x", "y", "z"):
        if n not in pnames:
            raise ValueError(f"PLY vertex has no property {n!r} (it has {pnames})")
    lidar = _lidar_model(model)
    xi = [pnames.index(n) for n in ("x", "y", "z")]
    ftype = np.float32 if all(_PLY_TYPES[props[i][0]] == "f4" for i in xi) else np.float64
    if fmt in ("binary_little_endian", "binary_big_endian"):
        order = "<" if fmt == "binary_little_endian" else ">"
        offset = start
        for e in elements[:vi]:
            offset += e[1] * np.dtype([(p, order + _PLY_TYPES[t]) for t, p in e[2]]).itemsize
        dt = np.dtype([(f"{p}__{i}", order + _PLY_TYPES[t]) for i, (t, p) in enumerate(props)])
        n = elements[vi][1]
        body = np.frombuffer(raw, dtype=dt, count=n, offset=offset).copy()
        keys = [dt.names[i] for i in xi]
        xyz = np.stack([body[k] for k in keys], axis=1).astype(ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        for k, key in enumerate(keys):
            body[key] = xyz[:, k]
        dst.write_bytes(raw[:offset] + body.tobytes() + raw[offset + n * dt.itemsize :])
    elif fmt == "ascii":
        text = raw[start:].decode("ascii")
        lines = text.splitlines(keepends=True)
        skip = sum(e[1] for e in elements[:vi])
        n = elements[vi][1]
        rows = lines[skip : skip + n]
        tok = [ln.split() for ln in rows]
        xyz = np.array([[float(t[i]) for i in xi] for t in tok], dtype=np.float64).astype(ftype)
        lidar.apply(xyz, lidar_pose=options.get("pose"), frame=0, out=xyz, threads=threads)
        f = "{:.9g}" if ftype == np.float32 else "{:.17g}"
        for p, t in enumerate(tok):
            for k, i in enumerate(xi):
                t[i] = f.format(float(xyz[p, k]))
            lines[skip + p] = " ".join(t) + "\n"
        dst.write_bytes(raw[:start] + "".join(lines).encode("ascii"))
    else:
        raise ValueError(f"PLY format {fmt!r} is not handled")
